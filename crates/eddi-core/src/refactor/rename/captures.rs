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
    pub names: Vec<Range<usize>>,
}

/// What the rename would capture.
#[derive(Default)]
pub(super) struct Captured {
    pub certain: Vec<Location>,
    pub possible: Vec<Location>,
}

/// The uses of `new_full_name` after the edits that are none of the
/// renamed sites. `None` when the index cannot find the renamed symbol
/// in the new texts (nothing to compare with).
pub(super) fn captured(
    project: &Project<'_>,
    edited: &[Edited],
    new: &str,
    new_full_name: &str,
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
    let found = after
        .find_references(project.index.root(), new_full_name, None)
        .ok()?;
    // a use written as the new name (an alias's use keeps its own), in
    // none of the renamed sites
    let captures = |at: &Location| -> bool {
        let edited = edited.iter().find(|f| f.path == at.path);
        let source;
        let text = match edited {
            Some(f) => &f.text,
            None => match project.source(&at.path) {
                Ok(s) => {
                    source = s;
                    &source.text
                }
                Err(_) => return true,
            },
        };
        let Ok(start) = crate::edit::position::to_char(text, at.position) else {
            return true;
        };
        let end = start + new.chars().count();
        if end > text.len_chars() || text.slice(start..end) != new {
            return false;
        }
        !edited.is_some_and(|f| f.names.iter().any(|n| n.contains(&start)))
    };
    let captured =
        |sites: Vec<Location>| -> Vec<Location> { sites.into_iter().filter(captures).collect() };
    Some(Captured {
        certain: captured(found.certain),
        possible: captured(found.possible),
    })
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
