//! An edit computation's result: [`EditResult`], the edits (the one edit
//! shape, [`Indel`], that a [`crate::change::WorkspaceChange`] carries) plus
//! where the cursor goes. Nothing here mutates a document the caller owns;
//! [`apply`] works on a clone for tests and for computing positions in the
//! edited text.
//!
//! Invariant of every `Vec<Indel>` produced by this module tree: sorted by
//! start, non-overlapping, offsets into the *current* text. Inserted text
//! uses `'\n'` line endings; the applier writes the file's own.

use ropey::Rope;

use super::error::{AnalysisError, Result};
use crate::change::{Indel, TextEdits};
use crate::edit::Position;

/// The outcome of an edit computation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EditResult {
    /// Sorted, non-overlapping; empty when nothing had to change.
    pub edits: Vec<Indel>,
    /// Where the cursor goes, in the text *after* the edits.
    pub cursor: Position,
    /// The position of the inserted/changed element after the edits (its
    /// `def`/`class` keyword, the import line …), when there is one.
    pub element: Option<Position>,
    /// Why nothing changed, or what else the caller should know
    /// (`already imported`).
    pub note: Option<String>,
}

impl EditResult {
    /// The edits as the one edit shape a change carries (checked: sorted,
    /// disjoint), for a [`crate::change::WorkspaceChange`].
    pub fn text_edits(&self) -> Result<TextEdits> {
        TextEdits::new(self.edits.iter().cloned()).map_err(|(a, b)| {
            AnalysisError::InvalidEdit(format!("overlapping edits at chars {a:?} and {b:?}"))
        })
    }

    /// Lines added (negative: removed) by the edits: newlines inserted minus
    /// newlines deleted. For the spec's `Insert Method` example this is 4
    /// (the PEP 8 blank line and the three lines of the method).
    pub fn lines_added(&self, text: &Rope) -> isize {
        self.edits
            .iter()
            .map(|e| {
                let len = text.len_chars();
                let removed = text
                    .slice(e.range.start.min(len)..e.range.end.min(len))
                    .chars()
                    .filter(|c| *c == '\n')
                    .count() as isize;
                e.insert.matches('\n').count() as isize - removed
            })
            .sum()
    }
}

/// Applies edits to a copy of `text`. Fails on unsorted, overlapping or
/// out-of-range edits.
pub fn apply(text: &Rope, edits: &[Indel]) -> Result<Rope> {
    check(text, edits)?;
    let mut out = text.clone();
    for e in edits.iter().rev() {
        out.remove(e.range.clone());
        out.insert(e.range.start, &e.insert);
    }
    Ok(out)
}

/// Verifies the invariant: sorted, non-overlapping, inside the text.
pub fn check(text: &Rope, edits: &[Indel]) -> Result<()> {
    let mut last_end = 0;
    for e in edits {
        let (start, end) = (e.range.start, e.range.end);
        if start > end || end > text.len_chars() || start < last_end {
            return Err(AnalysisError::InvalidEdit(format!(
                "edit {}..{} is out of order, overlapping or outside the text ({} chars)",
                start,
                end,
                text.len_chars()
            )));
        }
        last_end = end;
    }
    Ok(())
}

/// Maps a char offset of the old text to the new text (an offset inside a
/// replaced range moves to the end of its replacement).
pub fn map_offset(edits: &[Indel], offset: usize) -> usize {
    let mut delta: isize = 0;
    for e in edits {
        let (start, end, inserted) = (e.range.start, e.range.end, e.insert.chars().count());
        if end <= offset && !(start == end && start == offset) {
            delta += inserted as isize - (end - start) as isize;
        } else if start <= offset && offset < end {
            return (start as isize + delta) as usize + inserted;
        } else {
            break;
        }
    }
    (offset as isize + delta).max(0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_and_map() {
        let text = Rope::from_str("héllo wörld");
        let edits = vec![Indel::new(0..1, "HH"), Indel::insert(6, "big ")];
        assert_eq!(
            apply(&text, &edits).unwrap().to_string(),
            "HHéllo big wörld"
        );
        assert_eq!(map_offset(&edits, 6), 7);
        assert_eq!(map_offset(&edits, 7), 12);
        let bad = vec![Indel::insert(6, "a"), Indel::insert(2, "b")];
        assert!(apply(&text, &bad).is_err());
    }

    #[test]
    fn char_edits_keep_a_tree_in_step() {
        let old = Rope::from_str("def f(a):\n    return a\n\nx = 'é'\n");
        let edits = vec![
            Indel::new(4..5, "größer"),
            Indel::insert(9, "\n    b = 1"),
            Indel::new(28..31, "🎉"),
        ];
        let new = apply(&old, &edits).unwrap();
        let change = TextEdits::new(edits)
            .unwrap()
            .to_change_set(old.len_chars(), crate::edit::LineEnding::Lf)
            .unwrap();
        let mut tree = super::super::SyntaxTree::parse(&old).unwrap();
        tree.edit(&old, &new, &super::super::CharEdit::of_change(&change))
            .unwrap();
        assert_eq!(
            tree.to_sexp(),
            super::super::SyntaxTree::parse(&new).unwrap().to_sexp()
        );
        assert_eq!(
            new.to_string(),
            "def größer(a):\n    b = 1\n    return a\n\nx = 🎉\n"
        );
    }
}
