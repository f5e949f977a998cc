//! Strings that may name a renamed member at run time, anywhere in the
//! project: a string that is the member's name (`getattr(obj, "old")`,
//! `func_name = "get_template"`, a dispatch table's key) and code written
//! in a string that calls it (`"environment.get_template("` in jinja2's
//! code generator, `eval("obj.old()")`). The rename cannot tell which
//! object such a use reaches: each is a *possible* use.
//!
//! Docstrings and other triple-quoted strings are prose: a mention there
//! is reported by the rename's mention search, not here.

use std::ops::Range;

use rayon::prelude::*;

use super::text::{self, Context};
use crate::analysis::index::Location;
use crate::edit::Position;
use crate::refactor::{Sources, Unproven};

/// The strings of `src` (the file `path`) that may name the member `old`.
pub(super) fn in_file(path: &str, src: &str, old: &str) -> Vec<Unproven> {
    let mut found = Vec::new();
    if memchr::memmem::find(src.as_bytes(), old.as_bytes()).is_none() {
        return found;
    }
    let b = src.as_bytes();
    for occurrence in text::occurrences(src, old, || text::tree_of_text(src)) {
        if !matches!(
            occurrence.context,
            Context::String | Context::Data(_) | Context::Dynamic
        ) {
            continue;
        }
        let Range { start, end } = occurrence.range;
        if in_triple_quotes(src, start) {
            continue;
        }
        let before = start.checked_sub(1).map(|i| b[i]);
        let after = b.get(end).copied();
        let why = match (before, after) {
            (Some(q @ (b'"' | b'\'')), Some(a)) if a == q => {
                "a string that is the member's name, which code may use to reach it at run time"
            }
            (Some(b'.'), Some(b'(')) => "code in a string that calls it, run at run time",
            _ => continue,
        };
        found.push(Unproven {
            site: location(path, src, start..end),
            why: why.to_owned(),
        });
    }
    found
}

/// Searches every file in parallel; files that cannot be read are skipped
/// (the rename reads what it changes again, and refuses then).
pub(in crate::refactor) fn in_project(
    sources: &dyn Sources,
    paths: &[&str],
    old: &str,
) -> Vec<Unproven> {
    let mut found: Vec<Unproven> = paths
        .par_iter()
        .flat_map_iter(|path| {
            sources
                .search_text(path)
                .map(|src| in_file(path, &src, old))
                .unwrap_or_default()
        })
        .collect();
    found.sort_by(|a, b| a.site.cmp(&b.site));
    found
}

/// Whether the byte `at` is on a line with a triple quote before it: a
/// docstring's prose (a cheap test that errs towards prose).
fn in_triple_quotes(src: &str, at: usize) -> bool {
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[at..].find('\n').map_or(src.len(), |i| at + i);
    let line = &src[line_start..line_end];
    if line.contains("\"\"\"") || line.contains("'''") {
        return true;
    }
    // inside a multi-line triple-quoted string: an odd number of triple
    // quotes before the line
    let before = &src[..line_start];
    (before.matches("\"\"\"").count() + before.matches("'''").count()) % 2 == 1
}

/// The location of a byte range, columns in chars.
fn location(path: &str, src: &str, range: Range<usize>) -> Location {
    let pos = |at: usize| {
        let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
        Position::new(
            src[..line_start].matches('\n').count(),
            src[line_start..at].chars().count(),
        )
    };
    Location {
        path: path.to_owned(),
        position: pos(range.start),
        end: pos(range.end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(src: &str, old: &str) -> Vec<String> {
        in_file("m.py", src, old)
            .into_iter()
            .map(|u| u.site.to_string())
            .collect()
    }

    #[test]
    fn a_string_that_is_the_name_and_code_calling_it_are_found_not_prose() {
        let src = "def gen(w):\n    w.write(\"t = environment.get_template(\")\n    name = 'get_template'\n    return getattr(env, \"get_template\")\n\n\ndef doc():\n    \"\"\"Calls env.get_template(name).\"\"\"\n    '''\n    also get_template and x.get_template(\n    '''\n    print(\"get_template is a word\", \"my_get_template\")\n";
        assert_eq!(
            found(src, "get_template"),
            vec!["m.py:1:29", "m.py:2:12", "m.py:3:25"]
        );
    }
}
