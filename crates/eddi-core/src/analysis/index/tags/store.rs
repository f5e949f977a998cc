//! Scans kept across processes: the brace index's scans of a workspace's
//! files, written to its state directory (`<state>/index/brace-scans`)
//! once a service has scanned them all, and read back by the next
//! process's index, so that its first queries read what a scan would make
//! instead of parsing the files again.
//!
//! **When a stored scan is used.** A scan depends on the file's text alone
//! ([`super::scan::scan`]), so a stored one is keyed by the language that
//! scanned it and the BLAKE3 hash of the text: a file read with another
//! text is scanned as before. The file is stamped with the fingerprint of
//! the build that wrote it (a hash of the core's sources and of the
//! grammars' versions, made by `build.rs`): a store another build wrote
//! is ignored as a whole. Each scan carries a check of its bytes, read
//! when the scan is first needed: a damaged one (or one that does not
//! decode) is made from the text instead. A store never changes an
//! answer, only what it costs.
//!
//! **Layout.** `EDDISCAN`, the format's version (u32, little-endian) and
//! the fingerprint (16 ASCII hex digits); then the number of scans (u32),
//! and per scan the language's id (a length byte, then its bytes), the
//! text's hash (32 bytes), the check (the first 16 bytes of the BLAKE3
//! hash of the id, the text's hash and the scan), the length of the scan
//! (u32) and the scan: its `postcard` encoding, compressed by LZ4 (about
//! half the size: the Go standard library's 63 MB of code make a store
//! of 60 MB, rxjs's 1.5 MB one of 0.3 MB).
//!
//! **Writes** are atomic (a temporary file in the same directory, then
//! renamed): a reader sees the old store or the new one, and two
//! processes writing at once leave one of theirs. Not synced: a store is
//! a cache whose every scan is checked, so a file a crash left torn
//! costs a parse, never an answer, and a short-lived process (`eddi run`
//! stores what it scanned as it ends) does not wait for the disk. A store holds the scans
//! of the files the writer's index held, so it does not grow with files
//! removed or rewritten since.

use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::scan::TagsFile;
use crate::language::Language;

const MAGIC: &[u8; 8] = b"EDDISCAN";
const FORMAT: u32 = 2;
/// This build's fingerprint (see `build.rs`).
const FINGERPRINT: &str = env!("EDDI_SCAN_FINGERPRINT");
const HEADER: usize = MAGIC.len() + 4 + FINGERPRINT.len();
const CHECK: usize = 16;

/// The store's file in a workspace's state directory.
pub fn path_in(state_dir: &Path) -> PathBuf {
    state_dir.join("index").join("brace-scans")
}

