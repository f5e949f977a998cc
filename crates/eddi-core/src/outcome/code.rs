//! What the code commands (Insert, Modify, Comment, Format, Analyze,
//! Validate) did or found, and the syntax errors an edit or a save left,
//! as data. `engine/code_words.rs` words them; a script binds them.

use crate::analysis::comment::Commented;
use crate::analysis::dependencies::Dependencies;
use crate::analysis::issues::Issue;
use crate::analysis::validate::SyntaxError;
use crate::engine::ops::{ComplexityReport, StructureNode};

/// The element a code command worked on, as replies name it: its kind's
/// noun and a name that addresses exactly it (`method Text.plain.setter`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    pub noun: String,
    pub name: String,
}

/// A code command's fact. `subject: None` is the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeFact {
    /// `Insert …` found nothing to add (`why`: the analysis' reason, e.g.
    /// the import is there already).
    NothingInserted { why: String },
    /// `Insert Import` merged the import into the one on this line.
    MergedIntoLine(usize),
    /// `Modify`: the element and how many edits it took.
    Modified { element: Element, edits: usize },
    /// `Comment`: a docstring or a comment, on the element.
    Commented {
        docstring: bool,
        element: Element,
        how: Commented,
    },
    /// `Format` left the text as it was.
    AlreadyFormatted,
    /// `Format`: the counted lines before and after.
    Formatted { before: usize, after: usize },
    /// `Analyze` without a kind: complexity, external dependencies used
    /// and potential issues, counted.
    Overview {
        subject: Option<Element>,
        complexity: ComplexityReport,
        external: usize,
        issues: usize,
    },
    /// `Analyze … Complexity` (said within `limit` chars).
    Complexity {
        subject: Option<Element>,
        report: ComplexityReport,
        limit: usize,
    },
    /// `Analyze … Dependencies` (said within `limit` chars).
    Dependencies {
        subject: Option<Element>,
        dependencies: Dependencies,
        limit: usize,
    },
    /// `Analyze Function|Class|Method … Dependencies` in a JavaScript,
    /// TypeScript, Go, Rust or Java file (said within `limit` chars).
    ElementUses {
        subject: Option<Element>,
        uses: crate::analysis::brace_dependencies::ElementUses,
        limit: usize,
    },
    /// `Analyze File Dependencies` of a JavaScript, TypeScript, Go, Rust
    /// or Java file: what it imports, resolved by the project index (said
    /// within `limit` chars).
    ModuleImports {
        imports: crate::analysis::index::tags::FileImports,
        limit: usize,
    },
    /// `Analyze … Issues` (said within `limit` chars).
    Issues {
        subject: Option<Element>,
        issues: Vec<Issue>,
        limit: usize,
    },
    /// `Analyze … Structure`: the members of the element (or the file's
    /// top level).
    Structure {
        subject: Option<Element>,
        tree: StructureNode,
    },
    /// `Validate`: every syntax error (none: valid), said within `limit`
    /// chars.
    SyntaxErrors {
        errors: Vec<SyntaxError>,
        limit: usize,
    },
    /// `Save`, `Save All`: the file was saved with these syntax errors
    /// (`path` given when several files were saved).
    SavedWithErrors {
        path: Option<String>,
        errors: Vec<SyntaxError>,
    },
    /// A text edit made a valid file of `language` invalid.
    NowInvalid {
        language: &'static str,
        errors: Vec<SyntaxError>,
    },
}
