//! `Find References | Definition | Callers <symbol>`: queries of the
//! project index, which the engine shares between all sessions.
//!
//! The index is built on the first query (in parallel, gitignore-aware)
//! and kept current in two ways: changes made by other programs are seen
//! by a watch of the tree (`workspace::TreeWatch`, `notify`) and re-read
//! file by file before the next query (`ProjectIndex::refresh_files`; a
//! new directory or project marker walks the tree) — where the tree cannot
//! be watched, an mtime/size poll (`ProjectIndex::refresh`) at most once
//! per [`REFRESH_EVERY`] —, and the files Eddi writes (saves, commits) are
//! re-read before the next query; the querying
//! session's *unsaved* Python buffers are laid over the index as a view
//! for its query (`ProjectIndex::overlaid`: so an agent sees its own edits,
//! and no other session does); the shared index is never written by a query.

use crate::outcome::{Completion, Fact, Found, Listed, Outcome, Site, Sites};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, UNIX_EPOCH};

use ropey::Rope;

use serde_json::{json, Map, Value};

use crate::analysis::index::tags::FileImports;
use crate::analysis::index::{CallersMemo, ProjectIndex, Stamp, Written};
use crate::commands::SymbolQuery;
use crate::language::Capability;
use crate::reply::Clause;
use crate::session::Session;
use crate::workspace::{TreeChanges, TreeWatch, Workspace, WorkspacePath};

use super::context::Ran;
use super::ops::{json, symbols, DefinitionSite, ErrorKind, Location, OpError, Uses};
use super::Engine;

/// How stale the index may be with respect to other programs' writes.
pub const REFRESH_EVERY: Duration = Duration::from_secs(1);

/// The project index every session queries, and what is due to it.
#[derive(Default)]
pub(super) struct SharedIndex {
    pub(super) state: Mutex<IndexState>,
    /// Files Eddi wrote since the index last looked (re-read before the
    /// next query): kept apart from the index's lock, so that a save or a
    /// commit never waits for a query or an update in progress.
    written: Mutex<BTreeSet<String>>,
    /// What the caller queries of the last script or `select` worked
    /// out, for the next one while the index is the same
    /// (`CallersMemo::fits`).
    memo: Mutex<Option<CallersMemo>>,
}

