use super::super::testing::{changed as moved, pytest, python, refusal, texts};
use super::super::{RefactorFailure, Refactoring, Summary};

fn pull_up(members: &[&str]) -> Refactoring {
    Refactoring::PullUp {
        members: members.iter().map(|m| m.to_string()).collect(),
    }
}

fn push_down(member: &str) -> Refactoring {
    Refactoring::PushDown {
        member: member.into(),
    }
}

const BASE: &str = r#"import logging

log = logging.getLogger(__name__)


class Payment:
    def __init__(self, amount):
        self.amount = amount

    def describe(self):
        return f"{self.kind()} of {self.amount}"

    def refund(self):
        return -self.amount


class Cash(Payment):
    def kind(self):
        return "cash"


def show(payment: Payment):
    return payment.describe()
"#;

const CARD: &str = r#"from decimal import Decimal

from .base import Payment, log


class Card(Payment):
    rate = Decimal("0.02")

    def kind(self):
        return "card"

    def describe(self):
        return "card: " + super().describe()

    def fee(self):
        log.debug("fee")
        return Decimal(self.amount) * self.rate

    def charge(self):
        return self.amount + self.fee()

    def token(self):
        return self.__token
"#;

const TESTS: &str = r#"from decimal import Decimal

from pay.base import Cash, show
from pay.card import Card


def test_card_fee_and_charge():
    assert Card(100).fee() == Decimal("2.00")
    assert Card(100).charge() == Decimal("102.00")


def test_refund():
    assert Cash(5).refund() == -5
    assert Card(5).refund() == -5


def test_describe():
    assert show(Card(1)) == "card: card of 1"
    assert Cash(2).describe() == "cash of 2"
"#;

fn pay() -> Vec<(&'static str, &'static str)> {
    vec![
        ("pay/__init__.py", ""),
        ("pay/base.py", BASE),
        ("pay/card.py", CARD),
        ("tests/test_pay.py", TESTS),
    ]
}

#[test]
fn pulled_up_members_move_to_the_base_with_their_imports() {
    let before = texts(&pay());
    assert!(pytest(&before).contains("3 passed"));
    let (after, summary) = moved(&pay(), &pull_up(&["Card.fee", "Card.rate"]));
    assert_eq!(
        after["pay/base.py"],
        BASE.replace("import logging\n", "import logging\nfrom decimal import Decimal\n")
            .replace(
                "    def refund(self):\n        return -self.amount\n",
                "    def refund(self):\n        return -self.amount\n\n    rate = Decimal(\"0.02\")\n\n    def fee(self):\n        log.debug(\"fee\")\n        return Decimal(self.amount) * self.rate\n",
            )
    );
    assert_eq!(
        after["pay/card.py"],
        CARD.replace("    rate = Decimal(\"0.02\")\n\n", "")
            .replace("from decimal import Decimal\n\n", "")
            .replace("Payment, log", "Payment")
            .replace(
                "\n    def fee(self):\n        log.debug(\"fee\")\n        return Decimal(self.amount) * self.rate\n",
                ""
            )
    );
    let Summary::MembersMoved {
        to, inherited_by, ..
    } = &summary
    else {
        panic!("{summary:?}")
    };
    assert_eq!(
        (to.as_slice(), inherited_by.as_slice()),
        (&["Payment".to_string()][..], &["Cash".to_string()][..])
    );
    assert!(pytest(&after).contains("3 passed"));
    python(
        &after,
        &[
            "-c",
            "from pay.base import Cash\nassert str(Cash(50).fee()) == '1.00'",
        ],
    );
}

#[test]
fn a_pushed_down_member_goes_to_each_direct_subclass() {
    let (after, summary) = moved(&pay(), &push_down("pay.base.Payment.refund"));
    assert_eq!(
        after["pay/base.py"],
        BASE.replace("\n    def refund(self):\n        return -self.amount\n", "")
            .replace(
                "        return \"cash\"\n",
                "        return \"cash\"\n\n    def refund(self):\n        return -self.amount\n"
            )
    );
    assert!(
        after["pay/card.py"].ends_with(
            "        return self.__token\n\n    def refund(self):\n        return -self.amount\n"
        ),
        "{}",
        after["pay/card.py"]
    );
    let Summary::MembersMoved { to, .. } = &summary else {
        panic!("{summary:?}")
    };
    assert_eq!(to, &["Cash", "Card"]);
    assert!(pytest(&after).contains("3 passed"));
}

