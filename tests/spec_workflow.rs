//! The specification's example workflow, end to end: through the library
//! and through `eddi run`, with the exact replies and the exact file.

use std::io::Write;
use std::process::{Command, Stdio};

use eddi::engine::{Engine, EngineConfig, Request};

const WORKFLOW: &[(&str, &str)] = &[
    ("Start refactor_session \"Refactoring user authentication module\"", "Ok"),
    ("Open Create src/auth user_manager.py", "Ok, At 0:0, Length 0"),
    (
        r#"Insert Block "class UserManager:\n    def __init__(self):\n        self.users = {}\n""#,
        "Ok, Inserted 3 lines at 0, At 3:0",
    ),
    ("Show Function __init__()", r"Ok: At 1:4, Txt def __init__(self):\n        self.users = {}"),
    ("Goto EndOfClass", "Ok, At 3:0"),
    // As in the spec, the snippet's indentation is lost; Eddi re-indents it
    // into the class and separates the methods by one blank line (PEP 8).
    (
        r#"Insert Method "def authenticate(self, username, password):\n # TODO: Implement authentication\n return False\n""#,
        "Ok, Inserted 4 lines at 3, At 7:0",
    ),
    ("Save Close user_manager.py", "Ok, Bytes 178"),
    (
        "Summary refactor_session",
        "Ok: Created src/auth/user_manager.py (178 bytes), Added 7 lines, Deleted 0 lines, 1 class created (UserManager), 2 methods created (UserManager.__init__, UserManager.authenticate)",
    ),
    ("End refactor_session", "Ok, Session saved"),
];

const EXPECTED_FILE: &str = "class UserManager:
    def __init__(self):
        self.users = {}

    def authenticate(self, username, password):
        # TODO: Implement authentication
        return False
";

#[test]
fn the_spec_workflow_through_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(EngineConfig::new(dir.path())).unwrap();
    for (command, expected) in WORKFLOW {
        let response = engine.execute(&Request {
            sender: "claude",
            text: command,
            id: None,
        });
        assert_eq!(response.text, *expected, "reply to: {command}");
    }
    let written = std::fs::read_to_string(dir.path().join("src/auth/user_manager.py")).unwrap();
    assert_eq!(written, EXPECTED_FILE);
}

#[test]
fn the_spec_workflow_through_eddi_run() {
    let dir = tempfile::tempdir().unwrap();
    let script: String = WORKFLOW
        .iter()
        .map(|(command, _)| format!("{command}\n"))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_eddi"))
        .args(["run", "--root"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let replies: Vec<&str> = std::str::from_utf8(&output.stdout)
        .unwrap()
        .lines()
        .collect();
    let expected: Vec<&str> = WORKFLOW.iter().map(|(_, reply)| *reply).collect();
    assert_eq!(replies, expected);
    let written = std::fs::read_to_string(dir.path().join("src/auth/user_manager.py")).unwrap();
    assert_eq!(written, EXPECTED_FILE);
}
