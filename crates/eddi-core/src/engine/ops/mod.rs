//! The typed operations layer: what the code and index commands *do*, as
//! plain data in and out — no wording. `Find References|Definition|Callers`,
//! `Show Function|Class|Method` and `Analyze … Structure|Complexity|Dependencies`
//! are parse → operation → render: the operation returns the values below
//! (or an [`OpError`]), and each surface words them its own way — the terse
//! replies in `engine::query` and `engine::code`, the JSON data in
//! [`json`]. The scripting language and the agent tools are further clients
//! of the same operations.
//!
//! Invariant: nothing here builds a sentence. A message an `OpError` carries
//! is the analysis layer's own (it names what to fix); hints in the terse
//! language are added by the renderers.

pub(super) mod code;
pub(super) mod files;
pub mod json;
pub(super) mod symbols;

pub use files::{
    hash_matches, text_hash, EditError, FileLines, FilesChanged, LineRange, LinesEdited, MIN_HASH,
};

use crate::analysis::index::IndexError;
use crate::analysis::AnalysisError;
use crate::edit::Position;
pub use crate::failure::{ErrorKind, OpError};

/// A stretch of text: from `start` up to (not including) `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: Position,
    pub end: Position,
}

impl Span {
    /// The span of `name` written from `start` on one line.
    pub fn of_name(start: Position, name: &str) -> Span {
        let end = Position::new(start.line, start.col + name.chars().count());
        Span { start, end }
    }
}

/// One site in the workspace: a reference, a call, a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// Workspace-relative, `/`-separated.
    pub path: String,
    pub span: Span,
    /// Proven (`false`: a use the index can neither prove nor exclude).
    pub certain: bool,
    /// The function or class the site is in (`None`: module level, or not asked).
    pub in_symbol: Option<String>,
    /// The site's line, trimmed, when it was read.
    pub context: Option<String>,
}

/// Uses of a symbol: references or calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uses {
    /// Certain ones first, then the possible ones, each sorted by place.
    pub sites: Vec<Location>,
    /// The project does not define the symbol (any more): the sites are
    /// uses that resolve to nothing.
    pub unresolved: bool,
}

impl Uses {
    pub fn certain(&self) -> impl Iterator<Item = &Location> {
        self.sites.iter().filter(|s| s.certain)
    }

    pub fn possible(&self) -> impl Iterator<Item = &Location> {
        self.sites.iter().filter(|s| !s.certain)
    }
}

/// Where a symbol (or a module) is defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinitionSite {
    /// `module.Class.method`, or the module's dotted name.
    pub qualified_name: String,
    /// `function`, `method`, `class`, `variable`, `attribute`, `module`.
    pub kind: &'static str,
    /// From the `def`/`class` keyword (a variable's name) to the end of the name.
    pub location: Location,
}

/// A function, class, method or variable of the current file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    pub kind: &'static str,
    /// A name that addresses exactly this element (`Text.plain.setter`).
    pub name: String,
    pub path: String,
    /// From its keyword to the end of its last code token.
    pub span: Span,
    /// The definition's text (`\r` removed).
    pub text: String,
    /// The content hash of the whole file as read (see `files`): the
    /// precondition of an edit of what was shown.
    pub file_hash: String,
}

/// One node of a file's structure: the file, a class, a function, …
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructureNode {
    /// `file`, `class`, `function`, `method`, `variable`, `attribute`.
    pub kind: &'static str,
    /// The path for the file; else the element's name (a form that works
    /// where the name alone is ambiguous: `plain.setter`).
    pub name: String,
    /// A name that addresses exactly this element (`Text.plain.setter`).
    pub form: String,
    pub is_async: bool,
    /// The element's keyword to the position after it; `None` for the file.
    pub span: Option<Span>,
    pub children: Vec<StructureNode>,
}

/// The complexity of one block (function, method, class).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockComplexity {
    /// Qualified within the file (`C.m`).
    pub name: String,
    pub complexity: u32,
}

