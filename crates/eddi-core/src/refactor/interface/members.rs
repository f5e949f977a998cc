//! What the interface declares: the class's public methods (see the
//! parent module's doc for which), each as the stub the interface gets,
//! and the proof that its signature can be written above the class.

use tree_sitter::Node;

use super::{canonical, internal, refused};
use crate::analysis::index::file::FileIndex;
use crate::analysis::scope::{Resolution, ScopeKind};
use crate::refactor::{Parsed, RefactorError};

/// The dunders through which code uses an object (calling it, its length,
/// iterating, indexing, `with`, `async with`/`for`, `await`, `os.fspath`):
/// part of what a class offers, so the interface declares them.
pub(super) const USAGE_DUNDERS: &[&str] = &[
    "__call__",
    "__len__",
    "__length_hint__",
    "__iter__",
    "__next__",
    "__reversed__",
    "__contains__",
    "__getitem__",
    "__setitem__",
    "__delitem__",
    "__enter__",
    "__exit__",
    "__aenter__",
    "__aexit__",
    "__aiter__",
    "__anext__",
    "__await__",
    "__fspath__",
];

/// Whether the interface declares a method of this name.
fn declared(name: &str) -> bool {
    !name.starts_with('_') || USAGE_DUNDERS.contains(&name)
}

/// What the interface declares, in the class's order.
pub(super) struct Declared<'t> {
    pub members: Vec<Member<'t>>,
    /// The class defines `__slots__` (or may: a class decorator can make
    /// them): the interface gets `__slots__ = ()`.
    pub slots: bool,
    /// The `super().m` reads of declared methods in their bodies.
    pub supers: Vec<SuperCall>,
}

/// `super().name` in the body of `method`.
pub(super) struct SuperCall {
    pub method: String,
    pub name: String,
    /// `path:line:col`.
    pub at: String,
}

/// One `def` of the class the interface declares.
pub(super) struct Member<'t> {
    pub name: String,
    /// The `function_definition`.
    def: Node<'t>,
    /// The decorators the stub keeps, as written after the `@`.
    decorators: Vec<String>,
    role: Role,
    /// The method's indentation.
    pub indent: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Method,
    /// An `@overload` variant: a stub as it is, not abstract.
    Overload,
    /// A property's `setter`/`getter`/`deleter`.
    Accessor,
}

/// What becomes of a method's decorator in the stub.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decorator {
    /// `staticmethod`, `classmethod`, `property`: written as it is.
    Keep,
    /// `functools.cached_property`: read as an attribute, a `property`.
    AsProperty,
    /// Says nothing of the signature (`abstractmethod`, `final`,
    /// `lru_cache`): left out.
    Drop,
    Overload,
    Accessor,
}

/// Reads the class's methods; refuses when it declares none or when one's
/// signature cannot be reproduced above the class.
pub(super) fn collect<'t>(
    file: &'t Parsed,
    module: &FileIndex,
    class: Node<'t>,
    class_name: &str,
) -> Result<Declared<'t>, RefactorError> {
    let body = class
        .child_by_field_name("body")
        .ok_or_else(|| internal("a class without a body"))?;
    let mut members: Vec<Member<'t>> = Vec::new();
    // a decorator that may change a method's signature, by method
    let mut unknown: Vec<(String, String, String)> = Vec::new();
    let mut slots = false;
    let mut cursor = body.walk();
    for statement in body.named_children(&mut cursor) {
        let (outer, def) = match statement.kind() {
            "function_definition" => (statement, statement),
            "decorated_definition" => match statement.child_by_field_name("definition") {
                Some(def) if def.kind() == "function_definition" => (statement, def),
                _ => continue,
            },
            "expression_statement" => {
                slots |= assigns(file, statement, "__slots__");
                continue;
            }
            _ => continue,
        };
        let Some(name) = def.child_by_field_name("name").map(|n| file.node_text(n)) else {
            continue;
        };
        if !declared(&name) {
            continue;
        }
        let mut decorators = Vec::new();
        let mut role = Role::Method;
        let mut unknown_here = Vec::new();
        let mut c = outer.walk();
        for decorator in outer
            .named_children(&mut c)
            .filter(|d| d.kind() == "decorator")
        {
            let Some(expression) = decorator.named_child(0) else {
                continue;
            };
            let callee = match expression.kind() {
                "call" => expression
                    .child_by_field_name("function")
                    .unwrap_or(expression),
                _ => expression,
            };
            let callee_text = file.node_text(callee);
            match classify(module, &callee_text, &name) {
                Some(Decorator::Keep) => decorators.push(file.source_of(expression)),
                Some(Decorator::AsProperty) => decorators.push("property".to_string()),
                Some(Decorator::Drop) => {}
                Some(Decorator::Overload) => {
                    role = Role::Overload;
                    decorators.push(file.source_of(expression));
                }
                Some(Decorator::Accessor) => {
                    role = Role::Accessor;
                    decorators.push(file.source_of(expression));
                }
                None => unknown_here.push((name.clone(), callee_text, file.place(decorator))),
            }
        }
        if role == Role::Method {
            // a redefinition replaces what came before, but for the
            // `@overload` variants of an implementation
            members.retain(|m| m.name != name || m.role == Role::Overload);
            unknown.retain(|(method, _, _)| *method != name);
        }
        unknown.extend(unknown_here);
        members.push(Member {
            name,
            def,
            decorators,
            role,
            indent: indent_of(file, outer),
        });
    }
    if let Some((method, decorator, at)) = unknown.first() {
        return Err(refused(format!(
            "the signature of {class_name}.{method} cannot be reproduced: its decorator @{decorator} at {at} may change how it is called"
        )));
    }
    if members.is_empty() {
        return Err(refused(format!(
            "{class_name} has no public methods to declare (names not starting with _, or {})",
            USAGE_DUNDERS.join(", ")
        )));
    }
    for member in &members {
        member.check_signature(file, class, class_name)?;
    }
    let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
    let mut supers = Vec::new();
    for member in members.iter().filter(|m| m.role != Role::Overload) {
        if let Some(body) = member.def.child_by_field_name("body") {
            super_calls(file, body, &member.name, &names, &mut supers);
        }
    }
    Ok(Declared {
        members,
        slots,
        supers,
    })
}

