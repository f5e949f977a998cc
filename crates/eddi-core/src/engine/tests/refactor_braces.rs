//! `Refactor RenameSymbol` in the brace languages
//! (`refactor/rename/braces.rs`): a fixture project per language, the
//! exact replies, and the language's own tools accepting (or running)
//! the result where they are installed.

use super::*;

/// ES modules: an import's alias keeps its name, a re-export and a
/// namespace import follow, a shorthand keeps its key; Node runs the
/// result. A use through `require` is possible: refused by default,
/// renamed with `Include Possible`, named with `Only Proven`.
#[test]
fn es_modules_rename_across_files() {
    let f = Fixture::new();
    f.write("web/package.json", "{\"type\": \"module\"}\n");
    f.write(
        "web/util.js",
        "export function add(a, b) {\n  return a + b;\n}\n\nexport function twice(x) {\n  return add(x, x);\n}\n",
    );
    f.write("web/index.js", "export { add } from './util.js';\n");
    f.write(
        "web/app.js",
        "import { add as plus } from './util.js';\nimport * as u from './util.js';\nimport { add } from './index.js';\n\nconst o = { add };\nconsole.log(plus(1, 2) + u.add(3, 4) + add(5, 6) + o.add(1, 1));\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol add sum
        Ok, Renamed in 3 files (web/app.js, web/index.js, web/util.js), 8 references updated
        "#,
    );
    assert_eq!(f.read("web/index.js"), "export { sum } from './util.js';\n");
    assert_eq!(
        f.read("web/app.js"),
        "import { sum as plus } from './util.js';\nimport * as u from './util.js';\nimport { sum } from './index.js';\n\nconst o = { add: sum };\nconsole.log(plus(1, 2) + u.sum(3, 4) + sum(5, 6) + o.add(1, 1));\n"
    );
    f.accepted("node", &["web/app.js"]);
}

/// A use through CommonJS `require` is possible: refused by default,
/// left and named with `Only Proven`, renamed with `Include Possible`;
/// Preview shows the change and `Undo` takes it back in one step.
/// A name two JavaScript files define, asked from no open file, is
/// ambiguous: the reply lists both (it said "Not found … No similar name
/// in the index", Python's answer, a false reason); the full name then
/// renames the one asked, and Node runs the result.
#[test]
fn a_name_several_brace_files_define_is_ambiguous_not_missing() {
    let f = Fixture::new();
    f.write(
        "lib.js",
        "function helper(x) {\n  return x + 1;\n}\nmodule.exports = { helper };\n",
    );
    f.write(
        "main.js",
        "function helper() {\n  return 2;\n}\nconsole.log(helper());\n",
    );
    f.send("a", "Start s");
    let reply = f.send("a", "Refactor RenameSymbol helper helped");
    assert!(
        reply.starts_with("Fail \"Ambiguous symbol 'helper'"),
        "{reply}"
    );
    assert!(
        reply.contains("lib.helper") && reply.contains("main.helper"),
        "{reply}"
    );
    assert_eq!(
        f.send("a", "Refactor RenameSymbol main.helper helped"),
        "Ok, Renamed in 1 file (main.js), 2 references updated"
    );
    assert_eq!(
        f.read("main.js"),
        "function helped() {\n  return 2;\n}\nconsole.log(helped());\n"
    );
    f.accepted("node", &["main.js"]);
}

/// CommonJS modules whose keys their module-level code states
/// (`exports.k = v`, `module.exports.k = v`, `module.exports = { a, b: c
/// }`, `module.exports = X`) are followed like ES modules: a key a
/// destructuring takes from `require`, a key read through a `const` bound
/// to the module or through `require('./m')` itself, and the module's own
/// `exports.k` are certain uses, renamed with the export (a shorthand
/// whole: `{ add }` → `{ plus }`). `module.exports = Widget` is the
/// importer's own name, kept. A module whose keys only a run knows
/// (`Object.assign(module.exports, …)`) and a `var` assigned again keep
/// their uses possible; a new name another key holds is refused. Node
/// runs every result.
#[test]
fn commonjs_modules_with_stated_keys_are_followed() {
    let f = Fixture::new();
    f.write(
        "lib/math.js",
        "'use strict';\nfunction add(a, b) { return a + b; }\nfunction mul(a, b) { return a * b; }\nfunction sub(a, b) { return a - b; }\nexports.add = add;\nmodule.exports.mul = mul;\nexports.sub = sub;\nexports.twice = function (x) { return exports.mul(x, 2); };\n",
    );
    f.write(
        "lib/repo.js",
        "class Repo {\n  constructor() { this.items = []; }\n  find(id) { return this.items.find((i) => i.id === id); }\n  add(item) { this.items.push(item); return this; }\n}\nfunction makeRepo() { return new Repo(); }\nmodule.exports = { Repo, create: makeRepo, makeRepo: makeRepo };\n",
    );
    f.write(
        "lib/dyn.js",
        "function hidden() { return 1; }\nObject.assign(module.exports, { hidden });\n",
    );
    f.write(
        "lib/one.js",
        "class Widget { render() { return 'w'; } }\nmodule.exports = Widget;\n",
    );
    f.write(
        "lib/later.js",
        "function later() { return 2; }\nmodule.exports = { later };\n",
    );
    f.write(
        "main.js",
        "const { add, mul: times } = require('./lib/math');\nconst math = require('./lib/math');\nconst { Repo, create } = require('./lib/repo');\nconst repos = require('./lib/repo');\nconst { hidden } = require('./lib/dyn');\nconst Widget = require('./lib/one');\nvar l = require('./lib/later');\nif (process.argv.length > 5) l = { later: () => 0 };\nconst r = new Repo().add({ id: 1 });\nconsole.log(add(1, 2), times(2, 3), math.sub(5, 1), math.twice(4), require('./lib/math').add(1, 1));\nconsole.log(r.find(1).id, create().add({ id: 2 }).find(2).id, repos.makeRepo().find(3));\nconsole.log(hidden(), new Widget().render(), l.later());\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol lib.math.add plus
        Ok, Renamed in 2 files (lib/math.js, main.js), 6 references updated
        > Refactor RenameSymbol lib.math.mul product
        Ok, Renamed in 2 files (lib/math.js, main.js), 5 references updated
        > Refactor RenameSymbol lib.repo.makeRepo build
        Ok, Renamed in 2 files (lib/repo.js, main.js), 5 references updated
        > Refactor RenameSymbol lib.repo.Repo Store
        Ok, Renamed in 2 files (lib/repo.js, main.js), 5 references updated
        > Refactor RenameSymbol lib.one.Widget Gadget
        Ok, Renamed in 1 file (lib/one.js), 2 references updated
        > Refactor RenameSymbol lib.one.Widget.render draw
        Fail "Not found: symbol 'lib.one.Widget.render'. Did you mean: lib.one.Gadget.render?"
        > Refactor RenameSymbol lib.one.Gadget.render draw
        Ok, Renamed in 2 files (lib/one.js, main.js), 2 references updated
        > Refactor RenameSymbol lib.dyn.hidden shown
        Fail "Cannot rename lib.dyn.hidden: 2 possible uses it cannot prove: main.js:4:8 (the index cannot resolve it), main.js:11:12 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol lib.later.later soon
        Fail "Cannot rename lib.later.later: 1 possible use it cannot prove: main.js:11:45 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol lib.math.sub twice
        Fail "Name conflict exists: lib/math.js:8 already defines twice; choose another name"
        > Refactor RenameSymbol main.math calc
        Fail "Cannot rename main.math: it is the name require('./lib/math') binds in main.js; rename the module's export where it is defined, or the local name alone with Modify Variable math Rename in that file"
        "#,
    );
    assert_eq!(
        f.read("main.js").lines().take(3).collect::<Vec<_>>(),
        [
            "const { plus, product: times } = require('./lib/math');",
            "const math = require('./lib/math');",
            "const { Store, create } = require('./lib/repo');",
        ]
    );
    assert!(f
        .read("lib/math.js")
        .contains("exports.plus = plus;\nmodule.exports.product = product;"));
    assert!(f
        .read("lib/math.js")
        .contains("return exports.product(x, 2);"));
    assert!(f
        .read("lib/repo.js")
        .contains("module.exports = { Store, create: build, build: build };"));
    assert!(f
        .read("main.js")
        .contains("require('./lib/math').plus(1, 1)"));
    assert!(f
        .read("main.js")
        .contains("const Widget = require('./lib/one');"));
    assert!(f.read("main.js").contains("new Widget().draw()"));
    f.accepted("node", &["main.js"]);
}

/// TypeScript's CommonJS forms: `export = { foo }` is `module.exports = {
/// foo }` (its keys followed, renamed whole), and `import a =
/// require('./a')` is a `require`: of an ES module, its members stay
/// possible (`c.bar(1)` was no use at all: the rename answered `Ok` and
/// tsc refused the project).
#[test]
fn typescript_export_equals_and_import_require() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "function foo(x: number): number {\n  return x + 1;\n}\nexport = { foo };\n",
    );
    f.write(
        "b.ts",
        "import a = require(\"./a\");\nexport const v = a.foo(1);\n",
    );
    f.write(
        "c.ts",
        "export function bar(x: number): number {\n  return x * 2;\n}\n",
    );
    f.write(
        "d.ts",
        "import c = require(\"./c\");\nexport const w = c.bar(1);\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol a.foo plusOne
        Ok, Renamed in 2 files (a.ts, b.ts), 3 references updated
        > Refactor RenameSymbol c.bar twice
        Fail "Cannot rename c.bar: 1 possible use it cannot prove: d.ts:1:19 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    assert!(f.read("a.ts").contains("export = { plusOne };"));
    assert!(f.read("b.ts").contains("a.plusOne(1)"));
    f.accepted(
        "tsc",
        &[
            "--noEmit", "--strict", "--module", "commonjs", "a.ts", "b.ts", "c.ts", "d.ts",
        ],
    );
}

/// ES namespaces re-exported and barrels: `export * as util from './u'`
/// makes `util` (imported by name) the module `u` — `util.helper()` is
/// `u.helper`'s use, renamed; read through a namespace import of the
/// barrel (`core.util.helper()`) or passed whole, the module is read
/// whole: refused. A barrel's own import of a name does not shadow its
/// `export *` of it (before: the importers through the barrel were
/// missed, and the rename answered `Ok` with tsc failing).
#[test]
fn es_namespaces_reexported_and_barrels_importing_what_they_reexport() {
    let f = Fixture::new();
    f.write("u.ts", "export function helper(): number { return 1; }\n");
    f.write("index.ts", "export * as util from \"./u.js\";\n");
    f.write(
        "b.ts",
        "import { util } from \"./index.js\";\nexport const h: number = util.helper();\n",
    );
    f.write(
        "barrel.ts",
        "import { helper } from \"./u.js\";\nexport * from \"./u.js\";\nexport const n: number = helper();\n",
    );
    f.write(
        "c.ts",
        "import { helper } from \"./barrel.js\";\nexport const z: number = helper();\n",
    );
    f.write(
        "d.ts",
        "import * as core from \"./index.js\";\nexport const k: number = core.util.helper();\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References u.helper
        Ok: Found 5 references, with lines, Txt b.ts:1:30: export const h: number = util.helper();\nbarrel.ts:0:9: import { helper } from "./u.js";\nbarrel.ts:2:25: export const n: number = helper();\nc.ts:0:9: import { helper } from "./barrel.js";\nc.ts:1:25: export const z: number = helper();
        > Refactor RenameSymbol u.helper helper2
        Fail "Cannot rename u.helper: 1 possible use it cannot prove: u.ts:0:16 (its module is read whole as a value at d.ts:1:30, where code may read the export by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    std::fs::remove_file(f.dir.path().join("d.ts")).unwrap();
    f.check(
        "a",
        r#"
        > Refactor RenameSymbol u.helper helper2
        Ok, Renamed in 4 files (b.ts, barrel.ts, c.ts, u.ts), 6 references updated
        "#,
    );
    f.accepted(
        "tsc",
        &[
            "--noEmit",
            "--strict",
            "--module",
            "esnext",
            "--moduleResolution",
            "bundler",
            "u.ts",
            "index.ts",
            "b.ts",
            "barrel.ts",
            "c.ts",
        ],
    );
}

/// Dynamic imports: a module-level `await import('./a.mjs')` binds the
/// module's namespace (or its names) as a static import does: certain,
/// renamed (a destructured key whole). `import()` or `require()` in a
/// function, or through `.then(m => …)`, makes a member read through a
/// local value possible: it was no use at all, and the rename answered
/// `Ok` leaving `m.foo(2)` to fail in Node.
#[test]
fn dynamic_imports_bind_or_make_uses_possible() {
    let f = Fixture::new();
    f.write("a.mjs", "export function foo(x) {\n  return x + 1;\n}\n");
    f.write(
        "b.mjs",
        "const m = await import(\"./a.mjs\");\nconst { foo } = await import(\"./a.mjs\");\nconsole.log(m.foo(1), foo(3));\n",
    );
    f.write(
        "c.mjs",
        "import(\"./a.mjs\").then((mod) => console.log(mod.foo(2)));\n",
    );
    f.write(
        "d.cjs",
        "function baz(x) {\n  return x * 3;\n}\nmodule.exports = { baz };\n",
    );
    f.write(
        "e.cjs",
        "function lazy() {\n  const d = require(\"./d.cjs\");\n  const { baz } = require(\"./d.cjs\");\n  return d.baz(1) + baz(2);\n}\nconsole.log(lazy());\n",
    );
    // (a key a destructuring in a function takes: with Include Possible,
    // renamed alone, its local keeping its name, whose uses the index
    // does not follow: `{ plusOne: foo }`)
    f.write(
        "f.mjs",
        "async function main() {\n  const { foo } = await import(\"./a.mjs\");\n  return foo(5);\n}\nconsole.log(await main());\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol a.foo plusOne
        Fail "Cannot rename a.foo: 2 possible uses it cannot prove: c.mjs:0:48 (the index cannot resolve it), f.mjs:1:10 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol a.foo plusOne Include Possible
        Ok, Renamed in 4 files (a.mjs, b.mjs, c.mjs, f.mjs), 6 references updated, possible: 2 uses changed too (Include Possible): c.mjs:0:48 (the index cannot resolve it), f.mjs:1:10 (the index cannot resolve it)
        > Refactor RenameSymbol d.baz qux
        Fail "Cannot rename d.baz: 2 possible uses it cannot prove: e.cjs:2:10 (the index cannot resolve it), e.cjs:3:11 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol d.baz qux Include Possible
        Ok, Renamed in 2 files (d.cjs, e.cjs), 4 references updated, possible: 2 uses changed too (Include Possible): e.cjs:2:10 (the index cannot resolve it), e.cjs:3:11 (the index cannot resolve it)
        "#,
    );
    assert_eq!(
        f.read("f.mjs").lines().nth(1),
        Some("  const { plusOne: foo } = await import(\"./a.mjs\");")
    );
    f.accepted("node", &["f.mjs"]);
    assert!(f
        .read("e.cjs")
        .contains("const { qux: baz } = require(\"./d.cjs\");"));
    f.accepted("node", &["e.cjs"]);
    assert_eq!(
        f.read("b.mjs"),
        "const m = await import(\"./a.mjs\");\nconst { plusOne } = await import(\"./a.mjs\");\nconsole.log(m.plusOne(1), plusOne(3));\n"
    );
    f.accepted("node", &["b.mjs"]);
    f.accepted("node", &["c.mjs"]);
}

/// JSDoc types in JavaScript (`@param {Argument} a`, `@returns
/// {Argument[]}`, `import('./argument.js').Argument`), which TypeScript's
/// checker reads (`checkJs`), are renamed with the class: the rename
/// answered `Ok` and left them (commander 12, `tsc --checkJs` refused).
/// A file whose `@typedef` declares a type of the name keeps its own;
/// `ns.Argument` is possible.
#[test]
fn jsdoc_types_are_renamed_with_their_class() {
    let f = Fixture::new();
    f.write(
        "lib/argument.js",
        "class Argument {\n  constructor() { this.name = ''; }\n  /**\n   * @param {string} name\n   * @returns {Argument}\n   */\n  static of(name) { const a = new Argument(); a.name = name; return a; }\n}\nexports.Argument = Argument;\n",
    );
    f.write(
        "lib/command.js",
        "const { Argument } = require('./argument.js');\n\n/** @param {Argument[]} list @returns {Argument | undefined} */\nfunction first(list) { return list[0]; }\nexports.first = first;\nexports.make = () => Argument.of('x');\n",
    );
    f.write(
        "lib/help.js",
        "/**\n * @typedef { import(\"./argument.js\").Argument } Argument\n */\n\n/** @param {Argument} argument @returns {string} */\nfunction describe(argument) { return String(argument); }\nexports.describe = describe;\n",
    );
    f.write(
        "tsconfig.json",
        "{\"compilerOptions\": {\"allowJs\": true, \"checkJs\": true, \"noEmit\": true, \"strict\": false, \"module\": \"commonjs\", \"types\": []}, \"include\": [\"lib/*.js\"]}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol lib.argument.Argument Arg
        Ok, Renamed in 3 files (lib/argument.js, lib/command.js, lib/help.js), 10 references updated
        "#,
    );
    assert!(f.read("lib/argument.js").contains("@returns {Arg}"));
    assert!(f
        .read("lib/command.js")
        .contains("/** @param {Arg[]} list @returns {Arg | undefined} */"));
    assert!(f
        .read("lib/help.js")
        .contains("@typedef { import(\"./argument.js\").Arg } Argument"));
    assert!(f.read("lib/help.js").contains("@param {Argument} argument"));
    f.accepted("tsc", &["-p", "tsconfig.json"]);
}

#[test]
fn a_possible_use_refuses_unless_the_request_says_what_to_do() {
    let f = Fixture::new();
    f.write(
        "lib/util.js",
        "export function add(a, b) {\n  return a + b;\n}\n",
    );
    f.write(
        "lib/old.cjs",
        "const util = require('./util');\nmodule.exports = util.add(1, 2);\n",
    );
    f.write(
        "lib/main.js",
        "import { add } from './util.js';\nadd(1, 2);\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol add sum
        Fail "Cannot rename lib.util.add: 1 possible use it cannot prove: lib/old.cjs:1:22 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol add sum Only Proven
        Ok, Renamed in 2 files (lib/main.js, lib/util.js), 3 references updated, may be broken at: 1 possible use left unchanged (Only Proven): lib/old.cjs:1:22 (the index cannot resolve it)
        > Undo
        Ok, Undid 1, At 0:0, Also in lib/main.js
        > Preview Refactor RenameSymbol add sum Include Possible
        Ok, Preview: Would modify 3 files: lib/main.js, lib/old.cjs, lib/util.js, 4 references, possible: 1 use changed too (Include Possible): lib/old.cjs:1:22 (the index cannot resolve it)
        > Set Preview on
        Ok
        > Refactor RenameSymbol add sum Include Possible
        Ok, Preview: Would modify 3 files: lib/main.js, lib/old.cjs, lib/util.js, 4 references, Apply or Discard, possible: 1 use changed too (Include Possible): lib/old.cjs:1:22 (the index cannot resolve it)
        > Apply
        Ok, Renamed in 3 files (lib/main.js, lib/old.cjs, lib/util.js), 4 references updated, possible: 1 use changed too (Include Possible): lib/old.cjs:1:22 (the index cannot resolve it)
        "#,
    );
}

/// Go: a package-level function through `pkg.Name` in another package of
/// the module, a method through a typed value, a struct's field in its
/// literals; `go vet` accepts the result.
#[test]
fn go_renames_across_packages() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    f.write(
        "shapes/shapes.go",
        "package shapes\n\ntype Point struct {\n\tX, Y int\n}\n\nfunc New(x int) Point {\n\treturn Point{X: x, Y: 0}\n}\n\nfunc (p Point) Sum() int {\n\treturn p.X + p.Y\n}\n",
    );
    f.write(
        "main.go",
        "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/shapes\"\n)\n\nfunc main() {\n\tvar p shapes.Point = shapes.New(1)\n\tq := shapes.Point{X: 2}\n\tfmt.Println(p.Sum(), p.X, q.Y)\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol New Make
        Ok, Renamed in 2 files (main.go, shapes/shapes.go), 2 references updated
        > Refactor RenameSymbol Point.Sum Total
        Ok, Renamed in 2 files (main.go, shapes/shapes.go), 2 references updated
        > Refactor RenameSymbol Point.X Left
        Ok, Renamed in 2 files (main.go, shapes/shapes.go), 5 references updated
        > Refactor RenameSymbol Make Point
        Fail "Name conflict exists: shapes/shapes.go:3 already defines Point; choose another name"
        > Refactor RenameSymbol Point.Total Left
        Fail "Name conflict exists: shapes/shapes.go:4 already defines Point.Left; choose another name"
        > Refactor RenameSymbol Make func
        Fail "Invalid name 'func': a Go keyword; choose another name"
        > Refactor RenameSymbol Make build
        Fail "Cannot rename shapes.Make to build: a Go name starting with a lower-case letter is not exported, and main.go:9:29 uses it from another package; choose a name starting with an upper-case letter"
        "#,
    );
    assert!(f
        .read("shapes/shapes.go")
        .contains("func (p Point) Total() int {\n\treturn p.Left + p.Y\n}"));
    assert!(f
        .read("main.go")
        .contains("q := shapes.Point{Left: 2}\n\tfmt.Println(p.Total(), p.Left, q.Y)"));
    f.accepted("go", &["vet", "./..."]);
}

/// A Go method declared in another file than its type's is the type's
/// member all the same: its uses through typed values are found and
/// renamed, in a third file and in another package; a name another file
/// of the package declares (a method of the type, a function) is taken.
#[test]
fn go_methods_declared_apart_from_their_type() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    f.write(
        "stack/stack.go",
        "package stack\n\ntype Stack struct{ items []int }\n\nfunc (s *Stack) Len() int { return len(s.items) }\n",
    );
    f.write(
        "stack/push.go",
        "package stack\n\nfunc (s *Stack) Push(v int) { s.items = append(s.items, v) }\n",
    );
    f.write(
        "stack/fill.go",
        "package stack\n\nfunc Fill(s *Stack) int {\n\ts.Push(1)\n\treturn s.Len()\n}\n",
    );
    f.write(
        "main.go",
        "package main\n\nimport \"example.com/m/stack\"\n\nfunc main() {\n\tvar s stack.Stack\n\ts.Push(2)\n\t_ = stack.Fill(&s)\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Stack.Push Len
        Fail "Name conflict exists: stack/stack.go:5 already defines Stack.Len; choose another name"
        > Refactor RenameSymbol Fill Stack
        Fail "Name conflict exists: stack/stack.go:3 already defines Stack; choose another name"
        > Refactor RenameSymbol Stack.Push Add
        Ok, Renamed in 3 files (main.go, stack/fill.go, stack/push.go), 3 references updated
        "#,
    );
    assert!(f.read("stack/fill.go").contains("\ts.Add(1)\n"));
    assert!(f.read("main.go").contains("\ts.Add(2)\n"));
    f.accepted("go", &["vet", "./..."]);
}

const TREE_GO: &str = "package tree

type Item struct {
\tName string
\tnext *Item
}

type Label struct{ Name string }

type Tree struct {
\titems  []*Item
\tbyKey  map[string]Item
\troot   [2]Item
\tlabels []Label
}

type Counter struct{ n int }

type Bag struct {
\tCounter
\tkept []*Item
}

func (b *Bag) add(it *Item) { b.kept = append(b.kept, it) }

func (t *Tree) add(it *Item) { t.items = append(t.items, it) }

func NewTree() *Tree { return &Tree{byKey: map[string]Item{}} }

func (t *Tree) lookup(n int) *Item { return t.items[n] }

func (t *Tree) First() Item { return t.root[0] }

func (t *Tree) Names() []string {
\tvar out []string
\tfor _, it := range t.items {
\t\tout = append(out, it.Name)
\t}
\tfirst := t.lookup(0)
\tbag := &Bag{}
\tbag.add(first)
\tt.add(first)
\tout = append(out, first.Name, t.lookup(1).Name, t.byKey[\"a\"].Name, t.root[0].Name)
\tif v, ok := t.byKey[\"b\"]; ok {
\t\tout = append(out, v.Name, (*t.items[0]).Name)
\t}
\tfor _, it := range t.labels {
\t\tout = append(out, it.Name, t.labels[0].Name)
\t}
\tmade := new(Item)
\treturn append(out, NewTree().lookup(0).next.Name, made.Name)
}
";

/// Go: a member through values whose types the project states — a
/// call's result (a function's, a method's, in another package too), an
/// element of a slice, an array or a map (by index, by `range`, by `v,
/// ok :=`), a dereference, `new(T)`, `x := e` — is certain; the same name of
/// another type (a loop variable of the same name over another slice, a
/// method of a type that embeds another but declares it) is left; `go
/// vet` accepts the result.
#[test]
fn go_renames_members_through_calls_ranges_and_indexes() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    f.write("tree/tree.go", TREE_GO);
    f.write(
        "main.go",
        "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/tree\"\n)\n\nfunc main() {\n\tt := tree.NewTree()\n\tfmt.Println(t.Names(), t.First().Name)\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.Name Title
        Ok, Renamed in 2 files (main.go, tree/tree.go), 11 references updated
        > Refactor RenameSymbol Tree.add push
        Ok, Renamed in 1 file (tree/tree.go), 2 references updated
        "#,
    );
    let text = f.read("tree/tree.go");
    assert!(text.contains("\tbag.add(first)\n\tt.push(first)\n"));
    assert!(text.contains("\tTitle string\n"));
    assert!(text.contains("out = append(out, it.Title)"));
    assert!(text.contains(
        "out = append(out, first.Title, t.lookup(1).Title, t.byKey[\"a\"].Title, t.root[0].Title)"
    ));
    assert!(text.contains("out = append(out, v.Title, (*t.items[0]).Title)"));
    assert!(text.contains("out = append(out, it.Name, t.labels[0].Name)"));
    assert!(text.contains("return append(out, NewTree().lookup(0).next.Title, made.Title)"));
    assert!(f.read("main.go").contains("t.First().Title)"));
    assert!(f.accepted("go", &["vet", "./..."]));
}

/// Go: a member read through a composite literal is its type's — `A{}.Foo()`,
/// `(&A{}).Foo()`, `x := A{}` then `x.Foo()`, in another package
/// `a.A{}.Foo()` —; a literal of a type that embeds `A` still promotes
/// it (possible). Before, each literal was possible and the rename
/// refused.
#[test]
fn go_members_through_composite_literals() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    f.write(
        "a/a.go",
        "package a\n\ntype A struct{ N int }\n\nfunc (v A) Foo() int { return v.N }\n\nfunc Use() int {\n\tx := A{N: 1}\n\tp := &A{}\n\treturn A{}.Foo() + (&A{N: 2}).Foo() + x.Foo() + p.Foo()\n}\n",
    );
    f.write(
        "main.go",
        "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/a\"\n)\n\nfunc main() {\n\tfmt.Println(a.A{N: 3}.Foo(), a.Use())\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol A.Foo Bar
        Ok, Renamed in 2 files (a/a.go, main.go), 6 references updated
        "#,
    );
    assert!(f
        .read("a/a.go")
        .contains("return A{}.Bar() + (&A{N: 2}).Bar() + x.Bar() + p.Bar()"));
    assert!(f.read("main.go").contains("a.A{N: 3}.Bar()"));
    assert!(f.accepted("go", &["vet", "./..."]));
}

/// Go: what the declarations do not state keeps a member use possible —
/// a generic function's result, a type assertion to an interface
/// literal, a value a function literal makes, a `var ( … )` group's
/// value — and the rename is refused, listing them (and, the type being
/// embedded, another type's field of the name); a method's result
/// through the embedding type is stated (`w.Item0().Name`), and so is a
/// field it promotes from the type it embeds (`w.Name`).
#[test]
fn go_members_through_generics_interfaces_and_embedding_stay_possible() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    f.write("tree/tree.go", TREE_GO);
    f.write(
        "tree/more.go",
        "package tree\n\nfunc firstOf[T any](xs []T) T { return xs[0] }\n\ntype Wrapped struct{ *Item }\n\nfunc (w Wrapped) Item0() Item { return *w.Item }\n\nfunc Peek(t *Tree, w Wrapped, a any) string {\n\tmake := func() *Item { return t.items[0] }\n\tm := make()\n\tvar (\n\t\tc = t.items[0]\n\t\td = c\n\t)\n\t_ = d.Name\n\treturn firstOf(t.items).Name + w.Name + a.(interface{ Get() Item }).Get().Name + m.Name + w.Item0().Name\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.Name Title
        Fail "Cannot rename tree.Item.Name: 5 possible uses it cannot prove: tree/more.go:15:7 (the index cannot resolve it), tree/more.go:16:25 (the index cannot resolve it), tree/more.go:16:75 (the index cannot resolve it), tree/more.go:16:84 (the index cannot resolve it), tree/tree.go:7:19 (tree.Label.Name has a member of the name, which may override it, be overridden by it or declare it for an interface); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    assert!(f.accepted("go", &["vet", "./..."]));
}

/// Go: a member promoted through embedding — `in.Inner` of another
/// package, `*Local`, two depths down (`d.Foo()` through `Deep{Outer}`) —
/// is a use of the embedded type's member, selected as Go selects it: the
/// shallowest depth, one type there. Before, each was possible and the
/// rename refused. A type outside the project embedded at the same depth
/// (`sync.Mutex` beside `Local`) may have a member of the name: `l.Baz()`
/// stays possible. A new name a type related by embedding has (`Bar`,
/// `Inner`'s once renamed, for `Local.Baz`, both embedded in `Outer`)
/// would make `o.Bar()` ambiguous or shadowed: refused.
#[test]
fn go_members_promoted_through_embedding() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/p\n\ngo 1.19\n");
    f.write(
        "in/in.go",
        "package in\n\ntype Inner struct{ N int }\n\nfunc (i *Inner) Foo() int { return i.N }\n",
    );
    f.write(
        "out/out.go",
        "package out\n\nimport (\n\t\"sync\"\n\n\t\"example.com/p/in\"\n)\n\ntype Local struct{ M int }\n\nfunc (l *Local) Baz() int { return l.M }\n\ntype Outer struct {\n\tin.Inner\n\t*Local\n\tk int\n}\n\ntype Deep struct{ Outer }\n\ntype Locked struct {\n\tsync.Mutex\n\tLocal\n}\n\nfunc Use(o Outer, d *Deep, l *Locked) int {\n\treturn o.Foo() + o.N + o.Baz() + o.M + d.Foo() + d.N + o.Inner.Foo() + l.Baz() + o.k\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Inner.Foo Bar
        Ok, Renamed in 2 files (in/in.go, out/out.go), 4 references updated
        > Refactor RenameSymbol Inner.N Count
        Ok, Renamed in 2 files (in/in.go, out/out.go), 4 references updated
        > Refactor RenameSymbol Local.Baz Bar
        Fail "Name conflict exists: in/in.go:5 already defines in.Inner.Bar, and Local is related to its type by embedding: renamed, one would shadow the other in a selector, or make it ambiguous; choose another name"
        > Refactor RenameSymbol Local.Baz Qux
        Fail "Cannot rename out.Local.Baz: 1 possible use it cannot prove: out/out.go:26:82 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    let out = f.read("out/out.go");
    assert!(out.contains(
        "return o.Bar() + o.Count + o.Baz() + o.M + d.Bar() + d.Count + o.Inner.Bar() + l.Baz()"
    ));
    assert!(f
        .read("in/in.go")
        .contains("func (i *Inner) Bar() int { return i.Count }"));
    assert!(f.accepted("go", &["vet", "./..."]));
}

