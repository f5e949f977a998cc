//! The execution context of one command: the session and the workspace,
//! plus the helpers every command family shares.

use std::ops::Range;

use ropey::Rope;

use super::elsewhere::{Board, Carry};
use super::ops::json::typed;
use super::ops::ErrorKind;
use crate::change::WorkspaceChange;
use crate::edit::{position, Position};
use crate::failure::OpError;
use crate::language::Language;
use crate::outcome::Outcome;
use crate::session::{Buffer, Event, Session};
use crate::workspace::{Workspace, WorkspacePath};

/// A command's result: `Err` carries the `Fail` reply, so `?` works.
pub(super) type Ran = Result<Outcome, OpError>;

pub struct Ctx<'a> {
    pub(super) session: &'a mut Session,
    pub(super) workspace: &'a Workspace,
    /// The other sessions' unsaved edits every write is checked against
    /// (see `elsewhere`); `None` only where nothing is written.
    pub(super) board: Option<&'a Board>,
    /// Writes committed under other sessions' unsaved edits, for the
    /// engine to carry into their buffers once this session is unlocked.
    pub(super) carried: Vec<Carry>,
    /// The changes the one applier applied, in order: the command's
    /// outcome carries them.
    pub(super) applied: Vec<WorkspaceChange>,
    /// What a brace file's new definition meets in the project's other
    /// files ([`Beside`]); `None` where no index is at hand.
    pub(super) beside: Option<Beside<'a>>,
}

/// Why a definition inserted at chars `element` of `path`'s new text
/// would meet one another file declares in its namespace (a Go
/// package's, a Rust type's inherent `impl`s, a Java package's classes):
/// the engine's [`crate::refactor::inserted_taken_beside`] on its index.
pub(super) type Beside<'a> =
    &'a dyn Fn(&str, &'static dyn Language, &Rope, Range<usize>) -> Option<String>;

impl<'a> Ctx<'a> {
    pub(super) fn new(
        session: &'a mut Session,
        workspace: &'a Workspace,
        board: Option<&'a Board>,
    ) -> Self {
        Ctx {
            session,
            workspace,
            board,
            carried: Vec::new(),
            applied: Vec::new(),
            beside: None,
        }
    }

    /// With the project's check of a new definition's name ([`Beside`]).
    pub(super) fn with_beside(mut self, beside: Beside<'a>) -> Self {
        self.beside = Some(beside);
        self
    }

    /// The current buffer, or a `Fail` that says how to get one.
    pub(super) fn current(&self) -> Result<&Buffer, OpError> {
        self.session
            .current_buffer()
            .ok_or_else(|| typed(ErrorKind::NotApplicable, "No file open. Use: Open <file>"))
    }

    pub(super) fn current_path(&self) -> Result<WorkspacePath, OpError> {
        Ok(self.current()?.path().clone())
    }

    /// Applies an event the command has fully checked.
    pub(super) fn apply(&mut self, event: Event) -> Result<(), OpError> {
        self.session.apply(event).map_err(|e| {
            typed(
                ErrorKind::Internal,
                format!("Internal error, nothing changed: {e}"),
            )
        })
    }

    /// Moves the current buffer's cursor and answers `Ok, At l:c`.
    pub(super) fn move_to(&mut self, to: Position) -> Ran {
        let buffer = self.current()?;
        let to = position::clamp(buffer.text(), to);
        let path = buffer.path().clone();
        if buffer.cursor() != to {
            self.apply(Event::Moved { path, to })?;
        }
        Ok(Outcome::at(to))
    }

