//! Engine conversations: commit (start with `use super::*;` for the fixture).
