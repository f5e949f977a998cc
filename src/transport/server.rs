//! The service: the NATS `service` API registration, the main `select!` loop
//! over the direct endpoint, the stream updates, connection events, health
//! ticks and shutdown, and the handshake task.
//!
//! Subjects (prefix `mizuki` and name `eddi` by default, both configurable):
//! - `<prefix>.<name>.connection_request` — handshake, request/reply (JSON);
//! - `<prefix>.<name>.cmd.<sender>` — direct eddispeak, request/reply (text);
//! - `<prefix>.<name>.tools.list` / `.tools.call` — the agent tools (JSON);
//! - `<prefix>.<name>.guide` — the guide for models (Markdown);
//! - `<prefix>.<name>.progress.<sender>` — published: how far a long
//!   command is, for a sender that asked (`Set Progress on`; JSON);
//! - `<prefix>.stream.open` — published: ask the stream service for a stream;
//! - `<prefix>.stream.update` — subscribed: messages appended to streams;
//! - `<prefix>.stream.append` — published: Eddi's replies.
//!
//! The request/reply subjects are endpoints of one NATS service named
//! `<name>`, so `$SRV.PING|INFO|STATS` and `nats micro` see them.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::service::{self, ServiceExt};
use async_nats::{Client, Event, HeaderMap};
use bytes::Bytes;
use futures::StreamExt;
use tokio::sync::watch;

use super::handler::{fail_line, CommandHandler, Incoming, Reply};
use super::handshake::{self, Accepted, Handshakes, SUPPORTED_EDDISPEAK};
use super::listener::{Health, NatsStreamListener};
use super::report;
use super::router::{MessageRouter, ReplySink};
use super::validator::{sanitize_input, MessageValidator};
use super::wire::{
    self, ConnectionResponse, HandshakeStatus, ServerInfo, SessionState, StreamAppend, StreamOpen,
};
use crate::engine::ReplyRoom;

/// The header a client sets to make a direct request idempotent.
pub const MSG_ID_HEADER: &str = "Nats-Msg-Id";
/// `fail` on a direct reply when a command failed (and `ok`/`fail` on a
/// repeated answer); absent on a plain success.
pub const STATUS_HEADER: &str = "Eddi-Status";
/// Set (to `true`) on a reply that repeats an earlier answer.
pub const DUPLICATE_HEADER: &str = "Eddi-Duplicate";

/// Bytes kept for the headers of a direct reply (`Eddi-Status`,
/// `Eddi-Duplicate`): NATS counts them into `max_payload`.
const DIRECT_HEADERS: usize = 128;
/// The longest stream name or connection id a handshake may carry: both are
/// echoed in replies, which must fit the server's `max_payload`.
const MAX_HANDSHAKE_NAME: usize = 256;
/// The longest rejection reason sent back: reasons may quote the input.
const MAX_REASON: usize = 512;

/// The subjects of one Eddi instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subjects {
    pub prefix: String,
    pub name: String,
}

impl Subjects {
    pub fn new(prefix: &str, name: &str) -> Self {
        Subjects {
            prefix: prefix.into(),
            name: name.into(),
        }
    }
    /// `<prefix>.<name>`: the service's endpoint group.
    pub fn group(&self) -> String {
        format!("{}.{}", self.prefix, self.name)
    }
    pub fn connection_request(&self) -> String {
        format!("{}.connection_request", self.group())
    }
    pub fn direct(&self, sender: &str) -> String {
        format!("{}.cmd.{sender}", self.group())
    }
    pub fn tools_list(&self) -> String {
        format!("{}.tools.list", self.group())
    }
    pub fn tools_call(&self) -> String {
        format!("{}.tools.call", self.group())
    }
    pub fn guide(&self) -> String {
        format!("{}.guide", self.group())
    }
    /// Published: how far a long command of a sender that asked for it
    /// (`Set Progress on`) is.
    pub fn progress(&self, sender: &str) -> String {
        format!("{}.progress.{sender}", self.group())
    }
    pub fn stream_open(&self) -> String {
        format!("{}.stream.open", self.prefix)
    }
    pub fn stream_update(&self) -> String {
        format!("{}.stream.update", self.prefix)
    }
    pub fn stream_append(&self) -> String {
        format!("{}.stream.append", self.prefix)
    }
}

