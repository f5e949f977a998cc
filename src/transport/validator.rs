//! `MessageValidator`: the checks every message passes before it reaches the
//! router — size, UTF-8, sender id format, control characters, message ids.
//!
//! Permissions are not checked here but at the engine's one door
//! ([`crate::engine::Permissions`]), so every front end obeys them.

/// The default payload limit: 1 MiB.
pub const DEFAULT_MAX_PAYLOAD: usize = 1024 * 1024;
/// The longest sender id accepted.
pub const MAX_SENDER_ID: usize = 64;
/// The longest message id accepted: ids are kept per session for retries
/// and echoed in stream replies (`in_reply_to`), which must fit the payload.
pub const MAX_MESSAGE_ID: usize = 256;

pub use crate::engine::Permissions;

/// Validation settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorConfig {
    /// Largest accepted payload in bytes.
    pub max_payload: usize,
}

impl ValidatorConfig {
    pub fn new(max_payload: usize) -> Self {
        ValidatorConfig { max_payload }
    }
}

/// Checks and cleans incoming messages.
#[derive(Debug, Clone)]
pub struct MessageValidator {
    config: ValidatorConfig,
}

impl MessageValidator {
    pub fn new(config: ValidatorConfig) -> Self {
        MessageValidator { config }
    }

    pub fn max_payload(&self) -> usize {
        self.config.max_payload
    }

    /// Size limit, UTF-8 and sanitising: bytes in, clean text out, or the
    /// reason it was refused (the text of a `Fail`).
    /// Whether a payload of `len` bytes is over the size limit (what
    /// `decode` refuses first).
    pub fn too_large(&self, len: usize) -> bool {
        len > self.config.max_payload
    }

    pub fn decode(&self, payload: &[u8]) -> Result<String, String> {
        if self.too_large(payload.len()) {
            return Err(format!(
                "Payload too large: {} bytes, limit {} bytes",
                payload.len(),
                self.config.max_payload
            ));
        }
        match std::str::from_utf8(payload) {
            Ok(text) => Ok(sanitize_input(text)),
            Err(err) => Err(format!(
                "Payload is not valid UTF-8 (invalid byte at offset {})",
                err.valid_up_to()
            )),
        }
    }

    /// The sender id format: 1 to 64 of `A-Z a-z 0-9 _ -`, so that it is one
    /// NATS subject token (`<prefix>.<name>.cmd.<sender>`) and a safe file name.
    pub fn check_sender_id(&self, id: &str) -> Result<(), String> {
        check_sender_id(id)
    }

    /// A message id (stream `id`, `Nats-Msg-Id`) is at most
    /// [`MAX_MESSAGE_ID`] chars.
    pub fn check_message_id(&self, id: Option<&str>) -> Result<(), String> {
        let length = id.map_or(0, |id| id.chars().count());
        if length > MAX_MESSAGE_ID {
            return Err(format!(
                "Invalid message id: {length} chars, at most {MAX_MESSAGE_ID}"
            ));
        }
        Ok(())
    }
}

/// See [`MessageValidator::check_sender_id`].
pub fn check_sender_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("Invalid sender id: empty; use 1-64 of A-Z a-z 0-9 _ -".into());
    }
    if id.len() > MAX_SENDER_ID {
        return Err(format!(
            "Invalid sender id: {} characters, at most {MAX_SENDER_ID}",
            id.chars().count()
        ));
    }
    if let Some(bad) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "Invalid sender id: {:?} contains {:?}; use A-Z a-z 0-9 _ -",
            id, bad
        ));
    }
    Ok(())
}

/// Removes control characters other than newline and tab, and turns `\r\n`
/// and lone `\r` into `\n`.
pub fn sanitize_input(raw: &str) -> String {
    if !raw
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return raw.to_string();
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validator() -> MessageValidator {
        MessageValidator::new(ValidatorConfig::new(16))
    }

    #[test]
    fn size_and_utf8() {
        let v = validator();
        assert_eq!(v.decode(b"Status").unwrap(), "Status");
        assert_eq!(
            v.decode(&[b'x'; 17]).unwrap_err(),
            "Payload too large: 17 bytes, limit 16 bytes"
        );
        assert!(v
            .decode(b"Show \xff")
            .unwrap_err()
            .contains("not valid UTF-8"));
    }

    #[test]
    fn sanitises_control_characters() {
        assert_eq!(
            sanitize_input("a\u{0}b\u{7}c\r\nd\re\tf\u{1b}[0m"),
            "abc\nd\ne\tf[0m"
        );
        assert_eq!(sanitize_input("Ok 世界"), "Ok 世界");
    }

    #[test]
    fn sender_ids() {
        assert!(check_sender_id("claude-4-sonnet-20250514").is_ok());
        assert!(check_sender_id("agent_7").is_ok());
        for bad in ["", "a.b", "a b", "a*", "a>", "ü", &"x".repeat(65)] {
            assert!(check_sender_id(bad).is_err(), "{bad:?}");
        }
    }
}
