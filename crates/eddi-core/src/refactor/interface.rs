//! Extract an interface from a class: `Refactor Extract_Interface <Class>
//! <Interface> [Protocol]`.
//!
//! The interface declares the class's public methods and sits in the
//! class's module, right above the class (above its decorators and the
//! comment lines attached to it): every name the class's signatures read
//! at import is bound there already. Without `Protocol` it is an abstract
//! base class (`class Payable(ABC)`, each method an `@abstractmethod`
//! stub) and the class inherits it, added last to its bases (before an
//! explicit `object`, which it replaces when it is the only base) so that
//! every method the class reaches through `super()` is still found first.
//! With `Protocol` it is a `typing.Protocol` and the class's bases stay as
//! they are: the class matches it structurally, as protocols are meant to
//! be used, and no metaclass is added to its hierarchy.
//!
//! What the interface declares (`members`): every method defined with
//! `def` in the class body whose name does not start with `_`, and the
//! dunders through which code uses an object (`__call__`, `__len__`,
//! `__iter__`, `__getitem__`, `__enter__`/`__exit__`, … see
//! `members::USAGE_DUNDERS`), not the machinery every class has
//! (construction, representation, comparison, hashing, attribute access,
//! pickling) nor operators. Each stub is the method's own header as
//! written — `async`, parameters, annotations, defaults, return
//! annotation — under `@staticmethod`, `@classmethod`, `@property` and
//! property accessors as the class has them (`@cached_property` becomes
//! `@property`), `@overload` variants kept as such. Its body is the
//! method's docstring when it has one (the interface is where readers
//! look for it), else `...` on the `def` line. When the class has
//! `__slots__` (or a class decorator, which may make them, as
//! `@dataclass(slots=True)` does), the abstract base has `__slots__ = ()`:
//! the class gains no `__dict__`.
//!
//! The module's imports gain what the interface needs, in the module's
//! style: a name already imported is used under its local name,
//! `import abc` gives `abc.ABC`, an existing `from abc import …` takes
//! the new names, else one `from abc import ABC, abstractmethod` (or `from
//! typing import Protocol`) after the module's imports.
//!
//! Refused, changing nothing (the safety contract: `Ok` means the module
//! still imports and behaves): a name the module binds or reads already
//! (`Interface already exists`), or that a module star-importing this one
//! binds or reads; a class that is not a module-level class, that has type
//! parameters (`class Box[T]`), or that has no public methods; a method whose signature cannot be reproduced above the class
//! (a decorator that may change it, a default that is a call, an
//! annotation or default naming the class body's own bindings); and,
//! without `Protocol`, a metaclass in the class's hierarchy (its bases,
//! its project ancestors and subclasses) that is not provably compatible
//! with `ABCMeta` — a custom `metaclass=`, `Enum`, `NamedTuple`, or a base
//! from outside the project whose metaclass is unknown, such as Django's
//! `models.Model` — and a `super()` call of a declared method that no base
//! defines (it would reach the abstract stub). `Protocol` proceeds where a
//! metaclass is the reason.

mod hierarchy;
mod imports;
mod members;

use tree_sitter::Node;

