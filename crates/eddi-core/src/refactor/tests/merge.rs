use std::collections::BTreeMap;

use super::super::testing::{python, TestProject};
use super::super::{RefactorFailure, Refactoring, Summary};

fn merge(first: &str, second: &str, target: &str) -> Refactoring {
    Refactoring::MergeClasses {
        first: first.into(),
        second: second.into(),
        target: target.into(),
    }
}

const MODELS: &str = r#""""Accounts."""


class User:
    """A user."""

    kind = "user"

    def __init__(self, name):
        self.name = name

    def greet(self):
        return f"hi {self.name}"


class Profile:
    """A profile."""

    def bio(self):
        return f"{self.name}'s bio"

    @staticmethod
    def blank():
        return "-"
"#;

const VIEWS: &str = r#"from accounts.models import Profile, User


def show(u: User) -> str:
    return u.greet() + Profile.blank()


def is_user(x):
    return isinstance(x, User)
"#;

const ADMIN: &str = r#"from accounts.models import User


class Admin(User):
    def greet(self):
        return "admin " + super().greet()
"#;

const TESTS: &str = r#"from accounts.admin import Admin
from accounts.models import User
from accounts.views import is_user, show


def test_show():
    assert show(User("ann")) == "hi ann-"


def test_admin():
    a = Admin("bob")
    assert a.greet() == "admin hi bob"
    assert is_user(a)
"#;

fn accounts() -> Vec<(&'static str, &'static str)> {
    vec![
        ("accounts/__init__.py", ""),
        ("accounts/models.py", MODELS),
        ("accounts/views.py", VIEWS),
        ("accounts/admin.py", ADMIN),
        ("tests/test_accounts.py", TESTS),
    ]
}

fn merged(files: &[(&str, &str)], request: &Refactoring) -> (BTreeMap<String, String>, Summary) {
    let project = TestProject::new(files);
    let done = project.run(None, request).unwrap_or_else(|e| panic!("{e}"));
    let mut all: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    all.extend(project.after(&done));
    (all, done.summary)
}

fn refusal(files: &[(&str, &str)], request: &Refactoring) -> (RefactorFailure, String) {
    let project = TestProject::new(files);
    let e = project.run(None, request).expect_err("refused");
    (e.kind, e.message)
}

