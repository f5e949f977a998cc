//! `Find References | Definition | Callers <symbol>`: queries of the
//! project index, which the engine shares between all sessions.
//!
//! The index is built on the first query (in parallel, gitignore-aware)
//! and kept current in two ways: changes made by other programs are picked
//! up by an mtime/size poll (`ProjectIndex::refresh`) at most once per
//! [`REFRESH_EVERY`], and at once after a `Save` through Eddi; the querying
//! session's *unsaved* Python buffers are laid over the index for the
//! duration of its query (so an agent sees its own edits, and no other
//! session does), then the files go back to their text on disk.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ropey::Rope;

use crate::analysis::index::{IndexError, Location, ProjectIndex};
use crate::lang::SymbolQuery;
use crate::reply::{plural, Reply};
use crate::workspace::FileError;

use super::{lock, output, Engine};

/// How stale the index may be with respect to other programs' writes.
pub const REFRESH_EVERY: Duration = Duration::from_secs(1);

#[derive(Default)]
pub(super) struct IndexState {
    index: Option<ProjectIndex>,
    refreshed: Option<Instant>,
}

impl IndexState {
    /// Forces a refresh before the next query (after Eddi saved a file).
    pub(super) fn touch(&mut self) {
        self.refreshed = None;
    }
}

impl Engine {
    pub(super) fn find_symbol(&self, sender: &str, kind: SymbolQuery, symbol: &str) -> Reply {
        self.with_index(sender, |index, limit| match kind {
            SymbolQuery::Definition => definitions(index, symbol),
            SymbolQuery::References => references(index, symbol, limit),
            SymbolQuery::Callers => callers(index, symbol, limit),
        })
        .unwrap_or_else(|fail| fail)
    }

    /// The modules of the project that import `path`, for `Analyze File Dependencies`.
    pub(super) fn imported_by(&self, sender: &str, path: &str) -> Option<String> {
        self.with_index(sender, |index, limit| {
            let module = index.module_of(path)?.to_owned();
            let dependents = index.dependents(&module).ok()?;
            let names: Vec<String> = dependents.iter().map(|d| d.module.clone()).collect();
            Some(if names.is_empty() {
                format!("imported by no module of the project ({module})")
            } else {
                format!(
                    "imported by {}",
                    output::list_in_tiers("module", &names, limit / 2)
                )
            })
        })
        .ok()
        .flatten()
    }

    /// For a code target not found in the current file: where the project
    /// defines it, when elsewhere (`Goto Function requests.api.get` from
    /// `models.py`), so the agent knows which file to open.
    pub(super) fn defined_elsewhere(&self, sender: &str, name: &str, path: &str) -> Option<String> {
        let found = self
            .with_index(sender, |index, _| index.find_definition(name).ok())
            .ok()??;
        let files: Vec<&str> = found
            .iter()
            .map(|d| d.location.path.as_str())
            .filter(|p| *p != path)
            .collect();
        let first = files.first()?;
        Some(format!("{name} is defined in {first}: Open {first} first"))
    }

    /// Runs `query` on the index brought up to date for `sender`: refreshed
    /// from disk when due, with the sender's unsaved Python buffers laid
    /// over it for the duration of the query.
    pub(super) fn with_index<R>(
        &self,
        sender: &str,
        query: impl FnOnce(&ProjectIndex, usize) -> R,
    ) -> Result<R, Reply> {
        let live = self
            .live_of(sender)
            .ok_or_else(|| Reply::fail("No session. Start one with: Start <name>"))?;
        let (overlay, limit) = {
            let live = lock(&live);
            let overlay: Vec<(String, Rope)> = live
                .session
                .buffers
                .values()
                .filter(|b| b.is_modified() && b.language().is_some())
                .map(|b| (b.path().to_string(), b.text().clone()))
                .collect();
            (overlay, live.session.preferences.output_limit)
        };
        let mut state = self
            .index
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let state = &mut *state;
        let index = match &mut state.index {
            Some(index) => {
                if state
                    .refreshed
                    .is_none_or(|at| at.elapsed() >= REFRESH_EVERY)
                {
                    index.refresh();
                    state.refreshed = Some(Instant::now());
                }
                index
            }
            None => {
                state.refreshed = Some(Instant::now());
                state
                    .index
                    .insert(ProjectIndex::build(self.workspace.root()))
            }
        };
        for (path, text) in &overlay {
            let _ = index.update_file(path, text);
        }
        let result = query(index, limit);
        for (path, _) in &overlay {
            self.restore(index, path);
        }
        Ok(result)
    }

