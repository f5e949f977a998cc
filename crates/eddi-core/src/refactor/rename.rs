//! Rename a symbol or a class everywhere it is that symbol.
//!
//! `Refactor RenameSymbol <name> <new>` renames a function, class, method,
//! module-level variable, class or instance attribute; `Rename_Class`
//! accepts classes only. The name is looked up in the current file first,
//! then in the project (`ProjectIndex::rename_symbol`).
//!
//! **What changes:** every definition, and every site the index resolves
//! to it ([`ProjectIndex::rename_sites`]): uses through imports and their
//! aliases (`from m import Old as X` changes `Old` and keeps `X`; `import m
//! as x` + `x.Old`), re-exports, star imports, `__all__` strings,
//! attributes of typed receivers (`self`, `cls`, instances, `super()`,
//! calls of annotated functions, annotated parameters and variables,
//! `self.x` holding one class's instance, names an `isinstance` test
//! narrows), `global` statements, rebinding targets
//! and forward references in annotations (`x: "User"`); doctest code (`>>>` lines) whose name resolves, in the
//! module's globals, to the symbol; and the `.pyi` stub next to each
//! changed module. Keyword arguments name parameters, never the symbol:
//! they do not change. A module that imports the symbol and binds the
//! name otherwise too (`from m import Old` … `Old = deprecated(Old)`)
//! keeps the name: its import becomes `from m import New as Old`.
//!
//! **Methods in a hierarchy:** renaming a method (or attribute) renames
//! the whole hierarchy's member — what it overrides in project base
//! classes, its overrides in project subclasses, and the siblings that
//! override the same base member — so dispatch stays as it was
//! ([`ProjectIndex::hierarchy_of`]). A class that calls the member on
//! `self` without defining or inheriting it (a mixin, an abstract base)
//! leaves it to its subclasses: when they find it in the hierarchy, its
//! `self.name` uses are renamed too, with whatever its other subclasses
//! find ([`ProjectIndex::through_subclasses`]). A class of that hierarchy with a base
//! the index cannot follow (outside the project) may inherit or override
//! the member there too: its definition is reported as left alone with
//! that reason. Special names (`__init__`, `__eq__`, …) are refused:
//! Python calls them by name.
//!
//! **What does not change:** unrelated same-named symbols, other scopes,
//! shadowing names. Uses the index cannot prove (an attribute of a value of
//! unknown type, a name bound to the symbol in one branch only) are
//! `left_alone` with why; so are `getattr(obj, "old")`-style strings.
//! Whole-word mentions in comments, strings and docstring prose are
//! `mentions`, changed only with `Include Text`. Mentions and doctests
//! are looked for in the files the rename changes (each file is read
//! once; a Django-wide rename reads only those): a file that never uses
//! the symbol in code is not searched for mentions of its name (with
//! `Include Text`, its mentions are listed). A string that is not an
//! annotation (`"list[User]"`) is a mention, never changed as code; one
//! that is data (`{"User": …}`, `policies["urlize.rel"]`) is listed in
//! `data_strings`, never changed ([`text`]). A class whose name dispatch
//! reaches as a string renames the members it reaches along, or refuses
//! ([`dispatch`]).
//!
//! **Refusals:** a new name that is not an identifier or is a keyword
//! (InvalidArgument); one that collides or shadows (`conflict`: the
//! module, class hierarchy or scope already binds it, or a use of the old
//! name would then resolve to something else) → `Name conflict exists:
//! <file:line and what>`; a module (renaming files is not a rename of a
//! symbol); `Rename_Class` of anything but a class.

mod braces;
mod captures;
mod conflict;
pub(super) mod dispatch;
pub(super) mod strings;
mod text;

pub(crate) use braces::inserted_taken_beside;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use ropey::Rope;

use crate::analysis::identifier;
use crate::analysis::index::rename::{DefInfo, Doubt};
use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::index::{
    builtin_classes, disk, FileId, FileIndex, IndexError, Location, ProjectIndex,
};
use crate::analysis::outline::SymbolKind;
use crate::change::{FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use crate::edit::Position;

use super::{
    Evidence, LeftAlone, Project, RefactorError, RefactorFailure, Refactored, Refactoring,
    RenameKind, SitePolicy, Source, Summary, Unproven,
};
use text::Context;

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    rename(project, request, &[])
}

