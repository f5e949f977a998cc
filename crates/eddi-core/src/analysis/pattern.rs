//! Code patterns with metavariables — `pow($a, $b)`, `$x.append($y)`,
//! `print($$$args)` — parsed as Python, matched on syntax trees, and
//! filtered by what names resolve to (rope's `restructure`, ast-grep's
//! patterns, with Eddi's resolver behind them).
//!
//! A pattern is one expression or one statement. In it `$a` stands for
//! any one expression (the same text wherever `$a` appears again), `$_`
//! for any one expression, unbound, and `$$$a` (or `$$$`) for a run of
//! siblings, possibly none (arguments, elements, statements). Everything
//! else must be there as written, whitespace, comments and parentheses of
//! the layout aside; punctuation between siblings is not compared, the
//! operators and keywords are.
//!
//! Names are matched by meaning where the pattern says one: a builtin
//! (`pow`, `len`) matches only where that name still is the builtin (not
//! a parameter, a local, an import or a `def` that shadows it); a dotted
//! name (`math.pow`, `os.path.join`) matches the same object however the
//! file imports it (`import math as m` … `m.pow`, `from math import pow` …
//! `pow`), and where its head is not an import, the same text. Any other
//! name matches the same name.
//!
//! A replacement template uses the same `$a`: [`render`] puts each
//! capture's text in its place, in parentheses where Python's precedence
//! needs them (`pow(x + 1, 2)` through `$a ** $b` gives `(x + 1) ** 2`),
//! and [`placed`] puts the result where the match was, in parentheses
//! where that place needs them (`pow(a, b).real` gives `(a ** b).real`).

use std::collections::BTreeMap;
use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use super::dependencies::Import;
use super::scope::{self, BindingKind, Resolution, Scopes};
use super::syntax::{byte_to_char, SyntaxTree};

const ONE: &str = "__eddi_one_";
const MANY: &str = "__eddi_many_";

/// A parsed pattern.
#[derive(Debug, Clone)]
pub struct CodePattern {
    root: Shape,
    /// Its metavariables' names, in order of first appearance (`_` and the
    /// anonymous `$$$` left out).
    names: Vec<String>,
}

/// Why a pattern or template cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError(pub String);

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Debug, Clone)]
enum Shape {
    /// `$a` (`None`: `$_`): one expression.
    One(Option<String>),
    /// `$$$a` (`None`: `$$$`): a run of siblings.
    Many(Option<String>),
    /// A name or dotted name in a place where it is read.
    Name(String),
    Node {
        kind: u16,
        /// A leaf's text.
        leaf: Option<String>,
        /// The operators and keywords among its children.
        tokens: Vec<String>,
        named: Vec<Shape>,
    },
}

/// What a metavariable matched: a node's bytes (an empty run of `$$$a`
/// is the empty range where it would be) and its tree-sitter kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    pub name: String,
    pub bytes: Range<usize>,
    pub kind: &'static str,
    pub text: String,
}

/// One place a pattern matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub bytes: Range<usize>,
    pub captures: Vec<Capture>,
}

/// A file as the matcher reads it: its text, tree, scopes and imports (to
/// know what a name means where it is read).
pub struct Code<'a> {
    pub text: &'a Rope,
    pub source: &'a str,
    pub tree: &'a SyntaxTree,
    pub scopes: &'a Scopes,
    pub imports: &'a [Import],
}