/// Go: renaming an embedded type's method changes the method set of each
/// type embedding it, so an interface of the project naming the method
/// keeps the rename refused (`*Outer` asserted to `Fooer`); renaming the
/// embedding type's own method to a name its embedded type has would
/// shadow that one in `o.Foo()`: refused.
#[test]
fn go_embedding_keeps_interfaces_and_shadowed_names_refused() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/p\n\ngo 1.19\n");
    f.write(
        "p.go",
        "package p\n\ntype Inner struct{}\n\nfunc (i *Inner) Foo() int { return 1 }\n\ntype Outer struct{ Inner }\n\nfunc (o *Outer) Own() int { return 2 }\n\ntype Fooer interface{ Foo() int }\n\nvar _ Fooer = &Outer{}\n\nfunc Use(o *Outer) int { return o.Foo() + o.Own() }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Inner.Foo Bar
        Fail "Cannot rename p.Inner.Foo: 1 possible use it cannot prove: p.go:10:22 (p.Fooer.Foo has a member of the name, which may override it, be overridden by it or declare it for an interface); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Outer.Own Foo
        Fail "Name conflict exists: p.go:5 already defines p.Inner.Foo, and Outer is related to its type by embedding: renamed, one would shadow the other in a selector, or make it ambiguous; choose another name"
        > Refactor RenameSymbol Outer.Own Mine
        Ok, Renamed in 1 file (p.go), 2 references updated
        "#,
    );
    assert!(f.accepted("go", &["vet", "./..."]));
}

/// Go: an interface embedded in a struct promotes its methods like a
/// type does: `o.Size()` with `Outer{ Sizer; Mid }` is `Sizer`'s (depth
/// one), not `Inner.Size` two depths down through `Mid` — renaming
/// `Inner.Size` (only the proven sites: the interface's method of the
/// name is a possible one) leaves it, and renames `m.Size()`.
#[test]
fn go_an_embedded_interface_shadows_a_deeper_method() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/p\n\ngo 1.19\n");
    f.write(
        "p.go",
        "package p\n\ntype Sizer interface{ Size() int }\n\ntype Inner struct{}\n\nfunc (Inner) Size() int { return 1 }\n\ntype Mid struct{ Inner }\n\ntype Outer struct {\n\tSizer\n\tMid\n}\n\nfunc Use(o Outer, m Mid) int { return o.Size() + m.Size() }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Inner.Size Len Only Proven
        Ok, Renamed in 1 file (p.go), 2 references updated, may be broken at: 2 possible uses left unchanged (Only Proven): p.go:2:22 (p.Sizer.Size has a member of the name, which may override it, be overridden by it or declare it for an interface), p.go:15:40 (a use of p.Sizer.Size, renamed with it)
        "#,
    );
    assert!(f.read("p.go").contains("return o.Size() + m.Len()"));
    assert!(f.accepted("go", &["vet", "./..."]));
}

/// Go: the locals the scan types from what they receive or assert — a
/// `select` case's `v := <-ch` (and `w, ok := <-ro`), `u := <-ch`, `for r
/// := range ch` over a channel, a type switch's name in a case of one
/// type (`*Item`; in `case *Box` it is a `*Box`) — and a method value
/// (`(<-ch).Size`) or expression (`(*Item).Size`): each a use of the
/// method (and `s.Size()` in `case *Box` is `Box`'s). Before, each was
/// possible and the rename refused. A channel
/// `make` returns (a builtin's result the index does not type) stays
/// possible.
#[test]
fn go_members_through_receives_type_switches_and_method_expressions() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/w\n\ngo 1.19\n");
    f.write(
        "w/w.go",
        "package w\n\ntype Item struct{ n int }\n\nfunc (it *Item) Size() int { return it.n }\n\ntype Box struct{ n int }\n\nfunc (b *Box) Size() int { return b.n }\n\nfunc Sizes(ch chan *Item, ro <-chan *Item, x any) int {\n\tn := 0\n\tselect {\n\tcase v := <-ch:\n\t\tn += v.Size()\n\tcase w, ok := <-ro:\n\t\tif ok {\n\t\t\tn += w.Size()\n\t\t}\n\t}\n\tu := <-ch\n\tz, ok := <-ch\n\tif ok {\n\t\tn += z.Size() + u.Size()\n\t}\n\tfor r := range ch {\n\t\tn += r.Size()\n\t}\n\tswitch s := x.(type) {\n\tcase *Item:\n\t\tn += s.Size()\n\tcase *Box:\n\t\tn += s.Size()\n\t}\n\tf := (<-ch).Size\n\tg := (*Item).Size\n\treturn n + f() + g(<-ch)\n}\n",
    );
    f.write(
        "w/made.go",
        "package w\n\nfunc Made() int {\n\tch := make(chan *Item, 1)\n\tch <- &Item{}\n\treturn (<-ch).Size()\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.Size Len
        Fail "Cannot rename w.Item.Size: 1 possible use it cannot prove: w/made.go:5:15 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Item.Size Len Include Possible
        Ok, Renamed in 2 files (w/made.go, w/w.go), 10 references updated, possible: 1 use changed too (Include Possible): w/made.go:5:15 (the index cannot resolve it)
        "#,
    );
    let w = f.read("w/w.go");
    for renamed in [
        "v.Len()",
        "w.Len()",
        "z.Len() + u.Len()",
        "r.Len()",
        "f := (<-ch).Len",
        "g := (*Item).Len",
    ] {
        assert!(w.contains(renamed), "{renamed}");
    }
    assert!(w.contains("case *Box:\n\t\tn += s.Size()"));
    assert!(f.accepted("go", &["vet", "./..."]));
}

/// Rust: an item through `use`, `crate::` and `super::` paths, a
/// re-export; rustc compiles the crate.
#[test]
fn rust_renames_within_a_crate() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"geo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod geo;\npub use geo::area;\n\npub fn total() -> i32 {\n    geo::area(2) + crate::geo::area(1) + area(3)\n}\n",
    );
    f.write(
        "src/geo/inner.rs",
        "pub fn twice() -> i32 {\n    super::area(2) * 2\n}\n",
    );
    f.write(
        "src/geo.rs",
        "pub mod inner;\n\npub fn area(x: i32) -> i32 {\n    x * x\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol area square
        Ok, Renamed in 3 files (src/geo.rs, src/geo/inner.rs, src/lib.rs), 6 references updated
        "#,
    );
    assert_eq!(
        f.read("src/geo/inner.rs"),
        "pub fn twice() -> i32 {\n    super::square(2) * 2\n}\n"
    );
    assert!(f.read("src/lib.rs").contains("pub use geo::square;\n\npub fn total() -> i32 {\n    geo::square(2) + crate::geo::square(1) + square(3)"));
    let out = f.dir.path().join("lib.rmeta");
    f.accepted(
        "rustc",
        &[
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-o",
            out.to_str().unwrap(),
            "src/lib.rs",
        ],
    );
}

/// Java: a public class renamed with its constructors and its file,
/// moved in the same change; a method through typed locals; javac
/// compiles the result.
#[test]
fn java_renames_classes_with_their_files_and_methods() {
    let f = Fixture::new();
    f.write(
        "src/shop/Shop.java",
        "package shop;\n\npublic class Shop {\n    public Shop() {}\n\n    public int add(int price) {\n        return price + 1;\n    }\n}\n",
    );
    f.write(
        "src/shop/App.java",
        "package shop;\n\npublic class App {\n    public static void main(String[] args) {\n        Shop shop = new Shop();\n        System.out.println(shop.add(1));\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Shop.add plus
        Ok, Renamed in 2 files (src/shop/App.java, src/shop/Shop.java), 2 references updated
        > Refactor RenameSymbol Shop Store
        Ok, Renamed in 2 files (src/shop/App.java, src/shop/Shop.java), 4 references updated
        "#,
    );
    assert!(f
        .read("src/shop/Store.java")
        .contains("public class Store {\n    public Store() {}\n\n    public int plus(int price)"));
    assert!(f
        .read("src/shop/App.java")
        .contains("Store shop = new Store();\n        System.out.println(shop.plus(1));"));
    assert!(!f.dir.path().join("src/shop/Shop.java").exists());
    f.accepted(
        "javac",
        &["-d", "out", "src/shop/Store.java", "src/shop/App.java"],
    );
}

/// TypeScript: an exported class and function across files, an
/// `import { f as g }` alias kept; tsc accepts the project.
#[test]
fn typescript_renames_exports_across_files() {
    let f = Fixture::new();
    f.write(
        "src/calc.ts",
        "export class Calc {\n  total = 0;\n  push(n: number): number {\n    this.total += n;\n    return this.total;\n  }\n}\n\nexport function make(): Calc {\n  return new Calc();\n}\n",
    );
    f.write(
        "src/main.ts",
        "import { Calc, make as build } from './calc';\n\nconst c: Calc = build();\nc.push(1);\nexport const d = new Calc();\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Calc Counter
        Ok, Renamed in 2 files (src/calc.ts, src/main.ts), 6 references updated
        > Refactor RenameSymbol make create
        Ok, Renamed in 2 files (src/calc.ts, src/main.ts), 2 references updated
        > Refactor RenameSymbol Counter.push add
        Ok, Renamed in 2 files (src/calc.ts, src/main.ts), 2 references updated
        "#,
    );
    assert_eq!(
        f.read("src/main.ts"),
        "import { Counter, create as build } from './calc';\n\nconst c: Counter = build();\nc.add(1);\nexport const d = new Counter();\n"
    );
    f.accepted("tsc", &["--noEmit", "--strict", "src/main.ts"]);
}

/// `Modify … Rename` of an exported function renames in its file and
/// says what it leaves in the others, with the cross-file rename that
/// takes them along.
#[test]
fn an_in_file_rename_names_the_uses_it_leaves_in_other_files() {
    let f = Fixture::new();
    f.write(
        "lib/util.js",
        "export function add(a, b) {\n  return a + b;\n}\n\nexport function twice(x) {\n  return add(x, x);\n}\n",
    );
    f.write(
        "lib/main.js",
        "import { add } from './util.js';\nadd(1, 2);\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open lib/util.js
        Ok, At 0:0, Length 7
        > Modify Function twice Rename double
        Ok, Modified function twice (1 edit), At 4:7
        > Modify Function add Rename sum
        Ok, Modified function add (2 edits), At 0:7, not changed: 2 references in other files (lib/main.js:0, lib/main.js:1); cross-file rename: Refactor RenameSymbol lib.util.add sum
        > Undo
        Ok, Undid 1, At 4:7
        > Save
        Ok, Bytes 97
        > Refactor RenameSymbol lib.util.add sum
        Ok, Renamed in 2 files (lib/main.js, lib/util.js), 4 references updated
        "#,
    );
}

/// A method another class of the project also has, unrelated to its own
/// (TypeScript's types are structural: a `Circle` may stand for a
/// `Shape`), is possible: refused by default, naming it. The interface's
/// declaration its class implements is of its family: renamed with it.
#[test]
fn a_member_another_type_also_has_is_refused_by_default() {
    let f = Fixture::new();
    f.write(
        "src/shapes.ts",
        "export interface Shape {\n  area(): number;\n}\n\nexport class Square implements Shape {\n  side = 1;\n  area(): number {\n    return this.side * this.side;\n  }\n}\n\nexport class Circle {\n  area(): number {\n    return 3;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Square.area size
        Fail "Cannot rename src.shapes.Square.area: 1 possible use it cannot prove: src/shapes.ts:12:2 (src.shapes.Circle.area has a member of the name, which may override it, be overridden by it or declare it for an interface); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Square.area size Include Possible
        Ok, Renamed in 1 file (src/shapes.ts), 3 references updated, also renamed: src.shapes.Shape.area, possible: 1 use changed too (Include Possible): src/shapes.ts:12:2 (src.shapes.Circle.area has a member of the name, which may override it, be overridden by it or declare it for an interface)
        "#,
    );
    assert!(f.read("src/shapes.ts").contains("  size(): number;\n}"));
    f.accepted("tsc", &["--noEmit", "--strict", "src/shapes.ts"]);
}

/// Go: an example function names what it shows (`ExampleWriter_Flush`),
/// so it follows the method; a method of a standard interface (`Unwrap`,
/// which `errors.Is` calls by name) and a field a struct's embedding of
/// the type names (`s.Pos`, the key of `Writer{Pos: …}`) are possible:
/// refused by default, listed.
#[test]
fn go_examples_interfaces_and_embedded_types() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/w\n\ngo 1.19\n");
    f.write(
        "w/w.go",
        "package w\n\ntype Pos struct {\n\tLine int\n}\n\ntype Writer struct {\n\tPos\n\tn int\n}\n\ntype Failure struct {\n\terr error\n}\n\nfunc (f *Failure) Error() string { return \"failure\" }\n\nfunc (f *Failure) Unwrap() error { return f.err }\n\nfunc New() *Writer {\n\treturn &Writer{Pos: Pos{}}\n}\n\nfunc (w *Writer) Flush() int {\n\treturn w.n + w.Pos.Line\n}\n",
    );
    f.write(
        "w/example_test.go",
        "package w\n\nimport \"fmt\"\n\nfunc ExampleWriter_Flush() {\n\tw := New()\n\tfmt.Println(w.Flush())\n\t// Output: 0\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Writer.Flush Drain
        Ok, Renamed in 2 files (w/example_test.go, w/w.go), 3 references updated
        > Refactor RenameSymbol Failure.Unwrap Cause
        Fail "Cannot rename w.Failure.Unwrap: 1 possible use it cannot prove: w/w.go:17:18 (code outside the project may call it by its name, through the interface errors.Is, errors.As and errors.Unwrap call); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Pos Position
        Fail "Cannot rename w.Pos: 2 possible uses it cannot prove: w/w.go:20:16 (a struct embedding the type has a field of its name (a literal's key)), w/w.go:24:16 (a struct embedding the type has a field of its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Pos Position Include Possible
        Ok, Renamed in 1 file (w/w.go), 5 references updated, possible: 2 uses changed too (Include Possible): w/w.go:20:16 (a struct embedding the type has a field of its name (a literal's key)), w/w.go:24:16 (a struct embedding the type has a field of its name)
        "#,
    );
    assert!(f
        .read("w/example_test.go")
        .contains("func ExampleWriter_Drain() {"));
    assert!(f.read("w/w.go").contains("return w.n + w.Position.Line"));
    assert!(f
        .read("w/w.go")
        .contains("return &Writer{Position: Position{}}"));
    f.accepted("go", &["vet", "./..."]);
    f.accepted("go", &["test", "./..."]);
}

/// Go types inherit nothing but what they embed: another type's own
/// method of the name is no site of a method's rename; an interface's
/// method of the name is (a type satisfying it may be used through it),
/// and so is a method of a type that embeds the renamed one's, or that it
/// embeds.
#[test]
fn go_methods_of_other_types_interfaces_and_embedding() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/w\n\ngo 1.19\n");
    f.write(
        "w/w.go",
        "package w\n\ntype Tree struct{ n int }\n\nfunc (t *Tree) next() int { return t.n }\n\ntype lexer struct{ n int }\n\nfunc (l *lexer) next() int { return l.n + 1 }\n\ntype Sizer interface {\n\tSize() int\n}\n\ntype File struct{}\n\nfunc (f File) Size() int { return 0 }\n\ntype Base struct{}\n\nfunc (b Base) Name() string { return \"base\" }\n\ntype Named struct {\n\tBase\n}\n\nfunc (n Named) Name() string { return \"named\" }\n\nfunc Use(t *Tree, l *lexer) int { return t.next() + l.next() }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Tree.next advance
        Ok, Renamed in 1 file (w/w.go), 2 references updated
        > Refactor RenameSymbol File.Size Bytes
        Fail "Cannot rename w.File.Size: 1 possible use it cannot prove: w/w.go:11:1 (w.Sizer.Size has a member of the name, which may override it, be overridden by it or declare it for an interface); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Named.Name Title
        Fail "Cannot rename w.Named.Name: 1 possible use it cannot prove: w/w.go:20:14 (w.Base.Name has a member of the name, which may override it, be overridden by it or declare it for an interface); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    assert!(f.read("w/w.go").contains("func (t *Tree) advance() int"));
    assert!(f.read("w/w.go").contains("func (l *lexer) next() int"));
    f.accepted("go", &["vet", "./..."]);
}

/// Go: an interface's method is implemented by any type with a method of
/// its name (nothing declares it), so renaming it alone may leave a type
/// no longer satisfying it — possible, refused by default (before: `Ok`,
/// and `go vet` failed); a package-level name may not become one an
/// import of any file of the package binds, used there or not (before:
/// `Ok`, `strings already declared through import`); the method of an
/// interface or a trait is not renamed in one file.
#[test]
fn go_interface_methods_and_names_imports_bind() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/w\n\ngo 1.19\n");
    f.write(
        "w/a.go",
        "package w\n\ntype Namer interface{ Name() string }\n\ntype Entity struct{}\n\nfunc (e Entity) Name() string { return \"e\" }\n\nfunc Describe(n Namer) string { return n.Name() }\n\nvar _ = Describe(Entity{})\n\nfunc helper() int { return 1 }\n\nvar X = helper()\n",
    );
    f.write(
        "w/b.go",
        "package w\n\nimport \"strings\"\n\nvar B strings.Builder\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Namer.Name Title
        Fail "Cannot rename w.Namer.Name: 1 possible use it cannot prove: w/a.go:6:16 (w.Entity.Name may implement the interface's method (a Go type satisfies an interface by its methods' names; its own uses are not renamed with it)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol helper strings
        Fail "Name conflict exists: w/b.go imports \"strings\" as strings, and Go forbids a package-level name an import of a file of the package binds (strings already declared through import); choose another name"
        > Open w/a.go
        Ok, At 0:0, Length 15
        > Modify Method Namer.Name Rename Title
        Fail "Namer.Name is the interface's method: its implementations must keep its name, and they are not renamed in one file; rename it with them (Refactor RenameSymbol Namer.Name <new>)"
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
}

/// Go: an interface satisfied by a type's methods may be written in place
/// (`v.(interface{ Flush() int })`) — its method is an interface's too, so
/// renaming a type's method of its name is possible; and a new name that
/// completes an interface's methods (`Count` renamed `Len`, with `sizer`
/// declaring `Len`; not `resetter`, whose `Reset` it lacks) makes the type
/// satisfy it. Either way everything
/// compiles and a type assertion takes another branch: before, both
/// answered `Ok` and `go test` failed.
#[test]
fn go_interfaces_written_in_place_and_new_names_that_complete_one() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/w\n\ngo 1.19\n");
    f.write(
        "w/w.go",
        "package w\n\ntype Buffer struct{ n int }\n\nfunc (b *Buffer) Flush() int { return b.n }\n\ntype Counter struct{}\n\nfunc (c Counter) Count() int { return 0 }\n\ntype sizer interface{ Len() int }\n\ntype resetter interface {\n\tLen() int\n\tReset()\n}\n\n// Describe says what v can do.\nfunc Describe(v any) string {\n\tif _, ok := v.(interface{ Flush() int }); ok {\n\t\treturn \"flushes\"\n\t}\n\tif _, ok := v.(sizer); ok {\n\t\treturn \"sized\"\n\t}\n\treturn \"plain\"\n}\n",
    );
    f.write(
        "w/w_test.go",
        "package w\n\nimport \"testing\"\n\nfunc TestDescribe(t *testing.T) {\n\tif got := Describe(&Buffer{}); got != \"flushes\" {\n\t\tt.Fatal(got)\n\t}\n\tif got := Describe(Counter{}); got != \"plain\" {\n\t\tt.Fatal(got)\n\t}\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Buffer.Flush Drain
        Fail "Cannot rename w.Buffer.Flush: 1 possible use it cannot prove: w/w.go:19:27 (w.Describe.Flush has a member of the name, which may override it, be overridden by it or declare it for an interface); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Counter.Count Len
        Fail "Cannot rename w.Counter.Count: 1 possible use it cannot prove: w/w.go:8:17 (the new name Len is a method of the interface at w/w.go:11: renamed, Counter may satisfy it, and a type assertion or switch on it then takes another branch); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Counter.Count Total
        Ok, Renamed in 1 file (w/w.go), 1 reference updated
        > Refactor RenameSymbol Buffer.Flush Drain Include Possible
        Ok, Renamed in 1 file (w/w.go), 2 references updated, possible: 1 use changed too (Include Possible): w/w.go:19:27 (w.Describe.Flush has a member of the name, which may override it, be overridden by it or declare it for an interface)
        "#,
    );
    assert!(f.read("w/w.go").contains("v.(interface{ Drain() int })"));
    f.accepted("go", &["vet", "./..."]);
    f.accepted("go", &["test", "./..."]);
}

/// Go: a `//go:linkname` directive's first word is the local name of the
/// function it declares without a body (`mime/multipart`'s
/// `readMIMEHeader`): renamed with it. Before, the rename answered `Ok`
/// and left the directive, and the package no longer built ("missing
/// function body").
#[test]
fn go_linkname_directives_follow_their_function() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/w\n\ngo 1.19\n");
    f.write(
        "w/w.go",
        "package w\n\nimport _ \"unsafe\" // for go:linkname\n\n//go:linkname nanotime runtime.nanotime\nfunc nanotime() int64\n\n// Since says how long ago start was.\nfunc Since(start int64) int64 { return nanotime() - start }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol nanotime monotonic
        Ok, Renamed in 1 file (w/w.go), 3 references updated
        "#,
    );
    assert!(f
        .read("w/w.go")
        .contains("//go:linkname monotonic runtime.nanotime\nfunc monotonic() int64"));
    f.accepted("go", &["build", "./..."]);
    f.accepted("go", &["vet", "./..."]);
}

/// Java: a class with a constructor is two definitions of its name; asked
/// by that name with no file open, the rename said the name was not in
/// the index at all ("Not found … No similar name", from Python's index:
/// false, and what to do instead unsaid). It says the name is ambiguous,
/// with the candidates; the qualified name renames the class.
#[test]
fn java_a_class_and_its_constructor_are_ambiguous_not_unknown() {
    let f = Fixture::new();
    f.write(
        "com/x/Auth.java",
        "package com.x;\n\npublic class Auth {\n    public Auth() { }\n}\n",
    );
    f.write(
        "com/x/Use.java",
        "package com.x;\n\nclass Use {\n    Auth auth = new Auth();\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Auth Guard
        Fail "Ambiguous symbol 'Auth': com.x.Auth at com/x/Auth.java:2:0, com.x.Auth.Auth at com/x/Auth.java:3:4; use a qualified name"
        > Refactor RenameSymbol com.x.Auth Guard
        Ok, Renamed in 2 files (com/x/Auth.java, com/x/Use.java), 4 references updated
        "#,
    );
    f.accepted(
        "javac",
        &["-d", "out", "com/x/Guard.java", "com/x/Use.java"],
    );
}

/// JavaScript: a method a protocol calls by name (`toJSON` for
/// `JSON.stringify`) is possible; a `next` of a class that is no iterator
/// (no `Symbol.iterator`) is the class's own.
#[test]
fn javascript_methods_protocols_call() {
    let f = Fixture::new();
    f.write(
        "node.js",
        "export class Node {\n  toJSON() {\n    return {};\n  }\n\n  next() {\n    return null;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.toJSON serialize
        Fail "Cannot rename node.Node.toJSON: 1 possible use it cannot prove: node.js:1:2 (code outside the project may call it by its name, through JSON.stringify); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Node.next following
        Ok, Renamed in 1 file (node.js), 1 reference updated
        "#,
    );
}

/// A member's new name that a class of its lineage has (a subclass's,
/// a superclass's) would make one method override the other: `A.foo`
/// renamed `baz`, where `B extends A` has `baz`, answered `Ok` and `new
/// TypeScript: a parameter added before others shifts the calls'
/// arguments, so its calls are named even when it is optional; an
/// optional one before a required one (TS1016) and a rest one before
/// others (TS1014) are refused; a member made private names its uses
/// outside its class.
#[test]
fn signatures_keep_the_order_the_language_requires() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export function area(w: number, h: number = 1): number {\n  return w * h;\n}\nexport class Shape {\n  scale(f: number): number { return f; }\n  twice(): number { return this.scale(2); }\n}\n",
    );
    f.write(
        "b.ts",
        "import { area, Shape } from \"./a.js\";\nexport const x = area(2, 3) + area(4) + new Shape().scale(2);\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 7
        > Modify Function area AddParam "d?: number" At 0
        Fail "d?: number is optional, and the required parameter w: number would follow it (TypeScript's TS1016): add it after the required ones, or give it no `?`"
        > Modify Function area AddParam "...rest: number[]" At 1
        Fail "...rest: number[] is a rest or variadic parameter, which must be the last: leave out At (or At 2)"
        > Modify Function area AddParam "d: number = 0" At 0
        Ok, Modified function area (1 edit), At 0:7, calls not updated: 2 (b.ts:1, b.ts:1)
        > Undo
        Ok, Undid 1, At 0:0
        > Modify Function area AddParam "d?: number"
        Ok, Modified function area (1 edit), At 0:7
        > Modify Method Shape.scale SetVisibility private
        Ok, Modified method Shape.scale (1 edit), At 4:2, used outside its class: 1 reference (b.ts:1), which private may forbid
        "#,
    );
}

/// Go: a struct literal's key spelling a package-level name is the
/// struct's field, not a use of the name (`E{Kind: 1}` with a type
/// `Kind`; before: renamed with the type, and `go vet` failed); a map
/// literal's key is an expression, renamed.
#[test]
fn go_struct_literal_keys_are_fields_not_the_names_they_spell() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    f.write(
        "m/a.go",
        "package m\n\ntype Kind int\n\ntype E struct{ Kind Kind }\n\nvar e = E{Kind: 1}\n\nconst Limit = 3\n\ntype L struct{ Limit int }\n\nvar l = []L{{Limit: Limit}}\n\nvar m = map[int]int{Limit: 1}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol m.Kind Sort
        Ok, Renamed in 1 file (m/a.go), 2 references updated
        > Refactor RenameSymbol m.Limit Max
        Ok, Renamed in 1 file (m/a.go), 3 references updated
        "#,
    );
    let text = f.read("m/a.go");
    assert!(text.contains("type E struct{ Kind Sort }\n\nvar e = E{Kind: 1}"));
    assert!(text.contains("[]L{{Limit: Max}}") && text.contains("map[int]int{Max: 1}"));
    f.accepted("go", &["vet", "./..."]);
}

/// Rust: the name in comments of the files a rename changes — a doc
/// comment — is listed (before: not a word of it), and `Include Text`
/// renames it there too; in a doctest's code, which `cargo test --doc`
/// compiles, it is a possible use (`a_rust_rename_sees_the_doc_tests`).
#[test]
fn rust_doctests_and_doc_comments_are_mentions() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r3\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    let lib = "/// Doubles.\n///\n/// ```\n/// assert_eq!(r3::double(2), 4);\n/// ```\npub fn double(x: u32) -> u32 {\n    x * 2\n}\n\n/// Calls [`double`] twice.\npub fn quad(x: u32) -> u32 {\n    double(double(x))\n}\n";
    f.write("src/lib.rs", lib);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol double twice Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 4 references updated, possible: 1 use changed too (Include Possible): src/lib.rs:3:19 (in a doc test's code, which cargo test compiles), not changed: 1 mention in strings and comments (src/lib.rs:9:12); Include Text changes them
        > Undo
        Ok, Undid 1, At 0:0
        > Refactor RenameSymbol double twice Include Text Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 4 references updated, possible: 1 use changed too (Include Possible): src/lib.rs:3:19 (in a doc test's code, which cargo test compiles)
        "#,
    );
    let text = f.read("src/lib.rs");
    assert!(
        text.contains("/// assert_eq!(r3::twice(2), 4);")
            && text.contains("/// Calls [`twice`] twice.")
    );
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// A new name that is a prefix of a use's name is no capture of it
/// (`Panel` renamed `Pan`, `<Panel />` kept by its default import: was
/// refused as a name conflict).
#[test]
fn a_new_name_a_use_begins_with_is_no_conflict() {
    let f = Fixture::new();
    f.write(
        "P.tsx",
        "export default function Panel() { return <div />; }\n",
    );
    f.write(
        "A.tsx",
        "import Panel from \"./P\";\nexport const a = <Panel />;\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open P.tsx
        Ok
        Ok, At 0:0, Length 1
        > Refactor RenameSymbol Panel Pan
        Ok, Renamed in 1 file (P.tsx), 1 reference updated
        "#,
    );
}

/// Go: an inserted method goes after its own receiver type's methods
/// when the file declares the type, wherever the cursor is (it went
/// after the methods of the type around the cursor).
#[test]
fn go_a_method_goes_after_its_receivers_type() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/g\n\ngo 1.19\n");
    f.write(
        "a.go",
        "package g\n\ntype Weekday int\n\nfunc (d Weekday) String() string { return \"d\" }\n\ntype Set struct{ n int }\n\nfunc (s *Set) Has() bool { return s.n > 0 }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.go; Goto Class Set
        Ok
        Ok, At 0:0, Length 9
        Ok, At 6:0
        > Insert Method "func (d Weekday) Prev() Weekday { return d - 1 }"; Save
        Ok, Inserted 2 lines at 5, At 7:0
        Ok, Bytes 198
        "#,
    );
    assert!(f.read("a.go").contains(
        "func (d Weekday) String() string { return \"d\" }\n\nfunc (d Weekday) Prev() Weekday"
    ));
    f.accepted("go", &["vet", "./..."]);
}

/// Rust: a block doc comment (`/** … */`) is the item's doc: a new one is
/// refused unless it replaces it (a second doc was added).
#[test]
fn rust_block_doc_comments_are_docs() {
    let f = Fixture::new();
    f.write("src/lib.rs", "/** Block doc of g. */\npub fn g() {}\n");
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 2
        > Comment Function g "gdoc" Docstring
        Fail "Invalid code: function g has a doc comment already (lines 0-0): add Replace to replace it"
        "#,
    );
}

/// Overloads are one symbol: a rename named by one overload's
/// parameters is refused, not taken for all of them (both were renamed).
#[test]
fn one_overload_named_by_its_parameters_is_refused() {
    let f = Fixture::new();
    f.write(
        "O.java",
        "public class O {\n    void add(int t) {}\n    void add(int t, int times) { add(t); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol O.add(t) put
        Fail "Cannot rename one overload of O.add: its 2 definitions (O.java:2, O.java:3) are one symbol, whose calls the index does not tell apart by their parameters; Refactor RenameSymbol O.add put renames them all"
        > Refactor RenameSymbol O.add put
        Ok, Renamed in 1 file (O.java), 3 references updated
        "#,
    );
    assert!(f.accepted("javac", &["-d", "classes", "O.java"]));
}

/// TypeScript: an enum's members are its fields (`Color.Red`): shown,
/// found and renamed with their uses (before: "Not found", and a bare
/// member swallowed the others as its own).
#[test]
fn typescript_enum_members_are_named() {
    let f = Fixture::new();
    f.write("a.ts", "export enum Color { Red = \"r\", Green = \"g\", Blue = \"b\" }\nexport enum Level { Low, High }\nexport const c = Color.Red;\n");
    f.write(
        "b.ts",
        "import { Color, Level } from \"./a\";\nexport const d: Color = Color.Red;\nexport const l = Level.High;\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 3
        > Show Variable Color.Red
        Ok: At 0:20, Txt Red = "r"
        > Show Variable Level.High
        Ok: At 1:25, Txt High
        > Refactor RenameSymbol Color.Red Crimson
        Ok, Renamed in 2 files (a.ts, b.ts), 3 references updated
        > Refactor RenameSymbol Level.High Top
        Ok, Renamed in 2 files (a.ts, b.ts), 2 references updated
        "#,
    );
    assert!(f.read("b.ts").contains("Color.Crimson") && f.read("b.ts").contains("Level.Top"));
    f.accepted("tsc", &["--noEmit", "--strict", "a.ts", "b.ts"]);
}

/// Go: an import without a name binds the package by its package clause,
/// which need not be its path's last element (`example.com/u2/bar` of
/// `package baz`): `baz.G()` is found and renamed (before: 0 references,
/// and the rename answered `Ok` with `baz.G` left).
#[test]
fn go_packages_are_named_by_their_package_clause() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/u2\n\ngo 1.19\n");
    f.write("bar/x.go", "package baz\n\nfunc G() int { return 2 }\n");
    f.write(
        "m.go",
        "package u2\n\nimport \"example.com/u2/bar\"\n\nfunc X() int { return baz.G() }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find Callers G
        Ok: Found 1 caller, with lines, Txt m.go:4:26 in u2.X: func X() int { return baz.G() }
        > Refactor RenameSymbol G H
        Ok, Renamed in 2 files (bar/x.go, m.go), 2 references updated
        "#,
    );
    assert!(f.read("m.go").contains("return baz.H()"));
    f.accepted("go", &["vet", "./..."]);
}

