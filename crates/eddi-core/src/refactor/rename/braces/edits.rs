//! A brace rename's edits, file by file: the new name written where a
//! site spells the old one (an importer's alias keeps its own), a
//! shorthand kept in meaning, a field's literal keys, a parameter
//! property's uses as its parameter; each file checked to keep its
//! syntax, and a public Java class's file moved with it.

use std::collections::{BTreeMap, HashSet};

use super::sites::Sites;
use super::{conflicts, mentions, Parsed, Target};
use crate::analysis::index::query::References;
use crate::analysis::outline::SymbolKind;
use crate::change::{FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use crate::language;
use crate::refactor::rename::{captures, Location};
use crate::refactor::{Project, RefactorError, RefactorFailure};
use crate::workspace::WorkspacePath;

/// The edits of a rename, and the texts they make.
pub(super) struct Written {
    pub change: WorkspaceChange,
    /// Each edited file after the edits, with where they write the name.
    pub edited: Vec<captures::Edited>,
    /// How many names they write.
    pub references: usize,
    /// The name in comments of the edited files, left as it is (without
    /// `Include Text`).
    pub mentions: Vec<Location>,
}

/// Writes the new name at the sites of `by_file` (and at `sites`' keys
/// and parameter uses).
pub(super) fn write(
    project: &Project<'_>,
    target: &Target,
    found: &References,
    sites: &Sites,
    by_file: &BTreeMap<String, Vec<Location>>,
    include_text: bool,
    new: &str,
) -> Result<Written, RefactorError> {
    let mut change = WorkspaceChange::new();
    let mut edited: Vec<captures::Edited> = Vec::new();
    let mut references = 0;
    let mut mentioned = Vec::new();
    let member = target.is_member();
    let old = &target.old;
    // the uses the index proved: still its uses after the edits
    let proved: HashSet<(&str, crate::edit::Position)> = found
        .certain
        .iter()
        .map(|l| (l.path.as_str(), l.position))
        .collect();
    // the uses written as the importer's name (`import f from`, `export {
    // default as f }`): kept, even where it spells the old name
    let aliased: HashSet<(&str, crate::edit::Position)> = found
        .aliased
        .iter()
        .map(|l| (l.path.as_str(), l.position))
        .collect();
    for (path, at) in by_file {
        let file = Parsed::read(
            project,
            language::language_of(path).unwrap_or(target.language),
            path,
        )?;
        if !member {
            conflicts::refuse_bound_in(&file, path, new)?;
        }
        let mut edits: Vec<Indel> = Vec::new();
        let mut uses_proved: Vec<usize> = Vec::new();
        for site in at {
            let Ok(start) = crate::edit::position::to_char(&file.text, site.position) else {
                continue;
            };
            let proven = proved.contains(&(site.path.as_str(), site.position));
            if proven {
                uses_proved.push(start);
            }
            let end = start + old.chars().count();
            // an alias keeps its own name (`import { f as g }`: `g`)
            let spelled =
                end <= file.text.len_chars() && file.text.slice(start..end) == old.as_str();
            if !spelled || aliased.contains(&(site.path.as_str(), site.position)) {
                continue;
            }
            // a Go struct literal's key spelling a package-level name is
            // the struct's field (`E{Kind: 1}` of a type `Kind`); a possible
            // one the rename was told to include, an embedded field's
            if !member
                && file.language.id() == "go"
                && sites.proven.contains(site)
                && language::rename::is_go_field_key(&file.text, &file.tree, start)
            {
                continue;
            }
            let shorthand = language::rename::is_shorthand(&file.text, &file.tree, start);
            let module_key =
                shorthand && language::rename::is_module_shorthand(&file.text, &file.tree, start);
            let insert = match (shorthand, module_key) {
                // a module's key (`module.exports = { f }`, `const { f } =
                // require('./a')`) is renamed with its export, whole (its
                // local's uses are the rename's sites too); one a
                // destructuring in a function takes (`await import('./a')`
                // there), whose local's uses the index does not follow,
                // alone: `const { g: f } = …`
                (true, true)
                    if !proven
                        && language::rename::is_nested_destructuring(
                            &file.text, &file.tree, start,
                        ) =>
                {
                    format!("{new}: {old}")
                }
                (true, true) => new.to_string(),
                (true, false) if member => format!("{new}: {old}"),
                (true, false) => format!("{old}: {new}"),
                (false, _) => new.to_string(),
            };
            edits.push(Indel::new(start..end, insert));
        }
        // (a parameter's shorthand `{ x }` keeps its key)
        let parameter = sites
            .parameter_uses
            .iter()
            .filter(|_| *path == target.def_path);
        for &(start, shorthand) in parameter {
            // a shorthand that is also the member's key: `{ y }` is both
            if let Some(both) = edits.iter_mut().find(|e| e.range.start == start) {
                both.insert = new.to_string();
                continue;
            }
            let end = start + old.chars().count();
            let insert = match shorthand {
                true => format!("{old}: {new}"),
                false => new.to_string(),
            };
            edits.push(Indel::new(start..end, insert));
        }
        for &(start, keeps_value) in sites.keys.get(path).into_iter().flatten() {
            let end = start + old.chars().count();
            let insert = match keeps_value {
                true => format!("{new}: {old}"),
                false => new.to_string(),
            };
            edits.push(Indel::new(start..end, insert));
        }
        edits.sort_by_key(|e| e.range.start);
        edits.dedup_by_key(|e| e.range.start);
        references += edits.len();
        // the name in comments (a Rust doctest's code): written with
        // `Include Text`, else listed
        let written: HashSet<usize> = edits.iter().map(|e| e.range.start).collect();
        let in_comments = mentions::in_comments(&file, old);
        for start in in_comments.into_iter().filter(|at| !written.contains(at)) {
            match include_text {
                true => edits.push(Indel::new(
                    start..start + old.chars().count(),
                    new.to_string(),
                )),
                false => mentioned.push(super::point(&file.text, path, start, old)),
            }
        }
        edits.sort_by_key(|e| e.range.start);
        if edits.is_empty() {
            continue;
        }
        let edits = TextEdits::new(edits).map_err(|(a, b)| {
            RefactorError::new(
                RefactorFailure::WouldBreak,
                format!("Internal error: overlapping edits in {path} at {a:?} and {b:?}"),
            )
        })?;
        let mut after = file.check_kept(path, &edits)?;
        let mut names = names_after(&edits, new, &uses_proved);
        // (Go: gofmt's columns, realigned to the new names)
        let mut edits = edits;
        if file.language.id() == "go" {
            let renamed: Vec<Indel> = edits.iter().cloned().collect();
            let realigned = language::gofmt_align::realigned(&file.text, &renamed)
                .and_then(|(aligned, indels)| Some((aligned, TextEdits::new(indels).ok()?)));
            if let Some((aligned, realigned)) = realigned {
                // (the new names, where gofmt's blanks moved them)
                let starts: Vec<usize> = names.iter().map(|n| n.range.start).collect();
                let moved = language::gofmt_align::mapped(&after, &aligned, &starts);
                for (name, start) in names.iter_mut().zip(moved) {
                    name.range = start..start + name.range.len();
                }
                edits = realigned;
                after = aligned;
            }
        }
        let moved = moved_to(target, path, new)?;
        edited.push(captures::Edited {
            before: path.clone(),
            path: moved
                .as_ref()
                .map_or(path.clone(), |to| to.as_str().to_string()),
            text: after,
            names,
        });
        let op = match moved {
            Some(to) => FileOp::Move { to, edits },
            None => FileOp::Edit(edits),
        };
        change
            .insert(
                file.path.clone(),
                FileChange {
                    base: file.base.clone(),
                    op,
                },
            )
            .map_err(|e| {
                RefactorError::new(RefactorFailure::WouldBreak, format!("Internal error: {e}"))
            })?;
    }
    Ok(Written {
        change,
        edited,
        references,
        mentions: mentioned,
    })
}

/// A public Java class's file, named after it: where it moves.
fn moved_to(
    target: &Target,
    path: &str,
    new: &str,
) -> Result<Option<WorkspacePath>, RefactorError> {
    let Target {
        def_path,
        language,
        def_file,
        symbol,
        old,
        ..
    } = target;
    if language.id() != "java" || path != def_path.as_str() || symbol.kind != SymbolKind::Class {
        return Ok(None);
    }
    if symbol.parent.is_some() || !path.ends_with(&format!("{old}.java")) {
        return Ok(None);
    }
    let name = crate::edit::position::to_char(&def_file.text, symbol.name_position)
        .unwrap_or(symbol.full.start)
        .max(symbol.full.start);
    let head = def_file.text.slice(symbol.full.start..name).to_string();
    if !head.split_whitespace().any(|w| w == "public") {
        return Ok(None);
    }
    let to = format!(
        "{}{new}.java",
        &path[..path.len() - old.len() - ".java".len()]
    );
    WorkspacePath::from_persisted(to)
        .map(Some)
        .map_err(|e| RefactorError::new(RefactorFailure::InvalidArgument, e))
}

/// Where each edit writes the new name in the text after the edits, and
/// whether the index proved the use it renames.
fn names_after(edits: &TextEdits, new: &str, uses_proved: &[usize]) -> Vec<captures::Name> {
    let length = new.chars().count();
    let mut shift: isize = 0;
    edits
        .iter()
        .map(|e| {
            let start = (e.range.start as isize + shift) as usize;
            let written = e.insert.chars().count();
            shift += written as isize - e.range.len() as isize;
            // a shorthand's `old: new` writes it last
            let at = match e.insert == new || e.insert.starts_with(&format!("{new}:")) {
                true => start,
                false => start + written - length,
            };
            captures::Name {
                range: at..at + length,
                proved: uses_proved.contains(&e.range.start),
            }
        })
        .collect()
}
