//! A query alone (`functions where complexity > 8`, `caller of f()`): the
//! elements the script's query engine finds, with what a caller reads of
//! each — its text, where it ends, its parameters as written, a class's
//! methods, a file's imports. The Python API's elements are these, so a
//! query made in Python is the one a script makes. Nothing is written.

use crate::analysis::outline::SymbolKind as OutlineKind;
use crate::edit::position::{from_char, line_of};
use crate::failure::OpError;

use super::super::ast::{ElementKind, Query, Script};
use super::element::{Detail, Element};
use super::{Interpreter, Project};

/// One element a query found, and what is read of it when it is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected {
    pub element: Element,
    /// The name the index knows a definition by (`pkg.mod.Class.f`): what
    /// `caller of` and `class implementing` take.
    pub indexed_name: String,
    /// Its text (a definition from its keyword, without decorators);
    /// empty for a definition, variable or file asked without the long
    /// texts (a walk of a project reads none of them).
    pub text: String,
    /// 1-based line of its last char.
    pub end_line: usize,
    /// 0-based column (chars) of its start.
    pub col: usize,
    /// A function's or method's parameter names as written (`self`
    /// included, unlike the `params` condition).
    pub params: Vec<String>,
    /// A class's methods, in source order.
    pub methods: Vec<Selected>,
    /// A file's imports, one per name bound.
    pub imports: Vec<Selected>,
}

/// What a query answers: its elements, or why it failed.
pub type Answer = Result<Vec<Selected>, OpError>;

/// What a `select` found, as data: one query's elements, or each of many
/// queries' answers. The renderers make it JSON (`engine/ops/json.rs`) or
/// the Python API's objects (the binding), never text first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selections {
    /// One query's elements.
    Elements(Vec<Selected>),
    /// Each query's answer, in the order asked.
    Answers(Vec<Answer>),
}

/// The elements `query` (checked) finds in `project`, sorted by file and
/// place; with `texts`, the long texts too (see [`Selected::text`]).
pub fn select(query: &Query, source: &str, project: &dyn Project, texts: bool) -> Answer {
    let mut interpreter = Interpreter::new(project, source, &[]);
    interpreter.answer(query, texts)
}

/// A script run first, nothing written (checked; `source` its text): the
/// queries that follow it see the files as it leaves them.
pub struct Before<'s> {
    pub script: &'s Script,
    pub source: &'s str,
}

/// Each query (checked) answered on its own — its failure is its answer
/// only — on one reading of the project: a file is read and parsed once
/// for all of them. With `before`, they see the files as that script
/// leaves them; its failure fails them all. With `texts`, the long texts
/// too (see [`Selected::text`]).
pub fn select_each(
    queries: &[&Query],
    before: Option<Before<'_>>,
    project: &dyn Project,
    texts: bool,
) -> Result<Vec<Answer>, OpError> {
    let source = before.as_ref().map_or("", |b| b.source);
    let mut interpreter = Interpreter::new(project, source, &[]);
    if let Some(before) = &before {
        super::unsupported(before.script).map_err(super::Failed::into_error)?;
        for statement in &before.script.statements {
            interpreter
                .statement(statement, true)
                .map_err(super::Failed::into_error)?;
        }
    }
    Ok(queries
        .iter()
        .map(|query| interpreter.answer(query, texts))
        .collect())
}

impl Interpreter<'_> {
    fn answer(&mut self, query: &Query, texts: bool) -> Answer {
        let found = self.query(query, None).map_err(super::Failed::into_error)?;
        found
            .into_iter()
            .map(|element| self.selected(element, query, texts))
            .collect()
    }

    fn selected(
        &mut self,
        element: Element,
        query: &Query,
        texts: bool,
    ) -> Result<Selected, OpError> {
        let text = self.doc_text(&element.path)?;
        let end = element.span.end.min(text.len_chars());
        let start = element.span.start.min(end);
        let methods = match element.kind {
            ElementKind::Class => self
                .methods_of(&element, query.span)
                .map_err(super::Failed::into_error)?,
            _ => Vec::new(),
        };
        let imports = match element.kind {
            ElementKind::File => self.imports_of(&element.path)?,
            _ => Vec::new(),
        };
        let params = match &element.detail {
            Detail::Definition { .. } => {
                let parsed = self.parse(&element.path)?;
                parsed
                    .outline
                    .symbols
                    .iter()
                    .find(|s| {
                        s.definition.start == element.span.start
                            && matches!(s.kind, OutlineKind::Function | OutlineKind::Method)
                    })
                    .map(|s| s.param_names.clone())
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let leaf = |interpreter: &mut Self, e: Element| interpreter.selected(e, query, texts);
        let long = matches!(
            element.detail,
            Detail::File { .. } | Detail::Definition { .. } | Detail::Variable { .. }
        );
        Ok(Selected {
            indexed_name: self.indexed_name(&element),
            text: if texts || !long {
                text.slice(start..end).to_string()
            } else {
                String::new()
            },
            end_line: line_of(&text, end.saturating_sub(1).max(start)) + 1,
            col: from_char(&text, start).col,
            params,
            methods: methods
                .into_iter()
                .map(|m| leaf(self, m))
                .collect::<Result<_, _>>()?,
            imports: imports
                .into_iter()
                .map(|i| leaf(self, i))
                .collect::<Result<_, _>>()?,
            element,
        })
    }
}
