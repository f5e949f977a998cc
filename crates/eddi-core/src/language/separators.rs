//! TypeScript's type members apart by a line break alone, which
//! tree-sitter-typescript 0.23.2 (the newest) misreads: a member that
//! begins a line with `<`, `(` or `[` after a member ending with its type
//! (`<T>(name: string, fn: T): T` after `<T>(fn: T): T`, `[Symbol.iterator]():
//! I` after `size: number`) is read as that type's arguments or index, the
//! tree is an ERROR from there, and the outline and the index lose what
//! follows (mobx's `IActionFactory`; upstream issue 335). TypeScript ends
//! a type at a line break before `<` and `[` (it never continues one with
//! `(`), and a line break separates members.
//!
//! The repair: a copy of the text with a `;` written over the whitespace
//! byte before such a member — every byte offset and position stays the
//! original's — parsed instead when the plain parse has errors and the
//! copy's has fewer. A `;` stays only where the copy's tree reads it as the
//! separator of an interface's or object type's members, after a member
//! that ends with its type on an earlier line: where TypeScript reads a
//! member's end too. So the repair never makes a broken file valid, and the
//! errors it leaves are the file's own, at their places.

use std::collections::BTreeSet;

use tree_sitter::{Node, Tree};

/// The kinds of the annotation a member ends with when it ends with its
/// type (a property's, a signature's result).
const TYPE_ENDS: &[&str] = &[
    "type_annotation",
    "asserts_annotation",
    "type_predicate_annotation",
    "omitting_type_annotation",
    "adding_type_annotation",
    "opting_type_annotation",
];

/// How many copies a repair parses at most: each may read members
/// the errors before hid (code after an error is read as expressions).
const ROUNDS: usize = 4;

/// The tree of `text` with the separators its members omit written in,
/// when `tree` (the plain parse) has errors and that one has fewer;
/// `parse` parses a copy of the text.
pub(crate) fn repaired(
    text: &str,
    tree: &Tree,
    mut parse: impl FnMut(&str) -> Option<Tree>,
) -> Option<Tree> {
    if !tree.root_node().has_error() {
        return None;
    }
    let (mut kept, mut rejected) = (BTreeSet::new(), BTreeSet::new());
    let mut best: Option<(Tree, usize)> = None;
    let (mut scanned, mut parsed) = (tree.clone(), None);
    for _ in 0..ROUNDS {
        let mut places = kept.clone();
        let found = candidates(text, scanned.root_node());
        places.extend(found.into_iter().filter(|at| !rejected.contains(at)));
        // nothing new to read since the last copy
        if places.is_empty() || parsed.as_ref() == Some(&places) {
            break;
        }
        let copy = with_separators(text, &places);
        let fixed = parse(&copy)?;
        parsed = Some(places.clone());
        let (good, bad): (BTreeSet<usize>, BTreeSet<usize>) =
            (places.into_iter()).partition(|&at| separates_members(fixed.root_node(), at));
        if bad.is_empty() {
            let left = errors(fixed.root_node());
            let fewest = best.as_ref().map_or(errors(tree.root_node()), |(_, n)| *n);
            if left < fewest {
                best = Some((fixed.clone(), left));
            }
            if left == 0 {
                break;
            }
        }
        rejected.extend(bad);
        kept = good;
        scanned = fixed;
    }
    best.map(|(fixed, _)| fixed)
}

/// The whitespace bytes just before a line's first token `<`, `(` or `[`
/// where the plain tree reads that token in an error or an object type.
fn candidates(text: &str, root: Node<'_>) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut places = Vec::new();
    for line in memchr::memchr_iter(b'\n', bytes) {
        let start = line + 1;
        let token = start
            + bytes[start..]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
        let opens = matches!(bytes.get(token), Some(b'<' | b'(' | b'['));
        if opens && token > start && misread_here(root, token) {
            places.push(token - 1);
        }
    }
    places
}

/// Whether the token at `at` is in an ERROR node or an object type's
/// members (what a missing separator makes of the members after it).
fn misread_here(root: Node<'_>, at: usize) -> bool {
    let mut node = root.descendant_for_byte_range(at, at + 1);
    while let Some(n) = node {
        if n.is_error() || matches!(n.kind(), "interface_body" | "object_type") {
            return true;
        }
        node = n.parent();
    }
    false
}