/// `sanctioned`: lookups (`path`, line) that reach members by a class's
/// name, renamed along with that class ([`dispatch`]).
fn rename(
    project: &Project<'_>,
    request: &Refactoring,
    sanctioned: &[(String, usize)],
) -> Result<Refactored, RefactorError> {
    let Refactoring::Rename {
        kind,
        symbol,
        new_name,
        include_text,
        sites: sites_policy,
    } = request
    else {
        return Err(super::not_built(request));
    };
    let new = new_name.trim();
    let index = project.index;
    let current = project.current.as_ref().map(|c| c.path.as_str());
    // the brace languages' symbols: the current file's language first,
    // else where Python's index does not know the name
    if let Some(found) = brace_symbol(project, symbol, current) {
        let found = found.map_err(|e| lookup_failure(index, symbol, e))?;
        if *kind == RenameKind::Class
            && found.definitions.first().map(|d| d.kind) != Some(SymbolKind::Class)
        {
            return Err(RefactorError::new(
                RefactorFailure::NotFound,
                format!("Not found: class '{symbol}': it is no class. Use: Refactor RenameSymbol {symbol} {new}"),
            )
            .at(crate::refactor::Argument::Symbol));
        }
        // overloads are one symbol: a rename takes them all, so a
        // parameter list that names one of them is refused, not ignored
        if symbol.trim_end().ends_with(')') && found.definitions.len() > 1 {
            let listed: Vec<String> = found
                .definitions
                .iter()
                .map(|d| format!("{}:{}", d.location.path, d.location.position.line + 1))
                .collect();
            let bare = symbol.split('(').next().unwrap_or(symbol).trim();
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot rename one overload of {bare}: its {} definitions ({}) are one symbol, whose calls the index does not tell apart by their parameters; Refactor RenameSymbol {bare} {new} renames them all",
                    found.definitions.len(),
                    listed.join(", ")
                ),
            )
            .at(crate::refactor::Argument::Symbol));
        }
        return braces::rename(project, found, new, *sites_policy, *include_text);
    }
    check_new_name(new)?;
    let defs = index
        .rename_symbol(symbol, current)
        .map_err(|e| lookup_failure(index, symbol, e))?;
    let infos: Vec<DefInfo> = defs.iter().filter_map(|&d| index.def_info(d)).collect();
    let Some(first) = infos.first().cloned() else {
        return Err(RefactorError::new(
            RefactorFailure::NotFound,
            format!("Not found: symbol '{symbol}'"),
        )
        .at(crate::refactor::Argument::Symbol));
    };
    if *kind == RenameKind::Class && first.kind != SymbolKind::Class {
        return Err(RefactorError::new(
            RefactorFailure::NotFound,
            format!(
                "Not found: class '{symbol}': {} at {}:{} is a {}. Use: Refactor RenameSymbol {symbol} {new}",
                first.full_name,
                first.path,
                first.name_location.position.line,
                first.kind.noun()
            ),
        )
        .at(crate::refactor::Argument::Symbol));
    }
    let old = first.name.clone();
    if old == new {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!(
                "{} is already named '{new}': give another name",
                first.full_name
            ),
        )
        .at(crate::refactor::Argument::NewName));
    }
    if old.len() > 4 && old.starts_with("__") && old.ends_with("__") {
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {}: '{old}' is a special name that Python calls by name",
                first.full_name
            ),
        ));
    }
    if let Some(at) = defs.iter().find_map(|&d| index.import_binding(d)) {
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {}: an import at {}:{} binds '{old}' too, which renaming the definition would leave; import it under the new name first ('import … as {new}')",
                first.full_name, first.path, at.line
            ),
        ));
    }
    let member = first.parent.is_some_and(|p| {
        index
            .def_info(p)
            .is_some_and(|c| c.kind == SymbolKind::Class)
    });
    let subclasses = member.then(|| index.subclasses());
    let (family, inherited): (Vec<DefRef>, Vec<Location>) = match &subclasses {
        Some(tree) => index.through_subclasses(index.hierarchy_of(&defs, tree), &old, tree),
        None => (defs.clone(), Vec::new()),
    };
    let members: Vec<DefInfo> = family.iter().filter_map(|&d| index.def_info(d)).collect();
    let classes: Vec<DefRef> = members.iter().filter_map(|m| m.parent).collect();
    // boltons' urlutils: `class OrderedMultiDict(dict): …` then `try: from
    // .dictutils import OrderedMultiDict`: its uses may be the other class
    for &class in &classes {
        let (Some(at), Some(c)) = (index.import_binding(class), index.def_info(class)) else {
            continue;
        };
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {}: an import at {}:{} binds '{}' too, so its uses may reach another class, whose '{old}' would stay; nothing was changed",
                first.full_name, c.path, at.line, c.name
            ),
        ));
    }
    if member {
        computed_attribute_names(project, &members, &first.full_name, &old, sanctioned)?;
    }
    if let Some((class, base)) = member
        .then(|| index.overrides_outside(&classes, &old))
        .flatten()
    {
        let class = index.def_info(class).map_or(String::new(), |c| c.full_name);
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {}: {class} overrides '{old}' of {base}, outside the project, which calls it by that name (as does every caller that sees a {base}); nothing was changed",
                first.full_name
            ),
        ));
    }
    if let Some(tree) = &subclasses {
        conflict::in_classes(index, tree, &members, new)?;
    } else {
        conflict::in_modules(index, &members, new)?;
    }
    let along = match first.kind {
        SymbolKind::Class => dispatch::check(project, &first, new)?,
        _ => Default::default(),
    };

    let mut sites = index.rename_sites(&family, &old, member);
    // A module that imports the symbol and rebinds its name keeps the name
    // (`from m import New as Old`): its own uses of it are not the symbol's.
    let rebound = if member {
        Vec::new()
    } else {
        index.rebound_imports(&family, &old)
    };
    let kept = |l: &Location| {
        rebound
            .iter()
            .any(|r| r.path == l.path && r.uses.contains(&l.position))
    };
    sites.certain.retain(|l| !kept(l));
    sites
        .possible
        .retain(|(l, _)| !kept(l) && !inherited.contains(l));
    sites.certain.extend(inherited);
    sites.certain.sort();
    sites.certain.dedup();
    let aliased: BTreeMap<&str, &[Position]> = rebound
        .iter()
        .map(|r| (r.path.as_str(), r.imports.as_slice()))
        .collect();
    // The safety contract: a use the index cannot prove is *inferred*
    // when nothing else of the name could be meant, else *possible*.
    let others = if member {
        other_owners(index, &classes, &old)
    } else {
        Vec::new()
    };
    let mut evidence = Evidence::default();
    let mut kept_names = Vec::new();
    for (site, doubt) in std::mem::take(&mut sites.possible) {
        match doubt {
            Doubt::UnknownReceiver if others.is_empty() => evidence.inferred.push(Unproven {
                site,
                why: format!("{}; no other class has a member '{old}'", doubt.why()),
            }),
            Doubt::UnknownReceiver => evidence.possible.push(Unproven {
                site,
                why: format!(
                    "{}, and {} {} a member '{old}' too",
                    doubt.why(),
                    others.join(", "),
                    if others.len() == 1 { "has" } else { "have" }
                ),
            }),
            // the module that binds the name both ways keeps it (its
            // import takes an alias): what reads it stays consistent
            Doubt::AnotherBinding if !rebound.is_empty() => kept_names.push(LeftAlone {
                site: site.clone(),
                why: format!("{}: it may or may not be {}", doubt.why(), first.full_name),
            }),
            Doubt::AnotherDefinition | Doubt::AnotherBinding => evidence.possible.push(Unproven {
                site,
                why: doubt.why().to_owned(),
            }),
        }
    }
    let outside_bases: Vec<LeftAlone> = if member {
        index
            .with_unknown_bases(&classes, &old)
            .into_iter()
            .filter_map(|class| index.def_info(class))
            .map(|c| LeftAlone {
                site: c.name_location.clone(),
                why: format!(
                    "{} derives from a class outside the project, which may define or call '{old}' too",
                    c.full_name
                ),
            })
            .collect()
    } else {
        Vec::new()
    };
    if member {
        // strings anywhere in the project that may name the member at run
        // time (the project's Python files; code sites are not strings)
        let paths: Vec<&str> = index
            .paths()
            .into_iter()
            .filter(|p| p.ends_with(".py"))
            .collect();
        let in_code = |l: &Location| {
            sites.certain.contains(l) || members.iter().any(|m| m.name_location == *l)
        };
        evidence.possible.extend(
            strings::in_project(project.sources, &paths, &old)
                .into_iter()
                .filter(|u| !in_code(&u.site)),
        );
        evidence.possible.sort_by(|a, b| a.site.cmp(&b.site));
        evidence.possible.dedup_by(|a, b| a.site == b.site);
    }
    let sites_policy = *sites_policy;
    if sites_policy == SitePolicy::Refuse
        && (!evidence.possible.is_empty() || !outside_bases.is_empty())
    {
        return Err(unproven_refusal(
            &first.full_name,
            &evidence.possible,
            &outside_bases,
        ));
    }
    // The sites edited beyond the proven ones, and those left in code.
    let mut unproven_edits: Vec<&Location> = evidence.inferred.iter().map(|u| &u.site).collect();
    let mut not_code_sites: Vec<Location> = kept_names.iter().map(|l| l.site.clone()).collect();
    let mut left_alone: Vec<LeftAlone> = outside_bases;
    left_alone.extend(kept_names);
    if sites_policy == SitePolicy::IncludePossible {
        unproven_edits.extend(evidence.possible.iter().map(|u| &u.site));
    } else {
        not_code_sites.extend(evidence.possible.iter().map(|u| u.site.clone()));
        left_alone.extend(evidence.possible.iter().map(|u| LeftAlone {
            site: u.site.clone(),
            why: format!("{}: it may or may not be {}", u.why, first.full_name),
        }));
    }
    evidence.also = members
        .iter()
        .filter(|m| !defs.contains(&m.def))
        .map(|m| m.full_name.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|name| *name != first.full_name)
        .collect();

    // Every code site, grouped by file: each file is read once.
    let mut by_file: BTreeMap<String, Vec<(Position, Position)>> = BTreeMap::new();
    for m in &members {
        by_file
            .entry(m.path.clone())
            .or_default()
            .push((m.name_location.position, m.name_location.end));
    }
    for site in sites.certain.iter().chain(unproven_edits.iter().copied()) {
        by_file
            .entry(site.path.clone())
            .or_default()
            .push((site.position, site.end));
    }
    let possible_by_file: BTreeMap<&str, Vec<(Position, Position)>> =
        not_code_sites.iter().fold(BTreeMap::new(), |mut m, l| {
            m.entry(l.path.as_str())
                .or_default()
                .push((l.position, l.end));
            m
        });

    let mut change = WorkspaceChange::new();
    let mut mentions = Vec::new();
    let mut data_strings = Vec::new();
    let mut references = 0;
    let mut names_swapped = BTreeSet::new();
    let renaming = Renaming {
        project,
        family: &family,
        old: &old,
        new,
        include_text: *include_text,
    };
    for (path, positions) in &by_file {
        let source = project.source(path)?;
        let not_code = possible_by_file
            .get(path.as_str())
            .cloned()
            .unwrap_or_default();
        let edited = renaming.file(
            &source,
            positions,
            aliased.get(path.as_str()).copied().unwrap_or_default(),
            &not_code,
            &mut mentions,
            &mut data_strings,
            &mut left_alone,
        )?;
        references += edited.code;
        if let Some(file) = edited.change {
            if edited.names_only {
                names_swapped.insert(source.path.clone());
            }
            insert(&mut change, source.path.clone(), file)?;
        }
    }
    // The stubs next to the changed modules.
    for path in by_file.keys() {
        let Some(stub_path) = path.strip_suffix(".py").map(|s| format!("{s}.pyi")) else {
            continue;
        };
        let stub = match project.source(&stub_path) {
            Ok(stub) => stub,
            Err(e) if e.kind == RefactorFailure::Stale => return Err(e),
            Err(_) => continue, // no stub
        };
        let Some(module) = index.file_index(path) else {
            continue;
        };
        let positions = stub_sites(index, path, module, &stub, &family, &old);
        let edited = renaming.file(
            &stub,
            &positions,
            &[],
            &[],
            &mut mentions,
            &mut data_strings,
            &mut left_alone,
        )?;
        references += edited.code;
        if let Some(file) = edited.change {
            if edited.names_only {
                names_swapped.insert(stub.path.clone());
            }
            insert(&mut change, stub.path.clone(), file)?;
        }
    }
    if *include_text {
        // not half-way: what it does not change elsewhere is said
        let touched: BTreeSet<&str> = change.files().map(|(p, _)| p.as_str()).collect();
        text::elsewhere(project, &old, &touched, &mut mentions, &mut data_strings)?;
    }
    let files = change.files().count();
    left_alone.sort_by(|a, b| a.site.cmp(&b.site));
    left_alone.dedup_by(|a, b| a.site == b.site);
    if member && !left_alone.is_empty() {
        // first, so that it is among the sites the reply shows
        let forwarding = forwarding_classes(index, &classes, &old);
        left_alone.splice(0..0, forwarding);
    }
    mentions.sort();
    evidence.proven = members
        .iter()
        .map(|m| m.name_location.clone())
        .chain(sites.certain)
        .collect();
    evidence.proven.sort();
    evidence.proven.dedup();
    let renamed = Refactored {
        change,
        summary: Summary::Renamed {
            symbol: first.full_name.clone(),
            files,
            references,
        },
        evidence,
        left_alone,
        mentions,
        names_swapped,
        data_strings,
        also_renamed: Vec::new(),
        assumed: Vec::new(),
    };
    dispatch::rename_along(
        project,
        &first.full_name,
        along,
        *include_text,
        |r, s| rename(project, r, s),
        renamed,
    )
}

