//! Move members along a class hierarchy: `Refactor Pull_Up
//! <Class.member,…>` to the class's one base class of the project, and
//! `Refactor Push_Down <Class.member>` into each of its direct subclasses
//! of the project.
//!
//! A member is what a statement of the class body defines: a method (with
//! its decorators; a property with its setter is one member), a nested
//! class, or a class attribute (`rate = 2`, `rate: int = 2`). Its lines
//! move as they are, re-indented to the target's body, at its end (or in
//! the place of a body that is only `pass`); a class body left empty gets
//! `pass`. Imports follow the code: each module-level name it reads is the
//! one the target module binds already, or gains an import there in the
//! module's style (an import copied from the source module, or `from
//! <source module> import name` for the source module's own names); an
//! import of the source module that nothing reads any more is dropped.
//!
//! Refused, changing nothing (the safety contract: `Ok` means every use
//! still finds what it found): a member the class body does not define
//! (an instance attribute set in a method moves with that method), what
//! cannot move as text (a name mangled by the class, `self.__x`;
//! `super(C, self)`; a name of the class body the member reads where it
//! is defined, not moved with it; a class body reading a moved attribute
//! where the class is defined), a name that would mean something else in
//! the target module or whose import would close an import cycle, and a
//! `super().name` in the member that would reach another class. Pull_Up:
//! the class has not exactly one base class in the project; the base
//! defines the member already; the member reads through `self` what only
//! the class (or a subclass) has; another subclass of the base, or the
//! base itself where it is instantiated, that finds the name in a class
//! after the base would find the moved member instead.
//! Push_Down: the class has no subclass in the project; the member is
//! used through the class — read through `self`/`cls` in the class's other
//! methods, by `super().member` anywhere, on a receiver the index types
//! as the class (or cannot type), or by a string that is its name
//! (`getattr(obj, "member")`) —, or the class itself is instantiated (a
//! call of its name or of an alias, `cls(…)` in its class methods): its
//! own instances would lose the member, which its bases' methods may
//! reach through `self` (`Field.deserialize` calling
//! `self._deserialize`). The sites are listed.

pub(super) mod needs;
pub(super) mod statements;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use tree_sitter::Node;

use super::class_uses::{self, Use};
use super::classes;
use super::imports;
use super::mro::{self, Found, Klass, Lineages};
use super::{
    Argument, Parsed, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Summary,
};
use crate::analysis::index::file::Value;
use crate::analysis::index::rename::{DefInfo, Subclasses};
use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::index::{FileId, Location};
use crate::analysis::scope::{BindingKind, Resolution};
use crate::change::{Indel, TextEdits, WorkspaceChange};
pub(in crate::refactor) use needs::Imports;

/// `Cannot move members - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot move members - {why}"),
    )
}

fn internal(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::WouldBreak,
        format!("Internal error: {why}"),
    )
}

/// The class the request's `Class.member` entries name (every one the
/// same class), its definition and the members' names.
fn resolve(
    project: &Project<'_>,
    entries: &[String],
) -> Result<(DefRef, DefInfo, Vec<String>), RefactorError> {
    let mut class: Option<(DefRef, String)> = None;
    let mut names: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry.trim();
        let Some((owner, member)) = entry.rsplit_once('.') else {
            return Err(RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!("Invalid member '{entry}': name it with its class, as Class.member"),
            )
            .at(Argument::Members));
        };
        let found = classes::find(project, owner, refused)?;
        match &class {
            Some((c, first)) if *c != found => {
                return Err(RefactorError::new(
                    RefactorFailure::InvalidArgument,
                    format!("{entry} is not a member of {first}, as the first one is: move the members of one class at a time"),
                )
                .at(Argument::Members))
            }
            Some(_) => {}
            None => class = Some((found, owner.to_string())),
        }
        if !names.iter().any(|n| n == member) {
            names.push(member.to_string());
        }
    }
    let (class, _) = class.ok_or_else(|| {
        RefactorError::new(RefactorFailure::InvalidArgument, "No member to move")
            .at(Argument::Members)
    })?;
    let info = project
        .index
        .def_info(class)
        .ok_or_else(|| internal("the class's definition is gone from the index"))?;
    Ok((class, info, names))
}

