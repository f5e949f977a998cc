//! Persistence of sessions: a snapshot plus an append-only journal of
//! [`Event`]s per session, under the state directory (`<root>/.eddi/`).
//!
//! Layout: `sessions/<name>/snapshot.json` (the whole session, written
//! atomically) and `sessions/<name>/journal.jsonl` (one event per line,
//! written before the reply to the command that caused it, and fsynced
//! then when it edits text or writes files — see [`Event::needs_fsync`]). A command costs
//! the size of its events, not of the files; every [`SNAPSHOT_EVERY`] events
//! the journal is folded into a fresh snapshot. A torn last journal line (a
//! crash mid-write: no newline at its end) is cut off on load, while a
//! complete line that is not a valid event is refused as corrupt;
//! snapshots are replaced by rename, so a crash never leaves a half-written
//! one. Ended sessions keep their summary
//! in `ended/<name>.json`; released unsaved edits are kept as drafts
//! (`drafts/<session>/<path>`, see [`drafts`]).
//!
//! The directory belongs to one Eddi at a time ([`StateLock`], taken here so
//! every front end has it), and `format.json` says which version of this
//! layout it holds ([`STATE_FORMAT`]): an older one is migrated on open, a
//! newer one is refused rather than misread.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::lock::{LockError, StateLock};
use super::{Event, Session};

mod drafts;
pub use drafts::{Draft, DraftRecord};

#[cfg(test)]
mod tests;

/// The version of everything persisted here (snapshots, journal events,
/// ended records, the transport's handshakes). Bump it when a change to
/// those types cannot be read by the previous version's code, and add the
/// step from the previous version to [`migrate`].
pub const STATE_FORMAT: u32 = 6;
/// Says which [`STATE_FORMAT`] the directory holds.
const FORMAT_FILE: &str = "format.json";

/// Journal length that triggers a new snapshot.
pub const SNAPSHOT_EVERY: usize = 256;

#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    /// Held while the store lives: no second Eddi on this directory.
    lock: StateLock,
    /// Journal writes still to fail as if the disk were full (tests).
    failing_writes: std::sync::atomic::AtomicUsize,
    /// Taken while drafts and their records change (see `drafts`).
    drafts: std::sync::Mutex<()>,
}

/// The content of `format.json`.
#[derive(Serialize, Deserialize)]
struct FormatRecord {
    format: u32,
    /// The Eddi that wrote the directory, to name it in a refusal.
    written_by: String,
}

/// A snapshot: the session and how many journal events it already contains.
#[derive(Serialize, Deserialize)]
struct Snapshot {
    session: Session,
    #[serde(default)]
    covers: Option<Covered>,
}

/// The journal a snapshot replaced: a snapshot and the emptying of the
/// journal are two renames, and a crash between them leaves the old
/// journal, whose events the snapshot already holds, beside it. Loading
/// skips that journal when it starts with exactly these bytes.
#[derive(Serialize, Deserialize)]
struct Covered {
    bytes: u64,
    /// blake3 of those bytes, hex.
    hash: String,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("state directory {path}: {source}")]
    Io { path: String, source: io::Error },
    /// The events are in the journal but could not be fsynced: they
    /// survive a killed process, maybe not an OS crash.
    #[error("state directory {path}: {source} (written, not yet on disk)")]
    NotDurable { path: String, source: io::Error },
    #[error("corrupt session state {path}: {message}")]
    Corrupt { path: String, message: String },
    #[error(transparent)]
    Locked(#[from] LockError),
    #[error(
        "state directory {dir} holds state format {found} (written by {written_by}); \
         this eddi {ours} reads format {STATE_FORMAT} and older. Use that newer Eddi, \
         or start this one with another --state-dir (this one is left untouched)"
    )]
    Newer {
        dir: String,
        found: u32,
        written_by: String,
        ours: &'static str,
    },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Per-session bookkeeping the engine keeps next to the session.
#[derive(Debug, Default)]
pub struct JournalState {
    /// Events in the journal file since the last snapshot.
    pub length: usize,
    /// The journal, open for appending (a snapshot replaces the file, and
    /// drops this handle with it).
    file: Option<File>,
}

