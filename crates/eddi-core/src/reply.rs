//! Replies: one per command, rendered terse (`Ok, At 3:0`) or as JSON.
//!
//! A [`Reply`] is structured data; rendering is the last step, so the
//! terse and JSON forms always carry the same facts.
//!
//! Terse shapes: `Ok`, `Ok, <clause>, <clause>…` (effects of an edit or a
//! move), `Ok: <clause>, …` (information asked for), `Fail "<reason>"`
//! (optionally followed by `, <clause>…`: notices and the skipped count).
//!
//! With `Set Replies brief` a reply drops its *confirmations* — clauses that
//! only repeat what the sender asked for — see [`Clause::is_confirmation`].

use serde_json::{json, Map, Value};

use crate::commands::{ReplyDetail, ResponseFormat};
use crate::edit::Position;
use crate::failure::{ErrorKind, OpError};

#[cfg(test)]
thread_local! {
    /// How many replies this thread rendered: a turn renders each once.
    pub(crate) static RENDERED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One fact of a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clause {
    /// `At l:c`: where the cursor is now.
    At(Position),
    /// `At l:c` as the answer to a search (`Find Next|Prev`): where the match
    /// is. Rendered like [`Clause::At`], but a fact, not a confirmation.
    Found(Position),
    /// `Length <lines>`
    Length(usize),
    /// `Inserted <n> lines at <l>`
    Inserted { lines: usize, at: usize },
    /// `Deleted <n> lines at <l>`
    Deleted { lines: usize, at: usize },
    /// `Bytes <n>`
    Bytes(usize),
    /// `Replaced <n> occurrences`
    Replaced(usize),
    /// `Lines a:b`: the lines a `Txt` shows (whole lines, zero-based, inclusive).
    Lines(crate::edit::LineRange),
    /// `Txt <text>` with newlines escaped; always rendered last, so the
    /// text may contain anything (`, Notice:` included).
    Txt(String),
    /// `Replace? (y/n)`: a confirmation walk waits for an answer.
    Prompt(String),
    /// Free text, e.g. `Found 3 matches at 4:0, 9:2, 9:7`.
    Note(String),
    /// A fact as data, worded by the renderer like a note (`Session saved`).
    Fact(crate::outcome::Fact),
    /// Something the sender should know that it did not ask about, e.g. a
    /// file changed on disk by somebody else.
    Notice(String),
    /// `Skipped <n> commands`: the commands of the message (or script) after
    /// a failure that did not run.
    Skipped(usize),
    /// An operation's result as data, for JSON only (its fields join the
    /// reply object: `"references": […]`); the terse form words the same
    /// facts in other clauses.
    Data(Map<String, Value>),
    /// What a query alone found (`select`), typed: the JSON form renders
    /// it as `"elements"` or `"answers"` (definitions and files without
    /// their text unless `texts`), the Python binding as objects; the
    /// terse form words its count in a [`Clause::Fact`].
    Selections {
        found: std::sync::Arc<crate::script::run::Selections>,
        texts: bool,
    },
}

impl Clause {
    /// Whether this clause only confirms what the sender asked for, so a
    /// `Set Replies brief` session does without it. The one table:
    ///
    /// | Clause | brief drops it | why |
    /// |---|---|---|
    /// | `At l:c` (cursor after a move or an edit) | yes | the sender chose the place (`Goto`, `Open`, `Insert`); `Status` or `Show` asks for it |
    /// | `Length n` (`Open`) | yes | `Show`/`Status` answer it when wanted |
    /// | `Inserted n lines at l`, `Deleted n lines at l` | yes | the sender wrote the text or named the lines |
    /// | `Bytes n` (`Save`) | yes | a successful save is the fact |
    /// | `At l:c` of a search (`Find Next|Prev`) | no | where the match is was asked |
    /// | `Replaced n occurrences` | no | how many matched is not known beforehand |
    /// | `Txt …`, `Replace? (y/n)` | no | asked for |
    /// | free-text notes (`Wrapped`, `Already formatted`, `Unsaved changes discarded`, counts…) | no | command-specific facts |
    /// | `Notice: …` (files changed on disk, syntax-error notes) | no | never asked for, always needed |
    /// | `Skipped n commands` | no | says what did not run |
    ///
    /// Only `Ok, …` replies (effects) are trimmed: an `Ok: …` reply is the
    /// answer to a question and a `Fail` is never shortened. The `At` of a
    /// reply that asks a question (`Replace Confirm`'s `Ok, At l:c, Replace?
    /// (y/n)`) is where the question is about, so such a reply stays whole.
    pub fn is_confirmation(&self) -> bool {
        match self {
            Clause::At(_)
            | Clause::Length(_)
            | Clause::Inserted { .. }
            | Clause::Deleted { .. }
            | Clause::Bytes(_) => true,
            Clause::Found(_)
            | Clause::Replaced(_)
            | Clause::Txt(_)
            | Clause::Lines(_)
            | Clause::Prompt(_)
            | Clause::Note(_)
            | Clause::Fact(_)
            | Clause::Notice(_)
            | Clause::Skipped(_)
            | Clause::Data(_)
            | Clause::Selections { .. } => false,
        }
    }

    /// Data for the JSON form only: no terse words of its own.
    pub fn is_data(&self) -> bool {
        matches!(self, Clause::Data(_) | Clause::Selections { .. })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `Ok` or `Ok, a, b`: the command did something.
    Done(Vec<Clause>),
    /// `Ok: a, b`: the command answers a question.
    Info(Vec<Clause>),
    /// `Fail "reason"`, then the clauses added after the failure (notices,
    /// the skipped count): `Fail "reason", Skipped 2 commands`. The
    /// failure is typed: its kind and choices are data.
    Fail(OpError, Vec<Clause>),
}

impl Reply {
    pub fn ok() -> Reply {
        Reply::Done(Vec::new())
    }

    pub fn at(pos: Position) -> Reply {
        Reply::Done(vec![Clause::At(pos)])
    }

    pub fn info(text: impl Into<String>) -> Reply {
        Reply::Info(vec![Clause::Note(text.into())])
    }

    /// A failure of `kind` that says `reason`.
    pub fn fail(kind: ErrorKind, reason: impl Into<String>) -> Reply {
        Reply::Fail(OpError::new(kind, reason), Vec::new())
    }

    pub fn is_ok(&self) -> bool {
        !matches!(self, Reply::Fail(..))
    }

    /// The failure, when the command failed.
    pub fn failure(&self) -> Option<&OpError> {
        match self {
            Reply::Fail(error, _) => Some(error),
            _ => None,
        }
    }

    /// The kind of a failure: what logic asks of a failure, never its wording.
    pub fn failure_kind(&self) -> Option<ErrorKind> {
        self.failure().map(|error| error.kind)
    }

    /// Adds a clause at the end (notices, skipped counts).
    pub fn push(&mut self, clause: Clause) {
        match self {
            Reply::Done(clauses) | Reply::Info(clauses) | Reply::Fail(_, clauses) => {
                clauses.push(clause)
            }
        }
    }

    /// The reply's `At` clauses as the answer to a search ([`Clause::Found`]).
    pub fn found(mut self) -> Reply {
        if let Reply::Done(clauses) = &mut self {
            for clause in clauses {
                if let Clause::At(pos) = clause {
                    *clause = Clause::Found(*pos);
                }
            }
        }
        self
    }

    /// The reply for a `Set Replies brief` session: an effect without its
    /// confirmations (see [`Clause::is_confirmation`]); answers and
    /// failures unchanged.
    pub fn brief(self) -> Reply {
        match self {
            Reply::Done(clauses) if !clauses.iter().any(|c| matches!(c, Clause::Prompt(_))) => {
                Reply::Done(
                    clauses
                        .into_iter()
                        .filter(|c| !c.is_confirmation())
                        .collect(),
                )
            }
            other => other,
        }
    }

    pub fn render(&self, format: ResponseFormat) -> String {
        #[cfg(test)]
        RENDERED.with(|count| count.set(count.get() + 1));
        match format {
            ResponseFormat::Terse => self.terse(),
            ResponseFormat::Json => self.json().to_string(),
        }
    }

    /// Renders in the format, brief or full.
    pub fn render_as(&self, format: ResponseFormat, detail: ReplyDetail) -> String {
        match detail {
            ReplyDetail::Full => self.render(format),
            ReplyDetail::Brief => self.clone().brief().render(format),
        }
    }

    pub fn terse(&self) -> String {
        match self {
            Reply::Done(clauses) if !clauses.iter().any(is_worded) => "Ok".to_owned(),
            Reply::Done(clauses) => format!("Ok, {}", join(clauses)),
            Reply::Info(clauses) => format!("Ok: {}", join(clauses)),
            Reply::Fail(error, clauses) if !clauses.iter().any(is_worded) => {
                format!("Fail \"{}\"", escape(&error.message))
            }
            Reply::Fail(error, clauses) => {
                format!("Fail \"{}\", {}", escape(&error.message), join(clauses))
            }
        }
    }

    pub fn json(&self) -> Value {
        let mut object = Map::new();
        let clauses = match self {
            Reply::Done(clauses) | Reply::Info(clauses) => {
                object.insert("ok".into(), json!(true));
                clauses.as_slice()
            }
            Reply::Fail(error, clauses) => {
                object.insert("ok".into(), json!(false));
                object.insert("error".into(), json!(error.message));
                object.insert(
                    "failure".into(),
                    json!({"code": error.kind.code(), "message": error.message, "candidates": error.candidates}),
                );
                clauses.as_slice()
            }
        };
        let mut notes = Vec::new();
        let mut notices = Vec::new();
        for clause in clauses {
            match clause {
                Clause::At(pos) | Clause::Found(pos) => {
                    object.insert("at".into(), json!({"line": pos.line, "col": pos.col}));
                }
                Clause::Skipped(n) => {
                    object.insert("skipped".into(), json!(n));
                }
                Clause::Length(n) => {
                    object.insert("length".into(), json!(n));
                }
                Clause::Inserted { lines, at } => {
                    object.insert("inserted".into(), json!({"lines": lines, "at": at}));
                }
                Clause::Deleted { lines, at } => {
                    object.insert("deleted".into(), json!({"lines": lines, "at": at}));
                }
                Clause::Bytes(n) => {
                    object.insert("bytes".into(), json!(n));
                }
                Clause::Replaced(n) => {
                    object.insert("replaced".into(), json!(n));
                }
                Clause::Lines(range) => {
                    object.insert(
                        "lines".into(),
                        json!({"first": range.first, "last": range.last}),
                    );
                }
                Clause::Txt(text) => {
                    object.insert("text".into(), json!(text));
                }
                Clause::Prompt(question) => {
                    object.insert("prompt".into(), json!(question));
                }
                Clause::Note(text) => notes.push(text.clone()),
                Clause::Fact(fact) => notes.push(fact.to_string()),
                Clause::Notice(text) => notices.push(text.clone()),
                Clause::Data(fields) => {
                    object.extend(fields.clone());
                }
                Clause::Selections { found, texts } => {
                    let (field, value) = crate::engine::ops::json::selections(found, *texts);
                    object.insert(field.into(), value);
                }
            }
        }
        if !notes.is_empty() {
            object.insert("message".into(), json!(notes.join(", ")));
        }
        if !notices.is_empty() {
            object.insert("notices".into(), json!(notices));
        }
        Value::Object(object)
    }
}

/// `Fail "<message>"` alone, escaped as every failure is: the line of a
/// failure the transport says before any command ran.
pub fn fail_line(message: &str) -> String {
    format!("Fail \"{}\"", escape(message))
}

/// Whether a clause has a terse form (data for JSON has none).
fn is_worded(clause: &Clause) -> bool {
    !clause.is_data()
}

/// The clauses in order, but `Txt` last: everything after `Txt ` is text.
fn join(clauses: &[Clause]) -> String {
    let is_txt = |c: &&Clause| matches!(c, Clause::Txt(_));
    let is_data = |c: &&Clause| c.is_data();
    clauses
        .iter()
        .filter(|c| !is_txt(c) && !is_data(c))
        .chain(clauses.iter().filter(is_txt))
        .map(terse_clause)
        .collect::<Vec<_>>()
        .join(", ")
}

fn terse_clause(clause: &Clause) -> String {
    match clause {
        Clause::At(pos) | Clause::Found(pos) => format!("At {pos}"),
        Clause::Skipped(n) => format!("Skipped {n} {}", plural(*n, "command")),
        Clause::Length(n) => format!("Length {n}"),
        Clause::Inserted { lines, at } => {
            format!("Inserted {lines} {} at {at}", plural(*lines, "line"))
        }
        Clause::Deleted { lines, at } => {
            format!("Deleted {lines} {} at {at}", plural(*lines, "line"))
        }
        Clause::Bytes(n) => format!("Bytes {n}"),
        Clause::Replaced(n) => format!("Replaced {n} {}", plural(*n, "occurrence")),
        Clause::Lines(range) => format!("Lines {range}"),
        Clause::Txt(text) => format!("Txt {}", escape_newlines(text)),
        Clause::Prompt(question) => one_line(question),
        Clause::Note(text) => one_line(text),
        Clause::Fact(fact) => one_line(&fact.to_string()),
        Clause::Notice(text) => format!("Notice: {}", one_line(text)),
        Clause::Data(_) | Clause::Selections { .. } => String::new(),
    }
}

/// `word` or its English plural (`line`/`lines`, `match`/`matches`).
pub fn plural(n: usize, word: &str) -> String {
    let consonant_y = word
        .strip_suffix('y')
        .filter(|stem| stem.chars().last().is_some_and(|c| !"aeiou".contains(c)));
    if n == 1 {
        word.to_owned()
    } else if let Some(stem) = consonant_y {
        format!("{stem}ies")
    } else if ["ch", "sh", "s", "x"].iter().any(|end| word.ends_with(end)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// Escapes text for one terse line: `\` `\n` `\r` `\t`.
pub fn escape_newlines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// Keeps a note on its line: a file name with a newline (from `List`, a
/// search, a notice) must not start a reply line of its own — a sender reads
/// one line per command, so that line would pass for another reply.
fn one_line(text: &str) -> String {
    if !text.contains(['\n', '\r']) {
        return text.to_owned();
    }
    text.replace('\n', "\\n").replace('\r', "\\r")
}

/// Escapes a failure reason for `Fail "<reason>"`: newlines and quotes.
fn escape(reason: &str) -> String {
    escape_newlines(reason).replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_spec_shapes() {
        assert_eq!(Reply::ok().terse(), "Ok");
        assert_eq!(Reply::at(Position::new(3, 0)).terse(), "Ok, At 3:0");
        let inserted = Reply::Done(vec![
            Clause::Inserted { lines: 3, at: 0 },
            Clause::At(Position::new(3, 0)),
        ]);
        assert_eq!(inserted.terse(), "Ok, Inserted 3 lines at 0, At 3:0");
        let show = Reply::Info(vec![
            Clause::At(Position::new(1, 4)),
            Clause::Txt("def f():\n\tpass".into()),
        ]);
        assert_eq!(show.terse(), "Ok: At 1:4, Txt def f():\\n\\tpass");
        assert_eq!(
            Reply::fail(ErrorKind::NotFound, "Not found: \"x\"\nnext").terse(),
            r#"Fail "Not found: \"x\"\nnext""#
        );
    }

    #[test]
    fn plurals_are_english() {
        let words = ["line", "match", "class", "dependency", "key", "box", "file"];
        let plurals: Vec<String> = words.iter().map(|w| plural(2, w)).collect();
        assert_eq!(
            plurals,
            [
                "lines",
                "matches",
                "classes",
                "dependencies",
                "keys",
                "boxes",
                "files"
            ]
        );
        assert_eq!(plural(1, "class"), "class");
        assert_eq!(plural(0, "class"), "classes");
    }

    #[test]
    fn txt_is_always_last_so_its_text_can_hold_anything() {
        let reply = Reply::Info(vec![
            Clause::At(Position::new(4, 4)),
            Clause::Txt("a, Notice: b".into()),
            Clause::Lines(crate::edit::LineRange::new(2, 8)),
            Clause::Notice("x.py changed on disk".into()),
        ]);
        assert_eq!(
            reply.terse(),
            "Ok: At 4:4, Lines 2:8, Notice: x.py changed on disk, Txt a, Notice: b"
        );
        assert_eq!(reply.json()["lines"], json!({"first": 2, "last": 8}));
    }

    #[test]
    fn data_is_for_json_only_and_a_typed_failure_becomes_a_failure_object() {
        let mut fields = Map::new();
        fields.insert("references".into(), json!([{"path": "a.py", "line": 1}]));
        let found = Reply::Info(vec![
            Clause::Note("Found 1 reference".into()),
            Clause::Data(fields),
        ]);
        assert_eq!(found.terse(), "Ok: Found 1 reference");
        assert_eq!(
            found.json(),
            json!({"ok": true, "message": "Found 1 reference", "references": [{"path": "a.py", "line": 1}]})
        );
        let mut error = OpError::new(ErrorKind::NotFound, "Not found: 'x'");
        error.candidates = vec!["y".into()];
        let failed = Reply::Fail(error, Vec::new());
        assert_eq!(failed.terse(), r#"Fail "Not found: 'x'""#);
        assert_eq!(
            failed.json(),
            json!({"ok": false, "error": "Not found: 'x'",
                   "failure": {"code": "not_found", "message": "Not found: 'x'", "candidates": ["y"]}})
        );
        // an effect with data only is still a plain `Ok`
        assert_eq!(Reply::Done(vec![Clause::Data(Map::new())]).terse(), "Ok");
    }

    #[test]
    fn json_carries_the_same_facts() {
        let reply = Reply::Done(vec![
            Clause::At(Position::new(0, 0)),
            Clause::Length(12),
            Clause::Notice("a.py changed on disk".into()),
        ]);
        assert_eq!(
            reply.json(),
            json!({"ok": true, "at": {"line": 0, "col": 0}, "length": 12, "notices": ["a.py changed on disk"]})
        );
        assert_eq!(
            Reply::fail(ErrorKind::Conflict, "Nope").json(),
            json!({"ok": false, "error": "Nope",
                   "failure": {"code": "conflict", "message": "Nope", "candidates": []}})
        );
    }
}
