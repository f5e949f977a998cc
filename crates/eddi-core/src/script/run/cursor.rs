//! The script's cursor: where a phase-1 command inside a script works
//! (`Goto`, `Find`, `Insert`, `Delete`, `Replace`, `Modify`, `Show`, …),
//! the positions `store current_position as` keeps, and the `push
//! context` / `pop context` stack.
//!
//! The cursor is the script's own, a place in the snapshot that follows
//! every edit made since it was set (an edit before it moves it, one that
//! removes the text around it leaves it where that text began). It starts
//! at the sender's cursor; each element a `foreach` visits puts it at the
//! element's start, and after the `foreach` it is back where it was
//! before. The session's own cursor, bookmarks and contexts are never
//! changed by a script: the script's change is what it leaves.
//!
//! A phase-1 command runs through the engine on one file of the snapshot
//! (`Project::command`), as it would on an open buffer holding that text;
//! its edits join the snapshot as the statement's, its answer (`Show`,
//! `Find All`, `Validate`, …) goes to the reply.

use std::collections::HashMap;

use ropey::Rope;

use crate::change::Base;
use crate::commands::{AnalysisKind, Command, GotoTarget};
use crate::edit::position::{from_char, to_char};
use crate::edit::Position;
use crate::failure::{ErrorKind, OpError};

use super::super::ast::Span;
use super::report::Verb;
use super::{Failed, Interpreter, Result};

/// A place in the snapshot: chars `at` of `path`'s text at `version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Mark {
    pub path: String,
    pub version: usize,
    pub at: usize,
}

/// The cursor's state while a script runs.
#[derive(Debug, Clone, Default)]
pub(super) struct Cursor {
    /// Where it is; `None` until something puts it somewhere (then the
    /// sender's cursor is where it is).
    pub here: Option<Mark>,
    /// `store current_position as <name>` (and `Bookmark <name>`).
    pub stored: HashMap<String, Mark>,
    /// `push context`: where to come back to.
    pub contexts: Vec<Option<Mark>>,
}

/// One file of the snapshot as a phase-1 command sees it: an open buffer
/// with this text and this cursor.
#[derive(Debug, Clone)]
pub struct Place {
    pub path: String,
    pub base: Base,
    pub text: Rope,
    pub cursor: Position,
}

/// What a phase-1 command did on a [`Place`].
#[derive(Debug, Clone, Default)]
pub struct Commanded {
    /// Its edits, one list per undo step it made, each in chars of the
    /// text before that step: `(start, end, inserted)`.
    pub edits: Vec<Vec<(usize, usize, String)>>,
    /// The cursor after it.
    pub cursor: Position,
    /// Its answer, when it answers (`Show`, `Find All`, `Validate`):
    /// the terse reply.
    pub answer: Option<String>,
}

/// Why a phase-1 command does not run inside a script, and what to do
/// instead; `None` for the commands that do (refused before anything
/// runs, see `run::unsupported`).
pub(super) fn refusal(command: &Command) -> Option<&'static str> {
    use Command::*;
    match command {
        Goto(_) | Find { .. } | Replace { .. } | Bookmark { .. } | Show { .. } | Insert { .. }
        | Delete(_) | Modify { .. } | Comment { .. } | Format { .. } | Validate { .. } => None,
        PushContext | PopContext | Open { create: false, .. } => None,
        Analyze {
            kind: Some(AnalysisKind::Dependencies),
            ..
        } => Some("it asks the project index about files as they are on disk; send it as a message of its own"),
        Analyze { .. } => None,
        Refactor(_) => None,
        Open { create: true, .. } => Some("a script does not create files; create it first (Open Create …, Save), then run the script"),
        Save { .. } | SaveAll { .. } => Some("a script writes once, at its end, all or nothing; it needs no Save"),
        Undo { .. } | Redo { .. } => Some("a script is one undo step: use try { … } catch { rollback all } inside it, or send Undo after it"),
        Close { .. } => Some("a script opens no buffers (Open inside a script moves its cursor to the file)"),
        Apply | Discard | Preview { .. } => Some("a script is computed whole before anything is written; send it as a message of its own"),
        FindInFiles { .. } | FindSymbol { .. } | ReplaceInFiles { .. } => Some("it works on the whole project: in a script, write foreach file matching \"<glob>\" { replace \"a\" with \"b\" } or foreach caller of f() …"),
        Start { .. } | End { .. } | Set { .. } | Recover { .. } => Some("it changes the session, not the files; send it as a message of its own"),
        Summary { .. } | Status | List { .. } | Diff { .. } | Help { .. } | ListSessions
        | ListDrafts { .. } | ListChangesets => Some("it answers about the session, not the script's files; send it as a message of its own"),
        Script { .. } => Some("a script inside a script is a block: { … }"),
    }
}

