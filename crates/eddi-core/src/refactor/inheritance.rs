//! Change a class's base: `Refactor Change_Inheritance <Class> <OldParent>
//! <NewParent>`.
//!
//! `OldParent` is one of the class's bases (as the class statement writes
//! it, or the class it names); `NewParent` is a class of the project or a
//! builtin class, and takes the old base's place among the bases (the
//! order of the others and keywords such as `metaclass=` stay).
//!
//! What follows the base: the class's module names the new parent as it
//! already does (an import, an alias, `import pkg.base as b` gives
//! `b.Base`) or gains one import in its style (joining an existing `from
//! m import …`, relative when the module imports relatively); the old
//! base's import goes when nothing else reads it and nothing re-exports
//! it. In the class's methods, explicit calls through the old base on
//! the receiver (`OldParent.__init__(self, …)`, `super(OldParent,
//! self)`) name the new parent.
//!
//! Refused, changing nothing (the safety contract: `Ok` means the project
//! still imports and every name the class's methods read is still found):
//! `OldParent` not a base of the class (`object` is the base of a class
//! that writes none), `NewParent` not found or a base already, a
//! hierarchy Python would not create (the class or a subclass would get
//! no consistent method resolution order, no metaclass deriving from its
//! bases', conflicting builtin layouts — a `TypeError` at import — or
//! would derive from itself; `creation.rs`), an import that would close an
//! import cycle, a new parent defined below the class in its module, an
//! explicit call of a method the new parent lacks, and a name the class's
//! methods (or a subclass's) read through `self`, `cls` or `super()` that
//! the old hierarchy defines and the new one does not (`AttributeError`).
//! The reply lists each such name whose lookup now reaches another class
//! (`self.save in Child: NewBase.save, was OldBase.save`), and the
//! project's `isinstance`/`issubclass`/`except` tests of the old base,
//! which the class's instances no longer pass (`type_tests.rs`).

mod creation;
mod type_tests;

use std::collections::HashMap;

use tree_sitter::Node;

