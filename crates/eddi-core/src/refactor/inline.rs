//! Inline a variable or a function where that is provably safe.
//!
//! `Inline_Variable` (in `inline/variable.rs`) replaces every read of a
//! variable assigned once with its value and removes the assignment;
//! `InlineFunction` (in `inline/function.rs`) replaces every call of a
//! function or method with its body, the arguments mapped to the
//! parameters, and removes the definition when nothing else uses it. Both
//! share `inline/expr.rs`: precedence (the parentheses a moved expression
//! needs), effects (what moving or repeating it would change) and
//! evaluation order.
//!
//! Whatever cannot be proven safe is refused — `Cannot inline - <why>` —
//! and nothing changes. The proofs are conservative: a refusal may be
//! stricter than Python needs (the reason says what to change), an
//! inlining never changes what the program computes, except through what
//! static analysis cannot see (`exec`, `globals()[…]`, operators overloaded
//! with side effects, properties read as the callee of a call).
//!
//! Names are resolved as seen from any scope with [`Scopes::resolve`], the
//! resolver's own LEGB rule.

mod expr;
mod function;
mod variable;

use std::sync::Arc;

use tree_sitter::Node;

use super::{InlineKind, Parsed, Project, RefactorError, RefactorFailure, Refactored, Refactoring};
use crate::analysis::scope::{self, Scopes};
use crate::change::Indel;

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    match request {
        Refactoring::Inline {
            kind: InlineKind::Variable,
            name,
        } => variable::inline(project, name.trim()),
        Refactoring::Inline {
            kind: InlineKind::Function,
            name,
        } => function::inline(project, name.trim()),
        _ => Err(super::not_built(request)),
    }
}

/// `Cannot inline - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(RefactorFailure::Refused, format!("Cannot inline - {why}"))
}

/// `path` as inlining reads it, parsed once for the computation: a file
/// with syntax errors is refused, since what broken code means cannot be
/// proven.
fn parsed(project: &Project<'_>, path: &str) -> Result<Arc<Parsed>, RefactorError> {
    without_errors(project.parsed(path)?)
}

/// [`parsed`] for a file only one step reads (one of the files a function
/// is called in): its tree is not kept ([`Project::scanned`]).
fn scanned(project: &Project<'_>, path: &str) -> Result<Arc<Parsed>, RefactorError> {
    without_errors(project.scanned(path)?)
}

fn without_errors(file: Arc<Parsed>) -> Result<Arc<Parsed>, RefactorError> {
    if file.tree.has_errors() {
        return Err(refused(format!(
            "{} has syntax errors: fix them first",
            file.path()
        )));
    }
    Ok(file)
}

/// Removes a statement: its whole lines when it has them to itself,
/// else the statement and the `;` that joins it to its neighbour; a
/// statement alone in its block leaves `pass`.
fn remove_statement(file: &Parsed, statement: Node<'_>) -> Indel {
    let text = file.text();
    let next = named_sibling(statement, true);
    let prev = named_sibling(statement, false);
    let start_line = statement.start_position().row;
    let end_line = statement.end_position().row;
    match (prev, next) {
        (_, Some(n)) if n.start_position().row == end_line => {
            return Indel::new(
                file.char_of(statement.start_byte())..file.char_of(n.start_byte()),
                "",
            );
        }
        (Some(p), _) if p.end_position().row == start_line => {
            return Indel::new(
                file.char_of(p.end_byte())..file.char_of(statement.end_byte()),
                "",
            );
        }
        (None, None) if statement.parent().is_some_and(|p| p.kind() == "block") => {
            return Indel::new(file.chars(statement), "pass");
        }
        _ => {}
    }
    let from = text.line_to_char(start_line);
    let to = if end_line + 1 < text.len_lines() {
        text.line_to_char(end_line + 1)
    } else {
        text.len_chars()
    };
    Indel::new(from..to, "")
}

