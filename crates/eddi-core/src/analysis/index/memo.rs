//! What many caller queries on one unchanged index share, worked out once:
//! each reference's resolution, the files that name each name, and what
//! `__init__` each class runs. The Python API asks the callers of every
//! function a query found in one request (Django: 9084 of them); asked one
//! by one, each resolved again the same references of its common names
//! (`get`, `__init__`) and walked every file for its name.
//!
//! A memo answers for the index it was filled from: it is dropped with
//! that index (or view), never carried to another.

use std::collections::HashMap;

use super::file::{DefId, ValueId};
use super::resolve::{DefRef, Res};
use super::{FileId, ProjectIndex};
use crate::analysis::outline::SymbolKind;

/// See the module doc. `CallersMemo::default()` starts empty.
#[derive(Debug, Default)]
pub struct CallersMemo {
    resolved: HashMap<(FileId, ValueId), Res>,
    inits: HashMap<DefRef, Res>,
    /// name → the files whose references are keyed by it; made when a
    /// second query comes (one query alone walks the files once anyway)
    naming: Option<HashMap<String, Vec<FileId>>>,
    /// The classes with bases (those that may inherit an `__init__`)
    derived: Option<Vec<DefRef>>,
    asked: usize,
}

impl CallersMemo {
    /// What `value` of `file` denotes.
    pub(crate) fn resolve(&mut self, index: &ProjectIndex, file: FileId, value: ValueId) -> Res {
        self.resolved
            .entry((file, value))
            .or_insert_with(|| index.resolve(file, value, 0))
            .clone()
    }

    /// The `__init__` constructing `class` runs.
    pub(crate) fn init_of(&mut self, index: &ProjectIndex, class: DefRef) -> Res {
        self.inits
            .entry(class)
            .or_insert_with(|| index.class_member(&[class], "__init__", 0))
            .clone()
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

    /// The files whose references are keyed by `name`, when the memo
    /// keeps them (past its first query); `None`: walk the index.
    pub(crate) fn files_naming(&mut self, index: &ProjectIndex, name: &str) -> Option<&[FileId]> {
        if self.asked < 2 {
            return None;
        }
        let naming = self.naming.get_or_insert_with(|| {
            // every file scanned, so that each one's names are known
            index.scan_all();
            let mut naming: HashMap<String, Vec<FileId>> = HashMap::new();
            for (fid, file) in index.scanned_files() {
                for id in file.ref_ranges.keys() {
                    naming
                        .entry(file.names.name(*id).to_owned())
                        .or_default()
                        .push(fid);
                }
            }
            naming
        });
        Some(naming.get(name).map_or(&[], Vec::as_slice))
    }
}
