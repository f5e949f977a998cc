use std::collections::BTreeMap;

use super::super::testing::{changed as merged, pytest, refusal};
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
    let tests = pytest(&after);
    assert!(tests.contains("2 passed"), "{tests}");
}

#[test]
fn the_target_may_be_one_of_the_two_names() {
    let (after, _) = merged(&accounts(), &merge("User", "Profile", "User"));
    assert!(after["accounts/views.py"].starts_with("from accounts.models import User\n"));
    assert!(after["accounts/views.py"].contains("User.blank()"));
    let tests = pytest(&after);
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
    let tests = pytest(&after);
    assert!(tests.contains("2 passed"), "{tests}");
}

// Two modules: `shop/users.py` holds User, `shop/profiles.py` Profile; the
// package re-exports both, and the other modules reach Profile every way
// Python has.
const SHOP_INIT: &str =
    "from .profiles import Profile\nfrom .users import User\n\n__all__ = [\"Profile\", \"User\"]\n";

const USERS: &str = r#""""Users."""


class User:
    """A user."""

    kind = "user"
    name = "nobody"

    def greet(self):
        return f"hi {self.name}"
"#;

const PROFILES: &str = r#""""Profiles."""
import textwrap

from .fmt import shout


def default_bio():
    return "-"


class Profile:
    """A profile."""

    # the bio, shouted
    def bio(self):
        return shout(textwrap.shorten("a long bio " * 3, 20))

    @staticmethod
    def blank():
        return default_bio()
"#;

const FMT: &str = "def shout(s):\n    return s.upper()\n";

const SHOP_VIEWS: &str = r#"from shop.profiles import Profile
from shop.users import User


def show(u: User) -> str:
    return u.greet() + Profile.blank()
"#;

const WIDGETS: &str = r#"from shop.profiles import Profile, default_bio


class Card(Profile):
    def bio(self):
        return "card: " + default_bio()
"#;

const REPORT: &str = r#"from shop import profiles


def card(p):
    if isinstance(p, profiles.Profile):
        return p.bio()
    return ""
"#;

const SHOP_ADMIN: &str = r#"import shop.users


class Admin(shop.users.User):
    def greet(self):
        return "admin " + super().greet()
"#;

const SHOP_TESTS: &str = r#"from shop import Profile, User
from shop.admin import Admin
from shop.report import card
from shop.views import show
from shop.widgets import Card


def test_show():
    assert show(User()) == "hi nobody-"


def test_bio():
    p = Profile()
    assert p.bio() == "A LONG BIO A [...]"
    assert card(p) == "A LONG BIO A [...]"
    assert Card().bio() == "card: -"


def test_admin():
    assert Admin().greet() == "admin hi nobody"
"#;

fn shop() -> Vec<(&'static str, String)> {
    vec![
        ("shop/__init__.py", SHOP_INIT.into()),
        ("shop/users.py", USERS.into()),
        ("shop/profiles.py", PROFILES.into()),
        ("shop/fmt.py", FMT.into()),
        ("shop/views.py", SHOP_VIEWS.into()),
        ("shop/widgets.py", WIDGETS.into()),
        ("shop/report.py", REPORT.into()),
        ("shop/admin.py", SHOP_ADMIN.into()),
        ("tests/test_shop.py", SHOP_TESTS.into()),
    ]
}

fn borrowed<'a>(files: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    files.iter().map(|(p, t)| (*p, t.as_str())).collect()
}

