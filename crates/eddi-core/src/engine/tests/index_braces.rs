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
        Ok: Found 7 references and 2 possible, with lines, Txt web/app.ts:0:16: import twice, { add } from './util';\nweb/app.ts:2:9: import { plus } from './index';\nweb/app.ts:9:17: this.total = add(this.total, n);\nweb/app.ts:16:11,18: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);\nweb/index.js:0:9: export { add as plus } from './util.js';\nweb/util.js:5:9: return add(x, x);\npossible:\nweb/app.ts:3:9: import { add as other } from 'left-pad';\nweb/app.ts:16:43: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
        > Find Callers add
        Ok: Found 4 callers and 1 possible, with lines, Txt web/app.ts:9:17 in web.app.Calc.push: this.total = add(this.total, n);\nweb/app.ts:16:11,18 in web.app.run: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);\nweb/util.js:5:9 in web.util.twice: return add(x, x);\npossible:\nweb/app.ts:16:43 in web.app.run: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
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
        Ok: Found 7 references and 2 possible, with lines, Txt web/app.ts:0:16: import twice, { add } from './util';\nweb/app.ts:2:9: import { plus } from './index';\nweb/app.ts:9:17: this.total = add(this.total, n);\nweb/app.ts:16:11,18: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);\nweb/index.js:0:9: export { add as plus } from './util.js';\nweb/util.js:5:9: return add(x, x);\npossible:\nweb/app.ts:3:9: import { add as other } from 'left-pad';\nweb/app.ts:16:43: return u.add(1, plus(2, twice(3))) + lib.add(1, 2) + other(1);
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
