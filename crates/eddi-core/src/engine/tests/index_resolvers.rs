//! The brace languages' resolvers beyond plain relative imports
//! (`analysis/index/tags`): TypeScript's `paths` and `baseUrl`, Java's
//! static imports, Rust's module files and `mod m { … }` blocks, and what
//! a file imports (`Analyze File Dependencies`), with the exact replies.

use super::*;

/// TypeScript's `paths` and `baseUrl` of the nearest `tsconfig.json`, with what it `extends` (a path without `.json`, comments, a trailing comma): an exact pattern, a `*` pattern tried target by target, `baseUrl` for what no pattern maps; a matched specifier no target of which exists, a package, and a file under another `tsconfig.json` without the mapping are possible; `Analyze File Dependencies` lists each source with the file it resolves to.
#[test]
fn typescript_paths_and_base_url_with_extends() {
    let f = Fixture::new();
    f.write(
        "tsconfig.base.json",
        r#"{
  // shared by the apps
  "compilerOptions": {
    "baseUrl": "./src",
    "paths": {
      "@lib/*": ["lib/*", "vendor/*"],
      "@config": ["config/index.ts"],
    }
  }
}"#,
    );
    f.write(
        "tsconfig.json",
        r#"{
  "extends": "./tsconfig.base",
  "compilerOptions": { "strict": true }
}"#,
    );
    f.write(
        "src/lib/math.ts",
        r#"export function add(a: number, b: number): number {
  return a + b;
}"#,
    );
    f.write(
        "src/vendor/pad.ts",
        r#"export function pad(s: string): string {
  return s;
}"#,
    );
    f.write("src/config/index.ts", r#"export const level = 1;"#);
    f.write(
        "src/shared/util.ts",
        r#"export function add(a: number, b: number): number {
  return a - b;
}"#,
    );
    f.write(
        "src/app/main.ts",
        r#"import { add } from '@lib/math';
import { pad } from '@lib/pad';
import { level } from '@config';
import { add as sub } from 'shared/util';
import { add as plus } from '@lib/missing';
import { add as ext } from 'lodash';

export const x = add(1, level) + sub(2, 3) + plus(4, 5) + ext(6, 7);
pad('a');"#,
    );
    f.write(
        "web/tsconfig.json",
        r#"{
  "compilerOptions": {
    "paths": { "~/*": ["./src/*"] }
  }
}"#,
    );
    f.write(
        "web/src/one.ts",
        r#"export function one(): number {
  return 1;
}"#,
    );
    f.write(
        "web/src/page.ts",
        r#"import { one } from '~/one';
import { add } from '@lib/math';

one();
add(1, 2);"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References src.lib.math.add
        Ok: Found 2 references and 6 possible, with lines, Txt src/app/main.ts:0:9: import { add } from '@lib/math';\nsrc/app/main.ts:7:17: export const x = add(1, level) + sub(2, 3) + plus(4, 5) + ext(6, 7);\npossible:\nsrc/app/main.ts:4:9: import { add as plus } from '@lib/missing';\nsrc/app/main.ts:5:9: import { add as ext } from 'lodash';\nsrc/app/main.ts:7:45,58: export const x = add(1, level) + sub(2, 3) + plus(4, 5) + ext(6, 7);\nweb/src/page.ts:1:9: import { add } from '@lib/math';\nweb/src/page.ts:4:0: add(1, 2);
        > Find References pad
        Ok: Found 2 references, with lines, Txt src/app/main.ts:1:9: import { pad } from '@lib/pad';\nsrc/app/main.ts:8:0: pad('a');
        > Find References level
        Ok: Found 2 references, with lines, Txt src/app/main.ts:2:9: import { level } from '@config';\nsrc/app/main.ts:7:24: export const x = add(1, level) + sub(2, 3) + plus(4, 5) + ext(6, 7);
        > Find References src.shared.util.add
        Ok: Found 2 references and 6 possible, with lines, Txt src/app/main.ts:3:9: import { add as sub } from 'shared/util';\nsrc/app/main.ts:7:33: export const x = add(1, level) + sub(2, 3) + plus(4, 5) + ext(6, 7);\npossible:\nsrc/app/main.ts:4:9: import { add as plus } from '@lib/missing';\nsrc/app/main.ts:5:9: import { add as ext } from 'lodash';\nsrc/app/main.ts:7:45,58: export const x = add(1, level) + sub(2, 3) + plus(4, 5) + ext(6, 7);\nweb/src/page.ts:1:9: import { add } from '@lib/math';\nweb/src/page.ts:4:0: add(1, 2);
        > Find References one
        Ok: Found 2 references, with lines, Txt web/src/page.ts:0:9: import { one } from '~/one';\nweb/src/page.ts:3:0: one();
        > Open src/app/main.ts
        Ok, At 0:0, Length 9
        > Analyze File Dependencies
        Ok: The file imports from 6 sources; of the project: @lib/math (src/lib/math.ts), @lib/pad (src/vendor/pad.ts), @config (src/config/index.ts), shared/util (src/shared/util.ts); from outside or not found: @lib/missing, lodash, imported by no module of the project (src.app.main)
        > Open web/src/page.ts
        Ok, At 0:0, Length 5
        > Analyze File Dependencies
        Ok: The file imports from 2 sources; of the project: ~/one (web/src/one.ts); from outside or not found: @lib/math, imported by no module of the project (web.src.page)
        "#,
    );
}

