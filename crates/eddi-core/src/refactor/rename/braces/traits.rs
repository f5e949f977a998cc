//! Rust's trait families in a brace rename: a trait's method and the
//! methods of each `impl Trait for T` block that implement it keep one
//! name, so a rename renames them together (as Java's overrides,
//! [`super::hierarchy::family`]).

use super::hierarchy::Family;
use super::Parsed;
use crate::analysis::index::tags::family::family_id;
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::analysis::SyntaxTree;
use crate::language::Language;
use crate::refactor::{Project, RefactorError};
use ropey::Rope;

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
    let traits = project_traits(project, file.language, &trait_name)?;
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

/// The traits named `trait_name` the project declares: each one's file
/// (path and parse) and symbol.
fn project_traits(
    project: &Project<'_>,
    rust: &'static dyn Language,
    trait_name: &str,
) -> Result<Vec<(String, Parsed, Symbol)>, RefactorError> {
    let rust = family_id(rust);
    let mut traits = Vec::new();
    let definitions = project
        .index
        .tags()
        .find_definition(project.index.root(), trait_name, None)
        .unwrap_or_default();
    for definition in definitions {
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
    Ok(traits)
}

/// Why the method `new`, inserted into the `impl Trait for T` block
/// around it in `after` (the new text of a file of `rust`), cannot be
/// there: the trait — the project's, or the standard library's — declares
/// no method of its name (E0407), or is neither, so that what it declares
/// is unknown. `None`: it can, or `new` is no trait impl's method.
pub(super) fn inserted_foreign_to_trait(
    project: &Project<'_>,
    rust: &'static dyn Language,
    after: &Rope,
    tree: &SyntaxTree,
    new: &Symbol,
) -> Option<String> {
    let trait_name = new.via_trait.as_ref()?;
    let at = crate::edit::position::to_char(after, new.name_position).ok()?;
    let byte = after.char_to_byte(at);
    let mut node = tree.root().descendant_for_byte_range(byte, byte)?;
    while node.kind() != "impl_item" {
        node = node.parent()?;
    }
    let written = |field| {
        node.child_by_field_name(field)
            .map(|n| crate::analysis::syntax::node_text(after, n))
    };
    let (trait_written, ty) = (written("trait")?, written("type").unwrap_or_default());
    let name = &new.name;
    let traits = project_traits(project, rust, trait_name).ok()?;
    let why = if !traits.is_empty() {
        let declares = traits.iter().any(|(_, file, declared)| {
            file.outline.symbols.iter().any(|s| {
                s.name == *name
                    && file
                        .outline
                        .parent(s)
                        .is_some_and(|p| p.full == declared.full)
            })
        });
        let (path, _, declared) = &traits[0];
        (!declares).then(|| {
            format!(
                "the trait {trait_name} ({path}:{}) declares no method {name} (E0407)",
                declared.name_position.line + 1
            )
        })?
    } else {
        let std = crate::language::rust_std::std_traits(&trait_written, &after.to_string());
        match std.iter().find(|t| t.methods.contains(&name.as_str())) {
            Some(_) => return None,
            None if !std.is_empty() => format!(
                "the trait {trait_name} (std::{}) declares no method {name} (E0407)",
                std[0].path
            ),
            None => format!(
                "the trait {trait_name} is neither the project's nor the standard library's, and Eddi cannot see whether it declares a method {name} (E0407 if not); Insert Block writes it here anyway"
            ),
        }
    };
    Some(format!(
        "the cursor is in impl {trait_written} for {ty}, a trait's impl: {why}; Goto Class {ty} first (its inherent impl block, or a new one)"
    ))
}

/// Whether a class-like symbol of a Rust file is a `trait`.
fn is_trait(file: &Parsed, symbol: &Symbol) -> bool {
    super::parsed::head_before_name(file, symbol)
        .split_whitespace()
        .any(|w| w == "trait")
}
