//! Other sessions' unsaved edits, as every writer meets them.
//!
//! Every write to disk — `Save`, `Save All`, a committed change (refactors,
//! `edit_lines`, `create_file`…), the undo or redo of a committed step —
//! goes through [`Ctx::commit_writes`], the one door with two rules:
//!
//! 1. *Check*, before the commit: a write that changes lines another
//!    session has unsaved edits on is refused, naming the file, the lines
//!    and the session; nothing is written. Edits elsewhere in the file do
//!    not stand in the way. The sessions are read from the [`Board`] (a
//!    copy of each session's unsaved buffers, kept by `Engine::persist`),
//!    so a writer holding its own session never waits for another's lock.
//! 2. *Carry*, after the commit and with the writer's session unlocked
//!    ([`Engine::carry_over`]): each other session's buffer of a written
//!    file, with unsaved edits made on the text the write replaced, takes
//!    the write under its edits (`Event::Rebased`) and is told so with its
//!    next reply (`Event::Noticed`). A buffer whose edits meanwhile came to
//!    overlap the write is left as it is: its next reply says the file
//!    changed on disk under its unsaved edits (`check_disk`).
//!
//! Sessions idle longer than `EngineConfig::idle_release` release their
//! unsaved buffers ([`Engine::release_idle`]): each is kept as a draft
//! under `<state dir>/drafts/<session>/<file>` (the whole text; `Recover`
//! takes it back, see `drafts`) and closed, so an abandoned session
//! blocks nobody for good.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use ropey::Rope;

use crate::edit::{diff::change_between, Assoc, ChangeSet};
use crate::failure::OpError;
use crate::reply::plural;
use crate::session::{Event, Session};
use crate::workspace::{CommitError, DiskStamp, Expect, FileWrite, Workspace, WorkspacePath};

use super::context::Ctx;
use super::ops::json::typed;
use super::ops::ErrorKind;
use super::{lock, Engine, Live};

/// A session's unsaved buffer, as other writers check it.
#[derive(Debug, Clone)]
pub(super) struct Unsaved {
    /// The buffer's text (a rope: the copy shares its nodes).
    text: Rope,
    /// The content hash of the disk text the edits were made on.
    base: String,
}

/// Every session's unsaved buffers and when it last ran something.
#[derive(Debug, Default)]
pub(crate) struct Board {
    inner: Mutex<BoardInner>,
}

#[derive(Debug, Default)]
struct BoardInner {
    unsaved: HashMap<String, BTreeMap<WorkspacePath, Unsaved>>,
    active: HashMap<String, SystemTime>,
    swept: Option<Instant>,
}

impl Board {
    fn inner(&self) -> std::sync::MutexGuard<'_, BoardInner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a session's unsaved buffers as they are now.
    pub(super) fn record(&self, session: &Session) {
        let unsaved: BTreeMap<WorkspacePath, Unsaved> = session
            .buffers
            .values()
            .filter(|buffer| buffer.is_modified())
            .filter_map(|buffer| {
                let base = buffer.disk()?.hash.clone();
                let text = buffer.text().clone();
                Some((buffer.path().clone(), Unsaved { text, base }))
            })
            .collect();
        let mut inner = self.inner();
        if unsaved.is_empty() {
            inner.unsaved.remove(&session.name);
        } else {
            inner.unsaved.insert(session.name.clone(), unsaved);
        }
    }

    /// The session ran something at `when`.
    pub(super) fn active(&self, name: &str, when: SystemTime) {
        self.inner().active.insert(name.to_owned(), when);
    }

    /// The session ended.
    pub(super) fn forget(&self, name: &str) {
        let mut inner = self.inner();
        inner.unsaved.remove(name);
        inner.active.remove(name);
    }

    /// How long the session has run nothing.
    pub(super) fn idle(&self, name: &str) -> Duration {
        self.inner()
            .active
            .get(name)
            .and_then(|when| when.elapsed().ok())
            .unwrap_or_default()
    }

    /// The other sessions with unsaved edits in `path`.
    pub(super) fn unsaved_in(&self, own: &str, path: &WorkspacePath) -> Vec<(String, Unsaved)> {
        self.inner()
            .unsaved
            .iter()
            .filter(|(name, _)| name.as_str() != own)
            .filter_map(|(name, files)| Some((name.clone(), files.get(path)?.clone())))
            .collect()
    }

    /// The sessions with unsaved edits idle for `limit` or longer, at most
    /// once per sweep interval (the sweep is cheap, but runs every turn).
    fn idle_with_unsaved(&self, limit: Duration) -> Vec<String> {
        let mut inner = self.inner();
        let every = limit.min(Duration::from_secs(10));
        if inner.swept.is_some_and(|swept| swept.elapsed() < every) {
            return Vec::new();
        }
        inner.swept = Some(Instant::now());
        let mut idle: Vec<String> = inner
            .unsaved
            .keys()
            .filter(|name| {
                inner
                    .active
                    .get(*name)
                    .and_then(|when| when.elapsed().ok())
                    .is_some_and(|idle| idle >= limit)
            })
            .cloned()
            .collect();
        idle.sort();
        idle
    }
}

