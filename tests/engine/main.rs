//! The engine's integration tests: the typed operations, the laws of the
//! edit model, the command language, the state directory and crash-safe
//! commits as real processes see them, and the specification's workflow.
//!
//! The integration tests are a few binaries, one per layer (`engine`,
//! `analysis`, `wire`, `fuzz`), each former test file a module: every test
//! binary links the whole crate, so fewer binaries build and link faster
//! and take less disk. Run one module with a filter, e.g.
//! `cargo test --test engine lang_parser::`.

#[path = "../support/mod.rs"]
mod support;

mod commit_crash;
mod edit_laws;
mod lang_parser;
mod operations;
mod scripts;
mod spec_workflow;
mod state_dir;
