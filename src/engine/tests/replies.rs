//! Engine conversations: replies (start with `use super::*;` for the fixture).
