//! Undo, sessions and other agents: committed steps undone from the disk
//! whether their files are open or not; every write meeting other
//! sessions' unsaved edits the same way (carried over, refused on an
//! overlap); idle sessions releasing their buffers as drafts; operators
//! listing and ending sessions.

use super::*;

/// `a.py` defines `helper`, `b.py` calls it (line 2, zero-based).
fn helper_project(f: &Fixture) {
    f.write("a.py", "def helper():\n    return 1\n");
    f.write("b.py", "from a import helper\n\nhelper()\n\nz = 0\n");
}

const RENAMED_A: &str = "def assist():\n    return 1\n";
const RENAMED_B: &str = "from a import assist\n\nassist()\n\nz = 0\n";

#[test]
fn a_refactor_undoes_from_the_disk_after_its_files_were_closed() {
    let f = Fixture::new();
    helper_project(&f);
    f.write("c.py", "c = 1\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open c.py
        Ok, At 0:0, Length 1
        > Refactor RenameSymbol a.helper assist
        Ok, Renamed in 2 files (a.py, b.py), 3 references updated
        > Close a.py
        Ok
        > Close b.py
        Ok
        > Undo
        Ok, Undid 1, At 0:0, Also in a.py, b.py
        "#,
    );
    assert_eq!(f.read("a.py"), "def helper():\n    return 1\n");
    assert_eq!(
        f.read("b.py"),
        "from a import helper\n\nhelper()\n\nz = 0\n"
    );
    // Reopened: no false "changed on disk"; the redo works from the disk too.
    f.check(
        "a",
        r#"
        > Open a.py
        Ok, At 0:0, Length 2
        > Redo
        Ok, Redid 1, At 1:0, Also in b.py
        > Close c.py
        Ok
        "#,
    );
    assert_eq!(f.read("a.py"), RENAMED_A);
    assert_eq!(f.read("b.py"), RENAMED_B);
    // With every file closed, `Undo` still takes the step back.
    f.check(
        "a",
        r#"
        > Close a.py
        Ok
        > Undo
        Ok, Undid 1, Also in a.py, b.py
        "#,
    );
    assert_eq!(f.read("a.py"), "def helper():\n    return 1\n");
}

#[test]
fn a_closed_step_whose_file_moved_on_is_refused_naming_it() {
    let f = Fixture::new();
    helper_project(&f);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol a.helper assist
        Ok, Renamed in 2 files (a.py, b.py), 3 references updated
        > Close a.py
        Ok
        > Close b.py
        Ok
        "#,
    );
    f.write("b.py", "# someone else\n");
    f.check(
        "a",
        r#"
        > Undo
        Fail "Cannot undo the step that changed a.py, b.py: b.py changed on disk since the step wrote it"
        "#,
    );
    assert_eq!(f.read("a.py"), RENAMED_A, "nothing was reverted");
}

#[test]
fn the_undo_tool_takes_back_a_step_whose_file_was_closed() {
    let f = Fixture::new();
    helper_project(&f);
    f.send(
        "a",
        "Start s; Refactor RenameSymbol a.helper assist; Close a.py; Close b.py",
    );
    let undone = f.engine.undo_step("a", Some("b.py")).unwrap();
    assert_eq!(undone.files, vec!["a.py", "b.py"]);
    assert_eq!(
        f.read("b.py"),
        "from a import helper\n\nhelper()\n\nz = 0\n"
    );
    assert_eq!(f.read("a.py"), "def helper():\n    return 1\n");
}

#[test]
fn a_refactor_carries_over_other_sessions_edits_on_other_lines() {
    let f = Fixture::new();
    helper_project(&f);
    // 15 sessions that keep unsaved edits of b.py on a line the rename
    // does not touch: none of them stands in its way.
    for n in 0..15 {
        let reply = f.send(
            &format!("idle{n}"),
            &format!("Start t{n}; Open b.py; Goto 4:0; Insert Line \"w{n} = {n}\""),
        );
        assert!(
            reply.ends_with("Ok, Inserted 1 line at 4, At 5:0"),
            "{reply}"
        );
    }
    let f = f.restart();
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol a.helper assist
        Ok, Renamed in 2 files (a.py, b.py), 3 references updated
        "#,
    );
    assert_eq!(f.read("b.py"), RENAMED_B);
    // Each is told with its next reply; its buffer has both.
    f.check(
        "idle3",
        r#"
        > Show Line 2
        Ok: At 2:0, Notice: b.py was written by session s (from line 1) under your unsaved edits: its change is in your buffer now, your edits kept on top of it (one undo step; Save writes both), Txt assist()
        > Show Line 4
        Ok: At 4:0, Txt w3 = 3
        "#,
    );
    // The carry is in each session's journal: it survives a restart, and
    // the buffer's own edits undo as one step, back to the disk text.
    let f = f.restart();
    f.check(
        "idle4",
        r#"
        > Status
        Ok: Session t4, File b.py, At 5:0, Modified, Notice: b.py was written by session s (from line 1) under your unsaved edits: its change is in your buffer now, your edits kept on top of it (one undo step; Save writes both)
        > Show Line 4
        Ok: At 4:0, Txt w4 = 4
        > Undo
        Ok, Undid 1, At 4:0
        > Status
        Ok: Session t4, File b.py, At 4:0
        "#,
    );
}

