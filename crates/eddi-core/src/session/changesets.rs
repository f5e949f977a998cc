//! A session's named changesets: [`WorkspaceChange`]s collected under a
//! name, to be previewed, applied as one commit and one undo step, and
//! rolled back (the scripting language's `collect changes as`,
//! `apply changeset`, `rollback changeset`, `preview changeset`).
//!
//! This is the storage; the commands come with the scripting language.
//! The session changes it only by replaying the `Changeset*` events, so a
//! journal replays every changeset exactly.
//!
//! **Invariants:**
//! - a name is 1–64 of `A-Z a-z 0-9 _ . -` (the command language's name
//!   rule), compared exactly; names are unique within a session;
//! - a changeset's change is always a valid union of the changes added to
//!   it: adding one that conflicts (another base for a file, overlapping
//!   edits, a move onto a changed file …) fails and changes nothing;
//! - the bases are kept as computed: the session never rebases a
//!   changeset, so applying a stale one is refused by the applier rather
//!   than guessed;
//! - an applied changeset names the step that applied it (a step of the
//!   session, claimed by no other changeset), which is what rollback
//!   undoes; nothing is added to it while it is applied.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::change::{ChangeError, WorkspaceChange};

use super::Step;

/// A valid changeset name; see the module doc for the rule.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct ChangesetName(String);

impl ChangesetName {
    pub fn new(name: impl Into<String>) -> Result<ChangesetName, ChangesetError> {
        let name = name.into();
        if crate::commands::parser::is_valid_name(&name) {
            Ok(ChangesetName(name))
        } else {
            Err(ChangesetError::InvalidName(name))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for ChangesetName {
    type Error = ChangesetError;

    fn try_from(name: String) -> Result<ChangesetName, ChangesetError> {
        ChangesetName::new(name)
    }
}

impl From<ChangesetName> for String {
    fn from(name: ChangesetName) -> String {
        name.0
    }
}

impl Borrow<str> for ChangesetName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ChangesetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a changeset stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ChangesetState {
    /// Collecting changes; not applied.
    Open,
    /// Applied as the session's multi-file step `step` (one commit, one
    /// undo step): rolling back undoes that step.
    Applied { step: u64 },
    /// Was applied as `step`, which was then undone; it may be applied
    /// again (as a new step) or added to.
    RolledBack { step: u64 },
}

/// One named changeset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedChangeset {
    /// The union of every change added, each file with the base it was
    /// computed against.
    pub change: WorkspaceChange,
    /// When it was created and last changed (added to, applied, rolled
    /// back), as the events said (RFC 3339).
    pub created: String,
    pub updated: String,
    /// How many changes were added to it.
    pub additions: usize,
    pub state: ChangesetState,
}

/// Why a changeset event does not fit the session (a bug in the engine,
/// or a corrupt journal); the commands check the same before they emit one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangesetError {
    #[error("invalid changeset name '{0}': use 1-64 of A-Z a-z 0-9 _ . -")]
    InvalidName(String),
    #[error("changeset '{0}' already exists: choose another name, or drop it first")]
    Exists(ChangesetName),
    #[error("no changeset '{0}'")]
    NotFound(String),
    #[error("changeset '{name}' is applied (step {step}): roll it back before changing it")]
    Applied { name: ChangesetName, step: u64 },
    #[error("changeset '{0}' is not applied: nothing to roll back")]
    NotApplied(ChangesetName),
    #[error("the change does not join changeset '{name}': {source}")]
    Conflict {
        name: ChangesetName,
        source: ChangeError,
    },
    #[error("changeset '{name}' names step {step}, which the session does not have")]
    UnknownStep { name: ChangesetName, step: u64 },
    #[error("changeset '{name}' names step {step}, which already applied changeset '{other}'")]
    StepTaken {
        name: ChangesetName,
        step: u64,
        other: ChangesetName,
    },
}

/// A session's named changesets, by name. Read freely; changed only by
/// `Session::replay` (the `pub(super)` methods below, one per event).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Changesets(BTreeMap<ChangesetName, NamedChangeset>);

impl Changesets {
    pub fn get(&self, name: &str) -> Option<&NamedChangeset> {
        self.0.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&ChangesetName, &NamedChangeset)> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn create(&mut self, name: &ChangesetName, at: &str) -> Result<(), ChangesetError> {
        if self.0.contains_key(name) {
            return Err(ChangesetError::Exists(name.clone()));
        }
        self.0.insert(
            name.clone(),
            NamedChangeset {
                change: WorkspaceChange::new(),
                created: at.to_owned(),
                updated: at.to_owned(),
                additions: 0,
                state: ChangesetState::Open,
            },
        );
        Ok(())
    }

