//! The invariants of named changesets, through the events that change them.

use super::*;
use crate::change::{Base, FileChange, FileOp, Indel, TextEdits};
use crate::commands::{ReplyDetail, ResponseFormat};
use crate::session::{Event, EventError, Preferences, Session};
use crate::workspace::WorkspacePath;

fn session() -> Session {
    Session::new(
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
    )
}

fn name(text: &str) -> ChangesetName {
    ChangesetName::new(text).unwrap()
}

fn path(text: &str) -> WorkspacePath {
    WorkspacePath::from_persisted(text.into()).unwrap()
}

/// An edit of `file` at `version`: `(start, end, text)` triples.
fn edit(file: &str, version: u64, list: &[(usize, usize, &str)]) -> WorkspaceChange {
    let edits = TextEdits::new(list.iter().map(|(a, b, t)| Indel::new(*a..*b, *t))).unwrap();
    WorkspaceChange::edit(path(file), Base::Buffer { version }, edits)
}

fn created(text: &str) -> Event {
    Event::ChangesetCreated {
        name: name(text),
        at: "t0".into(),
    }
}

fn added(text: &str, change: WorkspaceChange) -> Event {
    Event::ChangesetAdded {
        name: name(text),
        change,
        at: "t1".into(),
    }
}

fn step(session: &mut Session, group: u64) {
    session
        .apply(Event::StepStarted {
            group,
            files: vec![path("a.py")],
            committed: true,
            writes: Vec::new(),
        })
        .unwrap();
}

fn refusal(session: &mut Session, event: Event) -> ChangesetError {
    let before = session.changesets.clone();
    let queued = session.unpersisted().len();
    match session.apply(event) {
        Err(EventError::Changeset(error)) => {
            assert_eq!(
                session.changesets, before,
                "a refused event changes nothing"
            );
            assert_eq!(session.unpersisted().len(), queued, "and is not journaled");
            error
        }
        other => panic!("expected a changeset refusal, got {other:?}"),
    }
}

#[test]
fn names_follow_the_command_languages_rule() {
    for good in ["auth_migration", "v2.1-fix", "A", &"x".repeat(64)] {
        assert_eq!(ChangesetName::new(good).unwrap().as_str(), good);
    }
    for bad in ["", "has space", "semi;colon", "ä", "../up", &"x".repeat(65)] {
        let error = ChangesetName::new(bad).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("invalid changeset name '{bad}': use 1-64 of A-Z a-z 0-9 _ . -")
        );
    }
    let read = serde_json::from_str::<ChangesetName>(r#""no good""#).unwrap_err();
    assert!(
        read.to_string()
            .contains("invalid changeset name 'no good'"),
        "{read}"
    );
}

#[test]
fn names_are_unique() {
    let mut session = session();
    session.apply(created("mig")).unwrap();
    assert_eq!(
        refusal(&mut session, created("mig")).to_string(),
        "changeset 'mig' already exists: choose another name, or drop it first"
    );
    session.apply(created("Mig")).unwrap();
    assert_eq!(session.changesets.len(), 2, "names compare exactly");
    session
        .apply(Event::ChangesetDropped { name: name("mig") })
        .unwrap();
    session.apply(created("mig")).unwrap();
    assert_eq!(
        refusal(&mut session, added("nope", edit("a.py", 1, &[(0, 1, "x")]))),
        ChangesetError::NotFound("nope".into())
    );
}

#[test]
fn adding_keeps_a_valid_union_and_a_conflict_changes_nothing() {
    let mut session = session();
    session.apply(created("mig")).unwrap();
    session
        .apply(added("mig", edit("a.py", 3, &[(0, 1, "x")])))
        .unwrap();
    session
        .apply(added("mig", edit("a.py", 3, &[(4, 5, "y")])))
        .unwrap();
    session
        .apply(added("mig", edit("b.py", 7, &[(2, 2, "z")])))
        .unwrap();
    let set = session.changesets.get("mig").unwrap();
    assert_eq!(set.additions, 3);
    assert_eq!((set.created.as_str(), set.updated.as_str()), ("t0", "t1"));
    assert_eq!(
        set.change,
        edit("a.py", 3, &[(0, 1, "x"), (4, 5, "y")])
            .union(edit("b.py", 7, &[(2, 2, "z")]))
            .unwrap()
    );

    // Overlapping edits, another base of one file, an op that does not
    // combine: each refused, the changeset as it was.
    let overlap = refusal(&mut session, added("mig", edit("a.py", 3, &[(0, 2, "w")])));
    assert_eq!(
        overlap.to_string(),
        "the change does not join changeset 'mig': overlapping edits in a.py at chars 0..1 and 0..2"
    );
    let stale = refusal(&mut session, added("mig", edit("a.py", 4, &[(9, 9, "w")])));
    assert!(
        stale
            .to_string()
            .ends_with("a.py is changed twice in incompatible ways (computed against different versions of the file)"),
        "{stale}"
    );
    let mut delete = WorkspaceChange::new();
    delete
        .insert(
            path("b.py"),
            FileChange {
                base: Base::Buffer { version: 7 },
                op: FileOp::Delete,
            },
        )
        .unwrap();
    assert!(matches!(
        refusal(&mut session, added("mig", delete)),
        ChangesetError::Conflict { .. }
    ));
    assert_eq!(session.changesets.get("mig").unwrap().additions, 3);
}

