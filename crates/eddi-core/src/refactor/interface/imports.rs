//! The names the interface is written with (`ABC` and `abstractmethod`,
//! or `Protocol`), spelled as the module has them, and the one import
//! edit that binds those it lacks.
//!
//! A name the module imports already is used under its local name (`from
//! abc import abstractmethod as abstract`); else `import abc` (any alias)
//! gives `abc.ABC`; else the names join an existing top-level `from abc
//! import …`, or one new `from abc import ABC, abstractmethod` goes after
//! the module's last import above the class (after its docstring and
//! `__future__` imports when it has no other). A name the module binds or
//! reads otherwise is never imported over: `import abc` is, or the
//! refactor refuses.

use tree_sitter::Node;

use super::members::Member;
use super::{canonical, refused};
use crate::analysis::index::file::{FileIndex, Value};
use crate::analysis::scope::Resolution;
use crate::change::Indel;
use crate::refactor::imports::{extend, new_import};
use crate::refactor::{Parsed, RefactorError};

/// How the interface names what it needs.
pub(super) struct Names {
    /// The interface's base: `ABC`, `abc.ABC`, `Protocol`, `typing.Protocol`.
    pub base: String,
    /// `abstractmethod` or `abc.abstractmethod` (empty for a `Protocol`).
    pub abstract_marker: String,
    /// The import that binds what the module lacks.
    pub import: Option<Indel>,
}

/// Spells the names for an interface inserted at char `interface_at`
/// above `statement` (the class's); `members` are its stubs, whose names
/// its body binds.
pub(super) fn spell(
    file: &Parsed,
    module: &FileIndex,
    statement: Node<'_>,
    interface_at: usize,
    protocol: bool,
    members: &[Member<'_>],
) -> Result<Names, RefactorError> {
    let (from, needs): (&str, &[&str]) = if protocol {
        ("typing", &["Protocol"][..])
    } else {
        ("abc", &["ABC", "abstractmethod"][..])
    };
    let mut spelled: Vec<Option<String>> = needs
        .iter()
        .map(|name| bound_as(module, from, name))
        .collect();
    let missing: Vec<&str> = needs
        .iter()
        .zip(&spelled)
        .filter(|(_, s)| s.is_none())
        .map(|(n, _)| *n)
        .collect();
    let mut import = None;
    if !missing.is_empty() {
        if let Some(alias) = module_alias(module, from) {
            for (name, s) in needs.iter().zip(spelled.iter_mut()) {
                s.get_or_insert_with(|| format!("{alias}.{name}"));
            }
        } else if missing.iter().all(|n| free(file, module, n, members)) {
            import = Some(match existing_from(file, from, statement) {
                Some(existing) => extend(file, existing, &missing),
                None => new_import(
                    file,
                    statement,
                    interface_at,
                    &format!("from {from} import {}", missing.join(", ")),
                ),
            });
            for (name, s) in needs.iter().zip(spelled.iter_mut()) {
                s.get_or_insert_with(|| name.to_string());
            }
        } else if free(file, module, from, members) {
            import = Some(new_import(
                file,
                statement,
                interface_at,
                &format!("import {from}"),
            ));
            for (name, s) in needs.iter().zip(spelled.iter_mut()) {
                s.get_or_insert_with(|| format!("{from}.{name}"));
            }
        } else {
            return Err(refused(format!(
                "the module binds {} and {from} otherwise: the interface cannot name {from}.{}",
                missing.join(", "),
                missing[0]
            )));
        }
    }
    let spelled: Vec<String> = spelled.into_iter().flatten().collect();
    let names = Names {
        base: spelled[0].clone(),
        abstract_marker: spelled.get(1).cloned().unwrap_or_default(),
        import,
    };
    // a stub named like the marker would hide it from the stubs after it
    let head = names.abstract_marker.split('.').next().unwrap_or_default();
    if let Some(m) = members.iter().find(|m| !head.is_empty() && m.name == head) {
        return Err(refused(format!(
            "the class has a method {}, which in the interface's body would hide @{} from the stubs after it",
            m.name, names.abstract_marker
        )));
    }
    Ok(names)
}

/// The module-level name bound to `from.name` (its local name: an alias
/// counts), when one is.
fn bound_as(module: &FileIndex, from: &str, name: &str) -> Option<String> {
    let wanted = [
        format!("{from}.{name}"),
        // the backport of typing's names
        format!("typing_extensions.{name}"),
    ];
    let mut found: Vec<&str> = module
        .exports
        .iter()
        .filter(|(local, _)| canonical(module, local).is_some_and(|c| wanted.contains(&c)))
        .map(|(local, _)| &**local)
        .collect();
    found.sort_by_key(|local| (*local != name, *local));
    found.first().map(|s| s.to_string())
}

/// The local name of `import <from>` (`import abc`, `import abc as a`).
fn module_alias(module: &FileIndex, from: &str) -> Option<String> {
    let mut found: Vec<&str> = module
        .exports
        .iter()
        .filter(|(_, &value)| {
            matches!(module.value(module.through_same(value)), Value::Module(m) if module.name(m) == from)
        })
        .map(|(local, _)| &**local)
        .collect();
    found.sort();
    found.first().map(|s| s.to_string())
}

/// Whether the module may bind `name` at module level: nothing binds it
/// there or reads it as a builtin, a star import's or undefined, and no
/// stub of the interface is named so.
fn free(file: &Parsed, module: &FileIndex, name: &str, members: &[Member<'_>]) -> bool {
    let scopes = file.scopes();
    !module.exports.contains_key(name)
        && !scopes
            .bindings
            .iter()
            .any(|b| b.scope == 0 && b.name == name)
        && !scopes.references.iter().any(|r| {
            r.name == name
                && matches!(
                    r.resolution,
                    Resolution::Builtin | Resolution::Star | Resolution::Undefined
                )
        })
        && !members.iter().any(|m| m.name == name)
}

/// A top-level `from <from> import a, b` above the class, to add names to.
fn existing_from<'t>(file: &'t Parsed, from: &str, statement: Node<'_>) -> Option<Node<'t>> {
    let root = file.tree.root();
    let mut cursor = root.walk();
    let found = root.named_children(&mut cursor).find(|s| {
        s.kind() == "import_from_statement"
            && s.start_byte() < statement.start_byte()
            && s.child_by_field_name("module_name")
                .is_some_and(|m| file.node_text(m) == from)
            && {
                let mut c = s.walk();
                let star = s
                    .named_children(&mut c)
                    .any(|n| n.kind() == "wildcard_import");
                !star
            }
    });
    found
}
