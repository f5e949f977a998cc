//! Engine conversations: analysis checks (start with `use super::*;` for the fixture).
//! Code edits that would destroy text, break the syntax or do nothing say so.

use super::*;

const GET: &str = "def get(url, params=None):\n    \"\"\"Sends a GET request.\n\n    :param url: URL.\n    \"\"\"\n    return request(url)\n";

#[test]
fn a_docstring_is_replaced_only_when_asked() {
    let f = Fixture::new();
    f.write("api.py", GET);
    f.check(
        "a",
        r#"
        > Start s; Open api.py
        Ok
        Ok, At 0:0, Length 6
        > Comment Function get "Fetch a URL." Docstring
        Fail "Function get already has a docstring (4 lines at 1:4); to replace it: Comment Function get \"<text>\" Docstring Replace"
        > Comment Function get "Fetch a URL." Docstring Replace
        Ok, Docstring replaced on function get (was 4 lines), At 1:22
        > Show Function get
        Ok: At 0:0, Txt def get(url, params=None):\n    """Fetch a URL."""\n    return request(url)
        "#,
    );
}

#[test]
fn comments_say_what_they_did_to_existing_comments() {
    let f = Fixture::new();
    f.write("m.py", "# old one\n# old two\ndef f():\n    pass\n");
    f.check(
        "a",
        r#"
        > Start s; Open m.py
        Ok
        Ok, At 0:0, Length 4
        > Comment Function f "new"
        Ok, Comment added to function f, below its 2 lines of comments, At 2:0
        > Undo
        Ok, Undid 1, At 0:0
        > Comment Function f "new" Replace
        Ok, Comment replaced on function f (was 2 lines), At 1:0
        > Show Block 0:1
        Ok: At 0:0, Txt # new\ndef f():
        "#,
    );
}

#[test]
fn adding_what_is_there_says_so() {
    let f = Fixture::new();
    f.write(
        "m.py",
        "@cache\ndef f():\n    pass\n\n\ndef g():\n    pass\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open m.py
        Ok
        Ok, At 0:0, Length 7
        > Modify Function f AddDecorator "@cache"
        Fail "No change: f already has the decorator @cache"
        > Goto 6
        Ok, At 6:0
        > Insert Function "def f():\n    return 2"
        Ok, Inserted 4 lines at 7, 'f' is already defined (function f at 1:0); the later definition wins, At 11:0
        "#,
    );
}

#[test]
fn format_styles_are_checked_and_a_formatted_crlf_file_is_left_alone() {
    let f = Fixture::new();
    f.write("w.py", "x = 1\r\ny = [1, 2]\r\n");
    f.check(
        "a",
        r#"
        > Start s; Open w.py
        Ok
        Ok, At 0:0, Length 2
        > Format yapf
        Fail "Unknown style 'yapf'. Valid: ruff, black, or a line length (Format 100)"
        > Format
        Ok, Already formatted, At 0:0
        > Status
        Ok: Session s, File w.py, At 0:0
        "#,
    );
}

const SESSION: &str = "class Session:\n    def mount(self, prefix, adapter):\n        pass\n\n\ndef get(url, params=None):\n    return url\n";

#[test]
fn add_param_goes_where_python_accepts_it_and_says_so() {
    let f = Fixture::new();
    f.write("s.py", SESSION);
    f.check(
        "a",
        r#"
        > Start s; Open s.py
        Ok
        Ok, At 0:0, Length 7
        > Modify Method Session.mount AddParam "replace=True" At 1
        Ok, Modified method Session.mount (1 edit), replace=True placed at 2 instead of 1: a parameter with a default cannot precede one without, At 1:4
        > Show Block 1:1
        Ok: At 1:0, Txt     def mount(self, prefix, adapter, replace=True):
        > Modify Function get AddParam "timeout"
        Ok, Modified function get (1 edit), timeout placed at 1 instead of 2: a parameter without a default cannot follow one with a default, At 5:0
        > Show Block 5:5
        Ok: At 5:0, Txt def get(url, timeout, params=None):
        "#,
    );
}

#[test]
fn code_edits_that_break_the_syntax_are_refused() {
    let f = Fixture::new();
    f.write("s.py", SESSION);
    f.check(
        "a",
        r#"
        > Start s; Open s.py
        Ok
        Ok, At 0:0, Length 7
        > Insert Function "def broken(:"
        Fail "Refused, nothing changed: the file would no longer be valid Python: 5:11 missing ')'"
        > Modify Function get ChangeSignature "a=1, b"
        Fail "Refused, nothing changed: the file would no longer be valid Python: 5:13 non-default argument follows default argument"
        > Goto 2
        Ok, At 2:0
        > Insert Method "def m(self, x, x):\n    pass"
        Fail "Refused, nothing changed: the file would no longer be valid Python: 4:19 duplicate argument 'x' in function definition"
        > Status
        Ok: Session s, File s.py, At 2:0
        "#,
    );
}