/// How long a shutdown waits for the broker: for the last replies to
/// reach it and the connection to drain. Past it, `serve` returns anyway:
/// a broker that is gone must not hold up a stop (sessions are persisted
/// before this wait begins, and commits never wait on the broker).
pub const SHUTDOWN_BROKER_GRACE: Duration = Duration::from_secs(5);

/// Settings of the service loop.
#[derive(Debug, Clone)]
pub struct ServeSettings {
    pub subjects: Subjects,
    pub max_concurrent_operations: usize,
    /// How often the main loop checks the connection.
    pub health_interval: Duration,
    /// Where the handshake registry is saved (`None`: memory only).
    pub handshakes_file: Option<std::path::PathBuf>,
    /// Called once every subscription is in place at the broker: from
    /// then on a request finds a responder (`eddi serve` prints how to
    /// reach it here, not before).
    pub ready: Option<Ready>,
}

/// What to do once serving starts ([`ServeSettings::ready`]).
#[derive(Clone)]
pub struct Ready(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Ready {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ready")
    }
}

/// Transport counters, reported as `data` in `$SRV.STATS`.
#[derive(Debug, Default)]
pub struct Counters {
    pub stream_messages: AtomicU64,
    pub stream_rejected: AtomicU64,
    pub stream_ignored: AtomicU64,
    pub handshakes_accepted: AtomicU64,
    pub handshakes_rejected: AtomicU64,
    pub disconnects: AtomicU64,
}

impl Counters {
    fn json(&self) -> serde_json::Value {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        serde_json::json!({
            "stream_messages": get(&self.stream_messages),
            "stream_rejected": get(&self.stream_rejected),
            "stream_ignored": get(&self.stream_ignored),
            "handshakes_accepted": get(&self.handshakes_accepted),
            "handshakes_rejected": get(&self.handshakes_rejected),
            "disconnects": get(&self.disconnects),
        })
    }
}

/// Everything the loops share.
struct Shared {
    client: Client,
    subjects: Subjects,
    handler: Arc<dyn CommandHandler>,
    validator: Arc<MessageValidator>,
    router: MessageRouter,
    handshakes: Mutex<Handshakes>,
    counters: Arc<Counters>,
    max_concurrent_operations: usize,
}

