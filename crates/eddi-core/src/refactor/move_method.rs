//! Move a method to another class: `Refactor Move_Method <Class.method>
//! <Target>` (the spec's `Class.method() Target.name()` too, which may
//! rename it).
//!
//! The method reaches the target through a `self` attribute the index
//! types as the target (annotated, or assigned `Target(…)` in a method)
//! or through a parameter annotated with it. It moves to the end of the
//! target's body, rewritten in terms of the target's `self`: what reached
//! the target becomes `self`, and what it still reads of the source comes
//! through a new parameter (the source object, named after its class:
//! `user`); a parameter that reached the target leaves the signature.
//! Imports follow the code into the target module (as `Pull_Up`'s do).
//!
//! Every call on a receiver the index proves is of the source class (or
//! a subclass) is rewritten (`user.validate(x)` becomes
//! `user.validator.validate(user, x)`; `user.send(mailer)` becomes
//! `mailer.send(user)`), and so are calls through the class
//! (`User.validate(u)`) and `super().validate()` in a subclass's method
//! (`calls.rs`). Any other use — a receiver of unknown type, the
//! method read as a value (`map(User.validate, us)`), a string naming it, the class body binding it again (`alias = method`),
//! a lookup by a computed name in the class or a base (`getattr(self,
//! f"visit_{…}")`), arguments it cannot map or would evaluate in another
//! order — keeps working through a one-line delegate the source keeps
//! (`return self.validator.validate(self, x)`), and the reply lists each
//! with why (`left_alone`).
//!
//! Refused, changing nothing: no instance of the target reachable (no
//! such attribute read in it, no such parameter); the method overridden
//! in a subclass or overriding a base's (listed), a special method
//! (`__str__`: Python calls it on the source), a decorated one (a
//! property, a static or class method), one calling itself or `super()`;
//! the target (or a class above or below it) defining the name; what
//! cannot move as text (a name mangled by the class, a class-body name
//! read at definition); the attribute or parameter assigned in the
//! method; a name the target module would read otherwise or whose import
//! would close a cycle.

pub(super) mod body;
mod calls;

use std::collections::BTreeMap;
use std::sync::Arc;

use tree_sitter::Node;

use super::move_members::{self, needs, statements, FileEdits};
use super::{
    classes, Argument, LeftAlone, Parsed, Project, RefactorError, RefactorFailure, Refactored,
    Refactoring, Summary,
};
use crate::analysis::identifier::is_identifier;
use crate::analysis::index::file::Value;
use crate::analysis::index::rename::{DefInfo, Subclasses};
use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::index::{FileId, Location};
use crate::analysis::outline::SymbolKind;
use crate::analysis::scope::BindingKind;
use calls::{Rewrite, Through};

/// `Cannot move method - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot move method - {why}"),
    )
}

fn internal(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::WouldBreak,
        format!("Internal error: {why}"),
    )
}

/// What reaches the target from the method.
pub(in crate::refactor) enum Via<'t> {
    /// `self.<name>`, typed as the target.
    Attribute { name: String },
    /// A parameter annotated with the target: its node, its name, and its
    /// index among the positional parameters after `self` (`None` for a
    /// keyword-only one, after `*` or `*args`).
    Parameter {
        node: Node<'t>,
        name: String,
        position: Option<usize>,
    },
}

impl Via<'_> {
    fn words(&self) -> String {
        match self {
            Via::Attribute { name } => format!("self.{name}"),
            Via::Parameter { name, .. } => format!("parameter {name}"),
        }
    }
}

fn info(project: &Project<'_>, class: DefRef) -> Result<DefInfo, RefactorError> {
    project
        .index
        .def_info(class)
        .ok_or_else(|| internal("a class's definition is gone from the index"))
}

/// A class's parsed file, refusing one with syntax errors.
fn parsed(project: &Project<'_>, info: &DefInfo) -> Result<Arc<Parsed>, RefactorError> {
    classes::parsed(project, &info.path, refused)
}

/// The index's value of the reference written at `at` in file `fid`.
fn value_at(project: &Project<'_>, fid: FileId, file: &Parsed, node: Node<'_>) -> Option<Res> {
    let f = project.index.file(fid)?;
    let at = file.at(node);
    let name = file.node_text(node);
    let r = f
        .refs
        .iter()
        .find(|r| r.position() == at && r.len as usize == name.chars().count())?;
    Some(project.index.resolve(fid, r.value, 0))
}

