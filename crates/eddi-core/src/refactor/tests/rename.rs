use super::super::testing::TestProject;
use super::super::{RefactorFailure, Refactored, Refactoring, RenameKind, SitePolicy, Summary};

fn rename(symbol: &str, new: &str) -> Refactoring {
    Refactoring::Rename {
        kind: RenameKind::Symbol,
        symbol: symbol.into(),
        new_name: new.into(),
        include_text: false,
        sites: SitePolicy::Refuse,
    }
}

fn rename_with(symbol: &str, new: &str, sites: SitePolicy) -> Refactoring {
    Refactoring::Rename {
        kind: RenameKind::Symbol,
        symbol: symbol.into(),
        new_name: new.into(),
        include_text: false,
        sites,
    }
}

fn counts(r: &Refactored) -> (usize, usize) {
    match &r.summary {
        Summary::Renamed {
            files, references, ..
        } => (*files, *references),
        other => panic!("{other:?}"),
    }
}

fn class(symbol: &str, new: &str) -> Refactoring {
    Refactoring::Rename {
        kind: RenameKind::Class,
        symbol: symbol.into(),
        new_name: new.into(),
        include_text: false,
        sites: SitePolicy::Refuse,
    }
}

fn with_text(symbol: &str, new: &str) -> Refactoring {
    Refactoring::Rename {
        kind: RenameKind::Symbol,
        symbol: symbol.into(),
        new_name: new.into(),
        include_text: true,
        sites: SitePolicy::Refuse,
    }
}

/// The failure's kind and message.
fn refusal(
    p: &TestProject,
    current: Option<(&str, usize, usize)>,
    r: &Refactoring,
) -> (RefactorFailure, String) {
    let e = p.run(current, r).expect_err("refused");
    (e.kind, e.message)
}

fn sites(locations: &[crate::analysis::index::Location]) -> Vec<String> {
    locations.iter().map(|l| l.to_string()).collect()
}

#[test]
fn a_function_is_renamed_at_its_definition_imports_and_calls() {
    let p = TestProject::new(&[
        ("pkg/__init__.py", "from .a import old\n__all__ = [\"old\"]\n"),
        ("pkg/a.py", "def old(x):\n    return x\n\nold(1)\n"),
        ("b.py", "from pkg.a import old\nfrom pkg import old as alias\nimport pkg.a as m\n\nold(reverse=True)\nalias(2)\nm.old(3)\n"),
        ("c.py", "def old():\n    pass\nold()\n"),
    ]);
    let done = p.run(None, &rename("pkg.a.old", "new")).unwrap();
    assert_eq!(counts(&done), (3, 8));
    let after = p.after(&done);
    assert_eq!(
        after["pkg/__init__.py"],
        "from .a import new\n__all__ = [\"new\"]\n"
    );
    assert_eq!(after["pkg/a.py"], "def new(x):\n    return x\n\nnew(1)\n");
    assert_eq!(
        after["b.py"],
        "from pkg.a import new\nfrom pkg import new as alias\nimport pkg.a as m\n\nnew(reverse=True)\nalias(2)\nm.new(3)\n"
    );
    assert!(!after.contains_key("c.py"));
}

#[test]
fn an_explicit_super_is_renamed_in_a_method_and_outside_any_class() {
    let p = TestProject::new(&[(
        "shapes.py",
        "class Base:\n    def area(self):\n        return 0\n\n\nclass Square(Base):\n    def area(self):\n        return super(Square, self).area() + 1\n\n\ndef base_area(sq):\n    return super(Square, sq).area()\n",
    )]);
    let done = p.run(None, &rename("Base.area", "surface")).unwrap();
    assert_eq!(
        p.after(&done)["shapes.py"],
        "class Base:\n    def surface(self):\n        return 0\n\n\nclass Square(Base):\n    def surface(self):\n        return super(Square, self).surface() + 1\n\n\ndef base_area(sq):\n    return super(Square, sq).surface()\n"
    );
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
}

#[test]
fn a_method_is_renamed_with_its_hierarchy_super_calls_and_typed_receivers() {
    let p = TestProject::new(&[
        (
            "shapes.py",
            "class Base:\n    def area(self):\n        return 0\n\n    def report(self):\n        return self.area()\n\n\nclass Square(Base):\n    def area(self):\n        return super().area() + 1\n\n\nclass Circle(Base):\n    def area(self):\n        return 3\n\n\nclass Other:\n    def area(self):\n        return -1\n",
        ),
        (
            "use.py",
            "from shapes import Square, Other\n\n\ndef make() -> Square:\n    return Square()\n\n\ns = Square()\ns.area()\nmake().area()\nOther().area()\n\n\ndef f(obj):\n    return obj.area()\n",
        ),
    ]);
    // `obj.area()` may be an Other's: refused unless told
    let refused = p
        .run(None, &rename("Square.area", "surface"))
        .expect_err("a possible use");
    assert!(
        refused.message.contains("use.py:14:15 (an attribute of a value of unknown type, and shapes.Other has a member 'area' too)"),
        "{}",
        refused.message
    );
    let done = p
        .run(
            None,
            &rename_with("Square.area", "surface", SitePolicy::OnlyProven),
        )
        .unwrap();
    assert_eq!(
        done.evidence.also,
        vec!["shapes.Base.area", "shapes.Circle.area"]
    );
    let after = p.after(&done);
    assert_eq!(
        after["shapes.py"],
        "class Base:\n    def surface(self):\n        return 0\n\n    def report(self):\n        return self.surface()\n\n\nclass Square(Base):\n    def surface(self):\n        return super().surface() + 1\n\n\nclass Circle(Base):\n    def surface(self):\n        return 3\n\n\nclass Other:\n    def area(self):\n        return -1\n"
    );
    assert_eq!(
        after["use.py"],
        "from shapes import Square, Other\n\n\ndef make() -> Square:\n    return Square()\n\n\ns = Square()\ns.surface()\nmake().surface()\nOther().area()\n\n\ndef f(obj):\n    return obj.area()\n"
    );
    assert_eq!(counts(&done), (2, 7));
    let left: Vec<String> = done
        .left_alone
        .iter()
        .map(|l| format!("{} {}", l.site, l.why))
        .collect();
    assert_eq!(
        left,
        vec!["use.py:14:15 an attribute of a value of unknown type, and shapes.Other has a member 'area' too: it may or may not be shapes.Square.area"]
    );
}

#[test]
fn attributes_class_and_instance_are_renamed_through_self_cls_and_the_class() {
    let p = TestProject::new(&[(
        "m.py",
        "class Counter:\n    step = 1\n\n    def __init__(self):\n        self.total = 0\n\n    def bump(self):\n        self.total += self.step\n        return self.total\n\n    @classmethod\n    def make(cls):\n        return cls.step\n\n\nc = Counter()\nc.total = Counter.step\n",
    )]);
    let after = p.after(&p.run(None, &rename("Counter.total", "count")).unwrap());
    assert_eq!(
        after["m.py"],
        "class Counter:\n    step = 1\n\n    def __init__(self):\n        self.count = 0\n\n    def bump(self):\n        self.count += self.step\n        return self.count\n\n    @classmethod\n    def make(cls):\n        return cls.step\n\n\nc = Counter()\nc.count = Counter.step\n"
    );
    let after = p.after(&p.run(None, &rename("Counter.step", "stride")).unwrap());
    assert_eq!(
        after["m.py"],
        "class Counter:\n    stride = 1\n\n    def __init__(self):\n        self.total = 0\n\n    def bump(self):\n        self.total += self.stride\n        return self.total\n\n    @classmethod\n    def make(cls):\n        return cls.stride\n\n\nc = Counter()\nc.total = Counter.stride\n"
    );
}

#[test]
fn a_module_variable_is_renamed_at_global_statements_rebinding_and_star_imports() {
    let p = TestProject::new(&[
        (
            "conf.py",
            "limit = 1\n\n\ndef raise_it():\n    global limit\n    limit = limit + 1\n\n\nfor limit in range(3):\n    pass\n",
        ),
        ("use.py", "from conf import *\n\nprint(limit)\n\n\ndef g(limit):\n    return limit\n"),
    ]);
    let after = p.after(&p.run(None, &rename("conf.limit", "cap")).unwrap());
    assert_eq!(
        after["conf.py"],
        "cap = 1\n\n\ndef raise_it():\n    global cap\n    cap = cap + 1\n\n\nfor cap in range(3):\n    pass\n"
    );
    assert_eq!(
        after["use.py"],
        "from conf import *\n\nprint(cap)\n\n\ndef g(limit):\n    return limit\n"
    );
}

#[test]
fn rename_class_renames_a_class_and_refuses_anything_else_naming_the_symbol_form() {
    let p = TestProject::new(&[
        (
            "models.py",
            "class User:\n    pass\n\n\ndef helper():\n    return User()\n",
        ),
        (
            "views.py",
            "import models\nfrom models import User as U\n\nx: models.User = U()\n",
        ),
    ]);
    let done = p.run(None, &class("User", "Account")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["models.py"],
        "class Account:\n    pass\n\n\ndef helper():\n    return Account()\n"
    );
    assert_eq!(
        after["views.py"],
        "import models\nfrom models import Account as U\n\nx: models.Account = U()\n"
    );
    assert_eq!(
        refusal(&p, None, &class("helper", "aid")),
        (
            RefactorFailure::NotFound,
            "Not found: class 'helper': models.helper at models.py:4 is a function. Use: Refactor RenameSymbol helper aid".into()
        )
    );
}

#[test]
fn bad_new_names_are_invalid_arguments() {
    let p = TestProject::new(&[("a.py", "def f():\n    pass\n")]);
    assert_eq!(
        refusal(&p, None, &rename("f", "class")),
        (
            RefactorFailure::InvalidArgument,
            "'class' is a Python keyword: choose another name".into()
        )
    );
    assert_eq!(
        refusal(&p, None, &rename("f", "2x")),
        (
            RefactorFailure::InvalidArgument,
            "Not a valid Python name: '2x': use letters, digits and _, not starting with a digit"
                .into()
        )
    );
    assert_eq!(
        refusal(&p, None, &rename("f", "f")).0,
        RefactorFailure::InvalidArgument
    );
}

#[test]
fn name_conflicts_are_refused_naming_the_place() {
    let p = TestProject::new(&[
        ("a.py", "def old():\n    pass\n\n\ndef taken():\n    pass\n\n\ndef user():\n    fresh = 1\n    return old() + fresh\n"),
        ("b.py", "from a import old\nfrom c import other\n\nold()\nother()\n"),
        ("c.py", "def other():\n    pass\n"),
        ("k.py", "class K:\n    def m(self):\n        pass\n\n    def n(self):\n        pass\n\n\nclass S(K):\n    def o(self):\n        pass\n"),
    ]);
    assert_eq!(
        refusal(&p, None, &rename("a.old", "taken")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: a.py:4 module a already binds 'taken'".into()
        )
    );
    assert_eq!(
        refusal(&p, None, &rename("a.old", "fresh")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: a.py:9 binds 'fresh' in function user, where a.py:10 uses 'old'"
                .into()
        )
    );
    assert_eq!(
        refusal(&p, None, &rename("a.old", "other")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: b.py:1 already binds 'other' in the module".into()
        )
    );
    assert_eq!(
        refusal(&p, None, &rename("K.m", "n")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: k.py:4 k.K.n already has a member 'n' (k.K would see both)"
                .into()
        )
    );
    assert_eq!(
        refusal(&p, None, &rename("K.m", "o")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: k.py:9 k.S.o already has a member 'o' (k.S would see both)"
                .into()
        )
    );
    // a builtin nobody uses here is free
    assert!(p.run(None, &rename("a.old", "print")).is_ok());
}

