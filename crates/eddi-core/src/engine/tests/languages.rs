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
    // file") is kept; a registered language says what it is, and which
    // languages the commands work on
    let unsupported = "data.json is a JSON file: code commands do not support JSON (they work on Python, JavaScript, TypeScript, TSX, Go, Rust, Java files)";
    let no_index =
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
        Fail "{no_index}; in the project's Python files: Not found: symbol 'name'. No similar name in the index"
        > Refactor Extract_Method helper lines 0:0
        Fail "{no_index}"
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

const APP_JS: &str = r#"const limit = 3;

/** Adds. */
export async function add(x, y = 1) {
  return x + y;
}

const twice = (n) => n * 2;

class Shape {
  area() {
    return 0;
  }
  get name() { return "s"; }
  set name(v) {}
}
"#;

/// A JavaScript file is addressed and read through its language: the
/// structure, Show and Goto of its functions, classes and methods (the
/// end of a class is just inside its closing brace), the structure of a
/// class, Validate; a text edit that breaks it says so.
#[test]
fn a_javascript_file_is_addressed_and_read() {
    let f = Fixture::new();
    f.write("web/app.js", APP_JS);
    f.check(
        "a",
        r#"
        > Start sa; Open web/app.js
        Ok
        Ok, At 0:0, Length 16
        > Analyze File Structure
        Ok: File: variable limit at 0:6, async function add at 3:7, function twice at 7:0, class Shape at 9:0
        > Analyze Class Shape Structure
        Ok: Class Shape: method area at 10:2, getter Shape.name.getter at 13:2, setter Shape.name.setter at 14:2
        > Goto Function add
        Ok, At 3:7
        > Show Function twice
        Ok: At 7:0, Txt const twice = (n) => n * 2;
        > Show Method Shape.name.setter
        Ok: At 14:2, Txt set name(v) {}
        > Goto Method Shape.area; Goto EndOfFunction
        Ok, At 10:2
        Ok, At 12:2
        > Goto EndOfClass
        Ok, At 15:0
        > Goto StartOfClass
        Ok, At 9:0
        > Show Variable limit
        Ok: At 0:6, Txt const limit = 3;
        > Show Function nothing
        Fail "Not found: function 'nothing'. Available: add, twice, area, name"
        > Validate
        Ok: No syntax errors
        > Validate Function add
        Ok: No syntax errors
        > Goto 1; Insert Line "let = ;"
        Ok, At 1:0
        Ok, Inserted 1 line at 1, Now invalid JavaScript (1 syntax error): 1:4 unexpected '=', At 2:0
        > Validate
        Ok: 1 syntax error: 1:4 unexpected '='
        "#,
    );
}