#[test]
fn classes_of_two_modules_merge_into_the_first_ones_module() {
    let files = shop();
    let before: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.clone()))
        .collect();
    assert!(pytest(&before).contains("3 passed"));
    let (after, summary) = merged(&borrowed(&files), &merge("User", "Profile", "Account"));
    // the merged class in users.py, with what Profile's body reads
    assert_eq!(
        after["shop/users.py"],
        "\"\"\"Users.\"\"\"\nfrom shop.fmt import shout\nimport textwrap\nfrom shop.profiles import default_bio\n\n\nclass Account:\n    \"\"\"A user.\"\"\"\n\n    kind = \"user\"\n    name = \"nobody\"\n\n    def greet(self):\n        return f\"hi {self.name}\"\n\n    # the bio, shouted\n    def bio(self):\n        return shout(textwrap.shorten(\"a long bio \" * 3, 20))\n\n    @staticmethod\n    def blank():\n        return default_bio()\n"
    );
    // Profile's module keeps the rest, without the imports only it read
    assert_eq!(
        after["shop/profiles.py"],
        "\"\"\"Profiles.\"\"\"\n\n\ndef default_bio():\n    return \"-\"\n"
    );
    // the re-export names the target once, from the first module
    assert_eq!(
        after["shop/__init__.py"],
        "from .users import Account\n\n__all__ = [\"Account\"]\n"
    );
    assert_eq!(
        after["shop/views.py"],
        "from shop.users import Account\n\n\ndef show(u: Account) -> str:\n    return u.greet() + Account.blank()\n"
    );
    // an import of several names: the class's entry leaves it
    assert_eq!(
        after["shop/widgets.py"],
        WIDGETS
            .replace(
                "from shop.profiles import Profile, default_bio\n",
                "from shop.profiles import default_bio\nfrom shop.users import Account\n"
            )
            .replace("Card(Profile)", "Card(Account)")
    );
    // through the module: the target imported, the module's import gone
    assert_eq!(
        after["shop/report.py"],
        REPORT
            .replace(
                "from shop import profiles",
                "from shop.users import Account"
            )
            .replace("profiles.Profile", "Account")
    );
    assert_eq!(
        after["shop/admin.py"],
        SHOP_ADMIN.replace("users.User", "users.Account")
    );
    assert!(after["tests/test_shop.py"].starts_with("from shop import Account\n"));
    let Summary::ClassesMerged { files, .. } = summary else {
        panic!("{summary:?}")
    };
    assert_eq!(files, 8);
    let tests = pytest(&after);
    assert!(tests.contains("3 passed"), "{tests}");
}

#[test]
fn across_modules_the_target_may_keep_the_second_name() {
    let files = shop();
    let (after, _) = merged(&borrowed(&files), &merge("User", "Profile", "Profile"));
    assert!(after["shop/users.py"].contains("class Profile:\n"));
    assert_eq!(
        after["shop/views.py"],
        "from shop.users import Profile\n\n\ndef show(u: Profile) -> str:\n    return u.greet() + Profile.blank()\n"
    );
    let tests = pytest(&after);
    assert!(tests.contains("3 passed"), "{tests}");
}

