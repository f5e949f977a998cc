//! The files scripts and queries parsed, kept by content: a query that
//! reads the same bytes of the same path again takes the parse it left
//! instead of parsing again (the Python API walks a project with one query
//! per function's callers). A file's parse is keyed by its path and the
//! disk stamp of its bytes (blake3, size, mtime, inode), so a change on
//! disk — by Eddi or anybody — is simply another key; what a script
//! changed is never kept here (it is parsed by the script itself).
//! Bounded: past [`KEEP`] files the least recently used half is dropped.
//!
//! **Found by stamp.** A file whose size, mtime and inode are still those
//! of a kept parse is that parse's text, without reading and hashing it
//! again ([`ParsedFiles::unchanged`]) — as `Workspace::changed_since`
//! judges a file unchanged. Trusted only when the file was last modified
//! more than [`SETTLED`] before its bytes were read (git's "racy clean"
//! rule): a write in the same tick of the file system's clock as the read
//! keeps (size, mtime), so such a file is read and hashed every time
//! until a read finds it settled.
//!
//! **Lent to the index.** The project index scans the same Python files
//! with the same grammar: [`ParsedFiles::tree_of`] lends it the tree of a
//! kept parse of the text it holds (`ProjectIndex::lend_trees`), so a
//! file is parsed once for both.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;
use ropey::Rope;

use crate::script::run::Parsed;
use crate::workspace::DiskStamp;

/// How many files' parses are kept (Django has about 900 Python files).
pub const KEEP: usize = 4096;

/// How long before a read a file must have been last modified for its
/// stamp alone to vouch for its bytes (covers the coarsest clocks of
/// common file systems: FAT's 2 s).
pub const SETTLED: Duration = Duration::from_secs(2);

#[derive(Default)]
pub(super) struct ParsedFiles {
    inner: Mutex<Kept>,
}

/// One kept parse.
struct Entry {
    /// The stamp of the bytes it was parsed from.
    stamp: DiskStamp,
    /// Whether the read of those bytes began more than [`SETTLED`] after
    /// the file's mtime: then the stamp alone says the file is unchanged.
    settled: bool,
    /// Last use (the clock of [`Kept`]).
    used: u64,
    parsed: Arc<Parsed>,
}

#[derive(Default)]
struct Kept {
    files: HashMap<String, Entry>,
    clock: u64,
}

/// A file's bytes as read: their stamp, and when the read began.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    pub stamp: DiskStamp,
    pub read_at: SystemTime,
}

impl Seen {
    /// Whether the file was last modified more than [`SETTLED`] before
    /// the read began (see the module doc): a write since would have
    /// moved its mtime.
    fn settled(&self) -> bool {
        let modified = UNIX_EPOCH + Duration::from_nanos(self.stamp.mtime_ns);
        self.stamp.mtime_ns > 0
            && self.stamp.ino != 0
            && self
                .read_at
                .duration_since(modified)
                .is_ok_and(|age| age > SETTLED)
    }
}

impl ParsedFiles {
    /// The kept parse of `path` when the file is still what it was parsed
    /// from by its stamp alone: `same(stamp)` says whether the file's
    /// size, mtime and inode are still the stamp's (no read, no hash).
    /// `None` when nothing settled is kept or the file changed: read it.
    pub(super) fn unchanged(
        &self,
        path: &str,
        same: impl FnOnce(&DiskStamp) -> bool,
    ) -> Option<(DiskStamp, Arc<Parsed>)> {
        let (stamp, parsed) = {
            let mut kept = self.inner.lock();
            kept.clock += 1;
            let now = kept.clock;
            let entry = kept.files.get_mut(path).filter(|e| e.settled)?;
            entry.used = now;
            (entry.stamp.clone(), entry.parsed.clone())
        };
        // the disk is asked outside the lock
        same(&stamp).then_some((stamp, parsed))
    }

    /// The parses of many files (path, how its bytes were read when it is
    /// as on disk, text): those kept taken, the others parsed in parallel
    /// outside the lock and kept.
    pub(super) fn get_many(
        &self,
        files: Vec<(String, Option<Seen>, Rope)>,
    ) -> Vec<Option<Arc<Parsed>>> {
        use rayon::prelude::*;
        let known: Vec<Option<Arc<Parsed>>> = {
            let mut kept = self.inner.lock();
            kept.clock += 1;
            files
                .iter()
                .map(|(path, seen, _)| kept.take(path, seen.as_ref()?))
                .collect()
        };
        // (the parse, whether it is new here)
        let parsed: Vec<(Option<Arc<Parsed>>, bool)> = files
            .par_iter()
            .zip(known)
            .map(|((path, _, text), known)| match known {
                Some(known) => (Some(known), false),
                None => (Parsed::new(path, text.clone()).map(Arc::new), true),
            })
            .collect();
        let mut kept = self.inner.lock();
        // only the new ones: a kept parse taken above keeps its entry (a
        // read this view did not make would unsettle it)
        for ((path, seen, _), (parsed, new)) in files.iter().zip(&parsed) {
            if let (Some(seen), Some(parsed), true) = (seen, parsed, *new) {
                kept.keep(path, seen, parsed);
            }
        }
        kept.trim();
        parsed.into_iter().map(|(parsed, _)| parsed).collect()
    }

    /// The parse of `text`, the bytes of `path` read as `seen`.
    pub(super) fn get(&self, path: &str, seen: &Seen, text: &Rope) -> Option<Arc<Parsed>> {
        {
            let mut kept = self.inner.lock();
            kept.clock += 1;
            if let Some(parsed) = kept.take(path, seen) {
                return Some(parsed);
            }
        }
        // parsed outside the lock: other queries go on meanwhile
        let parsed = Arc::new(Parsed::new(path, text.clone())?);
        let mut kept = self.inner.lock();
        kept.keep(path, seen, &parsed);
        kept.trim();
        Some(parsed)
    }

