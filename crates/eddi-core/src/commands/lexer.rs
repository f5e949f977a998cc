//! The lexer: a message's text to tokens with spans.
//!
//! Never fails as a whole: a malformed string, regex or parameter list
//! becomes a [`TokenKind::Error`] token, and lexing goes on, so the commands
//! before it in the same message still parse. Spans are char offsets into the
//! whole message.
//!
//! Lexical rules (also in `docs/COMMANDS.md`):
//! - A *word* is a run of characters other than whitespace, `"`, `;` and
//!   `(`: keywords, names, dotted names `Class.method`, paths
//!   `src/auth/user_manager.py` and globs `**/*.py` are all words. A word of
//!   ASCII digits is a [`TokenKind::Number`]; `digits:digits` is a
//!   [`TokenKind::Pair`] (a position `12:4` or a line range `3:9`).
//! - `"..."` is a string with the escapes `\n`, `\t`, `\"`, `\\`; a raw
//!   newline inside is kept; any other escape is an error naming it.
//! - `/.../` is a regex literal (`\/` for a slash) only where a pattern goes:
//!   the first argument of `Find` and `Replace`, or the second after
//!   `Next|Prev|All|Confirm`. Everywhere else `/` is a word character, so
//!   `Open /abs/x.py` and `List src/**/*.py` are paths, not regexes.
//! - `(...)` is a parameter list, kept raw; nested parentheses and quoted
//!   strings inside are skipped over; it ends at its line.
//! - `;` and newlines separate commands. A `#` that starts a command starts
//!   a comment running to the end of the line.
//!
//! Positions in error messages are 1-based `line:col` in the message.

use super::error::{excerpt, ParseError, Span};

/// What a token is; the text of words is kept as written (case included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenKind {
    /// A bare word: keyword, name, dotted name, path or glob.
    Word(String),
    /// ASCII digits, kept as text so the parser reports overflow where a
    /// number is expected.
    Number(String),
    /// `digits:digits`: a position `line:col` or a line range `first:last`.
    Pair(String, String),
    /// A double-quoted string, escapes resolved.
    Str(String),
    /// A regex literal's pattern, `\/` resolved to `/`.
    Regex(String),
    /// The raw text between `(` and its matching `)`.
    Params(String),
    Semicolon,
    Newline,
    /// A lexical error; the token covers the malformed text.
    Error(ParseError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    /// Char offsets into the message.
    pub span: Span,
    /// Byte offsets into the message (for slicing the source text).
    pub bytes: (usize, usize),
    /// True when no whitespace separates this token from the previous one
    /// (`foo()` is a word glued to a parameter list).
    pub glued: bool,
}

impl Token {
    /// The word's text if this is a bare word.
    pub fn word(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Word(w) => Some(w),
            _ => None,
        }
    }

    /// True for `;` and newline tokens.
    pub fn is_separator(&self) -> bool {
        matches!(self.kind, TokenKind::Semicolon | TokenKind::Newline)
    }
}

/// Splits `text` into tokens. Whitespace and comments produce no tokens.
pub fn tokenize(text: &str) -> Vec<Token> {
    Lexer::new(text).run()
}

struct Lexer {
    chars: Vec<char>,
    /// Byte offset of each char, plus `text.len()` at the end.
    bytes: Vec<usize>,
    /// Char offset where each line starts (for `line:col` in errors without
    /// rescanning the message: many errors in a huge message stay linear).
    line_starts: Vec<usize>,
    tokens: Vec<Token>,
    /// Tokens so far in the current command.
    stmt_len: usize,
    /// The current command is `Find` or `Replace` (a regex may follow).
    stmt_takes_pattern: bool,
    /// The current command's second token is `Next|Prev|All|Confirm`.
    stmt_has_mode: bool,
    /// Words before the statement's verb: 1 after a leading `Preview`
    /// (`Preview Replace All /re/ …`), 2 after `Preview Diff`, else 0.
    stmt_lead: usize,
}

