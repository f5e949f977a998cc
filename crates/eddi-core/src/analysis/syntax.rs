//! Syntax trees kept in step with a [`Rope`], and the one place that converts
//! between tree-sitter's byte offsets / [`Point`]s and Eddi's positions.
//!
//! * Tree-sitter speaks UTF-8 bytes and `Point { row, column }` where
//!   `column` is a byte offset within the row. Eddi speaks char offsets and
//!   [`Position`] (`col` in chars). All conversions live here
//!   ([`char_to_point`], [`byte_to_position`], [`node_start`] …).
//! * Rows: ropey is built without `unicode_lines`, so only `'\n'` breaks a
//!   line, exactly as tree-sitter counts rows. In CRLF files the `'\r'` stays
//!   at the end of its line; positions never point past it (see
//!   [`crate::edit::position::from_char`]).
//! * Parsing reads the rope chunk by chunk; no `String` copy is made.
//! * Incremental edits: [`SyntaxTree::edit`] takes the text before and after
//!   and the edits applied in order. A single edit is passed to
//!   [`Tree::edit`] as is; several edits are folded into one covering edit
//!   computed from the old and new texts (exact, since both texts are
//!   known; intermediate documents are not needed). Callers that hold every
//!   intermediate rope can call [`SyntaxTree::edit_step`] per edit and then
//!   [`SyntaxTree::reparse`] for the finest-grained reuse.
//!
//! Known limits: parsing never fails except on cancellation, which Eddi does
//! not use; that case still becomes an error, never a panic. For text with
//! syntax errors, tree-sitter's error recovery can shape ERROR nodes
//! differently after an incremental reparse than after a fresh parse (an
//! upstream behaviour, reproduced with plain tree-sitter); error-free text
//! always gives the same tree (`tests/analysis/analysis_incremental.rs`). Call
//! [`SyntaxTree::parse`] afresh where byte-identical error trees matter.

use ropey::Rope;
use tree_sitter::{InputEdit, Node, Parser, Point, Tree};

mod text_at;
pub use text_at::{LineTable, TextAt};

use super::error::{AnalysisError, Result};
use crate::edit::position::from_char;
use crate::edit::{ChangeSet, Position};
use crate::language::{python::Python, Language};

/// One edit in char offsets: `start..old_end` of the document before this
/// edit was replaced by `start..new_end` of the document after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CharEdit {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl CharEdit {
    /// The extents of a change's edits, as tree-sitter wants them: in
    /// order, each in the coordinates of the text after the previous ones.
    /// Not an edit shape of its own (it has no text): what keeps a tree in
    /// step with an edit is derived from the edit's change, here only.
    pub fn of_change(change: &ChangeSet) -> Vec<CharEdit> {
        let mut shift: isize = 0;
        change
            .edits()
            .into_iter()
            .map(|(from, to, inserted)| {
                let start = (from as isize + shift) as usize;
                let old_end = (to as isize + shift) as usize;
                let new_end = start + inserted.chars().count();
                shift += new_end as isize - old_end as isize;
                CharEdit {
                    start,
                    old_end,
                    new_end,
                }
            })
            .collect()
    }
}

/// A parsed document: the tree-sitter tree and the language it was parsed with.
#[derive(Debug, Clone)]
pub struct SyntaxTree {
    tree: Tree,
    language: &'static dyn Language,
    /// Read from a copy with omitted separators written in
    /// ([`crate::language::separators`]): a reparse starts afresh, as the
    /// old tree holds tokens the text does not.
    repaired: bool,
}

impl SyntaxTree {
    /// Parses Python source.
    pub fn parse(text: &Rope) -> Result<Self> {
        Self::parse_language(&Python, text)
    }

    /// Parses `text` as `language`.
    pub fn parse_language(language: &'static dyn Language, text: &Rope) -> Result<Self> {
        #[cfg(test)]
        fresh_parses::count();
        let tree = parse_rope(language, text, None)?;
        Ok(with_separators(language, tree, || text.to_string()))
    }

    /// Parses `text` as `language` from one string: no rope's chunks for
    /// the lexer to step across (the index's scan holds the text whole).
    pub fn parse_text(language: &'static dyn Language, text: &str) -> Result<Self> {
        #[cfg(test)]
        fresh_parses::count();
        let tree = with_parser(language, |parser| {
            parser
                .parse(text, None)
                .ok_or_else(|| AnalysisError::ParseFailed("parser cancelled".into()))
        })?;
        Ok(with_separators(language, tree, || text.to_owned()))
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    pub fn language(&self) -> &'static dyn Language {
        self.language
    }