type Key = (&'static str, [u8; blake3::OUT_LEN]);

/// The scans a previous process stored, read once when the index is
/// built; each is checked and decoded when its file is first needed.
pub struct ScanStore {
    bytes: Vec<u8>,
    /// Each scan's check and bytes.
    scans: HashMap<Key, (Range<usize>, Range<usize>)>,
}

impl std::fmt::Debug for ScanStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScanStore")
            .field("scans", &self.scans.len())
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl ScanStore {
    /// Reads the store at `path`; `None` when there is none, or it is
    /// another build's, or damaged (then logged).
    pub fn open(path: &Path) -> Option<Arc<ScanStore>> {
        let bytes = std::fs::read(path).ok()?;
        match ScanStore::from_bytes(bytes) {
            Ok(store) => Some(Arc::new(store)),
            Err(why) => {
                tracing::info!(path = %path.display(), why, "stored scans not used");
                None
            }
        }
    }

    fn from_bytes(bytes: Vec<u8>) -> Result<ScanStore, &'static str> {
        let header = bytes.get(..HEADER).ok_or("shorter than its header")?;
        let (magic, rest) = header.split_at(MAGIC.len());
        let (format, rest) = rest.split_at(4);
        if magic != MAGIC {
            return Err("not a store of scans");
        }
        if format != FORMAT.to_le_bytes() || rest != FINGERPRINT.as_bytes() {
            return Err("written by another build");
        }
        let mut reader = Reader {
            bytes: &bytes,
            at: HEADER,
        };
        let count = reader.u32().ok_or("truncated")?;
        let mut scans = HashMap::with_capacity(count.min(1 << 20) as usize);
        for _ in 0..count {
            let id_len = reader.take(1).ok_or("truncated")?[0] as usize;
            let id = std::str::from_utf8(reader.take(id_len).ok_or("truncated")?)
                .map_err(|_| "a language's id is not UTF-8")?;
            let hash: [u8; blake3::OUT_LEN] = reader
                .take(blake3::OUT_LEN)
                .ok_or("truncated")?
                .try_into()
                .expect("taken at its length");
            let check = reader.at..reader.at + CHECK;
            reader.take(CHECK).ok_or("truncated")?;
            let len = reader.u32().ok_or("truncated")? as usize;
            let start = reader.at;
            reader.take(len).ok_or("truncated")?;
            // (a language this build does not read: its scans are dropped)
            if let Some(language) = crate::language::by_id(id) {
                scans.insert((language.id(), hash), (check, start..start + len));
            }
        }
        Ok(ScanStore { bytes, scans })
    }

    /// Whether it holds a scan of this text in this language.
    pub fn holds(&self, language: &dyn Language, content: &blake3::Hash) -> bool {
        self.scans
            .contains_key(&(language.id(), *content.as_bytes()))
    }

    /// The stored scan of this text in this language, if it holds one
    /// whose bytes pass their check and decode.
    pub fn scan(&self, language: &dyn Language, content: &blake3::Hash) -> Option<TagsFile> {
        let stored = self.stored(language, content)?;
        let decoded = lz4_flex::decompress_size_prepended(stored)
            .map_err(|e| e.to_string())
            .and_then(|encoded| {
                postcard::from_bytes::<TagsFile>(&encoded).map_err(|e| e.to_string())
            });
        match decoded {
            Ok(file) => Some(file.restored()),
            Err(e) => {
                tracing::info!(error = %e, "a stored scan does not decode; the file is scanned");
                None
            }
        }
    }

    /// The bytes of a stored scan, if they pass their check.
    fn stored(&self, language: &dyn Language, content: &blake3::Hash) -> Option<&[u8]> {
        let (check, range) = self.scans.get(&(language.id(), *content.as_bytes()))?;
        let stored = self.bytes.get(range.clone())?;
        if self.bytes.get(check.clone())? != checked(language.id(), content, stored) {
            tracing::info!("a stored scan is damaged; the file is scanned");
            return None;
        }
        Some(stored)
    }

    pub fn len(&self) -> usize {
        self.scans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scans.is_empty()
    }
}

/// One file's scan to store: made in this process, or still the stored
/// bytes of a previous one.
pub enum ToStore<'a> {
    Scanned(&'a TagsFile),
    Stored(&'a ScanStore),
}

/// Writes the scans of `files` (language, text hash, scan) as the store at
/// `path`, atomically; the number written.
pub fn write<'a>(
    path: &Path,
    files: impl IntoIterator<Item = (&'static dyn Language, blake3::Hash, ToStore<'a>)>,
) -> std::io::Result<usize> {
    let mut body = Vec::new();
    body.extend_from_slice(&0u32.to_le_bytes());
    let mut count: u32 = 0;
    for (language, content, scan) in files {
        let compressed;
        let bytes = match scan {
            ToStore::Scanned(file) => {
                let encoded = postcard::to_stdvec(file).map_err(std::io::Error::other)?;
                compressed = lz4_flex::compress_prepend_size(&encoded);
                &compressed[..]
            }
            ToStore::Stored(store) => match store.stored(language, &content) {
                Some(bytes) => bytes,
                None => continue,
            },
        };
        let id = language.id();
        let (Ok(id_len), Ok(len)) = (u8::try_from(id.len()), u32::try_from(bytes.len())) else {
            continue;
        };
        body.push(id_len);
        body.extend_from_slice(id.as_bytes());
        body.extend_from_slice(content.as_bytes());
        body.extend_from_slice(&checked(id, &content, bytes));
        body.extend_from_slice(&len.to_le_bytes());
        body.extend_from_slice(bytes);
        count += 1;
    }
    body[..4].copy_from_slice(&count.to_le_bytes());
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(MAGIC)?;
    file.write_all(&FORMAT.to_le_bytes())?;
    file.write_all(FINGERPRINT.as_bytes())?;
    file.write_all(&body)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(count as usize)
}

