//! The mentions of a brace rename's name in comments (Go, Rust, Java):
//! doc comments that name it (`// Total sums.`, `/// See [`parse`]`,
//! `/** @see Parser */`), and the code of a Rust doctest (`///
//! assert_eq!(r3::double(2), 4);`), which `cargo test` compiles; not a Go
//! directive's (`//go:linkname`). They are no uses the index sees: a rename lists them
//! (`not changed: … Include Text changes them`), and with `Include Text`
//! writes the new name there too. Strings are left alone: a string
//! spelling the name is data as often as prose.

use tree_sitter::Node;

use super::Parsed;

/// The whole-word occurrences of `old` in the comments of `file` (char
/// offsets, in order). The rename looks in the files it edits (the
/// definition's among them): a comment elsewhere that names it is not
/// looked for (every file of the project would be read for it).
pub(super) fn in_comments(file: &Parsed, old: &str) -> Vec<usize> {
    let mut at = Vec::new();
    // (JavaScript's and TypeScript's comments hold JSDoc types, which the
    // rename reads as code: `jsdoc`)
    if !matches!(file.language.id(), "go" | "rust" | "java") {
        return at;
    }
    let mut comments = Vec::new();
    collect_comments(file.tree.root(), &mut comments);
    for comment in comments {
        let text = file.text.byte_slice(comment.byte_range()).to_string();
        // a Go directive names code the toolchain reads
        // (`//go:linkname local remote.name`, `//export f`)
        if ["//go:", "//export ", "//line ", "// +build"]
            .iter()
            .any(|d| text.starts_with(d))
        {
            continue;
        }
        for (i, _) in text.match_indices(old) {
            let before = text[..i].chars().next_back();
            let after = text[i + old.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            if !word(before) && !word(after) {
                at.push(file.text.byte_to_char(comment.start_byte() + i));
            }
        }
    }
    at
}

/// The outermost comment nodes under `node` (a Rust `line_comment` holds
/// its `doc_comment`).
fn collect_comments<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.kind().contains("comment") {
            out.push(child);
        } else if child.child_count() > 0 {
            collect_comments(child, out);
        }
    }
}
