//! The tokens lizard reads a file as (PyPI `lizard` 1.24.3, the tool the
//! brace languages' complexity is compared with): its complexity is a
//! count of condition tokens, so Eddi reads the same tokens to count the
//! same figure — a `&&` inside a string or a comment is no token, and
//! neither is one that lizard's reader swallows where it loses its way
//! (Rust's `'0'` opens a lifetime `'0` and then a quoted run up to the
//! next `'`; a JavaScript template's `${…}` is one opaque token).
//!
//! The rules are lizard's, tried in its order at each position, the first
//! that matches wins: a block comment, the dialect's own tokens, numbers
//! with digit separators, words, quoted strings, a line comment, `#`,
//! `:=` `::` `**`, a generic argument list holding a `?` (`<? super T>`,
//! one token), the operators of two or three characters, newlines,
//! whitespace, and any other character alone. A `#` gathers the tokens
//! after it up to the end of its line into one (a preprocessor line: in
//! Rust an attribute `#[…]`). Whitespace and comments are dropped.

/// Which of lizard's readers a file is read by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// JavaScript and TypeScript: regular expression literals, private
    /// `#names`, `$names`, `name?`, `??`, `?.`, template literals.
    Script,
    /// Rust: `'name` (a lifetime or a label) is one token.
    Rust,
    /// Java: the common rules alone.
    Java,
}

/// A token: its byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    /// The text of a template literal (lizard reads it quoted): never a
    /// keyword or an operator, whatever it says.
    pub literal: bool,
}

impl Token {
    fn code(start: usize, end: usize) -> Token {
        Token {
            start,
            end,
            literal: false,
        }
    }

    pub fn text<'s>(&self, source: &'s str) -> &'s str {
        &source[self.start..self.end]
    }
}

/// The tokens of `source` as lizard's reader for `dialect` sees them,
/// without whitespace and comments.
pub fn tokens(source: &str, dialect: Dialect) -> Vec<Token> {
    let mut raw = Vec::new();
    if dialect == Dialect::Script {
        script_tokens(source, &mut raw);
    } else {
        span_tokens(source, 0, source.len(), dialect, &mut raw);
    }
    raw.into_iter()
        .filter(|t| {
            let text = t.text(source);
            !(text.starts_with("//") || text.starts_with("/*") || text.trim().is_empty())
        })
        .collect()
}

/// The tokens of `source[from..to]`, a `#` line gathered into one.
fn span_tokens(source: &str, from: usize, to: usize, dialect: Dialect, out: &mut Vec<Token>) {
    let text = &source[..to];
    let mut pos = from;
    let mut line: Option<Token> = None;
    while pos < to {
        let end = token_end(text, pos, dialect);
        let token = Token::code(pos, end);
        let body = token.text(source);
        pos = end;
        if let Some(mut gathered) = line.take() {
            if body.contains("\\\n") || !body.contains('\n') {
                gathered.end = end;
                line = Some(gathered);
            } else {
                out.push(gathered);
                out.push(token);
            }
        } else if body == "#" {
            line = Some(token);
        } else {
            out.push(token);
        }
    }
    out.extend(line);
}

/// Where the token starting at `pos` ends (`text` ends where the span does:
/// no rule looks past it).
fn token_end(text: &str, pos: usize, dialect: Dialect) -> usize {
    let rest = &text[pos..];
    let first = rest.chars().next().unwrap_or('\0');
    if let Some(end) = rest.strip_prefix("/*").and_then(|r| r.find("*/")) {
        return pos + 2 + end + 2;
    }
    if let Some(len) = dialect_token(text, pos, dialect) {
        return pos + len;
    }
    if let Some(len) = separated_number(rest) {
        return pos + len;
    }
    if is_word(first) {
        return pos + word_len(rest);
    }
    if first == '"' || first == '\'' {
        if let Some(len) = quoted_len(rest, first) {
            return pos + len;
        }
    }
    if rest.starts_with("//") {
        return pos + line_comment_len(rest);
    }
    if first == '#' {
        return pos + 1;
    }
    for op in [":=", "::", "**"] {
        if rest.starts_with(op) {
            return pos + 2;
        }
    }
    if let Some(len) = wildcard_generic_len(rest) {
        return pos + len;
    }
    for op in OPERATORS {
        if rest.starts_with(op) {
            return pos + op.len();
        }
    }
    if rest.starts_with("\\\n") {
        return pos + 2;
    }
    if first != '\n' && first.is_whitespace() {
        let len = rest
            .find(|c: char| c == '\n' || !c.is_whitespace())
            .unwrap_or(rest.len());
        return pos + len;
    }
    pos + first.len_utf8().max(1)
}

