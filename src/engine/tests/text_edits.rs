//! Engine conversations: text edits (start with `use super::*;` for the fixture).
