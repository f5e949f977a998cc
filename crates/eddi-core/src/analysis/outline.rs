//! The symbols of a Python file and how commands name them.
//!
//! The outline, [`lookup`], the working forms and [`enclosing`] serve
//! every language with code targets: JavaScript and TypeScript build the
//! same [`Outline`] from their outline queries (`language::javascript`).
//!
//! [`outline`] lists, in source order: functions (sync and async), classes,
//! methods (functions whose nearest enclosing definition is a class, also
//! through `if`/`try`/`with` blocks in the class body), nested classes and
//! functions, module-level variables and class attributes (targets of plain
//! and annotated assignments, including tuple targets and chained `a = b = 1`).
//! Definitions inside `if`/`try`/`for`/`while`/`with`/`match` blocks are
//! found too; assignments inside functions are locals, not listed.
//!
//! Every symbol has its own position — the `def`/`class`/`async` keyword (for
//! variables the name) — and line ranges: `full_lines` also covers decorators
//! and the `#` comment lines directly above (no blank line in between, same
//! indentation). Ranges end at the last line of *code*: trailing comments
//! that tree-sitter puts at the end of a block are not part of it.
//!
//! [`lookup`] resolves a [`CodeTarget`]:
//! * `Function name` matches functions *and* methods called `name`; when
//!   both exist, plain functions win. A dotted name (`Outer.helper`) matches
//!   the qualified name.
//! * `(params)` (on `Function` and `Method`): empty parentheses mean "no
//!   filter" (`Show Function __init__()` finds `def __init__(self)`).
//!   Otherwise the parameter *names* are compared in order (defaults and
//!   `*`/`**` ignored; a leading `self`/`cls` of the candidate may be
//!   omitted), and annotations where the filter gives them (`get(key: str)`
//!   picks one of `typing.overload`s).
//! * `Method C.m` matches methods whose enclosing class is named `C` (or has
//!   qualified name `C`). `C.p.getter`/`.setter`/`.deleter` (as `Method` or
//!   `Function`) names one function of a property. `Class N` / `Variable v`
//!   match names or qualified names (`Outer.Inner`, `Config.debug`). A
//!   variable assigned several times in one scope resolves to its first
//!   assignment; module variables win over class attributes of the same
//!   name. `Variable f.x` / `C.m.x` is a local of a function, from
//!   [`Outline::locals`] (filled by [`Outline::add_locals`]).
//! * `name#n` is the n-th (1-based, source order) of the definitions the
//!   rest matches: same-named definitions in `if`/`else` branches (for a
//!   variable: its n-th assignment).
//! * Several matches → [`AnalysisError::Ambiguous`] listing each candidate
//!   with its position and a form that resolves to exactly it
//!   ([`working_form`]); none → [`AnalysisError::NotFound`] listing the
//!   available names of that kind ([`crate::choices::Choices`]: close ones
//!   first, then source order, cut at 10 with the rest counted).
//!
//! [`enclosing`] finds the innermost function/class around a position. The
//! blank line right after a definition's last line (or the end of the file
//! there) still counts as inside it, so `Goto EndOfClass` followed by
//! `Insert Method` lands in that class.

use std::ops::Range;

use ropey::Rope;
use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::error::{AnalysisError, Candidate, Result};
use super::grammar::{kind_name, python};
use super::lines;
use super::syntax::{byte_to_char, node_start, node_text, SyntaxTree};
use crate::analysis::target::CodeTarget;
use crate::choices::Choices;
use crate::edit::position::from_char;
use crate::edit::{LineRange, Position};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SymbolKind {
    Function,
    Method,
    Class,
    /// A module-level variable.
    Variable,
    /// A variable assigned directly in a class body.
    Attribute,
    /// A name bound in a function (assignment, parameter, loop target, …);
    /// only in [`Outline::locals`].
    Local,
}

impl SymbolKind {
    pub fn noun(self) -> &'static str {
        match self {
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Class => "class",
            SymbolKind::Variable => "variable",
            SymbolKind::Attribute => "attribute",
            SymbolKind::Local => "local variable",
        }
    }

    pub fn is_callable(self) -> bool {
        matches!(self, SymbolKind::Function | SymbolKind::Method)
    }
}

/// One symbol of the outline. Char ranges are offsets into the rope the
/// outline was computed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub name: String,
    /// Dotted path through enclosing definitions: `Outer.Inner.method`.
    pub qualified_name: String,
    /// Text between the parentheses of a function, as written.
    pub params: Option<String>,
    /// Bare parameter names (no `*`, types or defaults).
    pub param_names: Vec<String>,
    pub is_async: bool,
    /// Decorator texts, `@` included.
    pub decorators: Vec<String>,
    /// Which function of a property it is, when its language says so by
    /// keyword (JavaScript's `get x()`/`set x(v)`: `getter`, `setter`);
    /// Python's come from its decorators (see [`accessor`]).
    pub accessor: Option<&'static str>,
    /// The trait whose `impl` block declares this method (Rust's `impl
    /// Display for Point`): its name stands between the type's and the
    /// method's in the qualified name (`Point.Display.fmt`), and `Method
    /// Point.fmt` finds it too.
    pub via_trait: Option<String>,
    /// The element's own position: its `def`/`class`/`async` keyword, or
    /// the name of a variable.
    pub position: Position,
    pub name_position: Position,
    /// Column of the keyword (the indentation of the definition), in chars.
    pub indent: usize,
    /// Keyword (or variable statement) to the end of its last code token.
    pub definition: Range<usize>,
    /// Attached comments, decorators and the definition, as whole lines.
    pub full_lines: LineRange,
    /// `full_lines` as chars: from the first line's start to the start of
    /// the line after the last (or the end of the text).
    pub full: Range<usize>,
    /// The body block (functions and classes), from its first statement to
    /// the end of its last code token.
    pub body: Option<Range<usize>>,
    pub body_lines: Option<LineRange>,
    /// The position just after the element: start of the line after its
    /// last line, or the end of the text (`Goto End…`).
    pub end: Position,
    /// Index of the enclosing function/class in [`Outline::symbols`].
    pub parent: Option<usize>,
}

impl Symbol {
    /// Char offset of [`Symbol::position`] in `text`.
    pub fn position_offset(&self, text: &Rope) -> usize {
        crate::edit::position::to_char(text, self.position).unwrap_or(self.definition.start)
    }

    /// What its whole text (`full`, with attributes and annotations)
    /// says before its name: its modifiers and keywords (`@Override
    /// public`, `pub(crate) fn`).
    pub fn head(&self, text: &Rope) -> String {
        let name = crate::edit::position::to_char(text, self.name_position)
            .unwrap_or(self.full.start)
            .max(self.full.start);
        text.slice(self.full.start..name).to_string()
    }
}

