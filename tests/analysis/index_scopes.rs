//! Python scoping, one small module per case: which uses of a module- or
//! class-level symbol the index counts (`line:col`, zero-based, in `m.py`).

use eddi::analysis::index::ProjectIndex;
use ropey::Rope;

/// (what the case shows, source of `m.py`, symbol, "certain; possible: …").
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "class bodies are invisible from their methods",
        "x = 1\nclass C:\n    x = 2\n    def m(self):\n        return x\n",
        "m.x",
        "4:15; possible: ",
    ),
    (
        "…so the class attribute has no use",
        "x = 1\nclass C:\n    x = 2\n    def m(self):\n        return x\n",
        "C.x",
        "; possible: ",
    ),
    (
        "comprehension variables do not leak",
        "n = 0\ndef f(items):\n    a = [n for n in items]\n    return n\n",
        "m.n",
        "3:11; possible: ",
    ),
    (
        "a name assigned anywhere in a function is local to all of it",
        "v = 1\ndef f():\n    print(v)\n    v = 2\n",
        "m.v",
        "; possible: ",
    ),
    (
        "global sends the name to the module",
        "v = 1\ndef f():\n    global v\n    v = 2\n    return v\n",
        "m.v",
        "2:11, 4:11; possible: ",
    ),
    (
        "nonlocal binds in the enclosing function, not the module",
        "def outer():\n    def inner():\n        nonlocal count\n        count = 1\n    count = 0\n    return inner\ncount = 5\ndef g(): return count\n",
        "m.count",
        "7:16; possible: ",
    ),
    (
        "a parameter shadows a global",
        "def helper(): pass\ndef f(helper):\n    return helper()\ndef g():\n    return helper()\n",
        "m.helper",
        "4:11; possible: ",
    ),
    (
        "defaults are evaluated in the enclosing (class) scope",
        "D = 1\nclass C:\n    D = 2\n    def m(self, d=D):\n        return d\n",
        "C.D",
        "3:18; possible: ",
    ),
    (
        "a walrus in a comprehension binds in the function",
        "total = 0\ndef f(xs):\n    [total := total + x for x in xs]\n    return total\n",
        "m.total",
        "; possible: ",
    ),
    (
        "lambda parameters shadow, lambda bodies see globals",
        "k = 1\nf = lambda k: k\ng = lambda: k\n",
        "m.k",
        "2:12; possible: ",
    ),
    (
        "conditional bindings: a fallback definition is used",
        "try:\n    from json import loads\nexcept ImportError:\n    def loads(s): return s\nloads('x')\n",
        "m.loads",
        "4:0; possible: ",
    ),
    (
        "class attributes through the class and self; untyped receivers are possible",
        "class C:\n    n = 0\n    def m(self):\n        C.n += 1\n        return self.n, type(self).n\n",
        "C.n",
        "3:10, 4:20; possible: 4:34",
    ),
    (
        "cls in a classmethod, not self in a staticmethod",
        "class C:\n    def a(self): pass\n    @classmethod\n    def b(cls): return cls.a\n    @staticmethod\n    def c(x): return x.a\n",
        "C.a",
        "3:27; possible: 5:23",
    ),
    (
        "a local bound twice is untyped",
        "class C:\n    def a(self): pass\ndef f(flag):\n    o = C()\n    o.a()\n    p = C()\n    if flag:\n        p = None\n    p.a()\n",
        "C.a",
        "4:6; possible: 8:6",
    ),
    (
        "a nested class is reached through its outer class",
        "class Outer:\n    class Inner:\n        def go(self): pass\nOuter.Inner().go()\nOuter.Inner.go\n",
        "Outer.Inner.go",
        "3:14, 4:12; possible: ",
    ),
    (
        "f-strings, decorators with arguments and keyword argument names",
        "def deco(n): return lambda f: f\nname = 'x'\n@deco(n=name)\ndef g(name=None):\n    return f'{name}'\nprint(f'{name!r}', name=1)\n",
        "m.name",
        "2:8, 5:9; possible: ",
    ),
    (
        "super() is the bases of the method's class",
        "class A:\n    def m(self): pass\nclass B(A):\n    def m(self):\n        return super().m()\n",
        "A.m",
        "4:23; possible: ",
    ),
    (
        "…and never dispatches to the override itself",
        "class A:\n    def m(self): pass\nclass B(A):\n    def m(self):\n        return super().m()\n",
        "B.m",
        "; possible: ",
    ),
    (
        "super(C, self) is the bases of C, which may skip the method's own parent",
        "class A:\n    def m(self): pass\nclass B(A):\n    def m(self): pass\nclass C(B):\n    def m(self):\n        return super(B, self).m()\n",
        "A.m",
        "6:30; possible: ",
    ),
    (
        "…so it is not the parent's method",
        "class A:\n    def m(self): pass\nclass B(A):\n    def m(self): pass\nclass C(B):\n    def m(self):\n        return super(B, self).m()\n",
        "B.m",
        "; possible: ",
    ),
    (
        "super(C, obj) outside any class, a comment among its arguments",
        "class A:\n    def m(self): pass\nclass B(A): pass\ndef f(obj):\n    return super(B,  # skip B\n                 obj).m()\nsuper(B, B()).m\n",
        "A.m",
        "5:22, 6:14; possible: ",
    ),
    (
        "a variable with one definition stands for its value",
        "class Library:\n    def filter(self): pass\nregister = Library()\nAlias = Library\n@register.filter\ndef f(): pass\nAlias().filter()\n",
        "Library.filter",
        "4:10, 6:8; possible: ",
    ),
    (
        "…while its own uses stay references to the variable",
        "class Library:\n    def filter(self): pass\nregister = Library()\nAlias = Library\n@register.filter\ndef f(): pass\nAlias().filter()\n",
        "m.Library",
        "2:11, 3:8; possible: ",
    ),
    (
        "a variable defined through itself ends (depth limit), no loop",
        "x = x.y\nx.z()\n",
        "m.x",
        "0:4, 1:0; possible: ",
    ),
    (
        "match: a class pattern reads its class",
        "class Point:\n    pass\ndef f(v):\n    match v:\n        case Point(x=0) | [Point()]:\n            return 1\n",
        "m.Point",
        "4:13, 4:27; possible: ",
    ),
    (
        "match: a dotted value pattern reads the attribute",
        "class Color:\n    RED = 1\ndef f(v):\n    match v:\n        case Color.RED:\n            pass\n",
        "m.Color.RED",
        "4:19; possible: ",
    ),
    (
        "match: a capture binds in the function, shadowing the module's name",
        "x = 1\ndef f(v):\n    match v:\n        case [x, *rest] if rest:\n            return x\n    return x\ndef g():\n    return x\n",
        "m.x",
        "7:11; possible: ",
    ),
    (
        "match: `as` captures too",
        "y = 1\ndef f(v):\n    match v:\n        case str() as y:\n            return y\n",
        "m.y",
        "; possible: ",
    ),
    (
        "`except … as e` binds e in the function",
        "e = 1\ndef f():\n    try:\n        pass\n    except ValueError as e:\n        return e\n",
        "m.e",
        "; possible: ",
    ),
    (
        "`del x` makes x local to the function",
        "x = 1\ndef f():\n    del x\ndel x\n",
        "m.x",
        "3:4; possible: ",
    ),
    (
        "a walrus in a module-level comprehension binds at module level",
        "[(last := n) for n in range(3)]\nprint(last)\n",
        "m.last",
        "1:6; possible: ",
    ),
];

