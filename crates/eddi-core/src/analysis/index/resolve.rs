//! Cross-module resolution: what a file's symbolic [`Value`] denotes in the
//! whole project, computed at query time.
//!
//! * A module name is found in the importing file's own project first,
//!   then in the others (`projects.rs`); a module several other projects
//!   have is any of theirs, and its members are the union of theirs.
//! * A module member (`from m import f`, `m.f` after `import m`) is looked up
//!   in `m`'s module-level bindings, following re-exports (`from .a import f`
//!   in a package's `__init__`), then submodules (`m.f` as a module), then
//!   `m`'s star imports. Modules outside the project are external.
//! * `super()` in a method is an instance of the class's project bases.
//! * A variable with one definition (`x = C()`, `Alias = C`, module or class
//!   level) stands for its value when its attributes are read or it is called.
//!   An annotation gives the value (`x: C`, `e: C` for a parameter,
//!   `Optional[C]`, `C | None`, `"C"`: an instance of `C`), and so does the
//!   one value a class's methods assign to `self.x` (`None` beside it
//!   counts as unset; two different values type nothing).
//! * A name bound to a placeholder (`x = None`, a variable holding nothing
//!   the index follows) and to something else (`global x; x = C()` or an
//!   import in a function): its attributes are the something else's.
//! * `isinstance(x, C)` makes `x` an instance of `C` where it holds (the
//!   rest of an `and`, an `if` body, the block after a `not isinstance`
//!   guard that returns or raises); `issubclass(x, C)` makes `x` the class.
//! * An attribute its class's methods assign several values is one of
//!   them ([`Value::OneOf`]): typed when every one is (their classes
//!   together). A declared type (`self.x: C`, `# type: C`) is the only one.
//! * `copy.copy(x)` and `copy.deepcopy(x)` are of `x`'s type.
//! * A bare parameter of a pytest test or fixture is what the fixture of
//!   its name returns, found as pytest finds it (`fixtures`).
//! * Star imports bind the names of a literal `__all__`, else every name not
//!   starting with `_`.
//! * A name unbound at module level is looked up in the file's star imports;
//!   otherwise it is a builtin or undefined and denotes nothing.
//! * `C.m`, `C().m`, `self.m`/`cls.m` look `m` up in `C`, then in its project
//!   base classes depth-first (an approximation of the C3 MRO that agrees
//!   with it for single inheritance). The first class that defines `m` wins.
//! * Calling a function annotated `-> C` (a name or dotted name of a
//!   project class) gives an instance of `C`; so does calling one without
//!   an annotation whose every `return` gives an instance of `C`
//!   (`return C(…)`, `return self`, `return cls(…)`; not a generator or an
//!   `async` function).
//! * An attribute of something the index cannot type (a parameter, a local,
//!   a function's result, a module variable, a class whose bases are external)
//!   is *possible*: it may be any class member of that name.
//!
//! Resolution is bounded by [`MAX_DEPTH`] steps so import cycles end, and
//! by [`MAX_STEPS`] in all its branches together, so that a chain of
//! unions and attributes that branches at every level ends too; a
//! resolution that runs out of either gives "unknown", never a guess.

use std::cell::Cell;

use super::file::{DefId, Value, ValueId};
use super::projects::ModuleRef;
use super::{FileId, ProjectIndex};
use crate::analysis::outline::SymbolKind;
use crate::analysis::scope::is_builtin;

/// Resolution steps before giving up (cycles in re-exports).
pub const MAX_DEPTH: usize = 24;

/// The steps one resolution may take, all its branches together. The
/// depth bound alone let a value that is a union of attributes of unions
/// take 2^24 steps (found by fuzzing); the resolutions of real projects
/// take a few dozen.
pub const MAX_STEPS: usize = 20_000;

