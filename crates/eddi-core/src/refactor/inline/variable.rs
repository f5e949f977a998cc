//! `Refactor Inline_Variable <name>`: the variable the cursor's scope sees
//! is replaced by its value at every read, and its assignment removed.
//!
//! Safe only when every read sees that one assignment and the value means
//! the same there: assigned once (`x = value`, no other binding, no
//! `global`/`nonlocal` redirection, no `locals()`), every read after the
//! assignment in the block that holds it (so every path assigns it first),
//! nothing the value reads rebound in between (nor shadowed at the read),
//! attributes and items it reads not possibly changed in between, a value
//! that acts (calls, awaits) read once, right in the next statement, first
//! and unconditionally, a value that creates an object read once, and no
//! other module importing the variable, nor a class attribute read as one.

use std::ops::Range;

use tree_sitter::Node;

use super::expr::{self, Effects};
use super::{
    enclosing_interpolation, fits_interpolation, mentions, parsed, refused, remove_statement,
    scope_name, shown, Parsed,
};
use crate::analysis::scope::{Reference, Resolution, ScopeKind};
use crate::change::{TextEdits, WorkspaceChange};
use crate::choices::{closest, closest_dotted, SHOWN};
use crate::refactor::{
    InlineKind, LeftAlone, Project, RefactorError, RefactorFailure, Refactored, Summary,
};

