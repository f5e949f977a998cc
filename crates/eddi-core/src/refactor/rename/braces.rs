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

mod argument_literals;
mod conflicts;
mod edits;
mod go;
mod hierarchy;
mod javadoc;
mod jsdoc;
mod mentions;
mod parsed;
mod sites;
mod traits;

use std::collections::BTreeMap;

use ropey::Rope;

use super::{captures, unproven_refusal, Location};
use crate::analysis::index::query::References;
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::language::{self, Language};
use crate::refactor::{
    Argument, Evidence, LeftAlone, Project, RefactorError, RefactorFailure, Refactored, SitePolicy,
    Summary, Unproven,
};
pub(crate) use conflicts::inserted_taken_beside;
use parsed::{member_of, Parsed, ParsedFiles};

/// Renames the symbol whose sites are `found` to `new`: the symbol read
/// from its file, the new name checked against what binds it, every
/// site gathered (proven and possible), the policy applied, the edits
/// written file by file, and the result asked back of the index.
pub(super) fn rename(
    project: &Project<'_>,
    found: References,
    new: &str,
    policy: SitePolicy,
    include_text: bool,
) -> Result<Refactored, RefactorError> {
    let target = Target::read(project, &found, new)?;
    let found = of_its_kind(project, &target, found)?;
    conflicts::refuse(project, &target, new)?;
    let (found, inherited) = with_family(project, &target, found)?;
    let mut sites = sites::collect(project, &target, &found, &inherited, new)?;
    conflicts::refuse_unexported(&target, &sites.proven, new)?;

    // the possible sites: refused, renamed or left, as the request says
    let mut possible = std::mem::take(&mut sites.possible);
    possible.sort_by(|a, b| a.site.cmp(&b.site));
    possible.dedup_by(|a, b| a.site == b.site);
    if policy == SitePolicy::Refuse && !possible.is_empty() {
        return Err(unproven_refusal(&target.full_name, &possible, &[]));
    }
    let mut by_file: BTreeMap<String, Vec<Location>> = BTreeMap::new();
    let mut left_alone = Vec::new();
    for u in &possible {
        match policy {
            SitePolicy::IncludePossible => by_file
                .entry(u.site.path.clone())
                .or_default()
                .push(u.site.clone()),
            _ => left_alone.push(LeftAlone {
                site: u.site.clone(),
                why: format!("{}: it may or may not be {}", u.why, target.full_name),
            }),
        }
    }
    for site in &sites.proven {
        by_file
            .entry(site.path.clone())
            .or_default()
            .push(site.clone());
    }
    for path in sites.keys.keys() {
        by_file.entry(path.clone()).or_default();
    }
    if !sites.parameter_uses.is_empty() {
        by_file.entry(target.def_path.clone()).or_default();
    }

    let written = edits::write(
        project,
        &target,
        &found,
        &sites,
        &by_file,
        include_text,
        new,
    )?;
    // (left as they are, whatever the policy: they are no sites of it)
    for u in after_check(project, &target, &written.edited, new, policy)? {
        left_alone.push(LeftAlone {
            site: u.site,
            why: u.why,
        });
    }
    let files = written.change.files().count();
    let mut proven = sites.proven;
    proven.sort();
    proven.dedup();
    left_alone.sort_by(|a, b| a.site.cmp(&b.site));
    // the methods it overrides or that override it, renamed with it
    let mut also: Vec<String> = (target.family.members.iter())
        .map(|member| member.qualified_name.clone())
        .collect();
    also.sort();
    also.dedup();
    Ok(Refactored {
        change: written.change,
        summary: Summary::Renamed {
            symbol: target.full_name,
            files,
            references: written.references,
        },
        evidence: Evidence {
            proven,
            possible,
            also,
            ..Evidence::default()
        },
        left_alone,
        mentions: written.mentions,
        names_swapped: Default::default(),
        data_strings: Vec::new(),
        also_renamed: Vec::new(),
        assumed: Vec::new(),
    })
}

