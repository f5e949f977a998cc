//! Eddi's Python scope resolution against CPython's `symtable` on small
//! tricky snippets: for every scope, which names are parameters, declared
//! global, nonlocal, imported, local, free or implicit (module/builtin).
//! The expected tables are `symtable`'s own output (CPython 3.11, printed
//! by the same rules as `scripts/symtable_dump.py`); when `python3` is
//! installed, `tables_are_cpythons` checks them against it again. The same
//! comparison over whole packages is `scripts/symtable-compare`.

use eddi::analysis::{scope, symtable, SyntaxTree};
use ropey::Rope;

struct Case {
    name: &'static str,
    source: &'static str,
    /// `scope name`, `symbol`, `category`; scopes labelled `name@line`,
    /// `<module>`, `<lambda>@line`, `<comprehension>@line`.
    symtable: &'static [&'static str],
}

/// Eddi's view in the labels of [`Case::symtable`], sorted.
fn eddi_view(source: &str) -> Vec<String> {
    let text = Rope::from_str(source);
    let tree = SyntaxTree::parse(&text).unwrap();
    let scopes = scope::analyze(&text, &tree);
    let mut out: Vec<String> = symtable::dump(&scopes, |c| text.char_to_line(c))
        .iter()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let label = match f[0] {
                "module" => "<module>".to_string(),
                "lambda" | "comprehension" => format!("<{}>@{}", f[0], f[2]),
                _ => format!("{}@{}", f[1], f[2]),
            };
            format!("{label} {} {}", f[4], f[5])
        })
        .collect();
    out.sort();
    out
}