#[test]
fn the_undo_of_a_refactor_meets_other_sessions_edits_as_the_refactor_did() {
    let f = Fixture::new();
    helper_project(&f);
    f.send("a", "Start s; Refactor RenameSymbol a.helper assist");
    // Another session edits b.py on top of the refactor: another line.
    f.check(
        "b",
        r#"
        > Start t
        Ok
        > Open b.py
        Ok, At 0:0, Length 5
        > Goto 4:0
        Ok, At 4:0
        > Insert Line "w = 1"
        Ok, Inserted 1 line at 4, At 5:0
        "#,
    );
    f.check(
        "a",
        r#"
        > Undo
        Ok, Undid 1, At 0:0, Also in a.py
        "#,
    );
    assert_eq!(
        f.read("b.py"),
        "from a import helper\n\nhelper()\n\nz = 0\n"
    );
    assert_eq!(
        f.send("b", "Save"),
        "Ok, Bytes 44, Notice: b.py was written by session s (from line 1) under your unsaved edits: its change is in your buffer now, your edits kept on top of it (one undo step; Save writes both)"
    );
    assert_eq!(
        f.read("b.py"),
        "from a import helper\n\nhelper()\n\nw = 1\nz = 0\n"
    );
    // On the refactored line itself, the undo is refused, naming it.
    assert_eq!(
        f.send("a", "Refactor RenameSymbol a.helper assist"),
        "Ok, Renamed in 2 files (a.py, b.py), 3 references updated, Notice: b.py changed on disk; reloaded (you had no unsaved edits)"
    );
    let edited = f.send("b", "Goto 2:8; Insert Block \"  # mine\"");
    assert!(edited.ends_with("At 2:16"), "{edited}");
    assert_eq!(
        f.send("a", "Undo"),
        "Fail \"The undo changes lines other sessions have unsaved edits on: b.py line 3 (session t); nothing was written. They save or close them first (edits on other lines do not stand in the way: they are carried over)\""
    );
    assert_eq!(f.read("a.py"), RENAMED_A, "nothing was undone");
}

#[test]
fn idle_sessions_release_their_buffers_as_drafts() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.idle_release = std::time::Duration::from_millis(400);
    let f = Fixture {
        engine: Engine::open(config).unwrap(),
        dir,
    };
    helper_project(&f);
    // On the very line the rename changes: it is in the way while active.
    f.send("b", "Start t; Open b.py; Goto 2:8; Insert Block \"  # t\"");
    f.send("a", "Start s");
    let refused = f.send("a", "Refactor RenameSymbol a.helper assist");
    assert!(refused.contains("b.py line 3 (session t)"), "{refused}");
    std::thread::sleep(std::time::Duration::from_millis(600));
    f.check(
        "a",
        r#"
        > Refactor RenameSymbol a.helper assist
        Ok, Renamed in 2 files (a.py, b.py), 3 references updated
        "#,
    );
    let draft = f.dir.path().join(".eddi/drafts/t/b.py");
    assert_eq!(
        std::fs::read_to_string(&draft).unwrap(),
        "from a import helper\n\nhelper()  # t\n\nz = 0\n"
    );
    let told = f.send("b", "List Open");
    assert!(
        told.starts_with("Ok: No open files, Notice: This session was idle for 0 minutes: its unsaved edits in b.py were released so that others may write it; they are kept as .eddi/drafts/t/b.py (Recover b.py takes it back as your unsaved buffer, List Drafts lists them)"),
        "{told}"
    );
}

#[test]
fn operators_list_sessions_and_end_another_senders() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.permissions = Permissions {
        operators: ["ops".to_string()].into(),
        ..Default::default()
    };
    let f = Fixture {
        engine: Engine::open(config).unwrap(),
        dir,
    };
    helper_project(&f);
    f.send("b", "Start t; Open b.py; Insert Line \"x = 1\"");
    f.send("c", "Start u");
    f.check(
        "b",
        r#"
        > List Sessions
        Fail "Permission denied: b is not an operator; List Sessions is for operators (permissions.operators)"
        > End u Force
        Fail "Permission denied: b is not an operator; End Force is for operators (permissions.operators)"
        > End u
        Fail "Session 'u' belongs to another sender; End u Force ends it (operators only). Your session is t"
        "#,
    );
    f.check(
        "ops",
        r#"
        > List Sessions
        Ok: 2 sessions: t (sender b, idle 0 s, unsaved: b.py); u (sender c, idle 0 s, no unsaved edits)
        > End t Force
        Ok, Session t ended (sender b), Unsaved edits kept as drafts: .eddi/drafts/t/b.py (List Drafts From t lists them, Recover <file> From t takes one back)
        > List Sessions
        Ok: 1 session: u (sender c, idle 0 s, no unsaved edits)
        "#,
    );
    assert_eq!(
        std::fs::read_to_string(f.dir.path().join(".eddi/drafts/t/b.py")).unwrap(),
        "x = 1\nfrom a import helper\n\nhelper()\n\nz = 0\n"
    );
    assert_eq!(
        f.send("b", "Status"),
        "Fail \"No session. Start one with: Start <name>\""
    );
    // The ended session no longer stands in anyone's way.
    let saved = f.send("c", "Open b.py; Insert Line \"y = 2\"; Save");
    assert!(saved.ends_with("Ok, Bytes 44"), "{saved}");
}

#[test]
fn save_all_says_which_saved_files_do_not_parse_as_save_does() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.write("b.py", "y = 2\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open a.py
        Ok, At 0:0, Length 1
        > Insert Line "def f("
        Ok, Inserted 1 line at 0, Now invalid Python (1 syntax error): 0:5 unclosed '(', At 1:0
        > Open b.py
        Ok, At 0:0, Length 1
        > Insert Line "z = 3"
        Ok, Inserted 1 line at 0, At 1:0
        > Save All
        Ok, Saved 2 files: a.py, b.py, Bytes 25, a.py: 1 syntax error at 0:5
        "#,
    );
}