thread_local! {
    /// Steps left to the outermost resolution running on this thread;
    /// `None` when none runs.
    static STEPS_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The outermost resolution's hold on [`STEPS_LEFT`]: gives it back when
/// the resolution ends, however it ends.
struct Budget;

impl Drop for Budget {
    fn drop(&mut self) {
        STEPS_LEFT.set(None);
    }
}

/// Takes one step: `None` when the budget is spent; the outermost call
/// gets the [`Budget`] it must hold while it runs.
fn step() -> Option<Option<Budget>> {
    match STEPS_LEFT.get() {
        None => {
            STEPS_LEFT.set(Some(MAX_STEPS));
            Some(Some(Budget))
        }
        Some(0) => None,
        Some(left) => {
            STEPS_LEFT.set(Some(left - 1));
            Some(None)
        }
    }
}

/// A definition in the project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefRef {
    pub file: FileId,
    pub def: DefId,
}

/// What a value denotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Res {
    /// Definitions (the value *is* one of them).
    Defs(Vec<DefRef>),
    /// An instance of one of these classes.
    Instance(Vec<DefRef>),
    /// A collection (a list, a set…) of instances of these classes.
    Items(Vec<DefRef>),
    /// A mapping (a dict…) whose values are instances of these classes.
    Mapping(Vec<DefRef>),
    /// A module of the project (of one of its projects).
    Module(ModuleRef),
    /// Something from outside the project.
    External,
    /// An attribute of a value the index cannot type.
    Possible,
    /// A local, literal, builtin or undefined name.
    Unknown,
}

impl ProjectIndex {
    pub(crate) fn resolve(&self, file: FileId, value: ValueId, depth: usize) -> Res {
        let Some(_budget) = step() else {
            return Res::Unknown;
        };
        if depth > MAX_DEPTH {
            return Res::Unknown;
        }
        let Some(f) = self.file(file) else {
            return Res::Unknown;
        };
        match f.value(value) {
            Value::Unknown => Res::Unknown,
            Value::Def(def) => Res::Defs(vec![DefRef { file, def }]),
            Value::Module(m) => self.module_res(file, f.name(m)),
            Value::Member { module, name } => {
                self.member_from(file, f.name(module), f.name(name), depth + 1)
            }
            Value::Free(name) => {
                let name = f.name(name);
                for star in &f.stars {
                    let Some(star) = self.module_from(file, star) else {
                        continue;
                    };
                    if !self.star_exports(&star, name) {
                        continue;
                    }
                    match self.module_member(&star, name, depth + 1) {
                        Res::Unknown | Res::External => continue,
                        r => return r,
                    }
                }
                self.imported_submodule(file, name).unwrap_or(Res::Unknown)
            }
            Value::Attr { base, name } => {
                if let Some(r) = self.attribute_of_union(file, base, f.name(name), depth + 1) {
                    return r;
                }
                let base = self.resolve(file, base, depth + 1);
                self.attribute(base, f.name(name), depth + 1)
            }
            Value::Call(callee) => self.call(file, callee, depth + 1),
            Value::SelfOf(def) => Res::Instance(vec![DefRef { file, def }]),
            Value::Super(def) => Res::Instance(self.bases_of(DefRef { file, def }, depth + 1)),
            Value::SuperOf(class) => match self.resolve_base(file, class, depth + 1) {
                Res::Defs(defs) => {
                    let mut bases = Vec::new();
                    for d in defs {
                        if self.kind(d) == Some(SymbolKind::Class) {
                            bases.extend(self.bases_of(d, depth + 1));
                        }
                    }
                    Res::Instance(bases)
                }
                Res::External => Res::External,
                _ => Res::Unknown,
            },
            Value::Same(v) => self.resolve(file, v, depth + 1),
            Value::Items(item) => match self.resolve(file, item, depth + 1) {
                Res::Instance(classes) => Res::Items(classes),
                _ => Res::Unknown,
            },
            Value::Values(item) => match self.resolve(file, item, depth + 1) {
                Res::Instance(classes) => Res::Mapping(classes),
                _ => Res::Unknown,
            },
            Value::Index(base) => {
                match self.through_variable(self.resolve(file, base, depth + 1), depth + 1) {
                    Res::Items(classes) | Res::Mapping(classes) => Res::Instance(classes),
                    _ => Res::Unknown,
                }
            }
            Value::Elem(collection) => {
                match self.through_variable(self.resolve(file, collection, depth + 1), depth + 1) {
                    Res::Items(classes) => Res::Instance(classes),
                    _ => Res::Unknown,
                }
            }
            Value::Fixture { function, name } => {
                self.fixture_value(file, function, f.name(name), depth + 1)
            }
            Value::OneOf { start, len } => self.one_of(file, f.union(start, len), depth + 1),
            Value::Copy { callee, of } => match f.dotted_name(callee).as_deref() {
                Some("copy.copy" | "copy.deepcopy") => self.resolve(file, of, depth + 1),
                _ => self.call(file, callee, depth + 1),
            },
            Value::Union { start, len } => {
                let mut defs = Vec::new();
                let mut other = Res::Unknown;
                for &v in f.union(start, len) {
                    match self.resolve(file, v, depth + 1) {
                        Res::Defs(d) => defs.extend(d),
                        r if other == Res::Unknown => other = r,
                        _ => {}
                    }
                }
                if defs.is_empty() {
                    other
                } else {
                    defs.sort();
                    defs.dedup();
                    Res::Defs(defs)
                }
            }
        }
    }

