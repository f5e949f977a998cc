//! Edits as data: [`TextEdit`] (a char range replaced by text) and
//! [`EditResult`] (edits plus where the cursor goes). Nothing here mutates a
//! document the caller owns; [`apply`] works on a clone for tests and for
//! computing positions in the edited text.
//!
//! Invariant of every `Vec<TextEdit>` produced by this module tree: sorted by
//! `start`, non-overlapping, offsets into the *current* text. Inserted text
//! uses `'\n'` line endings; the caller converts to the file's ending.

use ropey::Rope;

use super::error::{AnalysisError, Result};
use super::syntax::CharEdit;
use crate::edit::Position;

/// Replace chars `start..end` of the current text with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl TextEdit {
    pub fn insert(at: usize, text: impl Into<String>) -> Self {
        TextEdit {
            start: at,
            end: at,
            text: text.into(),
        }
    }

    pub fn replace(range: std::ops::Range<usize>, text: impl Into<String>) -> Self {
        TextEdit {
            start: range.start,
            end: range.end,
            text: text.into(),
        }
    }

    pub fn delete(range: std::ops::Range<usize>) -> Self {
        Self::replace(range, "")
    }
}

/// The outcome of an edit computation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EditResult {
    /// Sorted, non-overlapping; empty when nothing had to change.
    pub edits: Vec<TextEdit>,
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
    pub fn text_edits(&self) -> Result<crate::change::TextEdits> {
        crate::change::TextEdits::new(
            self.edits
                .iter()
                .map(|e| crate::change::Indel::new(e.start..e.end, e.text.clone())),
        )
        .map_err(|(a, b)| {
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
                let removed = text
                    .slice(e.start.min(text.len_chars())..e.end.min(text.len_chars()))
                    .chars()
                    .filter(|c| *c == '\n')
                    .count() as isize;
                e.text.matches('\n').count() as isize - removed
            })
            .sum()
    }
}

/// Applies edits to a copy of `text`. Fails on unsorted, overlapping or
/// out-of-range edits.
pub fn apply(text: &Rope, edits: &[TextEdit]) -> Result<Rope> {
    check(text, edits)?;
    let mut out = text.clone();
    for e in edits.iter().rev() {
        out.remove(e.start..e.end);
        out.insert(e.start, &e.text);
    }
    Ok(out)
}

/// Verifies the invariant: sorted, non-overlapping, inside the text.
pub fn check(text: &Rope, edits: &[TextEdit]) -> Result<()> {
    let mut last_end = 0;
    for e in edits {
        if e.start > e.end || e.end > text.len_chars() || e.start < last_end {
            return Err(AnalysisError::InvalidEdit(format!(
                "edit {}..{} is out of order, overlapping or outside the text ({} chars)",
                e.start,
                e.end,
                text.len_chars()
            )));
        }
        last_end = e.end;
    }
    Ok(())
}

/// The [`CharEdit`]s that bring a [`SyntaxTree`] in step after `edits` were
/// applied: the edits in reverse order (as [`apply`] applies them), so each
/// is relative to the text after the previous ones.
///
/// [`SyntaxTree`]: super::SyntaxTree
pub fn char_edits(edits: &[TextEdit]) -> Vec<CharEdit> {
    edits
        .iter()
        .rev()
        .map(|e| CharEdit {
            start: e.start,
            old_end: e.end,
            new_end: e.start + e.text.chars().count(),
        })
        .collect()
}

/// Maps a char offset of the old text to the new text (an offset inside a
/// replaced range moves to the end of its replacement).
pub fn map_offset(edits: &[TextEdit], offset: usize) -> usize {
    let mut delta: isize = 0;
    for e in edits {
        if e.end <= offset && !(e.start == e.end && e.start == offset) {
            delta += e.text.chars().count() as isize - (e.end - e.start) as isize;
        } else if e.start <= offset && offset < e.end {
            return (e.start as isize + delta) as usize + e.text.chars().count();
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
        let edits = vec![TextEdit::replace(0..1, "HH"), TextEdit::insert(6, "big ")];
        assert_eq!(
            apply(&text, &edits).unwrap().to_string(),
            "HHéllo big wörld"
        );
        assert_eq!(map_offset(&edits, 6), 7);
        assert_eq!(map_offset(&edits, 7), 12);
        let bad = vec![TextEdit::insert(6, "a"), TextEdit::insert(2, "b")];
        assert!(apply(&text, &bad).is_err());
    }

    #[test]
    fn char_edits_keep_a_tree_in_step() {
        let old = Rope::from_str("def f(a):\n    return a\n\nx = 'é'\n");
        let edits = vec![
            TextEdit::replace(4..5, "größer"),
            TextEdit::insert(9, "\n    b = 1"),
            TextEdit::replace(28..31, "🎉"),
        ];
        let new = apply(&old, &edits).unwrap();
        let mut tree = super::super::SyntaxTree::parse(&old).unwrap();
        tree.edit(&old, &new, &char_edits(&edits)).unwrap();
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
