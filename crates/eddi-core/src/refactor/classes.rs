//! What the class-level refactors share about one class: finding the one
//! class a request names and its module parsed (the prologue of every
//! class refactoring), the name a new class may take, its node in the
//! parsed file, the methods of its body and the names a module's dotted
//! expression denotes.

use std::sync::Arc;

use tree_sitter::Node;

use super::{Argument, Parsed, Project, RefactorError, RefactorFailure};
use crate::analysis::identifier::is_identifier;
use crate::analysis::index::file::FileIndex;
use crate::analysis::index::rename::DefInfo;
use crate::analysis::index::resolve::DefRef;
use crate::analysis::outline::SymbolKind;
use crate::analysis::scope::is_builtin;

/// The one class `query` names (the current file first); `refused` words
/// the refusal of a name several classes have.
pub(super) fn find(
    project: &Project<'_>,
    query: &str,
    refused: impl Fn(String) -> RefactorError,
) -> Result<DefRef, RefactorError> {
    let current = project.current.as_ref().map(|c| c.path.as_str());
    let defs = project.index.rename_symbol(query, current)?;
    let classes: Vec<DefRef> = defs
        .iter()
        .copied()
        .filter(|&d| project.index.kind(d) == Some(SymbolKind::Class))
        .collect();
    match classes.as_slice() {
        [one] => Ok(*one),
        [] => {
            let what = defs
                .first()
                .and_then(|&d| project.index.kind(d))
                .map_or("something else", SymbolKind::noun);
            Err(RefactorError::new(
                RefactorFailure::NotFound,
                format!("Class not found: {query} is a {what}, not a class"),
            )
            .at(Argument::Symbol))
        }
        many => {
            let places: Vec<String> = many
                .iter()
                .filter_map(|&d| project.index.def_info(d))
                .map(|i| format!("{}:{}", i.path, i.name_location.position))
                .collect();
            Err(refused(format!(
                "{query} is defined {} times ({}): which one the module ends up with depends on how it runs",
                many.len(),
                places.join(", ")
            ))
            .at(Argument::Symbol))
        }
    }
}

/// The class a request names, with its module parsed.
pub(super) struct Named {
    pub def: DefRef,
    pub info: DefInfo,
    pub file: Arc<Parsed>,
}

impl Named {
    /// Its `class_definition` node.
    pub fn node(&self) -> Result<Node<'_>, RefactorError> {
        class_node(&self.file, &self.info).ok_or_else(|| {
            RefactorError::new(
                RefactorFailure::WouldBreak,
                format!(
                    "Internal error: {} is not where the index saw it",
                    self.info.name
                ),
            )
        })
    }
}

/// The one class `query` names ([`find`]) and its module parsed
/// ([`parsed`]); `refused` words the refusals.
pub(super) fn named(
    project: &Project<'_>,
    query: &str,
    refused: impl Fn(String) -> RefactorError + Copy,
) -> Result<Named, RefactorError> {
    let def = find(project, query.trim(), refused)?;
    let info = project.index.def_info(def).ok_or_else(|| {
        RefactorError::new(
            RefactorFailure::WouldBreak,
            "Internal error: a class's definition is gone from the index",
        )
    })?;
    let file = parsed(project, &info.path, refused)?;
    Ok(Named { def, info, file })
}

/// A module parsed, refused (`refused` words it) when it has syntax
/// errors: a refactoring reads its code from a tree it can trust.
pub(super) fn parsed(
    project: &Project<'_>,
    path: &str,
    refused: impl Fn(String) -> RefactorError,
) -> Result<Arc<Parsed>, RefactorError> {
    let file = project.parsed(path)?;
    if file.tree.has_errors() {
        return Err(refused(format!("{path} has syntax errors: fix them first")));
    }
    Ok(file)
}

/// The name a request gives the class it makes (a new class, an
/// interface, the merged class), trimmed; not a Python identifier is an
/// invalid argument.
pub(super) fn new_name(name: &str) -> Result<&str, RefactorError> {
    let name = name.trim();
    if !is_identifier(name) {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!(
                "Invalid name '{name}': not a Python identifier (letters, digits, _; not a keyword)"
            ),
        )
        .at(Argument::NewName));
    }
    Ok(name)
}

/// The `class_definition` node of the class the index describes.
pub(super) fn class_node<'t>(file: &'t Parsed, info: &DefInfo) -> Option<Node<'t>> {
    let name = file.node_covering(file.offset(info.name_location.position))?;
    let class = name.parent()?;
    (class.kind() == "class_definition"
        && class.child_by_field_name("name") == Some(name)
        && file.node_text(name) == info.name)
        .then_some(class)
}

/// The statement of a class: its decorated definition when it has
/// decorators.
pub(super) fn statement(class: Node<'_>) -> Node<'_> {
    match class.parent() {
        Some(p) if p.kind() == "decorated_definition" => p,
        _ => class,
    }
}

/// The methods defined in a class's body (not nested classes' nor
/// functions' own): each `function_definition` with its statement (the
/// decorated definition when decorated).
pub(super) fn methods(class: Node<'_>) -> Vec<(Node<'_>, Node<'_>)> {
    let Some(body) = class.child_by_field_name("body") else {
        return Vec::new();
    };
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .filter_map(|statement| match statement.kind() {
            "function_definition" => Some((statement, statement)),
            "decorated_definition" => statement
                .child_by_field_name("definition")
                .filter(|d| d.kind() == "function_definition")
                .map(|d| (statement, d)),
            _ => None,
        })
        .collect()
}

/// A method's first parameter (`self`, `cls`), unless it is a
/// `staticmethod`.
pub(super) fn receiver(file: &Parsed, statement: Node<'_>, def: Node<'_>) -> Option<String> {
    let mut cursor = statement.walk();
    let is_static = statement
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "decorator")
        .any(|d| file.node_text(d).trim_start_matches('@').trim() == "staticmethod");
    if is_static {
        return None;
    }
    let params = def.child_by_field_name("parameters")?;
    let mut cursor = params.walk();
    let first = params.named_children(&mut cursor).next()?;
    let name = match first.kind() {
        "identifier" => first,
        "typed_parameter" | "default_parameter" | "typed_default_parameter" => first
            .child_by_field_name("name")
            .or_else(|| first.named_child(0))?,
        _ => return None,
    };
    (name.kind() == "identifier").then(|| file.node_text(name))
}

/// The absolute dotted name a dotted expression of `module` denotes when
/// it names something imported or a builtin (`abc.ABCMeta` for `ABCMeta`
/// after `from abc import ABCMeta`, `property`); `None` for the module's
/// own definitions and anything it cannot tell.
pub(super) fn canonical(module: &FileIndex, dotted: &str) -> Option<String> {
    let dotted: String = dotted.chars().filter(|c| !c.is_whitespace()).collect();
    let (first, rest) = match dotted.split_once('.') {
        Some((first, rest)) => (first, Some(rest)),
        None => (dotted.as_str(), None),
    };
    let head = match module.exports.get(first) {
        Some(&value) => module.dotted_name(value)?,
        // a star import could rebind a builtin, but none that a module
        // exports by design does (`property`, `staticmethod`)
        None if is_builtin(first) => first.to_string(),
        None => return None,
    };
    Some(match rest {
        Some(rest) => format!("{head}.{rest}"),
        None => head,
    })
}
