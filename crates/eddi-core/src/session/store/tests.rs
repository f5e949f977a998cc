//! Named changesets through the store: written, read back equal after a
//! restart, and refused clearly when the state that holds them is corrupt.

use super::*;
use crate::change::{Base, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use crate::commands::{ReplyDetail, ResponseFormat};
use crate::session::{ChangesetName, ChangesetState, Preferences};
use crate::workspace::{DiskStamp, WorkspacePath};

fn path(text: &str) -> WorkspacePath {
    WorkspacePath::from_persisted(text.into()).unwrap()
}

fn name(text: &str) -> ChangesetName {
    ChangesetName::new(text).unwrap()
}

fn edits(list: &[(usize, usize, &str)]) -> TextEdits {
    TextEdits::new(list.iter().map(|(a, b, t)| Indel::new(*a..*b, *t))).unwrap()
}

/// A session, snapshotted as the engine does when it starts one.
fn started(store: &Store) -> (Session, JournalState) {
    let mut session = Session::new(
        "s".into(),
        None,
        "agent".into(),
        "2026-12-04T20:00:00Z".into(),
        Preferences {
            format: ResponseFormat::Terse,
            output_limit: 4000,
            replies: ReplyDetail::default(),
            preview: false,
            progress: false,
        },
    );
    let mut journal = JournalState::default();
    store.snapshot(&session, &mut journal).unwrap();
    session.take_unpersisted();
    (session, journal)
}

/// Events that give the session two changesets: `mig` (three files, one
/// of each base) applied as step 1, and `later` open.
fn with_changesets(session: &mut Session) {
    let stamp = DiskStamp {
        len: 5,
        mtime_ns: 42,
        hash: "c0ffee".into(),
        ino: 7,
    };
    let mut change = WorkspaceChange::edit(
        path("pkg/a.py"),
        Base::Disk(stamp),
        edits(&[(0, 3, "new"), (9, 9, "\n# done")]),
    );
    change
        .insert(
            path("b.py"),
            FileChange {
                base: Base::Absent,
                op: FileOp::Create("x = 1\n".into()),
            },
        )
        .unwrap();
    let events = [
        Event::Opened {
            path: path("c.py"),
            text: "y = 2\n".into(),
            disk: None,
        },
        Event::ChangesetCreated {
            name: name("mig"),
            at: "2026-12-04T20:01:00Z".into(),
        },
        Event::ChangesetAdded {
            name: name("mig"),
            change,
            at: "2026-12-04T20:02:00Z".into(),
        },
        Event::ChangesetAdded {
            name: name("mig"),
            change: WorkspaceChange::edit(
                path("c.py"),
                Base::Buffer { version: 0 },
                edits(&[(0, 1, "z")]),
            ),
            at: "2026-12-04T20:03:00Z".into(),
        },
        Event::StepStarted {
            group: 1,
            files: vec![path("pkg/a.py"), path("b.py"), path("c.py")],
            committed: true,
            writes: Vec::new(),
        },
        Event::ChangesetApplied {
            name: name("mig"),
            step: 1,
            at: "2026-12-04T20:04:00Z".into(),
        },
        Event::ChangesetCreated {
            name: name("later"),
            at: "2026-12-04T20:05:00Z".into(),
        },
    ];
    for event in events {
        session.apply(event).unwrap();
    }
}

/// Everything persisted of a session, for comparing two of them.
fn persisted(session: &Session) -> serde_json::Value {
    serde_json::to_value(session).unwrap()
}

fn reopened(dir: &Path) -> Session {
    let store = Store::open(dir).unwrap();
    let mut sessions = store.load_all().unwrap();
    assert_eq!(sessions.len(), 1);
    sessions.pop().unwrap().0
}

#[test]
fn a_session_with_changesets_survives_a_restart_through_journal_and_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let (mut session, mut journal) = started(&store);
    with_changesets(&mut session);
    let events = session.take_unpersisted();
    store.append(&session, &mut journal, &events).unwrap();
    drop(store);

    // From the journal.
    let back = reopened(dir.path());
    assert_eq!(back.changesets.len(), 2);
    let mig = back.changesets.get("mig").unwrap();
    assert_eq!(mig.state, ChangesetState::Applied { step: 1 });
    assert_eq!(mig.additions, 2);
    assert_eq!(mig.change.files().count(), 3);
    assert_eq!(back.changesets, session.changesets);
    assert_eq!(persisted(&back), persisted(&session));

    // From a snapshot.
    let store = Store::open(dir.path()).unwrap();
    store.snapshot(&session, &mut journal).unwrap();
    drop(store);
    let back = reopened(dir.path());
    assert_eq!(persisted(&back), persisted(&session));
}

/// Writes the session's snapshot and then `lines` as its journal.
fn journal_of(dir: &Path, lines: &[String]) {
    let store = Store::open(dir).unwrap();
    started(&store);
    let journal = dir.join("sessions/s/journal.jsonl");
    fs::write(journal, lines.concat()).unwrap();
}

fn load_error(dir: &Path) -> String {
    let store = Store::open(dir).unwrap();
    match store.load_all() {
        Err(error @ StoreError::Corrupt { .. }) => error.to_string(),
        other => panic!("expected a corrupt journal, got {other:?}"),
    }
}

