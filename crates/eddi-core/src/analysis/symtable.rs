//! The resolver's decisions in the terms of CPython's `symtable` module:
//! for every scope, each name it mentions and how it is bound there. This
//! is what `scripts/symtable-compare` and `tests/analysis/scope_symtable.rs` check
//! against CPython, the ground truth for Python's scope rules.

use std::collections::BTreeMap;

use super::scope::{BindingKind, Resolution, ScopeKind, Scopes};

/// How a name is bound in one scope, as `symtable` classifies it. The
/// order is the priority when several apply (as in `symtable_dump.py`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    Param,
    /// Declared `global` (in a function), or declared so by some function
    /// (at module level).
    Global,
    /// Declared `nonlocal`, or a walrus target in a comprehension.
    Nonlocal,
    Import,
    /// Bound here.
    Local,
    /// Read here, bound in an enclosing function (or passing through this
    /// scope to a nested one that reads it).
    Free,
    /// Read here, bound in no enclosing function: a module global or builtin.
    Implicit,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Param => "param",
            Category::Global => "global",
            Category::Nonlocal => "nonlocal",
            Category::Import => "import",
            Category::Local => "local",
            Category::Free => "free",
            Category::Implicit => "implicit",
        }
    }
}

/// Every `(scope, name)` the file mentions, with its category.
///
/// Names are shown as CPython stores them: private names (`__x`) inside a
/// class are mangled (`_C__x`). Annotations are left out under
/// `from __future__ import annotations`, as CPython does not evaluate them
/// (the resolver keeps them as uses, flagged [`Reference::in_annotation`]).
///
/// [`Reference::in_annotation`]: super::scope::Reference::in_annotation
pub fn categories(scopes: &Scopes) -> BTreeMap<(usize, String), Category> {
    let mut out: BTreeMap<(usize, String), Category> = BTreeMap::new();
    let mut add = |scope: usize, name: &str, c: Category| {
        let slot = out.entry((scope, mangle(scopes, scope, name))).or_insert(c);
        *slot = (*slot).min(c);
    };
    for (i, s) in scopes.scopes.iter().enumerate() {
        for g in &s.globals {
            add(i, g, Category::Global);
            add(0, g, Category::Global);
        }
        for n in &s.nonlocals {
            add(i, n, Category::Nonlocal);
        }
    }
    for name in &scopes.future_imports {
        add(0, name, Category::Import);
    }
    for b in &scopes.bindings {
        let c = match b.kind {
            BindingKind::Parameter => Category::Param,
            BindingKind::Import => Category::Import,
            _ => Category::Local,
        };
        if b.site != b.scope && scopes.scopes[b.scope].kind == ScopeKind::Module {
            // a walrus in a module-level comprehension, or `global x; x = …`
            add(b.site, &b.name, Category::Global);
            add(b.scope, &b.name, Category::Global);
        } else if b.site != b.scope {
            // a walrus in a comprehension binds in the enclosing function,
            // through the comprehensions around it
            add(b.site, &b.name, Category::Nonlocal);
            let mut s = scopes.scopes[b.site].parent;
            while let Some(i) = s.filter(|&i| i != b.scope) {
                add(i, &b.name, Category::Free);
                s = scopes.scopes[i].parent;
            }
            add(b.scope, &b.name, c);
        } else {
            add(b.scope, &b.name, c);
        }
    }
    for r in &scopes.references {
        if r.in_annotation && scopes.future_annotations {
            continue;
        }
        match r.resolution {
            Resolution::Scope(k) if k == r.scope => {}
            Resolution::Scope(k) if scopes.scopes[k].kind == ScopeKind::Module => {
                add(r.scope, &r.name, Category::Implicit)
            }
            Resolution::Scope(k) => {
                // free here and in every scope between here and the binding
                let mut s = Some(r.scope);
                while let Some(i) = s.filter(|&i| i != k) {
                    add(i, &r.name, Category::Free);
                    s = scopes.scopes[i].parent;
                }
            }
            Resolution::Builtin | Resolution::Star | Resolution::Undefined => {
                add(r.scope, &r.name, Category::Implicit)
            }
        }
    }
    out
}

/// `__x` written inside a class `C` is `_C__x` (CPython's private name
/// mangling; a class named only with underscores mangles nothing).
fn mangle(scopes: &Scopes, scope: usize, name: &str) -> String {
    if !name.starts_with("__") || name.ends_with("__") || name.contains('.') {
        return name.to_string();
    }
    let mut s = Some(scope);
    while let Some(i) = s {
        let sc = &scopes.scopes[i];
        if sc.kind == ScopeKind::Class {
            let class = sc.name.as_deref().unwrap_or("").trim_start_matches('_');
            if class.is_empty() {
                return name.to_string();
            }
            return format!("_{class}{name}");
        }
        s = sc.parent;
    }
    name.to_string()
}

/// The key `symtable_dump.py` gives a scope: kind, name and 1-based line
/// (module: `module`, empty, 0; lambdas and comprehensions are named
/// after their kind).
pub fn scope_key(
    scopes: &Scopes,
    scope: usize,
    line_of: impl Fn(usize) -> usize,
) -> (&'static str, String, usize) {
    let s = &scopes.scopes[scope];
    match s.kind {
        ScopeKind::Module => ("module", String::new(), 0),
        ScopeKind::Class => (
            "class",
            s.name.clone().unwrap_or_default(),
            line_of(s.range.start) + 1,
        ),
        ScopeKind::Function => (
            "function",
            s.name.clone().unwrap_or_default(),
            line_of(s.range.start) + 1,
        ),
        ScopeKind::Lambda => ("lambda", "lambda".into(), line_of(s.range.start) + 1),
        ScopeKind::Comprehension => (
            "comprehension",
            "comprehension".into(),
            line_of(s.range.start) + 1,
        ),
    }
}

/// The whole view as `symtable_dump.py` prints it (without the path
/// column): `kind  name  line  occurrence  symbol  category`, one line per
/// `(scope, name)`, scopes in source order.
pub fn dump(scopes: &Scopes, line_of: impl Fn(usize) -> usize) -> Vec<String> {
    let cats = categories(scopes);
    let mut seen: BTreeMap<(&'static str, String, usize), usize> = BTreeMap::new();
    let mut keys = Vec::with_capacity(scopes.scopes.len());
    for i in 0..scopes.scopes.len() {
        let key = scope_key(scopes, i, &line_of);
        let n = seen.entry(key.clone()).or_insert(0);
        keys.push((key, *n));
        *n += 1;
    }
    cats.iter()
        // compiler-made in CPython's tables, so left out on both sides
        .filter(|((_, name), _)| name != "__class__")
        .map(|((scope, name), c)| {
            let ((kind, sname, line), occ) = &keys[*scope];
            format!("{kind}\t{sname}\t{line}\t{occ}\t{name}\t{}", c.as_str())
        })
        .collect()
}
