//! The typed operations as a client other than the terse commands calls
//! them (the agent tools will): plain data in and out, and the same facts
//! as the terse reply of the command on the same project.

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
    assert_eq!(no_session.kind, ErrorKind::NotApplicable);
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
