//! The JSON messages on the wire, mirroring `protocol/schemas/*.json`.
//!
//! Only this module (and the rest of `transport`) knows serde shapes of the
//! protocol. Incoming JSON is read field by field from a [`serde_json::Value`]
//! so that every error names the field that is wrong and what is accepted
//! (`sender.id: expected a string, found 42`), instead of serde's generic
//! "invalid type" message.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::commands::{ReplyDetail, ResponseFormat};

/// The `message_type` of a handshake request.
pub const CONNECTION_REQUEST: &str = "connection_request";
/// The `message_type` of a handshake reply.
pub const CONNECTION_RESPONSE: &str = "connection_response";

/// A field that is missing or has the wrong shape, named by its JSON path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The dotted path of the field (`sender.id`, `requested_features.basic_commands`).
    pub field: String,
    /// What is wrong and what is accepted.
    pub problem: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.problem)
    }
}

impl FieldError {
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// Whether a requested feature must be there for the handshake to succeed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requirement {
    Mandatory,
    Optional,
}

/// A feature the client asks for: `"basic_commands": ["2.0", "mandatory"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestedFeature {
    pub version: String,
    pub requirement: Requirement,
}

/// `session_preferences` of a handshake; every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionPreferences {
    pub response_format: Option<ResponseFormat>,
    /// `"brief"` or `"full"`: `Set Replies` for the sender's sessions.
    pub replies: Option<ReplyDetail>,
    pub error_handling: Option<String>,
    pub preview_mode: Option<bool>,
}

/// The spec's `connection_request`, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionRequest {
    pub sender_id: String,
    pub sender_type: Option<String>,
    pub client_name: Option<String>,
    pub stream_name: String,
    pub eddispeak_version: String,
    pub requested_features: BTreeMap<String, RequestedFeature>,
    pub session_preferences: SessionPreferences,
    pub timestamp: Option<String>,
    pub connection_id: Option<String>,
}

/// Accepted or rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HandshakeStatus {
    Accepted,
    Rejected,
}

/// `server_info` of an accepted handshake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerInfo {
    pub eddi_version: String,
    pub supported_eddispeak: Vec<String>,
    pub max_concurrent_operations: usize,
}

/// The session a handshake attached the sender to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SessionState {
    /// `true` when the sender already had a session and was reconnected to it.
    pub resumed: bool,
    /// The active session's name, when there is one.
    pub name: Option<String>,
}

/// The spec's `connection_response`. Rejections carry only `status`,
/// `reason` and the echoed `connection_id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConnectionResponse {
    pub message_type: &'static str,
    pub status: HandshakeStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_features: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_info: Option<ServerInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connection_established: Option<String>,
    /// The `to` a stream message must carry to reach this Eddi instance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipient: Option<String>,
    /// The direct request/reply subject for this sender.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direct_subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionState>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub connection_id: Option<String>,
}

impl ConnectionResponse {
    /// A rejection that names the field and what is accepted.
    pub fn rejected(reason: impl Into<String>, connection_id: Option<String>) -> Self {
        ConnectionResponse {
            message_type: CONNECTION_RESPONSE,
            status: HandshakeStatus::Rejected,
            stream_id: None,
            available_features: None,
            server_info: None,
            connection_established: None,
            recipient: None,
            direct_subject: None,
            session: None,
            reason: Some(reason.into()),
            connection_id,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a connection_response always serialises")
    }
}

/// Published on `<prefix>.stream.open` to ask the stream service for a stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamOpen {
    pub name: String,
    pub msg_type: &'static str,
    pub whitelist_recipient: String,
    pub user: String,
}

impl StreamOpen {
    pub fn new(stream: &str, eddi_name: &str) -> Self {
        StreamOpen {
            name: stream.to_string(),
            msg_type: "stream_open",
            whitelist_recipient: eddi_name.to_string(),
            user: eddi_name.to_string(),
        }
    }
}

/// A message on `<prefix>.stream.update`, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamUpdate {
    pub name: String,
    pub appended: String,
    pub from: String,
    pub to: String,
    pub id: Option<String>,
}

/// Published on `<prefix>.stream.append`: Eddi's one reply to one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamAppend {
    pub name: String,
    pub msg_type: &'static str,
    pub appended: String,
    pub from: String,
    pub to: String,
    pub in_reply_to: Option<String>,
}

