//! `Refactor RenameSymbol` in the brace languages (JavaScript, TypeScript,
//! Go, Rust, Java), across the project, all or nothing.
//!
//! The sites are the brace index's ([`TagsIndex::find_references`]):
//! each definition and each use, certain where the module system proves
//! it (ES imports and re-exports, namespace imports, Go's `pkg.Name`,
//! Rust's `use` and `crate::`/`super::` paths, Java's packages and
//! imports, members through `this`/`self` and typed names), possible
//! where it cannot. A possible use refuses the rename unless the request
//! says `Include Possible` (renamed) or `Only Proven` (left, and named),
//! as Python's ([`super`]).
//!
//! What changes at a site: the name where it is written as the old name —
//! an import's alias keeps its own (`import { f as g }` renames `f` and
//! keeps `g` and its uses); a shorthand keeps its meaning (`{ f }` →
//! `{ f: g }` for a renamed variable, Rust's `C { x }` → `C { y: x }` for
//! a renamed field); a struct's field also in its literals' keys (Go
//! `C{X: 1}`, Rust `C { x: 1 }`); a Java class's constructors with it,
//! and a public class's file moved to the new name in the same change.
//! Refused: a new name that is no identifier or a keyword of the
//! language, one the defining file (or the type) binds already, one a
//! file whose uses change binds at module level, a Rust trait impl's
//! method and a Java `@Override` method (their names are their
//! supertype's), and an edit that leaves a file with more syntax errors.

use std::collections::BTreeMap;

use ropey::Rope;

