//! The syntax errors tree-sitter's parse shows, for the languages whose
//! grammar is all their syntax check (the JavaScript family, Go, Rust,
//! Java): each ERROR node (the outermost of nested ones) and each MISSING
//! node, where it starts, with what is wrong — `missing ';'`, `unclosed
//! '('`, `unexpected ')'`, `unexpected 'else'`, `unexpected end of file`.
//! Where the language's own tool reports an unclosed bracket (at the token
//! where it had to be closed, or at the end of the file) comes from a scan
//! of the error's text for brackets, which skips the language's strings
//! and comments ([`Lexicon`]).

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::syntax::{byte_to_char, byte_to_position, node_start, node_text};
use crate::analysis::validate::SyntaxError;
use crate::edit::position::from_char;

/// What a bracket scan skips in a language's text — its strings (by their
/// quotes) and its `//` and `/* */` comments — and where its tool puts
/// the end of a file.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lexicon {
    /// The quotes of strings that a line break ends (`"`, `'`).
    pub(super) line_quotes: &'static [char],
    /// The quotes of strings that may span lines (JavaScript's and Go's
    /// backquote, Rust's `"`).
    pub(super) multiline_quotes: &'static [char],
    /// Whether `'` quotes a single character only (`'a'`, `'\n'`), and is
    /// a lifetime or label otherwise (Rust's `'a`).
    pub(super) char_quote: bool,
    /// Whether `r"…"` and `r#"…"#` are raw strings (Rust's).
    pub(super) raw_strings: bool,
    /// Whether a `/*` in a block comment opens one inside it (Rust's).
    pub(super) nested_comments: bool,
    /// Whether an error that starts a line after a token that cannot end a
    /// statement is the missing `;` of that statement, reported right
    /// after the token (rustc, javac); Go ends statements at line breaks,
    /// Node inserts the `;`.
    pub(super) semicolon_before_line: bool,
    /// Whether an error inside a list (the innermost bracket open before
    /// it a `(` or `[`: arguments, a tuple, an array) is at the token
    /// that stands where a `,` is missing, not after the token before
    /// (rustc's "expected one of `,` …, found `b`"; javac reports a `,`
    /// missing where it reports a `;`).
    pub(super) list_error_at_token: bool,
    /// The keywords an expression follows unless a `;` does (Java's
    /// `return`, `throw`): without the `;`, the next token is read as
    /// that expression, and javac reports one that cannot start it
    /// ("illegal start of expression" at a `}`, an `else`).
    pub(super) expression_keywords: &'static [&'static str],
    /// The ERROR and MISSING nodes the language accepts where its grammar
    /// does not (Rust's macro bodies, read as token trees).
    pub(super) accepts: Option<fn(&Rope, Node<'_>) -> bool>,
    /// Where the language's tool reports the end of the file.
    pub(super) end: EndOfFile,
}

/// Where a language's tool reports an error at the end of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EndOfFile {
    /// After the text (Node).
    AfterText,
    /// On the last line of text, at its line break (Go's and rustc's
    /// positions have no line after the last one).
    LastLine,
    /// At the last character that is not blank (javac: the last token).
    LastToken,
}

/// Where the language's tool reports the end of `text`.
pub(super) fn end_of_file(text: &Rope, lexicon: &Lexicon) -> crate::edit::Position {
    let end = text.len_chars();
    let at = match lexicon.end {
        EndOfFile::AfterText => end,
        EndOfFile::LastLine => end.saturating_sub(1),
        EndOfFile::LastToken => {
            let blanks = text
                .chars_at(end)
                .reversed()
                .take_while(|c| c.is_whitespace())
                .count();
            (end - blanks).saturating_sub(1)
        }
    };
    from_char(text, at)
}

/// The errors of tree-sitter's parse: each ERROR node (the outermost of
/// nested ones) and each MISSING node.
pub(super) fn parse_errors(text: &Rope, root: Node<'_>, lexicon: &Lexicon) -> Vec<SyntaxError> {
    if !root.has_error() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut accepted = false;
    // depth first; an explicit stack, not recursion (nesting may be deep)
    let mut stack = vec![(root, false)];
    while let Some((node, in_error)) = stack.pop() {
        if (node.is_missing() || (node.is_error() && !in_error))
            && lexicon.accepts.is_some_and(|accepts| accepts(text, node))
        {
            accepted = true;
            continue;
        }
        if node.is_missing() {
            out.push(missing(text, node, lexicon));
            continue;
        }
        if !in_error {
            if node.is_error() {
                out.push(describe_error(text, node, lexicon));
            } else if !node.has_error() {
                continue;
            }
        }
        let in_error = in_error || node.is_error();
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        stack.extend(children.into_iter().rev().map(|child| (child, in_error)));
    }
    if out.is_empty() && !accepted {
        out.push(hidden_error(text, root));
    }
    out
}