impl Member<'_> {
    /// Whether its stub is marked abstract (in an abstract base class).
    pub fn is_abstract(&self) -> bool {
        self.role != Role::Overload
    }

    /// Its stub: the decorators it keeps, `@<abstract>` when given, the
    /// header as written and the docstring or `...`.
    pub fn stub(&self, file: &Parsed, abstract_marker: Option<&str>) -> String {
        let mut out = String::new();
        for decorator in &self.decorators {
            out.push_str(&format!("{}@{decorator}\n", self.indent));
        }
        if let Some(marker) = abstract_marker {
            out.push_str(&format!("{}@{marker}\n", self.indent));
        }
        let body = self.def.child_by_field_name("body");
        let colon = header_end(self.def);
        let header = file.src()[self.def.start_byte()..colon].replace("\r\n", "\n");
        out.push_str(&self.indent);
        out.push_str(&header);
        match body.and_then(docstring) {
            Some(doc) => {
                let indent = if same_line_as_header(file, self.def, doc) {
                    format!("{}{}", self.indent, unit_of(&self.indent))
                } else {
                    indent_of(file, doc)
                };
                out.push_str(&format!("\n{indent}{}\n", file.source_of(doc)));
            }
            None => out.push_str(" ...\n"),
        }
        out
    }

    /// Refuses a signature the interface cannot say as the class does: a
    /// default that is a call (the interface would make it again at
    /// import) or an annotation or default naming a binding of the class
    /// body (the interface, above the class, cannot see it).
    fn check_signature(
        &self,
        file: &Parsed,
        class: Node<'_>,
        class_name: &str,
    ) -> Result<(), RefactorError> {
        let method = format!("{class_name}.{}", self.name);
        let Some(params) = self.def.child_by_field_name("parameters") else {
            return Ok(());
        };
        let mut cursor = params.walk();
        for param in params.named_children(&mut cursor) {
            if !matches!(
                param.kind(),
                "default_parameter" | "typed_default_parameter"
            ) {
                continue;
            }
            let Some(value) = param.child_by_field_name("value") else {
                continue;
            };
            if let Some(effect) = effect_in(value) {
                let name = param
                    .child_by_field_name("name")
                    .map(|n| file.node_text(n))
                    .unwrap_or_default();
                return Err(refused(format!(
                    "the default of {method}'s parameter {name} (`{}`) has {effect}: the interface, evaluating it again at import, would not say the same",
                    file.node_text(value)
                )));
            }
        }
        let scopes = file.scopes();
        let class_scope = scopes
            .scopes
            .iter()
            .rposition(|s| {
                s.kind == ScopeKind::Class
                    && s.range.start <= file.chars(class).start
                    && s.range.end >= file.chars(class).end
            })
            .ok_or_else(|| internal("the class has no scope"))?;
        let header = file.char_of(params.start_byte())..file.char_of(header_end(self.def));
        let seen = scopes.references.iter().find(|r| {
            header.start <= r.range.start
                && r.range.end <= header.end
                && r.resolution == Resolution::Scope(class_scope)
                && !(r.in_annotation && scopes.future_annotations)
        });
        if let Some(r) = seen {
            let what = if r.in_annotation {
                "an annotation"
            } else {
                "a default"
            };
            return Err(refused(format!(
                "{what} of {method} at {} names {}, which the body of {class_name} binds: the interface, defined above the class, cannot see it",
                file.position(r.range.start),
                r.name
            )));
        }
        Ok(())
    }
}

