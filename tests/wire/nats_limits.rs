//! Replies never exceed what the NATS server carries (`max_payload`): every
//! message gets exactly one reply, shortened (saying so) or a `Fail` that
//! says how to ask for less — on the direct subject, on the stream, for
//! repeated ids and for handshakes. Most tests use a server started with a
//! 64 KiB `max_payload`, so they are fast; one uses the default 1 MiB.

use std::sync::Arc;
use std::time::Duration;

use eddi::engine::{Engine, EngineConfig};
use eddi::transport::server::{DUPLICATE_HEADER, MSG_ID_HEADER, STATUS_HEADER};
use eddi::transport::Subjects;

use crate::support::nats::*;

const SMALL: usize = 64 * 1024;

/// A nats-server whose `max_payload` is `bytes`, and the directory of its
/// configuration file (kept as long as the server runs).
fn server_with_max_payload(bytes: usize) -> (NatsServer, tempfile::TempDir) {
    let conf = tempfile::tempdir().unwrap();
    let path = conf.path().join("nats.conf");
    std::fs::write(&path, format!("max_payload: {bytes}\n")).unwrap();
    let server = NatsServer::start_with(&["-c", path.to_str().unwrap()]);
    (server, conf)
}

struct Setup {
    _nats: NatsServer,
    _conf: Option<tempfile::TempDir>,
    dir: tempfile::TempDir,
    eddi: Eddi,
    client: async_nats::Client,
}

async fn setup(max_payload: Option<usize>) -> Setup {
    let (nats, conf) = match max_payload {
        Some(bytes) => {
            let (nats, conf) = server_with_max_payload(bytes);
            (nats, Some(conf))
        }
        None => (NatsServer::start(), None),
    };
    let dir = tempfile::tempdir().unwrap();
    let engine = Arc::new(Engine::open(EngineConfig::new(dir.path())).unwrap());
    let eddi = start_eddi(&nats.url(), engine, EddiOptions::default()).await;
    let client = client(&nats.url()).await;
    if let Some(bytes) = max_payload {
        assert_eq!(client.max_payload(), bytes, "the server took its config");
    }
    Setup {
        _nats: nats,
        _conf: conf,
        dir,
        eddi,
        client,
    }
}

impl Setup {
    fn write(&self, path: &str, text: &str) {
        std::fs::write(self.dir.path().join(path), text).unwrap();
    }

    /// A direct request: (reply text, `Eddi-Status` header).
    async fn ask(&self, sender: &str, text: &str) -> (String, Option<String>) {
        let message = self.ask_message(sender, text, None).await;
        let status = header(&message, STATUS_HEADER);
        (String::from_utf8(message.payload.to_vec()).unwrap(), status)
    }

    async fn ask_message(&self, sender: &str, text: &str, id: Option<&str>) -> async_nats::Message {
        let headers = id.map(|id| {
            let mut headers = async_nats::HeaderMap::new();
            headers.insert(MSG_ID_HEADER, id);
            headers
        });
        let reply = tokio::time::timeout(
            Duration::from_secs(20),
            direct_message(
                &self.client,
                self.eddi.subjects.direct(sender),
                text.as_bytes().to_vec(),
                headers,
            ),
        )
        .await
        .unwrap_or_else(|_| panic!("no reply within 20 s to a {} byte message", text.len()));
        assert!(
            reply.payload.len() <= self.client.max_payload(),
            "{} bytes",
            reply.payload.len()
        );
        reply
    }
}

fn header(message: &async_nats::Message, name: &str) -> Option<String> {
    message
        .headers
        .as_ref()
        .and_then(|h| h.get(name))
        .map(|v| v.as_str().to_string())
}

/// `n` lines of Python, about 40 bytes each.
fn big_python(n: usize) -> String {
    (0..n)
        .map(|i| format!("value_{i:06} = compute(\"{i}\", base=1)\n"))
        .collect()
}