use super::{captures, unproven_refusal, Location};
use crate::analysis::index::query::References;
use crate::analysis::index::tags::family::family_id;
use crate::analysis::index::tags::scan::{Imported, Qualifier};
use crate::analysis::outline::{Outline, Symbol, SymbolKind};
use crate::analysis::SyntaxTree;
use crate::change::{FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use crate::language::{self, Language};
use crate::refactor::{
    Argument, Evidence, LeftAlone, Project, RefactorError, RefactorFailure, Refactored, SitePolicy,
    Summary, Unproven,
};
use crate::workspace::WorkspacePath;

/// Renames the symbol whose sites are `found` to `new`.
pub(super) fn rename(
    project: &Project<'_>,
    found: References,
    new: &str,
    policy: SitePolicy,
) -> Result<Refactored, RefactorError> {
    let Some(first) = found.definitions.first().cloned() else {
        return Err(RefactorError::new(
            RefactorFailure::NotFound,
            "Not found: the symbol has no definition in the project",
        )
        .at(Argument::Symbol));
    };
    let def_path = first.location.path.clone();
    let language = language::language_of(&def_path).ok_or_else(|| {
        RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("{def_path} is of no language Eddi reads"),
        )
    })?;
    language::rename::check_name(language, new).map_err(|e| {
        RefactorError::new(RefactorFailure::InvalidArgument, e.message).at(Argument::NewName)
    })?;
    let full_name = first.qualified_name.clone();
    let def_file = Parsed::read(project, language, &def_path)?;
    let symbol = def_file
        .outline
        .symbols
        .iter()
        .find(|s| s.name_position == first.name_position)
        .cloned()
        .ok_or_else(|| {
            RefactorError::new(
                RefactorFailure::Stale,
                format!("{def_path} changed since the index read it; try again"),
            )
        })?;
    let old = symbol.name.clone();
    if old == new {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("{full_name} is already named '{new}': give another name"),
        )
        .at(Argument::NewName));
    }
    let class = member_of(&def_file.outline, &symbol);
    refuse_supertypes(language, &def_file, &symbol, &full_name)?;
    refuse_fixed_names(&def_file, class.as_deref(), &symbol, &full_name, new)?;
    refuse_taken(&def_file, &symbol, class.as_deref(), new)?;
    refuse_taken_in_package(project, &def_file, class.as_deref(), new)?;
    refuse_taken_in_hierarchy(project, &def_file, &symbol, new)?;
    refuse_taken_by_traits(project, &def_file, &symbol, class.as_deref(), new)?;

    // every site, by file: (start char, how it is written)
    let mut evidence = Evidence::default();
    let mut sites: BTreeMap<String, Vec<Location>> = BTreeMap::new();
    let mut proven: Vec<Location> = Vec::new();
    for def in &found.definitions {
        proven.push(name_at(&def.location.path, def.name_position, &old));
    }
    // a Java class's constructors carry its name
    if symbol.kind == SymbolKind::Class && language.id() == "java" {
        for s in &def_file.outline.symbols {
            let of_it = def_file.outline.parent(s).is_some_and(|p| p.name == old);
            if s.name == old && of_it && s.kind != SymbolKind::Class {
                proven.push(name_at(&def_path, s.name_position, &old));
            }
        }
    }
    // Go's example functions name what they show (`ExampleWriter_WriteAll`,
    // `ExampleNew`): `go vet` checks that the name they spell exists
    if language.id() == "go" {
        let is_type = symbol.kind == SymbolKind::Class;
        proven.extend(go_examples(
            project,
            language,
            &def_path,
            class.as_deref(),
            is_type,
            &old,
        )?);
    }
    proven.extend(found.certain.iter().cloned());
    // a TypeScript parameter property is its constructor's parameter too
    let (parameter_uses, bound_there) = language::rename::parameter_property_uses(
        language,
        &def_file.text,
        &def_file.tree,
        &symbol,
    );
    if bound_there.iter().any(|n| n == new) {
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: the constructor of {def_path}:{} binds {new}, where it reads the parameter {old}; choose another name",
                symbol.name_position.line + 1
            ),
        )
        .at(Argument::NewName));
    }
    let mut possible: Vec<Unproven> = found
        .possible
        .iter()
        .map(|site| Unproven {
            site: site.clone(),
            why: "the index cannot resolve it".to_string(),
        })
        .collect();
    // a member: another type's member of the name may override it, be
    // overridden by it or stand for it in an interface the index does not
    // follow
    if class.is_some() {
        let root = project.index.root();
        let others = project
            .index
            .tags()
            .find_definition(root, &old, None)
            .unwrap_or_default();
        for other in others {
            let own = found.definitions.iter().any(|d| {
                d.location.path == other.location.path && d.name_position == other.name_position
            });
            let member = matches!(other.kind, SymbolKind::Method | SymbolKind::Attribute);
            // (another language's type shares nothing with it)
            let kin = language::language_of(&other.location.path)
                .is_some_and(|l| family_id(l) == family_id(language));
            if !own && member && kin && other.qualified_name != full_name {
                if language.id() == "rust" && !declared_by_trait(project, &other) {
                    // another type's own: Rust types inherit nothing
                    continue;
                }
                if language.id() == "go"
                    && !declared_by_trait(project, &other)
                    && !go_embeds_either(project, language, class.as_deref(), &other)
                {
                    // another type's own method: Go types inherit nothing
                    // but what they embed
                    continue;
                }
                possible.push(Unproven {
                    site: name_at(&other.location.path, other.name_position, &old),
                    why: format!(
                        "{} has a member of the name, which may override it, be overridden by it or declare it for an interface",
                        other.qualified_name
                    ),
                });
            }
        }
    }
    // a method code outside the project may call by its name, through an
    // interface it implements (`errors.Is` calls `Unwrap`)
    if let (Some(class), SymbolKind::Method) = (&class, symbol.kind) {
        let prefix = full_name.rsplit_once('.').map_or("", |(p, _)| p);
        let tags = project.index.tags();
        let has = |method: &str| {
            tags.find_definition(project.index.root(), &format!("{class}.{method}"), None)
                .unwrap_or_default()
                .iter()
                .any(|d| d.qualified_name == format!("{prefix}.{method}"))
        };
        let declaration = def_file
            .outline
            .symbols
            .iter()
            .find(|s| s.kind == SymbolKind::Class && s.name == *class)
            .map(|s| def_file.text.slice(s.definition.clone()).to_string())
            .unwrap_or_default();
        let interface = language::rename::external_interface(language, &old, has, &declaration);
        if let Some(interface) = interface {
            possible.push(Unproven {
                site: name_at(&def_path, symbol.name_position, &old),
                why: format!(
                    "code outside the project may call it by its name, through {interface}"
                ),
            });
        }
        // and the new name: `Describe` renamed `String` makes the type a
        // `fmt.Stringer`, and `fmt` prints it otherwise
        let has_after = |method: &str| method != old && (method == new || has(method));
        let interface =
            language::rename::external_interface(language, new, has_after, &declaration);
        if let Some(interface) = interface {
            possible.push(Unproven {
                site: name_at(&def_path, symbol.name_position, &old),
                why: format!(
                    "code outside the project calls the new name {new} through {interface}: renamed, the method changes what that code does"
                ),
            });
        }
    }
    // Java, JavaScript, TypeScript: a class deriving from a type outside
    // the project may override that type's method of the name, which code
    // there calls by it (`Thread.run`); Java's private and static methods
    // override nothing
    if let (Some(class), SymbolKind::Method) = (&class, symbol.kind) {
        let overridable = match language.id() {
            "java" => !has_modifier(&def_file, &symbol, &["private", "static"]),
            "javascript" | "typescript" | "tsx" => {
                !old.starts_with('#') && !has_modifier(&def_file, &symbol, &["private"])
            }
            _ => false,
        };
        let parent = def_file
            .outline
            .parent(&symbol)
            .filter(|p| p.name == *class);
        if let Some(parent) = parent.filter(|_| overridable) {
            if let Some(outside) = outside_supertype(project, &def_file, parent)? {
                possible.push(Unproven {
                    site: name_at(&def_path, symbol.name_position, &old),
                    why: format!(
                        "{class} derives from {outside}, outside the project, whose method of the name it may override (code there calls it by that name)"
                    ),
                });
            }
        }
    }
    // a member code outside the project reads by its name, as its
    // declaration says (a serializer, an ORM, a template, generated
    // accessors)
    if class.is_some() && matches!(symbol.kind, SymbolKind::Attribute | SymbolKind::Method) {
        let at = crate::edit::position::to_char(&def_file.text, symbol.name_position)
            .unwrap_or(symbol.definition.start);
        let read =
            language::read_by_name::read_by_name(language, &def_file.text, &def_file.tree, at);
        if let Some(why) = read {
            possible.push(Unproven {
                site: name_at(&def_path, symbol.name_position, &old),
                why: format!("code outside the project may read it by its name: {why}"),
            });
        }
    }
    // Go: a struct embedding the type has a field of its name (`s.Position`)
    if language.id() == "go" && symbol.kind == SymbolKind::Class {
        possible.extend(go_embedded_uses(
            project,
            language,
            &old,
            &proven,
            &found.possible,
        ));
    }
    // a field: the keys of its type's struct literals, in every file of
    // the language's family that spells it; in JavaScript and TypeScript
    // a method's too (an object literal may be a value of the type)
    let mut keys: BTreeMap<String, Vec<(usize, bool)>> = BTreeMap::new();
    let structural = matches!(language.id(), "javascript" | "typescript" | "tsx");
    let keyed =
        symbol.kind == SymbolKind::Attribute || (structural && symbol.kind == SymbolKind::Method);
    if let (Some(class), true) = (&class, keyed) {
        let family = family_id(language);
        let tags = project.index.tags();
        for entry in tags.files_with(family, &[old.as_str()], false) {
            let file = Parsed::read(project, entry.language, &entry.path)?;
            let (found_keys, unknown) =
                language::rename::field_keys(entry.language, &file.text, &file.tree, class, &old);
            for at in unknown {
                possible.push(Unproven {
                    site: point(&file.text, &entry.path, at, &old),
                    why: match structural {
                        true => format!(
                            "{} of the name: the object may be a {class} (types are structural)",
                            language::rename::es_key_kind(&file.text, &file.tree, at)
                        ),
                        false => {
                            "a struct literal's key whose type the index cannot tell".to_string()
                        }
                    },
                });
            }
            if !found_keys.is_empty() {
                keys.insert(entry.path.clone(), found_keys);
            }
        }
    }
    // Rust: a path to the name the index does not resolve (a module
    // `#[path]` moved) may be a use it missed; a function's name is never
    // a path's prefix (`crate::rank::TABLE` names a module `rank`)
    if language.id() == "rust" {
        let tags = project.index.tags();
        let known = |path: &str, at: crate::edit::Position| {
            proven
                .iter()
                .chain(found.possible.iter())
                .any(|l| l.path == path && l.position == at)
        };
        for entry in tags.files_with(family_id(language), &[old.as_str()], false) {
            for r in &entry.file().refs {
                let relative = matches!(&r.qualifier, Qualifier::Path(p)
                    if p.first().is_some_and(|q| matches!(q.as_str(), "super" | "self" | "crate")));
                if r.name == old && relative && !known(&entry.path, r.start) {
                    if symbol.kind == SymbolKind::Function {
                        let text = &project.source(&entry.path)?.text;
                        let after = r.offset + old.chars().count();
                        let next: String =
                            text.chars_at(after.min(text.len_chars())).take(3).collect();
                        if next.starts_with("::") && next != "::<" {
                            continue;
                        }
                    }
                    possible.push(Unproven {
                        site: name_at(&entry.path, r.start, &old),
                        why: "a path the index does not resolve, which may name it".to_string(),
                    });
                }
            }
        }
    }
    // Rust: an enum's variant named bare, as `use Shape::*` or `use
    // Shape::Dot` brings it in (the index reads a bare name as no member's)
    let variant = language.id() == "rust"
        && symbol.kind == SymbolKind::Attribute
        && language::rename::is_rust_variant(&def_file.text, &def_file.tree, symbol.name_position);
    if variant {
        let tags = project.index.tags();
        for entry in tags.files_with(family_id(language), &[old.as_str()], false) {
            let file = entry.file();
            let brings = file.imports.iter().any(|i| match &i.imported {
                Imported::All => true,
                Imported::Name(n) => *n == old,
                _ => false,
            });
            if !brings {
                continue;
            }
            for r in file.refs.iter().filter(|r| r.name == old) {
                let bare = r.qualifier == Qualifier::None && !r.shadowed && r.import.is_none();
                if bare {
                    possible.push(Unproven {
                        site: name_at(&entry.path, r.start, &old),
                        why: "a bare name a `use` of the enum's variants may bring in".to_string(),
                    });
                }
            }
        }
    }
    // Go exports by the case of a name's first letter
    if language.id() == "go" && starts_upper(&old) && !starts_upper(new) {
        let package = def_path.rsplit_once('/').map_or("", |(d, _)| d);
        let outside = proven
            .iter()
            .find(|l| l.path.rsplit_once('/').map_or("", |(d, _)| d) != package);
        if let Some(site) = outside {
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot rename {full_name} to {new}: a Go name starting with a lower-case letter is not exported, and {site} uses it from another package; choose a name starting with an upper-case letter"
                ),
            )
            .at(Argument::NewName));
        }
    }
    possible.sort_by(|a, b| a.site.cmp(&b.site));
    possible.dedup_by(|a, b| a.site == b.site);
    if policy == SitePolicy::Refuse && !possible.is_empty() {
        return Err(unproven_refusal(&full_name, &possible, &[]));
    }
    let mut left_alone = Vec::new();
    for u in &possible {
        match policy {
            SitePolicy::IncludePossible => sites
                .entry(u.site.path.clone())
                .or_default()
                .push(u.site.clone()),
            _ => left_alone.push(LeftAlone {
                site: u.site.clone(),
                why: format!("{}: it may or may not be {full_name}", u.why),
            }),
        }
    }
    for site in &proven {
        sites
            .entry(site.path.clone())
            .or_default()
            .push(site.clone());
    }
    for path in keys.keys() {
        sites.entry(path.clone()).or_default();
    }
    if !parameter_uses.is_empty() {
        sites.entry(def_path.clone()).or_default();
    }

    // the edits, file by file, checked
    let mut change = WorkspaceChange::new();
    let mut edited: Vec<captures::Edited> = Vec::new();
    let mut references = 0;
    let member = class.is_some();
    // the uses the index proved: still its uses after the edits
    let proved: std::collections::HashSet<(&str, crate::edit::Position)> = found
        .certain
        .iter()
        .map(|l| (l.path.as_str(), l.position))
        .collect();
    // the uses written as the importer's name (`import f from`, `export {
    // default as f }`): kept, even where it spells the old name
    let aliased: std::collections::HashSet<(&str, crate::edit::Position)> = found
        .aliased
        .iter()
        .map(|l| (l.path.as_str(), l.position))
        .collect();
    for (path, at) in &sites {
        let file = Parsed::read(
            project,
            language::language_of(path).unwrap_or(language),
            path,
        )?;
        if !member {
            refuse_bound_in(&file, path, new)?;
        }
        let mut edits: Vec<Indel> = Vec::new();
        let mut uses_proved: Vec<usize> = Vec::new();
        for site in at {
            let Ok(start) = crate::edit::position::to_char(&file.text, site.position) else {
                continue;
            };
            if proved.contains(&(site.path.as_str(), site.position)) {
                uses_proved.push(start);
            }
            let end = start + old.chars().count();
            // an alias keeps its own name (`import { f as g }`: `g`)
            let spelled =
                end <= file.text.len_chars() && file.text.slice(start..end) == old.as_str();
            if !spelled || aliased.contains(&(site.path.as_str(), site.position)) {
                continue;
            }
            let insert = match language::rename::is_shorthand(&file.text, &file.tree, start) {
                true if member => format!("{new}: {old}"),
                true => format!("{old}: {new}"),
                false => new.to_string(),
            };
            edits.push(Indel::new(start..end, insert));
        }
        // (a parameter's shorthand `{ x }` keeps its key)
        let parameter = parameter_uses.iter().filter(|_| *path == def_path);
        for &(start, shorthand) in parameter {
            // a shorthand that is also the member's key: `{ y }` is both
            if let Some(both) = edits.iter_mut().find(|e| e.range.start == start) {
                both.insert = new.to_string();
                continue;
            }
            let end = start + old.chars().count();
            let insert = match shorthand {
                true => format!("{old}: {new}"),
                false => new.to_string(),
            };
            edits.push(Indel::new(start..end, insert));
        }
        for &(start, keeps_value) in keys.get(path).into_iter().flatten() {
            let end = start + old.chars().count();
            let insert = match keeps_value {
                true => format!("{new}: {old}"),
                false => new.to_string(),
            };
            edits.push(Indel::new(start..end, insert));
        }
        edits.sort_by_key(|e| e.range.start);
        edits.dedup_by_key(|e| e.range.start);
        if edits.is_empty() {
            continue;
        }
        references += edits.len();
        let edits = TextEdits::new(edits).map_err(|(a, b)| {
            RefactorError::new(
                RefactorFailure::WouldBreak,
                format!("Internal error: overlapping edits in {path} at {a:?} and {b:?}"),
            )
        })?;
        let after = file.check_kept(path, &edits)?;
        let moved = moved_to(language, &def_file, &symbol, path, &def_path, &old, new)?;
        edited.push(captures::Edited {
            before: path.clone(),
            path: moved
                .as_ref()
                .map_or(path.clone(), |to| to.as_str().to_string()),
            text: after,
            names: names_after(&edits, new, &uses_proved),
        });
        let op = match moved {
            Some(to) => FileOp::Move { to, edits },
            None => FileOp::Edit(edits),
        };
        change
            .insert(
                file.path.clone(),
                FileChange {
                    base: file.base.clone(),
                    op,
                },
            )
            .map_err(|e| {
                RefactorError::new(RefactorFailure::WouldBreak, format!("Internal error: {e}"))
            })?;
    }
    // the uses of the new name the renamed symbol would take over
    let new_full_name = match full_name.rsplit_once('.') {
        Some((prefix, _)) => format!("{prefix}.{new}"),
        None => new.to_string(),
    };
    let taken: Vec<Unproven> = match captures::captured(project, &edited, new, &new_full_name) {
        Some(captured) => {
            if let Some(at) = captured.certain.first() {
                return Err(captures::conflict(&full_name, new, at));
            }
            if let Some(at) = captured.lost.first() {
                return Err(captures::shadowed(&full_name, new, at));
            }
            let mut possible = captured.possible;
            possible.extend(captured.unproved);
            if policy == SitePolicy::Refuse && !possible.is_empty() {
                return Err(captures::refusal(&full_name, new, &possible));
            }
            let why = format!("a use of {new} that may then be the renamed {full_name}");
            possible
                .into_iter()
                .map(|site| Unproven {
                    site,
                    why: why.clone(),
                })
                .collect()
        }
        None => {
            let unchecked = Unproven {
                site: name_at(&def_path, symbol.name_position, &old),
                why: format!(
                    "the index does not find {new_full_name} in the renamed texts, so what the new name would take over is unchecked"
                ),
            };
            if policy == SitePolicy::Refuse {
                return Err(unproven_refusal(&full_name, &[unchecked], &[]));
            }
            vec![unchecked]
        }
    };
    // (left as they are, whatever the policy: they are no sites of it)
    for u in taken {
        left_alone.push(LeftAlone {
            site: u.site,
            why: u.why,
        });
    }
    let files = change.files().count();
    proven.sort();
    proven.dedup();
    evidence.proven = proven;
    evidence.possible = possible;
    left_alone.sort_by(|a, b| a.site.cmp(&b.site));
    Ok(Refactored {
        change,
        summary: Summary::Renamed {
            symbol: full_name,
            files,
            references,
        },
        evidence,
        left_alone,
        mentions: Vec::new(),
        names_swapped: Default::default(),
        data_strings: Vec::new(),
        also_renamed: Vec::new(),
        assumed: Vec::new(),
    })
}

