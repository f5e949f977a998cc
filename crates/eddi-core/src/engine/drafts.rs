//! `List Drafts` and `Recover`: taking back the unsaved edits a session
//! released (idle past `idle_release`, or ended by an operator) and the
//! store kept as drafts (`session::store::drafts`).
//!
//! Drafts belong to a session's name: a sender sees its own session's (a
//! script that runs `Start t` again after its session was ended finds
//! them), an operator names another's with `From <session>` (checked at
//! the door, `policy`). `Recover` writes nothing: the draft's text becomes
//! the unsaved buffer of its file, one undo step over the file's text on
//! disk as it is now (`Save` writes it, `Undo` drops it), and the draft is
//! removed once the session's events that hold it are persisted
//! (`Engine::persist`). When the file moved
//! on since the draft was kept the reply says so in a `Notice`: the
//! buffer then also takes back what changed on disk since, for the agent
//! to review with `Diff`.

use super::context::Ran;
use crate::outcome::{DraftLine, Fact, Outcome};
use ropey::Rope;
use serde_json::json;

use crate::change::{Indel, TextEdits};
use crate::edit::diff::change_between;
use crate::edit::position;
use crate::reply::Clause;
use crate::session::store::Draft;
use crate::session::Event;
use crate::workspace::{DiskStamp, FileError, WorkspacePath};

use super::apply::{Place, Revise};
use super::context::Ctx;
use super::files::file_fail;
use super::ops::json::{data, typed};
use super::ops::{ErrorKind, OpError};
use super::{Engine, Held};

use crate::outcome::DiskSince as Since;

impl Since {
    fn of(draft: &Draft, now: Option<&DiskStamp>) -> Since {
        let Some(record) = &draft.record else {
            return Since::Unknown;
        };
        match (&record.base, now) {
            (Some(base), Some(now)) if *base == now.hash => Since::Unchanged,
            (Some(_), Some(_)) => Since::Changed,
            (Some(_), None) => Since::Deleted,
            (None, Some(_)) => Since::Created,
            (None, None) => Since::Absent,
        }
    }

    /// The JSON `disk` value.
    fn key(self) -> &'static str {
        match self {
            Since::Unchanged => "unchanged",
            Since::Changed => "changed",
            Since::Deleted => "deleted",
            Since::Created => "created",
            Since::Absent => "absent",
            Since::Unknown => "unknown",
        }
    }
}

impl Engine {
    /// `List Drafts [From <session>]`: the drafts kept for `owner`, with
    /// when, their size and what happened to their files on disk since.
    pub(super) fn list_drafts(&self, owner: &str) -> Ran {
        let drafts = self.drafts_of(owner)?;
        if drafts.is_empty() {
            return Ok(Outcome::answer(vec![
                Clause::Fact(Fact::Drafts {
                    session: owner.to_owned(),
                    drafts: Vec::new(),
                }),
                data("drafts", json!([])),
            ]));
        }
        let mut lines = Vec::new();
        let mut listed = Vec::new();
        for draft in &drafts {
            let text = std::fs::read_to_string(&draft.file).unwrap_or_default();
            let count = position::counted_lines(&Rope::from_str(&text));
            let since = self.since(draft);
            lines.push(DraftLine {
                path: draft.path.clone(),
                kept: draft.kept.clone(),
                lines: count,
                bytes: text.len(),
                since,
            });
            listed.push(json!({
                "path": draft.path,
                "kept": draft.kept,
                "lines": count,
                "bytes": text.len(),
                "disk": since.key(),
            }));
        }
        Ok(Outcome::answer(vec![
            Clause::Fact(Fact::Drafts {
                session: owner.to_owned(),
                drafts: lines,
            }),
            data("drafts", serde_json::Value::Array(listed)),
        ]))
    }

    /// `Recover <file> [From <session>]`; see the module doc.
    pub(super) fn recover_command(&self, live: &mut Held, given: &str, from: Option<&str>) -> Ran {
        self.recover(live, given, from)
    }

