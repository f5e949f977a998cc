//! The wire contract in `protocol/`: every example validates against its
//! schema, every counter-example does not, and the messages the transport
//! really produces and accepts agree with the schemas.

use std::path::{Path, PathBuf};

use eddi::transport::wire::{self, ConnectionResponse, StreamAppend, StreamOpen};
use serde_json::Value;

fn protocol() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol")
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn validator(schema: &str) -> jsonschema::Validator {
    let path = protocol().join("schemas").join(format!("{schema}.json"));
    jsonschema::options()
        .should_validate_formats(true)
        .build(&read(&path))
        .unwrap_or_else(|e| panic!("{}: not a valid schema: {e}", path.display()))
}

fn errors(schema: &str, instance: &Value) -> Vec<String> {
    validator(schema)
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// `connection_request.spec.json` → `connection_request`.
fn schema_of(path: &Path) -> String {
    let name = path.file_name().unwrap().to_str().unwrap();
    name.split('.').next().unwrap().to_string()
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_matches_its_schema() {
    let examples = json_files(&protocol().join("examples"));
    let mut covered = std::collections::BTreeSet::new();
    for path in &examples {
        let schema = schema_of(path);
        let found = errors(&schema, &read(path));
        assert!(found.is_empty(), "{}: {found:?}", path.display());
        covered.insert(schema);
    }
    for schema in json_files(&protocol().join("schemas")) {
        assert!(
            covered.contains(&schema_of(&schema)),
            "no example for {}",
            schema.display()
        );
    }
}

#[test]
fn every_counter_example_is_refused() {
    let invalid = json_files(&protocol().join("examples").join("invalid"));
    assert!(!invalid.is_empty());
    for path in invalid {
        let found = errors(&schema_of(&path), &read(&path));
        assert!(!found.is_empty(), "{} should not validate", path.display());
    }
}

#[test]
fn the_parser_agrees_with_the_schema_on_requests() {
    for path in json_files(&protocol().join("examples")) {
        if schema_of(&path) == "connection_request" {
            let text = std::fs::read_to_string(&path).unwrap();
            wire::parse_connection_request(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        if schema_of(&path) == "stream_update" {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                wire::parse_stream_update(&text).is_ok(),
                "{}",
                path.display()
            );
        }
    }
    let bad = protocol().join("examples/invalid/connection_request.bad_feature.json");
    assert!(wire::parse_connection_request(&std::fs::read_to_string(bad).unwrap()).is_err());
    let bad = protocol().join("examples/invalid/stream_update.no_to.json");
    assert!(wire::parse_stream_update(&std::fs::read_to_string(bad).unwrap()).is_err());
}

#[test]
fn what_the_transport_publishes_matches_the_schemas() {
    let rejected =
        ConnectionResponse::rejected("eddispeak_version: \"3.0\" is not supported", None);
    let value: Value = serde_json::from_str(&rejected.to_json()).unwrap();
    assert_eq!(errors("connection_response", &value), Vec::<String>::new());

    let append = StreamAppend::new("s", "eddi", "a", "Ok, At 3:0".into(), Some("7".into()));
    let value: Value = serde_json::from_str(&append.to_json()).unwrap();
    assert_eq!(errors("stream_append", &value), Vec::<String>::new());
    let append = StreamAppend::new("s", "eddi", "a", "Ok".into(), None);
    let value: Value = serde_json::from_str(&append.to_json()).unwrap();
    assert_eq!(errors("stream_append", &value), Vec::<String>::new());

    let open = serde_json::to_value(StreamOpen::new("s", "eddi")).unwrap();
    assert_eq!(errors("stream_open", &open), Vec::<String>::new());
}

/// A handler that answers `Ok` to everything (the engine's replies are not
/// this test's subject; the envelopes are).
struct Okay;

impl eddi::transport::CommandHandler for Okay {
    fn handle(&self, _: &eddi::transport::Incoming) -> eddi::transport::Reply {
        eddi::transport::Reply {
            text: "Ok".into(),
            ok: true,
            duplicate: false,
            format: eddi::commands::ResponseFormat::Terse,
            fitted_in: None,
        }
    }
    fn session_of(&self, _: &str) -> Option<String> {
        None
    }
    fn set_response_format(&self, _: &str, _: eddi::commands::ResponseFormat) {}
    fn flush(&self) -> Result<(), String> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_messages_match_the_schemas() {
    use crate::support::nats::*;
    let nats = NatsServer::start();
    let eddi = start_eddi(
        &nats.url(),
        std::sync::Arc::new(Okay),
        EddiOptions::default(),
    )
    .await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;
    let spec =
        std::fs::read_to_string(protocol().join("examples/connection_request.spec.json")).unwrap();
    let accepted = handshake(&c, &eddi.subjects, &spec).await;
    assert_eq!(accepted["status"], "accepted");
    assert_eq!(
        errors("connection_response", &accepted),
        Vec::<String>::new()
    );
    assert_eq!(
        errors("stream_open", &streams.next_open().await),
        Vec::<String>::new()
    );
    for bad in [
        "{",
        r#"{"message_type":"connection_request","sender":{"id":"a"},"stream_name":"s","eddispeak_version":"1.0","connection_id":"c"}"#,
    ] {
        let rejected = handshake(&c, &eddi.subjects, bad).await;
        assert_eq!(rejected["status"], "rejected");
        assert_eq!(
            errors("connection_response", &rejected),
            Vec::<String>::new()
        );
    }
    let update = read(&protocol().join("examples/stream_update.json"));
    streams.publish_raw(&update.to_string()).await;
    let append = streams.next_append().await;
    assert_eq!(append["in_reply_to"], "m-0001");
    assert_eq!(errors("stream_append", &append), Vec::<String>::new());
    eddi.stop().await.unwrap();
}

/// The JSON replies of a real conversation over NATS (a sender that asked
/// for `response_format: "json"` in its handshake, the engine on real
/// files) validate against `reply.json`, data and typed failures included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_json_replies_match_the_reply_schema() {
    use crate::support::nats::*;
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("shop.py"),
        "class Cart:\n    def total(self):\n        return 0\n\n\ndef pay(cart):\n    return cart.total()\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("app.py"),
        "from shop import pay\n\npay(None)\n",
    )
    .unwrap();
    let engine = eddi::engine::Engine::open(eddi::engine::EngineConfig::new(dir.path())).unwrap();
    let eddi = start_eddi(
        &nats.url(),
        std::sync::Arc::new(engine),
        EddiOptions::default(),
    )
    .await;
    let c = client(&nats.url()).await;
    let mut request: Value = serde_json::from_str(&connection_request("j", "js")).unwrap();
    request["session_preferences"]["response_format"] = "json".into();
    assert_eq!(
        handshake(&c, &eddi.subjects, &request.to_string()).await["status"],
        "accepted"
    );
    let conversation = "Start s\nOpen shop.py\nShow Method Cart.total\nFind References shop.pay\n\
        Find Callers shop.pay\nFind Definition Cart\nAnalyze File Structure\n\
        Analyze File Complexity\nAnalyze File Dependencies\nGoto 1:0\nInsert Line \"    # n\"\n\
        Status\nShow Function nosuch";
    let reply = direct(&c, &eddi.subjects, "j", conversation).await;
    let lines: Vec<Value> = reply
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l} ({e})")))
        .collect();
    assert_eq!(lines.len(), 13, "{reply}");
    for line in &lines {
        assert_eq!(errors("reply", line), Vec::<String>::new(), "{line}");
    }
    assert_eq!(lines[3]["references"][0]["path"], "app.py", "{reply}");
    assert_eq!(lines[4]["callers"][0]["in_symbol"], "<module>", "{reply}");
    assert_eq!(lines[12]["failure"]["code"], "not_found", "{reply}");
    eddi.stop().await.unwrap();
}