/// One file read and parsed for the rename.
/// Go: the member uses named like the type `old` (`s.Position`) when a
/// struct of the project embeds it (`Position`, `*Position`,
/// `pkg.Position`: the index's scan lists them, [`TagsFile::embedded`]):
/// the embedded field is named by the type.
///
/// [`TagsFile::embedded`]: crate::analysis::index::tags::scan::TagsFile::embedded Listed as possible, for they may also be a field that
/// only shares the name.
fn go_embedded_uses(
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
fn go_embeds_either(
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
fn embeds_any(
    files: &[&std::sync::Arc<crate::analysis::index::tags::TagsEntry>],
    types: &[&str],
) -> bool {
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
fn go_examples(
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

/// Rust: whether a member is a trait's (declared in a `trait`, or in an
/// `impl Trait for T` block): a type implementing the trait may reach it
/// by the same name, where another type's own member never matters. The
/// index's scan says so of each definition ([`TagDef::trait_member`]); a
/// definition it no longer has may be.
///
/// [`TagDef::trait_member`]: crate::analysis::index::tags::scan::TagDef::trait_member
fn declared_by_trait(project: &Project<'_>, member: &crate::analysis::index::Definition) -> bool {
    let tags = project.index.tags();
    let Some(entry) = tags.entry(&member.location.path) else {
        return true;
    };
    entry
        .file()
        .defs
        .iter()
        .find(|d| d.name_position == member.name_position)
        .is_none_or(|d| d.trait_member)
}

struct Parsed {
    path: WorkspacePath,
    base: crate::change::Base,
    language: &'static dyn Language,
    text: Rope,
    tree: SyntaxTree,
    outline: Outline,
}

impl Parsed {
    fn read(
        project: &Project<'_>,
        language: &'static dyn Language,
        path: &str,
    ) -> Result<Parsed, RefactorError> {
        let source = project.source(path)?;
        let tree = SyntaxTree::parse_language(language, &source.text).map_err(|e| {
            RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!("{path} could not be parsed: {e}"),
            )
        })?;
        let outline = language
            .symbol_sites()
            .map(|sites| sites(&source.text, &tree))
            .unwrap_or_default();
        Ok(Parsed {
            path: source.path,
            base: source.base,
            language,
            text: source.text,
            tree,
            outline,
        })
    }

    /// The text after the edits; refuses edits that leave the file with
    /// more syntax errors.
    fn check_kept(&self, path: &str, edits: &TextEdits) -> Result<Rope, RefactorError> {
        let after = edits.apply(&self.text).map_err(|e| {
            RefactorError::new(
                RefactorFailure::WouldBreak,
                format!("Internal error: the edits of {path} do not apply: {e}"),
            )
        })?;
        let Some(check) = self.language.syntax_check() else {
            return Ok(after);
        };
        let Ok(tree) = SyntaxTree::parse_language(self.language, &after) else {
            return Ok(after);
        };
        let before = check(&self.text, &self.tree).len();
        let now = check(&after, &tree);
        if now.len() > before {
            let first = &now[0];
            return Err(RefactorError::new(
                RefactorFailure::WouldBreak,
                format!(
                    "The rename would break {path}: {} at {}; nothing was changed",
                    first.message, first.position
                ),
            ));
        }
        Ok(after)
    }
}

/// The type a member belongs to (its class, or a method's receiver type
/// named before it: `T.m`); `None` for a module-level symbol.
fn member_of(outline: &Outline, symbol: &Symbol) -> Option<String> {
    if let Some(parent) = outline.parent(symbol) {
        return (parent.kind == SymbolKind::Class).then(|| parent.name.clone());
    }
    match symbol.kind {
        SymbolKind::Method | SymbolKind::Attribute => symbol
            .qualified_name
            .split('.')
            .next()
            .filter(|t| *t != symbol.name)
            .map(str::to_string),
        _ => None,
    }
}

/// Refuses a member whose name is a supertype's: a Rust trait impl's
/// method, a Java `@Override` method.
fn refuse_supertypes(
    language: &dyn Language,
    file: &Parsed,
    symbol: &Symbol,
    full_name: &str,
) -> Result<(), RefactorError> {
    if let Some(via) = &symbol.via_trait {
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {full_name}: it implements the trait {via}'s method, whose name it must keep; rename the trait's method"
            ),
        ));
    }
    if language.id() == "java" && head_before_name(file, symbol).contains("@Override") {
        return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot rename {full_name}: it overrides a method of a supertype (@Override), whose name it must keep; rename the supertype's method"
                ),
            ));
    }
    Ok(())
}