/// Runs Eddi on NATS until `shutdown` completes, then stops taking messages,
/// finishes the running ones, flushes the handler and drains the connection
/// (waiting at most [`SHUTDOWN_BROKER_GRACE`] for the broker).
pub async fn serve(
    mut listener: NatsStreamListener,
    handler: Arc<dyn CommandHandler>,
    validator: MessageValidator,
    mut settings: ServeSettings,
    shutdown: impl Future<Output = ()>,
) -> Result<(), String> {
    tokio::pin!(shutdown);
    let client = listener.client().clone();
    let subjects = settings.subjects.clone();
    let validator = Arc::new(validator);
    let counters = Arc::new(Counters::default());
    let handshakes = Handshakes::load(settings.handshakes_file.clone())?;
    let shared = Arc::new(Shared {
        client: client.clone(),
        subjects: subjects.clone(),
        handler: handler.clone(),
        validator: validator.clone(),
        router: MessageRouter::new(handler, settings.max_concurrent_operations),
        handshakes: Mutex::new(handshakes),
        counters: counters.clone(),
        max_concurrent_operations: settings.max_concurrent_operations,
    });

    // Subscriptions go out in this order, and `$SRV.INFO` lists an endpoint
    // only once it is subscribed: a client that sees all five endpoints in INFO
    // knows every subscription is in place.
    let mut updates = client
        .subscribe(subjects.stream_update())
        .await
        .map_err(|err| format!("cannot subscribe to {}: {err}", subjects.stream_update()))?;
    let stats_counters = counters.clone();
    let service = client
        .service_builder()
        .description("Eddi: a code editor without a screen, for LLM agents")
        .metadata(HashMap::from([
            (
                "protocol".to_string(),
                format!("eddispeak/{}", SUPPORTED_EDDISPEAK.join(",")),
            ),
            ("handshake".to_string(), subjects.connection_request()),
            ("direct".to_string(), subjects.direct("<sender>")),
            ("stream_update".to_string(), subjects.stream_update()),
            ("stream_append".to_string(), subjects.stream_append()),
            ("tools_list".to_string(), subjects.tools_list()),
            ("tools_call".to_string(), subjects.tools_call()),
            ("guide".to_string(), subjects.guide()),
        ]))
        .stats_handler(move |_endpoint, _stats| stats_counters.json())
        .start(&subjects.name, env!("CARGO_PKG_VERSION"))
        .await
        .map_err(|err| {
            format!(
                "cannot register the NATS service {:?}: {err}",
                subjects.name
            )
        })?;
    let group = service.group(subjects.group());
    let handshake_endpoint = add_endpoint(
        &group,
        "connection_request",
        "connection_request",
        &[
            ("request_schema", "protocol/schemas/connection_request.json"),
            (
                "response_schema",
                "protocol/schemas/connection_response.json",
            ),
        ],
    )
    .await?;
    let mut direct_endpoint = add_endpoint(
        &group,
        "cmd",
        "cmd.*",
        &[(
            "format",
            "eddispeak text in, terse reply out; sender is the last subject token",
        )],
    )
    .await?;
    let mut tools_list_endpoint = add_endpoint(
        &group,
        "tools_list",
        "tools.list",
        &[("response_schema", "protocol/schemas/tools_list.json")],
    )
    .await?;
    let mut tools_call_endpoint = add_endpoint(
        &group,
        "tools_call",
        "tools.call",
        &[
            ("request_schema", "protocol/schemas/tools_call.json"),
            ("response_schema", "protocol/schemas/tools_result.json"),
        ],
    )
    .await?;
    let mut guide_endpoint = add_endpoint(
        &group,
        "guide",
        "guide",
        &[("format", "Markdown: Eddi's commands and tools for models")],
    )
    .await?;
    // A round trip: it waits for the broker, so a stop may cut it short.
    let mut stopping = tokio::select! {
        flushed = client.flush() => {
            flushed.map_err(|err| format!("cannot flush the subscriptions: {err}"))?;
            false
        }
        _ = &mut shutdown => true,
    };
    if let (false, Some(Ready(ready))) = (stopping, settings.ready.take()) {
        ready();
    }

    // Streams of senders that handshook before a restart: ask for them again.
    let known_streams = shared.handshakes.lock().unwrap().streams();
    for stream in known_streams {
        open_stream(&shared, &stream).await;
    }

    let (stop_tx, stop_rx) = watch::channel(false);
    let handshake_task = tokio::spawn(handshake_loop(shared.clone(), handshake_endpoint, stop_rx));

    report::lifecycle(&format!(
        "eddi serving as {:?}: {}, {}, stream {}",
        subjects.name,
        subjects.connection_request(),
        subjects.direct("<sender>"),
        subjects.stream_update()
    ));

    let mut health = tokio::time::interval(settings.health_interval);
    health.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut was_down = false;
    // Tool calls run on the blocking pool, answered when done; shutdown
    // waits for them like for the router's messages.
    let mut tool_calls = tokio::task::JoinSet::new();
    while !stopping {
        tokio::select! {
            _ = &mut shutdown => stopping = true,
            Some(request) = direct_endpoint.next() => on_direct(&shared, request).await,
            Some(request) = tools_call_endpoint.next() => {
                tool_calls.spawn(on_tools_call(shared.clone(), request));
            }
            Some(request) = tools_list_endpoint.next() => {
                let body = crate::tools::list().to_string();
                if let Err(err) = request.respond(Ok(body.into())).await {
                    report::nats("tools.list", "reply", &err);
                }
            }
            Some(request) = guide_endpoint.next() => {
                if let Err(err) = request.respond(Ok(crate::tools::guide::guide().into())).await {
                    report::nats("guide", "reply", &err);
                }
            }
            Some(_) = tool_calls.join_next(), if !tool_calls.is_empty() => {}
            Some(message) = updates.next() => on_update(&shared, message).await,
            Some(event) = listener.next_event() => {
                if matches!(event, Event::Disconnected) {
                    counters.disconnects.fetch_add(1, Ordering::Relaxed);
                }
                let text = match (&event, was_down) {
                    (Event::Connected, true) => "reconnected".to_string(),
                    _ => event.to_string(),
                };
                if matches!(event, Event::Connected) && was_down {
                    // The stream service may have restarted with the broker:
                    // ask again for the streams of handshaken senders.
                    let streams = shared.handshakes.lock().unwrap().streams();
                    for stream in streams {
                        open_stream(&shared, &stream).await;
                    }
                }
                was_down = matches!(event, Event::Disconnected) || (was_down && !matches!(event, Event::Connected));
                report::connection(&text);
            }
            _ = health.tick() => {
                if listener.health() == Health::Down {
                    report::connection("down: the client keeps reconnecting");
                }
            }
        }
    }

    report::lifecycle("shutting down: no new messages; finishing the running ones");
    let _ = stop_tx.send(true);
    let _ = direct_endpoint.stop().await;
    let _ = tools_call_endpoint.stop().await;
    let _ = tools_list_endpoint.stop().await;
    let _ = guide_endpoint.stop().await;
    while tool_calls.join_next().await.is_some() {}
    let _ = updates.unsubscribe().await;
    let _ = handshake_task.await;
    shared.router.shutdown().await;
    let handler = shared.handler.clone();
    match tokio::task::spawn_blocking(move || handler.flush()).await {
        Ok(Ok(())) => report::lifecycle("sessions persisted"),
        Ok(Err(err)) => report::internal("shutdown", &format!("flush failed: {err}")),
        Err(err) => report::internal("shutdown", &format!("flush task failed: {err}")),
    }
    let farewell = async {
        // The replies of the last messages are published, not yet sent: wait
        // until the broker has them (a flush is a round trip) before draining,
        // so no answered message loses its reply to the shutdown.
        if let Err(err) = client.flush().await {
            report::nats("shutdown", "flush", &err);
        }
        let _ = service.stop().await;
        if let Err(err) = client.drain().await {
            report::nats("shutdown", "drain", &err);
        }
    };
    // While the broker is unreachable the flush never completes: stop anyway.
    if tokio::time::timeout(SHUTDOWN_BROKER_GRACE, farewell)
        .await
        .is_err()
    {
        report::connection(&format!(
            "broker unreachable for {} s at shutdown: stopped without it; replies not yet sent are lost",
            SHUTDOWN_BROKER_GRACE.as_secs()
        ));
    }
    report::lifecycle("stopped");
    Ok(())
}

