//! `Find References`, `Find Definition` and `Find Callers` on the brace
//! languages' files (`analysis/index/tags`): fixture projects per
//! language, the exact replies, each use certain or possible.

use super::*;

const UTIL_JS: &str = "export function add(a, b) {
  return a + b;
}

export default function twice(x) {
  return add(x, x);
}

function shadow(add) {
  return add;
}
";

const INDEX_JS: &str = "export { add as plus } from './util.js';
export * from './util';
";

const APP_TS: &str = "import twice, { add } from './util';
import * as u from './util.js';
import { plus } from './index';
import { add as other } from 'left-pad';
const lib = require('./util');

export class Calc {
  total = 0;
  push(n: number): number {
    this.total = add(this.total, n);
    return this.total;
  }
}

export function run(c: Calc) {
  c.push(1);
  return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
}
";

#[test]
fn es_modules_resolve_imports_re_exports_and_namespaces() {
    let f = Fixture::new();
    f.write("web/util.js", UTIL_JS);
    f.write("web/index.js", INDEX_JS);
    f.write("web/app.ts", APP_TS);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References add
        Ok: Found 7 references and 3 possible, with lines, Txt web/app.ts:0:16: import twice, { add } from './util';\nweb/app.ts:2:9: import { plus } from './index';\nweb/app.ts:9:17: this.total = add(this.total, n);\nweb/app.ts:16:11,18: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);\nweb/index.js:0:9: export { add as plus } from './util.js';\nweb/util.js:5:9: return add(x, x);\npossible:\nweb/app.ts:3:9: import { add as other } from 'left-pad';\nweb/app.ts:16:43,55: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
        > Find Callers add
        Ok: Found 4 callers and 2 possible, with lines, Txt web/app.ts:9:17 in web.app.Calc.push: this.total = add(this.total, n);\nweb/app.ts:16:11,18 in web.app.run: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);\nweb/util.js:5:9 in web.util.twice: return add(x, x);\npossible:\nweb/app.ts:16:43,55 in web.app.run: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
        > Find Definition add
        Ok: Found 1 definition, with lines, Txt web/util.js:0:7 function web.util.add: export function add(a, b) {
        > Find References Calc.push
        Ok: Found 1 reference, with lines, Txt web/app.ts:15:4: c.push(1);
        > Find References push
        Ok: Found 1 reference, with lines, Txt web/app.ts:15:4: c.push(1);
        > Find References twice
        Ok: Found 1 reference, with lines, Txt web/app.ts:16:26: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
        > Find Callers Calc
        Ok: Found 0 callers
        > Find References Calc
        Ok: Found 1 reference, with lines, Txt web/app.ts:14:23: export function run(c: Calc) {
        > Find Definition nosuch
        Fail "Not found: symbol 'nosuch'. No similar name in the index"
        > Open web/app.ts
        Ok, At 0:0, Length 18
        > Find References add
        Ok: Found 7 references and 3 possible, with lines, Txt web/app.ts:0:16: import twice, { add } from './util';\nweb/app.ts:2:9: import { plus } from './index';\nweb/app.ts:9:17: this.total = add(this.total, n);\nweb/app.ts:16:11,18: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);\nweb/index.js:0:9: export { add as plus } from './util.js';\nweb/util.js:5:9: return add(x, x);\npossible:\nweb/app.ts:3:9: import { add as other } from 'left-pad';\nweb/app.ts:16:43,55: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
        "#,
    );
}