/// All symbols of a file, in source order (parents before children).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    pub symbols: Vec<Symbol>,
    /// The local variables of every function, once [`Outline::add_locals`]
    /// ran (`Variable f.x`); their `parent` is the function.
    pub locals: Vec<Symbol>,
    /// The functions without a name of their own (callbacks, function
    /// literals: `Function f.<anonymous@3:8>`), once a brace language's
    /// [`crate::language::inner_functions`] ran; their `parent` is the
    /// element around them.
    pub inner: Vec<Symbol>,
}

impl Outline {
    pub fn parent(&self, symbol: &Symbol) -> Option<&Symbol> {
        symbol.parent.and_then(|i| self.symbols.get(i))
    }

    /// Direct children of the symbol at `index`.
    pub fn children(&self, index: usize) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |s| s.parent == Some(index))
    }

    /// The index of a symbol obtained from this outline.
    pub fn index_of(&self, symbol: &Symbol) -> Option<usize> {
        self.symbols.iter().position(|s| std::ptr::eq(s, symbol))
    }

    /// Lists the names bound in each function's own scope (parameters,
    /// assignments, loop and `with` targets, imports, …; not `global`/
    /// `nonlocal` names, nor nested `def`/`class`, which are symbols), each
    /// at its first binding, with the binding's statement as its text.
    pub fn add_locals(&mut self, text: &Rope, tree: &SyntaxTree) {
        use super::scope::BindingKind;
        let scopes = super::scope::analyze(text, tree);
        let mut locals = Vec::new();
        for (i, function) in self.symbols.iter().enumerate() {
            if !function.kind.is_callable() {
                continue;
            }
            let Some(scope) = scopes.scope_of_definition(function.definition.start) else {
                continue;
            };
            let declared = &scopes.scopes[scope];
            let mut seen: Vec<&str> = Vec::new();
            let mut bindings: Vec<&super::scope::Binding> = scopes
                .bindings
                .iter()
                .filter(|b| b.scope == scope)
                .collect();
            bindings.sort_by_key(|b| b.range.start);
            for b in bindings {
                if matches!(b.kind, BindingKind::Function | BindingKind::Class)
                    || seen.contains(&b.name.as_str())
                    || declared.globals.contains(&b.name)
                    || declared.nonlocals.contains(&b.name)
                {
                    continue;
                }
                seen.push(&b.name);
                let position = from_char(text, b.range.start);
                let stmt = from_char(text, b.statement.start);
                let last = from_char(
                    text,
                    b.statement.end.saturating_sub(1).max(b.statement.start),
                )
                .line;
                locals.push(Symbol {
                    kind: SymbolKind::Local,
                    name: b.name.clone(),
                    qualified_name: format!("{}.{}", function.qualified_name, b.name),
                    params: None,
                    param_names: Vec::new(),
                    is_async: false,
                    decorators: Vec::new(),
                    accessor: None,
                    via_trait: None,
                    position,
                    name_position: position,
                    indent: stmt.col,
                    definition: b.statement.clone(),
                    full_lines: LineRange::new(stmt.line, last),
                    full: lines::start(text, stmt.line)..lines::end_with_newline(text, last),
                    body: None,
                    body_lines: None,
                    end: after_line(text, last),
                    parent: Some(i),
                });
            }
        }
        self.locals = locals;
    }

    /// Symbols of a kind, in source order.
    pub fn of_kind(&self, kind: SymbolKind) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |s| s.kind == kind)
    }
}

#[derive(Clone, Copy)]
enum Scope {
    Module,
    Class(usize),
    Function(usize),
}

impl Scope {
    fn index(self) -> Option<usize> {
        match self {
            Scope::Module => None,
            Scope::Class(i) | Scope::Function(i) => Some(i),
        }
    }
}

/// Computes the outline of a parsed file.
pub fn outline(text: &Rope, tree: &SyntaxTree) -> Outline {
    let mut out = Outline::default();
    collect(text, tree.root(), Scope::Module, &mut out);
    out
}

fn collect(text: &Rope, block: Node<'_>, scope: Scope, out: &mut Outline) {
    let mut cursor = block.walk();
    let children: Vec<Node<'_>> = block.named_children(&mut cursor).collect();
    for child in children {
        match child.kind() {
            "function_definition" | "class_definition" => {
                add_definition(text, child, None, scope, out)
            }
            "decorated_definition" => {
                if let Some(def) = child.child_by_field_name("definition") {
                    add_definition(text, def, Some(child), scope, out);
                }
            }
            "expression_statement" => {
                if matches!(scope, Scope::Module | Scope::Class(_)) {
                    add_assignments(text, child, scope, out);
                }
            }
            "if_statement" | "elif_clause" | "else_clause" | "for_statement"
            | "while_statement" | "try_statement" | "except_clause" | "finally_clause"
            | "with_statement" | "match_statement" | "case_clause" | "block" | "ERROR" => {
                collect(text, child, scope, out)
            }
            _ => {}
        }
    }
}

fn qualified(out: &Outline, scope: Scope, name: &str) -> String {
    match scope.index().and_then(|i| out.symbols.get(i)) {
        Some(parent) => format!("{}.{}", parent.qualified_name, name),
        None => name.to_string(),
    }
}

fn add_definition(
    text: &Rope,
    def: Node<'_>,
    decorated: Option<Node<'_>>,
    scope: Scope,
    out: &mut Outline,
) {
    let Some(name_node) = def.child_by_field_name("name") else {
        return;
    };
    let name = node_text(text, name_node);
    let is_class = def.kind() == "class_definition";
    let kind = match (is_class, scope) {
        (true, _) => SymbolKind::Class,
        (false, Scope::Class(_)) => SymbolKind::Method,
        (false, _) => SymbolKind::Function,
    };
    let is_async = def.child(0).is_some_and(|c| c.kind() == "async");
    let (params, param_names) = match def.child_by_field_name("parameters") {
        Some(p) => {
            let t = node_text(text, p);
            let inner = t
                .strip_prefix('(')
                .map(|s| s.strip_suffix(')').unwrap_or(s))
                .unwrap_or(&t)
                .to_string();
            (Some(inner), parameter_names(text, p))
        }
        None => (None, Vec::new()),
    };
    let decorators = decorated
        .map(|d| {
            let mut c = d.walk();
            d.named_children(&mut c)
                .filter(|n| n.kind() == "decorator")
                .map(|n| node_text(text, n))
                .collect()
        })
        .unwrap_or_default();
    let position = node_start(text, def);
    let outer = decorated.unwrap_or(def);
    let content_end = content_end_byte(def);
    let body = def
        .child_by_field_name("body")
        .map(|b| byte_to_char(text, b.start_byte())..byte_to_char(text, content_end_byte(b)));
    let body_lines = body.as_ref().map(|b| {
        LineRange::new(
            from_char(text, b.start).line,
            from_char(text, b.end.saturating_sub(1).max(b.start)).line,
        )
    });
    let definition = byte_to_char(text, def.start_byte())..byte_to_char(text, content_end);
    let first_line = attached_comments_start(text, node_start(text, outer).line, position.col);
    let last_line = from_char(text, definition.end.saturating_sub(1).max(definition.start)).line;
    let symbol = Symbol {
        kind,
        qualified_name: qualified(out, scope, &name),
        name,
        params,
        param_names,
        is_async,
        decorators,
        accessor: None,
        via_trait: None,
        position,
        name_position: node_start(text, name_node),
        indent: position.col,
        definition,
        full_lines: LineRange::new(first_line, last_line),
        full: lines::start(text, first_line)..lines::end_with_newline(text, last_line),
        body,
        body_lines,
        end: after_line(text, last_line),
        parent: scope.index(),
    };
    out.symbols.push(symbol);
    let index = out.symbols.len() - 1;
    if let Some(body) = def.child_by_field_name("body") {
        let inner = if is_class {
            Scope::Class(index)
        } else {
            Scope::Function(index)
        };
        collect(text, body, inner, out);
    }
}