// ------------------------------------------------------------- handshakes

/// Handles handshakes one at a time, until told to stop.
async fn handshake_loop(
    shared: Arc<Shared>,
    mut endpoint: service::endpoint::Endpoint,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            request = endpoint.next() => {
                let Some(request) = request else { break };
                handle_handshake(&shared, request).await;
            }
        }
    }
    let _ = endpoint.stop().await;
}

async fn handle_handshake(shared: &Arc<Shared>, request: service::Request) {
    let payload = request.message.payload.clone();
    match accept_handshake(shared, &payload).await {
        Ok(response) => {
            shared
                .counters
                .handshakes_accepted
                .fetch_add(1, Ordering::Relaxed);
            if let Err(err) = request.respond(Ok(response.to_json().into())).await {
                report::nats("handshake", "reply", &err);
            }
        }
        Err((reason, connection_id, sender)) => {
            shared
                .counters
                .handshakes_rejected
                .fetch_add(1, Ordering::Relaxed);
            // Both may quote the request: keep the answer (body and error
            // header) far below the payload limit.
            let reason = clip(&reason, MAX_REASON);
            let connection_id = connection_id.filter(|id| id.len() <= MAX_HANDSHAKE_NAME);
            report::rejected("handshake", &sender, &reason);
            let body = ConnectionResponse::rejected(reason.clone(), connection_id).to_json();
            respond_error(shared, &request, 400, &reason, body.into()).await;
        }
    }
}

