//! The agent tools' JSON: a `tools.call` payload — raw text, or a
//! grammar-shaped request with arbitrary JSON values in the tools' fields
//! — read by `wire::parse_tool_call` and run by `tools::call_once` on an
//! engine over a small project in a temp dir, as `tools.call` and
//! `eddi mcp` run it.
//!
//! What must hold, whatever the payload:
//!
//! - no panic, no hang; the reader either accepts (and then `sender`,
//!   `tool` and `params` are the payload's own) or names the field at fault;
//! - every answer is the documented envelope: `{"ok": true, "result": …}`
//!   or `{"ok": false, "error": {"code", "message", …}}` with a non-empty
//!   code and message, and an unknown tool or bad parameter names its field;
//! - a retry with the same request id is answered the same, as a duplicate,
//!   and changes nothing more;
//! - the jail: nothing outside the workspace is read into an answer or
//!   written (a sibling directory holds a file the paths aim at).

use std::fs;
use std::path::Path;

use eddi::engine::{Engine, EngineConfig};
use eddi::tools;
use eddi::transport::wire::parse_tool_call;
use serde_json::{json, Map, Value};

use super::input::Input;

/// A file outside the workspace, and the text that must never come back.
const SECRET: (&str, &str) = ("secret.py", "TOP_SECRET = 'do not read me'\n");

const SHOP: &str = "class Cart:\n    def add(self, item):\n        self.items.append(item)\n\n\ndef checkout(cart):\n    # TODO: taxes\n    return cart.add(1)\n";
const APP: &str = "from shop import Cart, checkout\n\ncart = Cart()\ncheckout(cart)\n";

/// The tools' field names, and some that are none of them.
const FIELDS: &[&str] = &[
    "path",
    "start",
    "end",
    "content",
    "expected_hash",
    "name",
    "symbol",
    "function",
    "max_chars",
    "command",
    "params",
    "extra",
    "",
];
/// Paths: in the workspace, absent, escaping, hostile.
const PATHS: &[&str] = &[
    "shop.py",
    "app.py",
    "new.py",
    "pkg/new.py",
    "../outside/secret.py",
    "/etc/passwd",
    "..",
    ".",
    "",
    ".eddi/x",
    "a\nb.py",
    "shop.py/x",
    "~/x.py",
    "\u{0}.py",
];
const STRINGS: &[&str] = &[
    "Cart",
    "Cart.add",
    "checkout",
    "add",
    "shop.Cart",
    "x = 1\n",
    "def f(:\n",
    "\r\n",
    "Show",
    "Refactor RenameSymbol checkout pay",
    "Save",
    "Open shop.py",
    "Undo",
    "Insert \"x\"",
    "0123456789abcdef",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "3.5",
    "1e309",
    "18446744073709551616",
    "9007199254740993",
    "-0",
];

