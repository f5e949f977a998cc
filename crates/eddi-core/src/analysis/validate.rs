//! Syntax errors: tree-sitter's ERROR and MISSING nodes ([`parse_errors`])
//! plus the compile-time errors CPython raises on code its grammar accepts
//! ([`super::compile_checks`]); [`syntax_errors`] is both.
//!
//! Each error has the position where it starts and a short description:
//! `missing ':'` for a MISSING token (named MISSING nodes: `missing
//! identifier`), `unexpected 'x'` for an ERROR node (its first token,
//! shortened to 20 chars), `unexpected end of file` for an ERROR at the
//! end. Nested ERROR nodes are reported once (the outermost), MISSING nodes
//! inside them too. Tree-sitter's recovery decides where an error is seen:
//! this is not CPython's message, only its place and a hint.

use ropey::Rope;
use tree_sitter::Node;

use super::syntax::{node_start, node_text, SyntaxTree};
use crate::edit::Position;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub position: Position,
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.position, self.message)
    }
}

/// All syntax errors CPython would raise (as far as Eddi knows them), in
/// source order.
pub fn syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let mut out = parse_errors(text, tree);
    out.extend(super::compile_checks::compile_errors(text, tree));
    out.sort_by_key(|e| e.position);
    out.dedup();
    out
}

/// The errors of tree-sitter's parse: ERROR and MISSING nodes.
pub fn parse_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    let root = tree.root();
    if root.has_error() {
        collect(text, root, &mut out);
        if out.is_empty() {
            out.push(hidden_error(text, root));
        }
    }
    out.sort_by_key(|e| e.position);
    out.dedup();
    out
}

/// Depth first; an explicit stack rather than recursion, so that a
/// pathologically nested file cannot overflow the thread's stack. Each
/// entry says whether it lies inside a reported ERROR node, where only
/// MISSING nodes are still worth reporting.
fn collect(text: &Rope, root: Node<'_>, out: &mut Vec<SyntaxError>) {
    let mut stack = vec![(root, false)];
    while let Some((node, in_error)) = stack.pop() {
        if node.is_missing() {
            let what = if node.is_named() {
                node.kind().to_string()
            } else {
                format!("'{}'", node.kind())
            };
            out.push(SyntaxError {
                position: node_start(text, node),
                message: format!("missing {what}"),
            });
            continue;
        }
        if !in_error {
            if node.is_error() {
                out.push(describe_error(text, node));
            } else if !node.has_error() {
                continue;
            }
        }
        let in_error = in_error || node.is_error();
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        stack.extend(children.into_iter().rev().map(|child| (child, in_error)));
    }
}

const BLOCK_KEYWORDS: &[&str] = &[
    "def", "class", "if", "elif", "else", "for", "while", "with", "try", "except", "finally",
    "async", "match", "case",
];

/// Describes an ERROR node: a block header without its colon, an unclosed or
/// unmatched bracket, else the token tree-sitter could not place.
fn describe_error(text: &Rope, node: Node<'_>) -> SyntaxError {
    let start = super::syntax::byte_to_char(text, node.start_byte());
    let body = node_text(text, node);
    let first_word: String = body
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let brackets = scan_brackets(&body);
    if BLOCK_KEYWORDS.contains(&first_word.as_str()) {
        // the header's logical line: up to the first newline outside brackets
        if let Some(end) = header_end(&body) {
            let header = body[..end].trim_end();
            if !header.ends_with(':') && brackets.is_none() {
                let at = start + header.chars().count();
                return SyntaxError {
                    position: crate::edit::position::from_char(text, at),
                    message: "missing ':'".into(),
                };
            }
        }
    }
    if let Some((offset, ch, unclosed)) = brackets {
        let at = start + body[..offset].chars().count();
        return SyntaxError {
            position: crate::edit::position::from_char(text, at),
            message: if unclosed {
                format!("unclosed '{ch}'")
            } else {
                format!("unexpected '{ch}'")
            },
        };
    }
    let mut c = node.walk();
    let direct: Vec<Node<'_>> = node.children(&mut c).collect();
    let token = direct
        .iter()
        .rev()
        .find(|n| !n.is_named() && n.end_byte() > n.start_byte())
        .copied()
        .or_else(|| first_token(node));
    // a block header tree-sitter could not read (`for f() in x:`): the
    // fault is in the header, not in the body token recovery stopped at
    if BLOCK_KEYWORDS.contains(&first_word.as_str()) {
        let header_line = node.start_position().row;
        if token.is_some_and(|t| t.start_position().row > header_line) {
            return SyntaxError {
                position: node_start(text, node),
                message: format!("invalid '{first_word}' statement"),
            };
        }
    }
    match token {
        Some(tok) => {
            let t = node_text(text, tok);
            let t = t.lines().next().unwrap_or("").trim();
            let short: String = t.chars().take(20).collect();
            SyntaxError {
                position: node_start(text, tok),
                message: if short.is_empty() {
                    "unexpected token".to_string()
                } else {
                    format!("unexpected '{short}'")
                },
            }
        }
        None => SyntaxError {
            position: node_start(text, node),
            message: "unexpected end of file".to_string(),
        },
    }
}

