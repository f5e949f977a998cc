//! The change between two versions of a text, as a [`ChangeSet`]: how a
//! buffer reloaded from disk maps its cursor and marks.

use ropey::Rope;
use similar::{DiffOp, TextDiff};

use super::ChangeSet;

/// A change that turns `old` into `new`, line by line (the unchanged lines
/// are retained, so positions in them map exactly).
pub fn change_between(old: &Rope, new: &Rope) -> ChangeSet {
    let (old_text, new_text) = (old.to_string(), new.to_string());
    let diff = TextDiff::from_lines(&old_text, &new_text);
    let line_start = |text: &Rope, line: usize| {
        if line >= text.len_lines() {
            text.len_chars()
        } else {
            text.line_to_char(line)
        }
    };
    let edits = diff.ops().iter().filter_map(|op| {
        let (old_range, new_range) = match *op {
            DiffOp::Equal { .. } => return None,
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index..old_index + old_len, new_index..new_index),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index..old_index, new_index..new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (
                old_index..old_index + old_len,
                new_index..new_index + new_len,
            ),
        };
        let from = line_start(old, old_range.start);
        let to = line_start(old, old_range.end);
        let inserted = new.slice(line_start(new, new_range.start)..line_start(new, new_range.end));
        Some((from, to, Some(inserted.to_string())))
    });
    ChangeSet::from_edits(old.len_chars(), edits).expect("diff ops are sorted and inside the text")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Assoc;

    #[test]
    fn turns_the_old_text_into_the_new_and_maps_unchanged_lines_exactly() {
        for (old, new) in [
            ("a\nb\nc\n", "a\nx\nb\nc\n"),
            ("a\nb\nc", "c"),
            ("", "größe\n"),
            ("one\r\ntwo\r\n", "zero\r\none\r\ntwo\r\n"),
            ("same\n", "same\n"),
        ] {
            let (old, new) = (Rope::from_str(old), Rope::from_str(new));
            let change = change_between(&old, &new);
            let mut text = old.clone();
            change.apply(&mut text).unwrap();
            assert_eq!(text, new);
        }
        let old = Rope::from_str("a\nb\nc\n");
        let change = change_between(&old, &Rope::from_str("new\na\nb\nc\n"));
        assert_eq!(change.map_pos(2, Assoc::After), 6, "b moved down a line");
    }
}