    /// True when the tree contains ERROR or MISSING nodes.
    pub fn has_errors(&self) -> bool {
        self.tree.root_node().has_error()
    }

    /// The tree as an S-expression (for tests and debugging).
    pub fn to_sexp(&self) -> String {
        self.tree.root_node().to_sexp()
    }

    /// Brings the tree in step with `new_text`, which is `old_text` after
    /// `edits` were applied in order (each in the coordinates of the
    /// document after the previous ones), and reparses incrementally.
    pub fn edit(&mut self, old_text: &Rope, new_text: &Rope, edits: &[CharEdit]) -> Result<()> {
        self.edit_tree(old_text, new_text, edits)?;
        self.reparse(new_text)
    }

    /// Like [`SyntaxTree::edit`] without the reparse: only `Tree::edit`,
    /// which is cheap. Several of these may come before one
    /// [`SyntaxTree::reparse`] of the final text.
    pub fn edit_tree(
        &mut self,
        old_text: &Rope,
        new_text: &Rope,
        edits: &[CharEdit],
    ) -> Result<()> {
        if let Some(span) = fold_edits(edits)? {
            let input = input_edit(old_text, new_text, span)?;
            self.tree.edit(&input);
        }
        Ok(())
    }

    /// Applies one edit to the tree without reparsing: `before` is the text
    /// the edit applies to, `after` the text it produced. Follow a run of
    /// steps with [`SyntaxTree::reparse`].
    pub fn edit_step(&mut self, before: &Rope, after: &Rope, edit: CharEdit) -> Result<()> {
        let input = input_edit(before, after, edit)?;
        self.tree.edit(&input);
        Ok(())
    }

    /// Reparses `text`, reusing the (edited) old tree.
    pub fn reparse(&mut self, text: &Rope) -> Result<()> {
        let old = (!self.repaired).then_some(&self.tree);
        let tree = parse_rope(self.language, text, old)?;
        *self = with_separators(self.language, tree, || text.to_string());
        Ok(())
    }
}

/// `tree` as a [`SyntaxTree`], or the tree of its text with the member
/// separators its grammar needs written in, where `language` omits them
/// and that tree has fewer errors (`text` makes the text, asked only then).
fn with_separators(
    language: &'static dyn Language,
    tree: Tree,
    text: impl FnOnce() -> String,
) -> SyntaxTree {
    if language.omits_member_separators() && tree.root_node().has_error() {
        let parse = |copy: &str| {
            let parsed = with_parser(language, |parser| {
                (parser.parse(copy, None)).ok_or(AnalysisError::ParseFailed("cancelled".into()))
            });
            parsed.ok()
        };
        if let Some(fixed) = crate::language::separators::repaired(&text(), &tree, parse) {
            return SyntaxTree {
                tree: fixed,
                language,
                repaired: true,
            };
        }
    }
    SyntaxTree {
        tree,
        language,
        repaired: false,
    }
}

/// How many fresh parses this thread made: tests prove with it that a
/// computation parses each file once.
#[cfg(test)]
pub(crate) mod fresh_parses {
    use std::cell::Cell;

    thread_local! {
        static MADE: Cell<usize> = const { Cell::new(0) };
    }

    pub(super) fn count() {
        MADE.with(|m| m.set(m.get() + 1));
    }

    /// The fresh parses made on this thread so far.
    pub fn made() -> usize {
        MADE.with(Cell::get)
    }
}

thread_local! {
    /// One parser per thread and language, reused across parses.
    static PARSER: std::cell::RefCell<Option<(&'static str, Parser)>> =
        const { std::cell::RefCell::new(None) };
}

fn parse_rope(language: &dyn Language, text: &Rope, old: Option<&Tree>) -> Result<Tree> {
    with_parser(language, |parser| parse_with(parser, text, old))
}

/// Runs `parse` with this thread's parser, set to `language`.
fn with_parser(
    language: &dyn Language,
    parse: impl FnOnce(&mut Parser) -> Result<Tree>,
) -> Result<Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().map(|(id, _)| *id) != Some(language.id()) {
            let mut parser = Parser::new();
            parser
                .set_language(&language.grammar())
                .map_err(|e| AnalysisError::ParseFailed(e.to_string()))?;
            *slot = Some((language.id(), parser));
        }
        match slot.as_mut() {
            Some((_, parser)) => parse(parser),
            None => Err(AnalysisError::ParseFailed("no parser".into())),
        }
    })
}