/// The operators lizard reads as one token, in the order it tries them
/// (`*=` and `/=` come after `*` and `/`, so they never match).
const OPERATORS: [&str; 26] = [
    "<<=", ">>=", "||", "&&", "===", "!==", "==", "!=", "<=", ">=", "->", "=>", "++", "--", "+=",
    "-=", "+", "-", "*", "/", "*=", "/=", "^=", "&=", "|=", "...",
];

/// A dialect's own tokens, tried before the common ones.
fn dialect_token(text: &str, pos: usize, dialect: Dialect) -> Option<usize> {
    let rest = &text[pos..];
    match dialect {
        Dialect::Java => None,
        // a lifetime or a label — and the start of a char literal `'a'`,
        // which then leaves a lone `'` that opens a quoted run
        Dialect::Rust => {
            let name = rest.strip_prefix('\'')?;
            let len = word_len(name);
            (len > 0).then_some(1 + len)
        }
        Dialect::Script => {
            if let Some(len) = regex_literal_after(text, pos) {
                return Some(len);
            }
            if let Some(name) = rest.strip_prefix('#').or_else(|| rest.strip_prefix('$')) {
                let len = word_len(name);
                if len > 0 {
                    return Some(1 + len);
                }
            }
            // `name?` (an optional property or parameter), unless `??` or
            // `?.` follows
            let word = word_len(rest);
            if word > 0 && rest[word..].starts_with('?') {
                let after = &rest[word + 1..];
                if !after.starts_with('?') && !after.starts_with('.') {
                    return Some(word + 1);
                }
            }
            if rest.starts_with("??") {
                return Some(2);
            }
            if rest.starts_with("?.") && !rest[2..].starts_with(|c: char| c.is_ascii_digit()) {
                return Some(2);
            }
            None
        }
    }
}

/// Numbers with digit separators: `1'000`, `0x1'FF`, `0b1'0`.
fn separated_number(rest: &str) -> Option<usize> {
    let grouped = |s: &str, digit: fn(char) -> bool| -> Option<usize> {
        let mut len = s.find(|c: char| !digit(c)).unwrap_or(s.len());
        if len == 0 {
            return None;
        }
        let mut groups = 0;
        while s[len..].starts_with('\'') {
            let more = s[len + 1..]
                .find(|c: char| !digit(c))
                .unwrap_or(s.len() - len - 1);
            if more == 0 {
                break;
            }
            len += 1 + more;
            groups += 1;
        }
        (groups > 0).then_some(len)
    };
    grouped(rest, |c| c.is_ascii_digit())
        .or_else(|| {
            let hex = rest.strip_prefix("0x")?;
            grouped(hex, |c| c.is_ascii_hexdigit()).map(|l| 2 + l)
        })
        .or_else(|| {
            let bin = rest.strip_prefix("0b")?;
            grouped(bin, |c| c == '0' || c == '1').map(|l| 2 + l)
        })
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn word_len(s: &str) -> usize {
    s.find(|c: char| !is_word(c)).unwrap_or(s.len())
}

/// A string quoted by `quote` (escapes skipped, newlines allowed), or
/// `None` when it is not closed.
fn quoted_len(rest: &str, quote: char) -> Option<usize> {
    let mut chars = rest.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            chars.next()?;
        } else if c == quote {
            return Some(i + 1);
        }
    }
    None
}

/// A `//` comment: to the end of the line, continued by a backslash
/// before the newline.
fn line_comment_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
            i += 2;
        } else if bytes[i] == b'\n' {
            break;
        } else {
            i += 1;
        }
    }
    i
}

/// A generic argument list holding a `?` (`<?>`, `<? extends T>`): one
/// token when a `?` comes before the first `<` or `>` after the opening
/// `<`, that first one is `>`, and all between are word characters,
/// whitespace, `,`, `.` or `?`.
fn wildcard_generic_len(rest: &str) -> Option<usize> {
    let inner = rest.strip_prefix('<')?;
    let close = inner.find(['<', '>'])?;
    if !inner[close..].starts_with('>') || !inner[..close].contains('?') {
        return None;
    }
    let plain = inner[..close]
        .chars()
        .all(|c| is_word(c) || c.is_whitespace() || matches!(c, ',' | '.' | '?'));
    (close > 0 && plain).then_some(1 + close + 1)
}

/// A regular expression literal starting at `pos`: at the file's start or
/// right after one of `=,({[?:!&|;`, after optional whitespace, `/…/flags`
/// whose body holds no unescaped `/` outside a class and no newline, and
/// does not open a comment.
fn regex_literal_after(text: &str, pos: usize) -> Option<usize> {
    let opens =
        pos == 0 || text[..pos].ends_with(['=', ',', '(', '{', '[', '?', ':', '!', '&', '|', ';']);
    if !opens {
        return None;
    }
    let rest = &text[pos..];
    let lead = rest.len() - rest.trim_start().len();
    let body = &rest[lead..];
    regex_literal_len(body).map(|len| lead + len)
}

