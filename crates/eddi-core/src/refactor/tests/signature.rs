//! `Rename_Param` and `Signature` on real files: exact output texts and
//! exact refusals.

use crate::refactor::testing::TestProject;
use crate::refactor::{RefactorFailure, Refactored, Refactoring, SitePolicy, Summary};

fn rename_param(function: &str, param: &str, new_name: &str) -> Refactoring {
    Refactoring::RenameParam {
        function: function.into(),
        param: param.into(),
        new_name: new_name.into(),
        include_text: false,
        sites: SitePolicy::Refuse,
    }
}

fn signature(function: &str, old: &str, new: &str) -> Refactoring {
    Refactoring::Signature {
        function: function.into(),
        old_params: old.into(),
        new_params: new.into(),
        sites: SitePolicy::Refuse,
    }
}

/// The request with `Only Proven`.
fn only_proven(mut request: Refactoring) -> Refactoring {
    match &mut request {
        Refactoring::RenameParam { sites, .. } | Refactoring::Signature { sites, .. } => {
            *sites = SitePolicy::OnlyProven
        }
        _ => unreachable!(),
    }
    request
}

/// Runs `request` and checks every changed file's text (files not listed
/// must be unchanged) and the number of callers.
fn check(
    files: &[(&str, &str)],
    request: &Refactoring,
    expected: &[(&str, &str)],
    callers: usize,
) -> Refactored {
    let project = TestProject::new(files);
    let done = project
        .run(None, request)
        .unwrap_or_else(|e| panic!("{request:?} failed: {e}"));
    let after = project.after(&done);
    for (path, text) in expected {
        assert_eq!(after.get(*path).map(String::as_str), Some(*text), "{path}");
    }
    let changed: Vec<&String> = after.keys().collect();
    let wanted: Vec<&str> = expected.iter().map(|(p, _)| *p).collect();
    assert_eq!(changed, wanted, "files changed");
    match &done.summary {
        Summary::SignatureChanged { callers: n, .. } => assert_eq!(*n, callers, "callers"),
        other => panic!("summary {other:?}"),
    }
    done
}

fn refused(files: &[(&str, &str)], request: &Refactoring) -> (RefactorFailure, String) {
    let project = TestProject::new(files);
    let e = project.run(None, request).expect_err("refused");
    (e.kind, e.message)
}

// -- Rename_Param ------------------------------------------------------------

#[test]
fn rename_param_renames_the_body_and_keyword_arguments_everywhere() {
    let auth = "\
def authenticate(user, timeout=10):
    def retry():
        return timeout * 2  # a closure reads it
    def other(timeout):
        return timeout  # its own parameter
    return check(user, timeout, retry())
";
    let app = "\
from auth import authenticate
import auth
import functools

authenticate('a', timeout=5)
auth.authenticate('b', 7)
quick = functools.partial(authenticate, timeout=1)
authenticate(
    'c',
    timeout=3,  # short
)
";
    check(
        &[("auth.py", auth), ("app.py", app)],
        &rename_param("authenticate", "timeout", "limit"),
        &[
            (
                "app.py",
                "\
from auth import authenticate
import auth
import functools

authenticate('a', limit=5)
auth.authenticate('b', 7)
quick = functools.partial(authenticate, limit=1)
authenticate(
    'c',
    limit=3,  # short
)
",
            ),
            (
                "auth.py",
                "\
def authenticate(user, limit=10):
    def retry():
        return limit * 2  # a closure reads it
    def other(timeout):
        return timeout  # its own parameter
    return check(user, limit, retry())
",
            ),
        ],
        3,
    );
}

#[test]
fn rename_param_follows_methods_overrides_self_and_super() {
    let base = "\
class Base:
    def run(self, speed=1):
        return speed

    def go(self):
        return self.run(speed=2)


class Other:
    def run(self, speed=1):
        return speed
";
    let sub = "\
from base import Base, Other


class Sub(Base):
    def run(self, speed=1):
        return super().run(speed=speed + 1)


Sub().run(speed=3)
Base.run(Base(), speed=4)
Other().run(speed=5)
";
    check(
        &[("base.py", base), ("sub.py", sub)],
        &rename_param("Base.run", "speed", "pace"),
        &[
            (
                "base.py",
                "\
class Base:
    def run(self, pace=1):
        return pace

    def go(self):
        return self.run(pace=2)


class Other:
    def run(self, speed=1):
        return speed
",
            ),
            (
                "sub.py",
                "\
from base import Base, Other


class Sub(Base):
    def run(self, pace=1):
        return super().run(pace=pace + 1)


Sub().run(pace=3)
Base.run(Base(), pace=4)
Other().run(speed=5)
",
            ),
        ],
        4,
    );
}

#[test]
fn rename_param_refuses_names_that_collide() {
    let code = "\
def f(a, b):
    c = a + b
    return len(c)
";
    let files = [("m.py", code)];
    assert_eq!(
        refused(&files, &rename_param("f", "a", "b")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: m.f already has a parameter b at m.py:0:9".into()
        )
    );
    assert_eq!(
        refused(&files, &rename_param("f", "a", "c")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: c is already a local of m.f at m.py:1:4".into()
        )
    );
    assert_eq!(
        refused(&files, &rename_param("f", "a", "len")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: m.f reads len from outside at m.py:2:11: the parameter would hide it".into()
        )
    );
    assert_eq!(
        refused(&files, &rename_param("f", "a", "class")).0,
        RefactorFailure::InvalidArgument
    );
    assert_eq!(
        refused(&files, &rename_param("f", "x", "y")),
        (
            RefactorFailure::NotFound,
            "Not found: parameter 'x' of m.f. Parameters: a, b".into()
        )
    );
}

#[test]
fn rename_param_refuses_a_call_that_already_passes_the_new_name() {
    let code = "\
def f(a, **kw):
    return a, kw

f(a=1, b=2)
";
    assert_eq!(
        refused(&[("m.py", code)], &rename_param("f", "a", "b")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: the call at m.py:3:0 already passes b=".into()
        )
    );
}

// -- Signature ---------------------------------------------------------------

