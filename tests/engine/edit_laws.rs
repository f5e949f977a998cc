//! Laws of the edit model, checked on random documents and random edits.
//!
//! In the spirit of helix-core's transaction tests: instead of examples,
//! each test states an algebraic law (apply then invert is the identity,
//! compose is sequential application, undo/redo are exact, mapped positions
//! stay valid) and proptest searches for a counter-example. Documents mix
//! multi-byte text (CJK, emoji, combining marks, a ZWJ), CRLF and LF line
//! ends, lone `\r`, and files with or without a final newline, so a mix-up
//! of chars and bytes or a split CRLF shows up as a failing case.
//!
//! The last group drives the whole engine on real files in temp dirs: CRLF
//! and unterminated files, edited with `Insert Line`, `Delete Line` and
//! `Replace`, saved, undone (also after a restart that restores the session
//! from its journal) and saved again, must round-trip byte for byte.
//!
//! Case counts are modest on purpose: the suite runs in a few seconds.

use eddi::edit::{position, Assoc, ChangeError, ChangeSet, Position};
use eddi::engine::{Engine, EngineConfig, Request};
use eddi::session::Buffer;
use eddi::workspace::{DiskStamp, Workspace, WorkspacePath};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use ropey::Rope;

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

/// Pieces of line content: ASCII code, CJK, emoji (one char and a ZWJ
/// sequence), a decomposed é (e + combining acute), a regional-indicator flag.
const FRAGMENTS: &[&str] = &[
    "def f(x):",
    "x = 1",
    "    ",
    "return",
    "世界",
    "🎉",
    "👩\u{200d}💻",
    "e\u{301}",
    "naïve",
    "ß",
    "# note",
    "🇫🇷",
    "a",
];

/// Pieces of inserted text, line breaks of both styles included.
const INSERTS: &[&str] = &[
    "a", "xy", "\n", "\r\n", "世", "🎉", "e\u{301}", "\r", " ", "ok",
];

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(select(FRAGMENTS), 0..4).prop_map(|parts| parts.concat())
}

/// A document as lines plus its conventions, so tests can also predict it.
#[derive(Debug, Clone)]
struct Doc {
    lines: Vec<String>,
    ending: &'static str,
    final_newline: bool,
}

impl Doc {
    /// The canonical form of what the text says: a trailing empty line
    /// without final newline is the same text as a final newline.
    fn normalize(&mut self) {
        if !self.final_newline && self.lines.last().is_some_and(String::is_empty) {
            self.lines.pop();
            self.final_newline = true;
        }
        if self.lines.is_empty() {
            self.final_newline = true;
        }
    }

    /// The style a buffer opened on this text uses for inserted lines: a
    /// text without any line break has none, and Eddi then uses LF. (The
    /// style is fixed at open: a CRLF file emptied by deletes still gets
    /// CRLF lines.)
    fn opened(mut self) -> Doc {
        self.normalize();
        if self.lines.len() <= 1 && !self.final_newline || self.lines.is_empty() {
            self.ending = "\n";
        }
        self
    }

    fn render(&self) -> String {
        let mut text = self.lines.join(self.ending);
        if self.final_newline && !self.lines.is_empty() {
            text.push_str(self.ending);
        }
        text
    }
}

fn doc(lines: std::ops::Range<usize>) -> impl Strategy<Value = Doc> {
    (
        prop::collection::vec(line(), lines),
        select(&["\n", "\r\n"][..]),
        any::<bool>(),
    )
        .prop_map(|(lines, ending, final_newline)| Doc {
            lines,
            ending,
            final_newline,
        })
}

/// Any text: a well-formed document, or a raw mix of line breaks (lone
/// `\r`, mixed LF/CRLF) and multi-byte chars.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => doc(0..8).prop_map(|d| d.render()),
        1 => "[ab\r\n世🎉\u{301}]{0,30}",
    ]
}

fn insert_text() -> impl Strategy<Value = Option<String>> {
    prop::option::weighted(
        0.8,
        prop::collection::vec(select(INSERTS), 0..4).prop_map(|p| p.concat()),
    )
}

/// Raw edits: two cut points and an optional replacement each, scaled to
/// the document by [`build`].
type RawEdits = Vec<(Index, Index, Option<String>)>;