#[test]
fn a_journal_with_an_invalid_changeset_is_refused_naming_the_line_and_the_fault() {
    let created = "{\"event\":\"changeset_created\",\"name\":\"mig\",\"at\":\"t\"}\n".to_owned();
    let add = |files: &str| {
        format!("{{\"event\":\"changeset_added\",\"name\":\"mig\",\"change\":{{\"files\":{files}}},\"at\":\"t\"}}\n")
    };
    let valid = add(r#"{"a.py":{"base":"absent","op":{"edit":[[0,1,"x"]]}}}"#);
    let cases = [
        (
            add(r#"{"a.py":{"base":"absent","op":{"edit":[[0,3,"x"],[1,2,"y"]]}}}"#),
            "overlapping edits at chars 0..3 and 1..2",
        ),
        (
            add(r#"{"../../etc/passwd":{"base":"absent","op":"delete"}}"#),
            "invalid workspace path \"../../etc/passwd\"",
        ),
        (
            "{\"event\":\"changeset_created\",\"name\":\"bad name\",\"at\":\"t\"}\n".to_owned(),
            "invalid changeset name 'bad name'",
        ),
        // Well-formed, but it does not fit the session.
        (
            add(r#"{"a.py":{"base":"absent","op":{"edit":[[0,2,"y"]]}}}"#),
            "event 3: the change does not join changeset 'mig': overlapping edits in a.py",
        ),
        (created.clone(), "event 3: changeset 'mig' already exists"),
        (
            "{\"event\":\"changeset_applied\",\"name\":\"mig\",\"step\":4,\"at\":\"t\"}\n"
                .to_owned(),
            "event 3: changeset 'mig' names step 4, which the session does not have",
        ),
    ];
    for (bad, fault) in cases {
        // In the middle of the journal, and as its last complete line.
        for tail in [vec![valid.clone()], vec![]] {
            let dir = tempfile::tempdir().unwrap();
            let mut lines = vec![created.clone(), valid.clone(), bad.clone()];
            lines.extend(tail);
            journal_of(dir.path(), &lines);
            let error = load_error(dir.path());
            assert!(error.starts_with("corrupt session state "), "{error}");
            assert!(error.contains("journal.jsonl"), "{error}");
            assert!(error.contains(fault), "{fault}: {error}");
        }
    }
}

#[test]
fn a_torn_last_line_is_still_a_crash_mid_append_not_corruption() {
    let dir = tempfile::tempdir().unwrap();
    let created = "{\"event\":\"changeset_created\",\"name\":\"mig\",\"at\":\"t\"}\n".to_owned();
    let torn = "{\"event\":\"changeset_created\",\"name\":\"la".to_owned();
    journal_of(dir.path(), &[created.clone(), torn]);
    let back = reopened(dir.path());
    assert_eq!(back.changesets.len(), 1);
    assert!(back.changesets.get("mig").is_some());

    // Torn inside a character: not UTF-8, still only a torn line.
    let dir = tempfile::tempdir().unwrap();
    journal_of(dir.path(), &[]);
    let mut bytes = created.into_bytes();
    bytes.extend_from_slice(b"{\"event\":\"noticed\",\"text\":\"gr\xc3");
    fs::write(dir.path().join("sessions/s/journal.jsonl"), bytes).unwrap();
    assert!(reopened(dir.path()).changesets.get("mig").is_some());
}

#[test]
fn a_snapshot_with_an_invalid_changeset_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let (mut session, mut journal) = started(&store);
    with_changesets(&mut session);
    store.snapshot(&session, &mut journal).unwrap();
    drop(store);
    let snapshot = dir.path().join("sessions/s/snapshot.json");
    let mut json: serde_json::Value =
        serde_json::from_slice(&fs::read(&snapshot).unwrap()).unwrap();
    // Applied as a step the session never took.
    json["session"]["changesets"]["later"]["state"] =
        serde_json::json!({"state": "applied", "step": 5});
    fs::write(&snapshot, json.to_string()).unwrap();
    let error = load_error(dir.path());
    assert!(
        error.contains(
            "snapshot.json: changeset 'later' names step 5, which the session does not have"
        ),
        "{error}"
    );
    // Overlapping edits in a changeset.
    json["session"]["changesets"]["later"]["state"] = serde_json::json!({"state": "open"});
    json["session"]["changesets"]["later"]["change"] = serde_json::json!({"files": {"a.py": {"base": "absent", "op": {"edit": [[0, 4, "x"], [2, 3, "y"]]}}}});
    fs::write(&snapshot, json.to_string()).unwrap();
    let error = load_error(dir.path());
    assert!(
        error.contains("snapshot.json: overlapping edits at chars 0..4 and 2..3"),
        "{error}"
    );
}

#[test]
fn a_format_4_directory_is_migrated_to_the_current_format() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join(FORMAT_FILE),
        r#"{"format": 4, "written_by": "eddi 0.4"}"#,
    )
    .unwrap();
    drop(Store::open(dir.path()).unwrap());
    let record: FormatRecord =
        serde_json::from_slice(&fs::read(dir.path().join(FORMAT_FILE)).unwrap()).unwrap();
    assert_eq!(record.format, STATE_FORMAT);
}

/// The torn line a crash left is cut off when the journal is read: events
/// appended after the restart start on a line of their own.
#[test]
fn events_appended_after_a_torn_line_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let created = "{\"event\":\"changeset_created\",\"name\":\"mig\",\"at\":\"t\"}\n".to_owned();
    let torn = "{\"event\":\"changeset_created\",\"name\":\"la".to_owned();
    journal_of(dir.path(), &[created, torn]);
    let store = Store::open(dir.path()).unwrap();
    let (mut session, mut journal) = store.load_all().unwrap().pop().unwrap();
    session
        .apply(Event::ChangesetCreated {
            name: name("later"),
            at: "t".into(),
        })
        .unwrap();
    let events = session.take_unpersisted();
    store.append(&session, &mut journal, &events).unwrap();
    drop(store);
    let back = reopened(dir.path());
    assert_eq!(back.changesets, session.changesets);
    assert_eq!(back.changesets.len(), 2);
}
