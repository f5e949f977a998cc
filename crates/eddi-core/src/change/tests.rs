use ropey::Rope;

use super::*;
use crate::workspace::Workspace;

fn path(name: &str) -> WorkspacePath {
    let dir = tempfile::tempdir().unwrap();
    Workspace::new(dir.path(), 1 << 20)
        .unwrap()
        .resolve(name)
        .unwrap()
}

fn edits(list: &[(usize, usize, &str)]) -> TextEdits {
    TextEdits::new(list.iter().map(|(a, b, t)| Indel::new(*a..*b, *t))).unwrap()
}

#[test]
fn text_edits_are_sorted_and_refuse_overlaps() {
    let sorted = edits(&[(6, 7, "Z"), (0, 1, "größe"), (3, 3, "+")]);
    let starts: Vec<usize> = sorted.iter().map(|i| i.range.start).collect();
    assert_eq!(starts, [0, 3, 6]);
    assert_eq!(
        TextEdits::new([Indel::new(0..3, "a"), Indel::new(2..4, "b")]),
        Err((0..3, 2..4))
    );
    // Touching ranges and a no-op are fine; the no-op is dropped.
    let touching = edits(&[(0, 2, "x"), (2, 4, "y"), (5, 5, "")]);
    assert_eq!(touching.len(), 2);
    let text = Rope::from_str("hello world\r\n");
    assert_eq!(
        edits(&[(0, 5, "bye"), (11, 11, "!\nnext")])
            .apply(&text)
            .unwrap()
            .to_string(),
        "bye world!\r\nnext\r\n",
        "inserted text takes the file's line ending"
    );
    assert!(
        edits(&[(0, 50, "")]).apply(&text).is_err(),
        "outside the text"
    );
}

#[test]
fn a_union_combines_edits_of_one_base_and_fails_on_conflicts() {
    let (a, b) = (path("a.py"), path("b.py"));
    let base = Base::Buffer { version: 3 };
    let one = WorkspaceChange::edit(a.clone(), base.clone(), edits(&[(0, 1, "x")]));
    let two = WorkspaceChange::edit(a.clone(), base.clone(), edits(&[(4, 5, "y")]));
    let both = one.clone().union(two).unwrap();
    let Some(FileChange {
        op: FileOp::Edit(merged),
        ..
    }) = both.file(&a)
    else {
        panic!("{both:?}")
    };
    assert_eq!(merged.len(), 2);

    let overlapping = WorkspaceChange::edit(a.clone(), base.clone(), edits(&[(0, 2, "z")]));
    assert!(matches!(
        one.clone().union(overlapping),
        Err(ChangeError::Overlap { .. })
    ));
    let stale = WorkspaceChange::edit(
        a.clone(),
        Base::Buffer { version: 4 },
        edits(&[(9, 9, "z")]),
    );
    assert!(matches!(
        one.clone().union(stale),
        Err(ChangeError::Conflict { .. })
    ));
    let mut deleting = WorkspaceChange::new();
    deleting
        .insert(
            a.clone(),
            FileChange {
                base: base.clone(),
                op: FileOp::Delete,
            },
        )
        .unwrap();
    let error = one.clone().union(deleting).unwrap_err();
    assert_eq!(
        error.to_string(),
        "a.py is changed twice in incompatible ways (edited and deleted)"
    );
    let mut moving = WorkspaceChange::new();
    moving
        .insert(
            b.clone(),
            FileChange {
                base: Base::Absent,
                op: FileOp::Move {
                    to: a.clone(),
                    edits: TextEdits::default(),
                },
            },
        )
        .unwrap();
    assert_eq!(one.union(moving), Err(ChangeError::MoveTarget(a.clone())));
}

#[test]
fn lists_every_path_it_touches() {
    let (a, b, c) = (path("a.py"), path("b.py"), path("c.py"));
    let mut change = WorkspaceChange::edit(a.clone(), Base::Absent, TextEdits::default());
    assert!(change.is_empty());
    change
        .insert(
            b.clone(),
            FileChange {
                base: Base::Absent,
                op: FileOp::Move {
                    to: c.clone(),
                    edits: TextEdits::default(),
                },
            },
        )
        .unwrap();
    assert!(!change.is_empty());
    assert_eq!(change.touched(), [&a, &b, &c]);
}

fn persisted(name: &str) -> WorkspacePath {
    WorkspacePath::from_persisted(name.to_owned()).unwrap()
}

