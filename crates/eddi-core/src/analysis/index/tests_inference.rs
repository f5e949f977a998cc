//! What the index infers about a receiver's type (`x.name` resolved to a
//! class's member), shape by shape: each test lists the uses of a member
//! the index proves and those it leaves possible.

use super::ProjectIndex;

/// `certain; possible: …`: the sites a rename of the member `symbol` (with
/// the members it overrides and its overrides) changes and those it
/// cannot prove, as `path:line:col`.
fn uses(files: &[(&str, &str)], symbol: &str) -> String {
    let index = ProjectIndex::of_texts(files);
    let defs = index.rename_symbol(symbol, None).expect("the symbol");
    let family = index.hierarchy_of(&defs, &index.subclasses());
    let name = symbol.rsplit('.').next().unwrap_or(symbol);
    let sites = index.rename_sites(&family, name, true);
    let certain: Vec<String> = sites.certain.iter().map(|l| l.to_string()).collect();
    let possible: Vec<String> = sites.possible.iter().map(|(l, _)| l.to_string()).collect();
    format!("{}; possible: {}", certain.join(", "), possible.join(", "))
}

const ENVIRONMENT: &str = "class Environment:\n    def render(self):\n        pass\n\n\nclass Other:\n    def render(self):\n        pass\n";

#[test]
fn a_tests_parameter_is_what_the_fixture_of_its_name_returns() {
    let conftest = "import pytest\nfrom env import Environment\n\n\n@pytest.fixture\ndef env():\n    return Environment()\n\n\n@pytest.fixture(scope=\"module\")\ndef made():\n    e = Environment()\n    return e\n\n\n@pytest.fixture\ndef held():\n    yield Environment()\n";
    let tests = "def test_render(env, made, held, tmp_path):\n    env.render()\n    made.render()\n    held.render()\n    tmp_path.render()\n\n\ndef helper(env):\n    env.render()\n\n\nclass TestIt:\n    def test_method(self, env):\n        env.render()\n\n\nclass Helper:\n    def test_not_collected(self, env):\n        env.render()\n";
    assert_eq!(
        uses(
            &[
                ("env.py", ENVIRONMENT),
                ("conftest.py", conftest),
                ("tests/test_render.py", tests),
            ],
            "env.Environment.render",
        ),
        // a helper's parameter, a method of a class pytest does not
        // collect, a fixture the project does not define: not proven
        "tests/test_render.py:1:8, tests/test_render.py:2:9, tests/test_render.py:3:9, \
         tests/test_render.py:13:12; possible: tests/test_render.py:4:13, \
         tests/test_render.py:8:8, tests/test_render.py:18:12"
    );
}

#[test]
fn the_nearest_fixture_wins_as_pytest_looks_it_up() {
    let root = "import pytest\nfrom env import Environment\n\n\n@pytest.fixture\ndef env():\n    return Environment()\n";
    let nearer = "import pytest\nfrom env import Other\n\n\n@pytest.fixture\ndef env():\n    return Other()\n";
    // the module's own fixture, then the class's own: each the nearest
    let module = "import pytest\nfrom env import Other\n\n\n@pytest.fixture\ndef env():\n    return Other()\n\n\ndef test_module(env):\n    env.render()\n";
    let class = "import pytest\nfrom env import Other\n\n\nclass TestClass:\n    @pytest.fixture\n    def env(self):\n        return Other()\n\n    def test_class(self, env):\n        env.render()\n\n\ndef test_root(env):\n    env.render()\n";
    let files = [
        ("env.py", ENVIRONMENT),
        ("conftest.py", root),
        ("sub/conftest.py", nearer),
        ("sub/test_sub.py", "def test_sub(env):\n    env.render()\n"),
        ("test_module.py", module),
        ("test_class.py", class),
    ];
    assert_eq!(
        uses(&files, "env.Environment.render"),
        "test_class.py:14:8; possible: "
    );
    assert_eq!(
        uses(&files, "env.Other.render"),
        "sub/test_sub.py:1:8, test_class.py:10:12, test_module.py:10:8; possible: "
    );
}

