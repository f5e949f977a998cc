//! Engine tests on real files in temp dirs; data-driven: a script of
//! commands and the exact reply lines.

use super::*;

struct Fixture {
    dir: tempfile::TempDir,
    engine: Engine,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::open(EngineConfig::new(dir.path())).unwrap();
        Fixture { dir, engine }
    }

    /// A new engine on the same root and state directory, as after a crash
    /// (the old one goes first: a state directory takes one Eddi at a time).
    fn restart(self) -> Fixture {
        let Fixture { dir, engine } = self;
        drop(engine);
        let engine = Engine::open(EngineConfig::new(dir.path())).unwrap();
        Fixture { dir, engine }
    }

    fn send(&self, sender: &str, text: &str) -> String {
        self.engine
            .execute(&Request {
                sender,
                text,
                id: None,
            })
            .text
    }

    /// Sends each `> command` line and checks the reply lines that follow.
    fn check(&self, sender: &str, script: &str) {
        let mut lines = script
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .peekable();
        while let Some(line) = lines.next() {
            let command = line
                .strip_prefix("> ")
                .unwrap_or_else(|| panic!("expected '> command', got {line}"));
            let mut expected = Vec::new();
            while let Some(reply) = lines.peek().filter(|l| !l.starts_with("> ")) {
                expected.push(*reply);
                lines.next();
            }
            assert_eq!(
                self.send(sender, command),
                expected.join("\n"),
                "reply to: {command}"
            );
        }
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(path)).unwrap()
    }

    /// Whether `program` (a language's own compiler or checker), run with
    /// `args` in the fixture's folder, accepts the result: it fails the
    /// test when it does not; where it is not installed, only Eddi's own
    /// checks stand.
    fn accepted(&self, program: &str, args: &[&str]) -> bool {
        let out = match std::process::Command::new(program)
            .args(args)
            .current_dir(self.dir.path())
            .output()
        {
            Ok(out) => out,
            Err(_) => {
                eprintln!("{program} is not installed: not checked");
                return true;
            }
        };
        assert!(
            out.status.success(),
            "{program} refused the result: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        true
    }
}

#[test]
fn commands_need_a_session() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Open x.py
        Fail "No session. Start one with: Start <name>"
        > Start s1
        Ok
        > Start s2
        Fail "You already have session 's1'. End it first: End s1"
        "#,
    );
    f.check(
        "b",
        "> Start s1\nFail \"Session already exists: s1. Choose another name\"",
    );
}

/// `Start` of the sender's own session continues it, so a script that
/// begins with `Start` runs again unchanged; the session keeps its files.
#[test]
fn start_of_the_own_session_continues_it() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Start t; Open Create a.py; Insert Line "x = 1"
        Ok
        Ok, At 0:0, Length 0
        Ok, Inserted 1 line at 0, At 1:0
        > Start t "a description"; Status
        Ok, Continued session 't'
        Ok: Session t, File a.py, At 1:0, Modified
        > Start u
        Fail "You already have session 't'. End it first: End t"
        > End; Start t; Status
        Ok, Session saved, Unsaved changes discarded: a.py
        Ok
        Ok: Session t, No file
        "#,
    );
}

#[test]
fn stops_at_the_first_failure_and_counts_the_rest() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Start s; Open Create a.py; Goto 5:0; Insert Line "x"; Save
        Ok
        Ok, At 0:0, Length 0
        Fail "Line 5 out of range: valid lines are 0..0", Skipped 2 commands
        "#,
    );
}

#[test]
fn edits_undo_and_save_crlf_files_byte_for_byte() {
    let f = Fixture::new();
    f.write("w.txt", "one\r\ntwo\r\nthree");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open w.txt
        Ok, At 0:0, Length 3
        > Goto 2
        Ok, At 2:0
        > Insert Line "new"
        Ok, Inserted 1 line at 2, At 3:0
        > Delete Line
        Ok, Deleted 1 line at 3, At 2:0
        > Undo
        Ok, Undid 1, At 3:0
        > Show Block 1:3
        Ok: At 1:0, Txt two\nnew\nthree
        > Save
        Ok, Bytes 20
        "#,
    );
    assert_eq!(f.read("w.txt"), "one\r\ntwo\r\nnew\r\nthree");
}

