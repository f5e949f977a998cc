//! Java records: a component (`int price` of `record Item(String name,
//! int price)`) is one member with three faces — its field, its accessor
//! (`price()`) and its canonical constructor's parameter. The index holds
//! it as a field of the record (`analysis/index/tags/sites.rs`), and its
//! accessor's calls as its uses; a rename finds here the face the index
//! holds as a local of its own: an explicit canonical constructor's
//! parameter (`Item(String name, int price) { this.price = price; }`),
//! whose name Java requires to be the component's.

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::syntax::byte_to_char;
use crate::analysis::SyntaxTree;
use crate::edit::Position;

/// The component whose name is at `position`, with its record: `None`
/// when the name there is no record's component.
fn component_at<'t>(
    text: &Rope,
    tree: &'t SyntaxTree,
    position: Position,
) -> Option<(Node<'t>, Node<'t>)> {
    let at = crate::edit::position::to_char(text, position).ok()?;
    let byte = text.char_to_byte(at);
    let name = tree.root().named_descendant_for_byte_range(byte, byte)?;
    // (a varargs component's name is its declarator's: `String... tags`)
    let component = match name.parent()? {
        p if p.kind() == "formal_parameter" => p,
        p if p.kind() == "variable_declarator" => {
            p.parent().filter(|s| s.kind() == "spread_parameter")?
        }
        _ => return None,
    };
    let components = component
        .parent()
        .filter(|p| p.kind() == "formal_parameters")?;
    let record = components
        .parent()
        .filter(|r| r.kind() == "record_declaration")?;
    Some((component, record))
}

/// Whether the name at `position` is a Java record's component.
pub fn is_record_component(text: &Rope, tree: &SyntaxTree, position: Position) -> bool {
    component_at(text, tree, position).is_some()
}

/// The chars where the record's explicit canonical constructors declare
/// the parameter of the component named at `position` (none for a
/// compact constructor, whose parameters are the components' names
/// themselves). A canonical constructor is the one whose parameters'
/// types are the components', in order.
pub fn canonical_parameters(text: &Rope, tree: &SyntaxTree, position: Position) -> Vec<usize> {
    let Some((component, record)) = component_at(text, tree, position) else {
        return Vec::new();
    };
    let components = parameters_of(record);
    let Some(index) = components.iter().position(|c| c.id() == component.id()) else {
        return Vec::new();
    };
    let types: Vec<String> = components.iter().map(|&c| written(text, c)).collect();
    let Some(body) = record.child_by_field_name("body") else {
        return Vec::new();
    };
    let mut c = body.walk();
    let constructors = body
        .named_children(&mut c)
        .filter(|m| m.kind() == "constructor_declaration");
    let mut declared = Vec::new();
    for constructor in constructors {
        let parameters = parameters_of(constructor);
        let canonical = parameters.len() == types.len()
            && parameters
                .iter()
                .zip(&types)
                .all(|(&p, t)| written(text, p) == *t);
        let name = (parameters.get(index))
            .filter(|_| canonical)
            .and_then(|&p| parameter_name(p));
        if let Some(name) = name {
            declared.push(byte_to_char(text, name.start_byte()));
        }
    }
    declared
}

/// A record's components, a constructor's parameters.
fn parameters_of(declaration: Node<'_>) -> Vec<Node<'_>> {
    let Some(list) = declaration.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut c = list.walk();
    let parameters = list
        .named_children(&mut c)
        .filter(|p| matches!(p.kind(), "formal_parameter" | "spread_parameter"))
        .collect();
    parameters
}

/// A parameter's name: a varargs one's is its declarator's.
fn parameter_name(parameter: Node<'_>) -> Option<Node<'_>> {
    match parameter.kind() {
        "spread_parameter" => {
            let mut c = parameter.walk();
            let declarator = parameter
                .named_children(&mut c)
                .find(|n| n.kind() == "variable_declarator");
            declarator?.child_by_field_name("name")
        }
        _ => parameter.child_by_field_name("name"),
    }
}

/// A parameter's type as written, its blanks and modifiers aside
/// (`Map<K,V>` is `Map<K, V>`, `final int` is `int`, a varargs one's
/// `String...`).
fn written(text: &Rope, parameter: Node<'_>) -> String {
    let name = parameter.child_by_field_name("name");
    let mut c = parameter.walk();
    let mut t = String::new();
    for part in parameter.children(&mut c) {
        let skipped = matches!(part.kind(), "modifiers" | "variable_declarator")
            || name.is_some_and(|n| n.id() == part.id());
        if !skipped {
            t.push_str(&text.byte_slice(part.byte_range()).to_string());
        }
    }
    t.retain(|c| !c.is_whitespace());
    t
}
