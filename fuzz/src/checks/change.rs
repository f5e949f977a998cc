//! The multi-file change, pure: `TextEdits` and `WorkspaceChange::union`
//! checked against models written from their documentation.
//!
//! - `TextEdits::new` drops no-ops (an empty insertion at one offset),
//!   accepts exactly the edits whose ranges are well formed (start ≤ end)
//!   and pairwise disjoint (touching is fine, and so are several
//!   insertions at one offset; an insertion strictly inside a replaced
//!   range is an overlap), and keeps them sorted by position, in the given
//!   order at equal positions;
//! - `union` of two valid sets fails exactly when one of each overlaps,
//!   and otherwise is `new` of both; it succeeds or fails the same way
//!   whatever the order;
//! - `apply` is the naive edit of the base text, inserted text in the
//!   base's line-ending style, and refuses ranges past the end;
//! - `WorkspaceChange::union` combines exactly what the doc says combines
//!   (edits of one file against one base that do not overlap; two
//!   deletions) and refuses everything else touching a file twice, and any
//!   move whose destination is touched by anything else — another file's
//!   part or another move.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;

use eddi::change::{Base, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use eddi::workspace::{Workspace, WorkspacePath};
use ropey::Rope;

use super::input::Input;

const PIECES: &[&str] = &["a", "xy", "\n", "\r\n", "世", "🎉", "def f():\n"];
const NAMES: &[&str] = &["a.py", "b.py", "c/d.py"];

pub fn check(data: &[u8]) {
    let mut input = Input::new(data);
    let base = input.text(PIECES, 8);
    let len = base.chars().count();
    let first = indels(&mut input, len);
    let second = indels(&mut input, len);
    let a = text_edits(&first);
    let b = text_edits(&second);
    if let (Some(a), Some(b)) = (a, b) {
        union_of_edits(&a, &b);
        applies(&a, &base);
    }
    workspace_changes(&mut input);
}

/// Up to five indels, ranges anywhere around the text (some inverted or
/// past the end).
fn indels(input: &mut Input, len: usize) -> Vec<Indel> {
    (0..input.below(6))
        .map(|_| {
            let start = input.below(len + 3);
            let end = if input.below(8) == 0 {
                input.below(len + 3) // maybe inverted
            } else {
                start + input.below(4)
            };
            let insert = if input.bool() {
                input.text(PIECES, 2)
            } else {
                String::new()
            };
            Indel::new(start..end, insert)
        })
        .collect()
}

fn overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    let inside = |point: usize, r: &Range<usize>| r.start < point && point < r.end;
    if a.start == a.end {
        return inside(a.start, b);
    }
    if b.start == b.end {
        return inside(b.start, a);
    }
    a.start.max(b.start) < a.end.min(b.end)
}

/// `TextEdits::new` against the model; the accepted set, if any.
fn text_edits(indels: &[Indel]) -> Option<TextEdits> {
    let kept: Vec<Indel> = indels
        .iter()
        .filter(|i| !(i.range.start == i.range.end && i.insert.is_empty()))
        .cloned()
        .collect();
    let well_formed = kept.iter().all(|i| i.range.start <= i.range.end);
    let disjoint = kept
        .iter()
        .enumerate()
        .all(|(n, x)| kept[n + 1..].iter().all(|y| !overlap(&x.range, &y.range)));
    let result = TextEdits::new(indels.iter().cloned());
    assert_eq!(
        result.is_ok(),
        well_formed && disjoint,
        "TextEdits::new({indels:?}) = {result:?}"
    );
    let edits = result.ok()?;
    let mut sorted = kept;
    sorted.sort_by_key(|i| (i.range.start, i.range.end)); // stable
    let got: Vec<Indel> = edits.iter().cloned().collect();
    assert_eq!(got, sorted, "sorted, no-ops dropped, order kept at ties");
    Some(edits)
}

fn union_of_edits(a: &TextEdits, b: &TextEdits) {
    let crosses = a
        .iter()
        .any(|x| b.iter().any(|y| overlap(&x.range, &y.range)));
    let ab = a.clone().union(b.clone());
    let ba = b.clone().union(a.clone());
    assert_eq!(ab.is_ok(), !crosses, "union of {a:?} and {b:?}: {ab:?}");
    assert_eq!(ab.is_ok(), ba.is_ok(), "union is not symmetric");
    if let Ok(both) = ab {
        let direct = TextEdits::new(a.iter().chain(b.iter()).cloned()).expect("disjoint");
        assert_eq!(both, direct);
    }
}

