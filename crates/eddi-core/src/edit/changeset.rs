//! A [`ChangeSet`] describes a whole edit of one document as data.
//!
//! It is a list of operations that walks the old document from start to end
//! (as in helix-core): `Retain(n)` keeps `n` chars, `Delete(n)` drops `n`
//! chars, `Insert(text)` adds text. Because it covers the whole document it
//! knows the length it applies to, and [`ChangeSet::apply`] refuses a
//! document of any other length: a stale edit fails loudly instead of
//! corrupting text.
//!
//! The algebra: [`ChangeSet::invert`] (computed against the original text,
//! *before* applying) gives the undo, [`ChangeSet::compose`] merges two
//! consecutive edits into one, and [`ChangeSet::map_pos`] moves a position
//! through the edit so cursors and bookmarks stay on the same code.
//!
//! All lengths and offsets are in chars (Unicode scalar values).

use ropey::Rope;
use serde::{Deserialize, Serialize};

/// One step of a change set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Operation {
    Retain(usize),
    Delete(usize),
    Insert(String),
}

/// Which side of an insertion a mapped position sticks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assoc {
    /// Stay before text inserted exactly at the position.
    Before,
    /// Move past text inserted exactly at the position.
    After,
}

/// Why a change set cannot be built or applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeError {
    #[error("edit applies to a document of {expected} chars, but it has {actual}")]
    LengthMismatch { expected: usize, actual: usize },
    #[error("edit range {from}..{to} is invalid for a document of {len} chars")]
    BadRange { from: usize, to: usize, len: usize },
    #[error("edits overlap or are not sorted at {at}")]
    Unsorted { at: usize },
}

/// A normalised, whole-document edit.
///
/// Invariants (kept by the private builder methods): no two neighbouring
/// operations of the same kind, no empty operations, and an `Insert` always
/// comes before a neighbouring `Delete`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeSet {
    ops: Vec<Operation>,
    /// Length in chars of the document this applies to.
    len: usize,
    /// Length in chars of the document after applying.
    len_after: usize,
}

impl ChangeSet {
    /// The identity edit for a document of `len` chars.
    pub fn identity(len: usize) -> Self {
        let mut set = ChangeSet {
            ops: Vec::new(),
            len,
            len_after: 0,
        };
        set.retain(len);
        set
    }

    /// Builds a change set from `(from, to, replacement)` edits in char
    /// offsets of the old document, sorted and non-overlapping.
    pub fn from_edits<I, S>(len: usize, edits: I) -> Result<Self, ChangeError>
    where
        I: IntoIterator<Item = (usize, usize, Option<S>)>,
        S: AsRef<str>,
    {
        let mut set = ChangeSet {
            ops: Vec::new(),
            len,
            len_after: 0,
        };
        let mut last = 0;
        for (from, to, text) in edits {
            if from > to || to > len {
                return Err(ChangeError::BadRange { from, to, len });
            }
            if from < last {
                return Err(ChangeError::Unsorted { at: from });
            }
            set.retain(from - last);
            if let Some(text) = text {
                set.insert(text.as_ref());
            }
            set.delete(to - from);
            last = to;
        }
        set.retain(len - last);
        Ok(set)
    }

    /// Replaces `from..to` with `text`: the common single edit.
    pub fn replace(len: usize, from: usize, to: usize, text: &str) -> Result<Self, ChangeError> {
        Self::from_edits(len, [(from, to, Some(text))])
    }

    pub fn ops(&self) -> &[Operation] {
        &self.ops
    }

    /// Length of the document this change set applies to.
    pub fn len_before(&self) -> usize {
        self.len
    }

    pub fn len_after(&self) -> usize {
        self.len_after
    }

    /// True when applying changes nothing.
    pub fn is_identity(&self) -> bool {
        self.ops.iter().all(|op| matches!(op, Operation::Retain(_)))
    }

    fn retain(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.len_after += n;
        if let Some(Operation::Retain(count)) = self.ops.last_mut() {
            *count += n;
        } else {
            self.ops.push(Operation::Retain(n));
        }
    }

    fn delete(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        if let Some(Operation::Delete(count)) = self.ops.last_mut() {
            *count += n;
        } else {
            self.ops.push(Operation::Delete(n));
        }
    }

    fn insert(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.len_after += text.chars().count();
        match self.ops.as_mut_slice() {
            [.., Operation::Insert(prev)] | [.., Operation::Insert(prev), Operation::Delete(_)] => {
                prev.push_str(text);
            }
            [.., last @ Operation::Delete(_)] => {
                let delete = std::mem::replace(last, Operation::Insert(text.to_owned()));
                self.ops.push(delete);
            }
            _ => self.ops.push(Operation::Insert(text.to_owned())),
        }
    }

