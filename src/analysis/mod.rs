//! Code intelligence (tree-sitter): syntax trees, symbols, analysis.
//!
//! Per-file and pure: every function takes a [`ropey::Rope`] (and/or a
//! [`SyntaxTree`]) and returns data. Edits are returned as [`TextEdit`]s in
//! char offsets, never applied. The project-wide index lives in
//! `analysis::index` (another module, built on top of this one).

pub mod comment;
pub mod complexity;
pub mod delete;
pub mod dependencies;
pub mod error;
pub mod format;
pub mod insert;
pub mod issues;
pub mod language;
pub mod lines;
pub mod modify;
pub mod outline;
pub mod reindent;
pub mod scope;
pub mod syntax;
pub mod textedit;
pub mod validate;

pub use error::{AnalysisError, Candidate};
pub use language::Language;
pub use syntax::{CharEdit, SyntaxTree};
