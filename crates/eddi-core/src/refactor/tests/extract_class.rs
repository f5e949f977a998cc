use super::super::testing::{changed as done, pytest, refusal};
use super::super::{RefactorFailure, Refactoring, Summary};

fn extract(class: &str, new_class: &str, members: &[&str]) -> Refactoring {
    Refactoring::ExtractClass {
        class: class.into(),
        new_class: new_class.into(),
        members: members.iter().map(|m| m.to_string()).collect(),
    }
}

const REPORT: &str = r#"class Report:
    """A report."""

    def __init__(self, title, rows):
        self.title = title
        self.rows = rows
        self.rendered = 0

    def total(self):
        return sum(self.rows)

    # The heading line.
    def heading(self):
        return self.title.upper()

    def render(self, sep="\n"):
        self.rendered += 1
        return sep.join([self.heading(), str(self.total()), self.footer()])

    def footer(self):
        return "-- %d rows" % len(self.rows)


class Fancy(Report):
    def __init__(self, title, rows, star="*"):
        super().__init__(title, rows)
        self.star = star

    def heading(self):
        return self.star + super().heading()

    def render(self, sep="\n"):
        return "[" + super().render(sep) + "]"
"#;

const TESTS: &str = r#"from shop.report import Fancy, Report


def test_report():
    r = Report("sales", [1, 2])
    assert r.render() == "SALES\n3\n-- 2 rows"
    assert r.rendered == 1
    assert r.heading() == "SALES"


def test_fancy():
    f = Fancy("x", [1], star="+")
    assert f.render("|") == "[+X|1|-- 1 rows]"
    assert f.rendered == 1
"#;

fn shop() -> Vec<(&'static str, &'static str)> {
    vec![
        ("shop/__init__.py", ""),
        ("shop/report.py", REPORT),
        ("tests/test_report.py", TESTS),
    ]
}

#[test]
fn methods_move_to_a_held_delegate_and_overrides_keep_working() {
    let (after, summary) = done(
        &shop(),
        &extract("Report", "Layout", &["heading", "render", "footer"]),
    );
    let report = &after["shop/report.py"];
    assert!(report.starts_with("class Report:\n    \"\"\"A report.\"\"\"\n\n    def __init__(self, title, rows):\n        self._layout = Layout(self)\n        self.title = title\n"), "{report}");
    assert!(
        report.contains(
            "    def render(self, sep=\"\\n\"):\n        return self._layout.render(sep)\n"
        ),
        "{report}"
    );
    assert!(report.contains(
        "class Layout:\n    def __init__(self, report):\n        self.report = report\n\n    # The heading line.\n    def heading(self):\n        return self.report.title.upper()\n\n    def render(self, sep=\"\\n\"):\n        self.report.rendered += 1\n        return sep.join([self.report.heading(), str(self.report.total()), self.footer()])\n\n    def footer(self):\n        return \"-- %d rows\" % len(self.report.rows)\n\n\nclass Fancy(Report):"
    ), "{report}");
    // the original does not inherit the new class
    assert!(report.contains("class Report:\n"));
    assert_eq!(
        summary,
        Summary::ClassExtracted {
            class: "shop.report.Report".into(),
            new_class: "Layout".into(),
            members: vec!["heading".into(), "render".into(), "footer".into()],
            attribute: "_layout".into(),
        }
    );
    assert!(pytest(&after).contains("2 passed"));
}

#[test]
fn a_class_without_its_own_init_gets_one_that_calls_its_bases() {
    let report = REPORT.replace(
        "class Fancy(Report):\n    def __init__(self, title, rows, star=\"*\"):\n        super().__init__(title, rows)\n        self.star = star\n",
        "class Fancy(Report):\n    star = \"*\"\n\n    def stars(self):\n        return self.star * len(self.rows)\n",
    );
    let tests = "from shop.report import Fancy\n\n\ndef test_stars():\n    assert Fancy(\"t\", [1, 2]).stars() == \"**\"\n";
    let files = [
        ("shop/__init__.py", ""),
        ("shop/report.py", report.as_str()),
        ("tests/test_report.py", tests),
    ];
    let (after, _) = done(&files, &extract("Fancy", "Stars", &["stars"]));
    assert!(after["shop/report.py"].contains(
        "        return \"[\" + super().render(sep) + \"]\"\n\n    def __init__(self, *args, **kwargs):\n        super().__init__(*args, **kwargs)\n        self._stars = Stars(self)\n"
    ), "{}", after["shop/report.py"]);
    assert!(pytest(&after).contains("1 passed"));
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let with = |from: &str, to: &str| -> Vec<(&'static str, String)> {
        shop()
            .into_iter()
            .map(|(p, t)| (p, t.replace(from, to)))
            .collect()
    };
    type Case = (
        Vec<(&'static str, String)>,
        Refactoring,
        RefactorFailure,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            with("", ""),
            extract("Fancy", "Deco", &["heading"]),
            RefactorFailure::Refused,
            "Cannot extract class - super() at",
        ),
        (
            with("", ""),
            extract("Report", "Layout", &["__init__"]),
            RefactorFailure::Refused,
            "Cannot extract class - Report.__init__ is not a plain instance method",
        ),
        (
            with("        super().__init__(title, rows)\n", "        self.title, self.rows, self.rendered = title, rows, 0\n"),
            extract("Report", "Layout", &["footer"]),
            RefactorFailure::Refused,
            "Cannot extract class - shop.report.Fancy.__init__ (shop/report.py:24:8) does not call the base's __init__",
        ),
        (
            with("class Report:\n", "import copy\n\n\nclass Report:\n    def clone(self):\n        return copy.copy(self)\n\n"),
            extract("Report", "Layout", &["footer"]),
            RefactorFailure::Refused,
            "Cannot extract class - the project makes shallow copies (shop/report.py:5)",
        ),
        (
            with("class Report:\n", "@staticmethod\ndef deco(c):\n    return c\n\n\n@deco\nclass Report:\n"),
            extract("Report", "Layout", &["footer"]),
            RefactorFailure::Refused,
            "Cannot extract class - Report has a class decorator",
        ),
        (
            with("    \"\"\"A report.\"\"\"\n", "    \"\"\"A report.\"\"\"\n\n    __slots__ = (\"title\", \"rows\", \"rendered\", \"__dict__\")\n"),
            extract("Fancy", "Deco", &["render"]),
            RefactorFailure::Refused,
            "Cannot extract class - Fancy defines Report.__slots__",
        ),
        (
            with("", ""),
            extract("Report", "Fancy", &["footer"]),
            RefactorFailure::NameConflict,
            "Name conflict exists: Fancy is bound in shop/report.py at",
        ),
    ];
    for (files, request, kind, start) in cases {
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let (k, message) = refusal(&files, &request);
        assert_eq!(k, kind, "{request:?}: {message}");
        assert!(message.starts_with(start), "{request:?}: {message}");
    }
}