    /// The tree of the kept Python parse of `path` whose text hashes to
    /// `content`, and that text's length in bytes (for the index's scan).
    pub(super) fn tree_of(
        &self,
        path: &str,
        content: &blake3::Hash,
    ) -> Option<(tree_sitter::Tree, usize)> {
        let kept = self.inner.lock();
        let entry = kept.files.get(path)?;
        let parsed = &entry.parsed;
        // the stamp hashes the bytes on disk: the text's own when they
        // are UTF-8 (a file in another encoding hashes otherwise: no tree)
        (parsed.is_python() && entry.stamp.hash == content.to_hex().as_str())
            .then(|| (parsed.tree.tree().clone(), parsed.text.len_bytes()))
    }
}

impl Kept {
    /// The kept parse of the bytes `seen` hashes, marked used; a read that
    /// finds the same bytes again renews the stamp (and may settle it).
    fn take(&mut self, path: &str, seen: &Seen) -> Option<Arc<Parsed>> {
        let now = self.clock;
        let entry = self.files.get_mut(path)?;
        if entry.stamp.hash != seen.stamp.hash {
            return None;
        }
        entry.used = now;
        if entry.stamp != seen.stamp || !entry.settled {
            entry.stamp = seen.stamp.clone();
            entry.settled = seen.settled();
        }
        Some(entry.parsed.clone())
    }

    fn keep(&mut self, path: &str, seen: &Seen, parsed: &Arc<Parsed>) {
        let entry = Entry {
            stamp: seen.stamp.clone(),
            settled: seen.settled(),
            used: self.clock,
            parsed: parsed.clone(),
        };
        self.files.insert(path.to_owned(), entry);
    }

    /// Past [`KEEP`] files, the least recently used half goes.
    fn trim(&mut self) {
        if self.files.len() > KEEP {
            let mut uses: Vec<u64> = self.files.values().map(|e| e.used).collect();
            uses.sort_unstable();
            let cut = uses[uses.len() / 2];
            self.files.retain(|_, e| e.used > cut);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "def f(x):\n    return x\n";

    fn seen(text: &str, modified_secs: u64, read_secs: u64) -> Seen {
        Seen {
            stamp: DiskStamp {
                len: text.len() as u64,
                mtime_ns: modified_secs * 1_000_000_000,
                hash: blake3::hash(text.as_bytes()).to_hex().to_string(),
                ino: 7,
            },
            read_at: UNIX_EPOCH + Duration::from_secs(read_secs),
        }
    }

    #[test]
    fn a_stamp_vouches_for_a_file_only_once_it_settled_before_the_read() {
        assert!(seen(TEXT, 100, 110).settled());
        assert!(!seen(TEXT, 100, 101).settled(), "modified within SETTLED");
        assert!(
            !seen(TEXT, 100, 90).settled(),
            "modified after the read began"
        );
        let mut unknown = seen(TEXT, 100, 110);
        unknown.stamp.ino = 0;
        assert!(
            !unknown.settled(),
            "no inode: a rewrite could keep the rest"
        );
    }

    #[test]
    fn a_kept_parse_is_found_by_its_stamp_only_when_settled_and_the_same() {
        let files = ParsedFiles::default();
        let text = Rope::from_str(TEXT);
        let fresh = seen(TEXT, 100, 101);
        files.get("a.py", &fresh, &text).unwrap();
        assert!(
            files.unchanged("a.py", |_| true).is_none(),
            "read right after a write: read again"
        );
        // read again later, the same bytes: now the stamp vouches
        let later = seen(TEXT, 100, 200);
        files.get("a.py", &later, &text).unwrap();
        let (stamp, parsed) = files.unchanged("a.py", |_| true).unwrap();
        assert_eq!(stamp, later.stamp);
        assert_eq!(parsed.text, text);
        assert!(
            files.unchanged("a.py", |_| false).is_none(),
            "its stamp moved"
        );
        assert!(files.unchanged("b.py", |_| true).is_none());
    }

    #[test]
    fn a_kept_parse_taken_by_many_stays_found_by_its_stamp() {
        let files = ParsedFiles::default();
        let text = Rope::from_str(TEXT);
        let read = seen(TEXT, 100, 200);
        files.get_many(vec![("a.py".into(), Some(read.clone()), text.clone())]);
        assert!(files.unchanged("a.py", |_| true).is_some());
        // taken again, as a view that found it by its stamp does (it did
        // not read the bytes: its read time says nothing)
        let found = seen(TEXT, 100, 0);
        files.get_many(vec![("a.py".into(), Some(found), text)]);
        let (stamp, _) = files.unchanged("a.py", |_| true).unwrap();
        assert_eq!(stamp, read.stamp);
    }

    #[test]
    fn a_tree_is_lent_for_the_text_it_was_parsed_from_only() {
        let files = ParsedFiles::default();
        files
            .get("a.py", &seen(TEXT, 100, 200), &Rope::from_str(TEXT))
            .unwrap();
        let (tree, len) = files
            .tree_of("a.py", &blake3::hash(TEXT.as_bytes()))
            .unwrap();
        assert_eq!(len, TEXT.len());
        assert_eq!(tree.root_node().kind(), "module");
        assert!(files.tree_of("a.py", &blake3::hash(b"x = 1\n")).is_none());
        assert!(files
            .tree_of("b.py", &blake3::hash(TEXT.as_bytes()))
            .is_none());
    }
}
