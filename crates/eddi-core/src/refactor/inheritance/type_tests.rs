//! Where code tests for the old base by type: `isinstance(x, Old)`,
//! `issubclass(k, Old)` and `except Old:` in the project. Instances of the
//! class no longer pass them once `Old` leaves its ancestors, which the
//! reply says (the change asked for that; which objects reach each test
//! is the agent's to judge).

use tree_sitter::Node;

use crate::analysis::index::resolve::DefRef;
use crate::analysis::index::Location;
use crate::refactor::{Parsed, Project};

/// The project's type tests naming the class `old`, in order.
pub(super) fn of(project: &Project<'_>, old: DefRef) -> Vec<Location> {
    let index = project.index;
    let Some(info) = index.def_info(old) else {
        return Vec::new();
    };
    let sites = index.rename_sites(&[old], &info.name, false);
    let mut out = Vec::new();
    for site in sites.certain {
        let Ok(file) = project.scanned(&site.path) else {
            continue;
        };
        if let Some(node) = file.node_covering(file.offset(site.position)) {
            if is_type_test(&file, node) {
                out.push(site);
            }
        }
    }
    out
}

fn is_type_test(file: &Parsed, name: Node<'_>) -> bool {
    let mut child = name;
    while let Some(parent) = child.parent() {
        match parent.kind() {
            "except_clause" | "except_group_clause" => return true,
            "argument_list" => {
                let Some(call) = parent.parent().filter(|c| c.kind() == "call") else {
                    return false;
                };
                let tests = call.child_by_field_name("function").is_some_and(|f| {
                    f.kind() == "identifier"
                        && matches!(file.node_text(f).as_str(), "isinstance" | "issubclass")
                });
                // the class argument, not the object tested
                let first = parent.named_child(0);
                return tests && first.is_some_and(|f| f.end_byte() <= child.start_byte());
            }
            "block"
            | "function_definition"
            | "class_definition"
            | "module"
            | "expression_statement"
            | "lambda" => return false,
            _ => child = parent,
        }
    }
    false
}