    /// Puts a file back to its text on disk after an overlay.
    fn restore(&self, index: &mut ProjectIndex, path: &str) {
        let loaded = self
            .workspace
            .resolve(path)
            .and_then(|p| self.workspace.read(&p));
        match loaded {
            Ok(file) => {
                let _ = index.update_file(path, &Rope::from_str(&file.text));
            }
            Err(FileError::NotFound(_)) | Err(_) => {
                index.remove_file(path);
            }
        }
    }
}

fn definitions(index: &ProjectIndex, symbol: &str) -> Reply {
    match index.find_definition(symbol) {
        Ok(found) if found.is_empty() => Reply::fail(format!("Not found: '{symbol}'")),
        Ok(found) => {
            let listed: Vec<String> = found
                .iter()
                .map(|d| format!("{} {} at {}", d.kind.noun(), d.qualified_name, d.location))
                .collect();
            let n = listed.len();
            Reply::info(format!(
                "Found {n} {}: {}",
                plural(n, "definition"),
                listed.join(", ")
            ))
        }
        // module names are printed too (`Analyze File Dependencies`)
        Err(e) => match index.path_of_module(symbol) {
            Some(path) => Reply::info(format!("Found 1 definition: module {symbol} at {path}:0:0")),
            None => Reply::fail(e.to_string()),
        },
    }
}

fn references(index: &ProjectIndex, symbol: &str, limit: usize) -> Reply {
    match index.find_references(symbol) {
        Ok(found) => {
            let mut text = found_text("reference", &found.certain, limit);
            if !found.possible.is_empty() {
                let n = found.possible.len();
                text.push_str(&format!(
                    "; {n} possible: {}",
                    locations_in_tiers(&found.possible, limit / 2)
                ));
            }
            Reply::info(text)
        }
        Err(e) => unresolved_or_fail(index, symbol, false, e, limit),
    }
}

/// A name the project no longer defines (renamed in its own file) still
/// has uses in other files: they are listed, not hidden behind `Not found`.
fn unresolved_or_fail(
    index: &ProjectIndex,
    symbol: &str,
    calls_only: bool,
    error: IndexError,
    limit: usize,
) -> Reply {
    if matches!(error, IndexError::NotFound { .. }) {
        let left: Vec<Location> = index
            .find_unresolved(symbol, calls_only)
            .into_iter()
            .map(|c| c.location)
            .collect();
        if !left.is_empty() {
            let noun = if calls_only { "caller" } else { "reference" };
            return Reply::info(format!(
                "Found 0 {} (no definition of '{symbol}' in the project); {} unresolved: {}",
                plural(0, noun),
                left.len(),
                locations_in_tiers(&left, limit)
            ));
        }
    }
    Reply::fail(error.to_string())
}

fn callers(index: &ProjectIndex, symbol: &str, limit: usize) -> Reply {
    match index.find_callers(symbol) {
        Ok(found) => {
            let described = |calls: &[crate::analysis::index::Call]| -> Vec<String> {
                calls
                    .iter()
                    .map(|c| {
                        format!(
                            "{} in {}",
                            c.location,
                            c.caller.as_deref().unwrap_or("<module>")
                        )
                    })
                    .collect()
            };
            let certain = described(&found.certain);
            let n = certain.len();
            let mut text = if n == 0 {
                "Found 0 callers".to_owned()
            } else {
                format!(
                    "Found {n} {}: {}",
                    plural(n, "caller"),
                    output::list_in_tiers("caller", &certain, limit)
                )
            };
            if !found.possible.is_empty() {
                let possible = described(&found.possible);
                let n = possible.len();
                text.push_str(&format!(
                    "; {n} possible: {}",
                    output::list_in_tiers("caller", &possible, limit / 2)
                ));
            }
            Reply::info(text)
        }
        Err(e) => unresolved_or_fail(index, symbol, true, e, limit),
    }
}

fn found_text(noun: &str, locations: &[Location], limit: usize) -> String {
    let n = locations.len();
    if n == 0 {
        return format!("Found 0 {}", plural(0, noun));
    }
    format!(
        "Found {n} {}: {}",
        plural(n, noun),
        locations_in_tiers(locations, limit)
    )
}

/// Locations in tiers: every `path:line:col`; else counts per file; else
/// the number of files. Always says which.
fn locations_in_tiers(locations: &[Location], limit: usize) -> String {
    let all: Vec<String> = locations.iter().map(ToString::to_string).collect();
    let joined = all.join(", ");
    if joined.chars().count() <= limit {
        return joined;
    }
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for location in locations {
        *per_file.entry(location.path.as_str()).or_default() += 1;
    }
    let counts: Vec<String> = per_file
        .iter()
        .map(|(path, n)| format!("{path} {n}"))
        .collect();
    let files = per_file.len();
    let counted = counts.join(", ");
    if counted.chars().count() <= limit {
        return format!("too many to list, per file: {counted}");
    }
    format!(
        "too many to list, in {files} {}; narrow the query",
        plural(files, "file")
    )
}
