//! Engine conversations: how much replies say — brief replies, the skipped
//! count of a failing message, search results with their lines.

use super::*;

#[test]
fn brief_replies_drop_confirmations_and_keep_facts() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\ny = 2\n");
    f.check(
        "u",
        r#"
        > Start s; Set Replies brief
        Ok
        Ok
        > Open a.py
        Ok
        > Goto 1:0
        Ok
        > Insert Line "z = x"
        Ok
        > Goto 1:0; Delete Line
        Ok
        Ok
        > Insert Block "a = 1\nb = 2\n"
        Ok
        > Find "x"
        Ok, At 0:0, Wrapped
        > Find "y"
        Ok, At 3:0
        > Replace All "b = 2" With "b = 3"
        Ok, Replaced 1 occurrence
        > Show Line 1
        Ok: At 1:0, Txt a = 1
        > Status
        Ok: Session s, File a.py, At 1:0, Modified
        > Save
        Ok
        > Goto 9:0
        Fail "Line 9 out of range: valid lines are 0..4"
        > Close
        Ok
        "#,
    );
    assert_eq!(f.read("a.py"), "x = 1\na = 1\nb = 3\ny = 2\n");
}

#[test]
fn brief_replies_keep_notices_questions_and_notes() {
    let f = Fixture::new();
    f.write("a.py", "a = 1\nb = a\n");
    f.write("b.py", "x = 1\n");
    f.check(
        "u",
        r#"
        > Start s; Set Replies brief; Open b.py; Open a.py
        Ok
        Ok
        Ok
        Ok
        > Replace Confirm "a" With "c"
        Ok, At 0:0, Replace? (y/n)
        > q
        Ok, Replaced 0 occurrences
        > Insert Line "def f(:"
        Ok, Now invalid Python (1 syntax error): 0:6 missing ')'
        > Save
        Ok, 1 syntax error at 0:6
        "#,
    );
    f.write("b.py", "x = 2\n");
    f.check(
        "u",
        r#"
        > Goto 1:0
        Ok, Notice: b.py changed on disk; reloaded (you had no unsaved edits)
        > Close b.py
        Ok
        "#,
    );
}

#[test]
fn brief_json_replies_carry_the_same_facts_as_terse() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.send("u", "Start s; Set Replies brief; Set Format json");
    assert_eq!(f.send("u", "Open a.py"), r#"{"ok":true}"#);
    assert_eq!(f.send("u", "Goto 0:2"), r#"{"ok":true}"#);
    assert_eq!(
        f.send("u", "Find \"1\""),
        r#"{"at":{"col":4,"line":0},"ok":true}"#
    );
    assert_eq!(
        f.send("u", "Show Line 0"),
        r#"{"at":{"col":0,"line":0},"ok":true,"text":"x = 1"}"#
    );
}

#[test]
fn set_replies_full_goes_back_and_brief_survives_a_restart() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.check(
        "u",
        "> Start s; Set Replies brief; Open a.py\nOk\nOk\nOk\n> Set Replies full; Goto 0:1\nOk\nOk, At 0:1\n> Set Replies brief\nOk",
    );
    let f = f.restart();
    assert_eq!(f.send("u", "Goto 0:2"), "Ok");
}

