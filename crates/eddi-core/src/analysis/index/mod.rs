//! The project index (the Code Query Engine): every Python module of a
//! workspace with its definitions, imports and references, for
//! `Find Definition`, `Find References`, `Find Callers` and
//! `Analyze … Dependencies`.
//!
//! Code map:
//! * [`module_path`](mod@module_path): import roots and module names from paths, relative
//!   imports made absolute.
//! * [`projects`]: module names per project: a file's imports find its
//!   own project's modules first.
//! * [`file`](mod@file): one file's [`FileIndex`]; names resolved by scope within the
//!   file, cross-module meaning left symbolic.
//! * [`resolve`]: what a symbolic value denotes in the project, at query time.
//! * `fixtures`: what a pytest test's parameter holds, from the fixture
//!   pytest would give it (the test's class, its module, the `conftest.py`
//!   files above it).
//! * [`query`]: the queries and their result types.
//! * [`rename`](mod@rename): what a rename asks: the symbol (current file
//!   first), a method's hierarchy, every site naming it.
//! * [`subclasses`]: which classes derive from which, found from the files
//!   that spell their names.
//! * [`disk`]: which files are indexed, reading, stamps, one parser per thread.
//! * `entry`: one indexed file, scanned when a query first needs it.
//! * [`hash`]: the fast hasher of the index's maps.
//!
//! **Architecture invariant:** a [`FileIndex`] depends only on its own file's
//! text and module name (from its path and the project markers above it). Cross-module links (imports, re-exports, base classes,
//! star imports) are followed when a query runs. So [`ProjectIndex::update_file`]
//! re-indexes exactly one file and nothing else goes stale; queries pay for
//! resolution, but only for references whose key (the referenced symbol's
//! own name) matches, found by binary search per file.
//!
//! **Scanned on demand.** [`ProjectIndex::build`] walks the tree and reads
//! every file (its jail, size and UTF-8 rules, its content hash); a file
//! is parsed and scanned the first time a query needs it. A query keyed by
//! a name (references, callers, definitions, a rename's sites) scans the
//! files whose text spells the name, in parallel — a file's index keys
//! only words of its own text — and resolution scans the modules it
//! follows; a question about every file ([`ProjectIndex::iter_files`])
//! scans them all first. [`ProjectIndex::scan_all`] and
//! [`ProjectIndex::scanner`] scan the rest ahead (a long-running service
//! does, after its first query). Answers are the same either way.
//!
//! **Keeping current.** The index itself never watches or polls: its owner
//! says what changed. [`ProjectIndex::update_file`] re-indexes one file
//! from a text, [`ProjectIndex::refresh_files`] re-reads the files named,
//! and [`ProjectIndex::refresh`] stats every indexed file (modification time
//! and size) and walks the tree for new and deleted ones, re-indexing only
//! what changed. The engine (`engine/query.rs`) drives it from a `notify`
//! watch of the tree (`workspace::TreeWatch`), re-reads the files Eddi
//! itself wrote, and falls back to `refresh` at most once a second where
//! the tree is not watched (it cannot be, or a one-shot `eddi run`). Each
//! entry keeps the hash of the text it was read from
//! ([`ProjectIndex::content_of`]): a refactor checks the files it read
//! against it, since a watch reports another program's write a little
//! late. Polling by stamps misses a change that keeps both size and mtime
//! (within the file system's resolution) until the next change; a file
//! the watch reports is read again whatever its stamp.
//!
//! Known limits: see [`file`](mod@file) and [`resolve`]. The files of the
//! brace languages (JavaScript, TypeScript, Go, Rust, Java) are held and
//! queried apart, by [`tags`]: the Python queries never read them.

pub mod builtin_classes;
pub mod disk;
mod entry;
pub mod error;
pub mod file;
mod fixtures;
pub mod hash;
pub mod memo;
pub mod module_path;
pub mod names;
pub mod projects;
pub mod query;
pub mod rename;
pub mod resolve;
pub mod subclasses;
pub mod tags;
#[cfg(test)]
mod tests_inference;
#[cfg(test)]
mod tests_sharing;

use hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};

use crate::change::{FileOp, TextEdits, WorkspaceChange};
use crate::workspace::{Workspace, WorkspacePath};
pub(crate) use entry::spells;
use entry::Entry;
use rayon::prelude::*;
use ropey::Rope;
use std::sync::Arc;

pub use disk::{SkipReason, Skipped, Stamp};
pub use error::{IndexError, Result, SymbolCandidate};
pub use file::FileIndex;
pub use memo::CallersMemo;
pub use query::{Call, Callers, Definition, Dependency, Location, References};

