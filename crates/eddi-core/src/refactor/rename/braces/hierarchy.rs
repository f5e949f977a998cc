//! Java's, JavaScript's and TypeScript's class hierarchies in a brace
//! rename: the project classes a class derives from (and the first
//! supertype outside the project), and the new names a class of the
//! lineage already has.

use super::Parsed;
use crate::analysis::index::tags::family::family_id;
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::language;
use crate::refactor::{Argument, Project, RefactorError, RefactorFailure};

/// The first supertype outside the project that `class` (of `file`)
/// derives from, through the project's classes it extends or implements:
/// its name as written, or the expression a JavaScript class extends
/// (`mixin(Base)`).
pub(super) fn outside_supertype(
    project: &Project<'_>,
    file: &Parsed,
    class: &Symbol,
) -> Result<Option<String>, RefactorError> {
    lineage(project, file, class, &mut Vec::new(), &mut Vec::new())
}

/// Follows `class`'s supertypes through the project's classes: pushes
/// each project class it derives from onto `names` (by name) and answers
/// the first supertype outside the project (see [`outside_supertype`]).
/// `seen` holds the classes already followed (a cycle of invalid code
/// ends there).
fn lineage(
    project: &Project<'_>,
    file: &Parsed,
    class: &Symbol,
    seen: &mut Vec<(String, usize)>,
    names: &mut Vec<String>,
) -> Result<Option<String>, RefactorError> {
    const DEEPEST: usize = 16;
    if seen.len() > DEEPEST || seen.contains(&(file.path.to_string(), class.full.start)) {
        return Ok(None);
    }
    seen.push((file.path.to_string(), class.full.start));
    let root = project.index.root();
    let tags = project.index.tags();
    let mut outside = None;
    for supertype in language::rename::supertypes(&file.text, &file.tree, class.definition.clone())
    {
        let name = match supertype {
            language::rename::Supertype::Named(name) => name,
            language::rename::Supertype::Expression(text) => {
                outside.get_or_insert(text);
                continue;
            }
        };
        let last = name.rsplit('.').next().unwrap_or(&name).to_string();
        let family = family_id(file.language);
        let found: Vec<_> = tags
            .find_definition(root, &last, None)
            .unwrap_or_default()
            .into_iter()
            .filter(|d| d.kind == SymbolKind::Class)
            .filter(|d| {
                language::language_of(&d.location.path).is_some_and(|l| family_id(l) == family)
            })
            .collect();
        if found.is_empty() {
            outside.get_or_insert(name);
            continue;
        }
        names.push(last);
        for definition in found {
            let Some(language) = language::language_of(&definition.location.path) else {
                continue;
            };
            let other = Parsed::read(project, language, &definition.location.path)?;
            let declared = other.outline.symbols.iter().find(|s| {
                s.kind == SymbolKind::Class && s.name_position == definition.name_position
            });
            if let Some(declared) = declared {
                let further = lineage(project, &other, declared, seen, names)?;
                if let Some(further) = further {
                    outside.get_or_insert(further);
                }
            }
        }
    }
    Ok(outside)
}

/// Java, JavaScript, TypeScript: refuses a member's new name that a class
/// of its lineage has (one it derives from, or one deriving from it): one
/// method would then override the other (`A.foo` renamed `baz` where `B
/// extends A` has `baz`: `new B().bar()` then calls `B.baz`).
pub(super) fn refuse_taken_in_hierarchy(
    project: &Project<'_>,
    file: &Parsed,
    symbol: &Symbol,
    new: &str,
) -> Result<(), RefactorError> {
    if !matches!(
        file.language.id(),
        "java" | "javascript" | "typescript" | "tsx"
    ) || !matches!(symbol.kind, SymbolKind::Method | SymbolKind::Attribute)
    {
        return Ok(());
    }
    let Some(class) = file
        .outline
        .parent(symbol)
        .filter(|p| p.kind == SymbolKind::Class)
    else {
        return Ok(());
    };
    let root = project.index.root();
    let family = family_id(file.language);
    let others: Vec<_> = project
        .index
        .tags()
        .find_definition(root, new, None)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| matches!(d.kind, SymbolKind::Method | SymbolKind::Attribute))
        .filter(|d| language::language_of(&d.location.path).is_some_and(|l| family_id(l) == family))
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    let mut ancestors = Vec::new();
    lineage(project, file, class, &mut Vec::new(), &mut ancestors)?;
    for other in others {
        let Some(language) = language::language_of(&other.location.path) else {
            continue;
        };
        let other_file = Parsed::read(project, language, &other.location.path)?;
        let member = other_file
            .outline
            .symbols
            .iter()
            .find(|s| s.name_position == other.name_position);
        let Some(member) = member else {
            continue;
        };
        let Some(owner) = other_file
            .outline
            .parent(member)
            .filter(|p| p.kind == SymbolKind::Class)
        else {
            continue;
        };
        if owner.name == class.name {
            continue; // its own class: refuse_taken's
        }
        let related = ancestors.contains(&owner.name) || {
            let mut theirs = Vec::new();
            lineage(project, &other_file, owner, &mut Vec::new(), &mut theirs)?;
            theirs.contains(&class.name)
        };
        if related {
            return Err(RefactorError::new(
                RefactorFailure::NameConflict,
                format!(
                    "Name conflict exists: {}:{} already defines {} in the lineage of {}: renamed, one method would override the other; choose another name",
                    other.location.path,
                    member.name_position.line + 1,
                    member.qualified_name,
                    class.name,
                ),
            )
            .at(Argument::NewName));
        }
    }
    Ok(())
}
