//! `NATSStreamListener`: the NATS connection — URL and auth (token,
//! user/password, NKey seed, credentials file, TLS), reconnect with backoff,
//! and connection events forwarded into the main loop.
//!
//! Reconnecting and re-subscribing are the client library's job; this module
//! makes them observable: every `event_callback` event goes through an mpsc
//! channel to the main loop, which logs it, and [`Health`] answers the main
//! loop's periodic check.

use std::time::Duration;

use async_nats::{Client, ConnectOptions, Event};
use tokio::sync::mpsc;

use crate::config::NatsAuth;

/// Reconnect backoff: 100 ms doubling to at most 5 s.
pub fn reconnect_delay(attempts: usize) -> Duration {
    let exp = attempts.saturating_sub(1).min(6) as u32;
    Duration::from_millis((100u64 << exp).min(5_000))
}

/// A live connection plus its event feed.
pub struct NatsStreamListener {
    client: Client,
    events: mpsc::UnboundedReceiver<Event>,
}

/// What the periodic health check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    Connected,
    /// Disconnected or reconnecting; the client keeps trying.
    Down,
}

impl NatsStreamListener {
    /// Connects to `url` with the configured auth. Fails if the first
    /// connection cannot be made; later losses are retried forever.
    pub async fn connect(url: &str, auth: &NatsAuth, name: &str) -> Result<Self, String> {
        let (tx, events) = mpsc::unbounded_channel();
        let mut options = connect_options(auth)
            .await?
            .name(name)
            .connection_timeout(Duration::from_secs(5))
            .ping_interval(Duration::from_secs(10))
            .reconnect_delay_callback(reconnect_delay)
            .event_callback(move |event| {
                let tx = tx.clone();
                async move {
                    tx.send(event).ok();
                }
            });
        options = options.client_capacity(8192).subscription_capacity(1 << 16);
        let client = options.connect(url).await.map_err(|err| {
            format!(
                "cannot connect to {}: {err}",
                super::report::redact_url(url)
            )
        })?;
        Ok(NatsStreamListener { client, events })
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The next connection event (for the main loop's `select!`).
    pub async fn next_event(&mut self) -> Option<Event> {
        self.events.recv().await
    }

    /// The periodic check.
    pub fn health(&self) -> Health {
        match self.client.connection_state() {
            async_nats::connection::State::Connected => Health::Connected,
            _ => Health::Down,
        }
    }
}

/// Builds the auth part of the options.
pub async fn connect_options(auth: &NatsAuth) -> Result<ConnectOptions, String> {
    let mut options = match &auth.credentials_file {
        Some(path) => ConnectOptions::with_credentials_file(path)
            .await
            .map_err(|err| format!("credentials file {}: {err}", path.display()))?,
        None => ConnectOptions::new(),
    };
    if let Some(token) = &auth.token {
        options = options.token(token.clone());
    }
    match (&auth.user, &auth.password) {
        (Some(user), Some(password)) => {
            options = options.user_and_password(user.clone(), password.clone())
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err("nats user and password must be given together".into())
        }
        (None, None) => {}
    }
    if let Some(seed) = &auth.nkey_seed {
        options = options.nkey(seed.clone());
    }
    if let Some(ca) = &auth.tls_ca_file {
        options = options.add_root_certificates(ca.clone());
    }
    match (&auth.tls_cert_file, &auth.tls_key_file) {
        (Some(cert), Some(key)) => {
            options = options.add_client_certificate(cert.clone(), key.clone())
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err("tls_cert_file and tls_key_file must be given together".into())
        }
        (None, None) => {}
    }
    if auth.require_tls == Some(true) {
        options = options.require_tls(true);
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_caps() {
        assert_eq!(reconnect_delay(1), Duration::from_millis(100));
        assert_eq!(reconnect_delay(2), Duration::from_millis(200));
        assert_eq!(reconnect_delay(4), Duration::from_millis(800));
        assert_eq!(reconnect_delay(100), Duration::from_millis(5_000));
    }
}
