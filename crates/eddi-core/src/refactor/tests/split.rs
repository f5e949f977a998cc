use super::super::testing::{changed as done, pytest, refusal};
use super::super::{RefactorFailure, Refactoring, Summary};

fn split(class: &str, new_class: &str, members: &[&str]) -> Refactoring {
    Refactoring::SplitClass {
        class: class.into(),
        new_class: new_class.into(),
        members: members.iter().map(|m| m.to_string()).collect(),
    }
}

const MODELS: &str = r#"import re


class User:
    """A user."""

    MAX_NAME = 20
    # Names are words.
    PATTERN = re.compile(r"^\w+$")

    def __init__(self, name):
        self.name = name

    @staticmethod
    def clean(name):
        return name.strip()[: User.MAX_NAME]

    @classmethod
    def parse(cls, text):
        name = cls.clean(text)
        return bool(cls.PATTERN.match(name)) and name

    def valid(self):
        return len(self.name) <= self.MAX_NAME and self.parse(self.name) == self.name


class Form:
    MAX_NAME = 5
"#;

const VIEWS: &str = r#"from shop import models
from shop.models import User


def limit() -> int:
    return User.MAX_NAME + models.User.MAX_NAME


def name_of(u: User):
    return u.clean(u.name)
"#;

const TESTS: &str = r#"from shop.models import Form, User
from shop.views import limit, name_of


def test_user():
    assert User("ann").valid()
    assert User.parse(" bob ") == "bob"
    assert limit() == 40
    assert name_of(User(" x ")) == "x"
    assert Form.MAX_NAME == 5
"#;

fn shop() -> Vec<(&'static str, &'static str)> {
    vec![
        ("shop/__init__.py", ""),
        ("shop/models.py", MODELS),
        ("shop/views.py", VIEWS),
        ("tests/test_models.py", TESTS),
    ]
}

#[test]
fn class_held_members_move_and_every_reference_names_the_new_class() {
    let (after, summary) = done(
        &shop(),
        &split(
            "User",
            "UserRules",
            &["MAX_NAME", "PATTERN", "clean", "parse"],
        ),
    );
    assert_eq!(
        after["shop/models.py"],
        MODELS
            .replace(
                "    MAX_NAME = 20\n    # Names are words.\n    PATTERN = re.compile(r\"^\\w+$\")\n\n",
                ""
            )
            .replace(
                "    @staticmethod\n    def clean(name):\n        return name.strip()[: User.MAX_NAME]\n\n    @classmethod\n    def parse(cls, text):\n        name = cls.clean(text)\n        return bool(cls.PATTERN.match(name)) and name\n\n",
                ""
            )
            .replace(
                "self.MAX_NAME and self.parse(self.name)",
                "UserRules.MAX_NAME and UserRules.parse(self.name)"
            )
            .replace(
                "\n\nclass Form:",
                "\n\nclass UserRules:\n    MAX_NAME = 20\n    # Names are words.\n    PATTERN = re.compile(r\"^\\w+$\")\n\n    @staticmethod\n    def clean(name):\n        return name.strip()[: UserRules.MAX_NAME]\n\n    @classmethod\n    def parse(cls, text):\n        name = cls.clean(text)\n        return bool(cls.PATTERN.match(name)) and name\n\n\nclass Form:"
            )
    );
    assert_eq!(
        after["shop/views.py"],
        VIEWS
            .replace("import User\n", "import User, UserRules\n")
            .replace(
                "User.MAX_NAME + models.User.MAX_NAME",
                "UserRules.MAX_NAME + models.UserRules.MAX_NAME"
            )
            .replace("u.clean(u.name)", "UserRules.clean(u.name)")
    );
    assert!(after["tests/test_models.py"]
        .starts_with("from shop.models import Form, User, UserRules\n"));
    assert!(after["tests/test_models.py"].contains("assert UserRules.parse(\" bob \") == \"bob\""));
    assert!(after["tests/test_models.py"].contains("assert Form.MAX_NAME == 5"));
    let Summary::ClassSplit { references, .. } = summary else {
        panic!("{summary:?}")
    };
    assert_eq!(references, 7);
    assert!(pytest(&after).contains("1 passed"));
}

#[test]
fn refusals_name_the_sites_and_change_nothing() {
    let with = |path: &str, from: &str, to: &str| -> Vec<(&'static str, String)> {
        shop()
            .into_iter()
            .map(|(p, t)| {
                (
                    p,
                    if p == path {
                        t.replace(from, to)
                    } else {
                        t.to_string()
                    },
                )
            })
            .collect()
    };
    type Case = (
        Vec<(&'static str, String)>,
        Refactoring,
        RefactorFailure,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            with("", "", ""),
            split("User", "UserRules", &["valid"]),
            RefactorFailure::Refused,
            "Cannot split class - User.valid is an instance method or a property: it needs an instance of UserRules",
        ),
        (
            with("", "", ""),
            split("User", "UserRules", &["parse"]),
            RefactorFailure::Refused,
            "Cannot split class - User.parse reads cls.clean at shop/models.py:",
        ),
        (
            with("shop/models.py", "\n\nclass Form:", "\n\nclass Admin(User):\n    MAX_NAME = 30\n\n\nclass Form:"),
            split("User", "UserRules", &["MAX_NAME"]),
            RefactorFailure::Refused,
            "Cannot split class - MAX_NAME is also defined by shop.models.Admin.MAX_NAME (shop/models.py:",
        ),
        (
            with("shop/views.py", "def limit()", "def any_limit(x):\n    return x.MAX_NAME\n\n\ndef limit()"),
            split("User", "UserRules", &["MAX_NAME"]),
            RefactorFailure::Refused,
            "Cannot split class - 1 uses of MAX_NAME it cannot prove are of User: shop/views.py:5:13 (an attribute of a value of unknown type)",
        ),
        (
            with("shop/views.py", "    return u.clean(u.name)", "    u.MAX_NAME = 3\n    return u.clean(u.name)"),
            split("User", "UserRules", &["MAX_NAME", "PATTERN", "clean", "parse"]),
            RefactorFailure::Refused,
            "Cannot split class - 1 uses of MAX_NAME, PATTERN, clean, parse it cannot prove are of User: shop/views.py:9:6 (assigned through an instance",
        ),
        (
            with(
                "shop/models.py",
                "    def valid(self):\n",
                "    def run(self, what):\n        return getattr(self, what)()\n\n    def valid(self):\n",
            ),
            split("User", "UserRules", &["MAX_NAME", "PATTERN", "clean", "parse"]),
            RefactorFailure::Refused,
            "Cannot split class - 1 uses of MAX_NAME, PATTERN, clean, parse it cannot prove are of User: shop/models.py:",
        ),
        (
            with("", "", ""),
            split("User", "Form", &["MAX_NAME"]),
            RefactorFailure::NameConflict,
            "Name conflict exists: Form is bound in shop/models.py at",
        ),
        (
            with("", "", ""),
            split("User", "UserRules", &["nothing"]),
            RefactorFailure::NotFound,
            "Not found: User.nothing is not defined in the class body (its members: MAX_NAME, PATTERN, __init__, clean, parse, valid)",
        ),
    ];
    for (files, request, kind, start) in cases {
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let (k, message) = refusal(&files, &request);
        assert_eq!(k, kind, "{request:?}: {message}");
        assert!(message.starts_with(start), "{request:?}: {message}");
    }
}
