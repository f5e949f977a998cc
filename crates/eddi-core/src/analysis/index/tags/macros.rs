//! What Rust's macro invocations hold, which tree-sitter sees as tokens
//! alone: where the invocations are ([`token_trees`]: names in them take
//! their path or object from the tokens before them, `rust.rs`), and the
//! names format strings read — since Rust 2021 `println!("{x}")` reads
//! the `x` in scope, and so do a width or a precision written
//! `{:>width$}` and `{:.prec$}`. They are uses like any other: a rename of
//! `x` that left `"{x}"` would answer `Ok` on a crate `rustc` refuses.

use std::ops::Range;

use tree_sitter::Node;

/// Where a format macro's format string is: its argument at this index,
/// or its first argument that is a string alone (the `log` and `tracing`
/// macros take a `target: …` and fields before it).
#[derive(Clone, Copy)]
enum FormatAt {
    Argument(usize),
    FirstString,
}

/// The standard library's format macros, `log`'s, `tracing`'s and
/// `anyhow`'s. Another macro's strings are its own business (`json!`,
/// `sql!`): never read.
fn format_at(name: &str) -> Option<FormatAt> {
    use FormatAt::*;
    Some(match name {
        "print" | "println" | "eprint" | "eprintln" | "format" | "format_args" | "panic"
        | "unreachable" | "todo" | "unimplemented" => Argument(0),
        "write" | "writeln" | "assert" | "debug_assert" => Argument(1),
        "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne" => Argument(2),
        "trace" | "debug" | "info" | "warn" | "error" | "log" | "event" | "anyhow" | "bail"
        | "ensure" => FirstString,
        _ => return None,
    })
}

/// Each macro invocation in `root` with its name: an item's or an
/// expression's, and one inside another's tokens (`vec![format!("{x}")]`),
/// in source order.
fn invocations<'t>(text: &'t str, root: Node<'t>) -> impl Iterator<Item = (&'t str, Node<'t>)> {
    let bytes = text.as_bytes();
    text.match_indices('!').filter_map(move |(bang, _)| {
        // `name!(`, `name![`, `name!{`; not `!=`, `!x`, `macro_rules! m`
        let next = bytes[bang + 1..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())?;
        if !matches!(next, b'(' | b'[' | b'{') {
            return None;
        }
        let token = root.descendant_for_byte_range(bang, bang + 1)?;
        let (name, tree) = (token.prev_sibling()?, token.next_sibling()?);
        let name = match name.kind() {
            "identifier" => name,
            "scoped_identifier" => name.child_by_field_name("name")?,
            _ => return None,
        };
        (token.kind() == "!" && tree.kind() == "token_tree")
            .then(|| (&text[name.byte_range()], tree))
    })
}

/// The standard library's macros whose arguments are expressions (and
/// format strings): a bare name among their tokens is a value's. Any
/// other macro — the crate's own `macro_rules!`, another crate's — may
/// paste a name anywhere: as a method's (`$x.$which()`), a field's, a
/// new item's.
fn takes_expressions(name: &str) -> bool {
    format_at(name).is_some()
        || matches!(
            name,
            "vec"
                | "matches"
                | "dbg"
                | "assert_matches"
                | "debug_assert_matches"
                | "concat"
                | "stringify"
                | "env"
                | "option_env"
                | "include"
                | "include_str"
                | "include_bytes"
                | "cfg"
                | "compile_error"
                | "addr_of"
                | "addr_of_mut"
                | "pin"
                | "ready"
        )
}

/// Where a file's macros hold tokens, as byte ranges: sorted, apart,
/// the nested ones within the outer ones.
pub(super) struct MacroTokens {
    /// The invocations' token trees and the `macro_rules!` definitions.
    pub trees: Vec<Range<usize>>,
    /// The token trees of the invocations of a macro that may paste a
    /// name anywhere (not [`takes_expressions`]).
    pub pasting: Vec<Range<usize>>,
}

impl MacroTokens {
    pub fn in_tokens(&self, at: usize) -> bool {
        within(&self.trees, at)
    }

    pub fn pasting(&self, at: usize) -> bool {
        within(&self.pasting, at)
    }
}

/// Whether byte `at` is in one of `ranges` (sorted, apart).
fn within(ranges: &[Range<usize>], at: usize) -> bool {
    let i = ranges.partition_point(|r| r.start <= at);
    i > 0 && ranges[i - 1].contains(&at)
}

