//! The project index beyond Python: the files of JavaScript, TypeScript,
//! Go, Rust and Java, each scanned with one walk over its tree by its
//! language's tags-like rules ([`walk`]) and its symbol sites, and resolved at
//! query time through its family's module system ([`family`]: ES modules
//! in [`es`], Go packages in [`go`], Java packages in [`java`], Rust
//! modules in [`rust`]). It lives in the same [`super::ProjectIndex`] as
//! the Python modules — one walk, one refresh, one view per sender —, but
//! apart from them: a Python query never reads it, so Python's answers
//! and costs do not change.
//!
//! Like Python's ([`super::entry`]), a file is read when the index is
//! built and scanned the first time a query needs it: a query keyed by a
//! name scans the files whose text spells it. A file's scan depends on
//! its text alone; what its imports name is found when a query runs
//! ([`resolve`]).
//!
//! **How sure an answer is.** A use is *certain* when the module system
//! proves it names the symbol: the defining file's own unshadowed uses,
//! the same package's (Go, Java), an import that resolves to the module
//! that defines (or re-exports) it, a path or namespace through such a
//! module, a member through `this`/`self` in its class or through a name
//! declared with its type. It is *possible* when the index cannot decide:
//! a name no import or definition binds, an import whose source it cannot
//! find (a package from outside, a missing file), CommonJS `require` of a
//! module whose keys only a run knows ([`commonjs`]), a member read
//! through a value of unknown type. Anything else is another
//! symbol's.

pub mod commonjs;
mod es;
pub mod family;
mod go;
mod imports;
mod java;
mod macros;
pub(crate) mod memo;
mod packages;
pub mod resolve;
mod rust;
pub mod scan;
mod sites;
pub mod store;
mod tsconfig;
pub mod unbound;
mod verdicts;
mod walk;

pub(crate) use walk::symbol_sites;
mod words;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use super::disk::Stamp;
use super::entry::spells;
use crate::language::Language;
pub use imports::{FileImports, ImportForm, ModuleImport};
pub use scan::TagsFile;
use store::{ScanStore, ToStore};
use words::{Word, WordFilter};

/// The full name this index takes for the definition `qualified` of a
/// brace-language file (`web.util.fmt`: its module's label, then the
/// name), from the file's path and tree (`text_of` reads a byte range of
/// its text): what `caller of`, `Refactor RenameSymbol` and the agent
/// tools resolve exactly. `None` for a file of another language.
pub fn full_name_of(
    path: &str,
    qualified: &str,
    root: tree_sitter::Node<'_>,
    text_of: impl FnOnce(std::ops::Range<usize>) -> String,
) -> Option<String> {
    let label = module_label_of(path, root, text_of)?;
    Some(resolve::full_name(&label, qualified))
}

/// The label of a brace-language file's module (`web.util`, Go's package
/// directory, Java's package): what the index's full names of its
/// definitions start with ([`full_name_of`]), so a per-file command given
/// such a name can drop it. `None` for a file of another language.
pub fn module_label_of(
    path: &str,
    root: tree_sitter::Node<'_>,
    text_of: impl FnOnce(std::ops::Range<usize>) -> String,
) -> Option<String> {
    let family = family::family_of(crate::language::language_of(path)?)?;
    let package = family.package(root).map(|name| text_of(name.byte_range()));
    Some(family.label(path, package.as_deref()))
}

/// Whether the index reads `path` as a file of a brace language.
pub fn reads(path: &str) -> bool {
    crate::language::language_of(path).is_some_and(|l| family::family_of(l).is_some())
}

/// Whether a file (by its path) is a manifest the resolvers read:
/// `go.mod`, `go.work`, `Cargo.toml`, `package.json`, a `tsconfig*.json` or `jsconfig*.json` (one
/// may `extends` another). Its change makes every query resolve again.
pub fn is_manifest(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "go.mod" | "go.work" | "Cargo.toml" | "package.json")
        || ((name.starts_with("tsconfig") || name.starts_with("jsconfig"))
            && name.ends_with(".json"))
}

/// One file, scanned the first time a query needs it.
#[derive(Debug)]
pub struct TagsEntry {
    pub path: String,
    pub language: &'static dyn Language,
    pub stamp: Option<Stamp>,
    pub content: Option<blake3::Hash>,
    scanned: OnceLock<TagsFile>,
    /// Its scan's words, summarized (set just after the scan).
    filter: OnceLock<WordFilter>,
    /// The text, until it is scanned.
    text: Mutex<Option<Arc<String>>>,
    /// A previous process's scan of the same text, until it is read.
    stored: Mutex<Option<Arc<ScanStore>>>,
    /// Its scan was read from a store, not made from its text.
    restored: AtomicBool,
}

impl TagsEntry {
    fn new(
        path: String,
        language: &'static dyn Language,
        stamp: Option<Stamp>,
        content: Option<blake3::Hash>,
        text: Arc<String>,
        stored: Option<Arc<ScanStore>>,
    ) -> Self {
        TagsEntry {
            path,
            language,
            stamp,
            content,
            scanned: OnceLock::new(),
            filter: OnceLock::new(),
            text: Mutex::new(Some(text)),
            stored: Mutex::new(stored),
            restored: AtomicBool::new(false),
        }
    }