fn add_assignments(text: &Rope, stmt: Node<'_>, scope: Scope, out: &mut Outline) {
    let Some(mut assign) = stmt.named_child(0) else {
        return;
    };
    if assign.kind() != "assignment" {
        return;
    }
    let kind = match scope {
        Scope::Class(_) => SymbolKind::Attribute,
        _ => SymbolKind::Variable,
    };
    let mut targets = Vec::new();
    loop {
        if let Some(left) = assign.child_by_field_name("left") {
            target_names(left, &mut targets);
        }
        match assign.child_by_field_name("right") {
            Some(r) if r.kind() == "assignment" => assign = r,
            _ => break,
        }
    }
    let definition = byte_to_char(text, stmt.start_byte())..byte_to_char(text, stmt.end_byte());
    let first = from_char(text, definition.start).line;
    let last = from_char(text, definition.end.saturating_sub(1).max(definition.start)).line;
    for target in targets {
        let name = node_text(text, target);
        let position = node_start(text, target);
        let stmt_pos = node_start(text, stmt);
        out.symbols.push(Symbol {
            kind,
            qualified_name: qualified(out, scope, &name),
            name,
            params: None,
            param_names: Vec::new(),
            is_async: false,
            decorators: Vec::new(),
            accessor: None,
            via_trait: None,
            position,
            name_position: position,
            indent: stmt_pos.col,
            definition: definition.clone(),
            full_lines: LineRange::new(first, last),
            full: lines::start(text, first)..lines::end_with_newline(text, last),
            body: None,
            body_lines: None,
            end: after_line(text, last),
            parent: scope.index(),
        });
    }
}

/// Identifiers bound by an assignment target (`a`, `a, b`, `(a, [b, c])`),
/// in source order. An explicit stack rather than recursion, so that a
/// pathologically nested target cannot overflow the thread's stack.
fn target_names<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" => out.push(node),
            "pattern_list" | "tuple_pattern" | "list_pattern" => {
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                stack.extend(children.into_iter().rev());
            }
            _ => {}
        }
    }
}

/// Bare parameter names of a `parameters`/`lambda_parameters` node.
pub fn parameter_names(text: &Rope, params: Node<'_>) -> Vec<String> {
    let mut names = Vec::new();
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        if let Some(id) = parameter_identifier(p) {
            names.push(node_text(text, id));
        }
    }
    names
}

/// The identifier a parameter node binds, if any.
pub fn parameter_identifier(p: Node<'_>) -> Option<Node<'_>> {
    match kind_name(p) {
        "identifier" => Some(p),
        "default_parameter" | "typed_default_parameter" => p
            .child_by_field_id(name_field()?)
            .filter(|&n| kind_name(n) == "identifier"),
        "typed_parameter" | "list_splat_pattern" | "dictionary_splat_pattern" => {
            let first = p.named_child(0)?;
            match kind_name(first) {
                "identifier" => Some(first),
                _ => parameter_identifier(first),
            }
        }
        _ => None,
    }
}

/// The id of the grammar's field `name` (a lookup by name compares it
/// with every field's name).
fn name_field() -> Option<u16> {
    static ID: std::sync::OnceLock<Option<u16>> = std::sync::OnceLock::new();
    *ID.get_or_init(|| python().field_id_for_name("name").map(|id| id.get()))
}

/// The end of the last child that is not a comment: tree-sitter may end a
/// block with the comments that follow it.
pub fn content_end_byte(node: Node<'_>) -> usize {
    // A loop down the last children, not recursion: nesting may be deep.
    let mut node = node;
    'descend: loop {
        let mut i = node.child_count();
        while i > 0 {
            i -= 1;
            if let Some(child) = node.child(i) {
                if child.kind() == "comment" {
                    continue;
                }
                if child.end_byte() == child.start_byte() {
                    continue; // zero-width (MISSING/dedent) nodes
                }
                node = child;
                continue 'descend;
            }
        }
        return node.end_byte();
    }
}

/// First line of the `#` comments directly above `line` at indentation `indent`.
fn attached_comments_start(text: &Rope, line: usize, indent: usize) -> usize {
    let mut first = line;
    while first > 0 {
        let above = lines::text_of(text, first - 1);
        let trimmed = above.trim_start();
        if trimmed.starts_with('#') && lines::indent_str(&above).chars().count() == indent {
            first -= 1;
        } else {
            break;
        }
    }
    first
}

fn after_line(text: &Rope, line: usize) -> Position {
    from_char(text, lines::end_with_newline(text, line))
}

/// The tree node of a symbol: its `function_definition`/`class_definition`
/// (not the decorated wrapper), or the `expression_statement` of a variable.
pub fn symbol_node<'t>(text: &Rope, tree: &'t SyntaxTree, symbol: &Symbol) -> Option<Node<'t>> {
    let byte = super::syntax::char_to_byte(text, symbol.definition.start);
    let wanted = match symbol.kind {
        SymbolKind::Function | SymbolKind::Method => "function_definition",
        SymbolKind::Class => "class_definition",
        SymbolKind::Variable | SymbolKind::Attribute => "expression_statement",
        SymbolKind::Local => return None,
    };
    let mut node = tree.root().descendant_for_byte_range(byte, byte)?;
    loop {
        if node.kind() == wanted && node.start_byte() == byte {
            return Some(node);
        }
        node = node.parent()?;
    }
}