    fn recover(&self, live: &mut Held, given: &str, from: Option<&str>) -> Ran {
        let owner = from.unwrap_or(&live.session.name).to_owned();
        let path = self.workspace.resolve(given).map_err(file_fail)?;
        let drafts = self.drafts_of(&owner)?;
        let Some(draft) = drafts.iter().find(|d| d.path == path.as_str()) else {
            let names: Vec<String> = drafts.iter().map(|d| d.path.clone()).collect();
            let message = if names.is_empty() {
                format!("No draft of {path} in session {owner}: it has no drafts")
            } else {
                format!(
                    "No draft of {path} in session {owner}; drafts: {}",
                    names.join(", ")
                )
            };
            return Err(OpError {
                kind: ErrorKind::NotFound,
                message,
                candidates: names,
            });
        };
        let text = std::fs::read_to_string(&draft.file).map_err(|e| {
            typed(
                ErrorKind::Unavailable,
                format!("Could not read the draft of {path}: {e}; it is kept"),
            )
        })?;
        if live.session.buffer(&path).is_some_and(|b| b.is_modified()) {
            return Err(typed(
                ErrorKind::Conflict,
                format!("{path} has unsaved edits in this session: Save or Close it first; the draft is kept"),
            ));
        }
        let disk = match self.workspace.read(&path) {
            Ok(loaded) => Some(loaded),
            Err(FileError::NotFound(_)) => None,
            Err(e) => return Err(file_fail(e)),
        };
        let since = Since::of(draft, disk.as_ref().map(|d| &d.stamp));
        let on_disk = disk.as_ref().map_or("", |d| d.text.as_str()).to_owned();
        let (added, deleted) = line_counts(&on_disk, &text);

        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        // The file as it is on disk now, then the draft over it.
        match disk {
            _ if ctx.session.buffer(&path).is_some() => {
                ctx.apply(Event::Switched { path: path.clone() })?
            }
            Some(loaded) => ctx.apply(Event::Opened {
                path: path.clone(),
                text: loaded.text,
                disk: Some(loaded.stamp),
            })?,
            None => ctx.apply(Event::Opened {
                path: path.clone(),
                text: String::new(),
                disk: None,
            })?,
        }
        let before = ctx.current()?.text().clone();
        let after = Rope::from_str(&text);
        let change = change_between(&before, &after);
        let same = change.is_identity();
        if !same {
            // The difference as a change of the buffer, applied like every
            // edit (the draft's text is in the file's line ending, which the
            // applier keeps); the cursor goes to its first hunk.
            let hunks = change.edits();
            let first = hunks.first().map_or(0, |(from, _, _)| *from);
            let edits = TextEdits::new(
                hunks
                    .into_iter()
                    .map(|(from, to, text)| Indel::new(from..to, text)),
            )
            .map_err(|(a, b)| {
                OpError::new(
                    ErrorKind::Internal,
                    format!("Internal: hunks {a:?} and {b:?} overlap"),
                )
            })?;
            ctx.edit_current(edits, Place::AtChar(first), Revise::New)?;
        }
        let cursor = ctx.current()?.cursor();
        let lines = ctx.current()?.line_count();

        let mut clauses = vec![Clause::Fact(if same {
            Fact::DraftIsTheFile {
                path: path.to_string(),
                kept: draft.kept.clone(),
            }
        } else {
            Fact::Recovered {
                path: path.to_string(),
                from: (owner != live.session.name).then(|| owner.clone()),
                kept: draft.kept.clone(),
                added,
                deleted,
            }
        })];
        clauses.push(Clause::At(cursor));
        clauses.push(Clause::Length(lines));
        // The draft goes once the events that hold its text are persisted
        // (with the turn's, its request id among them: a retry finds it
        // answered, not the draft gone).
        live.recovered.push((owner.clone(), path.to_string()));
        // A draft that is the file's text needs no review.
        if let Some(notice) = since_notice(&path, since).filter(|_| !same) {
            clauses.push(Clause::Notice(notice));
        }
        clauses.push(data(
            "recovered",
            json!({
                "path": path.as_str(),
                "session": owner,
                "kept": draft.kept,
                "disk": since.key(),
                "added": added,
                "deleted": deleted,
            }),
        ));
        Ok(Outcome::effect(clauses))
    }

    fn drafts_of(&self, owner: &str) -> Result<Vec<Draft>, OpError> {
        self.store.drafts(owner).map_err(|e| {
            typed(
                ErrorKind::Internal,
                format!("Could not read the drafts of session {owner}: {e}"),
            )
        })
    }

    /// What happened on disk to a draft's file since it was kept.
    fn since(&self, draft: &Draft) -> Since {
        let now = self
            .workspace
            .resolve(&draft.path)
            .ok()
            .and_then(|path| self.workspace.stamp(&path).ok());
        match now {
            Some(now) => Since::of(draft, now.as_ref()),
            None => Since::Unknown,
        }
    }
}

/// What the recovering sender must know when the file is not the text the
/// draft's edits were made on.
fn since_notice(path: &WorkspacePath, since: Since) -> Option<String> {
    let review = "review it with Diff before Save (Undo drops it)";
    match since {
        Since::Unchanged | Since::Absent => None,
        Since::Changed => Some(format!(
            "{path} changed on disk since the draft was kept: your buffer is the draft's whole text over the file as it is now, so it also takes back what changed on disk since; {review}"
        )),
        Since::Deleted => Some(format!(
            "{path} was deleted on disk since the draft was kept: your buffer is a new file with the draft's text; Save creates it again"
        )),
        Since::Created => Some(format!(
            "{path} was created on disk since the draft (of a new file) was kept: your buffer is the draft's text over it; {review}"
        )),
        Since::Unknown => Some(format!(
            "the draft of {path} was kept before Eddi recorded what it was made on, so whether the file changed on disk since is unknown; {review}"
        )),
    }
}

/// Lines added and deleted from `old` to `new`.
fn line_counts(old: &str, new: &str) -> (usize, usize) {
    let (mut added, mut deleted) = (0, 0);
    for change in similar::TextDiff::from_lines(old, new).iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => added += 1,
            similar::ChangeTag::Delete => deleted += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    (added, deleted)
}
