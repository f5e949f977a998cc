//! What the brace languages' queries resolve that depends on the index's
//! files and the project's manifests alone, kept from one query to the
//! next, so that a warm query resolves only what no query resolved
//! before, and a query asked again reads its answer.
//!
//! It is the index's, not a query's, in two layers:
//! * [`Layout`]: each family's paths, sorted; the manifests read (`go.mod`,
//!   `Cargo.toml`, `tsconfig.json`) and what a family made of them; each
//!   file's module and what its imports bind. In the families whose
//!   resolution reads only the paths, the manifests and the file's own
//!   text ([`super::family::Family::resolves_by_paths`]: ES modules, Go,
//!   Java), a file's new text keeps the layout for every other file: the
//!   memo of the new state shares it and resolves the changed files
//!   itself. A file added or dropped, a Rust file's new text, a full
//!   refresh (which a manifest's change brings) start a new layout.
//! * The answers: the symbols a query names and each symbol's uses. A
//!   query reads the files that spell its words (and the symbol's own
//!   file; in Rust, the module files its paths reach), so after a file's
//!   new text in a family that resolves by paths, an answer is kept whole
//!   when neither the file's old text nor its new one spells a word the
//!   answer read (nor, in ES modules, may re-export) and the file is not
//!   the symbol's — or when the file is of another family. Else an answer
//!   that keeps each file's verdicts ([`super::verdicts`]) is kept with
//!   the file marked stale, unless the file is the symbol's: the next
//!   query resolves the stale files alone — or the whole answer, in ES
//!   modules, when the file's re-exports differ between the text the
//!   answer read and the new one (the symbol's names may change). The symbols a query names are
//!   kept likewise (a file's symbols depend on its own text): the stale
//!   files searched again. Every other change starts them all again.

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use super::family::{Bound, ModuleKey};
use super::resolve::{Named, Use};
use super::scan::Import;
use super::verdicts::Kept;
use super::words::Word;
use super::TagsEntry;
use crate::analysis::index::error::IndexError;

/// How many symbols' uses a memo keeps (past it, it starts again: an
/// answer costs a few hundred bytes a use).
const KEPT_ANSWERS: usize = 256;

/// How many files' new texts a layout is shared over (past it, a new
/// layout: each memo copies the changed files' own resolutions).
const CHANGED_FILES: usize = 64;

/// The resolutions of one state of the index.
#[derive(Default)]
pub struct Memo {
    layout: Arc<Layout>,
    /// The files whose text is not the one `layout` knows: their module
    /// and bounds are this memo's own.
    changed: HashSet<Box<str>>,
    modules: Mutex<HashMap<Box<str>, ModuleKey>>,
    bounds: Mutex<HashMap<Box<str>, Arc<[Bound]>>>,
    /// The symbols a query (cleaned) names, or why none.
    named: Mutex<HashMap<Box<str>, Names>>,
    /// Each symbol's uses, by its file and its first definition.
    uses: Mutex<HashMap<SymbolKey, Answer>>,
}

/// A symbol's uses, with what the query read to find them.
#[derive(Clone)]
pub(super) struct Answer {
    pub uses: Arc<[Use]>,
    /// The symbol's family.
    pub family: &'static str,
    /// The words whose files of the family it read.
    pub words: Arc<[Box<str>]>,
    /// Whether it read every file of the family that may re-export.
    pub reexports: bool,
    /// Each file's verdicts (a family that resolves by paths; not a
    /// nested symbol's): after another file's new text, that file alone
    /// is resolved again ([`super::verdicts`]).
    pub kept: Option<Arc<Kept>>,
    /// The files of the family whose text changed since it was resolved,
    /// which it may read: to resolve again before it is read.
    pub stale: Vec<Box<str>>,
    /// When it reads re-exports (ES): each stale file's re-exports in the
    /// text it was resolved with ([`Answer::reexported`]).
    pub reexports_before: Vec<(Box<str>, Arc<[Import]>)>,
}

impl Answer {
    /// Whether the answer may have read `entry` (or would read it).
    fn may_read(&self, entry: &TagsEntry) -> bool {
        entry.family_id() == Some(self.family)
            && (self.reexports && entry.may_reexport()
                || self.words.iter().any(|w| entry.may_mention(&Word::new(w))))
    }

