//! Per-sender permissions over the wire, for every front end — the direct
//! subject, the stream, `tools.call` on NATS, and `eddi mcp` on stdio — and
//! for the refactors: a read-only sender may preview a refactor but not
//! apply it; a sender limited to a path prefix cannot rename into a file
//! outside it (the whole refactor is refused, nothing written) and can
//! rename what lies entirely inside. Real nats-server, real files, the
//! real binary for MCP.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;

use eddi::engine::{Engine, EngineConfig, Permissions};
use serde_json::{json, Value};

use crate::support::cli::eddi;
use crate::support::nats::*;

const CORE: &str = "def helper(x):\n    return x\n\n\ndef inner(y):\n    return helper(y)\n";
const USE: &str = "from src.auth.core import helper, inner\n\nhelper(1)\ninner(2)\n";
const NOTES: &str = "from src.auth.core import helper\n\nhelper(3)\n";

/// The project: `helper` is used inside `src/auth/` and in `notes.py`,
/// `inner` only inside `src/auth/`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    };
    write("src/__init__.py", "");
    write("src/auth/__init__.py", "");
    write("src/auth/core.py", CORE);
    write("src/auth/use.py", USE);
    write("notes.py", NOTES);
    dir
}

fn permissions() -> Permissions {
    Permissions {
        read_only: ["viewer".to_string()].into(),
        path_prefixes: [("auth".to_string(), vec!["src/auth".to_string()])].into(),
        ..Default::default()
    }
}

/// Every file of the project, as it is now.
fn files(root: &Path) -> Vec<(String, String)> {
    ["src/auth/core.py", "src/auth/use.py", "notes.py"]
        .iter()
        .map(|p| {
            (
                p.to_string(),
                std::fs::read_to_string(root.join(p)).unwrap(),
            )
        })
        .collect()
}

fn untouched() -> Vec<(String, String)> {
    vec![
        ("src/auth/core.py".into(), CORE.into()),
        ("src/auth/use.py".into(), USE.into()),
        ("notes.py".into(), NOTES.into()),
    ]
}

/// One front end: sends a message as a sender, returns the reply text.
#[allow(async_fn_in_trait)]
trait FrontEnd {
    async fn send(&mut self, sender: &str, text: &str) -> String;

    /// Starts the sender's session (the tools start one on first use).
    async fn start(&mut self, sender: &str, session: &str) {
        let started = self.send(sender, &format!("Start {session}")).await;
        assert_eq!(started, "Ok", "{session}");
    }
}

struct Direct<'a> {
    client: &'a async_nats::Client,
    subjects: &'a eddi::transport::Subjects,
}

impl FrontEnd for Direct<'_> {
    async fn send(&mut self, sender: &str, text: &str) -> String {
        direct(self.client, self.subjects, sender, text).await
    }
}

struct Stream<'a> {
    service: StreamService,
    client: &'a async_nats::Client,
    subjects: &'a eddi::transport::Subjects,
    shaken: Vec<String>,
    next_id: usize,
}

impl FrontEnd for Stream<'_> {
    async fn send(&mut self, sender: &str, text: &str) -> String {
        let stream = format!("st-{sender}");
        if !self.shaken.iter().any(|s| s == sender) {
            // Without preview mode: `Refactor` applies at once.
            let mut request: Value =
                serde_json::from_str(&connection_request(sender, &stream)).unwrap();
            request["session_preferences"]["preview_mode"] = json!(false);
            let reply = handshake(self.client, self.subjects, &request.to_string()).await;
            assert_eq!(reply["status"], "accepted", "{reply}");
            self.service.next_open().await;
            self.shaken.push(sender.to_owned());
        }
        self.next_id += 1;
        let id = self.next_id.to_string();
        self.service
            .say(&stream, sender, "eddi", text, Some(&id))
            .await;
        let append = self.service.next_append().await;
        assert_eq!(append["in_reply_to"], json!(id), "{append}");
        append["appended"].as_str().unwrap().to_owned()
    }
}

/// `tools.call` with the `eddi` tool: the command language through the tools.
struct Tools<'a> {
    client: &'a async_nats::Client,
    subjects: &'a eddi::transport::Subjects,
}

