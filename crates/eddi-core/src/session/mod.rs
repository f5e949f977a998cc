//! Sessions: what one sender is doing — its open files, the current file,
//! cursors, bookmarks, context stack, preferences, change record and named
//! changesets.
//!
//! **Invariant:** a session changes only through [`Session::apply`] with an
//! [`Event`]; each applied event is queued for the journal, so what the
//! store persists is exactly what happened. Sessions do no I/O.

mod buffer;
pub mod changesets;
mod event;
pub mod lock;
pub mod store;
mod summary;

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use crate::commands::{ReplyDetail, ResponseFormat};
use crate::edit::{position, ChangeSet, Position};
use crate::workspace::WorkspacePath;

pub use buffer::Buffer;
pub use changesets::{ChangesetError, ChangesetName, ChangesetState, Changesets, NamedChangeset};
pub use event::Event;
pub use summary::Summary;

/// How many answered request ids a session remembers for de-duplication.
pub const ANSWERED_WINDOW: usize = 256;

/// Per-session preferences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preferences {
    pub format: ResponseFormat,
    /// Output budget in chars before long replies are shortened in tiers.
    pub output_limit: usize,
    /// Brief or full success replies; absent in state dirs written before
    /// it existed, which load as full.
    #[serde(default)]
    pub replies: ReplyDetail,
    /// `Set Preview on`: a refactor shows its preview and waits for `Apply`.
    #[serde(default)]
    pub preview: bool,
    /// `Set Progress on`: long commands say how far they are on the
    /// transport's progress channel.
    #[serde(default)]
    pub progress: bool,
}

/// A position in a file that follows edits (bookmarks, saved contexts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub path: WorkspacePath,
    /// Char offset in the file's current text.
    pub offset: usize,
}

/// A refactor previewed in preview mode, waiting for `Apply`: what was
/// asked, the content hash of every file the preview would change, and —
/// while this process runs — the change the preview computed, which
/// `Apply` applies without computing it again.
///
/// The journal keeps the request and the hashes only: after a restart
/// `Apply` computes the refactor again (once, in the session's current
/// file) and refuses if any file it changes moved on since the preview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingRefactor {
    pub refactoring: crate::refactor::Refactoring,
    pub files: Vec<(WorkspacePath, String)>,
    #[serde(skip)]
    pub computed: Option<std::sync::Arc<ComputedRefactor>>,
}

/// What a preview computed, kept in memory for `Apply`.
#[derive(Debug, PartialEq, Eq)]
pub struct ComputedRefactor {
    /// Where it was computed from (the file and position its request
    /// worked in).
    pub place: Option<crate::refactor::Cursor>,
    pub refactored: crate::refactor::Refactored,
    /// What the result depends on beyond the files it changes: every file
    /// the index held and the session's unsaved buffers, as one hash. When
    /// it is the same at `Apply`, a new computation would give the same
    /// change; when it is not, `Apply` computes the refactor again.
    pub project: String,
}

/// A `Replace All … In Files` previewed in preview mode, waiting for
/// `Apply`: the command, and the change it computed — each file's edits
/// with the disk stamp they were computed on — so `Apply` writes exactly
/// what was previewed, or nothing when a file moved on meanwhile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingReplace {
    /// The command as it reads (`Replace All "a" With "b" In Files "*.py"`).
    pub command: String,
    pub files: Vec<PendingFile>,
    /// Files searched, and those skipped with why (for the reply).
    pub searched: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<(String, String)>,
}

/// One file of a [`PendingReplace`]: its edits, `(start, end, new text)`
/// in chars of the text `base` describes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingFile {
    pub path: WorkspacePath,
    pub base: crate::workspace::DiskStamp,
    pub edits: Vec<(usize, usize, String)>,
}

/// A `Replace Confirm` walk waiting for `y`, `n` or `q`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfirmWalk {
    pub path: WorkspacePath,
    /// The pattern as a regex (literal text is escaped).
    pub regex: String,
    pub replacement: String,
    /// Whether `$1` in the replacement expands captures.
    pub expand: bool,
    /// The match being asked about, in chars.
    pub current: (usize, usize),
    pub replaced: usize,
    /// `Replace Confirm … In <scope>`: where the scope ends (chars, kept
    /// up to date as replacements change the text); `None`: the file's end.
    #[serde(default)]
    pub scope_end: Option<usize>,
}

