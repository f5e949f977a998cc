//! Per-file commit locks, shared by every session of one workspace.
//!
//! A commit checks each file's expected stamp and replaces the file as one
//! step; two commits that touch a common file must not interleave, or both
//! would pass the check and one would silently win. Commits of disjoint
//! files run in parallel.
//!
//! All of a commit's files are taken at once (wait until none is held,
//! then mark them all), so two commits that lock overlapping sets can never
//! deadlock, whatever order they name the files in.
//!
//! Those locks live in one process. Another Eddi on the same files (an
//! `eddi run` beside `eddi serve`, with its own state directory) is kept
//! out by [`lock_dirs`]: an OS lock (`flock`) on the directory of each file,
//! taken in path order, so the check and the rename of two processes never
//! interleave either. (A directory, not the file: a save replaces the file's
//! inode, and a new file has none yet.)

use std::collections::{BTreeSet, HashSet};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::WorkspacePath;

#[derive(Debug, Default)]
pub(super) struct FileLocks {
    held: Mutex<HashSet<WorkspacePath>>,
    released: Condvar,
}

/// The files of one commit, locked until this is dropped.
pub(super) struct Held<'a> {
    locks: &'a FileLocks,
    paths: Vec<WorkspacePath>,
}

impl FileLocks {
    /// Blocks until every path is free, then holds them all.
    pub(super) fn lock_all<'a>(
        &'a self,
        paths: impl IntoIterator<Item = &'a WorkspacePath>,
    ) -> Held<'a> {
        let paths: Vec<WorkspacePath> = paths.into_iter().cloned().collect();
        let mut held = self.table();
        while paths.iter().any(|path| held.contains(path)) {
            held = self
                .released
                .wait(held)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        held.extend(paths.iter().cloned());
        Held { locks: self, paths }
    }

    fn table(&self) -> MutexGuard<'_, HashSet<WorkspacePath>> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut held = self.locks.table();
        for path in &self.paths {
            held.remove(path);
        }
        drop(held);
        self.locks.released.notify_all();
    }
}

/// The directories of a commit's files, locked against other processes
/// until dropped (the OS drops the locks with the files, however a
/// process ends).
pub(super) struct DirLocks {
    _dirs: Vec<File>,
}

/// Locks the nearest existing directory of each path (each once, in path
/// order: two processes never wait for each other in a cycle).
pub(super) fn lock_dirs<'a>(
    root: &Path,
    paths: impl IntoIterator<Item = &'a WorkspacePath>,
) -> io::Result<DirLocks> {
    let mut dirs = BTreeSet::new();
    for path in paths {
        let mut dir: PathBuf = path.absolute(root);
        while dir.pop() && !dir.is_dir() && dir.starts_with(root) {}
        dirs.insert(dir);
    }
    let mut locked = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let file = File::open(&dir)?;
        file.lock()?;
        locked.push(file);
    }
    Ok(DirLocks { _dirs: locked })
}
