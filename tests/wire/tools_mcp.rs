//! `eddi mcp` through a real MCP client: the MCP Python SDK (`pip install
//! mcp`, pinned in scripts/install-tools) runs `tests/mcp_driver.py`
//! against the real binary on a temp project — initialize, tools/list,
//! every tool, errors, an agent's editing session — and the files it
//! leaves must be exactly the expected ones. Skips, saying why, when the
//! SDK is not importable.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::support::cli::eddi;

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

/// What the session leaves: the call's result kept and printed, the
/// method renamed in its file and at the call, the broken edit undone.
const APP_AFTER: &str = "\
from shop import Cart, checkout

cart = Cart()
cart.put(1)
total = checkout(cart)
print(total)
";

/// A module for the extractions and inlines.
const CALC: &str = include_str!("../fixtures/tools/calc.py");

fn sdk_missing() -> Option<String> {
    let probe = Command::new("python3").args(["-c", "import mcp"]).output();
    match probe {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(String::from_utf8_lossy(&out.stderr).trim().to_owned()),
        Err(e) => Some(format!("python3: {e}")),
    }
}

/// The registry's names and read-only hints, for the driver.
fn expected() -> serde_json::Value {
    json!({
        "tools": eddi::tools::tools()
            .iter()
            .map(|t| (t.name.to_owned(), json!(t.read_only())))
            .collect::<serde_json::Map<_, _>>(),
    })
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("shop.py"), SHOP).unwrap();
    std::fs::write(dir.path().join("app.py"), APP).unwrap();
    dir
}

fn driver() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_driver.py")
}

