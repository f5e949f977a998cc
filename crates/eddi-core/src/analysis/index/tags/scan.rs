//! One file of a brace language scanned for the index: its definitions
//! (the language's own symbol sites: the names code targets print), its
//! references (the language's `queries/<language>/index.scm`, tags-like),
//! the names its scopes bind (which hide a module-level name), and what
//! its family's resolver reads of its imports and exports.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use ropey::Rope;
use tree_sitter::{Node, Query, QueryCursor, StreamingIterator};

use super::family::{family_of, Family};
use crate::analysis::outline::SymbolKind;
use crate::analysis::syntax::{byte_to_char, byte_to_position, SyntaxTree};
use crate::edit::Position;
use crate::language::Language;

/// A file's definitions, references and imports.
#[derive(Debug, Clone, Default)]
pub struct TagsFile {
    pub defs: Vec<TagDef>,
    pub refs: Vec<TagRef>,
    pub imports: Vec<Import>,
    /// ES modules: the names the file exports, each with the module-level
    /// name it exports (`export { a as b }`: `("b", "a")`; `export default
    /// f`: `("default", "f")`).
    pub exports: Vec<(String, String)>,
    /// Go's package clause, Java's package declaration.
    pub package: Option<String>,
    /// Names declared with a type in a scope (a Go receiver or parameter,
    /// a Java local): a member read through them is the type's.
    pub typed: Vec<Typed>,
    /// Every word its tables key (names of definitions, uses, imports,
    /// and the words of import sources): once scanned, a query asks this
    /// instead of the text.
    pub words: std::collections::HashSet<Box<str>>,
}

impl TagsFile {
    /// Fills [`TagsFile::words`] from its tables.
    fn key_words(&mut self) {
        let mut words = std::collections::HashSet::new();
        words.extend(self.defs.iter().map(|d| d.name.as_str().into()));
        words.extend(self.refs.iter().map(|r| r.name.as_str().into()));
        for import in &self.imports {
            words.insert(import.local.as_str().into());
            if let Imported::Name(n) = &import.imported {
                words.insert(n.as_str().into());
            }
            words.extend(
                import
                    .source
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                    .filter(|w| !w.is_empty())
                    .map(Into::into),
            );
        }
        self.words = words;
    }
}

/// One definition: a symbol site of the file's language.
#[derive(Debug, Clone)]
pub struct TagDef {
    pub name: String,
    /// `C.m`, as code targets name it.
    pub qualified: String,
    pub kind: SymbolKind,
    pub position: Position,
    pub name_position: Position,
    /// Not inside a class or function: what the module exports or binds.
    pub top_level: bool,
    /// The class (type) a member belongs to, by name.
    pub container: Option<String>,
    /// The definition, in chars.
    pub span: Range<usize>,
}

/// How a reference reaches its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Qualifier {
    /// A bare name.
    None,
    /// `x.name`: through a name (a module, a class, a value).
    Name(String),
    /// `this.name`, `self.name`.
    This,
    /// Rust's `a::b::name`: the path's names before it.
    Path(Vec<String>),
    /// Through any other expression (`f().name`).
    Other,
}

/// One use of a name.
#[derive(Debug, Clone)]
pub struct TagRef {
    pub name: String,
    pub start: Position,
    pub end: Position,
    /// In chars.
    pub offset: usize,
    /// The callee of a call (or a construction).
    pub call: bool,
    pub qualifier: Qualifier,
    /// A scope around it binds its name: not a module-level name.
    pub shadowed: bool,
    /// A scope around it binds the name it is read through (`x` of
    /// `x.name`): a local value.
    pub local_qualifier: bool,
    /// The innermost function or class it is in (an index of `defs`).
    pub in_def: Option<usize>,
    /// The name an import takes from its source (`f` of `import { f as g }`):
    /// the import's index.
    pub import: Option<usize>,
}

/// What an import binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    /// A name its source exports (`import { f }`, Rust `use a::f`, Java
    /// `import p.C`).
    Name(String),
    /// Its source's default export.
    Default,
    /// The module itself (`import * as ns`, a Go package, Rust `use a::b`
    /// naming a module, `const m = require(…)`).
    Module,
    /// Every name it exports (`export * from`, Java `import p.*`, Rust
    /// `use a::*`, Go's dot import).
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    /// A static import: its source is known.
    Static,
    /// CommonJS `require(…)`: what it binds is known only at run time.
    Require,
    /// An ES re-export (`export … from`): the module exports it, binds
    /// nothing.
    ReExport,
}