use super::class_uses;
use super::classes;
use super::imports::{self, Spelling};
use super::mro::{self, Found, Klass, Lineages, MroError};
use super::{
    Argument, Parsed, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Rerouted,
    Resolved, Summary,
};
use crate::analysis::index::builtin_classes;
use crate::analysis::index::rename::Subclasses;
use crate::analysis::index::resolve::DefRef;
use crate::analysis::index::IndexError;
use crate::analysis::outline::SymbolKind;
use crate::change::{Indel, TextEdits, WorkspaceChange};

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::ChangeInheritance {
        class,
        old_parent,
        new_parent,
    } = request
    else {
        return Err(super::not_built(request));
    };
    let (old_parent, new_parent) = (old_parent.trim(), new_parent.trim());
    let index = project.index;
    let class_def = classes::find(project, class.trim(), refused)?;
    let info = index
        .def_info(class_def)
        .ok_or_else(|| internal("the class's definition is gone from the index"))?;
    let file = project.parsed(&info.path)?;
    if file.tree.has_errors() {
        return Err(refused(format!(
            "{} has syntax errors: fix them first",
            info.path
        )));
    }
    let module = index
        .file(class_def.file)
        .ok_or_else(|| internal("the class's module is gone from the index"))?;
    let node = classes::class_node(&file, &info)
        .ok_or_else(|| internal("the class is not where the index saw it"))?;
    let statement = classes::statement(node);
    let written = base_nodes(&file, node, &info.name)?;
    let bases = mro::bases_in_index(index, class_def);
    if bases.len() != written.len() {
        return Err(internal("the class's bases are not as the index saw them"));
    }
    let mut before = Lineages::new(index, HashMap::new());
    // `class C:` and `class C():` derive from `object` without saying so
    let implicit = written.is_empty() && squeeze(old_parent) == "object";
    let at = if implicit {
        0
    } else {
        written
            .iter()
            .zip(&bases)
            .position(|(n, k)| names_base(project, &file, *n, k, old_parent))
            .ok_or_else(|| {
                let list: Vec<String> = written.iter().map(|n| file.node_text(*n)).collect();
                refused(format!(
                    "{old_parent} is not a base of {} (its bases: {})",
                    info.name,
                    if list.is_empty() {
                        "none".to_string()
                    } else {
                        list.join(", ")
                    }
                ))
                .at(Argument::OldParent)
            })?
    };
    // where the old base is written, and the edit that writes another there
    let (old_text, base_edit, parens) = if implicit {
        let (range, parens) = implicit_base(&file, node)?;
        ("object".to_string(), range, parens)
    } else {
        let old_node = written[at];
        (
            squeeze(&file.node_text(old_node)),
            file.chars(old_node),
            false,
        )
    };
    let new = find_new_parent(project, &info.path, new_parent)?;
    let subclasses = Subclasses::new(index).of(class_def);
    match &new {
        Klass::Project(d) if *d == class_def => {
            return Err(
                refused(format!("{} cannot derive from itself", info.name)).at(Argument::NewParent)
            )
        }
        Klass::Project(d) if subclasses.contains(d) => {
            return Err(refused(format!(
                "{new_parent} derives from {}: {} would derive from itself",
                info.name, info.name
            ))
            .at(Argument::NewParent))
        }
        _ => {}
    }
    if let Some(i) = bases.iter().position(|b| *b == new) {
        return Err(refused(format!(
            "{new_parent} is a base of {} already ({})",
            info.name,
            file.node_text(written[i])
        ))
        .at(Argument::NewParent));
    }
    let spelling = spell(
        project, &file, module, class_def, &new, statement, new_parent,
    )?;
    if let Some(target) = spelling
        .imports
        .as_ref()
        .filter(|t| !imports::imports_at_module_level(module, t))
    {
        if let Some(chain) = imports::import_chain(index, target, &module.module) {
            return Err(refused(format!(
                "{target} imports {} ({}), so importing {new_parent} from it there would make an import cycle",
                module.module,
                chain.join(" → ")
            ))
            .at(Argument::NewParent));
        }
    }
    // the new hierarchy: Python creates every class of it
    let mut new_bases = bases.clone();
    if implicit {
        new_bases.push(new.clone());
    } else {
        new_bases[at] = new.clone();
    }
    let mut after = Lineages::new(index, HashMap::from([(class_def, new_bases)]));
    let family: Vec<DefRef> = std::iter::once(class_def).chain(subclasses).collect();
    for &k in &family {
        if let Err(e) = after.of(k) {
            return Err(refused(mro_words(project, &after, e)));
        }
    }
    for &k in &family {
        // a hierarchy Python refuses already is not this change's doing
        if creation::refusal(project, &mut before, k).is_some() {
            continue;
        }
        if let Some(why) = creation::refusal(project, &mut after, k) {
            let place = index
                .def_info(k)
                .map(|i| format!("{}:{}", i.path, i.name_location.position))
                .unwrap_or_default();
            return Err(refused(format!(
                "Python would refuse to create {} ({place}): TypeError: {why}",
                after.name(&Klass::Project(k))
            )));
        }
    }
    // explicit calls through the old base
    let calls = explicit_calls(&file, node, &old_text);
    let new_lineage = match &new {
        Klass::Project(d) => after
            .of(*d)
            .map_err(|e| refused(mro_words(project, &after, e)))?,
        Klass::Outside(_) => vec![new.clone(), Klass::Outside("object".into())],
    };
    for call in &calls {
        if let Some(method) = &call.method {
            if after.find(&new_lineage, 0, method) == Found::Missing {
                return Err(refused(format!(
                    "{}.{} calls {old_text}.{method}({}, …) at {}, and {new_parent} has no {method}",
                    info.name, call.in_method, call.receiver, call.at
                )));
            }
        }
    }
    let rerouted = rerouted(
        project,
        &mut before,
        &mut after,
        &family,
        &info.name,
        old_parent,
    )?;
    // the tests for the old base that the class's instances stop passing
    let type_tests = match &bases[..].get(at) {
        Some(Klass::Project(old))
            if !after
                .of(class_def)
                .is_ok_and(|l| l.contains(&Klass::Project(*old))) =>
        {
            type_tests::of(project, *old)
        }
        _ => Vec::new(),
    };
    // the edits
    let written_base = if parens {
        format!("({})", spelling.text)
    } else {
        spelling.text.clone()
    };
    let mut indels = vec![Indel::new(base_edit.clone(), written_base)];
    let mut replaced = vec![base_edit];
    for call in &calls {
        indels.push(Indel::new(call.object.clone(), spelling.text.clone()));
        replaced.push(call.object.clone());
    }
    let mut import = spelling.import.clone();
    if let Some(root) = root_name(&old_text) {
        if let Some(dropped) = imports::drop_unused(index, &file, module, root, &replaced) {
            match &import {
                // the new name joins the very statement the old one leaves:
                // it takes the old one's place
                Some(add)
                    if dropped.statement.contains(&add.range.start)
                        || dropped.statement.end == add.range.start =>
                {
                    let top = spelling.text.split('.').next().unwrap_or_default();
                    indels.push(Indel::new(dropped.entry.clone(), top));
                    import = None;
                }
                _ => {
                    let mut edit = dropped.edit;
                    // a new import line right after the dropped one: the
                    // blank line the drop would take stays below it
                    if let Some(add) = &import {
                        if edit.range.start < add.range.start && add.range.start < edit.range.end {
                            edit.range.end = add.range.start;
                        }
                    }
                    indels.push(edit)
                }
            }
        }
    }
    indels.extend(import);
    let edits = TextEdits::new(indels)
        .map_err(|(a, b)| internal(format!("overlapping edits {a:?} and {b:?}")))?;
    Ok(Refactored {
        change: WorkspaceChange::edit(file.source.path.clone(), file.source.base.clone(), edits),
        summary: Summary::InheritanceChanged {
            class: info.full_name.clone(),
            old_parent: old_text,
            new_parent: spelling.text,
            calls: calls.len(),
            rerouted,
            type_tests,
        },
        evidence: Default::default(),
        left_alone: Vec::new(),
        mentions: Vec::new(),
        names_swapped: Default::default(),
        data_strings: Vec::new(),
        also_renamed: Vec::new(),
        assumed: Vec::new(),
    })
}

