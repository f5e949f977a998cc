//! The reader the brace languages share: Go ([`super::go`]), Rust
//! ([`super::rust`]) and Java ([`super::java`]) read their files alike, as
//! the JavaScript family does ([`super::javascript`]). Each language's
//! symbol sites say what an element is (the rules of
//! `analysis/index/tags/sites.rs`, in the tags convention, which the
//! project index reads too; `queries/<language>/outline.scm` says the same
//! as a query, and a test holds the two equal); its [`Braces`] say where
//! its parts are; this module gives each element the ranges code targets
//! need:
//! * an element's *position* is its first token after its annotations or
//!   attributes (`func`, `type`, `pub`, `fn`, `public`, `class`); a
//!   variable's or a field's is its name. Its *definition* runs from its
//!   first token to its end.
//! * its *whole lines* add its attributes (Rust's `#[…]`, before it) and
//!   annotations (Java's, among its modifiers) and the comments directly
//!   above it (`//` lines, `///` doc comments, a `/** … */` block).
//! * its *end* (`Goto EndOfFunction`, `Goto EndOfClass`) is just inside
//!   its closing brace, where a member or a statement goes; an element
//!   without braces ends at the start of the line after it.
//!
//! A method is in the class (struct, interface, trait, enum, record) it is
//! declared in; a method declared apart from its type — Go's, by its
//! receiver; Rust's, in an `impl` block — belongs to that type: its parent
//! is the type where the file declares it beside the method (in the same
//! module), and its qualified name is the type's and its own
//! (`Stack.Push`), with the trait between for a trait's implementation
//! (`Point.Display.fmt`, which `Method Point.fmt` also finds).
//!
//! Kinds (the sites' kinds, the query's capture names): `function`; `method` and
//! `constructor` (callables of a class); `field`, `variant` (members of a
//! class, `Variable C.x`; dropped outside one); `variable`, `constant`,
//! `static` (module-level bindings, or a class's members); any other kind
//! (`class`, `struct`, `interface`, `trait`, `enum`, `union`, `type`,
//! `record`, `annotation`, `module`) is what `Class` names.

use ropey::Rope;
use tree_sitter::Node;

use super::{Entry, FoundSite, Language, Outline, SiteDefinition};
use crate::analysis::index::tags::symbol_sites;
use crate::analysis::lines;
use crate::analysis::outline::{
    self as symbols, content_end_byte, display_name, Symbol, SymbolKind,
};
use crate::analysis::syntax::{
    byte_to_char, byte_to_position, node_start, node_text, SyntaxTree, TextAt,
};
use crate::edit::position::from_char;
use crate::edit::{LineRange, Position};

