//! `Modify … Rename` in the brace languages (`language/rename.rs`): a
//! fixture file per language, the exact replies, and after the edits the
//! language's own compiler or checker accepting the file (skipped where
//! it is not installed).

use super::*;

const APP_JS: &str = "const total = 10;
function add(a, b) {
  const sum = a + b;
  {
    const sum = 1;
    console.log(sum);
  }
  const f = (sum) => sum * 2;
  return { sum, total: f(sum) + total };
}
class Counter {
  count = 0;
  inc(by) {
    this.count += by;
    return this.count;
  }
}
const c = new Counter();
c.inc(add(1, 2));
export { add, Counter };
";

/// Locals and parameters keep to their scope (an inner block's and an
/// arrow function's own `sum` stay; the shorthand `{ sum }` keeps its
/// key), functions and class members are renamed with their uses
/// through `this` and a value constructed as the class.
#[test]
fn javascript_renames_respect_scopes() {
    let f = Fixture::new();
    f.write("app.js", APP_JS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open app.js
        Ok, At 0:0, Length 20
        > Modify Variable add.sum Rename result
        Ok, Modified local variable add.sum (3 edits), At 2:8
        > Modify Variable add.a Rename x
        Ok, Modified local variable add.a (2 edits), At 1:13
        > Modify Function add Rename plus
        Ok, Modified function add (3 edits), At 1:0
        > Modify Method Counter.inc Rename step
        Ok, Modified method Counter.inc (2 edits), At 12:2
        > Modify Variable Counter.count Rename n
        Ok, Modified attribute Counter.count (3 edits), At 11:2
        > Save
        Ok, Bytes 349
        "#,
    );
    assert_eq!(
        f.read("app.js"),
        "const total = 10;
function plus(x, b) {
  const result = x + b;
  {
    const sum = 1;
    console.log(sum);
  }
  const f = (sum) => sum * 2;
  return { sum: result, total: f(result) + total };
}
class Counter {
  n = 0;
  step(by) {
    this.n += by;
    return this.n;
  }
}
const c = new Counter();
c.step(plus(1, 2));
export { plus, Counter };
"
    );
    assert!(f.accepted("node", &["--check", "app.js"]));
    // refusals: the scope's own name, a keyword, a name defined, a name
    // the renamed binding would hide
    f.check(
        "a",
        r#"
        > Modify Variable plus.b Rename x
        Fail "Name conflict: x is already bound in this scope (line 2); choose another name"
        > Modify Variable plus.b Rename class
        Fail "Invalid name 'class': a JavaScript keyword; choose another name"
        > Modify Function plus Rename Counter
        Fail "Name conflict: the file already defines Counter (line 11); choose another name"
        > Modify Variable plus.result Rename f
        Fail "Name conflict: f is already bound in this scope (line 8); choose another name"
        > Modify Variable plus.result Rename total
        Fail "Name conflict: total is used at line 9 for another binding, which plus.result would hide; choose another name"
        > Modify Variable total Rename console
        Fail "Name conflict: console is used at line 6 for another binding, which total would hide; choose another name"
        "#,
    );
}

/// JavaScript names may hold `$` (`$el`, `jQuery$`): taken as targets and
/// as new names, in the file and across the project; Python refuses one.
#[test]
fn javascript_names_with_dollars() {
    let f = Fixture::new();
    f.write(
        "dom.js",
        "export function $(sel) {\n  const el = document.querySelector(sel);\n  return el;\n}\n",
    );
    f.write("app.js", "import { $ } from './dom.js';\n$('#a');\n");
    f.write("tool.py", "def f(x):\n    return x\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol $ $q
        Ok, Renamed in 2 files (app.js, dom.js), 3 references updated
        > Open dom.js
        Ok, At 0:0, Length 4
        > Modify Variable $q.el Rename $el
        Ok, Modified local variable $q.el (2 edits), At 1:8
        > Save
        Ok, Bytes 85
        > Refactor RenameSymbol f $f
        Fail "Not a valid Python name: '$f': use letters, digits and _, not starting with a digit"
        "#,
    );
    assert_eq!(
        f.read("dom.js"),
        "export function $q(sel) {\n  const $el = document.querySelector(sel);\n  return $el;\n}\n"
    );
    assert_eq!(
        f.read("app.js"),
        "import { $q } from './dom.js';\n$q('#a');\n"
    );
    assert!(f.accepted("node", &["--check", "dom.js"]));
}

const PICK_JS: &str = "const rest = [];
export function pick(o, { limit = 10 } = {}) {
  const { name, size = 1, ...others } = o;
  const { a: first = 0 } = o;
  const [head = 2, ...tail] = o.list;
  let late = 0;
  ({ late } = o);
  return [name, size, others, first, head, tail, limit, rest, late];
}
";

/// A destructuring declares what it names: a shorthand keeps its key
/// (`{ name }` → `{ name: label }`, also with a default), defaults and
/// rests bind in objects and arrays, so a module-level name of theirs is
/// another binding; an assignment's pattern (`({ late } = o)`) assigns.
#[test]
fn javascript_destructurings_declare_their_names() {
    let f = Fixture::new();
    f.write("pick.js", PICK_JS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open pick.js
        Ok, At 0:0, Length 9
        > Modify Variable pick.name Rename label
        Ok, Modified local variable pick.name (2 edits), At 2:10
        > Modify Variable pick.size Rename count
        Ok, Modified local variable pick.size (2 edits), At 2:23
        > Modify Variable pick.limit Rename max
        Ok, Modified local variable pick.limit (2 edits), At 1:26
        > Modify Variable pick.others Rename remaining
        Ok, Modified local variable pick.others (2 edits), At 2:43
        > Modify Variable pick.first Rename initial
        Ok, Modified local variable pick.first (2 edits), At 3:13
        > Modify Variable pick.head Rename top
        Ok, Modified local variable pick.head (2 edits), At 4:9
        > Modify Variable pick.tail Rename after
        Ok, Modified local variable pick.tail (2 edits), At 4:21
        > Modify Variable pick.late Rename last
        Ok, Modified local variable pick.late (3 edits), At 5:6
        > Modify Variable rest Rename spare
        Ok, Modified variable rest (2 edits), At 0:6
        > Save
        Ok, Bytes 317
        "#,
    );
    assert_eq!(
        f.read("pick.js"),
        "const spare = [];
export function pick(o, { limit: max = 10 } = {}) {
  const { name: label, size: count = 1, ...remaining } = o;
  const { a: initial = 0 } = o;
  const [top = 2, ...after] = o.list;
  let last = 0;
  ({ late: last } = o);
  return [label, count, remaining, initial, top, after, max, spare, last];
}
"
    );
    assert!(f.accepted("node", &["--check", "pick.js"]));
}

const TOTALS_TS: &str = "export function sum(items: number[]): number {
  type total = number;
  let total: total = 0;
  const add = function total(n: number): number { return n; };
  for (const item of items) { total += add(item); }
  return total;
}
";

/// A variable's rename leaves a type of its name (TypeScript keeps types
/// and values apart) and a named function expression's own name.
#[test]
fn typescript_variables_leave_types_and_function_names() {
    let f = Fixture::new();
    f.write("totals.ts", TOTALS_TS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open totals.ts
        Ok, At 0:0, Length 7
        > Modify Variable sum.total Rename acc
        Ok, Modified local variable sum.total (3 edits), At 2:6
        > Save
        Ok, Bytes 221
        "#,
    );
    assert_eq!(
        f.read("totals.ts"),
        "export function sum(items: number[]): number {
  type total = number;
  let acc: total = 0;
  const add = function total(n: number): number { return n; };
  for (const item of items) { acc += add(item); }
  return acc;
}
"
    );
}

/// A member read by destructuring `this` keeps its local name (`const {
/// value } = this` → `const { amount: value } = this`); `this.value` in a
/// class that extends another may be an inherited member: refused by
/// default, naming it.
#[test]
fn typescript_members_read_by_destructuring_and_in_subclasses() {
    let f = Fixture::new();
    f.write(
        "box.ts",
        "export class Box {\n  protected value = 1;\n  read(): number {\n    const { value } = this;\n    return value + this.value;\n  }\n}\n",
    );
    f.write(
        "base.ts",
        "export class Base {\n  protected value = 1;\n}\nexport class Child extends Base {\n  bump(): void {\n    this.value += 1;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open box.ts
        Ok, At 0:0, Length 7
        > Modify Variable Box.value Rename amount
        Ok, Modified attribute Box.value (3 edits), At 1:2, not changed: 1 reference in other files (base.ts:5); cross-file rename: Refactor RenameSymbol box.Box.value amount
        > Save
        Ok, Bytes 136
        > Open base.ts
        Ok, At 0:0, Length 8
        > Modify Variable Base.value Rename amount
        Fail "Cannot rename Base.value in this file: 1 use may name it through a value of unknown type (at 5:9); Refactor RenameSymbol Base.value amount Include Possible renames them too, Only Proven leaves them"
        "#,
    );
    assert!(f
        .read("box.ts")
        .contains("const { amount: value } = this;\n    return value + this.amount;"));
}

const SHAPES_GO: &str = "package shapes

import \"fmt\"

type Point struct {
\tX, Y int
}

var Origin = Point{X: 0, Y: 0}

func (p *Point) Move(dx int) {
\tp.X += dx
}

func Sum(points []Point) int {
\ttotal := 0
\tfor _, p := range points {
\t\ttotal := total + p.X
\t\tfmt.Println(total)
\t}
\tall := []Point{{X: 1, Y: 2}}
\tall[0].Move(total)
\treturn total
}
";

/// Go: `total := total + …` declares a new `total` from its end on (the
/// right side reads the outer one); a type is renamed in its literals,
/// receivers and slices; a field read through a value of unknown type
/// refuses, naming the place and the option that proceeds.
#[test]
fn go_renames_respect_scopes() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/shapes\n\ngo 1.19\n");
    f.write("shapes.go", SHAPES_GO);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open shapes.go
        Ok, At 0:0, Length 24
        > Modify Variable Sum.total Rename acc
        Ok, Modified local variable Sum.total (4 edits), At 15:1
        > Modify Class Point Rename Pt
        Ok, Modified class Point (5 edits), At 4:0
        > Modify Method Pt.Move Rename Shift
        Fail "Cannot rename Pt.Move in this file: 1 use may name it through a value of unknown type (at 21:8); Refactor RenameSymbol Pt.Move Shift Include Possible renames them too, Only Proven leaves them"
        > Modify Variable Sum.acc Rename p
        Fail "Name conflict: p is bound at line 17 in a scope where acc is used, which would then read it; choose another name"
        > Modify Variable Sum.acc Rename fmt
        Fail "Name conflict: fmt is used at line 19 for another binding, which Sum.acc would hide; choose another name"
        > Modify Variable Sum.acc Rename func
        Fail "Invalid name 'func': a Go keyword; choose another name"
        > Save
        Ok, Bytes 301
        "#,
    );
    let text = f.read("shapes.go");
    assert!(text.contains("\t\ttotal := acc + p.X\n\t\tfmt.Println(total)\n"));
    assert!(text.contains("func (p *Pt) Move(dx int) {"));
    assert!(text.contains("all := []Pt{{X: 1, Y: 2}}\n\tall[0].Move(acc)\n\treturn acc\n"));
    assert!(f.accepted("gofmt", &["-e", "shapes.go"]));
    assert!(f.accepted("go", &["vet", "."]));
}

const RESULTS_GO: &str = "package results

func read() (int, error) { return 1, nil }

func load(n int) (total int, err error) {
\ta, err := read()
\tb, err := read()
\tif err := check(a); err != nil {
\t\treturn 0, err
\t}
\twrap := func(err error) error { return err }
\t_ = wrap(err)
\tfor i := 0; i < n; i++ {
\t\tc, err := read()
\t\ttotal += c + i
\t\t_ = err
\t}
\ttotal = a + b
\treturn
}

func check(int) error { return nil }
";

/// Go's `a, err := read()` assigns the `err` its block already declares
/// (a named result, in a function's body): renaming the result renames
/// it there and wherever it is read after, not the `err` an `if`, a loop's
/// block or a closure's parameter declares anew.
#[test]
fn go_short_declarations_reuse_what_their_block_declares() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/results\n\ngo 1.19\n");
    f.write("results.go", RESULTS_GO);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open results.go
        Ok, At 0:0, Length 22
        > Modify Variable load.err Rename failure
        Ok, Modified local variable load.err (4 edits), At 4:29
        > Save
        Ok, Bytes 407
        "#,
    );
    let text = f.read("results.go");
    assert!(text.contains(
        "(total int, failure error) {\n\ta, failure := read()\n\tb, failure := read()\n"
    ));
    assert!(text.contains("\tif err := check(a); err != nil {\n\t\treturn 0, err\n"));
    assert!(text.contains("wrap := func(err error) error { return err }\n\t_ = wrap(failure)\n"));
    assert!(text.contains("\t\tc, err := read()\n\t\ttotal += c + i\n\t\t_ = err\n"));
    assert!(f.accepted("go", &["vet", "."]));
}

/// A name a `var` or `const` group in a function declares is bound from
/// the end of its own spec, not of the group: `y = x + 1` after `x = 1`
/// reads the group's `x` (renamed with it), never the package's `x` (the
/// rename answered `Ok` and `f` returned 12 instead of 3).
#[test]
fn go_var_and_const_groups_bind_each_name_after_its_spec() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/groups\n\ngo 1.19\n");
    f.write(
        "main.go",
        "package main\n\nvar x = 10\n\nconst k = 7\n\nfunc f() int {\n\tvar (\n\t\tx = 1\n\t\ty = x + 1\n\t)\n\tconst (\n\t\tk = 2\n\t\tm = k * 3\n\t)\n\treturn x + y + k + m\n}\n\nfunc main() {\n\tprintln(f(), x, k)\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open main.go
        Ok, At 0:0, Length 21
        > Modify Variable f.x Rename z
        Ok, Modified local variable f.x (3 edits), At 8:2
        > Modify Variable f.k Rename j
        Ok, Modified local variable f.k (3 edits), At 12:2
        > Save
        Ok, Bytes 177
        "#,
    );
    let text = f.read("main.go");
    assert!(text.contains("\t\tz = 1\n\t\ty = z + 1\n"), "{text}");
    assert!(text.contains("\t\tj = 2\n\t\tm = j * 3\n"), "{text}");
    assert!(text.contains("return z + y + j + m\n"), "{text}");
    assert!(text.contains("println(f(), x, k)"), "{text}");
    assert!(f.accepted("go", &["vet", "."]));
}

const GEOMETRY_GO: &str = "package geometry