/// One file read from disk (what became of its text; stamp; content
/// hash), or why it was not.
type Loaded = std::result::Result<(Read, Stamp, blake3::Hash), SkipReason>;

/// What a file read again turned out to hold.
enum Read {
    /// The text its entry was scanned from: only the stamp is new.
    Same,
    /// A text the index held lately (an `Undo`): that entry, taken back.
    Recent(Arc<Entry>),
    /// A new text, scanned when a query first needs it.
    New(Arc<String>),
}

/// A file's module name and its project.
type Named = (disk::ModuleName, projects::Project);

/// What [`ProjectIndex::load_all`] did besides parsing.
#[derive(Default)]
struct Loads {
    /// Files whose entries were taken from [`ProjectIndex::recent`].
    reused: Vec<String>,
    /// Files read again with the text they were indexed from.
    same: std::collections::HashSet<String>,
}

/// How many replaced entries the index keeps for [`ProjectIndex::recent`].
const RECENT: usize = 256;

/// Index of a file slot in the project index.
pub type FileId = usize;

/// A file a commit wrote, for [`ProjectIndex::adopt_written`].
pub struct Written<'a> {
    pub path: String,
    pub text: &'a str,
    /// The tree of `text`.
    pub tree: &'a tree_sitter::Tree,
    /// The stamp the commit left on disk.
    pub stamp: Stamp,
    /// The hash of `text` (the commit's own, checked against it).
    pub content: blake3::Hash,
}

/// What [`ProjectIndex::refresh`] found changed on disk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefreshReport {
    pub added: Vec<String>,
    pub changed: Vec<String>,
    pub removed: Vec<String>,
    /// Of `changed`, the files whose new text is one the index had
    /// indexed before (an `Undo`): their entries were taken back, not
    /// parsed again.
    pub reused: Vec<String>,
}

