//! What the brace languages' queries resolve that depends on the index's
//! files and the project's manifests alone — each family's paths, sorted;
//! each file's module; what each file's imports bind; the manifests read
//! (`go.mod`, `Cargo.toml`, `tsconfig.json`) — kept from one query to the
//! next, so that a warm query resolves only what no query resolved before.
//!
//! It is the index's, not a query's: a [`super::TagsIndex`] that takes a
//! new text or drops a file starts a new one, and so does a full refresh,
//! which a manifest's change brings (they are the watch's markers).

use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use super::family::{Bound, ModuleKey};

/// The resolutions of one state of the index.
#[derive(Default)]
pub struct Memo {
    paths: Mutex<HashMap<&'static str, Arc<[Box<str>]>>>,
    modules: Mutex<HashMap<Box<str>, ModuleKey>>,
    bounds: Mutex<HashMap<Box<str>, Arc<[Bound]>>>,
    manifests: Mutex<HashMap<Box<str>, Option<Arc<str>>>>,
    /// What a family made of a manifest (a `tsconfig.json` read with what
    /// it extends), by the manifest's path.
    parsed: Mutex<HashMap<Box<str>, Arc<dyn Any + Send + Sync>>>,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo").finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Memo {
    /// A family's paths, sorted: made by `make` the first time.
    pub fn paths(
        &self,
        family: &'static str,
        make: impl FnOnce() -> Vec<Box<str>>,
    ) -> Arc<[Box<str>]> {
        if let Some(paths) = lock(&self.paths).get(family) {
            return Arc::clone(paths);
        }
        let paths: Arc<[Box<str>]> = make().into();
        lock(&self.paths).insert(family, Arc::clone(&paths));
        paths
    }

    /// A file's module: made by `make` the first time.
    pub fn module(&self, path: &str, make: impl FnOnce() -> ModuleKey) -> ModuleKey {
        if let Some(key) = lock(&self.modules).get(path) {
            return key.clone();
        }
        let key = make();
        lock(&self.modules).insert(path.into(), key.clone());
        key
    }

    /// What each import of a file binds, in order: made by `make` the
    /// first time.
    pub fn bounds(&self, path: &str, make: impl FnOnce() -> Vec<Bound>) -> Arc<[Bound]> {
        if let Some(bounds) = lock(&self.bounds).get(path) {
            return Arc::clone(bounds);
        }
        let bounds: Arc<[Bound]> = make().into();
        lock(&self.bounds).insert(path.into(), Arc::clone(&bounds));
        bounds
    }

    /// What `make` reads from the manifest at `rel` (made the first time).
    pub fn parsed<T: Any + Send + Sync>(&self, rel: &str, make: impl FnOnce() -> T) -> Arc<T> {
        if let Some(found) = lock(&self.parsed).get(rel) {
            if let Ok(found) = Arc::clone(found).downcast::<T>() {
                return found;
            }
        }
        let made = Arc::new(make());
        lock(&self.parsed).insert(rel.into(), Arc::clone(&made) as Arc<dyn Any + Send + Sync>);
        made
    }

    /// The text of a manifest at `rel` under `root` (`None`: none there),
    /// read once.
    pub fn manifest(&self, root: &Path, rel: &str) -> Option<Arc<str>> {
        if let Some(text) = lock(&self.manifests).get(rel) {
            return text.clone();
        }
        let text: Option<Arc<str>> = std::fs::read_to_string(root.join(rel)).ok().map(Into::into);
        lock(&self.manifests).insert(rel.into(), text.clone());
        text
    }
}
