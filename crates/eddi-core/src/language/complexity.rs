//! Cyclomatic complexity of the functions of a brace language, counted as
//! lizard counts it (PyPI `lizard` 1.24.3, the multi-language tool Eddi's
//! figures are compared with, as Python's are with radon's): 1, plus one
//! per decision point in the function's own code. A function nested
//! inside that lizard reads as one (an inner function, a callback) has its
//! own figure and adds nothing to the one around it.
//!
//! A language gives its [`DecisionPoints`]: which nodes are functions and
//! how decision points are counted. lizard reads tokens, not a syntax
//! tree: where its reader departs from the tree (a `&&` swallowed by a
//! Rust char literal it misreads, a `?` of a Java wildcard `<? extends T>`
//! counted as a condition, a `||` closure), Eddi counts lizard's own tokens
//! ([`crate::language::lizard_tokens`]) over the function's text, with
//! the function's boundaries from the tree ([`Counted::Tokens`]); Go,
//! whose tokens and tree agree, counts nodes ([`Counted::Nodes`]). The
//! tables of the languages are here, side by side, as lizard's readers
//! count them (`lizard_languages/*.py`): [`JAVASCRIPT`] (and TypeScript),
//! [`GO`], [`RUST`], [`JAVA`].

use std::cell::OnceCell;
use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::outline::{display_name, Outline, Symbol, SymbolKind};
use crate::analysis::syntax::{byte_to_char, SyntaxTree};
use crate::language::lizard_tokens::{self, Dialect, Token};
use crate::language::token_functions;

/// What a language's complexity counts.
#[derive(Debug, Clone, Copy)]
pub struct DecisionPoints {
    /// Whether a node is a function (its body is counted on its own).
    pub is_function: fn(Node<'_>) -> bool,
    /// How the decision points are counted.
    pub counted: Counted,
}

/// How a language's decision points are counted.
#[derive(Debug, Clone, Copy)]
pub enum Counted {
    /// Nodes of the syntax tree: whether a node is a decision point.
    Nodes(fn(Node<'_>) -> bool),
    /// lizard's tokens over the function's text.
    Tokens(&'static TokenRules),
}

/// What a language's lizard reader counts, token by token.
#[derive(Debug)]
pub struct TokenRules {
    pub dialect: Dialect,
    /// The tokens that are decision points wherever they are.
    pub conditions: &'static [&'static str],
    /// Where lizard's count of a function begins (Java: at the body's
    /// brace — lizard counts a method afresh there, its signature's `?`
    /// wildcards are not the method's). What comes before is the code
    /// around it.
    pub start: fn(Node<'_>, &Lexed<'_>) -> usize,
    /// Rust: the arms of a `match` after the first, and `let … else`.
    pub match_arms_and_let_else: bool,
    /// Rust: a `fn` lizard meets in a function's code — in a macro's
    /// tokens (`quote! { fn f() where … {} }`), a `fn(u8)` type — begins
    /// a function of its own, up to the end of the first block after its
    /// parameters.
    pub functions_in_tokens: bool,
    /// Decision points lizard finds by reading the code's structure, not a
    /// token alone, counted as nodes of the tree (JavaScript: a default
    /// value in a parameter or a destructuring pattern).
    pub also: fn(Node<'_>, &Lexed<'_>) -> bool,
    /// Where lizard's reading of a function ends (JavaScript: an arrow
    /// function's expression body ends with its first line).
    pub end: fn(Node<'_>, &Lexed<'_>) -> usize,
    /// Code of a function whose conditions lizard loses: a node's range
    /// (JavaScript: `= (…)` read as an arrow function's parameters until
    /// the `=>` that does not come).
    pub lost: fn(Node<'_>, &Lexed<'_>) -> Option<Range<usize>>,
    /// Code inside a function that lizard does not give it, though it is
    /// no function of its own (Java: the body of a local or anonymous
    /// class — its field initializers are read as nobody's).
    pub apart: fn(Node<'_>) -> bool,
    /// Code inside a function that lizard's reader does not read, only
    /// counts the condition tokens of: none of it is lost (JavaScript: a
    /// block right after a `case`'s `:`, read as an inline type).
    pub unread: fn(Node<'_>) -> bool,
}

/// The complexity of a file's functions: the file's tokens are read once,
/// when a language counts tokens.
pub struct Counter<'a> {
    points: &'a DecisionPoints,
    source: String,
    tokens: OnceCell<Vec<Token>>,
    /// Rust: the declarations without a body lizard reads as functions.
    declarations: OnceCell<Vec<token_functions::Declaration>>,
}

/// Where a function is, as lizard reads it.
pub enum Extent<'t> {
    /// A function node of the tree.
    Node(Node<'t>),
    /// A function lizard reads from tokens where the tree has none: in a
    /// macro's tokens, or a Rust declaration without a body with the next
    /// block.
    Tokens(token_functions::TokenFunction),
}

impl Extent<'_> {
    /// Its bytes, from its first token to past its last.
    pub fn bytes(&self) -> Range<usize> {
        match self {
            Extent::Node(node) => node.byte_range(),
            Extent::Tokens(function) => function.start..function.end,
        }
    }

    /// Where its body begins (`None`: a declaration without one).
    pub fn body(&self) -> Option<usize> {
        match self {
            Extent::Node(node) => node.child_by_field_name("body").map(|b| b.start_byte()),
            Extent::Tokens(function) => Some(function.body),
        }
    }
}

impl<'a> Counter<'a> {
    pub fn new(text: &Rope, points: &'a DecisionPoints) -> Counter<'a> {
        Counter {
            points,
            source: match points.counted {
                Counted::Nodes(_) => String::new(),
                Counted::Tokens(_) => text.to_string(),
            },
            tokens: OnceCell::new(),
            declarations: OnceCell::new(),
        }
    }

    /// The complexity of the function `node`: 1 and its decision points,
    /// not those of the functions inside it.
    pub fn of_function(&self, node: Node<'_>) -> u32 {
        match self.points.counted {
            Counted::Nodes(is_decision) => {
                1 + nodes_within(node, node.start_byte(), self.points, is_decision)
            }
            Counted::Tokens(rules) => 1 + self.tokens_within(node, rules),
        }
    }

    /// The function a symbol of the outline names, where lizard reads it:
    /// its node ([`function_node`]), or, in Rust, lizard's function in a
    /// macro's tokens or from a declaration without a body
    /// ([`token_functions`]). `None` for a symbol that is no function to
    /// lizard.
    pub fn extent<'t>(
        &self,
        text: &Rope,
        tree: &'t SyntaxTree,
        symbol: &Symbol,
    ) -> Option<Extent<'t>> {
        match self.points.counted {
            Counted::Tokens(rules) if rules.functions_in_tokens => {
                let start = text.char_to_byte(symbol.definition.start);
                if token_functions::in_token_tree(tree.root(), start) {
                    return self.token_function_at(start, rules).map(Extent::Tokens);
                }
                self.read_from_fn(text, tree, symbol, rules)
            }
            _ => function_node(text, tree, symbol, self.points).map(Extent::Node),
        }
    }

    /// Rust, outside macros: a function of the tree, unless a declaration
    /// without a body before it takes it in (lizard reads no function
    /// there); a declaration, as lizard reads it, unless one before takes
    /// it in.
    fn read_from_fn<'t>(
        &self,
        text: &Rope,
        tree: &'t SyntaxTree,
        symbol: &Symbol,
        rules: &TokenRules,
    ) -> Option<Extent<'t>> {
        let tokens = self.tokens(rules);
        let declarations = self
            .declarations
            .get_or_init(|| token_functions::declarations(&self.source, tokens, tree.root()));
        // the first `fn` of a function's text (after `pub`, `unsafe`, …)
        let first_fn = |from: usize, to: usize| {
            tokens[tokens.partition_point(|t| t.start < from)..]
                .iter()
                .take_while(|t| t.start < to)
                .find(|t| t.text(&self.source) == "fn")
                .map(|t| t.start)
        };
        if let Some(node) = function_node(text, tree, symbol, self.points) {
            let start = first_fn(node.start_byte(), node.end_byte())?;
            let taken_in = declarations.iter().any(|d| d.swallowed.contains(&start));
            return (!taken_in).then_some(Extent::Node(node));
        }
        let definition =
            text.char_to_byte(symbol.definition.start)..text.char_to_byte(symbol.definition.end);
        let start = first_fn(definition.start, definition.end)?;
        if !declarations.iter().any(|d| d.start == start) {
            return None;
        }
        self.token_function_at(start, rules).map(Extent::Tokens)
    }

