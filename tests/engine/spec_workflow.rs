//! The specification's example workflow, end to end: through the library
//! and through `eddi run`, with the exact replies and the exact file.

use eddi::engine::{Engine, EngineConfig, Request};

use crate::support::cli;
use crate::support::spec_workflow::{EXPECTED_FILE, WORKFLOW};

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
    let output = cli::run(dir.path(), &[], &script);
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