/// The sites of `symbol` in the brace languages' index, when a rename
/// is theirs: the current file is one of theirs and the index finds it
/// there, or Python's index does not know it and theirs does.
fn brace_symbol(
    project: &Project<'_>,
    symbol: &str,
    current: Option<&str>,
) -> Option<Result<crate::analysis::index::query::References, IndexError>> {
    let index = project.index;
    let brace_current = current.is_some_and(crate::analysis::index::tags::reads);
    let in_python = || index.rename_symbol(symbol, current).is_ok();
    if !brace_current && in_python() {
        return None;
    }
    match index.tags().find_references(index.root(), symbol, current) {
        Ok(found) => Some(Ok(found)),
        // from a brace file, the brace index's answer, unless Python's
        // index knows the name
        Err(e) if brace_current && !in_python() => Some(Err(e)),
        // from no brace file Python's index does not know the name (above):
        // a name several brace files define is theirs to list, not Python's
        // "Not found"
        Err(e @ IndexError::Ambiguous { .. }) => Some(Err(e)),
        Err(_) => None,
    }
}

/// The classes other than the renamed member's own that have a member of
/// its name: project classes outside the hierarchy, and builtin or
/// standard-library classes whose instances the project can hold
/// (`dict.get`; `Thread.start` where the project names `Thread`). An
/// attribute of a value of unknown type with that name may be theirs.
fn other_owners(index: &ProjectIndex, classes: &[DefRef], old: &str) -> Vec<String> {
    let mut owners: Vec<String> = index
        .classes_owning(old)
        .into_iter()
        .filter(|c| !classes.contains(c))
        .filter_map(|c| index.def_info(c))
        .map(|c| c.full_name)
        .collect();
    // a builtin or standard-library class counts where its instances can
    // be: always for `str`, `dict`, … (literals), else when the project
    // names it (`threading.Thread`, `except UnicodeDecodeError`)
    owners.extend(
        builtin_classes::classes_with_member(old)
            .iter()
            .filter(|class| {
                builtin_classes::arises_unnamed(class)
                    || index.is_referenced(class.rsplit('.').next().unwrap_or(class))
            })
            .map(|class| class.to_string()),
    );
    owners.sort();
    owners.dedup();
    owners
}