    /// Finds an open buffer by workspace path, or by a unique file name or
    /// path suffix (`Save Close user_manager.py` for `src/auth/user_manager.py`).
    pub(super) fn find_open(&self, given: &str) -> Result<WorkspacePath, OpError> {
        if let Ok(path) = self.workspace.resolve(given) {
            if self.session.buffers.contains_key(&path) {
                return Ok(path);
            }
        }
        let given = given.trim_start_matches("./");
        let candidates: Vec<&WorkspacePath> = self
            .session
            .buffers
            .keys()
            .filter(|path| path.as_str().ends_with(&format!("/{given}")) || path.as_str() == given)
            .collect();
        match candidates.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(typed(
                ErrorKind::NotFound,
                format!("File not open: {given}. {}", self.open_files_hint(given)),
            )),
            many => Err(OpError {
                kind: ErrorKind::Ambiguous,
                candidates: many.iter().map(|p| p.to_string()).collect(),
                message: format!(
                    "Ambiguous file '{given}': {}",
                    many.iter()
                        .map(|p| p.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }),
        }
    }

    /// The open file a command names, or the current one when it names none.
    pub(super) fn open_or_current(&self, given: Option<&str>) -> Result<WorkspacePath, OpError> {
        match given {
            Some(given) => self.find_open(given),
            None => self.current_path(),
        }
    }

    /// The open files, those close to `asked` first.
    pub(super) fn open_files_hint(&self, asked: &str) -> String {
        if self.session.buffers.is_empty() {
            "No files are open".to_owned()
        } else {
            let names: Vec<String> = self.session.buffers.keys().map(|p| p.to_string()).collect();
            format!(
                "Open files: {}",
                crate::choices::Choices::ranked(asked, names)
            )
        }
    }
}

/// Reports open files that changed on disk since the session last read or
/// wrote them; an unmodified buffer takes the new text. Said once per
/// change: the buffer remembers what was reported (in the journal, so a
/// restarted Eddi or the next `eddi run` does not say it again).
pub(super) fn check_disk(session: &mut Session, workspace: &Workspace) -> Vec<String> {
    let mut notices = Vec::new();
    let paths: Vec<WorkspacePath> = session.buffers.keys().cloned().collect();
    for path in paths {
        let buffer = &session.buffers[&path];
        let changed = workspace
            .changed_since(&path, buffer.disk())
            .unwrap_or(false);
        if !changed {
            if buffer.noticed().is_some() {
                // Back in step (saved, or the file came back as it was).
                let _ = session.apply(Event::DiskNoticed { path, key: None });
            }
            continue;
        }
        let now = workspace.stamp(&path).ok().flatten();
        // The disk holds exactly this buffer's text (a commit whose reply a
        // crash cut off, or the same edit made elsewhere): nothing to tell.
        let same_text = now.as_ref().filter(|s| s.hash == buffer.content_hash());
        if let Some(stamp) = same_text.cloned() {
            let event = Event::Saved {
                path: path.clone(),
                disk: stamp,
            };
            // Cannot fail: the buffer is open.
            let _ = session.apply(event);
            continue;
        }
        let key = now
            .as_ref()
            .map_or_else(|| "deleted".to_owned(), |s| s.hash.clone());
        if buffer.noticed() == Some(key.as_str()) {
            continue;
        }
        let modified = buffer.is_modified();
        let created = buffer.disk().is_none();
        let noticed = Event::DiskNoticed {
            path: path.clone(),
            key: Some(key),
        };
        if session.apply(noticed).is_err() {
            continue;
        }
        match now {
            None => notices.push(format!(
                "{path} was deleted on disk; Save writes it again, Close drops it"
            )),
            Some(_) if created => {
                notices.push(format!("{path} was created on disk by someone else; Save refuses to overwrite it (Save Force does)"))
            }
            Some(_) if !modified => match workspace.read(&path) {
                Ok(loaded) => {
                    let event = Event::Reloaded { path: path.clone(), text: loaded.text, disk: loaded.stamp };
                    if session.apply(event).is_ok() {
                        notices.push(format!("{path} changed on disk; reloaded (you had no unsaved edits)"));
                    }
                }
                Err(e) => notices.push(format!("{path} changed on disk and cannot be read again: {e}")),
            },
            Some(_) => notices.push(format!(
                "{path} changed on disk; your unsaved edits are kept and Save refuses to overwrite it (Save Force does)"
            )),
        }
    }
    notices
}
