//! The one applier: a [`WorkspaceChange`] into a session's buffers and,
//! when committed, onto disk as one all-or-nothing commit.
//!
//! Applying is two phases. *Plan* checks every file against the base the
//! change was computed on (buffer version, disk stamp, absence) and
//! computes each file's new text — nothing is touched, so a stale or
//! conflicting change fails whole, naming the files. *Apply* commits the
//! new texts (when asked) and only then turns the plan into session
//! events: files the session did not have open are opened, each file's
//! edit is one revision, and a change of several files (or one that was
//! committed) is one step: `Undo` reverts it in every file at once.

use crate::failure::OpError;
use ropey::Rope;

use crate::change::{Base, FileOp, TextEdits, WorkspaceChange};
use crate::edit::{position, ChangeSet, LineEnding, Position};
use crate::session::{Event, Step, StepWrite};

use super::ops::files::text_hash;
use crate::workspace::{CommitError, DiskStamp, Expect, FileError, FileWrite, WorkspacePath};

use super::context::Ctx;
use super::ops::json::typed;
use super::ops::ErrorKind;

/// Whether a change stays in the buffers or is also written to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyMode {
    /// The buffers only; the files stay as they are until saved.
    Buffers,
    /// The buffers and the disk, all files or none.
    Commit,
}

/// What applying a change did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Every file whose text changed, created or deleted.
    pub files: Vec<WorkspacePath>,
    /// Files the session opened to apply the change.
    pub opened: Vec<WorkspacePath>,
    /// The stamp each file written by a commit has on disk now.
    pub stamps: Vec<(WorkspacePath, DiskStamp)>,
}

/// Where the current buffer's cursor goes when a change edits it (the
/// other files' cursors keep their place).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// Keeps its place in the text around it.
    Kept,
    /// This position of the new text.
    At(Position),
    /// This char offset of the new text.
    AtChar(usize),
}

/// Whether the current buffer's edit is an undo step of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Revise {
    /// A new revision (one `Undo` takes it back).
    New,
    /// Folded into the last revision: a `Replace Confirm` walk is one
    /// step however many matches it replaces.
    Amend,
}

/// One file of a planned change.
struct Planned {
    path: WorkspacePath,
    /// The text the change applies to; `None` for a file that does not exist.
    before: Option<Rope>,
    /// The text afterwards and the change that makes it; `None` when the
    /// file is deleted.
    after: Option<(Rope, ChangeSet)>,
    /// The session has the file open.
    open: bool,
    /// The disk state the base text came from (for a buffer: its stamp).
    disk: Option<DiskStamp>,
    /// What the file must be on disk when committed.
    expect: Expect,
}

