//! Commits: the one way Eddi changes files on disk — all of them or none.
//!
//! A commit is a list of [`FileWrite`]s (new content, or a deletion), each
//! with what the file must still be on disk ([`Expect`]). Saves are
//! single-file commits; refactors and `Save All` commit many files.
//!
//! The steps, with the files' commit locks held (shared by all senders):
//! 1. *check*: every file is what its writer expected — compared by content
//!    hash, never by size and mtime alone (two saves in one mtime tick must
//!    not pass for one); any mismatch fails the whole commit, naming files;
//! 2. write the *intent record* (`<state>/commits/<id>.json`, phase
//!    `preparing`): the names of the temp files and backups about to be
//!    made, so a crash from here on leaves nothing behind in the project;
//! 3. *prepare*: each new content goes to a temp file beside its target
//!    (same file system, so the rename is atomic), permissions of the old
//!    file, fsynced; for several files each old file is also kept under a
//!    backup name (a hard link, or a copy where links are not supported).
//!    A failure here leaves every file untouched;
//! 4. for several files, the record goes to phase `applying` (fsynced);
//!    then *apply*: rename each temp over its target (a deletion unlinks),
//!    fsync the directories; the first failure restores every file already
//!    replaced from its backup, byte for byte;
//! 5. phase `committed` (fsynced), backups dropped, record dropped.
//!
//! Recovery after a crash ([`Workspace::recover`], run when the engine
//! opens): `preparing` — nothing was replaced: temps and backups go;
//! `applying` — roll back (a target whose temp is gone was replaced: its
//! backup goes back); `committed` — finish the clean-up. Either way the
//! files of one commit are all old or all new, never a mix. A single file
//! needs no rollback: one rename is atomic by itself, so its record is
//! only there to clean up a temp file, and is not fsynced.
//!
//! Paths are canonical [`WorkspacePath`]s, so a symlink inside the workspace
//! is written through to its target and the link stays a link.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use super::{io_error, stamp_of, DiskStamp, FileError, Workspace, WorkspacePath};

/// What a file must be on disk for a commit to go ahead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// The file must not exist (a new file).
    Absent,
    /// The file must hold exactly the content this stamp was taken of.
    Stamp(DiskStamp),
    /// Whatever is there is replaced (`Save Force`).
    Anything,
}

/// One file's part of a commit.
#[derive(Debug, Clone)]
pub struct FileWrite {
    pub path: WorkspacePath,
    pub expect: Expect,
    /// The new content; `None` deletes the file.
    pub content: Option<Vec<u8>>,
}

/// How a file differs from what its writer expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// It exists with other content.
    Changed,
    /// It was expected to exist and does not.
    Deleted,
    /// It was expected not to exist and does.
    Created,
}

/// A file that is not what the commit expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub path: WorkspacePath,
    pub found: Found,
}

#[derive(Debug, thiserror::Error)]
pub enum CommitError {
    /// Some files changed since the change was computed: nothing written.
    #[error("{}", conflict_message(.0))]
    Conflicts(Vec<Conflict>),
    /// The same file twice in one commit (a bug of the caller).
    #[error("{0} appears twice in one commit")]
    Duplicate(WorkspacePath),
    /// Preparing failed (a temp file could not be written): nothing written.
    #[error("{0}; nothing was written")]
    Prepare(FileError),
    /// Replacing a file failed: every file already replaced was restored.
    #[error("{0}; every file was restored as it was")]
    RolledBack(FileError),
    /// Replacing failed and so did restoring; the intent record stays, and
    /// the next start of Eddi finishes the rollback.
    #[error("{error}; restoring the files failed too ({restore}); Eddi retries at its next start")]
    Stuck { error: FileError, restore: String },
}

fn conflict_message(conflicts: &[Conflict]) -> String {
    let files: Vec<String> = conflicts
        .iter()
        .map(|c| {
            let what = match c.found {
                Found::Changed => "changed on disk",
                Found::Deleted => "was deleted on disk",
                Found::Created => "was created on disk",
            };
            format!("{} {what}", c.path)
        })
        .collect();
    format!(
        "{} since it was read; nothing was written",
        files.join(", ")
    )
}

