//! Extract a delegate: `Refactor ExtractClass <Class> <NewClass>
//! <member,…>` (IntelliJ's Extract Delegate).
//!
//! The methods move to a new class right below the class, which the class
//! holds (`self._rules = UserRules(self)`, first in its `__init__`) and
//! delegates to: each moved method stays in the class as one line
//! (`return self._rules.parse(text)`), so every caller, every subclass
//! that overrides it and every `super().parse()` keeps working unchanged.
//! The original does not inherit the new class.
//!
//! State stays with the original, reached through a back-reference (the
//! choice documented in docs/COMMANDS.md): the new class's `__init__`
//! keeps the original (`self.user = user`), and the moved code reads and
//! writes the original's attributes through it (`self.user.name`), so
//! outside code reading them needs no property. A moved method calling
//! another moved method calls it directly, unless a subclass overrides
//! it: then through the original, which finds the override.
//!
//! Refused, changing nothing: a member that is not a plain instance
//! method (an attribute, a property, a static or class method, a special
//! method — Split_Class moves what the class holds itself); `super()` in
//! it; what cannot move as text; `__slots__` or `__setattr__` in the class
//! or a base (it may not take the new attribute); a class with a decorator (a dataclass
//! writes its own `__init__`); a subclass whose `__init__` does not call
//! its base's (its instances would lack the delegate), listed; a shallow
//! copy that may copy an instance (`copy.copy` in a file naming the class,
//! a base or a subclass; `rv.__dict__.update(self.__dict__)` in one of
//! their methods: the copy would share the delegate bound to the
//! original), listed — the project's other shallow copies are assumed
//! not to (`assumed`); a `NewClass` the module binds already.

use tree_sitter::Node;

use super::classes;
use super::move_members::{self, needs, statements, FileEdits};
use super::move_method::{body, Via};
use super::{
    Argument, LeftAlone, Parsed, Project, RefactorError, RefactorFailure, Refactored, Refactoring,
    Summary,
};
use crate::analysis::identifier::is_identifier;
use crate::analysis::index::rename::Subclasses;
use crate::change::Indel;

/// `Cannot extract class - <why>`.
fn refused(why: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot extract class - {why}"),
    )
}

