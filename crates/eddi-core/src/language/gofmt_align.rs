//! A Go rename keeps gofmt's alignment.
//!
//! gofmt aligns the columns of a run of lines to its longest name — a
//! struct's field types and tags, a keyed literal's values, a `var` or
//! `const` group's `=`. A name renamed longer or shorter leaves the other
//! lines out of line, and `gofmt -l` lists the file. So a renamed Go file
//! that gofmt kept before is run through gofmt again, when gofmt is
//! installed and a renamed line is in such a run (a blank-padded column
//! on it or beside it): the rename's edits and gofmt's realignment are one
//! change. A file gofmt would change anyway is left as the rename wrote it.

use std::process::Command;

use ropey::Rope;

use crate::analysis::format::execute;
use crate::change::Indel;

/// `before` with `edits` (a rename's) applied, as gofmt aligns it, and
/// the edits that turn `before` into it; `None`: nothing to realign, or
/// not to be done here.
pub fn realigned(before: &Rope, edits: &[Indel]) -> Option<(Rope, Vec<Indel>)> {
    let after = crate::analysis::textedit::apply(before, edits).ok()?;
    let padded = |line: usize| {
        line < after.len_lines() && after.line(line).to_string().trim().contains("  ")
    };
    let aligned = edits.iter().any(|e| {
        let l = before.char_to_line(e.range.start.min(before.len_chars()));
        padded(l) || padded(l + 1) || l.checked_sub(1).is_some_and(padded)
    });
    if !aligned {
        return None;
    }
    let gofmt = |text: &str| execute(Command::new("gofmt"), text).ok();
    let written = before.to_string();
    if gofmt(&written)? != written {
        return None;
    }
    let renamed = after.to_string();
    let formatted = gofmt(&renamed)?;
    if formatted == renamed {
        return None;
    }
    let formatted = Rope::from_str(&formatted);
    let change = crate::edit::diff::change_between(before, &formatted);
    let indels = change
        .edits()
        .into_iter()
        .map(|(start, end, insert)| Indel::new(start..end, insert))
        .collect();
    Some((formatted, indels))
}

/// Where the chars at `offsets` (ascending) of `from` are in `to`, which
/// differs from it in blanks only (gofmt's realignment): the same count
/// of non-blank chars before each.
pub fn mapped(from: &Rope, to: &Rope, offsets: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(offsets.len());
    let (mut seen, mut at_from) = (0usize, 0usize);
    let mut to_chars = to.chars().enumerate().peekable();
    let mut to_seen = 0usize;
    let mut to_at = 0usize;
    for &offset in offsets {
        // non-blank chars of `from` before `offset`
        for c in from.chars_at(at_from).take(offset.saturating_sub(at_from)) {
            seen += usize::from(!c.is_whitespace());
        }
        at_from = at_from.max(offset);
        // the first char of `to` with as many non-blank ones before it
        // that is itself non-blank
        while let Some(&(i, c)) = to_chars.peek() {
            if to_seen == seen && !c.is_whitespace() {
                break;
            }
            to_seen += usize::from(!c.is_whitespace());
            to_chars.next();
            to_at = i + 1;
        }
        out.push(to_chars.peek().map_or(to_at, |&(i, _)| i));
    }
    out
}
