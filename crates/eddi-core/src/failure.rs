//! Failures as data: what kind of failure, the message that names what
//! to fix, and the valid choices. Every `Fail` a command answers carries
//! one [`OpError`]; logic asks its [`ErrorKind`], never its wording (see
//! `src/wording_lint.rs` in the server crate).

/// What a failed operation says: what kind of failure, the analysis
/// layer's message, and the valid choices when there are some.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpError {
    pub kind: ErrorKind,
    pub message: String,
    /// Names (or target forms) that would work instead, closest first.
    pub candidates: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// No such symbol, element or file.
    NotFound,
    /// The name matches several; `candidates` tells them apart.
    Ambiguous,
    /// An argument is malformed (a name, code, a path outside the workspace).
    InvalidArgument,
    /// The operation does not apply here (the cursor is not in a function,
    /// the file is not Python).
    NotApplicable,
    /// The change would clash with what is there (a name already taken).
    Conflict,
    /// A tool it needs is missing or failed (the formatter).
    Unavailable,
    /// The sender may not do this (read-only, outside its path prefixes).
    PermissionDenied,
    /// The command does not parse: an unknown command or keyword (with the
    /// valid ones as candidates), a missing or malformed argument.
    InvalidCommand,
    /// A line, column or line range that the file does not have.
    OutOfRange,
    /// The sender has no session yet (`Start <name>` first).
    NoSession,
    /// A file changed since the command's view of it (on disk, by another
    /// session or program), or must change but has unsaved edits: nothing
    /// was written (save, reload or preview again).
    Stale,
    /// More than one message may take: a reply that would not fit the
    /// transport's room, or commands past the message's time budget. Ask
    /// for less, or send the rest in another message.
    TooLarge,
    Internal,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 13] = [
        ErrorKind::NotFound,
        ErrorKind::Ambiguous,
        ErrorKind::InvalidArgument,
        ErrorKind::NotApplicable,
        ErrorKind::Conflict,
        ErrorKind::Unavailable,
        ErrorKind::PermissionDenied,
        ErrorKind::InvalidCommand,
        ErrorKind::OutOfRange,
        ErrorKind::NoSession,
        ErrorKind::Stale,
        ErrorKind::TooLarge,
        ErrorKind::Internal,
    ];

    /// The code clients match on (`not_found`).
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::NotFound => "not_found",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::InvalidArgument => "invalid_argument",
            ErrorKind::NotApplicable => "not_applicable",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::PermissionDenied => "permission_denied",
            ErrorKind::InvalidCommand => "invalid_command",
            ErrorKind::OutOfRange => "out_of_range",
            ErrorKind::NoSession => "no_session",
            ErrorKind::Stale => "stale",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::Internal => "internal",
        }
    }
}

impl OpError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> OpError {
        OpError {
            kind,
            message: message.into(),
            candidates: Vec::new(),
        }
    }
}

impl std::fmt::Display for OpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OpError {}
