//! Go's share of a brace rename: the example functions that spell a
//! name (`ExampleWriter_WriteAll`), the `//go:linkname` directives that
//! name a function, the types a struct embeds (its
//! field named by the type, its methods promoted), the new names a type
//! related to the member's by embedding takes, and the interfaces a
//! method's new name may make its type satisfy.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{name_at, Parsed, Target};
use crate::analysis::index::tags::family::family_id;
use crate::analysis::index::tags::scan::{DeclaredKind, Qualifier};
use crate::analysis::index::tags::TagsEntry;
use crate::analysis::outline::SymbolKind;
use crate::language::Language;
use crate::refactor::rename::Location;
use crate::refactor::{Argument, Project, RefactorError, RefactorFailure, Unproven};

/// The member uses named like the type `old` (`s.Position`) when a
/// struct of the project embeds it (`Position`, `*Position`,
/// `pkg.Position`: the index's scan lists them, [`TagsFile::embedded`]):
/// the embedded field is named by the type. Listed as possible, for they
/// may also be a field that only shares the name. So is a struct
/// literal's key spelling it (`S{Position: p}`), which the index proves a
/// use of the type: it leaves `proven` for the possible sites.
///
/// [`TagsFile::embedded`]: crate::analysis::index::tags::scan::TagsFile::embedded
pub(super) fn embedded_uses(
    project: &Project<'_>,
    language: &'static dyn Language,
    old: &str,
    proven: &mut Vec<Location>,
    possible: &[Location],
) -> Result<Vec<Unproven>, RefactorError> {
    let tags = project.index.tags();
    let candidates = tags.files_with(family_id(language), &[old], false);
    if !embeds_any(&candidates, &[old]) {
        return Ok(Vec::new());
    }
    let why = "a struct embedding the type has a field of its name";
    let mut found = Vec::new();
    // a promoted field is read from any package
    for entry in &candidates {
        for r in entry.file().refs_named(old) {
            let member = !matches!(r.qualifier, Qualifier::None | Qualifier::Path(_));
            let known = proven
                .iter()
                .map(|l| (&l.path, l.position))
                .chain(possible.iter().map(|l| (&l.path, l.position)))
                .any(|(path, at)| *path == entry.path && at == r.start);
            if member && !known {
                found.push(Unproven {
                    site: name_at(&entry.path, r.start, old),
                    why: why.to_string(),
                });
            }
        }
    }
    let mut keys = Vec::new();
    let mut by_file: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, site) in proven.iter().enumerate() {
        if site.path.ends_with(".go") {
            by_file.entry(site.path.as_str()).or_default().push(i);
        }
    }
    for (path, sites) in by_file {
        let file = super::Parsed::read(project, language, path)?;
        for i in sites {
            let at = crate::edit::position::to_char(&file.text, proven[i].position);
            if at.is_ok_and(|at| {
                crate::language::rename::is_go_field_key(&file.text, &file.tree, at)
            }) {
                keys.push(i);
            }
        }
    }
    for i in keys.into_iter().rev() {
        found.push(Unproven {
            site: proven.remove(i),
            why: format!("{why} (a literal's key)"),
        });
    }
    Ok(found)
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

/// A method renamed to a method of an interface of the project (named,
/// or written in place: `v.(interface{ Flush() })`) may make its type
/// satisfy that interface, and then a type assertion or switch on it
/// takes another branch while everything compiles: the method's own site
/// is possible, unless the interface has a method the type lacks (one it
/// embeds, the interface's method set unknown, counts as had).
pub(super) fn interfaces_it_would_satisfy(
    project: &Project<'_>,
    target: &Target,
    new: &str,
) -> Result<Vec<Unproven>, RefactorError> {
    let Target {
        def_path,
        symbol,
        old,
        full_name,
        class,
        ..
    } = target;
    let (Some(class), SymbolKind::Method) = (class, symbol.kind) else {
        return Ok(Vec::new());
    };
    let tags = project.index.tags();
    let root = project.index.root();
    // (a Go type's methods may be declared in any file of its package)
    let prefix = full_name.rsplit_once('.').map_or("", |(p, _)| p);
    let has = |method: &str| {
        method == new
            || (method != old.as_str()
                && tags
                    .find_definition(root, &format!("{class}.{method}"), None)
                    .unwrap_or_default()
                    .iter()
                    .any(|d| d.qualified_name == format!("{prefix}.{method}")))
    };
    let others = tags.find_definition(root, new, None).unwrap_or_default();
    let mut possible = Vec::new();
    for other in others.iter().filter(|d| d.kind == SymbolKind::Method) {
        let Some((file, _)) = Parsed::of_definition(project, other)? else {
            continue;
        };
        let Some(methods) = interface_methods(&file, other.name_position) else {
            continue;
        };
        if methods.iter().all(|m| m.as_deref().is_none_or(has)) {
            possible.push(Unproven {
                site: name_at(def_path, symbol.name_position, old),
                why: format!(
                    "the new name {new} is a method of the interface at {}:{}: renamed, {class} may satisfy it, and a type assertion or switch on it then takes another branch",
                    other.location.path,
                    other.name_position.line + 1
                ),
            });
        }
    }
    Ok(possible)
}

