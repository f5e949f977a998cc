//! Errors of the project index, worded for the agent that sent the query:
//! each says what was wrong and what to send instead.

use crate::edit::Position;

/// A symbol offered by [`IndexError::Ambiguous`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolCandidate {
    pub qualified_name: String,
    pub path: String,
    pub position: Position,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// `offered` says what to ask instead: the close names, or the members
    /// of the owner the query names (`Session.nosuch`).
    #[error("Not found: {kind} '{name}'. {offered}")]
    NotFound {
        kind: &'static str,
        name: String,
        offered: String,
    },
    #[error(
        "Ambiguous symbol '{name}': {}; use a qualified name",
        candidates_text(candidates)
    )]
    Ambiguous {
        name: String,
        candidates: Vec<SymbolCandidate>,
    },
    #[error("Invalid path '{0}': use a path relative to the workspace root, inside it")]
    InvalidPath(String),
    #[error("Not a Python file: '{0}' (only .py files are indexed)")]
    NotPython(String),
}

fn candidates_text(candidates: &[SymbolCandidate]) -> String {
    candidates
        .iter()
        .map(|c| format!("{} at {}:{}", c.qualified_name, c.path, c.position))
        .collect::<Vec<_>>()
        .join(", ")
}

pub type Result<T, E = IndexError> = std::result::Result<T, E>;