impl Interpreter<'_> {
    /// Where the cursor is now (`path`, chars), following the edits made
    /// since it was set; the sender's cursor until the script moves it.
    pub(super) fn cursor_now(&mut self, at: Span) -> Result<Option<(String, usize)>> {
        let mark = match self.cursor.here.clone() {
            Some(mark) => mark,
            None => match self.project.cursor() {
                None => return Ok(None),
                Some((path, position)) => {
                    let text = self.doc_text(&path).map_err(Self::fail(at))?;
                    Mark {
                        path,
                        version: 0,
                        at: to_char(&text, position).unwrap_or(0),
                    }
                }
            },
        };
        let at = self.snapshot.map_point(&mark.path, mark.version, mark.at);
        Ok(Some((mark.path, at)))
    }

    /// Puts the cursor at chars `at` of `path`'s text now.
    pub(super) fn put_cursor(&mut self, path: &str, at: usize) {
        self.cursor.here = Some(Mark {
            path: path.to_owned(),
            version: self.version(path),
            at,
        });
    }

    /// The cursor now as a mark of the text now.
    fn mark_now(&mut self, at: Span) -> Result<Option<Mark>> {
        Ok(self.cursor_now(at)?.map(|(path, offset)| Mark {
            version: self.version(&path),
            path,
            at: offset,
        }))
    }

    /// `store current_position as <name>`, `Bookmark <name> [l:c]`.
    pub(super) fn store_position(
        &mut self,
        name: &str,
        given: Option<Position>,
        at: Span,
    ) -> Result<()> {
        let Some(mut mark) = self.mark_now(at)? else {
            return Err(no_cursor(at, "store a position"));
        };
        if let Some(position) = given {
            let text = self.doc_text(&mark.path).map_err(Self::fail(at))?;
            mark.at = to_char(&text, position).map_err(|e| {
                Failed::new(
                    at,
                    ErrorKind::InvalidArgument,
                    format!("{e} in {}", mark.path),
                )
            })?;
        }
        self.cursor.stored.insert(name.to_owned(), mark);
        Ok(())
    }

    /// `push context`: the cursor now, to come back to.
    pub(super) fn push_context(&mut self, at: Span) -> Result<()> {
        let mark = self.mark_now(at)?;
        self.cursor.contexts.push(mark);
        Ok(())
    }

    /// `pop context`: back to the cursor the last `push context` kept.
    pub(super) fn pop_context(&mut self, at: Span) -> Result<()> {
        match self.cursor.contexts.pop() {
            Some(mark) => {
                self.cursor.here = mark;
                Ok(())
            }
            None => Err(Failed::new(
                at,
                ErrorKind::NotApplicable,
                "pop context without a push context before it in this script",
            )),
        }
    }

    /// A phase-1 command inside the script: the cursor commands here, the
    /// others through the engine on the file at the cursor.
    pub(super) fn phase1(&mut self, command: &Command, at: Span) -> Result<()> {
        match command {
            Command::PushContext => return self.push_context(at),
            Command::PopContext => return self.pop_context(at),
            Command::Bookmark { name, at: given } => return self.store_position(name, *given, at),
            Command::Open {
                create: false,
                path,
            } => {
                let (resolved, _, _) = self.project.read(path).map_err(Self::fail(at))?;
                self.doc_text(resolved.as_str()).map_err(Self::fail(at))?;
                self.put_cursor(resolved.as_str(), 0);
                return Ok(());
            }
            Command::Goto(GotoTarget::Bookmark(name)) => {
                if let Some(mark) = self.cursor.stored.get(name).cloned() {
                    self.cursor.here = Some(mark);
                    return Ok(());
                }
                if let Some((path, offset)) = self.project.bookmark(name) {
                    let text = self.snapshot_original(&path, at)?;
                    let offset = offset.min(text.len_chars());
                    self.cursor.here = Some(Mark {
                        path,
                        version: 0,
                        at: offset,
                    });
                    return Ok(());
                }
                let mut stored: Vec<&String> = self.cursor.stored.keys().collect();
                stored.sort();
                return Err(Failed::new(
                    at,
                    ErrorKind::NotFound,
                    match stored.is_empty() {
                        true => format!("no position named '{name}': store current_position as {name} stores the cursor under that name, and the session has no bookmark of it"),
                        false => format!(
                            "no position named '{name}'; this script stored: {}",
                            stored.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                        ),
                    },
                ));
            }
            _ => {}
        }
        let Some((path, offset)) = self.cursor_now(at)? else {
            return Err(no_cursor(at, &format!("run '{command}'")));
        };
        let text = self.doc_text(&path).map_err(Self::fail(at))?;
        let base = self
            .snapshot
            .get(&path)
            .map(|doc| doc.base.clone())
            .unwrap_or(Base::Absent);
        let place = Place {
            path: path.clone(),
            base,
            text: text.clone(),
            cursor: from_char(&text, offset.min(text.len_chars())),
        };
        let done = self
            .project
            .command(command, &place)
            .map_err(Self::fail(at))?;
        for step in &done.edits {
            for (start, end, inserted) in step.iter().rev() {
                self.write(&path, *start..*end, inserted, at);
            }
        }
        let now = self.doc_text(&path).map_err(Self::fail(at))?;
        let offset = to_char(&now, done.cursor).unwrap_or(now.len_chars());
        self.put_cursor(&path, offset);
        if let Some(answer) = done.answer {
            self.report
                .answers
                .push(format!("{at}: {command}: {answer}"));
        }
        self.report.count(Verb::Ran, "command", 1);
        Ok(())
    }

    /// A file's text as the script first read it.
    fn snapshot_original(&mut self, path: &str, at: Span) -> Result<Rope> {
        self.doc_text(path).map_err(Self::fail(at))?;
        Ok(self
            .snapshot
            .get(path)
            .map(|doc| doc.original.clone())
            .unwrap_or_default())
    }
}

fn no_cursor(at: Span, to: &str) -> Failed {
    Failed::new(
        at,
        ErrorKind::NotApplicable,
        format!("no cursor to {to} at: outside a foreach the script's cursor is the sender's, and no file is open (Open <file> inside the script, or write foreach <query> {{ … }})"),
    )
}

/// The error a project without an editor gives for a phase-1 command.
pub(super) fn no_editor(command: &Command) -> OpError {
    OpError::new(
        ErrorKind::NotApplicable,
        format!("'{command}' needs the editor, which this project does not have"),
    )
}
