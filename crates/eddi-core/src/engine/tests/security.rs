//! Hostile input (issue 11, security): names that would forge reply lines,
//! paths that would hang or escape, replacements that would blow up, and
//! messages that would run without end. Each gets a clear `Fail` and
//! changes nothing; everyone else keeps being served.

use super::*;

/// A file name with a newline printed raw split a reply into two lines, and
/// a sender reads one line per command: `List` could forge a reply.
#[test]
fn file_names_with_newlines_stay_on_their_reply_line() {
    let f = Fixture::new();
    f.write("ok.py", "x = 1\n");
    f.write("evil.py\nOk, At 9:9", "y = 1\n");
    f.check("a", "> Start s\nOk");
    for command in ["List", "Find All \"1\" In Files \"**\""] {
        let reply = f.send("a", command);
        assert!(!reply.contains('\n'), "{command}: {reply:?}");
        assert!(reply.contains("evil.py\\nOk, At 9:9"), "{command}: {reply}");
    }
    // Opening it is refused, naming the reason.
    f.check(
        "a",
        "> Open \"evil.py\\nOk, At 9:9\"\nFail \"Invalid path 'evil.py\\nOk, At 9:9': control characters in path\"",
    );
}

#[test]
fn symlink_loops_fifos_devices_and_long_names_are_refused_without_hanging() {
    let f = Fixture::new();
    f.write("ok.py", "x = 1\n");
    let dir = f.dir.path();
    std::os::unix::fs::symlink("loop.py", dir.join("loop.py")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.py")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("fifo.py"))
        .status()
        .unwrap();
    assert!(fifo.success());
    let long = format!("{}.py", "x".repeat(300));
    f.check(
        "a",
        &format!(
            r#"
            > Start s
            Ok
            > Open loop.py
            Fail "I/O error on loop.py: Too many levels of symbolic links (os error 40)"
            > Open fifo.py
            Fail "Not a file: fifo.py"
            > Open zero.py
            Fail "Path escapes the workspace: zero.py"
            > Open /dev/zero
            Fail "Path escapes the workspace: /dev/zero"
            > Open Create {long}
            Fail "I/O error on {long}: File name too long (os error 36)"
            "#
        ),
    );
    // The workspace-wide commands walk past them (a FIFO read would block).
    let reply = f.send("a", "Find All \"x\" In Files \"**\"");
    assert!(reply.starts_with("Ok: Found 1 match"), "{reply}");
    assert!(f.send("a", "List").starts_with("Ok"));
}

/// `/x*/` matches between every two characters: with a long replacement a
/// 1 MB file would become hundreds of MB (it ran for minutes).
#[test]
fn a_replacement_that_would_blow_up_the_file_is_refused() {
    let f = Fixture::new();
    f.write("big.py", &format!("{}\n", "abcdefghij".repeat(100_000)));
    let long = "y".repeat(200);
    f.check(
        "a",
        &format!(
            r#"
            > Start s; Open big.py
            Ok
            Ok, At 0:0, Length 1
            > Replace All /x*/ With "{long}"
            Fail "Replacing every match would make the file over 16777216 bytes, the largest Eddi edits; nothing was replaced. Narrow the pattern (it matches the empty text, so between every two characters: /x+/ instead of /x*/ needs an x) or add a scope (In Function …, In Block a:b)"
            > Replace All /a/ With "A"
            Ok, Replaced 100000 occurrences, At 0:0
            "#
        ),
    );
}

#[test]
fn a_huge_single_line_is_shown_shortened_and_edited() {
    let f = Fixture::new();
    f.write("one.py", &format!("s = \"{}\"\n", "x".repeat(5_000_000)));
    f.check("a", "> Start s; Open one.py\nOk\nOk, At 0:0, Length 1");
    let shown = f.send("a", "Show Line 0");
    assert!(
        shown.starts_with("Ok") && shown.len() < 10_000,
        "{}",
        shown.len()
    );
    f.check(
        "a",
        "> Goto 0:3; Insert Line \"t = 1\"; Find \"t = 1\"\nOk, At 0:3\nOk, Inserted 1 line at 0, At 1:0\nOk, At 0:0, Wrapped",
    );
}

/// A message of many commands stops, saying so, once it has run for its
/// time budget; the commands before the stop are done, the rest not run.
#[test]
fn a_message_stops_at_its_time_budget() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.message_time_budget = std::time::Duration::from_millis(0);
    let engine = Engine::open(config).unwrap();
    let reply = engine
        .execute(&Request {
            sender: "a",
            text: "Start s; Open Create a.py; Status",
            id: None,
        })
        .text;
    assert_eq!(
        reply,
        "Ok\nFail \"Not run: this message used up its time budget of 0 ms after 1 command. Send this command and the rest again in another message\", Skipped 1 command"
    );
}

/// The `regex` crate is linear-time; a pattern whose compiled form would be
/// huge is refused by its size limit, in every command that takes one.
#[test]
fn regexes_too_big_to_compile_are_refused_everywhere() {
    let f = Fixture::new();
    f.write("a.py", "aaa\n");
    f.check("a", "> Start s; Open a.py\nOk\nOk, At 0:0, Length 1");
    for command in [
        "Find /((a{100}){100}){100}/",
        "Replace All /((a{100}){100}){100}/ With \"b\"",
        "Find All /((a{100}){100}){100}/ In Files \"**\"",
    ] {
        let reply = f.send("a", command);
        assert!(
            reply.starts_with(
                "Fail \"Invalid regex /((a{100}){100}){100}/: Compiled regex exceeds size limit"
            ),
            "{command}: {reply}"
        );
    }
    assert_eq!(f.read("a.py"), "aaa\n");
}