#[test]
fn a_new_name_that_shadows_a_builtin_in_use_is_a_conflict() {
    let p = TestProject::new(&[("a.py", "def old():\n    return len([])\n")]);
    assert_eq!(
        refusal(&p, None, &rename("old", "len")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: a.py:1 uses 'len' (the builtin), which the renamed 'old' would shadow".into()
        )
    );
}

#[test]
fn lookup_takes_the_current_file_first_and_lists_ambiguous_candidates() {
    let p = TestProject::new(&[
        ("a.py", "def helper():\n    pass\n\nhelper()\n"),
        ("b.py", "def helper():\n    pass\n\nhelper()\n"),
    ]);
    let (kind, message) = refusal(&p, None, &rename("helper", "aid"));
    assert_eq!(kind, RefactorFailure::Ambiguous);
    assert_eq!(
        message,
        "Ambiguous symbol 'helper': a.helper at a.py:0:0, b.helper at b.py:0:0; use a qualified name"
    );
    let e = p.run(None, &rename("helper", "aid")).unwrap_err();
    assert_eq!(e.candidates, vec!["a.helper", "b.helper"]);
    let after = p.after(
        &p.run(Some(("b.py", 0, 0)), &rename("helper", "aid"))
            .unwrap(),
    );
    assert_eq!(after.keys().collect::<Vec<_>>(), vec!["b.py"]);
    assert_eq!(after["b.py"], "def aid():\n    pass\n\naid()\n");
}

#[test]
fn modules_and_special_names_are_refused() {
    let p = TestProject::new(&[
        ("pkg/__init__.py", ""),
        (
            "pkg/mod.py",
            "class C:\n    def __init__(self):\n        pass\n",
        ),
    ]);
    assert_eq!(
        refusal(&p, None, &rename("pkg.mod", "other")),
        (
            RefactorFailure::Refused,
            "'pkg.mod' is a module (pkg/mod.py): renaming a module renames its file and every import of it, which RenameSymbol does not do; rename a symbol in it instead".into()
        )
    );
    assert_eq!(
        refusal(&p, None, &rename("C.__init__", "setup")).0,
        RefactorFailure::Refused
    );
}

#[test]
fn mentions_are_reported_and_changed_only_with_include_text_as_whole_words() {
    let p = TestProject::new(&[(
        "m.py",
        "def fetch():\n    \"\"\"fetch data; see fetcher.\"\"\"\n    return 1\n\n\n# call fetch once\nx = fetch()\ny = getattr(None, \"fetch\", None)\n",
    )]);
    let done = p.run(None, &rename("fetch", "load")).unwrap();
    assert_eq!(sites(&done.mentions), vec!["m.py:1:7", "m.py:5:7"]);
    assert_eq!(
        done.left_alone
            .iter()
            .map(|l| l.site.to_string())
            .collect::<Vec<_>>(),
        vec!["m.py:7:19"]
    );
    assert_eq!(
        p.after(&done)["m.py"],
        "def load():\n    \"\"\"fetch data; see fetcher.\"\"\"\n    return 1\n\n\n# call fetch once\nx = load()\ny = getattr(None, \"fetch\", None)\n"
    );
    let done = p.run(None, &with_text("fetch", "load")).unwrap();
    assert!(done.mentions.is_empty());
    assert_eq!(counts(&done), (1, 4));
    assert_eq!(
        p.after(&done)["m.py"],
        "def load():\n    \"\"\"load data; see fetcher.\"\"\"\n    return 1\n\n\n# call load once\nx = load()\ny = getattr(None, \"fetch\", None)\n"
    );
}

#[test]
fn doctest_code_is_renamed_when_it_is_the_symbol() {
    let p = TestProject::new(&[(
        "m.py",
        "def double(x):\n    \"\"\"Twice x: double it.\n\n    >>> double(2)\n    4\n    >>> from m import double\n    >>> m.double(1) + other.double(1)\n    2\n    \"\"\"\n    return 2 * x\n",
    )]);
    let done = p.run(None, &rename("double", "twice")).unwrap();
    assert_eq!(
        p.after(&done)["m.py"],
        "def twice(x):\n    \"\"\"Twice x: double it.\n\n    >>> twice(2)\n    4\n    >>> from m import twice\n    >>> m.twice(1) + other.double(1)\n    2\n    \"\"\"\n    return 2 * x\n"
    );
    assert_eq!(sites(&done.mentions), vec!["m.py:1:16", "m.py:6:28"]);
}

#[test]
fn the_stub_next_to_the_module_is_renamed_too() {
    let p = TestProject::new(&[
        ("lib.py", "class Box:\n    def open(self):\n        return 1\n\n\ndef make():\n    return Box()\n"),
        ("lib.pyi", "class Box:\n    def open(self) -> int: ...\n    def close(self) -> None: ...\n\ndef make() -> Box: ...\n"),
        ("use.py", "from lib import Box\n\nBox().open()\n"),
    ]);
    let done = p.run(None, &class("Box", "Crate")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["lib.pyi"],
        "class Crate:\n    def open(self) -> int: ...\n    def close(self) -> None: ...\n\ndef make() -> Crate: ...\n"
    );
    assert_eq!(after["use.py"], "from lib import Crate\n\nCrate().open()\n");
    let after = p.after(&p.run(None, &rename("Box.open", "unbox")).unwrap());
    assert_eq!(
        after["lib.pyi"],
        "class Box:\n    def unbox(self) -> int: ...\n    def close(self) -> None: ...\n\ndef make() -> Box: ...\n"
    );
}

#[test]
fn shadowing_names_and_other_scopes_are_left_as_they_are() {
    let p = TestProject::new(&[(
        "m.py",
        "def item():\n    return 1\n\n\ndef uses():\n    return item()\n\n\ndef shadows(item):\n    return item\n\n\ndef nested():\n    def item():\n        return 2\n    return item()\n\n\nclass K:\n    item = 3\n\n    def m(self):\n        return item() + self.item\n",
    )]);
    let after = p.after(&p.run(None, &rename("m.item", "entry")).unwrap());
    assert_eq!(
        after["m.py"],
        "def entry():\n    return 1\n\n\ndef uses():\n    return entry()\n\n\ndef shadows(item):\n    return item\n\n\ndef nested():\n    def item():\n        return 2\n    return item()\n\n\nclass K:\n    item = 3\n\n    def m(self):\n        return entry() + self.item\n"
    );
}

#[test]
fn crlf_files_and_decorators_keep_their_shape() {
    let p = TestProject::new(&[
        (
            "deco.py",
            "def traced(f):\r\n    return f\r\n\r\n\r\n@traced\r\ndef g():\r\n    pass\r\n",
        ),
        (
            "use.py",
            "import deco\r\n\r\n\r\n@deco.traced\r\ndef h():\r\n    pass\r\n",
        ),
    ]);
    let after = p.after(&p.run(None, &rename("traced", "logged")).unwrap());
    assert_eq!(
        after["deco.py"],
        "def logged(f):\r\n    return f\r\n\r\n\r\n@logged\r\ndef g():\r\n    pass\r\n"
    );
    assert_eq!(
        after["use.py"],
        "import deco\r\n\r\n\r\n@deco.logged\r\ndef h():\r\n    pass\r\n"
    );
}

#[test]
fn properties_nested_functions_async_methods_and_self_aliases() {
    let p = TestProject::new(&[
        (
            "p.py",
            "class P:\n    @property\n    def size(self):\n        return self._size\n\n    @size.setter\n    def size(self, v):\n        self._size = v\n\n    async def fetch(self):\n        return await self.fetch()\n\n\ndef outer():\n    def inner():\n        return 1\n    return inner()\n\n\nx = P()\nx.size = 3\n",
        ),
        ("q.py", "from p import outer as outer, P\n\nouter()\nP().size\n"),
    ]);
    let after = p.after(&p.run(None, &rename("P.size", "extent")).unwrap());
    assert_eq!(
        after["p.py"],
        "class P:\n    @property\n    def extent(self):\n        return self._size\n\n    @extent.setter\n    def extent(self, v):\n        self._size = v\n\n    async def fetch(self):\n        return await self.fetch()\n\n\ndef outer():\n    def inner():\n        return 1\n    return inner()\n\n\nx = P()\nx.extent = 3\n"
    );
    assert_eq!(
        after["q.py"],
        "from p import outer as outer, P\n\nouter()\nP().extent\n"
    );
    let after = p.after(&p.run(None, &rename("P.fetch", "load")).unwrap());
    assert!(after["p.py"].contains("    async def load(self):\n        return await self.load()\n"));
    let after = p.after(&p.run(None, &rename("outer.inner", "core")).unwrap());
    assert!(after["p.py"]
        .contains("def outer():\n    def core():\n        return 1\n    return core()\n"));
    let after = p.after(&p.run(None, &rename("p.outer", "wrap")).unwrap());
    assert_eq!(
        after["q.py"],
        "from p import wrap as wrap, P\n\nwrap()\nP().size\n"
    );
}

#[test]
fn a_name_bound_to_the_symbol_in_one_branch_only_keeps_its_name_with_an_alias() {
    let p = TestProject::new(&[
        ("fast.py", "def parse(s):\n    return s\n"),
        ("slow.py", "def parse(s):\n    return s\n"),
        ("use.py", "try:\n    from fast import parse\nexcept ImportError:\n    from slow import parse\n\nparse('x')\n"),
        ("more.py", "from use import parse\n\nparse('y')\n"),
    ]);
    let done = p.run(None, &rename("fast.parse", "read")).unwrap();
    // Renaming the use would leave it unbound whenever `fast` imports.
    assert_eq!(
        p.after(&done)["use.py"],
        "try:\n    from fast import read as parse\nexcept ImportError:\n    from slow import parse\n\nparse('x')\n"
    );
    assert!(!p.after(&done).contains_key("more.py"));
    assert_eq!(
        done.left_alone
            .iter()
            .map(|l| format!("{} {}", l.site, l.why))
            .collect::<Vec<_>>(),
        vec![
            "more.py:0:16 it may also denote another definition: it may or may not be fast.parse",
            "more.py:2:0 it may also denote another definition: it may or may not be fast.parse"
        ]
    );
}

#[test]
fn keyword_arguments_relative_imports_and_module_aliases() {
    let p = TestProject::new(&[
        ("pkg/__init__.py", ""),
        ("pkg/core.py", "def size(size=0):\n    return size\n"),
        ("pkg/api.py", "from . import core as c\nfrom .core import size\n\n\ndef total(size):\n    return c.size(size=size) + size\n"),
    ]);
    let after = p.after(&p.run(None, &rename("pkg.core.size", "length")).unwrap());
    assert_eq!(
        after["pkg/core.py"],
        "def length(size=0):\n    return size\n"
    );
    assert_eq!(
        after["pkg/api.py"],
        "from . import core as c\nfrom .core import length\n\n\ndef total(size):\n    return c.length(size=size) + size\n"
    );
}

#[test]
fn a_caught_exception_is_an_instance_of_the_class_it_was_caught_as() {
    // jmespath: `except exceptions.IncompleteExpressionError as e:
    // e.set_expression(expression)`
    let p = TestProject::new(&[
        (
            "errors.py",
            "class ParseError(Exception):\n    pass\n\n\nclass Incomplete(ParseError):\n    def set_expression(self, expression):\n        self.expression = expression\n",
        ),
        (
            "parser.py",
            "import errors\n\n\ndef parse(expression):\n    try:\n        raise errors.Incomplete()\n    except errors.Incomplete as e:\n        e.set_expression(expression)\n        raise\n    except (ValueError, errors.ParseError) as other:\n        other.set_expression(expression)\n\n\ndef again(expression):\n    try:\n        pass\n    except ValueError as e:\n        e.args = ()\n    except errors.Incomplete as e:\n        e.set_expression(expression)\n",
        ),
    ]);
    let done = p
        .run(None, &rename("errors.Incomplete.set_expression", "attach"))
        .unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["parser.py"],
        "import errors\n\n\ndef parse(expression):\n    try:\n        raise errors.Incomplete()\n    except errors.Incomplete as e:\n        e.attach(expression)\n        raise\n    except (ValueError, errors.ParseError) as other:\n        other.attach(expression)\n\n\ndef again(expression):\n    try:\n        pass\n    except ValueError as e:\n        e.args = ()\n    except errors.Incomplete as e:\n        e.attach(expression)\n",
        "a tuple of classes types nothing, but no other class has the member: inferred"
    );
    let inferred: Vec<String> = done
        .evidence
        .inferred
        .iter()
        .map(|u| u.site.to_string())
        .collect();
    assert_eq!(inferred, vec!["parser.py:10:14"]);
}