/// What reaches `target` from the method: a `self` attribute read in it
/// that the index types as the target, else a parameter annotated with it.
fn find_via<'t>(
    project: &Project<'_>,
    fid: FileId,
    file: &'t Parsed,
    def: Node<'t>,
    scope: usize,
    receiver: &str,
    target: DefRef,
) -> Option<Via<'t>> {
    let index = project.index;
    let scopes = file.scopes();
    for read in body::reads_of(scopes, scope, receiver, &file.chars(def)) {
        let Some(object) = file.node_covering(read.start) else {
            continue;
        };
        let Some(attribute) = object
            .parent()
            .filter(|p| p.kind() == "attribute" && p.child_by_field_name("object") == Some(object))
        else {
            continue;
        };
        let Some(name) = attribute.child_by_field_name("attribute") else {
            continue;
        };
        let Some(res) = value_at(project, fid, file, name) else {
            continue;
        };
        if index.through_variable(res, 0) == Res::Instance(vec![target]) {
            return Some(Via::Attribute {
                name: file.node_text(name),
            });
        }
    }
    let mut position = Some(0);
    for param in body::parameters(def).into_iter().skip(1) {
        let splat = if param.kind() == "typed_parameter" {
            param.named_child(0).map(|n| n.kind())
        } else {
            Some(param.kind())
        };
        match splat {
            // after `*` or `*args`: keyword-only parameters
            Some("list_splat_pattern" | "keyword_separator") => {
                position = None;
                continue;
            }
            Some("dictionary_splat_pattern") => break,
            _ if param.kind() == "positional_separator" => continue,
            _ => {}
        }
        let annotation = param.child_by_field_name("type");
        let is_target = annotation
            .and_then(|t| {
                let mut n = t.named_child(0).unwrap_or(t);
                if n.kind() == "attribute" {
                    n = n.child_by_field_name("attribute")?;
                }
                (n.kind() == "identifier").then_some(n)
            })
            .and_then(|n| value_at(project, fid, file, n))
            .is_some_and(|r| r == Res::Defs(vec![target]));
        let has_default = param.kind() == "typed_default_parameter";
        if is_target && !has_default {
            if let Some(name) = body::parameter_name(param) {
                return Some(Via::Parameter {
                    node: param,
                    name: file.node_text(name),
                    position,
                });
            }
        }
        position = position.map(|p| p + 1);
    }
    None
}

