//! Security over the wire (issue 11): a credentials file with a JWT against
//! a nats-server in operator mode, mutual TLS, and one sender's flood not
//! starving the others. (Token, user/password, NKey and server-only TLS
//! are in `tests/wire/nats_serve.rs`.)

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use eddi::config::NatsAuth;
use eddi::engine::{Engine, EngineConfig};
use eddi::transport::listener::{Health, NatsStreamListener};
use futures::StreamExt;
use nkeys::KeyPair;

use crate::support::cli;
use crate::support::nats::*;

fn b64(bytes: impl AsRef<[u8]>) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A NATS JWT (`ed25519-nkey`) of `claims` about `subject`, signed by
/// `issuer`, as `nsc` writes them.
fn jwt(issuer: &KeyPair, subject: &str, name: &str, nats: serde_json::Value) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = serde_json::json!({
        "jti": format!("EDDITEST{subject}{now}"),
        "iat": now,
        "iss": issuer.public_key(),
        "name": name,
        "sub": subject,
        "nats": nats,
    });
    let signed = format!(
        "{}.{}",
        b64(r#"{"typ":"JWT","alg":"ed25519-nkey"}"#),
        b64(claims.to_string())
    );
    let signature = issuer.sign(signed.as_bytes()).unwrap();
    format!("{signed}.{}", b64(signature))
}

fn creds(jwt: &str, seed: &str) -> String {
    format!(
        "-----BEGIN NATS USER JWT-----\n{jwt}\n------END NATS USER JWT------\n\n\
         ************************* IMPORTANT *************************\n\
         NKEY Seed printed below can be used to sign and prove identity.\n\n\
         -----BEGIN USER NKEY SEED-----\n{seed}\n------END USER NKEY SEED------\n"
    )
}

fn user_claims() -> serde_json::Value {
    serde_json::json!({"pub": {}, "sub": {}, "subs": -1, "data": -1, "payload": -1,
                       "type": "user", "version": 2})
}

/// Operator mode: the server trusts an operator, which signed an account,
/// which signed Eddi's user; Eddi connects with the credentials file. A
/// user signed by an account the server does not know is refused, and the
/// refusal does not show the seed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_file_with_a_jwt_against_an_operator_mode_server() {
    let dir = tempfile::tempdir().unwrap();
    let operator = KeyPair::new_operator();
    let account = KeyPair::new_account();
    let user = KeyPair::new_user();
    let operator_jwt = jwt(
        &operator,
        &operator.public_key(),
        "eddi-test-operator",
        serde_json::json!({"type": "operator", "version": 2}),
    );
    let limits = serde_json::json!({"subs": -1, "data": -1, "payload": -1, "imports": -1,
        "exports": -1, "wildcards": true, "conn": -1, "leaf": -1});
    let account_jwt = jwt(
        &operator,
        &account.public_key(),
        "eddi-test-account",
        serde_json::json!({"limits": limits, "type": "account", "version": 2}),
    );
    let user_jwt = jwt(&account, &user.public_key(), "eddi", user_claims());
    let conf = dir.path().join("operator.conf");
    std::fs::write(
        &conf,
        format!(
            "operator: \"{operator_jwt}\"\nresolver: MEMORY\nresolver_preload: {{\n  {}: \"{account_jwt}\"\n}}\n",
            account.public_key()
        ),
    )
    .unwrap();
    let nats = NatsServer::start_with(&["-c", conf.to_str().unwrap()]);
    let file = dir.path().join("eddi.creds");
    std::fs::write(&file, creds(&user_jwt, &user.seed().unwrap())).unwrap();
    let auth = NatsAuth {
        credentials_file: Some(file),
        ..Default::default()
    };
    let listener = NatsStreamListener::connect(&nats.url(), &auth, "t")
        .await
        .unwrap();
    assert_eq!(listener.health(), Health::Connected);

    // Signed by an account the operator never signed.
    let stranger_account = KeyPair::new_account();
    let stranger = KeyPair::new_user();
    let stranger_jwt = jwt(
        &stranger_account,
        &stranger.public_key(),
        "stranger",
        user_claims(),
    );
    let seed = stranger.seed().unwrap();
    let file = dir.path().join("stranger.creds");
    std::fs::write(&file, creds(&stranger_jwt, &seed)).unwrap();
    let auth = NatsAuth {
        credentials_file: Some(file),
        ..Default::default()
    };
    let err = NatsStreamListener::connect(&nats.url(), &auth, "t")
        .await
        .err()
        .expect("an unknown account is refused");
    assert!(err.contains("cannot connect"), "{err}");
    assert!(
        !err.contains(&seed) && !err.contains(&stranger_jwt),
        "{err}"
    );
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the openssl command makes the test certificates");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A key and a certificate `name.pem` signed by the CA in `dir`.
fn signed_cert(dir: &Path, name: &str, subject: &str, ext: &str) {
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            &format!("{name}.key"),
            "-out",
            &format!("{name}.csr"),
            "-subj",
            subject,
        ],
    );
    std::fs::write(dir.join(format!("{name}.ext")), ext).unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &format!("{name}.csr"),
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            &format!("{name}.pem"),
            "-days",
            "1",
            "-extfile",
            &format!("{name}.ext"),
        ],
    );
}

