//! The change spine's seams: one session lock per turn, typed failures,
//! a proposed change laid over the index.

use super::*;

impl Fixture {
    /// How often the sender's session has been locked so far.
    fn locks_of(&self, sender: &str) -> u64 {
        let live = self.engine.live_of(sender).expect("a session");
        let locked = live.lock().locked;
        locked
    }
}

/// A message locks its session once, however many of its commands use
/// the session and the project index (which takes the held session, never
/// locks it again — a second lock would deadlock on the held one).
#[test]
fn a_message_locks_its_session_once() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write(
        "pkg/core.py",
        "def helper(x):\n    return x\n\n\ndef other():\n    return helper(1)\n",
    );
    f.write("pkg/use.py", "from pkg.core import helper\n\nhelper(2)\n");
    f.send("a", "Start s; Open pkg/core.py");
    let messages = [
        // the index queries, with an unsaved buffer laid over the index
        "Goto 0:0; Insert Line \"# top\"; Find References pkg.core.helper; Find Callers pkg.core.helper; Find Definition helper",
        // an edit of a definition asks the index what it leaves elsewhere
        "Modify Function helper Rename helper2",
        "Delete Function other",
        // a code target not found here asks the index where it is defined
        "Goto Function pkg.use.nothing",
        // the index's side of a file's dependencies
        "Analyze File Dependencies",
        // rendering in the preferences set by the same message
        "Set Format json; Status; Set Format terse",
        "Undo; Undo; Undo; Save",
    ];
    for message in messages {
        let before = f.locks_of("a");
        let reply = f.engine.execute(&Request {
            sender: "a",
            text: message,
            id: Some(message),
        });
        assert!(!reply.text.is_empty());
        assert_eq!(
            f.locks_of("a") - before,
            1,
            "locks of: {message}\n{}",
            reply.text
        );
    }
    // a retried message id is answered from the same single lock
    let before = f.locks_of("a");
    let again = f.engine.execute(&Request {
        sender: "a",
        text: messages[1],
        id: Some(messages[1]),
    });
    assert!(again.duplicate);
    assert_eq!(f.locks_of("a") - before, 1);
}

/// `End` ends the session the turn holds; `Start` in the same message
/// holds the new one; `Summary` of another session reads it with the own
/// one unlocked (two senders summarising each other never deadlock).
#[test]
fn start_end_and_summary_of_another_session_within_one_message() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Start s1; Open Create a.txt; Insert Line "x"; End; Start s2; Status
        Ok
        Ok, At 0:0, Length 0
        Ok, Inserted 1 line at 0, At 1:0
        Ok, Session saved, Unsaved changes discarded: a.txt
        Ok
        Ok: Session s2, No file
        "#,
    );
    f.send("b", "Start t");
    let threads: Vec<_> = (0..2)
        .map(|i| {
            let engine = &f.engine;
            let (me, other) = if i == 0 { ("a", "t") } else { ("b", "s2") };
            (me, other, engine)
        })
        .collect();
    std::thread::scope(|scope| {
        for (me, other, engine) in threads {
            scope.spawn(move || {
                for _ in 0..200 {
                    let text = format!("Summary {other}; Status");
                    let reply = engine.execute(&Request {
                        sender: me,
                        text: &text,
                        id: None,
                    });
                    assert!(reply.ok, "{}", reply.text);
                }
            });
        }
    });
}

pub(super) fn reply_schema() -> jsonschema::Validator {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../protocol/schemas/reply.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::options().build(&schema).unwrap()
}

/// Sends `command` and returns its one JSON reply, checked against the schema.
pub(super) fn json_reply(
    f: &Fixture,
    validator: &jsonschema::Validator,
    command: &str,
) -> serde_json::Value {
    let text = f.send("u", command);
    let reply: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{command}: not JSON: {text} ({e})"));
    let errors: Vec<String> = validator
        .iter_errors(&reply)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{command}: {reply}: {errors:?}");
    reply
}

