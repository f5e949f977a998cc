//! The new name must be free where it is defined and where it is called.

use super::host::{Host, Method};
use super::File;
use crate::analysis::index::resolve::DefRef;
use crate::analysis::index::ProjectIndex;
use crate::analysis::outline::SymbolKind;
use crate::analysis::scope::{Resolution, ScopeKind};
use crate::refactor::{ExtractKind, Project, RefactorError, RefactorFailure};

/// The new name must not collide with what the class or module defines,
/// nor be shadowed where it is called.
pub(super) fn check_name(
    project: &Project<'_>,
    path: &str,
    file: &File<'_>,
    host: &Host<'_>,
    kind: ExtractKind,
    name: &str,
) -> Result<(), RefactorError> {
    let scopes = file.scopes;
    let line = |c: usize| file.line_of(c);
    let conflict = |what: String| {
        RefactorError::new(
            RefactorFailure::NameConflict,
            format!("Name conflict exists: {what}; choose another name"),
        )
        .at(crate::refactor::Argument::NewName)
    };
    match (kind, host.method()) {
        (ExtractKind::Method, Some(m)) => {
            if let Some(what) = in_hierarchy(project.index, path, file, m, name) {
                return Err(conflict(what));
            }
            if let Some(b) = scopes.bindings_of(m.class_scope, name).next() {
                return Err(conflict(format!(
                    "{}.{name} is already defined at line {}",
                    m.class,
                    line(b.range.start)
                )));
            }
            for a in &scopes.attributes {
                let Resolution::Scope(s) = a.object_resolution else {
                    continue;
                };
                let of_class = scopes.scopes[s].parent == Some(m.class_scope)
                    && !m.statics.contains(&s)
                    && scopes.scopes[s].first_param.as_deref() == Some(a.object.as_str());
                if a.attribute == name && of_class {
                    return Err(conflict(format!(
                        "{}.{name} is used in {} at line {}",
                        a.object,
                        m.class,
                        line(a.attribute_range.start)
                    )));
                }
            }
        }
        _ => {
            if let Some(b) = scopes.bindings_of(0, name).next() {
                return Err(conflict(format!(
                    "{name} is already defined at line {}",
                    line(b.range.start)
                )));
            }
            if let Some(r) = scopes.references.iter().find(|r| {
                r.name == name && matches!(r.resolution, Resolution::Builtin | Resolution::Star)
            }) {
                return Err(conflict(format!(
                    "{name} is used at line {} as a builtin or star import",
                    line(r.range.start)
                )));
            }
            // the call must reach the new function, not a local of that name
            let mut s = Some(host.scope);
            while let Some(i) = s {
                if i == 0 {
                    break;
                }
                if scopes.scopes[i].kind != ScopeKind::Class {
                    if let Some(b) = scopes.bindings_of(i, name).next() {
                        return Err(conflict(format!(
                            "{name} is a local name of {} at line {}",
                            scopes.scopes[i].name.as_deref().unwrap_or("?"),
                            line(b.range.start)
                        )));
                    }
                }
                s = scopes.scopes[i].parent;
            }
        }
    }
    Ok(())
}

/// A member `name` of a project base class (the new method would override
/// it) or of a project subclass (it would override the new method), from
/// the project index.
fn in_hierarchy(
    index: &ProjectIndex,
    path: &str,
    file: &File<'_>,
    method: &Method,
    name: &str,
) -> Option<String> {
    let class_line = file.line_of(file.scopes.scopes[method.class_scope].range.start);
    let (fid, f) = index
        .iter_files()
        .find(|(id, _)| index.path(*id) == Some(path))?;
    let def = f.defs.iter().position(|d| {
        d.kind == SymbolKind::Class
            && d.position.line == class_line
            && f.name(d.name) == method.class
    })?;
    let class = DefRef {
        file: fid,
        def: def as u32,
    };
    let member = |c: DefRef| -> Option<String> {
        let cf = index.file(c.file)?;
        let found = cf
            .defs
            .iter()
            .find(|d| d.parent == Some(c.def) && cf.name(d.name) == name)?;
        Some(format!(
            "{}.{name} is defined in {}:{}",
            cf.def(c.def).qualified,
            index.path(c.file).unwrap_or("?"),
            found.position.line
        ))
    };
    for base in index.ancestors(class) {
        if let Some(found) = member(base) {
            return Some(format!("{found}, which {} inherits", method.class));
        }
    }
    for (sid, sf) in index.iter_files() {
        for (d, def) in sf.defs.iter().enumerate() {
            if def.kind != SymbolKind::Class || def.bases.is_empty() {
                continue;
            }
            let sub = DefRef {
                file: sid,
                def: d as u32,
            };
            if index.ancestors(sub).contains(&class) {
                if let Some(found) = member(sub) {
                    return Some(format!("{found}, a subclass of {}", method.class));
                }
            }
        }
    }
    None
}
