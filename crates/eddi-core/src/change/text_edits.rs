//! One file's edits: char ranges of a base text replaced by new text.

use std::ops::Range;

use ropey::Rope;
use serde::{Deserialize, Serialize};

use crate::edit::{ChangeSet, LineEnding};

/// Replace `range` (chars of the base text) with `insert`. Persisted as
/// `[start, end, insert]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(usize, usize, String)", into = "(usize, usize, String)")]
pub struct Indel {
    pub range: Range<usize>,
    pub insert: String,
}

impl Indel {
    pub fn new(range: Range<usize>, insert: impl Into<String>) -> Indel {
        Indel {
            range,
            insert: insert.into(),
        }
    }

    /// Inserts `text` at char `at`.
    pub fn insert(at: usize, text: impl Into<String>) -> Indel {
        Indel::new(at..at, text)
    }

    /// Deletes the chars of `range`.
    pub fn delete(range: Range<usize>) -> Indel {
        Indel::new(range, "")
    }
}

impl From<(usize, usize, String)> for Indel {
    fn from((start, end, insert): (usize, usize, String)) -> Indel {
        Indel::new(start..end, insert)
    }
}

impl From<Indel> for (usize, usize, String) {
    fn from(indel: Indel) -> (usize, usize, String) {
        (indel.range.start, indel.range.end, indel.insert)
    }
}

/// A checked set of edits of one text.
///
/// **Invariant:** sorted by position and disjoint (ranges may touch; two
/// insertions at one offset keep the order they were given in). Read back
/// from persisted state, the edits go through [`TextEdits::new`] again.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Indel>", into = "Vec<Indel>")]
pub struct TextEdits {
    indels: Vec<Indel>,
}

impl TextEdits {
    /// Sorts the edits and checks that none overlap; on overlap returns the
    /// two ranges. An inverted range (start after end) is refused as
    /// overlapping itself.
    pub fn new(
        indels: impl IntoIterator<Item = Indel>,
    ) -> Result<TextEdits, (Range<usize>, Range<usize>)> {
        let mut indels: Vec<Indel> = indels
            .into_iter()
            .filter(|i| !(i.range.start == i.range.end && i.insert.is_empty()))
            .collect();
        // Every range, the last one too (a pairwise check never sees it first).
        if let Some(bad) = indels.iter().find(|i| i.range.start > i.range.end) {
            return Err((bad.range.clone(), bad.range.clone()));
        }
        indels.sort_by_key(|i| (i.range.start, i.range.end));
        for pair in indels.windows(2) {
            if pair[0].range.end > pair[1].range.start {
                return Err((pair[0].range.clone(), pair[1].range.clone()));
            }
        }
        Ok(TextEdits { indels })
    }

    /// Both sets of edits; fails on the first overlap.
    pub fn union(self, other: TextEdits) -> Result<TextEdits, (Range<usize>, Range<usize>)> {
        TextEdits::new(self.indels.into_iter().chain(other.indels))
    }

    pub fn iter(&self) -> impl Iterator<Item = &Indel> {
        self.indels.iter()
    }

    pub fn len(&self) -> usize {
        self.indels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.indels.is_empty()
    }

    /// The edits as one document's change set, inserted text in the
    /// document's line-ending style (its `\n` breaks; a `\r\n` it holds is
    /// the document's own bytes, taken verbatim: a capture of a file of
    /// mixed endings); fails when a range lies outside a text of `len`
    /// chars.
    pub fn to_change_set(
        &self,
        len: usize,
        line_ending: LineEnding,
    ) -> Result<ChangeSet, crate::edit::ChangeError> {
        ChangeSet::from_edits(
            len,
            self.indels.iter().map(|i| {
                (
                    i.range.start,
                    i.range.end,
                    Some(line_ending.apply_to_inserted(&i.insert)),
                )
            }),
        )
    }

    /// The base text with the edits applied (for previews and commits).
    pub fn apply(&self, base: &Rope) -> Result<Rope, crate::edit::ChangeError> {
        let mut text = base.clone();
        self.to_change_set(base.len_chars(), LineEnding::detect(base))?
            .apply(&mut text)?;
        Ok(text)
    }
}

impl TryFrom<Vec<Indel>> for TextEdits {
    type Error = String;

    fn try_from(indels: Vec<Indel>) -> Result<TextEdits, String> {
        TextEdits::new(indels).map_err(|(first, second)| {
            if first.start > first.end {
                format!("inverted edit range {first:?}")
            } else {
                format!("overlapping edits at chars {first:?} and {second:?}")
            }
        })
    }
}

impl From<TextEdits> for Vec<Indel> {
    fn from(edits: TextEdits) -> Vec<Indel> {
        edits.indels
    }
}