/// Functions, methods and classes added, removed and modified between two
/// versions of a file (for `Diff` and `Summary`). Symbols are matched by
/// kind and qualified name; "modified" means the text of the element
/// (decorators and attached comments included) changed. [`diff`] shows a
/// rename as one removal and one addition; `analysis::changes` tells
/// renames apart (`renamed`: old and new qualified names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutlineDiff {
    pub added: Vec<(SymbolKind, String)>,
    pub removed: Vec<(SymbolKind, String)>,
    pub modified: Vec<(SymbolKind, String)>,
    pub renamed: Vec<(SymbolKind, String, String)>,
}

/// Compares the definitions of two outlines of one file.
pub fn diff(old: &Outline, old_text: &Rope, new: &Outline, new_text: &Rope) -> OutlineDiff {
    let defs = |o: &Outline| -> Vec<(SymbolKind, String, Range<usize>)> {
        o.symbols
            .iter()
            .filter(|s| s.kind.is_callable() || s.kind == SymbolKind::Class)
            .map(|s| (s.kind, s.qualified_name.clone(), s.full.clone()))
            .collect()
    };
    let (before, after) = (defs(old), defs(new));
    let mut out = OutlineDiff::default();
    for (kind, name, range) in &after {
        match before.iter().find(|(k, n, _)| k == kind && n == name) {
            None => out.added.push((*kind, name.clone())),
            Some((_, _, old_range)) => {
                if old_text.slice(old_range.clone()) != new_text.slice(range.clone()) {
                    out.modified.push((*kind, name.clone()));
                }
            }
        }
    }
    for (kind, name, _) in &before {
        if !after.iter().any(|(k, n, _)| k == kind && n == name) {
            out.removed.push((*kind, name.clone()));
        }
    }
    out
}

// -- lookup -----------------------------------------------------------------

const AMBIGUOUS_HINT: &str = "name one of them as listed";

/// The words naming one function of a property: `Text.plain.setter`.
pub const ACCESSORS: [&str; 3] = ["getter", "setter", "deleter"];

/// `f#2` → (`f`, 2): the n-th (1-based, source order) of the definitions
/// the name matches; any other name → (name, None).
pub fn split_ordinal(name: &str) -> (&str, Option<usize>) {
    match name.rsplit_once('#') {
        Some((base, n)) => match n.parse::<usize>() {
            Ok(n) if n > 0 && !base.is_empty() => (base, Some(n)),
            _ => (name, None),
        },
        None => (name, None),
    }
}

/// Which function of a property a method is: `@property` (and
/// `cached_property`) → `getter`, `@x.setter` → `setter`, `@x.deleter` → `deleter`;
/// or what its language's keyword said ([`Symbol::accessor`]).
pub fn accessor(symbol: &Symbol) -> Option<&'static str> {
    if symbol.accessor.is_some() {
        return symbol.accessor;
    }
    symbol.decorators.iter().find_map(|d| {
        let d = d.trim_start_matches('@').trim();
        if d == "property" || d.ends_with("cached_property") || d.ends_with(".property") {
            return Some("getter");
        }
        let (owner, word) = d.rsplit_once('.')?;
        (owner == symbol.name)
            .then(|| ACCESSORS.iter().copied().find(|a| *a == word))
            .flatten()
    })
}

/// Why [`find`] did not come back with one symbol.
enum Miss<'o> {
    NotFound(AnalysisError),
    /// The name as asked, and the matches in source order.
    Ambiguous(String, Vec<&'o Symbol>),
}

/// Resolves a command's target to one symbol. When several match, the
/// error lists for each a form of the target that names exactly it (the
/// qualified name, a property accessor `Text.plain.setter`, the parameter
/// names `f(a, b)`, or the ordinal `f#2`).
pub fn lookup<'o>(outline: &'o Outline, target: &CodeTarget) -> Result<&'o Symbol> {
    match find(outline, target) {
        Ok(symbol) => Ok(symbol),
        Err(Miss::NotFound(e)) => Err(e),
        Err(Miss::Ambiguous(name, found)) => Err(AnalysisError::Ambiguous {
            name,
            candidates: found
                .iter()
                .map(|s| Candidate {
                    position: s.position,
                    form: working_form(outline, s).to_string(),
                })
                .collect(),
            hint: AMBIGUOUS_HINT,
        }),
    }
}

fn find<'o>(
    outline: &'o Outline,
    target: &CodeTarget,
) -> std::result::Result<&'o Symbol, Miss<'o>> {
    let (found, shown) = matches(outline, target)?;
    let name = match target {
        CodeTarget::Method { name, .. }
        | CodeTarget::Function { name, .. }
        | CodeTarget::Class { name }
        | CodeTarget::Variable { name } => name,
    };
    let (_, ordinal) = split_ordinal(name);
    let mut found = found;
    if ordinal.is_none() && matches!(target, CodeTarget::Variable { .. }) {
        // re-assignments in one scope: the first assignment declares it
        let mut seen: Vec<&str> = Vec::new();
        found.retain(|s| {
            let first = !seen.contains(&s.qualified_name.as_str());
            seen.push(&s.qualified_name);
            first
        });
    }
    if let (base, Some(n)) = split_ordinal(name) {
        let base = match target {
            CodeTarget::Method { class, .. } => format!("{class}.{base}"),
            _ => base.to_string(),
        };
        return match found.get(n - 1) {
            Some(s) => Ok(*s),
            None => Err(Miss::NotFound(AnalysisError::NotFound {
                kind: kind_noun(target),
                name: shown,
                available: Choices::ranked(
                    &base,
                    (1..=found.len()).map(|i| format!("{base}#{i}")).collect(),
                ),
            })),
        };
    }
    match found.len() {
        1 => Ok(found[0]),
        _ => Err(Miss::Ambiguous(shown, found)),
    }
}

fn kind_noun(target: &CodeTarget) -> &'static str {
    match target {
        CodeTarget::Function { .. } => "function",
        CodeTarget::Method { .. } => "method",
        CodeTarget::Class { .. } => "class",
        CodeTarget::Variable { .. } => "variable",
    }
}

/// Names matching `wanted` (its simple or qualified name).
fn named(s: &Symbol, wanted: &str) -> bool {
    s.name == wanted || s.qualified_name == wanted
}

/// Keeps the symbols whose parameters match a `(params)` filter: names in
/// order (a leading `self`/`cls` may be left out) and, where the filter
/// gives one, the annotation (`get(key: str)` picks one of overloads).
fn params_filter(found: &mut Vec<&Symbol>, params: &Option<String>) {
    let Some(wanted) = params.as_deref().map(typed_params) else {
        return;
    };
    if wanted.is_empty() {
        return;
    }
    let names: Vec<String> = wanted.iter().map(|(n, _)| n.clone()).collect();
    found.retain(|s| {
        if !params_match(&s.param_names, &names) {
            return false;
        }
        let have = typed_params(s.params.as_deref().unwrap_or(""));
        let Some(skip) = have.len().checked_sub(wanted.len()) else {
            return false;
        };
        let have = &have[skip..];
        wanted
            .iter()
            .zip(have)
            .all(|((_, want), (_, has))| want.is_none() || want == has)
    });
}

