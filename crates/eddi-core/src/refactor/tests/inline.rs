use super::*;
use crate::refactor::testing::TestProject;

fn variable(name: &str) -> Refactoring {
    Refactoring::Inline {
        kind: InlineKind::Variable,
        name: name.into(),
    }
}

/// Inlines `name` with the cursor at `line` of a.py; the new text of a.py.
fn inlined(src: &str, line: usize, name: &str) -> String {
    let project = TestProject::new(&[("a.py", src)]);
    let done = project
        .run(Some(("a.py", line, 0)), &variable(name))
        .unwrap_or_else(|e| panic!("{e}"));
    project.after(&done).remove("a.py").unwrap()
}

fn refusal(src: &str, line: usize, name: &str) -> String {
    let project = TestProject::new(&[("a.py", src)]);
    let e = project
        .run(Some(("a.py", line, 0)), &variable(name))
        .expect_err("refused");
    e.message
}

#[test]
fn a_sum_inlined_into_a_product_gets_parentheses() {
    assert_eq!(
        inlined("def f(a, b, x):\n    v = a + b\n    return x * v\n", 2, "v"),
        "def f(a, b, x):\n    return x * (a + b)\n"
    );
}

/// `v = <value>` then `return <use>` in a function: the returned expression.
fn placed(value: &str, use_: &str) -> String {
    let src = format!("def f(a, b, c, x, o, d):\n    v = {value}\n    return {use_}\n");
    let out = inlined(&src, 2, "v");
    out.strip_prefix("def f(a, b, c, x, o, d):\n    return ")
        .and_then(|s| s.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("{out}"))
        .to_string()
}