/// What in a default value would do something when evaluated again: a
/// call, an `await`, a `yield`, an assignment expression (not inside a
/// `lambda`, whose body does not run).
fn effect_in(value: Node<'_>) -> Option<&'static str> {
    let mut stack = vec![value];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "lambda" => continue,
            "call" => return Some("a call"),
            "await" => return Some("an await"),
            "yield" => return Some("a yield"),
            "named_expression" => return Some("an assignment expression"),
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    None
}

/// Where a function's header ends: after the `:` before its body.
fn header_end(def: Node<'_>) -> usize {
    let body_start = def
        .child_by_field_name("body")
        .map_or(def.end_byte(), |b| b.start_byte());
    let mut cursor = def.walk();
    def.children(&mut cursor)
        .filter(|c| c.kind() == ":" && c.end_byte() <= body_start)
        .last()
        .map_or(body_start, |c| c.end_byte())
}

fn same_line_as_header(file: &Parsed, def: Node<'_>, doc: Node<'_>) -> bool {
    let colon = header_end(def);
    file.text().byte_to_line(colon.min(file.text().len_bytes())) == doc.start_position().row
}

/// A function body's docstring statement.
fn docstring(body: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = body.walk();
    let first = body
        .named_children(&mut cursor)
        .find(|n| n.kind() != "comment")?;
    if first.kind() != "expression_statement" || first.named_child_count() != 1 {
        return None;
    }
    let value = first.named_child(0)?;
    matches!(value.kind(), "string" | "concatenated_string").then_some(first)
}

/// Whether an expression statement assigns `name` (`__slots__ = …`,
/// `__slots__: tuple = …`).
fn assigns(file: &Parsed, statement: Node<'_>, name: &str) -> bool {
    let Some(assignment) = statement.named_child(0) else {
        return false;
    };
    assignment.kind() == "assignment"
        && assignment
            .child_by_field_name("left")
            .is_some_and(|l| l.kind() == "identifier" && file.node_text(l) == name)
}

/// What becomes of a decorator (`callee` as written) of method `method`;
/// `None` when it may change the signature.
fn classify(module: &FileIndex, callee: &str, method: &str) -> Option<Decorator> {
    if let Some((object, accessor)) = callee.rsplit_once('.') {
        if object.trim() == method && matches!(accessor.trim(), "setter" | "getter" | "deleter") {
            return Some(Decorator::Accessor);
        }
    }
    match canonical(module, callee)?.as_str() {
        "staticmethod" | "classmethod" | "property" => Some(Decorator::Keep),
        "functools.cached_property" | "abc.abstractproperty" => Some(Decorator::AsProperty),
        "abc.abstractmethod"
        | "typing.final"
        | "typing_extensions.final"
        | "typing.override"
        | "typing_extensions.override"
        | "functools.lru_cache"
        | "functools.cache" => Some(Decorator::Drop),
        "typing.overload" | "typing_extensions.overload" => Some(Decorator::Overload),
        _ => None,
    }
}

/// The `super().name` reads of `names` in a method's body (not in a class
/// nested in it, whose `super()` is its own).
fn super_calls(
    file: &Parsed,
    body: Node<'_>,
    method: &str,
    names: &[&str],
    out: &mut Vec<SuperCall>,
) {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "class_definition" {
            continue;
        }
        if n.kind() == "attribute" {
            let object = n.child_by_field_name("object");
            let is_super = object.is_some_and(|o| {
                o.kind() == "call"
                    && o.child_by_field_name("function")
                        .is_some_and(|f| f.kind() == "identifier" && file.node_text(f) == "super")
            });
            if let (true, Some(attribute)) = (is_super, n.child_by_field_name("attribute")) {
                let name = file.node_text(attribute);
                if names.contains(&name.as_str()) {
                    out.push(SuperCall {
                        method: method.to_string(),
                        name,
                        at: file.place(n),
                    });
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
}

/// The whitespace before a node on its line, when only whitespace is; else
/// (a one-line class) the line's indentation and one unit more.
fn indent_of(file: &Parsed, node: Node<'_>) -> String {
    let line = file.text().line(node.start_position().row).to_string();
    let lead: String = line
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    if lead.chars().count() == file.position(file.char_of(node.start_byte())).col {
        lead
    } else {
        format!("{lead}{}", unit_of(&lead))
    }
}

/// One indentation step in the style of `indent`.
fn unit_of(indent: &str) -> &'static str {
    if indent.starts_with('\t') {
        "\t"
    } else {
        "    "
    }
}
