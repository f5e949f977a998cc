//! Definitions and the scopes they open: functions and their parameters,
//! classes and their bases, lambdas, comprehensions.

use super::loops::Iterated;
use super::nodes::*;
use super::*;
use crate::analysis::outline::parameter_identifier;

impl<'s, 't> Scanner<'s, 't> {
    /// `@d def f` / `@d class C`: the decorators, then the definition.
    pub(super) fn decorated(&mut self, node: Node<'t>, ctx: Ctx) {
        let mut decorators = self.named_children(node);
        decorators.retain(|&c| kind_name(c) == "decorator");
        for d in &decorators {
            let before = self.file.refs.len();
            self.children(*d, ctx);
            // `@f` and `@mod.f` call f with the definition: a call as much
            // as `f(…)` is (`@f(…)` is one already)
            let applied = d
                .named_child(0)
                .is_some_and(|e| matches!(Kind::of(e), Kind::Identifier | Kind::Attribute));
            if applied && self.file.refs.len() > before {
                if let Some(r) = self.file.refs.last_mut() {
                    r.is_call = true;
                }
            }
        }
        if let Some(def) = field(node, fields().definition) {
            match kind_name(def) {
                "function_definition" => self.function(def, Some(&decorators), ctx),
                "class_definition" => self.class(def, Some(&decorators), ctx),
                _ => self.visit(def, ctx),
            }
        }
    }

    pub(super) fn qualified(&self, parent: Option<DefId>, name: &str) -> String {
        match parent {
            Some(p) => format!("{}.{}", self.file.defs[p as usize].qualified, name),
            None => name.to_string(),
        }
    }

    /// Adds a definition owned by `ctx.owner` and returns its value.
    pub(super) fn define(
        &mut self,
        text: &str,
        name: Name,
        kind: SymbolKind,
        position: Position,
        name_position: Position,
        ctx: Ctx,
    ) -> ValueId {
        let id = self.file.defs.len() as DefId;
        self.file.defs.push(Def {
            name,
            qualified: self.qualified(ctx.owner, text),
            kind,
            position,
            name_position,
            parent: ctx.owner,
            bases: Vec::new(),
            instance: false,
            value: None,
            returns: None,
            fixture: false,
        });
        if let Some(class) = ctx.class {
            self.file.members.entry(class).or_default().push(id);
        }
        self.push(Value::Def(id))
    }

