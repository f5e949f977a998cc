//! What inlining needs to know about Python expressions: how tightly an
//! expression binds (so that a value placed in a new context gets the
//! parentheses its meaning needs, and no others), what evaluating it may do
//! (call something, create a fresh object, read mutable state), and whether
//! a place in a statement is reached exactly once and before anything else
//! with effects runs.

use tree_sitter::Node;

use crate::analysis::nodes::is_name_chain;

/// Binding strength, weakest first (the Python grammar's precedence table;
/// an unparenthesised tuple and a walrus are weaker than everything).
pub(super) const TUPLE: u8 = 0;
pub(super) const WALRUS: u8 = 1;
pub(super) const LAMBDA: u8 = 2;
pub(super) const CONDITIONAL: u8 = 3;
pub(super) const OR: u8 = 4;
pub(super) const AND: u8 = 5;
pub(super) const NOT: u8 = 6;
pub(super) const BIT_OR: u8 = 8;
pub(super) const UNARY: u8 = 14;
pub(super) const POWER: u8 = 15;
pub(super) const AWAIT: u8 = 16;
pub(super) const PRIMARY: u8 = 17;

/// How tightly `node` (an expression) binds.
pub(super) fn precedence(node: Node<'_>, src: &[u8]) -> u8 {
    match node.kind() {
        "expression_list" | "yield" | "list_splat" | "dictionary_splat" => TUPLE,
        "named_expression" => WALRUS,
        "lambda" => LAMBDA,
        "conditional_expression" => CONDITIONAL,
        "boolean_operator" => match operator(node, src).as_str() {
            "or" => OR,
            _ => AND,
        },
        "not_operator" => NOT,
        "comparison_operator" => 7,
        "binary_operator" => binary(&operator(node, src)),
        "unary_operator" => UNARY,
        "await" => AWAIT,
        _ => PRIMARY,
    }
}

fn binary(op: &str) -> u8 {
    match op {
        "|" => BIT_OR,
        "^" => 9,
        "&" => 10,
        "<<" | ">>" => 11,
        "+" | "-" => 12,
        "**" => POWER,
        _ => 13, // * @ / // %
    }
}

fn operator(node: Node<'_>, src: &[u8]) -> String {
    node.child_by_field_name("operator")
        .and_then(|o| o.utf8_text(src).ok())
        .unwrap_or_default()
        .to_string()
}

/// The field of `parent` that holds `child`.
pub(super) fn field_of<'t>(parent: Node<'t>, child: Node<'t>) -> Option<&'static str> {
    let mut c = parent.walk();
    if !c.goto_first_child() {
        return None;
    }
    loop {
        if c.node() == child {
            return c.field_name();
        }
        if !c.goto_next_sibling() {
            return None;
        }
    }
}

/// The position of `child` among the named children of `parent`.
fn named_index(parent: Node<'_>, child: Node<'_>) -> Option<usize> {
    let mut c = parent.walk();
    let found = parent.named_children(&mut c).position(|n| n == child);
    found
}

/// True when an expression of precedence `value` (of node kind
/// `value_kind`) needs parentheses to take the place of `site` and keep
/// its meaning; `src` is the text `site` was parsed from.
pub(super) fn needs_parens(value: u8, value_kind: &str, site: Node<'_>, src: &[u8]) -> bool {
    let Some(parent) = site.parent() else {
        return false;
    };
    if parent.kind() == "parenthesized_expression" {
        return false;
    }
    // A walrus stands unparenthesised only where nothing else could be meant.
    if value == WALRUS {
        return true;
    }
    let field = field_of(parent, site);
    let needed = match parent.kind() {
        "binary_operator" => {
            let op = operator(parent, src);
            let p = binary(&op);
            match (field, op.as_str()) {
                // `**` groups to the right and binds less than a unary on its right
                (Some("left"), "**") => AWAIT,
                (Some("left"), _) => p,
                (_, "**") => UNARY,
                _ => p + 1,
            }
        }
        // `a or (b or c)` is `a or b or c`: the same on both sides
        "boolean_operator" => precedence(parent, src),
        "not_operator" => NOT,
        "unary_operator" => UNARY,
        // comparisons chain: an operand that is one needs parentheses
        "comparison_operator" => BIT_OR,
        "conditional_expression" => match named_index(parent, site) {
            Some(2) => LAMBDA,
            _ => OR,
        },
        "attribute" | "call" | "subscript" if field != Some("subscript") => {
            // `1.real` is a float literal's syntax error: `(1).real`
            if value_kind == "integer" && parent.kind() == "attribute" {
                return true;
            }
            PRIMARY
        }
        "await" => PRIMARY,
        "subscript" => TUPLE,
        "argument_list"
        | "keyword_argument"
        | "list"
        | "set"
        | "tuple"
        | "pair"
        | "expression_list"
        | "default_parameter"
        | "typed_default_parameter"
        | "assert_statement" => LAMBDA,
        "assignment" | "augmented_assignment" | "return_statement" | "expression_statement" => {
            TUPLE
        }
        "lambda" => LAMBDA,
        "list_splat" | "dictionary_splat" => BIT_OR,
        "for_in_clause" | "if_clause" => OR,
        // an f-string's `{…}`: `:` would start the format spec
        "interpolation" => CONDITIONAL,
        _ => CONDITIONAL,
    };
    value < needed
}

