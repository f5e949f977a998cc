//! Long outputs are shortened in tiers, and always say so: never a silent cut.

use crate::reply::{plural, Clause};

/// A list of names: all of them; else the first ones and a count; else the count.
pub(super) fn list_in_tiers(noun: &str, items: &[String], limit: usize) -> String {
    let all = items.join(", ");
    if all.chars().count() <= limit {
        return all;
    }
    let mut shown = Vec::new();
    let mut used = 0;
    for item in items {
        used += item.chars().count() + 2;
        if used > limit.saturating_sub(60) {
            break;
        }
        shown.push(item.as_str());
    }
    let total = items.len();
    if shown.is_empty() {
        return format!("{total} {}", plural(total, noun));
    }
    format!(
        "{total} {} (first {}: {}; narrow it with a pattern)",
        plural(total, noun),
        shown.len(),
        shown.join(", ")
    )
}

/// Text for a `Txt` clause: whole, or its first lines with a note of what was left out.
pub(super) fn text_in_tiers(text: &str, limit: usize) -> Vec<Clause> {
    if text.chars().count() <= limit {
        return vec![Clause::Txt(text.to_owned())];
    }
    let total = text.lines().count();
    let mut kept = String::new();
    let mut lines = 0;
    for line in text.lines() {
        if kept.chars().count() + line.chars().count() + 1 > limit {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
        lines += 1;
    }
    vec![
        Clause::Note(format!("Shortened to {lines} of {total} lines (limit {limit} chars; Set Limit <n> to raise it)")),
        Clause::Txt(kept.trim_end_matches('\n').to_owned()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_shorten_in_tiers() {
        let items: Vec<String> = (0..100).map(|i| format!("file{i}.py")).collect();
        assert_eq!(
            list_in_tiers("file", &items[..2], 100),
            "file0.py, file1.py"
        );
        let shortened = list_in_tiers("file", &items, 100);
        assert!(
            shortened.starts_with("100 files (first 4: file0.py, file1.py, file2.py, file3.py;"),
            "{shortened}"
        );
        assert_eq!(list_in_tiers("file", &items, 10), "100 files");
    }

    #[test]
    fn text_says_when_it_was_shortened() {
        let text = "line\n".repeat(100);
        let clauses = text_in_tiers(&text, 50);
        assert_eq!(
            clauses[0],
            Clause::Note(
                "Shortened to 10 of 100 lines (limit 50 chars; Set Limit <n> to raise it)".into()
            )
        );
    }
}
