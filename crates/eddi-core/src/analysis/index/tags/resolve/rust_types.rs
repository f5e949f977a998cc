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
                t.text = element(&t.text)?.to_string();
                rest = after;
                continue;
            }
            let after = rest.strip_prefix('.')?;
            let end = after.find(['.', '(', '[']).unwrap_or(after.len());
            let (name, after) = after.split_at(end);
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
    /// type ([`Self::clones_itself`]), `unwrap()` and `expect()` (and
    /// `?`, which the scan writes as `unwrap()`) of an `Option<T>` or a
    /// `Result<T, E>` a `T`, `first()` and `last()` of a `Vec`, a slice or
    /// an array an `Option` of an element.
    fn standard_result<'e>(
        &self,
        t: Written<'e>,
        name: &str,
        defined: &Defined<'_>,
    ) -> Option<Written<'e>> {
        let with = |text: String| Written {
            text,
            entry: t.entry,
            at: t.at,
        };
        match name {
            "clone" if self.clones_itself(&t) => Some(t),
            "unwrap" | "expect" => {
                let (outer, arguments) = t.text.trim().split_once('<')?;
                if !matches!(outer, "Option" | "Result") || !self.prelude_bound(&t, outer, defined)
                {
                    return None;
                }
                let arguments = arguments.trim_end().strip_suffix('>')?;
                let held = tuple_element(&format!("({arguments})"), "0")?.to_string();
                Some(with(held))
            }
            "first" | "last" | "first_mut" | "last_mut" if self.prelude_holder(&t, defined) => {
                let of = element(&t.text)?.to_string();
                Some(with(format!("Option<&{of}>")))
            }
            _ => None,
        }
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
