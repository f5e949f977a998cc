//! JavaScript (and JSX) behind the language seam: its outline, a syntax
//! check, code targets and the ranges its edits read. TypeScript's files
//! are read the same way, with their own grammars ([`super::typescript`]).
//!
//! What is an element, and of which kind, is the symbol sites' (the rules
//! of `analysis/index/tags/sites.rs`, in the tags convention, which the
//! project index reads too; `queries/javascript/outline.scm` says the same
//! as a query, and a test holds the two equal); the ranges code targets
//! need are this module's:
//! * an element's *position* is its keyword (`function`, `class`,
//!   `async`, `static`, `get`, the `const` of `const f = () => …`), after
//!   its decorators and its `export`; a variable's is its name. Its
//!   *definition* runs from its keyword to its end.
//! * its *whole lines* add its decorators, its `export` and the comments
//!   directly above it (`//` lines, a `/** … */` block), as Python's add
//!   decorators and `#` comments.
//! * its *end* (`Goto EndOfFunction`, `Goto EndOfClass`) is just inside
//!   its closing brace, where a member or a statement goes; an element
//!   without braces ends at the start of the line after it.
//!
//! Kinds: functions (declarations, generators, overload signatures, and
//! function values bound to a name) and methods (class methods; getters
//! and setters, named `C.x.getter` and `C.x.setter` when both exist;
//! fields whose value is a function; interface methods) are callables;
//! classes, interfaces, type aliases, enums and namespaces are what
//! `Class` names; class fields, TypeScript's parameter properties
//! (`constructor(private x: T)`: the class's, not the constructor's) and
//! interface properties are attributes (`Variable C.x`); module-level
//! bindings are variables (each name of a destructuring pattern its own).

use ropey::Rope;
use tree_sitter::Node;

use super::edits::{BraceEdits, DocComment};
use super::parse_errors::{parse_errors, shortened, token_after, EndOfFile, Lexicon};
use super::{
    Entry, ExternalFormatter, FoundSite, Language, Outline, SiteDefinition, SiteDefinitions,
    SymbolSites, SyntaxCheck,
};
use crate::analysis::index::tags::symbol_sites;
use crate::analysis::lines;
use crate::analysis::outline::{
    self as symbols, content_end_byte, display_name, Symbol, SymbolKind,
};
use crate::analysis::syntax::{
    byte_to_char, byte_to_position, node_start, node_text, SyntaxTree, TextAt,
};
use crate::analysis::validate::SyntaxError;
use crate::edit::position::from_char;
use crate::edit::{LineRange, Position};

/// The JavaScript language (JSX included: its grammar reads both).
#[derive(Debug, Clone, Copy)]
pub struct JavaScript;

/// JSDoc above an element, two spaces per level (prettier's default)
/// where the file shows none.
pub(super) const EDITS: BraceEdits = BraceEdits {
    unit: "  ",
    line_comment: "//",
    doc: DocComment::Block,
    imports: Some(super::es_imports::insert_import),
    top_level_functions: true,
    methods: super::edits::MethodPlace::InClass,
    overloads: true,
};

/// Prettier, which JavaScript and TypeScript projects format with; it
/// picks its parser by the file's name.
pub(super) const PRETTIER: ExternalFormatter = ExternalFormatter {
    program: "prettier",
    args: &["--stdin-filepath", "{file}"],
    range: Some(&["--range-start", "{start}", "--range-end", "{end}"]),
    width: Some("--print-width={n}"),
    install: "npm install --global prettier",
};

impl Language for JavaScript {
    fn predeclared(&self, name: &str) -> bool {
        JS_GLOBALS.contains(&name)
    }

