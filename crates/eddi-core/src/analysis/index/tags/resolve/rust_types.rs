//! Rust: the type of the value a member is read through, where the
//! crate states it — `self` in a type's `impl`, a typed local, a `let`
//! of a typed expression, a loop's variable over a `Vec<T>`, an array or
//! a slice (`for x in &self.items`, `.iter()`, `.iter_mut()`,
//! `.into_iter()`), a field of a struct (`self.inner.m()`; generic ones
//! but for lifetimes are not read), what an associated function or a
//! method of an inherent `impl` returns when that is a type's name
//! (`T::new().m()`, `r.slice(..).m()`). A type written in another file
//! (a field's, a result's) is resolved there, as that file names it: a
//! struct, an enum or a union the crate declares once. References,
//! `Box`, `Rc` and `Arc` reach the type they hold (a member access
//! dereferences them). The expression is the scan's compact one
//! ([`super::super::rust::chain`]).
//!
//! What the crate does not state — a generic struct, a type parameter,
//! a result that is not a type's name (`Option<T>`, `impl Trait`, `Box<dyn
//! Trait>`), a trait's method, a trait's `self`, a type alias's name, a
//! name declared twice, a macro — leaves the use possible.

use std::rc::Rc;

use super::*;
use crate::analysis::index::tags::scan::{DeclaredKind, Typed};

/// How deep `for` variables over other ones are followed.
const MAX_DEPTH: usize = 16;

/// A type as written in a file: its text, and where it names it.
struct Written<'e> {
    text: String,
    entry: &'e TagsEntry,
    at: usize,
}

/// A struct, an enum or a union of the crate: the file that declares it,
/// where, and the names that denote it.
#[derive(Clone)]
pub(super) struct RustType<'a> {
    entry: &'a TagsEntry,
    at: usize,
    aliases: Rc<HashSet<(ModuleKey, String)>>,
}

/// What the crate's files declare of a type's name.
#[derive(Default)]
pub(super) struct Declarations<'a> {
    /// Its declarations as a struct, an enum, a union (or a trait).
    types: Vec<RustType<'a>>,
    /// A file declares a type alias of the name (`type A = B;`): a value
    /// of type `A` may be another type's.
    aliased: bool,
    /// It implements `Deref`: a method it does not declare may be its
    /// target's.
    derefs: bool,
    /// A file declares it twice, or in a function's body: which one a
    /// name is the index does not tell.
    ambiguous: bool,
}

/// The types a query looked up, by name.
pub(super) type RustTypes<'a> = HashMap<String, Rc<Declarations<'a>>>;