/// `text` with a `;` written over each byte of `places` (whitespace).
fn with_separators(text: &str, places: &BTreeSet<usize>) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &at in places {
        bytes[at] = b';';
    }
    // (ASCII written over ASCII: still UTF-8)
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned())
}

/// Whether the copy's tree reads its `;` at `at` as the separator of an
/// interface's or object type's members, after a member ending with its
/// type on an earlier line.
fn separates_members(root: Node<'_>, at: usize) -> bool {
    let Some(separator) = root.descendant_for_byte_range(at, at + 1) else {
        return false;
    };
    let in_members = separator
        .parent()
        .is_some_and(|p| matches!(p.kind(), "interface_body" | "object_type"));
    if separator.kind() != ";" || separator.is_named() || !in_members {
        return false;
    }
    let mut before = separator.prev_sibling();
    while let Some(node) = before.filter(|n| n.is_extra()) {
        before = node.prev_sibling();
    }
    let Some(member) = before else {
        return false;
    };
    let ends_typed = (member.child(member.child_count().saturating_sub(1)))
        .is_some_and(|last| TYPE_ENDS.contains(&last.kind()));
    ends_typed && member.end_position().row < separator.start_position().row
}

/// How many ERROR and MISSING nodes a tree has.
fn errors(root: Node<'_>) -> usize {
    let mut count = 0;
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        count += usize::from(node.is_error() || node.is_missing());
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ropey::Rope;

    use crate::analysis::SyntaxTree;
    use crate::language::typescript::{Tsx, TypeScript};

    fn errors(text: &str) -> bool {
        (SyntaxTree::parse_language(&TypeScript, &Rope::from_str(text)).unwrap()).has_errors()
    }

    #[test]
    fn members_apart_by_a_line_break_are_read_as_typescript_reads_them() {
        // generic call signatures (mobx), a call signature, an index and a
        // computed member after a type, a doc comment between, in an
        // interface and in an object type
        for valid in [
            "interface F {\n  <T>(fn: T): T\n  <T>(name: string, fn: T): T\n}\n",
            "interface F {\n  a: Foo\n  /** doc */\n  <T>(x: T): T\n  b(): Bar\n  (y: number): void\n}\n",
            "type F = {\n  size: number\n  [key: string]: unknown\n}\nlet x = 1\n",
            "declare const s: {\n  size: number\n  [Symbol.iterator](): Iterator<number>\n}\n",
        ] {
            assert!(!errors(valid), "{valid}");
            let tree = SyntaxTree::parse_language(&Tsx, &Rope::from_str(valid)).unwrap();
            assert!(!tree.has_errors(), "tsx: {valid}");
        }
    }

    #[test]
    fn no_separator_makes_broken_typescript_valid() {
        for broken in [
            // a class has no call signatures
            "class C {\n  a: Foo\n  <T>(x: T): T\n}\n",
            // a broken signature after the omitted separator
            "interface F {\n  a: Foo\n  <T>(x: T: T\n}\n",
            // a type alias is no object type
            "type X = Foo\n  <T>(x: T): T\n",
            // an error after the repaired members
            "interface F {\n  <T>(fn: T): T\n  <T>(name: string, fn: T): T\n}\nlet x = ;\n",
        ] {
            assert!(errors(broken), "{broken}");
        }
    }

    #[test]
    fn the_repaired_tree_keeps_the_texts_offsets() {
        let text = "export interface F {\n  <T>(fn: T): T\n  <T>(name: string, fn: T): T\n}\nexport function action() {}\n";
        let tree = SyntaxTree::parse_language(&TypeScript, &Rope::from_str(text)).unwrap();
        let root = tree.root();
        let function = root.named_child(1).unwrap();
        assert_eq!(function.start_byte(), text.find("export function").unwrap());
        assert_eq!(root.end_byte(), text.len());
        // the separator lies over the indentation before the second member
        let second = text.find("  <T>(name").unwrap() + 1;
        let separator = root.descendant_for_byte_range(second, second + 1).unwrap();
        assert_eq!(separator.kind(), ";");
    }
}
