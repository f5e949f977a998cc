//! Session events: every change to a session's state, as data.
//!
//! The engine never mutates a session directly: it computes events and
//! hands them to [`super::Session::apply`]. The same events, appended to the
//! session's journal, replay the session after a restart — so persistence
//! costs the size of the change, not of the file.

use serde::{Deserialize, Serialize};

use crate::change::WorkspaceChange;
use crate::edit::{ChangeSet, Position};
use crate::workspace::{DiskStamp, WorkspacePath};

use super::{ChangesetName, ConfirmWalk, Preferences, StepWrite};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A file was opened (or created as a new buffer) and became current.
    Opened {
        path: WorkspacePath,
        text: String,
        disk: Option<DiskStamp>,
    },
    /// An open file became the current one.
    Switched {
        path: WorkspacePath,
    },
    Closed {
        path: WorkspacePath,
    },
    /// The cursor of an open file moved.
    Moved {
        path: WorkspacePath,
        to: Position,
    },
    /// A change applied as a new undo step.
    Edited {
        path: WorkspacePath,
        change: ChangeSet,
        cursor: Position,
        /// The multi-file step this edit is part of (see `StepStarted`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        group: Option<u64>,
    },
    /// A step that changes several files begins: the `Edited` events of
    /// `group` that follow undo and redo together.
    StepStarted {
        group: u64,
        files: Vec<WorkspacePath>,
        committed: bool,
        /// What a committed step wrote, file by file (see `StepWrite`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        writes: Vec<StepWrite>,
    },
    /// A committed step was undone (`undone`) or redone on disk.
    StepWalked {
        group: u64,
        undone: bool,
    },
    /// Another session's write reached this file on disk and was carried
    /// into this buffer under its unsaved edits: `change` (on the buffer's
    /// text) brings the write in; `unsaved_inverse` takes the result back
    /// to the new disk text, so the unsaved edits stay one undo step on it.
    Rebased {
        path: WorkspacePath,
        change: ChangeSet,
        unsaved_inverse: ChangeSet,
        disk: DiskStamp,
    },
    /// Something to tell the sender with its next reply.
    Noticed {
        text: String,
    },
    /// The waiting notices were said.
    NoticesSaid,
    /// A change folded into the last undo step.
    Amended {
        path: WorkspacePath,
        change: ChangeSet,
        cursor: Position,
    },
    Undone {
        path: WorkspacePath,
        count: usize,
    },
    Redone {
        path: WorkspacePath,
        count: usize,
    },
    /// The buffer's text was written to disk.
    Saved {
        path: WorkspacePath,
        disk: DiskStamp,
    },
    /// The file on disk changed under an unmodified buffer, which took the new text.
    Reloaded {
        path: WorkspacePath,
        text: String,
        disk: DiskStamp,
    },
    /// The sender was told that the file changed on disk (`key`: the new
    /// hash, or `deleted`), or (`None`) the file is back in step.
    DiskNoticed {
        path: WorkspacePath,
        key: Option<String>,
    },
    Bookmarked {
        name: String,
        path: WorkspacePath,
        at: Position,
    },
    ContextPushed,
    ContextPopped,
    PreferencesSet(Preferences),
    /// A `Replace Confirm` walk started, advanced or ended (`None`).
    Confirming {
        walk: Option<ConfirmWalk>,
    },
    /// A refactor preview started waiting for `Apply`, or (`None`) stopped.
    Pending {
        refactor: Option<crate::session::PendingRefactor>,
    },
    /// A `Replace All … In Files` preview started waiting for `Apply`, or
    /// (`None`) stopped.
    PendingReplace {
        replace: Option<crate::session::PendingReplace>,
    },
    /// A named changeset was created, empty (`at`: when, RFC 3339).
    ChangesetCreated {
        name: ChangesetName,
        at: String,
    },
    /// A change joined a named changeset (their union; see
    /// `session::changesets`).
    ChangesetAdded {
        name: ChangesetName,
        change: WorkspaceChange,
        at: String,
    },
    /// A named changeset was applied as the multi-file step `step` (its
    /// `StepStarted` comes first).
    ChangesetApplied {
        name: ChangesetName,
        step: u64,
        at: String,
    },
    /// An applied changeset's step was undone (its `StepWalked` comes first).
    ChangesetRolledBack {
        name: ChangesetName,
        at: String,
    },
    /// A named changeset was dropped.
    ChangesetDropped {
        name: ChangesetName,
    },
    /// A script flagged these items (`path:line: message`): the review
    /// list `Summary` shows, until the next script that flags.
    ScriptFlagged {
        items: Vec<crate::script::run::Flagged>,
    },
    /// A script's top level defined these variables (their queries, run
    /// again where a later message uses them); a name defined again
    /// replaces the earlier one.
    ScriptVariables {
        defined: Vec<crate::script::run::Defined>,
    },
    /// A request id and the reply it got, for retry de-duplication.
    Answered {
        id: String,
        reply: String,
        ok: bool,
    },
}

impl Event {
    /// Whether the event must reach the disk before the reply: those of
    /// commands that edit a buffer or write a file (the `Edit` and `Write`
    /// effects of `commands::Effect`), and those of named changesets (a
    /// script's collected work is worth more than a cursor). The others (opening and closing buffers,
    /// reloads, cursor moves, bookmarks, preferences, answered ids) are
    /// written but not synced: they survive a killed process, an OS crash
    /// loses at most those — and the next synced event syncs them too.
    pub fn needs_fsync(&self) -> bool {
        matches!(
            self,
            Event::Edited { .. }
                | Event::StepStarted { .. }
                | Event::StepWalked { .. }
                | Event::Rebased { .. }
                | Event::Amended { .. }
                | Event::Undone { .. }
                | Event::Redone { .. }
                | Event::Saved { .. }
                | Event::ChangesetCreated { .. }
                | Event::ChangesetAdded { .. }
                | Event::ChangesetApplied { .. }
                | Event::ChangesetRolledBack { .. }
                | Event::ChangesetDropped { .. }
        )
    }
}
