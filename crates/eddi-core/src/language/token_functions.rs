//! The functions lizard's Rust reader finds in a macro's tokens. lizard
//! reads tokens, not a syntax tree: a `fn` in the body of a
//! `macro_rules!` (bitflags' `fn bits(&self) -> $T { … }`), in an item
//! macro's tokens (`proptest! { fn pt(…) { … } }`) or in a macro's
//! arguments inside a function (`quote! { fn f() { … } }`) is a function
//! to lizard, listed with its own figure, though the tree holds no
//! function there (a macro's tokens are a `token_tree`). Eddi lists them
//! as lizard does: [`crate::language::inner_functions`] names them,
//! [`crate::language::complexity`] counts them.
//!
//! lizard's function (`GoLikeStates` with `fn`): `fn`, a name (none when
//! `(` follows), type parameters `<…>`, the parameters `(…)`, anything
//! up to the next `{` (another `fn` there is no function: a declaration
//! without a body takes the next block), and that block. A name followed
//! by anything else (`fn $name(`: `$` is its own token) is no function.
//! Without a name (`fn(u8) -> u8`, a type) it is one only inside another
//! function: at module level lizard reads the parentheses as a name.
//!
//! So a declaration without a body (`fn bits(&self) -> Self::Bits;` in a
//! trait, a function of an `extern` block) is a function to lizard too:
//! its body is the next block — the next method's, whose `fn` lizard
//! reads as no function, or the next item's ([`declarations`]).

use std::ops::Range;

use tree_sitter::Node;

use crate::language::lizard_tokens::{self, Dialect, Token};

/// A function lizard reads in a macro's tokens, as byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenFunction {
    /// Its name's bytes.
    pub name: Range<usize>,
    /// Its `fn`.
    pub start: usize,
    /// Its body's opening brace.
    pub body: usize,
    /// Just past its body's closing brace (the file's end when unclosed).
    pub end: usize,
}

impl TokenFunction {
    /// lizard's named function starting at token `i` (a `fn`).
    pub fn at(tokens: &[Token], source: &str, i: usize) -> Option<TokenFunction> {
        let name = tokens.get(i + 1).filter(|t| t.text(source) != "(")?;
        let (brace, end) = function_at(tokens, source, i)?;
        // a body never closed: lizard never ends the function, nor lists it
        if brace >= tokens.len() || tokens[end - 1].text(source) != "}" {
            return None;
        }
        Some(TokenFunction {
            name: name.start..name.end,
            start: tokens[i].start,
            body: tokens.get(brace).map_or(source.len(), |t| t.start),
            end: tokens.get(end - 1).map_or(source.len(), |t| t.end),
        })
    }
}

/// lizard's function starting at token `i` (a `fn`): the index of its
/// body's opening brace and the index just past the closing one, or
/// `None` when what follows the `fn` is no function to lizard.
pub(crate) fn function_at(tokens: &[Token], source: &str, i: usize) -> Option<(usize, usize)> {
    let text = |j: usize| tokens.get(j).map_or("", |t| t.text(source));
    if text(i) != "fn" {
        return None;
    }
    let mut j = i + 1;
    if text(j) != "(" {
        j += 1; // the name
    }
    if text(j) == "<" {
        j = past_brackets(tokens, source, j, "<", ">");
    }
    if text(j) != "(" {
        return None;
    }
    j = past_brackets(tokens, source, j, "(", ")");
    while j < tokens.len() && text(j) != "{" {
        j += 1;
    }
    Some((j, past_brackets(tokens, source, j, "{", "}")))
}

/// The index after the bracket that closes the one opening at `from`.
pub(crate) fn past_brackets(
    tokens: &[Token],
    source: &str,
    from: usize,
    open: &str,
    close: &str,
) -> usize {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(from) {
        let text = token.text(source);
        if text == open {
            depth += 1;
        } else if text == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return i + 1;
            }
        }
    }
    tokens.len()
}

