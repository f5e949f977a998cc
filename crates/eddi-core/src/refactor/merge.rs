//! Merge two classes into one: `Refactor Merge_Classes <Class1> <Class2>
//! <Target>`.
//!
//! The merged class takes `Class1`'s place — in `Class1`'s module when
//! the classes are of two (`across.rs`) —, named `Target` (a new name, or
//! one of the two), with `Class1`'s body followed by `Class2`'s (its
//! docstring and a lone `pass` aside), and with the bases of the one that
//! has any; `Class2`'s statement goes. Every reference to either name in
//! the project — imports, annotations, `isinstance`, bases of subclasses
//! in other files, `__all__`, tests — names `Target`; an import or an
//! `__all__` that would then name it twice names it once.
//!
//! Refused, changing nothing (the safety contract: `Ok` means the project
//! imports and every name still finds what it found): a member both
//! define (methods, class and instance attributes), named with their
//! places; different bases or metaclasses; a class deriving from the
//! other, or a class deriving from both; a class decorator (it may
//! register the class); a `Target` the module or an importing module
//! binds otherwise; a use the index cannot prove, or a string naming
//! either class (`getattr(module, "Class2")`, a registry key), listed;
//! and a use of the class that moves evaluated at import before the
//! merged class exists, or a name its body reads at definition that is
//! bound only after the merged class's place; name-based dispatch on
//! either class's name (`getattr(self, f"visit_{type(node).__name__}")`
//! reaching `visit_Profile`), which `Rename_Class` follows; and what
//! `across.rs` refuses.

use std::collections::BTreeMap;
use std::ops::Range;

use tree_sitter::Node;

mod across;

use super::classes;
use super::move_members::statements;
use super::mro::{self, Klass};
use super::{
    Argument, Parsed, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Summary,
};
use crate::analysis::index::rename::{DefInfo, Subclasses};
use crate::analysis::index::resolve::DefRef;
use crate::analysis::index::Location;
use crate::analysis::scope::Resolution;
use crate::change::{Indel, TextEdits, WorkspaceChange};

/// `Cannot merge classes - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot merge classes - {why}"),
    )
}

