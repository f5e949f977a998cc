//! `Find References | Definition | Callers <symbol>`: queries of the
//! project index, which the engine shares between all sessions.
//!
//! The index is built on the first query (in parallel, gitignore-aware)
//! and kept current in two ways: changes made by other programs are picked
//! up by an mtime/size poll (`ProjectIndex::refresh`) at most once per
//! [`REFRESH_EVERY`], and at once after a `Save` through Eddi; the querying
//! session's *unsaved* Python buffers are laid over the index as a view
//! for its query (`ProjectIndex::overlaid`: so an agent sees its own edits,
//! and no other session does); the shared index is never written by a query.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use ropey::Rope;

use crate::analysis::index::{Call, IndexError, Location, ProjectIndex};
use crate::lang::SymbolQuery;
use crate::reply::{plural, Reply};
use crate::workspace::Workspace;

use super::output::{self, site_line, Site};
use super::{lock, Engine};

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
        self.with_index(sender, |index, limit, lines| match kind {
            SymbolQuery::Definition => definitions(index, symbol, limit, lines),
            SymbolQuery::References => references(index, symbol, limit, lines),
            SymbolQuery::Callers => callers(index, symbol, limit, lines),
        })
        .unwrap_or_else(|fail| fail)
    }

    /// The modules of the project that import `path`, for `Analyze File Dependencies`.
    pub(super) fn imported_by(&self, sender: &str, path: &str) -> Option<String> {
        self.with_index(sender, |index, limit, _| {
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
            .with_index(sender, |index, _, _| index.find_definition(name).ok())
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
    /// over it for the duration of the query; the lines of the sites it
    /// finds come from those buffers, else from disk.
    pub(super) fn with_index<R>(
        &self,
        sender: &str,
        query: impl FnOnce(&ProjectIndex, usize, &mut SiteLines<'_>) -> R,
    ) -> Result<R, Reply> {
        let live = self
            .live_of(sender)
            .ok_or_else(|| Reply::fail("No session. Start one with: Start <name>"))?;
        let (overlay, limit, mut lines) = {
            let live = lock(&live);
            let overlay: Vec<(String, Rope)> = live
                .session
                .buffers
                .values()
                .filter(|b| b.is_modified() && b.language().is_some())
                .map(|b| (b.path().to_string(), b.text().clone()))
                .collect();
            let lines = SiteLines::new(&self.workspace, &live.session);
            (overlay, live.session.preferences.output_limit, lines)
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
                state.index.insert(ProjectIndex::build_in(&self.workspace))
            }
        };
        if overlay.is_empty() {
            return Ok(query(index, limit, &mut lines));
        }
        // the sender's unsaved buffers, as a view: the shared index is untouched
        let view = index.overlaid(&overlay);
        Ok(query(&view, limit, &mut lines))
    }
}

/// The text of the lines sites are on: the session's open buffers (saved
/// or not, as the index sees them), else the file on disk, read once.
pub(super) struct SiteLines<'w> {
    workspace: &'w Workspace,
    buffers: HashMap<String, Rope>,
    disk: HashMap<String, Option<Rope>>,
}

impl<'w> SiteLines<'w> {
    pub(super) fn new(workspace: &'w Workspace, session: &crate::session::Session) -> Self {
        SiteLines {
            workspace,
            buffers: session
                .buffers
                .values()
                .map(|b| (b.path().to_string(), b.text().clone()))
                .collect(),
            disk: HashMap::new(),
        }
    }

    /// The trimmed text of `line` of `path`, if the file can be read.
    fn line(&mut self, path: &str, line: usize) -> Option<String> {
        let text = match self.buffers.get(path) {
            Some(text) => text,
            None => {
                let workspace = self.workspace;
                self.disk
                    .entry(path.to_owned())
                    .or_insert_with(|| {
                        let path = workspace.resolve(path).ok()?;
                        Some(Rope::from_str(&workspace.read(&path).ok()?.text))
                    })
                    .as_ref()?
            }
        };
        (line < text.len_lines()).then(|| site_line(&text.line(line).to_string()))
    }

    /// A site at `location`, with its line when the sites could fit the
    /// budget with lines at all (no file is read for a list that cannot).
    fn site(&mut self, location: &Location, label: Option<String>, with_line: bool) -> Site {
        Site {
            path: location.path.clone(),
            position: location.position,
            line: if with_line {
                self.line(&location.path, location.position.line)
            } else {
                None
            },
            label,
        }
    }
}

/// Whether `n` sites might fit `limit` chars with their lines: each needs
/// at least a path, a position and some text.
fn lines_may_fit(n: usize, limit: usize) -> bool {
    n.saturating_mul(16) <= limit
}

fn definitions(
    index: &ProjectIndex,
    symbol: &str,
    limit: usize,
    lines: &mut SiteLines<'_>,
) -> Reply {
    match index.find_definition(symbol) {
        Ok(found) if found.is_empty() => Reply::fail(format!("Not found: '{symbol}'")),
        Ok(found) => {
            let with_line = lines_may_fit(found.len(), limit);
            let sites: Vec<Site> = found
                .iter()
                .map(|d| {
                    let label = format!("{} {}", d.kind.noun(), d.qualified_name);
                    lines.site(&d.location, Some(label), with_line)
                })
                .collect();
            let n = sites.len();
            let head = format!("Found {n} {}", plural(n, "definition"));
            Reply::Info(output::sites_in_tiers(&head, &sites, &[], limit))
        }
        // module names are printed too (`Analyze File Dependencies`)
        Err(e) => match index.path_of_module(symbol) {
            Some(path) => Reply::info(format!("Found 1 definition: module {symbol} at {path}:0:0")),
            None => Reply::fail(e.to_string()),
        },
    }
}

fn references(
    index: &ProjectIndex,
    symbol: &str,
    limit: usize,
    lines: &mut SiteLines<'_>,
) -> Reply {
    match index.find_references(symbol) {
        Ok(found) => {
            let with_line = lines_may_fit(found.certain.len() + found.possible.len(), limit);
            let mut sites = |locations: &[Location]| -> Vec<Site> {
                locations
                    .iter()
                    .map(|l| lines.site(l, None, with_line))
                    .collect()
            };
            let (certain, possible) = (sites(&found.certain), sites(&found.possible));
            let head = found_head("reference", certain.len(), possible.len());
            Reply::Info(output::sites_in_tiers(&head, &certain, &possible, limit))
        }
        Err(e) => unresolved_or_fail(index, symbol, false, e, limit, lines),
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
    lines: &mut SiteLines<'_>,
) -> Reply {
    if matches!(error, IndexError::NotFound { .. }) {
        let left = index.find_unresolved(symbol, calls_only);
        if !left.is_empty() {
            let with_line = lines_may_fit(left.len(), limit);
            let sites: Vec<Site> = left
                .iter()
                .map(|c| lines.site(&c.location, None, with_line))
                .collect();
            let noun = if calls_only { "caller" } else { "reference" };
            let head = format!(
                "Found 0 {} (no definition of '{symbol}' in the project); {} unresolved",
                plural(0, noun),
                left.len(),
            );
            return Reply::Info(output::sites_in_tiers(&head, &sites, &[], limit));
        }
    }
    Reply::fail(error.to_string())
}

fn callers(index: &ProjectIndex, symbol: &str, limit: usize, lines: &mut SiteLines<'_>) -> Reply {
    match index.find_callers(symbol) {
        Ok(found) => {
            let with_line = lines_may_fit(found.certain.len() + found.possible.len(), limit);
            let mut sites = |calls: &[Call]| -> Vec<Site> {
                calls
                    .iter()
                    .map(|c| {
                        let label = format!("in {}", c.caller.as_deref().unwrap_or("<module>"));
                        lines.site(&c.location, Some(label), with_line)
                    })
                    .collect()
            };
            let (certain, possible) = (sites(&found.certain), sites(&found.possible));
            let head = found_head("caller", certain.len(), possible.len());
            Reply::Info(output::sites_in_tiers(&head, &certain, &possible, limit))
        }
        Err(e) => unresolved_or_fail(index, symbol, true, e, limit, lines),
    }
}

/// `Found 3 references` or `Found 3 references and 2 possible`.
fn found_head(noun: &str, certain: usize, possible: usize) -> String {
    let head = format!("Found {certain} {}", plural(certain, noun));
    if possible == 0 {
        head
    } else {
        format!("{head} and {possible} possible")
    }
}