pub(super) use super::classes::{canonical, class_node};
use super::{
    classes, Argument, Parsed, Project, RefactorError, RefactorFailure, Refactored, Refactoring,
    Summary,
};
use crate::analysis::index::file::FileIndex;
use crate::analysis::index::rename::DefInfo;
use crate::analysis::scope::{is_builtin, Resolution};
use crate::change::{Indel, TextEdits, WorkspaceChange};
use members::Declared;

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::ExtractInterface {
        class,
        interface,
        protocol,
    } = request
    else {
        return Err(super::not_built(request));
    };
    let interface = classes::new_name(interface)?;
    let class_def = classes::find(project, class.trim(), refused)?;
    let info = project
        .index
        .def_info(class_def)
        .ok_or_else(|| internal("the class's definition is gone from the index"))?;
    if let Some(parent) = info.parent.and_then(|p| project.index.def_info(p)) {
        return Err(refused(format!(
            "{} is defined inside {} {}: only a class defined at module level gets an interface",
            info.name,
            parent.kind.noun(),
            parent.name
        )));
    }
    let file = project.parsed(&info.path)?;
    if file.tree.has_errors() {
        return Err(refused(format!(
            "{} has syntax errors: fix them first",
            info.path
        )));
    }
    if file.scopes().truncated {
        return Err(refused(format!(
            "{} nests deeper than Eddi analyses",
            info.path
        )));
    }
    let module = project
        .index
        .file(class_def.file)
        .ok_or_else(|| internal("the class's module is gone from the index"))?;
    let class_node = class_node(&file, &info)
        .ok_or_else(|| internal("the class is not where the index saw it"))?;
    let statement = match class_node.parent() {
        Some(p) if p.kind() == "decorated_definition" => p,
        _ => class_node,
    };
    if let Some(params) = class_node.child_by_field_name("type_parameters") {
        // `class Box[T]`: its methods' `T` is not a name above the class
        return Err(refused(format!(
            "{} has type parameters ({}), which the interface above it would not see",
            info.name,
            file.node_text(params)
        )));
    }
    check_name(project, &file, module, &info, interface)?;
    let mut declared = members::collect(&file, module, class_node, &info.name)?;
    // a class decorator may give the class slots (`@dataclass(slots=True)`)
    declared.slots |= statement.kind() == "decorated_definition";
    if !*protocol {
        hierarchy::check(project, class_def, &info, &declared)?;
    }
    let indent = line_indent(&file, statement);
    let at = insertion_point(&file, statement, &indent);
    let names = imports::spell(&file, module, statement, at, *protocol, &declared.members)?;
    let text = interface_text(&file, interface, &indent, &names, &declared, *protocol);
    let mut indels: Vec<Indel> = names.import.into_iter().collect();
    push_insert(&mut indels, at, text);
    if !*protocol {
        indels.push(add_base(&file, class_node, interface)?);
    }
    let edits = TextEdits::new(indels)
        .map_err(|(a, b)| internal(format!("overlapping edits {a:?} and {b:?}")))?;
    let mut methods: Vec<String> = Vec::new();
    for m in &declared.members {
        if !methods.contains(&m.name) {
            methods.push(m.name.clone());
        }
    }
    Ok(Refactored {
        change: WorkspaceChange::edit(file.source.path.clone(), file.source.base.clone(), edits),
        summary: Summary::InterfaceExtracted {
            class: info.full_name.clone(),
            interface: interface.to_string(),
            protocol: *protocol,
            methods,
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

/// `Cannot extract interface - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot extract interface - {why}"),
    )
}

fn internal(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::WouldBreak,
        format!("Internal error: {why}"),
    )
}

/// Refuses an interface name the class's module binds or reads already
/// (it would take the name's place), a builtin's, or one a module that
/// star-imports the class's module names (it would get the interface).
fn check_name(
    project: &Project<'_>,
    file: &Parsed,
    module: &FileIndex,
    class: &DefInfo,
    name: &str,
) -> Result<(), RefactorError> {
    let scopes = file.scopes();
    let conflict = |why: String| {
        RefactorError::new(
            RefactorFailure::NameConflict,
            format!("Interface already exists: {why}"),
        )
        .at(Argument::NewName)
    };
    if let Some(b) = scopes
        .bindings
        .iter()
        .find(|b| b.scope == 0 && b.name == name)
    {
        return Err(conflict(format!(
            "{name} is bound in {} at {}; choose another name",
            class.path,
            file.position(b.range.start)
        )));
    }
    if scopes.future_imports.iter().any(|f| f == name) {
        return Err(conflict(format!("{name} is a __future__ import")));
    }
    if let Some(r) = scopes.references.iter().find(|r| {
        r.name == name
            && matches!(
                r.resolution,
                Resolution::Builtin | Resolution::Star | Resolution::Undefined
            )
    }) {
        return Err(conflict(format!(
            "{name} is read in {} at {} and would then mean the interface; choose another name",
            class.path,
            file.position(r.range.start)
        )));
    }
    if is_builtin(name) {
        return Err(conflict(format!(
            "{name} is a builtin, which the module would shadow; choose another name"
        )));
    }
    let exported = match &module.all {
        Some(all) => all.iter().any(|n| &**n == name),
        None => true,
    };
    if exported {
        for (fid, other) in project.index.files_with(name) {
            if other.module == module.module || !other.stars.contains(&module.module) {
                continue;
            }
            let path = project.index.path(fid).unwrap_or("?");
            // it gets the new name; a clash only where it binds or reads it
            let scopes = project.scanned(path)?;
            let scopes = scopes.scopes();
            let clash = scopes
                .bindings
                .iter()
                .any(|b| b.scope == 0 && b.name == name)
                || scopes.references.iter().any(|r| {
                    r.name == name
                        && matches!(r.resolution, Resolution::Star | Resolution::Undefined)
                });
            if clash {
                return Err(conflict(format!(
                    "{path} imports * from {} and binds or reads {name}, which would then be the interface; choose another name",
                    module.module
                )));
            }
        }
    }
    Ok(())
}