/// `Cannot change inheritance - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot change inheritance - {why}"),
    )
}

fn internal(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::WouldBreak,
        format!("Internal error: {why}"),
    )
}

/// A dotted expression without its spaces.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The first name of a dotted expression (`base` of `base.Old`).
fn root_name(text: &str) -> Option<&str> {
    let root = text.split('.').next()?;
    crate::analysis::identifier::is_identifier(root).then_some(root)
}

/// Where the base of a class that writes none goes: inside its empty
/// `()`, else right after its name and type parameters, in new
/// parentheses (true).
fn implicit_base(
    file: &Parsed,
    class: Node<'_>,
) -> Result<(std::ops::Range<usize>, bool), RefactorError> {
    if let Some(args) = class.child_by_field_name("superclasses") {
        let inside = file.char_of(args.start_byte()) + 1;
        return Ok((inside..inside, false));
    }
    let after = class
        .child_by_field_name("type_parameters")
        .or_else(|| class.child_by_field_name("name"))
        .ok_or_else(|| internal("a class without a name"))?;
    let at = file.char_of(after.end_byte());
    Ok((at..at, true))
}

/// The class's positional bases as written; refuses bases it cannot
/// follow (`*bases`).
fn base_nodes<'t>(
    file: &'t Parsed,
    class: Node<'t>,
    name: &str,
) -> Result<Vec<Node<'t>>, RefactorError> {
    let Some(args) = class.child_by_field_name("superclasses") else {
        return Ok(Vec::new());
    };
    let mut cursor = args.walk();
    let mut out = Vec::new();
    for child in args.named_children(&mut cursor) {
        match child.kind() {
            "comment" | "keyword_argument" => {}
            "list_splat" | "dictionary_splat" => {
                return Err(refused(format!(
                    "the bases of {name} are computed (`{}`)",
                    file.node_text(child)
                )))
            }
            _ => out.push(child),
        }
    }
    Ok(out)
}

/// Whether the base written `node` (the class `k`) is what `query` names:
/// as written, or by the class's name (plain, dotted or qualified).
fn names_base(
    project: &Project<'_>,
    file: &Parsed,
    node: Node<'_>,
    k: &Klass,
    query: &str,
) -> bool {
    let query = squeeze(query);
    if squeeze(&file.node_text(node)) == query {
        return true;
    }
    let full = match k {
        Klass::Project(d) => match project.index.def_info(*d) {
            Some(info) => info.full_name,
            None => return false,
        },
        Klass::Outside(dotted) => dotted.clone(),
    };
    full == query || full.ends_with(&format!(".{query}"))
}

