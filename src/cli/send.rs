//! `eddi send`: a small request/reply client for people and scripts, like
//! `nats req <prefix>.<name>.cmd.<sender> '<commands>'`.
//!
//! Exit codes: 0 every command succeeded, 1 Eddi answered `Fail`, 2 no answer
//! (connection, timeout, no Eddi listening).

use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;

use crate::config::{DEFAULT_NAME, DEFAULT_NATS_URL, DEFAULT_PREFIX};
use crate::transport::server::{Subjects, DUPLICATE_HEADER, MSG_ID_HEADER, STATUS_HEADER};

/// Arguments of `eddi send`.
#[derive(Debug, clap::Args)]
pub struct SendArgs {
    /// NATS server URL.
    #[arg(long, env = "EDDI_NATS_URL", default_value = DEFAULT_NATS_URL)]
    pub nats_url: String,
    /// The sender id (your session is keyed by it).
    #[arg(long, env = "EDDI_SENDER")]
    pub sender: String,
    /// Subject prefix.
    #[arg(long, env = "EDDI_PREFIX", default_value = DEFAULT_PREFIX)]
    pub prefix: String,
    /// The Eddi instance's name.
    #[arg(long, env = "EDDI_NAME", default_value = DEFAULT_NAME)]
    pub name: String,
    /// A message id; a retry with the same id gets the same answer and is
    /// not applied twice (sent as the `Nats-Msg-Id` header).
    #[arg(long)]
    pub id: Option<String>,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// The commands; several arguments are sent as several lines of one
    /// message. None (or `-`): read the message from standard input.
    pub commands: Vec<String>,
}

pub fn run(args: SendArgs) -> ExitCode {
    let text = if args.commands.is_empty() || args.commands == ["-"] {
        let mut buf = String::new();
        if let Err(err) = std::io::stdin().read_to_string(&mut buf) {
            eprintln!("eddi send: cannot read standard input: {err}");
            return ExitCode::from(2);
        }
        buf
    } else {
        args.commands.join("\n")
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("eddi send: {err}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(send(&args, text)) {
        Ok((reply, ok)) => {
            println!("{reply}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(err) => {
            eprintln!("eddi send: {err}");
            ExitCode::from(2)
        }
    }
}

async fn send(args: &SendArgs, text: String) -> Result<(String, bool), String> {
    let client = async_nats::ConnectOptions::new()
        .connection_timeout(Duration::from_secs(5))
        .connect(&args.nats_url)
        .await
        .map_err(|err| {
            format!(
                "cannot connect to {}: {err}",
                crate::transport::report::redact_url(&args.nats_url)
            )
        })?;
    let subject = Subjects::new(&args.prefix, &args.name).direct(&args.sender);
    let mut request = async_nats::Request::new()
        .payload(text.into())
        .timeout(Some(Duration::from_secs_f64(args.timeout)));
    if let Some(id) = &args.id {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(MSG_ID_HEADER, id.as_str());
        request = request.headers(headers);
    }
    let message = client
        .send_request(subject.clone(), request)
        .await
        .map_err(|err| format!("no answer on {subject}: {err}"))?;
    let header = |name: &str| {
        message
            .headers
            .as_ref()
            .and_then(|h| h.get(name))
            .map(|v| v.as_str().to_string())
    };
    let ok = header(STATUS_HEADER).as_deref() != Some("fail");
    if header(DUPLICATE_HEADER).is_some() {
        eprintln!(
            "eddi send: (repeated answer for id {})",
            args.id.as_deref().unwrap_or("?")
        );
    }
    Ok((String::from_utf8_lossy(&message.payload).into_owned(), ok))
}
