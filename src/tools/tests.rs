//! The tools on real files in temp dirs, called as the transports call
//! them (`call` with JSON params): results, errors, parity with the terse
//! commands.

use serde_json::{json, Value};

use super::*;
use crate::engine::{EngineConfig, Permissions, Request};

const SHOP: &str = "\
class Cart:
    def add(self, item):
        self.items.append(item)

    def total(self):
        if self.items:
            return sum(self.items)
        return 0


async def checkout(cart):
    # TODO: taxes
    return cart.total()
";

const APP: &str = "\
from shop import Cart, checkout

cart = Cart()
cart.add(1)
checkout(cart)
";

struct Project {
    dir: tempfile::TempDir,
    engine: Engine,
}

impl Project {
    fn new() -> Project {
        Project::with(Permissions::default())
    }

    fn with(permissions: Permissions) -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("shop.py"), SHOP).unwrap();
        std::fs::write(dir.path().join("app.py"), APP).unwrap();
        let mut config = EngineConfig::new(dir.path());
        config.permissions = permissions;
        let engine = Engine::open(config).unwrap();
        Project { dir, engine }
    }

    fn ok(&self, tool: &str, params: Value) -> Value {
        call(&self.engine, "agent", tool, params.clone())
            .unwrap_or_else(|e| panic!("{tool} {params}: {}", e.json()))
    }

    fn err(&self, tool: &str, params: Value) -> Value {
        self.err_as("agent", tool, params)
    }

    fn err_as(&self, sender: &str, tool: &str, params: Value) -> Value {
        match call(&self.engine, sender, tool, params.clone()) {
            Ok(v) => panic!("{tool} {params}: expected an error, got {v}"),
            Err(e) => e.json(),
        }
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(path)).unwrap()
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
}

#[test]
fn every_tool_has_an_object_schema_a_description_and_hints_from_its_effect() {
    let listed = list();
    let tools = listed["tools"].as_array().unwrap();
    assert_eq!(tools.len(), super::tools().len());
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        assert_eq!(tool["input_schema"]["type"], "object", "{name}");
        assert!(tool["description"].as_str().unwrap().len() > 80, "{name}");
        let read_only = tool["annotations"]["readOnlyHint"].as_bool().unwrap();
        assert_eq!(read_only, tool["effect"] == "read", "{name}");
    }
    let edit = super::tool("edit_lines").unwrap();
    assert!(!edit.read_only() && edit.destructive() && !edit.idempotent());
    let schema = &edit.input_schema;
    assert_eq!(schema["required"], json!(["path", "start", "content"]));
    assert_eq!(schema["additionalProperties"], json!(false));
}

#[test]
fn get_lines_numbers_lines_and_gives_the_hash_edit_lines_checks() {
    let p = Project::new();
    let lines = p.ok(
        "get_lines",
        json!({"path": "shop.py", "start": 4, "end": 5}),
    );
    assert_eq!(
        lines["text"],
        "4\t    def total(self):\n5\t        if self.items:"
    );
    assert_eq!(lines["total_lines"], 13);
    let hash = lines["hash"].as_str().unwrap().to_owned();
    assert_eq!(hash, blake3::hash(SHOP.as_bytes()).to_hex()[..16]);

    let edited = p.ok(
        "edit_lines",
        json!({"path": "shop.py", "start": 5, "end": 7,
               "content": "        return sum(self.items or [])", "expected_hash": hash}),
    );
    assert_eq!(edited["removed"], 3);
    assert_eq!(edited["inserted"], 1);
    assert_eq!(edited["total_lines"], 11);
    assert!(p
        .read("shop.py")
        .contains("    def total(self):\n        return sum(self.items or [])\n\n\nasync"));
    assert_eq!(
        edited["hash"],
        json!(blake3::hash(p.read("shop.py").as_bytes()).to_hex()[..16])
    );
    // the full hash is taken too; a short or non-hex one is refused by name
    let full = blake3::hash(p.read("shop.py").as_bytes())
        .to_hex()
        .to_string();
    p.ok(
        "edit_lines",
        json!({"path": "shop.py", "start": 0, "content": "class Cart:", "expected_hash": full}),
    );
    let short = p.err(
        "edit_lines",
        json!({"path": "shop.py", "start": 0, "content": "x", "expected_hash": "abc"}),
    );
    assert_eq!(
        (short["code"].clone(), short["field"].clone()),
        (json!("invalid_argument"), json!("expected_hash"))
    );

    // the old hash is stale now: refused, with what is there now
    let stale = p.err(
        "edit_lines",
        json!({"path": "shop.py", "start": 5, "content": "x", "expected_hash": hash}),
    );
    assert_eq!(stale["code"], "stale");
    assert_eq!(stale["field"], "expected_hash");
    assert_eq!(stale["current_hash"], edited["hash"]);
    assert_eq!(
        stale["current_text"],
        "        return sum(self.items or [])"
    );
    assert!(p.read("shop.py").contains("or []"), "nothing written");
}

#[test]
fn edit_lines_inserts_appends_and_deletes_whole_lines() {
    let p = Project::new();
    p.ok(
        "edit_lines",
        json!({"path": "app.py", "start": 0, "end": -1, "content": "import os"}),
    );
    assert!(p.read("app.py").starts_with("import os\nfrom shop"));
    let total = p.ok("get_lines", json!({"path": "app.py"}))["total_lines"].clone();
    assert_eq!(total, 6);
    p.ok(
        "edit_lines",
        json!({"path": "app.py", "start": 6, "end": 5, "content": "print(cart)\n"}),
    );
    assert!(p.read("app.py").ends_with("checkout(cart)\nprint(cart)\n"));
    p.ok(
        "edit_lines",
        json!({"path": "app.py", "start": 0, "content": ""}),
    );
    assert!(p.read("app.py").starts_with("from shop"));

    // a file without a final line break keeps none
    std::fs::write(p.dir.path().join("n.txt"), "a\nb").unwrap();
    p.ok(
        "edit_lines",
        json!({"path": "n.txt", "start": 1, "content": "c"}),
    );
    assert_eq!(p.read("n.txt"), "a\nc");
    p.ok(
        "edit_lines",
        json!({"path": "n.txt", "start": 2, "end": 1, "content": "d"}),
    );
    assert_eq!(p.read("n.txt"), "a\nc\nd");
    p.ok(
        "edit_lines",
        json!({"path": "n.txt", "start": 2, "content": ""}),
    );
    assert_eq!(p.read("n.txt"), "a\nc");

    let past = p.err(
        "edit_lines",
        json!({"path": "n.txt", "start": 5, "content": "x"}),
    );
    assert_eq!(past["code"], "invalid_argument");
    assert_eq!(past["field"], "start");
    let reversed = p.err(
        "edit_lines",
        json!({"path": "n.txt", "start": 1, "end": -1, "content": "x"}),
    );
    assert_eq!(reversed["field"], "end");
    assert_eq!(p.read("n.txt"), "a\nc", "failed edits change nothing");
}

#[test]
fn edits_are_undo_steps_of_the_session_on_disk_too() {
    let p = Project::new();
    p.ok(
        "edit_lines",
        json!({"path": "app.py", "start": 3, "content": "cart.add(2)"}),
    );
    p.ok(
        "edit_lines",
        json!({"path": "shop.py", "start": 0, "content": "class Basket:"}),
    );
    // without a path: the file changed last
    assert_eq!(p.ok("undo", json!({}))["files"], json!(["shop.py"]));
    assert_eq!(p.read("shop.py"), SHOP);
    assert_eq!(
        p.ok("undo", json!({"path": "app.py"}))["files"],
        json!(["app.py"])
    );
    assert_eq!(p.read("app.py"), APP);
    let nothing = p.err("undo", json!({"path": "app.py"}));
    assert!(
        nothing["message"]
            .as_str()
            .unwrap()
            .contains("Nothing to undo"),
        "{nothing}"
    );
    // the tools' session is an ordinary one: the terse commands see it
    assert!(p.send("agent", "Status").starts_with("Ok: Session agent"));
}

#[test]
fn create_and_delete_files() {
    let p = Project::new();
    let created = p.ok(
        "create_file",
        json!({"path": "pkg/new.py", "content": "x = 1\ny = 2\n"}),
    );
    assert_eq!(created["total_lines"], 2);
    assert_eq!(p.read("pkg/new.py"), "x = 1\ny = 2\n");
    let again = p.err("create_file", json!({"path": "pkg/new.py", "content": ""}));
    assert_eq!(again["code"], "conflict");
    assert_eq!(
        p.ok("delete_file", json!({"path": "pkg/new.py"}))["files"],
        json!(["pkg/new.py"])
    );
    assert!(!p.dir.path().join("pkg/new.py").exists());
    let gone = p.err("delete_file", json!({"path": "pkg/new.py"}));
    assert_eq!(gone["code"], "not_found");
}