/// `missing ';'` for a token, `missing identifier` for a named node; a
/// token missing where only blanks follow is missing at the end of the
/// file (where the languages' own tools report it).
fn missing(text: &Rope, node: Node<'_>, lexicon: &Lexicon) -> SyntaxError {
    let what = if node.is_named() {
        format!("missing {}", node.kind())
    } else {
        format!("missing '{}'", node.kind())
    };
    let after = byte_to_char(text, node.end_byte());
    let at_end = text.slice(after..).chars().all(char::is_whitespace);
    // a missing operand (an identifier, an expression) is missed where
    // the next token stands instead (`1 +` then `}`); a missing
    // punctuation mark where it goes
    let operand = node.is_named() || node.kind().chars().all(|c| c.is_alphanumeric() || c == '_');
    if let Some(next) = token_after(node).filter(|_| operand && !at_end) {
        return SyntaxError {
            position: node_start(text, next),
            message: format!("unexpected '{}': {what}", shortened(&node_text(text, next))),
        };
    }
    if at_end {
        SyntaxError {
            position: end_of_file(text, lexicon),
            message: format!("unexpected end of file: {what}"),
        }
    } else {
        // (tree-sitter places it after the comments that follow the
        // token it belongs after: it goes right after that token)
        let mut before = node.prev_sibling();
        while let Some(comment) = before.filter(|b| b.is_extra()) {
            before = comment.prev_sibling();
        }
        let position = match before {
            Some(token) if token.end_byte() < node.start_byte() => {
                byte_to_position(text, token.end_byte())
            }
            _ => node_start(text, node),
        };
        SyntaxError {
            position,
            message: what,
        }
    }
}

/// An ERROR node: an unmatched or unclosed bracket in it, else the token
/// tree-sitter could not place, else the end of the file.
fn describe_error(text: &Rope, node: Node<'_>, lexicon: &Lexicon) -> SyntaxError {
    let body = node_text(text, node);
    let start = byte_to_char(text, node.start_byte());
    if let Some((offset, bracket, unclosed)) = unbalanced_bracket(&body, lexicon) {
        let at = from_char(text, start + body[..offset].chars().count());
        if !unclosed {
            return SyntaxError {
                position: at,
                message: format!("unexpected '{bracket}'"),
            };
        }
        // where the bracket had to be closed: the token after the error
        // (where the languages' tools report it); when the error runs to
        // the end of the file, the bracket itself (Node's line)
        return match token_after(node) {
            Some(token) => SyntaxError {
                position: node_start(text, token),
                message: format!(
                    "unexpected '{}': '{bracket}' opened at {at} is not closed",
                    shortened(&node_text(text, token))
                ),
            },
            None => SyntaxError {
                position: at,
                message: format!("unclosed '{bracket}'"),
            },
        };
    }
    if let Some(error) = expression_expected(text, node, lexicon) {
        return error;
    }
    if lexicon.semicolon_before_line {
        let not_ended =
            statement_not_ended(text, node).or_else(|| complete_before_line(text, node));
        // (a list's elements are no statements)
        if let Some(error) =
            not_ended.filter(|_| !(lexicon.list_error_at_token && in_list(text, node, lexicon)))
        {
            return error;
        }
    }
    let mut c = node.walk();
    let direct: Vec<Node<'_>> = node.children(&mut c).collect();
    let token = direct
        .iter()
        .rev()
        .find(|n| !n.is_named() && n.end_byte() > n.start_byte())
        .copied()
        .or_else(|| first_token(node));
    // an operator that ends an error and its line waits for its operand
    // on the next: the error is the token found there (`1 +` then `}`)
    if let Some(op) = token.filter(|t| ends_with_operator(text, node, *t)) {
        if let Some(next) =
            token_after(node).filter(|n| n.start_position().row > op.end_position().row)
        {
            return SyntaxError {
                position: node_start(text, next),
                message: format!(
                    "unexpected '{}' after '{}'",
                    shortened(&node_text(text, next)),
                    node_text(text, op)
                ),
            };
        }
    }
    match token {
        Some(token) => {
            let shown = shortened(&node_text(text, token));
            SyntaxError {
                position: node_start(text, token),
                message: if shown.is_empty() {
                    "unexpected token".to_owned()
                } else {
                    format!("unexpected '{shown}'")
                },
            }
        }
        None => SyntaxError {
            position: node_start(text, node),
            message: "unexpected end of file".to_owned(),
        },
    }
}

