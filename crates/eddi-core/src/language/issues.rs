//! The potential issues of a file in a language other than Python
//! (`Analyze … Issues`, `get_todos`): TODO, FIXME, XXX and HACK in its
//! comments, in every language; and, in JavaScript and TypeScript, `==`
//! and `!=` where `===` and `!==` are meant (ESLint's `eqeqeq`; `== null`,
//! the idiom for "null or undefined", is left alone).

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::issues::{has_word, Issue, IssueKind};
use crate::analysis::syntax::{node_start, node_text, SyntaxTree};

/// What a language's issues check beyond its comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssueChecks {
    /// `==`/`!=` that convert types before comparing (JavaScript).
    pub loose_equality: bool,
}

/// The markers of a TODO comment, as whole words.
const MARKERS: [&str; 4] = ["TODO", "FIXME", "XXX", "HACK"];

/// The potential issues of a file, in source order.
pub fn issues(text: &Rope, tree: &SyntaxTree, checks: IssueChecks) -> Vec<Issue> {
    let mut out = Vec::new();
    let mut stack: Vec<Node<'_>> = vec![tree.root()];
    while let Some(node) = stack.pop() {
        if node.kind().contains("comment") {
            if let Some(issue) = todo(text, node) {
                out.push(issue);
            }
            continue;
        }
        if checks.loose_equality && node.kind() == "binary_expression" {
            if let Some(issue) = loose_equality(text, node) {
                out.push(issue);
            }
        }
        let mut walk = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut walk).collect();
        stack.extend(children.into_iter().rev());
    }
    out.sort_by_key(|i| i.position);
    out
}

/// A comment naming a marker: its line with the marker, without the
/// comment's own punctuation.
fn todo(text: &Rope, comment: Node<'_>) -> Option<Issue> {
    let whole = node_text(text, comment);
    let (index, line) = whole
        .lines()
        .enumerate()
        .find(|(_, line)| MARKERS.iter().any(|m| has_word(line, m)))?;
    let body = line
        .trim()
        .trim_start_matches("/**")
        .trim_start_matches("/*")
        .trim_start_matches('/')
        .trim_start_matches('*')
        .trim_end_matches("*/")
        .trim();
    let mut position = node_start(text, comment);
    if index > 0 {
        position.line += index;
        let row = crate::analysis::lines::text_of(text, position.line);
        position.col = row.chars().take_while(|c| c.is_whitespace()).count();
    }
    Some(Issue {
        kind: IssueKind::Todo,
        position,
        message: body.chars().take(80).collect(),
    })
}

/// `a == b` or `a != b`, unless one side is `null`.
fn loose_equality(text: &Rope, node: Node<'_>) -> Option<Issue> {
    let operator = node.child_by_field_name("operator")?;
    let strict = match operator.kind() {
        "==" => "===",
        "!=" => "!==",
        _ => return None,
    };
    let is_null = |side: &str| {
        node.child_by_field_name(side)
            .is_some_and(|n| n.kind() == "null")
    };
    if is_null("left") || is_null("right") {
        return None;
    }
    Some(Issue {
        kind: IssueKind::LooseEquality,
        position: node_start(text, operator),
        message: format!(
            "'{}' compares after converting types: use '{strict}'",
            operator.kind()
        ),
    })
}