#[test]
fn the_spec_example_adds_a_parameter_with_a_default_and_leaves_callers() {
    let user = "\
def authenticate(username):
    return username
";
    let test = "\
from user import authenticate

authenticate('ann')
";
    check(
        &[("user.py", user), ("test_user.py", test)],
        &signature("authenticate", "username", "username, timeout=30"),
        &[(
            "user.py",
            "\
def authenticate(username, timeout=30):
    return username
",
        )],
        0,
    );
}

#[test]
fn a_value_for_callers_is_passed_by_keyword_at_every_call() {
    let user = "\
def authenticate(username):
    return username
";
    let test = "\
from user import authenticate

authenticate('ann')
authenticate(username='bob')
";
    check(
        &[("user.py", user), ("test_user.py", test)],
        &signature("authenticate", "username", "username, timeout:=30"),
        &[
            (
                "test_user.py",
                "\
from user import authenticate

authenticate('ann', timeout=30)
authenticate(username='bob', timeout=30)
",
            ),
            (
                "user.py",
                "\
def authenticate(username, timeout):
    return username
",
            ),
        ],
        2,
    );
}

#[test]
fn reorder_remove_and_rename_update_every_call() {
    let lib = "\
def move(x, y, unused=0, *, fast=False):
    return x - y if fast else y - x
";
    let app = "\
from lib import move

move(1, 2)
move(1, 2, 3, fast=True)
move(y=2, x=1)
move(
    1,  # x
    2,  # y
)
";
    check(
        &[("lib.py", lib), ("app.py", app)],
        &signature(
            "move",
            "x, y, unused=0, *, fast=False",
            "y, x, *, quick=False",
        ),
        &[
            (
                "app.py",
                "\
from lib import move

move(2, 1)
move(2, 1, quick=True)
move(y=2, x=1)
move(
    2,  # y
    1,  # x
)
",
            ),
            (
                "lib.py",
                "\
def move(y, x, *, quick=False):
    return x - y if quick else y - x
",
            ),
        ],
        3,
    );
}

#[test]
fn a_wrong_old_signature_is_a_conflict_showing_the_current_one() {
    let code = "\
def f(a, b: int = 1):
    return a + b
";
    assert_eq!(
        refused(&[("m.py", code)], &signature("f", "a", "a, c=2")),
        (
            RefactorFailure::SignatureConflict,
            "Signature conflict detected: current signature is f(a, b: int = 1)".into()
        )
    );
}

#[test]
fn removing_a_parameter_the_body_uses_is_refused_naming_the_line() {
    let code = "\
def f(a, b):
    return a + b
";
    assert_eq!(
        refused(&[("m.py", code)], &signature("f", "a, b", "a")),
        (
            RefactorFailure::Refused,
            "Cannot remove parameter b: the body of m.f still uses it at m.py:1:15".into()
        )
    );
}

#[test]
fn a_new_parameter_without_a_value_is_refused_saying_how_to_give_one() {
    let code = "def f(a):\n    return a\n";
    assert_eq!(
        refused(&[("m.py", code)], &signature("f", "a", "a, b")),
        (
            RefactorFailure::InvalidArgument,
            "The new parameter b needs a value for the existing calls: write the value callers should pass: f(a, b:=<value>), or give it a default: b=<value>".into()
        )
    );
}

#[test]
fn methods_keep_self_and_calls_through_the_class_pass_it() {
    let code = "\
class Account:
    def pay(self, amount, note=''):
        return amount

    def twice(self):
        return self.pay(1, 'x') + Account.pay(self, 2, note='y')


Account().pay(3)
";
    check(
        &[("bank.py", code)],
        &signature("Account.pay", "amount, note=''", "note='', amount=0"),
        &[(
            "bank.py",
            "\
class Account:
    def pay(self, note='', amount=0):
        return amount

    def twice(self):
        return self.pay('x', 1) + Account.pay(self, 'y', 2)


Account().pay(amount=3)
",
        )],
        3,
    );
}

#[test]
fn nested_and_recursive_calls_are_rewritten_inside_each_other() {
    let code = "\
def f(a, b):
    if a:
        return f(b, a - 1)
    return b

print(f(f(1, 2), 3))
";
    check(
        &[("m.py", code)],
        &signature("f", "a, b", "b, a"),
        &[(
            "m.py",
            "\
def f(b, a):
    if a:
        return f(a - 1, b)
    return b

print(f(3, f(2, 1)))
",
        )],
        3,
    );
}

#[test]
fn a_rename_in_a_signature_renames_the_body_and_keywords_through_recursion() {
    let code = "\
def walk(node, depth=0):
    for child in node:
        walk(child, depth=depth + 1)
    return depth
";
    check(
        &[("m.py", code)],
        &signature("walk", "node, depth=0", "node, level=0"),
        &[(
            "m.py",
            "\
def walk(node, level=0):
    for child in node:
        walk(child, level=level + 1)
    return level
",
        )],
        1,
    );
}

#[test]
fn reordered_arguments_with_side_effects_keep_their_order_by_keyword() {
    let code = "\
def f(a, b):
    return a - b

f(read(), read())
f(x, y)
";
    check(
        &[("m.py", code)],
        &signature("f", "a, b", "b, a"),
        &[(
            "m.py",
            "\
def f(b, a):
    return a - b

f(a=read(), b=read())
f(y, x)
",
        )],
        2,
    );
    // positional-only parameters cannot be passed by keyword
    assert_eq!(
        refused(&[("m.py", code)], &signature("f", "a, b", "b, a, /")),
        (
            RefactorFailure::Refused,
            "Cannot update the call at m.py:3:0: it would change the order in which its arguments are evaluated (pass them through names first); nothing was changed".into()
        )
    );
}

#[test]
fn removing_a_parameter_drops_its_argument_and_keeps_the_comments_of_the_others() {
    let lib = "\
def send(to, subject, legacy=None, body=''):
    return to, subject, body
";
    let app = "\
from lib import send

send('a', 's', None, 'b')
send('a', 's', legacy=1, body='b')
send(
    'a',  # to
    's',  # subject
    None,  # legacy
)
send('a', 's')
";
    check(
        &[("lib.py", lib), ("app.py", app)],
        &signature(
            "send",
            "to, subject, legacy=None, body=''",
            "to, subject, body=''",
        ),
        &[
            (
                "app.py",
                "\
from lib import send

send('a', 's', 'b')
send('a', 's', body='b')
send(
    'a',  # to
    's',  # subject
)
send('a', 's')
",
            ),
            (
                "lib.py",
                "\
def send(to, subject, body=''):
    return to, subject, body
",
            ),
        ],
        3,
    );
}

