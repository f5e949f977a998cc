//! A query alone (`functions where complexity > 8`, `caller of f()`): the
//! elements the script's query engine finds, with what a caller reads of
//! each — its text, where it ends, its parameters as written, a class's
//! methods, a file's imports. The Python API's elements are these, so a
//! query made in Python is the one a script makes. Nothing is written.

use crate::analysis::outline::SymbolKind as OutlineKind;
use crate::edit::position::from_char;
use crate::failure::OpError;

use super::super::ast::{ElementKind, Query, Script};
use super::element::{Detail, Element};
use super::{Interpreter, Project};

/// One element a query found, and what is read of it when it is found.
#[derive(Debug, Clone)]
pub struct Selected {
    pub element: Element,
    /// The name the index knows a definition by (`pkg.mod.Class.f`): what
    /// `caller of` and `class implementing` take.
    pub indexed_name: String,
    /// Its text (a definition from its keyword, without decorators).
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

/// The elements `query` (checked) finds in `project`, sorted by file and
/// place.
pub fn select(query: &Query, source: &str, project: &dyn Project) -> Answer {
    let mut interpreter = Interpreter::new(project, source, &[]);
    interpreter.answer(query)
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
/// leaves them; its failure fails them all.
pub fn select_each(
    queries: &[&Query],
    before: Option<Before<'_>>,
    project: &dyn Project,
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
        .map(|query| interpreter.answer(query))
        .collect())
}

impl Interpreter<'_> {
    fn answer(&mut self, query: &Query) -> Answer {
        let found = self.query(query, None).map_err(super::Failed::into_error)?;
        found
            .into_iter()
            .map(|element| self.selected(element, query))
            .collect()
    }

    fn selected(&mut self, element: Element, query: &Query) -> Result<Selected, OpError> {
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
        let leaf = |interpreter: &mut Self, e: Element| interpreter.selected(e, query);
        Ok(Selected {
            indexed_name: self.indexed_name(&element),
            text: text.slice(start..end).to_string(),
            end_line: from_char(&text, end.saturating_sub(1).max(start)).line + 1,
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