/// `Class.method` and the target (`Target` or `Target.name` with the new
/// name) as the request gives them.
fn names(
    method: &str,
    target: &str,
    name: &Option<String>,
) -> Result<(String, String, String, String), RefactorError> {
    let method = method.trim().trim_end_matches("()");
    let Some((owner, member)) = method.rsplit_once('.') else {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("Invalid method '{method}': name it with its class, as Class.method"),
        )
        .at(Argument::Symbol));
    };
    let new_name = name.clone().unwrap_or_else(|| member.to_string());
    if !is_identifier(&new_name) {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("Invalid name '{new_name}': not a Python identifier (letters, digits, _; not a keyword)"),
        )
        .at(Argument::NewName));
    }
    Ok((
        owner.to_string(),
        member.to_string(),
        target.trim().to_string(),
        new_name,
    ))
}

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::MoveMethod {
        method,
        target,
        name,
    } = request
    else {
        return Err(super::not_built(request));
    };
    let index = project.index;
    let (owner, member, target, new_name) = names(method, target, name)?;
    let class = classes::find(project, &owner, refused)?;
    let goal = classes::find(project, &target, refused).map_err(|e| e.at(Argument::Target))?;
    let (ci, ti) = (info(project, class)?, info(project, goal)?);
    if class == goal {
        return Err(refused(format!("{} is the method's own class", ti.name)).at(Argument::Target));
    }
    let file = parsed(project, &ci)?;
    let node = move_members::node_of(&file, &ci)?;
    let found = statements::defining(&file, node, &member);
    let methods: Vec<String> = classes::methods(node)
        .iter()
        .filter_map(|(_, d)| d.child_by_field_name("name").map(|n| file.node_text(n)))
        .collect();
    let [statement] = found.as_slice() else {
        if found.is_empty() {
            return Err(RefactorError::new(
                RefactorFailure::NotFound,
                format!(
                    "Not found: {}.{member} is not a method of the class body (its methods: {})",
                    ci.name,
                    if methods.is_empty() {
                        "none".to_string()
                    } else {
                        methods.join(", ")
                    }
                ),
            )
            .at(Argument::Symbol)
            .with_candidates(methods));
        }
        return Err(refused(format!(
            "{}.{member} is defined {} times in the class body",
            ci.name,
            found.len()
        )));
    };
    let statement = *statement;
    if statement.kind() == "decorated_definition" {
        return Err(refused(format!(
            "{}.{member} is decorated ({}): a property, static or class method or wrapped method does not move as a plain method",
            ci.name,
            file.node_text(statement).lines().next().unwrap_or_default().trim()
        )));
    }
    if statement.kind() != "function_definition" {
        return Err(refused(format!(
            "{}.{member} is not a method: Move_Method moves methods (Pull_Up and Push_Down move attributes)",
            ci.name
        )));
    }
    let def = statement;
    if member.starts_with("__") && member.ends_with("__") {
        return Err(refused(format!(
            "{}.{member} is a special method, which Python calls on {} itself",
            ci.name, ci.name
        )));
    }
    let Some(receiver) = classes::receiver(&file, statement, def) else {
        return Err(refused(format!(
            "{}.{member} has no self parameter",
            ci.name
        )));
    };
    needs::check_movable(&file, node, &[statement], std::slice::from_ref(&member))
        .map_err(refused)?;
    check_hierarchy(project, class, &ci, goal, &ti, &member, &new_name)?;
    let scopes = file.scopes();
    let scope = body::scope_of(&file, scopes, def)
        .ok_or_else(|| internal("the method's scope is not in the file's scopes"))?;
    // super() and itself through self
    let range = file.chars(def);
    if let Some(r) = scopes
        .references
        .iter()
        .find(|r| range.start <= r.range.start && r.range.end <= range.end && r.name == "super")
    {
        return Err(refused(format!(
            "{}.{member} calls super() at {}, which would reach another class from {}",
            ci.name,
            file.position(r.range.start),
            ti.name
        )));
    }
    let via = find_via(project, class.file, &file, def, scope, &receiver, goal).ok_or_else(|| {
        refused(format!(
            "{}.{member} reaches no {}: no self attribute read in it is typed {} (annotated, or assigned {}(…) in a method), and no parameter is annotated {} (without a default)",
            ci.name, ti.name, ti.name, ti.name, ti.name
        ))
        .at(Argument::Target)
    })?;
    check_not_rebound(&file, def, scope, &receiver, &via, &member)?;
    let needs_source = body::needs_source(&file, def, scope, &receiver, &via);
    let source = needs_source.then(|| body::source_parameter(&file, scopes, &ci.name, &range));
    let is_async = file.node_text(def).starts_with("async");
    if is_async && contains_yield(def) {
        return Err(refused(format!(
            "{}.{member} is an async generator, which a delegate cannot forward",
            ci.name
        )));
    }
    // the uses
    let method_defs = index.own_members(class, &member);
    let mut left_alone: Vec<LeftAlone> = Vec::new();
    let mut rewritten: BTreeMap<String, Vec<crate::change::Indel>> = BTreeMap::new();
    let mut callers = 0usize;
    let below = Subclasses::new(index).of(class);
    // every use the index knows, whatever became of it: a string search
    // finds those in f-strings again
    let mut seen: Vec<Location> = Vec::new();
    for (fid, f) in index.files_with(&member) {
        let Some(path) = index.path(fid) else {
            continue;
        };
        for r in f.refs_keyed(&member) {
            let site = Location {
                path: path.to_string(),
                position: r.position(),
                end: r.end(),
            };
            seen.push(site.clone());
            let proven = match index.resolve(fid, r.value, 0) {
                Res::Defs(ds) if ds.iter().any(|d| method_defs.contains(d)) => {
                    ds.iter().all(|d| method_defs.contains(d))
                }
                Res::Possible => {
                    left_alone.push(LeftAlone {
                        site,
                        why: "an attribute of a value of unknown type".into(),
                    });
                    continue;
                }
                _ => continue,
            };
            if !proven {
                left_alone.push(LeftAlone {
                    site,
                    why: "it may also denote another definition".into(),
                });
                continue;
            }
            if path == ci.path && {
                let c = file.offset(r.position());
                range.start <= c && c < range.end
            } {
                return Err(refused(format!(
                    "{}.{member} calls itself at {}: move it by hand",
                    ci.name, site
                )));
            }
            let there = project.parsed(path)?;
            let Some(name_node) = there
                .node_covering(there.offset(r.position()))
                .filter(|n| n.kind() == "identifier")
            else {
                left_alone.push(LeftAlone {
                    site,
                    why: "not a call".into(),
                });
                continue;
            };
            let through = if f.is_super_attribute(r.value) {
                // the method's instance, which super() stands for
                match super_receiver(&there, name_node) {
                    Some(receiver) => Through::Super(receiver),
                    None => {
                        left_alone.push(LeftAlone {
                            site,
                            why: "called through super() outside a plain method".into(),
                        });
                        continue;
                    }
                }
            } else {
                let Value::Attr { base, .. } = f.value(r.value) else {
                    left_alone.push(LeftAlone {
                        site,
                        why: "read through a name that holds it".into(),
                    });
                    continue;
                };
                let of_class = |cs: &[DefRef]| {
                    !cs.is_empty() && cs.iter().all(|c| *c == class || below.contains(c))
                };
                match index.resolve(fid, base, 0) {
                    _ if f.self_class(base).is_some() => Through::Instance,
                    Res::Instance(cs) if of_class(&cs) => Through::Instance,
                    Res::Defs(cs) if of_class(&cs) => Through::Class,
                    _ => {
                        left_alone.push(LeftAlone {
                            site,
                            why: format!("its receiver is not proven an instance of {}", ci.name),
                        });
                        continue;
                    }
                }
            };
            match calls::rewrite(
                &there,
                name_node,
                &via,
                &new_name,
                source.is_some(),
                &through,
            ) {
                Rewrite::Edits(edits) => {
                    callers += 1;
                    rewritten.entry(path.to_string()).or_default().extend(edits);
                }
                Rewrite::Kept(why) => left_alone.push(LeftAlone { site, why }),
            }
        }
    }
    // a string naming it may reach it by getattr
    let paths: Vec<&str> = index
        .paths()
        .into_iter()
        .filter(|p| p.ends_with(".py"))
        .collect();
    for s in super::rename::strings::in_project(project.sources, &paths, &member) {
        if seen
            .iter()
            .any(|l| l.path == s.site.path && l.position == s.site.position)
        {
            continue;
        }
        left_alone.push(LeftAlone {
            site: s.site,
            why: format!("a string naming it ({})", s.why),
        });
    }
    // the class body reading it where the class is defined (`visit_If =
    // _simple_visit`) keeps the name bound
    if let Some(scope) = needs::class_scope(&file, node) {
        for r in scopes.references.iter().filter(|r| {
            r.resolution == crate::analysis::scope::Resolution::Scope(scope) && r.name == member
        }) {
            left_alone.push(LeftAlone {
                site: Location {
                    path: ci.path.clone(),
                    position: file.position(r.range.start),
                    end: file.position(r.range.end),
                },
                why: "the class body reads it where the class is defined".into(),
            });
        }
    }
    // a method of the class or a base looking itself up by a computed
    // name (`getattr(self, f"visit_{…}")`) may reach it
    for (site, why) in computed_lookups(project, class) {
        left_alone.push(LeftAlone { site, why });
    }
    left_alone.sort_by(|a, b| a.site.cmp(&b.site));
    left_alone.dedup_by(|a, b| a.site == b.site);
    let delegate = !left_alone.is_empty();
    // the edits
    let target_file = parsed(project, &ti)?;
    let target_node = move_members::node_of(&target_file, &ti)?;
    let target_statement = classes::statement(target_node);
    let mut files: BTreeMap<String, FileEdits> = BTreeMap::new();
    let from = move_members::add(&mut files, &file);
    let to = move_members::add(&mut files, &target_file);
    if let Some(edits) = files.get_mut(&to) {
        let skipped = match &via {
            Via::Parameter { node, .. } => Some(file.chars(*node)),
            Via::Attribute { .. } => None,
        };
        needs::follow_but(
            project,
            &file,
            class.file,
            &[statement],
            node,
            (&target_file, goal.file, target_statement),
            skipped,
            &mut edits.imports,
        )
        .map_err(refused)?;
        let inner = body::rewrite(&file, def, scope, &receiver, &via, source.as_deref())?;
        let mut inner = inner;
        if new_name != member {
            if let Some(n) = def.child_by_field_name("name") {
                inner.push(crate::change::Indel::new(file.chars(n), new_name.clone()));
            }
        }
        let indent = statements::body(target_node)
            .first()
            .map(|s| statements::indent(&target_file, *s))
            .unwrap_or_else(|| "    ".into());
        let text =
            statements::moved_text_edited(&file, &[statement], &inner, &indent).map_err(refused)?;
        edits
            .indels
            .push(statements::insertion(&target_file, target_node, &text).map_err(refused)?);
        let start = target_statement.start_byte();
        edits.before = Some(edits.before.map_or(start, |b| b.min(start)));
    }
    if let Some(edits) = files.get_mut(&from) {
        if delegate {
            edits.indels.extend(
                body::delegate(&file, def, &via, &new_name, source.is_some()).map_err(refused)?,
            );
        } else {
            edits
                .indels
                .extend(statements::removal(&file, node, &[statement]).map_err(refused)?);
            if class.file != goal.file {
                edits.indels.extend(move_members::unused_after(
                    project,
                    &file,
                    class.file,
                    &[statement],
                ));
            }
        }
    }
    for (path, indels) in rewritten {
        let there = project.parsed(&path)?;
        let key = move_members::add(&mut files, &there);
        if let Some(edits) = files.get_mut(&key) {
            edits.indels.extend(indels);
        }
    }
    let change = move_members::change_of(files)?;
    let mut done = move_members::refactored(
        change,
        Summary::MethodMoved {
            method: format!("{}.{member}", ci.full_name),
            target: ti.full_name.clone(),
            name: new_name,
            via: via.words(),
            parameters: source.into_iter().collect(),
            callers,
            delegate,
        },
    );
    done.left_alone = left_alone;
    Ok(done)
}

