//! Statements that bind: assignments (plain, annotated, augmented, walrus),
//! `with … as`, `except … as`, `global`/`nonlocal`, `del`, `__all__`,
//! and the targets they bind.

use super::nodes::*;
use super::*;

impl<'s, 't> Scanner<'s, 't> {
    /// `global` / `nonlocal`.
    pub(super) fn declaration(&mut self, node: Node<'t>, ctx: Ctx) {
        let global = kind_name(node) == "global_statement";
        let names = self.named_children(node);
        for n in names {
            if kind_name(n) == "identifier" {
                let id = self.intern(self.text(n));
                // the declared names are uses (renames must update them)
                self.model_ref(n, id, ctx.scope);
                if global {
                    self.scopes[ctx.scope].globals.push(id);
                    // `global x` names the module's `x` (a rename must change it).
                    let slot = self.pending_read(0, id);
                    self.add_ref(n, slot, ctx);
                } else {
                    self.scopes[ctx.scope].nonlocals.push(id);
                }
            }
        }
    }

    /// `a = …`, `a: T = …`, `a: T`.
    pub(super) fn assignment(&mut self, node: Node<'t>, ctx: Ctx) {
        let [left, right, ty] = fields_of(node, [fields().left, fields().right, fields().r#type]);
        let mut value = match right {
            Some(right) => self.expr(right, ctx),
            None => UNKNOWN,
        };
        let mut declared = false;
        if let Some(ty) = ty {
            self.annotation(|s| s.visit(ty, ctx));
            self.string_annotations(ty, ctx);
            // `x: Engine = …` holds an Engine, whatever the value says
            // (`None` until set, a factory's result).
            let annotated = self.annotated(ty, ctx);
            if annotated != UNKNOWN {
                value = annotated;
                declared = true;
            }
        } else if right.is_some() {
            // `x = {}  # type: Dict[str, Engine]`, the same
            if let Some(commented) = self.type_comment(node, ctx) {
                value = commented;
                declared = true;
            }
        }
        if let Some(left) = left {
            // `x: int` without a value declares, it does not assign
            let kind = if right.is_some() {
                BindingKind::Assignment
            } else {
                BindingKind::Other
            };
            let statement = self.statement_of(node);
            let left_kind = Kind::of(left);
            if left_kind == Kind::Identifier && self.scopes[ctx.scope].kind == ScopeKind::Function {
                // A local holding a value the index can follow
                // (`m = Manager()`); kept only if it is its sole binding.
                self.bind_local(left, value, ctx, (kind, statement));
            } else if matches!(left_kind, Kind::Identifier | Kind::Attribute) {
                // A module or class variable (or `self.x`) remembers what
                // it holds.
                self.rhs = value;
                self.rhs_declared = declared;
                self.bind_targets(left, ctx, true, kind, statement);
                self.rhs = UNKNOWN;
                self.rhs_declared = false;
            } else {
                self.bind_targets(left, ctx, true, kind, statement);
            }
        }
    }

    /// `a += …`.
    pub(super) fn augmented_assignment(&mut self, node: Node<'t>, ctx: Ctx) {
        if let Some(right) = field(node, fields().right) {
            self.visit(right, ctx);
        }
        if let Some(left) = field(node, fields().left) {
            // `a += 1` reads and binds `a`
            self.expr(left, ctx);
            if kind_name(left) == "identifier" {
                let id = self.intern(self.text(left));
                let site = (left, BindingKind::Assignment, node);
                self.bind(ctx.scope, id, UNKNOWN, site);
            }
        }
    }

    /// `(a := …)` binds in the nearest scope that is not a comprehension.
    pub(super) fn named_expression(&mut self, node: Node<'t>, ctx: Ctx) {
        if let Some(v) = field(node, fields().value) {
            self.visit(v, ctx);
        }
        if let Some(n) = field(node, fields().name) {
            let scope = self.binding_scope(ctx.scope);
            let text = self.text(n);
            let id = self.intern(text);
            // at module level (comprehensions included) it assigns a
            // module variable, as `x = …` does
            let value = if self.scopes[scope].kind == ScopeKind::Module {
                let pos = self.pos(n);
                let module = Ctx {
                    owner: None,
                    class: None,
                    ..ctx
                };
                self.define(text, id, SymbolKind::Variable, pos, pos, module)
            } else {
                UNKNOWN
            };
            self.bind(scope, id, value, (n, BindingKind::Assignment, node));
            if let Some(b) = self.model.as_mut().and_then(|m| m.bindings.last_mut()) {
                b.site = ctx.scope;
            }
        }
    }

    /// `with x as y`, `case p as y` (and `except E as e` in older grammars).
    pub(super) fn as_pattern(&mut self, node: Node<'t>, ctx: Ctx) {
        let parts = self.named_children(node);
        let statement = node.parent().unwrap_or(node);
        let catches = kind_name(statement) == "except_clause";
        let enters = kind_name(statement) == "with_item";
        let mut caught = UNKNOWN;
        let mut entered = UNKNOWN;
        for p in parts {
            if kind_name(p) == "as_pattern_target" {
                if let Some(t) = p.named_child(0) {
                    if entered != UNKNOWN {
                        self.bind_entered(t, entered, ctx, statement);
                    } else {
                        self.bind_caught(t, caught, ctx, statement);
                    }
                }
            } else if enters && entered == UNKNOWN {
                // `with x as y`: `y` is what `x.__enter__()` returns
                let manager = self.expr(p, ctx);
                let name = self.intern("__enter__");
                let method = self.push(Value::Attr {
                    base: manager,
                    name,
                });
                entered = self.push(Value::Call(method));
            } else if catches
                && caught == UNKNOWN
                && matches!(Kind::of(p), Kind::Identifier | Kind::Attribute)
            {
                caught = self.expr(p, ctx);
            } else {
                self.visit(p, ctx);
            }
        }
    }

    /// Binds the target of `except E as e` (or of `with … as t`, where
    /// `caught` is unknown): in a function, `e` holds an instance of `E`
    /// (or of a subclass, which has `E`'s members too). A tuple of classes
    /// types nothing.
    ///
    /// In the clause's body `e` is that instance whatever else the name
    /// is bound to (`except A as e: …` `except B as e: …`): a
    /// [`Narrowing`] the clause drops at its end.
    pub(super) fn bind_caught(
        &mut self,
        target: Node<'t>,
        caught: ValueId,
        ctx: Ctx,
        statement: Node<'t>,
    ) {
        if caught != UNKNOWN && Kind::of(target) == Kind::Identifier {
            let name = self.intern(self.text(target));
            let instance = self.push(Value::Call(caught));
            self.narrowed.push(Narrowing {
                scope: ctx.scope,
                name,
                instance,
            });
            let scope = &self.scopes[ctx.scope];
            if scope.kind == ScopeKind::Function && !scope.globals.contains(&name) {
                self.bind(
                    ctx.scope,
                    name,
                    instance,
                    (target, BindingKind::Other, statement),
                );
                return;
            }
        }
        self.bind_targets(target, ctx, false, BindingKind::Other, statement);
    }

    /// Binds the target of `with x as t` in a function to `entered`, what
    /// `x.__enter__()` returns (`with open_db() as db:`, where `__enter__`
    /// is annotated or returns `self`): a local, kept only if it is its
    /// sole binding, as an assignment's is. Elsewhere, or for a tuple
    /// target, the target holds nothing the index follows.
    pub(super) fn bind_entered(
        &mut self,
        target: Node<'t>,
        entered: ValueId,
        ctx: Ctx,
        statement: Node<'t>,
    ) {
        if Kind::of(target) == Kind::Identifier
            && self.scopes[ctx.scope].kind == ScopeKind::Function
        {
            self.bind_local(target, entered, ctx, (BindingKind::Other, statement));
            return;
        }
        self.bind_targets(target, ctx, false, BindingKind::Other, statement);
    }

    /// Binds the identifier `target` in the function scope of `ctx` to
    /// `value` (a `global` name is the module's: its site is recorded).
    pub(super) fn bind_local(
        &mut self,
        target: Node<'t>,
        value: ValueId,
        ctx: Ctx,
        (kind, statement): (BindingKind, Node<'t>),
    ) {
        let name = self.intern(self.text(target));
        if self.scopes[ctx.scope].globals.contains(&name) {
            self.add_site(target, 0, name, ctx);
        }
        self.bind(ctx.scope, name, value, (target, kind, statement));
    }

    /// `except E as e:`.
    pub(super) fn except_clause(&mut self, node: Node<'t>, ctx: Ctx) {
        // `except E as e:` binds `e` (grammars that give the clause an
        // `alias` field; others nest an `as_pattern`, see above)
        let alias = field(node, fields().alias);
        let parts = self.named_children(node);
        let mut caught = UNKNOWN;
        let narrowed = self.narrowed.len();
        for p in parts {
            if Some(p) == alias {
                self.bind_caught(p, caught, ctx, node);
            } else if alias.is_some()
                && caught == UNKNOWN
                && matches!(Kind::of(p), Kind::Identifier | Kind::Attribute)
            {
                caught = self.expr(p, ctx);
            } else {
                self.visit(p, ctx);
            }
        }
        // `e` is the caught instance in this clause only
        self.narrowed.truncate(narrowed);
    }

    /// `del a, b[i], c.d`: in a function `del a` makes `a` local (it is a
    /// use of the local, not of a global); at module or class level it is
    /// a use of the variable. Subscripts and attributes are uses.
    pub(super) fn delete(&mut self, node: Node<'t>, ctx: Ctx) {
        let targets = self.named_children(node);
        for t in targets {
            match kind_name(t) {
                "identifier" if self.scopes[ctx.scope].kind == ScopeKind::Function => {
                    // a use of the local it makes
                    let id = self.intern(self.text(t));
                    self.model_ref(t, id, ctx.scope);
                    self.bind(ctx.scope, id, UNKNOWN, (t, BindingKind::Other, node));
                }
                "expression_list" | "tuple" | "list" | "parenthesized_expression" => {
                    self.delete(t, ctx)
                }
                _ => self.visit(t, ctx),
            }
        }
    }

    /// Binds the names of an assignment-like target. `defines`: an
    /// assignment, whose targets at module or class level are definitions.
    pub(super) fn target(&mut self, node: Node<'t>, ctx: Ctx, defines: bool) {
        let Some(ctx) = self.deeper(ctx) else {
            return;
        };
        match kind_name(node) {
            "identifier" => {
                let text = self.text(node);
                let name = self.intern(text);
                let kind = match self.scopes[ctx.scope].kind {
                    ScopeKind::Module if defines => Some(SymbolKind::Variable),
                    ScopeKind::Class if defines => Some(SymbolKind::Attribute),
                    _ => None,
                };
                let value = match kind {
                    Some(kind) => {
                        let pos = self.pos(node);
                        let v = self.define(text, name, kind, pos, pos, ctx);
                        if self.rhs != UNKNOWN {
                            if let Some(d) = self.file.defs.last_mut() {
                                d.value = Some(self.rhs);
                            }
                        }
                        v
                    }
                    None => {
                        // rebinds a module or class variable without defining it
                        let scope = &self.scopes[ctx.scope];
                        if scope.globals.contains(&name) {
                            self.add_site(node, 0, name, ctx);
                        } else if matches!(scope.kind, ScopeKind::Module | ScopeKind::Class) {
                            self.add_site(node, ctx.scope, name, ctx);
                        }
                        UNKNOWN
                    }
                };
                let statement = self.target_statement.unwrap_or(node);
                self.bind(ctx.scope, name, value, (node, self.target_kind, statement));
            }
            "list_splat_pattern" | "list_splat" => {
                if let Some(inner) = node.named_child(0) {
                    self.target(inner, ctx, defines);
                }
            }
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "tuple"
            | "list"
            | "expression_list"
            | "parenthesized_expression" => {
                let parts = self.named_children(node);
                let outer = self.target_kind;
                if outer == BindingKind::Assignment {
                    self.target_kind = BindingKind::Unpacking;
                }
                for p in parts {
                    self.target(p, ctx, defines);
                }
                self.target_kind = outer;
            }
            "attribute" => {
                // `self.x = …` may define an instance attribute (see `finish`).
                let assigned = std::mem::replace(&mut self.rhs, UNKNOWN);
                let declared = std::mem::take(&mut self.rhs_declared);
                let value = self.expr(node, ctx);
                if value != UNKNOWN && !self.file.refs.is_empty() {
                    self.attr_writes.push(AttrWrite {
                        reference: self.file.refs.len() - 1,
                        value,
                        assigned,
                        declared,
                    });
                }
            }
            _ => {
                // `a[i] = …`: uses, not bindings.
                self.expr(node, ctx);
            }
        }
    }

    /// The statement an assignment is (its `expression_statement`), for the
    /// full model's binding ranges; the index keeps none, and
    /// `Node::parent` walks down from the root, so it is not asked then.
    pub(super) fn statement_of(&self, assignment: Node<'t>) -> Node<'t> {
        if self.model.is_none() {
            return assignment;
        }
        assignment
            .parent()
            .filter(|&p| kind_name(p) == "expression_statement")
            .unwrap_or(assignment)
    }

    /// `__all__ = …` / `__all__ += …` at module level.
    pub(super) fn is_all(&self, node: Node<'t>) -> bool {
        field(node, fields().left).is_some_and(|l| self.text(l) == "__all__")
    }

    pub(super) fn dunder_all(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(right) = field(node, fields().right) else {
            return;
        };
        self.visit(right, ctx);
        let statement = self.statement_of(node);
        if !matches!(kind_name(right), "list" | "tuple") {
            self.all_dynamic = true;
            if kind_name(node) == "assignment" {
                if let Some(left) = field(node, fields().left) {
                    self.bind_targets(left, ctx, true, BindingKind::Assignment, statement);
                }
            }
            return;
        }
        let mut names = Vec::new();
        let mut cursor = right.walk();
        for item in right.named_children(&mut cursor) {
            let text = self.text(item);
            let inner = text
                .strip_prefix(['"', '\''])
                .and_then(|t| t.strip_suffix(['"', '\'']));
            match inner {
                Some(name) if kind_name(item) == "string" => {
                    if let Some(content) = string_content(item) {
                        let id = self.intern(name);
                        self.add_site(content, 0, id, ctx);
                    }
                    names.push(name.into())
                }
                _ if kind_name(item) == "comment" => {}
                _ => self.all_dynamic = true,
            }
        }
        if kind_name(node) == "assignment" {
            if let Some(left) = field(node, fields().left) {
                self.bind_targets(left, ctx, true, BindingKind::Assignment, statement);
            }
            self.file.all = Some(names);
        } else {
            self.file.all.get_or_insert_with(Vec::new).extend(names);
            if let Some(left) = field(node, fields().left) {
                // `__all__ += …` reads and rebinds `__all__`
                let id = self.intern("__all__");
                self.model_ref(left, id, ctx.scope);
                self.bind(
                    ctx.scope,
                    id,
                    UNKNOWN,
                    (left, BindingKind::Assignment, node),
                );
            }
        }
    }
}
