//! Analyze on fixtures: complexity (checked against `radon cc` 6.0.1 on the
//! same file), dependencies, issues, structure; LF and CRLF give the same.

use eddi::analysis::issues::IssueConfig;
use eddi::analysis::validate::syntax_errors;
use eddi::analysis::{Analysis, SyntaxTree};
use eddi::commands::command::CodeTarget;
use ropey::Rope;

const INVENTORY: &str = include_str!("../fixtures/python/inventory.py");

fn report(src: &str, target: Option<CodeTarget>) -> eddi::analysis::Report {
    let text = Rope::from_str(src);
    let tree = SyntaxTree::parse(&text).unwrap();
    let a = Analysis::new(&text, &tree);
    a.report(&text, &tree, target.as_ref(), &IssueConfig::default())
        .unwrap()
}

/// `radon cc -s --show-closures tests/fixtures/python/inventory.py`
const RADON: &[(&str, u32)] = &[
    ("log", 1),
    ("register", 1),
    ("Warehouse", 3),
    ("Warehouse.Shelf", 4),
    ("Warehouse.Shelf.run", 3),
    ("Warehouse.__init__", 2),
    ("Warehouse.run", 3),
    ("Warehouse.total", 2),
    ("Warehouse.total.helper", 2),
    ("Server", 9),
    ("Server.run", 8),
    ("naïve_sum", 2),
    ("fetch", 1),
];

#[test]
fn file_report_matches_radon_and_lists_issues() {
    for src in [INVENTORY.to_string(), INVENTORY.replace('\n', "\r\n")] {
        let r = report(&src, None);
        let cc: Vec<(&str, u32)> = r
            .complexities
            .iter()
            .map(|(n, c)| (n.as_str(), *c))
            .collect();
        assert_eq!(cc, RADON);
        let issues: Vec<String> = r.issues.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            issues,
            [
                "5:37 unused import 'defaultdict'",
                "6:28 unused import 'ModelItem'",
                "6:39 unused import 'Stock'",
                "8:7 unused import 'typing'",
                "21:19 mutable default argument 'handler=[]'",
                "38:8 unused variable 'unused'",
                "43:8 bare 'except:'",
                "71:20 TODO: overflow?",
            ]
        );
        // the star import makes unknown names "maybe from *", not undefined
        assert_eq!(r.dependencies.unresolved, ["Base", "log_calls", "session"]);
        assert_eq!(r.structure.len(), 18);
    }
}

#[test]
fn element_reports() {
    let r = report(
        INVENTORY,
        Some(CodeTarget::Method {
            class: "Server".into(),
            name: "run".into(),
            params: None,
        }),
    );
    assert_eq!(r.complexity, Some(8));
    let deps: Vec<String> = r
        .dependencies
        .imports
        .iter()
        .map(|i| i.describe())
        .collect();
    assert_eq!(deps, ["import json as js"]);
    assert_eq!(r.dependencies.external_count(), 1);
    // None/True are keywords, not names
    assert_eq!(r.dependencies.builtins, ["open", "range"]);
    assert!(r.issues.is_empty());

    let r = report(
        INVENTORY,
        Some(CodeTarget::Class {
            name: "Warehouse".into(),
        }),
    );
    assert_eq!(r.complexity, Some(3));
    let deps: Vec<String> = r
        .dependencies
        .imports
        .iter()
        .map(|i| i.describe())
        .collect();
    assert_eq!(deps, ["import os", "from collections import OrderedDict"]);
    let nested: Vec<&str> = r
        .structure
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(
        nested,
        [
            "Warehouse.capacity",
            "Warehouse.name",
            "Warehouse.Shelf",
            "Warehouse.Shelf.run",
            "Warehouse.__init__",
            "Warehouse.run",
            "Warehouse.total",
            "Warehouse.total.helper",
        ]
    );
    let issues: Vec<String> = r.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(
        issues,
        ["38:8 unused variable 'unused'", "43:8 bare 'except:'"]
    );

    let r = report(
        INVENTORY,
        Some(CodeTarget::Function {
            name: "register".into(),
            params: None,
        }),
    );
    let deps: Vec<String> = r
        .dependencies
        .imports
        .iter()
        .map(|i| i.describe())
        .collect();
    assert_eq!(deps, Vec::<String>::new());
    assert_eq!(r.dependencies.unresolved, ["log_calls"]);
}

#[test]
fn broken_file_still_analyses() {
    let src = "def ok():\n    return 1\n\ndef broken(x:\n    if x\n        return 2\n\nclass C:\n    def m(self):\n        return 'ü' +\n";
    let text = Rope::from_str(src);
    let tree = SyntaxTree::parse(&text).unwrap();
    let errors: Vec<String> = syntax_errors(&text, &tree)
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert!(!errors.is_empty());
    let a = Analysis::new(&text, &tree);
    let r = a
        .report(&text, &tree, None, &IssueConfig::default())
        .unwrap();
    assert!(r
        .issues
        .iter()
        .any(|i| i.message.starts_with("syntax error")));
    assert_eq!(
        a.lookup(&CodeTarget::Function {
            name: "ok".into(),
            params: None
        })
        .unwrap()
        .position
        .line,
        0
    );
}