fn raw_edits() -> impl Strategy<Value = RawEdits> {
    prop::collection::vec((any::<Index>(), any::<Index>(), insert_text()), 0..5)
}

/// Turns raw edits into a valid change set for a document of `len` chars:
/// ranges are sorted and overlapping ones dropped (touching ones and
/// several insertions at one point are kept: they are legal and tricky).
fn build(len: usize, raw: &RawEdits) -> ChangeSet {
    let mut edits: Vec<(usize, usize, Option<String>)> = raw
        .iter()
        .map(|(a, b, text)| {
            let (a, b) = (a.index(len + 1), b.index(len + 1));
            (a.min(b), a.max(b), text.clone())
        })
        .collect();
    edits.sort_by_key(|e| (e.0, e.1));
    let mut kept = Vec::new();
    let mut last = 0;
    for (from, to, text) in edits {
        if from >= last {
            kept.push((from, to, text));
            last = to;
        }
    }
    ChangeSet::from_edits(len, kept).expect("sorted, disjoint, in range")
}

fn applied(change: &ChangeSet, text: &Rope) -> Rope {
    let mut out = text.clone();
    change.apply(&mut out).expect("change fits the text");
    out
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// ChangeSet algebra
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    /// apply(invert(c)) ∘ apply(c) is the identity, to the byte; lengths
    /// agree with `len_before`/`len_after`.
    #[test]
    fn apply_then_invert_restores_the_exact_text(text in text(), raw in raw_edits()) {
        let original = Rope::from_str(&text);
        let change = build(original.len_chars(), &raw);
        let inverse = change.invert(&original);
        let after = applied(&change, &original);
        prop_assert_eq!(after.len_chars(), change.len_after());
        prop_assert_eq!(inverse.len_before(), change.len_after());
        prop_assert_eq!(inverse.len_after(), change.len_before());
        let back = applied(&inverse, &after);
        prop_assert_eq!(back.to_string(), text);
    }

    /// compose(a, b) applied equals a then b, and spans a's length to b's.
    #[test]
    fn compose_equals_sequential_application(
        text in text(), raw_a in raw_edits(), raw_b in raw_edits(),
    ) {
        let original = Rope::from_str(&text);
        let a = build(original.len_chars(), &raw_a);
        let b = build(a.len_after(), &raw_b);
        let sequential = applied(&b, &applied(&a, &original));
        let composed = a.clone().compose(b.clone()).expect("a's output is b's input");
        prop_assert_eq!(composed.len_before(), a.len_before());
        prop_assert_eq!(composed.len_after(), b.len_after());
        prop_assert_eq!(applied(&composed, &original).to_string(), sequential.to_string());
        // The composed undo (invert b, then invert a) undoes both at once.
        let undo = b
            .invert(&applied(&a, &original))
            .compose(a.invert(&original))
            .expect("inverses chain");
        prop_assert_eq!(applied(&undo, &sequential).to_string(), text);
    }

    /// compose refuses changes that do not chain, rather than guessing.
    #[test]
    fn compose_refuses_changes_that_do_not_chain(
        len in 0usize..40, extra in 1usize..5, raw_a in raw_edits(), raw_b in raw_edits(),
    ) {
        let a = build(len, &raw_a);
        let b = build(a.len_after() + extra, &raw_b);
        let refused = matches!(a.compose(b), Err(ChangeError::LengthMismatch { .. }));
        prop_assert!(refused);
    }

    /// invert(invert(c)) has the same effect as c; with the normalised
    /// form it is even the same value (helix's law, kept as data).
    #[test]
    fn invert_of_invert_is_the_original_change(text in text(), raw in raw_edits()) {
        let original = Rope::from_str(&text);
        let change = build(original.len_chars(), &raw);
        let after = applied(&change, &original);
        let inverse = change.invert(&original);
        let twice = inverse.invert(&after);
        prop_assert_eq!(applied(&twice, &original).to_string(), after.to_string());
        prop_assert_eq!(twice, change);
    }

    /// A change refuses a document of any other length and leaves it untouched.
    #[test]
    fn apply_refuses_a_document_of_another_length(
        text in text(), other in text(), raw in raw_edits(),
    ) {
        let change = build(text.chars().count(), &raw);
        let mut target = Rope::from_str(&other);
        prop_assume!(target.len_chars() != change.len_before());
        let result = change.apply(&mut target);
        prop_assert_eq!(
            result,
            Err(ChangeError::LengthMismatch {
                expected: change.len_before(),
                actual: other.chars().count(),
            })
        );
        prop_assert_eq!(target.to_string(), other);
    }

    /// `edits()` lists the change in old coordinates: rebuilding from it
    /// gives the same change, and applying the listed edits from the back
    /// by hand gives the same text.
    #[test]
    fn edits_list_rebuilds_the_same_change(text in text(), raw in raw_edits()) {
        let original = Rope::from_str(&text);
        let change = build(original.len_chars(), &raw);
        let edits = change.edits();
        let rebuilt = ChangeSet::from_edits(
            original.len_chars(),
            edits.iter().map(|&(from, to, s)| (from, to, Some(s))),
        )
        .expect("edits() are sorted and disjoint");
        prop_assert_eq!(&rebuilt, &change);
        let mut by_hand = original.clone();
        for &(from, to, s) in edits.iter().rev() {
            by_hand.remove(from..to);
            by_hand.insert(from, s);
        }
        prop_assert_eq!(by_hand, applied(&change, &original));
    }
}

