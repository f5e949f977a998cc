//! Queries over the index: definitions, references, callers, dependencies.
//! All return data; Eddi's command engine formats the replies.
//!
//! **Naming a symbol.** A query is plain (`authenticate`), dotted
//! (`UserManager.authenticate`, `auth.login`) or fully qualified
//! (`pkg.auth.UserManager.authenticate`), with an optional trailing
//! `(…)`. It matches every definition whose full name (`module.qualified`)
//! equals it or ends with `.` + it. Definitions sharing a full name are one
//! symbol (a property and its setter, conditional definitions). An exact
//! full-name match wins over suffix matches; otherwise several symbols are
//! [`IndexError::Ambiguous`] (candidates listed with their full names and
//! positions), none is [`IndexError::NotFound`] (the owner's members or
//! the close names offered).
//!
//! **Several projects** (`projects.rs`) may define one full name (two
//! copies of a project). A symbol is then named by its *workspace name*:
//! its file's path from the workspace root in dots, then its qualified
//! name (`app_a.src.humanize.time.naturaldelta`); or a query asked from
//! a file (a current file) prefers its project's symbols. Asked from no
//! file that decides, it is ambiguous, and the candidates are listed by
//! their workspace names, with their projects.
//!
//! **References** exclude the definition sites (those are what
//! [`ProjectIndex::find_definition`] returns); an assignment at module or
//! class level is a definition, not a reference. They include the name in
//! `from m import f` and every use through aliases. Uses the index cannot
//! prove are listed apart as *possible*: attributes of untyped values for
//! class members (`obj.m()`), and `self.m()` in a base class when the symbol
//! overrides `m` in a subclass (dynamic dispatch may reach it; `super().m()`
//! never does).
//!
//! **Callers** are the references that are the callee of a call, with the
//! innermost enclosing function or class (`None` at module level).
//! Calling a class (`C()`) is a caller of the class, and of the `__init__`
//! it runs: `C`'s own or the one it inherits from a project base class.
//!
//! **Dependencies** of a module are the modules it imports (`from p import m`
//! counts as importing the submodule `p.m` when that is a project module),
//! each once, at its first import; dependents are the project modules that
//! import it.

use std::collections::{BTreeMap, HashSet};

use super::error::{IndexError, Result, SymbolCandidate};
use super::file::{DefId, ImportKind, Value};
use super::memo::CallersMemo;
use super::projects::{ModuleRef, Project};
use super::resolve::{DefRef, Res};
use super::{FileId, FileIndex, ProjectIndex};
use crate::analysis::outline::SymbolKind;
use crate::choices::{closest, Choices, SHOWN};
use crate::edit::Position;

/// A place in the workspace.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Workspace-relative, `/`-separated.
    pub path: String,
    pub position: Position,
    /// Where the name ends (exclusive, on the same line) for references and
    /// calls; the same as `position` where only a point is known
    /// (definitions, imports).
    pub end: Position,
}

impl Location {
    /// A location known only by where it starts.
    pub fn point(path: String, position: Position) -> Self {
        Location {
            path,
            position,
            end: position,
        }
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.path, self.position)
    }
}

/// One definition site of a symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// `module.Class.method`.
    pub qualified_name: String,
    pub kind: SymbolKind,
    /// The `def`/`class`/`async` keyword (the name for variables), as the
    /// per-file commands (`Show`, `Goto`) place elements.
    pub location: Location,
    pub name_position: Position,
}

/// Uses of one symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct References {
    pub definitions: Vec<Definition>,
    /// Proven uses, sorted by path and position.
    pub certain: Vec<Location>,
    /// Uses the index cannot prove nor exclude.
    pub possible: Vec<Location>,
    /// Those of the uses written as a name the symbol is imported or
    /// re-exported under (`import f from`, `export { default as f }`):
    /// the importer's name, which a rename keeps even where it spells
    /// the symbol's.
    pub aliased: Vec<Location>,
}

/// One call of a symbol.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Call {
    pub location: Location,
    /// Full name of the function or class the call is in; `None` at module level.
    pub caller: Option<String>,
}

/// Calls of one symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Callers {
    pub definitions: Vec<Definition>,
    pub certain: Vec<Call>,
    pub possible: Vec<Call>,
}

