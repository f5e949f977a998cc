//! What arrives from the network: payload decoding, the handshake's and the
//! stream's JSON, sender and message ids.
//!
//! - `MessageValidator::decode` refuses exactly the payloads over the limit
//!   and the ones that are not UTF-8, and otherwise gives the text as a
//!   naive model sanitises it (`\r\n` and lone `\r` to `\n`, other control
//!   characters except tab dropped); sanitising is idempotent;
//! - `check_sender_id` and `check_message_id` accept exactly what their
//!   documented formats say;
//! - `parse_connection_request` and `parse_stream_update` never panic, name
//!   a field on failure, and what they accept, written back as JSON, reads
//!   back the same; `salvage_connection_id` and the partial update agree
//!   with a full parse; `handshake::evaluate` never panics;
//! - the replies Eddi builds from what it read (`connection_response`,
//!   `stream_append`) are JSON that reads back the same text.
//!
//! The first byte picks the payload limit, the rest is the payload.

use eddi::commands::ResponseFormat;
use eddi::transport::handshake;
use eddi::transport::validator::{
    check_sender_id, sanitize_input, MessageValidator, ValidatorConfig, MAX_MESSAGE_ID,
    MAX_SENDER_ID,
};
use eddi::transport::wire::{
    self, ConnectionRequest, ConnectionResponse, Requirement, StreamAppend, StreamUpdate,
};
use serde_json::{json, Map, Value};

pub fn check(data: &[u8]) {
    let (limit, payload) = match data.split_first() {
        Some((&b, rest)) => ([16, 256, 4096, 1 << 20][b as usize % 4], rest),
        None => (16, data),
    };
    decoding(limit, payload);
    let text = String::from_utf8_lossy(payload);
    ids(&text);
    handshake_request(&text);
    stream_update(&text);
}

fn decoding(limit: usize, payload: &[u8]) {
    let validator = MessageValidator::new(ValidatorConfig::new(limit));
    let decoded = validator.decode(payload);
    if payload.len() > limit {
        let err = decoded.expect_err("a payload over the limit is refused");
        assert!(err.starts_with("Payload too large"), "{err}");
        return;
    }
    let Ok(text) = std::str::from_utf8(payload) else {
        let err = decoded.expect_err("a payload that is not UTF-8 is refused");
        assert!(err.contains("not valid UTF-8"), "{err}");
        return;
    };
    let clean = decoded.expect("UTF-8 within the limit is accepted");
    assert_eq!(clean, naive_sanitize(text), "sanitising {text:?}");
    assert_eq!(sanitize_input(&clean), clean, "sanitising is idempotent");
}

/// The model of `sanitize_input`: line breaks to `\n`, then every control
/// character but `\n` and `\t` dropped.
fn naive_sanitize(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .chars()
        .filter(|&c| !c.is_control() || c == '\n' || c == '\t')
        .collect()
}

fn ids(text: &str) {
    let valid = !text.is_empty()
        && text.len() <= MAX_SENDER_ID
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let checked = check_sender_id(text);
    assert_eq!(checked.is_ok(), valid, "sender id {text:?}: {checked:?}");
    if let Err(reason) = checked {
        assert!(!reason.contains('\n'), "one-line reason: {reason:?}");
    }
    let validator = MessageValidator::new(ValidatorConfig::new(1 << 20));
    let id_ok = text.chars().count() <= MAX_MESSAGE_ID;
    assert_eq!(validator.check_message_id(Some(text)).is_ok(), id_ok);
    assert!(validator.check_message_id(None).is_ok());
}