/// The macro tokens of `root`: the invocations' token trees and the
/// `macro_rules!` definitions.
pub(super) fn token_trees(text: &str, root: Node<'_>) -> MacroTokens {
    let definitions = text.match_indices("macro_rules!").filter_map(|(at, _)| {
        let token = root.descendant_for_byte_range(at, at + 1)?;
        let definition = token.parent().filter(|p| p.kind() == "macro_definition")?;
        Some(definition.byte_range())
    });
    let mut trees: Vec<Range<usize>> = definitions.collect();
    // (a `macro_rules!` body's tokens become any code where it expands)
    let mut pasting = trees.clone();
    for (name, tree) in invocations(text, root) {
        trees.push(tree.byte_range());
        if !takes_expressions(name) {
            pasting.push(tree.byte_range());
        }
    }
    MacroTokens {
        trees: merged(trees),
        pasting: merged(pasting),
    }
}

/// `ranges` sorted, the overlapping ones merged.
fn merged(mut all: Vec<Range<usize>>) -> Vec<Range<usize>> {
    all.sort_by_key(|r| r.start);
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for range in all {
        match ranges.last_mut() {
            Some(last) if range.start < last.end => last.end = last.end.max(range.end),
            _ => ranges.push(range),
        }
    }
    ranges
}

/// The byte ranges of the names the format strings of `root`'s format
/// macros read, in source order. A name a macro's named argument gives
/// (`format!("{x}", x = 1)`) is that argument's, not one of the scope's.
pub(super) fn format_names(text: &str, root: Node<'_>) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    for (name, tree) in invocations(text, root) {
        read_macro(text, name, tree, &mut found);
    }
    found.sort_by_key(|r| r.start);
    found
}

fn read_macro<'t>(text: &str, name: &str, tree: Node<'t>, found: &mut Vec<Range<usize>>) {
    let Some(at) = format_at(name) else {
        return;
    };
    let arguments = arguments(tree);
    let lone_string = |argument: &Vec<Node<'t>>| match argument.as_slice() {
        [s] if matches!(s.kind(), "string_literal" | "raw_string_literal") => Some(*s),
        _ => None,
    };
    let format = match at {
        FormatAt::Argument(i) => arguments.get(i).and_then(lone_string),
        FormatAt::FirstString => arguments.iter().find_map(lone_string),
    };
    let Some(format) = format else {
        return;
    };
    // `name = value` arguments
    let named: Vec<&str> = arguments
        .iter()
        .filter_map(|a| match a.as_slice() {
            [key, equals, ..] if key.kind() == "identifier" && equals.kind() == "=" => {
                Some(&text[key.byte_range()])
            }
            _ => None,
        })
        .collect();
    for name in placeholders(&text[format.byte_range()]) {
        let range = format.start_byte() + name.start..format.start_byte() + name.end;
        if !named.contains(&&text[range.clone()]) {
            found.push(range);
        }
    }
}

/// A token tree's arguments: its tokens between the brackets, split at
/// its own commas.
fn arguments<'t>(tree: Node<'t>) -> Vec<Vec<Node<'t>>> {
    let mut arguments = vec![Vec::new()];
    let mut c = tree.walk();
    let inner = tree.children(&mut c).collect::<Vec<_>>();
    for token in inner.iter().skip(1).take(inner.len().saturating_sub(2)) {
        match token.kind() {
            "," => arguments.push(Vec::new()),
            _ => arguments.last_mut().expect("one at least").push(*token),
        }
    }
    arguments
}