pub(super) fn inline(project: &Project<'_>, requested: &str) -> Result<Refactored, RefactorError> {
    let Target { file, scope, name } = target(project, requested)?;
    let name = name.as_str();
    let scopes = &file.scopes();
    let owner = scope_name(scopes, scope);

    declared_elsewhere(&file, name, scope)?;
    let binding = single_binding(&file, name, scope, &owner)?;
    let assignment = Assignment::of(&file, binding.range.clone(), name)?;
    let uses: Vec<&Reference> = scopes.references_to(scope, name).collect();
    exported(project, &file, name, scope, &uses)?;
    // Names read through strings: `locals()["x"]`, `eval("x")`, `globals()`.
    let dynamic = scopes.references.iter().find(|r| {
        r.resolution == Resolution::Builtin
            && scopes.is_within(r.scope, scope)
            && (matches!(r.name.as_str(), "locals" | "vars" | "eval" | "exec")
                || (scope == 0 && r.name == "globals"))
    });
    if let Some(r) = dynamic {
        return Err(refused(format!(
            "{} calls {}() at {}: {name} may be read through it",
            scope_name(scopes, r.scope),
            r.name,
            file.position(r.range.start)
        )));
    }

    if uses.is_empty() {
        // A module variable or class attribute no code of the project reads
        // may still be read from outside it (`pkg.mod.name`, `__all__`,
        // `__version__`): deleting it is not advice to give.
        let kind = scopes.scopes[scope].kind;
        return Err(refused(
            if matches!(kind, ScopeKind::Module | ScopeKind::Class) {
                format!(
                    "{name} is not read in {}: there is nothing to inline it into (code outside the project may still read it as an attribute)",
                    file.path()
                )
            } else {
                format!("{name} is never read: delete its assignment instead")
            },
        ));
    }
    let statement = assignment.statement;
    let stmt = file.chars(statement);
    let block = statement.parent().unwrap_or(statement);
    let block_chars = file.chars(block);
    let mut sites: Vec<(Node<'_>, &Reference)> = Vec::new();
    for r in &uses {
        let at = file.position(r.range.start);
        if r.range.start < stmt.end && r.range.start >= stmt.start {
            return Err(refused(format!("the value of {name} reads {name} itself")));
        }
        if r.range.start < stmt.start {
            return Err(refused(format!(
                "{name} is read at {at} before it is assigned at {}",
                file.at(statement)
            )));
        }
        if r.range.end > block_chars.end {
            return Err(refused(format!(
                "{name} is read at {at}, outside the block that assigns it at {}: not every path assigns it",
                file.at(statement)
            )));
        }
        let node = file
            .node_spanning(r.range.clone())
            .filter(|n| n.kind() == "identifier")
            .ok_or_else(|| refused(format!("the read of {name} at {at} is not a plain name")))?;
        sites.push((node, r));
    }

    let value = assignment.value;
    let value_text = file.source_of(value);
    let effects = expr::effects(value);
    check_effects(
        &file,
        name,
        &value_text,
        effects,
        &sites,
        scope,
        statement,
        block,
    )?;
    let assumed = check_reads(&file, name, value, effects, &sites, scope, statement, block)?;

    let src = file.src().as_bytes();
    let precedence = expr::precedence(value, src);
    let mut indels = vec![remove_statement(&file, statement)];
    for (node, r) in &sites {
        let mut text = value_text.clone();
        let mut parens = expr::needs_parens(precedence, value.kind(), *node, src);
        if let Some(interpolation) = enclosing_interpolation(*node) {
            parens |= fits_interpolation(
                &file,
                &format!("the value of {name}"),
                name,
                &value_text,
                interpolation,
                *node,
            )?;
        }
        if parens {
            text = format!("({text})");
        }
        indels.push(crate::change::Indel::new(r.range.clone(), text));
    }
    let edits = TextEdits::new(indels).map_err(|_| {
        refused(format!(
            "the reads of {name} overlap its assignment (internal error)"
        ))
    })?;
    Ok(Refactored {
        change: WorkspaceChange::edit(file.source.path.clone(), file.source.base.clone(), edits),
        summary: Summary::Inlined {
            kind: InlineKind::Variable,
            name: name.to_string(),
            locations: sites.len(),
        },
        evidence: Default::default(),
        left_alone: Vec::new(),
        mentions: mentions(&file, name),
        names_swapped: Default::default(),
        data_strings: Vec::new(),
        also_renamed: Vec::new(),
        assumed,
    })
}

/// The variable a request names: the file it is in, the scope it binds in,
/// its own name.
struct Target {
    file: std::sync::Arc<Parsed>,
    scope: usize,
    name: String,
}

/// `x`: the variable the cursor's scope sees, else the one scope of the
/// current file that binds `x` (several: ambiguous, naming each form).
/// `f.x`, `C.m.x`: the variable of that function of the current file;
/// `pkg.mod.f.x`: of that function of that module.
fn target(project: &Project<'_>, requested: &str) -> Result<Target, RefactorError> {
    let cursor = project.current.as_ref();
    let parts: Vec<&str> = requested.split('.').collect();
    if let [name] = parts.as_slice() {
        let cursor = cursor.ok_or_else(|| {
            RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!("Inline_Variable {name} needs the file it is in: open it (and go into the variable's scope), or name its function: <function>.{name}"),
            )
        })?;
        let file = parsed(project, &cursor.path)?;
        let offset = crate::edit::position::to_char(
            file.text(),
            crate::edit::position::clamp(file.text(), cursor.position),
        )
        .unwrap_or(0);
        let here = file.scopes().scope_at(offset);
        if let Resolution::Scope(scope) = file.scopes().resolve(name, here) {
            return Ok(Target {
                file,
                scope,
                name: name.to_string(),
            });
        }
        let binding: Vec<usize> = binding_scopes(&file, name);
        return match binding.as_slice() {
            [scope] => Ok(Target {
                scope: *scope,
                file,
                name: name.to_string(),
            }),
            [] => Err(not_found(&file, name, here, cursor.position)),
            several => Err(ambiguous(&file, name, several)),
        };
    }
    let (name, path) = parts.split_last().expect("split gives one part at least");
    // The longest prefix that is a module of the project names the file
    // (all of it: a module-level variable, `pkg.mod.x`).
    let module = (1..=path.len()).rev().find_map(|k| {
        let module = path[..k].join(".");
        let file = project.index.path_of_module(&module)?;
        Some((file.to_string(), &path[k..]))
    });
    let (file_path, scope_path) = match (module, cursor) {
        (Some((file, rest)), _) => (file, rest),
        (None, Some(cursor)) => (cursor.path.clone(), path),
        (None, None) => {
            let close = defined_elsewhere(project, &path.join("."), name, None);
            return Err(RefactorError::new(
                RefactorFailure::NotFound,
                format!(
                    "Not found: {requested}: no module of the project is named by its first parts; open the file it is in, or qualify it with its module (pkg.mod.function.{name}){}",
                    if close.is_empty() { String::new() } else { format!(". Closest: {}", close.join(", ")) }
                ),
            )
            .at(crate::refactor::Argument::Symbol)
            .with_candidates(close));
        }
    };
    let file = parsed(project, &file_path)?;
    let scopes = &file.scopes();
    let matching: Vec<usize> = (0..scopes.scopes.len())
        .filter(|&s| qualified(scopes, s).as_deref() == Some(scope_path))
        .collect();
    let Some(&scope) = matching.first() else {
        let known: Vec<String> = (0..scopes.scopes.len())
            .filter_map(|s| qualified(scopes, s))
            .filter(|q| !q.is_empty())
            .map(|q| q.join("."))
            .collect();
        let function = scope_path.join(".");
        let mut close = close_functions(&function, &known);
        let hint = if !close.is_empty() {
            format!("Closest: {}", close.join(", "))
        } else {
            close = defined_elsewhere(project, &function, name, Some(file.path()));
            if close.is_empty() {
                "It defines no function of a similar name".to_string()
            } else {
                format!("Defined elsewhere: {}", close.join(", "))
            }
        };
        return Err(RefactorError::new(
            RefactorFailure::NotFound,
            format!("Not found: function {function} in {}. {hint}", file.path()),
        )
        .at(crate::refactor::Argument::Symbol)
        .with_candidates(close));
    };
    if !scopes
        .bindings
        .iter()
        .any(|b| b.scope == scope && b.name == *name)
    {
        let bound: Vec<String> = scopes
            .bindings
            .iter()
            .filter(|b| b.scope == scope)
            .map(|b| b.name.clone())
            .collect();
        let close = closest(name, &bound, SHOWN);
        return Err(RefactorError::new(
            RefactorFailure::NotFound,
            format!(
                "Not found: variable '{name}' {} in {}. {}",
                if scope_path.is_empty() {
                    "at module level".to_string()
                } else {
                    format!("of {}", scope_path.join("."))
                },
                file.path(),
                if close.is_empty() {
                    "It binds no similar name".to_string()
                } else {
                    format!("Closest: {}", close.join(", "))
                }
            ),
        )
        .at(crate::refactor::Argument::Symbol)
        .with_candidates(close));
    }
    Ok(Target {
        file,
        scope,
        name: name.to_string(),
    })
}

