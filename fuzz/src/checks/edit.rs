//! The edit model: random edit, amend, undo, redo, save and cursor
//! sequences on a `session::Buffer` of a Python file, checked against a
//! naive model — `String`s edited by char index and a linear history of
//! (text, cursor before, cursor after) — after every step:
//!
//! - the text, the cursor (requested positions clamped as the model clamps
//!   them), the undo and redo depths, and `is_modified` (false exactly at
//!   the saved state) are the model's;
//! - `ChangeSet::from_edits` accepts exactly sorted, in-range edits;
//!   `apply ∘ invert` is the identity, `compose` is sequential
//!   application, `edits()` rebuilds the same change, `map_pos` stays in
//!   the new text and keeps order;
//! - the buffer's incrementally edited syntax tree is the fresh parse of its
//!   text (the same S-expression for error-free text; both with errors
//!   otherwise, a tree-sitter limit noted in `tests/analysis/analysis_incremental.rs`).

use std::sync::OnceLock;

use eddi::analysis::SyntaxTree;
use eddi::edit::{Assoc, ChangeSet, Position};
use eddi::session::Buffer;
use eddi::workspace::{DiskStamp, Workspace, WorkspacePath};
use ropey::Rope;

use super::input::Input;

/// Pieces of documents and inserted text: Python that parses, breaks and
/// repairs, multi-byte chars (CJK, emoji, a combining mark), both line ends
/// and a lone `\r`.
const PIECES: &[&str] = &[
    "def f(x):\n",
    "    return x\n",
    "class C:\n",
    "    ",
    "pass",
    "\n",
    "\r\n",
    "\r",
    ":",
    "(",
    ")",
    "\"\"\"",
    "'",
    "#",
    "世界",
    "🎉",
    "e\u{301}",
    "x = 1",
    "if x:",
    "lambda: 0",
    "[",
    "]",
    ",",
];

const MAX_STEPS: usize = 24;

/// One revision of the model history.
#[derive(Clone)]
struct Revision {
    text: String,
    cursor_before: Position,
    cursor_after: Position,
}

struct Model {
    /// The opened text, then one entry per revision.
    original: String,
    revisions: Vec<Revision>,
    /// Revisions applied.
    at: usize,
    cursor: Position,
    /// The history position that is on disk, while reachable.
    saved: Option<usize>,
}

impl Model {
    fn text(&self) -> &str {
        match self.at {
            0 => &self.original,
            n => &self.revisions[n - 1].text,
        }
    }
}

pub fn check(data: &[u8]) {
    let mut input = Input::new(data);
    let original = input.text(PIECES, 24);
    let mut buffer = Buffer::new(path(), &original, Some(stamp()));
    let mut model = Model {
        original,
        revisions: Vec::new(),
        at: 0,
        cursor: Position::ZERO,
        saved: Some(0),
    };
    for step in 0..MAX_STEPS {
        if input.is_empty() {
            break;
        }
        match input.byte() % 9 {
            0..=2 => edit(&mut input, &mut buffer, &mut model, false),
            3 => edit(&mut input, &mut buffer, &mut model, true),
            4 => {
                let count = input.below(4) + 1;
                let done = buffer.undo(count).len();
                assert_eq!(done, count.min(model.at), "undo({count}) steps");
                for _ in 0..done {
                    model.cursor = model.revisions[model.at - 1].cursor_before;
                    model.at -= 1;
                }
            }
            5 => {
                let count = input.below(4) + 1;
                let done = buffer.redo(count).len();
                let available = model.revisions.len() - model.at;
                assert_eq!(done, count.min(available), "redo({count}) steps");
                for _ in 0..done {
                    model.at += 1;
                    model.cursor = model.revisions[model.at - 1].cursor_after;
                }
            }
            6 => {
                buffer.mark_saved(stamp());
                model.saved = Some(model.at);
            }
            7 => {
                let wanted = Position::new(input.below(12), input.below(16));
                buffer.set_cursor(wanted);
                model.cursor = clamp(model.text(), wanted);
            }
            _ => same_tree(&mut buffer),
        }
        let text = buffer.text().to_string();
        assert_eq!(text, model.text(), "text after step {step}");
        assert_eq!(buffer.cursor(), model.cursor, "cursor after step {step}");
        assert_eq!(buffer.history().undo_depth(), model.at);
        assert_eq!(
            buffer.history().redo_depth(),
            model.revisions.len() - model.at
        );
        assert_eq!(
            buffer.is_modified(),
            model.saved != Some(model.at),
            "is_modified after step {step}"
        );
    }
    same_tree(&mut buffer);
}

