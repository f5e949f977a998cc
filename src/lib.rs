//! Eddi: a code editor without a screen.
//!
//! See `docs/ARCHITECTURE.md` for the code map.

pub mod analysis;
pub mod change;
pub mod choices;
pub mod cli;
pub mod config;
pub mod edit;
pub mod engine;
pub mod lang;
pub mod refactor;
pub mod reply;
pub mod session;
pub mod tools;
pub mod transport;
pub mod workspace;
