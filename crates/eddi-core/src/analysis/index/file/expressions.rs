//! Expressions and their values: names, attributes, calls (`super()`
//! included), subscripts, operator chains, f-strings, `match` patterns.

use super::nodes::*;
use super::*;
use crate::analysis::scope::is_builtin;

impl<'s, 't> Scanner<'s, 't> {
    /// Only f-strings (and t-strings) hold expressions, in `interpolation` nodes.
    pub(super) fn string(&mut self, node: Node<'t>, ctx: Ctx) {
        // Only f-strings hold expressions (in `interpolation` nodes).
        let start = node.start_byte();
        let prefix = self
            .src
            .as_bytes()
            .get(start..(start + 3).min(node.end_byte()));
        if prefix.is_some_and(|p| {
            p.iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .any(|b| matches!(b, b'f' | b'F' | b't' | b'T'))
        }) {
            self.children(node, ctx);
        }
    }

    pub(super) fn operator_chain(&mut self, node: Node<'t>, ctx: Ctx) {
        // Long chains (`a + b + c …`) nest to the left: walk the left
        // spine in a loop instead of recursing once per operator.
        let mut rights = Vec::new();
        let mut left = node;
        while kind_name(left) == "binary_operator"
            || (kind_name(left) == "boolean_operator" && !self.is_and(left))
        {
            if let Some(r) = field(left, fields().right) {
                rights.push(r);
            }
            match field(left, fields().left) {
                Some(l) => left = l,
                None => break,
            }
        }
        if left != node {
            self.visit(left, ctx);
        }
        for r in rights.into_iter().rev() {
            self.visit(r, ctx);
        }
    }

    /// Visits an expression and returns its value.
    pub(super) fn expr(&mut self, node: Node<'t>, ctx: Ctx) -> ValueId {
        let Some(ctx) = self.deeper(ctx) else {
            return UNKNOWN;
        };
        match Kind::of(node) {
            Kind::Identifier => {
                let text = self.text(node);
                let name = self.intern(text);
                self.model_ref(node, name, ctx.scope);
                let scope = &self.scopes[ctx.scope];
                if scope.kind == ScopeKind::Module
                    && is_builtin(text)
                    && !scope.bindings.contains_key(&name)
                {
                    // Module code runs in order: a builtin's name read before
                    // the module binds it (`sorted = sorted`) is the builtin.
                    let v = self.free(name);
                    self.add_ref(node, v, ctx);
                    return v;
                }
                let slot = self.pending_read(ctx.scope, name);
                self.add_ref(node, slot, ctx);
                self.narrowed
                    .iter()
                    .rev()
                    .find(|n| n.scope == ctx.scope && n.name == name)
                    .map_or(slot, |n| n.instance)
            }
            Kind::Attribute => {
                let [object, attribute] = fields_of(node, [fields().object, fields().attribute]);
                let base = match object {
                    Some(o) => self.expr(o, ctx),
                    None => UNKNOWN,
                };
                match attribute {
                    Some(a) => {
                        let name = self.intern(self.text(a));
                        self.model_attribute(node, a, name, ctx.scope);
                        let v = self.push(Value::Attr { base, name });
                        self.add_ref(a, v, ctx);
                        v
                    }
                    None => UNKNOWN,
                }
            }
            Kind::Call => {
                let [function, arguments] =
                    fields_of(node, [fields().function, fields().arguments]);
                let mut callee = UNKNOWN;
                if let Some(f) = function {
                    let before = self.file.refs.len();
                    callee = self.expr(f, ctx);
                    if matches!(Kind::of(f), Kind::Identifier | Kind::Attribute)
                        && self.file.refs.len() > before
                    {
                        if let Some(r) = self.file.refs.last_mut() {
                            r.is_call = true;
                        }
                    }
                }
                let is_super = function
                    .is_some_and(|f| Kind::of(f) == Kind::Identifier && self.text(f) == "super");
                let mut explicit_class = None;
                let mut copied = None;
                if let Some(args) = arguments {
                    if is_super {
                        explicit_class = self.super_arguments(args, ctx);
                    } else if let Some(of) = function
                        .filter(|&f| self.may_copy(f))
                        .and_then(|_| sole_argument(args))
                    {
                        copied = Some(self.expr(of, ctx));
                    } else {
                        self.visit(args, ctx);
                    }
                }
                match (explicit_class, ctx.method_of) {
                    (Some(class), _) => self.push(Value::SuperOf(class)),
                    (None, Some(class)) if is_super => self.push(Value::Super(class)),
                    _ => match copied {
                        Some(of) => self.push(Value::Copy { callee, of }),
                        None => self.push(Value::Call(callee)),
                    },
                }
            }
            // `xs[i]`, `by_name[k]`: an item (a slice `xs[1:]` is not one)
            Kind::Subscript => {
                let base = field(node, fields().value).map_or(UNKNOWN, |v| self.expr(v, ctx));
                let mut sliced = false;
                for index in self.children_in(fields().subscript, node) {
                    sliced |= kind_name(index) == "slice";
                    self.visit(index, ctx);
                }
                if base == UNKNOWN || sliced {
                    UNKNOWN
                } else {
                    self.push(Value::Index(base))
                }
            }
            Kind::ParenthesizedExpression => match node.named_child(0) {
                Some(inner) if node.named_child_count() == 1 => self.expr(inner, ctx),
                _ => {
                    self.children(node, ctx);
                    UNKNOWN
                }
            },
            _ => {
                self.visit(node, ctx);
                UNKNOWN
            }
        }
    }