/// Refuses a method that overrides a base's or is overridden below, and a
/// target whose lineage (or a subclass) has the name already.
fn check_hierarchy(
    project: &Project<'_>,
    class: DefRef,
    ci: &DefInfo,
    goal: DefRef,
    ti: &DefInfo,
    member: &str,
    new_name: &str,
) -> Result<(), RefactorError> {
    let index = project.index;
    let place = |d: DefRef| {
        index
            .def_info(d)
            .map(|i| format!("{} ({}:{})", i.full_name, i.path, i.name_location.position))
            .unwrap_or_default()
    };
    let above: Vec<String> = index
        .project_ancestors(&[class])
        .into_iter()
        .flat_map(|a| index.own_members(a, member))
        .map(place)
        .collect();
    if !above.is_empty() {
        return Err(refused(format!(
            "{}.{member} overrides {}: calls through the base would no longer reach it",
            ci.name,
            above.join(", ")
        )));
    }
    if let Some((_, base)) = index.overrides_outside(&[class], member) {
        return Err(refused(format!(
            "{}.{member} overrides {base}.{member}: calls through the base would no longer reach it",
            ci.name
        )));
    }
    let subclasses = Subclasses::new(index);
    let below: Vec<String> = subclasses
        .of(class)
        .into_iter()
        .flat_map(|s| index.own_members(s, member))
        .map(place)
        .collect();
    if !below.is_empty() {
        return Err(refused(format!(
            "{}.{member} is overridden by {}: the overrides would stop overriding",
            ci.name,
            below.join(", ")
        )));
    }
    let taken: Vec<String> = index
        .members_named(goal, new_name)
        .into_iter()
        .chain(
            subclasses
                .of(goal)
                .into_iter()
                .flat_map(|s| index.own_members(s, new_name)),
        )
        .map(place)
        .collect();
    if !taken.is_empty() {
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: {} has {new_name} already: {}",
                ti.name,
                taken.join(", ")
            ),
        )
        .at(Argument::NewName));
    }
    if index.kind(goal) != Some(SymbolKind::Class) {
        return Err(refused(format!("{} is not a class", ti.name)).at(Argument::Target));
    }
    Ok(())
}