impl Ctx<'_> {
    /// Applies `change` (see the module doc); a failure changes nothing.
    /// Each buffer's cursor keeps its place in the text around it.
    pub(super) fn apply_change(
        &mut self,
        change: &WorkspaceChange,
        mode: ApplyMode,
    ) -> Result<Applied, OpError> {
        self.apply_change_placing(change, mode, None)
    }

    /// Applies `change` like [`Self::apply_change`], the current buffer's
    /// cursor going to `cursor` (a position in its new text): what a code
    /// command's edit does, the place part of the revision (`Redo` goes
    /// back there).
    pub(super) fn apply_change_placing(
        &mut self,
        change: &WorkspaceChange,
        mode: ApplyMode,
        cursor: Option<Position>,
    ) -> Result<Applied, OpError> {
        let place = cursor.map_or(Place::Kept, Place::At);
        self.apply_change_revising(change, mode, place, Revise::New)
    }

    /// A text command's edit of the current buffer: `edits` (chars of its
    /// text now) as a change of its current version, applied by the one
    /// applier like every other edit; the cursor goes to `place`, and
    /// `revise` says whether the edit is a revision of its own or folds
    /// into the last one.
    pub(super) fn edit_current(
        &mut self,
        edits: TextEdits,
        place: Place,
        revise: Revise,
    ) -> Result<Applied, OpError> {
        let buffer = self.current()?;
        let change = WorkspaceChange::edit(
            buffer.path().clone(),
            Base::Buffer {
                version: buffer.version(),
            },
            edits,
        );
        self.apply_change_revising(&change, ApplyMode::Buffers, place, revise)
    }

    fn apply_change_revising(
        &mut self,
        change: &WorkspaceChange,
        mode: ApplyMode,
        place: Place,
        revise: Revise,
    ) -> Result<Applied, OpError> {
        let plan = self.plan(change)?;
        if mode == ApplyMode::Buffers {
            if let Some(p) = plan
                .iter()
                .find(|p| p.before.is_none() || p.after.is_none())
            {
                return Err(OpError::new(
                    ErrorKind::NotApplicable,
                    format!(
                        "Creating, deleting or moving files needs a commit ({} would be {})",
                        p.path,
                        if p.after.is_none() {
                            "deleted"
                        } else {
                            "created"
                        }
                    ),
                ));
            }
        }
        let stamps = match mode {
            ApplyMode::Buffers => vec![None; plan.len()],
            ApplyMode::Commit => self.commit_plan(&plan)?,
        };
        // The files whose text the step changes: one revision each.
        let changed: Vec<WorkspacePath> = plan
            .iter()
            .filter(|p| p.after.as_ref().is_some_and(|(_, c)| !c.is_identity()))
            .map(|p| p.path.clone())
            .collect();
        let deletes = plan.iter().any(|p| p.after.is_none());
        let group = (changed.len() > 1 || deletes || mode == ApplyMode::Commit)
            .then(|| (self.session.next_step_id(), changed));
        let current = self.session.current.clone();
        let mut applied = Applied::default();
        if let Some((group, files)) = &group {
            // A committed step keeps what it wrote: its undo works from the
            // disk, whether its files are still open or not.
            let writes = match mode {
                ApplyMode::Buffers => Vec::new(),
                ApplyMode::Commit => plan
                    .iter()
                    .filter(|p| files.contains(&p.path))
                    .filter_map(|p| {
                        let before = p.before.as_ref()?;
                        let (after, change) = p.after.as_ref()?;
                        Some(StepWrite {
                            path: p.path.clone(),
                            change: change.clone(),
                            inverse: change.invert(before),
                            before: text_hash(before),
                            after: text_hash(after),
                        })
                    })
                    .collect(),
            };
            self.apply(Event::StepStarted {
                group: *group,
                files: files.clone(),
                committed: mode == ApplyMode::Commit,
                writes,
            })?;
        }
        for (planned, stamp) in plan.into_iter().zip(stamps) {
            applied.files.push(planned.path.clone());
            let Some(after) = planned.after else {
                if planned.open {
                    self.apply(Event::Closed {
                        path: planned.path.clone(),
                    })?;
                }
                continue;
            };
            let (after, edit) = after;
            let before = planned.before.unwrap_or_default();
            if !planned.open {
                self.apply(Event::Opened {
                    path: planned.path.clone(),
                    text: before.to_string(),
                    disk: planned.disk.clone(),
                })?;
                applied.opened.push(planned.path.clone());
            }
            let buffer = self.session.buffer(&planned.path).expect("opened above");
            let is_current = current.as_ref() == Some(&planned.path);
            let cursor = match place {
                Place::At(at) if is_current => at,
                Place::AtChar(at) if is_current => position::from_char(&after, at),
                _ => position::from_char(
                    &after,
                    edit.map_pos(buffer.cursor_char(), crate::edit::Assoc::Before),
                ),
            };
            if !edit.is_identity() {
                let path = planned.path.clone();
                self.apply(match revise {
                    Revise::Amend if is_current && group.is_none() => Event::Amended {
                        path,
                        change: edit,
                        cursor,
                    },
                    _ => Event::Edited {
                        path,
                        change: edit,
                        cursor,
                        group: group.as_ref().map(|(id, _)| *id),
                    },
                })?;
            }
            if let Some(disk) = stamp {
                applied.stamps.push((planned.path.clone(), disk.clone()));
                self.apply(Event::Saved {
                    path: planned.path.clone(),
                    disk,
                })?;
            }
        }
        if let Some(current) = current.filter(|c| self.session.buffers.contains_key(c)) {
            if self.session.current.as_ref() != Some(&current) {
                self.apply(Event::Switched { path: current })?;
            }
        }
        self.applied.push(change.clone());
        Ok(applied)
    }

    /// Phase one: every file checked against its base, its new text computed.
    fn plan(&self, change: &WorkspaceChange) -> Result<Vec<Planned>, OpError> {
        let mut plan = Vec::new();
        let mut problems = Vec::new();
        for (path, file) in change.files() {
            match self.plan_file(path, &file.base, &file.op) {
                Ok(mut planned) => plan.append(&mut planned),
                Err(problem) => problems.push(problem),
            }
        }
        if problems.is_empty() {
            Ok(plan)
        } else {
            Err(OpError::new(
                ErrorKind::Stale,
                format!(
                    "The change does not apply, nothing was changed: {}",
                    problems.join("; ")
                ),
            ))
        }
    }

    fn plan_file(
        &self,
        path: &WorkspacePath,
        base: &Base,
        op: &FileOp,
    ) -> Result<Vec<Planned>, String> {
        let buffer = self.session.buffer(path);
        let (before, disk, expect) = match (base, buffer) {
            (Base::Buffer { version }, Some(b)) if b.version() == *version => (
                Some(b.text().clone()),
                b.disk().cloned(),
                b.disk().cloned().map_or(Expect::Absent, Expect::Stamp),
            ),
            (Base::Buffer { version }, Some(b)) => {
                return Err(format!(
                    "{path} changed since the change was computed (version {version}, now {})",
                    b.version()
                ))
            }
            (Base::Buffer { .. }, None) => return Err(format!("{path} is not open")),
            (Base::Disk(stamp), Some(b)) => {
                if b.is_modified() {
                    return Err(format!("{path} has unsaved edits: Save or Undo them first"));
                }
                if b.disk().map(|d| &d.hash) != Some(&stamp.hash) {
                    return Err(format!(
                        "{path} changed on disk since the change was computed"
                    ));
                }
                (
                    Some(b.text().clone()),
                    Some(stamp.clone()),
                    Expect::Stamp(stamp.clone()),
                )
            }
            (Base::Disk(stamp), None) => {
                let loaded = self.workspace.read(path).map_err(|e| e.to_string())?;
                if loaded.stamp.hash != stamp.hash {
                    return Err(format!(
                        "{path} changed on disk since the change was computed"
                    ));
                }
                (
                    Some(Rope::from_str(&loaded.text)),
                    Some(loaded.stamp),
                    Expect::Stamp(stamp.clone()),
                )
            }
            // A new buffer of this session, not saved yet.
            (Base::Absent, Some(b)) if b.disk().is_none() => {
                (Some(b.text().clone()), None, Expect::Absent)
            }
            (Base::Absent, Some(_)) => return Err(format!("{path} exists")),
            (Base::Absent, None) => match self.workspace.stamp(path) {
                Ok(None) => (None, None, Expect::Absent),
                Ok(Some(_)) => return Err(format!("{path} exists")),
                Err(e) => return Err(e.to_string()),
            },
        };
        let open = buffer.is_some();
        let edited = |before: &Option<Rope>, edits: &crate::change::TextEdits| match before {
            Some(text) => {
                let fail = |e| format!("{path}: the edits do not fit the text ({e})");
                // the file's own line ending: an open buffer knows it
                let ending = buffer.map_or_else(|| LineEnding::detect(text), |b| b.line_ending());
                let change = edits
                    .to_change_set(text.len_chars(), ending)
                    .map_err(fail)?;
                let mut after = text.clone();
                change.apply(&mut after).map_err(fail)?;
                Ok((after, change))
            }
            None => Err(format!("{path} does not exist")),
        };
        let created = |text: &str| {
            let text = Rope::from_str(&LineEnding::Lf.apply(text));
            let change = ChangeSet::replace(0, 0, 0, &text.to_string()).expect("an insertion fits");
            (text, change)
        };
        let planned = |before, after, open, disk, expect| Planned {
            path: path.clone(),
            before,
            after,
            open,
            disk,
            expect,
        };
        Ok(match op {
            FileOp::Edit(edits) => {
                let after = edited(&before, edits)?;
                vec![planned(before, Some(after), open, disk, expect)]
            }
            FileOp::Create(text) => {
                if before.as_ref().is_some_and(|b| b.len_chars() > 0) {
                    return Err(format!("{path} exists"));
                }
                vec![planned(before, Some(created(text)), open, disk, expect)]
            }
            FileOp::Delete => {
                if before.is_none() {
                    return Err(format!("{path} does not exist"));
                }
                vec![planned(before, None, open, disk, expect)]
            }
            FileOp::Move { to, edits } => {
                // the new file's change is its whole text inserted (the
                // edits' change is against the old file's text)
                let (moved, _) = edited(&before, edits)?;
                let after = (
                    moved.clone(),
                    ChangeSet::replace(0, 0, 0, &moved.to_string()).expect("an insertion fits"),
                );
                if self.session.buffer(to).is_some()
                    || !matches!(self.workspace.stamp(to), Ok(None))
                {
                    return Err(format!("{to} exists: a move needs a new name"));
                }
                vec![
                    planned(before, None, open, disk, expect),
                    Planned {
                        path: to.clone(),
                        before: None,
                        after: Some(after),
                        open: false,
                        disk: None,
                        expect: Expect::Absent,
                    },
                ]
            }
        })
    }

    /// Phase two, on disk: one commit of every planned file.
    fn commit_plan(&mut self, plan: &[Planned]) -> Result<Vec<Option<DiskStamp>>, OpError> {
        let writes: Vec<FileWrite> = plan
            .iter()
            .map(|p| FileWrite {
                path: p.path.clone(),
                expect: p.expect.clone(),
                content: p
                    .after
                    .as_ref()
                    .map(|(text, _)| text.to_string().into_bytes()),
            })
            .collect();
        self.commit_writes(&writes, "change", commit_fail)
    }
}