impl SharedIndex {
    /// Files Eddi wrote (a save, a commit): re-read before the next query,
    /// without waiting for the watch or the poll.
    pub(super) fn touch<'p>(&self, paths: impl IntoIterator<Item = &'p WorkspacePath>) {
        self.written
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(paths.into_iter().map(|p| p.as_str().to_owned()));
    }

    /// A memo of caller queries for `index`: the one kept, when it was
    /// made for this index as it is, else a new one.
    pub(super) fn memo_for(&self, index: &ProjectIndex) -> CallersMemo {
        let kept = self.memo.lock().unwrap_or_else(|p| p.into_inner()).take();
        let mut memo = kept
            .filter(|memo| memo.fits(index))
            .unwrap_or_else(|| CallersMemo::for_index(index));
        memo.begin_request();
        memo
    }

    /// Keeps `memo` for the next request (see [`Self::memo_for`]).
    pub(super) fn keep_memo(&self, memo: CallersMemo) {
        *self.memo.lock().unwrap_or_else(|p| p.into_inner()) = Some(memo);
    }

    /// The index's state, locked.
    pub(super) fn lock(&self) -> MutexGuard<'_, IndexState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Brings a built index up to what is due (see [`IndexState::due`]).
    fn update(&self, state: &mut IndexState) {
        let written = std::mem::take(&mut *self.written.lock().unwrap_or_else(|p| p.into_inner()));
        let due = state.due(written);
        let Some(index) = state.index.as_mut() else {
            return;
        };
        match due {
            TreeChanges::Nothing => {}
            TreeChanges::Files(files) => {
                index.refresh_files(&files);
            }
            TreeChanges::Everything => {
                index.refresh();
                state.walks += 1;
            }
        }
    }

    /// After a commit, on a thread of its own: takes the trees of the files
    /// the refactor's check parsed (when their text is what the commit
    /// wrote), re-reads every written file (keeping an entry whose text is
    /// the one on disk), and drops the trees. The
    /// turn that committed replies meanwhile; a query that comes first
    /// waits on the index's lock, or finds the files due and reads them
    /// itself.
    ///
    /// Not a job on rayon's pool: the job waits for the index's lock, which
    /// a turn may hold while it waits for the pool (the check's parallel
    /// parse), and a pool thread that picked the job up while waiting in a
    /// join of that parse would never come back to it.
    pub(super) fn update_in_background(
        self: &Arc<Self>,
        parsed: Vec<(crate::refactor::check::Checked, crate::workspace::DiskStamp)>,
    ) {
        let shared = Arc::clone(self);
        let update = move || {
            let written: Vec<Written<'_>> = parsed
                .iter()
                .filter_map(|(checked, disk)| {
                    let content = blake3::hash(checked.text.as_bytes());
                    (content.to_hex().as_str() == disk.hash).then(|| Written {
                        path: checked.path.as_str().to_string(),
                        text: checked.text.as_str(),
                        tree: checked.tree.tree(),
                        stamp: Stamp {
                            modified: Some(UNIX_EPOCH + Duration::from_nanos(disk.mtime_ns)),
                            len: disk.len,
                        },
                        content,
                    })
                })
                .collect();
            {
                let mut state = shared.lock();
                if let Some(index) = state.index.as_mut() {
                    index.adopt_written(&written);
                }
                // Read again after adopting (an unchanged text only costs a
                // hash): a query may have read a later write of one of
                // these files since the commit, and the adopted tree would
                // hide it.
                shared.touch(parsed.iter().map(|(checked, _)| &checked.path));
                shared.update(&mut state);
            }
            // the trees are freed here, off the turn's thread
            drop(written);
            drop(parsed);
        };
        // handed over once the thread exists, so that it is still here if
        // it does not
        let (sender, receiver) = std::sync::mpsc::sync_channel::<Box<dyn FnOnce() + Send>>(1);
        let spawned = std::thread::Builder::new()
            .name("eddi-index".into())
            .spawn(move || {
                crate::priority::lower_this_thread();
                if let Ok(update) = receiver.recv() {
                    update()
                }
            });
        match spawned {
            Ok(_) => {
                let _ = sender.send(Box::new(update));
            }
            // no thread to be had: the turn does it itself
            Err(e) => {
                tracing::warn!(error = %e, "no thread for the index update; done in the turn");
                update()
            }
        }
    }
}

#[derive(Default)]
pub(super) struct IndexState {
    index: Option<ProjectIndex>,
    /// Other programs' changes as they happen; `None` where the tree
    /// cannot be watched — then the index polls every [`REFRESH_EVERY`].
    watch: Option<TreeWatch>,
    refreshed: Option<Instant>,
    /// How often the whole tree was walked since the build (tested: a
    /// watched tree is not walked per query).
    pub(super) walks: u64,
}

impl IndexState {
    /// What to bring up to date before a query: what Eddi wrote, and what
    /// the watch saw (or, unwatched, everything once per `REFRESH_EVERY`).
    fn due(&mut self, written: BTreeSet<String>) -> TreeChanges {
        let seen = match &self.watch {
            Some(watch) => watch.take(),
            None if self
                .refreshed
                .is_none_or(|at| at.elapsed() >= REFRESH_EVERY) =>
            {
                self.refreshed = Some(Instant::now());
                TreeChanges::Everything
            }
            None => TreeChanges::Nothing,
        };
        match seen {
            TreeChanges::Everything => TreeChanges::Everything,
            _ if written.is_empty() => seen,
            TreeChanges::Files(files) => {
                TreeChanges::Files(written.into_iter().chain(files).collect())
            }
            TreeChanges::Nothing => TreeChanges::Files(written.into_iter().collect()),
        }
    }
}