#[test]
fn keyword_only_and_positional_only_markers_are_kept_as_written() {
    let code = "\
def f(a, b, c=1):
    return a, b, c

f(1, 2, 3)
f(1, b=2)
";
    check(
        &[("m.py", code)],
        &signature("f", "a, b, c=1", "a, /, b, *, c=1"),
        &[(
            "m.py",
            "\
def f(a, /, b, *, c=1):
    return a, b, c

f(1, 2, c=3)
f(1, b=2)
",
        )],
        1,
    );
    // a keyword argument to a parameter that becomes positional-only is
    // passed positionally ...
    let keyword = "\
def f(a, b):
    return a, b

f(a=1, b=2)
";
    check(
        &[("m.py", keyword)],
        &signature("f", "a, b", "a, /, b"),
        &[("m.py", "def f(a, /, b):\n    return a, b\n\nf(1, b=2)\n")],
        1,
    );
    // ... unless a parameter before it is left to its default
    let gap = "\
def f(a=0, b=0):
    return a, b

f(b=2)
";
    assert_eq!(
        refused(&[("m.py", gap)], &signature("f", "a=0, b=0", "a=0, b=0, /")).1,
        "Cannot update the call at m.py:3:0: b is positional-only and cannot be passed after a parameter left to its default; nothing was changed"
    );
}

#[test]
fn crlf_files_and_tabs_keep_their_line_endings_and_indentation() {
    let code = "def f(a, b):\r\n\treturn a - b\r\n\r\nf(\r\n\t1,\r\n\t2,\r\n)\r\n";
    let project = TestProject::new(&[("m.py", code)]);
    let done = project
        .run(None, &signature("f", "a, b", "b, a, c=0"))
        .unwrap();
    let after = project.after(&done);
    assert_eq!(
        after["m.py"],
        "def f(b, a, c=0):\r\n\treturn a - b\r\n\r\nf(\r\n\t2,\r\n\t1,\r\n)\r\n"
    );
}

#[test]
fn a_call_value_for_a_middle_parameter_goes_where_the_positions_need_it() {
    let code = "\
def f(a, b):
    return a, b

f(1, 2)
f(1, b=2)
";
    check(
        &[("m.py", code)],
        &signature("f", "a, b", "a, mode:='fast', b"),
        &[(
            "m.py",
            "\
def f(a, mode, b):
    return a, b

f(1, 'fast', 2)
f(1, b=2, mode='fast')
",
        )],
        2,
    );
}

#[test]
fn the_function_is_looked_up_in_the_current_file_first_and_ambiguity_lists_candidates() {
    let a = "def run(x):\n    return x\n";
    let b = "def run(x):\n    return x\n\nrun(1)\n";
    let project = TestProject::new(&[("a.py", a), ("b.py", b)]);
    let request = rename_param("run", "x", "y");
    let e = project.run(None, &request).unwrap_err();
    assert_eq!(e.kind, RefactorFailure::Ambiguous);
    assert_eq!(e.candidates, vec!["a.run".to_string(), "b.run".to_string()]);
    assert!(e.message.contains("a.run at a.py:0:0"), "{}", e.message);
    let done = project.run(Some(("b.py", 0, 0)), &request).unwrap();
    let after = project.after(&done);
    assert_eq!(after.keys().collect::<Vec<_>>(), vec!["b.py"]);
    assert_eq!(after["b.py"], "def run(y):\n    return y\n\nrun(1)\n");
}

#[test]
fn a_nonlocal_rebinding_of_the_parameter_is_refused() {
    let code = "\
def counter(start):
    def bump():
        nonlocal start
        start += 1
    return bump
";
    assert_eq!(
        refused(
            &[("m.py", code)],
            &rename_param("counter", "start", "first")
        )
        .0,
        RefactorFailure::Refused
    );
}

#[test]
fn an_override_with_another_signature_is_refused() {
    let code = "\
class A:
    def m(self, x):
        return x


class B(A):
    def m(self, y):
        return y
";
    assert_eq!(
        refused(&[("m.py", code)], &signature("A.m", "x", "x, z=0")),
        (
            RefactorFailure::Refused,
            "m.B.m overrides m.A.m with another signature (m(self, y)): make them match first"
                .into()
        )
    );
}

#[test]
fn overrides_change_with_the_method_they_override() {
    let code = "\
class A:
    def m(self, x):
        return x


class B(A):
    def m(self, x):
        return super().m(x)


B().m(1)
";
    check(
        &[("m.py", code)],
        &signature("A.m", "x", "x, *, strict:=True"),
        &[(
            "m.py",
            "\
class A:
    def m(self, x, *, strict):
        return x


class B(A):
    def m(self, x, *, strict):
        return super().m(x, strict=True)


B().m(1, strict=True)
",
        )],
        2,
    );
}

#[test]
fn static_and_class_methods_bind_no_receiver_or_always_bind_it() {
    let code = "\
class K:
    @staticmethod
    def s(a, b):
        return a - b

    @classmethod
    def c(cls, a, b):
        return a - b


K.s(1, 2)
K().s(1, 2)
K.c(1, 2)
K().c(1, 2)
";
    let done = check(
        &[("k.py", code)],
        &signature("K.s", "a, b", "b, a"),
        &[(
            "k.py",
            "\
class K:
    @staticmethod
    def s(b, a):
        return a - b

    @classmethod
    def c(cls, a, b):
        return a - b


K.s(2, 1)
K().s(2, 1)
K.c(1, 2)
K().c(1, 2)
",
        )],
        2,
    );
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
    check(
        &[("k.py", code)],
        &signature("K.c", "a, b", "b, a"),
        &[(
            "k.py",
            "\
class K:
    @staticmethod
    def s(a, b):
        return a - b

    @classmethod
    def c(cls, b, a):
        return a - b


K.s(1, 2)
K().s(1, 2)
K.c(2, 1)
K().c(2, 1)
",
        )],
        2,
    );
}

