use super::super::testing::{applied as moved, pytest, refusal};
use super::super::{RefactorFailure, Refactoring, Summary};

fn move_method(method: &str, target: &str) -> Refactoring {
    Refactoring::MoveMethod {
        method: method.into(),
        target: target.into(),
        name: None,
    }
}

const VALIDATION: &str = r#"class UserValidator:
    """Checks users."""

    def __init__(self, strict=False):
        self.strict = strict

    def check_name(self, name):
        return bool(name) and (not self.strict or name.istitle())
"#;

const MAIL: &str = r#"class Mailer:
    def __init__(self):
        self.sent = []

    def deliver(self, to, text):
        self.sent.append((to, text))
        return len(self.sent)
"#;

const USERS: &str = r#"import re

from shop.mail import Mailer
from shop.validation import UserValidator


class User:
    def __init__(self, name, email):
        self.name = name
        self.email = email
        self.validator = UserValidator(strict=True)

    # Whether the user may sign up.
    def validate(self, extra=""):
        """True when the name and email are fine."""
        ok = self.validator.check_name(self.name)
        return ok and bool(re.match(r"^[^@]+@[^@]+$", self.email + extra))

    def notify(self, mailer: Mailer, text):
        return mailer.deliver(self.email, text)

    def signup(self):
        if not self.validate():
            return "refused"
        return "welcome %s" % self.name

    def validity(self):
        return self.validator.strict


class Admin(User):
    def promote(self):
        return self.validate() and self.notify(Mailer(), "promoted")


class Form:
    def validate(self):
        return True
"#;

const TESTS: &str = r#"from shop.mail import Mailer
from shop.users import Admin, Form, User


def make() -> User:
    return User("Ann", "ann@example.org")


def test_validate():
    u = make()
    assert u.validate()
    assert not User("ann", "x").validate()
    assert u.signup() == "welcome Ann"


def test_notify():
    m = Mailer()
    u = make()
    assert u.notify(m, "hi") == 1
    assert m.sent == [("ann@example.org", "hi")]


def test_admin_and_form():
    assert Admin("Bob", "b@c.d").promote() == 1
    assert Form().validate()


def test_callback(items=None):
    u = make()
    check = u.validate
    assert check()
"#;

const CONFTEST: &str = r#"import pytest

from shop.users import User


@pytest.fixture
def ann() -> User:
    return User("Ann", "ann@example.org")
"#;

fn shop() -> Vec<(&'static str, &'static str)> {
    vec![
        ("shop/__init__.py", ""),
        ("shop/validation.py", VALIDATION),
        ("shop/mail.py", MAIL),
        ("shop/users.py", USERS),
        ("tests/test_users.py", TESTS),
    ]
}

/// The tests without the uses that cannot be rewritten: every caller is
/// rewritten and the method leaves the source.
fn proven_only() -> String {
    TESTS
        .replace("    assert not User(\"ann\", \"x\").validate()\n", "")
        .replace(
            "\n\ndef test_callback(items=None):\n    u = make()\n    check = u.validate\n    assert check()\n",
            "\n",
        )
}

