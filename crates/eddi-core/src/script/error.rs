//! Why a script is refused before anything runs: where (`line:col` in the
//! script), what was expected, and the closest valid word.
//!
//! The message is one line (text quoted from the script goes through
//! [`excerpt`]); its kind says what class of mistake it is, so no code has
//! to read the words.

use std::fmt;

use super::ast::Span;
use crate::choices;
use crate::commands::error::excerpt;

/// The class of a script's mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptErrorKind {
    /// The text does not read as a script: a malformed string, a missing
    /// word or brace, a word where another was expected.
    Syntax,
    /// A word the language does not know where it needs one of its own: a
    /// statement, condition, element, attribute, refactoring or option.
    UnknownWord,
    /// A `$variable` no `let`, `foreach $x in` or earlier message defined.
    UndefinedVariable,
    /// A known word where it cannot apply: `method.name` where no `foreach`
    /// iterates methods, `complexity` of imports, `$1` outside a call.
    WrongContext,
}

/// A refused script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    pub kind: ScriptErrorKind,
    /// Where in the script; `Display` starts with its `line:col`.
    pub span: Span,
    /// One line: what is wrong, what was expected, the closest valid word.
    pub message: String,
    /// The valid words, closest first, where a word was wrong.
    pub candidates: Vec<String>,
}

impl ScriptError {
    pub fn new(kind: ScriptErrorKind, span: Span, message: impl Into<String>) -> Self {
        ScriptError {
            kind,
            span,
            message: message.into(),
            candidates: Vec::new(),
        }
    }

    /// `expected <what>, found '<found>'` (or `… found the end of the
    /// script` when `found` is `None`).
    pub fn expected(span: Span, what: &str, found: Option<&str>) -> Self {
        let found = match found {
            Some(text) => format!("'{}'", excerpt(text)),
            None => "the end of the script".to_string(),
        };
        ScriptError::new(
            ScriptErrorKind::Syntax,
            span,
            format!("expected {what}, found {found}"),
        )
    }

    /// `unknown <what> '<word>'; expected one of: …; did you mean '<x>'?`
    /// with the valid words as candidates, the close ones first.
    pub fn unknown(span: Span, what: &str, word: &str, valid: &[&str]) -> Self {
        ScriptError::unknown_among(span, what, word, valid, ScriptErrorKind::UnknownWord)
    }

    /// [`ScriptError::unknown`] of the given kind (an undefined variable
    /// offers the defined ones the same way).
    pub fn unknown_among(
        span: Span,
        what: &str,
        word: &str,
        valid: &[&str],
        kind: ScriptErrorKind,
    ) -> Self {
        let close = choices::closest(word, valid, 3);
        let hint = match close.first() {
            Some(best) => format!("; did you mean '{best}'?"),
            None => String::new(),
        };
        let listed = choices::Choices::ranked(word, valid.iter().map(|v| v.to_string()).collect());
        let message = if valid.is_empty() {
            format!("unknown {what} '{}'", excerpt(word))
        } else {
            format!(
                "unknown {what} '{}'; expected one of: {listed}{hint}",
                excerpt(word)
            )
        };
        let mut candidates = close.clone();
        candidates.extend(
            valid
                .iter()
                .map(|v| v.to_string())
                .filter(|v| !close.contains(v)),
        );
        ScriptError {
            kind,
            span,
            message,
            candidates,
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

impl std::error::Error for ScriptError {}