/// An import edge between modules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    pub module: String,
    /// The project file of `module`; `None` when it is external.
    pub path: Option<String>,
    /// Where the importing module names it (first import).
    pub at: Location,
}

/// Strips `(…)` and surrounding blanks from a symbol query.
fn clean(query: &str) -> &str {
    let q = query.trim();
    match q.find('(') {
        Some(i) if q.ends_with(')') => q[..i].trim_end(),
        _ => q,
    }
}

impl ProjectIndex {
    pub(super) fn definition(&self, d: DefRef) -> Option<Definition> {
        let f = self.file(d.file)?;
        let def = f.defs.get(d.def as usize)?;
        Some(Definition {
            qualified_name: f.full_name(d.def),
            kind: def.kind,
            location: Location::point(self.path(d.file)?.to_string(), def.position),
            name_position: def.name_position,
        })
    }

    /// The one symbol a query names: its file and definitions. The forms
    /// the per-file commands print are accepted: `f#2` (the ordinal is
    /// dropped: same-named definitions are one symbol here) and
    /// `C.p.setter` (a property's accessor names the property).
    pub(super) fn symbol(&self, query: &str) -> Result<(FileId, Vec<DefId>)> {
        self.symbol_from(query, None)
    }

    /// [`Self::symbol`] asked from file `from` (a current file): among
    /// symbols of several projects, its own project's win.
    pub(super) fn symbol_from(
        &self,
        query: &str,
        from: Option<FileId>,
    ) -> Result<(FileId, Vec<DefId>)> {
        self.symbol_from_memo(query, from, None)
    }

    /// [`Self::symbol_from`] with what many queries share (`CallersMemo`:
    /// the files defining each name).
    pub(super) fn symbol_from_memo(
        &self,
        query: &str,
        from: Option<FileId>,
        mut memo: Option<&mut CallersMemo>,
    ) -> Result<(FileId, Vec<DefId>)> {
        let q = clean(query);
        let q = crate::analysis::outline::split_ordinal(q).0;
        let project = from.and_then(|f| self.project(f));
        let found = self.symbol_named(q, project, memo.as_deref_mut());
        if let (Err(IndexError::NotFound { .. }), Some((property, accessor))) =
            (&found, q.rsplit_once('.'))
        {
            if crate::analysis::outline::ACCESSORS.contains(&accessor) {
                if let Ok(property) = self.symbol_named(property, project, memo) {
                    return Ok(property);
                }
            }
        }
        found
    }

    fn symbol_named(
        &self,
        q: &str,
        project: Option<&Project>,
        memo: Option<&mut CallersMemo>,
    ) -> Result<(FileId, Vec<DefId>)> {
        let last = q.rsplit('.').next().unwrap_or(q);
        let suffix = format!(".{q}");
        // Keyed by file too: two projects under one root may both have a
        // module `tests.test_utils`; their definitions are not one symbol.
        let mut groups: BTreeMap<(String, FileId), Vec<DefId>> = BTreeMap::new();
        let defining: Vec<(FileId, &FileIndex)> =
            match memo.and_then(|memo| memo.files_defining(self, last)) {
                Some(files) => files
                    .iter()
                    .filter_map(|&fid| Some((fid, self.file(fid)?)))
                    .collect(),
                None => self.files_with(last).collect(),
            };
        for (fid, f) in defining {
            for &d in f.defs_named(last) {
                // what the full name is compared with below ends with
                // its qualified name or is the end of it: no name built
                // for the others
                let qualified = f.def(d).qualified.as_str();
                if !q.ends_with(qualified) && !qualified.ends_with(q) {
                    continue;
                }
                let full = f.full_name(d);
                if full == q || full.ends_with(&suffix) {
                    groups.entry((full, fid)).or_default().push(d);
                } else if q
                    .strip_suffix(full.as_str())
                    .is_some_and(|root| root.ends_with('.'))
                    && self.workspace_name(fid, d).as_deref() == Some(q)
                {
                    // its workspace name: exactly this file's
                    groups.entry((q.to_string(), fid)).or_default().push(d);
                }
            }
        }
        let exact: Vec<(String, FileId)> = groups
            .keys()
            .filter(|(full, _)| full == q)
            .cloned()
            .collect();
        if !exact.is_empty() {
            groups.retain(|(full, _), _| full == q);
        }
        if groups.is_empty() {
            if let Some(found) = self.reexported(q, project)? {
                return Ok(found);
            }
        }
        self.prefer_project(&mut groups, project);
        match groups.len() {
            1 => Ok(groups
                .into_iter()
                .next()
                .map(|((_, fid), defs)| (fid, defs))
                .unwrap_or_default()),
            0 => {
                let (offered, choices) = self.offered_symbols(q);
                Err(IndexError::NotFound {
                    kind: "symbol",
                    name: q.to_string(),
                    offered,
                    choices,
                })
            }
            _ => Err(IndexError::Ambiguous {
                name: q.to_string(),
                candidates: self.candidates(
                    groups
                        .into_iter()
                        .map(|((full, fid), defs)| (full, (fid, defs)))
                        .collect(),
                ),
            }),
        }
    }

