//! Positions in a document: `line:col`, both zero-based, columns counted in
//! characters (Unicode scalar values), as the protocol speaks them.
//!
//! Internally the edit model works on char offsets into a [`ropey::Rope`];
//! this module is the one place that converts between the two.

use std::fmt;

use ropey::Rope;
use serde::{Deserialize, Serialize};

/// A cursor position. `col` counts chars, never bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Position {
    pub line: usize,
    pub col: usize,
}

impl Position {
    pub const ZERO: Position = Position { line: 0, col: 0 };

    pub fn new(line: usize, col: usize) -> Self {
        Position { line, col }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// An inclusive range of zero-based lines, `a:b` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRange {
    pub first: usize,
    pub last: usize,
}

impl LineRange {
    pub fn new(first: usize, last: usize) -> Self {
        LineRange { first, last }
    }

    pub fn len(&self) -> usize {
        self.last.saturating_sub(self.first) + 1
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}

impl fmt::Display for LineRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.first, self.last)
    }
}

/// Why a position does not exist in a document; the message names the valid range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("Line {line} out of range: valid lines are 0..{last_line}")]
    LineOutOfRange { line: usize, last_line: usize },
    #[error("Column {col} out of range on line {line}: valid columns are 0..{last_col}")]
    ColumnOutOfRange {
        line: usize,
        col: usize,
        last_col: usize,
    },
}

/// Number of addressable lines: a trailing newline opens one more (empty) line,
/// which is where the cursor goes after inserting whole lines at the end.
pub fn line_count(text: &Rope) -> usize {
    text.len_lines()
}

/// Lines as the protocol counts them (`Length` in `Open`'s reply, the
/// counts of `Inserted`/`Deleted`): an empty text has 0, and a final line
/// break does not open a counted line.
pub fn counted_lines(text: &Rope) -> usize {
    let len = text.len_chars();
    if len == 0 {
        0
    } else if text.char(len - 1) == '\n' {
        text.len_lines() - 1
    } else {
        text.len_lines()
    }
}

/// Length of `line` in chars, without its line terminator.
pub fn line_len(text: &Rope, line: usize) -> usize {
    let slice = text.line(line);
    let mut len = slice.len_chars();
    if len > 0 && slice.char(len - 1) == '\n' {
        len -= 1;
        if len > 0 && slice.char(len - 1) == '\r' {
            len -= 1;
        }
    }
    len
}

/// Converts a position to a char offset, refusing positions past the end of
/// their line or the document.
pub fn to_char(text: &Rope, pos: Position) -> Result<usize, PositionError> {
    let lines = line_count(text);
    if pos.line >= lines {
        return Err(PositionError::LineOutOfRange {
            line: pos.line,
            last_line: lines - 1,
        });
    }
    let len = line_len(text, pos.line);
    if pos.col > len {
        return Err(PositionError::ColumnOutOfRange {
            line: pos.line,
            col: pos.col,
            last_col: len,
        });
    }
    Ok(text.line_to_char(pos.line) + pos.col)
}

/// Converts a char offset (clamped to the document) to a position.
pub fn from_char(text: &Rope, offset: usize) -> Position {
    let offset = offset.min(text.len_chars());
    let line = text.char_to_line(offset);
    let col = offset - text.line_to_char(line);
    // An offset between '\r' and '\n' belongs at the end of the line
    // (the one offset past a line's end that is still on it: checked by
    // its two chars, not by measuring the line — a walk asks thousands)
    let between = col > 0
        && offset < text.len_chars()
        && text.char(offset) == '\n'
        && text.char(offset - 1) == '\r';
    Position {
        line,
        col: col - usize::from(between),
    }
}

/// The line of char `offset` (clamped into the text): [`from_char`]'s
/// line, without the work of its column.
pub fn line_of(text: &Rope, offset: usize) -> usize {
    text.char_to_line(offset.min(text.len_chars()))
}

/// Clamps a position into the document (used after external changes).
pub fn clamp(text: &Rope, pos: Position) -> Position {
    let line = pos.line.min(line_count(text) - 1);
    Position {
        line,
        col: pos.col.min(line_len(text, line)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_multibyte_text() {
        let text = Rope::from_str("hello 世界!\r\nzweite 🎉 line\nend");
        for offset in 0..=text.len_chars() {
            let pos = from_char(&text, offset);
            if text.get_char(offset) == Some('\n') && offset > 0 && text.char(offset - 1) == '\r' {
                continue; // inside a CRLF pair there is no position of its own
            }
            assert_eq!(to_char(&text, pos), Ok(offset), "offset {offset} -> {pos}");
        }
    }

    #[test]
    fn a_column_never_passes_its_line_end_whatever_ends_the_line() {
        // every line break ropey knows, CRLF among them, and empty lines
        let text = Rope::from_str("a\r\n\r\nb\rc\u{2028}d\n\ne\u{85}f\r\n");
        for offset in 0..=text.len_chars() {
            let line = text.char_to_line(offset);
            let col = (offset - text.line_to_char(line)).min(line_len(&text, line));
            assert_eq!(
                from_char(&text, offset),
                Position::new(line, col),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn trailing_newline_opens_an_empty_last_line() {
        let text = Rope::from_str("a\nb\n");
        assert_eq!(line_count(&text), 3);
        assert_eq!(from_char(&text, text.len_chars()), Position::new(2, 0));
    }

    #[test]
    fn out_of_range_names_the_valid_range() {
        let text = Rope::from_str("ab\ncd");
        assert_eq!(
            to_char(&text, Position::new(5, 0)).unwrap_err().to_string(),
            "Line 5 out of range: valid lines are 0..1"
        );
        assert_eq!(
            to_char(&text, Position::new(0, 3)).unwrap_err().to_string(),
            "Column 3 out of range on line 0: valid columns are 0..2"
        );
    }
}
