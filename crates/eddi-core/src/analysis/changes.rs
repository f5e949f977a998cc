//! What changed between two versions of a Python file, in words: the
//! functions, methods and classes created, modified and deleted, for
//! `Summary` and `Diff`.
//!
//! Definitions are matched by *identity through the change*, not by name
//! alone: a file may define one name several times (platform branches,
//! `typing.overload`s, property setters), and an edit elsewhere shifts them
//! all. Each old definition's `def`/`class` line is followed through the
//! line diff of the two texts; the new definition of the same kind and name
//! that starts on that line is the same one. Only what is left (a
//! definition whose own first line was edited) is paired by name, in order;
//! then a removed and an added definition of one kind in the same class
//! whose texts differ only by the name (a rename, recursive calls and
//! `@name.setter` included) are one definition, renamed.

use std::collections::HashMap;
use std::ops::Range;

use ropey::Rope;
use similar::{DiffTag, TextDiff};

use super::outline::{outline, Outline, OutlineDiff, SymbolKind};
use super::SyntaxTree;
use crate::reply::plural;

fn outline_of(text: &Rope) -> Outline {
    SyntaxTree::parse(text)
        .map(|tree| outline(text, &tree))
        .unwrap_or_default()
}

/// Compares two versions of a file (`before` is `None` for a new file).
pub fn code_changes(before: Option<&str>, after: &str) -> OutlineDiff {
    let before = before.unwrap_or("");
    let old_text = Rope::from_str(before);
    let new_text = Rope::from_str(after);
    let old_defs = definitions(&outline_of(&old_text));
    let new_defs = definitions(&outline_of(&new_text));
    let moved = unchanged_lines(before, after);

    // new definition index → the old one it is.
    let mut same: Vec<Option<usize>> = vec![None; new_defs.len()];
    let mut taken = vec![false; old_defs.len()];
    let by_start: HashMap<(SymbolKind, &str, usize), usize> = new_defs
        .iter()
        .enumerate()
        .map(|(i, d)| ((d.kind, d.name.as_str(), d.line), i))
        .collect();
    for (o, old) in old_defs.iter().enumerate() {
        let Some(&line) = moved.get(&old.line) else {
            continue;
        };
        if let Some(&n) = by_start.get(&(old.kind, old.name.as_str(), line)) {
            if same[n].is_none() {
                same[n] = Some(o);
                taken[o] = true;
            }
        }
    }
    // What is left of one name is paired in order (its first line changed).
    for (n, new) in new_defs.iter().enumerate() {
        if same[n].is_some() {
            continue;
        }
        let old = (0..old_defs.len())
            .find(|&o| !taken[o] && old_defs[o].kind == new.kind && old_defs[o].name == new.name);
        if let Some(o) = old {
            same[n] = Some(o);
            taken[o] = true;
        }
    }

    // What is left on both sides: renames, when the texts agree up to the name.
    for (n, new) in new_defs.iter().enumerate() {
        if same[n].is_some() {
            continue;
        }
        let renamed = (0..old_defs.len()).find(|&o| {
            let old = &old_defs[o];
            !taken[o]
                && old.kind == new.kind
                && parent(&old.name) == parent(&new.name)
                && renamed_text(
                    &old_text.slice(old.full.clone()).to_string(),
                    own_name(&old.name),
                    own_name(&new.name),
                ) == new_text.slice(new.full.clone())
        });
        if let Some(o) = renamed {
            same[n] = Some(o);
            taken[o] = true;
        }
    }

    let mut out = OutlineDiff::default();
    for (new, old) in new_defs.iter().zip(&same) {
        match old {
            None => out.added.push((new.kind, new.name.clone())),
            Some(o) if old_defs[*o].name != new.name => {
                out.renamed
                    .push((new.kind, old_defs[*o].name.clone(), new.name.clone()));
            }
            Some(o) => {
                let old = &old_defs[*o];
                if old_text.slice(old.full.clone()) != new_text.slice(new.full.clone()) {
                    out.modified.push((new.kind, new.name.clone()));
                }
            }
        }
    }
    for (old, taken) in old_defs.iter().zip(&taken) {
        if !taken {
            out.removed.push((old.kind, old.name.clone()));
        }
    }
    out
}

/// `Cart.total` → `Cart`; `f` → ``.
fn parent(qualified: &str) -> &str {
    qualified.rsplit_once('.').map_or("", |(parent, _)| parent)
}

/// `Cart.total` → `total`.
fn own_name(qualified: &str) -> &str {
    qualified.rsplit_once('.').map_or(qualified, |(_, own)| own)
}

/// `text` with every whole-word `old` written `new`.
fn renamed_text(text: &str, old: &str, new: &str) -> String {
    match regex::Regex::new(&format!(r"\b{}\b", regex::escape(old))) {
        Ok(word) => word.replace_all(text, regex::NoExpand(new)).into_owned(),
        Err(_) => text.to_owned(),
    }
}

