//! TypeScript's parameters declared as a type, and the object literals
//! the calls of their function pass them: such a literal is a value of
//! the type as surely as one declared as it (`const i: Item = {…}`), as
//! tsc checks its keys against the parameter's type. The index finds the
//! calls (`refactor::rename::braces::argument_literals`); this module
//! reads one file's tree on either side.

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::SyntaxTree;

/// A parameter whose annotation names a type: how a call reaches its
/// function, and which of the call's arguments it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedParameter {
    /// The function as its file's definitions name it: `add`,
    /// `Cart.add`, or the class (`Cart`) for its constructor.
    pub callable: String,
    /// Whether a call is `new callable(…)`: a constructor's parameter.
    pub constructor: bool,
    /// The argument's place among the call's (a `this` parameter is none).
    pub index: usize,
    /// Declared as an array of the type (`items: Item[]`): the literals
    /// are the elements of an array literal passed there.
    pub elements: bool,
    /// The generic wrapping the type, which must be TypeScript's own for
    /// the keys to be the type's (`Partial<Item>`: `Partial`).
    pub wrapper: Option<String>,
}

/// The generics whose values have the keys of their one type argument.
const KEY_PRESERVING: &[&str] = &["Partial", "Readonly", "Required"];

/// The parameter the type name at char `at` is the annotation of: a
/// named parameter (not a rest one) of a top-level function, or of a
/// method or constructor of a top-level class, none of them overloaded
/// (an overload's call may be another signature's). `None` for any
/// other use of the type.
pub fn parameter_typed_at(text: &Rope, tree: &SyntaxTree, at: usize) -> Option<TypedParameter> {
    let byte = text.char_to_byte(at);
    let name = tree.root().named_descendant_for_byte_range(byte, byte)?;
    if name.kind() != "type_identifier" {
        return None;
    }
    let source = |n: Node<'_>| text.byte_slice(n.byte_range()).to_string();
    let mut declared = name.parent()?;
    let mut elements = false;
    let mut wrapper = None;
    match declared.kind() {
        "array_type" => {
            elements = true;
            declared = declared.parent()?;
        }
        "type_arguments" if declared.named_child_count() == 1 => {
            let generic = declared.parent().filter(|g| g.kind() == "generic_type")?;
            let written = source(generic.child_by_field_name("name")?);
            if !KEY_PRESERVING.contains(&written.as_str()) {
                return None;
            }
            wrapper = Some(written);
            declared = generic.parent()?;
        }
        _ => {}
    }
    let parameter = declared
        .parent()
        .filter(|_| declared.kind() == "type_annotation")
        .filter(|p| matches!(p.kind(), "required_parameter" | "optional_parameter"))?;
    if parameter
        .child_by_field_name("pattern")
        .is_some_and(|p| p.kind() == "rest_pattern")
    {
        return None;
    }
    let parameters = parameter
        .parent()
        .filter(|p| p.kind() == "formal_parameters")?;
    let mut c = parameters.walk();
    let index = parameters
        .named_children(&mut c)
        .filter(|p| !is_this_parameter(*p))
        .position(|p| p == parameter)?;
    let function = parameters.parent()?;
    let (callable, constructor) = callable_of(function, &source)?;
    Some(TypedParameter {
        callable,
        constructor,
        index,
        elements,
        wrapper,
    })
}

/// The object literals a call whose callee's name is at char `at` passes
/// `parameter` (the start char of each): its argument there, or the
/// elements of the array literal it passes an array parameter. None
/// where a spread argument comes first (the places would shift) or the
/// name is not a call's callee.
pub fn argument_literals(
    text: &Rope,
    tree: &SyntaxTree,
    at: usize,
    parameter: &TypedParameter,
) -> Vec<usize> {
    let byte = text.char_to_byte(at);
    let Some(name) = tree.root().named_descendant_for_byte_range(byte, byte) else {
        return Vec::new();
    };
    let Some(arguments) = call_arguments(name, parameter.constructor) else {
        return Vec::new();
    };
    let mut c = arguments.walk();
    let passed: Vec<Node<'_>> = arguments.named_children(&mut c).collect();
    if passed
        .iter()
        .take(parameter.index + 1)
        .any(|a| a.kind() == "spread_element")
    {
        return Vec::new();
    }
    let Some(argument) = passed.get(parameter.index) else {
        return Vec::new();
    };
    let literals: Vec<Node<'_>> = match (argument.kind(), parameter.elements) {
        ("object", false) => vec![*argument],
        ("array", true) => {
            let mut c = argument.walk();
            let elements: Vec<Node<'_>> = argument.named_children(&mut c).collect();
            elements
                .into_iter()
                .filter(|e| e.kind() == "object")
                .collect()
        }
        _ => Vec::new(),
    };
    literals
        .iter()
        .map(|l| text.byte_to_char(l.start_byte()))
        .collect()
}