/// The commands whose implementations are Python's refuse a JavaScript
/// file, each by name, and change nothing: the edits of code elements,
/// the code analyses, the index's queries and the refactors; an answer
/// the index finds in the Python files says first that it read no
/// JavaScript.
#[test]
fn commands_a_javascript_file_does_not_support_yet_say_so() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write("pkg/auth.py", "def login(user):\n    return user\n");
    f.write("web/app.js", APP_JS);
    let not_yet = |command: &str| {
        format!("web/app.js is a JavaScript file: {command} does not support JavaScript yet (it works on Python files)")
    };
    f.check(
        "a",
        &format!(
            r#"
        > Start sa; Open web/app.js
        Ok
        Ok, At 0:0, Length 16
        > Insert Function "function g() {{}}"
        Fail "{}"
        > Insert Method "m() {{}}"
        Fail "{}"
        > Insert Class "class B {{}}"
        Fail "{}"
        > Insert Import "fs"
        Fail "{}"
        > Delete Function add
        Fail "{}"
        > Modify Function add Rename plus
        Fail "{}"
        > Comment Function add "Adds two."
        Fail "{}"
        > Format
        Fail "{}"
        > Format Function add
        Fail "{}"
        > Analyze File
        Fail "{}"
        > Analyze File Complexity
        Fail "{}"
        > Analyze Function add Dependencies
        Fail "{}"
        > Analyze File Issues
        Fail "{}"
        > Analyze Class Shape Complexity
        Fail "{}"
        > Find References add
        Fail "{}; in the project's Python files: Not found: symbol 'add'. No similar name in the index"
        > Find Definition twice
        Fail "{}; in the project's Python files: Not found: symbol 'twice'. No similar name in the index"
        > Refactor Extract_Method helper lines 4:4
        Fail "{}"
        > Refactor RenameSymbol add plus
        Fail "{}; in the project's Python files: Not found: symbol 'add'. No similar name in the index"
        > Find Definition login
        Ok: {}; in the project's Python files: Found 1 definition, with lines, Txt pkg/auth.py:0:0 function pkg.auth.login: def login(user):
        > Refactor RenameSymbol login sign_in
        Ok, Renamed in 1 file (pkg/auth.py), 1 reference updated
        "#,
            not_yet("Insert Function"),
            not_yet("Insert Method"),
            not_yet("Insert Class"),
            not_yet("Insert Import"),
            not_yet("Delete Function"),
            not_yet("Modify"),
            not_yet("Comment"),
            not_yet("Format"),
            not_yet("Format"),
            not_yet("Analyze"),
            not_yet("Analyze Complexity"),
            not_yet("Analyze Dependencies"),
            not_yet("Analyze Issues"),
            not_yet("Analyze Complexity"),
            not_yet("Find References"),
            not_yet("Find Definition"),
            not_yet("Refactor"),
            not_yet("Refactor"),
            not_yet("Find Definition"),
        ),
    );
    // nothing was written to the JavaScript file
    assert_eq!(f.read("web/app.js"), APP_JS);
    // the agent tools' operations: reads work, analyses say so
    let add = crate::commands::CodeTarget::Function {
        name: "add".into(),
        params: None,
    };
    let element = f.engine.get_element("a", "web/app.js", &add).unwrap();
    assert_eq!(
        (element.kind, element.span.start, element.text.as_str()),
        (
            "function",
            crate::edit::Position::new(3, 7),
            "async function add(x, y = 1) {\n  return x + y;\n}"
        )
    );
    assert!(f
        .engine
        .syntax_errors("a", "web/app.js")
        .unwrap()
        .is_empty());
    let tree = f.engine.structure("a", "web/app.js").unwrap();
    let names: Vec<&str> = tree.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["limit", "add", "twice", "Shape"]);
    let refused = f.engine.complexity("a", "web/app.js", None).unwrap_err();
    assert_eq!(
        refused.message,
        "web/app.js is a JavaScript file: the complexity analysis does not support JavaScript yet (it works on Python files)"
    );
    assert!(f.engine.todos("a", "web/app.js").is_err());
    assert!(f.engine.dependencies("a", "web/app.js", None).is_err());
    // the analysed files of a project are its Python files
    assert_eq!(
        f.engine.analysed_files("a", None).unwrap(),
        ["pkg/__init__.py", "pkg/auth.py"]
    );
    assert_eq!(
        f.engine.code_files("a", None).unwrap(),
        ["pkg/__init__.py", "pkg/auth.py", "web/app.js"]
    );
}

/// TypeScript and TSX files: the outline of their types, Goto and Show of
/// interface members, Validate.
#[test]
fn typescript_and_tsx_files_are_addressed_and_read() {
    let f = Fixture::new();
    f.write(
        "src/shape.ts",
        "export interface Shape {\n  area(): number;\n}\n\nexport class Square implements Shape {\n  constructor(private side: number) {}\n  area(): number {\n    return this.side ** 2;\n  }\n}\n",
    );
    f.write(
        "src/App.tsx",
        "export const App = ({ n }: { n: number }) => <b>{n}</b>;\n",
    );
    f.check(
        "a",
        r#"
        > Start sa; Open src/shape.ts
        Ok
        Ok, At 0:0, Length 10
        > Analyze File Structure
        Ok: File: interface Shape at 0:7, class Square at 4:7
        > Analyze Class Shape Structure
        Ok: Interface Shape: method area at 1:2
        > Show Method Shape.area
        Ok: At 1:2, Txt area(): number
        > Goto Method Square.area; Goto EndOfClass
        Ok, At 6:2
        Ok, At 9:0
        > Modify Method Square.area Rename size
        Fail "src/shape.ts is a TypeScript file: Modify does not support TypeScript yet (it works on Python files)"
        > Open src/App.tsx
        Ok, At 0:0, Length 1
        > Analyze File Structure
        Ok: File: function App at 0:7
        > Validate
        Ok: No syntax errors
        > Delete Function App
        Fail "src/App.tsx is a TSX file: Delete Function does not support TSX yet (it works on Python files)"
        "#,
    );
}

