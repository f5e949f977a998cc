//! The errors CPython's compiler raises after parsing, which tree-sitter's
//! grammar accepts: what its parser's second pass, `symtable` and compiler
//! check (Python 3.11 messages).
//!
//! * Parameters: a parameter without a default after one with a default,
//!   duplicate names, `*` twice, anything after `**`, a bare `*` with no
//!   keyword-only parameter, `/` misplaced.
//! * Where statements may stand: `return`/`yield` outside a function,
//!   `yield` inside a comprehension, `break`/`continue` outside a loop,
//!   `await`/`async for`/`async with`/async comprehensions outside an async
//!   function (an async generator expression may stand anywhere), `return`
//!   with a value in an async generator, `import *` outside the module level,
//!   `from __future__` after other code (and unknown features).
//! * Targets: assignment, augmented assignment, `for`, `with … as` and `del`
//!   of literals, calls or other expressions; starred targets; annotated
//!   tuples; `__debug__`; `:=` in a comprehension's iterable or rebinding
//!   its variable; a starred expression where none may stand.
//! * Calls: a keyword repeated, a positional argument after a keyword or
//!   `**`, `*` after `**`, an unparenthesised generator among other arguments.
//! * `global`/`nonlocal`: at module level, a parameter, after a use or an
//!   assignment in the same scope, both at once, no binding to refer to.
//! * Indentation: tabs and spaces mixed inconsistently (`TabError`), a
//!   dedent to no outer level.
//! * Blocks: a body missing at the end of the file, a `default except:`
//!   before others, `except` mixed with `except*`, a `match` case that
//!   matches everything before other cases.
//! * Literals: a number running into a name, `010`, `10L`, non-ASCII bytes,
//!   mixed bytes and str, incomplete escapes, bad f-string conversions.
//! * Python 2 forms: `print x`, `exec x`, parenthesised tuple parameters.
//!
//! Not checked: what depends on the Python version (3.11's f-string
//! limits, lifted in 3.12), unknown `\N{…}` names, nesting limits.
//!
//! This module walks the tree with the stack of enclosing blocks (module,
//! class, function, lambda, comprehension); `declarations` checks
//! `global`/`nonlocal`, `literals` numbers and strings, `indentation` the
//! tokenizer's view of tabs and spaces.
//!
//! Subtrees with parse errors are skipped: tree-sitter's recovery already
//! reports them, and checks on a guessed tree would be noise.

use std::collections::HashSet;

use ropey::Rope;
use tree_sitter::Node;

use super::nodes::{children, named_code_children, unparenthesized};
use super::syntax::{node_start, node_text, SyntaxTree};
use super::validate::SyntaxError;
use indentation::{indentation_errors, next_code_line};
use literals::string_prefix;

mod declarations;
mod indentation;
mod literals;

/// The compile-time errors of a parsed file, in source order.
pub fn compile_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let root = tree.root();
    let mut checker = Checker {
        text,
        out: Vec::new(),
        frames: vec![Frame {
            block: Block::Module,
            node: root,
        }],
        depth: 0,
        cursors: Default::default(),
        bodies: Vec::new(),
        empty_bodies: Vec::new(),
    };
    checker.future_imports(root);
    checker.walk(root, false);
    let indentation = indentation_errors(text);
    // a body tree-sitter saw as empty because of mixed tabs and spaces:
    // the tokenizer's error on the next line is the one CPython raises
    let empty_bodies = std::mem::take(&mut checker.empty_bodies);
    let mut at = 0;
    checker.out.retain(|e| {
        at += 1;
        !empty_bodies.contains(&(at - 1))
            || !indentation
                .iter()
                .any(|i| Some(i.position.line) == next_code_line(text, e.position.line))
    });
    checker.out.extend(indentation);
    checker.out.sort_by_key(|e| e.position);
    checker.out.dedup();
    checker.out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Module,
    Class,
    Function {
        is_async: bool,
    },
    Lambda,
    /// `"list comprehension"` …; generator expressions may be async anywhere.
    Comprehension {
        kind: &'static str,
        is_generator: bool,
    },
}

#[derive(Clone, Copy)]
struct Frame<'t> {
    block: Block,
    node: Node<'t>,
}

struct Checker<'a, 't> {
    text: &'a Rope,
    out: Vec<SyntaxError>,
    frames: Vec<Frame<'t>>,
    /// How deep the walk is nested now: syntax nested deeper than
    /// [`MAX_DEPTH`] is not checked, so that a pathological file cannot
    /// overflow the stack (CPython refuses such nesting anyway).
    depth: usize,
    /// Cursors reused by `walk_children` (creating one allocates; a
    /// Django-wide rename checks a million nodes).
    cursors: crate::analysis::syntax::CursorPool<'t>,
    /// What the body of each function being walked holds, for the checks
    /// that need the whole body (one per `Block::Function` frame).
    bodies: Vec<FunctionBody<'t>>,
    /// Which errors of `out` are "expected an indented block": a mixed
    /// indentation error on the next line replaces such an error.
    empty_bodies: Vec<usize>,
}

