//! Code intelligence (tree-sitter): syntax trees, symbols, analysis.
//!
//! Per-file and pure: every function takes a [`ropey::Rope`] (and/or a
//! [`SyntaxTree`]) and returns data. Edits are returned as [`TextEdit`]s in
//! char offsets, never applied. The project-wide index lives in
//! `analysis::index` (another module, built on top of this one).

pub mod complexity;
pub mod error;
pub mod index;
pub mod language;
pub mod lines;
pub mod outline;
pub mod syntax;

pub use error::{AnalysisError, Candidate};
pub use language::Language;
pub use syntax::{CharEdit, SyntaxTree};