impl<'a> Query<'a> {
    /// Whether a Rust member use through a compact expression (or a
    /// name of an inferred type) names a member of `class` (the type
    /// whose names are `aliases`; `returns_class`: whether a function of
    /// the class's own `impl` makes one): by the type the expression is
    /// of, as a typed name's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rust_expression_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        expression: &str,
        inside: Option<&str>,
        aliases: &HashSet<(ModuleKey, String)>,
        returns_class: &dyn Fn(&str, &str) -> bool,
        defined: &Defined<'_>,
    ) -> Verdict {
        self.read_declarations.set(true);
        let found = self.rust_type_of(
            entry,
            r.offset,
            expression,
            inside,
            returns_class,
            defined,
            0,
        );
        let Some(t) = found else {
            return Verdict::Possible;
        };
        // a `String`, a `Vec`, an `Option`, a slice: their members are no
        // type's of the crate (none dereferences to a crate's type) — but
        // a trait's of the crate may be implemented for them
        if self.prelude_holder(&t, defined) {
            return match self.trait_member {
                true => Verdict::Possible,
                false => Verdict::Other,
            };
        }
        let Some(own) = held(&t.text) else {
            return Verdict::Possible;
        };
        // an alias of the name may be the class under another name
        let declarations = self.rust_types_named(last_segment(own));
        if declarations.aliased {
            return Verdict::Possible;
        }
        match self.rust_names(t.entry, t.at, own, aliases, defined) {
            // (another type that dereferences to one may reach the member)
            Verdict::Other if declarations.derefs => Verdict::Possible,
            verdict => verdict,
        }
    }

    /// The type of a compact expression at `offset` in `entry`, as
    /// written where the crate states it.
    #[allow(clippy::too_many_arguments)]
    fn rust_type_of<'e>(
        &self,
        entry: &'e TagsEntry,
        offset: usize,
        expression: &str,
        inside: Option<&str>,
        returns_class: &dyn Fn(&str, &str) -> bool,
        defined: &Defined<'_>,
        depth: usize,
    ) -> Option<Written<'e>>
    where
        'a: 'e,
    {
        if depth > MAX_DEPTH {
            return None;
        }
        let file = entry.file();
        let (root, mut rest) = split_root(expression)?;
        let here = |text: &str| Written {
            text: text.to_string(),
            entry,
            at: offset,
        };
        let mut t: Written<'e> = if root == "self" {
            // a trait's body: any type that implements it
            if file.inheriting.iter().any(|b| b.contains(&offset)) {
                return None;
            }
            here(inside?)
        } else if let Some(matched) = root.strip_suffix("{}") {
            // a value a struct's or a variant's pattern matched: its first
            // step is a field of the struct, or of the variant
            let after = rest.strip_prefix('.')?;
            let end = after.find(['.', '(', '[']).unwrap_or(after.len());
            let (field, after) = after.split_at(end);
            rest = after;
            let (owner, variant) = match matched.split_once("::") {
                Some((owner, variant)) => (owner, format!("{variant}.{field}")),
                None => (matched, field.to_string()),
            };
            self.rust_field(&here(owner), &variant, defined)?
        } else if let Some(call) = root.strip_suffix("()") {
            let Some((owner, f)) = call.split_once("::") else {
                return self.rust_function_result(entry, offset, call, defined);
            };
            let owner = match owner {
                "Self" => inside?,
                owner => owner,
            };
            self.rust_result(entry, &here(owner), f, returns_class, defined)?
        } else {
            let typed = file.typed_binding(root, offset)?;
            self.typed_type(entry, typed, inside, returns_class, defined, depth)?
        };
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("[]") {
                // (an index's or a loop's: an iterator's item too)
                t.text = match element(&t.text) {
                    Some(e) => e.to_string(),
                    None => match self.standard(&t, defined)? {
                        Holds::Iterator(item) => item,
                        _ => return None,
                    },
                };
                rest = after;
                continue;
            }
            let after = rest.strip_prefix('.')?;
            let end = after.find(['.', '(', '[']).unwrap_or(after.len());
            let (name, after) = after.split_at(end);
            // `.map(|0|)`: the first parameter of the closure `map` takes
            if let Some(closure) = after.strip_prefix("(|") {
                let (index, after) = closure.split_once("|)")?;
                t = self.closure_parameter(&t, name, index.parse().ok()?, defined)?;
                rest = after;
                continue;
            }
            match after.strip_prefix("()") {
                Some(after) => {
                    t = match self.rust_result(entry, &t, name, returns_class, defined) {
                        Some(made) => made,
                        None => self.standard_result(t, name, defined)?,
                    };
                    rest = after;
                }
                None => {
                    t = match tuple_element(&t.text, name) {
                        Some(element) => Written {
                            text: element.to_string(),
                            ..t
                        },
                        None => self.rust_field(&t, name, defined)?,
                    };
                    rest = after;
                }
            }
        }
        Some(t)
    }

    /// The type a typed name is of: its declared one, or its inferred
    /// expression's.
    fn typed_type<'e>(
        &self,
        entry: &'e TagsEntry,
        typed: &Typed,
        inside: Option<&str>,
        returns_class: &dyn Fn(&str, &str) -> bool,
        defined: &Defined<'_>,
        depth: usize,
    ) -> Option<Written<'e>>
    where
        'a: 'e,
    {
        let at = typed.scope.start;
        if typed.inferred {
            let e = &typed.type_name;
            return self.rust_type_of(entry, at, e, inside, returns_class, defined, depth + 1);
        }
        Some(Written {
            text: typed.type_name.clone(),
            entry,
            at,
        })
    }

    /// What a call of the function `f` of the type `t` (a method, an
    /// associated function) makes: the type its inherent `impl` says it
    /// returns (`Self`, the type itself, or another type's name), as
    /// written there.
    fn rust_result<'e>(
        &self,
        here: &TagsEntry,
        t: &Written<'e>,
        f: &str,
        returns_class: &dyn Fn(&str, &str) -> bool,
        defined: &Defined<'_>,
    ) -> Option<Written<'e>>
    where
        'a: 'e,
    {
        let own = held(&t.text)?;
        let name = last_segment(own);
        if self.prelude_made(t, own, f, defined) {
            return Some(Written {
                text: own.to_string(),
                entry: t.entry,
                at: t.at,
            });
        }
        // `T::f` of the file's own `impl T`, or (a name of the use's file,
        // as `returns_class` reads it) of the class asked about
        let constructors = &t.entry.file().constructors;
        let makes = own == name
            && (constructors.iter().any(|(o, g)| o == own && g == f)
                || (std::ptr::eq(t.entry, here) && returns_class(own, f)));
        if makes {
            return Some(Written {
                text: own.to_string(),
                entry: t.entry,
                at: t.at,
            });
        }
        let declared = self.rust_type(t.entry, t.at, own, defined)?;
        // every inherent `impl` of the type (in any file) that declares
        // `f` with a type's name as its result: one must
        let mut results = Vec::new();
        for e in self.files_with(&[f], false) {
            let file = e.file();
            let returns = file.declared.iter().filter(|d| {
                d.kind == DeclaredKind::Returns && d.name == f && d.owner.as_deref() == Some(name)
            });
            for d in returns {
                let at = file
                    .defs
                    .iter()
                    .find(|def| def.name == f && def.container.as_deref() == Some(name))?
                    .span
                    .start;
                if self.typed_as(e, at, name, &declared.aliases, defined) == Verdict::Certain {
                    results.push(Written {
                        text: d.type_text.to_string(),
                        entry: e,
                        at,
                    });
                }
            }
        }
        match results.len() {
            1 => results.pop(),
            _ => None,
        }
    }

    /// Whether `T::f()` is a constructor of the prelude's `Vec` or
    /// `String` (`Vec::new()`, `String::from(…)`), which makes one: where
    /// the file binds no other `T` and the crate declares none. (Members
    /// through them are no type's of the crate: a `Vec` dereferences to a
    /// slice alone.)
    fn prelude_made(&self, t: &Written<'_>, own: &str, f: &str, defined: &Defined<'_>) -> bool {
        matches!(own, "Vec" | "String")
            && matches!(f, "new" | "with_capacity" | "from" | "default")
            && self.prelude_bound(t, own, defined)
    }

    /// Whether a written type is one of the prelude's that never
    /// dereference to a crate's type — `String`, `Vec<…>`, `Option<…>`,
    /// `Result<…>`, a slice, an array, a tuple —, through references: a
    /// method called on it is its own or a trait's, never a crate type's
    /// own.
    fn prelude_holder(&self, t: &Written<'_>, defined: &Defined<'_>) -> bool {
        let mut held = t.text.trim();
        while let Some(inner) = held.strip_prefix('&') {
            match unreferenced(inner) {
                Some(inner) => held = inner,
                None => return false,
            }
        }
        if held.starts_with(['[', '(']) {
            return true;
        }
        let outer = held.split_once('<').map_or(held, |(outer, _)| outer);
        matches!(outer, "String" | "Vec" | "Option" | "Result")
            && self.prelude_bound(t, outer, defined)
    }

    /// Whether `name` is the standard library's where `t` is written: the
    /// file binds no other (or imports it from `std`, `alloc` or `core`
    /// itself, as a `no_std` crate does), the crate declares none.
    fn prelude_bound(&self, t: &Written<'_>, name: &str, defined: &Defined<'_>) -> bool {
        let declarations = self.rust_types_named(name);
        if !declarations.types.is_empty() || declarations.aliased {
            return false;
        }
        let mut imports = t.entry.file().imports.iter().filter(|i| i.local == name);
        match (imports.next(), imports.next()) {
            (None, _) => {
                self.typed_as(t.entry, t.at, name, &HashSet::new(), defined) == Verdict::Other
            }
            (Some(import), None) => {
                let module = match name {
                    "Vec" => "vec",
                    "String" => "string",
                    "Option" => "option",
                    _ => "result",
                };
                ["std", "alloc", "core"]
                    .iter()
                    .any(|root| import.source == format!("{root}::{module}::{name}"))
            }
            _ => false,
        }
    }

    /// What a standard method makes of a value of the written type `t`
    /// that has no method of the name of its own: `clone()` the same
    /// type ([`Self::clones_itself`]); of a standard container
    /// ([`Self::standard`]), what the standard library declares the
    /// method returns ([`standard_made`]: `unwrap()` of an `Option<T>` a
    /// `T`, `pop()` of a `Vec<T>` an `Option<T>`, `get(k)` of a
    /// `HashMap<K, V>` an `Option<&V>`, `iter()` an iterator of `&T`, its
    /// `next()` an `Option<&T>`). A trait of the crate that declares a
    /// method of the name may be implemented for the container and be
    /// the one called: unknown then.
    fn standard_result<'e>(
        &self,
        t: Written<'e>,
        name: &str,
        defined: &Defined<'_>,
    ) -> Option<Written<'e>> {
        if name == "clone" && self.clones_itself(&t) {
            return Some(t);
        }
        let holds = self.standard(&t, defined)?;
        if self.crate_trait_declares(name) {
            return None;
        }
        Some(Written {
            text: standard_made(&holds, name)?,
            entry: t.entry,
            at: t.at,
        })
    }

    /// The type of the `index`th parameter of a closure passed first to
    /// the method `name` of a standard container of the written type `t`
    /// ([`closure_element`]: `v.iter().map(|n| …)`, `v.retain(|n| …)`,
    /// `opt.map(|n| …)`, `m.retain(|k, v| …)`); unknown where a trait of
    /// the crate declares a method of the name.
    fn closure_parameter<'e>(
        &self,
        t: &Written<'e>,
        name: &str,
        index: usize,
        defined: &Defined<'_>,
    ) -> Option<Written<'e>> {
        let holds = self.standard(t, defined)?;
        if self.crate_trait_declares(name) {
            return None;
        }
        Some(Written {
            text: closure_element(&holds, name, index)?.to_string(),
            entry: t.entry,
            at: t.at,
        })
    }

    /// What a standard container of the written type `t` holds (through
    /// references, `Box`, `Rc`, `Arc`): a `Vec`, a `VecDeque`, a slice or
    /// an array its elements, a `HashMap` or a `BTreeMap` its keys and
    /// values, an `Option` or a `Result` its value, an iterator (`impl
    /// Iterator<Item = T>`, what [`standard_made`] writes for `iter()`)
    /// its items — where the name is the standard library's there.
    fn standard(&self, t: &Written<'_>, defined: &Defined<'_>) -> Option<Holds> {
        let mut held = t.text.trim();
        loop {
            if let Some(inner) = held.strip_prefix('&') {
                held = unreferenced(inner)?;
                continue;
            }
            match ["Box<", "Rc<", "Arc<"]
                .iter()
                .find_map(|w| held.strip_prefix(w))
            {
                Some(inner) => held = inner.strip_suffix('>')?.trim(),
                None => break,
            }
        }
        if held.starts_with('[') {
            return Some(Holds::Sequence(Sequence::Slice, element(held)?.to_string()));
        }
        if let Some(item) = held
            .strip_prefix("impl Iterator<Item = ")
            .and_then(|i| i.strip_suffix('>'))
        {
            let iterator = self.rust_types_named("Iterator");
            let std = iterator.types.is_empty() && !iterator.aliased;
            return std.then(|| Holds::Iterator(item.trim().to_string()));
        }
        let (outer, arguments) = held.split_once('<')?;
        let arguments = split_arguments(arguments.strip_suffix('>')?);
        let outer = outer.trim();
        let first = || Some(arguments.first()?.to_string());
        let holds = match (outer, arguments.len()) {
            ("Vec", 1) if self.prelude_bound(t, outer, defined) => {
                Holds::Sequence(Sequence::Vec, first()?)
            }
            ("Option", 1) if self.prelude_bound(t, outer, defined) => Holds::Option(first()?),
            ("Result", 1 | 2) if self.prelude_bound(t, outer, defined) => Holds::Result(first()?),
            ("VecDeque" | "std::collections::VecDeque", 1)
                if self.collection_bound(t, outer, "vec_deque") =>
            {
                Holds::Sequence(Sequence::Deque, first()?)
            }
            ("HashMap" | "std::collections::HashMap", 2 | 3)
                if self.collection_bound(t, outer, "hash_map") =>
            {
                Holds::Map(arguments[0].to_string(), arguments[1].to_string())
            }
            ("BTreeMap" | "std::collections::BTreeMap", 2)
                if self.collection_bound(t, outer, "btree_map") =>
            {
                Holds::Map(arguments[0].to_string(), arguments[1].to_string())
            }
            _ => return None,
        };
        Some(holds)
    }

    /// Whether a collection's name (`HashMap`, or its whole path) is the
    /// standard library's where `t` is written: the crate declares none
    /// of the name, and the path says `std::collections` or the file
    /// imports it from there (`alloc::collections` too, or through its
    /// `module`).
    fn collection_bound(&self, t: &Written<'_>, written: &str, module: &str) -> bool {
        let name = last_segment(written);
        let declarations = self.rust_types_named(name);
        if !declarations.types.is_empty() || declarations.aliased {
            return false;
        }
        if written.contains("::") {
            return true;
        }
        let from = |source: &str| {
            ["std", "alloc"].iter().any(|root| {
                source == format!("{root}::collections::{name}")
                    || source == format!("{root}::collections::{module}::{name}")
            })
        };
        let mut imports = t.entry.file().imports.iter().filter(|i| i.local == name);
        matches!((imports.next(), imports.next()), (Some(import), None) if from(&import.source))
    }

    /// Whether a trait of the crate declares a method (a function) `name`:
    /// implemented for a standard type, it may be the one a call of the
    /// name reaches (a trait's method taking `self` comes before an
    /// inherent one taking `&self`).
    fn crate_trait_declares(&self, name: &str) -> bool {
        self.read_declarations.set(true);
        self.files_with(&[name], false).iter().any(|e| {
            let file = e.file();
            file.defs.iter().any(|d| {
                d.name == name
                    && matches!(d.kind, SymbolKind::Method | SymbolKind::Function)
                    && file.inheriting.iter().any(|b| b.contains(&d.span.start))
            })
        })
    }

    /// Whether `x.clone()` of a value of the written type `t` is of that
    /// type: a name (through references: a reference's clone is one, of
    /// the same type), not of a type that dereferences to another (whose
    /// clone, were it not `Clone`, would be the target's) nor an alias.
    fn clones_itself(&self, t: &Written<'_>) -> bool {
        held(&t.text).is_some_and(|own| {
            let declarations = self.rust_types_named(last_segment(own));
            !declarations.derefs && !declarations.aliased
        })
    }

    /// What a call of the function `f` (not a method) at `offset` in
    /// `entry` makes: what the crate's one function that `f` names there
    /// returns, as written in its file. A file that declares two of the
    /// name (in two `mod` blocks) tells neither.
    fn rust_function_result<'e>(
        &self,
        entry: &'e TagsEntry,
        offset: usize,
        f: &str,
        defined: &Defined<'_>,
    ) -> Option<Written<'e>>
    where
        'a: 'e,
    {
        // (a local of the name, a closure's, hides the functions)
        let local = |l: &super::super::scan::LocalDef| l.name == f && l.visible.contains(&offset);
        if entry.file().locals.iter().any(local) {
            return None;
        }
        let mut results = Vec::new();
        for e in self.files_with(&[f], false) {
            let file = e.file();
            let Some(returns) = file
                .declared
                .iter()
                .find(|d| d.kind == DeclaredKind::Returns && d.owner.is_none() && d.name == f)
            else {
                continue;
            };
            let mut functions = file
                .defs
                .iter()
                .filter(|d| d.name == f && d.kind == SymbolKind::Function);
            let (Some(function), None) = (functions.next(), functions.next()) else {
                return None;
            };
            let module = self.module(e);
            let key = match (function.top_level, inline_parent(file, function)) {
                (true, _) => module,
                (false, Some(inline)) => self.family.inline_key(&module, inline),
                (false, None) => return None,
            };
            let names = self.aliases(e, key, f).all;
            if self.rust_names(entry, offset, f, &names, defined) == Verdict::Certain {
                results.push(Written {
                    text: returns.type_text.to_string(),
                    entry: e,
                    at: function.span.start,
                });
            }
        }
        match results.len() {
            1 => results.pop(),
            _ => None,
        }
    }

    /// The declared type of the field `name` of the struct a written type
    /// names, as written in the struct's file.
    fn rust_field<'e>(
        &self,
        t: &Written<'e>,
        name: &str,
        defined: &Defined<'_>,
    ) -> Option<Written<'e>>
    where
        'a: 'e,
    {
        let own = held(&t.text)?;
        let declared = self.rust_type(t.entry, t.at, own, defined)?;
        let owner = last_segment(own);
        let mut fields = declared.entry.file().declared.iter().filter(|d| {
            d.kind == DeclaredKind::Value && d.owner.as_deref() == Some(owner) && d.name == name
        });
        match (fields.next(), fields.next()) {
            (Some(d), None) => Some(Written {
                text: d.type_text.to_string(),
                entry: declared.entry,
                at: declared.at,
            }),
            _ => None,
        }
    }

    /// The struct, enum or union of the crate that `path` (`T`, `m::T`)
    /// names at `at` in `entry`: the one of its declarations whose names
    /// it is.
    fn rust_type(
        &self,
        entry: &TagsEntry,
        at: usize,
        path: &str,
        defined: &Defined<'_>,
    ) -> Option<RustType<'a>> {
        let declarations = self.rust_types_named(last_segment(path));
        if declarations.aliased || declarations.ambiguous {
            return None;
        }
        let mut named = declarations
            .types
            .iter()
            .filter(|d| self.rust_names(entry, at, path, &d.aliases, defined) == Verdict::Certain);
        match (named.next(), named.next()) {
            (Some(d), None) => Some(d.clone()),
            _ => None,
        }
    }

    /// Whether a written type (`T`, `m::T`, `crate::m::T`) at `at` in
    /// `entry` names the type whose names are `aliases`: a module's type
    /// by the module's path; `T::Item` (an associated type) is unknown.
    fn rust_names(
        &self,
        entry: &TagsEntry,
        at: usize,
        written: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        if !written.contains("::") {
            return self.typed_as(entry, at, written, aliases, defined);
        }
        let name = last_segment(written);
        let file = entry.file();
        let path: Vec<String> = written.split("::").map(str::to_string).collect();
        let path = from_scope(file, at, &path);
        match self
            .family
            .resolve_path(&self.files(), &entry.path, file, &path)
        {
            // (a path whose first name is a type resolves to that type)
            Some((m, Some(item))) if item == name => certain_if(aliases.contains(&(m, item))),
            _ => Verdict::Possible,
        }
    }

    /// Whether a type of the crate named `name` implements `Deref`: its
    /// method calls may reach another type's methods.
    pub(super) fn rust_derefs(&self, name: &str) -> bool {
        // (the answer reads other files' declarations)
        self.read_declarations.set(true);
        self.rust_types_named(name).derefs
    }

    /// What the crate's files declare of a type `name` (looked up once per
    /// query).
    fn rust_types_named(&self, name: &str) -> Rc<Declarations<'a>> {
        if let Some(known) = self.rust_types.borrow().get(name) {
            return Rc::clone(known);
        }
        let mut found = Declarations::default();
        for e in self.files_with(&[name], false) {
            let file = e.file();
            for d in file
                .declared
                .iter()
                .filter(|d| d.kind == DeclaredKind::Embedded && d.owner.as_deref() == Some(name))
            {
                match d.name.as_str() {
                    "*" => found.derefs = true,
                    _ => found.aliased = true,
                }
            }
            let mut types = file
                .defs
                .iter()
                .filter(|d| d.kind == SymbolKind::Class && d.name == name);
            let Some(d) = types.next() else {
                continue;
            };
            found.ambiguous |= types.next().is_some();
            let module = self.module(e);
            let key = match (d.top_level, inline_parent(file, d)) {
                (true, _) => module,
                (false, Some(inline)) => self.family.inline_key(&module, inline),
                (false, None) => {
                    found.ambiguous = true;
                    continue;
                }
            };
            found.types.push(RustType {
                entry: e,
                at: d.span.start,
                aliases: Rc::new(self.aliases(e, key, name).all),
            });
        }
        let found = Rc::new(found);
        self.rust_types
            .borrow_mut()
            .insert(name.to_string(), Rc::clone(&found));
        found
    }
}