/// A JavaScript project's `jsconfig.json` maps specifiers as `tsconfig.json` does (`@/*` to `src/*`, `baseUrl`); in a directory with both, `tsconfig.json` wins.
#[test]
fn javascript_paths_of_jsconfig() {
    let f = Fixture::new();
    f.write(
        "jsconfig.json",
        r#"{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }"#,
    );
    f.write(
        "src/util.js",
        r#"export function slug(s) {
  return s.toLowerCase();
}"#,
    );
    f.write(
        "src/page.js",
        r#"import { slug } from '@/util';
import { slug as again } from 'src/util';

export const a = slug('A') + again('B');"#,
    );
    f.write(
        "admin/tsconfig.json",
        r#"{ "compilerOptions": { "paths": { "~/*": ["./lib/*"] } } }"#,
    );
    f.write(
        "admin/jsconfig.json",
        r#"{ "compilerOptions": { "paths": { "@/*": ["./lib/*"] } } }"#,
    );
    f.write(
        "admin/lib/util.js",
        r#"export function slug(s) {
  return s;
}"#,
    );
    f.write(
        "admin/main.js",
        r#"import { slug } from '@/util';
import { slug as own } from '~/util';

own(slug('x'));"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References src.util.slug
        Ok: Found 4 references and 2 possible, with lines, Txt src/page.js:0:9: import { slug } from '@/util';\nsrc/page.js:1:9: import { slug as again } from 'src/util';\nsrc/page.js:3:17,29: export const a = slug('A') + again('B');\npossible:\nadmin/main.js:0:9: import { slug } from '@/util';\nadmin/main.js:3:4: own(slug('x'));
        > Find References admin.lib.util.slug
        Ok: Found 2 references and 2 possible, with lines, Txt admin/main.js:1:9: import { slug as own } from '~/util';\nadmin/main.js:3:0: own(slug('x'));\npossible:\nadmin/main.js:0:9: import { slug } from '@/util';\nadmin/main.js:3:4: own(slug('x'));
        "#,
    );
}