type Rejection = (String, Option<String>, String);

async fn accept_handshake(
    shared: &Arc<Shared>,
    payload: &Bytes,
) -> Result<ConnectionResponse, Rejection> {
    let text = shared
        .validator
        .decode(payload)
        .map_err(|reason| (format!("$: {reason}"), None, "?".to_string()))?;
    let connection_id = wire::salvage_connection_id(&text);
    let request = wire::parse_connection_request(&text)
        .map_err(|err| (err.to_string(), connection_id.clone(), "?".to_string()))?;
    let sender = request.sender_id.clone();
    for (field, value) in [
        ("stream_name", Some(&request.stream_name)),
        ("connection_id", request.connection_id.as_ref()),
    ] {
        let length = value.map_or(0, |v| v.chars().count());
        if length > MAX_HANDSHAKE_NAME {
            return Err((
                format!("{field}: {length} chars, at most {MAX_HANDSHAKE_NAME}"),
                None,
                sender,
            ));
        }
    }
    shared
        .validator
        .check_sender_id(&sender)
        .map_err(|reason| {
            (
                format!("sender.id: {reason}"),
                connection_id.clone(),
                sender.clone(),
            )
        })?;
    let negotiated = handshake::evaluate(&request)
        .map_err(|reason| (reason, connection_id.clone(), sender.clone()))?;

    let handler = shared.handler.clone();
    let format = request.session_preferences.response_format;
    let replies = request.session_preferences.replies;
    let preview = request.session_preferences.preview_mode;
    let who = sender.clone();
    let session = tokio::task::spawn_blocking(move || {
        if let Some(format) = format {
            handler.set_response_format(&who, format);
        }
        if let Some(replies) = replies {
            handler.set_reply_detail(&who, replies);
        }
        if let Some(on) = preview {
            handler.set_preview_mode(&who, on);
        }
        handler.session_of(&who)
    })
    .await
    .map_err(|err| {
        (
            format!("internal error: {err}"),
            connection_id.clone(),
            sender.clone(),
        )
    })?;

    let saved = shared.handshakes.lock().unwrap().accept(
        &sender,
        Accepted {
            stream: request.stream_name.clone(),
            connection_id: request.connection_id.clone(),
        },
    );
    if let Err(err) = saved {
        report::internal("handshake", &err);
    }
    open_stream(shared, &request.stream_name).await;

    Ok(ConnectionResponse {
        message_type: wire::CONNECTION_RESPONSE,
        status: HandshakeStatus::Accepted,
        stream_id: Some(request.stream_name.clone()),
        available_features: Some(negotiated.available_features),
        server_info: Some(ServerInfo {
            eddi_version: env!("CARGO_PKG_VERSION").to_string(),
            supported_eddispeak: SUPPORTED_EDDISPEAK.iter().map(|s| s.to_string()).collect(),
            max_concurrent_operations: shared.max_concurrent_operations,
        }),
        connection_established: Some(now_rfc3339()),
        recipient: Some(shared.subjects.name.clone()),
        direct_subject: Some(shared.subjects.direct(&sender)),
        session: Some(SessionState {
            resumed: session.is_some(),
            name: session,
        }),
        reason: None,
        connection_id: request.connection_id,
    })
}