#[test]
fn parentheses_only_where_precedence_needs_them() {
    let cases = [
        // (value, use, expected)
        ("a + b", "x * v", "x * (a + b)"),
        ("a + b", "v * x", "(a + b) * x"),
        ("a + b", "x + v", "x + (a + b)"),
        ("a + b", "v + x", "a + b + x"),
        ("a - b", "x - v", "x - (a - b)"),
        ("a * b", "x + v", "x + a * b"),
        ("a + b", "v.attr", "(a + b).attr"),
        ("a + b", "v[0]", "(a + b)[0]"),
        ("a + b", "v()", "(a + b)()"),
        ("a + b", "d[v]", "d[a + b]"),
        ("a + b", "o(v, x)", "o(a + b, x)"),
        ("a + b", "o(key=v)", "o(key=a + b)"),
        ("a + b", "-v", "-(a + b)"),
        ("-a", "-v", "--a"),
        ("-a", "v ** 2", "(-a) ** 2"),
        ("-a", "2 ** v", "2 ** -a"),
        ("a ** b", "v ** c", "(a ** b) ** c"),
        ("a ** b", "c ** v", "c ** a ** b"),
        ("a ** b", "-v", "-a ** b"),
        ("a.b", "v.c", "a.b.c"),
        ("o(a)", "v.c", "o(a).c"),
        ("o(a)", "v[0]", "o(a)[0]"),
        ("1", "v.real", "(1).real"),
        ("1.5", "v.real", "1.5.real"),
        ("'s'", "v.upper()", "'s'.upper()"),
        ("[a, b]", "v[0]", "[a, b][0]"),
        ("a < b", "v == c", "(a < b) == c"),
        ("a < b", "not v", "not a < b"),
        ("not a", "v == c", "(not a) == c"),
        ("not a", "v and c", "not a and c"),
        ("a or b", "v and c", "(a or b) and c"),
        ("a and b", "v or c", "a and b or c"),
        ("a or b", "c or v", "c or a or b"),
        ("a if b else c", "v + x", "(a if b else c) + x"),
        ("a if b else c", "o(v)", "o(a if b else c)"),
        (
            "a if b else c",
            "x if v else d",
            "x if (a if b else c) else d",
        ),
        (
            "a if b else c",
            "x if d else v",
            "x if d else a if b else c",
        ),
        ("lambda: a", "v()", "(lambda: a)()"),
        ("lambda: a", "o(v)", "o(lambda: a)"),
        ("lambda: a", "v if x else d", "(lambda: a) if x else d"),
        ("a, b", "v", "a, b"),
        ("a, b", "o(v)", "o((a, b))"),
        ("a, b", "[v]", "[(a, b)]"),
        ("a, b", "d[v]", "d[a, b]"),
        ("(a, b)", "o(v)", "o((a, b))"),
        ("(a := b)", "o(v)", "o((a := b))"),
        ("a | b", "v & c", "(a | b) & c"),
        ("a & b", "v | c", "a & b | c"),
        ("a << b", "v + c", "(a << b) + c"),
        ("a + b", "[*v]", "[*a + b]"),
        ("a or b", "[*v]", "[*(a or b)]"),
        ("a.b", "[*v]", "[*a.b]"),
        ("a + b", "(v)", "(a + b)"),
        ("a + b", "f'{v}'", "f'{a + b}'"),
        ("a if b else c", "f'{v}'", "f'{a if b else c}'"),
        ("lambda: a", "f'{v}'", "f'{(lambda: a)}'"),
        ("a + b", "[i for i in v]", "[i for i in a + b]"),
        (
            "a if b else c",
            "[i for i in v]",
            "[i for i in (a if b else c)]",
        ),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(value, use_, expected)| {
            let got = placed(value, use_);
            (got != *expected).then(|| format!("{value} into {use_}: {got}, not {expected}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn every_read_is_replaced_and_the_assignment_removed() {
    let src = "\
import os

def f(names, root):
    # the separator
    sep = root + os.sep  # comment of the assignment
    first = names[0] + sep
    return first, sep.join(names), [n + sep for n in names]
";
    assert_eq!(
        inlined(&src.replace("root + os.sep", "root + '/'"), 5, "sep"),
        "\
import os

def f(names, root):
    # the separator
    first = names[0] + (root + '/')
    return first, (root + '/').join(names), [n + (root + '/') for n in names]
"
    );
    // os.sep is state: the call between could change it
    assert_eq!(
        refusal(src, 5, "sep"),
        "Cannot inline - the value of sep (`root + os.sep`) reads attributes or items, and the code at 6:18 may change them before sep is read"
    );
}

#[test]
fn the_summary_counts_the_reads() {
    let project = TestProject::new(&[("a.py", "x = 2\ny = x * x\nprint(x)\n")]);
    let done = project.run(Some(("a.py", 0, 0)), &variable("x")).unwrap();
    assert_eq!(
        done.summary,
        crate::refactor::Summary::Inlined {
            kind: InlineKind::Variable,
            name: "x".into(),
            locations: 3
        }
    );
    assert_eq!(project.after(&done)["a.py"], "y = 2 * 2\nprint(2)\n");
}

#[test]
fn the_variable_is_the_one_the_cursors_scope_sees() {
    let src = "v = 1\n\ndef f():\n    v = 2\n    return v\n\ndef g():\n    return v + 1\n";
    // in f: its local
    assert_eq!(
        inlined(src, 4, "v"),
        "v = 1\n\ndef f():\n    return 2\n\ndef g():\n    return v + 1\n"
    );
    // in g: the module's
    assert_eq!(
        inlined(src, 7, "v"),
        "\ndef f():\n    v = 2\n    return v\n\ndef g():\n    return 1 + 1\n"
    );
}

#[test]
fn a_name_not_visible_there_is_not_found_with_the_closest_names() {
    let project = TestProject::new(&[(
        "a.py",
        "total = 1\ndef f():\n    totals = 2\n    return totals\n",
    )]);
    let e = project
        .run(Some(("a.py", 0, 0)), &variable("totls"))
        .unwrap_err();
    assert_eq!(e.kind, RefactorFailure::NotFound);
    assert_eq!(
        e.message,
        "Not found: variable 'totls' visible at a.py:0:0. Closest: total"
    );
    assert_eq!(e.candidates, ["total"]);
    let e = project.run(None, &variable("total")).unwrap_err();
    assert_eq!(e.kind, RefactorFailure::InvalidArgument);
}

#[test]
fn statements_sharing_a_line_and_crlf_and_tabs() {
    assert_eq!(
        inlined("def f(a):\n\tv = a + 1; w = v * 2\n\treturn w\n", 1, "v"),
        "def f(a):\n\tw = (a + 1) * 2\n\treturn w\n"
    );
    assert_eq!(
        inlined(
            "def f(a):\r\n    v = [\r\n        a,\r\n    ]\r\n    return v\r\n",
            1,
            "v"
        ),
        "def f(a):\r\n    return [\r\n        a,\r\n    ]\r\n"
    );
}

#[test]
fn an_annotated_assignment_is_inlined_too() {
    assert_eq!(
        inlined(
            "LIMIT: int = 10\n\ndef f(n):\n    return n < LIMIT\n",
            0,
            "LIMIT"
        ),
        "\ndef f(n):\n    return n < 10\n"
    );
}

#[test]
fn a_value_with_a_call_read_once_in_the_next_statement() {
    assert_eq!(
        inlined("def f(g, h):\n    v = g()\n    return h(v)\n", 1, "v"),
        "def f(g, h):\n    return h(g())\n"
    );
    assert_eq!(
        inlined(
            "def f(g, h):\n    v = g()\n    self.items.append(v)\n",
            1,
            "v"
        ),
        "def f(g, h):\n    self.items.append(g())\n"
    );
    assert_eq!(
        inlined(
            "def f(g, h):\n    v = g()\n    if v:\n        h()\n",
            1,
            "v"
        ),
        "def f(g, h):\n    if g():\n        h()\n"
    );
    assert_eq!(
        inlined("def f(g, o):\n    v = g()\n    o.x = v\n", 1, "v"),
        "def f(g, o):\n    o.x = g()\n"
    );
}

#[test]
fn refusals_say_why() {
    let cases = [
        // assigned twice
        ("def f(a):\n    v = a\n    v = 2\n    return v\n", 1, "v",
         "Cannot inline - v is bound 2 times in f (lines 1, 2): only a variable assigned once can be inlined"),
        ("def f(a):\n    v = a\n    v += 2\n    return v\n", 1, "v",
         "Cannot inline - v is bound 2 times in f (lines 1, 2): only a variable assigned once can be inlined"),
        ("def f(v):\n    return v\n", 1, "v",
         "Cannot inline - v is a parameter of f: only a variable assigned once (`v = value`) can be inlined"),
        ("def f(xs):\n    for v in xs:\n        print(v)\n", 1, "v",
         "Cannot inline - v is bound at 1:8 by a loop, with, except, match, del or a bare annotation, not by an assignment: only a variable assigned once (`v = value`) can be inlined"),
        ("def f(p):\n    v, w = p\n    return v\n", 1, "v",
         "Cannot inline - v is assigned by unpacking at 1:4: only a variable assigned once (`v = value`) can be inlined"),
        ("def f(p):\n    v = w = p\n    return v\n", 1, "v",
         "Cannot inline - v is assigned in a chained assignment at 1:4: split it first"),
        ("def f(p):\n    if (v := p):\n        return v\n", 1, "v",
         "Cannot inline - v is bound by `:=` at 1:8: only a `v = value` statement can be inlined"),
        ("def f(p):\n    v = p\n", 1, "v",
         "Cannot inline - v is never read: delete its assignment instead"),
        // toolz.curried's `accumulate = toolz.curry(toolz.accumulate)`: read
        // by importers only, so no advice to delete it
        ("import toolz\naccumulate = toolz.curry(toolz.accumulate)\n", 1, "accumulate",
         "Cannot inline - accumulate is not read in a.py: there is nothing to inline it into (code outside the project may still read it as an attribute)"),
        ("__version__ = '1.0'\n", 0, "__version__",
         "Cannot inline - __version__ is not read in a.py: there is nothing to inline it into (code outside the project may still read it as an attribute)"),
        // paths
        ("def f(p):\n    if p:\n        v = 1\n    return v\n", 1, "v",
         "Cannot inline - v is read at 3:11, outside the block that assigns it at 2:8: not every path assigns it"),
        ("def f(p):\n    print(v)\n    v = p\n    return v\n", 1, "v",
         "Cannot inline - v is read at 1:10 before it is assigned at 2:4"),
        ("v = 1\ndef f():\n    global v\n    return v\n", 0, "v",
         "Cannot inline - v is declared global in f: it may be rebound there"),
        ("def f():\n    v = 1\n    def g():\n        nonlocal v\n        return v\n    return g\n", 1, "v",
         "Cannot inline - v is declared nonlocal in g: it may be rebound there"),
        ("def f(p):\n    v = p\n    return locals()[\"v\"] + v\n", 1, "v",
         "Cannot inline - f calls locals() at 2:11: v may be read through it"),
        ("def f(p):\n    v = p\n    return eval('v') + v\n", 1, "v",
         "Cannot inline - f calls eval() at 2:11: v may be read through it"),
        // rebinding of what the value reads
        ("def f(a):\n    v = a + 1\n    a = 5\n    return v\n", 1, "v",
         "Cannot inline - the value of v reads a, which is rebound at 2:4 before v is read"),
        ("def f(a, xs):\n    v = a\n    for a in xs:\n        print(v)\n", 1, "v",
         "Cannot inline - the value of v reads a, which is rebound at 2:8 before v is read"),
        ("def f(a):\n    v = a\n    def g(a):\n        return v\n    return g\n", 1, "v",
         "Cannot inline - the value of v reads a, which means something else at 3:15"),
        ("def f(a):\n    v = a\n    g = lambda: v\n    a = 2\n    return g\n", 1, "v",
         "Cannot inline - the value of v reads a, which is rebound at 3:4 before v is read"),
        // the lambda reads v when called, after its own assignment rebinds a
        // (toolz's reduceby: `_init = init; init = lambda: _init`)
        ("def f(init):\n    _init = init\n    init = lambda: _init\n    return init\n", 1, "_init",
         "Cannot inline - the value of _init reads init, which is rebound at 2:4 before _init is read"),
        // effects
        ("def f(g):\n    v = g()\n    return v + v\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and v is read 2 times: it would run 2 times"),
        ("def f(g, xs):\n    v = g()\n    for x in xs:\n        print(v)\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and v is read at 3:14 inside a loop: it would run at every iteration"),
        ("def f(g, xs):\n    v = g()\n    return lambda: v\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and v is read at 2:19 inside a nested function, lambda or comprehension: it would run at other times"),
        ("def f(g, xs):\n    v = g()\n    return [v for x in xs]\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and v is read at 2:12 inside a nested function, lambda or comprehension: it would run at other times"),
        ("def f(g, h):\n    v = g()\n    h()\n    return v\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and other statements run between its assignment and its read at 3:11: their order would change"),
        ("def f(g, h):\n    v = g()\n    return h() + v\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and its read at 2:17 is after other calls of its statement"),
        ("def f(g, h):\n    v = g()\n    return h or v\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and its read at 2:16 is only evaluated conditionally"),
        ("def f(g, h):\n    v = g()\n    if h:\n        return v\n", 1, "v",
         "Cannot inline - the value of v (`g()`) has effects and its read at 3:15 is inside a compound statement's body"),
        ("def f(g):\n    v = []\n    v.append(1)\n    return v\n", 1, "v",
         "Cannot inline - the value of v (`[]`) creates a new object and v is read 2 times: it would run 2 times"),
        // state read by the value
        ("def f(o, g):\n    v = o.x\n    g()\n    return v\n", 1, "v",
         "Cannot inline - the value of v (`o.x`) reads attributes or items, and the code at 2:4 may change them before v is read"),
        ("def f(o):\n    v = o[0]\n    o[0] = 2\n    return v\n", 1, "v",
         "Cannot inline - the value of v (`o[0]`) reads attributes or items, and the code at 2:4 may change them before v is read"),
        ("def f(o):\n    v = o.x\n    return lambda: v\n", 1, "v",
         "Cannot inline - the value of v (`o.x`) reads attributes or items, and v is read at 2:19 inside a nested function, lambda or comprehension, when they may have changed"),
        // f-strings
        ("def f(a):\n    v = a[\"k\"]\n    return f\"{v}\"\n", 1, "v",
         "Cannot inline - the value of v cannot be written inside the f-string at 2:14 (quotes, backslashes, comments or line breaks)"),
        ("def f(a):\n    v = a + 1\n    return f\"{v=}\"\n", 1, "v",
         "Cannot inline - the f-string at 2:14 prints the name v (`{v=}`)"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(src, line, name, expected)| {
            let got = refusal(src, *line, name);
            (got != *expected).then(|| format!("{src:?}:\n  got      {got}\n  expected {expected}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_module_variable_other_modules_import_is_refused_naming_them() {
    let project = TestProject::new(&[
        ("pkg/__init__.py", ""),
        (
            "pkg/conf.py",
            "LIMIT = 10\nPRIVATE = 2\n\ndef f(n):\n    return n < LIMIT + PRIVATE\n",
        ),
        ("pkg/use.py", "from pkg.conf import LIMIT\nprint(LIMIT)\n"),
        ("pkg/other.py", "from . import conf\nprint(conf.LIMIT)\n"),
    ]);
    let e = project
        .run(Some(("pkg/conf.py", 4, 0)), &variable("LIMIT"))
        .unwrap_err();
    assert_eq!(
        e.message,
        "Cannot inline - LIMIT is imported by other modules: pkg/other.py:1:11, pkg/use.py:0:21, pkg/use.py:1:6"
    );
    let done = project
        .run(Some(("pkg/conf.py", 4, 0)), &variable("PRIVATE"))
        .unwrap();
    assert_eq!(
        project.after(&done)["pkg/conf.py"],
        "LIMIT = 10\n\ndef f(n):\n    return n < LIMIT + 2\n"
    );
}

#[test]
fn exported_star_imported_and_class_attributes_are_refused() {
    let project = TestProject::new(&[
        ("m.py", "__all__ = ['A']\nA = 1\nB = 2\nprint(A, B)\n\nclass C:\n    k = 3\n    j = k + 1\n    def m(self):\n        return self.k\n\nclass D:\n    z = 1\n    w = z * 2\n"),
        ("n.py", "from m import *\n"),
    ]);
    let refused = |line, name: &str| {
        project
            .run(Some(("m.py", line, 0)), &variable(name))
            .unwrap_err()
            .message
    };
    assert_eq!(
        refused(0, "A"),
        "Cannot inline - A is exported in __all__ of m: other modules may import it"
    );
    assert_eq!(
        refused(0, "B"),
        "Cannot inline - B may be imported by `from m import *` in n.py"
    );
    assert_eq!(
        refused(7, "k"),
        "Cannot inline - k is a class attribute read as an attribute at m.py:9:20"
    );
    let done = project.run(Some(("m.py", 13, 0)), &variable("z")).unwrap();
    assert!(project.after(&done)["m.py"].ends_with("class D:\n    w = 1 * 2\n"));
}

fn function(name: &str) -> Refactoring {
    Refactoring::Inline {
        kind: InlineKind::Function,
        name: name.into(),
    }
}

/// Inlines function `name` of a project; the changed files' new texts.
fn inlined_function(
    files: &[(&str, &str)],
    name: &str,
) -> (std::collections::BTreeMap<String, String>, Refactored) {
    let project = TestProject::new(files);
    let done = project
        .run(Some((files[0].0, 0, 0)), &function(name))
        .unwrap_or_else(|e| panic!("{e}"));
    (project.after(&done), done)
}

#[test]
fn a_one_expression_function_is_inlined_at_every_call_and_removed() {
    let src = "\
def area(w, h=2):
    \"\"\"The area.\"\"\"
    return w * h


def main(a, b):
    x = area(a + b)
    y = area(h=a, w=b)
    return area(a, b).real, -area(1, 3), area(a or b, 4)
";
    let (after, done) = inlined_function(&[("a.py", src)], "area");
    assert_eq!(
        after["a.py"],
        "\
def main(a, b):
    x = (a + b) * 2
    y = b * a
    return (a * b).real, -(1 * 3), (a or b) * 4
"
    );
    assert_eq!(
        done.summary,
        crate::refactor::Summary::Inlined {
            kind: InlineKind::Function,
            name: "a.area".into(),
            locations: 5
        }
    );
    assert!(done.left_alone.is_empty());
}

#[test]
fn calls_in_other_modules_and_their_imports() {
    let (after, _) = inlined_function(
        &[
            (
                "pkg/util.py",
                "def double(x):\n    return x * 2\n\n\ndef other():\n    return double(3)\n",
            ),
            ("pkg/__init__.py", ""),
            (
                "pkg/a.py",
                "from pkg.util import double, other\n\nprint(double(4) + 1)\n",
            ),
            (
                "pkg/b.py",
                "from .util import double as twice\nprint(twice(5))\n",
            ),
            ("pkg/c.py", "import pkg.util\nprint(pkg.util.double(6))\n"),
        ],
        "double",
    );
    assert_eq!(after["pkg/util.py"], "def other():\n    return 3 * 2\n");
    assert_eq!(
        after["pkg/a.py"],
        "from pkg.util import other\n\nprint(4 * 2 + 1)\n"
    );
    assert_eq!(after["pkg/b.py"], "print(5 * 2)\n");
    assert_eq!(after["pkg/c.py"], "import pkg.util\nprint(6 * 2)\n");
}

#[test]
fn a_function_still_used_as_a_value_or_exported_is_kept_and_said() {
    let project = TestProject::new(&[(
        "a.py",
        "__all__ = ['inc']\n\ndef inc(n):\n    return n + 1\n\nprint(inc(1), list(map(inc, [1])))\n",
    )]);
    let done = project.run(Some(("a.py", 0, 0)), &function("inc")).unwrap();
    assert_eq!(
        project.after(&done)["a.py"],
        "__all__ = ['inc']\n\ndef inc(n):\n    return n + 1\n\nprint(1 + 1, list(map(inc, [1])))\n"
    );
    let why: Vec<String> = done
        .left_alone
        .iter()
        .map(|l| format!("{}: {}", l.site, l.why))
        .collect();
    assert_eq!(
        why,
        [
            "a.py:5:23: inc is used here other than by a call: its definition is kept",
            "a.py:2:0: inc is listed in __all__: its definition is kept"
        ]
    );
}

#[test]
fn a_method_called_through_self_and_instances() {
    let src = "\
class Box:
    def __init__(self, w):
        self.w = w

    def twice(self):
        return self.w * 2

    def show(self):
        return str(self.twice())


def use():
    return Box(3).twice() + Box.twice(b)
";
    let (after, _) = inlined_function(&[("a.py", src)], "Box.twice");
    assert_eq!(
        after["a.py"],
        "\
class Box:
    def __init__(self, w):
        self.w = w

    def show(self):
        return str(self.w * 2)


def use():
    return Box(3).w * 2 + b.w * 2
"
    );
}

#[test]
fn parentheses_for_arguments_and_results() {
    let cases = [
        ("def f(x):\n    return x * 2\n", "f(a + b)", "(a + b) * 2"),
        ("def f(x):\n    return x + 2\n", "f(a * b)", "a * b + 2"),
        ("def f(x):\n    return x\n", "f(a + b) * 3", "(a + b) * 3"),
        ("def f(x):\n    return x\n", "f(a).b", "a.b"),
        ("def f(x):\n    return -x\n", "f(a) ** 2", "(-a) ** 2"),
        (
            "def f(x):\n    return x.y\n",
            "f(a if b else c)",
            "(a if b else c).y",
        ),
        (
            "def f(x):\n    return x if x else 0\n",
            "f(a)",
            "a if a else 0",
        ),
        (
            "def f(x):\n    return x if x else 0\n",
            "[f(a)]",
            "[a if a else 0]",
        ),
        (
            "def f(x):\n    return x if x else 0\n",
            "f(a) + 1",
            "(a if a else 0) + 1",
        ),
        (
            "def f(x):\n    return lambda: x\n",
            "f(a)()",
            "(lambda: a)()",
        ),
        ("def f(x, y):\n    return x, y\n", "g(f(a, b))", "g((a, b))"),
        ("def f(x, y):\n    return x, y\n", "f(a, b)", "a, b"),
        ("def f(x):\n    return f'{x}!'\n", "f(a + 1)", "f'{a + 1}!'"),
        (
            "def f(x):\n    return [i * x for i in range(3)]\n",
            "f(a)",
            "[i * a for i in range(3)]",
        ),
        ("def f(x, k=-1):\n    return x * k\n", "f(a)", "a * -1"),
        (
            "def f(x, *, k=None):\n    return x is k\n",
            "f(a, k=3)",
            "a is 3",
        ),
        (
            "def f(x, /, k=None):\n    return x is k\n",
            "f(a)",
            "a is None",
        ),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(def, call, expected)| {
            let src = format!("{def}\n\ndef g(a, b, c):\n    return {call}\n");
            let (after, _) = inlined_function(&[("a.py", &src)], "f");
            let got = after["a.py"]
                .strip_prefix("def g(a, b, c):\n    return ")
                .and_then(|s| s.strip_suffix('\n'))
                .unwrap_or(&after["a.py"])
                .to_string();
            (got != *expected).then(|| format!("{def:?} {call}: {got}, not {expected}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn function_refusals_say_why() {
    let call = "\n\nprint(f(1))\n";
    let cases: Vec<(String, &str)> = vec![
        ("def f(x):\n    return f(x - 1) if x else 0\n".into(), "Cannot inline - f calls itself at 1:11"),
        ("def f(x):\n    yield x\n".into(), "Cannot inline - f is a generator (yield at 1:4)"),
        ("async def f(x):\n    return x\n".into(), "Cannot inline - f is async: a call makes a coroutine"),
        ("import functools\n@functools.cache\ndef f(x):\n    return x\n".into(), "Cannot inline - f is decorated (@functools.cache): a call runs what the decorator made of it, not its body"),
        ("def f(*xs):\n    print(xs)\n    return xs\n\ndef g():\n    y = f(1)\n".into(), "Cannot inline - f takes *xs and its body has several statements: only a body that is one `return <expression>` is inlined then"),
        ("def f(x, **kw):\n    print(kw)\n    return x\n\ndef g():\n    f(1)\n".into(), "Cannot inline - f takes **kw and its body has several statements: only a body that is one `return <expression>` is inlined then"),
        ("def f(**kw):\n    return kw\n\nprint(f(a=input(), b=2), f(a=1, b=input()))\n".into(), "inlined: {\"a.py\": \"print({\\\"a\\\": input(), \\\"b\\\": 2}, {\\\"a\\\": 1, \\\"b\\\": input()})\\n\"}"),
        ("def f(x):\n    def g():\n        return x\n    return g\n".into(), "Cannot inline - f defines a function or class at 1:4: closures over its scope would change"),
        ("n = 0\ndef f(x):\n    global n\n    n = x\n".into(), "Cannot inline - f declares global n at 2:4"),
        ("def f(x, y):\n    return x\n".into(), "Cannot inline - the call of f at a.py:4:6 does not pass y"),
        ("def f(x, y=[]):\n    return y\n".into(), "Cannot inline - the default of y (`[]`) is evaluated once, when f is defined: pass it at a.py:4:6 first"),
        ("def f():\n    return 1\n".into(), "Cannot inline - the call of f at a.py:4:6 passes more positional arguments than f takes"),
        ("def f(x, *, k=0):\n    return x\n\nprint(f(1, 2))\n".into(), "Cannot inline - the call of f at a.py:3:6 passes more positional arguments than f takes"),
        ("def f(x, /):\n    return x\n\nprint(f(x=2))\n".into(), "Cannot inline - the call of f at a.py:3:6 passes the positional-only x by keyword"),
        ("def f(x):\n    return x\n\nprint(f(*[1]))\n".into(), "Cannot inline - the call of f at a.py:3:6 passes `*[1]`: its arguments cannot be mapped to parameters"),
        ("def f(x):\n    return x\n\nprint(f(y=1))\n".into(), "Cannot inline - the call of f at a.py:3:6 passes y=, which f does not take"),
        ("def f(x):\n    return x + x\n\nprint(f(input()))\n".into(), "Cannot inline - the argument `input()` of the call at a.py:3:6 is used 2 times by f: bind it to a variable first"),
        ("def f(x):\n    return 1\n\nprint(f(input()))\n".into(), "Cannot inline - the argument `input()` of the call at a.py:3:6 would not be evaluated: f does not use x"),
        ("def f(x):\n    return print() or x\n\nprint(f(input()))\n".into(), "Cannot inline - the argument `input()` of the call at a.py:3:6 would run at another time: in f's body its use is only evaluated conditionally"),
        ("def f(x):\n    return [x for i in range(2)]\n\nprint(f(input()))\n".into(), "Cannot inline - the argument `input()` of the call at a.py:3:6 is used inside a lambda or comprehension of f: bind it to a variable first"),
        ("def f(x, y):\n    return y - x\n\nprint(f(input(), input()))\n".into(), "Cannot inline - the arguments of the call at a.py:3:6 would be evaluated in another order than they are written"),
        ("def f(x):\n    return [i + x for i in range(2)]\n\ndef g(i):\n    return f(i)\n".into(), "Cannot inline - the argument `i` of the call at a.py:4:11 reads i, which f's body binds where it uses x"),
        ("limit = 3\ndef f(x):\n    return x < limit\n\ndef g(limit):\n    return f(limit)\n".into(), "Cannot inline - f reads limit, which means something else at a.py:5:11"),
        ("def f(x):\n    return len(x)\n\ndef g(len):\n    return f(len)\n".into(), "Cannot inline - f reads the builtin len, which means something else at a.py:4:11"),
        ("def f(x):\n    return x\n\nprint(f(f(1)))\n".into(), "Cannot inline - f is called at a.py:3:8 inside another call of it: inline the outer call first, then again"),
        ("def f(x):\n    y = x + 1\n    return y\n".into(), "Cannot inline - f's body has several statements: it is inlined only where a call is a whole statement (`x = f(…)`, `f(…)`, `return f(…)`), not at a.py:5:6"),
        ("def f(x):\n    if x:\n        return 1\n    print(x)\n\nf(2)\n".into(), "Cannot inline - f returns early at 2:8: only a final return can be inlined"),
        ("def f(x):\n    print(x)\n    return x\n\nif 1: f(2)\n".into(), "Cannot inline - the call of f at a.py:4:6 shares its line with other code: put it on a line of its own"),
        ("def f(x):\n    return x\n\nprint(1)\n".into(), "Cannot inline - f is never called: there is nothing to inline"),
        ("def f(x):\n    return x\n\n@f\ndef h():\n    return 1\n\nprint(f(1))\n".into(), "Cannot inline - f is applied as a decorator at a.py:3:1: that call has no argument list to inline into; write it as a call after the definition (`g = f(g)`) first"),
        ("import a\ndef f(x):\n    return x\n\nclass C:\n    @a.f\n    def h(self):\n        return 1\n\nprint(f(1))\n".into(), "Cannot inline - f is applied as a decorator at a.py:5:7: that call has no argument list to inline into; write it as a call after the definition (`g = f(g)`) first"),
        ("def f(x):\n    return x\ndef f(x):\n    return x\n".into(), "Cannot inline - a.f is defined 2 times (a.py:0:0, a.py:2:0): which one a call runs depends on the path taken"),
        ("class C:\n    def f(self):\n        return super().f()\n".into(), "Cannot inline - f calls super() at 2:15: it only works in its class"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(def, expected)| {
            let src = if def.contains("print(") || def.contains("return f(") {
                def.clone()
            } else {
                format!("{def}{call}")
            };
            let project = TestProject::new(&[("a.py", &src)]);
            let got = match project.run(Some(("a.py", 0, 0)), &function("f")) {
                Ok(done) => format!("inlined: {:?}", project.after(&done)),
                Err(e) => e.message,
            };
            (got != *expected).then(|| format!("{src:?}:\n  got      {got}\n  expected {expected}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn methods_that_may_be_overridden_or_reached_untyped_are_refused() {
    let project = TestProject::new(&[(
        "a.py",
        "class A:\n    def m(self):\n        return 1\n    def n(self):\n        return self.m()\n\nclass B(A):\n    def m(self):\n        return 2\n",
    )]);
    assert_eq!(
        project
            .run(Some(("a.py", 0, 0)), &function("A.m"))
            .unwrap_err()
            .message,
        "Cannot inline - m is also defined by B at a.py:7:4: a call through self may run that one"
    );
    let project = TestProject::new(&[(
        "a.py",
        "class A:\n    def m(self):\n        return 1\n\ndef use(x):\n    return x.m()\n",
    )]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("A.m")).unwrap_err().message,
        "Cannot inline - the use of m at a.py:5:13 may be another one's (its receiver's type is unknown): inline it by hand or make the receiver's class known"
    );
}

#[test]
fn names_not_found_and_not_functions() {
    let project = TestProject::new(&[(
        "a.py",
        "def compute(x):\n    return x\n\nclass K:\n    pass\n",
    )]);
    let e = project
        .run(Some(("a.py", 0, 0)), &function("compte"))
        .unwrap_err();
    assert_eq!(e.kind, RefactorFailure::NotFound);
    assert_eq!(e.candidates, ["compute"]);
    let e = project
        .run(Some(("a.py", 0, 0)), &function("K"))
        .unwrap_err();
    assert_eq!(e.kind, RefactorFailure::InvalidArgument);
    assert_eq!(
        e.message,
        "a.K is a class, not a function: InlineFunction inlines functions and methods"
    );
}

#[test]
fn a_body_of_statements_is_inlined_where_the_call_is_a_statement() {
    let src = "\
def total(items, tax=0.2):
    \"\"\"Sum with tax.\"\"\"
    s = 0
    for item in items:
        s += item.price  # each
    text = '''
    multi
    '''
    return s * (1 + tax)


def report(order, s):
    t = total(order.items)
    print(t, s)
    if s:
        order.sum = total(load(), tax=0)
    return total(order.items)
";
    let (after, done) = inlined_function(&[("a.py", src)], "total");
    assert_eq!(
        after["a.py"],
        "\
def report(order, s):
    items = order.items
    s_1 = 0
    for item in items:
        s_1 += item.price  # each
    text = '''
    multi
    '''
    t = s_1 * (1 + 0.2)
    print(t, s)
    if s:
        items = load()
        s_1 = 0
        for item in items:
            s_1 += item.price  # each
        text = '''
    multi
    '''
        order.sum = s_1 * (1 + 0)
    items = order.items
    s_1 = 0
    for item in items:
        s_1 += item.price  # each
    text = '''
    multi
    '''
    return s_1 * (1 + 0.2)
"
    );
    assert_eq!(
        done.summary,
        crate::refactor::Summary::Inlined {
            kind: InlineKind::Function,
            name: "a.total".into(),
            locations: 3
        }
    );
}

#[test]
fn a_statement_body_without_a_result_and_a_method_body() {
    let src = "\
class Log:
    def __init__(self):
        self.lines = []

    def add(self, line):
        self.lines.append(line)
        self.count = len(self.lines)

    def run(self, x):
        self.add(x + 1)
        r = self.add('done')
        return r
";
    let (after, _) = inlined_function(&[("a.py", src)], "Log.add");
    assert_eq!(
        after["a.py"],
        "\
class Log:
    def __init__(self):
        self.lines = []

    def run(self, x):
        line = x + 1
        self.lines.append(line)
        self.count = len(self.lines)
        self.lines.append('done')
        self.count = len(self.lines)
        r = None
        return r
"
    );
}

#[test]
fn static_methods_reexports_and_module_globals() {
    // a static method: no receiver is passed
    let (after, _) = inlined_function(
        &[(
            "a.py",
            "class M:\n    @staticmethod\n    def sq(x):\n        return x * x\n\n    def use(self, y):\n        return self.sq(y) + M.sq(2)\n",
        )],
        "M.sq",
    );
    assert_eq!(
        after["a.py"],
        "class M:\n    def use(self, y):\n        return y * y + 2 * 2\n"
    );
    // a package's __init__ re-exports: the definition stays
    let project = TestProject::new(&[
        ("pkg/__init__.py", "from .core import inc\n"),
        ("pkg/core.py", "def inc(n):\n    return n + 1\n"),
        ("main.py", "from pkg import inc\nprint(inc(2))\n"),
    ]);
    let done = project
        .run(Some(("main.py", 0, 0)), &function("inc"))
        .unwrap();
    let after = project.after(&done);
    assert_eq!(after["main.py"], "print(2 + 1)\n");
    assert!(!after.contains_key("pkg/core.py"), "{after:?}");
    assert_eq!(
        done.left_alone
            .iter()
            .map(|l| l.site.to_string())
            .collect::<Vec<_>>(),
        ["pkg/__init__.py:0:18"]
    );
    // a body that reads its module's names cannot move to another module
    let project = TestProject::new(&[
        ("m.py", "RATE = 2\n\ndef cost(n):\n    return n * RATE\n"),
        ("n.py", "from m import cost\nprint(cost(3))\n"),
    ]);
    assert_eq!(
        project.run(Some(("n.py", 0, 0)), &function("cost")).unwrap_err().message,
        "Cannot inline - cost reads RATE of its module, which the call at n.py:1:6 does not see as the same"
    );
}

#[test]
fn receivers_are_evaluated_once_and_crlf_files_keep_their_endings() {
    let project = TestProject::new(&[(
        "a.py",
        "class P:\n    def norm(self):\n        return self.x + self.y\n\ndef f():\n    return P().norm()\n",
    )]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("P.norm")).unwrap_err().message,
        "Cannot inline - the argument `P()` of the call at a.py:5:11 is used 2 times by norm: bind it to a variable first"
    );
    let (after, _) = inlined_function(
        &[("a.py", "def f(x):\r\n    y = x * 2\r\n    return y\r\n\r\n\r\ndef g(a):\r\n    b = f(a)\r\n    return b\r\n")],
        "f",
    );
    assert_eq!(
        after["a.py"],
        "def g(a):\r\n    y = a * 2\r\n    b = y\r\n    return b\r\n"
    );
}

#[test]
fn special_methods_and_possible_overrides_keep_their_definition() {
    let project = TestProject::new(&[(
        "a.py",
        "class V:\n    def __len__(self):\n        return 3\n\n    def size(self):\n        return self.__len__()\n",
    )]);
    let done = project
        .run(Some(("a.py", 0, 0)), &function("V.__len__"))
        .unwrap();
    assert_eq!(
        project.after(&done)["a.py"],
        "class V:\n    def __len__(self):\n        return 3\n\n    def size(self):\n        return 3\n"
    );
    assert_eq!(
        done.left_alone[0].why,
        "__len__ is a special method, called by Python itself: its definition is kept"
    );
    let project = TestProject::new(&[(
        "a.py",
        "import json\n\nclass E(json.JSONEncoder):\n    def default(self, o):\n        return str(o)\n\n    def show(self, o):\n        return self.default(o)\n",
    )]);
    let done = project
        .run(Some(("a.py", 0, 0)), &function("E.default"))
        .unwrap();
    assert!(
        project.after(&done)["a.py"].ends_with("    def show(self, o):\n        return str(o)\n")
    );
    assert_eq!(
        done.left_alone[0].why,
        "default may override a method of a base class of E, called through the base: its definition is kept"
    );
}

#[test]
fn a_method_of_a_class_deriving_only_from_object_overrides_nothing() {
    // python-dateutil's relativedelta(object)._set_months: inlined at its
    // calls through self, its definition removed
    let project = TestProject::new(&[(
        "a.py",
        "class R(object):\n    def set(self, m):\n        self.m = m\n\n    def __init__(self, m):\n        self.set(m)\n",
    )]);
    let done = project
        .run(Some(("a.py", 0, 0)), &function("R.set"))
        .unwrap();
    assert_eq!(
        project.after(&done)["a.py"],
        "class R(object):\n    def __init__(self, m):\n        self.m = m\n"
    );
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
}

#[test]
fn a_statement_body_is_not_inlined_at_module_level() {
    let project = TestProject::new(&[(
        "a.py",
        "def setup(n):\n    x = n * 2\n    print(x)\n\nsetup(3)\n",
    )]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("setup")).unwrap_err().message,
        "Cannot inline - the call of setup at a.py:4:0 is at module level: the body's variables would become the module's globals"
    );
}

#[test]
fn a_target_bound_after_its_value_is_evaluated_is_no_rebinding() {
    assert_eq!(
        inlined(
            "def f(a):\n    v = a * 2\n    a = v + 1\n    return a\n",
            1,
            "v"
        ),
        "def f(a):\n    a = a * 2 + 1\n    return a\n"
    );
    // but read twice, the second read would see the new a
    assert_eq!(
        refusal(
            "def f(a):\n    v = a * 2\n    a = v + 1\n    return a, v\n",
            1,
            "v"
        ),
        "Cannot inline - the value of v reads a, which is rebound at 2:4 before v is read"
    );
}

#[test]
fn calls_in_f_strings_and_lambdas() {
    let (after, _) = inlined_function(
        &[(
            "a.py",
            "def tag(s):\n    return '<' + s + '>'\n\n\ndef g(x):\n    h = lambda y: tag(y)\n    return f\"{tag(x)}\", f'{h(x)=}'\n",
        )],
        "tag",
    );
    assert_eq!(
        after["a.py"],
        "def g(x):\n    h = lambda y: '<' + y + '>'\n    return f\"{'<' + x + '>'}\", f'{h(x)=}'\n"
    );
    let project = TestProject::new(&[(
        "a.py",
        "def tag(s):\n    return '<' + s + '>'\n\nprint(f'{tag(1)}')\n",
    )]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("tag")).unwrap_err().message,
        "Cannot inline - the body of tag cannot be written inside the f-string at 3:9 (quotes, backslashes, comments or line breaks)"
    );
}

#[test]
fn an_argument_is_written_once_unless_it_is_a_name_or_a_literal() {
    let src = "def sq(x):\n    return x * x\n\ndef g(a, b):\n    return sq(a), sq(2), sq(a + b)\n";
    let project = TestProject::new(&[("a.py", src)]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("sq")).unwrap_err().message,
        "Cannot inline - the argument `a + b` of the call at a.py:4:25 is used 2 times by sq: bind it to a variable first"
    );
    let (after, _) = inlined_function(
        &[(
            "a.py",
            "def sq(x):\n    return x * x\n\ndef g(a, b):\n    return sq(a), sq(-2)\n",
        )],
        "sq",
    );
    assert_eq!(after["a.py"], "def g(a, b):\n    return a * a, -2 * -2\n");
}

#[test]
fn private_names_stay_in_their_class_and_mentions_are_reported() {
    let src = "class A:\n    def __init__(self):\n        self.__n = 1\n\n    def n(self):\n        return self.__n\n\n    def m(self):\n        return self.n()\n\nclass B(A):\n    pass\n\ndef use(a: A):\n    return A.n(a)\n";
    let project = TestProject::new(&[("a.py", src)]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("A.n")).unwrap_err().message,
        "Cannot inline - n uses __n, which Python renames after its class: the call at a.py:14:11 is outside it"
    );
    let project = TestProject::new(&[(
        "a.py",
        "Alias = int  # Alias: the id type\n\ndef f(x: Alias) -> 'Alias':\n    return x\n",
    )]);
    let done = project
        .run(Some(("a.py", 0, 0)), &variable("Alias"))
        .unwrap();
    assert_eq!(
        project.after(&done)["a.py"],
        "\ndef f(x: int) -> 'Alias':\n    return x\n"
    );
    let at: Vec<String> = done.mentions.iter().map(|m| m.to_string()).collect();
    assert_eq!(at, ["a.py:0:15", "a.py:2:20"]);
}

#[test]
fn a_name_bound_twice_and_a_colliding_local_import_are_refused() {
    let project = TestProject::new(&[(
        "a.py",
        "import sys\nif sys.platform == 'win32':\n    from nt import stream\nelse:\n    def stream(f):\n        return None\n\nprint(stream(1))\n",
    )]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("stream")).unwrap_err().message,
        "Cannot inline - stream is also bound at 2:19 in the module: a call may not run this definition"
    );
    let project = TestProject::new(&[(
        "a.py",
        "def page(text):\n    import tempfile\n    tempfile.write(text)\n\ndef show(tempfile):\n    page(tempfile)\n",
    )]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("page")).unwrap_err().message,
        "Cannot inline - page imports tempfile at 1:11, a name the call at a.py:5:4 already uses: import it at the top of the module instead"
    );
}

#[test]
fn extra_arguments_are_packed_for_star_args_and_keywords() {
    let (after, _) = inlined_function(
        &[(
            "a.py",
            "def join(sep, *parts, end='', **opts):\n    return sep.join(parts) + end + str(opts)\n\n\ndef g(a, b):\n    return join(',', a, b), join('-'), join(' ', a, end='!', k=1)\n",
        )],
        "join",
    );
    assert_eq!(
        after["a.py"],
        "def g(a, b):\n    return ','.join((a, b)) + '' + str({}), '-'.join(()) + '' + str({}), ' '.join((a,)) + '!' + str({\"k\": 1})\n"
    );
}

#[test]
fn class_bodies_and_broken_files_are_refused() {
    let project = TestProject::new(&[(
        "a.py",
        "def scaled(k):\n    return [i * k for i in range(3)]\n\nclass C:\n    K = 2\n    ROW = scaled(K)\n",
    )]);
    assert_eq!(
        project.run(Some(("a.py", 0, 0)), &function("scaled")).unwrap_err().message,
        "Cannot inline - the call at a.py:5:10 is in a class body, whose names the lambdas and comprehensions of scaled's body cannot see"
    );
    let project = TestProject::new(&[("a.py", "def f(a):\n    v = a + 1\n    return v *\n")]);
    assert_eq!(
        project
            .run(Some(("a.py", 1, 0)), &variable("v"))
            .unwrap_err()
            .message,
        "Cannot inline - a.py has syntax errors: fix them first"
    );
}

#[test]
fn names_read_through_strings_are_refused() {
    let project = TestProject::new(&[(
        "a.py",
        "def f(x):\n    return eval('x + 1')\n\nprint(f(2))\n",
    )]);
    assert_eq!(
        project
            .run(Some(("a.py", 0, 0)), &function("f"))
            .unwrap_err()
            .message,
        "Cannot inline - f calls eval() at 1:11: its names may be read through strings"
    );
}

#[test]
fn a_body_may_move_to_a_module_that_imports_its_names_alike() {
    let (after, _) = inlined_function(
        &[
            ("util.py", "import os.path\nfrom json import dumps as d\n\ndef show(p):\n    return d(os.path.basename(p))\n"),
            ("main.py", "import os.path\nfrom json import dumps as d\nfrom util import show\n\nprint(show('a/b'))\n"),
        ],
        "show",
    );
    assert_eq!(
        after["main.py"],
        "import os.path\nfrom json import dumps as d\n\nprint(d(os.path.basename('a/b')))\n"
    );
    let project = TestProject::new(&[
        (
            "util.py",
            "import json\n\ndef show(p):\n    return json.dumps(p)\n",
        ),
        (
            "main.py",
            "import simplejson as json\nfrom util import show\n\nprint(show(1))\n",
        ),
    ]);
    assert_eq!(
        project.run(Some(("main.py", 0, 0)), &function("show")).unwrap_err().message,
        "Cannot inline - show reads json of its module, which the call at main.py:3:6 does not see as the same"
    );
}

const TWO_TAXES: &str = "class Cart:\n    def total(self, rate):\n        tax = rate * 2\n        return tax\n\n\ndef other(cart):\n    tax = cart.total(0.1)\n    return tax\n";

#[test]
fn a_variable_is_named_by_its_function_or_found_in_the_one_scope_that_binds_it() {
    // The cursor at the top of the file sees no `tax`: the function names it.
    assert_eq!(
        inlined(TWO_TAXES, 0, "other.tax"),
        "class Cart:\n    def total(self, rate):\n        tax = rate * 2\n        return tax\n\n\ndef other(cart):\n    return cart.total(0.1)\n"
    );
    assert_eq!(
        inlined(TWO_TAXES, 0, "Cart.total.tax"),
        "class Cart:\n    def total(self, rate):\n        return rate * 2\n\n\ndef other(cart):\n    tax = cart.total(0.1)\n    return tax\n"
    );
    // Qualified with its module, from another file or no file at all.
    let project = TestProject::new(&[("pkg/shop.py", TWO_TAXES), ("b.py", "x = 1\n")]);
    for cursor in [Some(("b.py", 0, 0)), None] {
        let done = project
            .run(cursor, &variable("pkg.shop.other.tax"))
            .unwrap();
        assert!(project.after(&done)["pkg/shop.py"]
            .ends_with("def other(cart):\n    return cart.total(0.1)\n"));
    }
    // One scope binds it: found from anywhere in the file.
    let src = "def f():\n    base = 2\n    return base\n\n\nx = 1\n";
    assert_eq!(
        inlined(src, 5, "base"),
        "def f():\n    return 2\n\n\nx = 1\n"
    );
}

#[test]
fn a_variable_bound_in_several_scopes_is_ambiguous_and_typos_get_the_closest_names() {
    let project = TestProject::new(&[("a.py", TWO_TAXES)]);
    let e = project
        .run(Some(("a.py", 0, 0)), &variable("tax"))
        .unwrap_err();
    assert_eq!(e.kind, RefactorFailure::Ambiguous);
    assert_eq!(
        e.message,
        "Ambiguous: variable 'tax' is bound in 2 scopes of a.py: Cart.total.tax (a.py:2:8), other.tax (a.py:7:4); name one, or go into its scope"
    );
    assert_eq!(e.candidates, ["Cart.total.tax", "other.tax"]);
    // Inside one of the scopes the name is that scope's.
    assert!(
        inlined(TWO_TAXES, 8, "tax").ends_with("def other(cart):\n    return cart.total(0.1)\n")
    );
    assert_eq!(
        refusal(TWO_TAXES, 0, "Cart.totl.tax"),
        "Not found: function Cart.totl in a.py. Closest: Cart.total, Cart"
    );
    assert_eq!(
        refusal(TWO_TAXES, 0, "other.taxes"),
        "Not found: variable 'taxes' of other in a.py. Closest: tax"
    );
    let e = project.run(None, &variable("tax")).unwrap_err();
    assert_eq!(e.kind, RefactorFailure::InvalidArgument);
}

#[test]
fn a_module_variable_is_named_by_its_module_and_a_method_by_its_class() {
    let filters = "\
_scheme = \"http\"


def is_uri(value):
    return value.startswith(_scheme)
";
    let specifiers = "\
class Specifier:
    def _compare_equal(self, prospective, spec):
        x = prospective + spec
        return x == spec
";
    let project = TestProject::new(&[
        ("pkg/__init__.py", ""),
        ("pkg/filters.py", filters),
        ("pkg/specifiers.py", specifiers),
    ]);
    // the whole name is the module: its module-level variable
    let done = project
        .run(None, &variable("pkg.filters._scheme"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        project.after(&done)["pkg/filters.py"],
        "\n\ndef is_uri(value):\n    return value.startswith(\"http\")\n"
    );
    // a method named without its class: the qualified names that end so
    let e = project
        .run(
            Some(("pkg/specifiers.py", 0, 0)),
            &variable("_compare_equal.x"),
        )
        .unwrap_err();
    assert_eq!(
        e.message,
        "Not found: function _compare_equal in pkg/specifiers.py. Closest: Specifier._compare_equal"
    );
    assert_eq!(e.candidates, ["Specifier._compare_equal"]);
    // …and from another file, where the project defines it
    let e = project
        .run(
            Some(("pkg/filters.py", 0, 0)),
            &variable("_compare_equal.x"),
        )
        .unwrap_err();
    assert_eq!(
        e.message,
        "Not found: function _compare_equal in pkg/filters.py. Defined elsewhere: pkg.specifiers.Specifier._compare_equal.x"
    );
    let e = project
        .run(None, &variable("_compare_equal.x"))
        .unwrap_err();
    assert!(
        e.message
            .ends_with(". Closest: pkg.specifiers.Specifier._compare_equal.x"),
        "{}",
        e.message
    );
}

#[test]
fn a_module_variable_not_there_is_said_of_the_module() {
    let project = TestProject::new(&[("pkg/__init__.py", ""), ("pkg/m.py", "limit = 3\n")]);
    let e = project.run(None, &variable("pkg.m.limt")).unwrap_err();
    assert_eq!(
        e.message,
        "Not found: variable 'limt' at module level in pkg/m.py. Closest: limit"
    );
}

/// A value read as a receiver is inlined past a call that cannot reach
/// what it reads (a method of another object, given another attribute),
/// and the call is listed as assumed; a call that can reach it — a method
/// of the object, the object or a value read given to a call, a local
/// function, a call through an alias of the object, any call when the
/// object is a module's — still refuses.
#[test]
fn a_value_used_as_a_receiver_is_inlined_past_calls_that_cannot_reach_it() {
    let src = "class T:\n    def render(self, lines, xs):\n        t = self.a + self.b\n        lines.append(self.head)\n        return t.join(xs)\n";
    let project = TestProject::new(&[("a.py", src)]);
    let done = project
        .run(Some(("a.py", 2, 0)), &variable("t"))
        .unwrap_or_else(|e| panic!("{e}"));
    let whys: Vec<String> = done
        .assumed
        .iter()
        .map(|a| format!("{} {}", a.site.position, a.why))
        .collect();
    assert_eq!(
        whys,
        ["3:8 assumed: lines.append does not change self.a, self.b"]
    );
    assert_eq!(
        project.after(&done).remove("a.py").unwrap(),
        "class T:\n    def render(self, lines, xs):\n        lines.append(self.head)\n        return (self.a + self.b).join(xs)\n"
    );
    let reaching = [
        "        self.flush()\n",
        "        log(self)\n",
        "        log(self.a)\n",
        "        helper()\n",
        "        s.flush()\n",
    ];
    for between in reaching {
        let src = format!(
            "class T:\n    def render(self, xs, log):\n        s = self\n        def helper(): pass\n        t = self.a + self.b\n{between}        return t.join(xs)\n"
        );
        let refused = refusal(&src, 4, "t");
        assert!(
            refused.ends_with("may change them before t is read"),
            "{between}: {refused}"
        );
    }
}
