use super::super::testing::TestProject;
use super::super::{RefactorFailure, Refactored, Refactoring, RenameKind, Summary};

fn rename(symbol: &str, new: &str) -> Refactoring {
    Refactoring::Rename {
        kind: RenameKind::Symbol,
        symbol: symbol.into(),
        new_name: new.into(),
        include_text: false,
    }
}

fn counts(r: &Refactored) -> (usize, usize) {
    match &r.summary {
        Summary::Renamed {
            files, references, ..
        } => (*files, *references),
        other => panic!("{other:?}"),
    }
}

/// Runs the rename and returns the changed files' texts.
fn texts(p: &TestProject, current: Option<(&str, usize, usize)>, r: &Refactoring) -> Vec<(String, String)> {
    let done = p.run(current, r).unwrap_or_else(|e| panic!("{e}"));
    p.after(&done).into_iter().collect()
}

#[test]
fn a_function_is_renamed_at_its_definition_imports_and_calls() {
    let p = TestProject::new(&[
        ("pkg/__init__.py", "from .a import old\n__all__ = [\"old\"]\n"),
        ("pkg/a.py", "def old(x):\n    return x\n\nold(1)\n"),
        ("b.py", "from pkg.a import old\nfrom pkg import old as alias\nimport pkg.a as m\n\nold(reverse=True)\nalias(2)\nm.old(3)\n"),
        ("c.py", "def old():\n    pass\nold()\n"),
    ]);
    let done = p.run(None, &rename("pkg.a.old", "new")).unwrap();
    assert_eq!(counts(&done), (3, 8));
    let after = p.after(&done);
    assert_eq!(after["pkg/__init__.py"], "from .a import new\n__all__ = [\"new\"]\n");
    assert_eq!(after["pkg/a.py"], "def new(x):\n    return x\n\nnew(1)\n");
    assert_eq!(
        after["b.py"],
        "from pkg.a import new\nfrom pkg import new as alias\nimport pkg.a as m\n\nnew(reverse=True)\nalias(2)\nm.new(3)\n"
    );
    assert!(!after.contains_key("c.py"));
}
