//! The language seam through the engine: a file of a registered language
//! other than Python (JSON, registered for the tests) gets its outline,
//! and the commands its language does not support say so.

use super::*;
use crate::language::{python::Python, Language};

const DATA: &str =
    "{\n  \"name\": \"eddi\",\n  \"deps\": {\n    \"a\": 1,\n    \"b\": [{\"c\": 2}]\n  }\n}\n";

#[test]
fn a_json_files_structure_comes_through_the_engine() {
    let f = Fixture::new();
    f.write("conf/data.json", DATA);
    f.check(
        "a",
        r#"
        > Start sa; Open conf/data.json
        Ok
        Ok, At 0:0, Length 7
        > Analyze File Structure
        Ok: File: key name at 1:2, key deps at 2:2
        > Goto 1; Insert Line "  \"first\": 0,"
        Ok, At 1:0
        Ok, Inserted 1 line at 1, At 2:0
        > Analyze File Structure
        Ok: File: key first at 1:2, key name at 2:2, key deps at 3:2
        > Set Format json
        {"ok":true}
        > Analyze File Structure
        {"message":"File: key first at 1:2, key name at 2:2, key deps at 3:2","ok":true,"structure":{"async":false,"children":[{"async":false,"children":[],"col":2,"end_col":12,"end_line":1,"kind":"key","line":1,"name":"first","qualified_name":"first"},{"async":false,"children":[],"col":2,"end_col":16,"end_line":2,"kind":"key","line":2,"name":"name","qualified_name":"name"},{"async":false,"children":[{"async":false,"children":[],"col":4,"end_col":10,"end_line":4,"kind":"key","line":4,"name":"a","qualified_name":"deps.a"},{"async":false,"children":[{"async":false,"children":[],"col":11,"end_col":17,"end_line":5,"kind":"key","line":5,"name":"c","qualified_name":"deps.b.c"}],"col":4,"end_col":19,"end_line":5,"kind":"key","line":5,"name":"b","qualified_name":"deps.b"}],"col":2,"end_col":3,"end_line":6,"kind":"key","line":3,"name":"deps","qualified_name":"deps"}],"kind":"file","name":"conf/data.json","qualified_name":"conf/data.json"}}
        "#,
    );
}

#[test]
fn a_json_files_structure_comes_through_the_engines_operations() {
    let f = Fixture::new();
    f.write("conf/data.json", DATA);
    let tree = f.engine.structure("a", "conf/data.json").unwrap();
    let json = ops::json::structure(&tree);
    let keys = |node: &serde_json::Value| -> Vec<String> {
        node["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{} {}",
                    c["kind"].as_str().unwrap(),
                    c["qualified_name"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(json["name"], "conf/data.json");
    assert_eq!(keys(&json), ["key name", "key deps"]);
    assert_eq!(keys(&json["children"][1]), ["key deps.a", "key deps.b"]);
    assert_eq!(keys(&json["children"][1]["children"][1]), ["key deps.b.c"]);
    // a file of no registered language is refused as before
    f.write("notes.txt", "x\n");
    let error = f.engine.structure("a", "notes.txt").unwrap_err();
    assert_eq!(
        error.message,
        "notes.txt is not a Python file: code operations need a .py or .pyi file"
    );
}

/// A JSON file takes its text edits (no syntax check notes them), and the
/// code commands, the index's queries and the refactors of the current
/// file say JSON does not support them; a refactor that names what it
/// changes still runs in the project's Python files.
#[test]
fn commands_a_json_file_does_not_support_say_so() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write("pkg/auth.py", "def login(user):\n    return user\n");
    f.write("data.json", DATA);
    // the wording of a file of no registered language ("is not a Python
    // file") is kept; a registered language says what it is
    let unsupported =
        "data.json is a JSON file: code commands do not support JSON (they work on Python files)";
    f.check(
        "a",
        &format!(
            r#"
        > Start sa; Open data.json
        Ok
        Ok, At 0:0, Length 7
        > Show Function f
        Fail "{unsupported}"
        > Analyze File
        Fail "{unsupported}"
        > Validate
        Fail "{unsupported}"
        > Find References name
        Fail "{unsupported}; in the project's Python files: Not found: symbol 'name'. No similar name in the index"
        > Refactor Extract_Method helper lines 0:0
        Fail "{unsupported}"
        > Refactor RenameSymbol login sign_in
        Ok, Renamed in 1 file (pkg/auth.py), 1 reference updated
        > Goto 1; Insert Line "oops {{"
        Ok, At 1:0
        Ok, Inserted 1 line at 1, At 2:0
        > Save
        Ok, Bytes 77
        "#
        ),
    );
    // no syntax check for JSON: the edit and the save noted nothing
    assert!(f.read("data.json").contains("oops {"));
}

/// Python's file structure through the seam is what its own outline
/// gave: `Analyze File Structure` is unchanged for Python.
#[test]
fn pythons_file_structure_through_the_seam_is_its_own() {
    let text = "import os\n\n\nclass Text:\n    @property\n    def plain(self):\n        return 1\n\n    @plain.setter\n    def plain(self, v):\n        pass\n\n    async def fetch(self):\n        class Inner:\n            x = 1\n\n\nasync def main():\n    pass\n\n\nlimit = 3\nif os.name:\n    def f(): pass\nelse:\n    def f(): pass\n";
    let rope = ropey::Rope::from_str(text);
    let tree = crate::analysis::SyntaxTree::parse(&rope).unwrap();
    let seam = ops::code::file_structure(&Python.outline(&rope, &tree), "m.py");
    let own = ops::code::structure(
        &crate::analysis::outline::outline(&rope, &tree),
        None,
        "m.py",
    );
    assert_eq!(seam, own);
    let names: Vec<&str> = seam.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Text", "main", "limit", "f#1", "f#2"]);
}

/// A script without an extension is the language its `#!` line names:
/// the code commands and the agent tools' operations work on it as on a
/// `.py` file; a `#!/bin/sh` script is no Python file.
#[test]
fn a_script_without_an_extension_is_the_language_its_shebang_names() {
    let f = Fixture::new();
    f.write(
        "bin/tool",
        "#!/usr/bin/env python3\ndef main():\n    return 1\n",
    );
    f.write("bin/run", "#!/bin/sh\necho hi\n");
    f.check(
        "a",
        r#"
        > Start sa; Open bin/tool
        Ok
        Ok, At 0:0, Length 3
        > Goto Function main
        Ok, At 1:0
        > Modify Function main Rename start
        Ok, Modified function main (1 edit), At 1:0
        > Validate
        Ok: No syntax errors
        > Refactor Extract_Method helper lines 2:2
        Fail "bin/tool is not a .py file: refactors change the project's .py files, which the index reads; a script without the extension is not among them (code commands work on it)"
        > Open bin/run
        Ok, At 0:0, Length 2
        > Show Function main
        Fail "bin/run is not a Python file: code commands need a .py or .pyi file"
        "#,
    );
    let target = crate::commands::CodeTarget::Function {
        name: "start".into(),
        params: None,
    };
    let element = f.engine.get_element("a", "bin/tool", &target).unwrap();
    assert_eq!(element.kind, "function");
    let tree = f.engine.structure("a", "bin/tool").unwrap();
    assert_eq!(tree.children[0].name, "start");
}