impl Lexer {
    fn new(text: &str) -> Self {
        let mut chars = Vec::with_capacity(text.len());
        let mut bytes = Vec::with_capacity(text.len() + 1);
        let mut line_starts = vec![0];
        for (i, (b, c)) in text.char_indices().enumerate() {
            chars.push(c);
            bytes.push(b);
            if c == '\n' {
                line_starts.push(i + 1);
            }
        }
        bytes.push(text.len());
        Lexer {
            chars,
            bytes,
            line_starts,
            tokens: Vec::new(),
            stmt_len: 0,
            stmt_takes_pattern: false,
            stmt_has_mode: false,
            stmt_lead: 0,
        }
    }

    fn run(mut self) -> Vec<Token> {
        let n = self.chars.len();
        let mut i = 0;
        let mut prev_end: Option<usize> = None;
        while i < n {
            let c = self.chars[i];
            let glued = prev_end == Some(i);
            let end = match c {
                '\n' | ';' => {
                    let kind = if c == '\n' {
                        TokenKind::Newline
                    } else {
                        TokenKind::Semicolon
                    };
                    self.push(kind, i, i + 1, false);
                    self.stmt_len = 0;
                    self.stmt_takes_pattern = false;
                    self.stmt_has_mode = false;
                    self.stmt_lead = 0;
                    prev_end = None;
                    i += 1;
                    continue;
                }
                // A byte-order mark (a file saved by some editors) is blank.
                c if c.is_whitespace() || c == '\u{feff}' => {
                    i += 1;
                    continue;
                }
                '#' if self.stmt_len == 0 => {
                    while i < n && self.chars[i] != '\n' {
                        i += 1;
                    }
                    continue;
                }
                '"' => self.string(i, glued),
                '/' if self.regex_allowed() => self.regex(i, glued),
                '(' => self.params(i, glued),
                _ => self.word(i, glued),
            };
            self.stmt_len += 1;
            prev_end = Some(end);
            i = end;
        }
        self.tokens
    }

    fn push(&mut self, kind: TokenKind, start: usize, end: usize, glued: bool) {
        self.tokens.push(Token {
            kind,
            span: Span::new(start, end),
            bytes: (self.bytes[start], self.bytes[end]),
            glued,
        });
    }

    fn error(&mut self, message: String, error_span: Span, start: usize, end: usize, glued: bool) {
        self.push(
            TokenKind::Error(ParseError::new(message, error_span)),
            start,
            end,
            glued,
        );
    }

    /// `line:col` (1-based) of a char offset, as error messages show it.
    fn at(&self, offset: usize) -> String {
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let col = offset - self.line_starts[line - 1] + 1;
        format!("{line}:{col}")
    }

    fn regex_allowed(&self) -> bool {
        let len = self.stmt_len - self.stmt_lead;
        self.stmt_takes_pattern && (len == 1 || (len == 2 && self.stmt_has_mode))
    }

    /// A bare word, number or pair, from `start`; returns its end.
    fn word(&mut self, start: usize, glued: bool) -> usize {
        let n = self.chars.len();
        let mut end = start;
        while end < n && is_word_char(self.chars[end]) {
            end += 1;
        }
        let text: String = self.chars[start..end].iter().collect();
        let lower = text.to_ascii_lowercase();
        if self.stmt_len == 0 && lower == "preview" {
            self.stmt_lead = 1;
        } else if self.stmt_len == 1 && self.stmt_lead == 1 && lower == "diff" {
            self.stmt_lead = 2;
        } else if self.stmt_len == self.stmt_lead {
            self.stmt_takes_pattern = lower == "find" || lower == "replace";
        } else if self.stmt_len == self.stmt_lead + 1 {
            self.stmt_has_mode = matches!(lower.as_str(), "next" | "prev" | "all" | "confirm");
        }
        let kind = classify(text);
        self.push(kind, start, end, glued);
        end
    }

