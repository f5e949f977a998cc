//! Literal checks of CPython's tokenizer and string decoder: a number
//! running into a name (`1abc`), Python 2's `010` and `10L`, non-ASCII
//! bytes, incomplete `\\x`/`\\u`/`\\U`/`\\N` escapes, f-string conversions.

use ropey::Rope;
use tree_sitter::Node;

use super::Checker;
use crate::analysis::nodes::named_code_children;

impl Checker<'_, '_> {
    /// A number runs into a name (`1syntax_error`, `1.real`): CPython's
    /// tokenizer refuses it, except before the keywords it still allows
    /// (`1if x else 2`, with a warning).
    pub(super) fn number_end(&mut self, node: Node<'_>) {
        const ALLOWED: &[&str] = &["and", "else", "for", "if", "in", "is", "not", "or"];
        let end = crate::analysis::syntax::byte_to_char(self.text, node.end_byte());
        let word: String = self
            .text
            .chars_at(end)
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if word.is_empty() || ALLOWED.contains(&word.as_str()) {
            return;
        }
        let literal = self.text_of(node).to_ascii_lowercase();
        let kind = if literal.starts_with("0x") {
            "hexadecimal"
        } else if literal.starts_with("0o") {
            "octal"
        } else if literal.starts_with("0b") {
            "binary"
        } else if literal.ends_with('j') {
            "imaginary"
        } else {
            "decimal"
        };
        self.error(node, format!("invalid {kind} literal"));
    }

    /// Integer forms the grammar accepts from Python 2: `010`, `10L`.
    pub(super) fn integer_form(&mut self, node: Node<'_>) {
        if node.kind() != "integer" {
            return;
        }
        let literal = self.text_of(node);
        let lower = literal.to_ascii_lowercase();
        if lower.ends_with('l') {
            let kind = match lower.get(..2) {
                Some("0x") => "hexadecimal",
                Some("0o") => "octal",
                Some("0b") => "binary",
                _ => "decimal",
            };
            self.error(node, format!("invalid {kind} literal"));
        } else if lower.starts_with('0')
            && lower.chars().all(|c| c.is_ascii_digit() || c == '_')
            && lower.chars().any(|c| ('1'..='9').contains(&c))
        {
            self.error(
                node,
                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
            );
        }
    }

    /// What a string's prefix and escapes allow: bytes are ASCII, `\x`,
    /// `\u`, `\U` and `\N` escapes are complete, f-string conversions are
    /// `!s`, `!r` or `!a`.
    pub(super) fn string(&mut self, node: Node<'_>) {
        if node.has_error() {
            return;
        }
        let prefix = string_prefix(self.text, node);
        let raw = prefix.contains(['r', 'R']);
        let bytes = prefix.contains(['b', 'B']);
        for part in named_code_children(node) {
            match part.kind() {
                "interpolation" => {
                    if let Some(conversion) = part.child_by_field_name("type_conversion") {
                        let text = self.text_of(conversion);
                        if !matches!(text.as_str(), "!s" | "!r" | "!a") {
                            self.error(
                                conversion,
                                "f-string: invalid conversion character: expected 's', 'r', or 'a'",
                            );
                        }
                    }
                }
                "string_content" => {
                    // borrowed when the content lies in one chunk of the rope
                    let content: std::borrow::Cow<str> =
                        self.text.byte_slice(part.byte_range()).into();
                    if bytes && !content.is_ascii() {
                        self.error(part, "bytes can only contain ASCII literal characters");
                        continue;
                    }
                    if !raw {
                        if let Some(message) = bad_escape(&content, bytes) {
                            self.error(part, message);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// The prefix of a string literal (`b`, `rb`, `f` …), before its quote.
pub(super) fn string_prefix(text: &Rope, string: Node<'_>) -> String {
    let Some(start) = string.child(0) else {
        return String::new();
    };
    text.byte_slice(start.byte_range())
        .bytes()
        .take_while(u8::is_ascii_alphabetic)
        .map(char::from)
        .collect()
}

/// The first escape CPython cannot decode in a non-raw literal's text.
fn bad_escape(content: &str, bytes: bool) -> Option<&'static str> {
    if !content.contains('\\') {
        return None;
    }
    let chars: Vec<char> = content.chars().collect();
    let hex = |from: usize, n: usize| {
        (from..from + n).all(|i| chars.get(i).is_some_and(char::is_ascii_hexdigit))
    };
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '\\' {
            i += 1;
            continue;
        }
        match chars.get(i + 1) {
            Some('x') if !hex(i + 2, 2) => {
                return Some(if bytes {
                    "(value error) invalid \\x escape"
                } else {
                    "(unicode error) truncated \\xXX escape"
                })
            }
            Some('u') if !bytes && !hex(i + 2, 4) => {
                return Some("(unicode error) truncated \\uXXXX escape")
            }
            Some('U') if !bytes && !hex(i + 2, 8) => {
                return Some("(unicode error) truncated \\UXXXXXXXX escape")
            }
            Some('N') if !bytes => {
                let closed = chars.get(i + 2) == Some(&'{')
                    && chars[i + 2..]
                        .iter()
                        .skip(1)
                        .take_while(|c| **c != '}')
                        .count()
                        > 0
                    && chars[i + 3..].contains(&'}');
                if !closed {
                    return Some("(unicode error) malformed \\N character escape");
                }
            }
            _ => {}
        }
        i += 2;
    }
    None
}
