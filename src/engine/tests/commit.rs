//! Engine conversations: writes to disk go through the workspace commit.

use super::*;

#[test]
fn two_sessions_saving_one_file_at_once_never_both_succeed() {
    for attempt in 0..50 {
        let f = Fixture::new();
        f.write("f.py", "x = 0\n");
        for (sender, line) in [("a", "a = 1"), ("b", "b = 2")] {
            f.send(sender, &format!("Start s{sender}; Open f.py"));
            f.send(sender, &format!("Insert Line \"{line}\""));
        }
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
        let won: Vec<usize> = (0..2).filter(|&i| replies[i] == "Ok, Bytes 12").collect();
        assert_eq!(won.len(), 1, "attempt {attempt}: {replies:?}");
        let lost = 1 - won[0];
        assert_eq!(
            replies[lost],
            "Fail \"f.py changed on disk since it was opened; Save Force overwrites it, Diff shows the difference, or Close and Open to take the new text\"",
        );
        let winner_line = ["a = 1", "b = 2"][won[0]];
        assert_eq!(f.read("f.py"), format!("{winner_line}\nx = 0\n"));
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
    let reply = f.send("u", "Save");
    assert!(
        reply.starts_with("Ok, Bytes 12, a.py had been deleted on disk; saved it again"),
        "{reply}"
    );
    assert_eq!(f.read("a.py"), "y = 2\nx = 1\n");
}