/// The `yield`s, `await`s and valued `return`s of one function's own scope
/// (not of the functions, classes, lambdas and comprehensions inside it),
/// gathered by the main walk as it passes them.
#[derive(Default)]
struct FunctionBody<'t> {
    yields: bool,
    awaits: bool,
    returns: Vec<Node<'t>>,
    yield_froms: Vec<Node<'t>>,
}

/// Deepest syntax nesting checked, as in the resolver and the index.
pub(super) const MAX_DEPTH: usize = crate::analysis::scope::MAX_DEPTH;

/// The node kinds [`Checker::walk_node`] tells apart, matched by id
/// ([`crate::language::KindTable`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    FunctionDefinition,
    Lambda,
    ClassDefinition,
    Comprehension,
    /// `for` and `while`
    Loop,
    WithStatement,
    ReturnStatement,
    Yield,
    Await,
    BreakStatement,
    ContinueStatement,
    ArgumentList,
    Assignment,
    AugmentedAssignment,
    DeleteStatement,
    WithItem,
    ExpressionStatement,
    /// `global` and `nonlocal`
    Declaration,
    ImportFromStatement,
    TryStatement,
    MatchStatement,
    PrintStatement,
    ExecStatement,
    NamedExpression,
    /// `integer` and `float`
    Number,
    String,
    ConcatenatedString,
    Block,
    Other,
}

impl Kind {
    fn of_name(name: &str) -> Kind {
        match name {
            "function_definition" => Kind::FunctionDefinition,
            "lambda" => Kind::Lambda,
            "class_definition" => Kind::ClassDefinition,
            kind if comprehension_kind(kind).is_some() => Kind::Comprehension,
            "for_statement" | "while_statement" => Kind::Loop,
            "with_statement" => Kind::WithStatement,
            "return_statement" => Kind::ReturnStatement,
            "yield" => Kind::Yield,
            "await" => Kind::Await,
            "break_statement" => Kind::BreakStatement,
            "continue_statement" => Kind::ContinueStatement,
            "argument_list" => Kind::ArgumentList,
            "assignment" => Kind::Assignment,
            "augmented_assignment" => Kind::AugmentedAssignment,
            "delete_statement" => Kind::DeleteStatement,
            "with_item" => Kind::WithItem,
            "expression_statement" => Kind::ExpressionStatement,
            "global_statement" | "nonlocal_statement" => Kind::Declaration,
            "import_from_statement" => Kind::ImportFromStatement,
            "try_statement" => Kind::TryStatement,
            "match_statement" => Kind::MatchStatement,
            "print_statement" => Kind::PrintStatement,
            "exec_statement" => Kind::ExecStatement,
            "named_expression" => Kind::NamedExpression,
            "integer" | "float" => Kind::Number,
            "string" => Kind::String,
            "concatenated_string" => Kind::ConcatenatedString,
            "block" => Kind::Block,
            _ => Kind::Other,
        }
    }

    /// What `Kind::of_name(node.kind())` gives, by id.
    fn of(node: Node<'_>) -> Kind {
        static TABLE: std::sync::OnceLock<crate::language::KindTable<Kind>> =
            std::sync::OnceLock::new();
        TABLE
            .get_or_init(|| {
                crate::language::KindTable::new(super::grammar::python(), Kind::of_name)
            })
            .of(node)
    }
}

fn comprehension_kind(kind: &str) -> Option<(&'static str, bool)> {
    Some(match kind {
        "list_comprehension" => ("list comprehension", false),
        "set_comprehension" => ("set comprehension", false),
        "dictionary_comprehension" => ("dict comprehension", false),
        "generator_expression" => ("generator expression", true),
        _ => return None,
    })
}