    fn id(&self) -> &'static str {
        "javascript"
    }

    fn name(&self) -> &'static str {
        "JavaScript"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["js", "mjs", "cjs", "jsx"]
    }

    fn interpreters(&self) -> &'static [&'static str] {
        &["node", "nodejs"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_javascript::LANGUAGE.into()
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        read(&JavaScript, text, tree).outline()
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(syntax_errors)
    }

    fn brace_edits(&self) -> Option<super::edits::BraceEdits> {
        Some(super::javascript::EDITS)
    }

    fn formatter(&self) -> Option<super::ExternalFormatter> {
        Some(super::javascript::PRETTIER)
    }

    fn issue_checks(&self) -> Option<super::issues::IssueChecks> {
        Some(super::issues::IssueChecks {
            loose_equality: true,
            unused_imports: None,
        })
    }

    fn decision_points(&self) -> Option<super::complexity::DecisionPoints> {
        Some(super::complexity::JAVASCRIPT)
    }

    fn index_scan(&self) -> Option<super::IndexScan> {
        // references, definitions and callers across the project
        // (analysis/index/tags)
        Some(super::IndexScan {
            indexed: &["js", "mjs", "cjs", "jsx"],
            watched: &["js", "mjs", "cjs", "jsx"],
        })
    }

    fn local_sites(&self) -> Option<super::LocalSites> {
        Some(locals_javascript)
    }

    fn renames(&self) -> bool {
        true
    }

    fn symbol_sites(&self) -> Option<SymbolSites> {
        Some(sites)
    }

    fn site_definitions(&self) -> Option<SiteDefinitions> {
        Some(definitions)
    }
}

/// A JavaScript file's symbols as code targets name them.
fn sites(text: &Rope, tree: &SyntaxTree) -> symbols::Outline {
    read(&JavaScript, text, tree).symbols
}

/// A file's elements as code targets name them, and what its outline
/// says of each beyond that.
pub(super) struct Read {
    /// The symbols, parents before children, in source order.
    pub(super) symbols: symbols::Outline,
    /// Per symbol: the kind its outline shows (`static method`,
    /// `interface`, `getter`).
    shown_kinds: Vec<&'static str>,
    /// Per symbol: just after its last character.
    exact_ends: Vec<Position>,
}

impl Read {
    /// The seam's outline: each element under the name that names it
    /// alone (its working form where the plain name is ambiguous), from
    /// its keyword to just after its last character.
    pub(super) fn outline(&self) -> Outline {
        let symbols = &self.symbols;
        Outline {
            entries: symbols
                .symbols
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let form = display_name(symbols, s);
                    // (a method written on its owner is shown with it:
                    // `Route.dispatch`)
                    let apart = s.kind == SymbolKind::Method && s.parent.is_none();
                    Entry {
                        kind: self.shown_kinds[i],
                        name: if form == s.qualified_name && !apart {
                            s.name.clone()
                        } else {
                            form.clone()
                        },
                        form,
                        is_async: s.is_async && s.kind.is_callable(),
                        start: s.position,
                        end: self.exact_ends[i],
                        parent: s.parent,
                    }
                })
                .collect(),
        }
    }
}

/// An element on its way to a symbol: its kind, name and parent.
struct Placed {
    /// The element found.
    found: usize,
    /// Its capture's kind, as its place makes it (a method outside a
    /// class is a function).
    kind: &'static str,
    name: String,
    qualified_name: String,
    parent: Option<usize>,
    /// A function written on a module-level function or class itself
    /// (`Route.create = function`), not on its prototype.
    is_static: bool,
}

/// The elements of a parsed file of the JavaScript family (its symbol
/// sites, [`crate::analysis::index::tags::symbol_sites`]), with their
/// ranges, nesting and names.
pub(super) fn read(language: &'static dyn Language, text: &Rope, tree: &SyntaxTree) -> Read {
    let found = each_name(symbol_sites(language, tree.root(), text).unwrap_or_default());
    let mut read = Read {
        symbols: symbols::Outline::default(),
        shown_kinds: Vec::new(),
        exact_ends: Vec::new(),
    };
    for p in place(text, &found) {
        let (symbol, shown, end) = symbol_of(text, &found[p.found], p);
        read.symbols.symbols.push(symbol);
        read.shown_kinds.push(shown);
        read.exact_ends.push(end);
    }
    read
}