#[test]
fn a_generator_argument_gets_its_own_parentheses_when_others_join_it() {
    let code = "\
def total(items):
    return sum(items)

total(x for x in range(3))
";
    check(
        &[("m.py", code)],
        &signature("total", "items", "items, start:=0"),
        &[(
            "m.py",
            "\
def total(items, start):
    return sum(items)

total((x for x in range(3)), start=0)
",
        )],
        1,
    );
}

#[test]
fn async_functions_and_annotations_are_handled() {
    let code = "\
async def fetch(url: str, retries: int = 3) -> bytes:
    return await get(url, retries)

async def main():
    await fetch('u', retries=1)
";
    check(
        &[("m.py", code)],
        &signature(
            "fetch",
            "url, retries=3",
            "url, retries=3, *, timeout: float = 1.0",
        ),
        &[(
            "m.py",
            "\
async def fetch(url: str, retries: int = 3, *, timeout: float = 1.0) -> bytes:
    return await get(url, retries)

async def main():
    await fetch('u', retries=1)
",
        )],
        0,
    );
}

#[test]
fn invalid_lists_say_what_is_wrong() {
    let code = "def f(a):\n    return a\n";
    let (kind, message) = refused(&[("m.py", code)], &signature("f", "a", "a, a"));
    assert_eq!(kind, RefactorFailure::InvalidArgument);
    assert_eq!(
        message,
        "Invalid new signature f(a, a): 'a, a' is not a valid parameter list: duplicate argument 'a' in function definition"
    );
    let (kind, _) = refused(&[("m.py", code)], &signature("f", "a", "a, b=1, c"));
    assert_eq!(kind, RefactorFailure::InvalidArgument);
    let (kind, message) = refused(&[("m.py", code)], &signature("nosuch", "a", "a"));
    assert_eq!(kind, RefactorFailure::NotFound, "{message}");
}

#[test]
fn an_override_is_changed_through_the_method_it_overrides() {
    let base = "class Base:\n    def m(self, x):\n        return x\n";
    let sub = "\
from base import Base


class Mid(Base):
    pass


class Sub(Mid):
    def m(self, x):
        return x
";
    let files = [("base.py", base), ("sub.py", sub)];
    assert_eq!(
        refused(&files, &rename_param("Sub.m", "x", "y")),
        (
            RefactorFailure::Refused,
            "sub.Sub.m overrides base.Base.m: change base.Base.m instead, which changes its overrides with it".into()
        )
    );
    assert_eq!(
        refused(&files, &signature("Sub.m", "x", "x, y=1")).0,
        RefactorFailure::Refused
    );
    // an unrelated class of the same name does not count
    let unrelated = "class Base:\n    def m(self, x):\n        return x\n";
    let mine =
        "class Base:\n    pass\n\n\nclass Sub(Base):\n    def m(self, x):\n        return x\n";
    check(
        &[("other.py", unrelated), ("mine.py", mine)],
        &rename_param("mine.Sub.m", "x", "y"),
        &[(
            "mine.py",
            "class Base:\n    pass\n\n\nclass Sub(Base):\n    def m(self, y):\n        return y\n",
        )],
        0,
    );
}

#[test]
fn constructors_are_called_through_the_class() {
    let code = "\
class Point:
    def __init__(self, x, y=0):
        self.x = x
        self.y = y


class Point3(Point):
    def __init__(self, x, y=0, z=0):
        super().__init__(x, y=y)
        Point.__init__(self, x, y=y)
        self.z = z


p = Point(1, y=2)
";
    check(
        &[("geo.py", code)],
        &rename_param("Point.__init__", "y", "north"),
        &[(
            "geo.py",
            "\
class Point:
    def __init__(self, x, north=0):
        self.x = x
        self.y = north


class Point3(Point):
    def __init__(self, x, y=0, z=0):
        super().__init__(x, north=y)
        Point.__init__(self, x, north=y)
        self.z = z


p = Point(1, north=2)
",
        )],
        3,
    );
}

#[test]
fn overloads_rename_together_and_a_signature_of_several_definitions_is_refused() {
    let code = "\
from typing import overload


@overload
def parse(text: str, strict: bool = ...) -> str: ...
@overload
def parse(text: bytes, strict: bool = ...) -> bytes: ...
def parse(text, strict=False):
    return text if strict else text.strip()


parse('x', strict=True)
";
    check(
        &[("p.py", code)],
        &rename_param("parse", "strict", "exact"),
        &[(
            "p.py",
            "\
from typing import overload


@overload
def parse(text: str, exact: bool = ...) -> str: ...
@overload
def parse(text: bytes, exact: bool = ...) -> bytes: ...
def parse(text, exact=False):
    return text if exact else text.strip()


parse('x', exact=True)
",
        )],
        1,
    );
    assert_eq!(
        refused(&[("p.py", code)], &signature("parse", "text, strict=False", "text")),
        (
            RefactorFailure::Refused,
            "p.parse is defined 3 times (p.py:4:0, p.py:6:0, p.py:7:0): change each definition by hand, or make it one".into()
        )
    );
}

#[test]
fn a_change_calls_cannot_notice_lists_no_call_sites() {
    let code = "\
class Jar:
    def get(self, name):
        return name


def use(jar):
    return jar.get('a')
";
    let done = check(
        &[("j.py", code)],
        &signature("Jar.get", "name", "name, default=None"),
        &[(
            "j.py",
            "\
class Jar:
    def get(self, name, default=None):
        return name


def use(jar):
    return jar.get('a')
",
        )],
        0,
    );
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
}

#[test]
fn mentions_in_the_docstring_and_comments_are_reported_not_changed() {
    let code = "\
def f(timeout):
    \"\"\"Waits.

    :param timeout: seconds (timeouts are rounded)
    \"\"\"
    return timeout  # timeout in seconds
";
    let done = check(
        &[("m.py", code)],
        &rename_param("f", "timeout", "limit"),
        &[(
            "m.py",
            "\
def f(limit):
    \"\"\"Waits.

    :param timeout: seconds (timeouts are rounded)
    \"\"\"
    return limit  # timeout in seconds
",
        )],
        0,
    );
    let mentions: Vec<String> = done.mentions.iter().map(|m| m.to_string()).collect();
    assert_eq!(mentions, vec!["m.py:3:11", "m.py:5:22"]);
}