/// What evaluating an expression may do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Effects {
    /// Calls something, awaits, yields or binds a name (`:=`): moving or
    /// repeating it changes what the program does.
    pub acts: bool,
    /// Creates a fresh object (a display, a comprehension, a lambda): two
    /// evaluations give two objects.
    pub creates: bool,
    /// Reads attributes or items: the state it reads may change meanwhile.
    pub reads_state: bool,
}

impl Effects {
    /// Evaluating it twice gives the same value and does nothing else
    /// (as long as what it reads does not change).
    pub fn repeatable(self) -> bool {
        !self.acts && !self.creates
    }
}

/// The effects of evaluating `node` (its nested lambdas' bodies included:
/// conservative).
pub(super) fn effects(node: Node<'_>) -> Effects {
    let mut out = Effects::default();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "call" | "await" | "yield" | "named_expression" => out.acts = true,
            "list"
            | "dictionary"
            | "set"
            | "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression"
            | "lambda" => out.creates = true,
            "attribute" | "subscript" => out.reads_state = true,
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// A plain name or a literal: an argument that may be written several
/// times in place of one evaluation.
pub(super) fn is_atomic(node: Node<'_>) -> bool {
    match node.kind() {
        "identifier" | "integer" | "float" | "true" | "false" | "none" | "ellipsis" => true,
        "string" => {
            let mut c = node.walk();
            let plain = !node
                .named_children(&mut c)
                .any(|n| n.kind() == "interpolation");
            plain
        }
        "unary_operator" => node
            .child_by_field_name("argument")
            .is_some_and(|a| matches!(a.kind(), "integer" | "float")),
        _ => false,
    }
}

/// A literal that is the same value however often it is evaluated (a
/// default value that may be copied to the call site).
pub(super) fn is_constant(node: Node<'_>) -> bool {
    match node.kind() {
        "tuple" | "parenthesized_expression" => {
            let mut c = node.walk();
            let all = node.named_children(&mut c).all(is_constant);
            all
        }
        "identifier" => false,
        _ => is_atomic(node),
    }
}

/// Why `site` (inside `statement`) is not evaluated exactly once, first
/// thing, when `statement` runs — `None` when it is. Used for values that
/// act: moving a call there must neither skip it, repeat it, nor run it
/// after something else with effects that used to run after it.
pub(super) fn not_first_and_once(site: Node<'_>, statement: Node<'_>) -> Option<&'static str> {
    // Walk up: each step must be one that evaluates its child once, always.
    let mut child = site;
    let mut evaluated_from = statement;
    while let Some(parent) = child.parent() {
        if child == statement {
            break;
        }
        let field = field_of(parent, child);
        let why = match parent.kind() {
            "boolean_operator" if field == Some("right") => Some("only evaluated conditionally"),
            "conditional_expression" if named_index(parent, child) != Some(1) => {
                Some("only evaluated conditionally")
            }
            "while_statement" => Some("inside a loop"),
            "for_statement" if field != Some("right") => Some("inside a loop"),
            "block" | "else_clause" | "elif_clause" | "except_clause" | "finally_clause"
            | "case_clause" => Some("inside a compound statement's body"),
            "if_statement" if field != Some("condition") => {
                Some("inside a compound statement's body")
            }
            "lambda" | "function_definition" | "class_definition" => {
                Some("inside a nested function or class")
            }
            _ => None,
        };
        if why.is_some() {
            return why;
        }
        if matches!(parent.kind(), "assignment" | "augmented_assignment") && field == Some("right")
        {
            // the right side is evaluated before the targets
            evaluated_from = child;
        }
        child = parent;
    }
    // Nothing with effects may complete before the site is evaluated.
    let mut stack = vec![evaluated_from];
    while let Some(n) = stack.pop() {
        if n.start_byte() >= site.start_byte() {
            continue;
        }
        let before = n.end_byte() <= site.start_byte();
        if before {
            match n.kind() {
                "call" | "await" | "yield" | "named_expression" => {
                    return Some("after other calls of its statement")
                }
                "subscript" => return Some("after other reads of its statement"),
                // looking up the method of an enclosing call (`self.items.append`)
                // is not taken for an effect
                "attribute" if is_callee_of_ancestor(n, site) && is_name_chain(n) => continue,
                "attribute" => return Some("after other reads of its statement"),
                _ => {}
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    None
}

/// `n` is the callee of a call that encloses `site`.
fn is_callee_of_ancestor(n: Node<'_>, site: Node<'_>) -> bool {
    n.parent().is_some_and(|call| {
        call.kind() == "call"
            && call.child_by_field_name("function") == Some(n)
            && call.start_byte() <= site.start_byte()
            && site.end_byte() <= call.end_byte()
    })
}

/// True when `node` is inside a `for`/`while` loop that `outer` (a
/// statement list) does not contain itself; the loop's end byte.
pub(super) fn loop_between(node: Node<'_>, outer: Node<'_>) -> Option<usize> {
    let mut found = None;
    let mut child = node;
    while let Some(parent) = child.parent() {
        if parent == outer {
            break;
        }
        let field = field_of(parent, child);
        match parent.kind() {
            "while_statement" => found = Some(parent.end_byte()),
            "for_statement" if field != Some("right") => found = Some(parent.end_byte()),
            _ => {}
        }
        child = parent;
    }
    found
}