type Point struct {
\tX, Y int
}

func (p Point) Shifted(dx int) Point {
\treturn Point{X: p.X + dx, Y: p.Y}
}

func Mirror(q Point) []Point {
\treturn []Point{{X: -q.X, Y: q.Y}, q.Shifted(1)}
}

func Keys() map[string]int {
\tX := 1
\treturn map[string]int{\"X\": X}
}
";

/// A struct's field through its receiver, a typed parameter and the keys
/// of its literals (an elided type in a slice's too), never a local of
/// the same name; a method through typed values.
#[test]
fn go_renames_fields_and_methods_through_types() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/geometry\n\ngo 1.19\n");
    f.write("geometry.go", GEOMETRY_GO);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open geometry.go
        Ok, At 0:0, Length 18
        > Modify Variable Point.X Rename Left
        Ok, Modified attribute Point.X (5 edits), At 3:1
        > Modify Method Point.Shifted Rename Moved
        Ok, Modified method Point.Shifted (2 edits), At 6:0
        > Modify Variable Point.Y Rename Left
        Fail "Name conflict: Point already has Left (line 4); choose another name"
        > Save
        Ok, Bytes 292
        "#,
    );
    let text = f.read("geometry.go");
    assert!(text.contains("return Point{Left: p.Left + dx, Y: p.Y}"));
    assert!(text.contains("return []Point{{Left: -q.Left, Y: q.Y}, q.Moved(1)}"));
    assert!(text.contains("\tX := 1\n\treturn map[string]int{\"X\": X}\n"));
    assert!(f.accepted("gofmt", &["-e", "geometry.go"]));
    assert!(f.accepted("go", &["vet", "."]));
}

/// Go, in one file: a type another embeds (its field is named by the
/// type, its members promoted), a member of a type that embeds or is
/// embedded, a method an interface of the file declares (the old name or
/// the new) are refused, naming `Refactor RenameSymbol` (before: `Ok`,
/// and `w.Base`, `W{Base: …}`, `w.Hello()` or the interface broke).
#[test]
fn go_in_file_renames_refuse_what_embedding_and_interfaces_tie() {
    let f = Fixture::new();
    f.write("go.mod", "module e2\n\ngo 1.19\n");
    f.write(
        "a.go",
        "package e2\n\ntype Base struct{ ID int }\n\nfunc (b Base) Hello() string { return \"hi\" }\n\ntype W struct {\n\tBase\n\tN int\n}\n\nfunc Use() (int, string) {\n\tw := W{Base: Base{ID: 1}}\n\treturn w.Base.ID + w.ID, w.Hello()\n}\n\ntype T struct{ Name string }\n\nfunc (t T) Label() string { return t.Name }\n\ntype Labeler interface{ Label() string }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.go
        Ok
        Ok, At 0:0, Length 21
        > Modify Class Base Rename Root
        Fail "Cannot rename Base in this file: W embeds it: its field is named by the type (w.Base, W{Base: …}) and its members are promoted; Refactor RenameSymbol Base Root checks and renames what follows from it"
        > Modify Method Base.Hello Rename Greet
        Fail "Cannot rename Base.Hello in this file: W embeds Base: Hello is promoted to it; Refactor RenameSymbol Base.Hello Greet checks and renames what follows from it"
        > Modify Variable W.N Rename Hello
        Fail "Cannot rename W.N in this file: W embeds Base, whose members are promoted to it; Refactor RenameSymbol W.N Hello checks and renames what follows from it"
        > Modify Method T.Label Rename Title
        Fail "Cannot rename T.Label in this file: an interface of the file declares a method Label, which T may implement; Refactor RenameSymbol T.Label Title checks and renames what follows from it"
        > Modify Variable T.Name Rename Title
        Ok, Modified attribute T.Name (2 edits), At 16:15
        "#,
    );
}

const LIB_RS: &str = "pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    pub fn sum(&self) -> i32 {
        let total = self.x + self.y;
        let twice = |total: i32| total * 2;
        twice(total)
    }
}

pub fn origin(q: Point) -> Point {
    let p = Point::new(0, 0);
    let Point { x, y } = Point { x: p.x + q.x, y: 1 };
    Point { x, y }
}
";

/// Rust: a closure's parameter keeps its own `total`; shorthand fields
/// and patterns keep their meaning (`Point { x: a }`); a field through
/// `self`, typed parameters, a value an associated function returning
/// `Self` made (`let p = Point::make(…)`) and struct literals (`Self {
/// … }` too); a type in its `impl`, paths and patterns.
#[test]
fn rust_renames_respect_scopes_and_shorthands() {
    let f = Fixture::new();
    f.write("lib.rs", LIB_RS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open lib.rs
        Ok, At 0:0, Length 22
        > Modify Variable Point.sum.total Rename t
        Ok, Modified local variable Point.sum.total (2 edits), At 11:12
        > Modify Variable origin.x Rename a
        Ok, Modified local variable origin.x (2 edits), At 19:16
        > Modify Method Point.new Rename make
        Ok, Modified method Point.new (2 edits), At 6:4
        > Modify Variable Point.x Rename left
        Ok, Modified attribute Point.x (8 edits), At 1:8
        > Modify Class Point Rename Pt
        Ok, Modified class Point (8 edits), At 0:0
        > Modify Variable Pt.sum.twice Rename t
        Fail "Name conflict: t is already bound in this scope (line 12); choose another name"
        > Modify Variable origin.p Rename match
        Fail "Invalid name 'match': a Rust keyword; choose another name"
        > Save
        Ok, Bytes 423
        "#,
    );
    assert_eq!(
        f.read("lib.rs"),
        "pub struct Pt {
    pub left: i32,
    pub y: i32,
}

impl Pt {
    pub fn make(x: i32, y: i32) -> Self {
        Self { left: x, y }
    }

    pub fn sum(&self) -> i32 {
        let t = self.left + self.y;
        let twice = |total: i32| total * 2;
        twice(t)
    }
}

pub fn origin(q: Pt) -> Pt {
    let p = Pt::make(0, 0);
    let Pt { left: a, y } = Pt { left: p.left + q.left, y: 1 };
    Pt { left: a, y }
}
"
    );
    let out = f.dir.path().join("lib.rmeta");
    let out = out.to_str().unwrap();
    assert!(f.accepted(
        "rustc",
        &[
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-o",
            out,
            "lib.rs"
        ]
    ));
}

const REPORT_RS: &str = "pub const LIMIT: usize = 3;

