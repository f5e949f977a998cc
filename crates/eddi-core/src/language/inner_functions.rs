//! The functions of a brace-language file that have no name of their own:
//! callbacks (`items.map((x) => …)`), function literals (Go's `func() {
//! … }`), functions held by a key or a variable inside a function
//! (`{ writeOut: (s) => … }`). lizard lists each as a function of its own
//! and counts its conditions for it alone, not for the function around
//! it (`language::complexity`), so `Analyze … Complexity` lists them too;
//! without them a callback's conditions would be counted nowhere.
//!
//! Each is named by its place, not by a name code could use:
//! `<label@line:col>` under the element around it
//! (`Command.parse.<anonymous@12:8>`, `main.<handler@30:11>`), the label
//! the key, variable or property that holds it when one does, else
//! `anonymous`; the position is its first token's, zero-based. Show,
//! Goto and Analyze take that name back; an edit of such a function is
//! an edit of the code around it, so the element edits refuse it
//! ([`is_inner_name`]).

use ropey::Rope;
use tree_sitter::Node;

use std::ops::Range;

use super::complexity::{function_node, Counted, DecisionPoints};
use super::token_functions::{self, TokenFunction};
use crate::analysis::lines;
use crate::analysis::outline::{Outline, Symbol, SymbolKind};
use crate::analysis::syntax::{byte_to_char, SyntaxTree};
use crate::edit::position::from_char;
use crate::edit::LineRange;

/// Whether a code target's name names a function without a name of its
/// own: its last dotted part is `<label@line:col>`.
pub fn is_inner_name(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    last.starts_with('<') && last.ends_with('>') && last.contains('@')
}

/// Fills [`Outline::inner`]: every function node of the file that no
/// symbol of the outline is, in source order.
pub fn add_inner_functions(
    outline: &mut Outline,
    text: &Rope,
    tree: &SyntaxTree,
    points: &DecisionPoints,
) {
    outline.inner = inner_functions(text, tree, outline, points);
}

/// The functions of the file no symbol of `outline` is.
pub fn inner_functions(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    points: &DecisionPoints,
) -> Vec<Symbol> {
    let named: std::collections::HashSet<usize> = outline
        .symbols
        .iter()
        .filter(|s| s.kind.is_callable())
        .filter_map(|s| function_node(text, tree, s, points))
        .map(|n| n.id())
        .collect();
    let mut found = Vec::new();
    let mut cursor = tree.root().walk();
    let mut descend = true;
    loop {
        if descend {
            let node = cursor.node();
            // (named: JavaScript's `function` keyword is a token of the
            // kind an older grammar gave function expressions)
            if node.is_named() && (points.is_function)(node) && !named.contains(&node.id()) {
                found.push(inner_symbol(text, outline, node));
            }
            if cursor.goto_first_child() {
                continue;
            }
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        descend = false;
    }
    found.extend(
        functions_in_tokens(text, tree, points)
            .iter()
            .map(|f| token_function_symbol(text, outline, f)),
    );
    found.sort_by_key(|s| s.definition.start);
    found
}

/// The functions lizard reads in the file's macro tokens, for a language
/// whose reader finds them (Rust).
fn functions_in_tokens(
    text: &Rope,
    tree: &SyntaxTree,
    points: &DecisionPoints,
) -> Vec<TokenFunction> {
    match points.counted {
        Counted::Tokens(rules) if rules.functions_in_tokens => {
            token_functions::in_token_trees(&text.to_string(), tree.root())
        }
        _ => Vec::new(),
    }
}

/// The symbol of a function without a name of its own.
fn inner_symbol(text: &Rope, outline: &Outline, node: Node<'_>) -> Symbol {
    let label = label(text, node).unwrap_or_else(|| "anonymous".to_string());
    let body = node
        .child_by_field_name("body")
        .map(|b| byte_to_char(text, b.start_byte())..byte_to_char(text, b.end_byte()));
    let params = node
        .child_by_field_name("parameters")
        .or_else(|| node.child_by_field_name("parameter"))
        .map(|p| {
            let written = text.byte_slice(p.byte_range()).to_string();
            let inner = written.strip_prefix('(').and_then(|w| w.strip_suffix(')'));
            inner.map_or(written.clone(), str::to_string)
        });
    let chars = byte_to_char(text, node.start_byte())..byte_to_char(text, node.end_byte());
    placed_symbol(text, outline, &label, chars, body, params)
}

/// The symbol of a function lizard reads in a macro's tokens: named by
/// its place too (`<bits@43:16>`) — it is no element of the outline.
fn token_function_symbol(text: &Rope, outline: &Outline, function: &TokenFunction) -> Symbol {
    let label = text.byte_slice(function.name.clone()).to_string();
    let chars = byte_to_char(text, function.start)..byte_to_char(text, function.end);
    let body = byte_to_char(text, function.body)..chars.end;
    placed_symbol(text, outline, &label, chars, Some(body), None)
}

/// The symbol of a function named by its place, `<label@line:col>` under
/// the innermost element around it: `chars`, its text; `body`, its
/// body's (braces included).
fn placed_symbol(
    text: &Rope,
    outline: &Outline,
    label: &str,
    chars: Range<usize>,
    body: Option<Range<usize>>,
    params: Option<String>,
) -> Symbol {
    let position = from_char(text, chars.start);
    let name = format!("<{label}@{}:{}>", position.line, position.col);
    let (start, end) = (chars.start, chars.end.max(chars.start));
    // the innermost element around it
    let parent = outline
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.definition.start <= start && end <= s.definition.end)
        .min_by_key(|(_, s)| s.definition.end - s.definition.start)
        .map(|(i, _)| i);
    let qualified_name = match parent {
        Some(i) => format!("{}.{name}", outline.symbols[i].qualified_name),
        None => name.clone(),
    };
    let last_line = from_char(text, end.saturating_sub(1).max(start)).line;
    let body_lines = body.as_ref().map(|b| {
        LineRange::new(
            from_char(text, b.start).line,
            from_char(text, b.end.saturating_sub(1).max(b.start)).line,
        )
    });
    Symbol {
        kind: SymbolKind::Function,
        name,
        qualified_name,
        params,
        param_names: Vec::new(),
        is_async: false,
        decorators: Vec::new(),
        accessor: None,
        via_trait: None,
        position,
        name_position: position,
        indent: lines::indent_of(text, position.line),
        definition: start..end,
        full_lines: LineRange::new(position.line, last_line),
        full: lines::start(text, position.line)..lines::end_with_newline(text, last_line),
        body,
        body_lines,
        // just inside its closing brace; an expression body's end
        end: match end > start && text.char(end - 1) == '}' {
            true => from_char(text, end - 1),
            false => from_char(text, end),
        },
        parent,
    }
}