/// How many unproven uses a refusal names before `… (N more)`.
const UNPROVEN_SHOWN: usize = 8;

/// The refusal of a rename with possible uses (or classes deriving from
/// bases outside the project): nothing changes, and the options that
/// proceed are named.
fn unproven_refusal(
    full_name: &str,
    possible: &[Unproven],
    outside_bases: &[LeftAlone],
) -> RefactorError {
    let listed: Vec<String> = possible
        .iter()
        .map(|u| format!("{} ({})", u.site, u.why))
        .chain(
            outside_bases
                .iter()
                .map(|l| format!("{} ({})", l.site, l.why)),
        )
        .collect();
    let total = listed.len();
    let mut shown: Vec<String> = listed.into_iter().take(UNPROVEN_SHOWN).collect();
    if total > UNPROVEN_SHOWN {
        shown.push(format!("… ({} more)", total - UNPROVEN_SHOWN));
    }
    let what = match (possible.len(), outside_bases.len()) {
        (0, n) => format!(
            "{n} {} outside the project",
            if n == 1 {
                "class derives from a base"
            } else {
                "classes derive from bases"
            }
        ),
        (n, 0) => format!(
            "{n} possible {} it cannot prove",
            if n == 1 { "use" } else { "uses" }
        ),
        (n, m) => format!(
            "{n} possible {} it cannot prove and {m} {} outside the project",
            if n == 1 { "use" } else { "uses" },
            if m == 1 {
                "class deriving from a base"
            } else {
                "classes deriving from bases"
            }
        ),
    };
    RefactorError::new(
        RefactorFailure::Refused,
        format!(
            "Cannot rename {full_name}: {what}: {}; nothing was changed. Include Possible renames them too; Only Proven renames only the proven ones (the project may then be broken at those sites)",
            shown.join(", ")
        ),
    )
    .at(crate::refactor::Argument::Sites)
}