/// A write committed to a file other sessions had unsaved edits in: what
/// [`Engine::carry_over`] brings into their buffers.
#[derive(Debug, Clone)]
pub(crate) struct Carry {
    pub path: WorkspacePath,
    /// The disk text the write replaced, and its content hash.
    before: Rope,
    before_hash: String,
    /// The write, as a change of `before`.
    change: ChangeSet,
    /// The file on disk after the write.
    disk: DiskStamp,
}

/// A write checked against the other sessions, waiting for its commit.
struct Checked {
    before: Rope,
    before_hash: String,
    change: ChangeSet,
}

/// The first and last line of `base` (zero-based) that both changes
/// touch, if they touch a common line: edits on other lines merge.
fn overlap(base: &Rope, ours: &ChangeSet, theirs: &ChangeSet) -> Option<(usize, usize)> {
    let lines = |change: &ChangeSet| -> Vec<(usize, usize)> {
        change
            .edits()
            .into_iter()
            .map(|(from, to, _)| {
                let first = base.char_to_line(from.min(base.len_chars()));
                let last = if to > from {
                    base.char_to_line((to - 1).min(base.len_chars()))
                } else {
                    first
                };
                (first, last)
            })
            .collect()
    };
    let theirs = lines(theirs);
    lines(ours).into_iter().find_map(|(a, b)| {
        theirs
            .iter()
            .find(|(c, d)| a <= *d && *c <= b)
            .map(|(c, d)| (a.max(*c), b.min(*d)))
    })
}

/// `lines 3-4` (one-based, as a person reads them in a reply).
fn lines_word((first, last): (usize, usize)) -> String {
    if first == last {
        format!("line {}", first + 1)
    } else {
        format!("lines {}-{}", first + 1, last + 1)
    }
}

/// Our change of the base text, moved onto a text that also has `theirs`
/// (edits on other lines): each edit lands where its lines went.
fn carried_onto(ours: &ChangeSet, theirs: &ChangeSet) -> Option<ChangeSet> {
    let edits: Vec<(usize, usize, Option<&str>)> = ours
        .edits()
        .into_iter()
        .map(|(from, to, text)| {
            (
                theirs.map_pos(from, Assoc::Before),
                theirs.map_pos(to, Assoc::Before),
                Some(text),
            )
        })
        .collect();
    ChangeSet::from_edits(theirs.len_after(), edits).ok()
}

impl Ctx<'_> {
    /// The one door of every write to disk (see the module doc): the
    /// writes are checked against the other sessions' unsaved edits,
    /// committed (`commit_fail` words a commit's failure), and what they
    /// changed under other sessions' buffers is kept for the carry.
    ///
    /// `what` names the writer in a refusal (`save`, `change`, `undo`,
    /// `redo`). A forced write (`Save Force`: `Expect::Anything`) is not
    /// refused; the sessions whose edits it overlaps are told, with their
    /// next reply, that the file changed under their edits.
    pub(super) fn commit_writes(
        &mut self,
        writes: &[FileWrite],
        what: &str,
        commit_fail: impl FnOnce(CommitError) -> OpError,
    ) -> Result<Vec<Option<DiskStamp>>, OpError> {
        let checked = self.check_elsewhere(writes, what)?;
        let stamps = self.workspace.commit(writes).map_err(commit_fail)?;
        for ((write, checked), stamp) in writes.iter().zip(checked).zip(&stamps) {
            if let (Some(checked), Some(disk)) = (checked, stamp) {
                self.carried.push(Carry {
                    path: write.path.clone(),
                    before: checked.before,
                    before_hash: checked.before_hash,
                    change: checked.change,
                    disk: disk.clone(),
                });
            }
        }
        Ok(stamps)
    }

    /// Rule 1 of the module doc: every write that changes lines another
    /// session has unsaved edits on refuses all of them.
    fn check_elsewhere(
        &self,
        writes: &[FileWrite],
        what: &str,
    ) -> Result<Vec<Option<Checked>>, OpError> {
        let Some(board) = self.board else {
            return Ok(writes.iter().map(|_| None).collect());
        };
        let mut checked = Vec::with_capacity(writes.len());
        let mut conflicts = Vec::new();
        for write in writes {
            let others = board.unsaved_in(&self.session.name, &write.path);
            if others.is_empty() {
                checked.push(None);
                continue;
            }
            let after = write
                .content
                .as_deref()
                .map(|bytes| Rope::from_str(&String::from_utf8_lossy(bytes)));
            match check_write(self.workspace, &write.path, after.as_ref(), &others) {
                Ok(write) => checked.push(write),
                Err(_) if write.expect == Expect::Anything => checked.push(None),
                Err(mut found) => {
                    conflicts.append(&mut found);
                    checked.push(None);
                }
            }
        }
        if conflicts.is_empty() {
            Ok(checked)
        } else {
            conflicts.sort();
            Err(elsewhere_fail(what, &conflicts))
        }
    }
}

