//! What changed between two versions of a Python file, element by element:
//! functions, methods and classes created, deleted and modified (their
//! definition text differs). Used by `Summary` and `Diff`.

use std::collections::BTreeMap;

use ropey::Rope;

use super::outline::{outline, SymbolKind};
use super::SyntaxTree;
use crate::reply::plural;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeChanges {
    /// `(kind noun, qualified name)` in source order of the new text.
    pub created: Vec<(&'static str, String)>,
    pub deleted: Vec<(&'static str, String)>,
    pub modified: Vec<(&'static str, String)>,
}

/// Functions, methods and classes by qualified name, with their text.
fn elements(text: &str) -> BTreeMap<String, (&'static str, String, usize)> {
    let rope = Rope::from_str(text);
    let Ok(tree) = SyntaxTree::parse(&rope) else {
        return BTreeMap::new();
    };
    outline(&rope, &tree)
        .symbols
        .into_iter()
        .enumerate()
        .filter(|(_, s)| {
            matches!(
                s.kind,
                SymbolKind::Function | SymbolKind::Method | SymbolKind::Class
            )
        })
        .map(|(order, s)| {
            (
                s.qualified_name,
                (s.kind.noun(), rope.slice(s.definition).to_string(), order),
            )
        })
        .collect()
}

/// Compares two versions of a file (`before` is `None` for a new file).
pub fn code_changes(before: Option<&str>, after: &str) -> CodeChanges {
    let old = elements(before.unwrap_or(""));
    let new = elements(after);
    let mut changes = CodeChanges::default();
    let mut in_order: Vec<_> = new.iter().collect();
    in_order.sort_by_key(|(_, (_, _, order))| *order);
    for (name, (kind, text, _)) in in_order {
        match old.get(name) {
            None => changes.created.push((kind, name.clone())),
            Some((_, old_text, _)) if old_text != text => {
                changes.modified.push((kind, name.clone()))
            }
            Some(_) => {}
        }
    }
    for (name, (kind, _, _)) in &old {
        if !new.contains_key(name) {
            changes.deleted.push((kind, name.clone()));
        }
    }
    changes
}

impl CodeChanges {
    pub fn is_empty(&self) -> bool {
        self.created.is_empty() && self.deleted.is_empty() && self.modified.is_empty()
    }

    /// `1 class created (UserManager), 2 methods created (UserManager.__init__, …)`.
    pub fn terse(&self) -> Vec<String> {
        let mut parts = Vec::new();
        for (verb, list) in [
            ("created", &self.created),
            ("modified", &self.modified),
            ("deleted", &self.deleted),
        ] {
            for kind in ["class", "function", "method"] {
                let names: Vec<&str> = list
                    .iter()
                    .filter(|(k, _)| *k == kind)
                    .map(|(_, n)| n.as_str())
                    .collect();
                if !names.is_empty() {
                    parts.push(format!(
                        "{} {} {verb} ({})",
                        names.len(),
                        plural(names.len(), kind),
                        names.join(", ")
                    ));
                }
            }
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_what_was_created_modified_and_deleted() {
        let before = "class A:\n    def f(self):\n        return 1\n\ndef gone():\n    pass\n";
        let after =
            "class A:\n    def f(self):\n        return 2\n\n    def g(self):\n        pass\n";
        let changes = code_changes(Some(before), after);
        assert_eq!(
            changes.terse(),
            [
                "1 method created (A.g)",
                "1 class modified (A)",
                "1 method modified (A.f)",
                "1 function deleted (gone)"
            ]
        );
        assert!(code_changes(Some(after), after).is_empty());
    }
}