    /// Of one full name defined in several projects (copies of a
    /// project), keeps the definition of `project` (the asking file's)
    /// when it has one. Different full names stay ambiguous: a qualified
    /// name tells them apart.
    fn prefer_project(
        &self,
        groups: &mut BTreeMap<(String, FileId), Vec<DefId>>,
        project: Option<&Project>,
    ) {
        let Some(own) = project else { return };
        let mut fulls = groups.keys().map(|(full, _)| full);
        let first = fulls.next();
        if groups.len() < 2 || !fulls.all(|full| Some(full) == first) {
            return;
        }
        let in_own = |fid: FileId| self.project(fid) == Some(own);
        if groups.keys().any(|(_, fid)| in_own(*fid)) {
            groups.retain(|(_, fid), _| in_own(*fid));
        }
    }

    /// The indexed file at a workspace path.
    pub(crate) fn file_id(&self, path: Option<&str>) -> Option<FileId> {
        self.by_path.get(path?.trim_start_matches("./")).copied()
    }

    /// A definition's workspace name: its file's path from the workspace
    /// root in dots, then its qualified name
    /// (`app_a.src.humanize.time.naturaldelta`), which names it alone
    /// when several projects define its full name. `None` when a
    /// directory's name is not an identifier.
    pub(super) fn workspace_name(&self, fid: FileId, def: DefId) -> Option<String> {
        let path = self.path(fid)?;
        let stem = path.strip_suffix(".py")?;
        let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
        let parts: Vec<&str> = stem.split('/').collect();
        if !parts
            .iter()
            .all(|p| crate::analysis::identifier::is_identifier_shaped(p))
        {
            return None;
        }
        let f = self.file(fid)?;
        Some(format!("{}.{}", parts.join("."), f.def(def).qualified))
    }

    /// The candidates an ambiguous query lists: each group's first
    /// definition, named as it resolves back (by its workspace name where
    /// another candidate has its full name: two projects).
    pub(super) fn candidates(
        &self,
        groups: Vec<(String, (FileId, Vec<DefId>))>,
    ) -> Vec<SymbolCandidate> {
        let shared = |full: &str| groups.iter().filter(|(f, _)| f == full).count() > 1;
        groups
            .iter()
            .filter_map(|(full, (fid, defs))| {
                let first = *defs.first()?;
                let d = self.file(*fid)?.def(first);
                let qualified_name = match shared(full) {
                    true => self.workspace_name(*fid, first),
                    false => None,
                };
                Some(SymbolCandidate {
                    qualified_name: qualified_name.unwrap_or_else(|| full.clone()),
                    full_name: full.clone(),
                    path: self.path(*fid)?.to_string(),
                    project: self
                        .project(*fid)
                        .map(|p| p.to_string())
                        .unwrap_or_default(),
                    position: d.position,
                })
            })
            .collect()
    }