/// An error no node shows: tree-sitter hides a MISSING token of a hidden
/// rule (the newline between two statements, as in `1abc`), and only
/// `has_error` tells. It is in the deepest node that has an error: between
/// two of its statements on one line, else at its start.
fn hidden_error(text: &Rope, root: Node<'_>) -> SyntaxError {
    let mut node = root;
    loop {
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        if let Some(child) = children.iter().find(|n| n.has_error()) {
            node = *child;
            continue;
        }
        let statement = |n: &Node<'_>| {
            n.kind().ends_with("_statement")
                || matches!(
                    n.kind(),
                    "function_definition" | "class_definition" | "decorated_definition"
                )
        };
        for pair in children.windows(2) {
            if statement(&pair[0])
                && statement(&pair[1])
                && pair[0].end_position().row == pair[1].start_position().row
            {
                return SyntaxError {
                    position: node_start(text, pair[1]),
                    message: "missing newline or ';' before this statement".into(),
                };
            }
        }
        return SyntaxError {
            position: node_start(text, node),
            message: "invalid syntax".into(),
        };
    }
}

/// Byte offset of the end of the first logical line (outside brackets).
fn header_end(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '#' if depth <= 0 => return Some(i),
            '\n' if depth <= 0 => return Some(i),
            _ => {}
        }
    }
    Some(s.len())
}

/// The first unmatched closer, or else the first unclosed opener:
/// (byte offset, bracket, unclosed). Strings and comments are skipped.
fn scan_brackets(s: &str) -> Option<(usize, char, bool)> {
    let mut stack: Vec<(usize, char)> = Vec::new();
    let mut quote: Option<char> = None;
    let mut chars = s.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        if let Some(q) = quote {
            if ch == '\\' {
                chars.next();
            } else if ch == q || ch == '\n' {
                quote = None;
            }
            continue;
        }
        match ch {
            '\'' | '"' => quote = Some(ch),
            '#' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' | '[' | '{' => stack.push((i, ch)),
            ')' | ']' | '}' => {
                let open = match ch {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match stack.pop() {
                    Some((_, o)) if o == open => {}
                    _ => return Some((i, ch, false)),
                }
            }
            _ => {}
        }
    }
    stack.first().map(|(i, ch)| (*i, *ch, true))
}

/// The first leaf with text, depth first (an explicit stack: see `collect`).
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

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(src: &str) -> Vec<String> {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        syntax_errors(&text, &tree)
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn missing_and_unexpected() {
        assert_eq!(errors("def f()\n    return 1\n"), ["0:7 missing ':'"]);
        assert_eq!(errors("x = 1\n"), Vec::<String>::new());
        assert_eq!(errors("x = = 2\n"), ["0:4 unexpected '='"]);
        assert_eq!(errors("if x\n    pass\n"), ["0:4 missing ':'"]);
        assert_eq!(errors("foo(1, 2\nbar = 3\n"), ["0:3 unclosed '('"]);
        assert_eq!(
            errors("class A:\n    def m(self:\n        pass\n"),
            ["1:9 unclosed '('"]
        );
        assert_eq!(errors("s = 'ä'; y = )\n"), ["0:13 unexpected ')'"]);
        // a hidden MISSING newline: only has_error() tells
        let text = Rope::from_str("class A:\n    pass\n\n\n1syntax_error  # NOQA\n");
        let tree = SyntaxTree::parse(&text).unwrap();
        assert_eq!(
            parse_errors(&text, &tree)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["4:1 missing newline or ';' before this statement"]
        );
    }
}
