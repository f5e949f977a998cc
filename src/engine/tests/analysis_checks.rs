//! Engine conversations: analysis checks (start with `use super::*;` for the fixture).
