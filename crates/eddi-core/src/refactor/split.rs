//! Split a class: `Refactor Split_Class <Class> <NewClass>
//! <member,member,…>`.
//!
//! The members move to a new class right below the class, in its module:
//! what a class holds for itself — class attributes, static and class
//! methods, nested classes —, which need no instance of it. Every
//! reference to them then names the new class: on the class (`User.RATE`),
//! through the module (`models.User.RATE`), on instances the index proves
//! are of the class or a subclass (`user.RATE`), through `self`/`cls` in
//! the methods that stay; a module that names the class through `from m
//! import Class` imports the new class beside it.
//!
//! Refused, changing nothing: an instance method or a property (it needs
//! an instance of the new class, which nothing makes: `ExtractClass` keeps
//! one in the class and delegates); a moved member reading through
//! `cls`/`self` what stays; a member a base defines (its lookups would
//! find the base's) or a subclass overrides; a use it cannot prove is of
//! the class (a receiver of unknown type, a string naming it, a lookup
//! by a computed name such as `getattr(self, f"visit_{…}")` in the class
//! or a base), `super()`
//! reaching it, a receiver that is not a plain name (its evaluation would
//! be dropped), a module naming the class otherwise than through `from m
//! import Class` or its module — each listed; what cannot move as text; a
//! `NewClass` the module binds already.

use std::collections::BTreeMap;

use tree_sitter::Node;

use super::class_uses;
use super::classes;
use super::move_members::{self, needs, statements, FileEdits};
use super::{
    Argument, Parsed, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Summary,
};
use crate::analysis::index::file::Value;
use crate::analysis::index::rename::Subclasses;
use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::index::Location;
use crate::analysis::scope::BindingKind;
use crate::change::Indel;

/// `Cannot split class - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot split class - {why}"),
    )
}

/// The decorators' names of a statement (`staticmethod`, `classmethod`).
fn decorators(file: &Parsed, statement: Node<'_>) -> Vec<String> {
    let mut cursor = statement.walk();
    statement
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "decorator")
        .map(|d| file.node_text(d).trim_start_matches('@').trim().to_string())
        .collect()
}