/// An error right after one of the language's expression keywords
/// (`return` then a line break and `}`), or one that ends with such a
/// keyword and its line: the expression the keyword waits for starts
/// with the next token, which cannot start one — the error is there.
fn expression_expected(text: &Rope, node: Node<'_>, lexicon: &Lexicon) -> Option<SyntaxError> {
    let keyword = |t: Node<'_>| {
        lexicon
            .expression_keywords
            .contains(&node_text(text, t).as_str())
    };
    let (keyword, next) = match last_token(node).filter(|t| keyword(*t)) {
        Some(last) => (last, token_after(node)?),
        None => (
            token_before(node).filter(|t| keyword(*t))?,
            first_token(node)?,
        ),
    };
    if next.start_position().row <= keyword.end_position().row || starts_expression(text, next) {
        return None;
    }
    Some(SyntaxError {
        position: node_start(text, next),
        message: format!(
            "unexpected '{}': an expression goes after '{}'",
            shortened(&node_text(text, next)),
            node_text(text, keyword)
        ),
    })
}

/// Whether a token may start an expression: not a closing bracket, a
/// `;`, `,`, `:` nor a statement's keyword (`else`, `case`, …).
fn starts_expression(text: &Rope, token: Node<'_>) -> bool {
    let t = node_text(text, token);
    !matches!(
        t.as_str(),
        "}" | ")" | "]" | ";" | "," | ":" | "else" | "case" | "default" | "catch" | "finally"
    )
}

/// Whether `token`, the last token of the ERROR node `node`, is a binary
/// operator (whose operand is still to come).
fn ends_with_operator(text: &Rope, node: Node<'_>, token: Node<'_>) -> bool {
    const BINARY: &[&str] = &[
        "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "&&", "||", "==", "!=", "<", "<=", ">",
        ">=", "&^",
    ];
    token.end_byte() == node.end_byte() && BINARY.contains(&node_text(text, token).as_str())
}

/// An error that starts a line after a token that cannot end a
/// statement: the statement before it lacks its `;`, which goes right
/// after that token (where rustc and javac report it).
fn statement_not_ended(text: &Rope, node: Node<'_>) -> Option<SyntaxError> {
    let first = first_token(node)?;
    let previous = token_before(node)?;
    let line_start = lines_start(text, first);
    if previous.end_position().row >= first.start_position().row || !line_start {
        return None;
    }
    if !ends_statement(&node_text(text, previous)) {
        return None;
    }
    Some(SyntaxError {
        position: byte_to_position(text, previous.end_byte()),
        message: format!(
            "missing ';' before '{}'",
            shortened(&node_text(text, first))
        ),
    })
}

/// Whether a statement whose last token is `token` may lack only its
/// `;` (not after `{`, `,`, `=`, … nor after its own `;`).
fn ends_statement(token: &str) -> bool {
    !matches!(token, ";" | "{" | "}" | "," | "(" | "[" | ":" | "=" | "=>")
}

/// An ERROR node that holds whole expressions only (`g()`, `"b"` of
/// `"a" +` then `"b"`) and ends its line, the next token on a later one:
/// the statement lacks its `;`, which goes right after the node (where
/// rustc and javac report it).
fn complete_before_line(text: &Rope, node: Node<'_>) -> Option<SyntaxError> {
    let mut c = node.walk();
    let whole = node
        .children(&mut c)
        .all(|n| n.is_extra() || (n.is_named() && !n.has_error()));
    let last = last_token(node)?;
    let next = token_after(node)?;
    if !whole
        || next.start_position().row <= last.end_position().row
        || !ends_statement(&node_text(text, last))
    {
        return None;
    }
    Some(SyntaxError {
        position: byte_to_position(text, last.end_byte()),
        message: format!("missing ';' before '{}'", shortened(&node_text(text, next))),
    })
}

/// Whether `node` stands in a list: the innermost bracket open before it
/// is a `(` or a `[`.
fn in_list(text: &Rope, node: Node<'_>, lexicon: &Lexicon) -> bool {
    let before = text.byte_slice(..node.start_byte()).to_string();
    let mut open = Vec::new();
    for (_, bracket) in brackets(&before, lexicon) {
        match bracket {
            '(' | '[' | '{' => open.push(bracket),
            _ => {
                open.pop();
            }
        }
    }
    matches!(open.last(), Some('(' | '['))
}