/// Whether a member's declaration before its name holds one of `words`
/// as a word (`private`, `static`).
fn has_modifier(file: &Parsed, symbol: &Symbol, words: &[&str]) -> bool {
    head_before_name(file, symbol)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| words.contains(&w))
}

/// A member's declaration before its name, with its annotations (its
/// whole lines hold them).
fn head_before_name(file: &Parsed, symbol: &Symbol) -> String {
    let name = crate::edit::position::to_char(&file.text, symbol.name_position)
        .unwrap_or(symbol.full.start)
        .max(symbol.full.start);
    file.text.slice(symbol.full.start..name).to_string()
}

/// The first supertype outside the project that `class` (of `file`)
/// derives from, through the project's classes it extends or implements:
/// its name as written, or the expression a JavaScript class extends
/// (`mixin(Base)`).
fn outside_supertype(
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

/// Rust: refuses an inherent method's new name that a project trait the
/// type implements declares: method calls reach the inherent method
/// first, so `p.baz()`, the trait's until then, would call the renamed
/// one.
fn refuse_taken_by_traits(
    project: &Project<'_>,
    file: &Parsed,
    symbol: &Symbol,
    class: Option<&str>,
    new: &str,
) -> Result<(), RefactorError> {
    let Some(class) = class else {
        return Ok(());
    };
    if file.language.id() != "rust"
        || symbol.kind != SymbolKind::Method
        || symbol.via_trait.is_some()
    {
        return Ok(());
    }
    let root = project.index.root();
    let tags = project.index.tags();
    let declared: Vec<_> = tags
        .find_definition(root, new, None)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.kind == SymbolKind::Method && d.location.path.ends_with(".rs"))
        .collect();
    if declared.is_empty() {
        return Ok(());
    }
    for entry in tags.files_with(family_id(file.language), &[class], false) {
        let other = Parsed::read(project, entry.language, &entry.path)?;
        for implemented in
            language::rename::rust_traits_implemented(&other.text, &other.tree, class)
        {
            let of_trait = format!("{implemented}.{new}");
            let taken = declared.iter().find(|d| {
                d.qualified_name == of_trait || d.qualified_name.ends_with(&format!(".{of_trait}"))
            });
            if let Some(taken) = taken {
                return Err(RefactorError::new(
                    RefactorFailure::NameConflict,
                    format!(
                        "Name conflict exists: {class} implements the trait {implemented}, whose method {new} ({}:{}) its calls reach: renamed, they would call the inherent method instead; choose another name",
                        taken.location.path,
                        taken.name_position.line + 1,
                    ),
                )
                .at(Argument::NewName));
            }
        }
    }
    Ok(())
}