/// The type words `$a.type` gives and `is` takes, with the node kinds
/// each stands for.
pub const TYPES: &[(&str, &[&str])] = &[
    ("number", &["integer", "float"]),
    ("string", &["string", "concatenated_string"]),
    ("name", &["identifier"]),
    ("attribute", &["attribute"]),
    ("call", &["call"]),
    ("subscript", &["subscript"]),
    ("list", &["list"]),
    ("tuple", &["tuple", "expression_list"]),
    ("dict", &["dictionary"]),
    ("set", &["set"]),
    (
        "comprehension",
        &[
            "list_comprehension",
            "dictionary_comprehension",
            "set_comprehension",
            "generator_expression",
        ],
    ),
    ("boolean", &["true", "false"]),
    ("none", &["none"]),
    ("lambda", &["lambda"]),
    (
        "operation",
        &[
            "binary_operator",
            "unary_operator",
            "boolean_operator",
            "not_operator",
            "comparison_operator",
        ],
    ),
    ("conditional", &["conditional_expression"]),
    ("await", &["await"]),
    ("parenthesized", &["parenthesized_expression"]),
    ("sequence", &["$$$"]),
];

/// The type word of a node kind (`other` when none says it).
pub fn type_of(kind: &str) -> &'static str {
    TYPES
        .iter()
        .find(|(_, kinds)| kinds.contains(&kind))
        .map_or("other", |(word, _)| word)
}

/// The type words, for `is` and its error.
pub fn type_words() -> Vec<&'static str> {
    TYPES
        .iter()
        .map(|(word, _)| *word)
        .chain(["other"])
        .collect()
}

/// Punctuation between siblings: layout, not meaning.
fn is_punctuation(token: &str) -> bool {
    matches!(token, "," | "(" | ")" | "[" | "]" | "{" | "}" | ":" | ";")
}

/// A metavariable's name after `$` (or `$$$`): `a`, `args`, `_`.
fn meta_name(chars: &[char], from: usize) -> usize {
    let mut end = from;
    while chars
        .get(end)
        .is_some_and(|c| c.is_alphanumeric() || *c == '_')
    {
        end += 1;
    }
    end
}

/// The text with each `$a` as a placeholder name Python accepts; the
/// metavariables in order of first appearance.
fn placeholders(text: &str) -> Result<(String, Vec<String>), PatternError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut names: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '$' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let many = chars.get(i + 1) == Some(&'$') && chars.get(i + 2) == Some(&'$');
        let from = if many { i + 3 } else { i + 1 };
        let end = meta_name(&chars, from);
        let name: String = chars[from..end].iter().collect();
        if name.is_empty() && !many {
            return Err(PatternError(format!(
                "'$' at char {} must start a metavariable ($a, $_ or $$$args)",
                i + 1
            )));
        }
        if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Err(PatternError(format!(
                "${name}: a metavariable is a name ($a, $left), not a number"
            )));
        }
        let shown = if name.is_empty() { "_" } else { &name };
        out.push_str(if many { MANY } else { ONE });
        out.push_str(shown);
        if !name.is_empty() && name != "_" && !names.contains(&name) {
            names.push(name);
        }
        i = end;
    }
    Ok((out, names))
}

/// The one expression or statement a code text is (comments aside).
fn single<'t>(tree: &'t SyntaxTree) -> Result<Node<'t>, PatternError> {
    let root = tree.root();
    let mut cursor = root.walk();
    let statements: Vec<Node<'t>> = root
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect();
    match statements.as_slice() {
        [one] if one.kind() == "expression_statement" && one.named_child_count() == 1 => {
            Ok(one.named_child(0).expect("one named child"))
        }
        [one] => Ok(*one),
        [] => Err(PatternError("the pattern is empty".into())),
        _ => Err(PatternError(
            "a pattern is one expression or one statement".into(),
        )),
    }
}

fn placeholder(node: Node<'_>, source: &str) -> Option<Shape> {
    if node.kind() != "identifier" {
        return None;
    }
    let text = &source[node.byte_range()];
    let named = |name: &str| (name != "_").then(|| name.to_owned());
    if let Some(name) = text.strip_prefix(ONE) {
        return Some(Shape::One(named(name)));
    }
    text.strip_prefix(MANY).map(|name| Shape::Many(named(name)))
}

