//! Parse errors: a one-line message for the agent plus where it happened.
//!
//! The message becomes the reply `Fail "<message>"`, so it never holds a raw
//! newline: text quoted from the input goes through [`excerpt`], which escapes
//! control characters and shortens long text. Messages may hold double quotes
//! (`found '"x"'`); [`quote_for_reply`] escapes them for the reply line.

use std::fmt;

/// A half-open range `start..end` of char offsets (not bytes) into the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// An empty span at `offset` (where something is missing).
    pub fn at(offset: usize) -> Self {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// Why a command could not be parsed. `Display` is the message alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// One line, no raw newlines; says what to fix.
    pub message: String,
    /// Where in the message (char offsets into the whole message).
    pub span: Span,
    /// The valid words where one was unknown (a command, a keyword),
    /// closest first: a client may offer them.
    pub candidates: Vec<String>,
}

impl ParseError {
    pub fn new(message: impl Into<String>, span: Span) -> Self {
        ParseError {
            message: message.into(),
            span,
            candidates: Vec::new(),
        }
    }

    /// The error with the valid choices, closest first.
    pub fn with_candidates<S: ToString>(mut self, candidates: impl IntoIterator<Item = S>) -> Self {
        self.candidates = candidates.into_iter().map(|c| c.to_string()).collect();
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// Escapes `text` for the inside of a double-quoted reply (`Fail "<here>"`,
/// `Txt <here>`): backslash, double quote, newline, carriage return and tab
/// become `\\`, `\"`, `\n`, `\r`, `\t`; other control characters become
/// `\u{..}`. The result holds no raw newline.
pub fn quote_for_reply(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Longest excerpt of input quoted in an error message, in chars.
const EXCERPT_MAX: usize = 40;

/// Input text as quoted inside an error message: control characters escaped
/// (so the message stays one line), cut to [`EXCERPT_MAX`] chars with `…`.
pub(crate) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_MAX {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The 1-based `line:col` of char `offset` in `text`, as error messages
/// report positions in the sender's message (compiler style, unlike the
/// zero-based document positions of replies).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut col = 1;
    for c in text.chars().take(offset) {
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_what_would_break_a_reply_line() {
        assert_eq!(
            quote_for_reply("a \"b\"\n\tc\\d\u{7}"),
            "a \\\"b\\\"\\n\\tc\\\\d\\u{7}"
        );
        assert_eq!(quote_for_reply("héllo 世界"), "héllo 世界");
    }

    #[test]
    fn excerpts_are_one_short_line() {
        assert_eq!(excerpt("a\nb"), "a\\nb");
        let long = "x".repeat(100);
        assert_eq!(excerpt(&long).chars().count(), EXCERPT_MAX + 1);
    }

    #[test]
    fn line_col_counts_chars_from_one() {
        let text = "ab\n世界x";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 2), (1, 3));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 5), (2, 3));
        assert_eq!(line_col(text, 99), (2, 4));
    }
}
