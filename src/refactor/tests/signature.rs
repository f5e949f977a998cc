//! `Rename_Param` and `Signature` on real files: exact output texts and
//! exact refusals.

use crate::refactor::testing::TestProject;
use crate::refactor::{RefactorFailure, Refactored, Refactoring, Summary};

fn rename_param(function: &str, param: &str, new_name: &str) -> Refactoring {
    Refactoring::RenameParam {
        function: function.into(),
        param: param.into(),
        new_name: new_name.into(),
    }
}

fn signature(function: &str, old: &str, new: &str) -> Refactoring {
    Refactoring::Signature {
        function: function.into(),
        old_params: old.into(),
        new_params: new.into(),
    }
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
    2,  # x
    1,  # y
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
fn forwarding_calls_are_left_alone_and_said() {
    let code = "\
def f(a, b):
    return a + b

def g(*args, **kwargs):
    return f(*args, **kwargs)

f(1, 2)
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

f(2, 1)
",
        )],
        1,
    );
    assert_eq!(done.left_alone.len(), 1, "{:?}", done.left_alone);
    assert_eq!(done.left_alone[0].site.to_string(), "m.py:4:11");
    assert_eq!(
        done.left_alone[0].why,
        "forwards *args/**kwargs: the arguments cannot be followed"
    );
}
