//! Go behind the language seam: its outline, a syntax check and code
//! targets, read from its outline query (`queries/go/outline.scm`) by the
//! brace languages' reader ([`super::braces`]). Functions; methods by
//! their receiver type (`Method Stack.Push`, also where the type is
//! declared in another file of the package); structs, interfaces and the
//! other named types and aliases as classes, a struct's fields and an
//! interface's methods as their members; package-level variables and
//! constants. The code edits, the code analyses, the project index and
//! the refactors are Python's alone for now: the commands that need them
//! say that Go is not supported yet.

use std::sync::OnceLock;

use ropey::Rope;
use tree_sitter::{Node, Query};

use super::braces::{self, field_children, parameter_list, Braces, Owner, Parameters};
use super::parse_errors::{parse_errors, EndOfFile, Lexicon};
use super::{Language, Outline, SymbolSites, SyntaxCheck};
use crate::analysis::outline as symbols;
use crate::analysis::syntax::node_text;
use crate::analysis::validate::SyntaxError;
use crate::analysis::SyntaxTree;
use crate::edit::Position;

/// The Go language.
#[derive(Debug, Clone, Copy)]
pub struct Go;

impl Language for Go {
    fn id(&self) -> &'static str {
        "go"
    }

    fn name(&self) -> &'static str {
        "Go"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["go"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_go::LANGUAGE.into()
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        braces::read(&BRACES, text, tree).outline()
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(syntax_errors)
    }

    fn symbol_sites(&self) -> Option<SymbolSites> {
        Some(sites)
    }
}

/// Where Go keeps the parts of its elements.
const BRACES: Braces = Braces {
    query,
    comments: &["comment"],
    annotations: &[],
    modifiers: &[],
    groups: &["type_declaration", "var_declaration", "const_declaration"],
    body,
    parameters,
    owner: receiver_type,
    is_async: |_| false,
};

/// What a bracket scan skips in Go: `"` strings and `'` runes, raw
/// strings in backquotes (which may span lines), comments; gofmt reports
/// the end of the file on its last line.
const LEXICON: Lexicon = Lexicon {
    line_quotes: &['"', '\''],
    multiline_quotes: &['`'],
    char_quote: false,
    raw_strings: false,
    nested_comments: false,
    semicolon_before_line: false,
    accepts: None,
    end: EndOfFile::LastLine,
};

/// A Go file's symbols as code targets name them.
fn sites(text: &Rope, tree: &SyntaxTree) -> symbols::Outline {
    braces::read(&BRACES, text, tree).symbols
}

/// Go's outline query, compiled once.
fn query() -> &'static Query {
    static QUERY: OnceLock<Query> = OnceLock::new();
    QUERY.get_or_init(|| {
        Query::new(&Go.grammar(), include_str!("../../queries/go/outline.scm"))
            .expect("the Go outline query matches the Go grammar")
    })
}