/// The length of the regular expression literal `/…/flags` at the start of
/// `s`.
fn regex_literal_len(s: &str) -> Option<usize> {
    let inner = s.strip_prefix('/')?;
    if inner.starts_with(['/', '*']) {
        return None;
    }
    let mut chars = inner.char_indices().peekable();
    let mut units = 0;
    while let Some((i, c)) = chars.next() {
        match c {
            '\r' | '\n' => return None,
            '\\' => {
                let (_, escaped) = chars.next()?;
                if matches!(escaped, '\r' | '\n') {
                    return None;
                }
            }
            '[' => loop {
                let (_, c) = chars.next()?;
                match c {
                    ']' => break,
                    '\r' | '\n' => return None,
                    '\\' => {
                        let (_, escaped) = chars.next()?;
                        if matches!(escaped, '\r' | '\n') {
                            return None;
                        }
                    }
                    _ => {}
                }
            },
            '/' => {
                if units == 0 {
                    return None;
                }
                let flags = inner[i + 1..]
                    .find(|c: char| !c.is_ascii_lowercase())
                    .unwrap_or(inner.len() - i - 1);
                return Some(1 + i + 1 + flags);
            }
            _ => {}
        }
        units += 1;
    }
    None
}

/// JavaScript and TypeScript: the text between template literals is read
/// by the common rules; a template literal is a backtick, its text, and
/// each `${…}` as `${`, one opaque token, `}`.
fn script_tokens(source: &str, out: &mut Vec<Token>) {
    let mut pos = 0;
    while let Some((start, end, holes)) = next_template(source, pos) {
        span_tokens(source, pos, start, Dialect::Script, out);
        pos = end;
        let Some(holes) = holes else {
            // unclosed: the rest of the file is one token
            out.push(Token {
                start,
                end,
                literal: true,
            });
            continue;
        };
        out.push(Token::code(start, start + 1));
        let text = |out: &mut Vec<Token>, from: usize, to: usize| {
            if from < to {
                out.push(Token {
                    start: from,
                    end: to,
                    literal: true,
                });
            }
        };
        let mut at = start + 1;
        for (hole_start, hole_end) in holes {
            text(out, at, hole_start - 2);
            out.push(Token::code(hole_start - 2, hole_start));
            // the expression is one token, opaque
            out.push(Token {
                start: hole_start,
                end: hole_end,
                literal: true,
            });
            out.push(Token::code(hole_end, hole_end + 1));
            at = hole_end + 1;
        }
        text(out, at, end - 1);
        out.push(Token::code(end - 1, end));
    }
    span_tokens(source, pos, source.len(), Dialect::Script, out);
}

/// A template literal's outermost `${…}` holes (the byte ranges inside
/// the braces); `None` when the template is not closed.
type Holes = Option<Vec<(usize, usize)>>;

/// The next template literal from `pos`: its start, its end, and its
/// outermost `${…}` holes (the ranges inside the braces), `None` when it
/// runs to the end of the file unclosed. Comments, strings and regular
/// expressions before it are skipped.
#[allow(clippy::type_complexity)]
fn next_template(
    source: &str,
    mut pos: usize,
) -> Option<(usize, usize, Option<Vec<(usize, usize)>>)> {
    loop {
        let (at, len) = next_special(source, pos, false)?;
        if &source[at..at + len] == "`" {
            let (end, holes) = template_end(source, at);
            return Some((at, end, holes));
        }
        pos = at + len;
    }
}

/// The next backtick (or, inside an expression, brace) at or after `pos`,
/// past comments, strings and regular expression literals: its position
/// and length.
fn next_special(source: &str, mut pos: usize, braces: bool) -> Option<(usize, usize)> {
    while pos < source.len() {
        let rest = &source[pos..];
        let c = rest.chars().next()?;
        if let Some(len) = opaque_len(source, pos) {
            pos += len;
            continue;
        }
        if c == '`' || (braces && (c == '{' || c == '}')) {
            return Some((pos, 1));
        }
        pos += c.len_utf8();
    }
    None
}

