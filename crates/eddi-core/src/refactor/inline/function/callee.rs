//! The function being inlined: its parameters and body, and the reasons
//! its body cannot stand in for a call (whatever the call).

use tree_sitter::Node;

use super::super::{refused, remove_statement, scope_name, Parsed};
use crate::analysis::index::Definition;
use crate::analysis::nodes::is_docstring;
use crate::analysis::scope::{Resolution, ScopeKind};
use crate::change::Indel;
use crate::refactor::{Project, RefactorError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ParamKind {
    Positional,
    Either,
    Keyword,
    /// `*args`: the extra positional arguments, as a tuple.
    Star,
    /// `**kwargs`: the extra keyword arguments, as a dict.
    DoubleStar,
}

impl ParamKind {
    pub fn is_packed(self) -> bool {
        matches!(self, ParamKind::Star | ParamKind::DoubleStar)
    }
}

pub(super) struct Param<'f> {
    pub name: String,
    pub default: Option<Node<'f>>,
    pub kind: ParamKind,
}

pub(super) struct Callee<'f> {
    pub file: &'f Parsed,
    /// The `def`.
    pub node: Node<'f>,
    /// The `def` with its decorators.
    pub outer: Node<'f>,
    pub name: String,
    /// The function's scope in `file.scopes()`.
    pub scope: usize,
    pub params: Vec<Param<'f>>,
    /// A method called through an instance or `self`: the first parameter
    /// is the receiver. (`@staticmethod`s are not.)
    pub bound: bool,
    /// The class of a method.
    pub class: Option<String>,
    /// The statements, the docstring left out.
    pub body: Vec<Node<'f>>,
    /// The expression of a body that is one `return <expr>`.
    pub returns: Option<Node<'f>>,
    /// A private name (`__x`) the body uses: Python mangles it with the
    /// name of the class it is written in.
    pub mangled: Option<String>,
}