const STACK_GO: &str = "package stack\n\n// Push adds v.\nfunc (s *Stack) Push(v int) {\n\ts.items = append(s.items, v)\n}\n\n// Stack holds ints.\ntype Stack struct {\n\titems []int\n}\n\nfunc New() *Stack {\n\treturn &Stack{}\n}\n\nvar Limit = 3\n";

/// A Go file is addressed and read: methods by their receiver type (also
/// one declared above its type, and one whose type is in another file),
/// the end of a struct inside its braces, Validate; the commands whose
/// implementations are Python's say Go is not supported yet, and change
/// nothing.
#[test]
fn a_go_file_is_addressed_and_read() {
    let f = Fixture::new();
    f.write("stack/stack.go", STACK_GO);
    f.write(
        "stack/peek.go",
        "package stack\n\nfunc (s *Stack) Peek() int {\n\treturn s.items[len(s.items)-1]\n}\n",
    );
    let not_yet = |command: &str| {
        format!("stack/stack.go is a Go file: {command} does not support Go yet (it works on Python files)")
    };
    f.check(
        "a",
        &format!(
            r#"
        > Start sa; Open stack/stack.go
        Ok
        Ok, At 0:0, Length 17
        > Analyze File Structure
        Ok: File: struct Stack at 8:0, function New at 12:0, variable Limit at 16:4
        > Analyze Class Stack Structure
        Ok: Struct Stack: method Push at 3:0, field items at 9:1
        > Show Method Stack.Push
        Ok: At 3:0, Txt func (s *Stack) Push(v int) {{\n\ts.items = append(s.items, v)\n}}
        > Goto Method Stack.Push; Goto EndOfFunction
        Ok, At 3:0
        Ok, At 5:0
        > Goto Class Stack; Goto EndOfClass
        Ok, At 8:0
        Ok, At 10:0
        > Goto Function New; Goto StartOfFunction
        Ok, At 12:0
        Ok, At 12:0
        > Validate
        Ok: No syntax errors
        > Modify Method Stack.Push Rename Add
        Fail "{}"
        > Insert Method "func (s *Stack) Len() int {{ return len(s.items) }}"
        Fail "{}"
        > Analyze File Complexity
        Fail "{}"
        > Find References Push
        Fail "{}; in the project's Python files: Not found: symbol 'Push'. The index is empty"
        > Open stack/peek.go
        Ok, At 0:0, Length 5
        > Goto Method Stack.Peek
        Ok, At 2:0
        > Goto 3; Insert Line "}}"
        Ok, At 3:0
        Ok, Inserted 1 line at 3, Now invalid Go (2 syntax errors): 4:1 expected a declaration, found 'return', 5:0 unexpected '}}', At 4:0
        "#,
            not_yet("Modify"),
            not_yet("Insert Method"),
            not_yet("Analyze Complexity"),
            not_yet("Find References"),
        ),
    );
    assert_eq!(f.read("stack/stack.go"), STACK_GO);
    let push = crate::commands::CodeTarget::Method {
        class: "Stack".into(),
        name: "Push".into(),
        params: None,
    };
    let element = f.engine.get_element("a", "stack/stack.go", &push).unwrap();
    assert_eq!(element.kind, "method");
    assert_eq!(
        element.text,
        "func (s *Stack) Push(v int) {\n\ts.items = append(s.items, v)\n}"
    );
}

const POINT_RS: &str = "use std::fmt;\n\n/// A point.\n#[derive(Debug)]\npub struct Point {\n    x: i32,\n}\n\nimpl Point {\n    pub fn new(x: i32) -> Self {\n        Point { x }\n    }\n\n    pub fn fmt(&self) -> String {\n        String::new()\n    }\n}\n\nimpl fmt::Display for Point {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        write!(f, \"{}\", self.x)\n    }\n}\n";