impl StreamAppend {
    pub fn new(
        stream: &str,
        from: &str,
        to: &str,
        reply: String,
        in_reply_to: Option<String>,
    ) -> Self {
        StreamAppend {
            name: stream.to_string(),
            msg_type: "stream_append",
            appended: reply,
            from: from.to_string(),
            to: to.to_string(),
            in_reply_to,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a stream_append always serialises")
    }
}

// ---------------------------------------------------------------- parsing

fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let short: String = s.chars().take(40).collect();
            format!("{short:?}")
        }
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Parses a JSON object, or says why the payload is not one.
pub fn parse_object(text: &str) -> Result<Map<String, Value>, FieldError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(FieldError::new(
            "$",
            format!("expected a JSON object, found {}", kind(&other)),
        )),
        Err(err) => Err(FieldError::new("$", format!("invalid JSON: {err}"))),
    }
}

fn required_str(map: &Map<String, Value>, prefix: &str, key: &str) -> Result<String, FieldError> {
    match map.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(FieldError::new(
            format!("{prefix}{key}"),
            format!("expected a string, found {}", kind(other)),
        )),
        None => Err(FieldError::new(
            format!("{prefix}{key}"),
            "missing (a string is required)",
        )),
    }
}

fn optional_str(
    map: &Map<String, Value>,
    prefix: &str,
    key: &str,
) -> Result<Option<String>, FieldError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(FieldError::new(
            format!("{prefix}{key}"),
            format!("expected a string, found {}", kind(other)),
        )),
    }
}

fn optional_object<'a>(
    map: &'a Map<String, Value>,
    prefix: &str,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>, FieldError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(other) => Err(FieldError::new(
            format!("{prefix}{key}"),
            format!("expected an object, found {}", kind(other)),
        )),
    }
}

/// A `tools.call` request (`protocol/schemas/tools_call.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub sender: String,
    pub tool: String,
    /// The tool's parameters (`Null` when absent: none).
    pub params: Value,
}

/// Reads a `tools.call` request, naming the first field that is wrong.
pub fn parse_tool_call(text: &str) -> Result<ToolCall, FieldError> {
    let mut map = parse_object(text)?;
    if let Some(unknown) = map
        .keys()
        .find(|k| !["sender", "tool", "params"].contains(&k.as_str()))
    {
        return Err(FieldError::new(
            unknown.clone(),
            "unknown field; the fields are sender, tool, params",
        ));
    }
    let sender = required_str(&map, "", "sender")?;
    let tool = required_str(&map, "", "tool")?;
    let params = map.remove("params").unwrap_or(Value::Null);
    if !matches!(params, Value::Object(_) | Value::Null) {
        return Err(FieldError::new(
            "params",
            format!("expected an object, found {}", kind(&params)),
        ));
    }
    Ok(ToolCall {
        sender,
        tool,
        params,
    })
}

