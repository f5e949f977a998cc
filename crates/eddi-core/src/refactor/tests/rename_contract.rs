//! The safety contract of renames: proven, inferred and possible uses,
//! refusal by default, `Include Possible` and `Only Proven`.

use super::super::testing::TestProject;
use super::super::{RefactorFailure, Refactored, Refactoring, RenameKind, SitePolicy};

fn rename(symbol: &str, new: &str, sites: SitePolicy) -> Refactoring {
    Refactoring::Rename {
        kind: RenameKind::Symbol,
        symbol: symbol.into(),
        new_name: new.into(),
        include_text: false,
        sites,
    }
}

fn shown(sites: impl IntoIterator<Item = String>) -> Vec<String> {
    sites.into_iter().collect()
}

fn inferred(done: &Refactored) -> Vec<String> {
    shown(done.evidence.inferred.iter().map(|u| u.site.to_string()))
}

fn possible(done: &Refactored) -> Vec<String> {
    shown(done.evidence.possible.iter().map(|u| u.site.to_string()))
}

const ONE_OWNER: &str = "class Field:\n    def _serialize(self, v):\n        return v\n\n\ndef dump(f, v):\n    return f._serialize(v)\n";

#[test]
fn an_attribute_of_unknown_type_no_other_class_has_is_inferred_and_renamed() {
    let p = TestProject::new(&[("m.py", ONE_OWNER)]);
    let done = p
        .run(
            None,
            &rename("m.Field._serialize", "_dump", SitePolicy::Refuse),
        )
        .expect("renamed");
    assert_eq!(inferred(&done), vec!["m.py:6:13"]);
    assert!(
        done.evidence.inferred[0].why.contains("no other class"),
        "{:?}",
        done.evidence.inferred
    );
    assert!(done.evidence.possible.is_empty());
    assert!(done.left_alone.is_empty(), "{:?}", done.left_alone);
    assert_eq!(
        shown(done.evidence.proven.iter().map(|l| l.to_string())),
        vec!["m.py:1:8"]
    );
    let after = p.after(&done);
    assert!(
        after["m.py"].contains("return f._dump(v)"),
        "{}",
        after["m.py"]
    );
}

const TWO_OWNERS: &str = "class Field:\n    def _serialize(self, v):\n        return v\n\n\nclass Schema:\n    def _serialize(self, v):\n        return {}\n\n\ndef dump(f, v):\n    return f._serialize(v)\n";

#[test]
fn a_possible_use_refuses_by_default_naming_it_and_the_options() {
    let p = TestProject::new(&[("m.py", TWO_OWNERS)]);
    let e = p
        .run(
            None,
            &rename("m.Field._serialize", "_dump", SitePolicy::Refuse),
        )
        .expect_err("refused");
    assert_eq!(e.kind, RefactorFailure::Refused);
    for part in [
        "Cannot rename m.Field._serialize: 1 possible use it cannot prove: m.py:11:13",
        "m.Schema has a member '_serialize' too",
        "nothing was changed",
        "Include Possible",
        "Only Proven",
    ] {
        assert!(e.message.contains(part), "{part:?} in {}", e.message);
    }
}

#[test]
fn include_possible_renames_them_and_only_proven_leaves_them_listed() {
    let p = TestProject::new(&[("m.py", TWO_OWNERS)]);
    let all = p
        .run(
            None,
            &rename("m.Field._serialize", "_dump", SitePolicy::IncludePossible),
        )
        .expect("renamed");
    assert_eq!(possible(&all), vec!["m.py:11:13"]);
    assert!(p.after(&all)["m.py"].contains("return f._dump(v)"));
    assert!(p.after(&all)["m.py"].contains("class Schema:\n    def _serialize"));

    let proven = p
        .run(
            None,
            &rename("m.Field._serialize", "_dump", SitePolicy::OnlyProven),
        )
        .expect("renamed");
    assert_eq!(possible(&proven), vec!["m.py:11:13"]);
    assert!(p.after(&proven)["m.py"].contains("return f._serialize(v)"));
    let left: Vec<String> = proven
        .left_alone
        .iter()
        .map(|l| l.site.to_string())
        .collect();
    assert_eq!(left, vec!["m.py:11:13"]);
}

#[test]
fn a_builtin_class_with_the_member_makes_a_use_possible() {
    // `d.get(…)` may be a dict's
    let p = TestProject::new(&[(
        "m.py",
        "class Cache:\n    def get(self, k):\n        return k\n\n\ndef look(d):\n    return d.get(1)\n",
    )]);
    let e = p
        .run(None, &rename("m.Cache.get", "fetch", SitePolicy::Refuse))
        .expect_err("refused");
    assert!(
        e.message.contains("dict has a member 'get' too"),
        "{}",
        e.message
    );
}