    /// Its scan, made now (or read from a store) if no query needed it
    /// before.
    pub fn file(&self) -> &TagsFile {
        let file = self.scanned.get_or_init(|| {
            let stored = self.stored.lock().unwrap_or_else(|p| p.into_inner()).take();
            let restored = stored
                .zip(self.content)
                .and_then(|(store, content)| store.scan(self.language, &content));
            self.restored.store(restored.is_some(), Ordering::Relaxed);
            let file = restored.unwrap_or_else(|| {
                let text = self.text().unwrap_or_default();
                scan::scan(self.language, &text)
            });
            *self.text.lock().unwrap_or_else(|p| p.into_inner()) = None;
            file
        });
        self.filter.get_or_init(|| WordFilter::new(file.words()));
        file
    }

    fn text(&self) -> Option<Arc<String>> {
        self.text
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(Arc::clone)
    }

    /// The same entry with another stamp (its scan or text shared).
    fn restamped(&self, stamp: Option<Stamp>) -> TagsEntry {
        let entry = TagsEntry {
            path: self.path.clone(),
            language: self.language,
            stamp,
            content: self.content,
            scanned: OnceLock::new(),
            filter: OnceLock::new(),
            text: Mutex::new(self.text()),
            stored: Mutex::new(self.stored()),
            restored: AtomicBool::new(self.restored.load(Ordering::Relaxed)),
        };
        if let Some(file) = self.scanned.get() {
            let _ = entry.scanned.set(file.clone());
        }
        if let Some(filter) = self.filter.get() {
            let _ = entry.filter.set(filter.clone());
        }
        entry
    }

    fn stored(&self) -> Option<Arc<ScanStore>> {
        self.stored
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(Arc::clone)
    }

    fn is_scanned(&self) -> bool {
        self.scanned.get().is_some()
    }

    /// Whether its scan may hold `word`: its text spells it, or once
    /// scanned, its tables key it (most files ruled out by the filter).
    fn may_mention(&self, word: &Word<'_>) -> bool {
        if let Some(file) = self.scanned.get() {
            let filtered = self.filter.get().is_none_or(|f| f.may_hold(word));
            return filtered && file.keys(word.text);
        }
        match self.text() {
            Some(text) => spells(&text, word.text),
            // taken by a scan in progress
            None => true,
        }
    }

    /// Whether it may re-export a module's names (`export … from`; Rust's
    /// glob `use m::*`, which spells none of the names it brings).
    fn may_reexport(&self) -> bool {
        let rust = self.family_id() == Some("rust");
        if let Some(file) = self.scanned.get() {
            return file.imports.iter().any(|i| match rust {
                true => i.imported == scan::Imported::All,
                false => i.kind == scan::ImportKind::ReExport,
            });
        }
        match self.text() {
            Some(text) if rust => text.contains("::*"),
            Some(text) => may_reexport(&text),
            None => true,
        }
    }

    /// Its re-exports (`export … from`), when known: scanned, or a text
    /// that does not spell `export`.
    fn reexports(&self) -> Option<Vec<scan::Import>> {
        if let Some(file) = self.scanned.get() {
            let imports = file.imports.iter();
            let reexports = imports.filter(|i| i.kind == scan::ImportKind::ReExport);
            return Some(reexports.cloned().collect());
        }
        (!self.may_reexport()).then(Vec::new)
    }

    fn family_id(&self) -> Option<&'static str> {
        family::family_id(self.language)
    }
}

/// Whether an ES file's text may hold a re-export (`export * from 's'`,
/// `export { a } from 's'`, `export type { A } from 's'`): an `export`
/// whose next word is not one that starts a declaration, a default
/// export or an assignment (`export const …`, `export default …`,
/// `export type A = …`, `export = …`). A first query reads every file
/// that may re-export its module: most ES files export, few re-export.
/// Ruling a file out only on such a word keeps every file whose scan
/// finds a re-export.
fn may_reexport(text: &str) -> bool {
    // (JavaScript's whitespace, and tree-sitter's: Unicode's, the BOM,
    // zero-width spaces)
    let blank = |c: char| c.is_whitespace() || matches!(c, '\u{FEFF}' | '\u{2060}' | '\u{200B}');
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    // the word at the start of `rest` (ASCII letters), and what follows it
    let word = |rest: &str| -> (usize, bool) {
        let len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let whole = rest
            .as_bytes()
            .get(len)
            .is_none_or(|&b| !is_ident(b) && b < 0x80);
        (len, whole)
    };
    const NEVER: &[&str] = &[
        "default",
        "const",
        "let",
        "var",
        "function",
        "class",
        "async",
        "interface",
        "enum",
        "abstract",
        "declare",
        "namespace",
        "module",
        "import",
        "as",
    ];
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, "export").any(|at| {
        let end = at + "export".len();
        if (at > 0 && is_ident(bytes[at - 1])) || bytes.get(end).is_some_and(|&b| is_ident(b)) {
            // (part of another name: `exports`, `reexport`)
            return false;
        }
        let rest = text[end..].trim_start_matches(blank);
        if rest.starts_with('=') {
            return false;
        }
        let (len, whole) = word(rest);
        if !whole || len == 0 {
            return true;
        }
        match &rest[..len] {
            "type" => {
                // `export type { A } from 's'` or `export type * from 's'`,
                // not `export type A = …`
                let after = rest[len..].trim_start_matches(blank);
                let (len, whole) = word(after);
                !(whole && len > 0)
            }
            w => !NEVER.contains(&w),
        }
    })
}

