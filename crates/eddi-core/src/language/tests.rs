use ropey::Rope;

use super::go::Go;
use super::java::Java;
use super::javascript::JavaScript;
use super::json::Json;
use super::python::Python;
use super::rust::Rust;
use super::typescript::{Tsx, TypeScript};
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
    assert_eq!(
        ids,
        [
            "python",
            "javascript",
            "typescript",
            "tsx",
            "go",
            "rust",
            "java",
            "json"
        ]
    );
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
    assert_eq!(
        language_of("web/app.mjs"),
        Some(&JavaScript as &dyn Language)
    );
    assert_eq!(
        language_of("ui/App.JSX"),
        Some(&JavaScript as &dyn Language)
    );
    assert_eq!(language_of("src/x.cts"), Some(&TypeScript as &dyn Language));
    assert_eq!(language_of("ui/App.tsx"), Some(&Tsx as &dyn Language));
    assert_eq!(language_of("cmd/main.go"), Some(&Go as &dyn Language));
    assert_eq!(language_of("src/lib.rs"), Some(&Rust as &dyn Language));
    assert_eq!(language_of("src/A.JAVA"), Some(&Java as &dyn Language));
    assert_eq!(language_of("a.cs"), None);
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
    assert_eq!(
        language_of_source("bin/serve", "#!/usr/bin/env node"),
        Some(&JavaScript as &dyn Language)
    );
    assert_eq!(
        language_of_source("bin/hello", "#!/usr/bin/java --source 17"),
        Some(&Java as &dyn Language)
    );
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
        Capability::CodeEdits,
        Capability::ElementEdits,
        Capability::CodeAnalyses,
        Capability::IndexScan,
        Capability::Refactors,
        Capability::Rename,
    ];
    assert!(all.iter().all(|&c| Python.supports(c)));
    // the JavaScript family and the brace languages address and read
    // code; the JavaScript family edits its elements as brace languages
    // do; Python's other edits and its analyses are not theirs
    for language in [
        &JavaScript as &dyn Language,
        &TypeScript,
        &Tsx,
        &Go,
        &Rust,
        &Java,
    ] {
        let offered: Vec<Capability> = all.into_iter().filter(|&c| language.supports(c)).collect();
        let mut expected = vec![
            Capability::Outline,
            Capability::SyntaxCheck,
            Capability::SymbolSites,
        ];
        if language.brace_edits().is_some() {
            expected.push(Capability::ElementEdits);
        }
        expected.extend([Capability::IndexScan, Capability::Rename]);
        assert_eq!(offered, expected, "{language:?}");
        assert!(language.local_sites().is_some() && !language.offside_rule());
    }
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
    // the project index scans Python's modules and hears of its stubs,
    // and scans the brace languages' files
    let brace = [
        "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "go", "rs", "java",
    ];
    let indexed: Vec<&str> = ["py"].into_iter().chain(brace).collect();
    let watched: Vec<&str> = ["py", "pyi"].into_iter().chain(brace).collect();
    assert_eq!(indexed_extensions().collect::<Vec<_>>(), indexed);
    assert_eq!(watched_extensions().collect::<Vec<_>>(), watched);
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

/// An outline as lines: `kind name (form) in parent: start-end`.
fn shown(outline: &Outline) -> Vec<String> {
    outline
        .entries
        .iter()
        .map(|e| {
            let async_ = if e.is_async { "async " } else { "" };
            let parent = e
                .parent
                .map_or_else(String::new, |p| format!(" in {}", outline.entries[p].form));
            format!(
                "{async_}{} {} ({}){parent}: {}-{}",
                e.kind, e.name, e.form, e.start, e.end
            )
        })
        .collect()
}

const JS: &str = r#"const limit = 3;
let { a, b: [c] } = obj, d = 4;

/**
 * Adds.
 */
export async function add(x, y = 1, ...more) {
  function inner() {}
  return x + y;
}

const twice = (n) => n * 2;

class Shape extends Base {
  static count = 0;
  #secret = 1;
  area() {
    return 0;
  }
  get name() { return "s"; }
  set name(v) {}
  static create() { return new Shape(); }
  onClick = () => {};
}

export default Shape;
"#;

const COMMONJS: &str = r#"'use strict';
/** Compiles. */
exports.compile = function (val) {
  function inner() {}
  return inner(val);
};
module.exports.helper = (x) => x * 2;
exports.Box = class {
  get() { return 1; }
};
exports.value = compute();
exports.alias = compute;
app.init = function () {};
exports.a = exports.b = function () {};
function compute() {
  exports.late = function () {};
  return 3;
}
Shape.prototype.area = function area() {};
module.id = function () {};
Shape.prototype = {
  grow(n) { return n; },
  shrink: function (n) { return -n; },
  size: 3,
};
"#;

/// CommonJS: a function or class written in place by a module-level
/// `exports.k = …` (or `module.exports.k`) is a function or class named
/// by its key, whose statement is the element (with its doc comment); a
/// function written so on another name is that name's method
/// (`app.init`); other values, chained or nested writes are none.
#[test]
fn a_commonjs_files_outline_has_the_functions_its_exports_define_in_place() {
    let (rope, tree) = parsed(&JavaScript, COMMONJS);
    assert!(!tree.has_errors());
    assert_eq!(
        shown(&JavaScript.outline(&rope, &tree)),
        [
            "function compile (compile): 2:0-5:2",
            "function inner (compile.inner) in compile: 3:2-3:21",
            "function helper (helper): 6:0-6:37",
            "class Box (Box): 7:0-9:2",
            "method get (Box.get) in Box: 8:2-8:21",
            "method app.init (app.init): 12:0-12:26",
            "function compute (compute): 14:0-17:1",
            "method Shape.area (Shape.area): 18:0-18:42",
            "method Shape.grow (Shape.grow): 21:2-21:23",
            "method Shape.shrink (Shape.shrink): 22:2-22:37",
        ]
    );
}

const COMMONJS_OBJECT: &str = r#"'use strict';
function pad(s) { return s; }
module.exports = {
  /** Parses. */
  parse(str) {
    function inner() {}
    return inner(str);
  },
  format: function (list) { return list; },
  sep: () => ',',
  Box: class {
    get() { return 1; }
  },
  pad,
  alias: pad,
  'quoted': () => 1,
  count: 3,
  nested: { deep() {} },
};
other.exports = { no() {} };
"#;

/// ... and a function or class written in place under a key of the
/// object a module-level `module.exports = { … }` assigns; a key naming
/// another value, a quoted key, a nested object's or another object's
/// are none.
#[test]
fn a_commonjs_files_outline_has_the_functions_its_exports_object_defines() {
    let (rope, tree) = parsed(&JavaScript, COMMONJS_OBJECT);
    assert!(!tree.has_errors());
    assert_eq!(
        shown(&JavaScript.outline(&rope, &tree)),
        [
            "function pad (pad): 1:0-1:29",
            "function parse (parse): 4:2-7:3",
            "function inner (parse.inner) in parse: 5:4-5:23",
            "function format (format): 8:2-8:42",
            "function sep (sep): 9:2-9:16",
            "class Box (Box): 10:2-12:3",
            "method get (Box.get) in Box: 11:4-11:23",
        ]
    );
}

#[test]
fn a_javascript_files_outline_has_its_functions_classes_members_and_variables() {
    let (rope, tree) = parsed(&JavaScript, JS);
    assert!(!tree.has_errors());
    assert_eq!(
        shown(&JavaScript.outline(&rope, &tree)),
        [
            "variable limit (limit): 0:6-0:16",
            "variable a (a): 1:6-1:23",
            "variable c (c): 1:13-1:23",
            "variable d (d): 1:25-1:30",
            "async function add (add): 6:7-9:1",
            "function inner (add.inner) in add: 7:2-7:21",
            "function twice (twice): 11:0-11:27",
            "class Shape (Shape): 13:0-23:1",
            "static field count (Shape.count) in Shape: 14:2-14:18",
            "field #secret (Shape.#secret) in Shape: 15:2-15:13",
            "method area (Shape.area) in Shape: 16:2-18:3",
            "getter Shape.name.getter (Shape.name.getter) in Shape: 19:2-19:28",
            "setter Shape.name.setter (Shape.name.setter) in Shape: 20:2-20:16",
            "static method create (Shape.create) in Shape: 21:2-21:41",
            "method onClick (Shape.onClick) in Shape: 22:2-22:20",
        ]
    );
}

