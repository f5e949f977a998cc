//! Variable annotations (`ret: str = …`, `x: int`) of the names that flow
//! in and out of the lines: each keeps its annotation where it is bound —
//! a value given back where the call binds it (`ret: str = helper(…)`), a
//! parameter in the new `def` (`def helper(x: int)`).

use std::ops::Range;

use tree_sitter::Node;

use super::{flow, File};
use crate::analysis::scope::Resolution;
use crate::analysis::syntax::{node_chars, node_text};

/// One annotated assignment of a name: where it is and what it says.
struct Annotated {
    name: String,
    at: Range<usize>,
    annotation: String,
    /// The annotation reads only names a module-level `def` sees (module
    /// names, builtins): it can be written on a parameter of the helper.
    portable: bool,
}

/// The annotated assignments of plain names in `scope`, in source order.
pub(super) struct Annotations {
    found: Vec<Annotated>,
}

impl Annotations {
    pub(super) fn of(file: &File<'_>, root: Node<'_>, scope: usize) -> Annotations {
        let mut found = Vec::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if n.kind() == "assignment" {
                if let (Some(left), Some(kind)) =
                    (n.child_by_field_name("left"), n.child_by_field_name("type"))
                {
                    let at = node_chars(file.text, n);
                    if left.kind() == "identifier" && file.scopes.scope_at(at.start) == scope {
                        let range = node_chars(file.text, kind);
                        found.push(Annotated {
                            name: node_text(file.text, left),
                            at,
                            annotation: node_text(file.text, kind),
                            portable: portable(file, &range),
                        });
                    }
                }
            }
            let mut cursor = n.walk();
            let children: Vec<Node<'_>> = n.named_children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        found.sort_by_key(|a| a.at.start);
        Annotations { found }
    }

    /// The annotation of a value the lines at `span` give back, for the
    /// call to bind it with: the lines annotate it, and nothing outside
    /// them does (that one stays where it is).
    pub(super) fn of_returned(&self, name: &str, span: &Range<usize>) -> Option<&str> {
        let mut named = self.found.iter().filter(|a| a.name == name);
        let inside = named
            .clone()
            .find(|a| flow::within(&a.at, span))
            .map(|a| a.annotation.as_str());
        let outside = named.any(|a| !flow::within(&a.at, span));
        inside.filter(|_| !outside)
    }

    /// The annotation of a name passed in, for the parameter: the first
    /// one outside the lines, when a module-level `def` can evaluate it.
    pub(super) fn of_parameter(&self, name: &str, span: &Range<usize>) -> Option<&str> {
        self.found
            .iter()
            .find(|a| a.name == name && !flow::within(&a.at, span))
            .filter(|a| a.portable)
            .map(|a| a.annotation.as_str())
    }
}

/// Every name the annotation at `range` reads is one of the module or a
/// builtin (a function's own name would not be there for the new `def`).
fn portable(file: &File<'_>, range: &Range<usize>) -> bool {
    file.scopes
        .references
        .iter()
        .filter(|r| flow::within(&r.range, range))
        .all(|r| !matches!(r.resolution, Resolution::Scope(s) if s != 0))
}

/// `name` or `name: annotation`.
pub(super) fn annotated(name: &str, annotation: Option<&str>) -> String {
    match annotation {
        Some(a) => format!("{name}: {a}"),
        None => name.to_string(),
    }
}
