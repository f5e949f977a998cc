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

use std::collections::HashSet;
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