#[test]
fn a_parametrized_or_renamed_fixture_or_a_rebinding_leaves_the_parameter_unproven() {
    let conftest = "import pytest\nfrom env import Environment\n\n\n@pytest.fixture\ndef env():\n    return Environment()\n";
    let tests = "import pytest\nfrom env import Environment, Other\n\n\n@pytest.mark.parametrize(\"env\", [Other()])\ndef test_param(env):\n    env.render()\n\n\ndef test_again(env):\n    env = Environment()\n    env.render()\n\n\ndef test_other(env):\n    env = Other()\n    env.render()\n";
    let renamed = "import pytest\nfrom env import Other\n\n\n@pytest.fixture(name=\"env\")\ndef other_env():\n    return Other()\n\n\ndef test_renamed(env):\n    env.render()\n";
    assert_eq!(
        uses(
            &[
                ("env.py", ENVIRONMENT),
                ("conftest.py", conftest),
                ("test_it.py", tests),
                ("test_renamed.py", renamed),
            ],
            "env.Environment.render",
        ),
        // bound to the fixture and again to another Environment: proven
        "test_it.py:11:8; possible: test_it.py:6:8, test_it.py:16:8, test_renamed.py:10:8"
    );
}

const FIELDS: &str = "class FieldABC:\n    def load(self):\n        pass\n\n\nclass Field(FieldABC):\n    def load(self):\n        pass\n\n\nclass Plain:\n    def load(self):\n        pass\n";

#[test]
fn a_function_checking_its_argument_with_issubclass_or_isinstance_returns_that_class() {
    // marshmallow's `resolve_field_instance`, unannotated
    let utils = "from fields import FieldABC\n\n\ndef resolve(cls_or_instance):\n    if isinstance(cls_or_instance, type):\n        if not issubclass(cls_or_instance, FieldABC):\n            raise TypeError\n        return cls_or_instance()\n    else:\n        if not isinstance(cls_or_instance, FieldABC):\n            raise TypeError\n        return cls_or_instance\n\n\ndef klass(c):\n    if issubclass(c, FieldABC):\n        c.load(c())\n        c().load()\n    c.load(c())\n";
    let uses_it = "from utils import resolve\n\nresolve(1).load()\n";
    assert_eq!(
        uses(
            &[
                ("fields.py", FIELDS),
                ("utils.py", utils),
                ("use.py", uses_it)
            ],
            "fields.FieldABC.load",
        ),
        "use.py:2:11, utils.py:16:10, utils.py:17:12; possible: utils.py:18:6"
    );
}

#[test]
fn an_attribute_assigned_several_classes_or_a_copy_of_itself_is_each_of_them() {
    let holder = "import copy\nfrom fields import Field, FieldABC, Plain\n\n\nclass List:\n    def __init__(self, inner, other, flag):\n        self.inner = make(inner)\n        self.key = None\n        if flag:\n            self.key = Field()\n        else:\n            self.key = FieldABC()\n        self.mixed = Field() if flag else other\n        self.either = Field()\n        self.either = Plain()\n\n    def bind(self):\n        self.inner = copy.deepcopy(self.inner)\n        self.key = copy.copy(self.key)\n\n    def run(self):\n        self.inner.load()\n        self.key.load()\n        self.either.load()\n\n\ndef make(x) -> Field:\n    return x\n";
    assert_eq!(
        uses(
            &[("fields.py", FIELDS), ("holder.py", holder)],
            "fields.Field.load"
        ),
        // `self.either` may be a `Plain`, whose `load` is another method
        "holder.py:21:19, holder.py:22:17; possible: holder.py:23:20"
    );
}

#[test]
fn a_type_comment_declares_as_an_annotation_does_wherever_the_attribute_is_assigned() {
    let schema = "import typing\nfrom fields import Field\n\n\nclass Schema:\n    declared = {}  # type: typing.Dict[str, Field]\n\n    def __init__(self):\n        self.fields = {}  # type: typing.Dict[str, Field]\n        self.one = None  # type: Optional[Field]\n        self.many = []  # type: List[Field]\n        self.loose = make()  # type: ignore\n\n    def init(self, made):\n        self.fields = made\n        self.loose = made\n\n    def run(self, name):\n        for key, f in self.fields.items():\n            f.load()\n        self.fields[name].load()\n        self.one.load()\n        for m in self.many:\n            m.load()\n        self.declared[name].load()\n        self.loose.load()\n\n\ndef make():\n    return Field()\n";
    assert_eq!(
        uses(
            &[("fields.py", FIELDS), ("schema.py", schema)],
            "fields.Field.load"
        ),
        "schema.py:19:14, schema.py:20:26, schema.py:21:17, schema.py:23:14, \
         schema.py:24:28; possible: schema.py:25:19"
    );
}