#[test]
fn refusals_name_the_sites_and_change_nothing() {
    let cases = [
        (
            pull_up(&["Card.charge"]),
            RefactorFailure::Refused,
            "Cannot move members - Card.charge reads self.fee at pay/card.py:19:29, which Card has and Payment does not",
        ),
        (
            pull_up(&["Card.token"]),
            RefactorFailure::Refused,
            "Cannot move members - __token at pay/card.py:22:20 is mangled with the class's name",
        ),
        (
            pull_up(&["Card.describe"]),
            RefactorFailure::Refused,
            "Cannot move members - Payment defines describe already (pay/base.py:9:8)",
        ),
        (
            pull_up(&["Card.amount"]),
            RefactorFailure::NotFound,
            "Not found: Card.amount is not defined in the class body (its members: rate, kind, describe, fee, charge, token)",
        ),
        (
            pull_up(&["Card.fee", "Cash.kind"]),
            RefactorFailure::InvalidArgument,
            "Cash.kind is not a member of Card",
        ),
        (
            push_down("Payment.describe"),
            RefactorFailure::Refused,
            "Cannot move members - describe is used through Payment itself, where it would be missing: describe through a receiver of the class at pay/base.py:22:19; describe through super() at pay/card.py:12:34",
        ),
        (
            push_down("Cash.kind"),
            RefactorFailure::Refused,
            "Cannot move members - Cash has no subclass in the project to push kind down to",
        ),
        (
            pull_up(&["Payment.refund"]),
            RefactorFailure::Refused,
            "Cannot move members - Payment has no base class in the project (its bases: none)",
        ),
    ];
    for (request, kind, message) in cases {
        let (k, m) = refusal(&pay(), &request);
        assert!(m.starts_with(message), "{m}\nexpected: {message}");
        assert_eq!(k, kind, "{m}");
    }
}

#[test]
fn a_pull_up_that_would_make_an_import_cycle_or_change_a_siblings_method_refuses() {
    let files = [
        ("shop/__init__.py", ""),
        ("shop/base.py", "class Root:\n    def label(self):\n        return 'root'\n\n\nclass Base(Root):\n    pass\n\n\nclass Plain(Base):\n    pass\n"),
        ("shop/item.py", "from shop.base import Base\n\nLIMIT = 3\n\n\nclass Item(Base):\n    limit = LIMIT\n\n    def label(self):\n        return 'item'\n"),
    ];
    let (_, message) = refusal(&files, &pull_up(&["Item.limit"]));
    assert_eq!(
        message,
        "Cannot move members - the member reads LIMIT, from shop.item, which imports shop.base (shop.item → shop.base): importing it there would make an import cycle"
    );
    let (_, message) = refusal(&files, &pull_up(&["Item.label"]));
    assert_eq!(
        message,
        "Cannot move members - Base has other subclasses that would get the moved member in place of the one they use: Plain (shop/base.py:9:6) finds label in Root today"
    );
}

#[test]
fn members_in_one_module_move_and_an_emptied_body_gets_pass() {
    let src = "class Base:\n    pass\n\n\nclass Child(Base):\n    size = 2\n\n    def area(self):\n        return self.size * self.size\n\n\nassert Child().area() == 4\n";
    let (after, _) = moved(&[("m.py", src)], &pull_up(&["Child.size", "Child.area"]));
    assert_eq!(
        after["m.py"],
        "class Base:\n    size = 2\n\n    def area(self):\n        return self.size * self.size\n\n\nclass Child(Base):\n    pass\n\n\nassert Child().area() == 4\n"
    );
    python(&after, &["m.py"]);
    let (back, _) = moved(&[("m.py", &after["m.py"])], &push_down("Base.area"));
    python(&back, &["m.py"]);
}

const SHAPES: &str = r#"class Shape:
    sides = 0

    def __init__(self, size):
        self._size = size

    def describe(self):
        return f"{type(self).__name__} of {self.size}"