    /// The answer of the state where the file of `old` has the new text
    /// of `new`: itself when it reads neither text; else with the file
    /// to resolve again when it keeps each file's verdicts and the file
    /// is not the symbol's (whether its re-exports changed is asked when
    /// the answer is read, its new text scanned: [`Answer::reexported`]);
    /// else none.
    fn after_edit(&self, symbol: &str, old: &TagsEntry, new: &TagsEntry) -> Option<Answer> {
        if *symbol == *new.path {
            return None;
        }
        if !self.may_read(old) && !self.may_read(new) {
            return Some(self.clone());
        }
        // (an answer without each file's verdicts resolves whole)
        self.kept.as_ref()?;
        let mut answer = self.clone();
        if !answer.stale.iter().any(|s| **s == *new.path) {
            answer.stale.push(new.path.as_str().into());
            if self.reexports {
                // (an answer that reads re-exports scanned every file that
                // may re-export: an old text not scanned does not)
                answer
                    .reexports_before
                    .push((new.path.as_str().into(), old.reexports()?.into()));
            }
        }
        Some(answer)
    }
}

impl Answer {
    /// Whether the new text of a stale file re-exports other names than
    /// its text when the answer was resolved (it is scanned here): then
    /// the names that denote the symbol may change, and the answer is
    /// resolved again whole.
    pub fn reexported(&self, index: &super::TagsIndex) -> bool {
        self.reexports_before.iter().any(|(path, before)| {
            let now = index.entry(path).and_then(|e| {
                e.file();
                e.reexports()
            });
            now.as_deref() != Some(&**before)
        })
    }
}

/// The symbols a query names (or why none), with the files whose text
/// changed since they were found and spell the query's last name.
#[derive(Clone)]
pub(super) struct Names {
    pub found: Found,
    pub stale: Vec<Box<str>>,
}

/// The symbols a query names, or why none.
pub(super) type Found = Result<Arc<[Named]>, IndexError>;

/// A symbol: its file's path, the index of its first definition there.
type SymbolKey = (Box<str>, usize);

/// What the paths, the manifests and each file's own text resolve to
/// (see the module docs): shared by the states it holds for.
#[derive(Default)]
struct Layout {
    paths: Mutex<HashMap<&'static str, Arc<[Box<str>]>>>,
    manifests: Mutex<HashMap<Box<str>, Option<Arc<str>>>>,
    /// What a family made of a manifest (a `tsconfig.json` read with what
    /// it extends), by the manifest's path.
    parsed: Mutex<HashMap<Box<str>, Arc<dyn Any + Send + Sync>>>,
    modules: Mutex<HashMap<Box<str>, ModuleKey>>,
    bounds: Mutex<HashMap<Box<str>, Arc<[Bound]>>>,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo").finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// `map[key]`, made by `make` the first time.
fn kept<V: Clone>(map: &Mutex<HashMap<Box<str>, V>>, key: &str, make: impl FnOnce() -> V) -> V {
    if let Some(found) = lock(map).get(key) {
        return found.clone();
    }
    let made = make();
    lock(map).insert(key.into(), made.clone());
    made
}

impl Memo {
    /// A family's paths, sorted: made by `make` the first time.
    pub fn paths(
        &self,
        family: &'static str,
        make: impl FnOnce() -> Vec<Box<str>>,
    ) -> Arc<[Box<str>]> {
        if let Some(paths) = lock(&self.layout.paths).get(family) {
            return Arc::clone(paths);
        }
        let paths: Arc<[Box<str>]> = make().into();
        lock(&self.layout.paths).insert(family, Arc::clone(&paths));
        paths
    }

    /// The memo of the state where the file of `old` has the new text of
    /// `new` and every other file its text here: the layout shared (the
    /// family resolves by paths), the answers that may read the file
    /// (either text) started again.
    pub fn after_edit(&self, old: &TagsEntry, new: &TagsEntry) -> Memo {
        let path = new.path.as_str();
        if self.changed.len() >= CHANGED_FILES {
            return Memo::default();
        }
        // the symbols found where neither text spells the last name; a
        // file's symbols depend on its text alone: found again there
        let mut named = lock(&self.named).clone();
        named.retain(|query, names| {
            let last = Word::new(query.rsplit('.').next().unwrap_or(query));
            if !old.may_mention(&last) && !new.may_mention(&last) {
                return true;
            }
            if !names.stale.iter().any(|s| **s == *path) {
                names.stale.push(path.into());
            }
            names.found.is_ok()
        });
        // the answers that read neither text, or resolve the file again
        let uses = lock(&self.uses)
            .iter()
            .filter_map(|(key, answer)| Some((key.clone(), answer.after_edit(&key.0, old, new)?)))
            .collect();
        let mut changed = self.changed.clone();
        changed.insert(path.into());
        let mut modules = lock(&self.modules).clone();
        modules.remove(path);
        let mut bounds = lock(&self.bounds).clone();
        bounds.remove(path);
        Memo {
            layout: Arc::clone(&self.layout),
            changed,
            modules: Mutex::new(modules),
            bounds: Mutex::new(bounds),
            named: Mutex::new(named),
            uses: Mutex::new(uses),
        }
    }