/// The sites code targets need: a definition from its keyword (after
/// `export`), its whole lines with the doc comment above, its end just
/// inside its closing brace (a variable's at the line after it).
#[test]
fn javascript_symbols_have_the_ranges_code_targets_need() {
    let (rope, tree) = parsed(&JavaScript, JS);
    let sites = JavaScript.symbol_sites().unwrap()(&rope, &tree);
    let symbol = |name: &str| {
        sites
            .symbols
            .iter()
            .find(|s| s.qualified_name == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let add = symbol("add");
    assert_eq!(add.kind, crate::analysis::outline::SymbolKind::Function);
    assert!(add.is_async);
    assert_eq!(add.param_names, ["x", "y", "more"]);
    assert_eq!(add.params.as_deref(), Some("x, y = 1, ...more"));
    assert_eq!((add.full_lines.first, add.full_lines.last), (3, 9));
    assert_eq!(add.end, Position::new(9, 0));
    assert_eq!(
        rope.slice(add.definition.clone()).to_string(),
        "async function add(x, y = 1, ...more) {\n  function inner() {}\n  return x + y;\n}"
    );
    let shape = symbol("Shape");
    assert_eq!(shape.end, Position::new(23, 0), "inside the closing brace");
    assert_eq!(symbol("Shape.area").end, Position::new(18, 2));
    let twice = symbol("twice");
    assert_eq!(twice.param_names, ["n"]);
    assert_eq!(twice.end, Position::new(12, 0), "no braces: the line after");
    assert_eq!(
        rope.slice(twice.definition.clone()).to_string(),
        "const twice = (n) => n * 2;"
    );
    let limit = symbol("limit");
    assert_eq!(limit.kind, crate::analysis::outline::SymbolKind::Variable);
    assert_eq!(
        rope.slice(limit.definition.clone()).to_string(),
        "const limit = 3;"
    );
    assert_eq!(
        symbol("Shape.count").kind,
        crate::analysis::outline::SymbolKind::Attribute
    );
    assert_eq!(
        symbol("Shape.onClick").kind,
        crate::analysis::outline::SymbolKind::Method
    );
}

const TS: &str = r#"import type { X } from "./x";

export interface Shape {
  readonly name: string;
  area(): number;
}

export type Id = string | number;

enum Color { Red, Green = 2 }

export function pick(a: string): string;
export function pick(a: number): number;
export function pick(a: any): any {
  return a;
}

@sealed
export abstract class Base implements Shape {
  @logged
  private static async load(id?: Id): Promise<void> {}
  abstract area(): number;
  name = "base";
}

namespace Util {
  export const pi = 3.14;
  export function twice(n: number) { return n * 2; }
}

export const handler = async (event: unknown) => event;

export class Service {
  constructor(
    private readonly http: Base,
    public label?: string,
    count = 1,
  ) {}
}
"#;

#[test]
fn a_typescript_files_outline_has_its_types_overloads_and_members() {
    let (rope, tree) = parsed(&TypeScript, TS);
    assert!(!tree.has_errors(), "{}", tree.to_sexp());
    assert_eq!(
        shown(&TypeScript.outline(&rope, &tree)),
        [
            "interface Shape (Shape): 2:7-5:1",
            "property name (Shape.name) in Shape: 3:2-3:23",
            "method area (Shape.area) in Shape: 4:2-4:16",
            "type Id (Id): 7:7-7:33",
            "enum Color (Color): 9:0-9:29",
            "field Red (Color.Red) in Color: 9:13-9:16",
            "field Green (Color.Green) in Color: 9:18-9:27",
            "function pick(a: string) (pick(a: string)): 11:7-11:40",
            "function pick(a: number) (pick(a: number)): 12:7-12:40",
            "function pick(a: any) (pick(a: any)): 13:7-15:1",
            "class Base (Base): 18:7-23:1",
            "async static method load (Base.load) in Base: 20:2-20:54",
            "method area (Base.area) in Base: 21:2-21:25",
            "field name (Base.name) in Base: 22:2-22:15",
            "namespace Util (Util): 25:0-28:1",
            "variable pi (Util.pi) in Util: 26:15-26:25",
            "function twice (Util.twice) in Util: 27:9-27:52",
            "async function handler (handler): 30:7-30:55",
            "class Service (Service): 32:7-38:1",
            "method constructor (Service.constructor) in Service: 33:2-37:6",
            // parameter properties are the class's fields
            "field http (Service.http) in Service: 34:4-34:31",
            "field label (Service.label) in Service: 35:4-35:25",
        ]
    );
    let sites = TypeScript.symbol_sites().unwrap()(&rope, &tree);
    let load = sites
        .symbols
        .iter()
        .find(|s| s.qualified_name == "Base.load")
        .unwrap();
    // the decorator above the member is among its lines
    assert_eq!((load.full_lines.first, load.full_lines.last), (19, 20));
    assert_eq!(load.param_names, ["id"]);
    let base = sites.symbols.iter().find(|s| s.name == "Base").unwrap();
    assert_eq!(
        (base.full_lines.first, base.end),
        (17, Position::new(23, 0))
    );
}

const TSX: &str = r#"import React from "react";

type Props = { label: string };

export function Button({ label }: Props) {
  return <button onClick={() => alert(label)}>{label}</button>;
}

export const App = () => <Button label="hi" />;

export const Field = React.memo(React.forwardRef<HTMLInputElement, Props>((props, ref) => {
  const onChange = React.useCallback(() => props.label, [props]);
  return <input ref={ref} onChange={onChange} />;
}));
export const Label = observer(function Label(props: Props) {
  return <span>{props.label}</span>;
});
const save = debounce(() => 1, 100);
const server = http.createServer((req, res) => res.end());
const deep = memo(memo(memo(memo(() => 1))));
"#;

const JSX: &str = r#"export default function App() {
  return <div className="app">{items.map((i) => <Item key={i} />)}</div>;
}
const Item = ({ id }) => <span>{id}</span>;
"#;

/// JSX and TSX components: functions, and functions wrappers return
/// (`memo`, `forwardRef`, `observer`, `useCallback`; lodash's `debounce`).
#[test]
fn jsx_and_tsx_files_outline_their_components() {
    let (rope, tree) = parsed(&Tsx, TSX);
    assert!(!tree.has_errors(), "{}", tree.to_sexp());
    assert_eq!(
        shown(&Tsx.outline(&rope, &tree)),
        [
            "type Props (Props): 2:0-2:31",
            "function Button (Button): 4:7-6:1",
            "function App (App): 8:7-8:47",
            // a function a wrapper returns: React's components, lodash's
            "function Field (Field): 10:7-13:4",
            "function onChange (Field.onChange) in Field: 11:2-11:65",
            "function Label (Label): 14:7-16:3",
            "function save (save): 17:0-17:36",
            // another call's result, a wrapper four deep
            "variable server (server): 18:6-18:58",
            "variable deep (deep): 19:6-19:45",
        ]
    );
    let (rope, tree) = parsed(&JavaScript, JSX);
    assert!(!tree.has_errors(), "{}", tree.to_sexp());
    assert_eq!(
        shown(&JavaScript.outline(&rope, &tree)),
        [
            "function App (App): 0:15-2:1",
            "function Item (Item): 3:0-3:43",
        ]
    );
    // TSX is not TypeScript: `<T>x` is an element in one, a cast in the other
    let (_, tree) = parsed(&TypeScript, TSX);
    assert!(tree.has_errors());
}

/// Every name the outline prints, as a command, names that element: the
/// forms of same-named overloads, getters and setters, private members
/// and `$` names included.
#[test]
fn every_javascript_and_typescript_name_printed_is_accepted_back() {
    use crate::analysis::outline::lookup;
    use crate::commands::{parse_command, Command, GotoTarget};
    let extra = "const $el = 1;\nclass $Store {\n  #load() {}\n  load() {}\n  static load(x) {}\n}\nfunction f() {}\nif (a) { function f() {} }\n";
    // a type's own method and two impls of one trait; raw identifiers
    let extra_rust = "struct C { r#type: u8 }\nimpl C { fn inv(&self) {} }\nimpl Inv for C { fn inv(&self) {} }\nimpl<'a> Inv for &'a C { fn inv(&self) {} }\nfn r#try() {}\n";
    let cases: [(&'static dyn Language, &str); 9] = [
        (&Go, GO),
        (&Rust, RS),
        (&Rust, extra_rust),
        (&Java, JAVA),
        (&JavaScript, JS),
        (&JavaScript, JSX),
        (&JavaScript, extra),
        (&TypeScript, TS),
        (&Tsx, TSX),
    ];
    let mut checked = 0;
    for (language, text) in cases {
        let (rope, tree) = parsed(language, text);
        let sites = language.symbol_sites().unwrap()(&rope, &tree);
        let outline = language.outline(&rope, &tree);
        assert_eq!(outline.entries.len(), sites.symbols.len());
        for (entry, symbol) in outline.entries.iter().zip(&sites.symbols) {
            let form = crate::analysis::outline::working_form(&sites, symbol).to_string();
            assert!(
                form.ends_with(&entry.form),
                "{form} printed as {}",
                entry.form
            );
            let Ok(Command::Goto(GotoTarget::Code(target))) =
                parse_command(&format!("Goto {form}"))
            else {
                panic!("{form} does not parse");
            };
            let found = lookup(&sites, &target).unwrap_or_else(|e| panic!("{form}: {e}"));
            assert!(
                std::ptr::eq(found, symbol),
                "{form} names {}",
                found.qualified_name
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
}

fn errors(language: &'static dyn Language, text: &str) -> Vec<String> {
    let (rope, tree) = parsed(language, text);
    language.syntax_check().unwrap()(&rope, &tree)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn javascript_syntax_errors_say_where_and_what() {
    for text in [JS, JSX] {
        assert_eq!(errors(&JavaScript, text), Vec::<String>::new());
    }
    assert_eq!(errors(&TypeScript, TS), Vec::<String>::new());
    assert_eq!(errors(&Tsx, TSX), Vec::<String>::new());
    assert_eq!(
        errors(&JavaScript, "let x = = 2;\n"),
        ["0:6 unexpected '='"]
    );
    assert_eq!(
        errors(&JavaScript, "function f() {\n  return 1;\n"),
        ["2:0 unexpected end of file: missing '}'"]
    );
    assert_eq!(
        errors(&JavaScript, "const a = [1, 2;\nconst b = 3;\n"),
        ["0:15 missing ']'"]
    );
    // an object, an object pattern or a call's arguments has no holes
    // (an array has): at the comma, where Node says
    assert_eq!(
        errors(
            &JavaScript,
            "const o = {a: 1,, b: 2};\nf(a,, b);\nconst {,} = o;\n"
        ),
        [
            "0:16 unexpected ','",
            "1:4 unexpected ','",
            "2:7 unexpected ','"
        ]
    );
    assert_eq!(
        errors(
            &JavaScript,
            "const [p,, q] = [1,, 2];\nf(a, b,);\nconst r = { a, };\n"
        ),
        Vec::<String>::new()
    );
    // the grammar's message, or `tsc`'s where it is installed (it
    // confirms what the grammar finds): at the same place
    let found = errors(
        &TypeScript,
        "interface A {\n  x: number\n  y: string;;\n}\n",
    );
    assert!(
        found == ["2:12 unexpected ';'"] || found == ["2:12 Property or signature expected."],
        "{found:?}"
    );
}

/// What tree-sitter-typescript 0.23 accepts and TypeScript does not: a
/// reserved word as a name, a hole in an object or a call's arguments —
/// at the word or the comma, where `tsc` reports it (its message where
/// it is installed). An import's or export's `default` and members named
/// by reserved words are names.
#[test]
fn typescript_reserved_words_as_names_and_holes_are_errors() {
    for (text, at) in [
        ("export default default;\n", "0:15 "),
        ("var class = 1;\n", "0:4 "),
        ("const o = {a: 1,, b: 2};\n", "0:16 "),
        ("f(a,, b);\n", "0:4 "),
    ] {
        let found = errors(&TypeScript, text);
        assert!(
            found.first().is_some_and(|e| e.starts_with(at)),
            "{text}: {found:?}"
        );
    }
    let valid = "import { default as x } from \"m\";\nexport { x as default };\nexport { default } from \"m\";\nlet o = { class: 1, default: 2, if: 3 };\no.class;\nclass C { default() {} static new() {} delete = 1; }\ninterface I { new (): I; delete(): void; class: number }\nenum E { default = 1 }\n";
    assert_eq!(errors(&TypeScript, valid), Vec::<String>::new());
}

/// Valid TypeScript that tree-sitter-typescript 0.23 rejects is valid:
/// `tsc` (5.6 or later) decides when the grammar finds errors. (Checked
/// where `tsc` is installed.)
#[test]
fn typescript_the_grammar_rejects_is_valid_when_tsc_accepts_it() {
    let probe = Rope::from_str("let x = (;\n");
    if super::tsc::syntax_errors(&probe, "ts").is_none() {
        eprintln!("no tsc that checks syntax alone (5.6 or later): not checked");
        return;
    }
    for valid in [
        "interface I {\n  <S>(r: S): S\n  <S, A extends any[]>(r: S, ...a: A): S\n}\n",
        "export type * from \"./types\";\n",
        "interface Z<out O = unknown, in I = unknown> {\n  a: O;\n}\n",
        "abstract class B {\n  abstract p: string;\n}\nexport abstract class C extends B {\n  abstract override p: string;\n}\n",
    ] {
        assert_eq!(errors(&TypeScript, valid), Vec::<String>::new(), "{valid}");
    }
    // and broken TypeScript is broken where `tsc` says
    assert_eq!(
        errors(&TypeScript, "let x = (;\nfunction f( {\n"),
        ["0:9 Expression expected.", "2:0 '}' expected."]
    );
}

/// `node --check` against the syntax check on valid and broken files:
/// no error where Node accepts the file, an error on the line Node
/// reports where it does not — and at Node's column where the two see
/// the same token. (Skipped where Node is not installed.)
#[test]
fn javascript_syntax_errors_agree_with_node() {
    let node = std::env::var_os("EDDI_NODE").unwrap_or_else(|| "node".into());
    if std::process::Command::new(&node)
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("node is not installed: skipped");
        return;
    }
    let valid = [
        JS.replace("export default Shape;\n", "").replace("export ", ""),
        "const re = /[(]/g; const t = `a ${b + `c`} d`; label: for (;;) { break label; }\n".into(),
        "async function* g() { for await (const x of y) yield x ?? 1; }\nclass A { static { this.x = 1; } #p = 2; get p() { return this.#p; } }\n".into(),
        "const o = { a, ...b, [c]: 1, get d() { return 2; }, e() {} };\nconst f = a?.b?.(c) ** 2;\n".into(),
        // the statement ends after an arrow function's body (npm's
        // lib/base-cmd.js): the grammar alone would index the function
        "const f = () => {\n  return 1\n}\n[...a, ...b].forEach(g)\nconst h = async () => {}\n(await x)\n".into(),
    ];
    // (a broken file, whether the column is Node's too)
    let broken = [
        ("let x = = 2;\n", false),
        ("function f() {\n  return 1;\n", false),
        ("const a = [1, 2;\nconst b = 3;\n", false),
        ("if (a) {\n  b();\n}}\n", true),
        ("class A {\n  m() {\n    return 1\n  }\n  n( {}\n}\n", false),
        ("const s = {\n  a: 1\n  b: 2\n};\n", false),
        ("for (let i = 0; i < 3; i++ {\n}\n", false),
        // an arrow function's body is not called on its own line
        ("const f = () => {}(1)\n", true),
        // no holes in an object or a call's arguments
        ("const o = {a: 1,, b: 2};\n", true),
        ("const o = {,};\n", true),
        ("f(a,, b);\n", true),
    ];
    let dir = tempfile::tempdir().unwrap();
    // Node's report: `<path>:<line>` (1-based), the line, a caret under
    // the column
    let node_error = |text: &str| -> Option<(usize, Option<usize>)> {
        let path = dir.path().join("check.js");
        std::fs::write(&path, text).unwrap();
        let out = std::process::Command::new(&node)
            .arg("--check")
            .arg(&path)
            .output()
            .unwrap();
        if out.status.success() {
            return None;
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        let at = lines
            .iter()
            .position(|l| {
                l.rsplit_once(':')
                    .is_some_and(|(p, _)| p.ends_with("check.js"))
            })
            .unwrap_or_else(|| panic!("no line in {stderr}"));
        let line = lines[at]
            .rsplit_once(':')
            .unwrap()
            .1
            .trim()
            .parse::<usize>()
            .unwrap();
        let column = lines
            .get(at + 2)
            .and_then(|caret| caret.find('^'))
            .map(|col| caret_chars(lines[at + 2], col));
        Some((line - 1, column))
    };
    for text in &valid {
        assert_eq!(node_error(text), None, "node rejects {text}");
        assert_eq!(errors(&JavaScript, text), Vec::<String>::new(), "{text}");
    }
    let mut disagree = Vec::new();
    for (text, same_column) in broken {
        let (line, column) = node_error(text).unwrap_or_else(|| panic!("node accepts {text}"));
        let (rope, tree) = parsed(&JavaScript, text);
        let ours = JavaScript.syntax_check().unwrap()(&rope, &tree);
        let first = ours.first().unwrap_or_else(|| panic!("no error in {text}"));
        if first.position.line != line || (same_column && Some(first.position.col) != column) {
            disagree.push(format!("{text:?}: ours {ours:?}, node's {line}:{column:?}"));
        }
    }
    assert!(disagree.is_empty(), "{disagree:#?}");
}

/// The chars before byte `at` of a caret line.
fn caret_chars(line: &str, at: usize) -> usize {
    line[..at].chars().count()
}

// -- Go ---------------------------------------------------------------------

const GO: &str = r#"// Package shapes draws.
package shapes

import "fmt"

// Push adds, declared above its type.
func (s *Stack[T]) Push(v T) {
	s.items = append(s.items, v)
}

// Stack holds.
type Stack[T any] struct {
	items []T
	a, b  int
}

type (
	ID    int
	Shape interface {
		Area() float64
	}
)

type Alias = string

var limit, other = 3, 4

const Pi, E = 3.14, 2.72

func Add(a, b int, rest ...string) (int, error) {
	x := func() {}
	_ = x
	return a + b, nil
}

func (c Circle) Area() float64 { return 0 }

func init() {}
func init() {}
"#;

#[test]
fn a_go_files_outline_has_its_functions_types_methods_and_variables() {
    let (rope, tree) = parsed(&Go, GO);
    assert!(!tree.has_errors(), "{}", tree.to_sexp());
    assert_eq!(
        shown(&Go.outline(&rope, &tree)),
        [
            "method Push (Stack.Push) in Stack: 6:0-8:1",
            "struct Stack (Stack): 11:0-14:1",
            "field items (Stack.items) in Stack: 12:1-12:10",
            "field a (Stack.a) in Stack: 13:1-13:10",
            "field b (Stack.b) in Stack: 13:4-13:10",
            "type ID (ID): 17:1-17:10",
            "interface Shape (Shape): 18:1-20:2",
            "method Area (Shape.Area) in Shape: 19:2-19:16",
            "type Alias (Alias): 23:0-23:19",
            "variable limit (limit): 25:4-25:23",
            "variable other (other): 25:11-25:23",
            "constant Pi (Pi): 27:6-27:24",
            "constant E (E): 27:10-27:24",
            "function Add (Add): 29:0-33:1",
            // the receiver's type is in another file
            "method Circle.Area (Circle.Area): 35:0-35:43",
            "function init#1 (init#1): 37:0-37:14",
            "function init#2 (init#2): 38:0-38:14",
        ]
    );
}

/// Go's sites: a method's lines with its doc comment, its end inside its
/// closing brace (a struct's inside its field list's), its parameters.
#[test]
fn go_symbols_have_the_ranges_code_targets_need() {
    use crate::analysis::outline::{lookup, SymbolKind};
    use crate::commands::CodeTarget;
    let (rope, tree) = parsed(&Go, GO);
    let sites = Go.symbol_sites().unwrap()(&rope, &tree);
    let method = |class: &str, name: &str| {
        lookup(
            &sites,
            &CodeTarget::Method {
                class: class.into(),
                name: name.into(),
                params: None,
            },
        )
        .unwrap_or_else(|e| panic!("{class}.{name}: {e}"))
    };
    let push = method("Stack", "Push");
    assert_eq!(push.kind, SymbolKind::Method);
    assert_eq!((push.full_lines.first, push.full_lines.last), (5, 8));
    assert_eq!(push.end, Position::new(8, 0));
    assert_eq!(push.param_names, ["v"]);
    let stack = lookup(
        &sites,
        &CodeTarget::Class {
            name: "Stack".into(),
        },
    )
    .unwrap();
    assert_eq!(
        (stack.full_lines.first, stack.end),
        (10, Position::new(14, 0))
    );
    assert_eq!(
        rope.slice(stack.definition.clone()).to_string(),
        "type Stack[T any] struct {\n\titems []T\n\ta, b  int\n}"
    );
    // a type in a group is its spec; an interface ends inside its braces
    let shape = lookup(
        &sites,
        &CodeTarget::Class {
            name: "Shape".into(),
        },
    )
    .unwrap();
    assert_eq!(
        (shape.position, shape.end),
        (Position::new(18, 1), Position::new(20, 1))
    );
    // a method whose type is in another file of the package
    let area = method("Circle", "Area");
    assert_eq!(
        (area.parent, area.qualified_name.as_str()),
        (None, "Circle.Area")
    );
    let add = lookup(
        &sites,
        &CodeTarget::Function {
            name: "Add".into(),
            params: None,
        },
    )
    .unwrap();
    assert_eq!(add.param_names, ["a", "b", "rest"]);
    assert_eq!(add.params.as_deref(), Some("a, b int, rest ...string"));
    let limit = lookup(
        &sites,
        &CodeTarget::Variable {
            name: "other".into(),
        },
    )
    .unwrap();
    assert_eq!(limit.kind, SymbolKind::Variable);
    assert_eq!(
        rope.slice(limit.definition.clone()).to_string(),
        "var limit, other = 3, 4"
    );
}

/// A language's own checker against the syntax check, on valid and broken
/// files: no error where the tool accepts the file; where it does not, an
/// error on the line it reports — and at its column where the case says
/// the two see the same token. `check` writes the text and returns the
/// tool's first error as (line, column), zero-based, or None.
fn agree_with_tool(
    language: &'static dyn Language,
    valid: &[&str],
    broken: &[(&str, bool)],
    check: impl Fn(&str) -> Option<(usize, usize)>,
) {
    for text in valid {
        assert_eq!(check(text), None, "the tool rejects {text}");
        assert_eq!(errors(language, text), Vec::<String>::new(), "{text}");
    }
    let mut disagree = Vec::new();
    for &(text, same_column) in broken {
        let (line, column) = check(text).unwrap_or_else(|| panic!("the tool accepts {text}"));
        let (rope, tree) = parsed(language, text);
        let ours = language.syntax_check().unwrap()(&rope, &tree);
        let Some(first) = ours.first() else {
            disagree.push(format!("{text:?}: no error; the tool's {line}:{column}"));
            continue;
        };
        if first.position.line != line || (same_column && first.position.col != column) {
            disagree.push(format!(
                "{text:?}: ours {ours:?}, the tool's {line}:{column}"
            ));
        }
    }
    assert!(disagree.is_empty(), "{disagree:#?}");
}

/// Whether `program` runs here (`--version` or `-h` answered).
fn installed(program: &str, probe: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg(probe)
        .output()
        .is_ok();
    if !found {
        eprintln!("{program} is not installed: skipped");
    }
    found
}

/// A tool's report `<path>:<line>:<col>: …` (1-based) as a zero-based
/// (line, column): the first line naming `file`.
fn reported_at(output: &str, file: &str) -> Option<(usize, usize)> {
    output.lines().find_map(|l| {
        let rest = &l[l.find(file)? + file.len()..];
        let mut parts = rest.strip_prefix(':')?.splitn(3, ':');
        let line: usize = parts.next()?.trim().parse().ok()?;
        let col: usize = parts.next()?.trim().parse().ok()?;
        Some((line - 1, col - 1))
    })
}

/// `gofmt -e` (Go's own parser) against the syntax check. (Skipped where
/// Go is not installed.)
#[test]
fn go_syntax_errors_agree_with_gofmt() {
    if !installed("gofmt", "-h") && !installed("gofmt", "--help") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let check = |text: &str| {
        let path = dir.path().join("check.go");
        std::fs::write(&path, text).unwrap();
        let out = std::process::Command::new("gofmt")
            .arg("-e")
            .arg(&path)
            .output()
            .unwrap();
        if out.status.success() {
            return None;
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        Some(reported_at(&stderr, "check.go").unwrap_or_else(|| panic!("no position in {stderr}")))
    };
    let valid = [
        GO,
        "package p\n\nfunc f() {\n\tfor i := range 3 {\n\t\tgo func() { defer g() }()\n\t}\n\tselect {\n\tcase v := <-ch:\n\t\t_ = v\n\tdefault:\n\t}\n\ts := `raw\n{`\n\t_ = s\n\t_ = '}'\n}\n",
        "package p\n\ntype T struct {\n\tEmbedded\n\tx int `json:\"x\"`\n}\n\nfunc (T) m() (n int, err error) { return }\n\nvar m = map[string][]int{\"a\": {1, 2}}\n",
    ];
    let valid = [
        valid[0],
        valid[1],
        valid[2],
        // line breaks after a `.`, a `,`, in a group, in a function literal
        "package p\n\nvar (\n\ta = f(\n\t\t1,\n\t)\n\tb = Must(New(\"\").\n\t\tParse(`x`))\n\tc = g(func() {\n\t\th()\n\t})\n)\n",
    ];
    let broken = [
        // a top-level statement that is no declaration
        ("package p\n\nfunc f() {\n}\n\treturn 1\n}\n", true),
        ("package p\n\nconst\n\tA = 1\n\tB = 2\n)\n", true),
        // a line break ends the statement before the list's `)`
        ("package p\n\nfunc f() {\n\tg(a,\n\t\tb\n\t)\n}\n", true),
        ("package p\n\nvar x = []int{1}[0\n]\n", true),
        ("package p\n\nfunc f() {\n\treturn 1 +\n}\n", false),
        ("package p\n\nfunc f() {\n\tx := [1, 2}\n}\n", false),
        ("package p\n\nfunc f() {\n\tif x {\n\t\ty()\n}\n", false),
        ("package p\n\nfunc f( {\n}\n", false),
        ("package p\n\nvar = 3\n", false),
        ("package p\n\ntype T struct {\n\tx int,\n}\n", false),
        ("package p\n\nfunc f() {\n\tg())\n}\n", true),
        ("package p\n\nfunc f() {}}\n", true),
        // what Go's parser refuses of a tree the grammar accepts
        ("package p\n\nvar x = []int{\n\t1,\n\t2\n}\n", true),
        ("package p\n\nvar x = T{\n\tA: 1,\n\tB: 2\n}\n", true),
        ("func Z() {}\n\npackage v1\n", true),
        ("package p\npackage q\n", true),
        ("package p\n\nfunc f() {}\n\nimport \"fmt\"\n", true),
        ("package p\n\nfunc f() {\n\tdefer 1\n}\n", true),
        ("package p\n\nfunc f() {\n\tgo func() {}\n}\n", true),
        ("package p\n\nfunc f() {\n\tdefer (g)\n}\n", true),
        ("package p\n\nfunc Y(a, b int, int) {}\n", true),
        ("package p\n\nfunc f(...int, b int) {}\n", true),
        ("package p\n\nfunc f() {\n\ta := 1\n\ta.b := 2\n}\n", true),
        // what Go's scanner refuses: at the literal or the escape
        ("package p\n\nfunc f() {\n\ts := \"abc\n\t_ = s\n}\n", true),
        ("package p\n\nfunc f() {\n\tg(\"abc, 1)\n\th()\n}\n", true),
        ("package p\n\nvar a = 'ab'\n", true),
        ("package p\n\nvar a = \"\\x4g\"\n", true),
        ("package p\n\n/* abc\nfunc f() {}\n", true),
        // a composite literal never closed
        ("package p\n\nvar x = []int{1, 2\n\nfunc f() {\n}\n", true),
        // a header's `{` missing
        ("package p\n\ntype T struct\n\tA int\n}\n", true),
        (
            "package p\n\nfunc f() {\n\tif err != nil\n\t\treturn\n\t}\n}\n",
            true,
        ),
        (
            "package p\n\nfunc f() {\n\tif x := g(); x > 0\n\t\treturn\n\t}\n}\n",
            true,
        ),
        // a top-level list never closed
        (
            "package p\n\nimport (\n\t\"a\"\n\tx \"b\"\n\nvar y = 1\n",
            true,
        ),
        ("package p\n\nconst (\n\tA = 1\n\tB = 2\n", false),
        (
            "package p\n\ntype T struct {\n\ta int\n\tb *byte\n\n\ntype U int\n",
            true,
        ),
        ("package p\n\ntype I interface {\n\tM()\n\n", false),
        // a `,` after a range clause's expression
        (
            "package p\n\nfunc f() {\n\tfor _, x := range []struct{ a int }{\n\t\t{1},\n\t\t2},\n\t\t{3},\n\t} {\n\t\t_ = x\n\t}\n}\n",
            true,
        ),
        // an element missing, or without its type outside a literal
        ("package p\n\nvar x = T{, b}\n", true),
        ("package p\n\nvar x = f(a,, b)\n", false),
        (
            "package p\n\nvar x = []T{\n\t{1, 2},\n\t3, 4},\n\t{5, 6},\n}\n",
            true,
        ),
        (
            "package p\n\nfunc f() {\n\tx := []int{1},\n\t\t{2}\n}\n",
            true,
        ),
    ];
    agree_with_tool(&Go, &valid, &broken, check);
}

/// The literals and comments Go's scanner refuses are the errors of their
/// line, where `gofmt -e` reports them: a string, raw string, rune or
/// comment not terminated and a rune of no char or of two (at its quote),
/// an unknown escape (at the char after its `\`), a missing digit of an
/// escape (at the char in its place); the grammar's own errors before
/// them on that line are not Go's.
#[test]
fn go_literals_the_scanner_refuses_are_errors_where_gofmt_says() {
    let first = |text: &str| errors(&Go, text).into_iter().next().unwrap_or_default();
    let cases = [
        (
            "package p\n\nfunc f() {\n\ts := \"abc\n\t_ = s\n}\n",
            "3:6 string literal not terminated",
        ),
        (
            "package p\n\nfunc f() {\n\tr := 'ab\n}\n",
            "3:6 rune literal not terminated",
        ),
        ("package p\n\nvar a = 'ab'\n", "2:8 illegal rune literal"),
        ("package p\n\nvar a = ''\n", "2:8 illegal rune literal"),
        (
            "package p\n\nvar a = `abc\n\nfunc f() {}\n",
            "2:8 raw string literal not terminated",
        ),
        (
            "package p\n\n/* abc\nfunc f() {}\n",
            "2:0 comment not terminated",
        ),
        (
            "package p\n\nvar a = \"\\q\"\n",
            "2:10 unknown escape sequence",
        ),
        (
            "package p\n\nvar a = '\\u12'\n",
            "2:13 illegal character in escape sequence",
        ),
    ];
    for (text, error) in cases {
        assert_eq!(first(text), error, "{text}");
    }
    // every escape Go knows, and quotes inside the other kind of literal
    let valid = "package p\n\nvar a = []string{\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\\101\\x41\\u00e9\\U0001F600'\", `\\q\"`}\nvar b = []rune{'\\'', '\"', '\\000', 'é'}\n";
    assert_eq!(errors(&Go, valid), Vec::<String>::new());
}

/// A header whose `{` is missing, where `gofmt -e` reports it: after
/// `type T struct`, at the token found instead; after an `if`, `for` or
/// `switch` header ended by a line break, at the next line's first token,
/// or right after the header when it has an init statement or a `range`
/// ("found newline"); the grammar's errors inside the header give way.
#[test]
fn a_go_header_without_its_brace_is_an_error_where_gofmt_says() {
    let first = |text: &str| errors(&Go, text).into_iter().next().unwrap_or_default();
    let cases = [
        (
            "package p\n\ntype T struct\n\tA int\n}\n",
            "3:1 expected '{', found 'A'",
        ),
        (
            "package p\n\nfunc f() {\n\tif err != nil\n\t\treturn\n\t}\n}\n",
            "4:2 expected '{', found 'return'",
        ),
        (
            "package p\n\nfunc f() {\n\tif x := g(); x > 0\n\t\treturn\n\t}\n}\n",
            "3:19 expected '{', found newline",
        ),
        (
            "package p\n\nfunc f() {\n\tfor i, x := range xs\n\t\tg(i, x)\n\t}\n}\n",
            "3:21 expected '{', found newline",
        ),
    ];
    for (text, error) in cases {
        assert_eq!(first(text), error, "{text}");
    }
    let ranges = "package p\n\nfunc f() {\n\tfor _, x := range []struct{ a int }{{1}, {2}} {\n\t\t_ = x\n\t}\n\tfor k, v := range map[string]int{\"a\": 1} {\n\t\t_, _ = k, v\n\t}\n\tfor range g(1, 2) {\n\t}\n}\n";
    assert_eq!(errors(&Go, ranges), Vec::<String>::new());
    // a range clause takes one expression: a `,` after it is where the
    // body's `{` goes
    let comma = "package p\n\nfunc f() {\n\tfor _, x := range []struct{ a int }{\n\t\t{1},\n\t\t2},\n\t\t{3},\n\t} {\n\t\t_ = x\n\t}\n}\n";
    assert!(first(comma).starts_with("5:4 "), "{}", first(comma));
    let valid = "package p\n\nvar v = []struct{ a int }{{1}}\n\ntype I interface{ M() }\n\nfunc f() {\n\tfor {\n\t}\n\tif a &&\n\t\tb {\n\t}\n\tfor _, x := range []int{1, 2} {\n\t\t_ = x\n\t}\n}\n";
    assert_eq!(errors(&Go, valid), Vec::<String>::new());
}

/// A top-level list whose closing bracket is missing ends where
/// `gofmt -e` says: a declaration group at the next declaration's keyword
/// (an import group expects a path), a declared struct's fields there
/// too, else at the end of the file; the grammar's errors inside the
/// list give way.
#[test]
fn a_go_list_never_closed_ends_where_gofmt_says() {
    let first = |text: &str| errors(&Go, text).into_iter().next().unwrap_or_default();
    let cases = [
        (
            "package p\n\nimport (\n\t\"a\"\n\tx \"b\"\n\nvar y = 1\n",
            "6:0 expected 'STRING', found 'var'",
        ),
        (
            "package p\n\ntype (\n\tA int\n\tB struct {\n\t\tx int\n\t}\n\nfunc f() {}\n",
            "8:0 expected 'IDENT', found 'func'",
        ),
        (
            "package p\n\ntype T struct {\n\ta int\n\tb *byte\n\n\ntype U int\n",
            "7:0 expected '}', found 'type'",
        ),
        (
            "package p\n\nconst (\n\tA = 1\n\tB = 2\n",
            "4:6 expected ')', found 'EOF'",
        ),
    ];
    for (text, error) in cases {
        assert_eq!(first(text), error, "{text}");
    }
    // closed lists, items of more lines, a group inside a function
    let valid = "package p\n\nimport (\n\t. \"a\"\n\t_ \"b\"\n)\n\nvar (\n\tf = func() {\n\t\tg()\n\t}\n\tx, y = 1, 2\n)\n\ntype T struct {\n\t*E\n\ta, b int\n\tc struct{ d int }\n}\n\ntype I interface {\n\t~int | ~string\n}\n\nfunc h() {\n\tvar (\n\t\tz = 1\n\t)\n\t_ = z\n}\n";
    assert_eq!(errors(&Go, valid), Vec::<String>::new());
}

/// An element missing from a list (`f(a,, b)`), or one without its type
/// outside a composite literal (`[]T{a},` then `{b}` once the literal
/// closed early): Go's parser expects an operand there, at the `,` or
/// the `{`, where `gofmt -e` says.
#[test]
fn a_go_operand_missing_from_a_list_is_where_gofmt_says() {
    let first = |text: &str| errors(&Go, text).into_iter().next().unwrap_or_default();
    let cases = [
        (
            "package p\n\nvar x = T{, b}\n",
            "2:10 expected operand, found ','",
        ),
        (
            "package p\n\nvar x = []T{\n\t{1, 2},\n\t3, 4},\n\t{5, 6},\n}\n",
            "5:1 expected operand, found '{'",
        ),
        (
            "package p\n\nfunc f() {\n\tx := []int{1},\n\t\t{2}\n}\n",
            "4:2 expected operand, found '{'",
        ),
        (
            "package p\n\nvar x = f(1,\n\t{2})\n",
            "3:1 expected operand, found '{'",
        ),
    ];
    for (text, error) in cases {
        assert_eq!(first(text), error, "{text}");
    }
    let valid = "package p\n\nvar x = []T{\n\t{1, 2},\n\t{3, 4},\n}\n\nvar m = map[K]V{{1, 2}: {3}, {4, 5}: {6}}\n\nvar y = [][]int{{1}, {2, 3}}\n";
    assert_eq!(errors(&Go, valid), Vec::<String>::new());
}

/// A composite literal's elements are a list: a line break after an
/// element and no `,` ends it, where `gofmt -e` reports — also when the
/// literal is never closed (the grammar sees a call of what follows).
#[test]
fn a_go_composite_literal_never_closed_ends_at_the_line_break() {
    let text = "package p\n\nvar x = []int{1, 2\n\nfunc f() {\n}\n";
    assert_eq!(
        errors(&Go, text).first().map(String::as_str),
        Some("2:18 missing ',' before newline in composite literal")
    );
    let nested =
        "package p\n\nvar a = map[string]T{\n\t\"a\": {X: 1,\n\t\tY: 2},\n\t\"b\": {1, 2}\n}\n";
    assert_eq!(
        errors(&Go, nested),
        ["5:12 missing ',' before newline in composite literal"]
    );
}

// -- Rust -------------------------------------------------------------------

const RS: &str = r#"//! Shapes.
use std::fmt;

/// A point.
#[derive(Debug, Clone)]
pub struct Point<T> {
    pub x: T,
    y: T,
}

pub enum Shape {
    Circle(f64),
    Square { side: f64 },
}

pub trait Area {
    fn area(&self) -> f64;
    fn name(&self) -> String {
        String::new()
    }
}

pub type Pair = (i32, i32);
pub const LIMIT: usize = 3;
static mut COUNT: u32 = 0;

impl<T: Copy> Point<T> {
    /// Makes one.
    pub fn new(x: T, y: T) -> Self {
        Point { x, y }
    }

    pub async fn fmt(&self) {}
}

impl fmt::Display for Point<i32> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.x)
    }
}

impl Area for Point<f64> {
    fn area(&self) -> f64 {
        0.0
    }
}

impl Area for Circle {
    fn area(&self) -> f64 {
        1.0
    }
}

pub mod geo {
    pub struct Line;

    impl Line {
        pub fn length(&self, (a, b): (f64, f64), mut scale: f64) -> f64 {
            scale *= a + b;
            scale
        }
    }

    pub fn helper(a: i32) -> i32 {
        fn inner() {}
        a
    }
}
"#;

#[test]
fn a_rust_files_outline_has_its_items_impl_methods_and_modules() {
    let (rope, tree) = parsed(&Rust, RS);
    assert!(!tree.has_errors(), "{}", tree.to_sexp());
    assert_eq!(
        shown(&Rust.outline(&rope, &tree)),
        [
            "struct Point (Point): 5:0-8:1",
            "field x (Point.x) in Point: 6:8-6:12",
            "field y (Point.y) in Point: 7:4-7:8",
            "enum Shape (Shape): 10:0-13:1",
            "variant Circle (Shape.Circle) in Shape: 11:4-11:15",
            "variant Square (Shape.Square) in Shape: 12:4-12:24",
            "trait Area (Area): 15:0-20:1",
            "method area (Area.area) in Area: 16:4-16:26",
            "method name (Area.name) in Area: 17:4-19:5",
            "type Pair (Pair): 22:0-22:27",
            "constant LIMIT (LIMIT): 23:10-23:27",
            "static COUNT (COUNT): 24:11-24:26",
            "method new (Point.new) in Point: 28:4-30:5",
            // the type's own fmt is Point.fmt, the trait's Point.Display.fmt
            "async method fmt (Point.fmt) in Point: 32:4-32:30",
            "method Point.Display.fmt (Point.Display.fmt) in Point: 36:4-38:5",
            "method area (Point.area) in Point: 42:4-44:5",
            // the type is in another file
            "method Circle.area (Circle.area): 48:4-50:5",
            "module geo (geo): 53:0-67:1",
            "struct Line (geo.Line) in geo: 54:4-54:20",
            "method length (geo.Line.length) in geo.Line: 57:8-60:9",
            "function helper (geo.helper) in geo: 63:4-66:5",
            "function inner (geo.helper.inner) in geo.helper: 64:8-64:21",
        ]
    );
}

/// Rust's sites: an item's lines with its doc comment and attributes, a
/// trait impl's method found by its type alone or with its trait, its
/// parameters without `self`.
#[test]
fn rust_symbols_have_the_ranges_code_targets_need() {
    use crate::analysis::outline::{lookup, SymbolKind};
    use crate::commands::CodeTarget;
    let (rope, tree) = parsed(&Rust, RS);
    let sites = Rust.symbol_sites().unwrap()(&rope, &tree);
    let method = |class: &str, name: &str| {
        lookup(
            &sites,
            &CodeTarget::Method {
                class: class.into(),
                name: name.into(),
                params: None,
            },
        )
    };
    let point = lookup(
        &sites,
        &CodeTarget::Class {
            name: "Point".into(),
        },
    )
    .unwrap();
    assert_eq!((point.full_lines.first, point.full_lines.last), (3, 8));
    assert_eq!(point.end, Position::new(8, 0));
    let new = method("Point", "new").unwrap();
    assert_eq!((new.full_lines.first, new.end), (27, Position::new(30, 4)));
    assert_eq!(new.param_names, ["x", "y"]);
    let own = method("Point", "fmt").unwrap();
    assert!(own.is_async && own.via_trait.is_none());
    let display = method("Point.Display", "fmt").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(display.via_trait.as_deref(), Some("Display"));
    assert_eq!(display.param_names, ["f"]);
    // Point's area is its Area impl's: found by the type alone
    let area = method("Point", "area").unwrap();
    assert_eq!(area.kind, SymbolKind::Method);
    assert!(method("Point.Area", "area").is_ok());
    assert!(method("Area", "area").is_ok_and(|m| m.via_trait.is_none()));
    assert!(method("Circle", "area").is_ok());
    assert!(method("Circle.Area", "area").is_ok());
    assert!(method("Point", "nothing").is_err());
    let length = method("Line", "length").unwrap();
    assert_eq!(length.param_names, ["a", "b", "scale"]);
    assert!(std::ptr::eq(method("geo.Line", "length").unwrap(), length));
}

/// rustc's parser against the syntax check. rustc compiles the valid
/// files as a library (so they are whole programs), and reports the
/// broken ones' first error. (Skipped where rustc is not installed.)
#[test]
fn rust_syntax_errors_agree_with_rustc() {
    if !installed("rustc", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let check = |text: &str| {
        let path = dir.path().join("check.rs");
        std::fs::write(&path, text).unwrap();
        let out = std::process::Command::new("rustc")
            .args([
                "--edition",
                "2021",
                "--crate-type",
                "lib",
                "--emit=metadata",
            ])
            .args(["--error-format=short", "-A", "warnings", "-o"])
            .arg(dir.path().join("check.rmeta"))
            .arg(&path)
            .output()
            .unwrap();
        if out.status.success() {
            return None;
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        Some(reported_at(&stderr, "check.rs").unwrap_or_else(|| panic!("no position in {stderr}")))
    };
    let valid = [
        "use std::fmt;\n\n/// A point.\n#[derive(Debug, Clone)]\npub struct Point<T> {\n    pub x: T,\n}\n\nimpl fmt::Display for Point<i32> {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        write!(f, \"{}\", self.x)\n    }\n}\n\npub fn first<'a>(s: &'a str) -> Option<char> {\n    let c = '{';\n    let r = r#\"a \" {\"#;\n    s.chars().find(|&x| x == c || r.contains(x))\n}\n",
        "pub mod geo {\n    pub trait Area {\n        fn area(&self) -> f64;\n    }\n    pub enum Shape {\n        Circle(f64),\n        Square { side: f64 },\n    }\n    impl Area for Shape {\n        fn area(&self) -> f64 {\n            match self {\n                Shape::Circle(r) => r * r,\n                Shape::Square { side } => side * side,\n            }\n        }\n    }\n}\n\npub async fn run() -> Result<(), Box<dyn std::error::Error>> {\n    'outer: loop {\n        break 'outer;\n    }\n    Ok(())\n}\n",
    ];
    let valid = [
        valid[0],
        valid[1],
        // a macro's body is tokens (a lone `$`); a macro named `str`;
        // block comments nest; what tree-sitter-rust does not parse
        "/* a glob: src/**/*.rs ( */\npub struct R<const A: i32, const B: i32>;\npub type H = R<-25, 25>;\npub fn g()\nwhere\n    (): Send,\n{\n}\npub struct T\nwhere\n    u8: Copy;\nmacro_rules! str {\n    ($e:expr) => {\n        $e\n    };\n}\n\nmacro_rules! dollar {\n    ($mode:ident, $) => { 1 };\n    [$] => { 2 };\n}\n\npub fn f() -> &'static str {\n    let _ = dollar!(x, $);\n    str![\"abc\"]\n}\n",
    ];
    let broken = [
        ("fn f() {\n    let x = 1 +\n}\n", true),
        ("fn f() {\n    if x {\n        y();\n}\n", false),
        ("fn f( {\n}\n", false),
        ("fn f() {}}\n", true),
        ("fn f() {\n    let x = [1, 2};\n}\n", true),
        ("fn f() {\n    g());\n}\n", true),
        (
            "impl S {\n    fn m(&self) -> i32 {\n        1\n    }\n    fn n(&self {}\n}\n",
            true,
        ),
        // a doc comment that documents nothing
        ("fn f() {\n    let x = 1;\n    /// doc\n}\n", true),
        ("enum E {\n    A,\n    /** doc */\n}\n", true),
        ("fn f() {}\n/// doc\n// plain\n", true),
        // a mismatched pair first; a closing delimiter that matches no
        // open one closes the innermost silently
        ("fn f() {\n    g(;\n}\nfn h() {\n}\n}\n", true),
        ("fn f() {\n    let a = (1, 2];\n}\n}\n", true),
        (
            "fn f<'a>(x: &'a str) -> &'a str {\n    let c = '{';\n    x\n}}\n",
            true,
        ),
        ("fn f() {\n    let x = 1\n    let y = 2;\n}\n", true),
        // what rustc's parser refuses of the grammar's tree
        ("fn f() {\n    let b = 5 as u8 < 3;\n}\n", true),
        (
            "fn f() -> S {\n    S {\n        a: 1,\n        ..Default::default(),\n    }\n}\n",
            true,
        ),
        // what its lexer refuses, before the delimiters
        ("fn f() {\n    s.debug_struct\"Foo\");\n}\n", true),
        // a doc comment is a token to rustc
        ("struct S {\n    a: u8\n\n    /// b\n    b: u8,\n}\n", true),
        // a list's `,` missing before a line break: at the next element
        ("fn f() {\n    g(a\n      b);\n}\n", true),
        ("const A: [u8; 3] = [\n    1,\n    2\n    3,\n];\n", true),
        (
            "fn f() {\n    let t = (1,\n        2\n        3);\n}\n",
            true,
        ),
    ];
    agree_with_tool(&Rust, &valid, &broken, check);
}

/// A `,` missing between a list's elements on two lines (arguments, an
/// array, a tuple) is an error at the next element, where rustc reports
/// it ("expected one of `,` …, found `3`"), not a statement's `;` missing
/// after the element before; a statement's is after it.
#[test]
fn a_rust_lists_missing_comma_is_at_the_next_element() {
    let first = |text: &str| errors(&Rust, text).into_iter().next().unwrap_or_default();
    let cases = [
        ("fn f() {\n    g(a\n      b);\n}\n", "2:6 unexpected 'b'"),
        (
            "const A: [u8; 3] = [\n    1,\n    2\n    3,\n];\n",
            "3:4 unexpected '3'",
        ),
        (
            "fn f() {\n    let t = (1,\n        2\n        3);\n}\n",
            "3:8 unexpected '3'",
        ),
        (
            "fn f() {\n    g(|| {\n        let x = 1\n        let y = 2;\n    });\n}\n",
            "2:17 missing ';'",
        ),
    ];
    for (text, error) in cases {
        assert_eq!(first(text), error, "{text}");
    }
}

/// What rustc refuses of a tree tree-sitter-rust accepts, where rustc
/// reports it: a `<` or `<<` after a cast to a path type (rustc reads
/// the type's generic arguments), a `,` after a struct literal's base;
/// and where it reads a doc comment as a token: an error right before
/// one, or a doc comment inside the error's ERROR node, is at the doc
/// comment. A shebang line is no code.
#[test]
fn rust_errors_the_grammar_misses_or_misplaces_are_where_rustc_reports_them() {
    let first = |text: &str| errors(&Rust, text).into_iter().next().unwrap_or_default();
    let cases = [
        (
            "fn f() {\n    let b = 5 as u8 < 3;\n}\n",
            "1:20 `<` after a cast",
        ),
        (
            "fn f() {\n    let b = a + 5 as i8 << 3;\n}\n",
            "1:24 `<<` after a cast",
        ),
        (
            "fn f() -> S {\n    S {\n        a: 1,\n        ..Default::default(),\n    }\n}\n",
            "3:8 cannot use a comma after the base struct",
        ),
        (
            "struct S {\n    a: u8\n\n    /// b\n    b: u8,\n}\n",
            "3:4 ",
        ),
        ("use a::b\n\n/// doc\nfn f() {}\n", "2:0 "),
        (
            "fn f(x: u8) {\n    for _ in 0..x {\n        println!(\"{}\", x)\n        continue;\n    }\n}\n",
            "2:25 expected `;` after the macro call",
        ),
        (
            "macro_rules! m { () => {} }\nm!()\nfn g() {}\n",
            "1:2 a macro call with",
        ),
    ];
    for (text, error) in cases {
        assert!(first(text).starts_with(error), "{text}: {}", first(text));
    }
    let valid = [
        "fn f() {\n    let b = 5 as u8 <= 3;\n    let d = (x as u8) < 3;\n    let e = x as u8 > 3;\n    let s = S { a: 1, ..b };\n}\n",
        "#!/usr/bin/env run-cargo-script [x]\nfn f() {}\n",
        "macro_rules! m { () => {} }\nm!(); // an item\nm! {}\nimpl S {\n    m!() /* c */ ;\n}\nfn h() -> Vec<u8> {\n    m!()\n    ;\n    assert!(true) // last\n}\nfn k() { if true { m!() } else { m![] } }\n",
    ];
    for text in valid {
        assert_eq!(errors(&Rust, text), Vec::<String>::new(), "{text}");
    }
}

// -- Java -------------------------------------------------------------------

const JAVA: &str = r#"package shapes;

import java.util.List;

/** A shape. */
@Deprecated
public abstract class Shape<T> extends Base implements Comparable<T> {
    private static final int LIMIT = 3, OTHER = 4;

    public Shape(int x) {
        super();
    }

    /** Area. */
    @Override
    public abstract double area();

    static <U> List<U> wrap(U a, int... more) {
        return null;
    }

    void scale(int factor) {}

    void scale(double factor) {}

    class Inner {
        void m() {}
    }

    enum Color {
        RED, GREEN;

        void paint() {}
    }
}

interface Named {
    String NONE = "";

    String name();

    default void hi() {}
}

record Pair(int a, int b) {
    int sum() {
        return a + b;
    }
}

@interface Marker {
    int value() default 0;
}
"#;

#[test]
fn a_java_files_outline_has_its_types_members_and_nested_types() {
    let (rope, tree) = parsed(&Java, JAVA);
    assert!(!tree.has_errors(), "{}", tree.to_sexp());
    assert_eq!(
        shown(&Java.outline(&rope, &tree)),
        [
            "class Shape (Shape): 6:0-34:1",
            "field LIMIT (Shape.LIMIT) in Shape: 7:29-7:38",
            "field OTHER (Shape.OTHER) in Shape: 7:40-7:49",
            "constructor Shape (Shape.Shape) in Shape: 9:4-11:5",
            "method area (Shape.area) in Shape: 15:4-15:34",
            "method wrap (Shape.wrap) in Shape: 17:4-19:5",
            // overloads with the same parameter names: by ordinal
            "method Shape.scale#1 (Shape.scale#1) in Shape: 21:4-21:29",
            "method Shape.scale#2 (Shape.scale#2) in Shape: 23:4-23:32",
            "class Inner (Shape.Inner) in Shape: 25:4-27:5",
            "method m (Shape.Inner.m) in Shape.Inner: 26:8-26:19",
            "enum Color (Shape.Color) in Shape: 29:4-33:5",
            "constant RED (Shape.Color.RED) in Shape.Color: 30:8-30:11",
            "constant GREEN (Shape.Color.GREEN) in Shape.Color: 30:13-30:18",
            "method paint (Shape.Color.paint) in Shape.Color: 32:8-32:23",
            "interface Named (Named): 36:0-42:1",
            "field NONE (Named.NONE) in Named: 37:11-37:21",
            "method name (Named.name) in Named: 39:4-39:18",
            "method hi (Named.hi) in Named: 41:4-41:24",
            "record Pair (Pair): 44:0-48:1",
            "field a (Pair.a) in Pair: 44:16-44:17",
            "field b (Pair.b) in Pair: 44:23-44:24",
            "method sum (Pair.sum) in Pair: 45:4-47:5",
            "annotation Marker (Marker): 50:0-52:1",
            "method value (Marker.value) in Marker: 51:4-51:26",
        ]
    );
}

/// Java's sites: a type's lines with its doc comment and annotations (its
/// position after them), its end inside its closing brace, a method's
/// parameters, a field among several declared at once.
#[test]
fn java_symbols_have_the_ranges_code_targets_need() {
    use crate::analysis::outline::{lookup, SymbolKind};
    use crate::commands::CodeTarget;
    let (rope, tree) = parsed(&Java, JAVA);
    let sites = Java.symbol_sites().unwrap()(&rope, &tree);
    let method = |class: &str, name: &str| {
        lookup(
            &sites,
            &CodeTarget::Method {
                class: class.into(),
                name: name.into(),
                params: None,
            },
        )
        .unwrap_or_else(|e| panic!("{class}.{name}: {e}"))
    };
    let shape = lookup(
        &sites,
        &CodeTarget::Class {
            name: "Shape".into(),
        },
    )
    .unwrap();
    assert_eq!(
        (shape.full_lines.first, shape.position),
        (4, Position::new(6, 0))
    );
    assert_eq!(shape.end, Position::new(34, 0));
    let area = method("Shape", "area");
    assert_eq!((area.full_lines.first, area.full_lines.last), (13, 15));
    assert_eq!(area.position, Position::new(15, 4));
    assert_eq!(area.end, Position::new(16, 0), "no body: the line after");
    let wrap = method("Shape", "wrap");
    assert_eq!(wrap.param_names, ["a", "more"]);
    assert_eq!(wrap.end, Position::new(19, 4));
    assert_eq!(method("Shape.Inner", "m").kind, SymbolKind::Method);
    assert!(std::ptr::eq(
        method("Inner", "m"),
        method("Shape.Inner", "m")
    ));
    let other = lookup(
        &sites,
        &CodeTarget::Variable {
            name: "Shape.OTHER".into(),
        },
    )
    .unwrap();
    assert_eq!(other.kind, SymbolKind::Attribute);
    assert_eq!(other.name_position, Position::new(7, 40));
    let limit = lookup(
        &sites,
        &CodeTarget::Variable {
            name: "Shape.LIMIT".into(),
        },
    )
    .unwrap();
    assert_eq!(
        rope.slice(limit.definition.clone()).to_string(),
        "LIMIT = 3",
        "one of several declarators"
    );
    // a method by its name alone, as a function
    let sum = lookup(
        &sites,
        &CodeTarget::Function {
            name: "sum".into(),
            params: None,
        },
    )
    .unwrap();
    assert_eq!(sum.qualified_name, "Pair.sum");
}

/// javac against the syntax check: javac compiles the valid files (so
/// they are whole programs) and reports the broken ones' first error,
/// `Check.java:<line>: error: …`, with a caret under its column.
/// (Skipped where javac is not installed.)
#[test]
fn java_syntax_errors_agree_with_javac() {
    if !installed("javac", "-version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let check = |text: &str| {
        let path = dir.path().join("Check.java");
        std::fs::write(&path, text).unwrap();
        let out = std::process::Command::new("javac")
            .arg("-d")
            .arg(dir.path().join("out"))
            .arg(&path)
            .output()
            .unwrap();
        if out.status.success() {
            return None;
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("Check.java:") && l.contains(": error:"))
            .unwrap_or_else(|| panic!("no error in {stderr}"));
        let line: usize = lines[at]
            .split(':')
            .nth(1)
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no line in {stderr}"));
        let column = lines
            .get(at + 2)
            .and_then(|caret| caret.find('^'))
            .map_or(0, |col| caret_chars(lines[at + 2], col));
        Some((line - 1, column))
    };
    let valid = [
        "import java.util.*;\n\n/** A shape. */\n@SuppressWarnings(\"unused\")\nabstract class Shape implements Comparable<Shape> {\n    static final int LIMIT = 3, OTHER = 4;\n    abstract double area();\n    public int compareTo(Shape o) { return Double.compare(area(), o.area()); }\n    static <U> List<U> wrap(U a, int... more) {\n        String s = \"{\";\n        char c = '}';\n        return new ArrayList<>(List.of(a));\n    }\n    enum Color { RED, GREEN; void paint() {} }\n}\n",
        "record Pair(int a, int b) {\n    int sum() {\n        return switch (a) {\n            case 0 -> b;\n            default -> {\n                yield a + b;\n            }\n        };\n    }\n}\n\ninterface Named {\n    String name();\n    default String hi() { return \"hi \" + name(); }\n}\n\n@interface Marker {\n    int value() default 0;\n}\n",
    ];
    let broken = [
        ("class A {\n    void f() {\n        int x = 1 +\n    }\n}\n", true),
        ("class A {\n    void f() {\n        int[] x = {1, 2;\n    }\n}\n", false),
        ("class A {\n    void f() {\n        if (x) {\n            y();\n    }\n}\n", false),
        ("class A {\n    void f( {\n    }\n}\n", false),
        ("class A {\n    int a\n    int b;\n}\n", false),
        ("class A {\n    void f() {\n        int x = 1\n        int y = 2;\n    }\n}\n", true),
        ("class A {\n    void f() {\n        for (int i = 0; i < 3; i++ {\n        }\n    }\n}\n", false),
        // a reserved word where a name goes
        ("class A {\n    int class;\n}\n", true),
        ("class A {\n    void f(int new) {\n    }\n}\n", true),
        ("class A {\n    void f() {\n        int goto = 2;\n    }\n}\n", true),
        // what javac's scanner refuses
        ("class A {\n    /* open\n    void f() {\n    }\n}\n", true),
        ("class A {\n    String s = \"abc;\n}\n", true),
        // a whole expression then a line break: its `;` is missing
        ("class A {\n    void f() {\n        g()\n        h();\n    }\n}\n", true),
        ("class A {\n    void f() {\n        String s = \"a\"\n            + \"b\"\n        return;\n    }\n}\n", true),
        // a method's `{` missing
        ("class A {\n    A(String s)\n        super(s);\n    }\n}\n", true),
        // an annotation after a name: a class header's `{`, a field's `;`
        // missing
        ("class A extends Object\n\n    @Deprecated\n    int x;\n}\n", true),
        ("class A {\n    int x\n    @Deprecated\n    int y;\n}\n", true),
        // `return`'s `;` missing before a `}`, an `else`
        ("class A {\n    void f() {\n        return\n    }\n}\n", true),
        ("class A {\n    int f() {\n        throw\n    }\n}\n", true),
    ];
    agree_with_tool(&Java, &valid, &broken, check);
}

/// Where javac reports what tree-sitter-java accepts or misplaces: a
/// reserved word as a name (a local variable's at its declaration,
/// another's right after the token before it, one that starts a member at
/// itself), a comment or literal never closed (at its start), a whole
/// expression then a line break (its `;` right after it), an annotation
/// after a name on an earlier line (at the `@`: javac reads it as a type
/// annotation), `return` or `throw` then a line break and a token that
/// cannot start their expression (at that token).
#[test]
fn java_errors_the_grammar_misses_or_misplaces_are_where_javac_reports_them() {
    let first = |text: &str| errors(&Java, text).into_iter().next().unwrap_or_default();
    let cases = [
        (
            "class A {\n    int class;\n}\n",
            "1:7 'class' is a reserved word",
        ),
        (
            "class A {\n    void f() {\n        int goto = 2;\n    }\n}\n",
            "2:8 'goto'",
        ),
        (
            "class A {\n    void f() {\n        if (x)\n            y();\n            z();\n        }\n        this.x = 1;\n    }\n}\n",
            "6:8 'this'",
        ),
        (
            "class A {\n    A(String s)\n        super(s);\n    }\n}\n",
            "1:15 'super'",
        ),
        (
            "class A {\n    /* open\n    void f() {\n    }\n}\n",
            "1:4 unclosed comment",
        ),
        (
            "class A {\n    String s = \"abc;\n}\n",
            "1:15 unclosed string literal",
        ),
        (
            "class A {\n    char c = 'a;\n}\n",
            "1:13 unclosed character literal",
        ),
        (
            "class A {\n    String s = \"\"\"\n        abc\n}\n",
            "1:15 unclosed text block",
        ),
        (
            "class A {\n    void f() {\n        g()\n        h();\n    }\n}\n",
            "2:11 missing ';'",
        ),
        (
            "class A extends B\n\n    @Deprecated\n    int x;\n}\n",
            "2:4 illegal start of type",
        ),
        (
            "class A implements java.io.Serializable, C\n    @java.io.Serial\n    int y;\n}\n",
            "1:4 illegal start of type",
        ),
        (
            "class A {\n    List<String> x\n    @Deprecated\n    int y;\n}\n",
            "2:4 illegal start of type",
        ),
        (
            "class A {\n    void f() {\n        return\n    }\n}\n",
            "3:4 unexpected '}'",
        ),
        (
            "class A {\n    void f() {\n        if (x) throw\n    }\n}\n",
            "3:4 unexpected '}'",
        ),
    ];
    for (text, error) in cases {
        assert!(first(text).starts_with(error), "{text}: {}", first(text));
    }
    // annotations one after another, after a modifier; `return` then its
    // value on the next line
    let stacked = "class A {\n    @Deprecated\n    @SuppressWarnings(\"x\")\n    @java.lang.Deprecated\n    int x;\n    final\n    @Deprecated\n    int y = 0;\n    int f() {\n        return\n            -1;\n    }\n}\n";
    assert_eq!(errors(&Java, stacked), Vec::<String>::new());
    let valid = "class A {\n    String s = \"\"\"\n        a\\\"\"\"bc /* \"\n        \"\"\";\n    char c = '\\'';\n    void f() { g(x.class, this, super.m(), null, true, \"//\"); }\n}\n";
    assert_eq!(errors(&Java, valid), Vec::<String>::new());
}

/// A sweep over real code, run by hand (`EDDI_SWEEP_DIR=<folder>
/// EDDI_SWEEP_EXT=go cargo test -p eddi-core --lib sweep_real_code --
/// --ignored --nocapture`): each file of the folder whose extension is
/// `EDDI_SWEEP_EXT` is read (no panic), every name its outline prints is
/// accepted back, and the files the syntax check finds errors in are
/// listed (one per line: `path: error`), to be compared with the
/// language's own tool.
#[test]
#[ignore = "a sweep over a folder named by EDDI_SWEEP_DIR"]
fn sweep_real_code() {
    use crate::analysis::outline::{lookup, working_form};
    use crate::commands::{parse_command, Command, GotoTarget};
    let (Some(dir), Some(ext)) = (
        std::env::var_os("EDDI_SWEEP_DIR"),
        std::env::var("EDDI_SWEEP_EXT").ok(),
    ) else {
        eprintln!("EDDI_SWEEP_DIR and EDDI_SWEEP_EXT name the folder and the extension");
        return;
    };
    let language = language_of(&format!("x.{ext}")).expect("a registered extension");
    let (mut files, mut names, mut flagged) = (0, 0, 0);
    let mut wrong = Vec::new();
    for entry in ignore::WalkBuilder::new(dir)
        .standard_filters(false)
        .build()
    {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(ext.as_str()) {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        files += 1;
        let (rope, tree) = parsed(language, &source);
        let errors = language.syntax_check().unwrap()(&rope, &tree);
        if let Some(first) = errors.first() {
            flagged += 1;
            println!("{}: {first}", path.display());
        }
        let sites = language.symbol_sites().unwrap()(&rope, &tree);
        let outline = language.outline(&rope, &tree);
        assert_eq!(outline.entries.len(), sites.symbols.len());
        for symbol in &sites.symbols {
            let form = working_form(&sites, symbol).to_string();
            names += 1;
            let found = match parse_command(&format!("Goto {form}")) {
                Ok(Command::Goto(GotoTarget::Code(target))) => lookup(&sites, &target).ok(),
                _ => None,
            };
            if !found.is_some_and(|f| std::ptr::eq(f, symbol)) {
                wrong.push(format!("{}: {form}", path.display()));
            }
        }
    }
    println!("{files} files, {names} names, {flagged} files with syntax errors");
    assert!(wrong.is_empty(), "names not accepted back: {wrong:#?}");
}

/// Complexity of each brace language's functions, as lizard 1.24.3
/// counts them on the same code (`lizard <file>`; the figures below are
/// its output): the decision points of each language and what a function
/// is (a Go function literal is its own; a Rust closure or a Java lambda
/// is part of the function around it).
#[test]
fn brace_languages_count_complexity_as_lizard_does() {
    fn figures(language: &'static dyn Language, path: &str, src: &str) -> Vec<(String, u32)> {
        let (text, tree) = parsed(language, src);
        let outline = (language.symbol_sites().unwrap())(&text, &tree);
        let points = language.decision_points().unwrap();
        crate::language::complexity::figures(&text, &tree, &outline, None, &points)
            .1
            .into_iter()
            .map(|(name, c)| (format!("{path}:{name}"), c))
            .collect()
    }
    let java = "class A {\n  int m(int x) {\n    if (x > 0 && x < 5 || x == 9) { return 1; } else if (x < 0) { return 2; }\n    for (int i = 0; i < 3; i++) {}\n    for (String s : list) {}\n    while (x > 0) { x--; }\n    do { x++; } while (x < 0);\n    try { f(); } catch (IOException | RuntimeException e) {} finally {}\n    switch (x) { case 1: break; case 2: case 3: break; default: break; }\n    Runnable r = () -> { if (y) {} };\n    return x > 0 ? 1 : 2;\n  }\n  A() { this(1 > 0 ? 1 : 2); }\n  int sw(int k) { return switch (k) { case 1 -> 2; case 2, 3 -> 4; default -> 5; }; }\n}\n";
    assert_eq!(
        figures(&Java, "A.java", java),
        [
            ("A.java:A.m".into(), 15),
            ("A.java:A.A".into(), 2),
            ("A.java:A.sw".into(), 3)
        ]
    );
    // an annotated method: its node holds the annotations its definition
    // begins after
    let annotated = "class B {\n  @Override\n  public int hashCode() { return a ? 1 : 2; }\n  @Deprecated @SuppressWarnings(\"x\")\n  void g() {}\n}\n";
    assert_eq!(
        figures(&Java, "B.java", annotated),
        [("B.java:B.hashCode".into(), 2), ("B.java:B.g".into(), 1)]
    );
    let go = "package main\nfunc f(x int) int {\n\tif x > 0 && x < 5 || x == 9 {\n\t\treturn 1\n\t} else if x < 0 {\n\t\treturn 2\n\t}\n\tfor i := 0; i < 3; i++ {}\n\tfor _, v := range xs { _ = v }\n\tswitch x { case 1: return 0; case 2, 3: return 1; default: return 2 }\n\tselect { case <-c: ; default: }\n\tg := func() { if y {} }\n\t_ = g\n\treturn 0\n}\nfunc (s *S) M() { if s == nil {} }\n";
    assert_eq!(
        figures(&Go, "a.go", go),
        [
            ("a.go:f".into(), 10),
            // the function literal, named by its place and the variable
            // that holds it (lizard's `anonymous__0`)
            ("a.go:f.<g@11:6>".into(), 2),
            ("a.go:S.M".into(), 2)
        ]
    );
    let rust = "fn f(x: i32) -> i32 {\n    if x > 0 && x < 5 || x == 9 { return 1; } else if x < 0 { return 2; }\n    for i in 0..3 {}\n    while x > 0 {}\n    loop { break; }\n    match x { 1 => 0, 2 | 3 => 1, _ => 2 };\n    let c = |y| if y { 1 } else { 2 };\n    let v = opt?;\n    if let Some(z) = o {}\n    0\n}\nimpl S { fn m(&self) -> i32 { if self.a { 1 } else { 2 } } }\n";
    assert_eq!(
        figures(&Rust, "a.rs", rust),
        [("a.rs:f".into(), 12), ("a.rs:S.m".into(), 2)]
    );
}

/// lizard reads tokens, not a syntax tree: where its reader departs from
/// the tree, Eddi counts as lizard does. Each figure below is lizard
/// 1.24.3's on the same code (`lizard --csv <file>`).
#[test]
fn brace_languages_count_what_lizard_reads() {
    fn figures(language: &'static dyn Language, src: &str) -> Vec<(String, u32)> {
        let (text, tree) = parsed(language, src);
        let outline = (language.symbol_sites().unwrap())(&text, &tree);
        let points = language.decision_points().unwrap();
        crate::language::complexity::figures(&text, &tree, &outline, None, &points).1
    }
    let named = |pairs: &[(&str, u32)]| -> Vec<(String, u32)> {
        pairs.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    };
    // Rust: `'0'` opens a lifetime `'0` and a quoted run that swallows the
    // `&&` (digits counts only the `&&` of `&&'static`); `||` as a closure;
    // `let … else`; arms after the first; `if let S { a } = s` takes the
    // pattern's braces for the body, so its `else` counts; `where`, `?`
    // and a macro's `||`.
    let rust = "fn digits(c: char, s: &&'static str) -> bool {\n    '0' <= c && c <= '9'\n}\nfn closures(v: Vec<u8>) -> u8 {\n    let f = || v.len() > 2 && v[0] == 1;\n    let Some(x) = v.first() else { return 0 };\n    match x { 1 => 0, 2 | 3 => 1, _ => 2 }\n}\nfn pattern_if(o: Option<S>) -> u8 {\n    if let Some(S { a }) = o { a } else { 0 }\n}\nfn struct_if(s: S) -> u8 {\n    if let S { a } = s { a } else { 0 }\n}\nfn wheres<T>(t: T) -> u8 where T: Copy {\n    assert!(t.ok() || t.fine());\n    t.get()?;\n    0\n}\n";
    assert_eq!(
        figures(&Rust, rust),
        named(&[
            ("digits", 2),
            ("closures", 6),
            ("pattern_if", 2),
            ("struct_if", 3),
            ("wheres", 4)
        ])
    );
    // Rust: a `fn` in a macro's tokens or a `fn(u8)` type begins a function
    // of lizard's own, up to the end of the first block after its
    // parameters: the `where`, `if` and `&&` are not quoted's. The macro's
    // `f` is listed, as lizard lists it; the type's nameless function
    // (lizard's ` `, which takes the `if`) is not.
    let quoted = "fn quoted() {\n    let input = quote! {\n        fn f<G>() where G: Send {\n            if a && b {}\n        }\n    };\n    let g: fn(u8) -> bool = h;\n    if input.ok() {}\n}\n";
    assert_eq!(
        figures(&Rust, quoted),
        named(&[("quoted", 1), ("quoted.<f@2:8>", 4)])
    );
    // Java: a wildcard's `?` counts in a body where lizard does not read the
    // generic arguments as one token (`<? extends Callable<T>>`), not in
    // `<String, ?>` nor in the signature; an anonymous class's field
    // initializer is nobody's.
    let java = "class A {\n  <T> T pick(Collection<? extends Callable<T>> tasks, boolean b) {\n    Iterator<? extends Callable<T>> it = tasks.iterator();\n    Map<String, ?> m = null;\n    return b ? null : it.next();\n  }\n  Iterator<String> iter() {\n    return new Iterator<>() {\n      private final Iterator<? extends Map.Entry<? extends K, V>> i = c.iterator();\n      public boolean hasNext() { return i.hasNext() && ok; }\n    };\n  }\n}\n";
    assert_eq!(
        figures(&Java, java),
        named(&[("A.pick", 3), ("A.iter", 1), ("A.iter.hasNext", 2)])
    );
    // JavaScript: a template's `${…}` is opaque; `= (…)` and `key: (…)`
    // read as an arrow's parameters lose their conditions; an arrow's
    // expression body ends with its first line (the filter callback's
    // `&&` is arrows'); a curried arrow is one function.
    let js = "function templ(a, b) {\n  return `${a && b} and ${a || b}` + (a ? 1 : 2);\n}\nfunction optimistic(o) {\n  const found = (o.short && find(o.short)) || (o.long && find(o.long));\n  return { key: (o.d && o.e), other: o.f || o.g };\n}\nfunction arrows(list) {\n  list.filter((x) =>\n    x.a && x.b);\n  list.map((y) => y.c && y.d);\n  return list.length > 0 || list.ok;\n}\nconst curried = (a) => (b) => {\n  return a && b;\n};\n";
    assert_eq!(
        figures(&JavaScript, js),
        named(&[
            ("templ", 2),
            ("optimistic", 3),
            ("arrows", 3),
            // the callbacks: lizard's `(anonymous)`s
            ("arrows.<anonymous@8:14>", 1),
            ("arrows.<anonymous@10:11>", 2),
            ("curried", 2)
        ])
    );
    // JavaScript: after a member access (`this.a = (…)`) lizard reads a
    // call's arguments, and counts them; an object value's alternative
    // `: (…)` loses its conditions; a line that opens with `(` does not end
    // an arrow's body (later's `&&` and `||` are later's).
    let members = "function members(data, node) {\n  this.declarations = (data.declarations ?? []).map(d => d);\n  const later = () =>\n    (data.a && data.b || {}).spec;\n  return {\n    author: (typeof node.author === 'object')\n      ? node.author.name\n      : (node.author || undefined),\n    description: node.description || undefined,\n  };\n}\n";
    assert_eq!(
        figures(&JavaScript, members),
        named(&[
            ("members", 3),
            ("members.<anonymous@1:52>", 1),
            ("members.later", 3)
        ])
    );
    // TypeScript: `a?:` and `?.` are no conditions; `??`, `?:` and a
    // default are.
    let ts = "function opt(a?: string, b = 2): number {\n  const n = a?.length ?? 0;\n  return n > 1 ? n : b;\n}\n";
    assert_eq!(figures(&TypeScript, ts), named(&[("opt", 4)]));
}

/// JavaScript and TypeScript: how lizard 1.24.3's reader takes a `(` from
/// what its statement held before it (`lizard --csv -l typescript`). After
/// a member access (`this.a =`, `if (a.b) …` not: the condition is read
/// apart) or `name = c ? …`, an arrow function's parameters are read as a
/// call's arguments: their default counts nothing, their `||` is the
/// function around it's. After `name = f<T>` the call's arguments are read
/// as an arrow's parameters and lost with the token after them (the
/// `if`). A method's type parameters are read before it begins.
#[test]
fn script_parentheses_as_lizard_reads_them() {
    let src = "function members() {\n  this.a = (s = b || c) => {\n    return s;\n  };\n  x = a.b ? (t = 1) => t : 0;\n  if (a.b) c = (u = 1) => u;\n}\nfunction generic() {\n  const change = intercept<Change>(this, a || b)\n  if (a && b) {\n    x()\n  }\n}\nclass K {\n  m<T = A extends B ? C : D>(x: T) {\n    return x || 1;\n  }\n}\n";
    let (text, tree) = parsed(&TypeScript, src);
    let outline = (TypeScript.symbol_sites().unwrap())(&text, &tree);
    let points = TypeScript.decision_points().unwrap();
    let (_, figures) = crate::language::complexity::figures(&text, &tree, &outline, None, &points);
    let expected: Vec<(String, u32)> = [
        ("members", 4),
        ("members.<a@1:11>", 1),
        ("members.<x@4:12>", 1),
        ("members.<c@5:15>", 2),
        ("generic", 2),
        ("K.m", 2),
    ]
    .iter()
    .map(|(n, c)| (n.to_string(), *c))
    .collect();
    assert_eq!(figures, expected);
}

/// JavaScript: an arrow function's expression body ends, to lizard 1.24.3,
/// at the `}` of a brace outside brackets (its reader takes the brace for
/// the function's body): `m || {}` is the function around it's; and an
/// object member's `key: (0, f)(x)` reads both groups as a method's
/// parameters and loses the `?` after them (`lizard --csv`: g 2, h 2).
#[test]
fn arrow_bodies_and_object_groups_as_lizard_reads_them() {
    let src = "function g(a) {\n  const h = (m) => a ? { m } : m || {};\n  return { key: (0, f)(a.b) ? 1 : 2 };\n}\n";
    let (text, tree) = parsed(&JavaScript, src);
    let outline = (JavaScript.symbol_sites().unwrap())(&text, &tree);
    let points = JavaScript.decision_points().unwrap();
    let (_, figures) = crate::language::complexity::figures(&text, &tree, &outline, None, &points);
    assert_eq!(figures, [("g".to_string(), 2), ("g.h".to_string(), 2)]);
}

/// JavaScript: a `case`'s `:` begins a type annotation to lizard 1.24.3's
/// reader, which reads through an `if (…)` after it, so the `if`'s block
/// is read as an object literal and `f(a ? b : c)` as a method whose `?`
/// is dropped; the `else`'s block, and a block right after the `:` (read
/// as an inline type: nothing in it is lost, not even a `key: (…)`), keep
/// theirs (`lizard --csv`: 4 and 4).
#[test]
fn case_label_blocks_as_lizard_reads_them() {
    let src = "function a(p) {\n  switch (p) {\n    case 2:\n      if (x) {\n        f(a ? b : c);\n      } else {\n        f(a ? b : c);\n      }\n  }\n}\nfunction b(p) {\n  switch (p) {\n    case 1: {\n      g(x) || h;\n      return g(p, { skip: (p.a ? 1 : 0) });\n    }\n  }\n}\n";
    let (text, tree) = parsed(&JavaScript, src);
    let outline = (JavaScript.symbol_sites().unwrap())(&text, &tree);
    let points = JavaScript.decision_points().unwrap();
    let (_, figures) = crate::language::complexity::figures(&text, &tree, &outline, None, &points);
    assert_eq!(figures, [("a".to_string(), 4), ("b".to_string(), 4)]);
}

/// TypeScript: a declaration's type with no `=` or `;` after it (`let d:
/// T`, a comment between) is read on by lizard 1.24.3's type reader
/// through the next `if (…)`, whose block it reads as an object literal:
/// `f(a ? b : c)` is a method there and its `?` is dropped; after a `;`
/// it is not (`lizard --csv -l typescript`: 2 and 3).
#[test]
fn open_types_as_lizard_reads_them() {
    let src = "function a(o) {\n  let d: T | undefined\n  // then\n  if (o) {\n    f(a ? b : c)\n  }\n}\nfunction b(o) {\n  let d: T | undefined;\n  if (o) {\n    f(a ? b : c)\n  }\n}\n";
    let (text, tree) = parsed(&TypeScript, src);
    let outline = (TypeScript.symbol_sites().unwrap())(&text, &tree);
    let points = TypeScript.decision_points().unwrap();
    let (_, figures) = crate::language::complexity::figures(&text, &tree, &outline, None, &points);
    assert_eq!(figures, [("a".to_string(), 2), ("b".to_string(), 3)]);
}

/// JavaScript: in a destructuring pattern a declaration binds, lizard
/// 1.24.3's object reader reads a default's bare call `f(x)` as a method
/// (the `||` after it is lost) and counts no default after it in the
/// pattern; a member's `a: b = f(x)` is a call, and a parameter's pattern
/// is not read so (`lizard --csv`: 3, 2, 3, 3).
#[test]
fn pattern_defaults_as_lizard_reads_them() {
    let src = "function a(o) {\n  const { s = 2, m = f(x), t = 3, u = 4 } = o;\n}\nfunction b(o) {\n  const { m = f(x) || 1 } = o;\n}\nfunction c(o) {\n  const { a: b = f(x), t = 1 } = o;\n}\nfunction d({ m = f(x), t = 1 }) {\n  return 1;\n}\n";
    let (text, tree) = parsed(&JavaScript, src);
    let outline = (JavaScript.symbol_sites().unwrap())(&text, &tree);
    let points = JavaScript.decision_points().unwrap();
    let (_, figures) = crate::language::complexity::figures(&text, &tree, &outline, None, &points);
    let expected: Vec<(String, u32)> = [("a", 3), ("b", 2), ("c", 3), ("d", 3)]
        .iter()
        .map(|(n, c)| (n.to_string(), *c))
        .collect();
    assert_eq!(figures, expected);
}

/// Rust: the functions lizard reads where the tree has none, each figure
/// lizard 1.24.3's on the same code (`lizard --csv -l rust`): a `fn` in
/// a `macro_rules!` body or an item macro's tokens is a function
/// (`fn $name(` is none: `$` is its own token); a declaration without a
/// body takes the next block for its own — `T.f` holds `g`'s body, which
/// lizard lists no function for, and `T.h` the next item's.
#[test]
fn rust_functions_lizard_reads_in_tokens() {
    let src = "macro_rules! make {\n    ($name:ident) => {\n        pub fn $name(x: u8) -> bool {\n            if x > 1 && x < 5 { true } else { false }\n        }\n        impl Foo {\n            fn bits(&self) -> u8 {\n                match self.0 { 0 => 1, 1 => 2, _ => 3 }\n            }\n        }\n    };\n}\nproptest! {\n    fn pt(x in 0..10u8) { prop_assert!(x < 10 || x > 20); }\n}\ntrait T {\n    fn f(&self);\n    fn g(&self) -> u8 {\n        if a { 1 } else { 2 }\n    }\n    fn h(&self) where Self: Sized;\n}\nfn after(a: bool) -> u8 {\n    if a && b { 1 } else { 0 }\n}\n";
    let (text, tree) = parsed(&Rust, src);
    let outline = (Rust.symbol_sites().unwrap())(&text, &tree);
    let points = Rust.decision_points().unwrap();
    let (_, figures) = crate::language::complexity::figures(&text, &tree, &outline, None, &points);
    let expected: Vec<(String, u32)> =
        [("<bits@6:12>", 3), ("<pt@13:4>", 2), ("T.f", 2), ("T.h", 4)]
            .iter()
            .map(|(n, c)| (n.to_string(), *c))
            .collect();
    assert_eq!(figures, expected);
    // a declaration lizard never ends (no block after it) is not listed
    let (text, tree) = parsed(&Rust, "trait Z {\n    fn z(&self);\n}\n");
    let outline = (Rust.symbol_sites().unwrap())(&text, &tree);
    let (_, figures) = crate::language::complexity::figures(&text, &tree, &outline, None, &points);
    assert_eq!(figures, []);
}

/// JavaScript and TypeScript: in an object literal, lizard 1.24.3's
/// object reader takes a bare name's call for a method's name and
/// parameters where it is not in a member's value — on a value's
/// continuation line — and drops that method with the token after the
/// `)`: `pick(z) ||` on its own line loses the `||`; `other:`'s, in the
/// value, counts (`lizard --csv -l typescript`: 4).
#[test]
fn object_literal_calls_lizard_reads_as_methods() {
    let src = "const s = (z) => {\n  const action = {\n    type:\n      a ||\n      pick(z) ||\n      b,\n    other: z.q || pick(z) || c,\n  }\n  return action\n}\n";
    for language in [&TypeScript as &'static dyn Language, &JavaScript] {
        let (text, tree) = parsed(language, src);
        let outline = (language.symbol_sites().unwrap())(&text, &tree);
        let points = language.decision_points().unwrap();
        let (_, figures) =
            crate::language::complexity::figures(&text, &tree, &outline, None, &points);
        assert_eq!(figures, [("s".to_string(), 4)]);
    }
}

/// The fixtures of the brace languages above, each with its language.
pub(super) fn brace_fixtures() -> [(&'static dyn Language, &'static str); 9] {
    [
        (&JavaScript, JS),
        (&JavaScript, COMMONJS),
        (&JavaScript, COMMONJS_OBJECT),
        (&JavaScript, JSX),
        (&TypeScript, TS),
        (&Tsx, TSX),
        (&Go, GO),
        (&Rust, RS),
        (&Java, JAVA),
    ]
}
