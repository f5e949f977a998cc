//! `global` and `nonlocal` as CPython's symtable checks them: not at module
//! level (`nonlocal`), not naming a parameter, not after a use, an
//! annotation or an assignment in the same scope, not both at once, and a
//! `nonlocal` needs a binding in an enclosing function.

use std::collections::HashSet;

use tree_sitter::Node;

use super::{comprehension_kind, parameter_name, Block, Checker};
use crate::analysis::nodes::{children, named_code_children};
use crate::analysis::syntax::node_text;

impl<'t> Checker<'_, 't> {
    /// `global`/`nonlocal`: where they may stand and what they may name.
    pub(super) fn declaration(&mut self, node: Node<'t>) {
        let is_global = node.kind() == "global_statement";
        let what = if is_global { "global" } else { "nonlocal" };
        let Some(scope) = self
            .frames
            .iter()
            .rev()
            .find(|f| !matches!(f.block, Block::Comprehension { .. }))
            .copied()
        else {
            return;
        };
        let params = match scope.block {
            Block::Function { .. } => scope
                .node
                .child_by_field_name("parameters")
                .map(|p| {
                    named_code_children(p)
                        .into_iter()
                        .filter_map(parameter_name)
                        .map(|n| self.text_of(n))
                        .collect::<HashSet<_>>()
                })
                .unwrap_or_default(),
            _ => HashSet::new(),
        };
        let body = match scope.block {
            Block::Module => Some(scope.node),
            _ => scope.node.child_by_field_name("body"),
        };
        for name_node in named_code_children(node) {
            if name_node.kind() != "identifier" {
                continue;
            }
            let name = self.text_of(name_node);
            if params.contains(&name) {
                self.error(node, format!("name '{name}' is parameter and {what}"));
                continue;
            }
            if let Some(body) = body {
                if let Some(prior) = self.prior_occurrence(body, &name, node) {
                    let message = match prior {
                        Occurrence::Use => {
                            format!("name '{name}' is used prior to {what} declaration")
                        }
                        Occurrence::Annotation if is_global => {
                            format!("annotated name '{name}' can't be global")
                        }
                        Occurrence::Annotation => {
                            format!("annotated name '{name}' can't be nonlocal")
                        }
                        Occurrence::Binding => {
                            format!("name '{name}' is assigned to before {what} declaration")
                        }
                    };
                    self.error(node, message);
                    continue;
                }
                if let Some(first) = self.declared_otherwise(body, &name, node, !is_global) {
                    // CPython names the first of the two declarations
                    self.error(first, format!("name '{name}' is nonlocal and global"));
                    continue;
                }
            }
            if is_global {
                continue;
            }
            if scope.block == Block::Module {
                self.error(node, "nonlocal declaration not allowed at module level");
                return;
            }
            if !self.bound_in_enclosing_function(&name) {
                self.error(node, format!("no binding for nonlocal '{name}' found"));
            }
        }
    }

    /// The strongest occurrence of `name` in the scope of `body` before
    /// the declaration `decl` (CPython's order: use, then annotation, then
    /// binding).
    fn prior_occurrence(&self, body: Node<'t>, name: &str, decl: Node<'t>) -> Option<Occurrence> {
        let mut best: Option<Occurrence> = None;
        own_scope(body, &mut |n| {
            if n.kind() != "identifier" || n.start_byte() >= decl.start_byte() {
                return;
            }
            if node_text(self.text, n) != name {
                return;
            }
            let Some(occurrence) = occurrence(n) else {
                return;
            };
            best = Some(match (best, occurrence) {
                (Some(Occurrence::Use), _) | (_, Occurrence::Use) => Occurrence::Use,
                (Some(Occurrence::Annotation), _) | (_, Occurrence::Annotation) => {
                    Occurrence::Annotation
                }
                _ => Occurrence::Binding,
            });
        });
        best
    }

    /// The earlier declaration of `name` the other way (`global` when
    /// `nonlocal` is asked, and back) in the same scope.
    fn declared_otherwise(
        &self,
        body: Node<'t>,
        name: &str,
        decl: Node<'t>,
        global: bool,
    ) -> Option<Node<'t>> {
        let other = if global {
            "global_statement"
        } else {
            "nonlocal_statement"
        };
        let mut found = None;
        own_scope(body, &mut |n| {
            if found.is_none()
                && n.kind() == other
                && n.start_byte() < decl.start_byte()
                && named_code_children(n)
                    .iter()
                    .any(|id| node_text(self.text, *id) == name)
            {
                found = Some(n);
            }
        });
        found
    }

    /// True when an enclosing function (classes are looked through) binds
    /// `name`: a parameter, a target, an import, a definition, a
    /// `nonlocal`. Generous on purpose: a missed binding would be a false
    /// error.
    fn bound_in_enclosing_function(&self, name: &str) -> bool {
        let current = self
            .frames
            .iter()
            .rposition(|f| !matches!(f.block, Block::Comprehension { .. }))
            .unwrap_or(0);
        for frame in self.frames[..current].iter().rev() {
            let (Block::Function { .. } | Block::Lambda) = frame.block else {
                continue;
            };
            let def = frame.node;
            if let Some(params) = def.child_by_field_name("parameters") {
                if named_code_children(params)
                    .into_iter()
                    .filter_map(parameter_name)
                    .any(|n| node_text(self.text, n) == name)
                {
                    return true;
                }
            }
            let Some(body) = def.child_by_field_name("body") else {
                continue;
            };
            let mut bound = false;
            let mut globals = false;
            own_scope_with_walrus(body, &mut |n| {
                if n.kind() == "global_statement"
                    && named_code_children(n)
                        .iter()
                        .any(|id| node_text(self.text, *id) == name)
                {
                    globals = true;
                }
                if n.kind() == "identifier"
                    && node_text(self.text, n) == name
                    && (occurrence(n) == Some(Occurrence::Binding)
                        || occurrence(n) == Some(Occurrence::Annotation)
                        || in_pattern_or_declaration(n))
                {
                    bound = true;
                }
            });
            if bound && !globals {
                return true;
            }
            if globals {
                return false;
            }
        }
        false
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Occurrence {
    Use,
    Annotation,
    Binding,
}

/// Visits every node of the scope whose body is `body`: nested functions,
/// lambdas and classes contribute only what runs in this scope (names,
/// decorators, defaults, annotations, bases), comprehensions only their
/// first iterable.
pub(super) fn own_scope<'t>(body: Node<'t>, visit: &mut impl FnMut(Node<'t>)) {
    scope_walk(body, false, visit, 0);
}

/// [`own_scope`], plus the `:=` targets of comprehensions (they bind in
/// the enclosing function).
fn own_scope_with_walrus<'t>(body: Node<'t>, visit: &mut impl FnMut(Node<'t>)) {
    scope_walk(body, true, visit, 0);
}

/// `depth` bounds the walk (see [`super::MAX_DEPTH`]).
fn scope_walk<'t>(node: Node<'t>, walrus: bool, visit: &mut impl FnMut(Node<'t>), depth: usize) {
    if depth >= super::MAX_DEPTH {
        return;
    }
    let depth = depth + 1;
    visit(node);
    match node.kind() {
        "function_definition" | "class_definition" | "lambda" => {
            let body = node.child_by_field_name("body");
            for child in children(node) {
                if Some(child) == body {
                    continue;
                }
                if child.kind() == "parameters" || child.kind() == "lambda_parameters" {
                    // only defaults and annotations run here
                    for p in named_code_children(child) {
                        for field in ["value", "type"] {
                            if let Some(part) = p.child_by_field_name(field) {
                                scope_walk(part, walrus, visit, depth);
                            }
                        }
                    }
                    continue;
                }
                scope_walk(child, walrus, visit, depth);
            }
        }
        kind if comprehension_kind(kind).is_some() => {
            let first = named_code_children(node)
                .into_iter()
                .find(|n| n.kind() == "for_in_clause")
                .and_then(|c| c.child_by_field_name("right"));
            if let Some(first) = first {
                scope_walk(first, walrus, visit, depth);
            }
            if walrus {
                let mut stack = vec![node];
                while let Some(n) = stack.pop() {
                    if n.kind() == "named_expression" {
                        if let Some(name) = n.child_by_field_name("name") {
                            visit(name);
                        }
                    }
                    if !matches!(
                        n.kind(),
                        "function_definition" | "class_definition" | "lambda"
                    ) {
                        stack.extend(named_code_children(n));
                    }
                }
            }
        }
        _ => {
            for child in children(node) {
                scope_walk(child, walrus, visit, depth);
            }
        }
    }
}

/// How an identifier occurs in its scope: `None` when it names no
/// variable of the scope (an attribute, a keyword argument, a module path,
/// a declaration).
fn occurrence(id: Node<'_>) -> Option<Occurrence> {
    let mut child = id;
    let mut parent = id.parent()?;
    loop {
        let field_is = |name: &str| {
            parent
                .child_by_field_name(name)
                .is_some_and(|n| n.id() == child.id())
        };
        match parent.kind() {
            "attribute" if field_is("attribute") => return None,
            "keyword_argument" if field_is("name") => return None,
            "keyword_pattern" if parent.named_child(0).is_some_and(|n| n.id() == child.id()) => {
                return None
            }
            "global_statement" | "nonlocal_statement" => return None,
            "import_from_statement" if field_is("module_name") => return None,
            "import_statement" | "import_from_statement" | "future_import_statement" => {
                return Some(Occurrence::Binding)
            }
            "aliased_import" if field_is("alias") => return Some(Occurrence::Binding),
            "aliased_import" if field_is("name") => {
                // `import a.b as c` binds only c
                return None;
            }
            "dotted_name" => {}
            "assignment" if field_is("left") => {
                let annotated = parent.child_by_field_name("type").is_some();
                return Some(if annotated && child.id() == id.id() {
                    Occurrence::Annotation
                } else {
                    Occurrence::Binding
                });
            }
            "augmented_assignment" if field_is("left") => return Some(Occurrence::Binding),
            "for_statement" | "for_in_clause" if field_is("left") => {
                return Some(Occurrence::Binding)
            }
            "named_expression" if field_is("name") => return Some(Occurrence::Binding),
            "as_pattern_target" => return Some(Occurrence::Binding),
            "except_clause" | "except_group_clause" if field_is("alias") => {
                return Some(Occurrence::Binding)
            }
            "function_definition" | "class_definition" if field_is("name") => {
                return Some(Occurrence::Binding)
            }
            "delete_statement" => return Some(Occurrence::Binding),
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "parenthesized_expression"
            | "tuple"
            | "list"
            | "expression_list"
            | "as_pattern" => {}
            _ => return Some(Occurrence::Use),
        }
        child = parent;
        parent = parent.parent()?;
    }
}

/// Identifiers that bind in ways [`occurrence`] does not classify as
/// bindings: match-statement captures, `nonlocal` declarations.
fn in_pattern_or_declaration(id: Node<'_>) -> bool {
    let mut up = id.parent();
    while let Some(n) = up {
        match n.kind() {
            "case_pattern" | "nonlocal_statement" | "except_clause" => return true,
            "block" | "module" => return false,
            _ => up = n.parent(),
        }
    }
    false
}
