//! Call sites: the call around a caller's location, its arguments, and how
//! it reaches the function (directly, bound through an instance, through
//! the class, or pre-bound by `functools.partial`).

use std::collections::BTreeSet;
use std::ops::Range;

use tree_sitter::Node;

use super::target::{Parsed, Receiver};
use crate::analysis::index::Location;

/// How one argument is passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ArgKind {
    Positional,
    Keyword,
    /// `*expr`.
    Star,
    /// `**expr`.
    DoubleStar,
}

/// One argument of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Arg {
    pub kind: ArgKind,
    /// The whole argument (`name=value`, `*xs`).
    pub range: Range<usize>,
    /// The keyword and where it is written.
    pub keyword: Option<(String, Range<usize>)>,
    /// The value expression.
    pub value: Range<usize>,
    /// Evaluating it twice or in another order cannot be told apart (a
    /// name, a literal, an attribute of one).
    pub pure: bool,
}

/// A call's argument list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CallArgs {
    /// Between the parentheses.
    pub inside: Range<usize>,
    pub args: Vec<Arg>,
    /// The indentation of a line the arguments start on, when they are
    /// written one per line.
    pub line_indent: Option<String>,
    /// `f(x for x in xs)`: one positional generator, no parentheses of its own.
    pub generator: bool,
}

/// How a call reaches the function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Via {
    /// `f(…)`, `mod.f(…)`, `obj.m(…)`, `self.m(…)`, `super().m(…)`: the
    /// receiver (if any) is bound.
    Bound,
    /// `Class.m(obj, …)`: a method called through a class of its
    /// hierarchy, the instance passed first.
    ThroughClass,
    /// `cls.m(…)` of a plain method: bound or not cannot be told.
    Unclear,
}

/// A call of the function, found at a caller location.
#[derive(Debug, Clone)]
pub(super) struct Call {
    pub site: Location,
    pub args: CallArgs,
    pub via: Via,
    /// `@f` / `@mod.f` above a definition: the decorated function is the
    /// one positional argument, written nowhere (so nothing can be added).
    pub decorator: bool,
}

/// The callee expression (`f`, `obj.m`) whose name is at `offset`: the
/// identifier, or the attribute it names.
fn callee_expression<'t>(file: &'t Parsed, offset: usize) -> Option<Node<'t>> {
    let node = file.node_covering(offset)?;
    if node.kind() != "identifier" {
        return None;
    }
    match node.parent() {
        Some(p) if p.kind() == "attribute" && p.child_by_field_name("attribute") == Some(node) => {
            Some(p)
        }
        _ => Some(node),
    }
}

/// The call whose callee's name is at `site`, or why it is not one.
pub(super) fn call_at(
    file: &Parsed,
    site: &Location,
    receiver: Receiver,
    class_mentions: &BTreeSet<Location>,
) -> Result<Call, &'static str> {
    let offset = file.offset(site.position);
    let callee = callee_expression(file, offset).ok_or("not a call the tree shows")?;
    if let Some(decorator) = callee.parent().filter(|d| d.kind() == "decorator") {
        return Ok(decorator_call(file, site, decorator));
    }
    let call = callee
        .parent()
        .filter(|c| c.kind() == "call" && c.child_by_field_name("function") == Some(callee))
        .ok_or("not a call the tree shows")?;
    let arguments = call
        .child_by_field_name("arguments")
        .ok_or("a call without arguments")?;
    let via = match receiver {
        Receiver::Instance if callee.kind() == "attribute" => {
            let object = callee.child_by_field_name("object");
            match object {
                Some(o) if is_class_mention(file, o, class_mentions, &site.path) => {
                    Via::ThroughClass
                }
                Some(o) if o.kind() == "identifier" && file.node_text(o) == "cls" => Via::Unclear,
                _ => Via::Bound,
            }
        }
        _ => Via::Bound,
    };
    Ok(Call {
        site: site.clone(),
        args: arguments_of(file, arguments),
        via,
        decorator: false,
    })
}

/// `@f` applied to the definition below it: a call that passes that
/// definition as its one positional argument.
fn decorator_call(file: &Parsed, site: &Location, decorator: Node<'_>) -> Call {
    let end = file.chars(decorator).end;
    let definition = decorator
        .parent()
        .and_then(|d| d.child_by_field_name("definition"))
        .map_or(end..end, |d| file.chars(d));
    Call {
        site: site.clone(),
        args: CallArgs {
            inside: end..end,
            args: vec![Arg {
                kind: ArgKind::Positional,
                range: definition.clone(),
                keyword: None,
                value: definition,
                pure: true,
            }],
            line_indent: None,
            generator: false,
        },
        via: Via::Bound,
        decorator: true,
    }
}