#[test]
fn a_package_that_imports_its_own_submodule_still_reaches_its_members() {
    // cachetools: `from . import keys` in `__init__`, then `keys.hashkey`
    // there and `pkg.keys.hashkey` / `from pkg import keys` elsewhere
    let p = TestProject::new(&[
        (
            "pkg/__init__.py",
            "from . import keys\nfrom pkg import extra\n\n\ndef cached(key=keys.hashkey):\n    return key(extra.more())\n",
        ),
        ("pkg/keys.py", "__all__ = (\"hashkey\",)\n\n\ndef hashkey(*args):\n    return args\n"),
        ("pkg/extra.py", "def more():\n    return 1\n"),
        (
            "main.py",
            "import pkg.keys\nfrom pkg import keys as k\n\nprint(pkg.keys.hashkey(1), k.hashkey(2), pkg.extra.more())\n",
        ),
    ]);
    let after = p.after(
        &p.run(None, &rename("pkg.keys.hashkey", "make_key"))
            .unwrap(),
    );
    assert_eq!(
        after["pkg/__init__.py"],
        "from . import keys\nfrom pkg import extra\n\n\ndef cached(key=keys.make_key):\n    return key(extra.more())\n"
    );
    assert_eq!(
        after["pkg/keys.py"],
        "__all__ = (\"make_key\",)\n\n\ndef make_key(*args):\n    return args\n"
    );
    assert_eq!(
        after["main.py"],
        "import pkg.keys\nfrom pkg import keys as k\n\nprint(pkg.keys.make_key(1), k.make_key(2), pkg.extra.more())\n"
    );
    let after = p.after(&p.run(None, &rename("pkg.extra.more", "most")).unwrap());
    assert_eq!(
        after["main.py"],
        "import pkg.keys\nfrom pkg import keys as k\n\nprint(pkg.keys.hashkey(1), k.hashkey(2), pkg.extra.most())\n"
    );
}

#[test]
fn a_class_hierarchy_with_a_base_outside_the_project_is_said() {
    let p = TestProject::new(&[(
        "e.py",
        "import threading\n\n\nclass Worker(threading.Thread):\n    def describe(self):\n        return 'x'\n",
    )]);
    // threading.Thread's members are known: `describe` is not one
    let done = p.run(None, &rename("Worker.describe", "explain")).unwrap();
    assert_eq!(said(&done), Vec::<String>::new());
    let p = TestProject::new(&[(
        "e.py",
        "import framework


class Worker(framework.Thread):
    def describe(self):
        return 'x'
",
    )]);
    let done = p
        .run(
            None,
            &rename_with("Worker.describe", "explain", SitePolicy::OnlyProven),
        )
        .unwrap();
    assert_eq!(
        said(&done),
        vec!["e.py:3:6 e.Worker derives from a class outside the project, which may define or call 'describe' too"]
    );
}

fn said(done: &Refactored) -> Vec<String> {
    done.left_alone
        .iter()
        .map(|l| format!("{} {}", l.site, l.why))
        .collect()
}

#[test]
fn a_builtin_base_is_said_only_when_it_has_the_member() {
    let p = TestProject::new(&[(
        "b.py",
        "class Plain(object):\n    def describe(self):\n        return 'x'\n\n\nclass Failure(Exception):\n    def describe(self):\n        return 'y'\n\n\nclass Table(dict):\n    def get(self, key):\n        return 1\n",
    )]);
    let plain = p.run(None, &rename("Plain.describe", "explain")).unwrap();
    assert_eq!(said(&plain), Vec::<String>::new());
    let failure = p.run(None, &rename("Failure.describe", "explain")).unwrap();
    assert_eq!(said(&failure), Vec::<String>::new());
    assert_eq!(
        refusal(&p, None, &rename("Table.get", "fetch")),
        (
            RefactorFailure::Refused,
            "Cannot rename b.Table.get: b.Table overrides 'get' of dict, outside the project, which calls it by that name (as does every caller that sees a dict); nothing was changed".into()
        )
    );
}

#[test]
fn a_mixin_beside_the_class_in_a_subclass_is_renamed_with_it() {
    // itsdangerous: `URLSafeTimedSerializer(URLSafeSerializerMixin,
    // TimedSerializer)`, where the mixin's `load_payload` overrides
    // `Serializer.load_payload` and calls it through `super()`
    let p = TestProject::new(&[(
        "s.py",
        "class Serializer:\n    def load_payload(self, p):\n        return p\n\n\nclass Timed(Serializer):\n    def loads(self, s):\n        return self.load_payload(s)\n\n\nclass URLSafeMixin:\n    def load_payload(self, p):\n        return super().load_payload(p.strip())\n\n\nclass URLSafeTimed(URLSafeMixin, Timed):\n    pass\n",
    )]);
    let after = p.after(
        &p.run(None, &rename("s.Serializer.load_payload", "decode"))
            .unwrap(),
    );
    assert_eq!(
        after["s.py"],
        "class Serializer:\n    def decode(self, p):\n        return p\n\n\nclass Timed(Serializer):\n    def loads(self, s):\n        return self.decode(s)\n\n\nclass URLSafeMixin:\n    def decode(self, p):\n        return super().decode(p.strip())\n\n\nclass URLSafeTimed(URLSafeMixin, Timed):\n    pass\n"
    );
}

#[test]
fn a_generic_base_is_the_class_it_subscripts() {
    // itsdangerous: `class TimedSerializer(Serializer[_TSerialized])`, and
    // `def loads(  # type: ignore[override]` before `self`
    let p = TestProject::new(&[(
        "g.py",
        "import typing as t\n\nT = t.TypeVar('T')\n\n\nclass Serializer(t.Generic[T]):\n    def load_payload(self, p):\n        return p\n\n\nclass Timed(Serializer[T]):\n    def loads(  # type: ignore[override]\n        self, s\n    ):\n        return self.load_payload(s)\n",
    )]);
    let after = p.after(
        &p.run(None, &rename("g.Serializer.load_payload", "decode"))
            .unwrap(),
    );
    assert_eq!(
        after["g.py"],
        "import typing as t\n\nT = t.TypeVar('T')\n\n\nclass Serializer(t.Generic[T]):\n    def decode(self, p):\n        return p\n\n\nclass Timed(Serializer[T]):\n    def loads(  # type: ignore[override]\n        self, s\n    ):\n        return self.decode(s)\n"
    );
}