/// A compact expression's root (`self`, a name, `T::f()`) and its steps.
fn split_root(expression: &str) -> Option<(&str, &str)> {
    let end = match (expression.find("()"), expression.find("{}")) {
        (_, Some(matched)) if !expression[..matched].contains('.') => matched + 2,
        (Some(call), _)
            if expression[..call].contains("::") && !expression[..call].contains('.') =>
        {
            call + 2
        }
        _ => expression.find(['.', '[']).unwrap_or(expression.len()),
    };
    Some(expression.split_at(end)).filter(|(root, _)| !root.is_empty())
}

/// The type a written type holds for member access: itself, or through
/// `&`, `&mut`, `Box<…>`, `Rc<…>`, `Arc<…>`; `None` unless that is a
/// name or a path (`ast::Span`, `crate::hir::Hir`; a generic type, a
/// tuple are not followed).
fn held(written: &str) -> Option<&str> {
    let mut t = written.trim();
    loop {
        if let Some(inner) = t.strip_prefix('&') {
            t = unreferenced(inner)?;
            continue;
        }
        match ["Box<", "Rc<", "Arc<"]
            .iter()
            .find_map(|w| t.strip_prefix(w))
        {
            Some(inner) => t = inner.strip_suffix('>')?.trim(),
            None => break,
        }
    }
    let word = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    t.split("::").all(word).then_some(t)
}