/// The definitions the project index keeps of the elements a walk found
/// (the outline's symbols, without the ranges only edits read).
pub(super) fn definitions(text: &dyn TextAt, found: Vec<FoundSite<'_>>) -> Vec<SiteDefinition> {
    let found = each_name(found);
    place(text, &found)
        .into_iter()
        .map(|p| {
            let f = &found[p.found];
            let kind = symbol_kind(p.kind);
            let declaration = declaration_of(f);
            let (position, definition) = position_and_definition(text, f, kind, declaration);
            SiteDefinition {
                name: p.name,
                qualified_name: p.qualified_name,
                kind,
                position,
                name_position: node_start(text, f.name),
                definition,
                parent: p.parent,
                via_trait: None,
                trait_member: false,
                binds_name: !is_written_on_object(f),
                on_prototype: written_on(text, f).is_some_and(|o| o.on_prototype),
            }
        })
        .collect()
}

/// The sites, one per name a destructuring pattern binds, in source
/// order (outer before inner: a parent is always listed first).
fn each_name(found: Vec<FoundSite<'_>>) -> Vec<FoundSite<'_>> {
    let mut found: Vec<FoundSite<'_>> = found
        .into_iter()
        .flat_map(|f| {
            bound_names(f.name)
                .into_iter()
                .map(move |name| FoundSite { name, ..f })
        })
        .collect();
    super::braces::in_source_order(&mut found);
    found
}

/// Each element's kind, name and parent (the innermost element around
/// it): the elements in source order, outer before inner.
fn place(text: &dyn TextAt, found: &[FoundSite<'_>]) -> Vec<Placed> {
    let mut placed: Vec<Placed> = Vec::new();
    // the elements around the next one: (placed, its node)
    let mut open: Vec<(usize, Node<'_>)> = Vec::new();
    for (i, f) in found.iter().enumerate() {
        while open.last().is_some_and(|&(_, around)| {
            around.id() == f.node.id()
                || around.end_byte() <= f.node.start_byte()
                || around.end_byte() < f.node.end_byte()
        }) {
            open.pop();
        }
        let mut parent = open.last().map(|&(i, _)| i);
        // a parameter property is its constructor's class's
        if is_parameter(f.node) {
            parent = parent.and_then(|p| placed[p].parent);
        }
        // a method written on its owner, apart from it: named by it
        if let Some(owner) = written_on(text, f) {
            let name = node_text(text, f.name);
            let is_static = !owner.on_prototype
                && placed.iter().any(|p| {
                    p.parent.is_none()
                        && p.name == owner.name
                        && matches!(
                            symbol_kind(p.kind),
                            SymbolKind::Function | SymbolKind::Class
                        )
                });
            open.push((placed.len(), f.node));
            placed.push(Placed {
                found: i,
                kind: "method",
                qualified_name: format!("{}.{name}", owner.name),
                name,
                parent: None,
                is_static,
            });
            continue;
        }
        let in_class = parent.is_some_and(|p| symbol_kind(placed[p].kind) == SymbolKind::Class);
        // a member of a class no target names (`export default class
        // { … }`): its methods are functions, its fields nothing
        let kind = match f.kind {
            "method" if !in_class => "function",
            "field" | "property" if !in_class => continue,
            kind => kind,
        };
        let name = node_text(text, f.name);
        let qualified_name = match parent {
            Some(p) => format!("{}.{name}", placed[p].qualified_name),
            None => name.clone(),
        };
        open.push((placed.len(), f.node));
        placed.push(Placed {
            found: i,
            kind,
            name,
            qualified_name,
            parent,
            is_static: false,
        });
    }
    placed
}

/// The owner a module-level `owner.m = function () {}`,
/// `owner.prototype.m = function () {}` or `owner.prototype = { m() {} }`
/// writes a method on (the walk's `sites::member_owner` found it).
struct Owner {
    name: String,
    on_prototype: bool,
}

/// The owner of a method written on it; `None`: not such a method.
fn written_on(text: &dyn TextAt, f: &FoundSite<'_>) -> Option<Owner> {
    if f.kind != "method" {
        return None;
    }
    if matches!(f.node.kind(), "pair" | "method_definition") {
        // a member of the object `owner.prototype = { … }` assigns
        let object = f.parent().filter(|o| o.kind() == "object")?;
        let assignment = object.parent()?;
        let prototype = assignment.child_by_field_name("left")?;
        return Some(Owner {
            name: node_text(text, prototype.child_by_field_name("object")?),
            on_prototype: true,
        });
    }
    if f.node.kind() != "assignment_expression" {
        return None;
    }
    let object = f
        .node
        .child_by_field_name("left")?
        .child_by_field_name("object")?;
    match object.kind() {
        "identifier" => Some(Owner {
            name: node_text(text, object),
            on_prototype: false,
        }),
        _ => Some(Owner {
            name: node_text(text, object.child_by_field_name("object")?),
            on_prototype: true,
        }),
    }
}

/// Whether an element is a parameter (a TypeScript parameter property).
pub(super) fn is_parameter(node: Node<'_>) -> bool {
    matches!(node.kind(), "required_parameter" | "optional_parameter")
}

/// The symbol kind of an element found as `kind`.
fn symbol_kind(kind: &str) -> SymbolKind {
    match kind {
        "function" => SymbolKind::Function,
        "method" => SymbolKind::Method,
        "field" | "property" => SymbolKind::Attribute,
        "variable" => SymbolKind::Variable,
        _ => SymbolKind::Class,
    }
}

/// An element's position (its keyword; a variable's name) and its
/// definition, from its keyword to its end (chars).
fn position_and_definition(
    text: &dyn TextAt,
    f: &FoundSite<'_>,
    kind: SymbolKind,
    declaration: Node<'_>,
) -> (Position, std::ops::Range<usize>) {
    let keyword = keyword_of(declaration);
    let position = match kind {
        SymbolKind::Variable => node_start(text, f.name),
        _ => node_start(text, keyword),
    };
    let start = byte_to_char(text, keyword.start_byte());
    let definition = start..byte_to_char(text, content_end_byte(declaration)).max(start);
    (position, definition)
}

/// The names a binding binds: an identifier, or each identifier of a
/// destructuring pattern (`{a, b: c, ...rest}`, `[x, y = 1]`), not the
/// keys nor the default values.
fn bound_names(name: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    // an explicit stack, not recursion: nesting may be deep
    let mut stack = vec![name];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "object_pattern" | "array_pattern" | "rest_pattern" => {
                let mut c = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
                stack.extend(children.into_iter().rev());
            }
            "pair_pattern" => stack.extend(node.child_by_field_name("value")),
            "assignment_pattern" | "object_assignment_pattern" => {
                stack.extend(node.child_by_field_name("left"))
            }
            "comment" => {}
            // a name: `identifier`, `property_identifier`, a shorthand `{a}`
            _ if node.named_child_count() == 0 => out.push(node),
            _ => {}
        }
    }
    out
}

/// The symbol of a placed element, the kind its outline shows and its
/// exact end.
fn symbol_of(text: &Rope, f: &FoundSite<'_>, placed: Placed) -> (Symbol, &'static str, Position) {
    let Placed {
        kind,
        name,
        qualified_name,
        parent,
        is_static: static_member,
        ..
    } = placed;
    let declaration = declaration_of(f);
    let outer = outer_of(declaration);
    let symbol_kind = symbol_kind(kind);
    // the node that says `async`, has the parameters and the body: the
    // function (or class) a name or a field is bound to, else the element
    // (a CommonJS export key's is the assignment's right side)
    let value = match f.node.kind() {
        "assignment_expression" => "right",
        _ => "value",
    };
    let element = match symbol_kind {
        SymbolKind::Variable | SymbolKind::Attribute => f.node,
        _ => f
            .node
            .child_by_field_name(value)
            .and_then(|v| match v.kind() {
                "arrow_function" | "function_expression" | "generator_function" | "class" => {
                    Some(v)
                }
                // the function a wrapper is given (`memo((props) => …)`)
                "call_expression" => wrapped_function(text, v),
                _ => None,
            })
            .unwrap_or(f.node),
    };
    // (`static get` before a line break is one token)
    let is_static = static_member || has_token(f.node, "static") || has_token(f.node, "static get");
    let accessor = match symbol_kind {
        SymbolKind::Method if has_token(f.node, "get") || has_token(f.node, "static get") => {
            Some("getter")
        }
        SymbolKind::Method if has_token(f.node, "set") => Some("setter"),
        _ => None,
    };
    let shown = shown_kind(kind, is_static, accessor);
    // a definition from its keyword; a variable is where its name is
    let (position, definition) = position_and_definition(text, f, symbol_kind, declaration);
    let content_end = content_end_byte(declaration);
    let first_line = attached_start(text, first_of(outer));
    let last_line = from_char(text, definition.end.saturating_sub(1).max(definition.start)).line;
    let (params, param_names) = match symbol_kind {
        SymbolKind::Function | SymbolKind::Method => parameters(text, element),
        _ => (None, Vec::new()),
    };
    let body = match symbol_kind {
        SymbolKind::Variable | SymbolKind::Attribute => None,
        _ => element.child_by_field_name("body"),
    };
    let body_range =
        body.map(|b| byte_to_char(text, b.start_byte())..byte_to_char(text, content_end_byte(b)));
    let body_lines = body_range.as_ref().map(|b| {
        LineRange::new(
            from_char(text, b.start).line,
            from_char(text, b.end.saturating_sub(1).max(b.start)).line,
        )
    });
    // just inside the closing brace; without braces, the line after
    let end = match body.and_then(closing_brace) {
        Some(brace) => node_start(text, brace),
        None => from_char(text, lines::end_with_newline(text, last_line)),
    };
    let symbol = Symbol {
        kind: symbol_kind,
        qualified_name,
        name,
        params,
        param_names,
        is_async: has_token(element, "async"),
        decorators: Vec::new(),
        accessor,
        via_trait: None,
        position,
        name_position: node_start(text, f.name),
        indent: lines::indent_of(text, position.line),
        definition,
        full_lines: LineRange::new(first_line, last_line),
        full: lines::start(text, first_line)..lines::end_with_newline(text, last_line),
        body: body_range,
        body_lines,
        end,
        parent,
    };
    (symbol, shown, byte_to_position(text, content_end))
}

/// What an element's outline calls it: its capture's kind, a member's
/// `static` and a getter's or setter's word.
fn shown_kind(kind: &'static str, is_static: bool, accessor: Option<&str>) -> &'static str {
    match (kind, is_static, accessor) {
        ("method", false, Some("getter")) => "getter",
        ("method", true, Some("getter")) => "static getter",
        ("method", false, Some("setter")) => "setter",
        ("method", true, Some("setter")) => "static setter",
        ("method", true, _) => "static method",
        ("field", true, _) => "static field",
        (kind, _, _) => kind,
    }
}

/// The calls that return the function they are given first, so that a
/// name bound to one names that function: React's `memo` and `forwardRef`
/// (components), `useCallback`, mobx's `observer`, lodash's `debounce`,
/// `throttle`, `once` and `memoize` — by the callee's last name
/// (`React.memo`, `_.debounce`).
const FUNCTION_WRAPPERS: &[&str] = &[
    "memo",
    "forwardRef",
    "useCallback",
    "observer",
    "debounce",
    "throttle",
    "once",
    "memoize",
];

/// The function a wrapper call is given (`memo((props) => …)`, `memo(
/// forwardRef(function Button(props, ref) {…}))`), which a name bound to
/// the call names ([`FUNCTION_WRAPPERS`]); `None`: another call.
pub(crate) fn wrapped_function<'t>(text: &dyn TextAt, call: Node<'t>) -> Option<Node<'t>> {
    let mut call = call;
    // (a wrapper of a wrapper of a wrapper at most)
    for _ in 0..3 {
        if call.kind() != "call_expression" {
            return None;
        }
        let callee = call.child_by_field_name("function")?;
        let name = match callee.kind() {
            "identifier" => callee,
            "member_expression" => callee.child_by_field_name("property")?,
            _ => return None,
        };
        // (a length first: most callees are no wrapper, and reading one's
        // text allocates, on the cold scan's path)
        let length = name.byte_range().len();
        if !FUNCTION_WRAPPERS.iter().any(|w| w.len() == length)
            || !FUNCTION_WRAPPERS.contains(&text.text_of(name.byte_range()).as_str())
        {
            return None;
        }
        let first = call.child_by_field_name("arguments")?.named_child(0)?;
        match first.kind() {
            "arrow_function" | "function_expression" | "generator_function" => return Some(first),
            _ => call = first,
        }
    }
    None
}