/// Whether `token` is the first thing on its line.
fn lines_start(text: &Rope, token: Node<'_>) -> bool {
    let at = node_start(text, token);
    crate::analysis::lines::text_of(text, at.line)
        .chars()
        .take(at.col)
        .all(char::is_whitespace)
}

/// The last token before `node` in the file, comments left out.
pub(super) fn token_before(node: Node<'_>) -> Option<Node<'_>> {
    let mut at = node;
    loop {
        let mut previous = at.prev_sibling();
        while let Some(p) = previous {
            // (an ERROR node is an extra too: its tokens count)
            if (!p.is_extra() || p.is_error()) && p.end_byte() > p.start_byte() {
                return Some(last_token(p).unwrap_or(p));
            }
            previous = p.prev_sibling();
        }
        at = at.parent()?;
    }
}

/// The last leaf with text, comments left out (`node` itself may be an
/// extra: an ERROR node).
fn last_token(node: Node<'_>) -> Option<Node<'_>> {
    let root = node;
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        if node.is_extra() && node != root {
            continue;
        }
        if node.child_count() == 0 {
            if node.end_byte() > node.start_byte() {
                return Some(node);
            }
            continue;
        }
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        stack.extend(children);
    }
    None
}

/// A token's text as an error shows it: its first line, at most 20
/// chars.
pub(super) fn shortened(token: &str) -> String {
    token
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .chars()
        .take(20)
        .collect()
}

/// The first token after `node` in the file.
pub(super) fn token_after(node: Node<'_>) -> Option<Node<'_>> {
    let mut at = node;
    loop {
        if let Some(next) = at.next_sibling() {
            return first_token(next).or(Some(next));
        }
        at = at.parent()?;
    }
}

/// An error no node shows (only `has_error` tells): at the start of the
/// deepest node that has one.
fn hidden_error(text: &Rope, root: Node<'_>) -> SyntaxError {
    let mut node = root;
    loop {
        let mut c = node.walk();
        let inner = node.children(&mut c).find(|n| n.has_error());
        match inner {
            Some(inner) => node = inner,
            None => {
                return SyntaxError {
                    position: node_start(text, node),
                    message: "invalid syntax".to_owned(),
                }
            }
        }
    }
}

/// The first unmatched closing bracket of a text of code, else its first
/// unclosed opening one: (byte offset, bracket, unclosed).
fn unbalanced_bracket(code: &str, lexicon: &Lexicon) -> Option<(usize, char, bool)> {
    let mut open: Vec<(usize, char)> = Vec::new();
    for (i, ch) in brackets(code, lexicon) {
        match ch {
            '(' | '[' | '{' => open.push((i, ch)),
            _ => match open.pop() {
                Some((_, o)) if o == opener(ch) => {}
                _ => return Some((i, ch, false)),
            },
        }
    }
    open.first().map(|&(i, ch)| (i, ch, true))
}

/// The opening bracket a closing one closes.
fn opener(closing: char) -> char {
    match closing {
        ')' => '(',
        ']' => '[',
        _ => '{',
    }
}

/// The brackets of a text of code, with their byte offsets, in order:
/// strings, characters and comments skipped.
fn brackets(code: &str, lexicon: &Lexicon) -> Vec<(usize, char)> {
    let mut out = Vec::new();
    let mut chars = code.char_indices().peekable();
    let mut previous = ' ';
    while let Some((i, ch)) = chars.next() {
        let after_word = previous.is_alphanumeric() || previous == '_';
        previous = ch;
        match ch {
            'r' | 'b' if lexicon.raw_strings && !after_word => {
                // Rust's raw strings: r"…", r#"…"#, br##"…"##
                let rest = &code[i..];
                let rest = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'));
                let Some(rest) = rest else { continue };
                let hashes = rest.len() - rest.trim_start_matches('#').len();
                if !rest[hashes..].starts_with('"') {
                    continue;
                }
                let body = i + (code[i..].len() - rest.len()) + hashes + 1;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = code[body..]
                    .find(&close)
                    .map_or(code.len(), |n| body + n + close.len());
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
                previous = '"';
            }
            '\'' if lexicon.char_quote => {
                // a character (`'a'`, `'\''`), else a lifetime: skip it
                let rest = &code[i + 1..];
                let len = if rest.starts_with('\\') {
                    rest.get(2..).and_then(|r| r.find('\'')).map(|n| n + 3)
                } else {
                    let mut cs = rest.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), Some('\'')) => Some(c.len_utf8() + 1),
                        _ => None,
                    }
                };
                if let Some(len) = len {
                    while chars.peek().is_some_and(|&(j, _)| j <= i + len) {
                        chars.next();
                    }
                }
            }
            q if lexicon.line_quotes.contains(&q) || lexicon.multiline_quotes.contains(&q) => {
                let multiline = lexicon.multiline_quotes.contains(&q);
                // to the closing quote (a line break ends a plain string)
                while let Some((_, c)) = chars.next() {
                    if c == '\\' {
                        chars.next();
                    } else if c == q || (c == '\n' && !multiline) {
                        break;
                    }
                }
            }
            '/' if chars.peek().is_some_and(|&(_, c)| c == '/') => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek().is_some_and(|&(_, c)| c == '*') => {
                chars.next();
                // to its `*/`; Rust's block comments nest
                let mut depth = 1;
                let mut last = ' ';
                for (_, c) in chars.by_ref() {
                    if last == '*' && c == '/' {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                        last = ' ';
                        continue;
                    }
                    if last == '/' && c == '*' && lexicon.nested_comments {
                        depth += 1;
                        last = ' ';
                        continue;
                    }
                    last = c;
                }
            }
            '(' | '[' | '{' | ')' | ']' | '}' => out.push((i, ch)),
            _ => {}
        }
    }
    out
}