#[test]
fn a_method_moves_through_a_self_attribute_and_every_proven_caller_follows() {
    let tests = proven_only();
    let tests = format!("{tests}\n\ndef test_fixture(ann):\n    assert ann.validate()\n");
    let mut files = shop();
    files.retain(|(p, _)| !p.starts_with("tests/"));
    files.push(("tests/test_users.py", tests.as_str()));
    files.push(("tests/conftest.py", CONFTEST));
    let (after, done) = moved(&files, &move_method("User.validate", "UserValidator"));
    assert_eq!(
        after["shop/validation.py"],
        format!(
            "import re\n\n\n{}\n    # Whether the user may sign up.\n    def validate(self, user, extra=\"\"):\n        \"\"\"True when the name and email are fine.\"\"\"\n        ok = self.check_name(user.name)\n        return ok and bool(re.match(r\"^[^@]+@[^@]+$\", user.email + extra))\n",
            VALIDATION
        )
    );
    let users = &after["shop/users.py"];
    assert!(!users.contains("def validate(self, extra"), "{users}");
    assert!(!users.contains("import re"), "{users}");
    assert!(
        users.contains("        if not self.validator.validate(self):\n"),
        "{users}"
    );
    assert!(
        users.contains("return self.validator.validate(self) and self.notify"),
        "{users}"
    );
    assert!(
        users.contains("class Form:\n    def validate(self):\n        return True\n"),
        "{users}"
    );
    assert!(after["tests/test_users.py"].contains("    assert u.validator.validate(u)\n"));
    assert!(after["tests/test_users.py"].contains("    assert Form().validate()\n"));
    // a typed pytest fixture's value is proven of the class
    assert!(after["tests/test_users.py"].contains("    assert ann.validator.validate(ann)\n"));
    let Summary::MethodMoved {
        callers,
        delegate,
        parameters,
        via,
        ..
    } = &done.summary
    else {
        panic!("{:?}", done.summary)
    };
    assert_eq!(
        (*callers, *delegate, parameters.as_slice(), via.as_str()),
        (4, false, &["user".to_string()][..], "self.validator")
    );
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
    assert!(pytest(&after).contains("4 passed"));
}

#[test]
fn uses_it_cannot_rewrite_keep_a_one_line_delegate_and_are_listed() {
    let (after, done) = moved(&shop(), &move_method("User.validate", "UserValidator"));
    let users = &after["shop/users.py"];
    // the comment above the method went with it; the docstring is on both
    assert!(
        users.contains("        self.validator = UserValidator(strict=True)\n\n    def validate(self, extra=\"\"):\n        \"\"\"True when the name and email are fine.\"\"\"\n        return self.validator.validate(self, extra)\n\n    def notify"),
        "{users}"
    );
    assert!(after["shop/validation.py"]
        .contains("    # Whether the user may sign up.\n    def validate(self, user, extra=\"\"):\n        \"\"\"True when the name and email are fine.\"\"\"\n"));
    let kept: Vec<String> = done
        .left_alone
        .iter()
        .map(|l| format!("{}:{} {}", l.site.path, l.site.position, l.why))
        .collect();
    assert_eq!(
        kept,
        [
            "tests/test_users.py:11:32 its receiver User(\"ann\", \"x\") would be evaluated twice",
            "tests/test_users.py:29:14 the method is read as a value, not called",
            "tests/test_users.py:30:11 read through a name that holds it",
        ]
    );
    assert!(matches!(
        done.summary,
        Summary::MethodMoved {
            delegate: true,
            callers: 3,
            ..
        }
    ));
    assert!(pytest(&after).contains("4 passed"));
}

#[test]
fn a_method_moves_through_an_annotated_parameter() {
    let (after, done) = moved(&shop(), &move_method("shop.users.User.notify", "Mailer"));
    assert!(after["shop/mail.py"].ends_with(
        "        return len(self.sent)\n\n    def notify(self, user, text):\n        return self.deliver(user.email, text)\n"
    ));
    assert!(after["tests/test_users.py"].contains("    assert m.notify(u, \"hi\") == 1\n"));
    // `Mailer()` would be made before `self` is read: that call keeps the delegate
    assert!(after["shop/users.py"].contains(
        "    def notify(self, mailer: Mailer, text):\n        return mailer.notify(self, text)\n"
    ));
    assert_eq!(done.left_alone.len(), 1, "{:?}", done.left_alone);
    assert!(pytest(&after).contains("4 passed"));
}