fn applies(edits: &TextEdits, base: &str) {
    let rope = Rope::from_str(base);
    let len = base.chars().count();
    let fits = edits.iter().all(|i| i.range.end <= len);
    let result = edits.apply(&rope);
    assert_eq!(result.is_ok(), fits, "apply {edits:?} to {base:?}");
    let Ok(text) = result else { return };
    let crlf = base.find('\n').is_some_and(|at| base[..at].ends_with('\r'));
    let mut chars: Vec<char> = base.chars().collect();
    for indel in edits.iter().collect::<Vec<_>>().into_iter().rev() {
        let lf = indel.insert.replace("\r\n", "\n");
        let insert = if crlf { lf.replace('\n', "\r\n") } else { lf };
        chars.splice(indel.range.clone(), insert.chars());
    }
    assert_eq!(text.to_string(), chars.into_iter().collect::<String>());
}

/// One file's part of a change, from a few bytes.
fn file_change(input: &mut Input) -> (usize, FileChange) {
    let file = input.below(NAMES.len());
    let base = match input.below(3) {
        0 => Base::Absent,
        1 => Base::Buffer { version: 0 },
        _ => Base::Buffer { version: 1 },
    };
    let op = match input.below(5) {
        0 | 1 => {
            let start = input.below(6);
            let end = start + input.below(3);
            let edits = TextEdits::new([Indel::new(start..end, "x")]).expect("one edit");
            FileOp::Edit(edits)
        }
        2 => FileOp::Create("new".into()),
        3 => FileOp::Delete,
        _ => FileOp::Move {
            to: paths()[input.below(NAMES.len())].clone(),
            edits: TextEdits::default(),
        },
    };
    (file, FileChange { base, op })
}

fn change_of(parts: &[(usize, FileChange)]) -> Option<WorkspaceChange> {
    let mut change = WorkspaceChange::new();
    for (file, part) in parts {
        change.insert(paths()[*file].clone(), part.clone()).ok()?;
    }
    Some(change)
}

fn workspace_changes(input: &mut Input) {
    let ours: Vec<_> = (0..input.below(3) + 1)
        .map(|_| file_change(input))
        .collect();
    let theirs: Vec<_> = (0..input.below(3) + 1)
        .map(|_| file_change(input))
        .collect();
    let (Some(a), Some(b)) = (change_of(&ours), change_of(&theirs)) else {
        return;
    };
    // The model: merge file by file, then check every move's destination.
    let mut merged: BTreeMap<&WorkspacePath, FileChange> =
        a.files().map(|(p, f)| (p, f.clone())).collect();
    let mut ok = true;
    for (path, theirs) in b.files() {
        let combined = match merged.remove(path) {
            None => Some(theirs.clone()),
            Some(ours) if ours.base != theirs.base => None,
            Some(ours) => match (&ours.op, &theirs.op) {
                (FileOp::Edit(x), FileOp::Edit(y)) => {
                    x.clone().union(y.clone()).ok().map(|edits| FileChange {
                        base: ours.base.clone(),
                        op: FileOp::Edit(edits),
                    })
                }
                (FileOp::Delete, FileOp::Delete) => Some(ours.clone()),
                _ => None,
            },
        };
        match combined {
            Some(c) => {
                merged.insert(path, c);
            }
            None => ok = false,
        }
    }
    let destinations: Vec<&WorkspacePath> = merged
        .values()
        .filter_map(|f| match &f.op {
            FileOp::Move { to, .. } => Some(to),
            _ => None,
        })
        .collect();
    let mut unique = destinations.clone();
    unique.sort();
    unique.dedup();
    if unique.len() != destinations.len() || destinations.iter().any(|d| merged.contains_key(d)) {
        ok = false;
    }
    let result = a.clone().union(b.clone());
    assert_eq!(result.is_ok(), ok, "union of {a:?} and {b:?}: {result:?}");
    if let Ok(both) = result {
        let got: BTreeMap<&WorkspacePath, FileChange> =
            both.files().map(|(p, f)| (p, f.clone())).collect();
        assert_eq!(got, merged);
        let touched = both.touched();
        assert!(
            touched.windows(2).all(|w| w[0] <= w[1]),
            "touched() is sorted"
        );
    }
}

/// Workspace paths of `NAMES`, resolved once.
fn paths() -> &'static [WorkspacePath] {
    static PATHS: OnceLock<Vec<WorkspacePath>> = OnceLock::new();
    PATHS.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temp dir");
        let ws = Workspace::new(dir.path(), 1 << 20).expect("a workspace");
        NAMES
            .iter()
            .map(|n| ws.resolve(n).expect("resolves"))
            .collect()
    })
}
