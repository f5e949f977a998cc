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
    f.write("m.py", "@cache\ndef f():\n    pass\n\n\ndef g():\n    pass\n");
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
