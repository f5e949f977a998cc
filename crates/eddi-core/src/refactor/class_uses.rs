//! What a class's methods read through their receiver: `self.name` and
//! `cls.name` (the receiver is a method's first parameter, not a
//! `staticmethod`'s), and `super().name` — the names whose lookup a
//! change to the class's hierarchy or members may send elsewhere.

use tree_sitter::Node;

use super::classes;
use super::Parsed;

/// One read of a name through a method's receiver or `super()`.
#[derive(Debug, Clone)]
pub(super) struct Use {
    pub name: String,
    /// `super().name`: looked up after the class in its order.
    pub via_super: bool,
    /// The method it is read in.
    pub method: String,
    /// `path:line:col`.
    pub at: String,
    /// The attribute node's chars.
    pub range: std::ops::Range<usize>,
}

/// The uses in the methods of `class` (a `class_definition`), in order.
pub(super) fn of_class(file: &Parsed, class: Node<'_>) -> Vec<Use> {
    let mut out = Vec::new();
    for (statement, def) in classes::methods(class) {
        of_method(file, statement, def, &mut out);
    }
    out
}

/// The uses in one method (`def`, its `statement` with decorators).
pub(super) fn of_method(file: &Parsed, statement: Node<'_>, def: Node<'_>, out: &mut Vec<Use>) {
    let receiver = classes::receiver(file, statement, def);
    let method = def
        .child_by_field_name("name")
        .map(|n| file.node_text(n))
        .unwrap_or_default();
    let Some(body) = def.child_by_field_name("body") else {
        return;
    };
    let mut stack = vec![body];
    let mut found = Vec::new();
    while let Some(n) = stack.pop() {
        // a nested class's `self` and `super()` are its own
        if n.kind() == "class_definition" {
            continue;
        }
        if n.kind() == "attribute" {
            if let (Some(object), Some(attribute)) = (
                n.child_by_field_name("object"),
                n.child_by_field_name("attribute"),
            ) {
                let via_super = is_super_call(file, object);
                let through_receiver = object.kind() == "identifier"
                    && receiver.as_deref() == Some(file.node_text(object).as_str());
                if via_super || through_receiver {
                    found.push(Use {
                        name: file.node_text(attribute),
                        via_super,
                        method: method.clone(),
                        at: file.place(n),
                        range: file.chars(n),
                    });
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    found.sort_by_key(|u| u.range.start);
    out.extend(found);
}

/// `super()` (without arguments).
pub(super) fn is_super_call(file: &Parsed, node: Node<'_>) -> bool {
    node.kind() == "call"
        && node
            .child_by_field_name("function")
            .is_some_and(|f| f.kind() == "identifier" && file.node_text(f) == "super")
        && node
            .child_by_field_name("arguments")
            .is_some_and(|a| a.named_child_count() == 0)
}
