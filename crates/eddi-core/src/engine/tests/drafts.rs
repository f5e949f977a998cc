//! Drafts taken back: `List Drafts` and `Recover` after an idle session
//! released its unsaved buffers or an operator ended it.

use super::*;
use serde_json::json;

/// `a.py` defines `helper`, `b.py` calls it (line 2, zero-based).
fn helper_project(f: &Fixture) {
    f.write("a.py", "def helper():\n    return 1\n");
    f.write("b.py", "from a import helper\n\nhelper()\n\nz = 0\n");
}

/// A fixture whose engine has this configuration.
fn with_config(change: impl FnOnce(&mut EngineConfig)) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(dir.path());
    change(&mut config);
    Fixture {
        engine: Engine::open(config).unwrap(),
        dir,
    }
}

/// The reply with every RFC 3339 time as `<time>`.
fn timeless(reply: &str) -> String {
    let time = regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ").unwrap();
    time.replace_all(reply, "<time>").into_owned()
}

const DRAFT_B: &str = "from a import helper\n\nhelper()  # t\n\nz = 0\n";
const RENAMED_B: &str = "from a import assist\n\nassist()\n\nz = 0\n";

#[test]
fn an_idle_sessions_draft_comes_back_as_an_unsaved_buffer_saying_the_file_moved_on() {
    let f = with_config(|config| config.idle_release = std::time::Duration::from_millis(400));
    helper_project(&f);
    f.send("b", "Start t; Open b.py; Goto 2:8; Insert Block \"  # t\"");
    f.send("a", "Start s");
    std::thread::sleep(std::time::Duration::from_millis(600));
    // The rename releases t's buffer and rewrites b.py under the draft.
    let renamed = f.send("a", "Refactor RenameSymbol a.helper assist");
    assert!(renamed.starts_with("Ok, Renamed in 2 files"), "{renamed}");
    assert_eq!(f.read("b.py"), RENAMED_B);

    let listed = timeless(&f.send("b", "List Drafts"));
    assert!(
        listed.starts_with(
            "Ok: 1 draft of session t: b.py (kept <time>, 5 lines, 43 bytes, changed on disk since), Notice: This session was idle for 0 minutes: its unsaved edits in b.py were released so that others may write it; they are kept as .eddi/drafts/t/b.py (Recover b.py takes it back as your unsaved buffer, List Drafts lists them)"
        ),
        "{listed}"
    );
    assert_eq!(
        timeless(&f.send("b", "Recover b.py")),
        "Ok, Recovered b.py from the draft kept <time> (+2 -2 lines), At 0:0, Length 5, Notice: b.py changed on disk since the draft was kept: your buffer is the draft's whole text over the file as it is now, so it also takes back what changed on disk since; review it with Diff before Save (Undo drops it)"
    );
    // Nothing was written; the buffer holds the draft, one undo step over
    // the disk's text; the draft is gone.
    assert_eq!(f.read("b.py"), RENAMED_B);
    assert!(!f.dir.path().join(".eddi/drafts/t/b.py").exists());
    assert!(!f.dir.path().join(".eddi/draft-records/t.json").exists());
    let shown = f.send("b", "Status; Show Block 0:4");
    assert_eq!(
        shown,
        "Ok: Session t, File b.py, At 0:0, Modified\nOk: At 0:0, Txt from a import helper\\n\\nhelper()  # t\\n\\nz = 0"
    );
    f.check(
        "b",
        r#"
        > List Drafts
        Ok: No drafts of session t
        > Recover b.py
        Fail "No draft of b.py in session t: it has no drafts"
        > Undo; Status
        Ok, Undid 1, At 0:0
        Ok: Session t, File b.py, At 0:0
        "#,
    );
}

#[test]
fn an_ended_sessions_drafts_belong_to_its_name_and_operators_may_name_it() {
    let f = with_config(|config| {
        config.permissions = Permissions {
            operators: ["ops".to_string()].into(),
            ..Default::default()
        }
    });
    helper_project(&f);
    f.send(
        "b",
        "Start t; Open b.py; Goto 2:8; Insert Block \"  # t\"; Open a.py; Insert Line \"# a\"",
    );
    let ended = f.send("ops", "End t Force");
    assert_eq!(
        ended,
        "Ok, Session t ended (sender b), Unsaved edits kept as drafts: .eddi/drafts/t/a.py, .eddi/drafts/t/b.py (List Drafts From t lists them, Recover <file> From t takes one back)"
    );
    f.check(
        "b",
        r##"
        > List Drafts
        Fail "No session, so no drafts of yours: Start the session whose drafts to list (Start <name>), or name it: List Drafts From <session> (operators)"
        > List Drafts From t
        Fail "Permission denied: b is not an operator; List Drafts From is for operators (permissions.operators)"
        > Start t; Recover c.py
        Ok
        Fail "No draft of c.py in session t; drafts: a.py, b.py"
        > Open b.py; Insert Line "# mine"; Recover b.py
        Ok, At 0:0, Length 5
        Ok, Inserted 1 line at 0, At 1:0
        Fail "b.py has unsaved edits in this session: Save or Close it first; the draft is kept"
        > Undo
        Ok, Undid 1, At 0:0
        > Recover a.py From t
        Fail "Permission denied: b is not an operator; Recover From is for operators (permissions.operators)"
        "##,
    );
    assert_eq!(
        timeless(&f.send("b", "List Drafts")),
        "Ok: 2 drafts of session t: a.py (kept <time>, 3 lines, 31 bytes, unchanged on disk); b.py (kept <time>, 5 lines, 43 bytes, unchanged on disk)"
    );
    // The file did not move on: no notice.
    assert_eq!(
        timeless(&f.send("b", "Recover b.py")),
        "Ok, Recovered b.py from the draft kept <time> (+1 -1 lines), At 2:0, Length 5"
    );
    assert_eq!(
        timeless(&f.send("ops", "Start o; Recover a.py From t")),
        "Ok\nOk, Recovered a.py from the draft of session t kept <time> (+1 -0 lines), At 0:0, Length 3"
    );
    assert_eq!(
        f.send("ops", "List Drafts From t"),
        "Ok: No drafts of session t"
    );
    // Recovered buffers are session state like any other: they survive a
    // restart, and Save writes them.
    let f = f.restart();
    assert_eq!(f.send("b", "Save b.py"), "Ok, Bytes 43");
    assert_eq!(f.read("b.py"), DRAFT_B);
    assert_eq!(f.send("ops", "Save a.py"), "Ok, Bytes 31");
    assert_eq!(f.read("a.py"), "# a\ndef helper():\n    return 1\n");
}