/// `Some(None)` when `node` has no named child but comments, `Some(Some(c))`
/// when `c` is its only one, `None` when it has more: what
/// `named_code_children(node)` would hold, without collecting it.
fn sole_code_child(node: Node<'_>) -> Option<Option<Node<'_>>> {
    match node.named_child_count() {
        0 => return Some(None),
        1 => return Some(node.named_child(0).filter(|c| c.kind() != "comment")),
        _ => {}
    }
    let mut c = node.walk();
    let mut code = node
        .named_children(&mut c)
        .filter(|n| n.kind() != "comment");
    match (code.next(), code.next()) {
        (first, None) => Some(first),
        _ => None,
    }
}

fn starts_with_async(node: Node<'_>) -> bool {
    node.child(0).is_some_and(|c| c.kind() == "async")
}

impl<'a, 't> Checker<'a, 't> {
    fn error(&mut self, node: Node<'_>, message: impl Into<String>) {
        self.out.push(SyntaxError {
            position: node_start(self.text, node),
            message: message.into(),
        });
    }

    fn text_of(&self, node: Node<'_>) -> String {
        node_text(self.text, node)
    }

    /// `self.text_of(node) == s`, without copying the text.
    fn text_is(&self, node: Node<'_>, s: &str) -> bool {
        let range = node.byte_range();
        range.len() == s.len() && self.text.get_byte_slice(range).is_some_and(|t| t == s)
    }

    /// The facts of the function whose own scope the walk is in: none in
    /// a class body, a lambda or a comprehension (their own scopes), nor at
    /// module level.
    fn own_body(&mut self) -> Option<&mut FunctionBody<'t>> {
        match self.block() {
            Block::Function { .. } => self.bodies.last_mut(),
            _ => None,
        }
    }

    /// `return *a`, `yield *a`, `*a` as a statement: a starred expression
    /// standing alone.
    fn starred_alone(&mut self, node: Node<'t>) {
        if let Some(Some(only)) = sole_code_child(node) {
            if only.kind() == "list_splat" {
                self.error(only, "can't use starred expression here");
            }
        }
    }

    fn block(&self) -> Block {
        self.frames.last().map_or(Block::Module, |f| f.block)
    }

    fn in_async_function(&self) -> bool {
        self.block() == Block::Function { is_async: true }
    }

    fn with_frame(&mut self, block: Block, node: Node<'t>, f: impl FnOnce(&mut Self)) {
        self.frames.push(Frame { block, node });
        f(self);
        self.frames.pop();
    }

    fn walk_children(&mut self, node: Node<'t>, in_loop: bool) {
        let mut cursor = self.cursors.take(node);
        if cursor.goto_first_child() {
            loop {
                self.walk(cursor.node(), in_loop);
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.cursors.give(cursor);
    }

    fn walk(&mut self, node: Node<'t>, in_loop: bool) {
        if node.is_error() || node.is_missing() || self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        self.walk_node(node, in_loop);
        self.depth -= 1;
    }

    fn walk_node(&mut self, node: Node<'t>, in_loop: bool) {
        match Kind::of(node) {
            Kind::FunctionDefinition => self.function(node),
            Kind::Lambda => {
                if let Some(params) = node.child_by_field_name("parameters") {
                    self.parameters(params);
                    self.walk(params, in_loop);
                }
                if let Some(body) = node.child_by_field_name("body") {
                    self.with_frame(Block::Lambda, node, |c| c.walk(body, false));
                }
            }
            Kind::ClassDefinition => {
                for child in children(node) {
                    if Some(child) == node.child_by_field_name("body") {
                        self.with_frame(Block::Class, node, |c| c.walk(child, false));
                    } else {
                        self.walk(child, in_loop);
                    }
                }
            }
            Kind::Comprehension => self.comprehension(node),
            Kind::Loop => {
                if let Some(left) = node.child_by_field_name("left") {
                    self.starred_targets(left);
                }
                if node.kind() == "for_statement" && starts_with_async(node) {
                    self.async_statement(node, "'async for' outside async function");
                }
                let body = node.child_by_field_name("body");
                for child in children(node) {
                    self.walk(child, in_loop || Some(child) == body);
                }
            }
            Kind::WithStatement => {
                if starts_with_async(node) {
                    self.async_statement(node, "'async with' outside async function");
                }
                self.walk_children(node, in_loop);
            }
            Kind::ReturnStatement => {
                if !matches!(self.block(), Block::Function { .. }) {
                    self.error(node, "'return' outside function");
                }
                self.starred_alone(node);
                if node.named_child_count() > 0 {
                    if let Some(body) = self.own_body() {
                        body.returns.push(node);
                    }
                }
                self.walk_children(node, in_loop);
            }
            Kind::Yield => {
                match self.block() {
                    Block::Comprehension { kind, .. } => {
                        self.error(node, format!("'yield' inside {kind}"))
                    }
                    Block::Module | Block::Class => self.error(node, "'yield' outside function"),
                    _ => {}
                }
                self.starred_alone(node);
                if let Some(body) = self.own_body() {
                    body.yields = true;
                    if node.child(1).is_some_and(|c| c.kind() == "from") {
                        body.yield_froms.push(node);
                    }
                }
                self.walk_children(node, in_loop);
            }
            Kind::Await => {
                self.await_expression(node);
                if let Some(body) = self.own_body() {
                    body.awaits = true;
                }
                self.walk_children(node, in_loop);
            }
            Kind::BreakStatement if !in_loop => self.error(node, "'break' outside loop"),
            Kind::ContinueStatement if !in_loop => {
                self.error(node, "'continue' not properly in loop")
            }
            Kind::ArgumentList => {
                self.arguments(node);
                self.walk_children(node, in_loop);
            }
            Kind::Assignment => {
                self.assignment(node);
                self.walk_children(node, in_loop);
            }
            Kind::AugmentedAssignment => {
                if let Some(left) = node.child_by_field_name("left").map(unparenthesized) {
                    if let Some(what) = match left.kind() {
                        "identifier" | "attribute" | "subscript" => None,
                        "pattern_list" | "tuple_pattern" => Some("tuple"),
                        "list_pattern" => Some("list"),
                        "list_splat_pattern" => Some("starred"),
                        _ => Some("expression"),
                    } {
                        self.error(
                            left,
                            format!("'{what}' is an illegal expression for augmented assignment"),
                        );
                    }
                    self.debug_target(left);
                }
                self.walk_children(node, in_loop);
            }
            Kind::DeleteStatement => {
                for target in named_code_children(node) {
                    self.deletable(target);
                }
                self.walk_children(node, in_loop);
            }
            Kind::WithItem => {
                if let Some(value) = node.child_by_field_name("value") {
                    if value.kind() == "as_pattern" {
                        if let Some(alias) = value.child_by_field_name("alias") {
                            for target in named_code_children(alias) {
                                self.assignable(target, "assign to");
                            }
                        }
                    }
                }
                self.walk_children(node, in_loop);
            }
            Kind::ExpressionStatement => {
                self.starred_alone(node);
                self.walk_children(node, in_loop);
            }
            Kind::Declaration => self.declaration(node),
            Kind::ImportFromStatement => {
                let star = named_code_children(node)
                    .into_iter()
                    .find(|n| n.kind() == "wildcard_import");
                if let Some(star) = star {
                    if self.block() != Block::Module {
                        self.error(star, "import * only allowed at module level");
                    }
                }
            }
            Kind::TryStatement => {
                let clauses: Vec<Node<'t>> = named_code_children(node)
                    .into_iter()
                    .filter(|n| n.kind() == "except_clause")
                    .collect();
                let star = |clause: Node<'_>| children(clause).iter().any(|c| c.kind() == "*");
                for (i, clause) in clauses.iter().enumerate() {
                    let bare = named_code_children(*clause)
                        .first()
                        .is_none_or(|n| n.kind() == "block");
                    if bare && i + 1 < clauses.len() {
                        self.error(*clause, "default 'except:' must be last");
                    }
                }
                if let Some(mixed) = clauses.iter().find(|c| star(**c) != star(clauses[0])) {
                    self.error(
                        *mixed,
                        "cannot have both 'except' and 'except*' on the same 'try'",
                    );
                }
                self.walk_children(node, in_loop);
            }
            Kind::MatchStatement => {
                self.unreachable_cases(node);
                self.walk_children(node, in_loop);
            }
            Kind::PrintStatement => {
                // `print >> f` alone is a valid shift expression
                let only_chevron = named_code_children(node)
                    .iter()
                    .all(|n| n.kind() == "chevron");
                if !only_chevron {
                    self.error(
                        node,
                        "Missing parentheses in call to 'print'. Did you mean print(...)?",
                    );
                }
                self.walk_children(node, in_loop);
            }
            Kind::ExecStatement => self.error(
                node,
                "Missing parentheses in call to 'exec'. Did you mean exec(...)?",
            ),
            Kind::NamedExpression => {
                self.walrus(node);
                self.walk_children(node, in_loop);
            }
            Kind::Number => {
                self.number_end(node);
                self.integer_form(node);
            }
            Kind::String => {
                self.string(node);
                self.walk_children(node, in_loop);
            }
            Kind::ConcatenatedString => {
                let kinds: HashSet<bool> = named_code_children(node)
                    .into_iter()
                    .filter(|n| n.kind() == "string")
                    .map(|n| string_prefix(self.text, n).contains(['b', 'B']))
                    .collect();
                if kinds.len() > 1 {
                    self.error(node, "cannot mix bytes and nonbytes literals");
                }
                self.walk_children(node, in_loop);
            }
            Kind::Block if sole_code_child(node) == Some(None) => {
                self.empty_block(node);
                self.walk_children(node, in_loop);
            }
            _ => self.walk_children(node, in_loop),
        }
    }

    /// tree-sitter accepts a header with no body at the end of the file
    /// (or before only comments); CPython's tokenizer wants an indented
    /// block. Reported where CPython does: on the last comment, else on
    /// the header's line.
    fn empty_block(&mut self, block: Node<'t>) {
        let Some(header) = block.parent().filter(|h| !h.has_error()) else {
            return;
        };
        let what = match header.kind() {
            "function_definition" => "function definition".to_owned(),
            "class_definition" => "class definition".to_owned(),
            kind => {
                let keyword = kind
                    .trim_end_matches("_statement")
                    .trim_end_matches("_clause");
                format!("'{keyword}' statement")
            }
        };
        let colon_line = block
            .prev_sibling()
            .map_or(header.start_position().row, |n| n.end_position().row);
        let mut line = colon_line;
        for next in colon_line + 1..self.text.len_lines() {
            let content = super::lines::text_of(self.text, next);
            let content = content.trim();
            if content.starts_with('#') {
                line = next;
            } else if !content.is_empty() {
                break;
            }
        }
        self.empty_bodies.push(self.out.len());
        self.out.push(SyntaxError {
            position: crate::edit::Position::new(line, 0),
            // CPython adds "on line N" (1-based); Eddi's positions say where
            message: format!("expected an indented block after {what}"),
        });
    }

    /// A case that matches everything (`case x:`, `case _:`, unguarded)
    /// must be the last.
    fn unreachable_cases(&mut self, node: Node<'t>) {
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let cases: Vec<Node<'t>> = named_code_children(body)
            .into_iter()
            .filter(|n| n.kind() == "case_clause")
            .collect();
        for case in cases.iter().rev().skip(1).rev() {
            if case.child_by_field_name("guard").is_some() || case.has_error() {
                continue;
            }
            let patterns: Vec<Node<'t>> = named_code_children(*case)
                .into_iter()
                .filter(|n| n.kind() == "case_pattern")
                .collect();
            let [pattern] = patterns.as_slice() else {
                continue;
            };
            let inner = named_code_children(*pattern);
            let message = match inner.as_slice() {
                [] if self.text_of(*pattern) == "_" => {
                    "wildcard makes remaining patterns unreachable".to_owned()
                }
                [name] if name.kind() == "dotted_name" && name.named_child_count() == 1 => {
                    format!(
                        "name capture '{}' makes remaining patterns unreachable",
                        self.text_of(*name)
                    )
                }
                _ => continue,
            };
            self.error(*case, message);
        }
    }

    fn function(&mut self, node: Node<'t>) {
        let is_async = starts_with_async(node);
        let body = node.child_by_field_name("body");
        if let Some(params) = node.child_by_field_name("parameters") {
            self.parameters(params);
        }
        let mut facts = FunctionBody::default();
        for child in children(node) {
            if Some(child) == body {
                self.bodies.push(FunctionBody::default());
                self.with_frame(Block::Function { is_async }, node, |c| c.walk(child, false));
                facts = self.bodies.pop().unwrap_or_default();
            } else {
                self.walk(child, false);
            }
        }
        if let Some(name) = node.child_by_field_name("name") {
            self.debug_target(name);
        }
        if is_async {
            for y in facts.yield_froms {
                self.error(y, "'yield from' inside async function");
            }
        }
        // CPython's symtable makes any function with an `await` a coroutine
        if facts.yields && (is_async || facts.awaits) {
            for r in facts.returns {
                self.error(r, "'return' with value in async generator");
            }
        }
    }

    /// A comprehension: its first iterable belongs to the enclosing scope.
    fn comprehension(&mut self, node: Node<'t>) {
        let (kind, is_generator) =
            comprehension_kind(node.kind()).unwrap_or(("comprehension", false));
        let clauses: Vec<Node<'t>> = named_code_children(node)
            .into_iter()
            .filter(|n| n.kind() == "for_in_clause")
            .collect();
        let first_iterable = clauses.first().and_then(|c| c.child_by_field_name("right"));
        // tree-sitter accepts Python 2's `for x in a, b` in comprehensions
        for clause in &clauses {
            let mut c = clause.walk();
            let rights: Vec<Node<'t>> = clause.children_by_field_name("right", &mut c).collect();
            if let [_, second, ..] = rights.as_slice() {
                let call_argument = is_generator
                    && node
                        .parent()
                        .and_then(|p| p.child_by_field_name("arguments"))
                        .is_some_and(|a| a.id() == node.id());
                if call_argument {
                    self.error(node, "Generator expression must be parenthesized");
                } else {
                    self.error(*second, "invalid syntax");
                }
            }
        }
        if !is_generator {
            if let Some(clause) = clauses.iter().find(|c| starts_with_async(**c)) {
                if !self.async_allowed_here() {
                    self.error(
                        *clause,
                        "asynchronous comprehension outside of an asynchronous function",
                    );
                }
            }
        }
        if let Some(first) = first_iterable {
            self.walk(first, false);
        }
        let block = Block::Comprehension { kind, is_generator };
        self.with_frame(block, node, |c| {
            for child in children(node) {
                if child.kind() == "for_in_clause" {
                    for part in children(child) {
                        if Some(part) != first_iterable {
                            c.walk(part, false);
                        }
                    }
                } else {
                    c.walk(child, false);
                }
            }
        });
    }

    /// True where an await or async comprehension may stand (seen from a
    /// new comprehension): inside an async function or a generator expression.
    fn async_allowed_here(&self) -> bool {
        for frame in self.frames.iter().rev() {
            match frame.block {
                Block::Comprehension {
                    is_generator: true, ..
                } => return true,
                Block::Comprehension { .. } => continue,
                Block::Function { is_async } => return is_async,
                _ => return false,
            }
        }
        false
    }

    fn await_expression(&mut self, node: Node<'t>) {
        let mut in_comprehension = false;
        for frame in self.frames.iter().rev() {
            let message = match frame.block {
                Block::Comprehension {
                    is_generator: true, ..
                } => return,
                Block::Comprehension { .. } => {
                    in_comprehension = true;
                    continue;
                }
                Block::Function { is_async: true } => return,
                _ if in_comprehension => {
                    "asynchronous comprehension outside of an asynchronous function"
                }
                Block::Function { .. } | Block::Lambda => "'await' outside async function",
                Block::Module | Block::Class => "'await' outside function",
            };
            self.error(node, message);
            return;
        }
    }

    fn async_statement(&mut self, node: Node<'t>, message: &str) {
        if !self.in_async_function() {
            self.error(node, message);
        }
    }

    /// The checks CPython's parser and symtable make on a parameter list.
    fn parameters(&mut self, params: Node<'t>) {
        if params.has_error() {
            return;
        }
        let list = named_code_children(params);
        let mut seen_default = false;
        let mut star = false;
        let mut bare_star: Option<Node<'t>> = None;
        let mut double_star = false;
        let mut slash = false;
        let mut names: HashSet<String> = HashSet::new();
        for (i, p) in list.iter().enumerate() {
            let p = *p;
            if double_star {
                self.error(p, "arguments cannot follow var-keyword argument");
                return;
            }
            let tuple = p.kind() == "tuple_pattern"
                || p.child_by_field_name("name")
                    .is_some_and(|n| n.kind() == "tuple_pattern");
            if tuple {
                self.error(
                    p,
                    if params.kind() == "lambda_parameters" {
                        "Lambda expression parameters cannot be parenthesized"
                    } else {
                        "Function parameters cannot be parenthesized"
                    },
                );
                return;
            }
            let inner = if p.kind() == "typed_parameter" {
                named_code_children(p).first().copied().unwrap_or(p)
            } else {
                p
            };
            match inner.kind() {
                "list_splat_pattern" | "keyword_separator" => {
                    if star {
                        self.error(p, "* argument may appear only once");
                        return;
                    }
                    star = true;
                    if inner.kind() == "keyword_separator" {
                        bare_star = Some(p);
                    }
                }
                "dictionary_splat_pattern" => double_star = true,
                "positional_separator" => {
                    if star {
                        self.error(p, "/ must be ahead of *");
                        return;
                    }
                    if slash {
                        self.error(p, "/ may appear only once");
                        return;
                    }
                    if i == 0 {
                        self.error(p, "at least one argument must precede /");
                        return;
                    }
                    slash = true;
                }
                "default_parameter" | "typed_default_parameter" => {
                    seen_default = true;
                    bare_star = None;
                }
                _ => {
                    if seen_default && !star {
                        self.error(p, "non-default argument follows default argument");
                        return;
                    }
                    bare_star = None;
                }
            }
            if let Some(name) = parameter_name(p) {
                let name = self.text_of(name);
                if name == "__debug__" {
                    self.error(p, "cannot assign to __debug__");
                }
                if !names.insert(name.clone()) {
                    self.error(
                        p,
                        format!("duplicate argument '{name}' in function definition"),
                    );
                }
            }
        }
        if let Some(bare) = bare_star {
            self.error(bare, "named arguments must follow bare *");
        }
    }

    fn arguments(&mut self, node: Node<'t>) {
        if node.has_error() {
            return;
        }
        let args = named_code_children(node);
        let mut keyword = false;
        let mut double_star = false;
        let mut names: HashSet<String> = HashSet::new();
        for arg in &args {
            let arg = *arg;
            match arg.kind() {
                "keyword_argument" => {
                    keyword = true;
                    if let Some(name) = arg.child_by_field_name("name") {
                        let name = self.text_of(name);
                        if !names.insert(name.clone()) {
                            self.error(arg, format!("keyword argument repeated: {name}"));
                        }
                    }
                }
                "dictionary_splat" => double_star = true,
                "list_splat" if double_star => self.error(
                    arg,
                    "iterable argument unpacking follows keyword argument unpacking",
                ),
                "list_splat" => {}
                _ => {
                    if arg.kind() == "generator_expression"
                        && args.len() > 1
                        && self.text.get_byte(arg.start_byte()) != Some(b'(')
                    {
                        self.error(arg, "Generator expression must be parenthesized");
                    } else if double_star {
                        self.error(
                            arg,
                            "positional argument follows keyword argument unpacking",
                        );
                    } else if keyword {
                        self.error(arg, "positional argument follows keyword argument");
                    }
                }
            }
        }
    }

    fn assignment(&mut self, node: Node<'t>) {
        if node.has_error() {
            return;
        }
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        if node.child_by_field_name("type").is_some() {
            // `(a): int` is a parenthesised name, not a tuple
            let tuple = left.kind() == "pattern_list"
                || (left.kind() == "tuple_pattern"
                    && children(left).iter().any(|c| c.kind() == ","));
            let what = match left.kind() {
                _ if tuple => Some("tuple"),
                "list_pattern" => Some("list"),
                _ => None,
            };
            if let Some(what) = what {
                self.error(
                    left,
                    format!("only single target (not {what}) can be annotated"),
                );
            }
        }
        self.starred_targets(left);
        self.assignable(left, "assign to");
        if let Some(right) = node.child_by_field_name("right") {
            if right.kind() == "list_splat" {
                self.error(right, "can't use starred expression here");
            }
        }
    }

    /// A starred target alone (`*a = b`), or two in one (`*a, *b = c`).
    fn starred_targets(&mut self, left: Node<'t>) {
        if left.kind() == "list_splat_pattern" {
            self.error(left, "starred assignment target must be in a list or tuple");
        } else if left.kind() == "pattern_list" {
            let starred = named_code_children(left)
                .iter()
                .filter(|n| n.kind() == "list_splat_pattern")
                .count();
            if starred > 1 {
                self.error(left, "multiple starred expressions in assignment");
            }
        }
    }

    /// Reports what cannot be assigned (or deleted) in a target.
    fn assignable(&mut self, target: Node<'t>, verb: &str) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        self.assignable_node(target, verb);
        self.depth -= 1;
    }

    fn assignable_node(&mut self, target: Node<'t>, verb: &str) {
        match target.kind() {
            "identifier" => self.debug_target(target),
            "attribute" | "subscript" => {}
            "pattern_list" | "tuple_pattern" | "list_pattern" | "tuple" | "list"
            | "expression_list" => {
                let items = named_code_children(target);
                let starred = items
                    .iter()
                    .filter(|n| matches!(n.kind(), "list_splat_pattern" | "list_splat"))
                    .count();
                if starred > 1 && verb == "assign to" && target.kind() != "pattern_list" {
                    self.error(target, "multiple starred expressions in assignment");
                }
                for item in items {
                    self.assignable(item, verb);
                }
            }
            "parenthesized_expression" | "list_splat_pattern" | "list_splat" => {
                for item in named_code_children(target) {
                    self.assignable(item, verb);
                }
            }
            other => {
                let what = match other {
                    "call" => "function call",
                    "integer"
                    | "float"
                    | "string"
                    | "concatenated_string"
                    | "true"
                    | "false"
                    | "none"
                    | "ellipsis" => match self.text_of(target).as_str() {
                        "True" | "False" | "None" => return self.named_constant(target, verb),
                        _ => "literal",
                    },
                    "dictionary" | "set" => "dict literal",
                    "lambda" => "lambda",
                    "await" => "await expression",
                    "yield" => "yield expression",
                    "named_expression" => "named expression",
                    "conditional_expression" => "conditional expression",
                    "comparison_operator" => "comparison",
                    "list_comprehension" => "list comprehension",
                    "set_comprehension" => "set comprehension",
                    "dictionary_comprehension" => "dict comprehension",
                    "generator_expression" => "generator expression",
                    "keyword_identifier" => return,
                    _ => "expression",
                };
                self.error(target, format!("cannot {verb} {what}"));
            }
        }
    }

    fn named_constant(&mut self, target: Node<'t>, verb: &str) {
        let name = self.text_of(target);
        self.error(target, format!("cannot {verb} {name}"));
    }

    fn deletable(&mut self, target: Node<'t>) {
        if target.kind() == "expression_list" {
            for item in named_code_children(target) {
                self.assignable(item, "delete");
            }
        } else {
            self.assignable(target, "delete");
        }
    }

    fn debug_target(&mut self, target: Node<'t>) {
        if target.kind() == "identifier" && self.text_is(target, "__debug__") {
            self.error(target, "cannot assign to __debug__");
        }
    }

    /// `:=` inside a comprehension: not in an iterable, not on its variables,
    /// not in a class body.
    fn walrus(&mut self, node: Node<'t>) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = self.text_of(name);
        let comprehensions: Vec<Node<'t>> = self
            .frames
            .iter()
            .rev()
            .take_while(|f| matches!(f.block, Block::Comprehension { .. }))
            .map(|f| f.node)
            .collect();
        if comprehensions.is_empty() {
            // the first iterable of a comprehension is walked outside it
            let mut up = node.parent();
            while let Some(n) = up {
                if n.kind() == "for_in_clause"
                    && n.child_by_field_name("right")
                        .is_some_and(|r| r.start_byte() <= node.start_byte())
                {
                    self.error(
                        node,
                        "assignment expression cannot be used in a comprehension iterable expression",
                    );
                    return;
                }
                if matches!(
                    n.kind(),
                    "function_definition" | "lambda" | "class_definition" | "module"
                ) {
                    break;
                }
                up = n.parent();
            }
            return;
        }
        let mut up = node.parent();
        while let Some(n) = up {
            if n.kind() == "for_in_clause" {
                if n.child_by_field_name("right")
                    .is_some_and(|r| r.start_byte() <= node.start_byte())
                {
                    self.error(
                        node,
                        "assignment expression cannot be used in a comprehension iterable expression",
                    );
                    return;
                }
                break;
            }
            if comprehensions.contains(&n) {
                break;
            }
            up = n.parent();
        }
        for comp in &comprehensions {
            for clause in named_code_children(*comp) {
                if clause.kind() != "for_in_clause" {
                    continue;
                }
                if let Some(left) = clause.child_by_field_name("left") {
                    let mut bound = Vec::new();
                    identifiers(left, &mut bound);
                    if bound.iter().any(|id| self.text_of(*id) == name) {
                        self.error(
                            node,
                            format!("assignment expression cannot rebind comprehension iteration variable '{name}'"),
                        );
                        return;
                    }
                }
            }
        }
        let outer = self
            .frames
            .iter()
            .rev()
            .find(|f| !matches!(f.block, Block::Comprehension { .. }));
        if outer.is_some_and(|f| f.block == Block::Class) {
            self.error(
                node,
                "assignment expression within a comprehension cannot be used in a class body",
            );
        }
    }

    /// `from __future__ import …` only at the top (after a docstring and
    /// other future imports), with known features.
    fn future_imports(&mut self, root: Node<'t>) {
        const FEATURES: &[&str] = &[
            "nested_scopes",
            "generators",
            "division",
            "absolute_import",
            "with_statement",
            "print_function",
            "unicode_literals",
            "barry_as_FLUFL",
            "generator_stop",
            "annotations",
        ];
        let mut leading = true;
        for (i, stmt) in named_code_children(root).into_iter().enumerate() {
            if stmt.kind() != "future_import_statement" {
                let docstring = i == 0
                    && stmt.kind() == "expression_statement"
                    && named_code_children(stmt)
                        .first()
                        .is_some_and(|n| n.kind() == "string");
                if !docstring {
                    leading = false;
                }
                continue;
            }
            if stmt.has_error() {
                continue;
            }
            if !leading {
                self.error(
                    stmt,
                    "from __future__ imports must occur at the beginning of the file",
                );
            }
            for feature in named_code_children(stmt) {
                let name = match feature.kind() {
                    "aliased_import" => feature.child_by_field_name("name"),
                    "dotted_name" => Some(feature),
                    _ => None,
                };
                let Some(name) = name else { continue };
                let name = self.text_of(name);
                if name == "braces" {
                    self.error(feature, "not a chance");
                } else if !FEATURES.contains(&name.as_str()) {
                    self.error(feature, format!("future feature {name} is not defined"));
                }
            }
        }
    }
}

/// The identifier a parameter binds.
fn parameter_name(p: Node<'_>) -> Option<Node<'_>> {
    match p.kind() {
        "identifier" => Some(p),
        "default_parameter" | "typed_default_parameter" => p
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier"),
        "typed_parameter" | "list_splat_pattern" | "dictionary_splat_pattern" => {
            named_code_children(p)
                .first()
                .copied()
                .and_then(parameter_name)
        }
        _ => None,
    }
}

fn identifiers<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    if node.kind() == "identifier" {
        out.push(node);
        return;
    }
    for child in named_code_children(node) {
        identifiers(child, out);
    }
}