/// Where a brace language keeps the parts of its elements.
pub(super) struct Braces {
    /// The language, whose symbol sites are its elements.
    pub(super) language: &'static dyn Language,
    /// The kinds of its comment nodes.
    pub(super) comments: &'static [&'static str],
    /// The kinds of the annotations or attributes an element carries
    /// (Rust's `attribute_item`s before it, Java's annotations among its
    /// modifiers): never its first token.
    pub(super) annotations: &'static [&'static str],
    /// The kinds of the nodes that hold an element's modifiers (Java's
    /// `modifiers`): its first token is searched in them.
    pub(super) modifiers: &'static [&'static str],
    /// The declarations that are the whole statement of an element when
    /// they declare it alone (Go's `type_declaration` around one
    /// `type_spec`, Java's `field_declaration` around one declarator).
    pub(super) groups: &'static [&'static str],
    /// The node whose closing brace ends an element, when it has one.
    pub(super) body: for<'t> fn(Node<'t>) -> Option<Node<'t>>,
    /// A callable's parameters as written (between the parentheses) and
    /// the names they bind.
    pub(super) parameters: fn(&Rope, Node<'_>) -> Parameters,
    /// The type a method declared apart from its type belongs to, and the
    /// trait it implements (Go's receiver; Rust's `impl Trait for Type`).
    pub(super) owner: fn(&dyn TextAt, Node<'_>) -> Option<Owner>,
    /// Whether a callable is `async`.
    pub(super) is_async: fn(Node<'_>) -> bool,
}

/// A callable's parameters as written, and the names they bind.
pub(super) type Parameters = (Option<String>, Vec<String>);

/// The type (and trait) a method declared apart from its type belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Owner {
    /// The type's name (`Stack` for a receiver `*Stack[T]`).
    pub(super) type_name: String,
    /// The trait whose implementation declares the method (`Display`).
    pub(super) via_trait: Option<String>,
}

/// A file's elements as code targets name them, and what its outline
/// says of each beyond that.
pub(super) struct Read {
    /// The symbols, in source order.
    pub(super) symbols: symbols::Outline,
    /// Per symbol: the kind its outline shows (`struct`, `trait`,
    /// `constructor`).
    shown_kinds: Vec<&'static str>,
    /// Per symbol: just after its last character.
    exact_ends: Vec<Position>,
}

impl Read {
    /// The seam's outline: each element under its name (its working form
    /// where the name alone is ambiguous: `init#2`, `Point.Display.fmt`),
    /// from its first token to just after its last character.
    pub(super) fn outline(&self) -> Outline {
        let symbols = &self.symbols;
        Outline {
            entries: symbols
                .symbols
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let form = display_name(symbols, s);
                    // the path a name needs alone: a trait's method is
                    // its type's (`Point.area`) unless that is ambiguous
                    let plain = match &s.via_trait {
                        Some(t) => match s.qualified_name.strip_suffix(&format!(".{t}.{}", s.name))
                        {
                            Some(owner) => format!("{owner}.{}", s.name),
                            None => s.qualified_name.clone(),
                        },
                        None => s.qualified_name.clone(),
                    };
                    // (a method apart from its type, whose type is not
                    // its parent here, is shown with it: `Stack.Pop`)
                    let apart = s.kind == SymbolKind::Method && s.parent.is_none();
                    Entry {
                        kind: self.shown_kinds[i],
                        name: if form == plain && !apart {
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

/// An element on its way to a symbol: what its place in the file says.
struct Placed {
    /// The element found.
    found: usize,
    kind: SymbolKind,
    /// The kind its outline shows.
    shown: &'static str,
    /// Its name (a raw identifier, Rust's `r#type`, by its word).
    name: String,
    /// The innermost element around it.
    around: Option<usize>,
    /// The type it belongs to, for a method declared apart from its type.
    owner: Option<Owner>,
}

/// The elements of a parsed file of a brace language (its symbol sites),
/// with their ranges, owners and names.
pub(super) fn read(braces: &Braces, text: &Rope, tree: &SyntaxTree) -> Read {
    let mut found = symbol_sites(braces.language, tree.root(), text).unwrap_or_default();
    in_source_order(&mut found);
    let placed = place(braces, text, &found);
    let parents = parents(&placed);
    let names = qualified_names(&placed, &parents);
    let mut read = Read {
        symbols: symbols::Outline::default(),
        shown_kinds: Vec::new(),
        exact_ends: Vec::new(),
    };
    for ((p, parent), (qualified_name, via_trait)) in placed.iter().zip(parents).zip(names) {
        let (mut symbol, end) = symbol_of(braces, text, &found[p.found], p);
        symbol.parent = parent;
        symbol.qualified_name = qualified_name;
        symbol.via_trait = via_trait;
        read.symbols.symbols.push(symbol);
        read.shown_kinds.push(p.shown);
        read.exact_ends.push(end);
    }
    read
}

/// The definitions the project index keeps of the elements a walk found
/// (the outline's symbols, without the ranges only edits read).
pub(super) fn definitions(
    braces: &Braces,
    text: &dyn TextAt,
    mut found: Vec<FoundSite<'_>>,
) -> Vec<SiteDefinition> {
    in_source_order(&mut found);
    let placed = place(braces, text, &found);
    let parents = parents(&placed);
    let names = qualified_names(&placed, &parents);
    let placed_found: Vec<usize> = placed.iter().map(|p| p.found).collect();
    placed
        .into_iter()
        .zip(parents)
        .zip(names)
        .map(|((p, parent), (qualified_name, via_trait))| {
            let f = &found[p.found];
            let declaration = declaration_of(braces, f);
            let first = first_token(braces, declaration);
            let (position, definition) =
                position_and_definition(text, f, p.kind, first, declaration);
            // declared for an interface or a trait (whose implementations
            // reach it by name; a Go interface written in place too,
            // `v.(interface{ M() })`), or in a Rust `impl` the file cannot
            // tell; a Go method with a receiver is its type's own
            let trait_member = via_trait.is_some()
                || f.node.kind() == "method_elem"
                || match parent {
                    Some(parent) => {
                        matches!(found[placed_found[parent]].kind, "trait" | "interface")
                    }
                    None => f.node.kind() != "method_declaration",
                };
            SiteDefinition {
                name: p.name,
                qualified_name,
                kind: p.kind,
                position,
                name_position: node_start(text, f.name),
                definition,
                parent,
                via_trait,
                trait_member,
                binds_name: true,
                on_prototype: false,
            }
        })
        .collect()
}

/// Each element's kind, name, the element around it and its owner: the
/// elements in source order, outer before inner.
fn place(braces: &Braces, text: &dyn TextAt, found: &[FoundSite<'_>]) -> Vec<Placed> {
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
        let around = open.last().map(|&(i, _)| i);
        let in_class = around.is_some_and(|p| placed[p].kind == SymbolKind::Class);
        // (a Rust module is a class that holds impl blocks)
        let owner = match f.kind {
            "method" => (braces.owner)(text, f.node),
            _ => None,
        };
        // (a Go interface's method is one where the interface is written
        // in place too: a type assertion's, a parameter's)
        let interface_method = f.node.kind() == "method_elem";
        let kind = match f.kind {
            "method" | "constructor" if in_class || owner.is_some() || interface_method => {
                SymbolKind::Method
            }
            "function" | "method" | "constructor" => SymbolKind::Function,
            "field" | "variant" if !in_class => continue,
            "field" | "variant" => SymbolKind::Attribute,
            "variable" | "constant" | "static" if in_class => SymbolKind::Attribute,
            "variable" | "constant" | "static" => SymbolKind::Variable,
            _ => SymbolKind::Class,
        };
        let shown = match (f.kind, kind) {
            ("method", SymbolKind::Function) => "function",
            (shown, _) => shown,
        };
        // a raw identifier (Rust's `r#type`) is named by its word
        let written = node_text(text, f.name);
        let name = match written.strip_prefix("r#") {
            Some(word) => word.to_owned(),
            None => written,
        };
        open.push((placed.len(), f.node));
        placed.push(Placed {
            found: i,
            kind,
            shown,
            name,
            around,
            owner,
        });
    }
    placed
}

/// Elements in source order, outer before inner (then by name).
pub(super) fn in_source_order(found: &mut [FoundSite<'_>]) {
    found.sort_by_key(|f| {
        (
            f.node.start_byte(),
            std::cmp::Reverse(f.node.end_byte()),
            f.name.start_byte(),
        )
    });
}

/// Each element's parent: the element around it; for a method declared
/// apart from its type, the type, where the file declares it in the same
/// scope as the method (else none: the type is in another file).
fn parents(placed: &[Placed]) -> Vec<Option<usize>> {
    placed
        .iter()
        .map(|p| match &p.owner {
            None => p.around,
            Some(owner) => placed.iter().position(|s| {
                s.kind == SymbolKind::Class && s.name == owner.type_name && s.around == p.around
            }),
        })
        .collect()
}

/// Each element's qualified name (its parents' names and its own, dotted;
/// a method's type and trait before its name) and its trait.
fn qualified_names(placed: &[Placed], parents: &[Option<usize>]) -> Vec<(String, Option<String>)> {
    // a parent may come after its child (a Go method above its type), so
    // each name is built up its chain of parents
    let path = |i: usize| -> String {
        let mut parts = vec![placed[i].name.as_str()];
        let mut at = i;
        // (a chain longer than the file's elements would be a cycle)
        for _ in 0..placed.len() {
            let next = match &placed[at].owner {
                Some(owner) => {
                    parts.extend(owner.via_trait.as_deref());
                    if parents[at].is_none() {
                        // a type declared elsewhere, in the method's scope
                        parts.push(&owner.type_name);
                        placed[at].around
                    } else {
                        parents[at]
                    }
                }
                None => parents[at],
            };
            let Some(p) = next else { break };
            parts.push(&placed[p].name);
            at = p;
        }
        parts.reverse();
        parts.join(".")
    };
    (0..placed.len())
        .map(|i| {
            let via_trait = placed[i].owner.as_ref().and_then(|o| o.via_trait.clone());
            (path(i), via_trait)
        })
        .collect()
}

/// An element's position (its first token; a variable's or a field's
/// name) and its definition, from its first token to its end (chars).
fn position_and_definition(
    text: &dyn TextAt,
    f: &FoundSite<'_>,
    kind: SymbolKind,
    first: Node<'_>,
    declaration: Node<'_>,
) -> (Position, std::ops::Range<usize>) {
    let position = match kind {
        SymbolKind::Variable | SymbolKind::Attribute => node_start(text, f.name),
        _ => node_start(text, first),
    };
    let start = byte_to_char(text, first.start_byte());
    let definition = start..byte_to_char(text, content_end_byte(declaration)).max(start);
    (position, definition)
}

/// The symbol of a placed element (its parent and qualified name still
/// to come) and its exact end.
fn symbol_of(
    braces: &Braces,
    text: &Rope,
    f: &FoundSite<'_>,
    placed: &Placed,
) -> (Symbol, Position) {
    let kind = placed.kind;
    let name = placed.name.clone();
    let declaration = declaration_of(braces, f);
    let first = first_token(braces, declaration);
    let (position, definition) = position_and_definition(text, f, kind, first, declaration);
    let content_end = content_end_byte(declaration);
    let first_line = attached_start(braces, text, first_of(braces, declaration));
    let last_line = from_char(text, definition.end.saturating_sub(1).max(definition.start)).line;
    let callable = kind.is_callable();
    let (params, param_names) = if callable {
        (braces.parameters)(text, f.node)
    } else {
        (None, Vec::new())
    };
    let body = match kind {
        SymbolKind::Variable | SymbolKind::Attribute => None,
        _ => (braces.body)(f.node),
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
        kind,
        qualified_name: name.clone(),
        name,
        params,
        param_names,
        is_async: callable && (braces.is_async)(f.node),
        decorators: Vec::new(),
        accessor: None,
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
        parent: None,
    };
    (symbol, byte_to_position(text, content_end))
}

/// The statement an element is: the declaration around it when it
/// declares it alone (`type T struct{…}`, not one spec of `type (…)`),
/// else the element.
fn declaration_of<'t>(braces: &Braces, f: &FoundSite<'t>) -> Node<'t> {
    let node = f.node;
    if braces.groups.is_empty() {
        return node;
    }
    let Some(parent) = f.parent().filter(|p| braces.groups.contains(&p.kind())) else {
        return node;
    };
    // one other is enough to tell: counting them all made a file of one
    // large `const ( … )` group quadratic (Go's syscall tables); any
    // Go spec counts (an alias `D = int` among `type ( A int … )`'s)
    let spec = |kind: &str| kind.ends_with("_spec") || kind == "type_alias";
    let mut c = parent.walk();
    let alike = parent
        .named_children(&mut c)
        .filter(|n| n.kind() == node.kind() || (spec(node.kind()) && spec(n.kind())))
        .take(2)
        .count();
    if alike == 1 {
        parent
    } else {
        node
    }
}

/// An element's first token after its annotations, attributes and the
/// comments among them (inside its modifiers, where they hold one).
fn first_token<'t>(braces: &Braces, declaration: Node<'t>) -> Node<'t> {
    let skip = |n: &Node<'_>| {
        braces.annotations.contains(&n.kind()) || braces.comments.contains(&n.kind())
    };
    let mut c = declaration.walk();
    let children: Vec<Node<'t>> = declaration.children(&mut c).collect();
    for child in children {
        if skip(&child) {
            continue;
        }
        if braces.modifiers.contains(&child.kind()) {
            let mut m = child.walk();
            let inner = child.children(&mut m).find(|n| !skip(n));
            match inner {
                Some(token) => return token,
                None => continue,
            }
        }
        return child;
    }
    declaration
}

/// The first node of an element's lines: the attributes before it (Rust's
/// `#[…]`, siblings of the item, with the comments among them: an
/// attribute applies to the next item whatever stands between), else the
/// element.
fn first_of<'t>(braces: &Braces, declaration: Node<'t>) -> Node<'t> {
    let mut first = declaration;
    let mut previous = declaration.prev_named_sibling();
    while let Some(node) = previous {
        if braces.annotations.contains(&node.kind()) {
            first = node;
        } else if !braces.comments.contains(&node.kind()) {
            break;
        }
        previous = node.prev_named_sibling();
    }
    first
}