    /// Joins `change` to the changeset; on any conflict nothing changes.
    pub(super) fn add_change(
        &mut self,
        name: &ChangesetName,
        change: &WorkspaceChange,
        at: &str,
    ) -> Result<(), ChangesetError> {
        let set = self.get_mut(name)?;
        if let ChangesetState::Applied { step } = set.state {
            return Err(ChangesetError::Applied {
                name: name.clone(),
                step,
            });
        }
        let joined = set.change.clone().union(change.clone()).map_err(|source| {
            ChangesetError::Conflict {
                name: name.clone(),
                source,
            }
        })?;
        set.change = joined;
        set.additions += 1;
        set.updated = at.to_owned();
        Ok(())
    }

    /// Records that step `step` of the session applied the changeset.
    pub(super) fn mark_applied(
        &mut self,
        name: &ChangesetName,
        step: u64,
        at: &str,
        steps: &BTreeMap<u64, Step>,
    ) -> Result<(), ChangesetError> {
        if !steps.contains_key(&step) {
            return Err(ChangesetError::UnknownStep {
                name: name.clone(),
                step,
            });
        }
        if let Some((other, _)) = self
            .0
            .iter()
            .find(|(_, set)| set.state == ChangesetState::Applied { step })
        {
            return Err(ChangesetError::StepTaken {
                name: name.clone(),
                step,
                other: other.clone(),
            });
        }
        let set = self.get_mut(name)?;
        if let ChangesetState::Applied { step } = set.state {
            return Err(ChangesetError::Applied {
                name: name.clone(),
                step,
            });
        }
        set.state = ChangesetState::Applied { step };
        set.updated = at.to_owned();
        Ok(())
    }

    /// Records that the changeset's step was undone.
    pub(super) fn mark_rolled_back(
        &mut self,
        name: &ChangesetName,
        at: &str,
    ) -> Result<(), ChangesetError> {
        let set = self.get_mut(name)?;
        let ChangesetState::Applied { step } = set.state else {
            return Err(ChangesetError::NotApplied(name.clone()));
        };
        set.state = ChangesetState::RolledBack { step };
        set.updated = at.to_owned();
        Ok(())
    }

    pub(super) fn remove(&mut self, name: &ChangesetName) -> Result<(), ChangesetError> {
        self.0
            .remove(name)
            .map(|_| ())
            .ok_or_else(|| ChangesetError::NotFound(name.to_string()))
    }

    /// Checks what spans changesets and steps, for a snapshot read back
    /// (each changeset's own fields are checked as they deserialize).
    pub(super) fn check(&self, steps: &BTreeMap<u64, Step>) -> Result<(), ChangesetError> {
        let mut claimed: BTreeMap<u64, &ChangesetName> = BTreeMap::new();
        for (name, set) in &self.0 {
            let ChangesetState::Applied { step } = set.state else {
                continue;
            };
            if !steps.contains_key(&step) {
                return Err(ChangesetError::UnknownStep {
                    name: name.clone(),
                    step,
                });
            }
            if let Some(other) = claimed.insert(step, name) {
                return Err(ChangesetError::StepTaken {
                    name: name.clone(),
                    step,
                    other: other.clone(),
                });
            }
        }
        Ok(())
    }

    fn get_mut(&mut self, name: &ChangesetName) -> Result<&mut NamedChangeset, ChangesetError> {
        self.0
            .get_mut(name)
            .ok_or_else(|| ChangesetError::NotFound(name.to_string()))
    }
}

#[cfg(test)]
mod tests;