/// Go: a dot import declares its package's exported names in the
/// importing file: a package-level name of either package may not become
/// one of the other's (before: `Ok`, then "already declared through
/// dot-import").
#[test]
fn go_dot_imports_are_name_conflicts() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/m6\n\ngo 1.19\n");
    f.write(
        "a/a.go",
        "package a\n\nconst Size = 4\n\nfunc Sum(x, y int) int { return x + y }\n",
    );
    f.write("c/c.go", "package c\n\nfunc Helper() int { return 1 }\n");
    f.write(
        "c/d.go",
        "package c\n\nimport . \"example.com/m6/a\"\n\nfunc D() int { return Size }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol a.Sum Helper
        Fail "Name conflict exists: c/d.go dot-imports \"example.com/m6/a\", and its own package declares Helper (c/c.go): Go forbids a package-level name a dot import of a file of the package declares (Helper already declared through dot-import); choose another name"
        > Refactor RenameSymbol c.Helper Sum
        Fail "Name conflict exists: c/d.go dot-imports \"example.com/m6/a\", and that package declares Sum (a/a.go): Go forbids a package-level name a dot import of a file of the package declares (Sum already declared through dot-import); choose another name"
        > Refactor RenameSymbol c.Helper Other
        Ok, Renamed in 1 file (c/c.go), 1 reference updated
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
}

/// Go: a method renamed with `Include Possible` renames an interface's
/// method of the name, and the calls through the interface with it
/// (before: `l.Label()` was left, and vet failed).
#[test]
fn go_an_interfaces_calls_follow_its_method_included() {
    let f = Fixture::new();
    f.write("go.mod", "module m2\n\ngo 1.19\n");
    f.write(
        "a.go",
        "package m2\n\ntype T struct{ Name string }\n\nfunc (t T) Label() string { return t.Name }\n\ntype Labeler interface{ Label() string }\n\nfunc Show(l Labeler) string { return l.Label() }\n\nfunc Run() string { return Show(T{Name: \"x\"}) }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol T.Label Title Include Possible
        Ok, Renamed in 1 file (a.go), 3 references updated, possible: 2 uses changed too (Include Possible): a.go:6:24 (m2.Labeler.Label has a member of the name, which may override it, be overridden by it or declare it for an interface), a.go:8:39 (a use of m2.Labeler.Label, renamed with it)
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
}

/// Rust: an `impl` of a type another module declares (`use kinds::Kind;
/// impl Kind { … }`) holds members of that type: `Kind::one()` and
/// `Self::Big` there are found and renamed (before: 0 references, and
/// the renames answered `Ok` with E0599).
#[test]
fn rust_impls_of_another_modules_type_hold_its_members() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "mod kinds {\n    pub enum Kind {\n        Big,\n    }\n}\nuse kinds::Kind;\n\nimpl Kind {\n    pub fn one() -> Self {\n        Self::Big\n    }\n}\n\npub fn two() {\n    let _k = Kind::one();\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References Kind.one
        Ok: Found 1 reference, with lines, Txt src/lib.rs:14:19: let _k = Kind::one();
        > Refactor RenameSymbol Kind.one uno
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        > Refactor RenameSymbol Kind.Big Large
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        "#,
    );
    assert!(
        f.read("src/lib.rs").contains("Self::Large")
            && f.read("src/lib.rs").contains("Kind::uno()")
    );
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// A bare name asked from the file that defines it as a function and as
/// a field (`func Vars`, `Match.Vars`) is the function (before: the
/// field, which the rename then renamed).
#[test]
fn a_bare_name_in_its_file_is_the_module_level_symbol() {
    let f = Fixture::new();
    f.write("go.mod", "module r1\n\ngo 1.19\n");
    f.write(
        "a.go",
        "package r1\n\ntype Match struct {\n\tVars map[string]string\n}\n\nfunc Vars(m *Match) map[string]string { return m.Vars }\n\nfunc Use(m *Match) int { return len(Vars(m)) }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.go
        Ok
        Ok, At 0:0, Length 9
        > Find Callers Vars
        Ok: Found 1 caller, with lines, Txt a.go:8:36 in r1.Use: func Use(m *Match) int { return len(Vars(m)) }
        > Refactor RenameSymbol Vars GetVars
        Ok, Renamed in 1 file (a.go), 2 references updated
        "#,
    );
    assert!(
        f.read("a.go").contains("return m.Vars }") && f.read("a.go").contains("len(GetVars(m))")
    );
    f.accepted("go", &["vet", "./..."]);
}

/// TypeScript: a `#private` field declared with a class (`#dep: Dep`)
/// types its reads, as a `private` one does: `this.#dep.run()` is
/// `Dep.run`'s (before: possible, and the rename refused).
#[test]
fn typescript_hash_private_fields_are_typed() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export class Dep { run() { return 1 } }\nexport class User {\n  #dep: Dep\n  private dep2: Dep\n  constructor() { this.#dep = new Dep(); this.dep2 = new Dep() }\n  go() { return this.#dep.run() + this.dep2.run() }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Dep.run exec
        Ok, Renamed in 1 file (a.ts), 3 references updated
        "#,
    );
    f.accepted(
        "tsc",
        &["--noEmit", "--strict", "--target", "es2022", "a.ts"],
    );
}

/// A JavaScript module's code and its declaration file beside it
/// (`util.js`, `util.d.ts`) are one module: renaming an export of one
/// lists the other's and its uses as possible, refused by default, all
/// renamed with `Include Possible` (before: `Ok`, and the two disagreed).
#[test]
fn a_module_and_its_declaration_file_are_renamed_together() {
    let f = Fixture::new();
    f.write("package.json", "{\"type\":\"module\"}\n");
    f.write(
        "lib/util.js",
        "export function add(a, b) { return a + b }\n",
    );
    f.write(
        "lib/util.d.ts",
        "export function add(a: number, b: number): number\n",
    );
    f.write(
        "app.ts",
        "import { add } from './lib/util'\nconsole.log(add(1, 2))\n",
    );
    f.write(
        "main.js",
        "import { add } from './lib/util.js'\nconsole.log(add(1, 2))\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open lib/util.js
        Ok
        Ok, At 0:0, Length 1
        > Refactor RenameSymbol add sum
        Fail "Cannot rename lib.util.add: 3 possible uses it cannot prove: app.ts:0:9 (lib/util.d.ts holds the same module's declarations), app.ts:1:12 (lib/util.d.ts holds the same module's declarations), lib/util.d.ts:0:16 (lib/util.d.ts holds the same module's declarations); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol add sum Include Possible
        Ok, Renamed in 4 files (app.ts, lib/util.d.ts, lib/util.js, main.js), 6 references updated, possible: 3 uses changed too (Include Possible): app.ts:0:9 (lib/util.d.ts holds the same module's declarations), app.ts:1:12 (lib/util.d.ts holds the same module's declarations), lib/util.d.ts:0:16 (lib/util.d.ts holds the same module's declarations)
        "#,
    );
    assert!(
        f.read("lib/util.d.ts").contains("function sum(") && f.read("app.ts").contains("sum(1, 2)")
    );
}

/// TypeScript: a module augmentation's declaration of the name
/// (`declare module './a' { interface Foo { … } }`) is merged with the
/// export: renamed with it (before: left, and tsc refused the result).
#[test]
fn typescript_module_augmentations_are_renamed_with_their_export() {
    let f = Fixture::new();
    f.write("src/a.ts", "export interface Foo { x: number }\n");
    f.write(
        "src/b.ts",
        "import type { Foo } from './a'\ndeclare module './a' {\n  interface Foo { y: string }\n}\nconst f: Foo = { x: 1, y: 'a' }\nexport { f }\n",
    );
    f.write(
        "tsconfig.json",
        "{\"compilerOptions\":{\"strict\":true,\"noEmit\":true,\"module\":\"esnext\",\"moduleResolution\":\"bundler\",\"target\":\"es2022\"},\"include\":[\"src\"]}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/a.ts
        Ok
        Ok, At 0:0, Length 1
        > Refactor RenameSymbol Foo Foo2
        Ok, Renamed in 2 files (src/a.ts, src/b.ts), 4 references updated
        "#,
    );
    assert!(f
        .read("src/b.ts")
        .contains("  interface Foo2 { y: string }"));
    f.accepted("tsc", &["-p", "."]);
}

/// Rust: a path through a type alias (`type K = Kind;`, `K::Big`,
/// `A::new()`) may name the class's member: possible, refused by default,
/// renamed with `Include Possible` (before: left with `Ok`, E0599).
#[test]
fn rust_paths_through_type_aliases_are_possible() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub enum Kind {\n    Big,\n}\npub type K = Kind;\n\npub struct S;\npub type A = S;\nimpl S {\n    pub fn new() -> Self {\n        S\n    }\n}\n\npub fn one() -> Kind {\n    let _s = A::new();\n    K::Big\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Kind.Big Large
        Fail "Cannot rename Kind.Big: 1 possible use it cannot prove: src/lib.rs:15:7 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Kind.Big Large Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated, possible: 1 use changed too (Include Possible): src/lib.rs:15:7 (the index cannot resolve it)
        > Refactor RenameSymbol S.new make Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated, possible: 1 use changed too (Include Possible): src/lib.rs:14:16 (the index cannot resolve it)
        "#,
    );
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Rust: a struct literal written with the name a `use … as` gives the
/// type (`use geo::Point as Pt;`, `Pt { x: 1 }`) has its keys: found and
/// renamed with the field (before: left with `Ok`, E0560).
#[test]
fn rust_struct_literals_under_an_imported_alias_have_keys() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod geo;\nuse geo::Point as Pt;\n\npub fn a() -> i32 {\n    let p = Pt { x: 1 };\n    p.x\n}\n",
    );
    f.write("src/geo.rs", "pub struct Point {\n    pub x: i32,\n}\n");
    f.check(
        "a",
        r#"
        > Start s; Open src/geo.rs
        Ok
        Ok, At 0:0, Length 3
        > Find References Point.x
        Ok: Found 2 references, with lines, Txt src/lib.rs:4:17: let p = Pt { x: 1 };\nsrc/lib.rs:5:6: p.x
        > Refactor RenameSymbol Point.x px
        Ok, Renamed in 2 files (src/geo.rs, src/lib.rs), 3 references updated
        "#,
    );
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// TypeScript: an import type (`import("./u").Opts`, `typeof
/// import("./u").helper`) reads the module's export, as the compiler
/// resolves it: found and renamed (before, left behind with `Ok`).
#[test]
fn typescript_import_types_are_uses() {
    let f = Fixture::new();
    f.write(
        "u.ts",
        "export interface Opts { n: number }\nexport function helper(o: Opts): number { return o.n; }\n",
    );
    f.write(
        "a.ts",
        "export function run(o: import(\"./u\").Opts): number {\n  return o.n;\n}\nexport type H = typeof import(\"./u\").helper;\nexport type Q = import(\"./u.js\").Opts[\"n\"];\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References helper
        Ok: Found 1 reference, with lines, Txt a.ts:3:37: export type H = typeof import("./u").helper;
        > Refactor RenameSymbol Opts Options
        Ok, Renamed in 2 files (a.ts, u.ts), 4 references updated
        > Refactor RenameSymbol helper help
        Ok, Renamed in 2 files (a.ts, u.ts), 2 references updated
        "#,
    );
    assert!(f.read("a.ts").contains("import(\"./u.js\").Options[\"n\"]"));
    f.accepted(
        "tsc",
        &[
            "--noEmit", "--strict", "--module", "nodenext", "a.ts", "u.ts",
        ],
    );
}

/// Go: an alias among a group's specs (`type ( A int; D = int )`) is its
/// own line, as the other specs are: deleting it keeps the group (before,
/// the group was taken for its declaration, being its only alias).
#[test]
fn go_an_alias_in_a_group_is_its_own_spec() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/t\n\ngo 1.19\n");
    f.write(
        "t.go",
        "package t\n\ntype (\n\tA int\n\tD = int\n\tE string\n)\n\nvar _ A\nvar _ E\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open t.go
        Ok
        Ok, At 0:0, Length 10
        > Show Class D
        Ok: At 4:1, Txt D = int
        > Delete Class D; Save
        Ok, Deleted 1 line at 4, At 4:0
        Ok, Bytes 54
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
}

/// Rust: a trait's method is not renamed in one file (its impls keep the
/// name: before, `Ok` and E0407); a method inserted with the cursor in a
/// trait's impl must be one the trait may hold — not `pub` (E0449), not a
/// name the trait, declared in the file, lacks (E0407) — else the reply
/// says to Goto the type first.
#[test]
fn rust_trait_methods_and_trait_impls_keep_to_the_trait() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub trait Area {\n    fn area(&self) -> u8;\n}\n\npub struct P;\n\nimpl Area for P {\n    fn area(&self) -> u8 {\n        1\n    }\n}\n\nimpl P {\n    pub fn get(&self) -> u8 {\n        2\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 17
        > Modify Method Area.area Rename surface
        Fail "Area.area is the trait's method: its implementations must keep its name, and they are not renamed in one file; rename it with them (Refactor RenameSymbol Area.area <new>)"
        > Goto Method P.area
        Ok, At 7:4
        > Insert Method "pub fn extra(&self) -> u8 { 0 }"
        Fail "Invalid code: the cursor is in impl Area for P, a trait's impl: a pub method cannot be in it (its items take the trait's visibility); Goto Class P first (its inherent impl block, or a new one)"
        > Insert Method "fn extra(&self) -> u8 { 0 }"
        Fail "Invalid code: the cursor is in impl Area for P, a trait's impl: the trait Area declares no method extra; Goto Class P first (its inherent impl block, or a new one)"
        > Goto Class P; Insert Method "pub fn extra(&self) -> u8 { 0 }"; Save
        Ok, At 4:0
        Ok, Inserted 2 lines at 16, At 18:0
        Ok, Bytes 219
        "#,
    );
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// B().bar()` then called `B.baz`. A name conflict; an unrelated class's
/// member of the name is none.
#[test]
fn new_names_a_class_of_the_lineage_has() {
    let f = Fixture::new();
    f.write(
        "a.js",
        "export class A {\n  foo() { return \"A.foo\"; }\n  bar() { return this.foo(); }\n}\nexport class B extends A {\n  baz() { return \"B.baz\"; }\n}\nexport class C {\n  qux() { return 1; }\n}\nconsole.log(new B().bar());\n",
    );
    f.write(
        "p/A.java",
        "package p;\n\npublic class A {\n    String foo() { return \"A.foo\"; }\n    String bar() { return foo(); }\n}\n\nclass B extends A {\n    String baz() { return \"B.baz\"; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol a.A.foo baz
        Fail "Name conflict exists: a.js:6 already defines B.baz in the lineage of A: renamed, one method would override the other; choose another name"
        > Refactor RenameSymbol a.B.baz bar
        Fail "Name conflict exists: a.js:3 already defines A.bar in the lineage of B: renamed, one method would override the other; choose another name"
        > Refactor RenameSymbol p.A.foo baz
        Fail "Name conflict exists: p/A.java:9 already defines B.baz in the lineage of A: renamed, one method would override the other; choose another name"
        > Refactor RenameSymbol a.A.foo qux
        Ok, Renamed in 1 file (a.js), 2 references updated
        "#,
    );
    f.accepted("node", &["a.js"]);
}

/// Rust: method calls reach a type's inherent method before its traits':
/// an inherent method renamed to a name a project trait the type
/// implements declares would take `p.baz()` from the trait (the rename
/// answered `Ok` and the program printed `inherent inherent`). A name
/// conflict.
#[test]
fn rust_inherent_methods_named_as_a_trait_method() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"tr\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/main.rs",
        "pub trait Tr {\n    fn baz(&self) -> &'static str {\n        \"trait\"\n    }\n}\n\npub struct P;\n\nimpl Tr for P {}\n\nimpl P {\n    pub fn foo(&self) -> &'static str {\n        \"inherent\"\n    }\n}\n\nfn main() {\n    let p: P = P;\n    println!(\"{} {}\", p.baz(), p.foo());\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol P.foo baz
        Fail "Name conflict exists: P implements the trait Tr, whose method baz (src/main.rs:2) its calls reach: renamed, they would call the inherent method instead; choose another name"
        > Refactor RenameSymbol P.foo qux
        Ok, Renamed in 1 file (src/main.rs), 2 references updated
        "#,
    );
    rustc_accepts(&f, "src/main.rs");
}

/// A new name code outside the project calls by (Go's `String` of
/// `fmt.Stringer`, Java's `toString`, JavaScript's `then`) changes what
/// that code does: `Describe` renamed `String` compiled, answered `Ok`,
/// and `fmt.Println(p)` printed `point` instead of `{1}`. Possible,
/// refused by default; another new name is renamed.
#[test]
fn new_names_code_outside_the_project_calls() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/p\n\ngo 1.19\n");
    f.write(
        "main.go",
        "package main\n\nimport \"fmt\"\n\ntype Point struct{ X int }\n\nfunc (p Point) Describe() string { return \"point\" }\n\nfunc main() {\n\tp := Point{1}\n\tfmt.Println(p, p.Describe())\n}\n",
    );
    f.write(
        "task.js",
        "export class Task {\n  finish(done) {\n    return done(1);\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Point.Describe String
        Fail "Cannot rename main.Point.Describe: 1 possible use it cannot prove: main.go:6:15 (code outside the project calls the new name String through fmt.Stringer: renamed, the method changes what that code does); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Task.finish then
        Fail "Cannot rename task.Task.finish: 1 possible use it cannot prove: task.js:1:2 (code outside the project calls the new name then through the thenable protocol (await, Promise.resolve): renamed, the method changes what that code does); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Point.Describe Label
        Ok, Renamed in 1 file (main.go), 2 references updated
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
}

/// TypeScript's types are structural: an object literal with a key of
/// the member's name may be a value of the type. Declared as the type
/// (`const s: Shape = {…}`, `{…} as Shape`), its key is renamed (a
/// shorthand keeps its value); elsewhere it is possible, refused by
/// default (the rename answered `Ok` and `tsc` refused the project).
#[test]
fn typescript_object_literals_may_be_values_of_the_type() {
    let f = Fixture::new();
    f.write(
        "tsconfig.json",
        "{\"compilerOptions\":{\"strict\":true,\"noEmit\":true,\"target\":\"es2020\"}}",
    );
    f.write(
        "shape.ts",
        "export interface Shape {\n  area(): number;\n}\n\nexport function total(shapes: Shape[]): number {\n  return shapes.reduce((sum, s: Shape) => sum + s.area(), 0);\n}\n",
    );
    f.write(
        "use.ts",
        "import { Shape, total } from \"./shape\";\n\nconst square: Shape = { area() { return 4; } };\nconst circle = { area: () => 3 };\nconst area = () => 5;\nconst tri = { area } as Shape;\nconsole.log(total([square, circle, tri]));\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Shape.area size
        Fail "Cannot rename shape.Shape.area: 1 possible use it cannot prove: use.ts:3:17 (an object literal's key of the name: the object may be a Shape (types are structural)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Shape.area size Include Possible
        Ok, Renamed in 2 files (shape.ts, use.ts), 5 references updated, possible: 1 use changed too (Include Possible): use.ts:3:17 (an object literal's key of the name: the object may be a Shape (types are structural))
        "#,
    );
    assert!(f.read("use.ts").contains(
        "const square: Shape = { size() { return 4; } };\nconst circle = { size: () => 3 };\nconst area = () => 5;\nconst tri = { size: area } as Shape;"
    ));
    f.accepted("tsc", &["-p", "."]);
}

/// A class deriving from a type outside the project (directly, or
/// through the project's classes) may override that type's method of the
/// name, which code there calls by it: renaming `Worker.run` of a
/// `Thread` compiles and no longer runs. Such a method is possible; a
/// private or (Java) static one overrides nothing, nor does a method of a
/// class whose supertypes are all the project's.
#[test]
fn methods_of_classes_deriving_from_outside_types() {
    let f = Fixture::new();
    f.write(
        "src/a/Worker.java",
        "package a;\n\npublic class Worker extends Thread {\n    public void run() {\n        tick();\n    }\n\n    private void tick() {\n    }\n\n    static int count() {\n        return 1;\n    }\n}\n",
    );
    f.write(
        "src/a/Late.java",
        "package a;\n\nclass Late extends Worker {\n    public void pause() {\n    }\n}\n",
    );
    f.write(
        "src/a/Own.java",
        "package a;\n\nclass Own {\n    void step() {\n    }\n}\n\nclass Mine extends Own {\n    void jump() {\n        step();\n    }\n}\n",
    );
    f.write(
        "web/view.ts",
        "import { EventEmitter } from \"events\";\n\nexport class Bus extends EventEmitter {\n  fire() {\n    return this.relay();\n  }\n\n  private relay() {\n    return 1;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Worker.run execute
        Fail "Cannot rename a.Worker.run: 1 possible use it cannot prove: src/a/Worker.java:3:16 (Worker derives from Thread, outside the project, whose method of the name it may override (code there calls it by that name)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Late.pause hold
        Fail "Cannot rename a.Late.pause: 1 possible use it cannot prove: src/a/Late.java:3:16 (Late derives from Thread, outside the project, whose method of the name it may override (code there calls it by that name)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Bus.fire emit2
        Fail "Cannot rename web.view.Bus.fire: 1 possible use it cannot prove: web/view.ts:3:2 (Bus derives from EventEmitter, outside the project, whose method of the name it may override (code there calls it by that name)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Worker.tick beat
        Ok, Renamed in 1 file (src/a/Worker.java), 2 references updated
        > Refactor RenameSymbol Worker.count total
        Ok, Renamed in 1 file (src/a/Worker.java), 1 reference updated
        > Refactor RenameSymbol Mine.jump leap
        Ok, Renamed in 1 file (src/a/Own.java), 1 reference updated
        > Refactor RenameSymbol Bus.relay pass
        Ok, Renamed in 1 file (web/view.ts), 2 references updated
        "#,
    );
    assert!(f
        .read("src/a/Worker.java")
        .contains("public void run() {\n        beat();"));
}

/// Rust types inherit nothing: `self` in another type's `impl` is that
/// type, and another type's own method of the name is not a site; a
/// trait's method of the name is (a type implementing it reaches it by
/// that name), and `self` in a trait's body may be any implementor.
#[test]
fn rust_members_of_other_types_and_traits() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"shapes\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub struct A;\npub struct B;\n\npub trait Named {\n    fn label(&self) -> u32;\n\n    fn shout(&self) -> u32 {\n        self.label() + 1\n    }\n}\n\nimpl A {\n    pub fn size(&self) -> u32 {\n        1\n    }\n\n    pub fn twice(&self) -> u32 {\n        self.size() * 2\n    }\n\n    pub fn label(&self) -> u32 {\n        3\n    }\n}\n\nimpl B {\n    pub fn size(&self) -> u32 {\n        2\n    }\n\n    pub fn twice(&self) -> u32 {\n        self.size() * 2\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol A.size len
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        > Refactor RenameSymbol A.label tag
        Fail "Cannot rename A.label: 2 possible uses it cannot prove: src/lib.rs:4:7 (Named.label has a member of the name, which may override it, be overridden by it or declare it for an interface), src/lib.rs:7:13 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    let text = f.read("src/lib.rs");
    assert!(text.contains("self.len() * 2") && text.contains("self.size() * 2"));
}

/// Java: a class named through its package in code (`com.acme.lib.Cart d
/// = new com.acme.lib.Cart();`, `com.acme.lib.Cart.twice(1)`) is the
/// class's use, and a member read through a value so declared is the
/// class's member: both were read as another class's (the rename answered
/// `Ok`, renamed the imports alone, and javac refused the project). A
/// static member read through the class so named is the class's too (it
/// was possible). A nested class's `Map.Entry`-like name keeps its
/// reading.
#[test]
fn java_classes_named_through_their_package() {
    let f = Fixture::new();
    f.write(
        "lib/src/main/java/com/acme/lib/Cart.java",
        "package com.acme.lib;\n\npublic class Cart {\n    private int total;\n\n    public void add(int x) {\n        total += x;\n    }\n\n    public int total() {\n        return total;\n    }\n\n    public static int twice(int x) {\n        return x * 2;\n    }\n}\n",
    );
    f.write(
        "app/src/main/java/com/acme/app/Main.java",
        "package com.acme.app;\n\nimport com.acme.lib.Cart;\n\npublic class Main {\n    public static void main(String[] args) {\n        Cart c = new Cart();\n        c.add(2);\n        System.out.println(c.total() + com.acme.lib.Cart.twice(1) + Other.run());\n    }\n}\n",
    );
    f.write(
        "app/src/main/java/com/acme/app/Other.java",
        "package com.acme.app;\n\nimport java.util.Map;\n\npublic class Other {\n    public static int run() {\n        com.acme.lib.Cart d = new com.acme.lib.Cart();\n        d.add(1);\n        Map.Entry<String, Integer> e = Map.entry(\"a\", 1);\n        return d.total() + e.getValue();\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Cart.add put
        Ok, Renamed in 3 files (app/src/main/java/com/acme/app/Main.java, app/src/main/java/com/acme/app/Other.java, lib/src/main/java/com/acme/lib/Cart.java), 3 references updated
        > Find References Cart.twice
        Ok: Found 1 reference, with lines, Txt app/src/main/java/com/acme/app/Main.java:8:57: System.out.println(c.total() + com.acme.lib.Cart.twice(1) + Other.run());
        > Refactor RenameSymbol Cart.twice doubled
        Ok, Renamed in 2 files (app/src/main/java/com/acme/app/Main.java, lib/src/main/java/com/acme/lib/Cart.java), 2 references updated
        > Refactor RenameSymbol Cart Basket
        Ok, Renamed in 3 files (app/src/main/java/com/acme/app/Main.java, app/src/main/java/com/acme/app/Other.java, lib/src/main/java/com/acme/lib/Cart.java), 7 references updated
        "#,
    );
    let other = f.read("app/src/main/java/com/acme/app/Other.java");
    assert!(
        other.contains("com.acme.lib.Basket d = new com.acme.lib.Basket();\n        d.put(1);"),
        "{other}"
    );
    assert!(f
        .read("app/src/main/java/com/acme/app/Main.java")
        .contains("com.acme.lib.Basket.doubled(1)"));
    f.accepted(
        "javac",
        &[
            "-d",
            "classes",
            "lib/src/main/java/com/acme/lib/Basket.java",
            "app/src/main/java/com/acme/app/Main.java",
            "app/src/main/java/com/acme/app/Other.java",
        ],
    );
}

/// A monorepo's npm workspaces: a bare specifier naming a package of the
/// project (`@acme/lib`, its `package.json` `"types": "src/index.ts"`)
/// reaches that entry: `lib.total(…)` through a namespace import and the
/// named import are certain, and renamed (`lib.total` was no use at all:
/// the rename answered `Ok` and tsc refused the app). A package whose
/// entry is a build's output the project does not have (`"main":
/// "dist/index.js"`) keeps its uses possible.
#[test]
fn es_packages_of_a_monorepo_are_followed() {
    let f = Fixture::new();
    f.write(
        "package.json",
        "{\"name\": \"mono\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n",
    );
    f.write(
        "packages/lib/package.json",
        "{\"name\": \"@acme/lib\", \"types\": \"src/index.ts\", \"main\": \"src/index.ts\"}\n",
    );
    f.write(
        "packages/lib/src/index.ts",
        "export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n\nexport class Cart {\n  items: number[] = [];\n  add(x: number): void {\n    this.items.push(x);\n  }\n}\n",
    );
    f.write(
        "packages/util/package.json",
        "{\"name\": \"@acme/util\", \"main\": \"dist/index.js\", \"types\": \"dist/index.d.ts\"}\n",
    );
    f.write(
        "packages/util/src/index.ts",
        "export function twice(x: number): number {\n  return x * 2;\n}\n",
    );
    f.write("packages/app/package.json", "{\"name\": \"@acme/app\"}\n");
    f.write(
        "packages/app/src/main.ts",
        "import * as lib from \"@acme/lib\";\nimport { Cart } from \"@acme/lib\";\nimport * as util from \"@acme/util\";\n\nconst c = new Cart();\nc.add(2);\nexport const shown = [lib.total(c.items), util.twice(2)];\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol total sum
        Ok, Renamed in 2 files (packages/app/src/main.ts, packages/lib/src/index.ts), 2 references updated
        > Refactor RenameSymbol Cart.add put
        Ok, Renamed in 2 files (packages/app/src/main.ts, packages/lib/src/index.ts), 2 references updated
        > Refactor RenameSymbol twice double
        Fail "Cannot rename packages.util.src.index.twice: 1 possible use it cannot prove: packages/app/src/main.ts:6:45 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    assert!(f
        .read("packages/app/src/main.ts")
        .contains("c.put(2);\nexport const shown = [lib.sum(c.items), util.twice(2)];"));
    // tsc reads the workspace as the package manager links it
    std::fs::create_dir_all(f.dir.path().join("node_modules/@acme")).unwrap();
    std::os::unix::fs::symlink(
        "../../packages/lib",
        f.dir.path().join("node_modules/@acme/lib"),
    )
    .unwrap();
    f.write(
        "packages/util/dist/index.d.ts",
        "export declare function twice(x: number): number;\n",
    );
    std::os::unix::fs::symlink(
        "../../packages/util",
        f.dir.path().join("node_modules/@acme/util"),
    )
    .unwrap();
    f.accepted(
        "tsc",
        &[
            "--noEmit",
            "--strict",
            "--moduleResolution",
            "node",
            "packages/app/src/main.ts",
        ],
    );
}

/// Go: a module of the project that another builds with — a `go.work`
/// that uses both, or a `replace example.com/lib => ../lib` in the
/// importer's `go.mod` — is followed: `lib.Total(…)` and `c.Add(2)` in
/// the importing module are the symbol's. They were no uses at all (an
/// import from outside the module): a rename answered `Ok`, renamed
/// `lib` alone, and `go build` of the app failed.
#[test]
fn go_modules_of_one_workspace_are_followed() {
    let f = Fixture::new();
    f.write("go.work", "go 1.19\n\nuse (\n\t./app\n\t./lib\n)\n");
    f.write("lib/go.mod", "module example.com/lib\n\ngo 1.19\n");
    f.write(
        "lib/lib.go",
        "package lib\n\n// Total sums.\nfunc Total(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n\ntype Cart struct{ Items []int }\n\nfunc (c *Cart) Add(x int) { c.Items = append(c.Items, x) }\n",
    );
    f.write("app/go.mod", "module example.com/app\n\ngo 1.19\n");
    f.write(
        "app/main.go",
        "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/lib\"\n)\n\nfunc main() {\n\tc := &lib.Cart{}\n\tc.Add(2)\n\tfmt.Println(lib.Total(c.Items))\n}\n",
    );
    f.write(
        "tool/go.mod",
        "module example.com/tool\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
    );
    f.write(
        "tool/tool.go",
        "package tool\n\nimport \"example.com/lib\"\n\n// Count sums a cart.\nfunc Count(c *lib.Cart) int { return lib.Total(c.Items) }\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol lib.Total Sum
        Ok, Renamed in 3 files (app/main.go, lib/lib.go, tool/tool.go), 3 references updated, not changed: 1 mention in strings and comments (lib/lib.go:2:3); Include Text changes them
        > Refactor RenameSymbol lib.Cart.Add Put
        Ok, Renamed in 2 files (app/main.go, lib/lib.go), 2 references updated
        "#,
    );
    assert!(f
        .read("app/main.go")
        .contains("c.Put(2)\n\tfmt.Println(lib.Sum(c.Items))"));
    assert!(f.read("tool/tool.go").contains("return lib.Sum(c.Items)"));
    f.accepted("go", &["build", "./app/...", "./lib/..."]);
}