/// A class of the renamed member (or a project base of one) that defines
/// `__getattr__` or `__getattribute__`: a use of the old name left alone
/// that is one of its instances would not fail once renamed but reach that
/// method (click's `_AtomicFile`, whose `__getattr__` forwards to the file
/// it wraps: an unconverted `f.close()` would close the file without
/// committing it). Said first among the uses left alone.
fn forwarding_classes(index: &ProjectIndex, classes: &[DefRef], old: &str) -> Vec<LeftAlone> {
    let mut seen = BTreeSet::new();
    let mut notes = Vec::new();
    for &class in classes {
        for hook in ["__getattr__", "__getattribute__"] {
            for method in index.members_named(class, hook) {
                let Some(m) = index.def_info(method) else {
                    continue;
                };
                let Some(c) = index.def_info(class) else {
                    continue;
                };
                if !seen.insert((c.full_name.clone(), m.full_name.clone())) {
                    continue;
                }
                let has = match m.parent.and_then(|p| index.def_info(p)) {
                    Some(owner) if owner.full_name != c.full_name => {
                        format!("inherits {hook} from {}", owner.full_name)
                    }
                    _ => format!("defines {hook}"),
                };
                notes.push(LeftAlone {
                    site: m.name_location.clone(),
                    why: format!(
                        "{} {has}: a use of '{old}' left alone on one of its instances would reach {hook} instead of failing",
                        c.full_name
                    ),
                });
            }
        }
    }
    notes
}