/// A Rust file is addressed and read: methods of inherent and trait impl
/// blocks by their type (the trait's as `Point.Display.fmt` beside the
/// type's own `Point.fmt`), the end of a struct inside its braces, the
/// delimiter errors rustc reports; the commands whose implementations are
/// Python's say Rust is not supported yet, and change nothing.
#[test]
fn a_rust_file_is_addressed_and_read() {
    let f = Fixture::new();
    f.write("src/point.rs", POINT_RS);
    let not_yet = |command: &str| {
        format!("src/point.rs is a Rust file: {command} does not support Rust yet (it works on Python files)")
    };
    f.check(
        "a",
        &format!(
            r#"
        > Start sa; Open src/point.rs
        Ok
        Ok, At 0:0, Length 23
        > Analyze File Structure
        Ok: File: struct Point at 4:0
        > Analyze Class Point Structure
        Ok: Struct Point: field x at 5:4, method new at 9:4, method fmt at 13:4, method Point.Display.fmt at 19:4
        > Show Method Point.fmt
        Ok: At 13:4, Txt pub fn fmt(&self) -> String {{\n        String::new()\n    }}
        > Goto Method Point.Display.fmt; Goto EndOfFunction
        Ok, At 19:4
        Ok, At 21:4
        > Goto Class Point; Goto EndOfClass
        Ok, At 4:0
        Ok, At 6:0
        > Show Method Point.nothing
        Fail "Not found: method 'Point.nothing'. Available: Point.new, Point.fmt, Point.Display.fmt"
        > Validate
        Ok: No syntax errors
        > Delete Method Point.new
        Fail "{}"
        > Format
        Fail "{}"
        > Goto 12; Insert Line "    }}"
        Ok, At 12:0
        Ok, Inserted 1 line at 12, Now invalid Rust (1 syntax error): 17:0 unexpected closing delimiter '}}', At 13:0
        "#,
            not_yet("Delete Method"),
            not_yet("Format"),
        ),
    );
    assert_eq!(f.read("src/point.rs"), POINT_RS);
}

const SHAPE_JAVA: &str = "package shapes;\n\n/** A circle. */\n@Deprecated\npublic class Circle {\n    private final double r;\n\n    public Circle(double r) {\n        this.r = r;\n    }\n\n    @Override\n    public String toString() {\n        return \"Circle\";\n    }\n\n    static class Unit extends Circle {\n        Unit() {\n            super(1);\n        }\n    }\n}\n";

/// A Java file is addressed and read: its class from its modifiers after
/// its annotation, constructors and methods, a nested class by its path,
/// the end of a class inside its braces, Validate; the commands whose
/// implementations are Python's say Java is not supported yet.
#[test]
fn a_java_file_is_addressed_and_read() {
    let f = Fixture::new();
    f.write("src/shapes/Circle.java", SHAPE_JAVA);
    let not_yet = |command: &str| {
        format!("src/shapes/Circle.java is a Java file: {command} does not support Java yet (it works on Python files)")
    };
    f.check(
        "a",
        &format!(
            r#"
        > Start sa; Open src/shapes/Circle.java
        Ok
        Ok, At 0:0, Length 22
        > Analyze File Structure
        Ok: File: class Circle at 4:0
        > Analyze Class Circle Structure
        Ok: Class Circle: field r at 5:25, constructor Circle at 7:4, method toString at 12:4, class Unit at 16:4
        > Show Method Circle.Unit.Unit
        Ok: At 17:8, Txt Unit() {{\n            super(1);\n        }}
        > Goto Class Circle; Goto EndOfClass
        Ok, At 4:0
        Ok, At 21:0
        > Goto Method Circle.toString; Goto EndOfFunction
        Ok, At 12:4
        Ok, At 14:4
        > Goto StartOfClass
        Ok, At 4:0
        > Show Variable Circle.r
        Ok: At 5:25, Txt private final double r;
        > Validate
        Ok: No syntax errors
        > Comment Method Circle.toString "Names it."
        Fail "{}"
        > Analyze File Issues
        Fail "{}"
        "#,
            not_yet("Comment"),
            not_yet("Analyze Issues"),
        ),
    );
    assert_eq!(f.read("src/shapes/Circle.java"), SHAPE_JAVA);
}