#[test]
fn save_refuses_to_overwrite_a_file_changed_on_disk() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.check("a", "> Start s\nOk\n> Open a.py\nOk, At 0:0, Length 1\n> Insert Line \"y = 2\"\nOk, Inserted 1 line at 0, At 1:0");
    f.write("a.py", "x = 3\n");
    f.check(
        "a",
        r#"
        > Status
        Ok: Session s, File a.py, At 1:0, Modified, Notice: a.py changed on disk; your unsaved edits are kept and Save refuses to overwrite it (Save Force does)
        > Save
        Fail "a.py changed on disk since it was opened; Save Force overwrites it, Diff shows the difference, or Close and Open to take the new text"
        > Save Force
        Ok, Bytes 12
        "#,
    );
    assert_eq!(f.read("a.py"), "y = 2\nx = 1\n");
}

#[test]
fn another_sessions_save_is_reported_and_an_unmodified_buffer_reloads() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.check("a", "> Start sa; Open a.py\nOk\nOk, At 0:0, Length 1");
    f.check("b", "> Start sb; Open a.py; Insert Line \"# b\"; Save\nOk\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 10");
    f.check("a", "> Show Line 0\nOk: At 0:0, Notice: a.py changed on disk; reloaded (you had no unsaved edits), Txt # b");
}

#[test]
fn replace_confirm_walks_matches_and_undoes_as_one_step() {
    let f = Fixture::new();
    f.write("a.py", "a = 1\nb = a + a\nc = a\n");
    f.check(
        "u",
        r#"
        > Start s; Open a.py
        Ok
        Ok, At 0:0, Length 3
        > Replace Confirm /\ba\b/ With "alpha"
        Ok, At 0:0, Replace? (y/n)
        > y
        Ok, At 1:4, Replace? (y/n)
        > n
        Ok, At 1:8, Replace? (y/n)
        > y
        Ok, At 2:4, Replace? (y/n)
        > q
        Ok, Replaced 2 occurrences, At 2:4
        > Undo
        Ok, Undid 1, At 0:0
        > Show Block 0:2
        Ok: At 0:0, Txt a = 1\nb = a + a\nc = a
        "#,
    );
}

#[test]
fn refuses_no_op_replacements_and_reports_regex_errors() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.check(
        "u",
        r#"
        > Start s; Open a.py
        Ok
        Ok, At 0:0, Length 1
        > Replace /x/ With "x"
        Fail "Replacement equals the matched text 'x': nothing to change"
        > Find /x(/
        Fail "Invalid regex /x(/: unclosed group"
        > Replace All /(\w) = (\d)/ With "$2 = $1"
        Ok, Replaced 1 occurrence, Now invalid Python (1 syntax error): 0:2 unexpected '=', At 0:0
        > Show Line 0
        Ok: At 0:0, Txt 1 = x
        "#,
    );
}

#[test]
fn bookmarks_follow_edits_above_them() {
    let f = Fixture::new();
    f.write("a.py", "a\nb\nc\n");
    f.check(
        "u",
        r#"
        > Start s; Open a.py; Bookmark here 2:0
        Ok
        Ok, At 0:0, Length 3
        Ok, Bookmark here at 2:0
        > Insert Line "new"
        Ok, Inserted 1 line at 0, At 1:0
        > Goto here
        Ok, At 3:0
        > Goto EndOfFle
        Fail "Unknown Goto target 'EndOfFle'. Did you mean: EndOfFile, EndOfLine, EndOfClass? Bookmarks: here. Targets: <line>:<col>, <line>, StartOfFile, EndOfFile, StartOfLine, EndOfLine, StartOfFunction, EndOfFunction, StartOfClass, EndOfClass, Function <f>, Class <C>, Method <C>.<m>, Variable <v>"
        > Goto nowhere
        Fail "Unknown Goto target 'nowhere'. Bookmarks: here. Targets: <line>:<col>, <line>, StartOfFile, EndOfFile, StartOfLine, EndOfLine, StartOfFunction, EndOfFunction, StartOfClass, EndOfClass, Function <f>, Class <C>, Method <C>.<m>, Variable <v>"
        "#,
    );
}

