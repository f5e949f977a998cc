//! One file's edits as *rewrites* that may nest: an argument list rebuilt
//! from its arguments' texts may contain a renamed keyword or another call
//! whose arguments are rebuilt too (`f(f(1, 2), 3)`, `return f(b, a)` in
//! `f`'s body). Each rewrite keeps parts of the original text by range;
//! rendering applies the rewrites inside a kept range to it, so nested
//! changes compose instead of overlapping.

use std::ops::Range;

use ropey::Rope;

use crate::change::{Indel, TextEdits};

/// Part of a rewrite's new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Piece {
    /// The original text of this char range, with the rewrites inside it.
    Keep(Range<usize>),
    Text(String),
}

/// `range` of the original text becomes `pieces`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Rewrite {
    pub range: Range<usize>,
    pub pieces: Vec<Piece>,
}

impl Rewrite {
    pub fn text(range: Range<usize>, text: impl Into<String>) -> Rewrite {
        Rewrite {
            range,
            pieces: vec![Piece::Text(text.into())],
        }
    }
}

/// The rewrites of one file, turned into disjoint edits. `Err` names two
/// rewrites that overlap without one containing the other (a bug: callers
/// only rewrite whole argument lists and names).
pub(super) fn to_edits(text: &Rope, mut rewrites: Vec<Rewrite>) -> Result<TextEdits, String> {
    // outer before inner: by start, then the longer first
    rewrites.sort_by(|a, b| {
        (a.range.start, std::cmp::Reverse(a.range.end))
            .cmp(&(b.range.start, std::cmp::Reverse(b.range.end)))
    });
    rewrites.dedup();
    let mut indels = Vec::new();
    let mut i = 0;
    while i < rewrites.len() {
        let outer = i;
        i += 1;
        while i < rewrites.len() && rewrites[i].range.start < rewrites[outer].range.end {
            if rewrites[i].range.end > rewrites[outer].range.end {
                return Err(format!(
                    "overlapping rewrites at chars {:?} and {:?}",
                    rewrites[outer].range, rewrites[i].range
                ));
            }
            i += 1;
        }
        let inner = &rewrites[outer + 1..i];
        let mut out = String::new();
        render(text, &rewrites[outer], inner, &mut out)?;
        // inserted text has `\n` line breaks (the applier writes the file's)
        indels.push(Indel::new(
            rewrites[outer].range.clone(),
            out.replace("\r\n", "\n"),
        ));
    }
    TextEdits::new(indels).map_err(|(a, b)| format!("overlapping edits at {a:?} and {b:?}"))
}

/// `rewrite`'s text; `inner` are the rewrites inside its range, sorted
/// outer before inner.
fn render(
    text: &Rope,
    rewrite: &Rewrite,
    inner: &[Rewrite],
    out: &mut String,
) -> Result<(), String> {
    for piece in &rewrite.pieces {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Keep(range) => keep(text, range.clone(), inner, out)?,
        }
    }
    Ok(())
}

/// The original text of `range` with the rewrites of `inner` that lie
/// inside it applied (those that straddle its ends are refused).
fn keep(
    text: &Rope,
    range: Range<usize>,
    inner: &[Rewrite],
    out: &mut String,
) -> Result<(), String> {
    let mut at = range.start;
    let mut i = 0;
    while i < inner.len() {
        let r = &inner[i];
        if r.range.end <= range.start || r.range.start >= range.end {
            i += 1; // outside this kept range (in a dropped part)
            continue;
        }
        if r.range.start < range.start || r.range.end > range.end {
            return Err(format!(
                "a rewrite at chars {:?} straddles a kept range {range:?}",
                r.range
            ));
        }
        let mut j = i + 1;
        while j < inner.len() && inner[j].range.start < r.range.end {
            j += 1;
        }
        out.extend(text.slice(at..r.range.start).chunks());
        render(text, r, &inner[i + 1..j], out)?;
        at = r.range.end;
        i = j;
    }
    out.extend(text.slice(at..range.end).chunks());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_rewrites_compose() {
        let text = Rope::from_str("f(f(1, 2), 3)");
        // outer: swap the arguments; inner: swap too
        let outer = Rewrite {
            range: 2..12,
            pieces: vec![
                Piece::Keep(11..12),
                Piece::Text(", ".into()),
                Piece::Keep(2..9),
            ],
        };
        let inner = Rewrite {
            range: 4..8,
            pieces: vec![
                Piece::Keep(7..8),
                Piece::Text(", ".into()),
                Piece::Keep(4..5),
            ],
        };
        let edits = to_edits(&text, vec![inner, outer]).unwrap();
        assert_eq!(edits.apply(&text).unwrap().to_string(), "f(3, f(2, 1))");
    }

    #[test]
    fn straddling_rewrites_are_refused() {
        let text = Rope::from_str("abcdef");
        let a = Rewrite::text(0..3, "x");
        let b = Rewrite::text(2..5, "y");
        assert!(to_edits(&text, vec![a, b]).is_err());
    }
}
