//! What a rename asks of the index: the one symbol a name denotes (looked
//! up in the current file first), the members of a class hierarchy that
//! are one method (overrides and what they override), and every site that
//! names them — references, `from m import f` names, `__all__` strings and
//! rebinding targets ([`FileIndex::sites`](super::FileIndex)).
//!
//! A site is *certain* when it resolves to the renamed definitions only,
//! *possible* when it may be one of them and the index cannot tell (an
//! attribute of a value of unknown type, a name bound to the symbol in one
//! branch and to something else in another).
//!
//! An attribute `x.name` is a member's site when the index knows `x`'s
//! class ([`resolve`](super::resolve)): `self`/`cls`, a call of a class or
//! of a function that returns one (annotated `-> C`, `Optional[C]`, `"C"`,
//! or inferred from its `return`s), an annotation or a type comment, an
//! `isinstance`/`issubclass` test that holds, an instance attribute its
//! class assigns values of known classes (a copy of itself included), an
//! item or value of a typed collection or mapping (`for x in xs`, `xs[0]`,
//! `d.values()`, `d.items()`), `with … as x`, `except E as x`, `super()`,
//! `copy.copy(x)`, and a pytest test's fixture parameter (the fixture of
//! its name). Any other receiver leaves the site possible.

use super::builtin_classes;
use super::error::Result;
use super::file::{DefId, ImportKind, Ref, Value, ValueId};
use super::query::Location;
use super::resolve::{DefRef, Res};
pub use super::subclasses::Subclasses;
use super::{IndexError, ProjectIndex};
use crate::analysis::outline::SymbolKind;
use crate::edit::Position;

/// One definition, as a rename reports and checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefInfo {
    pub def: DefRef,
    pub path: String,
    /// `module.Class.method`.
    pub full_name: String,
    pub name: String,
    pub kind: SymbolKind,
    /// The name's range (one line).
    pub name_location: Location,
    /// The enclosing class or function.
    pub parent: Option<DefRef>,
}

/// The sites of a set of definitions, sorted by path and position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenameSites {
    pub certain: Vec<Location>,
    /// With why the index cannot prove them.
    pub possible: Vec<(Location, Doubt)>,
}

/// Why the index cannot prove a site is the renamed symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Doubt {
    /// `x.name` where the index does not know what `x` is: the site is
    /// the symbol unless another class has a member of that name.
    UnknownReceiver,
    /// An attribute of a value that may be an instance of the member's
    /// class or of another class with a member of that name.
    AnotherDefinition,
    /// A name bound to the symbol on one path and to another definition on
    /// another (`try: from fast import parse` / `except: from slow import
    /// parse`): the module binding it keeps the name when it is rebound
    /// ([`ProjectIndex::rebound_imports`]).
    AnotherBinding,
}

impl Doubt {
    pub fn why(self) -> &'static str {
        match self {
            Doubt::UnknownReceiver => "an attribute of a value of unknown type",
            Doubt::AnotherDefinition | Doubt::AnotherBinding => {
                "it may also denote another definition"
            }
        }
    }
}

/// A module that imports a renamed symbol under its own name and binds
/// that name otherwise too (`from ._parser import _timelex` … `_timelex =
/// deprecated(_timelex)`): what the module's name denotes is not the
/// symbol alone, so the name stays and the import takes an alias
/// (`from ._parser import _new as _timelex`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReboundImport {
    pub path: String,
    /// The imported names (`Old` in `from m import Old`): each becomes
    /// `New as Old`.
    pub imports: Vec<Position>,
    /// The module's uses of its own binding of the name (and an `as Old`
    /// of the import), which keep the name.
    pub uses: Vec<Position>,
}