/// `self, key: int = 0, *args` → `[(self, None), (key, Some("int")), (args, None)]`,
/// annotations without blanks.
fn typed_params(params: &str) -> Vec<(String, Option<String>)> {
    split_top_level(params)
        .into_iter()
        .filter_map(|p| {
            let p = p.trim().trim_start_matches('*').trim();
            let end = p.find([':', '=']).unwrap_or(p.len());
            let name = p[..end].trim();
            if name.is_empty() || name == "/" {
                return None;
            }
            let annotation = p[end..].strip_prefix(':').map(|rest| {
                let stop = default_at(rest).unwrap_or(rest.len());
                rest[..stop].split_whitespace().collect::<String>()
            });
            Some((name.to_string(), annotation))
        })
        .collect()
}

/// Where a parameter's default value starts: its first `=` outside
/// brackets and strings that assigns, not the `=>` of a TypeScript function
/// type (`f: (x: T) => U = id`) or a comparison in the default's own text.
fn default_at(param: &str) -> Option<usize> {
    let bytes = param.as_bytes();
    let mut from = 0;
    while let Some(i) = top_level_find(&param[from..], '=').map(|i| i + from) {
        let next = bytes.get(i + 1).copied();
        let before = i.checked_sub(1).map(|b| bytes[b]);
        let assigns = !matches!(next, Some(b'>' | b'='))
            && !matches!(before, Some(b'=' | b'!' | b'<' | b'>'));
        if assigns {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// The first `ch` outside brackets and strings.
fn top_level_find(s: &str, ch: char) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                c if c == ch && depth == 0 => return Some(i),
                _ => {}
            },
        }
    }
    None
}

/// The names offered when `asked` is not found: for a dotted name whose
/// owner exists, the owner's members of that kind (none: the module-level
/// ones); else all of that kind.
fn offered(outline: &Outline, asked: &str, of_kind: impl Fn(&Symbol) -> bool) -> Vec<String> {
    let all = outline
        .symbols
        .iter()
        .chain(&outline.locals)
        .chain(&outline.inner);
    if let Some((owner, _)) = asked.rsplit_once('.') {
        let members: Vec<String> = all
            .clone()
            .filter(|s| of_kind(s) && outline.parent(s).is_some_and(|p| named(p, owner)))
            .map(|s| s.qualified_name.clone())
            .collect();
        if !members.is_empty() {
            return members;
        }
        // an owner without such members: the module-level ones
        if all.clone().any(|s| named(s, owner)) {
            return all
                .filter(|s| of_kind(s) && s.parent.is_none())
                .map(|s| s.name.clone())
                .collect();
        }
    }
    all.filter(|s| of_kind(s))
        .map(|s| {
            if asked.contains('.') {
                s.qualified_name.clone()
            } else {
                s.name.clone()
            }
        })
        .collect()
}

fn not_found<'o>(kind: &'static str, name: String, offered: Vec<String>) -> Miss<'o> {
    let bare = name.split(['(', '#']).next().unwrap_or(&name).to_string();
    Miss::NotFound(AnalysisError::NotFound {
        kind,
        name,
        available: Choices::ranked_dotted(&bare, offered),
    })
}