#[test]
fn bad_params_name_the_field() {
    let p = Project::new();
    let missing = p.err("get_lines", json!({}));
    assert_eq!(missing["code"], "invalid_params");
    assert_eq!(missing["field"], "path");
    let typo = p.err("get_lines", json!({"paht": "a.py"}));
    assert_eq!(typo["field"], "paht");
    assert!(typo["candidates"]
        .as_array()
        .unwrap()
        .contains(&json!("path")));
    let wrong_type = p.err(
        "edit_lines",
        json!({"path": "a.py", "start": "3", "content": ""}),
    );
    assert_eq!(wrong_type["field"], "start");
    let not_object = p.err("get_lines", json!(["shop.py"]));
    assert_eq!(not_object["field"], "params");
    let unknown = p.err("get_line", json!({}));
    assert_eq!(unknown["code"], "unknown_tool");
    assert_eq!(unknown["candidates"][0], "get_lines");
}

#[test]
fn paths_are_jailed_for_every_tool() {
    let p = Project::new();
    for (tool, params) in [
        ("get_lines", json!({"path": "../etc/passwd"})),
        (
            "edit_lines",
            json!({"path": "../x.py", "start": 0, "content": "x"}),
        ),
        (
            "create_file",
            json!({"path": "/tmp/eddi-escape.py", "content": "x"}),
        ),
        ("delete_file", json!({"path": "../x.py"})),
        ("get_structure", json!({"path": "../"})),
        ("get_function", json!({"path": "../x.py", "name": "f"})),
        ("validate", json!({"path": ".eddi/format.json"})),
    ] {
        let error = p.err(tool, params.clone());
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains("escapes the workspace") || message.contains("state directory"),
            "{tool} {params}: {error}"
        );
    }
    assert!(!std::path::Path::new("/tmp/eddi-escape.py").exists());
}

#[test]
fn permissions_hold_for_tools_as_for_commands() {
    let permissions = Permissions {
        read_only: ["viewer".to_string()].into(),
        path_prefixes: [("lib".to_string(), vec!["pkg".to_string()])].into(),
        ..Default::default()
    };
    let p = Project::with(permissions);
    let denied = p.err_as(
        "viewer",
        "edit_lines",
        json!({"path": "shop.py", "start": 0, "content": "x"}),
    );
    assert_eq!(denied["code"], "permission_denied");
    for (tool, params) in [
        ("create_file", json!({"path": "v.py", "content": ""})),
        ("delete_file", json!({"path": "shop.py"})),
        (
            "eddi",
            json!({"command": "Open shop.py; Insert Line \"x\""}),
        ),
    ] {
        let error = p.err_as("viewer", tool, params);
        assert!(
            error["message"].as_str().unwrap().contains("read-only"),
            "{tool}: {error}"
        );
    }
    assert_eq!(p.read("shop.py"), SHOP);
    // reads are fine for a read-only sender
    call(&p.engine, "viewer", "get_lines", json!({"path": "shop.py"})).unwrap();
    // path prefixes
    let outside = p.err_as("lib", "get_lines", json!({"path": "shop.py"}));
    assert_eq!(outside["code"], "permission_denied");
    let outside = p.err_as(
        "lib",
        "get_function",
        json!({"path": "shop.py", "name": "checkout"}),
    );
    assert_eq!(outside["code"], "permission_denied");
    call(
        &p.engine,
        "lib",
        "create_file",
        json!({"path": "pkg/m.py", "content": "y = 1\n"}),
    )
    .unwrap();
}

#[test]
fn functions_and_classes_by_name_with_or_without_a_path() {
    let p = Project::new();
    let total = p.ok("get_function", json!({"name": "Cart.total"}));
    assert_eq!(total["path"], "shop.py");
    assert_eq!(total["line"], 4);
    assert_eq!(total["end_line"], 7);
    assert!(total["text"]
        .as_str()
        .unwrap()
        .starts_with("def total(self):"));
    let checkout = p.ok(
        "get_function",
        json!({"name": "checkout", "path": "shop.py"}),
    );
    assert_eq!(checkout["kind"], "function");
    let cart = p.ok("get_class", json!({"name": "Cart"}));
    assert_eq!(cart["kind"], "class");
    assert_eq!(
        (cart["line"].clone(), cart["end_line"].clone()),
        (json!(0), json!(7))
    );

    let missing = p.err("get_function", json!({"name": "chekout"}));
    assert_eq!(missing["code"], "not_found");
    assert_eq!(missing["field"], "name");
    assert!(
        missing["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("checkout")),
        "{missing}"
    );
    let in_file = p.err("get_function", json!({"name": "totl", "path": "shop.py"}));
    assert!(
        in_file["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("total")),
        "{in_file}"
    );
    let not_a_class = p.err("get_class", json!({"name": "checkout"}));
    assert_eq!(not_a_class["code"], "not_found");
}

#[test]
fn search_results_match_the_terse_commands() {
    let p = Project::new();
    p.send("cmp", "Start cmp; Set Format json");
    for (tool, key, command, symbol) in [
        (
            "find_references",
            "references",
            "Find References",
            "shop.Cart",
        ),
        ("find_callers", "callers", "Find Callers", "shop.Cart.total"),
        (
            "find_definition",
            "definitions",
            "Find Definition",
            "checkout",
        ),
    ] {
        let field = if tool == "find_callers" {
            "function"
        } else {
            "symbol"
        };
        let result = p.ok(tool, json!({ field: symbol }));
        assert_eq!(result["detail"], "full");
        let reply: Value =
            serde_json::from_str(&p.send("cmp", &format!("{command} {symbol}"))).unwrap();
        let terse_key = if key == "definitions" {
            "definitions"
        } else {
            key
        };
        assert_eq!(
            result[key], reply[terse_key],
            "{tool} vs {command}: {reply}"
        );
        assert_eq!(
            result["count"],
            json!(result[key].as_array().unwrap().len())
        );
    }
    let unknown = p.err("find_references", json!({"symbol": "Crat"}));
    assert_eq!(unknown["code"], "not_found");
    assert_eq!(unknown["field"], "symbol");
    assert!(
        !unknown["candidates"].as_array().unwrap().is_empty(),
        "{unknown}"
    );
}

#[test]
fn large_answers_degrade_saying_which() {
    let p = Project::new();
    let full = p.ok("find_references", json!({"symbol": "shop.Cart"}));
    let size = full.to_string().len();
    let no_context = p.ok(
        "find_references",
        json!({"symbol": "shop.Cart", "max_chars": size - 1}),
    );
    assert_eq!(no_context["detail"], "no_context");
    assert!(no_context["references"][0].get("context").is_none());
    assert_eq!(
        no_context["references"].as_array().unwrap().len(),
        full["references"].as_array().unwrap().len()
    );
    let per_file = p.ok(
        "find_references",
        json!({"symbol": "shop.Cart", "max_chars": 150}),
    );
    assert_eq!(per_file["detail"], "per_file", "{per_file}");
    let counted: u64 = per_file["references"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(json!(counted), full["count"]);
    let total = p.ok(
        "find_references",
        json!({"symbol": "shop.Cart", "max_chars": 10}),
    );
    assert_eq!(total["detail"], "total");
    assert_eq!(total["count"], full["count"]);
}

#[test]
fn structure_complexity_todos_dependencies_validate() {
    let p = Project::new();
    let project = p.ok("get_structure", json!({}));
    assert_eq!(
        project["files"],
        json!([{"path": "app.py", "outline": []},
               {"path": "shop.py", "outline": ["class Cart@0: add, total", "async def checkout@10"]}])
    );
    let file = p.ok("get_structure", json!({"path": "shop.py"}));
    assert_eq!(file["children"][0]["name"], "Cart");

    let complexity = p.ok("get_complexity", json!({"path": "shop.py"}));
    assert_eq!(
        complexity["blocks"][0],
        json!({"name": "Cart", "complexity": 3})
    );
    assert_eq!(
        complexity["blocks"][1],
        json!({"name": "Cart.total", "complexity": 2})
    );
    let all = p.ok("get_complexity", json!({}));
    assert_eq!(
        all["blocks"][1],
        json!({"name": "Cart.total", "complexity": 2, "path": "shop.py"})
    );

    let todos = p.ok("get_todos", json!({}));
    assert_eq!(
        todos["todos"],
        json!([{"path": "shop.py", "line": 11, "col": 4, "text": "TODO: taxes"}])
    );

    let deps = p.ok("get_dependencies", json!({"path": "app.py"}));
    assert_eq!(deps["imports"][0]["module"], "shop");
    let dependents = p.ok("get_dependents", json!({"path": "shop.py"}));
    assert_eq!(
        dependents["dependents"],
        json!([{"module": "app", "path": "app.py"}])
    );

    assert_eq!(p.ok("validate", json!({"path": "shop.py"}))["valid"], true);
    p.ok(
        "edit_lines",
        json!({"path": "app.py", "start": 4, "content": "checkout(cart"}),
    );
    let broken = p.ok("validate", json!({"path": "app.py"}));
    assert_eq!(broken["valid"], false);
    assert_eq!(broken["errors"][0]["line"], 4);
}

#[test]
fn eddi_runs_terse_commands_in_the_same_session() {
    let p = Project::new();
    let reply = p.ok(
        "eddi",
        json!({"command": "Open app.py; Goto 2:0; Show Line 2"}),
    );
    assert!(
        reply["reply"].as_str().unwrap().ends_with("cart = Cart()"),
        "{reply}"
    );
    let failed = p.err("eddi", json!({"command": "Goto 99:0"}));
    assert_eq!(failed["code"], "command_failed");
    // the buffer edit of a command is what get_lines sees (unsaved)
    p.ok(
        "eddi",
        json!({"command": "Goto 0:0; Insert Line \"import os\""}),
    );
    let lines = p.ok("get_lines", json!({"path": "app.py", "start": 0, "end": 0}));
    assert_eq!(lines["text"], "0\timport os");
    assert_eq!(p.read("app.py"), APP, "not saved yet");
}

#[test]
fn code_reads_match_the_terse_commands() {
    let p = Project::new();
    p.send("cmp", "Start cmp; Set Format json; Open shop.py");
    let ask = |command: &str| -> Value { serde_json::from_str(&p.send("cmp", command)).unwrap() };
    // the same element, the same lines
    let shown = ask("Show Method Cart.total");
    let tool = p.ok(
        "get_function",
        json!({"name": "Cart.total", "path": "shop.py"}),
    );
    assert_eq!(tool["line"], shown["element"]["line"]);
    assert_eq!(tool["end_line"], shown["element"]["end_line"]);
    assert_eq!(tool["name"], shown["element"]["name"]);
    // the same tree and figures
    let analyzed = ask("Analyze File Structure");
    assert_eq!(
        p.ok("get_structure", json!({"path": "shop.py"})),
        analyzed["structure"]
    );
    let analyzed = ask("Analyze File Complexity");
    let mut tool = p.ok("get_complexity", json!({"path": "shop.py"}));
    tool.as_object_mut().unwrap().remove("path");
    assert_eq!(tool, analyzed["complexity"]);
}

#[test]
fn line_edits_do_what_the_terse_edits_do() {
    // the same change through edit_lines and through Goto/Delete/Insert
    // leaves the same file and counts the same lines
    let tools = Project::new();
    let terse = Project::new();
    let edited = tools.ok(
        "edit_lines",
        json!({"path": "shop.py", "start": 5, "end": 7, "content": "        return sum(self.items or [])"}),
    );
    let reply = terse.send(
        "t",
        "Start t; Set Format json; Open shop.py; Delete Block 5:7; Insert Line \"        return sum(self.items or [])\"; Save",
    );
    let replies: Vec<Value> = reply
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies[3]["deleted"]["lines"], edited["removed"]);
    assert_eq!(replies[4]["inserted"]["lines"], edited["inserted"]);
    assert_eq!(tools.read("shop.py"), terse.read("shop.py"));
}

#[test]
fn docs_describe_every_tool() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/TOOLS.md"),
    )
    .unwrap();
    for tool in super::tools() {
        assert!(
            docs.contains(&format!("### `{}`", tool.name)),
            "docs/TOOLS.md lacks {}",
            tool.name
        );
    }
}

