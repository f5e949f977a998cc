//! Eddi end to end over a real nats-server with the real engine: the spec's
//! example workflow on the direct subject and on the stream, retries by id,
//! permissions, bad input, 50 senders × 200 commands, broker restart.

use std::sync::Arc;
use std::time::Duration;

use eddi::engine::Permissions;
use eddi::engine::{Engine, EngineConfig};
use futures::StreamExt;

use crate::support::nats::*;

use crate::support::spec_workflow::{EXPECTED_FILE, WORKFLOW};

fn engine(root: &std::path::Path) -> Arc<Engine> {
    Arc::new(Engine::open(EngineConfig::new(root)).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_workflow_over_the_direct_subject() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    assert_eq!(
        direct(&c, &eddi.subjects, "claude", "Status").await,
        "Fail \"No session. Start one with: Start <name>\""
    );
    for (command, expected) in WORKFLOW {
        assert_eq!(
            direct(&c, &eddi.subjects, "claude", command).await,
            *expected,
            "reply to: {command}"
        );
    }
    let written = std::fs::read_to_string(dir.path().join("src/auth/user_manager.py")).unwrap();
    assert_eq!(written, EXPECTED_FILE);
    // A command Eddi does not know never answers Ok.
    direct(&c, &eddi.subjects, "claude", "Start s2").await;
    let reply = direct_message(
        &c,
        eddi.subjects.direct("claude"),
        b"Frobnicate now".to_vec(),
        None,
    )
    .await;
    assert!(
        String::from_utf8_lossy(&reply.payload).starts_with("Fail \"Unknown command 'Frobnicate'")
    );
    assert_eq!(
        reply.headers.unwrap().get("Eddi-Status").unwrap().as_str(),
        "fail"
    );
    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_workflow_over_the_stream() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;
    let sender = "claude-4-sonnet-20250514";
    let stream = "claude.eddi.code_editing";
    let accepted = handshake(&c, &eddi.subjects, &connection_request(sender, stream)).await;
    assert_eq!(accepted["status"], "accepted");
    assert_eq!(accepted["session"]["resumed"], false);
    assert_eq!(streams.next_open().await["name"], stream);
    // All messages at once: the replies come back one each, in order.
    for (i, (command, _)) in WORKFLOW.iter().enumerate() {
        streams
            .say(stream, sender, "eddi", command, Some(&format!("m{i}")))
            .await;
    }
    for (i, (command, expected)) in WORKFLOW.iter().enumerate() {
        let append = streams.next_append().await;
        assert_eq!(append["in_reply_to"], format!("m{i}"));
        assert_eq!(append["to"], sender);
        assert_eq!(append["from"], "eddi");
        assert_eq!(append["name"], stream);
        assert_eq!(append["appended"], *expected, "reply to: {command}");
    }
    let written = std::fs::read_to_string(dir.path().join("src/auth/user_manager.py")).unwrap();
    assert_eq!(written, EXPECTED_FILE);

    // A sender with a session is reconnected to it by a new handshake.
    streams
        .say(stream, sender, "eddi", "Start again", Some("m-again"))
        .await;
    assert_eq!(streams.next_append().await["appended"], "Ok");
    let resumed = handshake(&c, &eddi.subjects, &connection_request(sender, stream)).await;
    assert_eq!(
        resumed["session"],
        serde_json::json!({"resumed": true, "name": "again"})
    );
    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_id_gets_the_same_answer_and_is_not_applied_twice() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;
    for command in ["Start s", "Open Create a.py"] {
        direct(&c, &eddi.subjects, "r", command).await;
    }
    let with_id = |id: &str| {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Nats-Msg-Id", id);
        Some(headers)
    };
    let insert = br#"Insert Line "x = 1""#.to_vec();
    let first = direct_message(
        &c,
        eddi.subjects.direct("r"),
        insert.clone(),
        with_id("i-1"),
    )
    .await;
    let again = direct_message(
        &c,
        eddi.subjects.direct("r"),
        insert.clone(),
        with_id("i-1"),
    )
    .await;
    assert_eq!(first.payload, "Ok, Inserted 1 line at 0, At 1:0");
    assert_eq!(again.payload, first.payload);
    // A plain success carries no headers; the repeat says it is one.
    assert!(first.headers.is_none());
    assert_eq!(
        again
            .headers
            .unwrap()
            .get("Eddi-Duplicate")
            .unwrap()
            .as_str(),
        "true"
    );
    // On the stream too.
    handshake(&c, &eddi.subjects, &connection_request("r", "rs")).await;
    streams
        .say("rs", "r", "eddi", "Insert Line \"y = 2\"", Some("i-2"))
        .await;
    streams
        .say("rs", "r", "eddi", "Insert Line \"y = 2\"", Some("i-2"))
        .await;
    let a = streams.next_append().await;
    let b = streams.next_append().await;
    assert_eq!(a["appended"], "Ok, Inserted 1 line at 1, At 2:0");
    assert_eq!(b["appended"], a["appended"]);
    assert_eq!(b["in_reply_to"], "i-2");
    assert_eq!(
        direct(&c, &eddi.subjects, "r", "Save").await,
        "Ok, Bytes 12"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.py")).unwrap(),
        "x = 1\ny = 2\n"
    );
    eddi.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_and_everyone_else_is_served() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src/auth")).unwrap();
    std::fs::write(dir.path().join("src/auth/a.py"), "a = 1\n").unwrap();
    std::fs::write(dir.path().join("notes.py"), "n = 1\n").unwrap();
    let permissions = Permissions {
        read_only: ["viewer".to_string()].into(),
        path_prefixes: [("auth-agent".to_string(), vec!["src/auth".to_string()])].into(),
        ..Default::default()
    };
    // Permissions belong to the engine: every front end obeys them.
    let mut config = EngineConfig::new(dir.path());
    config.permissions = permissions;
    let options = EddiOptions {
        max_payload: 64 * 1024,
        ..Default::default()
    };
    let eddi = start_eddi(
        &nats.url(),
        Arc::new(Engine::open(config).unwrap()),
        options,
    )
    .await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;
    let s = &eddi.subjects;

    // A well-behaved sender works before, during and after.
    assert_eq!(direct(&c, s, "good", "Start g").await, "Ok");

    // Read-only: may look, may not touch; nothing of a refused message runs.
    assert_eq!(direct(&c, s, "viewer", "Start v").await, "Ok");
    assert_eq!(
        direct(&c, s, "viewer", "Open src/auth/a.py").await,
        "Ok, At 0:0, Length 1"
    );
    assert_eq!(
        direct(&c, s, "viewer", "Show Line 0").await,
        "Ok: At 0:0, Txt a = 1"
    );
    assert_eq!(
        direct(&c, s, "viewer", "Goto 0:0\nInsert Line \"evil = 1\"").await,
        "Fail \"Permission denied: viewer is read-only; Insert changes files\""
    );
    assert_eq!(
        direct(&c, s, "viewer", "Open Create x.py").await,
        "Fail \"Permission denied: viewer is read-only; Open Create changes files\""
    );
    // Path prefixes.
    assert_eq!(direct(&c, s, "auth-agent", "Start a").await, "Ok");
    assert_eq!(
        direct(&c, s, "auth-agent", "Open src/auth/a.py").await,
        "Ok, At 0:0, Length 1"
    );
    assert_eq!(
        direct(&c, s, "auth-agent", "Open notes.py").await,
        "Fail \"Permission denied: auth-agent may not use notes.py; allowed: src/auth\""
    );

    // Oversized, not UTF-8, bad sender ids: refused with a Fail that says so.
    let big = format!("Insert Line \"{}\"", "x".repeat(70 * 1024));
    let reply = direct_message(&c, s.direct("good"), big.clone().into_bytes(), None).await;
    assert!(String::from_utf8_lossy(&reply.payload).starts_with("Fail \"Payload too large: "));
    let reply = direct_message(&c, s.direct("good"), vec![0xc3, 0x28], None).await;
    assert_eq!(
        reply.payload,
        "Fail \"Payload is not valid UTF-8 (invalid byte at offset 0)\""
    );
    // Over the stream: no handshake, bad id, oversized, mistyped field, other recipient.
    streams
        .say("st", "stranger", "eddi", "Start x", Some("1"))
        .await;
    assert!(streams.next_append().await["appended"]
        .as_str()
        .unwrap()
        .contains("No handshake"));
    handshake(&c, s, &connection_request("good", "st")).await;
    streams.say("st", "good", "eddi", &big, Some("2")).await;
    assert!(streams.next_append().await["appended"]
        .as_str()
        .unwrap()
        .starts_with("Fail \"Payload too large"));
    streams
        .publish_raw(r#"{"name":"st","from":"good","to":"eddi","appended":42,"id":"3"}"#)
        .await;
    assert_eq!(
        streams.next_append().await["appended"],
        "Fail \"Malformed stream message: appended: expected a string, found 42\""
    );
    streams
        .say("st", "good", "not-eddi", "End g", Some("4"))
        .await;
    streams.say("st", "good", "eddi", "Status", Some("5")).await;
    let append = streams.next_append().await;
    assert_eq!(append["in_reply_to"], "5");
    assert_eq!(append["appended"], "Ok: Session g, No file");
    // A direct message without a reply subject is not run (nobody to answer).
    c.publish(s.direct("silent"), "Start quiet".into())
        .await
        .unwrap();
    c.flush().await.unwrap();
    assert_eq!(
        direct(&c, s, "silent", "Status").await,
        "Fail \"No session. Start one with: Start <name>\""
    );
    // Wrong version and garbage handshakes are rejected; the service goes on.
    let mut wrong: serde_json::Value =
        serde_json::from_str(&connection_request("v2", "st")).unwrap();
    wrong["eddispeak_version"] = "1.0".into();
    assert_eq!(
        handshake(&c, s, &wrong.to_string()).await["status"],
        "rejected"
    );
    assert_eq!(
        handshake(&c, s, "\u{0}\u{1}garbage").await["status"],
        "rejected"
    );
    assert_eq!(
        direct(&c, s, "good", "Status").await,
        "Ok: Session g, No file"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/auth/a.py")).unwrap(),
        "a = 1\n"
    );
    eddi.stop().await.unwrap();
}

/// 50 senders × 200 commands, pipelined: 25 on the stream, 25 on the direct
/// subject. Every reply exact, in each sender's order, no cross-talk.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_senders_two_hundred_commands_each() {
    const SENDERS: usize = 50;
    const COMMANDS: usize = 200;
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;

    // Each sender: its session, its file of 10 lines naming it.
    let setup = |n: usize| {
        let lines: String = (0..10).map(|k| format!("v{n}_{k} = {k}\\n")).collect();
        format!("Start s{n}\nOpen Create f{n}.py\nInsert Block \"{lines}\"")
    };
    let command = |i: usize| {
        if i.is_multiple_of(2) {
            format!("Goto {}:0", i % 10)
        } else {
            format!("Show Line {}", i % 10)
        }
    };
    let expected = |n: usize, i: usize| {
        if i.is_multiple_of(2) {
            format!("Ok, At {}:0", i % 10)
        } else {
            format!("Ok: At {k}:0, Txt v{n}_{k} = {k}", k = i % 10)
        }
    };
    for n in 0..SENDERS {
        let reply = direct(&c, &eddi.subjects, &format!("u{n}"), &setup(n)).await;
        assert_eq!(
            reply,
            "Ok\nOk, At 0:0, Length 0\nOk, Inserted 10 lines at 0, At 10:0"
        );
        if n % 2 == 0 {
            handshake(
                &c,
                &eddi.subjects,
                &connection_request(&format!("u{n}"), &format!("st{n}")),
            )
            .await;
        }
    }
    let started = std::time::Instant::now();
    let mut direct_tasks = Vec::new();
    for n in (1..SENDERS).step_by(2) {
        let c = client(&nats.url()).await;
        let subject = eddi.subjects.direct(&format!("u{n}"));
        direct_tasks.push(tokio::spawn(async move {
            let inbox = c.new_inbox();
            let mut replies = c.subscribe(inbox.clone()).await.unwrap();
            c.flush().await.unwrap();
            for i in 0..COMMANDS {
                c.publish_with_reply(subject.clone(), inbox.clone(), command(i).into())
                    .await
                    .unwrap();
            }
            for i in 0..COMMANDS {
                let msg = tokio::time::timeout(Duration::from_secs(60), replies.next())
                    .await
                    .expect("reply in time")
                    .unwrap();
                assert_eq!(msg.payload, expected(n, i), "sender u{n} command {i}");
            }
        }));
    }
    for i in 0..COMMANDS {
        for n in (0..SENDERS).step_by(2) {
            let id = format!("{n}-{i}");
            streams
                .say(
                    &format!("st{n}"),
                    &format!("u{n}"),
                    "eddi",
                    &command(i),
                    Some(&id),
                )
                .await;
        }
    }
    let mut next = [0usize; SENDERS];
    for _ in 0..(SENDERS / 2) * COMMANDS {
        let append = tokio::time::timeout(Duration::from_secs(60), streams.next_append())
            .await
            .expect("append in time");
        let to = append["to"].as_str().unwrap();
        let n: usize = to.trim_start_matches('u').parse().unwrap();
        let i = next[n];
        assert_eq!(append["name"], format!("st{n}"));
        assert_eq!(append["in_reply_to"], format!("{n}-{i}"));
        assert_eq!(
            append["appended"],
            expected(n, i),
            "sender u{n} command {i}"
        );
        next[n] += 1;
    }
    for task in direct_tasks {
        task.await.unwrap();
    }
    eprintln!(
        "{SENDERS} senders x {COMMANDS} commands answered in {:?}",
        started.elapsed()
    );
    eddi.stop().await.unwrap();
}

/// The broker dies and comes back on the same port while a client is
/// active: Eddi reconnects by itself, sessions intact, no restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broker_restart_keeps_sessions_and_serves_again() {
    let mut nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;
    for (command, reply) in [
        ("Start s", "Ok"),
        ("Open Create b.py", "Ok, At 0:0, Length 0"),
        (
            "Insert Line \"before = 1\"",
            "Ok, Inserted 1 line at 0, At 1:0",
        ),
    ] {
        assert_eq!(direct(&c, &eddi.subjects, "b", command).await, reply);
    }
    handshake(&c, &eddi.subjects, &connection_request("b", "bs")).await;
    assert_eq!(streams.next_open().await["name"], "bs");

    // A client keeps asking while the broker goes away and comes back.
    let busy = tokio::spawn({
        let c = c.clone();
        let subject = eddi.subjects.direct("busy");
        async move {
            let mut answered = 0;
            let end = std::time::Instant::now() + Duration::from_secs(3);
            while std::time::Instant::now() < end {
                if c.request(subject.clone(), "Status".into()).await.is_ok() {
                    answered += 1;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            answered
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    nats.restart();

    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let reply = loop {
        match c
            .request(eddi.subjects.direct("b"), "Show Line 0".into())
            .await
        {
            Ok(reply) => break String::from_utf8(reply.payload.to_vec()).unwrap(),
            Err(_) => {
                assert!(
                    std::time::Instant::now() < deadline,
                    "Eddi never served again"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert_eq!(reply, "Ok: At 0:0, Txt before = 1");
    assert!(busy.await.unwrap() > 0);
    // The stream works again too (subscriptions were restored).
    let mut appended = None;
    for attempt in 0..50 {
        streams
            .say(
                "bs",
                "b",
                "eddi",
                "Goto 0:5",
                Some(&format!("after-{attempt}")),
            )
            .await;
        if let Some(append) = streams.maybe_append(Duration::from_millis(200)).await {
            appended = Some(append);
            break;
        }
    }
    assert_eq!(
        appended.expect("a stream reply after the restart")["appended"],
        "Ok, At 0:5"
    );
    eddi.stop().await.unwrap();
}

/// `session_preferences.response_format: "json"` in the handshake makes the
/// sender's replies JSON, on the stream and on the direct subject alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handshake_response_format_applies_to_replies() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    let c = client(&nats.url()).await;
    let mut request: serde_json::Value =
        serde_json::from_str(&connection_request("j", "js")).unwrap();
    request["session_preferences"]["response_format"] = "json".into();
    assert_eq!(
        handshake(&c, &eddi.subjects, &request.to_string()).await["status"],
        "accepted"
    );
    streams.say("js", "j", "eddi", "Start s", Some("1")).await;
    let append = streams.next_append().await;
    let reply: serde_json::Value = serde_json::from_str(append["appended"].as_str().unwrap())
        .unwrap_or_else(|e| panic!("not JSON: {append} ({e})"));
    assert_eq!(reply["ok"], true);
    let direct_reply = direct(&c, &eddi.subjects, "j", "Goto 9:9").await;
    let reply: serde_json::Value = serde_json::from_str(&direct_reply).unwrap();
    assert_eq!(reply["ok"], false, "{direct_reply}");
    eddi.stop().await.unwrap();
}

/// The trial's lost update: two senders save one file at the same moment
/// over NATS. When each has unsaved edits on the line the other writes,
/// both are refused and nothing is written; on different lines, each save
/// carries over to the other's buffer, and whatever answered `Ok` is on
/// disk: no save is ever lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_senders_saving_one_file_at_once_never_lose_an_edit() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    let path = dir.path().join("f.py");
    for attempt in 0..50 {
        std::fs::write(&path, "x = 0\ny = 0\n").unwrap();
        // even attempts: both insert above line 0; odd: bob above line 1
        let same_line = attempt % 2 == 0;
        for (sender, line, at) in [
            ("alice", "a = 1", 0),
            ("bob", "b = 2", usize::from(!same_line)),
        ] {
            direct(
                &c,
                &eddi.subjects,
                sender,
                &format!("Start {sender}{attempt}"),
            )
            .await;
            let opened = direct(&c, &eddi.subjects, sender, "Open f.py").await;
            assert!(opened.starts_with("Ok"), "{opened}");
            let inserted = direct(
                &c,
                &eddi.subjects,
                sender,
                &format!("Goto {at}:0; Insert Line \"{line}\""),
            )
            .await;
            assert!(!inserted.contains("Fail"), "{inserted}");
        }
        let (a, b) = tokio::join!(
            direct(&c, &eddi.subjects, "alice", "Save"),
            direct(&c, &eddi.subjects, "bob", "Save"),
        );
        let disk = std::fs::read_to_string(&path).unwrap();
        if same_line {
            for refused in [&a, &b] {
                assert!(
                    refused.contains("other sessions have unsaved edits on: f.py line 1"),
                    "attempt {attempt}: {refused}"
                );
            }
            assert_eq!(disk, "x = 0\ny = 0\n", "attempt {attempt}");
        } else {
            assert!(
                a.starts_with("Ok") || b.starts_with("Ok"),
                "attempt {attempt}: {a} / {b}"
            );
            for (reply, edit) in [(&a, "a = 1\n"), (&b, "b = 2\n")] {
                if reply.starts_with("Ok") {
                    assert!(
                        disk.contains(edit),
                        "attempt {attempt}: {edit:?} lost: {disk:?}"
                    );
                } else {
                    assert!(
                        reply.contains("changed on disk"),
                        "attempt {attempt}: {reply}"
                    );
                }
            }
        }
        for sender in ["alice", "bob"] {
            direct(&c, &eddi.subjects, sender, "Close f.py").await;
            direct(
                &c,
                &eddi.subjects,
                sender,
                &format!("End {sender}{attempt}"),
            )
            .await;
        }
    }
    eddi.stop().await.unwrap();
}

/// A message whose text is a script (a `{ … }` block over several lines)
/// runs over NATS as one command: one reply, one undo step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_over_the_direct_subject() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = "import os\nimport sys\n\n\ndef main():\n    print(sys.argv)\n";
    std::fs::write(dir.path().join("app.py"), app).unwrap();
    let eddi = start_eddi(&nats.url(), engine(dir.path()), EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    assert_eq!(direct(&c, &eddi.subjects, "claude", "Start s").await, "Ok");
    let script = "{\n  foreach file matching \"*.py\" {\n    foreach import where unused { remove import }\n  }\n}";
    assert_eq!(
        direct(&c, &eddi.subjects, "claude", script).await,
        "Ok, 1 unused import removed, 1 file changed (app.py)"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.py")).unwrap(),
        "import sys\n\n\ndef main():\n    print(sys.argv)\n"
    );
    let refused = direct(
        &c,
        &eddi.subjects,
        "claude",
        "foreach function where complexty > 1 flag \"x\"",
    )
    .await;
    assert!(
        refused.starts_with("Fail \"1:24: unknown condition 'complexty'"),
        "{refused}"
    );
    eddi.stop().await.unwrap();
}