/// Whether an element is written on an object, so binds no bare name: a
/// CommonJS export key written in place (the assignment of `exports.f =
/// function () {}`, a method or a pair of the object of `module.exports =
/// { … }`, the only objects whose members are sites), a method written on
/// its owner (`Route.prototype.dispatch = function () {}`).
fn is_written_on_object(f: &FoundSite<'_>) -> bool {
    match f.node.kind() {
        "assignment_expression" => true,
        // (the walk knows the parent: no descent from the root)
        "pair" | "method_definition" => f.parent().is_some_and(|p| p.kind() == "object"),
        _ => false,
    }
}

/// The statement an element is: the declaration of a name bound alone
/// (`const f = () => …;`), the statement of a CommonJS export key written
/// in place (`exports.f = function () {};`), else the element itself (one
/// of several names a declaration binds is its declarator).
fn declaration_of<'t>(f: &FoundSite<'t>) -> Node<'t> {
    let node = f.node;
    if node.kind() == "assignment_expression" {
        return f.parent().unwrap_or(node);
    }
    if node.kind() != "variable_declarator" {
        return node;
    }
    match f.parent() {
        Some(declaration)
            if matches!(
                declaration.kind(),
                "lexical_declaration" | "variable_declaration"
            ) =>
        {
            let mut c = declaration.walk();
            let declarators = declaration
                .named_children(&mut c)
                .filter(|n| n.kind() == "variable_declarator")
                .count();
            if declarators == 1 {
                declaration
            } else {
                node
            }
        }
        _ => node,
    }
}