/// Refuses a member rename when the file that defines the member reaches
/// attributes by a name computed from a literal the old name starts with:
/// `delattr(Stats, '_calc_' + name)` (boltons' statsutils),
/// `getattr(self, 'visit_' + kind)` or `getattr(self, f"visit_{kind}")` (a
/// visitor). Such a use is made at run time, and the rename would leave it
/// asking for the old name.
fn computed_attribute_names(
    project: &Project<'_>,
    members: &[DefInfo],
    full_name: &str,
    old: &str,
    sanctioned: &[(String, usize)],
) -> Result<(), RefactorError> {
    static COMPUTED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let computed = COMPUTED.get_or_init(|| {
        regex::Regex::new(
            r#"\b(?:get|set|del|has)attr\(\s*[^,()]+,\s*[fF]?['"]([A-Za-z_][A-Za-z0-9_]*)(?:['"]\s*\+|\{|%[sr(])"#,
        )
        .expect("a valid regex")
    });
    // The members' files and their project base classes' (a dispatcher
    // in a base: `getattr(self, "clean_%s" % name)`).
    let classes: Vec<DefRef> = members.iter().filter_map(|m| m.parent).collect();
    let ancestors = project.index.project_ancestors(&classes);
    let mut paths: Vec<String> = members
        .iter()
        .map(|m| m.path.clone())
        .chain(
            ancestors
                .iter()
                .filter_map(|&a| project.index.def_info(a))
                .map(|a| a.path),
        )
        .collect();
    paths.sort();
    paths.dedup();
    for path in &paths {
        let path = path.as_str();
        let text = project.source(path)?.text.to_string();
        for found in computed.captures_iter(&text) {
            let Some(prefix) = found.iter().skip(1).flatten().next() else {
                continue;
            };
            let line = line_of(&text, found.get(0).map_or(0, |m| m.start()));
            let renamed_along = sanctioned.iter().any(|(p, l)| p == path && *l == line);
            if old.starts_with(prefix.as_str()) && !renamed_along {
                return Err(RefactorError::new(
                    RefactorFailure::Refused,
                    format!(
                        "Cannot rename {full_name}: {path}:{line} reaches attributes by a name built from '{}' ({}…), which may be '{old}' at run time and would not be renamed; nothing was changed",
                        prefix.as_str(),
                        found.get(0).map_or("", |m| m.as_str()).trim_end_matches(['+', '{', ' '])
                    ),
                ));
            }
        }
        // The name built first, then looked up (a dispatcher: sqlparse's
        // `func_name = '_process_{cls}'.format(…)`, `getattr(self,
        // func_name.lower(), …)`; `'visit_' + name`): a template in the
        // file whose fixed start begins the old name, and a lookup by a
        // name that is not a literal.
        let Some(lookup) = dynamic_lookup().find_iter(&text).find(|l| {
            let line = line_of(&text, l.start());
            !sanctioned.iter().any(|(p, at)| p == path && *at == line)
        }) else {
            continue;
        };
        for found in name_template().captures_iter(&text) {
            let (Some(whole), Some(prefix)) = (found.get(0), found.get(1)) else {
                continue;
            };
            let prefix = prefix.as_str();
            if !(prefix.ends_with('_') || prefix.len() >= 4) || !old.starts_with(prefix) {
                continue;
            }
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot rename {full_name}: {path}:{} builds names from '{prefix}' ({}…) and {path}:{} reaches attributes by a computed name ({}…), which may be '{old}' at run time and would not be renamed; nothing was changed",
                    line_of(&text, whole.start()),
                    whole.as_str().trim_end_matches(['+', '{', '%', ' ']),
                    line_of(&text, lookup.start()),
                    lookup.as_str(),
                ),
            ));
        }
    }
    Ok(())
}

/// The 0-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count()
}

/// `getattr(obj, name…` / `hasattr(obj, name…`: an attribute reached by a
/// name that is not a string literal.
fn dynamic_lookup() -> &'static regex::Regex {
    static LOOKUP: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    LOOKUP.get_or_init(|| {
        regex::Regex::new(r"\b(?:get|has)attr\(\s*[^,()]+,\s*[A-Za-z_][A-Za-z0-9_.]*")
            .expect("a valid regex")
    })
}

/// A string that makes a name from a fixed start: `'visit_' +`,
/// `f'visit_{`, `'visit_{}'.format`, `'visit_%s' %`.
fn name_template() -> &'static regex::Regex {
    static TEMPLATE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    TEMPLATE.get_or_init(|| {
        regex::Regex::new(r#"(?:[fF])?['"]([A-Za-z_][A-Za-z0-9_]*)(?:['"]\s*\+|\{|%[sr(])"#)
            .expect("a valid regex")
    })
}

fn insert(
    change: &mut WorkspaceChange,
    path: crate::workspace::WorkspacePath,
    file: FileChange,
) -> Result<(), RefactorError> {
    change.insert(path, file).map_err(|e| {
        RefactorError::new(RefactorFailure::WouldBreak, format!("Internal error: {e}"))
    })
}

/// A new name must be an identifier that is not a keyword.
fn check_new_name(new: &str) -> Result<(), RefactorError> {
    if !identifier::is_identifier_shaped(new) {
        let hint = if new.contains('.') {
            ": give the new last part only (renaming a module is not a symbol rename)"
        } else {
            ": use letters, digits and _, not starting with a digit"
        };
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("Not a valid Python name: '{new}'{hint}"),
        )
        .at(crate::refactor::Argument::NewName));
    }
    if identifier::is_keyword(new) {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("'{new}' is a Python keyword: choose another name"),
        )
        .at(crate::refactor::Argument::NewName));
    }
    Ok(())
}