/// The class `query` names: one of the project (the class's file first),
/// else a builtin class (`dict`, `Exception`).
fn find_new_parent(project: &Project<'_>, path: &str, query: &str) -> Result<Klass, RefactorError> {
    let index = project.index;
    match index.rename_symbol(query, Some(path)) {
        Ok(defs) => {
            let classes: Vec<DefRef> = defs
                .iter()
                .copied()
                .filter(|&d| index.kind(d) == Some(SymbolKind::Class))
                .collect();
            match classes.as_slice() {
                [one] => Ok(Klass::Project(*one)),
                [] => {
                    let what = defs
                        .first()
                        .and_then(|&d| index.kind(d))
                        .map_or("something else", SymbolKind::noun);
                    Err(RefactorError::new(
                        RefactorFailure::NotFound,
                        format!("Class not found: {query} is a {what}, not a class"),
                    )
                    .at(Argument::NewParent))
                }
                many => {
                    let places: Vec<String> = many
                        .iter()
                        .filter_map(|&d| index.def_info(d))
                        .map(|i| format!("{}:{}", i.path, i.name_location.position))
                        .collect();
                    Err(refused(format!(
                        "{query} is defined {} times ({}): which one the module ends up with depends on how it runs",
                        many.len(),
                        places.join(", ")
                    ))
                    .at(Argument::NewParent))
                }
            }
        }
        Err(IndexError::NotFound { .. })
            if !query.contains('.') && builtin_classes::members(query).is_some() =>
        {
            Ok(Klass::Outside(query.to_string()))
        }
        Err(e) => Err(RefactorError::from(e).at(Argument::NewParent)),
    }
}

/// How the class's module writes the new parent, and the import it needs.
fn spell(
    project: &Project<'_>,
    file: &Parsed,
    module: &crate::analysis::index::file::FileIndex,
    class: DefRef,
    new: &Klass,
    statement: Node<'_>,
    query: &str,
) -> Result<Spelling, RefactorError> {
    match new {
        Klass::Project(d) => imports::spell(project.index, file, class.file, *d, statement)
            .map_err(|why| refused(why).at(Argument::NewParent)),
        Klass::Outside(name) => {
            if !imports::free(file, module, name) && module.exports.contains_key(name.as_str()) {
                return Err(refused(format!(
                    "{} binds {name} otherwise, which would then be the base, not the builtin {query}",
                    file.path()
                ))
                .at(Argument::NewParent));
            }
            Ok(Spelling {
                text: name.clone(),
                import: None,
                imports: None,
            })
        }
    }
}

/// Why Python would not create a class of the new hierarchy.
fn mro_words(project: &Project<'_>, lineages: &Lineages<'_>, error: MroError) -> String {
    let name = |d: DefRef| lineages.name(&Klass::Project(d));
    let place = |d: DefRef| {
        project
            .index
            .def_info(d)
            .map(|i| format!("{}:{}", i.path, i.name_location.position))
            .unwrap_or_default()
    };
    match error {
        MroError::Inconsistent { class, bases } => format!(
            "Python would refuse to create {} ({}): TypeError: Cannot create a consistent method resolution order (MRO) for bases {}",
            name(class),
            place(class),
            bases.join(", ")
        ),
        MroError::Cycle(class) => format!(
            "{} ({}) would derive from itself",
            name(class),
            place(class)
        ),
    }
}

/// An explicit use of the old base on the receiver in the class's
/// methods: `Old.m(self, …)` or `super(Old, self)`.
struct ExplicitCall {
    /// The chars of `Old` in it.
    object: std::ops::Range<usize>,
    /// `m`; `None` for `super(Old, self)`.
    method: Option<String>,
    in_method: String,
    receiver: String,
    at: String,
}