impl Engine {
    pub(super) fn find_symbol(
        &self,
        sender: &str,
        session: &Session,
        kind: SymbolQuery,
        symbol: &str,
    ) -> Ran {
        // Only the sites in files the sender may read (its path prefixes).
        let readable = |mut uses: Uses| {
            uses.sites.retain(|site| self.can_see(sender, &site.path));
            uses
        };
        // asked from the current file: of several projects', its own
        let current = session.current_buffer().map(|b| b.path().to_string());
        let current = current.as_deref();
        self.with_index(session, |index, limit, lines| match kind {
            SymbolQuery::Definition => definitions(index, symbol, current, limit, lines, &|p| {
                self.can_see(sender, p)
            }),
            SymbolQuery::References => uses(
                symbols::find_references(index, symbol, current, lines).map(readable),
                symbol,
                "reference",
                limit,
                lines,
            ),
            SymbolQuery::Callers => uses(
                symbols::find_callers(index, symbol, current).map(readable),
                symbol,
                "caller",
                limit,
                lines,
            ),
        })
    }

    /// The modules of the project that import `path`, for `Analyze File
    /// Dependencies`.
    pub(super) fn imported_by(
        &self,
        sender: &str,
        session: &Session,
        path: &str,
    ) -> Option<Completion> {
        self.with_index(session, |index, limit, _| {
            let (module, found) = symbols::dependents(index, path)?;
            let modules: Vec<String> = found
                .into_iter()
                .filter(|(_, file)| file.as_deref().is_some_and(|f| self.can_see(sender, f)))
                .map(|(m, _)| m)
                .collect();
            Some(Completion::ImportedBy {
                module,
                modules,
                limit,
            })
        })
    }

    /// What a JavaScript, TypeScript, Go, Rust or Java file imports, as the
    /// index resolves it (`Analyze File Dependencies`, `get_dependencies`),
    /// with only the files `sender` may read; `None` when the index does
    /// not hold the file.
    pub(super) fn module_imports(
        &self,
        sender: &str,
        session: &Session,
        path: &str,
    ) -> Option<FileImports> {
        let mut found = self.with_index(session, |index, _, _| {
            index.tags().imports_of(index.root(), path)
        })?;
        for import in &mut found.imports {
            import.files.retain(|f| self.can_see(sender, f));
        }
        Some(found)
    }

    /// For a code target not found in the current file: where the project
    /// defines it, when elsewhere (`Goto Function requests.api.get` from
    /// `models.py`, `Show Function B` from a Go file of `B`'s package),
    /// so the agent knows which file to open.
    pub(super) fn defined_elsewhere(
        &self,
        session: &Session,
        name: &str,
        path: &str,
    ) -> Option<String> {
        let found = self.with_index(session, |index, _, _| {
            symbols::find_definition(index, name, Some(path)).ok()
        })?;
        let files: Vec<&str> = found
            .iter()
            .map(|d| d.location.path.as_str())
            .filter(|p| *p != path)
            .collect();
        let first = files.first()?;
        Some(format!("{name} is defined in {first}: Open {first} first"))
    }