/// Mutual TLS: the server verifies client certificates against the CA;
/// Eddi connects with its certificate and key, and without them it is
/// refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutual_tls_needs_eddis_client_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    openssl(
        d,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "1",
            "-subj",
            "/CN=eddi-test-ca",
        ],
    );
    signed_cert(
        d,
        "server",
        "/CN=127.0.0.1",
        "subjectAltName=IP:127.0.0.1\n",
    );
    signed_cert(d, "client", "/CN=eddi", "extendedKeyUsage=clientAuth\n");
    let path = |name: &str| d.join(name).to_str().unwrap().to_owned();
    let nats = NatsServer::start_with(&[
        "--tlsverify",
        "--tlscert",
        &path("server.pem"),
        "--tlskey",
        &path("server.key"),
        "--tlscacert",
        &path("ca.pem"),
    ]);
    let url = format!("tls://127.0.0.1:{}", nats.port());
    let auth = NatsAuth {
        tls_ca_file: Some(d.join("ca.pem")),
        tls_cert_file: Some(d.join("client.pem")),
        tls_key_file: Some(d.join("client.key")),
        require_tls: Some(true),
        ..Default::default()
    };
    let listener = NatsStreamListener::connect(&url, &auth, "t").await.unwrap();
    assert_eq!(listener.health(), Health::Connected);
    let without = NatsAuth {
        tls_ca_file: Some(d.join("ca.pem")),
        require_tls: Some(true),
        ..Default::default()
    };
    assert!(NatsStreamListener::connect(&url, &without, "t")
        .await
        .is_err());
}