/// Java's static imports: `import static a.B.m;` and `a.B.*` make a bare `m()` outside `B` certain, the import's name too; another class's static import, or a member of the class around the use, makes it another's; a class that extends another (an inherited `m` would win) or no import at all leaves it possible.
#[test]
fn java_static_imports() {
    let f = Fixture::new();
    f.write(
        "src/com/shop/Prices.java",
        r#"package com.shop;

public class Prices {
    public static final int MAX = 10;

    public static int round(int n) {
        return n;
    }

    int own() {
        return round(1);
    }
}"#,
    );
    f.write(
        "src/com/shop/Taxes.java",
        r#"package com.shop;

public class Taxes {
    public static int round(int n) {
        return n + 1;
    }
}"#,
    );
    f.write(
        "src/com/web/One.java",
        r#"package com.web;

import static com.shop.Prices.round;
import static com.shop.Prices.MAX;

public class One {
    int f() {
        return round(MAX);
    }
}"#,
    );
    f.write(
        "src/com/web/All.java",
        r#"package com.web;

import static com.shop.Prices.*;

public class All {
    int g() {
        return round(2);
    }
}"#,
    );
    f.write(
        "src/com/web/Other.java",
        r#"package com.web;

import static com.shop.Taxes.round;

public class Other {
    int h() {
        return round(3);
    }
}"#,
    );
    f.write(
        "src/com/web/Hidden.java",
        r#"package com.web;

import static com.shop.Prices.round;

public class Hidden extends Base {
    int k() {
        return round(4);
    }
}"#,
    );
    f.write(
        "src/com/web/Mine.java",
        r#"package com.web;

import static com.shop.Prices.round;

public class Mine {
    int round(int n) {
        return n;
    }

    int m() {
        return round(5);
    }
}"#,
    );
    f.write(
        "src/com/web/Plain.java",
        r#"package com.web;

public class Plain {
    int p() {
        return round(6);
    }
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References Prices.round
        Ok: Found 6 references and 2 possible, with lines, Txt src/com/shop/Prices.java:10:15: return round(1);\nsrc/com/web/All.java:6:15: return round(2);\nsrc/com/web/Hidden.java:2:30: import static com.shop.Prices.round;\nsrc/com/web/Mine.java:2:30: import static com.shop.Prices.round;\nsrc/com/web/One.java:2:30: import static com.shop.Prices.round;\nsrc/com/web/One.java:7:15: return round(MAX);\npossible:\nsrc/com/web/Hidden.java:6:15: return round(4);\nsrc/com/web/Plain.java:4:15: return round(6);
        > Find Callers Prices.round
        Ok: Found 3 callers and 2 possible, with lines, Txt src/com/shop/Prices.java:10:15 in com.shop.Prices.own: return round(1);\nsrc/com/web/All.java:6:15 in com.web.All.g: return round(2);\nsrc/com/web/One.java:7:15 in com.web.One.f: return round(MAX);\npossible:\nsrc/com/web/Hidden.java:6:15 in com.web.Hidden.k: return round(4);\nsrc/com/web/Plain.java:4:15 in com.web.Plain.p: return round(6);
        > Find References Prices.MAX
        Ok: Found 2 references, with lines, Txt src/com/web/One.java:3:30: import static com.shop.Prices.MAX;\nsrc/com/web/One.java:7:21: return round(MAX);
        > Find References Taxes.round
        Ok: Found 2 references and 3 possible, with lines, Txt src/com/web/Other.java:2:29: import static com.shop.Taxes.round;\nsrc/com/web/Other.java:6:15: return round(3);\npossible:\nsrc/com/web/All.java:6:15: return round(2);\nsrc/com/web/Hidden.java:6:15: return round(4);\nsrc/com/web/Plain.java:4:15: return round(6);
        "#,
    );
}

/// Rust's module files (`net.rs` with `net/http.rs`, `tax/mod.rs` with `tax/rules.rs`) and `mod m { … }` blocks (nested too): paths through them (`crate::`, `super::super::`, `self::`, `use`) are certain, and so is a block's own item used bare inside it.
#[test]
fn rust_module_files_and_mod_blocks() {
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
        r#"pub mod net;
mod tax;

pub mod util {
    pub fn sum(xs: &[u32]) -> u32 {
        xs.iter().sum()
    }

    pub fn twice(x: u32) -> u32 {
        sum(&[x, x])
    }

    pub mod deep {
        pub fn g() -> u32 {
            1
        }
    }
}

use crate::util::deep::g;

pub fn total(xs: &[u32]) -> u32 {
    util::sum(xs) + g() + util::deep::g()
}"#,
    );
    f.write(
        "src/net.rs",
        r#"pub mod http;

use crate::util::sum;

pub fn send() -> u32 {
    sum(&[1]) + http::get() + crate::util::sum(&[2])
}"#,
    );
    f.write(
        "src/net/http.rs",
        r#"pub fn get() -> u32 {
    super::super::tax::rate()
}"#,
    );
    f.write(
        "src/tax/mod.rs",
        r#"mod rules;

pub fn rate() -> u32 {
    rules::base()
}"#,
    );
    f.write(
        "src/tax/rules.rs",
        r#"pub fn base() -> u32 {
    self::helper()
}