fn is_class_mention(
    file: &Parsed,
    object: Node<'_>,
    mentions: &BTreeSet<Location>,
    path: &str,
) -> bool {
    // the name a mention points at: `Base` or the `Base` of `mod.Base`
    let name = match object.kind() {
        "identifier" => object,
        "attribute" => match object.child_by_field_name("attribute") {
            Some(a) => a,
            None => return false,
        },
        _ => return false,
    };
    let at = file.position(file.chars(name).start);
    mentions.iter().any(|m| m.path == path && m.position == at)
}

/// The arguments of an `argument_list` (or a lone generator expression).
pub(super) fn arguments_of(file: &Parsed, arguments: Node<'_>) -> CallArgs {
    let range = file.chars(arguments);
    if arguments.kind() == "generator_expression" {
        // the generator's own parentheses are the call's: its text
        // without them is the one argument
        let inside = range.start + 1..range.end.saturating_sub(1).max(range.start + 1);
        return CallArgs {
            inside: inside.clone(),
            args: vec![Arg {
                kind: ArgKind::Positional,
                range: inside.clone(),
                keyword: None,
                value: inside,
                pure: false,
            }],
            line_indent: None,
            generator: true,
        };
    }
    let mut cursor = arguments.walk();
    let mut args = Vec::new();
    for node in arguments.named_children(&mut cursor) {
        let range = file.chars(node);
        let arg = match node.kind() {
            "comment" => continue,
            "keyword_argument" => {
                let name = node.child_by_field_name("name");
                let value = node.child_by_field_name("value");
                Arg {
                    kind: ArgKind::Keyword,
                    keyword: name.map(|n| (file.node_text(n), file.chars(n))),
                    value: value.map(|v| file.chars(v)).unwrap_or(range.clone()),
                    pure: value.is_some_and(|v| is_pure(v)),
                    range,
                }
            }
            "list_splat" | "dictionary_splat" => Arg {
                kind: if node.kind() == "list_splat" {
                    ArgKind::Star
                } else {
                    ArgKind::DoubleStar
                },
                keyword: None,
                value: range.clone(),
                pure: false,
                range,
            },
            _ => Arg {
                kind: ArgKind::Positional,
                keyword: None,
                value: range.clone(),
                pure: is_pure(node),
                range,
            },
        };
        args.push(arg);
    }
    let inside = range.start + 1..range.end.saturating_sub(1).max(range.start + 1);
    let line_indent = args
        .first()
        .and_then(|first| super::layout::line_indent(file, inside.start, first.range.start));
    CallArgs {
        inside,
        args,
        line_indent,
        generator: false,
    }
}

/// Names, literals and attributes of them: moving or copying their
/// evaluation changes nothing a caller can observe.
fn is_pure(node: Node<'_>) -> bool {
    match node.kind() {
        "identifier" | "integer" | "float" | "true" | "false" | "none" | "ellipsis" => true,
        "string" => {
            let mut c = node.walk();
            let pure = !node
                .named_children(&mut c)
                .any(|n| n.kind() == "interpolation");
            pure
        }
        "concatenated_string" => {
            let mut c = node.walk();
            let all = node.named_children(&mut c).all(|n| is_pure(n));
            all
        }
        "attribute" => node
            .child_by_field_name("object")
            .is_some_and(|o| is_pure(o)),
        "unary_operator" => node
            .child_by_field_name("argument")
            .is_some_and(|a| matches!(a.kind(), "integer" | "float")),
        "parenthesized_expression" => node.named_child(0).is_some_and(|n| is_pure(n)),
        _ => false,
    }
}

/// `functools.partial(f, …)` / `partial(f, …)` around the reference at
/// `site` (`f` its first argument): that partial's arguments.
pub(super) fn partial_at(
    file: &Parsed,
    site: &Location,
    imports_partial: bool,
) -> Option<CallArgs> {
    let offset = file.offset(site.position);
    let callee = callee_expression(file, offset)?;
    let list = callee.parent().filter(|p| p.kind() == "argument_list")?;
    let first = list.named_child(0)?;
    if first != callee {
        return None;
    }
    let call = list.parent().filter(|c| c.kind() == "call")?;
    let function = file.node_text(call.child_by_field_name("function")?);
    let is_partial = function == "functools.partial" || (function == "partial" && imports_partial);
    if !is_partial {
        return None;
    }
    let mut args = arguments_of(file, list);
    args.args.remove(0);
    Some(args)
}

/// The reference at `site` is a name in an import statement.
pub(super) fn is_import(file: &Parsed, site: &Location) -> bool {
    let Some(mut node) = file.node_covering(file.offset(site.position)) else {
        return false;
    };
    loop {
        match node.kind() {
            "import_statement" | "import_from_statement" => return true,
            "module" | "block" | "expression_statement" => return false,
            _ => {}
        }
        match node.parent() {
            Some(p) => node = p,
            None => return false,
        }
    }
}
