//! What a `for` (or a comprehension's `for`) iterates, and what its target
//! is bound to: an item of a collection the index follows, seen through
//! `sorted`, `enumerate`, `zip` and literals of names.

use super::nodes::*;
use super::*;

/// What a `for` iterates, as far as its items go ([`Scanner::iterated`]).
pub(super) enum Iterated {
    /// The items of this collection (`UNKNOWN`: nothing followed).
    Items(ValueId),
    /// `enumerate(xs)`: pairs of a number and an item of `xs`.
    Enumerated(ValueId),
    /// `zip(xs, ys, …)`: tuples of an item of each.
    Zipped(Vec<ValueId>),
    /// A literal of names (`(LRU, LRI)`): each item is this value.
    Each(ValueId),
}

impl<'s, 't> Scanner<'s, 't> {
    /// `for a in …:`.
    pub(super) fn for_statement(&mut self, node: Node<'t>, ctx: Ctx) {
        let iterated = match field(node, fields().right) {
            Some(right) => self.iterated(right, ctx),
            None => Iterated::Items(UNKNOWN),
        };
        if let Some(left) = field(node, fields().left) {
            self.bind_iterated(left, iterated, ctx, node);
        }
        if let Some(body) = field(node, fields().body) {
            self.visit(body, ctx);
        }
        if let Some(alt) = field(node, fields().alternative) {
            self.visit(alt, ctx);
        }
    }

    /// What a `for` iterates, visited in `ctx`, as far as its items go: a
    /// value the index follows (a name, an attribute, a call) — seen
    /// through the builtins that keep the items (`sorted(xs)`,
    /// `reversed(xs)`, `list(xs)`…) —, `enumerate(xs)`, `zip(xs, ys)`.
    pub(super) fn iterated(&mut self, collection: Node<'t>, ctx: Ctx) -> Iterated {
        if let Some(iterated) = self.iterated_builtin(collection, ctx) {
            return iterated;
        }
        if let Some(each) = self.iterated_literal(collection, ctx) {
            return Iterated::Each(each);
        }
        if matches!(
            Kind::of(collection),
            Kind::Identifier
                | Kind::Attribute
                | Kind::Call
                | Kind::Subscript
                | Kind::ParenthesizedExpression
        ) {
            let value = self.expr(collection, ctx);
            // `d.items()`: pairs of a key and a value, as `d.values()` gives
            if let Value::Call(callee) = self.file.value(value) {
                if let Value::Attr { base, name } = self.file.value(callee) {
                    if self.file.name(name) == "items" {
                        let values = self.intern("values");
                        let method = self.push(Value::Attr { base, name: values });
                        return Iterated::Enumerated(self.push(Value::Call(method)));
                    }
                }
            }
            Iterated::Items(value)
        } else {
            self.visit(collection, ctx);
            Iterated::Items(UNKNOWN)
        }
    }

    /// `(LRU, LRI)`, `[a.B, C]`: a literal of names, iterated: each item is
    /// one of them (a union of their values; the literal visited).
    pub(super) fn iterated_literal(&mut self, literal: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        if !matches!(kind_name(literal), "tuple" | "list" | "set") {
            return None;
        }
        let names = self.named_children(literal);
        if names.is_empty()
            || names.len() > 16
            || !names
                .iter()
                .all(|n| matches!(Kind::of(*n), Kind::Identifier | Kind::Attribute))
        {
            return None;
        }
        let mut values: Vec<ValueId> = names.iter().map(|n| self.expr(*n, ctx)).collect();
        values.dedup();
        if values.contains(&UNKNOWN) {
            return Some(UNKNOWN);
        }
        Some(match values.as_slice() {
            [one] => *one,
            _ => {
                let start = self.file.unions.len() as u32;
                let len = values.len() as u32;
                self.file.unions.extend(values);
                self.push(Value::Union { start, len })
            }
        })
    }

