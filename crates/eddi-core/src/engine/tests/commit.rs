//! Engine conversations: writes to disk go through the workspace commit.

use super::*;

#[test]
fn two_sessions_saving_one_file_at_once_never_both_succeed() {
    for attempt in 0..50 {
        let f = Fixture::new();
        f.write("f.py", "x = 0\n");
        // Each session's edits stand in the way of the other's save (the
        // same line): neither may save over them; `Save Force` races.
        for (sender, line) in [("a", "a = 1"), ("b", "b = 2")] {
            f.send(sender, &format!("Start s{sender}; Open f.py"));
            f.send(sender, &format!("Insert Line \"{line}\""));
        }
        if attempt == 0 {
            assert_eq!(
                f.send("a", "Save"),
                "Fail \"The save changes lines other sessions have unsaved edits on: f.py line 1 (session sb); nothing was written. They save or close them first (edits on other lines do not stand in the way: they are carried over); Save Force writes over them\""
            );
        }
        // The disk check under the file's lock is what is raced: each
        // session's buffer expects the file as it opened it.
        for sender in ["a", "b"] {
            f.send(sender, "Close; Open f.py; Goto 0:0");
        }
        f.send("a", "Insert Line \"a = 1\"");
        f.send("b", "Goto 1:0; Insert Line \"b = 2\"");
        let barrier = std::sync::Barrier::new(2);
        let replies: Vec<String> = std::thread::scope(|scope| {
            let handles: Vec<_> = ["a", "b"]
                .into_iter()
                .map(|sender| {
                    let (f, barrier) = (&f, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        f.send(sender, "Save")
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let won: Vec<usize> = (0..2)
            .filter(|&i| replies[i].starts_with("Ok, Bytes"))
            .collect();
        if won.len() == 2 {
            // One ran after the other: the first's write was carried into
            // the second's buffer (other lines), which saved both.
            assert_eq!(f.read("f.py"), "a = 1\nx = 0\nb = 2\n", "{replies:?}");
            continue;
        }
        assert_eq!(won.len(), 1, "attempt {attempt}: {replies:?}");
        let lost = 1 - won[0];
        // The loser may also have seen the winner's write before its own
        // Save ran, and then is told so in a notice as well.
        assert!(
            replies[lost].starts_with("Fail \"f.py changed on disk since it was opened; Save Force overwrites it, Diff shows the difference, or Close and Open to take the new text"),
            "{}",
            replies[lost]
        );
        let winner_text = ["a = 1\nx = 0\n", "x = 0\nb = 2\n"][won[0]];
        assert_eq!(f.read("f.py"), winner_text);
    }
}

#[test]
fn a_file_opened_through_a_symlink_is_saved_through_it() {
    let f = Fixture::new();
    f.write("real.py", "x = 1\n");
    std::os::unix::fs::symlink("real.py", f.dir.path().join("alias.py")).unwrap();
    f.check(
        "u",
        r#"
        > Start s
        Ok
        > Open alias.py
        Ok, At 0:0, Length 1, Opened as real.py (alias.py links to it)
        > Insert Line "y = 2"
        Ok, Inserted 1 line at 0, At 1:0
        > Open real.py
        Ok, At 1:0, Length 2
        > List Open
        Ok: real.py (modified)
        > Save alias.py
        Ok, Bytes 12
        "#,
    );
    let link = f.dir.path().join("alias.py");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(f.read("real.py"), "y = 2\nx = 1\n");
}

#[test]
fn the_state_directory_is_not_part_of_the_project() {
    let f = Fixture::new();
    f.check(
        "u",
        r#"
        > Start s
        Ok
        > Open .eddi/.gitignore
        Fail "Path is inside Eddi's state directory, which is not part of the project: .eddi/.gitignore"
        > Open Create .eddi/sessions/x.py
        Fail "Path is inside Eddi's state directory, which is not part of the project: .eddi/sessions/x.py"
        "#,
    );
}

#[test]
fn saving_a_file_deleted_on_disk_writes_it_again() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.send("u", "Start s; Open a.py; Insert Line \"y = 2\"");
    std::fs::remove_file(f.dir.path().join("a.py")).unwrap();
    assert_eq!(
        f.send("u", "Save"),
        "Ok, Bytes 12, Notice: a.py was deleted on disk; Save writes it again, Close drops it"
    );
    assert_eq!(f.read("a.py"), "y = 2\nx = 1\n");
}

mod steps {
    use super::*;
    use crate::change::{Base, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};

    /// A change of `a.py` and `b.py` computed against their disk state:
    /// `x` becomes `renamed` in both.
    fn rename_in_both(f: &Fixture) -> WorkspaceChange {
        let ws = f.engine.workspace();
        let mut change = WorkspaceChange::new();
        for name in ["a.py", "b.py"] {
            let path = ws.resolve(name).unwrap();
            let stamp = ws.stamp(&path).unwrap().unwrap();
            let text = f.read(name);
            let at = text.find('x').unwrap();
            let edits = TextEdits::new([Indel::new(at..at + 1, "renamed")]).unwrap();
            change
                .insert(
                    path,
                    FileChange {
                        base: Base::Disk(stamp),
                        op: FileOp::Edit(edits),
                    },
                )
                .unwrap();
        }
        change
    }

    fn two_files() -> Fixture {
        let f = Fixture::new();
        f.write("a.py", "x = 1\n");
        f.write("b.py", "from a import x\nprint(x)\n");
        f.send("u", "Start s; Open a.py");
        f
    }

    #[test]
    fn a_committed_change_of_two_files_undoes_and_redoes_on_disk_as_one_step() {
        let f = two_files();
        let applied = f
            .engine
            .apply_change("u", &rename_in_both(&f), ApplyMode::Commit)
            .unwrap();
        assert_eq!(applied.files.len(), 2);
        assert_eq!(applied.opened.len(), 1, "b.py was opened to apply it");
        assert_eq!(f.read("a.py"), "renamed = 1\n");
        assert_eq!(f.read("b.py"), "from a import renamed\nprint(x)\n");
        f.check(
            "u",
            r##"
            > Status
            Ok: Session s, File a.py, At 0:0, 2 files open
            > Undo
            Ok, Undid 1, At 0:0, Also in b.py
            "##,
        );
        assert_eq!(f.read("a.py"), "x = 1\n");
        assert_eq!(f.read("b.py"), "from a import x\nprint(x)\n");
        assert_eq!(f.send("u", "Redo"), "Ok, Redid 1, At 0:0, Also in b.py");
        assert_eq!(f.read("b.py"), "from a import renamed\nprint(x)\n");
        // The step survives a restart, and its undo still spans both files.
        let f = f.restart();
        assert_eq!(
            f.send("u", "Undo; List Open"),
            "Ok, Undid 1, At 0:0, Also in b.py\nOk: a.py, b.py"
        );
        assert_eq!(f.read("a.py"), "x = 1\n");
        assert_eq!(f.read("b.py"), "from a import x\nprint(x)\n");
    }

    #[test]
    fn undo_of_a_committed_step_refuses_when_a_file_changed_on_disk_since() {
        let f = two_files();
        f.engine
            .apply_change("u", &rename_in_both(&f), ApplyMode::Commit)
            .unwrap();
        f.write("b.py", "# someone else\n");
        assert_eq!(
            f.send("u", "Undo"),
            "Fail \"Cannot undo the step that changed a.py, b.py: b.py changed on disk since the step wrote it\", Notice: b.py changed on disk; reloaded (you had no unsaved edits)"
        );
        assert_eq!(f.read("a.py"), "renamed = 1\n", "nothing was reverted");
        assert_eq!(f.read("b.py"), "# someone else\n");
    }

    #[test]
    fn a_stale_change_fails_whole_and_names_the_files() {
        let f = two_files();
        let change = rename_in_both(&f);
        f.write("b.py", "from a import x  # edited\nprint(x)\n");
        let error = f
            .engine
            .apply_change("u", &change, ApplyMode::Commit)
            .unwrap_err();
        assert_eq!(
            error.message,
            "The change does not apply, nothing was changed: b.py changed on disk since the change was computed"
        );
        assert_eq!(f.read("a.py"), "x = 1\n");
        assert_eq!(f.send("u", "List Open"), "Ok: a.py");
    }

    #[test]
    fn a_change_in_the_buffers_only_undoes_in_every_buffer_and_leaves_the_disk() {
        let f = two_files();
        f.engine
            .apply_change("u", &rename_in_both(&f), ApplyMode::Buffers)
            .unwrap();
        assert_eq!(f.read("a.py"), "x = 1\n", "not written");
        f.check(
            "u",
            r##"
            > List Open
            Ok: a.py (modified), b.py (modified)
            > Insert Line "# mine"
            Ok, Inserted 1 line at 0, At 1:0
            > Undo 2
            Ok, Undid 2, At 0:0, Also in b.py
            > List Open
            Ok: a.py, b.py
            > Undo
            Fail "Nothing to undo in a.py"
            "##,
        );
    }

    #[test]
    fn a_step_with_later_edits_in_one_file_refuses_to_undo_and_says_where() {
        let f = two_files();
        f.engine
            .apply_change("u", &rename_in_both(&f), ApplyMode::Buffers)
            .unwrap();
        f.check(
            "u",
            r##"
            > Open b.py
            Ok, At 0:0, Length 2
            > Insert Line "# later"
            Ok, Inserted 1 line at 0, At 1:0
            > Open a.py
            Ok, At 0:0, Length 1
            > Undo
            Fail "Cannot undo the step that changed a.py, b.py: b.py has later edits (undo those first)"
            "##,
        );
    }

    #[test]
    fn save_all_writes_every_modified_file_or_none() {
        let f = two_files();
        f.check(
            "u",
            r##"
            > Insert Line "# a"
            Ok, Inserted 1 line at 0, At 1:0
            > Open b.py
            Ok, At 0:0, Length 2
            > Insert Line "# b"
            Ok, Inserted 1 line at 0, At 1:0
            "##,
        );
        f.write("a.py", "x = 'theirs'\n");
        let reply = f.send("u", "Save All");
        assert!(
            reply.starts_with(
                "Fail \"Conflict: a.py changed on disk since it was read; nothing was written."
            ),
            "{reply}"
        );
        assert_eq!(
            f.read("b.py"),
            "from a import x\nprint(x)\n",
            "none written"
        );
        assert_eq!(
            f.send("u", "Save All Force"),
            "Ok, Saved 2 files: a.py, b.py, Bytes 39"
        );
        assert_eq!(f.read("a.py"), "# a\nx = 1\n");
        assert_eq!(f.read("b.py"), "# b\nfrom a import x\nprint(x)\n");
        assert_eq!(
            f.send("u", "Save All"),
            "Fail \"No changes to save in any open file\""
        );
    }

    #[test]
    fn another_sessions_buffer_follows_a_commit_with_its_cursor_and_bookmarks() {
        let f = two_files();
        f.send("v", "Start t; Open b.py; Goto 1:3; Bookmark here");
        f.engine
            .apply_change(
                "u",
                &{
                    let ws = f.engine.workspace();
                    let path = ws.resolve("b.py").unwrap();
                    let stamp = ws.stamp(&path).unwrap().unwrap();
                    let edits = TextEdits::new([Indel::new(0..0, "import os\n")]).unwrap();
                    WorkspaceChange::edit(path, Base::Disk(stamp), edits)
                },
                ApplyMode::Commit,
            )
            .unwrap();
        f.check(
            "v",
            r##"
            > Status
            Ok: Session t, File b.py, At 2:3, Notice: b.py changed on disk; reloaded (you had no unsaved edits)
            > Goto here
            Ok, At 2:3
            "##,
        );
    }
}