/// One step of a session that changed several files (a multi-file change):
/// each file's revision of the step carries the step's group id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub files: Vec<WorkspacePath>,
    /// The step was committed to disk: undoing or redoing it writes the
    /// files again, as one commit.
    pub committed: bool,
    /// What a committed step wrote to each file: undo and redo work from
    /// these and the disk, whether the files are open or not (empty in
    /// steps recorded before they were kept, which undo through buffers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<StepWrite>,
    /// The committed step is undone (on disk): `Redo` takes it again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undone: bool,
}

/// One file a committed step wrote: the change, its inverse, and the
/// content hashes of the text before and after it, against which an undo
/// or redo checks the disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepWrite {
    pub path: WorkspacePath,
    pub change: ChangeSet,
    pub inverse: ChangeSet,
    pub before: String,
    pub after: String,
}

/// A reply given to a request id, kept for retries of that id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answered {
    pub id: String,
    pub reply: String,
    pub ok: bool,
}

/// What a session knows of a file it touched, for `Summary`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileRecord {
    /// The text when first opened; `None` if the file did not exist.
    pub original: Option<String>,
    /// The text last saved by this session.
    pub saved: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    pub name: String,
    pub description: Option<String>,
    pub sender: String,
    pub started: String,
    pub buffers: BTreeMap<WorkspacePath, Buffer>,
    pub current: Option<WorkspacePath>,
    pub bookmarks: BTreeMap<String, Mark>,
    pub contexts: Vec<Option<Mark>>,
    pub preferences: Preferences,
    pub confirm: Option<ConfirmWalk>,
    /// A previewed refactor waiting for `Apply` or `Discard`.
    #[serde(default)]
    pub pending: Option<PendingRefactor>,
    /// A previewed `Replace All … In Files` waiting for `Apply` or
    /// `Discard` (at most one of it and `pending` waits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_replace: Option<PendingReplace>,
    pub files: BTreeMap<WorkspacePath, FileRecord>,
    pub answered: VecDeque<Answered>,
    /// Steps that changed several files at once, by group id (see
    /// `Revision::group`): they undo and redo as one.
    #[serde(default)]
    pub steps: BTreeMap<u64, Step>,
    /// The step this session did last, while nothing has been edited,
    /// undone or redone since: `Undo` takes it back first, whichever file
    /// is current (a refactor need not change the current file).
    #[serde(default)]
    pub last_step: Option<u64>,
    /// What happened to this session while it was not running a message
    /// (another session's write carried into its buffers, idle buffers
    /// released): said with its next reply, then cleared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
    /// Named changesets (see [`changesets`]); changed only by events.
    #[serde(default, skip_serializing_if = "Changesets::is_empty")]
    pub changesets: Changesets,
    /// The variables scripts' top levels defined, for later messages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub script_variables: Vec<crate::script::run::Defined>,
    /// The review list of the last script that flagged any
    /// (`path:line: message`), for `Summary`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub script_flagged: Vec<crate::script::run::Flagged>,
    /// Events applied since the store last took them.
    #[serde(skip)]
    unpersisted: Vec<Event>,
}

/// Why an event could not be applied (a bug in the engine, or a corrupt journal).
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    #[error("file not open: {0}")]
    NotOpen(WorkspacePath),
    #[error("edit does not fit {path}: {source}")]
    Change {
        path: WorkspacePath,
        source: crate::edit::ChangeError,
    },
    #[error("no context to pop")]
    NoContext,
    #[error(transparent)]
    Changeset(#[from] ChangesetError),
}

impl Session {
    pub fn new(
        name: String,
        description: Option<String>,
        sender: String,
        started: String,
        preferences: Preferences,
    ) -> Session {
        Session {
            name,
            description,
            sender,
            started,
            buffers: BTreeMap::new(),
            current: None,
            bookmarks: BTreeMap::new(),
            contexts: Vec::new(),
            preferences,
            confirm: None,
            pending: None,
            pending_replace: None,
            files: BTreeMap::new(),
            answered: VecDeque::new(),
            steps: BTreeMap::new(),
            last_step: None,
            notices: Vec::new(),
            changesets: Changesets::default(),
            script_variables: Vec::new(),
            script_flagged: Vec::new(),
            unpersisted: Vec::new(),
        }
    }

    pub fn current_buffer(&self) -> Option<&Buffer> {
        self.current
            .as_ref()
            .and_then(|path| self.buffers.get(path))
    }

    pub fn buffer(&self, path: &WorkspacePath) -> Option<&Buffer> {
        self.buffers.get(path)
    }

