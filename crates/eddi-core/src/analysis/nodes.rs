//! Small questions about Python syntax nodes that several analyses and
//! refactorings ask: what a node's children are, what parentheses wrap,
//! whether a statement is a docstring, whether an expression is a dotted
//! name. One copy each; walks that need more keep it to themselves.

use tree_sitter::Node;

use super::grammar::kind_name;

/// Every child of a node, tokens and comments included.
pub fn children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// The named children of a node, comments aside: its code.
pub fn named_code_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// `((a))` → `a`: the expression parentheses wrap, comments aside; also a
/// target tree-sitter reads as a tuple of one (`(a) += 1`). A tuple
/// (`(a,)`) is not unwrapped.
pub fn unparenthesized(mut node: Node<'_>) -> Node<'_> {
    loop {
        if !matches!(
            kind_name(node),
            "parenthesized_expression" | "tuple_pattern"
        ) {
            return node;
        }
        let mut cursor = node.walk();
        let mut only = None;
        for child in node.children(&mut cursor) {
            match kind_name(child) {
                "," => return node,
                "comment" => {}
                // a second expression: not one wrapped in parentheses
                _ if child.is_named() && only.replace(child).is_some() => return node,
                _ => {}
            }
        }
        match only {
            Some(inner) => node = inner,
            None => return node,
        }
    }
}

/// A statement that is a string alone: a docstring where it comes first
/// in a module, class or function.
pub fn is_docstring(statement: Node<'_>) -> bool {
    statement.kind() == "expression_statement"
        && statement.named_child_count() == 1
        && statement
            .named_child(0)
            .is_some_and(|n| matches!(n.kind(), "string" | "concatenated_string"))
}

/// `a.b.c`: a plain name, or attributes of one.
pub fn is_name_chain(mut node: Node<'_>) -> bool {
    loop {
        match node.kind() {
            "identifier" => return true,
            "attribute" => match node.child_by_field_name("object") {
                Some(object) => node = object,
                None => return false,
            },
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::SyntaxTree;
    use ropey::Rope;

    /// The first statement's expression of `code`, unparenthesized.
    fn inner(code: &str) -> String {
        let text = Rope::from_str(code);
        let tree = SyntaxTree::parse(&text).unwrap();
        let statement = tree.root().named_child(0).unwrap();
        let expression = statement.named_child(0).unwrap();
        let node = expression.child_by_field_name("left").unwrap_or(expression);
        let node = unparenthesized(node);
        format!("{} {}", node.kind(), &code[node.byte_range()])
    }

    #[test]
    fn parentheses_are_taken_off_but_not_a_tuple() {
        assert_eq!(inner("((a))\n"), "identifier a");
        assert_eq!(inner("(  # why\n  a.b)\n"), "attribute a.b");
        assert_eq!(inner("(a) += 1\n"), "identifier a");
        assert_eq!(inner("(a,)\n"), "tuple (a,)");
        assert_eq!(inner("(yield)\n").split(' ').next(), Some("yield"));
    }

    #[test]
    fn docstrings_and_name_chains() {
        let text = Rope::from_str("'''doc''' 'more'\nx = 1\na.b.c\na().b\n");
        let tree = SyntaxTree::parse(&text).unwrap();
        let statements: Vec<Node<'_>> = named_code_children(tree.root());
        assert!(is_docstring(statements[0]));
        assert!(!is_docstring(statements[1]));
        let expression = |i: usize| statements[i].named_child(0).unwrap();
        assert!(is_name_chain(expression(2)));
        assert!(!is_name_chain(expression(3)));
        assert_eq!(children(statements[1]).len(), 1, "the assignment");
    }
}