async fn open_stream(shared: &Shared, stream: &str) {
    let open = StreamOpen::new(stream, &shared.subjects.name);
    let body = serde_json::to_vec(&open).unwrap_or_default();
    if let Err(err) = shared
        .client
        .publish(shared.subjects.stream_open(), body.into())
        .await
    {
        report::nats("handshake", "stream open", &err);
    }
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap_or_else(|_| time::OffsetDateTime::now_utc())
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

// ------------------------------------------------------------- direct

async fn on_direct(shared: &Arc<Shared>, request: service::Request) {
    if request.message.reply.is_none() {
        // A request with nowhere to answer: nothing runs unanswered.
        report::rejected("direct", "?", "no reply subject; use request/reply");
        return;
    }
    let sender = request
        .message
        .subject
        .as_str()
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .to_string();
    if let Err(reason) = shared.validator.check_sender_id(&sender) {
        report::rejected("direct", &sender, &reason);
        return respond_error(shared, &request, 400, &reason, fail_line(&reason).into()).await;
    }
    let text = match shared.validator.decode(&request.message.payload) {
        Ok(text) => text,
        Err(reason) => {
            report::rejected("direct", &sender, &reason);
            let code = if shared.validator.too_large(request.message.payload.len()) {
                413
            } else {
                400
            };
            return respond_error(shared, &request, code, &reason, fail_line(&reason).into()).await;
        }
    };
    let id = request
        .message
        .headers
        .as_ref()
        .and_then(|h| h.get(MSG_ID_HEADER))
        .map(|v| v.as_str().to_string());
    if let Err(reason) = shared.validator.check_message_id(id.as_deref()) {
        report::rejected("direct", &sender, &reason);
        return respond_error(shared, &request, 400, &reason, fail_line(&reason).into()).await;
    }
    let incoming = Incoming {
        sender,
        text,
        id,
        room: Some(direct_room(&shared.client)),
    };
    let client = shared.client.clone();
    let sink: ReplySink = Box::new(move |reply: Reply| {
        Box::pin(async move {
            // Measured again: a reconnect may have brought another server.
            let reply = reply.fitted(&direct_room(&client));
            // A plain success carries no headers: they make every hop of
            // the reply dearer (protocol/README.md, "Direct request/reply").
            if reply.ok && !reply.duplicate {
                if let Err(err) = request.respond(Ok(reply.text.into())).await {
                    report::nats("direct", "reply", &err);
                }
                return;
            }
            let mut headers = HeaderMap::new();
            headers.insert(STATUS_HEADER, if reply.ok { "ok" } else { "fail" });
            if reply.duplicate {
                headers.insert(DUPLICATE_HEADER, "true");
            }
            if let Err(err) = request
                .respond_with_headers(Ok(reply.text.into()), headers)
                .await
            {
                report::nats("direct", "reply", &err);
            }
        })
    });
    if !shared.router.submit(incoming, sink).await {
        report::rejected("direct", "?", "shutting down");
    }
}

// ------------------------------------------------------------- tools

/// `tools.call`: `{"sender", "tool", "params"}` → the tool's envelope; a
/// retry with the same `Nats-Msg-Id` gets the first answer, not a second run.
async fn on_tools_call(shared: Arc<Shared>, request: service::Request) {
    let refuse = |field: &str, problem: &str| {
        let error = crate::tools::ToolError {
            field: Some(field.to_owned()),
            ..crate::tools::ToolError::new("invalid_request", format!("{field}: {problem}"))
        };
        crate::tools::envelope(&Err(error)).to_string()
    };
    let text = match shared.validator.decode(&request.message.payload) {
        Ok(text) => text,
        Err(reason) => {
            report::rejected("tools.call", "?", &reason);
            let body = refuse("$", &reason);
            return respond_error(&shared, &request, 400, &reason, body.into()).await;
        }
    };
    let call = match wire::parse_tool_call(&text) {
        Ok(call) => call,
        Err(err) => {
            let reason = err.to_string();
            report::rejected("tools.call", "?", &reason);
            let body = refuse(&err.field, &err.problem);
            return respond_error(&shared, &request, 400, &reason, body.into()).await;
        }
    };
    let id = request
        .message
        .headers
        .as_ref()
        .and_then(|h| h.get(MSG_ID_HEADER))
        .map(|v| v.as_str().to_string());
    let checked = shared
        .validator
        .check_sender_id(&call.sender)
        .map_err(|reason| ("sender", reason))
        .and_then(|()| {
            shared
                .validator
                .check_message_id(id.as_deref())
                .map_err(|reason| ("Nats-Msg-Id", reason))
        });
    if let Err((field, reason)) = checked {
        report::rejected("tools.call", &call.sender, &reason);
        let body = refuse(field, &reason);
        return respond_error(&shared, &request, 400, &reason, body.into()).await;
    }
    let handler = shared.handler.clone();
    let answer = tokio::task::spawn_blocking(move || {
        handler.call_tool(&call.sender, &call.tool, call.params, id.as_deref())
    })
    .await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(err) => {
            report::internal("tools.call", &err.to_string());
            let body = refuse("$", "internal error; the call may not have run");
            return respond_error(&shared, &request, 500, "internal error", body.into()).await;
        }
    };
    let room = direct_room(&shared.client).bytes;
    let json = if answer.json.len() > room {
        let error = crate::tools::ToolError::new(
            "too_large",
            format!(
                "The answer is {} bytes, more than this connection carries ({room}): ask for less (get_lines with start/end, max_chars, a folder)",
                answer.json.len()
            ),
        );
        crate::tools::envelope(&Err(error)).to_string()
    } else {
        answer.json
    };
    let mut headers = HeaderMap::new();
    headers.insert(STATUS_HEADER, if answer.ok { "ok" } else { "fail" });
    if answer.duplicate {
        headers.insert(DUPLICATE_HEADER, "true");
    }
    if let Err(err) = request.respond_with_headers(Ok(json.into()), headers).await {
        report::nats("tools.call", "reply", &err);
    }
}

