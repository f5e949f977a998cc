//! The multi-file change: what every edit computation produces and the one
//! applier consumes.
//!
//! A [`WorkspaceChange`] says, for each file (a canonical workspace path),
//! what to do with it — edit its text with a checked set of [`TextEdits`],
//! create it, delete it or move it — and what the change was computed
//! against (its [`Base`]: a buffer version, a disk stamp, or "absent"), so
//! applying a stale change fails instead of corrupting text. It also
//! carries [`Annotation`]s: what was deliberately left alone and why.
//!
//! Names: `edit::ChangeSet` is one document's Retain/Delete/Insert
//! operations (the undo algebra); a `WorkspaceChange` is many files' edits
//! in char ranges (what refactors and code commands compute); a session's
//! named changesets (`session::changesets`) collect `WorkspaceChange`s.
//!
//! **Invariants:** computing a change never touches disk or buffers; the
//! constructors keep every file's edits sorted and non-overlapping, and a
//! union of two changes fails on any conflict instead of guessing. Offsets
//! are chars of the base text; inserted text uses `\n` line endings (the
//! applier writes the file's own; a `\r\n` in it is kept as it is).
//!
//! **Persisted** (a session's named changesets are journaled): a change
//! serializes as data and deserializes only through the same checks —
//! every path checked relative ([`WorkspacePath::from_persisted`]), every
//! file's edits through [`TextEdits::new`], move destinations checked as
//! [`WorkspaceChange::union`] checks them, annotation ranges not inverted —
//! so a corrupt state file is refused, never trusted.

mod text_edits;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::workspace::{DiskStamp, WorkspacePath};

pub use text_edits::{Indel, TextEdits};

/// What a file's part of a change was computed against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Base {
    /// The text of the applying session's open buffer at this version.
    Buffer { version: u64 },
    /// The file on disk, as this stamp describes it.
    Disk(DiskStamp),
    /// A file that does not exist (yet).
    Absent,
}

/// What happens to one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileOp {
    /// Its text is edited in place.
    Edit(TextEdits),
    /// It is created with this text (its base is [`Base::Absent`]).
    Create(String),
    /// It is deleted.
    Delete,
    /// It is moved to another path, its text edited on the way (the
    /// destination must not exist).
    Move { to: WorkspacePath, edits: TextEdits },
}

/// One file's part of a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChange {
    pub base: Base,
    pub op: FileOp,
}

/// Something the change deliberately did not do, for the user to confirm
/// or do by hand (a "possible" reference, a dynamic `getattr` use …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotation {
    pub path: WorkspacePath,
    /// Char range in the file's base text.
    pub range: std::ops::Range<usize>,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeError {
    #[error("overlapping edits in {path} at chars {first:?} and {second:?}")]
    Overlap {
        path: WorkspacePath,
        first: std::ops::Range<usize>,
        second: std::ops::Range<usize>,
    },
    #[error("{path} is changed twice in incompatible ways ({why})")]
    Conflict { path: WorkspacePath, why: String },
    #[error("{0} is the destination of a move and also changed otherwise")]
    MoveTarget(WorkspacePath),
    #[error("annotation of {path} has an inverted range {range:?}")]
    InvertedAnnotation {
        path: WorkspacePath,
        range: std::ops::Range<usize>,
    },
}

/// A change to any number of files of the workspace. See the module doc.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ChangeRecord", into = "ChangeRecord")]
pub struct WorkspaceChange {
    files: BTreeMap<WorkspacePath, FileChange>,
    annotations: Vec<Annotation>,
}

/// A [`WorkspaceChange`] as persisted: its fields, unchecked until
/// [`WorkspaceChange::try_from`] checks them.
#[derive(Serialize, Deserialize)]
struct ChangeRecord {
    files: BTreeMap<WorkspacePath, FileChange>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    annotations: Vec<Annotation>,
}

impl TryFrom<ChangeRecord> for WorkspaceChange {
    type Error = ChangeError;

    /// Edits arrive checked (`TextEdits` deserializes through its
    /// constructor); this checks what spans files.
    fn try_from(record: ChangeRecord) -> Result<WorkspaceChange, ChangeError> {
        check_move_targets(&record.files)?;
        if let Some(bad) = record
            .annotations
            .iter()
            .find(|a| a.range.start > a.range.end)
        {
            return Err(ChangeError::InvertedAnnotation {
                path: bad.path.clone(),
                range: bad.range.clone(),
            });
        }
        Ok(WorkspaceChange {
            files: record.files,
            annotations: record.annotations,
        })
    }
}