fn internal(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::WouldBreak,
        format!("Internal error: {why}"),
    )
}

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::MergeClasses {
        first,
        second,
        target,
    } = request
    else {
        return Err(super::not_built(request));
    };
    let index = project.index;
    let target = classes::new_name(target)?;
    let one = classes::named(project, first, refused)?;
    let two = classes::named(project, second, refused).map_err(|e| e.at(Argument::Members))?;
    let (c1, c2) = (one.def, two.def);
    let (i1, i2) = (&one.info, &two.info);
    if c1 == c2 {
        return Err(
            refused(format!("{} and {} are one class", first, second)).at(Argument::Members)
        );
    }
    for i in [i1, i2] {
        if let Some(parent) = i.parent.and_then(|p| index.def_info(p)) {
            return Err(refused(format!(
                "{} is defined inside {} {}: only classes at module level merge",
                i.name,
                parent.kind.noun(),
                parent.name
            )));
        }
    }
    let across = i1.path != i2.path;
    let (file, file2) = (&one.file, &two.file);
    let (n1, n2) = (one.node()?, two.node()?);
    let (s1, s2) = (classes::statement(n1), classes::statement(n2));
    for (s, i) in [(s1, &i1), (s2, &i2)] {
        if s.kind() == "decorated_definition" {
            return Err(refused(format!(
                "{} has a class decorator, which may register or replace the class",
                i.name
            )));
        }
    }
    check_hierarchy(project, (c1, i1, n1, file), (c2, i2, n2, file2))?;
    check_members(project, (c1, i1), (c2, i2))?;
    check_construction(project, (c1, i1), (c2, i2))?;
    check_target(project, file, i1, i2, target)?;
    if !across {
        check_order(file, s1, s2, i2)?;
    }
    // a name the class's name builds at run time (`visit_Profile`)
    for i in [&i1, &i2] {
        if i.name == target {
            continue;
        }
        let along = super::rename::dispatch::check(project, i, target)
            .map_err(|e| refused(format!("dispatch by {}'s name: {}", i.name, e.message)))?;
        if let Some(member) = along.members().first() {
            return Err(refused(format!(
                "dispatch by {}'s name reaches {} (at {}), which the merged class's name would not: rename the class first (Rename_Class renames such members along)",
                i.name, member.symbol, member.dispatch
            )));
        }
    }
    // every use of either name
    let mut sites_of: [Vec<Location>; 2] = Default::default();
    let mut unproven: Vec<String> = Vec::new();
    for (i, sites) in [&i1, &i2].into_iter().zip(sites_of.iter_mut()) {
        let found = index.rename_sites(&[i.def], &i.name, false);
        *sites = found.certain;
        unproven.extend(
            found
                .possible
                .iter()
                .map(|(l, d)| format!("{l} ({})", d.why())),
        );
        let paths: Vec<&str> = index
            .paths()
            .into_iter()
            .filter(|p| p.ends_with(".py"))
            .collect();
        // `__all__` entries are sites of the name, proven
        for s in super::rename::strings::in_project(project.sources, &paths, &i.name)
            .into_iter()
            .filter(|s| !sites.contains(&s.site))
        {
            unproven.push(format!("{} ({}: {})", s.site, i.name, s.why));
        }
    }
    if !unproven.is_empty() {
        unproven.sort();
        unproven.dedup();
        return Err(refused(format!(
            "{} uses of {} or {} it cannot prove, which would keep the old name: {}",
            unproven.len(),
            i1.name,
            i2.name,
            unproven
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    let summary = |files: usize, references: usize| Summary::ClassesMerged {
        first: i1.full_name.clone(),
        second: i2.full_name.clone(),
        target: target.to_string(),
        files,
        references,
    };
    if across {
        let merged = across::merge(
            project,
            across::Side {
                def: c1,
                info: i1,
                file,
                node: n1,
                sites: &sites_of[0],
            },
            across::Side {
                def: c2,
                info: i2,
                file: file2,
                node: n2,
                sites: &sites_of[1],
            },
            target,
        )?;
        return Ok(super::move_members::refactored(
            merged.change,
            summary(merged.files, merged.references),
        ));
    }
    let mut sites: Vec<Location> = sites_of.concat();
    sites.sort();
    sites.dedup();
    // the edits, by file
    let mut by_file: BTreeMap<String, Vec<Location>> = BTreeMap::new();
    for site in sites {
        by_file.entry(site.path.clone()).or_default().push(site);
    }
    let second_range = whole_lines(file, s2);
    let mut change = WorkspaceChange::new();
    let mut files_changed = 0usize;
    let mut references = 0usize;
    let module_path = i1.path.clone();
    by_file.entry(module_path.clone()).or_default();
    for (path, sites) in by_file {
        let parsed = project.parsed(&path)?;
        let renames: Vec<Indel> = sites
            .iter()
            .map(|l| {
                let start = parsed.offset(l.position);
                Indel::new(start..parsed.offset(l.end), target)
            })
            .collect();
        references += renames.len();
        let mut indels = dedupe_listed(&parsed, dedupe_imports(&parsed, &renames, target), target);
        if path == module_path {
            // the class's own name, Class2's body into Class1's
            let inside: Vec<Indel> = indels
                .iter()
                .filter(|i| second_range.start <= i.range.start && i.range.end <= second_range.end)
                .cloned()
                .collect();
            indels.retain(|i| {
                !(second_range.start <= i.range.start && i.range.end <= second_range.end)
            });
            let indent = statements::body(n1)
                .first()
                .map(|s| statements::indent(file, *s))
                .unwrap_or_else(|| "    ".into());
            let text = merged_body(file, n2, &indent, &inside)?;
            if !text.is_empty() {
                indels.push(statements::insertion(file, n1, &text).map_err(refused)?);
            }
            indels.push(Indel::delete(second_range.clone()));
            if i1.name != target {
                let name = n1
                    .child_by_field_name("name")
                    .ok_or_else(|| internal("a class without a name"))?;
                indels.push(Indel::new(file.chars(name), target));
            }
            if n1.child_by_field_name("superclasses").is_none() {
                if let Some(args) = n2.child_by_field_name("superclasses") {
                    let name = n1
                        .child_by_field_name("name")
                        .ok_or_else(|| internal("a class without a name"))?;
                    let at = file.char_of(name.end_byte());
                    indels.push(Indel::insert(at, file.node_text(args)));
                }
            }
        }
        if indels.is_empty() {
            continue;
        }
        files_changed += 1;
        let edits = TextEdits::new(indels)
            .map_err(|(a, b)| internal(format!("overlapping edits {a:?} and {b:?}")))?;
        change = change
            .union(WorkspaceChange::edit(
                parsed.source.path.clone(),
                parsed.source.base.clone(),
                edits,
            ))
            .map_err(|e| internal(format!("the files' edits do not combine: {e}")))?;
    }
    Ok(super::move_members::refactored(
        change,
        summary(files_changed, references),
    ))
}

/// The chars of a statement's whole lines and the blank lines before it.
fn whole_lines(file: &Parsed, statement: Node<'_>) -> Range<usize> {
    let text = file.text();
    let mut first = statement.start_position().row;
    while first > 0 && text.line(first - 1).to_string().trim().is_empty() {
        first -= 1;
    }
    let last = statement.end_position().row;
    let end = if last + 1 < text.len_lines() {
        text.line_to_char(last + 1)
    } else {
        text.len_chars()
    };
    text.line_to_char(first)..end
}

/// Refuses classes whose bases differ or that derive from each other, and
/// a class deriving from both.
fn check_hierarchy(
    project: &Project<'_>,
    (c1, i1, n1, f1): (DefRef, &DefInfo, Node<'_>, &Parsed),
    (c2, i2, n2, f2): (DefRef, &DefInfo, Node<'_>, &Parsed),
) -> Result<(), RefactorError> {
    let index = project.index;
    let subclasses = Subclasses::new(index);
    for (a, ia, b, ib) in [(c1, i1, c2, i2), (c2, i2, c1, i1)] {
        if subclasses.of(b).contains(&a) {
            return Err(refused(format!("{} derives from {}", ia.name, ib.name)));
        }
    }
    let below1 = subclasses.of(c1);
    if let Some(both) = subclasses.of(c2).into_iter().find(|k| below1.contains(k)) {
        let place = index
            .def_info(both)
            .map(|i| format!("{} ({}:{})", i.name, i.path, i.name_location.position))
            .unwrap_or_default();
        return Err(refused(format!(
            "{place} derives from both: it would derive from the merged class twice"
        )));
    }
    let written = |n: Node<'_>, file: &Parsed| {
        n.child_by_field_name("superclasses")
            .map(|a| {
                file.node_text(a)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<String>()
            })
            .filter(|t| t != "()" && t != "(object)")
    };
    let (b1, b2) = (
        mro::bases_in_index(index, c1),
        mro::bases_in_index(index, c2),
    );
    let plain = |b: &[Klass]| b.is_empty() || b == [Klass::Outside("object".into())];
    // the same text in two modules may name two classes
    match (written(n1, f1), written(n2, f2)) {
        (Some(a), Some(b)) if (a != b || b1 != b2) && !(plain(&b1) && plain(&b2)) => Err(refused(format!(
            "{} derives from {a} and {} from {b}: the merged class would have other bases than one of them",
            i1.name, i2.name
        ))),
        _ => Ok(()),
    }
}

/// Refuses a member both classes define, naming it with both places.
fn check_members(
    project: &Project<'_>,
    (c1, i1): (DefRef, &DefInfo),
    (c2, i2): (DefRef, &DefInfo),
) -> Result<(), RefactorError> {
    let index = project.index;
    let members = |c: DefRef| -> Vec<DefRef> {
        index
            .file(c.file)
            .and_then(|f| f.members.get(&c.def))
            .map(|ms| ms.iter().map(|&def| DefRef { file: c.file, def }).collect())
            .unwrap_or_default()
    };
    let (m1, m2) = (members(c1), members(c2));
    let mut conflicts: Vec<String> = Vec::new();
    for a in &m1 {
        let Some(ia) = index.def_info(*a) else {
            continue;
        };
        if let Some(ib) = m2
            .iter()
            .filter_map(|b| index.def_info(*b))
            .find(|ib| ib.name == ia.name)
        {
            let entry = format!(
                "{} ({}.{} at {}, {}.{} at {})",
                ia.name,
                i1.name,
                ia.name,
                ia.name_location.position,
                i2.name,
                ib.name,
                ib.name_location.position
            );
            if !conflicts
                .iter()
                .any(|c| c.starts_with(&format!("{} (", ia.name)))
            {
                conflicts.push(entry);
            }
        }
    }
    if conflicts.is_empty() {
        return Ok(());
    }
    Err(refused(format!(
        "both define {}: merge them by hand or rename one first",
        conflicts.join(", ")
    )))
}

/// Refuses a merge that gives one class the other's constructor: when
/// only one defines `__init__` or `__new__`, the other must be neither
/// called nor derived from anywhere.
fn check_construction(
    project: &Project<'_>,
    (c1, i1): (DefRef, &DefInfo),
    (c2, i2): (DefRef, &DefInfo),
) -> Result<(), RefactorError> {
    let index = project.index;
    let constructs = |c: DefRef| {
        ["__init__", "__new__"]
            .iter()
            .find(|n| !index.own_members(c, n).is_empty())
            .copied()
    };
    let (with, without, how) = match (constructs(c1), constructs(c2)) {
        (Some(how), None) => ((c1, i1), (c2, i2), how),
        (None, Some(how)) => ((c2, i2), (c1, i1), how),
        _ => return Ok(()),
    };
    let (_, with_info) = with;
    let (plain, plain_info) = without;
    let mut uses: Vec<String> = Vec::new();
    for (fid, f) in index.files_with(&plain_info.name) {
        let path = index.path(fid).unwrap_or("?");
        for r in f.refs_keyed(&plain_info.name) {
            let is_it = matches!(
                index.resolve(fid, r.value, 0),
                crate::analysis::index::resolve::Res::Defs(ds) if ds.contains(&plain)
            );
            if is_it && r.is_call {
                uses.push(format!("called at {path}:{}", r.position()));
            }
        }
    }
    if let Some(&sub) = Subclasses::new(index).of(plain).first() {
        if let Some(i) = index.def_info(sub) {
            uses.push(format!(
                "derived from by {} ({}:{})",
                i.name, i.path, i.name_location.position
            ));
        }
    }
    if uses.is_empty() {
        return Ok(());
    }
    Err(refused(format!(
        "{} defines {how} and {} does not, which is {}: it would then run {}.{how}",
        with_info.name,
        plain_info.name,
        uses.into_iter().take(5).collect::<Vec<_>>().join(", "),
        with_info.name
    )))
}

/// Refuses a target name bound otherwise in the module, or in a module
/// that imports either class.
fn check_target(
    project: &Project<'_>,
    file: &Parsed,
    i1: &DefInfo,
    i2: &DefInfo,
    target: &str,
) -> Result<(), RefactorError> {
    if target == i1.name || target == i2.name {
        return Ok(());
    }
    let conflict = |why: String| {
        RefactorError::new(
            RefactorFailure::NameConflict,
            format!("Name conflict exists: {why}"),
        )
        .at(Argument::NewName)
    };
    if let Some(b) = file
        .scopes()
        .bindings
        .iter()
        .find(|b| b.scope == 0 && b.name == target)
    {
        return Err(conflict(format!(
            "{target} is bound in {} at {}",
            i1.path,
            file.position(b.range.start)
        )));
    }
    for (fid, other) in project
        .index
        .files_with(&i1.name)
        .chain(project.index.files_with(&i2.name))
    {
        if other.exports.contains_key(target) {
            let path = project.index.path(fid).unwrap_or("?");
            return Err(conflict(format!(
                "{target} is bound in {path}, which uses {} or {}",
                i1.name, i2.name
            )));
        }
    }
    Ok(())
}

/// Refuses a merge that moves `Class2` below a use of it evaluated at
/// import (module-level code between them), or that moves its body above
/// a name it reads where it is defined.
fn check_order(
    file: &Parsed,
    s1: Node<'_>,
    s2: Node<'_>,
    i2: &DefInfo,
) -> Result<(), RefactorError> {
    let scopes = file.scopes();
    let (r1, r2) = (file.chars(s1), file.chars(s2));
    if r2.end < r1.start {
        // Class2 above Class1: module-level uses of it in between
        if let Some(r) = scopes.references.iter().find(|r| {
            r.name == i2.name && r.scope == 0 && r.range.start > r2.end && r.range.start < r1.start
        }) {
            return Err(refused(format!(
                "{} is used at {} when the module is imported, before the merged class exists",
                i2.name,
                file.position(r.range.start)
            )));
        }
    } else {
        // Class2 below: what its body reads at definition must be bound above Class1
        let class_scope = scopes.scopes.iter().rposition(|s| {
            s.kind == crate::analysis::scope::ScopeKind::Class
                && s.range.start <= r2.start
                && s.range.end >= r2.end
        });
        for r in scopes
            .references
            .iter()
            .filter(|r| Some(r.scope) == class_scope && r.resolution == Resolution::Scope(0))
        {
            let bound_above = scopes
                .bindings
                .iter()
                .any(|b| b.scope == 0 && b.name == r.name && b.range.start < r1.start);
            if !bound_above {
                return Err(refused(format!(
                    "the body of {} reads {} at {} where it is defined, bound only below the merged class's place",
                    i2.name,
                    r.name,
                    file.position(r.range.start)
                )));
            }
        }
    }
    Ok(())
}

/// The statements of `Class2`'s body that the merged class takes: all but
/// its docstring and a lone `pass`.
fn moved_statements(class: Node<'_>) -> Vec<Node<'_>> {
    statements::body(class)
        .into_iter()
        .enumerate()
        .filter(|(i, s)| {
            let docstring = *i == 0
                && s.kind() == "expression_statement"
                && s.named_child(0).is_some_and(|e| e.kind() == "string");
            !docstring && s.kind() != "pass_statement"
        })
        .map(|(_, s)| s)
        .collect()
}

/// `Class2`'s body ([`moved_statements`], in `file`) with the edits made
/// inside it, as lines to append to a body indented by `to`.
fn merged_body(
    file: &Parsed,
    n2: Node<'_>,
    to: &str,
    inside: &[Indel],
) -> Result<String, RefactorError> {
    let body = moved_statements(n2);
    let (Some(first), Some(last)) = (body.first(), body.last()) else {
        return Ok(String::new());
    };
    if statements::indent(file, *first) != to {
        return Err(refused("the two classes' bodies are indented differently"));
    }
    let text = file.text();
    // the comments above the first statement come with it
    let start = text.line_to_char(statements::comments_above(file, *first));
    let end = {
        let row = last.end_position().row;
        if row + 1 < text.len_lines() {
            text.line_to_char(row + 1)
        } else {
            text.len_chars()
        }
    };
    let mut out = String::new();
    let mut at = start;
    let mut edits: Vec<&Indel> = inside
        .iter()
        .filter(|i| start <= i.range.start && i.range.end <= end)
        .collect();
    edits.sort_by_key(|i| (i.range.start, i.range.end));
    for e in edits {
        if e.range.start < at {
            return Err(internal("two renames inside the class overlap"));
        }
        out.push_str(&file.slice(at..e.range.start));
        out.push_str(&e.insert);
        at = e.range.end;
    }
    out.push_str(&file.slice(at..end));
    let mut out = format!("\n{}", out.replace("\r\n", "\n"));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// The renames, with an entry of a list (`__all__ = ["User", "Profile"]`)
/// that would name the target twice going, with its comma.
fn dedupe_listed(file: &Parsed, renames: Vec<Indel>, target: &str) -> Vec<Indel> {
    let string_of = |at: usize| {
        let mut n = file.node_covering(at)?;
        while n.kind() != "string" {
            n = n.parent()?;
        }
        n.parent()
            .filter(|l| matches!(l.kind(), "list" | "tuple"))
            .map(|_| n)
    };
    let renamed: Vec<Option<Node<'_>>> = renames.iter().map(|r| string_of(r.range.start)).collect();
    let mut seen: Vec<Node<'_>> = Vec::new();
    let mut out = Vec::new();
    for (rename, string) in renames.iter().zip(&renamed) {
        let Some(string) = *string else {
            out.push(rename.clone());
            continue;
        };
        let Some(list) = string.parent() else {
            out.push(rename.clone());
            continue;
        };
        let mut cursor = list.walk();
        let elements: Vec<Node<'_>> = list.named_children(&mut cursor).collect();
        // an entry that names the target already, and is not renamed
        let there = elements.iter().any(|e| {
            e.kind() == "string"
                && !renamed.contains(&Some(*e))
                && file.node_text(*e).trim_matches(['"', '\'']) == target
        });
        if !there && !seen.iter().any(|s| s.parent() == Some(list)) {
            seen.push(string);
            out.push(rename.clone());
            continue;
        }
        let Some(at) = elements.iter().position(|e| *e == string) else {
            out.push(rename.clone());
            continue;
        };
        let range = if at > 0 {
            file.char_of(elements[at - 1].end_byte())..file.char_of(string.end_byte())
        } else if let Some(next) = elements.get(1) {
            file.char_of(string.start_byte())..file.char_of(next.start_byte())
        } else {
            out.push(rename.clone());
            continue;
        };
        out.push(Indel::delete(range));
    }
    out
}

/// The renames, with an import that would name the target twice
/// (`from m import A, B` of the two classes) naming it once.
fn dedupe_imports(file: &Parsed, renames: &[Indel], target: &str) -> Vec<Indel> {
    let mut out: Vec<Indel> = Vec::new();
    let mut seen: Vec<((usize, String), usize)> = Vec::new();
    for rename in renames {
        let statement = file
            .node_covering(rename.range.start)
            .and_then(|mut n| loop {
                if n.kind() == "import_from_statement" {
                    break Some(n);
                }
                n = n.parent()?;
            });
        let Some(statement) = statement else {
            out.push(rename.clone());
            continue;
        };
        // the entry (`A` or `A as B`) the name is in, and what it binds
        let Some(entry) = file
            .node_covering(rename.range.start)
            .and_then(|mut n| loop {
                if n.parent()? == statement {
                    break Some(n);
                }
                n = n.parent()?;
            })
        else {
            out.push(rename.clone());
            continue;
        };
        let binds = match entry.kind() {
            "aliased_import" => entry
                .child_by_field_name("alias")
                .map(|a| file.node_text(a))
                .unwrap_or_default(),
            _ => target.to_string(),
        };
        // the name and its alias of one entry (`X as X`, a re-export)
        // are one entry
        let key = (statement.start_byte(), binds);
        if !seen.iter().any(|(k, _)| *k == key) || seen.contains(&(key.clone(), entry.id())) {
            seen.push((key, entry.id()));
            out.push(rename.clone());
            continue;
        }
        // the second entry binding the same name: it goes, with its comma
        let mut cursor = statement.walk();
        let names: Vec<Node<'_>> = statement
            .children_by_field_name("name", &mut cursor)
            .collect();
        if let Some(at) = names.iter().position(|n| *n == entry) {
            let range = if at > 0 {
                file.char_of(names[at - 1].end_byte())..file.char_of(entry.end_byte())
            } else if let Some(next) = names.get(1) {
                file.char_of(entry.start_byte())..file.char_of(next.start_byte())
            } else {
                rename.range.clone()
            };
            out.push(Indel::delete(range));
        }
    }
    out
}

#[cfg(test)]
#[path = "tests/merge.rs"]
mod tests;
