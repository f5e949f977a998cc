use std::collections::BTreeMap;

use super::super::testing::{python, TestProject};
use super::super::{RefactorFailure, Refactoring, Summary};

fn interface(class: &str, name: &str, protocol: bool) -> Refactoring {
    Refactoring::ExtractInterface {
        class: class.into(),
        interface: name.into(),
        protocol,
    }
}

/// The project's files after the refactor (the unchanged ones too), and
/// the methods it declared.
fn extracted(
    files: &[(&str, &str)],
    request: &Refactoring,
) -> (BTreeMap<String, String>, Vec<String>) {
    let project = TestProject::new(files);
    let done = project.run(None, request).unwrap_or_else(|e| panic!("{e}"));
    let Summary::InterfaceExtracted { methods, .. } = &done.summary else {
        panic!("{:?}", done.summary)
    };
    let mut all: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    all.extend(project.after(&done));
    (all, methods.clone())
}

fn refusal(files: &[(&str, &str)], request: &Refactoring) -> (RefactorFailure, String) {
    let project = TestProject::new(files);
    let e = project.run(None, request).expect_err("refused");
    (e.kind, e.message)
}

const PAYMENT: &str = r#""""Payments."""
from decimal import Decimal

import logging

log = logging.getLogger(__name__)


class PaymentProcessor:
    """Takes payments."""

    rate = Decimal("0.02")

    def __init__(self, owner):
        self.owner = owner
        self._balance = Decimal(0)

    def pay(self, amount: Decimal, *, currency: str = "EUR") -> bool:
        """Pay `amount` in `currency`."""
        self._balance += amount
        return True

    async def refund(self, amount: Decimal) -> None:
        self._balance -= amount

    @staticmethod
    def fee(amount: Decimal) -> Decimal:
        return amount * PaymentProcessor.rate

    @classmethod
    def create(cls, owner="shop"):
        return cls(owner)

    @property
    def balance(self) -> Decimal:
        return self._balance

    @balance.setter
    def balance(self, value: Decimal) -> None:
        self._balance = value

    def __len__(self):
        return 1

    def __repr__(self):
        return f"PaymentProcessor({self.owner!r})"

    def _audit(self):
        log.info("audit")
"#;

const CHECKOUT: &str = "\
from shop.payment import PaymentProcessor