impl RefreshReport {
    /// Takes what the reads found: a file read again with the text it was
    /// indexed from did not change.
    fn take(&mut self, loads: Loads) {
        self.changed.retain(|path| !loads.same.contains(path));
        self.reused = loads.reused;
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

/// All Python modules under a root. See the module docs.
#[derive(Debug, Clone)]
pub struct ProjectIndex {
    root: PathBuf,
    /// Files are read through it (its jail, size limit, binary and UTF-8
    /// rules); `None` when `root` is not a directory (nothing to read).
    workspace: Option<Workspace>,
    /// Shared with the views made by [`ProjectIndex::overlaid`].
    files: Vec<Option<Arc<Entry>>>,
    by_path: HashMap<String, FileId>,
    /// The module names of every project, with their files.
    modules: projects::ModuleTable,
    skipped: Vec<Skipped>,
    /// The entries replaced last, oldest first: a file that gets a text
    /// back (an `Undo` of a refactor) takes its entry again instead of
    /// being parsed.
    recent: std::collections::VecDeque<Arc<Entry>>,
    /// The files of the brace languages (JavaScript, TypeScript, Go,
    /// Rust, Java): see [`tags`].
    tags: tags::TagsIndex,
}

impl ProjectIndex {
    /// Indexes every Python file under `root`, in parallel. Never fails:
    /// files that cannot be indexed are listed by [`ProjectIndex::skipped`].
    pub fn build(root: &Path) -> ProjectIndex {
        Self::build_with(root, Workspace::new(root, disk::MAX_FILE_BYTES).ok())
    }

    /// Indexes the Python files of a workspace, read through it.
    pub fn build_in(workspace: &Workspace) -> ProjectIndex {
        Self::build_with(workspace.root(), Some(workspace.clone()))
    }

    fn build_with(root: &Path, workspace: Option<Workspace>) -> ProjectIndex {
        let mut index = ProjectIndex {
            root: root.to_path_buf(),
            workspace,
            files: Vec::new(),
            by_path: HashMap::default(),
            modules: Default::default(),
            skipped: Vec::new(),
            recent: Default::default(),
            tags: Default::default(),
        };
        let paths = index.indexed_files();
        // (a previous process's scans, for the files read now)
        let store = index
            .store_path()
            .and_then(|path| tags::store::ScanStore::open(&path));
        index.tags.use_store(store);
        index.load_all(paths);
        index.tags.use_store(None);
        index
    }

    /// Where the brace index's scans are kept across processes: the
    /// workspace's state directory ([`tags::store`]).
    fn store_path(&self) -> Option<PathBuf> {
        let workspace = self.workspace.as_ref()?;
        Some(tags::store::path_in(workspace.state_dir()))
    }

    /// Stores the brace index's scans for the next process
    /// ([`tags::store`]): the number stored, or `None` when there was
    /// nothing new to store (no file scanned by this process) or no
    /// workspace.
    pub fn store_scans(&self) -> std::io::Result<Option<usize>> {
        let Some(path) = self.store_path() else {
            return Ok(None);
        };
        tags::TagsIndex::store_scans(&self.tags.shared(), &path)
    }

    /// The files of the languages the index reads: the workspace's
    /// listing (kept while the tree is unchanged: `workspace/listing.rs`),
    /// or a walk of the root when it has no workspace.
    fn indexed_files(&self) -> Vec<String> {
        let listed = self.workspace.as_ref().and_then(|w| w.list(None).ok());
        let Some(listed) = listed else {
            return disk::indexed_files(&self.root);
        };
        listed
            .into_iter()
            .filter(|path| disk::is_indexed(path))
            .collect()
    }

    /// Reads and indexes `paths`.
    fn load_all(&mut self, paths: Vec<String>) -> Loads {
        let (braces, paths): (Vec<String>, Vec<String>) =
            paths.into_iter().partition(|p| tags::reads(p));
        let mut loads = self.load_tags(braces);
        let root = self.root.clone();
        let workspace = self.workspace.clone();
        let mut roots = module_path::ImportRoots::new(&root);
        let named: Vec<(String, Named)> = paths
            .into_iter()
            .map(|rel| {
                let module = roots
                    .module_and_project(&rel)
                    .unwrap_or_else(|| (Default::default(), "".into()));
                (rel, module)
            })
            .collect();
        let (recent, files, by_path) = (&self.recent, &self.files, &self.by_path);
        let loaded: Vec<(String, Named, Loaded)> = named
            .into_par_iter()
            .map(|(rel, module)| {
                let Some(w) = &workspace else {
                    return (
                        rel,
                        module,
                        Err(SkipReason::Unreadable("no workspace".into())),
                    );
                };
                let r = disk::read(w, &rel).map(|(text, stamp)| {
                    let content = blake3::hash(text.as_bytes());
                    let holds = |e: &Entry| {
                        e.path == rel
                            && e.content == Some(content)
                            && e.module == module.0
                            && e.project == module.1
                    };
                    // The text the index holds (a commit's write, adopted;
                    // a file written back as it was), or one it held
                    // lately (a refactor undone after the index read it).
                    let current = by_path.get(&rel).and_then(|&fid| files.get(fid)?.as_ref());
                    let read = if current.is_some_and(|e| holds(e)) {
                        Read::Same
                    } else if let Some(entry) = recent.iter().rev().find(|e| holds(e)) {
                        Read::Recent(Arc::clone(entry))
                    } else {
                        Read::New(text.into())
                    };
                    (read, stamp, content)
                });
                (rel, module, r)
            })
            .collect();
        for (rel, module, r) in loaded {
            match r {
                Ok((Read::Same, stamp, _)) => {
                    self.restamp(&rel, stamp);
                    loads.same.insert(rel);
                }
                Ok((Read::Recent(entry), stamp, _)) => {
                    loads.reused.push(rel);
                    self.insert(entry.restamped(Some(stamp)))
                }
                Ok((Read::New(text), stamp, content)) => self.insert(Entry::unscanned(
                    rel,
                    module,
                    Some(stamp),
                    Some(content),
                    text,
                )),
                Err(reason) => self.skip(rel, reason),
            }
        }
        loads
    }

    /// Reads the brace languages' files of `paths` (see [`tags`]).
    fn load_tags(&mut self, paths: Vec<String>) -> Loads {
        let mut loads = Loads::default();
        let Some(workspace) = self.workspace.clone() else {
            for rel in paths {
                self.skip(rel, SkipReason::Unreadable("no workspace".into()));
            }
            return loads;
        };
        let read: Vec<(String, std::result::Result<_, SkipReason>)> = paths
            .into_par_iter()
            .map(|rel| {
                let r = disk::read(&workspace, &rel);
                (rel, r)
            })
            .collect();
        for (rel, r) in read {
            match r {
                Ok((text, stamp)) => {
                    let content = blake3::hash(text.as_bytes());
                    let same = self.tags.entry(&rel).and_then(|e| e.content) == Some(content);
                    self.skipped.retain(|s| s.path != rel);
                    self.tags
                        .insert(rel.clone(), text.into(), Some(stamp), Some(content));
                    if same {
                        loads.same.insert(rel);
                    }
                }
                Err(reason) => {
                    self.tags.remove(&rel);
                    self.skip(rel, reason)
                }
            }
        }
        loads
    }

    /// Gives an entry the stamp its unchanged text was read at again.
    fn restamp(&mut self, rel: &str, stamp: Stamp) {
        let Some(entry) = self
            .by_path
            .get(rel)
            .and_then(|&fid| self.files.get_mut(fid)?.as_mut())
        else {
            return;
        };
        match Arc::get_mut(entry) {
            Some(unshared) => unshared.stamp = Some(stamp),
            // a view holds it too: the view keeps the old one
            None => *entry = Arc::new(entry.restamped(Some(stamp))),
        }
    }

    fn skip(&mut self, path: String, reason: SkipReason) {
        self.remove_file(&path);
        self.skipped.retain(|s| s.path != path);
        let stamp = Stamp::of(&self.root.join(&path)).ok();
        self.skipped.push(Skipped {
            path,
            reason,
            stamp,
        });
    }

    fn insert(&mut self, entry: Entry) {
        let path = entry.path.clone();
        self.skipped.retain(|s| s.path != path);
        if let Some(&fid) = self.by_path.get(&path) {
            let same_name = self.files[fid]
                .as_ref()
                .is_some_and(|e| e.module.0 == entry.module.0 && e.project == entry.project);
            if same_name {
                if let Some(old) = self.files[fid].replace(Arc::new(entry)) {
                    self.retire(old);
                }
                return;
            }
            self.remove_file(&path);
        }
        let fid = self.files.len();
        self.modules.add(&entry.module.0, &entry.project, fid);
        self.by_path.insert(path, fid);
        self.files.push(Some(Arc::new(entry)));
    }

    /// Keeps a replaced entry among the [`RECENT`] last ones, if it knows
    /// its text's hash.
    fn retire(&mut self, old: Arc<Entry>) {
        if old.content.is_none() {
            return;
        }
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(old);
    }

    /// Drops a file from the index; false when it was not indexed.
    pub fn remove_file(&mut self, rel_path: &str) -> bool {
        let rel = normalize(rel_path).unwrap_or_default();
        if self.tags.remove(&rel) {
            return true;
        }
        let Some(fid) = self.by_path.remove(&rel) else {
            return false;
        };
        let Some(entry) = self.files.get_mut(fid).and_then(Option::take) else {
            return false;
        };
        self.modules.remove(&entry.module.0, &entry.project, fid);
        true
    }

    /// Re-indexes one file from the text Eddi holds for it (saved or not).
    /// Only that file is re-read: see the module docs.
    pub fn update_file(&mut self, rel_path: &str, text: &Rope) -> Result<()> {
        let rel = normalize(rel_path).ok_or_else(|| IndexError::InvalidPath(rel_path.into()))?;
        if tags::reads(&rel) {
            let stamp = match self.tags.entry(&rel) {
                Some(e) => e.stamp,
                None => Stamp::of(&self.root.join(&rel)).ok(),
            };
            self.tags.insert(rel, text.to_string().into(), stamp, None);
            return Ok(());
        }
        let Some(module) = module_path::ImportRoots::new(&self.root).module_and_project(&rel)
        else {
            return Err(IndexError::NotPython(rel));
        };
        let src = text.to_string();
        let stamp = match self.by_path.get(&rel).and_then(|&f| self.files[f].as_ref()) {
            Some(e) => e.stamp,
            None => Stamp::of(&self.root.join(&rel)).ok(),
        };
        self.insert(Entry::unscanned(rel, module, stamp, None, src.into()));
        Ok(())
    }

    /// A view of the index with `files` (workspace path, unsaved text) laid
    /// over it: the index itself is not changed, and the view shares every
    /// other file's index with it (a clone of the maps, not of the files).
    pub fn overlaid(&self, files: &[(String, Rope)]) -> ProjectIndex {
        let mut view = self.clone();
        for (path, text) in files {
            // a path the index does not take (not Python) is left out
            let _ = view.update_file(path, text);
        }
        view
    }

    /// A view of the index with a proposed change laid over it — each
    /// edited, created or moved file re-scanned with its new text, each
    /// deleted (or moved-away) file gone — for checking a change (a
    /// refactor) before it is committed. `base` gives the text a file's
    /// edits were computed against (the buffer or the disk the change's
    /// `Base` names). The index itself is not changed. Fails, naming the
    /// file, when a base text is missing or an edit does not apply to it.
    pub fn overlaid_change(
        &self,
        change: &WorkspaceChange,
        base: impl Fn(&WorkspacePath) -> Option<Rope>,
    ) -> std::result::Result<ProjectIndex, String> {
        let edited = |path: &WorkspacePath, edits: &TextEdits| {
            let text = base(path).ok_or_else(|| format!("{path}: its text cannot be read"))?;
            edits
                .apply(&text)
                .map_err(|e| format!("{path}: the edits do not apply ({e})"))
        };
        let mut view = self.clone();
        for (path, file) in change.files() {
            let (removed, new) = match &file.op {
                FileOp::Edit(edits) => (None, Some((path, edited(path, edits)?))),
                FileOp::Create(text) => (None, Some((path, Rope::from_str(text)))),
                FileOp::Delete => (Some(path), None),
                FileOp::Move { to, edits } => (Some(path), Some((to, edited(path, edits)?))),
            };
            if let Some(path) = removed {
                view.remove_file(path.as_str());
            }
            if let Some((path, text)) = new {
                // a path the index does not take (not Python) is left out
                let _ = view.update_file(path.as_str(), &text);
            }
        }
        Ok(view)
    }

    /// Brings these files (workspace-relative) in step with the disk, as a
    /// watch of the tree reported them: an indexed file re-read or dropped.
    /// A file the index does not know yet may be ignored or shadowed by
    /// rules only the walk knows, so then the whole tree is refreshed.
    pub fn refresh_files(&mut self, paths: &[String]) -> RefreshReport {
        let mut report = RefreshReport::default();
        let mut reload = Vec::new();
        // A file written twice since the last query (a refactor and its
        // undo) is read once.
        let mut seen = std::collections::HashSet::new();
        for path in paths {
            let Some(rel) = normalize(path) else {
                continue;
            };
            if !seen.insert(rel.clone()) {
                continue;
            }
            let watched = |x: &str| rel.strip_suffix(x).is_some_and(|stem| stem.ends_with('.'));
            if tags::is_manifest(&rel) {
                // Eddi saved a manifest: imports are resolved again
                self.tags.forget_resolutions();
                continue;
            }
            if !crate::language::watched_extensions().any(watched) {
                // gone, and maybe a directory: it was one if it held files
                let dir = format!("{rel}/");
                if self
                    .by_path
                    .keys()
                    .map(String::as_str)
                    .chain(self.tags.paths())
                    .any(|p| p.starts_with(&dir))
                {
                    return self.refresh();
                }
                continue;
            }
            let exists = self.root.join(&rel).is_file();
            let indexed = self.by_path.contains_key(&rel) || self.tags.contains(&rel);
            match (indexed, exists) {
                // Read again even when its stamp is the one indexed: a write
                // of the same length within one tick of the file system's
                // clock keeps (mtime, size). A text the index holds already
                // (a commit's own write, adopted) keeps its entry unparsed.
                (true, true) => {
                    report.changed.push(rel.clone());
                    reload.push(rel);
                }
                (true, false) => {
                    self.remove_file(&rel);
                    report.removed.push(rel);
                }
                (false, true) => return self.refresh(),
                // created and deleted again, or never indexed (a skipped file
                // is retried by the next full refresh)
                (false, false) => {}
            }
        }
        report.take(self.load_all(reload));
        report
    }

    /// Takes the texts a commit wrote, parsed already (by the refactor's
    /// check), with the stamps the commit left on disk: each indexed file
    /// is scanned from its tree instead of read and parsed again at the
    /// next query. Returns the paths it could not take (not indexed yet:
    /// the next refresh reads them).
    pub fn adopt_written(&mut self, written: &[Written<'_>]) -> Vec<String> {
        let known: Vec<(usize, &Written<'_>, Named)> = written
            .iter()
            .filter_map(|w| {
                let rel = normalize(&w.path)?;
                let fid = *self.by_path.get(&rel)?;
                let entry = self.files.get(fid)?.as_ref()?;
                Some((fid, w, (entry.module.clone(), entry.project.clone())))
            })
            .collect();
        let scanned: Vec<(usize, FileIndex, Named, Stamp, blake3::Hash)> = known
            .into_par_iter()
            .map(|(fid, w, named)| {
                let index = file::scan(&named.0 .0, named.0 .1, w.text, w.tree);
                (fid, index, named, w.stamp, w.content)
            })
            .collect();
        let mut adopted = std::collections::HashSet::new();
        for (fid, index, named, stamp, content) in scanned {
            if let Some(Some(entry)) = self.files.get(fid) {
                let path = entry.path.clone();
                adopted.insert(path.clone());
                let new = Entry::scanned(path, named, Some(stamp), Some(content), index);
                if let Some(old) = self.files[fid].replace(Arc::new(new)) {
                    self.retire(old);
                }
            }
        }
        written
            .iter()
            .filter(|w| normalize(&w.path).is_none_or(|rel| !adopted.contains(&rel)))
            .map(|w| w.path.clone())
            .collect()
    }

    /// Brings the index in step with the disk: re-reads indexed files whose
    /// mtime or size changed, drops deleted ones, adds new ones.
    pub fn refresh(&mut self) -> RefreshReport {
        // a manifest (`go.mod`, `Cargo.toml`, `tsconfig.json`) may have
        // changed: what the brace languages' imports name is found again
        self.tags.forget_resolutions();
        let mut report = RefreshReport::default();
        let mut reload = Vec::new();
        // A project marker added or removed renames the modules under it.
        let mut roots = module_path::ImportRoots::new(&self.root);
        for entry in self.files.iter().flatten() {
            let renamed = roots
                .module_and_project(&entry.path)
                .is_some_and(|((m, _), p)| m != entry.module.0 || p != entry.project);
            match Stamp::of(&self.root.join(&entry.path)) {
                Ok(now) if Some(now) != entry.stamp || renamed => {
                    report.changed.push(entry.path.clone());
                    reload.push(entry.path.clone());
                }
                Ok(_) => {}
                Err(_) if entry.stamp.is_none() => {} // an unsaved buffer
                Err(_) => report.removed.push(entry.path.clone()),
            }
        }
        for entry in self.tags.entries() {
            match Stamp::of(&self.root.join(&entry.path)) {
                Ok(now) if Some(now) != entry.stamp => {
                    report.changed.push(entry.path.clone());
                    reload.push(entry.path.clone());
                }
                Ok(_) => {}
                Err(_) if entry.stamp.is_none() => {}
                Err(_) => report.removed.push(entry.path.clone()),
            }
        }
        for path in &report.removed {
            self.remove_file(path);
        }
        // Skipped files are retried when their stamp changed.
        let mut unchanged_skips = std::collections::HashSet::new();
        for s in &self.skipped {
            if Stamp::of(&self.root.join(&s.path)).ok() == s.stamp {
                unchanged_skips.insert(s.path.clone());
            }
        }
        for path in self.indexed_files() {
            let indexed = self.by_path.contains_key(&path) || self.tags.contains(&path);
            if !indexed && !unchanged_skips.contains(&path) {
                report.added.push(path.clone());
                reload.push(path);
            }
        }
        let root = self.root.clone();
        self.skipped.retain(|s| root.join(&s.path).exists());
        report.take(self.load_all(reload));
        report.changed.sort();
        report.added.sort();
        report.removed.sort();
        report
    }

    /// For tests: an index of these files (workspace path, text), over an
    /// empty directory.
    #[cfg(test)]
    pub(crate) fn of_texts(files: &[(&str, &str)]) -> ProjectIndex {
        let dir = tempfile::tempdir().expect("a temp dir");
        let mut index = ProjectIndex::build(dir.path());
        for (path, src) in files {
            index
                .update_file(path, &Rope::from_str(src))
                .expect("a Python path");
        }
        index
    }

    /// The workspace root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Number of indexed files.
    pub fn len(&self) -> usize {
        self.by_path.len() + self.tags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty() && self.tags.is_empty()
    }

    /// The brace languages' files (JavaScript, TypeScript, Go, Rust,
    /// Java) and their queries: see [`tags`].
    pub fn tags(&self) -> &tags::TagsIndex {
        &self.tags
    }

    /// Files that could not be indexed, and why.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Indexed paths, sorted.
    pub fn paths(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self
            .by_path
            .keys()
            .map(String::as_str)
            .chain(self.tags.paths())
            .collect();
        v.sort_unstable();
        v
    }

    /// The index of one file, by workspace-relative path.
    pub fn file_index(&self, rel_path: &str) -> Option<&FileIndex> {
        let rel = normalize(rel_path)?;
        self.by_path.get(&rel).and_then(|&f| self.file(f))
    }

    /// The hash of the text the index scanned a file from; `None` for a
    /// file it does not hold or holds from a buffer.
    pub fn content_of(&self, rel_path: &str) -> Option<blake3::Hash> {
        let rel = normalize(rel_path)?;
        if let Some(entry) = self.tags.entry(&rel) {
            return entry.content;
        }
        let &fid = self.by_path.get(&rel)?;
        self.files.get(fid)?.as_ref()?.content
    }

    /// The module name of an indexed file.
    pub fn module_of(&self, rel_path: &str) -> Option<&str> {
        let rel = normalize(rel_path)?;
        let &fid = self.by_path.get(&rel)?;
        Some(self.files.get(fid)?.as_ref()?.module.0.as_str())
    }

    /// The file of a project module (of the first project indexed that
    /// has it: see [`Self::paths_of_module`]).
    pub fn path_of_module(&self, module: &str) -> Option<&str> {
        self.modules
            .all_files(module)
            .next()
            .and_then(|fid| self.path(fid))
    }

    /// The files of a module name, one per project that has it (two
    /// copies of a project give two).
    pub fn paths_of_module(&self, module: &str) -> Vec<&str> {
        self.modules
            .all_files(module)
            .filter_map(|fid| self.path(fid))
            .collect()
    }

    /// The file of a module as a file (`current`) finds it: its own
    /// project's, else the one project's that has it; a module name of
    /// several projects, none of them `current`'s, is ambiguous.
    pub fn path_of_module_from(&self, module: &str, current: Option<&str>) -> Result<Option<&str>> {
        let from = current.and_then(|p| self.project_of(p));
        let paths = self.paths_of_module(module);
        let own: Vec<&str> = paths
            .iter()
            .copied()
            .filter(|p| from.is_some() && self.project_of(p) == from)
            .collect();
        match (paths.as_slice(), own.first()) {
            ([], _) => Ok(None),
            ([one], _) | (_, Some(one)) => Ok(Some(one)),
            (many, None) => Err(IndexError::AmbiguousModule {
                name: module.to_string(),
                paths: many.iter().map(|p| p.to_string()).collect(),
            }),
        }
    }

    /// The project directory of an indexed file (`""` for the workspace
    /// root): see [`projects`].
    pub fn project_of(&self, rel_path: &str) -> Option<&str> {
        let rel = normalize(rel_path)?;
        let &fid = self.by_path.get(&rel)?;
        self.project(fid).map(|p| &**p)
    }

    pub(crate) fn project(&self, fid: FileId) -> Option<&projects::Project> {
        self.files.get(fid)?.as_ref().map(|e| &e.project)
    }

    /// Module `name` as file `from` finds it: in its own project first
    /// (see [`projects`]).
    pub(crate) fn module_from(&self, from: FileId, name: &str) -> Option<projects::ModuleRef> {
        self.modules.find(self.project(from), name)
    }

    /// The first file of a module (of its project).
    pub(crate) fn module_file_of(&self, m: &projects::ModuleRef) -> Option<FileId> {
        self.modules.files_of(m).next()
    }

    /// A file's index, scanned now if no query needed it before.
    pub(crate) fn file(&self, fid: FileId) -> Option<&FileIndex> {
        self.files.get(fid)?.as_ref().map(|e| e.index())
    }

    pub(crate) fn path(&self, fid: FileId) -> Option<&str> {
        self.files.get(fid)?.as_ref().map(|e| e.path.as_str())
    }

    /// Every Python file's index: the files no query needed yet are
    /// scanned first, in parallel.
    pub(crate) fn iter_files(&self) -> impl Iterator<Item = (FileId, &FileIndex)> {
        self.scan_python();
        self.files
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (i, e.index())))
    }

    /// The indexes of the files that may name `word` (an identifier, or
    /// a dotted name: its last part counts): every file already scanned,
    /// and of the others those whose text spells the word, scanned now in
    /// parallel. A query keyed by a name (its references, definitions,
    /// exports) finds all it would find in [`Self::iter_files`] — see
    /// `entry`'s docs.
    pub(crate) fn files_with(&self, word: &str) -> impl Iterator<Item = (FileId, &FileIndex)> {
        self.scan_mentioning(&[word]);
        self.scanned_files()
    }

    /// [`Self::files_with`] for several words at once: the files that may
    /// name any of them.
    pub(crate) fn files_with_any(
        &self,
        words: &[String],
    ) -> impl Iterator<Item = (FileId, &FileIndex)> {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        self.scan_mentioning(&words);
        self.scanned_files()
    }

    /// Scans, in parallel, the files not scanned yet whose text spells one
    /// of `words` (of a dotted name, its last part).
    fn scan_mentioning(&self, words: &[&str]) {
        if self.has_unscanned() {
            let words: Vec<&str> = words.iter().map(|w| last_part(w)).collect();
            let mentioning: Vec<&Arc<Entry>> = self
                .files
                .par_iter()
                .flatten()
                .filter(|e| words.iter().any(|w| e.may_mention(w)))
                .collect();
            scan_largest_first(mentioning.into_iter());
        }
    }

    fn scanned_files(&self) -> impl Iterator<Item = (FileId, &FileIndex)> {
        self.files
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Some((i, e.as_ref()?.scanned_index()?)))
    }

    /// How many files may name `word`: those whose index keys a reference
    /// or a site by it, and of the files not scanned yet those whose text
    /// spells it. Scans nothing.
    pub(crate) fn spelling(&self, word: &str) -> usize {
        let word = last_part(word);
        self.files
            .par_iter()
            .flatten()
            .filter(|e| match e.scanned_index() {
                Some(f) => !f.refs_keyed(word).is_empty() || !f.sites_keyed(word).is_empty(),
                None => e.may_mention(word),
            })
            .count()
    }

    /// Scans every file no query needed yet, in parallel: afterwards
    /// every query runs on scanned indexes only (what a long-running
    /// service does once it has answered its first query).
    pub fn scan_all(&self) {
        self.scan_python();
        self.tags.scan_all();
    }

    /// Scans every Python file no query needed yet, in parallel: what a
    /// walk of Python's indexes needs (the caller queries' maps), without
    /// the brace languages' files, which it does not read.
    pub(crate) fn scan_python(&self) {
        if self.has_unscanned() {
            scan_largest_first(self.files.iter().flatten());
        }
    }

    /// Offers the trees others parsed to the Python files not scanned yet:
    /// `tree_of(path, content hash)` gives a tree of the text whose hash
    /// that is, and its length in bytes, if it has one; an entry takes it
    /// when the text is its own, and its scan walks it instead of parsing
    /// again (see `entry`). How many entries took one.
    pub fn lend_trees(
        &self,
        tree_of: impl Fn(&str, &blake3::Hash) -> Option<(tree_sitter::Tree, usize)>,
    ) -> usize {
        if !self.has_unscanned() {
            return 0;
        }
        self.files
            .iter()
            .flatten()
            .filter(|e| e.scanned_index().is_none())
            .filter_map(|e| {
                let content = e.content.as_ref()?;
                let (tree, len) = tree_of(&e.path, content)?;
                Some(e.lend(len, tree))
            })
            .filter(|&taken| taken)
            .count()
    }

    /// How many files no query has needed yet (their text is read, not
    /// scanned).
    pub fn unscanned(&self) -> usize {
        self.files
            .iter()
            .flatten()
            .filter(|e| e.scanned_index().is_none())
            .count()
            + self.tags.unscanned()
    }

    fn has_unscanned(&self) -> bool {
        self.files
            .iter()
            .flatten()
            .any(|e| e.scanned_index().is_none())
    }

    /// A job that scans every file no query needed yet, one after the
    /// other, on the thread that runs it, without the index's lock: the
    /// entries are shared, so the index (and every view of it) finds them
    /// scanned. For a long-running service, once the index is built. Not
    /// on rayon's pool: a query's parallel scan would wait behind it.
    /// Then it stores the brace index's scans for the next process
    /// ([`ProjectIndex::store_scans`]).
    pub fn scanner(&self) -> impl FnOnce() + Send + 'static {
        let entries: Vec<Arc<Entry>> = self.files.iter().flatten().map(Arc::clone).collect();
        let tags = self.tags.shared();
        let store = self.store_path();
        move || {
            for e in entries {
                e.index();
            }
            for e in &tags {
                e.file();
            }
            let Some(path) = store else { return };
            match tags::TagsIndex::store_scans(&tags, &path) {
                Ok(stored) => tracing::debug!(?stored, "brace scans stored"),
                Err(e) => {
                    tracing::info!(error = %e, path = %path.display(), "cannot store the brace scans")
                }
            }
        }
    }

