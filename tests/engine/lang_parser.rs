//! Data-driven tests of the command language: every command form, the
//! message rules, every error family, a no-panic property, and the command
//! reference in `docs/COMMANDS.md` against the table.

use eddi::commands::help::{reference_markdown, COMMANDS};
use eddi::commands::*;
use eddi::edit::{LineRange, Position};
use proptest::prelude::*;

/// Checks each `(input, expected command)`; reports every mismatch at once.
fn check_ok(cases: &[(&str, Command)]) {
    let mut failures = Vec::new();
    for (input, expected) in cases {
        match parse_command(input) {
            Ok(got) if &got == expected => {}
            Ok(got) => failures.push(format!(
                "{input:?}\n  got      {got:?}\n  expected {expected:?}"
            )),
            Err(e) => failures.push(format!("{input:?}\n  failed: {e}\n  expected {expected:?}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Checks each `(input, expected error message prefix)`.
fn check_err(cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (input, expected) in cases {
        match parse_command(input) {
            Ok(got) => failures.push(format!(
                "{input:?}\n  parsed as {got:?}\n  expected error {expected:?}"
            )),
            Err(e) if e.message.starts_with(expected) => {
                if e.message.contains('\n') {
                    failures.push(format!("{input:?}: raw newline in {:?}", e.message));
                }
            }
            Err(e) => failures.push(format!(
                "{input:?}\n  got      {:?}\n  expected {expected:?}",
                e.message
            )),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn s(text: &str) -> String {
    text.to_string()
}

fn func(name: &str, params: Option<&str>) -> CodeTarget {
    CodeTarget::Function {
        name: s(name),
        params: params.map(s),
    }
}

fn class(name: &str) -> CodeTarget {
    CodeTarget::Class { name: s(name) }
}

fn method(class: &str, name: &str) -> CodeTarget {
    CodeTarget::Method {
        class: s(class),
        name: s(name),
        params: None,
    }
}

fn var(name: &str) -> CodeTarget {
    CodeTarget::Variable { name: s(name) }
}

fn usage(name: &str) -> &'static str {
    help::lookup(name).unwrap().usage
}

#[test]
fn session_commands() {
    check_ok(&[
        (
            "Start refactor_session \"Refactoring user authentication module\"",
            Command::Start {
                name: s("refactor_session"),
                description: Some(s("Refactoring user authentication module")),
            },
        ),
        (
            "Start s-1.2_x",
            Command::Start {
                name: s("s-1.2_x"),
                description: None,
            },
        ),
        (
            "End",
            Command::End {
                name: None,
                force: false,
            },
        ),
        (
            "End refactor_session",
            Command::End {
                name: Some(s("refactor_session")),
                force: false,
            },
        ),
        (
            "End abandoned Force",
            Command::End {
                name: Some(s("abandoned")),
                force: true,
            },
        ),
        ("List Sessions", Command::ListSessions),
        ("Summary", Command::Summary { name: None }),
        (
            "Summary s1",
            Command::Summary {
                name: Some(s("s1")),
            },
        ),
        ("Status", Command::Status),
        (
            "Set Format json",
            Command::Set {
                option: SessionOption::ResponseFormat(ResponseFormat::Json),
            },
        ),
        (
            "set format TERSE",
            Command::Set {
                option: SessionOption::ResponseFormat(ResponseFormat::Terse),
            },
        ),
        (
            "Set Limit 4000",
            Command::Set {
                option: SessionOption::OutputLimit(4000),
            },
        ),
        ("Push Context", Command::PushContext),
        ("pop context", Command::PopContext),
    ]);
}

#[test]
fn file_commands() {
    let open = |create, path: &str| Command::Open {
        create,
        path: s(path),
    };
    check_ok(&[
        (
            "Open Create src/auth user_manager.py",
            open(true, "src/auth/user_manager.py"),
        ),
        (
            "Open Create src/auth/ user_manager.py",
            open(true, "src/auth/user_manager.py"),
        ),
        (
            "Open src/auth/user_manager.py",
            open(false, "src/auth/user_manager.py"),
        ),
        ("open create x.py", open(true, "x.py")),
        ("Open create.py", open(false, "create.py")),
        ("Open \"my notes.txt\"", open(false, "my notes.txt")),
        ("Open \"Create\"", open(false, "Create")),
        (
            "Open docs \"my notes.txt\"",
            open(false, "docs/my notes.txt"),
        ),
        ("Open /abs/path/x.py", open(false, "/abs/path/x.py")),
        ("Open 2024", open(false, "2024")),
        (
            "Save",
            Command::Save {
                close: false,
                force: false,
                path: None,
            },
        ),
        (
            "Save Close user_manager.py",
            Command::Save {
                close: true,
                force: false,
                path: Some(s("user_manager.py")),
            },
        ),
        (
            "Save Force",
            Command::Save {
                close: false,
                force: true,
                path: None,
            },
        ),
        (
            "save force close",
            Command::Save {
                close: true,
                force: true,
                path: None,
            },
        ),
        (
            "Save Close Force a/b.py",
            Command::Save {
                close: true,
                force: true,
                path: Some(s("a/b.py")),
            },
        ),
        ("Close", Command::Close { path: None }),
        (
            "Close x.py",
            Command::Close {
                path: Some(s("x.py")),
            },
        ),
        (
            "List",
            Command::List {
                open_only: false,
                pattern: None,
            },
        ),
        (
            "List Open",
            Command::List {
                open_only: true,
                pattern: None,
            },
        ),
        (
            "List **/*.py",
            Command::List {
                open_only: false,
                pattern: Some(s("**/*.py")),
            },
        ),
        (
            "List open src/*.py",
            Command::List {
                open_only: true,
                pattern: Some(s("src/*.py")),
            },
        ),
        ("Diff", Command::Diff { path: None }),
        (
            "Diff src/x.py",
            Command::Diff {
                path: Some(s("src/x.py")),
            },
        ),
    ]);
}

#[test]
fn goto_targets() {
    let goto = Command::Goto;
    check_ok(&[
        (
            "Goto 12:4",
            goto(GotoTarget::Position(Position::new(12, 4))),
        ),
        ("Goto 12", goto(GotoTarget::Line(12))),
        ("Goto 0", goto(GotoTarget::Line(0))),
        ("Goto StartOfFile", goto(GotoTarget::StartOfFile)),
        ("goto endoffile", goto(GotoTarget::EndOfFile)),
        ("Goto StartOfLine", goto(GotoTarget::StartOfLine)),
        ("Goto EndOfLine", goto(GotoTarget::EndOfLine)),
        ("Goto StartOfFunction", goto(GotoTarget::StartOfFunction)),
        ("Goto EndOfFunction", goto(GotoTarget::EndOfFunction)),
        ("Goto StartOfClass", goto(GotoTarget::StartOfClass)),
        ("GOTO ENDOFCLASS", goto(GotoTarget::EndOfClass)),
        (
            "Goto Function login",
            goto(GotoTarget::Code(func("login", None))),
        ),
        (
            "Goto Function __init__()",
            goto(GotoTarget::Code(func("__init__", Some("")))),
        ),
        (
            "Goto Class UserManager",
            goto(GotoTarget::Code(class("UserManager"))),
        ),
        (
            "Goto Method UserManager.authenticate",
            goto(GotoTarget::Code(method("UserManager", "authenticate"))),
        ),
        (
            "Goto Method a.B.c",
            goto(GotoTarget::Code(method("a.B", "c"))),
        ),
        ("Goto mark1", goto(GotoTarget::Bookmark(s("mark1")))),
        ("Goto Mark-1.x", goto(GotoTarget::Bookmark(s("Mark-1.x")))),
    ]);
}

#[test]
fn find_and_replace() {
    let find = |direction, pattern| Command::Find { direction, pattern };
    let text = |t: &str| Pattern::Text(s(t));
    let re = |t: &str| Pattern::Regex(s(t));
    check_ok(&[
        (
            "Find \"self.users\"",
            find(FindDirection::Next, text("self.users")),
        ),
        ("Find Next \"x\"", find(FindDirection::Next, text("x"))),
        ("Find Prev \"x\"", find(FindDirection::Prev, text("x"))),
        ("find all \"a; b\"", find(FindDirection::All, text("a; b"))),
        (
            "Find authenticate",
            find(FindDirection::Next, text("authenticate")),
        ),
        ("Find /def \\w+/", find(FindDirection::Next, re(r"def \w+"))),
        ("Find All /a\\/b/", find(FindDirection::All, re("a/b"))),
        ("Find Prev /x;y/", find(FindDirection::Prev, re("x;y"))),
        ("Find \"Next\"", find(FindDirection::Next, text("Next"))),
        (
            "Find References UserManager.authenticate",
            Command::FindSymbol {
                kind: SymbolQuery::References,
                symbol: s("UserManager.authenticate"),
            },
        ),
        (
            "Find Definition pkg.mod.Class.m()",
            Command::FindSymbol {
                kind: SymbolQuery::Definition,
                symbol: s("pkg.mod.Class.m"),
            },
        ),
        (
            "Find Callers crate::util::Parser::parse",
            Command::FindSymbol {
                kind: SymbolQuery::Callers,
                symbol: s("util.Parser.parse"),
            },
        ),
        (
            "Show Method Either::flip",
            Command::Show {
                target: ShowTarget::Code(method("Either", "flip")),
                context: None,
            },
        ),
        (
            "find callers login",
            Command::FindSymbol {
                kind: SymbolQuery::Callers,
                symbol: s("login"),
            },
        ),
        (
            "Replace \"foo\" With \"bar\"",
            Command::Replace {
                mode: ReplaceMode::Next,
                pattern: text("foo"),
                replacement: s("bar"),
                scope: None,
            },
        ),
        (
            "Replace All /(\\w+)_id/ With \"${1}Id\"",
            Command::Replace {
                mode: ReplaceMode::All,
                pattern: re(r"(\w+)_id"),
                replacement: s("${1}Id"),
                scope: None,
            },
        ),
        (
            "replace confirm \"x\" with \"\"",
            Command::Replace {
                mode: ReplaceMode::Confirm,
                pattern: text("x"),
                replacement: s(""),
                scope: None,
            },
        ),
        (
            "Replace foo With bar",
            Command::Replace {
                mode: ReplaceMode::Next,
                pattern: text("foo"),
                replacement: s("bar"),
                scope: None,
            },
        ),
        (
            "Replace All \"a\" With \"b\" In Function f",
            Command::Replace {
                mode: ReplaceMode::All,
                pattern: text("a"),
                replacement: s("b"),
                scope: Some(Scope::Code(CodeTarget::Function {
                    name: s("f"),
                    params: None,
                })),
            },
        ),
        (
            "replace confirm /x/ with y in method C.m",
            Command::Replace {
                mode: ReplaceMode::Confirm,
                pattern: re("x"),
                replacement: s("y"),
                scope: Some(Scope::Code(CodeTarget::Method {
                    class: s("C"),
                    name: s("m"),
                    params: None,
                })),
            },
        ),
        (
            "Replace All /(\\d+)/ With \"<$1>\" In Block 3:9",
            Command::Replace {
                mode: ReplaceMode::All,
                pattern: re(r"(\d+)"),
                replacement: s("<$1>"),
                scope: Some(Scope::Block(LineRange::new(3, 9))),
            },
        ),
        (
            "Replace All \"old\" With \"new\" In Files \"*.py\"",
            Command::ReplaceInFiles {
                pattern: Pattern::Text(s("old")),
                replacement: s("new"),
                glob: s("*.py"),
                preview: false,
                diff: false,
            },
        ),
        (
            "Replace All /(\\w+)_id/ With \"${1}Id\" In Files \"src/**/*.py\"",
            Command::ReplaceInFiles {
                pattern: re(r"(\w+)_id"),
                replacement: s("${1}Id"),
                glob: s("src/**/*.py"),
                preview: false,
                diff: false,
            },
        ),
        (
            "Preview Replace All \"old\" With \"new\" In Files \"*\"",
            Command::ReplaceInFiles {
                pattern: Pattern::Text(s("old")),
                replacement: s("new"),
                glob: s("*"),
                preview: true,
                diff: false,
            },
        ),
        (
            "Preview Diff Replace All \"old\" With \"new\" In Files \"*\"",
            Command::ReplaceInFiles {
                pattern: Pattern::Text(s("old")),
                replacement: s("new"),
                glob: s("*"),
                preview: true,
                diff: true,
            },
        ),
        (
            "Bookmark mark1",
            Command::Bookmark {
                name: s("mark1"),
                at: None,
            },
        ),
        (
            "Bookmark init 1:4",
            Command::Bookmark {
                name: s("init"),
                at: Some(Position::new(1, 4)),
            },
        ),
    ]);
}

#[test]
fn inspection() {
    let show = |target, context| Command::Show { target, context };
    check_ok(&[
        ("Show Line 3", show(ShowTarget::Line(3), None)),
        ("Show Line 0 5", show(ShowTarget::Line(0), Some(5))),
        (
            "Show Block 0:9",
            show(ShowTarget::Block(LineRange::new(0, 9)), None),
        ),
        (
            "Show Block 4:4 0",
            show(ShowTarget::Block(LineRange::new(4, 4)), Some(0)),
        ),
        ("Show Current", show(ShowTarget::Current, None)),
        ("show current 2", show(ShowTarget::Current, Some(2))),
        (
            "Show Function __init__()",
            show(ShowTarget::Code(func("__init__", Some(""))), None),
        ),
        (
            "Show Function f(a, b=(1, 2)) 3",
            show(ShowTarget::Code(func("f", Some("a, b=(1, 2)"))), Some(3)),
        ),
        (
            "Show Function größe",
            show(ShowTarget::Code(func("größe", None)), None),
        ),
        (
            "Show Class UserManager",
            show(ShowTarget::Code(class("UserManager")), None),
        ),
        (
            "Show Method A.b 1",
            show(ShowTarget::Code(method("A", "b")), Some(1)),
        ),
        (
            "Show Method A.b()",
            show(
                ShowTarget::Code(CodeTarget::Method {
                    class: s("A"),
                    name: s("b"),
                    params: Some(String::new()),
                }),
                None,
            ),
        ),
        (
            "Show Method Text.get(key: str)",
            show(
                ShowTarget::Code(CodeTarget::Method {
                    class: s("Text"),
                    name: s("get"),
                    params: Some(s("key: str")),
                }),
                None,
            ),
        ),
        (
            "Show Method Text.plain.setter",
            show(ShowTarget::Code(method("Text.plain", "setter")), None),
        ),
        (
            "Show Function home#2",
            show(
                ShowTarget::Code(CodeTarget::Function {
                    name: s("home#2"),
                    params: None,
                }),
                None,
            ),
        ),
        (
            "Goto Variable Cart.add.price",
            Command::Goto(GotoTarget::Code(var("Cart.add.price"))),
        ),
        (
            "Show Variable users",
            show(ShowTarget::Code(var("users")), None),
        ),
        (
            "Analyze File",
            Command::Analyze {
                target: AnalyzeTarget::File,
                kind: None,
            },
        ),
        (
            "Analyze File Structure",
            Command::Analyze {
                target: AnalyzeTarget::File,
                kind: Some(AnalysisKind::Structure),
            },
        ),
        (
            "analyze function login complexity",
            Command::Analyze {
                target: AnalyzeTarget::Code(func("login", None)),
                kind: Some(AnalysisKind::Complexity),
            },
        ),
        (
            "Analyze Class A Dependencies",
            Command::Analyze {
                target: AnalyzeTarget::Code(class("A")),
                kind: Some(AnalysisKind::Dependencies),
            },
        ),
        (
            "Analyze Method A.b Issues",
            Command::Analyze {
                target: AnalyzeTarget::Code(method("A", "b")),
                kind: Some(AnalysisKind::Issues),
            },
        ),
        ("Validate", Command::Validate { target: None }),
        ("Validate File", Command::Validate { target: None }),
        (
            "Validate Class UserManager",
            Command::Validate {
                target: Some(class("UserManager")),
            },
        ),
        (
            "Validate Variable x",
            Command::Validate {
                target: Some(var("x")),
            },
        ),
    ]);
}

#[test]
fn modification() {
    let insert = |kind, text: &str| Command::Insert {
        kind,
        text: s(text),
    };
    let modify = |target, change| Command::Modify { target, change };
    check_ok(&[
        (
            "Insert Block \"class UserManager:\\n    def __init__(self):\\n        self.users = {}\\n\"",
            insert(
                InsertKind::Block,
                "class UserManager:\n    def __init__(self):\n        self.users = {}\n",
            ),
        ),
        ("Insert Line \"import os\"", insert(InsertKind::Line, "import os")),
        ("Insert Line \"import os\\n\"", insert(InsertKind::Line, "import os")),
        ("Insert Line \"\"", insert(InsertKind::Line, "")),
        ("insert block \"a\nb\"", insert(InsertKind::Block, "a\nb")),
        ("Insert Function \"def f():\\n\\tpass\"", insert(InsertKind::Function, "def f():\n\tpass")),
        ("Insert Method \"def m(self): pass\"", insert(InsertKind::Method, "def m(self): pass")),
        ("Insert Class \"class A: pass\"", insert(InsertKind::Class, "class A: pass")),
        ("Insert Import \"import re\"", insert(InsertKind::Import, "import re")),
        ("Insert Line \"say \\\"hi\\\" \\\\o/\"", insert(InsertKind::Line, "say \"hi\" \\o/")),
        ("Delete Line", Command::Delete(DeleteTarget::Lines { count: 1 })),
        ("Delete Line 3", Command::Delete(DeleteTarget::Lines { count: 3 })),
        ("Delete Block 4:9", Command::Delete(DeleteTarget::Block(LineRange::new(4, 9)))),
        ("Delete Current", Command::Delete(DeleteTarget::Current)),
        ("Delete Function f", Command::Delete(DeleteTarget::Code(func("f", None)))),
        ("Delete Method A.login", Command::Delete(DeleteTarget::Code(method("A", "login")))),
        ("Delete Class A", Command::Delete(DeleteTarget::Code(class("A")))),
        (
            "Modify Function login Rename sign_in",
            modify(func("login", None), Modification::Rename { new_name: s("sign_in") }),
        ),
        (
            "Modify Method A.f AddParam \"timeout=30\" At 1",
            modify(method("A", "f"), Modification::AddParam { param: s("timeout=30"), at: Some(1) }),
        ),
        (
            "modify function f addparam x",
            modify(func("f", None), Modification::AddParam { param: s("x"), at: None }),
        ),
        (
            "Modify Function f RemoveParam x",
            modify(func("f", None), Modification::RemoveParam { name: s("x") }),
        ),
        (
            "Modify Function f ChangeSignature \"a, b=2\"",
            modify(func("f", None), Modification::ChangeSignature { params: s("a, b=2") }),
        ),
        (
            "Modify Function f ChangeSignature (a, b)",
            modify(func("f", None), Modification::ChangeSignature { params: s("a, b") }),
        ),
        (
            "Modify Class A AddDecorator \"@dataclass\"",
            modify(class("A"), Modification::AddDecorator { decorator: s("@dataclass") }),
        ),
        (
            "Modify Function f AddDecorator @retry(3)",
            modify(func("f", None), Modification::AddDecorator { decorator: s("@retry(3)") }),
        ),
        (
            "Modify Variable x SetVisibility Private",
            modify(var("x"), Modification::SetVisibility { visibility: Visibility::Private }),
        ),
        (
            "Modify Method A.b SetVisibility protected",
            modify(method("A", "b"), Modification::SetVisibility { visibility: Visibility::Protected }),
        ),
        (
            "Modify Class A SetVisibility public",
            modify(class("A"), Modification::SetVisibility { visibility: Visibility::Public }),
        ),
        (
            "Comment Function login \"Checks the password\" Docstring",
            Command::Comment {
                target: func("login", None),
                text: s("Checks the password"),
                style: CommentStyle::Docstring,
                replace: false,
            },
        ),
        (
            "Comment Function get \"Fetch.\" Docstring Replace",
            Command::Comment {
                target: func("get", None),
                text: s("Fetch."),
                style: CommentStyle::Docstring,
                replace: true,
            },
        ),
        (
            "Comment Function get \"Fetch.\" Replace",
            Command::Comment {
                target: func("get", None),
                text: s("Fetch."),
                style: CommentStyle::Line,
                replace: true,
            },
        ),
        (
            "Comment Class A \"x\"",
            Command::Comment {
                target: class("A"),
                text: s("x"),
                style: CommentStyle::Line,
                replace: false,
            },
        ),
        (
            "comment method A.b \"x\" block",
            Command::Comment {
                target: method("A", "b"),
                text: s("x"),
                style: CommentStyle::Block,
                replace: false,
            },
        ),
        ("Format", Command::Format { target: None, style: None }),
        ("Format File black", Command::Format { target: None, style: Some(s("black")) }),
        ("Format black", Command::Format { target: None, style: Some(s("black")) }),
        (
            "Format Class UserManager pep8",
            Command::Format { target: Some(class("UserManager")), style: Some(s("pep8")) },
        ),
        ("Undo", Command::Undo { count: 1 }),
        ("Undo 3", Command::Undo { count: 3 }),
        ("Redo", Command::Redo { count: 1 }),
        ("redo 2", Command::Redo { count: 2 }),
        (
            "refactor rename_class UserManager AccountManager",
            Command::Refactor(Refactoring::Rename {
                kind: RenameKind::Class,
                symbol: s("UserManager"),
                new_name: s("AccountManager"),
                include_text: false,
                sites: SitePolicy::Refuse,
            }),
        ),
        (
            "Refactor renamesymbol pkg.mod.f() g include text",
            Command::Refactor(Refactoring::Rename {
                kind: RenameKind::Symbol,
                symbol: s("pkg.mod.f"),
                new_name: s("g"),
                include_text: true,
                sites: SitePolicy::Refuse,
            }),
        ),
        (
            "refactor signature authenticate(username) authenticate(username, timeout=30)",
            Command::Refactor(Refactoring::Signature {
                function: s("authenticate"),
                old_params: s("username"),
                new_params: s("username, timeout=30"),
                sites: SitePolicy::Refuse,
            }),
        ),
        (
            "Refactor Signature f(a, b) f(b, a) Only Proven",
            Command::Refactor(Refactoring::Signature {
                function: s("f"),
                old_params: s("a, b"),
                new_params: s("b, a"),
                sites: SitePolicy::OnlyProven,
            }),
        ),
        (
            "refactor change_signature A.f() f(x)",
            Command::Refactor(Refactoring::Signature {
                function: s("A.f"),
                old_params: s(""),
                new_params: s("x"),
                sites: SitePolicy::Refuse,
            }),
        ),
        (
            "Refactor Rename_Param connect timeout timeout_s",
            Command::Refactor(Refactoring::RenameParam {
                function: s("connect"),
                param: s("timeout"),
                new_name: s("timeout_s"),
                include_text: false,
                sites: SitePolicy::Refuse,
            }),
        ),
        (
            "Refactor Rename_Param connect timeout timeout_s Include Text",
            Command::Refactor(Refactoring::RenameParam {
                function: s("connect"),
                param: s("timeout"),
                new_name: s("timeout_s"),
                include_text: true,
                sites: SitePolicy::Refuse,
            }),
        ),
        (
            "refactor rename_param connect timeout timeout_s only proven include text",
            Command::Refactor(Refactoring::RenameParam {
                function: s("connect"),
                param: s("timeout"),
                new_name: s("timeout_s"),
                include_text: true,
                sites: SitePolicy::OnlyProven,
            }),
        ),
        (
            "refactor extract_method calculateTotal lines 45:52",
            Command::Refactor(Refactoring::Extract {
                kind: ExtractKind::Method,
                name: s("calculateTotal"),
                first_line: 45,
                last_line: 52,
            }),
        ),
        (
            "Refactor Extract_Function helper lines 3:3",
            Command::Refactor(Refactoring::Extract {
                kind: ExtractKind::Function,
                name: s("helper"),
                first_line: 3,
                last_line: 3,
            }),
        ),
        (
            "refactor inline_variable temp_result",
            Command::Refactor(Refactoring::Inline {
                kind: InlineKind::Variable,
                name: s("temp_result"),
            }),
        ),
        (
            "preview diff refactor inlinefunction util.double",
            Command::Preview {
                diff: true,
                refactoring: Refactoring::Inline {
                    kind: InlineKind::Function,
                    name: s("util.double"),
                },
            },
        ),
        ("apply", Command::Apply),
        ("Discard", Command::Discard),
        ("Set Preview on", Command::Set { option: SessionOption::Preview(true) }),
        ("Help", Command::Help { topic: None }),
        ("Help goto", Command::Help { topic: Some(s("Goto")) }),
        ("Help Push Context", Command::Help { topic: Some(s("Push")) }),
    ]);
}

#[test]
fn messages_split_into_statements() {
    let text = "Start s1\nOpen x.py; Insert Line \"a; b\"\n\n# a comment; not a command\n  Goto 3:0 ;; Find /x;y/\r\nInsert Block \"two\nlines\"; Status";
    let statements = parse_message(text);
    let texts: Vec<&str> = statements.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "Start s1",
            "Open x.py",
            "Insert Line \"a; b\"",
            "Goto 3:0",
            "Find /x;y/",
            "Insert Block \"two\nlines\"",
            "Status",
        ]
    );
    assert!(
        statements.iter().all(|s| s.parsed.is_ok()),
        "{statements:#?}"
    );
    // Spans are char offsets that select the text.
    for st in &statements {
        let chars: String = text
            .chars()
            .skip(st.span.start)
            .take(st.span.end - st.span.start)
            .collect();
        assert_eq!(chars, st.text);
    }
    assert!(parse_message("").is_empty());
    assert!(parse_message(" \n ;\n# only a comment\n").is_empty());
}

#[test]
fn the_spec_workflow_parses_as_one_message() {
    let message = "\u{feff}Start refactor_session \"Refactoring user authentication module\"
Open Create src/auth user_manager.py
Insert Block \"class UserManager:\\n    def __init__(self):\\n        self.users = {}\\n\"
Show Function __init__()
Goto EndOfClass
Insert Method \"    def authenticate(self, username, password):\\n        # TODO: Implement authentication\\n        return False\\n\"
Save Close user_manager.py
Summary refactor_session
End refactor_session
";
    let statements = parse_message(message);
    assert_eq!(statements.len(), 9);
    for st in &statements {
        assert!(st.parsed.is_ok(), "{:?}: {:?}", st.text, st.parsed);
    }
    assert_eq!(
        statements[1].parsed,
        Ok(Command::Open {
            create: true,
            path: s("src/auth/user_manager.py")
        })
    );
    assert_eq!(
        statements[5].parsed,
        Ok(Command::Insert {
            kind: InsertKind::Method,
            text: s("    def authenticate(self, username, password):\n        # TODO: Implement authentication\n        return False\n"),
        })
    );
}

#[test]
fn a_failing_statement_does_not_hide_earlier_ones() {
    let statements = parse_message("Goto 1; Opn x.py; Status");
    assert_eq!(statements.len(), 3);
    assert!(statements[0].parsed.is_ok());
    assert_eq!(
        statements[1].parsed.as_ref().unwrap_err().message,
        "Unknown command 'Opn'. Did you mean: Open?"
    );
    assert_eq!(statements[1].parsed.as_ref().unwrap_err().span.start, 8);
    assert!(statements[2].parsed.is_ok());

    // An unterminated string swallows the rest of the message.
    let statements = parse_message("Status\nInsert Line \"abc; Goto 1\nStatus");
    assert_eq!(statements.len(), 2);
    assert_eq!(
        statements[1].parsed.as_ref().unwrap_err().message,
        "Unterminated string starting at 2:13; close it with \""
    );
}

#[test]
fn parse_command_takes_exactly_one() {
    check_err(&[
        ("", "Empty command; Help lists the commands"),
        ("  # just a comment", "Empty command"),
        (
            "Status; Status",
            "Expected one command, found a second: 'Status'",
        ),
    ]);
}

#[test]
fn unknown_commands_and_keywords_suggest() {
    check_err(&[
        ("Opn x.py", "Unknown command 'Opn'. Did you mean: Open?"),
        ("gtoo 5", "Unknown command 'gtoo'. Did you mean: Goto?"),
        ("Xyzzy", "Unknown command 'Xyzzy'. Commands: Start, End, Summary"),
        ("\"Open\" x", "Expected a command name, found '\"Open\"'"),
        ("42", "Expected a command name, found '42'"),
        ("Help Opn", "Unknown command 'Opn'. Did you mean: Open?"),
        (
            "Show Funtion f",
            "Unknown Show target 'Funtion'. Did you mean: Function? Valid: Line, Block, Current, Function, Class, Method, Variable",
        ),
        ("Insert Blok \"x\"", "Unknown Insert kind 'Blok'. Did you mean: Block? Valid: Line, Block"),
        ("Delete Lines 2", "Unknown Delete target 'Lines'. Did you mean: Line?"),
        ("Modify Function f Renam g", "Unknown Modify change 'Renam'. Did you mean: Rename?"),
        ("Modify Function f SetVisibility open", "Unknown visibility 'open'. Valid: public, protected, private"),
        ("Analyze File Complex", "Unknown analysis kind 'Complex'. Did you mean: Complexity?"),
        ("Set Format xml", "Unknown format 'xml'. Valid: terse, json"),
        ("Set Colour red", "Unknown Set option 'Colour'. Valid: Format, Limit"),
        ("Comment Class A \"x\" Inline", "Unknown comment style 'Inline'. Did you mean: Line? Valid: Line, Block, Docstring, Replace"),
        ("Refactor Renam f g", "Unknown refactoring 'Renam'. Did you mean: RenameSymbol, Rename_Class, Rename_Param? Valid: "),
        ("Refactor Signature f(a) g(a)", "The new signature names g, not f: Signature keeps the name"),
        ("Refactor Signature f g(a)", "Expected the current parameters right after the name, as f(a, b)"),
        ("Refactor Extract_Method m 3:4", "Expected 'lines' and a range (lines 45:52), found '3:4'"),
        ("Refactor Extract_Method m lines 5:4", "Block start 5 is after its end 4"),
        ("Refactor RenameSymbol f 9g", "Expected the new name (an identifier), found '9g'"),
        ("Preview Rename f g", "Expected 'Refactor' or 'Replace' (Preview [Diff] Refactor <kind> …, Preview [Diff] Replace All … In Files \"<glob>\"), found 'Rename'"),
        ("Set Preview maybe", "Unknown preview mode 'maybe'. Valid: on, off"),
    ]);
}

#[test]
fn missing_arguments_show_the_usage() {
    let with = |msg: &str, cmd: &str| format!("{msg}. Usage: {}", usage(cmd));
    let cases: Vec<(String, String)> = vec![
        (s("Open"), with("Missing file name", "Open")),
        (s("Open Create"), with("Missing file name", "Open")),
        (s("Open src/"), with("Missing file name after directory 'src/'", "Open")),
        (s("Open \"\""), with("Missing file name (the quotes are empty)", "Open")),
        (s("Open a b c"), with("Unexpected 'c' (quote text that has spaces)", "Open")),
        (s("Start"), with("Missing session name", "Start")),
        (s("Push"), with("Missing 'Context'", "Push")),
        (s("Pop Stack"), with("Expected 'Context', found 'Stack'", "Pop")),
        (s("Goto"), with("Missing target: a position like 12:4, a line, a keyword or a bookmark", "Goto")),
        (s("Find"), with("Missing a search text \"<text>\" or /<regex>/", "Find")),
        (s("Find All"), with("Missing a search text \"<text>\" or /<regex>/", "Find")),
        (s("Find \"\""), with("Empty search text", "Find")),
        (s("Find References"), with("Missing a symbol like name, Class.method or pkg.mod.func", "Find")),
        (s("Find foo bar"), with("Unexpected 'bar' (quote text that has spaces)", "Find")),
        (s("Replace \"a\""), with("Missing 'With \"<text>\"'", "Replace")),
        (s("Replace \"a\" With"), with("Missing the replacement \"<text>\"", "Replace")),
        (s("Replace \"a\" With \"a\""), with("Replacement equals the search text; nothing would change", "Replace")),
        (s("Replace All \"a\" With \"b\" In Loop"), "Unknown Replace scope 'Loop'. Valid: Function, Method, Class, Variable, Block, Files".to_string()),
        (s("Replace \"a\" With \"b\" In Files \"*.py\""), with("'In Files' replaces every match: write Replace All \"<text>\" With \"<text>\" In Files \"<glob>\"", "Replace")),
        (s("Replace All \"a\" With \"b\" In Files"), with("Missing a glob like \"*.py\" or \"src/**/*.py\"", "Replace")),
        (s("Replace All \"a\" With \"b\" In Files \" \""), with("Empty glob: use \"*\" for every file", "Replace")),
        (s("Preview Replace All \"a\" With \"b\""), with("Preview Replace previews a workspace replacement: Preview Replace All \"<text>\" With \"<text>\" In Files \"<glob>\"", "Preview")),
        (s("Replace All \"a\" With \"b\" In Block 9:3"), with("Block start 9 is after its end 3", "Replace")),
        (s("Replace All /cost/ With \"$costs\""), "Unknown group '$costs' in the replacement \"$costs\": the regex has no groups besides $0 (the whole match). Write $$ for a literal $ (\"$$costs\"); a group is ${1} or ${name}".to_string()),
        (s("Show"), with("Missing Show target (Line, Block, Current, Function, Class, Method, Variable)", "Show")),
        (s("Show Line"), with("Missing a line number", "Show")),
        (s("Show Block 9:3"), with("Block start 9 is after its end 3", "Show")),
        (s("Show Block 3"), with("Expected a line range like 3:9, found '3'", "Show")),
        (s("Show Method foo"), with("Expected a method as Class.method, found 'foo'", "Show")),
        (s("Show Class"), with("Missing a class name", "Show")),
        (s("Insert Line"), with("Missing the text to insert in quotes \"...\"", "Insert")),
        (s("Insert Line foo"), with("Expected the text to insert in quotes \"...\", found 'foo'", "Insert")),
        (s("Insert Block \"\""), with("Nothing to insert: the text is empty", "Insert")),
        (s("Insert Line \"a\\nb\""), with("Insert Line takes one line; use Insert Block for several", "Insert")),
        (s("Delete Line 0"), with("Count must be at least 1, found 0", "Delete")),
        (s("Undo 0"), with("Count must be at least 1, found 0", "Undo")),
        (s("Undo x"), with("Unexpected 'x'", "Undo")),
        (s("Set Limit 0"), with("Limit must be at least 1, found 0", "Set")),
        (s("Set Limit"), with("Missing a limit in chars", "Set")),
        (s("Modify Function f"), with("Missing Modify change (Rename, AddParam, RemoveParam, ChangeSignature, AddDecorator, SetVisibility)", "Modify")),
        (s("Modify Function f Rename \"a b\""), with("Expected a new name, found '\"a b\"'", "Modify")),
        (s("Modify Function f AddParam x At"), with("Missing an index", "Modify")),
        (s("Comment Class A"), with("Missing a quoted comment \"<text>\"", "Comment")),
        (s("Comment Class A \" \""), with("Empty comment", "Comment")),
        (s("Status now"), with("Unexpected 'now'", "Status")),
        (s("Status # note"), with("Unexpected '#' (a # comment must start the command)", "Status")),
        (s("Find /a/i"), with("Unexpected 'i' (regex flags go inside the regex, as /(?i)text/)", "Find")),
        (s("Show Function f (a)"), with("Unexpected '(a)' (write parameters right after the name, as f(a, b))", "Show")),
        (s("Validate Current"), s("Unknown Validate target 'Current'. Valid: File, Function, Class, Method, Variable")),
        (s("Analyze Variable x"), s("Unknown Analyze target 'Variable'. Valid: File, Function, Class, Method")),
        (s("Show Class Foo(Base)"), with("Class takes no parameters: write Class Foo (the second of that name: Class Foo#2)", "Show")),
        (s("Start s1 description"), with("Expected a quoted description \"...\", found 'description'", "Start")),
    ];
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    check_err(&cases);
}

#[test]
fn bad_positions_names_and_numbers() {
    let huge = "99999999999999999999999999";
    let max = usize::MAX;
    let cases: Vec<(String, String)> = vec![
        (
            s("Goto \"x\""),
            s("Expected a position like 12:4 or a target (StartOfFile, EndOfFile, …), found '\"x\"'. Usage: Goto"),
        ),
        (s("Goto 1:2:3"), s("Expected a position like 12:4 or a target")),
        (s("Goto a/b"), s("Expected a position like 12:4 or a target (StartOfFile, EndOfFile, …), found 'a/b'")),
        (s("Goto Function"), s("Missing a function name")),
        (format!("Goto {huge}"), format!("Number '{huge}' is too large (max {max})")),
        (format!("Goto 1:{huge}"), format!("Number '{huge}' is too large (max {max})")),
        (format!("Undo {huge}"), format!("Number '{huge}' is too large")),
        (format!("Show Line {huge}"), format!("Number '{huge}' is too large")),
        (format!("Delete Block 0:{huge}"), format!("Number '{huge}' is too large")),
        (s("Start \"my session\""), s("Invalid session name 'my session': use 1-64 of A-Z a-z 0-9 _ . -")),
        (s("Start bad/name"), s("Invalid session name 'bad/name'")),
        (format!("Start {}", "a".repeat(65)), s("Invalid session name 'aaaa")),
        (s("End a:b"), s("Invalid session name 'a:b'")),
        (s("Bookmark 12"), s("Bookmark name '12' would read as a line number; include a letter")),
        (s("Bookmark endoffile"), s("Bookmark name 'endoffile' is the Goto keyword EndOfFile; choose another")),
        (s("Bookmark a b"), s("Unexpected 'b'")),
        (s("Bookmark"), s("Missing bookmark name")),
        (s("Find /(/"), s("Invalid regex /(/: unclosed group")),
        (s("Find //"), s("Empty regex")),
    ];
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    check_err(&cases);
    // Exactly 64 chars is fine.
    assert!(parse_command(&format!("Start {}", "a".repeat(64))).is_ok());
}

#[test]
fn lexical_errors_name_the_position() {
    check_err(&[
        (
            "Insert Line \"abc",
            "Unterminated string starting at 1:13; close it with \"",
        ),
        (
            "Insert Line \"a\\qb\"",
            "Unknown escape '\\q' in string at 1:15; valid escapes are \\n \\t \\\" \\\\",
        ),
        ("Find /abc", "Unterminated regex starting at 1:6"),
        (
            "Insert Block \"a\\\nb\"",
            "Backslash at the end of a line in string at 1:16; write \\\\ for a backslash",
        ),
        ("Show Function f(a, b", "Unterminated '(' starting at 1:16"),
    ]);
    // Positions count chars and lines of the whole message.
    let statements = parse_message("Status\n  Insert Line \"é\\x\"");
    assert_eq!(
        statements[1].parsed.as_ref().unwrap_err().message,
        "Unknown escape '\\x' in string at 2:17; valid escapes are \\n \\t \\\" \\\\ (write \\\\ for a backslash)"
    );
}

#[test]
fn help_gives_usage_from_the_table() {
    assert!(help(None).unwrap().contains("Goto, Find, Replace"));
    assert_eq!(
        help(Some("Goto")).unwrap(),
        format!("{} - Moves the cursor", usage("Goto"))
    );
    assert_eq!(
        help(Some("Opn")).unwrap_err().message,
        "Unknown command 'Opn'. Did you mean: Open?"
    );
    // Every command name parses as a command (the table and parser agree).
    for spec in COMMANDS {
        let err = parse_command(spec.name)
            .err()
            .map(|e| e.message)
            .unwrap_or_default();
        assert!(!err.starts_with("Unknown command"), "{}: {err}", spec.name);
        assert!(
            parse_command(&format!("Help {}", spec.name)).is_ok(),
            "Help {}",
            spec.name
        );
    }
}

#[test]
fn table_examples_parse() {
    for spec in COMMANDS {
        for example in spec.examples.split("; ") {
            assert!(
                parse_command(example).is_ok(),
                "{}: example {example:?} fails: {:?}",
                spec.name,
                parse_command(example)
            );
        }
    }
}

#[test]
fn quote_for_reply_keeps_fail_lines_single() {
    let err = parse_command("Goto \"x\ny\"").unwrap_err();
    let reply = format!("Fail \"{}\"", quote_for_reply(&err.message));
    assert!(!reply.contains('\n'));
    assert!(reply.starts_with("Fail \"Expected a position like 12:4 or a target (StartOfFile, EndOfFile, …), found '\\\"x\\\\ny\\\"'"));
}

/// `docs/COMMANDS.md` holds the generated reference after a marker line.
/// Run with `EDDI_BLESS=1` to rewrite that part from the table.
#[test]
fn docs_match_the_command_table() {
    const MARKER: &str =
        "<!-- generated from crates/eddi-core/src/commands/help.rs: do not edit below -->\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/COMMANDS.md");
    let doc = std::fs::read_to_string(path).expect("docs/COMMANDS.md exists");
    let Some((head, tail)) = doc.split_once(MARKER) else {
        panic!("docs/COMMANDS.md lacks the marker line {MARKER:?}");
    };
    let generated = reference_markdown();
    if std::env::var_os("EDDI_BLESS").is_some() {
        std::fs::write(path, format!("{head}{MARKER}{generated}")).unwrap();
        return;
    }
    assert!(
        tail == generated,
        "docs/COMMANDS.md is stale: run `EDDI_BLESS=1 cargo test --test engine lang_parser::docs_match`"
    );
    for spec in COMMANDS {
        assert!(doc.contains(&format!("### {}", spec.name)), "{}", spec.name);
    }
}

#[test]
fn confirm_answers() {
    assert_eq!(parse_answer("y"), Some(Answer::Yes));
    assert_eq!(parse_answer(" No \n"), Some(Answer::No));
    assert_eq!(parse_answer("Q"), Some(Answer::Quit));
    assert_eq!(parse_answer("yes please"), None);
    assert_eq!(parse_answer(""), None);
}

#[test]
fn huge_inputs_stay_cheap_and_never_panic() {
    // Many statements, each with a lexical error: positions are found
    // without rescanning the message (this was quadratic once).
    let many = "Insert Line \"\\q\"\n".repeat(50_000);
    let statements = parse_message(&many);
    assert_eq!(statements.len(), 50_000);
    assert_eq!(
        statements[49_999].parsed.as_ref().unwrap_err().message,
        "Unknown escape '\\q' in string at 50000:14; valid escapes are \\n \\t \\\" \\\\ (write \\\\ for a backslash)"
    );
    // One huge unterminated string.
    let open = format!("Insert Block \"{}", "x".repeat(1_000_000));
    assert!(parse_command(&open)
        .unwrap_err()
        .message
        .starts_with("Unterminated string starting at 1:14"));
    // Deep nesting and long words.
    assert!(parse_command(&format!("Show Function f{}", "(".repeat(100_000))).is_err());
    let long = "a".repeat(1_000_000);
    let err = parse_command(&format!("Start {long}")).unwrap_err().message;
    assert!(
        err.len() < 200,
        "error messages quote a short excerpt: {err}"
    );
    assert!(parse_command(&format!("Find \"{long}\"")).is_ok());
}

fn vocabulary() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "Open",
        "Create",
        "Goto",
        "Find",
        "All",
        "Replace",
        "With",
        "Show",
        "Function",
        "Method",
        "Insert",
        "Line",
        "Block",
        "Start",
        "Bookmark",
        "Modify",
        "Rename",
        "At",
        "12:4",
        "3",
        "99999999999999999999999",
        "\"",
        "\"x\"",
        "\"\\q\"",
        "/",
        "/a/",
        "\\",
        "(",
        ")",
        "f(",
        "a.b",
        "A.b()",
        ";",
        "\n",
        "#",
        " ",
        "é",
        "🎉",
        "\r\n",
        "\t",
        "src/x.py",
        "**/*.py",
        ":",
        "0:0",
    ])
    .prop_map(str::to_string)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_message_never_panics(text in any::<String>()) {
        let statements = parse_message(&text);
        for st in statements {
            if let Err(e) = st.parsed {
                prop_assert!(!e.message.contains('\n'));
            }
        }
        let _ = parse_command(&text);
    }

    #[test]
    fn grammar_soup_never_panics(words in prop::collection::vec(vocabulary(), 0..12)) {
        let text = words.join(" ");
        let _ = parse_command(&text);
        for st in parse_message(&text) {
            prop_assert!(st.span.start <= st.span.end);
            prop_assert!(st.span.end <= text.chars().count());
            if let Err(e) = st.parsed {
                prop_assert!(!e.message.contains('\n'), "{:?}", e.message);
                prop_assert!(e.span.end <= text.chars().count());
            }
        }
        let glued = words.concat();
        let _ = parse_message(&glued);
    }
}

// -- round trip: Display prints canonical text that parses back ----------

fn ident() -> impl Strategy<Value = String> {
    "[A-Za-z_é][A-Za-z0-9_é]{0,8}"
}

fn dotted() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_]{0,6}(\\.[A-Za-z_][A-Za-z0-9_]{0,6}){0,2}"
}

