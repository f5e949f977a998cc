//! The new name must be free where it is defined and where it is called.

use super::host::Host;
use super::File;
use crate::analysis::scope::{Resolution, ScopeKind};
use crate::refactor::{ExtractKind, RefactorError, RefactorFailure};

/// The new name must not collide with what the class or module defines,
/// nor be shadowed where it is called.
pub(super) fn check_name(
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
    };
    match (kind, host.method()) {
        (ExtractKind::Method, Some(m)) => {
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