// ---------------------------------------------------------------------------
// Position mapping
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    /// Every old offset maps into the new text, in order; offsets before
    /// every edit stay put, offsets after every edit shift by the net
    /// length change; a mapped offset is a valid position of the new text.
    #[test]
    fn mapped_positions_stay_valid(text in text(), raw in raw_edits()) {
        let original = Rope::from_str(&text);
        let len = original.len_chars();
        let change = build(len, &raw);
        let after = applied(&change, &original);
        let edits = change.edits();
        let first_from = edits.first().map_or(len, |e| e.0);
        let last_to = edits.last().map_or(0, |e| e.1);
        let delta = change.len_after() as isize - len as isize;
        for assoc in [Assoc::Before, Assoc::After] {
            let mut previous = 0;
            for pos in 0..=len {
                let mapped = change.map_pos(pos, assoc);
                prop_assert!(mapped <= change.len_after(), "{pos} -> {mapped} past the end");
                prop_assert!(mapped >= previous, "mapping is not monotonic at {pos}");
                previous = mapped;
                let at = position::from_char(&after, mapped);
                prop_assert!(position::to_char(&after, at).is_ok(), "{at} invalid");
                if pos < first_from || (pos == first_from && assoc == Assoc::Before) {
                    prop_assert_eq!(mapped, pos, "before every edit");
                }
                if pos > last_to || (pos == last_to && assoc == Assoc::After && !edits.is_empty()) {
                    prop_assert_eq!(mapped as isize, pos as isize + delta, "after every edit");
                }
            }
        }
    }

    /// Around each edit `from..to` → `start..end` in the new text: its
    /// start maps to `start` (Before) or past the inserted text (After);
    /// offsets inside the replaced range land on its edges; its end, when
    /// something was deleted, is the first surviving char and maps to `end`
    /// whatever the association.
    #[test]
    fn positions_around_an_edit_go_to_its_edges(text in text(), raw in raw_edits()) {
        let original = Rope::from_str(&text);
        let change = build(original.len_chars(), &raw);
        let mut shift: isize = 0;
        for (from, to, inserted) in change.edits() {
            let start = (from as isize + shift) as usize;
            let end = start + inserted.chars().count();
            prop_assert_eq!(change.map_pos(from, Assoc::Before), start);
            prop_assert_eq!(change.map_pos(from, Assoc::After), end);
            for pos in from + 1..to {
                prop_assert_eq!(change.map_pos(pos, Assoc::Before), start);
                prop_assert_eq!(change.map_pos(pos, Assoc::After), end);
            }
            if to > from {
                prop_assert_eq!(change.map_pos(to, Assoc::Before), end, "end of {}..{}", from, to);
                prop_assert_eq!(change.map_pos(to, Assoc::After), end);
            }
            shift += inserted.chars().count() as isize - (to - from) as isize;
        }
    }

    /// line:col ↔ char offset: every offset round-trips, except the '\n'
    /// of a CRLF pair, which has no position of its own and reads as the
    /// end of its line; every valid position round-trips exactly; columns
    /// past the line's end and lines past the last are refused.
    #[test]
    fn positions_round_trip_on_every_offset(text in text()) {
        let rope = Rope::from_str(&text);
        for offset in 0..=rope.len_chars() {
            let pos = position::from_char(&rope, offset);
            let inside_crlf = offset > 0
                && rope.get_char(offset) == Some('\n')
                && rope.char(offset - 1) == '\r';
            let expected = if inside_crlf { offset - 1 } else { offset };
            prop_assert_eq!(position::to_char(&rope, pos), Ok(expected), "offset {}", offset);
        }
        let lines = position::line_count(&rope);
        for line in 0..lines {
            let len = position::line_len(&rope, line);
            let line_text = rope.line(line).to_string();
            let body = line_text.strip_suffix('\n').unwrap_or(&line_text);
            let body = if line_text.ends_with('\n') {
                body.strip_suffix('\r').unwrap_or(body)
            } else {
                body
            };
            prop_assert_eq!(len, body.chars().count(), "columns count chars, CR excluded");
            for col in 0..=len {
                let pos = Position::new(line, col);
                let offset = position::to_char(&rope, pos).expect("valid position");
                prop_assert_eq!(position::from_char(&rope, offset), pos);
            }
            prop_assert!(position::to_char(&rope, Position::new(line, len + 1)).is_err());
        }
        prop_assert!(position::to_char(&rope, Position::new(lines, 0)).is_err());
    }
}