/// A fault to inject into commits, for tests of the failure paths (set with
/// [`Workspace::inject_fault`] or, for whole processes, the environment
/// variable `EDDI_FAULT_COMMIT`: `fail-prepare:K`, `fail-apply:K`,
/// `crash-after:K`). `K` counts files of a commit from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Writing the temp file of the K-th file fails.
    FailPrepare(usize),
    /// Replacing the K-th file fails.
    FailApply(usize),
    /// The process aborts right after replacing the K-th file.
    CrashAfterApply(usize),
    /// In-process stand-in for a crash: the commit stops right after
    /// replacing the K-th file, with no rollback and no clean-up.
    AbandonAfterApply(usize),
}

impl Fault {
    pub fn parse(spec: &str) -> Option<Fault> {
        let (kind, k) = spec.trim().split_once(':')?;
        let k = k.parse().ok()?;
        match kind {
            "fail-prepare" => Some(Fault::FailPrepare(k)),
            "fail-apply" => Some(Fault::FailApply(k)),
            "crash-after" => Some(Fault::CrashAfterApply(k)),
            "abandon-after" => Some(Fault::AbandonAfterApply(k)),
            _ => None,
        }
    }
}

/// The intent record of a commit, in `<state>/commits/<id>.json`.
#[derive(Debug, Serialize, Deserialize)]
struct Intent {
    phase: Phase,
    entries: Vec<IntentEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Phase {
    /// Temps and backups are being made; no target replaced yet.
    Preparing,
    /// Targets are being replaced.
    Applying,
    /// Every target is replaced; only clean-up is left.
    Committed,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct IntentEntry {
    target: PathBuf,
    /// The new content, until renamed over `target`; `None` for a deletion.
    temp: Option<PathBuf>,
    /// The old content; `None` when the file does not exist (or, for a
    /// single file, is not kept).
    backup: Option<PathBuf>,
}

/// What [`Workspace::recover`] did with interrupted commits.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Commits that had not finished: every file restored.
    pub rolled_back: usize,
    /// Commits that had finished but not cleaned up.
    pub finished: usize,
}

impl Workspace {
    /// Writes every file of `writes` or none, checking each against what its
    /// writer expected; returns each file's new stamp (`None` when deleted),
    /// in the order given.
    pub fn commit(&self, writes: &[FileWrite]) -> Result<Vec<Option<DiskStamp>>, CommitError> {
        // A Python file goes to disk in the encoding its text declares
        // (PEP 263); one that cannot hold the text fails the whole commit.
        let mut encoded: Option<Vec<FileWrite>> = None;
        for (k, write) in writes.iter().enumerate() {
            let Some(content) = &write.content else {
                continue;
            };
            if let Some(bytes) = super::encoding::encode(write.path.as_str(), content)
                .map_err(CommitError::Prepare)?
            {
                encoded.get_or_insert_with(|| writes.to_vec())[k].content = Some(bytes);
            }
        }
        self.commit_bytes(encoded.as_deref().unwrap_or(writes))
    }

