//! One module per fuzz target; each has `check(data: &[u8])`, which panics
//! on a finding (a crash, or a divergence from the model it keeps) and
//! returns normally otherwise. Any input is valid: bytes the decoders do not
//! need are ignored, missing ones read as zero.
//!
//! Shared by the fuzz crate (`eddi_fuzz::checks`) and the main crate's
//! `tests/fuzz/fuzz_corpus.rs` (through `#[path]`), so it may depend only on
//! `eddi` and on crates the main crate already depends on.

pub mod analysis;
pub mod change;
pub mod commit;
pub mod edit;
pub mod input;
pub mod parser;
pub mod refactor;
pub mod tools;
pub mod wire;

/// A target's check: panics on a finding.
pub type Check = fn(&[u8]);

/// The targets, by the names of their fuzz binaries and corpus directories.
pub const TARGETS: &[(&str, Check)] = &[
    ("parser", parser::check),
    ("wire", wire::check),
    ("edit", edit::check),
    ("commit", commit::check),
    ("change", change::check),
    ("analysis", analysis::check),
    ("refactor", refactor::check),
    ("tools", tools::check),
];