#[test]
fn retried_request_ids_are_answered_once() {
    let f = Fixture::new();
    f.send("u", "Start s; Open Create a.py");
    let request = Request {
        sender: "u",
        text: "Insert Line \"x\"",
        id: Some("m1"),
    };
    let first = f.engine.execute(&request);
    let again = f.engine.execute(&request);
    assert_eq!(first.text, again.text);
    assert!(again.duplicate && !first.duplicate);
    assert_eq!(f.send("u", "Show Block 0:1"), r"Ok: At 0:0, Txt x\n");
}

#[test]
fn sessions_survive_a_restart_with_unsaved_edits() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.send(
        "u",
        "Start s; Open a.py; Insert Line \"y = 2\"; Goto 1:3; Bookmark b 0:1",
    );
    let f = f.restart();
    let engine = &f.engine;
    let send = |text: &str| {
        engine
            .execute(&Request {
                sender: "u",
                text,
                id: None,
            })
            .text
    };
    assert_eq!(send("Status"), "Ok: Session s, File a.py, At 1:3, Modified");
    assert_eq!(send("Show Block 0:1"), r"Ok: At 0:0, Txt y = 2\nx = 1");
    assert_eq!(send("Undo"), "Ok, Undid 1, At 0:0");
    assert_eq!(send("Goto b"), "Ok, At 0:0");
}

#[test]
fn json_mode_carries_the_same_facts() {
    let f = Fixture::new();
    f.send("u", "Start s; Set Format json");
    assert_eq!(
        f.send("u", "Open Create a.py"),
        r#"{"at":{"col":0,"line":0},"length":0,"ok":true}"#
    );
    assert_eq!(
        f.send("u", "Goto 9:0"),
        r#"{"error":"Line 9 out of range: valid lines are 0..0","failure":{"candidates":[],"code":"out_of_range","message":"Line 9 out of range: valid lines are 0..0"},"ok":false}"#
    );
}

#[test]
fn paths_never_escape_the_workspace() {
    let f = Fixture::new();
    f.check(
        "u",
        r#"
        > Start s
        Ok
        > Open ../etc/passwd
        Fail "Path escapes the workspace: ../etc/passwd"
        > Open /etc/passwd
        Fail "Path escapes the workspace: /etc/passwd"
        "#,
    );
}

const SHAPES: &str = "import os


class Shape:
    def area(self):
        return 0

    def describe(self):
        return f\"{self.area()}\"


def total(shapes):
    return sum(s.area() for s in shapes if s)
";

#[test]
fn code_targets_show_goto_modify_delete_and_analyze() {
    let f = Fixture::new();
    f.write("shapes.py", SHAPES);
    f.check(
        "u",
        r#"
        > Start s; Open shapes.py
        Ok
        Ok, At 0:0, Length 13
        > Show Method Shape.area
        Ok: At 4:4, Txt def area(self):\n        return 0
        > Goto EndOfFunction
        Ok, At 6:0
        > Goto StartOfClass
        Ok, At 3:0
        > Goto Function totl
        Fail "Not found: function 'totl'. Available: total, area, describe"
        > Analyze Function total Complexity
        Ok: Function total has complexity 3
        > Analyze Class Shape Structure
        Ok: Class Shape: method area at 4:4, method describe at 7:4
        > Modify Method Shape.area Rename surface
        Ok, Modified method Shape.area (2 edits), At 4:4
        > Show Line 8
        Ok: At 8:0, Txt         return f"{self.surface()}"
        > Delete Function total
        Ok, Deleted 4 lines at 9, At 9:0
        > Diff
        Ok: +2 -6 lines, 1 method renamed (Shape.area -> Shape.surface), 1 class modified (Shape), 1 method modified (Shape.describe), 1 function deleted (total), Txt --- a/shapes.py\n+++ b/shapes.py\n@@ -2,12 +2,8 @@\n \n \n class Shape:\n-    def area(self):\n+    def surface(self):\n         return 0\n \n     def describe(self):\n-        return f"{self.area()}"\n-\n-\n-def total(shapes):\n-    return sum(s.area() for s in shapes if s)\n+        return f"{self.surface()}"
        > Undo 2
        Ok, Undid 2, At 3:0
        > Open Create notes.txt
        Ok, At 0:0, Length 0
        > Show Function f
        Fail "notes.txt is in no language Eddi knows: code commands work on Python (.py, .pyi, .pyw), JavaScript (.js, .mjs, .cjs, .jsx), TypeScript (.ts, .mts, .cts), TSX (.tsx), Go (.go), Rust (.rs), Java (.java), JSON (.json) files, and on scripts whose #! line names one"
        "#,
    );
}

