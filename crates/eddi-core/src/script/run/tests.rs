//! The snapshot's mapping of spans through the edits made since they were
//! found: what follows, what stretches, what is a conflict naming the
//! statement that broke it.

use ropey::Rope;

use super::snapshot::Snapshot;
use crate::change::Base;
use crate::script::ast::Span;
use crate::workspace::WorkspacePath;

fn at(line: usize, col: usize) -> Span {
    Span {
        start: 0,
        end: 0,
        line,
        col,
    }
}

fn snapshot(text: &str) -> Snapshot {
    let mut snapshot = Snapshot::default();
    snapshot.insert(
        WorkspacePath::from_persisted("a.py".to_owned()).unwrap(),
        Base::Absent,
        Rope::from_str(text),
    );
    snapshot
}

#[test]
fn spans_follow_edits_before_them_and_stretch_with_edits_inside() {
    let mut s = snapshot("aaa bbb ccc");
    s.edit("a.py", 0..3, "xxxxx", at(1, 1));
    assert_eq!(s.map("a.py", 0, 4..7), Ok(6..9));
    s.edit("a.py", 7..8, "BB", at(1, 5));
    assert_eq!(s.map("a.py", 0, 4..7), Ok(6..10));
    // after it: untouched
    assert_eq!(s.map("a.py", 0, 8..11), Ok(11..14));
    assert_eq!(s.get("a.py").unwrap().text.to_string(), "xxxxx bBBb ccc");
}

#[test]
fn an_element_replaced_whole_is_the_new_text_and_one_removed_is_a_conflict() {
    let mut s = snapshot("aaa bbb ccc");
    s.edit("a.py", 4..7, "BBBBB", at(1, 1));
    assert_eq!(s.map("a.py", 0, 4..7), Ok(4..9));
    let mut s = snapshot("aaa bbb ccc");
    s.edit("a.py", 4..8, "", at(2, 3));
    let lost = s.map("a.py", 0, 4..7).unwrap_err();
    assert_eq!((lost.by.line, lost.by.col, lost.removed), (2, 3, true));
}

#[test]
fn an_edit_across_an_edge_is_a_conflict_naming_its_statement() {
    let mut s = snapshot("aaa bbb ccc");
    s.edit("a.py", 2..5, "-", at(3, 7));
    let lost = s.map("a.py", 0, 4..7).unwrap_err();
    assert_eq!((lost.by.line, lost.by.col, lost.removed), (3, 7, false));
    // a span found after the edit maps from its own version
    assert_eq!(s.map("a.py", 1, 3..5), Ok(3..5));
}

#[test]
fn the_change_is_the_edits_from_the_text_read_and_restore_undoes_them() {
    let mut s = snapshot("one\ntwo\nthree\n");
    let before = s.clone();
    s.edit("a.py", 4..7, "TWO", at(1, 1));
    assert_eq!(s.change().touched().len(), 1);
    s.restore(&before);
    assert!(s.change().is_empty());
    assert!(s.changed().is_empty());
}
