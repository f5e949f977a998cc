//! Whether Python creates each class of a changed hierarchy beyond its
//! method resolution order (`mro.rs`): a metaclass that derives from
//! every base's metaclass, and bases whose builtin instance layouts fit
//! together. Both fail at import with a `TypeError`.
//!
//! A class's metaclass is its `metaclass=` keyword, else the one its bases
//! agree on; a base from outside the project has the metaclass the table
//! below knows (`abc.ABC`: `ABCMeta`, `enum.Enum`: `EnumType`, a
//! `typing.Protocol`: `_ProtocolMeta`, an abstract collection: `ABCMeta`),
//! else `type` — a metaclass Eddi does not know is not checked.

use std::collections::HashMap;

use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::outline::SymbolKind;
use crate::refactor::classes;
use crate::refactor::mro::{Klass, Lineages};
use crate::refactor::Project;

/// Why Python would refuse to create a class: the words after `TypeError:`.
pub(super) fn refusal(
    project: &Project<'_>,
    lineages: &mut Lineages<'_>,
    class: DefRef,
) -> Option<String> {
    let mut metas = Metaclasses {
        project,
        done: HashMap::new(),
    };
    if let Err(why) = metas.of(lineages, class) {
        return Some(why);
    }
    layout(lineages, class)
}

struct Metaclasses<'p, 'a> {
    project: &'p Project<'a>,
    done: HashMap<DefRef, Result<Klass, String>>,
}

impl Metaclasses<'_, '_> {
    /// The metaclass Python gives `class`, or the conflict.
    fn of(&mut self, lineages: &mut Lineages<'_>, class: DefRef) -> Result<Klass, String> {
        if let Some(done) = self.done.get(&class) {
            return done.clone();
        }
        // a cycle is the order's to report: `type` here
        self.done.insert(class, Ok(type_()));
        let mut candidates: Vec<(Klass, String)> = Vec::new();
        if let Some(explicit) = self.explicit(class) {
            candidates.push((explicit, "its metaclass=".to_string()));
        }
        for base in lineages.bases(class) {
            let meta = match &base {
                Klass::Project(b) => self.of(lineages, *b)?,
                Klass::Outside(name) => outside_metaclass(name),
            };
            candidates.push((meta, lineages.name(&base)));
        }
        if candidates.is_empty() {
            candidates.push((type_(), "object".to_string()));
        }
        let winner = candidates
            .iter()
            .find(|(m, _)| candidates.iter().all(|(o, _)| derives(lineages, m, o)))
            .map(|(m, _)| m.clone());
        let result = winner.ok_or_else(|| {
            let each: Vec<String> = candidates
                .iter()
                .map(|(m, of)| format!("{} of {of}", lineages.name(m)))
                .collect();
            format!(
                "metaclass conflict: the metaclass of {} must derive from the metaclasses of all its bases ({})",
                lineages.name(&Klass::Project(class)),
                each.join(", ")
            )
        });
        self.done.insert(class, result.clone());
        result
    }

    /// The class's `metaclass=` keyword, resolved.
    fn explicit(&self, class: DefRef) -> Option<Klass> {
        let index = self.project.index;
        let info = index.def_info(class)?;
        let file = self.project.scanned(&info.path).ok()?;
        let node = classes::class_node(&file, &info)?;
        let args = node.child_by_field_name("superclasses")?;
        let mut cursor = args.walk();
        let value = args
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "keyword_argument")
            .find(|c| {
                c.child_by_field_name("name")
                    .is_some_and(|n| file.node_text(n) == "metaclass")
            })?
            .child_by_field_name("value")?;
        let text = file.node_text(value);
        let module = index.file(class.file)?;
        if let Some(&bound) = module.exports.get(text.trim()) {
            if let Res::Defs(defs) = index.resolve(class.file, bound, 0) {
                if let Some(&d) = defs
                    .iter()
                    .find(|&&d| index.kind(d) == Some(SymbolKind::Class))
                {
                    return Some(Klass::Project(d));
                }
            }
        }
        Some(Klass::Outside(
            classes::canonical(module, &text).unwrap_or(text),
        ))
    }
}

fn type_() -> Klass {
    Klass::Outside("type".into())
}

/// The metaclass of a class from outside the project, as far as known.
fn outside_metaclass(name: &str) -> Klass {
    let meta = match name {
        "abc.ABC" => "abc.ABCMeta",
        "typing.Protocol" | "typing_extensions.Protocol" => "typing._ProtocolMeta",
        _ if name.starts_with("enum.") => "enum.EnumType",
        _ if name.starts_with("collections.abc.") || name.starts_with("numbers.") => "abc.ABCMeta",
        _ => "type",
    };
    Klass::Outside(meta.into())
}

/// Whether metaclass `a` derives from metaclass `b` (or is it).
fn derives(lineages: &mut Lineages<'_>, a: &Klass, b: &Klass) -> bool {
    if a == b || *b == type_() {
        return true;
    }
    match a {
        Klass::Project(m) => lineages.of(*m).is_ok_and(|l| {
            l.contains(b)
                || l.iter()
                    .any(|k| matches!(k, Klass::Outside(o) if derives_outside(o, b)))
        }),
        Klass::Outside(o) => derives_outside(o, b),
    }
}

/// The standard metaclasses' own lineage.
fn derives_outside(a: &str, b: &Klass) -> bool {
    let Klass::Outside(b) = b else {
        return false;
    };
    a == b
        || b == "type"
        || (matches!(a, "typing._ProtocolMeta" | "abc.ABCMeta") && b == "abc.ABCMeta")
        || (a == "enum.EnumMeta" && b == "enum.EnumType")
        || (a == "enum.EnumType" && b == "enum.EnumMeta")
}

/// The builtins with an instance layout of their own: two of them in one
/// class's order cannot be combined.
const LAYOUTS: &[&str] = &[
    "dict",
    "list",
    "tuple",
    "set",
    "frozenset",
    "str",
    "bytes",
    "bytearray",
    "int",
    "float",
    "complex",
];

fn layout(lineages: &mut Lineages<'_>, class: DefRef) -> Option<String> {
    let lineage = lineages.of(class).ok()?;
    let mut solid: Vec<&str> = lineage
        .iter()
        .filter_map(|k| match k {
            Klass::Outside(o) if LAYOUTS.contains(&o.as_str()) => Some(o.as_str()),
            Klass::Outside(o) if is_exception(o) => Some("BaseException"),
            _ => None,
        })
        .collect();
    solid.dedup();
    solid.sort();
    solid.dedup();
    (solid.len() > 1).then(|| {
        format!(
            "multiple bases have instance lay-out conflict ({} in the order of {})",
            solid.join(", "),
            lineages.name(&Klass::Project(class))
        )
    })
}

fn is_exception(name: &str) -> bool {
    !name.contains('.')
        && (name.ends_with("Error")
            || name.ends_with("Exception")
            || name.ends_with("Warning")
            || matches!(
                name,
                "StopIteration"
                    | "StopAsyncIteration"
                    | "KeyboardInterrupt"
                    | "SystemExit"
                    | "GeneratorExit"
            ))
}