impl Tools<'_> {
    async fn call(&self, sender: &str, tool: &str, params: Value) -> Value {
        let body = json!({"sender": sender, "tool": tool, "params": params}).to_string();
        let reply =
            direct_message(self.client, self.subjects.tools_call(), body.into(), None).await;
        serde_json::from_slice(&reply.payload).unwrap()
    }
}

impl FrontEnd for Tools<'_> {
    async fn send(&mut self, sender: &str, text: &str) -> String {
        let answer = self.call(sender, "eddi", json!({"command": text})).await;
        match answer["ok"].as_bool() {
            Some(true) => answer["result"]["reply"].as_str().unwrap().to_owned(),
            // A failing command's replies, the `Fail` last (the tool's contract).
            _ if answer["error"]["code"] == "command_failed" => {
                answer["error"]["message"].as_str().unwrap().to_owned()
            }
            _ => format!("error {}", answer["error"]),
        }
    }

    async fn start(&mut self, _sender: &str, _session: &str) {}
}

/// The refactor rules, the same on every front end.
async fn refactors_obey_permissions(front: &mut impl FrontEnd, root: &Path, name: &str) {
    let rename_helper = "Refactor RenameSymbol src.auth.core.helper assist";
    for sender in ["viewer", "auth", "good"] {
        front.start(sender, &format!("{sender}-{name}")).await;
    }
    // Read-only: previews, never applies (neither directly nor by Apply).
    let preview = front
        .send("viewer", &format!("Preview {rename_helper}"))
        .await;
    assert_eq!(
        preview,
        "Ok, Preview: Would modify 3 files: notes.py, src/auth/core.py, src/auth/use.py, 6 references",
        "{name}"
    );
    assert_eq!(
        front.send("viewer", rename_helper).await,
        "Fail \"Permission denied: viewer is read-only; Refactor changes files\"",
        "{name}"
    );
    assert_eq!(
        front.send("viewer", "Apply").await,
        "Fail \"Permission denied: viewer is read-only; Apply changes files\"",
        "{name}"
    );
    assert_eq!(files(root), untouched(), "{name}: the viewer wrote");

    // A path prefix: a rename that reaches outside is refused whole.
    let refused = front.send("auth", rename_helper).await;
    assert_eq!(
        refused, "Fail \"Permission denied: auth may not use notes.py; allowed: src/auth\"",
        "{name}"
    );
    assert_eq!(files(root), untouched(), "{name}: half a refactor");
    let refused = front
        .send("auth", &format!("Preview {rename_helper}"))
        .await;
    assert_eq!(
        refused, "Fail \"Permission denied: auth may not use notes.py; allowed: src/auth\"",
        "{name}"
    );
    // … and one entirely inside is applied.
    let renamed = front
        .send("auth", "Refactor RenameSymbol src.auth.core.inner inward")
        .await;
    assert_eq!(
        renamed, "Ok, Renamed in 2 files (src/auth/core.py, src/auth/use.py), 3 references updated",
        "{name}"
    );
    let after = files(root);
    assert_eq!(after[0].1, CORE.replace("inner", "inward"), "{name}");
    assert_eq!(after[1].1, USE.replace("inner", "inward"), "{name}");
    assert_eq!(after[2].1, NOTES, "{name}");
    // Back, for the next front end (an unrestricted sender).
    let back = front
        .send("good", "Refactor RenameSymbol src.auth.core.inward inner")
        .await;
    assert_eq!(
        back, "Ok, Renamed in 2 files (src/auth/core.py, src/auth/use.py), 3 references updated",
        "{name}"
    );
    assert_eq!(files(root), untouched(), "{name}");
    // Sessions belong to senders, whatever the front end: the next one
    // starts its own.
    for sender in ["viewer", "auth", "good"] {
        let ended = front.send(sender, "End").await;
        assert!(ended.starts_with("Ok"), "{name}: {ended}");
    }
}