#[test]
fn the_specs_form_names_the_method_in_the_target() {
    let request = Refactoring::MoveMethod {
        method: "User.validate".into(),
        target: "UserValidator".into(),
        name: Some("is_valid".into()),
    };
    let (after, _) = moved(&shop(), &request);
    assert!(after["shop/validation.py"].contains("    def is_valid(self, user, extra=\"\"):\n"));
    assert!(after["shop/users.py"].contains("return self.validator.is_valid(self, extra)"));
    assert!(after["tests/test_users.py"].contains("assert u.validator.is_valid(u)"));
    assert!(pytest(&after).contains("4 passed"));
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let with = |from: &str, to: &str| {
        let users = USERS.replace(from, to);
        let mut files: Vec<(&str, String)> = shop()
            .into_iter()
            .map(|(p, t)| (p, t.to_string()))
            .collect();
        for f in files.iter_mut() {
            if f.0 == "shop/users.py" {
                f.1 = users.clone();
            }
        }
        files
    };
    let run = |files: Vec<(&str, String)>, request: Refactoring| {
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        refusal(&files, &request)
    };
    type Case<'a> = (
        Vec<(&'a str, String)>,
        Refactoring,
        RefactorFailure,
        &'a str,
    );
    let cases: Vec<Case<'_>> = vec![
        (
            with("", ""),
            move_method("User.signup", "Mailer"),
            RefactorFailure::Refused,
            "Cannot move method - User.signup reaches no Mailer: no self attribute read in it is typed Mailer",
        ),
        (
            with(
                "class Admin(User):\n",
                "class Admin(User):\n    def validate(self, extra=\"\"):\n        return True\n\n",
            ),
            move_method("User.validate", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - User.validate is overridden by shop.users.Admin.validate (shop/users.py:31:8)",
        ),
        (
            with(
                "\n\nclass User:\n",
                "\n\nclass Person:\n    def validate(self, extra=\"\"):\n        return False\n\n\nclass User(Person):\n",
            ),
            move_method("User.validate", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - User.validate overrides shop.users.Person.validate (shop/users.py:",
        ),
        (
            with("", ""),
            move_method("Admin.promote", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - Admin.promote reaches no UserValidator",
        ),
        (
            with(
                "    def validity(self):\n",
                "    def check_name(self):\n        return self.validator.check_name(self.name)\n\n    def validity(self):\n",
            ),
            Refactoring::MoveMethod {
                method: "User.check_name".into(),
                target: "UserValidator".into(),
                name: None,
            },
            RefactorFailure::NameConflict,
            "Name conflict exists: UserValidator has check_name already: shop.validation.UserValidator.check_name",
        ),
        (
            with(
                "    def validity(self):\n",
                "    @property\n    def valid(self):\n        return self.validator.strict\n\n    def validity(self):\n",
            ),
            move_method("User.valid", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - User.valid is decorated (@property)",
        ),
        (
            with(
                "    def validity(self):\n        return self.validator.strict\n",
                "    def validity(self):\n        return self.validator.strict and super().__str__()\n",
            ),
            move_method("User.validity", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - User.validity calls super() at",
        ),
        (
            with(
                "    def validity(self):\n        return self.validator.strict\n",
                "    def validity(self):\n        self.validator = None\n        return self.validator.strict\n",
            ),
            move_method("User.validity", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - validity assigns self.validator at",
        ),
        (
            with(
                "import re\n",
                "import re\n\nEMAIL = re.compile(\"@\")\n",
            )
            .into_iter()
            .map(|(p, t)| (p, t.replace("bool(re.match(r\"^[^@]+@[^@]+$\", self.email + extra))", "bool(EMAIL.search(self.email + extra))")))
            .collect(),
            move_method("User.validate", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - the member reads EMAIL, from shop.users, which imports shop.validation",
        ),
        (
            with("", ""),
            move_method("User.__init__", "UserValidator"),
            RefactorFailure::Refused,
            "Cannot move method - User.__init__ is a special method",
        ),
        (
            with("", ""),
            move_method("User.nothing", "UserValidator"),
            RefactorFailure::NotFound,
            "Not found: User.nothing is not a method of the class body (its methods: __init__, validate, notify, signup, validity)",
        ),
    ];
    for (files, request, kind, start) in cases {
        let (k, message) = run(files, request.clone());
        assert_eq!(k, kind, "{request:?}: {message}");
        assert!(message.starts_with(start), "{request:?}: {message}");
    }
}

/// What reaches the method without a call the index sees keeps the
/// delegate: the class body binding it again where the class is defined,
/// and a lookup by a computed name in the class or a base.
#[test]
fn aliases_and_computed_lookups_keep_the_delegate() {
    let users = USERS
        .replace(
            "    def validity(self):\n",
            "    check = validate\n\n    def run(self, what):\n        return getattr(self, f\"{what}_it\", None)\n\n    def validity(self):\n",
        );
    let tests = proven_only();
    let files = [
        ("shop/__init__.py", ""),
        ("shop/validation.py", VALIDATION),
        ("shop/mail.py", MAIL),
        ("shop/users.py", users.as_str()),
        ("tests/test_users.py", tests.as_str()),
    ];
    let (after, done) = moved(&files, &move_method("User.validate", "UserValidator"));
    let whys: Vec<&str> = done.left_alone.iter().map(|l| l.why.as_str()).collect();
    assert!(
        whys.iter().any(|w| w.starts_with(
            "User looks methods up by a computed name (getattr(self, f\"{what}_it\", None))"
        )),
        "{whys:?}"
    );
    assert!(whys.len() >= 2, "{whys:?}");
    assert!(
        after["shop/users.py"].contains("        return self.validator.validate(self, extra)\n")
    );
    assert!(pytest(&after).contains("3 passed"));
}

#[test]
fn the_comments_of_a_method_that_keeps_a_delegate_go_with_the_moved_code() {
    let mut files = shop();
    let users = USERS.replace(
        "        \"\"\"True when the name and email are fine.\"\"\"\n        ok =",
        "        \"\"\"True when the name and email are fine.\"\"\"\n        # the name first\n\n        ok =",
    );
    for f in files.iter_mut() {
        if f.0 == "shop/users.py" {
            f.1 = &users;
        }
    }
    let (after, _) = moved(&files, &move_method("User.validate", "UserValidator"));
    let kept = &after["shop/users.py"];
    assert!(!kept.contains('#'), "{kept}");
    assert!(kept.contains("\"\"\"True when the name and email are fine.\"\"\"\n        return self.validator.validate(self, extra)\n"));
    let moved_to = &after["shop/validation.py"];
    assert!(moved_to.contains("    # Whether the user may sign up.\n    def validate(self, user, extra=\"\"):\n        \"\"\"True when the name and email are fine.\"\"\"\n        # the name first\n\n        ok ="), "{moved_to}");
    assert!(pytest(&after).contains("4 passed"));
}

/// Uses through the class: `User.validate(u)` and `super().validate()` in
/// a subclass are rewritten; the method passed as a value (`map`,
/// `functools.partial`) or named by a string keeps the delegate, listed.
#[test]
fn calls_through_the_class_and_super_are_rewritten_unbound_uses_are_listed() {
    let users = USERS.replace(
        "class Admin(User):\n    def promote(self):\n",
        "class Admin(User):\n    def double_check(self):\n        return super().validate() and super().validate(\"\")\n\n    def promote(self):\n",
    );
    let tests = format!(
        "import functools\n\n{}\n\ndef test_through_the_class():\n    u = make()\n    assert User.validate(u)\n    assert User.validate(u, \"\")\n    assert Admin.validate(Admin(\"Bob\", \"b@c.d\"), extra=\"\") is False or True\n    assert Admin(\"Bob\", \"b@c.d\").double_check()\n\n\ndef test_unbound():\n    u = make()\n    assert list(map(User.validate, [u])) == [True]\n    assert functools.partial(User.validate, u)()\n    assert getattr(u, \"validate\")()\n",
        proven_only()
    );
    let files = [
        ("shop/__init__.py", ""),
        ("shop/validation.py", VALIDATION),
        ("shop/mail.py", MAIL),
        ("shop/users.py", users.as_str()),
        ("tests/test_users.py", tests.as_str()),
    ];
    let (after, done) = moved(&files, &move_method("User.validate", "UserValidator"));
    let users = &after["shop/users.py"];
    assert!(
        users.contains("        return self.validator.validate(self) and self.validator.validate(self, \"\")\n"),
        "{users}"
    );
    let tests = &after["tests/test_users.py"];
    assert!(
        tests.contains(
            "    assert u.validator.validate(u)\n    assert u.validator.validate(u, \"\")\n"
        ),
        "{tests}"
    );
    // its instance argument is not a name: evaluated twice, so it stays
    assert!(
        tests.contains("    assert Admin.validate(Admin(\"Bob\", \"b@c.d\"), extra=\"\")"),
        "{tests}"
    );
    let kept: Vec<String> = done
        .left_alone
        .iter()
        .map(|l| format!("{}:{} {}", l.site.path, l.site.position, l.why))
        .collect();
    assert_eq!(
        kept,
        [
            "tests/test_users.py:33:17 its receiver Admin(\"Bob\", \"b@c.d\") would be evaluated twice",
            "tests/test_users.py:39:25 the method is read through the class as a value (map(), functools.partial(), a callback), not called",
            "tests/test_users.py:40:34 the method is read through the class as a value (map(), functools.partial(), a callback), not called",
            "tests/test_users.py:41:23 a string naming it (a string that is the member's name, which code may use to reach it at run time)",
        ]
    );
    assert!(
        users.contains("        return self.validator.validate(self, extra)\n"),
        "{users}"
    );
    assert!(pytest(&after).contains("5 passed"), "{}", pytest(&after));
}

#[test]
fn a_call_through_the_class_follows_a_method_moved_through_a_parameter() {
    let tests = format!(
        "{}\n\ndef test_through_the_class():\n    m = Mailer()\n    u = make()\n    assert User.notify(u, m, \"hi\") == 1\n",
        proven_only()
    );
    let files = [
        ("shop/__init__.py", ""),
        ("shop/validation.py", VALIDATION),
        ("shop/mail.py", MAIL),
        ("shop/users.py", USERS),
        ("tests/test_users.py", tests.as_str()),
    ];
    let (after, _) = moved(&files, &move_method("User.notify", "Mailer"));
    assert!(after["tests/test_users.py"].contains("    assert m.notify(u, \"hi\") == 1\n"));
    assert!(pytest(&after).contains("4 passed"));
}

/// A keyword-only parameter annotated with the target reaches it too
/// (marshmallow's `Schema._invoke_field_validators(self, *, error_store:
/// ErrorStore, …)`); the last one takes its `*` along.
#[test]
fn a_keyword_only_parameter_reaches_the_target() {
    let users = "from shop.mail import Mailer\n\n\nclass User:\n    def __init__(self, email):\n        self.email = email\n\n    def tell(self, *, mailer: Mailer, text):\n        return mailer.deliver(self.email, text)\n\n    def warn(self, *, mailer: Mailer):\n        return mailer.deliver(self.email, \"warning\")\n";
    let tests = "from shop.mail import Mailer\nfrom shop.users import User\n\n\ndef test_tell():\n    m = Mailer()\n    u = User(\"a@b.c\")\n    assert u.tell(mailer=m, text=\"hi\") == 1\n    assert u.warn(mailer=m) == 2\n";
    let files = [
        ("shop/__init__.py", ""),
        ("shop/mail.py", MAIL),
        ("shop/users.py", users),
        ("tests/test_users.py", tests),
    ];
    let (after, _) = moved(&files, &move_method("User.tell", "Mailer"));
    assert!(
        after["shop/mail.py"].contains(
            "    def tell(self, user, *, text):\n        return self.deliver(user.email, text)\n"
        ),
        "{}",
        after["shop/mail.py"]
    );
    assert!(
        after["tests/test_users.py"].contains("    assert m.tell(u, text=\"hi\") == 1\n"),
        "{}",
        after["tests/test_users.py"]
    );
    assert!(pytest(&after).contains("1 passed"));
    let files = [
        ("shop/__init__.py", ""),
        ("shop/mail.py", MAIL),
        ("shop/users.py", users),
        ("tests/test_users.py", tests),
    ];
    let (after, _) = moved(&files, &move_method("User.warn", "Mailer"));
    assert!(
        after["shop/mail.py"].contains("    def warn(self, user):\n"),
        "{}",
        after["shop/mail.py"]
    );
    assert!(
        after["tests/test_users.py"].contains("    assert m.warn(u) == 2\n"),
        "{}",
        after["tests/test_users.py"]
    );
    assert!(pytest(&after).contains("1 passed"));
}