/// The named functions lizard reads in the macros' tokens of a file
/// (`root`: its tree's root), in source order, those inside another
/// one's body too. The file is read as lizard's tokens only when a
/// macro's tokens spell `fn`.
pub fn in_token_trees(source: &str, root: Node<'_>) -> Vec<TokenFunction> {
    let trees: Vec<(Range<usize>, bool)> = outermost_token_trees(root)
        .into_iter()
        .filter(|(range, _)| source.get(range.clone()).is_some_and(|t| t.contains("fn")))
        .collect();
    if trees.is_empty() {
        return Vec::new();
    }
    let tokens = lizard_tokens::tokens(source, Dialect::Rust);
    let mut found = Vec::new();
    for (range, in_function) in trees {
        scan(source, &tokens, range, in_function, &mut found);
    }
    found
}

/// The functions lizard reads among the tokens of one token tree (byte
/// `range`); `in_function`: whether the tree is in a function's body,
/// where a `fn` without a name is a function too.
fn scan(
    source: &str,
    tokens: &[Token],
    range: Range<usize>,
    in_function: bool,
    found: &mut Vec<TokenFunction>,
) {
    let text = |j: usize| tokens.get(j).map_or("", |t: &Token| t.text(source));
    // the ends (token indexes) of the functions whose bodies hold `i`
    let mut open: Vec<usize> = Vec::new();
    let mut i = tokens.partition_point(|t| t.start < range.start);
    while i < tokens.len() && tokens[i].start < range.end {
        open.retain(|&end| end > i);
        let named = text(i + 1) != "(";
        if named || in_function || !open.is_empty() {
            if let Some((brace, end)) = function_at(tokens, source, i) {
                found.extend(TokenFunction::at(tokens, source, i));
                open.push(end);
                // a `fn` between its parameters and its body is no
                // function; one in its body is
                i = brace + 1;
                continue;
            }
        }
        i += 1;
    }
}

/// The byte ranges of the token trees of `root` that no other token tree
/// holds, each with whether it is inside a function's body.
fn outermost_token_trees(root: Node<'_>) -> Vec<(Range<usize>, bool)> {
    let mut trees = Vec::new();
    let mut stack = vec![(root, false)];
    while let Some((node, in_function)) = stack.pop() {
        if node.kind() == "token_tree" {
            trees.push((node.byte_range(), in_function));
            continue;
        }
        let in_function = in_function || node.kind() == "function_item";
        let mut walk = node.walk();
        stack.extend(node.children(&mut walk).map(|child| (child, in_function)));
    }
    trees.sort_by_key(|(range, _)| range.start);
    trees
}

/// Whether byte `at` of the file lies in a macro's tokens.
pub fn in_token_tree(root: Node<'_>, at: usize) -> bool {
    let mut node = root.descendant_for_byte_range(at, at);
    while let Some(n) = node {
        if n.kind() == "token_tree" {
            return true;
        }
        node = n.parent();
    }
    false
}

/// A declaration without a body as lizard reads it: a function from its
/// `fn` through the next block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// Its `fn`'s byte.
    pub start: usize,
    /// The bytes between its parameters and that block, where a `fn` is
    /// no function to lizard (the next method's is part of this one).
    pub swallowed: Range<usize>,
}

/// The declarations without a body of a file's tree (`root`), in source
/// order, read over lizard's `tokens` of `source`: those a declaration
/// before takes in are not lizard's functions, and are left out.
pub fn declarations(source: &str, tokens: &[Token], root: Node<'_>) -> Vec<Declaration> {
    let mut found: Vec<Declaration> = Vec::new();
    for node in signature_items(root) {
        let i = tokens.partition_point(|t| t.start < node.start_byte());
        let Some(fn_at) = (i..tokens.len())
            .take_while(|&j| tokens[j].start < node.end_byte())
            .find(|&j| tokens[j].text(source) == "fn")
        else {
            continue;
        };
        let start = tokens[fn_at].start;
        if found.iter().any(|d| d.swallowed.contains(&start)) {
            continue;
        }
        let Some(function) = TokenFunction::at(tokens, source, fn_at) else {
            continue;
        };
        found.push(Declaration {
            start,
            swallowed: tokens[fn_at + 1].end..function.body,
        });
    }
    found
}

/// The `function_signature_item`s of a tree, in source order.
fn signature_items(root: Node<'_>) -> Vec<Node<'_>> {
    let mut items = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "function_signature_item" {
            items.push(node);
            continue;
        }
        let mut walk = node.walk();
        stack.extend(node.children(&mut walk));
    }
    items.sort_by_key(|n| n.start_byte());
    items
}