    /// What calling `callee` gives: an instance of the classes it names,
    /// what the functions it names return, an item of a collection whose
    /// own method it is ([`Self::collection_method`]).
    fn call(&self, file: FileId, callee: ValueId, depth: usize) -> Res {
        if let Some(r) = self.collection_method(file, callee, depth) {
            return r;
        }
        match self.through_variable(self.resolve(file, callee, depth), depth) {
            Res::Defs(defs) => {
                let classes: Vec<DefRef> = defs
                    .iter()
                    .copied()
                    .filter(|d| self.kind(*d) == Some(SymbolKind::Class))
                    .collect();
                if classes.is_empty() {
                    self.returned(&defs, depth)
                } else {
                    Res::Instance(classes)
                }
            }
            Res::External => Res::External,
            _ => Res::Unknown,
        }
    }

    /// One of `values`, each typed alike: the classes of all their
    /// instances (or collections, or mappings); anything else (one of
    /// them untyped) is unknown.
    fn one_of(&self, file: FileId, values: &[ValueId], depth: usize) -> Res {
        let mut merged: Option<Res> = None;
        for &v in values {
            let r = self.through_variable(self.resolve(file, v, depth + 1), depth + 1);
            merged = Some(match (merged, r) {
                (None, r @ (Res::Instance(_) | Res::Items(_) | Res::Mapping(_))) => r,
                (Some(Res::Instance(mut a)), Res::Instance(b)) => {
                    a.extend(b);
                    Res::Instance(a)
                }
                (Some(Res::Items(mut a)), Res::Items(b)) => {
                    a.extend(b);
                    Res::Items(a)
                }
                (Some(Res::Mapping(mut a)), Res::Mapping(b)) => {
                    a.extend(b);
                    Res::Mapping(a)
                }
                _ => return Res::Unknown,
            });
        }
        match merged {
            Some(Res::Instance(mut cs)) => {
                cs.sort();
                cs.dedup();
                Res::Instance(cs)
            }
            Some(Res::Items(mut cs)) => {
                cs.sort();
                cs.dedup();
                Res::Items(cs)
            }
            Some(Res::Mapping(mut cs)) => {
                cs.sort();
                cs.dedup();
                Res::Mapping(cs)
            }
            _ => Res::Unknown,
        }
    }