pub fn check(data: &[u8]) {
    let mut input = Input::new(data);
    let payload = if input.bool() {
        String::from_utf8_lossy(input.bytes(4096)).into_owned()
    } else {
        shaped(&mut input).to_string()
    };
    let call = match parse_tool_call(&payload) {
        Ok(call) => call,
        Err(error) => {
            assert!(!error.problem.is_empty(), "{payload:?}: an empty problem");
            return;
        }
    };
    let parsed: Value = serde_json::from_str(&payload).expect("accepted payloads are JSON");
    assert_eq!(parsed["sender"], json!(call.sender), "{payload}");
    assert_eq!(parsed["tool"], json!(call.tool), "{payload}");
    assert_eq!(
        parsed.get("params").cloned().unwrap_or(Value::Null),
        call.params
    );

    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path().join("ws");
    let outside = dir.path().join("outside");
    fs::create_dir_all(&root).unwrap();
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join(SECRET.0), SECRET.1).unwrap();
    fs::write(root.join("shop.py"), SHOP).unwrap();
    fs::write(root.join("app.py"), APP).unwrap();
    let mut config = EngineConfig::new(&root);
    config.state_dir = Some(dir.path().join("state"));
    let engine = Engine::open(config).expect("an engine");

    // Sender ids are checked by the transport before a call runs.
    let sender = if call.sender.is_empty() || call.sender.contains(['.', '*', '>', ' ']) {
        "agent".to_string()
    } else {
        call.sender.clone()
    };
    let first = tools::call_once(
        &engine,
        &sender,
        &call.tool,
        call.params.clone(),
        Some("r1"),
    );
    envelope(&payload, &first.json, first.ok);
    assert!(!first.duplicate);
    let files = snapshot(&root);
    let again = tools::call_once(&engine, &sender, &call.tool, call.params, Some("r1"));
    assert!(again.duplicate, "{payload}: a retry ran again");
    assert_eq!(
        again.json, first.json,
        "{payload}: a retry answered differently"
    );
    assert_eq!(snapshot(&root), files, "{payload}: a retry changed files");

    assert!(
        !first.json.contains("TOP_SECRET"),
        "{payload}: read outside the workspace: {}",
        first.json
    );
    let mut entries: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert!(
        entries
            .iter()
            .all(|e| ["outside", "state", "ws"].contains(&e.as_str())),
        "{payload}: wrote outside the workspace: {entries:?}"
    );
    let outside_now: Vec<_> = fs::read_dir(&outside).unwrap().flatten().collect();
    assert_eq!(
        outside_now.len(),
        1,
        "{payload}: wrote outside the workspace"
    );
    assert_eq!(
        fs::read_to_string(outside.join(SECRET.0)).unwrap(),
        SECRET.1
    );
}

/// The documented envelope, with a code and a message on failure.
fn envelope(payload: &str, json: &str, ok: bool) {
    let answer: Value = serde_json::from_str(json).expect("the answer is JSON");
    assert_eq!(answer["ok"], json!(ok), "{payload} → {json}");
    if ok {
        assert!(answer.get("result").is_some(), "{payload} → {json}");
        return;
    }
    let error = &answer["error"];
    let code = error["code"].as_str().unwrap_or_default();
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        !code.is_empty() && !message.is_empty(),
        "{payload} → {json}"
    );
    if code == "invalid_params" || code == "unknown_tool" {
        assert!(error["field"].is_string(), "{payload} → {json}: no field");
    }
}

/// Every file under `root` (but the state) with its bytes.
fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((
                    path.display().to_string(),
                    fs::read(&path).unwrap_or_default(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// `{"sender", "tool", "params"}` with fields and values from the tables
/// above, and sometimes a field missing, extra or of the wrong type.
fn shaped(input: &mut Input) -> Value {
    let mut call = Map::new();
    let names: Vec<&str> = tools::tools().iter().map(|t| t.name).collect();
    if input.below(8) != 0 {
        call.insert(
            "sender".into(),
            json!(["agent", "b", "", "a.b"][input.below(4)]),
        );
    }
    if input.below(8) != 0 {
        let tool = match input.below(8) {
            0 => value(input, 0),
            1 => json!("get_line"),
            _ => json!(names[input.below(names.len())]),
        };
        call.insert("tool".into(), tool);
    }
    match input.below(6) {
        0 => {}
        1 => {
            call.insert("params".into(), value(input, 0));
        }
        _ => {
            let mut params = Map::new();
            for _ in 0..input.below(5) {
                let field = input.pick(FIELDS);
                params.insert(field.into(), value(input, 0));
            }
            call.insert("params".into(), Value::Object(params));
        }
    }
    if input.below(16) == 0 {
        call.insert("id".into(), json!(1));
    }
    Value::Object(call)
}

fn value(input: &mut Input, depth: usize) -> Value {
    match input.below(if depth > 3 { 6 } else { 9 }) {
        0 => Value::Null,
        1 => json!(input.bool()),
        2 => serde_json::from_str(input.pick(NUMBERS)).unwrap_or(Value::Null),
        3 => json!(input.below(70_000)),
        4 | 5 => json!(input.pick(PATHS)),
        6 => json!(input.pick(STRINGS)),
        7 => Value::Array(
            (0..input.below(3))
                .map(|_| value(input, depth + 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..input.below(3) {
                map.insert(input.pick(FIELDS).into(), value(input, depth + 1));
            }
            Value::Object(map)
        }
    }
}