/// A class's parsed file and node, refusing a file with syntax errors.
pub(in crate::refactor) fn class_file(
    project: &Project<'_>,
    info: &DefInfo,
) -> Result<Arc<Parsed>, RefactorError> {
    classes::parsed(project, &info.path, refused)
}

pub(in crate::refactor) fn node_of<'t>(
    file: &'t Parsed,
    info: &DefInfo,
) -> Result<Node<'t>, RefactorError> {
    classes::class_node(file, info)
        .ok_or_else(|| internal(format!("{} is not where the index saw it", info.name)))
}

/// The statements defining `names` in the class body, in order; a name it
/// does not define is not found, with the names it does.
fn defining<'t>(
    file: &Parsed,
    class: Node<'t>,
    info: &DefInfo,
    names: &[String],
) -> Result<Vec<Node<'t>>, RefactorError> {
    let mut out: Vec<Node<'t>> = Vec::new();
    for name in names {
        let found = statements::defining(file, class, name);
        if found.is_empty() {
            let all = statements::names(file, class);
            return Err(RefactorError::new(
                RefactorFailure::NotFound,
                format!(
                    "Not found: {}.{name} is not defined in the class body (its members: {}); an instance attribute moves with the method that sets it",
                    info.name,
                    if all.is_empty() { "none".to_string() } else { all.join(", ") }
                ),
            )
            .at(Argument::Members)
            .with_candidates(all));
        }
        out.extend(found);
    }
    out.sort_by_key(|n| n.start_byte());
    out.dedup();
    Ok(out)
}