    /// A dotted query whose prefix names a project module and whose rest is
    /// a name that module binds: a re-export such as `django.db.models.Q`
    /// (defined in `django.db.models.query_utils`). The prefix may be the end
    /// of a module name (`models.Model`); modules that bind the name to
    /// different symbols make the query ambiguous.
    fn reexported(
        &self,
        q: &str,
        project: Option<&Project>,
    ) -> Result<Option<(FileId, Vec<DefId>)>> {
        // keyed by file too: each project's module binds its own
        let mut found: BTreeMap<(String, FileId), Vec<DefId>> = BTreeMap::new();
        let mut split = q.len();
        while let Some(i) = q[..split].rfind('.') {
            split = i;
            let (prefix, rest) = (&q[..i], &q[i + 1..]);
            let dotted = format!(".{prefix}");
            let mut modules: Vec<&str> = self
                .modules
                .names()
                .filter(|m| *m == prefix || m.ends_with(&dotted))
                .map(String::as_str)
                .collect();
            modules.sort_unstable();
            for module in modules {
                for p in self.modules.projects_with(module) {
                    let m = ModuleRef {
                        name: module.to_string(),
                        project: Some(p.clone()),
                    };
                    if let Some((fid, defs)) = self.member_path(&m, rest) {
                        if let (Some(f), Some(&d)) = (self.file(fid), defs.first()) {
                            found.entry((f.full_name(d), fid)).or_insert(defs);
                        }
                    }
                }
            }
            if !found.is_empty() {
                break;
            }
        }
        self.prefer_project(&mut found, project);
        match found.len() {
            0 => Ok(None),
            1 => Ok(found.into_iter().next().map(|((_, fid), defs)| (fid, defs))),
            _ => Err(IndexError::Ambiguous {
                name: q.to_string(),
                candidates: self.candidates(
                    found
                        .into_iter()
                        .map(|((full, fid), defs)| (full, (fid, defs)))
                        .collect(),
                ),
            }),
        }
    }

    /// `rest` (`Name` or `Class.member`) looked up from `module`.
    fn member_path(&self, module: &ModuleRef, rest: &str) -> Option<(FileId, Vec<DefId>)> {
        let mut parts = rest.split('.');
        let mut res = self.module_member(module, parts.next()?, 0);
        for part in parts {
            res = match res {
                Res::Defs(defs) => Res::Defs(
                    defs.iter()
                        .filter_map(|d| {
                            let f = self.file(d.file)?;
                            let members = f.members.get(&d.def)?;
                            Some(
                                members
                                    .iter()
                                    .filter(|&&m| f.name(f.def(m).name) == part)
                                    .map(|&m| DefRef {
                                        file: d.file,
                                        def: m,
                                    })
                                    .collect::<Vec<_>>(),
                            )
                        })
                        .flatten()
                        .collect(),
                ),
                Res::Module(m) => self.module_member(&m, part, 0),
                _ => return None,
            };
        }
        let Res::Defs(defs) = res else { return None };
        let first = *defs.first()?;
        let defs: Vec<DefId> = defs
            .iter()
            .filter(|d| d.file == first.file)
            .map(|d| d.def)
            .collect();
        Some((first.file, defs))
    }

    /// What a query that matched nothing is offered: the members of its
    /// owner when the owner exists (`Session.nosuch` → the members of
    /// `Session`, `pkg.mod.nosuch` → the names of `pkg.mod`), else the
    /// close names in the index (or none: nothing rather than noise);
    /// the message and the names it offers.
    fn offered_symbols(&self, q: &str) -> (String, Vec<String>) {
        let last = q.rsplit('.').next().unwrap_or(q);
        if let Some((owner, _)) = q.rsplit_once('.') {
            if let Ok((fid, defs)) = self.symbol(owner) {
                if let (Some(f), Some(&d)) = (self.file(fid), defs.first()) {
                    let members: Vec<String> = f
                        .members
                        .get(&d)
                        .into_iter()
                        .flatten()
                        .map(|&m| f.name(f.def(m).name).to_string())
                        .collect();
                    if !members.is_empty() {
                        let choices = Choices::ranked(last, members);
                        let offered = format!("Members of {}: {choices}", f.full_name(d));
                        return (offered, choices.shown);
                    }
                }
            } else if let Some(fid) = self.modules.all_files(owner).next() {
                if let Some(f) = self.file(fid) {
                    let names: Vec<String> = f
                        .defs
                        .iter()
                        .filter(|d| d.parent.is_none())
                        .map(|d| f.name(d.name).to_string())
                        .collect();
                    if !names.is_empty() {
                        let choices = Choices::ranked(last, names);
                        return (format!("Names in module {owner}: {choices}"), choices.shown);
                    }
                }
            }
        }
        let mut names: Vec<&str> = Vec::new();
        let mut seen = HashSet::new();
        for (_, f) in self.iter_files() {
            for d in &f.defs {
                let n = f.name(d.name);
                if seen.insert(n) {
                    names.push(n);
                }
            }
        }
        names.sort_unstable();
        let close = closest(last, &names, SHOWN);
        let offered = if !close.is_empty() {
            format!("Closest: {}", close.join(", "))
        } else if self.is_empty() {
            "The index is empty".to_string()
        } else {
            "No similar name in the index".to_string()
        };
        (offered, close)
    }

