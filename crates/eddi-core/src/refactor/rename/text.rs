//! Where a name occurs outside the code the index sees: in comments and
//! string literals (found lexically, without a parse), and in the code of
//! doctest lines (`>>> …`, `... …`) inside strings.
//!
//! A string is prose or data. Prose — a docstring, a message with spaces
//! in it — is a mention that `Include Text` changes. Data — a dict key, a
//! subscript (`policies["urlize.rel"]`), a comparison operand, a call's
//! one-word argument (a template or registry name), any one-word string
//! used as a value — is never changed: other code, maybe in other files or
//! outside the project, looks things up by it. Which one a string is, is
//! read from where it stands in the tree-sitter tree
//! ([`data_role`]).

use std::ops::Range;

use tree_sitter::Node;

use std::collections::BTreeSet;

use crate::analysis::index::Location;
use crate::analysis::SyntaxTree;
use crate::edit::Position;

use super::super::{LeftAlone, Project, RefactorError};

/// What a whole-word occurrence of the name is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Context {
    Comment,
    /// String or docstring prose.
    String,
    /// A string that is data, not prose: what it is (`a dict key`, …).
    Data(&'static str),
    /// A string passed to `getattr`, `hasattr`, `setattr` or `delattr`:
    /// the attribute is named at run time.
    Dynamic,
    /// Doctest code; `dotted` is the name with the dotted chain written
    /// before it (`m.C.Old`), or `module.Old` for `from module import Old`.
    Doctest {
        dotted: String,
    },
}

/// One whole-word occurrence; `range` in bytes of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Occurrence {
    pub range: Range<usize>,
    pub context: Context,
}

const PREFIXES: &[&str] = &["r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt"];

fn is_ident_byte(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric() || b >= 0x80
}

/// Every whole-word occurrence of `name` in the comments and strings of
/// `src`. Interpolations of f-strings count as string text: the caller
/// drops the occurrences that are code sites.
/// `tree` gives the tree of `src`, asked for only when a string holds the
/// name (to tell data strings apart).
pub(super) fn occurrences(
    src: &str,
    name: &str,
    tree: impl FnOnce() -> Option<SyntaxTree>,
) -> Vec<Occurrence> {
    let mut out = Vec::new();
    if name.is_empty() || !src.contains(name) {
        return out;
    }
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'#' {
            let end = src[i..].find('\n').map_or(b.len(), |n| i + n);
            words(src, i..end, name, &mut out, |_| Context::Comment);
            i = end;
        } else if c == b'"' || c == b'\'' {
            i = string(src, i, i, name, &mut out);
        } else if is_ident_byte(c) {
            let start = i;
            while i < b.len() && is_ident_byte(b[i]) {
                i += 1;
            }
            let word = src[start..i].to_ascii_lowercase();
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') && PREFIXES.contains(&word.as_str()) {
                i = string(src, start, i, name, &mut out);
            }
        } else {
            i += 1;
        }
    }
    mark_data(src, tree, &mut out);
    out
}

/// `Include Text` is not half-way: the occurrences of `name` in the
/// comments and strings of the project's files the rename does not
/// change (`touched`) are reported — prose among `mentions`, data among
/// `data` — though not changed: a file that never uses the symbol in code
/// may mention another thing of that name.
pub(super) fn elsewhere(
    project: &Project<'_>,
    name: &str,
    touched: &BTreeSet<&str>,
    mentions: &mut Vec<Location>,
    data: &mut Vec<LeftAlone>,
) -> Result<(), RefactorError> {
    for path in project.index.paths() {
        if touched.contains(path) {
            continue;
        }
        let source = project.source(path)?;
        let src = source.text.to_string();
        if !src.contains(name) {
            continue;
        }
        for o in occurrences(&src, name, || tree_of(project, path)) {
            let at = |b: usize| {
                let c = source.text.byte_to_char(b);
                let line = source.text.char_to_line(c);
                Position::new(line, c - source.text.line_to_char(line))
            };
            let site = Location {
                path: path.to_string(),
                position: at(o.range.start),
                end: at(o.range.end),
            };
            match o.context {
                Context::Data(what) => data.push(LeftAlone {
                    site,
                    why: what.into(),
                }),
                Context::Dynamic => data.push(LeftAlone {
                    site,
                    why: "an attribute name".into(),
                }),
                _ => mentions.push(site),
            }
        }
    }
    Ok(())
}

