//! `eddi run` keeps "one reply per command" when a script fails: the
//! skipped count is part of the failing command's reply, terse or JSON.

use crate::support::cli::{self, code, lines};

fn run(script: &str) -> (Vec<String>, i32) {
    let dir = tempfile::tempdir().unwrap();
    let output = cli::run(dir.path(), &[], script);
    (lines(&output), code(&output))
}

#[test]
fn a_failing_json_script_counts_the_skipped_commands_in_its_json() {
    let (lines, code) = run("Start s\nSet Format json\nGoto 3:0\nStatus\nStatus\n");
    assert_eq!(code, 1);
    assert_eq!(
        lines,
        [
            "Ok",
            r#"{"ok":true}"#,
            r#"{"error":"No file open. Use: Open <file>","failure":{"candidates":[],"code":"not_applicable","message":"No file open. Use: Open <file>"},"ok":false,"skipped":2}"#,
        ]
    );
}

#[test]
fn brief_replies_in_a_script() {
    let (lines, code) = run(
        "Start s\nSet Replies brief\nOpen Create a.py\nInsert Line \"x = 1\"\nSave\nShow Line 0\n",
    );
    assert_eq!(code, 0);
    assert_eq!(
        lines,
        ["Ok", "Ok", "Ok", "Ok", "Ok", "Ok: At 0:0, Txt x = 1"]
    );
}
