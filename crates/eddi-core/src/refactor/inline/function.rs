//! `Refactor InlineFunction <name>`: every call of a function or method in
//! the project is replaced by its body, the arguments mapped to the
//! parameters (positional, keyword, defaults, the receiver of a method
//! call as `self`); then the definition is removed when nothing else uses
//! it, or kept and said so (a use as a value, `__all__`, a re-export).
//!
//! A body that is one `return <expr>` becomes that expression wherever it
//! is called (`callee.rs` checks the callee, `call.rs` maps and checks
//! each call); a longer body is inlined at calls that are whole
//! statements (`x = f(a)`, `f(a)`, `return f(a)`), its locals renamed
//! when they would collide (`statements.rs`). Refused, with the reason:
//! recursion, generators, `async`, decorators (but `@staticmethod`),
//! `*args`/`**kwargs`, `super()`, nested definitions (closures over the
//! callee's scope), `global`/`nonlocal`, early returns, calls through
//! `*`/`**`, receivers of unknown type, overridden methods, arguments that
//! would be evaluated a different number of times or in another order,
//! and bodies that read names the call site does not see the same.

mod call;
mod callee;
mod statements;

use std::collections::BTreeMap;

use tree_sitter::Node;

use super::{mentions, parsed, refused, scanned, Parsed};
use crate::analysis::index::Location;
use crate::change::{Indel, TextEdits, WorkspaceChange};
use crate::refactor::{
    InlineKind, LeftAlone, Project, RefactorError, RefactorFailure, Refactored, Summary,
};
use callee::Callee;

pub(super) fn inline(project: &Project<'_>, name: &str) -> Result<Refactored, RefactorError> {
    let full = lookup(project, name)?;
    let definitions = project.index.find_definition(&full)?;
    let definition = match definitions.as_slice() {
        [one] => one,
        many => {
            let places: Vec<String> = many.iter().map(|d| d.location.to_string()).collect();
            return Err(refused(format!(
                "{full} is defined {} times ({}): which one a call runs depends on the path taken",
                many.len(),
                places.join(", ")
            )));
        }
    };
    if !definition.kind.is_callable() {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!(
                "{full} is a {}, not a function: InlineFunction inlines functions and methods",
                definition.kind.noun()
            ),
        )
        .at(crate::refactor::Argument::Symbol));
    }
    let home = parsed(project, &definition.location.path)?;
    let callee = Callee::read(&home, definition, &full)?;
    callee.check_overrides(project)?;

    let references = project.index.find_references(&full)?;
    if let Some(unsure) = references.possible.first() {
        return Err(refused(format!(
            "the use of {} at {unsure} may be another one's (its receiver's type is unknown): \
             inline it by hand or make the receiver's class known",
            callee.name
        )));
    }
    let mut by_file: BTreeMap<String, Vec<Location>> = BTreeMap::new();
    for site in references.certain {
        by_file.entry(site.path.clone()).or_default().push(site);
    }

    let mut change = WorkspaceChange::new();
    let mut left_alone = Vec::new();
    let mut calls = 0;
    let mut kept_anywhere = false;
    let mut found = Vec::new();
    let mut home_edits: Vec<Indel> = Vec::new();
    let defining_path = home.path().to_string();
    by_file.entry(defining_path.clone()).or_default();
    for (path, sites) in &by_file {
        let other;
        let file = if *path == defining_path {
            &home
        } else {
            other = scanned(project, path)?;
            &other
        };
        found.extend(mentions(file, &callee.name));
        let mut edits = Vec::new();
        let mut imports = Vec::new();
        let mut kept = Vec::new();
        let mut call_ranges: Vec<std::ops::Range<usize>> = Vec::new();
        for site in sites {
            let node = identifier_at(file, site)?;
            match call::Site::classify(node) {
                call::Site::Import(statement, name) => imports.push((statement, name, site)),
                call::Site::Call(call_node, receiver) => {
                    let range = file.chars(call_node);
                    if call_ranges
                        .iter()
                        .any(|r| r.start < range.end && range.start < r.end)
                    {
                        return Err(refused(format!(
                            "{} is called at {site} inside another call of it: inline the outer call first, then again",
                            callee.name
                        )));
                    }
                    call_ranges.push(range);
                    edits.push(call::inline_call(&callee, file, call_node, receiver)?);
                    calls += 1;
                }
                call::Site::Decorator => {
                    return Err(refused(format!(
                        "{} is applied as a decorator at {site}: that call has no argument list to inline into; write it as a call after the definition (`g = {}(g)`) first",
                        callee.name, callee.name
                    )))
                }
                call::Site::Value => kept.push(site.clone()),
            }
        }
        // An import is dropped with the last use it served; a package's
        // `__init__` re-exports: what it imports is its API.
        let is_init = path.ends_with("__init__.py");
        for (statement, name, site) in imports {
            if kept.is_empty() && !is_init {
                edits.push(call::remove_import(file, statement, name));
            } else {
                kept.push(site.clone());
            }
        }
        kept_anywhere |= !kept.is_empty();
        for site in kept {
            left_alone.push(LeftAlone {
                why: format!(
                    "{} is used here other than by a call: its definition is kept",
                    callee.name
                ),
                site,
            });
        }
        if *path == defining_path {
            home_edits = edits;
        } else if !edits.is_empty() {
            insert(&mut change, file, edits)?;
        }
    }
    if calls == 0 {
        return Err(refused(format!(
            "{} is never called: there is nothing to inline",
            callee.name
        )));
    }
    if let Some(why) = callee.exported(project) {
        kept_anywhere = true;
        left_alone.push(LeftAlone {
            site: Location::point(defining_path.clone(), definition.location.position),
            why,
        });
    }
    if !kept_anywhere {
        home_edits.push(callee.removal());
    }
    if !home_edits.is_empty() {
        insert(&mut change, &home, home_edits)?;
    }
    Ok(Refactored {
        change,
        summary: Summary::Inlined {
            kind: InlineKind::Function,
            name: full,
            locations: calls,
        },
        evidence: Default::default(),
        left_alone,
        mentions: found,
        names_swapped: Default::default(),
        data_strings: Vec::new(),
        also_renamed: Vec::new(),
        assumed: Vec::new(),
    })
}