pub fn report(width: usize, first: Option<usize>, items: &[u8]) -> String {
    let count = items.len();
    let cells = vec![format!(\"{count:>width$}\"), format!(\"{LIMIT}\")];
    let named = format!(\"{count} {n}\", n = width);
    assert!(count <= LIMIT, \"{count} of {LIMIT}\");
    if let Some(first) = first {
        return format!(\"{first}{{count}}\");
    } else {
        let _ = first;
    }
    cells.join(&named)
}
";

/// Rust's format strings read names (`\"{count:>width$}\"`, `\"{LIMIT}\"`):
/// a rename changes them with the name's other uses, not an escaped
/// `{{count}}` nor a named argument's `{n}`; `if let Some(first) = first`
/// reads the outer `first` on its right and in its `else`.
#[test]
fn rust_format_strings_and_if_let_read_their_names() {
    let f = Fixture::new();
    f.write("lib.rs", REPORT_RS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open lib.rs
        Ok, At 0:0, Length 14
        > Modify Variable report.count Rename total
        Ok, Modified local variable report.count (5 edits), At 3:8
        > Modify Variable report.width Rename w
        Ok, Modified local variable report.width (3 edits), At 2:14
        > Modify Variable report.first Rename head
        Ok, Modified local variable report.first (3 edits), At 2:24
        > Save
        Ok, Bytes 435
        > Refactor RenameSymbol LIMIT MAX
        Ok, Renamed in 1 file (lib.rs), 4 references updated
        "#,
    );
    assert_eq!(
        f.read("lib.rs"),
        "pub const MAX: usize = 3;

pub fn report(w: usize, head: Option<usize>, items: &[u8]) -> String {
    let total = items.len();
    let cells = vec![format!(\"{total:>w$}\"), format!(\"{MAX}\")];
    let named = format!(\"{total} {n}\", n = w);
    assert!(total <= MAX, \"{total} of {MAX}\");
    if let Some(first) = head {
        return format!(\"{first}{{count}}\");
    } else {
        let _ = head;
    }
    cells.join(&named)
}
"
    );
    let out = f.dir.path().join("lib.rmeta");
    let out = out.to_str().unwrap();
    assert!(f.accepted(
        "rustc",
        &[
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-o",
            out,
            "lib.rs"
        ]
    ));
}

const PATTERNS_RS: &str = "pub const LIMIT: i32 = 5;
pub struct Meters(pub i32);
pub struct Span {
    pub start: i32,
    pub end: i32,
}

pub fn tally(v: Option<i32>, list: &[i32], d: Meters, s: &Span) -> i32 {
    let mut acc = 0;
    let Span { ref start, ref end } = *s;
    acc += *start + *end;
    let Meters(m) = d;
    match v {
        Some(ref r) if *r > m => acc += *r,
        _ => {}
    }
    match list {
        [first, rest @ ..] => acc += first + rest.len() as i32,
        [] => {}
    }
    match acc {
        n @ 1..=5 => acc += n,
        LIMIT => acc -= LIMIT,
        n => acc -= n,
    }
    for &x in list {
        acc += x;
    }
    acc + m
}
";

/// Rust's patterns bind names wherever they stand (`ref r`, `[first,
/// rest @ ..]`, `n @ 1..=5`, `&x`, a bare name in an arm); a tuple
/// struct's name and a constant in a pattern are paths, renamed with
/// their item.
#[test]
fn rust_patterns_bind_their_names() {
    let f = Fixture::new();
    f.write("lib.rs", PATTERNS_RS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open lib.rs
        Ok, At 0:0, Length 30
        > Modify Variable tally.start Rename begin
        Ok, Modified local variable tally.start (2 edits), At 9:19
        > Modify Variable Span.end Rename finish
        Ok, Modified attribute Span.end (2 edits), At 4:8
        > Modify Variable tally.r Rename found
        Ok, Modified local variable tally.r (3 edits), At 13:17
        > Modify Variable tally.rest Rename others
        Ok, Modified local variable tally.rest (2 edits), At 17:16
        > Modify Variable tally.n Rename k
        Ok, Modified local variable tally.n (2 edits), At 21:8
        > Modify Variable tally.x Rename item
        Ok, Modified local variable tally.x (2 edits), At 25:9
        > Modify Variable tally.m Rename meters
        Ok, Modified local variable tally.m (3 edits), At 11:15
        > Save
        Ok, Bytes 703
        > Refactor RenameSymbol Meters Length
        Ok, Renamed in 1 file (lib.rs), 3 references updated
        > Refactor RenameSymbol LIMIT MAX
        Ok, Renamed in 1 file (lib.rs), 3 references updated
        "#,
    );
    assert_eq!(
        f.read("lib.rs"),
        "pub const MAX: i32 = 5;
pub struct Length(pub i32);
pub struct Span {
    pub start: i32,
    pub finish: i32,
}

pub fn tally(v: Option<i32>, list: &[i32], d: Length, s: &Span) -> i32 {
    let mut acc = 0;
    let Span { start: ref begin, finish: ref end } = *s;
    acc += *begin + *end;
    let Length(meters) = d;
    match v {
        Some(ref found) if *found > meters => acc += *found,
        _ => {}
    }
    match list {
        [first, others @ ..] => acc += first + others.len() as i32,
        [] => {}
    }
    match acc {
        k @ 1..=5 => acc += k,
        MAX => acc -= MAX,
        n => acc -= n,
    }
    for &item in list {
        acc += item;
    }
    acc + meters
}
"
    );
    let out = f.dir.path().join("lib.rmeta");
    let out = out.to_str().unwrap();
    assert!(f.accepted(
        "rustc",
        &[
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-o",
            out,
            "lib.rs"
        ]
    ));
}

/// A name after a comment that ends with a dot or `::` is a bare name:
/// the tokens before a name tell its path or object inside a macro's
/// arguments alone (where tree-sitter sees tokens), not across a comment;
/// a local's name in a path (`fmt::Error`) is a module's.
#[test]
fn rust_names_after_comments_are_bare() {
    let f = Fixture::new();
    f.write(
        "lib.rs",
        "use std::fmt;

pub fn count(items: &[i32]) -> i32 {
    let mut seen = 0;
    for item in items {
        // add it to the sum.
        seen = seen + item;
        // see std::
        seen += 1;
    }
    let fmt = fmt::Error;
    let _ = fmt;
    assert!(seen >= 0, \"{}\", seen.abs());
    seen
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open lib.rs
        Ok, At 0:0, Length 15
        > Modify Variable count.fmt Rename error
        Ok, Modified local variable count.fmt (2 edits), At 10:8
        > Modify Variable count.seen Rename total
        Ok, Modified local variable count.seen (7 edits), At 3:12
        > Save
        Ok, Bytes 309
        "#,
    );
    assert!(!f.read("lib.rs").contains("seen"), "{}", f.read("lib.rs"));
    assert!(f
        .read("lib.rs")
        .contains("let error = fmt::Error;\n    let _ = error;"));
}

const SHOP_JAVA: &str = "public class Shop {
    private int total;

    public Shop(int total) {
        this.total = total;
    }

    public int add(int price) {
        int sum = total + price;
        total = sum;
        return sum;
    }

    public static Shop open() {
        Shop s = new Shop(0);
        s.add(1);
        return s;
    }
}

class Till {
    Till() {}

    int count(Shop shop) {
        return shop.add(2);
    }
}
";

/// Java: a field bare in its class and through `this` (not a parameter
/// of the same name), a local (Java binds a name once in a method), a
/// method through typed locals and parameters, a class with its
/// constructors; a public class keeps its file's name.
#[test]
fn java_renames_members_locals_and_classes() {
    let f = Fixture::new();
    f.write("Shop.java", SHOP_JAVA);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open Shop.java
        Ok, At 0:0, Length 27
        > Modify Variable Shop.total Rename amount
        Ok, Modified attribute Shop.total (4 edits), At 1:16
        > Modify Variable Shop.add.sum Rename price
        Fail "Name conflict: price is already bound in this scope (line 8); choose another name"
        > Modify Variable Shop.add.sum Rename s
        Ok, Modified local variable Shop.add.sum (3 edits), At 8:12
        > Modify Method Shop.add Rename plus
        Ok, Modified method Shop.add (3 edits), At 7:4
        > Modify Class Till Rename Counter
        Ok, Modified class Till (2 edits), At 20:0
        > Modify Class Shop Rename Store
        Fail "Shop is a public class: its name is its file's, which renaming it in the file alone breaks; Refactor RenameSymbol Shop <new> renames the file too"
        > Modify Method Shop.open Rename int
        Fail "Invalid name 'int': a Java keyword; choose another name"
        > Save
        Ok, Bytes 426
        "#,
    );
    assert_eq!(
        f.read("Shop.java"),
        "public class Shop {
    private int amount;

    public Shop(int total) {
        this.amount = total;
    }

    public int plus(int price) {
        int s = amount + price;
        amount = s;
        return s;
    }

    public static Shop open() {
        Shop s = new Shop(0);
        s.plus(1);
        return s;
    }
}

class Counter {
    Counter() {}

    int count(Shop shop) {
        return shop.plus(2);
    }
}
"
    );
    assert!(f.accepted("javac", &["-d", "out", "Shop.java"]));
    // an override: what calls reach is the supertype's to say
    f.write(
        "Note.java",
        "class Note {\n    @Override\n    public String toString() {\n        return \"n\";\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Open Note.java
        Ok, At 0:0, Length 6
        > Modify Method Note.toString Rename name
        Fail "Note.toString overrides a method of a supertype (@Override): renaming it alone changes what calls reach; rename the supertype's method with its overrides"
        "#,
    );
}

/// A Java local is bound from the end of its own declarator, not from its
/// block's start: `int y = x;` before `int x = 1;` reads the field (the
/// rename made it `int y = z;`, before `z` was declared, and answered
/// `Ok`); `int a = 1, b = a + 1;` reads the first declarator's `a`.
#[test]
fn java_locals_are_bound_after_their_declarator() {
    let f = Fixture::new();
    f.write(
        "A.java",
        "class A {\n    int x = 10;\n\n    int f() {\n        int y = x;\n        int x = 1, w = x + 1;\n        return x + y + w;\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open A.java
        Ok, At 0:0, Length 9
        > Modify Variable A.f.x Rename z
        Ok, Modified local variable A.f.x (3 edits), At 5:12
        > Save
        Ok, Bytes 124
        "#,
    );
    let text = f.read("A.java");
    assert!(
        text.contains(
            "        int y = x;\n        int z = 1, w = z + 1;\n        return z + y + w;"
        ),
        "{text}"
    );
    assert!(f.accepted("javac", &["-d", "out", "A.java"]));
}

const SHAPES_JAVA: &str = "import java.util.List;

public class Shapes {
    int size;

    int measure(Object o, List<String> names) {
        int size = 1;
        if (o instanceof String s && !s.isEmpty()) {
            size += s.length();
        }
        if (!(o instanceof Integer n)) {
            return size;
        }
        size += n;
        Runnable r = new Runnable() {
            int size = 2;
            public void run() { System.out.println(size); }
        };
        r.run();
        try (java.io.StringReader in = new java.io.StringReader(\"a\")) {
            size += in.read();
        } catch (java.io.IOException e) {
            size = 0;
        }
        return size + this.size;
    }
}
";

/// Java's patterns bind names (`o instanceof String s`, from the pattern
/// on, through `&&` and after an `if` that returns when it fails); an
/// anonymous class's own field hides the method's local in its body.
#[test]
fn java_patterns_and_anonymous_classes_bind_their_names() {
    let f = Fixture::new();
    f.write("Shapes.java", SHAPES_JAVA);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open Shapes.java
        Ok, At 0:0, Length 27
        > Modify Variable Shapes.measure.s Rename text
        Ok, Modified local variable Shapes.measure.s (3 edits), At 7:32
        > Modify Variable Shapes.measure.n Rename number
        Ok, Modified local variable Shapes.measure.n (2 edits), At 10:35
        > Modify Variable Shapes.measure.in Rename reader
        Ok, Modified local variable Shapes.measure.in (2 edits), At 19:34
        > Modify Variable Shapes.measure.size Rename total
        Ok, Modified local variable Shapes.measure.size (7 edits), At 6:12
        > Save
        Ok, Bytes 725
        "#,
    );
    let text = f.read("Shapes.java");
    assert!(text.contains(
        "if (o instanceof String text && !text.isEmpty()) {\n            total += text.length();"
    ));
    assert!(text.contains("if (!(o instanceof Integer number)) {\n            return total;\n        }\n        total += number;"));
    assert!(text.contains(
        "            int size = 2;\n            public void run() { System.out.println(size); }"
    ));
    assert!(text.contains("(java.io.StringReader reader = new java.io.StringReader(\"a\")) {\n            total += reader.read();"));
    assert!(text.contains("return total + this.size;"));
    assert!(f.accepted("javac", &["-d", "classes", "Shapes.java"]));
}

/// Java: a member read by its bare name in an inner class is the outer
/// class's (renamed), in an anonymous class possibly the supertype's
/// (refused); through a parameter of a generic type (`B<T> o`) it is
/// the class's; a member renamed to a name a local binds where the
/// member is read bare is refused (before: `Ok`, and javac failed).
#[test]
fn java_members_in_inner_classes_generic_values_and_locals() {
    let f = Fixture::new();
    f.write(
        "A.java",
        "public class A {\n    int v;\n    int size() { return v; }\n    class In { int g() { return size() + v; } }\n    Runnable r() { return new Runnable() { public void run() { System.out.println(size()); } }; }\n}\n",
    );
    f.write(
        "B.java",
        "public class B<T> {\n    int size() { return 0; }\n    int cmp(B<T> o) { return o.size(); }\n}\n",
    );
    f.write(
        "D.java",
        "public class D {\n    int total(int a, int b) { return a + b; }\n    int total(int a) { return a; }\n}\n",
    );
    f.write(
        "C.java",
        "import java.util.*;\npublic class C<T> {\n    private final List<T> items = new ArrayList<>();\n    public void add(T t) { items.add(t); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open A.java
        Ok
        Ok, At 0:0, Length 6
        > Modify Method A.size Rename count
        Fail "Cannot rename A.size in this file: 1 use may name it through a value of unknown type (at 4:82); Refactor RenameSymbol A.size count Include Possible renames them too, Only Proven leaves them"
        > Modify Variable A.v Rename w
        Ok, Modified attribute A.v (3 edits), At 1:8
        > Open B.java; Modify Method B.size Rename count
        Ok, At 0:0, Length 4
        Ok, Modified method B.size (2 edits), At 1:4, not changed: 1 reference in other files (A.java:4); cross-file rename: Refactor RenameSymbol B.size count
        > Open C.java; Modify Variable C.items Rename t
        Ok, At 0:0, Length 5
        Fail "Name conflict: t is bound at line 4 where items is read by its bare name (line 4), which would then read it; choose another name"
        > Open D.java; Modify Method D.total(a) Rename one
        Ok, At 0:0, Length 4
        Fail "Cannot rename one overload of D.total: its 2 definitions (lines 2, 3) are one name to their calls; Refactor RenameSymbol D.total one renames them all, with their calls in every file"
        > Open A.java; Save; Open B.java; Save
        Ok, At 1:8, Length 6
        Ok, Bytes 205
        Ok, At 1:4, Length 4
        Ok, Bytes 94
        "#,
    );
    assert!(f.read("A.java").contains("return size() + w;"));
    assert!(f.read("B.java").contains("return o.count();"));
    assert!(f.accepted("javac", &["-d", "classes", "A.java", "B.java", "C.java"]));
}

const UTIL_TS: &str = "export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(public side: number) {}
  area(): number {
    const side = this.side;
    return side * side;
  }
}

export function total(shapes: Shape[], first: Square): number {
  let sum = first.area();
  for (const s of shapes) {
    sum += s.area();
  }
  return sum;
}
";

/// TypeScript: a local, a function; a method read through a value the
/// file cannot type refuses.
#[test]
fn typescript_renames_locals_and_refuses_what_it_cannot_type() {
    let f = Fixture::new();
    f.write("util.ts", UTIL_TS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open util.ts
        Ok, At 0:0, Length 19
        > Modify Variable total.sum Rename acc
        Ok, Modified local variable total.sum (3 edits), At 13:6
        > Modify Variable Square.area.side Rename edge
        Ok, Modified local variable Square.area.side (3 edits), At 7:10
        > Modify Function total Rename sumAreas
        Ok, Modified function total (1 edit), At 12:7
        > Modify Method Square.area Rename size
        Fail "Cannot rename Square.area in this file: 1 use may name it through a value of unknown type (at 15:13); Refactor RenameSymbol Square.area size Include Possible renames them too, Only Proven leaves them"
        > Save
        Ok, Bytes 363
        "#,
    );
    let text = f.read("util.ts");
    assert!(text.contains("const edge = this.side;\n    return edge * edge;"));
    assert!(
        text.contains("let acc = first.area();\n  for (const s of shapes) {\n    acc += s.area();")
    );
    assert!(f.accepted("tsc", &["--noEmit", "--strict", "util.ts"]));
}

/// `Modify` but Rename in the brace languages (`language/signature.rs`):
/// parameters added (last, before a rest parameter, or `At` an item),
/// removed (a Go group's name alone) and rewritten, each naming the calls
/// it leaves; a parameter the body reads is not removed; annotations,
/// decorators and attributes above the element after its doc comment;
/// the language's visibility modifiers, and Go's case named as the
/// rename it is. The saved files are what the compilers accept.
#[test]
fn brace_modify_edits_signatures_decorators_and_modifiers() {
    let f = Fixture::new();
    f.write("go.mod", "module ex.com/m\n\ngo 1.19\n");
    f.write(
        "a.go",
        "package main\n\nfunc helper(a, b int, rest ...string) int {\n\treturn a + len(rest)\n}\n\nfunc main() { _ = helper(1, 2) }\n",
    );
    f.write(
        "a.ts",
        "export class Box {\n  /** Doc. */\n  add(a: number, b: number): number { return a; }\n}\nexport const f = (x: number, y = 2) => x * y;\nexport function g(...xs: number[]) { return xs.length; }\n",
    );
    f.write(
        "lib.rs",
        "pub struct S;\n\nimpl S {\n    /// Doc.\n    #[inline]\n    pub fn m(&self, a: u8, b: u8) -> u8 {\n        a\n    }\n    fn n(&self) -> u8 {\n        0\n    }\n}\n\npub(crate) fn free(x: u8) -> u8 {\n    x\n}\n",
    );
    f.write(
        "A.java",
        "public class A {\n  /** Doc. */\n  @Deprecated\n  public int f(int a, int b) { return a; }\n  int g() { return f(1, 2); }\n}\n",
    );
    f.check(
        "a",
        r##"
        > Start s; Open a.go
        Ok
        Ok, At 0:0, Length 7
        > Modify Function helper RemoveParam a
        Fail "Cannot remove parameter 'a' of helper: the body reads it (at 3:8); change the body first"
        > Modify Function helper ChangeSignature "(a int)"
        Fail "Cannot remove parameter 'rest' of helper: the body reads it (at 3:16); change the body first"
        > Modify Function helper RemoveParam b
        Ok, Modified function helper (1 edit), At 2:0, calls not updated: 1 (a.go:6)
        > Modify Function helper AddParam "c bool"
        Ok, Modified function helper (1 edit), At 2:0, calls not updated: 1 (a.go:6)
        > Modify Function helper AddParam "a string"
        Fail "helper already has a parameter a: choose another name"
        > Modify Function helper AddParam "d"
        Fail "d has no type, and helper's parameters are named: Go refuses mixed named and unnamed parameters; write it as the others are (`d int`)"
        > Modify Function helper AddParam "x int" At 9
        Fail "At 9 is past the parameters: there are 3, so At 0 to At 3 (none: last)"
        > Modify Function helper SetVisibility public
        Fail "In Go a name's case is its visibility: making helper public renames it across the project: Refactor RenameSymbol helper Helper"
        > Modify Function helper AddDecorator "@x"
        Fail "Go has no decorators or annotations: AddDecorator works on Python, TypeScript, Java and Rust"
        > Show Function helper
        Ok: At 2:0, Txt func helper(a int, c bool, rest ...string) int {\n\treturn a + len(rest)\n}
        > Open a.ts; Modify Method Box.add RemoveParam b
        Ok, At 0:0, Length 6
        Ok, Modified method Box.add (1 edit), At 2:2
        > Modify Method Box.add AddDecorator "@log"
        Ok, Modified method Box.add (1 edit), At 3:2
        > Modify Method Box.add SetVisibility private
        Ok, Modified method Box.add (1 edit), At 3:2
        > Modify Function f AddParam "z = 3"
        Ok, Modified function f (1 edit), At 5:7
        > Modify Function g AddParam "z: number"
        Ok, Modified function g (1 edit), At 6:7
        > Modify Function g AddParam "z = 1"
        Fail "g already has a parameter z: choose another name"
        > Modify Function g AddDecorator "@log"
        Fail "TypeScript decorates classes and their members alone: function g takes none (TS1206)"
        > Open lib.rs; Modify Method S.m RemoveParam b
        Ok, At 0:0, Length 16
        Ok, Modified method S.m (1 edit), At 5:4
        > Modify Method S.m AddDecorator "#[must_use]"
        Ok, Modified method S.m (1 edit), At 6:4
        > Modify Method S.m AddDecorator "#[must_use]"
        Fail "No change: S.m already has #[must_use]"
        > Modify Function free SetVisibility private
        Ok, Modified function free (1 edit), At 14:0
        > Modify Method S.n SetVisibility protected
        Fail "Rust has no protected: public (pub) or private"
        > Open A.java; Modify Method A.f SetVisibility private
        Ok, At 0:0, Length 6
        Ok, Modified method A.f (1 edit), At 3:2
        > Modify Method A.g SetVisibility public
        Ok, Modified method A.g (1 edit), At 4:2
        > Modify Method A.f AddDecorator "Override"
        Fail "Write the annotation as the language does: it starts with @ (`@Deprecated`)"
        > Modify Class A SetVisibility protected
        Fail "A is a top-level class: Java makes one public or of its package alone, not protected"
        > Save All
        Ok, Saved 4 files: A.java, a.go, a.ts, lib.rs, Bytes 651
        "##,
    );
    assert_eq!(
        f.read("a.ts"),
        "export class Box {\n  /** Doc. */\n  @log\n  private add(a: number): number { return a; }\n}\nexport const f = (x: number, y = 2, z = 3) => x * y;\nexport function g(z: number, ...xs: number[]) { return xs.length; }\n"
    );
    assert_eq!(
        f.read("lib.rs"),
        "pub struct S;\n\nimpl S {\n    /// Doc.\n    #[must_use]\n    #[inline]\n    pub fn m(&self, a: u8) -> u8 {\n        a\n    }\n    fn n(&self) -> u8 {\n        0\n    }\n}\n\nfn free(x: u8) -> u8 {\n    x\n}\n"
    );
    assert_eq!(
        f.read("A.java"),
        "public class A {\n  /** Doc. */\n  @Deprecated\n  private int f(int a, int b) { return a; }\n  public int g() { return f(1, 2); }\n}\n"
    );
    f.accepted("javac", &["-d", "classes", "A.java"]);
}

/// A loop variable binds in its loop's body, not in what the loop
/// iterates: renaming the outer name renames it in `for x in x` (Rust),
/// `for _, v := range v` (Go) and `for (int s : s)` (Java). A parameter's
/// rename in a brace language changes no call (no argument is passed by
/// name), and says none, even where a Python file calls a function of
/// that name.
#[test]
fn a_loop_variable_binds_in_its_body_not_in_what_it_iterates() {
    let f = Fixture::new();
    f.write(
        "lp.rs",
        "pub fn f(x: Vec<u8>) -> u32 {\n    let mut n = 0;\n    for x in x {\n        n += x as u32;\n    }\n    n\n}\n",
    );
    f.write(
        "lp.go",
        "package lp\n\nfunc F(v []int) int {\n\tn := 0\n\tfor _, v := range v {\n\t\tn += v\n\t}\n\treturn n\n}\n",
    );
    f.write(
        "Lp.java",
        "class Lp {\n    int[] s = {1};\n    int f() {\n        int n = 0;\n        for (int s : s) { n += s; }\n        return n;\n    }\n}\n",
    );
    f.write(
        "m.py",
        "def f(x):\n    return x\n\ndef g():\n    return f(x=1)\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open lp.rs; Modify Variable f.x Rename y
        Ok
        Ok, At 0:0, Length 7
        Ok, Modified local variable f.x (2 edits), At 0:9
        > Open lp.go; Modify Variable F.v Rename w
        Ok, At 0:0, Length 9
        Ok, Modified local variable F.v (2 edits), At 2:7
        > Open Lp.java; Modify Variable Lp.s Rename t
        Ok, At 0:0, Length 8
        Ok, Modified attribute Lp.s (2 edits), At 1:10
        > Save; Save lp.go; Save lp.rs
        Ok, Bytes 125
        Ok, Bytes 89
        Ok, Bytes 103
        "#,
    );
    assert!(f
        .read("lp.rs")
        .contains("for x in y {\n        n += x as u32;"));
    assert!(f
        .read("lp.go")
        .contains("for _, v := range w {\n\t\tn += v"));
    assert_eq!(
        f.read("Lp.java"),
        "class Lp {\n    int[] t = {1};\n    int f() {\n        int n = 0;\n        for (int s : t) { n += s; }\n        return n;\n    }\n}\n"
    );
    assert!(f.accepted("javac", &["-d", "classes", "Lp.java"]));
    assert!(f.accepted("gofmt", &["-e", "lp.go"]));
}

/// `SetVisibility` names what the new access may forbid: a Rust item's
/// uses in other files (modules) made private; an `@Override` Java
/// method's weaker access is refused.
#[test]
fn set_visibility_names_the_uses_it_may_forbid() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/util.rs",
        "pub fn helper() {}\n\npub fn local() {}\n\npub fn inner() {\n    local()\n}\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod util;\n\npub fn g() {\n    util::helper()\n}\n",
    );
    f.write(
        "B.java",
        "class Base {\n    public int size() { return 0; }\n}\n\nclass B extends Base {\n    @Override\n    public int size() { return 1; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/util.rs
        Ok
        Ok, At 0:0, Length 7
        > Modify Function helper SetVisibility private
        Ok, Modified function helper (1 edit), At 0:0, used outside its file: 1 reference (src/lib.rs:3), which private may forbid
        > Modify Function local SetVisibility private
        Ok, Modified function local (1 edit), At 2:0
        > Open B.java; Modify Method B.size SetVisibility protected
        Ok, At 0:0, Length 8
        Fail "Cannot change the access of B.size alone: Base.size overrides it, implements it or is overridden by it, and must agree with it; this command changes one method: change theirs with it by hand, or leave it as it is"
        "#,
    );
}

/// Rust: a struct literal among a macro's tokens (`vec![P { x }]`,
/// `assert_eq!(P { x: 2 }, …)`) has the struct's keys: a field's rename
/// renames them (a shorthand keeps its value), a local's keeps them
/// (before: the field's keys were left, and a local's shorthand lost its
/// key, E0560 either way).
#[test]
fn rust_struct_literals_in_macros_have_keys() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "#[derive(Debug, PartialEq)]\npub struct P {\n    pub x: i32,\n}\n\npub fn f() -> Vec<P> {\n    let x = 2;\n    assert_eq!(P { x: 2 }, P { x });\n    vec![P { x }, P { x: x + 1 }]\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 10
        > Modify Variable f.x Rename z
        Ok, Modified local variable f.x (4 edits), At 6:8
        > Save
        Ok, Bytes 179
        > Refactor RenameSymbol P.x y
        Ok, Renamed in 1 file (src/lib.rs), 5 references updated
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("assert_eq!(P { y: 2 }, P { y: z });\n    vec![P { y: z }, P { y: z + 1 }]"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Rust: deleting a trait's method alone would leave the `impl Trait for
/// T` blocks' methods of its name outside it (E0407): refused, naming
/// them (before: `Ok`, naming them as still used).
#[test]
fn deleting_a_trait_method_names_its_implementations() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub trait Area {\n    fn area(&self) -> i32;\n}\n\npub struct Sq;\n\nimpl Area for Sq {\n    fn area(&self) -> i32 {\n        1\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 11
        > Delete Method Area.area
        Fail "Cannot delete Area.area alone: Sq.Area.area overrides it, implements it or is overridden by it; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 1:1"
        "#,
    );
}

/// Java: an inner class's method does not hide the outer class's field of
/// its name from a read, nor a field a method from a call (before: the
/// read in `Inner` was left, and javac refused the rename's result).
#[test]
fn java_fields_and_methods_do_not_hide_each_other() {
    let f = Fixture::new();
    f.write(
        "A.java",
        "public class A {\n    private int count;\n    int get() { return count; }\n    class Inner {\n        int count() { return count; }\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open A.java
        Ok
        Ok, At 0:0, Length 7
        > Modify Variable A.count Rename cnt
        Ok, Modified attribute A.count (3 edits), At 1:16
        > Save
        Ok, Bytes 130
        "#,
    );
    assert!(f.read("A.java").contains("int count() { return cnt; }"));
    f.accepted("javac", &["-d", "classes", "A.java"]);
}

/// Go and Rust: a struct literal of a type declared as another (`type A
/// = P;`, Go's `type A P`) has that one's keys: a rename of the field
/// finds them as possible (the alias is matched by its type's name),
/// refused by default and renamed with `Include Possible` (it answered
/// `Ok` and left `A { x: 2 }`, E0560).
#[test]
fn struct_literals_of_a_type_alias_have_its_keys() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write("src/geo.rs", "pub struct P {\n    pub x: i32,\n}\n");
    f.write(
        "src/lib.rs",
        "pub mod geo;\nuse geo::P;\npub type A = P;\npub fn f() -> i32 {\n    let a = A { x: 2 };\n    let A { x } = a;\n    let _p = P { x: 1 };\n    x\n}\n",
    );
    f.write("go/go.mod", "module example.com/g\n\ngo 1.19\n");
    f.write(
        "go/g.go",
        "package g\n\ntype P struct{ X int }\n\ntype A P\n\nvar a = A{X: 1}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/geo.rs
        Ok
        Ok, At 0:0, Length 3
        > Find References P.x
        Ok: Found 1 reference and 2 possible, with lines, Txt src/lib.rs:6:17: let _p = P { x: 1 };\npossible:\nsrc/lib.rs:4:16: let a = A { x: 2 };\nsrc/lib.rs:5:12: let A { x } = a;
        > Refactor RenameSymbol P.x y
        Fail "Cannot rename geo.P.x: 2 possible uses it cannot prove: src/lib.rs:4:16 (a struct literal of A, a type declared as a P), src/lib.rs:5:12 (a struct literal of A, a type declared as a P); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol P.x y Include Possible
        Ok, Renamed in 2 files (src/geo.rs, src/lib.rs), 4 references updated, possible: 2 uses changed too (Include Possible): src/lib.rs:4:16 (a struct literal of A, a type declared as a P), src/lib.rs:5:12 (a struct literal of A, a type declared as a P)
        > Open go/g.go
        Ok, At 0:0, Length 7
        > Refactor RenameSymbol P.X Y
        Fail "Cannot rename go.P.X: 1 possible use it cannot prove: go/g.go:6:10 (a struct literal of A, a type declared as a P); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// `Modify … Rename` of a member is refused where the project-wide rename
/// finds what ties it to other code: a Java method another class
/// overrides without `@Override` (renamed alone, `new Sub().twice()`
/// silently called the base's), a method implementing an interface of
/// another file, a Go method satisfying an interface outside the project
/// (`var _ io.Writer = &W{}`) or of another file, a Rust method renamed
/// to a derived trait's (`P::default()`). A member nothing ties is
/// renamed as before. The check reads the session's unsaved text (after
/// `Sq.helper`'s rename, not saved, `Sq.area` is still refused, and so is
/// its delete: they answered `Ok`, the project's check refused to read an
/// unsaved file and the file's own edit went on).
#[test]
fn member_renames_in_one_file_check_what_the_project_ties_to_them() {
    let f = Fixture::new();
    f.write(
        "src/Main.java",
        "public class Main {\n    static class Base {\n        int size() { return 1; }\n        int twice() { return 2 * size(); }\n    }\n    static class Sub extends Base {\n        int size() { return 5; }\n    }\n    public static void main(String[] a) { System.out.println(new Sub().twice()); }\n}\n",
    );
    f.write(
        "src/Shape.java",
        "public interface Shape {\n    double area();\n}\n",
    );
    f.write(
        "src/Sq.java",
        "public class Sq implements Shape {\n    public String toString() { return \"sq\"; }\n    public double area() { return 1.0; }\n    private int helper() { return 2; }\n    int plain() { return helper(); }\n}\n",
    );
    f.write("go.mod", "module example.com/g\n\ngo 1.19\n");
    f.write(
        "w.go",
        "package g\n\ntype W struct{ n int }\n\nfunc (w *W) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }\n\nfunc (w *W) count() int { return w.n }\n\ntype User struct{ first string }\n\nfunc (u User) Name() string { return u.first }\n",
    );
    f.write(
        "u.go",
        "package g\n\nimport \"io\"\n\nvar _ io.Writer = &W{}\n\ntype Named interface{ Name() string }\n\nvar _ Named = User{}\n",
    );
    f.write(
        "src/lib.rs",
        "#[derive(Default, Debug)]\npub struct P {\n    pub x: i32,\n}\nimpl P {\n    pub fn make(x: i32) -> Self {\n        P { x }\n    }\n}\npub fn f() -> i32 {\n    P::default().x + P::make(1).x\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/Main.java
        Ok
        Ok, At 0:0, Length 10
        > Modify Method Main.Base.size Rename count
        Fail "Main.Base.size is not renamed in this file alone: Main.Sub.size must keep one name with it (one overrides the other); Refactor RenameSymbol Main.Base.size count checks the project and renames what follows from it"
        > Open src/Sq.java
        Ok, At 0:0, Length 6
        > Modify Method Sq.toString Rename name
        Fail "Sq.toString is not renamed in this file alone: src/Sq.java:1:18 (code outside the project may call it by its name, through java.lang.Object); Refactor RenameSymbol Sq.toString name checks the project and renames what follows from it"
        > Modify Method Sq.area Rename size
        Fail "Sq.area is not renamed in this file alone: Shape.area must keep one name with it (one overrides the other); Refactor RenameSymbol Sq.area size checks the project and renames what follows from it"
        > Modify Method Sq.helper Rename help
        Ok, Modified method Sq.helper (2 edits), At 3:4
        > Modify Method Sq.area Rename size
        Fail "Sq.area is not renamed in this file alone: Shape.area must keep one name with it (one overrides the other); Refactor RenameSymbol Sq.area size checks the project and renames what follows from it"
        > Delete Method Sq.area
        Fail "Cannot delete Sq.area alone: Shape.area overrides it, implements it or is overridden by it; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 2:2"
        > Open w.go
        Ok, At 0:0, Length 11
        > Modify Method W.Write Rename Put
        Fail "W.Write is not renamed in this file alone: w.go:4:12 (code outside the project may call it by its name, through io.Writer); Refactor RenameSymbol W.Write Put checks the project and renames what follows from it"
        > Modify Method User.Name Rename Title
        Fail "User.Name is not renamed in this file alone: u.go:6:22 (g.Named.Name has a member of the name, which may override it, be overridden by it or declare it for an interface); Refactor RenameSymbol User.Name Title checks the project and renames what follows from it"
        > Modify Method W.count Rename total
        Ok, Modified method W.count (1 edit), At 6:0
        > Open src/lib.rs
        Ok, At 0:0, Length 12
        > Modify Method P.make Rename default
        Fail "Name conflict exists: src/lib.rs:10:7 uses default, which would then be the renamed P.make; choose another name"
        "#,
    );
}

/// Rust: an item declared in a block (`fn total` in `fn total`, `const
/// LIMIT`, `struct Item`) is not the module's item of its name: renames
/// of the module's leave the block's and its uses (they took `total(x)`,
/// E0308, and `Item(LIMIT as u16)`, E0308); and a bare name asked from a
/// file is that file's symbol before the crate root's of the name.
#[test]
fn rust_items_of_a_block_are_its_own() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub mod a;\npub mod b;\npub const LIMIT: u8 = 10;\npub struct Item(pub u8);\npub fn f() -> u8 {\n    const LIMIT: u8 = 3;\n    struct Item(u16);\n    let i = Item(LIMIT as u16);\n    i.0 as u8\n}\npub fn g() -> u8 {\n    LIMIT + Item(1).0\n}\npub fn total(xs: &[i32]) -> i32 {\n    fn total(v: i32) -> i32 {\n        v * 2\n    }\n    xs.iter().map(|&x| total(x)).sum()\n}\npub fn helper() -> u8 {\n    5\n}\n",
    );
    f.write("src/a.rs", "pub fn helper() -> u8 {\n    1\n}\n");
    f.write(
        "src/b.rs",
        "use crate::a::helper;\npub fn h() -> u8 {\n    helper()\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 22
        > Refactor RenameSymbol Item Entry
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        > Refactor RenameSymbol LIMIT MAX
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        > Refactor RenameSymbol total sum_all
        Ok, Renamed in 1 file (src/lib.rs), 1 reference updated
        > Open src/a.rs
        Ok, At 0:0, Length 3
        > Find References helper
        Ok: Found 2 references, with lines, Txt src/b.rs:0:14: use crate::a::helper;\nsrc/b.rs:2:4: helper()
        > Refactor RenameSymbol helper assist
        Ok, Renamed in 2 files (src/a.rs, src/b.rs), 3 references updated
        "#,
    );
    let lib = f.read("src/lib.rs");
    assert!(lib
        .contains("const LIMIT: u8 = 3;\n    struct Item(u16);\n    let i = Item(LIMIT as u16);"));
    assert!(lib.contains("MAX + Entry(1).0"));
    assert!(lib.contains("map(|&x| total(x))"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Java: a local is bound from its own name on, its initializer included
/// (a rename to `count` made `String count = count;`, "might not have
/// been initialized"); a nested class is not renamed like a class around
/// it ("already defined"); a member another top-level class reads is not
/// made private (its uses would no longer compile).
#[test]
fn java_locals_nested_classes_and_private_members_keep_to_the_language() {
    let f = Fixture::new();
    f.write(
        "src/A.java",
        "public class A {\n    String owner = \"o\";\n    String f() {\n        String count = owner;\n        return count;\n    }\n    String g() {\n        int y = owner.length();\n        String owner = \"x\";\n        return owner + y;\n    }\n}\n",
    );
    f.write(
        "src/a/Account.java",
        "package a;\npublic class Account {\n    int total;\n    public void deposit(int n) { total += n; helper(); }\n    void helper() {}\n    public static class Inner { int x; }\n    class Nested { void go() { helper(); } }\n}\n",
    );
    f.write(
        "src/a/Use.java",
        "package a;\npublic class Use {\n    void run(Account s) { s.deposit(3); }\n}\n",
    );
    // (a field and a method of one name are apart)
    f.write(
        "src/Util.java",
        "public class Util {\n    static final int LIMIT = 3;\n    static int clamp(int v) { return Math.min(v, LIMIT); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/A.java
        Ok
        Ok, At 0:0, Length 12
        > Find References A.owner
        Ok: Found 2 references, with lines, Txt src/A.java:3:23: String count = owner;\nsrc/A.java:7:16: int y = owner.length();
        > Refactor RenameSymbol A.owner count
        Fail "Name conflict exists: renamed, the use of A.owner at src/A.java:3:23 would be another count (a name its scope binds); choose another name"
        > Modify Variable A.f.count Rename owner
        Fail "Name conflict: owner is used at line 4 for another binding, which A.f.count would hide; choose another name"
        > Open src/a/Account.java
        Ok, At 0:0, Length 8
        > Refactor RenameSymbol Account.Inner Account Include Possible
        Fail "Name conflict exists: a.Account.Inner is nested in the class Account, and Java forbids a class named like a class around it; choose another name"
        > Modify Method Account.deposit SetVisibility private
        Fail "a.Account.deposit is used outside Account (src/a/Use.java:2): made private, those uses no longer compile; make it protected or package-private, or move them first"
        > Open src/Util.java
        Ok, At 0:0, Length 4
        > Refactor RenameSymbol Util.LIMIT clamp
        Ok, Renamed in 1 file (src/Util.java), 2 references updated
        "#,
    );
    f.accepted("javac", &["-d", "classes", "src/Util.java"]);
}

/// Rust locals: a macro's named argument (`name = 7` of `format!`) is the
/// macro's key, not the local (renamed, "named argument never used"); a
/// new name a pattern reads as an item — a constant, a unit struct, the
/// prelude's `None` — is refused (`let MAX = …`, E0005).
#[test]
fn rust_local_renames_keep_macro_keys_and_bindings() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub struct Unit;\npub const MAX: u8 = 9;\npub fn g() -> usize {\n    let name = 5;\n    format!(\"{name}\", name = 7).len() + name\n}\npub fn f(a: u8) -> u8 {\n    let b = a + 1;\n    b\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 10
        > Modify Variable f.b Rename Unit
        Fail "Name conflict: Unit names a constant, static, unit struct or variant here, which a pattern reads as that item, not as a new binding; f.b would no longer bind; choose another name"
        > Modify Variable f.a Rename MAX
        Fail "Name conflict: MAX names a constant, static, unit struct or variant here, which a pattern reads as that item, not as a new binding; f.a would no longer bind; choose another name"
        > Modify Variable f.b Rename None
        Fail "Name conflict: None names a constant, static, unit struct or variant here, which a pattern reads as that item, not as a new binding; f.b would no longer bind; choose another name"
        > Modify Variable g.name Rename n
        Ok, Modified local variable g.name (2 edits), At 3:8
        > Save
        Ok, Bytes 172
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("format!(\"{name}\", name = 7).len() + n\n"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// TypeScript: a namespace's or an enum's member read bare in its body
/// (`return k;` in `namespace NS`, `B = A << 1` in `enum Flags`), in each
/// merged block, is renamed with it (they were left, TS2304); a local of
/// its name keeps its own. Renamed in one file, a member whose uses there
/// the file's own rename does not see is refused.
#[test]
fn typescript_namespace_and_enum_members_read_bare_are_renamed() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export namespace NS {\n  export const k = 1;\n  export function f() { return k; }\n  export function helper() { return k + 1; }\n  export function g() { const k = 5; return k + helper(); }\n}\nexport namespace NS {\n  export const count = k + 2;\n}\nexport enum Flags { A = 1, B = A << 1, C = Flags.B | A }\n",
    );
    f.write(
        "b.ts",
        "import { NS, Flags } from \"./a\";\nexport const x = NS.k + NS.count + Flags.A;\n",
    );
    f.write(
        "tsconfig.json",
        r#"{"compilerOptions":{"strict":true,"noEmit":true,"module":"commonjs","target":"es2020"}}"#,
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 10
        > Modify Variable NS.k Rename kk
        Fail "NS.k is not renamed in this file alone: it is also used at a.ts:7:23 in this file, which a rename of one file does not see; Refactor RenameSymbol NS.k kk checks the project and renames what follows from it"
        > Refactor RenameSymbol NS.k kk
        Ok, Renamed in 2 files (a.ts, b.ts), 5 references updated
        > Refactor RenameSymbol NS.helper h2
        Ok, Renamed in 1 file (a.ts), 2 references updated
        > Refactor RenameSymbol Flags.A Alpha
        Ok, Renamed in 2 files (a.ts, b.ts), 4 references updated
        "#,
    );
    assert!(f.read("a.ts").contains("const k = 5; return k + h2();"));
    f.accepted("tsc", &["-p", "."]);
}

/// Go: a rename keeps gofmt's columns — a struct's field types, a keyed
/// literal's values — realigned to the new name, in a file gofmt kept
/// (`gofmt -l` listed it after the rename); in one file, a member with a
/// use there that the in-file rename does not read is refused (`c.ID` of
/// a package-level `var c = C{…}`, which the index proves, was left).
#[test]
fn go_renames_keep_gofmt_alignment() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/g\n\ngo 1.19\n");
    f.write(
        "a.go",
        "package g\n\ntype C struct {\n\tID   int\n\tName string\n}\n\nvar c = C{\n\tID:   1,\n\tName: \"x\",\n}\n\nfunc use1() int { return c.ID }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.go
        Ok
        Ok, At 0:0, Length 13
        > Modify Variable C.ID Rename Identifier
        Fail "C.ID is not renamed in this file alone: it is also used at a.go:12:27 in this file, which a rename of one file does not see; Refactor RenameSymbol C.ID Identifier checks the project and renames what follows from it"
        > Modify Variable C.Name Rename N
        Ok, Modified attribute C.Name (2 edits), At 4:1
        > Save
        Ok, Bytes 113
        "#,
    );
    assert!(f.read("a.go").contains(
        "type C struct {\n\tID int\n\tN  string\n}\n\nvar c = C{\n\tID: 1,\n\tN:  \"x\",\n}\n"
    ));
    f.check(
        "a",
        r#"
        > Refactor RenameSymbol C.N LongName
        Ok, Renamed in 1 file (a.go), 2 references updated
        "#,
    );
    assert!(f.read("a.go").contains(
        "type C struct {\n\tID       int\n\tLongName string\n}\n\nvar c = C{\n\tID:       1,\n\tLongName: \"x\",\n}\n"
    ));
    f.accepted("go", &["vet", "./..."]);
}

/// Another class's member of the name, renamed with `Include Possible`,
/// takes its own uses along (`B.create` was renamed and `B.create()`
/// left, TS2339).
#[test]
fn possible_members_renamed_take_their_uses() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export class A { static create() { return new A(); } }\nexport class B { static create() { return new B(); } }\nexport const b = B.create();\nexport const a = A.create();\n",
    );
    f.write(
        "tsconfig.json",
        r#"{"compilerOptions":{"strict":true,"noEmit":true}}"#,
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 4
        > Refactor RenameSymbol A.create make Include Possible
        Ok, Renamed in 1 file (a.ts), 4 references updated, possible: 2 uses changed too (Include Possible): a.ts:1:24 (a.B.create has a member of the name, which may override it, be overridden by it or declare it for an interface), a.ts:2:19 (a use of a.B.create, renamed with it)
        "#,
    );
    f.accepted("tsc", &["-p", "."]);
}

/// Go: a name defined in several files of its package, one per build
/// constraint (`//go:build slow` beside `!slow`), is one name: a rename
/// takes every file's definition and uses (it left `a_slow.go`'s, and
/// `go vet -tags slow` failed).
#[test]
fn go_build_tag_variants_are_renamed_together() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/g\n\ngo 1.19\n");
    f.write(
        "tags/a_fast.go",
        "//go:build !slow\n\npackage tags\n\ntype Ptr struct{ p uintptr }\n\nfunc PtrOf(v uintptr) Ptr { return Ptr{p: v} }\n\nfunc (x Ptr) Nil() bool { return x.p == 0 }\n",
    );
    f.write(
        "tags/a_slow.go",
        "//go:build slow\n\npackage tags\n\ntype Ptr struct{ p uintptr }\n\nfunc PtrOf(v uintptr) Ptr { return Ptr{p: v + 0} }\n\nfunc (x Ptr) Nil() bool { return x.p == 0 }\n",
    );
    f.write(
        "tags/use.go",
        "package tags\n\nfunc Use() bool { return PtrOf(1).Nil() }\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open tags/a_fast.go
        Ok
        Ok, At 0:0, Length 9
        > Refactor RenameSymbol PtrOf PointerOf
        Ok, Renamed in 3 files (tags/a_fast.go, tags/a_slow.go, tags/use.go), 3 references updated
        > Refactor RenameSymbol Ptr.p addr
        Ok, Renamed in 2 files (tags/a_fast.go, tags/a_slow.go), 6 references updated
        > Refactor RenameSymbol Ptr Pointer
        Ok, Renamed in 2 files (tags/a_fast.go, tags/a_slow.go), 8 references updated
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
    f.accepted("go", &["vet", "-tags", "slow", "./..."]);
}

/// Rust: a path through a qualified type (`<P>::len(p)`, `<P as
/// Area>::area(p)`) is a use of the type's member (the rename of `P.len`
/// answered `Ok` and left it, E0599).
#[test]
fn rust_qualified_type_paths_are_uses() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub struct P;\nimpl P {\n    pub fn len(&self) -> i32 {\n        0\n    }\n}\npub trait Area {\n    fn area(&self) -> i32;\n}\nimpl Area for P {\n    fn area(&self) -> i32 {\n        1\n    }\n}\npub fn f(p: &P) -> i32 {\n    <P>::len(p) + <P as Area>::area(p)\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 17
        > Find References P.len
        Ok: Found 1 reference, with lines, Txt src/lib.rs:15:9: <P>::len(p) + <P as Area>::area(p)
        > Refactor RenameSymbol P.len size
        Ok, Renamed in 1 file (src/lib.rs), 2 references updated
        > Refactor RenameSymbol Area.area surface
        Ok, Renamed in 1 file (src/lib.rs), 3 references updated, also renamed: P.Area.area
        "#,
    );
    assert!(f
        .read("src/lib.rs")
        .contains("<P>::size(p) + <P as Area>::surface(p)"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// Names that are no value's: a lifetime or a loop label (`'a` beside a
/// parameter `a`), a lower-case JSX tag (`<div>`, `</label>`: the host's
/// element, not a variable of the name). Before: renamed with it (E0261;
/// `<d>`, TS2339).
#[test]
fn lifetimes_labels_and_jsx_host_tags_are_not_renamed_with_a_variable() {
    let f = Fixture::new();
    f.write(
        "src/lib.rs",
        "pub struct S<'a> {\n    pub v: &'a [u8],\n}\n\nimpl<'a> S<'a> {\n    pub fn first(&self, a: &'a u8) -> &'a u8 {\n        'a: loop {\n            break 'a;\n        }\n        self.v.first().unwrap_or(a)\n    }\n}\n",
    );
    f.write(
        "C.tsx",
        "export function Card(props: { div: number; span: string }) {\n  const div = props.div;\n  const span = <span>{props.span}</span>;\n  return <div title={String(div)}>{span}</div>;\n}\n",
    );
    f.write(
        "D.jsx",
        "const label = 'hi';\nexport function Tag() {\n  return <label htmlFor=\"x\">{label}</label>;\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 12
        > Modify Variable S.first.a Rename fallback
        Ok, Modified local variable S.first.a (2 edits), At 5:24
        > Save; Open C.tsx
        Ok, Bytes 216
        Ok, At 0:0, Length 5
        > Modify Variable Card.div Rename d
        Ok, Modified local variable Card.div (2 edits), At 1:8
        > Modify Variable Card.span Rename s
        Ok, Modified local variable Card.span (2 edits), At 2:8
        > Save
        Ok, Bytes 168
        > Refactor RenameSymbol label caption
        Ok, Renamed in 1 file (D.jsx), 2 references updated
        "#,
    );
    assert!(f.read("src/lib.rs").contains("pub fn first(&self, fallback: &'a u8) -> &'a u8 {\n        'a: loop {\n            break 'a;"));
    assert!(f.read("C.tsx").contains(
        "const s = <span>{props.span}</span>;\n  return <div title={String(d)}>{s}</div>;"
    ));
    assert_eq!(
        f.read("D.jsx"),
        "const caption = 'hi';\nexport function Tag() {\n  return <label htmlFor=\"x\">{caption}</label>;\n}\n"
    );
}

/// Java and Rust keep a type's fields and methods apart: a field renamed
/// leaves the method of its name (and its calls) alone, and the method
/// renamed leaves the field. Before: both were renamed, and `Tag`'s
/// `label()` no longer overrode `Named.label()` (the program printed
/// `default`).
#[test]
fn a_field_and_a_method_of_one_name_are_renamed_apart() {
    let f = Fixture::new();
    f.write(
        "p/Named.java",
        "package p;\npublic interface Named { default String label() { return \"default\"; } }\n",
    );
    f.write(
        "p/Tag.java",
        "package p;\npublic class Tag implements Named {\n  private String label = \"field\";\n  public String label() { return label; }\n  String both() { return this.label + label(); }\n}\n",
    );
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub struct P {\n    label: u8,\n}\n\nimpl P {\n    pub fn label(&self) -> u8 {\n        self.label\n    }\n    pub fn both(&self) -> u8 {\n        self.label + self.label() + (P::label)(self)\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Tag.java
        Ok
        Ok, At 0:0, Length 6
        > Modify Variable Tag.label Rename caption
        Ok, Modified attribute Tag.label (3 edits), At 2:17
        > Save; Open src/lib.rs
        Ok, Bytes 180
        Ok, At 0:0, Length 12
        > Modify Variable P.label Rename tag
        Ok, Modified attribute P.label (3 edits), At 1:4
        > Modify Method P.label Rename get
        Ok, Modified method P.label (3 edits), At 5:4
        > Save
        Ok, Bytes 179
        "#,
    );
    assert_eq!(
        f.read("p/Tag.java"),
        "package p;\npublic class Tag implements Named {\n  private String caption = \"field\";\n  public String label() { return caption; }\n  String both() { return this.caption + label(); }\n}\n"
    );
    assert!(f
        .read("src/lib.rs")
        .contains("self.tag + self.get() + (P::get)(self)"));
    f.accepted("javac", &["-d", "classes", "p/Named.java", "p/Tag.java"]);
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// A nested declaration renamed in its file renames itself: a Java
/// nested class with its constructors (before: its uses alone, javac
/// "cannot find symbol"); a TypeScript namespace's function read bare in
/// the namespace is refused in one file, naming the command that renames
/// it there too (before: "No change").
#[test]
fn a_nested_declaration_renamed_in_its_file_renames_itself() {
    let f = Fixture::new();
    f.write(
        "p/Outer.java",
        "package p;\npublic class Outer {\n  static class Node { int v; Node() {} Node(int v) { this.v = v; } }\n  static Node make() { return new Node(); }\n}\n",
    );
    f.write(
        "a.ts",
        "export namespace NS {\n  export function helper() { return 1; }\n  export const two = helper() + 1;\n}\nexport const x = NS.helper();\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Outer.java
        Ok
        Ok, At 0:0, Length 5
        > Modify Class Outer.Node Rename Vertex
        Ok, Modified class Outer.Node (5 edits), At 2:2
        > Save; Open a.ts
        Ok, Bytes 157
        Ok, At 0:0, Length 5
        > Modify Function NS.helper Rename assist
        Fail "NS.helper is not renamed in this file alone: it is also used at a.ts:2:21 in this file, which a rename of one file does not see; Refactor RenameSymbol NS.helper assist checks the project and renames what follows from it"
        > Refactor RenameSymbol NS.helper assist
        Ok, Renamed in 1 file (a.ts), 3 references updated
        "#,
    );
    assert_eq!(
        f.read("p/Outer.java"),
        "package p;\npublic class Outer {\n  static class Vertex { int v; Vertex() {} Vertex(int v) { this.v = v; } }\n  static Vertex make() { return new Vertex(); }\n}\n"
    );
    f.accepted("javac", &["-d", "classes", "p/Outer.java"]);
    f.accepted("tsc", &["--noEmit", "--strict", "a.ts"]);
}

/// An ES class's private name keeps its `#`: a new name is given with
/// it (without, the rename is refused: the member would turn public),
/// and `#count in o` is renamed with `this.#count`. Before: `total = 0`
/// (public) and `#count in o` left (TS2339).
#[test]
fn a_private_name_is_renamed_as_a_private_name() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export class Counter {\n  #count = 0;\n  count() { return this.#count }\n  bump() { this.#count++ }\n  static isCounter(o: object) { return #count in o; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 6
        > Modify Variable Counter.#count Rename total
        Fail "'#count' is a private name of its class: give the new one with its # (#total); a public name would change what code outside the class sees"
        > Modify Method Counter.count Rename #tally
        Fail "Invalid name '#tally': a # name is a class's private name, and 'count' is not one; give a name without #"
        > Modify Variable Counter.#count Rename #total
        Ok, Modified attribute Counter.#count (4 edits), At 1:2
        > Save
        Ok, Bytes 153
        > Refactor RenameSymbol Counter.#total #n
        Ok, Renamed in 1 file (a.ts), 4 references updated
        "#,
    );
    assert_eq!(
        f.read("a.ts"),
        "export class Counter {\n  #n = 0;\n  count() { return this.#n }\n  bump() { this.#n++ }\n  static isCounter(o: object) { return #n in o; }\n}\n"
    );
    f.accepted(
        "tsc",
        &["--noEmit", "--strict", "--target", "es2022", "a.ts"],
    );
}

/// TypeScript: a class expression in a method is a class of its own:
/// its `#count` (private names are the innermost declaring class's) and
/// the `this.count` of its methods are its members, not the outer
/// class's — a rename of the outer one leaves them (before: both were
/// renamed, and tsc: "Property '#total' does not exist on type
/// '(Anonymous class)'").
#[test]
fn a_class_expressions_members_are_its_own() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export class A {\n  #count = 0;\n  size = 1;\n  inc(): number {\n    return ++this.#count + this.size;\n  }\n  make() {\n    return class {\n      #count = 5;\n      size = 2;\n      get(): number {\n        return this.#count + this.size;\n      }\n    };\n  }\n  peek(o: A): number {\n    return o.#count;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 19
        > Refactor RenameSymbol A.#count #total
        Ok, Renamed in 1 file (a.ts), 3 references updated
        > Refactor RenameSymbol A.size width
        Ok, Renamed in 1 file (a.ts), 2 references updated
        "#,
    );
    assert!(f
        .read("a.ts")
        .contains("      #count = 5;\n      size = 2;\n      get(): number {\n        return this.#count + this.size;"));
    f.accepted("tsc", &["--noEmit", "--target", "es2022", "a.ts"]);
    // a class expression a binding names is the binding's class
    f.write(
        "b.ts",
        "export const B = class {\n  size = 1;\n  #n = 0;\n  get(): number {\n    return this.size + this.#n;\n  }\n};\n",
    );
    f.check(
        "b",
        r#"
        > Start t; Open b.ts
        Ok
        Ok, At 0:0, Length 7
        > Refactor RenameSymbol B.size breadth
        Ok, Renamed in 1 file (b.ts), 2 references updated
        > Refactor RenameSymbol B.#n #m
        Ok, Renamed in 1 file (b.ts), 2 references updated
        "#,
    );
    assert!(f.read("b.ts").contains("return this.breadth + this.#m;"));
    f.accepted("tsc", &["--noEmit", "--target", "es2022", "b.ts"]);
}

/// TypeScript: a value typed `Partial<Opts>`, `Readonly<Opts>` (the
/// mapped types that keep every member, as named) or `T` of `<T extends
/// Opts>` reads `Opts`'s members: they are renamed with it. One typed
/// `Pick<Opts, "size">` chooses its members by key literals, which the
/// index does not follow: possible, so refused by default. Before: none
/// was found (zustand's `ReadonlyStoreApi`), and the rename answered
/// `Ok` with tsc's errors left.
#[test]
fn members_read_through_mapped_types_and_constrained_parameters_are_renamed() {
    let f = Fixture::new();
    f.write(
        "o.ts",
        "export interface Opts {\n  size: number;\n  name: string;\n}\n",
    );
    f.write(
        "u.ts",
        "import { Opts } from \"./o\";\n\nexport function part(p: Partial<Opts>): number {\n  return p.size ?? 0;\n}\nexport function ro(p: Readonly<Opts>): string {\n  return p.name;\n}\nexport function pick(p: Pick<Opts, \"size\">): number {\n  return p.size;\n}\nexport function gen<T extends Opts>(t: T): number {\n  return t.size;\n}\nexport class Box<T extends Opts> {\n  constructor(private t: T) {}\n  get(): number {\n    return this.t.size;\n  }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open o.ts
        Ok
        Ok, At 0:0, Length 4
        > Refactor RenameSymbol Opts.size width
        Fail "Cannot rename o.Opts.size: 2 possible uses it cannot prove: u.ts:8:36 (a string key of the name: the object may be a Opts (types are structural)), u.ts:9:11 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Opts.name label
        Ok, Renamed in 2 files (o.ts, u.ts), 2 references updated
        > Refactor RenameSymbol Opts.size width Include Possible
        Ok, Renamed in 2 files (o.ts, u.ts), 6 references updated, possible: 2 uses changed too (Include Possible): u.ts:8:36 (a string key of the name: the object may be a Opts (types are structural)), u.ts:9:11 (the index cannot resolve it)
        "#,
    );
    assert!(f.read("u.ts").contains("  return p.label;\n"));
    assert!(f.read("u.ts").contains("Pick<Opts, \"width\">"));
    f.accepted("tsc", &["--noEmit", "--strict", "o.ts", "u.ts"]);
}

/// Rust: a `macro_rules!` body's tokens become code wherever it expands:
/// `fn from_hex(…)` there may define a trait impl's method, and
/// `u8::from_hex` may call the trait's method through a type from outside
/// the crate. Both are possible uses of `FromHex.from_hex`: the rename is
/// refused by default, naming them, and Include Possible renames them
/// (before: `Ok` with one reference, and E0407, E0046 from cargo).
#[test]
fn a_trait_methods_rename_sees_the_impls_a_macro_writes() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"rm\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "pub trait FromHex: Sized {\n    fn from_hex(s: &str) -> Option<Self>;\n}\n\nmacro_rules! from_hex_int {\n    ($t:ty) => {\n        impl FromHex for $t {\n            fn from_hex(s: &str) -> Option<Self> {\n                <$t>::from_str_radix(s, 16).ok()\n            }\n        }\n    };\n}\n\nfrom_hex_int!(u8);\nfrom_hex_int!(u16);\n\npub fn parse(s: &str) -> Option<u8> {\n    u8::from_hex(s)\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 20
        > Refactor RenameSymbol FromHex.from_hex parse_hex
        Fail "Cannot rename FromHex.from_hex: 2 possible uses it cannot prove: src/lib.rs:7:15 (the index cannot resolve it), src/lib.rs:18:8 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol FromHex.from_hex parse_hex Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 3 references updated, possible: 2 uses changed too (Include Possible): src/lib.rs:7:15 (the index cannot resolve it), src/lib.rs:18:8 (the index cannot resolve it)
        "#,
    );
    f.accepted("cargo", &["check", "-q"]);
}

/// Rust: a name in a doc test's code (a fenced block of `///` or `//!`
/// comments, not marked as another language) is compiled by `cargo
/// test`: a possible use — the rename is refused by default, naming it,
/// and Include Possible renames it; a ` ```text ` block is prose. Before:
/// `Ok`, and the doc tests failed (`cannot find function`).
#[test]
fn a_rust_rename_sees_the_doc_tests() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"rd\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "//! Crate docs.\n//!\n//! ```\n//! assert_eq!(rd::double(2), 4);\n//! ```\n\n/// Doubles: double the number.\n///\n/// ```text\n/// double it\n/// ```\n///\n/// ```no_run\n/// let x = rd::double(3);\n/// assert_eq!(x, 6);\n/// ```\npub fn double(x: i32) -> i32 {\n    x * 2\n}\n\npub fn quad(x: i32) -> i32 {\n    double(double(x))\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/lib.rs
        Ok
        Ok, At 0:0, Length 23
        > Refactor RenameSymbol double twice
        Fail "Cannot rename double: 2 possible uses it cannot prove: src/lib.rs:3:19 (in a doc test's code, which cargo test compiles), src/lib.rs:13:16 (in a doc test's code, which cargo test compiles); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol double twice Include Possible
        Ok, Renamed in 1 file (src/lib.rs), 5 references updated, possible: 2 uses changed too (Include Possible): src/lib.rs:3:19 (in a doc test's code, which cargo test compiles), src/lib.rs:13:16 (in a doc test's code, which cargo test compiles), not changed: 2 mentions in strings and comments (src/lib.rs:6:13, src/lib.rs:9:4); Include Text changes them
        "#,
    );
    assert!(f.read("src/lib.rs").contains("/// double it\n"));
    f.accepted("cargo", &["test", "-q", "--doc"]);
}

/// Rust: `self.items` and `Self::new()` in an `impl Store` of another
/// module are the struct's where that module's `Store` is the struct
/// (`use crate::store::Store`), and not where it is another type of the
/// name (before: `self.items` was possible, so the rename was refused by
/// default, and `Self::new()` was no use, so renaming `new` answered `Ok`
/// and left E0599).
#[test]
fn rust_self_in_an_impl_of_another_module_is_its_type() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    f.write(
        "src/lib.rs",
        "mod ops;\nmod other;\nmod store;\npub use store::Store;\n",
    );
    f.write(
        "src/store.rs",
        "pub struct Store {\n    pub items: Vec<u32>,\n}\n\nimpl Store {\n    pub fn new() -> Self {\n        Store { items: Vec::new() }\n    }\n}\n",
    );
    f.write(
        "src/ops.rs",
        "use crate::store::Store;\n\nimpl Store {\n    pub fn total(&self) -> u32 {\n        self.items.iter().sum()\n    }\n\n    pub fn fresh() -> Self {\n        Self::new()\n    }\n}\n",
    );
    f.write(
        "src/other.rs",
        "pub struct Store {\n    pub items: Vec<u8>,\n}\n\nimpl Store {\n    pub fn count(&self) -> usize {\n        self.items.len()\n    }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open src/store.rs
        Ok
        Ok, At 0:0, Length 9
        > Find References store.Store.items
        Ok: Found 2 references, with lines, Txt src/ops.rs:4:13: self.items.iter().sum()\nsrc/store.rs:6:16: Store { items: Vec::new() }
        > Refactor RenameSymbol store.Store.items entries
        Ok, Renamed in 2 files (src/ops.rs, src/store.rs), 3 references updated
        > Refactor RenameSymbol store.Store.new create
        Ok, Renamed in 2 files (src/ops.rs, src/store.rs), 2 references updated
        "#,
    );
    assert!(f.read("src/other.rs").contains("self.items.len()"));
    assert!(f.read("src/ops.rs").contains("Self::create()"));
    f.accepted("cargo", &["check", "--quiet", "--offline"]);
}

/// TypeScript: `super.m()` in a subclass reads the member its `extends`
/// names, or one that class inherits (`C extends B extends A`): a use of
/// `A.m`, certain (before: possible, so the rename was refused by
/// default); in `A` itself it is its superclass's, no use of `A.m`.
#[test]
fn es_super_members_are_the_extended_classes() {
    let f = Fixture::new();
    f.write(
        "a.ts",
        "export class Base {\n  greet(): string { return \"base\"; }\n}\nexport class A extends Base {\n  greet(): string { return \"a\" + super.greet(); }\n  twice(): string { return this.greet() + this.greet(); }\n}\n",
    );
    f.write(
        "b.ts",
        "import { A } from \"./a\";\n\nexport class B extends A {\n  shout(): string { return super.greet().toUpperCase(); }\n}\nexport class C extends B {\n  whisper(): string { return super.greet().toLowerCase(); }\n}\n",
    );
    f.accepted("tsc", &["--noEmit", "--strict", "a.ts", "b.ts"]);
    f.check(
        "a",
        r#"
        > Start s; Open a.ts
        Ok
        Ok, At 0:0, Length 7
        > Find References A.greet
        Ok: Found 4 references, with lines, Txt a.ts:5:32,47: twice(): string { return this.greet() + this.greet(); }\nb.ts:3:33: shout(): string { return super.greet().toUpperCase(); }\nb.ts:6:35: whisper(): string { return super.greet().toLowerCase(); }
        "#,
    );
}

/// Java: a member of a nested class is read through values typed with
/// the class (`Outer.Inner x`, `Inner y` beside `import p.Outer.Inner;`,
/// a method's result): certain uses, renamed with it; the same name read
/// through a value of another class (`xs.size()` of a `List`, a
/// top-level class's own `size()`) is no use of it (before: every use of
/// the name in the project was possible, so the rename was refused by
/// default).
#[test]
fn java_nested_class_members_are_read_through_typed_values() {
    let f = Fixture::new();
    f.write(
        "p/Outer.java",
        "package p;\n\npublic class Outer {\n    public static class Inner {\n        public int size() { return 1; }\n    }\n    public Inner make() { return new Inner(); }\n}\n",
    );
    f.write(
        "p/User.java",
        "package p;\n\nimport p.Outer.Inner;\n\nclass User {\n    int a(Outer.Inner x) { return x.size(); }\n    int b(Inner y) { return y.size(); }\n    int c(Outer o) { return o.make().size(); }\n    int d() { Outer.Inner z = new Outer.Inner(); return z.size(); }\n}\n",
    );
    f.write(
        "p/Noise.java",
        "package p;\n\nimport java.util.List;\n\nclass Noise {\n    int size() { return 2; }\n    int a(List<String> xs) { return xs.size() + size(); }\n    int b(Noise n) { return n.size(); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Outer.java
        Ok
        Ok, At 0:0, Length 8
        > Find References Outer.Inner.size
        Ok: Found 4 references, with lines, Txt p/User.java:5:36: int a(Outer.Inner x) { return x.size(); }\np/User.java:6:30: int b(Inner y) { return y.size(); }\np/User.java:7:37: int c(Outer o) { return o.make().size(); }\np/User.java:8:58: int d() { Outer.Inner z = new Outer.Inner(); return z.size(); }
        > Refactor RenameSymbol Outer.Inner.size count
        Ok, Renamed in 2 files (p/Outer.java, p/User.java), 5 references updated
        "#,
    );
    assert!(f.read("p/Noise.java").contains("xs.size() + size()"));
    assert!(f.read("p/User.java").contains("return o.make().count();"));
    f.accepted(
        "javac",
        &[
            "-d",
            "classes",
            "p/Outer.java",
            "p/User.java",
            "p/Noise.java",
        ],
    );
}

/// Java: a bare name in a nested class that implements an interface of
/// the project (`Parser.Rule`, itself nested) is the interface's member
/// when it declares one, else the outer class's member class (`new
/// CData()` of `HtmlGrammar.CData`; found by the JPype sweep once nested
/// types resolved: the rename answered `Ok` and left it).
#[test]
fn java_bare_member_class_names_in_nested_classes_are_the_outer_classes() {
    let f = Fixture::new();
    f.write(
        "p/Parser.java",
        "package p;\n\npublic class Parser {\n    public interface Rule {\n        boolean apply(Parser p);\n    }\n    public Rule lookahead;\n}\n",
    );
    f.write(
        "p/Grammar.java",
        "package p;\n\nimport p.Parser.Rule;\n\nclass Grammar {\n    static class Directive implements Rule {\n        public boolean apply(Parser p) {\n            p.lookahead = new CData();\n            return true;\n        }\n    }\n\n    static class CData implements Rule {\n        public boolean apply(Parser p) { return false; }\n    }\n}\n",
    );
    f.accepted(
        "javac",
        &["-d", "classes", "p/Parser.java", "p/Grammar.java"],
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Grammar.java
        Ok
        Ok, At 0:0, Length 16
        > Refactor RenameSymbol Grammar.CData CharData
        Ok, Renamed in 1 file (p/Grammar.java), 2 references updated
        "#,
    );
    assert!(f
        .read("p/Grammar.java")
        .contains("p.lookahead = new CharData();"));
    f.accepted(
        "javac",
        &["-d", "classes", "p/Parser.java", "p/Grammar.java"],
    );
}

/// Java: Javadoc references (`{@link #total()}`, `{@link Cart#total()}`,
/// `{@link p.Cart#total}`, `@see #total()`, `{@link Aid}`, `@see Aid`)
/// are renamed with the class or member they name: the javadoc tool
/// resolves them, and one left to the old name is its "reference not
/// found" error (before: listed as mentions in comments, left).
#[test]
fn java_javadoc_references_are_renamed_with_their_targets() {
    let f = Fixture::new();
    f.write(
        "p/Cart.java",
        "package p;\n\n/** A cart; see {@link #total()} and {@link Cart#add(int)}. */\npublic class Cart {\n    int sum;\n\n    /** Adds; then {@link #total()} grows. @see #total() */\n    public void add(int n) { sum += n; }\n\n    public int total() { return sum; }\n}\n",
    );
    f.write(
        "p/User.java",
        "package p;\n\n/** Uses {@link Cart#total()} and {@link p.Cart#total}; not {@link Other#total}. */\nclass User {\n    int f(Cart c) { return c.total(); }\n}\n\n/** Helps {@link Cart}; see {@link Aid#help()}. */\nclass Aid {\n    /** Helps. @see Aid */\n    void help() {}\n}\n\nclass Other {\n    int total() { return 0; }\n}\n\nclass Big extends Cart {\n    /** Twice {@link #total()}. */\n    int twice() { return 2 * total(); }\n}\n\nclass Lone {\n    /** Not {@link #total()}. */\n    int total() { return 1; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Cart.java
        Ok
        Ok, At 0:0, Length 11
        > Refactor RenameSymbol Cart.total amount
        Ok, Renamed in 2 files (p/Cart.java, p/User.java), 9 references updated, not changed: 2 mentions in strings and comments (p/User.java:2:73, p/User.java:23:20); Include Text changes them
        > Refactor RenameSymbol Aid Support
        Ok, Renamed in 1 file (p/User.java), 3 references updated
        "#,
    );
    let cart = f.read("p/Cart.java");
    assert!(cart.contains("/** A cart; see {@link #amount()} and {@link Cart#add(int)}. */"));
    assert!(cart.contains("/** Adds; then {@link #amount()} grows. @see #amount() */"));
    let user = f.read("p/User.java");
    assert!(user.contains(
        "/** Uses {@link Cart#amount()} and {@link p.Cart#amount}; not {@link Other#total}. */"
    ));
    assert!(user.contains(
        "see {@link Support#help()}. */\nclass Support {\n    /** Helps. @see Support */"
    ));
    assert!(
        user.contains("/** Twice {@link #amount()}. */\n    int twice() { return 2 * amount(); }")
    );
    assert!(user.contains("/** Not {@link #total()}. */"));
    f.accepted("javac", &["-d", "classes", "p/Cart.java", "p/User.java"]);
    f.accepted(
        "javadoc",
        &[
            "-Xdoclint:all,-missing",
            "-package",
            "-quiet",
            "-d",
            "docs",
            "p/Cart.java",
            "p/User.java",
        ],
    );
}

/// Go: a type switch's name (`switch x := x.(type)`) binds in its cases,
/// not in its guard, which reads the outer `x`: renaming the outer name
/// renames it there (`go/constant`'s `Num`; before, `Ok` left the guard's
/// `x`, and `go vet`: "undeclared name: x").
#[test]
fn a_go_type_switch_name_binds_in_its_cases_not_in_its_guard() {
    let f = Fixture::new();
    f.write("go.mod", "module example.com/w\n\ngo 1.19\n");
    f.write(
        "w/w.go",
        "package w\n\n// Num says what x holds.\nfunc Num(x any) int {\n\tswitch x := x.(type) {\n\tcase int:\n\t\treturn x\n\tcase string:\n\t\treturn len(x)\n\t}\n\treturn 0\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open w/w.go; Modify Variable Num.x Rename v
        Ok
        Ok, At 0:0, Length 12
        Ok, Modified local variable Num.x (2 edits), At 3:9
        > Save
        Ok, Bytes 150
        "#,
    );
    assert!(f
        .read("w/w.go")
        .contains("func Num(v any) int {\n\tswitch x := v.(type) {\n\tcase int:\n\t\treturn x"));
    f.accepted("go", &["vet", "./..."]);
}

/// A Java record's component is renamed on every face, all or nothing:
/// the component in the header, its bare uses in the record's body (a
/// compact constructor's too), `this.price`, the accessor's calls through
/// values proven of the record, the method references `Item::price`; an
/// explicit accessor and an explicit canonical constructor's parameter
/// with its uses (`this.amount = amount`), whose name Java requires to be
/// the component's. javac accepts the result.
#[test]
fn java_record_components_are_renamed_on_every_face() {
    let f = Fixture::new();
    f.write(
        "p/Item.java",
        "package p;\n\npublic record Item(String name, int price) {\n    public Item {\n        if (price < 0) throw new IllegalArgumentException();\n    }\n\n    int twice() { return 2 * price + this.price() - price(); }\n}\n",
    );
    f.write(
        "p/Acc.java",
        "package p;\n\npublic record Acc(String name, int amount) {\n    public Acc(String name, int amount) {\n        this.name = name;\n        this.amount = Math.max(0, amount);\n    }\n\n    public Acc(String name) {\n        this(name, 0);\n    }\n\n    public int amount() {\n        return amount;\n    }\n\n    static int sum(Acc a, Acc b) { return a.amount + b.amount(); }\n}\n",
    );
    f.write(
        "p/Use.java",
        "package p;\n\nimport java.util.List;\n\nclass Use {\n    int of(Item i, Acc a) { return i.price() + a.amount(); }\n    int sum(List<Item> items) { return items.stream().mapToInt(Item::price).sum(); }\n    int any(Object o) { return ((Item) o).price(); }\n}\n",
    );
    let all = ["-d", "classes", "p/Item.java", "p/Acc.java", "p/Use.java"];
    f.accepted("javac", &all);
    f.check(
        "a",
        r#"
        > Start s; Open p/Item.java
        Ok
        Ok, At 0:0, Length 9
        > Refactor RenameSymbol Item.price cost
        Ok, Renamed in 2 files (p/Item.java, p/Use.java), 8 references updated
        > Refactor RenameSymbol Acc.amount total
        Ok, Renamed in 2 files (p/Acc.java, p/Use.java), 9 references updated
        "#,
    );
    assert_eq!(
        f.read("p/Item.java"),
        "package p;\n\npublic record Item(String name, int cost) {\n    public Item {\n        if (cost < 0) throw new IllegalArgumentException();\n    }\n\n    int twice() { return 2 * cost + this.cost() - cost(); }\n}\n"
    );
    assert_eq!(
        f.read("p/Acc.java"),
        "package p;\n\npublic record Acc(String name, int total) {\n    public Acc(String name, int total) {\n        this.name = name;\n        this.total = Math.max(0, total);\n    }\n\n    public Acc(String name) {\n        this(name, 0);\n    }\n\n    public int total() {\n        return total;\n    }\n\n    static int sum(Acc a, Acc b) { return a.total + b.total(); }\n}\n"
    );
    assert_eq!(
        f.read("p/Use.java"),
        "package p;\n\nimport java.util.List;\n\nclass Use {\n    int of(Item i, Acc a) { return i.cost() + a.total(); }\n    int sum(List<Item> items) { return items.stream().mapToInt(Item::cost).sum(); }\n    int any(Object o) { return ((Item) o).cost(); }\n}\n"
    );
    assert!(f.accepted("javac", &all));
}

/// What a rename of a record's component cannot prove or keep it refuses,
/// as a method's: uses through values of unknown type (named, with the
/// options), a new name a method of the record has (its accessor would be
/// that method), and a component whose accessor implements an interface's
/// method (the interface's method and the component keep one name).
#[test]
fn java_record_component_renames_refuse_what_they_cannot_prove_or_keep() {
    let f = Fixture::new();
    f.write(
        "p/Item.java",
        "package p;\n\npublic record Item(String name, int price) {\n    int twice() { return 2 * price; }\n}\n",
    );
    f.write(
        "p/Shop.java",
        "package p;\n\nimport java.util.function.Supplier;\n\nclass Shop {\n    static <T> T first(T[] all) { return all[0]; }\n\n    int a(Supplier<Item> s) { return s.get().price(); }\n\n    int b(Item[] items) { return first(items).price(); }\n}\n",
    );
    f.write(
        "p/Priced.java",
        "package p;\n\ninterface Priced {\n    int cost();\n}\n",
    );
    f.write(
        "p/Tag.java",
        "package p;\n\npublic record Tag(String label, int cost) implements Priced {}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Item.java
        Ok
        Ok, At 0:0, Length 5
        > Refactor RenameSymbol Item.price twice
        Fail "Name conflict exists: p/Item.java:4 already defines Item.twice; choose another name"
        > Refactor RenameSymbol Item.price name
        Fail "Name conflict exists: p/Item.java:3 already defines Item.name; choose another name"
        > Refactor RenameSymbol Item.price cost
        Fail "Cannot rename p.Item.price: 2 possible uses it cannot prove: p/Shop.java:7:45 (the index cannot resolve it), p/Shop.java:9:46 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Tag.cost price
        Fail "Cannot rename p.Tag.cost: its accessor cost() implements an interface's method, of one name with p.Priced.cost; renaming a record's component with the methods of an interface is not supported"
        > Refactor RenameSymbol Priced.cost price
        Fail "Cannot rename p.Priced.cost: p.Tag.cost, a record's component, implements it with its accessor; renaming the methods of an interface with a record's component is not supported"
        > Refactor RenameSymbol Item.price cost Only Proven
        Ok, Renamed in 1 file (p/Item.java), 2 references updated, may be broken at: 2 possible uses left unchanged (Only Proven): p/Shop.java:7:45 (the index cannot resolve it), p/Shop.java:9:46 (the index cannot resolve it)
        "#,
    );
    assert_eq!(
        f.read("p/Item.java"),
        "package p;\n\npublic record Item(String name, int cost) {\n    int twice() { return 2 * cost; }\n}\n"
    );
    assert!(f.read("p/Shop.java").contains("s.get().price()"));
}

/// A varargs component (`String... tags`) is a component as another:
/// defined, found and renamed with its explicit canonical constructor's
/// parameter, whose modifiers (`final`) do not hide the constructor.
#[test]
fn java_record_varargs_components_are_components() {
    let f = Fixture::new();
    f.write(
        "p/Bag.java",
        "package p;\n\npublic record Bag(String name, String... tags) {\n    public Bag(final String name, final String... tags) {\n        this.name = name;\n        this.tags = tags.clone();\n    }\n\n    int count() { return tags.length; }\n}\n",
    );
    f.write(
        "p/UseBag.java",
        "package p;\n\nclass UseBag {\n    int n(Bag b) { return b.tags().length; }\n}\n",
    );
    let all = ["-d", "classes", "p/Bag.java", "p/UseBag.java"];
    f.accepted("javac", &all);
    f.check(
        "a",
        r#"
        > Start s; Open p/Bag.java
        Ok
        Ok, At 0:0, Length 10
        > Find References Bag.tags
        Ok: Found 3 references, with lines, Txt p/Bag.java:5:13: this.tags = tags.clone();\np/Bag.java:8:25: int count() { return tags.length; }\np/UseBag.java:3:28: int n(Bag b) { return b.tags().length; }
        > Refactor RenameSymbol Bag.tags labels
        Ok, Renamed in 2 files (p/Bag.java, p/UseBag.java), 6 references updated
        "#,
    );
    assert_eq!(
        f.read("p/Bag.java"),
        "package p;\n\npublic record Bag(String name, String... labels) {\n    public Bag(final String name, final String... labels) {\n        this.name = name;\n        this.labels = labels.clone();\n    }\n\n    int count() { return labels.length; }\n}\n"
    );
    assert!(f.accepted("javac", &all));
}

/// `Modify Variable Pt.x Rename` renames a record's component in its file
/// with its explicit canonical constructor's parameter; one whose
/// accessor the file calls (`y()`) it leaves to `Refactor RenameSymbol`,
/// which renames the accessor's calls.
#[test]
fn java_record_components_renamed_in_one_file() {
    let f = Fixture::new();
    f.write(
        "Pt.java",
        "record Pt(int x, int y) {\n    Pt(int x, int y) {\n        this.x = x;\n        this.y = y;\n    }\n\n    int sum() { return x + y(); }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open Pt.java
        Ok
        Ok, At 0:0, Length 8
        > Modify Variable Pt.x Rename w
        Ok, Modified attribute Pt.x (5 edits), At 0:14
        > Modify Variable Pt.y Rename z
        Fail "Pt.y is not renamed in this file alone: it is also used at Pt.java:6:27 in this file, which a rename of one file does not see; Refactor RenameSymbol Pt.y z checks the project and renames what follows from it"
        > Save
        Ok, Bytes 132
        "#,
    );
    assert_eq!(
        f.read("Pt.java"),
        "record Pt(int w, int y) {\n    Pt(int w, int y) {\n        this.w = w;\n        this.y = y;\n    }\n\n    int sum() { return w + y(); }\n}\n"
    );
    assert!(f.accepted("javac", &["-d", "classes", "Pt.java"]));
}

/// A Java method reference through a class of the project (`A::price`)
/// is that class's member, declared or inherited: another class's
/// same-named method is not left possible by it.
#[test]
fn a_java_method_reference_through_a_class_is_that_classs() {
    let f = Fixture::new();
    f.write(
        "p/A.java",
        "package p;\n\nclass A {\n    int price() { return 1; }\n}\n",
    );
    f.write(
        "p/B.java",
        "package p;\n\nclass B {\n    int price() { return 2; }\n}\n",
    );
    f.write("p/C.java", "package p;\n\nclass C extends B {\n}\n");
    f.write(
        "p/Use.java",
        "package p;\n\nimport java.util.function.ToIntFunction;\n\nclass Use {\n    ToIntFunction<A> f = A::price;\n    ToIntFunction<B> g = B::price;\n    ToIntFunction<C> h = C::price;\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/B.java
        Ok
        Ok, At 0:0, Length 5
        > Find References B.price
        Ok: Found 2 references, with lines, Txt p/Use.java:6:28: ToIntFunction<B> g = B::price;\np/Use.java:7:28: ToIntFunction<C> h = C::price;
        > Refactor RenameSymbol B.price cost
        Ok, Renamed in 2 files (p/B.java, p/Use.java), 3 references updated
        "#,
    );
    assert!(f.read("p/Use.java").contains(
        "A::price;\n    ToIntFunction<B> g = B::cost;\n    ToIntFunction<C> h = C::cost;"
    ));
    assert!(f.accepted(
        "javac",
        &[
            "-d",
            "out",
            "p/A.java",
            "p/B.java",
            "p/C.java",
            "p/Use.java"
        ]
    ));
}

/// TypeScript: an object literal whose type its place declares — passed
/// a parameter declared as the type (`add({ cents: 1 })` for `add(item:
/// Item)`; a method's, through a receiver of known type; a constructor's;
/// an optional one; `Item[]`'s elements; `Partial<Item>`,
/// `Readonly<Item>`), returned from a function declared to return it, an
/// element of an array declared `Item[]`, a field's or parameter's
/// default — has the type's keys: they are renamed with the field, and
/// a shorthand keeps its value (`{ cents }` → `{ price: cents }`).
/// Before: each was a possible use, and the rename refused by default.
#[test]
fn typescript_literals_passed_or_returned_as_the_type_are_renamed() {
    let f = Fixture::new();
    f.write(
        "tsconfig.json",
        "{\"compilerOptions\":{\"strict\":true,\"noEmit\":true,\"target\":\"es2020\"}}",
    );
    f.write(
        "item.ts",
        "export interface Item { cents: number }
export function add(item: Item): number { return item.cents; }
export class Cart {
  constructor(first?: Item) { console.log(first); }
  add(this: Cart, item: Item): void { console.log(item.cents); }
  addAll(note: string, items: Item[]): void { console.log(note, items); }
  patch(item: Partial<Item>): void { console.log(item); }
}
export const addArrow = (n: number, item?: Readonly<Item>) => n + (item?.cents ?? 0);
export function make(): Item { return { cents: 3 }; }
export const makeArrow = (): Item => ({ cents: 7 });
export const items: Item[] = [{ cents: 4 }];
export class Shop { best: Item = { cents: 9 }; }
export function withDefault(item: Item = { cents: 10 }): Item { return item; }
",
    );
    f.write(
        "use.ts",
        "import { add, Cart, addArrow } from \"./item\";
const cart = new Cart({ cents: 0 });
cart.add({ cents: 1 });
add({ cents: 2 });
const cents = 5;
add({ cents });
cart.addAll(\"x\", [{ cents: 11 }, { cents }]);
cart.patch({ cents: 12 });
addArrow(1, { cents: 13 });
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.cents price
        Ok, Renamed in 2 files (item.ts, use.ts), 17 references updated
        "#,
    );
    assert!(f.read("use.ts").contains(
        "add({ price: cents });\ncart.addAll(\"x\", [{ price: 11 }, { price: cents }]);"
    ));
    assert!(f
        .read("item.ts")
        .contains("export const makeArrow = (): Item => ({ price: 7 });"));
    f.accepted("tsc", &["-p", "."]);
}

/// The literals whose type the index cannot prove stay possible, and the
/// rename refuses by default: a call of an overloaded function (the
/// call may be another signature's), of a constant declared with another
/// function type (its calls are that type's), of a method through an
/// untyped receiver, of a parameter declared with an inline type.
#[test]
fn typescript_literals_passed_where_the_type_is_not_certain_stay_possible() {
    let f = Fixture::new();
    f.write(
        "item.ts",
        "export interface Item { cents: number }
export function add(item: { cents: number; other: number }): void;
export function add(item: Item): void;
export function add(item: Item | { cents: number; other: number }): void { console.log(item); }
export class Cart { put(item: Item): void { console.log(item.cents); } }
type Handler = (x: { cents: number }) => void;
export const handle: Handler = (item: Item) => console.log(item);
export function other(x: { cents: number }) { return x; }
",
    );
    f.write(
        "use.ts",
        "import { add, handle, other } from \"./item\";
add({ cents: 2 });
handle({ cents: 3 });
function put(c: any) { c.put({ cents: 1 }); }
other({ cents: 6 });
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Item.cents price
        Fail "Cannot rename item.Item.cents: 4 possible uses it cannot prove: use.ts:1:6 (an object literal's key of the name: the object may be a Item (types are structural)), use.ts:2:9 (an object literal's key of the name: the object may be a Item (types are structural)), use.ts:3:31 (an object literal's key of the name: the object may be a Item (types are structural)), use.ts:4:8 (an object literal's key of the name: the object may be a Item (types are structural)); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        "#,
    );
}

/// The Go project of the package-level variables' tests: `enc` declares
/// `Encoding` and `Decoder` and variables of them without a type (`var E
/// = NewEncoding(…)`, `Decoder{…}`, `&Decoder{}`, `new(Decoder)`), read in
/// another file of the package, and from package `main` (`enc.E`, `var
/// Top = enc.NewEncoding(…)`); a parameter `E` of an interface type
/// shadows the variable.
pub(super) fn go_package_variables(f: &Fixture) {
    f.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    f.write(
        "enc/enc.go",
        "package enc

type Encoding struct{ alphabet string }

func NewEncoding(a string) *Encoding { return &Encoding{alphabet: a} }

func (e *Encoding) Encode(s string) string { return e.alphabet + s }

type Decoder struct{ n int }

func (d Decoder) Decode() int { return d.n }

var E = NewEncoding(\"abc\")

var (
	D  = Decoder{n: 1}
	DP = &Decoder{}
	DN = new(Decoder)
)
",
    );
    f.write(
        "enc/use.go",
        "package enc

func Use() string {
	n := D.Decode() + DP.Decode() + DN.Decode()
	_ = n
	return E.Encode(\"x\")
}

func Shadow(E interface{ Encode(string) string }) string {
	return E.Encode(\"z\")
}
",
    );
    f.write(
        "main.go",
        "package main

import (
	\"fmt\"

	\"example.com/m/enc\"
)

var Top = enc.NewEncoding(\"t\")

func main() {
	fmt.Println(enc.E.Encode(\"a\"), Top.Encode(\"b\"), enc.Use())
}
",
    );
}

/// Go: a package-level variable declared without a type is of its
/// value's — a composite literal's type, `&T{}`, `new(T)`, what the
/// package's (or an imported package's) function returns — in every file
/// of the package and through its package's name: its method uses are
/// proven and renamed. A parameter of the name shadows it (an interface
/// type's method: possible, refused by default). Before: every such use
/// was possible.
#[test]
fn go_package_variables_typed_by_their_values_are_renamed() {
    let f = Fixture::new();
    go_package_variables(&f);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol Decoder.Decode Parse
        Ok, Renamed in 2 files (enc/enc.go, enc/use.go), 4 references updated
        > Refactor RenameSymbol Encoding.Encode Emit
        Fail "Cannot rename enc.Encoding.Encode: 2 possible uses it cannot prove: enc/use.go:8:25 (enc.Shadow.Encode has a member of the name, which may override it, be overridden by it or declare it for an interface), enc/use.go:9:10 (the index cannot resolve it); nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)"
        > Refactor RenameSymbol Encoding.Encode Emit Include Possible
        Ok, Renamed in 3 files (enc/enc.go, enc/use.go, main.go), 6 references updated, possible: 2 uses changed too (Include Possible): enc/use.go:8:25 (enc.Shadow.Encode has a member of the name, which may override it, be overridden by it or declare it for an interface), enc/use.go:9:10 (the index cannot resolve it)
        "#,
    );
    assert!(f
        .read("enc/use.go")
        .contains("n := D.Parse() + DP.Parse() + DN.Parse()"));
    assert!(f
        .read("main.go")
        .contains("enc.E.Emit(\"a\"), Top.Emit(\"b\")"));
    f.accepted("go", &["vet", "./..."]);
}

/// TypeScript: a value declared of a type alias (`teardown: Teardown`,
/// `type Teardown = Sub | (() => void) | void`; `Exclude<Teardown,
/// void>` too) may be of any class the alias names, a narrowing (`instanceof Sub`) reaching it: its member
/// uses are possible, so a rename is refused by default rather than
/// leaving `teardown._hasParent(this)` behind (rxjs's `Subscription`).
#[test]
fn a_typescript_value_of_a_type_alias_may_be_the_class() {
    let f = Fixture::new();
    f.write(
        "s.ts",
        "export type Teardown = Sub | (() => void) | void;\nexport class Sub {\n  add(teardown: Teardown): void {\n    if (teardown instanceof Sub) {\n      if (teardown._hasParent(this)) { return; }\n    }\n  }\n  remove(teardown: Exclude<Teardown, void>): void {\n    if (teardown instanceof Sub) { teardown._hasParent(this); }\n  }\n  private _hasParent(parent: Sub): boolean { return parent === this; }\n}\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References Sub._hasParent
        Ok: Found 0 references and 2 possible, with lines, Txt possible:\ns.ts:4:19: if (teardown._hasParent(this)) { return; }\ns.ts:8:44: if (teardown instanceof Sub) { teardown._hasParent(this); }
        > Refactor RenameSymbol Sub._hasParent _isChild Include Possible
        Ok, Renamed in 1 file (s.ts), 3 references updated, possible: 2 uses changed too (Include Possible): s.ts:4:19 (the index cannot resolve it), s.ts:8:44 (the index cannot resolve it)
        "#,
    );
    assert!(f.accepted("tsc", &["--noEmit", "--strict", "s.ts"]));
}
