use ropey::Rope;

use super::json::Json;
use super::python::Python;
use super::*;
use crate::analysis::SyntaxTree;
use crate::edit::Position;

fn parsed(language: &'static dyn Language, text: &str) -> (Rope, SyntaxTree) {
    let text = Rope::from_str(text);
    let tree = SyntaxTree::parse_language(language, &text).unwrap();
    (text, tree)
}

#[test]
fn the_registry_lists_each_language_once_and_no_extension_twice() {
    let ids: Vec<&str> = registry().iter().map(|l| l.id()).collect();
    assert_eq!(ids, ["python", "json"]);
    let mut extensions: Vec<&str> = registry()
        .iter()
        .flat_map(|l| l.extensions().iter().copied())
        .collect();
    let count = extensions.len();
    extensions.sort_unstable();
    extensions.dedup();
    assert_eq!(extensions.len(), count, "an extension of two languages");
    for language in registry() {
        let mut parser = tree_sitter::Parser::new();
        assert!(
            parser.set_language(&language.grammar()).is_ok(),
            "{language:?}"
        );
        assert_eq!(by_id(&language.id().to_uppercase()), Some(*language));
    }
}

#[test]
fn a_files_language_is_found_by_its_extension_ignoring_case() {
    assert_eq!(language_of("src/a.PY"), Some(&Python as &dyn Language));
    assert_eq!(language_of("pkg/stub.pyi"), Some(&Python as &dyn Language));
    assert_eq!(language_of("conf/data.json"), Some(&Json as &dyn Language));
    assert_eq!(language_of("a.rs"), None);
    assert_eq!(language_of("Makefile"), None);
    assert_eq!(language_of(".py"), None, "a dot file has no extension");
}

#[test]
fn a_file_without_a_known_extension_is_recognised_by_its_shebang() {
    let python = Some(&Python as &dyn Language);
    assert_eq!(
        language_of_source("bin/tool", "#!/usr/bin/env python3"),
        python
    );
    assert_eq!(
        language_of_source("bin/tool", "#!/usr/bin/python3.12 -u"),
        python
    );
    assert_eq!(
        language_of_source("bin/tool", "#! /usr/bin/env -S python -O"),
        python
    );
    assert_eq!(language_of_source("bin/tool", "#!/usr/bin/pypy3"), python);
    assert_eq!(language_of_source("bin/tool", "#!/bin/sh"), None);
    assert_eq!(language_of_source("bin/tool", "import os"), None);
    // the extension wins over the first line
    assert_eq!(
        language_of_source("a.json", "#!/usr/bin/env python3"),
        Some(&Json as &dyn Language)
    );
}

#[test]
fn capabilities_are_what_each_language_offers() {
    let all = [
        Capability::Outline,
        Capability::SyntaxCheck,
        Capability::SymbolSites,
        Capability::IndexScan,
        Capability::Refactors,
    ];
    assert!(all.iter().all(|&c| Python.supports(c)));
    let json: Vec<Capability> = all.into_iter().filter(|&c| Json.supports(c)).collect();
    assert_eq!(json, [Capability::Outline]);
    assert_eq!(
        supporting("a.json", Capability::Outline).map(|l| l.id()),
        Some("json")
    );
    assert_eq!(
        supporting("a.json", Capability::SymbolSites).map(|l| l.id()),
        None
    );
    // the project index scans Python's modules and hears of its stubs
    assert_eq!(indexed_extensions().collect::<Vec<_>>(), ["py"]);
    assert_eq!(watched_extensions().collect::<Vec<_>>(), ["py", "pyi"]);
}

/// Node kind ids are each grammar's own: the same id names different
/// kinds in Python and JSON, so each grammar has its own table.
#[test]
fn each_grammar_names_its_own_node_kinds() {
    let python = Python.grammar();
    let json = Json.grammar();
    let differ = (1..json.node_kind_count().min(python.node_kind_count()) as u16)
        .filter(|&id| python.node_kind_for_id(id) != json.node_kind_for_id(id))
        .count();
    assert!(differ > 10, "only {differ} ids name different kinds");

    let table = KindTable::new(Json.grammar(), |name| name);
    let (_, tree) = parsed(
        &Json,
        "{\"a\": [1, true, null, {\"b\": \"c\"}], \"d\": 2.5}",
    );
    let mut cursor = tree.root().walk();
    let mut seen = 0;
    loop {
        let node = cursor.node();
        assert!(table.is_for(node));
        assert_eq!(table.of(node), node.kind(), "{node:?}");
        seen += 1;
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                assert!(seen > 20, "only {seen} nodes");
                return;
            }
        }
    }
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "looked up in a table of")]
fn a_node_of_another_grammar_is_refused_by_a_kind_table() {
    let python_table = KindTable::new(Python.grammar(), |name| name);
    let (_, tree) = parsed(&Json, "{\"a\": 1}");
    python_table.of(tree.root());
}

#[test]
fn a_json_files_outline_is_its_keys_nested_under_their_objects_keys() {
    let text = "{\n  \"name\": \"eddi\",\n  \"deps\": {\n    \"a\": 1,\n    \"b\": [{\"c\": 2}]\n  },\n  \"n\": null\n}\n";
    let (rope, tree) = parsed(&Json, text);
    let outline = Json.outline(&rope, &tree);
    type Shown<'a> = (&'a str, &'a str, &'a str, Option<usize>, Position, Position);
    let shown: Vec<Shown<'_>> = outline
        .entries
        .iter()
        .map(|e| {
            (
                e.kind,
                e.name.as_str(),
                e.form.as_str(),
                e.parent,
                e.start,
                e.end,
            )
        })
        .collect();
    let at = Position::new;
    assert_eq!(
        shown,
        [
            ("key", "name", "name", None, at(1, 2), at(1, 16)),
            ("key", "deps", "deps", None, at(2, 2), at(5, 3)),
            ("key", "a", "deps.a", Some(1), at(3, 4), at(3, 10)),
            ("key", "b", "deps.b", Some(1), at(4, 4), at(4, 19)),
            ("key", "c", "deps.b.c", Some(3), at(4, 11), at(4, 17)),
            ("key", "n", "n", None, at(6, 2), at(6, 11)),
        ]
    );
    let top: Vec<&str> = outline
        .children(None)
        .map(|(_, e)| e.name.as_str())
        .collect();
    assert_eq!(top, ["name", "deps", "n"]);
}

#[test]
fn a_broken_json_file_still_outlines_what_parses() {
    let (rope, tree) = parsed(&Json, "{\"a\": 1, \"b\": }\n");
    assert!(tree.has_errors());
    let names: Vec<String> = Json
        .outline(&rope, &tree)
        .entries
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert!(names.contains(&"a".to_owned()), "{names:?}");
    let (rope, tree) = parsed(&Json, "");
    assert!(Json.outline(&rope, &tree).entries.is_empty());
}
