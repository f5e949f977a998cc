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