/// Rust: a crate of the project that another depends on by path (`shop-core
/// = { path = "../core" }`, or `{ workspace = true }` with the path in
/// `[workspace.dependencies]`, or renamed with `package`) is followed:
/// `shop_core::Cart`, `use shop_core::{total, Cart}` and the re-export
/// `pub use cart::Cart` are certain, and a rename renames them (they were
/// possible: every rename across a workspace's crates was refused).
/// A dependency by version stays another crate's.
#[test]
fn rust_workspace_crates_depending_by_path_are_followed() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"core\", \"app\", \"tool\"]\nresolver = \"2\"\n\n[workspace.dependencies]\nshop-core = { path = \"core\" }\n",
    );
    f.write(
        "core/Cargo.toml",
        "[package]\nname = \"shop-core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "core/src/lib.rs",
        "pub mod cart;\npub use cart::Cart;\n\npub fn total(items: &[u32]) -> u32 {\n    items.iter().sum()\n}\n",
    );
    f.write(
        "core/src/cart.rs",
        "pub struct Cart {\n    pub items: Vec<u32>,\n}\n\nimpl Cart {\n    pub fn new() -> Self {\n        Cart { items: Vec::new() }\n    }\n\n    pub fn add(&mut self, x: u32) {\n        self.items.push(x);\n    }\n}\n",
    );
    f.write(
        "app/Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nshop-core = { workspace = true }\n",
    );
    f.write(
        "app/src/main.rs",
        "use shop_core::{total, Cart};\n\nfn main() {\n    let mut c = Cart::new();\n    c.add(2);\n    println!(\"{}\", total(&c.items));\n    let d = shop_core::cart::Cart::new();\n    println!(\"{}\", d.items.len());\n}\n",
    );
    f.write(
        "tool/Cargo.toml",
        "[package]\nname = \"tool\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nshop = { package = \"shop-core\", path = \"../core\" }\n",
    );
    f.write(
        "tool/src/lib.rs",
        "pub fn count(c: &shop::Cart) -> u32 {\n    shop::total(&c.items)\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol total grand_total
        Ok, Renamed in 3 files (app/src/main.rs, core/src/lib.rs, tool/src/lib.rs), 4 references updated
        > Refactor RenameSymbol Cart Basket
        Ok, Renamed in 4 files (app/src/main.rs, core/src/cart.rs, core/src/lib.rs, tool/src/lib.rs), 8 references updated
        > Refactor RenameSymbol Basket.add put
        Ok, Renamed in 2 files (app/src/main.rs, core/src/cart.rs), 2 references updated
        "#,
    );
    let app = f.read("app/src/main.rs");
    assert!(
        app.contains("use shop_core::{grand_total, Basket};"),
        "{app}"
    );
    assert!(app.contains("shop_core::cart::Basket::new()"), "{app}");
    assert!(app.contains("c.put(2);"), "{app}");
    let tool = f.read("tool/src/lib.rs");
    assert!(
        tool.contains("c: &shop::Basket") && tool.contains("shop::grand_total("),
        "{tool}"
    );
    f.accepted("cargo", &["check", "--quiet", "--offline", "--workspace"]);
    // each crate's names start with its directory: two crates' `lib.rs`
    // define no two symbols of one name (`core.count`, `tool.count`)
    f.write(
        "core/src/lib.rs",
        &format!(
            "{}\npub fn count() -> u32 {{\n    0\n}}\n",
            f.read("core/src/lib.rs")
        ),
    );
    let found = f.send("a", "Find Definition count");
    assert!(
        found.contains("function core.count") && found.contains("function tool.count"),
        "{found}"
    );
    assert_eq!(
        f.send("a", "Refactor RenameSymbol tool.count tally"),
        "Ok, Renamed in 1 file (tool/src/lib.rs), 1 reference updated"
    );
    f.accepted("cargo", &["check", "--quiet", "--offline", "--workspace"]);
}

/// Rust: a crate root's glob `use` (`pub use self::common::*;`) makes its
/// module's items the root's too: `use crate::{diff}` in another module
/// names the function, and its rename renames that import. `&Self` in an
/// `impl` block is the block's type: `rhs.empty()` is the method's use.
#[test]
fn rust_glob_reexports_and_self_typed_parameters() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"sim\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "mod common;\nmod text;\n\npub use self::common::*;\npub use self::text::Id;\n",
    );
    f.write("src/common.rs", "pub fn diff(a: u8) -> u8 {\n    a\n}\n");
    f.write(
        "src/text.rs",
        "use crate::{diff};\n\npub struct Id(u8);\n\nimpl Id {\n    fn empty(&self) -> bool {\n        diff(self.0) == 0\n    }\n}\n\nimpl PartialEq for Id {\n    fn eq(&self, rhs: &Self) -> bool {\n        self.empty() && rhs.empty()\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol diff compare
        Ok, Renamed in 2 files (src/common.rs, src/text.rs), 3 references updated
        > Refactor RenameSymbol Id.empty is_blank
        Ok, Renamed in 1 file (src/text.rs), 3 references updated
        "#,
    );
    let text = f.read("src/text.rs");
    assert!(text.contains("use crate::{compare};"), "{text}");
    assert!(text.contains("self.is_blank() && rhs.is_blank()"), "{text}");
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// A Rust function named as a module (`crate::rank::TABLE` names the
/// module `rank`, not the function `rank`) is renamed without that path.
#[test]
fn a_rust_function_named_as_a_module() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"lit\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write("src/lib.rs", "mod rank;\npub mod literal;\n");
    f.write("src/rank.rs", "pub const TABLE: [u8; 2] = [7, 9];\n");
    f.write(
        "src/literal.rs",
        "pub fn rank(byte: u8) -> u8 {\n    crate::rank::TABLE[usize::from(byte)]\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn ranks() {\n        assert_eq!(rank(1), 9);\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol literal.rank byte_rank
        Ok, Renamed in 1 file (src/literal.rs), 2 references updated
        "#,
    );
    assert_eq!(
        f.read("src/literal.rs"),
        "pub fn byte_rank(byte: u8) -> u8 {\n    crate::rank::TABLE[usize::from(byte)]\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn ranks() {\n        assert_eq!(byte_rank(1), 9);\n    }\n}\n"
    );
}

/// Rust: `Some(s)` or `Ok(s)` matched against a compact expression binds
/// what its `unwrap()` makes — `if let Some(s) = &self.opt`, `let Some(s)
/// = … else`, a `match` arm's — so a method through `s` is proven; a
/// value the index cannot type (`stack.pop()`) stays possible. Before,
/// each was possible and the rename refused.
#[test]
fn rust_values_some_and_ok_patterns_bind() {
    let f = Fixture::new();
    f.write(
        "src/main.rs",
        "struct Svc {\n    n: i32,\n}\n\nimpl Svc {\n    fn get(&self) -> i32 {\n        self.n\n    }\n}\n\nstruct Comp {\n    opt: Option<Svc>,\n}\n\nimpl Comp {\n    fn run(&self) -> i32 {\n        let mut t = 0;\n        if let Some(s) = &self.opt {\n            t += s.get();\n        }\n        match &self.opt {\n            Some(s) => t += s.get(),\n            None => {}\n        }\n        let Some(s) = &self.opt else { return t };\n        t + s.get()\n    }\n}\n\nfn main() {\n    let c = Comp { opt: Some(Svc { n: 1 }) };\n    println!(\"{}\", c.run());\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Svc.get fetch
        Ok, Renamed in 1 file (src/main.rs), 4 references updated
        "#,
    );
    assert!(f.read("src/main.rs").contains("Some(s) => t += s.fetch(),"));
    assert!(rustc_accepts(&f, "src/main.rs"));
}

/// A Rust function imported beside the module of its name (`mod compile;
/// use crate::compile::compile;`, fancy-regex): the first name of a path
/// (`compile::X`, `compile::Compiler::new()`) is the module's — a function
/// or a value heads no path — and stays as it is; a turbofish
/// (`convert::<u8>(…)`) is the function's. Before, the module's paths were
/// renamed with the function: `Ok`, and rustc refused (E0433).
#[test]
fn a_path_headed_by_a_module_is_not_the_function_of_its_name() {
    let f = Fixture::new();
    f.write(
        "src/main.rs",
        "mod compile;\n\nuse crate::compile::compile;\nuse crate::compile::convert;\n\nfn main() {\n    let c = compile::Compiler::new();\n    println!(\"{} {} {}\", compile(), compile::X + c.0, convert::<u8>(7));\n}\n",
    );
    f.write(
        "src/compile.rs",
        "pub const X: i32 = 1;\n\npub struct Compiler(pub i32);\n\nimpl Compiler {\n    pub fn new() -> Compiler {\n        Compiler(2)\n    }\n}\n\npub fn compile() -> i32 {\n    X\n}\n\npub fn convert<T: Into<i32>>(v: T) -> i32 {\n    v.into()\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol compile.compile build
        Ok, Renamed in 2 files (src/compile.rs, src/main.rs), 3 references updated
        > Refactor RenameSymbol compile.convert widen
        Ok, Renamed in 2 files (src/compile.rs, src/main.rs), 3 references updated
        "#,
    );
    let main = f.read("src/main.rs");
    assert!(
        main.contains("build(), compile::X + c.0, widen::<u8>(7)"),
        "{main}"
    );
    assert!(main.contains("let c = compile::Compiler::new();"), "{main}");
    assert!(rustc_accepts(&f, "src/main.rs"));
}

/// Rust: a method through `self`, through a value an associated function
/// returning `Self` made (`let s = Square::new(3)`, in `mod tests` after
/// `use super::*`), through a typed parameter of a type a glob import
/// brings from a re-exporting module, is proven; through a closure's
/// parameter of unknown type (`fold`'s, not its first argument) it is
/// possible: refused by default, never left silently.
#[test]
fn a_rust_path_the_index_does_not_resolve_is_possible() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"geo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod geo;\npub mod prelude;\npub mod shapes;\n",
    );
    f.write("src/prelude.rs", "pub use crate::geo::Square;\n");
    f.write(
        "src/geo.rs",
        "pub struct Square {\n    pub side: i32,\n}\n\nimpl Square {\n    pub fn new(side: i32) -> Self {\n        Square { side }\n    }\n\n    pub fn area(&self) -> i32 {\n        self.side * self.side\n    }\n\n    pub fn double(&self) -> i32 {\n        self.area() * 2\n    }\n}\n\npub fn total(squares: &[Square]) -> i32 {\n    squares.iter().fold(0, |t, s| t + s.area())\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn squares() {\n        let s = Square::new(3);\n        assert_eq!(s.area(), 9);\n    }\n}\n",
    );
    f.write(
        "src/shapes.rs",
        "pub mod unit {\n    use crate::prelude::*;\n\n    pub fn one(q: &Square) -> i32 {\n        q.area()\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Square.area size
        Fail "Cannot rename geo.Square.area: 1 possible use it cannot prove: src/geo.rs:19:40 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Square.area size Include Possible
        Ok, Renamed in 2 files (src/geo.rs, src/shapes.rs), 5 references updated, possible: 1 use changed too (Include Possible): src/geo.rs:19:40 (the index cannot resolve it)
        "#,
    );
    assert!(f
        .read("src/geo.rs")
        .contains("squares.iter().fold(0, |t, s| t + s.size())"));
    assert!(f.read("src/geo.rs").contains("assert_eq!(s.size(), 9);"));
    assert!(f.read("src/shapes.rs").contains("        q.size()"));
    let out = f.dir.path().join("lib.rmeta");
    f.accepted(
        "rustc",
        &[
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-o",
            out.to_str().unwrap(),
            "src/lib.rs",
        ],
    );
}

/// Names the language (or its toolchain) fixes are refused, in the file
/// and across the project, and nothing is written: a Java constructor (its
/// class's name), a JavaScript `constructor` and a method renamed to it,
/// the `main` a program starts at (Go, Rust's binaries, Java's `static
/// main`, whichever overload is asked for), Go's `init` and the functions
/// `go test` runs by their prefix. A test renamed within its prefix goes.
#[test]
fn names_the_language_fixes_are_refused() {
    let f = Fixture::new();
    let java = "package p;\n\npublic class A {\n  int x;\n  public A(int x) { this.x = x; }\n  public static void main(String[] args) { new A(1).main(2); }\n  void main(int n) {}\n}\n";
    let ts = "export class K {\n  constructor(public n: number) {}\n  size(): number { return this.n; }\n}\n";
    let go = "package main\n\nvar ready bool\n\nfunc init() { ready = true }\n\nfunc setup() { ready = !ready }\n\nfunc main() { setup() }\n";
    let go_test = "package main\n\nimport \"testing\"\n\nfunc TestSetup(t *testing.T) { setup() }\n\nfunc helperFor(t *testing.T) {}\n";
    let rust = "fn main() {\n    go();\n}\n\nfn go() {}\n";
    f.write("p/A.java", java);
    f.write("k.ts", ts);
    f.write("go.mod", "module ex.com/m\n\ngo 1.19\n");
    f.write("main.go", go);
    f.write("main_test.go", go_test);
    f.write("src/bin/tool.rs", rust);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol A.A B
        Fail "Cannot rename p.A.A: it is A's constructor, which Java names by its class; rename the class (Refactor RenameSymbol A <new>), and its constructors follow"
        > Refactor RenameSymbol A.main run
        Fail "Cannot rename p.A.main to 'run': `main` is where the program starts, called by that name from outside the code; keep `main` as it is and give other functions other names"
        > Open p/A.java; Modify Method A.A Rename B
        Ok, At 0:0, Length 8
        Fail "Cannot rename A.A: it is A's constructor, which Java names by its class; rename the class (Refactor RenameSymbol A <new>), and its constructors follow"
        > Refactor RenameSymbol K.constructor build
        Fail "Cannot rename k.K.constructor: it is K's constructor, which JavaScript names `constructor`; under another name it would be a plain method"
        > Open k.ts; Modify Method K.size Rename constructor
        Ok, At 0:0, Length 4
        Fail "Cannot rename K.size to 'constructor': that would make it K's constructor; give another name"
        > Refactor RenameSymbol main.main start
        Fail "Cannot rename main.main to 'start': `main` is where the program starts, called by that name from outside the code; keep `main` as it is and give other functions other names"
        > Refactor RenameSymbol setup init
        Fail "Cannot rename main.setup to 'init': Go runs every `init` when the package loads and no code may name one, so a rename changes when the code runs; give another name"
        > Open main.go; Modify Function init Rename boot
        Ok, At 0:0, Length 9
        Fail "Cannot rename init to 'boot': Go runs every `init` when the package loads and no code may name one, so a rename changes when the code runs; give another name"
        > Refactor RenameSymbol TestSetup checkSetup
        Fail "Cannot rename main.TestSetup to 'checkSetup': `go test` runs the functions of a test file named TestXxx, so the rename would add or drop one; keep the prefix Test on a Test function and off any other"
        > Refactor RenameSymbol helperFor TestHelper
        Fail "Cannot rename main.helperFor to 'TestHelper': `go test` runs the functions of a test file named TestXxx, so the rename would add or drop one; keep the prefix Test on a Test function and off any other"
        > Open src/bin/tool.rs; Modify Function main Rename start
        Ok, At 0:0, Length 5
        Fail "Cannot rename main to 'start': `main` is where the program starts, called by that name from outside the code; keep `main` as it is and give other functions other names"
        > Modify Function go Rename main
        Fail "Cannot rename go to 'main': `main` is where the program starts, called by that name from outside the code; keep `main` as it is and give other functions other names"
        > Refactor RenameSymbol TestSetup TestSetupTwice
        Ok, Renamed in 1 file (main_test.go), 1 reference updated
        "#,
    );
    assert_eq!(f.read("p/A.java"), java);
    assert_eq!(f.read("k.ts"), ts);
    assert_eq!(f.read("main.go"), go);
    assert_eq!(f.read("src/bin/tool.rs"), rust);
    f.accepted("go", &["vet", "./..."]);
}

/// `Delete Function|Class|Method` in a brace-language file names the uses
/// it leaves, in its file (where they stand after the delete) and in the
/// others; its own uses inside it (a recursive call) are not left.
#[test]
fn a_deleted_element_names_the_uses_it_leaves() {
    let f = Fixture::new();
    f.write("go.mod", "module ex.com/m\n\ngo 1.19\n");
    f.write(
        "a.go",
        "package main\n\n// helper adds.\n// It is documented.\nfunc helper(a, b int) int {\n\tif a > 9 {\n\t\treturn helper(a-1, b)\n\t}\n\treturn a + b\n}\n\n//go:noinline\nfunc other() int { return helper(1, 2) }\n\nfunc main() { _ = other() }\n",
    );
    f.write(
        "b.go",
        "package main\n\nfunc third() int { return helper(3, 4) + other() }\n",
    );
    f.write(
        "A.java",
        "public class A {\n  /** Doc. */\n  @Deprecated\n  public int f() { return 1; }\n\n  int g() { return f(); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.go
        Ok
        Ok, At 0:0, Length 15
        > Delete Function helper
        Ok, Deleted 9 lines at 1, At 1:0, still used: 2 references (a.go:3, b.go:2)
        > Undo; Delete Function main
        Ok, Undid 1, At 0:0
        Ok, Deleted 2 lines at 13, At 13:0
        > Open A.java; Delete Method A.f
        Ok, At 0:0, Length 7
        Ok, Deleted 4 lines at 1, At 1:0, still used: 1 reference (A.java:1)
        "#,
    );
}

/// Java's nested classes (found by the JPype sweep, `scripts/rename-sweep
/// java`): a nested type named in another nested class's `implements` or
/// `extends` is the outer class's member, renamed with it; a bare name in
/// an anonymous class's body may be a member it inherits; the members of
/// a nested class read through values of its type are its own (`for
/// (Inner one : all)`: `one.has(s)`). `javac` accepts what is renamed.
#[test]
fn java_nested_classes_and_anonymous_bodies() {
    let f = Fixture::new();
    f.write(
        "p/Outer.java",
        "package p;\n\nimport java.util.List;\n\npublic class Outer {\n  public interface Sup { int get(); }\n  public static class Impl implements Sup { public int get() { return 1; } }\n  public static class Sub extends Impl { }\n  static Sup make() { return new Impl(); }\n  static int size() { return 2; }\n  static Sup anon() {\n    return new Impl() {\n      public int get() { return size(); }\n    };\n  }\n  static class Inner {\n    boolean has(String s) { return true; }\n  }\n  static boolean any(List<Inner> all, String s) {\n    for (Inner one : all) {\n      if (one.has(s)) return true;\n    }\n    return false;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Outer.Sup Supplier
        Ok, Renamed in 1 file (p/Outer.java), 4 references updated
        > Refactor RenameSymbol Outer.Impl Base
        Ok, Renamed in 1 file (p/Outer.java), 4 references updated
        > Refactor RenameSymbol Outer.size count
        Fail "Cannot rename p.Outer.size: 1 possible use it cannot prove: p/Outer.java:12:32 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Outer.Inner.has holds
        Ok, Renamed in 1 file (p/Outer.java), 2 references updated
        "#,
    );
    f.accepted("javac", &["-d", "classes", "p/Outer.java"]);
}

const SHOP_ITEM_JAVA: &str = "package shop;

public class Item {
    public String label = \"\";

    public int weight() {
        return 1;
    }

    public Item next() {
        return this;
    }

    public int size() {
        return 0;
    }
}
";

const SHOP_BASE_JAVA: &str = "package shop;

import java.util.ArrayList;
import java.util.List;

public class Base {
    protected List<Item> items = new ArrayList<>();
    protected Item[] extra = {new Item()};

    public Item first() {
        return items.get(0);
    }

    public Item pick(int i) {
        return items.get(i);
    }

    public Item pick(int i, int j) {
        return items.get(i + j);
    }
}
";

const SHOP_CART_JAVA: &str = "package shop;

public class Cart extends Base {
    Cart self() {
        return this;
    }

    int total(Object o) {
        int n = 0;
        for (Item it : items) {
            n += it.weight();
        }
        for (var it : extra) {
            n += it.weight();
        }
        for (var it : this.items) {
            n += it.weight();
        }
        var made = new Item();
        n += made.weight() + first().weight() + this.first().weight();
        n += pick(1).weight() + pick(1, 2).weight() + ((Item) o).weight();
        n += self().first().next().weight() + extra[0].weight() + super.first().weight();
        return n;
    }
}
";

const SHOP_APP_JAVA: &str = "package shop;

public class App {
    static int run(Cart cart) {
        Base base = cart;
        return cart.first().weight() + base.first().next().weight() + cart.extra[0].weight();
    }
}
";

/// Java: a member through values whose types the project states — a
/// method's result (an inherited one, an overload told by its number of
/// arguments), a field's type, an element of an array or of a `List<T>`
/// (by a for-each loop, `var` or typed), `var x = new T()`, a cast,
/// `this`, `super`, a bare call of an inherited method — is certain, and
/// so is a method a subclass inherits through a typed name; `javac`
/// accepts the result.
#[test]
fn java_renames_members_through_results_fields_and_elements() {
    let f = Fixture::new();
    f.write("shop/Item.java", SHOP_ITEM_JAVA);
    f.write("shop/Base.java", SHOP_BASE_JAVA);
    f.write("shop/Cart.java", SHOP_CART_JAVA);
    f.write("shop/App.java", SHOP_APP_JAVA);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.weight mass
        Ok, Renamed in 3 files (shop/App.java, shop/Cart.java, shop/Item.java), 16 references updated
        > Refactor RenameSymbol Base.first head
        Ok, Renamed in 3 files (shop/App.java, shop/Base.java, shop/Cart.java), 7 references updated
        "#,
    );
    let cart = f.read("shop/Cart.java");
    assert!(cart.contains("n += made.mass() + head().mass() + this.head().mass();"));
    assert!(cart.contains("n += pick(1).mass() + pick(1, 2).mass() + ((Item) o).mass();"));
    assert!(
        cart.contains("n += self().head().next().mass() + extra[0].mass() + super.head().mass();")
    );
    assert!(f
        .read("shop/App.java")
        .contains("return cart.head().mass() + base.head().next().mass() + cart.extra[0].mass();"));
    assert!(f.accepted(
        "javac",
        &[
            "-d",
            "classes",
            "shop/Item.java",
            "shop/Base.java",
            "shop/Cart.java",
            "shop/App.java"
        ]
    ));
}

/// Java: what the declarations do not state keeps a member use possible
/// — a type parameter's value, a method a superclass from outside the
/// project may declare, overloads of one number of parameters, a
/// wildcard's element, a `java.util` method's result — and the rename is
/// refused, listing them.
#[test]
fn java_members_through_type_parameters_overloads_and_outside_types_stay_possible() {
    let f = Fixture::new();
    f.write("shop/Item.java", SHOP_ITEM_JAVA);
    f.write(
        "shop/Odd.java",
        "package shop;

import java.util.ArrayList;
import java.util.List;

class Box<T extends Item> {
    T value;

    T get() {
        return value;
    }

    int probe() {
        return value.weight() + get().weight();
    }
}

class Bag extends ArrayList<Item> {
    int probe() {
        return size() + this.size();
    }
}

class Over {
    Item at(int i) {
        return null;
    }

    Item at(String s) {
        return null;
    }

    int probe(List<? extends Item> wild, List<Item> list) {
        int n = at(1).weight() + list.get(0).weight();
        for (var it : wild) {
            n += it.weight();
        }
        return n;
    }
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.weight mass
        Fail "Cannot rename shop.Item.weight: 5 possible uses it cannot prove: shop/Odd.java:13:21 (the index cannot resolve it), shop/Odd.java:13:38 (the index cannot resolve it), shop/Odd.java:33:22 (the index cannot resolve it), shop/Odd.java:33:45 (the index cannot resolve it), shop/Odd.java:35:20 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Item.size count
        Fail "Cannot rename shop.Item.size: 2 possible uses it cannot prove: shop/Odd.java:19:15 (the index cannot resolve it), shop/Odd.java:19:29 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    assert!(f.accepted(
        "javac",
        &["-d", "classes", "shop/Item.java", "shop/Odd.java"]
    ));
}

const TREE_RS: &str = "pub struct Node {
    pub label: String,
}

impl Node {
    pub fn new() -> Self {
        Node { label: String::new() }
    }

    pub fn weight(&self) -> usize {
        self.label.len()
    }

    pub fn builder(&self) -> Node {
        Node::new()
    }
}

pub struct Tree {
    root: Box<Node>,
    nodes: Vec<Node>,
    pair: [Node; 2],
}

impl Tree {
    pub fn total(&self) -> usize {
        let mut n = self.root.weight() + Node::new().weight() + self.root.builder().weight();
        for node in &self.nodes {
            n += node.weight();
        }
        for node in self.pair.iter() {
            n += node.weight();
        }
        n + self.nodes[0].weight() + (*self.root).weight()
    }
}
";

/// rustc accepts a crate root (a binary's `main.rs`, a library's
/// `lib.rs`), its metadata only (`Fixture::accepted`: "not checked"
/// without rustc).
fn rustc_accepts(f: &Fixture, root: &str) -> bool {
    f.accepted(
        "rustc",
        &[
            "--edition",
            "2021",
            "--emit=metadata",
            "-o",
            "out.rmeta",
            root,
        ],
    )
}

fn rust_compiles(f: &Fixture, lib: &str) -> bool {
    let out = f.dir.path().join("lib.rmeta");
    f.accepted(
        "rustc",
        &[
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-o",
            out.to_str().unwrap(),
            lib,
        ],
    )
}

/// Rust: a member through values whose types the file states — a
/// struct's field (through `Box`), an element of a `Vec`, an array
/// (`for x in &v`, `.iter()`, an index), what an associated function or a
/// method returning `Self` or the type makes, a dereference — is
/// certain; rustc compiles the result.
#[test]
fn rust_renames_members_through_fields_elements_and_results() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"tree\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write("src/lib.rs", TREE_RS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.weight mass
        Ok, Renamed in 1 file (src/lib.rs), 8 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("n + self.nodes[0].mass() + (*self.root).mass()"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: what the file does not state keeps a member use possible — a
/// generic struct's field — and the rename is refused, listing them; a
/// loop's variable over a `Vec<Node>` parameter, and that `Vec`'s
/// `first().unwrap()`, are `Node`s (a closure's parameter of the name
/// hides the loop's variable in the closure alone).
#[test]
fn rust_members_through_generics_and_other_files_stay_possible() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"tree\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write("src/lib.rs", &format!("pub mod more;\n\n{TREE_RS}"));
    f.write(
        "src/more.rs",
        "use crate::{Node, Tree};

pub struct Wrap<T> {
    inner: T,
}

impl Wrap<Node> {
    pub fn probe(&self, tree: &Tree, all: Vec<Node>) -> usize {
        let mut n = self.inner.weight() + all.first().unwrap().weight();
        for node in &all {
            n += [1].iter().map(|node| node + 1).sum::<usize>();
            n += node.weight();
        }
        n + tree.total()
    }
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.weight mass
        Fail "Cannot rename Node.weight: 1 possible use it cannot prove: src/more.rs:8:31 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    assert!(rust_compiles(&f, "src/lib.rs"));
}

const LEAF_RS: &str = "pub struct Node {
    pub label: String,
}

impl Node {
    pub fn weight(&self) -> usize {
        self.label.len()
    }

    pub fn len(&self) -> usize {
        self.label.len()
    }
}

pub struct Leaf;

impl Leaf {
    pub fn make() -> Leaf {
        Leaf
    }

    pub fn weight(&self) -> usize {
        1
    }
}

pub fn make_leaf() -> Leaf {
    Leaf
}

pub fn sum(node: &Node, name: &str) -> usize {
    let leaf = Leaf::make();
    leaf.weight() + name.len() + node.weight() + node.len()
}
";

/// Rust: a local whose type the crate states is read by that type — what
/// another type's associated function makes (`Leaf::make()`), a
/// primitive (`name: &str`) — so its members are another's; a typed
/// parameter hidden by a closer binding of unknown type (`let node =
/// identity(make_leaf());`) is no longer read as typed: the rename of
/// `Leaf.weight` answered `Ok` and left `node.weight()` calling the
/// renamed method by its old name.
#[test]
fn rust_locals_read_by_their_innermost_binding() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"leaf\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write("src/lib.rs", LEAF_RS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.weight mass
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        > Refactor RenameSymbol Node.len size
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("leaf.weight() + name.len() + node.mass() + node.size()"));
    assert!(rust_compiles(&f, "src/lib.rs"));

    let hidden = Fixture::new();
    hidden.write(
        "src/lib.rs",
        &format!("{LEAF_RS}\npub fn hidden(node: &Node) -> usize {{\n    let node = std::convert::identity(make_leaf());\n    node.weight()\n}}\n"),
    );
    hidden.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Leaf.weight heft
        Fail "Cannot rename Leaf.weight: 1 possible use it cannot prove: src/lib.rs:37:9 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Open src/lib.rs
        Ok, At 0:0, Length 39
        > Modify Method Leaf.weight Rename heft
        Fail "Cannot rename Leaf.weight in this file: 1 use may name it through a value of unknown type (at 37:9); Refactor RenameSymbol Leaf.weight heft Include Possible renames them too, Only Proven leaves them"
        "#,
    );
}

/// Rust: a type written through its module (`span: &ast::Span`, `let s =
/// ast::Span { … }`, `crate::ast::Span`) is that module's type, found
/// where the module's path leads: members through it are certain,
/// another module's type's are not the symbol's; an associated type
/// (`T::Pos`) is unknown, its member possible. A field's read (`s.len`)
/// never names a method; a method's call with a turbofish
/// (`s.pick::<u8>()`, `s` a closure's parameter over a `Vec<ast::Span>`'s
/// items) is the method's.
#[test]
fn rust_types_written_through_their_modules() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"spans\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod ast;\npub mod hir;\n\npub trait Tr {\n    type Pos;\n}\n\npub fn width(span: &ast::Span, other: &hir::Span) -> usize {\n    let s = ast::Span { start: 1, end: 2 };\n    span.len() + s.len() + other.len()\n}\n\npub fn far<T: Tr<Pos = ast::Span>>(p: T::Pos) -> usize {\n    p.len()\n}\n\npub struct Stats {\n    pub len: usize,\n}\n\npub fn lens(all: Vec<Stats>, span: crate::ast::Span) -> usize {\n    all.iter().map(|s| s.len).sum::<usize>() + span.len()\n}\n\npub fn picks(all: Vec<ast::Span>) -> u8 {\n    all.iter().map(|s| s.pick::<u8>()).sum()\n}\n",
    );
    f.write(
        "src/ast.rs",
        "pub struct Span {\n    pub start: usize,\n    pub end: usize,\n}\n\nimpl Span {\n    pub fn len(&self) -> usize {\n        self.end - self.start\n    }\n\n    pub fn pick<T: Default>(&self) -> T {\n        T::default()\n    }\n}\n",
    );
    f.write(
        "src/hir.rs",
        "pub struct Span;\n\nimpl Span {\n    pub fn len(&self) -> usize {\n        0\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol ast.Span.len size
        Fail "Cannot rename ast.Span.len: 1 possible use it cannot prove: src/lib.rs:13:6 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol ast.Span.len size Only Proven
        Ok, Renamed in 2 files (src/ast.rs, src/lib.rs), 4 references updated, may be broken at: 1 possible use left unchanged (Only Proven): src/lib.rs:13:6 (the index cannot resolve it)
        > Refactor RenameSymbol ast.Span.pick choose
        Ok, Renamed in 2 files (src/ast.rs, src/lib.rs), 2 references updated
        "#,
    );
    assert!(f.read("src/lib.rs").contains("map(|s| s.choose::<u8>())"));
    assert!(f
        .read("src/lib.rs")
        .contains("span.size() + s.size() + other.len()"));
    assert!(f
        .read("src/lib.rs")
        .contains("map(|s| s.len).sum::<usize>() + span.size()"));
}

/// Rust: the names a variant's or a struct's pattern binds are of the
/// types its fields are declared with (`Node::Leaf(ref text)`, `Self::Leaf(text)`,
/// `Node::Inner { ref info, .. }`), a tuple struct's field by position
/// (`info.1`), an element of a method's slice result (`node.infos()[0]`),
/// `Some(x)` matching an `Option<&Text>` parameter: members through them
/// are certain; rustc compiles the result.
#[test]
fn rust_pattern_bindings_are_of_their_fields_types() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct Text {
    pub s: String,
}

impl Text {
    pub fn size(&self) -> usize {
        self.s.len()
    }
}

pub struct Info(pub usize, pub Text);