/// A type's own name: the last of its path's.
fn last_segment(path: &str) -> &str {
    path.rsplit_once("::").map_or(path, |(_, name)| name)
}

/// What a reference (after its `&`) is to: its lifetime and `mut` left
/// out.
fn unreferenced(after: &str) -> Option<&str> {
    let mut t = after.trim_start();
    if t.starts_with('\'') {
        t = t.split_once(' ')?.1.trim_start();
    }
    Some(t.strip_prefix("mut ").unwrap_or(t).trim_start())
}

/// The element type of a `Vec<T>`, an array `[T; N]` or a slice `[T]`
/// (through references and `Box`), as written.
fn element(written: &str) -> Option<&str> {
    let mut t = written.trim();
    loop {
        if let Some(inner) = t.strip_prefix('&') {
            t = unreferenced(inner)?;
            continue;
        }
        match t.strip_prefix("Box<") {
            Some(inner) => t = inner.strip_suffix('>')?.trim(),
            None => break,
        }
    }
    if let Some(inner) = t.strip_prefix("Vec<") {
        let inner = inner.strip_suffix('>')?.trim();
        return (!inner.contains(',')).then_some(inner);
    }
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    let element = match inner.rsplit_once(';') {
        Some((element, _)) => element,
        None => inner,
    };
    Some(element.trim()).filter(|kept| !kept.is_empty() && !kept.contains([',', ';']))
}