/// The tree of `path` as the rename read it, for one look; `None` when it
/// cannot be read or parsed.
fn tree_of(project: &Project<'_>, path: &str) -> Option<SyntaxTree> {
    project.scanned(path).ok().map(|file| file.tree.clone())
}

/// The tree of a text that is no file the rename read (a search text).
pub(super) fn tree_of_text(src: &str) -> Option<SyntaxTree> {
    SyntaxTree::parse(&ropey::Rope::from_str(src)).ok()
}

/// Reads each string occurrence's place in the tree: those in data
/// strings become [`Context::Data`]. Asks for the tree only in a file
/// with some.
fn mark_data(src: &str, tree: impl FnOnce() -> Option<SyntaxTree>, found: &mut [Occurrence]) {
    if !found.iter().any(|o| o.context == Context::String) {
        return;
    }
    let Some(tree) = tree() else {
        return;
    };
    for o in found.iter_mut().filter(|o| o.context == Context::String) {
        let Some(mut n) = tree
            .root()
            .descendant_for_byte_range(o.range.start, o.range.end)
        else {
            continue;
        };
        while n.kind() != "string" {
            match n.parent() {
                Some(p) => n = p,
                None => break,
            }
        }
        if n.kind() == "string" {
            if let Some(what) = data_role(src, n) {
                o.context = Context::Data(what);
            }
        }
    }
}

/// What a string literal is as data, or `None` when it is prose: a string
/// that is a statement of its own (a docstring), or one with spaces in it
/// anywhere but a key, a subscript or a comparison.
fn data_role(src: &str, string: Node<'_>) -> Option<&'static str> {
    let mut n = string;
    while let Some(p) = n.parent() {
        if !matches!(p.kind(), "concatenated_string" | "parenthesized_expression") {
            break;
        }
        n = p;
    }
    let p = n.parent()?;
    let is = |field: &str| {
        p.child_by_field_name(field)
            .is_some_and(|c| c.id() == n.id())
    };
    match p.kind() {
        // a docstring; an annotation the index did not resolve
        "expression_statement" | "type" => return None,
        "pair" if is("key") => return Some("a dict key"),
        "subscript" if !is("value") => return Some("a subscript"),
        "comparison_operator" => return Some("compared with"),
        _ => {}
    }
    let mut cursor = string.walk();
    let words: String = string
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "string_content")
        .map(|c| &src[c.byte_range()])
        .collect();
    if words.chars().any(char::is_whitespace) {
        return None; // a message, help text: prose
    }
    let call = match p.kind() {
        "argument_list" => p.parent(),
        "keyword_argument" => p.parent().and_then(|a| a.parent()),
        _ => None,
    };
    let function = call
        .and_then(|c| c.child_by_field_name("function"))
        .map(|f| &src[f.byte_range()]);
    Some(match function {
        Some("getattr" | "setattr" | "hasattr" | "delattr") => "an attribute name",
        Some(_) => "a call's argument",
        None if matches!(p.kind(), "list" | "tuple" | "set") => "an element of a collection",
        None => "a one-word string used as a value",
    })
}

/// The string literal whose quote is at `quote` (its prefix starts at
/// `start`); returns the offset after it.
fn string(src: &str, start: usize, quote: usize, name: &str, out: &mut Vec<Occurrence>) -> usize {
    let b = src.as_bytes();
    let q = b[quote];
    let triple = b.len() >= quote + 3 && b[quote + 1] == q && b[quote + 2] == q;
    let open = quote + if triple { 3 } else { 1 };
    let mut j = open;
    let (end, after) = loop {
        if j >= b.len() {
            break (b.len(), b.len());
        }
        match b[j] {
            b'\\' => j += 2,
            c if c == q && (!triple || (b.len() >= j + 3 && b[j + 1] == q && b[j + 2] == q)) => {
                break (j, j + if triple { 3 } else { 1 });
            }
            b'\n' if !triple => break (j, j),
            _ => j += 1,
        }
    };
    let end = end.min(b.len());
    let dynamic = is_dynamic_attribute(src, start);
    // line by line: doctest lines hold code
    let mut line_start = open;
    while line_start < end {
        let line_end = src[line_start..end]
            .find('\n')
            .map_or(end, |n| line_start + n);
        let line = &src[line_start..line_end];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let code = [">>> ", "... "]
            .iter()
            .find(|p| trimmed.starts_with(**p))
            .map(|p| line_start + indent + p.len());
        match code {
            Some(code) => doctest_words(src, code..line_end, name, out),
            None => words(src, line_start..line_end, name, out, |_| {
                if dynamic {
                    Context::Dynamic
                } else {
                    Context::String
                }
            }),
        }
        line_start = line_end + 1;
    }
    after.max(quote + 1)
}

