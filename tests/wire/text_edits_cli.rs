//! Text edits through the real binary, one `eddi run` per step as a new
//! user drives it: each run is a fresh process that restores the session.

use std::path::Path;

use crate::support::cli::{self, lines};

/// Runs a script with `eddi run` as sender `u`; returns its stdout lines.
fn run(root: &Path, script: &str) -> Vec<String> {
    lines(&cli::run(root, &["--sender", "u"], script))
}

#[test]
fn a_deleted_file_is_reported_by_one_run_only_and_save_writes_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("a.py"), "x = 1\n").unwrap();
    std::fs::write(root.join("b.py"), "y = 1\n").unwrap();
    run(
        root,
        "Start s\nOpen b.py\nOpen a.py\nInsert Line \"z = 0\"\n",
    );
    std::fs::remove_file(root.join("a.py")).unwrap();
    assert_eq!(
        run(root, "Status\n"),
        ["Ok: Session s, File a.py, At 1:0, Modified, 2 files open, Notice: a.py was deleted on disk; Save writes it again, Close drops it"]
    );
    assert_eq!(
        run(root, "Status\n"),
        ["Ok: Session s, File a.py, At 1:0, Modified, 2 files open"]
    );
    assert_eq!(run(root, "Save\n"), ["Ok, Bytes 12"]);
    assert_eq!(
        std::fs::read_to_string(root.join("a.py")).unwrap(),
        "z = 0\nx = 1\n"
    );
}

#[test]
fn goto_end_of_file_and_insert_line_appends_below_the_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("f.py"), "def f(a):\n    return a").unwrap();
    let lines = run(
        root,
        "Start s\nOpen f.py\nGoto EndOfFile\nInsert Line \"# end\"\nSave\n",
    );
    assert_eq!(lines[3], "Ok, Inserted 1 line at 2, At 2:5");
    assert_eq!(
        std::fs::read_to_string(root.join("f.py")).unwrap(),
        "def f(a):\n    return a\n# end"
    );
}
