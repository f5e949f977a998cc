//! The files scripts and queries parsed, kept by content: a query that
//! reads the same bytes of the same path again takes the parse it left
//! instead of parsing again (the Python API walks a project with one query
//! per function's callers). A file's parse is keyed by its path and the
//! blake3 of its bytes, so a change on disk — by Eddi or anybody — is
//! simply another key; what a script changed is never kept here (it is
//! parsed by the script itself). Bounded: past [`KEEP`] files the least
//! recently used half is dropped.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use ropey::Rope;

use crate::script::run::Parsed;

/// How many files' parses are kept (Django has about 900 Python files).
pub const KEEP: usize = 4096;

#[derive(Default)]
pub(super) struct ParsedFiles {
    inner: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    /// path → (blake3 of its bytes, last use, the parse)
    files: HashMap<String, (String, u64, Arc<Parsed>)>,
    clock: u64,
}

impl ParsedFiles {
    /// The parses of many files (path, blake3 of its bytes when it is as
    /// on disk, text): those kept taken, the others parsed in parallel
    /// outside the lock and kept.
    pub(super) fn get_many(
        &self,
        files: Vec<(String, Option<String>, Rope)>,
    ) -> Vec<Option<Arc<Parsed>>> {
        use rayon::prelude::*;
        let known: Vec<Option<Arc<Parsed>>> = {
            let mut kept = self.inner.lock();
            kept.clock += 1;
            let now = kept.clock;
            files
                .iter()
                .map(|(path, hash, _)| {
                    let (known, used, parsed) = kept.files.get_mut(path)?;
                    (Some(&*known) == hash.as_ref()).then(|| {
                        *used = now;
                        parsed.clone()
                    })
                })
                .collect()
        };
        let parsed: Vec<Option<Arc<Parsed>>> = files
            .par_iter()
            .zip(known)
            .map(|((path, _, text), known)| {
                known.or_else(|| Parsed::new(path, text.clone()).map(Arc::new))
            })
            .collect();
        let mut kept = self.inner.lock();
        let now = kept.clock;
        for ((path, hash, _), parsed) in files.iter().zip(&parsed) {
            if let (Some(hash), Some(parsed)) = (hash, parsed) {
                kept.files
                    .insert(path.clone(), (hash.clone(), now, parsed.clone()));
            }
        }
        kept.trim();
        parsed
    }

    /// The parse of `text`, the bytes of `path` whose blake3 is `hash`.
    pub(super) fn get(&self, path: &str, hash: &str, text: &Rope) -> Option<Arc<Parsed>> {
        {
            let mut kept = self.inner.lock();
            kept.clock += 1;
            let now = kept.clock;
            if let Some((known, used, parsed)) = kept.files.get_mut(path) {
                if known == hash {
                    *used = now;
                    return Some(parsed.clone());
                }
            }
        }
        // parsed outside the lock: other queries go on meanwhile
        let parsed = Arc::new(Parsed::new(path, text.clone())?);
        let mut kept = self.inner.lock();
        let now = kept.clock;
        kept.files
            .insert(path.to_owned(), (hash.to_owned(), now, parsed.clone()));
        kept.trim();
        Some(parsed)
    }
}

impl Kept {
    /// Past [`KEEP`] files, the least recently used half goes.
    fn trim(&mut self) {
        if self.files.len() > KEEP {
            let mut uses: Vec<u64> = self.files.values().map(|(_, used, _)| *used).collect();
            uses.sort_unstable();
            let cut = uses[uses.len() / 2];
            self.files.retain(|_, (_, used, _)| *used > cut);
        }
    }
}