#[test]
fn positional_only_and_star_parameters_rename_in_the_body_only() {
    let code = "\
def f(a, /, *rest, **extra):
    return a, rest, extra

f(1, 2, a=3)
";
    check(
        &[("m.py", code)],
        &rename_param("f", "a", "first"),
        &[(
            "m.py",
            "def f(first, /, *rest, **extra):\n    return first, rest, extra\n\nf(1, 2, a=3)\n",
        )],
        0,
    );
    check(
        &[("m.py", code)],
        &rename_param("f", "rest", "more"),
        &[(
            "m.py",
            "def f(a, /, *more, **extra):\n    return a, more, extra\n\nf(1, 2, a=3)\n",
        )],
        0,
    );
}

#[test]
fn a_global_declaration_of_the_new_name_is_a_conflict() {
    let code = "\
def f(a):
    global b
    b = a
";
    assert_eq!(
        refused(&[("m.py", code)], &rename_param("f", "a", "b")),
        (
            RefactorFailure::NameConflict,
            "Name conflict exists: m.f declares b global or nonlocal".into()
        )
    );
}

#[test]
fn comments_at_line_ends_move_with_their_arguments() {
    let code = "\
def f(a, b):
    return a - b

f(
    1,  # first
    2  # second
)
";
    check(
        &[("m.py", code)],
        &signature("f", "a, b", "b, a"),
        &[(
            "m.py",
            "\
def f(b, a):
    return a - b

f(
    2,  # second
    1  # first
)
",
        )],
        1,
    );
    // CRLF: the same, with the file's line breaks kept
    let crlf = code.replace('\n', "\r\n");
    let project = TestProject::new(&[("m.py", &crlf)]);
    let done = project.run(None, &signature("f", "a, b", "b, a")).unwrap();
    for (_, file) in done.change.files() {
        if let crate::change::FileOp::Edit(edits) = &file.op {
            assert!(edits.iter().all(|i| !i.insert.contains('\r')), "{edits:?}");
        }
    }
    assert_eq!(
        project.after(&done)["m.py"],
        "def f(b, a):\r\n    return a - b\r\n\r\nf(\r\n    2,  # second\r\n    1  # first\r\n)\r\n"
    );
}

#[test]
fn stubs_next_to_the_module_change_with_it() {
    let code = "\
class Client:
    def get(self, url, timeout=None):
        return url, timeout
";
    let stub = "\
class Client:
    def get(self, url: str, timeout: float | None = ...) -> tuple: ...
";
    let app = "from client import Client\n\nClient().get('u', timeout=1)\n";
    let files = [("client.py", code), ("client.pyi", stub), ("app.py", app)];
    check(
        &files,
        &rename_param("Client.get", "timeout", "deadline"),
        &[
            ("app.py", "from client import Client\n\nClient().get('u', deadline=1)\n"),
            (
                "client.py",
                "class Client:\n    def get(self, url, deadline=None):\n        return url, deadline\n",
            ),
            (
                "client.pyi",
                "class Client:\n    def get(self, url: str, deadline: float | None = ...) -> tuple: ...\n",
            ),
        ],
        1,
    );
    check(
        &files,
        &signature("Client.get", "url, timeout=None", "timeout=None, *, url"),
        &[
            ("app.py", "from client import Client\n\nClient().get(url='u', timeout=1)\n"),
            (
                "client.py",
                "class Client:\n    def get(self, timeout=None, *, url):\n        return url, timeout\n",
            ),
            (
                "client.pyi",
                "class Client:\n    def get(self, timeout: float | None = ..., *, url: str) -> tuple: ...\n",
            ),
        ],
        1,
    );
    let other = "class Client:\n    def get(self, url: str) -> tuple: ...\n";
    assert_eq!(
        refused(
            &[("client.py", code), ("client.pyi", other)],
            &signature("Client.get", "url, timeout=None", "url")
        ),
        (
            RefactorFailure::Refused,
            "The stub client.pyi declares get(self, url: str): make it match client.Client.get first".into()
        )
    );
}

#[test]
fn a_decorator_that_may_change_the_arguments_is_said() {
    let code = "\
import functools


def logged(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapper


@logged
def add(a, b):
    return a + b


add(1, b=2)
";
    let done = check(
        &[("m.py", code)],
        &rename_param("add", "b", "c"),
        &[(
            "m.py",
            &code
                .replace(
                    "add(a, b):\n    return a + b",
                    "add(a, c):\n    return a + c",
                )
                .replace("add(1, b=2)", "add(1, c=2)"),
        )],
        1,
    );
    let notes: Vec<String> = done
        .left_alone
        .iter()
        .map(|l| format!("{}: {}", l.site, l.why))
        .collect();
    assert_eq!(
        notes,
        vec!["m.py:11:0: decorated with @logged: the calls were updated as if it passed them through unchanged"]
    );
}

#[test]
fn nested_functions_are_changed_where_they_are_called() {
    let code = "\
def outer(xs):
    def pick(x, default=None):
        return x or default
    return [pick(x, default=0) for x in xs]
";
    check(
        &[("m.py", code)],
        &rename_param("outer.pick", "default", "fallback"),
        &[(
            "m.py",
            "\
def outer(xs):
    def pick(x, fallback=None):
        return x or fallback
    return [pick(x, fallback=0) for x in xs]
",
        )],
        1,
    );
}

#[test]
fn definitions_written_one_parameter_per_line_stay_so() {
    let code = "\
def f(
    a,  # the a
    b,  # the b
):
    return a, b


f(
    1,
    2,
)
f(1, 2)
";
    check(
        &[("m.py", code)],
        &signature("f", "a, b", "b, a, c:=0"),
        &[(
            "m.py",
            "\
def f(
    b,  # the b
    a,  # the a
    c,
):
    return a, b


f(
    2,
    1,
    c=0,
)
f(2, 1, c=0)
",
        )],
        2,
    );
    let no_trailing_comma = "def f(\n    a,  # the a\n    b  # the b\n):\n    return a, b\n";
    check(
        &[("m.py", no_trailing_comma)],
        &signature("f", "a, b", "a, b, c=1"),
        &[(
            "m.py",
            "def f(\n    a,  # the a\n    b,  # the b\n    c=1\n):\n    return a, b\n",
        )],
        0,
    );
}