async fn serve(root: &Path) -> (NatsServer, Eddi, async_nats::Client) {
    let nats = NatsServer::start();
    let mut config = EngineConfig::new(root);
    config.permissions = permissions();
    let engine = Arc::new(Engine::open(config).unwrap());
    let eddi = start_eddi(&nats.url(), engine, EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    (nats, eddi, c)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refactors_obey_per_sender_permissions_on_every_nats_front_end() {
    let dir = project();
    let (nats, eddi, c) = serve(dir.path()).await;
    let s = &eddi.subjects;
    refactors_obey_permissions(
        &mut Direct {
            client: &c,
            subjects: s,
        },
        dir.path(),
        "direct",
    )
    .await;
    let mut stream = Stream {
        service: StreamService::new(&nats.url(), "mizuki").await,
        client: &c,
        subjects: s,
        shaken: Vec::new(),
        next_id: 0,
    };
    refactors_obey_permissions(&mut stream, dir.path(), "stream").await;
    refactors_obey_permissions(
        &mut Tools {
            client: &c,
            subjects: s,
        },
        dir.path(),
        "tools",
    )
    .await;
    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typed_tools_obey_per_sender_permissions_over_nats() {
    let dir = project();
    let (_nats, eddi, c) = serve(dir.path()).await;
    let t = Tools {
        client: &c,
        subjects: &eddi.subjects,
    };
    let code = |answer: &Value| answer["error"]["code"].as_str().unwrap_or("ok").to_owned();
    let message = |answer: &Value| answer["error"]["message"].as_str().unwrap_or("").to_owned();

    // Read-only: reads and searches; every writing tool refused.
    let read = t
        .call("viewer", "get_lines", json!({"path": "notes.py"}))
        .await;
    assert_eq!(read["ok"], true, "{read}");
    for (tool, params) in [
        (
            "edit_lines",
            json!({"path": "notes.py", "start": 0, "content": "x = 1"}),
        ),
        (
            "create_file",
            json!({"path": "new.py", "content": "x = 1\n"}),
        ),
        ("delete_file", json!({"path": "notes.py"})),
        ("undo", json!({})),
    ] {
        let answer = t.call("viewer", tool, params).await;
        assert_eq!(code(&answer), "permission_denied", "{tool}: {answer}");
        assert!(
            message(&answer).starts_with("Permission denied: viewer is read-only"),
            "{answer}"
        );
    }
    // A path prefix: inside works, outside is refused, for reads and writes.
    let inside = t
        .call(
            "auth",
            "edit_lines",
            json!({"path": "src/auth/use.py", "start": 4, "end": 3, "content": "# ok"}),
        )
        .await;
    assert_eq!(inside["ok"], true, "{inside}");
    for (tool, params) in [
        ("get_lines", json!({"path": "notes.py"})),
        (
            "edit_lines",
            json!({"path": "notes.py", "start": 0, "content": "x = 1"}),
        ),
        (
            "create_file",
            json!({"path": "other/new.py", "content": "x = 1\n"}),
        ),
        ("delete_file", json!({"path": "notes.py"})),
        (
            "get_function",
            json!({"name": "helper", "path": "notes.py"}),
        ),
        ("validate", json!({"path": "notes.py"})),
        ("get_lines", json!({"path": "src/auth/../../notes.py"})),
    ] {
        let answer = t.call("auth", tool, params.clone()).await;
        assert_eq!(
            code(&answer),
            "permission_denied",
            "{tool} {params}: {answer}"
        );
        assert!(message(&answer).contains("allowed: src/auth"), "{answer}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.py")).unwrap(),
        NOTES
    );
    // Project-wide queries show a path-prefix sender only the sites in
    // files it may read: nothing of notes.py, not even its lines.
    for (tool, params, list) in [
        ("find_references", json!({"symbol": "helper"}), "references"),
        ("find_callers", json!({"function": "helper"}), "callers"),
        (
            "find_definition",
            json!({"symbol": "helper"}),
            "definitions",
        ),
        (
            "get_dependents",
            json!({"path": "src/auth/core.py"}),
            "dependents",
        ),
    ] {
        let everyone = t.call("viewer", tool, params.clone()).await;
        let paths = |answer: &Value| -> Vec<String> {
            let mut paths: Vec<String> = answer["result"][list]
                .as_array()
                .unwrap_or_else(|| panic!("{tool}: {answer}"))
                .iter()
                .map(|site| site["path"].as_str().unwrap().to_owned())
                .collect();
            paths.sort();
            paths.dedup();
            paths
        };
        let limited = t.call("auth", tool, params).await;
        let outside = |p: &String| !p.starts_with("src/auth/");
        if tool != "find_definition" {
            assert!(paths(&everyone).iter().any(outside), "{tool}: {everyone}");
        }
        assert!(!paths(&limited).is_empty(), "{tool}: {limited}");
        assert!(!paths(&limited).iter().any(outside), "{tool}: {limited}");
        assert!(!limited.to_string().contains("helper(3)"), "{limited}");
    }
    // The terse commands, in the sessions the tools started.
    for query in ["Find References helper", "Find Callers helper"] {
        let everyone = direct(&c, &eddi.subjects, "viewer", query).await;
        let limited = direct(&c, &eddi.subjects, "auth", query).await;
        assert!(everyone.contains("notes.py"), "{everyone}");
        assert!(
            limited.starts_with("Ok") && !limited.contains("notes.py"),
            "{limited}"
        );
    }
    assert!(!dir.path().join("other").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/auth/use.py")).unwrap(),
        format!("{USE}# ok\n")
    );
    eddi.stop().await.unwrap();
}

/// `eddi mcp` on stdio, spoken to as JSON-RPC lines (MCP's stdio framing).
struct Mcp {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    next: u64,
}

impl Mcp {
    fn start(root: &Path, args: &[&str]) -> Mcp {
        let mut child = eddi()
            .arg("mcp")
            .arg("--root")
            .arg(root)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut mcp = Mcp {
            child,
            out,
            next: 0,
        };
        let init = mcp.request(
            "initialize",
            json!({"protocolVersion": "2025-03-26", "capabilities": {},
                   "clientInfo": {"name": "permissions-test", "version": "1"}}),
        );
        assert!(init["result"]["serverInfo"].is_object(), "{init}");
        mcp.notify("notifications/initialized");
        mcp
    }

    fn write(&mut self, message: Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str) {
        self.write(json!({"jsonrpc": "2.0", "method": method}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "eddi mcp closed stdout"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// A tool's JSON answer and whether it failed.
    fn call(&mut self, tool: &str, arguments: Value) -> (Value, bool) {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = &reply["result"];
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{reply}"));
        (
            serde_json::from_str(text).unwrap(),
            result["isError"] == json!(true),
        )
    }

    fn eddi(&mut self, command: &str) -> String {
        let (answer, failed) = self.call("eddi", json!({"command": command}));
        match failed {
            false => answer["reply"].as_str().unwrap().to_owned(),
            true => format!("error {}", answer["error"]),
        }
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[test]
fn eddi_mcp_read_only_and_path_prefix_are_enforced() {
    let dir = project();
    let root = dir.path();
    let rename_helper = "Refactor RenameSymbol src.auth.core.helper assist";

    let mut viewer = Mcp::start(root, &["--sender", "viewer", "--read-only"]);
    let (read, failed) = viewer.call("get_lines", json!({"path": "notes.py"}));
    assert!(!failed, "{read}");
    let (denied, failed) = viewer.call(
        "edit_lines",
        json!({"path": "notes.py", "start": 0, "content": "x = 1"}),
    );
    assert!(failed);
    assert_eq!(denied["error"]["code"], "permission_denied", "{denied}");
    // The tools run in the sender's own session, started on first use.
    assert_eq!(
        viewer.eddi(&format!("Preview {rename_helper}")),
        "Ok, Preview: Would modify 3 files: notes.py, src/auth/core.py, src/auth/use.py, 6 references"
    );
    let refused = viewer.eddi(rename_helper);
    assert!(
        refused.contains("Permission denied: viewer is read-only; Refactor changes files"),
        "{refused}"
    );
    drop(viewer);
    assert_eq!(files(root), untouched());

    let mut auth = Mcp::start(root, &["--sender", "auth", "--path-prefix", "src/auth"]);
    let (denied, failed) = auth.call("get_lines", json!({"path": "notes.py"}));
    assert!(failed);
    assert_eq!(
        denied["error"]["message"],
        "Permission denied: auth may not use notes.py; allowed: src/auth"
    );
    let refused = auth.eddi(rename_helper);
    assert!(
        refused.contains("Permission denied: auth may not use notes.py; allowed: src/auth"),
        "{refused}"
    );
    assert_eq!(files(root), untouched());
    assert_eq!(
        auth.eddi("Refactor RenameSymbol src.auth.core.inner inward"),
        "Ok, Renamed in 2 files (src/auth/core.py, src/auth/use.py), 3 references updated"
    );
    drop(auth);
    let after = files(root);
    assert_eq!(after[0].1, CORE.replace("inner", "inward"));
    assert_eq!(after[2].1, NOTES);
}
