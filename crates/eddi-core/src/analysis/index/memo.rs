//! What many caller queries on one unchanged index share, worked out once:
//! each reference's resolution, the files that name each name, the files
//! that define each name, and what `__init__` each class runs. The Python API asks the callers of every
//! function a query found in one request (Django: 9084 of them); asked one
//! by one, each resolved again the same references of its common names
//! (`get`, `__init__`) and walked every file for its name.
//!
//! A memo answers for the index it was filled from, and for no other: it
//! holds that index's entries ([`CallersMemo::for_index`]), and
//! [`CallersMemo::fits`] says whether an index is that one still — the
//! same entries in the same slots (an entry never changes once made: a
//! file read again, renamed or laid over by a buffer is a new entry).
//! Whoever keeps a memo from one request to the next asks `fits` first;
//! so each query's whole answer is kept too ([`CallersMemo::callers`]):
//! it is a function of those entries alone.

use std::sync::Arc;

// Fx, not SipHash: the maps are keyed by names and small ids, and
// hashed hundreds of thousands of times in a cold walk of a project
use super::hash::FxHashMap as HashMap;

use super::entry::Entry;
use super::file::{DefId, ValueId};
use super::query::Callers;
use super::resolve::{DefRef, Res};
use super::{FileId, ProjectIndex};
use crate::analysis::outline::SymbolKind;

/// See the module doc. `CallersMemo::default()` starts empty (and fits
/// no index: use it for one request only).
#[derive(Debug, Default)]
pub struct CallersMemo {
    /// The entries of the index it was filled from (kept alive, so that
    /// no other entry can take their addresses).
    entries: Option<Vec<Option<Arc<Entry>>>>,
    /// Each caller query's answer, by the name asked.
    answers: HashMap<String, super::Result<Callers>>,
    resolved: HashMap<(FileId, ValueId), Res>,
    inits: HashMap<DefRef, Res>,
    /// name → the files whose references are keyed by it; made when a
    /// second query comes (one query alone walks the files once anyway)
    naming: Option<HashMap<String, Vec<FileId>>>,
    /// name → the files that define something by that name (a symbol's
    /// definitions are looked up there); made, as `naming`, when a second
    /// query comes
    defining: Option<HashMap<String, Vec<FileId>>>,
    /// The classes with bases (those that may inherit an `__init__`)
    derived: Option<Vec<DefRef>>,
    asked: usize,
}

impl CallersMemo {
    /// An empty memo for `index`, which [`Self::fits`] it while it is as
    /// it is now.
    pub fn for_index(index: &ProjectIndex) -> CallersMemo {
        CallersMemo {
            entries: Some(index.files.clone()),
            ..CallersMemo::default()
        }
    }

    /// Whether `index` is the one this memo was made for, unchanged: the
    /// same entries in the same slots.
    pub fn fits(&self, index: &ProjectIndex) -> bool {
        let Some(entries) = &self.entries else {
            return false;
        };
        entries.len() == index.files.len()
            && entries
                .iter()
                .zip(&index.files)
                .all(|(kept, now)| match (kept, now) {
                    (Some(kept), Some(now)) => Arc::ptr_eq(kept, now),
                    (None, None) => true,
                    _ => false,
                })
    }

    /// The answer of the caller query of `name` asked before, if any.
    pub(crate) fn callers(&self, name: &str) -> Option<&super::Result<Callers>> {
        self.answers.get(name)
    }

    /// Keeps the answer of the caller query of `name`; gives it back.
    pub(crate) fn keep_callers(
        &mut self,
        name: &str,
        answer: super::Result<Callers>,
    ) -> &super::Result<Callers> {
        self.answers
            .entry(name.to_owned())
            .insert_entry(answer)
            .into_mut()
    }

    /// What `value` of `file` denotes (read where it is kept: a common
    /// name's references are read by every query of that name).
    pub(crate) fn resolve(&mut self, index: &ProjectIndex, file: FileId, value: ValueId) -> &Res {
        self.resolved
            .entry((file, value))
            .or_insert_with(|| index.resolve(file, value, 0))
    }

    /// The `__init__` constructing `class` runs.
    pub(crate) fn init_of(&mut self, index: &ProjectIndex, class: DefRef) -> &Res {
        self.inits
            .entry(class)
            .or_insert_with(|| index.class_member(&[class], "__init__", 0))
    }

    /// Every class of the project that has bases, in file order.
    pub(crate) fn derived_classes(&mut self, index: &ProjectIndex) -> Vec<DefRef> {
        self.derived
            .get_or_insert_with(|| {
                let mut found = Vec::new();
                for (fid, f) in index.iter_files() {
                    for (d, def) in f.defs.iter().enumerate() {
                        if def.kind == SymbolKind::Class && !def.bases.is_empty() {
                            found.push(DefRef {
                                file: fid,
                                def: d as DefId,
                            });
                        }
                    }
                }
                found
            })
            .clone()
    }

    /// A query begins (see `naming`).
    pub(crate) fn ask(&mut self) {
        self.asked += 1;
    }

    /// A new request begins with this memo: its maps, once made, are
    /// kept, but a request of one query does not make them (it walks the
    /// files it needs once anyway, without scanning the whole project).
    pub fn begin_request(&mut self) {
        self.asked = 0;
    }

    /// The files defining something named `name`, when the memo keeps
    /// them (past its first query); `None`: walk the index.
    pub(crate) fn files_defining(&mut self, index: &ProjectIndex, name: &str) -> Option<&[FileId]> {
        if self.asked < 2 {
            return None;
        }
        let defining = self.defining.get_or_insert_with(|| {
            // every file scanned, so that each one's definitions are known
            index.scan_python();
            let mut defining = HashMap::default();
            for (fid, file) in index.scanned_files() {
                for id in file.def_ranges.keys() {
                    add_file(&mut defining, file.names.name(*id), fid);
                }
            }
            defining
        });
        Some(defining.get(name).map_or(&[], Vec::as_slice))
    }

    /// The files whose references are keyed by `name`, when the memo
    /// keeps them (past its first query); `None`: walk the index.
    pub(crate) fn files_naming(&mut self, index: &ProjectIndex, name: &str) -> Option<&[FileId]> {
        if self.asked < 2 {
            return None;
        }
        let naming = self.naming.get_or_insert_with(|| {
            // every file scanned, so that each one's names are known
            index.scan_python();
            let mut naming = HashMap::default();
            for (fid, file) in index.scanned_files() {
                for id in file.ref_ranges.keys() {
                    add_file(&mut naming, file.names.name(*id), fid);
                }
            }
            naming
        });
        Some(naming.get(name).map_or(&[], Vec::as_slice))
    }
}

/// Adds `file` to the files of `name`: the name is copied only the first
/// time (most names are in many files).
fn add_file(files: &mut HashMap<String, Vec<FileId>>, name: &str, file: FileId) {
    match files.get_mut(name) {
        Some(found) => found.push(file),
        None => {
            files.insert(name.to_owned(), vec![file]);
        }
    }
}