#[test]
fn senders_run_in_parallel_without_cross_talk() {
    let f = Fixture::new();
    std::thread::scope(|scope| {
        for n in 0..8 {
            let f = &f;
            scope.spawn(move || {
                let sender = format!("agent{n}");
                let reply = f.send(&sender, &format!("Start s{n}; Open Create f{n}.txt"));
                assert_eq!(reply, "Ok\nOk, At 0:0, Length 0");
                for i in 0..100 {
                    let goto = f.send(&sender, &format!("Goto {i}"));
                    assert_eq!(goto, format!("Ok, At {i}:0"));
                    let reply = f.send(&sender, &format!("Insert Line \"line {i} of {n}\""));
                    assert_eq!(reply, format!("Ok, Inserted 1 line at {i}, At {}:0", i + 1));
                }
                assert!(f.send(&sender, "Save").starts_with("Ok, Bytes "));
            });
        }
    });
    for n in 0..8 {
        let expected: String = (0..100).map(|i| format!("line {i} of {n}\n")).collect();
        assert_eq!(f.read(&format!("f{n}.txt")), expected);
    }
}

#[test]
fn analyze_validate_and_save_report_code_problems() {
    let f = Fixture::new();
    f.write("m.py", "import os\nimport json\n\n\ndef load(path, cache=[]):\n    try:\n        return json.loads(open(path).read())\n    except:\n        return None\n");
    f.check(
        "u",
        r#"
        > Start s; Open m.py
        Ok
        Ok, At 0:0, Length 9
        > Analyze Function load
        Ok: Function load has complexity 2, uses 1 external dependency, 2 potential issues found
        > Analyze Function load Dependencies
        Ok: Function load uses 1 external dependency: json; builtins: open
        > Analyze File Issues
        Ok: 3 potential issues: 0:7 unused import 'os', 4:15 mutable default argument 'cache=[]', 7:4 bare 'except:'
        > Validate
        Ok: No syntax errors
        > Goto 4:0
        Ok, At 4:0
        > Insert Line "def broken(:"
        Ok, Inserted 1 line at 4, Now invalid Python (1 syntax error): 4:11 missing ')', At 5:0
        > Validate
        Ok: 1 syntax error: 4:11 missing ')'
        > Save
        Ok, Bytes 149, 1 syntax error at 4:11
        "#,
    );
}

#[test]
fn imports_comments_signatures_and_format() {
    let f = Fixture::new();
    f.write(
        "svc.py",
        "from os import path\n\n\ndef run(a,b):\n    return path.join(a,b)\n",
    );
    f.check(
        "u",
        r#"
        > Start s; Open svc.py
        Ok
        Ok, At 0:0, Length 5
        > Insert Import "from os import sep"
        Ok, Merged into line 0, At 0:0
        > Insert Import "from os import sep"
        Ok, Nothing inserted: already imported, At 0:0
        > Modify Function run AddParam "c=None"
        Ok, Modified function run (1 edit), At 3:0
        > Comment Function run "Join two parts." Docstring
        Ok, Docstring added to function run, At 4:4
        > Format
        Ok, Formatted, 6 -> 6 lines, At 4:4
        > Show Function run
        Ok: At 3:0, Txt def run(a, b, c=None):\n    """Join two parts."""\n    return path.join(a, b)
        > Show Line 0
        Ok: At 0:0, Txt from os import path, sep
        "#,
    );
}