class Square(Shape):
    sides = 4

    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        self._size = value

    @staticmethod
    def unit():
        return 1

    @classmethod
    def make(cls):
        return cls(cls.unit())

    def area(self):
        return self.size * self.size


class Circle(Shape):
    def area(self):
        return 3 * self.size * self.size
"#;

const OTHER: &str = r#"class Report:
    def area(self):
        return "report"
"#;

const CONFTEST: &str = r#"import pytest

from geo.shapes import Square


@pytest.fixture
def square() -> Square:
    return Square(2)
"#;

const SHAPE_TESTS: &str = r#"from geo.other import Report
from geo.shapes import Circle, Square


def test_square(square):
    assert square.area() == 4
    square.size = 3
    assert Square.make().size == 1


def test_circle():
    assert Circle(1).area() == 3


def test_report():
    assert Report().area() == "report"
"#;

fn geo() -> Vec<(&'static str, &'static str)> {
    vec![
        ("geo/__init__.py", ""),
        ("geo/shapes.py", SHAPES),
        ("geo/other.py", OTHER),
        ("tests/conftest.py", CONFTEST),
        ("tests/test_geo.py", SHAPE_TESTS),
    ]
}

#[test]
fn a_property_with_its_setter_a_staticmethod_and_a_classmethod_are_pulled_up_together() {
    let (after, summary) = moved(
        &geo(),
        &pull_up(&["Square.size", "Square.unit", "Square.make"]),
    );
    let Summary::MembersMoved {
        members,
        inherited_by,
        ..
    } = &summary
    else {
        panic!("{summary:?}")
    };
    assert_eq!(members, &["size", "unit", "make"]);
    assert_eq!(inherited_by, &["Circle"]);
    let shapes = &after["geo/shapes.py"];
    assert!(
        shapes.contains("        return f\"{type(self).__name__} of {self.size}\"\n\n    @property\n    def size(self):\n        return self._size\n\n    @size.setter\n    def size(self, value):\n        self._size = value\n\n    @staticmethod\n    def unit():\n        return 1\n\n    @classmethod\n    def make(cls):\n        return cls(cls.unit())\n"),
        "{shapes}"
    );
    assert!(
        shapes.contains("class Square(Shape):\n    sides = 4\n\n    def area(self):"),
        "{shapes}"
    );
    assert!(pytest(&after).contains("3 passed"));
}

#[test]
fn a_member_used_through_typed_fixtures_pushes_down_and_same_named_members_stay() {
    // `area` of the unrelated Report is another member: not a use
    let files = [
        ("geo/__init__.py", ""),
        ("geo/shapes.py", "class Shape:\n    def area(self):\n        return 0\n\n\nclass Square(Shape):\n    pass\n\n\nclass Circle(Shape):\n    def area(self):\n        return 3\n"),
        ("geo/other.py", OTHER),
        ("tests/conftest.py", &CONFTEST.replace("Square(2)", "Square()")),
        ("tests/test_geo.py", "from geo.other import Report\n\n\ndef test_square(square):\n    assert square.area() == 0\n\n\ndef test_report():\n    assert Report().area() == \"report\"\n"),
    ];
    let (after, summary) = moved(&files, &push_down("Shape.area"));
    assert_eq!(
        after["geo/shapes.py"],
        "class Shape:\n    pass\n\n\nclass Square(Shape):\n    def area(self):\n        return 0\n\n\nclass Circle(Shape):\n    def area(self):\n        return 3\n"
    );
    let Summary::MembersMoved { to, kept_own, .. } = &summary else {
        panic!("{summary:?}")
    };
    assert_eq!(
        (to.as_slice(), kept_own.as_slice()),
        (&["Square".to_string()][..], &["Circle".to_string()][..])
    );
    assert!(pytest(&after).contains("2 passed"));
    // a string naming it may reach it through the class: refused
    let mut with_getattr: Vec<(&str, &str)> = files.to_vec();
    with_getattr.push((
        "geo/use.py",
        "def area_of(shape):\n    return getattr(shape, \"area\")()\n",
    ));
    let (_, message) = refusal(&with_getattr, &push_down("Shape.area"));
    assert_eq!(
        message,
        "Cannot move members - area is used through Shape itself, where it would be missing: area named by a string at geo/use.py:1:27"
    );
}

