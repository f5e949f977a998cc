//! The uses a brace rename would capture: after its edits, the uses of
//! the new name that resolve to the renamed symbol but are none of the
//! sites it renamed. Each was a use of something else before — a method
//! of a trait or class outside the project, a builtin, a promoted member,
//! another overload — and would silently call the renamed symbol after:
//!
//! - Rust: `P.dup` renamed `clone` on a type deriving `Clone` makes every
//!   `p.clone()` call the inherent method (inherent methods come first);
//! - Go: a function renamed `len` makes its package's `len(x)` call it; a
//!   method renamed `Lock` on a type embedding `sync.Mutex` takes over
//!   `t.Lock()`;
//! - JavaScript, TypeScript: a module's function renamed `parseInt`
//!   shadows the global for the module.
//!
//! The index answers for the new texts in a copy of itself (its entries
//! are shared; only the edited files are scanned again), so whatever the
//! resolution rules see, this check sees: a certain capture is a name
//! conflict, a possible one a possible site.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;

use super::Location;
use crate::refactor::{Project, RefactorError, RefactorFailure};

/// A file the rename edits: its text after, and where the new name is
/// written in it (char ranges).
pub(super) struct Edited {
    /// Its path before the change (a Java public class's file moves).
    pub before: String,
    pub path: String,
    pub text: Rope,
    pub names: Vec<Name>,
}

/// Where the edits write the new name.
pub(super) struct Name {
    pub range: Range<usize>,
    /// It renames a use the index proved: after the edits, it must still
    /// be a use of the renamed symbol.
    pub proved: bool,
}

/// What the rename would capture, and the uses it renamed that would
/// then be something else's.
#[derive(Default)]
pub(super) struct Captured {
    pub certain: Vec<Location>,
    pub possible: Vec<Location>,
    /// Proved uses of the old name that the index does not find as uses
    /// of the new one: a name the use's scope binds takes them (a local
    /// `sum` around `add(…)` renamed `sum`).
    pub lost: Vec<Location>,
    /// Proved uses the index can no longer prove.
    pub unproved: Vec<Location>,
}

/// The uses of the renamed symbols after the edits (by their new full
/// names: the symbol's, and those of the methods renamed with it) that
/// are none of the renamed sites. `None` when the index cannot find a
/// renamed symbol in the new texts (nothing to compare with).
pub(super) fn captured(
    project: &Project<'_>,
    edited: &[Edited],
    new: &str,
    new_full_names: &[String],
    defined_in: &str,
) -> Option<Captured> {
    let mut after = project.index.tags().clone();
    for file in edited {
        if file.before != file.path {
            after.remove(&file.before);
        }
        after.insert(
            file.path.clone(),
            Arc::new(file.text.to_string()),
            None,
            None,
        );
    }
    // (asked from the symbol's file: a Go name defined in several files
    // of its package, one per build constraint, is that file's)
    let mut found = after
        .find_references(
            project.index.root(),
            new_full_names.first()?,
            Some(defined_in),
        )
        .ok()?;
    for other in &new_full_names[1..] {
        let theirs = after
            .find_references(project.index.root(), other, None)
            .ok()?;
        found.certain.extend(theirs.certain);
        found.possible.extend(theirs.possible);
    }
    found.possible.retain(|l| !found.certain.contains(l));
    // a use written as the new name (an alias's use keeps its own), in
    // none of the renamed sites; each file not edited read once
    let mut unedited: HashMap<String, Option<Rope>> = HashMap::new();
    let mut captures = |at: &Location| -> bool {
        let edited = edited.iter().find(|f| f.path == at.path);
        let text = match edited {
            Some(f) => &f.text,
            None => {
                let read = unedited
                    .entry(at.path.clone())
                    .or_insert_with(|| project.source(&at.path).ok().map(|s| s.text));
                match read {
                    Some(text) => &*text,
                    None => return true,
                }
            }
        };
        let Ok(start) = crate::edit::position::to_char(text, at.position) else {
            return true;
        };
        let end = start + new.chars().count();
        if end > text.len_chars() || text.slice(start..end) != new {
            return false;
        }
        // the whole name, not its prefix (`Pan` of `<Panel />`)
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        if end < text.len_chars() && word(text.char(end)) {
            return false;
        }
        !edited.is_some_and(|f| f.names.iter().any(|n| n.range.contains(&start)))
    };
    let mut captured = |sites: &[Location]| -> Vec<Location> {
        sites.iter().filter(|s| captures(s)).cloned().collect()
    };
    let starts_in = |sites: &[Location], file: &Edited, name: &Name| {
        sites.iter().filter(|s| s.path == file.path).any(|s| {
            crate::edit::position::to_char(&file.text, s.position)
                .is_ok_and(|start| name.range.contains(&start))
        })
    };
    let (mut lost, mut unproved) = (Vec::new(), Vec::new());
    for file in edited {
        for name in file.names.iter().filter(|n| n.proved) {
            if starts_in(&found.certain, file, name) {
                continue;
            }
            let line = file.text.char_to_line(name.range.start);
            let column = |at: usize| at - file.text.line_to_char(line);
            let at = Location {
                path: file.path.clone(),
                position: crate::edit::Position::new(line, column(name.range.start)),
                end: crate::edit::Position::new(line, column(name.range.end)),
            };
            match starts_in(&found.possible, file, name) {
                true => unproved.push(at),
                false => lost.push(at),
            }
        }
    }
    Some(Captured {
        certain: captured(&found.certain),
        possible: captured(&found.possible),
        lost,
        unproved,
    })
}

/// A renamed use that the new name would make another symbol's.
pub(super) fn shadowed(full_name: &str, new: &str, at: &Location) -> RefactorError {
    RefactorError::new(
        RefactorFailure::NameConflict,
        format!(
            "Name conflict exists: renamed, the use of {full_name} at {at} would be another {new} (a name its scope binds); choose another name"
        ),
    )
    .at(crate::refactor::Argument::NewName)
}

/// A certain capture: the rename would change what the use calls.
pub(super) fn conflict(full_name: &str, new: &str, at: &Location) -> RefactorError {
    RefactorError::new(
        RefactorFailure::NameConflict,
        format!(
            "Name conflict exists: {at} uses {new}, which would then be the renamed {full_name}; choose another name"
        ),
    )
    .at(crate::refactor::Argument::NewName)
}

/// Possible captures: refused unless the request proceeds.
pub(super) fn refusal(full_name: &str, new: &str, sites: &[Location]) -> RefactorError {
    let mut shown: Vec<String> = sites.iter().take(SHOWN).map(ToString::to_string).collect();
    if sites.len() > SHOWN {
        shown.push(format!("… ({} more)", sites.len() - SHOWN));
    }
    let uses = if sites.len() == 1 { "use" } else { "uses" };
    RefactorError::new(
        RefactorFailure::Refused,
        format!(
            "Cannot rename {full_name} to {new}: {} {uses} of {new} may then be the renamed {full_name}: {}; nothing was changed. Include Possible renames it anyway and leaves those uses as they are; or choose another name",
            sites.len(),
            shown.join(", ")
        ),
    )
    .at(crate::refactor::Argument::Sites)
}

/// How many captured sites a refusal names.
const SHOWN: usize = 8;