#[test]
fn resolver_agrees_with_symtable() {
    let mut failures = Vec::new();
    for case in CASES {
        let got = eddi_view(case.source);
        let want: Vec<String> = case.symtable.iter().map(|s| s.to_string()).collect();
        if got != want {
            let missing: Vec<&String> = want.iter().filter(|w| !got.contains(w)).collect();
            let extra: Vec<&String> = got.iter().filter(|g| !want.contains(g)).collect();
            failures.push(format!(
                "{}:\n  symtable only: {missing:?}\n  eddi only:     {extra:?}",
                case.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The symtable view `scripts/symtable_dump.py` prints, in this file's labels.
const DUMP: &str = r#"
import symtable, sys
COMP = {"listcomp", "setcomp", "dictcomp", "genexpr"}
def category(s):
    if s.is_parameter(): return "param"
    if s.is_declared_global(): return "global"
    if s.is_nonlocal(): return "nonlocal"
    if s.is_imported(): return "import"
    if s.is_local(): return "local"
    if s.is_free(): return "free"
    return "implicit"
def label(t):
    if t.get_type() == "module": return "<module>"
    n = t.get_name()
    n = "<comprehension>" if n in COMP else "<lambda>" if n == "lambda" else n
    return f"{n}@{t.get_lineno()}"
def walk(t):
    for s in t.get_symbols():
        if not (s.get_name().startswith(".") or s.get_name() == "__class__"):
            print(label(t), s.get_name(), category(s))
    for c in t.get_children(): walk(c)
walk(symtable.symtable(sys.stdin.read(), "case", "exec"))
"#;

#[test]
fn tables_are_cpythons() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    for case in CASES {
        let child = Command::new("python3")
            .args(["-c", DUMP])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn();
        let Ok(mut child) = child else {
            eprintln!("python3 not found: the tables are not re-checked");
            return;
        };
        child
            .stdin
            .take()
            .unwrap()
            .write_all(case.source.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}: python3 failed", case.name);
        let mut lines: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        lines.sort();
        assert_eq!(lines, case.symtable, "{}", case.name);
    }
}

const CASES: &[Case] = &[
    Case {
        name: "global_and_nonlocal",
        source: r#"count = 0
def inc():
    global count
    count += 1
def outer():
    x = 1
    def inner():
        nonlocal x
        x += 1
    return inner
"#,
        symtable: &[
            "<module> count global",
            "<module> inc local",
            "<module> outer local",
            "inc@2 count global",
            "inner@7 x nonlocal",
            "outer@5 inner local",
            "outer@5 x local",
        ],
    },
    Case {
        name: "global_only_in_function",
        source: r#"def setup():
    global CONFIG
    CONFIG = {}
def use():
    return CONFIG
"#,
        symtable: &[
            "<module> CONFIG global",
            "<module> setup local",
            "<module> use local",
            "setup@1 CONFIG global",
            "use@4 CONFIG implicit",
        ],
    },
    Case {
        name: "class_scope_does_not_enclose_methods",
        source: r#"x = 1
class C:
    x = 2
    y = x
    def m(self):
        return x
    z = [x for _ in range(3)]
    w = [_ for _ in x]
"#,
        symtable: &[
            "<comprehension>@7 _ local",
            "<comprehension>@7 x implicit",
            "<comprehension>@8 _ local",
            "<module> C local",
            "<module> x local",
            "C@2 m local",
            "C@2 range implicit",
            "C@2 w local",
            "C@2 x local",
            "C@2 y local",
            "C@2 z local",
            "m@5 self param",
            "m@5 x implicit",
        ],
    },
    Case {
        name: "class_in_function_is_skipped_by_methods",
        source: r#"def f():
    v = 1
    class C:
        v = 2
        def m(self):
            return v
    return C
"#,
        symtable: &[
            "<module> f local",
            "C@3 m local",
            "C@3 v local",
            "f@1 C local",
            "f@1 v local",
            "m@5 self param",
            "m@5 v free",
        ],
    },
    Case {
        name: "free_names_pass_through_scopes",
        source: r#"def a():
    x = 1
    def b():
        def c():
            return x
        return c
    return b
"#,
        symtable: &[
            "<module> a local",
            "a@1 b local",
            "a@1 x local",
            "b@3 c local",
            "b@3 x free",
            "c@4 x free",
        ],
    },
    Case {
        name: "comprehension_scopes",
        source: r#"def f(rows):
    return [c for r in rows for c in r if c]
g = {k: v for k, v in {}.items()}
s = {a for a in range(3)}
gen = (b for b in s)
nested = [[y for y in row] for row in g]
"#,
        symtable: &[
            "<comprehension>@2 c local",
            "<comprehension>@2 r local",
            "<comprehension>@3 k local",
            "<comprehension>@3 v local",
            "<comprehension>@4 a local",
            "<comprehension>@5 b local",
            "<comprehension>@6 row local",
            "<comprehension>@6 y local",
            "<module> f local",
            "<module> g local",
            "<module> gen local",
            "<module> nested local",
            "<module> range implicit",
            "<module> s local",
            "f@1 rows param",
        ],
    },
    Case {
        name: "walrus_in_comprehension_binds_in_function",
        source: r#"def f(xs):
    if any((hit := x) > 1 for x in xs):
        return hit
    return [[(deep := z) for z in x] for x in xs], deep
total = [(last := n) for n in range(3)]
"#,
        symtable: &[
            "<comprehension>@2 hit nonlocal",
            "<comprehension>@2 x local",
            "<comprehension>@4 deep free",
            "<comprehension>@4 deep nonlocal",
            "<comprehension>@4 x local",
            "<comprehension>@4 z local",
            "<comprehension>@5 last global",
            "<comprehension>@5 n local",
            "<module> f local",
            "<module> last global",
            "<module> range implicit",
            "<module> total local",
            "f@1 any implicit",
            "f@1 deep local",
            "f@1 hit local",
            "f@1 xs param",
        ],
    },
    Case {
        name: "match_capture_patterns",
        source: r#"def f(v):
    match v:
        case Point(x=px, y=0) | Point(x=px, y=1):
            return px
        case [first, *rest]:
            return first, rest
        case {"k": kk, **others}:
            return kk, others
        case Color.RED:
            pass
        case str() as s:
            return s
        case (a, b) if a > b:
            return a
        case _:
            pass
"#,
        symtable: &[
            "<module> f local",
            "f@1 Color implicit",
            "f@1 Point implicit",
            "f@1 a local",
            "f@1 b local",
            "f@1 first local",
            "f@1 kk local",
            "f@1 others local",
            "f@1 px local",
            "f@1 rest local",
            "f@1 s local",
            "f@1 str implicit",
            "f@1 v param",
        ],
    },
    Case {
        name: "except_with_for_del",
        source: r#"def f():
    try:
        pass
    except ValueError as e:
        del e
    with open("x") as (a, b), open("y") as c:
        pass
    for i, (j, *k) in []:
        pass
    del i, j
"#,
        symtable: &[
            "<module> f local",
            "f@1 ValueError implicit",
            "f@1 a local",
            "f@1 b local",
            "f@1 c local",
            "f@1 e local",
            "f@1 i local",
            "f@1 j local",
            "f@1 k local",
            "f@1 open implicit",
        ],
    },
    Case {
        name: "imports_and_star_import",
        source: r#"from os import *
import a.b.c
import d.e as f
from .g import h as i, j
def k():
    import l
    from m import n as o
    return path, l, o
"#,
        symtable: &[
            "<module> a import",
            "<module> f import",
            "<module> i import",
            "<module> j import",
            "<module> k local",
            "k@5 l import",
            "k@5 o import",
            "k@5 path implicit",
        ],
    },
    Case {
        name: "decorators_defaults_annotations_in_enclosing_scope",
        source: r#"def deco(f): return f
def outer(d):
    @deco
    @d
    def inner(a=d, *args, b: d = d, **kw) -> d:
        return a, args, kw
    class K(d, metaclass=d):
        pass
    return lambda q=d: q
"#,
        symtable: &[
            "<lambda>@9 q param",
            "<module> deco local",
            "<module> outer local",
            "deco@1 f param",
            "inner@5 a param",
            "inner@5 args param",
            "inner@5 b param",
            "inner@5 kw param",
            "outer@2 K local",
            "outer@2 d param",
            "outer@2 deco implicit",
            "outer@2 inner local",
        ],
    },
    Case {
        name: "future_annotations_are_not_evaluated",
        source: r#"from __future__ import annotations
def f(x: Foo) -> Bar:
    y: Baz = 1
    return y
class C:
    attr: Qux
"#,
        symtable: &[
            "<module> C local",
            "<module> annotations import",
            "<module> f local",
            "C@5 attr local",
            "f@2 x param",
            "f@2 y local",
        ],
    },
    Case {
        name: "private_names_are_mangled",
        source: r#"class _Priv:
    __slots = ()
    def m(self, __a):
        __b = __a
        return self.__c, __dunder__
def top(__p):
    return __p
"#,
        symtable: &[
            "<module> _Priv local",
            "<module> top local",
            "_Priv@1 _Priv__slots local",
            "_Priv@1 m local",
            "m@3 _Priv__a param",
            "m@3 _Priv__b local",
            "m@3 __dunder__ implicit",
            "m@3 self param",
            "top@6 __p param",
        ],
    },
    Case {
        name: "fstrings_keywords_attributes",
        source: r#"def f(x, y):
    print(f"{x!r:>{y}}", sep=x.attr)
    return dict(key=y)
"#,
        symtable: &[
            "<module> f local",
            "f@1 dict implicit",
            "f@1 print implicit",
            "f@1 x param",
            "f@1 y param",
        ],
    },
    Case {
        name: "async_and_lambdas",
        source: r#"async def f(items):
    async for it in items:
        await it
    async with items as cm:
        pass
    return [await j async for j in items], (lambda a, *b, c=it: a + c)
"#,
        symtable: &[
            "<comprehension>@6 j local",
            "<lambda>@6 a param",
            "<lambda>@6 b param",
            "<lambda>@6 c param",
            "<module> f local",
            "f@1 cm local",
            "f@1 it local",
            "f@1 items param",
        ],
    },
    Case {
        name: "augmented_and_annotated_assignment",
        source: r#"counter = 0
def f():
    counter += 1
def g():
    x: int
    y: int = 2
    return x
class C:
    n: int = 0
    n += 1
"#,
        symtable: &[
            "<module> C local",
            "<module> counter local",
            "<module> f local",
            "<module> g local",
            "C@8 int implicit",
            "C@8 n local",
            "f@2 counter local",
            "g@4 int implicit",
            "g@4 x local",
            "g@4 y local",
        ],
    },
    Case {
        name: "try_star_and_module_global",
        source: r#"global g
g = 1
try:
    pass
except* OSError as eg:
    pass
"#,
        symtable: &[
            "<module> OSError implicit",
            "<module> eg local",
            "<module> g global",
        ],
    },
];