/// A function, method or class of one version of the file.
struct Definition {
    kind: SymbolKind,
    name: String,
    /// The line of its `def`/`class` keyword.
    line: usize,
    /// Its text, decorators and attached comments included.
    full: Range<usize>,
}

fn definitions(outline: &Outline) -> Vec<Definition> {
    outline
        .symbols
        .iter()
        .filter(|s| s.kind.is_callable() || s.kind == SymbolKind::Class)
        .map(|s| Definition {
            kind: s.kind,
            name: s.qualified_name.clone(),
            line: s.position.line,
            full: s.full.clone(),
        })
        .collect()
}

/// Old line → new line, for the lines the change left as they were.
fn unchanged_lines(before: &str, after: &str) -> HashMap<usize, usize> {
    let diff = TextDiff::from_lines(before, after);
    let mut moved = HashMap::new();
    for op in diff.ops() {
        if op.tag() == DiffTag::Equal {
            let (old, new) = (op.old_range(), op.new_range());
            for (o, n) in old.zip(new) {
                moved.insert(o, n);
            }
        }
    }
    moved
}

/// `1 class created (UserManager), 2 methods created (UserManager.__init__, …)`.
pub fn terse(changes: &OutlineDiff) -> Vec<String> {
    let mut parts = Vec::new();
    for kind in [SymbolKind::Class, SymbolKind::Function, SymbolKind::Method] {
        let names: Vec<String> = changes
            .renamed
            .iter()
            .filter(|(k, _, _)| *k == kind)
            .map(|(_, old, new)| format!("{old} -> {new}"))
            .collect();
        if !names.is_empty() {
            let noun = plural(names.len(), kind.noun());
            parts.push(format!(
                "{} {noun} renamed ({})",
                names.len(),
                names.join(", ")
            ));
        }
    }
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

    #[test]
    fn a_definition_whose_text_differs_only_by_its_name_is_renamed() {
        let before = "class A:\n    @property\n    def size(self):\n        return 1\n\n    @size.setter\n    def size(self, v):\n        pass\n\n\ndef walk(n):\n    return walk(n - 1) if n else 0\n\n\ndef other():\n    return 1\n";
        let after = "class A:\n    @property\n    def extent(self):\n        return 1\n\n    @extent.setter\n    def extent(self, v):\n        pass\n\n\ndef step(n):\n    return step(n - 1) if n else 0\n\n\ndef changed():\n    return 2\n";
        assert_eq!(
            terse(&code_changes(Some(before), after)),
            [
                "1 function renamed (walk -> step)",
                "2 methods renamed (A.size -> A.extent, A.size -> A.extent)",
                "1 function created (changed)",
                "1 class modified (A)",
                "1 function deleted (other)"
            ]
        );
    }

    /// click 8.1.7's `_compat.py` (BSD-3-Clause) defines several names once
    /// per platform branch; a line inserted above them shifts them all.
    const CLICK_COMPAT: &str = include_str!("../../../../tests/fixtures/click_compat.py");

    #[test]
    fn a_shifted_file_with_same_named_definitions_lists_nothing_modified() {
        let shifted = CLICK_COMPAT.replacen("import codecs\n", "import codecs\n# a comment\n", 1);
        assert_ne!(shifted, CLICK_COMPAT);
        assert_eq!(
            terse(&code_changes(Some(CLICK_COMPAT), &shifted)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn only_the_definition_holding_the_new_line_is_modified() {
        // Inside the first of the platform-branch `_get_argv_encoding`s … or
        // whichever same-named definition comes first: the others stay.
        let marker = "    def _get_argv_encoding() -> str:\n";
        let at = CLICK_COMPAT.find(marker).expect("the fixture has it") + marker.len();
        let mut edited = CLICK_COMPAT.to_owned();
        edited.insert_str(at, "        # the Windows one\n");
        assert_eq!(
            terse(&code_changes(Some(CLICK_COMPAT), &edited)),
            ["1 function modified (_get_argv_encoding)"]
        );
    }

    #[test]
    fn deleting_one_of_two_same_named_definitions_is_one_deletion() {
        let before =
            "if X:\n    def f():\n        return 1\nelse:\n    def f():\n        return 2\n";
        let after = "if X:\n    pass\nelse:\n    def f():\n        return 2\n";
        assert_eq!(
            terse(&code_changes(Some(before), after)),
            ["1 function deleted (f)"]
        );
        // The first line of a definition edited: still the same one, modified.
        let renamed_param =
            "if X:\n    def f(a):\n        return 1\nelse:\n    def f():\n        return 2\n";
        assert_eq!(
            terse(&code_changes(Some(before), renamed_param)),
            ["1 function modified (f)"]
        );
    }
}
