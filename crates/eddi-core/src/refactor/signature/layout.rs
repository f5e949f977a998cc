//! Rebuilding a comma-separated list (a call's arguments, a `def`'s
//! parameters) in a new order, with entries dropped or added, keeping what
//! it does not need to touch: each kept entry's text, the separators and
//! comments after it, the line breaks and indentation of a list written
//! one entry per line, a trailing comma.

use std::ops::Range;

use super::edits::{Piece, Rewrite};
use super::target::Parsed;

/// One entry of the new list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Item {
    /// Entry `index` of the old list, as `pieces` (usually `Keep` of its
    /// range; a renamed keyword is the new name and the rest kept).
    Old {
        index: usize,
        pieces: Vec<Piece>,
    },
    New(String),
}

impl Item {
    pub fn kept(index: usize, range: Range<usize>) -> Item {
        Item::Old {
            index,
            pieces: vec![Piece::Keep(range)],
        }
    }
}

/// The rewrite of the list between the brackets at `inside` whose entries
/// are at `entries`, into `items`; `None` when that is the list as it is.
/// `line_indent` is the indentation of entries written one per line.
pub(super) fn relayout(
    file: &Parsed,
    inside: Range<usize>,
    entries: &[Range<usize>],
    line_indent: Option<&str>,
    items: Vec<Item>,
) -> Option<Rewrite> {
    let unchanged = items.len() == entries.len()
        && items.iter().enumerate().all(|(i, item)| {
            matches!(item, Item::Old { index, pieces }
                if *index == i && *pieces == [Piece::Keep(entries[i].clone())])
        });
    if unchanged {
        return None;
    }
    // every kept entry once, and only entries that exist (the callers'
    // contract; anything else is rebuilt from the entries' texts alone)
    let mut seen = vec![false; entries.len()];
    let sound = items.iter().all(|i| match i {
        Item::Old { index, .. } => {
            *index < entries.len() && !std::mem::replace(&mut seen[*index], true)
        }
        Item::New(_) => true,
    });
    if !sound {
        let mut pieces = Vec::new();
        for (k, item) in items.into_iter().enumerate() {
            if k > 0 {
                pieces.push(Piece::Text(", ".into()));
            }
            match item {
                Item::Old { pieces: p, .. } => pieces.extend(p),
                Item::New(text) => pieces.push(Piece::Text(text)),
            }
        }
        return Some(Rewrite {
            range: inside,
            pieces,
        });
    }
    let separator = match line_indent {
        Some(indent) => format!(",\n{indent}"),
        None => ", ".to_string(),
    };
    // kept entries fill the old places of kept entries, in the new order
    let mut places: Vec<usize> = items
        .iter()
        .filter_map(|i| match i {
            Item::Old { index, .. } => Some(*index),
            Item::New(_) => None,
        })
        .collect();
    places.sort_unstable();
    let mut content: Vec<Option<Vec<Piece>>> = vec![None; entries.len()];
    // which old entry each place now holds
    let mut source: Vec<usize> = (0..entries.len()).collect();
    let mut after: Vec<Vec<String>> = vec![Vec::new(); entries.len()];
    let mut before_all: Vec<String> = Vec::new();
    let mut next_place = 0;
    let mut last: Option<usize> = None;
    for item in items {
        match item {
            Item::Old { index, pieces } => {
                let place = places[next_place];
                next_place += 1;
                content[place] = Some(pieces);
                source[place] = index;
                last = Some(place);
            }
            Item::New(text) => match last {
                Some(place) => after[place].push(text),
                None => before_all.push(text),
            },
        }
    }
    let mut pieces = Vec::new();
    if places.is_empty() {
        // nothing of the old list is left
        if !before_all.is_empty() {
            let lead = entries
                .first()
                .map(|e| file.slice(inside.start..e.start))
                .unwrap_or_default();
            let trail = entries
                .last()
                .map(|e| file.slice(e.end..inside.end))
                .unwrap_or_default();
            let (lead, trail) = if line_indent.is_some() {
                (lead, trail.trim_start_matches(',').to_string())
            } else {
                (String::new(), String::new())
            };
            pieces.push(Piece::Text(lead + &before_all.join(&separator) + &trail));
        }
        return Some(Rewrite {
            range: inside,
            pieces: if pieces.is_empty() {
                vec![Piece::Text(String::new())]
            } else {
                pieces
            },
        });
    }
    pieces.push(Piece::Keep(inside.start..entries[0].start));
    for text in &before_all {
        pieces.push(Piece::Text(format!("{text}{separator}")));
    }
    let end = entries.len() - 1;
    for (k, &place) in places.iter().enumerate() {
        pieces.extend(content[place].take().unwrap_or_default());
        // what followed this place (with the comment of the entry that is
        // there now), or the end of the list
        let sep = if places.get(k + 1).is_some() || place == end {
            separator_after(file, entries, &inside, place, source[place])
        } else {
            closing_after(file, entries, &inside, place, source[place])
        };
        pieces.push(Piece::Text(with_inserted(
            &sep,
            &after[place],
            line_indent,
            &separator,
        )));
    }
    Some(Rewrite {
        range: inside,
        pieces,
    })
}

