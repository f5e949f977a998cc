//! A buffer: one open file of a session, with its cursor and history.

use ropey::Rope;
use serde::{Deserialize, Serialize};

use crate::analysis::{CharEdit, SyntaxTree};
use crate::edit::{
    position, Assoc, ChangeError, ChangeSet, History, LineEnding, Position, Revision,
};
use crate::language::{self, Capability, Language};
use crate::workspace::{DiskStamp, WorkspacePath};

/// An open file.
///
/// Invariants: `cursor` is always a valid position of `text`; `history`
/// revisions `..position()` are exactly what turned the opened text into
/// `text`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Buffer {
    path: WorkspacePath,
    #[serde(with = "rope_as_string")]
    text: Rope,
    line_ending: LineEnding,
    cursor: Position,
    history: History,
    /// What the file was on disk when opened or last saved; `None` for a
    /// file created in this session and not saved yet.
    disk: Option<DiskStamp>,
    /// The history position that matches `disk`; `None` once that state
    /// can no longer be reached by undo/redo.
    saved_at: Option<usize>,
    /// The disk state (a hash, or `deleted`) last reported to the sender
    /// as a change on disk, so each change is said once, across restarts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    noticed: Option<String>,
    /// The syntax tree of a file in a known language. Every change edits
    /// it (`Tree::edit`, cheap) and marks it stale; the incremental reparse
    /// with the old tree happens when a code-aware command asks for it, so
    /// plain edits never pay for parsing. Rebuilt lazily after a restore.
    #[serde(skip)]
    syntax: Option<SyntaxTree>,
    /// The tree has been edited but not reparsed since.
    #[serde(skip)]
    syntax_stale: bool,
    /// Grows with every change of the text (edit, undo, redo, reload): a
    /// change computed at one version applies only at that version.
    #[serde(default)]
    version: u64,
}

impl Buffer {
    /// A buffer of `text`; its syntax tree is parsed on first use
    /// ([`Self::ensure_syntax`]): a refactor opens every file it commits
    /// (for their undo histories), most never asked about again.
    pub fn new(path: WorkspacePath, text: &str, disk: Option<DiskStamp>) -> Buffer {
        let text = Rope::from_str(text);
        let line_ending = LineEnding::detect(&text);
        Buffer {
            path,
            text,
            line_ending,
            cursor: Position::ZERO,
            history: History::default(),
            disk,
            saved_at: Some(0),
            noticed: None,
            syntax: None,
            syntax_stale: false,
            version: 0,
        }
    }

    /// The same file with new text from disk (another session's commit,
    /// another program), as a later version of this buffer: the cursor is
    /// mapped through the difference, the history starts anew. Returns the
    /// difference too, for the session's marks.
    pub fn reloaded(&self, text: &str, disk: DiskStamp) -> (Buffer, ChangeSet) {
        let mut buffer = Buffer::new(self.path.clone(), text, Some(disk));
        let moved = crate::edit::diff::change_between(&self.text, &buffer.text);
        let cursor = Buffer::map(&moved, self.cursor_char());
        buffer.cursor = position::from_char(&buffer.text, cursor);
        buffer.version = self.version + 1;
        (buffer, moved)
    }

    /// The same file after another writer's `change` was carried under its
    /// unsaved edits (see `Event::Rebased`): the text is this one with
    /// `change` applied; `unsaved_inverse` takes that text back to the new
    /// disk text `disk` describes. The history starts anew at the disk
    /// text, the unsaved edits one undo step on top of it (the old
    /// revisions were made on a text that is no longer on disk).
    pub fn rebased(
        &self,
        change: &ChangeSet,
        unsaved_inverse: &ChangeSet,
        disk: DiskStamp,
    ) -> Result<Buffer, ChangeError> {
        self.check_fits(change)?;
        let mut text = self.text.clone();
        change.apply(&mut text)?;
        if unsaved_inverse.len_before() != text.len_chars() {
            return Err(ChangeError::LengthMismatch {
                expected: unsaved_inverse.len_before(),
                actual: text.len_chars(),
            });
        }
        let mut base = text.clone();
        unsaved_inverse.apply(&mut base)?;
        let unsaved = unsaved_inverse.invert(&text);
        let cursor = Buffer::map(change, self.cursor_char());
        let mut buffer = Buffer::new(self.path.clone(), &base.to_string(), Some(disk));
        // Undoing the unsaved edits leaves the cursor where it was, mapped.
        let on_base = unsaved_inverse.map_pos(cursor, Assoc::Before);
        buffer.cursor = position::from_char(&base, on_base);
        let cursor = position::from_char(&text, cursor);
        if !unsaved.is_identity() {
            buffer.edit(unsaved, cursor)?;
        }
        buffer.cursor = position::clamp(&buffer.text, cursor);
        buffer.version = self.version + 1;
        Ok(buffer)
    }

