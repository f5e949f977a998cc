//! `MessageValidator`: the checks every message passes before it reaches the
//! router — size, UTF-8, sender id format, control characters — and
//! `check_permissions`, driven by configuration.
//!
//! Default: everything allowed. Permissions are checked on the parsed
//! [`Command`]s (the language's own parser), never by matching text.

use std::collections::{BTreeMap, BTreeSet};

use crate::lang::Command;

/// The default payload limit: 1 MiB.
pub const DEFAULT_MAX_PAYLOAD: usize = 1024 * 1024;
/// The longest sender id accepted.
pub const MAX_SENDER_ID: usize = 64;

/// Who may do what. Empty means everyone may do everything.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Permissions {
    /// Senders that may inspect and navigate but never change a file.
    pub read_only: BTreeSet<String>,
    /// Per sender: the only path prefixes it may open or save under.
    pub path_prefixes: BTreeMap<String, Vec<String>>,
}

impl Permissions {
    /// `true` when no rule is configured (the fast path skips parsing).
    pub fn is_open(&self) -> bool {
        self.read_only.is_empty() && self.path_prefixes.is_empty()
    }

    fn restricts(&self, sender: &str) -> bool {
        self.read_only.contains(sender) || self.path_prefixes.contains_key(sender)
    }
}

/// Validation settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorConfig {
    /// Largest accepted payload in bytes.
    pub max_payload: usize,
    pub permissions: Permissions,
}