    /// The complexity of the function at `extent`.
    pub fn of_extent(&self, extent: &Extent<'_>) -> u32 {
        match extent {
            Extent::Node(node) => self.of_function(*node),
            Extent::Tokens(function) => self.of_token_function(function),
        }
    }

    /// lizard's function in the tokens whose `fn` begins at byte `start`.
    fn token_function_at(
        &self,
        start: usize,
        rules: &TokenRules,
    ) -> Option<token_functions::TokenFunction> {
        let tokens = self.tokens(rules);
        let i = tokens.partition_point(|t| t.start < start);
        if tokens.get(i)?.start != start {
            return None;
        }
        token_functions::TokenFunction::at(tokens, &self.source, i)
    }

    /// The complexity of a function lizard reads from tokens
    /// ([`Extent::Tokens`]): 1 and the decision points of its tokens, not
    /// those of the functions inside it. 1 for a language that reads no
    /// such functions.
    pub fn of_token_function(&self, function: &token_functions::TokenFunction) -> u32 {
        let Counted::Tokens(rules) = self.points.counted else {
            return 1;
        };
        let tokens = self.tokens(rules);
        let lexed = Lexed {
            source: &self.source,
            tokens,
        };
        let own = tokens[lexed.first_from(function.start)..lexed.first_from(function.end)].to_vec();
        1 + self.conditions_in(own, function.body, rules)
    }

    /// The file's tokens as lizard reads them, read once.
    fn tokens(&self, rules: &TokenRules) -> &[Token] {
        self.tokens
            .get_or_init(|| lizard_tokens::tokens(&self.source, rules.dialect))
    }

    fn tokens_within(&self, node: Node<'_>, rules: &TokenRules) -> u32 {
        let source = self.source.as_str();
        let tokens = self.tokens(rules);
        let lexed = Lexed { source, tokens };
        let start = (rules.start)(node, &lexed);
        let end = (rules.end)(node, &lexed);
        let excluded = merged(self.excluded(node, rules, &lexed));
        // the tokens between the ranges set apart, each gap's found by a
        // search: the tokens of the functions within are not read again
        let mut own: Vec<Token> = Vec::new();
        let mut from = start;
        for apart in excluded.iter().chain([&(end..end)]) {
            let to = apart.start.min(end);
            if to > from {
                own.extend_from_slice(&tokens[lexed.first_from(from)..lexed.first_from(to)]);
            }
            from = from.max(apart.end);
            if from >= end {
                break;
            }
        }
        let body = node
            .child_by_field_name("body")
            .map_or(node.end_byte(), |b| b.start_byte());
        self.conditions_in(own, body, rules)
            + nodes_within(node, start, self.points, |n| (rules.also)(n, &lexed))
    }

    /// lizard's decision points among a function's own tokens (`own`,
    /// those of the functions within it left out; `body`: the byte where
    /// its body begins).
    fn conditions_in(&self, own: Vec<Token>, body: usize, rules: &TokenRules) -> u32 {
        let source = self.source.as_str();
        let own = if rules.functions_in_tokens {
            without_functions_in_tokens(own, source, body)
        } else {
            own
        };
        let conditions = own
            .iter()
            .filter(|t| !t.literal && rules.conditions.contains(&t.text(source)))
            .count() as u32;
        let extra = if rules.match_arms_and_let_else {
            let in_body = own
                .iter()
                .filter(|t| t.start > body)
                .map(|t| t.text(source));
            match_arms_and_let_else(in_body)
        } else {
            0
        };
        conditions + extra
    }
}