fn helper() -> u32 {
    crate::net::http::get()
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References util.sum
        Ok: Found 5 references, with lines, Txt src/lib.rs:9:8: sum(&[x, x])\nsrc/lib.rs:22:10: util::sum(xs) + g() + util::deep::g()\nsrc/net.rs:2:17: use crate::util::sum;\nsrc/net.rs:5:4,43: sum(&[1]) + http::get() + crate::util::sum(&[2])
        > Find References g
        Ok: Found 3 references, with lines, Txt src/lib.rs:19:23: use crate::util::deep::g;\nsrc/lib.rs:22:20,38: util::sum(xs) + g() + util::deep::g()
        > Find References get
        Ok: Found 2 references, with lines, Txt src/net.rs:5:22: sum(&[1]) + http::get() + crate::util::sum(&[2])\nsrc/tax/rules.rs:5:22: crate::net::http::get()
        > Find References rate
        Ok: Found 1 reference, with lines, Txt src/net/http.rs:1:23: super::super::tax::rate()
        > Find References base
        Ok: Found 1 reference, with lines, Txt src/tax/mod.rs:3:11: rules::base()
        > Find References helper
        Ok: Found 1 reference, with lines, Txt src/tax/rules.rs:1:10: self::helper()
        "#,
    );
}

/// An integration test names its package's library (`shop::util`), also in a macro's arguments (`assert_eq!(util::sum(…))`, tokens to tree-sitter). Inside a `mod m { … }` block a name is the block's own item or what the block's own `use` declarations bind (and in a function's block, what a `use` there binds): `use super::*` (the file's items, and what the file's own `use` binds), `use super::f`, `use crate::…`, a nested block's `super::super::`; paths from the block (`super::f()`, `self::g()`) are read from it; a name the block neither declares nor imports is not the file's.
#[test]
fn rust_uses_inside_mod_blocks() {
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
        r#"pub mod util;

use crate::util::sum;

pub fn total(xs: &[u32]) -> u32 {
    sum(xs)
}

pub fn price() -> u32 {
    1
}

mod report {
    pub fn price() -> u32 {
        2
    }

    pub fn show() -> u32 {
        price() + super::price()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals() {
        assert_eq!(total(&[1]), sum(&[1]));
        assert_eq!(price(), super::price());
    }

    mod inner {
        use super::super::price as cost;
        use crate::util::sum;

        fn both() -> u32 {
            cost() + sum(&[2]) + self::local()
        }

        fn local() -> u32 {
            0
        }
    }
}

pub fn scoped() -> u32 {
    use crate::util as u;
    use crate::util::sum;

    sum(&[4]) + u::sum(&[5])
}

pub fn elsewhere() -> u32 {
    sum(&[6])
}"#,
    );
    f.write(
        "tests/api.rs",
        r#"use shop::util;

#[test]
fn sums() {
    assert_eq!(util::sum(&[1]), 1);
    assert_eq!(shop::util::sum(&[2]), 2);
}"#,
    );
    f.write(
        "src/util.rs",
        r#"pub fn sum(xs: &[u32]) -> u32 {
    xs.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::sum;

    #[test]
    fn adds() {
        assert_eq!(sum(&[1, 2]), 3);
    }
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find References util.sum
        Ok: Found 13 references, with lines, Txt src/lib.rs:2:17: use crate::util::sum;\nsrc/lib.rs:5:4: sum(xs)\nsrc/lib.rs:28:32: assert_eq!(total(&[1]), sum(&[1]));\nsrc/lib.rs:34:25: use crate::util::sum;\nsrc/lib.rs:37:21: cost() + sum(&[2]) + self::local()\nsrc/lib.rs:48:21: use crate::util::sum;\nsrc/lib.rs:50:4,19: sum(&[4]) + u::sum(&[5])\nsrc/lib.rs:54:4: sum(&[6])\nsrc/util.rs:6:15: use super::sum;\nsrc/util.rs:10:19: assert_eq!(sum(&[1, 2]), 3);\ntests/api.rs:4:21: assert_eq!(util::sum(&[1]), 1);\ntests/api.rs:5:27: assert_eq!(shop::util::sum(&[2]), 2);
        > Find References price
        Ok: Found 5 references, with lines, Txt src/lib.rs:18:25: price() + super::price()\nsrc/lib.rs:29:19,35: assert_eq!(price(), super::price());\nsrc/lib.rs:33:26: use super::super::price as cost;\nsrc/lib.rs:37:12: cost() + sum(&[2]) + self::local()
        > Find References local
        Ok: Found 1 reference, with lines, Txt src/lib.rs:37:39: cost() + sum(&[2]) + self::local()
        > Find References report.price
        Ok: Found 1 reference, with lines, Txt src/lib.rs:18:8: price() + super::price()
        "#,
    );
}