impl ValidatorConfig {
    pub fn new(max_payload: usize, permissions: Permissions) -> Self {
        ValidatorConfig {
            max_payload,
            permissions,
        }
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
    pub fn decode(&self, payload: &[u8]) -> Result<String, String> {
        if payload.len() > self.config.max_payload {
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

    /// Whether `sender` may run `command`.
    pub fn check_permissions(&self, sender: &str, command: &Command) -> Result<(), String> {
        let perms = &self.config.permissions;
        if perms.read_only.contains(sender) && !is_read_only(command) {
            return Err(format!(
                "Permission denied: {sender} is read-only; {} changes files",
                verb(command)
            ));
        }
        if let Some(prefixes) = perms.path_prefixes.get(sender) {
            for path in paths_of(command) {
                if !prefixes.iter().any(|p| under_prefix(path, p)) {
                    return Err(format!(
                        "Permission denied: {sender} may not use {path}; allowed: {}",
                        prefixes.join(", ")
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks every command of a message against the permissions. Statements
    /// that do not parse are left to the engine, which reports them.
    pub fn check_message(&self, sender: &str, text: &str) -> Result<(), String> {
        let perms = &self.config.permissions;
        if perms.is_open() || !perms.restricts(sender) {
            return Ok(());
        }
        for command in parse_commands(text)? {
            self.check_permissions(sender, &command)?;
        }
        Ok(())
    }
}

/// The commands of a message, as the language parses them. Statements that
/// do not parse are left out: the engine answers them with the parse error.
fn parse_commands(text: &str) -> Result<Vec<Command>, String> {
    Ok(crate::lang::parse_message(text)
        .into_iter()
        .filter_map(|statement| statement.parsed.ok())
        .collect())
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

/// Commands a read-only sender may run: sessions, navigation, inspection.
/// Anything that changes a file (or opens one with `Create`) is refused.
fn is_read_only(command: &Command) -> bool {
    match command {
        Command::Start { .. }
        | Command::End { .. }
        | Command::Summary { .. }
        | Command::Status
        | Command::Set { .. }
        | Command::PushContext
        | Command::PopContext
        | Command::Close { .. }
        | Command::List { .. }
        | Command::Goto(_)
        | Command::Find { .. }
        | Command::FindSymbol { .. }
        | Command::FindInFiles { .. }
        | Command::Bookmark { .. }
        | Command::Show { .. }
        | Command::Analyze { .. }
        | Command::Validate { .. }
        | Command::Diff { .. }
        | Command::Help { .. } => true,
        Command::Open { create, .. } => !create,
        Command::Save { .. }
        | Command::Replace { .. }
        | Command::Insert { .. }
        | Command::Delete(_)
        | Command::Modify { .. }
        | Command::Comment { .. }
        | Command::Format { .. }
        | Command::Undo { .. }
        | Command::Redo { .. } => false,
    }
}

/// The file paths a command names.
fn paths_of(command: &Command) -> Vec<&str> {
    match command {
        Command::Open { path, .. } => vec![path.as_str()],
        Command::Save {
            path: Some(path), ..
        }
        | Command::Close { path: Some(path) }
        | Command::Diff { path: Some(path) } => vec![path.as_str()],
        // A search reads the files its glob matches: the glob must start
        // with an allowed prefix's literal directories (`src/auth/**/*.py`
        // does; `*.py` and `src/auth*/x.py` do not).
        Command::FindInFiles { glob, .. } => vec![glob.as_str()],
        _ => Vec::new(),
    }
}

/// The command's verb, for messages.
fn verb(command: &Command) -> &'static str {
    match command {
        Command::Open { .. } => "Open Create",
        Command::Save { .. } => "Save",
        Command::Replace { .. } => "Replace",
        Command::Insert { .. } => "Insert",
        Command::Delete(_) => "Delete",
        Command::Modify { .. } => "Modify",
        Command::Comment { .. } => "Comment",
        Command::Format { .. } => "Format",
        Command::Undo { .. } => "Undo",
        Command::Redo { .. } => "Redo",
        _ => "this command",
    }
}

/// Component-wise prefix test on workspace-relative paths; `..` never passes.
fn under_prefix(path: &str, prefix: &str) -> bool {
    let parts = |p: &'_ str| -> Vec<String> {
        p.split(['/', '\\'])
            .filter(|s| !s.is_empty() && *s != ".")
            .map(str::to_string)
            .collect()
    };
    let path = parts(path);
    if path.iter().any(|s| s == "..") {
        return false;
    }
    let prefix = parts(prefix);
    path.len() >= prefix.len() && path[..prefix.len()] == prefix[..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{InsertKind, ShowTarget};

    fn validator(perms: Permissions) -> MessageValidator {
        MessageValidator::new(ValidatorConfig::new(16, perms))
    }

    #[test]
    fn size_and_utf8() {
        let v = validator(Permissions::default());
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

    #[test]
    fn read_only_senders_may_look_but_not_touch() {
        let v = validator(Permissions {
            read_only: ["viewer".to_string()].into(),
            ..Default::default()
        });
        let show = Command::Show {
            target: ShowTarget::Line(3),
            context: None,
        };
        let insert = Command::Insert {
            kind: InsertKind::Line,
            text: "x".into(),
        };
        let create = Command::Open {
            create: true,
            path: "a.py".into(),
        };
        assert!(v.check_permissions("viewer", &show).is_ok());
        assert_eq!(
            v.check_permissions("viewer", &insert).unwrap_err(),
            "Permission denied: viewer is read-only; Insert changes files"
        );
        assert!(v.check_permissions("viewer", &create).is_err());
        assert!(v.check_permissions("editor", &insert).is_ok());
    }

    #[test]
    fn path_prefixes() {
        let v = validator(Permissions {
            path_prefixes: [("a".to_string(), vec!["src/auth".to_string()])].into(),
            ..Default::default()
        });
        let open = |p: &str| Command::Open {
            create: false,
            path: p.into(),
        };
        assert!(v.check_permissions("a", &open("src/auth/user.py")).is_ok());
        assert!(v.check_permissions("a", &open("./src/auth/x.py")).is_ok());
        assert!(v.check_permissions("a", &open("src/authz/x.py")).is_err());
        assert!(v
            .check_permissions("a", &open("src/auth/../../etc/passwd"))
            .is_err());
        assert!(v.check_permissions("b", &open("etc/x")).is_ok());
        let search = |glob: &str| Command::FindInFiles {
            pattern: crate::lang::Pattern::Text("x".into()),
            glob: glob.into(),
        };
        assert!(v
            .check_permissions("a", &search("src/auth/**/*.py"))
            .is_ok());
        assert!(v
            .check_permissions("a", &search("src/auth/user.py"))
            .is_ok());
        assert_eq!(
            v.check_permissions("a", &search("*.py")).unwrap_err(),
            "Permission denied: a may not use *.py; allowed: src/auth"
        );
        assert!(v.check_permissions("a", &search("src/auth*/x.py")).is_err());
    }
}
