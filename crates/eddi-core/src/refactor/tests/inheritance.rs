use std::collections::BTreeMap;

use super::super::testing::{changed, pytest, python, refusal, texts, TestProject};
use super::super::{RefactorFailure, Refactoring, Rerouted, Resolved, Summary};

fn change(class: &str, old: &str, new: &str) -> Refactoring {
    Refactoring::ChangeInheritance {
        class: class.into(),
        old_parent: old.into(),
        new_parent: new.into(),
    }
}

const BASE: &str = r#"class Animal:
    sound = "..."

    def __init__(self, name):
        self.name = name

    def speak(self):
        return f"{self.name} says {self.sound}"

    def describe(self):
        return "an animal"


class Walker:
    def walk(self):
        return "walks"
"#;

const MAMMALS: &str = r#"from .base import Animal


class Mammal(Animal):
    legs = 4

    def describe(self):
        return "a mammal"
"#;

const DOGS: &str = r#"from .base import Animal, Walker


class Dog(Animal):
    sound = "woof"

    def __init__(self, name):
        Animal.__init__(self, name)
        self.tricks = []

    def fetch(self):
        return self.describe() + " fetches"


class Service(Animal, Walker):
    pass
"#;

const PUPPIES: &str = r#"from zoo.dogs import Dog


class Puppy(Dog):
    def describe(self):
        return "young " + super().describe()
"#;

const TESTS: &str = r#"from zoo.dogs import Dog, Service
from zoo.puppies import Puppy


def test_dog_speaks_and_fetches():
    d = Dog("rex")
    assert d.speak() == "rex says woof"
    assert d.fetch().endswith(" fetches")
    assert d.tricks == []


def test_puppy():
    assert Puppy("bit").describe().startswith("young ")


def test_service_walks():
    assert Service("s").walk() == "walks"
"#;

fn zoo() -> Vec<(&'static str, &'static str)> {
    vec![
        ("zoo/__init__.py", ""),
        ("zoo/base.py", BASE),
        ("zoo/mammals.py", MAMMALS),
        ("zoo/dogs.py", DOGS),
        ("zoo/puppies.py", PUPPIES),
        ("tests/test_zoo.py", TESTS),
    ]
}

#[test]
fn the_base_explicit_calls_and_imports_follow_and_the_reply_says_what_resolves_elsewhere() {
    let before = texts(&zoo());
    assert!(pytest(&before).contains("3 passed"));
    let (after, summary) = changed(&zoo(), &change("zoo.dogs.Dog", "Animal", "Mammal"));
    assert_eq!(
        after["zoo/dogs.py"],
        DOGS.replace(
            "from .base import Animal, Walker\n",
            "from .base import Animal, Walker\nfrom .mammals import Mammal\n"
        )
        .replace("class Dog(Animal):", "class Dog(Mammal):")
        .replace("Animal.__init__(self, name)", "Mammal.__init__(self, name)"),
        "Animal stays imported: Service still derives from it"
    );
    let Summary::InheritanceChanged {
        old_parent,
        new_parent,
        calls,
        rerouted,
        ..
    } = summary
    else {
        panic!("{summary:?}")
    };
    assert_eq!(
        (old_parent.as_str(), new_parent.as_str(), calls),
        ("Animal", "Mammal", 1)
    );
    // Dog's `self.describe()` and Puppy's `super().describe()` now reach
    // Mammal's; `speak` and `__init__` are still Animal's
    assert_eq!(
        rerouted,
        [
            Rerouted {
                class: "Dog".into(),
                name: "describe".into(),
                via_super: false,
                before: Resolved::In("Animal".into()),
                after: Resolved::In("Mammal".into()),
            },
            Rerouted {
                class: "Puppy".into(),
                name: "describe".into(),
                via_super: true,
                before: Resolved::In("Animal".into()),
                after: Resolved::In("Mammal".into()),
            },
        ]
    );
    assert!(pytest(&after).contains("3 passed"));
    let out = python(
        &after,
        &[
            "-c",
            "from zoo.puppies import Puppy\nprint([k.__name__ for k in Puppy.__mro__], Puppy('b').describe())",
        ],
    );
    assert_eq!(
        out,
        "['Puppy', 'Dog', 'Mammal', 'Animal', 'object'] young a mammal\n"
    );
}