    /// The version of the text; see the field's doc.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// blake3 of the text (UTF-8, the file's own line endings), hex:
    /// computed on demand, for hash preconditions and preview checks.
    pub fn content_hash(&self) -> String {
        let mut hasher = blake3::Hasher::new();
        for chunk in self.text.chunks() {
            hasher.update(chunk.as_bytes());
        }
        hasher.finalize().to_hex().to_string()
    }

    /// The language of the file: from its extension, else from the
    /// interpreter its first line's `#!` names (a `bin/tool` script that
    /// starts `#!/usr/bin/env python3` is Python).
    pub fn language(&self) -> Option<&'static dyn Language> {
        language::language_of(self.path.as_str()).or_else(|| {
            let first = self.text.lines().next()?;
            // a `#!` line is short; a long first line is no interpreter's
            let head: String = first.chars().take(256).collect();
            language::language_of_source(self.path.as_str(), head.trim_end())
        })
    }

    /// The language of the file when it offers `capability`.
    pub fn language_supporting(&self, capability: Capability) -> Option<&'static dyn Language> {
        self.language()
            .filter(|language| language.supports(capability))
    }

    /// The up-to-date syntax tree of a file in a known language: parsed on
    /// first use, reparsed incrementally (with the edited old tree) when
    /// changes came since.
    pub fn ensure_syntax(&mut self) -> Option<&SyntaxTree> {
        match &mut self.syntax {
            Some(syntax) if self.syntax_stale => {
                if syntax.reparse(&self.text).is_err() {
                    self.syntax = None;
                }
            }
            Some(_) => {}
            None => {
                let language = self.language()?;
                self.syntax = SyntaxTree::parse_language(language, &self.text).ok();
            }
        }
        self.syntax_stale = false;
        self.syntax.as_ref()
    }

    /// The syntax tree as it is, without a reparse: after edits its nodes'
    /// positions follow the text, but code typed since the last parse is
    /// not in it. For cheap, approximate structure (statement boundaries).
    pub fn syntax_unparsed(&self) -> Option<&SyntaxTree> {
        self.syntax.as_ref()
    }

    /// Applies a change to the text and edits the syntax tree to match
    /// (`Tree::edit` only; see [`Self::ensure_syntax`] for the reparse).
    fn apply_change(&mut self, change: &ChangeSet) -> Result<(), ChangeError> {
        let before = self.text.clone(); // O(1): ropes share their nodes
        change.apply(&mut self.text)?;
        self.version += 1;
        if let Some(syntax) = &mut self.syntax {
            if syntax
                .edit_tree(&before, &self.text, &CharEdit::of_change(change))
                .is_ok()
            {
                self.syntax_stale = true;
            } else {
                self.syntax = None; // parsed from scratch on next use
            }
        }
        Ok(())
    }

    pub fn path(&self) -> &WorkspacePath {
        &self.path
    }

    pub fn text(&self) -> &Rope {
        &self.text
    }

    pub fn line_ending(&self) -> LineEnding {
        self.line_ending
    }

    pub fn cursor(&self) -> Position {
        self.cursor
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn disk(&self) -> Option<&DiskStamp> {
        self.disk.as_ref()
    }

    /// Lines as the protocol counts them (`Length` in `Open`'s reply): an
    /// empty file has 0, a final newline does not open a counted line.
    pub fn line_count(&self) -> usize {
        position::counted_lines(&self.text)
    }

    /// True when the text differs from what is on disk (or was never saved).
    pub fn is_modified(&self) -> bool {
        self.disk.is_none() || self.saved_at != Some(self.history.position())
    }

    /// The cursor as a char offset.
    pub fn cursor_char(&self) -> usize {
        position::to_char(&self.text, self.cursor).unwrap_or(self.text.len_chars())
    }

    /// Moves the cursor, clamped into the text.
    pub fn set_cursor(&mut self, pos: Position) {
        self.cursor = position::clamp(&self.text, pos);
    }

    /// Applies `change` as a new undo step and moves the cursor.
    pub fn edit(&mut self, change: ChangeSet, cursor_after: Position) -> Result<(), ChangeError> {
        self.edit_in_step(change, cursor_after, None)
    }

    /// Applies `change` as a new undo step that is part of `group`, a step
    /// spanning several files (see `Revision::group`).
    pub fn edit_in_step(
        &mut self,
        change: ChangeSet,
        cursor_after: Position,
        group: Option<u64>,
    ) -> Result<(), ChangeError> {
        // Refuse a stale change *before* inverting it: `invert` requires the
        // text the change was built for (and asserts so in debug builds).
        self.check_fits(&change)?;
        let inverse = change.invert(&self.text);
        self.apply_change(&change)?;
        let cursor_before = self.cursor;
        self.cursor = position::clamp(&self.text, cursor_after);
        if self
            .saved_at
            .is_some_and(|saved| saved > self.history.position())
        {
            self.saved_at = None; // the saved state was in the redo tail
        }
        self.history.commit(Revision {
            change,
            inverse,
            cursor_before,
            cursor_after: self.cursor,
            group,
        });
        Ok(())
    }

    /// Folds `change` into the last undo step (a `Replace Confirm` walk).
    pub fn amend(&mut self, change: ChangeSet, cursor_after: Position) -> Result<(), ChangeError> {
        if self.history.undo_depth() == 0 {
            return self.edit(change, cursor_after);
        }
        self.check_fits(&change)?; // before `invert`, as in `edit`
        let inverse = change.invert(&self.text);
        self.apply_change(&change)?;
        self.cursor = position::clamp(&self.text, cursor_after);
        let amended = self.history.amend_last(change, inverse, self.cursor);
        debug_assert!(amended.is_ok(), "consecutive changes compose");
        if self.saved_at == Some(self.history.position()) {
            self.saved_at = None; // the saved state was the one amended away
        }
        Ok(())
    }

    /// Undoes up to `count` steps; returns the changes applied, in order.
    pub fn undo(&mut self, count: usize) -> Vec<ChangeSet> {
        let mut applied = Vec::new();
        while applied.len() < count {
            let Some(revision) = self.history.undo() else {
                break;
            };
            let (inverse, cursor) = (revision.inverse.clone(), revision.cursor_before);
            // A history change always fits the text it was recorded on.
            if self.apply_change(&inverse).is_err() {
                break;
            }
            self.cursor = position::clamp(&self.text, cursor);
            applied.push(inverse);
        }
        applied
    }

    /// Redoes up to `count` steps; returns the changes applied, in order.
    pub fn redo(&mut self, count: usize) -> Vec<ChangeSet> {
        let mut applied = Vec::new();
        while applied.len() < count {
            let Some(revision) = self.history.redo() else {
                break;
            };
            let (change, cursor) = (revision.change.clone(), revision.cursor_after);
            if self.apply_change(&change).is_err() {
                break;
            }
            self.cursor = position::clamp(&self.text, cursor);
            applied.push(change);
        }
        applied
    }

    /// Records that the text is now what `stamp` describes on disk.
    pub fn mark_saved(&mut self, stamp: DiskStamp) {
        self.disk = Some(stamp);
        self.saved_at = Some(self.history.position());
        self.noticed = None;
    }

    /// The disk state last reported as changed (see [`Event::DiskNoticed`]).
    ///
    /// [`Event::DiskNoticed`]: super::Event::DiskNoticed
    pub fn noticed(&self) -> Option<&str> {
        self.noticed.as_deref()
    }

    pub fn set_noticed(&mut self, key: Option<String>) {
        self.noticed = key;
    }

    /// Refuses a change built for a text of another length, leaving the
    /// buffer untouched (the same error `ChangeSet::apply` gives).
    fn check_fits(&self, change: &ChangeSet) -> Result<(), ChangeError> {
        if change.len_before() == self.text.len_chars() {
            Ok(())
        } else {
            Err(ChangeError::LengthMismatch {
                expected: change.len_before(),
                actual: self.text.len_chars(),
            })
        }
    }

    /// Maps a char offset of the text before `change` to after it.
    pub fn map(change: &ChangeSet, offset: usize) -> usize {
        change.map_pos(offset, Assoc::After)
    }
}

