//! Engine conversations: state (start with `use super::*;` for the fixture).