/// The check of one stored scan: its language, its text's hash and its
/// bytes.
fn checked(id: &str, content: &blake3::Hash, stored: &[u8]) -> [u8; CHECK] {
    let mut hasher = blake3::Hasher::new();
    hasher.update(id.as_bytes());
    hasher.update(content.as_bytes());
    hasher.update(stored);
    let hash = hasher.finalize();
    hash.as_bytes()[..CHECK]
        .try_into()
        .expect("a hash is longer")
}

/// Reads a store's body, every read bounded by its length.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, len: usize) -> Option<&'b [u8]> {
        let taken = self.bytes.get(self.at..self.at.checked_add(len)?)?;
        self.at += len;
        Some(taken)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::index::ProjectIndex;

    /// What a query reads of a scan, as text (the words' table keyed in the
    /// same order each time).
    fn shown(file: &TagsFile) -> String {
        format!("{file:?}")
    }

    /// A scan read back from the store is the scan the text makes, on real
    /// code of every family: this crate's own Rust sources, and files of
    /// the ES, Go and Java families that fill every table (CommonJS keys,
    /// re-exports, typed names, declared types, locals).
    #[test]
    fn a_stored_scan_reads_back_as_the_scan_of_its_text() {
        let mut texts: Vec<(&str, String)> = vec![
            ("a.js", ES.into()),
            ("a.ts", TS.into()),
            ("a.tsx", "export const C = () => <div>{x}</div>;\n".into()),
            ("a.go", GO.into()),
            ("A.java", JAVA.into()),
        ];
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/analysis/index/tags");
        for entry in std::fs::read_dir(src).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "rs") {
                texts.push(("x.rs", std::fs::read_to_string(entry.path()).unwrap()));
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scans");
        let scans: Vec<_> = texts
            .iter()
            .map(|(name, text)| {
                let language = crate::language::language_of(name).unwrap();
                let file = super::super::scan::scan(language, text);
                (language, blake3::hash(text.as_bytes()), file)
            })
            .collect();
        assert!(scans.iter().all(|(_, _, f)| !f.refs.is_empty()));
        let files = scans.iter().map(|(l, h, f)| (*l, *h, ToStore::Scanned(f)));
        assert_eq!(write(&path, files).unwrap(), scans.len());
        let store = ScanStore::open(&path).unwrap();
        for (language, content, file) in &scans {
            let back = store.scan(*language, content).unwrap();
            assert_eq!(shown(&back), shown(file), "{}", language.id());
        }
        // a store written again from the stored bytes holds the same scans
        let again = dir.path().join("again");
        let files = scans
            .iter()
            .map(|(l, h, _)| (*l, *h, ToStore::Stored(&store)));
        assert_eq!(write(&again, files).unwrap(), scans.len());
        let again = ScanStore::open(&again).unwrap();
        let (language, content, file) = &scans[0];
        assert_eq!(shown(&again.scan(*language, content).unwrap()), shown(file));
        // another text, or the same text in another language: not held
        let ts = crate::language::language_of("a.ts").unwrap();
        assert!(!store.holds(ts, &blake3::hash(b"other")));
        assert!(!store.holds(ts, &scans[0].1));
    }

    /// A store another build wrote, a damaged or truncated one, or a file
    /// that is no store, is not read: its files are scanned from their
    /// texts, and the answers are the same.
    #[test]
    fn a_store_of_another_build_or_damaged_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scans");
        let language = crate::language::language_of("a.go").unwrap();
        let file = super::super::scan::scan(language, GO);
        let hash = blake3::hash(GO.as_bytes());
        write(&path, [(language, hash, ToStore::Scanned(&file))]).unwrap();
        let good = std::fs::read(&path).unwrap();
        assert!(ScanStore::from_bytes(good.clone()).is_ok());
        let spoiled = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut bytes = good.clone();
            f(&mut bytes);
            ScanStore::from_bytes(bytes).unwrap_err()
        };
        let fingerprint = MAGIC.len() + 4;
        assert_eq!(
            spoiled(&|b| b[fingerprint] ^= 1),
            "written by another build"
        );
        assert_eq!(spoiled(&|b| b[MAGIC.len()] = 9), "written by another build");
        assert_eq!(spoiled(&|b| b.truncate(b.len() - 1)), "truncated");
        assert_eq!(spoiled(&|b| b.truncate(10)), "shorter than its header");
        assert_eq!(spoiled(&|b| b[0] = b'X'), "not a store of scans");
        // a body that lies about its lengths
        let mut lying = good[..HEADER].to_vec();
        lying.extend_from_slice(&[1u8, 0, 0, 0, 2, b'g', b'o']);
        assert_eq!(ScanStore::from_bytes(lying).unwrap_err(), "truncated");
        // a damaged scan (any byte of its check, or of its bytes) is not
        // read; the store's other scans are
        let scan_at = HEADER + 4 + 1 + 2 + blake3::OUT_LEN;
        for at in [scan_at, scan_at + CHECK + 4 + 3, good.len() - 1] {
            let mut bytes = good.clone();
            bytes[at] ^= 1;
            let damaged = ScanStore::from_bytes(bytes).unwrap();
            assert!(damaged.holds(language, &hash));
            assert!(damaged.scan(language, &hash).is_none(), "{at}");
        }
        // a check that passes over bytes that do not decode
        let mut bytes = good[..scan_at].to_vec();
        let nonsense = [0xffu8; 9];
        bytes.extend_from_slice(&checked("go", &hash, &nonsense));
        bytes.extend_from_slice(&(nonsense.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&nonsense);
        let undecodable = ScanStore::from_bytes(bytes).unwrap();
        assert!(undecodable.scan(language, &hash).is_none());
        assert!(ScanStore::from_bytes(good)
            .unwrap()
            .scan(language, &hash)
            .is_some());
    }

    /// The index of a workspace reads the scans its state directory holds
    /// for the texts it reads, and scans the rest; its answers are those
    /// of an index that scanned every file; a store is written only when
    /// this process scanned some file.
    #[test]
    fn an_index_reads_the_scans_a_previous_process_stored() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| std::fs::write(dir.path().join(path), text).unwrap();
        write(
            "util.ts",
            "export function add(a: number) {\n  return a;\n}\n",
        );
        write("app.ts", "import { add } from './util';\nadd(1);\n");
        write("more.js", "const { add } = require('./util');\nadd(3);\n");
        write(
            "main.go",
            "package main\n\nfunc run() {}\n\nfunc main() { run() }\n",
        );
        let uses = |index: &ProjectIndex, symbol: &str| {
            let found = index.tags().find_references(index.root(), symbol, None);
            let found = found.unwrap();
            let certain = found.certain.iter().map(|l| format!("{l}"));
            certain
                .chain(found.possible.iter().map(|l| format!("{l}?")))
                .collect::<Vec<_>>()
        };
        let first = ProjectIndex::build(dir.path());
        assert_eq!(first.store_scans().unwrap(), None, "nothing scanned yet");
        first.scan_all();
        assert_eq!(first.store_scans().unwrap(), Some(4));
        let expected = (uses(&first, "util.add"), uses(&first, "main.run"));

        let second = ProjectIndex::build(dir.path());
        assert_eq!(
            (uses(&second, "util.add"), uses(&second, "main.run")),
            expected
        );
        second.scan_all();
        assert_eq!(second.tags().restored(), 4);
        assert_eq!(second.store_scans().unwrap(), None, "nothing new to store");

        // a file with another text is scanned from it
        write(
            "app.ts",
            "import { add } from './util';\nadd(1);\nadd(2);\n",
        );
        let third = ProjectIndex::build(dir.path());
        assert_eq!(uses(&third, "util.add").len(), expected.0.len() + 1);
        third.scan_all();
        assert_eq!(third.tags().restored(), 3);
        assert_eq!(third.store_scans().unwrap(), Some(4));

        // a damaged scan is not read; the others are
        let stored = path_in(&dir.path().join(".eddi"));
        let mut bytes = std::fs::read(&stored).unwrap();
        *bytes.last_mut().unwrap() ^= 0xff;
        std::fs::write(&stored, bytes).unwrap();
        let fourth = ProjectIndex::build(dir.path());
        assert_eq!(uses(&fourth, "main.run"), expected.1);
        fourth.scan_all();
        assert_eq!(fourth.tags().restored(), 3);
        // a store of another build is not read at all
        let mut bytes = std::fs::read(&stored).unwrap();
        bytes[MAGIC.len() + 4] ^= 1;
        std::fs::write(&stored, bytes).unwrap();
        let fifth = ProjectIndex::build(dir.path());
        assert_eq!(uses(&fifth, "util.add").len(), expected.0.len() + 1);
        fifth.scan_all();
        assert_eq!(fifth.tags().restored(), 0);
    }

    /// The scan ahead a service runs stores the scans when it is done.
    #[test]
    fn the_scan_ahead_stores_the_scans() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.go"), GO).unwrap();
        let index = ProjectIndex::build(dir.path());
        index.scanner()();
        let store = ScanStore::open(&path_in(&dir.path().join(".eddi"))).unwrap();
        assert_eq!(store.len(), 1);
    }

    const ES: &str = r#"