impl Counter<'_> {
    /// The code inside the function `node` that is not its own, as
    /// ranges: the functions within it (from where lizard begins each to
    /// where it ends it), code set apart, and code whose conditions lizard
    /// loses. A function within is not read inside, but where lizard
    /// begins it after its tree node does (an arrow's parameters read as a
    /// call's arguments) or ends it before (an arrow's body on the next
    /// line): the functions there are still their own.
    fn excluded(&self, node: Node<'_>, rules: &TokenRules, lexed: &Lexed<'_>) -> Vec<Range<usize>> {
        let is_function = self.points.is_function;
        let mut excluded = Vec::new();
        // (a node, whether lizard reads it as the function's own code)
        let mut stack = vec![(node, true)];
        // one cursor for the walk, not one (an allocation) per node
        let mut walk = node.walk();
        while let Some((n, own)) = stack.pop() {
            for child in n.children(&mut walk) {
                if is_function(child) {
                    // what lizard reads before a function begins, or after
                    // it ends, is this one's; the functions there are not
                    let (start, end) = ((rules.start)(child, lexed), (rules.end)(child, lexed));
                    excluded.push(start..end);
                    if start > child.start_byte() || end < child.end_byte() {
                        stack.push((child, false));
                    }
                } else if (rules.apart)(child) {
                    excluded.push(child.byte_range());
                } else {
                    let read = own && !(rules.unread)(child);
                    if let Some(lost) = read.then(|| (rules.lost)(child, lexed)).flatten() {
                        excluded.push(lost);
                    }
                    stack.push((child, read));
                }
            }
        }
        excluded
    }
}

/// A file's source and its tokens as lizard reads them.
pub struct Lexed<'s> {
    pub source: &'s str,
    pub tokens: &'s [Token],
}

impl Lexed<'_> {
    /// The index of the first token at or after byte `at`.
    fn first_from(&self, at: usize) -> usize {
        self.tokens.partition_point(|t| t.start < at)
    }

    /// Whether token `i` begins a line (lizard ends an arrow function's
    /// expression body there), or spans one.
    fn begins_line(&self, i: usize) -> bool {
        let token = self.tokens[i];
        let before = if i == 0 { 0 } else { self.tokens[i - 1].end };
        self.source[before..token.end].contains('\n')
    }
}

/// Ranges sorted and merged where they overlap.
fn merged(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<Range<usize>> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// The decision points among the nodes of `node` from byte `from` on, not
/// those of the functions inside it.
fn nodes_within(
    node: Node<'_>,
    from: usize,
    points: &DecisionPoints,
    is_decision: impl Fn(Node<'_>) -> bool,
) -> u32 {
    let mut count = 0;
    let mut stack: Vec<Node<'_>> = Vec::new();
    // one cursor for the walk, not one (an allocation) per node
    let mut walk = node.walk();
    stack.extend(node.children(&mut walk));
    while let Some(n) = stack.pop() {
        if (points.is_function)(n) {
            continue;
        }
        if n.start_byte() >= from && is_decision(n) {
            count += 1;
        }
        stack.extend(n.children(&mut walk));
    }
    count
}

/// `tokens` without the functions lizard's Rust reader finds among them
/// ([`token_functions::function_at`]: `fn`, a name, the parameters, up to
/// a `{`, and that block). A `fn` not followed so is left as it is. Only
/// the function's body (from byte `body`) is read so.
fn without_functions_in_tokens(tokens: Vec<Token>, source: &str, body: usize) -> Vec<Token> {
    let mut keep = vec![true; tokens.len()];
    let mut i = tokens.partition_point(|t| t.start < body);
    while i < tokens.len() {
        let Some((_, end)) = token_functions::function_at(&tokens, source, i) else {
            i += 1;
            continue;
        };
        for k in keep.iter_mut().take(end).skip(i) {
            *k = false;
        }
        i = end;
    }
    tokens
        .into_iter()
        .zip(keep)
        .filter_map(|(t, k)| k.then_some(t))
        .collect()
}

/// lizard's Rust reader, past the condition tokens: in the body of a
/// `match` (after its subject, at the match's own brace level) each `=>`
/// after the first is a decision; an `else` that does not follow the body
/// of an `if` is a `let … else`. Each brace opens a level read afresh, and
/// the body of an `if` is the first brace at the parenthesis depth where
/// the `if` stood — so `if let S { a } = x {` takes the pattern's braces
/// for the body, as lizard does. `tokens`: a function body's, after its
/// opening brace.
fn match_arms_and_let_else<'s>(tokens: impl Iterator<Item = &'s str>) -> u32 {
    #[derive(Default)]
    struct Level {
        in_match_arms: bool,
        seen_arm: bool,
        /// `Some(depth)` while reading a match's subject
        match_subject: Option<u32>,
        parens: u32,
        if_bodies: Vec<u32>,
        else_follows_if_body: bool,
        closes_if_body: bool,
    }
    let mut count = 0;
    let mut levels = vec![Level::default()];
    for token in tokens {
        let Some(level) = levels.last_mut() else {
            break;
        };
        if let Some(depth) = level.match_subject.as_mut() {
            match token {
                "(" | "[" => *depth += 1,
                ")" | "]" => *depth = depth.saturating_sub(1),
                "{" if *depth == 0 => {
                    level.match_subject = None;
                    levels.push(Level {
                        in_match_arms: true,
                        ..Level::default()
                    });
                }
                _ => {}
            }
            continue;
        }
        match token {
            "=>" => {
                if level.in_match_arms {
                    count += u32::from(level.seen_arm);
                    level.seen_arm = true;
                }
                continue;
            }
            "match" => {
                level.match_subject = Some(0);
                continue;
            }
            _ => {}
        }
        if token != "else" {
            level.else_follows_if_body = false;
        }
        match token {
            "(" | "[" => level.parens += 1,
            ")" | "]" => level.parens = level.parens.saturating_sub(1),
            _ => {}
        }
        match token {
            "else" => {
                count += u32::from(!level.else_follows_if_body);
                level.else_follows_if_body = false;
            }
            "if" => level.if_bodies.push(level.parens),
            "{" => {
                let if_body = level.if_bodies.last() == Some(&level.parens);
                if if_body {
                    level.if_bodies.pop();
                }
                levels.push(Level {
                    closes_if_body: if_body,
                    ..Level::default()
                });
            }
            "}" => {
                let closed = levels.pop().expect("a level");
                if let Some(outer) = levels.last_mut() {
                    outer.else_follows_if_body = closed.closes_if_body;
                }
            }
            _ => {}
        }
    }
    count
}

/// The function node a symbol of the outline names: the first function
/// node within its definition (a `const f = () => …` binds the arrow).
pub fn function_node<'t>(
    text: &Rope,
    tree: &'t SyntaxTree,
    symbol: &Symbol,
    points: &DecisionPoints,
) -> Option<Node<'t>> {
    let start = text.char_to_byte(symbol.definition.start);
    let end = text.char_to_byte(symbol.definition.end);
    let mut node = tree.root().descendant_for_byte_range(start, end)?;
    // the smallest node holding the whole definition
    while node.start_byte() > start || node.end_byte() < end {
        node = node.parent()?;
    }
    // a definition within its function's node: a Java method's begins
    // after its annotations, which the node holds (`@Override`)
    if (points.is_function)(node) {
        return Some(node);
    }
    let mut queue = std::collections::VecDeque::from([node]);
    while let Some(n) = queue.pop_front() {
        if (points.is_function)(n) && byte_to_char(text, n.start_byte()) >= symbol.definition.start
        {
            return Some(n);
        }
        let mut walk = n.walk();
        queue.extend(n.children(&mut walk));
    }
    None
}

