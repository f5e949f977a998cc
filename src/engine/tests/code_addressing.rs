//! Engine conversations: code addressing (start with `use super::*;` for the fixture).