/// Java, JavaScript, TypeScript: refuses a member's new name that a class
/// of its lineage has (one it derives from, or one deriving from it): one
/// method would then override the other (`A.foo` renamed `baz` where `B
/// extends A` has `baz`: `new B().bar()` then calls `B.baz`).
fn refuse_taken_in_hierarchy(
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

/// Refuses a rename the language's fixed names forbid: a constructor, an
/// entry point, Go's `init` and test functions
/// ([`language::rename::FixedName`]).
fn refuse_fixed_names(
    file: &Parsed,
    class: Option<&str>,
    symbol: &Symbol,
    full_name: &str,
    new: &str,
) -> Result<(), RefactorError> {
    use language::rename::FixedName;
    let fixed = FixedName::of(
        file.language,
        file.path.as_str(),
        &file.text,
        &file.outline,
        class,
        symbol,
        new,
    );
    let Some(fixed) = fixed else {
        return Ok(());
    };
    let at = match fixed {
        FixedName::JavaConstructor | FixedName::ScriptConstructor => Argument::Symbol,
        _ => Argument::NewName,
    };
    Err(RefactorError::new(
        RefactorFailure::Refused,
        fixed.refusal(full_name, class.unwrap_or_default(), new),
    )
    .at(at))
}

/// Refuses a new name the defining file (or, for a member, its type)
/// binds already.
fn refuse_taken(
    file: &Parsed,
    symbol: &Symbol,
    class: Option<&str>,
    new: &str,
) -> Result<(), RefactorError> {
    let taken = file.outline.symbols.iter().find(|s| {
        s.name == new
            && match class {
                Some(class) => member_of(&file.outline, s).as_deref() == Some(class),
                None => s.parent.is_none(),
            }
    });
    let _ = symbol;
    match taken {
        Some(s) => Err(name_conflict(file.path.as_str(), s)),
        None => Ok(()),
    }
}

/// `path` already defines `s`: the new name is taken.
fn name_conflict(path: &str, s: &Symbol) -> RefactorError {
    RefactorError::new(
        RefactorFailure::NameConflict,
        format!(
            "Name conflict exists: {path}:{} already defines {}; choose another name",
            s.name_position.line + 1,
            s.qualified_name,
        ),
    )
    .at(Argument::NewName)
}

/// Go: refuses a new name another file of the defining file's package
/// declares: a package is one namespace across its files, and a type's
/// methods may be declared in any of them (`func (s *Stack) Len` in
/// `len.go`, `type Stack` in `stack.go`).
fn refuse_taken_in_package(
    project: &Project<'_>,
    file: &Parsed,
    class: Option<&str>,
    new: &str,
) -> Result<(), RefactorError> {
    if file.language.id() != "go" {
        return Ok(());
    }
    let package_of = |text: &Rope| {
        text.lines()
            .map(|l| l.to_string())
            .find_map(|l| l.strip_prefix("package ").map(|p| p.trim().to_string()))
    };
    let package = package_of(&file.text);
    let path = file.path.as_str();
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let siblings = project.index.tags().paths().filter(|p| {
        *p != path && p.ends_with(".go") && p.rsplit_once('/').map_or("", |(d, _)| d) == dir
    });
    for sibling in siblings.map(str::to_string).collect::<Vec<_>>() {
        let other = Parsed::read(project, file.language, &sibling)?;
        if package_of(&other.text) != package {
            continue;
        }
        let taken = other.outline.symbols.iter().find(|s| {
            let owner = member_of(&other.outline, s);
            s.name == new
                && match class {
                    Some(class) => owner.as_deref() == Some(class),
                    None => s.parent.is_none() && owner.is_none(),
                }
        });
        if let Some(s) = taken {
            return Err(name_conflict(&sibling, s));
        }
    }
    Ok(())
}

/// Refuses a file whose renamed uses would meet a module-level binding of
/// the new name there (a definition or an import).
fn refuse_bound_in(file: &Parsed, path: &str, new: &str) -> Result<(), RefactorError> {
    let scan = crate::analysis::index::tags::scan::scan(file.language, &file.text.to_string());
    let defined = scan.defs.iter().find(|d| d.top_level && d.name == new);
    let imported = scan.imports.iter().any(|i| i.local == new);
    if defined.is_some() || imported {
        let line = defined.map(|d| format!(":{}", d.name_position.line + 1));
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: {path}{} already binds {new}, which the renamed uses there would then read; choose another name",
                line.unwrap_or_default()
            ),
        )
        .at(Argument::NewName));
    }
    Ok(())
}