    /// Whether some project has a module or package of this name.
    pub(crate) fn is_project_module(&self, module: &str) -> bool {
        self.modules.has(module)
    }
}

/// `a.b.c` → `c`: the word a dotted name's key is spelled with.
fn last_part(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// `a\\b/./c.py` → `a/b/c.py`; `None` for absolute paths or paths leaving
/// the root.
fn normalize(rel: &str) -> Option<String> {
    let rel = rel.replace('\\', "/");
    if rel.starts_with('/') {
        return None;
    }
    let mut parts = Vec::new();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => return None,
            p => parts.push(p),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Scans `entries` on rayon's pool, the longest texts first: each thread
/// takes the next file when it is done with one, so the last files to
/// finish are small ones and no thread waits long for another (in path
/// order, one big test module scanned last kept a core idle for its
/// whole parse).
fn scan_largest_first<'a>(entries: impl Iterator<Item = &'a Arc<Entry>>) {
    let mut todo: Vec<(usize, &Arc<Entry>)> = entries
        .filter_map(|e| Some((e.unscanned_len()?, e)))
        .collect();
    todo.sort_unstable_by_key(|&(len, _)| std::cmp::Reverse(len));
    todo.par_iter().with_max_len(1).for_each(|(_, e)| {
        e.index();
    });
}
