//! Engine conversations: `[Preview] Replace All … In Files "<glob>"`, a text
//! replacement across the workspace as one commit and one undo step.

use super::*;

/// Three files, two of them Python, one with CRLF line breaks.
fn files(f: &Fixture) {
    f.write("a.py", "old = 1\nprint(old)\n");
    f.write("pkg/b.py", "x = old\r\ny = 'old'\r\n");
    f.write("notes.txt", "old notes\n");
}

#[test]
fn replaces_in_every_matching_file_and_one_undo_restores_all_bytes() {
    let f = Fixture::new();
    files(&f);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open a.py
        Ok, At 0:0, Length 2
        > Replace All "old" With "new" In Files "*.py"
        Ok, Replaced 4 occurrences in 2 files (a.py, pkg/b.py)
        > Show Line 1
        Ok: At 1:0, Txt print(new)
        "#,
    );
    assert_eq!(f.read("a.py"), "new = 1\nprint(new)\n");
    assert_eq!(f.read("pkg/b.py"), "x = new\r\ny = 'new'\r\n");
    // the glob chose the files: the text file is as it was
    assert_eq!(f.read("notes.txt"), "old notes\n");
    let undone = f.send("a", "Undo");
    assert!(undone.starts_with("Ok"), "{undone}");
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
    assert_eq!(f.read("pkg/b.py"), "x = old\r\ny = 'old'\r\n");
}

#[test]
fn a_regex_with_groups_replaces_as_single_file_replace_all_does() {
    let f = Fixture::new();
    f.write("a.py", "f(1)\nf(22)\n");
    f.write("b.py", "g(3)\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Replace All /f\((\d+)\)/ With "h($1, 0)" In Files "*.py"
        Ok, Replaced 2 occurrences in 1 file (a.py)
        > Replace All /\bq\b/ With "r" In Files "*.py"
        Fail "Not found: /\\bq\\b/ in the files matching \"*.py\" (searched 2 files)"
        "#,
    );
    assert_eq!(f.read("a.py"), "h(1, 0)\nh(22, 0)\n");
}

#[test]
fn preview_counts_and_changes_nothing() {
    let f = Fixture::new();
    files(&f);
    f.write("blob.py", "old\0\u{1}");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Replace All "old" With "new" In Files "*"
        Ok, Preview: Would replace 5 occurrences in 3 files: a.py (2), notes.txt (1), pkg/b.py (2), searched 3 files, skipped 1 file: blob.py (binary)
        "#,
    );
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
    assert_eq!(f.read("pkg/b.py"), "x = old\r\ny = 'old'\r\n");
    assert_eq!(f.read("notes.txt"), "old notes\n");
}

#[test]
fn unsaved_edits_refuse_the_replacement_and_nothing_is_written() {
    let f = Fixture::new();
    files(&f);
    // the sender's own unsaved edits in a file it would change
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open a.py
        Ok, At 0:0, Length 2
        > Insert Line "z = 0"
        Ok, Inserted 1 line at 0, At 1:0
        > Replace All "old" With "new" In Files "*.py"
        Fail "The replacement must change a.py, which has unsaved edits: Save or Undo them first; nothing was changed"
        > Undo
        Ok, Undid 1, At 0:0
        "#,
    );
    // another session's unsaved edits on a line it changes
    f.check(
        "b",
        r#"
        > Start t
        Ok
        > Open pkg/b.py
        Ok, At 0:0, Length 2
        > Insert Line "w = 0"
        Ok, Inserted 1 line at 0, At 1:0
        "#,
    );
    let refused = f.send("a", r#"Replace All "old" With "new" In Files "*.py""#);
    assert!(
        refused.starts_with(
            "Fail \"The replacement changes lines other sessions have unsaved edits on: pkg/b.py"
        ),
        "{refused}"
    );
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
    assert_eq!(f.read("pkg/b.py"), "x = old\r\ny = 'old'\r\n");
}

#[test]
fn a_read_only_sender_may_preview_but_not_replace() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "old = 1\n").unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.permissions = Permissions {
        read_only: ["ro".to_string()].into(),
        ..Permissions::default()
    };
    let engine = Engine::open(config).unwrap();
    let send = |text: &str| {
        engine
            .execute(&Request {
                sender: "ro",
                text,
                id: None,
            })
            .text
    };
    assert_eq!(send("Start s"), "Ok");
    assert_eq!(
        send(r#"Replace All "old" With "new" In Files "*.py""#),
        "Fail \"Permission denied: ro is read-only; Replace All In Files changes files\""
    );
    assert_eq!(
        send(r#"Preview Replace All "old" With "new" In Files "*.py""#),
        "Ok, Preview: Would replace 1 occurrence in 1 file: a.py (1)"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.py")).unwrap(),
        "old = 1\n"
    );
}

#[test]
fn json_replies_carry_the_counts_and_fit_the_schema() {
    let f = Fixture::new();
    files(&f);
    f.write("blob.py", "old\0\u{1}");
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../protocol/schemas/reply.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    f.send("u", "Start s; Set Format json");
    for (command, applied) in [
        (
            r#"Preview Replace All "old" With "new" In Files "*.py""#,
            false,
        ),
        (r#"Replace All "old" With "new" In Files "*.py""#, true),
    ] {
        let reply: serde_json::Value = serde_json::from_str(&f.send("u", command)).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&reply)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{command}: {reply}: {errors:?}");
        let replaced = &reply["replaced_in_files"];
        assert_eq!(replaced["total"], 4, "{reply}");
        assert_eq!(replaced["files"]["pkg/b.py"], 2);
        assert_eq!(replaced["applied"], applied);
        assert_eq!(replaced["skipped_files"][0]["path"], "blob.py");
    }
    assert_eq!(f.read("a.py"), "new = 1\nprint(new)\n");
}

#[test]
fn another_sessions_clean_buffer_takes_the_new_text() {
    let f = Fixture::new();
    files(&f);
    f.send("b", "Start t; Open a.py");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Replace All /old/ With "new" In Files "a.py"
        Ok, Replaced 2 occurrences in 1 file (a.py)
        "#,
    );
    let shown = f.send("b", "Show Line 1");
    assert!(shown.contains("print(new)"), "{shown}");
}

