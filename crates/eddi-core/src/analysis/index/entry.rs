//! One indexed file: its place, its stamp, and its [`FileIndex`], scanned
//! the first time a query asks for it.
//!
//! An entry is made from the file's text without parsing it: the index of
//! a project is a read of every file, and only the files a query needs are
//! parsed — for a query keyed by a name, the files whose text spells that
//! name ([`Entry::may_mention`]). That is sound because every key of a
//! [`FileIndex`] (the name a reference's symbol has, a definition's name,
//! an export) is a word of the file's own text: the index of a file
//! depends on its text only.
//!
//! **Invariant:** once scanned, an entry's index never changes; an entry
//! is shared (`Arc`) by the index and its views, so a view that scans an
//! entry scans it for all of them. Scanning is thread-safe (`OnceLock`):
//! two queries asking at once wait for one scan.
//!
//! **Lent trees.** Whoever parsed the same text already (the script query
//! engine's kept parses, `engine/parses.rs`) may lend its tree to an
//! unscanned entry ([`Entry::lend`]): the scan then walks that tree
//! instead of parsing the text again. Only a tree of the very text the
//! entry holds is taken (same content hash and length).

use std::sync::{Arc, Mutex, OnceLock};

use super::disk::{self, ModuleName, Stamp};
use super::projects::Project;
use super::FileIndex;

#[derive(Debug)]
pub(super) struct Entry {
    pub(super) path: String,
    /// Its module's name and whether it is a package's `__init__`.
    pub(super) module: ModuleName,
    /// The project it belongs to (`projects.rs`).
    pub(super) project: Project,
    /// The disk's stamp when the file was last read or updated; `None` for
    /// a buffer that does not exist on disk.
    pub(super) stamp: Option<Stamp>,
    /// The hash of the text it was scanned from, when read from disk or
    /// written by a commit.
    pub(super) content: Option<blake3::Hash>,
    index: OnceLock<FileIndex>,
    /// The text, until it is scanned.
    text: Mutex<Option<Arc<String>>>,
    /// A tree of that text someone else parsed, until it is scanned.
    lent: Mutex<Option<tree_sitter::Tree>>,
}

impl Entry {
    /// An entry scanned already.
    pub(super) fn scanned(
        path: String,
        (module, project): (ModuleName, Project),
        stamp: Option<Stamp>,
        content: Option<blake3::Hash>,
        index: FileIndex,
    ) -> Entry {
        let entry = Entry::new(path, (module, project), stamp, content);
        entry.index.get_or_init(|| index);
        entry
    }

    /// An entry scanned from `text` when first asked for.
    pub(super) fn unscanned(
        path: String,
        (module, project): (ModuleName, Project),
        stamp: Option<Stamp>,
        content: Option<blake3::Hash>,
        text: Arc<String>,
    ) -> Entry {
        let entry = Entry::new(path, (module, project), stamp, content);
        *entry.text.lock().unwrap_or_else(|p| p.into_inner()) = Some(text);
        entry
    }

    fn new(
        path: String,
        (module, project): (ModuleName, Project),
        stamp: Option<Stamp>,
        content: Option<blake3::Hash>,
    ) -> Entry {
        Entry {
            path,
            module,
            project,
            stamp,
            content,
            index: OnceLock::new(),
            text: Mutex::new(None),
            lent: Mutex::new(None),
        }
    }

    /// The same file and text with another stamp (its index shared, or its
    /// text, whichever it holds).
    pub(super) fn restamped(&self, stamp: Option<Stamp>) -> Entry {
        let path = self.path.clone();
        let module = (self.module.clone(), self.project.clone());
        match (self.index.get(), self.text()) {
            (None, Some(text)) => Entry::unscanned(path, module, stamp, self.content, text),
            // scanned, or being scanned right now (then it waits for it)
            _ => Entry::scanned(path, module, stamp, self.content, self.index().clone()),
        }
    }

    /// Its index, scanned now if it was not yet.
    pub(super) fn index(&self) -> &FileIndex {
        self.index.get_or_init(|| {
            let text = self
                .text
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take()
                .unwrap_or_default();
            let lent = self.lent.lock().unwrap_or_else(|p| p.into_inner()).take();
            let scanned = match lent {
                Some(tree) => Ok(super::file::scan(
                    &self.module.0,
                    self.module.1,
                    &text,
                    &tree,
                )),
                None => disk::index_text(&self.module, &text),
            };
            scanned.unwrap_or_else(|reason| {
                // tree-sitter only fails without a language or when
                // cancelled, neither of which the index does
                tracing::warn!(path = %self.path, %reason, "cannot scan; indexed as empty");
                FileIndex {
                    module: self.module.0.clone(),
                    is_package: self.module.1,
                    ..FileIndex::default()
                }
            })
        })
    }