impl Store {
    /// Opens (creating) the state directory; it ignores itself for git.
    /// Refused while another Eddi holds it, or when a newer Eddi wrote it.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        fs::create_dir_all(dir).map_err(io_err(dir))?;
        let lock = StateLock::acquire(dir)?;
        check_format(dir)?;
        fs::create_dir_all(dir.join("sessions")).map_err(io_err(dir))?;
        fs::create_dir_all(dir.join("ended")).map_err(io_err(dir))?;
        let ignore = dir.join(".gitignore");
        if !ignore.exists() {
            fs::write(
                &ignore,
                "# Eddi's session state; not part of the project.\n*\n",
            )
            .map_err(io_err(&ignore))?;
        }
        Ok(Store {
            dir: dir.to_path_buf(),
            lock,
            failing_writes: Default::default(),
            drafts: Default::default(),
        })
    }

    /// Makes the next `count` journal writes fail as on a full disk, for
    /// tests of what a failed write leaves behind.
    pub fn inject_write_failures(&self, count: usize) {
        self.failing_writes
            .store(count, std::sync::atomic::Ordering::SeqCst);
    }

    fn injected_failure(&self) -> Option<io::Error> {
        use std::sync::atomic::Ordering::SeqCst;
        let take = |n: usize| n.checked_sub(1);
        self.failing_writes
            .fetch_update(SeqCst, SeqCst, take)
            .ok()
            .map(|_| io::Error::from(io::ErrorKind::StorageFull))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Tells an Eddi refused this directory how to reach this one.
    pub fn announce(&self, how_to_reach: &str) -> Result<(), StoreError> {
        let path = self.dir.join(super::lock::LOCK_FILE);
        self.lock
            .describe(Some(how_to_reach))
            .map_err(io_err(&path))
    }

    fn session_dir(&self, name: &str) -> PathBuf {
        self.dir.join("sessions").join(name)
    }

    /// Loads every persisted session: its snapshot plus the journal replayed.
    pub fn load_all(&self) -> Result<Vec<(Session, JournalState)>, StoreError> {
        let mut sessions = Vec::new();
        let root = self.dir.join("sessions");
        for entry in fs::read_dir(&root).map_err(io_err(&root))? {
            let entry = entry.map_err(io_err(&root))?;
            if entry.path().join("snapshot.json").exists() {
                sessions.push(self.load(&entry.path())?);
            }
        }
        sessions.sort_by(|a, b| a.0.name.cmp(&b.0.name));
        Ok(sessions)
    }

    fn load(&self, dir: &Path) -> Result<(Session, JournalState), StoreError> {
        let snapshot_path = dir.join("snapshot.json");
        let bytes = fs::read(&snapshot_path).map_err(io_err(&snapshot_path))?;
        let Snapshot {
            mut session,
            covers,
        } = serde_json::from_slice(&bytes).map_err(|e| StoreError::Corrupt {
            path: snapshot_path.display().to_string(),
            message: e.to_string(),
        })?;
        session.check().map_err(|e| StoreError::Corrupt {
            path: snapshot_path.display().to_string(),
            message: e.to_string(),
        })?;
        let journal_path = dir.join("journal.jsonl");
        let mut length = 0;
        if let Ok(mut journal) = fs::read(&journal_path) {
            if let Some(covered) = covers.filter(|c| c.bytes <= journal.len() as u64) {
                let prefix = &journal[..covered.bytes as usize];
                if blake3::hash(prefix).to_hex().as_str() == covered.hash {
                    // The snapshot's crash left its old journal: skip it.
                    journal.drain(..covered.bytes as usize);
                }
            }
            // A torn last line from a crash mid-append (no newline at its
            // end) was never acknowledged: cut it off, so that the events
            // appended next start on a line of their own.
            let complete = journal
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let torn = (journal.len() - complete) as u64;
            if torn > 0 {
                cut_torn_tail(&journal_path, torn)?;
                journal.truncate(complete);
            }
            let lines: Vec<String> = BufReader::new(journal.as_slice())
                .lines()
                .collect::<Result<_, _>>()
                .map_err(io_err(&journal_path))?;
            let corrupt = |message: String| StoreError::Corrupt {
                path: journal_path.display().to_string(),
                message,
            };
            for (index, line) in lines.iter().enumerate() {
                // A complete line that does not read is corrupt.
                let event = serde_json::from_str::<Event>(line)
                    .map_err(|e| corrupt(format!("line {}: {e}", index + 1)))?;
                session
                    .replay(&event)
                    .map_err(|e| corrupt(format!("event {}: {e}", index + 1)))?;
                length += 1;
            }
        }
        Ok((session, JournalState { length, file: None }))
    }

    /// Writes a full snapshot atomically and starts an empty journal.
    pub fn snapshot(
        &self,
        session: &Session,
        journal: &mut JournalState,
    ) -> Result<(), StoreError> {
        let dir = self.session_dir(&session.name);
        fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let journal_path = dir.join("journal.jsonl");
        let covers = match fs::read(&journal_path) {
            Ok(old) if !old.is_empty() => Some(Covered {
                bytes: old.len() as u64,
                hash: blake3::hash(&old).to_hex().to_string(),
            }),
            _ => None,
        };
        let bytes =
            serde_json::to_vec(&SnapshotRef { session, covers }).expect("sessions serialize");
        write_atomic(&dir.join("snapshot.json"), &bytes)?;
        // The snapshot already holds every journal event: drop them.
        write_atomic(&dir.join("journal.jsonl"), b"")?;
        journal.length = 0;
        journal.file = None;
        Ok(())
    }

    /// Appends events to the journal and fsyncs; snapshots when it is long.
    /// On any error but [`StoreError::NotDurable`] nothing was written, and
    /// the events must be given again (`Session::requeue_unpersisted`).
    pub fn append(
        &self,
        session: &Session,
        journal: &mut JournalState,
        events: &[Event],
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        if journal.length + events.len() > SNAPSHOT_EVERY {
            return self.snapshot(session, journal);
        }
        let path = self.session_dir(&session.name).join("journal.jsonl");
        if let Some(e) = self.injected_failure() {
            return Err(io_err(&path)(e));
        }
        let mut buf = Vec::new();
        for event in events {
            serde_json::to_writer(&mut buf, event).expect("events serialize");
            buf.push(b'\n');
        }
        let file = match &mut journal.file {
            Some(file) => file,
            None => journal.file.insert(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .map_err(io_err(&path))?,
            ),
        };
        let before = file.metadata().map_err(io_err(&path))?.len();
        if let Err(e) = file.write_all(&buf) {
            // Never leave a torn line for later events to follow.
            let _ = file.set_len(before);
            journal.file = None;
            return Err(io_err(&path)(e));
        }
        // Every event is in the kernel before the reply (a killed process
        // loses nothing); those that change text or files also reach the
        // disk (an OS crash loses at most cursor moves and the like).
        journal.length += events.len();
        if events.iter().any(Event::needs_fsync) {
            if let Err(source) = file.sync_data() {
                let path = path.display().to_string();
                return Err(StoreError::NotDurable { path, source });
            }
        }
        if crash_after_edit() && events.iter().any(Event::needs_fsync) {
            // A stand-in for `kill -9` at the worst moment: the turn's events
            // are written, the reply is not sent.
            std::process::abort();
        }
        Ok(())
    }

    /// Removes an ended session's state, keeping its summary line.
    pub fn end(&self, name: &str, summary: &str) -> Result<(), StoreError> {
        let ended = self.dir.join("ended").join(format!("{name}.json"));
        let record = serde_json::json!({ "name": name, "summary": summary });
        write_atomic(&ended, record.to_string().as_bytes())?;
        let dir = self.session_dir(name);
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(io_err(&dir))?;
        }
        Ok(())
    }

    /// When the session's state was last written (its last event).
    pub fn last_written(&self, name: &str) -> Option<std::time::SystemTime> {
        let dir = self.session_dir(name);
        ["journal.jsonl", "snapshot.json"]
            .iter()
            .filter_map(|file| fs::metadata(dir.join(file)).ok()?.modified().ok())
            .max()
    }

    /// The summary of an ended session, if there is one.
    pub fn ended_summary(&self, name: &str) -> Option<String> {
        let bytes = fs::read(self.dir.join("ended").join(format!("{name}.json"))).ok()?;
        let value: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
        value.get("summary")?.as_str().map(str::to_owned)
    }
}