#[derive(Debug, Clone)]
pub struct Import {
    /// The name it binds in the file (for a re-export: the name exported).
    pub local: String,
    pub imported: Imported,
    /// As written: a specifier, an import path, a dotted or `::` path.
    pub source: String,
    pub kind: ImportKind,
}

/// A name declared with a type within a scope.
#[derive(Debug, Clone)]
pub struct Typed {
    pub name: String,
    pub type_name: String,
    pub scope: Range<usize>,
}

/// What a reference capture says of a node; a node captured twice keeps
/// the strongest (a call over a member over a name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Capture {
    Name,
    Path,
    Member,
    Call,
}

/// Scans a file of `language` (which has an index family).
pub fn scan(language: &'static dyn Language, text: &str) -> TagsFile {
    let Some(family) = family_of(language) else {
        return TagsFile::default();
    };
    let rope = Rope::from_str(text);
    let Ok(tree) = SyntaxTree::parse_language(language, &rope) else {
        return TagsFile::default();
    };
    let mut file = TagsFile::default();
    if let Some(sites) = language.symbol_sites() {
        let outline = sites(&rope, &tree);
        for symbol in &outline.symbols {
            let parent = outline.parent(symbol);
            file.defs.push(TagDef {
                name: symbol.name.clone(),
                qualified: symbol.qualified_name.clone(),
                kind: symbol.kind,
                position: symbol.position,
                name_position: symbol.name_position,
                top_level: parent.is_none(),
                container: parent
                    .filter(|p| p.kind == SymbolKind::Class)
                    .map(|p| p.name.clone()),
                span: symbol.definition.clone(),
            });
        }
    }
    references(family, language, &rope, text, tree.root(), &mut file);
    family.read_module(text, &rope, tree.root(), &mut file);
    file.key_words();
    file
}