/// The methods of the Go interface that declares the method named at
/// `at` (`None` each for what it embeds); `None` when the name is no
/// interface's method (a type's own).
fn interface_methods(file: &Parsed, at: crate::edit::Position) -> Option<Vec<Option<String>>> {
    let char = crate::edit::position::to_char(&file.text, at).ok()?;
    let byte = file.text.char_to_byte(char);
    let name = file
        .tree
        .root()
        .named_descendant_for_byte_range(byte, byte)?;
    let interface = name
        .parent()
        .filter(|m| m.kind() == "method_elem")?
        .parent()
        .filter(|i| i.kind() == "interface_type")?;
    let mut cursor = interface.walk();
    let methods = interface
        .named_children(&mut cursor)
        .filter(|e| e.kind() != "comment")
        .map(|e| {
            e.child_by_field_name("name")
                .filter(|_| e.kind() == "method_elem")
                .map(|n| file.text.byte_slice(n.byte_range()).to_string())
        })
        .collect();
    Some(methods)
}

/// Go selects a member at the shallowest depth of a type's embedding
/// tree, where one type alone may declare it: refuses a member's new name
/// that a type related to its own by embedding has — one that embeds it
/// (at any depth), or one any of those embeds — as a field, a method or
/// an embedded field. Renamed, one would shadow the other in a selector
/// (`o.Foo()` calling another method, and everything compiling), or make
/// it ambiguous. The types are matched by name, in any package.
pub(super) fn refuse_taken_through_embedding(
    project: &Project<'_>,
    target: &Target,
    new: &str,
) -> Result<(), RefactorError> {
    let (Some(class), "go") = (target.class.as_deref(), target.language.id()) else {
        return Ok(());
    };
    if !matches!(
        target.symbol.kind,
        SymbolKind::Method | SymbolKind::Attribute
    ) {
        return Ok(());
    }
    let tags = project.index.tags();
    let family = family_id(target.language);
    // (owner, embedded type's name) of each embedding of the types read
    let embeddings = |t: &str| -> Vec<(String, String)> {
        let mut found = Vec::new();
        for entry in tags.files_with(family, &[t], false) {
            for d in &entry.file().declared {
                if let (DeclaredKind::Embedded, Some(owner)) = (&d.kind, d.owner.as_deref()) {
                    if !d.name.is_empty() && (d.name == t || owner == t) {
                        found.push((owner.to_string(), d.name.to_string()));
                    }
                }
            }
        }
        found
    };
    // the types that embed the class, then those any of them embeds
    let mut above = vec![class.to_string()];
    let mut at = 0;
    while let Some(t) = above.get(at).cloned() {
        at += 1;
        for (owner, _) in embeddings(&t).into_iter().filter(|(_, inner)| *inner == t) {
            if !above.contains(&owner) {
                above.push(owner);
            }
        }
    }
    let mut related = above.clone();
    let mut taken_by_field = None;
    let mut at = 0;
    while let Some(t) = related.get(at).cloned() {
        at += 1;
        for (_, inner) in embeddings(&t).into_iter().filter(|(owner, _)| *owner == t) {
            if inner == new {
                taken_by_field.get_or_insert(t.clone());
            }
            if !related.contains(&inner) {
                related.push(inner);
            }
        }
    }
    if related.len() == 1 {
        return Ok(());
    }
    let conflict = |taken: String| {
        RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: {taken}, and {class} is related to its type by embedding: renamed, one would shadow the other in a selector, or make it ambiguous; choose another name"
            ),
        )
        .at(Argument::NewName)
    };
    if let Some(owner) = taken_by_field {
        return Err(conflict(format!(
            "{owner} already embeds a type named {new}"
        )));
    }
    let root = project.index.root();
    let defined = tags.find_definition(root, new, None).unwrap_or_default();
    for other in defined {
        let member = matches!(other.kind, SymbolKind::Method | SymbolKind::Attribute);
        let kin = crate::language::language_of(&other.location.path)
            .is_some_and(|l| family_id(l) == family_id(target.language));
        let owner = other.qualified_name.rsplit('.').nth(1).unwrap_or_default();
        if member && kin && owner != class && related.iter().any(|r| r == owner) {
            return Err(conflict(format!(
                "{}:{} already defines {}",
                other.location.path,
                other.name_position.line + 1,
                other.qualified_name,
            )));
        }
    }
    Ok(())
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

/// The `//go:linkname old target` directives of the package that
/// declares `old`: their first word is its local name (a function
/// declared without a body takes another package's by it), which the
/// compiler checks against the package's declarations.
pub(super) fn linknames(
    project: &Project<'_>,
    def_path: &str,
    old: &str,
) -> Result<Vec<Location>, RefactorError> {
    let dir = def_path.rsplit_once('/').map_or("", |(d, _)| d);
    let files = files_in(project, dir);
    let mut found = Vec::new();
    for path in files {
        let text = project.source(&path)?.text;
        for (line, content) in text.lines().enumerate() {
            let content = content.to_string();
            let Some(rest) = content.strip_prefix("//go:linkname ") else {
                continue;
            };
            let name = rest.split_whitespace().next().unwrap_or("");
            if name == old {
                let col = "//go:linkname ".len() + (rest.len() - rest.trim_start().len());
                found.push(name_at(&path, crate::edit::Position::new(line, col), old));
            }
        }
    }
    Ok(found)
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

/// The Go files the index holds directly in the directory `dir` (a
/// package's, with its `_test` package's).
pub(super) fn files_in(project: &Project<'_>, dir: &str) -> Vec<String> {
    project
        .index
        .tags()
        .paths()
        .filter(|p| p.ends_with(".go") && p.rsplit_once('/').map_or("", |(d, _)| d) == dir)
        .map(str::to_string)
        .collect()
}