// ---------------------------------------------------------------------------
// Buffer: exact undo and redo
// ---------------------------------------------------------------------------

fn buffer(text: &str) -> (tempfile::TempDir, Buffer) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::new(dir.path(), 1 << 20).unwrap();
    let path: WorkspacePath = ws.resolve("a.py").unwrap();
    let mut buffer = Buffer::new(path, text, None);
    buffer.mark_saved(DiskStamp {
        len: text.len() as u64,
        mtime_ns: 0,
        hash: String::new(),
        ino: 0,
    });
    (dir, buffer)
}

/// One buffer step: an edit (or, when `amend`, a fold into the last undo
/// step) and where the caller asks the cursor to go (clamped by the buffer).
type Step = (RawEdits, (usize, usize), bool);

fn steps(max: usize) -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (
            raw_edits(),
            (0usize..12, 0usize..16),
            prop::bool::weighted(0.2),
        ),
        1..max,
    )
}

fn state(buffer: &Buffer) -> (String, Position) {
    (buffer.text().to_string(), buffer.cursor())
}

proptest! {
    #![proptest_config(config(128))]

    /// N edits then N undos restore the exact text and cursor at every
    /// step back; N redos re-apply exactly; the saved state reads as
    /// unmodified again; the cursor is always a valid position.
    #[test]
    fn undo_restores_text_and_cursor_and_redo_reapplies(
        text in text(), start in (0usize..12, 0usize..16), steps in steps(10),
    ) {
        let (_dir, mut buffer) = buffer(&text);
        buffer.set_cursor(Position::new(start.0, start.1));
        // states[i]: text and cursor after i undo steps' worth of edits.
        let mut states = vec![state(&buffer)];
        for (raw, (line, col), amend) in &steps {
            let change = build(buffer.text().len_chars(), raw);
            let cursor = Position::new(*line, *col);
            if *amend && states.len() > 1 {
                buffer.amend(change, cursor).unwrap();
                *states.last_mut().unwrap() = state(&buffer);
            } else {
                buffer.edit(change, cursor).unwrap();
                states.push(state(&buffer));
            }
            prop_assert!(position::to_char(buffer.text(), buffer.cursor()).is_ok());
            prop_assert!(buffer.is_modified());
        }
        let n = states.len() - 1;
        prop_assert_eq!(buffer.history().undo_depth(), n);
        for i in (0..n).rev() {
            prop_assert_eq!(buffer.undo(1).len(), 1);
            prop_assert_eq!(&state(&buffer), &states[i], "after undoing to step {}", i);
        }
        prop_assert!(buffer.undo(1).is_empty(), "nothing left to undo");
        prop_assert!(!buffer.is_modified(), "back at the saved state");
        for (i, expected) in states.iter().enumerate().skip(1) {
            prop_assert_eq!(buffer.redo(1).len(), 1);
            prop_assert_eq!(&state(&buffer), expected, "after redoing to step {}", i);
        }
        prop_assert!(buffer.redo(1).is_empty(), "nothing left to redo");
        // The same walk in one go each way.
        prop_assert_eq!(buffer.undo(n + 3).len(), n);
        prop_assert_eq!(&state(&buffer), &states[0]);
        prop_assert_eq!(buffer.redo(n + 3).len(), n);
        prop_assert_eq!(&state(&buffer), &states[n]);
    }

    /// A change built for another length is refused by the buffer, which
    /// stays exactly as it was (text, cursor, history).
    #[test]
    fn buffer_refuses_a_change_of_another_length(
        text in text(), extra in 1usize..4, raw in raw_edits(), amend in any::<bool>(),
    ) {
        let (_dir, mut buffer) = buffer(&text);
        let len = buffer.text().len_chars();
        buffer
            .edit(ChangeSet::replace(len, 0, 0, "x").unwrap(), Position::new(0, 1))
            .unwrap();
        let before = state(&buffer);
        let stale = build(len + 1 + extra, &raw);
        let result = if amend {
            buffer.amend(stale, Position::ZERO)
        } else {
            buffer.edit(stale, Position::ZERO)
        };
        let refused = matches!(result, Err(ChangeError::LengthMismatch { .. }));
        prop_assert!(refused);
        prop_assert_eq!(state(&buffer), before);
        prop_assert_eq!(buffer.history().len(), 1);
        prop_assert_eq!(buffer.undo(5).len(), 1);
        prop_assert_eq!(buffer.text().to_string(), text);
    }
}