def checkout(total):
    processor = PaymentProcessor(\"web\")
    processor.pay(total)
    return processor.balance
";

const TEST_PAYMENT: &str = "\
import asyncio
from decimal import Decimal

from shop.checkout import checkout
from shop.payment import PaymentProcessor


def test_checkout():
    assert checkout(Decimal(5)) == Decimal(5)


def test_fee_and_refund():
    processor = PaymentProcessor.create()
    asyncio.run(processor.refund(Decimal(2)))
    assert processor.balance == Decimal(-2)
    assert PaymentProcessor.fee(Decimal(100)) == Decimal(\"2.00\")
    assert len(processor) == 1
";

fn shop() -> Vec<(&'static str, &'static str)> {
    vec![
        ("shop/__init__.py", ""),
        ("shop/payment.py", PAYMENT),
        ("shop/checkout.py", CHECKOUT),
        ("tests/test_payment.py", TEST_PAYMENT),
    ]
}

#[test]
fn an_abstract_base_declares_the_public_methods_and_the_class_inherits_it() {
    let (after, methods) = extracted(&shop(), &interface("PaymentProcessor", "Payable", false));
    assert_eq!(
        methods,
        ["pay", "refund", "fee", "create", "balance", "__len__"]
    );
    let expected = PAYMENT
        .replace(
            "import logging\n",
            "import logging\nfrom abc import ABC, abstractmethod\n",
        )
        .replace(
            "class PaymentProcessor:\n",
            r#"class Payable(ABC):
    @abstractmethod
    def pay(self, amount: Decimal, *, currency: str = "EUR") -> bool:
        """Pay `amount` in `currency`."""

    @abstractmethod
    async def refund(self, amount: Decimal) -> None: ...

    @staticmethod
    @abstractmethod
    def fee(amount: Decimal) -> Decimal: ...

    @classmethod
    @abstractmethod
    def create(cls, owner="shop"): ...

    @property
    @abstractmethod
    def balance(self) -> Decimal: ...

    @balance.setter
    @abstractmethod
    def balance(self, value: Decimal) -> None: ...

    @abstractmethod
    def __len__(self): ...


class PaymentProcessor(Payable):
"#,
        );
    assert_eq!(after["shop/payment.py"], expected);
    assert_eq!(
        after["shop/checkout.py"], CHECKOUT,
        "other files are untouched"
    );
    // the result imports and runs: the class implements the interface,
    // which is abstract, and the project's tests still pass
    let out = python(
        &after,
        &[
            "-c",
            "from decimal import Decimal\n\
             from shop.payment import Payable, PaymentProcessor\n\
             p = PaymentProcessor('x')\n\
             assert isinstance(p, Payable) and p.pay(Decimal(1))\n\
             try:\n    Payable()\nexcept TypeError:\n    print('abstract')\n\
             print(sorted(Payable.__abstractmethods__))",
        ],
    );
    assert_eq!(
        out,
        "abstract\n['__len__', 'balance', 'create', 'fee', 'pay', 'refund']\n"
    );
    let tests = python(&after, &["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    assert!(tests.contains("2 passed"), "{tests}");
}

#[test]
fn a_protocol_declares_the_methods_and_leaves_the_class_as_it_is() {
    let (after, _) = extracted(
        &shop(),
        &interface("shop.payment.PaymentProcessor", "Payable", true),
    );
    let payment = &after["shop/payment.py"];
    assert!(
        payment.contains("import logging\nfrom typing import Protocol\n"),
        "{payment}"
    );
    assert!(
        payment.contains(
            "class Payable(Protocol):\n    def pay(self, amount: Decimal, *, currency: str = \"EUR\") -> bool:\n        \"\"\"Pay `amount` in `currency`.\"\"\"\n\n    async def refund(self, amount: Decimal) -> None: ...\n\n    @staticmethod\n    def fee(amount: Decimal) -> Decimal: ...\n"
        ),
        "{payment}"
    );
    assert!(!payment.contains("abstractmethod"), "{payment}");
    assert!(
        payment.contains("\n\n\nclass PaymentProcessor:\n"),
        "the class keeps its bases: {payment}"
    );
    let out = python(
        &after,
        &[
            "-c",
            "from shop.payment import Payable, PaymentProcessor\n\
             print(Payable in PaymentProcessor.__mro__, Payable.__mro__[1].__name__)",
        ],
    );
    assert_eq!(out, "False Protocol\n");
    python(&after, &["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
}

/// The new text of a.py after extracting `Shape` from class `Box` of it.
fn one_file(src: &str, protocol: bool) -> String {
    let (after, _) = extracted(&[("a.py", src)], &interface("Box", "Shape", protocol));
    python(&after, &["-c", "import a"]);
    after["a.py"].clone()
}

#[test]
fn the_module_imports_are_used_in_their_own_style() {
    // `import abc`: the interface names abc.ABC, no new import
    assert_eq!(
        one_file("import abc\n\n\nclass Box:\n    def area(self):\n        return 1\n", false),
        "import abc\n\n\nclass Shape(abc.ABC):\n    @abc.abstractmethod\n    def area(self): ...\n\n\nclass Box(Shape):\n    def area(self):\n        return 1\n"
    );
    // a name imported already, under an alias: used; the other joins the import
    assert_eq!(
        one_file("from abc import abstractmethod as abstract\n\n\nclass Box:\n    def area(self):\n        return 1\n", false),
        "from abc import abstractmethod as abstract, ABC\n\n\nclass Shape(ABC):\n    @abstract\n    def area(self): ...\n\n\nclass Box(Shape):\n    def area(self):\n        return 1\n"
    );
    // parenthesised on several lines: a line of its own
    assert_eq!(
        one_file("from typing import (\n    List,\n    Optional,\n)\n\n\nclass Box:\n    def area(self) -> Optional[List[int]]:\n        return None\n", true),
        "from typing import (\n    List,\n    Optional,\n    Protocol,\n)\n\n\nclass Shape(Protocol):\n    def area(self) -> Optional[List[int]]: ...\n\n\nclass Box:\n    def area(self) -> Optional[List[int]]:\n        return None\n"
    );
    // no import at all: after the docstring and the __future__ import
    assert_eq!(
        one_file("\"\"\"Boxes.\"\"\"\nfrom __future__ import annotations\n\n\nclass Box:\n    def area(self) -> Box:\n        return self\n", false),
        "\"\"\"Boxes.\"\"\"\nfrom __future__ import annotations\nfrom abc import ABC, abstractmethod\n\n\nclass Shape(ABC):\n    @abstractmethod\n    def area(self) -> Box: ...\n\n\nclass Box(Shape):\n    def area(self) -> Box:\n        return self\n"
    );
    // nothing above the class: the import first
    assert_eq!(
        one_file("class Box:\n    def area(self):\n        return 1\n", false),
        "from abc import ABC, abstractmethod\n\n\nclass Shape(ABC):\n    @abstractmethod\n    def area(self): ...\n\n\nclass Box(Shape):\n    def area(self):\n        return 1\n"
    );
    // `ABC` means something else here: `import abc` is added instead
    assert_eq!(
        one_file("import os\n\nABC = 1\n\n\nclass Box:\n    def area(self):\n        return ABC\n", false),
        "import os\nimport abc\n\nABC = 1\n\n\nclass Shape(abc.ABC):\n    @abc.abstractmethod\n    def area(self): ...\n\n\nclass Box(Shape):\n    def area(self):\n        return ABC\n"
    );
}

#[test]
fn the_bases_take_the_interface_last_before_keywords_and_in_place_of_object() {
    let cases = [
        ("class Box(object):", "class Box(Shape):"),
        ("class Box():", "class Box(Shape):"),
        ("class Box(Base):", "class Box(Base, Shape):"),
        (
            "class Box(Base, object):",
            "class Box(Base, Shape, object):",
        ),
        (
            "class Box(Base, metaclass=ABCMeta):",
            "class Box(Base, Shape, metaclass=ABCMeta):",
        ),
        (
            "class Box(metaclass=ABCMeta):",
            "class Box(Shape, metaclass=ABCMeta):",
        ),
    ];
    for (before, after) in cases {
        let src = format!(
            "from abc import ABC, ABCMeta, abstractmethod\n\n\nclass Base:\n    pass\n\n\n{before}\n    def area(self):\n        return 1\n"
        );
        let out = one_file(&src, false);
        assert!(out.contains(&format!("\n{after}\n")), "{before}: {out}");
    }
}

#[test]
fn decorators_docstrings_and_signatures_are_kept_right() {
    let src = r#"import functools
from typing import overload


class Box:
    """A box."""

    def __init__(self, w):
        self.w = w

    @overload
    def scale(self, by: int) -> int: ...
    @overload
    def scale(self, by: float) -> float: ...
    def scale(self, by, /, *args, key=None, **kwargs):
        '''Scale it.

        Returns the new width.
        '''
        return self.w * by

    @functools.cached_property
    def area(self):
        return self.w * self.w

    @functools.lru_cache(maxsize=None)
    def volume(self, depth=2.5, unit=-1, pair=(1, "a"), key=lambda x: x()):
        return self.w * depth

    def width(self): return self.w

    def width(self, at=0):
        return self.w
"#;
    let out = one_file(src, false);
    let interface = out
        .split("class Box(Shape):")
        .next()
        .unwrap()
        .split("class Shape(ABC):\n")
        .nth(1)
        .unwrap();
    assert_eq!(
        interface,
        r#"    @overload
    def scale(self, by: int) -> int: ...

    @overload
    def scale(self, by: float) -> float: ...

    @abstractmethod
    def scale(self, by, /, *args, key=None, **kwargs):
        '''Scale it.

        Returns the new width.
        '''

    @property
    @abstractmethod
    def area(self): ...

    @abstractmethod
    def volume(self, depth=2.5, unit=-1, pair=(1, "a"), key=lambda x: x()): ...

    @abstractmethod
    def width(self, at=0): ...


"#
    );
    let after = BTreeMap::from([("a.py".to_string(), out)]);
    let run = python(
        &after,
        &[
            "-c",
            "from a import Box, Shape\nb = Box(2)\nprint(b.scale(3), b.area, b.volume(), b.width())",
        ],
    );
    assert_eq!(run, "6 4 5.0 2\n");
}

#[test]
fn a_class_with_slots_keeps_them() {
    let out = one_file(
        "class Box:\n    __slots__ = ('w',)\n\n    def __init__(self):\n        self.w = 1\n\n    def area(self):\n        return self.w\n",
        false,
    );
    assert!(
        out.contains("class Shape(ABC):\n    __slots__ = ()\n\n    @abstractmethod\n"),
        "{out}"
    );
    let run = python(
        &BTreeMap::from([("a.py".to_string(), out)]),
        &["-c", "from a import Box\nprint(hasattr(Box(), '__dict__'))"],
    );
    assert_eq!(run, "False\n", "no __dict__ came with the interface");
    let out = one_file(
        "from dataclasses import dataclass\n\n\n@dataclass(slots=True)\nclass Box:\n    w: int = 1\n\n    def area(self):\n        return self.w\n",
        false,
    );
    let run = python(
        &BTreeMap::from([("a.py".to_string(), out)]),
        &[
            "-c",
            "from a import Box\nprint(hasattr(Box(), '__dict__'), Box(2).area())",
        ],
    );
    assert_eq!(run, "False 2\n", "nor with a dataclass's slots");
}

#[test]
fn a_class_in_a_block_gets_its_interface_in_the_block() {
    let src = "import sys\n\nif sys.version_info >= (3,):\n    # the box\n    class Box:\n        def area(self):\n            return 1\n";
    assert_eq!(
        one_file(src, false),
        "import sys\nfrom abc import ABC, abstractmethod\n\nif sys.version_info >= (3,):\n    class Shape(ABC):\n        @abstractmethod\n        def area(self): ...\n\n    # the box\n    class Box(Shape):\n        def area(self):\n            return 1\n"
    );
}

#[test]
fn a_name_the_module_has_is_refused() {
    let class = "\n\nclass Box:\n    def area(self):\n        return 1\n";
    for (head, why) in [
        ("Shape = 1\n", "Shape is bound in a.py at 0:0"),
        (
            "from shapes import Shape\n",
            "Shape is bound in a.py at 0:19",
        ),
        (
            "def f():\n    return Shape\n",
            "Shape is read in a.py at 1:11",
        ),
        (
            "def f():\n    global Shape\n    Shape = 2\n",
            "Shape is bound in a.py",
        ),
    ] {
        let (kind, message) = refusal(
            &[("a.py", &format!("{head}{class}"))],
            &interface("Box", "Shape", false),
        );
        assert_eq!(kind, RefactorFailure::NameConflict, "{head}");
        assert!(
            message.starts_with("Interface already exists: ") && message.contains(why),
            "{head}: {message}"
        );
    }
    let (kind, message) = refusal(&[("a.py", class)], &interface("Box", "Exception", false));
    assert_eq!(kind, RefactorFailure::NameConflict);
    assert!(message.contains("builtin"), "{message}");
    // a module that star-imports this one and names Shape would get it
    let (kind, message) = refusal(
        &[
            ("a.py", class),
            (
                "b.py",
                "from shapes import Shape\nfrom a import *\n\nx = Shape\n",
            ),
        ],
        &interface("Box", "Shape", false),
    );
    assert_eq!(kind, RefactorFailure::NameConflict);
    assert!(message.contains("b.py imports * from a"), "{message}");
    // one that only mentions it, in a comment, is not in the way
    extracted(
        &[
            ("a.py", class),
            ("b.py", "from a import *\n\n# Shape: see a.py\nx = Box\n"),
        ],
        &interface("Box", "Shape", false),
    );
    // ... and none is when __all__ keeps it out
    let guarded = format!("__all__ = ['Box']{class}");
    extracted(
        &[
            ("a.py", &guarded),
            (
                "b.py",
                "from shapes import Shape\nfrom a import *\n\nx = Shape\n",
            ),
        ],
        &interface("Box", "Shape", false),
    );
    let (kind, message) = refusal(&[("a.py", class)], &interface("Box", "no-name", false));
    assert_eq!(kind, RefactorFailure::InvalidArgument, "{message}");
}

#[test]
fn a_metaclass_it_cannot_prove_compatible_is_refused_and_protocol_proceeds() {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[("a.py", "class Meta(type):\n    pass\n\n\nclass Box(metaclass=Meta):\n    def area(self):\n        return 1\n")],
            "Box has metaclass=Meta, which is not ABCMeta",
        ),
        (
            &[("a.py", "from django.db import models\n\n\nclass Box(models.Model):\n    def area(self):\n        return 1\n")],
            "Box derives from models.Model, whose metaclass cannot be known",
        ),
        (
            &[("a.py", "import enum\n\n\nclass Box(enum.Enum):\n    A = 1\n\n    def area(self):\n        return 1\n")],
            "Box derives from enum.Enum: its metaclass, EnumType",
        ),
        (
            &[("a.py", "from typing import NamedTuple\n\n\nclass Box(NamedTuple):\n    w: int\n\n    def area(self):\n        return 1\n")],
            "a NamedTuple class takes no other base",
        ),
        (
            &[("a.py", "from typing import Protocol\n\n\nclass Box(Protocol):\n    def area(self): ...\n")],
            "Box is a Protocol",
        ),
        (
            &[("a.py", "bases = (object,)\n\n\nclass Box(*bases):\n    def area(self):\n        return 1\n")],
            "the bases of Box are computed",
        ),
        (
            &[("a.py", "import six\n\n\nclass Meta(type):\n    pass\n\n\n@six.add_metaclass(Meta)\nclass Box:\n    def area(self):\n        return 1\n")],
            "Box is decorated with @six.add_metaclass",
        ),
        // a project base's external base counts
        (
            &[
                ("base.py", "from django.db import models\n\n\nclass Base(models.Model):\n    pass\n"),
                ("a.py", "from base import Base\n\n\nclass Box(Base):\n    def area(self):\n        return 1\n"),
            ],
            "Base (base.py:3:6)",
        ),
        // so does a subclass's other base, in another file
        (
            &[
                ("a.py", "class Box:\n    def area(self):\n        return 1\n"),
                ("b.py", "import enum\nfrom a import Box\n\n\nclass Red(Box, enum.Enum):\n    A = 1\n"),
            ],
            "Red (b.py:4:6)",
        ),
    ];
    for (files, why) in cases {
        let (kind, message) = refusal(files, &interface("Box", "Shape", false));
        assert_eq!(kind, RefactorFailure::Refused, "{message}");
        assert!(
            message.starts_with("Cannot extract interface - ") && message.contains(why),
            "{why}: {message}"
        );
        assert!(message.contains("Protocol extracts"), "{message}");
        // the way out it names works
        let project = TestProject::new(files);
        project
            .run(None, &interface("Box", "Shape", true))
            .unwrap_or_else(|e| panic!("{why}: {e}"));
    }
}

#[test]
fn an_abc_metaclass_and_known_bases_are_proven_compatible() {
    for src in [
        "from abc import ABCMeta\n\n\nclass Box(metaclass=ABCMeta):\n    def area(self):\n        return 1\n",
        "import abc\n\n\nclass Meta(abc.ABCMeta):\n    pass\n\n\nclass Box(metaclass=Meta):\n    def area(self):\n        return 1\n",
        "from collections.abc import Sized\nfrom typing import Generic, TypeVar\n\nT = TypeVar('T')\n\n\nclass Box(dict, Sized, Generic[T]):\n    def area(self):\n        return 1\n",
        "import threading\n\n\nclass Box(threading.Thread):\n    def area(self):\n        return 1\n",
    ] {
        one_file(src, false);
    }
}

#[test]
fn a_class_without_public_methods_is_refused() {
    let (kind, message) = refusal(
        &[("a.py", "class Box:\n    size = 1\n\n    def __init__(self):\n        self.w = 1\n\n    def _area(self):\n        return 1\n\n    def __repr__(self):\n        return 'Box'\n")],
        &interface("Box", "Shape", false),
    );
    assert_eq!(kind, RefactorFailure::Refused);
    assert!(message.contains("Box has no public methods"), "{message}");
}

#[test]
fn a_signature_it_cannot_reproduce_above_the_class_is_refused() {
    let cases = [
        (
            "import click\n\n\nclass Box:\n    @click.command()\n    def area(self):\n        return 1\n",
            "its decorator @click.command at a.py:4:4 may change how it is called",
        ),
        (
            "def default():\n    return 1\n\n\nclass Box:\n    def area(self, w=default()):\n        return w\n",
            "the default of Box.area's parameter w (`default()`) has a call",
        ),
        (
            "class Box:\n    Unit = int\n\n    def area(self, w: Unit) -> Unit:\n        return w\n",
            "an annotation of Box.area at 3:22 names Unit, which the body of Box binds",
        ),
        (
            "class Box:\n    SIZE = 2\n\n    def area(self, w=SIZE):\n        return w\n",
            "a default of Box.area at 3:21 names SIZE",
        ),
        (
            "def make():\n    class Box:\n        def area(self):\n            return 1\n    return Box\n",
            "Box is defined inside function make",
        ),
        (
            "class Base:\n    pass\n\n\nclass Box(Base):\n    def area(self):\n        return super().area()\n",
            "Box.area reaches super().area at a.py:6:15, which no base of Box defines",
        ),
    ];
    for (src, why) in cases {
        let (kind, message) = refusal(&[("a.py", src)], &interface("Box", "Shape", false));
        assert_eq!(kind, RefactorFailure::Refused, "{message}");
        assert!(message.contains(why), "{why}: {message}");
    }
    // under `from __future__ import annotations` an annotation is never
    // evaluated: the class body's names may be copied
    one_file(
        "from __future__ import annotations\n\n\nclass Box:\n    Unit = int\n\n    def area(self, w: Unit) -> Unit:\n        return w\n",
        false,
    );
    // a super() call a base answers still reaches it
    let after = one_file(
        "class Base:\n    def area(self):\n        return 2\n\n\nclass Box(Base):\n    def area(self):\n        return super().area() + 1\n",
        false,
    );
    let run = python(
        &BTreeMap::from([("a.py".to_string(), after)]),
        &["-c", "from a import Box\nprint(Box().area())"],
    );
    assert_eq!(run, "3\n");
}

#[test]
fn not_a_class_is_not_found() {
    let (kind, message) = refusal(
        &[("a.py", "def Box():\n    return 1\n")],
        &interface("Box", "Shape", false),
    );
    assert_eq!(kind, RefactorFailure::NotFound);
    assert!(
        message.starts_with("Class not found: Box is a function"),
        "{message}"
    );
    let (kind, _) = refusal(
        &[("a.py", "x = 1\n")],
        &interface("Nowhere", "Shape", false),
    );
    assert_eq!(kind, RefactorFailure::NotFound);
}