#[test]
fn in_preview_mode_it_waits_for_apply_and_writes_what_was_previewed() {
    let f = Fixture::new();
    files(&f);
    f.check(
        "a",
        r#"
        > Start s; Set Preview on
        Ok
        Ok
        > Replace All "old" With "new" In Files "*.py"
        Ok, Preview: Would replace 4 occurrences in 2 files: a.py (2), pkg/b.py (2), Apply or Discard
        > Status
        Ok: Session s, No file, Replace All "old" With "new" In Files "*.py" waiting for Apply (writes it if its files have not changed since the preview) or Discard (drops it)
        "#,
    );
    // Nothing is written while it waits.
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
    // A file that newly matches after the preview is not part of it: Apply
    // writes exactly what the preview showed.
    f.write("c.py", "old\n");
    f.check(
        "a",
        r#"
        > Apply
        Ok, Replaced 4 occurrences in 2 files (a.py, pkg/b.py)
        > Apply
        Fail "No refactor is waiting for Apply or Discard: in preview mode (Set Preview on) a Refactor shows its preview and waits"
        "#,
    );
    assert_eq!(f.read("a.py"), "new = 1\nprint(new)\n");
    assert_eq!(f.read("pkg/b.py"), "x = new\r\ny = 'new'\r\n");
    assert_eq!(f.read("c.py"), "old\n");
    // One undo step, as without preview mode.
    let undone = f.send("a", "Undo");
    assert!(undone.starts_with("Ok"), "{undone}");
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
    assert_eq!(f.read("pkg/b.py"), "x = old\r\ny = 'old'\r\n");
}

#[test]
fn a_waiting_replacement_is_refused_when_a_file_moved_on_and_discard_drops_it() {
    let f = Fixture::new();
    files(&f);
    f.send("a", "Start s; Set Preview on");
    let previewed = f.send("a", r#"Replace All "old" With "new" In Files "*.py""#);
    assert!(previewed.ends_with("Apply or Discard"), "{previewed}");
    // Another program changes a file the preview computed on.
    f.write("pkg/b.py", "x = old\r\n");
    f.check(
        "a",
        r#"
        > Apply
        Fail "pkg/b.py changed since the preview, so nothing was applied; preview it again: Replace All \"old\" With \"new\" In Files \"*.py\""
        "#,
    );
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n", "nothing written");
    f.check(
        "a",
        r#"
        > Replace All "old" With "new" In Files "*.py"
        Ok, Preview: Would replace 3 occurrences in 2 files: a.py (2), pkg/b.py (1), Apply or Discard
        > Discard
        Ok, Discarded Replace All "old" With "new" In Files "*.py"
        > Status
        Ok: Session s, No file
        "#,
    );
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
    // The session's own unsaved edits since the preview refuse it too.
    f.send("a", r#"Replace All "old" With "new" In Files "*.py""#);
    f.check(
        "a",
        r#"
        > Open a.py; Insert Line "z = 0"; Apply
        Ok, At 0:0, Length 2
        Ok, Inserted 1 line at 0, At 1:0
        Fail "The replacement must change a.py, which has unsaved edits since the preview: Save or Undo them first, then preview it again: Replace All \"old\" With \"new\" In Files \"*.py\"; nothing was changed"
        "#,
    );
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
}

#[test]
fn a_waiting_replacement_survives_a_restart() {
    let f = Fixture::new();
    files(&f);
    f.send("a", "Start s; Set Preview on");
    f.send("a", r#"Replace All "old" With "new" In Files "*.py""#);
    let f = f.restart();
    f.check(
        "a",
        r#"
        > Apply
        Ok, Replaced 4 occurrences in 2 files (a.py, pkg/b.py)
        "#,
    );
    assert_eq!(f.read("a.py"), "new = 1\nprint(new)\n");
}

#[test]
fn a_waiting_replacements_json_says_so_and_fits_the_schema() {
    let f = Fixture::new();
    files(&f);
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../protocol/schemas/reply.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    f.send("u", "Start s; Set Format json; Set Preview on");
    for (command, applied) in [
        (r#"Replace All "old" With "new" In Files "*.py""#, false),
        ("Apply", true),
    ] {
        let reply: serde_json::Value = serde_json::from_str(&f.send("u", command)).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&reply)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{command}: {reply}: {errors:?}");
        let replaced = &reply["replaced_in_files"];
        assert_eq!(replaced["total"], 4, "{reply}");
        assert_eq!(replaced["applied"], applied, "{reply}");
        assert_eq!(replaced["waiting"].as_bool(), (!applied).then_some(true));
    }
}

#[test]
fn preview_diff_shows_the_unified_diff_and_changes_nothing() {
    let f = Fixture::new();
    f.write("a.py", "old = 1\nprint(old)\n");
    f.write("b.py", "x = 2\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Diff Replace All "old" With "new" In Files "*.py"
        Ok, Preview: Would replace 2 occurrences in 1 file: a.py (2), Txt --- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n-old = 1\n-print(old)\n+new = 1\n+print(new)
        "#,
    );
    assert_eq!(f.read("a.py"), "old = 1\nprint(old)\n");
}