/// Refuses a method that assigns what reaches the target (`self.validator
/// = …`, the parameter bound again) or its receiver.
fn check_not_rebound(
    file: &Parsed,
    def: Node<'_>,
    scope: usize,
    receiver: &str,
    via: &Via<'_>,
    member: &str,
) -> Result<(), RefactorError> {
    let scopes = file.scopes();
    let range = file.chars(def);
    for name in [receiver.to_string()].into_iter().chain(match via {
        Via::Parameter { name, .. } => Some(name.clone()),
        Via::Attribute { .. } => None,
    }) {
        if let Some(b) = scopes.bindings.iter().find(|b| {
            b.scope == scope
                && b.name == name
                && b.kind != BindingKind::Parameter
                && range.start <= b.range.start
                && b.range.end <= range.end
        }) {
            return Err(refused(format!(
                "{member} binds {name} again at {}",
                file.position(b.range.start)
            )));
        }
    }
    if let Via::Attribute { name } = via {
        for read in body::reads_of(scopes, scope, receiver, &range) {
            let Some(attribute) = body::via_attribute(file, read.start, via) else {
                continue;
            };
            let assigned = attribute.parent().is_some_and(|p| {
                matches!(
                    p.kind(),
                    "assignment"
                        | "augmented_assignment"
                        | "delete_statement"
                        | "pattern_list"
                        | "tuple_pattern"
                        | "list_pattern"
                ) && (p.kind() == "delete_statement"
                    || p.child_by_field_name("right") != Some(attribute))
            });
            if assigned {
                return Err(refused(format!(
                    "{member} assigns self.{name} at {}: the moved method would assign the target's own self",
                    file.position(read.start)
                )));
            }
        }
    }
    Ok(())
}