/// Go: a package's files see each other's names; another package's through its import path within the module (go.mod); a method through a value declared with its type, or made by a function beside the type that returns it (`s := st.New()`), is certain, through any other value possible.
#[test]
fn go_packages_within_a_module_and_methods_by_receiver_type() {
    let f = Fixture::new();
    f.write(
        "go.mod",
        r#"module example.com/shop

go 1.22"#,
    );
    f.write(
        "stack/stack.go",
        r#"package stack

// Stack holds ints.
type Stack struct {
	items []int
}

func (s *Stack) Push(v int) {
	s.items = append(s.items, v)
}

func New() *Stack {
	return &Stack{items: nil}
}"#,
    );
    f.write(
        "stack/peek.go",
        r#"package stack

func (s *Stack) Peek() int {
	s.Push(0)
	return s.items[len(s.items)-1]
}

func Fresh() *Stack {
	return New()
}"#,
    );
    f.write(
        "cmd/main.go",
        r#"package main

import (
	"fmt"

	st "example.com/shop/stack"
)

type Other struct{}

func (o Other) Push(v int) {}

func main() {
	s := st.New()
	s.Push(1)
	var t st.Stack
	t.Push(2)
	o := Other{}
	o.Push(3)
	fmt.Println(s)
	New := 3
	fmt.Println(New)
}"#,
    );
    f.write(
        "cmd/helper.go",
        r#"package main

func push(x interface{ Push(int) }) {
	x.Push(4)
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References New
        Ok: Found 2 references, with lines, Txt cmd/main.go:13:9: s := st.New()\nstack/peek.go:8:8: return New()
        > Find Callers New
        Ok: Found 2 callers, with lines, Txt cmd/main.go:13:9 in cmd.main: s := st.New()\nstack/peek.go:8:8 in stack.Fresh: return New()
        > Find References Stack.Push
        Ok: Found 3 references and 1 possible, with lines, Txt cmd/main.go:14:3: s.Push(1)\ncmd/main.go:16:3: t.Push(2)\nstack/peek.go:3:3: s.Push(0)\npossible:\ncmd/helper.go:3:3: x.Push(4)
        > Find Callers Push
        Fail "Ambiguous symbol 'Push': cmd.push.Push at cmd/helper.go:2:23, cmd.Other.Push at cmd/main.go:10:0, stack.Stack.Push at stack/stack.go:7:0; use a qualified name"
        > Find Definition Push
        Ok: Found 3 definitions, with lines, Txt cmd/helper.go:2:23 method cmd.push.Push: func push(x interface{ Push(int) }) {\ncmd/main.go:10:0 method cmd.Other.Push: func (o Other) Push(v int) {}\nstack/stack.go:7:0 method stack.Stack.Push: func (s *Stack) Push(v int) {
        > Find References stack.Stack.Push
        Ok: Found 3 references and 1 possible, with lines, Txt cmd/main.go:14:3: s.Push(1)\ncmd/main.go:16:3: t.Push(2)\nstack/peek.go:3:3: s.Push(0)\npossible:\ncmd/helper.go:3:3: x.Push(4)
        > Find Definition New
        Ok: Found 1 definition, with lines, Txt stack/stack.go:11:0 function stack.New: func New() *Stack {
        > Find References Stack
        Ok: Found 6 references, with lines, Txt cmd/main.go:15:10: var t st.Stack\nstack/peek.go:2:9: func (s *Stack) Peek() int {\nstack/peek.go:7:14: func Fresh() *Stack {\nstack/stack.go:7:9: func (s *Stack) Push(v int) {\nstack/stack.go:11:12: func New() *Stack {\nstack/stack.go:12:9: return &Stack{items: nil}
        > Find References Stack.items
        Ok: Found 5 references, with lines, Txt stack/peek.go:4:10,22: return s.items[len(s.items)-1]\nstack/stack.go:8:3,20: s.items = append(s.items, v)\nstack/stack.go:12:15: return &Stack{items: nil}
        "#,
    );
}

/// Java: the classes of a package see each other; another package's through its import; a method through a value declared with its class (a parameter, a local, a field) or a static method's result is certain, through an unknown value possible; a class its file neither shares a package with nor imports is another.
#[test]
fn java_packages_imports_and_typed_members() {
    let f = Fixture::new();
    f.write(
        "src/com/shop/Cart.java",
        r#"package com.shop;

import java.util.List;

public class Cart {
    private int total;

    public void add(int n) {
        total += n;
        log(n);
    }

    void log(int n) {}

    public static Cart empty() {
        return new Cart();
    }
}"#,
    );
    f.write(
        "src/com/shop/Checkout.java",
        r#"package com.shop;

public class Checkout {
    public int run(Cart cart, Object x) {
        cart.add(1);
        Cart.empty().add(2);
        Cart c = new Cart();
        c.add(3);
        return 0;
    }
}"#,
    );
    f.write(
        "src/com/web/Page.java",
        r#"package com.web;

import com.shop.Cart;

public class Page {
    Cart cart = Cart.empty();

    void show(Helper h) {
        cart.add(4);
        h.add(5);
    }
}"#,
    );
    f.write(
        "src/com/web/Other.java",
        r#"package com.web;

public class Other {
    void f(Cart c) {
        c.add(6);
    }
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References Cart
        Ok: Found 9 references, with lines, Txt src/com/shop/Cart.java:14:18: public static Cart empty() {\nsrc/com/shop/Cart.java:15:19: return new Cart();\nsrc/com/shop/Checkout.java:3:19: public int run(Cart cart, Object x) {\nsrc/com/shop/Checkout.java:5:8: Cart.empty().add(2);\nsrc/com/shop/Checkout.java:6:8,21: Cart c = new Cart();\nsrc/com/web/Page.java:2:16: import com.shop.Cart;\nsrc/com/web/Page.java:5:4,16: Cart cart = Cart.empty();
        > Find Callers Cart.add
        Ok: Found 4 callers, with lines, Txt src/com/shop/Checkout.java:4:13 in com.shop.Checkout.run: cart.add(1);\nsrc/com/shop/Checkout.java:5:21 in com.shop.Checkout.run: Cart.empty().add(2);\nsrc/com/shop/Checkout.java:7:10 in com.shop.Checkout.run: c.add(3);\nsrc/com/web/Page.java:8:13 in com.web.Page.show: cart.add(4);
        > Find References Cart.add
        Ok: Found 4 references, with lines, Txt src/com/shop/Checkout.java:4:13: cart.add(1);\nsrc/com/shop/Checkout.java:5:21: Cart.empty().add(2);\nsrc/com/shop/Checkout.java:7:10: c.add(3);\nsrc/com/web/Page.java:8:13: cart.add(4);
        > Find Definition add
        Ok: Found 1 definition, with lines, Txt src/com/shop/Cart.java:7:4 method com.shop.Cart.add: public void add(int n) {
        > Find Callers empty
        Ok: Found 2 callers, with lines, Txt src/com/shop/Checkout.java:5:13 in com.shop.Checkout.run: Cart.empty().add(2);\nsrc/com/web/Page.java:5:21 in com.web.Page: Cart cart = Cart.empty();
        "#,
    );
}

/// Rust: `use` paths (`crate::`, `super::`) and paths in code (`util::sum`) within a crate; a binary naming its package's library (`shop::cart::Cart`); a value an associated function returning `Self` made (`let mut b = Basket::new()`); a local `let` of the same name is another; another crate's path is possible, a prelude name (`Vec::new`) another.
#[test]
fn rust_use_and_paths_within_a_crate() {
    let f = Fixture::new();
    f.write(
        "Cargo.toml",
        r#"[package]
name = "shop"
version = "0.1.0"
edition = "2021""#,
    );
    f.write(
        "src/lib.rs",
        r#"pub mod cart;
mod util;

use crate::cart::Cart;

pub fn total(c: &Cart) -> u32 {
    util::sum(&c.items)
}"#,
    );
    f.write(
        "src/cart.rs",
        r#"use super::util::sum;

pub struct Cart {
    pub items: Vec<u32>,
}

impl Cart {
    pub fn new() -> Self {
        Cart { items: Vec::new() }
    }

    pub fn add(&mut self, n: u32) {
        self.items.push(n);
        let _ = sum(&self.items);
        // a call in a macro's tokens is a call too
        println!("{}", sum(&self.items));
    }
}"#,
    );
    f.write(
        "src/util.rs",
        r#"pub fn sum(xs: &[u32]) -> u32 {
    xs.iter().sum()
}

pub fn twice() -> u32 {
    let sum = 2;
    sum * 2
}"#,
    );
    f.write(
        "src/bin/main.rs",
        r#"use shop::cart::Cart as Basket;

fn main() {
    let mut b = Basket::new();
    b.add(1);
    crate::other();
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References sum
        Ok: Found 4 references, with lines, Txt src/cart.rs:0:17: use super::util::sum;\nsrc/cart.rs:13:16: let _ = sum(&self.items);\nsrc/cart.rs:15:23: println!("{}", sum(&self.items));\nsrc/lib.rs:6:10: util::sum(&c.items)
        > Find Callers sum
        Ok: Found 3 callers, with lines, Txt src/cart.rs:13:16 in cart.Cart.add: let _ = sum(&self.items);\nsrc/cart.rs:15:23 in cart.Cart.add: println!("{}", sum(&self.items));\nsrc/lib.rs:6:10 in total: util::sum(&c.items)
        > Find References Cart
        Ok: Found 6 references, with lines, Txt src/bin/main.rs:0:16: use shop::cart::Cart as Basket;\nsrc/bin/main.rs:3:16: let mut b = Basket::new();\nsrc/cart.rs:6:5: impl Cart {\nsrc/cart.rs:8:8: Cart { items: Vec::new() }\nsrc/lib.rs:3:17: use crate::cart::Cart;\nsrc/lib.rs:5:17: pub fn total(c: &Cart) -> u32 {
        > Find References Cart.new
        Ok: Found 1 reference, with lines, Txt src/bin/main.rs:3:24: let mut b = Basket::new();
        > Find References Cart.add
        Ok: Found 1 reference, with lines, Txt src/bin/main.rs:4:6: b.add(1);
        > Find References Cart.items
        Ok: Found 5 references, with lines, Txt src/cart.rs:8:15: Cart { items: Vec::new() }\nsrc/cart.rs:12:13: self.items.push(n);\nsrc/cart.rs:13:26: let _ = sum(&self.items);\nsrc/cart.rs:15:33: println!("{}", sum(&self.items));\nsrc/lib.rs:6:17: util::sum(&c.items)
        > Find Definition sum
        Ok: Found 1 definition, with lines, Txt src/util.rs:0:0 function util.sum: pub fn sum(xs: &[u32]) -> u32 {
        "#,
    );
}

/// A default export imported under another name (`import tw from './util'`) is found through its source; a default import from a file the project lacks is possible; a nested function's uses are its parent's.
#[test]
fn renamed_default_imports_nested_functions_and_unknown_sources() {
    let f = Fixture::new();
    f.write(
        "lib/util.ts",
        r#"export default function twice(x: number): number {
  return x * 2;
}"#,
    );
    f.write(
        "lib/page.tsx",
        r#"import tw from './util';
import Util from './missing';

export const Page = () => <div>{tw(2)}{Util(1)}</div>;

function inner() {
  function helper() {
    return 1;
  }
  return helper() + helper();
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References twice
        Ok: Found 1 reference and 1 possible, with lines, Txt lib/page.tsx:3:32: export const Page = () => <div>{tw(2)}{Util(1)}</div>;\npossible:\nlib/page.tsx:3:39: export const Page = () => <div>{tw(2)}{Util(1)}</div>;
        > Find Callers lib.util.twice
        Ok: Found 1 caller and 1 possible, with lines, Txt lib/page.tsx:3:32 in lib.page.Page: export const Page = () => <div>{tw(2)}{Util(1)}</div>;\npossible:\nlib/page.tsx:3:39 in lib.page.Page: export const Page = () => <div>{tw(2)}{Util(1)}</div>;
        > Find References helper
        Ok: Found 2 references, with lines, Txt lib/page.tsx:9:9,20: return helper() + helper();
        > Open lib/page.tsx
        Ok, At 0:0, Length 11
        > Find References Page
        Ok: Found 0 references
        "#,
    );
}

#[test]
fn scratch_print() {
    let Ok(files) = std::env::var("EDDI_SCRATCH") else {
        return;
    };
    let f = Fixture::new();
    let text = std::fs::read_to_string(files).unwrap();
    let (files, commands) = text.split_once("\n====\n").unwrap();
    for file in files.split("\n----\n") {
        let (path, body) = file.split_once('\n').unwrap();
        f.write(path.trim(), body);
    }
    for command in commands.lines().filter(|l| !l.trim().is_empty()) {
        eprintln!("> {command}\n{}", f.send("a", command));
    }
}

/// A service's scan ahead stores the brace index's scans in the state
/// directory; the next engine answers from them as from the files, and
/// a file changed in between is read from its new text.
#[test]
fn a_restarted_service_answers_from_the_scans_it_stored() {
    let ahead = |dir: &std::path::Path| {
        let mut config = EngineConfig::new(dir);
        config.scan_index_ahead = true;
        Engine::open(config).unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let first = Fixture {
        engine: ahead(dir.path()),
        dir,
    };
    first.write("web/util.js", UTIL_JS);
    first.write("web/index.js", INDEX_JS);
    first.write("web/app.ts", APP_TS);
    let references = |f: &Fixture| {
        let replies = f.send("a", "Start s\nFind References add");
        replies.lines().nth(1).unwrap_or_default().to_string()
    };
    let asked = references(&first);
    assert!(
        asked.contains("Found 7 references and 3 possible"),
        "{asked}"
    );
    let stored = crate::analysis::index::tags::store::path_in(&first.dir.path().join(".eddi"));
    let waited = std::time::Instant::now();
    while !stored.exists() {
        assert!(waited.elapsed().as_secs() < 30, "no store written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let Fixture { dir, engine } = first;
    drop(engine);
    let second = Fixture {
        engine: ahead(dir.path()),
        dir,
    };
    assert_eq!(references(&second), asked);
    let Fixture { dir, engine } = second;
    drop(engine);
    std::fs::write(
        dir.path().join("web/app.ts"),
        APP_TS.replace("c.push(1);", "c.push(add(1, 2));"),
    )
    .unwrap();
    let third = Fixture {
        engine: ahead(dir.path()),
        dir,
    };
    let asked = references(&third);
    assert!(
        asked.contains("Found 8 references and 3 possible"),
        "{asked}"
    );
}

/// A Java constructor's callers: its class's constructions and the
/// constructors that call it — `this(…)`, a subclass's `super(…)`, the
/// implicit `super()` of a subclass's constructor that calls no other and
/// of a subclass without one. Overloads are told apart by the number of
/// arguments (`Base.Base(n)`, `Base.Base#2`); `Find References` of a
/// constructor is its calls; an `AddParam` lists the calls it leaves.
#[test]
fn a_java_constructors_callers_are_its_constructions_and_super_calls() {
    let f = Fixture::new();
    f.write(
        "p/Base.java",
        "package p;\n\npublic class Base {\n    protected int n;\n\n    public Base(int n) {\n        this.n = n;\n    }\n\n    public Base() {\n        this(0);\n    }\n}\n",
    );
    f.write(
        "p/Sub.java",
        "package p;\n\npublic class Sub extends Base {\n    public Sub(int k) {\n        super(k);\n    }\n\n    public Sub() {\n        super();\n    }\n\n    static Base make() {\n        return new Base(3);\n    }\n}\n",
    );
    f.write(
        "p/Other.java",
        "package p;\n\nclass Other {\n    Base b = new Base(5);\n    Base c = new Base();\n}\n\nclass Plain extends Base {\n}\n\nclass Printing extends Base {\n    Printing(int k) {\n        System.out.println(k);\n    }\n}\n",
    );
    f.accepted(
        "javac",
        &["-d", "classes", "p/Base.java", "p/Sub.java", "p/Other.java"],
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Base.java
        Ok
        Ok, At 0:0, Length 13
        > Find Callers Base.Base(n)
        Ok: Found 4 callers, with lines, Txt p/Base.java:10:8 in p.Base.Base: this(0);\np/Other.java:3:17 in p.Other: Base b = new Base(5);\np/Sub.java:4:8 in p.Sub.Sub: super(k);\np/Sub.java:12:19 in p.Sub.make: return new Base(3);
        > Find Callers Base.Base#2
        Ok: Found 4 callers, with lines, Txt p/Other.java:4:17 in p.Other: Base c = new Base();\np/Other.java:7:6 in p.Plain: class Plain extends Base {\np/Other.java:11:4 in p.Printing.Printing: Printing(int k) {\np/Sub.java:8:8 in p.Sub.Sub: super();
        > Find References Base.Base#2
        Ok: Found 4 references, with lines, Txt p/Other.java:4:17: Base c = new Base();\np/Other.java:7:6: class Plain extends Base {\np/Other.java:11:4: Printing(int k) {\np/Sub.java:8:8: super();
        > Modify Method Base.Base(n) AddParam "int extra"
        Ok, Modified method Base.Base(n) (1 edit), At 5:4, calls not updated: 4 (p/Base.java:10, p/Other.java:3, p/Sub.java:4, …)
        > Undo
        Ok, Undid 1, At 0:0
        > Delete Method Base.Base#2
        Ok, Deleted 4 lines at 8, At 8:0, still used: 4 references (p/Other.java:4, p/Other.java:7, p/Other.java:11, …)
        > Undo
        Ok, Undid 1, At 0:0
        > Modify Method Base.Base#2 SetVisibility private
        Fail "p.Base.Base is used outside Base (p/Other.java:4, p/Other.java:7, p/Other.java:11, p/Sub.java:8): made private, those uses no longer compile; make it protected or package-private, or move them first"
        "#,
    );
}

/// A TypeScript constructor's callers: `new C(…)`, a subclass's
/// `super(…)`, and the constructions of a subclass without a constructor
/// of its own (which passes its arguments on), through a chain of them.
/// Before, it had none, and `AddParam` answered a plain `Ok`.
#[test]
fn a_typescript_constructors_callers_are_its_constructions_and_super_calls() {
    let f = Fixture::new();
    f.write(
        "base.ts",
        "export class Base {\n  constructor(public n: number) {}\n}\nexport class Sub extends Base {\n  constructor(k: number) {\n    super(k);\n  }\n}\nexport function make(): Base {\n  return new Base(3);\n}\n",
    );
    f.write(
        "sub2.ts",
        "import { Base } from \"./base\";\n\nexport class Sub2 extends Base {\n  twice(): number { return this.n * 2; }\n}\nexport class Sub3 extends Sub2 {}\nexport const a = new Sub2(4);\nexport const b = new Sub3(5);\nclass Local extends Array<number> {}\nexport const c = new Local(2);\n",
    );
    f.accepted("tsc", &["--noEmit", "--strict", "base.ts", "sub2.ts"]);
    f.check(
        "a",
        r#"
        > Start s; Open base.ts
        Ok
        Ok, At 0:0, Length 11
        > Find Callers Base.constructor
        Ok: Found 4 callers, with lines, Txt base.ts:5:4 in base.Sub.constructor: super(k);\nbase.ts:9:13 in base.make: return new Base(3);\nsub2.ts:6:21 in <module>: export const a = new Sub2(4);\nsub2.ts:7:21 in <module>: export const b = new Sub3(5);
        > Modify Method Base.constructor AddParam "m: number"
        Ok, Modified method Base.constructor (1 edit), At 1:2, calls not updated: 4 (base.ts:5, base.ts:9, sub2.ts:6, …)
        > Undo
        Ok, Undid 1, At 0:0
        > Delete Method Base.constructor
        Ok, Deleted 1 line at 1, At 1:0, still used: 4 references (base.ts:4, base.ts:8, sub2.ts:6, …)
        "#,
    );
}

/// A Java overload's callers are the calls that pass it as many
/// arguments as it takes, counted past nested calls, strings and
/// comments; a call another overload may take too (varargs) is possible.
#[test]
fn a_java_overloads_callers_are_told_apart_by_their_arguments() {
    let f = Fixture::new();
    f.write(
        "e/Util.java",
        "package e;\npublic final class Util {\n  public static int clamp(int v) { return Math.min(v, 10); }\n  public static int clamp(int v, int hi) { return Math.min(v, hi); }\n  public static int sum(int... xs) { return xs.length; }\n  public static int sum(String s) { return 0; }\n  static int use() {\n    return clamp(1) + clamp(2, /* a, b */ 3) + Util.clamp(f(1, 2), \"x,y\".length())\n      + sum() + sum(1, 2, 3) + sum(\"a\");\n  }\n  static int f(int a, int b) { return a; }\n}\n",
    );
    f.accepted("javac", &["-d", "classes", "e/Util.java"]);
    f.check(
        "a",
        r#"
        > Start s; Open e/Util.java
        Ok
        Ok, At 0:0, Length 12
        > Find Callers Util.clamp#1
        Ok: Found 1 caller, with lines, Txt e/Util.java:7:11 in e.Util.use: return clamp(1) + clamp(2, /* a, b */ 3) + Util.clamp(f(1, 2), "x,y".length())
        > Find Callers Util.clamp(v, hi)
        Ok: Found 2 callers, with lines, Txt e/Util.java:7:22,52 in e.Util.use: return clamp(1) + clamp(2, /* a, b */ 3) + Util.clamp(f(1, 2), "x,y".length())
        > Find Callers Util.sum#1
        Ok: Found 2 callers and 1 possible, with lines, Txt e/Util.java:8:8,16 in e.Util.use: + sum() + sum(1, 2, 3) + sum("a");\npossible:\ne/Util.java:8:31 in e.Util.use: + sum() + sum(1, 2, 3) + sum("a");
        > Find Callers Util.clamp
        Ok: Found 3 callers, with lines, Txt e/Util.java:7:11,22,52 in e.Util.use: return clamp(1) + clamp(2, /* a, b */ 3) + Util.clamp(f(1, 2), "x,y".length())
        "#,
    );
}

/// A Java enum's constructor is called by its constants (`ADD("+")`,
/// `NOP` the one without parameters) and `this(…)`: its callers, which an
/// `AddParam` lists (before: none, and a plain `Ok`).
#[test]
fn a_java_enums_constants_call_its_constructor() {
    let f = Fixture::new();
    f.write(
        "p/Op.java",
        "package p;\n\npublic enum Op {\n    ADD(\"+\"),\n    SUB(\"-\") {\n        @Override\n        int apply(int a, int b) { return a - b; }\n    },\n    NOP;\n\n    private final String sign;\n\n    Op(String sign) {\n        this.sign = sign;\n    }\n\n    Op() {\n        this(\"?\");\n    }\n\n    int apply(int a, int b) { return a + b; }\n}\n",
    );
    f.accepted("javac", &["-d", "classes", "p/Op.java"]);
    f.check(
        "a",
        r#"
        > Start s; Open p/Op.java
        Ok
        Ok, At 0:0, Length 22
        > Find Callers Op.Op(sign)
        Ok: Found 3 callers, with lines, Txt p/Op.java:3:4 in p.Op: ADD("+"),\np/Op.java:4:4 in p.Op: SUB("-") {\np/Op.java:17:8 in p.Op.Op: this("?");
        > Find Callers Op.Op#2
        Ok: Found 1 caller, with lines, Txt p/Op.java:8:4 in p.Op: NOP;
        > Modify Method Op.Op(sign) AddParam "int x"
        Ok, Modified method Op.Op(sign) (1 edit), At 12:4, calls not updated: 3 (p/Op.java:3, p/Op.java:4, p/Op.java:17)
        "#,
    );
}

/// A Java constructor's reference (`Base::new`) is a call of it: certain
/// for a class of one constructor, possible for one of several overloads.
#[test]
fn a_java_constructor_reference_calls_it() {
    let f = Fixture::new();
    f.write(
        "p/Base.java",
        "package p;\n\npublic class Base {\n    public Base(int n) {}\n\n    public Base() {}\n}\n",
    );
    f.write(
        "p/One.java",
        "package p;\n\npublic class One {\n    public One(String s) {}\n}\n",
    );
    f.write(
        "p/Refs.java",
        "package p;\n\nimport java.util.function.Function;\nimport java.util.function.IntFunction;\n\nclass Refs {\n    IntFunction<Base> base = Base::new;\n    Function<String, One> one = One::new;\n}\n",
    );
    f.accepted(
        "javac",
        &["-d", "classes", "p/Base.java", "p/One.java", "p/Refs.java"],
    );
    f.check(
        "a",
        r#"
        > Start s; Open p/Base.java
        Ok
        Ok, At 0:0, Length 7
        > Find Callers Base.Base(n)
        Ok: Found 0 callers and 1 possible, with lines, Txt possible:\np/Refs.java:6:29 in p.Refs: IntFunction<Base> base = Base::new;
        > Find Callers One.One
        Ok: Found 1 caller, with lines, Txt p/Refs.java:7:32 in p.Refs: Function<String, One> one = One::new;
        "#,
    );
}

/// A Java record's component is a member of its record: its field and
/// its accessor are one symbol (`Item.price`), defined in the record's
/// header and shown as the record's field; its uses are the bare name in
/// the record's body (a compact constructor's included), `this.price`,
/// the accessor's calls through a value proven an `Item` and the method
/// references `Item::price`; its callers the accessor's calls. A method
/// asked of its name is answered with the field's form; a member no type
/// has with the type's members.
#[test]
fn a_java_record_component_is_a_member_of_its_record() {
    let f = Fixture::new();
    f.write(
        "p/Item.java",
        "package p;\n\npublic record Item(String name, int price) {\n    public Item {\n        if (price < 0) throw new IllegalArgumentException();\n    }\n\n    int twice() { return 2 * this.price; }\n}\n",
    );
    f.write(
        "p/Use.java",
        "package p;\n\nimport java.util.List;\n\nclass Use {\n    int of(Item i) { return i.price(); }\n    int sum(List<Item> items) { return items.stream().mapToInt(Item::price).sum(); }\n}\n",
    );
    f.accepted("javac", &["-d", "classes", "p/Item.java", "p/Use.java"]);
    f.check(
        "a",
        r#"
        > Start s; Open p/Item.java
        Ok
        Ok, At 0:0, Length 9
        > Find Definition Item.price
        Ok: Found 1 definition, with lines, Txt p/Item.java:2:36 attribute p.Item.price: public record Item(String name, int price) {
        > Find References Item.price
        Ok: Found 4 references, with lines, Txt p/Item.java:4:12: if (price < 0) throw new IllegalArgumentException();\np/Item.java:7:34: int twice() { return 2 * this.price; }\np/Use.java:5:30: int of(Item i) { return i.price(); }\np/Use.java:6:69: int sum(List<Item> items) { return items.stream().mapToInt(Item::price).sum(); }
        > Find Callers Item.price
        Ok: Found 1 caller, with lines, Txt p/Use.java:5:30 in p.Use.of: int of(Item i) { return i.price(); }
        > Analyze Class Item Structure
        Ok: Record Item: field name at 2:26, field price at 2:36, constructor Item at 3:4, method twice at 7:4
        > Show Variable Item.price
        Ok: At 2:36, Txt int price
        > Show Method Item.price
        Fail "Not found: method 'Item.price'. Item.price is a field: Variable Item.price"
        > Find References Item.nothing
        Fail "Not found: symbol 'Item.nothing'. Available: Item.Item, Item.name, Item.price, Item.twice"
        > Find References Nope.nothing
        Fail "Not found: symbol 'Nope.nothing'. No JavaScript, TypeScript, Go, Rust or Java file of the project defines it"
        "#,
    );
}

/// Go: `Find References` of a method reads a package-level variable
/// without a type as of its value's type
/// (`super::rename_braces::go_package_variables`): its uses are certain,
/// in the package's other files and through the package's name. What
/// the scan does not type stays possible (`var M, err = Make()`, a
/// parameter of an interface type shadowing `E`), and a local of another
/// type shadowing `D` reads that type's method.
#[test]
fn go_package_variables_typed_by_their_values() {
    let f = Fixture::new();
    super::rename_braces::go_package_variables(&f);
    f.write(
        "enc/more.go",
        "package enc

type Other struct{}

func (Other) Decode() int { return 0 }

func Make() (*Encoding, error) { return NewEncoding(\"m\"), nil }

var M, err = Make()

func Local() string {
	D := Other{}
	_ = D.Decode()
	return M.Encode(\"m\")
}
",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References Encoding.Encode
        Ok: Found 3 references and 2 possible, with lines, Txt enc/use.go:5:10: return E.Encode("x")\nmain.go:11:19,36: fmt.Println(enc.E.Encode("a"), Top.Encode("b"), enc.Use())\npossible:\nenc/more.go:13:10: return M.Encode("m")\nenc/use.go:9:10: return E.Encode("z")
        > Find References Decoder.Decode
        Ok: Found 3 references, with lines, Txt enc/use.go:3:8,22,36: n := D.Decode() + DP.Decode() + DN.Decode()
        "#,
    );
    f.accepted("go", &["vet", "./..."]);
}