/// The arguments of the call whose callee's name `name` is (`f(…)`,
/// `o.f(…)`, `o?.f(…)`; `new C(…)` for a constructor).
fn call_arguments(name: Node<'_>, constructor: bool) -> Option<Node<'_>> {
    let parent = name.parent()?;
    let (call, callee) = match (constructor, parent.kind()) {
        (true, "new_expression") => (parent, name),
        (false, "call_expression") => (parent, name),
        (false, "member_expression") if parent.child_by_field_name("property") == Some(name) => {
            (parent.parent()?, parent)
        }
        _ => return None,
    };
    let field = match constructor {
        true => "constructor",
        false => "function",
    };
    if call.child_by_field_name(field) != Some(callee) {
        return None;
    }
    call.child_by_field_name("arguments")
        .filter(|a| a.kind() == "arguments")
}

/// Whether a parameter is TypeScript's `this` parameter, which no
/// argument passes.
fn is_this_parameter(parameter: Node<'_>) -> bool {
    parameter
        .child_by_field_name("pattern")
        .is_some_and(|p| p.kind() == "this")
}

/// How a call reaches `function` — its name as its file's definitions
/// name it, and whether it is a constructor — for a top-level function
/// (`function add`, `const add = (…) => …`) or a method of a top-level
/// class, written once (no overload signatures beside it).
fn callable_of(function: Node<'_>, source: &impl Fn(Node<'_>) -> String) -> Option<(String, bool)> {
    match function.kind() {
        "function_declaration" | "function_signature" => {
            let name = source(function.child_by_field_name("name")?);
            let container = top_level_container(function)?;
            (written_once(container, &name, source)).then_some((name, false))
        }
        "arrow_function" | "function_expression" => {
            let declarator = function
                .parent()
                .filter(|d| d.kind() == "variable_declarator")?;
            let declaration = declarator
                .parent()
                .filter(|d| d.kind() == "lexical_declaration")?;
            top_level_container(declaration)?;
            // (a constant declared with a type is called as that type)
            if declarator.child_by_field_name("type").is_some() {
                return None;
            }
            let name = declarator.child_by_field_name("name")?;
            (name.kind() == "identifier").then(|| (source(name), false))
        }
        "method_definition" => {
            let name = source(function.child_by_field_name("name")?);
            let body = function.parent().filter(|b| b.kind() == "class_body")?;
            let class = body.parent().filter(|c| {
                matches!(c.kind(), "class_declaration" | "abstract_class_declaration")
            })?;
            top_level_container(class)?;
            let class_name = source(class.child_by_field_name("name")?);
            if !written_once(body, &name, source) {
                return None;
            }
            match name.as_str() {
                "constructor" => Some((class_name, true)),
                _ => Some((format!("{class_name}.{name}"), false)),
            }
        }
        _ => None,
    }
}

/// The program a top-level declaration is in (through its `export`).
fn top_level_container(declaration: Node<'_>) -> Option<Node<'_>> {
    let parent = declaration.parent()?;
    let parent = match parent.kind() {
        "export_statement" => parent.parent()?,
        _ => parent,
    };
    (parent.kind() == "program").then_some(parent)
}

/// Whether `container` (a program or a class body) declares one
/// function or method named `name`: no overload signatures.
fn written_once(container: Node<'_>, name: &str, source: &impl Fn(Node<'_>) -> String) -> bool {
    let mut c = container.walk();
    let written = container
        .named_children(&mut c)
        .map(|child| match child.kind() {
            "export_statement" => child.child_by_field_name("declaration").unwrap_or(child),
            _ => child,
        })
        .filter(|child| {
            matches!(
                child.kind(),
                "function_declaration"
                    | "function_signature"
                    | "method_definition"
                    | "method_signature"
                    | "abstract_method_signature"
            ) && child
                .child_by_field_name("name")
                .is_some_and(|n| source(n) == name)
        })
        .count();
    written == 1
}
