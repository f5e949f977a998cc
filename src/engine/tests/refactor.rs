//! Engine conversations: `Refactor`, `Preview`, `Apply`, `Discard` — the
//! engine's side (lookup, checks, commit, undo step, replies). The
//! refactors' own results are tested in `src/refactor/tests/`.

use super::*;

#[test]
fn apply_and_discard_need_a_waiting_refactor() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Apply
        Fail "No refactor is waiting for Apply or Discard: in preview mode (Set Preview on) a Refactor shows its preview and waits"
        > Discard
        Fail "No refactor is waiting for Apply or Discard: in preview mode (Set Preview on) a Refactor shows its preview and waits"
        > Set Preview on
        Ok
        > Set Preview off
        Ok
        "#,
    );
}

#[test]
fn refactorings_that_are_not_built_are_refused_by_name() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor Split_Class A B x,y
        Fail "Refactor Split_Class is not available yet. Available: RenameSymbol, Rename_Class, Rename_Param, Signature, Extract_Method, ExtractFunction, Inline_Variable, InlineFunction"
        "#,
    );
}

#[test]
fn a_read_only_sender_may_preview_but_not_refactor() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "def f():\n    pass\n").unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.permissions = Permissions {
        read_only: ["ro".to_string()].into(),
        ..Permissions::default()
    };
    let engine = Engine::open(config).unwrap();
    let send = |text: &str| {
        engine
            .execute(&Request {
                sender: "ro",
                text,
                id: None,
            })
            .text
    };
    assert_eq!(send("Start s"), "Ok");
    assert_eq!(
        send("Refactor RenameSymbol f g"),
        "Fail \"Permission denied: ro is read-only; this command changes files\""
    );
    assert!(!send("Preview Refactor RenameSymbol f g").contains("Permission denied"));
}