/// The functions (and classes) of a file close to `asked`: first those
/// it names by their last parts (`_compare_equal` is
/// `Specifier._compare_equal`), then similar names, whole or by last part.
fn close_functions(asked: &str, known: &[String]) -> Vec<String> {
    let suffix = format!(".{asked}");
    let mut close: Vec<String> = known
        .iter()
        .filter(|k| k.ends_with(&suffix))
        .cloned()
        .collect();
    close.extend(closest(asked, known, SHOWN));
    close.extend(closest_dotted(asked, known, SHOWN));
    let mut seen = std::collections::HashSet::new();
    close.retain(|c| seen.insert(c.clone()));
    close.truncate(SHOWN);
    close
}

/// `function.name` in the forms that name it in other files of the
/// project (`pkg.mod.Class.function.name`), when `function` is defined
/// there.
fn defined_elsewhere(
    project: &Project<'_>,
    function: &str,
    name: &str,
    not_in: Option<&str>,
) -> Vec<String> {
    let Ok(definitions) = project.index.find_definition(function) else {
        return Vec::new();
    };
    definitions
        .iter()
        .filter(|d| d.kind.is_callable() && Some(d.location.path.as_str()) != not_in)
        .map(|d| format!("{}.{name}", d.qualified_name))
        .take(SHOWN)
        .collect()
}

/// The function and class names from the module down to `scope` (empty
/// for the module); `None` inside a lambda or comprehension, which no name
/// addresses.
fn qualified(scopes: &crate::analysis::scope::Scopes, scope: usize) -> Option<Vec<&str>> {
    let mut names = Vec::new();
    let mut current = Some(scope);
    while let Some(i) = current {
        let s = &scopes.scopes[i];
        match s.kind {
            ScopeKind::Module => break,
            ScopeKind::Function | ScopeKind::Class => names.push(s.name.as_deref()?),
            _ => return None,
        }
        current = s.parent;
    }
    names.reverse();
    Some(names)
}

