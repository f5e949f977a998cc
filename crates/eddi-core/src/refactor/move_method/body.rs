//! The moved method's own text: its body rewritten in terms of the
//! target's `self` (what reached the target becomes `self`, what it still
//! reads of the source comes through a new parameter), its signature, and
//! the one-line delegate the source keeps when some uses cannot be
//! rewritten.

use std::ops::Range;

use tree_sitter::Node;

use super::{refused, Via};
use crate::analysis::identifier::is_identifier;
use crate::analysis::scope::{ScopeKind, Scopes};
use crate::change::Indel;
use crate::refactor::move_members::{needs::Why, statements};
use crate::refactor::{Parsed, RefactorError};

/// The method's parameters (comments aside), in order.
pub(in crate::refactor) fn parameters<'t>(def: Node<'t>) -> Vec<Node<'t>> {
    let Some(params) = def.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut cursor = params.walk();
    params
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// A parameter's name node (`x`, `x: T`, `x=1`, `x: T = 1`); `None` for
/// `*args`, `**kw` and the separators.
pub(in crate::refactor) fn parameter_name<'t>(param: Node<'t>) -> Option<Node<'t>> {
    match param.kind() {
        "identifier" => Some(param),
        "typed_parameter" => param.named_child(0).filter(|n| n.kind() == "identifier"),
        "default_parameter" | "typed_default_parameter" => param
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier"),
        _ => None,
    }
}

/// The function scope of `def` in the file's scopes.
pub(in crate::refactor) fn scope_of(
    file: &Parsed,
    scopes: &Scopes,
    def: Node<'_>,
) -> Option<usize> {
    let range = file.chars(def);
    scopes
        .scopes
        .iter()
        .position(|s| s.kind == ScopeKind::Function && s.range == range)
}

/// The reads of the name `name` bound in the scope `scope` (the method's
/// parameter), in nested functions too.
pub(in crate::refactor) fn reads_of(
    scopes: &Scopes,
    scope: usize,
    name: &str,
    within: &Range<usize>,
) -> Vec<Range<usize>> {
    scopes
        .references
        .iter()
        .filter(|r| {
            r.name == name
                && r.resolution == crate::analysis::scope::Resolution::Scope(scope)
                && within.start <= r.range.start
                && r.range.end <= within.end
        })
        .map(|r| r.range.clone())
        .collect()
}

/// A name for the source object as a parameter of the moved method: the
/// source class's name in snake case (`user` for `User`), made free of
/// every name the method binds or reads.
pub(in crate::refactor) fn source_parameter(
    file: &Parsed,
    scopes: &Scopes,
    class_name: &str,
    within: &Range<usize>,
) -> String {
    let mut snake = String::new();
    let chars: Vec<char> = class_name.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let after_lower = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_numeric());
            let before_lower = i > 0
                && chars[i - 1].is_uppercase()
                && chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if (after_lower || before_lower) && !snake.ends_with('_') {
                snake.push('_');
            }
            snake.extend(c.to_lowercase());
        } else {
            snake.push(*c);
        }
    }
    let snake = snake.trim_start_matches('_').to_string();
    let mut name = if snake.is_empty() {
        "source".to_string()
    } else {
        snake
    };
    let taken =
        |n: &str| {
            !is_identifier(n)
                || scopes.references.iter().any(|r| {
                    r.name == n && within.start <= r.range.start && r.range.end <= within.end
                })
                || scopes.bindings.iter().any(|b| {
                    b.name == n && within.start <= b.range.start && b.range.end <= within.end
                })
                || file.slice(within.clone()).contains(&format!("{n}="))
        };
    while taken(&name) {
        name.push('_');
    }
    name
}

/// The edits that rewrite the method's text for the target: each read of
/// what reached the target becomes `self`, each other read of `self` the
/// source parameter, and the signature drops the parameter that reached
/// the target and gains the source's. `None` for `source` when the body
/// reads nothing else of the source.
pub(super) fn rewrite(
    file: &Parsed,
    def: Node<'_>,
    scope: usize,
    receiver: &str,
    via: &Via,
    source: Option<&str>,
) -> Result<Vec<Indel>, RefactorError> {
    let scopes = file.scopes();
    let range = file.chars(def);
    let mut edits: Vec<Indel> = Vec::new();
    for read in reads_of(scopes, scope, receiver, &range) {
        if let Some(attribute) = via_attribute(file, read.start, via) {
            edits.push(Indel::new(file.chars(attribute), "self"));
        } else if let Some(source) = source {
            edits.push(Indel::new(read, source));
        }
    }
    if let Via::Parameter { name, .. } = via {
        for read in reads_of(scopes, scope, name, &range) {
            edits.push(Indel::new(read, "self"));
        }
    }
    // the signature
    let params = parameters(def);
    let Some(first) = params.first() else {
        return Err(refused("the method has no self parameter"));
    };
    let first_end = file.char_of(first.end_byte());
    match via {
        Via::Parameter { node, .. } => {
            let at = params.iter().position(|p| p == node).unwrap_or(0);
            let mut previous = params[at - 1];
            // the last keyword-only parameter takes its `*` along
            if previous.kind() == "keyword_separator" && at + 1 == params.len() && at >= 2 {
                previous = params[at - 2];
            }
            let removed = file.char_of(previous.end_byte())..file.char_of(node.end_byte());
            let insert = source.map(|s| format!(", {s}")).unwrap_or_default();
            if at == 1 {
                edits.push(Indel::new(removed, insert));
            } else {
                edits.push(Indel::delete(removed));
                if !insert.is_empty() {
                    edits.push(Indel::insert(first_end, insert));
                }
            }
        }
        Via::Attribute { .. } => {
            if let Some(source) = source {
                edits.push(Indel::insert(first_end, format!(", {source}")));
            }
        }
    }
    Ok(edits)
}

