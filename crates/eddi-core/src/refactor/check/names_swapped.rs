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
//!   `__debug__`, duplicate parameters and repeated keywords. Such a check
//!   that reads only names the swap leaves alone finds what it found. A
//!   file is parsed when a `global` or `nonlocal` declares a swapped name
//!   (old or new), a `:=` binds one, or it imports from `__future__`;
//!   `__debug__` is among the special words; a name followed by `=` (a
//!   keyword argument, a default, an assignment) is only swapped with a
//!   parse.
//!
//! Anything outside these rules takes the full check: this is a shortcut
//! for the common case, never a weaker check.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use ropey::Rope;

use crate::analysis::index::ProjectIndex;
use crate::change::TextEdits;

/// Words that are not plain identifiers to tree-sitter-python or to
/// CPython's compiler.
#[rustfmt::skip]
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

/// The statements and expressions whose compile-time checks read names:
/// a `global` or `nonlocal` where a statement may start (a line's start,
/// or after `;` or `:`, past blanks and line continuations) with the rest
/// of its line (group 1: the names it declares), a `:=` (group 2: the
/// text before it), `__future__`. Prose that says "global" does not
/// count; a docstring line that starts with it does, which at worst costs
/// a parse.
static NAME_CHECKS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)(?:^|[;:])(?:[ \t\x0c]|\\\r?\n)*(?:global|nonlocal)(?-u:\b)([^\n;]*)|([^\n]*?):=|__future__",
    )
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
    let mut names = BTreeSet::new();
    for indel in edits.iter() {
        match swapped_name(before, &indel.range, &indel.insert) {
            Some(old) => {
                names.insert(old);
                names.insert(indel.insert.clone());
            }
            None => return false,
        }
    }
    let text = before.to_string();
    if index.content_of(path) != Some(blake3::hash(text.as_bytes())) {
        return false;
    }
    !name_checks_read(&text, &names)
}

/// True when a compile-time check that reads names may read one of
/// `names` in `text`: a `global` or `nonlocal` that declares one of them
/// (or whose list this cannot read whole), a `:=` that binds one of them
/// (or something it cannot tell), any `from __future__`. A check that
/// reads only other names finds what it found before the swap: the swap
/// changes no other name.
fn name_checks_read(text: &str, names: &BTreeSet<String>) -> bool {
    NAME_CHECKS.captures_iter(text).any(|found| {
        if let Some(declared) = found.get(1) {
            let list = declared.as_str().split('#').next().unwrap_or_default();
            if list.trim_end().ends_with('\\') {
                return true; // continued on the next line
            }
            return list
                .split(',')
                .map(str::trim)
                .any(|name| names.contains(name) || !plain_name(name));
        }
        if let Some(before) = found.get(2) {
            let target = before
                .as_str()
                .trim_end()
                .rsplit(|c: char| !is_name_char(c))
                .next()
                .unwrap_or_default();
            return target.is_empty() || names.contains(target);
        }
        true
    })
}

/// The plain name one edit (a range of chars) replaces, when it puts the
/// plain name `insert` in place of a plain name that stands alone and is
/// not assigned to.
fn swapped_name(text: &Rope, range: &Range<usize>, insert: &str) -> Option<String> {
    if range.end > text.len_chars() || !plain_name(insert) {
        return None;
    }
    let old: String = text.slice(range.clone()).chars().collect();
    if !plain_name(&old) {
        return None;
    }
    let before = range.start.checked_sub(1).map(|i| text.char(i));
    // `\x41`, `\N{NAME}` and `f'{x!r}'` are names only to the eye
    if before.is_some_and(|c| !c.is_ascii() || is_name_char(c) || matches!(c, '\\' | '{' | '!')) {
        return None;
    }
    let mut after = text.chars_at(range.end);
    if let Some(c) = after.clone().next() {
        if !c.is_ascii() || is_name_char(c) || c == '\'' || c == '"' {
            return None;
        }
    }
    (!assigned(&mut after)).then_some(old)
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
    fn a_declaration_or_a_walrus_counts_when_it_names_a_swapped_name() {
        let names: BTreeSet<String> = ["f".to_string(), "g".to_string()].into();
        let read = |text: &str| name_checks_read(text, &names);
        for text in [
            "def h():\n    global f\n",
            "def h(): global x, g\n",
            "x = 1; nonlocal f\n",
            "def h():\n    x = 1; \\\n  global f\n",
            "def h():\n    global x, \\\n        f\n",
            "if (f := 1): pass\n",
            "[(g:=y) for y in z]\n",
            "[(n := 1), (f := 2)]\n",
            "from __future__ import annotations\n",
        ] {
            assert!(read(text), "{text:?}");
        }
        for text in [
            "def h():\n    global x, y  # f\n",
            "def h():\n    nonlocal counter\n",
            "if (n := f()): pass\n",
            "# a global object: f\n",
            "\"\"\"a global action\"\"\"\n",
            "globals()[f] = 1\n",
        ] {
            assert!(!read(text), "{text:?}");
        }
    }

    fn swaps(text: &str, old: &str, insert: &str) -> bool {
        let rope = Rope::from_str(text);
        let start = text.find(old).expect("the old name is in the text");
        let start = rope.byte_to_char(start);
        swapped_name(&rope, &(start..start + old.chars().count()), insert).is_some()
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
