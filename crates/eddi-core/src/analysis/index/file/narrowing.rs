//! `isinstance` narrowing: where `isinstance(x, C)` holds (an `if` body,
//! the rest of an `and`, the statements after a guard), `x` is an instance
//! of `C` for its attributes; where `issubclass(x, C)` holds, `x` is the
//! class `C` (calling it gives an instance).

use super::nodes::*;
use super::*;

impl<'s, 't> Scanner<'s, 't> {
    /// `a + b + c …`, `a and b or c …`.
    pub(super) fn is_and(&self, node: Node<'t>) -> bool {
        field(node, fields().operator).is_some_and(|o| o.kind_id() == kinds().and)
    }

    /// `a and b and c`: each operand after an `isinstance(x, C)` sees `x`
    /// narrowed. Nested to the left like [`Self::operator_chain`].
    pub(super) fn and_chain(&mut self, node: Node<'t>, ctx: Ctx) {
        let mut rights = Vec::new();
        let mut left = node;
        while kind_name(left) == "boolean_operator" && self.is_and(left) {
            if let Some(r) = field(left, fields().right) {
                rights.push(r);
            }
            match field(left, fields().left) {
                Some(l) => left = l,
                None => break,
            }
        }
        let narrowed = self.narrowed.len();
        for operand in std::iter::once(left).chain(rights.into_iter().rev()) {
            self.visit(operand, ctx);
            self.narrow_by(operand, ctx);
        }
        self.narrowed.truncate(narrowed);
    }

    /// `if`/`elif`: the body sees the names its condition's `isinstance`
    /// tests narrow. An `if` without `else` may be a guard
    /// ([`Self::guard`]), left in [`Scanner::guarded`] for the block
    /// ([`Self::children`]).
    pub(super) fn conditional(&mut self, node: Node<'t>, ctx: Ctx) {
        let f = fields();
        // the named children and the fields wanted, in one pass
        let (mut condition, mut consequence, mut alternative) = (None, None, false);
        let mut parts = Vec::new();
        self.each_child(node, |cursor| {
            let child = cursor.node();
            if !child.is_named() {
                return;
            }
            match cursor.field_id().map(|id| id.get()) {
                Some(id) if id == f.condition => {
                    condition.get_or_insert(child);
                }
                Some(id) if id == f.consequence => {
                    consequence.get_or_insert(child);
                }
                Some(id) if id == f.alternative => alternative = true,
                _ => {}
            }
            parts.push(child);
        });
        for part in parts {
            if Some(part) == consequence {
                let narrowed = self.narrowed.len();
                if let Some(c) = condition {
                    self.narrow_by(c, ctx);
                }
                self.visit(part, ctx);
                self.narrowed.truncate(narrowed);
            } else {
                self.visit(part, ctx);
            }
        }
        let is_if = node.kind_id() == kinds().if_statement;
        self.guarded = match (condition, consequence) {
            (Some(test), Some(body)) if is_if && !alternative => self.guard(test, body, ctx),
            _ => None,
        };
    }

    /// The narrowings a condition that holds gives: its `isinstance`
    /// tests, through `and`.
    pub(super) fn narrow_by(&mut self, condition: Node<'t>, ctx: Ctx) {
        let condition = unparenthesized(condition);
        if kind_name(condition) == "boolean_operator" && self.is_and(condition) {
            for side in [fields().left, fields().right] {
                if let Some(s) = field(condition, side) {
                    self.narrow_by(s, ctx);
                }
            }
        } else if let Some(n) = self.isinstance_test(condition, ctx) {
            self.narrowed.push(n);
        }
    }

    /// `if not isinstance(x, C): return …` (or raise, continue, break),
    /// with no `else`: the statements after it see `x` narrowed, until the
    /// end of the block ([`Self::children`] drops it).
    pub(super) fn guard(&mut self, test: Node<'t>, body: Node<'t>, ctx: Ctx) -> Option<Narrowing> {
        let test = unparenthesized(test);
        if kind_name(test) != "not_operator" {
            return None;
        }
        let last = body.named_child(body.named_child_count().checked_sub(1)?)?;
        let exits = matches!(
            kind_name(last),
            "return_statement" | "raise_statement" | "continue_statement" | "break_statement"
        );
        if !exits {
            return None;
        }
        let tested = field(test, fields().argument).map(unparenthesized)?;
        self.isinstance_test(tested, ctx)
    }

    /// `isinstance(name, C)` (an instance of `C`) or `issubclass(name, C)`
    /// (the class `C`, or one deriving from it) with `C` a name or dotted
    /// name (a tuple of classes narrows nothing): the narrowing, its
    /// class's value built without new references (the call's visit made
    /// them).
    pub(super) fn isinstance_test(&mut self, test: Node<'t>, ctx: Ctx) -> Option<Narrowing> {
        if kind_name(test) != "call" {
            return None;
        }
        let callee = field(test, fields().function)?;
        if kind_name(callee) != "identifier" {
            return None;
        }
        // `issubclass(x, C)`: `x` is `C` or a subclass, whose members are
        // `C`'s or override them
        let subclass = match self.text(callee) {
            "isinstance" => false,
            "issubclass" => true,
            _ => return None,
        };
        let args = field(test, fields().arguments)?;
        if args.named_child_count() != 2 {
            return None;
        }
        let (subject, class) = (args.named_child(0)?, args.named_child(1)?);
        if kind_name(subject) != "identifier" {
            return None;
        }
        let class = self.quiet_value(class, ctx)?;
        let name = self.intern(self.text(subject));
        let instance = if subclass {
            class
        } else {
            self.push(Value::Call(class))
        };
        Some(Narrowing {
            scope: ctx.scope,
            name,
            instance,
        })
    }
}