    /// Runs `query` on the index brought up to date for `session` (which
    /// the caller holds: the index never locks a session): refreshed
    /// from disk when due, with the session's unsaved Python buffers laid
    /// over it for the duration of the query; the lines of the sites it
    /// finds come from those buffers, else from disk.
    pub(super) fn with_index<R>(
        &self,
        session: &Session,
        query: impl FnOnce(&ProjectIndex, usize, &mut SiteLines<'_>) -> R,
    ) -> R {
        let overlay: Vec<(String, Rope)> = session
            .buffers
            .values()
            .filter(|b| b.is_modified() && b.language_supporting(Capability::IndexScan).is_some())
            .map(|b| (b.path().to_string(), b.text().clone()))
            .collect();
        let mut lines = SiteLines::new(&self.workspace, session);
        let limit = session.preferences.output_limit;
        self.fresh_index(|index| {
            if overlay.is_empty() {
                return query(index, limit, &mut lines);
            }
            // the sender's unsaved buffers, as a view: the shared index is untouched
            let view = index.overlaid(&overlay);
            query(&view, limit, &mut lines)
        })
    }

    /// Runs `query` on the index `session` sees (see [`Self::with_index`])
    /// with a proposed change laid over it as well — what the project
    /// would be once the change is committed (for checking a refactor
    /// first). The change's base texts are the session's buffers, else
    /// the disk. Fails, naming the file, when a base cannot be read or the
    /// edits do not apply to it.
    #[allow(dead_code)] // the refactor commands are its first users
    pub(super) fn with_index_changed<R>(
        &self,
        session: &Session,
        change: &crate::change::WorkspaceChange,
        query: impl FnOnce(&ProjectIndex) -> R,
    ) -> Result<R, String> {
        let overlay: Vec<(String, Rope)> = session
            .buffers
            .values()
            .filter(|b| b.is_modified() && b.language_supporting(Capability::IndexScan).is_some())
            .map(|b| (b.path().to_string(), b.text().clone()))
            .collect();
        let base = |path: &crate::workspace::WorkspacePath| match session.buffer(path) {
            Some(buffer) => Some(buffer.text().clone()),
            None => Some(Rope::from_str(&self.workspace.read(path).ok()?.text)),
        };
        self.fresh_index(|index| {
            let view = match overlay.is_empty() {
                true => index.overlaid_change(change, base)?,
                false => index.overlaid(&overlay).overlaid_change(change, base)?,
            };
            Ok(query(&view))
        })
    }

    /// Why a definition inserted at chars `element` of `path`'s new text
    /// would meet one another file of the project declares in its
    /// namespace ([`crate::refactor::inserted_taken_beside`]), the other
    /// files as they are on disk.
    pub(super) fn inserted_taken_beside(
        &self,
        path: &str,
        language: &'static dyn crate::language::Language,
        after: &Rope,
        element: std::ops::Range<usize>,
    ) -> Option<String> {
        let sources = crate::refactor::WorkspaceSources {
            workspace: &self.workspace,
        };
        self.fresh_index(|index| {
            let project = crate::refactor::Project::new(index, &sources, None);
            crate::refactor::inserted_taken_beside(&project, path, language, after, element)
        })
    }

    /// Builds the project index if no query did yet, and scans every file
    /// of it now (what [`EngineConfig::scan_index_ahead`](super::EngineConfig)
    /// does on a thread of its own): later queries find it whole.
    pub fn scan_index(&self) {
        self.fresh_index(|index| index.scan_all())
    }

    /// Stores the scans of the brace languages' files the index holds for
    /// the next process (`analysis/index/tags/store.rs`), when a query
    /// built the index and scanned some file the store did not hold:
    /// what a short-lived process (`eddi run`, `eddi repl`) does before it
    /// ends. A
    /// store that cannot be written costs the next process its parse, and
    /// is logged.
    pub fn store_index_scans(&self) {
        let state = self.index.lock();
        let Some(index) = state.index.as_ref() else {
            return;
        };
        match index.store_scans() {
            Ok(stored) => tracing::debug!(?stored, "brace scans stored"),
            Err(e) => tracing::info!(error = %e, "cannot store the brace scans"),
        }
    }

    /// Runs `f` on the shared index, built on first use and refreshed from
    /// disk when due.
    fn fresh_index<R>(&self, f: impl FnOnce(&ProjectIndex) -> R) -> R {
        let mut state = self.index.lock();
        if state.index.is_none() {
            let started = Instant::now();
            // watching first: a change made during the build is seen next
            state.watch = match self.config.watch_tree.then(|| self.workspace.watch()) {
                None => None,
                Some(Ok(watch)) => Some(watch),
                Some(Err(e)) => {
                    tracing::info!(error = %e, "cannot watch the workspace; the index polls it");
                    None
                }
            };
            tracing::debug!(
                watched = state.watch.is_some(),
                watch_ms = started.elapsed().as_secs_f64() * 1e3,
                "tree watch set up"
            );
            let started = Instant::now();
            state.refreshed = Some(Instant::now());
            // what was written before the build is in it
            self.index
                .written
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clear();
            let index = ProjectIndex::build_in(&self.workspace);
            tracing::debug!(
                build_ms = started.elapsed().as_secs_f64() * 1e3,
                files = index.len(),
                "index built (read; files are scanned as queries need them)"
            );
            if self.config.scan_index_ahead {
                let scan = index.scanner();
                let spawned = std::thread::Builder::new()
                    .name("eddi-index-scan".into())
                    .spawn(move || {
                        crate::priority::lower_this_thread();
                        scan()
                    });
                if let Err(e) = spawned {
                    tracing::info!(error = %e, "cannot scan the index ahead; queries scan it");
                }
            }
            state.index = Some(index);
        } else {
            self.index.update(&mut state);
        }
        f(state.index.as_ref().expect("built above"))
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
    pub(super) fn new(workspace: &'w Workspace, session: &Session) -> Self {
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

    /// The text of `line` of `path` as written, if the file can be read.
    pub(super) fn raw_line(&mut self, path: &str, line: usize) -> Option<String> {
        let text = self.text(path)?;
        (line < text.len_lines()).then(|| text.line(line).to_string())
    }

    /// The text of `path` as the sender sees it (its buffer, else the
    /// file), if the file can be read.
    pub(super) fn text(&mut self, path: &str) -> Option<&Rope> {
        match self.buffers.get(path) {
            Some(text) => Some(text),
            None => {
                let workspace = self.workspace;
                self.disk
                    .entry(path.to_owned())
                    .or_insert_with(|| {
                        let path = workspace.resolve(path).ok()?;
                        Some(Rope::from_str(&workspace.read(&path).ok()?.text))
                    })
                    .as_ref()
            }
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
    current: Option<&str>,
    limit: usize,
    lines: &mut SiteLines<'_>,
    readable: &dyn Fn(&str) -> bool,
) -> Ran {
    let mut found = symbols::find_definition(index, symbol, current)?;
    found.retain(|d| readable(&d.location.path));
    if found.is_empty() {
        return Err(OpError::new(
            ErrorKind::NotFound,
            format!("Not found: '{symbol}'"),
        ));
    }
    let data = |found: &[DefinitionSite]| {
        json::data(
            "definitions",
            Value::Array(found.iter().map(json::definition).collect()),
        )
    };
    // module names are printed too (`Analyze File Dependencies`)
    if let [module] = found.as_slice() {
        if module.kind == "module" {
            let fact = Fact::ModuleDefinition {
                module: module.qualified_name.clone(),
                path: module.location.path.clone(),
            };
            return Ok(Outcome::answer(vec![Clause::Fact(fact), data(&found)]));
        }
    }
    if lines_may_fit(found.len(), limit) {
        symbols::add_definition_context(&mut found, lines);
    }
    let sites: Vec<Site> = found
        .iter()
        .map(|d| {
            site(
                &d.location,
                Some(format!("{} {}", d.kind, d.qualified_name)),
            )
        })
        .collect();
    let found_sites = Sites {
        head: Found::Definitions(sites.len()),
        listed: Listed::Sites {
            certain: sites,
            possible: Vec::new(),
        },
        limit,
        first: None,
    };
    Ok(Outcome::found(found_sites, data(&found)))
}

/// `Find References` and `Find Callers`: `noun` names what a use is.
fn uses(
    found: Result<Uses, OpError>,
    symbol: &str,
    noun: &'static str,
    limit: usize,
    lines: &mut SiteLines<'_>,
) -> Ran {
    let mut found = found?;
    if lines_may_fit(found.sites.len(), limit) {
        symbols::add_context(&mut found.sites, lines, true);
    }
    let label = |l: &Location| l.in_symbol.as_ref().map(|s| format!("in {s}"));
    let certain: Vec<Site> = found.certain().map(|l| site(l, label(l))).collect();
    let possible: Vec<Site> = found.possible().map(|l| site(l, label(l))).collect();
    let head = if found.unresolved {
        Found::Unresolved {
            noun,
            symbol: symbol.to_owned(),
            count: certain.len(),
        }
    } else {
        Found::Uses {
            noun,
            certain: certain.len(),
            possible: possible.len(),
        }
    };
    let mut fields = Map::new();
    fields.insert(format!("{noun}s"), json::locations(&found.sites));
    if found.unresolved {
        fields.insert("unresolved".into(), json!(true));
    }
    let sites = Sites {
        head,
        listed: Listed::Sites { certain, possible },
        limit,
        first: None,
    };
    Ok(Outcome::found(sites, Clause::Data(fields)))
}

/// A located site as the terse tiers list it.
fn site(location: &Location, label: Option<String>) -> Site {
    Site {
        path: location.path.clone(),
        position: location.span.start,
        line: location.context.clone(),
        label,
    }
}