/// Every `Fail` has a typed `failure` in JSON: parse errors with the
/// closest valid words, ranges, sessions, files, searches — and the ones
/// no precise kind covers yet say `failed`.
#[test]
fn every_failure_is_typed_in_json() {
    let f = Fixture::new();
    f.write("a.py", "def f():\n    return 1\n");
    f.write("b.txt", "one\ntwo\n");
    f.send("u", "Start s; Set Format json; Open a.py");
    let schema = reply_schema();
    let failure = |command: &str| {
        let reply = json_reply(&f, &schema, command);
        assert_eq!(reply["ok"], false, "{command}: {reply}");
        assert_eq!(reply["failure"]["message"], reply["error"], "{command}");
        reply["failure"].clone()
    };
    let code = |command: &str| failure(command)["code"].as_str().unwrap().to_owned();

    let unknown = failure("Opn b.txt");
    assert_eq!(unknown["code"], "invalid_command");
    assert_eq!(unknown["candidates"][0], "Open", "{unknown}");
    let keyword = failure("Insert Functon \"def g(): pass\"");
    assert_eq!(keyword["code"], "invalid_command");
    assert_eq!(keyword["candidates"][0], "Function", "{keyword}");
    assert_eq!(code("Goto"), "invalid_command");
    assert_eq!(code("Goto 99:0"), "out_of_range");
    assert_eq!(code("Goto 0:99"), "out_of_range");
    assert_eq!(code("Show Line 7"), "out_of_range");
    assert_eq!(code("Delete Block 0:9"), "out_of_range");
    assert_eq!(code("Find \"nowhere\""), "not_found");
    assert_eq!(code("Replace \"nowhere\" With \"x\""), "not_found");
    assert_eq!(code("Show Function nosuch"), "not_found");
    assert_eq!(code("Open missing.py"), "not_found");
    assert_eq!(code("Open ../outside.py"), "permission_denied");
    assert_eq!(code("Close nosuch.py"), "not_found");
    assert_eq!(code("Start t"), "conflict");
    let session = failure("Summary s2");
    assert_eq!(session["code"], "not_found");
    assert_eq!(session["candidates"], serde_json::json!(["s"]));
    assert_eq!(code("Pop Context"), "not_applicable");
    assert_eq!(code("Save"), "not_applicable", "no changes to save");
    assert_eq!(code("Redo"), "not_applicable", "nothing to redo");
    // a file changed on disk since it was opened: nothing written
    f.send("u", "Goto 0:0; Insert Line \"x = 1\"");
    f.write("a.py", "y = 2\n");
    assert_eq!(code("Save"), "stale");
    // no session
    let no_session: serde_json::Value =
        serde_json::from_str(&f.send("v", "Open a.py")).unwrap_or_default();
    assert!(no_session.is_null(), "terse without a session");
    assert!(f.send("v", "Open a.py").starts_with("Fail \"No session"));
    f.engine.set_response_format("v", ResponseFormat::Json);
    let reply: serde_json::Value = serde_json::from_str(&f.send("v", "Open a.py")).unwrap();
    assert_eq!(reply["failure"]["code"], "no_session", "{reply}");
}