#[test]
fn overrides_renamed_with_the_member_are_said() {
    let p = TestProject::new(&[(
        "m.py",
        "class Base:\n    def contains(self, x):\n        return False\n\n\nclass Spec(Base):\n    def contains(self, x):\n        return True\n\n\nclass SpecSet(Base):\n    def contains(self, x):\n        return True\n\n\ndef f(s: Spec):\n    return s.contains(1)\n",
    )]);
    let done = p
        .run(
            None,
            &rename("m.Spec.contains", "matches", SitePolicy::Refuse),
        )
        .expect("renamed");
    assert_eq!(
        done.evidence.also,
        vec!["m.Base.contains", "m.SpecSet.contains"]
    );
}

#[test]
fn a_base_outside_the_project_refuses_but_a_known_stdlib_base_does_not() {
    let p = TestProject::new(&[(
        "m.py",
        "import abc\nimport framework\n\n\nclass A(abc.ABC):\n    def run(self):\n        pass\n\n\nclass B(framework.Base):\n    def go(self):\n        pass\n",
    )]);
    p.run(None, &rename("m.A.run", "execute", SitePolicy::Refuse))
        .expect("abc.ABC defines no run");
    let e = p
        .run(None, &rename("m.B.go", "start", SitePolicy::Refuse))
        .expect_err("refused");
    assert!(
        e.message
            .contains("1 class derives from a base outside the project: m.py:9:6"),
        "{}",
        e.message
    );
    let done = p
        .run(None, &rename("m.B.go", "start", SitePolicy::OnlyProven))
        .expect("proceeds");
    assert_eq!(done.left_alone.len(), 1, "{:?}", done.left_alone);
}

#[test]
fn strings_that_name_the_member_or_call_it_in_code_are_possible_uses() {
    // jinja2's compiler writes `environment.get_template(` into the code
    // it generates; a dispatcher keeps the name in a variable
    let p = TestProject::new(&[
        (
            "env.py",
            "class Environment:\n    def get_template(self, name):\n        return name\n",
        ),
        (
            "compiler.py",
            "def visit(w):\n    w.write(\"t = environment.get_template(\")\n    func = \"get_template\"\n    return func\n\n\ndef doc():\n    \"\"\"Calls environment.get_template(name).\"\"\"\n",
        ),
    ]);
    let e = p
        .run(
            None,
            &rename("env.Environment.get_template", "load", SitePolicy::Refuse),
        )
        .expect_err("refused");
    assert!(e.message.contains("2 possible uses"), "{}", e.message);
    assert!(
        e.message.contains("compiler.py:1:29 (code in a string"),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains("compiler.py:2:12 (a string that is the member's name"),
        "{}",
        e.message
    );
    let done = p
        .run(
            None,
            &rename(
                "env.Environment.get_template",
                "load",
                SitePolicy::IncludePossible,
            ),
        )
        .expect("renamed");
    let after = p.after(&done);
    assert!(
        after["compiler.py"].contains("\"t = environment.load(\""),
        "{}",
        after["compiler.py"]
    );
    assert!(
        after["compiler.py"].contains("func = \"load\""),
        "{}",
        after["compiler.py"]
    );
    assert!(
        after["compiler.py"].contains("Calls environment.get_template(name)"),
        "prose is a mention"
    );
}

#[test]
fn a_stub_of_one_copy_of_a_project_is_renamed_with_its_own_copy() {
    // two copies of one project: each package re-exports `f` and its
    // stub says so; a rename from app_a's file changes app_a's stub only
    let copy = |root: &str| {
        [
            (
                format!("{root}/pyproject.toml"),
                "[project]\nname = \"pkg\"\n".to_owned(),
            ),
            (
                format!("{root}/pkg/core.py"),
                "def f(x):\n    return x\n".to_owned(),
            ),
            (
                format!("{root}/pkg/__init__.py"),
                "from pkg.core import f\n".to_owned(),
            ),
            (
                format!("{root}/pkg/__init__.pyi"),
                "from pkg.core import f as f\n".to_owned(),
            ),
        ]
    };
    let files: Vec<(String, String)> = copy("app_a").into_iter().chain(copy("app_b")).collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let p = TestProject::new(&files);
    let done = p
        .run(
            Some(("app_a/pkg/core.py", 0, 4)),
            &rename("f", "g", SitePolicy::Refuse),
        )
        .expect("renamed");
    let after = p.after(&done);
    assert_eq!(
        after["app_a/pkg/__init__.pyi"], "from pkg.core import g as g\n",
        "{after:?}"
    );
    assert!(
        after.keys().all(|path| path.starts_with("app_a/")),
        "{after:?}"
    );
}
