//! Cyclomatic complexity of the functions of a brace language, counted as
//! lizard counts it (PyPI `lizard`, the multi-language tool Eddi's
//! figures are compared with, as Python's are with radon's): 1, plus one
//! per decision point in the function's own code — a branch, a loop, a
//! `catch`, a `case`, a short-circuit operator, a conditional expression,
//! a default value in a parameter or a destructuring pattern. A function
//! nested inside (a callback, an inner function) has its own figure and
//! adds nothing to the one around it.
//!
//! A language gives its [`DecisionPoints`]: which nodes are functions and
//! which are decision points.

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::outline::{display_name, Outline, Symbol, SymbolKind};
use crate::analysis::syntax::{byte_to_char, SyntaxTree};

/// What a language's complexity counts.
#[derive(Debug, Clone, Copy)]
pub struct DecisionPoints {
    /// Whether a node is a function (its body is counted on its own).
    pub is_function: fn(Node<'_>) -> bool,
    /// Whether a node is a decision point.
    pub is_decision: fn(Node<'_>) -> bool,
}

/// The complexity of the function `node`: 1 and its decision points, not
/// those of the functions inside it.
pub fn of_function(node: Node<'_>, points: &DecisionPoints) -> u32 {
    let mut count = 1;
    let mut stack: Vec<Node<'_>> = Vec::new();
    let mut walk = node.walk();
    stack.extend(node.children(&mut walk));
    while let Some(n) = stack.pop() {
        if (points.is_function)(n) {
            continue;
        }
        if (points.is_decision)(n) {
            count += 1;
        }
        let mut walk = n.walk();
        stack.extend(n.children(&mut walk));
    }
    count
}

/// The function node a symbol of the outline names: the first function
/// node within its definition (a `const f = () => …` binds the arrow).
pub fn function_node<'t>(
    text: &Rope,
    tree: &'t SyntaxTree,
    symbol: &Symbol,
    points: &DecisionPoints,
) -> Option<Node<'t>> {
    let start = text.char_to_byte(symbol.definition.start);
    let end = text.char_to_byte(symbol.definition.end);
    let mut node = tree.root().descendant_for_byte_range(start, end)?;
    // the smallest node holding the whole definition
    while node.start_byte() > start || node.end_byte() < end {
        node = node.parent()?;
    }
    let mut queue = std::collections::VecDeque::from([node]);
    while let Some(n) = queue.pop_front() {
        if (points.is_function)(n) && byte_to_char(text, n.start_byte()) >= symbol.definition.start
        {
            return Some(n);
        }
        let mut walk = n.walk();
        queue.extend(n.children(&mut walk));
    }
    None
}

/// The figures of a file (`subject: None`) or of one element: each
/// function and method in it with a name that addresses it (`C.x.getter`
/// where a getter and a setter share `C.x`) and its figure, in source
/// order, and the element's own figure when it is a function.
pub fn figures(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    subject: Option<&Symbol>,
    points: &DecisionPoints,
) -> (Option<u32>, Vec<(String, u32)>) {
    let inside = |s: &Symbol| match subject {
        None => true,
        Some(element) => {
            s.definition.start >= element.definition.start
                && s.definition.end <= element.definition.end
        }
    };
    let figure = |s: &Symbol| function_node(text, tree, s, points).map(|n| of_function(n, points));
    let blocks = outline
        .symbols
        .iter()
        .filter(|s| s.kind.is_callable() && s.kind != SymbolKind::Local && inside(s))
        .filter_map(|s| figure(s).map(|c| (display_name(outline, s), c)))
        .collect();
    let total = subject.filter(|s| s.kind.is_callable()).and_then(figure);
    (total, blocks)
}
