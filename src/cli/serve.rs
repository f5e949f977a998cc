//! `eddi serve`: Eddi on NATS until SIGINT/SIGTERM.
//!
//! A stop waits for the commands already running (their commits finish)
//! and persists every session, then gives the broker at most
//! [`SHUTDOWN_BROKER_GRACE`](crate::transport::server::SHUTDOWN_BROKER_GRACE) to take the last replies: an unreachable broker
//! never holds it up.
//!
//! Configuration: flags > environment (`EDDI_*`) > TOML (`--config`, else
//! `./eddi.toml`) > defaults. With no NATS URL configured and no server at
//! `nats://127.0.0.1:4222`, a private `nats-server` child is started on a free
//! local port and stopped on exit.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::config::{Config, NatsAuth, Overrides, DEFAULT_NAME, DEFAULT_NATS_URL, DEFAULT_PREFIX};
use crate::engine::{Engine, EngineConfig};
use crate::transport::embedded::{reachable, EmbeddedServer};
use crate::transport::listener::NatsStreamListener;
use crate::transport::report::{self, redact_url, LogFormat};
use crate::transport::validator::{MessageValidator, ValidatorConfig};
use crate::transport::{serve, CommandHandler, Ready, ServeSettings, Subjects};

/// Arguments of `eddi serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The workspace root (files are read and written under it).
    #[arg(long, env = "EDDI_ROOT")]
    pub root: Option<PathBuf>,
    /// Where sessions are persisted (default `<root>/.eddi`).
    #[arg(long, env = "EDDI_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
    /// NATS server URL (default: nats://127.0.0.1:4222, else a private server).
    #[arg(long, env = "EDDI_NATS_URL")]
    pub nats_url: Option<String>,
    /// The URL tried when none is configured; when nothing listens there, a
    /// private nats-server is started. For tests and unusual setups.
    #[arg(long, env = "EDDI_DEFAULT_NATS_URL", default_value = DEFAULT_NATS_URL, hide = true)]
    pub default_nats_url: String,
    /// A TOML configuration file (default: ./eddi.toml when present).
    #[arg(long, env = "EDDI_CONFIG")]
    pub config: Option<PathBuf>,
    /// Subject prefix (default mizuki).
    #[arg(long, env = "EDDI_PREFIX")]
    pub prefix: Option<String>,
    /// This instance's name: subjects `<prefix>.<name>.…`, the stream `to`
    /// and the NATS service name (default eddi).
    #[arg(long, env = "EDDI_NAME")]
    pub name: Option<String>,
    /// Largest accepted payload in bytes (default 1 MiB).
    #[arg(long, env = "EDDI_MAX_PAYLOAD")]
    pub max_payload: Option<usize>,
    /// Messages run at the same time, across senders (default 10).
    #[arg(long, env = "EDDI_MAX_CONCURRENT")]
    pub max_concurrent_operations: Option<usize>,
    /// Milliseconds between connection health checks (default 5000).
    #[arg(long, env = "EDDI_HEALTH_INTERVAL_MS")]
    pub health_interval_ms: Option<u64>,
    /// Log JSON lines instead of human-readable ones.
    #[arg(long, env = "EDDI_LOG_JSON")]
    pub log_json: bool,
    /// NATS auth token.
    #[arg(long, env = "EDDI_NATS_TOKEN", hide_env_values = true)]
    pub nats_token: Option<String>,
    /// NATS user (with --nats-password).
    #[arg(long, env = "EDDI_NATS_USER")]
    pub nats_user: Option<String>,
    #[arg(long, env = "EDDI_NATS_PASSWORD", hide_env_values = true)]
    pub nats_password: Option<String>,
    /// NKey seed (`SU…`).
    #[arg(long, env = "EDDI_NATS_NKEY_SEED", hide_env_values = true)]
    pub nats_nkey_seed: Option<String>,
    /// Credentials file (JWT + seed).
    #[arg(long, env = "EDDI_NATS_CREDS")]
    pub nats_creds: Option<PathBuf>,
    /// Extra CA certificate (PEM) to trust.
    #[arg(long, env = "EDDI_NATS_TLS_CA")]
    pub nats_tls_ca: Option<PathBuf>,
    /// Client certificate (PEM), with --nats-tls-key.
    #[arg(long, env = "EDDI_NATS_TLS_CERT")]
    pub nats_tls_cert: Option<PathBuf>,
    #[arg(long, env = "EDDI_NATS_TLS_KEY")]
    pub nats_tls_key: Option<PathBuf>,
    /// Refuse to connect without TLS.
    #[arg(long, env = "EDDI_NATS_REQUIRE_TLS")]
    pub nats_require_tls: bool,
}