/// `text` cut to `max` chars, saying so.
fn clip(text: &str, max: usize) -> String {
    let length = text.chars().count();
    if length <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}… (cut at {max} of {length} chars)")
}

/// The room of a direct reply on this connection.
fn direct_room(client: &Client) -> ReplyRoom {
    ReplyRoom {
        bytes: client.max_payload().saturating_sub(DIRECT_HEADERS),
        json_escaped: false,
    }
}

/// The room of a reply published on the stream: what the server takes,
/// less the `stream_append` envelope around the (escaped) text.
fn stream_room(client: &Client, append: &StreamAppend) -> ReplyRoom {
    ReplyRoom {
        bytes: client.max_payload().saturating_sub(append.to_json().len()),
        json_escaped: true,
    }
}

/// Answers a request with a body *and* the ADR-32 error headers.
///
/// async-nats's `respond(Err(..))` sends the headers with an empty body and is
/// the only way to count the error in `$SRV.STATS`. So the body goes first,
/// published straight to the reply subject (that is what the requester
/// reads), then `respond(Err)` records the error; its empty second message
/// reaches a reply inbox that has already been answered.
async fn respond_error(
    shared: &Shared,
    request: &service::Request,
    code: usize,
    reason: &str,
    body: Bytes,
) {
    let Some(reply) = request.message.reply.clone() else {
        return;
    };
    let status = clip(&reason.replace(['\r', '\n'], " "), MAX_REASON);
    let mut headers = HeaderMap::new();
    headers.insert("Nats-Service-Error", status.as_str());
    headers.insert("Nats-Service-Error-Code", code.to_string());
    headers.insert(STATUS_HEADER, "fail");
    if let Err(err) = shared
        .client
        .publish_with_headers(reply, headers, body)
        .await
    {
        report::nats("reply", "error reply", &err);
    }
    let _ = request
        .respond(Err(service::error::Error { status, code }))
        .await;
}

// ------------------------------------------------------------- stream