/// One action on a buffer, for the mixed-sequence law.
#[derive(Debug, Clone)]
enum Action {
    Edit(RawEdits, (usize, usize)),
    Amend(RawEdits, (usize, usize)),
    Undo(usize),
    Redo(usize),
    Save,
}

fn action() -> impl Strategy<Value = Action> {
    let cursor = (0usize..12, 0usize..16);
    prop_oneof![
        4 => (raw_edits(), cursor.clone()).prop_map(|(r, c)| Action::Edit(r, c)),
        1 => (raw_edits(), cursor).prop_map(|(r, c)| Action::Amend(r, c)),
        2 => (1usize..4).prop_map(Action::Undo),
        2 => (1usize..4).prop_map(Action::Redo),
        1 => Just(Action::Save),
    ]
}

proptest! {
    #![proptest_config(config(128))]

    /// Edits, amends, undos, redos and saves in any order: the buffer
    /// walks a model of linear history exactly (text and cursor at every
    /// step; a commit after an undo drops the redo tail), and `is_modified`
    /// is false exactly at the saved state, so it never claims unsaved
    /// text is saved.
    #[test]
    fn history_follows_a_linear_model_and_modified_tracks_the_save(
        text in text(), actions in prop::collection::vec(action(), 1..16),
    ) {
        let (_dir, mut buffer) = buffer(&text);
        // The model: states[..=at] are undoable to, states[at + 1..] redoable.
        let mut states = vec![state(&buffer)];
        let mut at = 0;
        let mut saved: Option<usize> = Some(0);
        let mut saved_text = text.clone();
        for action in &actions {
            match action {
                Action::Edit(raw, (line, col)) | Action::Amend(raw, (line, col)) => {
                    let change = build(buffer.text().len_chars(), raw);
                    let cursor = Position::new(*line, *col);
                    let amend = matches!(action, Action::Amend(..)) && at > 0;
                    if amend {
                        buffer.amend(change, cursor).unwrap();
                        if saved.is_some_and(|s| s >= at) {
                            saved = None; // amended away, or in the dropped tail
                        }
                    } else {
                        buffer.edit(change, cursor).unwrap();
                        if saved.is_some_and(|s| s > at) {
                            saved = None; // in the dropped redo tail
                        }
                        at += 1;
                    }
                    states.truncate(at + if amend { 1 } else { 0 });
                    if amend {
                        states[at] = state(&buffer);
                    } else {
                        states.push(state(&buffer));
                    }
                }
                Action::Undo(count) => {
                    let done = buffer.undo(*count).len();
                    prop_assert_eq!(done, (*count).min(at));
                    at -= done;
                }
                Action::Redo(count) => {
                    let done = buffer.redo(*count).len();
                    prop_assert_eq!(done, (*count).min(states.len() - 1 - at));
                    at += done;
                }
                Action::Save => {
                    buffer.mark_saved(DiskStamp {
                        len: 0,
                        mtime_ns: 0,
                        hash: String::new(),
        ino: 0,
                    });
                    saved = Some(at);
                    saved_text = buffer.text().to_string();
                }
            }
            prop_assert_eq!(&state(&buffer), &states[at], "after {:?}", action);
            prop_assert_eq!(buffer.history().undo_depth(), at);
            prop_assert_eq!(buffer.history().redo_depth(), states.len() - 1 - at);
            prop_assert_eq!(buffer.is_modified(), saved != Some(at), "after {:?}", action);
            if !buffer.is_modified() {
                prop_assert_eq!(buffer.text().to_string(), saved_text.clone());
            }
            prop_assert!(position::to_char(buffer.text(), buffer.cursor()).is_ok());
        }
    }
}

