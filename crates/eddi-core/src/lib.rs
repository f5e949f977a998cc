//! Eddi's core: everything but the transports.
//!
//! Edits and changes as data, the workspace (the only file I/O), Python
//! code intelligence, the refactors, sessions, the engine (the one door
//! every transport drives), the command language and the
//! scripting language's front end. No async runtime, no
//! network, no global allocator: the server crate `eddi` and any other
//! embedder bring their own. See `docs/ARCHITECTURE.md` for the code map.

pub mod analysis;
pub mod change;
pub mod choices;
pub mod commands;
pub mod edit;
pub mod engine;
pub mod failure;
pub mod language;
pub mod outcome;
pub mod priority;
pub mod progress;
pub mod refactor;
pub mod reply;
pub mod script;
pub mod session;
pub mod workspace;
