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
//! which are decision points. The tables of the languages are here, side
//! by side, as lizard's readers count them (`lizard_languages/*.py`):
//! [`JAVASCRIPT`] (and TypeScript), [`GO`], [`RUST`], [`JAVA`].

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

/// JavaScript and TypeScript: branches, loops, `catch`, `case`,
/// `&&`/`||`/`??` (and their assignments), `?:`, and a default in a
/// parameter or destructuring pattern; every function form is its own.
pub const JAVASCRIPT: DecisionPoints = DecisionPoints {
    is_function: |node| {
        matches!(
            node.kind(),
            "function_declaration"
                | "function_expression"
                | "function"
                | "arrow_function"
                | "method_definition"
                | "generator_function"
                | "generator_function_declaration"
        )
    },
    is_decision: |node| match node.kind() {
        "if_statement"
        | "for_statement"
        | "for_in_statement"
        | "while_statement"
        | "do_statement"
        | "catch_clause"
        | "switch_case"
        | "ternary_expression"
        | "assignment_pattern"
        | "object_assignment_pattern" => true,
        "binary_expression" | "augmented_assignment_expression" => {
            operator_in(node, &["&&", "||", "??", "&&=", "||=", "??="])
        }
        // TypeScript: a parameter with a default value
        "required_parameter" | "optional_parameter" => node.child_by_field_name("value").is_some(),
        _ => false,
    },
};

/// Go: `if`, `for`, each `case` of a switch, type switch or select,
/// `&&`/`||`; a function literal is its own function.
pub const GO: DecisionPoints = DecisionPoints {
    is_function: |node| {
        matches!(
            node.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        )
    },
    is_decision: |node| match node.kind() {
        "if_statement" | "for_statement" | "expression_case" | "type_case"
        | "communication_case" => true,
        "binary_expression" => operator_in(node, &["&&", "||"]),
        _ => false,
    },
};

/// Rust: `if` (`if let` too), `for`, `while`, each arm of a `match` after
/// the first, a `let … else`, the `?` operator, a `where` clause,
/// `&&`/`||`. A closure is not a function of its own (lizard reads it as
/// part of the function around it).
pub const RUST: DecisionPoints = DecisionPoints {
    is_function: |node| node.kind() == "function_item",
    is_decision: |node| match node.kind() {
        // lizard reads tokens: these words and operators count wherever
        // they are, in a macro's arguments too (`assert!(a && b)`)
        "if" | "for" | "while" | "&&" | "||" | "?" | "where" => node.child_count() == 0,
        // a closure without parameters is written `||`, which lizard
        // counts as the operator
        "closure_parameters" => node.named_child_count() == 0,
        // the arms after the first
        "match_arm" => node
            .prev_named_sibling()
            .is_some_and(|p| p.kind() == "match_arm"),
        "let_declaration" => node.child_by_field_name("alternative").is_some(),
        _ => false,
    },
};

/// Java: `if`, the loops, `catch`, each `case` (not `default`), `?:`,
/// `&&`/`||`; methods and constructors are the functions (a lambda is part
/// of the method around it, as lizard reads it).
pub const JAVA: DecisionPoints = DecisionPoints {
    is_function: |node| {
        matches!(
            node.kind(),
            "method_declaration" | "constructor_declaration" | "compact_constructor_declaration"
        )
    },
    is_decision: |node| match node.kind() {
        "if_statement"
        | "for_statement"
        | "enhanced_for_statement"
        | "while_statement"
        | "do_statement"
        | "catch_clause"
        | "ternary_expression" => true,
        "switch_label" => node.child(0).is_some_and(|t| t.kind() == "case"),
        "binary_expression" => operator_in(node, &["&&", "||"]),
        _ => false,
    },
};

/// Whether `node`'s operator is one of `operators`.
fn operator_in(node: Node<'_>, operators: &[&str]) -> bool {
    node.child_by_field_name("operator")
        .is_some_and(|op| operators.contains(&op.kind()))
}