    /// Uses of a name that the project no longer defines: references keyed
    /// by the last part of `symbol` that resolve to nothing although what
    /// they are taken from is in the project — `from pkg.m import old`
    /// after `old` was renamed in `pkg/m.py`, `m.old()`, `C.old`, `C().old`.
    /// With a dotted `symbol` the owner (a module or a class) must match.
    /// Free names of a module (not bound in it, not builtins) count as its
    /// own; locals are never listed.
    pub fn find_unresolved(&self, symbol: &str, calls_only: bool) -> Vec<Call> {
        let q = clean(symbol);
        let (owner, name) = match q.rsplit_once('.') {
            Some((o, n)) => (Some(o), n),
            None => (None, q),
        };
        let owner = match owner {
            None => None,
            Some(o) if self.is_project_module(o) => Some(Res::Module(ModuleRef {
                name: o.to_string(),
                project: None,
            })),
            Some(o) => match self.symbol(o) {
                Ok((fid, defs)) => Some(Res::Defs(
                    defs.into_iter()
                        .map(|def| DefRef { file: fid, def })
                        .collect(),
                )),
                Err(_) => return Vec::new(),
            },
        };
        let mut calls = Vec::new();
        for (rid, f) in self.files_with(name) {
            for r in f.refs_keyed(name) {
                if calls_only && !r.is_call {
                    continue;
                }
                // a member missing from a known class resolves as possible
                // (it may be set dynamically): it counts when the class is known
                let resolved = self.resolve(rid, r.value, 0);
                if !matches!(resolved, Res::Unknown | Res::Possible) {
                    continue;
                }
                let mut value = r.value;
                for _ in 0..8 {
                    match f.value(value) {
                        Value::Same(v) => value = v,
                        _ => break,
                    }
                }
                let taken_from = match f.value(value) {
                    Value::Member { module, .. } => self.module_res(rid, f.name(module)),
                    Value::Attr { base, .. } => self.resolve(rid, base, 0),
                    // a module-level name of this file that is not bound any more
                    Value::Free(_) if !crate::analysis::scope::is_builtin(name) => {
                        Res::Module(ModuleRef {
                            name: f.module.clone(),
                            project: self.project(rid).cloned(),
                        })
                    }
                    _ => continue,
                };
                let of_class = match &taken_from {
                    Res::Defs(ds) => ds.iter().any(|d| self.kind(*d) == Some(SymbolKind::Class)),
                    Res::Instance(_) => true,
                    _ => false,
                };
                if resolved == Res::Possible && !of_class {
                    continue;
                }
                let matches = match (&owner, &taken_from) {
                    (None, Res::Module(_)) => true,
                    (None, _) => of_class,
                    (Some(Res::Module(m)), Res::Module(from)) => m.name == from.name,
                    (Some(Res::Defs(classes)), Res::Defs(ds) | Res::Instance(ds)) => {
                        ds.iter().any(|d| classes.contains(d))
                    }
                    _ => false,
                };
                if matches {
                    calls.push(Call {
                        location: Location {
                            path: self.path(rid).unwrap_or_default().to_string(),
                            position: r.position(),
                            end: r.end(),
                        },
                        caller: r.owner.map(|o| f.full_name(o)),
                    });
                }
            }
        }
        calls.sort();
        calls.dedup();
        calls
    }

    /// The definition sites of a symbol.
    pub fn find_definition(&self, symbol: &str) -> Result<Vec<Definition>> {
        self.find_definition_from(symbol, None)
    }

    /// [`Self::find_definition`] asked from a file (the current file, a
    /// workspace path): of the symbols of several projects, its own
    /// project's.
    pub fn find_definition_from(
        &self,
        symbol: &str,
        current: Option<&str>,
    ) -> Result<Vec<Definition>> {
        let (fid, defs) = self.symbol_from(symbol, self.file_id(current))?;
        Ok(defs
            .into_iter()
            .filter_map(|def| self.definition(DefRef { file: fid, def }))
            .collect())
    }