#[test]
fn find_queries_the_project_index_with_the_senders_unsaved_edits() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write("pkg/auth.py", "def login(user):\n    return user\n");
    f.write(
        "pkg/cli.py",
        "from pkg.auth import login\n\n\ndef main():\n    login('a')\n    return login\n",
    );
    f.check(
        "a",
        r#"
        > Start sa
        Ok
        > Find Definition login
        Ok: Found 1 definition, with lines, Txt pkg/auth.py:0:0 function pkg.auth.login: def login(user):
        > Find References pkg.auth.login
        Ok: Found 3 references, with lines, Txt pkg/cli.py:0:21: from pkg.auth import login\npkg/cli.py:4:4: login('a')\npkg/cli.py:5:11: return login
        > Find Callers login()
        Ok: Found 1 caller, with lines, Txt pkg/cli.py:4:4 in pkg.cli.main: login('a')
        > Find References logn
        Fail "Not found: symbol 'logn'. Closest: login"
        > Open pkg/cli.py; Goto 5; Insert Line "    login('b')"
        Ok, At 0:0, Length 6
        Ok, At 5:0
        Ok, Inserted 1 line at 5, At 6:0
        > Find Callers login
        Ok: Found 2 callers, with lines, Txt pkg/cli.py:4:4 in pkg.cli.main: login('a')\npkg/cli.py:5:4 in pkg.cli.main: login('b')
        "#,
    );
    // Another session sees the files as they are on disk, not a's buffer.
    f.check(
        "b",
        "> Start sb; Find Callers login\nOk\nOk: Found 1 caller, with lines, Txt pkg/cli.py:4:4 in pkg.cli.main: login('a')",
    );
    // A file written by another program is seen by the next query.
    f.write("pkg/extra.py", "from pkg.auth import login\nlogin(1)\n");
    std::thread::sleep(super::query::REFRESH_EVERY);
    f.check("b", "> Find Callers login\nOk: Found 2 callers, with lines, Txt pkg/cli.py:4:4 in pkg.cli.main: login('a')\\npkg/extra.py:1:0 in <module>: login(1)");
}

#[test]
fn analyze_file_dependencies_names_the_importers() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write(
        "pkg/auth.py",
        "import os\n\n\ndef login(user):\n    return os.getenv(user)\n",
    );
    f.write("pkg/cli.py", "from pkg.auth import login\n");
    f.check(
        "a",
        r#"
        > Start s; Open pkg/auth.py; Analyze File Dependencies
        Ok
        Ok, At 0:0, Length 5
        Ok: File uses 1 external dependency: os, imported by pkg.cli
        "#,
    );
}

#[test]
fn only_cursor_moves_and_reads_are_quick() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.send("u", "Start s; Open a.py");
    let quick = |text: &str| f.engine.is_quick("u", text);
    assert!(quick("Goto 0:1; Show Line 0; Status; Bookmark b"));
    assert!(!quick("Goto 0:1; Insert Line \"y\""), "an edit fsyncs");
    assert!(!quick("Show Function f"), "code targets parse the file");
    assert!(!quick("Find \"x\""), "a search scans the file");
    assert!(!quick("Gotoo 1"), "what does not parse goes the usual way");
    f.send("u", "Replace Confirm \"x\" With \"z\"");
    assert!(!quick("y"), "an answer to a pending Replace Confirm edits");
    // decided on the text alone (the turn locks the session, not this):
    // a move ends the walk, which neither edits nor fsyncs
    assert!(quick("Goto 0:0"));
    assert_eq!(
        f.send("u", "Goto 0:0"),
        "Ok, At 0:0, Notice: Replace Confirm ended after 0 replacements"
    );
}

#[test]
fn reads_and_moves_in_the_sessions_buffers_are_light() {
    let f = Fixture::new();
    f.write("a.py", "def f():\n    return 1\n");
    f.send("u", "Start s; Open a.py");
    let light = |text: &str| f.engine.prepare("u", text).is_light();
    for text in [
        "Goto 0:1; Show Line 0; Status",
        "Find \"x\"",
        "Show Function f",
        "Goto Function f",
        "Analyze Function f Complexity",
        "Open a.py",
        "List Open",
    ] {
        assert!(light(text), "{text}");
    }
    for text in [
        "Insert Line \"y\"",
        "Goto 0:1; Insert Line \"y\"",
        "Save",
        "Undo",
        "Start t",
        "Find References f",
        "Show Function a.f",
        "Find All \"x\" In Files \"*.py\"",
        "Refactor RenameSymbol f g",
        "List",
        "Gotoo 1",
    ] {
        assert!(!light(text), "{text}");
    }
}

// One file of conversations per topic, so work on different topics never
// touches the same file.
/// Asserts that a JSON reply is what `protocol/schemas/reply.json` says.
fn assert_reply_schema(reply: &serde_json::Value) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../protocol/schemas/reply.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(reply)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{reply}: {errors:?}");
}

