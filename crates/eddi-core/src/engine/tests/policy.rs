//! Engine conversations: permissions at the engine's one door.

use super::*;

fn restricted() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src/auth")).unwrap();
    std::fs::write(dir.path().join("src/auth/a.py"), "a = 1\n").unwrap();
    std::fs::write(dir.path().join("secret.py"), "key = 1\n").unwrap();
    std::os::unix::fs::symlink("../../secret.py", dir.path().join("src/auth/s.py")).unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.permissions = Permissions {
        read_only: ["viewer".to_string()].into(),
        path_prefixes: [("agent".to_string(), vec!["src/auth".to_string()])].into(),
        ..Default::default()
    };
    let engine = Engine::open(config).unwrap();
    Fixture { dir, engine }
}

#[test]
fn every_front_end_gets_the_same_permissions_without_the_transport() {
    let f = restricted();
    f.check(
        "viewer",
        r#"
        > Start v; Open src/auth/a.py
        Ok
        Ok, At 0:0, Length 1
        > Goto 0:0; Insert Line "evil = 1"
        Fail "Permission denied: viewer is read-only; Insert changes files"
        > Save All
        Fail "Permission denied: viewer is read-only; Save All changes files"
        "#,
    );
    f.check(
        "agent",
        r#"
        > Start a
        Ok
        > Open src/auth/s.py
        Fail "Permission denied: agent may not use src/auth/s.py (which is secret.py); allowed: src/auth"
        "#,
    );
    assert_eq!(f.read("src/auth/a.py"), "a = 1\n");
}

#[test]
fn a_change_is_checked_against_the_senders_permissions() {
    use crate::change::{Base, Indel, TextEdits, WorkspaceChange};
    let f = restricted();
    f.send("agent", "Start a");
    let ws = f.engine.workspace();
    let path = ws.resolve("secret.py").unwrap();
    let stamp = ws.stamp(&path).unwrap().unwrap();
    let change = WorkspaceChange::edit(
        path,
        Base::Disk(stamp),
        TextEdits::new([Indel::new(0..3, "lock")]).unwrap(),
    );
    let denied = f
        .engine
        .apply_change("agent", &change, ApplyMode::Commit)
        .unwrap_err();
    assert_eq!(denied.kind, crate::engine::ops::ErrorKind::PermissionDenied);
    assert_eq!(
        denied.message,
        "Permission denied: agent may not use secret.py; allowed: src/auth"
    );
    assert_eq!(f.read("secret.py"), "key = 1\n");
}

#[test]
fn a_read_only_sender_may_run_a_script_that_only_looks_and_flags() {
    let f = restricted();
    f.send("viewer", "Start v");
    let flagged = f.send(
        "viewer",
        r#"foreach file matching "src/**/*.py" flag "look""#,
    );
    assert_eq!(
        flagged, "Ok, 1 file flagged, Flagged: src/auth/a.py:1: look",
        "a script that writes nothing is a read"
    );
    let replaced = f.send(
        "viewer",
        r#"foreach file matching "src/**/*.py" replace "a = 1" with "a = 2""#,
    );
    assert_eq!(replaced, r#"Fail "Permission denied: viewer is read-only""#);
    assert_eq!(f.read("src/auth/a.py"), "a = 1\n");
}