/// Drops the last `torn` bytes of the journal (see `Store::load`).
fn cut_torn_tail(path: &Path, torn: u64) -> Result<(), StoreError> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io_err(path))?;
    let len = file.metadata().map_err(io_err(path))?.len();
    file.set_len(len.saturating_sub(torn))
        .map_err(io_err(path))?;
    file.sync_data().map_err(io_err(path))
}

#[derive(Serialize)]
struct SnapshotRef<'a> {
    session: &'a Session,
    covers: Option<Covered>,
}

/// Reads the directory's format version; migrates an older one (a directory
/// without `format.json` but with sessions is version 0: Eddi before
/// versioning) and refuses a newer one.
fn check_format(dir: &Path) -> Result<(), StoreError> {
    let path = dir.join(FORMAT_FILE);
    let found = match fs::read(&path) {
        Ok(bytes) => {
            let record: FormatRecord =
                serde_json::from_slice(&bytes).map_err(|e| StoreError::Corrupt {
                    path: path.display().to_string(),
                    message: format!(
                        "{e}; it should read {{\"format\": {STATE_FORMAT}, \"written_by\": \"…\"}}"
                    ),
                })?;
            if record.format > STATE_FORMAT {
                return Err(StoreError::Newer {
                    dir: dir.display().to_string(),
                    found: record.format,
                    written_by: record.written_by,
                    ours: env!("CARGO_PKG_VERSION"),
                });
            }
            record.format
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => 0,
        Err(e) => return Err(io_err(&path)(e)),
    };
    if found == STATE_FORMAT {
        return Ok(());
    }
    migrate(dir, found)?;
    let record = FormatRecord {
        format: STATE_FORMAT,
        written_by: format!("eddi {}", env!("CARGO_PKG_VERSION")),
    };
    write_atomic(
        &path,
        &serde_json::to_vec(&record).expect("format records serialize"),
    )
}

/// Rewrites the directory from format `from` to [`STATE_FORMAT`], one
/// version at a time.
fn migrate(_dir: &Path, from: u32) -> Result<(), StoreError> {
    for version in from..STATE_FORMAT {
        match version {
            // Version 0 (before versioning) is version 1's layout without
            // `format.json`: nothing to rewrite.
            0 => {}
            // Version 2 adds events and fields version 1 cannot read
            // (pending refactor previews); version 1's files load as they are.
            1 => {}
            // Version 3 adds events version 2 cannot read (steps that keep
            // their writes, writes carried into other sessions' buffers,
            // notices); version 2's files load as they are.
            2 => {}
            // Version 4 adds an event and a field version 3 cannot read
            // (replacements across files waiting for Apply), and draft
            // records beside the drafts; version 3's files load as they
            // are (a draft without a record: its disk state is unknown).
            3 => {}
            // Version 5 adds named changesets (a session field and the
            // `changeset_*` events, with workspace changes in them) that
            // version 4 cannot read, and reads paths back only when they
            // are plain relative ones, which version 4 always wrote; version
            // 4's files load as they are (no changesets).
            4 => {}
            // Version 6 adds scripts' variables (a session field and the
            // `script_variables` event) that version 5 cannot read; version
            // 5's files load as they are (no variables).
            5 => {}
            _ => unreachable!("every version below STATE_FORMAT has a step"),
        }
    }
    Ok(())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().expect("state files live in a directory");
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(io_err(dir))?;
    temp.write_all(bytes).map_err(io_err(path))?;
    temp.as_file().sync_all().map_err(io_err(path))?;
    temp.persist(path).map_err(|e| StoreError::Io {
        path: path.display().to_string(),
        source: e.error,
    })?;
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// Whether the process should abort right after its first journal write of
/// an edit (`EDDI_FAULT_JOURNAL=crash-after-edit`), for whole-process tests
/// of what a crash between the journal and the reply leaves behind.
fn crash_after_edit() -> bool {
    static FAULT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAULT.get_or_init(|| {
        std::env::var("EDDI_FAULT_JOURNAL").is_ok_and(|spec| spec == "crash-after-edit")
    })
}
