//! Would the new name collide or shadow? Each check fails with
//! `Name conflict exists: <file:line and what>` (zero-based lines, as
//! everywhere in Eddi).

use std::ops::Range;

use crate::analysis::index::rename::{DefInfo, Subclasses};
use crate::analysis::index::resolve::DefRef;
use crate::analysis::index::ProjectIndex;
use crate::analysis::scope::{self, Resolution, ScopeKind, Scopes};
use crate::refactor::Parsed;

use super::{RefactorError, RefactorFailure};

fn conflict(message: String) -> RefactorError {
    RefactorError::new(
        RefactorFailure::NameConflict,
        format!("Name conflict exists: {message}"),
    )
    .at(crate::refactor::Argument::NewName)
}

/// A module that already binds the new name, for a module-level symbol.
pub(super) fn in_modules(
    index: &ProjectIndex,
    defs: &[DefInfo],
    new: &str,
) -> Result<(), RefactorError> {
    for d in defs.iter().filter(|d| d.parent.is_none()) {
        if let Some(at) = index.module_binds(&d.path, new) {
            let module = index.module_of(&d.path).unwrap_or(&d.path);
            return Err(conflict(format!(
                "{}:{} module {module} already binds '{new}'",
                d.path, at.line
            )));
        }
    }
    Ok(())
}

/// A class of the hierarchy (or one deriving from it) that already has a
/// member of the new name, its own or inherited: the hierarchy's classes
/// in order, each before the classes deriving from it. Those are looked
/// for among the classes that own a member of the new name and what
/// derives from them, not among every subclass (a rename of a method of
/// a base of every test class).
pub(super) fn in_classes(
    index: &ProjectIndex,
    subclasses: &Subclasses,
    members: &[DefInfo],
    new: &str,
) -> Result<(), RefactorError> {
    let mut classes = Vec::new();
    for m in members {
        if let Some(class) = m.parent {
            if !classes.contains(&class) {
                classes.push(class);
            }
        }
    }
    let has_new = |class: DefRef| {
        index
            .members_named(class, new)
            .into_iter()
            .find_map(|d| index.def_info(d))
    };
    // every class that finds a member `new`, among the owners of one and
    // what derives from them, sorted
    let mut finding_new: Option<Vec<(DefRef, DefInfo)>> = None;
    let mut seen: Vec<DefRef> = Vec::new();
    for &class in &classes {
        if seen.contains(&class) {
            continue; // a subclass of one before: looked at with it
        }
        seen.push(class);
        let found = has_new(class).map(|other| (class, other)).or_else(|| {
            let finding = finding_new.get_or_insert_with(|| {
                let mut out: Vec<DefRef> = Vec::new();
                for owner in index.classes_owning(new) {
                    out.push(owner);
                    out.extend(subclasses.of(owner));
                }
                out.sort();
                out.dedup();
                out.into_iter()
                    .filter_map(|c| Some((c, has_new(c)?)))
                    .collect()
            });
            finding
                .iter()
                .find(|(c, _)| *c != class && index.ancestors(*c).contains(&class))
                .cloned()
        });
        if let Some((class, other)) = found {
            let owner = index
                .def_info(class)
                .map(|c| c.full_name)
                .unwrap_or_default();
            return Err(conflict(format!(
                "{}:{} {} already has a member '{new}' ({owner} would see both)",
                other.path, other.name_location.position.line, other.full_name
            )));
        }
        for sub in classes
            .iter()
            .filter(|&&c| index.ancestors(c).contains(&class))
        {
            seen.push(*sub);
        }
    }
    Ok(())
}

/// In one file whose text uses the new name: a site that binds the old
/// name in a scope that already binds or reads the new one, or a use of
/// the old name from a scope where the new one is bound in between.
/// `sites` are char ranges of `text`.
pub(super) fn in_file(
    file: &Parsed,
    sites: &[Range<usize>],
    old: &str,
    new: &str,
) -> Result<(), RefactorError> {
    let (path, text, scopes) = (file.path(), file.text(), file.scopes());
    let line = |offset: usize| text.char_to_line(offset.min(text.len_chars()));
    let describe = |s: usize| -> String {
        let sc = &scopes.scopes[s];
        match (sc.kind, &sc.name) {
            (ScopeKind::Module, _) => "the module".to_string(),
            (ScopeKind::Class, Some(n)) => format!("class {n}"),
            (ScopeKind::Function, Some(n)) => format!("function {n}"),
            (kind, _) => format!("a {kind:?}").to_lowercase(),
        }
    };
    for site in sites {
        if let Some(b) = scopes.bindings.iter().find(|b| b.range == *site) {
            if let Some(other) = scopes.bindings_of(b.scope, new).next() {
                return Err(conflict(format!(
                    "{path}:{} already binds '{new}' in {}",
                    line(other.range.start),
                    describe(b.scope)
                )));
            }
            if let Some(r) = captured(scopes, b.scope, new) {
                let meaning = match r.resolution {
                    Resolution::Builtin => "the builtin".to_string(),
                    Resolution::Scope(s) => format!("the name of {}", describe(s)),
                    _ => "a name from elsewhere".to_string(),
                };
                return Err(conflict(format!(
                    "{path}:{} uses '{new}' ({meaning}), which the renamed '{old}' would shadow",
                    line(r.range.start)
                )));
            }
        } else if let Some(r) = scopes.references.iter().find(|r| r.range == *site) {
            // bound in this file, or beyond it (an import, a star import)
            let bound = match r.resolution {
                Resolution::Scope(b) => Some(b),
                _ => None,
            };
            let mut s = r.scope;
            let mut first = true;
            while Some(s) != bound {
                let sc = &scopes.scopes[s];
                if first || sc.kind != ScopeKind::Class {
                    if let Some(other) = scopes.bindings_of(s, new).next() {
                        return Err(conflict(format!(
                            "{path}:{} binds '{new}' in {}, where {path}:{} uses '{old}'",
                            line(other.range.start),
                            describe(s),
                            line(site.start)
                        )));
                    }
                }
                first = false;
                match sc.parent {
                    Some(p) => s = p,
                    None => break,
                }
            }
        }
    }
    Ok(())
}

/// A read of `new` in `scope` or a scope it encloses that does not resolve
/// inside `scope`: binding `new` in `scope` would change what it means.
fn captured<'s>(scopes: &'s Scopes, scope: usize, new: &str) -> Option<&'s scope::Reference> {
    let class = scopes.scopes[scope].kind == ScopeKind::Class;
    scopes.references.iter().find(|r| {
        if r.name != new || !scopes.is_within(r.scope, scope) {
            return false;
        }
        // class bodies are not visible from the functions nested in them
        if class && r.scope != scope {
            return false;
        }
        !matches!(r.resolution, Resolution::Scope(t) if scopes.is_within(t, scope))
    })
}