/// One file's write against the other sessions' unsaved edits in it: the
/// write as a change of the disk text, or the conflicts (`a.py line 3
/// (session t)`). A session whose edits were made on another text than
/// the disk's is behind already (its next reply says the file changed);
/// it is not in the way.
fn check_write(
    workspace: &Workspace,
    path: &WorkspacePath,
    after: Option<&Rope>,
    others: &[(String, Unsaved)],
) -> Result<Option<Checked>, Vec<String>> {
    let Ok(disk) = workspace.read(path) else {
        return Ok(None); // nothing on disk (yet): nobody's edits are on it
    };
    let before = Rope::from_str(&disk.text);
    let on_it: Vec<&(String, Unsaved)> = others
        .iter()
        .filter(|(_, unsaved)| unsaved.base == disk.stamp.hash)
        .collect();
    let Some(after) = after else {
        let found: Vec<String> = on_it
            .iter()
            .map(|(name, _)| format!("{path} (session {name}; the write deletes it)"))
            .collect();
        return if found.is_empty() {
            Ok(None)
        } else {
            Err(found)
        };
    };
    let change = change_between(&before, after);
    let found: Vec<String> = on_it
        .iter()
        .filter_map(|(name, unsaved)| {
            let theirs = change_between(&before, &unsaved.text);
            let lines = overlap(&before, &change, &theirs)?;
            Some(format!("{path} {} (session {name})", lines_word(lines)))
        })
        .collect();
    if !found.is_empty() {
        return Err(found);
    }
    Ok(Some(Checked {
        before,
        before_hash: disk.stamp.hash,
        change,
    }))
}

/// The refusal of a write (`what`: "write", "refactor", "undo"…) that
/// changes lines other sessions have unsaved edits on.
pub(super) fn elsewhere_fail(what: &str, conflicts: &[String]) -> OpError {
    typed(ErrorKind::Stale, elsewhere_message(what, conflicts))
}

pub(super) fn elsewhere_message(what: &str, conflicts: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut shown: Vec<String> = conflicts.iter().take(SHOWN).cloned().collect();
    if conflicts.len() > SHOWN {
        shown.push(format!("… ({} more)", conflicts.len() - SHOWN));
    }
    let force = if what == "save" {
        "; Save Force writes over them"
    } else {
        ""
    };
    format!(
        "The {what} changes lines other sessions have unsaved edits on: {}; nothing was written. They save or close them first (edits on other lines do not stand in the way: they are carried over){force}",
        shown.join(", ")
    )
}

impl Engine {
    /// The conflicts of writing `after` (`None`: deleting) over `path`
    /// with the other sessions' unsaved edits (see [`check_write`]), for
    /// a check before a commit is planned (a refactor's preview).
    pub(super) fn conflicts_elsewhere(
        &self,
        own: &str,
        path: &WorkspacePath,
        after: Option<&Rope>,
    ) -> Vec<String> {
        let others = self.board.unsaved_in(own, path);
        if others.is_empty() {
            return Vec::new();
        }
        check_write(&self.workspace, path, after, &others)
            .err()
            .unwrap_or_default()
    }

    /// Rule 2 of the module doc: each write reaches the other sessions'
    /// buffers of its file, under their unsaved edits. The caller holds no
    /// session; each is locked in turn.
    pub(super) fn carry_over(&self, own: &str, carried: Vec<Carry>) {
        if carried.is_empty() {
            return;
        }
        let others: Vec<_> = {
            let registry = self.registry();
            registry
                .sessions
                .iter()
                .filter(|(name, _)| name.as_str() != own)
                .map(|(_, live)| live.clone())
                .collect()
        };
        for live in others {
            let mut live = lock(&live);
            let mut told = false;
            for carry in &carried {
                if let Some(notice) = carry_into(&mut live.session, carry, own) {
                    let _ = live.session.apply(Event::Noticed { text: notice });
                    told = true;
                }
            }
            if told {
                if let Err(e) = self.persist(&mut live) {
                    tracing::warn!(session = %live.session.name, error = %e, "carried write not persisted yet");
                }
            }
        }
    }