/// `Find All … In Files` answers its matches as data: where each starts
/// and ends, the counts per file, the files skipped.
#[test]
fn find_all_in_files_gives_its_matches_as_data() {
    let f = Fixture::new();
    f.write("pkg/a.py", "total = 1\nprint(total)\n");
    f.write("pkg/b.py", "x = 'total'\n");
    f.write("pkg/bin.py", "total\0\n");
    f.write("notes.txt", "total\n");
    f.send("u", "Start s; Set Format json");
    let schema = reply_schema();
    let reply = json_reply(&f, &schema, "Find All \"total\" In Files \"pkg/*.py\"");
    let found = &reply["found_in_files"];
    assert_eq!(found["total"], 3, "{reply}");
    assert_eq!(found["complete"], true);
    assert_eq!(found["searched"], 2);
    assert_eq!(
        found["files"],
        serde_json::json!({"pkg/a.py": 2, "pkg/b.py": 1})
    );
    assert_eq!(
        found["skipped_files"],
        serde_json::json!([{"path": "pkg/bin.py", "reason": "binary"}])
    );
    assert_eq!(
        found["matches"][1],
        serde_json::json!({"path": "pkg/a.py", "line": 1, "col": 6, "end_line": 1,
                           "end_col": 11, "context": "print(total)"})
    );
    assert_eq!(found["matches"][2]["path"], "pkg/b.py");
    // the terse reply is unchanged
    f.send("u", "Set Format terse");
    assert_eq!(
        f.send("u", "Find All \"total\" In Files \"pkg/*.py\""),
        "Ok: Found 3 matches, with lines, searched 2 files, skipped 1 file: pkg/bin.py (binary), Txt pkg/a.py:0:0: total = 1\\npkg/a.py:1:6: print(total)\\npkg/b.py:0:5: x = 'total'"
    );
    f.send("u", "Set Format json");
    let missing = json_reply(&f, &schema, "Find All \"nowhere\" In Files \"*.py\"");
    assert_eq!(missing["failure"]["code"], "not_found");
    let none = json_reply(&f, &schema, "Find All \"x\" In Files \"*.rs\"");
    assert_eq!(none["failure"]["code"], "not_found");
}