/// One sender floods Eddi with edits; another's `Status` is answered long
/// before the flood is through (one FIFO per sender, drained by one pool
/// thread at a time, a bounded number of messages per turn).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_senders_flood_does_not_starve_the_others() {
    let nats = NatsServer::start();
    let url = nats.url();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
    let engine = Arc::new(Engine::open(EngineConfig::new(dir.path())).unwrap());
    let eddi = start_eddi(&url, engine, EddiOptions::default()).await;
    let s = eddi.subjects.clone();
    let c = client(&url).await;
    assert_eq!(
        direct(&c, &s, "flood", "Start f; Open a.py").await,
        "Ok\nOk, At 0:0, Length 1"
    );
    assert_eq!(direct(&c, &s, "calm", "Start c").await, "Ok");

    const FLOOD: usize = 2000;
    let inbox = c.new_inbox();
    let mut replies = c.subscribe(inbox.clone()).await.unwrap();
    for k in 0..FLOOD {
        c.publish_with_reply(
            s.direct("flood"),
            inbox.clone(),
            format!("Insert Line \"flood_{k} = {k}\"").into(),
        )
        .await
        .unwrap();
    }
    c.flush().await.unwrap();
    let counted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = tokio::spawn({
        let counted = counted.clone();
        async move {
            while counted.load(std::sync::atomic::Ordering::SeqCst) < FLOOD {
                match tokio::time::timeout(Duration::from_secs(60), replies.next()).await {
                    Ok(Some(_)) => {
                        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                    _ => break,
                }
            }
        }
    });
    let started = Instant::now();
    let calm = direct(&c, &s, "calm", "Status").await;
    let waited = started.elapsed();
    let flood_done = counted.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(calm, "Ok: Session c, No file");
    assert!(
        flood_done < FLOOD / 2,
        "the calm sender waited {waited:?}, until {flood_done} of the flood's {FLOOD} were answered"
    );
    counter.await.unwrap();
    assert_eq!(counted.load(std::sync::atomic::Ordering::SeqCst), FLOOD);
    eddi.stop().await.unwrap();
}

/// Runs `eddi serve` at the most verbose log level (the NATS client's own
/// trace included) with `auth_args` against `nats`, has it answer one
/// command and stops it; returns everything it logged.
async fn serve_and_log(nats: &NatsServer, auth_args: &[&str], json: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut command = cli::serve(
        dir.path(),
        &["--nats-url", &nats.url(), "--name", "secretive"],
    );
    command
        .args(auth_args)
        .env("RUST_LOG", "trace")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if json {
        command.arg("--log-json");
    }
    let child = command.spawn().unwrap();
    // Eddi authenticated: a client of the same server reaches it.
    let client = async_nats::ConnectOptions::new();
    let client = match auth_args {
        ["--nats-token", token] => client.token(token.to_string()),
        ["--nats-user", user, "--nats-password", password] => {
            client.user_and_password(user.to_string(), password.to_string())
        }
        ["--nats-nkey-seed", seed] => client.nkey(seed.to_string()),
        _ => client,
    };
    let client = client.connect(nats.url()).await.unwrap();
    let subject = eddi::transport::Subjects::new("mizuki", "secretive").direct("s");
    let deadline = Instant::now() + Duration::from_secs(60);
    let reply = loop {
        match client.request(subject.clone(), "Start s".into()).await {
            Ok(reply) => break reply,
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            Err(e) => panic!("eddi serve never answered: {e}"),
        }
    };
    assert_eq!(reply.payload, "Ok");
    cli::sigterm(&child);
    let out = child.wait_with_output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// No secret in the logs of a service that connected with it — token,
/// password, NKey seed — even at the NATS client's trace level, in human
/// and JSON logs (the refused connections and URLs with passwords are
/// `tests/wire/nats_serve.rs::json_logs_without_secrets`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_never_appear_in_trace_logs_of_a_serving_eddi() {
    let token = "t0ken-Zq81-secret";
    let nats = NatsServer::start_with(&["--auth", token]);
    for json in [false, true] {
        let log = serve_and_log(&nats, &["--nats-token", token], json).await;
        assert!(log.contains("eddi: serving"), "{log}");
        assert!(!log.contains(token), "the token is in the log:\n{log}");
    }

    let password = "pa55-Wq7-secret";
    let nats = NatsServer::start_with(&["--user", "agent", "--pass", password]);
    let log = serve_and_log(
        &nats,
        &["--nats-user", "agent", "--nats-password", password],
        false,
    )
    .await;
    assert!(
        !log.contains(password),
        "the password is in the log:\n{log}"
    );

    let pair = KeyPair::new_user();
    let seed = pair.seed().unwrap();
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
    let log = serve_and_log(&nats, &["--nats-nkey-seed", &seed], true).await;
    // The seed, and its private-key part without the checksum.
    assert!(!log.contains(&seed[..40]), "the seed is in the log:\n{log}");
}