    /// [`Workspace::commit`] of contents that are the bytes to write.
    fn commit_bytes(&self, writes: &[FileWrite]) -> Result<Vec<Option<DiskStamp>>, CommitError> {
        let mut sorted: Vec<&WorkspacePath> = writes.iter().map(|w| &w.path).collect();
        sorted.sort();
        if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(CommitError::Duplicate(pair[0].clone()));
        }
        let _held = self.shared.locks.lock_all(sorted.iter().copied());
        let _other_processes = super::locks::lock_dirs(&self.root, sorted.iter().copied())
            .map_err(|e| CommitError::Prepare(io_error(sorted[0], e)))?;
        let existing = self.check(writes)?;
        let id = unique_id();
        let many = writes.len() > 1;
        let mut intent = Intent {
            phase: Phase::Preparing,
            entries: writes
                .iter()
                .zip(&existing)
                .enumerate()
                .map(|(k, (write, exists))| {
                    let target = write.path.absolute(&self.root);
                    let beside = |kind: &str| {
                        let dir = target
                            .parent()
                            .expect("workspace files live in a directory");
                        dir.join(format!(".eddi-{kind}-{id}-{k}"))
                    };
                    IntentEntry {
                        temp: write.content.as_ref().map(|_| beside("new")),
                        backup: (many && *exists).then(|| beside("old")),
                        target,
                    }
                })
                .collect(),
        };
        let record = self.commits_dir().join(format!("{id}.json"));
        // A single file's record only cleans up after a kill: no fsync.
        write_record(&record, &intent, many).map_err(|e| {
            CommitError::Prepare(FileError::Io {
                path: record.display().to_string(),
                source: e,
            })
        })?;
        if let Err(e) = self.prepare(writes, &intent.entries) {
            finish(&intent.entries);
            let _ = fs::remove_file(&record);
            return Err(CommitError::Prepare(e));
        }
        if many {
            intent.phase = Phase::Applying;
            if let Err(e) = write_record(&record, &intent, true) {
                finish(&intent.entries);
                let _ = fs::remove_file(&record);
                return Err(CommitError::Prepare(FileError::Io {
                    path: record.display().to_string(),
                    source: e,
                }));
            }
        }
        self.apply(writes, &intent.entries, &record)?;
        if many {
            intent.phase = Phase::Committed;
            // Past this point the commit stands; cleaning up is best effort
            // (a record left behind is finished at the next start).
            if write_record(&record, &intent, true).is_ok() {
                finish(&intent.entries);
                let _ = fs::remove_file(&record);
            }
        } else {
            let _ = fs::remove_file(&record);
        }
        writes
            .iter()
            .map(|write| match &write.content {
                Some(bytes) => stamp_of(&write.path.absolute(&self.root), bytes)
                    .map(Some)
                    .map_err(CommitError::RolledBack),
                None => Ok(None),
            })
            .collect()
    }

