//! What flows into and out of the extracted statements: which of the
//! enclosing scope's names they read before binding them on some path, and
//! which they bind — on every path or only on some.
//!
//! A small definite-assignment walk over the statements: a branch
//! (`if`/`elif`/`else`, loop bodies, `try` handlers, `match` cases) binds
//! for what follows only when every branch binds; a loop body may not run;
//! `with` bodies and `finally` always run. Within one simple statement the
//! reads count before its bindings (`total += x` reads `total`), and a
//! walrus binding is never taken as certain (it may sit in a short-circuit).

use std::collections::HashSet;
use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::nodes::named_code_children;
use crate::analysis::scope::{Resolution, Scopes};
use crate::analysis::syntax::node_chars;

/// The names of one scope the statements read and bind.
#[derive(Debug, Default)]
pub(super) struct Flow {
    /// Read before any binding on some path through the statements, in
    /// the order of their first read.
    pub needs: Vec<String>,
    /// Bound by the statements, in the order of their first binding.
    pub bound: Vec<String>,
    /// Bound on every path through the statements.
    pub definite: HashSet<String>,
    /// Deleted (`del name`) by the statements.
    pub deleted: Vec<String>,
}

/// The flow of the names of `scope` through `statements`.
pub(super) fn analyze(text: &Rope, scopes: &Scopes, scope: usize, statements: &[Node<'_>]) -> Flow {
    let mut walker = Walker {
        text,
        scopes,
        scope,
        flow: Flow::default(),
    };
    let mut definite = HashSet::new();
    for s in statements {
        walker.statement(*s, &mut definite);
    }
    let span = match (statements.first(), statements.last()) {
        (Some(a), Some(b)) => node_chars(text, *a).start..node_chars(text, *b).end,
        _ => 0..0,
    };
    let mut bound: Vec<(usize, &str)> = scopes
        .bindings
        .iter()
        .filter(|b| b.scope == scope && within(&b.range, &span))
        .map(|b| (b.range.start, b.name.as_str()))
        .collect();
    bound.sort();
    for (_, name) in bound {
        if !walker.flow.bound.iter().any(|n| n == name) {
            walker.flow.bound.push(name.to_string());
        }
    }
    walker.flow.definite = definite;
    walker.flow
}

pub(super) fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

struct Walker<'a> {
    text: &'a Rope,
    scopes: &'a Scopes,
    scope: usize,
    flow: Flow,
}