mod rope_as_string {
    use ropey::Rope;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(rope: &Rope, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(rope)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rope, D::Error> {
        Ok(Rope::from_str(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(text: &str) -> Buffer {
        let dir = tempfile::tempdir().unwrap();
        let ws = crate::workspace::Workspace::new(dir.path(), 1 << 20).unwrap();
        Buffer::new(ws.resolve("a.py").unwrap(), text, None)
    }

    #[test]
    fn keeps_the_syntax_tree_in_step_with_edits_undo_and_redo() {
        let dir = tempfile::tempdir().unwrap();
        let ws = crate::workspace::Workspace::new(dir.path(), 1 << 20).unwrap();
        let mut b = Buffer::new(
            ws.resolve("m.py").unwrap(),
            "def f(x):\n    return x\n",
            None,
        );
        let len = b.text().len_chars();
        let change = ChangeSet::from_edits(
            len,
            [
                (4, 5, Some("größe")),
                (len, len, Some("class C:\n    pass\n")),
            ],
        )
        .unwrap();
        b.edit(change, Position::ZERO).unwrap();
        let fresh = |b: &Buffer| SyntaxTree::parse(b.text()).unwrap().to_sexp();
        let kept = |b: &mut Buffer| b.ensure_syntax().unwrap().to_sexp();
        assert_eq!(kept(&mut b), fresh(&b));
        b.undo(1);
        assert_eq!(kept(&mut b), fresh(&b));
        b.redo(1);
        b.undo(1);
        b.redo(1); // several changes between two reparses
        assert_eq!(kept(&mut b), fresh(&b));
        assert!(kept(&mut b).contains("class_definition"));
    }

    #[test]
    fn counts_lines_as_the_protocol_does() {
        assert_eq!(buffer("").line_count(), 0);
        assert_eq!(buffer("a").line_count(), 1);
        assert_eq!(buffer("a\nb\n").line_count(), 2);
        assert_eq!(buffer("a\nb").line_count(), 2);
    }

    /// Regression: a stale change used to reach `ChangeSet::invert` before
    /// `apply` checked its length, which panics in debug builds.
    #[test]
    fn refuses_a_stale_change_without_panicking() {
        let mut b = buffer("abc");
        let stale = ChangeSet::replace(5, 0, 1, "x").unwrap();
        let refused = Err(ChangeError::LengthMismatch {
            expected: 5,
            actual: 3,
        });
        assert_eq!(b.edit(stale.clone(), Position::ZERO), refused);
        b.edit(
            ChangeSet::replace(3, 0, 0, "y").unwrap(),
            Position::new(0, 1),
        )
        .unwrap();
        let refused = Err(ChangeError::LengthMismatch {
            expected: 5,
            actual: 4,
        });
        assert_eq!(b.amend(stale, Position::ZERO), refused);
        assert_eq!(b.text().to_string(), "yabc");
        assert_eq!(b.cursor(), Position::new(0, 1));
        assert_eq!(b.history().len(), 1);
    }

    #[test]
    fn modified_follows_undo_back_to_the_saved_state() {
        let mut b = buffer("abc");
        b.mark_saved(crate::workspace::DiskStamp {
            len: 3,
            mtime_ns: 0,
            hash: String::new(),
            ino: 0,
        });
        assert!(!b.is_modified());
        b.edit(
            ChangeSet::replace(3, 0, 0, "x").unwrap(),
            Position::new(0, 1),
        )
        .unwrap();
        assert!(b.is_modified());
        assert_eq!(b.undo(5).len(), 1);
        assert!(!b.is_modified());
        assert_eq!(b.cursor(), Position::ZERO);
        assert_eq!(b.redo(1).len(), 1);
        assert_eq!(b.text().to_string(), "xabc");
    }
}
