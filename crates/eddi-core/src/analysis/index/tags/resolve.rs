//! The queries of the brace languages' index: a symbol's definitions, its
//! references and its callers, each use *certain* or *possible* (see the
//! module docs of [`super`]), and the files that import a file.
//!
//! A symbol is named as code targets print it (`f`, `Stack.Push`,
//! `Point.Display.fmt`), or with its module's label before it
//! (`src.util.f`, `com.shop.Cart.add`, `store.Stack.Push`) when several
//! files define the name. The uses of a module-level symbol are found
//! through the names that denote it: its module's own name for it, the
//! names its module exports it by, and (ES modules) the names the modules
//! that re-export it give it; a member's (a method's, a field's) through
//! its class's.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::commonjs::{CommonJs, KeyValue};
use super::family::{family_of, Bound, Family, Files, ModuleKey, Source};
use super::memo::Answer;
use super::packages::Packages;
use super::rust::{binds_in_part, declares, declares_item, rebase};
use super::scan::{ImportKind, Imported, Qualifier, TagDef, TagRef, TagsFile};
use super::verdicts::{Asked, Context, Kept, KeptFile};
use super::words::Word;
use super::{TagsEntry, TagsIndex};
use crate::analysis::index::error::{IndexError, SymbolCandidate};
use crate::analysis::index::query::{Call, Callers, Definition, Location, References};
use crate::analysis::outline::SymbolKind;

mod constructors;
mod es_types;
mod infer;
mod java_types;
mod rust_types;

/// A symbol: its file and its definitions there (overloads, a property's
/// accessors are one symbol).
struct Symbol<'a> {
    entry: &'a TagsEntry,
    defs: Vec<usize>,
}

/// Whether a module's own declarations or explicit exports bind `name`,
/// which a glob re-export (`export *`, Rust's `pub use m::*`) then does
/// not: they shadow it. (An ES module's import it does not export
/// shadows nothing: `import { f } from './u'; export * from './u'` still
/// exports `f`. A Rust `use` does: a glob gives way to any name of the
/// module's namespace.)
fn declares_itself(file: &TagsFile, name: &str, family: &str) -> bool {
    file.exports.iter().any(|(exported, _)| exported == name)
        || file.defs.iter().any(|d| d.top_level && d.name == name)
        || file.imports.iter().any(|i| {
            i.local == name
                && !matches!(i.imported, Imported::All)
                && (family != "es" || i.kind == ImportKind::ReExport)
        })
}

impl Symbol<'_> {
    fn def(&self) -> &TagDef {
        &self.entry.file().defs[self.defs[0]]
    }
}

/// A symbol as a memo keeps it: its file's path and its definitions
/// there.
pub(super) struct Named {
    path: Box<str>,
    defs: Vec<usize>,
}

/// One use of a symbol.
#[derive(Clone)]
pub(super) struct Use {
    path: String,
    start: crate::edit::Position,
    end: crate::edit::Position,
    certain: bool,
    /// Written as a name the symbol is imported or re-exported under, not
    /// as its own (`import f from`, `export { default as f }`), though it
    /// may spell the same.
    aliased: bool,
    call: bool,
    /// Java: the number of arguments a call passes.
    arity: Option<u8>,
    caller: Option<String>,
}

/// The names that denote a module-level definition, by module.
#[derive(Default)]
pub(super) struct Names {
    pub all: HashSet<(ModuleKey, String)>,
    /// Those that are its own name, kept along every export on the way.
    pub own: HashSet<(ModuleKey, String)>,
}

/// The class whose member a query looks for, as a file of uses sees it.
struct Class<'q> {
    /// Its name.
    name: &'q str,
    /// The names that denote it.
    aliases: &'q HashSet<(ModuleKey, String)>,
    /// Whether the file of uses is in the class's module.
    same_module: bool,
}

/// How sure the index is that a use names the symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Certain,
    Possible,
    Other,
}

/// What a name denotes in a file, as far as the index can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Denotes {
    /// A module's item (its module-level name there).
    Item(ModuleKey, String),
    /// A module (a namespace import, a Go package, a Rust module).
    Module(ModuleKey),
    /// Bound by CommonJS `require` of this module's item, or of the module,
    /// whose keys the index does not know.
    Required(Option<ModuleKey>, Option<String>),
    /// Bound by CommonJS `require` of a module whose keys are known (its
    /// `module.exports` an object of them): what a key names, the module
    /// tells ([`CommonJs::value`]).
    CommonJs(ModuleKey),
    /// Bound by an import the index cannot follow.
    Unknown,
    /// Bound by nothing the index sees (a global, a builtin).
    Unbound,
}

/// The span of the innermost class around char `at` of `file` that
/// declares the private name `name` (`#count`): whose it is there.
fn private_owner(file: &TagsFile, name: &str, at: usize) -> Option<std::ops::Range<usize>> {
    file.defs
        .iter()
        .filter(|c| c.kind == SymbolKind::Class && c.span.contains(&at))
        .filter(|c| {
            file.defs.iter().any(|m| {
                m.name == name
                    && m.container.as_deref() == Some(c.name.as_str())
                    && c.span.contains(&m.span.start)
            })
        })
        .min_by_key(|c| c.span.len())
        .map(|c| c.span.clone())
}

/// Whether `q`, the name a member use `r` is read through, is bound by
/// an import of its own (a Go package, a Java class named by a
/// single-type import) that no local binding nearer the use hides:
/// where the index does not follow that import, it leads outside the
/// project.
fn imported_whole(file: &TagsFile, q: &str, r: &TagRef) -> bool {
    !r.local_qualifier
        && file.typed_binding(q, r.offset).is_none()
        && file
            .imports
            .iter()
            .any(|i| i.local == q && matches!(i.imported, Imported::Module | Imported::Name(_)))
}

impl TagsIndex {
    /// Where the project defines `query`.
    pub fn find_definition(
        &self,
        root: &Path,
        query: &str,
        current: Option<&str>,
    ) -> Result<Vec<Definition>, IndexError> {
        let symbols = self.symbols(query)?;
        let symbols = self.one_or_all(symbols, current, query, true)?;
        Ok(symbols.iter().flat_map(|s| definitions(root, s)).collect())
    }

    /// The uses of `query`, certain and possible.
    pub fn find_references(
        &self,
        root: &Path,
        query: &str,
        current: Option<&str>,
    ) -> Result<References, IndexError> {
        let symbol = self.one(query, current)?;
        let uses = self.uses(root, &symbol);
        let (certain, possible): (Vec<&Use>, Vec<&Use>) = uses.iter().partition(|u| u.certain);
        let location = |u: &Use| Location {
            path: u.path.clone(),
            position: u.start,
            end: u.end,
        };
        Ok(References {
            definitions: definitions(root, &symbol),
            certain: certain.into_iter().map(location).collect(),
            possible: possible.into_iter().map(location).collect(),
            aliased: uses.iter().filter(|u| u.aliased).map(location).collect(),
        })
    }

    /// Where a module that exports `query`'s module-level symbol under its
    /// name is read whole as a value ([`Query::namespace_escapes`]): code
    /// there may read the export by its name, which no use spells. For a
    /// rename, which alone asks it (so a warm `Find References` stays its
    /// memo's answer).
    pub fn modules_read_whole(&self, root: &Path, query: &str) -> Vec<Location> {
        match self.one(query, None) {
            Ok(symbol) => Query::new(self, root, &symbol).namespace_escapes(&symbol),
            Err(_) => Vec::new(),
        }
    }

    /// The calls (and constructions) of `query`, each with the function
    /// or class it is in.
    pub fn find_callers(
        &self,
        root: &Path,
        query: &str,
        current: Option<&str>,
    ) -> Result<Callers, IndexError> {
        let symbol = self.one(query, current)?;
        let calls = self.calls_of(root, &symbol, query);
        let (certain, possible): (Vec<&Use>, Vec<&Use>) = calls.iter().partition(|u| u.certain);
        let call = |u: &Use| Call {
            location: Location {
                path: u.path.clone(),
                position: u.start,
                end: u.end,
            },
            caller: u.caller.clone(),
        };
        Ok(Callers {
            definitions: definitions(root, &symbol),
            certain: certain.into_iter().map(call).collect(),
            possible: possible.into_iter().map(call).collect(),
        })
    }

    /// The uses of a symbol, resolved once per state of the index.
    /// The uses of a symbol, resolved once per state of the index; after
    /// files' new texts, those files alone where the answer keeps each
    /// file's verdicts.
    fn uses(&self, root: &Path, symbol: &Symbol<'_>) -> Arc<[Use]> {
        self.memo()
            .uses(&symbol.entry.path, symbol.defs[0], |before| {
                let query = Query::new(self, root, symbol);
                let before = before.filter(|b| !b.reexported(self));
                if let Some((before, kept)) = before.and_then(|b| Some((b, b.kept.as_ref()?))) {
                    let (uses, kept) = query.refreshed(symbol, kept, &before.uses, &before.stale);
                    return Answer {
                        uses: uses.into(),
                        kept: Some(Arc::new(kept)),
                        stale: Vec::new(),
                        reexports_before: Vec::new(),
                        ..before.clone()
                    };
                }
                let (uses, kept) = query.uses(symbol);
                let read = query.read.into_inner();
                Answer {
                    uses: uses.into(),
                    family: query.family_id,
                    words: read.words.into(),
                    reexports: read.reexports,
                    // (a family that reads other files' texts to resolve a
                    // file's imports starts again after any new text)
                    kept: kept
                        .filter(|_| query.family.resolves_by_paths())
                        .map(Arc::new),
                    stale: Vec::new(),
                    reexports_before: Vec::new(),
                }
            })
    }

    /// The module label of a file and the files whose imports resolve to
    /// its module, each with its own label; `None` when the index does
    /// not hold it.
    pub fn dependents(&self, root: &Path, path: &str) -> Option<(String, Vec<(String, String)>)> {
        let entry = self.entry(path)?;
        let family = family_of(entry.language)?;
        let family_id = entry.family_id()?;
        let paths = self.family_paths(family_id);
        let files = Files {
            root,
            paths: &paths,
            index: self,
        };
        let target = family.module_of(&files, path, entry.file());
        // an import spells the file's stem or its directory's name
        let stem = path.rsplit('/').next().unwrap_or(path);
        let stem = stem.split('.').next().unwrap_or(stem);
        let dir = path.rsplit('/').nth(1).unwrap_or(stem);
        let mut found = Vec::new();
        for other in self.files_with(Some(family_id), &[stem, dir, "index"], false) {
            if other.path == path {
                continue;
            }
            let file = other.file();
            if family.module_of(&files, &other.path, file) == target {
                continue; // the same package
            }
            let imports = file.imports.iter().any(|i| {
                matches!(
                    family.bound(&files, &other.path, file, i),
                    Bound::Module(m) | Bound::Item(m, _) if m == target
                )
            });
            if imports {
                found.push((
                    family.label(&other.path, file.package.as_deref()),
                    other.path.clone(),
                ));
            }
        }
        Some((family.label(path, entry.file().package.as_deref()), found))
    }