/// The braces that end an element: a function's block, a struct's field
/// list, an interface's own.
fn body(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "function_declaration" | "method_declaration" => node.child_by_field_name("body"),
        "type_spec" => {
            let ty = node.child_by_field_name("type")?;
            match ty.kind() {
                "struct_type" => ty.named_child(0),
                "interface_type" => Some(ty),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A function's or method's parameters: `a, b int, rest ...string` binds
/// `a`, `b`, `rest`.
fn parameters(text: &Rope, callable: Node<'_>) -> Parameters {
    parameter_list(text, callable.child_by_field_name("parameters"), |p| {
        field_children(p, "name")
    })
}

/// The type a method's receiver names: `Stack` for `(s *Stack[T])`.
fn receiver_type(text: &Rope, method: Node<'_>) -> Option<Owner> {
    let receiver = method.child_by_field_name("receiver")?;
    let mut c = receiver.walk();
    let parameter = receiver
        .named_children(&mut c)
        .find(|n| n.kind() == "parameter_declaration")?;
    let mut ty = parameter.child_by_field_name("type")?;
    loop {
        ty = match ty.kind() {
            "pointer_type" | "parenthesized_type" => ty.named_child(0)?,
            "generic_type" => ty.child_by_field_name("type")?,
            "type_identifier" => break,
            _ => return None,
        };
    }
    Some(Owner {
        type_name: node_text(text, ty),
        via_trait: None,
    })
}

/// The syntax errors of a Go file, in source order: tree-sitter's parse
/// errors, each with what is wrong, and a line break that ends a
/// statement inside a list (`gofmt -e` agrees on the line in the common
/// cases: the tests compare them where Go is installed).
fn syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let mut errors = parse_errors(text, tree.root(), &LEXICON);
    if let Some((position, closing)) = newline_in_list(&text.to_string()) {
        errors.push(SyntaxError {
            position,
            message: format!("missing ',' before newline (the list still waits for '{closing}')"),
        });
        errors.sort_by_key(|e| e.position);
    }
    errors
}

/// Go's keywords after which a line break inserts a `;`.
const ENDING_KEYWORDS: &[&str] = &["break", "continue", "fallthrough", "return"];

/// Go's other keywords.
const KEYWORDS: &[&str] = &[
    "case",
    "chan",
    "const",
    "default",
    "defer",
    "else",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// Where a line break ends a statement inside parentheses or brackets.
/// Go inserts a `;` after a line's last token when it is a name, a
/// literal, `break`/`continue`/`fallthrough`/`return`, `++`, `--` or a
/// closing `)`, `]`, `}` — an error inside a call's arguments, a
/// parameter list or an index (`f(a,\n b\n)` needs a comma after `b`).
/// A declaration group (`var (…)`, `import (…)`) and braces (blocks,
/// function literals) take line breaks. The position just after that
/// last token, and the bracket the list waits for.
fn newline_in_list(code: &str) -> Option<(Position, char)> {
    // the open brackets: (bracket, whether it holds a list)
    let mut open: Vec<(char, bool)> = Vec::new();
    // the last token: whether a line break after it inserts a `;`, where
    // it ends, and the word it is
    let mut inserts = false;
    let mut end = Position::new(0, 0);
    let mut word = String::new();
    let chars: Vec<char> = code.chars().collect();
    let (mut i, mut line, mut col) = (0, 0, 0);
    // a line break: an error when it ends a statement in a list
    let broken = |open: &[(char, bool)], inserts: bool| match open.last() {
        Some(&(bracket, true)) if inserts => Some(if bracket == '(' { ')' } else { ']' }),
        _ => None,
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let mut token = None; // (inserts, length)
        match c {
            '\n' => {
                if let Some(closing) = broken(&open, inserts) {
                    return Some((end, closing));
                }
                inserts = false;
                (i, line, col) = (i + 1, line + 1, 0);
                continue;
            }
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    (i, col) = (i + 1, col + 1);
                }
                continue;
            }
            '/' if next == Some('*') => {
                // a comment across lines is a line break
                let mut across = false;
                (i, col) = (i + 2, col + 2);
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    if chars[i] == '\n' {
                        across = true;
                        (line, col) = (line + 1, 0);
                    } else {
                        col += 1;
                    }
                    i += 1;
                }
                (i, col) = (i + 2, col + 2);
                if across {
                    if let Some(closing) = broken(&open, inserts) {
                        return Some((end, closing));
                    }
                    inserts = false;
                }
                continue;
            }
            '"' | '\'' | '`' => {
                // a literal, to its closing quote (a raw string may span lines)
                (i, col) = (i + 1, col + 1);
                while i < chars.len() && chars[i] != c {
                    if chars[i] == '\\' && c != '`' {
                        (i, col) = (i + 1, col + 1);
                    }
                    match chars.get(i) {
                        Some('\n') if c != '`' => return None, // the parser's error
                        Some('\n') => (line, col) = (line + 1, 0),
                        _ => col += 1,
                    }
                    i += 1;
                }
                (i, col) = (i + 1, col + 1);
                inserts = true;
                end = Position::new(line, col);
                word.clear();
                continue;
            }
            c if c.is_alphanumeric() || c == '_' => {
                // a name, a keyword or a number (`3.14`: a name's `.`
                // selects, a number's is its own)
                let start = i;
                let number = c.is_ascii_digit();
                while i < chars.len()
                    && (chars[i].is_alphanumeric()
                        || chars[i] == '_'
                        || (number && chars[i] == '.'))
                {
                    i += 1;
                }
                word = chars[start..i].iter().collect();
                col += i - start;
                inserts =
                    ENDING_KEYWORDS.contains(&word.as_str()) || !KEYWORDS.contains(&word.as_str());
                end = Position::new(line, col);
                continue;
            }
            '(' => {
                // a declaration group takes line breaks
                let group = matches!(word.as_str(), "var" | "const" | "import" | "type");
                open.push(('(', !group));
                token = Some((false, 1));
            }
            '[' => {
                open.push(('[', true));
                token = Some((false, 1));
            }
            '{' => {
                open.push(('{', false));
                token = Some((false, 1));
            }
            ')' | ']' | '}' => {
                open.pop();
                token = Some((true, 1));
            }
            '+' | '-' if next == Some(c) => token = Some((true, 2)),
            c if c.is_whitespace() => {}
            _ => token = Some((false, 1)),
        }
        match token {
            Some((inserting, length)) => {
                inserts = inserting;
                word.clear();
                (i, col) = (i + length, col + length);
                end = Position::new(line, col);
            }
            None => (i, col) = (i + 1, col + 1),
        }
    }
    None
}