/// A commit's failure as a reply: conflicts name the files and the way out.
pub(super) fn commit_fail(error: CommitError) -> OpError {
    match error {
        CommitError::Conflicts(_) => typed(
            ErrorKind::Stale,
            format!(
                "Conflict: {error}. Diff shows the difference; Close and Open take the new text"
            ),
        ),
        CommitError::Prepare(FileError::PermissionDenied(path)) => typed(
            ErrorKind::Unavailable,
            format!("Write permission denied: {path}; nothing was written"),
        ),
        other => typed(ErrorKind::Unavailable, other.to_string()),
    }
}

/// Which way a step goes.
pub(super) use crate::outcome::Direction;

impl Direction {
    pub(super) fn verb(self) -> &'static str {
        match self {
            Direction::Undo => "undo",
            Direction::Redo => "redo",
        }
    }
}

impl Ctx<'_> {
    /// Undoes or redoes the multi-file step `group` in all its files at
    /// once — on disk too, as one commit, when the step was committed. It
    /// refuses, naming the files, when one of them has moved on since
    /// (later edits, unsaved edits, another text on disk).
    pub(super) fn step(
        &mut self,
        group: u64,
        direction: Direction,
    ) -> Result<Vec<WorkspacePath>, OpError> {
        let step = self.session.steps.get(&group).cloned().ok_or_else(|| {
            OpError::new(
                ErrorKind::Internal,
                format!("Internal: step {group} is not recorded"),
            )
        })?;
        if step.committed && !step.writes.is_empty() {
            return self.step_on_disk(group, &step, direction);
        }
        let mut texts = Vec::new();
        let mut problems = Vec::new();
        for path in &step.files {
            let Some(buffer) = self.session.buffer(path) else {
                problems.push(format!("{path} was closed or deleted"));
                continue;
            };
            let revision = match direction {
                Direction::Undo => buffer.history().undo_stack().next(),
                Direction::Redo => buffer.history().redo_stack().next(),
            };
            let Some(revision) = revision.filter(|r| r.group == Some(group)) else {
                let mut history = buffer
                    .history()
                    .undo_stack()
                    .chain(buffer.history().redo_stack());
                problems.push(if history.any(|r| r.group == Some(group)) {
                    format!("{path} has later edits (undo those first)")
                } else {
                    format!("{path} changed on disk since and was reloaded")
                });
                continue;
            };
            if step.committed && buffer.is_modified() {
                problems.push(format!("{path} has unsaved edits"));
                continue;
            }
            let change = match direction {
                Direction::Undo => &revision.inverse,
                Direction::Redo => &revision.change,
            };
            let mut text = buffer.text().clone();
            change
                .apply(&mut text)
                .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
            texts.push((path.clone(), text));
        }
        if !problems.is_empty() {
            return Err(step_fail(direction, &step.files, &problems));
        }
        let stamps = if step.committed {
            // A step recorded before steps kept their writes: from the
            // buffers, each file expected as the buffer last saw it.
            let writes: Vec<FileWrite> = texts
                .iter()
                .map(|(path, text)| FileWrite {
                    path: path.clone(),
                    expect: self
                        .session
                        .buffer(path)
                        .and_then(|b| b.disk().cloned())
                        .map_or(Expect::Absent, Expect::Stamp),
                    content: Some(text.to_string().into_bytes()),
                })
                .collect();
            self.commit_writes(&writes, direction.verb(), commit_fail)?
        } else {
            vec![None; texts.len()]
        };
        for ((path, _), stamp) in texts.into_iter().zip(stamps) {
            self.apply(match direction {
                Direction::Undo => Event::Undone {
                    path: path.clone(),
                    count: 1,
                },
                Direction::Redo => Event::Redone {
                    path: path.clone(),
                    count: 1,
                },
            })?;
            if let Some(disk) = stamp {
                self.apply(Event::Saved { path, disk })?;
            }
        }
        Ok(step.files)
    }

    /// A committed step, undone or redone from what is on disk: each file
    /// must still hold what the step wrote (for a redo: what its undo
    /// left), by content hash, whether it is open here or not; then all of
    /// them are written as one commit through the one door of writes
    /// (other sessions' unsaved edits: carried, or refused on overlap).
    /// Open buffers follow: their own revision of the step when it is the
    /// next one, else the new text as a reload.
    fn step_on_disk(
        &mut self,
        group: u64,
        step: &Step,
        direction: Direction,
    ) -> Result<Vec<WorkspacePath>, OpError> {
        let undoing = direction == Direction::Undo;
        if step.undone == undoing {
            return Err(step_fail(
                direction,
                &step.files,
                &[format!(
                    "it is {} already",
                    if undoing { "undone" } else { "done" }
                )],
            ));
        }
        let mut writes = Vec::new();
        let mut problems = Vec::new();
        for write in &step.writes {
            let path = &write.path;
            let (expected, change) = match direction {
                Direction::Undo => (&write.after, &write.inverse),
                Direction::Redo => (&write.before, &write.change),
            };
            if self.session.buffer(path).is_some_and(|b| b.is_modified()) {
                problems.push(format!(
                    "{path} has unsaved edits here (Save or Undo them first)"
                ));
                continue;
            }
            let loaded = match self.workspace.read(path) {
                Ok(loaded) => loaded,
                Err(FileError::NotFound(_)) => {
                    problems.push(format!("{path} was deleted since"));
                    continue;
                }
                Err(e) => {
                    problems.push(format!("{path}: {e}"));
                    continue;
                }
            };
            if loaded.stamp.hash != *expected {
                problems.push(format!(
                    "{path} changed on disk since the step {}",
                    if undoing { "wrote it" } else { "was undone" }
                ));
                continue;
            }
            let mut text = Rope::from_str(&loaded.text);
            if change.apply(&mut text).is_err() {
                problems.push(format!("{path} changed on disk since the step"));
                continue;
            }
            writes.push(FileWrite {
                path: path.clone(),
                expect: Expect::Stamp(loaded.stamp),
                content: Some(text.to_string().into_bytes()),
            });
        }
        if !problems.is_empty() {
            return Err(step_fail(direction, &step.files, &problems));
        }
        let stamps = self.commit_writes(&writes, direction.verb(), commit_fail)?;
        for (write, stamp) in writes.into_iter().zip(stamps) {
            let (path, Some(disk)) = (write.path, stamp) else {
                continue;
            };
            let Some(buffer) = self.session.buffer(&path) else {
                continue;
            };
            let history = buffer.history();
            let next = match direction {
                Direction::Undo => history.undo_stack().next(),
                Direction::Redo => history.redo_stack().next(),
            };
            if next.is_some_and(|r| r.group == Some(group)) {
                self.apply(match direction {
                    Direction::Undo => Event::Undone {
                        path: path.clone(),
                        count: 1,
                    },
                    Direction::Redo => Event::Redone {
                        path: path.clone(),
                        count: 1,
                    },
                })?;
                self.apply(Event::Saved { path, disk })?;
            } else {
                let text = String::from_utf8(write.content.unwrap_or_default())
                    .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
                self.apply(Event::Reloaded { path, text, disk })?;
            }
        }
        self.apply(Event::StepWalked {
            group,
            undone: undoing,
        })?;
        Ok(step.files.clone())
    }
}