/// Paths that need quoting now and then: spaces, quotes, backslashes, `;`, `#`.
fn path() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_./* é\"\\\\;#()\r\u{feff}-]{0,12}[a-z]"
}

fn text() -> impl Strategy<Value = String> {
    any::<String>().prop_filter("non-empty", |t| !t.is_empty())
}

fn not_blank() -> impl Strategy<Value = String> {
    any::<String>().prop_filter("not blank", |t| !t.trim().is_empty())
}

fn code_target() -> impl Strategy<Value = CodeTarget> {
    prop_oneof![
        (dotted(), prop::option::of("[a-z0-9_, =*]{0,10}"))
            .prop_map(|(name, params)| CodeTarget::Function { name, params }),
        dotted().prop_map(|name| CodeTarget::Class { name }),
        (dotted(), ident()).prop_map(|(class, name)| CodeTarget::Method {
            class,
            name,
            params: None
        }),
        dotted().prop_map(|name| CodeTarget::Variable { name }),
    ]
}

/// Function, Class or Method (no Variable).
fn callable_target() -> impl Strategy<Value = CodeTarget> {
    code_target().prop_filter("no Variable", |t| !matches!(t, CodeTarget::Variable { .. }))
}

fn pattern() -> impl Strategy<Value = Pattern> {
    prop_oneof![
        text().prop_map(Pattern::Text),
        "[a-z0-9 /.;\"]{1,8}".prop_map(Pattern::Regex),
        "\\\\d+[a-z/]{0,3}".prop_map(Pattern::Regex),
    ]
}

fn bookmark() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9_.-]{0,10}".prop_filter("not a Goto keyword", |n| {
        !eddi::commands::parser::GOTO_KEYWORDS
            .iter()
            .any(|k| k.eq_ignore_ascii_case(n))
    })
}

fn scope() -> impl Strategy<Value = Scope> {
    prop_oneof![
        code_target().prop_map(Scope::Code),
        range().prop_map(Scope::Block),
    ]
}

fn range() -> impl Strategy<Value = LineRange> {
    (any::<usize>(), any::<usize>()).prop_map(|(a, b)| LineRange::new(a.min(b), a.max(b)))
}

fn session_strategy() -> BoxedStrategy<Command> {
    let name = "[A-Za-z0-9_.-]{1,20}";
    prop_oneof![
        (name, prop::option::of(any::<String>()))
            .prop_map(|(name, description)| Command::Start { name, description }),
        (
            prop::option::of(name.prop_filter("a word of the command", |n| n != "Force")),
            any::<bool>()
        )
            .prop_map(|(name, force)| Command::End { name, force }),
        Just(Command::ListSessions),
        prop::option::of(name).prop_map(|name| Command::Summary { name }),
        Just(Command::Status),
        prop_oneof![Just(ResponseFormat::Terse), Just(ResponseFormat::Json)].prop_map(|f| {
            Command::Set {
                option: SessionOption::ResponseFormat(f),
            }
        }),
        (1..=usize::MAX).prop_map(|n| Command::Set {
            option: SessionOption::OutputLimit(n)
        }),
        Just(Command::PushContext),
        Just(Command::PopContext),
        prop::sample::select(help::command_names()).prop_map(|t| Command::Help {
            topic: Some(t.to_string())
        }),
        Just(Command::Help { topic: None }),
    ]
    .boxed()
}

fn file_and_navigation_commands() -> BoxedStrategy<Command> {
    let goto = prop_oneof![
        (any::<usize>(), any::<usize>())
            .prop_map(|(l, c)| GotoTarget::Position(Position::new(l, c))),
        any::<usize>().prop_map(GotoTarget::Line),
        prop::sample::select(vec![
            GotoTarget::StartOfFile,
            GotoTarget::EndOfFile,
            GotoTarget::StartOfLine,
            GotoTarget::EndOfLine,
            GotoTarget::StartOfFunction,
            GotoTarget::EndOfFunction,
            GotoTarget::StartOfClass,
            GotoTarget::EndOfClass,
        ]),
        callable_target().prop_map(GotoTarget::Code),
        bookmark().prop_map(GotoTarget::Bookmark),
    ];
    let direction = prop::sample::select(vec![
        FindDirection::Next,
        FindDirection::Prev,
        FindDirection::All,
    ]);
    let mode = prop::sample::select(vec![
        ReplaceMode::Next,
        ReplaceMode::All,
        ReplaceMode::Confirm,
    ]);
    let query = prop::sample::select(vec![
        SymbolQuery::References,
        SymbolQuery::Definition,
        SymbolQuery::Callers,
    ]);
    prop_oneof![
        (any::<bool>(), path()).prop_map(|(create, path)| Command::Open { create, path }),
        (any::<bool>(), any::<bool>(), prop::option::of(path()))
            .prop_map(|(close, force, path)| Command::Save { close, force, path }),
        prop::option::of(path()).prop_map(|path| Command::Close { path }),
        (any::<bool>(), prop::option::of(path()))
            .prop_map(|(open_only, pattern)| Command::List { open_only, pattern }),
        goto.prop_map(Command::Goto),
        (direction, pattern())
            .prop_map(|(direction, pattern)| Command::Find { direction, pattern }),
        (query, dotted()).prop_map(|(kind, symbol)| Command::FindSymbol { kind, symbol }),
        (mode, pattern(), any::<String>(), prop::option::of(scope()))
            .prop_filter("a change", |(_, p, r, _)| p != &Pattern::Text(r.clone()))
            .prop_filter("groups the regex has", |(_, p, r, _)| {
                !matches!(p, Pattern::Regex(_)) || !r.contains('$')
            })
            .prop_map(|(mode, pattern, replacement, scope)| Command::Replace {
                mode,
                pattern,
                replacement,
                scope
            }),
        (
            pattern(),
            any::<String>(),
            "[a-z*/.]{1,10}",
            any::<bool>(),
            any::<bool>()
        )
            .prop_filter("a change", |(p, r, _, _, _)| p != &Pattern::Text(r.clone()))
            .prop_filter("groups the regex has", |(p, r, _, _, _)| {
                !matches!(p, Pattern::Regex(_)) || !r.contains('$')
            })
            .prop_map(
                |(pattern, replacement, glob, preview, diff)| Command::ReplaceInFiles {
                    pattern,
                    replacement,
                    glob,
                    preview,
                    diff: preview && diff,
                }
            ),
        (
            bookmark(),
            prop::option::of((any::<usize>(), any::<usize>()))
        )
            .prop_map(|(name, at)| Command::Bookmark {
                name,
                at: at.map(|(l, c)| Position::new(l, c))
            }),
        prop::option::of(path()).prop_map(|path| Command::Diff { path }),
    ]
    .boxed()
}