/// The whitespace a statement's line starts with.
fn line_indent(file: &Parsed, node: Node<'_>) -> String {
    let text = file.text();
    let line = text.line(node.start_position().row).to_string();
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// Where the interface goes: the start of the class statement's line, or
/// of the comment lines right above it (they describe the class).
fn insertion_point(file: &Parsed, statement: Node<'_>, indent: &str) -> usize {
    let text = file.text();
    let mut row = statement.start_position().row;
    while row > 0 {
        let above = text.line(row - 1).to_string();
        let rest = above.strip_prefix(indent).unwrap_or("");
        // not a `#!` line nor an encoding declaration, which must stay first
        let header = row - 1 < 2 && (above.starts_with("#!") || above.contains("coding"));
        if rest.starts_with('#') && !header {
            row -= 1;
        } else {
            break;
        }
    }
    text.line_to_char(row)
}

/// Adds an insertion at `at`, after any other made there.
fn push_insert(indels: &mut Vec<Indel>, at: usize, text: String) {
    match indels
        .iter_mut()
        .find(|i| i.range.start == at && i.range.end == at)
    {
        Some(same) => same.insert.push_str(&text),
        None => indels.push(Indel::insert(at, text)),
    }
}

/// The interface's source, ending with the blank lines that separate it
/// from the class.
fn interface_text(
    file: &Parsed,
    name: &str,
    indent: &str,
    names: &imports::Names,
    declared: &Declared<'_>,
    protocol: bool,
) -> String {
    let mut out = format!("{indent}class {name}({}):\n", names.base);
    if declared.slots && !protocol {
        // the class may have no `__dict__`: a base without `__slots__`
        // would give it one
        out.push_str(&format!("{}__slots__ = ()\n\n", declared.members[0].indent));
    }
    let stubs: Vec<String> = declared
        .members
        .iter()
        .map(|m| {
            m.stub(
                file,
                (!protocol && m.is_abstract()).then_some(&*names.abstract_marker),
            )
        })
        .collect();
    out.push_str(&stubs.join("\n"));
    out.push_str(if indent.is_empty() { "\n\n" } else { "\n" });
    out
}

/// The edit that adds the interface to the class's bases: last of the
/// positional ones (before an explicit `object`, which it replaces when
/// alone), before any keyword (`metaclass=`).
fn add_base(file: &Parsed, class: Node<'_>, interface: &str) -> Result<Indel, RefactorError> {
    let Some(args) = class.child_by_field_name("superclasses") else {
        let after = class
            .child_by_field_name("type_parameters")
            .or_else(|| class.child_by_field_name("name"))
            .ok_or_else(|| internal("a class without a name"))?;
        return Ok(Indel::insert(
            file.char_of(after.end_byte()),
            format!("({interface})"),
        ));
    };
    let mut cursor = args.walk();
    let children: Vec<Node<'_>> = args
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect();
    let positional: Vec<Node<'_>> = children
        .iter()
        .copied()
        .filter(|c| !matches!(c.kind(), "keyword_argument" | "dictionary_splat"))
        .collect();
    if let Some(object) = positional
        .iter()
        .find(|c| c.kind() == "identifier" && file.node_text(**c) == "object")
    {
        if positional.len() == 1 {
            return Ok(Indel::new(file.chars(*object), interface));
        }
        return Ok(Indel::insert(
            file.char_of(object.start_byte()),
            format!("{interface}, "),
        ));
    }
    if let Some(last) = positional.last() {
        return Ok(Indel::insert(
            file.char_of(last.end_byte()),
            format!(", {interface}"),
        ));
    }
    match children.first() {
        Some(keyword) => Ok(Indel::insert(
            file.char_of(keyword.start_byte()),
            format!("{interface}, "),
        )),
        None => Ok(Indel::insert(
            file.char_of(args.start_byte()) + 1,
            interface.to_string(),
        )),
    }
}

#[cfg(test)]
#[path = "tests/interface.rs"]
mod tests;