/// The first line of an element with the comments directly above it: a
/// comment on lines of its own that ends on the line above (or on the
/// element's first line), and so on up; not a comment about the file or
/// module it is in (Rust's `//!`).
fn attached_start(braces: &Braces, text: &Rope, first: Node<'_>) -> usize {
    let mut line = first.start_position().row;
    let mut node = first;
    while let Some(comment) = node
        .prev_sibling()
        .filter(|p| braces.comments.contains(&p.kind()))
    {
        // a line comment may end at the start of the next line
        let end = comment.end_position();
        let ends = if end.column == 0 && end.row > comment.start_position().row {
            end.row - 1
        } else {
            end.row
        };
        let body = node_text(text, comment);
        if body.starts_with("//!") || body.starts_with("/*!") {
            break;
        }
        // an outer doc comment (Rust's, Java's: their grammars tell line
        // and block comments; Go's doc comments touch their element)
        // documents the next element across blank lines
        let doc = matches!(comment.kind(), "line_comment" | "block_comment") && is_outer_doc(&body);
        let apart = ends + 1 < line && !(doc && only_blank(text, ends + 1..line));
        if apart || ends > line {
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

/// `/// …` and `/** … */`: a doc comment of the element after it (not
/// `////` or `/***`, which are plain comments).
fn is_outer_doc(comment: &str) -> bool {
    (comment.starts_with("///") && !comment.starts_with("////"))
        || (comment.starts_with("/**") && !comment.starts_with("/***") && comment != "/**/")
}

fn only_blank(text: &Rope, rows: std::ops::Range<usize>) -> bool {
    rows.into_iter().all(|row| lines::is_blank(text, row))
}

/// The closing brace of a block, when it ends with one.
pub(super) fn closing_brace(body: Node<'_>) -> Option<Node<'_>> {
    let mut c = body.walk();
    let children: Vec<Node<'_>> = body.children(&mut c).collect();
    let last = children
        .into_iter()
        .rev()
        .find(|n| n.end_byte() > n.start_byte())?;
    (last.kind() == "}").then_some(last)
}

/// The names `parameters` (a parameter list) binds, each found by
/// `name_of`, and the list as written between its parentheses.
pub(super) fn parameter_list(
    text: &Rope,
    parameters: Option<Node<'_>>,
    name_of: impl Fn(Node<'_>) -> Vec<Node<'_>>,
) -> Parameters {
    let Some(parameters) = parameters else {
        return (None, Vec::new());
    };
    let written = node_text(text, parameters);
    let inner = written
        .strip_prefix('(')
        .map(|s| s.strip_suffix(')').unwrap_or(s))
        .unwrap_or(&written)
        .to_string();
    let mut names = Vec::new();
    let mut c = parameters.walk();
    for parameter in parameters.named_children(&mut c) {
        names.extend(name_of(parameter).into_iter().map(|n| node_text(text, n)));
    }
    (Some(inner), names)
}

/// The named children of `node` in field `field`.
pub(super) fn field_children<'t>(node: Node<'t>, field: &str) -> Vec<Node<'t>> {
    let mut c = node.walk();
    let found: Vec<Node<'t>> = node.children_by_field_name(field, &mut c).collect();
    found
}