fn inspection_and_edit_commands() -> BoxedStrategy<Command> {
    let show = prop_oneof![
        any::<usize>().prop_map(ShowTarget::Line),
        range().prop_map(ShowTarget::Block),
        Just(ShowTarget::Current),
        code_target().prop_map(ShowTarget::Code),
    ];
    let analyze = prop_oneof![
        Just(AnalyzeTarget::File),
        callable_target().prop_map(AnalyzeTarget::Code),
    ];
    let kind = prop::option::of(prop::sample::select(vec![
        AnalysisKind::Dependencies,
        AnalysisKind::Complexity,
        AnalysisKind::Structure,
        AnalysisKind::Issues,
    ]));
    let insert = prop_oneof![
        "[^\n]{0,20}".prop_map(|text| Command::Insert {
            kind: InsertKind::Line,
            text
        }),
        (
            prop::sample::select(vec![
                InsertKind::Block,
                InsertKind::Function,
                InsertKind::Method,
                InsertKind::Class,
                InsertKind::Import,
            ]),
            text()
        )
            .prop_map(|(kind, text)| Command::Insert { kind, text }),
    ];
    let delete = prop_oneof![
        (1..=usize::MAX).prop_map(|count| DeleteTarget::Lines { count }),
        range().prop_map(DeleteTarget::Block),
        Just(DeleteTarget::Current),
        callable_target().prop_map(DeleteTarget::Code),
    ];
    prop_oneof![
        (show, prop::option::of(any::<usize>()))
            .prop_map(|(target, context)| Command::Show { target, context }),
        (analyze, kind).prop_map(|(target, kind)| Command::Analyze { target, kind }),
        prop::option::of(code_target()).prop_map(|target| Command::Validate { target }),
        insert,
        delete.prop_map(Command::Delete),
        (1..=usize::MAX).prop_map(|count| Command::Undo { count }),
        (1..=usize::MAX).prop_map(|count| Command::Redo { count }),
        (prop::option::of(code_target()), prop::option::of(ident()))
            .prop_map(|(target, style)| Command::Format { target, style }),
    ]
    .boxed()
}