#[test]
fn empty_files_and_crlf_files_edit_as_lines() {
    let p = Project::new();
    std::fs::write(p.dir.path().join("empty.txt"), "").unwrap();
    let lines = p.ok("get_lines", json!({"path": "empty.txt"}));
    assert_eq!(
        (lines["total_lines"].clone(), lines["text"].clone()),
        (json!(0), json!(""))
    );
    p.ok(
        "edit_lines",
        json!({"path": "empty.txt", "start": 0, "end": -1, "content": "first"}),
    );
    assert_eq!(p.read("empty.txt"), "first\n");

    // a CRLF file keeps its line endings; lines are shown without them
    std::fs::write(p.dir.path().join("w.py"), "a = 1\r\nb = 2\r\nc = 3\r\n").unwrap();
    let lines = p.ok("get_lines", json!({"path": "w.py", "start": 1, "end": 1}));
    assert_eq!(lines["text"], "1\tb = 2");
    p.ok(
        "edit_lines",
        json!({"path": "w.py", "start": 1, "content": "b = 20\nbb = 21", "expected_hash": lines["hash"]}),
    );
    assert_eq!(p.read("w.py"), "a = 1\r\nb = 20\r\nbb = 21\r\nc = 3\r\n");
    p.ok(
        "edit_lines",
        json!({"path": "w.py", "start": 0, "end": 1, "content": ""}),
    );
    assert_eq!(p.read("w.py"), "bb = 21\r\nc = 3\r\n");

    // reading past the end is clamped and said; starting past it is refused
    let clamped = p.ok("get_lines", json!({"path": "w.py", "start": 1, "end": 9}));
    assert_eq!(clamped["text"], "1\tc = 3");
    assert!(clamped["note"].as_str().unwrap().contains("clamped"));
    let past = p.err("get_lines", json!({"path": "w.py", "start": 5}));
    assert_eq!(past["field"], "start");
}

/// A module for the extractions and inlines.
const CALC: &str = include_str!("../../tests/fixtures/tools/calc.py");

impl Project {
    fn with_calc() -> Project {
        let p = Project::new();
        std::fs::write(p.dir.path().join("calc.py"), CALC).unwrap();
        p
    }
}

/// A refactoring tool carries its `path` and `line` in the request: the
/// agent's session keeps its current file, its cursor and its open files
/// (issue 27), whether the refactor is previewed, applied or refused.
#[test]
fn a_refactor_tool_leaves_the_sessions_cursor_and_files_as_they_were() {
    let p = Project::with_calc();
    assert_eq!(
        p.send("agent", "Start agent; Open shop.py; Goto 4:4"),
        "Ok\nOk, At 0:0, Length 13\nOk, At 4:4"
    );
    let status = "Ok: Session agent, File shop.py, At 4:4";
    let calls = [
        (
            "extract_function",
            json!({"path": "calc.py", "name": "twice", "first_line": 7, "last_line": 7, "preview": true}),
        ),
        (
            "inline_variable",
            json!({"path": "calc.py", "name": "scale", "line": 2, "preview": true}),
        ),
        (
            "rename_symbol",
            json!({"symbol": "area", "new_name": "surface", "path": "calc.py", "preview": true}),
        ),
        (
            "inline_variable",
            json!({"path": "calc.py", "name": "scale", "line": 99, "preview": true}),
        ),
    ];
    for (tool, params) in calls {
        let _ = call(&p.engine, "agent", tool, params.clone());
        assert_eq!(p.send("agent", "Status"), status, "after {tool} {params}");
    }
    // Applied, the change opens the file it edits (the applier's one undo
    // step): the current file and cursor are still the agent's.
    let status = "Ok: Session agent, File shop.py, At 4:4, 2 files open";
    let applied = [
        (
            "inline_variable",
            json!({"path": "calc.py", "name": "scale", "line": 1, "preview": false}),
        ),
        (
            "extract_method",
            json!({"path": "calc.py", "name": "face_of", "first_line": 11, "last_line": 11, "preview": false}),
        ),
    ];
    for (tool, params) in applied {
        assert_eq!(p.ok(tool, params.clone())["applied"], true);
        assert_eq!(p.send("agent", "Status"), status, "after {tool} {params}");
    }
    assert!(p.read("calc.py").contains("return base * 2"));
    assert!(p.read("calc.py").contains("def face_of("));
}