/// The statement around a declaration that its whole lines cover: its
/// `export`, TypeScript's `declare`.
fn outer_of(declaration: Node<'_>) -> Node<'_> {
    let mut outer = declaration;
    while let Some(parent) = outer
        .parent()
        .filter(|p| matches!(p.kind(), "export_statement" | "ambient_declaration"))
    {
        outer = parent;
    }
    outer
}

/// The first node of an element's lines: the decorators TypeScript puts
/// before a class member (as the member's siblings), else the element.
fn first_of(outer: Node<'_>) -> Node<'_> {
    // a decorator applies to the next member whatever comments stand
    // between
    let mut first = outer;
    let mut previous = outer.prev_named_sibling();
    while let Some(node) = previous {
        match node.kind() {
            "decorator" => first = node,
            "comment" => {}
            _ => break,
        }
        previous = node.prev_named_sibling();
    }
    first
}

/// A declaration's keyword: its first token after its decorators (and
/// the comments among them).
fn keyword_of(declaration: Node<'_>) -> Node<'_> {
    let mut c = declaration.walk();
    let keyword = declaration
        .children(&mut c)
        .find(|n| !matches!(n.kind(), "decorator" | "comment"));
    keyword.unwrap_or(declaration)
}

/// The first line of an element with the comments directly above it: a
/// comment on lines of its own that ends on the line above (or on the
/// element's first line), and so on up.
fn attached_start(text: &Rope, first: Node<'_>) -> usize {
    let mut line = first.start_position().row;
    let mut node = first;
    while let Some(comment) = node.prev_sibling().filter(|p| p.kind() == "comment") {
        let ends = comment.end_position().row;
        if ends + 1 < line || ends > line {
            break;
        }
        let starts = comment.start_position();
        let before = lines::text_of(text, starts.row);
        let lead = node_start(text, comment).col;
        if !before.chars().take(lead).all(char::is_whitespace) {
            break; // a comment after code on its line belongs to that code
        }
        line = starts.row;
        node = comment;
    }
    line
}

/// Whether `node` has the keyword `token` among its own children before
/// its parameters (`async`, `static`, `get`, `set`).
fn has_token(node: Node<'_>, token: &str) -> bool {
    let mut c = node.walk();
    let found = node
        .children(&mut c)
        .take_while(|n| !matches!(n.kind(), "formal_parameters" | "statement_block" | "=>"))
        .any(|n| !n.is_named() && n.kind() == token);
    found
}

/// A callable's parameters as written (between the parentheses) and the
/// names they bind, in order (no destructuring patterns, no `this`).
fn parameters(text: &Rope, callable: Node<'_>) -> (Option<String>, Vec<String>) {
    let parameters = callable
        .child_by_field_name("parameters")
        .or_else(|| callable.child_by_field_name("parameter"));
    let Some(parameters) = parameters else {
        return (None, Vec::new());
    };
    if parameters.kind() != "formal_parameters" {
        // an arrow function's one bare parameter: `x => …`
        let name = node_text(text, parameters);
        return (Some(name.clone()), vec![name]);
    }
    let written = node_text(text, parameters);
    let inner = written
        .strip_prefix('(')
        .map(|s| s.strip_suffix(')').unwrap_or(s))
        .unwrap_or(&written)
        .to_string();
    let mut names = Vec::new();
    let mut c = parameters.walk();
    for parameter in parameters.named_children(&mut c) {
        if let Some(name) = parameter_name(parameter) {
            names.push(node_text(text, name));
        }
    }
    (Some(inner), names)
}

/// The identifier a parameter binds: `a`, `a = 1`, `...a`, TypeScript's
/// `a: T`, `a?: T`, `private a: T`.
fn parameter_name(parameter: Node<'_>) -> Option<Node<'_>> {
    match parameter.kind() {
        "identifier" => Some(parameter),
        "assignment_pattern" => parameter
            .child_by_field_name("left")
            .filter(|n| n.kind() == "identifier"),
        "rest_pattern" => parameter
            .named_child(0)
            .filter(|n| n.kind() == "identifier"),
        "required_parameter" | "optional_parameter" => {
            parameter_name(parameter.child_by_field_name("pattern")?)
        }
        _ => None,
    }
}

/// The closing brace of a block, when it ends with one (an automatic
/// semicolon, zero-wide, may follow it).
fn closing_brace(body: Node<'_>) -> Option<Node<'_>> {
    let mut c = body.walk();
    let children: Vec<Node<'_>> = body.children(&mut c).collect();
    let last = children
        .into_iter()
        .rev()
        .find(|n| n.end_byte() > n.start_byte())?;
    matches!(last.kind(), "}" | "|}").then_some(last)
}

// -- syntax errors ------------------------------------------------------------

/// What a bracket scan skips in JavaScript: `'` and `"` strings, template
/// literals (which may span lines), comments.
const LEXICON: Lexicon = Lexicon {
    line_quotes: &['\'', '"'],
    multiline_quotes: &['`'],
    char_quote: false,
    raw_strings: false,
    nested_comments: false,
    semicolon_before_line: false,
    list_error_at_token: false,
    expression_keywords: &[],
    accepts: None,
    end: EndOfFile::AfterText,
};

/// The syntax errors of a file of the JavaScript family, in source order:
/// each ERROR node (the outermost of nested ones) and each MISSING node,
/// where it starts, with what is wrong: `missing ';'`, `unclosed '('`,
/// `unexpected ')'`, `unexpected 'else'`, `unexpected end of file`.
/// Tree-sitter's recovery decides where an error is seen; Node's own
/// check (`node --check`) agrees on the line in the common cases (the
/// tests compare them). Where the grammar and JavaScript part ways — a
/// block-bodied arrow function followed by `(` or `[` — the file is read
/// as JavaScript reads it. Errors the grammar accepts (a `let` declared
/// twice, a `return` outside a function) are not reported.
pub(super) fn syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let (called, ended) = arrows_continued(text, tree.root());
    let mut out = if ended.is_empty() {
        parse_errors(text, tree.root(), &LEXICON)
    } else {
        // JavaScript ends those statements after the arrow function
        // (automatic semicolon insertion): check the text as it reads it
        let mut read = text.clone();
        for &at in ended.iter().rev() {
            read.insert(at, ";");
        }
        match SyntaxTree::parse_language(tree.language(), &read) {
            Ok(reread) => parse_errors(&read, reread.root(), &LEXICON),
            Err(_) => parse_errors(text, tree.root(), &LEXICON),
        }
    };
    out.extend(called);
    out.extend(empty_elements(text, tree.root()));
    out.sort_by_key(|e| e.position);
    out.dedup();
    out
}

/// The commas of an object, an object pattern or a call's arguments that
/// follow the opening brace or another comma (`{a: 1,, b: 2}`, `{,}`,
/// `f(a,, b)`): the grammar takes them as an array's holes, JavaScript
/// has none there. At the comma, where Node and `tsc` report it.
fn empty_elements(text: &Rope, root: Node<'_>) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let mut c = node.walk();
        if matches!(node.kind(), "object" | "object_pattern" | "arguments") {
            let mut previous: Option<Node<'_>> = None;
            for child in node.children(&mut c).filter(|n| !n.is_extra()) {
                let empty = previous.is_some_and(|p| matches!(p.kind(), "{" | "(" | ","));
                if child.kind() == "," && empty {
                    out.push(SyntaxError {
                        position: node_start(text, child),
                        message: "unexpected ','".to_owned(),
                    });
                }
                previous = Some(child);
            }
        }
        stack.extend(node.named_children(&mut c));
    }
    out
}

/// Where the grammar reads a block-bodied arrow function as called,
/// indexed or followed by a member (`() => {}` then `(…)`, `[…]`, `.x`),
/// which JavaScript never does: on the same line, an error at that token;
/// after a line break, the statement ends after the arrow function — the
/// chars where a `;` goes, in order.
fn arrows_continued(text: &Rope, root: Node<'_>) -> (Vec<SyntaxError>, Vec<usize>) {
    let mut called = Vec::new();
    let mut ended = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let continued = match node.kind() {
            "call_expression" => node.child_by_field_name("function"),
            "subscript_expression" | "member_expression" => node.child_by_field_name("object"),
            _ => None,
        };
        let arrow = continued.filter(|n| {
            n.kind() == "arrow_function"
                && n.child_by_field_name("body")
                    .is_some_and(|b| b.kind() == "statement_block")
        });
        if let Some(arrow) = arrow {
            if let Some(next) = token_after(arrow) {
                if next.start_position().row > arrow.end_position().row {
                    ended.push(byte_to_char(text, arrow.end_byte()));
                } else {
                    called.push(SyntaxError {
                        position: node_start(text, next),
                        message: format!(
                            "unexpected '{}' after an arrow function's body",
                            shortened(&node_text(text, next))
                        ),
                    });
                }
            }
        }
        let mut c = node.walk();
        stack.extend(node.children(&mut c));
    }
    ended.sort_unstable();
    (called, ended)
}

/// The locals of a JavaScript file's functions (`Variable f.x`).
fn locals_javascript(outline: &mut crate::analysis::Outline, text: &Rope, _tree: &SyntaxTree) {
    super::locals::add_locals(&JavaScript, outline, text);
}

/// The globals of ECMAScript, browsers and Node that every script sees without an import.
pub(crate) const JS_GLOBALS: &[&str] = &[
    "globalThis",
    "Infinity",
    "NaN",
    "undefined",
    "eval",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "unescape",
    "Object",
    "Function",
    "Array",
    "Number",
    "Boolean",
    "String",
    "Symbol",
    "BigInt",
    "Date",
    "RegExp",
    "Error",
    "AggregateError",
    "EvalError",
    "RangeError",
    "ReferenceError",
    "SyntaxError",
    "TypeError",
    "URIError",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "WeakRef",
    "FinalizationRegistry",
    "Promise",
    "Proxy",
    "Reflect",
    "JSON",
    "Math",
    "Atomics",
    "Intl",
    "ArrayBuffer",
    "SharedArrayBuffer",
    "DataView",
    "Int8Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "Int16Array",
    "Uint16Array",
    "Int32Array",
    "Uint32Array",
    "Float32Array",
    "Float64Array",
    "BigInt64Array",
    "BigUint64Array",
    "arguments",
    "console",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "setImmediate",
    "clearImmediate",
    "queueMicrotask",
    "structuredClone",
    "fetch",
    "URL",
    "URLSearchParams",
    "TextEncoder",
    "TextDecoder",
    "AbortController",
    "AbortSignal",
    "Event",
    "EventTarget",
    "Blob",
    "FormData",
    "Headers",
    "Request",
    "Response",
    "crypto",
    "performance",
    "atob",
    "btoa",
    "window",
    "self",
    "document",
    "navigator",
    "location",
    "history",
    "localStorage",
    "sessionStorage",
    "HTMLElement",
    "Element",
    "Node",
    "customElements",
    "requestAnimationFrame",
    "cancelAnimationFrame",
    "alert",
    "process",
    "require",
    "module",
    "exports",
    "__dirname",
    "__filename",
    "Buffer",
    "global",
];