    pub(super) fn function(&mut self, node: Node<'t>, decorators: Option<&[Node<'t>]>, ctx: Ctx) {
        let f = fields();
        let [name_node, return_type, parameters, body] =
            fields_of(node, [f.name, f.return_type, f.parameters, f.body]);
        let Some(name_node) = name_node else {
            return self.children(node, ctx);
        };
        let text = self.text(name_node);
        let name = self.intern(text);
        let kind = if ctx.class.is_some() {
            SymbolKind::Method
        } else {
            SymbolKind::Function
        };
        let (pos, name_pos) = (self.pos(node), self.pos(name_node));
        let value = self.define(text, name, kind, pos, name_pos, ctx);
        let def = (self.file.defs.len() - 1) as DefId;
        self.bind(
            ctx.scope,
            name,
            value,
            (name_node, BindingKind::Function, node),
        );
        let is_static = decorators.is_some_and(|ds| {
            ds.iter().any(|d| {
                d.named_child(0)
                    .is_some_and(|e| self.text(e) == "staticmethod")
            })
        });
        // Annotations and defaults are evaluated in the enclosing scope.
        if let Some(ret) = return_type {
            match ret.named_child(0) {
                Some(e)
                    if ret.named_child_count() == 1
                        && matches!(kind_name(e), "identifier" | "attribute") =>
                {
                    let v = self.annotation(|s| s.expr(e, ctx));
                    let text = self.text(e);
                    self.file.defs[def as usize].returns =
                        if ctx.class.is_some() && (text == "Self" || text.ends_with(".Self")) {
                            self.annotation_class(e, ctx, 0)
                        } else {
                            Some(v)
                        };
                }
                _ => {
                    self.annotation(|s| s.visit(ret, ctx));
                    // `-> "C"`, `-> Optional[C]`, `-> C | None`; `-> list[C]`
                    let returns = match self.annotated_collection(ret, ctx) {
                        Some(collection) => Some(collection),
                        None => self.annotation_class(ret, ctx, 0),
                    };
                    self.file.defs[def as usize].returns = returns;
                }
            }
            self.string_annotations(ret, ctx);
        }
        if node.child(0).is_some_and(|c| kind_name(c) == "async") {
            self.not_returning.push(def);
        }
        let requests = self.pytest_requests(def, text, decorators, ctx);
        let scope = self.new_scope(ScopeKind::Function, ctx.scope, node, Some(name));
        let inner = Ctx {
            scope,
            owner: Some(def),
            class: None,
            method_of: ctx.class,
            depth: ctx.depth,
        };
        if let Some(params) = parameters {
            let self_class = match ctx.class {
                Some(c) if !is_static => Some(c),
                _ => None,
            };
            self.parameters(params, ctx, inner, self_class, requests.as_ref());
        }
        if let Some(body) = body {
            self.children(body, inner);
        }
    }

    /// Binds parameters in `inner`, visits defaults and annotations in
    /// `outer`. A bare parameter of a pytest test or fixture is the
    /// fixture of its name (`requests`).
    pub(super) fn parameters(
        &mut self,
        params: Node<'t>,
        outer: Ctx,
        inner: Ctx,
        self_class: Option<DefId>,
        requests: Option<&pytest::Requests>,
    ) {
        // a comment is no parameter: `def loads(  # type: ignore\n self, …)`
        let mut list = self.named_children(params);
        list.retain(|&p| kind_name(p) != "comment");
        for (i, p) in list.into_iter().enumerate() {
            // most parameters are a bare name, which has no fields
            let [default, ty] = match kind_name(p) {
                "identifier" => [None, None],
                _ => fields_of(p, [fields().value, fields().r#type]),
            };
            if let Some(v) = default {
                self.visit(v, outer);
            }
            if let Some(t) = ty {
                self.annotation(|s| s.visit(t, outer));
                self.string_annotations(t, outer);
            }
            if let Some(id) = parameter_identifier(p) {
                let name = self.intern(self.text(id));
                if i == 0 {
                    self.scopes[inner.scope].first_param = Some(name);
                }
                let value = match (self_class, ty) {
                    (Some(c), _) if i == 0 && kind_name(p) == "identifier" => {
                        self.push(Value::SelfOf(c))
                    }
                    // `e: Engine` is an Engine (`*args: T` and `**kw: T` are not)
                    (_, Some(t))
                        if matches!(
                            kind_name(p),
                            "typed_parameter" | "typed_default_parameter"
                        ) && !matches!(
                            p.named_child(0).map(kind_name),
                            Some("list_splat_pattern" | "dictionary_splat_pattern")
                        ) =>
                    {
                        self.annotated(t, outer)
                    }
                    _ => match requests {
                        Some(r) if kind_name(p) == "identifier" && r.gives(name) => {
                            self.push(Value::Fixture {
                                function: r.function,
                                name,
                            })
                        }
                        _ => UNKNOWN,
                    },
                };
                self.bind(inner.scope, name, value, (id, BindingKind::Parameter, p));
            }
        }
    }

    pub(super) fn class(&mut self, node: Node<'t>, _decorators: Option<&[Node<'t>]>, ctx: Ctx) {
        let f = fields();
        let [name_node, superclasses, body] = fields_of(node, [f.name, f.superclasses, f.body]);
        let Some(name_node) = name_node else {
            return self.children(node, ctx);
        };
        let text = self.text(name_node);
        let name = self.intern(text);
        let mut bases = Vec::new();
        if let Some(args) = superclasses {
            let list = self.named_children(args);
            for a in list {
                if kind_name(a) == "keyword_argument" || kind_name(a) == "comment" {
                    self.visit(a, ctx);
                } else if kind_name(a) == "subscript" {
                    // a generic base, `Serializer[T]`: the class is `Serializer`
                    let value = field(a, fields().value);
                    let mut base = UNKNOWN;
                    let parts = self.named_children(a);
                    for part in parts {
                        if Some(part) == value {
                            base = self.expr(part, ctx);
                        } else {
                            self.visit(part, ctx);
                        }
                    }
                    bases.push(base);
                } else {
                    bases.push(self.expr(a, ctx));
                }
            }
        }
        let (pos, name_pos) = (self.pos(node), self.pos(name_node));
        let value = self.define(text, name, SymbolKind::Class, pos, name_pos, ctx);
        let def = (self.file.defs.len() - 1) as DefId;
        self.file.defs[def as usize].bases = bases;
        self.bind(
            ctx.scope,
            name,
            value,
            (name_node, BindingKind::Class, node),
        );
        let scope = self.new_scope(ScopeKind::Class, ctx.scope, node, Some(name));
        if let Some(body) = body {
            let inner = Ctx {
                scope,
                owner: Some(def),
                class: Some(def),
                method_of: None,
                depth: ctx.depth,
            };
            self.children(body, inner);
        }
    }

    pub(super) fn lambda(&mut self, node: Node<'t>, ctx: Ctx) {
        let scope = self.new_scope(ScopeKind::Lambda, ctx.scope, node, None);
        let inner = Ctx {
            scope,
            class: None,
            ..ctx
        };
        if let Some(params) = field(node, fields().parameters) {
            self.parameters(params, ctx, inner, None, None);
        }
        if let Some(body) = field(node, fields().body) {
            self.visit(body, inner);
        }
    }

    pub(super) fn comprehension(&mut self, node: Node<'t>, ctx: Ctx) {
        let scope = self.new_scope(ScopeKind::Comprehension, ctx.scope, node, None);
        let inner = Ctx {
            scope,
            class: None,
            ..ctx
        };
        let parts = self.named_children(node);
        let mut first = true;
        for p in parts {
            if kind_name(p) == "for_in_clause" {
                let mut c = p.walk();
                let rights: Vec<Node<'t>> = p
                    .children_by_field_name("right", &mut c)
                    .filter(|r| r.is_named())
                    .collect();
                // the first iterable is evaluated outside the comprehension
                let at = if first { ctx } else { inner };
                let iterated = match rights.as_slice() {
                    [one] => self.iterated(*one, at),
                    _ => {
                        for r in rights {
                            self.visit(r, at);
                        }
                        Iterated::Items(UNKNOWN)
                    }
                };
                first = false;
                if let Some(left) = field(p, fields().left) {
                    self.bind_iterated(left, iterated, inner, p);
                }
            } else {
                self.visit(p, inner);
            }
        }
    }

    pub(super) fn new_scope(
        &mut self,
        kind: ScopeKind,
        parent: usize,
        node: Node<'t>,
        name: Option<Name>,
    ) -> usize {
        let mut scope = Scope::new(kind, Some(parent));
        scope.range = node.byte_range();
        scope.name = name;
        self.scopes.push(scope);
        self.scopes.len() - 1
    }
}
