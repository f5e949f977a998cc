//! Go's share of a brace rename: the example functions that spell a
//! name (`ExampleWriter_WriteAll`), and the types a struct embeds (its
//! field named by the type, its methods promoted).

use std::sync::Arc;

use super::{name_at, Parsed};
use crate::analysis::index::tags::family::family_id;
use crate::analysis::index::tags::scan::Qualifier;
use crate::analysis::index::tags::TagsEntry;
use crate::analysis::outline::SymbolKind;
use crate::language::Language;
use crate::refactor::rename::Location;
use crate::refactor::{Project, RefactorError, Unproven};

/// The member uses named like the type `old` (`s.Position`) when a
/// struct of the project embeds it (`Position`, `*Position`,
/// `pkg.Position`: the index's scan lists them, [`TagsFile::embedded`]):
/// the embedded field is named by the type. Listed as possible, for they
/// may also be a field that only shares the name.
///
/// [`TagsFile::embedded`]: crate::analysis::index::tags::scan::TagsFile::embedded
pub(super) fn embedded_uses(
    project: &Project<'_>,
    language: &'static dyn Language,
    old: &str,
    proven: &[Location],
    possible: &[Location],
) -> Vec<Unproven> {
    let tags = project.index.tags();
    let known = |path: &str, at: crate::edit::Position| {
        proven
            .iter()
            .chain(possible)
            .any(|l| l.path == path && l.position == at)
    };
    let candidates = tags.files_with(family_id(language), &[old], false);
    let embedded = embeds_any(&candidates, &[old]);
    let mut found = Vec::new();
    // a promoted field is read from any package
    for entry in candidates.iter().filter(|_| embedded) {
        for r in entry.file().refs_named(old) {
            let member = !matches!(r.qualifier, Qualifier::None | Qualifier::Path(_));
            if member && !known(&entry.path, r.start) {
                found.push(Unproven {
                    site: name_at(&entry.path, r.start, old),
                    why: "a struct embedding the type has a field of its name".to_string(),
                });
            }
        }
    }
    found
}

/// Whether a Go struct of the project embeds `class` or the type of
/// `other` (a method of the same name): then one's method may be promoted
/// through the other, or shadow it.
pub(super) fn embeds_either(
    project: &Project<'_>,
    language: &'static dyn Language,
    class: Option<&str>,
    other: &crate::analysis::index::Definition,
) -> bool {
    let owner = other
        .qualified_name
        .rsplit('.')
        .nth(1)
        .unwrap_or(&other.qualified_name);
    let types: Vec<&str> = class.into_iter().chain([owner]).collect();
    let candidates = project
        .index
        .tags()
        .files_with(family_id(language), &types, false);
    embeds_any(&candidates, &types)
}

/// Whether a Go struct of `files` embeds one of `types`.
fn embeds_any(files: &[&Arc<TagsEntry>], types: &[&str]) -> bool {
    files.iter().any(|entry| {
        entry
            .file()
            .embedded
            .iter()
            .any(|name| types.contains(&name.as_str()))
    })
}

/// The spelling of `old` in the names of the Go example functions of its
/// package's test files (`Example<F>`, `Example<T>_<M>`, either with a
/// `_suffix`; a type's also `Example<T>_<M>`), where `class` is the
/// member's type.
pub(super) fn examples(
    project: &Project<'_>,
    language: &'static dyn Language,
    def_path: &str,
    class: Option<&str>,
    is_type: bool,
    old: &str,
) -> Result<Vec<Location>, RefactorError> {
    let dir = def_path.rsplit_once('/').map_or("", |(d, _)| d);
    let prefix = match class {
        Some(class) => format!("Example{class}_"),
        None => "Example".to_string(),
    };
    let tests: Vec<String> = project
        .index
        .tags()
        .paths()
        .filter(|p| p.ends_with("_test.go") && p.rsplit_once('/').map_or("", |(d, _)| d) == dir)
        .map(str::to_string)
        .collect();
    let mut found = Vec::new();
    for path in tests {
        let file = Parsed::read(project, language, &path)?;
        for s in file
            .outline
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Function)
        {
            let named = s
                .name
                .strip_prefix(&prefix)
                .and_then(|rest| rest.strip_prefix(old))
                .is_some_and(|rest| {
                    rest.is_empty()
                        || rest
                            .strip_prefix('_')
                            .is_some_and(|suffix| is_type || suffix.starts_with(char::is_lowercase))
                });
            if named {
                let at = crate::edit::Position::new(
                    s.name_position.line,
                    s.name_position.col + prefix.chars().count(),
                );
                found.push(name_at(&path, at, old));
            }
        }
    }
    Ok(found)
}