#[test]
fn bases_are_kept_as_computed() {
    let mut session = session();
    session.apply(created("mig")).unwrap();
    session
        .apply(added("mig", edit("a.py", 3, &[(0, 1, "x")])))
        .unwrap();
    // The file moves on meanwhile (a buffer opened and edited): the
    // changeset still says what it was computed against.
    session
        .apply(Event::Opened {
            path: path("a.py"),
            text: "hello".into(),
            disk: None,
        })
        .unwrap();
    let (_, file) = session
        .changesets
        .get("mig")
        .unwrap()
        .change
        .files()
        .next()
        .unwrap();
    assert_eq!(file.base, Base::Buffer { version: 3 });
}

#[test]
fn apply_names_its_step_and_rollback_needs_an_applied_changeset() {
    let mut session = session();
    session.apply(created("mig")).unwrap();
    session.apply(created("other")).unwrap();
    session
        .apply(added("mig", edit("a.py", 3, &[(0, 1, "x")])))
        .unwrap();
    let applied = |set: &str, step| Event::ChangesetApplied {
        name: name(set),
        step,
        at: "t2".into(),
    };
    let rolled_back = |set: &str| Event::ChangesetRolledBack {
        name: name(set),
        at: "t3".into(),
    };
    assert_eq!(
        refusal(&mut session, applied("mig", 1)).to_string(),
        "changeset 'mig' names step 1, which the session does not have"
    );
    assert_eq!(
        refusal(&mut session, rolled_back("mig")).to_string(),
        "changeset 'mig' is not applied: nothing to roll back"
    );
    step(&mut session, 1);
    session.apply(applied("mig", 1)).unwrap();
    assert_eq!(
        session.changesets.get("mig").unwrap().state,
        ChangesetState::Applied { step: 1 }
    );
    assert_eq!(
        refusal(&mut session, applied("other", 1)).to_string(),
        "changeset 'other' names step 1, which already applied changeset 'mig'"
    );
    assert_eq!(
        refusal(&mut session, added("mig", edit("b.py", 1, &[(0, 0, "y")]))).to_string(),
        "changeset 'mig' is applied (step 1): roll it back before changing it"
    );
    step(&mut session, 2);
    assert!(matches!(
        refusal(&mut session, applied("mig", 2)),
        ChangesetError::Applied { step: 1, .. }
    ));

    session.apply(rolled_back("mig")).unwrap();
    let set = session.changesets.get("mig").unwrap();
    assert_eq!(set.state, ChangesetState::RolledBack { step: 1 });
    assert_eq!(set.updated, "t3");
    // Rolled back, it may be added to and applied again, as a new step.
    session
        .apply(added("mig", edit("b.py", 1, &[(0, 0, "y")])))
        .unwrap();
    session.apply(applied("mig", 2)).unwrap();
    assert_eq!(
        session.changesets.get("mig").unwrap().state,
        ChangesetState::Applied { step: 2 }
    );
    assert!(session.check().is_ok());
}

#[test]
fn a_snapshot_whose_changeset_names_a_missing_or_shared_step_fails_the_check() {
    let mut session = session();
    step(&mut session, 1);
    for set in ["a", "b"] {
        session.apply(created(set)).unwrap();
    }
    session
        .apply(Event::ChangesetApplied {
            name: name("a"),
            step: 1,
            at: "t".into(),
        })
        .unwrap();
    let mut json = serde_json::to_value(&session).unwrap();
    json["changesets"]["b"]["state"] = serde_json::json!({"state": "applied", "step": 1});
    let shared: Session = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(
        shared.check().unwrap_err().to_string(),
        "changeset 'b' names step 1, which already applied changeset 'a'"
    );
    json["changesets"]["b"]["state"] = serde_json::json!({"state": "applied", "step": 9});
    let missing: Session = serde_json::from_value(json).unwrap();
    assert_eq!(
        missing.check().unwrap_err().to_string(),
        "changeset 'b' names step 9, which the session does not have"
    );
}