fn last_line(text: &str) -> &str {
    text.rsplit('\n').next().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_commands_stop_where_their_replies_fill_the_payload() {
    let s = setup(Some(SMALL)).await;
    s.write("a.py", "x = 1\n");
    s.ask("w", "Start s; Open a.py").await;
    // 5,000 `Status` (35 KB in) answer 5,000 lines of about 45 bytes.
    let message = vec!["Status"; 5000].join("\n");
    let (reply, status) = s.ask("w", &message).await;
    let lines: Vec<&str> = reply.lines().collect();
    assert!(lines.len() > 1000 && lines.len() < 5000, "{}", lines.len());
    for line in &lines[..lines.len() - 1] {
        assert_eq!(*line, "Ok: Session s, File a.py, At 0:0");
    }
    let answered = lines.len() - 1;
    assert_eq!(
        last_line(&reply),
        format!(
            "Fail \"Not run: the replies before it fill the room (this connection's replies \
             hold at most {} bytes). Send this command and the rest again in another \
             message\", Skipped {} commands",
            SMALL - 128,
            5000 - answered - 1
        )
    );
    assert_eq!(status.as_deref(), Some("fail"));
    // The sender goes on as usual.
    assert_eq!(s.ask("w", "Goto 0:1").await.0, "Ok, At 0:1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_thousand_status_lines_on_a_default_server() {
    let s = setup(None).await;
    s.ask("w", "Start s; Open Create src/a_module_with_a_long_name.py")
        .await;
    let message = vec!["Status"; 30_000].join("\n");
    let (reply, _) = s.ask("w", &message).await;
    assert!(
        last_line(&reply).starts_with(
            "Fail \"Not run: the replies before it fill the room (this connection's replies \
             hold at most 1048448 bytes)"
        ),
        "{}",
        last_line(&reply)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_limit_is_capped_and_a_big_show_block_is_shortened() {
    let s = setup(Some(SMALL)).await;
    s.write("big.py", &big_python(5000));
    let (reply, _) = s.ask("w", "Start s; Set Limit 100000000").await;
    let cap = SMALL - 128 - 256;
    assert_eq!(
        reply,
        format!(
            "Ok\nOk, Limit capped at {cap} chars: this connection's replies hold at most {} bytes",
            SMALL - 128
        )
    );
    let (reply, status) = s.ask("w", "Open big.py; Show Block 0:4999").await;
    assert_eq!(status, None, "{reply}");
    let show = last_line(&reply);
    assert!(
        show.starts_with("Ok: At 0:0, ") && show.contains("Shortened to fit: "),
        "{}",
        &show[..200]
    );
    assert!(
        show.contains(" of 5000 lines; show a smaller part (Show Block a:b), Txt value_000000"),
        "{}",
        &show[..300]
    );
    // JSON mode counts its own escaping.
    let (reply, _) = s.ask("w", "Set Format json; Show Block 0:4999").await;
    let json: serde_json::Value = serde_json::from_str(last_line(&reply)).unwrap();
    assert_eq!(json["ok"], true);
    assert!(json["text"].as_str().unwrap().starts_with("value_000000"));
    assert!(json["message"]
        .as_str()
        .unwrap()
        .contains("Shortened to fit: "));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diff_after_a_big_replace_all_is_shortened() {
    let s = setup(Some(SMALL)).await;
    s.write("big.py", &big_python(3000));
    let (reply, _) = s
        .ask(
            "w",
            "Start s; Set Limit 100000000; Open big.py; Replace All \"compute\" With \"calculate\"",
        )
        .await;
    assert!(
        last_line(&reply).starts_with("Ok, Replaced 3000 occurrences"),
        "{reply}"
    );
    let (reply, status) = s.ask("w", "Diff").await;
    assert_eq!(status, None);
    assert!(reply.contains("Shortened to fit: "), "{}", &reply[..300]);
    assert!(
        reply.contains("Shortened to fit: 1615 of 6003 lines"),
        "{}",
        &reply[..300]
    );
    assert!(
        reply.contains("-value_000000 = compute"),
        "{}",
        &reply[..300]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_that_quotes_a_huge_input_is_cut() {
    let s = setup(Some(SMALL)).await;
    s.ask("w", "Start s; Open Create a.py").await;
    // `Not found: '<pattern>'` quotes a pattern as long as the message.
    let (reply, status) = s.ask("w", &huge_find(SMALL - 200)).await;
    assert_eq!(status.as_deref(), Some("fail"));
    assert!(
        reply.starts_with("Fail \"Not found: 'zzzz"),
        "{}",
        &reply[..100]
    );
    assert!(
        reply.ends_with(&format!(
            " chars: this connection's replies hold at most {} bytes)\"",
            SMALL - 128
        )),
        "{}",
        &reply[reply.len() - 200..]
    );
}

/// `Find "zzz…"` of `bytes` bytes.
fn huge_find(bytes: usize) -> String {
    format!("Find \"{}\"", "z".repeat(bytes - 7))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_reply_fits_with_its_envelope_and_escaping() {
    let s = setup(Some(SMALL)).await;
    s.write("big.py", &big_python(5000));
    let mut streams = StreamService::new(&s._nats.url(), "mizuki").await;
    let request = connection_request("streamer", "st");
    let accepted = handshake(&s.client, &s.eddi.subjects, &request).await;
    assert_eq!(accepted["status"], "accepted", "{accepted}");
    streams.next_open().await;

    streams
        .say(
            "st",
            "streamer",
            "eddi",
            "Start s; Set Limit 100000000; Open big.py",
            Some("m1"),
        )
        .await;
    let append = streams.next_append().await;
    assert!(
        append["appended"]
            .as_str()
            .unwrap()
            .contains("Limit capped at"),
        "{append}"
    );
    streams
        .say("st", "streamer", "eddi", "Show Block 0:4999", Some("m2"))
        .await;
    let append = streams.next_append().await;
    assert_eq!(append["in_reply_to"], "m2");
    let text = append["appended"].as_str().unwrap();
    assert!(text.contains("Shortened to fit: "), "{}", &text[..200]);
    assert!(append.to_string().len() <= SMALL);

    let many = vec!["Status"; 5000].join("\n");
    streams
        .say("st", "streamer", "eddi", &many, Some("m3"))
        .await;
    let append = streams.next_append().await;
    let text = append["appended"].as_str().unwrap();
    assert!(
        last_line(text).starts_with("Fail \"Not run: "),
        "{}",
        last_line(text)
    );
    assert!(append.to_string().len() <= SMALL);

    // An error quoting the input, on the stream.
    streams
        .say("st", "streamer", "eddi", &huge_find(SMALL - 300), None)
        .await;
    let append = streams.next_append().await;
    let text = append["appended"].as_str().unwrap();
    assert!(
        text.starts_with("Fail \"Not found: 'zzz"),
        "{}",
        &text[..60]
    );
    assert!(text.contains(" chars: this connection's replies hold at most "));
}

/// A reply given on a big connection and asked for again (same id) on a
/// small one: the repeat fits too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_id_is_answered_within_the_smaller_connection() {
    let big = NatsServer::start();
    let (small, _conf) = server_with_max_payload(SMALL);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.py"), big_python(5000)).unwrap();
    let engine = Arc::new(Engine::open(EngineConfig::new(dir.path())).unwrap());
    let on_big = start_eddi(&big.url(), engine.clone(), EddiOptions::default()).await;
    let on_small = start_eddi(&small.url(), engine, EddiOptions::default()).await;
    let big_client = client(&big.url()).await;
    let small_client = client(&small.url()).await;
    let subjects = Subjects::new("mizuki", "eddi");

    let text = "Start s; Set Limit 300000; Open big.py; Show Block 0:4999";
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(MSG_ID_HEADER, "once");
    let first = direct_message(
        &big_client,
        subjects.direct("w"),
        text.as_bytes().to_vec(),
        Some(headers.clone()),
    )
    .await;
    assert!(first.payload.len() > SMALL, "{}", first.payload.len());
    let again = tokio::time::timeout(
        Duration::from_secs(20),
        direct_message(
            &small_client,
            subjects.direct("w"),
            text.as_bytes().to_vec(),
            Some(headers),
        ),
    )
    .await
    .expect("the repeat is answered");
    assert!(again.payload.len() <= SMALL);
    assert_eq!(header(&again, DUPLICATE_HEADER).as_deref(), Some("true"));
    let reply = String::from_utf8(again.payload.to_vec()).unwrap();
    assert!(
        last_line(&reply).starts_with("Fail \"Reply too large: the first 3 of 4 reply lines fit"),
        "{}",
        last_line(&reply)
    );
    drop((on_big, on_small));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handshake_replies_never_echo_a_huge_field_whole() {
    let s = setup(Some(SMALL)).await;
    let mut request: serde_json::Value =
        serde_json::from_str(&connection_request("hs", "st")).unwrap();
    request["eddispeak_version"] = "9".repeat(SMALL - 1000).into();
    let reply = tokio::time::timeout(
        Duration::from_secs(20),
        s.client.request(
            s.eddi.subjects.connection_request(),
            request.to_string().into(),
        ),
    )
    .await
    .expect("a rejection within 20 s")
    .unwrap();
    let body: serde_json::Value = serde_json::from_slice(&reply.payload).unwrap();
    assert_eq!(body["status"], "rejected");
    assert!(
        body["reason"]
            .as_str()
            .unwrap()
            .starts_with("eddispeak_version: \"9999"),
        "{body}"
    );
    assert!(body["reason"]
        .as_str()
        .unwrap()
        .contains("… (cut at 512 of "));

    let mut request: serde_json::Value =
        serde_json::from_str(&connection_request("hs", "st")).unwrap();
    request["stream_name"] = "s".repeat(SMALL - 1000).into();
    let body = handshake(&s.client, &s.eddi.subjects, &request.to_string()).await;
    assert_eq!(body["status"], "rejected");
    assert_eq!(
        body["reason"],
        format!("stream_name: {} chars, at most 256", SMALL - 1000)
    );
}

/// A handler that ignores the room: `big <n>` answers `n` lines of 100 bytes.
struct Careless;

impl eddi::transport::CommandHandler for Careless {
    fn handle(&self, req: &eddi::transport::Incoming) -> eddi::transport::Reply {
        assert!(req.room.is_some(), "the transport always says the room");
        let n: usize = req.text.strip_prefix("big ").unwrap().parse().unwrap();
        eddi::transport::Reply {
            text: vec!["Ok: ".to_string() + &"\"".repeat(96); n].join("\n"),
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

/// The transport's last guard: whatever the handler answers, what goes on
/// the wire fits (here quotes, which the stream's JSON doubles).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_transport_fits_a_reply_the_handler_did_not() {
    let (nats, _conf) = server_with_max_payload(SMALL);
    let eddi = start_eddi(&nats.url(), Arc::new(Careless), EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    let reply = direct(&c, &eddi.subjects, "w", "big 1000").await;
    assert!(reply.len() <= SMALL);
    assert!(
        last_line(&reply)
            .starts_with("Fail \"Reply too large: the first 645 of 1000 reply lines fit"),
        "{}",
        last_line(&reply)
    );

    let mut streams = StreamService::new(&nats.url(), "mizuki").await;
    handshake(&c, &eddi.subjects, &connection_request("streamer", "st")).await;
    streams.next_open().await;
    streams
        .say("st", "streamer", "eddi", "big 1000", Some("b1"))
        .await;
    let append = streams.next_append().await;
    assert!(append.to_string().len() <= SMALL);
    let text = append["appended"].as_str().unwrap();
    assert!(
        last_line(text).starts_with("Fail \"Reply too large: the first "),
        "{}",
        last_line(text)
    );
}

/// Ids are kept for retries and echoed on the stream: a long one is refused,
/// and a refusal whose id is too long to echo goes out without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_ids_are_bounded() {
    let s = setup(Some(SMALL)).await;
    let long = "i".repeat(300);
    let reply = s.ask_message("w", "Start s", Some(&long)).await;
    assert_eq!(
        String::from_utf8(reply.payload.to_vec()).unwrap(),
        "Fail \"Invalid message id: 300 chars, at most 256\""
    );
    let mut streams = StreamService::new(&s._nats.url(), "mizuki").await;
    handshake(
        &s.client,
        &s.eddi.subjects,
        &connection_request("streamer", "st"),
    )
    .await;
    streams.next_open().await;
    let huge = "i".repeat(SMALL - 400);
    streams
        .say("st", "streamer", "eddi", "Status", Some(&huge))
        .await;
    let append = streams.next_append().await;
    assert_eq!(
        append["appended"],
        format!(
            "Fail \"Invalid message id: {} chars, at most 256\"",
            SMALL - 400
        )
    );
    assert!(
        append["in_reply_to"].is_null(),
        "{}",
        &append.to_string()[..200]
    );
}

/// The limit is the connection's, as it is now: after the server restarts
/// with a smaller `max_payload`, replies fit the new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnect_to_a_smaller_server_shrinks_the_replies() {
    let (mut nats, conf) = server_with_max_payload(SMALL);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.py"), big_python(5000)).unwrap();
    let engine = Arc::new(Engine::open(EngineConfig::new(dir.path())).unwrap());
    let eddi = start_eddi(&nats.url(), engine, EddiOptions::default()).await;
    let c = client(&nats.url()).await;
    let show = "Show Block 0:4999";
    direct(
        &c,
        &eddi.subjects,
        "w",
        "Start s; Set Limit 100000; Open big.py",
    )
    .await;
    let before = direct(&c, &eddi.subjects, "w", show).await;
    assert!(before.len() > SMALL / 2, "{}", before.len());

    let smaller = SMALL / 2;
    std::fs::write(
        conf.path().join("nats.conf"),
        format!("max_payload: {smaller}\n"),
    )
    .unwrap();
    nats.restart();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let after = loop {
        match c.request(eddi.subjects.direct("w"), show.into()).await {
            Ok(reply) => break reply,
            Err(_) => {
                assert!(std::time::Instant::now() < deadline, "never served again");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert!(after.payload.len() <= smaller, "{}", after.payload.len());
    let text = String::from_utf8(after.payload.to_vec()).unwrap();
    assert!(
        text.starts_with("Ok: At 0:0, Shortened to fit: ") && text.contains(" of 5000 lines;"),
        "{}",
        &text[..200]
    );
}