/// Where `name` is written as a word in the strings and comments of a
/// file (an annotation in quotes, `__all__`, prose): not changed, reported.
fn mentions(file: &Parsed, name: &str) -> Vec<crate::analysis::index::Location> {
    let mut out = Vec::new();
    let mut stack = vec![file.tree.root()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "string_content" | "comment") {
            let text = n.utf8_text(file.src().as_bytes()).unwrap_or_default();
            let word = |c: char| c.is_alphanumeric() || c == '_';
            for (i, _) in text.match_indices(name) {
                let before = text[..i].chars().next_back();
                let after = text[i + name.len()..].chars().next();
                if before.is_some_and(word) || after.is_some_and(word) {
                    continue;
                }
                let start = file.char_of(n.start_byte() + i);
                out.push(crate::analysis::index::Location {
                    path: file.path().to_string(),
                    position: file.position(start),
                    end: file.position(start + name.chars().count()),
                });
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out.sort();
    out
}

/// The next (or previous) named sibling that is not a comment.
fn named_sibling(node: Node<'_>, forward: bool) -> Option<Node<'_>> {
    let mut n = node;
    loop {
        n = if forward {
            n.next_named_sibling()?
        } else {
            n.prev_named_sibling()?
        };
        if n.kind() != "comment" {
            return Some(n);
        }
    }
}

/// How a scope is named in messages: `f`, `class C`, `the module`.
fn scope_name(scopes: &Scopes, scope: usize) -> String {
    let s = &scopes.scopes[scope];
    match (s.kind, &s.name) {
        (scope::ScopeKind::Module, _) => "the module".to_string(),
        (scope::ScopeKind::Class, Some(n)) => format!("class {n}"),
        (scope::ScopeKind::Function, Some(n)) => n.clone(),
        (scope::ScopeKind::Lambda, _) => "a lambda".to_string(),
        _ => "a comprehension".to_string(),
    }
}

/// A short form of an expression for messages: its first line, cut.
fn shown(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let cut: String = line.chars().take(40).collect();
    if line.len() < text.len() || line.chars().count() > 40 {
        format!("`{cut}…`")
    } else {
        format!("`{cut}`")
    }
}

/// The f-string `{…}` a read is in, if any (before any nested scope).
fn enclosing_interpolation(node: Node<'_>) -> Option<Node<'_>> {
    let mut n = node;
    while let Some(p) = n.parent() {
        match p.kind() {
            "interpolation" => return Some(p),
            "string" | "block" | "module" => return None,
            _ => n = p,
        }
    }
    None
}

/// Whether `value` can be written in this f-string's `{…}` (quotes,
/// backslashes, comments and line breaks could not before Python 3.12;
/// `{name=}` prints the name); true when it needs parentheses there.
fn fits_interpolation(
    file: &Parsed,
    what: &str,
    name: &str,
    value: &str,
    interpolation: Node<'_>,
    site: Node<'_>,
) -> Result<bool, RefactorError> {
    let at = file.at(site);
    let string = interpolation.parent().filter(|p| p.kind() == "string");
    let quote = string
        .and_then(|s| {
            s.utf8_text(file.src().as_bytes())
                .ok()
                .and_then(|t| t.chars().find(|c| *c == '"' || *c == '\''))
        })
        .unwrap_or('"');
    if value.contains(quote) || value.contains('\\') || value.contains('\n') || value.contains('#')
    {
        return Err(refused(format!(
            "{what} cannot be written inside the f-string at {at} (quotes, backslashes, comments or line breaks)"
        )));
    }
    let after = &file.src()[site.end_byte()..interpolation.end_byte()];
    if after.trim_start().starts_with('=') && !after.trim_start().starts_with("==") {
        return Err(refused(format!(
            "the f-string at {at} prints the name {name} (`{{{name}=}}`)"
        )));
    }
    Ok(value.starts_with('{'))
}

#[cfg(test)]
#[path = "tests/inline.rs"]
mod tests;
