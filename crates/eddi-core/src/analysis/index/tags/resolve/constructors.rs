//! The calls of a function, as its callers' query reads them: a
//! constructor's, which its class's constructions make and the
//! constructors of its subclasses (`super(…)`, Java's implicit `super()`,
//! an ES subclass without a constructor of its own), and a Java
//! overload's, the calls that pass it as many arguments as it takes.
//!
//! A rename reads none of this: a constructor is renamed with its class.

use std::path::Path;

use super::super::family::family_of;
use super::super::java::{sole_overload_taking, takes, CONSTRUCTOR};
use super::super::scan::{DeclaredKind, TagDef, TagsFile};
use super::super::{TagsEntry, TagsIndex};
use super::{full_name, Symbol, Use};
use crate::analysis::outline::{split_ordinal, SymbolKind};

/// How far a chain of ES subclasses without constructors of their own is
/// followed (each passes its arguments on to the one it extends).
const SUBCLASS_DEPTH: usize = 4;

/// A class that extends the constructor's class: its file, its
/// definition there, and whether the index is sure it extends it.
struct Subclass<'a> {
    entry: &'a TagsEntry,
    def: usize,
    certain: bool,
}

impl TagsIndex {
    /// Whether `query` names a constructor (a Java method named as its
    /// class, an ES `constructor`): its references are its calls.
    pub fn names_constructor(&self, query: &str, current: Option<&str>) -> bool {
        self.one(query, current)
            .is_ok_and(|symbol| constructed_class(&symbol).is_some())
    }

    /// The calls of `symbol`, which `query` names (with an overload's
    /// ordinal, `C.m#2`, or its parameters' names, `C.m(a, b)`).
    pub(super) fn calls_of(&self, root: &Path, symbol: &Symbol<'_>, query: &str) -> Vec<Use> {
        let mut calls = match constructed_class(symbol) {
            Some(class) => {
                let class = Symbol {
                    entry: symbol.entry,
                    defs: vec![class],
                };
                self.constructor_calls(root, &class, 0)
            }
            None => self
                .uses(root, symbol)
                .iter()
                .filter(|u| u.call)
                .cloned()
                .collect(),
        };
        if let Some(arities) = overload_arities(symbol) {
            if let Some(chosen) = chosen_overload(query, &arities) {
                calls.retain_mut(|call| match call.arity {
                    // (unknown: kept, as possible)
                    None => {
                        call.certain = false;
                        true
                    }
                    Some(n) => {
                        let (parameters, varargs) = arities[chosen];
                        let sole = sole_overload_taking(arities.iter().copied(), n.into());
                        call.certain &= sole == Some(chosen);
                        takes(parameters, varargs, n.into())
                    }
                });
            }
        }
        calls
    }

    /// The calls of the constructors of `class` (one definition): its
    /// constructions, `super(…)` and Java's `this(…)` and implicit
    /// `super()` calls, and an ES subclass's constructions where the
    /// subclass passes them on (it has no constructor).
    fn constructor_calls(&self, root: &Path, class: &Symbol<'_>, depth: usize) -> Vec<Use> {
        let java = class.entry.family_id() == Some("java");
        let class_uses = self.uses(root, class);
        let mut calls: Vec<Use> = class_uses.iter().filter(|u| u.call).cloned().collect();
        if java {
            calls.extend(enum_constant_calls(class));
            calls.extend(this_calls(class));
        }
        for sub in self.subclasses(&class_uses) {
            let file = sub.entry.file();
            let in_sub = |offset: usize| innermost_class(file, offset) == Some(sub.def);
            let super_calls = (file.refs_named("super").iter())
                .filter(|r| r.call && in_sub(r.offset))
                .map(|r| call_use(sub.entry, r, sub.certain));
            calls.extend(super_calls);
            let sub_def = &file.defs[sub.def];
            let constructors: Vec<usize> = (0..file.defs.len())
                .filter(|&i| is_constructor_of(&file.defs[i], sub_def, java))
                .collect();
            if java {
                // a constructor that calls no other starts with `super()`;
                // a class without one has a default that does
                let explicit = |ctor: usize| {
                    (file.refs_named("super").iter())
                        .chain(file.refs_named("this"))
                        .any(|r| r.call && r.in_def == Some(ctor))
                };
                let implicit: Vec<usize> = match constructors.is_empty() {
                    true => vec![sub.def],
                    false => constructors.into_iter().filter(|&c| !explicit(c)).collect(),
                };
                calls.extend(
                    implicit
                        .into_iter()
                        .map(|at| implicit_super(sub.entry, at, sub.certain)),
                );
            } else if constructors.is_empty() && depth < SUBCLASS_DEPTH {
                let sub_class = Symbol {
                    entry: sub.entry,
                    defs: vec![sub.def],
                };
                let passed_on = self.constructor_calls(root, &sub_class, depth + 1);
                calls.extend(passed_on.into_iter().map(|mut u| {
                    u.certain &= sub.certain;
                    u
                }));
            }
        }
        calls.sort_by(|a, b| (&a.path, a.start).cmp(&(&b.path, b.start)));
        calls.dedup_by(|a, b| a.path == b.path && a.start == b.start);
        calls
    }