/// The element `index` (`0`, `1`, …) of a tuple type as written
/// (`(&'a str, usize)`, through references).
fn tuple_element<'w>(written: &'w str, index: &str) -> Option<&'w str> {
    let index: usize = index.parse().ok()?;
    let mut t = written.trim();
    while let Some(inner) = t.strip_prefix('&') {
        t = unreferenced(inner)?;
    }
    let inner = t.strip_prefix('(')?.strip_suffix(')')?;
    // the elements, split at the commas outside brackets
    let (mut depth, mut start, mut elements) = (0usize, 0, Vec::new());
    for (at, b) in inner.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                elements.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    elements.push(&inner[start..]);
    elements
        .get(index)
        .map(|e| e.trim())
        .filter(|e| !e.is_empty())
}

/// Which sequence a [`Holds::Sequence`] is: its own methods differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sequence {
    Vec,
    Deque,
    /// A slice or an array.
    Slice,
}

/// What a standard container holds, as written ([`Query::standard`]).
enum Holds {
    Sequence(Sequence, String),
    /// A map's key and value.
    Map(String, String),
    Option(String),
    /// A `Result`'s value (its error is not read).
    Result(String),
    /// An iterator's item.
    Iterator(String),
}

/// What the standard method `name` of a container makes, written as a
/// type: an element, an `Option` of one or of a reference to one, an
/// iterator of them (`impl Iterator<Item = T>`); `None` for another
/// method or a result the index does not read.
fn standard_made(holds: &Holds, name: &str) -> Option<String> {
    let option = |t: &str| format!("Option<{t}>");
    let iterator = |t: &str| format!("impl Iterator<Item = {t}>");
    let made = match holds {
        Holds::Sequence(kind, e) => match name {
            "first" | "last" | "get" | "first_mut" | "last_mut" | "get_mut" => {
                option(&format!("&{e}"))
            }
            "front" | "back" | "front_mut" | "back_mut" if *kind == Sequence::Deque => {
                option(&format!("&{e}"))
            }
            "pop" if *kind == Sequence::Vec => option(e),
            "pop_front" | "pop_back" | "remove" if *kind == Sequence::Deque => option(e),
            "remove" | "swap_remove" if *kind == Sequence::Vec => e.clone(),
            "iter" | "iter_mut" => iterator(&format!("&{e}")),
            "into_iter" | "drain" => iterator(e),
            _ => return None,
        },
        Holds::Map(key, value) => match name {
            "get" | "get_mut" => option(&format!("&{value}")),
            "remove" => option(value),
            "values" | "values_mut" => iterator(&format!("&{value}")),
            "into_values" => iterator(value),
            "keys" => iterator(&format!("&{key}")),
            "into_keys" => iterator(key),
            _ => return None,
        },
        Holds::Option(t) => match name {
            "unwrap" | "expect" | "unwrap_or" | "unwrap_or_else" | "unwrap_or_default" => t.clone(),
            "as_ref" => option(&format!("&{t}")),
            "as_mut" => option(&format!("&mut {t}")),
            "take" | "replace" | "filter" | "or" | "or_else" => option(t),
            "cloned" | "copied" => option(dereferenced(t)?),
            "iter" | "iter_mut" => iterator(&format!("&{t}")),
            "into_iter" => iterator(t),
            _ => return None,
        },
        Holds::Result(t) => match name {
            "unwrap" | "expect" | "unwrap_or" | "unwrap_or_else" | "unwrap_or_default" => t.clone(),
            "ok" => option(t),
            _ => return None,
        },
        Holds::Iterator(item) => match name {
            "next" | "next_back" | "last" | "nth" | "min" | "max" | "find" | "min_by_key"
            | "max_by_key" | "min_by" | "max_by" | "reduce" => option(item),
            "peek" => option(&format!("&{item}")),
            "rev" | "skip" | "take" | "filter" | "skip_while" | "take_while" | "inspect"
            | "step_by" | "fuse" | "peekable" | "by_ref" => iterator(item),
            "cloned" | "copied" => iterator(dereferenced(item)?),
            _ => return None,
        },
    };
    Some(made)
}

