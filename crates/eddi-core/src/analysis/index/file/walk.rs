//! The walk's primitives (positions, interning, values, bindings,
//! references, pooled cursors) and [`Scanner::visit`], which sends each
//! statement or expression to the code for its kind.

use super::nodes::*;
use super::*;
use crate::analysis::syntax;

/// Up to this many named children are reached by `Node::named_child`,
/// beyond through a cursor. Each `named_child(i)` passes over the
/// children before the `i`th, but skips the cursor's reset and its
/// climbs out of every child (`expression`, `primary_expression`…),
/// which cost more for a node of few children (an expression
/// statement, most argument lists).
const FEW_CHILDREN: usize = 6;

impl<'s, 't> Scanner<'s, 't> {
    pub(super) fn text(&self, node: Node<'t>) -> &'s str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    /// Zero-based line and char column of a node's start.
    pub(super) fn pos(&self, node: Node<'t>) -> Position {
        if self.ascii {
            let p = node.start_position();
            return Position::new(p.row, p.column);
        }
        syntax::node_start_in(self.src, node)
    }

    /// The length of a node's text in chars.
    pub(super) fn char_len(&self, node: Node<'t>) -> usize {
        if self.ascii {
            return node.end_byte() - node.start_byte();
        }
        syntax::char_len_in(self.src, node.byte_range())
    }

    pub(super) fn intern(&mut self, s: &str) -> Name {
        self.file.names.intern(s)
    }

    pub(super) fn intern_owned(&mut self, s: String) -> Name {
        self.intern(&s)
    }

    pub(super) fn push(&mut self, v: Value) -> ValueId {
        self.file.values.push(v);
        (self.file.values.len() - 1) as ValueId
    }

    /// A value for `name` read in `scope`, resolved once the whole file
    /// is walked (a later binding in an enclosing scope still counts).
    pub(super) fn pending_read(&mut self, scope: usize, name: Name) -> ValueId {
        let slot = self.push(Value::Unknown);
        self.pending.push(Pending { scope, name, slot });
        slot
    }

    /// Binds `name`, written at `node` in `statement`, in `scope`; returns
    /// the scope it binds in.
    pub(super) fn bind(
        &mut self,
        scope: usize,
        name: Name,
        value: ValueId,
        (node, kind, statement): (Node<'t>, BindingKind, Node<'t>),
    ) -> usize {
        // `global x` in a function sends bindings of x to the module.
        let bound = if self.scopes[scope].globals.contains(&name) {
            0
        } else {
            scope
        };
        self.scopes[bound]
            .bindings
            .entry(name)
            .or_default()
            .push(value);
        if let Some(m) = self.model.as_mut() {
            m.bindings.push(ModelBinding {
                name,
                kind,
                range: node.byte_range(),
                statement: statement.byte_range(),
                scope: bound,
                site: scope,
            });
        }
        bound
    }

    /// Binds the targets of `node` ([`Scanner::target`]) as `kind`, in `statement`.
    pub(super) fn bind_targets(
        &mut self,
        node: Node<'t>,
        ctx: Ctx,
        defines: bool,
        kind: BindingKind,
        statement: Node<'t>,
    ) {
        let outer = (self.target_kind, self.target_statement);
        self.target_kind = kind;
        self.target_statement = Some(statement);
        self.target(node, ctx, defines);
        (self.target_kind, self.target_statement) = outer;
    }

    /// The nearest scope that is not a comprehension (walrus targets).
    pub(super) fn binding_scope(&self, mut scope: usize) -> usize {
        while self.scopes[scope].kind == ScopeKind::Comprehension {
            match self.scopes[scope].parent {
                Some(p) => scope = p,
                None => break,
            }
        }
        scope
    }

    pub(super) fn add_ref(&mut self, node: Node<'t>, value: ValueId, ctx: Ctx) {
        let p = self.pos(node);
        let len = self.char_len(node);
        self.file.refs.push(Ref {
            line: p.line as u32,
            col: p.col as u32,
            len: len.min(u16::MAX as usize) as u16,
            value,
            owner: ctx.owner,
            is_call: false,
        });
    }

    /// A [`FileIndex::sites`] entry: `node` names whatever `name` is
    /// bound to in `scope`.
    pub(super) fn add_site(&mut self, node: Node<'t>, scope: usize, name: Name, ctx: Ctx) {
        let slot = self.pending_read(scope, name);
        self.push_site(node, slot, ctx);
    }

    /// A [`FileIndex::sites`] entry: `node` names `value`.
    pub(super) fn push_site(&mut self, node: Node<'t>, value: ValueId, ctx: Ctx) {
        let p = self.pos(node);
        let len = self.char_len(node);
        self.push_site_at(p, len, value, ctx);
    }

    pub(super) fn push_site_at(&mut self, p: Position, len: usize, value: ValueId, ctx: Ctx) {
        let slot = value;
        self.file.sites.push(Ref {
            line: p.line as u32,
            col: p.col as u32,
            len: len.min(u16::MAX as usize) as u16,
            value: slot,
            owner: ctx.owner,
            is_call: false,
        });
    }

    /// Calls `each` on the named children of `node`, in order: by
    /// `Node::named_child` when it has a few ([`FEW_CHILDREN`]), else
    /// through a pooled cursor (`Node::walk` allocates one, with C's
    /// `malloc`).
    fn each_named_child(&mut self, node: Node<'t>, mut each: impl FnMut(&mut Self, Node<'t>)) {
        let named = node.named_child_count();
        if named <= FEW_CHILDREN {
            for child in (0..named).filter_map(|i| node.named_child(i)) {
                each(self, child);
            }
            return;
        }
        let mut cursor = self.cursors.take(node);
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if child.is_named() {
                    each(self, child);
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.cursors.give(cursor);
    }

    /// Visits the named children of `node`, in order.
    pub(super) fn children(&mut self, node: Node<'t>, ctx: Ctx) {
        let narrowed = self.narrowed.len();
        self.each_named_child(node, |s, child| s.visit_child(child, ctx));
        self.narrowed.truncate(narrowed);
    }

    /// Visits one of [`Self::children`]: an `if` that guards the rest of
    /// its block narrows it.
    fn visit_child(&mut self, child: Node<'t>, ctx: Ctx) {
        if child.kind_id() != kinds().if_statement {
            self.visit(child, ctx);
        } else {
            self.guarded = None;
            self.visit(child, ctx);
            if let Some(n) = self.guarded.take() {
                self.narrowed.push(n);
            }
        }
    }

    /// The named children of `node` ([`Self::each_named_child`]).
    pub(super) fn named_children(&mut self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut found = Vec::with_capacity(node.named_child_count());
        self.each_named_child(node, |_, child| found.push(child));
        found
    }

    /// A pooled cursor stood on each child of `node` in turn, named or
    /// not: `each` asks it for the node or its field only when it needs
    /// them.
    pub(super) fn each_child(
        &mut self,
        node: Node<'t>,
        mut each: impl FnMut(&tree_sitter::TreeCursor<'t>),
    ) {
        let mut cursor = self.cursors.take(node);
        if cursor.goto_first_child() {
            loop {
                each(&cursor);
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.cursors.give(cursor);
    }

    /// Each child of `node` with the id of the field it is in, in one
    /// pass of a pooled cursor.
    pub(super) fn each_field_child(&mut self, node: Node<'t>, mut each: impl FnMut(u16, Node<'t>)) {
        self.each_child(node, |cursor| {
            if let Some(id) = cursor.field_id() {
                each(id.get(), cursor.node());
            }
        });
    }

    /// The children of `node` in the field `id`, in order.
    pub(super) fn children_in(&mut self, id: u16, node: Node<'t>) -> Vec<Node<'t>> {
        let mut found = Vec::new();
        self.each_field_child(node, |field, child| {
            if field == id {
                found.push(child);
            }
        });
        found
    }

    pub(super) fn deeper(&mut self, ctx: Ctx) -> Option<Ctx> {
        if ctx.depth >= MAX_DEPTH {
            self.file.truncated = true;
            return None;
        }
        Some(Ctx {
            depth: ctx.depth + 1,
            ..ctx
        })
    }

    /// Visits a statement or expression for its uses and bindings.
    pub(super) fn visit(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(ctx) = self.deeper(ctx) else {
            return;
        };
        match Kind::of(node) {
            Kind::FunctionDefinition => self.function(node, None, ctx),
            Kind::ClassDefinition => self.class(node, None, ctx),
            Kind::DecoratedDefinition => self.decorated(node, ctx),
            Kind::ImportStatement => self.import(node, ctx),
            Kind::ImportFromStatement => self.import_from(node, ctx),
            Kind::FutureImportStatement => self.future_import(node),
            Kind::Inert => {}
            Kind::String => self.string(node, ctx),
            Kind::Declaration => self.declaration(node, ctx),
            Kind::Assignment | Kind::AugmentedAssignment if ctx.scope == 0 && self.is_all(node) => {
                self.dunder_all(node, ctx);
            }
            Kind::Assignment => self.assignment(node, ctx),
            Kind::AugmentedAssignment => self.augmented_assignment(node, ctx),
            Kind::NamedExpression => self.named_expression(node, ctx),
            Kind::DeleteStatement => self.delete(node, ctx),
            Kind::ForStatement => self.for_statement(node, ctx),
            Kind::AsPattern => self.as_pattern(node, ctx),
            Kind::ExceptClause => self.except_clause(node, ctx),
            Kind::Lambda => self.lambda(node, ctx),
            Kind::Comprehension => self.comprehension(node, ctx),
            Kind::CasePattern => self.pattern(node, ctx),
            Kind::BooleanOperator if self.is_and(node) => self.and_chain(node, ctx),
            Kind::BinaryOperator | Kind::BooleanOperator => self.operator_chain(node, ctx),
            Kind::Conditional => self.conditional(node, ctx),
            Kind::ReturnStatement => {
                let value = match node.named_child(0) {
                    Some(e) => self.expr(e, ctx),
                    None => UNKNOWN,
                };
                if let Some(owner) = ctx.owner {
                    self.returned.push((owner, value));
                }
            }
            // a fixture's `yield` gives its value (a generator otherwise)
            Kind::Yield => match ctx.owner {
                Some(owner) if self.file.defs[owner as usize].fixture => {
                    let from = node.child(1).is_some_and(|c| kind_name(c) == "from");
                    let value = match node.named_child(0) {
                        Some(e) if !from => self.expr(e, ctx),
                        _ => {
                            self.children(node, ctx);
                            UNKNOWN
                        }
                    };
                    self.returned.push((owner, value));
                }
                owner => {
                    if let Some(owner) = owner {
                        self.not_returning.push(owner);
                    }
                    self.children(node, ctx);
                }
            },
            Kind::KeywordArgument => {
                if let Some(v) = field(node, fields().value) {
                    self.visit(v, ctx);
                }
            }
            Kind::Identifier
            | Kind::Attribute
            | Kind::Call
            | Kind::Subscript
            | Kind::ParenthesizedExpression => {
                self.expr(node, ctx);
            }
            _ => self.children(node, ctx),
        }
    }
}