#[test]
fn classes_variables_and_properties_are_not_functions() {
    let code = "\
class C:
    def __init__(self, a):
        self.a = a

    @property
    def size(self):
        return 1


LIMIT = 3
";
    let files = [("m.py", code)];
    assert_eq!(
        refused(&files, &rename_param("C", "a", "b")),
        (
            RefactorFailure::InvalidArgument,
            "m.C is a class: name its constructor, C.__init__".into()
        )
    );
    assert_eq!(
        refused(&files, &rename_param("LIMIT", "a", "b")).0,
        RefactorFailure::InvalidArgument
    );
    assert_eq!(
        refused(&files, &signature("C.size", "", "x=1")),
        (
            RefactorFailure::Refused,
            "m.C.size is a property accessor (@property): it is never called with arguments".into()
        )
    );
}

#[test]
fn broken_code_elsewhere_neither_panics_nor_blocks() {
    let lib = "def f(a, b):\n    return a + b\n";
    let broken = "from lib import f\n\nf(1, 2)\ndef g(:\n    f(b=1, a=2\n";
    let project = TestProject::new(&[("lib.py", lib), ("broken.py", broken)]);
    let done = project
        .run(None, &rename_param("f", "b", "c"))
        .expect("the errors broken.py already has do not count");
    let after = project.after(&done);
    assert_eq!(after["lib.py"], "def f(a, c):\n    return a + c\n");
    // its calls pass no keyword; the unclosed one is not a call the tree shows
    assert_eq!(after.get("broken.py"), None);
}