    /// A callee that may be `copy.copy` or `copy.deepcopy` (`copy(x)`
    /// after `from copy import copy`): what the call gives is resolved at
    /// query time ([`Value::Copy`]).
    fn may_copy(&self, function: Node<'t>) -> bool {
        let text = self.text(function);
        match Kind::of(function) {
            Kind::Identifier => matches!(text, "copy" | "deepcopy"),
            Kind::Attribute => text.ends_with(".copy") || text.ends_with(".deepcopy"),
            _ => false,
        }
    }

    /// Visits the arguments of a `super(…)` call; returns the value of the
    /// class of `super(C, obj)` when the call names one (a bare `super()`
    /// or a `super(*args)` does not).
    pub(super) fn super_arguments(&mut self, args: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let mut arguments = self.named_children(args);
        arguments.retain(|&a| kind_name(a) != "comment");
        let mut class = None;
        for (i, argument) in arguments.into_iter().enumerate() {
            let positional = !matches!(
                kind_name(argument),
                "keyword_argument" | "list_splat" | "dictionary_splat"
            );
            if i == 0 && positional {
                class = Some(self.expr(argument, ctx));
            } else {
                self.visit(argument, ctx);
            }
        }
        class
    }

    /// A `match` pattern: bare names capture (bind), dotted names are
    /// values read (`Color.RED`), class patterns read their class
    /// (`Point(x=0)`; the keyword names attributes, not variables).
    pub(super) fn pattern(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(ctx) = self.deeper(ctx) else {
            return;
        };
        match kind_name(node) {
            "dotted_name" if node.named_child_count() == 1 => {
                if let Some(id) = node.named_child(0) {
                    self.bind_targets(id, ctx, false, BindingKind::Other, node);
                }
            }
            "dotted_name" => {
                self.dotted_value(node, ctx);
            }
            "identifier" => self.bind_targets(node, ctx, false, BindingKind::Other, node),
            "class_pattern" => {
                let parts = self.named_children(node);
                for (i, p) in parts.into_iter().enumerate() {
                    if i == 0 && kind_name(p) == "dotted_name" {
                        self.dotted_value(p, ctx);
                    } else {
                        self.pattern(p, ctx);
                    }
                }
            }
            "keyword_pattern" => {
                let parts = self.named_children(node);
                for p in parts.into_iter().skip(1) {
                    self.pattern(p, ctx);
                }
            }
            "string" | "integer" | "float" | "true" | "false" | "none" | "comment" => {}
            _ => self.children_patterns(node, ctx),
        }
    }

    pub(super) fn children_patterns(&mut self, node: Node<'t>, ctx: Ctx) {
        let parts = self.named_children(node);
        for p in parts {
            self.pattern(p, ctx);
        }
    }

    /// `a.b.c` read as a value: a use of `a`, then of each attribute.
    pub(super) fn dotted_value(&mut self, node: Node<'t>, ctx: Ctx) {
        let parts = self.named_children(node);
        let mut value = UNKNOWN;
        for (i, p) in parts.into_iter().enumerate() {
            if i == 0 {
                value = self.expr(p, ctx);
            } else {
                let name = self.intern(self.text(p));
                value = self.push(Value::Attr { base: value, name });
                self.add_ref(p, value, ctx);
            }
        }
    }
}

/// The one argument of a call, when it is a plain positional one.
fn sole_argument(arguments: Node<'_>) -> Option<Node<'_>> {
    if kind_name(arguments) != "argument_list" || arguments.named_child_count() != 1 {
        return None;
    }
    let argument = arguments.named_child(0)?;
    (!matches!(
        kind_name(argument),
        "keyword_argument" | "list_splat" | "dictionary_splat" | "comment"
    ))
    .then_some(argument)
}