/// What closes the list after `place` when the entries after it are gone:
/// its own line end (comment included), then the original closing line.
fn closing_after(
    file: &Parsed,
    entries: &[Range<usize>],
    inside: &Range<usize>,
    place: usize,
    moved_from: usize,
) -> String {
    let end = entries.len() - 1;
    let sep = separator_after(file, entries, inside, place, moved_from);
    let trail = file
        .slice(entries[end].end..inside.end)
        .replace("\r\n", "\n");
    match (sep.rfind('\n'), trail.rfind('\n')) {
        (Some(s), Some(t)) => {
            let mut kept = sep[..=s].to_string();
            if !trail.trim_start().starts_with(',') {
                kept = kept.replacen(',', "", 1);
            }
            kept + &trail[t + 1..]
        }
        _ => trail,
    }
}

/// `sep` (what follows an entry) with `inserted` entries after that entry:
/// in a list written one entry per line, each on a line of its own after
/// the entry's line (and its comment); else `, x` right after it.
fn with_inserted(
    sep: &str,
    inserted: &[String],
    line_indent: Option<&str>,
    separator: &str,
) -> String {
    if inserted.is_empty() {
        return sep.to_string();
    }
    match (line_indent, sep.find('\n')) {
        (Some(indent), Some(line_end)) => {
            let (head, rest) = sep.split_at(line_end);
            let had_comma = head.trim_start().starts_with(',');
            let head = if had_comma {
                head.to_string()
            } else {
                format!(",{head}")
            };
            let lines: Vec<String> = inserted.iter().map(|x| format!("\n{indent}{x}")).collect();
            let comma = if had_comma { "," } else { "" };
            format!("{head}{}{comma}{rest}", lines.join(","))
        }
        _ => {
            let before: String = inserted.iter().map(|x| format!("{separator}{x}")).collect();
            before + sep
        }
    }
}

/// The text between entry `place` and the next one (or the closing
/// bracket), where the entry that was at `moved_from` now stands: in a
/// list written one entry per line, a comment at the end of a line belongs
/// to the entry on it and moves with it.
fn separator_after(
    file: &Parsed,
    entries: &[Range<usize>],
    inside: &Range<usize>,
    place: usize,
    moved_from: usize,
) -> String {
    // line breaks as `\n`, as inserted text has them
    let after = |i: usize| {
        let end = entries.get(i + 1).map_or(inside.end, |e| e.start);
        file.slice(entries[i].end..end).replace("\r\n", "\n")
    };
    let here = after(place);
    if moved_from == place {
        return here;
    }
    let there = after(moved_from);
    let (Some(line_end), Some(their_end)) = (here.find('\n'), there.find('\n')) else {
        return here;
    };
    // `,  # comment` → `,  ` and `# comment`
    let split = |head: &str| -> (String, Option<String>) {
        match head.find('#') {
            Some(h) => (head[..h].to_string(), Some(head[h..].to_string())),
            None => (head.to_string(), None),
        }
    };
    let (punctuation, _) = split(&here[..line_end]);
    let (_, comment) = split(&there[..their_end]);
    let head = match comment {
        Some(c) if punctuation.ends_with(' ') => format!("{punctuation}{c}"),
        Some(c) => format!("{punctuation}  {c}"),
        None => punctuation.trim_end().to_string(),
    };
    head + &here[line_end..]
}

/// The indentation of the first entry of a list that starts on a line of
/// its own (`f(\n    a,\n    b)`); `None` for a list that starts after
/// its bracket.
pub(super) fn line_indent(
    file: &Parsed,
    inside_start: usize,
    first_entry: usize,
) -> Option<String> {
    if !file.slice(inside_start..first_entry).contains('\n') {
        return None;
    }
    let text = file.text();
    let line_start = text.line_to_char(text.char_to_line(first_entry));
    Some(file.slice(line_start..first_entry))
}