/// The index's lookup failure, as a refactor's; a module is refused as
/// out of scope, and what the index cannot look up is not found.
fn lookup_failure(index: &ProjectIndex, symbol: &str, e: IndexError) -> RefactorError {
    let q = symbol.trim();
    if matches!(e, IndexError::NotFound { .. }) {
        if let Some(path) = index.path_of_module(q) {
            return RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "'{q}' is a module ({path}): renaming a module renames its file and every import of it, which RenameSymbol does not do; rename a symbol in it instead"
                ),
            );
        }
    }
    match e {
        IndexError::NotFound { .. } | IndexError::Ambiguous { .. } => e.into(),
        other => RefactorError::new(RefactorFailure::NotFound, other.to_string())
            .at(crate::refactor::Argument::Symbol),
    }
}

/// What one rename changes in each file it reads.
struct Renaming<'a> {
    project: &'a Project<'a>,
    family: &'a [DefRef],
    old: &'a str,
    new: &'a str,
    include_text: bool,
}

struct Edited {
    change: Option<FileChange>,
    /// Sites changed: definitions, references, doctest code, and the
    /// mentions when they are asked for.
    code: usize,
    /// Every edit is at a name in code (none in a doctest, a string or a
    /// comment).
    names_only: bool,
}

impl Renaming<'_> {
    /// The edits of one file: its code sites (`positions`; those whose text
    /// is not the old name are alias uses and keep theirs), then its
    /// doctest code and textual mentions. `aliased`: the sites among them
    /// that become `New as Old` ([`ReboundImport`]). `not_code`: sites left
    /// alone, which are not mentions either.
    ///
    /// [`ReboundImport`]: crate::analysis::index::rename::ReboundImport
    #[allow(clippy::too_many_arguments)]
    fn file(
        &self,
        source: &Source,
        positions: &[(Position, Position)],
        aliased: &[Position],
        not_code: &[(Position, Position)],
        mentions: &mut Vec<Location>,
        data_strings: &mut Vec<LeftAlone>,
        left_alone: &mut Vec<LeftAlone>,
    ) -> Result<Edited, RefactorError> {
        let text = &source.text;
        let path = source.path.as_str();
        let old_len = self.old.chars().count();
        let ident = |c: char| c == '_' || c.is_alphanumeric();
        let mut code: Vec<Range<usize>> = positions
            .iter()
            .filter_map(|&(start, _)| {
                let a = offset(text, start)?;
                let b = a + old_len;
                // the whole name: `weekdaybase`, an alias of `weekday`, keeps its own
                let whole = b <= text.len_chars()
                    && text.slice(a..b) == self.old
                    && (b == text.len_chars() || !ident(text.char(b)));
                whole.then_some(a..b)
            })
            .collect();
        code.sort_by_key(|r| r.start);
        code.dedup();
        let src = text.to_string();
        // parsed at most once, and not kept: the conflicts and the strings
        // read the same tree
        let parsed = std::cell::OnceCell::new();
        let parsed = || {
            parsed
                .get_or_init(|| self.project.scanned(path).ok())
                .clone()
        };
        if contains_word(&src, self.new) {
            if let Some(file) = parsed() {
                conflict::in_file(&file, &code, self.old, self.new)?;
            }
        }
        let skip: Vec<Range<usize>> = not_code
            .iter()
            .filter_map(|&(start, _)| offset(text, start).map(|a| a..a + old_len))
            .chain(code.iter().cloned())
            .collect();
        let mut text_edits = Vec::new();
        let mut in_strings = false;
        for occurrence in text::occurrences(&src, self.old, || parsed().map(|f| f.tree.clone())) {
            let range =
                text.byte_to_char(occurrence.range.start)..text.byte_to_char(occurrence.range.end);
            if skip
                .iter()
                .any(|s| s.start < range.end && range.start < s.end)
            {
                continue;
            }
            let at = location(text, path, &range);
            match occurrence.context {
                Context::Doctest { dotted } => {
                    let denotes = self.project.index.resolve_dotted_in(path, &dotted);
                    if !denotes.is_empty() && denotes.iter().all(|d| self.family.contains(d)) {
                        in_strings = true;
                        code.push(range);
                    } else if self.include_text {
                        text_edits.push(range);
                    } else {
                        mentions.push(at);
                    }
                }
                Context::Dynamic => left_alone.push(LeftAlone {
                    site: at,
                    why: "a string naming an attribute at run time (getattr and the like)".into(),
                }),
                Context::Data(what) => data_strings.push(LeftAlone {
                    site: at,
                    why: what.into(),
                }),
                Context::Comment | Context::String if self.include_text => text_edits.push(range),
                Context::Comment | Context::String => mentions.push(at),
            }
        }
        let count = code.len() + text_edits.len();
        let text_edits_empty = text_edits.is_empty();
        let aliased: Vec<usize> = aliased.iter().filter_map(|&p| offset(text, p)).collect();
        let alias = format!("{} as {}", self.new, self.old);
        let indels = code.into_iter().chain(text_edits).map(|r| {
            let insert = if aliased.contains(&r.start) {
                alias.as_str()
            } else {
                self.new
            };
            Indel::new(r, insert)
        });
        let edits = TextEdits::new(indels).map_err(|(a, b)| {
            RefactorError::new(
                RefactorFailure::WouldBreak,
                format!("Internal error: overlapping edits {a:?} and {b:?} in {path}"),
            )
        })?;
        let change = (!edits.is_empty()).then(|| FileChange {
            base: source.base.clone(),
            op: FileOp::Edit(edits),
        });
        Ok(Edited {
            change,
            code: count,
            names_only: !in_strings && text_edits_empty,
        })
    }
}