/// The receiver reads and `super()` reads of the moved methods.
fn uses_in(file: &Parsed, statements: &[Node<'_>]) -> Vec<Use> {
    let mut out = Vec::new();
    for statement in statements {
        let def = match statement.kind() {
            "decorated_definition" => statement.child_by_field_name("definition"),
            _ => Some(*statement),
        };
        if let Some(def) = def.filter(|d| d.kind() == "function_definition") {
            class_uses::of_method(file, *statement, def, &mut out);
        }
    }
    out
}

/// The edits of one file of the change.
pub(in crate::refactor) struct FileEdits {
    pub file: Arc<Parsed>,
    pub indels: Vec<Indel>,
    pub imports: Imports,
    /// The first target class statement of the file (where new imports go
    /// above), by its start byte.
    pub before: Option<usize>,
}

pub(in crate::refactor) fn add(
    files: &mut BTreeMap<String, FileEdits>,
    file: &Arc<Parsed>,
) -> String {
    let path = file.path().to_string();
    files.entry(path.clone()).or_insert_with(|| FileEdits {
        file: file.clone(),
        indels: Vec::new(),
        imports: Imports::default(),
        before: None,
    });
    path
}

pub(in crate::refactor) fn change_of(
    files: BTreeMap<String, FileEdits>,
) -> Result<WorkspaceChange, RefactorError> {
    let mut change = WorkspaceChange::new();
    for (_, mut edits) in files {
        if let Some(before) = edits.before {
            let root = edits.file.tree.root();
            let mut cursor = root.walk();
            let statement = root
                .named_children(&mut cursor)
                .find(|s| s.start_byte() <= before && before < s.end_byte());
            if let Some(statement) = statement {
                edits
                    .indels
                    .extend(edits.imports.edits(&edits.file, statement));
            }
        }
        let text = TextEdits::new(edits.indels)
            .map_err(|(a, b)| internal(format!("overlapping edits {a:?} and {b:?}")))?;
        let one = WorkspaceChange::edit(
            edits.file.source.path.clone(),
            edits.file.source.base.clone(),
            text,
        );
        change = change
            .union(one)
            .map_err(|e| internal(format!("the files' edits do not combine: {e}")))?;
    }
    Ok(change)
}

/// The imports of the source module that only the moved statements read.
pub(in crate::refactor) fn unused_after(
    project: &Project<'_>,
    file: &Parsed,
    fid: FileId,
    statements: &[Node<'_>],
) -> Vec<Indel> {
    let Some(module) = project.index.file(fid) else {
        return Vec::new();
    };
    let ranges: Vec<std::ops::Range<usize>> = statements.iter().map(|s| file.chars(*s)).collect();
    let scopes = file.scopes();
    let mut names: Vec<&str> = scopes
        .references
        .iter()
        .filter(|r| {
            r.resolution == Resolution::Scope(0)
                && ranges
                    .iter()
                    .any(|x| x.start <= r.range.start && r.range.end <= x.end)
        })
        .map(|r| r.name.as_str())
        .filter(|name| {
            scopes
                .bindings
                .iter()
                .any(|b| b.scope == 0 && b.name == *name && b.kind == BindingKind::Import)
        })
        .collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| imports::drop_unused(project.index, file, module, name, &ranges))
        .map(|d| d.edit)
        .collect()
}

pub(in crate::refactor) fn refactored(change: WorkspaceChange, summary: Summary) -> Refactored {
    Refactored {
        change,
        summary,
        evidence: Default::default(),
        left_alone: Vec::new(),
        mentions: Vec::new(),
        names_swapped: Default::default(),
        data_strings: Vec::new(),
        also_renamed: Vec::new(),
        assumed: Vec::new(),
    }
}

fn short(project: &Project<'_>, class: DefRef) -> String {
    project
        .index
        .def_info(class)
        .map(|i| i.name)
        .unwrap_or_default()
}

fn place(project: &Project<'_>, class: DefRef) -> String {
    project
        .index
        .def_info(class)
        .map(|i| format!("{}:{}", i.path, i.name_location.position))
        .unwrap_or_default()
}

/// `Refactor Pull_Up <Class.member,…>`.
pub(super) fn pull_up(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::PullUp { members } = request else {
        return Err(super::not_built(request));
    };
    let index = project.index;
    let (class, info, names) = resolve(project, members)?;
    let file = class_file(project, &info)?;
    let node = node_of(&file, &info)?;
    let bases = mro::bases_in_index(index, class);
    let mut lineages = Lineages::new(index, HashMap::new());
    let project_bases: Vec<DefRef> = bases
        .iter()
        .filter_map(|b| match b {
            Klass::Project(d) => Some(*d),
            Klass::Outside(_) => None,
        })
        .collect();
    let base = match project_bases.as_slice() {
        [one] => *one,
        [] => {
            let all: Vec<String> = bases.iter().map(|b| lineages.name(b)).collect();
            return Err(refused(format!(
                "{} has no base class in the project (its bases: {})",
                info.name,
                if all.is_empty() {
                    "none".to_string()
                } else {
                    all.join(", ")
                }
            )));
        }
        many => {
            let all: Vec<String> = many.iter().map(|&b| short(project, b)).collect();
            return Err(refused(format!(
                "{} has {} base classes in the project ({}): Pull_Up moves members to the one base",
                info.name,
                many.len(),
                all.join(", ")
            )));
        }
    };
    let base_info = index
        .def_info(base)
        .ok_or_else(|| internal("the base is gone from the index"))?;
    let statements = defining(&file, node, &info, &names)?;
    for name in &names {
        if let Some(&own) = index.own_members(base, name).first() {
            let at = index
                .def_info(own)
                .map(|i| format!("{}:{}", i.path, i.name_location.position))
                .unwrap_or_default();
            return Err(refused(format!(
                "{} defines {name} already ({at})",
                base_info.name
            )));
        }
    }
    needs::check_movable(&file, node, &statements, &names).map_err(refused)?;
    needs::check_not_read_in_body(&file, node, &statements, &names).map_err(refused)?;
    let class_l = lineages.of(class).map_err(|_| {
        refused(format!(
            "{} has no consistent method resolution order",
            info.name
        ))
    })?;
    let base_l = lineages.of(base).map_err(|_| {
        refused(format!(
            "{} has no consistent method resolution order",
            base_info.name
        ))
    })?;
    let base_at = class_l
        .iter()
        .position(|k| *k == Klass::Project(base))
        .unwrap_or(1);
    // what the moved methods read must be the base's too
    let mut only_here: Vec<String> = Vec::new();
    for u in uses_in(&file, &statements) {
        if names.contains(&u.name) {
            continue;
        }
        if u.via_super {
            let (was, now) = (
                lineages.find(&class_l, 1, &u.name),
                lineages.find(&class_l, base_at + 1, &u.name),
            );
            if was != now {
                return Err(refused(format!(
                    "super().{} in {} at {} reaches {} today; from {} it would reach {}",
                    u.name,
                    u.method,
                    u.at,
                    found_words(&lineages, &was),
                    base_info.name,
                    found_words(&lineages, &now)
                )));
            }
            continue;
        }
        if lineages.find(&base_l, 0, &u.name) != Found::Missing {
            continue;
        }
        if let Found::Project(c) = lineages.find(&class_l, 0, &u.name) {
            // an instance attribute the moved methods set moves with them
            let set_by_moved = index.own_members(c, &u.name).iter().all(|&d| {
                index.def_info(d).is_some_and(|i| {
                    let at = file.offset(i.name_location.position);
                    i.path == info.path && statements.iter().any(|s| file.chars(*s).contains(&at))
                })
            });
            if !base_l.contains(&Klass::Project(c)) && !set_by_moved {
                only_here.push(format!(
                    "{}.{} reads self.{} at {}, which {} has and {} does not",
                    info.name,
                    u.method,
                    u.name,
                    u.at,
                    short(project, c),
                    base_info.name
                ));
            }
        }
    }
    if !only_here.is_empty() {
        only_here.dedup();
        return Err(refused(only_here.join("; ")));
    }
    // the base's other subclasses: they inherit the members, unless they
    // find the name first somewhere else
    let subclasses = Subclasses::new(index);
    let mut family: Vec<DefRef> = vec![class];
    family.extend(subclasses.of(class));
    let mut inherited_by: Vec<String> = Vec::new();
    let mut overridden: Vec<String> = Vec::new();
    for sibling in subclasses.of(base) {
        if family.contains(&sibling) {
            continue;
        }
        let Ok(sl) = lineages.of(sibling) else {
            continue;
        };
        let base_pos = sl.iter().position(|k| *k == Klass::Project(base));
        for name in &names {
            let found = lineages.find(&sl, 0, name);
            let at = |k: &Klass| sl.iter().position(|x| x == k);
            let after_base = |pos: Option<usize>| match (pos, base_pos) {
                (Some(p), Some(b)) => p > b,
                _ => false,
            };
            match &found {
                Found::Missing => {
                    let s = short(project, sibling);
                    if !inherited_by.contains(&s) {
                        inherited_by.push(s);
                    }
                }
                Found::Project(c) if after_base(at(&Klass::Project(*c))) => {
                    overridden.push(format!(
                        "{} ({}) finds {name} in {} today",
                        short(project, sibling),
                        place(project, sibling),
                        short(project, *c)
                    ))
                }
                Found::Outside(o) | Found::Unknown(o)
                    if after_base(at(&Klass::Outside(o.clone()))) =>
                {
                    overridden.push(format!(
                        "{} ({}) finds {name} in {o} today",
                        short(project, sibling),
                        place(project, sibling)
                    ))
                }
                _ => {}
            }
        }
    }
    // the base's own instances: what they find today must not change
    let base_file = class_file(project, &base_info)?;
    let base_node = node_of(&base_file, &base_info)?;
    for name in &names {
        let today = lineages.find(&base_l, 1, name);
        if today == Found::Missing {
            continue;
        }
        let made = instantiations(project, base, &base_info, &base_file, base_node);
        if let Some(at) = made.first() {
            overridden.push(format!(
                "{} itself (instantiated at {at}) finds {name} in {} today",
                base_info.name,
                found_words(&lineages, &today)
            ));
        }
    }
    if !overridden.is_empty() {
        return Err(refused(format!(
            "{} has other subclasses that would get the moved member in place of the one they use: {}",
            base_info.name,
            overridden.join("; ")
        )));
    }
    // the edits
    let base_statement = classes::statement(base_node);
    let mut imports = Imports::default();
    needs::follow(
        project,
        &file,
        class.file,
        &statements,
        node,
        &base_file,
        base.file,
        base_statement,
        &mut imports,
    )
    .map_err(refused)?;
    let indent = statements::body(base_node)
        .first()
        .map(|s| statements::indent(&base_file, *s))
        .unwrap_or_else(|| "    ".into());
    let text = statements::moved_text(&file, &statements, &indent).map_err(refused)?;
    let mut files: BTreeMap<String, FileEdits> = BTreeMap::new();
    let from = add(&mut files, &file);
    let removal = statements::removal(&file, node, &statements).map_err(refused)?;
    let insertion = statements::insertion(&base_file, base_node, &text).map_err(refused)?;
    let dropped = if class.file != base.file {
        unused_after(project, &file, class.file, &statements)
    } else {
        Vec::new()
    };
    if let Some(edits) = files.get_mut(&from) {
        edits.indels.extend(removal);
        edits.indels.extend(dropped);
    }
    let to = add(&mut files, &base_file);
    if let Some(edits) = files.get_mut(&to) {
        edits.indels.push(insertion);
        edits.imports = imports;
        edits.before = Some(base_statement.start_byte());
    }
    let change = change_of(files)?;
    Ok(refactored(
        change,
        Summary::MembersMoved {
            up: true,
            class: info.full_name.clone(),
            to: vec![base_info.name.clone()],
            members: names,
            inherited_by,
            kept_own: Vec::new(),
        },
    ))
}

/// `Refactor Push_Down <Class.member>`.
pub(super) fn push_down(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::PushDown { member } = request else {
        return Err(super::not_built(request));
    };
    let index = project.index;
    let (class, info, names) = resolve(project, std::slice::from_ref(member))?;
    let file = class_file(project, &info)?;
    let node = node_of(&file, &info)?;
    let statements = defining(&file, node, &info, &names)?;
    needs::check_movable(&file, node, &statements, &names).map_err(refused)?;
    needs::check_not_read_in_body(&file, node, &statements, &names).map_err(refused)?;
    let subclasses = Subclasses::new(index);
    let all_below = subclasses.of(class);
    let direct: Vec<DefRef> = all_below
        .iter()
        .copied()
        .filter(|&s| mro::bases_in_index(index, s).contains(&Klass::Project(class)))
        .collect();
    if direct.is_empty() {
        return Err(refused(format!(
            "{} has no subclass in the project to push {} down to",
            info.name,
            names.join(", ")
        )));
    }
    // uses through the class itself
    let ranges: Vec<std::ops::Range<usize>> = statements.iter().map(|s| file.chars(*s)).collect();
    let mut sites: Vec<String> = Vec::new();
    for u in class_uses::of_class(&file, node) {
        let inside = ranges
            .iter()
            .any(|x| x.start <= u.range.start && u.range.end <= x.end);
        if !inside && !u.via_super && names.contains(&u.name) {
            sites.push(format!(
                "{}.{} reads self.{} at {}",
                info.name, u.method, u.name, u.at
            ));
        }
    }
    let targets: Vec<DefRef> = names
        .iter()
        .flat_map(|n| index.own_members(class, n))
        .collect();
    for name in &names {
        for (fid, f) in index.files_with(name) {
            let Some(path) = index.path(fid) else {
                continue;
            };
            for r in f.refs_keyed(name) {
                let at = Location {
                    path: path.to_string(),
                    position: r.position(),
                    end: r.end(),
                };
                if at.path == info.path
                    && ranges.iter().any(|x| {
                        let c = file.offset(at.position);
                        x.start <= c && c < x.end
                    })
                {
                    continue;
                }
                let through = match index.resolve(fid, r.value, 0) {
                    Res::Defs(ds) if ds.iter().any(|d| targets.contains(d)) => {
                        if f.is_super_attribute(r.value) {
                            Some("super()")
                        } else if let Value::Attr { base, .. } = f.value(r.value) {
                            match index.resolve(fid, base, 0) {
                                Res::Instance(cs) | Res::Defs(cs)
                                    if !cs.is_empty()
                                        && cs.iter().all(|c| all_below.contains(c)) =>
                                {
                                    None
                                }
                                _ if f.self_class(base).is_some() => None,
                                _ => Some("a receiver of the class"),
                            }
                        } else {
                            Some("its name")
                        }
                    }
                    Res::Possible => Some("a receiver of unknown type"),
                    _ => None,
                };
                if let Some(through) = through {
                    sites.push(format!("{name} through {through} at {at}"));
                }
            }
        }
    }
    // the class's own instances would lose it
    for at in instantiations(project, class, &info, &file, node) {
        sites.push(format!("{} instantiated at {at}", info.name));
    }
    // a string naming it may reach it through the class at run time
    // (`getattr(payment, "refund")`)
    let paths: Vec<&str> = index
        .paths()
        .into_iter()
        .filter(|p| p.ends_with(".py"))
        .collect();
    for name in &names {
        for string in super::rename::strings::in_project(project.sources, &paths, name) {
            sites.push(format!("{name} named by a string at {}", string.site));
        }
    }
    if !sites.is_empty() {
        sites.sort();
        sites.dedup();
        let shown: Vec<&str> = sites.iter().take(10).map(String::as_str).collect();
        let more = if sites.len() > 10 {
            format!(" … ({} more)", sites.len() - 10)
        } else {
            String::new()
        };
        return Err(refused(format!(
            "{} is used through {} itself, where it would be missing: {}{more}",
            names.join(", "),
            info.name,
            shown.join("; ")
        )));
    }
    // super() in the moved code must reach what it reaches today
    let mut lineages = Lineages::new(index, HashMap::new());
    let uses = uses_in(&file, &statements);
    for &sub in &direct {
        let Ok(sl) = lineages.of(sub) else {
            continue;
        };
        let class_at = sl
            .iter()
            .position(|k| *k == Klass::Project(class))
            .unwrap_or(1);
        for u in uses.iter().filter(|u| u.via_super) {
            let was = lineages.find(&sl, class_at + 1, &u.name);
            let without: Vec<Klass> = if names.contains(&u.name) {
                sl.iter()
                    .filter(|k| **k != Klass::Project(class))
                    .cloned()
                    .collect()
            } else {
                sl.clone()
            };
            let now = lineages.find(&without, 1, &u.name);
            if was != now {
                return Err(refused(format!(
                    "super().{} in {} at {} reaches {} today; from {} it would reach {}",
                    u.name,
                    u.method,
                    u.at,
                    found_words(&lineages, &was),
                    short(project, sub),
                    found_words(&lineages, &now)
                )));
            }
        }
    }
    // the copies
    let mut files: BTreeMap<String, FileEdits> = BTreeMap::new();
    let from = add(&mut files, &file);
    let mut to: Vec<String> = Vec::new();
    let mut kept_own: Vec<String> = Vec::new();
    let mut lands_in_source = false;
    for &sub in &direct {
        let sub_info = index
            .def_info(sub)
            .ok_or_else(|| internal("a subclass is gone from the index"))?;
        if names.iter().all(|n| !index.own_members(sub, n).is_empty()) {
            kept_own.push(sub_info.name.clone());
            continue;
        }
        if names.iter().any(|n| !index.own_members(sub, n).is_empty()) {
            return Err(refused(format!(
                "{} defines some of {} and not the others: push them down one by one",
                sub_info.name,
                names.join(", ")
            )));
        }
        let sub_file = class_file(project, &sub_info)?;
        let sub_node = node_of(&sub_file, &sub_info)?;
        let sub_statement = classes::statement(sub_node);
        lands_in_source |= sub.file == class.file;
        let path = add(&mut files, &sub_file);
        let Some(edits) = files.get_mut(&path) else {
            continue;
        };
        needs::follow(
            project,
            &file,
            class.file,
            &statements,
            node,
            &sub_file,
            sub.file,
            sub_statement,
            &mut edits.imports,
        )
        .map_err(refused)?;
        let indent = statements::body(sub_node)
            .first()
            .map(|s| statements::indent(&sub_file, *s))
            .unwrap_or_else(|| "    ".into());
        let text = statements::moved_text(&file, &statements, &indent).map_err(refused)?;
        edits
            .indels
            .push(statements::insertion(&sub_file, sub_node, &text).map_err(refused)?);
        let start = sub_statement.start_byte();
        edits.before = Some(edits.before.map_or(start, |b| b.min(start)));
        to.push(sub_info.name.clone());
    }
    let removal = statements::removal(&file, node, &statements).map_err(refused)?;
    let dropped = if lands_in_source {
        Vec::new()
    } else {
        unused_after(project, &file, class.file, &statements)
    };
    if let Some(edits) = files.get_mut(&from) {
        edits.indels.extend(removal);
        edits.indels.extend(dropped);
    }
    let change = change_of(files)?;
    Ok(refactored(
        change,
        Summary::MembersMoved {
            up: false,
            class: info.full_name.clone(),
            to,
            members: names,
            inherited_by: Vec::new(),
            kept_own,
        },
    ))
}

/// Where the class itself is instantiated: calls of its name or of a
/// module-level alias of it (`Str = String`), and `cls(…)` in its own
/// methods.
fn instantiations(
    project: &Project<'_>,
    class: DefRef,
    info: &DefInfo,
    file: &Parsed,
    node: Node<'_>,
) -> Vec<String> {
    let index = project.index;
    let mut names: Vec<(String, Vec<DefRef>)> = vec![(info.name.clone(), vec![class])];
    // aliases: `Str = String` anywhere in the project
    for (fid, f) in index.files_with(&info.name) {
        for (i, def) in f.defs.iter().enumerate() {
            let is_alias = def.parent.is_none()
                && !matches!(
                    def.kind,
                    crate::analysis::outline::SymbolKind::Class
                        | crate::analysis::outline::SymbolKind::Function
                )
                && def.value.is_some_and(
                    |v| matches!(index.resolve(fid, v, 0), Res::Defs(ds) if ds == [class]),
                );
            if is_alias {
                let alias = DefRef {
                    file: fid,
                    def: i as u32,
                };
                names.push((f.name(def.name).to_string(), vec![alias]));
            }
        }
    }
    let mut out: Vec<String> = Vec::new();
    for (name, targets) in &names {
        for (fid, f) in index.files_with(name) {
            let path = index.path(fid).unwrap_or("?");
            for r in f.refs_keyed(name) {
                if !r.is_call {
                    continue;
                }
                let hits = match index.resolve(fid, r.value, 0) {
                    Res::Defs(ds) => ds.iter().any(|d| targets.contains(d) || *d == class),
                    _ => false,
                };
                if hits {
                    out.push(format!("{path}:{}", r.position()));
                }
            }
        }
    }
    // `cls(…)` in the class's own class methods
    for (statement, def) in classes::methods(node) {
        let mut cursor = statement.walk();
        let class_method = statement
            .named_children(&mut cursor)
            .any(|d| d.kind() == "decorator" && file.node_text(d).trim() == "@classmethod");
        let Some(receiver) = classes::receiver(file, statement, def).filter(|_| class_method)
        else {
            continue;
        };
        let mut stack: Vec<Node<'_>> = def.child_by_field_name("body").into_iter().collect();
        while let Some(n) = stack.pop() {
            if n.kind() == "call"
                && n.child_by_field_name("function")
                    .is_some_and(|f| f.kind() == "identifier" && file.node_text(f) == receiver)
            {
                out.push(file.place(n));
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    out.sort();
    out.dedup();
    out
}

fn found_words(lineages: &Lineages<'_>, found: &Found) -> String {
    match found {
        Found::Project(c) => lineages.name(&Klass::Project(*c)),
        Found::Outside(o) => o.clone(),
        Found::Unknown(o) => format!("whatever {o} has"),
        Found::Missing => "nothing".into(),
    }
}

#[cfg(test)]
#[path = "tests/move_members.rs"]
mod tests;