    /// The reply already given to request `id`, if it is in the window.
    pub fn answered(&self, id: &str) -> Option<&Answered> {
        self.answered.iter().find(|answer| answer.id == id)
    }

    /// Applies an event and queues it for the journal.
    pub fn apply(&mut self, event: Event) -> Result<(), EventError> {
        self.replay(&event)?;
        self.unpersisted.push(event);
        Ok(())
    }

    /// The events applied and not yet taken by the journal.
    pub fn unpersisted(&self) -> &[Event] {
        &self.unpersisted
    }

    /// Takes the events applied since the last call, for the journal.
    pub fn take_unpersisted(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.unpersisted)
    }

    /// Puts back events taken that could not be written, before any queued
    /// since: the journal must hold every applied event, in order, or a
    /// later event would not fit the text it replays onto.
    pub fn requeue_unpersisted(&mut self, mut events: Vec<Event>) {
        events.append(&mut self.unpersisted);
        self.unpersisted = events;
    }

    /// Applies an event without queueing it (restoring from the journal).
    pub fn replay(&mut self, event: &Event) -> Result<(), EventError> {
        match event {
            Event::Opened { path, text, disk } => {
                self.files
                    .entry(path.clone())
                    .or_insert_with(|| FileRecord {
                        original: disk.as_ref().map(|_| text.clone()),
                        saved: None,
                    });
                self.buffers
                    .insert(path.clone(), Buffer::new(path.clone(), text, disk.clone()));
                self.current = Some(path.clone());
            }
            Event::Switched { path } => {
                self.open(path)?;
                self.current = Some(path.clone());
            }
            Event::Closed { path } => {
                self.open(path)?;
                self.buffers.remove(path);
                if self.current.as_ref() == Some(path) {
                    self.current = self.buffers.keys().next().cloned();
                }
                if self.confirm.as_ref().is_some_and(|walk| &walk.path == path) {
                    self.confirm = None;
                }
            }
            Event::Moved { path, to } => self.open_mut(path)?.set_cursor(*to),
            Event::Edited {
                path,
                change,
                cursor,
                group,
            } => {
                if group.is_none() {
                    self.last_step = None;
                }
                self.open_mut(path)?
                    .edit_in_step(change.clone(), *cursor, *group)
                    .map_err(|source| EventError::Change {
                        path: path.clone(),
                        source,
                    })?;
                self.map_marks(path, std::slice::from_ref(change));
            }
            Event::Amended {
                path,
                change,
                cursor,
            } => {
                self.last_step = None;
                self.open_mut(path)?
                    .amend(change.clone(), *cursor)
                    .map_err(|source| EventError::Change {
                        path: path.clone(),
                        source,
                    })?;
                self.map_marks(path, std::slice::from_ref(change));
            }
            Event::Undone { path, count } => {
                self.last_step = None;
                let changes = self.open_mut(path)?.undo(*count);
                self.map_marks(path, &changes);
            }
            Event::Redone { path, count } => {
                self.last_step = None;
                let changes = self.open_mut(path)?.redo(*count);
                self.map_marks(path, &changes);
            }
            Event::Saved { path, disk } => {
                let buffer = self.open_mut(path)?;
                buffer.mark_saved(disk.clone());
                let text = buffer.text().to_string();
                self.files
                    .entry(path.clone())
                    .or_insert(FileRecord {
                        original: None,
                        saved: None,
                    })
                    .saved = Some(text);
            }
            Event::Reloaded { path, text, disk } => {
                let (buffer, moved) = self.open(path)?.reloaded(text, disk.clone());
                self.buffers.insert(path.clone(), buffer);
                self.map_marks(path, &[moved]);
            }
            Event::StepStarted {
                group,
                files,
                committed,
                writes,
            } => {
                self.last_step = Some(*group);
                self.steps.insert(
                    *group,
                    Step {
                        files: files.clone(),
                        committed: *committed,
                        writes: writes.clone(),
                        undone: false,
                    },
                );
            }
            Event::StepWalked { group, undone } => {
                self.last_step = None;
                if let Some(step) = self.steps.get_mut(group) {
                    step.undone = *undone;
                }
            }
            Event::Rebased {
                path,
                change,
                unsaved_inverse,
                disk,
            } => {
                let buffer = self
                    .open(path)?
                    .rebased(change, unsaved_inverse, disk.clone());
                let buffer = buffer.map_err(|source| EventError::Change {
                    path: path.clone(),
                    source,
                })?;
                self.buffers.insert(path.clone(), buffer);
                self.map_marks(path, std::slice::from_ref(change));
            }
            Event::Noticed { text } => self.notices.push(text.clone()),
            Event::NoticesSaid => self.notices.clear(),
            Event::DiskNoticed { path, key } => self.open_mut(path)?.set_noticed(key.clone()),
            Event::Bookmarked { name, path, at } => {
                let buffer = self.open(path)?;
                let offset = position::to_char(buffer.text(), position::clamp(buffer.text(), *at))
                    .unwrap_or(0);
                self.bookmarks.insert(
                    name.clone(),
                    Mark {
                        path: path.clone(),
                        offset,
                    },
                );
            }
            Event::ContextPushed => {
                let mark = self.current_buffer().map(|b| Mark {
                    path: b.path().clone(),
                    offset: b.cursor_char(),
                });
                self.contexts.push(mark);
            }
            Event::ContextPopped => {
                let mark = self.contexts.pop().ok_or(EventError::NoContext)?;
                if let Some(Mark { path, offset }) = mark {
                    if let Some(buffer) = self.buffers.get_mut(&path) {
                        let to = position::from_char(buffer.text(), offset);
                        buffer.set_cursor(to);
                        self.current = Some(path);
                    }
                }
            }
            Event::PreferencesSet(preferences) => self.preferences = preferences.clone(),
            Event::Confirming { walk } => self.confirm = walk.clone(),
            Event::Pending { refactor } => self.pending = refactor.clone(),
            Event::PendingReplace { replace } => self.pending_replace = replace.clone(),
            Event::ChangesetCreated { name, at } => self.changesets.create(name, at)?,
            Event::ChangesetAdded { name, change, at } => {
                self.changesets.add_change(name, change, at)?
            }
            Event::ChangesetApplied { name, step, at } => {
                self.changesets.mark_applied(name, *step, at, &self.steps)?
            }
            Event::ChangesetRolledBack { name, at } => {
                self.changesets.mark_rolled_back(name, at)?
            }
            Event::ChangesetDropped { name } => self.changesets.remove(name)?,
            Event::ScriptFlagged { items } => self.script_flagged = items.clone(),
            Event::ScriptVariables { defined } => {
                for variable in defined {
                    self.script_variables.retain(|v| v.name != variable.name);
                    self.script_variables.push(variable.clone());
                }
            }
            Event::Answered { id, reply, ok } => {
                // A reply corrected after the fact (persisting failed)
                // replaces the one noted first.
                self.answered.retain(|answer| answer.id != *id);
                if self.answered.len() == ANSWERED_WINDOW {
                    self.answered.pop_front();
                }
                self.answered.push_back(Answered {
                    id: id.clone(),
                    reply: reply.clone(),
                    ok: *ok,
                });
            }
        }
        Ok(())
    }

    fn open(&self, path: &WorkspacePath) -> Result<&Buffer, EventError> {
        self.buffers
            .get(path)
            .ok_or_else(|| EventError::NotOpen(path.clone()))
    }

    fn open_mut(&mut self, path: &WorkspacePath) -> Result<&mut Buffer, EventError> {
        self.buffers
            .get_mut(path)
            .ok_or_else(|| EventError::NotOpen(path.clone()))
    }

    /// Moves bookmarks and saved contexts of `path` through applied changes.
    fn map_marks(&mut self, path: &WorkspacePath, changes: &[ChangeSet]) {
        let marks = self
            .bookmarks
            .values_mut()
            .chain(self.contexts.iter_mut().flatten());
        for mark in marks.filter(|m| &m.path == path) {
            for change in changes {
                mark.offset = Buffer::map(change, mark.offset);
            }
        }
    }

    /// Checks what a snapshot holds beyond its types: each applied
    /// changeset names a step of its own that the session has.
    pub fn check(&self) -> Result<(), EventError> {
        Ok(self.changesets.check(&self.steps)?)
    }

    /// A new id for a step that spans several files.
    pub fn next_step_id(&self) -> u64 {
        self.steps.keys().next_back().map_or(1, |last| last + 1)
    }

    /// The position of a bookmark, if its file is open.
    pub fn bookmark(&self, name: &str) -> Option<(WorkspacePath, Position)> {
        let mark = self.bookmarks.get(name)?;
        let buffer = self.buffers.get(&mark.path)?;
        Some((
            mark.path.clone(),
            position::from_char(buffer.text(), mark.offset),
        ))
    }
}
