//! The one error type of the analysis layer. Messages are for the agent that
//! sent the command: each names what was wrong and what to do instead.

use crate::choices::Choices;
use crate::edit::Position;

/// A candidate listed by [`AnalysisError::Ambiguous`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub position: Position,
    /// A target naming exactly this candidate (`Method Text.plain.setter`).
    pub form: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// `kind` is a lowercase noun (`function`, `method`, `class`, `variable`,
    /// `parameter`); `available` has the close names first.
    #[error("Not found: {kind} '{name}'. {}", available_text(kind, available))]
    NotFound {
        kind: &'static str,
        name: String,
        available: Choices,
    },
    /// A method asked for that its type has as a field of the name (a
    /// Java record's component, whose accessor is no element of its
    /// own): `form` addresses the field (`Variable Item.price`).
    #[error("Not found: {kind} '{name}'. {name} is a field: {form}")]
    FieldNotMethod {
        kind: &'static str,
        name: String,
        form: String,
    },
    #[error("Ambiguous match: '{name}' at {}; {hint}", candidates_text(candidates))]
    Ambiguous {
        name: String,
        candidates: Vec<Candidate>,
        hint: &'static str,
    },
    /// The cursor is not inside an element of that kind.
    #[error("Not in {0}")]
    NotIn(&'static str),
    /// The cursor is in a method written on its owner, outside any class
    /// (JavaScript's `Route.prototype.dispatch = function …`), where a
    /// method is a statement of its own.
    #[error(
        "Not in class: {method} is written on {owner} outside any class; Insert Function \"{owner}.prototype.name = function (…) {{ … }};\" writes another after it"
    )]
    NotInClassWrittenOn { method: String, owner: String },
    /// Code given for insertion or modification does not have the expected shape.
    #[error("Invalid code: {0}")]
    InvalidCode(String),
    #[error("Invalid name '{0}': not a Python identifier")]
    InvalidName(String),
    #[error("Name conflict: '{0}' already exists in this scope")]
    NameConflict(String),
    /// The parser gave up (only on cancellation; kept so nothing panics).
    #[error("Parse failed: {0}")]
    ParseFailed(String),
    /// Names the formatter that is missing and how to get it.
    #[error("No formatter found: {0}")]
    FormatterMissing(String),
    #[error("Unknown style '{0}'. Valid: ruff, black, or a line length (Format 100)")]
    UnknownStyle(String),
    /// A style another language's formatter does not take.
    #[error("Unknown style '{style}'. Valid: {valid}")]
    UnknownFormatStyle {
        style: String,
        /// The formatter's name, the one style it takes besides a length.
        formatter: &'static str,
        valid: String,
    },
    #[error("Format failed: {0}")]
    FormatFailed(String),
    /// What was given clashes with what the file has (an import of a name
    /// the file binds already); the message says what to do instead.
    #[error("Refused, nothing changed: {0}")]
    Clash(String),
    /// The edit would drop existing text; the message says how to ask for it.
    #[error("{0}")]
    WouldOverwrite(String),
    #[error("Invalid edit: {0}")]
    InvalidEdit(String),
}

fn available_text(kind: &str, available: &Choices) -> String {
    if available.is_empty() {
        format!("No {} in file", crate::reply::plural(0, kind))
    } else {
        format!("Available: {available}")
    }
}

fn candidates_text(candidates: &[Candidate]) -> String {
    candidates
        .iter()
        .map(|c| format!("{} ({})", c.position, c.form))
        .collect::<Vec<_>>()
        .join(", ")
}

pub type Result<T, E = AnalysisError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_fix() {
        let e = AnalysisError::NotFound {
            kind: "function",
            name: "foo".into(),
            available: Choices::ranked("foo", vec!["bar".into(), "baz".into()]),
        };
        assert_eq!(
            e.to_string(),
            "Not found: function 'foo'. Available: bar, baz"
        );
        let e = AnalysisError::NotFound {
            kind: "class",
            name: "X".into(),
            available: Choices::ranked("X", vec![]),
        };
        assert_eq!(e.to_string(), "Not found: class 'X'. No classes in file");
        let e = AnalysisError::Ambiguous {
            name: "run".into(),
            candidates: vec![
                Candidate {
                    position: Position::new(3, 4),
                    form: "Method Worker.run".into(),
                },
                Candidate {
                    position: Position::new(17, 4),
                    form: "Method Server.run".into(),
                },
            ],
            hint: "name one of them as listed",
        };
        assert_eq!(
            e.to_string(),
            "Ambiguous match: 'run' at 3:4 (Method Worker.run), 17:4 (Method Server.run); name one of them as listed"
        );
    }
}