/// Whether a statement of the class body is held by the class itself: a
/// class attribute, a static or class method, a nested class.
fn held_by_class(file: &Parsed, statement: Node<'_>) -> bool {
    match statement.kind() {
        "expression_statement" | "class_definition" => true,
        "decorated_definition" => {
            let d = decorators(file, statement);
            let def = statement.child_by_field_name("definition");
            def.is_some_and(|d| d.kind() == "class_definition")
                || (d.len() == 1 && (d[0] == "staticmethod" || d[0] == "classmethod"))
        }
        _ => false,
    }
}

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::SplitClass {
        class,
        new_class,
        members,
    } = request
    else {
        return Err(super::not_built(request));
    };
    let index = project.index;
    let new_class = classes::new_name(new_class)?;
    let named = classes::named(project, class, refused)?;
    let (found, info, file) = (named.def, &named.info, &named.file);
    let names: Vec<String> = {
        let mut out: Vec<String> = Vec::new();
        for m in members {
            let m = m.trim();
            let m = m.rsplit('.').next().unwrap_or(m).to_string();
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    };
    if names.is_empty() {
        return Err(
            RefactorError::new(RefactorFailure::InvalidArgument, "No member to move")
                .at(Argument::Members),
        );
    }
    let node = named.node()?;
    // the statements
    let mut moved: Vec<Node<'_>> = Vec::new();
    for name in &names {
        let defining = statements::defining(file, node, name);
        if defining.is_empty() {
            let all = statements::names(file, node);
            return Err(RefactorError::new(
                RefactorFailure::NotFound,
                format!(
                    "Not found: {}.{name} is not defined in the class body (its members: {})",
                    info.name,
                    if all.is_empty() {
                        "none".to_string()
                    } else {
                        all.join(", ")
                    }
                ),
            )
            .at(Argument::Members)
            .with_candidates(all));
        }
        for s in defining {
            if !held_by_class(file, s) {
                return Err(refused(format!(
                    "{}.{name} is an instance method or a property: it needs an instance of {new_class}, which nothing makes; ExtractClass moves it to a class {} holds and delegates to",
                    info.name, info.name
                )).at(Argument::Members));
            }
            moved.push(s);
        }
    }
    moved.sort_by_key(|n| n.start_byte());
    moved.dedup();
    let statement_names: Vec<String> = moved
        .iter()
        .filter_map(|s| statements::defines(file, *s))
        .collect();
    needs::check_movable(file, node, &moved, &statement_names).map_err(refused)?;
    // what the class body reads where it is defined
    let ranges: Vec<std::ops::Range<usize>> = moved.iter().map(|s| file.chars(*s)).collect();
    let inside = |at: usize| ranges.iter().any(|r| r.start <= at && at < r.end);
    if let Some(scope) = needs::class_scope(file, node) {
        if let Some(r) = file.scopes().references.iter().find(|r| {
            r.resolution == crate::analysis::scope::Resolution::Scope(scope)
                && names.contains(&r.name)
                && !inside(r.range.start)
        }) {
            return Err(refused(format!(
                "the class body reads {} at {} where the class is defined",
                r.name,
                file.position(r.range.start)
            )));
        }
    }
    // the moved code reads through cls/self only what moves
    let mut uses = Vec::new();
    for s in &moved {
        let def = match s.kind() {
            "decorated_definition" => s.child_by_field_name("definition"),
            _ => Some(*s),
        };
        if let Some(def) = def.filter(|d| d.kind() == "function_definition") {
            class_uses::of_method(file, *s, def, &mut uses);
        }
    }
    if let Some(u) = uses
        .iter()
        .find(|u| u.via_super || !names.contains(&u.name))
    {
        return Err(refused(format!(
            "{}.{} reads {}{} at {}, which stays in {}",
            info.name,
            u.method,
            if u.via_super { "super()." } else { "cls." },
            u.name,
            u.at,
            info.name
        )));
    }
    // the hierarchy
    let place = |d: DefRef| {
        index
            .def_info(d)
            .map(|i| format!("{} ({}:{})", i.full_name, i.path, i.name_location.position))
            .unwrap_or_default()
    };
    let subclasses = Subclasses::new(index);
    let below = subclasses.of(found);
    for name in &names {
        let above: Vec<String> = index
            .project_ancestors(&[found])
            .into_iter()
            .flat_map(|a| index.own_members(a, name))
            .chain(below.iter().flat_map(|s| index.own_members(*s, name)))
            .map(place)
            .collect();
        if !above.is_empty() {
            return Err(refused(format!(
                "{name} is also defined by {}: lookups of it through {} would find another one",
                above.join(", "),
                info.name
            )));
        }
        if let Some((_, base)) = index.overrides_outside(&[found], name) {
            return Err(refused(format!(
                "{}.{name} overrides {base}.{name}: lookups through {} would find the base's",
                info.name, info.name
            )));
        }
    }
    // the new name
    if let Some(b) = file
        .scopes()
        .bindings
        .iter()
        .find(|b| b.scope == 0 && b.name == new_class)
    {
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: {new_class} is bound in {} at {}",
                info.path,
                file.position(b.range.start)
            ),
        )
        .at(Argument::NewName));
    }
    // the uses
    let targets: Vec<DefRef> = names
        .iter()
        .flat_map(|n| index.own_members(found, n))
        .collect();
    let mut unproven: Vec<String> = Vec::new();
    let mut edits: BTreeMap<String, Vec<Indel>> = BTreeMap::new();
    let mut import_in: BTreeMap<String, usize> = BTreeMap::new();
    let mut references = 0usize;
    let mut in_moved: Vec<Indel> = Vec::new();
    for name in &names {
        let sites = index.rename_sites(&targets, name, true);
        for (l, d) in &sites.possible {
            unproven.push(format!("{l} ({})", d.why()));
        }
        for (fid, f) in index.files_with(name) {
            let Some(path) = index.path(fid) else {
                continue;
            };
            for r in f.refs_keyed(name) {
                let site = Location {
                    path: path.to_string(),
                    position: r.position(),
                    end: r.end(),
                };
                let proven = matches!(index.resolve(fid, r.value, 0), Res::Defs(ds) if !ds.is_empty() && ds.iter().all(|d| targets.contains(d)));
                if !proven {
                    continue;
                }
                let there = project.parsed(path)?;
                let at = there.offset(r.position());
                if f.is_super_attribute(r.value) {
                    unproven.push(format!("{site} (reached through super())"));
                    continue;
                }
                let Value::Attr { base, .. } = f.value(r.value) else {
                    // a read by name inside the moved code (a class body's)
                    continue;
                };
                let Some(attribute) = there
                    .node_covering(at)
                    .and_then(|n| n.parent())
                    .filter(|p| p.kind() == "attribute")
                else {
                    unproven.push(format!("{site} (not an attribute)"));
                    continue;
                };
                let Some(receiver) = attribute.child_by_field_name("object") else {
                    continue;
                };
                // `cls.PATTERN` inside a moved class method: `cls` is the new class
                if path == info.path && inside(at) && f.self_class(base).is_some() {
                    continue;
                }
                let assigned = attribute.parent().is_some_and(|p| {
                    (matches!(p.kind(), "assignment" | "augmented_assignment")
                        && p.child_by_field_name("left") == Some(attribute))
                        || p.kind() == "delete_statement"
                });
                let is_class = matches!(index.resolve(fid, base, 0), Res::Defs(ds) if ds.iter().all(|d| *d == found || below.contains(d)));
                let is_instance = f.self_class(base).is_some()
                    || matches!(index.resolve(fid, base, 0), Res::Instance(cs) if !cs.is_empty() && cs.iter().all(|c| *c == found || below.contains(c)));
                if is_instance && !is_class && assigned {
                    unproven.push(format!(
                        "{site} (assigned through an instance, which binds an attribute of the instance)"
                    ));
                    continue;
                }
                if !is_class && !is_instance {
                    unproven.push(format!("{site} (a receiver not proven of {})", info.name));
                    continue;
                }
                // how this module names the new class
                let spelled = if is_class && receiver.kind() == "attribute" {
                    // `models.User.RATE`: the class's own name in place
                    match receiver.child_by_field_name("attribute") {
                        Some(name) => {
                            let edit = Indel::new(there.chars(name), new_class);
                            push(
                                &mut edits,
                                &mut in_moved,
                                &ranges,
                                (path, path == info.path),
                                edit,
                            );
                            references += 1;
                            continue;
                        }
                        None => None,
                    }
                } else if receiver.kind() != "identifier" {
                    unproven.push(format!(
                        "{site} (the receiver {} would no longer be evaluated)",
                        there.node_text(receiver)
                    ));
                    continue;
                } else if path == info.path {
                    Some(new_class.to_string())
                } else {
                    let module = index.file(fid);
                    let scopes = there.scopes();
                    // the import the receiver reads (a function's own `from
                    // .loaders import ModuleLoader` too), else the module's
                    let read = scopes
                        .references
                        .iter()
                        .find(|r| is_class && r.range == there.chars(receiver))
                        .and_then(|r| match r.resolution {
                            crate::analysis::scope::Resolution::Scope(k) => {
                                scopes.bindings.iter().find(|b| {
                                    b.scope == k
                                        && b.name == r.name
                                        && b.kind == BindingKind::Import
                                })
                            }
                            _ => None,
                        });
                    let import = read.or_else(|| scopes.bindings.iter().find(|b| {
                        b.scope == 0
                            && b.kind == BindingKind::Import
                            && module
                                .and_then(|m| m.exports.get(b.name.as_str()))
                                .is_some_and(|&v| {
                                    matches!(index.resolve(fid, v, 0), Res::Defs(ds) if ds == vec![found])
                                })
                    }));
                    match import {
                        Some(b) if there.slice(b.statement.clone()).starts_with("from ") => {
                            import_in.insert(path.to_string(), b.statement.start);
                            Some(new_class.to_string())
                        }
                        _ => None,
                    }
                };
                let Some(spelled) = spelled else {
                    unproven.push(format!(
                        "{site} (its module does not import {} with from … import, which {new_class} could join)",
                        info.name
                    ));
                    continue;
                };
                let edit = Indel::new(there.chars(receiver), spelled);
                push(
                    &mut edits,
                    &mut in_moved,
                    &ranges,
                    (path, path == info.path),
                    edit,
                );
                references += 1;
            }
        }
        for s in super::rename::strings::in_project(
            project.sources,
            &index
                .paths()
                .into_iter()
                .filter(|p| p.ends_with(".py"))
                .collect::<Vec<_>>(),
            name,
        ) {
            unproven.push(format!("{} (a string naming {name}: {})", s.site, s.why));
        }
    }
    // a lookup by a computed name (`getattr(self, f"visit_{…}")`) may
    // reach a moved member through the class
    for (site, why) in super::move_method::computed_lookups(project, found) {
        unproven.push(format!("{site} ({why})"));
    }
    if !unproven.is_empty() {
        unproven.sort();
        unproven.dedup();
        let more = if unproven.len() > 10 {
            format!(" … ({} more)", unproven.len() - 10)
        } else {
            String::new()
        };
        return Err(refused(format!(
            "{} uses of {} it cannot prove are of {}: {}{more}",
            unproven.len(),
            names.join(", "),
            info.name,
            unproven
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    // the new class, right below
    let indent = statements::indent(file, moved[0]);
    let body = statements::moved_text_edited(file, &moved, &in_moved, &indent).map_err(refused)?;
    let text = file.text();
    let class_statement = classes::statement(node);
    let row = class_statement.end_position().row + 1;
    let at = if row < text.len_lines() {
        text.line_to_char(row)
    } else {
        text.len_chars()
    };
    let lead = if at == text.len_chars() && !file.slice(0..at).ends_with('\n') {
        "\n"
    } else {
        ""
    };
    let new_text = format!(
        "{lead}\n\nclass {new_class}:{}",
        body.trim_end_matches('\n').to_string() + "\n"
    );
    let new_text = new_text.replacen(":\n\n", ":\n", 1);
    let mut files: BTreeMap<String, FileEdits> = BTreeMap::new();
    let home = move_members::add(&mut files, file);
    if let Some(e) = files.get_mut(&home) {
        e.indels
            .extend(statements::removal(file, node, &moved).map_err(refused)?);
        e.indels.push(Indel::insert(at, new_text));
    }
    for (path, indels) in edits {
        let there = project.parsed(&path)?;
        let key = move_members::add(&mut files, &there);
        if let Some(e) = files.get_mut(&key) {
            e.indels.extend(indels);
        }
    }
    for (path, start) in import_in {
        let there = project.parsed(&path)?;
        let statement = there
            .node_covering(start)
            .and_then(|mut n| loop {
                if n.kind() == "import_from_statement" {
                    break Some(n);
                }
                n = n.parent()?;
            })
            .ok_or_else(|| refused(format!("the import of {} in {path} is gone", info.name)))?;
        let key = move_members::add(&mut files, &there);
        if let Some(e) = files.get_mut(&key) {
            e.indels
                .push(super::imports::extend(&there, statement, &[new_class]));
        }
    }
    let change = move_members::change_of(files)?;
    Ok(move_members::refactored(
        change,
        Summary::ClassSplit {
            class: info.full_name.clone(),
            new_class: new_class.to_string(),
            members: statement_names,
            references,
        },
    ))
}

/// An edit of a use: into the moved text when it is inside the moved
/// statements (of the class's own file), else the file's edits.
fn push(
    edits: &mut BTreeMap<String, Vec<Indel>>,
    in_moved: &mut Vec<Indel>,
    ranges: &[std::ops::Range<usize>],
    (path, home): (&str, bool),
    edit: Indel,
) {
    if home
        && ranges
            .iter()
            .any(|r| r.start <= edit.range.start && edit.range.end <= r.end)
    {
        in_moved.push(edit);
    } else {
        edits.entry(path.to_string()).or_default().push(edit);
    }
}

#[cfg(test)]
#[path = "tests/split.rs"]
mod tests;
