//! The typed operations as a client other than the terse commands calls
//! them (the agent tools will): plain data in and out, and the same facts
//! as the terse reply of the command on the same project.

use eddi::analysis::target::CodeTarget;
use eddi::engine::ops::ErrorKind;
use eddi::engine::{Engine, EngineConfig, Request};

fn project() -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| std::fs::write(dir.path().join(path), text).unwrap();
    write(
        "shop.py",
        "class Cart:\n    def total(self):\n        return 0\n\n\ndef pay(cart):\n    return cart.total()\n",
    );
    write(
        "app.py",
        "from shop import Cart, pay\n\npay(Cart())\nCart().total()\n",
    );
    let engine = Engine::open(EngineConfig::new(dir.path())).unwrap();
    (dir, engine)
}

fn send(engine: &Engine, text: &str) -> String {
    engine
        .execute(&Request {
            sender: "u",
            text,
            id: None,
        })
        .text
}

/// `path:line:col` of each site, as the terse reply lists them.
fn places(uses: &eddi::engine::ops::Uses) -> Vec<String> {
    uses.sites
        .iter()
        .map(|s| format!("{}:{}", s.path, s.span.start))
        .collect()
}

#[test]
fn references_and_callers_agree_with_the_terse_replies() {
    let (_dir, engine) = project();
    send(&engine, "Start s");
    let refs = engine.find_references("u", "shop.Cart").unwrap();
    assert!(refs.sites.iter().all(|s| s.context.is_some()));
    let terse = send(&engine, "Find References shop.Cart");
    for place in places(&refs) {
        assert!(terse.contains(&place), "{place} not in {terse}");
    }
    let callers = engine.find_callers("u", "shop.Cart.total").unwrap();
    assert_eq!(
        callers
            .sites
            .iter()
            .map(|s| (s.path.as_str(), s.span.start.line, s.in_symbol.as_deref()))
            .collect::<Vec<_>>(),
        [
            ("app.py", 3, Some("<module>")),
            ("shop.py", 6, Some("shop.pay"))
        ]
    );
    let terse = send(&engine, "Find Callers shop.Cart.total");
    for place in places(&callers) {
        assert!(terse.contains(&place), "{place} not in {terse}");
    }
}

#[test]
fn failures_are_typed_with_their_candidates() {
    let (_dir, engine) = project();
    let no_session = engine.find_definition("u", "pay").unwrap_err();
    assert_eq!(no_session.kind, ErrorKind::NoSession);
    send(&engine, "Start s");
    let missing = engine.find_definition("u", "Crat").unwrap_err();
    assert_eq!(missing.kind, ErrorKind::NotFound);
    assert!(
        missing.candidates.contains(&"Cart".to_owned()),
        "{missing:?}"
    );
    let terse = send(&engine, "Find Definition Crat");
    assert_eq!(terse, format!("Fail \"{}\"", missing.message));
    let found = engine.find_definition("u", "pay").unwrap();
    assert_eq!(found[0].qualified_name, "shop.pay");
    assert_eq!(found[0].location.context.as_deref(), Some("def pay(cart):"));
}

#[test]
fn per_file_operations_read_the_senders_view_of_any_file() {
    let (dir, engine) = project();
    send(&engine, "Start s");
    let total = CodeTarget::Method {
        class: "Cart".into(),
        name: "total".into(),
        params: None,
    };
    // not open: from disk
    let element = engine.get_element("u", "shop.py", &total).unwrap();
    assert_eq!(element.text, "def total(self):\n        return 0");
    assert_eq!(
        (element.span.start.to_string(), element.span.end.to_string()),
        ("1:4".to_owned(), "2:16".to_owned())
    );
    // the same as the terse Show
    assert_eq!(
        send(&engine, "Open shop.py; Show Method Cart.total")
            .lines()
            .last(),
        Some(r"Ok: At 1:4, Txt def total(self):\n        return 0")
    );
    // open with an unsaved edit: the buffer is what the sender sees
    send(
        &engine,
        "Goto 2:0; Delete Line; Insert Line \"        return 1\"",
    );
    let element = engine.get_element("u", "shop.py", &total).unwrap();
    assert!(element.text.ends_with("return 1"), "{}", element.text);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("shop.py"))
            .unwrap()
            .matches("return 0")
            .count(),
        1
    );

    let tree = engine.structure("u", "shop.py").unwrap();
    let top: Vec<(&str, &str)> = tree
        .children
        .iter()
        .map(|c| (c.kind, c.name.as_str()))
        .collect();
    assert_eq!(top, [("class", "Cart"), ("function", "pay")]);
    assert_eq!(tree.children[0].children[0].form, "Cart.total");

    let figures = engine.complexity("u", "app.py", None).unwrap();
    assert!(figures.blocks.is_empty());
    let figures = engine.complexity("u", "shop.py", None).unwrap();
    assert_eq!(figures.ranked()[0].name, "Cart");
    let deps = engine.dependencies("u", "app.py", None).unwrap();
    assert_eq!(deps.imports.len(), 2);
}

#[test]
fn per_file_operations_fail_typed() {
    let (dir, engine) = project();
    std::fs::write(dir.path().join("notes.txt"), "x\n").unwrap();
    send(&engine, "Start s");
    let cart = CodeTarget::Class {
        name: "Crat".into(),
    };
    let missing = engine.get_element("u", "shop.py", &cart).unwrap_err();
    assert_eq!(missing.kind, ErrorKind::NotFound);
    assert_eq!(missing.candidates, ["Cart"]);
    let kinds: Vec<ErrorKind> = ["nosuch.py", "notes.txt", "../outside.py"]
        .iter()
        .map(|path| engine.structure("u", path).unwrap_err().kind)
        .collect();
    assert_eq!(
        kinds,
        [
            ErrorKind::NotFound,
            ErrorKind::InvalidArgument,
            ErrorKind::InvalidArgument
        ]
    );
    // the service's message, without the terse language's hint
    assert_eq!(
        engine.structure("u", "nosuch.py").unwrap_err().message,
        "File not found: nosuch.py"
    );
}

#[test]
fn per_file_operations_keep_to_the_senders_path_prefixes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("pub")).unwrap();
    std::fs::write(dir.path().join("pub/a.py"), "def f():\n    pass\n").unwrap();
    std::fs::write(dir.path().join("secret.py"), "def g():\n    pass\n").unwrap();
    let mut config = EngineConfig::new(dir.path());
    config
        .permissions
        .path_prefixes
        .insert("u".into(), vec!["pub".into()]);
    let engine = Engine::open(config).unwrap();
    send(&engine, "Start s");
    assert_eq!(engine.structure("u", "pub/a.py").unwrap().children.len(), 1);
    let denied = engine.structure("u", "secret.py").unwrap_err();
    assert_eq!(denied.kind, ErrorKind::PermissionDenied);
    assert!(
        denied
            .message
            .starts_with("Permission denied: u may not use secret.py"),
        "{denied:?}"
    );
}
