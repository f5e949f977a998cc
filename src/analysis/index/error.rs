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
        /// The names `offered` lists, for clients that take them as data.
        choices: Vec<String>,
    },
    #[error(
        "Ambiguous symbol '{name}': {}; {}",
        candidates_text(candidates),
        ambiguity_hint(candidates)
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

/// Different names: one of them is the query. The same name in several
/// files (two projects under the root with the same module names): only the
/// per-file commands can tell them apart (each surface says how).
fn ambiguity_hint(candidates: &[SymbolCandidate]) -> &'static str {
    let first = candidates.first().map(|c| c.qualified_name.as_str());
    if candidates
        .iter()
        .all(|c| Some(c.qualified_name.as_str()) == first)
    {
        "the same module name in several projects"
    } else {
        "use a qualified name"
    }
}

fn candidates_text(candidates: &[SymbolCandidate]) -> String {
    candidates
        .iter()
        .map(|c| format!("{} at {}:{}", c.qualified_name, c.path, c.position))
        .collect::<Vec<_>>()
        .join(", ")
}

pub type Result<T, E = IndexError> = std::result::Result<T, E>;