mod analysis_checks;
mod code_addressing;
mod commit;
mod door;
mod drafts;
mod faults;
mod index_braces;
mod index_resolvers;
mod languages;
mod operations;
mod policy;
mod refactor;
mod refactor_braces;
mod rename_braces;
mod replace_files;
mod replies;
mod security;
mod sessions;
mod spine;
mod state;
mod text_edits;

#[test]
fn a_decorator_application_is_a_call() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write(
        "pkg/utils.py",
        "def pass_context(f):\n    return f\n\n\ndef cached(size):\n    return pass_context\n",
    );
    f.write(
        "pkg/filters.py",
        "from pkg import utils\nfrom pkg.utils import cached, pass_context\n\n\n@pass_context\ndef upper(ctx, s):\n    return s\n\n\nclass Env:\n    @utils.pass_context\n    def call(self, ctx):\n        return pass_context\n\n\n@cached(10)\ndef lower(s):\n    return s\n",
    );
    f.check(
        "a",
        r#"
        > Start sa
        Ok
        > Find Callers pkg.utils.pass_context
        Ok: Found 2 callers, with lines, Txt pkg/filters.py:4:1 in <module>: @pass_context\npkg/filters.py:10:11 in pkg.filters.Env: @utils.pass_context
        > Find Callers pkg.utils.cached
        Ok: Found 1 caller, with lines, Txt pkg/filters.py:15:1 in <module>: @cached(10)
        "#,
    );
}

#[test]
fn a_code_command_on_a_file_that_is_not_python_says_so() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write(
        "pkg/auth.py",
        "limit = 3\n\n\ndef login(user):\n    return user\n",
    );
    f.write("app.rb", "def render(x) x end\n");
    let not_python = "app.rb is in no language Eddi knows: code commands work on Python (.py, .pyi, .pyw), JavaScript (.js, .mjs, .cjs, .jsx), TypeScript (.ts, .mts, .cts), TSX (.tsx), Go (.go), Rust (.rs), Java (.java), JSON (.json) files, and on scripts whose #! line names one";
    f.check(
        "a",
        &format!(
            r#"
        > Start sa; Open app.rb
        Ok
        Ok, At 0:0, Length 1
        > Find References render
        Fail "{not_python}; in the project's Python, JavaScript, TypeScript, TSX, Go, Rust, Java files: Not found: symbol 'render'. No similar name in the index"
        > Find Callers render
        Fail "{not_python}; in the project's Python, JavaScript, TypeScript, TSX, Go, Rust, Java files: Not found: symbol 'render'. No similar name in the index"
        > Refactor RenameSymbol render draw
        Fail "{not_python}; in the project's Python, JavaScript, TypeScript, TSX, Go, Rust, Java files: Not found: symbol 'render'. No similar name in the index"
        > Refactor InlineFunction render
        Fail "{not_python}; in the project's Python files: Not found: symbol 'render'. No similar name in the index"
        > Preview Refactor Inline_Variable x
        Fail "{not_python}"
        > Refactor Extract_Method helper lines 0:0
        Fail "{not_python}"
        > Refactor ExtractFunction helper lines 0:0
        Fail "{not_python}"
        > Find References pkg.auth.login
        Ok: Found 0 references
        "#
        ),
    );
}

#[test]
fn a_latin1_python_file_is_edited_indexed_and_saved_in_latin1() {
    let f = Fixture::new();
    let path = f.dir.path().join("legacy.py");
    std::fs::write(
        &path,
        b"# -*- coding: latin-1 -*-\ndef caf\xe9_name():\n    return 'caf\xe9'\n",
    )
    .unwrap();
    f.check(
        "a",
        r#"
        > Start sa; Open legacy.py
        Ok
        Ok, At 0:0, Length 3
        > Find Definition café_name
        Ok: Found 1 definition, with lines, Txt legacy.py:1:0 function legacy.café_name: def café_name():
        > Replace All "'café'" With "'cafüé'"; Save
        Ok, Replaced 1 occurrence, At 0:0
        Ok, Bytes 62
        > Replace All "ü" With "€"; Save
        Ok, Replaced 1 occurrence, At 0:0
        Fail "legacy.py declares 'coding: latin-1', which cannot represent '€' (U+20AC) at 2:15: write it as an escape (\\u20ac in a string) or change the coding line; nothing was written"
        "#,
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"# -*- coding: latin-1 -*-\ndef caf\xe9_name():\n    return 'caf\xfc\xe9'\n"
    );
}