    /// `x.name` where `x` has several bindings of which some are a
    /// placeholder variable holding nothing the index follows (`easter =
    /// None` at module level, then `global easter; from dateutil import
    /// easter` in a function): a placeholder has no attributes, so the
    /// attribute is the other bindings'. `None` when `base` is not such a
    /// union (the attribute of the union as a whole is then asked).
    fn attribute_of_union(
        &self,
        file: FileId,
        base: ValueId,
        name: &str,
        depth: usize,
    ) -> Option<Res> {
        let f = self.file(file)?;
        let Value::Union { start, len } = f.value(f.through_same(base)) else {
            return None;
        };
        let members: Vec<Res> = f
            .union(start, len)
            .iter()
            .map(|&m| self.resolve(file, m, depth + 1))
            .collect();
        let placeholder = |r: &Res| match r {
            Res::Defs(ds) => {
                ds.len() == 1
                    && self.kind(ds[0]) == Some(SymbolKind::Variable)
                    && matches!(self.through_variable(r.clone(), depth + 1), Res::Defs(_))
            }
            Res::Unknown => true,
            _ => false,
        };
        if !members.iter().any(placeholder) || members.iter().all(placeholder) {
            return None;
        }
        let mut defs = Vec::new();
        let mut other = Res::Unknown;
        for r in members.into_iter().filter(|r| !placeholder(r)) {
            match self.attribute(r, name, depth + 1) {
                Res::Defs(d) => defs.extend(d),
                r if other == Res::Unknown => other = r,
                _ => {}
            }
        }
        Some(if defs.is_empty() {
            other
        } else {
            defs.sort();
            defs.dedup();
            Res::Defs(defs)
        })
    }

    /// What calling these functions gives, from their return annotations
    /// (`-> Manager`): an instance of the classes they name. An inferred
    /// return names what the function's result was made by calling: a
    /// class (`return Manager()`), or another function (`bar =
    /// progressbar(…)`, `return bar`), whose own return is then followed.
    pub(crate) fn returned(&self, functions: &[DefRef], depth: usize) -> Res {
        let mut classes = Vec::new();
        // `-> list[C]`: collections of instances
        let mut items = Vec::new();
        for d in functions {
            let Some(f) = self.file(d.file) else { continue };
            let Some(ret) = f.defs.get(d.def as usize).and_then(|def| def.returns) else {
                return Res::Unknown; // one unannotated: the result is unknown
            };
            match self.resolve(d.file, ret, depth + 1) {
                Res::Defs(ds) if ds.iter().all(|c| self.kind(*c) == Some(SymbolKind::Class)) => {
                    classes.extend(ds)
                }
                Res::Items(cs) => items.extend(cs),
                Res::Defs(ds)
                    if depth < MAX_DEPTH
                        && ds.iter().all(|c| {
                            matches!(
                                self.kind(*c),
                                Some(SymbolKind::Function | SymbolKind::Method)
                            )
                        }) =>
                {
                    match self.returned(&ds, depth + 1) {
                        Res::Instance(cs) => classes.extend(cs),
                        Res::Items(cs) => items.extend(cs),
                        _ => return Res::Unknown,
                    }
                }
                _ => return Res::Unknown,
            }
        }
        match (classes.is_empty(), items.is_empty()) {
            (false, true) => {
                classes.sort();
                classes.dedup();
                Res::Instance(classes)
            }
            (true, false) => {
                items.sort();
                items.dedup();
                Res::Items(items)
            }
            // nothing, or instances from some and collections from others
            _ => Res::Unknown,
        }
    }

    /// What calling a collection's own method gives, when it is one of
    /// its items or values: `d.values()`, `d.get(k)`, `d.pop(k)`,
    /// `d.setdefault(k, v)`, `xs.pop()`, `xs.copy()`. `None` for any other
    /// call.
    fn collection_method(&self, file: FileId, callee: ValueId, depth: usize) -> Option<Res> {
        let f = self.file(file)?;
        let Value::Attr { base, name } = f.value(callee) else {
            return None;
        };
        let method = f.name(name);
        if !matches!(method, "values" | "get" | "pop" | "setdefault" | "copy") {
            return None;
        }
        Some(
            match (
                self.through_variable(self.resolve(file, base, depth + 1), depth + 1),
                method,
            ) {
                (Res::Mapping(cs), "values") | (Res::Items(cs), "copy") => Res::Items(cs),
                (Res::Mapping(cs), "copy") => Res::Mapping(cs),
                (Res::Mapping(cs), "get" | "pop" | "setdefault") | (Res::Items(cs), "pop") => {
                    Res::Instance(cs)
                }
                (Res::Mapping(_) | Res::Items(_), _) => Res::Unknown,
                _ => return None,
            },
        )
    }