    /// Uses of a symbol, definition sites excluded.
    pub fn find_references(&self, symbol: &str) -> Result<References> {
        self.find_references_from(symbol, None)
    }

    /// [`Self::find_references`] asked from a file (see
    /// [`Self::find_definition_from`]).
    pub fn find_references_from(&self, symbol: &str, current: Option<&str>) -> Result<References> {
        let (definitions, certain, possible) =
            self.uses(symbol, false, current, &mut CallersMemo::default())?;
        Ok(References {
            definitions,
            certain: certain.into_iter().map(|c| c.location).collect(),
            possible: possible.into_iter().map(|c| c.location).collect(),
            // (a Python import's alias is always spelled: `import a as b`)
            aliased: Vec::new(),
        })
    }

    /// The classes deriving from a class, transitively (through aliases
    /// as the index follows bases), sorted.
    pub fn subclasses_of(&self, class: &str) -> Result<Vec<Definition>> {
        let (fid, defs) = self.symbol_from(class, None)?;
        let mut found: Vec<Definition> = defs
            .iter()
            .flat_map(|&def| self.derived_from(DefRef { file: fid, def }))
            .filter(|d| d.file != fid || !defs.contains(&d.def))
            .filter_map(|d| self.definition(d))
            .collect();
        found.sort_by(|a, b| {
            (&a.location.path, a.location.position).cmp(&(&b.location.path, b.location.position))
        });
        found.dedup();
        Ok(found)
    }

    /// Calls of a function, method or class.
    pub fn find_callers(&self, function: &str) -> Result<Callers> {
        self.find_callers_from(function, None)
    }

    /// [`Self::find_callers`] asked from a file (see
    /// [`Self::find_definition_from`]).
    pub fn find_callers_from(&self, function: &str, current: Option<&str>) -> Result<Callers> {
        let (definitions, certain, possible) =
            self.uses(function, true, current, &mut CallersMemo::default())?;
        Ok(Callers {
            definitions,
            certain,
            possible,
        })
    }

    /// [`Self::find_callers`] of one of many functions asked together:
    /// the same answer, with what the queries share kept in `memo` (see
    /// [`CallersMemo`]; one memo per index).
    pub fn find_callers_memo(&self, function: &str, memo: &mut CallersMemo) -> Result<Callers> {
        self.read_callers_memo(function, memo, Result::clone)
    }

    /// [`Self::find_callers_memo`]'s answer read where the memo keeps it,
    /// not copied (a walk asks thousands): `read`'s result.
    pub fn read_callers_memo<T>(
        &self,
        function: &str,
        memo: &mut CallersMemo,
        read: impl FnOnce(&Result<Callers>) -> T,
    ) -> T {
        memo.ask();
        if let Some(answer) = memo.callers(function) {
            return read(answer);
        }
        let answer =
            self.uses(function, true, None, memo)
                .map(|(definitions, certain, possible)| Callers {
                    definitions,
                    certain,
                    possible,
                });
        read(memo.keep_callers(function, answer))
    }