/// What the `index`th parameter of a closure passed first to the
/// standard method `name` of a container is (a reference to it or the
/// value: the same members): an iterator's item for its adapters and
/// consumers (`map`, `filter`, `for_each`, `any`, `all`, `find`, …), a
/// sequence's element (`retain`, `sort_by_key`, both of `sort_by`'s), an
/// `Option`'s or a `Result`'s value (`map`, `and_then`, …), a map's key
/// and value (`retain(|k, v| …)`).
fn closure_element<'h>(holds: &'h Holds, name: &str, index: usize) -> Option<&'h str> {
    let first = |t: &'h String| (index == 0).then_some(t.as_str());
    let pair = |t: &'h String| (index < 2).then_some(t.as_str());
    match holds {
        Holds::Iterator(item) => match name {
            "map" | "for_each" | "filter" | "any" | "all" | "find" | "position" | "rposition"
            | "inspect" | "take_while" | "skip_while" | "map_while" | "filter_map" | "flat_map"
            | "find_map" | "max_by_key" | "min_by_key" | "partition" | "try_for_each" => {
                first(item)
            }
            "max_by" | "min_by" | "is_sorted_by" => pair(item),
            _ => None,
        },
        Holds::Sequence(_, e) => match name {
            "retain"
            | "retain_mut"
            | "sort_by_key"
            | "sort_unstable_by_key"
            | "sort_by_cached_key"
            | "binary_search_by"
            | "dedup_by_key"
            | "partition_point" => first(e),
            "sort_by" | "sort_unstable_by" | "dedup_by" | "is_sorted_by" => pair(e),
            _ => None,
        },
        Holds::Option(t) => match name {
            "map" | "and_then" | "filter" | "is_some_and" | "is_none_or" | "inspect"
            | "take_if" => first(t),
            _ => None,
        },
        Holds::Result(t) => match name {
            "map" | "and_then" | "is_ok_and" | "inspect" => first(t),
            _ => None,
        },
        Holds::Map(key, value) => match (name, index) {
            ("retain", 0) => Some(key),
            ("retain", 1) => Some(value),
            _ => None,
        },
    }
}