impl From<WorkspaceChange> for ChangeRecord {
    fn from(change: WorkspaceChange) -> ChangeRecord {
        ChangeRecord {
            files: change.files,
            annotations: change.annotations,
        }
    }
}

impl WorkspaceChange {
    pub fn new() -> WorkspaceChange {
        WorkspaceChange::default()
    }

    /// A change of one file's text.
    pub fn edit(path: WorkspacePath, base: Base, edits: TextEdits) -> WorkspaceChange {
        let mut change = WorkspaceChange::new();
        change.files.insert(
            path,
            FileChange {
                base,
                op: FileOp::Edit(edits),
            },
        );
        change
    }

    /// Adds one file's part; fails when the file is already part of the
    /// change in a way that does not combine (see [`Self::union`]).
    pub fn insert(&mut self, path: WorkspacePath, file: FileChange) -> Result<(), ChangeError> {
        let mut other = WorkspaceChange::new();
        other.files.insert(path, file);
        self.union_in_place(other)
    }

    pub fn annotate(&mut self, annotation: Annotation) {
        self.annotations.push(annotation);
    }

    /// Both changes at once. Edits of one file combine when they were
    /// computed against the same base and do not overlap; anything else
    /// touching a file twice (two creations, an edit of a deleted file, a
    /// move onto a changed file …) is a conflict.
    pub fn union(mut self, other: WorkspaceChange) -> Result<WorkspaceChange, ChangeError> {
        self.union_in_place(other)?;
        Ok(self)
    }

    fn union_in_place(&mut self, other: WorkspaceChange) -> Result<(), ChangeError> {
        let mut merged = self.files.clone();
        for (path, theirs) in other.files {
            let combined = match merged.remove(&path) {
                None => theirs,
                Some(ours) => combine(&path, ours, theirs)?,
            };
            merged.insert(path, combined);
        }
        check_move_targets(&merged)?;
        self.files = merged;
        self.annotations.extend(other.annotations);
        Ok(())
    }

    pub fn files(&self) -> impl Iterator<Item = (&WorkspacePath, &FileChange)> {
        self.files.iter()
    }

    pub fn file(&self, path: &WorkspacePath) -> Option<&FileChange> {
        self.files.get(path)
    }

    pub fn annotations(&self) -> &[Annotation] {
        &self.annotations
    }

    pub fn is_empty(&self) -> bool {
        self.files.values().all(|file| match &file.op {
            FileOp::Edit(edits) => edits.is_empty(),
            _ => false,
        })
    }

    /// Every path the change writes: its files and the destinations of moves.
    pub fn touched(&self) -> Vec<&WorkspacePath> {
        let mut paths: Vec<&WorkspacePath> = self.files.keys().collect();
        for file in self.files.values() {
            if let FileOp::Move { to, .. } = &file.op {
                paths.push(to);
            }
        }
        paths.sort();
        paths
    }
}

/// A move's destination may not be touched by anything else, another move
/// onto it included.
fn check_move_targets(files: &BTreeMap<WorkspacePath, FileChange>) -> Result<(), ChangeError> {
    let mut destinations = std::collections::BTreeSet::new();
    for file in files.values() {
        if let FileOp::Move { to, .. } = &file.op {
            if files.contains_key(to) || !destinations.insert(to) {
                return Err(ChangeError::MoveTarget(to.clone()));
            }
        }
    }
    Ok(())
}

fn combine(
    path: &WorkspacePath,
    ours: FileChange,
    theirs: FileChange,
) -> Result<FileChange, ChangeError> {
    let conflict = |why: &str| ChangeError::Conflict {
        path: path.clone(),
        why: why.to_owned(),
    };
    if ours.base != theirs.base {
        return Err(conflict("computed against different versions of the file"));
    }
    match (ours.op, theirs.op) {
        (FileOp::Edit(a), FileOp::Edit(b)) => Ok(FileChange {
            base: ours.base,
            op: FileOp::Edit(a.union(b).map_err(|(first, second)| ChangeError::Overlap {
                path: path.clone(),
                first,
                second,
            })?),
        }),
        (FileOp::Delete, FileOp::Delete) => Ok(FileChange {
            base: ours.base,
            op: FileOp::Delete,
        }),
        (a, b) => Err(conflict(&format!("{} and {}", op_name(&a), op_name(&b)))),
    }
}

fn op_name(op: &FileOp) -> &'static str {
    match op {
        FileOp::Edit(_) => "edited",
        FileOp::Create(_) => "created",
        FileOp::Delete => "deleted",
        FileOp::Move { .. } => "moved",
    }
}

#[cfg(test)]
mod tests;
