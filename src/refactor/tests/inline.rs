use super::*;
use crate::refactor::testing::TestProject;

fn variable(name: &str) -> Refactoring {
    Refactoring::Inline {
        kind: InlineKind::Variable,
        name: name.into(),
    }
}

/// Inlines `name` with the cursor at `line` of a.py; the new text of a.py.
fn inlined(src: &str, line: usize, name: &str) -> String {
    let project = TestProject::new(&[("a.py", src)]);
    let done = project
        .run(Some(("a.py", line, 0)), &variable(name))
        .unwrap_or_else(|e| panic!("{e}"));
    project.after(&done).remove("a.py").unwrap()
}

fn refusal(src: &str, line: usize, name: &str) -> String {
    let project = TestProject::new(&[("a.py", src)]);
    let e = project
        .run(Some(("a.py", line, 0)), &variable(name))
        .expect_err("refused");
    e.message
}

#[test]
fn a_sum_inlined_into_a_product_gets_parentheses() {
    assert_eq!(
        inlined("def f(a, b, x):\n    v = a + b\n    return x * v\n", 2, "v"),
        "def f(a, b, x):\n    return x * (a + b)\n"
    );
}
