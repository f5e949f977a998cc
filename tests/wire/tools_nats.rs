//! The agent tools over a real nats-server with the real engine:
//! `tools.list`, `tools.call` (every tool, on real files), `guide`, the
//! service's INFO, retries by `Nats-Msg-Id`, permissions and bad requests —
//! every answer checked against `protocol/schemas/`.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use eddi::engine::{Engine, EngineConfig, Permissions};
use serde_json::{json, Value};

use crate::support::nats::*;

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

/// A module for the extractions and inlines.
const CALC: &str = include_str!("../fixtures/tools/calc.py");

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("protocol/schemas/{name}.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::options().build(&schema).unwrap()
}

/// The `refactor` object of the replies, which the refactoring tools answer.
fn refactor_schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/schemas/reply.json");
    let reply: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let schema = json!({"$ref": "#/properties/refactor", "properties": reply["properties"], "$defs": reply["$defs"]});
    jsonschema::options().build(&schema).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {value}: {errors:?}");
}

struct Tools {
    client: async_nats::Client,
    subjects: eddi::transport::Subjects,
    result: jsonschema::Validator,
    called: BTreeSet<String>,
}

impl Tools {
    async fn message(
        &mut self,
        sender: &str,
        tool: &str,
        params: Value,
        id: Option<&str>,
    ) -> async_nats::Message {
        self.called.insert(tool.to_owned());
        let body = json!({"sender": sender, "tool": tool, "params": params}).to_string();
        let headers = id.map(|id| {
            let mut h = async_nats::HeaderMap::new();
            h.insert("Nats-Msg-Id", id);
            h
        });
        direct_message(
            &self.client,
            self.subjects.tools_call(),
            body.into_bytes(),
            headers,
        )
        .await
    }

    async fn answer(&mut self, sender: &str, tool: &str, params: Value) -> Value {
        let message = self.message(sender, tool, params, None).await;
        let answer: Value = serde_json::from_slice(&message.payload).unwrap();
        assert_valid(&self.result, tool, &answer);
        answer
    }

    async fn ok(&mut self, tool: &str, params: Value) -> Value {
        self.ok_as("agent", tool, params).await
    }

    async fn ok_as(&mut self, sender: &str, tool: &str, params: Value) -> Value {
        let answer = self.answer(sender, tool, params.clone()).await;
        assert_eq!(answer["ok"], true, "{tool} {params}: {answer}");
        answer["result"].clone()
    }

    async fn err(&mut self, sender: &str, tool: &str, params: Value) -> Value {
        let answer = self.answer(sender, tool, params.clone()).await;
        assert_eq!(answer["ok"], false, "{tool} {params}: {answer}");
        answer["error"].clone()
    }
}