    /// The classes that extend `class`: those whose `extends` names it,
    /// as its uses (`class_uses`) say.
    fn subclasses<'a>(&'a self, class_uses: &[Use]) -> Vec<Subclass<'a>> {
        let mut paths: Vec<&str> = class_uses.iter().map(|u| u.path.as_str()).collect();
        paths.dedup();
        let mut found = Vec::new();
        for entry in paths.into_iter().filter_map(|p| self.entry(p)) {
            let file = entry.file();
            let uses: Vec<&Use> = class_uses.iter().filter(|u| u.path == entry.path).collect();
            if uses.is_empty() {
                continue;
            }
            for (i, def) in file.defs.iter().enumerate() {
                if def.kind != SymbolKind::Class {
                    continue;
                }
                let Some(extended) = extended_name(file, def) else {
                    continue;
                };
                // the use of the class that the `extends` writes
                let written = (file.refs_named(extended).iter())
                    .filter(|r| def.span.contains(&r.offset))
                    .find_map(|r| uses.iter().find(|u| u.start == r.start));
                if let Some(u) = written {
                    found.push(Subclass {
                        entry,
                        def: i,
                        certain: u.certain,
                    });
                }
            }
        }
        found
    }
}

/// The class whose constructor `symbol` is (an index of its file's
/// definitions): a Java method named as its class, an ES `constructor`.
fn constructed_class(symbol: &Symbol<'_>) -> Option<usize> {
    let def = symbol.def();
    if def.kind != SymbolKind::Method {
        return None;
    }
    let (class, name) = def.qualified.rsplit_once('.')?;
    let class_name = class.rsplit('.').next().unwrap_or(class);
    let constructor = match symbol.entry.family_id()? {
        "java" => name == class_name,
        "es" => name == "constructor",
        _ => false,
    };
    if !constructor {
        return None;
    }
    let file = symbol.entry.file();
    (file.defs.iter()).position(|d| d.kind == SymbolKind::Class && d.qualified == class)
}

/// Whether `def` is a constructor of the class `class` (of one file).
fn is_constructor_of(def: &TagDef, class: &TagDef, java: bool) -> bool {
    let name = match java {
        true => class.name.as_str(),
        false => "constructor",
    };
    def.kind == SymbolKind::Method
        && def.name == name
        && def
            .qualified
            .strip_suffix(name)
            .and_then(|q| q.strip_suffix('.'))
            == Some(class.qualified.as_str())
}

/// The innermost class definition around char `offset` of `file`.
fn innermost_class(file: &TagsFile, offset: usize) -> Option<usize> {
    (0..file.defs.len())
        .filter(|&i| file.defs[i].kind == SymbolKind::Class && file.defs[i].span.contains(&offset))
        .min_by_key(|&i| file.defs[i].span.len())
}

/// The name a class's `extends` writes last (`Base` of `p.Base<T>`), as
/// the file declares it.
fn extended_name<'f>(file: &'f TagsFile, class: &TagDef) -> Option<&'f str> {
    let written = file
        .declared
        .iter()
        .find(|d| d.kind == DeclaredKind::Extends && d.owner.as_deref() == Some(&class.name))?;
    let last = super::super::named_type(&written.type_text);
    (!last.is_empty()).then_some(last)
}

