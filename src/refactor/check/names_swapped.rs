//! The proof, without parsing it again, that a file in which names were
//! put in place of other names parses as it did, and so has the syntax
//! and compile-time errors it had: most of a big rename's check is the
//! parse of every file it touches (≈ 170 ms of CPU for Django's
//! `reverse`), and for a file whose every edit swaps one name in code for
//! another that parse can be skipped.
//!
//! Why it holds:
//! * tree-sitter chooses a parse from the kinds of the tokens alone; a
//!   token's text counts only through its kind and where it ends (the
//!   external scanner looks at line starts, for indentation, and at string
//!   delimiters and prefixes).
//! * An identifier replaced by an ASCII identifier that is no keyword and
//!   none of the words tree-sitter-python lexes apart (`print`, `exec`,
//!   `async`, `await`, `match`, `case`, `type`, `_`) is lexed as an
//!   identifier wherever the old one was, and ends where its text ends: the
//!   characters around it are no identifier characters, and no quote (which
//!   would make it a string's prefix). No line start moves.
//! * So the tokens keep their kinds, an error-free file keeps its tree's
//!   shape, and the compile-time checks that do not read names find what
//!   they found. The old file must be error-free: error recovery weighs
//!   lengths. The index's scan of this very text (the same hash) says so.
//! * The compile-time checks that do read names: `global` and `nonlocal`
//!   declarations, `from __future__` features, `:=` in comprehensions,
//!   `__debug__`, duplicate parameters and repeated keywords. A file that
//!   mentions the first three anywhere is parsed; `__debug__` is among the
//!   special words; a name followed by `=` (a keyword argument, a default,
//!   an assignment) is only swapped with a parse.
//!
//! Anything outside these rules takes the full check: this is a shortcut
//! for the common case, never a weaker check.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use ropey::Rope;

use crate::analysis::index::ProjectIndex;
use crate::change::TextEdits;

/// Words that are not plain identifiers to tree-sitter-python or to
/// CPython's compiler.
const SPECIAL: &[&str] = &[
    "False",
    "None",
    "True",
    "and",
    "as",
    "assert",
    "async",
    "await",
    "break",
    "case",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "exec",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "match",
    "nonlocal",
    "not",
    "or",
    "pass",
    "print",
    "raise",
    "return",
    "try",
    "type",
    "while",
    "with",
    "yield",
    "_",
    "__debug__",
];

/// Text that may carry a compile-time check that reads names: a
/// `global` or `nonlocal` where a statement may start (a line's start, or
/// after `;` or `:`, past blanks and line continuations), `__future__`,
/// `:=`. Prose that says "global" does not count; a docstring line that
/// starts with it does, which only costs a parse.
static NAME_CHECKS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:^|[;:])(?:[ \t\x0c]|\\\r?\n)*(?:global|nonlocal)(?-u:\b)|__future__|:=")
        .expect("a valid pattern")
});

/// True when `edits`, applied to `before` (the text of `path` the change
/// was computed against), provably keep its parse (see the module doc).
pub(super) fn keep_the_parse(
    index: &ProjectIndex,
    path: &str,
    before: &Rope,
    edits: &TextEdits,
) -> bool {
    let Some(file) = index.file_index(path) else {
        return false;
    };
    if file.has_syntax_errors {
        return false;
    }
    let text = before.to_string();
    if index.content_of(path) != Some(blake3::hash(text.as_bytes())) {
        return false;
    }
    if NAME_CHECKS.is_match(&text) {
        return false;
    }
    edits
        .iter()
        .all(|indel| swaps_a_name(before, &indel.range, &indel.insert))
}