/// The file's delimiters as Rust's lexer matches them before it parses,
/// and its first error, as rustc reports it: a closing delimiter that
/// does not match the innermost open one closes it — when it matches one
/// further out, that is a mismatched pair (reported at the opening one)
/// and the closing delimiter goes on to close the outer one; when it
/// matches none, rustc says nothing of the pair. Then a closing delimiter
/// nothing opened (at it); then a delimiter never closed (at the end of
/// the file). A mismatched pair comes first, then an unexpected closing
/// delimiter, then an unclosed one. None when they balance.
pub(super) fn delimiter_error(text: &Rope, lexicon: &Lexicon) -> Option<SyntaxError> {
    let code = text.to_string();
    let at = |byte: usize| from_char(text, text.byte_to_char(byte));
    let mut open: Vec<(usize, char)> = Vec::new();
    let mut mismatched: Option<SyntaxError> = None;
    let mut unexpected: Option<SyntaxError> = None;
    for (i, ch) in brackets(&code, lexicon) {
        if matches!(ch, '(' | '[' | '{') {
            open.push((i, ch));
            continue;
        }
        loop {
            match open.last().copied() {
                None => {
                    unexpected.get_or_insert(SyntaxError {
                        position: at(i),
                        message: format!("unexpected closing delimiter '{ch}'"),
                    });
                }
                Some((_, bracket)) if bracket == opener(ch) => {
                    open.pop();
                }
                Some((o, bracket)) => {
                    open.pop();
                    if open.iter().any(|&(_, b)| b == opener(ch)) {
                        mismatched.get_or_insert(SyntaxError {
                            position: at(o),
                            message: format!("'{bracket}' is closed by '{ch}' at {}", at(i)),
                        });
                        continue; // it closes the outer one
                    }
                }
            }
            break;
        }
    }
    mismatched.or(unexpected).or_else(|| {
        open.first().map(|&(o, bracket)| SyntaxError {
            position: end_of_file(text, lexicon),
            message: format!(
                "unexpected end of file: '{bracket}' opened at {} is not closed",
                at(o)
            ),
        })
    })
}

/// The first leaf with text, depth first.
fn first_token(node: Node<'_>) -> Option<Node<'_>> {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        if node.child_count() == 0 {
            if node.end_byte() > node.start_byte() {
                return Some(node);
            }
            continue;
        }
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    None
}

/// The names (nodes of one of `kinds`) that are reserved words of the
/// language, which its grammar takes where it expects a name and
/// the language's own parser never does (`int class = 1;`).
pub(super) fn keywords_as_names<'t>(
    text: &Rope,
    root: Node<'t>,
    kinds: &[&str],
    keywords: &[&str],
) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if kinds.contains(&node.kind()) && keywords.contains(&node_text(text, node).as_str()) {
            out.push(node);
        }
        let mut c = node.walk();
        stack.extend(node.named_children(&mut c));
    }
    out.sort_by_key(|n| n.start_byte());
    out
}