async fn on_update(shared: &Arc<Shared>, message: async_nats::Message) {
    let name = &shared.subjects.name;
    let text = match std::str::from_utf8(&message.payload) {
        Ok(text) => text,
        Err(_) => {
            shared
                .counters
                .stream_rejected
                .fetch_add(1, Ordering::Relaxed);
            report::rejected("stream", "?", "stream update is not valid UTF-8");
            return;
        }
    };
    let update = match wire::parse_stream_update(text) {
        Ok(update) => update,
        Err(failed) => {
            let (err, partial) = *failed;
            // Answer when the broken message is addressed to us and says who
            // sent it on which stream; otherwise there is no one to tell.
            match (partial.to.as_deref(), partial.from, partial.name) {
                (Some(to), Some(from), Some(stream)) if to == name && &from != name => {
                    shared
                        .counters
                        .stream_rejected
                        .fetch_add(1, Ordering::Relaxed);
                    let reason = format!("Malformed stream message: {err}");
                    report::rejected("stream", &from, &reason);
                    let sink = stream_sink(shared, &stream, &from, partial.id);
                    shared.router.answer(&from, Reply::fail(&reason), sink);
                }
                (Some(to), _, _) if to != name => {
                    shared
                        .counters
                        .stream_ignored
                        .fetch_add(1, Ordering::Relaxed);
                }
                _ => {
                    shared
                        .counters
                        .stream_rejected
                        .fetch_add(1, Ordering::Relaxed);
                    report::rejected("stream", "?", &format!("unanswerable stream update: {err}"));
                }
            }
            return;
        }
    };
    if &update.to != name || &update.from == name {
        // Someone else's conversation, or our own reply echoed back.
        shared
            .counters
            .stream_ignored
            .fetch_add(1, Ordering::Relaxed);
        return;
    }
    shared
        .counters
        .stream_messages
        .fetch_add(1, Ordering::Relaxed);
    let sink = stream_sink(shared, &update.name, &update.from, update.id.clone());
    let handshaken = || {
        let known = shared
            .handshakes
            .lock()
            .unwrap()
            .get(&update.from)
            .is_some();
        known.then_some(()).ok_or_else(|| {
            format!(
                "No handshake: send a connection_request to {} first",
                shared.subjects.connection_request()
            )
        })
    };
    let checked = shared
        .validator
        .check_sender_id(&update.from)
        .and_then(|()| shared.validator.check_message_id(update.id.as_deref()))
        .and_then(|()| handshaken())
        .and_then(|()| {
            shared
                .validator
                .decode(update.appended.as_bytes())
                .map(|_| ())
        });
    if let Err(reason) = checked {
        // Rejected, but answered in the sender's order like any message.
        shared
            .counters
            .stream_rejected
            .fetch_add(1, Ordering::Relaxed);
        report::rejected("stream", &update.from, &reason);
        shared
            .router
            .answer(&update.from, Reply::fail(&reason), sink);
        return;
    }
    let envelope = StreamAppend::new(
        &update.name,
        name,
        &update.from,
        String::new(),
        update.id.clone(),
    );
    let incoming = Incoming {
        room: Some(stream_room(&shared.client, &envelope)),
        sender: update.from,
        text: sanitize_input(&update.appended),
        id: update.id,
    };
    shared.router.submit(incoming, sink).await;
}

/// Publishes one reply on `<prefix>.stream.append`.
fn stream_sink(
    shared: &Arc<Shared>,
    stream: &str,
    to: &str,
    in_reply_to: Option<String>,
) -> ReplySink {
    let client = shared.client.clone();
    let subject = shared.subjects.stream_append();
    let from = shared.subjects.name.clone();
    let stream = stream.to_string();
    let to = to.to_string();
    Box::new(move |reply: Reply| {
        Box::pin(async move {
            let mut append = StreamAppend::new(&stream, &from, &to, String::new(), in_reply_to);
            if append.to_json().len() + MAX_REASON > client.max_payload() {
                // An id too long to echo: the reply goes out without it.
                append.in_reply_to = None;
            }
            append.appended = reply.fitted(&stream_room(&client, &append)).text;
            let body = append.to_json();
            if let Err(err) = client.publish(subject, body.into()).await {
                report::nats("stream", "append", &err);
            }
        })
    })
}

/// One endpoint of the service on `subject` (below the group), listed in
/// `$SRV.INFO` as `name` with its `metadata`.
async fn add_endpoint(
    group: &async_nats::service::Group,
    name: &str,
    subject: &str,
    metadata: &[(&str, &str)],
) -> Result<async_nats::service::endpoint::Endpoint, String> {
    group
        .endpoint_builder()
        .name(name)
        .metadata(
            metadata
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
        .add(subject.to_string())
        .await
        .map_err(|err| format!("cannot add the {subject} endpoint: {err}"))
}