/// Every language's index query, compiled once.
fn index_query(language: &'static dyn Language) -> Option<&'static Query> {
    static QUERIES: OnceLock<HashMap<&'static str, Query>> = OnceLock::new();
    let queries = QUERIES.get_or_init(|| {
        crate::language::registry()
            .iter()
            .filter_map(|l| {
                let source = family_of(*l)?.query_source(l.id())?;
                let query = Query::new(&l.grammar(), source)
                    .unwrap_or_else(|e| panic!("queries/{}/index.scm: {e}", l.id()));
                Some((l.id(), query))
            })
            .collect()
    });
    queries.get(language.id())
}

fn references(
    family: &dyn Family,
    language: &'static dyn Language,
    rope: &Rope,
    text: &str,
    root: Node<'_>,
    file: &mut TagsFile,
) {
    let Some(query) = index_query(language) else {
        return;
    };
    let names = query.capture_names();
    // a captured name: how, and its object (a path's when `true`)
    type Found<'t> = (Node<'t>, Capture, Option<(Node<'t>, bool)>);
    let mut found: HashMap<usize, Found<'_>> = HashMap::new();
    let mut scopes: Vec<Node<'_>> = Vec::new();
    let mut locals: Vec<Node<'_>> = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, root, text.as_bytes());
    while let Some(m) = matches.next() {
        let mut object = None;
        let mut named = None;
        for c in m.captures {
            match names[c.index as usize] {
                "reference.object" => object = Some((c.node, false)),
                "reference.qualifier" => object = Some((c.node, true)),
                "reference.call" => named = Some((c.node, Capture::Call)),
                "reference.member" => named = Some((c.node, Capture::Member)),
                "reference.path" => named = Some((c.node, Capture::Path)),
                "reference.name" => named = Some((c.node, Capture::Name)),
                "local.scope" => scopes.push(c.node),
                "local.definition" => locals.push(c.node),
                _ => {}
            }
        }
        if let Some((node, capture)) = named {
            let slot = found.entry(node.id()).or_insert((node, capture, object));
            if capture > slot.1 {
                *slot = (node, capture, object);
            }
        }
    }
    // the names bound in each scope, by name: (scope's chars)
    let scope_ids: std::collections::HashSet<usize> = scopes.iter().map(|s| s.id()).collect();
    let is_scope = |n: Node<'_>| scope_ids.contains(&n.id());
    let mut bound: HashMap<&str, Vec<Range<usize>>> = HashMap::new();
    for local in &locals {
        let name = &text[local.byte_range()];
        if let Some(scope) = family.scope_of(*local, &is_scope) {
            bound
                .entry(name)
                .or_default()
                .push(byte_to_char(rope, scope.start_byte())..byte_to_char(rope, scope.end_byte()));
        }
    }
    let def_names: std::collections::HashSet<Position> =
        file.defs.iter().map(|d| d.name_position).collect();
    let mut refs: Vec<Found<'_>> = found.into_values().collect();
    refs.sort_by_key(|(n, _, _)| n.start_byte());
    let mut enclosing = Enclosing::new(&file.defs);
    for (node, capture, object) in refs {
        if family.skip_reference(node) {
            continue;
        }
        let start = byte_to_position(rope, node.start_byte());
        if capture == Capture::Name && def_names.contains(&start) {
            continue;
        }
        let name = text[node.byte_range()].to_string();
        let offset = byte_to_char(rope, node.start_byte());
        let qualifier = match (capture, object) {
            (Capture::Name, _) | (_, None) => Qualifier::None,
            (_, Some((path, true))) => Qualifier::Path(path_names(text, path)),
            (_, Some((object, false))) => family.qualifier(text, object),
        };
        let binds = |name: &str| {
            bound
                .get(name)
                .is_some_and(|scopes| scopes.iter().any(|s| s.contains(&offset)))
        };
        let shadowed = qualifier == Qualifier::None && binds(&name);
        let local_qualifier = matches!(&qualifier, Qualifier::Name(q) if binds(q));
        let in_def = enclosing.at(offset);
        file.refs.push(TagRef {
            end: byte_to_position(rope, node.end_byte()),
            name,
            start,
            offset,
            call: capture == Capture::Call,
            qualifier,
            shadowed,
            local_qualifier,
            in_def,
            import: None,
        });
    }
}

/// The name an import takes from its source (`f` of `import { f as g }`),
/// as a use of it.
pub(super) fn import_ref(rope: &Rope, text: &str, node: Node<'_>, import: usize) -> TagRef {
    TagRef {
        name: text[node.byte_range()].to_string(),
        start: byte_to_position(rope, node.start_byte()),
        end: byte_to_position(rope, node.end_byte()),
        offset: byte_to_char(rope, node.start_byte()),
        call: false,
        qualifier: Qualifier::None,
        shadowed: false,
        local_qualifier: false,
        in_def: None,
        import: Some(import),
    }
}

/// The names of a path (`a::b::c`, `crate::m`), in order.
pub(super) fn path_names(text: &str, path: Node<'_>) -> Vec<String> {
    text[path.byte_range()]
        .split("::")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The innermost function, method or class around each offset, asked in
/// increasing order: one sweep over the definitions sorted by start.
pub(super) struct Enclosing<'d> {
    defs: &'d [TagDef],
    /// Callables and classes, by start.
    order: Vec<usize>,
    next: usize,
    open: Vec<usize>,
}

impl<'d> Enclosing<'d> {
    pub(super) fn new(defs: &'d [TagDef]) -> Self {
        let mut order: Vec<usize> = (0..defs.len())
            .filter(|&i| {
                matches!(
                    defs[i].kind,
                    SymbolKind::Function | SymbolKind::Method | SymbolKind::Class
                )
            })
            .collect();
        order.sort_by_key(|&i| (defs[i].span.start, std::cmp::Reverse(defs[i].span.end)));
        Enclosing {
            defs,
            order,
            next: 0,
            open: Vec::new(),
        }
    }

    pub(super) fn at(&mut self, offset: usize) -> Option<usize> {
        while let Some(&i) = self.order.get(self.next) {
            if self.defs[i].span.start > offset {
                break;
            }
            self.open.push(i);
            self.next += 1;
        }
        self.open.retain(|&i| self.defs[i].span.end > offset);
        self.open
            .iter()
            .copied()
            .filter(|&i| self.defs[i].span.contains(&offset))
            .min_by_key(|&i| self.defs[i].span.end - self.defs[i].span.start)
    }
}

/// The nearest ancestor of `node` that `is_scope` takes, whose kind
/// `accept` takes too.
pub(super) fn enclosing_scope<'t>(
    node: Node<'t>,
    is_scope: &dyn Fn(Node<'_>) -> bool,
    accept: impl Fn(&str) -> bool,
) -> Option<Node<'t>> {
    let mut at = node.parent();
    while let Some(n) = at {
        if is_scope(n) && accept(n.kind()) {
            return Some(n);
        }
        at = n.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_index_query_compiles_with_its_grammar() {
        for language in crate::language::registry() {
            if super::family_of(*language).is_some() {
                assert!(
                    super::index_query(*language).is_some(),
                    "{} has no index query",
                    language.id()
                );
            }
        }
    }
}
