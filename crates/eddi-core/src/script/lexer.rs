//! The script's lexer: text to tokens with spans.
//!
//! Unlike the command language's lexer, it knows punctuation (`{ } ( ) , +
//! = == != > >= < <= : @`) and `$variables`, since scripts nest and
//! compute. Anything else that is not blank becomes [`Tok::Other`]: the
//! text of a phase-1 command inside a script is handed to the command
//! language's own parser as written, so the lexer only has to find where
//! it ends.
//!
//! - A word starts with a letter or `_` and goes on with letters, digits,
//!   `_`, `.` and a `#` before a digit: `UserManager.new`, `params.count`,
//!   `f#2`.
//! - `$` then digits, `*` or a name (dots included): `$1`, `$*`,
//!   `$method.name`.
//! - Strings are `"…"` or `'…'` with the escapes `\n`, `\t`, `\\`, `\"`,
//!   `\'`; they may span lines.
//! - `#` not inside a word starts a comment to the end of the line.
//! - Newlines and `;` are kept as tokens: they end a phase-1 command.

use super::ast::{CompareOp, Span};
use super::error::{ScriptError, ScriptErrorKind};
use crate::commands::error::excerpt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    Word(String),
    /// After `$`: a name (`method.name`), digits (`1`) or `*`.
    Var(String),
    Str(String),
    /// Code between backticks, as written.
    Code(String),
    Number(String),
    LBrace,
    RBrace,
    LParen,
    RParen,
    Comma,
    Plus,
    Colon,
    /// `=`
    Assign,
    At,
    Compare(CompareOp),
    Newline,
    Semicolon,
    Other(char),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    /// Byte offsets into the script (to slice its text).
    pub bytes: (usize, usize),
    /// No blank between this token and the one before (`f()`, `@x`).
    pub glued: bool,
}

impl Token {
    pub fn word(&self) -> Option<&str> {
        match &self.tok {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }

    /// Whether this is the keyword `kw`, case-insensitively.
    pub fn is_word(&self, kw: &str) -> bool {
        self.word().is_some_and(|w| w.eq_ignore_ascii_case(kw))
    }

    pub fn is_separator(&self) -> bool {
        matches!(self.tok, Tok::Newline | Tok::Semicolon)
    }
}

/// Char offsets to `line:col`, for spans.
pub struct Lines {
    /// Char offset where each line starts.
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        for (i, c) in text.chars().enumerate() {
            if c == '\n' {
                starts.push(i + 1);
            }
        }
        Lines { starts }
    }

    /// The span of chars `start..end`.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let line = self.starts.partition_point(|&s| s <= start);
        let col = start - self.starts[line - 1] + 1;
        Span {
            start,
            end,
            line,
            col,
        }
    }
}