/// The brace languages' files of a project index. Cloned for a view (the
/// entries are shared).
#[derive(Debug, Clone, Default)]
pub struct TagsIndex {
    entries: HashMap<String, Arc<TagsEntry>>,
    /// What queries resolved in this state of the files (a new one for
    /// each change).
    memo: Arc<memo::Memo>,
    /// A previous process's scans, while the index is built from disk.
    store: Option<Arc<ScanStore>>,
}

impl TagsIndex {
    /// Takes a file's text (read from disk: its stamp and hash; or a
    /// buffer's); an entry with the same text keeps its scan.
    pub fn insert(
        &mut self,
        path: String,
        text: Arc<String>,
        stamp: Option<Stamp>,
        content: Option<blake3::Hash>,
    ) -> bool {
        let Some(language) = crate::language::language_of(&path) else {
            return false;
        };
        if let (Some(old), Some(new)) = (self.entries.get(&path), content) {
            if old.content == Some(new) {
                // the same text: what it resolves to is the same
                let entry = Arc::new(old.restamped(stamp));
                self.entries.insert(path, entry);
                return true;
            }
        }
        // a new text of a file whose family resolves by paths keeps what
        // the other files resolve to (and the answers that read neither
        // text); a new file changes the paths
        let stored = self
            .store
            .as_ref()
            .filter(|store| content.is_some_and(|content| store.holds(language, &content)));
        let entry = Arc::new(TagsEntry::new(
            path.clone(),
            language,
            stamp,
            content,
            text,
            stored.map(Arc::clone),
        ));
        let by_paths = family::family_of(language).is_some_and(|f| f.resolves_by_paths());
        self.memo = match self.entries.get(&path) {
            Some(old) if by_paths => Arc::new(self.memo.after_edit(old, &entry)),
            _ => Arc::default(),
        };
        self.entries.insert(path, entry);
        true
    }

    pub fn remove(&mut self, path: &str) -> bool {
        let removed = self.entries.remove(path).is_some();
        if removed {
            self.forget_resolutions();
        }
        removed
    }

    /// The scans a previous process stored, for the files read from disk
    /// until it is taken away (`None`): an entry whose text it holds a
    /// scan of reads that scan instead of parsing its text.
    pub(crate) fn use_store(&mut self, store: Option<Arc<ScanStore>>) {
        self.store = store;
    }

    /// Drops what queries resolved (a file or a manifest changed).
    pub fn forget_resolutions(&mut self) {
        self.memo = Arc::default();
    }

    pub(crate) fn memo(&self) -> &memo::Memo {
        &self.memo
    }

