use super::super::testing::TestProject;
use super::super::{ExtractKind, RefactorFailure, Refactoring, Summary};

fn method(name: &str, first: usize, last: usize) -> Refactoring {
    Refactoring::Extract {
        kind: ExtractKind::Method,
        name: name.into(),
        first_line: first,
        last_line: last,
    }
}

fn function(name: &str, first: usize, last: usize) -> Refactoring {
    Refactoring::Extract {
        kind: ExtractKind::Function,
        name: name.into(),
        first_line: first,
        last_line: last,
    }
}

/// The file after the extraction, and the duplicates replaced.
fn extracted(src: &str, request: &Refactoring) -> (String, usize) {
    let project = TestProject::new(&[("a.py", src)]);
    let done = project.run(Some(("a.py", 0, 0)), request).unwrap_or_else(|e| panic!("{e}"));
    let Summary::Extracted { duplicates, .. } = done.summary else {
        panic!("{:?}", done.summary)
    };
    (project.after(&done)["a.py"].clone(), duplicates)
}

fn refused(src: &str, request: &Refactoring) -> (RefactorFailure, String) {
    let project = TestProject::new(&[("a.py", src)]);
    let e = project.run(Some(("a.py", 0, 0)), request).unwrap_err();
    (e.kind, e.message)
}

#[test]
fn a_method_gets_its_reads_as_parameters_and_returns_what_is_read_after() {
    let src = "\
class Cart:
    def total(self, items, rate):
        subtotal = 0
        for item in items:
            subtotal += item.price
        tax = subtotal * rate
        return subtotal + tax
";
    let (after, dups) = extracted(src, &method("add_prices", 2, 4));
    assert_eq!(
        after,
        "\
class Cart:
    def total(self, items, rate):
        subtotal = self.add_prices(items)
        tax = subtotal * rate
        return subtotal + tax

    def add_prices(self, items):
        subtotal = 0
        for item in items:
            subtotal += item.price
        return subtotal
"
    );
    assert_eq!(dups, 0);
}
