//! `eddi serve` as a process: kill -9 mid-workload and restart (sessions
//! with unsaved edits restored, no partially written file), graceful SIGTERM,
//! the embedded nats-server, and `eddi send`.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use eddi::transport::Subjects;

use crate::support::cli::{self, serve, sigterm, wait_exit, wait_for_line};
use crate::support::nats::*;

fn eddi_serve(root: &Path, extra: &[&str]) -> Child {
    serve(root, extra)
        .stdout(Stdio::piped())
        .spawn()
        .expect("eddi serve starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_dash_nine_and_restart_restores_sessions_with_unsaved_edits() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let url = nats.url();
    let mut eddi = eddi_serve(dir.path(), &["--nats-url", &url]);
    wait_for_service(&url, "eddi").await;
    let s = Subjects::new("mizuki", "eddi");
    let c = client(&url).await;
    for (command, reply) in [
        ("Start k", "Ok"),
        ("Open Create a.py", "Ok, At 0:0, Length 0"),
        (
            r#"Insert Block "saved = 1\n""#,
            "Ok, Inserted 1 line at 0, At 1:0",
        ),
        ("Save", "Ok, Bytes 10"),
    ] {
        assert_eq!(direct(&c, &s, "w", command).await, reply);
    }
    // A stream sender with a handshake, to check the registry survives.
    handshake(&c, &s, &connection_request("streamer", "ks")).await;

    // Unsaved edits keep coming while the process is killed.
    let acked: Arc<Mutex<Vec<(usize, usize)>>> = Arc::default();
    let writer = tokio::spawn({
        let c = c.clone();
        let acked = acked.clone();
        let subject = s.direct("w");
        async move {
            for k in 0.. {
                let text = format!("Insert Line \"unsaved_{k} = {k}\"");
                match tokio::time::timeout(
                    Duration::from_secs(1),
                    c.request(subject.clone(), text.into()),
                )
                .await
                {
                    Ok(Ok(reply)) => {
                        let reply = String::from_utf8(reply.payload.to_vec()).unwrap();
                        // "Ok, Inserted 1 line at <line>, At <line+1>:0"
                        let line: usize = reply
                            .strip_prefix("Ok, Inserted 1 line at ")
                            .and_then(|r| r.split(',').next())
                            .and_then(|n| n.parse().ok())
                            .unwrap_or_else(|| panic!("unexpected reply {reply}"));
                        acked.lock().unwrap().push((k, line));
                    }
                    _ => return,
                }
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while acked.lock().unwrap().len() < 30 {
        assert!(Instant::now() < deadline, "the workload did not get going");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    eddi.kill().unwrap(); // SIGKILL
    eddi.wait().unwrap();
    writer.await.unwrap();
    let acked = acked.lock().unwrap().clone();

    // Nothing on disk is partially written: the file is what was saved, and
    // no stray temporary file is left beside it.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.py")).unwrap(),
        "saved = 1\n"
    );
    let mut entries: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(entries, [".eddi", "a.py"]);

    let mut again = eddi_serve(dir.path(), &["--nats-url", &url]);
    wait_for_service(&url, "eddi").await;
    assert_eq!(
        direct(&c, &s, "w", "Status")
            .await
            .split(", At")
            .next()
            .unwrap(),
        "Ok: Session k, File a.py"
    );
    for (k, line) in &acked {
        assert_eq!(
            direct(&c, &s, "w", &format!("Show Line {line}")).await,
            format!("Ok: At {line}:0, Txt unsaved_{k} = {k}")
        );
    }
    // The handshake registry survived too: the stream sender is still known.
    let mut streams = StreamService::new(&url, "mizuki").await;
    streams
        .say("ks", "streamer", "eddi", "Status", Some("1"))
        .await;
    assert_eq!(
        streams.next_append().await["appended"],
        "Fail \"No session. Start one with: Start <name>\""
    );
    sigterm(&again);
    assert!(wait_exit(&mut again).success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_server_send_and_graceful_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing listens at the default URL this test gives, so eddi starts its own server.
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let default = format!("nats://127.0.0.1:{free}");
    let mut eddi = serve(dir.path(), &[])
        .env("EDDI_DEFAULT_NATS_URL", &default)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let line = wait_for_line(&mut eddi, "started a private nats-server at ");
    let url = line.rsplit(' ').next().unwrap().to_string();
    wait_for_service(&url, "eddi").await;

    let send = |args: &[&str]| {
        cli::eddi()
            .args(["send", "--nats-url", &url, "--sender", "cli"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = send(&["Start e", "Open Create e.py"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Ok\nOk, At 0:0, Length 0\n"
    );
    assert_eq!(out.status.code(), Some(0));
    let out = send(&["--id", "x1", "Insert Line \"e = 1\""]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Ok, Inserted 1 line at 0, At 1:0\n"
    );
    let out = send(&["--id", "x1", "Insert Line \"e = 1\""]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Ok, Inserted 1 line at 0, At 1:0\n"
    );
    let out = send(&["Show Line 7"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Fail "));

    sigterm(&eddi);
    assert!(wait_exit(&mut eddi).success());
    // The private server went with it.
    let port: u16 = url.rsplit(':').next().unwrap().parse().unwrap();
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_err());
    let out = send(&["Status"]);
    assert_eq!(out.status.code(), Some(2));
    // Sessions were persisted: the engine finds the unsaved edit again.
    let engine = eddi::engine::Engine::open(eddi::engine::EngineConfig::new(dir.path())).unwrap();
    let reply = engine.execute(&eddi::engine::Request {
        sender: "cli",
        text: "Show Line 0",
        id: None,
    });
    assert_eq!(reply.text, "Ok: At 0:0, Txt e = 1");
}

/// Flags beat `EDDI_*` variables, which beat the TOML file: the instance's
/// name (and so its service and subjects) shows which one won.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_beat_environment_beat_the_file() {
    let nats = NatsServer::start();
    let url = nats.url();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("eddi.toml");
    std::fs::write(
        &file,
        format!("name = \"from-file\"\nprefix = \"filep\"\n[nats]\nurl = \"{url}\"\n"),
    )
    .unwrap();
    let root = dir.path().join("ws");
    std::fs::create_dir(&root).unwrap();
    let start = |env_name: Option<&str>, flag_name: Option<&str>| {
        let mut cmd = serve(&root, &[]);
        cmd.arg("--config").arg(&file);
        if let Some(name) = env_name {
            cmd.env("EDDI_NAME", name);
        }
        if let Some(name) = flag_name {
            cmd.args(["--name", name]);
        }
        cmd.spawn().unwrap()
    };
    let c = client(&url).await;
    for (env_name, flag_name, expected) in [
        (None, None, "from-file"),
        (Some("from-env"), None, "from-env"),
        (Some("from-env"), Some("from-flag"), "from-flag"),
    ] {
        let mut eddi = start(env_name, flag_name);
        wait_for_service(&url, expected).await;
        let reply = direct(&c, &Subjects::new("filep", expected), "p", "Status").await;
        assert_eq!(reply, "Fail \"No session. Start one with: Start <name>\"");
        sigterm(&eddi);
        assert!(wait_exit(&mut eddi).success());
    }
}

/// `--log-json` writes JSON lines, and no secret reaches the log even when
/// the connection fails.
#[test]
fn json_logs_without_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let output = cli::eddi()
        .args(["serve", "--log-json", "--root"])
        .arg(dir.path())
        .args([
            "--nats-url",
            "nats://agent:pa55word@127.0.0.1:1",
            "--nats-token",
            "t0ken-s3cret",
        ])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("pa55word") && !stderr.contains("t0ken-s3cret"),
        "{stderr}"
    );
    let json_line = stderr
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON log line in {stderr}"));
    let record: serde_json::Value = serde_json::from_str(json_line).unwrap();
    assert_eq!(record["level"], "ERROR");
    assert!(
        record["fields"]["what"]
            .as_str()
            .unwrap()
            .contains("nats://agent:***@127.0.0.1:1"),
        "{record}"
    );
    // A bad configuration is exit code 2 and names the field.
    let output = cli::eddi()
        .args(["serve", "--name", "a.b", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("name: \"a.b\""));
}

/// Token and user/password auth against servers that require them; a
/// refused connection says so without repeating the secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_and_user_password_auth() {
    use eddi::config::NatsAuth;
    use eddi::transport::listener::NatsStreamListener;

    let nats = NatsServer::start_with(&["--auth", "s3cret-token"]);
    let good = NatsAuth {
        token: Some("s3cret-token".into()),
        ..Default::default()
    };
    let listener = NatsStreamListener::connect(&nats.url(), &good, "t")
        .await
        .unwrap();
    assert_eq!(
        listener.health(),
        eddi::transport::listener::Health::Connected
    );
    let bad = NatsAuth {
        token: Some("wrong-token".into()),
        ..Default::default()
    };
    let err = NatsStreamListener::connect(&nats.url(), &bad, "t")
        .await
        .err()
        .unwrap();
    assert!(err.contains("cannot connect"), "{err}");
    assert!(!err.contains("wrong-token"), "{err}");

    let nats = NatsServer::start_with(&["--user", "agent", "--pass", "pa55"]);
    let good = NatsAuth {
        user: Some("agent".into()),
        password: Some("pa55".into()),
        ..Default::default()
    };
    NatsStreamListener::connect(&nats.url(), &good, "t")
        .await
        .unwrap();
    let half = NatsAuth {
        user: Some("agent".into()),
        ..Default::default()
    };
    let err = NatsStreamListener::connect(&nats.url(), &half, "t")
        .await
        .err()
        .unwrap();
    assert_eq!(err, "nats user and password must be given together");
}

/// NKey auth: the server knows the public key, Eddi signs with the seed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nkey_seed_auth() {
    use eddi::config::NatsAuth;
    use eddi::transport::listener::NatsStreamListener;

    let pair = nkeys::KeyPair::new_user();
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("nkey.conf");
    std::fs::write(
        &conf,
        format!(
            "authorization {{ users = [ {{ nkey: {} }} ] }}\n",
            pair.public_key()
        ),
    )
    .unwrap();
    let nats = NatsServer::start_with(&["-c", conf.to_str().unwrap()]);
    let auth = NatsAuth {
        nkey_seed: Some(pair.seed().unwrap()),
        ..Default::default()
    };
    NatsStreamListener::connect(&nats.url(), &auth, "t")
        .await
        .unwrap();
    let stranger = NatsAuth {
        nkey_seed: Some(nkeys::KeyPair::new_user().seed().unwrap()),
        ..Default::default()
    };
    assert!(NatsStreamListener::connect(&nats.url(), &stranger, "t")
        .await
        .is_err());
}

/// TLS: a server with a certificate from a test CA; Eddi trusts the CA and
/// requires TLS. Certificates come from the `openssl` command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_with_a_private_ca() {
    use eddi::config::NatsAuth;
    use eddi::transport::listener::NatsStreamListener;

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(d)
            .output()
            .expect("the openssl command makes the test certificates");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    openssl(
        &[
            &["req", "-x509"][..],
            &ec,
            &[
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "1",
                "-subj",
                "/CN=eddi-test-ca",
            ],
        ]
        .concat(),
    );
    openssl(
        &[
            &["req"][..],
            &ec,
            &[
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=127.0.0.1",
            ],
        ]
        .concat(),
    );
    std::fs::write(d.join("san.ext"), "subjectAltName=IP:127.0.0.1\n").unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "1",
        "-extfile",
        "san.ext",
    ]);
    let cert = d.join("server.pem");
    let key = d.join("server.key");
    let nats = NatsServer::start_with(&[
        "--tls",
        "--tlscert",
        cert.to_str().unwrap(),
        "--tlskey",
        key.to_str().unwrap(),
    ]);
    let auth = NatsAuth {
        tls_ca_file: Some(d.join("ca.pem")),
        require_tls: Some(true),
        ..Default::default()
    };
    let url = format!("tls://127.0.0.1:{}", nats.port());
    let listener = NatsStreamListener::connect(&url, &auth, "t").await.unwrap();
    assert_eq!(
        listener.health(),
        eddi::transport::listener::Health::Connected
    );
    // Without the CA the server's certificate is not trusted.
    let untrusting = NatsAuth {
        require_tls: Some(true),
        ..Default::default()
    };
    assert!(NatsStreamListener::connect(&url, &untrusting, "t")
        .await
        .is_err());
}

/// The broker restarts under a running `eddi serve`: the disconnect and the
/// reconnect are logged, and the same process serves again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broker_restart_is_logged_and_survived() {
    let mut nats = NatsServer::start();
    let url = nats.url();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("eddi.log");
    let mut eddi = serve(
        dir.path(),
        &["--health-interval-ms", "100", "--nats-url", &url],
    )
    .env("RUST_LOG", "info")
    .stderr(std::fs::File::create(&log).unwrap())
    .spawn()
    .unwrap();
    wait_for_service(&url, "eddi").await;
    let s = Subjects::new("mizuki", "eddi");
    let c = client(&url).await;
    assert_eq!(direct(&c, &s, "r", "Start r").await, "Ok");
    nats.restart();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(reply) = c.request(s.direct("r"), "Status".into()).await {
            assert_eq!(reply.payload, "Ok: Session r, No file");
            break;
        }
        assert!(Instant::now() < deadline, "never served again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    sigterm(&eddi);
    assert!(wait_exit(&mut eddi).success());
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("event=\"disconnected\""), "{logged}");
    assert!(logged.contains("event=\"reconnected\""), "{logged}");
}

/// The broker dies under a running `eddi serve`: a SIGTERM still stops it
/// within the documented bound, with the acknowledged edit persisted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_within_the_bound_while_the_broker_is_gone() {
    stops_without_the_broker("-TERM").await;
}

/// The same for SIGINT (Ctrl-C).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_stops_within_the_bound_while_the_broker_is_gone() {
    stops_without_the_broker("-INT").await;
}

/// A broker that takes the connection but never answers: `eddi serve` is
/// still connecting when SIGTERM comes, and stops there (exit 0) instead
/// of waiting out the connection timeout and failing.
#[test]
fn sigterm_while_connecting_stops_there() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("nats://{}", silent.local_addr().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let mut eddi = serve(dir.path(), &["--nats-url", &url]).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Instant::now();
    sigterm(&eddi);
    let status = wait_exit(&mut eddi);
    assert!(status.success(), "{status:?}");
    assert!(
        signalled.elapsed() < Duration::from_secs(3),
        "{:?}",
        signalled.elapsed()
    );
    drop(silent);
}

async fn stops_without_the_broker(signal: &str) {
    let mut nats = NatsServer::start();
    let url = nats.url();
    let dir = tempfile::tempdir().unwrap();
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("eddi.log");
    let mut eddi = serve(dir.path(), &["--nats-url", &url])
        .env("RUST_LOG", "info")
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    wait_for_service(&url, "eddi").await;
    let s = Subjects::new("mizuki", "eddi");
    let c = client(&url).await;
    for (command, reply) in [
        ("Start g", "Ok"),
        ("Open Create g.py", "Ok, At 0:0, Length 0"),
        ("Insert Line \"g = 1\"", "Ok, Inserted 1 line at 0, At 1:0"),
    ] {
        assert_eq!(direct(&c, &s, "w", command).await, reply);
    }
    nats.kill();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::fs::read_to_string(&log)
        .unwrap()
        .contains("event=\"disconnected\"")
    {
        assert!(
            Instant::now() < deadline,
            "eddi serve never saw the broker go"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let signalled = Instant::now();
    cli::signal(&eddi, signal);
    // The bound, and some room for a slow machine.
    let bound = eddi::transport::server::SHUTDOWN_BROKER_GRACE + Duration::from_secs(3);
    let exited = loop {
        if let Some(status) = eddi.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > bound {
            let _ = eddi.kill();
            let _ = eddi.wait();
            panic!(
                "eddi serve still ran {bound:?} after {signal} with the broker gone:\n{}",
                std::fs::read_to_string(&log).unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exited.success(), "{exited:?}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("sessions persisted"), "{logged}");
    // The acknowledged, unsaved edit survived the stop.
    let engine = eddi::engine::Engine::open(eddi::engine::EngineConfig::new(dir.path())).unwrap();
    let reply = engine.execute(&eddi::engine::Request {
        sender: "w",
        text: "Show Line 0",
        id: None,
    });
    assert_eq!(reply.text, "Ok: At 0:0, Txt g = 1");
}

/// `eddi send` defaults to 4222, a private server is elsewhere: `serve`
/// prints the exact `eddi send` line, and that line works as printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_prints_the_eddi_send_line_that_reaches_it() {
    let dir = tempfile::tempdir().unwrap();
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut eddi = serve(dir.path(), &["--name", "ed2"])
        .env("EDDI_DEFAULT_NATS_URL", format!("nats://127.0.0.1:{free}"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let line = wait_for_line(&mut eddi, "eddi: send commands with: ");
    let command = line
        .strip_prefix("eddi: send commands with: ")
        .unwrap()
        .to_string();
    assert!(
        command.starts_with("eddi send --nats-url nats://127.0.0.1:")
            && command.ends_with(" --name ed2 --sender NAME 'Start s; Status'"),
        "{command}"
    );
    let url = command.split(' ').nth(3).unwrap().to_string();
    assert_ne!(url, "nats://127.0.0.1:4222");
    wait_for_service(&url, "ed2").await;
    // Run it as printed, through a shell, as a person would paste it.
    let pasted = command
        .replacen("eddi", env!("CARGO_BIN_EXE_eddi"), 1)
        .replace("NAME", "paster");
    let out = Command::new("sh")
        .args(["-c", &pasted])
        .env_remove("EDDI_NATS_URL")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Ok\nOk: Session s, No file\n",
        "{out:?}"
    );
    sigterm(&eddi);
    assert!(wait_exit(&mut eddi).success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sender_that_asks_hears_a_long_scripts_progress_on_its_subject() {
    use futures::StreamExt;
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    for i in 0..40 {
        std::fs::write(
            dir.path().join(format!("m{i}.py")),
            format!("def f{i}(a):\n    return a\n"),
        )
        .unwrap();
    }
    let url = nats.url();
    let mut eddi = eddi_serve(dir.path(), &["--nats-url", &url]);
    wait_for_service(&url, "eddi").await;
    let s = Subjects::new("mizuki", "eddi");
    let c = client(&url).await;
    let mut heard = c
        .subscribe("mizuki.eddi.progress.p".to_string())
        .await
        .unwrap();
    c.flush().await.unwrap();
    assert_eq!(direct(&c, &s, "p", "Start p").await, "Ok");
    // not asked: nothing is published
    let script = "foreach function flag \"seen\"";
    assert!(direct(&c, &s, "p", script)
        .await
        .starts_with("Ok, 40 functions flagged"));
    assert_eq!(direct(&c, &s, "p", "Set Progress on").await, "Ok");
    assert!(direct(&c, &s, "p", script)
        .await
        .starts_with("Ok, 40 functions flagged"));
    let mut events = Vec::new();
    while let Ok(Some(message)) =
        tokio::time::timeout(Duration::from_millis(500), heard.next()).await
    {
        let event: serde_json::Value = serde_json::from_slice(&message.payload).unwrap();
        events.push(event);
    }
    assert!(!events.is_empty(), "no progress heard");
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/schemas/progress.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    for event in &events {
        assert!(
            validator.is_valid(event),
            "{event} does not follow progress.json"
        );
    }
    assert!(events.iter().all(|e| e["sender"] == "p"), "{events:?}");
    // the last of the outermost foreach always comes
    assert!(
        events
            .iter()
            .any(|e| e["stage"] == "foreach function" && e["done"] == 40 && e["total"] == 40),
        "{events:?}"
    );
    // before it asked, nothing: every event is of the second run
    let firsts = events
        .iter()
        .filter(|e| e["stage"] == "foreach function" && e["done"] == 0)
        .count();
    assert_eq!(firsts, 1, "{events:?}");
    sigterm(&eddi);
    wait_exit(&mut eddi);
}