#[test]
fn the_old_import_goes_when_nothing_else_uses_it_and_the_new_name_takes_its_place() {
    let dogs = "from zoo.base import Animal\n\n\nclass Dog(Animal):\n    def __init__(self, name):\n        super(Animal, self).__init__(name)\n";
    let files = [
        ("zoo/__init__.py", ""),
        ("zoo/base.py", BASE),
        ("zoo/mammals.py", MAMMALS),
        ("zoo/dogs.py", dogs),
    ];
    let (after, summary) = changed(
        &files,
        &change("Dog", "zoo.base.Animal", "zoo.mammals.Mammal"),
    );
    // `super(Animal, self)` skipped Animal's __init__: `super(Mammal,
    // self)` skips Mammal's (it has none) and finds object's, as before
    assert_eq!(
        after["zoo/dogs.py"],
        "from zoo.mammals import Mammal\n\n\nclass Dog(Mammal):\n    def __init__(self, name):\n        super(Mammal, self).__init__(name)\n"
    );
    assert!(matches!(
        summary,
        Summary::InheritanceChanged { calls: 1, .. }
    ));
    // from a module importing the new parent's module already: no import
    let files = [
        ("zoo/__init__.py", ""),
        ("zoo/base.py", BASE),
        ("zoo/mammals.py", MAMMALS),
        (
            "zoo/dogs.py",
            "import zoo.mammals as m\nfrom zoo.base import Walker, Animal\n\n\nclass Dog(Animal, Walker):\n    pass\n",
        ),
    ];
    let (after, _) = changed(&files, &change("Dog", "Animal", "Mammal"));
    assert_eq!(
        after["zoo/dogs.py"],
        "import zoo.mammals as m\nfrom zoo.base import Walker\n\n\nclass Dog(m.Mammal, Walker):\n    pass\n"
    );
    python(&after, &["-c", "import zoo.dogs"]);
}

#[test]
fn a_builtin_class_is_a_new_parent_and_object_can_be_replaced() {
    let src = "class Bag(object):\n    def count(self):\n        return len(self)\n";
    let (after, _) = changed(&[("bag.py", src)], &change("Bag", "object", "list"));
    assert_eq!(
        after["bag.py"],
        "class Bag(list):\n    def count(self):\n        return len(self)\n"
    );
    python(
        &after,
        &["-c", "import bag\nassert bag.Bag([1, 2]).count() == 2"],
    );
}

#[test]
fn refusals_name_what_is_wrong_and_change_nothing() {
    let cases = [
        (
            change("Dog", "Walker", "Mammal"),
            RefactorFailure::Refused,
            "Cannot change inheritance - Walker is not a base of Dog (its bases: Animal)",
        ),
        (
            change("Service", "Walker", "Animal"),
            RefactorFailure::Refused,
            "Cannot change inheritance - Animal is a base of Service already (Animal)",
        ),
        (
            // class Service(Animal, Mammal): Animal before its own subclass
            change("Service", "Walker", "Mammal"),
            RefactorFailure::Refused,
            "Cannot change inheritance - Python would refuse to create Service (zoo/dogs.py:14:6): TypeError: Cannot create a consistent method resolution order (MRO) for bases Animal, Mammal",
        ),
        (
            // Dog and Puppy read describe, which only Animal gives
            change("Dog", "Animal", "Walker"),
            RefactorFailure::Refused,
            "Cannot change inheritance - without Animal, Dog would raise AttributeError: Dog.fetch reads self.describe at zoo/dogs.py:11:15, which Animal gives and nothing in the new hierarchy does; Puppy.describe reads super().describe at zoo/puppies.py:5:26, which Animal gives and nothing in the new hierarchy does",
        ),
        (
            change("Dog", "Animal", "Mammals"),
            RefactorFailure::NotFound,
            "Not found",
        ),
        (
            change("Puppy", "Dog", "Puppy"),
            RefactorFailure::Refused,
            "Cannot change inheritance - Puppy cannot derive from itself",
        ),
    ];
    for (request, kind, message) in cases {
        let (k, m) = refusal(&zoo(), &request);
        assert_eq!(k, kind, "{m}");
        assert!(m.starts_with(message), "{m}\nexpected: {message}");
    }
}

#[test]
fn a_name_the_class_reads_that_the_new_hierarchy_lacks_refuses() {
    let src = "class Base:\n    def __init__(self):\n        self.ready = True\n\n\nclass Other:\n    pass\n\n\nclass Job(Base):\n    def run(self):\n        return self.ready\n";
    let (kind, message) = refusal(&[("jobs.py", src)], &change("Job", "Base", "Other"));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot change inheritance - without Base, Job would raise AttributeError: Job.run reads self.ready at jobs.py:11:15, which Base gives and nothing in the new hierarchy does"
    );
}