/// One edit (a range of chars) puts the plain name `insert` in place of a
/// plain name that stands alone and is not assigned to.
fn swaps_a_name(text: &Rope, range: &Range<usize>, insert: &str) -> bool {
    if range.end > text.len_chars() || !plain_name(insert) {
        return false;
    }
    let old: String = text.slice(range.clone()).chars().collect();
    if !plain_name(&old) {
        return false;
    }
    let before = range.start.checked_sub(1).map(|i| text.char(i));
    // `\x41`, `\N{NAME}` and `f'{x!r}'` are names only to the eye
    if before.is_some_and(|c| !c.is_ascii() || is_name_char(c) || matches!(c, '\\' | '{' | '!')) {
        return false;
    }
    let mut after = text.chars_at(range.end);
    if let Some(c) = after.clone().next() {
        if !c.is_ascii() || is_name_char(c) || c == '\'' || c == '"' {
            return false;
        }
    }
    !assigned(&mut after)
}

/// The next token is `=` (not `==`), past blanks, line continuations and
/// comments.
fn assigned(chars: &mut ropey::iter::Chars<'_>) -> bool {
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\r' | '\n' | '\x0c' | '\\' => {}
            '#' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '=' => return chars.next() != Some('='),
            _ => return false,
        }
    }
    false
}

/// An ASCII identifier that no rule of the module doc treats apart.
fn plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(is_name_char)
        && !SPECIAL.contains(&name)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_and_features_are_found_where_a_statement_may_start() {
        for text in [
            "def f():\n    global x\n",
            "def f(): global x\n",
            "x = 1; nonlocal y\n",
            "x = 1; \\\n  global y\n",
            "from __future__ import annotations\n",
            "if (n := 1): pass\n",
        ] {
            assert!(NAME_CHECKS.is_match(text), "{text:?}");
        }
        for text in [
            "# a global object\n",
            "\"\"\"a global action\"\"\"\n",
            "globals()\n",
        ] {
            assert!(!NAME_CHECKS.is_match(text), "{text:?}");
        }
    }

    fn swaps(text: &str, old: &str, insert: &str) -> bool {
        let rope = Rope::from_str(text);
        let start = text.find(old).expect("the old name is in the text");
        let start = rope.byte_to_char(start);
        swaps_a_name(&rope, &(start..start + old.chars().count()), insert)
    }

    #[test]
    fn a_name_that_stands_alone_swapped_for_a_plain_name_keeps_the_parse() {
        assert!(swaps("x = reverse(1)\n", "reverse", "reverse_url"));
        assert!(swaps("from a import reverse\n", "reverse", "r2"));
        assert!(swaps("a.reverse == b\n", "reverse", "r2"));
        assert!(swaps("f'{ reverse}'\n", "reverse", "r2"));
        assert!(swaps("reverse", "reverse", "r2"), "at the end of the text");
    }

    #[test]
    fn anything_else_is_left_to_the_parse() {
        // what would change the tokens
        assert!(!swaps("x = reverse(1)\n", "reverse", "match"));
        assert!(!swaps("x = reverse(1)\n", "reverse", "print"));
        assert!(!swaps("x = reverse(1)\n", "reverse", "__debug__"));
        assert!(!swaps("x = reverse(1)\n", "reverse", "new as reverse"));
        assert!(!swaps("x = reverse(1)\n", "reverse", "réverse"));
        assert!(!swaps("x = type(1)\n", "type", "kind"));
        assert!(!swaps("x = rb'1'\n", "rb", "name"), "a string's prefix");
        assert!(!swaps("x = éreverse\n", "reverse", "r2"));
        assert!(!swaps("x = reverse2\n", "reverse", "r2"), "part of a name");
        assert!(!swaps("x = '\\N{DASH}'\n", "DASH", "r2"), "an escape");
        assert!(!swaps("x = '\\x41'\n", "x41", "r2"), "an escape");
        assert!(!swaps("x = f'{a!r}'\n", "r", "s"), "a conversion");
        // what a check that reads names would see
        assert!(!swaps("f(reverse=1)\n", "reverse", "r2"));
        assert!(!swaps("def f(reverse = 1): pass\n", "reverse", "r2"));
        assert!(!swaps("f(reverse  # why\n  = 1)\n", "reverse", "r2"));
        assert!(!swaps("reverse \\\n = 1\n", "reverse", "r2"));
    }
}