/// `Analyze File Dependencies` of Go, Rust and Java files: each source (two imports of one Go package are one), the project files it resolves to (a `mod m { … }` block's is its file), and the sources from outside or not found.
#[test]
fn analyze_file_dependencies_of_go_rust_and_java() {
    let f = Fixture::new();
    f.write(
        "go.mod",
        r#"module example.com/shop

go 1.21"#,
    );
    f.write(
        "cart/cart.go",
        r#"package cart

import (
	"fmt"
	"example.com/shop/money"
	m "example.com/shop/money"
	"example.com/other/lib"
)

func Total() string {
	return fmt.Sprint(money.Cents(1), m.Cents(2), lib.X)
}"#,
    );
    f.write(
        "money/money.go",
        r#"package money

func Cents(n int) int {
	return n
}"#,
    );
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
mod util {
    pub fn sum() {}
}

use std::collections::HashMap;
use crate::cart::{Cart, add as plus};
use self::util::sum;"#,
    );
    f.write(
        "src/cart.rs",
        r#"pub struct Cart;
pub fn add() {}"#,
    );
    f.write(
        "java/com/shop/Cart.java",
        r#"package com.shop;

import java.util.List;
import com.shop.util.Money;
import static com.shop.util.Money.cents;
import com.missing.*;

public class Cart {}"#,
    );
    f.write(
        "java/com/shop/util/Money.java",
        r#"package com.shop.util;

public class Money {
    public static int cents(int n) { return n; }
}"#,
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open cart/cart.go
        Ok, At 0:0, Length 12
        > Analyze File Dependencies
        Ok: The file imports from 3 sources; of the project: example.com/shop/money (money/money.go); from outside or not found: fmt, example.com/other/lib, imported by no module of the project (cart)
        > Open src/lib.rs
        Ok, At 0:0, Length 8
        > Analyze File Dependencies
        Ok: The file imports from 4 sources; of the project: crate::cart::Cart (src/cart.rs), crate::cart::add (src/cart.rs), self::util::sum (src/lib.rs); from outside or not found: std::collections::HashMap, imported by no module of the project ()
        > Open java/com/shop/Cart.java
        Ok, At 0:0, Length 8
        > Analyze File Dependencies
        Ok: The file imports from 4 sources; of the project: com.shop.util (java/com/shop/util/Money.java), com.shop.util.Money (java/com/shop/util/Money.java); from outside or not found: java.util, com.missing, imported by no module of the project (com.shop)
        > Open money/money.go
        Ok, At 0:0, Length 5
        > Analyze File Dependencies
        Ok: The file imports from 0 sources, imported by cart
        "#,
    );
}

/// The data of `Analyze File Dependencies` in JSON follows the reply
/// schema: each source with its kind, names, files and module.
#[test]
fn module_imports_in_json_follow_the_schema() {
    let f = Fixture::new();
    f.write(
        "web/util.js",
        "export function add(a, b) {\n  return a + b;\n}\n",
    );
    f.write(
        "web/app.ts",
        "import { add } from './util';\nimport React, { useState } from 'react';\nexport * from './util';\nconst u = require('./util');\nadd(1, 2);\n",
    );
    f.send("u", "Start s; Set Format json; Open web/app.ts");
    let validator = super::spine::reply_schema();
    let reply = super::spine::json_reply(&f, &validator, "Analyze File Dependencies");
    assert_eq!(
        reply["module_imports"],
        serde_json::json!({"module": "web.app", "imports": [
            {"source": "./util", "kind": "import", "names": ["add"],
             "files": ["web/util.js"], "module": "web.util"},
            {"source": "react", "kind": "import", "names": ["React", "useState"], "files": []},
            {"source": "./util", "kind": "re-export", "names": ["*"],
             "files": ["web/util.js"], "module": "web.util"},
            {"source": "./util", "kind": "require", "names": ["u"],
             "files": ["web/util.js"], "module": "web.util"},
        ]}),
        "{reply}"
    );
}