    /// A double-quoted string from `start` (the quote); returns its end.
    fn string(&mut self, start: usize, glued: bool) -> usize {
        let n = self.chars.len();
        let mut value = String::new();
        let mut bad_escape: Option<ParseError> = None;
        let mut j = start + 1;
        loop {
            if j >= n {
                let msg = format!(
                    "Unterminated string starting at {}; close it with \"",
                    self.at(start)
                );
                self.error(msg, Span::new(start, n), start, n, glued);
                return n;
            }
            match self.chars[j] {
                '"' => break,
                '\\' => {
                    let Some(&esc) = self.chars.get(j + 1) else {
                        j += 1;
                        continue; // unterminated, reported above
                    };
                    match esc {
                        'n' => value.push('\n'),
                        't' => value.push('\t'),
                        '"' => value.push('"'),
                        '\\' => value.push('\\'),
                        other => {
                            if bad_escape.is_none() {
                                let message = if other == '\n' || other == '\r' {
                                    format!(
                                        "Backslash at the end of a line in string at {}; write \\\\ for a backslash",
                                        self.at(j)
                                    )
                                } else {
                                    format!(
                                        "Unknown escape '\\{}' in string at {}; valid escapes are \\n \\t \\\" \\\\ (write \\\\ for a backslash)",
                                        excerpt(&other.to_string()),
                                        self.at(j)
                                    )
                                };
                                bad_escape = Some(ParseError::new(message, Span::new(j, j + 2)));
                            }
                        }
                    }
                    j += 2;
                }
                c => {
                    value.push(c);
                    j += 1;
                }
            }
        }
        let end = j + 1;
        match bad_escape {
            Some(err) => {
                let span = err.span;
                self.error(err.message, span, start, end, glued)
            }
            None => self.push(TokenKind::Str(value), start, end, glued),
        }
        end
    }

    /// A regex literal from `start` (the slash); returns its end.
    fn regex(&mut self, start: usize, glued: bool) -> usize {
        let n = self.chars.len();
        let mut value = String::new();
        let mut j = start + 1;
        loop {
            match self.chars.get(j) {
                None | Some('\n') => {
                    let msg = format!(
                        "Unterminated regex starting at {}; close it with / (write \\/ for a slash inside)",
                        self.at(start)
                    );
                    self.error(msg, Span::new(start, j), start, j, glued);
                    return j;
                }
                Some('/') => break,
                Some('\\') => match self.chars.get(j + 1) {
                    Some('/') => {
                        value.push('/');
                        j += 2;
                    }
                    Some(&c) if c != '\n' => {
                        value.push('\\');
                        value.push(c);
                        j += 2;
                    }
                    _ => j += 1,
                },
                Some(&c) => {
                    value.push(c);
                    j += 1;
                }
            }
        }
        let end = (j + 1).min(n);
        self.push(TokenKind::Regex(value), start, end, glued);
        end
    }

    /// A parameter list from `start` (the `(`); returns its end.
    fn params(&mut self, start: usize, glued: bool) -> usize {
        let mut depth = 0usize;
        let mut j = start;
        loop {
            match self.chars.get(j) {
                None | Some('\n') => {
                    let msg = format!(
                        "Unterminated '(' starting at {}; close it with ) on the same line",
                        self.at(start)
                    );
                    self.error(msg, Span::new(start, j), start, j, glued);
                    return j;
                }
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Some('"') => {
                    // Skip a quoted string so a ')' inside does not count.
                    let mut k = j + 1;
                    while let Some(&c) = self.chars.get(k) {
                        if c == '"' || c == '\n' {
                            break;
                        }
                        k += if c == '\\' { 2 } else { 1 };
                    }
                    if self.chars.get(k) != Some(&'"') {
                        j = k.min(self.chars.len());
                        continue; // runs into the unterminated case
                    }
                    j = k;
                }
                Some(_) => {}
            }
            j += 1;
        }
        let text: String = self.chars[start + 1..j].iter().collect();
        self.push(TokenKind::Params(text), start, j + 1, glued);
        j + 1
    }
}