/// The figures of a file (`subject: None`) or of one element: each
/// function and method in it with a name that addresses it (`C.x.getter`
/// where a getter and a setter share `C.x`) and its figure, in source
/// order, and the element's own figure when it is a function.
pub fn figures(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    subject: Option<&Symbol>,
    points: &DecisionPoints,
) -> (Option<u32>, Vec<(String, u32)>) {
    let inside = |s: &Symbol| match subject {
        None => true,
        Some(element) => {
            s.definition.start >= element.definition.start
                && s.definition.end <= element.definition.end
        }
    };
    let counter = Counter::new(text, points);
    let figure = |s: &Symbol| counter.extent(text, tree, s).map(|e| counter.of_extent(&e));
    // the functions without a name of their own too: lizard lists them,
    // and their conditions are no other function's
    let inner = match outline.inner.is_empty() {
        true => super::inner_functions::inner_functions(text, tree, outline, points),
        false => outline.inner.clone(),
    };
    let mut blocks: Vec<(usize, String, u32)> =
        outline
            .symbols
            .iter()
            .filter(|s| s.kind.is_callable() && s.kind != SymbolKind::Local && inside(s))
            .filter_map(|s| figure(s).map(|c| (s.definition.start, display_name(outline, s), c)))
            .chain(inner.iter().filter(|s| inside(s)).filter_map(|s| {
                figure(s).map(|c| (s.definition.start, s.qualified_name.clone(), c))
            }))
            .collect();
    blocks.sort_by_key(|(start, _, _)| *start);
    let blocks = blocks.into_iter().map(|(_, name, c)| (name, c)).collect();
    let total = subject.filter(|s| s.kind.is_callable()).and_then(figure);
    (total, blocks)
}

/// JavaScript and TypeScript, as lizard's tokens: `if`, `for`, `while`,
/// `catch`, `case`, `&&`, `||`, `??` (their assignments too: `&&=` is read
/// `&&` `=`) and `?` — a conditional expression's or a conditional
/// type's, not an optional name's (`a?: T`, `a?.b`: other tokens), none
/// inside a template literal's `${…}` (one opaque token) — and, from the
/// tree, a default value in a parameter or a destructuring pattern;
/// every function form is its own.
pub const JAVASCRIPT: DecisionPoints = DecisionPoints {
    is_function: |node| match node.kind() {
        "function_declaration"
        | "function_expression"
        | "function"
        | "method_definition"
        | "generator_function"
        | "generator_function_declaration" => true,
        // an arrow that is another's body (`(a) => (b) => …`) is read as
        // part of it
        "arrow_function" => node.parent().is_none_or(|p| p.kind() != "arrow_function"),
        _ => false,
    },
    counted: Counted::Tokens(&TokenRules {
        dialect: Dialect::Script,
        conditions: &[
            "if", "elseif", "for", "while", "catch", "case", "&&", "||", "??", "?",
        ],
        start: script_function_start,
        match_arms_and_let_else: false,
        functions_in_tokens: false,
        also: |node, lexed| match node.kind() {
            "assignment_pattern" | "object_assignment_pattern" => {
                !after_method_in_pattern(node, lexed)
            }
            // TypeScript: a parameter with a default value
            "required_parameter" | "optional_parameter" => {
                node.child_by_field_name("value").is_some()
            }
            _ => false,
        },
        end: script_function_end,
        lost: script_lost_code,
        apart: |_| false,
        unread: block_read_as_type,
    }),
};