/// `getattr(obj, "name"` and its siblings: the string is the second
/// argument of one of them, on the same line.
fn is_dynamic_attribute(src: &str, string_start: usize) -> bool {
    let before = src[..string_start].trim_end();
    let Some(before) = before.strip_suffix(',') else {
        return false;
    };
    let line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    ["getattr(", "hasattr(", "setattr(", "delattr("]
        .iter()
        .any(|f| line.contains(f))
}

fn whole_words<'a>(
    src: &'a str,
    range: Range<usize>,
    name: &'a str,
) -> impl Iterator<Item = usize> + 'a {
    let b = src.as_bytes();
    let text = &src[range.clone()];
    text.match_indices(name).filter_map(move |(k, _)| {
        let s = range.start + k;
        let e = s + name.len();
        let before = s > 0 && is_ident_byte(b[s - 1]);
        let after = e < b.len() && is_ident_byte(b[e]);
        (!before && !after).then_some(s)
    })
}

fn words(
    src: &str,
    range: Range<usize>,
    name: &str,
    out: &mut Vec<Occurrence>,
    context: impl Fn(usize) -> Context,
) {
    for s in whole_words(src, range, name) {
        out.push(Occurrence {
            range: s..s + name.len(),
            context: context(s),
        });
    }
}

/// Occurrences in one doctest line's code, with what names them.
fn doctest_words(src: &str, code: Range<usize>, name: &str, out: &mut Vec<Occurrence>) {
    let line = &src[code.clone()];
    let from = line
        .trim_start()
        .strip_prefix("from ")
        .and_then(|rest| rest.split_once(" import "));
    for s in whole_words(src, code.clone(), name) {
        let b = src.as_bytes();
        let mut k = s;
        while k > code.start && (is_ident_byte(b[k - 1]) || b[k - 1] == b'.') {
            k -= 1;
        }
        let chain = &src[k..s + name.len()];
        let import_part = from.and_then(|(module, _)| {
            let import_at = line.find(" import ")? + code.start;
            (s > import_at).then(|| format!("{}.{}", module.trim(), name))
        });
        // `f(old=1)`, `old = 2`: a keyword or a binding of the doctest's
        // own, not a use of the symbol
        let rest = src[s + name.len()..code.end].trim_start();
        let binds = chain == name && rest.starts_with('=') && !rest.starts_with("==");
        let dotted = import_part.unwrap_or_else(|| chain.trim_start_matches('.').to_string());
        out.push(Occurrence {
            range: s..s + name.len(),
            context: if binds {
                Context::String
            } else {
                Context::Doctest { dotted }
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(src: &str, name: &str) -> Vec<(String, Context)> {
        occurrences(src, name, || tree_of_text(src))
            .into_iter()
            .map(|o| (format!("{}..{}", o.range.start, o.range.end), o.context))
            .collect()
    }

    #[test]
    fn comments_strings_and_prefixes_but_not_code() {
        let src = "old = 1  # old value\ns = rb'old' + f\"{old}\" + 'older'\n";
        let got = found(src, "old");
        assert_eq!(
            got,
            vec![
                ("11..14".into(), Context::Comment),
                (
                    "28..31".into(),
                    Context::Data("a one-word string used as a value")
                ),
                (
                    "38..41".into(),
                    Context::Data("a one-word string used as a value")
                ),
            ]
        );
    }

    #[test]
    fn escapes_and_triple_quotes_end_where_python_ends_them() {
        let src = "a = 'it\\'s old'\nb = \"\"\"x \" old\n\"\"\"\nold\n";
        let got: Vec<String> = found(src, "old").into_iter().map(|g| g.0).collect();
        assert_eq!(got, vec!["11..14", "27..30"]);
    }

    #[test]
    fn getattr_strings_are_dynamic_and_doctests_are_code() {
        let src =
            "getattr(x, 'old')\n\"\"\"Doc old.\n\n>>> m.old()\n>>> from pkg.m import old\n\"\"\"\n";
        let got: Vec<Context> = found(src, "old").into_iter().map(|g| g.1).collect();
        assert_eq!(
            got,
            vec![
                Context::Dynamic,
                Context::String,
                Context::Doctest {
                    dotted: "m.old".into()
                },
                Context::Doctest {
                    dotted: "pkg.m.old".into()
                },
            ]
        );
    }
}
