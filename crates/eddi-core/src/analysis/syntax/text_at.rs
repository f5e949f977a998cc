//! A file's text read at the byte offsets of its tree's nodes: their text,
//! char offsets and positions. A rope answers (an open buffer's text), or a
//! [`LineTable`] over the string a scan parsed: the index's cold scan reads
//! thousands of files once and builds no rope for them.

use ropey::Rope;

use crate::edit::position::from_char;
use crate::edit::Position;

/// What a walk of a tree reads of its text, by byte offsets (clamped to
/// the text; an offset inside a char is that char's).
pub trait TextAt {
    /// The char offset of a byte offset.
    fn char_at(&self, byte: usize) -> usize;
    /// The position of a byte offset (lines end at `\n` alone; an offset
    /// between `\r` and `\n` is at its line's end).
    fn position_at(&self, byte: usize) -> Position;
    /// The text of a byte range.
    fn text_of(&self, bytes: std::ops::Range<usize>) -> String;
}

impl<T: TextAt + ?Sized> TextAt for &T {
    fn char_at(&self, byte: usize) -> usize {
        (**self).char_at(byte)
    }

    fn position_at(&self, byte: usize) -> Position {
        (**self).position_at(byte)
    }

    fn text_of(&self, bytes: std::ops::Range<usize>) -> String {
        (**self).text_of(bytes)
    }
}

impl TextAt for Rope {
    fn char_at(&self, byte: usize) -> usize {
        self.byte_to_char(byte.min(self.len_bytes()))
    }

    fn position_at(&self, byte: usize) -> Position {
        from_char(self, self.char_at(byte))
    }

    fn text_of(&self, bytes: std::ops::Range<usize>) -> String {
        let len = self.len_bytes();
        let start = bytes.start.min(len);
        let end = bytes.end.min(len).max(start);
        self.byte_slice(start..end).to_string()
    }
}

/// The start of each line of a string, found once (a `memchr` over `\n`),
/// and, when the string is not ASCII, the chars before each block of
/// [`BLOCK`] bytes: a position is a binary search (and in ASCII, where
/// chars are bytes, no count), a char offset a count of at most a block's
/// bytes (a minified file's one long line costs no more).
pub struct LineTable<'t> {
    text: &'t str,
    /// Byte offsets, the first 0.
    starts: Vec<usize>,
    /// The chars that start before each block; empty when the text is
    /// ASCII.
    blocks: Vec<usize>,
}

/// The bytes of a block of [`LineTable::blocks`].
const BLOCK: usize = 128;

impl<'t> LineTable<'t> {
    pub fn new(text: &'t str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
        let blocks = match text.is_ascii() {
            true => Vec::new(),
            false => {
                let mut before = 0;
                bytes
                    .chunks(BLOCK)
                    .map(|block| {
                        let at = before;
                        before += char_count(block);
                        at
                    })
                    .collect()
            }
        };
        LineTable {
            text,
            starts,
            blocks,
        }
    }

    /// The byte offset of a char offset (clamped to the text).
    pub fn byte_of_char(&self, char: usize) -> usize {
        let bytes = self.text.as_bytes();
        if self.blocks.is_empty() {
            return char.min(bytes.len());
        }
        // the last block that starts at or before the char, then its chars
        let block = self.blocks.partition_point(|&before| before <= char) - 1;
        let mut before = self.blocks[block];
        for (at, &b) in bytes.iter().enumerate().skip(block * BLOCK) {
            if b & 0xC0 != 0x80 {
                if before == char {
                    return at;
                }
                before += 1;
            }
        }
        bytes.len()
    }

    /// The byte offset clamped to the text and moved back to its char's
    /// start.
    fn char_start(&self, byte: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut byte = byte.min(bytes.len());
        while byte < bytes.len() && byte > 0 && bytes[byte] & 0xC0 == 0x80 {
            byte -= 1;
        }
        byte
    }

    /// The chars before a char's start.
    fn chars_before(&self, byte: usize) -> usize {
        match self.blocks.get(byte / BLOCK) {
            None if self.blocks.is_empty() => byte,
            // (the text's end, at a block's start)
            None => char_count(self.text.as_bytes()),
            Some(before) => before + char_count(&self.text.as_bytes()[byte / BLOCK * BLOCK..byte]),
        }
    }
}

impl TextAt for LineTable<'_> {
    fn char_at(&self, byte: usize) -> usize {
        self.chars_before(self.char_start(byte))
    }

    fn position_at(&self, byte: usize) -> Position {
        let byte = self.char_start(byte);
        let line = self.starts.partition_point(|&s| s <= byte) - 1;
        let col = match self.blocks.is_empty() {
            true => byte - self.starts[line],
            false => self.chars_before(byte) - self.chars_before(self.starts[line]),
        };
        let bytes = self.text.as_bytes();
        // (as the rope's: between `\r` and `\n` is the line's end)
        let between = col > 0 && bytes.get(byte) == Some(&b'\n') && bytes[byte - 1] == b'\r';
        Position {
            line,
            col: col - usize::from(between),
        }
    }

    fn text_of(&self, bytes: std::ops::Range<usize>) -> String {
        let len = self.text.len();
        let start = bytes.start.min(len);
        let end = bytes.end.min(len).max(start);
        self.text.get(start..end).unwrap_or_default().to_string()
    }
}

/// The chars of UTF-8 bytes: every byte but continuation bytes starts one.
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's char offsets and positions are the rope's at every
    /// byte (inside chars too, and past the end), its texts at every char,
    /// over multibyte chars, both line endings, and ASCII texts.
    #[test]
    fn the_line_table_agrees_with_the_rope() {
        // (blocks: a char across a block's end, the text's end at one)
        let long = "é".repeat(300);
        let across = format!("{}日\n{}", "a".repeat(127), "b".repeat(126));
        for text in [
            "é = 1;\r\nlet 日本 = \"x\";\n\n  ok(é)\r\n",
            "a\r\nbc\n\nd",
            "",
            "\n",
            "𝔘ni\r\n\r\ncode",
            long.as_str(),
            across.as_str(),
        ] {
            let rope = Rope::from_str(text);
            let table = LineTable::new(text);
            for b in 0..=text.len() + 2 {
                assert_eq!(table.char_at(b), rope.char_at(b), "{text:?} at byte {b}");
                assert_eq!(
                    table.position_at(b),
                    rope.position_at(b),
                    "{text:?} at byte {b}"
                );
                if text.is_char_boundary(b.min(text.len())) {
                    let c = rope.char_at(b);
                    assert_eq!(
                        table.byte_of_char(c),
                        rope.char_to_byte(c),
                        "{text:?} char {c}"
                    );
                }
                // (a node's text: from char to char)
                if text.is_char_boundary(b.min(text.len())) {
                    assert_eq!(table.text_of(0..b), rope.text_of(0..b), "{text:?} to {b}");
                }
            }
        }
    }
}