/// Every symbol `target` matches (ordinal not applied), in source order,
/// and the target as asked; `Err` when none does.
fn matches<'o>(
    outline: &'o Outline,
    target: &CodeTarget,
) -> std::result::Result<(Vec<&'o Symbol>, String), Miss<'o>> {
    let with_params = |name: &str, params: &Option<String>| match params {
        Some(p) => format!("{name}({p})"),
        None => name.to_string(),
    };
    let found: Vec<&Symbol> = match target {
        CodeTarget::Function { name, params } => {
            let (base, _) = split_ordinal(name);
            let callable = |s: &&Symbol| s.kind.is_callable();
            let mut found: Vec<&Symbol> = outline
                .symbols
                .iter()
                .filter(callable)
                .filter(|s| named(s, base))
                .collect();
            if found.is_empty() {
                if let Some((owner, word)) = base.rsplit_once('.') {
                    if ACCESSORS.contains(&word) {
                        found = outline
                            .symbols
                            .iter()
                            .filter(callable)
                            .filter(|s| named(s, owner) && accessor(s) == Some(word))
                            .collect();
                    }
                }
            }
            if found.is_empty() && crate::language::inner_functions::is_inner_name(base) {
                // a function without a name of its own, named by its place
                found = outline.inner.iter().filter(|s| named(s, base)).collect();
            }
            params_filter(&mut found, params);
            if found.iter().any(|s| s.kind == SymbolKind::Function) {
                found.retain(|s| s.kind == SymbolKind::Function);
            }
            if found.is_empty() {
                // `Owner.m` as `Method Owner.m` finds it: a Rust trait
                // impl's method (`W.Display.fmt`), one declared apart
                if let Some((class, method)) = name.rsplit_once('.') {
                    let as_method = CodeTarget::Method {
                        class: class.to_string(),
                        name: method.to_string(),
                        params: params.clone(),
                    };
                    if let Ok((found, _)) = matches(outline, &as_method) {
                        return Ok((found, with_params(name, params)));
                    }
                }
                let offered = offered(outline, base, |s| s.kind.is_callable());
                return Err(not_found("function", with_params(name, params), offered));
            }
            found
        }
        CodeTarget::Class { name } => {
            let (base, _) = split_ordinal(name);
            let found: Vec<&Symbol> = outline
                .of_kind(SymbolKind::Class)
                .filter(|s| named(s, base))
                .collect();
            if found.is_empty() {
                let offered = offered(outline, base, |s| s.kind == SymbolKind::Class);
                return Err(not_found("class", name.clone(), offered));
            }
            found
        }
        CodeTarget::Method {
            class,
            name,
            params,
        } => {
            let (base, _) = split_ordinal(name);
            let classes_named = |c: &str| -> Vec<&Symbol> {
                outline
                    .of_kind(SymbolKind::Class)
                    .filter(|s| named(s, c))
                    .collect()
            };
            // `Data#2.m`: the type is one of several of its name (a Rust
            // type declared under two `cfg`s), whose `impl` blocks the
            // outline does not tell apart: a method of any of them
            let (owner, owner_ordinal) = split_ordinal(class);
            let mut classes = classes_named(owner);
            if owner_ordinal.is_some_and(|n| n > classes.len()) {
                let offered = offered(outline, owner, |s| s.kind == SymbolKind::Class);
                return Err(not_found("class", class.clone(), offered));
            }
            let (mut method, mut wanted_accessor) = (base, None);
            if classes.is_empty() && ACCESSORS.contains(&base) {
                if let Some((owner, m)) = owner.rsplit_once('.') {
                    classes = classes_named(owner);
                    (method, wanted_accessor) = (m, Some(base));
                }
            }
            // a method declared apart from its type (Go's, Rust's) is
            // found by its type's name where the type is elsewhere, and a
            // trait's by its type and trait (`Point.Display`)
            let owned = |s: &Symbol| {
                s.kind == SymbolKind::Method
                    && (s.parent.is_none() || s.via_trait.is_some())
                    && owned_by(s, owner)
            };
            if classes.is_empty() && !outline.symbols.iter().any(owned) {
                // a method of a type written in a function (a Go interface
                // literal's, `E.Help.Usage`): named by the function's path
                let path = format!("{owner}.{base}");
                let mut inner: Vec<&Symbol> = outline
                    .symbols
                    .iter()
                    .filter(|s| s.kind == SymbolKind::Method && named(s, &path))
                    .filter(|s| outline.parent(s).is_some_and(|p| p.kind.is_callable()))
                    .collect();
                params_filter(&mut inner, params);
                if !inner.is_empty() {
                    return Ok((inner, with_params(&format!("{class}.{name}"), params)));
                }
                let offered = offered(outline, owner, |s| s.kind == SymbolKind::Class);
                return Err(not_found("class", class.clone(), offered));
            }
            let in_classes = |s: &Symbol| {
                s.kind == SymbolKind::Method
                    && (owned(s)
                        || outline
                            .parent(s)
                            .is_some_and(|p| classes.iter().any(|c| std::ptr::eq(*c, p))))
            };
            let mut found: Vec<&Symbol> = outline
                .symbols
                .iter()
                .filter(|s| in_classes(s) && s.name == method)
                .filter(|s| wanted_accessor.is_none() || accessor(s) == wanted_accessor)
                .collect();
            params_filter(&mut found, params);
            // a type's own method wins over its traits' (as in Rust)
            if found.iter().any(|s| s.via_trait.is_none()) {
                found.retain(|s| s.via_trait.is_none());
            }
            if found.is_empty() {
                let shown = with_params(&format!("{class}.{name}"), params);
                // a field of the name (a Java record's component, whose
                // accessor `price()` the record declares implicitly)
                let field = outline.symbols.iter().find(|s| {
                    s.kind == SymbolKind::Attribute
                        && s.name == method
                        && outline
                            .parent(s)
                            .is_some_and(|p| classes.iter().any(|c| std::ptr::eq(*c, p)))
                });
                if let Some(field) = field.filter(|_| params.is_none()) {
                    return Err(Miss::NotFound(AnalysisError::FieldNotMethod {
                        kind: "method",
                        name: shown,
                        form: format!("Variable {}", field.qualified_name),
                    }));
                }
                let offered: Vec<String> = outline
                    .symbols
                    .iter()
                    .filter(|s| in_classes(s))
                    .map(|s| s.qualified_name.clone())
                    .collect();
                return Err(not_found("method", shown, offered));
            }
            found
        }
        CodeTarget::Variable { name } => {
            let (base, _) = split_ordinal(name);
            let variable =
                |s: &Symbol| matches!(s.kind, SymbolKind::Variable | SymbolKind::Attribute);
            let mut found: Vec<&Symbol> = outline
                .symbols
                .iter()
                .filter(|s| variable(s) && named(s, base))
                .collect();
            // (re-assignments stay listed for `x#2`; `find` keeps the first)
            // module variables win over class attributes of the same name
            if found.iter().any(|s| s.kind == SymbolKind::Variable) {
                found.retain(|s| s.kind == SymbolKind::Variable);
            }
            // `f.x`, `C.m.x`: a local of a function
            if found.is_empty() {
                if let Some((owner, local)) = base.rsplit_once('.') {
                    found = outline
                        .locals
                        .iter()
                        .filter(|s| {
                            s.name == local && outline.parent(s).is_some_and(|p| named(p, owner))
                        })
                        .collect();
                }
            }
            if found.is_empty() {
                let offered = offered(outline, base, |s| {
                    variable(s) || s.kind == SymbolKind::Local
                });
                return Err(not_found("variable", name.clone(), offered));
            }
            found
        }
    };
    let shown = match target {
        CodeTarget::Function { name, params } => with_params(name, params),
        CodeTarget::Class { name } | CodeTarget::Variable { name } => name.clone(),
        CodeTarget::Method {
            class,
            name,
            params,
        } => with_params(&format!("{class}.{name}"), params),
    };
    Ok((dedup(found), shown))
}

/// The same name bound twice by one statement (`a = a = 1`) is one symbol.
fn dedup(mut found: Vec<&Symbol>) -> Vec<&Symbol> {
    found.dedup_by(|a, b| a.position == b.position);
    found
}

/// The type a method belongs to, as its qualified name says: the name
/// before the method's, and before its trait's (`Point` for
/// `Point.Display.fmt`). A method declared in its class has the class's
/// qualified name; Go's and Rust's are declared apart from their type,
/// which may be in another file.
fn owner_type(s: &Symbol) -> Option<&str> {
    let owner = s
        .qualified_name
        .strip_suffix(s.name.as_str())?
        .strip_suffix('.')?;
    match &s.via_trait {
        Some(t) => owner.strip_suffix(t.as_str())?.strip_suffix('.'),
        None => Some(owner),
    }
}

/// Whether `Method <class>.<name>` may name the method `s` by its type
/// (its qualified or its plain name), or by its type and trait
/// (`Point.Display`).
fn owned_by(s: &Symbol, class: &str) -> bool {
    let Some(owner) = owner_type(s) else {
        return false;
    };
    // the type's qualified name, or its end (`Point`, `geo.Point`)
    let names_type = |c: &str| owner == c || owner.ends_with(&format!(".{c}"));
    names_type(class)
        || s.via_trait.as_ref().is_some_and(|t| {
            class
                .strip_suffix(t.as_str())
                .and_then(|c| c.strip_suffix('.'))
                .is_some_and(names_type)
        })
}

/// The plain target naming a symbol: its qualified name (a method's
/// type before its name).
fn base_target(outline: &Outline, s: &Symbol) -> CodeTarget {
    match s.kind {
        SymbolKind::Function => CodeTarget::Function {
            name: s.qualified_name.clone(),
            params: None,
        },
        SymbolKind::Method => CodeTarget::Method {
            class: outline.parent(s).map_or_else(
                || owner_type(s).unwrap_or_default().to_owned(),
                |p| p.qualified_name.clone(),
            ),
            name: s.name.clone(),
            params: None,
        },
        SymbolKind::Class => CodeTarget::Class {
            name: s.qualified_name.clone(),
        },
        SymbolKind::Variable | SymbolKind::Attribute | SymbolKind::Local => CodeTarget::Variable {
            name: s.qualified_name.clone(),
        },
    }
}

/// A target that [`lookup`] resolves to exactly `s`: the qualified name,
/// else with the property accessor, else with the parameter names, else
/// with the ordinal among the qualified name's matches.
pub fn working_form(outline: &Outline, s: &Symbol) -> CodeTarget {
    let base = base_target(outline, s);
    let names: Vec<String> = match s.param_names.first().map(String::as_str) {
        Some("self" | "cls") if s.kind == SymbolKind::Method => s.param_names[1..].to_vec(),
        _ => s.param_names.clone(),
    };
    let mut attempts = vec![base.clone()];
    if let (Some(t), CodeTarget::Method { class, name, .. }) = (&s.via_trait, &base) {
        // a trait's method that its type's name alone leaves ambiguous
        attempts.push(CodeTarget::Method {
            class: format!("{class}.{t}"),
            name: name.clone(),
            params: None,
        });
    }
    if let Some(word) = accessor(s) {
        attempts.push(match &base {
            CodeTarget::Method { class, name, .. } => CodeTarget::Method {
                class: format!("{class}.{name}"),
                name: word.to_string(),
                params: None,
            },
            other => other.clone(),
        });
    }
    if !names.is_empty() {
        let params = Some(names.join(", "));
        attempts.push(match &base {
            CodeTarget::Function { name, .. } => CodeTarget::Function {
                name: name.clone(),
                params,
            },
            CodeTarget::Method { class, name, .. } => CodeTarget::Method {
                class: class.clone(),
                name: name.clone(),
                params,
            },
            other => other.clone(),
        });
    }
    // overloads: the parameters with their annotations, as written
    let typed: Vec<String> = split_top_level(s.params.as_deref().unwrap_or(""))
        .iter()
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !(s.kind == SymbolKind::Method && (p == "self" || p == "cls")))
        .map(|p| match default_at(&p) {
            Some(i) => p[..i].trim().to_string(),
            None => p,
        })
        .collect();
    if typed.iter().any(|p| p.contains(':')) {
        let params = Some(typed.join(", "));
        attempts.push(match &base {
            CodeTarget::Function { name, .. } => CodeTarget::Function {
                name: name.clone(),
                params,
            },
            CodeTarget::Method { class, name, .. } => CodeTarget::Method {
                class: class.clone(),
                name: name.clone(),
                params,
            },
            other => other.clone(),
        });
    }
    for t in &attempts {
        if find(outline, t).is_ok_and(|found| std::ptr::eq(found, s)) {
            return t.clone();
        }
    }
    // the ordinal among the matches of the first form that matches it (a
    // trait's method: among its type's and trait's)
    let position_in = |t: &CodeTarget| {
        matches(outline, t)
            .ok()
            .and_then(|(found, _)| found.iter().position(|f| std::ptr::eq(*f, s)))
    };
    let (base, ordinal) = attempts
        .iter()
        .take(if s.via_trait.is_some() { 2 } else { 1 })
        .find_map(|t| position_in(t).map(|i| (t.clone(), i + 1)))
        .unwrap_or((base, 1));
    match base {
        CodeTarget::Function { name, params } => CodeTarget::Function {
            name: format!("{name}#{ordinal}"),
            params,
        },
        CodeTarget::Method {
            class,
            name,
            params,
        } => CodeTarget::Method {
            class,
            name: format!("{name}#{ordinal}"),
            params,
        },
        CodeTarget::Class { name } => CodeTarget::Class {
            name: format!("{name}#{ordinal}"),
        },
        CodeTarget::Variable { name } => CodeTarget::Variable {
            name: format!("{name}#{ordinal}"),
        },
    }
}