impl<'f> Callee<'f> {
    pub fn read(
        file: &'f Parsed,
        definition: &Definition,
        full: &str,
    ) -> Result<Callee<'f>, RefactorError> {
        let at =
            crate::edit::position::to_char(file.text(), definition.location.position).unwrap_or(0);
        let byte = file.byte_of(at);
        let mut node = file
            .tree
            .root()
            .descendant_for_byte_range(byte, byte)
            .ok_or_else(|| {
                refused(format!(
                    "the definition of {full} is not where the index has it"
                ))
            })?;
        while node.kind() != "function_definition" || node.start_byte() != byte {
            node = node.parent().ok_or_else(|| {
                refused(format!(
                    "the definition of {full} is not where the index has it"
                ))
            })?;
        }
        let name = node
            .child_by_field_name("name")
            .map(|n| file.source_of(n))
            .unwrap_or_default();
        let scope = file
            .scopes()
            .scope_of_definition(file.char_of(node.start_byte()))
            .ok_or_else(|| refused(format!("{name} has no scope (internal error)")))?;
        let scopes = &file.scopes();
        let parent = scopes.scopes[scope].parent.unwrap_or(0);
        let class = match scopes.scopes[parent].kind {
            ScopeKind::Module => None,
            ScopeKind::Class => scopes.scopes[parent].name.clone(),
            _ => {
                return Err(refused(format!(
                    "{name} is nested in {}: its body may read that function's variables",
                    scope_name(scopes, parent)
                )))
            }
        };
        let at_name = node
            .child_by_field_name("name")
            .map(|n| file.char_of(n.start_byte()));
        if let Some(other) = scopes
            .bindings_of(parent, &name)
            .find(|b| Some(b.range.start) != at_name)
        {
            return Err(refused(format!(
                "{name} is also bound at {} in {}: a call may not run this definition",
                file.position(other.range.start),
                scope_name(scopes, parent)
            )));
        }
        let outer = node
            .parent()
            .filter(|p| p.kind() == "decorated_definition")
            .unwrap_or(node);
        let mut static_method = false;
        let mut c = outer.walk();
        for decorator in outer
            .named_children(&mut c)
            .filter(|d| d.kind() == "decorator")
        {
            let text = file.source_of(decorator);
            let text = text.trim_start_matches('@').trim();
            if text == "staticmethod" && class.is_some() {
                static_method = true;
                continue;
            }
            return Err(refused(format!(
                "{name} is decorated (@{text}): a call runs what the decorator made of it, not its body"
            )));
        }
        if file.src()[node.start_byte()..].starts_with("async") {
            return Err(refused(format!(
                "{name} is async: a call makes a coroutine"
            )));
        }
        let params = parameters(file, node, &name)?;
        let bound = class.is_some() && !static_method;
        if bound && params.is_empty() {
            return Err(refused(format!(
                "{name} is a method without a self parameter"
            )));
        }
        let block = node
            .child_by_field_name("body")
            .ok_or_else(|| refused(format!("{name} has no body")))?;
        let mut c = block.walk();
        let mut body: Vec<Node<'f>> = block
            .named_children(&mut c)
            .filter(|n| n.kind() != "comment")
            .collect();
        if body.first().is_some_and(|s| is_docstring(*s)) {
            body.remove(0);
        }
        let mangled = private_name(file, &body);
        let callee = Callee {
            mangled,
            file,
            node,
            outer,
            returns: match body.as_slice() {
                [only] if only.kind() == "return_statement" => only.named_child(0),
                _ => None,
            },
            name,
            scope,
            params,
            bound,
            class,
            body,
        };
        callee.check_body()?;
        Ok(callee)
    }

    /// What no call can inline: generators, nested definitions, scope
    /// declarations, `super()`, recursion, `locals()`.
    fn check_body(&self) -> Result<(), RefactorError> {
        let file = self.file;
        let name = &self.name;
        let mut stack: Vec<Node<'_>> = self.body.clone();
        while let Some(n) = stack.pop() {
            let at = file.at(n);
            let why = match n.kind() {
                "yield" => Some(format!("{name} is a generator (yield at {at})")),
                "await" => Some(format!("{name} awaits at {at}")),
                "function_definition" | "class_definition" => Some(format!(
                    "{name} defines a function or class at {at}: closures over its scope would change"
                )),
                "global_statement" | "nonlocal_statement" => Some(format!(
                    "{name} declares {} at {at}",
                    file.source_of(n)
                )),
                "identifier" if matches!(&*file.source_of(n), "super" | "__class__") => {
                    Some(format!("{name} calls super() at {at}: it only works in its class"))
                }
                _ => None,
            };
            if let Some(why) = why {
                return Err(refused(why));
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        let scopes = &file.scopes();
        let range = file.chars(self.node);
        let parent = scopes.scopes[self.scope].parent.unwrap_or(0);
        let calls_itself = scopes.references.iter().find(|r| {
            range.start <= r.range.start
                && r.range.end <= range.end
                && r.name == *name
                && r.resolution == Resolution::Scope(parent)
        });
        let self_name = self.params.first().map(|p| p.name.as_str());
        let through_self = scopes.attributes.iter().find(|a| {
            self.bound
                && range.start <= a.attribute_range.start
                && a.attribute_range.end <= range.end
                && a.attribute == *name
                && Some(a.object.as_str()) == self_name
                && a.object_resolution == Resolution::Scope(self.scope)
        });
        if let Some(at) = calls_itself
            .map(|r| r.range.start)
            .or(through_self.map(|a| a.attribute_range.start))
        {
            return Err(refused(format!(
                "{name} calls itself at {}",
                file.position(at)
            )));
        }
        // Names read through strings would not follow the substitution.
        if let Some(r) = scopes.references.iter().find(|r| {
            r.resolution == Resolution::Builtin
                && scopes.is_within(r.scope, self.scope)
                && matches!(r.name.as_str(), "locals" | "vars" | "eval" | "exec")
        }) {
            return Err(refused(format!(
                "{name} calls {}() at {}: its names may be read through strings",
                r.name,
                file.position(r.range.start)
            )));
        }
        Ok(())
    }

    /// A method that another class may override: `self.m()` might run that one.
    pub fn check_overrides(&self, project: &Project<'_>) -> Result<(), RefactorError> {
        if !self.bound {
            return Ok(());
        }
        let here = (self.file.path(), self.file.at(self.node));
        for path in project.index.paths() {
            let Some(f) = project.index.file_index(path) else {
                continue;
            };
            for d in f.defs_named(&self.name).iter().map(|&d| f.def(d)) {
                let subclassed = d.parent.is_some_and(|p| !f.def(p).bases.is_empty());
                if d.kind == crate::analysis::outline::SymbolKind::Method
                    && subclassed
                    && (path, d.position) != here
                {
                    return Err(refused(format!(
                        "{} is also defined by {} at {path}:{}: a call through self may run that one",
                        self.name,
                        f.def(d.parent.unwrap_or_default()).qualified,
                        d.position
                    )));
                }
            }
        }
        Ok(())
    }

    /// Why the definition must stay whatever the calls: listed in
    /// `__all__`, a special method (Python calls it), a method that may
    /// override one of a base class (calls through the base reach it).
    pub fn exported(&self, project: &Project<'_>) -> Option<String> {
        if self.name.starts_with("__") && self.name.ends_with("__") && self.name.len() > 4 {
            return Some(format!(
                "{} is a special method, called by Python itself: its definition is kept",
                self.name
            ));
        }
        if let Some(class) = &self.class {
            let class_node = self
                .outer
                .parent()
                .and_then(|block| block.parent())
                .filter(|c| c.kind() == "class_definition");
            // `class C(object)` has no base whose methods it could override
            let file = self.file;
            let has_bases = class_node
                .and_then(|c| c.child_by_field_name("superclasses"))
                .is_some_and(|b| {
                    let mut cursor = b.walk();
                    let bases: Vec<Node<'_>> = b.named_children(&mut cursor).collect();
                    bases.iter().any(|base| file.source_of(*base) != "object")
                });
            return has_bases.then(|| {
                format!(
                    "{} may override a method of a base class of {class}, called through the base: its definition is kept",
                    self.name
                )
            });
        }
        let index = project.index.file_index(self.file.path())?;
        let listed = index
            .all
            .as_ref()
            .is_some_and(|all| all.iter().any(|n| **n == *self.name));
        listed.then(|| format!("{} is listed in __all__: its definition is kept", self.name))
    }

    /// Deletes the definition, its decorators and the blank lines after it
    /// (before it, at the end of the file); `pass` when it was alone in
    /// its class.
    pub fn removal(&self) -> Indel {
        let file = self.file;
        let text = file.text();
        let alone = self.outer.prev_named_sibling().is_none()
            && self.outer.next_named_sibling().is_none()
            && self.outer.parent().is_some_and(|p| p.kind() == "block");
        if alone {
            return remove_statement(file, self.outer);
        }
        let lines = if text.len_chars() > 0 && text.char(text.len_chars() - 1) == '\n' {
            text.len_lines() - 1
        } else {
            text.len_lines()
        };
        let blank = |l: usize| text.line(l).chars().all(char::is_whitespace);
        let first = self.outer.start_position().row;
        let end_byte = crate::analysis::outline::content_end_byte(self.outer);
        let last = text.char_to_line(file.char_of(end_byte));
        let mut from = first;
        let mut to = last + 1;
        while to < lines && blank(to) {
            to += 1;
        }
        if to >= lines {
            to = lines;
            while from > 0 && blank(from - 1) {
                from -= 1;
            }
        }
        let end = if to >= text.len_lines() {
            text.len_chars()
        } else {
            text.line_to_char(to)
        };
        Indel::new(text.line_to_char(from)..end, "")
    }
}

fn private_name(file: &Parsed, body: &[Node<'_>]) -> Option<String> {
    let mut stack: Vec<Node<'_>> = body.to_vec();
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" {
            let text = file.source_of(n);
            if text.starts_with("__") && !text.ends_with("__") {
                return Some(text);
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    None
}

fn parameters<'f>(
    file: &'f Parsed,
    node: Node<'f>,
    name: &str,
) -> Result<Vec<Param<'f>>, RefactorError> {
    let mut out: Vec<Param<'f>> = Vec::new();
    let Some(list) = node.child_by_field_name("parameters") else {
        return Ok(out);
    };
    let mut keyword_only = false;
    let mut c = list.walk();
    for p in list.named_children(&mut c) {
        let mut splat = p.kind();
        if p.kind() == "typed_parameter" {
            if let Some(inner) = p.named_child(0) {
                if matches!(
                    inner.kind(),
                    "list_splat_pattern" | "dictionary_splat_pattern"
                ) {
                    splat = inner.kind();
                }
            }
        }
        match splat {
            "list_splat_pattern" | "dictionary_splat_pattern" => {
                let id = crate::analysis::outline::parameter_identifier(p).ok_or_else(|| {
                    refused(format!(
                        "{name} has a parameter Eddi cannot read: {}",
                        file.source_of(p)
                    ))
                })?;
                out.push(Param {
                    name: file.source_of(id),
                    default: None,
                    kind: if splat == "list_splat_pattern" {
                        ParamKind::Star
                    } else {
                        ParamKind::DoubleStar
                    },
                });
                keyword_only = true;
            }
            "keyword_separator" => keyword_only = true,
            "positional_separator" => {
                for q in &mut out {
                    q.kind = ParamKind::Positional;
                }
            }
            "comment" => {}
            _ => {
                let Some(id) = crate::analysis::outline::parameter_identifier(p) else {
                    return Err(refused(format!(
                        "{name} has a parameter Eddi cannot read: {}",
                        file.source_of(p)
                    )));
                };
                out.push(Param {
                    name: file.source_of(id),
                    default: p.child_by_field_name("value"),
                    kind: if keyword_only {
                        ParamKind::Keyword
                    } else {
                        ParamKind::Either
                    },
                });
            }
        }
    }
    Ok(out)
}