#[test]
fn a_member_reached_by_a_computed_name_is_refused() {
    // boltons' statsutils: `delattr(Stats, '_calc_' + attr_name)` at
    // module level; a visitor's `getattr(self, f"visit_{kind}")`
    let p = TestProject::new(&[
        (
            "stats.py",
            "class Stats:\n    def _calc_mean(self):\n        return 1\n\n    def describe(self):\n        return 2\n\n\nfor name in ['mean']:\n    delattr(Stats, '_calc_' + name)\n",
        ),
        (
            "visit.py",
            "class Visitor:\n    def visit(self, node):\n        return getattr(self, f\"visit_{node.kind}\")(node)\n\n    def visit_Name(self, node):\n        return node\n",
        ),
    ]);
    let (kind, message) = refusal(&p, None, &rename("stats.Stats._calc_mean", "_mean"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert!(
        message.starts_with("Cannot rename stats.Stats._calc_mean: stats.py:9 reaches attributes by a name built from '_calc_' (delattr(Stats, '_calc_'"),
        "{message}"
    );
    assert_eq!(
        refusal(&p, None, &rename("visit.Visitor.visit_Name", "on_name")).0,
        RefactorFailure::Refused
    );
    // a member whose name the computed names cannot build is renamed
    assert!(p
        .run(None, &rename("stats.Stats.describe", "explain"))
        .is_ok());
    assert!(p.run(None, &rename("visit.Visitor.visit", "walk")).is_ok());
}

#[test]
fn a_member_of_a_class_an_import_may_replace_is_refused() {
    // boltons' urlutils keeps a copy of OrderedMultiDict and then imports
    // the real one over it when it can
    let p = TestProject::new(&[
        ("dictutils.py", "class OrderedMultiDict(dict):\n    def add(self, k, v):\n        pass\n"),
        (
            "urlutils.py",
            "class OrderedMultiDict(dict):\n    def add(self, k, v):\n        pass\n\n\ntry:\n    from dictutils import OrderedMultiDict\nexcept ImportError:\n    pass\n\nOrderedMultiDict().add(1, 2)\n",
        ),
    ]);
    assert_eq!(
        refusal(&p, None, &rename("urlutils.OrderedMultiDict.add", "put")),
        (
            RefactorFailure::Refused,
            "Cannot rename urlutils.OrderedMultiDict.add: an import at urlutils.py:6 binds 'OrderedMultiDict' too, so its uses may reach another class, whose 'add' would stay; nothing was changed".into()
        )
    );
}

#[test]
fn an_override_of_a_standard_library_base_member_is_refused() {
    // cachetools: `class Cache(collections.abc.MutableMapping)` overrides
    // `pop`, `get`, `setdefault`; renaming one leaves the base's under the
    // old name, which callers through the base reach
    let p = TestProject::new(&[
        (
            "c.py",
            "import collections\nimport collections.abc\nimport datetime\nfrom threading import Thread\n\n\nclass Cache(collections.abc.MutableMapping):\n    def pop(self, key):\n        return 1\n\n    def describe(self):\n        return 2\n\n\nclass LRU(Cache):\n    def pop(self, key):\n        return 3\n\n    def popitem(self):\n        return 4\n\n\nclass Worker(Thread):\n    def run(self):\n        pass\n\n\nclass UTC(datetime.tzinfo):\n    def utcoffset(self, dt):\n        return None\n",
        ),
    ]);
    assert_eq!(
        refusal(&p, None, &rename("c.LRU.pop", "take")),
        (
            RefactorFailure::Refused,
            "Cannot rename c.LRU.pop: c.Cache overrides 'pop' of collections.abc.MutableMapping, outside the project, which calls it by that name (as does every caller that sees a collections.abc.MutableMapping); nothing was changed".into()
        )
    );
    for (method, new) in [("c.Worker.run", "work"), ("c.UTC.utcoffset", "offset")] {
        assert_eq!(
            refusal(&p, None, &rename(method, new)).0,
            RefactorFailure::Refused,
            "{method}"
        );
    }
    // `Cache` does not define `popitem`: `LRU`'s overrides the base's
    assert_eq!(
        refusal(&p, None, &rename("c.LRU.popitem", "evict")).1,
        "Cannot rename c.LRU.popitem: c.LRU overrides 'popitem' of collections.abc.MutableMapping, outside the project, which calls it by that name (as does every caller that sees a collections.abc.MutableMapping); nothing was changed"
    );
    // a member the base does not have is renamed (and the base is said)
    let done = p.run(None, &rename("c.Cache.describe", "explain")).unwrap();
    assert_eq!(counts(&done).0, 1);
}

#[test]
fn a_star_imported_name_that_the_new_name_would_shadow_is_a_conflict() {
    let p = TestProject::new(&[
        ("m.py", "def old():\n    pass\n"),
        (
            "b.py",
            "from m import *\n\n\ndef new():\n    pass\n\n\nold()\n",
        ),
    ]);
    assert_eq!(
        refusal(&p, None, &rename("m.old", "new")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: b.py:3 binds 'new' in the module, where b.py:7 uses 'old'"
                .into()
        )
    );
}

#[test]
fn forward_references_in_annotations_are_renamed_other_strings_are_mentions() {
    let p = TestProject::new(&[
        ("models.py", "class User:\n    def clone(self) -> \"User\":\n        return self\n\n\nlabels = {\"User\": 1}\n"),
        ("views.py", "import models\n\n\ndef show(u: \"models.User\", v: \"list[User]\") -> None:\n    pass\n"),
    ]);
    let done = p.run(None, &class("models.User", "Account")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["models.py"],
        "class Account:\n    def clone(self) -> \"Account\":\n        return self\n\n\nlabels = {\"User\": 1}\n"
    );
    assert_eq!(
        after["views.py"],
        "import models\n\n\ndef show(u: \"models.Account\", v: \"list[User]\") -> None:\n    pass\n"
    );
    assert_eq!(sites(&done.mentions), vec!["views.py:3:36"]);
    // a dict key is data, reported apart
    assert_eq!(done.data_strings[0].site.to_string(), "models.py:5:11");
}

#[test]
fn a_module_variable_bound_to_the_builtin_of_its_name_keeps_the_builtin() {
    let p = TestProject::new(&[
        (
            "pkg/__init__.py",
            "sorted = sorted\n\n\ndef top(xs):\n    return sorted(xs)[0]\n",
        ),
        ("b.py", "import pkg\n\npkg.sorted([2, 1])\n"),
    ]);
    let done = p.run(None, &rename("pkg.sorted", "arranged")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["pkg/__init__.py"],
        "arranged = sorted\n\n\ndef top(xs):\n    return arranged(xs)[0]\n"
    );
    assert_eq!(after["b.py"], "import pkg\n\npkg.arranged([2, 1])\n");
}

#[test]
fn a_submodule_named_in_its_package_init_after_importing_from_it_is_followed() {
    let p = TestProject::new(&[
        ("pkg/__init__.py", "from .core import *\n\ncore.helper()\n"),
        ("pkg/core.py", "def helper():\n    pass\n"),
    ]);
    let done = p.run(None, &rename("pkg.core.helper", "assist")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["pkg/__init__.py"],
        "from .core import *\n\ncore.assist()\n"
    );
    assert_eq!(after["pkg/core.py"], "def assist():\n    pass\n");
}

#[test]
fn a_variable_that_an_import_binds_too_is_refused() {
    let p = TestProject::new(&[(
        "t.py",
        "try:\n    import wcwidth\nexcept ImportError:\n    wcwidth = None\n\nWIDE = wcwidth is not None\n",
    )]);
    assert_eq!(
        refusal(&p, None, &rename("t.wcwidth", "wcw")),
        (
            RefactorFailure::Refused,
            "Cannot rename t.wcwidth: an import at t.py:1 binds 'wcwidth' too, which renaming the definition would leave; import it under the new name first ('import … as wcw')"
                .into()
        )
    );
}

#[test]
fn a_fallback_class_that_an_import_binds_too_is_refused() {
    let p = TestProject::new(&[(
        "c.py",
        "try:\n    from contextlib import nullcontext as _null\nexcept ImportError:\n    class _null(object):\n        pass\n",
    )]);
    assert_eq!(
        refusal(&p, None, &class("c._null", "Null")),
        (
            RefactorFailure::Refused,
            "Cannot rename c._null: an import at c.py:1 binds '_null' too, which renaming the definition would leave; import it under the new name first ('import … as Null')"
                .into()
        )
    );
}

#[test]
fn a_module_that_imports_the_symbol_and_rebinds_its_name_keeps_the_name_with_an_alias() {
    // dateutil/parser/__init__.py: the package re-exports a deprecated
    // wrapper of the private class under the class's name.
    let p = TestProject::new(&[
        (
            "pkg/__init__.py",
            "def _deprecated(c):\n    class Wrapped(c):\n        pass\n    return Wrapped\n\n\nfrom ._impl import _lexer, other\n\n_lexer = _deprecated(_lexer)\n__all__ = ['_lexer']\n",
        ),
        ("pkg/_impl.py", "class _lexer:\n    pass\n\n\nother = _lexer()\n"),
        (
            "t.py",
            "from pkg import _lexer\nfrom pkg._impl import _lexer as direct\n\n_lexer('x')\ndirect('y')\n",
        ),
    ]);
    let done = p.run(None, &class("pkg._impl._lexer", "Lexer")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["pkg/__init__.py"],
        "def _deprecated(c):\n    class Wrapped(c):\n        pass\n    return Wrapped\n\n\nfrom ._impl import Lexer as _lexer, other\n\n_lexer = _deprecated(_lexer)\n__all__ = ['_lexer']\n",
        "the package's name is its wrapper's: it stays"
    );
    assert_eq!(
        after["pkg/_impl.py"],
        "class Lexer:\n    pass\n\n\nother = Lexer()\n"
    );
    assert_eq!(
        after["t.py"],
        "from pkg import _lexer\nfrom pkg._impl import Lexer as direct\n\n_lexer('x')\ndirect('y')\n",
        "the package's wrapper keeps its name where it is imported"
    );
    assert!(
        !done
            .left_alone
            .iter()
            .any(|l| l.site.path == "pkg/__init__.py"),
        "the package's own uses are its name, not unproven uses: {:?}",
        done.left_alone
    );
}

#[test]
fn an_isinstance_test_types_the_name_where_it_holds() {
    // toolz's curry.__eq__: `isinstance(other, curry) and other.func == …`
    let p = TestProject::new(&[(
        "c.py",
        "class curry:\n    def __init__(self, func):\n        self.func = func\n\n    def __eq__(self, other):\n        return isinstance(other, curry) and self.func == other.func\n\n    def same(self, other):\n        if isinstance(other, (curry, int)):\n            pass\n        if isinstance(other, curry):\n            return other.func\n        elif isinstance(other, Wrapper):\n            return other.func\n        return other.func\n\n    def guard(self, other):\n        if not isinstance(other, curry):\n            raise TypeError(other)\n        return other.func\n\n\nclass Wrapper:\n    def __init__(self):\n        self.func = None\n",
    )]);
    let done = p
        .run(
            None,
            &rename_with("c.curry.func", "function", SitePolicy::OnlyProven),
        )
        .unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["c.py"],
        "class curry:\n    def __init__(self, func):\n        self.function = func\n\n    def __eq__(self, other):\n        return isinstance(other, curry) and self.function == other.function\n\n    def same(self, other):\n        if isinstance(other, (curry, int)):\n            pass\n        if isinstance(other, curry):\n            return other.function\n        elif isinstance(other, Wrapper):\n            return other.func\n        return other.func\n\n    def guard(self, other):\n        if not isinstance(other, curry):\n            raise TypeError(other)\n        return other.function\n\n\nclass Wrapper:\n    def __init__(self):\n        self.func = None\n",
        "narrowed where the test holds; Wrapper's attribute and the untested use are other things"
    );
    assert_eq!(
        done.left_alone
            .iter()
            .map(|l| l.site.to_string())
            .collect::<Vec<_>>(),
        vec!["c.py:14:21"],
        "the use no test narrows may be either"
    );
}

#[test]
fn a_member_a_base_or_mixin_calls_on_self_is_renamed_with_every_class_providing_it() {
    // six: _LazyDescr.__get__ calls self._resolve() of both subclasses;
    // Django: a test mixin calls self.assertContains of SimpleTestCase.
    let p = TestProject::new(&[
        (
            "six.py",
            "class _LazyDescr:\n    def __get__(self, obj, tp):\n        return self._resolve()\n\n\nclass MovedModule(_LazyDescr):\n    def _resolve(self):\n        return 1\n\n\nclass MovedAttribute(_LazyDescr):\n    def _resolve(self):\n        return 2\n\n\nclass Unrelated:\n    def _resolve(self):\n        return 3\n",
        ),
        (
            "tests.py",
            "import unittest\n\n\nclass SimpleTestCase:\n    def assertContains(self, r):\n        pass\n\n\nclass Mixin:\n    def check(self):\n        self.assertContains(1)\n\n\nclass Outside:\n    def check(self):\n        self.assertContains(2)\n\n\nclass T(Mixin, SimpleTestCase):\n    pass\n\n\nclass U(Outside, unittest.TestCase):\n    pass\n\n\nclass V(Outside, SimpleTestCase):\n    pass\n",
        ),
    ]);
    let done = p
        .run(None, &rename("six.MovedModule._resolve", "resolve"))
        .unwrap();
    assert_eq!(
        p.after(&done)["six.py"],
        "class _LazyDescr:\n    def __get__(self, obj, tp):\n        return self.resolve()\n\n\nclass MovedModule(_LazyDescr):\n    def resolve(self):\n        return 1\n\n\nclass MovedAttribute(_LazyDescr):\n    def resolve(self):\n        return 2\n\n\nclass Unrelated:\n    def _resolve(self):\n        return 3\n"
    );
    let done = p
        .run(
            None,
            &rename("tests.SimpleTestCase.assertContains", "assert_contains"),
        )
        .unwrap();
    assert_eq!(
        p.after(&done)["tests.py"],
        "import unittest\n\n\nclass SimpleTestCase:\n    def assert_contains(self, r):\n        pass\n\n\nclass Mixin:\n    def check(self):\n        self.assert_contains(1)\n\n\nclass Outside:\n    def check(self):\n        self.assert_contains(2)\n\n\nclass T(Mixin, SimpleTestCase):\n    pass\n\n\nclass U(Outside, unittest.TestCase):\n    pass\n\n\nclass V(Outside, SimpleTestCase):\n    pass\n",
        "Outside's subclass V gets it from SimpleTestCase, and unittest.TestCase has no assertContains"
    );
    assert!(
        done.evidence
            .proven
            .iter()
            .any(|l| l.to_string() == "tests.py:15:13"),
        "{:?}",
        done.evidence
    );
}

#[test]
fn annotations_and_assigned_attributes_type_the_receivers_of_a_method() {
    let p = TestProject::new(&[
        (
            "engine.py",
            "class Engine:\n    def start(self):\n        return 1\n\n\nclass Other:\n    def start(self):\n        return 2\n",
        ),
        (
            "car.py",
            "from typing import Optional\n\nimport engine\nfrom engine import Engine, Other\n\n\nclass Car:\n    spare: Engine\n\n    def __init__(self, first: Engine):\n        self.motor = None\n        self.first = first\n        self.mixed = Engine()\n\n    def go(self, e: Engine, m: Optional[Engine] = None, q: \"engine.Engine\" = None, u: Engine | None = None, *many: Engine):\n        self.motor = Engine()\n        self.mixed = Other()\n        e.start()\n        m.start()\n        q.start()\n        u.start()\n        self.motor.start()\n        self.first.start()\n        self.spare.start()\n        self.mixed.start()\n        many.start()\n        find().start()\n\n\ndef find() -> \"Optional[Engine]\":\n    return None\n",
        ),
    ]);
    let done = p
        .run(
            None,
            &rename_with("engine.Engine.start", "run", SitePolicy::OnlyProven),
        )
        .unwrap();
    let after = p.after(&done);
    let car = &after["car.py"];
    for typed in [
        "e.run()",
        "m.run()",
        "q.run()",
        "u.run()",
        "self.motor.run()",
        "self.first.run()",
        "self.spare.run()",
    ] {
        assert!(car.contains(typed), "{typed} in:\n{car}");
    }
    // two classes assigned, and a tuple of Engines: not typed
    assert!(
        car.contains("self.mixed.start()") && car.contains("many.start()"),
        "{car}"
    );
    assert_eq!(
        done.left_alone
            .iter()
            .map(|l| l.site.to_string())
            .collect::<Vec<_>>(),
        vec!["car.py:24:19", "car.py:25:13"]
    );
}

#[test]
fn a_method_returning_self_types_the_chain() {
    let p = TestProject::new(&[(
        "b.py",
        "from typing import Self\n\n\nclass Builder:\n    def add(self, x) -> Self:\n        return self\n\n    def build(self):\n        return 1\n\n\nBuilder().add(1).add(2).build()\n",
    )]);
    let done = p.run(None, &rename("b.Builder.build", "finish")).unwrap();
    assert_eq!(
        p.after(&done)["b.py"],
        "from typing import Self\n\n\nclass Builder:\n    def add(self, x) -> Self:\n        return self\n\n    def finish(self):\n        return 1\n\n\nBuilder().add(1).add(2).finish()\n"
    );
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
}

#[test]
fn an_alias_that_starts_with_the_old_name_and_doctest_keywords_keep_their_names() {
    // dateutil: `from ._common import weekday as weekdaybase` and
    // `>>> relativedelta(weekday=MO(1))` in a docstring
    let p = TestProject::new(&[
        ("common.py", "class weekday(object):\n    pass\n"),
        (
            "rrule.py",
            "from common import weekday as weekdaybase\n\n\nclass weekday(weekdaybase):\n    pass\n",
        ),
        (
            "delta.py",
            "from common import weekday\n\n\ndef relativedelta(weekday=None):\n    \"\"\"\n    >>> relativedelta(weekday=weekday())\n    \"\"\"\n    return weekday\n",
        ),
    ]);
    let done = p.run(None, &class("common.weekday", "Weekday")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["rrule.py"],
        "from common import Weekday as weekdaybase\n\n\nclass weekday(weekdaybase):\n    pass\n"
    );
    assert_eq!(
        after["delta.py"],
        "from common import Weekday\n\n\ndef relativedelta(weekday=None):\n    \"\"\"\n    >>> relativedelta(weekday=Weekday())\n    \"\"\"\n    return weekday\n"
    );
}

#[test]
fn a_variable_named_like_the_attribute_it_holds_keeps_its_name() {
    // toolz's curry._should_curry: `func = self.func`, then `f(func)`
    let p = TestProject::new(&[
        (
            "c.py",
            "class curry:\n    @property\n    def func(self):\n        return 1\n\n    def should(self):\n        func = self.func\n        return func\n",
        ),
        ("u.py", "import c\n\nfunc = c.curry().func\nprint(func)\n"),
    ]);
    let done = p
        .run(
            None,
            &rename_with("c.curry.func", "function", SitePolicy::OnlyProven),
        )
        .unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["c.py"],
        "class curry:\n    @property\n    def function(self):\n        return 1\n\n    def should(self):\n        func = self.function\n        return func\n"
    );
    assert_eq!(
        after["u.py"],
        "import c\n\nfunc = c.curry().function\nprint(func)\n"
    );
}