/// A proposed change (a refactor's, before it is committed) is laid over
/// the index as a view, on top of the session's unsaved buffers: edited,
/// created, deleted and moved files as they would be; the shared index,
/// the buffers and the disk stay as they were.
#[test]
fn a_proposed_change_is_laid_over_the_index_without_changing_it() {
    use crate::change::{Base, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write("pkg/core.py", "def helper(x):\n    return x\n");
    f.write("pkg/use.py", "from pkg.core import helper\n\nhelper(2)\n");
    f.write("pkg/old.py", "from pkg.core import helper\nhelper(3)\n");
    f.write("pkg/moved.py", "from pkg.core import helper\nhelper(5)\n");
    // an unsaved buffer is part of the view too
    f.send(
        "a",
        "Start s; Open pkg/use.py; Goto 2:0; Insert Line \"helper(4)\"",
    );
    let ws = f.engine.workspace();
    let path = |p: &str| ws.resolve(p).unwrap();
    let disk = |p: &str| Base::Disk(ws.stamp(&path(p)).unwrap().unwrap());
    let rename_at = |offsets: &[usize]| {
        TextEdits::new(offsets.iter().map(|&at| Indel::new(at..at + 6, "assist"))).unwrap()
    };
    let live = f.engine.live_of("a").unwrap();
    let version = live
        .lock()
        .session
        .buffer(&path("pkg/use.py"))
        .unwrap()
        .version();
    let mut change =
        WorkspaceChange::edit(path("pkg/core.py"), disk("pkg/core.py"), rename_at(&[4]));
    let edits = [
        (
            "pkg/use.py",
            FileChange {
                base: Base::Buffer { version },
                // `import helper`, `helper(4)` (unsaved), `helper(2)`
                op: FileOp::Edit(rename_at(&[21, 29, 39])),
            },
        ),
        (
            "pkg/old.py",
            FileChange {
                base: disk("pkg/old.py"),
                op: FileOp::Delete,
            },
        ),
        (
            "pkg/new.py",
            FileChange {
                base: Base::Absent,
                op: FileOp::Create("from pkg.core import assist\nassist(6)\n".into()),
            },
        ),
        (
            "pkg/moved.py",
            FileChange {
                base: disk("pkg/moved.py"),
                op: FileOp::Move {
                    to: path("pkg/there.py"),
                    edits: rename_at(&[21, 28]),
                },
            },
        ),
    ];
    for (p, file) in edits {
        change.insert(path(p), file).unwrap();
    }
    let sites = |index: &crate::analysis::index::ProjectIndex, symbol: &str| -> Vec<String> {
        match index.find_references(symbol) {
            Ok(found) => found
                .certain
                .iter()
                .map(|l| format!("{}:{}", l.path, l.position))
                .collect(),
            Err(e) => vec![e.to_string()],
        }
    };
    let live = live.lock();
    let (after, before_name) = f
        .engine
        .with_index_changed(&live.session, &change, |index| {
            (
                sites(index, "pkg.core.assist"),
                sites(index, "pkg.core.helper"),
            )
        })
        .unwrap();
    assert_eq!(
        after,
        [
            "pkg/new.py:0:21",
            "pkg/new.py:1:0",
            "pkg/there.py:0:21",
            "pkg/there.py:1:0",
            "pkg/use.py:0:21",
            "pkg/use.py:2:0",
            "pkg/use.py:3:0"
        ]
    );
    assert!(before_name[0].starts_with("Not found"), "{before_name:?}");
    // the shared index (with the unsaved buffer) still sees the old names
    let now = f
        .engine
        .with_index(&live.session, |index, _, _| sites(index, "pkg.core.helper"));
    assert_eq!(now.len(), 7, "{now:?}");
    assert!(
        now.contains(&"pkg/old.py:1:0".to_owned()) && now.contains(&"pkg/use.py:2:0".to_owned())
    );
    assert_eq!(
        f.read("pkg/old.py"),
        "from pkg.core import helper\nhelper(3)\n"
    );
    // a change whose edits do not fit its base fails, naming the file
    let bad = WorkspaceChange::edit(
        path("pkg/core.py"),
        disk("pkg/core.py"),
        TextEdits::new([Indel::new(900..901, "x")]).unwrap(),
    );
    let failed = f.engine.with_index_changed(&live.session, &bad, |_| ());
    assert!(failed
        .unwrap_err()
        .starts_with("pkg/core.py: the edits do not apply"));
}

/// The index learns other programs' changes from a watch of the tree, not
/// from a walk per query: a changed Python file is re-read by itself; only
/// what can move files or rename modules (a new directory) walks the tree.
#[test]
fn the_index_follows_the_tree_without_walking_it_per_query() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write("pkg/core.py", "def helper(x):\n    return x\n");
    f.write("pkg/use.py", "from pkg.core import helper\n\nhelper(2)\n");
    f.send("a", "Start s");
    let callers = || f.send("a", "Find Callers pkg.core.helper");
    let walks = || f.engine.index.lock().walks;
    assert!(callers().starts_with("Ok: Found 1 caller"), "{}", callers());
    std::thread::sleep(super::query::REFRESH_EVERY);
    for _ in 0..20 {
        callers();
    }
    assert_eq!(
        walks(),
        0,
        "a quiet tree is not walked, however long since the build"
    );
    // another program edits a file: seen by a later query, that file re-read
    f.write(
        "pkg/use.py",
        "from pkg.core import helper\n\nhelper(2)\nhelper(3)\n",
    );
    let until = |want: &str| {
        let start = std::time::Instant::now();
        loop {
            let reply = callers();
            if reply.starts_with(want) || start.elapsed() > std::time::Duration::from_secs(5) {
                return reply;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    };
    assert!(until("Ok: Found 2 callers").starts_with("Ok: Found 2 callers"));
    assert_eq!(walks(), 0);
    // a file Eddi saves is re-read at once, without waiting for the watch
    f.send(
        "a",
        "Open pkg/use.py; Goto 4:0; Insert Line \"helper(4)\"; Save",
    );
    assert!(
        callers().starts_with("Ok: Found 3 callers"),
        "{}",
        callers()
    );
    // a new package: the tree is walked once
    f.write("lib/more.py", "from pkg.core import helper\nhelper(5)\n");
    assert!(until("Ok: Found 4 callers").starts_with("Ok: Found 4 callers"));
    assert_eq!(walks(), 1);
}
