//! A code element a query yields: data — its kind, file, span, name and
//! what was measured of it when it was found — never a reference into a
//! parse. Its span is in chars of its file's text at `version`; the
//! snapshot maps it to the text of now (see `snapshot`).

use std::ops::Range;

use super::super::ast::ElementKind;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    pub kind: ElementKind,
    pub path: String,
    pub span: Range<usize>,
    pub version: usize,
    /// 1-based line of the span's start, when it was found.
    pub line: usize,
    pub name: String,
    pub qualified_name: String,
    pub detail: Detail,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    File {
        line_count: usize,
        complexity: u32,
    },
    /// A function, method or class.
    Definition {
        /// Whole lines: comments, decorators and the definition (what
        /// `remove` deletes).
        full: Range<usize>,
        params: Vec<String>,
        decorators: Vec<String>,
        /// The enclosing class of a method.
        class: Option<String>,
        bases: Vec<String>,
        complexity: u32,
        line_count: usize,
        indent: usize,
    },
    /// A call: its callee as written and its arguments as written.
    Call {
        function: String,
        arguments: Vec<String>,
    },
    Line {
        number: usize,
    },
    /// A module variable (`symbol of type variable`).
    Variable {
        full: Range<usize>,
    },
    /// A place a code pattern matched: the pattern (to match it again on
    /// the text of now) and what its metavariables matched.
    Match {
        pattern: String,
        captures: Vec<Captured>,
    },
    /// What a metavariable matched: its type word (`number`, `call`, …).
    Capture {
        type_word: &'static str,
    },
    /// One name an import binds; `span` is its statement.
    Import {
        module: String,
        names: Vec<String>,
        bound: String,
        unused: bool,
        top_level: bool,
    },
}

/// A metavariable's match, when the pattern matched: chars of the file
/// at the match's version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    pub name: String,
    pub span: Range<usize>,
    pub kind: &'static str,
    pub line: usize,
    pub text: String,
}

impl Element {
    /// `path:line`
    pub fn location(&self) -> String {
        format!("{}:{}", self.path, self.line)
    }

    /// How a runtime error names it: `function f (a.py:3)`.
    pub fn describe(&self) -> String {
        match self.kind {
            ElementKind::File => format!("file {}", self.path),
            _ => format!("{} {} ({})", self.kind.word(), self.name, self.location()),
        }
    }
}