#[test]
fn a_placeholder_global_set_in_a_function_is_what_the_function_sets() {
    // dateutil's rrule: `easter = None`, then `global easter; from dateutil
    // import easter` in one method and `easter.easter(year)` in another
    let p = TestProject::new(&[
        ("pkg/__init__.py", ""),
        ("pkg/easter.py", "def easter(year):\n    return year\n"),
        (
            "pkg/rrule.py",
            "easter = None\n_engine = None\n\n\nclass Engine:\n    def start(self):\n        return 1\n\n\ndef load():\n    global easter, _engine\n    if not easter:\n        from pkg import easter\n    _engine = Engine()\n\n\ndef use(year):\n    _engine.start()\n    return easter.easter(year)\n",
        ),
    ]);
    let done = p
        .run(None, &rename("pkg.easter.easter", "easter_sunday"))
        .unwrap();
    assert!(
        p.after(&done)["pkg/rrule.py"].contains("return easter.easter_sunday(year)"),
        "{:?}",
        done.left_alone
    );
    let done = p
        .run(None, &rename("pkg.rrule.Engine.start", "run"))
        .unwrap();
    assert!(p.after(&done)["pkg/rrule.py"].contains("    _engine.run()\n"));
}

#[test]
fn what_an_unannotated_function_returns_types_its_calls() {
    let p = TestProject::new(&[(
        "f.py",
        "class Engine:\n    def start(self):\n        return 1\n\n    def again(self):\n        return self\n\n    @classmethod\n    def create(cls):\n        return cls()\n\n\ndef make(fast):\n    if fast:\n        return Engine()\n    return None\n\n\ndef either(x):\n    if x:\n        return Engine()\n    return x\n\n\ndef gen():\n    yield 1\n    return Engine()\n\n\ndef made():\n    engine = Engine()\n    engine.start()\n    return engine\n\n\ndef rebound(x):\n    engine = Engine()\n    if x:\n        engine = x\n    return engine\n\n\ndef annotated() -> Engine:\n    pass\n\n\ndef passed_on():\n    return made()\n\n\ndef configured(**options):\n    engine = annotated()\n    for key, value in options.items():\n        setattr(engine, key, value)\n    return engine\n\n\nmake(1).start()\nEngine().again().start()\nEngine.create().start()\neither(1).start()\ngen().start()\nmade().start()\nrebound(1).start()\npassed_on().start()\nconfigured(fast=1).start()\n",
    )]);
    let done = p.run(None, &rename("f.Engine.start", "run")).unwrap();
    let after = &p.after(&done)["f.py"];
    for typed in [
        "make(1).run()",
        "Engine().again().run()",
        "Engine.create().run()",
        // a local bound once to an instance, returned
        "made().run()",
        // what another function returns, returned (click's
        // `_create_progress`: a local made by an annotated function)
        "passed_on().run()",
        "configured(fast=1).run()",
    ] {
        assert!(after.contains(typed), "{typed}:\n{after}");
    }
    // one of several values, or what a generator gives: not typed, but no
    // other class the project can hold has a `start`: inferred
    let inferred: Vec<String> = done
        .evidence
        .inferred
        .iter()
        .map(|u| u.site.to_string())
        .collect();
    assert_eq!(
        inferred,
        ["f.py:60:10", "f.py:61:6", "f.py:63:11"],
        "{after}"
    );
}

#[test]
fn a_with_target_and_a_subscripted_generic_annotation_type_their_receivers() {
    // click's `with progressbar(…) as bar: bar.eta`: `progressbar` returns
    // `"ProgressBar[V]"`, and `bar` is what its `__enter__` returns.
    let p = TestProject::new(&[
        (
            "bar.py",
            "from typing import Generic, TypeVar\n\nV = TypeVar(\"V\")\n\n\nclass Bar(Generic[V]):\n    def __enter__(self) -> \"Bar[V]\":\n        return self\n\n    def __exit__(self, *exc):\n        pass\n\n    def eta(self):\n        return 1\n\n\ndef make() -> \"Bar[int]\":\n    return Bar()\n",
        ),
        (
            "use.py",
            "from typing import Final, List, Type\n\nfrom bar import Bar, make\n\n\ndef f():\n    with make() as b:\n        return b.eta()\n\n\ndef g(x: Bar[int], y: \"Final[Bar]\", z: List[Bar], t: Type[Bar]):\n    return x.eta() + y.eta() + z.eta() + t.eta()\n\n\ndef h(cm):\n    with cm as c:\n        return c.eta()\n",
        ),
    ]);
    let done = p.run(None, &rename("bar.Bar.eta", "remaining")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["use.py"],
        "from typing import Final, List, Type\n\nfrom bar import Bar, make\n\n\ndef f():\n    with make() as b:\n        return b.remaining()\n\n\ndef g(x: Bar[int], y: \"Final[Bar]\", z: List[Bar], t: Type[Bar]):\n    return x.remaining() + y.remaining() + z.eta() + t.remaining()\n\n\ndef h(cm):\n    with cm as c:\n        return c.remaining()\n"
    );
    // what it cannot type, and no other class has, it infers, and says so
    let inferred: Vec<String> = done
        .evidence
        .inferred
        .iter()
        .map(|u| u.site.position.to_string())
        .collect();
    assert!(
        inferred.contains(&"16:17".to_string()),
        "c.eta: {inferred:?}"
    );
    // a `List[Bar]`'s attribute is the list's, not a `Bar`'s: not listed
    assert!(
        !inferred.contains(&"11:33".to_string()),
        "z.eta: {inferred:?}"
    );
    assert!(
        inferred.contains(&"11:43".to_string()),
        "t.eta: {inferred:?}"
    );
}

#[test]
fn a_class_whose_getattr_would_catch_a_use_left_alone_is_said_first() {
    // click's `_AtomicFile`: an unconverted `f.close()` on one would reach
    // `__getattr__` (the wrapped file's `close`) instead of failing.
    let p = TestProject::new(&[
        (
            "atomic.py",
            "class Base:\n    def __getattr__(self, name):\n        return getattr(self._f, name)\n\n\nclass Atomic(Base):\n    def close(self):\n        self._f.close()\n\n\nAtomic().close()\n",
        ),
        ("use.py", "def shut(f):\n    f.close()\n"),
        ("plain.py", "class Plain:\n    def close(self):\n        pass\n\n\nPlain().close()\n"),
    ]);
    // `f.close()` may be a Plain's or a generator's: refused by default
    let refused = p
        .run(None, &rename("atomic.Atomic.close", "commit"))
        .expect_err("possible uses");
    assert!(
        refused.message.contains("use.py:1:6"),
        "{}",
        refused.message
    );
    let done = p
        .run(
            None,
            &rename_with("atomic.Atomic.close", "commit", SitePolicy::OnlyProven),
        )
        .unwrap();
    let left: Vec<String> = done
        .left_alone
        .iter()
        .map(|l| format!("{} {}", l.site, l.why))
        .collect();
    assert_eq!(
        left[0],
        "atomic.py:1:8 atomic.Atomic inherits __getattr__ from atomic.Base: a use of 'close' left alone on one of its instances would reach __getattr__ instead of failing",
        "{left:#?}"
    );
    assert!(left[2].starts_with("use.py:1:6 "), "{left:#?}");
    assert_eq!(left.len(), 3, "{left:#?}");
    // a class without one: nothing more is said
    let done = p
        .run(
            None,
            &rename_with("plain.Plain.close", "finish", SitePolicy::OnlyProven),
        )
        .unwrap();
    assert!(
        done.left_alone
            .iter()
            .all(|l| !l.why.contains("__getattr__")),
        "{:#?}",
        done.left_alone
    );
}