#[test]
fn one_class_of_both_and_every_reference_names_it() {
    let (after, summary) = merged(&accounts(), &merge("User", "Profile", "Account"));
    assert_eq!(
        after["accounts/models.py"],
        "\"\"\"Accounts.\"\"\"\n\n\nclass Account:\n    \"\"\"A user.\"\"\"\n\n    kind = \"user\"\n\n    def __init__(self, name):\n        self.name = name\n\n    def greet(self):\n        return f\"hi {self.name}\"\n\n    def bio(self):\n        return f\"{self.name}'s bio\"\n\n    @staticmethod\n    def blank():\n        return \"-\"\n"
    );
    assert_eq!(
        after["accounts/views.py"],
        VIEWS
            .replace("import Profile, User", "import Account")
            .replace("u: User", "u: Account")
            .replace("Profile.blank()", "Account.blank()")
            .replace("isinstance(x, User)", "isinstance(x, Account)")
    );
    assert_eq!(after["accounts/admin.py"], ADMIN.replace("User", "Account"));
    let Summary::ClassesMerged { files, .. } = summary else {
        panic!("{summary:?}")
    };
    assert_eq!(files, 4);
    let tests = python(&after, &["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    assert!(tests.contains("2 passed"), "{tests}");
}

#[test]
fn the_target_may_be_one_of_the_two_names() {
    let (after, _) = merged(&accounts(), &merge("User", "Profile", "User"));
    assert!(after["accounts/views.py"].starts_with("from accounts.models import User\n"));
    assert!(after["accounts/views.py"].contains("User.blank()"));
    let tests = python(&after, &["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    assert!(tests.contains("2 passed"), "{tests}");
}

#[test]
fn refusals_name_the_conflicts_and_change_nothing() {
    let conflicting = MODELS.replace(
        "    def bio(self):",
        "    def greet(self):\n        return 1\n\n    def bio(self):",
    );
    let (kind, message) = refusal(
        &[
            ("accounts/__init__.py", ""),
            ("accounts/models.py", &conflicting),
        ],
        &merge("User", "Profile", "Account"),
    );
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot merge classes - both define greet (User.greet at 11:8, Profile.greet at 18:8): merge them by hand or rename one first"
    );
    // Profile() would run User.__init__
    let mut called = accounts();
    called.push((
        "accounts/new.py",
        "from accounts.models import Profile\n\nP = Profile()\n",
    ));
    let (_, message) = refusal(&called, &merge("User", "Profile", "Account"));
    assert_eq!(
        message,
        "Cannot merge classes - User defines __init__ and Profile does not, which is called at accounts/new.py:2:4: it would then run User.__init__"
    );
    // a string naming a class may reach it by name
    let mut named = accounts();
    named.push((
        "accounts/registry.py",
        "import accounts.models as m\n\nKIND = getattr(m, \"Profile\")\n",
    ));
    let (_, message) = refusal(&named, &merge("User", "Profile", "Account"));
    assert!(message.starts_with("Cannot merge classes - 1 uses of User or Profile it cannot prove, which would keep the old name: accounts/registry.py:2:19"), "{message}");
    // one deriving from the other, or bases that differ
    let family = [(
        "m.py",
        "class A:\n    pass\n\n\nclass B(A):\n    pass\n\n\nclass C(dict):\n    pass\n",
    )];
    let (_, message) = refusal(&family, &merge("A", "B", "D"));
    assert_eq!(message, "Cannot merge classes - B derives from A");
    let (_, message) = refusal(&family, &merge("B", "C", "D"));
    assert_eq!(
        message,
        "Cannot merge classes - B derives from (A) and C from (dict): the merged class would have other bases than one of them"
    );
    let mut other = accounts();
    other.push(("accounts/more.py", "class Extra:\n    pass\n"));
    let (_, message) = refusal(&other, &merge("User", "Extra", "Account"));
    assert_eq!(
        message,
        "Cannot merge classes - User is in accounts/models.py and Extra in accounts/more.py: Merge_Classes merges classes of one module; move one beside the other first"
    );
    let (kind, _) = refusal(&accounts(), &merge("User", "Profile", "show"));
    assert_eq!(kind, RefactorFailure::NameConflict);
}

#[test]
fn dispatch_by_a_class_name_refuses() {
    let src = "class Visitor:\n    def visit(self, node):\n        return getattr(self, f\"visit_{type(node).__name__}\")(node)\n\n    def visit_Name(self, node):\n        return 1\n\n\nclass Name:\n    pass\n\n\nclass Const:\n    pass\n";
    let (_, message) = refusal(&[("nodes.py", src)], &merge("Const", "Name", "Leaf"));
    assert!(
        message.starts_with(
            "Cannot merge classes - dispatch by Name's name reaches nodes.Visitor.visit_Name"
        ),
        "{message}"
    );
}

#[test]
fn comments_above_the_second_class_members_come_along() {
    let models = MODELS.replace(
        "    \"\"\"A profile.\"\"\"\n\n    def bio(self):",
        "    \"\"\"A profile.\"\"\"\n\n    # Shown on the page.\n\n    # One line.\n    def bio(self):",
    );
    let files = [
        ("accounts/__init__.py", ""),
        ("accounts/models.py", models.as_str()),
        ("accounts/views.py", VIEWS),
        ("accounts/admin.py", ADMIN),
        ("tests/test_accounts.py", TESTS),
    ];
    let (after, _) = merged(&files, &merge("User", "Profile", "Account"));
    assert!(
        after["accounts/models.py"].contains(
            "        return f\"hi {self.name}\"\n\n    # Shown on the page.\n\n    # One line.\n    def bio(self):\n"
        ),
        "{}",
        after["accounts/models.py"]
    );
    let tests = python(&after, &["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    assert!(tests.contains("2 passed"), "{tests}");
}