fn handshake_request(text: &str) {
    let salvaged = wire::salvage_connection_id(text);
    match wire::parse_connection_request(text) {
        Ok(request) => {
            assert_eq!(salvaged, request.connection_id, "salvaged id");
            let written = request_json(&request).to_string();
            let again = wire::parse_connection_request(&written)
                .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
            assert_eq!(again, request, "written back as {written}");
            let _ = handshake::evaluate(&request);
            let reason = format!("sender.id: {:?}", request.sender_id);
            reply_reads_back(&reason, request.connection_id.clone());
        }
        Err(error) => {
            assert!(!error.field.is_empty(), "an error names a field: {error}");
            reply_reads_back(&error.to_string(), salvaged);
        }
    }
}

/// A rejection quoting what was read is JSON with the same reason and id.
fn reply_reads_back(reason: &str, connection_id: Option<String>) {
    let json = ConnectionResponse::rejected(reason, connection_id.clone()).to_json();
    let value: Value = serde_json::from_str(&json).expect("a connection_response is JSON");
    assert_eq!(value["reason"].as_str(), Some(reason));
    assert_eq!(value["connection_id"].as_str(), connection_id.as_deref());
}

/// A validated request as the JSON a client would send for it.
fn request_json(request: &ConnectionRequest) -> Value {
    let mut sender = Map::new();
    sender.insert("id".into(), json!(request.sender_id));
    if let Some(kind) = &request.sender_type {
        sender.insert("type".into(), json!(kind));
    }
    if let Some(name) = &request.client_name {
        sender.insert("client_info".into(), json!({ "name": name }));
    }
    let features: Map<String, Value> = request
        .requested_features
        .iter()
        .map(|(name, f)| {
            let requirement = match f.requirement {
                Requirement::Mandatory => "mandatory",
                Requirement::Optional => "optional",
            };
            (name.clone(), json!([f.version, requirement]))
        })
        .collect();
    let prefs = &request.session_preferences;
    let mut preferences = Map::new();
    if let Some(format) = prefs.response_format {
        let name = match format {
            ResponseFormat::Terse => "terse",
            ResponseFormat::Json => "json",
        };
        preferences.insert("response_format".into(), json!(name));
    }
    if let Some(handling) = &prefs.error_handling {
        preferences.insert("error_handling".into(), json!(handling));
    }
    if let Some(preview) = prefs.preview_mode {
        preferences.insert("preview_mode".into(), json!(preview));
    }
    json!({
        "message_type": wire::CONNECTION_REQUEST,
        "sender": sender,
        "stream_name": request.stream_name,
        "eddispeak_version": request.eddispeak_version,
        "requested_features": features,
        "session_preferences": preferences,
        "timestamp": request.timestamp,
        "connection_id": request.connection_id,
    })
}

fn stream_update(text: &str) {
    match wire::parse_stream_update(text) {
        Ok(update) => {
            let written = update_json(&update).to_string();
            let again = wire::parse_stream_update(&written)
                .unwrap_or_else(|e| panic!("{written} does not read back: {}", e.0));
            assert_eq!(again, update);
            let reply = StreamAppend::new(
                &update.name,
                &update.to,
                &update.from,
                update.appended.clone(),
                update.id.clone(),
            );
            let value: Value = serde_json::from_str(&reply.to_json()).expect("JSON");
            assert_eq!(value["appended"].as_str(), Some(update.appended.as_str()));
            assert_eq!(value["in_reply_to"].as_str(), update.id.as_deref());
            assert_eq!(value["to"].as_str(), Some(update.from.as_str()));
        }
        Err(failed) => {
            let (error, partial) = *failed;
            assert!(!error.field.is_empty(), "an error names a field: {error}");
            // What could be read is exactly the string fields that are there.
            if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) {
                let loose = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
                assert_eq!(partial.name, loose("name"));
                assert_eq!(partial.from, loose("from"));
                assert_eq!(partial.to, loose("to"));
                assert_eq!(partial.id, loose("id"));
            }
        }
    }
}

fn update_json(update: &StreamUpdate) -> Value {
    json!({
        "name": update.name,
        "from": update.from,
        "to": update.to,
        "appended": update.appended,
        "id": update.id,
    })
}
