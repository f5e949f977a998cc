//! Outline, lookup and enclosing on fixtures, LF and CRLF.

use eddi::analysis::outline::{enclosing, lookup, outline, Enclosing, Outline, SymbolKind};
use eddi::analysis::SyntaxTree;
use eddi::commands::command::CodeTarget;
use eddi::edit::{LineRange, Position};
use ropey::Rope;

const INVENTORY: &str = include_str!("../fixtures/python/inventory.py");

fn parse(src: &str) -> (Rope, Outline) {
    let text = Rope::from_str(src);
    let tree = SyntaxTree::parse(&text).unwrap();
    let o = outline(&text, &tree);
    (text, o)
}

fn summary(o: &Outline) -> Vec<String> {
    o.symbols
        .iter()
        .map(|s| {
            format!(
                "{} {} {} lines {}",
                s.kind.noun(),
                s.qualified_name,
                s.position,
                s.full_lines
            )
        })
        .collect()
}

fn function(name: &str) -> CodeTarget {
    CodeTarget::Function {
        name: name.into(),
        params: None,
    }
}

const EXPECTED: &[&str] = &[
    "variable MAX_ITEMS 10:0 lines 10:10",
    "variable größe 11:0 lines 11:11",
    "variable count 11:7 lines 11:11",
    "function log 14:0 lines 14:15",
    "function register 21:0 lines 18:23",
    "class Warehouse 26:0 lines 26:51",
    "attribute Warehouse.capacity 29:4 lines 29:29",
    "attribute Warehouse.name 30:4 lines 30:30",
    "class Warehouse.Shelf 32:4 lines 32:34",
    "method Warehouse.Shelf.run 33:8 lines 33:34",
    "method Warehouse.__init__ 36:4 lines 36:38",
    "method Warehouse.run 40:4 lines 40:45",
    "method Warehouse.total 48:4 lines 47:51",
    "function Warehouse.total.helper 49:8 lines 49:50",
    "class Server 54:0 lines 54:65",
    "method Server.run 55:4 lines 55:65",
    "function naïve_sum 68:0 lines 68:72",
    "function fetch 75:0 lines 75:77",
];

#[test]
fn outline_of_fixture() {
    let (_, o) = parse(INVENTORY);
    assert_eq!(summary(&o), EXPECTED);
    let register = lookup(&o, &function("register")).unwrap();
    assert_eq!(
        register.decorators,
        ["@staticmethod", "@log_calls(level=2)"]
    );
    assert_eq!(register.params.as_deref(), Some("name, handler=[]"));
    let fetch = lookup(&o, &function("fetch")).unwrap();
    assert!(fetch.is_async);
    assert_eq!(fetch.body_lines, Some(LineRange::new(76, 77)));
    assert_eq!(fetch.end, Position::new(78, 0));
    let log = lookup(&o, &function("log")).unwrap();
    assert_eq!(log.param_names, ["message", "args", "level", "kwargs"]);
}

#[test]
fn crlf_gives_the_same_outline() {
    let (_, lf) = parse(INVENTORY);
    let (text, crlf) = parse(&INVENTORY.replace('\n', "\r\n"));
    assert_eq!(summary(&crlf), EXPECTED);
    let total = lookup(
        &crlf,
        &CodeTarget::Method {
            class: "Warehouse".into(),
            name: "total".into(),
            params: None,
        },
    )
    .unwrap();
    // full range ends after the CRLF of line 51
    assert_eq!(
        text.slice(total.full.clone()).to_string().lines().count(),
        5
    );
    assert!(text
        .slice(total.full.clone())
        .to_string()
        .ends_with("values())\r\n"));
    assert_eq!(lf.symbols.len(), crlf.symbols.len());
}

#[test]
fn non_ascii_columns_are_chars() {
    let (_, o) = parse(INVENTORY);
    let count = lookup(
        &o,
        &CodeTarget::Variable {
            name: "count".into(),
        },
    )
    .unwrap();
    // "größe, count": ö and ß are 2 bytes each, count starts at char 7
    assert_eq!(count.position, Position::new(11, 7));
    let f = lookup(&o, &function("naïve_sum")).unwrap();
    assert_eq!(f.name_position, Position::new(68, 4));
}

#[test]
fn ambiguous_and_not_found_messages() {
    let (_, o) = parse(INVENTORY);
    assert_eq!(
        lookup(&o, &function("run")).unwrap_err().to_string(),
        "Ambiguous match: 'run' at 33:8 (Method Warehouse.Shelf.run), 40:4 (Method Warehouse.run), 55:4 (Method Server.run); name one of them as listed"
    );
    let by_params = lookup(
        &o,
        &CodeTarget::Function {
            name: "run".into(),
            params: Some("port".into()),
        },
    )
    .unwrap();
    assert_eq!(by_params.qualified_name, "Server.run");
    let method = lookup(
        &o,
        &CodeTarget::Method {
            class: "Shelf".into(),
            name: "run".into(),
            params: None,
        },
    )
    .unwrap();
    assert_eq!(method.position, Position::new(33, 8));
    assert_eq!(
        lookup(&o, &function("regster")).unwrap_err().to_string(),
        "Not found: function 'regster'. Available: register, log, run, __init__, total, helper, naïve_sum, fetch"
    );
    assert_eq!(
        lookup(
            &o,
            &CodeTarget::Method {
                class: "Nope".into(),
                name: "run".into(),
                params: None,
            }
        )
        .unwrap_err()
        .to_string(),
        "Not found: class 'Nope'. Available: Warehouse, Shelf, Server"
    );
    assert_eq!(
        lookup(
            &o,
            &CodeTarget::Method {
                class: "Server".into(),
                name: "stop".into(),
                params: None,
            }
        )
        .unwrap_err()
        .to_string(),
        "Not found: method 'Server.stop'. Available: Server.run"
    );
    let attr = lookup(
        &o,
        &CodeTarget::Variable {
            name: "Warehouse.name".into(),
        },
    )
    .unwrap();
    assert_eq!(attr.kind, SymbolKind::Attribute);
}

#[test]
fn enclosing_is_innermost_and_counts_the_line_after() {
    let (text, o) = parse(INVENTORY);
    let at =
        |l, c, k| enclosing(&o, &text, Position::new(l, c), k).map(|s| s.qualified_name.clone());
    assert_eq!(
        at(50, 12, Enclosing::Function).as_deref(),
        Some("Warehouse.total.helper")
    );
    assert_eq!(
        at(51, 8, Enclosing::Function).as_deref(),
        Some("Warehouse.total")
    );
    assert_eq!(
        at(34, 0, Enclosing::Class).as_deref(),
        Some("Warehouse.Shelf")
    );
    // blank line 35 right after Shelf's last line still counts as in Shelf
    assert_eq!(
        at(35, 0, Enclosing::Class).as_deref(),
        Some("Warehouse.Shelf")
    );
    assert_eq!(at(39, 0, Enclosing::Class).as_deref(), Some("Warehouse"));
    assert_eq!(at(12, 0, Enclosing::Function), None);
    assert_eq!(at(53, 0, Enclosing::Class), None);
    // comment lines attached above a decorated function belong to it
    assert_eq!(at(18, 0, Enclosing::Function).as_deref(), Some("register"));
}