/// A change of every kind of file op, base and annotation.
fn every_kind() -> WorkspaceChange {
    let stamp = crate::workspace::DiskStamp {
        len: 6,
        mtime_ns: 17,
        hash: "ab12".into(),
        ino: 9,
    };
    let mut change = WorkspaceChange::edit(
        persisted("pkg/a.py"),
        Base::Buffer { version: 3 },
        edits(&[(4, 5, "y"), (0, 1, "größe\n")]),
    );
    let parts = [
        ("pkg/b.py", Base::Disk(stamp.clone()), FileOp::Delete),
        ("new.py", Base::Absent, FileOp::Create("x = 1\n".into())),
        (
            "old.py",
            Base::Disk(stamp),
            FileOp::Move {
                to: persisted("moved.py"),
                edits: edits(&[(2, 2, "z")]),
            },
        ),
    ];
    for (name, base, op) in parts {
        change
            .insert(persisted(name), FileChange { base, op })
            .unwrap();
    }
    change.annotate(Annotation {
        path: persisted("pkg/a.py"),
        range: 7..9,
        note: "possible reference, left alone".into(),
    });
    change
}

#[test]
fn a_change_survives_serialization_unchanged() {
    let change = every_kind();
    let json = serde_json::to_string(&change).unwrap();
    assert!(
        json.contains(r#""edit":[[0,1,"größe\n"],[4,5,"y"]]"#),
        "edits are compact [start, end, text] triples, sorted: {json}"
    );
    let back: WorkspaceChange = serde_json::from_str(&json).unwrap();
    assert_eq!(back, change);
}

/// Reads `json` as a change and returns why it was refused.
fn refusal(json: &str) -> String {
    serde_json::from_str::<WorkspaceChange>(json)
        .unwrap_err()
        .to_string()
}

#[test]
fn a_persisted_change_is_read_back_only_through_the_checks() {
    let edit = |edits: &str| {
        format!(r#"{{"files":{{"a.py":{{"base":"absent","op":{{"edit":{edits}}}}}}}}}"#)
    };
    // Sorted on the way in, as the constructor sorts them.
    let unsorted: WorkspaceChange =
        serde_json::from_str(&edit(r#"[[4,5,"y"],[0,1,"x"]]"#)).unwrap();
    assert_eq!(
        unsorted,
        WorkspaceChange::edit(
            persisted("a.py"),
            Base::Absent,
            edits(&[(0, 1, "x"), (4, 5, "y")])
        )
    );
    let overlapping = refusal(&edit(r#"[[0,3,"x"],[2,5,"y"]]"#));
    assert!(
        overlapping.contains("overlapping edits at chars 0..3 and 2..5"),
        "{overlapping}"
    );
    let inverted = refusal(&edit(r#"[[5,2,"x"]]"#));
    assert!(inverted.contains("inverted edit range 5..2"), "{inverted}");

    let escaping = refusal(r#"{"files":{"../etc/passwd":{"base":"absent","op":"delete"}}}"#);
    assert!(
        escaping.contains(r#"invalid workspace path "../etc/passwd""#),
        "{escaping}"
    );
    let absolute = refusal(
        r#"{"files":{"a.py":{"base":"absent","op":{"move":{"to":"/tmp/x.py","edits":[]}}}}}"#,
    );
    assert!(
        absolute.contains(r#"invalid workspace path "/tmp/x.py": absolute"#),
        "{absolute}"
    );
    let onto_a_changed_file = refusal(
        r#"{"files":{"a.py":{"base":"absent","op":{"move":{"to":"b.py","edits":[]}}},
                     "b.py":{"base":"absent","op":"delete"}}}"#,
    );
    assert!(
        onto_a_changed_file
            .contains("b.py is the destination of a move and also changed otherwise"),
        "{onto_a_changed_file}"
    );
    let annotation = refusal(
        r#"{"files":{},"annotations":[{"path":"a.py","range":{"start":9,"end":2},"note":"n"}]}"#,
    );
    assert!(
        annotation.contains("annotation of a.py has an inverted range 9..2"),
        "{annotation}"
    );
}

proptest::proptest! {
    /// Reading edits back accepts exactly what the constructor accepts,
    /// and gives what it gives.
    #[test]
    fn persisted_edits_read_back_as_the_constructor_builds_them(
        list in proptest::collection::vec((0usize..20, 0usize..20, "[a-z\n]{0,3}"), 0..6)
    ) {
        let json = serde_json::to_string(&list).unwrap();
        let read = serde_json::from_str::<TextEdits>(&json);
        let built = TextEdits::new(list.into_iter().map(|(a, b, t)| Indel::new(a..b, t)));
        proptest::prop_assert_eq!(read.is_ok(), built.is_ok());
        if let (Ok(read), Ok(built)) = (read, built) {
            let again: TextEdits = serde_json::from_str(&serde_json::to_string(&built).unwrap()).unwrap();
            proptest::prop_assert_eq!(&read, &built);
            proptest::prop_assert_eq!(again, built);
        }
    }
}