/// The name part of [`working_form`] (`Text.plain.setter`, `home#2`,
/// `area(r)`): what listings print so that every name printed works.
pub fn display_name(outline: &Outline, s: &Symbol) -> String {
    let form = working_form(outline, s).to_string();
    match form.split_once(' ') {
        Some((_, name)) => name.to_string(),
        None => form,
    }
}

/// `target` with a leading module name removed (`pkg.mod.C.m` → `C.m` in
/// the file of module `pkg.mod`): the names the project index prints are
/// accepted by the per-file commands.
pub fn without_module(target: &CodeTarget, module: &str) -> CodeTarget {
    let strip = |name: &str| -> String {
        match name.strip_prefix(module).and_then(|r| r.strip_prefix('.')) {
            Some(rest) if !module.is_empty() && !rest.is_empty() => rest.to_string(),
            _ => name.to_string(),
        }
    };
    match target {
        CodeTarget::Function { name, params } => CodeTarget::Function {
            name: strip(name),
            params: params.clone(),
        },
        CodeTarget::Class { name } => CodeTarget::Class { name: strip(name) },
        CodeTarget::Method {
            class,
            name,
            params,
        } => CodeTarget::Method {
            class: strip(class),
            name: name.clone(),
            params: params.clone(),
        },
        CodeTarget::Variable { name } => CodeTarget::Variable { name: strip(name) },
    }
}

/// Parameter names from a `(params)` filter: `a: int = 1, *args` → `a, args`.
pub fn split_param_names(params: &str) -> Vec<String> {
    split_top_level(params)
        .into_iter()
        .filter_map(|p| {
            let p = p.trim().trim_start_matches('*').trim();
            let end = p.find([':', '=']).unwrap_or(p.len());
            let name = p[..end].trim();
            (!name.is_empty() && name != "/").then(|| name.to_string())
        })
        .collect()
}

/// Splits at commas outside brackets and strings.
pub fn split_top_level(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut current = String::new();
    for ch in s.chars() {
        match quote {
            Some(q) => {
                if ch == q {
                    quote = None;
                }
            }
            None => match ch {
                '\'' | '"' => quote = Some(ch),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            },
        }
        current.push(ch);
    }
    if !current.trim().is_empty() {
        parts.push(current);
    }
    parts
}

fn params_match(have: &[String], wanted: &[String]) -> bool {
    if have == wanted {
        return true;
    }
    matches!(have.first().map(String::as_str), Some("self" | "cls")) && have[1..] == *wanted
}

// -- enclosing --------------------------------------------------------------

/// What [`enclosing`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enclosing {
    /// A function or method.
    Function,
    Class,
}