impl ProjectIndex {
    /// The one symbol `query` names (plain, dotted or fully qualified):
    /// among the definitions of `current` (a workspace path) whose
    /// qualified name is `query` or ends with `.query` first, else in the
    /// whole project ([`ProjectIndex::find_definition`]'s rules; of the
    /// symbols of several projects, those of `current`'s project). All its
    /// definitions (a property and its setter share a name).
    pub fn rename_symbol(&self, query: &str, current: Option<&str>) -> Result<Vec<DefRef>> {
        let q = query.trim();
        let current = current.and_then(|p| self.by_path.get(p.trim_start_matches("./")));
        if let Some(fid) = current {
            if let Some(f) = self.file(*fid) {
                let last = q.rsplit('.').next().unwrap_or(q);
                let suffix = format!(".{q}");
                let mut groups: std::collections::BTreeMap<String, Vec<DefId>> = Default::default();
                for &d in f.defs_named(last) {
                    let def = f.def(d);
                    if def.qualified == q || def.qualified.ends_with(&suffix) || f.full_name(d) == q
                    {
                        groups.entry(def.qualified.clone()).or_default().push(d);
                    }
                }
                if groups.len() > 1 {
                    if let Some(exact) = groups.remove(q) {
                        groups = [(q.to_string(), exact)].into_iter().collect();
                    }
                }
                match groups.len() {
                    0 => {}
                    1 => {
                        let defs = groups.into_values().next().unwrap_or_default();
                        return Ok(defs
                            .into_iter()
                            .map(|def| DefRef { file: *fid, def })
                            .collect());
                    }
                    _ => {
                        return Err(IndexError::Ambiguous {
                            name: q.to_string(),
                            candidates: self.candidates(
                                groups
                                    .into_values()
                                    .map(|defs| {
                                        let full = f.full_name(defs[0]);
                                        (full, (*fid, defs))
                                    })
                                    .collect(),
                            ),
                        })
                    }
                }
            }
        }
        let (fid, defs) = self.symbol_from(q, current.copied())?;
        Ok(defs
            .into_iter()
            .map(|def| DefRef { file: fid, def })
            .collect())
    }

    /// A definition's names and place.
    pub fn def_info(&self, d: DefRef) -> Option<DefInfo> {
        let f = self.file(d.file)?;
        let def = f.defs.get(d.def as usize)?;
        let name = f.name(def.name).to_string();
        let path = self.path(d.file)?.to_string();
        let start = def.name_position;
        let end = Position::new(start.line, start.col + name.chars().count());
        Some(DefInfo {
            def: d,
            full_name: f.full_name(d.def),
            kind: def.kind,
            name_location: Location {
                path: path.clone(),
                position: start,
                end,
            },
            path,
            name,
            parent: def.parent.map(|p| DefRef {
                file: d.file,
                def: p,
            }),
        })
    }

    /// Whether `module_path`'s module binds `name` at module level, and
    /// where when a definition or import shows it.
    pub fn module_binds(&self, module_path: &str, name: &str) -> Option<Position> {
        let f = self.file(*self.by_path.get(module_path)?)?;
        f.exports.get(name)?;
        let def = f
            .defs_named(name)
            .iter()
            .map(|&d| f.def(d))
            .find(|d| d.parent.is_none())
            .map(|d| d.name_position);
        Some(def.unwrap_or_else(|| {
            f.imports
                .iter()
                .find(|i| i.name.as_deref() == Some(name) || i.module == name)
                .map(|i| i.position)
                .unwrap_or_default()
        }))
    }

    /// The members named `name` that `class` has, its own or inherited
    /// from project bases (the first class of the lookup that defines it).
    pub fn members_named(&self, class: DefRef, name: &str) -> Vec<DefRef> {
        match self.class_member(&[class], name, 0) {
            Res::Defs(defs) => defs,
            _ => Vec::new(),
        }
    }