/// The name of what holds a function, when one does: the key of an
/// object's pair or method (`{ writeOut: (s) => … }`, `{ next() {} }`),
/// the variable it is declared to (`const fn = () => …`, Go's `f :=
/// func() {…}`), the last name of what it is assigned to
/// (`this._exit = (e) => …`), or its own name (`function named() {}`
/// as a value).
fn label(text: &Rope, node: Node<'_>) -> Option<String> {
    let text_of = |n: Node<'_>| text.byte_slice(n.byte_range()).to_string();
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let named = |n: Option<Node<'_>>| {
        n.map(|n| text_of(n).trim_matches(['"', '\'', '`']).to_string())
            .filter(|s| is_name(s))
    };
    if let Some(own) = named(node.child_by_field_name("name")) {
        return Some(own);
    }
    // through the expression it is a part of (`done = done || function
    // () {}`, `f = cond ? (a) => a : g`)
    let mut parent = node.parent()?;
    while matches!(
        parent.kind(),
        "binary_expression" | "ternary_expression" | "parenthesized_expression"
    ) {
        parent = parent.parent()?;
    }
    match parent.kind() {
        "pair" => named(parent.child_by_field_name("key")),
        "variable_declarator" => named(parent.child_by_field_name("name")),
        "assignment_expression" => {
            let left = parent.child_by_field_name("left")?;
            match left.kind() {
                "member_expression" => named(left.child_by_field_name("property")),
                _ => named(Some(left)),
            }
        }
        // Go: `f := func() {…}`, `var f = func() {…}`, one name
        "expression_list" => {
            let statement = parent.parent()?;
            let left = match statement.kind() {
                "short_var_declaration" | "assignment_statement" => {
                    statement.child_by_field_name("left")?
                }
                "var_spec" => statement.child_by_field_name("name")?,
                _ => return None,
            };
            if left.kind() == "expression_list" && left.named_child_count() != 1 {
                return None;
            }
            let name = match left.kind() {
                "expression_list" => left.named_child(0)?,
                _ => left,
            };
            let name = match name.kind() {
                "selector_expression" => name.child_by_field_name("field")?,
                _ => name,
            };
            named(Some(name))
        }
        _ => None,
    }
}