    /// Applies the change to `text`, or refuses (leaving it untouched) when
    /// the document's length is not the one this change set was built for.
    pub fn apply(&self, text: &mut Rope) -> Result<(), ChangeError> {
        if text.len_chars() != self.len {
            return Err(ChangeError::LengthMismatch {
                expected: self.len,
                actual: text.len_chars(),
            });
        }
        let mut pos = 0;
        for op in &self.ops {
            match op {
                Operation::Retain(n) => pos += n,
                Operation::Delete(n) => text.remove(pos..pos + n),
                Operation::Insert(s) => {
                    text.insert(pos, s);
                    pos += s.chars().count();
                }
            }
        }
        Ok(())
    }

    /// The change that undoes this one. `original` is the text *before*
    /// this change was applied (deleted text is sliced from it).
    pub fn invert(&self, original: &Rope) -> ChangeSet {
        debug_assert_eq!(original.len_chars(), self.len);
        let mut inverse = ChangeSet {
            ops: Vec::with_capacity(self.ops.len()),
            len: self.len_after,
            len_after: 0,
        };
        let mut pos = 0;
        for op in &self.ops {
            match op {
                Operation::Retain(n) => {
                    inverse.retain(*n);
                    pos += n;
                }
                Operation::Delete(n) => {
                    let end = (pos + n).min(original.len_chars());
                    inverse.insert(&original.slice(pos..end).to_string());
                    pos += n;
                }
                Operation::Insert(s) => inverse.delete(s.chars().count()),
            }
        }
        inverse
    }

    /// Composes `self` (A → B) with `next` (B → C) into one change A → C.
    pub fn compose(self, next: ChangeSet) -> Result<ChangeSet, ChangeError> {
        use std::cmp::Ordering::*;
        use Operation::*;

        if self.len_after != next.len {
            return Err(ChangeError::LengthMismatch {
                expected: next.len,
                actual: self.len_after,
            });
        }
        let mut out = ChangeSet {
            ops: Vec::with_capacity(self.ops.len() + next.ops.len()),
            len: self.len,
            len_after: 0,
        };
        let mut first = self.ops.into_iter();
        let mut second = next.ops.into_iter();
        let mut a = first.next();
        let mut b = second.next();
        loop {
            match (a, b) {
                (None, None) => break,
                // What A deletes, B never sees.
                (Some(Delete(n)), head_b) => {
                    out.delete(n);
                    a = first.next();
                    b = head_b;
                }
                // What B inserts, A never had.
                (head_a, Some(Insert(s))) => {
                    out.insert(&s);
                    a = head_a;
                    b = second.next();
                }
                (None, Some(_)) | (Some(_), None) => {
                    unreachable!("lengths were checked: both sides cover the middle document")
                }
                (Some(Retain(i)), Some(Retain(j))) => match i.cmp(&j) {
                    Less => {
                        out.retain(i);
                        a = first.next();
                        b = Some(Retain(j - i));
                    }
                    Equal => {
                        out.retain(i);
                        a = first.next();
                        b = second.next();
                    }
                    Greater => {
                        out.retain(j);
                        a = Some(Retain(i - j));
                        b = second.next();
                    }
                },
                (Some(Insert(s)), Some(Delete(j))) => {
                    let len = s.chars().count();
                    match len.cmp(&j) {
                        Less => {
                            a = first.next();
                            b = Some(Delete(j - len));
                        }
                        Equal => {
                            a = first.next();
                            b = second.next();
                        }
                        Greater => {
                            a = Some(Insert(skip_chars(&s, j).to_owned()));
                            b = second.next();
                        }
                    }
                }
                (Some(Insert(s)), Some(Retain(j))) => {
                    let len = s.chars().count();
                    match len.cmp(&j) {
                        Less => {
                            out.insert(&s);
                            a = first.next();
                            b = Some(Retain(j - len));
                        }
                        Equal => {
                            out.insert(&s);
                            a = first.next();
                            b = second.next();
                        }
                        Greater => {
                            let split = byte_index(&s, j);
                            out.insert(&s[..split]);
                            a = Some(Insert(s[split..].to_owned()));
                            b = second.next();
                        }
                    }
                }
                (Some(Retain(i)), Some(Delete(j))) => match i.cmp(&j) {
                    Less => {
                        out.delete(i);
                        a = first.next();
                        b = Some(Delete(j - i));
                    }
                    Equal => {
                        out.delete(j);
                        a = first.next();
                        b = second.next();
                    }
                    Greater => {
                        out.delete(j);
                        a = Some(Retain(i - j));
                        b = second.next();
                    }
                },
            }
        }
        Ok(out)
    }