/// Splits a script into tokens; the first malformed string is an error.
pub fn tokenize(text: &str) -> Result<Vec<Token>, ScriptError> {
    let chars: Vec<char> = text.chars().collect();
    let mut bytes: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
    bytes.push(text.len());
    let lines = Lines::new(text);
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut prev_end: Option<usize> = None;
    while i < chars.len() {
        let c = chars[i];
        let glued = prev_end == Some(i);
        let start = i;
        let tok = match c {
            '\n' => {
                i += 1;
                Tok::Newline
            }
            c if c.is_whitespace() || c == '\u{feff}' => {
                i += 1;
                continue;
            }
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '"' | '\'' => {
                let (value, end) = string(&chars, i, &lines)?;
                i = end;
                Tok::Str(value)
            }
            '`' => {
                let Some(close) = chars[i + 1..].iter().position(|&c| c == '`') else {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Syntax,
                        lines.span(i, chars.len()),
                        "unterminated code; close it with `",
                    ));
                };
                let code: String = chars[i + 1..i + 1 + close].iter().collect();
                i += close + 2;
                Tok::Code(code)
            }
            '$' => {
                let mut j = i + 1;
                if chars.get(j) == Some(&'*') {
                    j += 1;
                } else if chars.get(j).is_some_and(|c| c.is_ascii_digit()) {
                    while chars.get(j).is_some_and(|c| c.is_ascii_digit()) {
                        j += 1;
                    }
                } else if chars.get(j).is_some_and(|&c| is_word_start(c)) {
                    while chars.get(j).is_some_and(|&c| is_word_char(c)) {
                        j += 1;
                    }
                }
                if j == i + 1 {
                    i += 1;
                    Tok::Other('$')
                } else {
                    let name: String = chars[i + 1..j].iter().collect();
                    i = j;
                    Tok::Var(name)
                }
            }
            c if c.is_ascii_digit() => {
                while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                    i += 1;
                }
                Tok::Number(chars[start..i].iter().collect())
            }
            c if is_word_start(c) => {
                while let Some(&c) = chars.get(i) {
                    let hash_digit =
                        c == '#' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
                    if !(is_word_char(c) || hash_digit) {
                        break;
                    }
                    i += 1;
                }
                Tok::Word(chars[start..i].iter().collect())
            }
            _ => {
                let next = chars.get(i + 1).copied();
                let (tok, len) = match (c, next) {
                    ('=', Some('=')) => (Tok::Compare(CompareOp::Eq), 2),
                    ('!', Some('=')) => (Tok::Compare(CompareOp::Ne), 2),
                    ('>', Some('=')) => (Tok::Compare(CompareOp::Ge), 2),
                    ('<', Some('=')) => (Tok::Compare(CompareOp::Le), 2),
                    ('>', _) => (Tok::Compare(CompareOp::Gt), 1),
                    ('<', _) => (Tok::Compare(CompareOp::Lt), 1),
                    ('=', _) => (Tok::Assign, 1),
                    ('{', _) => (Tok::LBrace, 1),
                    ('}', _) => (Tok::RBrace, 1),
                    ('(', _) => (Tok::LParen, 1),
                    (')', _) => (Tok::RParen, 1),
                    (',', _) => (Tok::Comma, 1),
                    ('+', _) => (Tok::Plus, 1),
                    (':', _) => (Tok::Colon, 1),
                    ('@', _) => (Tok::At, 1),
                    (';', _) => (Tok::Semicolon, 1),
                    (c, _) => (Tok::Other(c), 1),
                };
                i += len;
                tok
            }
        };
        let separator = matches!(tok, Tok::Newline | Tok::Semicolon);
        tokens.push(Token {
            tok,
            span: lines.span(start, i),
            bytes: (bytes[start], bytes[i]),
            glued,
        });
        prev_end = if separator { None } else { Some(i) };
    }
    Ok(tokens)
}

fn is_word_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.'
}

/// A string from `start` (its quote): its value and the char after it.
fn string(chars: &[char], start: usize, lines: &Lines) -> Result<(String, usize), ScriptError> {
    let quote = chars[start];
    let mut value = String::new();
    let mut j = start + 1;
    loop {
        let Some(&c) = chars.get(j) else {
            return Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                lines.span(start, chars.len()),
                format!("unterminated string; close it with {quote}"),
            ));
        };
        if c == quote {
            return Ok((value, j + 1));
        }
        if c != '\\' {
            value.push(c);
            j += 1;
            continue;
        }
        match chars.get(j + 1) {
            Some('n') => value.push('\n'),
            Some('t') => value.push('\t'),
            Some('\\') => value.push('\\'),
            Some('"') => value.push('"'),
            Some('\'') => value.push('\''),
            other => {
                let shown = other.map(|c| c.to_string()).unwrap_or_default();
                return Err(ScriptError::new(
                    ScriptErrorKind::Syntax,
                    lines.span(j, (j + 2).min(chars.len())),
                    format!(
                        "unknown escape '\\{}' in a string; expected one of: \\n, \\t, \\\\, \\\", \\' (write \\\\ for a backslash)",
                        excerpt(&shown)
                    ),
                ));
            }
        }
        j += 2;
    }
}
