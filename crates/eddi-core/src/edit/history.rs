//! Per-document undo/redo history.
//!
//! A linear list of revisions with a cursor: `revisions[..applied]` are in
//! the document, the rest can be redone. Each revision keeps its change and
//! its inverse (computed before the change was applied), so undo and redo
//! are exact and never re-derive anything from the current text.
//!
//! Known limitations: committing after an undo drops the redo tail (no
//! revision tree as in helix), and the history grows without bound for the
//! life of the buffer.

use serde::{Deserialize, Serialize};

use super::{ChangeError, ChangeSet, Position};

/// One undoable step: a change, its inverse, and where the cursor was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revision {
    pub change: ChangeSet,
    pub inverse: ChangeSet,
    pub cursor_before: Position,
    pub cursor_after: Position,
    /// The step this revision is part of when one step changed several
    /// documents (a multi-file change): they undo and redo together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    revisions: Vec<Revision>,
    /// Number of revisions currently applied to the document.
    applied: usize,
}

impl History {
    /// Records a revision that has just been applied; drops the redo tail.
    pub fn commit(&mut self, revision: Revision) {
        self.revisions.truncate(self.applied);
        self.revisions.push(revision);
        self.applied += 1;
    }

    /// Folds a further change into the last revision, so several edits
    /// undo as one step (a `Replace Confirm` walk). `inverse` undoes `change`.
    pub fn amend_last(
        &mut self,
        change: ChangeSet,
        inverse: ChangeSet,
        cursor_after: Position,
    ) -> Result<(), ChangeError> {
        let Some(last) = self
            .applied
            .checked_sub(1)
            .and_then(|i| self.revisions.get_mut(i))
        else {
            return Err(ChangeError::LengthMismatch {
                expected: 0,
                actual: 0,
            });
        };
        last.change = last.change.clone().compose(change)?;
        last.inverse = inverse.compose(last.inverse.clone())?;
        last.cursor_after = cursor_after;
        self.revisions.truncate(self.applied);
        Ok(())
    }

    /// Steps back one revision and returns it; the caller applies its
    /// `inverse` and restores `cursor_before`.
    pub fn undo(&mut self) -> Option<&Revision> {
        if self.applied == 0 {
            return None;
        }
        self.applied -= 1;
        Some(&self.revisions[self.applied])
    }

    /// Steps forward one revision and returns it; the caller applies its
    /// `change` and restores `cursor_after`.
    pub fn redo(&mut self) -> Option<&Revision> {
        let revision = self.revisions.get(self.applied)?;
        self.applied += 1;
        Some(revision)
    }

    /// How many steps can be undone.
    pub fn undo_depth(&self) -> usize {
        self.applied
    }

    /// How many steps can be redone.
    pub fn redo_depth(&self) -> usize {
        self.revisions.len() - self.applied
    }

    /// An identifier of the current state: equal ids mean equal text, as
    /// long as no commit dropped a redo tail in between (see [`Self::generation`]).
    pub fn position(&self) -> usize {
        self.applied
    }

    /// Total number of revisions ever kept; together with [`Self::position`]
    /// it tells whether a remembered state still exists.
    pub fn len(&self) -> usize {
        self.revisions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.revisions.is_empty()
    }

    /// The revisions undo steps back over, most recent first.
    pub fn undo_stack(&self) -> impl Iterator<Item = &Revision> {
        self.revisions[..self.applied].iter().rev()
    }

    /// The revisions redo applies, next first.
    pub fn redo_stack(&self) -> impl Iterator<Item = &Revision> {
        self.revisions[self.applied..].iter()
    }
}

#[cfg(test)]
mod tests {
    use ropey::Rope;

    use super::*;

    #[test]
    fn undo_and_redo_walk_the_revisions() {
        let mut text = Rope::from_str("abc");
        let mut history = History::default();
        for insert in ["x", "y"] {
            let change = ChangeSet::replace(text.len_chars(), 0, 0, insert).unwrap();
            let inverse = change.invert(&text);
            change.apply(&mut text).unwrap();
            history.commit(Revision {
                change,
                inverse,
                cursor_before: Position::ZERO,
                cursor_after: Position::new(0, 1),
                group: None,
            });
        }
        assert_eq!(text.to_string(), "yxabc");
        let rev = history.undo().unwrap().clone();
        rev.inverse.apply(&mut text).unwrap();
        assert_eq!(text.to_string(), "xabc");
        assert_eq!((history.undo_depth(), history.redo_depth()), (1, 1));
        let rev = history.redo().unwrap().clone();
        rev.change.apply(&mut text).unwrap();
        assert_eq!(text.to_string(), "yxabc");
        assert!(history.redo().is_none());
    }
}
