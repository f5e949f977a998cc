//! Rust's trait families in a brace rename: a trait's method and the
//! methods of each `impl Trait for T` block that implement it keep one
//! name, so a rename renames them together (as Java's overrides,
//! [`super::hierarchy::family`]).

use super::hierarchy::Family;
use super::Parsed;
use crate::analysis::index::tags::family::family_id;
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::refactor::{Project, RefactorError};

/// The family of a Rust method that a trait declares or that an `impl
/// Trait for T` block implements: the trait's method of the name and
/// every implementation's, as the index defines them (the method itself
/// none of them). `None` where the trait is no one trait of the project
/// (one outside it, `Display`, fixes the name; two of the name leave the
/// implementations' trait unknown).
pub(super) fn family(
    project: &Project<'_>,
    file: &Parsed,
    method: &Symbol,
) -> Result<Option<Family>, RefactorError> {
    let declared_in = file
        .outline
        .parent(method)
        .filter(|p| p.kind == SymbolKind::Class && is_trait(file, p));
    let trait_name = match (&method.via_trait, declared_in) {
        (Some(name), _) => name.clone(),
        (None, Some(declared)) => declared.name.clone(),
        (None, None) => return Ok(None),
    };
    let root = project.index.root();
    let tags = project.index.tags();
    let rust = family_id(file.language);
    // the one trait of the name
    let mut traits = Vec::new();
    for definition in tags
        .find_definition(root, &trait_name, None)
        .unwrap_or_default()
    {
        let language = crate::language::language_of(&definition.location.path)
            .filter(|l| family_id(*l) == rust);
        let Some(language) = language.filter(|_| definition.kind == SymbolKind::Class) else {
            continue;
        };
        let other = Parsed::read(project, language, &definition.location.path)?;
        let declared = other
            .outline
            .symbols
            .iter()
            .find(|s| s.name_position == definition.name_position)
            .filter(|s| is_trait(&other, s))
            .cloned();
        if let Some(declared) = declared {
            traits.push((definition.location.path.clone(), other, declared));
        }
    }
    let [(trait_path, trait_file, declared)] = &traits[..] else {
        return Ok(None);
    };
    // its method of the name, and each implementation's
    let mut members: Vec<(String, crate::edit::Position)> = trait_file
        .outline
        .symbols
        .iter()
        .filter(|s| {
            s.name == method.name
                && trait_file
                    .outline
                    .parent(s)
                    .is_some_and(|p| p.full == declared.full)
        })
        .map(|s| (trait_path.clone(), s.name_position))
        .collect();
    for entry in tags.files_with(rust, &[trait_name.as_str(), method.name.as_str()], false) {
        let other = Parsed::read(project, entry.language, &entry.path)?;
        members.extend(
            other
                .outline
                .symbols
                .iter()
                .filter(|s| s.name == method.name && s.via_trait.as_deref() == Some(&trait_name))
                .map(|s| (entry.path.clone(), s.name_position)),
        );
    }
    members.retain(|(path, at)| (path.as_str(), *at) != (file.path.as_str(), method.name_position));
    members.sort();
    members.dedup();
    let definitions = tags
        .find_definition(root, &method.name, None)
        .unwrap_or_default();
    let mut found = Vec::new();
    for (path, at) in members {
        match definitions
            .iter()
            .find(|d| d.location.path == path && d.name_position == at)
        {
            Some(d) => found.push(d.clone()),
            None => return Ok(None),
        }
    }
    Ok(Some(Family {
        members: found,
        classes: Vec::new(),
        complete: false,
    }))
}

/// Whether a class-like symbol of a Rust file is a `trait`.
fn is_trait(file: &Parsed, symbol: &Symbol) -> bool {
    super::parsed::head_before_name(file, symbol)
        .split_whitespace()
        .any(|w| w == "trait")
}
