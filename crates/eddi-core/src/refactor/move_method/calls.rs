//! The uses of the moved method and how each is rewritten: a call on a
//! receiver the index proves is of the source class (or a subclass), a
//! call through the class (`User.validate(u)`: the instance is its first
//! argument) and `super().validate()` in a subclass (the instance is the
//! method's `self`) call the target's method through what reaches it,
//! when every expression is still evaluated once and in its order; any
//! other use — a receiver of unknown type, the method read as a value
//! (`map(User.validate, us)`, `functools.partial`), arguments it cannot
//! map — is left calling the source's delegate, with why.

use tree_sitter::Node;

use super::Via;
use crate::change::Indel;
use crate::refactor::Parsed;

/// A call's rewrite, or why it keeps calling the delegate.
pub(super) enum Rewrite {
    Edits(Vec<Indel>),
    Kept(String),
}

/// An expression evaluating it twice or in another order does not
/// change: a name, or attributes of names (`self`, `order.user`).
fn is_plain(node: Node<'_>) -> bool {
    match node.kind() {
        "identifier" => true,
        "attribute" => node.child_by_field_name("object").is_some_and(is_plain),
        _ => false,
    }
}

/// The arguments of a call (comments aside).
fn arguments<'t>(call: Node<'t>) -> Option<Vec<Node<'t>>> {
    let list = call.child_by_field_name("arguments")?;
    if list.kind() != "argument_list" {
        return None;
    }
    let mut cursor = list.walk();
    Some(
        list.named_children(&mut cursor)
            .filter(|n| n.kind() != "comment")
            .collect(),
    )
}

/// How a call reaches the method.
pub(super) enum Through {
    /// `u.validate(x)`: on an instance.
    Instance,
    /// `User.validate(u, x)`: through the class, the instance passed
    /// first.
    Class,
    /// `super().validate(x)` in a method whose receiver is named so
    /// (`self`): on that instance.
    Super(String),
}

/// Rewrites the call whose method name is the identifier `name` (of
/// `receiver.name(…)`) to call the target's method named `new_name`
/// through `via`; `source`: the moved method takes the receiver first.
pub(super) fn rewrite(
    file: &Parsed,
    name: Node<'_>,
    via: &Via,
    new_name: &str,
    source: bool,
    through: &Through,
) -> Rewrite {
    let Some(attribute) = name.parent().filter(|p| p.kind() == "attribute") else {
        return Rewrite::Kept("not a call".into());
    };
    let Some(call) = attribute
        .parent()
        .filter(|c| c.kind() == "call" && c.child_by_field_name("function") == Some(attribute))
    else {
        return Rewrite::Kept(match through {
            Through::Class => "the method is read through the class as a value (map(), functools.partial(), a callback), not called".into(),
            _ => "the method is read as a value, not called".into(),
        });
    };
    let Some(object) = attribute.child_by_field_name("object") else {
        return Rewrite::Kept("not a call".into());
    };
    let Some(mut args) = arguments(call) else {
        return Rewrite::Kept("called with a generator expression".into());
    };
    if args
        .iter()
        .any(|a| matches!(a.kind(), "list_splat" | "dictionary_splat"))
    {
        return Rewrite::Kept("called with *args or **kwargs, which it cannot map".into());
    }
    let Some(list) = call.child_by_field_name("arguments") else {
        return Rewrite::Kept("not a call".into());
    };
    let has_comment = {
        let mut cursor = list.walk();
        let found = list
            .named_children(&mut cursor)
            .any(|n| n.kind() == "comment");
        found
    };
    // the instance: the object, `self` for super(), the first argument
    // of a call through the class
    let (receiver_text, plain) = match through {
        Through::Instance => (file.node_text(object), is_plain(object)),
        Through::Super(receiver) => (receiver.clone(), true),
        Through::Class => {
            let Some(first) = args
                .first()
                .copied()
                .filter(|a| a.kind() != "keyword_argument")
            else {
                return Rewrite::Kept("called through the class without the instance".into());
            };
            if has_comment {
                return Rewrite::Kept("its arguments hold comments".into());
            }
            args.remove(0);
            (file.node_text(first), is_plain(first))
        }
    };
    match via {
        Via::Attribute { name: attr, .. } => {
            if source && !plain {
                return Rewrite::Kept(format!(
                    "its receiver {receiver_text} would be evaluated twice"
                ));
            }
            match through {
                Through::Instance | Through::Super(_) => {
                    let mut edits =
                        vec![Indel::new(file.chars(name), format!("{attr}.{new_name}"))];
                    if let Through::Super(receiver) = through {
                        edits.push(Indel::new(file.chars(object), receiver.clone()));
                    }
                    if source {
                        let open = file.char_of(list.start_byte()) + 1;
                        let insert = if args.is_empty() {
                            receiver_text
                        } else {
                            format!("{receiver_text}, ")
                        };
                        edits.push(Indel::insert(open, insert));
                    }
                    Rewrite::Edits(edits)
                }
                Through::Class => {
                    // `User.validate(u, x)`: `u.validator.validate(u, x)`
                    let mut pieces: Vec<String> = Vec::new();
                    if source {
                        pieces.push(receiver_text.clone());
                    }
                    pieces.extend(args.iter().map(|a| file.node_text(*a)));
                    Rewrite::Edits(vec![
                        Indel::new(
                            file.chars(attribute),
                            format!("{receiver_text}.{attr}.{new_name}"),
                        ),
                        Indel::new(file.chars(list), format!("({})", pieces.join(", "))),
                    ])
                }
            }
        }
        Via::Parameter {
            name: param,
            position,
            ..
        } => {
            let positional: Vec<Node<'_>> = args
                .iter()
                .copied()
                .take_while(|a| a.kind() != "keyword_argument")
                .collect();
            let (passed, value) = match position.and_then(|p| positional.get(p)) {
                Some(arg) => (*arg, *arg),
                None => {
                    let keyword = args.iter().copied().find(|a| {
                        a.kind() == "keyword_argument"
                            && a.child_by_field_name("name")
                                .is_some_and(|n| file.node_text(n) == *param)
                    });
                    match keyword.and_then(|k| Some((k, k.child_by_field_name("value")?))) {
                        Some(found) => found,
                        None => return Rewrite::Kept(format!("it does not pass {param}")),
                    }
                }
            };
            if !is_plain(value) {
                return Rewrite::Kept(format!(
                    "its argument {} would be evaluated before the others",
                    file.node_text(value)
                ));
            }
            if source && !plain {
                return Rewrite::Kept(format!(
                    "its receiver {receiver_text} would be evaluated after {}",
                    file.node_text(value)
                ));
            }
            if !source && !plain {
                return Rewrite::Kept(format!(
                    "its receiver {receiver_text} would no longer be evaluated"
                ));
            }
            let mut pieces: Vec<String> = Vec::new();
            if source {
                pieces.push(receiver_text.clone());
            }
            pieces.extend(
                args.iter()
                    .filter(|a| **a != passed)
                    .map(|a| file.node_text(*a)),
            );
            if has_comment {
                return Rewrite::Kept("its arguments hold comments".into());
            }
            Rewrite::Edits(vec![
                Indel::new(file.chars(object), file.node_text(value)),
                Indel::new(file.chars(name), new_name),
                Indel::new(file.chars(list), format!("({})", pieces.join(", "))),
            ])
        }
    }
}
