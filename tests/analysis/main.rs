//! The code intelligence's integration tests: analyses and the edits they
//! compute on Python fixtures, the project index (queries, scopes, updates,
//! on-demand scans), and scope resolution and `Validate` against CPython.
//! One binary, each former test file a module (see `tests/engine/main.rs`
//! for why); e.g. `cargo test --test analysis index_scopes::`.

mod analysis_compile_checks;
mod analysis_edits;
mod analysis_incremental;
mod analysis_outline;
mod analysis_report;
mod analysis_robustness;
mod index_on_demand;
mod index_outline;
mod index_queries;
mod index_scopes;
mod index_update;
mod scope_symtable;