const { a, b: c } = require('./m');
const lib = require('./lib');
export { x as y } from './z';
export * from './w';
module.exports = { a, d() {}, e: c };
exports.k = function () { return lib.f(a); };
class K extends Base { m() { this.n = 1; return this.n; } }
function g(p, { q, r = 2 }) { let s = p + q; return import('./dyn').then(m => m.h(s)); }
"#;
    const TS: &str = r#"
import type { T } from './t';
import * as ns from './ns';
import def, { u as v } from './u';
export interface I<X> { m(x: X): T; readonly p: number; }
export type A = keyof I<number>;
export enum E { One, Two }
export default class C implements I<string> {
  private f: ns.Q = new ns.Q();
  m(x: string): T { const w: C = this; return v(w.f, def, x); }
  get p() { return 1; }
}
export const arrow = async <X,>(x: X): Promise<X> => x;
"#;
    const GO: &str = r#"package main

import (
	"fmt"
	str "strings"
)

type Base struct{ N int }

type T struct {
	Base
	items []*Base
	name  string
}

func NewT(n string) *T { return &T{name: n} }

func (t *T) Lookup(i int) *Base { return t.items[i] }

var global = NewT("g")

func main() {
	t := NewT("x")
	for _, b := range t.items {
		fmt.Println(b.N, str.ToUpper(t.name))
	}
	global.Lookup(0).N++
}
"#;
    const JAVA: &str = r#"package com.acme;

import java.util.List;
import static java.lang.Math.max;

public class A<T> extends B implements C, D {
    private List<String> names;
    private int n;

    public A(int n) { this.n = n; }

    public <U> U pick(U u, String... rest) {
        int m = max(n, rest.length);
        return names.get(m) == null ? u : u;
    }

    static class Inner { void go() { new A<String>(1).pick("x"); } }
}
"#;
}
