//! What an edit of a definition in one file leaves unchanged in the others.
//!
//! `Modify … Rename`/`SetVisibility` and `Delete Function|Class|Method`
//! work in the current file only; the uses of the old name in other files
//! then resolve to nothing. `RemoveParam`, `ChangeSignature`, an
//! `AddParam` without a default and renaming a parameter
//! (`Variable f.param`) change no call. Instead of answering a
//! plain `Ok`, the reply says how many such places there are and where
//! (the first few, `path:line`; for a deletion and a signature change also
//! in the file itself), using the project index after the edit:
//! the renamed or deleted name's *unresolved* uses (what `Find References`
//! of the old name lists from then on), the changed function's callers.

use crate::analysis::index::Location;
use crate::analysis::modify::visible_name;
use crate::commands::{Command, DeleteTarget, Modification};
use crate::reply::plural;
use crate::session::Session;

use super::context::Ctx;
use super::Engine;

/// Places shown before the rest is counted.
const SHOWN: usize = 3;

/// What to look for after the command (module-qualified names).
pub(super) enum Leftover {
    Renamed { old: String, new: String },
    Deleted { old: String },
    Resigned { function: String },
}

impl Leftover {
    /// Before `command` runs: what it may leave behind, if anything.
    pub(super) fn of(ctx: &mut Ctx<'_>, command: &Command) -> Option<Leftover> {
        match command {
            Command::Modify { target, change } => {
                let renamed_to = |old: &str| -> Option<String> {
                    let name = old.rsplit('.').next().unwrap_or(old);
                    match change {
                        Modification::Rename { new_name } => Some(new_name.clone()),
                        Modification::SetVisibility { visibility } => {
                            visible_name(name, *visibility).ok()
                        }
                        _ => None,
                    }
                };
                match change {
                    Modification::Rename { .. } | Modification::SetVisibility { .. } => {
                        match ctx.importable_name(target) {
                            Some(old) => {
                                let new = renamed_to(&old)?;
                                Some(Leftover::Renamed { old, new })
                            }
                            // a parameter: its function's signature changes
                            None => Some(Leftover::Resigned {
                                function: ctx.parameter_of(target)?,
                            }),
                        }
                    }
                    Modification::AddParam { param, .. }
                        if param.contains('=') || param.trim_start().starts_with('*') =>
                    {
                        None
                    }
                    Modification::AddParam { .. }
                    | Modification::RemoveParam { .. }
                    | Modification::ChangeSignature { .. } => Some(Leftover::Resigned {
                        function: ctx.importable_name(target)?,
                    }),
                    Modification::AddDecorator { .. } => None,
                }
            }
            Command::Delete(DeleteTarget::Code(target)) => Some(Leftover::Deleted {
                old: ctx.importable_name(target)?,
            }),
            _ => None,
        }
    }
}

impl Engine {
    /// After the command succeeded in `path`: the note on what it left.
    pub(super) fn leftover_note(
        &self,
        session: &Session,
        leftover: &Leftover,
        path: &str,
    ) -> Option<String> {
        let places =
            |calls: Vec<crate::analysis::index::Call>, other_files: bool| -> Vec<Location> {
                calls
                    .into_iter()
                    .map(|c| c.location)
                    .filter(|l| !other_files || l.path != path)
                    .collect()
            };
        match leftover {
            Leftover::Renamed { old, new } => {
                let left = places(
                    self.with_index(session, |index, _, _| index.find_unresolved(old, false)),
                    true,
                );
                (!left.is_empty()).then(|| {
                    format!(
                        "not changed: {}; cross-file rename: Refactor RenameSymbol {old} {new}",
                        in_other_files(&left)
                    )
                })
            }
            Leftover::Deleted { old } => {
                // uses left in this file are broken too
                let left = places(
                    self.with_index(session, |index, _, _| index.find_unresolved(old, false)),
                    false,
                );
                (!left.is_empty()).then(|| {
                    let n = left.len();
                    format!(
                        "still used: {n} {} ({})",
                        plural(n, "reference"),
                        first_places(&left)
                    )
                })
            }
            Leftover::Resigned { function } => {
                let calls = self.with_index(session, |index, _, _| {
                    index.find_callers_from(function, Some(path)).ok()
                })?;
                let left = places(calls.certain, false);
                (!left.is_empty()).then(|| {
                    let n = left.len();
                    format!("calls not updated: {n} ({})", first_places(&left))
                })
            }
        }
    }
}

/// `5 references in other files (b.py:1, b.py:5, c.py:2, …)`.
fn in_other_files(left: &[Location]) -> String {
    let n = left.len();
    format!(
        "{n} {} in other files ({})",
        plural(n, "reference"),
        first_places(left)
    )
}

/// The first few places as `path:line`, `…` when there are more.
fn first_places(left: &[Location]) -> String {
    let mut shown: Vec<String> = left
        .iter()
        .take(SHOWN)
        .map(|l| format!("{}:{}", l.path, l.position.line))
        .collect();
    if left.len() > SHOWN {
        shown.push("…".to_string());
    }
    shown.join(", ")
}
