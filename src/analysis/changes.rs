//! What changed between two versions of a Python file, in words: the
//! functions, methods and classes created, modified and deleted
//! ([`super::outline::diff`]), for `Summary` and `Diff`.

use ropey::Rope;

use super::outline::{diff, outline, Outline, OutlineDiff, SymbolKind};
use super::SyntaxTree;
use crate::reply::plural;

fn outline_of(text: &Rope) -> Outline {
    SyntaxTree::parse(text)
        .map(|tree| outline(text, &tree))
        .unwrap_or_default()
}

/// Compares two versions of a file (`before` is `None` for a new file).
pub fn code_changes(before: Option<&str>, after: &str) -> OutlineDiff {
    let old_text = Rope::from_str(before.unwrap_or(""));
    let new_text = Rope::from_str(after);
    diff(
        &outline_of(&old_text),
        &old_text,
        &outline_of(&new_text),
        &new_text,
    )
}

/// `1 class created (UserManager), 2 methods created (UserManager.__init__, …)`.
pub fn terse(changes: &OutlineDiff) -> Vec<String> {
    let mut parts = Vec::new();
    for (verb, list) in [
        ("created", &changes.added),
        ("modified", &changes.modified),
        ("deleted", &changes.removed),
    ] {
        for kind in [SymbolKind::Class, SymbolKind::Function, SymbolKind::Method] {
            let names: Vec<&str> = list
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, n)| n.as_str())
                .collect();
            if !names.is_empty() {
                let noun = plural(names.len(), kind.noun());
                parts.push(format!(
                    "{} {noun} {verb} ({})",
                    names.len(),
                    names.join(", ")
                ));
            }
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_what_was_created_modified_and_deleted() {
        let before = "class A:\n    def f(self):\n        return 1\n\ndef gone():\n    pass\n";
        let after =
            "class A:\n    def f(self):\n        return 2\n\n    def g(self):\n        pass\n";
        assert_eq!(
            terse(&code_changes(Some(before), after)),
            [
                "1 method created (A.g)",
                "1 class modified (A)",
                "1 method modified (A.f)",
                "1 function deleted (gone)"
            ]
        );
        assert!(terse(&code_changes(Some(after), after)).is_empty());
    }
}