#[test]
fn text_edits_that_break_the_syntax_say_so() {
    let f = Fixture::new();
    f.write("s.py", SESSION);
    f.check(
        "a",
        r#"
        > Start s; Open s.py
        Ok
        Ok, At 0:0, Length 7
        > Goto 7; Insert Line "if url"
        Ok, At 7:0
        Ok, Inserted 1 line at 7, Now invalid Python (1 syntax error): 7:6 missing ':', At 8:0
        > Insert Line "    return 2"
        Ok, Inserted 1 line at 8, At 9:0
        > Undo 2
        Ok, Undid 2, At 7:0
        > Goto 6; Delete Line
        Ok, At 6:0
        Ok, Deleted 1 line at 6, Now invalid Python (1 syntax error): 5:0 expected an indented block after function definition, At 6:0
        > Undo; Replace All "return url" With "break"
        Ok, Undid 1, At 6:0
        Ok, Replaced 1 occurrence, Now invalid Python (1 syntax error): 6:4 'break' outside loop, At 6:0
        "#,
    );
}

#[test]
fn validate_reports_what_cpython_refuses_at_compile_time() {
    let f = Fixture::new();
    f.write(
        "c.py",
        "def f(a=1, b):\n    return a\n\nreturn 2\nfor x in y:\n    pass\nelse:\n    break\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open c.py
        Ok
        Ok, At 0:0, Length 8
        > Validate
        Ok: 3 syntax errors: 0:11 non-default argument follows default argument, 3:0 'return' outside function, 7:4 'break' outside loop
        > Validate Function f
        Ok: 1 syntax error: 0:11 non-default argument follows default argument
        "#,
    );
}

#[test]
fn a_confirmed_replacement_that_breaks_the_syntax_says_so() {
    let f = Fixture::new();
    f.write("s.py", "def f(x):\n    return x\n");
    f.check(
        "a",
        r#"
        > Start s; Open s.py
        Ok
        Ok, At 0:0, Length 2
        > Replace Confirm "return x" With "break"
        Ok, At 1:4, Replace? (y/n)
        > y
        Ok, Replaced 1 occurrence, Now invalid Python (1 syntax error): 1:4 'break' outside loop, At 1:9
        "#,
    );
}

#[test]
fn save_notes_compile_time_errors_too() {
    let f = Fixture::new();
    f.write("b.py", "x = 1\n");
    f.check(
        "a",
        r#"
        > Start s; Open b.py
        Ok
        Ok, At 0:0, Length 1
        > Goto 1; Insert Line "break"
        Ok, At 1:0
        Ok, Inserted 1 line at 1, Now invalid Python (1 syntax error): 1:0 'break' outside loop, At 2:0
        > Save
        Ok, Bytes 12, 1 syntax error at 1:0
        "#,
    );
}

#[test]
fn a_replaced_or_added_pass_body_is_said() {
    let f = Fixture::new();
    f.write(
        "k.py",
        "class K:\n    pass\n\n\nclass L:\n    def only(self):\n        return 1\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open k.py
        Ok
        Ok, At 0:0, Length 7
        > Goto 1; Insert Method "def m(self):\n    return 1"
        Ok, At 1:0
        Ok, Inserted 1 line at 1, replaced the class's 'pass' body, At 3:0
        > Delete Method L.only
        Ok, Deleted 2 lines at 6, the class keeps a 'pass' body, At 6:0
        "#,
    );
}

#[test]
fn a_changed_signature_says_what_it_was() {
    let f = Fixture::new();
    f.write("s.py", SESSION);
    f.check(
        "a",
        r#"
        > Start s; Open s.py
        Ok
        Ok, At 0:0, Length 7
        > Modify Function get ChangeSignature "url, *, timeout=5"
        Ok, Modified function get (1 edit), the signature was (url, params=None), At 5:0
        "#,
    );
}

#[test]
fn breaking_valid_code_is_said_even_when_other_code_is_broken() {
    let f = Fixture::new();
    f.write("m.py", "def f(:\n    pass\n\n\ndef g():\n    return 1\n");
    f.check(
        "a",
        r##"
        > Start s; Open m.py
        Ok
        Ok, At 0:0, Length 6
        > Goto 5; Delete Line
        Ok, At 5:0
        Ok, Deleted 1 line at 5, Now invalid Python (1 syntax error): 4:0 expected an indented block after function definition, At 5:0
        > Goto 0; Insert Line "# still broken"
        Ok, At 0:0
        Ok, Inserted 1 line at 0, At 1:0
        "##,
    );
}

#[test]
fn a_missing_formatter_is_named() {
    if std::process::Command::new("black")
        .arg("--version")
        .output()
        .is_ok()
    {
        return; // only meaningful where black is not installed
    }
    let f = Fixture::new();
    f.write("w.py", "x=1\n");
    f.check(
        "a",
        r#"
        > Start s; Open w.py
        Ok
        Ok, At 0:0, Length 1
        > Format File black
        Fail "No formatter found: black is not installed (pip install black); Format ruff uses ruff"
        "#,
    );
}

#[test]
fn a_method_broken_inside_a_class_is_named_at_its_place() {
    let f = Fixture::new();
    f.write(
        "k.py",
        "class K:\n    @property\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n",
    );
    f.check(
        "a",
        r#"
        > Start s; Open k.py
        Ok
        Ok, At 0:0, Length 7
        > Goto 3; Insert Line "        if self"
        Ok, At 3:0
        Ok, Inserted 1 line at 3, Now invalid Python (1 syntax error): 3:15 missing ':', At 4:0
        > Goto 7; Insert Line "        await self"
        Ok, At 7:0
        Ok, Inserted 1 line at 7, Now invalid Python (1 syntax error): 7:8 'await' outside async function, At 8:0
        "#,
    );
}