async fn setup(permissions: Permissions) -> (NatsServer, tempfile::TempDir, Eddi, Tools) {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("shop.py"), SHOP).unwrap();
    std::fs::write(dir.path().join("app.py"), APP).unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.permissions = permissions;
    let engine = Arc::new(Engine::open(config).unwrap());
    let eddi = start_eddi(&nats.url(), engine, EddiOptions::default()).await;
    let tools = Tools {
        client: client(&nats.url()).await,
        subjects: eddi.subjects.clone(),
        result: schema("tools_result"),
        called: BTreeSet::new(),
    };
    (nats, dir, eddi, tools)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_over_nats_on_real_files() {
    let (_nats, dir, eddi, mut t) = setup(Permissions::default()).await;
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();

    // the list is the registry's, and the schema's shape
    let listed = t
        .client
        .request(t.subjects.tools_list(), "".into())
        .await
        .unwrap();
    let listed: Value = serde_json::from_slice(&listed.payload).unwrap();
    assert_valid(&schema("tools_list"), "tools.list", &listed);
    assert_eq!(listed, eddi::tools::list());

    // read
    let lines = t
        .ok(
            "get_lines",
            json!({"path": "shop.py", "start": 4, "end": 5}),
        )
        .await;
    assert_eq!(
        lines["text"],
        "4\t    def total(self):\n5\t        if self.items:"
    );
    let hash = lines["hash"].as_str().unwrap().to_owned();
    let total = t.ok("get_function", json!({"name": "Cart.total"})).await;
    assert_eq!(
        (total["line"].clone(), total["end_line"].clone()),
        (json!(4), json!(7))
    );
    let class = t
        .ok("get_class", json!({"name": "Cart", "path": "shop.py"}))
        .await;
    assert!(class["text"].as_str().unwrap().starts_with("class Cart:"));
    let structure = t.ok("get_structure", json!({})).await;
    assert_eq!(
        structure["files"][1]["outline"][0],
        "class Cart@0: add, total"
    );

    // search
    let refs = t
        .ok("find_references", json!({"symbol": "shop.Cart"}))
        .await;
    assert_eq!(refs["detail"], "full");
    assert!(refs["references"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["path"] == "app.py" && r["line"] == 2));
    let def = t.ok("find_definition", json!({"symbol": "checkout"})).await;
    assert_eq!(def["definitions"][0]["path"], "shop.py");
    let callers = t.ok("find_callers", json!({"function": "checkout"})).await;
    assert_eq!(callers["callers"][0]["in_symbol"], "<module>");

    // analysis
    let deps = t.ok("get_dependencies", json!({"path": "app.py"})).await;
    assert_eq!(deps["imports"][0]["module"], "shop");
    let dependents = t.ok("get_dependents", json!({"path": "shop.py"})).await;
    assert_eq!(dependents["dependents"][0]["path"], "app.py");
    let complexity = t.ok("get_complexity", json!({"path": "shop.py"})).await;
    assert_eq!(complexity["blocks"][0]["name"], "Cart");
    let todos = t.ok("get_todos", json!({"path": "shop.py"})).await;
    assert_eq!(todos["todos"][0]["text"], "TODO: taxes");
    assert_eq!(
        t.ok("validate", json!({"path": "shop.py"})).await["valid"],
        true
    );

    // edit
    let edited = t
        .ok(
            "edit_lines",
            json!({"path": "shop.py", "start": 5, "end": 7,
                   "content": "        return sum(self.items or [])", "expected_hash": hash}),
        )
        .await;
    assert_eq!(edited["removed"], 3);
    assert!(read("shop.py").contains("return sum(self.items or [])\n"));
    let stale = t
        .err(
            "agent",
            "edit_lines",
            json!({"path": "shop.py", "start": 0, "content": "x", "expected_hash": hash}),
        )
        .await;
    assert_eq!(stale["code"], "stale");
    assert_eq!(stale["current_hash"], edited["hash"]);
    assert_eq!(stale["current_text"], "class Cart:");
    assert_eq!(
        t.ok("undo", json!({"path": "shop.py"})).await["files"],
        json!(["shop.py"])
    );
    assert_eq!(read("shop.py"), SHOP);
    t.ok(
        "create_file",
        json!({"path": "pkg/util.py", "content": "def helper():\n    return 1\n"}),
    )
    .await;
    assert_eq!(read("pkg/util.py"), "def helper():\n    return 1\n");
    t.ok("delete_file", json!({"path": "pkg/util.py"})).await;
    assert!(!dir.path().join("pkg/util.py").exists());
    let replaced = t
        .ok(
            "replace_in_files",
            json!({"find": "cart", "replace": "basket", "files": "*.py", "preview": true}),
        )
        .await;
    assert_eq!(replaced["files"], json!({"app.py": 3, "shop.py": 2}));
    assert_eq!(replaced["applied"], false);
    assert_eq!(read("app.py"), APP, "a preview writes nothing");
    let reply = t
        .ok("eddi", json!({"command": "Open app.py; Show Line 2"}))
        .await;
    assert!(
        reply["reply"].as_str().unwrap().ends_with("cart = Cart()"),
        "{reply}"
    );

    // a query alone: the elements a script's foreach would visit
    let methods = t.ok("select", json!({"query": "methods in Cart"})).await;
    assert_eq!(methods["reply"], "Ok: Selected 2 methods");
    assert_eq!(methods["elements"][0]["class"], "Cart");

    // a script: previewed (nothing written), then written as one step
    let script = "foreach method in Cart flag \"Review\"";
    let flagged = t.ok("run_script", json!({"script": script})).await;
    assert_eq!(
        flagged["reply"],
        "Ok, 2 methods flagged, Flagged: shop.py:2: Review; shop.py:5: Review"
    );
    assert_eq!(flagged["script"]["flagged"][0]["line"], 2);
    let preview = t
        .ok(
            "run_script",
            json!({"script": "foreach caller of shop.checkout() replace with checkout($1, fast=True)", "preview": true}),
        )
        .await;
    assert!(
        preview["diff"]
            .as_str()
            .unwrap()
            .contains("+checkout(cart, fast=True)"),
        "{preview}"
    );
    assert_eq!(read("app.py"), APP, "a preview writes nothing");

    refactors(&mut t, dir.path()).await;

    // every tool of the registry went over the wire
    let all: BTreeSet<String> = eddi::tools::tools()
        .iter()
        .map(|t| t.name.to_owned())
        .collect();
    assert_eq!(t.called, all);
    eddi.stop().await.unwrap();
}

