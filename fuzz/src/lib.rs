//! The checks behind Eddi's fuzz targets, one module per target.
//!
//! They live here, in plain Rust with no fuzzing dependency, so that the
//! same bodies run under libFuzzer (`fuzz_targets/*.rs`, via `cargo fuzz`)
//! and as ordinary tests over the saved corpus (`tests/fuzz/fuzz_corpus.rs` in
//! the main crate includes this module with `#[path]`).

pub mod checks;