    /// Maps a char offset of the old document to the new one.
    pub fn map_pos(&self, pos: usize, assoc: Assoc) -> usize {
        let mut old_pos = 0;
        let mut new_pos = 0;
        let mut ops = self.ops.iter().peekable();
        while let Some(op) = ops.next() {
            match op {
                Operation::Retain(n) => {
                    if old_pos + n > pos {
                        return new_pos + (pos - old_pos);
                    }
                    old_pos += n;
                    new_pos += n;
                }
                Operation::Insert(s) => {
                    let inserted = s.chars().count();
                    // An insert followed by a delete is a replacement.
                    let deleted = match ops.peek() {
                        Some(Operation::Delete(d)) => {
                            ops.next();
                            *d
                        }
                        _ => 0,
                    };
                    if pos == old_pos && assoc == Assoc::Before {
                        return new_pos;
                    }
                    if pos < old_pos + deleted {
                        // Inside replaced text: go to its start or its end.
                        return match assoc {
                            Assoc::Before => new_pos,
                            Assoc::After => new_pos + inserted,
                        };
                    }
                    old_pos += deleted;
                    new_pos += inserted;
                }
                Operation::Delete(n) => {
                    if pos < old_pos + n {
                        return new_pos;
                    }
                    old_pos += n;
                }
            }
        }
        new_pos
    }

    /// The edits as `(from, to, inserted)` in old-document char offsets,
    /// sorted: what tree-sitter and summaries need.
    pub fn edits(&self) -> Vec<(usize, usize, &str)> {
        let mut out = Vec::new();
        let mut pos = 0;
        let mut ops = self.ops.iter().peekable();
        while let Some(op) = ops.next() {
            match op {
                Operation::Retain(n) => pos += n,
                Operation::Delete(n) => {
                    out.push((pos, pos + n, ""));
                    pos += n;
                }
                Operation::Insert(s) => {
                    let deleted = match ops.peek() {
                        Some(Operation::Delete(d)) => {
                            ops.next();
                            *d
                        }
                        _ => 0,
                    };
                    out.push((pos, pos + deleted, s.as_str()));
                    pos += deleted;
                }
            }
        }
        out
    }
}

fn byte_index(s: &str, chars: usize) -> usize {
    s.char_indices().nth(chars).map_or(s.len(), |(i, _)| i)
}

fn skip_chars(s: &str, chars: usize) -> &str {
    &s[byte_index(s, chars)..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rope(s: &str) -> Rope {
        Rope::from_str(s)
    }

    #[test]
    fn apply_then_invert_restores_multibyte_text() {
        let original = rope("hello 世界!");
        let change = ChangeSet::from_edits(
            original.len_chars(),
            [(6, 8, Some("🎉 wide")), (9, 9, Some("?"))],
        )
        .unwrap();
        let mut text = original.clone();
        let undo = change.invert(&original);
        change.apply(&mut text).unwrap();
        assert_eq!(text.to_string(), "hello 🎉 wide!?");
        undo.apply(&mut text).unwrap();
        assert_eq!(text, original);
    }

    #[test]
    fn refuses_a_document_of_another_length() {
        let change = ChangeSet::replace(5, 0, 1, "x").unwrap();
        let mut text = rope("abc");
        assert_eq!(
            change.apply(&mut text),
            Err(ChangeError::LengthMismatch {
                expected: 5,
                actual: 3
            })
        );
        assert_eq!(text.to_string(), "abc");
    }

    #[test]
    fn compose_equals_sequential_application() {
        let mut text = rope("abcdef");
        let a = ChangeSet::replace(6, 1, 3, "XYZ").unwrap(); // aXYZdef
        let b = ChangeSet::from_edits(7, [(0, 1, None::<&str>), (5, 7, Some("!"))]).unwrap(); // XYZd!
        let composed = a.clone().compose(b.clone()).unwrap();
        let mut sequential = text.clone();
        a.apply(&mut sequential).unwrap();
        b.apply(&mut sequential).unwrap();
        composed.apply(&mut text).unwrap();
        assert_eq!(text, sequential);
        assert_eq!(text.to_string(), "XYZd!");
    }

    #[test]
    fn maps_positions_around_an_insertion() {
        let change = ChangeSet::replace(10, 4, 4, "abc").unwrap();
        assert_eq!(change.map_pos(2, Assoc::After), 2);
        assert_eq!(change.map_pos(4, Assoc::Before), 4);
        assert_eq!(change.map_pos(4, Assoc::After), 7);
        assert_eq!(change.map_pos(8, Assoc::Before), 11);
        assert_eq!(change.map_pos(10, Assoc::Before), 13);
    }

    #[test]
    fn maps_positions_inside_a_deletion_to_its_start() {
        let change = ChangeSet::from_edits(10, [(2, 6, None::<&str>)]).unwrap();
        assert_eq!(change.map_pos(4, Assoc::After), 2);
        assert_eq!(change.map_pos(7, Assoc::After), 3);
    }

    #[test]
    fn rejects_overlapping_edits() {
        let err = ChangeSet::from_edits(10, [(2, 6, Some("a")), (4, 5, Some("b"))]).unwrap_err();
        assert_eq!(err, ChangeError::Unsorted { at: 4 });
    }

    #[test]
    fn lists_edits_in_old_coordinates() {
        let change =
            ChangeSet::from_edits(10, [(1, 2, Some("xy")), (5, 5, Some("z")), (7, 9, None)])
                .unwrap();
        assert_eq!(change.edits(), vec![(1, 2, "xy"), (5, 5, "z"), (7, 9, "")]);
    }
}