/// McCabe complexity of the file or of one element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComplexityReport {
    /// The element asked about; `None` for the file.
    pub subject: Option<StructureNode>,
    /// The element's own figure (`None` for a file or a variable).
    pub total: Option<u32>,
    /// Every block inside, in source order.
    pub blocks: Vec<BlockComplexity>,
}

impl ComplexityReport {
    /// The blocks, most complex first (source order among equals).
    pub fn ranked(&self) -> Vec<&BlockComplexity> {
        let mut ranked: Vec<&BlockComplexity> = self.blocks.iter().collect();
        ranked.sort_by_key(|b| std::cmp::Reverse(b.complexity));
        ranked
    }
}

impl From<crate::commands::ParseError> for OpError {
    fn from(error: crate::commands::ParseError) -> OpError {
        OpError {
            kind: ErrorKind::InvalidCommand,
            message: error.message,
            candidates: error.candidates,
        }
    }
}

impl From<crate::edit::PositionError> for OpError {
    fn from(error: crate::edit::PositionError) -> OpError {
        OpError::new(ErrorKind::OutOfRange, error.to_string())
    }
}

impl From<AnalysisError> for OpError {
    fn from(error: AnalysisError) -> OpError {
        let message = error.to_string();
        let (kind, candidates) = match error {
            AnalysisError::NotFound { available, .. } => (ErrorKind::NotFound, available.shown),
            AnalysisError::FieldNotMethod { form, .. } => (ErrorKind::NotFound, vec![form]),
            // names, as for `NotFound` (`f(a)`, not the form `Function f(a)`)
            AnalysisError::Ambiguous { candidates, .. } => (
                ErrorKind::Ambiguous,
                candidates
                    .into_iter()
                    .map(|c| match c.form.split_once(' ') {
                        Some((_, name)) => name.to_owned(),
                        None => c.form,
                    })
                    .collect(),
            ),
            AnalysisError::NotIn(_) | AnalysisError::NotInClassWrittenOn { .. } => {
                (ErrorKind::NotApplicable, Vec::new())
            }
            AnalysisError::InvalidCode(_)
            | AnalysisError::InvalidName(_)
            | AnalysisError::InvalidEdit(_) => (ErrorKind::InvalidArgument, Vec::new()),
            AnalysisError::UnknownStyle(_) => (
                ErrorKind::InvalidArgument,
                vec!["ruff".into(), "black".into()],
            ),
            AnalysisError::UnknownFormatStyle { formatter, .. } => {
                (ErrorKind::InvalidArgument, vec![formatter.to_owned()])
            }
            AnalysisError::NameConflict(_)
            | AnalysisError::WouldOverwrite(_)
            | AnalysisError::Clash(_) => (ErrorKind::Conflict, Vec::new()),
            AnalysisError::FormatterMissing(_) | AnalysisError::FormatFailed(_) => {
                (ErrorKind::Unavailable, Vec::new())
            }
            AnalysisError::ParseFailed(_) => (ErrorKind::Internal, Vec::new()),
        };
        OpError {
            kind,
            message,
            candidates,
        }
    }
}

impl From<IndexError> for OpError {
    fn from(error: IndexError) -> OpError {
        let message = error.to_string();
        let (kind, candidates) = match error {
            IndexError::NotFound { choices, .. } => (ErrorKind::NotFound, choices),
            IndexError::Ambiguous { candidates, .. } => (
                ErrorKind::Ambiguous,
                candidates.into_iter().map(|c| c.qualified_name).collect(),
            ),
            IndexError::AmbiguousModule { paths, .. } => (ErrorKind::Ambiguous, paths),
            IndexError::InvalidPath(_) | IndexError::NotPython(_) => {
                (ErrorKind::InvalidArgument, Vec::new())
            }
        };
        OpError {
            kind,
            message,
            candidates,
        }
    }
}