/// Whether an identifier or attribute node is a (dotted) name that is
/// read there: not a keyword argument's name, a parameter, a definition's
/// name or an attribute's member.
fn is_read_name(node: Node<'_>, source: &str) -> bool {
    let chain = squeeze(&source[node.byte_range()]);
    let dotted = chain
        .split('.')
        .all(|part| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_'));
    if !dotted || !matches!(node.kind(), "identifier" | "attribute") {
        return false;
    }
    let Some(parent) = node.parent() else {
        return true;
    };
    let named_field = |field: &str| parent.child_by_field_name(field) == Some(node);
    match parent.kind() {
        "keyword_argument" | "default_parameter" | "typed_default_parameter" => {
            !named_field("name")
        }
        "attribute" => !named_field("attribute"),
        "function_definition" | "class_definition" => !named_field("name"),
        "parameters"
        | "lambda_parameters"
        | "typed_parameter"
        | "dotted_name"
        | "aliased_import"
        | "import_statement"
        | "import_from_statement" => false,
        _ => true,
    }
}

fn shape(node: Node<'_>, source: &str) -> Shape {
    if let Some(meta) = placeholder(node, source) {
        return meta;
    }
    if node.kind() == "expression_statement" && node.named_child_count() == 1 {
        let inner = node.named_child(0).expect("one named child");
        if let Some(many @ Shape::Many(_)) = placeholder(inner, source) {
            return many;
        }
    }
    if is_read_name(node, source) && !source[node.byte_range()].contains("__eddi_") {
        return Shape::Name(squeeze(&source[node.byte_range()]));
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    if children.is_empty() {
        return Shape::Node {
            kind: node.kind_id(),
            leaf: Some(source[node.byte_range()].to_owned()),
            tokens: Vec::new(),
            named: Vec::new(),
        };
    }
    Shape::Node {
        kind: node.kind_id(),
        leaf: None,
        tokens: tokens(&children, source),
        named: children
            .iter()
            .filter(|c| c.is_named() && c.kind() != "comment")
            .map(|c| shape(*c, source))
            .collect(),
    }
}

fn tokens(children: &[Node<'_>], source: &str) -> Vec<String> {
    children
        .iter()
        .filter(|c| !c.is_named())
        .map(|c| source[c.byte_range()].to_owned())
        .filter(|t| !is_punctuation(t))
        .collect()
}

impl CodePattern {
    /// Parses a pattern written with `$a`, `$_` and `$$$a`.
    pub fn parse(text: &str) -> Result<CodePattern, PatternError> {
        let (python, names) = placeholders(text)?;
        let tree = SyntaxTree::parse(&Rope::from_str(&python))
            .map_err(|e| PatternError(format!("the pattern cannot be parsed: {e}")))?;
        if tree.has_errors() {
            return Err(PatternError(
                "the pattern is not valid Python (each $a standing for an expression)".into(),
            ));
        }
        let root = shape(single(&tree)?, &python);
        if matches!(root, Shape::Many(_)) {
            return Err(PatternError(
                "a pattern that is only $$$ matches everything; write the code around it".into(),
            ));
        }
        Ok(CodePattern { root, names })
    }

    /// The metavariables it binds, in order of first appearance.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Every match inside `bytes` of the file, in tree order (an outer
    /// match before the matches inside it).
    pub fn find(&self, code: &Code<'_>, bytes: Range<usize>) -> Vec<Match> {
        let mut found = Vec::new();
        let mut stack = vec![code.tree.root()];
        while let Some(node) = stack.pop() {
            if node.end_byte() <= bytes.start || node.start_byte() >= bytes.end {
                continue;
            }
            let inside = node.start_byte() >= bytes.start && node.end_byte() <= bytes.end;
            if inside && node.is_named() {
                if let Some(found_here) = self.match_node(code, node) {
                    found.push(found_here);
                }
            }
            let mut cursor = node.walk();
            let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        found
    }

    /// The match at exactly `bytes`, if the pattern matches there.
    pub fn at(&self, code: &Code<'_>, bytes: Range<usize>) -> Option<Match> {
        let mut node = code
            .tree
            .root()
            .descendant_for_byte_range(bytes.start, bytes.end)?;
        loop {
            if node.byte_range() == bytes {
                if let Some(found) = self.match_node(code, node) {
                    return Some(found);
                }
            }
            match node.parent() {
                Some(parent) if parent.byte_range() == bytes => node = parent,
                _ => return None,
            }
        }
    }

    fn match_node(&self, code: &Code<'_>, node: Node<'_>) -> Option<Match> {
        let mut bound = Bound::default();
        Matcher { code }
            .one(&self.root, node, &mut bound)
            .then(|| Match {
                bytes: node.byte_range(),
                captures: bound.captures(code.source),
            })
    }
}

/// Captures so far: a name to the nodes it matched.
#[derive(Debug, Clone, Default)]
struct Bound {
    by_name: BTreeMap<String, (Range<usize>, &'static str)>,
    order: Vec<String>,
}

impl Bound {
    fn bind(&mut self, name: &str, bytes: Range<usize>, kind: &'static str, source: &str) -> bool {
        match self.by_name.get(name) {
            // the same metavariable twice: the same code (layout aside)
            Some((seen, _)) => squeeze(&source[seen.clone()]) == squeeze(&source[bytes]),
            None => {
                self.by_name.insert(name.to_owned(), (bytes, kind));
                self.order.push(name.to_owned());
                true
            }
        }
    }

    fn captures(&self, source: &str) -> Vec<Capture> {
        self.order
            .iter()
            .map(|name| {
                let (bytes, kind) = self.by_name[name].clone();
                Capture {
                    name: name.clone(),
                    text: source[bytes.clone()].to_owned(),
                    bytes,
                    kind,
                }
            })
            .collect()
    }
}

fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

struct Matcher<'c, 'a> {
    code: &'c Code<'a>,
}

impl Matcher<'_, '_> {
    fn text(&self, node: Node<'_>) -> &str {
        &self.code.source[node.byte_range()]
    }

    fn one(&self, shape: &Shape, node: Node<'_>, bound: &mut Bound) -> bool {
        match shape {
            Shape::One(name) => {
                let expression = node.is_named()
                    && !matches!(
                        node.kind(),
                        "comment" | "keyword_argument" | "list_splat" | "dictionary_splat"
                    );
                expression
                    && name.as_ref().is_none_or(|name| {
                        bound.bind(name, node.byte_range(), node.kind(), self.code.source)
                    })
            }
            // a run stands alone only inside a sequence (see `sequence`)
            Shape::Many(_) => false,
            Shape::Name(name) => self.name(name, node),
            Shape::Node {
                kind,
                leaf,
                tokens: own,
                named,
            } => {
                if node.kind_id() != *kind {
                    return false;
                }
                if let Some(leaf) = leaf {
                    return node.child_count() == 0 && self.text(node) == leaf;
                }
                let mut cursor = node.walk();
                let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
                if tokens(&children, self.code.source) != *own {
                    return false;
                }
                let targets: Vec<Node<'_>> = children
                    .into_iter()
                    .filter(|c| c.is_named() && c.kind() != "comment")
                    .collect();
                self.sequence(named, &targets, bound, node)
            }
        }
    }

    /// Shapes against siblings, `$$$` taking as few as it can first.
    fn sequence(
        &self,
        shapes: &[Shape],
        targets: &[Node<'_>],
        bound: &mut Bound,
        parent: Node<'_>,
    ) -> bool {
        let Some((first, rest)) = shapes.split_first() else {
            return targets.is_empty();
        };
        if let Shape::Many(name) = first {
            for taken in 0..=targets.len() {
                let mut trial = bound.clone();
                let bytes = match (targets.first(), targets.get(taken.wrapping_sub(1))) {
                    (Some(a), Some(b)) if taken > 0 => a.start_byte()..b.end_byte(),
                    _ => {
                        let at = targets
                            .get(taken)
                            .map_or(parent.end_byte(), |t| t.start_byte());
                        at..at
                    }
                };
                let named = name
                    .as_ref()
                    .is_none_or(|name| trial.bind(name, bytes, "$$$", self.code.source));
                if named && self.sequence(rest, &targets[taken..], &mut trial, parent) {
                    *bound = trial;
                    return true;
                }
            }
            return false;
        }
        let Some((target, others)) = targets.split_first() else {
            return false;
        };
        let mut trial = bound.clone();
        if self.one(first, *target, &mut trial) && self.sequence(rest, others, &mut trial, parent) {
            *bound = trial;
            return true;
        }
        false
    }

    /// A name of the pattern against a node, by what each means.
    fn name(&self, name: &str, node: Node<'_>) -> bool {
        if !is_read_name(node, self.code.source) {
            return false;
        }
        let written = squeeze(self.text(node));
        let head = name.split('.').next().unwrap_or(name);
        let meaning = self.meaning(&written, node.start_byte());
        if scope::is_builtin(head) {
            return meaning == Meaning::Is(format!("builtins.{name}"));
        }
        if name.contains('.') {
            return match meaning {
                Meaning::Is(qualified) => qualified == name,
                Meaning::Local | Meaning::Unknown => written == name,
            };
        }
        written == name
    }

    /// What a (dotted) name read at `byte` is: a builtin or an import's
    /// object (`builtins.len`, `math.pow`), or something of the file.
    fn meaning(&self, chain: &str, byte: usize) -> Meaning {
        let code = self.code;
        let (head, rest) = match chain.split_once('.') {
            Some((head, rest)) => (head, Some(rest)),
            None => (chain, None),
        };
        let with_rest = |base: String| match rest {
            Some(rest) => format!("{base}.{rest}"),
            None => base,
        };
        let at = byte_to_char(code.text, byte);
        match code.scopes.resolve(head, code.scopes.scope_at(at)) {
            Resolution::Builtin => Meaning::Is(with_rest(format!("builtins.{head}"))),
            Resolution::Scope(scope) => {
                let import = code
                    .scopes
                    .bindings_of(scope, head)
                    .filter(|b| b.kind == BindingKind::Import)
                    .find_map(|b| {
                        code.imports
                            .iter()
                            .find(|i| i.statement == b.statement && i.bound == head)
                    });
                match import {
                    Some(import) => Meaning::Is(with_rest(imported(import))),
                    None => Meaning::Local,
                }
            }
            Resolution::Star | Resolution::Undefined => Meaning::Unknown,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Meaning {
    Is(String),
    Local,
    Unknown,
}

/// What an import binds, as a dotted name: `from m import f as g` is
/// `m.f`, `import a.b` binds `a`, `import a.b as c` is `a.b`.
fn imported(import: &Import) -> String {
    let dots = ".".repeat(import.level);
    match &import.name {
        Some(name) if import.module.is_empty() => format!("{dots}{name}"),
        Some(name) => format!("{dots}{}.{name}", import.module),
        None if import.alias.is_some() => import.module.clone(),
        None => import.bound.clone(),
    }
}

/// How tightly an expression binds, after Python's operator precedence
/// (higher binds tighter; an atom, a call or an attribute binds tightest).
fn precedence(node: Node<'_>, source: &str) -> u8 {
    let operator = || {
        node.child_by_field_name("operator")
            .map(|o| &source[o.byte_range()])
            .unwrap_or_default()
    };
    match node.kind() {
        "lambda" | "named_expression" | "expression_list" | "yield" => 0,
        "conditional_expression" => 1,
        "boolean_operator" if operator() == "or" => 2,
        "boolean_operator" => 3,
        "not_operator" => 4,
        "comparison_operator" => 5,
        "binary_operator" => match operator() {
            "|" => 6,
            "^" => 7,
            "&" => 8,
            "<<" | ">>" => 9,
            "+" | "-" => 10,
            "**" => 13,
            _ => 11, // * / // % @
        },
        "unary_operator" => 12,
        "await" => 14,
        _ => 15,
    }
}

/// The least precedence an expression needs to stand as `child` of
/// `parent` without parentheses (0: anything goes there).
fn needed(parent: Node<'_>, child: Node<'_>, source: &str) -> u8 {
    let is = |field: &str| parent.child_by_field_name(field) == Some(child);
    match parent.kind() {
        "binary_operator" => {
            let own = precedence(parent, source);
            match (own, is("left")) {
                // `**` groups to the right and takes a unary operand there
                (13, true) => 14,
                (13, false) => 12,
                (_, true) => own,
                (_, false) => own + 1,
            }
        }
        "boolean_operator" => precedence(parent, source),
        "not_operator" => 4,
        "comparison_operator" => 6,
        "unary_operator" => 12,
        "await" => 15,
        "conditional_expression" => 2,
        "list_splat" | "dictionary_splat" => 6,
        "attribute" if is("object") => 15,
        "subscript" if is("value") => 15,
        "call" if is("function") => 15,
        _ => 0,
    }
}

/// The precedence of code written as text: its one expression's (15 for
/// what is not one expression: it is left as written).
fn precedence_of(text: &str) -> u8 {
    let Ok(tree) = SyntaxTree::parse(&Rope::from_str(text)) else {
        return 15;
    };
    match single(&tree) {
        Ok(node) if !tree.has_errors() && node.kind() != "expression_statement" => {
            precedence(node, text)
        }
        _ => 15,
    }
}

/// `text` in parentheses when its precedence is below `needed`.
fn parenthesized(text: &str, needed: u8) -> String {
    if needed > 0 && precedence_of(text) < needed {
        format!("({text})")
    } else {
        text.to_owned()
    }
}

/// The replacement of the match at `bytes` of a file, parenthesized when
/// the place it goes to binds tighter than it does (`pow(a, b).real`
/// rewritten with `$a ** $b` is `(a ** b).real`).
pub fn placed(code: &Code<'_>, bytes: Range<usize>, replacement: &str) -> String {
    let node = code
        .tree
        .root()
        .descendant_for_byte_range(bytes.start, bytes.end);
    let needs = node
        .and_then(|mut node| {
            // the outermost node of exactly these bytes
            while let Some(parent) = node.parent().filter(|p| p.byte_range() == bytes) {
                node = parent;
            }
            node.parent()
                .map(|parent| needed(parent, node, code.source))
        })
        .unwrap_or(0);
    parenthesized(replacement, needs)
}

/// A replacement template's metavariables (to check them before a run).
pub fn template_names(template: &str) -> Result<Vec<String>, PatternError> {
    placeholders(template).map(|(_, names)| names)
}

/// The template with each `$a` replaced by its capture's text
/// (parenthesized where the template makes it an operand).
pub fn render(template: &str, captures: &[Capture]) -> Result<String, PatternError> {
    let (python, names) = placeholders(template)?;
    if let Some(missing) = names
        .iter()
        .find(|n| !captures.iter().any(|c| &c.name == *n))
    {
        let known: Vec<String> = captures.iter().map(|c| format!("${}", c.name)).collect();
        return Err(PatternError(format!(
            "${missing} is not a metavariable of the pattern (it has: {})",
            if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            }
        )));
    }
    // what each placeholder's place needs (only where the template parses)
    let mut places: Vec<(Range<usize>, u8)> = Vec::new();
    if let Ok(tree) = SyntaxTree::parse(&Rope::from_str(&python)) {
        let mut stack = vec![tree.root()];
        while let Some(node) = stack.pop() {
            if node.kind() == "identifier" && python[node.byte_range()].starts_with(ONE) {
                if let Some(parent) = node.parent() {
                    places.push((node.byte_range(), needed(parent, node, &python)));
                }
            }
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
    }
    let mut out = String::new();
    let mut rest = 0;
    while let Some(found) = python[rest..].find("__eddi_") {
        let start = rest + found;
        out.push_str(&python[rest..start]);
        let (prefix, many) = if python[start..].starts_with(ONE) {
            (ONE, false)
        } else if python[start..].starts_with(MANY) {
            (MANY, true)
        } else {
            out.push_str("__eddi_");
            rest = start + "__eddi_".len();
            continue;
        };
        let name_start = start + prefix.len();
        let name_end = name_start
            + python[name_start..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(python.len() - name_start);
        let name = &python[name_start..name_end];
        let capture = captures.iter().find(|c| c.name == name);
        match capture {
            Some(capture) => {
                let needs = places
                    .iter()
                    .find(|(at, _)| *at == (start..name_end))
                    .map_or(0, |(_, needs)| *needs);
                match many {
                    true => out.push_str(&capture.text),
                    false => out.push_str(&parenthesized(&capture.text, needs)),
                }
            }
            None => {
                return Err(PatternError(format!(
                    "${name}: the anonymous $_ and $$$ cannot be used in a replacement; name it ($a, $$$args)"
                )))
            }
        }
        rest = name_end;
    }
    out.push_str(&python[rest..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{dependencies, scope};

    fn matches(pattern: &str, source: &str) -> Vec<(String, Vec<(String, String)>)> {
        let text = Rope::from_str(source);
        let tree = SyntaxTree::parse(&text).unwrap();
        let scopes = scope::analyze(&text, &tree);
        let imports = dependencies::imports(&text, &tree);
        let code = Code {
            text: &text,
            source,
            tree: &tree,
            scopes: &scopes,
            imports: &imports,
        };
        CodePattern::parse(pattern)
            .unwrap()
            .find(&code, 0..source.len())
            .into_iter()
            .map(|m| {
                (
                    source[m.bytes].to_owned(),
                    m.captures.into_iter().map(|c| (c.name, c.text)).collect(),
                )
            })
            .collect()
    }

    fn texts(pattern: &str, source: &str) -> Vec<String> {
        matches(pattern, source)
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn metavariables_capture_expressions_and_repeat_as_the_same_code() {
        assert_eq!(
            matches("pow($a, $b)", "y = pow(x + 1, 2)\n"),
            vec![(
                "pow(x + 1, 2)".to_owned(),
                vec![("a".into(), "x + 1".into()), ("b".into(), "2".into())]
            )]
        );
        assert_eq!(
            texts("$x == $x", "a == a\na == b\nf( a )== f(a)\n"),
            ["a == a", "f( a )== f(a)"]
        );
        assert_eq!(
            texts("$a + $b", "x - y\n"),
            Vec::<String>::new(),
            "operators are compared"
        );
        assert!(texts("pow($a, $b)", "pow(x)\npow(x, y, z)\n").is_empty());
    }

    #[test]
    fn a_run_takes_any_number_of_siblings() {
        assert_eq!(
            texts("print($$$args)", "print()\nprint(a, b)\nprint(a, sep='')\n"),
            ["print()", "print(a, b)", "print(a, sep='')"]
        );
        assert_eq!(
            matches("f($first, $$$rest)", "f(1)\nf(1, 2, 3)\n"),
            vec![
                (
                    "f(1)".to_owned(),
                    vec![("first".into(), "1".into()), ("rest".into(), "".into())]
                ),
                (
                    "f(1, 2, 3)".to_owned(),
                    vec![("first".into(), "1".into()), ("rest".into(), "2, 3".into())]
                )
            ]
        );
    }

    #[test]
    fn a_builtin_matches_only_where_it_is_the_builtin() {
        let source = "a = pow(x, 2)\ndef g(pow):\n    return pow(x, 2)\n";
        assert_eq!(texts("pow($a, $b)", source), ["pow(x, 2)"]);
        assert_eq!(
            texts("pow($a, $b)", "from math import pow\npow(x, 2)\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_dotted_name_matches_however_the_file_imports_it() {
        let source = "import math as m\nfrom math import sqrt\nimport numpy as math\nm.sqrt(1)\nsqrt(2)\nmath.sqrt(3)\n";
        assert_eq!(texts("math.sqrt($x)", source), ["m.sqrt(1)", "sqrt(2)"]);
        assert_eq!(
            texts(
                "self.save()",
                "class A:\n    def f(self):\n        self.save()\n"
            ),
            ["self.save()"]
        );
    }

    #[test]
    fn keyword_names_and_members_are_not_read_names() {
        assert_eq!(texts("f(type=$t)", "f(type=int)\n"), ["f(type=int)"]);
        assert_eq!(texts("$o.len", "x.len\n"), ["x.len"]);
    }

    #[test]
    fn bad_patterns_say_what_to_fix() {
        assert_eq!(
            CodePattern::parse("pow($a,").unwrap_err().0,
            "the pattern is not valid Python (each $a standing for an expression)"
        );
        assert_eq!(
            CodePattern::parse("a = 1\nb = 2").unwrap_err().0,
            "a pattern is one expression or one statement"
        );
        assert!(CodePattern::parse("$1 + 2").is_err());
    }

    #[test]
    fn a_replacement_is_parenthesized_where_its_place_binds_tighter() {
        let source = "pow(a, b).real\nx = pow(a, b)\nf(-pow(a, b))\n";
        let text = Rope::from_str(source);
        let tree = SyntaxTree::parse(&text).unwrap();
        let scopes = scope::analyze(&text, &tree);
        let imports = dependencies::imports(&text, &tree);
        let code = Code {
            text: &text,
            source,
            tree: &tree,
            scopes: &scopes,
            imports: &imports,
        };
        let found = CodePattern::parse("pow($a, $b)")
            .unwrap()
            .find(&code, 0..source.len());
        let placed: Vec<String> = found
            .iter()
            .map(|m| placed(&code, m.bytes.clone(), "a ** b"))
            .collect();
        assert_eq!(placed, ["(a ** b)", "a ** b", "a ** b"]);
    }

    #[test]
    fn templates_parenthesize_operations_put_into_operands() {
        let capture = |name: &str, text: &str, kind: &'static str| Capture {
            name: name.into(),
            bytes: 0..0,
            kind,
            text: text.into(),
        };
        let captures = [
            capture("a", "x + 1", "binary_operator"),
            capture("b", "2", "integer"),
        ];
        assert_eq!(render("$a ** $b", &captures).unwrap(), "(x + 1) ** 2");
        assert_eq!(render("f($a, $b)", &captures).unwrap(), "f(x + 1, 2)");
        assert_eq!(
            render("$a.bit_length()", &captures).unwrap(),
            "(x + 1).bit_length()"
        );
        let left = [
            capture("a", "a - b", "binary_operator"),
            capture("b", "c - d", "binary_operator"),
        ];
        assert_eq!(render("$a - $b", &left).unwrap(), "a - b - (c - d)");
        assert_eq!(render("$a * 2", &left).unwrap(), "(a - b) * 2");
        let unary = [
            capture("a", "-x", "unary_operator"),
            capture("b", "-y", "unary_operator"),
        ];
        assert_eq!(render("$a ** $b", &unary).unwrap(), "(-x) ** -y");
        let negated = [
            capture("a", "not x", "not_operator"),
            capture("b", "y", "identifier"),
        ];
        assert_eq!(render("$a and $b", &negated).unwrap(), "not x and y");
        assert_eq!(
            render("$b if $a else 0", &negated).unwrap(),
            "y if not x else 0"
        );
        assert_eq!(
            render("$c", &captures).unwrap_err().0,
            "$c is not a metavariable of the pattern (it has: $a, $b)"
        );
    }
}