    /// Undoes or finishes commits a crash interrupted (see the module doc).
    pub fn recover(&self) -> io::Result<Recovery> {
        let mut recovery = Recovery::default();
        let dir = self.commits_dir();
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(recovery),
            Err(e) => return Err(e),
        };
        let (mut records, torn): (Vec<PathBuf>, Vec<PathBuf>) = entries
            .flatten()
            .map(|e| e.path())
            .partition(|p| p.extension().is_some_and(|x| x == "json"));
        // Temp files of records a crash cut off before they were renamed.
        remove_all(&torn);
        records.sort();
        for record in records {
            let bytes = fs::read(&record)?;
            let intent: Intent = match serde_json::from_slice(&bytes) {
                Ok(intent) => intent,
                // A record torn by a crash while it was first written: the
                // commit had not begun preparing.
                Err(_) if bytes.is_empty() => {
                    fs::remove_file(&record)?;
                    continue;
                }
                Err(e) => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("commit record {}: {e}", record.display()),
                    ))
                }
            };
            let outside = |p: &PathBuf| !p.starts_with(&self.root);
            if intent.entries.iter().any(|entry| {
                outside(&entry.target)
                    || entry.temp.as_ref().is_some_and(outside)
                    || entry.backup.as_ref().is_some_and(outside)
            }) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "commit record {} names files outside the workspace",
                        record.display()
                    ),
                ));
            }
            match intent.phase {
                Phase::Preparing => finish(&intent.entries),
                Phase::Applying => {
                    roll_back(&intent.entries)?;
                    recovery.rolled_back += 1;
                }
                Phase::Committed => {
                    finish(&intent.entries);
                    recovery.finished += 1;
                }
            }
            fs::remove_file(&record)?;
            sync_dir(&dir);
        }
        Ok(recovery)
    }

    /// Sets (or clears) a fault to inject into the following commits.
    pub fn inject_fault(&self, fault: Option<Fault>) {
        *self
            .shared
            .fault
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = fault;
    }

    fn fault(&self) -> Option<Fault> {
        *self
            .shared
            .fault
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn commits_dir(&self) -> PathBuf {
        self.state_dir.join("commits")
    }

    /// Step 1: every file is exactly what its writer expected. Returns
    /// whether each file exists now.
    fn check(&self, writes: &[FileWrite]) -> Result<Vec<bool>, CommitError> {
        let mut conflicts = Vec::new();
        let mut existing = Vec::with_capacity(writes.len());
        for write in writes {
            let now = self.stamp(&write.path).map_err(CommitError::Prepare)?;
            if now.is_some() && self.read_only(&write.path) {
                return Err(CommitError::Prepare(FileError::ReadOnly(
                    write.path.to_string(),
                )));
            }
            existing.push(now.is_some());
            let found = match (&write.expect, now) {
                (Expect::Anything, _) | (Expect::Absent, None) => None,
                (Expect::Absent, Some(_)) => Some(Found::Created),
                (Expect::Stamp(_), None) => Some(Found::Deleted),
                (Expect::Stamp(expected), Some(now)) => {
                    (now.hash != expected.hash).then_some(Found::Changed)
                }
            };
            if let Some(found) = found {
                conflicts.push(Conflict {
                    path: write.path.clone(),
                    found,
                });
            }
        }
        if conflicts.is_empty() {
            Ok(existing)
        } else {
            Err(CommitError::Conflicts(conflicts))
        }
    }

    /// Whether the file's permissions allow no one to write it (the rename
    /// of a save would replace it all the same).
    fn read_only(&self, path: &WorkspacePath) -> bool {
        fs::metadata(path.absolute(&self.root)).is_ok_and(|meta| meta.permissions().readonly())
    }

    /// Step 3: the new contents in fsynced temp files, the old ones kept.
    /// The temps are written by several threads at once: an fsync waits
    /// for the disk, and concurrent ones share its flushes (100 files: ~20
    /// ms in parallel against ~570 ms one after the other on this VM).
    fn prepare(&self, writes: &[FileWrite], entries: &[IntentEntry]) -> Result<(), FileError> {
        let jobs: Vec<(usize, &FileWrite, &Path, &[u8])> = writes
            .iter()
            .zip(entries)
            .enumerate()
            .filter_map(|(k, (write, entry))| match (&write.content, &entry.temp) {
                (Some(bytes), Some(temp)) => Some((k, write, temp.as_path(), bytes.as_slice())),
                _ => None,
            })
            .collect();
        let fault = self.fault();
        let write_one = |&(k, write, temp, bytes): &(usize, &FileWrite, &Path, &[u8])| {
            if fault == Some(Fault::FailPrepare(k)) {
                return Err(injected(&write.path));
            }
            self.write_temp(&write.path, temp, bytes)
        };
        let threads = jobs.len().min(PARALLEL_WRITES);
        if threads <= 1 {
            jobs.iter().try_for_each(write_one)?;
        } else {
            let next = std::sync::atomic::AtomicUsize::new(0);
            let results: Vec<Result<(), FileError>> = std::thread::scope(|scope| {
                let workers: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(job) = jobs.get(i) else {
                                return Ok(());
                            };
                            write_one(job)?;
                        })
                    })
                    .collect();
                workers
                    .into_iter()
                    .map(|w| w.join().unwrap_or_else(|_| Err(panicked())))
                    .collect()
            });
            results.into_iter().collect::<Result<(), FileError>>()?;
        }
        for (write, entry) in writes.iter().zip(entries) {
            if let Some(backup) = &entry.backup {
                keep_old(&entry.target, backup).map_err(|e| io_error(&write.path, e))?;
            }
        }
        Ok(())
    }

    fn write_temp(&self, path: &WorkspacePath, temp: &Path, bytes: &[u8]) -> Result<(), FileError> {
        let abs = path.absolute(&self.root);
        let dir = abs
            .parent()
            .ok_or_else(|| FileError::Invalid(path.to_string(), "no parent directory"))?;
        fs::create_dir_all(dir).map_err(|e| io_error(path, e))?;
        // The directory may have been created through a symlink: re-check.
        self.resolve(path.as_str())?;
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(temp)
            .map_err(|e| io_error(path, e))?;
        file.write_all(bytes).map_err(|e| io_error(path, e))?;
        if let Ok(meta) = fs::metadata(&abs) {
            fs::set_permissions(temp, meta.permissions()).map_err(|e| io_error(path, e))?;
        }
        file.sync_all().map_err(|e| io_error(path, e))
    }

    /// Step 4: every target replaced, or every one restored.
    fn apply(
        &self,
        writes: &[FileWrite],
        entries: &[IntentEntry],
        record: &Path,
    ) -> Result<(), CommitError> {
        for (k, (write, entry)) in writes.iter().zip(entries).enumerate() {
            let outcome = match self.fault() {
                Some(Fault::FailApply(at)) if at == k => Err(injected(&write.path)),
                _ => replace(&entry.target, entry.temp.as_deref())
                    .map_err(|e| io_error(&write.path, e)),
            };
            if let Err(error) = outcome {
                return match roll_back(entries) {
                    Ok(()) => {
                        let _ = fs::remove_file(record);
                        Err(CommitError::RolledBack(error))
                    }
                    Err(restore) => Err(CommitError::Stuck {
                        error,
                        restore: restore.to_string(),
                    }),
                };
            }
            match self.fault() {
                Some(Fault::CrashAfterApply(at)) if at == k => std::process::abort(),
                Some(Fault::AbandonAfterApply(at)) if at == k => {
                    return Err(CommitError::Stuck {
                        error: injected(&write.path),
                        restore: "abandoned (injected fault)".into(),
                    })
                }
                _ => {}
            }
        }
        // Each directory once, several at a time (as the temps above).
        let dirs: Vec<&Path> = entries
            .iter()
            .filter_map(|e| e.target.parent())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        std::thread::scope(|scope| {
            for chunk in dirs.chunks(dirs.len().div_ceil(PARALLEL_WRITES).max(1)) {
                scope.spawn(move || chunk.iter().for_each(|dir| sync_dir(dir)));
            }
        });
        Ok(())
    }
}