/// Java and Rust keep a type's fields and methods apart (`label` and
/// `label()`): of a name both spell, the member renamed keeps its own
/// kind's definitions and the uses whose syntax reads that kind (a call
/// or a path for a method, else a field) — but a record's component,
/// whose field and accessor are one.
fn of_its_kind(
    project: &Project<'_>,
    target: &Target,
    mut found: References,
) -> Result<References, RefactorError> {
    let kind = target.symbol.kind;
    let other = |k| language::rename::kinds_apart(target.language, k, kind);
    // (a Java record's component is its field and its accessor at once:
    // an explicit accessor, `int price()`, is one of its faces)
    if parsed::is_record_component(&target.def_file, &target.symbol) {
        return Ok(found);
    }
    if !found.definitions.iter().any(|d| other(d.kind)) {
        return Ok(found);
    }
    found.definitions.retain(|d| !other(d.kind));
    let length = target.old.chars().count();
    let mut files = ParsedFiles::default();
    let mut keep = |sites: Vec<crate::analysis::index::Location>| {
        let mut kept = Vec::with_capacity(sites.len());
        for site in sites {
            let read = match language::language_of(&site.path) {
                Some(language) => {
                    let file = files.read(project, language, &site.path)?;
                    crate::edit::position::to_char(&file.text, site.position)
                        .ok()
                        .map(|at| language::rename::member_kind_at(&file.text, at, length))
                }
                None => None,
            };
            if !read.is_some_and(other) {
                kept.push(site);
            }
        }
        Ok::<_, RefactorError>(kept)
    };
    found.certain = keep(std::mem::take(&mut found.certain))?;
    found.possible = keep(std::mem::take(&mut found.possible))?;
    found.aliased = keep(std::mem::take(&mut found.aliased))?;
    Ok(found)
}

/// The symbol a rename renames, as its defining file declares it.
struct Target {
    def_path: String,
    language: &'static dyn Language,
    def_file: Parsed,
    symbol: Symbol,
    /// Its name now.
    old: String,
    full_name: String,
    /// The type it is a member of (a class, or a method's receiver type).
    class: Option<String>,
    /// The methods renamed with it: those of its name that override it
    /// or that it overrides ([`hierarchy::family`]).
    family: hierarchy::Family,
}

impl Target {
    /// Reads the first definition of `found` from its file; refuses a
    /// new name that is no identifier of the language, or the same.
    fn read(project: &Project<'_>, found: &References, new: &str) -> Result<Target, RefactorError> {
        let Some(first) = found.definitions.first() else {
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
        language::rename::check_new_name(language, &old, new).map_err(|e| {
            RefactorError::new(RefactorFailure::InvalidArgument, e.message).at(Argument::NewName)
        })?;
        if old == new {
            return Err(RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!("{full_name} is already named '{new}': give another name"),
            )
            .at(Argument::NewName));
        }
        let class = member_of(&def_file.outline, &symbol);
        let family = match (overrides(language, &def_file, &symbol), language.id()) {
            (false, _) => None,
            (true, "rust") => traits::family(project, &def_file, &symbol)?,
            (true, _) => hierarchy::family(project, &def_file, &symbol)?,
        };
        let family = family.unwrap_or_default();
        Ok(Target {
            def_path,
            language,
            def_file,
            symbol,
            old,
            full_name,
            class,
            family,
        })
    }

    fn is_member(&self) -> bool {
        self.class.is_some()
    }
}

/// Whether a method may override or be overridden by another of its
/// name: a class's method in Java (but a private or static one), and a
/// record's component there (its accessor); a class's method in
/// JavaScript and TypeScript (but a `#private` or `private` one); a
/// trait's method in Rust, or one an `impl Trait for T` implements.
fn overrides(language: &dyn Language, file: &Parsed, symbol: &Symbol) -> bool {
    // a Java record's component: its accessor is a public method, which
    // may implement an interface's
    if language.id() == "java" && parsed::is_record_component(file, symbol) {
        return true;
    }
    if symbol.kind != SymbolKind::Method {
        return false;
    }
    match language.id() {
        "rust" => symbol.via_trait.is_some() || symbol.parent.is_some(),
        "java" => !parsed::has_modifier(file, symbol, &["private", "static"]),
        "javascript" | "typescript" | "tsx" => {
            !symbol.name.starts_with('#') && !parsed::has_modifier(file, symbol, &["private"])
        }
        _ => false,
    }
}

/// `found` with the definitions and uses of the method's family: a use
/// proven for one of them is proven (a value typed as the subclass calls
/// the override, which is renamed too). With them, the possible uses the
/// family proves (`super.m()`, `this.m()`:
/// [`inherited_calls_of_the_family`]): proven by the rename, not by the
/// index, which its check after the edits knows.
fn with_family(
    project: &Project<'_>,
    target: &Target,
    mut found: References,
) -> Result<(References, Vec<Location>), RefactorError> {
    let root = project.index.root();
    for member in &target.family.members {
        let theirs = project
            .index
            .tags()
            .find_references(root, &member.qualified_name, None)
            .map_err(|e| {
                RefactorError::new(
                    RefactorFailure::Refused,
                    format!(
                        "Cannot rename {}: {} overrides it or is overridden by it, and its uses cannot be found: {e}",
                        target.full_name, member.qualified_name
                    ),
                )
            })?;
        found.definitions.extend(theirs.definitions);
        found.certain.extend(theirs.certain);
        found.possible.extend(theirs.possible);
        found.aliased.extend(theirs.aliased);
    }
    found.certain.sort();
    found.certain.dedup();
    found.possible.sort();
    found.possible.dedup();
    found
        .possible
        .retain(|l| found.certain.binary_search(l).is_err());
    let inherited = match target.language.id() {
        "javascript" | "typescript" | "tsx" => {
            inherited_calls_of_the_family(project, target, &found.possible)?
        }
        _ => Vec::new(),
    };
    Ok((found, inherited))
}