fn check(src: &str, symbol: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut index = ProjectIndex::build(dir.path());
    index.update_file("m.py", &Rope::from_str(src)).unwrap();
    match index.find_references(symbol) {
        Ok(r) => {
            let show = |v: &[eddi::analysis::index::Location]| {
                v.iter()
                    .map(|l| l.position.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{}; possible: {}", show(&r.certain), show(&r.possible))
        }
        Err(e) => format!("Fail: {e}"),
    }
}

#[test]
fn scoping_rules() {
    let mut failures = Vec::new();
    for (what, src, symbol, want) in CASES {
        let got = check(src, symbol);
        if got != *want {
            failures.push(format!("{what} ({symbol})\n  want: {want}\n  got:  {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Star imports bind a literal `__all__`, else the names without a leading `_`.
#[test]
fn star_imports_follow_dunder_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut index = ProjectIndex::build(dir.path());
    let files = [
        ("a/__init__.py", "__all__ = ['public']\n__all__ += ('extra',)\ndef public(): pass\ndef extra(): pass\ndef hidden(): pass\n"),
        ("b.py", "def shown(): pass\ndef _private(): pass\n"),
        ("m.py", "from a import *\nfrom b import *\npublic(); extra(); hidden(); shown(); _private()\n"),
    ];
    for (path, src) in files {
        index.update_file(path, &Rope::from_str(src)).unwrap();
    }
    let uses = |symbol: &str| {
        index
            .find_references(symbol)
            .map(|r| {
                r.certain
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_else(|e| e.to_string())
    };
    assert_eq!(uses("a.public"), "m.py:2:0");
    assert_eq!(uses("a.extra"), "m.py:2:10");
    assert_eq!(uses("a.hidden"), "");
    assert_eq!(uses("b.shown"), "m.py:2:29");
    assert_eq!(uses("b._private"), "");
    assert_eq!(
        index
            .file_index("a/__init__.py")
            .unwrap()
            .all
            .as_ref()
            .map(|a| a.len()),
        Some(2)
    );
}

/// Constructing a class calls the `__init__` it defines or inherits.
#[test]
fn constructions_call_init() {
    let dir = tempfile::tempdir().unwrap();
    let mut index = ProjectIndex::build(dir.path());
    let src = "class A:\n    def __init__(self): pass\nclass B(A): pass\nclass C(A):\n    def __init__(self): super().__init__()\nA(); B(); C()\n";
    index.update_file("m.py", &Rope::from_str(src)).unwrap();
    let callers = |symbol: &str| {
        let c = index.find_callers(symbol).unwrap();
        c.certain
            .iter()
            .map(|c| {
                format!(
                    "{} in {}",
                    c.location.position,
                    c.caller.as_deref().unwrap_or("<module>")
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    assert_eq!(
        callers("A.__init__"),
        "4:32 in m.C.__init__, 5:0 in <module>, 5:5 in <module>"
    );
    assert_eq!(callers("C.__init__"), "5:10 in <module>");
}

/// A reference is the whole name: its end is its start plus the name's
/// length in chars, also after non-ASCII text on the line.
#[test]
fn references_carry_the_range_of_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut index = ProjectIndex::build(dir.path());
    let src = "def naïve_helper(): pass\ns = 'é€🎉'; naïve_helper()\n";
    index.update_file("m.py", &Rope::from_str(src)).unwrap();
    let r = index.find_references("m.naïve_helper").unwrap();
    let ranges: Vec<String> = r
        .certain
        .iter()
        .map(|l| format!("{}-{}", l.position, l.end))
        .collect();
    // `s = 'é€🎉'; ` is 11 chars; the name is 12 chars long
    assert_eq!(ranges, ["1:11-1:23"]);
}