    /// The length of its text while it waits to be scanned (0 while a
    /// scan has taken it: [`Self::index`] waits for that scan); `None`
    /// once scanned.
    pub(super) fn unscanned_len(&self) -> Option<usize> {
        if self.index.get().is_some() {
            return None;
        }
        Some(self.text().map_or(0, |t| t.len()))
    }

    /// Takes `tree`, parsed by someone else from a text of `len` bytes
    /// whose hash is this entry's `content` (the lender vouches for that),
    /// for its scan: only while it is unscanned, and when its own text is
    /// that long. Whether it was taken.
    pub(super) fn lend(&self, len: usize, tree: tree_sitter::Tree) -> bool {
        let own = self.content.is_some() && self.text().is_some_and(|text| text.len() == len);
        if !own || self.index.get().is_some() {
            return false;
        }
        *self.lent.lock().unwrap_or_else(|p| p.into_inner()) = Some(tree);
        true
    }

    /// Its index if it was scanned.
    pub(super) fn scanned_index(&self) -> Option<&FileIndex> {
        self.index.get()
    }

    /// Whether its index may hold `word` (an identifier): true once
    /// scanned (the index's own keyed tables answer then); before, whether
    /// its text spells `word` as a whole word.
    pub(super) fn may_mention(&self, word: &str) -> bool {
        if self.index.get().is_some() {
            return true;
        }
        match self.text() {
            Some(text) => spells(&text, word),
            // taken by a scan in progress
            None => true,
        }
    }

    fn text(&self) -> Option<Arc<String>> {
        self.text
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(Arc::clone)
    }
}

/// Whether `text` holds `word` as a whole word: not inside a longer
/// identifier. When in doubt, the word is there (a false "yes" costs a
/// scan, a false "no" a missed reference): a non-ASCII neighbour may end
/// an identifier, and a run that starts with a digit is a number the
/// lexer may end anywhere (`1e5name`, `1jname`: a number, then a name).
pub(crate) fn spells(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return true;
    }
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    memchr::memmem::find_iter(bytes, word.as_bytes()).any(|at| {
        let after = bytes.get(at + word.len()).copied();
        if after.is_some_and(is_ident) {
            return false;
        }
        // the identifier characters right before it, back to the first
        let run = bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| is_ident(b))
            .count();
        run == 0 || bytes[at - run].is_ascii_digit()
    })
}

#[cfg(test)]
mod tests {
    use super::spells;

    #[test]
    fn a_word_is_spelled_only_whole() {
        assert!(spells("x = reverse(url)", "reverse"));
        assert!(spells("__all__ = ['reverse']", "reverse"));
        assert!(spells("urls.reverse", "reverse"));
        assert!(spells("reverse", "reverse"));
        assert!(!spells("reversed(xs)", "reverse"));
        assert!(!spells("_reverse = 1", "reverse"));
        assert!(!spells("nothing here", "reverse"));
        // found after a miss in the same text
        assert!(spells("reversed(reverse())", "reverse"));
        // a non-ASCII neighbour may be part of an identifier: counted as there
        assert!(spells("éreverse", "reverse"));
        // a number the lexer ends before the name
        assert!(spells("1reverse", "reverse"));
        assert!(spells("1jreverse", "reverse"));
        assert!(!spells("x1reverse", "reverse"));
    }
}

/// The keys of `index` (of its references, sites, definitions and
/// exports) that `text` does not spell: none, for the scan to be sound
/// (see the module docs).
#[cfg(test)]
pub(super) fn unspelled_keys(text: &str, index: &FileIndex) -> Vec<String> {
    let keys = index
        .ref_ranges
        .keys()
        .chain(index.site_ranges.keys())
        .chain(index.def_ranges.keys())
        .map(|&k| index.name(k));
    keys.chain(index.exports.keys().map(|k| &**k))
        .map(|key| key.rsplit('.').next().unwrap_or(key))
        .filter(|key| !spells(text, key))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod soundness {
    use super::unspelled_keys;
    use crate::analysis::index::disk;

    /// Every key of every fixture's index is a word of its text.
    #[test]
    fn every_key_of_a_files_index_is_a_word_of_its_text() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = 0;
        for dir in ["../../tests/fixtures", "src"] {
            // Python's modules (the brace languages' files are `tags`')
            let modules = disk::indexed_files(&root.join(dir));
            for path in modules.into_iter().filter(|p| p.ends_with(".py")) {
                let text = std::fs::read_to_string(root.join(dir).join(&path)).unwrap();
                let index = disk::index_text(&("m.n".into(), false), &text).unwrap();
                let missing = unspelled_keys(&text, &index);
                assert!(missing.is_empty(), "{dir}/{path}: keys {missing:?}");
                files += 1;
            }
        }
        assert!(files > 100, "only {files} files");
    }
}
