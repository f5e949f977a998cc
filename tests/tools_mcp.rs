//! `eddi mcp` through a real MCP client: the MCP Python SDK (`pip install
//! mcp`, pinned in scripts/install-tools) runs `tests/mcp_driver.py`
//! against the real binary on a temp project — initialize, tools/list,
//! every tool, errors, an agent's editing session — and the files it
//! leaves must be exactly the expected ones. Skips, saying why, when the
//! SDK is not importable.

use std::path::Path;
use std::process::Command;

use serde_json::json;

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
    let mut server = Command::new(env!("CARGO_BIN_EXE_eddi"))
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
    assert!(
        out.status.success(),
        "driver failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.py")).unwrap(),
        format!("import os\n{APP}")
    );
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