// ---------------------------------------------------------------------------
// Through the engine, on real files
// ---------------------------------------------------------------------------

struct Fixture {
    dir: tempfile::TempDir,
    /// `None` only inside `restart`: the state directory takes one Eddi.
    engine: Option<Engine>,
}

impl Fixture {
    fn new(file: &str, bytes: &str) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(file), bytes).unwrap();
        let engine = Some(Engine::open(EngineConfig::new(dir.path())).unwrap());
        Fixture { dir, engine }
    }

    /// Sends one message; returns whether every command in it succeeded,
    /// and the reply.
    fn send(&self, text: &str) -> (bool, String) {
        let engine = self.engine.as_ref().expect("the engine is open");
        let response = engine.execute(&Request {
            sender: "laws",
            text,
            id: None,
        });
        (response.ok, response.text)
    }

    fn must(&self, text: &str) -> String {
        let (ok, reply) = self.send(text);
        assert!(ok, "{text} -> {reply}");
        reply
    }

    /// Drops the engine and opens a new one on the same root and state
    /// directory, as after a crash: sessions come back from the journal.
    fn restart(&mut self) {
        self.engine = None;
        self.engine = Some(Engine::open(EngineConfig::new(self.dir.path())).unwrap());
    }

    fn bytes(&self, file: &str) -> Vec<u8> {
        std::fs::read(self.dir.path().join(file)).unwrap()
    }
}

/// A command-language string literal.
fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[derive(Debug, Clone)]
enum Op {
    InsertLine(usize, String),
    DeleteLine(usize),
    Replace(usize, &'static str, &'static str),
}

fn op() -> impl Strategy<Value = Op> {
    let inserted = prop::collection::vec(
        select(&["x = 1", "世界", "🎉", "e\u{301}", "say \"hi\"", "a\\b", ""][..]),
        0..3,
    )
    .prop_map(|p| p.concat());
    prop_oneof![
        (any::<usize>(), inserted).prop_map(|(at, text)| Op::InsertLine(at, text)),
        any::<usize>().prop_map(Op::DeleteLine),
        (
            any::<usize>(),
            select(&["x", "世界", "🎉", "def", "e\u{301}", "zz"][..]),
            select(&["y", "界世", "Ω Ω", "return"][..]),
        )
            .prop_map(|(at, from, to)| Op::Replace(at, from, to)),
    ]
}

