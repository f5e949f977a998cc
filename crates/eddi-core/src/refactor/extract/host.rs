//! Where the extracted lines live: the enclosing function, its class, the
//! kind of method.

use ropey::Rope;
use tree_sitter::Node;

use super::selection::Selection;
use super::{refuse, File};
use crate::analysis::scope::ScopeKind;
use crate::analysis::syntax::{node_chars, node_text};
use crate::refactor::{ExtractKind, RefactorError};

/// Where the extracted lines live.
pub(super) struct Host<'t> {
    /// The scope whose names flow in and out (a function, or the module).
    pub(super) scope: usize,
    /// The enclosing function, unless the lines are at module level.
    pub(super) function: Option<Function<'t>>,
    /// The top-level statement that holds the lines.
    pub(super) top: Node<'t>,
}

pub(super) struct Function<'t> {
    pub(super) name: String,
    /// The `def` (with its decorators).
    pub(super) outer: Node<'t>,
    pub(super) is_async: bool,
    /// Set when the function is a method.
    pub(super) method: Option<Method>,
}

#[derive(Clone)]
pub(super) struct Method {
    pub(super) class: String,
    pub(super) class_scope: usize,
    pub(super) kind: MethodKind,
    /// `self` / `cls` as this method spells it.
    pub(super) receiver: Option<String>,
    /// The scopes of the class's staticmethods (their first parameter is
    /// no receiver).
    pub(super) statics: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum MethodKind {
    Instance,
    Class,
    Static,
}

impl<'t> Host<'t> {
    pub(super) fn of(
        file: &File<'_>,
        selection: &Selection<'t>,
        extract: ExtractKind,
        range: &str,
    ) -> Result<Host<'t>, RefactorError> {
        let first = selection.statements[0];
        let scope = scope_of_statement(file, selection.statements[0]);
        let mut top = first;
        while let Some(p) = top.parent() {
            if p.kind() == "module" {
                break;
            }
            top = p;
        }
        let s = &file.scopes.scopes[scope];
        match s.kind {
            ScopeKind::Class => {
                return Err(refuse(format!(
                    "lines {range} are in the body of class {}, not in a method; select lines inside a method",
                    s.name.as_deref().unwrap_or("?")
                )))
            }
            ScopeKind::Module if extract == ExtractKind::Method => {
                return Err(refuse(format!(
                    "lines {range} are at module level, not in a method; use ExtractFunction"
                )))
            }
            ScopeKind::Module => {
                return Ok(Host {
                    scope,
                    function: None,
                    top,
                })
            }
            _ => {}
        }
        let mut node = first;
        while node.kind() != "function_definition" || node_chars(file.text, node) != s.range {
            node = node
                .parent()
                .ok_or_else(|| refuse("the enclosing function was not found"))?;
        }
        let name = s.name.clone().unwrap_or_default();
        let outer = match node.parent() {
            Some(p) if p.kind() == "decorated_definition" => p,
            _ => node,
        };
        let is_async = node.child(0).is_some_and(|c| c.kind() == "async");
        let parent = s.parent.map(|p| &file.scopes.scopes[p]);
        let method = match parent {
            Some(c) if c.kind == ScopeKind::Class => {
                let decorators = decorator_names(file.text, outer);
                let kind = if decorators.iter().any(|d| d == "staticmethod") {
                    MethodKind::Static
                } else if decorators.iter().any(|d| d == "classmethod") {
                    MethodKind::Class
                } else {
                    MethodKind::Instance
                };
                let receiver = match kind {
                    MethodKind::Static => None,
                    _ => s.first_param.clone(),
                };
                if kind != MethodKind::Static && receiver.is_none() {
                    return Err(refuse(format!(
                        "method {name} has no self parameter to call the new method through"
                    )));
                }
                // a staticmethod calls the new one through its class's name,
                // which a method of a class nested in a class cannot see
                let nested_in_class = c
                    .parent
                    .is_some_and(|p| file.scopes.scopes[p].kind == ScopeKind::Class);
                if kind == MethodKind::Static && extract == ExtractKind::Method && nested_in_class {
                    return Err(refuse(format!(
                        "staticmethod {name} of the nested class {} could not call a new staticmethod by its class's name; use ExtractFunction",
                        c.name.as_deref().unwrap_or("?")
                    )));
                }
                Some(Method {
                    class: c.name.clone().unwrap_or_default(),
                    class_scope: s.parent.unwrap_or(0),
                    kind,
                    receiver,
                    statics: static_methods(file, outer),
                })
            }
            _ => None,
        };
        if extract == ExtractKind::Method && method.is_none() {
            return Err(refuse(format!(
                "lines {range} are in function {name}, which is not a method; use ExtractFunction"
            )));
        }
        // a docstring stays with its function
        if let Some(body) = node.child_by_field_name("body") {
            if let Some(doc) = docstring(body) {
                if selection.statements.contains(&doc) {
                    return Err(refuse(format!(
                        "line {} is the docstring of {name}; select the lines after it",
                        file.line_of(node_chars(file.text, doc).start)
                    )));
                }
            }
        }
        Ok(Host {
            scope,
            function: Some(Function {
                name,
                outer,
                is_async,
                method,
            }),
            top,
        })
    }

    pub(super) fn method(&self) -> Option<&Method> {
        self.function.as_ref().and_then(|f| f.method.as_ref())
    }

    /// What the call goes through, for an extracted method.
    pub(super) fn receiver(&self) -> Option<String> {
        let m = self.method()?;
        match m.kind {
            MethodKind::Static => Some(m.class.clone()),
            _ => m.receiver.clone(),
        }
    }
}

/// The scope a statement is written in: the nearest enclosing
/// definition's (a statement that is a definition starts its own scope at
/// the same offset, so `scope_at` would give that one).
pub(super) fn scope_of_statement(file: &File<'_>, statement: Node<'_>) -> usize {
    let mut up = statement.parent();
    while let Some(n) = up {
        if matches!(n.kind(), "function_definition" | "class_definition") {
            if let Some(s) = file
                .scopes
                .scope_of_definition(node_chars(file.text, n).start)
            {
                return s;
            }
        }
        up = n.parent();
    }
    0
}

/// The scopes of the staticmethods of the class that defines `method`.
pub(super) fn static_methods(file: &File<'_>, method: Node<'_>) -> Vec<usize> {
    let Some(body) = method.parent() else {
        return Vec::new();
    };
    let mut cursor = body.walk();
    let members: Vec<Node<'_>> = body.named_children(&mut cursor).collect();
    members
        .into_iter()
        .filter(|m| m.kind() == "decorated_definition")
        .filter(|m| {
            decorator_names(file.text, *m)
                .iter()
                .any(|d| d == "staticmethod")
        })
        .filter_map(|m| m.child_by_field_name("definition"))
        .filter_map(|d| {
            file.scopes
                .scope_of_definition(node_chars(file.text, d).start)
        })
        .collect()
}

pub(super) fn decorator_names(text: &Rope, outer: Node<'_>) -> Vec<String> {
    let mut cursor = outer.walk();
    outer
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "decorator")
        .map(|d| {
            node_text(text, d)
                .trim_start_matches('@')
                .trim()
                .to_string()
        })
        .collect()
}

/// The docstring statement of a body, if it has one.
pub(super) fn docstring(body: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = body.walk();
    let first = body
        .named_children(&mut cursor)
        .find(|c| c.kind() != "comment")?;
    let is_doc = first.kind() == "expression_statement"
        && first.named_child_count() == 1
        && first.named_child(0).is_some_and(|s| s.kind() == "string");
    is_doc.then_some(first)
}
