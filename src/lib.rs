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
pub mod language;
pub mod priority;
pub mod refactor;
pub mod reply;
pub mod session;
pub mod tools;
pub mod transport;
pub mod workspace;

/// Eddi's allocations go to mimalloc, tree-sitter's (C `malloc`) stay with
/// the system allocator: the index's tables, which live as long as the
/// index, no longer fragment the heap in which every parse allocates and
/// frees its tree (measured in `docs/BENCHMARKS-index.md`). Not under
/// `cargo fuzz`, whose AddressSanitizer watches the system allocator.
#[cfg(not(fuzzing))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