    /// Releases the unsaved buffers of sessions idle longer than the
    /// configured time (see the module doc), but the sender's own: it is
    /// back. The caller holds no session; a session that is locked is
    /// running something, so it is not idle.
    pub(super) fn release_idle(&self, sender: &str) {
        let limit = self.config.idle_release;
        if limit.is_zero() {
            return;
        }
        let own = self.session_of(sender);
        for name in self.board.idle_with_unsaved(limit) {
            if own.as_deref() == Some(name.as_str()) {
                continue;
            }
            let Some(live) = self.registry().sessions.get(&name).cloned() else {
                continue;
            };
            let Some(mut live) = live.try_lock() else {
                continue;
            };
            let minutes = self.board.idle(&name).as_secs() / 60;
            let why = format!(
                "This session was idle for {minutes} {}",
                plural(minutes as usize, "minute")
            );
            self.release(&mut live, &why);
        }
    }

    /// Keeps every unsaved buffer of a session as a draft and closes it;
    /// the session is told with its next reply. Returns the drafts. A
    /// buffer whose draft cannot be written stays open: no text is lost.
    pub(super) fn release(&self, live: &mut Live, why: &str) -> Vec<String> {
        let name = live.session.name.clone();
        // With each text, the disk text its edits were made on: `List
        // Drafts` and `Recover` tell whether the file moved on since.
        let modified: Vec<(WorkspacePath, String, Option<String>)> = live
            .session
            .buffers
            .values()
            .filter(|b| b.is_modified())
            .map(|b| {
                let base = b.disk().map(|d| d.hash.clone());
                (b.path().clone(), b.text().to_string(), base)
            })
            .collect();
        let mut drafts = Vec::new();
        let mut released = Vec::new();
        for (path, text, base) in modified {
            match self
                .store
                .keep_draft(&name, path.as_str(), &text, base.as_deref())
            {
                Ok(draft) => {
                    if live
                        .session
                        .apply(Event::Closed { path: path.clone() })
                        .is_ok()
                    {
                        drafts.push(self.shown_state_path(&draft));
                        released.push(path);
                    }
                }
                Err(e) => {
                    tracing::warn!(session = %name, %path, error = %e, "draft not written; the buffer stays open");
                }
            }
        }
        if !released.is_empty() {
            let files: Vec<&str> = released.iter().map(WorkspacePath::as_str).collect();
            let text = format!(
                "{why}: its unsaved edits in {} were released so that others may write {}; they are kept as {} (Recover {} takes {} back as your unsaved buffer, List Drafts lists them)",
                files.join(", "),
                if files.len() == 1 { "it" } else { "them" },
                drafts.join(", "),
                files[0],
                if files.len() == 1 { "it" } else { "one" },
            );
            let _ = live.session.apply(Event::Noticed { text });
            tracing::info!(session = %name, files = ?files, "idle session's unsaved buffers released as drafts");
        }
        if let Err(e) = self.persist(live) {
            tracing::warn!(session = %name, error = %e, "release not persisted yet");
        }
        drafts
    }

    /// A path under the state directory as a reply shows it: relative to
    /// the workspace root when it is inside it.
    fn shown_state_path(&self, path: &std::path::Path) -> String {
        path.strip_prefix(self.workspace.root())
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// Carries one write into a session's buffer of its file, if the buffer
/// has unsaved edits made on the text the write replaced and they do not
/// overlap it; the notice to give. (An unmodified buffer takes the new
/// text on its next reply: `check_disk`.)
fn carry_into(session: &mut Session, carry: &Carry, by: &str) -> Option<String> {
    let buffer = session.buffer(&carry.path)?;
    if !buffer.is_modified() || buffer.disk().map(|d| &d.hash) != Some(&carry.before_hash) {
        return None;
    }
    let theirs = change_between(&carry.before, buffer.text());
    if let Some(lines) = overlap(&carry.before, &carry.change, &theirs) {
        // Their edits reached the written lines after the check: left as
        // they are; `check_disk` says the file changed under them.
        tracing::info!(path = %carry.path, lines = ?lines, "write not carried: overlapping edits");
        return None;
    }
    let ours = carried_onto(&carry.change, &theirs)?;
    let mut text = buffer.text().clone();
    ours.apply(&mut text).ok()?;
    let mut after = carry.before.clone();
    carry.change.apply(&mut after).ok()?;
    let unsaved_inverse = change_between(&text, &after);
    let lines = carry
        .change
        .edits()
        .first()
        .map(|(from, _, _)| carry.before.char_to_line(*from))
        .unwrap_or(0);
    session
        .apply(Event::Rebased {
            path: carry.path.clone(),
            change: ours,
            unsaved_inverse,
            disk: carry.disk.clone(),
        })
        .ok()?;
    Some(format!(
        "{} was written by session {by} (from line {}) under your unsaved edits: its change is in your buffer now, your edits kept on top of it (one undo step; Save writes both)",
        carry.path,
        lines + 1
    ))
}