fn parse_with(parser: &mut Parser, text: &Rope, old: Option<&Tree>) -> Result<Tree> {
    let len = text.len_bytes();
    let mut read = |byte: usize, _: Point| -> &[u8] {
        if byte >= len {
            return &[];
        }
        let (chunk, chunk_start, _, _) = text.chunk_at_byte(byte);
        &chunk.as_bytes()[byte - chunk_start..]
    };
    parser
        .parse_with_options(&mut read, old, None)
        .ok_or_else(|| AnalysisError::ParseFailed("parser cancelled".into()))
}

/// Folds edits applied in sequence into one edit of the first document that
/// yields the last: `start..old_end` in the old text, `start..new_end` in the new.
fn fold_edits(edits: &[CharEdit]) -> Result<Option<CharEdit>> {
    let mut span: Option<CharEdit> = None;
    for e in edits {
        if e.old_end < e.start || e.new_end < e.start {
            return Err(AnalysisError::InvalidEdit(format!(
                "edit {}..{} -> {}: ends before it starts",
                e.start, e.old_end, e.new_end
            )));
        }
        span = Some(match span {
            None => *e,
            Some(s) => {
                // `s.start..s.new_end` is the changed region in the current
                // document; outside it, text before is identical to the old
                // text and text after is shifted by `old_end - new_end`.
                let start = s.start.min(e.start);
                let union_end = s.new_end.max(e.old_end);
                let old_end = (union_end + s.old_end).saturating_sub(s.new_end);
                let new_end = union_end + e.new_end - e.old_end;
                CharEdit {
                    start,
                    old_end,
                    new_end,
                }
            }
        });
    }
    Ok(span)
}

fn input_edit(before: &Rope, after: &Rope, e: CharEdit) -> Result<InputEdit> {
    if e.old_end > before.len_chars() || e.new_end > after.len_chars() {
        return Err(AnalysisError::InvalidEdit(format!(
            "edit {}..{} -> {} outside the document ({} chars before, {} after)",
            e.start,
            e.old_end,
            e.new_end,
            before.len_chars(),
            after.len_chars()
        )));
    }
    Ok(InputEdit {
        start_byte: before.char_to_byte(e.start),
        old_end_byte: before.char_to_byte(e.old_end),
        new_end_byte: after.char_to_byte(e.new_end),
        start_position: char_to_point(before, e.start),
        old_end_position: char_to_point(before, e.old_end),
        new_end_position: char_to_point(after, e.new_end),
    })
}

// -- conversions ------------------------------------------------------------

/// The tree-sitter point (row, byte column) of a char offset (clamped).
pub fn char_to_point(text: &Rope, char_idx: usize) -> Point {
    let char_idx = char_idx.min(text.len_chars());
    let row = text.char_to_line(char_idx);
    let byte = text.char_to_byte(char_idx);
    Point {
        row,
        column: byte - text.line_to_byte(row),
    }
}

/// The char offset of a byte offset (clamped to the document).
pub fn byte_to_char(text: &(impl TextAt + ?Sized), byte: usize) -> usize {
    text.char_at(byte)
}

/// The byte offset of a char offset (clamped to the document).
pub fn char_to_byte(text: &Rope, char_idx: usize) -> usize {
    text.char_to_byte(char_idx.min(text.len_chars()))
}

/// The Eddi position of a byte offset.
pub fn byte_to_position(text: &(impl TextAt + ?Sized), byte: usize) -> Position {
    text.position_at(byte)
}

/// The Eddi position of a tree-sitter point (column in bytes).
pub fn point_to_position(text: &Rope, point: Point) -> Position {
    if point.row >= text.len_lines() {
        return from_char(text, text.len_chars());
    }
    let line_byte = text.line_to_byte(point.row);
    byte_to_position(text, line_byte + point.column)
}

/// Where a node starts, as a position.
pub fn node_start(text: &(impl TextAt + ?Sized), node: Node<'_>) -> Position {
    byte_to_position(text, node.start_byte())
}

/// Where a node ends (exclusive), as a position.
pub fn node_end(text: &Rope, node: Node<'_>) -> Position {
    byte_to_position(text, node.end_byte())
}