/// JavaScript, TypeScript: the possible uses that are `super.m` or
/// `this.m` in a class of the method's family, where the project declares
/// `m` in a class it derives from (`super.m`: the nearest one's), or in
/// itself too (`this.m`: its own, an ancestor's, or a subclass's override)
/// — each one of the family, renamed.
fn inherited_calls_of_the_family(
    project: &Project<'_>,
    target: &Target,
    possible: &[Location],
) -> Result<Vec<Location>, RefactorError> {
    let owners: Vec<&str> = target
        .family
        .members
        .iter()
        .filter_map(|m| m.qualified_name.rsplit('.').nth(1))
        .chain(target.class.as_deref())
        .collect();
    let mut proven = Vec::new();
    let mut files = ParsedFiles::default();
    for site in possible {
        let Some(language) = language::language_of(&site.path) else {
            continue;
        };
        let file = files.read(project, language, &site.path)?;
        let Ok(at) = crate::edit::position::to_char(&file.text, site.position) else {
            continue;
        };
        let through = |receiver: &str| {
            let before = at.saturating_sub(receiver.chars().count());
            file.text.slice(before..at) == receiver
        };
        let (through_super, through_this) = (through("super."), through("this."));
        let instance = language::rename::es_this_is_the_instance(&file.text, &file.tree, at);
        if !(through_super || through_this) || !instance {
            continue;
        }
        let class = file
            .outline
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Class && s.full.contains(&at))
            .min_by_key(|s| s.full.len());
        let Some(class) = class else {
            continue;
        };
        let related = target
            .family
            .classes
            .contains(&(site.path.clone(), class.full.start));
        if !related {
            continue;
        }
        let mut declaring = hierarchy::ancestors(project, &file, class)?;
        if through_this {
            declaring.push(class.name.clone());
        }
        if declaring.iter().any(|a| owners.contains(&a.as_str())) {
            proven.push(site.clone());
        }
    }
    Ok(proven)
}

/// Asks the index about the texts after the edits: a use of the new name
/// the renamed symbol would take over is a conflict (proved) or a
/// possible site (refused unless the request proceeds; then left as it
/// is, and listed); a renamed use that would be another symbol's is a
/// conflict.
fn after_check(
    project: &Project<'_>,
    target: &Target,
    edited: &[captures::Edited],
    new: &str,
    policy: SitePolicy,
) -> Result<Vec<Unproven>, RefactorError> {
    let full_name = &target.full_name;
    let renamed = |name: &str| match name.rsplit_once('.') {
        Some((prefix, _)) => format!("{prefix}.{new}"),
        None => new.to_string(),
    };
    let new_full_name = renamed(full_name);
    let mut new_full_names = vec![new_full_name.clone()];
    new_full_names.extend(
        target
            .family
            .members
            .iter()
            .map(|m| renamed(&m.qualified_name)),
    );
    let Some(captured) =
        captures::captured(project, edited, new, &new_full_names, &target.def_path)
    else {
        let unchecked = Unproven {
            site: name_at(&target.def_path, target.symbol.name_position, &target.old),
            why: format!(
                "the index does not find {new_full_name} in the renamed texts, so what the new name would take over is unchecked"
            ),
        };
        if policy == SitePolicy::Refuse {
            return Err(unproven_refusal(full_name, &[unchecked], &[]));
        }
        return Ok(vec![unchecked]);
    };
    if let Some(at) = captured.certain.first() {
        return Err(captures::conflict(full_name, new, at));
    }
    if let Some(at) = captured.lost.first() {
        return Err(captures::shadowed(full_name, new, at));
    }
    let mut possible = captured.possible;
    possible.extend(captured.unproved);
    if policy == SitePolicy::Refuse && !possible.is_empty() {
        return Err(captures::refusal(full_name, new, &possible));
    }
    let why = format!("a use of {new} that may then be the renamed {full_name}");
    Ok(possible
        .into_iter()
        .map(|site| Unproven {
            site,
            why: why.clone(),
        })
        .collect())
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