/// Where lizard stops reading a JavaScript function: an arrow function's
/// expression body ends with its first token that begins a line outside
/// brackets (before it, when the body begins there), a `;`, the bracket
/// that closes around it, or the `}` of a brace outside brackets (lizard
/// takes it for the function's body) — so `(x) =>\n  a && b` has no
/// conditions of its own, `f(x => a, b && c)` has `b && c` in the arrow,
/// and `(m) => a ? { m } : m || {}` has not the `||`.
fn script_function_end(node: Node<'_>, lexed: &Lexed<'_>) -> usize {
    let Some(body) = node
        .child_by_field_name("body")
        .filter(|b| node.kind() == "arrow_function" && b.kind() != "statement_block")
    else {
        return node.end_byte();
    };
    let first = lexed.first_from(body.start_byte());
    let mut depth = 0usize;
    for i in first..lexed.tokens.len() {
        let text = lexed.tokens[i].text(lexed.source);
        let previous = if i > 0 {
            lexed.tokens[i - 1].text(lexed.source)
        } else {
            ""
        };
        if depth == 0 && lexed.begins_line(i) && ends_arrow_on_new_line(text, previous) {
            // the token that ends it is still its own (lizard counts a
            // token before it reads it), unless the body begins there
            return if i == first {
                lexed.tokens[i].start
            } else {
                lexed.tokens[i].end
            };
        }
        if depth == 0 && i > first && text == ";" {
            return lexed.tokens[i].start;
        }
        if depth == 0 && text == "{" {
            let close = past_group(lexed, i) - 1;
            return lexed.tokens[close].end;
        }
        match text {
            "(" | "[" | "{" | "${" => depth += 1,
            ")" | "]" | "}" => {
                if depth == 0 {
                    return lexed.tokens[i].start;
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    lexed.source.len()
}

/// Whether a token that begins a line ends an arrow function's expression
/// body: lizard's reader ends it there unless the token is one it handles
/// first — a bracket, a keyword that opens a statement, `=`, `=>`, a
/// member access, `new`, `async`, `static`, or `[` after an operand's
/// start (`(a && b)` on the next line is still the arrow's).
fn ends_arrow_on_new_line(token: &str, previous: &str) -> bool {
    let handled = matches!(
        token,
        "(" | "{"
            | "}"
            | ")"
            | "function"
            | "if"
            | "switch"
            | "for"
            | "while"
            | "catch"
            | "else"
            | "do"
            | "try"
            | "final"
            | "=>"
            | "="
            | "."
            | "?."
            | "static"
            | "async"
            | "new"
    ) || (token == "[" && !matches!(previous, "." | ")" | "]" | "}"));
    !handled
}

/// Code of a JavaScript function whose conditions lizard loses: a group
/// read as an arrow function's parameters, or a call in an object
/// literal read as a method's name and parameters.
fn script_lost_code(node: Node<'_>, lexed: &Lexed<'_>) -> Option<Range<usize>> {
    script_group_read_as_parameters(node, lexed).or_else(|| script_call_read_as_method(node, lexed))
}

/// A call of a bare name in an object literal's member value that
/// lizard's object reader takes for a method's name and parameters (see
/// [`object_reader_reads_method`]): when neither `{`, `=>` nor `:`
/// follows the `)`, lizard drops that method with what it read, the
/// token after the `)` included — `key:\n  a ||\n  f(x) || b` loses the
/// second `||`, `f(a && b)` on a line of its own the `&&`. A `(` or
/// `function` first in the parentheses drops it before anything is read.
fn script_call_read_as_method(node: Node<'_>, lexed: &Lexed<'_>) -> Option<Range<usize>> {
    if node.kind() != "call_expression" || node.child_by_field_name("type_arguments").is_some() {
        return None;
    }
    let callee = node.child_by_field_name("function")?;
    let arguments = node.child_by_field_name("arguments")?;
    if callee.kind() != "identifier" || arguments.kind() != "arguments" {
        return None;
    }
    let object = object_around(node)?;
    let open = lexed.first_from(arguments.start_byte());
    let name = open.checked_sub(1)?;
    if lexed.tokens[name].start != callee.start_byte()
        || !object_reader_reads_method(lexed, object, name)
    {
        return None;
    }
    let text = |i: usize| lexed.tokens.get(i).map_or("", |t| t.text(lexed.source));
    if matches!(text(open + 1), "(" | "function") {
        return None;
    }
    let after = lexed.tokens.get(lexed.first_from(arguments.end_byte()))?;
    match after.text(lexed.source) {
        // a method to lizard, or one with a return type: it reads on
        "{" | "=>" | ":" => None,
        _ => Some(arguments.start_byte()..after.end),
    }
}

/// Whether the default `node` comes after a call lizard's object reader
/// reads as a method's name and parameters at the level of the
/// destructuring pattern it reads as an object
/// ([`script_call_read_as_method`]: `const { m = f(x), t = 1 } = o`):
/// its reader reads the `(` twice, and its count of the pattern's defaults
/// stays inside the call's brackets to the pattern's end.
fn after_method_in_pattern(node: Node<'_>, lexed: &Lexed<'_>) -> bool {
    let mut pattern = None;
    let mut up = node.parent();
    while let Some(p) = up.filter(|p| p.kind().ends_with("pattern")) {
        if p.kind() == "object_pattern" {
            pattern = Some(p);
        }
        up = p.parent();
    }
    let Some(pattern) = pattern.filter(|p| pattern_read_as_object(*p)) else {
        return false;
    };
    let mut stack = vec![pattern];
    let mut walk = pattern.walk();
    while let Some(n) = stack.pop() {
        if n.start_byte() >= node.start_byte() {
            continue;
        }
        if n.kind() == "call_expression"
            && object_around(n) == Some(pattern)
            && script_call_read_as_method(n, lexed).is_some()
        {
            return true;
        }
        stack.extend(n.children(&mut walk));
    }
    false
}

/// Whether lizard reads a destructuring pattern with its object reader:
/// one a declaration or an assignment binds (`const { a } = o`), not a
/// parameter's.
fn pattern_read_as_object(pattern: Node<'_>) -> bool {
    pattern.parent().is_some_and(|p| match p.kind() {
        "variable_declarator" => p.child_by_field_name("name") == Some(pattern),
        "assignment_expression" => p.child_by_field_name("left") == Some(pattern),
        _ => false,
    })
}

/// The object literal `node` is read in by lizard's object reader at the
/// object's own level: `node` is (a part of an operator's or a member
/// access's operands in) a member's value or a spread, not inside
/// brackets of its own — or the block lizard reads as an object
/// ([`block_read_as_object`]) it is a statement of.
fn object_around(node: Node<'_>) -> Option<Node<'_>> {
    let mut child = node;
    let mut parent = node.parent()?;
    loop {
        let through = match parent.kind() {
            "object" => return Some(parent),
            "object_pattern" => return pattern_read_as_object(parent).then_some(parent),
            // a default value in such a pattern
            "object_assignment_pattern" | "assignment_pattern" => {
                parent.child_by_field_name("right") == Some(child)
            }
            "pair_pattern" => parent.child_by_field_name("value") == Some(child),
            "statement_block" => return block_read_as_object(parent).then_some(parent),
            "pair" => parent.child_by_field_name("value") == Some(child),
            // a statement of a block read as an object
            "expression_statement"
            | "yield_expression"
            | "return_statement"
            | "lexical_declaration"
            | "variable_declaration" => true,
            "variable_declarator" => parent.child_by_field_name("value") == Some(child),
            "assignment_expression" => parent.child_by_field_name("right") == Some(child),
            "member_expression" => parent.child_by_field_name("object") == Some(child),
            "binary_expression"
            | "ternary_expression"
            | "unary_expression"
            | "await_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "spread_element" => true,
            _ => false,
        };
        if !through {
            return None;
        }
        child = parent;
        parent = parent.parent()?;
    }
}

/// Whether lizard reads a block as an object literal: a `case`'s or a
/// label's `:` begins a TypeScript type annotation to its reader, which
/// reads through the `(…)` of the statement after it (`case 1: for (…)
/// {`, `if (…) {`) or on to its `{` (`try {`), so that block is the next
/// thing it reads — at the level where a `{` opens an object. So does a
/// declaration's type with no `=` or `;` after it (`let d: T` on the line
/// before the `if`).
fn block_read_as_object(block: Node<'_>) -> bool {
    let Some(statement) = block.parent() else {
        return false;
    };
    let field = match statement.kind() {
        "if_statement" => "consequence",
        "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
        | "try_statement" => "body",
        _ => return false,
    };
    statement.child_by_field_name(field) == Some(block)
        && (after_colon(statement) || after_open_type(statement))
}

/// Whether `statement` follows a declaration whose last declarator ends
/// with its type, with no `;` (`let d: T | undefined`): lizard's type
/// reader reads on into it.
fn after_open_type(statement: Node<'_>) -> bool {
    let mut previous = statement.prev_named_sibling();
    while let Some(comment) = previous.filter(|p| p.kind() == "comment") {
        previous = comment.prev_named_sibling();
    }
    let Some(previous) = previous else {
        return false;
    };
    if !matches!(
        previous.kind(),
        "lexical_declaration" | "variable_declaration"
    ) || previous
        .child(previous.child_count().saturating_sub(1))
        .is_some_and(|c| c.kind() == ";")
    {
        return false;
    }
    let last = previous.named_child(previous.named_child_count().saturating_sub(1));
    last.is_some_and(|d| {
        d.kind() == "variable_declarator"
            && d.child_by_field_name("type").is_some()
            && d.child_by_field_name("value").is_none()
    })
}

/// Whether lizard reads a block as an inline type: it follows a `case`'s
/// or a label's `:` (`case 1: {`), where lizard's reader reads a type
/// annotation (see [`block_read_as_object`]).
fn block_read_as_type(node: Node<'_>) -> bool {
    node.kind() == "statement_block" && after_colon(node)
}

/// Whether `node` is the first statement after a `case`'s or a label's `:`.
fn after_colon(node: Node<'_>) -> bool {
    node.parent().is_some_and(|p| {
        matches!(
            p.kind(),
            "switch_case" | "switch_default" | "labeled_statement"
        )
    }) && node.prev_sibling().is_some_and(|s| s.kind() == ":")
}

/// Whether lizard's object reader, reading `object` up to token `name`
/// (a name before `(`), takes `name(` for a method's beginning: it does
/// unless it is in a member's value — since the member's `key:` no line
/// began and no `,` came at the object's level — or a member access came
/// (`.`, `?.`, `new`: lizard keeps that mark until a line begins or a
/// call's parentheses). A value's call of its own key's name (`a:
/// a(x)`) is a method's beginning too.
fn object_reader_reads_method(lexed: &Lexed<'_>, object: Node<'_>, name: usize) -> bool {
    let text = |i: usize| lexed.tokens[i].text(lexed.source);
    let mut in_value = false;
    let mut key = "";
    let mut member_access = false;
    let mut ternaries = 0u32;
    let mut i = lexed.first_from(object.start_byte()) + 1;
    while i <= name {
        let token = text(i);
        let previous = text(i - 1);
        // a line's first token resets the reader, unless lizard handles
        // it first (a bracket, a keyword, a member access; a `:` or `<`
        // of the object's)
        if lexed.begins_line(i)
            && ends_arrow_on_new_line(token, previous)
            && !matches!(token, ":" | "<")
        {
            in_value = false;
            member_access = false;
        }
        match token {
            "(" | "[" | "{" | "${" => {
                // read by a reader of its own; a call's `(` clears the mark
                member_access &= token != "(";
                i = past_group(lexed, i);
                continue;
            }
            "?" => ternaries += 1,
            ":" if ternaries > 0 => {
                ternaries -= 1;
                member_access = false;
            }
            ":" => {
                in_value = true;
                key = previous;
            }
            "," => in_value = false,
            "." | "?." | "new" => member_access = true,
            _ => {}
        }
        i += 1;
    }
    !member_access && (!in_value || key == text(name))
}

/// The index after the bracket that closes the one opening at token
/// `open` (`(`, `[`, `{` or a template's `${`).
fn past_group(lexed: &Lexed<'_>, open: usize) -> usize {
    let mut depth = 0usize;
    for (i, token) in lexed.tokens.iter().enumerate().skip(open) {
        match token.text(lexed.source) {
            "(" | "[" | "{" | "${" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    lexed.tokens.len()
}

/// A group lizard reads as an arrow function's parameters — a
/// parenthesized expression or a call's arguments its reader takes so
/// ([`Paren::Parameters`]: `name = (…)`, `name = f<T>(…)`), or a
/// parenthesized expression after an object's `key:` or `...` — when no
/// `=>` follows the closing parenthesis: lizard drops that function with
/// the conditions read so far, up to the token after the parenthesis
/// (`const a = (b && c) || d` loses `&&` and `||`). A group that opens
/// with another `(` or with `function` is dropped before anything is read.
fn script_group_read_as_parameters(node: Node<'_>, lexed: &Lexed<'_>) -> Option<Range<usize>> {
    let parenthesized = node.kind() == "parenthesized_expression";
    if !parenthesized && node.kind() != "arguments" {
        return None;
    }
    let open = lexed.first_from(node.start_byte());
    let text = |i: usize| lexed.tokens[i].text(lexed.source);
    // (a node of the parser's recovery may hold no token)
    if open == 0 || open >= lexed.tokens.len() || text(open) != "(" {
        return None;
    }
    let bound = match text(open - 1) {
        // an object's `...(a) && b`: a member, not a call
        "..." => {
            parenthesized
                && start_aligned(node).is_some_and(|p| {
                    p.kind() == "spread_element" && p.parent().is_some_and(|o| o.kind() == "object")
                })
        }
        ":" | ")" if object_value_group(node, lexed) => true,
        _ => paren_reading(lexed, open) == Paren::Parameters,
    };
    if !bound {
        return None;
    }
    let inner = lexed.tokens.get(open + 1)?.text(lexed.source);
    if inner == "(" || inner == "function" {
        return None;
    }
    let after = lexed.first_from(node.end_byte());
    let end = lexed.tokens.get(after).map_or(node.end_byte(), |t| {
        if matches!(t.text(lexed.source), "=>" | "{" | ":") {
            node.start_byte()
        } else {
            t.end
        }
    });
    (end > node.start_byte()).then(|| node.start_byte()..end)
}

/// Whether the group `node` opens an object member's value (`key: (…) as
/// T`, or the alternative `c ? d : (…)` of such a value), or is a call's
/// arguments right after such a group (`key: (0, f)(x) ? a : b`): lizard's
/// object reader reads each as a method's parameters (it does not take
/// the first's `)` for the token before the next `(`).
fn object_value_group(node: Node<'_>, lexed: &Lexed<'_>) -> bool {
    let open = lexed.first_from(node.start_byte());
    let text = |i: usize| lexed.tokens[i].text(lexed.source);
    if open < 2 || open >= lexed.tokens.len() {
        return false;
    }
    match (node.kind(), text(open - 1)) {
        ("parenthesized_expression", ":") => {
            text(open - 2).starts_with(|c: char| c.is_alphabetic() || matches!(c, '_' | '$' | '#'))
                && in_object_value(node)
        }
        ("arguments", ")") => {
            let callee = node
                .parent()
                .and_then(|call| call.child_by_field_name("function"));
            let group = callee.and_then(|c| match c.kind() {
                "call_expression" => c.child_by_field_name("arguments"),
                "parenthesized_expression" => Some(c),
                _ => None,
            });
            group.is_some_and(|g| object_value_group(g, lexed))
        }
        _ => false,
    }
}

/// How lizard's JavaScript reader takes a `(` in a statement.
#[derive(Debug, PartialEq)]
enum Paren {
    /// A call's arguments, read by a reader of their own: an arrow
    /// function's parameters read so are arguments of the function around
    /// it (their defaults count nothing, their conditions are its).
    Call,
    /// An arrow function's parameters, whether or not a `=>` follows.
    Parameters,
    /// A group, or an arrow function's parameters once its `=>` comes.
    Group,
}

/// How lizard's reader takes the `(` at token `open`, from what its
/// statement held before it at its bracket level: after a member access
/// or `new` (a mark lizard keeps to the statement's end), a call's; after
/// `name =`, an arrow function's parameters right after the `=`, `async`
/// or a `>` (`name = f<T>(`), a call's elsewhere (`name = c ? (…) : d`) —
/// and such a call makes lizard forget the name; else a group.
fn paren_reading(lexed: &Lexed<'_>, open: usize) -> Paren {
    let text = |i: usize| lexed.tokens[i].text(lexed.source);
    let previous = |i: usize| if i == 0 { "" } else { text(i - 1) };
    let taken_as = |member: bool, named: bool, previous: &str| match (member, named) {
        (true, _) => Paren::Call,
        (false, true) if matches!(previous, "=" | "async" | ">") => Paren::Parameters,
        (false, true) => Paren::Call,
        (false, false) => Paren::Group,
    };
    let (mut member, mut named, mut ternaries) = (false, false, 0u32);
    let mut i = statement_start(lexed, open);
    while i < open {
        match text(i) {
            "." | "?." | "new" => member = true,
            "?" => ternaries += 1,
            // tokens lizard marks the statement with instead
            "async" | "static" => member = false,
            ":" if ternaries > 0 => {
                ternaries -= 1;
                member = false;
            }
            // a type annotation, read by a reader of its own
            ":" => {
                member = false;
                i = past_type_annotation(lexed, i + 1).min(open);
                continue;
            }
            "=" => {
                named |= previous(i)
                    .starts_with(|c: char| c.is_alphabetic() || matches!(c, '_' | '$' | '#'))
            }
            "=>" | "function" => named = false,
            "(" => {
                // a call after `name =` makes lizard forget the name
                if !member && taken_as(false, named, previous(i)) == Paren::Call {
                    named = false;
                }
                i = past_group(lexed, i);
                continue;
            }
            // a binding pattern's `[` (not an operand's subscript) and a
            // brace are read by a reader of their own
            "[" if !member && !subscript(previous(i)) => {
                i = past_group(lexed, i);
                continue;
            }
            "{" => {
                i = past_group(lexed, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    taken_as(member, named, previous(open))
}

/// The index after a TypeScript type annotation that begins at token
/// `from`, as lizard reads it: an inline `{…}` type, a type up to its
/// generic arguments' `<…>` or a function type's `(…)`, or up to the
/// `=`, `=>`, `;`, `)` or `{` after it.
fn past_type_annotation(lexed: &Lexed<'_>, from: usize) -> usize {
    let text = |i: usize| lexed.tokens[i].text(lexed.source);
    if from < lexed.tokens.len() && text(from) == "{" {
        return past_group(lexed, from);
    }
    let mut angles = 0usize;
    for i in from..lexed.tokens.len() {
        match text(i) {
            "<" => angles += 1,
            ">" if angles > 0 => {
                angles -= 1;
                if angles == 0 {
                    return i + 1;
                }
            }
            _ if angles > 0 => {}
            "(" => return past_group(lexed, i),
            "=" | "=>" | ";" | ")" | "{" => return i,
            _ => {}
        }
    }
    lexed.tokens.len()
}

/// Whether lizard reads a `[` after token `previous` as a subscript of an
/// operand, not a binding pattern's.
fn subscript(previous: &str) -> bool {
    matches!(previous, ")" | "]" | "}")
        || (previous.starts_with(|c: char| c.is_alphanumeric() || "_$#'\"`".contains(c))
            && !matches!(
                previous,
                "const" | "let" | "var" | "return" | "throw" | "yield" | "await"
            ))
}

/// The first token of the statement holding token `at`, at `at`'s
/// bracket level, as lizard's reader begins it afresh: after a `;`, a
/// brace, the bracket `at` is in, or at a line's first token it does not
/// handle first (a ternary's `:` it does).
fn statement_start(lexed: &Lexed<'_>, at: usize) -> usize {
    let text = |i: usize| lexed.tokens[i].text(lexed.source);
    let mut i = at;
    while i > 0 {
        i -= 1;
        match text(i) {
            ";" | "{" | "}" | "(" | "[" | "${" => return i + 1,
            ")" | "]" => i = group_open(lexed, i),
            _ => {}
        }
        let previous = if i == 0 { "" } else { text(i - 1) };
        if lexed.begins_line(i) && text(i) != ":" && ends_arrow_on_new_line(text(i), previous) {
            return i;
        }
    }
    0
}

/// The index of the bracket that opens the group closing at token
/// `close`.
fn group_open(lexed: &Lexed<'_>, close: usize) -> usize {
    let mut depth = 0usize;
    for i in (0..=close).rev() {
        match lexed.tokens[i].text(lexed.source) {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" | "${" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    0
}

/// Where lizard begins a JavaScript function: at its parameters' `(`
/// (type parameters, `m<T = A extends B ? C : D>()`, are read before it
/// begins), and an arrow function whose `(` its reader takes for a call's
/// ([`paren_reading`]: `this.f = (a = b || c) => …`) at its `=>` — its
/// parameters are the function around it's, their `||` too.
fn script_function_start(node: Node<'_>, lexed: &Lexed<'_>) -> usize {
    let Some(parameters) = node.child_by_field_name("parameters") else {
        return node.start_byte();
    };
    let open = lexed.first_from(parameters.start_byte());
    let read_as_call = node.kind() == "arrow_function"
        && lexed
            .tokens
            .get(open)
            .is_some_and(|t| t.start == parameters.start_byte() && t.text(lexed.source) == "(")
        && paren_reading(lexed, open) == Paren::Call;
    if !read_as_call {
        return parameters.start_byte();
    }
    let mut walk = node.walk();
    let arrow = node.children(&mut walk).find(|c| c.kind() == "=>");
    arrow.map_or(node.start_byte(), |a| a.start_byte())
}

/// Whether `node` is an object member's value (`key: (…) as T`), or the
/// alternative of a conditional expression that is one.
fn in_object_value(node: Node<'_>) -> bool {
    let Some(parent) = start_aligned(node) else {
        return false;
    };
    match parent.kind() {
        "pair" => true,
        "ternary_expression" => {
            parent.child_by_field_name("alternative") == Some(node)
                && start_aligned(parent).is_some_and(|p| p.kind() == "pair")
        }
        _ => false,
    }
}

/// The parent of the outermost node that starts where `node` does.
fn start_aligned(node: Node<'_>) -> Option<Node<'_>> {
    let mut outer = node;
    while let Some(p) = outer
        .parent()
        .filter(|p| p.start_byte() == node.start_byte())
    {
        outer = p;
    }
    outer.parent()
}

/// Go: `if`, `for`, each `case` of a switch, type switch or select,
/// `&&`/`||`; a function literal is its own function.
pub const GO: DecisionPoints = DecisionPoints {
    is_function: |node| {
        matches!(
            node.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        )
    },
    counted: Counted::Nodes(|node| match node.kind() {
        "if_statement" | "for_statement" | "expression_case" | "type_case"
        | "communication_case" => true,
        "binary_expression" => operator_in(node, &["&&", "||"]),
        _ => false,
    }),
};

/// Rust, as lizard's tokens: `if` (`if let` too), `for`, `while`, `&&`,
/// `||` (a closure without parameters, `|| …`, too), `?` and `where`
/// wherever they stand — in a macro's arguments too (`assert!(a && b)`) —
/// each arm of a `match` after the first, and a `let … else`. A closure
/// is not a function of its own (lizard reads it as part of the function
/// around it).
pub const RUST: DecisionPoints = DecisionPoints {
    is_function: |node| node.kind() == "function_item",
    counted: Counted::Tokens(&TokenRules {
        dialect: Dialect::Rust,
        conditions: &["if", "for", "while", "catch", "where", "&&", "||", "?"],
        start: |node, _| node.start_byte(),
        match_arms_and_let_else: true,
        functions_in_tokens: true,
        also: |_, _| false,
        end: |node, _| node.end_byte(),
        lost: |_, _| None,
        apart: |_| false,
        unread: |_| false,
    }),
};

/// Java, as lizard's tokens: `if`, `for`, `while`, `catch`, `case` (not
/// `default`), `&&`, `||` and `?` — the ternary's, and a wildcard's where
/// lizard does not read the generic arguments as one
/// (`Callable<? extends Future<T>>`). A method's own tokens begin at its
/// body: lizard starts a method's count afresh at its opening brace. Methods and constructors are the functions (a lambda is part of
/// the method around it, as lizard reads it; a method of an anonymous or
/// local class is its own).
pub const JAVA: DecisionPoints = DecisionPoints {
    // (an abstract or an interface's method without a body is no
    // function to lizard)
    is_function: |node| match node.kind() {
        "method_declaration" => node.child_by_field_name("body").is_some(),
        "constructor_declaration" | "compact_constructor_declaration" => true,
        _ => false,
    },
    counted: Counted::Tokens(&TokenRules {
        dialect: Dialect::Java,
        conditions: &["if", "for", "while", "catch", "case", "&&", "||", "?"],
        start: |node, _| {
            node.child_by_field_name("body")
                .map_or(node.start_byte(), |body| body.start_byte())
        },
        match_arms_and_let_else: false,
        functions_in_tokens: false,
        also: |_, _| false,
        end: |node, _| node.end_byte(),
        lost: |_, _| None,
        apart: |node| node.kind() == "class_body",
        unread: |_| false,
    }),
};

/// Whether `node`'s operator is one of `operators`.
fn operator_in(node: Node<'_>, operators: &[&str]) -> bool {
    node.child_by_field_name("operator")
        .is_some_and(|op| operators.contains(&op.kind()))
}