    /// Every symbol `query` names, by file (found once per state of the
    /// index; after files' new texts, found again in those files alone).
    fn symbols(&self, query: &str) -> Result<Vec<Symbol<'_>>, IndexError> {
        let query = clean(query);
        let named = self.memo().named(query, |before| {
            let again = match before.map(|b| (&b.found, &b.stale)) {
                Some((Ok(found), stale)) => self.symbols_again(query, found, stale),
                _ => Vec::new(),
            };
            // (none left: found in every file, for the closest names)
            let found = match again.is_empty() {
                true => self.find_symbols(query)?,
                false => again,
            };
            Ok(found
                .into_iter()
                .map(|s| Named {
                    path: s.entry.path.as_str().into(),
                    defs: s.defs,
                })
                .collect())
        })?;
        Ok(named
            .iter()
            .filter_map(|n| {
                Some(Symbol {
                    entry: self.entry(&n.path)?,
                    defs: n.defs.clone(),
                })
            })
            .collect())
    }

    /// The symbols `query` names after new texts of the files at `stale`:
    /// the others' as `found` before, those files' found again.
    fn symbols_again(&self, query: &str, found: &[Named], stale: &[Box<str>]) -> Vec<Symbol<'_>> {
        let is_stale = |path: &str| stale.iter().any(|s| **s == *path);
        let last = query.rsplit('.').next().unwrap_or(query);
        let word = Word::new(last);
        let kept = found.iter().filter(|n| !is_stale(&n.path)).filter_map(|n| {
            Some(Symbol {
                entry: self.entry(&n.path)?,
                defs: n.defs.clone(),
            })
        });
        let changed = stale
            .iter()
            .filter_map(|path| self.entry(path))
            .filter(|e| e.may_mention(&word));
        let mut close = Vec::new();
        let mut symbols: Vec<Symbol<'_>> = kept
            .chain(changed.flat_map(|e| symbols_in(e, query, &mut close)))
            .collect();
        // (by file, as found: each file's in order)
        symbols.sort_by(|a, b| a.entry.path.cmp(&b.entry.path));
        symbols
    }

    /// Every symbol `query` (cleaned) names, by file, found in the files
    /// that spell its last name.
    fn find_symbols(&self, query: &str) -> Result<Vec<Symbol<'_>>, IndexError> {
        let last = query.rsplit('.').next().unwrap_or(query);
        let mut found: Vec<Symbol<'_>> = Vec::new();
        let mut close: Vec<String> = Vec::new();
        for entry in self.files_with(None, &[last], false) {
            found.extend(symbols_in(entry, query, &mut close));
        }
        if found.is_empty() {
            close.sort();
            close.dedup();
            let offered = if !close.is_empty() {
                format!("Did you mean: {}?", close.join(", "))
            } else {
                // no name like it: the members of the type it names
                close = self.members_named_by(query);
                match close.is_empty() {
                    true => {
                        "No JavaScript, TypeScript, Go, Rust or Java file of the project defines it"
                            .to_string()
                    }
                    false => format!("Available: {}", listed(&close)),
                }
            };
            return Err(IndexError::NotFound {
                kind: "symbol",
                name: query.to_string(),
                offered,
                choices: close,
            });
        }
        Ok(found)
    }

    /// The members of the type `query` names before its last name
    /// (`Cart` of `Cart.nothing`), as `Cart.add`, wherever it is declared.
    fn members_named_by(&self, query: &str) -> Vec<String> {
        let Some((owner, _)) = query.rsplit_once('.') else {
            return Vec::new();
        };
        let class = owner.rsplit('.').next().unwrap_or(owner);
        let mut members: Vec<String> = (self.files_with(None, &[class], false).into_iter())
            .flat_map(|entry| entry.file().defs.iter())
            .filter(|d| d.container.as_deref() == Some(class) && d.kind != SymbolKind::Local)
            .map(|d| format!("{class}.{}", d.name))
            .collect();
        members.sort();
        members.dedup();
        members
    }

    /// The one symbol a query names: the current file's among several,
    /// else an error listing them.
    fn one(&self, query: &str, current: Option<&str>) -> Result<Symbol<'_>, IndexError> {
        let symbols = self.symbols(query)?;
        let mut one = self.one_or_all(symbols, current, query, false)?;
        Ok(one.remove(0))
    }

    fn one_or_all<'a>(
        &self,
        mut symbols: Vec<Symbol<'a>>,
        current: Option<&str>,
        query: &str,
        all: bool,
    ) -> Result<Vec<Symbol<'a>>, IndexError> {
        if symbols.len() == 1 || all {
            return Ok(symbols);
        }
        // the current file's symbol of the name, then an exact full name
        // (`helper` from `a.rs` is its own, not the crate root's), then
        // the current file's, a module-level symbol of the name before a
        // member (`Vars` the function, not `Match.Vars` the field)
        let query = clean(query);
        let named = |s: &Symbol<'_>| s.def().qualified == query;
        let here = |s: &Symbol<'_>| Some(s.entry.path.as_str()) == current;
        if let Some(i) = symbols.iter().position(|s| here(s) && named(s)) {
            return Ok(vec![symbols.swap_remove(i)]);
        }
        let exact: Vec<usize> = (0..symbols.len())
            .filter(|&i| {
                let s = &symbols[i];
                let family = family_of(s.entry.language);
                family.is_some_and(|f| {
                    full_name(
                        &f.label(&s.entry.path, s.entry.file().package.as_deref()),
                        &s.def().qualified,
                    ) == query
                })
            })
            .collect();
        if let [i] = exact.as_slice() {
            return Ok(vec![symbols.swap_remove(*i)]);
        }
        if let Some(i) = symbols.iter().position(here) {
            return Ok(vec![symbols.swap_remove(i)]);
        }
        // Go: one name defined once per build constraint in its package's
        // files (`platform` in `os_linux.go` and `os_other.go`) is one
        // symbol to its uses, and its renames take each
        let full = |s: &Symbol<'_>| {
            let label = family_of(s.entry.language)
                .map(|f| f.label(&s.entry.path, s.entry.file().package.as_deref()))
                .unwrap_or_default();
            full_name(&label, &s.def().qualified)
        };
        let dir = |s: &Symbol<'_>| {
            s.entry
                .path
                .rsplit_once('/')
                .map_or("", |(d, _)| d)
                .to_string()
        };
        let variants = symbols.iter().all(|s| {
            s.entry.family_id() == Some("go")
                && full(s) == full(&symbols[0])
                && dir(s) == dir(&symbols[0])
        });
        if variants {
            symbols.sort_by(|a, b| a.entry.path.cmp(&b.entry.path));
            return Ok(vec![symbols.swap_remove(0)]);
        }
        Err(IndexError::Ambiguous {
            name: query.to_string(),
            candidates: symbols
                .iter()
                .map(|s| {
                    let label = family_of(s.entry.language)
                        .map(|f| f.label(&s.entry.path, s.entry.file().package.as_deref()))
                        .unwrap_or_default();
                    let full = full_name(&label, &s.def().qualified);
                    SymbolCandidate {
                        qualified_name: full.clone(),
                        full_name: full,
                        path: s.entry.path.clone(),
                        project: String::new(),
                        position: s.def().position,
                    }
                })
                .collect(),
        })
    }
}

/// The symbols `query` (cleaned) names in one file, each with its
/// definitions there; the full names of its other definitions of the
/// last name go to `close`.
/// Names as a reply lists them: the first ten, then how many more.
fn listed(names: &[String]) -> String {
    const SHOWN: usize = 10;
    let shown = names[..names.len().min(SHOWN)].join(", ");
    match names.len().checked_sub(SHOWN).filter(|&more| more > 0) {
        Some(more) => format!("{shown}, … ({more} more)"),
        None => shown,
    }
}

fn symbols_in<'a>(entry: &'a TagsEntry, query: &str, close: &mut Vec<String>) -> Vec<Symbol<'a>> {
    let Some(family) = family_of(entry.language) else {
        return Vec::new();
    };
    let last = query.rsplit('.').next().unwrap_or(query);
    let file = entry.file();
    let label = std::cell::OnceCell::new();
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, def) in file.defs.iter().enumerate() {
        if def.name != last || def.kind == SymbolKind::Local {
            continue;
        }
        let label = label.get_or_init(|| family.label(&entry.path, file.package.as_deref()));
        let full = full_name(label, &def.qualified);
        let by_type = def.container.as_ref().map(|c| format!("{c}.{}", def.name));
        let names_it = def.qualified == query
            || full == query
            || full.strip_suffix(query).is_some_and(|l| l.ends_with('.'))
            || by_type.as_deref() == Some(query);
        if !names_it {
            close.push(full);
            continue;
        }
        match groups.iter_mut().find(|(q, _)| *q == def.qualified) {
            Some((_, defs)) => defs.push(i),
            None => groups.push((&def.qualified, vec![i])),
        }
    }
    groups
        .into_iter()
        .map(|(_, defs)| Symbol { entry, defs })
        .collect()
}

/// The uses of a module-level name `local` that read its value whole:
/// each use but those that are the object of a member read (`ns.f`, whose
/// member's use is qualified by it and follows it: each member read is
/// paired with the nearest use of the name before it).
fn read_whole<'f>(file: &'f TagsFile, local: &str) -> impl Iterator<Item = &'f TagRef> {
    let uses: Vec<&TagRef> = file
        .refs_named(local)
        .iter()
        .filter(|r| !r.shadowed && r.import.is_none() && r.qualifier == Qualifier::None)
        .collect();
    let mut read_through: Vec<usize> = file
        .refs
        .iter()
        .filter(|r| !r.local_qualifier && matches!(&r.qualifier, Qualifier::Name(q) if q == local))
        .map(|r| r.offset)
        .collect();
    read_through.sort_unstable();
    // (uses are in offset order, one run of the file's refs)
    let mut paired = vec![false; uses.len()];
    for member in read_through {
        let before = uses.partition_point(|u| u.offset < member);
        if let Some(j) = (0..before).rev().find(|&j| !paired[j]) {
            paired[j] = true;
        }
    }
    uses.into_iter()
        .zip(paired)
        .filter(|(_, paired)| !paired)
        .map(|(u, _)| u)
}

/// `label.qualified`, or `qualified` alone when the label is empty.
pub(super) fn full_name(label: &str, qualified: &str) -> String {
    match label {
        "" => qualified.to_string(),
        l => format!("{l}.{qualified}"),
    }
}

/// Strips `(…)` and an ordinal (`f#2`).
fn clean(query: &str) -> &str {
    let q = query.trim();
    let q = match q.find('(') {
        Some(i) if q.ends_with(')') => q[..i].trim_end(),
        _ => q,
    };
    crate::analysis::outline::split_ordinal(q).0
}

fn definitions(_root: &Path, symbol: &Symbol<'_>) -> Vec<Definition> {
    let file = symbol.entry.file();
    let label = family_of(symbol.entry.language)
        .map(|f| f.label(&symbol.entry.path, file.package.as_deref()))
        .unwrap_or_default();
    symbol
        .defs
        .iter()
        .map(|&i| {
            let def = &file.defs[i];
            Definition {
                qualified_name: full_name(&label, &def.qualified),
                kind: def.kind,
                location: Location::point(symbol.entry.path.clone(), def.position),
                name_position: def.name_position,
            }
        })
        .collect()
}

/// One query's resolution: the family's files and what is known of them.
struct Query<'a> {
    index: &'a TagsIndex,
    family: &'static dyn Family,
    family_id: &'static str,
    root: &'a Path,
    paths: std::sync::Arc<[Box<str>]>,
    /// The files it read, as the words they spell (see [`Answer`]).
    read: RefCell<Read>,
    /// Go: the declarations it looked up to infer the types of values.
    declared_in: RefCell<infer::DeclaredIn<'a>>,
    /// Java: the classes it looked up, by package and name.
    java_classes: RefCell<java_types::Classes<'a>>,
    /// Rust: the types it looked up, by name.
    rust_types: RefCell<rust_types::RustTypes<'a>>,
    /// Whether the verdicts of the file being resolved read declarations
    /// of other files (the types of values): see [`KeptFile::inferred`].
    read_declarations: Cell<bool>,
    /// Rust: the symbol is a trait's method (declared in a trait, or
    /// implemented in an `impl Trait for T`), which a value of a type the
    /// crate does not declare may call (`s.area()` with `s: &S` and `S:
    /// Shape`, or `String` implementing it).
    trait_member: bool,
}

/// The words whose files a query read, and whether it read every file
/// that may re-export.
#[derive(Default)]
struct Read {
    words: Vec<Box<str>>,
    reexports: bool,
}

impl<'a> Query<'a> {
    fn new(index: &'a TagsIndex, root: &'a Path, symbol: &Symbol<'_>) -> Self {
        let family_id = symbol.entry.family_id().unwrap_or_default();
        Query {
            index,
            family: family_of(symbol.entry.language).expect("a symbol of a family"),
            family_id,
            root,
            paths: index.family_paths(family_id),
            read: RefCell::default(),
            declared_in: RefCell::default(),
            java_classes: RefCell::default(),
            rust_types: RefCell::default(),
            read_declarations: Cell::new(false),
            trait_member: family_id == "rust"
                && symbol.def().trait_member
                && symbol.def().container.is_some(),
        }
    }