/// The sites of `family` in the stub of `module_path` (`m.pyi` beside
/// `m.py`): its definitions with the qualified names of the family's
/// definitions in that module, and the names in it that resolve to them
/// (inside the stub, or through its imports).
fn stub_sites(
    index: &ProjectIndex,
    module_path: &str,
    module: &FileIndex,
    stub: &Source,
    family: &[DefRef],
    old: &str,
) -> Vec<(Position, Position)> {
    let Ok(stub_index) = disk::index_text(
        &(module.module.clone(), module.is_package),
        &stub.text.to_string(),
    ) else {
        return Vec::new();
    };
    let qualified: Vec<String> = family
        .iter()
        .filter_map(|&d| index.def_info(d))
        .filter(|d| d.path == module_path)
        .map(|d| d.full_name)
        .collect();
    // the stub's imports resolve as its module's do: in its own project
    let from = index.file_id(Some(module_path));
    let ours: Vec<u32> = (0..stub_index.defs.len() as u32)
        .filter(|&d| qualified.contains(&stub_index.full_name(d)))
        .collect();
    let mut out: Vec<(Position, Position)> = ours
        .iter()
        .map(|&d| {
            let p = stub_index.def(d).name_position;
            (p, p)
        })
        .collect();
    for r in stub_index
        .refs_keyed(old)
        .iter()
        .chain(stub_index.sites_keyed(old))
    {
        if stub_denotes(index, from, &stub_index, r.value, &ours, family, 0) {
            out.push((r.position(), r.end()));
        }
    }
    out
}

/// Whether a stub's value is one of its own definitions `ours`, or a
/// project definition of `family` through an import.
fn stub_denotes(
    index: &ProjectIndex,
    from: Option<FileId>,
    stub: &FileIndex,
    value: u32,
    ours: &[u32],
    family: &[DefRef],
    depth: usize,
) -> bool {
    use crate::analysis::index::file::Value;
    if depth > 16 {
        return false;
    }
    match stub.value(value) {
        Value::Def(d) => ours.contains(&d),
        Value::Same(v) => stub_denotes(index, from, stub, v, ours, family, depth + 1),
        Value::Member { module, name } => {
            let (module, name) = (stub.name(module), stub.name(name));
            let found = match from {
                Some(from) => index.member_from(from, module, name, 0),
                None => index.member(module, name, 0),
            };
            matches!(found, Res::Defs(ds) if !ds.is_empty() && ds.iter().all(|d| family.contains(d)))
        }
        Value::Attr { base, name } => {
            // `C.m` / `self.m` inside the stub: the member of a class of the stub
            let mut v = base;
            for _ in 0..8 {
                match stub.value(v) {
                    Value::Same(next) => v = next,
                    Value::SelfOf(c) | Value::Def(c) => {
                        let full = format!("{}.{}", stub.full_name(c), stub.name(name));
                        return ours.iter().any(|&d| stub.full_name(d) == full);
                    }
                    _ => return false,
                }
            }
            false
        }
        _ => false,
    }
}

fn offset(text: &Rope, p: Position) -> Option<usize> {
    if p.line >= text.len_lines() {
        return None;
    }
    let a = text.line_to_char(p.line) + p.col;
    (a <= text.len_chars()).then_some(a)
}

fn location(text: &Rope, path: &str, range: &Range<usize>) -> Location {
    let pos = |c: usize| {
        let line = text.char_to_line(c);
        Position::new(line, c - text.line_to_char(line))
    };
    Location {
        path: path.to_string(),
        position: pos(range.start),
        end: pos(range.end),
    }
}

fn contains_word(src: &str, word: &str) -> bool {
    let b = src.as_bytes();
    let ident = |c: u8| c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80;
    src.match_indices(word).any(|(i, _)| {
        let e = i + word.len();
        (i == 0 || !ident(b[i - 1])) && (e >= b.len() || !ident(b[e]))
    })
}

#[cfg(test)]
#[path = "tests/rename.rs"]
mod tests;

#[cfg(test)]
#[path = "tests/rename_contract.rs"]
mod contract_tests;
