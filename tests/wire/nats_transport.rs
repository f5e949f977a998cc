//! The transport over a real nats-server, with a recording handler in place
//! of the engine: handshake, stream flow, direct subject, service discovery,
//! bad input, ordering under load, broker restart, graceful shutdown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use eddi::commands::ResponseFormat;
use eddi::transport::{CommandHandler, Incoming, Reply};

use crate::support::nats::*;

/// Numbers each sender's messages and remembers "sessions" (`Start x`).
#[derive(Default)]
struct Recorder {
    counts: Mutex<HashMap<String, usize>>,
    sessions: Mutex<HashMap<String, String>>,
    formats: Mutex<HashMap<String, ResponseFormat>>,
    ids: Mutex<Vec<Option<String>>>,
    flushed: Mutex<bool>,
}

impl CommandHandler for Recorder {
    fn handle(&self, req: &Incoming) -> Reply {
        self.ids.lock().unwrap().push(req.id.clone());
        if let Some(name) = req.text.strip_prefix("Start ") {
            self.sessions
                .lock()
                .unwrap()
                .insert(req.sender.clone(), name.to_string());
        }
        if req.text == "slow" {
            std::thread::sleep(Duration::from_millis(300));
        }
        let mut counts = self.counts.lock().unwrap();
        let n = counts.entry(req.sender.clone()).or_default();
        *n += 1;
        Reply {
            text: format!("{} {}", n, req.text),
            ok: !req.text.starts_with("bad"),
            duplicate: false,
            format: eddi::commands::ResponseFormat::Terse,
            fitted_in: None,
        }
    }
    fn session_of(&self, sender: &str) -> Option<String> {
        self.sessions.lock().unwrap().get(sender).cloned()
    }
    fn set_response_format(&self, sender: &str, format: ResponseFormat) {
        self.formats.lock().unwrap().insert(sender.into(), format);
    }
    fn flush(&self) -> Result<(), String> {
        *self.flushed.lock().unwrap() = true;
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handshake_accepted_resumed_and_rejected() {
    let nats = NatsServer::start();
    let handler = Arc::new(Recorder::default());
    let eddi = start_eddi(&nats.url(), handler.clone(), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;

    let reply = handshake(
        &c,
        &eddi.subjects,
        &connection_request("claude", "claude.eddi.code_editing"),
    )
    .await;
    assert_eq!(reply["message_type"], "connection_response");
    assert_eq!(reply["status"], "accepted", "{reply}");
    assert_eq!(reply["stream_id"], "claude.eddi.code_editing");
    assert_eq!(reply["connection_id"], "conn_claude");
    assert_eq!(reply["available_features"]["basic_commands"], "2.0");
    assert!(reply["available_features"].get("python_api").is_none());
    assert_eq!(
        reply["server_info"]["supported_eddispeak"],
        serde_json::json!(["2.0"])
    );
    assert_eq!(reply["server_info"]["max_concurrent_operations"], 8);
    assert_eq!(reply["recipient"], "eddi");
    assert_eq!(reply["direct_subject"], "mizuki.eddi.cmd.claude");
    assert_eq!(reply["session"]["resumed"], false);
    assert!(reply["connection_established"]
        .as_str()
        .unwrap()
        .ends_with('Z'));
    assert_eq!(
        streams.next_open().await,
        serde_json::json!({"name": "claude.eddi.code_editing", "msg_type": "stream_open",
                           "whitelist_recipient": "eddi", "user": "eddi"})
    );
    assert_eq!(
        handler.formats.lock().unwrap()["claude"],
        ResponseFormat::Terse
    );

    // A sender with a session is reconnected to it.
    direct(&c, &eddi.subjects, "claude", "Start s1").await;
    let reply = handshake(
        &c,
        &eddi.subjects,
        &connection_request("claude", "claude.eddi.code_editing"),
    )
    .await;
    assert_eq!(reply["status"], "accepted");
    assert_eq!(
        reply["session"],
        serde_json::json!({"resumed": true, "name": "s1"})
    );

    let base: serde_json::Value = serde_json::from_str(&connection_request("x", "s")).unwrap();
    let variant = |path: &[&str], value: serde_json::Value| {
        let mut v = base.clone();
        let mut at = &mut v;
        for key in &path[..path.len() - 1] {
            at = &mut at[*key];
        }
        if value.is_null() {
            at.as_object_mut().unwrap().remove(path[path.len() - 1]);
        } else {
            at[path[path.len() - 1]] = value;
        }
        v.to_string()
    };
    let cases = [
        ("{not json".to_string(), "$: invalid JSON"),
        ("[]".to_string(), "$: expected a JSON object"),
        (variant(&["eddispeak_version"], "3.0".into()), "eddispeak_version: \"3.0\" is not supported; supported: 2.0"),
        (
            variant(&["requested_features", "python_api"], serde_json::json!(["1.0", "mandatory"])),
            "requested_features.python_api: mandatory but not available; available: basic_commands 2.0",
        ),
        (variant(&["sender", "id"], serde_json::Value::Null), "sender.id: missing"),
        (variant(&["sender", "id"], 7.into()), "sender.id: expected a string, found 7"),
        (variant(&["sender", "id"], "bad id".into()), "sender.id: Invalid sender id"),
        (variant(&["stream_name"], serde_json::Value::Null), "stream_name: missing"),
        (variant(&["message_type"], "hello".into()), "message_type: expected \"connection_request\""),
        (variant(&["session_preferences", "preview_mode"], "yes".into()), "session_preferences.preview_mode: expected true or false"),
    ];
    for (body, reason) in cases {
        let reply = c
            .request(eddi.subjects.connection_request(), body.clone().into())
            .await
            .unwrap();
        let headers = reply.headers.as_ref().expect("error headers");
        assert_eq!(
            headers.get("Nats-Service-Error-Code").unwrap().as_str(),
            "400"
        );
        let json: serde_json::Value = serde_json::from_slice(&reply.payload).unwrap();
        assert_eq!(json["status"], "rejected", "{body}");
        assert_eq!(json["message_type"], "connection_response");
        let got = json["reason"].as_str().unwrap();
        assert!(
            got.starts_with(reason),
            "{body}\n got: {got}\nwant: {reason}"
        );
    }
    // A rejection still echoes the connection_id it could read.
    let reply = handshake(
        &c,
        &eddi.subjects,
        &variant(&["eddispeak_version"], "9".into()),
    )
    .await;
    assert_eq!(reply["connection_id"], "conn_x");

    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_flow_with_in_reply_to() {
    let nats = NatsServer::start();
    let handler = Arc::new(Recorder::default());
    let eddi = start_eddi(&nats.url(), handler.clone(), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;

    // Without a handshake: told to send one first.
    streams
        .say("st", "agent", "eddi", "Status", Some("m0"))
        .await;
    let append = streams.next_append().await;
    assert_eq!(append["to"], "agent");
    assert_eq!(append["in_reply_to"], "m0");
    assert_eq!(
        append["appended"],
        "Fail \"No handshake: send a connection_request to mizuki.eddi.connection_request first\""
    );

    assert_eq!(
        handshake(&c, &eddi.subjects, &connection_request("agent", "st")).await["status"],
        "accepted"
    );
    streams.next_open().await;
    streams
        .say("st", "agent", "eddi", "Start s1", Some("m1"))
        .await;
    streams.say("st", "agent", "eddi", "Status", None).await;
    assert_eq!(
        streams.next_append().await,
        serde_json::json!({"name": "st", "msg_type": "stream_append", "appended": "1 Start s1",
                           "from": "eddi", "to": "agent", "in_reply_to": "m1"})
    );
    let second = streams.next_append().await;
    assert_eq!(second["appended"], "2 Status");
    assert_eq!(second["in_reply_to"], serde_json::Value::Null);

    // Not for us, and our own echo: ignored, nothing run.
    streams
        .say("st", "agent", "someone-else", "Status", Some("x"))
        .await;
    streams.say("st", "eddi", "agent", "Ok", None).await;
    // Missing field, addressed to us: a Fail naming the field, in order.
    streams
        .publish_raw(r#"{"name":"st","from":"agent","to":"eddi","id":"m3"}"#)
        .await;
    let append = streams.next_append().await;
    assert_eq!(
        append["appended"],
        "Fail \"Malformed stream message: appended: missing (a string is required)\""
    );
    assert_eq!(append["in_reply_to"], "m3");
    streams.publish_raw("not json at all").await;
    streams.say("st", "bad.id", "eddi", "Status", None).await;
    let append = streams.next_append().await;
    assert_eq!(append["to"], "bad.id");
    assert!(append["appended"]
        .as_str()
        .unwrap()
        .starts_with("Fail \"Invalid sender id"));
    // Control characters are stripped before the handler sees the text.
    streams
        .say("st", "agent", "eddi", "Sta\u{7}tus\u{0}", Some("m4"))
        .await;
    let append = streams.next_append().await;
    assert_eq!(append["appended"], "3 Status");
    assert!(streams
        .maybe_append(Duration::from_millis(200))
        .await
        .is_none());
    assert_eq!(handler.counts.lock().unwrap()["agent"], 3);

    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_subject_and_service_discovery() {
    let nats = NatsServer::start();
    let handler = Arc::new(Recorder::default());
    let options = EddiOptions {
        max_payload: 4096,
        ..Default::default()
    };
    let eddi = start_eddi(&nats.url(), handler.clone(), options).await;
    let c = client(&nats.url()).await;

    assert_eq!(
        direct(&c, &eddi.subjects, "a1", "Start s1").await,
        "1 Start s1"
    );
    let reply = direct_message(&c, eddi.subjects.direct("a1"), b"bad thing".to_vec(), None).await;
    assert_eq!(reply.payload, "2 bad thing");
    assert_eq!(
        reply.headers.unwrap().get("Eddi-Status").unwrap().as_str(),
        "fail"
    );

    // The Nats-Msg-Id header reaches the handler as the message id.
    let mut headers = async_nats::HeaderMap::new();
    headers.insert("Nats-Msg-Id", "retry-1");
    direct_message(
        &c,
        eddi.subjects.direct("a1"),
        b"Status".to_vec(),
        Some(headers),
    )
    .await;
    assert_eq!(
        handler.ids.lock().unwrap().last().unwrap().as_deref(),
        Some("retry-1")
    );

    // Bad input gets a Fail with the ADR-32 headers, and nothing runs.
    let too_big = vec![b'x'; 5000];
    let reply = direct_message(&c, eddi.subjects.direct("a1"), too_big, None).await;
    assert_eq!(
        reply.payload,
        "Fail \"Payload too large: 5000 bytes, limit 4096 bytes\""
    );
    let headers = reply.headers.unwrap();
    assert_eq!(
        headers.get("Nats-Service-Error-Code").unwrap().as_str(),
        "413"
    );
    let reply = direct_message(
        &c,
        eddi.subjects.direct("a1"),
        b"Show \xff\xfe".to_vec(),
        None,
    )
    .await;
    assert_eq!(
        reply.payload,
        "Fail \"Payload is not valid UTF-8 (invalid byte at offset 5)\""
    );
    let reply = direct(&c, &eddi.subjects, &"x".repeat(65), "Status").await;
    assert_eq!(
        reply,
        "Fail \"Invalid sender id: 65 characters, at most 64\""
    );
    assert_eq!(handler.counts.lock().unwrap()["a1"], 3);

    // $SRV.PING / INFO / STATS see the service, its endpoints and counts.
    let info = c.request("$SRV.INFO.eddi", "".into()).await.unwrap();
    let info: serde_json::Value = serde_json::from_slice(&info.payload).unwrap();
    assert_eq!(info["name"], "eddi");
    let mut subjects: Vec<String> = info["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["subject"].as_str().unwrap().to_string())
        .collect();
    subjects.sort();
    assert_eq!(
        subjects,
        [
            "mizuki.eddi.cmd.*",
            "mizuki.eddi.connection_request",
            "mizuki.eddi.guide",
            "mizuki.eddi.tools.call",
            "mizuki.eddi.tools.list"
        ]
    );
    // The service counts a request after its reply is sent: ask until the
    // count has caught up with the replies this test already received.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let cmd = loop {
        let stats = c.request("$SRV.STATS.eddi", "".into()).await.unwrap();
        let stats: serde_json::Value = serde_json::from_slice(&stats.payload).unwrap();
        let cmd = stats["endpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == "cmd")
            .unwrap()
            .clone();
        if cmd["num_requests"] == 6 || std::time::Instant::now() > deadline {
            break cmd;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(cmd["num_requests"], 6, "{cmd}");
    assert_eq!(cmd["num_errors"], 3, "{cmd}");
    assert!(cmd["data"]["stream_messages"].is_number());
    let ping = c.request("$SRV.PING", "".into()).await.unwrap();
    let ping: serde_json::Value = serde_json::from_slice(&ping.payload).unwrap();
    assert_eq!(ping["name"], "eddi");

    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_side_by_side_with_their_own_names_and_prefix() {
    let nats = NatsServer::start();
    let a = start_eddi(
        &nats.url(),
        Arc::new(Recorder::default()),
        EddiOptions {
            name: "ws-a".into(),
            ..Default::default()
        },
    )
    .await;
    let b = start_eddi(
        &nats.url(),
        Arc::new(Recorder::default()),
        EddiOptions {
            name: "ws-b".into(),
            prefix: "acme".into(),
            ..Default::default()
        },
    )
    .await;
    let c = client(&nats.url()).await;
    assert_eq!(a.subjects.direct("x"), "mizuki.ws-a.cmd.x");
    assert_eq!(b.subjects.direct("x"), "acme.ws-b.cmd.x");
    assert_eq!(direct(&c, &a.subjects, "x", "Status").await, "1 Status");
    assert_eq!(direct(&c, &a.subjects, "x", "Status").await, "2 Status");
    assert_eq!(direct(&c, &b.subjects, "x", "Status").await, "1 Status");
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    assert_eq!(
        handshake(&c, &a.subjects, &connection_request("x", "shared")).await["recipient"],
        "ws-a"
    );
    streams.say("shared", "x", "ws-a", "Status", None).await;
    let append = streams.next_append().await;
    assert_eq!(append["from"], "ws-a");
    assert_eq!(append["appended"], "3 Status");
    a.stop().await.unwrap();
    b.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_stop_finishes_running_messages_and_flushes() {
    let nats = NatsServer::start();
    let handler = Arc::new(Recorder::default());
    let eddi = start_eddi(&nats.url(), handler.clone(), EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    let subject = eddi.subjects.direct("s");
    let pending = tokio::spawn({
        let c = c.clone();
        async move { c.request(subject, "slow".into()).await }
    });
    // Stop only once the message is running (a fixed sleep raced a loaded
    // machine): what is being handled is finished before the service ends.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while handler.ids.lock().unwrap().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the message never ran"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    eddi.stop().await.unwrap();
    let reply = pending
        .await
        .unwrap()
        .expect("the running message is answered");
    assert_eq!(reply.payload, "1 slow");
    assert!(*handler.flushed.lock().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broker_restart_reconnects_by_itself() {
    let mut nats = NatsServer::start();
    let handler = Arc::new(Recorder::default());
    let eddi = start_eddi(&nats.url(), handler.clone(), EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    assert_eq!(
        direct(&c, &eddi.subjects, "r", "Start s").await,
        "1 Start s"
    );
    nats.restart();
    // Eddi and the test client reconnect on their own; ask until served.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let reply = loop {
        match c.request(eddi.subjects.direct("r"), "Status".into()).await {
            Ok(reply) => break String::from_utf8(reply.payload.to_vec()).unwrap(),
            Err(_) => {
                assert!(std::time::Instant::now() < deadline, "never served again");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert!(reply.ends_with(" Status"), "{reply}");
    assert_eq!(handler.session_of("r").as_deref(), Some("s"));
    eddi.stop().await.unwrap();
}

/// 50 senders × 200 messages, all pipelined (no waiting for answers): half
/// on the stream, half on the direct subject with a private reply inbox.
/// Every reply correct, each sender's replies in order, no cross-talk.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_senders_two_hundred_messages_in_order() {
    use futures::StreamExt;
    const SENDERS: usize = 50;
    const MESSAGES: usize = 200;
    let nats = NatsServer::start();
    let handler = Arc::new(Recorder::default());
    let eddi = start_eddi(&nats.url(), handler.clone(), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;
    for s in 0..SENDERS / 2 {
        let reply = handshake(
            &c,
            &eddi.subjects,
            &connection_request(&format!("st{s}"), &format!("stream{s}")),
        )
        .await;
        assert_eq!(reply["status"], "accepted");
    }
    let started = std::time::Instant::now();
    let mut direct_tasks = Vec::new();
    for s in 0..SENDERS / 2 {
        let c = client(&nats.url()).await;
        let subject = eddi.subjects.direct(&format!("d{s}"));
        direct_tasks.push(tokio::spawn(async move {
            let inbox = c.new_inbox();
            let mut replies = c.subscribe(inbox.clone()).await.unwrap();
            c.flush().await.unwrap();
            for i in 0..MESSAGES {
                c.publish_with_reply(subject.clone(), inbox.clone(), format!("d{s}:{i}").into())
                    .await
                    .unwrap();
            }
            for i in 0..MESSAGES {
                let msg = tokio::time::timeout(Duration::from_secs(30), replies.next())
                    .await
                    .expect("reply in time")
                    .unwrap();
                assert_eq!(msg.payload, format!("{} d{s}:{i}", i + 1));
            }
        }));
    }
    for i in 0..MESSAGES {
        for s in 0..SENDERS / 2 {
            streams
                .say(
                    &format!("stream{s}"),
                    &format!("st{s}"),
                    "eddi",
                    &format!("st{s}:{i}"),
                    Some(&format!("{s}-{i}")),
                )
                .await;
        }
    }
    let mut next = [0usize; SENDERS / 2];
    for _ in 0..(SENDERS / 2) * MESSAGES {
        let append = streams.next_append().await;
        let to = append["to"].as_str().unwrap();
        let s: usize = to.trim_start_matches("st").parse().unwrap();
        let i = next[s];
        assert_eq!(append["name"], format!("stream{s}"));
        assert_eq!(append["in_reply_to"], format!("{s}-{i}"));
        assert_eq!(append["appended"], format!("{} st{s}:{i}", i + 1));
        next[s] += 1;
    }
    for task in direct_tasks {
        task.await.unwrap();
    }
    eprintln!("50 x 200 messages answered in {:?}", started.elapsed());
    assert!(streams
        .maybe_append(Duration::from_millis(100))
        .await
        .is_none());
    eddi.stop().await.unwrap();
}