#[test]
fn refactor_tools_preview_without_writing_and_apply_in_one_undo_step() {
    let p = Project::new();
    let params = json!({"symbol": "Cart.add", "new_name": "put", "preview": true});
    let preview = p.ok("rename_symbol", params.clone());
    assert_eq!(p.read("shop.py"), SHOP, "a preview writes nothing");
    assert_eq!(preview["applied"], false);
    assert_eq!(
        preview["summary"],
        json!({"symbol": "shop.Cart.add", "files": 2, "references": 2})
    );
    let files = preview["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["path"], "app.py");
    assert_eq!(
        files[0]["diff"],
        "--- a/app.py\n+++ b/app.py\n@@ -1,5 +1,5 @@\n from shop import Cart, checkout\n \n cart = Cart()\n-cart.add(1)\n+cart.put(1)\n checkout(cart)\n"
    );
    assert_eq!(files[1]["path"], "shop.py");

    let mut apply = params;
    apply["preview"] = json!(false);
    let applied = p.ok("rename_symbol", apply);
    assert_eq!(applied["applied"], true);
    assert_eq!(applied["summary"], preview["summary"]);
    assert_eq!(
        applied["files"],
        json!([{"path": "app.py", "edits": 1}, {"path": "shop.py", "edits": 1}])
    );
    assert_eq!(p.read("app.py"), APP.replace("cart.add(", "cart.put("));
    assert_eq!(p.read("shop.py"), SHOP.replace("def add(", "def put("));
    // one undo step takes back every file
    let undone = p.ok("undo", json!({}));
    assert_eq!(undone["files"], json!(["app.py", "shop.py"]));
    assert_eq!(
        (p.read("app.py"), p.read("shop.py")),
        (APP.into(), SHOP.into())
    );
}

#[test]
fn refactor_tools_match_the_terse_refactor_commands() {
    // each tool on one copy of the project, the terse command on another:
    // the same report (counts, files, edits, what was left alone), the
    // same files written
    let cases: &[(&str, Value, &str)] = &[
        (
            "rename_symbol",
            json!({"symbol": "shop.Cart", "new_name": "Basket"}),
            "Refactor RenameSymbol shop.Cart Basket",
        ),
        (
            "rename_parameter",
            json!({"function": "Cart.add", "param": "item", "new_name": "thing"}),
            "Refactor Rename_Param Cart.add item thing",
        ),
        (
            "change_signature",
            json!({"function": "checkout", "old_params": "cart", "new_params": "cart, tax:=0"}),
            "Refactor Signature checkout(cart) checkout(cart, tax:=0)",
        ),
        (
            "extract_function",
            json!({"path": "calc.py", "name": "product", "first_line": 2, "last_line": 2}),
            "Open calc.py; Refactor ExtractFunction product lines 2:2",
        ),
        (
            "extract_method",
            json!({"path": "calc.py", "name": "face_of", "first_line": 12, "last_line": 12}),
            "Open calc.py; Refactor Extract_Method face_of lines 12:12",
        ),
        (
            "inline_variable",
            json!({"path": "calc.py", "name": "scale", "line": 2}),
            "Open calc.py; Goto 2; Refactor Inline_Variable scale",
        ),
        (
            "inline_function",
            json!({"function": "double"}),
            "Refactor InlineFunction calc.double",
        ),
        (
            "extract_interface",
            json!({"class": "Box", "interface": "Solid", "path": "calc.py"}),
            "Open calc.py; Refactor Extract_Interface Box Solid",
        ),
        (
            "change_inheritance",
            json!({"class": "Crate", "old_parent": "Box", "new_parent": "Cube"}),
            "Refactor Change_Inheritance Crate Box Cube",
        ),
        (
            "push_down",
            json!({"member": "Box.volume"}),
            "Refactor Push_Down Box.volume",
        ),
        (
            "pull_up",
            json!({"members": ["Crate.lid"]}),
            "Refactor Pull_Up Crate.lid",
        ),
        (
            "merge_classes",
            json!({"first": "Lid", "second": "Hinge", "target": "Cover"}),
            "Refactor Merge_Classes Lid Hinge Cover",
        ),
        (
            "move_method",
            json!({"method": "Door.close", "target": "Latch"}),
            "Refactor Move_Method Door.close Latch",
        ),
        (
            "split_class",
            json!({"class": "Crate", "new_class": "Lids", "members": ["lid"]}),
            "Refactor Split_Class Crate Lids lid",
        ),
        (
            "extract_class",
            json!({"class": "Door", "new_class": "Closer", "members": ["close"]}),
            "Refactor ExtractClass Door Closer close",
        ),
    ];
    for (tool, params, command) in cases {
        let tools = Project::with_calc();
        let terse = Project::with_calc();
        let mut params = params.clone();
        params["preview"] = json!(false);
        let result = tools.ok(tool, params);
        let reply = terse.send("t", &format!("Start t; Set Format json; {command}"));
        let last: Value = serde_json::from_str(reply.lines().last().unwrap()).unwrap();
        let mut report = last["refactor"].clone();
        assert_eq!(last["ok"], true, "{command}: {reply}");
        for file in report["files"].as_array_mut().unwrap() {
            file.as_object_mut().unwrap().remove("diff");
        }
        assert_eq!(result, report, "{tool} vs {command}");
        for path in ["shop.py", "app.py", "calc.py"] {
            assert_eq!(tools.read(path), terse.read(path), "{tool}: {path}");
        }
    }
}

#[test]
fn pull_up_moves_members_and_names_the_members_parameter_at_fault() {
    let p = Project::new();
    let zoo = "class A:\n    pass\n\n\nclass B(A):\n    def f(self):\n        return 1\n";
    std::fs::write(p.dir.path().join("zoo.py"), zoo).unwrap();
    let missing = p.err("pull_up", json!({"members": ["B.g"], "preview": false}));
    assert_eq!(
        (
            missing["code"].clone(),
            missing["field"].clone(),
            missing["candidates"].clone()
        ),
        (json!("not_found"), json!("members"), json!(["f"]))
    );
    let result = p.ok("pull_up", json!({"members": ["zoo.B.f"], "preview": false}));
    assert_eq!(
        result["summary"],
        json!({"class": "zoo.B", "direction": "up", "to": ["A"], "members": ["f"], "inherited_by": [], "kept_own": []})
    );
    assert_eq!(
        p.read("zoo.py"),
        "class A:\n    def f(self):\n        return 1\n\n\nclass B(A):\n    pass\n"
    );
}

/// Each refactoring tool applied to a fresh project: the one file it
/// changes, as it must read after.
fn applied_cases() -> Vec<(&'static str, Value, &'static str, String)> {
    vec![
        (
            "extract_function",
            json!({"path": "calc.py", "name": "product", "first_line": 2, "last_line": 2}),
            "calc.py",
            format!(
                "def product(w, h):\n    base = w * h\n    return base\n\n\n{}",
                CALC.replace("base = w * h", "base = product(w, h)")
                    .replace("face = w * h", "face = product(w, h)")
            ),
        ),
        (
            "extract_method",
            json!({"path": "calc.py", "name": "face_of", "first_line": 12, "last_line": 12}),
            "calc.py",
            CALC.replace(
                "        face = w * h\n        return face * d\n",
                "        face = self.face_of(w, h)\n        return face * d\n\n    def face_of(self, w, h):\n        face = w * h\n        return face\n",
            ),
        ),
        (
            "inline_variable",
            json!({"path": "calc.py", "name": "scale", "line": 2}),
            "calc.py",
            CALC.replace("    scale = 2\n", "")
                .replace("base * scale", "base * 2"),
        ),
        (
            "inline_function",
            json!({"function": "double"}),
            "calc.py",
            CALC.replace("def double(x):\n    return x * 2\n\n\n", "")
                .replace("print(double(3))", "print(3 * 2)"),
        ),
        (
            "extract_interface",
            json!({"class": "calc.Box", "interface": "Solid", "protocol": true}),
            "calc.py",
            format!(
                "from typing import Protocol\n\n\n{}",
                CALC.replace(
                    "class Box:\n",
                    "class Solid(Protocol):\n    def volume(self, w, h, d): ...\n\n\nclass Box:\n",
                )
            ),
        ),
        (
            "change_inheritance",
            json!({"class": "calc.Crate", "old_parent": "Box", "new_parent": "calc.Cube"}),
            "calc.py",
            CALC.replace("class Crate(Box):", "class Crate(Cube):"),
        ),
        (
            "merge_classes",
            json!({"first": "calc.Lid", "second": "calc.Hinge", "target": "Cover"}),
            "calc.py",
            CALC.replace(
                "class Lid:\n    def open(self):\n        return True\n\n\nclass Hinge:\n    def turn(self):\n        return 1\n",
                "class Cover:\n    def open(self):\n        return True\n\n    def turn(self):\n        return 1\n",
            ),
        ),
        (
            "extract_class",
            json!({"class": "calc.Door", "new_class": "Closer", "members": ["close"]}),
            "calc.py",
            CALC.replace(
                "        self.latch = Latch()\n\n    def close(self):\n        return self.latch.click() + 1\n",
                "        self._closer = Closer(self)\n        self.latch = Latch()\n\n    def close(self):\n        return self._closer.close()\n\n\nclass Closer:\n    def __init__(self, door):\n        self.door = door\n\n    def close(self):\n        return self.door.latch.click() + 1\n",
            ),
        ),
        (
            "split_class",
            json!({"class": "calc.Crate", "new_class": "Lids", "members": ["lid"]}),
            "calc.py",
            CALC.replace(
                "class Crate(Box):\n    lid = True\n",
                "class Crate(Box):\n    pass\n\n\nclass Lids:\n    lid = True\n",
            ),
        ),
        (
            "move_method",
            json!({"method": "calc.Door.close", "target": "calc.Latch"}),
            "calc.py",
            CALC.replace(
                "class Latch:\n    def click(self):\n        return 1\n",
                "class Latch:\n    def click(self):\n        return 1\n\n    def close(self):\n        return self.click() + 1\n",
            )
            .replace(
                "        self.latch = Latch()\n\n    def close(self):\n        return self.latch.click() + 1\n",
                "        self.latch = Latch()\n",
            ),
        ),
        (
            "push_down",
            json!({"member": "calc.Box.volume"}),
            "calc.py",
            CALC.replace(
                "class Box:\n    def volume(self, w, h, d):\n        face = w * h\n        return face * d\n",
                "class Box:\n    pass\n",
            )
            .replace(
                "class Crate(Box):\n    lid = True\n",
                "class Crate(Box):\n    lid = True\n\n    def volume(self, w, h, d):\n        face = w * h\n        return face * d\n",
            ),
        ),
        (
            "change_signature",
            json!({"function": "checkout", "old_params": "cart", "new_params": "cart, tax:=0"}),
            "app.py",
            APP.replace("checkout(cart)\n", "checkout(cart, tax=0)\n"),
        ),
        (
            "rename_parameter",
            json!({"function": "Cart.add", "param": "item", "new_name": "thing"}),
            "shop.py",
            SHOP.replace("add(self, item)", "add(self, thing)")
                .replace("append(item)", "append(thing)"),
        ),
    ]
}

#[test]
fn refactor_tools_write_the_expected_files() {
    for (tool, mut params, path, expected) in applied_cases() {
        let p = Project::with_calc();
        params["preview"] = json!(false);
        p.ok(tool, params);
        assert_eq!(p.read(path), expected, "{tool}");
        for (other, text) in [("calc.py", CALC), ("shop.py", SHOP), ("app.py", APP)] {
            if other != path && !(tool == "change_signature" && other == "shop.py") {
                assert_eq!(p.read(other), text, "{tool} left {other} alone");
            }
        }
    }
    // the signature's own file
    let p = Project::with_calc();
    p.ok(
        "change_signature",
        json!({"function": "checkout", "old_params": "cart", "new_params": "cart, tax:=0", "preview": false}),
    );
    assert_eq!(
        p.read("shop.py"),
        SHOP.replace("checkout(cart)", "checkout(cart, tax)")
    );
}

#[test]
fn refactor_tool_errors_name_the_field_and_the_choices() {
    let p = Project::with_calc();
    let unknown = p.err(
        "rename_symbol",
        json!({"symbol": "Cart.ad", "new_name": "put", "preview": true}),
    );
    assert_eq!(
        (unknown["code"].clone(), unknown["field"].clone()),
        (json!("not_found"), json!("symbol"))
    );
    assert_eq!(unknown["candidates"], json!(["add", "total"]));
    let param = p.err(
        "rename_parameter",
        json!({"function": "Cart.add", "param": "itm", "new_name": "x", "preview": true}),
    );
    assert_eq!(
        (
            param["code"].clone(),
            param["field"].clone(),
            param["candidates"].clone()
        ),
        (json!("not_found"), json!("param"), json!(["item", "self"]))
    );
    let conflict = p.err(
        "rename_symbol",
        json!({"symbol": "Cart.add", "new_name": "total", "preview": true}),
    );
    assert_eq!(
        (conflict["code"].clone(), conflict["field"].clone()),
        (json!("conflict"), json!("new_name"))
    );
    let keyword = p.err(
        "rename_symbol",
        json!({"symbol": "Cart.add", "new_name": "class", "preview": false}),
    );
    assert_eq!(keyword["field"], "new_name", "{keyword}");
    let signature = p.err(
        "change_signature",
        json!({"function": "checkout", "old_params": "basket", "new_params": "basket, tax:=0", "preview": true}),
    );
    assert_eq!(
        (signature["code"].clone(), signature["field"].clone()),
        (json!("conflict"), json!("old_params"))
    );
    assert!(signature["message"]
        .as_str()
        .unwrap()
        .contains("checkout(cart)"));
    let past = p.err(
        "extract_function",
        json!({"path": "calc.py", "name": "f", "first_line": 2, "last_line": 99, "preview": true}),
    );
    assert_eq!(
        (past["code"].clone(), past["field"].clone()),
        (json!("invalid_params"), json!("last_line"))
    );
    assert!(
        past["message"].as_str().unwrap().contains("lines 0..48"),
        "{past}"
    );
    let reversed = p.err(
        "extract_method",
        json!({"path": "calc.py", "name": "f", "first_line": 13, "last_line": 12, "preview": true}),
    );
    assert_eq!(reversed["field"], "last_line");
    let missing = p.err(
        "extract_method",
        json!({"path": "nope.py", "name": "f", "first_line": 0, "last_line": 0, "preview": true}),
    );
    assert_eq!(missing["field"], "path", "{missing}");
    let no_preview = p.err("inline_function", json!({"function": "double"}));
    assert_eq!(
        (no_preview["code"].clone(), no_preview["field"].clone()),
        (json!("invalid_params"), json!("preview"))
    );
    let no_variable = p.err(
        "inline_variable",
        json!({"path": "calc.py", "name": "scal", "line": 1, "preview": true}),
    );
    assert_eq!(
        (no_variable["code"].clone(), no_variable["field"].clone()),
        (json!("not_found"), json!("name"))
    );
    assert_eq!(p.read("calc.py"), CALC);
    assert_eq!(p.read("shop.py"), SHOP);
}

#[test]
fn a_read_only_sender_previews_refactors_but_is_refused_applying_them() {
    let p = Project::with(Permissions {
        read_only: ["viewer".to_string()].into(),
        ..Default::default()
    });
    let params = json!({"symbol": "Cart.add", "new_name": "put", "preview": true});
    let preview = call(&p.engine, "viewer", "rename_symbol", params.clone()).unwrap();
    assert_eq!(preview["summary"]["references"], 2);
    let mut apply = params;
    apply["preview"] = json!(false);
    let denied = p.err_as("viewer", "rename_symbol", apply);
    assert_eq!(denied["code"], "permission_denied");
    assert_eq!(
        (p.read("app.py"), p.read("shop.py")),
        (APP.into(), SHOP.into())
    );
}

#[test]
fn an_ambiguous_name_lists_the_exact_names_that_work() {
    let p = Project::new();
    std::fs::write(
        p.dir.path().join("other.py"),
        "class Cart:\n    def add(self, item):\n        return item\n",
    )
    .unwrap();
    let ambiguous = p.err(
        "rename_symbol",
        json!({"symbol": "Cart.add", "new_name": "put", "preview": true}),
    );
    assert_eq!(
        (
            ambiguous["code"].clone(),
            ambiguous["field"].clone(),
            ambiguous["candidates"].clone()
        ),
        (
            json!("ambiguous"),
            json!("symbol"),
            json!(["other.Cart.add", "shop.Cart.add"])
        )
    );
    for exact in ambiguous["candidates"].as_array().unwrap() {
        let preview = p.ok(
            "rename_symbol",
            json!({"symbol": exact, "new_name": "put", "preview": true}),
        );
        assert_eq!(preview["summary"]["symbol"], *exact);
    }
    // `path` says where a plain name is looked up first
    let here = p.ok(
        "rename_symbol",
        json!({"symbol": "Cart.add", "new_name": "put", "path": "other.py", "preview": true}),
    );
    assert_eq!(here["summary"]["symbol"], "other.Cart.add");
}

#[test]
fn a_refactor_is_refused_over_unsaved_edits_and_writes_nothing() {
    let p = Project::new();
    p.ok(
        "eddi",
        json!({"command": "Open app.py; Goto 0:0; Insert Line \"import os\""}),
    );
    let stale = p.err(
        "rename_symbol",
        json!({"symbol": "Cart.add", "new_name": "put", "preview": false}),
    );
    assert_eq!(stale["code"], "stale", "{stale}");
    assert!(
        stale["message"].as_str().unwrap().contains("app.py"),
        "{stale}"
    );
    assert_eq!(
        (p.read("app.py"), p.read("shop.py")),
        (APP.into(), SHOP.into())
    );
}

#[test]
fn a_rename_lists_text_mentions_and_changes_them_when_asked() {
    let p = Project::new();
    let app = "from shop import checkout\n\n# checkout the cart\ncheckout(None)\n";
    std::fs::write(p.dir.path().join("app.py"), app).unwrap();
    let preview = p.ok(
        "rename_symbol",
        json!({"symbol": "shop.checkout", "new_name": "pay", "preview": true}),
    );
    assert_eq!(
        preview["mentions"],
        json!([{"path": "app.py", "line": 2, "col": 2, "end_line": 2, "end_col": 10}])
    );
    p.ok(
        "rename_symbol",
        json!({"symbol": "shop.checkout", "new_name": "pay", "include_text": true, "preview": false}),
    );
    assert_eq!(p.read("app.py"), app.replace("checkout", "pay"));
}

#[test]
fn a_bad_new_parameter_name_is_named_as_the_field() {
    let p = Project::new();
    for new_name in ["class", "item"] {
        let bad = p.err(
            "rename_parameter",
            json!({"function": "Cart.add", "param": "item", "new_name": new_name, "preview": true}),
        );
        assert_eq!(
            (bad["code"].clone(), bad["field"].clone()),
            (json!("invalid_argument"), json!("new_name")),
            "{bad}"
        );
    }
    let class = p.err(
        "rename_parameter",
        json!({"function": "Cart", "param": "a", "new_name": "b", "preview": true}),
    );
    assert_eq!(class["field"], "function", "{class}");
}

#[test]
fn inline_variable_takes_the_variable_by_its_qualified_name() {
    let expected = CALC
        .replace("    scale = 2\n", "")
        .replace("base * scale", "base * 2");
    for params in [
        json!({"name": "calc.area.scale", "preview": false}),
        json!({"name": "area.scale", "path": "calc.py", "preview": false}),
        json!({"name": "scale", "path": "calc.py", "preview": false}),
    ] {
        let p = Project::with_calc();
        p.ok("inline_variable", params.clone());
        assert_eq!(p.read("calc.py"), expected, "{params}");
    }
    let p = Project::with_calc();
    let no_file = p.err(
        "inline_variable",
        json!({"name": "scale", "line": 2, "preview": true}),
    );
    assert_eq!(
        (no_file["code"].clone(), no_file["field"].clone()),
        (json!("invalid_params"), json!("line"))
    );
}

#[test]
fn edit_lines_says_when_it_breaks_a_python_file_as_the_terse_edits_do() {
    let p = Project::new();
    let edited = p.ok(
        "edit_lines",
        json!({"path": "shop.py", "start": 4, "content": "    def total(self)"}),
    );
    let warning = edited["warning"].as_str().unwrap();
    assert!(
        warning.starts_with("Now invalid Python (4 syntax errors): 0:11 missing ':'"),
        "{warning}"
    );
    assert!(
        p.read("shop.py").contains("    def total(self)\n"),
        "written anyway"
    );
    // An edit that keeps the file valid (or leaves it as broken) says nothing.
    let fixed = p.ok(
        "edit_lines",
        json!({"path": "shop.py", "start": 4, "content": "    def total(self):"}),
    );
    assert!(fixed.get("warning").is_none(), "{fixed}");
}

#[test]
fn edit_lines_meets_other_sessions_unsaved_edits_as_a_refactor_does() {
    let p = Project::new();
    // Another session's unsaved edit of app.py, line 3 (`cart.add(1)`).
    assert_eq!(
        p.send(
            "other",
            "Start t; Open app.py; Goto 3:11; Insert Block \"  # two\""
        ),
        "Ok\nOk, At 0:0, Length 5\nOk, At 3:11\nOk, Inserted 1 line at 3, At 3:18"
    );
    // The same line: refused, naming it, nothing written.
    let refused = p.err(
        "edit_lines",
        json!({"path": "app.py", "start": 3, "content": "cart.add(2)"}),
    );
    assert_eq!(refused["code"], "conflict");
    assert_eq!(
        refused["message"],
        "The change changes lines other sessions have unsaved edits on: app.py line 4 (session t); nothing was written. They save or close them first (edits on other lines do not stand in the way: they are carried over)"
    );
    assert_eq!(p.read("app.py"), APP);
    // Another line: written, and carried into the other session's buffer.
    p.ok(
        "edit_lines",
        json!({"path": "app.py", "start": 0, "content": "from shop import Cart, checkout  # shop"}),
    );
    assert_eq!(
        p.send("other", "Show Line 0; Save"),
        "Ok: At 0:0, Notice: app.py was written by session agent (from line 1) under your unsaved edits: its change is in your buffer now, your edits kept on top of it (one undo step; Save writes both), Txt from shop import Cart, checkout  # shop\nOk, Bytes 89"
    );
    assert_eq!(
        p.read("app.py"),
        "from shop import Cart, checkout  # shop\n\ncart = Cart()\ncart.add(1)  # two\ncheckout(cart)\n"
    );
}

#[test]
fn replace_in_files_previews_counts_then_writes_one_undo_step() {
    let p = Project::new();
    let preview = p.ok(
        "replace_in_files",
        json!({"find": "cart", "replace": "basket", "files": "*.py", "preview": true}),
    );
    assert_eq!(
        preview,
        json!({"total": 5, "files": {"app.py": 3, "shop.py": 2}, "searched": 2,
               "skipped_files": [], "applied": false})
    );
    assert_eq!(p.read("app.py"), APP, "a preview writes nothing");
    // The terse command, through the same engine code, counts the same.
    assert_eq!(
        p.send(
            "other",
            r#"Start o; Preview Replace All "cart" With "basket" In Files "*.py""#
        ),
        "Ok\nOk, Preview: Would replace 5 occurrences in 2 files: app.py (3), shop.py (2)"
    );
    let applied = p.ok(
        "replace_in_files",
        json!({"find": r"\bcart\.(\w+)", "regex": true, "replace": "basket.${1}_now", "files": "*.py"}),
    );
    assert_eq!(applied["files"], json!({"app.py": 1, "shop.py": 1}));
    assert_eq!(applied["applied"], true);
    assert!(
        p.read("app.py").contains("basket.add_now(1)\n"),
        "{}",
        p.read("app.py")
    );
    assert!(p.read("shop.py").contains("return basket.total_now()\n"));
    // One undo step takes both files back.
    let undone = p.ok("undo", json!({}));
    assert_eq!(undone["files"], json!(["app.py", "shop.py"]));
    assert_eq!(p.read("app.py"), APP);
    assert_eq!(p.read("shop.py"), SHOP);
}

#[test]
fn replace_in_files_errors_name_the_field_and_write_nothing() {
    let permissions = Permissions {
        read_only: ["viewer".to_string()].into(),
        ..Default::default()
    };
    let p = Project::with(permissions);
    let empty = p.err(
        "replace_in_files",
        json!({"find": "", "replace": "x", "files": "*.py"}),
    );
    assert_eq!(
        (&empty["code"], &empty["field"]),
        (&json!("invalid_params"), &json!("find"))
    );
    let bad = p.err(
        "replace_in_files",
        json!({"find": "(", "regex": true, "replace": "x", "files": "*.py"}),
    );
    assert_eq!(
        (&bad["code"], &bad["field"]),
        (&json!("invalid_params"), &json!("find"))
    );
    let missing = p.err("replace_in_files", json!({"find": "x", "replace": "y"}));
    assert_eq!(missing["field"], "files");
    let none = p.err(
        "replace_in_files",
        json!({"find": "nowhere", "replace": "y", "files": "*.py"}),
    );
    assert_eq!(none["code"], "not_found", "{none}");
    // A read-only sender may preview, not write.
    let counted = call(
        &p.engine,
        "viewer",
        "replace_in_files",
        json!({"find": "cart", "replace": "basket", "files": "*.py", "preview": true}),
    )
    .unwrap();
    assert_eq!(counted["total"], 5);
    let denied = p.err_as(
        "viewer",
        "replace_in_files",
        json!({"find": "cart", "replace": "basket", "files": "*.py"}),
    );
    assert_eq!(denied["code"], "permission_denied", "{denied}");
    // Unsaved edits of the session in a file it would change: refused.
    p.send("agent", "Open app.py; Insert Line \"# mine\"");
    let unsaved = p.err(
        "replace_in_files",
        json!({"find": "cart", "replace": "basket", "files": "*.py"}),
    );
    assert_eq!(unsaved["code"], "stale", "{unsaved}");
    assert_eq!(p.read("app.py"), APP);
    assert_eq!(p.read("shop.py"), SHOP);
}

/// The reading tools work on Go, Rust and Java files: the compact outline
/// of a folder (code, not data), a method by its type (a Rust trait's by
/// its type and trait), a struct as a class, validate, complexity, and
/// the dependencies the index resolves.
#[test]
fn the_reading_tools_work_on_go_rust_and_java_files() {
    let p = Project::new();
    let write = |path: &str, text: &str| {
        let path = p.dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "poly/stack.go",
        "package stack\n\nconst Max = 3\n\ntype Stack struct {\n\titems []int\n}\n\nfunc (s *Stack) Push(v int) {\n\ts.items = append(s.items, v)\n}\n",
    );
    write(
        "poly/point.rs",
        "pub struct Point {\n    x: i32,\n}\n\nimpl Point {\n    pub fn fmt(&self) {}\n}\n\nimpl std::fmt::Display for Point {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        write!(f, \"{}\", self.x)\n    }\n}\n",
    );
    write(
        "poly/Circle.java",
        "class Circle {\n    private double r;\n\n    double area() {\n        return r * r;\n    }\n}\n",
    );
    let folder = p.ok("get_structure", json!({"path": "poly"}));
    assert_eq!(
        folder["files"],
        json!([
            {"path": "poly/Circle.java", "outline": ["class Circle@0: area"]},
            {"path": "poly/point.rs", "outline": ["struct Point@0: fmt, Point.Display.fmt"]},
            {"path": "poly/stack.go", "outline": ["struct Stack@4: Push"]},
        ])
    );
    let push = p.ok(
        "get_function",
        json!({"name": "Stack.Push", "path": "poly/stack.go"}),
    );
    assert_eq!((&push["line"], &push["end_line"]), (&json!(8), &json!(10)));
    assert_eq!(push["kind"], "method");
    let display = p.ok(
        "get_function",
        json!({"name": "Point.Display.fmt", "path": "poly/point.rs"}),
    );
    assert_eq!(display["line"], 9);
    let own = p.ok(
        "get_function",
        json!({"name": "Point.fmt", "path": "poly/point.rs"}),
    );
    assert_eq!(own["text"], "pub fn fmt(&self) {}");
    let stack = p.ok(
        "get_class",
        json!({"name": "Stack", "path": "poly/stack.go"}),
    );
    assert_eq!(stack["text"], "type Stack struct {\n\titems []int\n}");
    let area = p.ok(
        "get_function",
        json!({"name": "Circle.area", "path": "poly/Circle.java"}),
    );
    assert_eq!(area["line"], 3);
    let valid = p.ok("validate", json!({"path": "poly/Circle.java"}));
    assert_eq!(valid["valid"], true);
    write("poly/broken.rs", "fn f() {\n    g());\n}\n");
    let broken = p.ok("validate", json!({"path": "poly/broken.rs"}));
    assert_eq!(broken["valid"], false);
    assert_eq!(broken["errors"][0]["line"], 2);
    // complexity as lizard counts it; dependencies from the index
    let figures = p.ok("get_complexity", json!({"path": "poly/stack.go"}));
    assert!(
        figures["blocks"].as_array().is_some_and(|b| !b.is_empty()),
        "{figures}"
    );
    let deps = p.ok("get_dependencies", json!({"path": "poly/stack.go"}));
    assert_eq!(
        deps,
        json!({"path": "poly/stack.go", "module": "poly", "imports": []})
    );
}

/// Without `path`, the project index finds a brace language's class or
/// function, and the full name it knows it by (`web.shapes.Circle`, Go's
/// `geo.Stack`, Java's `app.Ring.Inner`) is taken back by the file's
/// outline: `get_class` answered "Not found: class 'web.shapes.Circle'"
/// for every class of these languages.
#[test]
fn brace_classes_and_functions_are_found_without_a_path() {
    let p = Project::new();
    let write = |path: &str, text: &str| {
        let path = p.dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "web/shapes.ts",
        "export class Circle {\n  area(): number {\n    return 1;\n  }\n}\n\nexport function unit(): Circle {\n  return new Circle();\n}\n",
    );
    write(
        "geo/stack.go",
        "package geo\n\ntype Stack struct {\n\titems []int\n}\n\nfunc (s *Stack) Push(v int) {\n\ts.items = append(s.items, v)\n}\n",
    );
    write(
        "src/app/Ring.java",
        "package app;\n\nclass Ring {\n    static class Inner {\n        int r() {\n            return 1;\n        }\n    }\n}\n",
    );
    write(
        "src/lib.rs",
        "pub mod shapes {\n    pub struct Square;\n\n    impl Square {\n        pub fn side(&self) -> u32 {\n            1\n        }\n    }\n}\n",
    );
    for (tool, name, path, line) in [
        ("get_class", "Circle", "web/shapes.ts", 0),
        ("get_function", "unit", "web/shapes.ts", 6),
        ("get_function", "Circle.area", "web/shapes.ts", 1),
        ("get_class", "Stack", "geo/stack.go", 2),
        ("get_function", "Stack.Push", "geo/stack.go", 6),
        ("get_class", "Inner", "src/app/Ring.java", 3),
        ("get_class", "Ring.Inner", "src/app/Ring.java", 3),
        ("get_function", "Ring.Inner.r", "src/app/Ring.java", 4),
        ("get_class", "Square", "src/lib.rs", 1),
        ("get_function", "Square.side", "src/lib.rs", 4),
    ] {
        let found = p.ok(tool, json!({ "name": name }));
        assert_eq!(
            (&found["path"], &found["line"]),
            (&json!(path), &json!(line)),
            "{tool} {name}: {found}"
        );
        // the full name the index prints is accepted back
        let definitions = p.ok("find_definition", json!({ "symbol": name }));
        let full = definitions["definitions"][0]["name"]
            .as_str()
            .unwrap()
            .to_owned();
        let again = p.ok(tool, json!({ "name": full, "path": path }));
        assert_eq!(again["line"], line, "{tool} {full}: {again}");
    }
}

#[test]
fn every_name_get_structure_prints_is_taken_back_by_get_function() {
    // overloads named by annotations that hold parentheses of their own
    let p = Project::new();
    let source = "export function pick(f: (x: number) => string): string;\nexport function pick(f: (x: string) => number): number;\nexport function pick(f: any): any {\n    return f;\n}\n";
    std::fs::write(p.dir.path().join("pick.ts"), source).unwrap();
    let outline = p.ok("get_structure", json!({"path": "pick.ts"}));
    let names: Vec<(String, u64)> = outline["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["qualified_name"].as_str().unwrap().to_owned(),
                n["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(names.len(), 3, "{outline}");
    assert_eq!(names[0].0, "pick(f: (x: number) => string)");
    for (name, line) in names {
        let found = p.ok("get_function", json!({"name": name, "path": "pick.ts"}));
        assert_eq!(found["line"], line, "{name}");
    }
}

#[test]
fn run_script_writes_collects_or_previews_a_script() {
    let p = Project::new();
    let flagged = p.ok(
        "run_script",
        json!({"script": "foreach method in Cart flag \"Review\""}),
    );
    assert_eq!(
        flagged["reply"],
        "Ok, 2 methods flagged, Flagged: shop.py:2: Review; shop.py:5: Review"
    );
    assert_eq!(flagged["script"]["flagged"][1]["line"], 5);
    let script = "foreach caller of shop.checkout() replace with checkout($1, fast=True)";
    let preview = p.ok("run_script", json!({"script": script, "preview": true}));
    assert_eq!(
        preview["reply"],
        "Ok, 1 call replaced, Preview: 1 file would change (app.py), nothing written"
    );
    assert!(preview["diff"]
        .as_str()
        .unwrap()
        .contains("+checkout(cart, fast=True)"));
    assert_eq!(
        std::fs::read_to_string(p.dir.path().join("app.py")).unwrap(),
        APP
    );
    let collected = p.ok("run_script", json!({"script": script, "collect": "fast"}));
    assert_eq!(collected["script"]["changeset"], "fast");
    assert_eq!(
        std::fs::read_to_string(p.dir.path().join("app.py")).unwrap(),
        APP
    );
    let written = p.ok("run_script", json!({"script": script}));
    assert_eq!(written["script"]["files"], json!(["app.py"]));
    assert_eq!(
        std::fs::read_to_string(p.dir.path().join("app.py")).unwrap(),
        APP.replace("checkout(cart)", "checkout(cart, fast=True)")
    );
    let refused = p.err("run_script", json!({"script": "Open app.py"}));
    assert_eq!(refused["field"], "script");
    let refused = p.err(
        "run_script",
        json!({"script": "foreach method in Cart where complexty > 1 flag \"x\""}),
    );
    assert_eq!(refused["code"], "invalid_command", "{refused}");
}

#[test]
fn select_returns_the_elements_a_script_query_finds() {
    let p = Project::new();
    let methods = p.ok("select", json!({"query": "methods in Cart"}));
    assert_eq!(methods["reply"], "Ok: Selected 2 methods");
    let names: Vec<&str> = methods["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    let first = &methods["elements"][0];
    assert_eq!(first["path"], "shop.py");
    assert_eq!(first["params"][0], "self");
    assert_eq!(first["class"], "Cart");
    assert!(first["text"].as_str().unwrap().starts_with("def "));
    let calls = p.ok("select", json!({"query": "caller of shop.checkout()"}));
    assert_eq!(calls["elements"][0]["kind"], "call");
    assert_eq!(calls["elements"][0]["path"], "app.py");
    assert_eq!(calls["elements"][0]["args"], json!(["cart"]));
    let refused = p.err("select", json!({"query": "functions where complexty > 1"}));
    assert_eq!(refused["code"], "invalid_command", "{refused}");
    assert_eq!(refused["candidates"][0], "complexity");
    let refused = p.err("select", json!({"query": "functions flag \"x\""}));
    assert_eq!(refused["code"], "invalid_command", "{refused}");
    // nothing written, and the reply of each command as JSON on request
    let data = p.ok("eddi", json!({"command": "Status", "data": true}));
    assert_eq!(data["replies"][0]["ok"], true);
}

/// `select`'s `queries`: each query answered on its own — its elements,
/// or its failure (the index's refusal, a query that does not parse) —
/// in one call; `text: false` leaves the long texts out.
#[test]
fn select_answers_many_queries_each_on_its_own() {
    let p = Project::new();
    let answered = p.ok(
        "select",
        json!({"queries": [
            "caller of shop.checkout()",
            "caller of shop.nowhere()",
            "caller of shop.Cart()",
            "functions wher x",
        ]}),
    );
    assert_eq!(answered["reply"], "Ok: Answered 4 queries");
    let answers = answered["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 4);
    assert_eq!(answers[0]["elements"][0]["path"], "app.py");
    assert_eq!(answers[0]["elements"][0]["text"], "checkout(cart)");
    assert_eq!(answers[1]["failure"]["code"], "not_found", "{answered}");
    assert_eq!(answers[2]["elements"][0]["line"], 3, "{answered}");
    assert_eq!(answers[3]["failure"]["code"], "invalid_command");
    // the same answer as each query alone
    let alone = p.ok("select", json!({"query": "caller of shop.checkout()"}));
    assert_eq!(alone["elements"], answers[0]["elements"]);
    // a query on two lines, both query and queries, none: refused, named
    let two = p.err("select", json!({"queries": ["function", "caller of\nf()"]}));
    assert_eq!(two["field"], "queries", "{two}");
    assert!(
        two["message"].as_str().unwrap().contains("queries[1]"),
        "{two}"
    );
    let both = p.err(
        "select",
        json!({"query": "function", "queries": ["function"]}),
    );
    assert_eq!(both["field"], "queries", "{both}");
    let none = p.err("select", json!({}));
    assert_eq!(none["field"], "query", "{none}");
    // without texts: a definition's text is left out, a call's kept
    let bare = p.ok("select", json!({"query": "methods in Cart", "text": false}));
    assert!(bare["elements"][0].get("text").is_none(), "{bare}");
    assert_eq!(bare["elements"][0]["complexity"], 1);
    let calls = p.ok(
        "select",
        json!({"query": "caller of shop.checkout()", "text": false}),
    );
    assert_eq!(calls["elements"][0]["text"], "checkout(cart)");
}

/// What makes a walk fast keeps `select` exact: a file another program
/// rewrote between two calls is read again — the same size with another
/// mtime, or another size with the same mtime (both long past, when a
/// stamp alone vouches for a kept parse) — and the callers asked again
/// after another program added a call count it (the index's memo of
/// the last request is not taken for the changed index).
#[test]
fn select_sees_files_another_program_rewrote_between_two_calls() {
    let p = Project::new();
    let path = p.dir.path().join("shop.py");
    let aged = |seconds: u64| {
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds))
            .unwrap()
    };
    let names = || -> Vec<String> {
        let found = p.ok(
            "select",
            json!({"query": "function where function.file == \"shop.py\"", "text": false}),
        );
        found["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_owned())
            .collect()
    };
    aged(1_000_000_000);
    assert_eq!(names(), ["add", "total", "checkout"]);
    assert_eq!(names(), ["add", "total", "checkout"], "the kept parse");
    std::fs::write(&path, SHOP.replace("def total", "def summa")).unwrap();
    aged(1_000_000_100);
    assert_eq!(
        names(),
        ["add", "summa", "checkout"],
        "same size, other mtime"
    );
    std::fs::write(&path, SHOP.replace("def total", "def sum_of")).unwrap();
    aged(1_000_000_100);
    assert_eq!(
        names(),
        ["add", "sum_of", "checkout"],
        "other size, same mtime"
    );

    let calls = || {
        let answered = p.ok(
            "select",
            json!({"queries": ["caller of shop.checkout()", "caller of shop.Cart()"]}),
        );
        answered["answers"][0]["elements"].as_array().unwrap().len()
    };
    assert_eq!(calls(), 1);
    assert_eq!(calls(), 1, "asked again, the index unchanged");
    std::fs::write(
        p.dir.path().join("app.py"),
        format!("{APP}checkout(cart)\n"),
    )
    .unwrap();
    // the watch of the tree tells the index a little later
    let start = std::time::Instant::now();
    while calls() != 2 && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(calls(), 2);
}

/// An element says its file's language; `caller of` a JavaScript
/// function held in a variable asks the brace languages' index for it —
/// never for the callers of a same-named Python function.
#[test]
fn caller_of_another_languages_function_is_its_own_not_pythons() {
    let p = Project::new();
    std::fs::write(
        p.dir.path().join("ui.js"),
        "function checkout(cart) {\n  return cart;\n}\ncheckout(1);\n",
    )
    .unwrap();
    let found = p.ok(
        "select",
        json!({"query": "function checkout", "text": false}),
    );
    let languages: Vec<(&str, &str)> = found["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["path"].as_str().unwrap(), e["language"].as_str().unwrap()))
        .collect();
    assert_eq!(languages, [("shop.py", "python"), ("ui.js", "javascript")]);
    // the JavaScript function's calls, from the brace languages' index:
    // not the Python function's of the same name
    let script = "{ let $js = function checkout where function.file == \"ui.js\" foreach caller of $js { flag \"x\" } }";
    let ran = p.ok("run_script", json!({ "script": script }));
    assert_eq!(
        ran["script"]["flagged"],
        json!([{"line": 4, "message": "x", "path": "ui.js"}]),
        "{ran}"
    );
}

/// `select`'s `where`: joined to the query's own condition; a mistake in
/// it is refused at its line:col in the condition as written.
#[test]
fn select_where_reports_mistakes_at_their_place_in_the_condition() {
    let p = Project::new();
    let found = p.ok(
        "select",
        json!({"query": "function where function.file == \"shop.py\"", "where": "complexity > 1"}),
    );
    let names: Vec<&str> = found["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["total"]);
    let refused = p.err(
        "select",
        json!({"query": "function where function.file == \"shop.py\"", "where": "params.count == 1 and complexty > 1"}),
    );
    assert_eq!(refused["code"], "invalid_command", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().starts_with("1:23:"),
        "{refused}"
    );
    let refused = p.err(
        "select",
        json!({"query": "function", "where": "complexity >"}),
    );
    assert!(
        refused["message"].as_str().unwrap().starts_with("1:13:"),
        "{refused}"
    );
    let empty = p.err("select", json!({"query": "function", "where": " "}));
    assert_eq!(empty["field"], "where", "{empty}");
}

/// `select`'s `after`: the query sees the files as a script leaves them,
/// nothing written — a function it renamed, a call it moved.
#[test]
fn select_after_a_script_sees_its_edits_and_writes_nothing() {
    let p = Project::new();
    let script = "foreach file matching \"app.py\" add import os";
    let calls = p.ok(
        "select",
        json!({"query": "caller of shop.checkout()", "after": script}),
    );
    // the call moved down a line with the added import
    assert_eq!(calls["elements"][0]["line"], 6, "{calls}");
    assert_eq!(calls["elements"][0]["text"], "checkout(cart)");
    assert_eq!(p.read("app.py"), APP);
    let broken = p.err(
        "select",
        json!({"query": "function", "after": "foreach nothing"}),
    );
    assert_eq!(broken["code"], "invalid_command", "{broken}");
}

/// A script's `caller of` after a statement that edited the caller's
/// file: the index sees the file as the script left it, so the call is
/// found where it is now, not where it was on disk.
#[test]
fn a_scripts_callers_are_found_where_earlier_statements_moved_them() {
    let p = Project::new();
    p.ok(
        "run_script",
        json!({"script": "{\nforeach file matching \"app.py\" add line \"import os\"\nforeach caller of shop.checkout() replace with checkout($1, fast=True)\n}"}),
    );
    let app = p.read("app.py");
    assert!(app.contains("\ncheckout(cart, fast=True)\n"), "{app}");
    assert!(app.contains("import os\n"), "{app}");
    assert!(!app.contains("checkout(cart)\n"), "{app}");
}

#[test]
fn a_read_only_sender_may_select_and_flag_but_not_write() {
    let p = Project::with(Permissions {
        read_only: ["viewer".to_string()].into(),
        ..Default::default()
    });
    let found = call(
        &p.engine,
        "viewer",
        "select",
        json!({"query": "functions where complexity > 1"}),
    )
    .unwrap();
    assert_eq!(found["elements"][0]["name"], "total");
    // a script that only flags is a read; one that writes is refused
    let flagged = call(
        &p.engine,
        "viewer",
        "run_script",
        json!({"script": "foreach method in Cart flag \"x\""}),
    )
    .unwrap();
    assert_eq!(flagged["script"]["flagged"].as_array().unwrap().len(), 2);
    let denied = p.err_as(
        "viewer",
        "run_script",
        json!({"script": "foreach method in Cart replace \"self\" with \"me\""}),
    );
    assert_eq!(denied["code"], "permission_denied");
}

/// The index tools on JavaScript and TypeScript files: a JS function used
/// from a TS file is found, each use certain or possible, its callers with
/// the function they are in, its definition, and the files that import
/// its file (`get_dependents`); an unsaved edit of the sender's is seen.
#[test]
fn the_index_tools_work_on_javascript_and_typescript() {
    let p = Project::new();
    let write = |path: &str, text: &str| {
        let path = p.dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "web/util.js",
        "export function add(a, b) {\n  return a + b;\n}\n",
    );
    write(
        "web/app.ts",
        "import { add } from './util.js';\nconst m = require('./util');\n\nexport function run(): number {\n  return add(1, 2) + m.add(3, 4);\n}\n",
    );
    // `add` is a method of shop.py too: asked from no file, both are named
    let both = p.err("find_references", json!({"symbol": "add"}));
    assert_eq!(both["candidates"], json!(["shop.Cart.add", "web.util.add"]));
    let found = p.ok("find_references", json!({"symbol": "web.util.add"}));
    let sites: Vec<(String, u64, u64, bool)> = found["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap().to_string(),
                r["line"].as_u64().unwrap(),
                r["col"].as_u64().unwrap(),
                r["certain"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sites,
        [
            ("web/app.ts".to_string(), 0, 9, true),
            ("web/app.ts".to_string(), 4, 9, true),
            ("web/app.ts".to_string(), 4, 23, false),
        ],
        "{found}"
    );
    let callers = p.ok("find_callers", json!({"function": "web.util.add"}));
    assert_eq!(
        callers["callers"][0]["in_symbol"], "web.app.run",
        "{callers}"
    );
    let definition = p.ok("find_definition", json!({"symbol": "add"}));
    // asked from no file: every definition of the name, in each index
    assert_eq!(definition["definitions"][0]["path"], "shop.py");
    assert_eq!(
        definition["definitions"][1]["name"], "web.util.add",
        "{definition}"
    );
    let deps = p.ok("get_dependencies", json!({"path": "web/app.ts"}));
    assert_eq!(
        deps,
        json!({"path": "web/app.ts", "module": "web.app", "imports": [
            {"source": "./util.js", "kind": "import", "names": ["add"],
             "files": ["web/util.js"], "module": "web.util"},
            {"source": "./util", "kind": "require", "names": ["m"],
             "files": ["web/util.js"], "module": "web.util"},
        ]})
    );
    let dependents = p.ok("get_dependents", json!({"path": "web/util.js"}));
    assert_eq!(
        dependents["dependents"],
        json!([{"module": "web.app", "path": "web/app.ts"}]),
        "{dependents}"
    );
    // the sender's unsaved edit: a third use
    p.send(
        "agent",
        "Start agent; Open web/util.js; Goto 3; Insert Line \"add(0, 0);\"",
    );
    let found = p.ok("find_references", json!({"symbol": "add"}));
    assert_eq!(found["count"], 4, "{found}");
}