/// The `getattr(self, <not a literal>)` (and `hasattr`) calls in the
/// class's and its project bases' bodies: name-based dispatch that may
/// reach any method of the class.
pub(in crate::refactor) fn computed_lookups(
    project: &Project<'_>,
    class: DefRef,
) -> Vec<(Location, String)> {
    let index = project.index;
    let mut out = Vec::new();
    for c in std::iter::once(class).chain(index.project_ancestors(&[class])) {
        let Some(i) = index.def_info(c) else {
            continue;
        };
        let Ok(file) = project.parsed(&i.path) else {
            continue;
        };
        let Some(node) = classes::class_node(&file, &i) else {
            continue;
        };
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
            if n.kind() != "call" {
                continue;
            }
            let callee = n.child_by_field_name("function").map(|f| file.node_text(f));
            if !matches!(callee.as_deref(), Some("getattr" | "hasattr")) {
                continue;
            }
            let Some(args) = n.child_by_field_name("arguments") else {
                continue;
            };
            let mut cursor = args.walk();
            let args: Vec<Node<'_>> = args.named_children(&mut cursor).collect();
            let computed = args.len() >= 2
                && file.node_text(args[0]) == "self"
                && (args[1].kind() != "string"
                    || args[1]
                        .named_children(&mut args[1].walk())
                        .any(|c| c.kind() == "interpolation"));
            if computed {
                let start = file.char_of(n.start_byte());
                out.push((
                    Location {
                        path: i.path.clone(),
                        position: file.position(start),
                        end: file.position(file.char_of(n.end_byte())),
                    },
                    format!(
                        "{} looks methods up by a computed name ({})",
                        i.name,
                        file.node_text(n).lines().next().unwrap_or_default()
                    ),
                ));
            }
        }
    }
    out
}

/// Whether a function's own body yields (nested functions aside).
/// The receiver (`self`) of the method a `super().name` call at `name` is
/// in: an undecorated method of a class body, `super()` without
/// arguments. `None` otherwise.
fn super_receiver(file: &Parsed, name: Node<'_>) -> Option<String> {
    let attribute = name.parent()?;
    let call = attribute.child_by_field_name("object")?;
    let bare = call
        .child_by_field_name("arguments")
        .is_some_and(|a| a.named_child_count() == 0);
    if !bare {
        return None;
    }
    let mut def = attribute;
    while def.kind() != "function_definition" {
        def = def.parent()?;
    }
    let in_class = def
        .parent()
        .and_then(|b| b.parent())
        .is_some_and(|c| c.kind() == "class_definition");
    in_class.then_some(())?;
    classes::receiver(file, def, def)
}

fn contains_yield(def: Node<'_>) -> bool {
    let mut stack = vec![def];
    while let Some(n) = stack.pop() {
        if n.kind() == "yield" {
            return true;
        }
        if n != def
            && matches!(
                n.kind(),
                "function_definition" | "lambda" | "class_definition"
            )
        {
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

#[cfg(test)]
#[path = "tests/move_method.rs"]
mod tests;