/// The full name of the function `name` denotes: a definition of the
/// current file first, then the project's.
fn lookup(project: &Project<'_>, name: &str) -> Result<String, RefactorError> {
    let q = name.split('(').next().unwrap_or(name).trim();
    if let Some(current) = &project.current {
        if let Some(f) = project.index.file_index(&current.path) {
            let suffix = format!(".{q}");
            let mut found: Vec<String> = f
                .defs
                .iter()
                .filter(|d| d.kind.is_callable())
                .filter(|d| d.qualified == q || d.qualified.ends_with(&suffix))
                .map(|d| format!("{}.{}", f.module, d.qualified))
                .collect();
            found.dedup();
            if found.len() == 1 {
                return Ok(found.remove(0));
            }
        }
    }
    let definitions = project.index.find_definition(q)?;
    Ok(definitions
        .first()
        .map(|d| d.qualified_name.clone())
        .unwrap_or_else(|| q.to_string()))
}

/// The identifier a reference of the index names.
fn identifier_at<'f>(file: &'f Parsed, site: &Location) -> Result<Node<'f>, RefactorError> {
    let text = file.text();
    let char_at = |p: crate::edit::Position| crate::edit::position::to_char(text, p).ok();
    let node = char_at(site.position)
        .zip(char_at(site.end))
        .and_then(|(s, e)| file.node_spanning(s..e))
        .filter(|n| n.kind() == "identifier");
    node.ok_or_else(|| {
        RefactorError::new(
            RefactorFailure::Stale,
            format!(
                "{site} does not hold the name the index has there: the index is behind the file"
            ),
        )
    })
}

fn insert(
    change: &mut WorkspaceChange,
    file: &Parsed,
    edits: Vec<Indel>,
) -> Result<(), RefactorError> {
    let edits = TextEdits::new(edits).map_err(|(a, b)| {
        refused(format!(
            "two edits of {} overlap ({a:?} and {b:?})",
            file.path()
        ))
    })?;
    change
        .insert(
            file.source.path.clone(),
            crate::change::FileChange {
                base: file.source.base.clone(),
                op: crate::change::FileOp::Edit(edits),
            },
        )
        .map_err(|e| refused(e.to_string()))
}