#[test]
fn a_signature_change_is_refused_when_the_function_escapes_as_a_value() {
    // `pad(width, s)` calls through the alias would bind the old way.
    let files = [(
        "pad.py",
        "def padleft(width, s):\n    return s.rjust(width)\n\n\ndef choose():\n    pad = padleft\n    return pad(3, \"x\")\n\n\npadleft(2, \"y\")\n",
    )];
    let (kind, message) = refused(&files, &signature("padleft", "width, s", "s, width"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot change the signature of pad.padleft: it is used as a value at pad.py:5:10, and calls through it cannot be updated; change those uses first"
    );
    // Renaming a parameter keeps positional calls through the alias working.
    let done = check(
        &files,
        &rename_param("padleft", "s", "text"),
        &[(
            "pad.py",
            "def padleft(width, text):\n    return text.rjust(width)\n\n\ndef choose():\n    pad = padleft\n    return pad(3, \"x\")\n\n\npadleft(2, \"y\")\n",
        )],
        0,
    );
    assert_eq!(done.left_alone.len(), 1);
}

// -- calls that pass *args / **kwargs on (issue 26) ----------------------------

/// The forwarding calls a refactor followed, as `path:line:col`.
fn followed(done: &Refactored) -> Vec<String> {
    match &done.summary {
        Summary::SignatureChanged { followed, .. } => {
            followed.iter().map(|l| l.to_string()).collect()
        }
        other => panic!("summary {other:?}"),
    }
}

fn notes(done: &Refactored) -> Vec<String> {
    done.left_alone
        .iter()
        .map(|l| format!("{}: {}", l.site, l.why))
        .collect()
}

#[test]
fn a_constructor_forwarding_kwargs_to_super_has_its_callers_renamed_transitively() {
    let fields = "\
class Field:
    def __init__(self, *, load_default=None, required=False):
        self.load_default = load_default


class DateTime(Field):
    def __init__(self, format=None, **kwargs):
        super().__init__(**kwargs)
        self.format = format


class NaiveDateTime(DateTime):
    def __init__(self, format=None, *, timezone=None, **kwargs):
        super().__init__(format=format, **kwargs)


class Raw(Field):
    pass


class Pluck(Field):
    def __init__(self, load_default=0, **kwargs):
        super().__init__(**kwargs)
        self.own = load_default


class ValidationError(Exception):
    def __init__(self, message, **kwargs):
        super().__init__(message, **kwargs)


class Meta(type):
    def __init__(cls, name, bases, ns, **kwargs):
        super().__init__(name, bases, ns, **kwargs)
";
    let schema = "\
import fields

a = fields.DateTime(load_default=1)
b = fields.NaiveDateTime('%Y', load_default=2, timezone=None)
c = fields.Raw(load_default=3)
d = fields.Pluck(load_default=4)
e = fields.Field(required=True, load_default=5)
";
    let done = check(
        &[("fields.py", fields), ("schema.py", schema)],
        &rename_param("fields.Field.__init__", "load_default", "default_on_load"),
        &[
            (
                "fields.py",
                &fields
                    .replacen(
                        "*, load_default=None, required=False):\n        self.load_default = load_default",
                        "*, default_on_load=None, required=False):\n        self.load_default = default_on_load",
                        1,
                    ),
            ),
            (
                "schema.py",
                "\
import fields

a = fields.DateTime(default_on_load=1)
b = fields.NaiveDateTime('%Y', default_on_load=2, timezone=None)
c = fields.Raw(default_on_load=3)
d = fields.Pluck(load_default=4)
e = fields.Field(required=True, default_on_load=5)
",
            ),
        ],
        4,
    );
    // DateTime's and NaiveDateTime's super() calls were followed; Pluck
    // takes load_default itself; the exception and the metaclass are no
    // calls of Field.__init__
    assert_eq!(followed(&done), vec!["fields.py:7:16", "fields.py:13:16"]);
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
}

#[test]
fn keywords_in_a_kwargs_it_cannot_see_into_refuse_unless_only_proven() {
    let code = "\
def f(a, b=1):
    return a + b

def wrap(**options):
    return f(1, **options)

wrap(b=2)
f(1, **{'b': 2})
";
    let (kind, message) = refused(&[("m.py", code)], &rename_param("f", "b", "c"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot rename parameter b of m.f: 1 call it cannot rewrite: m.py:7:0 (passes **{'b': 2}: a key 'b' in it cannot be renamed); nothing was changed. Only Proven changes only the calls it can prove (the project may then be broken at those sites)"
    );
    let done = check(
        &[("m.py", code)],
        &only_proven(rename_param("f", "b", "c")),
        &[(
            "m.py",
            "\
def f(a, c=1):
    return a + c

def wrap(**options):
    return f(1, **options)

wrap(c=2)
f(1, **{'b': 2})
",
        )],
        1,
    );
    assert_eq!(followed(&done), vec!["m.py:4:11"]);
    assert_eq!(
        notes(&done),
        vec!["m.py:7:0: may be broken: passes **{'b': 2}: a key 'b' in it cannot be renamed"]
    );
}

#[test]
fn a_forwarder_that_reads_the_key_itself_is_a_possible_site() {
    let code = "\
def f(a, b=1):
    return a + b

def wrap(**options):
    options.pop('b', None)
    return f(1, **options)

wrap(b=2)
";
    let (_, message) = refused(&[("m.py", code)], &rename_param("f", "b", "c"));
    assert!(
        message.contains("m.py:5:11 (m.wrap reads 'b' from **options before passing it on)"),
        "{message}"
    );
}

#[test]
fn a_possible_call_that_passes_the_keyword_refuses_and_one_that_does_not_is_fine() {
    let code = "\
class Job:
    def run(self, speed=1):
        return speed


def start(job):
    return job.run(speed=2)


def stop(job):
    return job.run()


handlers = [Job.run]
Job().run(speed=3)
";
    let (_, message) = refused(
        &[("jobs.py", code)],
        &rename_param("Job.run", "speed", "pace"),
    );
    assert_eq!(
        message,
        "Cannot rename parameter speed of jobs.Job.run: 1 call it cannot rewrite: jobs.py:6:15 (a possible call (the receiver's type is not known) passes speed=); nothing was changed. Only Proven changes only the calls it can prove (the project may then be broken at those sites)"
    );
    let done = check(
        &[("jobs.py", code)],
        &only_proven(rename_param("Job.run", "speed", "pace")),
        &[(
            "jobs.py",
            &code
                .replace(
                    "def run(self, speed=1):\n        return speed",
                    "def run(self, pace=1):\n        return pace",
                )
                .replace("Job().run(speed=3)", "Job().run(pace=3)"),
        )],
        1,
    );
    assert_eq!(
        notes(&done),
        vec![
            "jobs.py:6:15: may be broken: a possible call (the receiver's type is not known) passes speed=",
            "jobs.py:13:16: used as a value: calls through it are not followed",
        ]
    );
}

#[test]
fn a_plain_wrapper_passing_args_and_kwargs_on_is_followed_by_a_reorder() {
    let code = "\
def f(a, b):
    return a + b

def g(*args, **kwargs):
    return f(*args, **kwargs)

class Proxy:
    def call(self, *args, **kwargs):
        return g(*args, **kwargs)

f(1, 2)
g(3, 4)
g(5, b=6)
Proxy().call(7, 8)
";
    let done = check(
        &[("m.py", code)],
        &signature("f", "a, b", "b, a"),
        &[(
            "m.py",
            "\
def f(b, a):
    return a + b

def g(*args, **kwargs):
    return f(*args, **kwargs)

class Proxy:
    def call(self, *args, **kwargs):
        return g(*args, **kwargs)

f(2, 1)
g(4, 3)
g(6, 5)
Proxy().call(8, 7)
",
        )],
        4,
    );
    assert_eq!(followed(&done), vec!["m.py:4:11", "m.py:8:15"]);
}

#[test]
fn a_positional_insert_through_args_it_cannot_follow_refuses() {
    let code = "\
def intcomma(value, ndigits=None):
    return value

def check(test_args):
    return intcomma(*test_args)

def wrap(x, *args):
    return intcomma(x, *args)

intcomma(1, 2)
";
    let request = signature(
        "intcomma",
        "value, ndigits=None",
        "value, strict:=False, ndigits=None",
    );
    let (kind, message) = refused(&[("m.py", code)], &request);
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot change the signature of m.intcomma: 2 calls it cannot rewrite: m.py:4:11 (passes *test_args: its values would bind to other parameters), m.py:7:11 (passes *args: its values would bind to other parameters); nothing was changed. Only Proven changes only the calls it can prove (the project may then be broken at those sites)"
    );
    let done = check(
        &[("m.py", code)],
        &only_proven(request),
        &[(
            "m.py",
            &code
                .replace(
                    "def intcomma(value, ndigits=None)",
                    "def intcomma(value, strict, ndigits=None)",
                )
                .replace("intcomma(1, 2)", "intcomma(1, False, 2)"),
        )],
        1,
    );
    assert_eq!(
        notes(&done),
        vec![
            "m.py:4:11: may be broken: passes *test_args: its values would bind to other parameters",
            "m.py:7:11: may be broken: passes *args: its values would bind to other parameters",
        ]
    );
}

#[test]
fn a_change_that_binds_forwarded_arguments_as_before_is_not_refused() {
    let code = "\
def intcomma(value, ndigits=None, *, sep=','):
    return value

def check(test_args, options):
    return intcomma(*test_args, **options)

intcomma(1, 2)
";
    // appended with a value for the callers: `*test_args` cannot reach
    // it, `**options` could not hold it
    check(
        &[("m.py", code)],
        &signature(
            "intcomma",
            "value, ndigits, *, sep",
            "value, ndigits, *, sep, strict:=False",
        ),
        &[(
            "m.py",
            "\
def intcomma(value, ndigits=None, *, sep=',', strict):
    return value

def check(test_args, options):
    return intcomma(*test_args, **options, strict=False)

intcomma(1, 2, strict=False)
",
        )],
        2,
    );
}

#[test]
fn the_old_list_may_name_the_parameters_alone_and_bare_new_names_keep_what_they_had() {
    let code = "\
def naturalsize(
    value: float | str,
    binary: bool = False,
    gnu: bool = False,
    format: str = \"%.1f\",
) -> str:
    return format % value

naturalsize(300, False, True)
naturalsize(300, gnu=True)
";
    check(
        &[("m.py", code)],
        &signature(
            "naturalsize",
            "value, binary, gnu, format",
            "value, gnu, binary, format",
        ),
        &[(
            "m.py",
            "\
def naturalsize(
    value: float | str,
    gnu: bool = False,
    binary: bool = False,
    format: str = \"%.1f\",
) -> str:
    return format % value

naturalsize(300, True, False)
naturalsize(300, gnu=True)
",
        )],
        1,
    );
    // `name:=value` takes the default away (the annotation stays); the
    // calls that relied on it pass the value
    let scale =
        "def scale(x: float, factor: int = 2):\n    return x * factor\n\nscale(1)\nscale(1, 3)\n";
    check(
        &[("s.py", scale)],
        &signature("scale", "x, factor", "x, factor:=2"),
        &[(
            "s.py",
            "def scale(x: float, factor: int):\n    return x * factor\n\nscale(1, factor=2)\nscale(1, 3)\n",
        )],
        1,
    );
    // names alone must still be the current names in order
    let (kind, _) = refused(
        &[("m.py", code)],
        &signature(
            "naturalsize",
            "value, gnu, binary, format",
            "value, binary, gnu, format",
        ),
    );
    assert_eq!(kind, RefactorFailure::SignatureConflict);
}