#[test]
fn across_modules_refusals_say_why_and_change_nothing() {
    // Profile's module still makes profiles, and its body reads that module:
    // each module would import the other
    let mut cycle = shop();
    cycle[2].1 = format!("{PROFILES}\n\ndef make():\n    return Profile()\n");
    let (kind, message) = refusal(&borrowed(&cycle), &merge("User", "Profile", "Account"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert!(
        message.starts_with("Cannot merge classes - shop.users would import shop.profiles, which imports shop.users (shop.profiles → shop.users): an import cycle"),
        "{message}"
    );
    // conflicting members, named
    let mut conflict = shop();
    conflict[2].1 = PROFILES.replace(
        "    @staticmethod\n    def blank",
        "    def greet(self):\n        return 1\n\n    @staticmethod\n    def blank",
    );
    let (_, message) = refusal(&borrowed(&conflict), &merge("User", "Profile", "Account"));
    assert_eq!(
        message,
        "Cannot merge classes - both define greet (User.greet at 9:8, Profile.greet at 17:8): merge them by hand or rename one first"
    );
    // a use Eddi cannot prove, listed
    let mut named = shop();
    named.push((
        "shop/registry.py",
        "import shop.profiles as m\n\nKIND = getattr(m, \"Profile\")\n".into(),
    ));
    let (_, message) = refusal(&borrowed(&named), &merge("User", "Profile", "Account"));
    assert!(
        message.starts_with("Cannot merge classes - 1 uses of User or Profile it cannot prove, which would keep the old name: shop/registry.py:2:19"),
        "{message}"
    );
    // the first module uses Profile when it is imported, above the class
    let mut early = shop();
    early[1].1 = USERS.replace(
        "\"\"\"Users.\"\"\"\n",
        "\"\"\"Users.\"\"\"\nfrom shop.profiles import Profile\n\nBLANK = Profile.blank\n",
    );
    let (_, message) = refusal(&borrowed(&early), &merge("User", "Profile", "Account"));
    assert_eq!(
        message,
        "Cannot merge classes - Profile is used at shop/users.py:3:8 when the module is imported, above the merged class's place"
    );
    // bases written alike that name different classes
    let mut bases = shop();
    bases[1].1 = format!(
        "from shop.fmt import shout as Base\n\n\n{}",
        USERS.replace("class User:", "class User(Base):")
    );
    bases[2].1 = PROFILES
        .replace("class Profile:", "class Profile(Base):")
        .replace(
            "from .fmt import shout\n",
            "from .fmt import shout\nfrom textwrap import TextWrapper as Base\n",
        );
    let (_, message) = refusal(&borrowed(&bases), &merge("User", "Profile", "Account"));
    assert!(
        message.contains("the merged class would have other bases than one of them"),
        "{message}"
    );
}

#[test]
fn the_second_module_imports_the_target_for_the_uses_it_keeps() {
    let mut files = shop();
    // Profile reads nothing of its module now; the module still makes one
    files[2].1 = PROFILES.replace("        return default_bio()", "        return \"-\"")
        + "\n\ndef make():\n    return Profile()\n";
    files.push((
        "shop/dotted.py",
        "import shop.profiles\n\n\ndef fresh():\n    return shop.profiles.Profile().bio()\n".into(),
    ));
    files.push((
        "tests/test_more.py",
        "from shop.dotted import fresh\nfrom shop.profiles import make\n\n\ndef test_make():\n    assert make().greet() == \"hi nobody\"\n    assert fresh() == \"A LONG BIO A [...]\"\n".into(),
    ));
    let (after, _) = merged(&borrowed(&files), &merge("User", "Profile", "Account"));
    assert_eq!(
        after["shop/profiles.py"],
        "\"\"\"Profiles.\"\"\"\n\nfrom .users import Account\n\n\ndef default_bio():\n    return \"-\"\n\n\ndef make():\n    return Account()\n"
    );
    assert_eq!(
        after["shop/dotted.py"],
        "from shop.users import Account\n\n\ndef fresh():\n    return Account().bio()\n"
    );
    let tests = pytest(&after);
    assert!(tests.contains("4 passed"), "{tests}");
}

#[test]
fn an_import_inside_a_function_moves_there_and_adds_none_at_module_level() {
    let mut files = shop();
    files.push((
        "shop/late.py",
        "def blank():\n    from shop.profiles import Profile\n\n    return Profile.blank()\n"
            .into(),
    ));
    let (after, _) = merged(&borrowed(&files), &merge("User", "Profile", "Account"));
    assert_eq!(
        after["shop/late.py"],
        "def blank():\n    from shop.users import Account\n\n    return Account.blank()\n"
    );
    assert!(pytest(&after).contains("3 passed"));
}

/// jinja2's `__init__` re-exports as `from .exceptions import X as X`: the
/// name and its alias are one entry (found merging `UndefinedError` and
/// `SecurityError`, where the alias was taken for a second entry).
#[test]
fn a_re_export_as_itself_is_one_entry() {
    let mut files = accounts();
    files[0] = (
        "accounts/__init__.py",
        "from .models import Profile as Profile\nfrom .models import User as User\n",
    );
    let (after, _) = merged(&files, &merge("User", "Profile", "User"));
    assert_eq!(
        after["accounts/__init__.py"],
        "from .models import User as User\nfrom .models import User as User\n"
    );
    assert!(pytest(&after).contains("2 passed"));
}

/// The first module imported the second class from the second module,
/// which keeps using it: after the merge only the second imports the
/// first, no cycle (the import the merge removes is not counted).
#[test]
fn an_import_the_merge_removes_makes_no_cycle() {
    let mut files = shop();
    files[1].1 = USERS.replace(
        "\"\"\"Users.\"\"\"\n",
        "\"\"\"Users.\"\"\"\nfrom shop.profiles import Profile\n",
    ) + "\n\ndef profile():\n    return Profile()\n";
    files[2].1 = PROFILES.replace("        return default_bio()", "        return \"-\"")
        + "\n\ndef make():\n    return Profile()\n";
    let (after, _) = merged(&borrowed(&files), &merge("User", "Profile", "Account"));
    assert!(
        !after["shop/users.py"].contains("import Profile"),
        "{}",
        after["shop/users.py"]
    );
    assert!(after["shop/users.py"].ends_with("def profile():\n    return Account()\n"));
    assert!(after["shop/profiles.py"].contains("from .users import Account\n"));
    assert!(pytest(&after).contains("3 passed"));
}