fn modify_commands() -> BoxedStrategy<Command> {
    let change = prop_oneof![
        ident().prop_map(|new_name| Modification::Rename { new_name }),
        (not_blank(), prop::option::of(any::<usize>()))
            .prop_map(|(param, at)| Modification::AddParam { param, at }),
        ident().prop_map(|name| Modification::RemoveParam { name }),
        any::<String>().prop_map(|params| Modification::ChangeSignature { params }),
        not_blank().prop_map(|decorator| Modification::AddDecorator { decorator }),
        prop::sample::select(vec![
            Visibility::Public,
            Visibility::Protected,
            Visibility::Private
        ])
        .prop_map(|visibility| Modification::SetVisibility { visibility }),
    ];
    let style = prop::sample::select(vec![
        CommentStyle::Line,
        CommentStyle::Block,
        CommentStyle::Docstring,
    ]);
    prop_oneof![
        (code_target(), change).prop_map(|(target, change)| Command::Modify { target, change }),
        (code_target(), not_blank(), style, any::<bool>()).prop_map(
            |(target, text, style, replace)| Command::Comment {
                target,
                text,
                style,
                replace
            }
        ),
    ]
    .boxed()
}

fn refactor_commands() -> BoxedStrategy<Command> {
    let params = "[a-z0-9_, =*]{0,10}";
    let refactoring = prop_oneof![
        (
            prop_oneof![Just(RenameKind::Symbol), Just(RenameKind::Class)],
            dotted(),
            ident(),
            any::<bool>(),
            prop_oneof![
                Just(SitePolicy::Refuse),
                Just(SitePolicy::IncludePossible),
                Just(SitePolicy::OnlyProven)
            ]
        )
            .prop_map(|(kind, symbol, new_name, include_text, sites)| {
                Refactoring::Rename {
                    kind,
                    symbol,
                    new_name,
                    include_text,
                    sites,
                }
            }),
        (dotted(), ident(), ident(), any::<bool>(), any::<bool>()).prop_map(
            |(function, param, new_name, include_text, only_proven)| Refactoring::RenameParam {
                function,
                param,
                new_name,
                include_text,
                sites: if only_proven {
                    SitePolicy::OnlyProven
                } else {
                    SitePolicy::Refuse
                },
            }
        ),
        (dotted(), params, params, any::<bool>()).prop_map(
            |(function, old_params, new_params, only_proven)| Refactoring::Signature {
                function,
                old_params,
                new_params,
                sites: if only_proven {
                    SitePolicy::OnlyProven
                } else {
                    SitePolicy::Refuse
                },
            }
        ),
        (
            prop_oneof![Just(ExtractKind::Method), Just(ExtractKind::Function)],
            ident(),
            range()
        )
            .prop_map(|(kind, name, lines)| Refactoring::Extract {
                kind,
                name,
                first_line: lines.first,
                last_line: lines.last
            }),
        (
            prop_oneof![Just(InlineKind::Variable), Just(InlineKind::Function)],
            dotted()
        )
            .prop_map(|(kind, name)| Refactoring::Inline { kind, name }),
    ];
    prop_oneof![
        refactoring.clone().prop_map(Command::Refactor),
        (any::<bool>(), refactoring)
            .prop_map(|(diff, refactoring)| Command::Preview { diff, refactoring }),
        Just(Command::Apply),
        Just(Command::Discard),
        any::<bool>().prop_map(|on| Command::Set {
            option: SessionOption::Preview(on)
        }),
    ]
    .boxed()
}