/// The scopes of the file (module, classes, functions) where `name` is a
/// variable of their own.
fn binding_scopes(file: &Parsed, name: &str) -> Vec<usize> {
    let scopes = &file.scopes();
    let mut found: Vec<usize> = scopes
        .bindings
        .iter()
        .filter(|b| b.name == name && qualified(scopes, b.scope).is_some())
        .map(|b| b.scope)
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// `name` is bound in several scopes of the file: each with its place and
/// the name that picks it.
fn ambiguous(file: &Parsed, name: &str, scopes_found: &[usize]) -> RefactorError {
    let scopes = &file.scopes();
    let forms: Vec<String> = scopes_found
        .iter()
        .filter_map(|&s| {
            let q = qualified(scopes, s)?;
            Some(if q.is_empty() {
                name.to_string()
            } else {
                format!("{}.{name}", q.join("."))
            })
        })
        .collect();
    let places: Vec<String> = scopes_found
        .iter()
        .zip(&forms)
        .filter_map(|(&s, form)| {
            let b = scopes
                .bindings
                .iter()
                .find(|b| b.scope == s && b.name == name)?;
            Some(format!(
                "{form} ({}:{})",
                file.path(),
                file.position(b.range.start)
            ))
        })
        .collect();
    RefactorError::new(
        RefactorFailure::Ambiguous,
        format!(
            "Ambiguous: variable '{name}' is bound in {} scopes of {}: {}; name one, or go into its scope",
            scopes_found.len(),
            file.path(),
            places.join(", ")
        ),
    )
    .at(crate::refactor::Argument::Symbol)
    .with_candidates(forms)
}

/// Not visible from the cursor: the closest names that are.
fn not_found(file: &Parsed, name: &str, here: usize, at: crate::edit::Position) -> RefactorError {
    let scopes = &file.scopes();
    let mut visible: Vec<String> = Vec::new();
    let mut current = Some(here);
    let mut first = true;
    while let Some(i) = current {
        let s = &scopes.scopes[i];
        if first || s.kind != ScopeKind::Class {
            for b in scopes.bindings.iter().filter(|b| b.scope == i) {
                if !visible.contains(&b.name) {
                    visible.push(b.name.clone());
                }
            }
        }
        first = false;
        current = s.parent;
    }
    let close = closest(name, &visible, SHOWN);
    let offered = if close.is_empty() {
        "No similar name is visible there".to_string()
    } else {
        format!("Closest: {}", close.join(", "))
    };
    RefactorError::new(
        RefactorFailure::NotFound,
        format!(
            "Not found: variable '{name}' visible at {}:{at}. {offered}",
            file.path()
        ),
    )
    .at(crate::refactor::Argument::Symbol)
    .with_candidates(close)
}

/// `global x` / `nonlocal x` elsewhere: other code may rebind it.
fn declared_elsewhere(file: &Parsed, name: &str, scope: usize) -> Result<(), RefactorError> {
    let scopes = &file.scopes();
    for (i, s) in scopes.scopes.iter().enumerate() {
        let global = scope == 0 && s.globals.iter().any(|g| g == name);
        let nonlocal = s.nonlocals.iter().any(|n| n == name)
            && scopes.is_within(i, scope)
            && scopes.resolve(name, s.parent.unwrap_or(0)) == Resolution::Scope(scope);
        if global || nonlocal {
            let word = if global { "global" } else { "nonlocal" };
            return Err(refused(format!(
                "{name} is declared {word} in {}: it may be rebound there",
                scope_name(scopes, i)
            )));
        }
    }
    Ok(())
}

/// The one binding of `name` in `scope`, an assignment.
fn single_binding<'f>(
    file: &'f Parsed,
    name: &'f str,
    scope: usize,
    owner: &str,
) -> Result<&'f crate::analysis::scope::Binding, RefactorError> {
    use crate::analysis::scope::BindingKind;
    let bindings: Vec<_> = file.scopes().bindings_of(scope, name).collect();
    if bindings.len() > 1 {
        let lines: Vec<String> = bindings
            .iter()
            .map(|b| (file.position(b.range.start).line).to_string())
            .collect();
        return Err(refused(format!(
            "{name} is bound {} times in {owner} (lines {}): only a variable assigned once can be inlined",
            bindings.len(),
            lines.join(", ")
        )));
    }
    let b = bindings[0];
    let at = file.position(b.range.start);
    let what = match b.kind {
        BindingKind::Assignment => return Ok(b),
        BindingKind::Parameter => format!("{name} is a parameter of {owner}"),
        BindingKind::Import => format!("{name} is imported at {at}"),
        BindingKind::Function => format!("{name} is a function: use Refactor InlineFunction"),
        BindingKind::Class => format!("{name} is a class"),
        BindingKind::Unpacking => format!("{name} is assigned by unpacking at {at}"),
        BindingKind::Other => format!(
            "{name} is bound at {at} by a loop, with, except, match, del or a bare annotation, not by an assignment"
        ),
    };
    Err(refused(format!(
        "{what}: only a variable assigned once (`{name} = value`) can be inlined"
    )))
}

/// `name = value` as one statement of its own.
struct Assignment<'t> {
    statement: Node<'t>,
    value: Node<'t>,
}