    pub fn contains(&self, path: &str) -> bool {
        self.entries.contains_key(path)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    pub fn entry(&self, path: &str) -> Option<&Arc<TagsEntry>> {
        self.entries.get(path)
    }

    /// Every entry, with its stamp (for a refresh).
    pub fn entries(&self) -> impl Iterator<Item = &Arc<TagsEntry>> {
        self.entries.values()
    }

    /// How many files no query needed yet.
    pub fn unscanned(&self) -> usize {
        self.entries.values().filter(|e| !e.is_scanned()).count()
    }

    /// How many files took a previous process's scan ([`store`]).
    pub fn restored(&self) -> usize {
        let restored = |e: &&Arc<TagsEntry>| e.restored.load(Ordering::Relaxed);
        self.entries.values().filter(restored).count()
    }

    /// Scans every file no query needed yet, in parallel.
    pub fn scan_all(&self) {
        self.entries.par_iter().for_each(|(_, e)| {
            e.file();
        });
    }

    /// Stores the scans of `entries` read from disk (made by this process,
    /// or still a previous one's) at `path` ([`store`]), unless every
    /// one is a previous process's: the number stored, if written.
    pub fn store_scans(entries: &[Arc<TagsEntry>], path: &Path) -> std::io::Result<Option<usize>> {
        let on_disk = || entries.iter().filter(|e| e.content.is_some());
        let made_here = on_disk().any(|e| e.is_scanned() && !e.restored.load(Ordering::Relaxed));
        if !made_here {
            return Ok(None);
        }
        let held: Vec<_> = on_disk().map(|e| (e, e.stored())).collect();
        let files = held.iter().filter_map(|(e, stored)| {
            let scan = match (e.scanned.get(), stored) {
                (Some(file), _) => ToStore::Scanned(file),
                (None, Some(store)) => ToStore::Stored(store),
                (None, None) => return None,
            };
            Some((e.language, e.content?, scan))
        });
        store::write(path, files).map(Some)
    }

    /// The entries, for a scan ahead on a thread of its own.
    pub fn shared(&self) -> Vec<Arc<TagsEntry>> {
        self.entries.values().map(Arc::clone).collect()
    }

    /// The files of `family` (a [`family::family_id`], or any) whose
    /// text spells one of `words` (or that may re-export, with
    /// `reexports`), scanned (in parallel), sorted by path.
    pub(crate) fn files_with(
        &self,
        family: Option<&str>,
        words: &[&str],
        reexports: bool,
    ) -> Vec<&Arc<TagsEntry>> {
        let words: Vec<Word<'_>> = words.iter().map(|w| Word::new(w)).collect();
        let mut found: Vec<&Arc<TagsEntry>> = self
            .entries
            .par_iter()
            .map(|(_, e)| e)
            .filter(|e| family.is_none() || e.family_id() == family)
            .filter(|e| words.iter().any(|w| e.may_mention(w)) || (reexports && e.may_reexport()))
            .collect();
        found.par_iter().for_each(|e| {
            e.file();
        });
        found.sort_by(|a, b| a.path.cmp(&b.path));
        found
    }

    /// Go and Rust: the types of `family` declared as another named
    /// `class` (`type A = P;`, Go's `type A P`, `type A = geo.P`), by
    /// name: a struct literal of one has `class`'s keys. (By the name
    /// alone: `class` may be another module's type of that name.)
    pub(crate) fn aliases_of(&self, family: Option<&str>, class: &str) -> Vec<String> {
        let mut aliases: Vec<String> = self
            .files_with(family, &[class], false)
            .into_iter()
            .flat_map(|e| {
                let declared = &e.file().declared;
                declared
                    .iter()
                    .filter(|d| {
                        d.kind == scan::DeclaredKind::Embedded
                            && d.name.is_empty()
                            && named_type(&d.type_text) == class
                    })
                    .filter_map(|d| d.owner.as_ref().map(|o| o.to_string()))
                    .collect::<Vec<_>>()
            })
            .filter(|alias| alias != class)
            .collect();
        aliases.sort();
        aliases.dedup();
        aliases
    }

    /// The paths of a family's files, sorted.
    pub(crate) fn family_paths(&self, family: &'static str) -> Arc<[Box<str>]> {
        self.memo.paths(family, || {
            let mut paths: Vec<Box<str>> = self
                .entries
                .values()
                .filter(|e| e.family_id() == Some(family))
                .map(|e| e.path.as_str().into())
                .collect();
            paths.sort_unstable();
            paths
        })
    }
}

/// The name of a written type, without its path, pointer or type
/// arguments: `P` of `*geo.P`, `geo::P<T>`, `P[int]`.
pub(crate) fn named_type(written: &str) -> &str {
    let bare = written.trim_start_matches(['*', '&']);
    let bare = bare.split(['<', '[']).next().unwrap_or(bare).trim();
    bare.rsplit(['.', ':']).next().unwrap_or(bare)
}

#[cfg(test)]
mod tests {
    use crate::analysis::index::ProjectIndex;
    use ropey::Rope;

    fn uses(index: &ProjectIndex, symbol: &str) -> Vec<String> {
        let found = index
            .tags()
            .find_references(index.root(), symbol, None)
            .unwrap();
        let certain = found.certain.iter().map(|l| format!("{l}"));
        let possible = found.possible.iter().map(|l| format!("{l}?"));
        certain.chain(possible).collect()
    }

