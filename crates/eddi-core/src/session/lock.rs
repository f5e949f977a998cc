//! One Eddi per state directory: an OS advisory lock on `<state dir>/lock`.
//!
//! Two Eddis on one state directory (`eddi run` next to `eddi serve`, two
//! `eddi serve`s) would each load their own copy of the sessions and the
//! later writer would overwrite the other's state. So the store takes an
//! exclusive lock on the lock file for the engine's lifetime and the second
//! one is refused, naming the holder. The OS releases the lock when the
//! holder exits, however it exits (a `kill -9` included), so a stale lock
//! file never blocks a restart; the holder's description in the file is
//! simply rewritten by the next one.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock file's name inside the state directory.
pub const LOCK_FILE: &str = "lock";

/// The held lock; released when dropped (or when the process dies).
#[derive(Debug)]
pub struct StateLock {
    file: File,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "state directory {dir} is in use by another Eddi ({holder}). Two Eddis on one \
         state directory would overwrite each other's sessions. Send your commands to the \
         running one (for `eddi serve`: eddi send --sender <name> '<commands>'), stop it, \
         or start this one with another --state-dir"
    )]
    Held { dir: String, holder: String },
    #[error("state directory {dir}: cannot lock {path}: {source}")]
    Io {
        dir: String,
        path: String,
        source: io::Error,
    },
}

impl StateLock {
    /// Takes the state directory's lock, or says who holds it.
    pub fn acquire(dir: &Path) -> Result<StateLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io_err = |source| LockError::Io {
            dir: dir.display().to_string(),
            path: path.display().to_string(),
            source,
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err)?;
        match try_lock(&file, &path) {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    dir: dir.display().to_string(),
                    holder: holder_of(&path),
                })
            }
            // A file system without locks (some network mounts): run
            // unprotected rather than not at all.
            Err(TryLockError::Error(err)) if err.kind() == io::ErrorKind::Unsupported => {
                tracing::warn!(
                    "{}: no file locks here ({err}); not protected against a second Eddi",
                    path.display()
                );
            }
            Err(TryLockError::Error(err)) => return Err(io_err(err)),
        }
        let lock = StateLock { file };
        // Say who holds it, for the one that will be refused.
        lock.describe(None).map_err(io_err)?;
        Ok(lock)
    }

    /// Rewrites the holder's description, with how to reach it (say, the
    /// `eddi send` line of a service) once that is known.
    pub fn describe(&self, how_to_reach: Option<&str>) -> io::Result<()> {
        let mut text = describe_self();
        if let Some(how) = how_to_reach {
            text.push_str(&format!("; reach it with: {how}"));
        }
        let mut file = &self.file;
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(text.as_bytes())
    }
}

/// Locks `file`. A lock this very process held a moment ago may still be
/// held for a moment: a child forked meanwhile (a formatter, a test's
/// subprocess) shares the lock's open file until it execs, when
/// close-on-exec drops it. So a lock whose holder is this process is tried
/// again for up to a second; another process's is refused at once.
fn try_lock(file: &File, path: &Path) -> Result<(), TryLockError> {
    let ours = format!("pid {}, ", std::process::id());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        match file.try_lock() {
            Err(TryLockError::WouldBlock)
                if std::time::Instant::now() < deadline && holder_of(path).starts_with(&ours) =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// `pid 1234, eddi serve, since 2026-12-01T08:00:00Z`: this process.
fn describe_self() -> String {
    // The program and its subcommand only: flags may carry secrets.
    let command: Vec<String> = std::env::args()
        .take(2)
        .enumerate()
        .map(|(i, arg)| match i {
            0 => PathBuf::from(&arg)
                .file_name()
                .map_or(arg.clone(), |name| name.to_string_lossy().into_owned()),
            _ => arg,
        })
        .collect();
    let since = to_the_second(time::OffsetDateTime::now_utc());
    format!(
        "pid {}, {}, since {since}",
        std::process::id(),
        command.join(" ")
    )
}

/// What the holder wrote into the lock file.
fn holder_of(path: &Path) -> String {
    let mut text = String::new();
    let read = File::open(path).and_then(|mut file| file.read_to_string(&mut text));
    match read {
        Ok(_) if !text.trim().is_empty() => text.trim().to_owned(),
        // It has just taken the lock and not yet written who it is.
        _ => "holder unknown".to_owned(),
    }
}

/// `at` as RFC 3339 to the second (UTC as given): how the state directory
/// writes a moment a person may read (the lock's holder, a draft's time).
pub fn to_the_second(at: time::OffsetDateTime) -> String {
    at.replace_nanosecond(0)
        .unwrap_or(at)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