fn any_command() -> impl Strategy<Value = Command> {
    prop_oneof![
        refactor_commands(),
        session_strategy(),
        file_and_navigation_commands(),
        inspection_and_edit_commands(),
        modify_commands(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn printed_commands_parse_back(command in any_command()) {
        let text = command.to_string();
        prop_assert_eq!(parse_command(&text), Ok(command), "printed as {:?}", text);
    }

    #[test]
    fn printed_commands_join_into_messages(commands in prop::collection::vec(any_command(), 1..6)) {
        let text = commands.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
        let parsed: Vec<_> = parse_message(&text).into_iter().map(|s| s.parsed).collect();
        let expected: Vec<_> = commands.into_iter().map(Ok).collect();
        prop_assert_eq!(parsed, expected, "message {:?}", text);
    }
}

#[test]
fn canonical_text() {
    let cases = [
        (
            "open create src/auth user_manager.py",
            "Open Create src/auth/user_manager.py",
        ),
        ("Open \"my notes.txt\"", "Open \"my notes.txt\""),
        ("Open \"create\"", "Open \"create\""),
        ("find next foo", "Find \"foo\""),
        ("Find all /a\\/b/", "Find All /a\\/b/"),
        (
            "replace confirm x with y",
            "Replace Confirm \"x\" With \"y\"",
        ),
        ("show function __init__() 3", "Show Function __init__() 3"),
        (
            "Insert Block \"a\nb\\t\\\"c\\\"\"",
            "Insert Block \"a\\nb\\t\\\"c\\\"\"",
        ),
        ("Format black", "Format File black"),
        ("Format File", "Format"),
        ("Validate File", "Validate"),
        ("delete line", "Delete Line 1"),
        ("undo", "Undo 1"),
        ("Comment Class A \"x\" Line", "Comment Class A \"x\""),
        (
            "Modify Function f AddDecorator @retry(3)",
            "Modify Function f AddDecorator \"@retry(3)\"",
        ),
        ("help push context", "Help Push"),
        ("bookmark m 1:2", "Bookmark m 1:2"),
        ("set format json", "Set Format json"),
        ("save force close \"Close\"", "Save Close Force \"Close\""),
    ];
    let mut failures = Vec::new();
    for (input, expected) in cases {
        match parse_command(input) {
            Ok(command) if command.to_string() == expected => {}
            Ok(command) => failures.push(format!(
                "{input:?} printed as {:?}, expected {expected:?}",
                command.to_string()
            )),
            Err(e) => failures.push(format!("{input:?} failed: {e}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