/// The char range of a node.
pub fn node_chars(text: &Rope, node: Node<'_>) -> std::ops::Range<usize> {
    byte_to_char(text, node.start_byte())..byte_to_char(text, node.end_byte())
}

/// Where a node starts in `src`, the text it was parsed from, as a
/// position (for callers that hold a `&str` rather than a rope: the
/// project index scans files it reads once).
#[inline]
pub fn node_start_in(src: &str, node: Node<'_>) -> Position {
    let p = node.start_position();
    let start = node.start_byte();
    let line_start = start.saturating_sub(p.column);
    let col = src.get(line_start..start).map(char_len).unwrap_or(p.column);
    Position::new(p.row, col)
}

/// The length in chars of a byte range of `src` (0 when it does not fall
/// on char boundaries).
#[inline]
pub fn char_len_in(src: &str, bytes: std::ops::Range<usize>) -> usize {
    src.get(bytes).map(char_len).unwrap_or(0)
}

#[inline]
fn char_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// The source text of a node.
pub fn node_text(text: &(impl TextAt + ?Sized), node: Node<'_>) -> String {
    text.text_of(node.byte_range())
}

/// Tree cursors kept for reuse by a walk that visits the children of
/// every node (creating a cursor allocates; a walk of a big file would
/// create millions). `take` gives one at `node`, `give` puts it back.
#[derive(Default)]
pub struct CursorPool<'t> {
    free: Vec<tree_sitter::TreeCursor<'t>>,
}

impl<'t> CursorPool<'t> {
    pub fn take(&mut self, node: Node<'t>) -> tree_sitter::TreeCursor<'t> {
        match self.free.pop() {
            Some(mut cursor) => {
                cursor.reset(node);
                cursor
            }
            None => node.walk(),
        }
    }

    pub fn give(&mut self, cursor: tree_sitter::TreeCursor<'t>) {
        self.free.push(cursor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_chars_not_bytes() {
        let text = Rope::from_str("s = 'ä€🎉'\r\nnaïve = 1\n");
        let tree = SyntaxTree::parse(&text).unwrap();
        let root = tree.root();
        let second = root.named_child(1).unwrap();
        assert_eq!(node_start(&text, second), Position::new(1, 0));
        let assign = second.named_child(0).unwrap();
        let right = assign.child_by_field_name("right").unwrap();
        assert_eq!(node_start(&text, right), Position::new(1, 8));
        assert_eq!(node_text(&text, right), "1");
        let first = root.named_child(0).unwrap();
        // 's = ' is 4 chars, the string is 5 chars (quotes included)
        assert_eq!(node_end(&text, first), Position::new(0, 9));
        assert_eq!(char_to_point(&text, 9), Point { row: 0, column: 15 });
        assert_eq!(
            point_to_position(&text, Point { row: 0, column: 15 }),
            Position::new(0, 9)
        );
    }

    #[test]
    fn single_edit_matches_fresh_parse() {
        let old = Rope::from_str("def f(a):\n    return a\n");
        let mut tree = SyntaxTree::parse(&old).unwrap();
        let mut new = old.clone();
        new.insert(6, "x, ");
        tree.edit(
            &old,
            &new,
            &[CharEdit {
                start: 6,
                old_end: 6,
                new_end: 9,
            }],
        )
        .unwrap();
        assert_eq!(tree.to_sexp(), SyntaxTree::parse(&new).unwrap().to_sexp());
    }

    #[test]
    fn folded_edits_cover_both_regions() {
        let edits = [
            CharEdit {
                start: 10,
                old_end: 12,
                new_end: 15,
            },
            CharEdit {
                start: 2,
                old_end: 3,
                new_end: 2,
            },
        ];
        // second edit before the first: start 2; old end 12; new end 15 + 0 - 1
        assert_eq!(
            fold_edits(&edits).unwrap(),
            Some(CharEdit {
                start: 2,
                old_end: 12,
                new_end: 14
            })
        );
        let bad = [CharEdit {
            start: 5,
            old_end: 4,
            new_end: 5,
        }];
        assert!(fold_edits(&bad).is_err());
    }

    #[test]
    fn out_of_range_edit_is_an_error() {
        let old = Rope::from_str("x = 1\n");
        let mut tree = SyntaxTree::parse(&old).unwrap();
        let edits = [CharEdit {
            start: 0,
            old_end: 50,
            new_end: 0,
        }];
        assert!(tree.edit(&old, &old, &edits).is_err());
    }
}