/// A reference's target type as written (`&'a T`, `&mut T`): what
/// `cloned()` and `copied()` make of one.
fn dereferenced(written: &str) -> Option<&str> {
    unreferenced(written.trim().strip_prefix('&')?)
}

/// A generic type's arguments as written (`K, Vec<(u8, u8)>`), split at
/// the commas outside brackets.
fn split_arguments(written: &str) -> Vec<&str> {
    let (mut depth, mut start, mut arguments) = (0usize, 0, Vec::new());
    for (at, b) in written.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                arguments.push(written[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    arguments.push(written[start..].trim());
    arguments.retain(|a| !a.is_empty());
    arguments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_types_and_elements() {
        assert_eq!(held("&'a mut Box<Node>"), Some("Node"));
        assert_eq!(held("Arc<Inner>"), Some("Inner"));
        assert_eq!(held("Vec<Node>"), None);
        assert_eq!(held("crate::a::Node"), Some("crate::a::Node"));
        assert_eq!(held("a::Node<T>"), None);
        assert_eq!(held("&ast::Span"), Some("ast::Span"));
        assert_eq!(element("&[Node]"), Some("Node"));
        assert_eq!(element("[Box<Node>; 4]"), Some("Box<Node>"));
        assert_eq!(element("&mut Vec<Node>"), Some("Node"));
        assert_eq!(element("HashMap<K, V>"), None);
        assert_eq!(split_root("T::new().inner"), Some(("T::new()", ".inner")));
        assert_eq!(split_root("self.a.b()"), Some(("self", ".a.b()")));
        assert_eq!(split_root("x.items[]"), Some(("x", ".items[]")));
        assert_eq!(
            split_root("Node::Leaf{}.0.m()"),
            Some(("Node::Leaf{}", ".0.m()"))
        );
        assert_eq!(split_root("Span{}.start"), Some(("Span{}", ".start")));
        assert_eq!(
            tuple_element("(&'a str, Vec<(u8, u8)>, usize)", "1"),
            Some("Vec<(u8, u8)>")
        );
        assert_eq!(tuple_element("&(Node, usize)", "0"), Some("Node"));
        assert_eq!(tuple_element("(Node,)", "1"), None);
    }
}
