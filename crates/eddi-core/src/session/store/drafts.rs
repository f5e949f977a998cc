//! Drafts: the unsaved edits of a session that was idle too long or ended
//! by an operator, kept instead of lost.
//!
//! Layout: `drafts/<session>/<path>` holds the buffer's whole text (a file
//! one may also copy back by hand), and `draft-records/<session>.json` says
//! for each path when it was kept and the content hash of the disk text
//! its edits were made on (`None`: a file not on disk then), so `List
//! Drafts` can tell whether the file moved on since. A draft written
//! before records existed has none: its disk state is unknown. Drafts
//! belong to the session's name; `Recover` takes one back and removes it.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{io_err, write_atomic, Store, StoreError};
use crate::session::lock::to_the_second;

/// When a draft was kept and what its edits were made on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftRecord {
    /// RFC 3339, UTC, to the second.
    pub kept: String,
    /// The content hash of the disk text the edits were made on; `None`
    /// when the file was not on disk (a new file never saved).
    pub base: Option<String>,
}

/// A kept draft as the store finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// The workspace path it is a draft of (`/`-separated).
    pub path: String,
    /// Where its text is.
    pub file: PathBuf,
    /// Its record; `None` for a draft kept before records existed (its
    /// `kept` is then the file's modification time).
    pub record: Option<DraftRecord>,
    /// When it was kept (the record's, else the file's time).
    pub kept: String,
}

impl Store {
    /// Keeps the text of a session's unsaved buffer of `path` as a draft,
    /// `drafts/<session>/<path>` (replacing an older draft of it), with its
    /// record (`base`: see [`DraftRecord`]): an idle or ended session's
    /// edits are released, never deleted. Returns the draft's path.
    pub fn keep_draft(
        &self,
        session: &str,
        path: &str,
        text: &str,
        base: Option<&str>,
    ) -> Result<PathBuf, StoreError> {
        let _guard = self.drafts_lock();
        let draft = self.draft_dir(session).join(path);
        let parent = draft.parent().expect("a draft lives in a directory");
        fs::create_dir_all(parent).map_err(io_err(parent))?;
        write_atomic(&draft, text.as_bytes())?;
        let mut records = self.draft_records(session)?;
        records.insert(
            path.to_owned(),
            DraftRecord {
                kept: now(),
                base: base.map(str::to_owned),
            },
        );
        self.write_draft_records(session, &records)?;
        Ok(draft)
    }

    /// The drafts kept for `session`, by path.
    pub fn drafts(&self, session: &str) -> Result<Vec<Draft>, StoreError> {
        let _guard = self.drafts_lock();
        let root = self.draft_dir(session);
        let mut records = self.draft_records(session)?;
        let mut drafts = Vec::new();
        // every file kept, hidden or not: no ignore rules apply to drafts
        let walk = ignore::WalkBuilder::new(&root)
            .standard_filters(false)
            .follow_links(false)
            .build();
        for entry in walk {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e)
                    if e.io_error()
                        .is_some_and(|e| e.kind() == io::ErrorKind::NotFound) =>
                {
                    continue
                }
                Err(e) => return Err(io_err(&root)(io::Error::other(e.to_string()))),
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let file = entry.into_path();
            let Some(path) = relative(&root, &file) else {
                continue;
            };
            let record = records.remove(&path);
            let kept = match &record {
                Some(record) => record.kept.clone(),
                None => modified(&file),
            };
            drafts.push(Draft {
                path,
                file,
                record,
                kept,
            });
        }
        drafts.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(drafts)
    }

    /// Removes a recovered draft, its record, and the directories it
    /// leaves empty.
    pub fn remove_draft(&self, session: &str, path: &str) -> Result<(), StoreError> {
        let _guard = self.drafts_lock();
        let root = self.draft_dir(session);
        let draft = root.join(path);
        match fs::remove_file(&draft) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_err(&draft)(e)),
        }
        let mut dir = draft.parent();
        while let Some(at) = dir.filter(|at| at.starts_with(&root)) {
            // Stops at the first directory that is not empty.
            if fs::remove_dir(at).is_err() {
                break;
            }
            dir = at.parent();
        }
        let mut records = self.draft_records(session)?;
        if records.remove(path).is_some() {
            self.write_draft_records(session, &records)?;
        }
        Ok(())
    }

    fn draft_dir(&self, session: &str) -> PathBuf {
        self.dir.join("drafts").join(session)
    }

    fn records_file(&self, session: &str) -> PathBuf {
        self.dir
            .join("draft-records")
            .join(format!("{session}.json"))
    }

    fn draft_records(&self, session: &str) -> Result<BTreeMap<String, DraftRecord>, StoreError> {
        let file = self.records_file(session);
        match fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| StoreError::Corrupt {
                path: file.display().to_string(),
                message: e.to_string(),
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(BTreeMap::new()),
            Err(e) => Err(io_err(&file)(e)),
        }
    }

    fn write_draft_records(
        &self,
        session: &str,
        records: &BTreeMap<String, DraftRecord>,
    ) -> Result<(), StoreError> {
        let file = self.records_file(session);
        if records.is_empty() {
            return match fs::remove_file(&file) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_err(&file)(e)),
                _ => Ok(()),
            };
        }
        let parent = file.parent().expect("records live in a directory");
        fs::create_dir_all(parent).map_err(io_err(parent))?;
        let bytes = serde_json::to_vec_pretty(records).expect("draft records serialize");
        write_atomic(&file, &bytes)
    }

    /// Drafts and their records change together, one writer at a time (an
    /// idle session released while an operator recovers another's draft).
    fn drafts_lock(&self) -> std::sync::MutexGuard<'_, ()> {
        self.drafts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `file` as a `/`-separated path under `root`.
fn relative(root: &Path, file: &Path) -> Option<String> {
    let parts: Vec<String> = file
        .strip_prefix(root)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_str().map(str::to_owned))
        .collect::<Option<_>>()?;
    Some(parts.join("/"))
}

fn now() -> String {
    to_the_second(OffsetDateTime::now_utc())
}

/// A file's modification time as RFC 3339 (empty when unknown).
fn modified(file: &Path) -> String {
    fs::metadata(file)
        .and_then(|m| m.modified())
        .map(|t| to_the_second(OffsetDateTime::from(t)))
        .unwrap_or_default()
}