/// Runs `ops` on `doc` through the engine, checking each result against a
/// line model, the saved bytes after the edits, after undoing them all
/// (the original bytes) and after redoing them all. With `restart`, the
/// undo and redo run on a freshly opened engine that restored the session
/// from its journal.
fn engine_round_trip(doc: Doc, ops: &[Op], restart: bool) -> Result<(), TestCaseError> {
    let original = doc.render();
    let mut model = doc.opened();
    assert_eq!(model.render(), original, "normalizing keeps the text");
    let mut f = Fixture::new("f.py", &original);
    let open = f.must("Start laws; Open f.py");
    prop_assert!(
        open.ends_with(&format!("Length {}", model.lines.len())),
        "{}",
        open
    );
    // A bookmark on the last line, moved through every edit after it.
    let marked = model.lines.len().saturating_sub(1);
    f.must(&format!("Bookmark mark {marked}:0"));
    let mut edits = 0;
    for op in ops {
        // Each op picks a line of the model (`at` modulo the line count).
        let line = |at: &usize| at % model.lines.len().max(1);
        let (expect_ok, message) = match op {
            Op::InsertLine(at, text) => {
                let line = line(at);
                model.lines.insert(line, text.clone());
                (true, format!("Goto {line}; Insert Line {}", quote(text)))
            }
            Op::DeleteLine(at) => {
                let line = line(at);
                let ok = !model.lines.is_empty();
                if ok {
                    model.lines.remove(line);
                }
                (ok, format!("Goto {line}; Delete Line"))
            }
            Op::Replace(at, from, to) => {
                let line = line(at);
                // The next match at or after the cursor (column 0), else the first.
                let hit = (line..model.lines.len())
                    .chain(0..line)
                    .find(|&l| model.lines[l].contains(from));
                if let Some(l) = hit {
                    model.lines[l] = model.lines[l].replacen(from, to, 1);
                }
                (
                    hit.is_some(),
                    format!("Goto {line}; Replace {} With {}", quote(from), quote(to)),
                )
            }
        };
        model.normalize();
        let (ok, reply) = f.send(&message);
        prop_assert_eq!(ok, expect_ok, "{} -> {}", message, reply);
        edits += usize::from(ok);
    }
    // The bookmark still names a valid position of the edited text.
    f.must("Goto mark");
    let edited = model.render();
    f.must("Save Force");
    prop_assert_eq!(String::from_utf8(f.bytes("f.py")).unwrap(), edited.clone());
    if restart {
        f.restart();
    }
    if edits > 0 {
        f.must(&format!("Undo {edits}"));
        let (ok, reply) = f.send("Undo");
        prop_assert!(!ok, "one undo too many must fail: {}", reply);
    }
    f.must("Save Force");
    prop_assert_eq!(
        f.bytes("f.py"),
        original.as_bytes().to_vec(),
        "undone and saved"
    );
    if edits > 0 {
        f.must(&format!("Redo {edits}"));
        f.must("Save Force");
        prop_assert_eq!(
            f.bytes("f.py"),
            edited.as_bytes().to_vec(),
            "redone and saved"
        );
    }
    Ok(())
}

proptest! {
    // Every command fsyncs the session journal: keep the case count low.
    #![proptest_config(config(24))]

    /// Files of either line-ending style, with or without a final newline,
    /// edited line-wise and by `Replace`: the saved bytes are what a line
    /// model predicts (inserted lines take the file's style), and undoing
    /// every edit then saving gives back the original bytes exactly.
    #[test]
    fn engine_edits_undone_round_trip_byte_for_byte(
        doc in doc(0..8), ops in prop::collection::vec(op(), 1..7), restart in any::<bool>(),
    ) {
        engine_round_trip(doc, &ops, restart)?;
    }
}

/// The four conventions, each edited, undone and saved, as plain cases.
#[test]
fn crlf_and_unterminated_files_round_trip() {
    for ending in ["\n", "\r\n"] {
        for final_newline in [false, true] {
            let doc = Doc {
                lines: vec!["def f(x):".into(), "    return 世界 🎉".into(), "x".into()],
                ending,
                final_newline,
            };
            let ops = [
                Op::InsertLine(2, "# e\u{301}".into()),
                Op::DeleteLine(0),
                Op::Replace(1, "世界", "Ω Ω"),
                Op::DeleteLine(3),
            ];
            for restart in [false, true] {
                if let Err(e) = engine_round_trip(doc.clone(), &ops, restart) {
                    panic!("{ending:?}, final newline {final_newline}, restart {restart}: {e}");
                }
            }
        }
    }
}