/// An edit (or an amend of the last step) of up to four random ranges.
fn edit(input: &mut Input, buffer: &mut Buffer, model: &mut Model, amend: bool) {
    let before = model.text().to_string();
    let len = before.chars().count();
    let mut raw = Vec::new();
    for _ in 0..input.below(4) + 1 {
        let (a, b) = (input.below(len + 1), input.below(len + 1));
        let text = input.bool().then(|| input.text(PIECES, 3));
        raw.push((a, b, text));
    }
    // As given: accepted exactly when sorted and in range.
    let valid = {
        let mut last = 0;
        raw.iter().all(|(a, b, _)| {
            let ok = a <= b && *a >= last;
            last = *b;
            ok
        })
    };
    let as_given = ChangeSet::from_edits(len, raw.iter().map(|(a, b, t)| (*a, *b, t.clone())));
    assert_eq!(as_given.is_ok(), valid, "from_edits({len}, {raw:?})");
    // Ordered, overlapping ones dropped (touching ones and several
    // insertions at one point kept).
    let mut edits: Vec<(usize, usize, Option<String>)> = raw
        .into_iter()
        .map(|(a, b, t)| (a.min(b), a.max(b), t))
        .collect();
    edits.sort_by_key(|e| (e.0, e.1));
    let mut kept: Vec<(usize, usize, Option<String>)> = Vec::new();
    for e in edits {
        if kept.last().is_none_or(|k| e.0 >= k.1) {
            kept.push(e);
        }
    }
    let change = ChangeSet::from_edits(len, kept.clone()).expect("sorted, disjoint, in range");
    let after = naive_apply(&before, &kept);
    algebra(&change, &before, &after);

    let wanted = Position::new(input.below(12), input.below(16));
    let cursor = clamp(&after, wanted);
    if amend && model.at > 0 {
        buffer.amend(change, wanted).expect("the change fits");
        model.revisions.truncate(model.at);
        let last = &mut model.revisions[model.at - 1];
        last.text = after;
        last.cursor_after = cursor;
        if model.saved.is_some_and(|s| s >= model.at) {
            model.saved = None; // amended away, or in the dropped redo tail
        }
    } else {
        buffer.edit(change, wanted).expect("the change fits");
        model.revisions.truncate(model.at);
        if model.saved.is_some_and(|s| s > model.at) {
            model.saved = None; // in the dropped redo tail
        }
        model.revisions.push(Revision {
            text: after,
            cursor_before: model.cursor,
            cursor_after: cursor,
        });
        model.at += 1;
    }
    model.cursor = cursor;
}

/// The laws of one change, on the texts before and after it.
fn algebra(change: &ChangeSet, before: &str, after: &str) {
    let old = Rope::from_str(before);
    let mut new = old.clone();
    change.apply(&mut new).expect("fits");
    assert_eq!(new.to_string(), after, "apply is the naive edit");
    assert_eq!(change.len_after(), new.len_chars());
    let inverse = change.invert(&old);
    let mut back = new.clone();
    inverse
        .apply(&mut back)
        .expect("the inverse fits the new text");
    assert_eq!(back.to_string(), before, "apply ∘ invert is the identity");
    let both = change
        .clone()
        .compose(inverse.clone())
        .expect("a change and its inverse chain");
    let mut round = old.clone();
    both.apply(&mut round).expect("fits");
    assert_eq!(
        round.to_string(),
        before,
        "compose is sequential application"
    );
    let rebuilt = ChangeSet::from_edits(
        change.len_before(),
        change.edits().into_iter().map(|(a, b, s)| (a, b, Some(s))),
    )
    .expect("edits() are sorted and disjoint");
    assert_eq!(&rebuilt, change, "edits() rebuilds the change");
    for assoc in [Assoc::Before, Assoc::After] {
        let mut previous = 0;
        for pos in 0..=change.len_before() {
            let mapped = change.map_pos(pos, assoc);
            assert!(mapped <= change.len_after(), "{pos} maps past the end");
            assert!(mapped >= previous, "map_pos is not monotonic at {pos}");
            previous = mapped;
        }
    }
}

/// Sorted, disjoint `(from, to, text)` edits applied to a `String` from the
/// back, by char index.
fn naive_apply(text: &str, edits: &[(usize, usize, Option<String>)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (from, to, insert) in edits.iter().rev() {
        let insert = insert.as_deref().unwrap_or("");
        chars.splice(*from..*to, insert.chars());
    }
    chars.into_iter().collect()
}

/// The model of cursor clamping: lines end at `\n` (a `\r` before it is no
/// column), the last line is whatever follows the last `\n`.
fn clamp(text: &str, wanted: Position) -> Position {
    let lines: Vec<&str> = text.split('\n').collect();
    let line = wanted.line.min(lines.len() - 1);
    let body = if line + 1 < lines.len() {
        lines[line].strip_suffix('\r').unwrap_or(lines[line])
    } else {
        lines[line]
    };
    Position::new(line, wanted.col.min(body.chars().count()))
}

fn same_tree(buffer: &mut Buffer) {
    let text = buffer.text().clone();
    let fresh = SyntaxTree::parse(&text).expect("Python parses");
    let incremental = buffer.ensure_syntax().expect("a .py buffer has a tree");
    if fresh.has_errors() {
        assert!(
            incremental.has_errors(),
            "incremental tree without errors for {:?}",
            text.to_string()
        );
    } else {
        assert_eq!(
            incremental.to_sexp(),
            fresh.to_sexp(),
            "incremental tree differs for {:?}",
            text.to_string()
        );
    }
}

fn stamp() -> DiskStamp {
    DiskStamp {
        len: 0,
        mtime_ns: 0,
        hash: String::new(),
        ino: 0,
    }
}

/// `a.py` of a workspace that existed long enough to resolve it.
fn path() -> WorkspacePath {
    static PATH: OnceLock<WorkspacePath> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temp dir");
        let ws = Workspace::new(dir.path(), 1 << 20).expect("a workspace");
        ws.resolve("a.py").expect("a.py resolves")
    })
    .clone()
}