    #[allow(clippy::type_complexity)]
    fn uses(
        &self,
        symbol: &str,
        calls_only: bool,
        current: Option<&str>,
        memo: &mut CallersMemo,
    ) -> Result<(Vec<Definition>, Vec<Call>, Vec<Call>)> {
        let (fid, defs) = self.symbol_from_memo(symbol, self.file_id(current), Some(memo))?;
        let targets: Vec<DefRef> = defs.iter().map(|&def| DefRef { file: fid, def }).collect();
        let definitions: Vec<Definition> =
            targets.iter().filter_map(|&d| self.definition(d)).collect();
        let Some(file) = self.file(fid) else {
            return Ok((definitions, Vec::new(), Vec::new()));
        };
        let first = file.def(defs[0]);
        let name = file.name(first.name).to_string();
        let parent = first.parent.map(|p| DefRef { file: fid, def: p });
        let is_member = parent.is_some_and(|p| self.kind(p) == Some(SymbolKind::Class));
        // Classes whose `self.name` may dispatch to an override in `parent`.
        let overridden_in: Vec<DefRef> = match parent {
            Some(p) if is_member && first.kind == SymbolKind::Method => self.ancestors(p),
            _ => Vec::new(),
        };
        let mut certain = Vec::new();
        let mut possible = Vec::new();
        let naming: Vec<(FileId, &FileIndex)> = match memo.files_naming(self, &name) {
            Some(files) => files
                .iter()
                .filter_map(|&rid| Some((rid, self.file(rid)?)))
                .collect(),
            None => self.files_with(&name).collect(),
        };
        for (rid, f) in naming {
            let refs = f.refs_keyed(&name);
            if refs.is_empty() {
                continue;
            }
            let Some(path) = self.path(rid) else { continue };
            for r in refs {
                if calls_only && !r.is_call {
                    continue;
                }
                let verdict = match memo.resolve(self, rid, r.value) {
                    // with another project's definition of the name: a
                    // module several projects have (`projects.rs`)
                    Res::Defs(ds) if ds.iter().any(|d| targets.contains(d)) => {
                        Some(ds.iter().all(|d| {
                            targets.contains(d) || self.project(d.file) == self.project(fid)
                        }))
                    }
                    Res::Defs(ds)
                        if !overridden_in.is_empty()
                            && !f.is_super_attribute(r.value)
                            && ds.iter().any(|d| {
                                self.file(d.file)
                                    .and_then(|f| f.defs.get(d.def as usize))
                                    .and_then(|def| def.parent)
                                    .is_some_and(|p| {
                                        overridden_in.contains(&DefRef {
                                            file: d.file,
                                            def: p,
                                        })
                                    })
                            }) =>
                    {
                        Some(false)
                    }
                    Res::Possible if is_member => Some(false),
                    _ => None,
                };
                let Some(sure) = verdict else { continue };
                let call = Call {
                    location: Location {
                        path: path.to_string(),
                        position: r.position(),
                        end: r.end(),
                    },
                    caller: r.owner.map(|o| f.full_name(o)),
                };
                if sure {
                    certain.push(call);
                } else {
                    possible.push(call);
                }
            }
        }
        if calls_only && name == "__init__" && is_member {
            if let Some(class) = parent {
                certain.extend(self.constructions(class, &targets, memo));
            }
        }
        certain.sort();
        certain.dedup();
        possible.sort();
        possible.dedup();
        Ok((definitions, certain, possible))
    }

    /// Calls of `class` and of its project subclasses that inherit the
    /// `__init__` in `targets` (constructing them runs it).
    fn constructions(
        &self,
        class: DefRef,
        targets: &[DefRef],
        memo: &mut CallersMemo,
    ) -> Vec<Call> {
        let mut classes = vec![class];
        for c in memo.derived_classes(self) {
            if c == class {
                continue;
            }
            if let Res::Defs(ds) = memo.init_of(self, c) {
                if ds.iter().any(|d| targets.contains(d)) {
                    classes.push(c);
                }
            }
        }
        let mut calls = Vec::new();
        for c in classes {
            let Some(name) = self
                .file(c.file)
                .map(|f| f.name(f.def(c.def).name).to_string())
            else {
                continue;
            };
            let naming: Vec<(FileId, &FileIndex)> = match memo.files_naming(self, &name) {
                Some(files) => files
                    .iter()
                    .filter_map(|&rid| Some((rid, self.file(rid)?)))
                    .collect(),
                None => self.files_with(&name).collect(),
            };
            for (rid, f) in naming {
                for r in f.refs_keyed(&name).iter().filter(|r| r.is_call) {
                    if let Res::Defs(ds) = memo.resolve(self, rid, r.value) {
                        if ds.contains(&c) {
                            calls.push(Call {
                                location: Location {
                                    path: self.path(rid).unwrap_or_default().to_string(),
                                    position: r.position(),
                                    end: r.end(),
                                },
                                caller: r.owner.map(|o| f.full_name(o)),
                            });
                        }
                    }
                }
            }
        }
        calls
    }