#[test]
fn state_written_before_brief_replies_existed_loads_as_full() {
    let old: crate::session::Preferences =
        serde_json::from_str(r#"{"format":"terse","output_limit":4000}"#).unwrap();
    assert_eq!(old.replies, crate::commands::ReplyDetail::Full);
}

#[test]
fn a_handshake_may_ask_for_brief_replies_before_the_session_exists() {
    let f = Fixture::new();
    f.engine
        .set_reply_detail("u", crate::commands::ReplyDetail::Brief);
    f.check("u", "> Start s; Open Create a.py; Goto 0:0\nOk\nOk\nOk");
}

#[test]
fn the_skipped_count_is_a_clause_of_the_failing_reply() {
    let f = Fixture::new();
    f.check(
        "u",
        r#"
        > Start s; Open Create a.py; Goto 5:0; Insert Line "x"; Save
        Ok
        Ok, At 0:0, Length 0
        Fail "Line 5 out of range: valid lines are 0..0", Skipped 2 commands
        "#,
    );
    f.send("u", "Set Format json");
    assert_eq!(
        f.send("u", "Goto 5:0; Save"),
        r#"{"error":"Line 5 out of range: valid lines are 0..0","failure":{"candidates":[],"code":"out_of_range","message":"Line 5 out of range: valid lines are 0..0"},"ok":false,"skipped":1}"#
    );
    // A parse failure too, and the notices of a failing reply stay notices.
    f.write("a.py", "changed\n");
    assert_eq!(
        f.send("u", "Opn x; Save"),
        r#"{"error":"Unknown command 'Opn'. Did you mean: Open?","failure":{"candidates":["Open"],"code":"invalid_command","message":"Unknown command 'Opn'. Did you mean: Open?"},"notices":["a.py was created on disk by someone else; Save refuses to overwrite it (Save Force does)"],"ok":false,"skipped":1}"#
    );
}

#[test]
fn a_script_counts_what_it_skips_in_the_failing_reply() {
    let f = Fixture::new();
    f.send("u", "Start s");
    let reply = f.engine.execute_in_script(
        &Request {
            sender: "u",
            text: "Goto 3:0",
            id: None,
        },
        2,
    );
    assert_eq!(
        reply.text,
        "Fail \"No file open. Use: Open <file>\", Skipped 2 commands"
    );
    let ok = f.engine.execute_in_script(
        &Request {
            sender: "u",
            text: "Status",
            id: None,
        },
        2,
    );
    assert_eq!(ok.text, "Ok: Session s, No file");
}

#[test]
fn find_references_show_each_sites_line_then_shorten_in_tiers() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write("pkg/auth.py", "def login(user):\n    return user\n");
    f.write(
        "pkg/cli.py",
        "from pkg.auth import login\n\n\ndef main():\n    login('a')   \n    return login\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open pkg/cli.py; Goto 4:0; Insert Line "    login('unsaved')"
        Ok
        Ok, At 0:0, Length 6
        Ok, At 4:0
        Ok, Inserted 1 line at 4, At 5:0
        > Find Callers login
        Ok: Found 2 callers, with lines, Txt pkg/cli.py:4:4 in pkg.cli.main: login('unsaved')\npkg/cli.py:5:4 in pkg.cli.main: login('a')
        > Set Limit 100; Find References login
        Ok
        Ok: Found 4 references, positions only (the lines exceed the limit of 100 chars; Set Limit <n> to raise it): pkg/cli.py:0:21, pkg/cli.py:4:4, pkg/cli.py:5:4, pkg/cli.py:6:11
        > Set Limit 40; Find References login
        Ok
        Ok: Found 4 references, counts per file (too many for positions within 40 chars): pkg/cli.py 4
        > Set Limit 5; Find References login
        Ok
        Ok: Found 4 references in 1 file (too many to list within 5 chars; narrow the query)
        "#,
    );
}