fn explicit_calls(file: &Parsed, class: Node<'_>, old: &str) -> Vec<ExplicitCall> {
    let mut out = Vec::new();
    for (statement, def) in classes::methods(class) {
        let Some(receiver) = classes::receiver(file, statement, def) else {
            continue;
        };
        let in_method = def
            .child_by_field_name("name")
            .map(|n| file.node_text(n))
            .unwrap_or_default();
        let Some(body) = def.child_by_field_name("body") else {
            continue;
        };
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind() == "class_definition" {
                continue;
            }
            if n.kind() == "call" {
                if let Some(found) = explicit_call(file, n, old, &receiver) {
                    out.push(ExplicitCall {
                        in_method: in_method.clone(),
                        receiver: receiver.clone(),
                        at: file.place(n),
                        ..found
                    });
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    out.sort_by_key(|c| c.object.start);
    out
}

fn explicit_call(file: &Parsed, call: Node<'_>, old: &str, receiver: &str) -> Option<ExplicitCall> {
    let function = call.child_by_field_name("function")?;
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let args: Vec<Node<'_>> = arguments
        .named_children(&mut cursor)
        .filter(|a| a.kind() != "comment")
        .collect();
    let is_receiver = |n: &Node<'_>| n.kind() == "identifier" && file.node_text(*n) == receiver;
    let empty = || ExplicitCall {
        object: 0..0,
        method: None,
        in_method: String::new(),
        receiver: String::new(),
        at: String::new(),
    };
    match function.kind() {
        "attribute" => {
            let object = function.child_by_field_name("object")?;
            let method = function.child_by_field_name("attribute")?;
            (squeeze(&file.node_text(object)) == old && args.first().is_some_and(is_receiver)).then(
                || ExplicitCall {
                    object: file.chars(object),
                    method: Some(file.node_text(method)),
                    ..empty()
                },
            )
        }
        "identifier" if file.node_text(function) == "super" => {
            let [first, second] = args.as_slice() else {
                return None;
            };
            (squeeze(&file.node_text(*first)) == old && is_receiver(second)).then(|| ExplicitCall {
                object: file.chars(*first),
                method: None,
                ..empty()
            })
        }
        _ => None,
    }
}

/// The names the family's methods read through `self`, `cls` or `super()`
/// whose lookup reaches another class after the change; refuses when one
/// the old hierarchy defines is found nowhere after it.
fn rerouted(
    project: &Project<'_>,
    before: &mut Lineages<'_>,
    after: &mut Lineages<'_>,
    family: &[DefRef],
    class_name: &str,
    old_parent: &str,
) -> Result<Vec<Rerouted>, RefactorError> {
    let index = project.index;
    let mut out: Vec<Rerouted> = Vec::new();
    let mut lost: Vec<String> = Vec::new();
    for &k in family {
        let Some(info) = index.def_info(k) else {
            continue;
        };
        let (Ok(old), Ok(new)) = (before.of(k), after.of(k)) else {
            continue;
        };
        let file = project.scanned(&info.path)?;
        let Some(node) = classes::class_node(&file, &info) else {
            continue;
        };
        let mut seen: Vec<(String, bool)> = Vec::new();
        for u in class_uses::of_class(&file, node) {
            if seen.contains(&(u.name.clone(), u.via_super)) {
                continue;
            }
            seen.push((u.name.clone(), u.via_super));
            let from = usize::from(u.via_super);
            let (was, now) = (
                before.find(&old, from, &u.name),
                after.find(&new, from, &u.name),
            );
            if was == now {
                continue;
            }
            let read = if u.via_super { "super()" } else { "self" };
            if now == Found::Missing {
                if was != Found::Missing {
                    lost.push(format!(
                        "{}.{} reads {read}.{} at {}, which {} gives and nothing in the new hierarchy does",
                        info.name,
                        u.method,
                        u.name,
                        u.at,
                        match &was {
                            Found::Project(c) => before.name(&Klass::Project(*c)),
                            Found::Outside(name) | Found::Unknown(name) => name.clone(),
                            Found::Missing => String::new(),
                        }
                    ));
                }
                continue;
            }
            out.push(Rerouted {
                class: info.name.clone(),
                name: u.name.clone(),
                via_super: u.via_super,
                before: resolved(before, &was),
                after: resolved(after, &now),
            });
        }
    }
    if !lost.is_empty() {
        return Err(refused(format!(
            "without {old_parent}, {class_name} would raise AttributeError: {}",
            lost.join("; ")
        )));
    }
    Ok(out)
}

fn resolved(lineages: &Lineages<'_>, found: &Found) -> Resolved {
    match found {
        Found::Project(c) => Resolved::In(lineages.name(&Klass::Project(*c))),
        Found::Outside(name) => Resolved::In(name.clone()),
        Found::Unknown(name) => Resolved::Unknown(name.clone()),
        Found::Missing => Resolved::Nowhere,
    }
}

#[cfg(test)]
#[path = "tests/inheritance.rs"]
mod tests;
