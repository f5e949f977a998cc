//! The uses of the moved method and how each is rewritten: a call on a
//! receiver the index proves is of the source class (or a subclass)
//! calls the target's method through what reaches it; any other use — a
//! receiver of unknown type, the method read as a value, a call through
//! the class, `super()`, arguments it cannot map — is left calling the
//! source's delegate, with why.

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

/// Rewrites the call whose method name is the identifier `name` (of
/// `receiver.name(…)`) to call the target's method named `new_name`
/// through `via`; `source`: the moved method takes the receiver first.
pub(super) fn rewrite(
    file: &Parsed,
    name: Node<'_>,
    via: &Via,
    new_name: &str,
    source: bool,
) -> Rewrite {
    let Some(attribute) = name.parent().filter(|p| p.kind() == "attribute") else {
        return Rewrite::Kept("not a call".into());
    };
    let Some(call) = attribute
        .parent()
        .filter(|c| c.kind() == "call" && c.child_by_field_name("function") == Some(attribute))
    else {
        return Rewrite::Kept("the method is read as a value, not called".into());
    };
    let Some(receiver) = attribute.child_by_field_name("object") else {
        return Rewrite::Kept("not a call".into());
    };
    let Some(args) = arguments(call) else {
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
    let receiver_text = file.node_text(receiver);
    match via {
        Via::Attribute { name: attr, .. } => {
            if source && !is_plain(receiver) {
                return Rewrite::Kept(format!(
                    "its receiver {receiver_text} would be evaluated twice"
                ));
            }
            let mut edits = vec![Indel::new(file.chars(name), format!("{attr}.{new_name}"))];
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
            let (passed, value) = match positional.get(*position) {
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
            if source && !is_plain(receiver) {
                return Rewrite::Kept(format!(
                    "its receiver {receiver_text} would be evaluated after {}",
                    file.node_text(value)
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
            let has_comment = {
                let mut cursor = list.walk();
                let found = list
                    .named_children(&mut cursor)
                    .any(|n| n.kind() == "comment");
                found
            };
            if has_comment {
                return Rewrite::Kept("its arguments hold comments".into());
            }
            Rewrite::Edits(vec![
                Indel::new(file.chars(receiver), file.node_text(value)),
                Indel::new(file.chars(name), new_name),
                Indel::new(file.chars(list), format!("({})", pieces.join(", "))),
            ])
        }
    }
}