#[test]
fn an_mcp_client_drives_every_tool_and_an_editing_session() {
    if let Some(why) = sdk_missing() {
        eprintln!(
            "SKIPPED: the MCP Python SDK is not importable ({why}); scripts/install-tools installs it"
        );
        return;
    }
    let dir = project();
    let expected = expected();
    let out = Command::new("python3")
        .arg(driver())
        .arg(env!("CARGO_BIN_EXE_eddi"))
        .arg(dir.path())
        .arg(expected.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "driver failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("checks passed"), "{stdout}");

    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
    assert_eq!(read("app.py"), APP_AFTER);
    assert_eq!(read("shop.py"), SHOP.replace("def add(", "def put("));
    assert_eq!(read("notes/todo.txt"), "rename done\n");
    assert!(!dir.path().join("scratch.py").exists());
    let mut files: Vec<String> = walk(dir.path())
        .into_iter()
        .filter(|p| !p.starts_with(".eddi/"))
        .collect();
    files.sort();
    assert_eq!(files, ["app.py", "notes/todo.txt", "shop.py"]);
}

#[test]
fn an_mcp_client_over_streamable_http() {
    if let Some(why) = sdk_missing() {
        eprintln!(
            "SKIPPED: the MCP Python SDK is not importable ({why}); scripts/install-tools installs it"
        );
        return;
    }
    let dir = project();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = eddi()
        .args([
            "mcp",
            "--sender",
            "agent",
            "--http",
            &format!("127.0.0.1:{port}"),
            "--root",
        ])
        .arg(dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // It says where it listens once it does.
    let mut said = String::new();
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    std::io::BufRead::read_line(&mut stderr, &mut said).unwrap();
    assert!(said.contains("streamable HTTP on"), "{said}");
    let out = Command::new("python3")
        .arg(driver())
        .args(["--http", &format!("http://127.0.0.1:{port}/mcp")])
        .arg(expected().to_string())
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "driver failed:\n{stdout}\n{stderr}");
    // The SDK ends its session on exit, and takes the answer without a word.
    assert!(!stderr.contains("Session termination failed"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.py")).unwrap(),
        format!("import os\n{APP}")
    );
}

/// Each refactoring tool, its parameters and the files it must write.
fn refactor_cases() -> serde_json::Value {
    json!([
        {"tool": "rename_symbol", "params": {"symbol": "Cart.add", "new_name": "put"},
         "files": {"app.py": APP.replace("cart.add(", "cart.put("),
                   "shop.py": SHOP.replace("def add(", "def put(")}},
        {"tool": "rename_parameter", "params": {"function": "Cart.add", "param": "item", "new_name": "thing"},
         "files": {"shop.py": SHOP.replace("add(self, item)", "add(self, thing)").replace("append(item)", "append(thing)")}},
        {"tool": "change_signature", "params": {"function": "checkout", "old_params": "cart", "new_params": "cart, tax:=0"},
         "files": {"app.py": APP.replace("checkout(cart)\n", "checkout(cart, tax=0)\n"),
                   "shop.py": SHOP.replace("checkout(cart)", "checkout(cart, tax)")}},
        {"tool": "extract_function", "params": {"path": "calc.py", "name": "product", "first_line": 2, "last_line": 2},
         "files": {"calc.py": format!(
             "def product(w, h):\n    base = w * h\n    return base\n\n\n{}",
             CALC.replace("base = w * h", "base = product(w, h)").replace("face = w * h", "face = product(w, h)"))}},
        {"tool": "extract_method", "params": {"path": "calc.py", "name": "face_of", "first_line": 12, "last_line": 12},
         "files": {"calc.py": CALC.replace(
             "        face = w * h\n        return face * d\n",
             "        face = self.face_of(w, h)\n        return face * d\n\n    def face_of(self, w, h):\n        face = w * h\n        return face\n")}},
        {"tool": "inline_variable", "params": {"path": "calc.py", "name": "scale", "line": 2},
         "files": {"calc.py": CALC.replace("    scale = 2\n", "").replace("base * scale", "base * 2")}},
        {"tool": "inline_function", "params": {"function": "double"},
         "files": {"calc.py": CALC.replace("def double(x):\n    return x * 2\n\n\n", "").replace("print(double(3))", "print(3 * 2)")}},
        {"tool": "extract_interface", "params": {"class": "calc.Box", "interface": "Solid"},
         "files": {"calc.py": format!(
             "from abc import ABC, abstractmethod\n\n\n{}",
             CALC.replace("class Box:\n", "class Solid(ABC):\n    @abstractmethod\n    def volume(self, w, h, d): ...\n\n\nclass Box(Solid):\n"))}},
        {"tool": "change_inheritance", "params": {"class": "calc.Crate", "old_parent": "Box", "new_parent": "Cube"},
         "files": {"calc.py": CALC.replace("class Crate(Box):", "class Crate(Cube):")}},
        {"tool": "merge_classes", "params": {"first": "calc.Lid", "second": "calc.Hinge", "target": "Cover"},
         "files": {"calc.py": CALC.replace(
                "class Lid:\n    def open(self):\n        return True\n\n\nclass Hinge:\n    def turn(self):\n        return 1\n",
                "class Cover:\n    def open(self):\n        return True\n\n    def turn(self):\n        return 1\n",
            )}},
        {"tool": "extract_class", "params": {"class": "calc.Door", "new_class": "Closer", "members": ["close"]},
         "files": {"calc.py": CALC.replace(
                "        self.latch = Latch()\n\n    def close(self):\n        return self.latch.click() + 1\n",
                "        self._closer = Closer(self)\n        self.latch = Latch()\n\n    def close(self):\n        return self._closer.close()\n\n\nclass Closer:\n    def __init__(self, door):\n        self.door = door\n\n    def close(self):\n        return self.door.latch.click() + 1\n",
            )}},
        {"tool": "split_class", "params": {"class": "calc.Crate", "new_class": "Lids", "members": ["lid"]},
         "files": {"calc.py": CALC.replace(
                "class Crate(Box):\n    lid = True\n",
                "class Crate(Box):\n    pass\n\n\nclass Lids:\n    lid = True\n",
            )}},
        {"tool": "move_method", "params": {"method": "calc.Door.close", "target": "calc.Latch"},
         "files": {"calc.py": CALC.replace(
                "class Latch:\n    def click(self):\n        return 1\n",
                "class Latch:\n    def click(self):\n        return 1\n\n    def close(self):\n        return self.click() + 1\n",
            )
            .replace(
                "        self.latch = Latch()\n\n    def close(self):\n        return self.latch.click() + 1\n",
                "        self.latch = Latch()\n",
            )}},
        {"tool": "pull_up", "params": {"members": ["calc.Crate.lid"]},
         "files": {"calc.py": CALC.replace(
                "        return face * d\n",
                "        return face * d\n\n    lid = True\n",
            )
            .replace("class Crate(Box):\n    lid = True\n", "class Crate(Box):\n    pass\n")}},
        {"tool": "push_down", "params": {"member": "calc.Box.volume"},
         "files": {"calc.py": CALC.replace(
                "class Box:\n    def volume(self, w, h, d):\n        face = w * h\n        return face * d\n",
                "class Box:\n    pass\n",
            )
            .replace(
                "class Crate(Box):\n    lid = True\n",
                "class Crate(Box):\n    lid = True\n\n    def volume(self, w, h, d):\n        face = w * h\n        return face * d\n",
            )}},
    ])
}

#[test]
fn an_mcp_client_previews_applies_and_undoes_every_refactor() {
    if let Some(why) = sdk_missing() {
        eprintln!(
            "SKIPPED: the MCP Python SDK is not importable ({why}); scripts/install-tools installs it"
        );
        return;
    }
    let dir = project();
    std::fs::write(dir.path().join("calc.py"), CALC).unwrap();
    let cases = refactor_cases();
    let mut names: Vec<&str> = cases
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    names.sort();
    // the refactoring tools are the ones with a `preview` (replace_in_files,
    // a text replacement, and run_script have their own checks in the driver)
    let mut registered: Vec<&str> = eddi::tools::tools()
        .iter()
        .filter(|t| t.input_schema["properties"].get("preview").is_some())
        .filter(|t| t.name != "replace_in_files" && t.name != "run_script")
        .map(|t| t.name)
        .collect();
    registered.sort();
    assert_eq!(registered, names, "every refactoring tool has a case");
    let out = Command::new("python3")
        .arg(driver())
        .arg("--refactor")
        .arg(env!("CARGO_BIN_EXE_eddi"))
        .arg(dir.path())
        .arg(cases.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "driver failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("read-only refactors: ok"), "{stdout}");
    assert!(stdout.contains("replace_in_files: ok"), "{stdout}");
    assert!(stdout.contains("run_script: ok"), "{stdout}");
    // the one rename left applied, every other change undone
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
    assert_eq!(read("app.py"), APP.replace("checkout", "pay"));
    assert_eq!(read("shop.py"), SHOP.replace("def checkout(", "def pay("));
    assert_eq!(read("calc.py"), CALC);
}

#[test]
fn a_bad_http_address_is_refused_saying_what_it_takes() {
    let dir = project();
    let out = eddi()
        .args(["mcp", "--http", "8765", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "eddi mcp: bad --http address '8765' (invalid socket address); --http takes HOST:PORT, e.g. 127.0.0.1:8765 (this machine only) or 0.0.0.0:8765 (every interface)"
    );
    assert!(
        !dir.path().join(".eddi").exists(),
        "refused before the engine opened"
    );
    // a port already taken
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = eddi()
        .args(["mcp", "--http", &addr, "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.starts_with(&format!("eddi mcp: cannot listen on {addr} (")),
        "{said}"
    );
}

/// The status line of the answer to an MCP `initialize` posted to `/mcp`
/// with `host` as its `Host` header.
fn status_with_host(port: u16, host: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}"#;
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn http_requests_by_another_host_name_are_refused_unless_allowed() {
    let dir = project();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = eddi()
        .args(["mcp", "--http", &format!("127.0.0.1:{port}")])
        .args(["--allow-host", "eddi.example", "--root"])
        .arg(dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = String::new();
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    std::io::BufRead::read_line(&mut stderr, &mut said).unwrap();
    assert!(said.contains("streamable HTTP on"), "{said}");
    let refused = status_with_host(port, "rebound.example");
    let allowed = status_with_host(port, "eddi.example");
    let local = status_with_host(port, &format!("localhost:{port}"));
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(refused, "HTTP/1.1 403 Forbidden");
    assert_eq!(allowed, "HTTP/1.1 200 OK");
    assert_eq!(local, "HTTP/1.1 200 OK");
}

/// The status line and the headers of one HTTP/1.1 request to `/mcp`.
fn exchange(port: u16, method: &str, headers: &str, body: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    (status.to_owned(), headers.to_ascii_lowercase())
}

/// A session's `DELETE` is answered `200 OK` (the MCP SDKs take 200/204;
/// rmcp's `202` made the Python SDK log "Session termination failed"), and
/// a session that is not there (ended already, or never started) `404`.
#[test]
fn ending_an_http_session_answers_200_then_404() {
    let dir = project();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = eddi()
        .args(["mcp", "--http", &format!("127.0.0.1:{port}"), "--root"])
        .arg(dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = String::new();
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    std::io::BufRead::read_line(&mut stderr, &mut said).unwrap();
    assert!(said.contains("streamable HTTP on"), "{said}");
    let json = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}"#;
    let (status, headers) = exchange(port, "POST", json, init);
    let id = headers
        .lines()
        .find_map(|line| line.strip_prefix("mcp-session-id:"))
        .map(|id| id.trim().to_owned());
    let session =
        |id: &str| format!("Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-06-18\r\n");
    let ended = id
        .as_deref()
        .map(|id| exchange(port, "DELETE", &session(id), "").0);
    let again = id
        .as_deref()
        .map(|id| exchange(port, "DELETE", &session(id), "").0);
    let unknown = exchange(port, "DELETE", &session("no-such-session"), "").0;
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(id.is_some(), "no session id in {headers}");
    assert_eq!(ended.as_deref(), Some("HTTP/1.1 200 OK"));
    assert_eq!(again.as_deref(), Some("HTTP/1.1 404 Not Found"));
    assert_eq!(unknown, "HTTP/1.1 404 Not Found");
}

fn walk(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}