/// Keeps the current content of `target` under `backup`, beside it.
fn keep_old(target: &Path, backup: &Path) -> io::Result<()> {
    if fs::hard_link(target, backup).is_err() {
        // No hard links here (some file systems): a fsynced copy.
        fs::copy(target, backup)?;
        fs::File::open(backup)?.sync_all()?;
    }
    Ok(())
}

/// Puts the new content in place: a rename over the target, or an unlink.
fn replace(target: &Path, temp: Option<&Path>) -> io::Result<()> {
    match temp {
        Some(temp) => fs::rename(temp, target),
        None => match fs::remove_file(target) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        },
    }
}

/// Restores every entry's old content: a target whose temp is gone (or, for
/// a deletion, that is gone) was replaced and gets its backup back; a new
/// file that was created is removed. Leftover temps and backups go.
fn roll_back(entries: &[IntentEntry]) -> io::Result<()> {
    for entry in entries {
        let replaced = match &entry.temp {
            Some(temp) => !temp.exists(),
            None => !entry.target.exists(),
        };
        match (&entry.backup, replaced) {
            (Some(backup), true) => fs::rename(backup, &entry.target)?,
            (None, true) if entry.temp.is_some() => match fs::remove_file(&entry.target) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            },
            _ => {}
        }
        remove_all(entry.temp.iter().chain(&entry.backup));
        sync_parent(&entry.target);
    }
    Ok(())
}

/// Drops the backups and temps of a commit that stands.
fn finish(entries: &[IntentEntry]) {
    remove_all(entries.iter().flat_map(|e| e.temp.iter().chain(&e.backup)));
}

fn write_record(path: &Path, intent: &Intent, durable: bool) -> io::Result<()> {
    let dir = path
        .parent()
        .expect("records live in the commits directory");
    fs::create_dir_all(dir)?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    temp.write_all(&serde_json::to_vec(intent).expect("intents serialize"))?;
    if durable {
        temp.as_file().sync_all()?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    if durable {
        sync_dir(dir);
    }
    Ok(())
}

fn remove_all<'a>(paths: impl IntoIterator<Item = &'a PathBuf>) {
    for path in paths {
        let _ = fs::remove_file(path);
    }
}

fn sync_parent(path: &Path) {
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
}

fn sync_dir(dir: &Path) {
    if let Ok(dir) = fs::File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// How many temp files a commit writes (and fsyncs) at once.
const PARALLEL_WRITES: usize = 16;

fn panicked() -> FileError {
    FileError::Io {
        path: "a commit's writer thread".into(),
        source: io::Error::other("panicked"),
    }
}

fn injected(path: &WorkspacePath) -> FileError {
    FileError::Io {
        path: path.to_string(),
        source: io::Error::other("injected fault"),
    }
}

/// Unique among the commits of all processes on this machine.
fn unique_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{}-{nanos}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}