    /// `sorted(xs, key=…)`, `enumerate(xs)`, `zip(xs, ys)` and the like,
    /// when the name is the builtin's: the call visited, what it iterates.
    pub(super) fn iterated_builtin(&mut self, call: Node<'t>, ctx: Ctx) -> Option<Iterated> {
        if Kind::of(call) != Kind::Call {
            return None;
        }
        // `sorted(sorted(…))` nests like any expression
        let ctx = self.deeper(ctx)?;
        let [function, arguments] = fields_of(call, [fields().function, fields().arguments]);
        let (function, arguments) = (function?, arguments?);
        if Kind::of(function) != Kind::Identifier || kind_name(arguments) != "argument_list" {
            return None;
        }
        let builtin = self.text(function);
        const SAME_ITEMS: &[&str] = &[
            "sorted",
            "reversed",
            "list",
            "tuple",
            "set",
            "frozenset",
            "iter",
        ];
        if !(SAME_ITEMS.contains(&builtin) || builtin == "enumerate" || builtin == "zip") {
            return None;
        }
        let name = self.intern(builtin);
        let shadowed = |scopes: &[Scope], mut at: Option<usize>| {
            while let Some(i) = at {
                if scopes[i].bindings.contains_key(&name) {
                    return true;
                }
                at = scopes[i].parent;
            }
            false
        };
        if shadowed(&self.scopes, Some(ctx.scope)) {
            return None;
        }
        let args = self.named_children(arguments);
        let positional = args
            .iter()
            .take_while(|&&a| {
                !matches!(
                    kind_name(a),
                    "keyword_argument" | "list_splat" | "dictionary_splat" | "comment"
                )
            })
            .count();
        if positional == 0 {
            return None;
        }
        // the call as `expr` visits it (its name a reference), the
        // positional arguments kept
        self.expr(function, ctx);
        let mut values = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if i < positional {
                let v = match self.iterated(*a, ctx) {
                    Iterated::Items(v) => v,
                    _ => UNKNOWN,
                };
                values.push(v);
            } else {
                self.visit(*a, ctx);
            }
        }
        Some(match builtin {
            "enumerate" => Iterated::Enumerated(values[0]),
            "zip" => Iterated::Zipped(values),
            _ => Iterated::Items(values[0]),
        })
    }

    /// Binds the target of a `for` (or a comprehension's `for`) over
    /// `iterated`: a lone name in a function or comprehension is an item
    /// of it (typed when it is an annotated collection, `for x in
    /// self.items` with `items: list[C]`), and so are the item positions of
    /// `for i, x in enumerate(xs)` and `for a, b in zip(xs, ys)`.
    pub(super) fn bind_iterated(
        &mut self,
        target: Node<'t>,
        iterated: Iterated,
        ctx: Ctx,
        statement: Node<'t>,
    ) {
        let unpacked = matches!(kind_name(target), "pattern_list" | "tuple_pattern");
        let parts = match iterated {
            Iterated::Enumerated(_) | Iterated::Zipped(_) if unpacked => {
                self.named_children(target)
            }
            _ => Vec::new(),
        };
        match iterated {
            Iterated::Items(collection) => self.bind_item(target, collection, ctx, statement),
            Iterated::Each(value) => self.bind_each(target, value, ctx, statement),
            Iterated::Enumerated(collection) if unpacked && parts.len() == 2 => {
                self.bind_targets(parts[0], ctx, false, BindingKind::Other, statement);
                self.bind_item(parts[1], collection, ctx, statement);
            }
            Iterated::Zipped(collections) if unpacked && parts.len() == collections.len() => {
                for (part, collection) in parts.into_iter().zip(collections) {
                    self.bind_item(part, collection, ctx, statement);
                }
            }
            _ => self.bind_targets(target, ctx, false, BindingKind::Other, statement),
        }
    }

    /// Binds `target` to an item of `collection` (see [`Self::bind_iterated`]).
    pub(super) fn bind_item(
        &mut self,
        target: Node<'t>,
        collection: ValueId,
        ctx: Ctx,
        statement: Node<'t>,
    ) {
        self.bind_loop_target(target, collection, ctx, statement, |s, c| {
            s.push(Value::Elem(c))
        });
    }

    /// Binds `target` to `value` itself, an item of a literal.
    pub(super) fn bind_each(
        &mut self,
        target: Node<'t>,
        value: ValueId,
        ctx: Ctx,
        statement: Node<'t>,
    ) {
        self.bind_loop_target(target, value, ctx, statement, |_, v| v);
    }

    /// A lone name in a function or comprehension is bound to the value
    /// `item` makes of `of` (when the index follows `of`); any other target
    /// as a plain binding.
    pub(super) fn bind_loop_target(
        &mut self,
        target: Node<'t>,
        of: ValueId,
        ctx: Ctx,
        statement: Node<'t>,
        item: impl FnOnce(&mut Self, ValueId) -> ValueId,
    ) {
        let local = matches!(
            self.scopes[ctx.scope].kind,
            ScopeKind::Function | ScopeKind::Comprehension
        );
        if of != UNKNOWN && local && Kind::of(target) == Kind::Identifier {
            let value = item(self, of);
            self.bind_local(target, value, ctx, (BindingKind::Other, statement));
        } else {
            self.bind_targets(target, ctx, false, BindingKind::Other, statement);
        }
    }
}
