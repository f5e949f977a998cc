//! The `eddi` binary driven as a child process on real files: `eddi run`,
//! `eddi repl`, and a `kill -9` in the middle of a session.

use std::path::Path;

use crate::support::cli::{self, code, lines, Repl};

/// Runs a script with `eddi run` and returns (stdout lines, exit code).
fn run(root: &Path, script: &str) -> (Vec<String>, i32) {
    run_as(root, "cli", script)
}

#[test]
fn run_prints_one_reply_per_command_and_fails_on_the_first_failure() {
    let dir = tempfile::tempdir().unwrap();
    let (lines, code) = run(
        dir.path(),
        "Start s\nOpen Create notes.txt\nInsert Block \"hello\\nworld\\n\"\nOpn x\nSave\n",
    );
    assert_eq!(
        lines,
        [
            "Ok",
            "Ok, At 0:0, Length 0",
            "Ok, Inserted 2 lines at 0, At 2:0",
            "Fail \"Unknown command 'Opn'. Did you mean: Open?\", Skipped 1 command",
        ]
    );
    assert_eq!(code, 1);
    assert!(
        !dir.path().join("notes.txt").exists(),
        "the failed run saved nothing"
    );
}

#[test]
fn a_killed_process_comes_back_with_its_unsaved_edits() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("app.py"),
        "import os\n\nprint(os.getcwd())\n",
    )
    .unwrap();
    let mut repl = Repl::start(dir.path(), &["--sender", "agent-7"]);
    let mut ask = |command: &str| repl.ask(command);
    assert_eq!(ask("Start crash_test"), "Ok");
    assert_eq!(ask("Open app.py"), "Ok, At 0:0, Length 3");
    assert_eq!(ask("Goto 2"), "Ok, At 2:0");
    assert_eq!(
        ask("Insert Line \"import sys\""),
        "Ok, Inserted 1 line at 2, At 3:0"
    );
    assert_eq!(
        ask("Replace \"getcwd\" With \"getpid\""),
        "Ok, Replaced 1 occurrence, At 3:15"
    );
    // The reply was printed, so the edit is on disk in the journal: kill -9.
    repl.child.kill().unwrap();
    repl.child.wait().unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.py")).unwrap(),
        "import os\n\nprint(os.getcwd())\n"
    );

    let (lines, code) = run_as(
        dir.path(),
        "agent-7",
        "Status\nShow Block 0:3\nUndo\nUndo\nSave\n",
    );
    assert_eq!(
        lines,
        [
            "Ok: Session crash_test, File app.py, At 3:15, Modified",
            r"Ok: At 0:0, Txt import os\n\nimport sys\nprint(os.getpid())",
            "Ok, Undid 1, At 3:0",
            "Ok, Undid 1, At 2:0",
            "Fail \"No changes to save in app.py\"",
        ]
    );
    assert_eq!(code, 1);
}

/// A script that starts its session runs again, unchanged, on the same
/// root: the second `Start` continues the session the first one left.
#[test]
fn a_script_runs_again_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "").unwrap();
    let script = "Start t\nOpen a.py\nGoto EndOfFile\nInsert Line \"x = 1\"\nSave\n";
    let (first, code) = run(dir.path(), script);
    assert_eq!(code, 0, "{first:?}");
    assert_eq!(first[0], "Ok");
    let (second, code) = run(dir.path(), script);
    assert_eq!(code, 0, "{second:?}");
    assert_eq!(second[0], "Ok, Continued session 't'");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.py")).unwrap(),
        "x = 1\nx = 1\n"
    );
    // Another name while `t` is active is still refused, saying what to do.
    let (third, code) = run(dir.path(), "Start u\nStatus\n");
    assert_eq!(code, 1);
    assert_eq!(
        third,
        ["Fail \"You already have session 't'. End it first: End t\", Skipped 1 command"]
    );
}

fn run_as(root: &Path, sender: &str, script: &str) -> (Vec<String>, i32) {
    let output = cli::run(root, &["--sender", sender], script);
    (lines(&output), code(&output))
}

#[test]
fn bad_input_fails_clearly_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("data.bin"), b"\x00\x01\x02").unwrap();
    std::fs::write(dir.path().join("ok.py"), "x = 1\n").unwrap();
    let huge = "a".repeat(2_000_000);
    let script = format!(
        "Start s\nOpen data.bin\nOpen ../outside.py\nOpen ok.py\nGoto 99:0\nShow Block 5:1\nInsert Line \"unterminated\nDelete Line 7\nInsert Block \"{huge}\"\nUndo\nShow Line 0\n"
    );
    // Every failing command is its own run so each failure is seen.
    let mut replies = Vec::new();
    for command in script.lines() {
        let (lines, _) = run(dir.path(), command);
        replies.push(lines.join(" | "));
    }
    let short: Vec<String> = replies
        .iter()
        .map(|r| r.chars().take(120).collect())
        .collect();
    assert_eq!(
        short,
        [
            "Ok",
            "Fail \"Binary file refused: data.bin (contains NUL bytes)\"",
            "Fail \"Path escapes the workspace: ../outside.py\"",
            "Ok, At 0:0, Length 1",
            "Fail \"Line 99 out of range: valid lines are 0..1\"",
            "Fail \"Block start 5 is after its end 1. Usage: Show Line <n> | Block <a>:<b> | Current | Function <f>[(<params>)] | Clas",
            "Fail \"Unterminated string starting at 1:13; close it with \\\"\"",
            "Fail \"Cannot delete 7 lines from line 0: only 1 line left to the end (the last line is 0); use Delete Line 1\"",
            "Ok, Inserted 1 line at 0, At 0:2000000",
            "Ok, Undid 1, At 0:0",
            "Ok: At 0:0, Txt x = 1",
        ]
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("ok.py")).unwrap(),
        "x = 1\n"
    );
}
