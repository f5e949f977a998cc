//! Errors of the project index, worded for the agent that sent the query:
//! each says what was wrong and what to send instead.

use crate::edit::Position;

/// A symbol offered by [`IndexError::Ambiguous`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolCandidate {
    /// The name that resolves back to it: its full name, or its
    /// workspace name where another project has the full name too
    /// (`app_a.src.humanize.time.naturaldelta`).
    pub qualified_name: String,
    /// `module.Class.method`.
    pub full_name: String,
    pub path: String,
    /// Its project's directory (`""` for the workspace root).
    pub project: String,
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
    #[error(
        "Ambiguous module '{name}': several projects have it ({}); name its file instead",
        paths.join(", ")
    )]
    AmbiguousModule { name: String, paths: Vec<String> },
    #[error("Invalid path '{0}': use a path relative to the workspace root, inside it")]
    InvalidPath(String),
    #[error("Not a Python file: '{0}' (only .py files are indexed)")]
    NotPython(String),
}

/// Different names: one of them is the query. One full name in several
/// projects: the workspace names that tell them apart, or a current file
/// in the project meant.
fn ambiguity_hint(candidates: &[SymbolCandidate]) -> String {
    let mut projects: Vec<&str> = candidates.iter().map(|c| c.project.as_str()).collect();
    projects.sort_unstable();
    projects.dedup();
    if projects.len() < 2 {
        return "use a qualified name".to_string();
    }
    let named: Vec<String> = projects.iter().map(|p| project_name(p)).collect();
    let mut names: Vec<&str> = candidates
        .iter()
        .map(|c| c.qualified_name.as_str())
        .collect();
    let all = names.len();
    names.sort_unstable();
    names.dedup();
    if names.len() < all {
        // a directory whose name is not an identifier has no workspace name
        return format!(
            "defined in the projects {}: Open a file of the project meant first (its own symbols win there)",
            named.join(", ")
        );
    }
    format!(
        "defined in the projects {}: name one as {}, or ask with a current file in its project",
        named.join(", "),
        names.join(" or ")
    )
}

/// A project as messages name it: its directory, `.` for the workspace
/// root.
pub(crate) fn project_name(dir: &str) -> String {
    if dir.is_empty() {
        ".".to_string()
    } else {
        dir.to_string()
    }
}

fn candidates_text(candidates: &[SymbolCandidate]) -> String {
    candidates
        .iter()
        .map(|c| format!("{} at {}:{}", c.full_name, c.path, c.position))
        .collect::<Vec<_>>()
        .join(", ")
}

pub type Result<T, E = IndexError> = std::result::Result<T, E>;