impl<'t> Assignment<'t> {
    fn of(
        file: &'t Parsed,
        target: Range<usize>,
        name: &str,
    ) -> Result<Assignment<'t>, RefactorError> {
        let at = file.position(target.start);
        let not_plain = || {
            refused(format!(
                "{name} is bound at {at} by something other than a plain `{name} = value` statement"
            ))
        };
        let id = file.node_spanning(target).ok_or_else(not_plain)?;
        let assignment = id.parent().ok_or_else(not_plain)?;
        match assignment.kind() {
            "augmented_assignment" => {
                return Err(refused(format!(
                "{name} is updated in place at {at}: only a variable assigned once can be inlined"
            )))
            }
            "named_expression" => {
                return Err(refused(format!(
                "{name} is bound by `:=` at {at}: only a `{name} = value` statement can be inlined"
            )))
            }
            "assignment" => {}
            _ => return Err(not_plain()),
        }
        let statement = assignment
            .parent()
            .filter(|p| p.kind() == "expression_statement")
            .ok_or_else(|| {
                refused(format!(
                    "{name} is assigned in a chained assignment at {at}: split it first"
                ))
            })?;
        if assignment.child_by_field_name("left") != Some(id) {
            return Err(not_plain());
        }
        let value = assignment
            .child_by_field_name("right")
            .ok_or_else(not_plain)?;
        match value.kind() {
            "assignment" => Err(refused(format!(
                "{name} is assigned in a chained assignment at {at}: split it first"
            ))),
            "yield" => Err(refused(format!(
                "the value of {name} is a yield expression: it cannot be moved"
            ))),
            _ => Ok(Assignment { statement, value }),
        }
    }
}

/// A module-level variable other modules import, or a class attribute read
/// as one, is not only this file's.
fn exported(
    project: &Project<'_>,
    file: &Parsed,
    name: &str,
    scope: usize,
    uses: &[&Reference],
) -> Result<(), RefactorError> {
    let scopes = &file.scopes();
    let kind = scopes.scopes[scope].kind;
    if !matches!(kind, ScopeKind::Module | ScopeKind::Class) {
        return Ok(());
    }
    let Some(module) = project.index.module_of(file.path()) else {
        return Ok(());
    };
    // The qualified name: the enclosing classes (a class in a function is
    // not indexed by name: refuse rather than guess).
    let mut parts = vec![name.to_string()];
    let mut s = scope;
    while s != 0 {
        let sc = &scopes.scopes[s];
        if sc.kind != ScopeKind::Class {
            return Err(refused(format!(
                "{name} is a class attribute of a class defined in a function: its readers cannot be found"
            )));
        }
        parts.push(sc.name.clone().unwrap_or_default());
        s = sc.parent.unwrap_or(0);
    }
    parts.push(module.to_string());
    parts.reverse();
    let qualified = parts.join(".");
    if kind == ScopeKind::Module {
        if let Some(index) = project.index.file_index(file.path()) {
            if index
                .all
                .as_ref()
                .is_some_and(|all| all.iter().any(|n| &**n == name))
            {
                return Err(refused(format!(
                    "{name} is exported in __all__ of {module}: other modules may import it"
                )));
            }
        }
        if !name.starts_with('_') {
            for path in project.index.paths() {
                let starred = project
                    .index
                    .file_index(path)
                    .is_some_and(|f| f.stars.iter().any(|m| m == module));
                if starred && path != file.path() {
                    return Err(refused(format!(
                        "{name} may be imported by `from {module} import *` in {path}"
                    )));
                }
            }
        }
    }
    let refs = match project.index.find_references(&qualified) {
        Ok(refs) => refs,
        // not indexed as a definition: nothing can import it by name
        Err(_) => return Ok(()),
    };
    let outside: Vec<String> = refs
        .certain
        .iter()
        .chain(&refs.possible)
        .filter(|l| {
            l.path != file.path()
                || (kind == ScopeKind::Class
                    && !uses
                        .iter()
                        .any(|r| file.position(r.range.start) == l.position))
        })
        .map(|l| l.to_string())
        .collect();
    if outside.is_empty() {
        return Ok(());
    }
    let list = crate::choices::Choices::ranked("", outside);
    Err(refused(if kind == ScopeKind::Module {
        format!("{name} is imported by other modules: {list}")
    } else {
        format!("{name} is a class attribute read as an attribute at {list}")
    }))
}

