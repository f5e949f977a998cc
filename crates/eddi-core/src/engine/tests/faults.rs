//! What a failed write of the session state leaves behind (found by
//! `scripts/faults` with a full state directory).

use super::*;

/// A turn whose journal write failed was applied in memory; its events were
/// dropped, so the next turn's were journaled onto a text they did not fit
/// and the state directory could not be opened again ("corrupt session
/// state"). The failed turn's events now go with the next write.
#[test]
fn a_failed_journal_write_is_written_with_the_next_turn() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.check("a", "> Start s; Open a.py\nOk\nOk, At 0:0, Length 1");
    f.engine.store.inject_write_failures(1);
    let reply = f.send("a", "Insert Line \"y = 2\"");
    assert!(
        reply.starts_with("Fail \"Could not persist the session")
            && reply.contains("written with the next message"),
        "{reply}"
    );
    f.check(
        "a",
        "> Insert Line \"z = 3\"\nOk, Inserted 1 line at 1, At 2:0",
    );
    let f = f.restart();
    f.check(
        "a",
        r#"
        > Show Block 0:3
        Ok: At 0:0, Txt y = 2\nz = 3\nx = 1\n
        > Undo 2
        Ok, Undid 2, At 0:0
        > Show Block 0:1
        Ok: At 0:0, Txt x = 1\n
        "#,
    );
}

/// A save replaces its file by rename, which needs only the directory to be
/// writable: a file made read-only was overwritten (and stayed read-only).
/// It is refused now, naming the file and the fix; `Save All` writes none.
#[test]
fn a_read_only_file_is_not_overwritten() {
    use std::os::unix::fs::PermissionsExt;
    let f = Fixture::new();
    f.write("ro.py", "x = 1\n");
    f.write("rw.py", "y = 1\n");
    let ro = f.dir.path().join("ro.py");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    f.check(
        "a",
        r#"
        > Start s; Open rw.py; Insert Line "b = 2"; Open ro.py; Insert Line "a = 2"
        Ok
        Ok, At 0:0, Length 1
        Ok, Inserted 1 line at 0, At 1:0
        Ok, At 0:0, Length 1
        Ok, Inserted 1 line at 0, At 1:0
        > Save
        Fail "Read-only file: ro.py (no write permission; make it writable, e.g. chmod u+w ro.py, and save again); nothing was written"
        > Save All
        Fail "Read-only file: ro.py (no write permission; make it writable, e.g. chmod u+w ro.py, and save again); nothing was written"
        "#,
    );
    assert_eq!(f.read("ro.py"), "x = 1\n");
    assert_eq!(f.read("rw.py"), "y = 1\n");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o644)).unwrap();
    f.check("a", "> Save All\nOk, Saved 2 files: ro.py, rw.py, Bytes 24");
    assert_eq!(f.read("ro.py"), "a = 2\nx = 1\n");
}

/// A snapshot and the emptying of the journal are two renames: a kill
/// between them (found by the kill phase of `scripts/faults`) left the old
/// journal beside a snapshot that already held its events, and the restart
/// refused the state directory as corrupt. The snapshot now names the
/// journal it replaced, and loading skips it.
#[test]
fn a_crash_between_snapshot_and_journal_reset_loses_nothing() {
    let f = Fixture::new();
    f.write("a.py", "x = 0\n");
    f.check("a", "> Start s; Open a.py\nOk\nOk, At 0:0, Length 1");
    let journal = f.dir.path().join(".eddi/sessions/s/journal.jsonl");
    let mut version = 0;
    let stale = loop {
        let before = std::fs::read(&journal).unwrap_or_default();
        let next = version + 1;
        f.check(
            "a",
            &format!("> Replace All \"x = {version}\" With \"x = {next}\"\nOk, Replaced 1 occurrence, At 0:0"),
        );
        version = next;
        let after = std::fs::read(&journal).unwrap_or_default();
        if after.len() < before.len() {
            break before;
        }
        assert!(version < 1000, "no snapshot was taken");
    };
    // As if the process died right after the snapshot's rename.
    std::fs::write(&journal, stale).unwrap();
    let f = f.restart();
    f.check(
        "a",
        &format!("> Show Line 0\nOk: At 0:0, Txt x = {version}\n> Undo\nOk, Undid 1, At 0:0\n> Show Line 0\nOk: At 0:0, Txt x = {}", version - 1),
    );
}