#[test]
fn a_draft_kept_before_records_existed_is_recovered_saying_its_disk_is_unknown() {
    let f = Fixture::new();
    f.write("pkg/m.py", "x = 1\n");
    f.write(".eddi/drafts/t/pkg/m.py", "x = 2\n");
    assert_eq!(
        timeless(&f.send("a", "Start t; List Drafts")),
        "Ok\nOk: 1 draft of session t: pkg/m.py (kept <time>, 1 line, 6 bytes, disk unknown: kept before Eddi recorded it)"
    );
    assert_eq!(
        timeless(&f.send("a", "Recover pkg/m.py")),
        "Ok, Recovered pkg/m.py from the draft kept <time> (+1 -1 lines), At 0:0, Length 1, Notice: the draft of pkg/m.py was kept before Eddi recorded what it was made on, so whether the file changed on disk since is unknown; review it with Diff before Save (Undo drops it)"
    );
    assert!(!f.dir.path().join(".eddi/drafts/t").exists(), "emptied");
    assert_eq!(
        f.send("a", "Recover ../x.py"),
        "Fail \"Path escapes the workspace: ../x.py\""
    );
}

#[test]
fn json_replies_of_drafts_fit_the_schema() {
    let f = with_config(|config| config.idle_release = std::time::Duration::from_millis(200));
    helper_project(&f);
    f.send(
        "b",
        "Start t; Set Format json; Open b.py; Insert Line \"# t\"",
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Another sender's turn releases t's buffer.
    f.send("a", "Start s");
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../protocol/schemas/reply.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let mut replies = Vec::new();
    for command in ["List Drafts", "Recover b.py", "List Drafts"] {
        let reply: serde_json::Value = serde_json::from_str(&f.send("b", command)).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&reply)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{command}: {reply}: {errors:?}");
        replies.push(reply);
    }
    let draft = &replies[0]["drafts"][0];
    assert_eq!(
        (
            &draft["path"],
            &draft["lines"],
            &draft["bytes"],
            &draft["disk"]
        ),
        (&json!("b.py"), &json!(6), &json!(42), &json!("unchanged")),
        "{}",
        replies[0]
    );
    let recovered = &replies[1]["recovered"];
    assert_eq!(
        (
            &recovered["session"],
            &recovered["added"],
            &recovered["deleted"]
        ),
        (&json!("t"), &json!(1), &json!(0)),
        "{}",
        replies[1]
    );
    assert_eq!(replies[2]["drafts"], json!([]));
}

#[test]
fn a_draft_of_a_deleted_file_comes_back_as_a_new_file_and_one_equal_to_the_file_is_just_removed() {
    let f = Fixture::new();
    f.write("same.py", "x = 1\n");
    f.write(".eddi/drafts/t/same.py", "x = 1\n");
    f.write(".eddi/drafts/t/gone.py", "y = 2\n");
    f.write(
        ".eddi/draft-records/t.json",
        r#"{"gone.py": {"kept": "2026-01-02T03:04:05Z", "base": "0123"}}"#,
    );
    assert_eq!(
        timeless(&f.send("a", "Start t; List Drafts")),
        "Ok\nOk: 2 drafts of session t: gone.py (kept <time>, 1 line, 6 bytes, deleted on disk since); same.py (kept <time>, 1 line, 6 bytes, disk unknown: kept before Eddi recorded it)"
    );
    let recovered = timeless(&f.send("a", "Recover same.py; Recover gone.py; Save"));
    assert_eq!(
        recovered,
        "Ok, The draft of same.py kept <time> is the file's text: nothing to recover, At 0:0, Length 1\n\
         Ok, Recovered gone.py from the draft kept <time> (+1 -0 lines), At 0:0, Length 1, Notice: gone.py was deleted on disk since the draft was kept: your buffer is a new file with the draft's text; Save creates it again\n\
         Ok, Bytes 6"
    );
    assert_eq!(f.read("gone.py"), "y = 2\n");
    assert_eq!(f.send("a", "List Drafts"), "Ok: No drafts of session t");
}