/// Whether the read of the receiver at `at` is `self.<attribute>` of the
/// attribute that reaches the target: that attribute node.
pub(super) fn via_attribute<'t>(file: &'t Parsed, at: usize, via: &Via) -> Option<Node<'t>> {
    let Via::Attribute { name, .. } = via else {
        return None;
    };
    let read = file.node_covering(at)?;
    let attribute = read.parent().filter(|p| p.kind() == "attribute")?;
    let is_it = attribute.child_by_field_name("object") == Some(read)
        && attribute
            .child_by_field_name("attribute")
            .is_some_and(|a| file.node_text(a) == *name);
    is_it.then_some(attribute)
}

/// Whether the body needs the source object: it reads `self` other than
/// as `self.<attribute that reaches the target>`.
pub(super) fn needs_source(
    file: &Parsed,
    def: Node<'_>,
    scope: usize,
    receiver: &str,
    via: &Via,
) -> bool {
    reads_of(file.scopes(), scope, receiver, &file.chars(def))
        .iter()
        .any(|r| via_attribute(file, r.start, via).is_none())
}

/// The edits that make the method's body one line calling the moved
/// method: `return self.validator.validate(self, a)` (`ExtractClass`'s
/// delegates too). The comments about the code go with the code: those
/// above the method and inside its body leave the delegate. Its docstring
/// stays, as on the moved method: callers still call the delegate, and
/// `help()` of it should still say what it does.
pub(in crate::refactor) fn delegate(
    file: &Parsed,
    def: Node<'_>,
    via: &Via,
    new_name: &str,
    source: bool,
) -> Result<Vec<Indel>, Why> {
    let body = def
        .child_by_field_name("body")
        .ok_or_else(|| Why("the method has no body".into()))?;
    let mut cursor = body.walk();
    let children: Vec<Node<'_>> = body.named_children(&mut cursor).collect();
    let statements: Vec<Node<'_>> = children
        .iter()
        .filter(|n| n.kind() != "comment")
        .copied()
        .collect();
    let docstring = statements.first().is_some_and(|s| {
        s.kind() == "expression_statement" && s.named_child(0).is_some_and(|e| e.kind() == "string")
    });
    let rest: Vec<Node<'_>> = statements
        .iter()
        .skip(usize::from(docstring))
        .copied()
        .collect();
    let (Some(first), Some(last)) = (rest.first(), rest.last()) else {
        return Err(Why(
            "the method has no statement besides its docstring".into()
        ));
    };
    // the body's comments above its first statement go too (those after
    // the docstring, each on its own line)
    let own_line = |n: &Node<'_>| {
        n.prev_sibling()
            .or_else(|| body.prev_sibling())
            .is_none_or(|p| n.start_position().row > p.end_position().row)
    };
    let first = children
        .iter()
        .skip_while(|n| docstring && Some(**n) != statements.first().copied())
        .skip(usize::from(docstring))
        .find(|n| n.kind() != "comment" || own_line(n))
        .copied()
        .unwrap_or(*first);
    let mut args: Vec<String> = Vec::new();
    if source {
        args.push("self".into());
    }
    let mut keyword = false;
    for param in parameters(def).iter().skip(1) {
        if let Via::Parameter { node, .. } = via {
            if param == node {
                continue;
            }
        }
        // `*args: T`, `**kwargs: T`: the splat inside the annotation
        let param = &match param.kind() {
            "typed_parameter" => param
                .named_child(0)
                .filter(|n| matches!(n.kind(), "list_splat_pattern" | "dictionary_splat_pattern"))
                .unwrap_or(*param),
            _ => *param,
        };
        match param.kind() {
            "list_splat_pattern" => {
                args.push(file.node_text(*param));
                keyword = true;
            }
            "dictionary_splat_pattern" => args.push(file.node_text(*param)),
            "keyword_separator" => keyword = true,
            "positional_separator" => {}
            _ => {
                let name = parameter_name(*param)
                    .map(|n| file.node_text(n))
                    .ok_or_else(|| {
                        Why(format!(
                            "the parameter {} cannot be forwarded",
                            file.node_text(*param)
                        ))
                    })?;
                args.push(if keyword {
                    format!("{name}={name}")
                } else {
                    name
                });
            }
        }
    }
    let reach = match via {
        Via::Attribute { name, .. } => format!("self.{name}"),
        Via::Parameter { name, .. } => name.clone(),
    };
    let is_async = file.node_text(def).starts_with("async");
    let call = format!(
        "return {}{reach}.{new_name}({})",
        if is_async { "await " } else { "" },
        args.join(", ")
    );
    let end = {
        let text = file.text();
        let row = last.end_position().row;
        if row + 1 < text.len_lines() {
            text.line_to_char(row + 1)
        } else {
            text.len_chars()
        }
    };
    let ends_line = file
        .slice(file.char_of(last.end_byte())..end)
        .trim()
        .is_empty();
    let newline = if ends_line && end > file.char_of(last.end_byte()) {
        "\n"
    } else {
        ""
    };
    let start = file.char_of(first.start_byte());
    let range = if ends_line {
        start..end
    } else {
        start..file.char_of(last.end_byte())
    };
    let mut edits = vec![Indel::new(range, format!("{call}{newline}"))];
    // the comments above the method: they moved with it
    let statement = match def.parent() {
        Some(p) if p.kind() == "decorated_definition" => p,
        _ => def,
    };
    let above = statements::comments_above(file, statement);
    if above < statement.start_position().row {
        let text = file.text();
        edits.push(Indel::delete(
            text.line_to_char(above)..text.line_to_char(statement.start_position().row),
        ));
    }
    Ok(edits)
}
