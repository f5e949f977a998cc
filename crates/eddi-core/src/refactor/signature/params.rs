//! Parameter lists: read from a `def` in a file or from the list a user
//! writes (`username, timeout=30`), compared and printed normalised.

use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::outline::parameter_identifier;
use crate::analysis::syntax::{node_chars, node_text, SyntaxTree};
use crate::analysis::validate::syntax_errors;

/// How an argument reaches a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Before `/`.
    PositionalOnly,
    /// Positional or keyword.
    Normal,
    /// `*args`.
    VarPositional,
    /// After `*` or `*args`.
    KeywordOnly,
    /// `**kwargs`.
    VarKeyword,
    /// The bare `*` of keyword-only parameters.
    StarMarker,
    /// The `/` after positional-only ones.
    SlashMarker,
}

impl Kind {
    /// Takes positional arguments one at a time.
    pub fn is_positional(self) -> bool {
        matches!(self, Kind::PositionalOnly | Kind::Normal)
    }

    /// May be passed as `name=value`.
    pub fn takes_keyword(self) -> bool {
        matches!(self, Kind::Normal | Kind::KeywordOnly)
    }

    pub fn is_marker(self) -> bool {
        matches!(self, Kind::StarMarker | Kind::SlashMarker)
    }
}

/// One entry of a parameter list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Param {
    /// Empty for the markers `*` and `/`.
    pub name: String,
    pub kind: Kind,
    /// The default's text, whitespace as written.
    pub default: Option<String>,
    pub annotation: Option<String>,
    /// The whole entry as written.
    pub text: String,
    /// Where the entry is (chars of its text), and its name.
    pub range: Range<usize>,
    pub name_range: Range<usize>,
    /// `name:=value` in a new list: what every existing caller that does
    /// not pass the parameter gets (`name=value`), the parameter itself
    /// having no default.
    pub call_value: Option<String>,
}

impl Param {
    /// The entry with its blanks collapsed and comments dropped, as the
    /// conflict message prints it (`b: int = 1`).
    pub fn normalised(&self) -> String {
        let mut out = String::new();
        if self.kind.is_marker() {
            return self.text.trim().to_string();
        }
        match self.kind {
            Kind::VarPositional => out.push('*'),
            Kind::VarKeyword => out.push_str("**"),
            _ => {}
        }
        out.push_str(&self.name);
        if let Some(a) = &self.annotation {
            out.push_str(": ");
            out.push_str(&squeeze(a));
        }
        if let Some(d) = &self.default {
            out.push_str(if self.annotation.is_some() {
                " = "
            } else {
                "="
            });
            out.push_str(&squeeze(d));
        }
        out
    }
}

/// `text` with every run of blanks made one space.
pub(super) fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` without any blanks (for whitespace-insensitive comparison).
pub(super) fn compact(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A list printed as `f(a, b=1)` prints it.
pub(super) fn show(params: &[Param]) -> String {
    params
        .iter()
        .map(Param::normalised)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The parameters of a `parameters` node, in order.
pub(super) fn of_node(text: &Rope, parameters: Node<'_>) -> Vec<Param> {
    let mut out = Vec::new();
    let mut after_star = false;
    let mut cursor = parameters.walk();
    let entries: Vec<Node<'_>> = parameters
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect();
    let slash = entries
        .iter()
        .position(|n| n.kind() == "positional_separator");
    for (i, node) in entries.iter().enumerate() {
        let node = *node;
        let range = node_chars(text, node);
        let marker = |kind| Param {
            name: String::new(),
            kind,
            default: None,
            annotation: None,
            text: node_text(text, node),
            range: range.clone(),
            name_range: range.start..range.start,
            call_value: None,
        };
        match node.kind() {
            "keyword_separator" => {
                after_star = true;
                out.push(marker(Kind::StarMarker));
                continue;
            }
            "positional_separator" => {
                out.push(marker(Kind::SlashMarker));
                continue;
            }
            _ => {}
        }
        let Some(ident) = parameter_identifier(node) else {
            // a tuple pattern (Python 2) or broken code: kept as it is
            continue;
        };
        let splat = splat_of(node);
        let kind = match splat {
            Some(Kind::VarPositional) => {
                after_star = true;
                Kind::VarPositional
            }
            Some(kind) => kind,
            None if slash.is_some_and(|s| i < s) => Kind::PositionalOnly,
            None if after_star => Kind::KeywordOnly,
            None => Kind::Normal,
        };
        out.push(Param {
            name: node_text(text, ident),
            kind,
            default: node
                .child_by_field_name("value")
                .map(|v| node_text(text, v)),
            annotation: node.child_by_field_name("type").map(|v| node_text(text, v)),
            text: node_text(text, node),
            range,
            name_range: node_chars(text, ident),
            call_value: None,
        });
    }
    out
}

/// `*args` / `**kwargs` (also annotated: `*args: int`).
fn splat_of(node: Node<'_>) -> Option<Kind> {
    let pattern = if node.kind() == "typed_parameter" {
        node.named_child(0)?
    } else {
        node
    };
    match pattern.kind() {
        "list_splat_pattern" => Some(Kind::VarPositional),
        "dictionary_splat_pattern" => Some(Kind::VarKeyword),
        _ => None,
    }
}

/// A parameter list as a user writes it (without the parentheses). With
/// `allow_call_values`, `name:=value` entries are accepted (see
/// [`Param::call_value`]). `Err` says what is wrong with it.
pub(super) fn parse_list(list: &str, allow_call_values: bool) -> Result<Vec<Param>, String> {
    let mut values = Vec::new();
    let mut written = String::new();
    for (i, entry) in split_top_level(list).into_iter().enumerate() {
        if i > 0 {
            written.push(',');
        }
        match entry.split_once(":=") {
            Some((name, value)) if is_plain_name(name.trim()) => {
                if !allow_call_values {
                    return Err(format!(
                        "'{}' gives a value for callers; write the current parameters as they are",
                        entry.trim()
                    ));
                }
                if value.trim().is_empty() {
                    return Err(format!("'{}' needs a value after ':='", entry.trim()));
                }
                values.push((name.trim().to_string(), value.trim().to_string()));
                written.push_str(name);
            }
            _ => written.push_str(entry),
        }
    }
    let source = format!("def f({written}): pass\n");
    let text = Rope::from_str(&source);
    let tree = SyntaxTree::parse(&text).map_err(|e| e.to_string())?;
    if let Some(error) = syntax_errors(&text, &tree).into_iter().next() {
        return Err(format!(
            "'{}' is not a valid parameter list: {}",
            list.trim(),
            error.message
        ));
    }
    let parameters = tree
        .root()
        .named_child(0)
        .and_then(|f| f.child_by_field_name("parameters"))
        .ok_or_else(|| format!("'{}' is not a valid parameter list", list.trim()))?;
    let mut params = of_node(&text, parameters);
    for p in &mut params {
        if let Some((_, value)) = values.iter().find(|(n, _)| *n == p.name) {
            p.call_value = Some(value.clone());
        }
    }
    Ok(params)
}

fn is_plain_name(name: &str) -> bool {
    crate::analysis::identifier::is_identifier(name)
}

/// `list` cut at the commas outside brackets and strings.
fn split_top_level(list: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in list.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !list[start..].trim().is_empty() || !out.is_empty() {
        out.push(&list[start..]);
    }
    out
}