/// The names a format string's text (its quotes included) reads, as byte
/// ranges of it: `{x}`, `{x:?}`, `{:>width$}`, `{x:.prec$}`; not `{0}`,
/// `{}` or the escaped `{{x}}`.
fn placeholders(literal: &str) -> Vec<Range<usize>> {
    let bytes = literal.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let name_at = |start: usize, end: usize| {
        let name = &bytes[start..end];
        let first = *name.first()?;
        let is_name = (first.is_ascii_alphabetic() || first == b'_')
            && name != b"_"
            && name.iter().all(|b| word(*b));
        is_name.then_some(start..end)
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' if bytes.get(i + 1) == Some(&b'{') => i += 2,
            b'{' => {
                let Some(close) = bytes[i..].iter().position(|b| *b == b'}') else {
                    break;
                };
                let close = i + close;
                let inside = i + 1..close;
                let colon = bytes[inside.clone()]
                    .iter()
                    .position(|b| *b == b':')
                    .map(|p| inside.start + p);
                let argument_end = colon.unwrap_or(close);
                found.extend(name_at(inside.start, argument_end));
                // a width or a precision by name: `name$`
                if let Some(colon) = colon {
                    let mut j = colon + 1;
                    while j < close {
                        let start = j;
                        while j < close && word(bytes[j]) {
                            j += 1;
                        }
                        if j > start && bytes.get(j) == Some(&b'$') {
                            found.extend(name_at(start, j));
                        }
                        j += 1;
                    }
                }
                i = close + 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// The object a member in a macro's tokens is read through, ending at
/// byte `end` (before the member's `.`), written as the compact
/// expression [`super::rust::chain`] makes of code: `r.line(6)` is
/// `r.line()`, `self.items[i]` is `self.items[]`, `Node::new(1)` is
/// `Node::new()`. `None` for another expression: a free function's
/// call, parentheses, a literal, a longer path, brackets holding a
/// quote (whose text the tokens do not tell apart).
pub(super) fn object_chain(text: &str, end: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let back = |at: usize| blanks_before(bytes, at);
    let word_before =
        |end: usize| word_before(text, end, |b| b.is_ascii_alphanumeric() || b == b'_');
    // a member's `.` before `at` (not a range's `..`)
    let dot_before = |at: usize| bytes[..at].ends_with(b".") && !bytes[..at].ends_with(b"..");
    let mut steps: Vec<String> = Vec::new();
    let mut end = back(end);
    let root = loop {
        match bytes[..end].last()? {
            b')' => {
                let open = opening(bytes, end - 1)?;
                let (start, name) = word_before(back(open));
                let before = back(start);
                if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
                    return None;
                }
                if dot_before(before) {
                    steps.push(format!(".{name}()"));
                    end = back(before - 1);
                    continue;
                }
                // `T::f(…)`, `T` a name alone
                let path = bytes[..before].strip_suffix(b"::")?;
                let (owner_start, owner) = word_before(back(path.len()));
                let alone = !bytes[..back(owner_start)].ends_with(b"::");
                if owner.is_empty() || owner.as_bytes()[0].is_ascii_digit() || !alone {
                    return None;
                }
                break format!("{owner}::{name}()");
            }
            b']' => {
                steps.push("[]".to_string());
                end = back(opening(bytes, end - 1)?);
            }
            _ => {
                let (start, name) = word_before(end);
                let before = back(start);
                if name.is_empty() {
                    return None;
                }
                if dot_before(before) {
                    steps.push(format!(".{name}"));
                    end = back(before - 1);
                    continue;
                }
                // (`$x`: a macro's variable)
                let variable = bytes[..start].ends_with(b"$");
                if name.as_bytes()[0].is_ascii_digit()
                    || bytes[..before].ends_with(b"::")
                    || variable
                {
                    return None;
                }
                break name.to_string();
            }
        }
    };
    Some(steps.iter().rev().fold(root, |chain, step| chain + step))
}

/// The `(` or `[` that opens the bracket closing at `close`; `None`
/// across a quote.
fn opening(bytes: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for at in (0..=close).rev() {
        match bytes[at] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            b'"' | b'\'' => return None,
            _ => {}
        }
    }
    None
}

/// The end of the text before byte `at`, blanks skipped.
pub(super) fn blanks_before(bytes: &[u8], mut at: usize) -> usize {
    while at > 0 && bytes[at - 1].is_ascii_whitespace() {
        at -= 1;
    }
    at
}

/// The word of bytes `word` accepts that ends at byte `end`: its start
/// and its text (empty where none does).
pub(super) fn word_before(text: &str, end: usize, word: impl Fn(u8) -> bool) -> (usize, &str) {
    let bytes = text.as_bytes();
    let mut start = end;
    while start > 0 && word(bytes[start - 1]) {
        start -= 1;
    }
    (start, &text[start..end])
}

#[cfg(test)]
mod tests {
    #[test]
    fn objects_in_tokens_are_chains() {
        let chain = |text: &str| super::object_chain(text, text.len());
        assert_eq!(chain("assert_eq!(r.line(6)").as_deref(), Some("r.line()"));
        assert_eq!(
            chain("(self.items[i + 1].0").as_deref(),
            Some("self.items[].0")
        );
        assert_eq!(
            chain("(&Node::new(1, 2).kids").as_deref(),
            Some("Node::new().kids")
        );
        assert_eq!(chain("(a::b::f()"), None);
        assert_eq!(chain("(f(x)"), None);
        assert_eq!(chain("((a + b)"), None);
        assert_eq!(chain("(r.get(\")\")"), None);
        assert_eq!(chain("($x.inner"), None);
        assert_eq!(chain("(1.0"), None);
    }

    use super::placeholders;

    fn named(literal: &str) -> Vec<&str> {
        placeholders(literal)
            .into_iter()
            .map(|r| &literal[r])
            .collect()
    }

    #[test]
    fn a_format_string_reads_its_inline_names() {
        assert_eq!(named(r#""{x} {y:?} {}""#), ["x", "y"]);
        assert_eq!(
            named(r#""{x:>width$} {:.prec$} {0:1$}""#),
            ["x", "width", "prec"]
        );
        assert_eq!(named(r#""{{x}} {_} {0} {x_1}""#), ["x_1"]);
        assert_eq!(named(r##"r#"{n}"#"##), ["n"]);
        assert_eq!(named(r#""{unclosed""#), Vec::<&str>::new());
    }
}