/// A comment, a quoted string or a regular expression literal at `pos`.
fn opaque_len(source: &str, pos: usize) -> Option<usize> {
    let rest = &source[pos..];
    if let Some(end) = rest.strip_prefix("/*").and_then(|r| r.find("*/")) {
        return Some(2 + end + 2);
    }
    if rest.starts_with("//") {
        return Some(
            rest.find(['\r', '\n', '\u{2028}', '\u{2029}'])
                .unwrap_or(rest.len()),
        );
    }
    if let Some(quote @ ('"' | '\'')) = rest.chars().next() {
        if let Some(len) = quoted_len(rest, quote) {
            return Some(len);
        }
    }
    regex_literal_after(source, pos)
}

/// Where the template literal at `start` ends and its outermost holes.
fn template_end(source: &str, start: usize) -> (usize, Holes) {
    // 0: template text; n > 0: the open braces of an expression
    let mut stack = vec![0usize];
    let mut holes = Vec::new();
    let mut hole_start = 0;
    let mut pos = start + 1;
    while let Some(&top) = stack.last() {
        if top == 0 {
            let rest = &source[pos..];
            let Some(i) = rest.find(['\\', '`', '$']) else {
                return (source.len(), None);
            };
            let at = pos + i;
            let tail = &source[at..];
            if let Some(escaped) = tail.strip_prefix('\\') {
                pos = at + 1 + escaped.chars().next().map_or(0, char::len_utf8);
            } else if tail.starts_with('`') {
                stack.pop();
                pos = at + 1;
            } else if tail.starts_with("${") {
                pos = at + 2;
                if stack.len() == 1 {
                    hole_start = pos;
                }
                stack.push(1);
            } else {
                pos = at + 1;
            }
        } else {
            let Some((at, _)) = next_special(source, pos, true) else {
                return (source.len(), None);
            };
            pos = at + 1;
            match &source[at..at + 1] {
                "`" => stack.push(0),
                "{" => *stack.last_mut().expect("an expression") += 1,
                _ => {
                    let top = stack.last_mut().expect("an expression");
                    *top -= 1;
                    if *top == 0 {
                        stack.pop();
                        if stack.len() == 1 {
                            holes.push((hole_start, at));
                        }
                    }
                }
            }
        }
    }
    (pos, Some(holes))
}

/// Each expectation is what lizard 1.24.3's own reader yields for the
/// same text (`RustReader.generate_tokens`, `JavaReader…`,
/// `TypeScriptReader…`, whitespace left out).
#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str, dialect: Dialect) -> Vec<&str> {
        tokens(source, dialect)
            .iter()
            .map(|t| t.text(source))
            .collect()
    }

    #[test]
    fn rust_reads_a_char_literal_as_a_lifetime_and_a_quoted_run() {
        assert_eq!(
            texts("'0' <= c && c <= '9'", Dialect::Rust),
            ["'0", "' <= c && c <= '", "9", "'"]
        );
        assert_eq!(texts("&&'a str", Dialect::Rust), ["&&", "'a", "str"]);
        // an attribute is one token, to the end of its line
        assert_eq!(
            texts("#[cfg(a || b)]\nfn f() {}", Dialect::Rust),
            ["#[cfg(a || b)]", "fn", "f", "(", ")", "{", "}"]
        );
    }

    #[test]
    fn java_reads_wildcard_generics_as_one_token_when_flat() {
        assert_eq!(
            texts(
                "Map<String, ?> m; List<? extends Map<K, V>> l;",
                Dialect::Java
            ),
            [
                "Map",
                "<String, ?>",
                "m",
                ";",
                "List",
                "<",
                "?",
                "extends",
                "Map",
                "<",
                "K",
                ",",
                "V",
                ">",
                ">",
                "l",
                ";"
            ]
        );
        // comments and strings are no code
        assert_eq!(
            texts("a /* && */ \"||\" // ? x\n&& b", Dialect::Java),
            ["a", "\"||\"", "&&", "b"]
        );
    }

    #[test]
    fn script_reads_templates_regexes_and_optional_names() {
        // a regular expression only where an expression opens (`(`, not `+`)
        let source = "x = `a ${b && c} d` + (/[/?]+/g).test(s) ? e?.f : g?? h / 2;";
        let read = tokens(source, Dialect::Script);
        let codes: Vec<&str> = read
            .iter()
            .filter(|t| !t.literal)
            .map(|t| t.text(source))
            .collect();
        assert_eq!(
            codes,
            [
                "x", "=", "`", "${", "}", "`", "+", "(", "/[/?]+/g", ")", ".", "test", "(", "s",
                ")", "?", "e", "?.", "f", ":", "g", "??", "h", "/", "2", ";"
            ]
        );
        // the hole is one opaque token
        assert!(read.iter().any(|t| t.literal && t.text(source) == "b && c"));
        assert_eq!(
            texts("f(a?: T)", Dialect::Script),
            ["f", "(", "a?", ":", "T", ")"]
        );
    }
}