#[test]
fn a_class_that_is_instantiated_keeps_what_its_instances_reach() {
    // Field.deserialize reaches self._deserialize: a String() would lose it
    let src = "class Field:\n    def deserialize(self, v):\n        return self._deserialize(v)\n\n    def _deserialize(self, v):\n        raise NotImplementedError\n\n\nclass String(Field):\n    def _deserialize(self, v):\n        return str(v)\n\n\nclass Email(String):\n    pass\n\n\nStr = String\nNAME = Str()\n";
    let (_, message) = refusal(&[("fields.py", src)], &push_down("String._deserialize"));
    assert_eq!(
        message,
        "Cannot move members - _deserialize is used through String itself, where it would be missing: String instantiated at fields.py:18:7"
    );
}

#[test]
fn a_pull_up_that_changes_what_the_bases_own_instances_find_refuses() {
    let src = "class Base:\n    pass\n\n\nclass Child(Base):\n    def __repr__(self):\n        return 'child'\n\n\nB = Base()\n";
    let (_, message) = refusal(&[("m.py", src)], &pull_up(&["Child.__repr__"]));
    assert_eq!(
        message,
        "Cannot move members - Base has other subclasses that would get the moved member in place of the one they use: Base itself (instantiated at m.py:9:4) finds __repr__ in object today"
    );
    // not instantiated: its subclasses are what count
    let src = src.replace("B = Base()\n", "");
    let (after, _) = moved(&[("m.py", &src)], &pull_up(&["Child.__repr__"]));
    python(
        &after,
        &["-c", "import m\nassert repr(m.Child()) == 'child'"],
    );
}

/// Comments directly above a moved member — blank-line-separated blocks
/// too — say what it is: they travel with it. A comment indented deeper
/// (the end of the method above) and the code above stay.
#[test]
fn comments_above_a_moved_member_travel_with_it() {
    let card = CARD.replace(
        "        return \"card\"\n\n    def describe(self):",
        "        return \"card\"\n        # end of kind\n\n    # Card describes itself.\n\n    # (see Payment.describe)\n    def describe(self):",
    )
    .replace(
        "    def fee(self):",
        "    # The card network's fee,\n    # rounded by Decimal.\n    def fee(self):",
    );
    let files = [
        ("pay/__init__.py", ""),
        ("pay/base.py", BASE),
        ("pay/card.py", card.as_str()),
        ("tests/test_pay.py", TESTS),
    ];
    let (after, _) = moved(&files, &pull_up(&["Card.fee", "Card.rate"]));
    assert!(
        after["pay/base.py"].contains(
            "    rate = Decimal(\"0.02\")\n\n    # The card network's fee,\n    # rounded by Decimal.\n    def fee(self):\n"
        ),
        "{}",
        after["pay/base.py"]
    );
    assert!(
        !after["pay/card.py"].contains("fee,"),
        "{}",
        after["pay/card.py"]
    );
    assert!(
        after["pay/card.py"].contains(
            "        return \"card\"\n        # end of kind\n\n    # Card describes itself.\n"
        ),
        "{}",
        after["pay/card.py"]
    );
    assert!(pytest(&after).contains("3 passed"));

    let base = BASE.replace(
        "    def refund(self):",
        "    # Money back.\n\n    # Negative: it leaves the till.\n    def refund(self):",
    );
    let files = [
        ("pay/__init__.py", ""),
        ("pay/base.py", base.as_str()),
        ("pay/card.py", CARD),
        ("tests/test_pay.py", TESTS),
    ];
    let (after, _) = moved(&files, &push_down("pay.base.Payment.refund"));
    assert_eq!(
        after["pay/base.py"],
        BASE.replace("\n    def refund(self):\n        return -self.amount\n", "")
            .replace(
                "        return \"cash\"\n",
                "        return \"cash\"\n\n    # Money back.\n\n    # Negative: it leaves the till.\n    def refund(self):\n        return -self.amount\n"
            )
    );
    assert!(
        after["pay/card.py"].ends_with(
            "        return self.__token\n\n    # Money back.\n\n    # Negative: it leaves the till.\n    def refund(self):\n        return -self.amount\n"
        ),
        "{}",
        after["pay/card.py"]
    );
    assert!(pytest(&after).contains("3 passed"));
}