/// Reads a `connection_request`, naming the first field that is wrong.
pub fn parse_connection_request(text: &str) -> Result<ConnectionRequest, FieldError> {
    let map = parse_object(text)?;
    let message_type = required_str(&map, "", "message_type")?;
    if message_type != CONNECTION_REQUEST {
        return Err(FieldError::new(
            "message_type",
            format!("expected \"{CONNECTION_REQUEST}\", found {message_type:?}"),
        ));
    }
    let sender = match map.get("sender") {
        Some(Value::Object(o)) => o,
        Some(other) => {
            return Err(FieldError::new(
                "sender",
                format!("expected an object with an \"id\", found {}", kind(other)),
            ))
        }
        None => {
            return Err(FieldError::new(
                "sender",
                "missing (an object {\"id\": ..., \"type\": ...} is required)",
            ))
        }
    };
    let sender_id = required_str(sender, "sender.", "id")?;
    let sender_type = optional_str(sender, "sender.", "type")?;
    let client_name = match optional_object(sender, "sender.", "client_info")? {
        Some(info) => optional_str(info, "sender.client_info.", "name")?,
        None => None,
    };
    let stream_name = required_str(&map, "", "stream_name")?;
    if stream_name.trim().is_empty() {
        return Err(FieldError::new("stream_name", "must not be empty"));
    }
    let eddispeak_version = required_str(&map, "", "eddispeak_version")?;

    let mut requested_features = BTreeMap::new();
    if let Some(features) = optional_object(&map, "", "requested_features")? {
        for (name, spec) in features {
            let field = format!("requested_features.{name}");
            let expected = "expected [\"<version>\", \"mandatory\"|\"optional\"]";
            let Value::Array(items) = spec else {
                return Err(FieldError::new(
                    field,
                    format!("{expected}, found {}", kind(spec)),
                ));
            };
            let (Some(Value::String(version)), Some(Value::String(req)), 2) =
                (items.first(), items.get(1), items.len())
            else {
                return Err(FieldError::new(field, expected));
            };
            let requirement = match req.as_str() {
                "mandatory" => Requirement::Mandatory,
                "optional" => Requirement::Optional,
                other => {
                    return Err(FieldError::new(
                        field,
                        format!("expected \"mandatory\" or \"optional\", found {other:?}"),
                    ))
                }
            };
            requested_features.insert(
                name.clone(),
                RequestedFeature {
                    version: version.clone(),
                    requirement,
                },
            );
        }
    }

    let mut session_preferences = SessionPreferences::default();
    if let Some(prefs) = optional_object(&map, "", "session_preferences")? {
        session_preferences.response_format =
            match optional_str(prefs, "session_preferences.", "response_format")?.as_deref() {
                None => None,
                Some("terse") => Some(ResponseFormat::Terse),
                Some("json") => Some(ResponseFormat::Json),
                Some(other) => {
                    return Err(FieldError::new(
                        "session_preferences.response_format",
                        format!("expected \"terse\" or \"json\", found {other:?}"),
                    ))
                }
            };
        session_preferences.replies =
            match optional_str(prefs, "session_preferences.", "replies")?.as_deref() {
                None => None,
                Some("brief") => Some(ReplyDetail::Brief),
                Some("full") => Some(ReplyDetail::Full),
                Some(other) => {
                    return Err(FieldError::new(
                        "session_preferences.replies",
                        format!("expected \"brief\" or \"full\", found {other:?}"),
                    ))
                }
            };
        session_preferences.error_handling =
            optional_str(prefs, "session_preferences.", "error_handling")?;
        session_preferences.preview_mode = match prefs.get("preview_mode") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                return Err(FieldError::new(
                    "session_preferences.preview_mode",
                    format!("expected true or false, found {}", kind(other)),
                ))
            }
        };
    }

    let timestamp = optional_str(&map, "", "timestamp")?;
    if let Some(ts) = &timestamp {
        if time::OffsetDateTime::parse(ts, &time::format_description::well_known::Rfc3339).is_err()
        {
            return Err(FieldError::new(
                "timestamp",
                format!("expected an RFC 3339 time like \"2025-08-02T14:30:00Z\", found {ts:?}"),
            ));
        }
    }
    let connection_id = optional_str(&map, "", "connection_id")?;

    Ok(ConnectionRequest {
        sender_id,
        sender_type,
        client_name,
        stream_name,
        eddispeak_version,
        requested_features,
        session_preferences,
        timestamp,
        connection_id,
    })
}

