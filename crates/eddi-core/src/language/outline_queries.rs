//! The brace languages' outline queries (`queries/<language>/outline.scm`,
//! the tags convention: `@definition.<kind>` around an element, `@name` on
//! its name) as the oracle of their symbol sites: the walk of
//! `analysis/index/tags` finds the elements by rules written for speed
//! (`tags/sites.rs`), and these queries say the same in tree-sitter's own
//! pattern language. A test holds the two equal on this crate's Rust, on
//! fixtures of every language, and on the trees `EDDI_SITE_TREES` names.

use tree_sitter::{Node, Query, QueryCursor, StreamingIterator};

use super::Language;
use crate::analysis::index::tags::symbol_sites;
use crate::analysis::SyntaxTree;

/// The outline query of a brace language.
fn query(language: &'static dyn Language) -> Option<Query> {
    let source = match language.id() {
        "javascript" => include_str!("../../queries/javascript/outline.scm"),
        "typescript" | "tsx" => include_str!("../../queries/typescript/outline.scm"),
        "go" => include_str!("../../queries/go/outline.scm"),
        "rust" => include_str!("../../queries/rust/outline.scm"),
        "java" => include_str!("../../queries/java/outline.scm"),
        _ => return None,
    };
    Some(Query::new(&language.grammar(), source).expect("the outline query matches its grammar"))
}

/// A site as the two finders are compared: the element's range, its kind
/// and its name's range.
type Key<'k> = (usize, usize, &'k str, usize, usize);

fn key<'k>(node: Node<'_>, kind: &'k str, name: Node<'_>) -> Key<'k> {
    (
        node.start_byte(),
        node.end_byte(),
        kind,
        name.start_byte(),
        name.end_byte(),
    )
}

/// The sites a query finds: one per element and name (the first
/// pattern's when several find it), in source order, outer before inner.
fn query_sites<'q>(query: &'q Query, tree: &SyntaxTree, text: &str) -> Vec<Key<'q>> {
    let names = query.capture_names();
    let mut found: Vec<(Key<'q>, usize)> = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, tree.root(), text.as_bytes());
    while let Some(m) = matches.next() {
        let mut element = None;
        let mut name = None;
        for capture in m.captures {
            let capture_name: &'q str = names[capture.index as usize];
            if capture_name == "name" {
                name = Some(capture.node);
            } else if let Some(kind) = capture_name.strip_prefix("definition.") {
                element = Some((capture.node, kind));
            }
        }
        if let (Some((node, kind)), Some(name)) = (element, name) {
            found.push((key(node, kind, name), m.pattern_index));
        }
    }
    found.sort_by_key(|&((start, end, _, name, _), pattern)| {
        (start, std::cmp::Reverse(end), name, pattern)
    });
    found.dedup_by_key(|&mut ((start, end, _, name, _), _)| (start, end, name));
    found.into_iter().map(|(site, _)| site).collect()
}

/// The walk's sites and the query's are the same elements of the same
/// kinds, by the same names.
#[test]
fn the_symbol_sites_are_the_outline_queries() {
    let own = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![own.join("src")];
    if let Ok(trees) = std::env::var("EDDI_SITE_TREES") {
        roots.extend(trees.split(':').map(std::path::PathBuf::from));
    }
    let mut compared = std::collections::BTreeMap::new();
    let mut queries = std::collections::HashMap::new();
    let mut compare = |language: &'static dyn Language, label: &str, text: &str| {
        let Some(query) = queries
            .entry(language.id())
            .or_insert_with(|| query(language))
            .as_ref()
        else {
            return;
        };
        let rope = ropey::Rope::from_str(text);
        let tree = SyntaxTree::parse_language(language, &rope).expect("a parse");
        let mut walked: Vec<_> = symbol_sites(language, tree.root(), &rope)
            .expect("a brace language's sites")
            .iter()
            .map(|s| key(s.node, s.kind, s.name))
            .collect();
        walked.sort_by_key(|&(start, end, _, name, _)| (start, std::cmp::Reverse(end), name));
        let queried = query_sites(query, &tree, text);
        if let Some(i) =
            (0..walked.len().max(queried.len())).find(|&i| walked.get(i) != queried.get(i))
        {
            panic!(
                "in {label}: site {i} of {} (query: {}): {:?}, the query's {:?}",
                walked.len(),
                queried.len(),
                walked.get(i),
                queried.get(i)
            );
        }
        *compared.entry(language.id()).or_insert(0) += 1;
    };
    for (language, text) in super::tests::brace_fixtures() {
        compare(language, "a fixture", text);
    }
    for root in roots {
        for entry in ignore::WalkBuilder::new(&root).build().flatten() {
            let path = entry.path();
            let Some(language) = super::language_of(&path.to_string_lossy()) else {
                continue;
            };
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            compare(language, &path.display().to_string(), &text);
        }
    }
    eprintln!("files compared: {compared:?}");
    assert!(
        compared.get("rust").copied().unwrap_or(0) > 100,
        "{compared:?}"
    );
    for id in ["javascript", "typescript", "go", "java"] {
        assert!(compared.contains_key(id), "no {id} compared: {compared:?}");
    }
}