#[test]
fn a_member_a_dispatcher_reaches_by_a_built_name_is_refused() {
    // sqlparse's filters: the name built first, then looked up; Django's
    // forms: `getattr(self, "clean_%s" % name)` in a base class elsewhere.
    let p = TestProject::new(&[
        (
            "aligned.py",
            "class Filter:\n    def _process_case(self, t):\n        return t\n\n    def _process(self, t):\n        func_name = '_process_{cls}'.format(cls=type(t).__name__)\n        func = getattr(self, func_name.lower(), None)\n        return func(t)\n\n    def other(self):\n        return 1\n",
        ),
        (
            "forms.py",
            "class BaseForm:\n    def full_clean(self, name):\n        return getattr(self, \"clean_%s\" % name)()\n",
        ),
        (
            "mine.py",
            "from forms import BaseForm\n\n\nclass Mine(BaseForm):\n    def clean_title(self):\n        return 1\n\n    def clean(self):\n        return 2\n",
        ),
        (
            "plain.py",
            "class Greeter:\n    def hello_there(self):\n        return 'hello {name}'.format(name=1)\n",
        ),
    ]);
    let (kind, message) = refusal(&p, None, &rename("aligned.Filter._process_case", "_case"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert!(
        message.starts_with("Cannot rename aligned.Filter._process_case: aligned.py:5 builds names from '_process_' ('_process_…) and aligned.py:6 reaches attributes by a computed name (getattr(self, func_name.lower…)"),
        "{message}"
    );
    let (kind, message) = refusal(&p, None, &rename("mine.Mine.clean_title", "tidy_title"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert!(
        message.contains("forms.py:2 reaches attributes by a name built from 'clean_'"),
        "{message}"
    );
    // what the built names cannot be is renamed; a template without a
    // lookup by a computed name is nothing to fear
    assert!(p
        .run(None, &rename("aligned.Filter.other", "another"))
        .is_ok());
    assert!(p.run(None, &rename("mine.Mine.clean", "scrub")).is_ok());
    assert!(p
        .run(None, &rename("plain.Greeter.hello_there", "greet"))
        .is_ok());
}

#[test]
fn an_attribute_assigned_another_attribute_is_typed_along_the_chain() {
    // markdown's tests: `self.parser = markdown.Markdown().parser`, where
    // `Markdown.build_parser` assigns `self.parser = build_block_parser(self)`
    let p = TestProject::new(&[
        (
            "bp.py",
            "class BlockParser:\n    def parseChunk(self, x):\n        return x\n\n\ndef build(md) -> BlockParser:\n    return BlockParser()\n",
        ),
        (
            "proc.py",
            "from __future__ import annotations\nfrom bp import BlockParser, build\n\n\nclass Proc:\n    def __init__(self, parser: BlockParser):\n        self.parser = parser\n\n\nclass Foot(Proc):\n    def run(self):\n        self.parser.parseChunk(1)\n\n\nclass Md:\n    def __init__(self):\n        self.build_parser()\n\n    def build_parser(self):\n        self.parser = build(self)\n\n\nclass T:\n    def setUp(self):\n        self.parser = Md().parser\n\n    def test(self):\n        self.parser.parseChunk(2)\n\n\nclass U:\n    def setUp(self):\n        self.parser = build(1)\n\n    def test(self):\n        self.parser.parseChunk(5)\n\n\nclass V:\n    def setUp(self):\n        self.md = Md()\n\n    def test(self):\n        self.md.parser.parseChunk(6)\n\n\nclass W:\n    def setUp(self):\n        m = Md()\n        self.parser = m.parser\n\n    def test(self):\n        self.parser.parseChunk(7)\n",
        ),
    ]);
    let done = p
        .run(None, &rename("bp.BlockParser.parseChunk", "chunk"))
        .unwrap();
    let after = &p.after(&done)["proc.py"];
    for n in [1, 2, 5, 6, 7] {
        assert!(after.contains(&format!("chunk({n})")), "{n}:\n{after}");
    }
    assert!(!after.contains("parseChunk"), "{after}");
    assert!(done.left_alone.is_empty(), "{:#?}", done.left_alone);
}

#[test]
fn an_item_of_an_annotated_collection_is_typed_in_loops_and_comprehensions() {
    // markdown's `self.blockprocessors: Registry[BlockProcessor]` is a
    // generic of its own (not followed); `list[C]` and its kin are.
    let p = TestProject::new(&[
        ("c.py", "class C:\n    def go(self):\n        return 1\n"),
        (
            "use.py",
            "from __future__ import annotations\nfrom typing import Iterable, Sequence\nfrom c import C\n\n\nclass Holder:\n    def __init__(self):\n        self.items: list[C] = []\n\n    def run(self):\n        for item in self.items:\n            item.go()\n        return [i.go() for i in self.items]\n\n\ndef each(cs: Sequence[C], more: \"list[C]\", rest: Iterable[C]):\n    for c in cs:\n        c.go()\n    for m in more:\n        m.go()\n    return {r.go() for r in rest}\n\n\ndef made() -> list[C]:\n    return []\n\n\ndef from_call():\n    for x in made():\n        x.go()\n\n\ndef keyed(by_name: dict[str, C], pair: tuple[C, C], plain):\n    for k in by_name:\n        k.go()\n    for t in pair:\n        t.go()\n    for p in plain:\n        p.go()\n    by_name.go()\n",
        ),
    ]);
    let done = p.run(None, &rename("c.C.go", "run_it")).unwrap();
    let after = &p.after(&done)["use.py"];
    for typed in [
        "item.run_it()",
        "[i.run_it() for i in self.items]",
        "c.run_it()",
        "m.run_it()",
        "{r.run_it() for r in rest}",
        "x.run_it()",
    ] {
        assert!(after.contains(typed), "{typed}:\n{after}");
    }
    // a mapping's keys, a tuple's items, an unannotated collection: not
    // proven, but no other class has a `go`: inferred; a collection's own
    // attribute is not the class's
    assert!(after.contains("by_name.go()"), "{after}");
    let inferred: Vec<String> = done
        .evidence
        .inferred
        .iter()
        .map(|u| u.site.to_string())
        .collect();
    // (`by_name.go()` is a dict's attribute: not a `C`'s, not listed)
    assert_eq!(inferred, ["use.py:34:10", "use.py:36:10", "use.py:38:10"]);
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
}

#[test]
fn the_builtins_that_keep_items_are_seen_through() {
    let p = TestProject::new(&[
        ("c.py", "class C:\n    def go(self):\n        return 1\n\n\nclass D:\n    def go(self):\n        return 2\n"),
        (
            "use.py",
            "from c import C, D\n\n\ndef each(cs: list[C], ds: list[D]):\n    for i, c in enumerate(cs):\n        c.go()\n    for c2, d in zip(cs, ds):\n        c2.go()\n        d.go()\n    for s in sorted(cs, key=lambda c: c.go()):\n        s.go()\n    for r in reversed(list(cs)):\n        r.go()\n    return [x.go() for n, x in enumerate(cs, 1)]\n\n\ndef shadowed(cs: list[C]):\n    sorted = lambda xs: xs\n    for s in sorted(cs):\n        s.go()\n",
        ),
    ]);
    // the key function's `c` and the shadowed `sorted`'s items may be D's
    let done = p
        .run(
            None,
            &rename_with("c.C.go", "run_it", SitePolicy::OnlyProven),
        )
        .unwrap();
    let after = &p.after(&done)["use.py"];
    for typed in [
        "        c.run_it()",
        "        c2.run_it()",
        "        d.go()",
        "        s.run_it()",
        "        r.run_it()",
        "[x.run_it() for n, x in enumerate(cs, 1)]",
    ] {
        assert!(after.contains(typed), "{typed}:\n{after}");
    }
    // a `sorted` of one's own is not the builtin
    assert!(
        after.ends_with("    for s in sorted(cs):\n        s.go()\n"),
        "{after}"
    );
}

#[test]
fn a_value_of_an_annotated_mapping_and_an_indexed_item_are_typed() {
    let p = TestProject::new(&[
        ("c.py", "class C:\n    def go(self):\n        return 1\n"),
        (
            "use.py",
            "from typing import Dict, Mapping\nfrom c import C\n\n\nclass Registry:\n    def __init__(self):\n        self.by_name: dict[str, C] = {}\n        self.items: list[C] = []\n\n    def run(self, name):\n        self.by_name[name].go()\n        self.items[0].go()\n        self.by_name.get(name).go()\n        self.items.pop().go()\n        for key, value in self.by_name.items():\n            value.go()\n        for v in self.by_name.values():\n            v.go()\n        for k in self.by_name:\n            k.go()\n        for s in self.items[1:]:\n            s.go()\n        self.items[1:].go()\n\n\ndef f(m: Mapping[str, C], d: Dict[int, C]):\n    m['a'].go()\n    d.setdefault(1, C()).go()\n",
        ),
    ]);
    let done = p.run(None, &rename("c.C.go", "run_it")).unwrap();
    let after = &p.after(&done)["use.py"];
    for typed in [
        "self.by_name[name].run_it()",
        "self.items[0].run_it()",
        "self.by_name.get(name).run_it()",
        "self.items.pop().run_it()",
        "            value.run_it()",
        "            v.run_it()",
        "m['a'].run_it()",
        "d.setdefault(1, C()).run_it()",
    ] {
        assert!(after.contains(typed), "{typed}:\n{after}");
    }
    // a mapping's keys, a slice (a list itself), and what slicing gives
    // are not typed; no other class has a `go`: inferred
    let inferred: Vec<String> = done
        .evidence
        .inferred
        .iter()
        .map(|u| u.site.position.to_string())
        .collect();
    assert_eq!(inferred, vec!["19:14", "21:14", "22:23"], "{after}");
}

#[test]
fn an_item_of_a_literal_of_classes_is_one_of_them() {
    // boltons' tests: `for cache_type in (LRU, LRI): cache_type(2)…`
    let p = TestProject::new(&[(
        "c.py",
        "class C:\n    def go(self):\n        return 1\n\n\nclass E(C):\n    pass\n\n\nclass D:\n    def go(self):\n        return 2\n\n\ndef each():\n    for kind in (C, E):\n        kind().go()\n    for other in [C, D]:\n        other().go()\n    return [k().go() for k in {E}]\n",
    )]);
    let refused = p
        .run(None, &rename("c.C.go", "run_it"))
        .expect_err("`other().go()` may be a D's");
    assert!(
        refused.message.contains("c.py:18:16"),
        "{}",
        refused.message
    );
    let done = p
        .run(
            None,
            &rename_with("c.C.go", "run_it", SitePolicy::OnlyProven),
        )
        .unwrap();
    let after = &p.after(&done)["c.py"];
    assert!(after.contains("        kind().run_it()"), "{after}");
    assert!(after.contains("[k().run_it() for k in {E}]"), "{after}");
    // one of two classes with a `go` of their own: not proven
    assert!(after.contains("        other().go()"), "{after}");
}

#[test]
fn an_override_in_a_class_deriving_through_an_alias_is_renamed_with_it() {
    // `Base = K; class B(Base)`, `class Holder: Inner = K; class C(Holder.Inner)`,
    // and the alias through a module: each `m` overrides `K.m`, and a call
    // on an instance of `B` calls it
    let p = TestProject::new(&[
        (
            "pkg/__init__.py",
            "",
        ),
        (
            "pkg/base.py",
            "class K:\n    def m(self):\n        return 1\n\n\nAlso = K\n\n\nclass Holder:\n    Inner = K\n",
        ),
        (
            "pkg/sub.py",
            "from pkg.base import Also, Holder\nimport pkg.base as b\n\n\nclass B(Also):\n    def m(self):\n        return 2\n\n\nclass C(Holder.Inner):\n    def m(self):\n        return 3\n\n\nclass D(b.Also):\n    def m(self):\n        return 4\n\n\ndef use(x: B):\n    return x.m()\n",
        ),
    ]);
    let after = p.after(&p.run(None, &rename("pkg.base.K.m", "mm")).unwrap());
    assert_eq!(
        after["pkg/sub.py"],
        "from pkg.base import Also, Holder\nimport pkg.base as b\n\n\nclass B(Also):\n    def mm(self):\n        return 2\n\n\nclass C(Holder.Inner):\n    def mm(self):\n        return 3\n\n\nclass D(b.Also):\n    def mm(self):\n        return 4\n\n\ndef use(x: B):\n    return x.mm()\n"
    );
    assert!(after["pkg/base.py"].contains("    def mm(self):"));
}

#[test]
fn a_base_bound_in_several_places_derives_from_each() {
    // `if PY3: Base = K else: Base = J`; `try: from fast import Fast as
    // Impl except ImportError: Impl = K`: `B` derives from `K` or `J`, so
    // its `m` and both bases' are one method; `C` from `Fast` or `K`
    let p = TestProject::new(&[
        (
            "base.py",
            "import sys\n\n\nclass K:\n    def m(self):\n        return 1\n\n\nclass J:\n    def m(self):\n        return 0\n\n\nif sys.version_info >= (3,):\n    Base = K\nelse:\n    Base = J\n\ntry:\n    from fast import Fast as Impl\nexcept ImportError:\n    Impl = K\n",
        ),
        ("fast.py", "class Fast:\n    pass\n"),
        (
            "sub.py",
            "from base import Base, Impl\n\n\nclass B(Base):\n    def m(self):\n        return 2\n\n\nclass C(Impl):\n    def m(self):\n        return 3\n",
        ),
    ]);
    let after = p.after(&p.run(None, &rename("base.K.m", "mm")).unwrap());
    assert_eq!(
        after["sub.py"],
        "from base import Base, Impl\n\n\nclass B(Base):\n    def mm(self):\n        return 2\n\n\nclass C(Impl):\n    def mm(self):\n        return 3\n"
    );
    assert_eq!(after["base.py"].matches("def mm(self)").count(), 2);
}

// ---------------------------------------------------------------------
// Name-based dispatch on a class's name, and data strings (issue 26).
// ---------------------------------------------------------------------

/// jinja2's shape: nodes, a `NodeVisitor` that dispatches on
/// `f"visit_{type(node).__name__}"`, and visitors in other modules.
fn visitor_project(dispatch: &str) -> TestProject {
    TestProject::new(&[
        (
            "pkg/nodes.py",
            "class Node:\n    def __repr__(self):\n        return f\"<{type(self).__name__} node>\"\n\n\nclass Name(Node):\n    pass\n\n\nclass Const(Node):\n    pass\n",
        ),
        (
            "pkg/visitor.py",
            &format!("class NodeVisitor:\n    def visit(self, node):\n{dispatch}\n\n    def generic_visit(self, node):\n        return None\n"),
        ),
        (
            "pkg/compiler.py",
            "from pkg import nodes\nfrom pkg.visitor import NodeVisitor\n\n\nclass CodeGenerator(NodeVisitor):\n    def visit_Name(self, node: nodes.Name):\n        return node\n\n    def visit_Const(self, node):\n        return self.visit_Name(nodes.Name())\n\n\nclass Tracker(CodeGenerator):\n    def visit_Name(self, node):\n        return super().visit_Name(node)\n",
        ),
        (
            "pkg/idtracking.py",
            "from pkg.visitor import NodeVisitor\n\n\nclass SymbolVisitor(NodeVisitor):\n    def visit_Name(self, node):\n        return 1\n",
        ),
    ])
}

fn also(r: &Refactored) -> Vec<String> {
    r.also_renamed
        .iter()
        .map(|a| format!("{} -> {} at {}", a.symbol, a.new_name, a.dispatch))
        .collect()
}

#[test]
fn a_class_reached_by_its_name_renames_the_members_dispatch_reaches() {
    // jinja2: renaming nodes.Name alone left every visit_Name unreached
    let p = visitor_project(
        "        method = getattr(self, f\"visit_{type(node).__name__}\", None)\n        return method(node) if method else self.generic_visit(node)",
    );
    let done = p.run(None, &class("pkg.nodes.Name", "NameNode")).unwrap();
    assert_eq!(
        also(&done),
        vec![
            "pkg.compiler.CodeGenerator.visit_Name -> visit_NameNode at pkg/visitor.py:2:0",
            "pkg.idtracking.SymbolVisitor.visit_Name -> visit_NameNode at pkg/visitor.py:2:0",
        ]
    );
    let after = p.after(&done);
    assert_eq!(
        after["pkg/compiler.py"],
        "from pkg import nodes\nfrom pkg.visitor import NodeVisitor\n\n\nclass CodeGenerator(NodeVisitor):\n    def visit_NameNode(self, node: nodes.NameNode):\n        return node\n\n    def visit_Const(self, node):\n        return self.visit_NameNode(nodes.NameNode())\n\n\nclass Tracker(CodeGenerator):\n    def visit_NameNode(self, node):\n        return super().visit_NameNode(node)\n"
    );
    assert_eq!(
        after["pkg/idtracking.py"],
        "from pkg.visitor import NodeVisitor\n\n\nclass SymbolVisitor(NodeVisitor):\n    def visit_NameNode(self, node):\n        return 1\n"
    );
    assert!(!after.contains_key("pkg/visitor.py"));
    // every site counted once: the class, its two uses, five members' sites
    assert_eq!(counts(&done), (3, 8));
    // a class no visitor dispatches to renames alone
    let done = p.run(None, &class("pkg.nodes.Node", "BaseNode")).unwrap();
    assert!(done.also_renamed.is_empty());
}

#[test]
fn every_way_of_building_the_dispatch_name_is_followed() {
    // `"visit_" + …` through a variable, `"visit_%s" % …`,
    // `"visit_{}".format(…)`, `node.__class__.__name__`, `__qualname__`
    for dispatch in [
        "        name = \"visit_\" + node.__class__.__name__\n        return getattr(self, name, self.generic_visit)(node)",
        "        return getattr(self, \"visit_%s\" % type(node).__qualname__)(node)",
        "        kind = type(node).__name__\n        if hasattr(self, \"visit_{}\".format(kind)):\n            return getattr(self, \"visit_{}\".format(kind))(node)",
    ] {
        let p = visitor_project(dispatch);
        let done = p
            .run(None, &class("pkg.nodes.Name", "NameNode"))
            .unwrap_or_else(|e| panic!("{dispatch}: {}", e.message));
        assert_eq!(done.also_renamed.len(), 2, "{dispatch}");
        assert!(p.after(&done)["pkg/idtracking.py"].contains("def visit_NameNode(self"));
    }
}

#[test]
fn a_lowered_dispatch_name_renames_the_lowered_member() {
    // sqlparse: `'_process_{cls}'.format(cls=type(t).__name__)`, then
    // `getattr(self, func_name.lower(), None)`
    let p = TestProject::new(&[
        ("tokens.py", "class Keyword:\n    pass\n"),
        (
            "filters.py",
            "class Filter:\n    def _process_keyword(self, t):\n        return t\n\n    def process(self, t):\n        func_name = '_process_{cls}'.format(cls=type(t).__name__)\n        func = getattr(self, func_name.lower(), None)\n        return func(t) if func else t\n",
        ),
    ]);
    let done = p.run(None, &class("tokens.Keyword", "Reserved")).unwrap();
    assert_eq!(
        also(&done),
        vec!["filters.Filter._process_keyword -> _process_reserved at filters.py:6:0"]
    );
    assert!(p.after(&done)["filters.py"].contains("def _process_reserved(self, t):"));
}

#[test]
fn dispatch_this_cannot_follow_refuses_the_class_rename_naming_the_line() {
    let refused = |p: &TestProject| {
        let (kind, message) = refusal(p, None, &class("pkg.nodes.Name", "NameNode"));
        assert_eq!(kind, RefactorFailure::Refused, "{message}");
        message
    };
    // a lookup on another object than self: which class is not known
    let p = visitor_project(
        "        return getattr(node.handler, f\"visit_{type(node).__name__}\")(node)",
    );
    let message = refused(&p);
    assert!(
        message.starts_with("Cannot rename pkg.nodes.Name: pkg/visitor.py:2 reaches attributes by a name made from a class's name (getattr(node.handler, f\"visit_{type(node).__name__}\")"),
        "{message}"
    );
    // the new member name is taken in the hierarchy
    let p = TestProject::new(&[
        ("nodes.py", "class Name:\n    pass\n"),
        (
            "visitor.py",
            "class V:\n    def visit(self, node):\n        return getattr(self, f\"visit_{type(node).__name__}\")(node)\n\n    def visit_Name(self, node):\n        return 1\n\n    def visit_NameNode(self, node):\n        return 2\n",
        ),
    ]);
    let message = refusal(&p, None, &class("nodes.Name", "NameNode")).1;
    assert!(
        message.contains("visitor.py:2 reaches 'visit_Name' by the class's name")
            && message.contains("visitor.V.visit_NameNode is already named so"),
        "{message}"
    );
    // a visitor deriving from a class outside the project may define it
    let p = TestProject::new(&[
        ("nodes.py", "class Name:\n    pass\n"),
        (
            "visitor.py",
            "import ast\n\n\nclass V(ast.NodeVisitor):\n    def dispatch(self, node):\n        return getattr(self, 'visit_' + type(node).__name__)(node)\n\n    def visit_Name(self, node):\n        return 1\n",
        ),
    ]);
    let message = refusal(&p, None, &class("nodes.Name", "NameNode")).1;
    assert!(
        message.contains("visitor.py:5 reaches 'visit_Name' by the class's name")
            && message.contains("derives from a class outside the project"),
        "{message}"
    );
}

#[test]
fn a_class_name_compared_or_keyed_by_a_string_refuses_the_rename() {
    // `if type(x).__name__ == "Name"`: the literal would stay
    let p = TestProject::new(&[
        ("nodes.py", "class Name:\n    pass\n"),
        (
            "check.py",
            "def is_name(x):\n    if type(x).__name__ == \"Name\":\n        return True\n    return x.__class__.__name__ in (\"Const\", \"Name\")\n",
        ),
    ]);
    let (kind, message) = refusal(&p, None, &class("nodes.Name", "NameNode"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert!(
        message.starts_with(
            "Cannot rename nodes.Name: check.py:1 compares a class's name with the string 'Name'"
        ),
        "{message}"
    );
    // a registry keyed by class name, looked up by a literal elsewhere
    let p = TestProject::new(&[
        ("nodes.py", "class Name:\n    pass\n"),
        (
            "registry.py",
            "HANDLERS = {}\n\n\ndef register(cls):\n    HANDLERS[cls.__name__] = cls\n    return cls\n",
        ),
        ("use.py", "from registry import HANDLERS\n\nname_class = HANDLERS[\"Name\"]\n"),
    ]);
    let message = refusal(&p, None, &class("nodes.Name", "NameNode")).1;
    assert!(
        message
            .contains("registry.py:4 keys or compares by a class's name (HANDLERS[cls.__name__])")
            && message.contains("use.py:2 spells 'Name' as a string"),
        "{message}"
    );
    // the same registry with no literal of the name renames: its keys follow
    let p = TestProject::new(&[
        ("nodes.py", "class Name:\n    pass\n"),
        (
            "registry.py",
            "HANDLERS = {}\n\n\ndef register(cls):\n    HANDLERS[cls.__name__] = cls\n    return cls\n",
        ),
    ]);
    assert!(p.run(None, &class("nodes.Name", "NameNode")).is_ok());
}

#[test]
fn include_text_changes_prose_never_data_strings_and_reports_other_files() {
    // jinja2: `Include Text` renamed `policies["urlize.rel"]` and a filter
    // table's `"urlize"` key in the files the rename touched only
    let p = TestProject::new(&[
        (
            "utils.py",
            "def urlize(text):\n    \"\"\"Make links; urlize is safe.\"\"\"\n    return text\n",
        ),
        (
            "filters.py",
            "from utils import urlize\n\n\ndef do_urlize(value):\n    # call urlize\n    if not value:\n        raise ValueError(\"urlize needs text\")\n    return urlize(value)\n\n\nFILTERS = {\"urlize\": do_urlize}\n",
        ),
        ("defaults.py", "DEFAULT_POLICIES = {\"urlize.rel\": \"noopener\"}\n"),
        (
            "environment.py",
            "def rel(policies):\n    # the urlize policy\n    return policies[\"urlize.rel\"]\n",
        ),
    ]);
    let done = p.run(None, &with_text("utils.urlize", "linkify")).unwrap();
    let after = p.after(&done);
    assert_eq!(
        after["utils.py"],
        "def linkify(text):\n    \"\"\"Make links; linkify is safe.\"\"\"\n    return text\n"
    );
    assert_eq!(
        after["filters.py"],
        "from utils import linkify\n\n\ndef do_urlize(value):\n    # call linkify\n    if not value:\n        raise ValueError(\"linkify needs text\")\n    return linkify(value)\n\n\nFILTERS = {\"urlize\": do_urlize}\n"
    );
    assert!(!after.contains_key("defaults.py") && !after.contains_key("environment.py"));
    let data: Vec<String> = done
        .data_strings
        .iter()
        .map(|d| format!("{} ({})", d.site, d.why))
        .collect();
    assert_eq!(
        data,
        vec![
            "filters.py:10:12 (a dict key)",
            "defaults.py:0:21 (a dict key)",
            "environment.py:2:21 (a subscript)",
        ]
    );
    // the comment in a file the rename does not change is reported
    assert_eq!(sites(&done.mentions), vec!["environment.py:1:10"]);

    // without Include Text: prose is a mention, data is data, and other
    // files are not read
    let done = p.run(None, &rename("utils.urlize", "linkify")).unwrap();
    assert_eq!(
        sites(&done.mentions),
        vec!["filters.py:4:11", "filters.py:6:26", "utils.py:1:19"]
    );
    assert_eq!(done.data_strings.len(), 1);
}

#[test]
fn members_renamed_along_share_the_mentions_of_their_name() {
    // jinja2 with Include Text: a docstring naming `visit_Name` is a
    // mention of both visitors' methods: changed once, not twice
    let p = TestProject::new(&[
        ("nodes.py", "class Name:\n    pass\n"),
        (
            "visitor.py",
            "class V:\n    \"\"\"Calls visit_Name for names.\"\"\"\n\n    def visit(self, node):\n        return getattr(self, f\"visit_{type(node).__name__}\")(node)\n\n\nclass A(V):\n    def visit_Name(self, node):\n        return 1\n\n\nclass B(V):\n    def visit_Name(self, node):\n        return 2\n",
        ),
    ]);
    let done = p
        .run(
            None,
            &Refactoring::Rename {
                kind: RenameKind::Class,
                symbol: "nodes.Name".into(),
                new_name: "NameNode".into(),
                include_text: true,
                sites: SitePolicy::Refuse,
            },
        )
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(
        p.after(&done)["visitor.py"],
        "class V:\n    \"\"\"Calls visit_NameNode for names.\"\"\"\n\n    def visit(self, node):\n        return getattr(self, f\"visit_{type(node).__name__}\")(node)\n\n\nclass A(V):\n    def visit_NameNode(self, node):\n        return 1\n\n\nclass B(V):\n    def visit_NameNode(self, node):\n        return 2\n"
    );
    assert_eq!(counts(&done), (2, 4));
    assert!(done.mentions.is_empty(), "{:?}", done.mentions);

    // B elsewhere: its rename alone reports the docstring A's changes
    let p = TestProject::new(&[
        ("nodes.py", "class Name:\n    pass\n"),
        (
            "visitor.py",
            "class V:\n    \"\"\"Calls visit_Name for names.\"\"\"\n\n    def visit(self, node):\n        return getattr(self, f\"visit_{type(node).__name__}\")(node)\n\n\nclass A(V):\n    def visit_Name(self, node):\n        return 1\n",
        ),
        (
            "other.py",
            "from visitor import V\n\n\nclass B(V):\n    def visit_Name(self, node):\n        return 2\n",
        ),
    ]);
    let done = p
        .run(
            None,
            &Refactoring::Rename {
                kind: RenameKind::Class,
                symbol: "nodes.Name".into(),
                new_name: "NameNode".into(),
                include_text: true,
                sites: SitePolicy::Refuse,
            },
        )
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(p.after(&done)["visitor.py"].contains("Calls visit_NameNode for"));
    assert!(done.mentions.is_empty(), "{:?}", done.mentions);
}

#[test]
fn a_class_name_that_finds_the_class_itself_or_fills_a_value_renames() {
    // Django's managers: `hasattr(module, self.__class__.__name__)` finds
    // the class where it is bound, renamed too; related names:
    // `{"class": cls.__name__.lower()}` is a value, not a name built
    let p = TestProject::new(&[
        (
            "nodes.py",
            "import importlib\n\n\nclass Name:\n    def deconstruct(self):\n        module = importlib.import_module(self.__module__)\n        name = self.__class__.__name__\n        if not hasattr(module, name):\n            raise ValueError(name)\n        return name\n",
        ),
        (
            "related.py",
            "def related_name(cls, name):\n    return name % {\"class\": cls.__name__.lower()}\n",
        ),
    ]);
    let done = p
        .run(None, &class("nodes.Name", "NameNode"))
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(done.also_renamed.is_empty());
    assert!(p.after(&done)["nodes.py"].contains("class NameNode:"));
}

#[test]
fn a_class_name_returned_or_compared_with_a_built_string_is_judged_by_the_literals() {
    // Django: `get_internal_type` returns `self.__class__.__name__`, and a
    // backend's table is keyed by "CharField"
    let p = TestProject::new(&[
        (
            "fields.py",
            "class Field:\n    def get_internal_type(self):\n        return self.__class__.__name__\n\n\nclass CharField(Field):\n    pass\n",
        ),
        ("backend.py", "data_types = {\"CharField\": \"varchar\"}\n"),
        (
            "gis.py",
            "def is_multi(field, kind):\n    if \"__\" in type(field).__name__:\n        return False\n    return field.__class__.__name__ == \"Multi%s\" % kind\n",
        ),
    ]);
    let message = refusal(&p, None, &class("fields.CharField", "TextField")).1;
    assert!(
        message.starts_with("Cannot rename fields.CharField: fields.py:2 keys or compares by a class's name (return self.__class__.__name__), and backend.py:0 spells 'CharField' as a string"),
        "{message}"
    );
    // a substring test, and a comparison with names starting `Multi`, do
    // not stop a class that has no literal of its name
    let p = TestProject::new(&[
        ("fields.py", "class Point:\n    pass\n"),
        (
            "gis.py",
            "def is_multi(field, kind):\n    if \"__\" in type(field).__name__:\n        return False\n    return field.__class__.__name__ == \"Multi%s\" % kind\n",
        ),
        ("other.py", "KINDS = [\"Point\"]\n"),
    ]);
    assert!(p
        .run(None, &class("fields.Point", "Spot"))
        .map_err(|e| e.message)
        .is_ok());
}
// Several projects in one workspace (issue 26 §3): a symbol is its own
// project's; a rename changes that project and the code that imports it,
// never another project's module of the same name.
// ---------------------------------------------------------------------

/// The files of a small project under `dir`: its package `tiny` under
/// `src/` or at its root, and its tests.
fn tiny_project(dir: &str, src_layout: bool) -> Vec<(String, String)> {
    let package = if src_layout {
        format!("{dir}/src/tiny")
    } else {
        format!("{dir}/tiny")
    };
    vec![
        (format!("{dir}/pyproject.toml"), "[project]\nname = 'tiny'\n".into()),
        (
            format!("{package}/__init__.py"),
            "from tiny.core import shout\n\n__all__ = ['shout']\n".into(),
        ),
        (format!("{package}/core.py"), "def shout(s):\n    return s.upper()\n".into()),
        (
            format!("{dir}/tests/test_core.py"),
            "import tiny\nfrom tiny.core import shout\n\n\ndef test_shout():\n    assert shout('a') == tiny.shout('a')\n".into(),
        ),
    ]
}

fn workspace_of(projects: &[(&str, bool)]) -> TestProject {
    let files: Vec<(String, String)> = projects
        .iter()
        .flat_map(|&(dir, src)| tiny_project(dir, src))
        .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    TestProject::new(&files)
}

/// What renaming `shout` to `yell` leaves in the project under `dir`.
fn renamed_tiny(after: &BTreeMap<String, String>, dir: &str, package: &str) {
    assert_eq!(
        after[&format!("{package}/__init__.py")],
        "from tiny.core import yell\n\n__all__ = ['yell']\n"
    );
    assert_eq!(
        after[&format!("{package}/core.py")],
        "def yell(s):\n    return s.upper()\n"
    );
    assert_eq!(
        after[&format!("{dir}/tests/test_core.py")],
        "import tiny\nfrom tiny.core import yell\n\n\ndef test_shout():\n    assert yell('a') == tiny.yell('a')\n"
    );
}

use std::collections::BTreeMap;

#[test]
fn a_rename_in_one_of_two_copies_of_a_project_changes_that_copy_only() {
    let p = workspace_of(&[("app_a", true), ("app_b", true)]);
    let done = p
        .run(
            Some(("app_a/src/tiny/core.py", 0, 4)),
            &rename("shout", "yell"),
        )
        .unwrap();
    let after = p.after(&done);
    assert_eq!(
        after.keys().collect::<Vec<_>>(),
        vec![
            "app_a/src/tiny/__init__.py",
            "app_a/src/tiny/core.py",
            "app_a/tests/test_core.py"
        ]
    );
    renamed_tiny(&after, "app_a", "app_a/src/tiny");
    // from a file of the other copy that does not define it: its project's
    let after = p.after(
        &p.run(
            Some(("app_b/tests/test_core.py", 0, 0)),
            &rename("tiny.core.shout", "yell"),
        )
        .unwrap(),
    );
    assert!(
        after.keys().all(|path| path.starts_with("app_b/")),
        "{after:?}"
    );
    renamed_tiny(&after, "app_b", "app_b/src/tiny");
    // from no file that decides: refused, naming the projects and the
    // names that work
    let e = p.run(None, &rename("shout", "yell")).unwrap_err();
    assert_eq!(e.kind, RefactorFailure::Ambiguous);
    assert_eq!(
        e.candidates,
        vec!["app_a.src.tiny.core.shout", "app_b.src.tiny.core.shout"]
    );
    assert!(
        e.message.contains("defined in the projects app_a, app_b: name one as app_a.src.tiny.core.shout or app_b.src.tiny.core.shout"),
        "{}",
        e.message
    );
    let after = p.after(
        &p.run(None, &rename("app_b.src.tiny.core.shout", "yell"))
            .unwrap(),
    );
    assert!(
        after.keys().all(|path| path.starts_with("app_b/")),
        "{after:?}"
    );
}

#[test]
fn a_rename_in_one_of_many_copies_changes_that_copy_as_if_it_were_alone() {
    let alone = workspace_of(&[("app_0", true)]);
    let done = alone
        .run(
            Some(("app_0/src/tiny/core.py", 0, 4)),
            &rename("shout", "yell"),
        )
        .unwrap();
    let (files, references) = counts(&done);
    // 15 copies, either layout
    let dirs: Vec<String> = (0..15).map(|i| format!("app_{i}")).collect();
    let projects: Vec<(&str, bool)> = dirs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.as_str(), i % 2 == 0))
        .collect();
    let p = workspace_of(&projects);
    for (dir, package) in [("app_7", "app_7/tiny"), ("app_12", "app_12/src/tiny")] {
        let done = p
            .run(
                Some((&format!("{package}/core.py"), 0, 4)),
                &rename("shout", "yell"),
            )
            .unwrap();
        assert_eq!(counts(&done), (files, references), "{dir}");
        let after = p.after(&done);
        assert!(
            after
                .keys()
                .all(|path| path.starts_with(&format!("{dir}/"))),
            "{after:?}"
        );
        renamed_tiny(&after, dir, package);
    }
}

/// A refusal names the part of the request at fault as data, where it is
/// raised: clients name their parameter from it, never from the message.
#[test]
fn a_refusal_names_the_argument_at_fault() {
    use super::super::Argument;
    let p = TestProject::new(&[(
        "a.py",
        "class A:\n    def go(self):\n        pass\n\n\nclass B:\n    def go(self):\n        pass\n\n\ndef f(x):\n    x.go()\n",
    )]);
    let at = |request: &Refactoring| p.run(None, request).unwrap_err().argument;
    assert_eq!(at(&rename("nothing", "x")), Some(Argument::Symbol));
    assert_eq!(at(&rename("go", "x")), Some(Argument::Symbol), "ambiguous");
    assert_eq!(at(&rename("a.A.go", "class")), Some(Argument::NewName));
    assert_eq!(at(&rename("a.A.go", "go")), Some(Argument::NewName));
    assert_eq!(at(&rename("a.f", "A")), Some(Argument::NewName), "conflict");
    assert_eq!(at(&rename("a.A.go", "run")), Some(Argument::Sites));
}