pub enum Node {
    Leaf(Text),
    Inner { kids: Vec<Node>, info: Info },
}

impl Node {
    pub fn infos(&self) -> &[Info] {
        match self {
            Node::Leaf(_) => &[],
            Node::Inner { info, .. } => std::slice::from_ref(info),
        }
    }

    pub fn total(&self) -> usize {
        match *self {
            Node::Leaf(ref text) => text.size(),
            Node::Inner { ref kids, ref info } => info.1.size() + kids.len(),
        }
    }

    pub fn first(&self) -> usize {
        if let Self::Leaf(text) = self {
            text.size() + self.infos()[0].1.size()
        } else {
            0
        }
    }
}

pub fn maybe(t: Option<&Text>) -> usize {
    match t {
        Some(x) => x.size(),
        None => 0,
    }
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Text.size measure
        Ok, Renamed in 1 file (src/lib.rs), 6 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("text.measure() + self.infos()[0].1.measure()"));
    assert!(f.read("src/lib.rs").contains("Some(x) => x.measure(),"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: a type that implements `Deref` reaches its target's methods it
/// does not declare — `h.weight()` and `self.weight()` in its `impl` may
/// be the target's (they were another type's, and the rename of
/// `Node.weight` answered `Ok` on a crate rustc refused; in one file
/// too) —; `x.clone()`
/// is of `x`'s type, `Vec::new()` a `Vec` (its `push` no type's of the
/// crate).
#[test]
fn rust_dereferences_clones_and_prelude_collections() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "use std::ops::Deref;

#[derive(Clone)]
pub struct Node {
    pub label: String,
}

impl Node {
    pub fn weight(&self) -> usize {
        self.label.len()
    }

    pub fn push(&mut self, c: char) {
        self.label.push(c)
    }
}

pub struct Handle {
    node: Node,
}

impl Deref for Handle {
    type Target = Node;

    fn deref(&self) -> &Node {
        &self.node
    }
}

impl Handle {
    pub fn size(&self) -> usize {
        self.weight()
    }
}

pub fn total(h: &Handle, n: &Node) -> usize {
    let mut names = Vec::new();
    names.push('a');
    let copy = n.clone();
    h.weight() + copy.weight() + names.len()
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.push append
        Ok, Renamed in 1 file (src/lib.rs), 1 reference updated
        > Refactor RenameSymbol Node.weight mass
        Fail "Cannot rename Node.weight: 2 possible uses it cannot prove: src/lib.rs:31:13 (the index cannot resolve it), src/lib.rs:39:6 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Open src/lib.rs
        Ok, At 0:0, Length 41
        > Modify Method Node.weight Rename mass
        Fail "Cannot rename Node.weight in this file: 3 uses may name it through a value of unknown type (at 31:13, 39:6, 39:22); Refactor RenameSymbol Node.weight mass Include Possible renames them too, Only Proven leaves them"
        > Refactor RenameSymbol Node.weight mass Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 4 references updated, possible: 2 uses changed too (Include Possible): src/lib.rs:31:13 (the index cannot resolve it), src/lib.rs:39:6 (the index cannot resolve it)
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("h.mass() + copy.mass() + names.len()"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: a member in a macro's tokens read through a chain of calls
/// (`assert_eq!(t.kid().size(), …)`, `format!("{}", o.kid().size())`)
/// is typed as the same chain in code: certain, or another type's;
/// rustc compiles the result.
#[test]
fn rust_chains_in_macro_arguments() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct Text {
    pub s: String,
}

impl Text {
    pub fn size(&self) -> usize {
        self.s.len()
    }

    pub fn kid(&self) -> Text {
        Text { s: String::new() }
    }
}

pub struct Other;

impl Other {
    pub fn size(&self) -> usize {
        0
    }

    pub fn kid(&self) -> Other {
        Other
    }
}

pub fn check(t: &Text, o: &Other) -> String {
    assert_eq!(t.kid().size(), o.kid().size());
    format!(\"{} {}\", t.kid().size(), o.kid().size())
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Text.size measure
        Ok, Renamed in 1 file (src/lib.rs), 3 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("assert_eq!(t.kid().measure(), o.kid().size());"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: a generic struct's fields are read with its type parameters
/// unknown (`ranges: Vec<I>` is a `Vec` of elements of no type the index
/// reads): a method called on a `Vec`, a `String` or an `Option` (the
/// prelude's, or `alloc`'s imported) is no type's of the crate, an
/// element's stays possible; rustc compiles the result.
#[test]
fn rust_prelude_holders_and_generic_fields() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "extern crate alloc;

use alloc::string::String;

pub struct Item;

impl Item {
    pub fn push(&self) {}

    pub fn first(&self) -> usize {
        1
    }
}

pub struct Set<I> {
    ranges: Vec<I>,
    name: String,
}

impl<I> Set<I> {
    pub fn add(&mut self, i: I) -> Option<&I> {
        self.ranges.push(i);
        self.name.push('a');
        self.ranges.first()
    }
}

impl Set<Item> {
    pub fn head(&self) -> usize {
        self.ranges[0].first()
    }
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.push put
        Ok, Renamed in 1 file (src/lib.rs), 1 reference updated
        > Refactor RenameSymbol Item.first top
        Fail "Cannot rename Item.first: 1 possible use it cannot prove: src/lib.rs:29:23 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Item.first top Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated, possible: 1 use changed too (Include Possible): src/lib.rs:29:23 (the index cannot resolve it)
        "#,
    );
    assert!(f.read("src/lib.rs").contains("self.ranges.first()"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: the names `let (a, b) = e` binds are of the elements of the
/// tuple `e`'s type holds (`n.pair()` returns `(&str, &Node)`), a
/// result written with `Self` (`-> &[Self]`) holds the `impl`'s type,
/// an `Option`'s `unwrap()` and `?` make what it holds, a slice's
/// `last()` an `Option` of an element: members through them are
/// certain; rustc compiles the result.
#[test]
fn rust_tuples_destructured_and_self_in_results() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct Node {
    kids: Vec<Node>,
    label: String,
}

impl Node {
    pub fn kids(&self) -> &[Self] {
        &self.kids
    }

    pub fn pair(&self) -> (&str, &Node) {
        (&self.label, self)
    }

    pub fn top(&self) -> Option<&Node> {
        self.kids.first()
    }

    pub fn weight(&self) -> usize {
        self.label.len()
    }
}

pub fn total(n: &Node) -> usize {
    let (label, node) = n.pair();
    n.kids()[0].weight() + node.weight() + label.len()
}

pub fn ends(n: &Node) -> Option<usize> {
    Some(n.top().unwrap().weight() + n.top()?.weight() + n.kids().last()?.weight())
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.weight mass
        Ok, Renamed in 1 file (src/lib.rs), 6 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("n.kids()[0].mass() + node.mass() + label.len()"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: what a function of the crate returns types its call (`props(1).count()`,
/// `let p = props(2)`); a local of the name (a closure) hides the
/// function, and its result stays unknown; rustc compiles the result.
#[test]
fn rust_function_results() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct Props {
    n: usize,
}

impl Props {
    pub fn count(&self) -> usize {
        self.n
    }
}

pub struct Other;

impl Other {
    pub fn count(&self) -> usize {
        0
    }
}

fn props(n: usize) -> Props {
    Props { n }
}

fn other() -> Other {
    Other
}

pub fn total() -> usize {
    let p = props(2);
    props(1).count() + p.count() + other().count()
}

pub fn hidden() -> usize {
    let props = |_n: usize| Other;
    props(1).count()
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Props.count size
        Fail "Cannot rename Props.count: 1 possible use it cannot prove: src/lib.rs:33:13 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Props.count size Only Proven
        Ok, Renamed in 1 file (src/lib.rs), 3 references updated, may be broken at: 1 possible use left unchanged (Only Proven): src/lib.rs:33:13 (the index cannot resolve it)
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("props(1).size() + p.size() + other().count()"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: a struct with a field and a method of one name (`utf8`): the
/// two are apart, and `Builder.utf8` (its first definition, the field)
/// renames the field and its reads, never the method's calls (`.utf8(`);
/// rustc compiles the result.
#[test]
fn rust_field_and_method_of_one_name() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct Builder {
    utf8: bool,
}

impl Builder {
    pub fn utf8(&mut self, yes: bool) -> &mut Builder {
        self.utf8 = yes;
        self
    }
}

pub struct Parser {
    b: Builder,
}

impl Parser {
    pub fn set(&mut self) -> bool {
        self.b.utf8(true).utf8
    }
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Builder.utf8 unicode
        Ok, Renamed in 1 file (src/lib.rs), 3 references updated
        "#,
    );
    assert!(f.read("src/lib.rs").contains("self.b.utf8(true).unicode"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// A new name the project already uses for something else outside it — a
/// method of a trait or class from a library, a builtin, a global, a
/// member promoted from an embedded library type — is taken over where
/// the renamed symbol would then be what the use resolves to: Rust's
/// `P.dup` renamed `clone` on a type deriving `Clone` compiled, answered
/// `Ok`, and `p.clone()` called the inherent method (the program printed
/// `101 101`). The index answers for the renamed texts: a use it proves
/// is a name conflict, one it cannot tell is refused by default and left
/// as it is with `Include Possible`.
#[test]
fn new_names_the_project_uses_for_something_else() {
    let f = Fixture::new();
    f.write(
        "src/main.rs",
        "#[derive(Clone)]\nstruct P {\n    v: i32,\n}\n\nimpl P {\n    fn dup(&self) -> P {\n        P { v: self.v + 100 }\n    }\n}\n\nfn show(p: &P) -> i32 {\n    p.v\n}\n\nfn main() {\n    let p = P { v: 1 };\n    let q = p.clone();\n    println!(\"{} {}\", show(&q), show(&p.dup()));\n}\n",
    );
    f.write("go.mod", "module example.com/p\n\ngo 1.19\n");
    f.write(
        "main.go",
        "package main\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n)\n\ntype Box struct {\n\tsync.Mutex\n\tn int\n}\n\nfunc (b *Box) Grab() { b.n++ }\n\nfunc count(xs []int) int { return 7 }\n\nfunc main() {\n\tb := &Box{}\n\tb.Lock()\n\tb.Grab()\n\tb.Unlock()\n\tfmt.Println(len([]int{1}), count(nil), b.n)\n}\n",
    );
    f.write("web/package.json", "{\"type\": \"module\"}\n");
    f.write(
        "web/util.js",
        "export function toNum(s) {\n  return 42;\n}\n\nexport class Q {\n  size() {\n    return 1;\n  }\n}\n",
    );
    f.write(
        "web/app.js",
        "import { toNum, Q } from './util.js';\n\nexport function sizes(xs) {\n  const q = new Q();\n  return xs.length + q.size();\n}\n\nconsole.log(parseInt('7'), toNum('8'), sizes([1]));\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol P.dup clone
        Fail "Name conflict exists: src/main.rs:17:14 uses clone, which would then be the renamed P.dup; choose another name"
        > Refactor RenameSymbol Box.Grab Lock
        Fail "Name conflict exists: main.go:18:3 uses Lock, which would then be the renamed main.Box.Grab; choose another name"
        > Refactor RenameSymbol main.count len
        Fail "Name conflict exists: main.go:21:13 uses len, which would then be the renamed main.count; choose another name"
        > Refactor RenameSymbol toNum parseInt
        Fail "Name conflict exists: web/app.js:7:12 uses parseInt, which would then be the renamed web.util.toNum; choose another name"
        > Refactor RenameSymbol Q.size length
        Fail "Cannot rename web.util.Q.size to length: 1 use of length may then be the renamed web.util.Q.size: web/app.js:4:12; nothing was changed. Include Possible renames it anyway and leaves those uses as they are; or choose another name"
        > Refactor RenameSymbol Q.size length Include Possible
        Ok, Renamed in 2 files (web/app.js, web/util.js), 2 references updated, left alone: 1 use it cannot prove: web/app.js:4:12 (a use of length that may then be the renamed web.util.Q.size)
        > Refactor RenameSymbol P.dup twin
        Ok, Renamed in 1 file (src/main.rs), 2 references updated
        > Refactor RenameSymbol Box.Grab Take
        Ok, Renamed in 1 file (main.go), 2 references updated
        "#,
    );
    assert!(f.read("web/app.js").contains("xs.length + q.length()"));
    f.accepted("node", &["web/app.js"]);
    f.accepted("go", &["vet", "./..."]);
    rustc_accepts(&f, "src/main.rs");
}

/// A use renamed where its scope binds the new name becomes that name's:
/// `add(sum, 2)` in a function with a local `sum` renamed `sum` is
/// `sum(sum, 2)`. Go refused to compile it; Rust's closure and Java's
/// nested class's method compiled and computed something else; node threw
/// at run time — each answered `Ok`. The index answers for the renamed
/// texts: a use it proved that is no use of the renamed symbol after the
/// edits is a name conflict.
#[test]
fn renamed_uses_a_scope_binds_the_new_name_in() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/p\n\ngo 1.19\n");
    f.write(
        "main.go",
        "package main\n\nimport \"fmt\"\n\nfunc add(a, b int) int { return a + b }\n\nfunc f() int {\n\tsum := 1\n\treturn add(sum, 2)\n}\n\nfunc main() { fmt.Println(f()) }\n",
    );
    f.write(
        "src/lib.rs",
        "pub fn mix(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn f() -> i32 {\n    let sum = |x: i32, y: i32| x * y;\n    mix(sum(1, 2), 2)\n}\n",
    );
    f.write(
        "j/a/M.java",
        "package a;\n\npublic class M {\n    static int add(int a, int b) {\n        return a + b;\n    }\n\n    static class In {\n        static int sum(int a, int b) {\n            return a * b;\n        }\n\n        int f() {\n            return add(1, 2);\n        }\n    }\n}\n",
    );
    f.write("web/package.json", "{\"type\": \"module\"}\n");
    f.write(
        "web/util.js",
        "export function plus(a, b) {\n  return a + b;\n}\n",
    );
    f.write(
        "web/app.js",
        "import { plus } from './util.js';\n\nfunction f() {\n  const total = 1;\n  return plus(total, 2);\n}\n\nconsole.log(f());\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol main.add sum
        Fail "Name conflict exists: renamed, the use of main.add at main.go:8:8 would be another sum (a name its scope binds); choose another name"
        > Refactor RenameSymbol mix sum
        Fail "Name conflict exists: renamed, the use of mix at src/lib.rs:6:4 would be another sum (a name its scope binds); choose another name"
        > Refactor RenameSymbol M.add sum
        Fail "Name conflict exists: renamed, the use of a.M.add at j/a/M.java:13:19 would be another sum (a name its scope binds); choose another name"
        > Refactor RenameSymbol plus total
        Fail "Name conflict exists: renamed, the use of web.util.plus at web/app.js:4:9 would be another total (a name its scope binds); choose another name"
        > Refactor RenameSymbol main.add addUp
        Ok, Renamed in 1 file (main.go), 2 references updated
        > Refactor RenameSymbol plus addUp
        Ok, Renamed in 2 files (web/app.js, web/util.js), 3 references updated
        "#,
    );
    assert!(f.read("main.go").contains("return addUp(sum, 2)"));
    f.accepted("go", &["vet", "./..."]);
    f.accepted("node", &["web/app.js"]);
}

/// A member's name as a destructuring pattern's key (`const { name: label
/// } = s`, a parameter `({ name }: Shape)`) or a string key (`s["name"]`,
/// `Pick<Shape, "name">`)
/// names the member too: renaming `Shape.name` left them, answered `Ok`,
/// and tsc refused the project. A pattern declared as the type is
/// renamed (a shorthand keeps its local: `{ title: name }`); another, or
/// a string, is possible, refused by default and renamed with `Include
/// Possible`.
#[test]
fn typescript_patterns_and_string_keys_name_members() {
    let f = Fixture::new();
    f.write(
        "tsconfig.json",
        "{\"compilerOptions\":{\"strict\":true,\"noEmit\":true,\"target\":\"es2020\"}}",
    );
    f.write(
        "a.ts",
        "export interface Shape {\n  area: number;\n  name: string;\n}\n\nexport function f(s: Shape): number {\n  const { name: label } = s;\n  return s.area + label.length;\n}\n\nexport function g(s: Shape): string {\n  return s[\"name\"];\n}\n\nexport function h({ name, area: a }: Shape): string {\n  return name + a;\n}\n\nexport type Named = Pick<Shape, \"name\">;\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Shape.name title
        Fail "Cannot rename a.Shape.name: 3 possible uses it cannot prove: a.ts:6:10 (a destructuring pattern's key of the name: the object may be a Shape (types are structural)), a.ts:11:12 (a string key of the name: the object may be a Shape (types are structural)), a.ts:18:33 (a string key of the name: the object may be a Shape (types are structural)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Shape.area size
        Ok, Renamed in 1 file (a.ts), 3 references updated
        > Refactor RenameSymbol Shape.name title Include Possible
        Ok, Renamed in 1 file (a.ts), 5 references updated, possible: 3 uses changed too (Include Possible): a.ts:6:10 (a destructuring pattern's key of the name: the object may be a Shape (types are structural)), a.ts:11:12 (a string key of the name: the object may be a Shape (types are structural)), a.ts:18:33 (a string key of the name: the object may be a Shape (types are structural))
        "#,
    );
    assert!(f
        .read("a.ts")
        .contains("const { title: label } = s;\n  return s.size + label.length;"));
    assert!(f.read("a.ts").contains("return s[\"title\"];"));
    assert!(f
        .read("a.ts")
        .contains("h({ title: name, size: a }: Shape)"));
    f.accepted("tsc", &["-p", "."]);
}

/// TypeScript's parameter properties (`constructor(private http: Client)`,
/// Angular's and NestJS's way to declare what a class holds) are fields
/// of the class: addressed as `Variable C.x`, shown in its structure,
/// renamed as members with their uses as the constructor's parameter
/// (`x`, `{ x }` → `{ x: y }`). Renaming the parameter alone (`Modify
/// Variable C.constructor.x`) answered `Ok` and left `this.x` unrenamed
/// (tsc refused the project); `Insert Method` with the cursor on one
/// went into the parameter list.
#[test]
fn typescript_parameter_properties_are_fields() {
    let f = Fixture::new();
    f.write(
        "tsconfig.json",
        "{\"compilerOptions\":{\"strict\":true,\"noEmit\":true,\"target\":\"es2020\"}}",
    );
    f.write(
        "svc.ts",
        "export class Service {\n  constructor(\n    private readonly base: string,\n    public label?: string,\n  ) {\n    const full = base + \"/\";\n    console.log(full, [base]);\n  }\n\n  url(path: string): string {\n    return this.base + path;\n  }\n}\n",
    );
    f.write(
        "main.ts",
        "import { Service } from \"./svc\";\n\nconst s = new Service(\"/api\", \"x\");\nconsole.log(s.url(\"/a\"), s.label);\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open svc.ts
        Ok, At 0:0, Length 13
        > Analyze Class Service Structure
        Ok: Class Service: method constructor at 1:2, field base at 2:4, field label at 3:4, method url at 9:2
        > Modify Variable Service.constructor.base Rename root
        Fail "Not found: variable 'Service.constructor.base'. Available: Service.constructor.full"
        > Refactor RenameSymbol Service.base full
        Fail "Name conflict exists: the constructor of svc.ts:3 binds full, where it reads the parameter base; choose another name"
        > Refactor RenameSymbol Service.base root
        Ok, Renamed in 1 file (svc.ts), 4 references updated
        > Refactor RenameSymbol Service.label title
        Ok, Renamed in 2 files (main.ts, svc.ts), 2 references updated
        > Goto 3:6
        Ok, At 3:6
        > Insert Method "size(): number {\n  return 1;\n}"
        Ok, Inserted 4 lines at 8, At 12:0
        > Save
        Ok, Bytes 274
        "#,
    );
    let svc = f.read("svc.ts");
    assert!(svc.contains("private readonly root: string,\n    public title?: string,"));
    assert!(svc.contains("const full = root + \"/\";\n    console.log(full, [root]);"));
    assert!(svc.contains("return this.root + path;"));
    assert!(svc.contains("  }\n\n  size(): number {\n    return 1;\n  }\n\n  url(path"));
    f.accepted("tsc", &["-p", "."]);
}

/// A Java class is named in the imports of its members and nested
/// classes (`import static a.Base.twice;`, `import static a.Base.*;`,
/// `import a.Base.Kind;`): renaming `Base` left them, answered `Ok`, and
/// javac refused the project.
#[test]
fn java_classes_named_in_static_and_nested_imports() {
    let f = Fixture::new();
    f.write(
        "src/a/Base.java",
        "package a;\n\npublic class Base {\n    public enum Kind { ONE }\n\n    public static int twice(int x) {\n        return 2 * x;\n    }\n}\n",
    );
    f.write(
        "src/b/Use.java",
        "package b;\n\nimport static a.Base.twice;\nimport static a.Base.*;\n\nimport a.Base.Kind;\n\npublic class Use {\n    Kind k = Kind.ONE;\n\n    int f() {\n        return twice(1);\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol a.Base Root
        Ok, Renamed in 2 files (src/a/Base.java, src/b/Use.java), 4 references updated
        "#,
    );
    assert!(f
        .read("src/b/Use.java")
        .contains("import static a.Root.twice;\nimport static a.Root.*;\n\nimport a.Root.Kind;"));
    f.accepted("javac", &["-d", "out", "src/a/Root.java", "src/b/Use.java"]);
}

/// A member that code outside the project reads by its name, as its
/// declaration says — an untagged field of a Go struct whose other
/// fields have `json` tags, a field of a Rust struct deriving `Serialize`,
/// a Java field of an `@Entity` or annotated `@JsonProperty`, a decorated
/// TypeScript property or a member of an Angular `@Component` — is
/// possible: renamed, it compiled and changed the JSON, the column or the
/// template binding. Refused by default, naming the declaration; a field
/// the declaration names explicitly (`json:"id"`, `#[serde(rename)]`), a
/// private member and an undecorated class's are renamed.
#[test]
fn members_code_outside_the_project_reads_by_name() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/p\n\ngo 1.19\n");
    f.write(
        "main.go",
        "package main\n\ntype User struct {\n\tName  string `json:\"name\"`\n\tAge   int\n\tEmail string `json:\",omitempty\"`\n}\n\nfunc main() {}\n",
    );
    f.write(
        "src/lib.rs",
        "#[derive(Debug, serde::Serialize)]\npub struct Conf {\n    pub port: u16,\n    #[serde(rename = \"h\")]\n    pub host: String,\n}\n",
    );
    f.write(
        "j/a/E.java",
        "package a;\n\n@Entity\npublic class E {\n    private int total;\n}\n\nclass F {\n    @JsonProperty\n    int count;\n    int other;\n}\n",
    );
    f.write(
        "web/card.ts",
        "@Component({ selector: 'x-card' })\nexport class Card {\n  @Input() title = '';\n  open = false;\n  private shown = 1;\n\n  toggle(): void {\n    this.open = !this.open;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol User.Age Years
        Fail "Cannot rename main.User.Age: 1 possible use it cannot prove: main.go:4:1 (code outside the project may read it by its name: the struct's other fields have json tags: the code that reads them reads this field by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol User.Email Mail
        Fail "Cannot rename main.User.Email: 1 possible use it cannot prove: main.go:5:1 (code outside the project may read it by its name: its tag json:\",omitempty\" names no key: the json encoding reads the field by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Conf.port listen
        Fail "Cannot rename Conf.port: 1 possible use it cannot prove: src/lib.rs:2:8 (code outside the project may read it by its name: its struct derives Serialize, whose generated code spells the field's name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol a.E.total sum
        Fail "Cannot rename a.E.total: 1 possible use it cannot prove: j/a/E.java:4:16 (code outside the project may read it by its name: its class's annotation @Entity reads its fields by their names); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol a.F.count n
        Fail "Cannot rename a.F.count: 1 possible use it cannot prove: j/a/E.java:9:8 (code outside the project may read it by its name: its annotation @JsonProperty reads the field by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Card.title heading
        Fail "Cannot rename web.card.Card.title: 1 possible use it cannot prove: web/card.ts:2:11 (code outside the project may read it by its name: its decorator @Input reads the property by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Card.toggle flip
        Fail "Cannot rename web.card.Card.toggle: 1 possible use it cannot prove: web/card.ts:6:2 (code outside the project may read it by its name: its class's decorator @Component binds its members by their names (templates, mappings)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Conf.host hostname
        Ok, Renamed in 1 file (src/lib.rs), 1 reference updated
        > Refactor RenameSymbol User.Name FullName
        Ok, Renamed in 1 file (main.go), 1 reference updated
        > Refactor RenameSymbol a.F.other rest
        Ok, Renamed in 1 file (j/a/E.java), 1 reference updated
        > Refactor RenameSymbol Card.shown visible
        Ok, Renamed in 1 file (web/card.ts), 1 reference updated
        > Open web/card.ts
        Ok, At 0:0, Length 10
        > Modify Variable Card.open Rename expanded
        Fail "Cannot rename Card.open in this file: code outside the project may read it by its name: its class's decorator @Component binds its members by their names (templates, mappings); Refactor RenameSymbol Card.open expanded Include Possible renames it anyway"
        > Refactor RenameSymbol Card.open expanded Include Possible
        Ok, Renamed in 1 file (web/card.ts), 3 references updated, possible: 1 use changed too (Include Possible): web/card.ts:3:2 (code outside the project may read it by its name: its class's decorator @Component binds its members by their names (templates, mappings))
        "#,
    );
}

/// An enum's variant is named bare where `use Shape::*` brings it in:
/// renaming `Shape::Dot` left `let a = Dot;`, answered `Ok`, and rustc
/// refused the crate. Such a use is possible. A variant of an enum
/// deriving `Serialize` and a Java enum's constant are names read as
/// data (serializers, `valueOf("ONE")`): possible too.
#[test]
fn enum_variants_named_bare_or_read_as_data() {
    let f = Fixture::new();
    f.write(
        "src/main.rs",
        "enum Shape {\n    Dot,\n    Line(i32),\n}\n\nfn f(s: &Shape) -> i32 {\n    match s {\n        Shape::Dot => 0,\n        Shape::Line(n) => *n,\n    }\n}\n\nfn main() {\n    use Shape::*;\n    let a = Dot;\n    println!(\"{}\", f(&a) + f(&Shape::Line(2)));\n}\n",
    );
    // (not a module of the crate rustc compiles: serde is no dependency)
    f.write(
        "src/mode.rs",
        "#[derive(serde::Serialize)]\npub enum Mode {\n    Fast,\n}\n",
    );
    f.write(
        "j/a/K.java",
        "package a;\n\npublic enum K {\n    ONE,\n    TWO;\n\n    static K parse() {\n        return K.valueOf(\"ONE\");\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Shape.Dot Point
        Fail "Cannot rename Shape.Dot: 1 possible use it cannot prove: src/main.rs:14:12 (a bare name a `use` of the enum's variants may bring in); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Mode.Fast Quick
        Fail "Cannot rename mode.Mode.Fast: 1 possible use it cannot prove: src/mode.rs:2:4 (code outside the project may read it by its name: its enum derives Serialize, whose generated code spells the variant's name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol a.K.ONE FIRST
        Fail "Cannot rename a.K.ONE: 1 possible use it cannot prove: j/a/K.java:3:4 (code outside the project may read it by its name: an enum constant's name is data: name(), toString() and valueOf() read it, as serializers and mappings do); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Shape.Dot Point Include Possible
        Ok, Renamed in 1 file (src/main.rs), 3 references updated, possible: 1 use changed too (Include Possible): src/main.rs:14:12 (a bare name a `use` of the enum's variants may bring in)
        "#,
    );
    assert!(f.read("src/main.rs").contains("let a = Point;"));
    rustc_accepts(&f, "src/main.rs");
}

/// A crate of four files: a rope whose methods return another file's
/// slice, a holder whose field is a rope, and their uses in a fourth.
fn write_rope_crate(f: &Fixture, user: &str) {
    f.write(
        "Cargo.toml",
        "[package]\nname = \"rope\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod holder;\npub mod rope;\npub mod slice;\npub mod user;\n\npub use crate::rope::Rope;\n",
    );
    f.write(
        "src/slice.rs",
        "pub struct RopeSlice<'a> {
    pub text: &'a str,
}

pub type Piece<'a> = RopeSlice<'a>;

impl<'a> RopeSlice<'a> {
    pub fn len_chars(&self) -> usize {
        self.text.chars().count()
    }
}
",
    );
    f.write(
        "src/rope.rs",
        "use crate::slice::{Piece, RopeSlice};

pub struct Rope {
    text: String,
}

impl Rope {
    pub fn new() -> Self {
        Rope { text: String::new() }
    }

    pub fn slice(&self, start: usize) -> RopeSlice<'_> {
        RopeSlice { text: &self.text[start..] }
    }

    pub fn boxed(&self) -> Box<Rope> {
        Box::new(Rope::new())
    }

    pub fn piece(&self) -> Piece<'_> {
        self.slice(0)
    }

    pub fn first(&self) -> Option<RopeSlice<'_>> {
        Some(self.slice(0))
    }
}
",
    );
    f.write(
        "src/holder.rs",
        "use crate::rope::Rope;

pub struct Holder {
    pub rope: Rope,
    pub ropes: Vec<Rope>,
}
",
    );
    f.write("src/user.rs", user);
}

/// Rust: what a method or an associated function of another file
/// returns (another type, `Self`, through `Box`), and a field of a
/// struct of another file, type the values members are read through:
/// each use is certain, renamed, and rustc compiles the result.
#[test]
fn rust_renames_members_through_other_files_results_and_fields() {
    let f = Fixture::new();
    write_rope_crate(
        &f,
        "use crate::holder::Holder;
use crate::Rope;

pub fn count(r: &Rope, h: &Holder) -> usize {
    let s = r.slice(1);
    let mut n = s.len_chars() + r.slice(0).len_chars() + Rope::new().slice(2).len_chars();
    n += h.rope.slice(0).len_chars() + r.boxed().slice(0).len_chars();
    for rope in &h.ropes {
        n += rope.boxed().slice(1).len_chars();
    }
    n
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol RopeSlice.len_chars char_count
        Ok, Renamed in 2 files (src/slice.rs, src/user.rs), 7 references updated
        "#,
    );
    assert!(f
        .read("src/user.rs")
        .contains("let mut n = s.char_count() + r.slice(0).char_count()"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: a result the index does not follow — a type alias's name
/// (which may be another type), a generic type (`Option<…>`) — keeps a
/// member use possible, and the rename is refused, listing them.
#[test]
fn rust_members_through_aliases_and_generic_results_stay_possible() {
    let f = Fixture::new();
    write_rope_crate(
        &f,
        "use crate::Rope;

pub fn count(r: &Rope) -> usize {
    let p = r.piece();
    p.len_chars() + r.first().unwrap().len_chars() + r.slice(0).len_chars()
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol RopeSlice.len_chars char_count
        Fail "Cannot rename slice.RopeSlice.len_chars: 2 possible uses it cannot prove: src/user.rs:4:6 (the index cannot resolve it), src/user.rs:4:39 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: a method named as a primitive type (`char`) called in a macro's
/// tokens (`assert_eq!(r.char(0), 'a')`) is a use there: renamed with
/// the others, and rustc compiles the result (it was left, the
/// rename answered Ok).
#[test]
fn rust_renames_a_method_named_as_a_primitive_type_in_macros() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"prim\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub struct Rope;

impl Rope {
    pub fn new() -> Self {
        Rope
    }

    pub fn char(&self, _i: usize) -> char {
        'a'
    }
}

pub fn first() -> char {
    let r = Rope::new();
    assert_eq!(r.char(0), 'a');
    r.char(1)
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Rope.char glyph
        Ok, Renamed in 1 file (src/lib.rs), 3 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("assert_eq!(r.glyph(0), 'a');"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// A value declared with a type alias (`x: &Alias`, `let y: Alias`,
/// `type Alias = P;`) may be the class under another name: renaming
/// `P.dup` renamed its definition alone, answered `Ok`, and rustc refused
/// the crate. Such a use is possible.
#[test]
fn rust_values_typed_by_an_alias_may_be_the_class() {
    let f = Fixture::new();
    f.write(
        "src/main.rs",
        "struct P {\n    v: i32,\n}\n\ntype Alias = P;\n\nimpl P {\n    fn dup(&self) -> i32 {\n        self.v * 2\n    }\n}\n\nfn f(x: &Alias) -> i32 {\n    x.dup()\n}\n\nfn main() {\n    let y: Alias = P { v: 1 };\n    println!(\"{} {}\", f(&y), y.dup());\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol P.dup twice
        Fail "Cannot rename P.dup: 2 possible uses it cannot prove: src/main.rs:13:6 (the index cannot resolve it), src/main.rs:18:31 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol P.dup twice Include Possible
        Ok, Renamed in 1 file (src/main.rs), 3 references updated, possible: 2 uses changed too (Include Possible): src/main.rs:13:6 (the index cannot resolve it), src/main.rs:18:31 (the index cannot resolve it)
        "#,
    );
    rustc_accepts(&f, "src/main.rs");
}

/// A name an importer chose is kept even where it spells the renamed
/// symbol's: a default import (`import helper from`), a re-export of the
/// default (`export { default as helper }`, React's index files) and a
/// name changed and changed back (`export { fmt as format }`, then
/// `export { format as fmt }`). A module's own export shadows the one
/// its `export *` would bring (so `sh.twice` there is not the renamed
/// `twice`). tsc accepts the project.
#[test]
fn names_an_importer_chose_are_kept() {
    let f = Fixture::new();
    f.write(
        "src/helper.ts",
        "export default function helper(x: number): number {\n  return x + 1;\n}\n\nexport function twice(x: number): number {\n  return helper(helper(x));\n}\n",
    );
    f.write(
        "src/fmt.ts",
        "function fmt(x: number): string {\n  return `${x}`;\n}\n\nexport { fmt as format };\n",
    );
    f.write(
        "src/index.ts",
        "export { default as helper, twice } from \"./helper\";\nexport { format as fmt } from \"./fmt\";\nexport * from \"./helper\";\n",
    );
    f.write(
        "src/shadow.ts",
        "export * from \"./helper\";\n\nexport function twice(x: number): number {\n  return x * 2;\n}\n",
    );
    let main = "import helper from \"./helper\";\nimport * as lib from \"./index\";\nimport * as sh from \"./shadow\";\nimport { helper as help, fmt, twice } from \"./index\";\n\nconst a: number = helper(1) + lib.helper(2) + help(3) + twice(4) + lib.twice(5) + sh.twice(6);\nexport const s: string = fmt(a) + lib.fmt(a);\n";
    f.write("src/main.ts", main);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol helper.helper addOne
        Ok, Renamed in 1 file (src/helper.ts), 3 references updated
        > Refactor RenameSymbol fmt.fmt show
        Ok, Renamed in 1 file (src/fmt.ts), 2 references updated
        > Refactor RenameSymbol helper.twice double
        Ok, Renamed in 3 files (src/helper.ts, src/index.ts, src/main.ts), 5 references updated
        "#,
    );
    assert_eq!(
        f.read("src/main.ts"),
        main.replace("twice(4) + lib.twice(5)", "double(4) + lib.double(5)")
            .replace(", twice }", ", double }")
    );
    assert_eq!(
        f.read("src/index.ts"),
        "export { default as helper, double } from \"./helper\";\nexport { format as fmt } from \"./fmt\";\nexport * from \"./helper\";\n"
    );
    f.accepted("tsc", &["--noEmit", "--strict", "src/main.ts"]);
}

/// What the Java program prints: its sources compiled into `out`, its
/// main class run. `None` where no JDK is installed.
fn java_prints(f: &Fixture, sources: &[&str], main: &str) -> Option<String> {
    let mut javac = std::process::Command::new("javac");
    javac
        .args(["-d", "out"])
        .args(sources)
        .current_dir(f.dir.path());
    let compiled = javac.output().ok()?;
    assert!(
        compiled.status.success(),
        "javac refused the result: {}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = std::process::Command::new("java")
        .args(["-cp", "out", main])
        .current_dir(f.dir.path())
        .output()
        .ok()?;
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    Some(String::from_utf8_lossy(&run.stdout).into_owned())
}

/// Java: a method is renamed with its family — the methods of its name it
/// overrides or that override it, in subclasses, in anonymous bodies
/// (`new A() { … }`), in an enum constant's body, and an interface's
/// declaration with each implementation — so an `@Override` method is
/// renamed from either end. Before, the overrides were possible sites
/// (refused by default), and the anonymous body's was not even seen:
/// `A.foo` renamed answered `Ok` and javac refused the project. A new
/// name a class of the family already has is a conflict; an unrelated
/// class's method of the name (`Other.foo`) is none of it. An enum's
/// constant is a value of the enum (`Op.ONE.apply()`). The program
/// prints the same after each rename.
#[test]
fn java_methods_rename_with_their_family() {
    let f = Fixture::new();
    f.write(
        "p/A.java",
        "package p;\n\npublic class A {\n    public int foo() {\n        return 1;\n    }\n\n    public int twice() {\n        return foo() * 2;\n    }\n}\n",
    );
    f.write(
        "p/B.java",
        "package p;\n\npublic class B extends A {\n    @Override\n    public int foo() {\n        return 5 + super.foo();\n    }\n}\n",
    );
    f.write(
        "p/C.java",
        "package p;\n\npublic class C extends B {\n    public int bar() {\n        return 7;\n    }\n}\n",
    );
    f.write(
        "p/Shape.java",
        "package p;\n\npublic interface Shape {\n    double area();\n}\n",
    );
    f.write(
        "p/Other.java",
        "package p;\n\npublic class Other {\n    public int foo() {\n        return 3;\n    }\n}\n",
    );
    f.write(
        "p/Sq.java",
        "package p;\n\npublic class Sq implements Shape {\n    public double area() {\n        return 4;\n    }\n}\n",
    );
    f.write(
        "p/Op.java",
        "package p;\n\npublic enum Op {\n    ONE {\n        @Override\n        int apply() {\n            return 1;\n        }\n    };\n\n    abstract int apply();\n}\n",
    );
    f.write(
        "p/Main.java",
        "package p;\n\npublic class Main {\n    public static void main(String[] args) {\n        B b = new B();\n        A anon = new A() {\n            @Override\n            public int foo() {\n                return 9;\n            }\n        };\n        Shape s = new Sq();\n        Sq q = new Sq();\n        Op op = Op.ONE;\n        System.out.println(b.foo() + anon.foo() + anon.twice() + s.area() + q.area() + op.apply() + Op.ONE.apply() + new Other().foo());\n    }\n}\n",
    );
    let sources = [
        "p/A.java",
        "p/B.java",
        "p/C.java",
        "p/Shape.java",
        "p/Other.java",
        "p/Sq.java",
        "p/Op.java",
        "p/Main.java",
    ];
    let before = java_prints(&f, &sources, "p.Main");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol A.foo bar
        Fail "Name conflict exists: p/C.java:4 already defines C.bar in the lineage of A: renamed, one method would override the other; choose another name"
        > Refactor RenameSymbol B.foo value
        Ok, Renamed in 3 files (p/A.java, p/B.java, p/Main.java), 7 references updated, also renamed: p.A.foo, p.Main.main.foo
        > Refactor RenameSymbol Sq.area size
        Ok, Renamed in 3 files (p/Main.java, p/Shape.java, p/Sq.java), 4 references updated, also renamed: p.Shape.area
        > Refactor RenameSymbol Op.apply run
        Ok, Renamed in 2 files (p/Main.java, p/Op.java), 4 references updated, also renamed: p.Op.ONE.apply
        "#,
    );
    assert!(f.read("p/B.java").contains("return 5 + super.value();"));
    assert!(f
        .read("p/Main.java")
        .contains("public int value() {\n                return 9;"));
    assert!(f
        .read("p/Op.java")
        .contains("int run() {\n            return 1;"));
    assert_eq!(java_prints(&f, &sources, "p.Main"), before);
}

/// JavaScript and TypeScript: a method is renamed with its family (a
/// subclass's override, an interface's declaration and its
/// implementations), and `super.m()` or `this.m()` (an arrow function's
/// too) in a class of the family is an ancestor's, its own or an
/// override's `m`, of the family: proven. Before, both ends were
/// possible sites, refused by default. tsc accepts the result, and node
/// runs the JavaScript one the same.
#[test]
fn es_methods_rename_with_their_family() {
    let f = Fixture::new();
    f.write(
        "shapes.ts",
        "export interface Shape {\n  area(): number;\n}\n\nexport class Sq implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n\nexport class A {\n  foo(): number {\n    return 1;\n  }\n}\n\nexport class B extends A {\n  foo(): number {\n    return super.foo() + 5;\n  }\n}\n\nexport class D extends B {\n  twice(): number {\n    const again = () => this.foo();\n    return this.foo() + again();\n  }\n}\n",
    );
    f.write(
        "main.ts",
        "import { A, B, Sq, Shape } from \"./shapes\";\n\nconst b = new B();\nconst a: A = b;\nconst s: Shape = new Sq();\nconst q = new Sq();\nexport const total: number = b.foo() + a.foo() + s.area() + q.area();\n",
    );
    f.write(
        "web/base.js",
        "export class Base {\n  greet() {\n    return \"base\";\n  }\n}\n\nexport class Loud extends Base {\n  greet() {\n    return super.greet().toUpperCase();\n  }\n}\n",
    );
    f.write(
        "web/app.js",
        "import { Base, Loud } from \"./base.js\";\n\nconst loud = new Loud();\nconst base = new Base();\nconsole.log(loud.greet(), base.greet());\n",
    );
    f.write("web/package.json", "{\"type\": \"module\"}\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol B.foo value
        Ok, Renamed in 2 files (main.ts, shapes.ts), 7 references updated, also renamed: shapes.A.foo
        > Refactor RenameSymbol Shape.area size
        Ok, Renamed in 2 files (main.ts, shapes.ts), 4 references updated, also renamed: shapes.Sq.area
        > Refactor RenameSymbol Base.greet hello
        Ok, Renamed in 2 files (web/app.js, web/base.js), 5 references updated, also renamed: web.base.Loud.greet
        "#,
    );
    assert!(f.read("shapes.ts").contains("return super.value() + 5;"));
    assert!(f
        .read("shapes.ts")
        .contains("const again = () => this.value();\n    return this.value() + again();"));
    assert!(f
        .read("web/base.js")
        .contains("return super.hello().toUpperCase();"));
    f.accepted("tsc", &["--noEmit", "--strict", "main.ts"]);
    f.accepted("node", &["web/app.js"]);
}

/// Rust: a trait's method and each `impl Trait for T`'s method of its
/// name are one family, renamed together from either end (an impl's
/// method was refused: its name is the trait's). A value whose type the
/// crate does not declare — a type parameter bounded by the trait, a
/// `dyn` trait object — may call the trait's method: possible, never
/// another's (`s.area()` in `generic<S: Shape>` was left as it was, and
/// the renamed trait method answered `Ok` on a crate rustc refused).
#[test]
fn rust_trait_methods_rename_with_their_implementations() {
    let f = Fixture::new();
    f.write("src/main.rs", "trait Shape {\n    fn area(&self) -> f64;\n\n    fn double(&self) -> f64 {\n        self.area() * 2.0\n    }\n}\n\nstruct Sq(f64);\nstruct Circle(f64);\n\nimpl Shape for Sq {\n    fn area(&self) -> f64 {\n        self.0 * self.0\n    }\n}\n\nimpl Shape for Circle {\n    fn area(&self) -> f64 {\n        3.0 * self.0 * self.0\n    }\n\n    fn double(&self) -> f64 {\n        self.area() * 4.0\n    }\n}\n\nfn one(s: &dyn Shape) -> f64 {\n    s.area()\n}\n\nfn square(q: &Sq) -> f64 {\n    q.area()\n}\n\nfn generic<S: Shape>(s: &S) -> f64 {\n    s.area() + s.double()\n}\n\nfn main() {\n    let q = Sq(2.0);\n    let c = Circle(1.0);\n    println!(\"{} {} {} {}\", square(&q), one(&c), generic(&c), c.double());\n}\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Sq.area size
        Fail "Cannot rename Sq.Shape.area: 2 possible uses it cannot prove: src/main.rs:28:6 (the index cannot resolve it), src/main.rs:36:6 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Sq.area size Include Possible
        Ok, Renamed in 1 file (src/main.rs), 8 references updated, also renamed: Circle.Shape.area, Shape.area, possible: 2 uses changed too (Include Possible): src/main.rs:28:6 (the index cannot resolve it), src/main.rs:36:6 (the index cannot resolve it)
        > Refactor RenameSymbol Circle.double twice Include Possible
        Ok, Renamed in 1 file (src/main.rs), 4 references updated, also renamed: Shape.double, possible: 2 uses changed too (Include Possible): src/main.rs:36:17 (the index cannot resolve it), src/main.rs:42:64 (the index cannot resolve it)
        "#,
    );
    let after = f.read("src/main.rs");
    assert!(after.contains(
        "    fn size(&self) -> f64;\n\n    fn twice(&self) -> f64 {\n        self.size() * 2.0"
    ));
    assert!(after.contains("    s.size() + s.twice()\n"));
    assert_eq!(after.matches("fn size(").count(), 3);
    rustc_accepts(&f, "src/main.rs");
}

/// JavaScript, TypeScript: a value of a subclass reaches the members it
/// inherits (`const b = new B(); b.foo()` with `class B extends A` calls
/// `A.foo`, and so does its `this.foo()`), through the project's classes
/// and modules (the scan reads each class's `extends`); a subclass that
/// declares the member has its
/// own (`C.foo`: of the family, renamed with it), and one extending a
/// class from outside the project reaches that class's. Before, such a
/// use was no use of `A.foo`: Find References missed it, and the rename
/// answered `Ok` on a project tsc refused.
#[test]
fn es_values_of_subclasses_reach_inherited_members() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export class A {\n  foo(): number {\n    return 1;\n  }\n}\n",
    );
    f.write(
        "b.ts",
        "import { A } from \"./a\";\n\nexport class B extends A {\n  bar(): number {\n    return this.foo();\n  }\n}\n\nexport class C extends A {\n  foo(): number {\n    return 2;\n  }\n}\n\nexport default class D extends B {}\n",
    );
    f.write(
        "main.ts",
        "import { B, C } from \"./b\";\nimport D from \"./b\";\n\nconst b = new B();\nconst c: C = new C();\nconst d: D = new D();\nexport const n: number = b.foo() + c.foo() + d.foo();\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References A.foo
        Ok: Found 3 references, with lines, Txt b.ts:4:16: return this.foo();\nmain.ts:6:27,47: export const n: number = b.foo() + c.foo() + d.foo();
        > Refactor RenameSymbol A.foo value
        Ok, Renamed in 3 files (a.ts, b.ts, main.ts), 6 references updated, also renamed: b.C.foo
        "#,
    );
    assert_eq!(
        f.read("main.ts").lines().last(),
        Some("export const n: number = b.value() + c.value() + d.value();")
    );
    f.accepted("tsc", &["--noEmit", "--strict", "main.ts"]);
}

/// JavaScript, TypeScript: a member read through a value the expression
/// states the class of is that class's — `new A().foo()`, `(new B()).foo()`
/// (`B` inherits it), `(u as A).foo()`, `(<A>u).foo()` — and through what
/// a call of the project's function returns, as its declaration states
/// (`function make(): A`, each overload the same; `const build = (): A =>
/// …`), and a field of the
/// instance as its class declares it (`this.users.foo()` with `private
/// users: A`, a parameter property, `made = new B()`); a local `make`
/// hiding the function, a field of no stated class (`any`), or a class
/// read off a value (`new ns.A()`, not a namespace import's `new m.A()`)
/// is not it (possible). Before, each was possible: the rename refused a
/// project tsc would have accepted renamed.
#[test]
fn es_members_through_stated_classes_and_declared_results() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export class A {\n  foo(): number {\n    return 1;\n  }\n}\n\nexport class B extends A {}\n\nexport function make(): A {\n  return new A();\n}\n\nexport function pick(n: number): A;\nexport function pick(n: string): A;\nexport function pick(n: number | string): A {\n  return n ? new A() : new B();\n}\n\nexport const build = (): A => new A();\n",
    );
    f.write(
        "main.ts",
        "import { A, B, build, make, pick } from \"./a\";\n\ndeclare const u: unknown;\nexport const n: number =\n  new A().foo() + (new B()).foo() + (u as A).foo() + (<A>u).foo() + make().foo() + pick(1).foo() + build().foo();\n\nexport function local(): number {\n  const make = (): A => new B();\n  return make().foo();\n}\n",
    );
    f.write(
        "ns.ts",
        "import * as m from \"./a\";\nimport { A } from \"./a\";\n\nconst ns = { A };\nconst x: m.A = new m.A();\nexport const k: number = new m.A().foo() + x.foo() + new ns.A().foo();\n",
    );
    f.write(
        "comp.ts",
        "import { A, B } from \"./a\";\n\nexport class Comp {\n  private other: A = new A();\n  made = new B();\n  loose: any;\n\n  constructor(private readonly users: A, plain: A) {\n    this.loose = plain;\n  }\n\n  show(): number {\n    return this.users.foo() + this.other.foo() + this.made.foo() + this.loose.foo();\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References A.foo
        Ok: Found 12 references and 3 possible, with lines, Txt comp.ts:12:22,41,59: return this.users.foo() + this.other.foo() + this.made.foo() + this.loose.foo();\nmain.ts:4:10,28,45,60,75,91,107: new A().foo() + (new B()).foo() + (u as A).foo() + (<A>u).foo() + make().foo() + pick(1).foo() + build().foo();\nns.ts:5:35,45: export const k: number = new m.A().foo() + x.foo() + new ns.A().foo();\npossible:\ncomp.ts:12:78: return this.users.foo() + this.other.foo() + this.made.foo() + this.loose.foo();\nmain.ts:8:16: return make().foo();\nns.ts:5:64: export const k: number = new m.A().foo() + x.foo() + new ns.A().foo();
        > Refactor RenameSymbol A.foo value Include Possible
        Ok, Renamed in 4 files (a.ts, comp.ts, main.ts, ns.ts), 16 references updated, possible: 3 uses changed too (Include Possible): comp.ts:12:78 (the index cannot resolve it), main.ts:8:16 (the index cannot resolve it), ns.ts:5:64 (the index cannot resolve it)
        "#,
    );
    f.accepted(
        "tsc",
        &["--noEmit", "--strict", "main.ts", "comp.ts", "ns.ts"],
    );
}

/// A TypeScript type's property is written in object literals of the
/// type and in JSX attributes of a component whose props it types. A
/// literal declared as the type in a file whose scan keys no use of the
/// name (`const p: TagProps = { label: 'x' }`: a key is no use) was left
/// out, and a JSX attribute (`<Tag label={…} />`) was no site at all: the
/// rename answered `Ok` in one file and tsc refused both. The literal is
/// certain now (the files are found by their text), and so is an
/// attribute of an element whose tag is a certain use of a component
/// whose first parameter is declared as the type; another component's
/// attribute of the name is possible.
#[test]
fn es_properties_in_literals_of_other_files_and_jsx_attributes() {
    let f = Fixture::new();
    f.write(
        "jsx.d.ts",
        "declare namespace JSX {\n  interface Element {}\n  interface IntrinsicElements {\n    span: {};\n  }\n}\n",
    );
    f.write(
        "Badge.tsx",
        "export interface TagProps {\n  label: string;\n}\n\nexport function Tag({ label }: TagProps) {\n  return <span>{label}</span>;\n}\n\nexport const Chip = (props: TagProps) => <Tag label={props.label} />;\n\nexport function Panel(props: { title: string }) {\n  return <Tag label={props.title} />;\n}\n",
    );
    f.write(
        "App.tsx",
        "import { Chip, Tag, TagProps } from \"./Badge\";\n\nconst p: TagProps = { label: \"x\" };\n\nexport function Other(props: { label: string }) {\n  return <span>{props.label}</span>;\n}\n\nexport function App() {\n  return <Tag {...p} />;\n}\n\nexport const o = <Other label=\"o\" />;\nexport const c = <Chip label=\"c\" />;\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol TagProps.label text
        Fail "Cannot rename Badge.TagProps.label: 2 possible uses it cannot prove: App.tsx:5:22 (the index cannot resolve it), App.tsx:12:24 (a JSX attribute of the name: the object may be a TagProps (types are structural)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol TagProps.label text Only Proven
        Ok, Renamed in 2 files (App.tsx, Badge.tsx), 7 references updated, may be broken at: 2 possible uses left unchanged (Only Proven): App.tsx:5:22 (the index cannot resolve it), App.tsx:12:24 (a JSX attribute of the name: the object may be a TagProps (types are structural))
        "#,
    );
    assert!(f
        .read("App.tsx")
        .contains("const p: TagProps = { text: \"x\" };"));
    assert!(f.read("App.tsx").contains("<Other label=\"o\" />"));
    f.accepted(
        "tsc",
        &[
            "--noEmit",
            "--strict",
            "--jsx",
            "preserve",
            "jsx.d.ts",
            "Badge.tsx",
            "App.tsx",
        ],
    );
}

/// A constant declared as React's function component of the type
/// (`const Tag: FC<TagProps>`, `React.FunctionComponent<TagProps>`, the
/// names imported from `react`) takes props of it: the attributes of its
/// elements are certain. A generic of the same shape that is not React's
/// (`Fake<TagProps>`) leaves its elements' attributes possible. The
/// parameter of a function's type (`type Fake<P> = (props: P) => …`)
/// binds no name: it was read as a typed `props` over the whole file, so
/// every other `props.label` was taken for a `P`'s, no site at all (the
/// rename answered `Ok` and tsc refused the project).
#[test]
fn es_react_function_components_pass_props_of_their_type() {
    let f = Fixture::new();
    f.write(
        "jsx.d.ts",
        "declare namespace JSX {\n  interface Element {}\n  interface IntrinsicElements {\n    span: {};\n  }\n}\n\ndeclare module \"react\" {\n  export type FC<P> = (props: P) => JSX.Element;\n  export type FunctionComponent<P> = FC<P>;\n}\n",
    );
    f.write(
        "Badge.tsx",
        "import * as React from \"react\";\nimport { FC } from \"react\";\n\nexport interface TagProps {\n  label: string;\n}\n\ntype Fake<P> = (props: P) => JSX.Element;\n\nexport const Tag: FC<TagProps> = (props) => <span>{props.label}</span>;\nexport const Chip: React.FunctionComponent<TagProps> = (props) => <span>{props.label}</span>;\nexport const Loose: Fake<TagProps> = (props) => <span>{props.label}</span>;\n\nexport const a = <Tag label=\"a\" />;\nexport const b = <Chip label=\"b\" />;\nexport const c = <Loose label=\"c\" />;\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol TagProps.label text
        Fail "Cannot rename Badge.TagProps.label: 4 possible uses it cannot prove: Badge.tsx:9:57 (the index cannot resolve it), Badge.tsx:10:79 (the index cannot resolve it), Badge.tsx:11:61 (the index cannot resolve it), Badge.tsx:15:24 (a JSX attribute of the name: the object may be a TagProps (types are structural)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol TagProps.label text Include Possible
        Ok, Renamed in 1 file (Badge.tsx), 7 references updated, possible: 4 uses changed too (Include Possible): Badge.tsx:9:57 (the index cannot resolve it), Badge.tsx:10:79 (the index cannot resolve it), Badge.tsx:11:61 (the index cannot resolve it), Badge.tsx:15:24 (a JSX attribute of the name: the object may be a TagProps (types are structural))
        "#,
    );
    f.accepted(
        "tsc",
        &[
            "--noEmit",
            "--strict",
            "--jsx",
            "preserve",
            "jsx.d.ts",
            "Badge.tsx",
        ],
    );
    let renamed = f.read("Badge.tsx");
    assert!(renamed.contains("<Tag text=\"a\" />") && renamed.contains("<Chip text=\"b\" />"));
}

/// In TypeScript a string of a property's name may be a value of a
/// `keyof` type, which tsc holds to the name (`const k: keyof Props =
/// "label"`, an argument `pick(p, "label")` of `K extends keyof T`):
/// possible, where before it was no site and the rename answered `Ok` on
/// a project tsc refused. A module's name (`from "./label"`) is none.
#[test]
fn ts_strings_of_a_property_name_may_be_keyof_values() {
    let f = Fixture::new();
    f.write("label.ts", "export const unit = 1;\n");
    f.write(
        "a.ts",
        "import { unit } from \"./label\";\n\nexport interface Props {\n  label: string;\n  size: number;\n}\n\nexport function pick<T, K extends keyof T>(o: T, k: K): T[K] {\n  return o[k];\n}\n\nexport const key: keyof Props = \"label\";\n\nexport function show(p: Props): string {\n  return pick(p, \"label\") + p.size + unit;\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Props.label text
        Fail "Cannot rename a.Props.label: 2 possible uses it cannot prove: a.ts:11:33 (a string of the name: it may be a value of `keyof Props`), a.ts:14:18 (a string of the name: it may be a value of `keyof Props`); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Props.label text Include Possible
        Ok, Renamed in 1 file (a.ts), 3 references updated, possible: 2 uses changed too (Include Possible): a.ts:11:33 (a string of the name: it may be a value of `keyof Props`), a.ts:14:18 (a string of the name: it may be a value of `keyof Props`)
        "#,
    );
    assert!(f
        .read("a.ts")
        .starts_with("import { unit } from \"./label\";"));
    f.accepted("tsc", &["--noEmit", "--strict", "a.ts", "label.ts"]);
}

/// TypeScript: a member read through what a method of the project's class
/// declares it returns (`svc.getRepo().find()`, `this.getRepo().find()`),
/// through a getter (`svc.current.find()`), and through a field the class
/// inherits from a base of the project (`this.repo.find()` with `repo:
/// Repo` declared by `Base`) is the stated class's; a parameter of `any`
/// that shadows the typed name, a method of `any` result, and a subclass
/// that declares the field again as `any` stay possible. Before, each was
/// possible: the rename refused a project tsc accepts renamed.
#[test]
fn es_members_through_methods_results_getters_and_inherited_fields() {
    let f = Fixture::new();
    f.write(
        "repo.ts",
        "export class Repo {\n  find(): number {\n    return 1;\n  }\n}\n",
    );
    f.write(
        "svc.ts",
        "import { Repo } from \"./repo\";\n\nexport class Base {\n  protected repo: Repo = new Repo();\n}\n\nexport class Service extends Base {\n  getRepo(): Repo {\n    return this.repo;\n  }\n  get current(): Repo {\n    return this.repo;\n  }\n  loose(): any {\n    return this.repo;\n  }\n  count(): number {\n    return this.repo.find() + this.getRepo().find() + this.current.find();\n  }\n}\n\nexport class Loose extends Base {\n  protected repo: any = null;\n  run(): number {\n    return this.repo.find();\n  }\n}\n",
    );
    f.write(
        "main.ts",
        "import { Service } from \"./svc\";\n\nconst svc = new Service();\nexport const n: number = svc.getRepo().find() + svc.current.find();\n\nexport function other(svc: any, s: Service): number {\n  return svc.getRepo().find() + s.loose().find() + s.getRepo().find();\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References Repo.find
        Ok: Found 6 references and 3 possible, with lines, Txt main.ts:3:39,60: export const n: number = svc.getRepo().find() + svc.current.find();\nmain.ts:6:63: return svc.getRepo().find() + s.loose().find() + s.getRepo().find();\nsvc.ts:17:21,45,67: return this.repo.find() + this.getRepo().find() + this.current.find();\npossible:\nmain.ts:6:23,42: return svc.getRepo().find() + s.loose().find() + s.getRepo().find();\nsvc.ts:24:21: return this.repo.find();
        > Refactor RenameSymbol Repo.find size Include Possible
        Ok, Renamed in 3 files (main.ts, repo.ts, svc.ts), 10 references updated, possible: 3 uses changed too (Include Possible): main.ts:6:23 (the index cannot resolve it), main.ts:6:42 (the index cannot resolve it), svc.ts:24:21 (the index cannot resolve it)
        "#,
    );
    f.accepted("tsc", &["--noEmit", "--strict", "main.ts", "svc.ts"]);
}

/// Rust: a crate's trait may be implemented for the prelude's types (`impl
/// Shape for Vec<f64>`): a method called on a `Vec`, a `String`, a slice
/// may be the trait's, so it is possible for the trait's method (for a
/// type's own method it is none: the prelude's types reach no crate
/// type's). Before, `v.area()` was no use, and the trait method's rename
/// answered `Ok` on a crate rustc refused.
#[test]
fn rust_trait_methods_through_the_preludes_types_are_possible() {
    let f = Fixture::new();
    f.write(
        "src/main.rs",
        "trait Shape {\n    fn area(&self) -> f64;\n}\n\nimpl Shape for Vec<f64> {\n    fn area(&self) -> f64 {\n        self.iter().sum()\n    }\n}\n\nfn main() {\n    let v: Vec<f64> = Vec::new();\n    println!(\"{}\", v.area());\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Shape.area size
        Fail "Cannot rename Shape.area: 1 possible use it cannot prove: src/main.rs:12:21 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Shape.area size Include Possible
        Ok, Renamed in 1 file (src/main.rs), 3 references updated, also renamed: Vec.Shape.area, possible: 1 use changed too (Include Possible): src/main.rs:12:21 (the index cannot resolve it)
        "#,
    );
    rustc_accepts(&f, "src/main.rs");
}

/// Rust: a macro of the crate's (or another crate's) may paste a bare
/// name of its tokens as a method's (`extract!(literal, …)` expanding to
/// `pat.$which()`, globset's tests): the name is a possible use of a
/// member; a standard macro's bare name (`assert!(literal)`) is a
/// value's, no member's. Before, it was no use, and the method's rename
/// answered `Ok` on a crate rustc refused.
#[test]
fn rust_members_a_macro_may_paste_are_possible() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct Glob(pub String);\n\nimpl Glob {\n    pub fn literal(&self) -> usize {\n        self.0.len()\n    }\n}\n\nmacro_rules! extract {\n    ($which:ident, $pat:expr) => {\n        Glob($pat.to_string()).$which()\n    };\n}\n\npub fn three() -> usize {\n    let literal = true;\n    assert!(literal);\n    extract!(literal, \"abc\")\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Glob.literal size
        Fail "Cannot rename Glob.literal: 1 possible use it cannot prove: src/lib.rs:17:13 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Glob.literal size Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated, possible: 1 use changed too (Include Possible): src/lib.rs:17:13 (the index cannot resolve it)
        "#,
    );
    rust_compiles(&f, "src/lib.rs");
}

/// A name several Rust definitions share (itertools' free `coalesce` and
/// its trait's `Itertools.coalesce`), renamed with no file open: the
/// brace index's answer — ambiguous, with the qualified names to ask —
/// not Python's index's "Not found", which was false.
#[test]
fn a_shared_brace_name_renamed_from_no_file_is_ambiguous() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"it\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod adaptors;\n\npub trait Itertools: Iterator {\n    fn coalesce(self) -> usize\n    where\n        Self: Sized,\n    {\n        adaptors::coalesce(self)\n    }\n}\n",
    );
    f.write(
        "src/adaptors.rs",
        "pub fn coalesce<I>(_iter: I) -> usize {\n    0\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol coalesce merge
        Fail "Ambiguous symbol 'coalesce': adaptors.coalesce at src/adaptors.rs:0:0, Itertools.coalesce at src/lib.rs:3:4; use a qualified name"
        > Refactor RenameSymbol adaptors.coalesce merge
        Ok, Renamed in 2 files (src/adaptors.rs, src/lib.rs), 2 references updated
        "#,
    );
    rust_compiles(&f, "src/lib.rs");
}

/// Rust: the values the standard library's containers give — a
/// closure's parameter of an iterator's adapter or consumer (`map`,
/// `for_each`, `filter`, `any`, `all`, `find`), of a `Vec`'s `retain`
/// and `sort_by`, of an `Option`'s `iter()`; what `pop()`, `first()`,
/// `get(i)`, `iter().next()`, `pop_front()`, a `HashMap`'s `get(&k)` and
/// `as_ref()` make, matched by `Some(n)` — are of the element type the
/// parameter declares (`Vec<Node>`, `&[Node]`, `VecDeque<Node>`,
/// `HashMap<u32, Node>`, `Option<Node>`): a method through them is
/// proven. Before, each was possible and the rename refused.
#[test]
fn rust_values_of_standard_containers_are_their_elements() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "use std::collections::{HashMap, VecDeque};\n\npub struct Node {\n    n: usize,\n}\n\nimpl Node {\n    pub fn size(&self) -> usize {\n        self.n\n    }\n}\n\npub fn walk(\n    mut stack: Vec<Node>,\n    nodes: &[Node],\n    opt: Option<Node>,\n    mut queue: VecDeque<Node>,\n    by_id: HashMap<u32, Node>,\n) -> usize {\n    let mut t = nodes.iter().map(|n| n.size()).sum::<usize>();\n    nodes.iter().for_each(|n| t += n.size());\n    t += nodes.iter().filter(|n| n.size() > 0).count();\n    if nodes.iter().any(|n| n.size() > 1) && nodes.iter().all(|n| n.size() < 9) {\n        t += 1;\n    }\n    if let Some(n) = nodes.iter().find(|n| n.size() == 2) {\n        t += n.size();\n    }\n    if let Some(n) = nodes.first() {\n        t += n.size();\n    }\n    if let Some(n) = nodes.get(t % 2) {\n        t += n.size();\n    }\n    if let Some(n) = nodes.iter().next() {\n        t += n.size();\n    }\n    if let Some(n) = opt.as_ref() {\n        t += n.size();\n    }\n    t += opt.iter().map(|n| n.size()).sum::<usize>();\n    if let Some(n) = by_id.get(&1) {\n        t += n.size();\n    }\n    if let Some(n) = queue.pop_front() {\n        t += n.size();\n    }\n    stack.retain(|n| n.size() > 0);\n    stack.sort_by(|a, b| a.size().cmp(&b.size()));\n    while let Some(n) = stack.pop() {\n        t += n.size();\n    }\n    t\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.size weight
        Ok, Renamed in 1 file (src/lib.rs), 19 references updated
        "#,
    );
    let text = f.read("src/lib.rs");
    assert!(text.contains("while let Some(n) = stack.pop() {\n        t += n.weight();"));
    assert!(text.contains("stack.sort_by(|a, b| a.weight().cmp(&b.weight()));"));
    assert!(rust_compiles(&f, "src/lib.rs"));
}

/// Rust: what the code does not prove stays possible — `pop()` where a
/// trait of the crate declares a `pop` (implemented for `Vec<Node>`, it
/// may be the one called), a closure given to a function of the crate
/// (`apply(&v, |n| …)`: what it passes is not read), `get(1..)` (a
/// slice, not an element: `s.len()` is the slice's). A method of the
/// crate's own type of the name (`Pile::pop`) is followed to what it
/// declares it returns.
#[test]
fn rust_values_the_standard_library_does_not_prove_stay_possible() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct Node {\n    n: usize,\n}\n\nimpl Node {\n    pub fn size(&self) -> usize {\n        self.n\n    }\n\n    pub fn len(&self) -> usize {\n        self.n\n    }\n}\n\npub trait Peel {\n    fn pop(&mut self) -> Option<Node>;\n}\n\nimpl Peel for Vec<Node> {\n    fn pop(&mut self) -> Option<Node> {\n        None\n    }\n}\n\npub struct Pile {\n    items: Vec<Node>,\n}\n\nimpl Pile {\n    pub fn pop(&mut self) -> Option<Node> {\n        self.items.pop()\n    }\n}\n\nfn apply(v: &[Node], f: impl Fn(&Node) -> usize) -> usize {\n    v.iter().map(f).sum()\n}\n\npub fn peeled(mut v: Vec<Node>, mut pile: Pile) -> usize {\n    let mut t = apply(&v, |n| n.size());\n    if let Some(n) = pile.pop() {\n        t += n.size();\n    }\n    if let Some(s) = v.get(1..) {\n        t += s.len();\n    }\n    match v.pop() {\n        Some(n) => t + n.size(),\n        None => t,\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Node.size weight
        Fail "Cannot rename Node.size: 2 possible uses it cannot prove: src/lib.rs:39:32 (the index cannot resolve it), src/lib.rs:47:25 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Node.len count
        Fail "Cannot rename Node.len: 1 possible use it cannot prove: src/lib.rs:44:15 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
}

/// Java: a lambda's parameter without a type given first to a standard
/// container's method is of the element its type states — a `List<Foo>`'s
/// `forEach` and `removeIf`, its `stream()`'s `filter`, `map`,
/// `anyMatch`, a `Map<String, Foo>`'s `forEach((k, v) -> …)`, an
/// `Optional<Foo>`'s `ifPresent` —, and a method through it is proven
/// (each was possible, and the rename refused); javac compiles the result
/// and it prints the same. What the types do not state stays possible: a
/// wildcard's element (`List<? extends Foo>`), a project class's own
/// `forEach` (`Bag<Foo>`), a lambda that is not the first argument
/// (`reduce(0, (t, f) -> …)`).
#[test]
fn java_lambda_parameters_of_standard_containers() {
    let f = Fixture::new();
    f.write(
        "p/Foo.java",
        "package p;\n\npublic class Foo {\n    public int bar() {\n        return 2;\n    }\n}\n",
    );
    f.write(
        "p/Bag.java",
        "package p;\n\nimport java.util.function.Consumer;\n\npublic class Bag<T> {\n    public void forEach(Consumer<T> each) {\n    }\n}\n",
    );
    f.write(
        "p/Main.java",
        "package p;\n\nimport java.util.*;\n\npublic class Main {\n    static int total(List<Foo> list, Map<String, Foo> byName, Optional<Foo> maybe) {\n        int[] t = {0};\n        list.forEach(f -> t[0] += f.bar());\n        list.removeIf(f -> f.bar() > 5);\n        t[0] += list.stream().filter(f -> f.bar() > 0).map(f -> f.bar()).findFirst().orElse(0);\n        if (list.stream().anyMatch(f -> f.bar() == 2)) {\n            t[0]++;\n        }\n        byName.forEach((k, v) -> t[0] += v.bar());\n        maybe.ifPresent(f -> t[0] += f.bar());\n        return t[0];\n    }\n\n    public static void main(String[] args) {\n        List<Foo> list = new ArrayList<>(List.of(new Foo()));\n        System.out.println(total(list, Map.of(\"a\", new Foo()), Optional.of(new Foo())));\n    }\n}\n",
    );
    f.write(
        "p/Rest.java",
        "package p;\n\nimport java.util.*;\n\npublic class Rest {\n    static int rest(List<? extends Foo> some, Bag<Foo> bag, List<Foo> list) {\n        int[] t = {0};\n        some.forEach(f -> t[0] += f.bar());\n        bag.forEach(f -> t[0] += f.bar());\n        return t[0] + list.stream().reduce(0, (n, f) -> n + f.bar(), Integer::sum);\n    }\n}\n",
    );
    let sources = ["p/Foo.java", "p/Bag.java", "p/Main.java", "p/Rest.java"];
    let before = java_prints(&f, &sources, "p.Main");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Foo.bar weight
        Fail "Cannot rename p.Foo.bar: 3 possible uses it cannot prove: p/Rest.java:7:36 (the index cannot resolve it), p/Rest.java:8:35 (the index cannot resolve it), p/Rest.java:9:62 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Foo.bar weight Include Possible
        Ok, Renamed in 3 files (p/Foo.java, p/Main.java, p/Rest.java), 11 references updated, possible: 3 uses changed too (Include Possible): p/Rest.java:7:36 (the index cannot resolve it), p/Rest.java:8:35 (the index cannot resolve it), p/Rest.java:9:62 (the index cannot resolve it)
        "#,
    );
    assert!(f
        .read("p/Main.java")
        .contains("byName.forEach((k, v) -> t[0] += v.weight());"));
    assert_eq!(java_prints(&f, &sources, "p.Main"), before);
}

/// CommonJS: a function or class written in place by a module-level
/// `exports.k = …` is the definition its key names — found, shown,
/// renamed with its key everywhere a `require` reads it (a bare name the
/// module does not bind, a global's, is only possible), deleted with its
/// doc comment — and node runs every result.
#[test]
fn commonjs_functions_written_in_place_are_defined_by_their_keys() {
    let f = Fixture::new();
    f.write(
        "lib/util.js",
        "'use strict';\n/** Compiles a value. */\nexports.compile = function (val) {\n  return exports.helper(val) + 1;\n};\nmodule.exports.helper = (x) => x * 2;\nexports.Box = class {\n  constructor(v) { this.v = v; }\n  get() { return this.v; }\n};\nexports.setTimeout = function (fn) { return setTimeout(fn, 0); };\n/** Unused. */\nexports.unused = function () {};\nexports.value = compute();\nfunction compute() { return 3; }\n",
    );
    f.write(
        "main.js",
        "const util = require('./lib/util');\nconst { compile, Box } = require('./lib/util');\nconst helper = require('./lib/util').helper;\nconsole.log(util.compile(1), compile(2), helper(3), new Box(4).get(), new util.Box(5).get(), util.value);\nutil.setTimeout(() => console.log('later'));\n",
    );
    f.accepted("node", &["main.js"]);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References lib.util.compile
        Ok: Found 3 references, with lines, Txt main.js:1:8: const { compile, Box } = require('./lib/util');\nmain.js:3:17,29: console.log(util.compile(1), compile(2), helper(3), new Box(4).get(), new util.Box(5).get(), util.value);
        > Refactor RenameSymbol lib.util.compile build
        Ok, Renamed in 2 files (lib/util.js, main.js), 4 references updated
        > Refactor RenameSymbol lib.util.helper twice
        Ok, Renamed in 2 files (lib/util.js, main.js), 3 references updated
        > Refactor RenameSymbol lib.util.Box Crate
        Ok, Renamed in 2 files (lib/util.js, main.js), 4 references updated
        > Refactor RenameSymbol lib.util.setTimeout later
        Fail "Cannot rename lib.util.setTimeout: 1 possible use it cannot prove: lib/util.js:10:44 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol lib.util.setTimeout later Only Proven
        Ok, Renamed in 2 files (lib/util.js, main.js), 2 references updated, may be broken at: 1 possible use left unchanged (Only Proven): lib/util.js:10:44 (the index cannot resolve it)
        > Refactor RenameSymbol lib.util.build value
        Fail "Name conflict exists: lib/util.js already exports value (module.exports), which the renamed export would then meet; choose another name"
        > Open lib/util.js
        Ok, At 0:0, Length 15
        > Show Function build
        Ok: At 2:0, Txt exports.build = function (val) {\n  return exports.twice(val) + 1;\n};
        > Delete Function unused
        Ok, Deleted 2 lines at 11, At 11:0
        > Save
        Ok, Bytes 353
        "#,
    );
    assert_eq!(
        f.read("main.js").lines().take(3).collect::<Vec<_>>(),
        [
            "const util = require('./lib/util');",
            "const { build, Crate } = require('./lib/util');",
            "const helper = require('./lib/util').twice;",
        ]
    );
    let util = f.read("lib/util.js");
    assert!(util.contains("exports.build = function (val) {\n  return exports.twice(val) + 1;"));
    assert!(util.contains("exports.later = function (fn) { return setTimeout(fn, 0); };"));
    assert!(!util.contains("unused"));
    assert!(f.read("main.js").contains("new util.Crate(5).get()"));
    f.accepted("node", &["main.js"]);
}

/// A module read whole as a value (`import * as formatters` passed on as
/// a value of an interface, indexed as `ns['k']`; a CommonJS module's
/// `require` whose keys are listed) exposes its exports' names to code
/// the index does not follow: a rename of one is refused,
/// saying where (found by the react-day-picker sweep, where the rename
/// answered `Ok` and tsc then refused the namespace as a `Formatters`);
/// member reads alone (`ns.f`, also across a line break) are proven.
#[test]
fn modules_read_whole_as_values_refuse_their_exports_renames() {
    let f = Fixture::new();
    f.write(
        "fmt/day.ts",
        "export function formatDay(d: number): string { return 'd' + d; }\nexport function formatMonth(m: number): string { return 'm' + m; }\n",
    );
    f.write("fmt/index.ts", "export * from './day';\n");
    f.write(
        "defaults.ts",
        "import * as formatters from './fmt';\ninterface Formatters { formatDay(d: number): string }\nexport const all: Formatters = formatters;\nconsole.log(formatters\n  .formatMonth(1));\n",
    );
    f.write(
        "keys.ts",
        "import * as day from './fmt/day';\nconsole.log(day.formatMonth(2), day['formatDay'](3));\n",
    );
    f.accepted("tsc", &["--noEmit", "--strict", "defaults.ts", "keys.ts"]);
    // CommonJS: a module bound whole is its `module.exports`, whose stated
    // keys are read by name when it is passed on
    f.write(
        "lib/cmds.js",
        "function build() { return 1; }\nfunction clean() { return 2; }\nexports.build = build;\nexports.clean = clean;\n",
    );
    f.write(
        "run.js",
        "const cmds = require('./lib/cmds');\nfor (const k of Object.keys(cmds)) console.log(k, cmds[k]());\n",
    );
    f.accepted("node", &["run.js"]);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol lib.cmds.build make
        Fail "Cannot rename lib.cmds.build: 1 possible use it cannot prove: lib/cmds.js:0:9 (its module is read whole as a value at run.js:1:28, run.js:1:50, where code may read the export by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol fmt.day.formatDay fmtDay
        Fail "Cannot rename fmt.day.formatDay: 1 possible use it cannot prove: fmt/day.ts:0:16 (its module is read whole as a value at defaults.ts:2:31, keys.ts:1:32, where code may read the export by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol fmt.day.formatMonth fmtMonth
        Fail "Cannot rename fmt.day.formatMonth: 1 possible use it cannot prove: fmt/day.ts:1:16 (its module is read whole as a value at defaults.ts:2:31, keys.ts:1:32, where code may read the export by its name); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol fmt.day.formatMonth fmtMonth Include Possible
        Ok, Renamed in 3 files (defaults.ts, fmt/day.ts, keys.ts), 3 references updated, possible: 1 use changed too (Include Possible): fmt/day.ts:1:16 (its module is read whole as a value at defaults.ts:2:31, keys.ts:1:32, where code may read the export by its name)
        "#,
    );
    assert!(f
        .read("defaults.ts")
        .contains("console.log(formatters\n  .fmtMonth(1));"));
    assert!(f.read("keys.ts").contains("day.fmtMonth(2)"));
    f.accepted("tsc", &["--noEmit", "--strict", "defaults.ts", "keys.ts"]);
}

/// A name bound to the function a wrapper returns (`memo(…)`,
/// `debounce(…)`, by the callee's last name) is a function: found,
/// renamed with its uses; tsc accepts the result.
#[test]
fn functions_wrappers_return_are_functions() {
    let f = Fixture::new();
    f.write(
        "lib.ts",
        "export function memo<T>(f: T): T { return f; }\nexport const _ = { debounce: <T>(f: T, _ms: number): T => f };\nexport const Field = memo(memo((n: number) => {\n  const twice = () => n * 2;\n  return n > 0 ? twice() : 0;\n}));\nexport const save = _.debounce(function save(x: string) { return x; }, 10);\n",
    );
    f.write(
        "main.ts",
        "import { Field, save } from './lib';\nconsole.log(Field(1), save('a'));\n",
    );
    f.accepted("tsc", &["--noEmit", "--strict", "main.ts"]);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open lib.ts
        Ok, At 0:0, Length 7
        > Analyze File Structure
        Ok: File: function memo at 0:7, variable _ at 1:13, function Field at 2:7, function save at 6:7
        > Analyze Function Field Complexity
        Ok: Function Field has complexity 2; Field 2, Field.twice 1
        > Refactor RenameSymbol lib.Field Input
        Ok, Renamed in 2 files (lib.ts, main.ts), 3 references updated
        > Refactor RenameSymbol lib.save store
        Ok, Renamed in 2 files (lib.ts, main.ts), 3 references updated
        "#,
    );
    assert_eq!(
        f.read("main.ts"),
        "import { Input, store } from './lib';\nconsole.log(Input(1), store('a'));\n"
    );
    f.accepted("tsc", &["--noEmit", "--strict", "main.ts"]);
}

/// Functions written on a module-level name or its prototype, the
/// pre-class way (`Route.prototype.dispatch = function`, `Route.create =
/// function`, express's `app.init = function`): methods of that name,
/// addressed as `Owner.method`; `this.m` in a method written on the same
/// owner (or in the object `Owner.prototype = { … }` assigns) and
/// `Owner.m` of one written on the owner itself are proven,
/// `Owner.m` of a prototype's is not (another property), any other
/// value's `.m` possible. (Before, they were no element: "Not found", and
/// a function nested in one was listed as the file's own.) Node runs
/// every result.
#[test]
fn javascript_methods_written_on_their_owner_are_its_methods() {
    let f = Fixture::new();
    f.write(
        "lib/route.js",
        "'use strict';\nfunction Route(path) {\n  this.path = path;\n}\n\n/** Dispatches a request. */\nRoute.prototype.dispatch = function dispatch(req) {\n  return this.handle(req) + next();\n  function next() { return '!'; }\n};\n\nRoute.prototype.handle = function (req) {\n  return this.path + ':' + req;\n};\n\nRoute.create = function (path) {\n  return new Route(path);\n};\n\nmodule.exports = Route;\n",
    );
    f.write(
        "lib/app.js",
        "'use strict';\nvar app = exports = module.exports = {};\napp.init = function init() {\n  this.settings = {};\n  return this;\n};\napp.set = function set(key, value) {\n  this.settings[key] = value;\n  return this;\n};\napp.enabled = (key) => Boolean(app.settings[key]);\n",
    );
    f.write(
        "main.js",
        "const Route = require('./lib/route');\nconst app = require('./lib/app');\nconst r = Route.create('/a');\nconsole.log(r.dispatch('x'), app.init().set('k', 1).enabled('k'));\nconst Emitter = require('./lib/emitter');\nconsole.log(new Emitter().on('x', console.log).emit('x', 1));\n",
    );
    f.write(
        "lib/emitter.js",
        "'use strict';\nfunction Emitter() { this.handlers = {}; }\nEmitter.prototype = {\n  on(name, fn) { (this.handlers[name] = this.handlers[name] || []).push(fn); return this; },\n  emit: function (name, value) { (this.handlers[name] || []).forEach((fn) => fn(value)); return this.count(name); },\n  count(name) { return (this.handlers[name] || []).length; },\n};\nmodule.exports = Emitter;\n",
    );
    f.accepted("node", &["main.js"]);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open lib/route.js
        Ok, At 0:0, Length 20
        > Analyze File Structure
        Ok: File: function Route at 1:0, method Route.dispatch at 6:0, method Route.handle at 11:0, static method Route.create at 15:0
        > Show Method Route.handle
        Ok: At 11:0, Txt Route.prototype.handle = function (req) {\n  return this.path + ':' + req;\n};
        > Goto Method Route.handle
        Ok, At 11:0
        > Insert Method "close() {}"
        Fail "Not in class: Route.handle is written on Route outside any class; Insert Function \"Route.prototype.name = function (…) { … };\" writes another after it"
        > Goto Function Route.dispatch.next
        Ok, At 8:2
        > Find References lib.route.Route.handle
        Ok: Found 1 reference, with lines, Txt lib/route.js:7:14: return this.handle(req) + next();
        > Refactor RenameSymbol lib.route.Route.handle dispatch
        Fail "Name conflict exists: lib/route.js:7 already defines Route.dispatch; choose another name"
        > Refactor RenameSymbol lib.route.Route.handle serve
        Ok, Renamed in 1 file (lib/route.js), 2 references updated
        > Refactor RenameSymbol lib.route.Route.create make
        Ok, Renamed in 2 files (lib/route.js, main.js), 2 references updated
        > Refactor RenameSymbol lib.route.Route.dispatch run
        Fail "Cannot rename lib.route.Route.dispatch: 1 possible use it cannot prove: main.js:3:14 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol lib.app.app.set put
        Fail "Cannot rename lib.app.app.set: 1 possible use it cannot prove: main.js:3:40 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol lib.app.app.set put Include Possible
        Ok, Renamed in 2 files (lib/app.js, main.js), 2 references updated, possible: 1 use changed too (Include Possible): main.js:3:40 (the index cannot resolve it)
        > Open lib/emitter.js
        Ok, At 0:0, Length 8
        > Analyze File Structure
        Ok: File: function Emitter at 1:0, method Emitter.on at 3:2, method Emitter.emit at 4:2, method Emitter.count at 5:2
        > Refactor RenameSymbol lib.emitter.Emitter.count size
        Ok, Renamed in 1 file (lib/emitter.js), 2 references updated
        > Refactor RenameSymbol lib.emitter.Emitter.on emit
        Fail "Name conflict exists: lib/emitter.js:5 already defines Emitter.emit; choose another name"
        > Refactor RenameSymbol lib.emitter.Emitter.on listen
        Fail "Cannot rename lib.emitter.Emitter.on: 1 possible use it cannot prove: main.js:5:26 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    let route = f.read("lib/route.js");
    assert!(route.contains("return this.serve(req) + next();"));
    assert!(route.contains("Route.prototype.serve = function (req) {"));
    assert!(route.contains("Route.make = function (path) {"));
    assert!(f.read("main.js").contains("Route.make('/a');"));
    assert!(f.read("main.js").contains("app.init().put('k', 1)"));
    assert!(f
        .read("lib/emitter.js")
        .contains("return this.size(name); },\n  size(name) {"));
    f.accepted("node", &["main.js"]);
}

/// ... and a function or class written in place under a key of the
/// object a module-level `module.exports = { … }` assigns (a method, a
/// pair): found, renamed with its key on both sides (a destructuring's
/// alias kept), a new name another key holds refused; node runs every
/// result.
#[test]
fn commonjs_functions_of_the_exports_object_are_defined_by_their_keys() {
    let f = Fixture::new();
    f.write(
        "lib/fmt.js",
        "'use strict';\nfunction pad(s) { return ' ' + s; }\nmodule.exports = {\n  /** Parses. */\n  parse(str) { return str.split(','); },\n  format: function (list) { return list.map(pad).join(module.exports.sep()); },\n  sep: () => ',',\n  Box: class { get() { return 1; } },\n  pad,\n  alias: pad,\n  count: 3,\n};\n",
    );
    f.write(
        "main.js",
        "const fmt = require('./lib/fmt');\nconst { parse, format: show, Box } = require('./lib/fmt');\nconsole.log(fmt.format(parse('a,b')), show(['c']), new Box().get(), fmt.pad('x'), fmt.count, require('./lib/fmt').sep());\n",
    );
    f.accepted("node", &["main.js"]);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References lib.fmt.sep
        Ok: Found 2 references, with lines, Txt lib/fmt.js:5:69: format: function (list) { return list.map(pad).join(module.exports.sep()); },\nmain.js:2:114: console.log(fmt.format(parse('a,b')), show(['c']), new Box().get(), fmt.pad('x'), fmt.count, require('./lib/fmt').sep());
        > Refactor RenameSymbol lib.fmt.format render
        Ok, Renamed in 2 files (lib/fmt.js, main.js), 3 references updated
        > Refactor RenameSymbol lib.fmt.parse read
        Ok, Renamed in 2 files (lib/fmt.js, main.js), 3 references updated
        > Refactor RenameSymbol lib.fmt.sep separator
        Ok, Renamed in 2 files (lib/fmt.js, main.js), 3 references updated
        > Refactor RenameSymbol lib.fmt.Box Crate
        Ok, Renamed in 2 files (lib/fmt.js, main.js), 3 references updated
        > Refactor RenameSymbol lib.fmt.read count
        Fail "Name conflict exists: lib/fmt.js already exports count (module.exports), which the renamed export would then meet; choose another name"
        "#,
    );
    assert_eq!(
        f.read("main.js").lines().nth(1),
        Some("const { read, render: show, Crate } = require('./lib/fmt');")
    );
    let fmt = f.read("lib/fmt.js");
    assert!(fmt.contains("  read(str) { return str.split(','); },"));
    assert!(fmt.contains(
        "  render: function (list) { return list.map(pad).join(module.exports.separator()); },"
    ));
    f.accepted("node", &["main.js"]);
}

/// CommonJS: `module.exports = require('./a')` passes `a`'s exports on —
/// followed (through chains of such modules) as `a`'s own; a module that
/// passes them on and writes keys of its own, or whose keys only a run
/// knows (`Object.assign(module.exports, require('./a'))`), may hold any
/// module's export of the name: its uses are possible. (Before, such uses
/// were other symbols', and the rename answered `Ok` with them left: node
/// then failed.) Node runs every result.
#[test]
fn commonjs_modules_passing_another_on_are_followed() {
    let f = Fixture::new();
    f.write(
        "a.js",
        "function f() { return 1; }\nmodule.exports = { f };\n",
    );
    f.write("m.js", "module.exports = require('./a');\n");
    f.write("n.js", "module.exports = require('./m');\n");
    f.write(
        "mixed.js",
        "module.exports = require('./a');\nmodule.exports.x = 1;\n",
    );
    f.write(
        "assigned.js",
        "Object.assign(module.exports, require('./a'));\n",
    );
    f.write(
        "main.js",
        "const m = require('./m');\nconst { f } = require('./m');\nconst n = require('./n');\nconsole.log(m.f(), f(), require('./m').f(), n.f());\n",
    );
    f.write(
        "other.js",
        "const { f } = require('./mixed');\nconst assigned = require('./assigned');\nconsole.log(f(), assigned.f());\n",
    );
    // (an ES module importing them: node reads a passed-on module's keys)
    f.write(
        "esm.mjs",
        "import { f } from './m.js';\nimport * as ns from './m.js';\nimport d from './m.js';\nconsole.log(f(), ns.f(), d.f());\n",
    );
    f.accepted("node", &["main.js"]);
    f.accepted("node", &["other.js"]);
    f.accepted("node", &["esm.mjs"]);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References a.f
        Ok: Found 7 references and 6 possible, with lines, Txt a.js:1:19: module.exports = { f };\nesm.mjs:3:27: console.log(f(), ns.f(), d.f());\nmain.js:1:8: const { f } = require('./m');\nmain.js:3:14,19,39,46: console.log(m.f(), f(), require('./m').f(), n.f());\npossible:\nesm.mjs:0:9: import { f } from './m.js';\nesm.mjs:3:12,20: console.log(f(), ns.f(), d.f());\nother.js:0:8: const { f } = require('./mixed');\nother.js:2:12,26: console.log(f(), assigned.f());
        > Refactor RenameSymbol a.f g
        Fail "Cannot rename a.f: 6 possible uses it cannot prove: esm.mjs:0:9 (the index cannot resolve it), esm.mjs:3:12 (the index cannot resolve it), esm.mjs:3:20 (the index cannot resolve it), other.js:0:8 (the index cannot resolve it), other.js:2:12 (the index cannot resolve it), other.js:2:26 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol a.f g Include Possible
        Ok, Renamed in 4 files (a.js, esm.mjs, main.js, other.js), 14 references updated, possible: 6 uses changed too (Include Possible): esm.mjs:0:9 (the index cannot resolve it), esm.mjs:3:12 (the index cannot resolve it), esm.mjs:3:20 (the index cannot resolve it), other.js:0:8 (the index cannot resolve it), other.js:2:12 (the index cannot resolve it), … (1 more)
        "#,
    );
    f.accepted("node", &["main.js"]);
    f.accepted("node", &["other.js"]);
    f.accepted("node", &["esm.mjs"]);
}

/// TypeScript signatures: what tsc refuses or what silently changes the
/// calls is refused — a default parameter added, without `At`, before a
/// rest parameter (it took the calls' first rest argument), a rest
/// parameter not last in a new list (TS1014), an abstract method made
/// private (TS1243), a parameter property removed (its field went with
/// it, TS2339); a parameter added `At 0` goes after `this: T` (TS2680).
#[test]
fn typescript_signature_changes_keep_what_tsc_requires() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export function sum(a: number, ...rest: number[]) { return a + rest.length; }\nexport function f(this: { k: number }, a: number) { return this.k + a; }\nexport const g = (a: number, b: number) => a + b;\nexport abstract class Base { abstract area(): number; }\nexport class P { constructor(public x: number) {} get() { return this.x; } }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 5
        > Modify Function sum AddParam "z = 0"
        Fail "z = 0 would go before the rest parameter ...rest: number[], and take the first of the arguments the calls give it: add it with At 1 (the calls are then named)"
        > Modify Function g ChangeSignature "...b: number[], a: number"
        Fail "...b: number[] is a rest or variadic parameter, which must be the last"
        > Modify Method Base.area SetVisibility private
        Fail "Base.area is abstract: a subclass must implement it, which it cannot see if private; make it protected, or give it a body first"
        > Modify Method P.constructor RemoveParam x
        Fail "x is a parameter property: it declares the field P.x too, which removing it removes; write the field in the class first, or rename it"
        > Modify Function f AddParam "z = 0" At 0
        Ok, Modified function f (1 edit), At 1:7
        > Modify Function g ChangeSignature "cb: (x: number) => void, a: number, b: number"
        Ok, Modified function g (1 edit), At 2:7
        > Save
        Ok, Bytes 366
        "#,
    );
    assert!(f
        .read("a.ts")
        .contains("export function f(this: { k: number }, z = 0, a: number)"));
}

/// Rust inserts: with the cursor on an item's doc comment or attribute,
/// a function goes after the item (it went between `#[derive(Debug)]`
/// and the struct, E0774); a module-level definition of a name the file
/// imports is refused (E0255).
#[test]
fn rust_inserts_keep_attributes_and_imports_whole() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod a;\npub fn helper() {}\n/// A point.\n#[derive(Debug)]\npub struct P;\n",
    );
    f.write(
        "src/a.rs",
        "use crate::helper;\nuse crate::P;\n\npub fn run(_p: P) {\n    helper();\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/a.rs; Goto EndOfFile
        Ok
        Ok, At 0:0, Length 6
        Ok, At 6:0
        > Insert Function "fn helper() {}"
        Fail "Refused, nothing changed: the file imports 'helper' (from crate::helper): a definition of the name beside the import is refused by Rust; rename the new one, or remove the import first"
        > Insert Class "struct P;"
        Fail "Refused, nothing changed: the file imports 'P' (from crate::P): a definition of the name beside the import is refused by Rust; rename the new one, or remove the import first"
        > Open src/lib.rs; Goto 3:0
        Ok, At 0:0, Length 5
        Ok, At 3:0
        > Insert Function "pub fn f() {}"
        Ok, Inserted 2 lines at 5, At 7:0
        > Save
        Ok, Bytes 89
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("#[derive(Debug)]\npub struct P;\n\npub fn f() {}\n"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Java: a signature change that gives a method the parameter types of an
/// overload is refused ("method clamp(int,int) is already defined").
#[test]
fn java_signature_changes_do_not_duplicate_an_overload() {
    let f = Fixture::new();
    f.write(
        "src/e/Util.java",
        "package e;\npublic final class Util {\n  public static int clamp(int v) { return Math.min(v, 10); }\n  public static int clamp(int v, int hi) { return Math.min(v, hi); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/e/Util.java
        Ok
        Ok, At 0:0, Length 5
        > Modify Method Util.clamp#1 AddParam "int hi"
        Fail "the new signature clashes: 'clamp' is already defined (method Util.clamp at 3:2): Java allows one method of a name and parameter types (erased) in a class; rename the new one, or edit the existing one (Show Method Util.clamp)"
        > Modify Method Util.clamp#1 AddParam "long hi"
        Ok, Modified method Util.clamp(v) (1 edit), At 2:2
        "#,
    );
}

/// A new parameter named like a name the body reads (a package-level
/// variable, an import, a builtin) would hide it; one named like a local
/// or a Go named result would clash with it: both refused. Go refuses a
/// named parameter beside unnamed ones.
#[test]
fn a_new_parameter_neither_hides_nor_clashes_with_the_bodys_names() {
    let f = Fixture::new();
    f.write("go.mod", "module sig\n\ngo 1.19\n");
    f.write(
        "t.go",
        "package sig\n\nimport \"fmt\"\n\nvar counter int\n\nfunc body(a int) int {\n\ty := a + 1\n\tfmt.Println(y, counter)\n\treturn len(fmt.Sprint(y))\n}\n\nfunc named(a int) (res int) {\n\tres = a\n\treturn\n}\n\nfunc unnamed(int, string) int { return 0 }\n",
    );
    f.write(
        "A.java",
        "class A {\n    int count;\n    int get(int a) { return count + a; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open t.go
        Ok
        Ok, At 0:0, Length 18
        > Modify Function body AddParam "counter int"
        Fail "body reads counter (at 8:16), which a parameter of that name would then hide; choose another name"
        > Modify Function body AddParam "fmt int"
        Fail "body reads fmt (at 8:1), which a parameter of that name would then hide; choose another name"
        > Modify Function body AddParam "len int"
        Fail "body reads len (at 9:8), which a parameter of that name would then hide; choose another name"
        > Modify Function body AddParam "y int"
        Fail "body already declares y (at 7:1): a parameter of that name would clash with it; choose another name"
        > Modify Function body ChangeSignature "a int, y int"
        Fail "body already declares y (at 7:1): a parameter of that name would clash with it; choose another name"
        > Modify Function named AddParam "res int"
        Fail "named already declares res (at 12:19): a parameter of that name would clash with it; choose another name"
        > Modify Function unnamed AddParam "x int"
        Fail "unnamed's parameters have no names (int, string): Go refuses mixed named and unnamed parameters, and would read them as names of one type; add the type alone (AddParam \"int\"), or name them first (Modify … ChangeSignature)"
        > Modify Function unnamed AddParam "bool"
        Ok, Modified function unnamed (1 edit), At 17:0
        > Modify Function body AddParam "z int"
        Ok, Modified function body (1 edit), At 6:0
        > Open A.java
        Ok, At 0:0, Length 4
        > Modify Method A.get AddParam "int count"
        Fail "A.get reads count (at 2:28), which a parameter of that name would then hide; choose another name"
        "#,
    );
}

/// A method whose parameters other methods must share (a Java
/// interface's and its implementations', a Rust trait's and its impls',
/// a Go method an interface of its name may need) is not changed alone.
#[test]
fn a_methods_parameters_are_not_changed_apart_from_the_methods_tied_to_it() {
    let f = Fixture::new();
    f.write("go.mod", "module ifc\n\ngo 1.19\n");
    f.write(
        "s.go",
        "package ifc\n\ntype Shape interface{ Area() float64 }\n\ntype Sq struct{ S float64 }\n\nfunc (q Sq) Area() float64 { return q.S * q.S }\n\nfunc (q Sq) Side() float64 { return q.S }\n\nfunc Sum(xs ...Shape) float64 { return xs[0].Area() }\n\nfunc Run() float64 { return Sum(Sq{S: 2}) }\n",
    );
    f.write(
        "p/Shape.java",
        "package p;\npublic interface Shape { double area(); }\n",
    );
    f.write(
        "p/Sq.java",
        "package p;\nclass Sq implements Shape { public double area() { return 1; } }\n",
    );
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub trait Area {\n    fn area(&self) -> f64;\n}\n\npub struct Sq(pub f64);\n\nimpl Area for Sq {\n    fn area(&self) -> f64 {\n        self.0 * self.0\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open s.go
        Ok
        Ok, At 0:0, Length 13
        > Modify Method Sq.Area AddParam "k float64"
        Fail "Cannot change the parameters of Sq.Area alone: its type may implement an interface through it, whose method of the name is at s.go:2:22 (ifc.Shape.Area has a member of the name, which may override it, be overridden by it or declare it for an interface), and would no longer; this command changes one method: change theirs with it by hand, or leave it as it is"
        > Delete Method Sq.Area
        Fail "Cannot delete Sq.Area alone: its type may implement an interface through it, whose method of the name is at s.go:2:22 (ifc.Shape.Area has a member of the name, which may override it, be overridden by it or declare it for an interface), and would no longer; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 6:6"
        > Modify Method Sq.Side AddParam "k float64"
        Ok, Modified method Sq.Side (1 edit), At 8:0
        > Open p/Shape.java
        Ok, At 0:0, Length 2
        > Modify Method Shape.area AddParam "int k"
        Fail "Cannot change the parameters of Shape.area alone: p.Sq.area overrides it, implements it or is overridden by it, and must agree with it; this command changes one method: change theirs with it by hand, or leave it as it is"
        > Open src/lib.rs
        Ok, At 0:0, Length 11
        > Modify Method Area.area AddParam "scale: f64"
        Fail "Cannot change the parameters of Area.area alone: Sq.Area.area overrides it, implements it or is overridden by it, and must agree with it; this command changes one method: change theirs with it by hand, or leave it as it is"
        "#,
    );
}

/// Java tells overloads apart by their erased parameter types: `T...`
/// is `T[]`, `List<String>` is `List<Integer>`, `java.lang.Integer` is
/// `Integer`; two fields or two classes of a name are no overloads.
/// Before: each was inserted as "an overload" (javac: "cannot declare
/// both", "same erasure", "already defined", "duplicate class").
#[test]
fn java_overloads_are_told_apart_by_their_erased_types() {
    let f = Fixture::new();
    f.write(
        "p/K.java",
        "package p;\nimport java.util.List;\nclass K {\n    int x;\n    void take(String... parts) {}\n    void put(List<String> l) {}\n    void num(Integer i) {}\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/K.java; Goto Class K
        Ok
        Ok, At 0:0, Length 8
        Ok, At 2:0
        > Insert Method "void take(String[] parts) {}"
        Fail "Refused, nothing changed: 'take' is already defined (method K.take at 4:4): Java allows one method of a name and parameter types (erased) in a class; rename the new one, or edit the existing one (Show Method K.take)"
        > Insert Method "void put(List<Integer> l) {}"
        Fail "Refused, nothing changed: 'put' is already defined (method K.put at 5:4): Java allows one method of a name and parameter types (erased) in a class; rename the new one, or edit the existing one (Show Method K.put)"
        > Insert Method "void num(java.lang.Integer j) {}"
        Fail "Refused, nothing changed: 'num' is already defined (method K.num at 6:4): Java allows one method of a name and parameter types (erased) in a class; rename the new one, or edit the existing one (Show Method K.num)"
        > Insert Method "int x = 0;"
        Fail "Refused, nothing changed: 'x' is already defined (attribute K.x at 3:8): Java allows one field of a name in a class, and one class of a name in a scope; rename the new one, or edit the existing one (Show Variable K.x)"
        > Goto EndOfFile
        Ok, At 8:0
        > Insert Class "class K {\n}"
        Fail "Refused, nothing changed: 'K' is already defined (class K at 2:0): Java allows one field of a name in a class, and one class of a name in a scope; rename the new one, or edit the existing one (Show Class K)"
        > Goto Class K
        Ok, At 2:0
        > Insert Method "void num(int j) {}"
        Ok, Inserted 2 lines at 7, 'num' is also defined (method K.num at 6:4): an overload, At 9:0
        > Save
        Ok, Bytes 174
        "#,
    );
    f.accepted("javac", &["-d", "classes", "p/K.java"]);
}

/// A member read through a name an import binds to a package or class
/// outside the project (Go's `time.Now()`, Java's `MethodHandles.lookup()`)
/// is that package's or class's, never the project type's member of the
/// name. Before: possible, and `Include Possible` wrote `time.At()`.
#[test]
fn a_member_read_through_an_outside_import_is_its_own() {
    let f = Fixture::new();
    f.write("go.mod", "module qual\n\ngo 1.19\n");
    f.write(
        "q.go",
        "package qual\n\nimport \"time\"\n\ntype F struct{ Now int }\n\nfunc stamp() time.Time { return time.Now() }\n\nfunc get(f F) int { return f.Now }\n",
    );
    f.write(
        "p/L.java",
        "package p;\nimport java.lang.invoke.MethodHandles;\nclass L {\n    static Object lookup() { return null; }\n    Object f() { return MethodHandles.lookup(); }\n    Object g() { return L.lookup(); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol F.Now At
        Ok
        Ok, Renamed in 1 file (q.go), 2 references updated
        > Refactor RenameSymbol L.lookup find
        Ok, Renamed in 1 file (p/L.java), 2 references updated
        "#,
    );
    assert!(f
        .read("q.go")
        .contains("return time.Now() }\n\nfunc get(f F) int { return f.At }"));
    assert!(f
        .read("p/L.java")
        .contains("MethodHandles.lookup(); }\n    Object g() { return L.find(); }"));
    f.accepted("go", &["vet", "./..."]);
    f.accepted("javac", &["-d", "classes", "p/L.java"]);
}

/// Go: a struct literal whose type a map literal elides — its value's
/// (`map[string]P{"a": {X: 1}}`), its key's (`map[P]bool{{X: 2}: true}`),
/// through a slice of them (`map[string][]P{"n": {{X: 5}}}`) — has the
/// field's key renamed with it. Before: left (`unknown field 'X'`).
#[test]
fn go_keys_of_literals_a_map_literal_elides_are_renamed() {
    let f = Fixture::new();
    f.write("go.mod", "module lit\n\ngo 1.19\n");
    f.write(
        "m.go",
        "package lit\n\ntype P struct{ X int }\n\nvar ByName = map[string]P{\"a\": {X: 1}}\n\nvar ByKey = map[P]bool{{X: 2}: true}\n\nvar Nested = map[string][]P{\"n\": {{X: 5}}}\n\nfunc Get(p P) int { return p.X }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol P.X Left
        Ok
        Ok, Renamed in 1 file (m.go), 5 references updated
        > Open m.go; Modify Variable P.Left Rename X
        Ok, At 0:0, Length 11
        Ok, Modified attribute P.Left (5 edits), At 2:15
        > Save
        Ok, Bytes 192
        "#,
    );
    assert!(f.read("m.go").contains("{\"a\": {X: 1}}"));
    f.accepted("go", &["vet", "./..."]);
}

/// Rust: an associated type's or constant's name in an `impl` or a
/// `trait` (`type Item = u8;` of `impl Iterator`, `const LIMIT: u8;`) is
/// its own, no use of the module's item of the name. Before: renamed
/// with the struct `Item` (E0437) and the constant `LIMIT` (E0576).
#[test]
fn rust_associated_items_are_no_uses_of_the_items_of_their_name() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub struct Item(pub u8);\n\npub struct Counter(pub u8);\n\nimpl Iterator for Counter {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> {\n        None\n    }\n}\n\npub fn make() -> Item {\n    Item(1)\n}\n\npub const LIMIT: u8 = 3;\n\npub trait Lim {\n    const LIMIT: u8;\n    type Out;\n}\n\npub struct C;\nimpl Lim for C {\n    const LIMIT: u8 = 4;\n    type Out = Item;\n}\n\npub fn get() -> u8 {\n    LIMIT + <C as Lim>::LIMIT\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol Item Thing
        Ok
        Ok, Renamed in 1 file (src/lib.rs), 4 references updated
        > Refactor RenameSymbol LIMIT CAP
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        "#,
    );
    let text = f.read("src/lib.rs");
    assert!(text.contains("    type Item = u8;"));
    assert!(text.contains("    type Out = Thing;"));
    assert!(text.contains("    CAP + <C as Lim>::LIMIT"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// TypeScript: an interface of the global scope (a script's, one in
/// `declare global`) named like a global type of TypeScript's libraries
/// merges with it; its rename is refused. Before: `Ok`, and every
/// `window.appVersion` and `[1, 2].last()` failed (TS2339).
#[test]
fn a_typescript_augmentation_of_a_global_type_is_not_renamed() {
    let f = Fixture::new();
    f.write("globals.d.ts", "interface Window { appVersion: string; }\n");
    f.write(
        "a.ts",
        "declare global { interface Array<T> { last(): T | undefined } }\nexport const v: string = window.appVersion;\nexport const l = [1, 2].last();\nexport interface Local { n: number }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol Window AppWindow
        Ok
        Fail "Cannot rename globals.d.Window: it is declared in the global scope (a script, with no import or export), where it merges with TypeScript's own global type Window; renamed, its members would no longer be that type's"
        > Refactor RenameSymbol Array List
        Fail "Cannot rename a.Array: it is declared in the global scope (in declare global), where it merges with TypeScript's own global type Array; renamed, its members would no longer be that type's"
        > Refactor RenameSymbol Local Mine
        Ok, Renamed in 1 file (a.ts), 1 reference updated
        "#,
    );
}

/// Java: an anonymous class's override in a static or instance
/// initializer (`static { HEX = new Conv() { … }; }`) is renamed with the
/// method it overrides. Before: left ("is not abstract and does not
/// override abstract method convert(int)").
#[test]
fn java_anonymous_overrides_in_initializers_are_renamed() {
    let f = Fixture::new();
    f.write(
        "p/Conv.java",
        "package p;\npublic abstract class Conv { protected abstract String conv(int x); }\n",
    );
    f.write(
        "p/Holder.java",
        "package p;\npublic final class Holder {\n  static final Conv HEX;\n  final Conv dec;\n  static { HEX = new Conv() { @Override protected String conv(int x) { return Integer.toHexString(x); } }; }\n  { dec = new Conv() { @Override protected String conv(int x) { return \"\" + x; } }; }\n  Conv m() { return new Conv() { @Override protected String conv(int x) { return \"\"; } }; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol Conv.conv convert
        Ok
        Ok, Renamed in 2 files (p/Conv.java, p/Holder.java), 4 references updated, also renamed: p.Holder.conv, p.Holder.m.conv
        "#,
    );
    assert_eq!(
        f.read("p/Holder.java")
            .matches("String convert(int x)")
            .count(),
        3
    );
    f.accepted("javac", &["-d", "classes", "p/Conv.java", "p/Holder.java"]);
}

/// Java: a method's access is not changed apart from the methods that
/// override it or that it overrides (an override takes no weaker access,
/// and a private one overrides none), nor its parameters; an
/// interface's member is never protected, its abstract method never
/// private, its default method not private while default; an enum's
/// constructor never public. Before: each answered `Ok` (javac:
/// "attempting to assign weaker access", "modifier … not allowed
/// here"), or compiled and printed `base` instead of `sub x`.
#[test]
fn java_access_changes_keep_to_overrides_and_places() {
    let f = Fixture::new();
    f.write(
        "p/Base.java",
        "package p;\npublic class Base { public String greet(String who) { return \"base\"; } public String run() { return greet(\"x\"); } }\n",
    );
    f.write(
        "p/Sub.java",
        "package p;\npublic class Sub extends Base { public String greet(String who) { return \"sub \" + who; } public String other() { return \"\"; } }\n",
    );
    f.write(
        "p/I.java",
        "package p;\ninterface I { String m(); default String d() { return m(); } }\n",
    );
    f.write(
        "p/E.java",
        "package p;\nenum E { A(1); final int v; E(int v) { this.v = v; } }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Sub.java
        Ok
        Ok, At 0:0, Length 2
        > Modify Method Sub.greet SetVisibility protected
        Fail "Cannot change the access of Sub.greet alone: p.Base.greet overrides it, implements it or is overridden by it, and must agree with it; this command changes one method: change theirs with it by hand, or leave it as it is"
        > Modify Method Sub.other SetVisibility protected
        Ok, Modified method Sub.other (1 edit), At 1:89
        > Save; Open p/Base.java
        Ok, Bytes 142
        Ok, At 0:0, Length 2
        > Modify Method Base.greet ChangeSignature "Object who"
        Fail "Cannot change the parameters of Base.greet alone: p.Sub.greet overrides it, implements it or is overridden by it, and must agree with it; this command changes one method: change theirs with it by hand, or leave it as it is"
        > Modify Method Base.greet SetVisibility private
        Fail "Cannot change the access of Base.greet alone: p.Sub.greet overrides it, implements it or is overridden by it, and must agree with it; this command changes one method: change theirs with it by hand, or leave it as it is"
        > Open p/I.java
        Ok, At 0:0, Length 2
        > Modify Method I.m SetVisibility protected
        Fail "I.m cannot be made protected: an interface's member is public (or private with a body), never protected"
        > Modify Method I.m SetVisibility private
        Fail "I.m cannot be made private: an interface's method without a body is abstract, and must stay public for its classes to implement"
        > Modify Method I.d SetVisibility private
        Fail "I.d cannot be made private: a default method is public (its classes inherit it); remove `default` first to make it a private helper"
        > Open p/E.java
        Ok, At 0:0, Length 2
        > Modify Method E.E SetVisibility public
        Fail "E.E cannot be made public: an enum's constructor is private or of its package alone"
        "#,
    );
    f.accepted(
        "javac",
        &[
            "-d",
            "classes",
            "p/Base.java",
            "p/Sub.java",
            "p/I.java",
            "p/E.java",
        ],
    );
}

/// Rust: a call reads a value, which a `mod` of its name is not: a
/// function a glob or an explicit import brings beside `mod to_writer
/// {}` is the one called. Before: the call was taken for the module (0
/// references; the rename left it, E0423).
#[test]
fn rust_a_call_is_never_a_module_of_its_name() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod p {\n    pub fn to_writer() -> u8 {\n        1\n    }\n}\npub mod t {\n    use crate::p::*;\n    pub fn a() -> u8 {\n        to_writer()\n    }\n    mod to_writer {}\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol p.to_writer write_to
        Ok
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        "#,
    );
    assert!(f.read("src/lib.rs").contains("        write_to()\n"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Go: a name defined once per build constraint, asked from a file that
/// calls it, is the one symbol its variants make (before: "Ambiguous",
/// naming the form that had just failed). TypeScript: a private name of
/// one class is never another class's use.
#[test]
fn go_build_variants_and_es_private_names_are_told_apart_as_their_languages_do() {
    let f = Fixture::new();
    f.write("go.mod", "module tags\n\ngo 1.19\n");
    f.write(
        "os_linux.go",
        "//go:build linux\n\npackage tags\n\nfunc platform() string { return \"linux\" }\n",
    );
    f.write(
        "os_other.go",
        "//go:build !linux\n\npackage tags\n\nfunc platform() string { return \"other\" }\n",
    );
    f.write(
        "tags.go",
        "package tags\n\nfunc Name() string { return platform() }\n",
    );
    f.write(
        "a.ts",
        "export class A {\n  #count = 0;\n  get(): number { return this.#count; }\n}\nexport class B {\n  #count = 1;\n  read(): number { return this.#count; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open tags.go
        Ok
        Ok, At 0:0, Length 3
        > Refactor RenameSymbol platform osName
        Ok, Renamed in 3 files (os_linux.go, os_other.go, tags.go), 3 references updated
        > Open a.ts; Find References A.#count
        Ok, At 0:0, Length 8
        Ok: Found 1 reference, with lines, Txt a.ts:2:30: get(): number { return this.#count; }
        > Modify Variable A.#count Rename #n
        Ok, Modified attribute A.#count (2 edits), At 1:2
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
}

/// A bare import specifier that names a package installed outside the
/// project (`node_modules/ava`, not indexed) binds none of the project's
/// names: `test` of `import test from 'ava'` is no possible use of the
/// project's default export `delay`. Before: refused, naming every
/// `test(` call of the project.
#[test]
fn an_installed_packages_imports_are_none_of_the_projects() {
    let f = Fixture::new();
    f.write(".gitignore", "node_modules/\n");
    f.write(
        "node_modules/ava/package.json",
        "{\"name\": \"ava\", \"version\": \"1.0.0\", \"types\": \"index.d.ts\"}\n",
    );
    f.write(
        "node_modules/ava/index.d.ts",
        "export default function test(n: string, f: () => void): void;\n",
    );
    f.write(
        "delay.ts",
        "export default function delay(ms: number): number { return ms; }\n",
    );
    f.write(
        "main.ts",
        "import delay from './delay';\nimport test from 'ava';\nimport * as fs from 'node:fs';\nexport const x = delay(1);\ntest('y', () => {});\nexport const e = fs.existsSync('.');\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol delay wait
        Ok
        Ok, Renamed in 1 file (delay.ts), 1 reference updated
        "#,
    );
    assert!(f.read("main.ts").contains("test('y', () => {});"));
}

/// Rust: a module's item renamed in its file alone is refused where the
/// file reads it through a path (`super::helper()`, `crate::helper()`),
/// which the file's own rename of bare names does not see; the command
/// that renames them is named. Before: `Ok`, the paths left (E0425).
#[test]
fn rust_items_read_through_paths_are_not_renamed_in_one_file_alone() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub fn helper() -> u8 {\n    1\n}\n\nmod inner {\n    pub fn twice() -> u8 {\n        super::helper() * 2\n    }\n}\n\npub fn get() -> u8 {\n    inner::twice() + helper()\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 13
        > Modify Function helper Rename assist
        Fail "helper is not renamed in this file alone: it is also used at src/lib.rs:6:15 in this file, which a rename of one file does not see; Refactor RenameSymbol helper assist checks the project and renames what follows from it"
        > Refactor RenameSymbol helper assist
        Ok, Renamed in 1 file (src/lib.rs), 3 references updated
        "#,
    );
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Rust: a field named like a trait's method (`next` beside `impl
/// Iterator for S`) is renamed alone: no method is a possible override
/// of a field, and `self.inner.next()` is a call. Before: refused, and
/// `Include Possible` renamed `fn next` of the impl (E0407, E0046).
#[test]
fn rust_a_field_named_like_a_trait_method_is_renamed_alone() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub struct S {\n    next: Option<u8>,\n    inner: std::vec::IntoIter<u8>,\n}\n\nimpl Iterator for S {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> {\n        self.next.take().or_else(|| self.inner.next())\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol S.next pending
        Ok
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("    fn next(&mut self) -> Option<u8> {\n        self.pending.take().or_else(|| self.inner.next())"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Java: an interface's method that a class of the family takes from a
/// type outside the project (`MyList extends ArrayList<String>
/// implements Sized`: `size` is `ArrayList`'s) is not renamed: that
/// method keeps its name. Before: `Ok`, and javac: "MyList is not
/// abstract and does not override abstract method count()".
#[test]
fn java_a_method_a_class_takes_from_outside_the_project_is_not_renamed() {
    let f = Fixture::new();
    f.write(
        "p/Sized.java",
        "package p;\npublic interface Sized { int size(); }\n",
    );
    f.write(
        "p/MyList.java",
        "package p;\npublic class MyList extends java.util.ArrayList<String> implements Sized { }\n",
    );
    f.write(
        "p/Own.java",
        "package p;\nclass Own implements Sized { public int size() { return 0; } }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Refactor RenameSymbol Sized.size count
        Ok
        Fail "Cannot rename Sized.size: MyList declares no size of its own and may take it from java.util.ArrayList, a type outside the project, whose method keeps its name; give MyList its own method first"
        "#,
    );
    f.accepted(
        "javac",
        &[
            "-d",
            "classes",
            "p/Sized.java",
            "p/MyList.java",
            "p/Own.java",
        ],
    );
}

/// A method deleted alone leaves what is tied to it broken or rebound:
/// a Rust impl's method its trait requires (E0046), a trait's method its
/// impls still define (E0407), a Java class's method an interface needs
/// or a base method a subclass `@Override`s, an override whose calls
/// then reach the base's. Before: each answered `Ok`. A method of an
/// outside supertype (`impl Iterator`, a Java `@Override` of a JDK
/// type) is refused the same way; its lines can still be deleted.
#[test]
fn a_method_tied_to_others_is_not_deleted_alone() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub trait Shape {\n    fn area(&self) -> f64;\n}\n\npub struct Sq(pub f64);\n\nimpl Shape for Sq {\n    fn area(&self) -> f64 {\n        self.0 * self.0\n    }\n}\n\npub struct Counter(u32);\n\nimpl Iterator for Counter {\n    type Item = u32;\n    fn next(&mut self) -> Option<u32> {\n        None\n    }\n}\n\nimpl Counter {\n    pub fn reset(&mut self) {\n        self.0 = 0;\n    }\n}\n",
    );
    f.write(
        "p/Base.java",
        "package p;\npublic class Base {\n    public String greet() { return \"base\"; }\n    @Override\n    public String toString() { return \"B\"; }\n}\n",
    );
    f.write(
        "p/Sub.java",
        "package p;\nclass Sub extends Base {\n    @Override\n    public String greet() { return \"sub\"; }\n    void own() {}\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 26
        > Delete Method Sq.area
        Fail "Cannot delete Sq.Shape.area alone: Shape.area overrides it, implements it or is overridden by it; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 7:9"
        > Delete Method Shape.area
        Fail "Cannot delete Shape.area alone: Sq.Shape.area overrides it, implements it or is overridden by it; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 1:1"
        > Delete Method Counter.next
        Fail "Cannot delete Counter.Iterator.next alone: it implements or overrides a method of the trait Iterator; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 16:18"
        > Delete Method Counter.reset
        Ok, Deleted 3 lines at 22, At 22:0
        > Open p/Sub.java
        Ok, At 0:0, Length 6
        > Delete Method Sub.greet
        Fail "Cannot delete Sub.greet alone: p.Base.greet overrides it, implements it or is overridden by it; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 2:3"
        > Delete Method Sub.own
        Ok, Deleted 1 line at 4, At 4:0
        > Open p/Base.java
        Ok, At 0:0, Length 6
        > Delete Method Base.toString
        Fail "Cannot delete Base.toString alone: it implements or overrides a method of a supertype (@Override); deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 3:4"
        > Delete Block 3:4
        Ok, Deleted 2 lines at 3, At 3:0
        "#,
    );
    f.accepted("cargo", &["check", "-q"]);
    f.accepted("javac", &["-d", "out", "p/Base.java", "p/Sub.java"]);
}

/// Java: a functional interface's one abstract method is implemented by
/// lambdas and method references that name neither it nor, where they
/// stand, the interface: a change of its parameters or its deletion is
/// refused (before: `Ok`, and javac's "incompatible parameter types in
/// lambda expression"). An interface of two abstract methods takes no
/// lambda: its method's parameters change.
#[test]
fn a_functional_interfaces_method_keeps_its_parameters() {
    let f = Fixture::new();
    f.write(
        "p/Fn.java",
        "package p;\n\npublic interface Fn {\n    int apply(int x);\n\n    default int twice(int x) {\n        return apply(apply(x));\n    }\n}\n",
    );
    f.write(
        "p/Two.java",
        "package p;\n\npublic interface Two {\n    int first(int x);\n\n    int second(int x);\n}\n",
    );
    f.write(
        "p/Use.java",
        "package p;\n\nclass Use {\n    static int run() {\n        Fn inc = x -> x + 1;\n        return inc.twice(1);\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Fn.java
        Ok
        Ok, At 0:0, Length 9
        > Modify Method Fn.apply AddParam "int y"
        Fail "Cannot change the parameters of Fn.apply alone: Fn is a functional interface, and this its one abstract method: lambdas and method references anywhere may implement it without naming it, and Eddi does not find them; this command changes one method: change theirs with it by hand, or leave it as it is"
        > Delete Method Fn.apply
        Fail "Cannot delete Fn.apply alone: Fn is a functional interface, and this its one abstract method: lambdas and method references anywhere may implement it without naming it, and Eddi does not find them; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 3:3"
        > Open p/Two.java
        Ok, At 0:0, Length 7
        > Modify Method Two.first AddParam "int y"
        Ok, Modified method Two.first (1 edit), At 3:4
        > Save
        Ok, Bytes 90
        "#,
    );
    f.accepted(
        "javac",
        &["-d", "out", "p/Fn.java", "p/Two.java", "p/Use.java"],
    );
}

/// Java: an interface outside the project that declares no method
/// (`java.io.Serializable`, `Cloneable`, `EventListener`) has none a
/// class's method may override: a class deriving from it renames its
/// methods (JDK 25's `java.util.logging.LogRecord`: 7 of 88 renames were
/// refused as "may override"). What serialization calls by name
/// (`readObject`, `readResolve`, private or not) stays possible, and a
/// method renamed to such a name too: before, `readObject` was renamed
/// `Ok`, and serialization no longer called it. A comment in a class's
/// header (`@SuppressWarnings("serial") // implements Names` above
/// `final class Impl implements Names`) was read as a supertype, outside
/// the project, and the interface's method was refused.
#[test]
fn java_methodless_interfaces_comments_and_serialization_names() {
    let f = Fixture::new();
    f.write(
        "p/Names.java",
        "package p;\n\npublic interface Names {\n    java.util.List<String> names();\n}\n",
    );
    f.write(
        "p/Impl.java",
        "package p;\n\nimport java.util.List;\n\n@SuppressWarnings(\"serial\") // implements Names\nfinal class Impl implements Names, java.io.Serializable {\n    public List<String> names() { return List.of(\"a\"); }\n}\n",
    );
    f.write(
        "p/Rec.java",
        "package p;\n\nimport java.io.IOException;\nimport java.io.ObjectInputStream;\nimport java.io.Serializable;\n\npublic class Rec implements Serializable {\n    private static final long serialVersionUID = 1L;\n    private transient int cache;\n    int level;\n\n    public int getLevel() { return level; }\n\n    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {\n        in.defaultReadObject();\n        cache = level * 2;\n    }\n\n    int cached() { return cache + getLevel(); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol p.Rec.readObject readObjectRn
        Fail "Cannot rename p.Rec.readObject: 1 possible use it cannot prove: p/Rec.java:13:17 (code outside the project may call it by its name, through Java's serialization); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol p.Rec.cached readResolve
        Fail "Cannot rename p.Rec.cached: 1 possible use it cannot prove: p/Rec.java:18:8 (code outside the project calls the new name readResolve through Java's serialization: renamed, the method changes what that code does); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol p.Rec.getLevel currentLevel
        Ok, Renamed in 1 file (p/Rec.java), 2 references updated
        > Refactor RenameSymbol p.Names.names all
        Ok, Renamed in 2 files (p/Impl.java, p/Names.java), 2 references updated, also renamed: p.Impl.names
        "#,
    );
    assert!(f
        .read("p/Rec.java")
        .contains("return cache + currentLevel();"));
    assert!(f.read("p/Impl.java").contains("public List<String> all()"));
    f.accepted(
        "javac",
        &["-d", "out", "p/Names.java", "p/Impl.java", "p/Rec.java"],
    );
}

/// Java: in a nested class's body its own name (`Inner other`, a method
/// returning `Inner`, `new Inner()`) is the class, not its constructor,
/// which is a member of the class of that name: the rename of a nested
/// class with a constructor left them (JDK 25's `jdk.zipfs`:
/// `ZipFileSystem.PosixEntry`'s `PosixEntry(PosixEntry e, int type)`,
/// `ParentLookup`'s `final ParentLookup as(…)`; `Ok`, and javac: "cannot
/// find symbol"). A top-level class, or a nested one without a
/// constructor, was renamed whole. In a class implementing a type outside
/// the project (`Runnable`), that type may declare a member class of the
/// name: possible.
#[test]
fn java_a_nested_class_is_renamed_in_its_own_body() {
    let f = Fixture::new();
    f.write(
        "p/Outer.java",
        "package p;\n\npublic class Outer {\n    static class Base {\n        int len;\n    }\n\n    static class Inner extends Base {\n        Inner() {}\n\n        Inner(Inner other) { this.len = other.len; }\n\n        final Inner as(int len) {\n            this.len = len;\n            return this;\n        }\n\n        Inner copy() { return new Inner(this); }\n    }\n\n    Inner make() { return new Inner().as(1); }\n\n    static class Task implements Runnable {\n        Task(Task other) { }\n\n        public void run() { }\n    }\n}\n",
    );
    f.write(
        "p/Use.java",
        "package p;\n\nclass Use {\n    int len() { return new Outer.Inner().copy().len; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol p.Outer.Task Job
        Fail "Cannot rename p.Outer.Task: 1 possible use it cannot prove: p/Outer.java:23:13 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol p.Outer.Inner Nested
        Ok, Renamed in 2 files (p/Outer.java, p/Use.java), 10 references updated
        "#,
    );
    let outer = f.read("p/Outer.java");
    assert!(!outer.contains("Inner"), "{outer}");
    assert!(outer.contains("Task(Task other)"), "{outer}");
    f.accepted("javac", &["-d", "out", "p/Outer.java", "p/Use.java"]);
}
