//! Reply size over a real nats-server: brief replies asked for in the
//! handshake, and the skipped count of a failing message as part of its
//! JSON reply.

use std::sync::Arc;

use eddi::engine::{Engine, EngineConfig};

use crate::support::nats::*;

fn engine(root: &std::path::Path) -> Arc<Engine> {
    Arc::new(Engine::open(EngineConfig::new(root)).unwrap())
}

/// `session_preferences.replies: "brief"` makes confirmations plain `Ok`,
/// and `response_format: "json"` puts `skipped` into the failing object.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handshake_asks_for_brief_replies_and_json_counts_skipped_commands() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    let mut request: serde_json::Value =
        serde_json::from_str(&connection_request("b", "bs")).unwrap();
    request["session_preferences"]["replies"] = "brief".into();
    assert_eq!(
        handshake(&c, &eddi.subjects, &request.to_string()).await["status"],
        "accepted"
    );
    assert_eq!(
        direct(
            &c,
            &eddi.subjects,
            "b",
            "Start s; Open a.py; Goto 0:1; Insert Line \"y = 2\"; Save"
        )
        .await,
        "Ok\nOk\nOk\nOk\nOk"
    );
    assert_eq!(
        direct(&c, &eddi.subjects, "b", "Show Line 0; Goto 9:0; Save").await,
        "Ok: At 0:0, Txt y = 2\nFail \"Line 9 out of range: valid lines are 0..2\", Skipped 1 command"
    );

    let mut request: serde_json::Value =
        serde_json::from_str(&connection_request("j", "js")).unwrap();
    request["session_preferences"]["response_format"] = "json".into();
    handshake(&c, &eddi.subjects, &request.to_string()).await;
    let reply = direct(&c, &eddi.subjects, "j", "Start t; Goto 9:0; Status").await;
    let lines: Vec<serde_json::Value> = reply
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l} ({e})")))
        .collect();
    assert_eq!(lines.len(), 2, "{reply}");
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["skipped"], 1, "{reply}");
    assert_eq!(
        lines[1]["error"], "No file open. Use: Open <file>",
        "the reason is only the reason: {reply}"
    );
    eddi.stop().await.unwrap();
}
