//! A file's structure in any language: its elements with their ranges.
//!
//! [`Outline`] is what every language gives ([`super::Language::outline`])
//! and what the structure commands show (`Analyze File Structure`, the
//! `get_structure` tool). A language with an outline query builds it with
//! [`from_query`]; Python converts its own richer outline.

use ropey::Rope;
use tree_sitter::{Query, QueryCursor, StreamingIterator};

use crate::analysis::syntax::{node_end, node_start, node_text, SyntaxTree};
use crate::edit::Position;

/// A file's elements, parents before children, in source order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    pub entries: Vec<Entry>,
}

/// One element of a file: a class, a function, a JSON key, …
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// What it is, as its language calls it (`class`, `method`, `key`).
    pub kind: &'static str,
    /// Its name as the structure shows it.
    pub name: String,
    /// The form that names exactly this element (a path through its
    /// parents where the name alone is ambiguous).
    pub form: String,
    /// An `async` function or method.
    pub is_async: bool,
    /// Where it starts (its keyword, or its name).
    pub start: Position,
    /// Just after it.
    pub end: Position,
    /// The index in [`Outline::entries`] of the element it is in.
    pub parent: Option<usize>,
}

impl Outline {
    /// The entries directly in `parent` (`None`: at the top level).
    pub fn children(&self, parent: Option<usize>) -> impl Iterator<Item = (usize, &Entry)> {
        self.entries
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.parent == parent)
    }
}

/// The outline an outline query finds, in the tags convention: a capture
/// `@definition.<kind>` around each element and `@name` on its name. An
/// element's parent is the innermost element around it; its form is its
/// parent's form, a dot, and its name. (The query lives for the whole
/// run, as each language keeps its own: the kinds are its capture names.)
pub fn from_query(query: &'static Query, text: &Rope, tree: &SyntaxTree) -> Outline {
    let names = query.capture_names();
    let mut found: Vec<(tree_sitter::Node<'_>, &'static str, String)> = Vec::new();
    let mut cursor = QueryCursor::new();
    let source = |node: tree_sitter::Node<'_>| std::iter::once(node_text(text, node).into_bytes());
    let mut matches = cursor.matches(query, tree.root(), source);
    while let Some(m) = matches.next() {
        let mut element = None;
        let mut name = None;
        for capture in m.captures {
            let capture_name = names[capture.index as usize];
            if capture_name == "name" {
                name = Some(node_text(text, capture.node));
            } else if let Some(kind) = capture_name.strip_prefix("definition.") {
                element = Some((capture.node, kind));
            }
        }
        if let (Some((node, kind)), Some(name)) = (element, name) {
            found.push((node, kind, name));
        }
    }
    // source order, outer before inner: a parent is always listed first
    found.sort_by_key(|(node, _, _)| (node.start_byte(), std::cmp::Reverse(node.end_byte())));
    found.dedup_by_key(|(node, _, _)| node.id());
    let mut outline = Outline::default();
    let mut open: Vec<(usize, usize)> = Vec::new(); // (entry, end byte) of the elements around
    for (node, kind, name) in found {
        while open
            .last()
            .is_some_and(|&(_, end)| end <= node.start_byte())
        {
            open.pop();
        }
        let parent = open.last().map(|&(i, _)| i);
        let form = match parent {
            Some(p) => format!("{}.{name}", outline.entries[p].form),
            None => name.clone(),
        };
        open.push((outline.entries.len(), node.end_byte()));
        outline.entries.push(Entry {
            kind,
            name,
            form,
            is_async: false,
            start: node_start(text, node),
            end: node_end(text, node),
            parent,
        });
    }
    outline
}