/// The `connection_id` of a request that failed validation, if it can be read,
/// so the rejection can still echo it.
pub fn salvage_connection_id(text: &str) -> Option<String> {
    let map = parse_object(text).ok()?;
    match map.get("connection_id") {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

/// What could be read from a stream update that failed validation: enough to
/// answer the sender on its stream, when `name` and `from` are there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialUpdate {
    pub name: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub id: Option<String>,
}

/// Reads a `stream_update`; on failure returns the error and whatever fields
/// could be read.
pub fn parse_stream_update(text: &str) -> Result<StreamUpdate, Box<(FieldError, PartialUpdate)>> {
    let map = match parse_object(text) {
        Ok(map) => map,
        Err(err) => {
            return Err(Box::new((
                err,
                PartialUpdate {
                    name: None,
                    from: None,
                    to: None,
                    id: None,
                },
            )))
        }
    };
    let loose = |key: &str| match map.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let partial = PartialUpdate {
        name: loose("name"),
        from: loose("from"),
        to: loose("to"),
        id: loose("id"),
    };
    let parsed = (|| {
        Ok(StreamUpdate {
            name: required_str(&map, "", "name")?,
            from: required_str(&map, "", "from")?,
            to: required_str(&map, "", "to")?,
            appended: required_str(&map, "", "appended")?,
            id: optional_str(&map, "", "id")?,
        })
    })();
    parsed.map_err(|err| Box::new((err, partial)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC_REQUEST: &str = r#"{ "message_type": "connection_request", "sender": { "id": "claude-4-sonnet-20250514", "type": "llm", "client_info": { "name": "Claude", "version": "4.0", "capabilities": ["code_analysis", "refactoring", "python_scripting"] } }, "stream_name": "claude.eddi.code_editing", "eddispeak_version": "2.0", "requested_features": { "basic_commands": ["2.0", "mandatory"], "python_api": ["1.0", "optional"], "semantic_refactoring": ["1.0", "optional"], "changeset_management": ["1.0", "optional"] }, "session_preferences": { "response_format": "terse", "error_handling": "detailed", "preview_mode": true }, "timestamp": "2025-08-02T14:30:00Z", "connection_id": "conn_claude_20250802_143000" }"#;

    #[test]
    fn reads_the_spec_request() {
        let req = parse_connection_request(SPEC_REQUEST).unwrap();
        assert_eq!(req.sender_id, "claude-4-sonnet-20250514");
        assert_eq!(req.stream_name, "claude.eddi.code_editing");
        assert_eq!(req.requested_features.len(), 4);
        assert_eq!(
            req.requested_features["basic_commands"].requirement,
            Requirement::Mandatory
        );
        assert_eq!(req.session_preferences.preview_mode, Some(true));
        assert_eq!(
            req.connection_id.as_deref(),
            Some("conn_claude_20250802_143000")
        );
    }

    #[test]
    fn names_the_bad_field() {
        let cases = [
            ("[1]", "$: expected a JSON object"),
            ("{", "$: invalid JSON"),
            (
                r#"{"message_type":"hello"}"#,
                "message_type: expected \"connection_request\"",
            ),
            (
                r#"{"message_type":"connection_request"}"#,
                "sender: missing",
            ),
            (
                r#"{"message_type":"connection_request","sender":{"id":42}}"#,
                "sender.id: expected a string, found 42",
            ),
            (
                r#"{"message_type":"connection_request","sender":{"id":"a"}}"#,
                "stream_name: missing",
            ),
            (
                r#"{"message_type":"connection_request","sender":{"id":"a"},"stream_name":"s","eddispeak_version":"2.0","requested_features":{"x":["1.0","maybe"]}}"#,
                "requested_features.x: expected \"mandatory\" or \"optional\"",
            ),
            (
                r#"{"message_type":"connection_request","sender":{"id":"a"},"stream_name":"s","eddispeak_version":"2.0","session_preferences":{"response_format":"xml"}}"#,
                "session_preferences.response_format: expected \"terse\" or \"json\"",
            ),
            (
                r#"{"message_type":"connection_request","sender":{"id":"a"},"stream_name":"s","eddispeak_version":"2.0","session_preferences":{"replies":"short"}}"#,
                "session_preferences.replies: expected \"brief\" or \"full\"",
            ),
            (
                r#"{"message_type":"connection_request","sender":{"id":"a"},"stream_name":"s","eddispeak_version":"2.0","timestamp":"yesterday"}"#,
                "timestamp: expected an RFC 3339 time",
            ),
        ];
        for (input, expected) in cases {
            let err = parse_connection_request(input).unwrap_err().to_string();
            assert!(
                err.starts_with(expected),
                "{input}\n got: {err}\nwant: {expected}"
            );
        }
    }

    #[test]
    fn stream_update_keeps_what_it_can_read() {
        let (err, partial) =
            *parse_stream_update(r#"{"name":"s","from":"a","to":"eddi"}"#).unwrap_err();
        assert_eq!(err.to_string(), "appended: missing (a string is required)");
        assert_eq!(partial.name.as_deref(), Some("s"));
        assert_eq!(partial.from.as_deref(), Some("a"));
        let ok = parse_stream_update(
            r#"{"name":"s","from":"a","to":"eddi","appended":"Status","id":"7"}"#,
        )
        .unwrap();
        assert_eq!(ok.id.as_deref(), Some("7"));
    }

    #[test]
    fn append_serialises_in_reply_to() {
        let json = StreamAppend::new("s", "eddi", "a", "Ok".into(), Some("7".into())).to_json();
        assert_eq!(
            json,
            r#"{"name":"s","msg_type":"stream_append","appended":"Ok","from":"eddi","to":"a","in_reply_to":"7"}"#
        );
    }
}