    /// The brace languages' files are read with the Python ones, kept
    /// current by `refresh` and `refresh_files` (changed, added, removed),
    /// and a view of unsaved text changes no one else's answer.
    #[test]
    fn the_brace_files_are_kept_current_with_the_python_ones() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            std::fs::write(dir.path().join(path), text).unwrap();
        };
        write("a.py", "def f():\n    pass\n");
        write(
            "util.ts",
            "export function add(a: number) {\n  return a;\n}\n",
        );
        write("app.ts", "import { add } from './util';\nadd(1);\n");
        let mut index = ProjectIndex::build(dir.path());
        assert_eq!(index.paths(), ["a.py", "app.ts", "util.ts"]);
        assert_eq!(uses(&index, "util.add"), ["app.ts:0:9", "app.ts:1:0"]);
        // a view of an unsaved buffer
        let view = index.overlaid(&[(
            "app.ts".to_string(),
            Rope::from_str("import { add } from './util';\nadd(1);\nadd(2);\n"),
        )]);
        assert_eq!(uses(&view, "util.add").len(), 3);
        assert_eq!(uses(&index, "util.add").len(), 2);
        // changed, added, removed on disk
        write(
            "app.ts",
            "import { add as plus } from './util';\n\nplus(1);\n",
        );
        write("more.js", "const { add } = require('./util');\nadd(3);\n");
        let report = index.refresh();
        assert_eq!(report.changed, ["app.ts"]);
        assert_eq!(report.added, ["more.js"]);
        // (an ES module's keys are no CommonJS module's: possible, the key
        // the destructuring takes too)
        assert_eq!(
            uses(&index, "util.add"),
            ["app.ts:0:9", "app.ts:2:0", "more.js:0:8?", "more.js:1:0?"]
        );
        std::fs::remove_file(dir.path().join("more.js")).unwrap();
        let report = index.refresh_files(&["more.js".to_string()]);
        assert_eq!(report.removed, ["more.js"]);
        assert_eq!(uses(&index, "util.add"), ["app.ts:0:9", "app.ts:2:0"]);
    }

    /// A file a first query reads because it may re-export: every form
    /// of re-export (whatever its spacing, comments, `type`) is kept, and
    /// the scan agrees — a file ruled out has no re-export, and a file
    /// whose scan finds one is never ruled out; files that only export
    /// their own declarations are ruled out.
    #[test]
    fn a_file_is_read_for_its_reexports_only_when_it_may_have_one() {
        use super::scan::{scan, ImportKind};
        let reexports = [
            "export * from './a';",
            "export * as ns from './a';",
            "export { a } from './a';",
            "export { a as b, default } from \"./a\"",
            "export {\n  a,\n  b,\n} from './a';",
            "export\n*\nfrom './a'",
            "export /* re */ { a } from './a';",
            "export type { A } from './a';",
            "export type * from './a';",
            "export\u{a0}* from './a';",
            "/** doc */\nexport { a } from './a'",
            "const x = 1;\nexport { x };",
        ];
        let none = [
            "export const a = 1;",
            "export default function f() {}",
            "export function f() {}\nexport class C {}",
            "export async function f() {}",
            "export interface I {}\nexport enum E { A }",
            "export type A = B;",
            "export abstract class C {}",
            "export declare const x: number;",
            "export = f;",
            "export as namespace N;",
            "module.exports = { a };\nexports.b = 1;",
            "const reexport = 1; import { a } from './a';",
        ];
        for text in reexports {
            assert!(super::may_reexport(text), "{text:?} may re-export");
        }
        for text in none {
            assert!(!super::may_reexport(text), "{text:?} cannot re-export");
        }
        let language = crate::language::language_of("a.ts").unwrap();
        for text in reexports.iter().chain(&none) {
            let found = scan(language, text)
                .imports
                .iter()
                .any(|i| i.kind == ImportKind::ReExport);
            assert!(!found || super::may_reexport(text), "{text:?}");
        }
    }

    /// What a query resolved is kept for the next one, and found again
    /// once a manifest changed (the watch refreshes the whole tree then;
    /// a save by Eddi names the file).
    #[test]
    fn a_changed_manifest_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("lib/util.ts", "export function add() {}\n");
        write("app.ts", "import { add } from '@lib/util';\nadd();\n");
        let mut index = ProjectIndex::build(dir.path());
        assert_eq!(uses(&index, "add"), ["app.ts:0:9?", "app.ts:1:0?"]);
        write(
            "tsconfig.json",
            r#"{"compilerOptions": {"paths": {"@lib/*": ["./lib/*"]}}}"#,
        );
        index.refresh();
        assert_eq!(uses(&index, "add"), ["app.ts:0:9", "app.ts:1:0"]);
        // Eddi's own save of a manifest is heard of by path
        write("tsconfig.json", r#"{"compilerOptions": {}}"#);
        index.refresh_files(&["tsconfig.json".to_string()]);
        assert_eq!(uses(&index, "add"), ["app.ts:0:9?", "app.ts:1:0?"]);
    }

    /// The uses of `symbol` in a new index of the tree: what an index
    /// kept through edits must answer.
    fn afresh(tree: &Tree, symbol: &str) -> Vec<String> {
        uses(&ProjectIndex::build(tree.0.path()), symbol)
    }

    /// A project in a temp dir: `write` (dirs made), `delete`.
    struct Tree(tempfile::TempDir);

    impl Tree {
        fn new() -> Self {
            Tree(tempfile::tempdir().unwrap())
        }
        fn write(&self, path: &str, text: &str) {
            let path = self.0.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        fn delete(&self, path: &str) {
            std::fs::remove_file(self.0.path().join(path)).unwrap();
        }
    }

    /// A query asked twice reads its kept answer; a file edited, added or
    /// deleted between two queries gives the new answer: through the
    /// defining file's text (what `New` returns), a file of uses, and an
    /// import that a new package makes resolve (Go).
    #[test]
    fn go_answers_follow_edits_additions_and_deletions() {
        let t = Tree::new();
        t.write("go.mod", "module example.com/m\n");
        t.write(
            "store/stack.go",
            "package store\n\ntype Stack struct{}\n\nfunc (s *Stack) Push(x int) {}\n\nfunc New() *Stack { return &Stack{} }\n",
        );
        t.write(
            "app/main.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\ts := store.New()\n\ts.Push(1)\n}\n",
        );
        t.write(
            "app/alt.go",
            "package main\n\nimport x \"example.com/m/other\"\n\nfunc alt() {\n\tvar s x.Stack\n\ts.Push(0)\n}\n",
        );
        t.write("app/other.go", "package main\n\nfunc other() {}\n");
        let mut index = ProjectIndex::build(t.0.path());
        let push = "store.Stack.Push";
        let first = ["app/main.go:6:3", "app/alt.go:6:3?"];
        assert_eq!(uses(&index, push), first);
        assert_eq!(uses(&index, push), first);
        // a file that spells none of its names, before or after, keeps
        // the answer; one that comes to spell them does not
        t.write("app/other.go", "package main\n\nfunc other() { _ = 1 }\n");
        index.refresh_files(&["app/other.go".to_string()]);
        assert_eq!(index.tags().memo().kept_answers(), (1, 0));
        assert_eq!(uses(&index, push), first);
        t.write(
            "app/other.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc other(s *store.Stack) { s.Push(9) }\n",
        );
        index.refresh_files(&["app/other.go".to_string()]);
        // (the answer kept, that file to resolve again)
        assert_eq!(index.tags().memo().kept_answers(), (1, 1));
        assert_eq!(
            uses(&index, push),
            ["app/main.go:6:3", "app/other.go:4:31", "app/alt.go:6:3?"]
        );
        t.write("app/other.go", "package main\n\nfunc other() {}\n");
        index.refresh_files(&["app/other.go".to_string()]);
        assert_eq!(uses(&index, push), first);
        // the defining file's text decides what `s` is: `New` makes an
        // `int` now, so `s.Push` is no Stack's; then a type of another
        // package, so it is possible
        t.write(
            "store/stack.go",
            "package store\n\ntype Stack struct{}\n\nfunc (s *Stack) Push(x int) {}\n\nfunc New() int { return 0 }\n",
        );
        index.refresh_files(&["store/stack.go".to_string()]);
        assert_eq!(uses(&index, push), ["app/alt.go:6:3?"]);
        t.write(
            "store/stack.go",
            "package store\n\nimport \"strings\"\n\ntype Stack struct{}\n\nfunc (s *Stack) Push(x int) {}\n\nfunc New() strings.Builder { return strings.Builder{} }\n",
        );
        index.refresh_files(&["store/stack.go".to_string()]);
        assert_eq!(uses(&index, push), ["app/alt.go:6:3?", "app/main.go:6:3?"]);
        // a use edited in, a file of uses added, edited, deleted
        t.write(
            "app/main.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\tvar s store.Stack\n\ts.Push(1)\n\ts.Push(2)\n}\n",
        );
        index.refresh_files(&["app/main.go".to_string()]);
        let two = ["app/main.go:6:3", "app/main.go:7:3", "app/alt.go:6:3?"];
        assert_eq!(uses(&index, push), two);
        t.write(
            "app/more.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc more(x *store.Stack) { x.Push(3) }\n",
        );
        index.refresh();
        assert_eq!(
            uses(&index, push),
            [
                "app/main.go:6:3",
                "app/main.go:7:3",
                "app/more.go:4:30",
                "app/alt.go:6:3?"
            ]
        );
        t.write(
            "app/more.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc more(x *store.Stack) {}\n",
        );
        index.refresh_files(&["app/more.go".to_string()]);
        assert_eq!(uses(&index, push), two);
        t.delete("app/more.go");
        index.refresh_files(&["app/more.go".to_string()]);
        assert_eq!(uses(&index, push), two);
        // the package `x` names appears: its `Stack` is another type;
        // then it is gone again
        t.write(
            "other/o.go",
            "package other\n\ntype Stack struct{}\n\nfunc (s *Stack) Push(x int) {}\n",
        );
        index.refresh();
        assert_eq!(uses(&index, push), ["app/main.go:6:3", "app/main.go:7:3"]);
        t.delete("other/o.go");
        index.refresh();
        assert_eq!(uses(&index, push), two);
        // a file's own import edited to name a package the module lacks
        t.write(
            "app/main.go",
            "package main\n\nimport store \"example.com/m/other\"\n\nfunc main() {\n\tvar s store.Stack\n\ts.Push(1)\n\ts.Push(2)\n}\n",
        );
        index.refresh_files(&["app/main.go".to_string()]);
        assert_eq!(
            uses(&index, push),
            ["app/alt.go:6:3?", "app/main.go:6:3?", "app/main.go:7:3?"]
        );
    }

    /// Go: each file's kept verdicts after another file's new text — the
    /// changed file resolved again, the others kept but for a file whose
    /// verdicts read what the changed file's package declares (a dot
    /// import's name, hidden by a declaration of the package), and the
    /// symbol found again where a method moves between the files of its
    /// type's package.
    #[test]
    fn go_kept_verdicts_follow_what_they_read() {
        let t = Tree::new();
        t.write(
            "go.mod",
            "module example.com/m
",
        );
        t.write(
            "store/stack.go",
            "package store\n\ntype Stack struct{}\n\nfunc (s *Stack) Push(x int) {}\n",
        );
        t.write(
            "store/extra.go",
            "package store\n\nfunc (s *Stack) Pop() {}\n",
        );
        t.write(
            "app/dot.go",
            "package main\n\nimport . \"example.com/m/store\"\n\nfunc dot() {\n\tvar s Stack\n\ts.Push(1)\n}\n",
        );
        t.write(
            "app/main.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\tvar s store.Stack\n\ts.Push(2)\n}\n",
        );
        t.write("app/other.go", "package main\n\nfunc other() {}\n");
        let mut index = ProjectIndex::build(t.0.path());
        let push = "store.Stack.Push";
        let first = ["app/dot.go:6:3", "app/main.go:6:3"];
        assert_eq!(uses(&index, push), first);
        assert_eq!(uses(&index, push), afresh(&t, push));
        // a file of uses edited: resolved again, the other's verdicts kept
        t.write(
            "app/main.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\tvar s store.Stack\n\tvar n int\n\tn.Push(2)\n\ts.Push(3)\n}\n",
        );
        index.refresh_files(&["app/main.go".to_string()]);
        assert_eq!(index.tags().memo().kept_answers(), (1, 1));
        assert_eq!(uses(&index, push), ["app/dot.go:6:3", "app/main.go:8:3"]);
        assert_eq!(uses(&index, push), afresh(&t, push));
        // another file of the package comes to declare `Stack`: the dot
        // import's `Stack` in `dot.go` is the package's own now
        t.write(
            "app/other.go",
            "package main\n\ntype Stack struct{}\n\nfunc other() {}\n",
        );
        index.refresh_files(&["app/other.go".to_string()]);
        assert_eq!(uses(&index, push), ["app/main.go:8:3"]);
        assert_eq!(uses(&index, push), afresh(&t, push));
        t.write("app/other.go", "package main\n\nfunc other() {}\n");
        index.refresh_files(&["app/other.go".to_string()]);
        assert_eq!(uses(&index, push), ["app/dot.go:6:3", "app/main.go:8:3"]);
        assert_eq!(uses(&index, push), afresh(&t, push));
        // the type loses the method, then has it again
        t.write("store/stack.go", "package store\n\ntype Stack struct{}\n");
        index.refresh_files(&["store/stack.go".to_string()]);
        assert!(index
            .tags()
            .find_references(index.root(), push, None)
            .is_err());
        t.write(
            "store/stack.go",
            "package store\n\ntype Stack struct{}\n\nfunc (s *Stack) Push(x int) {}\n",
        );
        index.refresh_files(&["store/stack.go".to_string()]);
        assert_eq!(uses(&index, push), ["app/dot.go:6:3", "app/main.go:8:3"]);
        assert_eq!(uses(&index, push), afresh(&t, push));
        // another file of the package declares a method of the name: the
        // symbols found again there
        t.write(
            "store/extra.go",
            "package store\n\nfunc (s *Stack) Pop() {}\n\nfunc (s *Stack) Push(x int) {}\n",
        );
        index.refresh_files(&["store/extra.go".to_string()]);
        let both = index.tags().find_definition(index.root(), push, None);
        assert_eq!(both.map(|d| d.len()).ok(), Some(2));
    }

    /// The same for ES modules: an import whose file appears (a
    /// re-export of the symbol), is edited (its own symbol), and goes;
    /// a sender's unsaved text is its own view's answer alone.
    #[test]
    fn es_answers_follow_edits_additions_and_deletions() {
        let t = Tree::new();
        t.write(
            "util.ts",
            "export function add(a: number) {\n  return a;\n}\n",
        );
        t.write(
            "app.ts",
            "import { add } from './util';\nimport { add as more } from './more';\nadd(1);\nmore(2);\n",
        );
        let mut index = ProjectIndex::build(t.0.path());
        let unknown = ["app.ts:0:9", "app.ts:2:0", "app.ts:1:9?", "app.ts:3:0?"];
        assert_eq!(uses(&index, "add"), unknown);
        assert_eq!(uses(&index, "add"), unknown);
        t.write("more.ts", "export { add } from './util';\n");
        index.refresh();
        assert_eq!(
            uses(&index, "util.add"),
            [
                "app.ts:0:9",
                "app.ts:1:9",
                "app.ts:2:0",
                "app.ts:3:0",
                "more.ts:0:9"
            ]
        );
        // Eddi's save of the re-exporting file: now its own `add`
        t.write("more.ts", "export function add() {}\n");
        index.refresh_files(&["more.ts".to_string()]);
        assert_eq!(uses(&index, "util.add"), ["app.ts:0:9", "app.ts:2:0"]);
        // an unsaved buffer: the view's answer, not the index's
        let view = index.overlaid(&[(
            "app.ts".to_string(),
            Rope::from_str("import { add } from './util';\nadd(1);\nadd(2);\n"),
        )]);
        assert_eq!(
            uses(&view, "util.add"),
            ["app.ts:0:9", "app.ts:1:0", "app.ts:2:0"]
        );
        assert_eq!(uses(&index, "util.add"), ["app.ts:0:9", "app.ts:2:0"]);
        // one whose import names a file the project lacks
        let view = index.overlaid(&[(
            "app.ts".to_string(),
            Rope::from_str("import { add } from './nowhere';\nadd(1);\n"),
        )]);
        assert_eq!(uses(&view, "util.add"), ["app.ts:0:9?", "app.ts:1:0?"]);
        assert_eq!(uses(&index, "util.add"), ["app.ts:0:9", "app.ts:2:0"]);
        t.delete("more.ts");
        index.refresh_files(&["more.ts".to_string()]);
        assert_eq!(uses(&index, "util.add"), unknown);
    }

    /// ES modules: each file's kept verdicts after another file's new
    /// text — a file of uses whose import changes, another that gains a
    /// use, the symbol's own file — and the symbols found again in a
    /// file that comes to define the name.
    #[test]
    fn es_kept_verdicts_follow_edits() {
        let t = Tree::new();
        t.write(
            "util.ts",
            "export function add(a: number) {\n  return a;\n}\n",
        );
        t.write("app.ts", "import { add } from './util';\nadd(1);\n");
        t.write(
            "lib.ts",
            "import { add as plus } from './util';\nplus(2);\n",
        );
        t.write("c.ts", "import { sum } from './lib';\nsum(4);\n");
        let mut index = ProjectIndex::build(t.0.path());
        let all = ["app.ts:0:9", "app.ts:1:0", "lib.ts:0:9", "lib.ts:1:0"];
        assert_eq!(uses(&index, "util.add"), all);
        assert_eq!(uses(&index, "util.add"), afresh(&t, "util.add"));
        t.write(
            "lib.ts",
            "import { add as plus } from './nowhere';\nplus(2);\n",
        );
        index.refresh_files(&["lib.ts".to_string()]);
        assert_eq!(index.tags().memo().kept_answers(), (1, 1));
        assert_eq!(
            uses(&index, "util.add"),
            ["app.ts:0:9", "app.ts:1:0", "lib.ts:0:9?", "lib.ts:1:0?"]
        );
        assert_eq!(uses(&index, "util.add"), afresh(&t, "util.add"));
        t.write(
            "app.ts",
            "import { add } from './util';\nadd(1);\nadd(3);\n",
        );
        index.refresh_files(&["app.ts".to_string()]);
        let three = [
            "app.ts:0:9",
            "app.ts:1:0",
            "app.ts:2:0",
            "lib.ts:0:9?",
            "lib.ts:1:0?",
        ];
        assert_eq!(uses(&index, "util.add"), three);
        assert_eq!(uses(&index, "util.add"), afresh(&t, "util.add"));
        // a file of uses comes to re-export it (a name `c.ts` imports):
        // resolved whole, then it no longer does
        let reexporting = "import { add as plus } from './nowhere';\nexport { add as sum } from './util';\nplus(2);\n";
        t.write("lib.ts", reexporting);
        index.refresh_files(&["lib.ts".to_string()]);
        let found = uses(&index, "util.add");
        assert!(found.contains(&"c.ts:1:0".to_string()), "{found:?}");
        assert_eq!(found, afresh(&t, "util.add"));
        // its other text edited, its re-exports the same: kept verdicts
        t.write("lib.ts", &format!("{reexporting}plus(5);\n"));
        index.refresh_files(&["lib.ts".to_string()]);
        assert_eq!(index.tags().memo().kept_answers(), (1, 1));
        let found = uses(&index, "util.add");
        assert!(found.contains(&"lib.ts:3:0?".to_string()), "{found:?}");
        assert_eq!(found, afresh(&t, "util.add"));
        t.write(
            "lib.ts",
            "import { add as plus } from './nowhere';\nplus(2);\n",
        );
        index.refresh_files(&["lib.ts".to_string()]);
        assert_eq!(uses(&index, "util.add"), three);
        assert_eq!(uses(&index, "util.add"), afresh(&t, "util.add"));
        // the symbol's own file: all resolved again
        t.write(
            "util.ts",
            "export function add(a: number) {\n  return a;\n}\nadd(0);\n",
        );
        index.refresh_files(&["util.ts".to_string()]);
        let mut own = three.to_vec();
        own.insert(3, "util.ts:3:0");
        assert_eq!(uses(&index, "util.add"), own);
        assert_eq!(uses(&index, "util.add"), afresh(&t, "util.add"));
        // a file comes to define `add`: two symbols of the name
        t.write("lib.ts", "export function add() {}\n");
        index.refresh_files(&["lib.ts".to_string()]);
        let defined = index.tags().find_definition(index.root(), "add", None);
        assert_eq!(defined.map(|d| d.len()).ok(), Some(2));
        assert_eq!(
            uses(&index, "util.add"),
            ["app.ts:0:9", "app.ts:1:0", "app.ts:2:0", "util.ts:3:0"]
        );
        assert_eq!(uses(&index, "util.add"), afresh(&t, "util.add"));
    }
}