    pub(crate) fn kind(&self, d: DefRef) -> Option<SymbolKind> {
        self.file(d.file)
            .and_then(|f| f.defs.get(d.def as usize))
            .map(|d| d.kind)
    }

    /// Module `module` as file `from` finds it.
    pub(crate) fn module_res(&self, from: FileId, module: &str) -> Res {
        match self.module_from(from, module) {
            Some(m) => Res::Module(m),
            None => Res::External,
        }
    }

    /// `name` looked up as an attribute of `module` as file `from` finds
    /// it.
    pub(crate) fn member_from(&self, from: FileId, module: &str, name: &str, depth: usize) -> Res {
        if module.is_empty() {
            return Res::Unknown;
        }
        match self.module_from(from, module) {
            Some(m) => self.module_member(&m, name, depth),
            None => Res::External,
        }
    }

    /// `name` looked up as an attribute of `module`, seen from no file:
    /// the module of the one project that has it, else of any of them.
    pub fn member(&self, module: &str, name: &str, depth: usize) -> Res {
        match self.modules.find(None, module) {
            Some(m) => self.module_member(&m, name, depth),
            None if module.is_empty() => Res::Unknown,
            None => Res::External,
        }
    }

    /// `name` looked up as an attribute of a project module.
    pub(crate) fn module_member(&self, module: &ModuleRef, name: &str, depth: usize) -> Res {
        let Some(_budget) = step() else {
            return Res::Unknown;
        };
        if depth > MAX_DEPTH || module.name.is_empty() {
            return Res::Unknown;
        }
        if module.project.is_none() {
            // several projects have it: what each binds
            let each: Vec<Res> = self
                .modules
                .in_each_project(module)
                .map(|m| self.module_member(&m, name, depth + 1))
                .collect();
            return union(each);
        }
        if let Some(fid) = self.module_file_of(module) {
            let Some(f) = self.file(fid) else {
                return Res::Unknown;
            };
            if let Some(&v) = f.exports.get(name) {
                // `from . import keys` in the package's own `__init__`
                // binds its submodule: the import names the very member
                // being looked up, and Python falls back to the submodule.
                let imports_itself = matches!(
                    f.value(f.through_same(v)),
                    Value::Member { module: m, name: n } if f.name(m) == module.name && f.name(n) == name
                );
                if imports_itself {
                    if let Some(sub) = self.submodule(module, name) {
                        return Res::Module(sub);
                    }
                }
                return self.resolve(fid, v, depth + 1);
            }
            if let Some(sub) = self.submodule(module, name) {
                return Res::Module(sub);
            }
            for star in &f.stars {
                let Some(star) = self.module_from(fid, star) else {
                    continue;
                };
                if !self.star_exports(&star, name) {
                    continue;
                }
                match self.module_member(&star, name, depth + 1) {
                    Res::Unknown | Res::External => continue,
                    r => return r,
                }
            }
            return Res::Unknown;
        }
        match self.submodule(module, name) {
            Some(sub) => Res::Module(sub),
            // a namespace package of the project
            None => Res::Unknown,
        }
    }

    /// The submodule `name` of a package, in the package's project first.
    fn submodule(&self, package: &ModuleRef, name: &str) -> Option<ModuleRef> {
        let sub = format!("{}.{name}", package.name);
        self.modules.find(package.project.as_ref(), &sub)
    }