#[test]
fn find_all_in_files_searches_the_workspace_like_grep() {
    let f = Fixture::new();
    f.write(".gitignore", "build/\n");
    f.write("a.py", "def get(url, timeout=None):\n    return url\n");
    f.write(
        "pkg/b.py",
        "from a import get\nget('x')\nget('y', timeout=3)\n",
    );
    f.write("build/c.py", "get('ignored')\n");
    f.write("notes.txt", "get me\n");
    std::fs::write(f.dir.path().join("blob.py"), b"get\0binary").unwrap();
    std::fs::write(f.dir.path().join("latin1.py"), b"get = '\xe9'\n").unwrap();
    f.check(
        "u",
        r#"
        > Start s
        Ok
        > Find All "timeout" In Files "*.py"
        Ok: Found 2 matches, with lines, searched 2 files, skipped 2 files: blob.py (binary), latin1.py (not UTF-8), Txt a.py:0:13: def get(url, timeout=None):\npkg/b.py:2:9: get('y', timeout=3)
        > Find All /get\(/ In Files "pkg/**"
        Ok: Found 2 matches, with lines, searched 1 file, Txt pkg/b.py:1:0: get('x')\npkg/b.py:2:0: get('y', timeout=3)
        > Find All "nowhere" In Files "*.py"
        Fail "Not found: 'nowhere' in the files matching \"*.py\" (searched 2 files, skipped 2 files: blob.py (binary), latin1.py (not UTF-8))"
        > Find All "x" In Files "*.rs"
        Fail "No files match \"*.rs\" (gitignored and hidden files are not searched); List shows the files"
        > Find All "x" In Files "[z"
        Fail "Invalid glob '[z': unclosed character class; missing ']'"
        "#,
    );
}

#[test]
fn find_all_in_files_searches_unsaved_buffers_instead_of_the_disk() {
    let f = Fixture::new();
    f.write("a.py", "old = 1\n");
    f.check(
        "u",
        r#"
        > Start s; Open a.py; Replace All "old" With "new"; Open Create n.py; Insert Line "new = 2"
        Ok
        Ok, At 0:0, Length 1
        Ok, Replaced 1 occurrence, At 0:0
        Ok, At 0:0, Length 0
        Ok, Inserted 1 line at 0, At 1:0
        > Find All "new" In Files "*.py"
        Ok: Found 2 matches, with lines, searched 2 files, Txt a.py:0:0: new = 1\nn.py:0:0: new = 2
        > Set Limit 50; Find All /new|=/ In Files "*"
        Ok
        Ok: Found 4 matches, positions only (the lines exceed the limit of 50 chars; Set Limit <n> to raise it): a.py:0:0, a.py:0:4, n.py:0:0, n.py:0:4, searched 2 files
        "#,
    );
    // Another session sees the disk.
    f.check(
        "v",
        "> Start t; Find All \"new\" In Files \"*.py\"\nOk\nFail \"Not found: 'new' in the files matching \\\"*.py\\\" (searched 1 file)\"",
    );
}

#[test]
fn in_files_goes_with_find_all_and_needs_a_glob() {
    use crate::commands::{parse_command, Command, Pattern};
    let parsed = parse_command(r#"find all /def \w+/ in files "src/**/*.py""#).unwrap();
    assert_eq!(
        parsed,
        Command::FindInFiles {
            pattern: Pattern::Regex(r"def \w+".into()),
            glob: "src/**/*.py".into()
        }
    );
    assert_eq!(parse_command(&parsed.to_string()).unwrap(), parsed);
    let f = Fixture::new();
    let fail = |text: &str| f.send("u", text);
    assert!(fail(r#"Find "x" In Files "*.py""#)
        .starts_with(r#"Fail "'In Files' searches every match: write Find All \"<text>\" In Files \"<glob>\". Usage: Find"#));
    assert!(
        fail(r#"Find All "x" In *.py"#).starts_with(r#"Fail "Expected 'Files' (Find All"#),
        "{}",
        fail(r#"Find All "x" In *.py"#)
    );
    assert!(fail(r#"Find All "x" In Files"#).starts_with(r#"Fail "Missing a glob like \"*.py\""#));
    assert!(fail(r#"Find All "x" In Files """#)
        .starts_with(r#"Fail "Empty glob: use \"*\" for every file"#));
}

#[test]
fn diff_and_summary_tell_same_named_definitions_apart() {
    let f = Fixture::new();
    let compat = include_str!("../../../../../tests/fixtures/click_compat.py");
    f.write("_compat.py", compat);
    f.send("u", "Start s; Open _compat.py; Insert Line \"# a comment\"");
    let diff = f.send("u", "Diff");
    assert!(
        diff.starts_with("Ok: +1 -0 lines, Txt "),
        "no definition is modified by a shifted file: {diff}"
    );
    let summary = f.send("u", "Summary");
    assert!(!summary.contains("modified ("), "{summary}");
}

#[test]
fn a_search_matching_everywhere_is_counted_not_listed() {
    let f = Fixture::new();
    f.write("a.txt", &"abc\n".repeat(20_000));
    f.write("b.txt", "abc\n");
    f.check(
        "u",
        r#"
        > Start s; Find All /\w/ In Files "*.txt"
        Ok
        Ok: Found 60003 matches, counts per file (too many for positions within 4000 chars): a.txt 60000, b.txt 3, searched 2 files
        "#,
    );
}