/// Every refactoring tool over the wire: a preview writes nothing and
/// shows the diff, applying writes exactly the expected file(s), `undo`
/// takes each change back in every file.
async fn refactors(t: &mut Tools, root: &Path) {
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let report = refactor_schema();
    std::fs::write(root.join("calc.py"), CALC).unwrap();
    let rename = json!({"symbol": "Cart.add", "new_name": "put", "preview": true});
    let preview = t.ok("rename_symbol", rename.clone()).await;
    assert_eq!((read("app.py"), read("shop.py")), (APP.into(), SHOP.into()));
    assert_eq!(
        preview["files"][0]["diff"],
        "--- a/app.py\n+++ b/app.py\n@@ -1,5 +1,5 @@\n from shop import Cart, checkout\n \n cart = Cart()\n-cart.add(1)\n+cart.put(1)\n checkout(cart)\n"
    );
    let mut apply = rename;
    apply["preview"] = json!(false);
    let applied = t.ok("rename_symbol", apply).await;
    assert_eq!(
        (applied["applied"].clone(), applied["summary"].clone()),
        (
            json!(true),
            json!({"symbol": "shop.Cart.add", "files": 2, "references": 2})
        )
    );
    assert_eq!(read("app.py"), APP.replace("cart.add(", "cart.put("));
    assert_eq!(read("shop.py"), SHOP.replace("def add(", "def put("));
    let undone = t.ok("undo", json!({"path": "shop.py"})).await;
    assert_eq!(undone["files"], json!(["app.py", "shop.py"]));
    assert_eq!((read("app.py"), read("shop.py")), (APP.into(), SHOP.into()));

    let cases = [
        (
            "rename_parameter",
            json!({"function": "Cart.add", "param": "item", "new_name": "thing"}),
            vec![("shop.py", SHOP.replace("add(self, item)", "add(self, thing)").replace("append(item)", "append(thing)"))],
        ),
        (
            "change_signature",
            json!({"function": "checkout", "old_params": "cart", "new_params": "cart, tax:=0"}),
            vec![
                ("app.py", APP.replace("checkout(cart)\n", "checkout(cart, tax=0)\n")),
                ("shop.py", SHOP.replace("checkout(cart)", "checkout(cart, tax)")),
            ],
        ),
        (
            "extract_function",
            json!({"path": "calc.py", "name": "product", "first_line": 2, "last_line": 2}),
            vec![(
                "calc.py",
                format!(
                    "def product(w, h):\n    base = w * h\n    return base\n\n\n{}",
                    CALC.replace("base = w * h", "base = product(w, h)")
                        .replace("face = w * h", "face = product(w, h)")
                ),
            )],
        ),
        (
            "extract_method",
            json!({"path": "calc.py", "name": "face_of", "first_line": 12, "last_line": 12}),
            vec![(
                "calc.py",
                CALC.replace(
                    "        face = w * h\n        return face * d\n",
                    "        face = self.face_of(w, h)\n        return face * d\n\n    def face_of(self, w, h):\n        face = w * h\n        return face\n",
                ),
            )],
        ),
        (
            "inline_variable",
            json!({"path": "calc.py", "name": "scale", "line": 2}),
            vec![("calc.py", CALC.replace("    scale = 2\n", "").replace("base * scale", "base * 2"))],
        ),
        (
            "inline_function",
            json!({"function": "double"}),
            vec![(
                "calc.py",
                CALC.replace("def double(x):\n    return x * 2\n\n\n", "")
                    .replace("print(double(3))", "print(3 * 2)"),
            )],
        ),
        (
            "extract_interface",
            json!({"class": "calc.Box", "interface": "Solid"}),
            vec![(
                "calc.py",
                format!(
                    "from abc import ABC, abstractmethod\n\n\n{}",
                    CALC.replace(
                        "class Box:\n",
                        "class Solid(ABC):\n    @abstractmethod\n    def volume(self, w, h, d): ...\n\n\nclass Box(Solid):\n",
                    )
                ),
            )],
        ),
        (
            "change_inheritance",
            json!({"class": "calc.Crate", "old_parent": "Box", "new_parent": "Cube"}),
            vec![("calc.py", CALC.replace("class Crate(Box):", "class Crate(Cube):"))],
        ),
        (
            "merge_classes",
            json!({"first": "calc.Lid", "second": "calc.Hinge", "target": "Cover"}),
            vec![("calc.py", CALC.replace(
                "class Lid:\n    def open(self):\n        return True\n\n\nclass Hinge:\n    def turn(self):\n        return 1\n",
                "class Cover:\n    def open(self):\n        return True\n\n    def turn(self):\n        return 1\n",
            ))],
        ),
        (
            "extract_class",
            json!({"class": "calc.Door", "new_class": "Closer", "members": ["close"]}),
            vec![("calc.py", CALC.replace(
                "        self.latch = Latch()\n\n    def close(self):\n        return self.latch.click() + 1\n",
                "        self._closer = Closer(self)\n        self.latch = Latch()\n\n    def close(self):\n        return self._closer.close()\n\n\nclass Closer:\n    def __init__(self, door):\n        self.door = door\n\n    def close(self):\n        return self.door.latch.click() + 1\n",
            ))],
        ),
        (
            "split_class",
            json!({"class": "calc.Crate", "new_class": "Lids", "members": ["lid"]}),
            vec![("calc.py", CALC.replace(
                "class Crate(Box):\n    lid = True\n",
                "class Crate(Box):\n    pass\n\n\nclass Lids:\n    lid = True\n",
            ))],
        ),
        (
            "move_method",
            json!({"method": "calc.Door.close", "target": "calc.Latch"}),
            vec![("calc.py", CALC.replace(
                "class Latch:\n    def click(self):\n        return 1\n",
                "class Latch:\n    def click(self):\n        return 1\n\n    def close(self):\n        return self.click() + 1\n",
            )
            .replace(
                "        self.latch = Latch()\n\n    def close(self):\n        return self.latch.click() + 1\n",
                "        self.latch = Latch()\n",
            ))],
        ),
        (
            "pull_up",
            json!({"members": ["calc.Crate.lid"]}),
            vec![("calc.py", CALC.replace(
                "        return face * d\n",
                "        return face * d\n\n    lid = True\n",
            )
            .replace("class Crate(Box):\n    lid = True\n", "class Crate(Box):\n    pass\n"))],
        ),
        (
            "push_down",
            json!({"member": "calc.Box.volume"}),
            vec![("calc.py", CALC.replace(
                "class Box:\n    def volume(self, w, h, d):\n        face = w * h\n        return face * d\n",
                "class Box:\n    pass\n",
            )
            .replace(
                "class Crate(Box):\n    lid = True\n",
                "class Crate(Box):\n    lid = True\n\n    def volume(self, w, h, d):\n        face = w * h\n        return face * d\n",
            ))],
        ),
    ];
    for (tool, params, expected) in cases {
        let mut params = params;
        params["preview"] = json!(true);
        let preview = t.ok(tool, params.clone()).await;
        let diffed: Vec<&str> = preview["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        let paths: Vec<&str> = expected.iter().map(|(p, _)| *p).collect();
        assert_eq!(diffed, paths, "{tool} preview");
        assert!(preview["files"][0]["diff"]
            .as_str()
            .unwrap()
            .starts_with("--- a/"));
        assert_eq!(read("calc.py"), CALC, "{tool} preview wrote nothing");
        assert_valid(&report, tool, &preview);
        params["preview"] = json!(false);
        let applied = t.ok(tool, params).await;
        assert_valid(&report, tool, &applied);
        assert_eq!(applied["summary"], preview["summary"], "{tool}");
        for (path, text) in &expected {
            assert_eq!(&read(path), text, "{tool}: {path}");
        }
        let undone = t.ok("undo", json!({"path": paths[0]})).await;
        assert_eq!(undone["files"], json!(paths), "{tool} undo");
        assert_eq!(
            (read("app.py"), read("shop.py"), read("calc.py")),
            (APP.into(), SHOP.into(), CALC.into()),
            "{tool} undone"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refactor_errors_and_a_read_only_sender_over_nats() {
    let permissions = Permissions {
        read_only: ["viewer".to_string()].into(),
        ..Default::default()
    };
    let (_nats, dir, eddi, mut t) = setup(permissions).await;
    std::fs::write(dir.path().join("calc.py"), CALC).unwrap();
    let unknown = t
        .err(
            "agent",
            "rename_symbol",
            json!({"symbol": "Cart.ad", "new_name": "put", "preview": true}),
        )
        .await;
    assert_eq!(
        (
            unknown["code"].clone(),
            unknown["field"].clone(),
            unknown["candidates"].clone()
        ),
        (json!("not_found"), json!("symbol"), json!(["add", "total"]))
    );
    let range = t
        .err(
            "agent",
            "extract_function",
            json!({"path": "calc.py", "name": "f", "first_line": 60, "last_line": 61, "preview": true}),
        )
        .await;
    assert_eq!(
        (range["code"].clone(), range["field"].clone()),
        (json!("invalid_params"), json!("first_line"))
    );
    assert_eq!(
        range["message"],
        "first_line: line 60 is past the end of calc.py, which has lines 0..48"
    );
    let conflict = t
        .err(
            "agent",
            "rename_symbol",
            json!({"symbol": "Cart.add", "new_name": "total", "preview": false}),
        )
        .await;
    assert_eq!(
        (conflict["code"].clone(), conflict["field"].clone()),
        (json!("conflict"), json!("new_name"))
    );
    let conflict = t
        .err(
            "agent",
            "extract_function",
            json!({"path": "calc.py", "name": "double", "first_line": 2, "last_line": 2, "preview": false}),
        )
        .await;
    assert_eq!(
        (conflict["code"].clone(), conflict["field"].clone()),
        (json!("conflict"), json!("name"))
    );
    let line = t
        .err(
            "agent",
            "inline_variable",
            json!({"path": "calc.py", "name": "scale", "line": 99, "preview": true}),
        )
        .await;
    assert_eq!(
        (
            line["code"].clone(),
            line["field"].clone(),
            line["message"].clone()
        ),
        (
            json!("out_of_range"),
            json!("line"),
            json!("Line 99 out of range: valid lines are 0..49")
        )
    );
    // a read-only sender previews; applying is refused by the engine's door
    let params = json!({"function": "double", "preview": true});
    let preview = t.ok_as("viewer", "inline_function", params.clone()).await;
    assert_eq!(preview["summary"]["locations"], 1);
    let mut apply = params;
    apply["preview"] = json!(false);
    let denied = t.err("viewer", "inline_function", apply).await;
    assert_eq!(denied["code"], "permission_denied");
    assert!(
        denied["message"]
            .as_str()
            .unwrap()
            .contains("viewer is read-only"),
        "{denied}"
    );
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
    assert_eq!(
        (read("app.py"), read("shop.py"), read("calc.py")),
        (APP.into(), SHOP.into(), CALC.into())
    );
    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_are_answered_once_and_applied_once() {
    let (_nats, dir, eddi, mut t) = setup(Permissions::default()).await;
    let params = json!({"path": "app.py", "start": 0, "end": -1, "content": "import os"});
    let first = t
        .message("agent", "edit_lines", params.clone(), Some("edit-1"))
        .await;
    let again = t
        .message("agent", "edit_lines", params.clone(), Some("edit-1"))
        .await;
    assert_eq!(first.payload, again.payload);
    let headers = again.headers.unwrap();
    assert_eq!(headers.get("Eddi-Duplicate").unwrap().as_str(), "true");
    assert_eq!(headers.get("Eddi-Status").unwrap().as_str(), "ok");
    let text = std::fs::read_to_string(dir.path().join("app.py")).unwrap();
    assert_eq!(text, format!("import os\n{APP}"), "applied once");
    // another id is another edit
    t.message("agent", "edit_lines", params, Some("edit-2"))
        .await;
    let text = std::fs::read_to_string(dir.path().join("app.py")).unwrap();
    assert_eq!(text, format!("import os\nimport os\n{APP}"));
    // an applied refactor, retried: the first answer again (run twice, the
    // second would be `not_found`: Cart.add is gone), the files renamed once
    let rename = json!({"symbol": "Cart.add", "new_name": "put", "preview": false});
    let first = t
        .message("agent", "rename_symbol", rename.clone(), Some("rename-1"))
        .await;
    let again = t
        .message("agent", "rename_symbol", rename, Some("rename-1"))
        .await;
    assert_eq!(first.payload, again.payload);
    assert_eq!(
        again
            .headers
            .unwrap()
            .get("Eddi-Duplicate")
            .unwrap()
            .as_str(),
        "true"
    );
    let answer: Value = serde_json::from_slice(&first.payload).unwrap();
    assert_eq!(answer["result"]["summary"]["references"], 2, "{answer}");
    let shop = std::fs::read_to_string(dir.path().join("shop.py")).unwrap();
    assert_eq!(shop, SHOP.replace("def add(", "def put("));
    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_structured_over_nats() {
    let permissions = Permissions {
        read_only: ["viewer".to_string()].into(),
        ..Default::default()
    };
    let (_nats, dir, eddi, mut t) = setup(permissions).await;
    let denied = t
        .err(
            "viewer",
            "edit_lines",
            json!({"path": "shop.py", "start": 0, "content": "x"}),
        )
        .await;
    assert_eq!(denied["code"], "permission_denied");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("shop.py")).unwrap(),
        SHOP
    );
    let jailed = t
        .err("agent", "get_lines", json!({"path": "../../etc/passwd"}))
        .await;
    assert!(
        jailed["message"]
            .as_str()
            .unwrap()
            .contains("escapes the workspace"),
        "{jailed}"
    );
    let field = t
        .err(
            "agent",
            "get_lines",
            json!({"path": "shop.py", "start": -1}),
        )
        .await;
    assert_eq!(
        (field["code"].clone(), field["field"].clone()),
        (json!("invalid_params"), json!("start"))
    );
    let unknown = t
        .err("agent", "find_definition", json!({"symbol": "chekout"}))
        .await;
    assert_eq!(unknown["code"], "not_found");
    assert!(
        unknown["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("checkout")),
        "{unknown}"
    );

    // the envelope itself
    let result = schema("tools_result");
    for (body, field) in [
        ("not json", "$"),
        (r#"{"sender": "agent"}"#, "tool"),
        (r#"{"sender": "a b", "tool": "get_lines"}"#, "sender"),
        (
            r#"{"sender": "agent", "tool": "get_lines", "params": [1]}"#,
            "params",
        ),
        (
            r#"{"sender": "agent", "tool": "get_lines", "parms": {}}"#,
            "parms",
        ),
    ] {
        let reply = direct_message(&t.client, t.subjects.tools_call(), body.into(), None).await;
        let answer: Value = serde_json::from_slice(&reply.payload).unwrap();
        assert_valid(&result, body, &answer);
        assert_eq!(answer["error"]["code"], "invalid_request", "{body}");
        assert_eq!(answer["error"]["field"], field, "{body}: {answer}");
        assert_eq!(
            reply.headers.unwrap().get("Eddi-Status").unwrap().as_str(),
            "fail"
        );
    }

    // the guide, and the service's INFO
    let guide = t
        .client
        .request(t.subjects.guide(), "".into())
        .await
        .unwrap();
    let guide = String::from_utf8(guide.payload.to_vec()).unwrap();
    assert_eq!(guide, eddi::tools::guide::guide());
    assert!(guide.contains("`edit_lines`"));
    let info = t.client.request("$SRV.INFO.eddi", "".into()).await.unwrap();
    let info: Value = serde_json::from_slice(&info.payload).unwrap();
    let names: BTreeSet<&str> = info["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(
        names.is_superset(&["tools_list", "tools_call", "guide"].into()),
        "{info}"
    );
    eddi.stop().await.unwrap();
}