#[test]
fn doctest_examples_that_call_it_are_listed() {
    let code = "\
def naturalsize(value, binary=False, gnu=False):
    \"\"\"Sizes.

    >>> naturalsize(300, False, True)
    '300B'
    >>> naturalsize(3000)  # binds as before: not listed
    '3.0 kB'
    \"\"\"
    return value

naturalsize(1, True)
";
    let done = check(
        &[("m.py", code)],
        &signature("naturalsize", "value, binary, gnu", "value, gnu, binary"),
        &[(
            "m.py",
            &code
                .replace(
                    "value, binary=False, gnu=False",
                    "value, gnu=False, binary=False",
                )
                .replace("naturalsize(1, True)", "naturalsize(1, binary=True)"),
        )],
        1,
    );
    assert_eq!(
        notes(&done),
        vec!["m.py:3:8: a doctest example calls it: not rewritten, update it by hand"]
    );
}

#[test]
fn include_text_renames_the_mentions_in_the_function() {
    let code = "\
def f(timeout):
    \"\"\"Waits.

    :param timeout: seconds
    \"\"\"
    return timeout  # timeout in seconds
";
    let request = Refactoring::RenameParam {
        function: "f".into(),
        param: "timeout".into(),
        new_name: "limit".into(),
        include_text: true,
        sites: SitePolicy::Refuse,
    };
    let done = check(
        &[("m.py", code)],
        &request,
        &[("m.py", &code.replace("timeout", "limit"))],
        0,
    );
    assert!(done.mentions.is_empty(), "{:?}", done.mentions);
}

#[test]
fn a_positional_insert_reaches_the_callers_of_a_wrapper_that_passes_everything_on() {
    let code = "\
def intcomma(value, ndigits=None):
    return value

def fmt(*args, **kwargs):
    return intcomma(*args, **kwargs)

fmt(1, 2)
fmt(3, ndigits=4)
";
    let done = check(
        &[("m.py", code)],
        &signature(
            "intcomma",
            "value, ndigits",
            "value, strict:=False, ndigits=None",
        ),
        &[(
            "m.py",
            "\
def intcomma(value, strict, ndigits=None):
    return value

def fmt(*args, **kwargs):
    return intcomma(*args, **kwargs)

fmt(1, False, 2)
fmt(3, ndigits=4, strict=False)
",
        )],
        2,
    );
    assert_eq!(followed(&done), vec!["m.py:4:11"]);
}

#[test]
fn a_decorator_application_is_a_call_passing_the_definition() {
    let lib = "\
def register(fn, name=None):
    return fn
";
    let app = "\
import lib
from lib import register


@register
def a():
    pass


class C:
    @lib.register
    def b(self):
        pass


register(len, 'x')
";
    // the decorated definition still binds to fn: the decorators stay
    check(
        &[("lib.py", lib), ("app.py", app)],
        &signature("lib.register", "fn, name=None", "fn, *, name=None"),
        &[
            ("app.py", &app.replace("len, 'x'", "len, name='x'")),
            ("lib.py", "def register(fn, *, name=None):\n    return fn\n"),
        ],
        1,
    );
    // …but one that would need another argument there is refused
    let (kind, message) = refused(
        &[("lib.py", lib), ("app.py", app)],
        &signature("lib.register", "fn, name=None", "name, fn"),
    );
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot update the call at app.py:4:1: it applies the function as a decorator, which passes the decorated definition as the one positional argument and cannot pass anything else; the new signature would not take it that way (apply that decorator by hand first); nothing was changed"
    );
}

/// A refusal names the part of the request at fault as data, where it is
/// raised: clients name their parameter from it, never from the message.
#[test]
fn a_refusal_names_the_argument_at_fault() {
    use crate::refactor::Argument;
    let p = TestProject::new(&[("m.py", "def f(a, b):\n    return a\n\n\nf(1, 2)\n")]);
    let at = |request: &Refactoring| p.run(None, request).unwrap_err().argument;
    assert_eq!(at(&rename_param("g", "a", "z")), Some(Argument::Symbol));
    assert_eq!(at(&rename_param("f", "c", "d")), Some(Argument::Param));
    assert_eq!(
        at(&rename_param("f", "a", "class")),
        Some(Argument::NewName)
    );
    assert_eq!(at(&rename_param("f", "a", "b")), Some(Argument::NewName));
    assert_eq!(at(&signature("f", "a", "a, b")), Some(Argument::OldParams));
    assert_eq!(at(&signature("f", "a, (", "a")), Some(Argument::OldParams));
    assert_eq!(
        at(&signature("f", "a, b", "a, (")),
        Some(Argument::NewParams)
    );
}