/// `Cannot undo the step that changed a.py, b.py: <problems>`.
fn step_fail(direction: Direction, files: &[WorkspacePath], problems: &[String]) -> OpError {
    OpError::new(
        ErrorKind::Stale,
        format!(
            "Cannot {} the step that changed {}: {}",
            direction.verb(),
            names(files),
            problems.join("; ")
        ),
    )
}

/// `a.py, b.py`, or the first few and how many more.
fn names(paths: &[WorkspacePath]) -> String {
    const SHOWN: usize = 5;
    let mut shown: Vec<&str> = paths.iter().take(SHOWN).map(|p| p.as_str()).collect();
    if paths.len() > SHOWN {
        shown.push("…");
        return format!("{} ({} files)", shown.join(", "), paths.len());
    }
    shown.join(", ")
}

#[cfg(test)]
mod tests {
    /// Every edit a session makes is a `WorkspaceChange` through this
    /// applier: no other engine or server code makes an edit event of its
    /// own (matching one, as `code.rs` does to see what changed, is fine).
    #[test]
    fn only_the_applier_makes_edit_events() {
        let core = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let made = regex::Regex::new(r"Event::(Edited|Amended)\s*\{[^}]*\}").unwrap();
        let mut offenders = Vec::new();
        for dir in [core.join("engine"), core.join("../../../src")] {
            for file in rust_files(&dir) {
                if file.ends_with("engine/apply.rs")
                    || file.components().any(|c| c.as_os_str() == "tests")
                {
                    continue;
                }
                let text = std::fs::read_to_string(&file).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or("");
                if made.find_iter(code).any(|m| !m.as_str().contains("..")) {
                    offenders.push(file.display().to_string());
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "edit events made outside the applier: {offenders:?}"
        );
    }

    fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(rust_files(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
        files
    }
}
