//! Eddi: a code editor without a screen — the server.
//!
//! The core (edits, changes, the workspace, Python code intelligence,
//! refactors, sessions, the engine, the command language) is the crate
//! `eddi_core`, which knows no transport; this crate adds the transports
//! (NATS, MCP, the CLI), the agent tools and the configuration. The core's
//! modules are re-exported under their own names, so `eddi::engine` is
//! `eddi_core::engine`. See `docs/ARCHITECTURE.md` for the code map.

pub use eddi_core::{
    analysis, change, choices, commands, edit, engine, language, outcome, priority, progress,
    refactor, reply, script, session, workspace,
};

pub mod cli;
pub mod config;
pub mod tools;
pub mod transport;

/// Eddi's allocations go to mimalloc, tree-sitter's (C `malloc`) stay with
/// the system allocator: the index's tables, which live as long as the
/// index, no longer fragment the heap in which every parse allocates and
/// frees its tree (measured in `docs/BENCHMARKS-index.md`; tree-sitter's
/// heap on mimalloc too sped the parse floor, not the cold index:
/// `docs/PERFORMANCE.md`). The binary's choice, made here rather than in
/// the core, so that an embedder of `eddi_core` (a Python extension) keeps
/// its own. Not under `cargo fuzz`,
/// whose AddressSanitizer watches the system allocator.
#[cfg(not(fuzzing))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(test)]
mod wording_lint;
