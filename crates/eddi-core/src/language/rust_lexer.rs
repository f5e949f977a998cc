//! What rustc's lexer refuses of a Rust file (edition 2021), found before
//! it parses and reported before any other error: a name right before a
//! quote or `#` (an unknown prefix: `debug_struct"x"` where a `(` went
//! missing), a string, raw string or block comment never terminated.

use ropey::Rope;

use crate::analysis::validate::SyntaxError;
use crate::edit::position::from_char;

/// The prefixes of Rust's literals: `b"…"`, `b'x'`, `c"…"`, `r"…"`,
/// `r#"…"#`, `br"…"`, `cr"…"` (and `r#name`, a raw identifier).
const PREFIXES: &[&str] = &["b", "c", "r", "br", "cr"];

/// The first error of rustc's lexer in `text`, where it reports it.
pub(super) fn lexer_error(text: &Rope) -> Option<SyntaxError> {
    let chars: Vec<char> = text.chars().collect();
    let error = |at: usize, message: String| {
        Some(SyntaxError {
            position: from_char(text, at),
            message,
        })
    };
    let mut i = shebang_length(text);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        i = match c {
            '/' if next == Some('/') => line_end(&chars, i),
            '/' if next == Some('*') => match block_comment_end(&chars, i) {
                Some(end) => end,
                None => return error(i, "unterminated block comment".to_owned()),
            },
            '"' => match string_end(&chars, i) {
                Some(end) => end,
                None => return error(i, "unterminated double quote string".to_owned()),
            },
            '\'' => char_or_lifetime_end(&chars, i),
            c if c.is_ascii_digit() => word_end(&chars, i),
            c if c.is_alphabetic() || c == '_' => {
                let end = word_end(&chars, i);
                let word: String = chars[i..end].iter().collect();
                match chars.get(end) {
                    Some('"' | '\'' | '#') if PREFIXES.contains(&word.as_str()) => {
                        match literal_end(&chars, end, &word) {
                            Ok(end) => end,
                            Err(message) => return error(i, message.to_owned()),
                        }
                    }
                    Some('"' | '\'' | '#') => {
                        return error(i, format!("prefix `{word}` is unknown"));
                    }
                    _ => end,
                }
            }
            _ => i + 1,
        };
    }
    None
}

/// The chars of a shebang line (`#!/usr/bin/env …`) the text starts
/// with, its line break left out; 0 without one.
pub(super) fn shebang_length(text: &Rope) -> usize {
    let head: Vec<char> = text.chars().take(2).collect();
    if head != ['#', '!'] {
        return 0;
    }
    // (`#![`, blanks between, is an inner attribute)
    match text.chars().skip(2).find(|c| !c.is_whitespace()) {
        Some('[') => 0,
        _ => text.line(0).chars().take_while(|&c| c != '\n').count(),
    }
}

/// The end of the line `i` is on (at its line break).
fn line_end(chars: &[char], i: usize) -> usize {
    chars[i..]
        .iter()
        .position(|&c| c == '\n')
        .map_or(chars.len(), |n| i + n)
}

/// The end of a name or a number that starts at `i`.
fn word_end(chars: &[char], i: usize) -> usize {
    chars[i..]
        .iter()
        .position(|&c| !(c.is_alphanumeric() || c == '_'))
        .map_or(chars.len(), |n| i + n)
}

/// Just after the `*/` of the block comment that starts at `i` (they
/// nest); None when the file ends first.
fn block_comment_end(chars: &[char], i: usize) -> Option<usize> {
    let (mut depth, mut j) = (0, i);
    while j + 1 < chars.len() {
        match (chars[j], chars[j + 1]) {
            ('/', '*') => (depth, j) = (depth + 1, j + 2),
            ('*', '/') if depth == 1 => return Some(j + 2),
            ('*', '/') => (depth, j) = (depth - 1, j + 2),
            _ => j += 1,
        }
    }
    None
}

/// Just after the closing quote of the string whose `"` is at `i`
/// (escapes skipped); None when the file ends first.
fn string_end(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            '"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// Just after the raw string whose `#`s or `"` start at `i` (`r#"…"#`);
/// None when the file ends first. A raw identifier (`r#type`) is not one:
/// Some(i).
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    if chars.get(i + hashes) != Some(&'"') {
        return Some(i);
    }
    let mut j = i + hashes + 1;
    while j < chars.len() {
        if chars[j] == '"'
            && chars[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    None
}

/// Just after the literal whose quote (or `#`) at `i` follows the prefix
/// `prefix`, or rustc's error of it.
fn literal_end(chars: &[char], i: usize, prefix: &str) -> Result<usize, &'static str> {
    match (prefix, chars[i]) {
        ("r" | "br" | "cr", _) => raw_string_end(chars, i).ok_or("unterminated raw string"),
        (_, '"') => string_end(chars, i).ok_or("unterminated double quote string"),
        ("b", '\'') => Ok(char_or_lifetime_end(chars, i)),
        _ => Err("prefix is unknown"),
    }
}

/// Just after the char literal (`'a'`, `'\n'`) or the lifetime or label
/// (`'a`) whose `'` is at `i`.
fn char_or_lifetime_end(chars: &[char], i: usize) -> usize {
    match (chars.get(i + 1), chars.get(i + 2)) {
        // (the char after the `\\` is escaped: `'\\''`)
        (Some('\\'), _) => chars
            .get(i + 3..)
            .and_then(|rest| rest.iter().position(|&c| c == '\'' || c == '\n'))
            .map_or(chars.len(), |n| i + 4 + n),
        (Some(_), Some('\'')) => i + 3,
        (Some(c), _) if c.is_alphabetic() || *c == '_' => word_end(chars, i + 1),
        _ => i + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(code: &str) -> Option<String> {
        lexer_error(&Rope::from_str(code)).map(|e| e.to_string())
    }

    /// At rustc's positions (edition 2021).
    #[test]
    fn the_lexers_errors_are_where_rustc_reports_them() {
        assert_eq!(
            first("fn f() {\n    s.debug_struct\"Foo\");\n}\n").as_deref(),
            Some("1:6 prefix `debug_struct` is unknown")
        );
        assert_eq!(
            first("fn f() {\n    g(k#x);\n}\n").as_deref(),
            Some("1:6 prefix `k` is unknown")
        );
        assert_eq!(
            first("fn f() {\n    let s = \"abc;\n}\n").as_deref(),
            Some("1:12 unterminated double quote string")
        );
        assert_eq!(
            first("fn f() {\n    let s = r#\"abc\";\n}\n").as_deref(),
            Some("1:12 unterminated raw string")
        );
        assert_eq!(
            first("fn f() {\n    /* a /* b */\n}\n").as_deref(),
            Some("1:4 unterminated block comment")
        );
    }

    #[test]
    fn literals_with_their_prefixes_lifetimes_and_a_shebang_are_no_error() {
        let valid = "#!/usr/bin/env run\nfn f<'a>(x: &'a str) -> u8 {\n    let (c, d) = (b'x', '\\'');\n    let e = c\"x\"; let g = cr#\"x\"#; let r#type = br\"\\\"; let h = b\"\\\"\";\n    /* a /* nested */ \" */\n    'outer: loop { break 'outer; }\n    let _ = r##\"a \"# b\"##;\n    1u8\n}\n";
        assert_eq!(first(valid), None);
    }
}