impl Walker<'_> {
    fn statement(&mut self, node: Node<'_>, set: &mut HashSet<String>) {
        match node.kind() {
            "comment" => {}
            "if_statement" => self.branches(node, set, |k| k == "else_clause"),
            "for_statement" | "while_statement" => {
                // the body may not run: nothing it binds is certain after
                for child in named_code_children(node) {
                    match child.kind() {
                        "block" => {
                            let mut inner = set.clone();
                            if let Some(left) = node.child_by_field_name("left") {
                                self.bind_all(left, &mut inner);
                            }
                            self.block(child, &mut inner);
                        }
                        "else_clause" => self.block_of(child, &mut set.clone()),
                        _ => self.reads(child, set),
                    }
                }
            }
            "try_statement" => {
                // what follows is reached through the body (and `else`) or
                // through a handler that does not raise; `finally` always runs
                let mut after_body = set.clone();
                let mut exits: Vec<HashSet<String>> = Vec::new();
                let mut finally = None;
                for child in named_code_children(node) {
                    match child.kind() {
                        "block" => self.block(child, &mut after_body),
                        "except_clause" | "except_group_clause" => {
                            let mut inner = set.clone();
                            let mut falls_through = true;
                            for part in named_code_children(child) {
                                if part.kind() == "block" {
                                    self.block(part, &mut inner);
                                    falls_through = !jumps(part);
                                } else {
                                    self.reads(part, &inner);
                                    self.bind_all(part, &mut inner);
                                }
                            }
                            if falls_through {
                                exits.push(inner);
                            }
                        }
                        "else_clause" => self.block_of(child, &mut after_body),
                        "finally_clause" => finally = Some(child),
                        _ => {}
                    }
                }
                exits.push(after_body);
                *set = intersection(exits);
                if let Some(f) = finally {
                    self.block_of(f, set);
                }
            }
            "with_statement" => {
                for child in named_code_children(node) {
                    if child.kind() == "block" {
                        self.block(child, set);
                    } else {
                        self.reads(child, set);
                        self.bind_all(child, set);
                    }
                }
            }
            "match_statement" => {
                for child in named_code_children(node) {
                    if child.kind() == "block" {
                        for case in named_code_children(child) {
                            let mut inner = set.clone();
                            for part in named_code_children(case) {
                                if part.kind() == "block" {
                                    self.block(part, &mut inner);
                                } else {
                                    self.bind_all(part, &mut inner);
                                    self.reads(part, &inner);
                                }
                            }
                        }
                    } else {
                        self.reads(child, set);
                    }
                }
            }
            "delete_statement" => {
                // `del x` unbinds x (the resolver records it as a read)
                self.reads(node, set);
                for name in deleted_names(self.text, node) {
                    set.remove(&name);
                    if !self.flow.deleted.contains(&name) {
                        self.flow.deleted.push(name);
                    }
                }
            }
            // definitions and simple statements: reads first, then bindings
            _ => {
                self.reads(node, set);
                self.bind_all(node, set);
            }
        }
    }

    /// `if`/`elif`/`else`: a name is certain after it when every branch
    /// binds it and there is an `else`.
    /// A branch that ends in `raise`, `break` or `continue` does not reach
    /// what follows.
    fn branches(&mut self, node: Node<'_>, set: &mut HashSet<String>, is_else: fn(&str) -> bool) {
        let mut exits: Vec<HashSet<String>> = Vec::new();
        let mut has_else = false;
        for child in named_code_children(node) {
            match child.kind() {
                "block" => {
                    let mut inner = set.clone();
                    self.block(child, &mut inner);
                    if !jumps(child) {
                        exits.push(inner);
                    }
                }
                "elif_clause" | "else_clause" => {
                    has_else |= is_else(child.kind());
                    let mut inner = set.clone();
                    let mut falls_through = true;
                    for part in named_code_children(child) {
                        if part.kind() == "block" {
                            self.block(part, &mut inner);
                            falls_through = !jumps(part);
                        } else {
                            self.reads(part, &inner);
                        }
                    }
                    if falls_through {
                        exits.push(inner);
                    }
                }
                _ => self.reads(child, set),
            }
        }
        if !has_else {
            exits.push(set.clone());
        }
        *set = intersection(exits);
    }

    fn block(&mut self, block: Node<'_>, set: &mut HashSet<String>) {
        for s in named_code_children(block) {
            self.statement(s, set);
        }
    }

    /// The block of a clause (`else:`, `finally:`).
    fn block_of(&mut self, clause: Node<'_>, set: &mut HashSet<String>) {
        for part in named_code_children(clause) {
            if part.kind() == "block" {
                self.block(part, set);
            }
        }
    }

    /// The scope's names read in `node` that are not certainly bound yet.
    fn reads(&mut self, node: Node<'_>, set: &HashSet<String>) {
        let span = node_chars(self.text, node);
        let scope = self.scope;
        for r in &self.scopes.references {
            if r.resolution == Resolution::Scope(scope)
                && within(&r.range, &span)
                && !set.contains(&r.name)
                && !self.flow.needs.contains(&r.name)
            {
                self.flow.needs.push(r.name.clone());
            }
        }
    }

    /// Adds what `node` binds in the scope (walrus bindings aside).
    fn bind_all(&mut self, node: Node<'_>, set: &mut HashSet<String>) {
        for name in self.bindings_in(node) {
            set.insert(name);
        }
    }

    fn bindings_in(&self, node: Node<'_>) -> Vec<String> {
        let span = node_chars(self.text, node);
        let walrus = walrus_targets(self.text, node);
        self.scopes
            .bindings
            .iter()
            .filter(|b| b.scope == self.scope && within(&b.range, &span))
            .filter(|b| !walrus.iter().any(|w| within(&b.range, w)))
            .map(|b| b.name.clone())
            .collect()
    }
}

/// True when a block ends by jumping away (`raise`, `break`, `continue`).
fn jumps(block: Node<'_>) -> bool {
    named_code_children(block).last().is_some_and(|s| {
        matches!(
            s.kind(),
            "raise_statement" | "break_statement" | "continue_statement" | "return_statement"
        )
    })
}

/// The names bound on every path; when no path continues, nothing is
/// certain (what follows is not reached at all).
fn intersection(exits: Vec<HashSet<String>>) -> HashSet<String> {
    let mut all = exits.into_iter();
    match all.next() {
        Some(first) => all.fold(first, |acc, s| acc.intersection(&s).cloned().collect()),
        None => HashSet::new(),
    }
}

/// The plain names a `del` statement deletes (`del a, b`; not `del a[i]`).
fn deleted_names(text: &Rope, node: Node<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = named_code_children(node);
    while let Some(n) = stack.pop() {
        match n.kind() {
            "identifier" => out.push(crate::analysis::syntax::node_text(text, n)),
            "expression_list" | "tuple" | "list" | "parenthesized_expression" => {
                stack.extend(named_code_children(n))
            }
            _ => {}
        }
    }
    out.reverse();
    out
}

/// The targets of the `:=` expressions in `node`.
fn walrus_targets(text: &Rope, node: Node<'_>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "named_expression" {
            if let Some(name) = n.child_by_field_name("name") {
                out.push(node_chars(text, name));
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    out
}