    /// How many symbols' uses it keeps, and how many of them resolve
    /// changed files again before they are read.
    #[cfg(test)]
    pub fn kept_answers(&self) -> (usize, usize) {
        let uses = lock(&self.uses);
        let stale = uses.values().filter(|a| !a.stale.is_empty()).count();
        (uses.len(), stale)
    }

    /// A file's module: made by `make` the first time.
    pub fn module(&self, path: &str, make: impl FnOnce() -> ModuleKey) -> ModuleKey {
        match self.changed.contains(path) {
            true => kept(&self.modules, path, make),
            false => kept(&self.layout.modules, path, make),
        }
    }

    /// What each import of a file binds, in order: made by `make` the
    /// first time.
    pub fn bounds(&self, path: &str, make: impl FnOnce() -> Vec<Bound>) -> Arc<[Bound]> {
        let make = || Arc::from(make());
        match self.changed.contains(path) {
            true => kept(&self.bounds, path, make),
            false => kept(&self.layout.bounds, path, make),
        }
    }

    /// The symbols `query` names: found by `find` the first time, and
    /// again when files changed since (given what was found and those
    /// files).
    pub(super) fn named(
        &self,
        query: &str,
        find: impl FnOnce(Option<&Names>) -> Result<Vec<Named>, IndexError>,
    ) -> Found {
        let before = lock(&self.named).get(query).cloned();
        if let Some(names) = before.as_ref().filter(|n| n.stale.is_empty()) {
            return names.found.clone();
        }
        let found = find(before.as_ref()).map(Arc::from);
        let mut named = lock(&self.named);
        if named.len() >= KEPT_ANSWERS {
            named.clear();
        }
        let names = Names {
            found: found.clone(),
            stale: Vec::new(),
        };
        named.insert(query.into(), names);
        found
    }

    /// The uses of the symbol defined at `defs[first]` of `path`:
    /// resolved by `resolve` the first time, and again when files it
    /// reads changed since (given the answer with those files).
    pub(super) fn uses(
        &self,
        path: &str,
        first: usize,
        resolve: impl FnOnce(Option<&Answer>) -> Answer,
    ) -> Arc<[Use]> {
        let key = (Box::from(path), first);
        let before = lock(&self.uses).get(&key).cloned();
        if let Some(answer) = before.as_ref().filter(|a| a.stale.is_empty()) {
            return Arc::clone(&answer.uses);
        }
        let answer = resolve(before.as_ref());
        let uses = Arc::clone(&answer.uses);
        let mut kept = lock(&self.uses);
        if kept.len() >= KEPT_ANSWERS {
            kept.clear();
        }
        kept.insert(key, answer);
        uses
    }

    /// What `make` reads from the manifest at `rel` (made the first time).
    pub fn parsed<T: Any + Send + Sync>(&self, rel: &str, make: impl FnOnce() -> T) -> Arc<T> {
        if let Some(found) = lock(&self.layout.parsed).get(rel) {
            if let Ok(found) = Arc::clone(found).downcast::<T>() {
                return found;
            }
        }
        let made = Arc::new(make());
        lock(&self.layout.parsed)
            .insert(rel.into(), Arc::clone(&made) as Arc<dyn Any + Send + Sync>);
        made
    }

    /// The text of a manifest at `rel` under `root` (`None`: none there),
    /// read once.
    pub fn manifest(&self, root: &Path, rel: &str) -> Option<Arc<str>> {
        kept(&self.layout.manifests, rel, || {
            std::fs::read_to_string(root.join(rel)).ok().map(Into::into)
        })
    }
}