/// A Java enum's constants (`ADD("+")`): calls of its constructor, which
/// the walk records at the constants' names.
fn enum_constant_calls<'a>(class: &'a Symbol<'_>) -> impl Iterator<Item = Use> + 'a {
    let file = class.entry.file();
    let enum_name = &file.defs[class.defs[0]].name;
    (file.defs.iter())
        .filter(move |d| d.kind != SymbolKind::Method && d.container.as_ref() == Some(enum_name))
        .flat_map(move |d| {
            (file.refs_named(&d.name).iter()).filter(move |r| r.call && r.start == d.name_position)
        })
        .map(|r| Use {
            arity: r.arity.or(Some(0)),
            ..call_use(class.entry, r, true)
        })
}

/// Java's `this(…)` in the class's own constructors: a call of another of
/// its constructors.
fn this_calls<'a>(class: &'a Symbol<'_>) -> impl Iterator<Item = Use> + 'a {
    let file = class.entry.file();
    (file.refs_named("this").iter())
        .filter(move |r| r.call && innermost_class(file, r.offset) == Some(class.defs[0]))
        .map(|r| call_use(class.entry, r, true))
}

/// A call written as `r` in `entry`.
fn call_use(entry: &TagsEntry, r: &super::super::scan::TagRef, certain: bool) -> Use {
    Use {
        path: entry.path.clone(),
        start: r.start,
        end: r.end,
        certain,
        aliased: false,
        call: true,
        arity: r.arity,
        caller: r.in_def.and_then(|i| caller_name(entry, i)),
    }
}

/// Java's implicit `super()`: at the name of the constructor (or of the
/// class, for its default constructor) `def` of `entry`.
fn implicit_super(entry: &TagsEntry, def: usize, certain: bool) -> Use {
    let d = &entry.file().defs[def];
    Use {
        path: entry.path.clone(),
        start: d.name_position,
        end: crate::edit::Position {
            line: d.name_position.line,
            col: d.name_position.col + d.name.chars().count(),
        },
        certain,
        aliased: false,
        call: true,
        arity: Some(0),
        caller: caller_name(entry, def),
    }
}

fn caller_name(entry: &TagsEntry, def: usize) -> Option<String> {
    let file = entry.file();
    let family = family_of(entry.language)?;
    let label = family.label(&entry.path, file.package.as_deref());
    Some(full_name(&label, &file.defs.get(def)?.qualified))
}

/// A Java overloaded method's or constructor's arities, its definitions'
/// order (`None`: one definition, or one the declarations do not tell).
fn overload_arities(symbol: &Symbol<'_>) -> Option<Vec<(u8, bool)>> {
    if symbol.defs.len() < 2 || symbol.entry.family_id() != Some("java") {
        return None;
    }
    let def = symbol.def();
    let (class, name) = def.qualified.rsplit_once('.')?;
    let owner = class.rsplit('.').next().unwrap_or(class);
    let name = match name == owner {
        true => CONSTRUCTOR,
        false => name,
    };
    let arities: Vec<(u8, bool)> = (symbol.entry.file().declared.iter())
        .filter(|d| d.name == name && d.owner.as_deref() == Some(owner))
        .filter_map(|d| match d.kind {
            DeclaredKind::Method { arity, varargs } => Some((arity, varargs)),
            _ => None,
        })
        .collect();
    (arities.len() == symbol.defs.len()).then_some(arities)
}

/// Which overload `query` picks: its ordinal (`#2`), or the one that
/// takes as many parameters as it names (`(a, b)`) when one does.
fn chosen_overload(query: &str, arities: &[(u8, bool)]) -> Option<usize> {
    let q = query.trim();
    if let (Some(open), true) = (q.find('('), q.ends_with(')')) {
        let names = q[open + 1..q.len() - 1].trim();
        if names.is_empty() {
            return None;
        }
        let count = names.split(',').count();
        let mut of_count = (0..arities.len()).filter(|&i| usize::from(arities[i].0) == count);
        return match (of_count.next(), of_count.next()) {
            (Some(i), None) => Some(i),
            _ => None,
        };
    }
    let (_, ordinal) = split_ordinal(q);
    ordinal
        .and_then(|n| n.checked_sub(1))
        .filter(|&i| i < arities.len())
}