impl ServeArgs {
    fn overrides(self) -> (Overrides, String) {
        let default_url = self.default_nats_url.clone();
        (self.overrides_only(), default_url)
    }

    fn overrides_only(self) -> Overrides {
        Overrides {
            config_file: self.config,
            root: self.root,
            state_dir: self.state_dir,
            nats_url: self.nats_url,
            prefix: self.prefix,
            name: self.name,
            max_payload: self.max_payload,
            max_concurrent_operations: self.max_concurrent_operations,
            health_interval_ms: self.health_interval_ms,
            log_json: self.log_json,
            auth: NatsAuth {
                token: self.nats_token,
                user: self.nats_user,
                password: self.nats_password,
                nkey_seed: self.nats_nkey_seed,
                credentials_file: self.nats_creds,
                tls_ca_file: self.nats_tls_ca,
                tls_cert_file: self.nats_tls_cert,
                tls_key_file: self.nats_tls_key,
                require_tls: self.nats_require_tls.then_some(true),
            },
        }
    }
}

pub fn run(args: ServeArgs) -> ExitCode {
    // before anything uses rayon: its threads do heavy work
    crate::priority::lower_rayon_pool();
    let (overrides, default_url) = args.overrides();
    let config = match Config::resolve(overrides) {
        Ok(config) => config,
        Err(err) => {
            eprintln!("eddi serve: configuration: {err}");
            return ExitCode::from(2);
        }
    };
    report::init(if config.log_json {
        LogFormat::Json
    } else {
        LogFormat::Human
    });
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("eddi serve: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve_main(config, default_url)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            report::internal("serve", &err);
            eprintln!("eddi serve: {err}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_main(config: Config, default_url: String) -> Result<(), String> {
    let mut shutdown = Box::pin(shutdown_signal());
    // First: a state directory held by another Eddi stops us before any
    // private server is started.
    let engine = open_engine(&config).await?;

    // Reaching the broker can take seconds (a private server starting, a
    // connection timing out): a stop meanwhile ends it there.
    let connecting = async {
        let mut embedded = None;
        let url = match &config.nats_url {
            Some(url) => url.clone(),
            None if reachable(host_port(&default_url)) => default_url.clone(),
            None => {
                let server = EmbeddedServer::start().await?;
                let url = server.url();
                println!("eddi: no NATS server configured or at {default_url}; started a private nats-server at {url}");
                embedded = Some(server);
                url
            }
        };
        let name = format!("eddi-{}", config.name);
        let listener = NatsStreamListener::connect(&url, &config.auth, &name).await?;
        Ok::<_, String>((url, listener, embedded))
    };
    let (url, listener, embedded) = tokio::select! {
        connected = connecting => connected?,
        _ = &mut shutdown => {
            report::lifecycle("stopped before serving");
            return Ok(());
        }
    };
    let subjects = Subjects::new(&config.prefix, &config.name);
    println!(
        "eddi: serving {} on {} as {:?} (handshake {}, direct {})",
        config.root.display(),
        redact_url(&url),
        config.name,
        subjects.connection_request(),
        subjects.direct("<sender>")
    );
    // `eddi send` defaults to 4222 and the default subjects; a private
    // server is elsewhere, so say exactly how to reach this one.
    let send = send_line(&url, &config);
    // The lock says how to reach this one before anyone is told to.
    if let Err(err) = engine.announce(&send) {
        report::internal("serve", &format!("cannot describe the state lock: {err}"));
    }
    engine.send_progress_to(progress_publisher(
        listener.client().clone(),
        subjects.clone(),
    ));
    let handler: Arc<dyn CommandHandler> = engine;
    let validator = MessageValidator::new(ValidatorConfig::new(config.max_payload));
    let settings = ServeSettings {
        subjects,
        max_concurrent_operations: config.max_concurrent_operations,
        health_interval: Duration::from_millis(config.health_interval_ms),
        handshakes_file: Some(config.state_dir().join("transport").join("handshakes.json")),
        // said once it is true: a client that reads it and sends at once
        // finds every subscription in place
        ready: Some(Ready(Arc::new(move || {
            println!("eddi: send commands with: {send}")
        }))),
    };
    let result = serve(listener, handler, validator, settings, &mut shutdown).await;
    if let Some(server) = embedded {
        server.stop().await;
    }
    result
}

/// The `eddi send` command line that reaches this instance (the URL's
/// password redacted; flags only where they differ from `send`'s defaults).
fn send_line(url: &str, config: &Config) -> String {
    let mut line = format!("eddi send --nats-url {}", redact_url(url));
    if config.prefix != DEFAULT_PREFIX {
        line.push_str(&format!(" --prefix {}", config.prefix));
    }
    if config.name != DEFAULT_NAME {
        line.push_str(&format!(" --name {}", config.name));
    }
    line.push_str(" --sender NAME 'Start s; Status'");
    let auth = &config.auth;
    if auth.token.is_some()
        || auth.user.is_some()
        || auth.nkey_seed.is_some()
        || auth.credentials_file.is_some()
        || auth.tls_cert_file.is_some()
    {
        line.push_str(
            " (eddi send has no auth flags: put user:password@ or a token@ into --nats-url)",
        );
    }
    line
}

/// `nats://host:port/…` → `host:port`.
fn host_port(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    rest.split('/').next().unwrap_or(rest)
}

/// Opens the core for the workspace.
async fn open_engine(config: &Config) -> Result<Arc<Engine>, String> {
    let mut engine_config = EngineConfig::new(&config.root);
    engine_config.state_dir = config.state_dir.clone();
    engine_config.permissions = config.permissions.clone();
    engine_config.idle_release =
        std::time::Duration::from_secs(config.session_idle_release_minutes * 60);
    engine_config.scan_index_ahead = true;
    let engine = tokio::task::spawn_blocking(move || Engine::open(engine_config))
        .await
        .map_err(|err| format!("cannot open the workspace: {err}"))?
        .map_err(|err| format!("cannot open the workspace: {err}"))?;
    let sessions = engine.sessions();
    if !sessions.is_empty() {
        report::lifecycle(&format!("restored sessions: {}", sessions.join(", ")));
    }
    Ok(Arc::new(engine))
}

/// Completes on SIGINT or SIGTERM. The handlers are installed when this is
/// called, not when it is first polled: a signal that comes while the
/// service is still starting stops it gracefully instead of killing it.
pub(super) fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, Signal, SignalKind};
        let term = signal(SignalKind::terminate()).ok();
        let interrupt = signal(SignalKind::interrupt()).ok();
        async fn received(signal: Option<Signal>) {
            match signal {
                Some(mut signal) => {
                    signal.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        async move {
            tokio::select! {
                _ = received(term) => {}
                _ = received(interrupt) => {}
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Publishes the progress of a sender that asked for it on
/// `<prefix>.<name>.progress.<sender>` as JSON (`{"sender", "stage", "done",
/// "total"}`), at most four a second per sender (the first and last of a
/// stage always).
fn progress_publisher(
    client: async_nats::Client,
    subjects: Subjects,
) -> crate::engine::ProgressOut {
    use crate::progress::{Progress, Throttle};
    let throttles: std::sync::Mutex<std::collections::HashMap<String, Throttle>> =
        Default::default();
    let runtime = tokio::runtime::Handle::current();
    Arc::new(move |sender: &str, p: &Progress| {
        let admitted = throttles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(sender.to_owned())
            .or_insert_with(|| Throttle::new(Duration::from_millis(250)))
            .admit(p);
        if !admitted {
            return;
        }
        let payload = serde_json::json!({
            "sender": sender,
            "stage": p.stage,
            "done": p.done,
            "total": p.total,
        })
        .to_string();
        let (client, subject) = (client.clone(), subjects.progress(sender));
        runtime.spawn(async move {
            // progress nobody hears is lost, nothing more
            let _ = client.publish(subject, payload.into()).await;
        });
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use crate::transport::server::SHUTDOWN_BROKER_GRACE;

    /// The help promises the bound the code keeps.
    #[test]
    fn serve_help_states_the_shutdown_bound() {
        let cli = crate::cli::Cli::command();
        let serve = cli.find_subcommand("serve").expect("a serve subcommand");
        let help = serve.get_long_about().expect("a long help").to_string();
        let bound = format!("at most {} s", SHUTDOWN_BROKER_GRACE.as_secs());
        assert!(help.contains(&bound), "{help}");
    }
}