/// Whether `c` can be part of a bare word.
pub(crate) fn is_word_char(c: char) -> bool {
    !(c.is_whitespace() || matches!(c, '"' | ';' | '(' | '\u{feff}'))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn classify(text: String) -> TokenKind {
    if is_digits(&text) {
        return TokenKind::Number(text);
    }
    if let Some((a, b)) = text.split_once(':') {
        if is_digits(a) && is_digits(b) {
            return TokenKind::Pair(a.to_string(), b.to_string());
        }
    }
    TokenKind::Word(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        tokenize(text).into_iter().map(|t| t.kind).collect()
    }

    fn word(s: &str) -> TokenKind {
        TokenKind::Word(s.to_string())
    }

    fn error_message(text: &str) -> String {
        tokenize(text)
            .into_iter()
            .find_map(|t| match t.kind {
                TokenKind::Error(e) => Some(e.message),
                _ => None,
            })
            .unwrap_or_default()
    }

    #[test]
    fn words_numbers_pairs_and_paths() {
        assert_eq!(
            kinds("Goto 12:4 7 src/auth/x.py **/*.py Class.method"),
            vec![
                word("Goto"),
                TokenKind::Pair("12".into(), "4".into()),
                TokenKind::Number("7".into()),
                word("src/auth/x.py"),
                word("**/*.py"),
                word("Class.method"),
            ]
        );
    }

    #[test]
    fn strings_resolve_escapes_and_keep_raw_newlines() {
        assert_eq!(
            kinds(r#"Insert Block "a\n\t\"b\"\\ c""#),
            vec![
                word("Insert"),
                word("Block"),
                TokenKind::Str("a\n\t\"b\"\\ c".into())
            ]
        );
        assert_eq!(
            kinds("Insert Block \"x\ny;\""),
            vec![
                word("Insert"),
                word("Block"),
                TokenKind::Str("x\ny;".into())
            ]
        );
    }

    #[test]
    fn string_errors_name_the_position() {
        assert_eq!(
            error_message("Insert \"abc"),
            "Unterminated string starting at 1:8; close it with \""
        );
        assert!(error_message(r#"Insert Line "a\qb""#)
            .starts_with(r"Unknown escape '\q' in string at 1:15;"));
    }

    #[test]
    fn regex_only_where_a_pattern_goes() {
        assert_eq!(
            kinds(r"Find /a\/b/; Open /abs/x.py"),
            vec![
                word("Find"),
                TokenKind::Regex("a/b".into()),
                TokenKind::Semicolon,
                word("Open"),
                word("/abs/x.py"),
            ]
        );
        assert_eq!(
            kinds(r"find all /\d+/"),
            vec![word("find"), word("all"), TokenKind::Regex(r"\d+".into())]
        );
        assert_eq!(
            kinds("Replace /a;b/ With \"c\""),
            vec![
                word("Replace"),
                TokenKind::Regex("a;b".into()),
                word("With"),
                TokenKind::Str("c".into())
            ]
        );
        assert!(error_message("Find /abc").starts_with("Unterminated regex starting at 1:6"));
    }

    #[test]
    fn params_glue_to_the_function_name() {
        let tokens = tokenize("Show Function f(a, g(b), \")\")");
        assert_eq!(tokens[2].kind, word("f"));
        assert_eq!(tokens[3].kind, TokenKind::Params("a, g(b), \")\"".into()));
        assert!(tokens[3].glued);
        assert!(!tokens[2].glued);
        assert!(error_message("Show Function f(a").starts_with("Unterminated '(' starting at 1:16"));
    }

    #[test]
    fn comments_start_a_command() {
        assert_eq!(
            kinds("# note; still comment\nStatus # not a comment"),
            vec![
                TokenKind::Newline,
                word("Status"),
                word("#"),
                word("not"),
                word("a"),
                word("comment")
            ]
        );
    }

    #[test]
    fn spans_are_chars_and_bytes() {
        let tokens = tokenize("Find \"é\" x");
        assert_eq!(tokens[1].span, Span::new(5, 8));
        assert_eq!(tokens[1].bytes, (5, 9));
        assert_eq!(tokens[2].span, Span::new(9, 10));
    }
}