/// A class's name in snake case (`UserRules` → `user_rules`).
fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let boundary = i > 0
                && (chars[i - 1].is_lowercase()
                    || chars[i - 1].is_numeric()
                    || (chars[i - 1].is_uppercase()
                        && chars.get(i + 1).is_some_and(|n| n.is_lowercase())));
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(*c);
        }
    }
    out.trim_start_matches('_').to_string()
}

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::ExtractClass {
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
    let node = named.node()?;
    let class_statement = classes::statement(node);
    if class_statement.kind() == "decorated_definition" {
        return Err(refused(format!(
            "{} has a class decorator, which may write its own __init__ (a dataclass)",
            info.name
        )));
    }
    // the class must take a new attribute
    let guarded: Vec<String> = std::iter::once(found)
        .chain(index.project_ancestors(&[found]))
        .flat_map(|c| {
            ["__slots__", "__setattr__"]
                .into_iter()
                .filter(move |n| !index.own_members(c, n).is_empty())
                .map(move |n| (c, n))
        })
        .map(|(c, n)| {
            let class = index.def_info(c).map(|i| i.name).unwrap_or_default();
            format!("{class}.{n}")
        })
        .collect();
    if !guarded.is_empty() {
        return Err(refused(format!(
            "{} defines {}: the class may not take the attribute that holds the delegate",
            info.name,
            guarded.join(", ")
        )));
    }
    let mut names: Vec<String> = Vec::new();
    for m in members {
        let m = m.trim();
        let m = m.rsplit('.').next().unwrap_or(m).to_string();
        if !names.contains(&m) {
            names.push(m);
        }
    }
    if names.is_empty() {
        return Err(
            RefactorError::new(RefactorFailure::InvalidArgument, "No member to move")
                .at(Argument::Members),
        );
    }
    // the methods
    let mut moved: Vec<(Node<'_>, String)> = Vec::new();
    for name in &names {
        let defining = statements::defining(file, node, name);
        let [statement] = defining.as_slice() else {
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
            return Err(refused(format!(
                "{}.{name} is defined {} times in the class body",
                info.name,
                defining.len()
            )));
        };
        let plain = statement.kind() == "function_definition"
            && !(name.starts_with("__") && name.ends_with("__"))
            && classes::receiver(file, *statement, *statement).is_some();
        if !plain {
            return Err(refused(format!(
                "{}.{name} is not a plain instance method (an attribute, a property, a static, class or special method): ExtractClass moves methods; Split_Class moves what the class holds itself",
                info.name
            ))
            .at(Argument::Members));
        }
        moved.push((*statement, name.clone()));
    }
    moved.sort_by_key(|(n, _)| n.start_byte());
    let statements: Vec<Node<'_>> = moved.iter().map(|(n, _)| *n).collect();
    needs::check_movable(file, node, &statements, &names).map_err(refused)?;
    let scopes = file.scopes();
    for s in &statements {
        let range = file.chars(*s);
        if let Some(r) = scopes
            .references
            .iter()
            .find(|r| range.start <= r.range.start && r.range.end <= range.end && r.name == "super")
        {
            return Err(refused(format!(
                "super() at {} would reach another class from {new_class}",
                file.position(r.range.start)
            )));
        }
    }
    if let Some(b) = scopes
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
    // every instance must get the delegate
    let subclasses = Subclasses::new(index);
    let below = subclasses.of(found);
    let mut without: Vec<String> = Vec::new();
    for sub in &below {
        for init in index.own_members(*sub, "__init__") {
            let Some(i) = index.def_info(init) else {
                continue;
            };
            let there = project.parsed(&i.path)?;
            let Some(def) = there
                .node_covering(there.offset(i.name_location.position))
                .and_then(|n| n.parent())
            else {
                continue;
            };
            let text = there.node_text(def);
            if !text.contains("super().__init__(") && !text.contains(".__init__(self") {
                without.push(format!(
                    "{} ({}:{})",
                    i.full_name, i.path, i.name_location.position
                ));
            }
        }
    }
    if !without.is_empty() {
        return Err(refused(format!(
            "{} {} not call the base's __init__: their instances would lack the delegate",
            without.join(", "),
            if without.len() == 1 { "does" } else { "do" }
        )));
    }
    let family: Vec<String> = std::iter::once(found)
        .chain(below.iter().copied())
        .chain(index.project_ancestors(&[found]))
        .filter_map(|c| index.def_info(c).map(|i| i.name))
        .collect();
    let (copies, assumed) = shallow_copies(project, &family);
    if !copies.is_empty() {
        return Err(refused(format!(
            "the project makes shallow copies ({}): a copied {} would share the delegate bound to the original",
            copies.join(", "),
            info.name
        )));
    }
    // names: the held attribute, the back-reference
    let taken_attribute =
        |n: &str| index.is_referenced(n) || !index.members_named(found, n).is_empty();
    let mut attribute = format!("_{}", snake(new_class));
    while taken_attribute(&attribute) {
        attribute.push('_');
    }
    let mut owner = snake(&info.name);
    while owner.is_empty() || !is_identifier(&owner) || names.contains(&owner) || owner == "self" {
        owner = if owner.is_empty() {
            "owner".into()
        } else {
            format!("{owner}_")
        };
    }
    // moved methods that a subclass overrides are reached through the original
    let overridden: Vec<String> = names
        .iter()
        .filter(|n| below.iter().any(|s| !index.own_members(*s, n).is_empty()))
        .cloned()
        .collect();
    // the new class's text
    let mut inner: Vec<Indel> = Vec::new();
    for (statement, _) in &moved {
        let def = *statement;
        let Some(receiver) = classes::receiver(file, def, def) else {
            continue;
        };
        let Some(scope) = body::scope_of(file, scopes, def) else {
            return Err(refused("the method's scope is not in the file's scopes"));
        };
        for read in body::reads_of(scopes, scope, &receiver, &file.chars(def)) {
            let direct = file
                .node_covering(read.start)
                .and_then(|n| n.parent())
                .filter(|p| p.kind() == "attribute")
                .and_then(|p| p.child_by_field_name("attribute"))
                .map(|a| file.node_text(a))
                .is_some_and(|a| names.contains(&a) && !overridden.contains(&a));
            if !direct {
                inner.push(Indel::new(read, format!("{receiver}.{owner}")));
            }
        }
    }
    let indent = statements::indent(file, statements[0]);
    let methods =
        statements::moved_text_edited(file, &statements, &inner, &indent).map_err(refused)?;
    let new_text = format!(
        "\n\nclass {new_class}:\n{indent}def __init__(self, {owner}):\n{indent}{indent}self.{owner} = {owner}\n{}",
        methods.trim_end_matches('\n').to_string() + "\n"
    );
    let text = file.text();
    let row = class_statement.end_position().row + 1;
    let at = if row < text.len_lines() {
        text.line_to_char(row)
    } else {
        text.len_chars()
    };
    let new_text = if at == text.len_chars() && !file.slice(0..at).ends_with('\n') {
        format!("\n{new_text}")
    } else {
        new_text
    };
    // the original: delegates, and the delegate held from __init__
    let mut edits: Vec<Indel> = Vec::new();
    for (statement, name) in &moved {
        let via = Via::Attribute {
            name: attribute.clone(),
        };
        edits.extend(body::delegate(file, *statement, &via, name, false).map_err(refused)?);
    }
    edits.push(hold(file, node, &indent, &attribute, new_class)?);
    edits.push(Indel::insert(at, new_text));
    let mut files = std::collections::BTreeMap::<String, FileEdits>::new();
    let home = move_members::add(&mut files, file);
    if let Some(e) = files.get_mut(&home) {
        e.indels.extend(edits);
    }
    let change = move_members::change_of(files)?;
    let mut done = move_members::refactored(
        change,
        Summary::ClassExtracted {
            class: info.full_name.clone(),
            new_class: new_class.to_string(),
            members: moved.into_iter().map(|(_, n)| n).collect(),
            attribute,
        },
    );
    done.assumed = assumed;
    Ok(done)
}

/// The edit that makes the class hold the delegate: the first statement
/// of its own `__init__` (after a docstring), else a new `__init__` that
/// calls its base's first.
fn hold(
    file: &Parsed,
    class: Node<'_>,
    indent: &str,
    attribute: &str,
    new_class: &str,
) -> Result<Indel, RefactorError> {
    let line = format!("self.{attribute} = {new_class}(self)");
    let init = classes::methods(class).into_iter().find(|(_, d)| {
        d.child_by_field_name("name")
            .is_some_and(|n| file.node_text(n) == "__init__")
    });
    match init {
        Some((statement, def)) => {
            let body = def
                .child_by_field_name("body")
                .ok_or_else(|| refused("__init__ has no body"))?;
            let mut cursor = body.walk();
            let all: Vec<Node<'_>> = body
                .named_children(&mut cursor)
                .filter(|n| n.kind() != "comment")
                .collect();
            let docstring = all.first().is_some_and(|s| {
                s.kind() == "expression_statement"
                    && s.named_child(0).is_some_and(|e| e.kind() == "string")
            });
            let first = all
                .get(usize::from(docstring))
                .or(all.first())
                .copied()
                .ok_or_else(|| refused("__init__ has no statement"))?;
            if first.start_position().row == statement.start_position().row {
                return Err(refused(
                    "__init__ is written on one line: put its body on lines of its own first",
                ));
            }
            let own = statements::indent(file, first);
            if docstring && all.len() == 1 {
                let row = first.end_position().row + 1;
                let at = file
                    .text()
                    .line_to_char(row.min(file.text().len_lines() - 1));
                return Ok(Indel::insert(at, format!("{own}{line}\n")));
            }
            let at = file.text().line_to_char(first.start_position().row);
            Ok(Indel::insert(at, format!("{own}{line}\n")))
        }
        None => {
            let text = format!(
                "\n{indent}def __init__(self, *args, **kwargs):\n{indent}{indent}super().__init__(*args, **kwargs)\n{indent}{indent}{line}\n"
            );
            statements::insertion(file, class, &text).map_err(refused)
        }
    }
}

/// The project's shallow copies (`copy.copy(…)`, a `copy` imported from
/// `copy`, `rv.__dict__.update(self.__dict__)`): those that may copy an
/// instance of the class — a manual copy in a method of the class, a base
/// or a subclass; a `copy` call in a file naming one of them — refuse;
/// the others are assumed not to copy one (`assumed`, listed).
fn shallow_copies(project: &Project<'_>, family: &[String]) -> (Vec<String>, Vec<LeftAlone>) {
    let mut refusing = Vec::new();
    let mut assumed = Vec::new();
    let names_family = |src: &str| {
        family.iter().any(|n| {
            src.match_indices(n.as_str()).any(|(at, _)| {
                let before = src[..at].chars().next_back();
                let after = src[at + n.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                !word(before) && !word(after)
            })
        })
    };
    for path in project.index.paths() {
        if !path.ends_with(".py") {
            continue;
        }
        let Some(src) = project.sources.search_text(path) else {
            continue;
        };
        if !src.contains("copy") && !src.contains("__dict__") {
            continue;
        }
        let in_file = names_family(&src);
        let mut class: Option<String> = None;
        for (row, line) in src.lines().enumerate() {
            if let Some(rest) = line.strip_prefix("class ") {
                class = Some(
                    rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                );
            } else if !line.starts_with([' ', '\t', '#']) && !line.trim().is_empty() {
                class = None;
            }
            let code = line.split('#').next().unwrap_or_default();
            let imports_copy = code.split("from copy import").nth(1).is_some_and(|names| {
                names
                    .split(',')
                    .any(|n| n.split_whitespace().next() == Some("copy"))
            });
            let manual = code.contains("__dict__.update(") && code.contains(".__dict__)");
            let site = format!("{path}:{row}");
            let may_copy_it = if manual {
                class.as_ref().is_some_and(|c| family.contains(c))
            } else if code.contains("copy.copy(") || imports_copy {
                in_file
            } else {
                continue;
            };
            if may_copy_it {
                refusing.push(site);
            } else {
                let at = crate::edit::Position::new(row, 0);
                assumed.push(LeftAlone {
                    site: crate::analysis::index::Location {
                        path: path.to_string(),
                        position: at,
                        end: at,
                    },
                    why: "assumed: this shallow copy does not copy an instance of the class".into(),
                });
            }
        }
    }
    refusing.truncate(10);
    (refusing, assumed)
}

#[cfg(test)]
#[path = "tests/extract_class.rs"]
mod tests;