#[test]
fn an_import_cycle_and_a_parent_defined_below_refuse() {
    let files = [
        ("app/__init__.py", ""),
        ("app/models.py", "from app.views import helper\n\n\nclass Model:\n    pass\n\n\nclass Record(Model):\n    pass\n"),
        ("app/views.py", "def helper():\n    pass\n\n\nclass View:\n    pass\n\n\nclass Page(View):\n    def show(self):\n        from app.models import Model\n        return Model\n"),
    ];
    // app.models imports app.views already: one more name is no new edge
    let (after, _) = changed(&files, &change("app.models.Record", "Model", "View"));
    assert!(
        after["app/models.py"].starts_with("from app.views import helper, View\n"),
        "{}",
        after["app/models.py"]
    );
    python(&after, &["-c", "import app.models, app.views"]);
    let (_, message) = refusal(&files, &change("Page", "View", "Model"));
    assert_eq!(
        message,
        "Cannot change inheritance - app.models imports app.views (app.models → app.views), so importing Model from it there would make an import cycle"
    );
    let src = "class Job(object):\n    pass\n\n\nclass Base:\n    pass\n";
    let (_, message) = refusal(&[("jobs.py", src)], &change("Job", "object", "Base"));
    assert_eq!(
        message,
        "Cannot change inheritance - Base is defined below it, at jobs.py:4:6: the class statement would run before Base exists; move Base above it first"
    );
}

#[test]
fn a_class_without_bases_takes_one_in_the_place_of_object() {
    for (class, after) in [
        ("class Job:", "class Job(Base):"),
        ("class Job():", "class Job(Base):"),
    ] {
        let src = format!("class Base:\n    def run(self):\n        return 1\n\n\n{class}\n    def go(self):\n        return 2\n");
        let (done, _) = changed(&[("jobs.py", &src)], &change("Job", "object", "Base"));
        assert_eq!(done["jobs.py"], src.replace(class, after));
        python(&done, &["-c", "import jobs\nassert jobs.Job().run() == 1"]);
    }
}

#[test]
fn a_metaclass_conflict_or_a_layout_conflict_refuses() {
    let src = "import abc\nimport enum\n\n\nclass Meta(type):\n    pass\n\n\nclass Tagged(metaclass=Meta):\n    pass\n\n\nclass Abstract(abc.ABC):\n    pass\n\n\nclass Plain:\n    pass\n\n\nclass Thing(Plain, Tagged):\n    pass\n\n\nclass Bag(dict):\n    pass\n\n\nclass Listing(Plain, Bag):\n    pass\n";
    let files = [("things.py", src)];
    let (_, message) = refusal(&files, &change("Thing", "Plain", "Abstract"));
    assert_eq!(
        message,
        "Cannot change inheritance - Python would refuse to create Thing (things.py:20:6): TypeError: metaclass conflict: the metaclass of Thing must derive from the metaclasses of all its bases (abc.ABCMeta of Abstract, Meta of Tagged)"
    );
    let (_, message) = refusal(&files, &change("Listing", "Plain", "list"));
    assert_eq!(
        message,
        "Cannot change inheritance - Python would refuse to create Listing (things.py:28:6): TypeError: multiple bases have instance lay-out conflict (dict, list in the order of Listing)"
    );
    // and Python agrees
    let mut tried: BTreeMap<String, String> = BTreeMap::new();
    tried.insert(
        "try.py".into(),
        format!(
            "{src}\n\nfor bases in [(Abstract, Tagged), (list, Bag)]:\n    try:\n        type('X', bases, {{}})\n    except TypeError as e:\n        print(e)\n"
        ),
    );
    let out = python(&tried, &["try.py"]);
    assert!(
        out.contains("metaclass conflict") && out.contains("lay-out conflict"),
        "{out}"
    );
}

#[test]
fn the_reply_names_the_type_tests_of_the_old_base_the_class_no_longer_passes() {
    let base = "class Failure(Exception):\n    pass\n\n\nclass Other(Exception):\n    pass\n\n\nclass Timeout(Failure):\n    pass\n";
    let app = "from errors import Failure, Timeout\n\n\ndef handle(e):\n    if isinstance(e, (Failure, KeyError)):\n        return 1\n    if issubclass(Failure, Exception):\n        return 2\n\n\ndef run():\n    try:\n        raise Timeout()\n    except Failure:\n        return 3\n";
    let project = TestProject::new(&[("errors.py", base), ("app.py", app)]);
    let done = project
        .run(None, &change("Timeout", "Failure", "Other"))
        .unwrap_or_else(|e| panic!("{e}"));
    let Summary::InheritanceChanged { type_tests, .. } = &done.summary else {
        panic!("{:?}", done.summary)
    };
    let shown: Vec<String> = type_tests.iter().map(|l| l.to_string()).collect();
    // `issubclass(Failure, …)` tests Failure itself: not one of them
    assert_eq!(shown, ["app.py:4:22", "app.py:13:11"]);
}

#[test]
fn an_explicit_call_of_a_method_the_new_parent_lacks_refuses() {
    let src = "class Old:\n    def setup(self):\n        return 1\n\n\nclass New:\n    pass\n\n\nclass Job(Old):\n    def run(self):\n        return Old.setup(self)\n";
    let (_, message) = refusal(&[("jobs.py", src)], &change("Job", "Old", "New"));
    assert_eq!(
        message,
        "Cannot change inheritance - Job.run calls Old.setup(self, …) at jobs.py:11:15, and New has no setup"
    );
}