    /// The family's files that spell one of `words` (or may re-export),
    /// scanned, sorted by path; the words kept as what the query read.
    fn files_with(&self, words: &[&str], reexports: bool) -> Vec<&'a Arc<TagsEntry>> {
        let mut read = self.read.borrow_mut();
        read.words.extend(words.iter().map(|w| Box::from(*w)));
        read.reexports |= reexports;
        self.index
            .files_with(Some(self.family_id), words, reexports)
    }

    fn files(&self) -> Files<'_> {
        Files {
            root: self.root,
            paths: &self.paths,
            index: self.index,
        }
    }

    /// The module of `entry` (resolved once per state of the index).
    fn module(&self, entry: &TagsEntry) -> ModuleKey {
        let files = self.files();
        self.index.memo().module(&entry.path, || {
            self.family.module_of(&files, &entry.path, entry.file())
        })
    }

    /// What import `i` of `entry` binds (resolved once per state of the
    /// index).
    fn bound(&self, entry: &TagsEntry, i: usize) -> Bound {
        let files = self.files();
        let bounds = self.index.memo().bounds(&entry.path, || {
            let file = entry.file();
            file.imports
                .iter()
                .map(|import| self.family.bound(&files, &entry.path, file, import))
                .collect()
        });
        bounds[i].clone()
    }

    /// What every file's uses of the symbol are resolved against: the
    /// module-level definition it is (or is a member of) and the names
    /// that denote it. `None`: a nested symbol (resolved whole, by
    /// [`Query::nested_uses`]).
    fn context(&self, symbol: &Symbol<'_>) -> Option<Context> {
        let def = symbol.def();
        let file = symbol.entry.file();
        let module = self.module(symbol.entry);
        // the module a definition is a module-level item of: its file's,
        // or (Rust) a `mod m { … }` block's
        let level = |d: &TagDef| -> Option<ModuleKey> {
            match (d.top_level, inline_parent(file, d)) {
                (true, _) => Some(module.clone()),
                (false, Some(inline)) => Some(self.family.inline_key(&module, inline)),
                (false, None) => None,
            }
        };
        // the module-level definition it is (or is a member of)
        let (top, top_module) = match level(def) {
            Some(key) => Some((symbol.defs[0], key)),
            None => {
                let inline = inline_at(file, def.span.start);
                def.container.as_ref().and_then(|c| {
                    file.defs
                        .iter()
                        .enumerate()
                        .filter(|(_, d)| &d.name == c && d.kind == SymbolKind::Class)
                        .filter(|(_, d)| inline_parent(file, d) == inline)
                        .find_map(|(i, d)| Some((i, level(d)?)))
                })
            }
        }
        .map(|(i, key)| (file.defs[i].name.clone(), key))
        .or_else(|| {
            // a Go method in another file than its type's: the type is
            // its package's all the same; a JavaScript method written on
            // its owner (a function, an object, a name the file does not
            // declare) is a member of that name of the module
            let apart = self.family_id == "go" || def.written_on_owner();
            let owner = def.container.as_ref().filter(|_| apart)?;
            Some((owner.clone(), module.clone()))
        })
        .or_else(|| {
            // a Rust `impl` of a type another module declares (`use
            // kinds::Kind; impl Kind { … }`): a member of that type
            let owner = def
                .container
                .as_ref()
                .filter(|_| self.family_id == "rust")?;
            let path = from_scope(file, def.span.start, std::slice::from_ref(owner));
            let files = self.files();
            match self
                .family
                .resolve_path(&files, &symbol.entry.path, file, &path)?
            {
                (m, Some(item)) => Some((item, m)),
                (_, None) => None,
            }
        })?;
        let is_top = level(def).is_some();
        let Names {
            all: aliases,
            own: own_names,
        } = self.aliases(symbol.entry, top_module, &top);
        let mut words: Vec<String> = aliases.iter().map(|(_, n)| n.clone()).collect();
        words.sort_unstable();
        words.dedup();
        // every use spells one of its names but a default import's
        // (`import tw from './util'`), which spells its source: the
        // defining (or re-exporting) file's stem, or its directory
        if words.iter().any(|w| w == "default") {
            words.extend(aliases.iter().flat_map(|(module, _)| source_words(module)));
        }
        words.push(def.name.clone());
        Some(Context {
            top,
            is_top,
            module,
            aliases,
            own_names,
            words,
        })
    }

    /// Every use of the symbol in the family's files, with each file's
    /// verdicts (`None`: a nested symbol's, resolved whole).
    fn uses(&self, symbol: &Symbol<'_>) -> (Vec<Use>, Option<Kept>) {
        let Some(context) = self.context(symbol) else {
            return (self.nested_uses(symbol), None);
        };
        let words: Vec<&str> = context.words.iter().map(String::as_str).collect();
        let files = self.files_with(&words, false);
        let defined = Defined::new(files.iter().map(|e| &***e).collect());
        let mut uses = Vec::new();
        let kept = files
            .into_iter()
            .map(|entry| self.resolve_file(symbol, &context, entry, &defined, &mut uses))
            .collect();
        let kept = Kept {
            context: Arc::new(context),
            files: kept,
        };
        (uses, Some(kept))
    }

    /// The uses again after new texts of the files at `stale` (none of
    /// them the symbol's, none a re-export's: the memo drops the answer
    /// then): those files resolved again where they spell its words, and
    /// each other file's kept verdicts merged with them — but for a file
    /// whose verdicts asked whether a module defines a name that a
    /// changed file defines (before or after) at its level, and get
    /// another answer now (see [`super::verdicts`]).
    fn refreshed(
        &self,
        symbol: &Symbol<'_>,
        kept: &Kept,
        before: &[Use],
        stale: &[Box<str>],
    ) -> (Vec<Use>, Kept) {
        let is_stale = |path: &str| stale.iter().any(|s| **s == *path);
        let words: Vec<Word<'_>> = kept.context.words.iter().map(|w| Word::new(w)).collect();
        // the changed files as they are now, where they spell its words
        let fresh: Vec<&Arc<TagsEntry>> = stale
            .iter()
            .filter_map(|path| self.index.entry(path))
            .filter(|e| e.family_id() == Some(self.family_id))
            .filter(|e| words.iter().any(|w| e.may_mention(w)))
            .collect();
        // the names the changed files define at their level, before and
        // after: what a module-defines answer may change with
        let old = kept.files.iter().map(|k| &k.entry);
        let changed: HashSet<&str> = old
            .filter(|e| is_stale(&e.path))
            .chain(fresh.iter().copied())
            .flat_map(|e| e.file().defs.iter().filter(|d| d.top_level))
            .map(|d| d.name.as_str())
            .collect();
        // every file read now, by path, with its kept verdicts
        let mut files: Vec<(&Arc<TagsEntry>, Option<&KeptFile>)> = kept
            .files
            .iter()
            .filter(|k| !is_stale(&k.entry.path))
            .map(|k| (&k.entry, Some(k)))
            .chain(fresh.iter().map(|e| (*e, None)))
            .collect();
        files.sort_by(|a, b| a.0.path.cmp(&b.0.path));
        let defined = Defined::new(files.iter().map(|(e, _)| &***e).collect());
        let mut uses = Vec::with_capacity(before.len());
        let mut refreshed = Vec::with_capacity(files.len());
        for (entry, kept_file) in files {
            // (a file whose verdicts read declarations of other files —
            // the types of values — is resolved again after any new text)
            let holds = kept_file.filter(|k| {
                !k.inferred
                    && k.asked
                        .iter()
                        .all(|a| !changed.contains(a.0 .2.as_str()) || defined.still(self, a))
            });
            defined.take_asked();
            let Some(k) = holds else {
                refreshed.push(self.resolve_file(
                    symbol,
                    &kept.context,
                    entry,
                    &defined,
                    &mut uses,
                ));
                continue;
            };
            let start = uses.len();
            uses.extend_from_slice(&before[k.uses.clone()]);
            refreshed.push(KeptFile {
                entry: Arc::clone(entry),
                uses: start..uses.len(),
                asked: k.asked.clone(),
                inferred: false,
            });
        }
        let context = Arc::clone(&kept.context);
        (
            uses,
            Kept {
                context,
                files: refreshed,
            },
        )
    }

    /// Resolves one file's uses of the symbol into `uses`: its verdicts,
    /// kept.
    fn resolve_file(
        &self,
        symbol: &Symbol<'_>,
        context: &Context,
        entry: &Arc<TagsEntry>,
        defined: &Defined<'_>,
        uses: &mut Vec<Use>,
    ) -> KeptFile {
        let start = uses.len();
        self.read_declarations.set(false);
        uses.extend(self.file_uses(symbol, context, entry, defined));
        KeptFile {
            entry: Arc::clone(entry),
            uses: start..uses.len(),
            asked: defined.take_asked().into(),
            inferred: self.read_declarations.take(),
        }
    }

    /// One file's uses of the symbol, by position.
    fn file_uses(
        &self,
        symbol: &Symbol<'_>,
        context: &Context,
        entry: &TagsEntry,
        defined: &Defined<'_>,
    ) -> Vec<Use> {
        let file = symbol.entry.file();
        let def = symbol.def();
        let aliases = &context.aliases;
        let g = entry.file();
        let label = std::cell::OnceCell::new();
        // the names its uses may have: the symbol's, or (module-level)
        // its names' and those this file binds to one of them
        // (`import { f as g }`)
        let mut wanted: Vec<&str> = Vec::new();
        match context.is_top {
            true => {
                let names = || aliases.iter().map(|(_, n)| n.as_str());
                wanted.extend(names());
                wanted.extend(
                    g.imports
                        .iter()
                        .filter(|i| match &i.imported {
                            Imported::Name(n) => names().any(|a| a == n),
                            Imported::Default => names().any(|a| a == "default"),
                            Imported::Module | Imported::All => false,
                        })
                        .map(|i| i.local.as_str()),
                );
                wanted.sort_unstable();
                wanted.dedup();
            }
            false => wanted.push(&def.name),
        }
        // (a member's uses ask it: once per file)
        let same_module = std::cell::OnceCell::new();
        let same_module = || *same_module.get_or_init(|| self.module(entry) == context.module);
        // (Rust: a function or a value heads no path)
        let values = (symbol.defs.iter()).all(|&i| {
            matches!(
                file.defs[i].kind,
                SymbolKind::Function | SymbolKind::Variable
            )
        });
        let mut uses = Vec::new();
        for r in wanted.iter().flat_map(|name| g.refs_named(name)) {
            if r.path_head && values {
                continue;
            }
            let verdict = match context.is_top {
                true => self.top_level_use(entry, r, aliases, defined),
                false => {
                    let class = Class {
                        name: &context.top,
                        aliases,
                        same_module: same_module(),
                    };
                    self.member_use(entry, r, symbol, &class, defined)
                }
            };
            if verdict == Verdict::Other {
                continue;
            }
            // a definition is not its own use
            if entry.path == symbol.entry.path
                && symbol
                    .defs
                    .iter()
                    .any(|&i| file.defs[i].name_position == r.start)
            {
                continue;
            }
            // (only a symbol with names not its own has uses through them)
            let aliased = context.is_top
                && context.own_names.len() < aliases.len()
                && self.through_alias(entry, r, context, defined);
            uses.push(Use {
                path: entry.path.clone(),
                start: r.start,
                end: r.end,
                certain: verdict == Verdict::Certain,
                aliased,
                call: r.call,
                arity: r.arity,
                caller: r.in_def.map(|i| {
                    let label =
                        label.get_or_init(|| self.family.label(&entry.path, g.package.as_deref()));
                    full_name(label, &g.defs[i].qualified)
                }),
            });
        }
        uses.sort_by_key(|u| u.start);
        uses
    }

    /// Whether a use of a module-level symbol reaches it through a name
    /// it has under an import or a re-export rather than its own
    /// (`import f from './a'`, `export { default as f }`): that name is
    /// the importer's, even where it spells the same.
    fn through_alias(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        context: &Context,
        defined: &Defined<'_>,
    ) -> bool {
        let aliases = &context.aliases;
        let binding = match (r.import, &r.qualifier) {
            (Some(i), _) => match self.bound(entry, i) {
                Bound::Item(m, n) => Some((m, n)),
                _ => None,
            },
            (None, Qualifier::Name(q)) => match self.denotes(entry, q, aliases, defined) {
                Denotes::Module(m) => Some((m, r.name.to_string())),
                _ => None,
            },
            (None, Qualifier::None) => match self.denotes(entry, &r.name, aliases, defined) {
                Denotes::Item(m, n) => Some((m, n)),
                _ => None,
            },
            _ => None,
        };
        binding.is_some_and(|b| aliases.contains(&b) && !context.own_names.contains(&b))
    }

    /// A nested function's uses: its file's bare names within the
    /// function around it; a nested class's member's: those within the
    /// class (and through `this`) certain, every other use of its name
    /// possible.
    fn nested_uses(&self, symbol: &Symbol<'_>) -> Vec<Use> {
        let file = symbol.entry.file();
        let def = symbol.def();
        let parent = file
            .defs
            .iter()
            .filter(|d| d.span.start <= def.span.start && def.span.end <= d.span.end)
            .filter(|d| d.span != def.span)
            .min_by_key(|d| d.span.end - d.span.start);
        let Some(parent) = parent else {
            return Vec::new();
        };
        let label = self
            .family
            .label(&symbol.entry.path, file.package.as_deref());
        let mut uses: Vec<Use> = file
            .refs_named(&def.name)
            .iter()
            .filter(|r| matches!(r.qualifier, Qualifier::None | Qualifier::This))
            .filter(|r| parent.span.contains(&r.offset) && r.start != def.name_position)
            .map(|r| Use {
                path: symbol.entry.path.clone(),
                start: r.start,
                end: r.end,
                certain: true,
                aliased: false,
                call: r.call,
                arity: r.arity,
                caller: r.in_def.map(|i| full_name(&label, &file.defs[i].qualified)),
            })
            .collect();
        // a member of a nested class (Java's `Outer.Inner.m`): read through
        // values whose class the index does not follow, anywhere — each
        // other use of its name may be it
        if def.container.is_some() && parent.kind == SymbolKind::Class {
            // (Java: the class by its package and name, as the types of
            // values name it)
            let nested_class: Option<HashSet<(ModuleKey, String)>> = (self.family_id == "java")
                .then(|| HashSet::from([(self.module(symbol.entry), parent.name.clone())]));
            let files = self.files_with(&[def.name.as_str()], false);
            for entry in files {
                let g = entry.file();
                let label = self.family.label(&entry.path, g.package.as_deref());
                let same_file = entry.path == symbol.entry.path;
                for r in g.refs_named(&def.name) {
                    let known = same_file
                        && (r.start == def.name_position
                            || uses.iter().any(|u| u.start == r.start));
                    if known || r.import.is_some() {
                        continue;
                    }
                    let verdict = match &nested_class {
                        Some(class) => self.java_nested_member_use(entry, r, class, def),
                        None => Verdict::Possible,
                    };
                    if verdict == Verdict::Other {
                        continue;
                    }
                    uses.push(Use {
                        path: entry.path.clone(),
                        start: r.start,
                        end: r.end,
                        certain: verdict == Verdict::Certain,
                        aliased: false,
                        call: r.call,
                        arity: r.arity,
                        caller: r.in_def.map(|i| full_name(&label, &g.defs[i].qualified)),
                    });
                }
            }
        }
        uses
    }

    /// Java: the verdict of `r`, a use of the name of a nested class's
    /// member `def` outside its class (`class`: the nested class's
    /// package and name). Through a value whose class the project states
    /// (`x.size()` of `Inner x`; classes are looked up by package and
    /// name, which a nested class's is when no other class of the package
    /// has it): the nested class's member when that class reaches it,
    /// another's when another class does (`list.size()`); a bare name
    /// that a class around it other than the nested one declares is that
    /// class's. The rest may be it.
    fn java_nested_member_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        class: &HashSet<(ModuleKey, String)>,
        def: &TagDef,
    ) -> Verdict {
        match &r.qualifier {
            Qualifier::Name(q) => self
                .java_named_use(entry, r, q, class)
                .unwrap_or(Verdict::Possible),
            Qualifier::Expression(e) => self.java_expression_use(entry, r, e, class),
            Qualifier::None if !r.shadowed => {
                match implicit_member(entry.file(), r.offset, &def.name) {
                    Implicit::DeclaredBy(owner) if Some(owner) != def.container.as_deref() => {
                        Verdict::Other
                    }
                    _ => Verdict::Possible,
                }
            }
            _ => Verdict::Possible,
        }
    }

    /// The names that denote a module-level definition `name` of
    /// `entry`'s module: its own, its exports', and (ES modules) those of
    /// the modules that re-export it, followed until none is new. With
    /// them, the ones written as its own name all the way (`export {
    /// f }`, `export { f } from`, `export *`): a use through another
    /// (`export { default as f }`, `import f from`) spells a name of the
    /// importer's choosing, which a rename keeps.
    fn aliases(&self, entry: &TagsEntry, module: ModuleKey, name: &str) -> Names {
        let file = entry.file();
        let mut names = Names::default();
        names.all.insert((module.clone(), name.to_string()));
        names.own.insert((module.clone(), name.to_string()));
        for (exported, local) in &file.exports {
            if local == name {
                names.all.insert((module.clone(), exported.clone()));
                if exported == name {
                    names.own.insert((module.clone(), exported.clone()));
                }
            }
        }
        loop {
            let words: Vec<&str> = names.all.iter().map(|(_, n)| n.as_str()).collect();
            // (a re-export of a whole module spells none of its names)
            let globs = matches!(self.family_id, "es" | "rust");
            let candidates = self.files_with(&words, globs);
            let mut new = Vec::new();
            for r in candidates {
                let rf = r.file();
                // a Rust `use` at module level is an item of its module
                // too (`pub use crate::rope::Rope;` in `lib.rs` makes
                // `ropey::Rope`; a child module reaches a private one)
                let reexports = rf.imports.iter().enumerate().filter(|(i, import)| {
                    import.kind == ImportKind::ReExport
                        || (self.family_id == "rust"
                            && import.kind == ImportKind::Static
                            && !binds_in_part(rf, *i))
                });
                for (i, import) in reexports {
                    let key = self.module(r);
                    match (self.bound(r, i), &import.imported) {
                        (Bound::Item(m, n), _) if names.all.contains(&(m.clone(), n.clone())) => {
                            let own = import.local == n && names.own.contains(&(m, n));
                            new.push((key, import.local.clone(), own));
                        }
                        (Bound::Module(m), Imported::All) => {
                            // (a name the module exports or declares itself
                            // is its own, not the glob's)
                            for (am, an) in &names.all {
                                if *am == m
                                    && an != "default"
                                    && !declares_itself(rf, an, self.family_id)
                                {
                                    let own = names.own.contains(&(m.clone(), an.clone()));
                                    new.push((key.clone(), an.clone(), own));
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            let before = (names.all.len(), names.own.len());
            for (key, name, own) in new {
                if own {
                    names.own.insert((key.clone(), name.clone()));
                }
                names.all.insert((key, name));
            }
            if (names.all.len(), names.own.len()) == before {
                return names;
            }
        }
    }

    /// Whether `name`, unqualified at module level in `entry`, denotes
    /// one of `aliases`.
    fn denotes_one_of(
        &self,
        entry: &TagsEntry,
        name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> bool {
        match self.denotes(entry, name, aliases, defined) {
            Denotes::Item(m, n) => aliases.contains(&(m, n)),
            _ => false,
        }
    }

    /// What `name` denotes, unqualified, at module level in `entry`.
    fn denotes(
        &self,
        entry: &TagsEntry,
        name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Denotes {
        let file = entry.file();
        for (i, import) in file.imports.iter().enumerate() {
            if import.local != name || binds_in_part(file, i) {
                continue;
            }
            let bound = self.bound(entry, i);
            match (import.kind, bound) {
                // a re-export binds nothing, nor does a dynamic import the
                // index follows; a static import a member
                (ImportKind::ReExport | ImportKind::Member | ImportKind::Dynamic, _) => {}
                (ImportKind::Static, Bound::Item(m, n)) => return self.item_or_namespace(m, n),
                (ImportKind::Static, Bound::Module(m)) => return Denotes::Module(m),
                (ImportKind::Static, Bound::Unknown) => return Denotes::Unknown,
                (ImportKind::Require | ImportKind::RequireReassigned, bound) => {
                    return self.required(import.kind, bound)
                }
            }
        }
        let module = self.module(entry);
        // a module-level definition (after the imports: `const m =
        // require(…)` is both)
        let own = (file.defs.iter()).any(|d| d.top_level && d.binds_name && d.name == name);
        let package = file.package.as_deref().unwrap_or_default();
        let shared =
            self.family.shares_module() && defined.defines(self, &module, Some(package), name);
        if own || shared {
            return Denotes::Item(module, name.to_string());
        }
        let mut unknown = false;
        for (i, import) in file.imports.iter().enumerate() {
            if import.imported != Imported::All
                || import.kind != ImportKind::Static
                || binds_in_part(file, i)
            {
                continue;
            }
            match self.bound(entry, i) {
                Bound::Module(m) if aliases.contains(&(m.clone(), name.to_string())) => {
                    return Denotes::Item(m, name.to_string())
                }
                Bound::Module(m)
                    if self.family.shares_module() && defined.defines(self, &m, None, name) =>
                {
                    return Denotes::Item(m, name.to_string())
                }
                Bound::Unknown => unknown = true,
                _ => {}
            }
        }
        if let Some(m) = self.go_package_named(entry, name, defined) {
            return Denotes::Module(m);
        }
        match unknown {
            true => Denotes::Unknown,
            false => Denotes::Unbound,
        }
    }

    /// Rust: whether `item` of `module` is a type alias (`type K = …;`),
    /// among the files the query reads (those spelling the class's
    /// names: an alias of it spells one).
    fn type_alias(&self, module: &ModuleKey, item: &str, defined: &Defined<'_>) -> bool {
        self.family_id == "rust"
            && defined.files.iter().any(|e| {
                e.file().declared.iter().any(|d| {
                    d.kind == super::scan::DeclaredKind::Embedded
                        && d.name.is_empty()
                        && d.owner.as_deref() == Some(item)
                }) && self.module(e) == *module
            })
    }

    /// Go: the package an import without a name binds by its package
    /// clause where that is not its path's last element (`import
    /// "example.com/m/bar"` of `package baz` binds `baz`), among the files
    /// the query reads.
    fn go_package_named(
        &self,
        entry: &TagsEntry,
        name: &str,
        defined: &Defined<'_>,
    ) -> Option<ModuleKey> {
        if self.family_id != "go" {
            return None;
        }
        let file = entry.file();
        (0..file.imports.len())
            .filter(|&i| {
                let import = &file.imports[i];
                import.kind == ImportKind::Static
                    && import.imported == Imported::Module
                    && import.local != name
                    && !binds_in_part(file, i)
            })
            .find_map(|i| match self.bound(entry, i) {
                Bound::Module(m)
                    if defined.files.iter().any(|e| {
                        e.file().package.as_deref() == Some(name) && self.module(e) == m
                    }) =>
                {
                    Some(m)
                }
                _ => None,
            })
    }

    /// Rust: whether a bare `name` at `offset` names the symbol whose
    /// names are `aliases`, when a part of the file decides it — a `use`
    /// in a block around it, else the `mod m { … }` block it is in (its
    /// own item, or what its own `use` declarations bring). `None`: the
    /// file's module-level names decide.
    fn in_part(
        &self,
        entry: &TagsEntry,
        offset: usize,
        (name, called): (&str, bool),
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Option<Verdict> {
        if let Some(verdict) = self.scoped_use(entry, offset, name, aliases) {
            return Some(verdict);
        }
        let file = entry.file();
        let block = inline_at(file, offset)?;
        // (a call reads a value: a `mod` of the name is no value, and
        // hides no function a glob import brings)
        let declared = match called {
            true => declares_item(file, block, name),
            false => declares(file, block, name),
        };
        Some(match declared {
            true => {
                let key = self.family.inline_key(&self.module(entry), block);
                certain_if(aliases.contains(&(key, name.to_string())))
            }
            false => self.block_use(entry, block, name, aliases, defined),
        })
    }

    /// Whether a bare `name` at `offset` names the symbol whose names are
    /// `aliases` through a `use` in a function's block around it (Rust),
    /// if one binds its name: the innermost block's explicit import, then
    /// its glob imports (an enum's variants, or a module's items). `None`:
    /// no such `use` decides it.
    fn scoped_use(
        &self,
        entry: &TagsEntry,
        offset: usize,
        name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> Option<Verdict> {
        let file = entry.file();
        let mut around: Vec<(usize, &std::ops::Range<usize>)> = file
            .scoped_imports
            .iter()
            .filter(|(_, scope)| scope.contains(&offset))
            .map(|(i, scope)| (*i, scope))
            .collect();
        // the innermost block first
        around.sort_by_key(|(_, scope)| std::cmp::Reverse(scope.start));
        for (i, _) in &around {
            let import = &file.imports[*i];
            if import.local == name && import.imported != Imported::All {
                return Some(match self.bound(entry, *i) {
                    Bound::Item(m, n) => certain_if(aliases.contains(&(m, n))),
                    Bound::Module(_) => Verdict::Other,
                    Bound::Unknown => Verdict::Possible,
                });
            }
        }
        let globs = around
            .iter()
            .filter(|(i, _)| file.imports[*i].imported == Imported::All);
        let mut verdict = None;
        for (i, _) in globs {
            match self.bound(entry, *i) {
                Bound::Module(m) if aliases.contains(&(m.clone(), name.to_string())) => {
                    return Some(Verdict::Certain)
                }
                // the file's own module: its names, as at its level
                Bound::Module(m) if m == self.module(entry) => {}
                // another module's items, or a path the index cannot follow
                Bound::Module(_) | Bound::Unknown => verdict = Some(Verdict::Possible),
                // an enum's variants
                Bound::Item(..) => {}
            }
        }
        verdict
    }

    /// Whether a bare `name` in the `mod m { … }` block `block` that the
    /// block does not declare names the symbol whose names are `aliases`:
    /// what one of the block's own `use` declarations binds — a name, or
    /// every item of a module (`use super::*` brings the file's module:
    /// its items and what its own imports bind). Nothing else reaches
    /// into a block.
    fn block_use(
        &self,
        entry: &TagsEntry,
        block: &str,
        name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        let file = entry.file();
        let imports: Vec<usize> = file
            .block_imports
            .iter()
            .filter(|(_, b)| b == block)
            .map(|(i, _)| *i)
            .collect();
        let named = imports.iter().find(|i| {
            let import = &file.imports[**i];
            import.local == name && import.imported != Imported::All
        });
        if let Some(&i) = named {
            return match self.bound(entry, i) {
                Bound::Item(m, n) => certain_if(aliases.contains(&(m, n))),
                Bound::Module(_) => Verdict::Other,
                Bound::Unknown => Verdict::Possible,
            };
        }
        let mut unknown = false;
        let globs = imports
            .iter()
            .filter(|i| file.imports[**i].imported == Imported::All);
        for &i in globs {
            match self.bound(entry, i) {
                Bound::Module(m) if aliases.contains(&(m.clone(), name.to_string())) => {
                    return Verdict::Certain
                }
                Bound::Module(m) if m == self.module(entry) => {
                    match self.denotes(entry, name, aliases, defined) {
                        Denotes::Item(m, n) => return certain_if(aliases.contains(&(m, n))),
                        Denotes::Module(_) | Denotes::CommonJs(_) => return Verdict::Other,
                        Denotes::Unbound => {}
                        Denotes::Unknown | Denotes::Required(..) => unknown = true,
                    }
                }
                // another module's items and imports: not read here
                Bound::Module(_) | Bound::Unknown => unknown = true,
                Bound::Item(..) => {}
            }
        }
        match unknown {
            true => Verdict::Possible,
            false => Verdict::Other,
        }
    }

    /// What a CommonJS `require` of kind `kind` binds: a module's item
    /// when the module's keys say which, the module when its keys are
    /// known, else what only a run knows.
    fn required(&self, kind: ImportKind, bound: Bound) -> Denotes {
        let once = kind == ImportKind::Require;
        match bound {
            Bound::Item(m, key) => match self.commonjs(&m).filter(|_| once) {
                Some((m, module)) => match module.value(&key) {
                    Some(KeyValue::Name(local)) => Denotes::Item(m, local),
                    _ => Denotes::Required(Some(m), Some(key)),
                },
                None => Denotes::Required(Some(m), Some(key)),
            },
            Bound::Module(m) => match self.commonjs(&m).filter(|_| once) {
                // `module.exports = X`: the importer's name for `X`, as a
                // default import is
                Some((m, module)) if module.is_one_value() => match module.value("default") {
                    Some(KeyValue::Name(_)) => Denotes::Item(m, "default".to_string()),
                    _ => Denotes::Required(Some(m), None),
                },
                Some((m, _)) => Denotes::CommonJs(m),
                None => Denotes::Required(Some(m), None),
            },
            Bound::Unknown => Denotes::Required(None, None),
        }
    }

    /// Item `n` of module `m`, or — when `m` re-exports a module as `n`
    /// (`export * as util from './util'`) — that module: `util.helper`
    /// through it is the module's `helper`. The verdicts that ask read
    /// another file: they are resolved again after any new text.
    fn item_or_namespace(&self, m: ModuleKey, n: String) -> Denotes {
        if self.family_id != "es" {
            return Denotes::Item(m, n);
        }
        let Some(entry) = self.index.entry(&m) else {
            return Denotes::Item(m, n);
        };
        let file = entry.file();
        let namespace = file.imports.iter().position(|i| {
            i.kind == ImportKind::ReExport && i.local == n && i.imported == Imported::Module
        });
        let Some(i) = namespace else {
            return Denotes::Item(m, n);
        };
        self.read_declarations.set(true);
        match self.bound(entry, i) {
            Bound::Module(module) => Denotes::Module(module),
            _ => Denotes::Unknown,
        }
    }

    /// Whether key `key` of module `m`, whose keys the index does not
    /// know, may be the symbol whose names are `aliases`: the symbol's
    /// own, or — when `m` is a CommonJS module whose keys only a run
    /// knows (`module.exports = require('./a')`, `Object.assign(
    /// module.exports, …)`) — any module's export of that name, which it
    /// may pass on.
    /// ES: whether module `m` declares `name` as a TypeScript type alias
    /// (another file's text: resolved again after any).
    fn es_type_alias(&self, m: &ModuleKey, name: &str) -> bool {
        if self.family_id != "es" {
            return false;
        }
        let Some(entry) = self.index.entry(m) else {
            return false;
        };
        self.read_declarations.set(true);
        (entry.file().declared.iter()).any(|d| {
            d.kind == super::scan::DeclaredKind::Embedded
                && d.name.is_empty()
                && d.owner.as_deref() == Some(name)
        })
    }

    fn may_hold(&self, m: &ModuleKey, key: &str, aliases: &HashSet<(ModuleKey, String)>) -> bool {
        if aliases.contains(&(m.clone(), key.to_string())) {
            return true;
        }
        let Some(entry) = self.index.entry(m) else {
            return false;
        };
        // (what another file's text says: resolved again after any)
        self.read_declarations.set(true);
        let commonjs = entry.file().commonjs.as_deref();
        let passes_on = commonjs.is_some_and(|module| module.dynamic || module.from.is_some());
        passes_on && aliases.iter().any(|(_, name)| name == key)
    }

    /// The CommonJS exports of module `m` (an ES module's key is its
    /// path), when its keys are known, with the module that states them:
    /// `m`, or the module whose exports `m`'s `module.exports =
    /// require('s')` passes on (followed through such modules; one that
    /// also writes keys of its own is left to a run). The verdicts that
    /// ask then read another file: they are resolved again after any new
    /// text.
    fn commonjs(&self, m: &ModuleKey) -> Option<(ModuleKey, &'a CommonJs)> {
        let mut m = m.clone();
        // (a cycle of such modules, or a chain longer than any project's)
        for _ in 0..8 {
            let entry = self.index.entry(&m)?;
            let file = entry.file();
            let module = file.commonjs.as_deref()?;
            self.read_declarations.set(true);
            if module.dynamic {
                return None;
            }
            let Some(source) = &module.from else {
                return Some((m, module));
            };
            if !module.keys.is_empty() {
                return None;
            }
            m = match self
                .family
                .resolve(&self.files(), &entry.path, file, source)
            {
                Source::Module(next) => next,
                Source::Unknown => return None,
            };
        }
        None
    }

    /// Whether the qualifier `written` of the Java use `r` is a package's name
    /// (`com.acme.lib` of `com.acme.lib.Cart`): plain names whose first
    /// the file binds as nothing else (a local, a field, a class, an
    /// import).
    fn is_java_package(&self, entry: &TagsEntry, r: &TagRef, written: &str) -> bool {
        written.contains('.')
            && !r.local_qualifier
            && super::java::dotted(written).is_some_and(|d| d == written)
            && !self.binds_first_name(entry, written)
    }

    /// Whether the file binds the first name of the dotted `written` as a
    /// definition (a field, a class, a method) or an import.
    fn binds_first_name(&self, entry: &TagsEntry, written: &str) -> bool {
        let first = written.split('.').next().unwrap_or(written);
        let file = entry.file();
        file.defs.iter().any(|d| d.name == first)
            || file.imports.iter().any(|i| i.local == first)
            || file.locals.iter().any(|l| l.name == first)
    }

    /// Whether the file imports, in a function or through a promise, a
    /// module whose name `name` is the symbol's.
    fn imported_dynamically(
        &self,
        entry: &TagsEntry,
        name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> bool {
        let file = entry.file();
        (0..file.imports.len())
            .filter(|&i| file.imports[i].kind == ImportKind::Dynamic)
            .any(|i| match self.bound(entry, i) {
                Bound::Module(m) => aliases.contains(&(m, name.to_string())),
                _ => false,
            })
    }

    /// Whether `q` is an ES namespace import of a package of the project
    /// whose entry the index does not read (`import * as lib from
    /// '@acme/lib'` with `"main": "dist/index.js"`): a member read
    /// through it may be the symbol once the package is built.
    fn project_package_namespace(&self, entry: &TagsEntry, q: &str) -> bool {
        if self.family_id != "es" {
            return false;
        }
        let packages = Packages::of(&self.files());
        entry
            .file()
            .imports
            .iter()
            .any(|i| i.local == q && packages.names(&i.source))
    }

    /// Whether key `key` of the CommonJS module `m` (whose keys are
    /// known) is the symbol whose names are `aliases`.
    fn commonjs_key(
        &self,
        m: &ModuleKey,
        module: &CommonJs,
        key: &str,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> Verdict {
        match module.value(key) {
            Some(KeyValue::Name(local)) => certain_if(aliases.contains(&(m.clone(), local))),
            Some(KeyValue::Unnamed) => Verdict::Other,
            // a key its code does not assign, or assigns twice
            None if aliases.contains(&(m.clone(), key.to_string())) => Verdict::Possible,
            None => Verdict::Other,
        }
    }

    /// Whether a use `r` in `entry` names the module-level symbol whose
    /// names are `aliases`.
    fn top_level_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        let file = entry.file();
        let files = self.files();
        if let Some(i) = r.import {
            let kind = file.imports[i].kind;
            // a key a destructuring takes from `import()` or `require()`
            // in a function
            if kind == ImportKind::Dynamic {
                return match self.bound(entry, i) {
                    Bound::Item(m, n) if aliases.contains(&(m.clone(), n.clone())) => {
                        Verdict::Possible
                    }
                    _ => Verdict::Other,
                };
            }
            if matches!(kind, ImportKind::Require | ImportKind::RequireReassigned) {
                // a key a destructuring takes from `require(…)`
                return match self.required(kind, self.bound(entry, i)) {
                    Denotes::Item(m, n) if aliases.contains(&(m.clone(), n.clone())) => {
                        Verdict::Certain
                    }
                    Denotes::Item(m, n) if self.may_hold(&m, &n, aliases) => Verdict::Possible,
                    Denotes::Item(..) => Verdict::Other,
                    Denotes::Required(Some(m), Some(n)) if !self.may_hold(&m, &n, aliases) => {
                        Verdict::Other
                    }
                    _ => Verdict::Possible,
                };
            }
            return match self.bound(entry, i) {
                Bound::Item(m, n) if aliases.contains(&(m.clone(), n.clone())) => Verdict::Certain,
                Bound::Item(m, n) if self.may_hold(&m, &n, aliases) => Verdict::Possible,
                Bound::Unknown => Verdict::Possible,
                _ => Verdict::Other,
            };
        }
        match &r.qualifier {
            Qualifier::None if r.shadowed => Verdict::Other,
            // Rust: a `use` in a block around it, a `mod` block's names
            Qualifier::None
                if self
                    .in_part(entry, r.offset, (&r.name, r.call), aliases, defined)
                    .is_some() =>
            {
                self.in_part(entry, r.offset, (&r.name, r.call), aliases, defined)
                    .unwrap_or(Verdict::Other)
            }
            Qualifier::None => match self.denotes(entry, &r.name, aliases, defined) {
                Denotes::Item(m, n) if aliases.contains(&(m.clone(), n.clone())) => {
                    Verdict::Certain
                }
                Denotes::Item(m, n) if self.may_hold(&m, &n, aliases) => Verdict::Possible,
                Denotes::Item(..) => Verdict::Other,
                Denotes::Module(_) | Denotes::CommonJs(_) => Verdict::Other,
                Denotes::Required(Some(m), Some(n)) if !self.may_hold(&m, &n, aliases) => {
                    Verdict::Other
                }
                Denotes::Required(..) | Denotes::Unknown => Verdict::Possible,
                // a global: ES modules may read one; Go, Java and Rust
                // bind every name they use
                Denotes::Unbound => match self.family_id {
                    "es" => Verdict::Possible,
                    _ => Verdict::Other,
                },
            },
            Qualifier::Name(q) => match self.denotes(entry, q, aliases, defined) {
                Denotes::Module(m) if aliases.contains(&(m.clone(), r.name.to_string())) => {
                    Verdict::Certain
                }
                // (a CommonJS module passing on another's exports, named
                // from an ES import)
                Denotes::Module(m) if self.may_hold(&m, &r.name, aliases) => Verdict::Possible,
                Denotes::Module(_) => Verdict::Other,
                Denotes::CommonJs(m) => match self.commonjs(&m) {
                    Some((m, module)) => self.commonjs_key(&m, module, &r.name, aliases),
                    None => Verdict::Possible,
                },
                // a key of `module.exports = X` (`module.exports.k = v`)
                Denotes::Item(m, n) if n == "default" && self.commonjs(&m).is_some() => {
                    self.commonjs(&m).map_or(Verdict::Possible, |(m, module)| {
                        self.commonjs_key(&m, module, &r.name, aliases)
                    })
                }
                // a namespace of a package of the project whose entry the
                // index does not read (`main: "dist/index.js"`)
                Denotes::Unknown if self.project_package_namespace(entry, q) => {
                    match aliases.iter().any(|(_, n)| **n == *r.name) {
                        true => Verdict::Possible,
                        false => Verdict::Other,
                    }
                }
                // a CommonJS module's own `exports.k` (`module.exports.k`)
                Denotes::Unbound if self.family_id == "es" && &**q == "exports" => {
                    let m = self.module(entry);
                    match file.commonjs.as_deref() {
                        Some(module) if !module.dynamic => {
                            self.commonjs_key(&m, module, &r.name, aliases)
                        }
                        _ if aliases.contains(&(m, r.name.to_string())) => Verdict::Possible,
                        _ => Verdict::Other,
                    }
                }
                Denotes::Required(Some(m), None) if self.may_hold(&m, &r.name, aliases) => {
                    Verdict::Possible
                }
                // a local value may hold a module the file imports in a
                // function (`const m = await import('./a')`, `.then(m =>
                // m.f())`, a `require` there)
                _ if self.imported_dynamically(entry, &r.name, aliases) => Verdict::Possible,
                _ => Verdict::Other,
            },
            Qualifier::Path(path) => {
                let path = from_scope(file, r.offset, path);
                match self.family.resolve_path(&files, &entry.path, file, &path) {
                    Some((m, None)) => certain_if(aliases.contains(&(m, r.name.to_string()))),
                    Some((_, Some(_))) => Verdict::Other,
                    None => Verdict::Possible,
                }
            }
            // Java: a class through its package (`com.acme.lib.Cart`), when
            // the first name binds nothing in the file
            Qualifier::Expression(package)
                if self.family_id == "java" && self.is_java_package(entry, r, package) =>
            {
                certain_if(aliases.contains(&(package.to_string(), r.name.to_string())))
            }
            // CommonJS: `require('./a').k`
            Qualifier::Expression(e) if super::es::required_source(e).is_some() => {
                let source = super::es::required_source(e).unwrap_or_default();
                let module = match self.family.resolve(&files, &entry.path, file, source) {
                    Source::Module(m) => m,
                    Source::Unknown => return Verdict::Other,
                };
                match self.commonjs(&module) {
                    Some((module, cjs)) => self.commonjs_key(&module, cjs, &r.name, aliases),
                    None if self.may_hold(&module, &r.name, aliases) => Verdict::Possible,
                    None => Verdict::Other,
                }
            }
            Qualifier::This | Qualifier::Expression(_) | Qualifier::Other => Verdict::Other,
        }
    }

    /// Whether a use `r` in `entry` names the member `symbol` of `class`.
    fn member_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        symbol: &Symbol<'_>,
        class: &Class<'_>,
        defined: &Defined<'_>,
    ) -> Verdict {
        let file = entry.file();
        let (aliases, same_module) = (class.aliases, class.same_module);
        let class_name = class.name;
        // the class whose code the use is in
        let inside = r.in_def.and_then(|i| {
            let d = &file.defs[i];
            match d.kind {
                SymbolKind::Class => Some(d.name.as_str()),
                _ => d.container.as_deref(),
            }
        });
        // (Rust: an `impl` of the class's name in another module — `impl
        // Store` in `ops.rs` beside `use crate::store::Store` — is the
        // class's where the name denotes it there)
        let in_class = inside == Some(class_name)
            && (same_module
                || (self.family_id == "rust"
                    && self.denotes_one_of(entry, class_name, aliases, defined)));
        if symbol.def().written_on_owner() {
            return self.written_on_use(entry, r, symbol.def(), in_class, aliases, defined);
        }
        if let Some(i) = r.import {
            // the name a static import takes from its class
            return match (file.imports[i].kind, self.bound(entry, i)) {
                (ImportKind::Member, Bound::Item(m, c)) => certain_if(aliases.contains(&(m, c))),
                _ => Verdict::Other,
            };
        }
        // Rust: a call through a value never names a field, nor a read of
        // a field a method (`x.f` of a method does not compile) — when the
        // symbol's definitions are all methods or all fields (a struct may
        // have a field and a method of one name: both are the symbol's)
        let through_value = matches!(
            r.qualifier,
            Qualifier::This | Qualifier::Name(_) | Qualifier::Expression(_) | Qualifier::Other
        );
        let defs = &symbol.entry.file().defs;
        let methods = symbol
            .defs
            .iter()
            .filter(|&&i| defs[i].kind == SymbolKind::Method)
            .count();
        let one_kind = methods == 0 || methods == symbol.defs.len();
        if self.family_id == "rust" && through_value && one_kind && r.call != (methods > 0) {
            return Verdict::Other;
        }
        // ES: a private name (`#count`) is read in the body of the
        // innermost class that declares it, and nowhere else
        if self.family_id == "es" && r.name.starts_with('#') {
            let owner = private_owner(file, &r.name, symbol.def().span.start);
            if !std::ptr::eq(entry, symbol.entry) || private_owner(file, &r.name, r.offset) != owner
            {
                return Verdict::Other;
            }
            // (a class expression in its body may declare the name again,
            // and the index has no span for it)
            let again = owner.is_some_and(|span| {
                file.defs.iter().any(|d| {
                    d.name == r.name
                        && span.contains(&d.span.start)
                        && d.span.start != symbol.def().span.start
                })
            });
            return match again {
                true => Verdict::Possible,
                false => Verdict::Certain,
            };
        }
        match &r.qualifier {
            Qualifier::This if in_class => Verdict::Certain,
            // Rust: `self` in an `impl` of another type of the class's
            // name (another module's)
            Qualifier::This
                if self.family_id == "rust"
                    && inside == Some(class_name)
                    && !file.inheriting.iter().any(|b| b.contains(&r.offset))
                    && matches!(
                        self.denotes(entry, class_name, aliases, defined),
                        Denotes::Item(..)
                    )
                    && !self.rust_derefs(class_name) =>
            {
                Verdict::Other
            }
            // Rust: `self` in another type's `impl` is that type (no
            // inheritance, unless it dereferences to another); in a
            // trait's body, any type implementing it
            Qualifier::This
                if self.family_id == "rust"
                    && inside.is_some_and(|c| c != class_name && !self.rust_derefs(c))
                    && !file.inheriting.iter().any(|b| b.contains(&r.offset)) =>
            {
                Verdict::Other
            }
            // Java: `this` of another class (or in an anonymous one)
            Qualifier::This if self.family_id == "java" => {
                self.java_implicit_use(entry, r, true, aliases)
            }
            // ES: `this` in a subclass that inherits the member (the
            // rest stays possible: a `function` may rebind `this`)
            Qualifier::This if self.family_id == "es" => match inside {
                Some(around)
                    if self.es_inherited_use(
                        entry,
                        around,
                        &symbol.def().name,
                        aliases,
                        defined,
                    ) == Verdict::Certain =>
                {
                    Verdict::Certain
                }
                _ => Verdict::Possible,
            },
            Qualifier::This => Verdict::Possible,
            Qualifier::None if self.family.implicit_members() && !r.shadowed => {
                let name = &symbol.def().name;
                match implicit_member(file, r.offset, name) {
                    Implicit::DeclaredBy(owner) => certain_if(same_module && owner == class_name),
                    Implicit::MayBeInherited => self.java_implicit_use(entry, r, false, aliases),
                    Implicit::NoMember => self.statically_imported(entry, name, aliases),
                }
            }
            // Rust: a macro may paste a bare name as a member's
            // (`pat.$which()`)
            Qualifier::None if r.pasted => Verdict::Possible,
            Qualifier::None => Verdict::Other,
            Qualifier::Expression(e) if self.family_id == "java" => {
                self.java_expression_use(entry, r, e, aliases)
            }
            Qualifier::Expression(e) if self.family_id == "rust" => {
                let returns_class = |t: &str, f: &str| {
                    self.rust_returns_class(entry, r, symbol, class, defined, t, f)
                };
                self.rust_expression_use(entry, r, e, inside, aliases, &returns_class, defined)
            }
            // ES: `new A().m`, `(x as A).m` (`: A`), `make().m`, and
            // through a member of `this` or a name: `this.x.m`,
            // `x.get().m`, `x.getter.m`
            // a key of a CommonJS module (`require('./a').m`): whatever
            // value it holds
            Qualifier::Expression(written) if super::es::required_source(written).is_some() => {
                Verdict::Possible
            }
            Qualifier::Expression(written) if self.family_id == "es" => {
                let member = &symbol.def().name;
                if &**written == "super" {
                    return match inside {
                        Some(around) => self.es_super_use(entry, around, member, aliases, defined),
                        None => Verdict::Possible,
                    };
                }
                if let Some(class) = written.strip_prefix(": ") {
                    return self.es_typed_use(entry, r.offset, class, member, aliases, defined);
                }
                let Some((value, name)) = written.split_once('.') else {
                    let function = written.trim_end_matches("()");
                    return self.es_result_use(entry, r, function, member, aliases, defined);
                };
                let (name, called) = match name.strip_suffix("()") {
                    Some(method) => (method, true),
                    None => (name, false),
                };
                let read = es_types::MemberRead {
                    name,
                    called,
                    member,
                };
                match value {
                    "this" => match inside {
                        Some(inside) => {
                            self.es_this_member_use(entry, inside, &read, aliases, defined)
                        }
                        None => Verdict::Possible,
                    },
                    _ => match file.typed_binding(value, r.offset) {
                        Some(t) => self.es_member_use(entry, &t.type_name, &read, aliases, defined),
                        None => Verdict::Possible,
                    },
                }
            }
            Qualifier::Expression(e) => self
                .go_member_use(entry, r, e, aliases, symbol.entry.file().package.as_deref())
                .unwrap_or(Verdict::Possible),
            Qualifier::Name(q) if self.family_id == "go" => {
                let package = symbol.entry.file().package.as_deref();
                if let Some(verdict) = self.go_member_use(entry, r, q, aliases, package) {
                    return verdict;
                }
                match self.denoted_member(entry, q, aliases, defined) {
                    // `time.Now()`: a package's name, never a value's
                    Verdict::Possible if imported_whole(file, q, r) => Verdict::Other,
                    verdict => verdict,
                }
            }
            Qualifier::Name(q) if self.family_id == "java" => {
                if let Some(verdict) = self.java_named_use(entry, r, q, aliases) {
                    return verdict;
                }
                if r.local_qualifier {
                    return Verdict::Possible;
                }
                match self.denoted_member(entry, q, aliases, defined) {
                    // `MethodHandles.lookup()` of `import
                    // java.lang.invoke.MethodHandles;`: a class outside
                    // the project, whose members are its own
                    Verdict::Possible if imported_whole(file, q, r) => Verdict::Other,
                    verdict => verdict,
                }
            }
            // Rust: a local's type as the crate states it (a declared
            // type, what `T::f` makes, an inferred expression's), when no
            // untyped binding closer to the use hides it
            Qualifier::Name(q)
                if self.family_id == "rust" && file.typed_binding(q, r.offset).is_some() =>
            {
                let returns_class = |t: &str, f: &str| {
                    self.rust_returns_class(entry, r, symbol, class, defined, t, f)
                };
                self.rust_expression_use(entry, r, q, inside, aliases, &returns_class, defined)
            }
            Qualifier::Name(q) => {
                let typed = file
                    .typed
                    .iter()
                    .filter(|t| t.name == *q && t.scope.contains(&r.offset))
                    .min_by_key(|t| t.scope.end - t.scope.start);
                if let Some(t) = typed {
                    // Rust: hidden by a closer binding, of a type unknown
                    if self.family_id == "rust" {
                        return Verdict::Possible;
                    }
                    if let Some(callee) = t.type_name.strip_suffix("()") {
                        // Go's `x := f(…)`: the class's when the callee is
                        // a function of the class's file that returns it
                        let function = callee.rsplit('.').next().unwrap_or(callee);
                        let returns_class = symbol
                            .entry
                            .file()
                            .constructors
                            .iter()
                            .any(|(t, f)| *t == class_name && f == function);
                        let function_names: HashSet<(ModuleKey, String)> = aliases
                            .iter()
                            .map(|(m, _)| (m.clone(), function.to_string()))
                            .collect();
                        return match self.typed_as(
                            entry,
                            r.offset,
                            callee,
                            &function_names,
                            defined,
                        ) {
                            Verdict::Certain if returns_class => Verdict::Certain,
                            _ => Verdict::Possible,
                        };
                    }
                    if self.family_id == "es" {
                        let member = &symbol.def().name;
                        return self.es_typed_use(
                            entry,
                            r.offset,
                            &t.type_name,
                            member,
                            aliases,
                            defined,
                        );
                    }
                    return self.typed_as(entry, r.offset, &t.type_name, aliases, defined);
                }
                if r.local_qualifier {
                    return Verdict::Possible;
                }
                self.denoted_member(entry, q, aliases, defined)
            }
            Qualifier::Path(path) => {
                if path.last().map(String::as_str) == Some("Self") {
                    // (Rust: an `impl` of the class's name that the index
                    // cannot resolve, `impl super::Store`, may be its)
                    let unresolved = self.family_id == "rust"
                        && !in_class
                        && inside == Some(class_name)
                        && !matches!(
                            self.denotes(entry, class_name, aliases, defined),
                            Denotes::Item(..)
                        );
                    return match unresolved {
                        true => Verdict::Possible,
                        false => certain_if(in_class),
                    };
                }
                let path = from_scope(file, r.offset, path);
                let files = self.files();
                match self.family.resolve_path(&files, &entry.path, file, &path) {
                    Some((m, Some(item))) if aliases.contains(&(m.clone(), item.clone())) => {
                        Verdict::Certain
                    }
                    // Rust: a type alias (`type K = Kind;`, `K::Big`) may
                    // stand for the class
                    Some((m, Some(item))) if self.type_alias(&m, &item, defined) => {
                        Verdict::Possible
                    }
                    Some((_, Some(_))) => Verdict::Other,
                    Some((_, None)) => Verdict::Other,
                    // a name nothing binds (`Vec::new`): the prelude's
                    // (`u8::from_hex`: a type from outside the crate may
                    // implement the trait whose method the query is)
                    None if path.len() == 1
                        && self.denotes(entry, &path[0], aliases, defined) == Denotes::Unbound =>
                    {
                        match self.trait_member {
                            true => Verdict::Possible,
                            false => Verdict::Other,
                        }
                    }
                    None => Verdict::Possible,
                }
            }
            Qualifier::Other => Verdict::Possible,
        }
    }
}

impl Query<'_> {
    /// Where a module that exports a module-level symbol under its own name
    /// is read whole as a value: an `import * as ns` of it (or a `require`
    /// of a CommonJS module one of whose stated keys is the name) whose
    /// name is used otherwise than as the object of a member read (`{ ns }`, `f(ns)`, `ns[k]`, `typeof ns`) — the module's
    /// names are then observed by code the index does not follow (a type
    /// the object must satisfy, a loop over its keys). ES modules only.
    fn namespace_escapes(&self, symbol: &Symbol<'_>) -> Vec<Location> {
        if self.family_id != "es" {
            return Vec::new();
        }
        let Some(context) = self.context(symbol).filter(|c| c.is_top) else {
            return Vec::new();
        };
        let modules: HashSet<&ModuleKey> = context.own_names.iter().map(|(m, _)| m).collect();
        // (an import of a module spells its stem, or its directory's name
        // for an `index`: only the files a query of the symbol reads
        // anyway, mostly, not every file spelling `src`)
        let mut words: Vec<String> = modules
            .iter()
            .filter_map(|m| {
                let words = source_words(m);
                match words.first().map(String::as_str) {
                    Some("index") => words.get(1).cloned(),
                    _ => words.first().cloned(),
                }
            })
            .collect();
        // and the names and modules that re-export it as a namespace
        // (`export * as util from './u'` in `index`: `core.util`)
        let stems: Vec<&str> = words.iter().map(String::as_str).collect();
        let mut more = Vec::new();
        for entry in self.files_with(&stems, false) {
            let file = entry.file();
            for (j, import) in file.imports.iter().enumerate() {
                let namespace =
                    import.kind == ImportKind::ReExport && import.imported == Imported::Module;
                if namespace
                    && matches!(self.bound(entry, j), Bound::Module(x) if modules.contains(&x))
                {
                    more.push(import.local.clone());
                    let own = source_words(&self.module(entry));
                    more.extend(match own.first().map(String::as_str) {
                        Some("index") => own.get(1).cloned(),
                        _ => own.first().cloned(),
                    });
                }
            }
        }
        words.extend(more);
        words.sort_unstable();
        words.dedup();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let mut escapes = Vec::new();
        // the names a module re-exports the symbol's module as
        // (`export * as util from './u'`)
        let namespaces_in = |m: &ModuleKey| -> Vec<String> {
            let Some(entry) = self.index.entry(m) else {
                return Vec::new();
            };
            let file = entry.file();
            (0..file.imports.len())
                .filter(|&j| {
                    let import = &file.imports[j];
                    import.kind == ImportKind::ReExport
                        && import.imported == Imported::Module
                        && matches!(self.bound(entry, j), Bound::Module(x) if modules.contains(&x))
                })
                .map(|j| file.imports[j].local.clone())
                .collect()
        };
        for entry in self.files_with(&words, false) {
            let file = entry.file();
            let at = |r: &TagRef| Location {
                path: entry.path.clone(),
                position: r.start,
                end: r.end,
            };
            for (i, import) in file.imports.iter().enumerate() {
                if import.kind == ImportKind::Static {
                    if let (Imported::Name(_), Denotes::Module(m)) =
                        (&import.imported, self.denotes_import(entry, i))
                    {
                        // `import { util } from './index'`, the module
                        // re-exported as a namespace: read whole there
                        if modules.contains(&m) {
                            escapes.extend(read_whole(file, &import.local).map(at));
                        }
                        continue;
                    }
                }
                if import.imported != Imported::Module {
                    continue;
                }
                let Bound::Module(m) = self.bound(entry, i) else {
                    continue;
                };
                if import.kind == ImportKind::Static {
                    // `core.util` of `import * as core from './index'`,
                    // where index re-exports the module as `util`: the
                    // module read whole, through a member
                    for namespace in namespaces_in(&m) {
                        escapes.extend(
                            file.refs_named(&namespace)
                                .iter()
                                .filter(|r| matches!(&r.qualifier, Qualifier::Name(q) if *q == import.local))
                                .map(at),
                        );
                    }
                }
                // an ES namespace has every name its module exports; a
                // CommonJS module bound whole is its `module.exports`,
                // whose keys its code states (`exports.add = add`). (A
                // binding assigned again holds what only a run tells,
                // and its uses are writes too.)
                let exposes = match import.kind {
                    ImportKind::Static => modules.contains(&m),
                    ImportKind::Require => self.commonjs(&m).is_some_and(|(m, module)| {
                        module
                            .keys
                            .iter()
                            .any(|(key, _)| context.own_names.contains(&(m.clone(), key.clone())))
                    }),
                    _ => false,
                };
                if !exposes {
                    continue;
                }
                escapes.extend(read_whole(file, &import.local).map(at));
            }
        }
        escapes
    }

    /// What the static import `i` of `entry` binds its name to, a
    /// namespace re-export followed ([`Query::item_or_namespace`]).
    fn denotes_import(&self, entry: &TagsEntry, i: usize) -> Denotes {
        match self.bound(entry, i) {
            Bound::Item(m, n) => self.item_or_namespace(m, n),
            Bound::Module(m) => Denotes::Module(m),
            Bound::Unknown => Denotes::Unknown,
        }
    }

    /// Whether a member use reads a JavaScript method written on its owner
    /// (`def`): `this.m` in a method written on the same owner is it, as in
    /// a class; `owner.m` is a method written on the owner itself
    /// (`app.init`), not on its prototype (`Route.dispatch` is another
    /// property, possibly copied there); any other value's `.m` may be it
    /// (an object the owner was mixed into, an instance).
    fn written_on_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        def: &TagDef,
        in_class: bool,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        match &r.qualifier {
            Qualifier::None => Verdict::Other,
            Qualifier::This if in_class => Verdict::Certain,
            Qualifier::Name(q) => match self.denoted_member(entry, q, aliases, defined) {
                Verdict::Certain if def.on_prototype => Verdict::Possible,
                verdict => verdict,
            },
            _ => Verdict::Possible,
        }
    }

    /// Rust: whether `T::f` (or a method `f` of `T`) makes a `T` when `T`
    /// is the class whose member is asked (at `r`), by the functions of
    /// the class's own `impl` that return `Self` or the class.
    #[allow(clippy::too_many_arguments)]
    fn rust_returns_class(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        symbol: &Symbol<'_>,
        class: &Class<'_>,
        defined: &Defined<'_>,
        t: &str,
        f: &str,
    ) -> bool {
        // (`t` may name it under another name: `use a::Cart as Basket`)
        symbol
            .entry
            .file()
            .constructors
            .iter()
            .any(|(o, g)| o == class.name && g == f)
            && self.typed_as(entry, r.offset, t, class.aliases, defined) == Verdict::Certain
    }

    /// Whether a member use through a module-level name `q` (not a
    /// local's) names the member of the class whose names are `aliases`:
    /// by what `q` denotes.
    fn denoted_member(
        &self,
        entry: &TagsEntry,
        q: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        match self.denotes(entry, q, aliases, defined) {
            Denotes::Item(m, n) if aliases.contains(&(m.clone(), n.clone())) => Verdict::Certain,
            // another class or function of this module
            Denotes::Item(m, n) if m == self.module(entry) => {
                let other = entry
                    .file()
                    .defs
                    .iter()
                    .find(|d| d.top_level && d.name == n);
                match other.map(|d| d.kind) {
                    Some(SymbolKind::Class | SymbolKind::Function) => Verdict::Other,
                    _ => Verdict::Possible,
                }
            }
            Denotes::Module(_) => Verdict::Other,
            _ => Verdict::Possible,
        }
    }

    /// Whether a bare `name` that no class around it declares or may
    /// inherit is the member that a static import (`import static
    /// a.B.name;`, `a.B.*`) of the class whose names are `aliases` brings
    /// in: a single import of the name decides, then `.*`.
    fn statically_imported(
        &self,
        entry: &TagsEntry,
        name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> Verdict {
        let file = entry.file();
        let mut every = false;
        for (i, import) in file.imports.iter().enumerate() {
            if import.kind != ImportKind::Member {
                continue;
            }
            let ours = match self.bound(entry, i) {
                Bound::Item(m, c) => aliases.contains(&(m, c)),
                _ => false,
            };
            match (&import.imported, ours) {
                (Imported::Name(n), ours) if n == name => return certain_if(ours),
                (Imported::All, true) => every = true,
                _ => {}
            }
        }
        match every {
            true => Verdict::Certain,
            false => Verdict::Possible,
        }
    }

    /// Whether a value declared with type `type_name` (`T`, `pkg.T`) in
    /// `entry` is of the class whose names are `aliases`.
    fn typed_as(
        &self,
        entry: &TagsEntry,
        offset: usize,
        type_name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        let denoted = match type_name.rsplit_once('.') {
            Some((module, name)) => match self.denotes(entry, module, aliases, defined) {
                Denotes::Module(m) => Denotes::Item(m, name.to_string()),
                // Java: a type through its package (`com.acme.lib.Cart d`)
                Denotes::Unbound
                    if self.family_id == "java"
                        && super::java::dotted(module).is_some()
                        && !self.binds_first_name(entry, module) =>
                {
                    Denotes::Item(module.to_string(), name.to_string())
                }
                // ES: a class read off a value (`new ns.A()`, `const ns =
                // { A }`): which, the index cannot tell
                Denotes::Item(..) if self.family_id == "es" => Denotes::Unknown,
                other => other,
            },
            None => match self.in_part(entry, offset, (type_name, false), aliases, defined) {
                Some(verdict) => return verdict,
                None => self.denotes(entry, type_name, aliases, defined),
            },
        };
        match denoted {
            Denotes::Item(m, n) if aliases.contains(&(m.clone(), n.clone())) => Verdict::Certain,
            Denotes::Item(m, n) if self.may_hold(&m, &n, aliases) => Verdict::Possible,
            // TypeScript: a type alias (`Sub | (() => void)`) may stand
            // for the class, a narrowing (`instanceof Sub`) reaching it
            Denotes::Item(m, n) if self.es_type_alias(&m, &n) => Verdict::Possible,
            Denotes::Item(..) => Verdict::Other,
            Denotes::Unknown | Denotes::Required(..) | Denotes::CommonJs(_) => Verdict::Possible,
            // a type parameter, or a type from outside the crate, may
            // implement the trait whose method the query is
            Denotes::Unbound if self.trait_member => Verdict::Possible,
            Denotes::Module(_) | Denotes::Unbound => Verdict::Other,
        }
    }
}

/// Whether a module whose files share their names (a Go package, a Java
/// package) defines a name at its top level, over the files a query reads
/// (every one that spells its names): for each name asked, the files that
/// define it found once (most ruled out by their word filters), each
/// answer kept. What the uses of one file asked is logged
/// ([`Defined::take_asked`]): their verdicts hold while those answers do.
struct Defined<'q> {
    files: Vec<&'q TagsEntry>,
    /// By name: the module and package clause of each file that defines it.
    definers: RefCell<HashMap<String, Vec<(ModuleKey, String)>>>,
    answers: RefCell<HashMap<Asked, bool>>,
    asked: RefCell<Vec<(Asked, bool)>>,
}

impl<'q> Defined<'q> {
    fn new(files: Vec<&'q TagsEntry>) -> Self {
        Defined {
            files,
            definers: RefCell::default(),
            answers: RefCell::default(),
            asked: RefCell::default(),
        }
    }

    /// Whether `module` (of package clause `package`, or of any) defines
    /// `name` at its top level.
    fn defines(
        &self,
        query: &Query<'_>,
        module: &ModuleKey,
        package: Option<&str>,
        name: &str,
    ) -> bool {
        let key = (
            module.clone(),
            package.map(str::to_string),
            name.to_string(),
        );
        let known = self.answers.borrow().get(&key).copied();
        let found = known.unwrap_or_else(|| {
            let mut definers = self.definers.borrow_mut();
            let definers = definers.entry(name.to_string()).or_insert_with(|| {
                let word = Word::new(name);
                self.files
                    .iter()
                    .filter(|e| e.may_mention(&word))
                    .filter(|e| e.file().defs.iter().any(|d| d.top_level && d.name == name))
                    .map(|e| {
                        let package = e.file().package.clone().unwrap_or_default();
                        (query.module(e), package)
                    })
                    .collect()
            });
            let found = definers
                .iter()
                .any(|(m, p)| m == module && package.is_none_or(|package| p == package));
            self.answers.borrow_mut().insert(key.clone(), found);
            found
        });
        let mut asked = self.asked.borrow_mut();
        if !asked.iter().any(|(k, _)| *k == key) {
            asked.push((key, found));
        }
        found
    }

    /// What was asked since the last call, with the answers.
    fn take_asked(&self) -> Vec<(Asked, bool)> {
        std::mem::take(&mut self.asked.borrow_mut())
    }

    /// Whether `asked` is answered as it was.
    fn still(&self, query: &Query<'_>, (asked, was): &(Asked, bool)) -> bool {
        let (module, package, name) = asked;
        self.defines(query, module, package.as_deref(), name) == *was
    }
}

/// The innermost `mod m { … }` block (Rust) around an offset, by its
/// qualified name.
pub(super) fn inline_at(file: &TagsFile, offset: usize) -> Option<&str> {
    file.inline_modules
        .iter()
        .filter(|(_, body)| body.contains(&offset))
        .max_by_key(|(_, body)| body.start)
        .map(|(q, _)| q.as_str())
}

/// A path written at `offset` as the file's module writes it: its first
/// name bound by a `use` in a block around it is that import's path; in
/// a `mod m { … }` block, the path is read from the block.
fn from_scope(file: &TagsFile, offset: usize, path: &[String]) -> Vec<String> {
    let scoped = path.first().and_then(|first| {
        file.scoped_imports
            .iter()
            .filter(|(_, scope)| scope.contains(&offset))
            .map(|(i, scope)| (&file.imports[*i], scope))
            .filter(|(i, _)| i.local == *first && i.imported != Imported::All)
            .max_by_key(|(_, scope)| scope.start)
    });
    if let Some((import, _)) = scoped {
        let mut through: Vec<String> = import.source.split("::").map(str::to_string).collect();
        through.extend(path[1..].iter().cloned());
        return through;
    }
    let Some(block) = inline_at(file, offset) else {
        return path.to_vec();
    };
    let bound = |name: &str| {
        file.block_imports
            .iter()
            .filter(|(_, b)| b == block)
            .map(|(i, _)| &file.imports[*i])
            .find(|i| i.local == name && i.imported != Imported::All)
            .map(|i| i.source.clone())
    };
    rebase(path, block, |n| declares(file, block, n), bound)
}

/// The `mod m { … }` block (Rust) a definition is directly in.
fn inline_parent<'f>(file: &'f TagsFile, def: &TagDef) -> Option<&'f str> {
    let (parent, _) = def.qualified.rsplit_once('.')?;
    file.inline_modules
        .iter()
        .find(|(q, _)| q == parent)
        .map(|(q, _)| q.as_str())
}

/// The words an import of a module spells: the last names of its key
/// (a file's stem and directory, a package's last name, a Rust module's).
fn source_words(module: &str) -> Vec<String> {
    let path = module.rsplit('|').next().unwrap_or(module);
    let mut words: Vec<String> = path
        .rsplit(['/', '.', ':'])
        .filter(|w| !w.is_empty() && !EXTENSIONS.contains(w))
        .take(2)
        .map(str::to_string)
        .collect();
    words.dedup();
    words
}

/// The extensions a module key may end with (a file's).
const EXTENSIONS: &[&str] = &[
    "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "go", "rs", "java",
];

fn certain_if(proven: bool) -> Verdict {
    match proven {
        true => Verdict::Certain,
        false => Verdict::Other,
    }
}

/// What a bare name in Java's class code reads ([`implicit_member`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Implicit<'a> {
    /// The member of the innermost class around it that declares the name
    /// (by the class's name).
    DeclaredBy(&'a str),
    /// A class around it, closer than any that declares the name, extends
    /// or implements another (an anonymous class always does): the name
    /// may be a member it inherits.
    MayBeInherited,
    /// No class around it declares or may inherit the name.
    NoMember,
}

/// The member a bare `name` at `offset` reads, as Java scopes it: the
/// classes around the use, innermost first (a nested class's header is in
/// its outer class's scope, so a use there reads the outer class's
/// members; an inheriting class's body may read an inherited one).
fn implicit_member<'a>(file: &'a TagsFile, offset: usize, name: &str) -> Implicit<'a> {
    let classes = || file.defs.iter().filter(|d| d.kind == SymbolKind::Class);
    // a body's class: the one whose declaration ends with it
    let owner_of = |body: &std::ops::Range<usize>| {
        classes().find(|d| d.span.end == body.end && d.span.start < body.start)
    };
    let mut scopes: Vec<(std::ops::Range<usize>, Option<&TagDef>)> = classes()
        .filter(|d| d.span.contains(&offset))
        .map(|d| (d.span.clone(), Some(d)))
        .collect();
    scopes.extend(
        file.inheriting
            .iter()
            .filter(|b| b.contains(&offset) && owner_of(b).is_none())
            .map(|b| (b.clone(), None)),
    );
    scopes.sort_by_key(|(span, _)| span.end - span.start);
    for (_, class) in scopes {
        let Some(class) = class else {
            // an anonymous class's body
            return Implicit::MayBeInherited;
        };
        let declares = file.defs.iter().any(|m| {
            m.name == name
                && m.kind != SymbolKind::Local
                && m.container.as_deref() == Some(&class.name)
                && !java_constructor(file, m, class)
        });
        if declares {
            return Implicit::DeclaredBy(&class.name);
        }
        let inherits = file
            .inheriting
            .iter()
            .any(|b| b.contains(&offset) && owner_of(b).is_some_and(|o| std::ptr::eq(o, class)));
        if inherits {
            return Implicit::MayBeInherited;
        }
    }
    Implicit::NoMember
}

/// Java: whether `member` of `class` is one of its constructors (a method
/// of the class's name that the file declares with no type: no
/// [`TagsFile::declared`] method of the name, which gives a constructor
/// another). A bare name is never a constructor: `Inner other` and `new
/// Inner()` in `Inner`'s body are the class (before, the constructor, as
/// a member of `Inner`, took them, and a rename of a nested class left
/// them — javac: "cannot find symbol").
fn java_constructor(file: &TagsFile, member: &TagDef, class: &TagDef) -> bool {
    matches!(member.kind, SymbolKind::Method | SymbolKind::Function)
        && member.name == class.name
        && !file.declared.iter().any(|d| {
            d.name == class.name.as_str()
                && matches!(d.kind, super::scan::DeclaredKind::Method { .. })
        })
}