    /// The module a query names: a module name or a workspace-relative path.
    /// A module name that several projects have is ambiguous: its files
    /// are offered.
    fn module_file(&self, module: &str) -> Result<FileId> {
        let m = module.trim();
        let files: Vec<FileId> = self.modules.all_files(m).collect();
        match files.as_slice() {
            [fid] => return Ok(*fid),
            [] => {}
            _ => {
                let paths: Vec<String> = files
                    .iter()
                    .filter_map(|&f| self.path(f).map(str::to_string))
                    .collect();
                return Err(IndexError::AmbiguousModule {
                    name: m.to_string(),
                    paths,
                });
            }
        }
        if let Some(&fid) = self.by_path.get(m.trim_start_matches("./")) {
            return Ok(fid);
        }
        // the modules of the package asked for, else all; close ones first
        let mut names: Vec<String> = self.modules.names().cloned().collect();
        names.sort_unstable();
        if let Some((package, _)) = m.rsplit_once('.') {
            let inside: Vec<String> = names
                .iter()
                .filter(|n| *n == package || n.starts_with(&format!("{package}.")))
                .cloned()
                .collect();
            if !inside.is_empty() {
                names = inside;
            }
        }
        let choices = Choices::ranked_dotted(m, names);
        let offered = if choices.is_empty() {
            "The index is empty".to_string()
        } else {
            format!("Modules: {choices}")
        };
        Err(IndexError::NotFound {
            kind: "module",
            name: m.to_string(),
            offered,
            choices: choices.shown,
        })
    }

    fn imports_of(&self, fid: FileId) -> Vec<Dependency> {
        let (Some(f), Some(path)) = (self.file(fid), self.path(fid)) else {
            return Vec::new();
        };
        let mut out: Vec<Dependency> = Vec::new();
        for imp in &f.imports {
            if imp.module.is_empty() {
                continue;
            }
            let module = match (&imp.kind, &imp.name) {
                (ImportKind::From, Some(name)) if self.is_project_module(&imp.module) => {
                    let sub = format!("{}.{}", imp.module, name);
                    if self.modules.all_files(&sub).next().is_some() {
                        sub
                    } else {
                        imp.module.clone()
                    }
                }
                _ => imp.module.clone(),
            };
            if module == f.module || out.iter().any(|d| d.module == module) {
                continue;
            }
            // the file of its own project's module, else of the one other
            let target = self
                .module_from(fid, &module)
                .and_then(|m| self.module_file_of(&m))
                .and_then(|t| self.path(t));
            out.push(Dependency {
                path: target.map(str::to_string),
                module,
                at: Location::point(path.to_string(), imp.position),
            });
        }
        out
    }

    /// Where `f` first imports `module` (the same rules as `imports_of`,
    /// without allocating).
    fn first_import_of(&self, f: &super::FileIndex, module: &str) -> Option<Position> {
        f.imports.iter().find_map(|imp| {
            let hit = match (&imp.kind, &imp.name) {
                (ImportKind::From, Some(name)) => {
                    let is_sub = module
                        .strip_prefix(imp.module.as_str())
                        .and_then(|r| r.strip_prefix('.'))
                        == Some(name.as_str());
                    is_sub
                        || (imp.module == module
                            && self
                                .modules
                                .all_files(&format!("{module}.{name}"))
                                .next()
                                .is_none())
                }
                _ => imp.module == module,
            };
            hit.then_some(imp.position)
        })
    }

    /// The modules a module imports (by module name or path), in source order.
    pub fn dependencies(&self, module: &str) -> Result<Vec<Dependency>> {
        let fid = self.module_file(module)?;
        Ok(self.imports_of(fid))
    }

    /// The project modules that import a module; `at` is where each imports it.
    pub fn dependents(&self, module: &str) -> Result<Vec<Dependency>> {
        let fid = self.module_file(module)?;
        let Some(name) = self.file(fid).map(|f| f.module.clone()) else {
            return Ok(Vec::new());
        };
        let project = self.project(fid);
        let mut out = Vec::new();
        for (other, f) in self.iter_files() {
            if other == fid {
                continue;
            }
            // an import that finds another project's module of the name
            // is not one of this file's
            let finds_it = self
                .module_from(other, &name)
                .is_some_and(|m| m.project.is_none() || m.project.as_ref() == project);
            if !finds_it {
                continue;
            }
            if let Some(position) = self.first_import_of(f, &name) {
                out.push(Dependency {
                    module: f.module.clone(),
                    path: self.path(other).map(str::to_string),
                    at: Location::point(self.path(other).unwrap_or_default().to_string(), position),
                });
            }
        }
        out.sort_by(|a, b| a.module.cmp(&b.module));
        Ok(out)
    }
}
