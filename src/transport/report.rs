//! The error-reporting unit every transport layer calls, backed by `tracing`.
//!
//! One place decides how a problem is logged, so the layers stay free of
//! logging policy. Nothing here ever logs a secret: URLs pass through
//! [`redact_url`], and configuration types print their secrets as `***`.

use tracing::{error, info, warn};

/// How logs are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// Human-readable lines (default).
    #[default]
    Human,
    /// One JSON object per line.
    Json,
}

/// Installs the global subscriber (stderr; `RUST_LOG` filters, default
/// `info`). Safe to call more than once: later calls do nothing.
pub fn init(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    use std::io::IsTerminal;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// A message was refused by a check (client error: the client is told).
pub fn rejected(layer: &str, sender: &str, reason: &str) {
    warn!(layer, sender, reason, "message rejected");
}

/// Something went wrong inside Eddi (a bug or an I/O failure).
pub fn internal(layer: &str, what: &str) {
    error!(layer, what, "internal error");
}

/// A failure talking to NATS (publish, subscribe, connect).
pub fn nats(layer: &str, what: &str, err: &dyn std::fmt::Display) {
    error!(layer, what, error = %err, "nats error");
}

/// A connection event: connected, disconnected, reconnected, lame duck…
pub fn connection(event: &str) {
    match event {
        "connected" | "reconnected" => info!(event, "nats connection"),
        _ => warn!(event, "nats connection"),
    }
}

/// A lifecycle step worth a line at `info`.
pub fn lifecycle(what: &str) {
    info!("{what}");
}

/// Hides a password or token embedded in a URL
/// (`nats://user:secret@host` → `nats://user:***@host`).
pub fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &url[scheme_end..];
    let Some(at) = rest.find('@') else {
        return url.to_string();
    };
    let userinfo = &rest[..at];
    let shown = match userinfo.find(':') {
        Some(colon) => format!("{}:***", &userinfo[..colon]),
        None => "***".to_string(),
    };
    format!("{}{}{}", &url[..scheme_end], shown, &rest[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_their_secrets() {
        assert_eq!(redact_url("nats://u:p4ss@h:4222"), "nats://u:***@h:4222");
        assert_eq!(redact_url("tls://tok3n@h:4222"), "tls://***@h:4222");
        assert_eq!(redact_url("nats://h:4222"), "nats://h:4222");
        assert_eq!(redact_url("h:4222"), "h:4222");
    }
}