/// The innermost function (or class) containing `pos`: from its first
/// attached comment or decorator line to its last line, plus the line right
/// after when that line is blank or the end of the file.
pub fn enclosing<'o>(
    outline: &'o Outline,
    text: &Rope,
    pos: Position,
    kind: Enclosing,
) -> Option<&'o Symbol> {
    let wanted = |s: &Symbol| match kind {
        Enclosing::Function => s.kind.is_callable(),
        Enclosing::Class => s.kind == SymbolKind::Class,
    };
    let contains = |s: &Symbol| {
        (pos.line >= s.full_lines.first && pos.line <= s.full_lines.last)
            || (pos.line == s.full_lines.last + 1 && lines::is_blank(text, pos.line))
    };
    // Nested symbols come after their parents in source order and siblings
    // do not overlap, so the innermost container is the last one.
    outline
        .symbols
        .iter()
        .rev()
        .find(|s| wanted(s) && contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline_of(src: &str) -> (Rope, Outline) {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let o = outline(&text, &tree);
        (text, o)
    }

    const USER_MANAGER: &str =
        "class UserManager:\n    def __init__(self):\n        self.users = {}\n";

    #[test]
    fn spec_example_positions() {
        let (text, o) = outline_of(USER_MANAGER);
        let init = lookup(
            &o,
            &CodeTarget::Function {
                name: "__init__".into(),
                params: Some(String::new()),
            },
        )
        .unwrap();
        assert_eq!(init.position, Position::new(1, 4));
        assert_eq!(init.kind, SymbolKind::Method);
        assert_eq!(init.qualified_name, "UserManager.__init__");
        assert_eq!(init.params.as_deref(), Some("self"));
        let class = &o.symbols[0];
        assert_eq!(class.end, Position::new(3, 0));
        let at_end = enclosing(&o, &text, Position::new(3, 0), Enclosing::Class).unwrap();
        assert_eq!(at_end.name, "UserManager");
        assert!(enclosing(&o, &text, Position::new(3, 0), Enclosing::Function).is_some());
    }

    #[test]
    fn reassigned_variable_resolves_to_its_first_assignment() {
        let (_, o) =
            outline_of("DEBUG = False\nif env:\n    DEBUG = True\nclass C:\n    DEBUG = 1\n");
        let v = |n: &str| lookup(&o, &CodeTarget::Variable { name: n.into() });
        assert_eq!(v("DEBUG").unwrap().position, Position::new(0, 0));
        assert_eq!(v("C.DEBUG").unwrap().position, Position::new(4, 4));
        let (_, o2) = outline_of("class A:\n    n = 1\nclass B:\n    n = 2\n");
        assert_eq!(
            lookup(&o2, &CodeTarget::Variable { name: "n".into() })
                .unwrap_err()
                .to_string(),
            "Ambiguous match: 'n' at 1:4 (Variable A.n), 3:4 (Variable B.n); name one of them as listed"
        );
        let (_, o) = outline_of("x = 1\nx = 2\n");
        assert_eq!(
            lookup(&o, &CodeTarget::Variable { name: "x".into() })
                .unwrap()
                .position,
            Position::new(0, 0)
        );
    }

    #[test]
    fn diff_reports_added_removed_modified() {
        let (a_text, a) =
            outline_of("class A:\n    def m(self):\n        return 1\n\ndef gone():\n    pass\n");
        let (b_text, b) =
            outline_of("class A:\n    def m(self):\n        return 2\n\ndef new():\n    pass\n");
        let d = diff(&a, &a_text, &b, &b_text);
        assert_eq!(d.added, [(SymbolKind::Function, "new".to_string())]);
        assert_eq!(d.removed, [(SymbolKind::Function, "gone".to_string())]);
        assert_eq!(
            d.modified,
            [
                (SymbolKind::Class, "A".to_string()),
                (SymbolKind::Method, "A.m".to_string())
            ]
        );
    }

    #[test]
    fn params_filter_names_in_order_and_may_omit_self() {
        assert_eq!(
            split_param_names("a: int = 1, *args, **kw"),
            ["a", "args", "kw"]
        );
        assert_eq!(split_param_names(" "), Vec::<String>::new());
        let (_, o) = outline_of("def f(a):\n    pass\n\ndef f(a, b):\n    pass\n");
        let t = |p: &str| CodeTarget::Function {
            name: "f".into(),
            params: Some(p.into()),
        };
        assert_eq!(
            lookup(&o, &t("a, b")).unwrap().position,
            Position::new(3, 0)
        );
        assert_eq!(lookup(&o, &t("a")).unwrap().position, Position::new(0, 0));
        assert_eq!(
            lookup(&o, &t("")).unwrap_err().to_string(),
            "Ambiguous match: 'f()' at 0:0 (Function f(a)), 3:0 (Function f(a, b)); name one of them as listed"
        );
        assert!(matches!(
            lookup(&o, &t("z")),
            Err(AnalysisError::NotFound { .. })
        ));
    }
}

#[cfg(test)]
mod working_form_tests {
    use super::*;
    use crate::commands::{parse_command, Command, GotoTarget};

    /// Every symbol's working form, printed and parsed back as a command,
    /// resolves to that symbol.
    fn round_trip(src: &str) -> usize {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let mut o = outline(&text, &tree);
        o.add_locals(&text, &tree);
        let all: Vec<&Symbol> = o.symbols.iter().chain(&o.locals).collect();
        for s in &all {
            let form = working_form(&o, s).to_string();
            let Ok(Command::Goto(GotoTarget::Code(target))) =
                parse_command(&format!("Goto {form}"))
            else {
                panic!("{form} does not parse");
            };
            let found = lookup(&o, &target).unwrap_or_else(|e| panic!("{form}: {e}"));
            assert!(
                std::ptr::eq(found, *s),
                "{form} names {}",
                found.qualified_name
            );
        }
        all.len()
    }

    #[test]
    fn every_symbol_has_a_form_that_resolves_back() {
        let n = round_trip(include_str!("../../../../tests/fixtures/python/inventory.py"))
            + round_trip(include_str!("../../../../tests/fixtures/requests/sessions_redirect.py"))
            + round_trip(
                "import sys\nfrom typing import overload\n\nclass T:\n    @property\n    def p(self):\n        x = 1\n        return x\n\n    @p.setter\n    def p(self, v):\n        x = v\n\n    @overload\n    def g(self, k: int) -> int: ...\n    @overload\n    def g(self, k: str) -> str: ...\n    def g(self, k):\n        return k\n\nif sys.platform == 'win32':\n    def home():\n        pass\n    class C:\n        pass\nelse:\n    def home():\n        pass\n    class C:\n        pass\n",
            );
        assert!(n > 100, "{n}");
    }
}