/// A value that acts or creates an object may be moved, never repeated,
/// and only where it still runs first and once.
#[allow(clippy::too_many_arguments)]
fn check_effects(
    file: &Parsed,
    name: &str,
    value_text: &str,
    effects: Effects,
    sites: &[(Node<'_>, &Reference)],
    scope: usize,
    statement: Node<'_>,
    block: Node<'_>,
) -> Result<(), RefactorError> {
    if effects.repeatable() {
        return Ok(());
    }
    let value = shown(value_text);
    let what = if effects.acts {
        format!("the value of {name} ({value}) has effects")
    } else {
        format!("the value of {name} ({value}) creates a new object")
    };
    if sites.len() > 1 {
        return Err(refused(format!(
            "{what} and {name} is read {} times: it would run {} times",
            sites.len(),
            sites.len()
        )));
    }
    let (node, r) = sites[0];
    let at = file.position(r.range.start);
    if r.scope != scope {
        return Err(refused(format!(
            "{what} and {name} is read at {at} inside a nested function, lambda or comprehension: it would run at other times"
        )));
    }
    if expr::loop_between(node, block).is_some() {
        return Err(refused(format!(
            "{what} and {name} is read at {at} inside a loop: it would run at every iteration"
        )));
    }
    if !effects.acts {
        return Ok(());
    }
    let use_statement = statement_in(node, block);
    if named_next(statement) != Some(use_statement) {
        return Err(refused(format!(
            "{what} and other statements run between its assignment and its read at {at}: their order would change"
        )));
    }
    if let Some(why) = expr::not_first_and_once(node, use_statement) {
        return Err(refused(format!("{what} and its read at {at} is {why}")));
    }
    Ok(())
}

/// Names the value reads must mean the same at every read and not be
/// rebound in between; attributes and items it reads must not possibly
/// change in between. A call in between changes them when it can reach
/// them — a method of the object they are read from, a call given that
/// object or one of the values read, any call when the object is not the
/// function's own (a module, a global) —; the other calls are assumed not
/// to, and returned to be listed.
#[allow(clippy::too_many_arguments)]
fn check_reads(
    file: &Parsed,
    name: &str,
    value: Node<'_>,
    effects: Effects,
    sites: &[(Node<'_>, &Reference)],
    scope: usize,
    statement: Node<'_>,
    block: Node<'_>,
) -> Result<Vec<LeftAlone>, RefactorError> {
    let scopes = &file.scopes();
    let value_chars = file.chars(value);
    let stmt = file.chars(statement);
    // Where rebinding a name the value reads would change a read of `name`.
    let scope_end = scopes.scopes[scope].range.end;
    let mut window_start = stmt.end;
    let mut window_end = stmt.end;
    for (node, r) in sites {
        let loop_end = expr::loop_between(*node, block).map(|b| file.char_of(b));
        let end = match timing(file, r.scope, scope) {
            Timing::Later => {
                // a nested function may run any time later
                if let Some(outer) = outermost_loop(statement, scope, file) {
                    window_start = window_start.min(outer.start);
                }
                scope_end
            }
            Timing::Repeated(end) => end.max(loop_end.unwrap_or(0)),
            Timing::Now => loop_end.unwrap_or(r.range.start),
        };
        window_end = window_end.max(end);
    }
    let reads: Vec<&Reference> = scopes
        .references
        .iter()
        .filter(|r| value_chars.start <= r.range.start && r.range.end <= value_chars.end)
        .filter(|r| match r.resolution {
            // the value's own lambdas' and comprehensions' names
            Resolution::Scope(s) => {
                let range = &scopes.scopes[s].range;
                !(value_chars.start <= range.start && range.end <= value_chars.end)
            }
            _ => true,
        })
        .collect();
    for read in &reads {
        for (_, r) in sites {
            if scopes.resolve(&read.name, r.scope) != read.resolution {
                return Err(refused(format!(
                    "the value of {name} reads {}, which means something else at {}",
                    read.name,
                    file.position(r.range.start)
                )));
            }
        }
        let Resolution::Scope(t) = read.resolution else {
            continue;
        };
        let bindings: Vec<_> = scopes.bindings_of(t, &read.name).collect();
        for b in &bindings {
            let at = file.position(b.range.start);
            if b.site != t {
                return Err(refused(format!(
                    "the value of {name} reads {}, which {} rebinds at {at}",
                    read.name,
                    scope_name(scopes, b.site)
                )));
            }
            if window_start <= b.range.start
                && b.range.start < window_end
                && !bound_after_read(file, b.range.clone(), sites, scope)
            {
                return Err(refused(format!(
                    "the value of {name} reads {}, which is rebound at {at} before {name} is read",
                    read.name
                )));
            }
        }
        if t != scope && bindings.len() > 1 {
            return Err(refused(format!(
                "the value of {name} reads {}, which {} binds {} times: it may differ when {name} is read",
                read.name,
                scope_name(scopes, t),
                bindings.len()
            )));
        }
    }
    if !effects.reads_state {
        return Ok(Vec::new());
    }
    let value_shown = shown(&file.source_of(value));
    let state = StateRead::of(file, value, block, scope);
    let mut assumed = Vec::new();
    if let Some((_, r)) = sites
        .iter()
        .find(|(_, r)| timing(file, r.scope, scope) == Timing::Later)
    {
        return Err(refused(format!(
            "the value of {name} ({value_shown}) reads attributes or items, and {name} is read at {} inside a nested function, lambda or comprehension, when they may have changed",
            file.position(r.range.start)
        )));
    }
    // Anything between the assignment and the last read that may change state.
    let (from, to) = (file.byte_of(stmt.end), file.byte_of(window_end));
    let mut stack = vec![block];
    while let Some(n) = stack.pop() {
        if n.end_byte() <= from || n.start_byte() >= to {
            continue;
        }
        let inside = n.start_byte() >= from && n.end_byte() <= to;
        if inside && n.kind() == "call" && !state.reached_by(file, n) {
            let callee = n
                .child_by_field_name("function")
                .map_or_else(String::new, |f| file.source_of(f));
            let start = file.char_of(n.start_byte());
            assumed.push(LeftAlone {
                site: crate::analysis::index::Location {
                    path: file.path().to_string(),
                    position: file.position(start),
                    end: file.position(file.char_of(n.end_byte())),
                },
                why: format!(
                    "assumed: {callee} does not change {}",
                    state.reads.join(", ")
                ),
            });
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
            continue;
        }
        let changes = inside
            && match n.kind() {
                "call" | "await" | "yield" | "delete_statement" | "augmented_assignment" => true,
                "assignment" => n
                    .child_by_field_name("left")
                    .is_some_and(|l| expr::effects(l).reads_state),
                _ => false,
            };
        if changes {
            return Err(refused(format!(
                "the value of {name} ({value_shown}) reads attributes or items, and the code at {} may change them before {name} is read",
                file.at(n)
            )));
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    Ok(assumed)
}

/// What a value reads state through: the names its attribute and item
/// chains start from (`self` in `self.a + self.b`, with the names bound to
/// one of them in the function: `s = self`), and the chains themselves.
struct StateRead {
    roots: Vec<String>,
    /// The chains as written (`self.a`), for the reply.
    reads: Vec<String>,
    /// A root is not the function's own (a module, a global): any call may
    /// reach it.
    shared: bool,
}

impl StateRead {
    fn of(file: &Parsed, value: Node<'_>, block: Node<'_>, scope: usize) -> StateRead {
        let mut roots = Vec::new();
        let mut reads: Vec<(usize, String)> = Vec::new();
        let mut stack = vec![value];
        while let Some(n) = stack.pop() {
            if matches!(n.kind(), "attribute" | "subscript") {
                let chain = file.source_of(n);
                if !reads.iter().any(|(_, r)| *r == chain) {
                    reads.push((n.start_byte(), chain));
                }
                if let Some(root) = chain_root(n) {
                    let root = file.source_of(root);
                    if !roots.contains(&root) {
                        roots.push(root);
                    }
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        // `s = self`: `s.m()` may change what `self.a` reads
        let mut stack = vec![block];
        while let Some(n) = stack.pop() {
            if n.kind() == "assignment" {
                let (left, right) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                );
                if let (Some(left), Some(right)) = (left, right) {
                    if left.kind() == "identifier"
                        && right.kind() == "identifier"
                        && roots.contains(&file.source_of(right))
                    {
                        roots.push(file.source_of(left));
                    }
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        // in source order, for the reply
        reads.sort();
        let reads = reads.into_iter().map(|(_, chain)| chain).collect();
        let scopes = file.scopes();
        let own = |name: &str| matches!(scopes.resolve(name, scope), crate::analysis::scope::Resolution::Scope(s) if s == scope);
        let shared = roots.iter().any(|r| !own(r));
        StateRead {
            roots,
            reads,
            shared,
        }
    }

    /// Whether the call `call` may change what the value reads.
    fn reached_by(&self, file: &Parsed, call: Node<'_>) -> bool {
        if self.shared {
            return true;
        }
        let Some(function) = call.child_by_field_name("function") else {
            return true;
        };
        // a method of one of the objects (`self.m()`), or a function the
        // call's own value gives (`f()()`)
        match chain_root(function).or(Some(function).filter(|f| f.kind() == "identifier")) {
            Some(root) if function.kind() == "identifier" => {
                // a local function may have captured the objects
                if self.roots.contains(&file.source_of(root)) {
                    return true;
                }
                let scopes = file.scopes();
                let here = scopes.scope_at(file.char_of(call.start_byte()));
                if matches!(
                    scopes.resolve(&file.source_of(root), here),
                    crate::analysis::scope::Resolution::Scope(s) if s == here
                ) {
                    return true;
                }
            }
            Some(root) if self.roots.contains(&file.source_of(root)) => return true,
            Some(_) => {}
            None => return true,
        }
        // given one of the objects, or one of the values read
        let Some(arguments) = call.child_by_field_name("arguments") else {
            return false;
        };
        let mut stack = vec![arguments];
        while let Some(n) = stack.pop() {
            if n.kind() == "identifier" && self.roots.contains(&file.source_of(n)) {
                let mut chain = n;
                while let Some(parent) = chain.parent().filter(|p| {
                    matches!(p.kind(), "attribute" | "subscript")
                        && p.child(0).is_some_and(|c| c.id() == chain.id())
                }) {
                    chain = parent;
                }
                if chain.id() == n.id() {
                    return true; // the object itself
                }
                let written = file.source_of(chain);
                if self
                    .reads
                    .iter()
                    .any(|r| written.starts_with(r.as_str()) || r.starts_with(written.as_str()))
                {
                    return true;
                }
            }
            if matches!(n.kind(), "lambda") {
                return true;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        false
    }
}

/// The name an attribute or item chain starts from (`self` in
/// `self.a.b[0]`); `None` when it starts from a call or a literal.
fn chain_root(node: Node<'_>) -> Option<Node<'_>> {
    let mut n = node;
    loop {
        match n.kind() {
            "attribute" => n = n.child_by_field_name("object")?,
            "subscript" => n = n.child_by_field_name("value")?,
            "identifier" => return Some(n),
            _ => return None,
        }
    }
}

/// The binding is a target of the assignment whose value holds the one
/// read of the variable: the value is evaluated before the target is bound
/// (`a = v + 1` with `v = a * 2`). Not when the read is in a lambda or
/// function there: it runs when called, after the target is bound
/// (`a = lambda: v` with `v = a`).
fn bound_after_read(
    file: &Parsed,
    binding: Range<usize>,
    sites: &[(Node<'_>, &Reference)],
    scope: usize,
) -> bool {
    let [(site, read)] = sites else {
        return false;
    };
    if matches!(timing(file, read.scope, scope), Timing::Later) {
        return false;
    }
    let Some(mut n) = file.node_spanning(binding) else {
        return false;
    };
    while let Some(p) = n.parent() {
        if matches!(p.kind(), "assignment" | "augmented_assignment") {
            let in_left = p
                .child_by_field_name("left")
                .is_some_and(|l| l.start_byte() <= n.start_byte() && n.end_byte() <= l.end_byte());
            let read_in_right = p.child_by_field_name("right").is_some_and(|r| {
                r.start_byte() <= site.start_byte() && site.end_byte() <= r.end_byte()
            });
            return in_left && read_in_right && p.kind() == "assignment";
        }
        if p.kind().ends_with("statement") || p.kind() == "block" {
            return false;
        }
        n = p;
    }
    false
}

/// When a read in scope `read` runs, seen from `scope`, where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timing {
    /// When the statement that holds it runs.
    Now,
    /// Within comprehensions run by that statement, which end at this char.
    Repeated(usize),
    /// In a function, lambda or class body: whenever that runs.
    Later,
}

fn timing(file: &Parsed, read: usize, scope: usize) -> Timing {
    let scopes = &file.scopes().scopes;
    let mut s = read;
    let mut end = None;
    while s != scope {
        if scopes[s].kind != ScopeKind::Comprehension {
            return Timing::Later;
        }
        end = Some(scopes[s].range.end);
        match scopes[s].parent {
            Some(p) => s = p,
            None => return Timing::Later,
        }
    }
    end.map_or(Timing::Now, Timing::Repeated)
}

/// The outermost `for`/`while` of `scope` that holds `statement`.
fn outermost_loop(statement: Node<'_>, scope: usize, file: &Parsed) -> Option<Range<usize>> {
    let scope_range = file.scopes().scopes[scope].range.clone();
    let mut found = None;
    let mut n = statement;
    while let Some(p) = n.parent() {
        let chars = file.chars(p);
        if matches!(
            p.kind(),
            "function_definition" | "class_definition" | "lambda"
        ) || (chars.start <= scope_range.start && chars.end >= scope_range.end)
        {
            break;
        }
        if matches!(p.kind(), "for_statement" | "while_statement") {
            found = Some(chars);
        }
        n = p;
    }
    found
}

/// The statement of `block` that holds `node`.
fn statement_in<'t>(node: Node<'t>, block: Node<'t>) -> Node<'t> {
    let mut n = node;
    while let Some(p) = n.parent() {
        if p == block {
            return n;
        }
        n = p;
    }
    n
}

fn named_next(statement: Node<'_>) -> Option<Node<'_>> {
    super::named_sibling(statement, true)
}