    /// The members that are one method (or attribute) with `members`: for
    /// each member of a class, the same-named members of the project
    /// classes it derives from and of those that derive from it,
    /// transitively (an override, what it overrides, and the siblings
    /// that override that too). `members` themselves included.
    pub fn hierarchy_of(&self, members: &[DefRef], subclasses: &Subclasses) -> Vec<DefRef> {
        let mut out: Vec<DefRef> = members.to_vec();
        let Some(first) = members.first().and_then(|&d| self.def_info(d)) else {
            return out;
        };
        let classes: Vec<DefRef> = members
            .iter()
            .filter_map(|&d| self.def_info(d)?.parent)
            .filter(|&p| self.kind(p) == Some(SymbolKind::Class))
            .collect();
        if classes.is_empty() {
            return out;
        }
        // Only a class with a member of the name can join: found by the
        // name, then each tested against the classes reached.
        let owners = self.classes_owning(&first.name);
        let mut done: Vec<DefRef> = Vec::new();
        let mut queue = classes;
        while let Some(c) = queue.pop() {
            if done.contains(&c) {
                continue;
            }
            done.push(c);
            let ancestors = self.ancestors(c);
            // its ancestors, its subclasses, and theirs: a mixin beside it
            // in a subclass's bases (`class URLSafeTimed(URLSafeMixin,
            // Timed)`) overrides its member for that subclass
            for &k in &owners {
                if k == c || done.contains(&k) || queue.contains(&k) {
                    continue;
                }
                if ancestors.contains(&k)
                    || self.ancestors(k).contains(&c)
                    || subclasses.share_a_subclass(c, k)
                {
                    queue.push(k);
                }
            }
        }
        for c in done {
            for m in self.own_members(c, &first.name) {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out.sort();
        out
    }

    /// The project classes `classes` derive from, transitively.
    pub fn project_ancestors(&self, classes: &[DefRef]) -> Vec<DefRef> {
        let mut out: Vec<DefRef> = classes.iter().flat_map(|&c| self.ancestors(c)).collect();
        out.sort();
        out.dedup();
        out
    }

    /// The classes of `classes` whose bases include one the index cannot
    /// follow (outside the project, or not a class it knows) and that may
    /// define or call `member` too. A builtin base (`object`, `dict`,
    /// `Exception`) is known: only one of its own members counts.
    pub fn with_unknown_bases(&self, classes: &[DefRef], member: &str) -> Vec<DefRef> {
        let mut out = Vec::new();
        for &c in classes {
            let Some(f) = self.file(c.file) else { continue };
            let Some(def) = f.defs.get(c.def as usize) else {
                continue;
            };
            let unknown = def
                .bases
                .iter()
                .any(|&b| match self.resolve_base(c.file, b, 0) {
                    Res::Defs(ds) => !ds.iter().any(|d| self.kind(*d) == Some(SymbolKind::Class)),
                    Res::Unknown => match self
                        .builtin_name(c.file, b)
                        .and_then(builtin_classes::members)
                    {
                        Some(members) => members.contains(&member),
                        None => true,
                    },
                    // a standard-library base the tables know (`abc.ABC`,
                    // `collections.abc.Mapping`): only its own members count
                    Res::External => {
                        let name = f.dotted_name(b);
                        let name = name.as_deref().unwrap_or_default();
                        match builtin_classes::stdlib_members(name) {
                            Some(members) => {
                                members.contains(&member)
                                    || builtin_classes::dispatched_prefixes(name)
                                        .iter()
                                        .any(|prefix| member.starts_with(prefix))
                            }
                            None => true,
                        }
                    }
                    _ => true,
                });
            if unknown {
                out.push(c);
            }
        }
        out
    }

    /// A class of `classes` with a base outside the project that is known
    /// to define `member` (a builtin's or a standard-library class's own
    /// member, e.g. `dict.get`, `MutableMapping.pop`, `Thread.run`): the
    /// class and the base's name. Renaming the override would leave the
    /// base's member under the old name, which the base's own code and
    /// every caller through it call.
    /// The project classes between them and the base count too (`class
    /// LRU(Cache)` where `Cache(MutableMapping)` does not define `popitem`).
    pub fn overrides_outside(&self, classes: &[DefRef], member: &str) -> Option<(DefRef, String)> {
        // (class, the class of `classes` it is an ancestor of)
        // breadth first: a class's own bases before its ancestors'
        let mut todo: std::collections::VecDeque<(DefRef, DefRef)> =
            classes.iter().map(|&c| (c, c)).collect();
        let mut seen: Vec<DefRef> = Vec::new();
        while let Some((c, overriding)) = todo.pop_front() {
            if seen.contains(&c) || seen.len() > 256 {
                continue;
            }
            seen.push(c);
            let Some(f) = self.file(c.file) else { continue };
            let Some(def) = f.defs.get(c.def as usize) else {
                continue;
            };
            for &b in &def.bases {
                let name = match self.resolve_base(c.file, b, 0) {
                    Res::External => f.dotted_name(b),
                    Res::Unknown => self.builtin_name(c.file, b).map(str::to_string),
                    Res::Defs(ds) => {
                        todo.extend(
                            ds.into_iter()
                                .filter(|d| self.kind(*d) == Some(SymbolKind::Class))
                                .map(|d| (d, overriding)),
                        );
                        None
                    }
                    _ => None,
                };
                let Some(name) = name else { continue };
                let members = builtin_classes::members(&name)
                    .or_else(|| builtin_classes::stdlib_members(&name));
                if members.is_some_and(|m| m.contains(&member)) {
                    return Some((overriding, name));
                }
            }
        }
        None
    }

    /// Where an import binds the same module-level name as the definition
    /// `def` (`try: import wcwidth` / `except ImportError: wcwidth = None`,
    /// or a fallback `class`): renaming the definition would leave the
    /// import's binding.
    pub fn import_binding(&self, def: DefRef) -> Option<Position> {
        let f = self.file(def.file)?;
        let d = f.defs.get(def.def as usize)?;
        if d.parent.is_some() {
            return None;
        }
        let name = f.name(d.name);
        let Value::Union { start, len } = f.value(*f.exports.get(name)?) else {
            return None;
        };
        let bound = f.union(start, len).iter().find_map(|&v| match f.value(v) {
            Value::Module(m) => Some((f.name(m), None)),
            Value::Member { module, name } => Some((f.name(module), Some(f.name(name)))),
            _ => None,
        })?;
        let import = f.imports.iter().find(|i| match (i.kind, bound) {
            (ImportKind::Module, (module, None)) => i.module == module,
            (ImportKind::From, (module, Some(name))) => {
                i.module == module && i.name.as_deref() == Some(name)
            }
            _ => false,
        });
        Some(import.map_or(d.name_position, |i| i.position))
    }

    /// The modules whose module-level name `name` is bound both by an
    /// import of `targets` and by something else ([`ReboundImport`]).
    pub fn rebound_imports(&self, targets: &[DefRef], name: &str) -> Vec<ReboundImport> {
        let is_target = |fid, v| {
            matches!(self.resolve(fid, v, 0),
                Res::Defs(ds) if !ds.is_empty() && ds.iter().all(|d| targets.contains(d)))
        };
        let mut out = Vec::new();
        for (fid, f) in self.files_with(name) {
            let Some(&bound) = f.exports.get(name) else {
                continue;
            };
            let Value::Union { start, len } = f.value(bound) else {
                continue;
            };
            let members = f.union(start, len);
            let imports: Vec<ValueId> = members
                .iter()
                .copied()
                .filter(|&v| {
                    matches!(f.value(v), Value::Member { name: n, .. } if f.name(n) == name)
                        && is_target(fid, v)
                })
                .collect();
            if imports.is_empty() || members.iter().all(|v| imports.contains(v)) {
                continue;
            }
            let Some(path) = self.path(fid) else { continue };
            let uses_binding = |r: &&Ref| match f.value(r.value) {
                Value::Same(v) => v == bound,
                _ => false,
            };
            let mut uses: Vec<Position> = f
                .refs_keyed(name)
                .iter()
                .chain(f.sites_keyed(name))
                .filter(uses_binding)
                .map(Ref::position)
                .collect();
            // `from m import Old as Old`: the alias is a site of the import
            uses.extend(
                f.sites_keyed(name)
                    .iter()
                    .filter(|r| imports.contains(&r.value))
                    .map(Ref::position),
            );
            uses.sort();
            out.push(ReboundImport {
                path: path.to_string(),
                imports: f
                    .refs_keyed(name)
                    .iter()
                    .filter(|r| imports.contains(&r.value))
                    .map(Ref::position)
                    .collect(),
                uses,
            });
        }
        out
    }

    /// The family of a member widened through the classes that use it on
    /// `self` without defining or inheriting it (a mixin, an abstract
    /// base): when a class deriving from such a class finds the member in
    /// `family`, the class's `self.name` uses are sites of the family, and
    /// what its other subclasses find is one member with it (one call
    /// reaches them all: `_LazyDescr.__get__` calls `self._resolve()` of
    /// `MovedModule` and `MovedAttribute`). A class with a subclass that
    /// may get the member from outside the project is left as it is.
    /// Returns the widened family and those `self.name` sites.
    pub fn through_subclasses(
        &self,
        mut family: Vec<DefRef>,
        name: &str,
        tree: &Subclasses,
    ) -> (Vec<DefRef>, Vec<Location>) {
        let users = self.left_to_subclasses(name);
        let mut taken = vec![false; users.len()];
        let mut sites = Vec::new();
        loop {
            let mut grew = false;
            for (i, (class, uses)) in users.iter().enumerate() {
                if taken[i] {
                    continue;
                }
                let mut reached = Vec::new();
                let mut outside = false;
                for sub in tree.of(*class) {
                    let found = self.members_named(sub, name);
                    if found.is_empty() && !self.with_unknown_bases(&[sub], name).is_empty() {
                        outside = true;
                    }
                    reached.extend(found);
                }
                if outside || !reached.iter().any(|d| family.contains(d)) {
                    continue;
                }
                taken[i] = true;
                sites.extend(uses.iter().cloned());
                for d in reached {
                    if !family.contains(&d) {
                        family.push(d);
                        grew = true;
                    }
                }
            }
            if !grew {
                break;
            }
            family = self.hierarchy_of(&family, tree);
        }
        family.sort();
        sites.sort();
        sites.dedup();
        (family, sites)
    }

    /// The classes using `self.name` (or `cls.name`) in their methods
    /// whose lookup does not find `name` among project classes, with
    /// those uses.
    fn left_to_subclasses(&self, name: &str) -> Vec<(DefRef, Vec<Location>)> {
        let mut out: Vec<(DefRef, Vec<Location>)> = Vec::new();
        for (fid, f) in self.files_with(name) {
            let Some(path) = self.path(fid) else { continue };
            for r in f.refs_keyed(name) {
                let Value::Attr { base, .. } = f.value(r.value) else {
                    continue;
                };
                let Some(def) = f.self_class(base) else {
                    continue;
                };
                let class = DefRef { file: fid, def };
                if !matches!(self.class_member(&[class], name, 0), Res::Possible)
                    || !self.with_unknown_bases(&[class], name).is_empty()
                {
                    continue;
                }
                let site = Location {
                    path: path.to_string(),
                    position: r.position(),
                    end: r.end(),
                };
                match out.iter_mut().find(|(c, _)| *c == class) {
                    Some((_, uses)) => uses.push(site),
                    None => out.push((class, vec![site])),
                }
            }
        }
        out
    }

    /// What a dotted name (`Old`, `m.Old`, `pkg.mod.C.m`) written in
    /// `path`'s module-level code denotes: its first part is a name the
    /// module binds, else the longest prefix that is a project module.
    /// Only definitions count (empty otherwise).
    pub fn resolve_dotted_in(&self, path: &str, dotted: &str) -> Vec<DefRef> {
        let Some(&fid) = self.by_path.get(path) else {
            return Vec::new();
        };
        let Some(f) = self.file(fid) else {
            return Vec::new();
        };
        let parts: Vec<&str> = dotted.split('.').collect();
        let (mut res, rest) = match f.exports.get(parts[0]) {
            Some(&v) => (self.resolve(fid, v, 0), &parts[1..]),
            None => {
                let Some((n, module)) = (1..parts.len())
                    .rev()
                    .find_map(|n| Some((n, self.module_from(fid, &parts[..n].join("."))?)))
                else {
                    return Vec::new();
                };
                (Res::Module(module), &parts[n..])
            }
        };
        for part in rest {
            res = self.attribute(res, part, 0);
        }
        match res {
            Res::Defs(defs) => defs,
            _ => Vec::new(),
        }
    }

    /// `class`'s own members named `name`.
    pub(crate) fn own_members(&self, class: DefRef, name: &str) -> Vec<DefRef> {
        let Some(f) = self.file(class.file) else {
            return Vec::new();
        };
        f.members
            .get(&class.def)
            .into_iter()
            .flatten()
            .filter(|&&m| f.name(f.def(m).name) == name)
            .map(|&m| DefRef {
                file: class.file,
                def: m,
            })
            .collect()
    }

    /// Whether any file of the project reads the name `name` (as a name or
    /// an attribute): the project uses what it names.
    pub fn is_referenced(&self, name: &str) -> bool {
        self.files_with(name)
            .any(|(_, f)| !f.refs_keyed(name).is_empty())
    }

    /// Which project classes derive from which, looked for as a rename
    /// asks (see [`Subclasses`]).
    pub fn subclasses(&self) -> Subclasses<'_> {
        Subclasses::new(self)
    }

    /// Every site naming `targets` (definitions sharing the name `name`),
    /// definition sites excluded. `member`: the targets are class members,
    /// so an attribute of a value of unknown type with that name is a
    /// possible site.
    pub fn rename_sites(&self, targets: &[DefRef], name: &str, member: bool) -> RenameSites {
        let mut sites = RenameSites::default();
        for (fid, f) in self.files_with(name) {
            let refs: Vec<&Ref> = f
                .refs_keyed(name)
                .iter()
                .chain(f.sites_keyed(name))
                .collect();
            if refs.is_empty() {
                continue;
            }
            let Some(path) = self.path(fid) else { continue };
            for r in refs {
                if holds_an_attribute(f, r) {
                    continue;
                }
                let location = || Location {
                    path: path.to_string(),
                    position: r.position(),
                    end: r.end(),
                };
                // `super().name` in a method of a class whose own `name` is
                // renamed: a mixin's cooperative call, which reaches the
                // next class of the family in the subclass's order
                if member && f.is_super_attribute(r.value) {
                    let class = r.owner.and_then(|m| f.defs.get(m as usize)?.parent);
                    let in_family = class.is_some_and(|c| {
                        targets.iter().any(|t| {
                            t.file == fid
                                && f.defs
                                    .get(t.def as usize)
                                    .is_some_and(|d| d.parent == Some(c))
                        })
                    });
                    if in_family {
                        sites.certain.push(location());
                        continue;
                    }
                }
                match self.resolve(fid, r.value, 0) {
                    Res::Defs(ds) if ds.iter().all(|d| targets.contains(d)) => {
                        sites.certain.push(location())
                    }
                    Res::Defs(ds) if ds.iter().any(|d| targets.contains(d)) => {
                        let doubt = match f.value(r.value) {
                            Value::Attr { .. } => Doubt::AnotherDefinition,
                            _ => Doubt::AnotherBinding,
                        };
                        sites.possible.push((location(), doubt))
                    }
                    Res::Possible if member => {
                        sites.possible.push((location(), Doubt::UnknownReceiver))
                    }
                    _ => {}
                }
            }
        }
        sites.certain.sort();
        sites.certain.dedup();
        sites.possible.sort();
        sites.possible.dedup();
        sites
    }
}

/// A name whose binding is a variable holding an attribute (`func =
/// self.func`, `reverse = urls.reverse`): the variable is a symbol of its
/// own that happens to hold the renamed one, and keeps its name.
fn holds_an_attribute(f: &super::FileIndex, r: &Ref) -> bool {
    matches!(f.value(r.value), Value::Same(_))
        && matches!(f.value(f.through_same(r.value)), Value::Attr { .. })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(files: &[(&str, &str)]) -> ProjectIndex {
        ProjectIndex::of_texts(files)
    }

    fn names(index: &ProjectIndex, defs: &[DefRef]) -> Vec<String> {
        defs.iter()
            .filter_map(|&d| index.def_info(d))
            .map(|d| d.full_name)
            .collect()
    }

    fn certain(sites: &RenameSites) -> Vec<String> {
        sites.certain.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn dunder_all_strings_and_rebinding_targets_are_sites_not_references() {
        let index = project(&[
            (
                "m.py",
                "__all__ = ['f', \"n\"]\nn = 0\n\n\ndef f():\n    global n\n    n = 1\n\n\nfor n in range(2):\n    pass\n",
            ),
            ("u.py", "from m import f as f\n"),
        ]);
        let defs = index.rename_symbol("m.f", None).unwrap();
        assert_eq!(
            certain(&index.rename_sites(&defs, "f", false)),
            vec!["m.py:0:12", "u.py:0:14", "u.py:0:19"]
        );
        let n = index.rename_symbol("m.n", None).unwrap();
        assert_eq!(
            certain(&index.rename_sites(&n, "n", false)),
            vec!["m.py:0:17", "m.py:5:11", "m.py:6:4", "m.py:9:4"]
        );
        // Find References keeps to uses that read the name
        let refs = index.find_references("m.n").unwrap();
        assert_eq!(
            refs.certain
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>(),
            vec!["m.py:5:11"]
        );
    }

    #[test]
    fn calling_a_function_annotated_with_a_class_or_returning_one_gives_an_instance() {
        let index = project(&[(
            "m.py",
            "class C:\n    def m(self):\n        pass\n\n\ndef make() -> C:\n    return C()\n\n\ndef untyped():\n    return C()\n\n\ndef mixed(x):\n    if x:\n        return C()\n    return x\n\n\nmake().m()\nuntyped().m()\nmixed(1).m()\n",
        )]);
        let refs = index.find_references("C.m").unwrap();
        let shown = |ls: &[Location]| ls.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        assert_eq!(shown(&refs.certain), vec!["m.py:19:7", "m.py:20:10"]);
        assert_eq!(shown(&refs.possible), vec!["m.py:21:9"]);
    }

    #[test]
    fn a_methods_hierarchy_holds_what_it_overrides_its_overrides_and_siblings() {
        let index = project(&[
            (
                "a.py",
                "class Base:\n    def run(self):\n        pass\n\n\nclass Mid(Base):\n    pass\n\n\nclass Other:\n    def run(self):\n        pass\n",
            ),
            (
                "b.py",
                "from a import Mid, Base\n\n\nclass Left(Mid):\n    def run(self):\n        pass\n\n\nclass Right(Base):\n    def run(self):\n        pass\n",
            ),
        ]);
        let tree = index.subclasses();
        let left = index.rename_symbol("Left.run", None).unwrap();
        assert_eq!(
            names(&index, &index.hierarchy_of(&left, &tree)),
            vec!["a.Base.run", "b.Left.run", "b.Right.run"]
        );
        let base = index.rename_symbol("a.Base", None).unwrap();
        assert_eq!(
            names(&index, &tree.of(base[0])),
            vec!["a.Mid", "b.Left", "b.Right"]
        );
    }

    #[test]
    fn the_current_file_is_looked_up_first() {
        let index = project(&[
            ("a.py", "def f():\n    pass\n"),
            ("b.py", "class K:\n    def f(self):\n        pass\n"),
        ]);
        assert!(matches!(
            index.rename_symbol("f", None),
            Err(IndexError::Ambiguous { .. })
        ));
        let found = index.rename_symbol("f", Some("b.py")).unwrap();
        assert_eq!(names(&index, &found), vec!["b.K.f"]);
        assert_eq!(
            index.resolve_dotted_in("b.py", "K.f"),
            found,
            "a dotted name of the module's globals"
        );
        assert_eq!(index.module_binds("b.py", "K"), Some(Position::new(0, 6)));
    }
}