    /// In a package's `__init__`, importing from a submodule (`from .core
    /// import *`) binds the submodule's name in the package: `core.f`
    /// there is the submodule's `f`.
    fn imported_submodule(&self, file: FileId, name: &str) -> Option<Res> {
        let f = self.file(file)?;
        if !f.is_package {
            return None;
        }
        let sub = format!("{}.{name}", f.module);
        let imported = f.imports.iter().any(|i| {
            i.module
                .strip_prefix(sub.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        });
        if !imported {
            return None;
        }
        self.module_from(file, &sub).map(Res::Module)
    }

    /// The builtin a value names (`object` in `class C(object)`): a name
    /// the module does not bind, that no star import may bind either.
    pub(crate) fn builtin_name(&self, file: FileId, mut value: ValueId) -> Option<&str> {
        let f = self.file(file)?;
        for _ in 0..MAX_DEPTH {
            match f.value(value) {
                Value::Same(v) => value = v,
                Value::Free(name) => {
                    let name = f.name(name);
                    let starred = f
                        .stars
                        .iter()
                        .any(|star| match self.module_from(file, star) {
                            Some(star) => self.star_exports(&star, name),
                            // outside the project: it may bind anything public
                            None => !name.starts_with('_'),
                        });
                    return (!starred && is_builtin(name)).then_some(name);
                }
                _ => return None,
            }
        }
        None
    }

    /// Whether `from module import *` binds `name`: its `__all__` when
    /// literal, else every name not starting with `_`.
    fn star_exports(&self, module: &ModuleRef, name: &str) -> bool {
        let all = self
            .module_file_of(module)
            .and_then(|fid| self.file(fid))
            .and_then(|f| f.all.as_ref());
        match all {
            Some(all) => all.iter().any(|n| &**n == name),
            None => !name.starts_with('_'),
        }
    }

    /// The classes a class's bases denote, for `super()`: the classes
    /// its methods' `super().m` looks in first.
    fn bases_of(&self, class: DefRef, depth: usize) -> Vec<DefRef> {
        let Some(f) = self.file(class.file) else {
            return Vec::new();
        };
        let mut bases = Vec::new();
        for &b in &f.def(class.def).bases {
            if let Res::Defs(defs) = self.resolve_base(class.file, b, depth) {
                bases.extend(
                    defs.into_iter()
                        .filter(|d| self.kind(*d) == Some(SymbolKind::Class)),
                );
            }
        }
        bases
    }

    /// What the base expression `base` of a class statement names: a
    /// class, directly or through an alias (`Base = K`, `class Holder:
    /// Inner = K`, re-exported or imported under another name). Every
    /// question about bases (ancestors, subclasses, a member's lookup,
    /// `super()`) asks this, so that `class B(Alias)` derives from `K`
    /// whichever question is asked.
    ///
    /// A name bound in several places (`if PY3: Base = K else: Base =
    /// J`, `try: from fast import Impl except ImportError: Impl = K`)
    /// names each of what they bind: the class derives from all of them.
    pub(crate) fn resolve_base(&self, file: FileId, base: ValueId, depth: usize) -> Res {
        match self.resolve(file, base, depth) {
            Res::Defs(defs) if defs.len() > 1 => {
                let mut classes: Vec<DefRef> = Vec::new();
                for d in defs {
                    if let Res::Defs(found) = self.through_variable(Res::Defs(vec![d]), depth) {
                        for c in found {
                            if !classes.contains(&c) {
                                classes.push(c);
                            }
                        }
                    }
                }
                Res::Defs(classes)
            }
            res => self.through_variable(res, depth),
        }
    }

    /// A lone variable definition stands for the value it was assigned
    /// (`register = Library()`, `Alias = Library`), and so on along a chain
    /// of them (`self.parser = md.parser`, where `md.parser` is assigned a
    /// `BlockParser`); anything else is kept.
    pub(crate) fn through_variable(&self, mut res: Res, depth: usize) -> Res {
        for step in 0..8 {
            let Res::Defs(defs) = &res else {
                break;
            };
            let [d] = defs.as_slice() else {
                break;
            };
            let def = self.file(d.file).and_then(|f| f.defs.get(d.def as usize));
            let Some(v) = def.and_then(|def| def.value) else {
                break;
            };
            match self.resolve(d.file, v, depth + 1 + step) {
                Res::Unknown | Res::Possible => break,
                r if r == res => break,
                r => res = r,
            }
        }
        res
    }

    pub(super) fn attribute(&self, base: Res, name: &str, depth: usize) -> Res {
        match self.through_variable(base, depth) {
            Res::Module(m) => self.module_member(&m, name, depth),
            Res::Defs(defs) => {
                let classes: Vec<DefRef> = defs
                    .iter()
                    .copied()
                    .filter(|d| self.kind(*d) == Some(SymbolKind::Class))
                    .collect();
                if !classes.is_empty() {
                    self.class_member(&classes, name, depth)
                } else if defs
                    .iter()
                    .all(|d| self.kind(*d) == Some(SymbolKind::Function))
                {
                    Res::Unknown
                } else {
                    // A variable: it may hold anything.
                    Res::Possible
                }
            }
            Res::Instance(classes) => self.class_member(&classes, name, depth),
            // a builtin collection's own methods (`append`, `add`)
            Res::Items(_) | Res::Mapping(_) | Res::External => Res::External,
            Res::Possible | Res::Unknown => Res::Possible,
        }
    }

    pub(crate) fn class_member(&self, classes: &[DefRef], name: &str, depth: usize) -> Res {
        let mut found = Vec::new();
        let mut seen = Vec::new();
        for &c in classes {
            self.lookup_member(c, name, depth, &mut found, &mut seen);
        }
        if found.is_empty() {
            // Set dynamically (`self.x = …`), defined in a subclass, or
            // inherited from an external base.
            Res::Possible
        } else {
            found.sort();
            found.dedup();
            Res::Defs(found)
        }
    }

    /// Depth-first through project base classes; the first class defining
    /// `name` wins. True when found.
    fn lookup_member(
        &self,
        class: DefRef,
        name: &str,
        depth: usize,
        found: &mut Vec<DefRef>,
        seen: &mut Vec<DefRef>,
    ) -> bool {
        if depth > MAX_DEPTH || seen.contains(&class) {
            return false;
        }
        seen.push(class);
        let Some(f) = self.file(class.file) else {
            return false;
        };
        if let Some(members) = f.members.get(&class.def) {
            let before = found.len();
            for &m in members {
                if f.name(f.def(m).name) == name {
                    found.push(DefRef {
                        file: class.file,
                        def: m,
                    });
                }
            }
            if found.len() > before {
                return true;
            }
        }
        for &base in &f.def(class.def).bases {
            if let Res::Defs(defs) = self.resolve_base(class.file, base, depth + 1) {
                for d in defs {
                    if self.kind(d) == Some(SymbolKind::Class)
                        && self.lookup_member(d, name, depth + 1, found, seen)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The project classes `class` derives from, transitively (not itself).
    pub(crate) fn ancestors(&self, class: DefRef) -> Vec<DefRef> {
        let mut out = Vec::new();
        let mut stack = vec![(class, 0usize)];
        while let Some((c, depth)) = stack.pop() {
            if depth > MAX_DEPTH {
                continue;
            }
            let Some(f) = self.file(c.file) else { continue };
            for &base in &f.def(c.def).bases {
                if let Res::Defs(defs) = self.resolve_base(c.file, base, 0) {
                    for d in defs {
                        if self.kind(d) == Some(SymbolKind::Class) && !out.contains(&d) {
                            out.push(d);
                            stack.push((d, depth + 1));
                        }
                    }
                }
            }
        }
        out
    }
}

/// What a name is in several projects' modules at once: the definitions
/// of each (a rename counts a use of them as possible), the instances of
/// each, one module of any of them; else the first other answer.
fn union(each: Vec<Res>) -> Res {
    let mut defs = Vec::new();
    let mut other = Res::Unknown;
    for r in each {
        match (r, &mut other) {
            (Res::Defs(d), _) => defs.extend(d),
            (Res::Instance(cs), Res::Instance(all)) => all.extend(cs),
            // the same module of two projects: of either
            (Res::Module(m), Res::Module(any))
                if m.name == any.name && m.project != any.project =>
            {
                any.project = None
            }
            (Res::Module(m), Res::Module(any)) if m.name == any.name => {}
            (r, o) if *o == Res::Unknown => *o = r,
            _ => {}
        }
    }
    if defs.is_empty() {
        other
    } else {
        defs.sort();
        defs.dedup();
        Res::Defs(defs)
    }
}