/// A public Java class's file, named after it: where it moves.
fn moved_to(
    language: &dyn Language,
    def_file: &Parsed,
    symbol: &Symbol,
    path: &str,
    def_path: &str,
    old: &str,
    new: &str,
) -> Result<Option<WorkspacePath>, RefactorError> {
    if language.id() != "java" || path != def_path || symbol.kind != SymbolKind::Class {
        return Ok(None);
    }
    if symbol.parent.is_some() || !path.ends_with(&format!("{old}.java")) {
        return Ok(None);
    }
    let name = crate::edit::position::to_char(&def_file.text, symbol.name_position)
        .unwrap_or(symbol.full.start)
        .max(symbol.full.start);
    let head = def_file.text.slice(symbol.full.start..name).to_string();
    if !head.split_whitespace().any(|w| w == "public") {
        return Ok(None);
    }
    let to = format!(
        "{}{new}.java",
        &path[..path.len() - old.len() - ".java".len()]
    );
    WorkspacePath::from_persisted(to)
        .map(Some)
        .map_err(|e| RefactorError::new(RefactorFailure::InvalidArgument, e))
}

/// Where each edit writes the new name in the text after the edits, and
/// whether the index proved the use it renames.
fn names_after(edits: &TextEdits, new: &str, uses_proved: &[usize]) -> Vec<captures::Name> {
    let length = new.chars().count();
    let mut shift: isize = 0;
    edits
        .iter()
        .map(|e| {
            let start = (e.range.start as isize + shift) as usize;
            let written = e.insert.chars().count();
            shift += written as isize - e.range.len() as isize;
            // a shorthand's `old: new` writes it last
            let at = match e.insert == new || e.insert.starts_with(&format!("{new}:")) {
                true => start,
                false => start + written - length,
            };
            captures::Name {
                range: at..at + length,
                proved: uses_proved.contains(&e.range.start),
            }
        })
        .collect()
}

fn name_at(path: &str, position: crate::edit::Position, name: &str) -> Location {
    Location {
        path: path.to_string(),
        position,
        end: crate::edit::Position::new(position.line, position.col + name.chars().count()),
    }
}

fn point(text: &Rope, path: &str, at: usize, name: &str) -> Location {
    let line = text.char_to_line(at);
    name_at(
        path,
        crate::edit::Position::new(line, at - text.line_to_char(line)),
        name,
    )
}

fn starts_upper(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}
