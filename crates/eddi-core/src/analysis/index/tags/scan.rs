//! One file of a brace language scanned for the index: its definitions
//! (the language's own symbol sites: the names code targets print), its
//! references and the names its scopes bind (which hide a module-level
//! name), from one walk over its tree ([`super::walk`]), and what
//! its family's resolver reads of its imports and exports.

use std::ops::Range;

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::family::{family_of, Family};
use super::walk::{self, Binds, Capture, Local, Walked};
use crate::analysis::index::hash::{FxHashMap, FxHashSet};
use crate::analysis::outline::SymbolKind;
use crate::analysis::syntax::{byte_to_char, byte_to_position, LineTable, SyntaxTree};
use crate::edit::Position;
use crate::language::{Language, SiteDefinition};

/// A file's definitions, references and imports.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TagsFile {
    pub defs: Vec<TagDef>,
    /// Grouped by name, the names in order, each name's uses by offset
    /// ([`TagsFile::refs_named`]).
    pub refs: Vec<TagRef>,
    pub imports: Vec<Import>,
    /// ES modules: the names the file exports, each with the module-level
    /// name it exports (`export { a as b }`: `("b", "a")`; `export default
    /// f`: `("default", "f")`).
    pub exports: Vec<(String, String)>,
    /// CommonJS: what its `module.exports` is made of, when it spells
    /// `exports`.
    pub commonjs: Option<Box<super::commonjs::CommonJs>>,
    /// Go's package clause, Java's package declaration.
    pub package: Option<String>,
    /// Names declared with a type in a scope (a Go receiver or parameter,
    /// a Java local): a member read through them is the type's.
    pub typed: Vec<Typed>,
    /// Rust: the `mod m { … }` blocks, by qualified name (`a.b`), with their
    /// bodies (in chars).
    pub inline_modules: Vec<(String, Range<usize>)>,
    /// Rust: the imports (indexes into `imports`) that a `mod m { … }`
    /// block's own `use` declarations make, each with its block: they
    /// bind names in that block alone. Their sources are written as from
    /// the file's module (`use super::f;` in block `tests` is `self::f`).
    pub block_imports: Vec<(usize, String)>,
    /// Rust: the imports that a `use` in a function's block makes, each
    /// with the block (chars) it binds in; their sources are written as
    /// from the file's module.
    pub scoped_imports: Vec<(usize, Range<usize>)>,
    /// The functions that make a value of one of the file's types, as
    /// `(T, f)`: Rust's associated functions of `impl T` returning `Self`
    /// or `T` (what `let x = T::f(…)` makes), Go's functions whose first
    /// result is `T` or `*T` (what `x := f(…)` makes).
    pub constructors: Vec<(String, String)>,
    /// Java: the bodies (in chars) of the classes that extend or implement
    /// another, where a bare name may be an inherited member. Rust: the
    /// bodies of traits, where `self` is any type that implements it.
    pub inheriting: Vec<Range<usize>>,
    /// The names its scopes bind (parameters, locals), each with the
    /// scope it binds it in: what an in-file rename of a local reads.
    pub locals: Vec<LocalDef>,
    /// Go: the types its structs embed, by name (`T` of `*pkg.T`): each
    /// makes a field of the type's name.
    pub embedded: Vec<String>,
    /// Go: its non-generic types' fields and methods, its functions and
    /// its package-level variables, with their declared types (a
    /// function's first result), and what its types embed. Java: its
    /// classes' fields and methods with their declared types (a method's
    /// result), their supertypes, and the type parameters it declares.
    /// Rust: its structs' fields (non-generic but for lifetimes), what
    /// the functions of its inherent `impl`s return when that is a type's
    /// name, and its type aliases (as [`DeclaredKind::Embedded`]).
    /// What a query infers the type of an expression from.
    pub declared: Vec<Declared>,
    /// Every word its tables key (names of definitions, uses, imports,
    /// and the words of import sources), each with the range of its uses
    /// in `refs` (empty: none): once scanned, a query asks this instead
    /// of the text, and finds a name's uses with one look-up. (Made again
    /// from the tables when a stored scan is read: [`TagsFile::restored`].)
    #[serde(skip)]
    words: FxHashMap<Box<str>, Range<u32>>,
}

impl TagsFile {
    /// The typed binding a name reads at `offset` (Rust): the innermost
    /// typed one (a parameter, a `let`, a loop's variable, a pattern's
    /// name), unless a closer binding the scan does not type (`let x =
    /// g();`, a closure's parameter) hides it — its type is then unknown.
    pub fn typed_binding(&self, name: &str, offset: usize) -> Option<&Typed> {
        let typed = self
            .typed
            .iter()
            .filter(|t| t.name == name && t.scope.contains(&offset))
            .min_by_key(|t| t.scope.end - t.scope.start)?;
        let innermost = self
            .locals
            .iter()
            .filter(|l| l.name == name && l.visible.contains(&offset))
            .min_by_key(|l| l.visible.end - l.visible.start);
        match innermost {
            Some(l) if typed.at != Some(l.offset) => None,
            _ => Some(typed),
        }
    }

    /// The uses of `name`, by offset.
    pub fn refs_named(&self, name: &str) -> &[TagRef] {
        match self.words.get(name) {
            Some(uses) => &self.refs[uses.start as usize..uses.end as usize],
            None => &[],
        }
    }

    /// The names the file writes the module-level name `name` by: its own,
    /// and those its imports give it (Rust's `use geo::Point as Pt;`, ES
    /// `import { Point as Pt }`).
    pub fn names_of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        let aliases = self.imports.iter().filter(move |i| {
            matches!(&i.imported, Imported::Name(n) if n == name) && i.local != name
        });
        std::iter::once(name).chain(aliases.map(|i| i.local.as_str()))
    }

    /// Whether its tables key `word`.
    pub fn keys(&self, word: &str) -> bool {
        self.words.contains_key(word)
    }

    /// Every word its tables key.
    pub fn words(&self) -> impl ExactSizeIterator<Item = &str> {
        self.words.keys().map(|w| &**w)
    }

    /// A scan read back from a store ([`super::store`]): its tables as
    /// they were stored, its words keyed again.
    pub(super) fn restored(mut self) -> TagsFile {
        self.key_words();
        self
    }

    /// Fills [`TagsFile::words`] from its tables (its uses sorted by
    /// name, then offset: each name's uses are one run).
    fn key_words(&mut self) {
        // (sized once: a file keys hundreds of words)
        let runs = 1 + self
            .refs
            .windows(2)
            .filter(|w| w[0].name != w[1].name)
            .count();
        let mut words: FxHashMap<Box<str>, Range<u32>> =
            FxHashMap::with_capacity_and_hasher(runs + self.defs.len(), Default::default());
        let mut start = 0;
        for (i, r) in self.refs.iter().enumerate() {
            if self.refs.get(i + 1).is_none_or(|next| next.name != r.name) {
                words.insert(r.name.as_str().into(), start as u32..(i + 1) as u32);
                start = i + 1;
            }
        }
        let mut key = |word: &str| {
            if !words.contains_key(word) {
                words.insert(word.into(), 0..0);
            }
        };
        self.defs.iter().for_each(|d| key(&d.name));
        for import in &self.imports {
            key(&import.local);
            if let Imported::Name(n) = &import.imported {
                key(n);
            }
            import
                .source
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .filter(|w| !w.is_empty())
                .for_each(&mut key);
        }
        self.words = words;
    }
}

/// One definition: a symbol site of the file's language.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    /// Rust: a member a type implementing a trait may reach by its name
    /// ([`crate::language::SiteDefinition::trait_member`]).
    pub trait_member: bool,
    /// A bare use of its name in the file may read it: not a CommonJS
    /// export key written in place
    /// ([`crate::language::SiteDefinition::binds_name`]).
    pub binds_name: bool,
    /// A method written on its owner's prototype
    /// ([`crate::language::SiteDefinition::on_prototype`]).
    pub on_prototype: bool,
}

impl TagDef {
    /// A method written on its owner, apart from it (JavaScript's
    /// `Route.prototype.dispatch = function () {}`, `app.init = function
    /// () {}`): a member of a name that need not be a class.
    pub fn written_on_owner(&self) -> bool {
        self.kind == SymbolKind::Method && !self.binds_name
    }
}

/// A name a scope binds (a parameter, a local variable).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocalDef {
    pub name: String,
    pub start: Position,
    /// In chars.
    pub offset: usize,
    /// The scope it binds the name in, in chars.
    pub scope: Range<usize>,
    /// Where in the scope the name reads it (after its declaration in Go
    /// and Rust), in chars: a use's [`TagRef::binding`].
    pub visible: Range<usize>,
}

/// How a reference reaches its name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Qualifier {
    /// A bare name.
    None,
    /// `x.name`: through a name (a module, a class, a value).
    Name(CompactString),
    /// `this.name`, `self.name`.
    This,
    /// Rust's `a::b::name`: the path's names before it.
    Path(Vec<String>),
    /// Go: through an expression whose type a query may infer from what
    /// the project declares, written compactly ([`super::go::chain`]):
    /// `t.lookup(n).items[i]` is `t.lookup().items[]`.
    Expression(CompactString),
    /// Through any other expression (`f().name`).
    Other,
}

/// One use of a name.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TagRef {
    /// (Inline: a name of up to 24 bytes costs no allocation.)
    pub name: CompactString,
    pub start: Position,
    pub end: Position,
    /// In chars.
    pub offset: usize,
    /// The callee of a call (or a construction).
    pub call: bool,
    /// Java: the number of arguments the call passes (what tells
    /// overloads apart).
    pub arity: Option<u8>,
    pub qualifier: Qualifier,
    /// A scope around it binds its name: not a module-level name.
    pub shadowed: bool,
    /// Where the innermost binding of its name around it is visible (a
    /// bare name; a [`LocalDef::visible`]), in chars: the binding it reads.
    pub binding: Option<Range<usize>>,
    /// A scope around it binds the name it is read through (`x` of
    /// `x.name`): a local value.
    pub local_qualifier: bool,
    /// Rust: a bare name among the tokens of a macro that may paste it
    /// anywhere (`extract!(literal, …)` expanding to `pat.$which()`): a
    /// member's name too, not only a value's.
    pub pasted: bool,
    /// Rust: the first name of a path (`m` of `m::X`, `T` of `T::new()`):
    /// a module's or a type's, never a function's or a value's (which
    /// share no namespace with them: `use m::m;` beside `mod m`).
    pub path_head: bool,
    /// The innermost function or class it is in (an index of `defs`).
    pub in_def: Option<usize>,
    /// The name an import takes from its source (`f` of `import { f as g }`):
    /// the import's index.
    pub import: Option<usize>,
}

/// What an import binds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImportKind {
    /// A static import: its source is known.
    Static,
    /// CommonJS `require(…)` bound to a name the file never assigns
    /// again (a `const`, or a `var` or `let` no code assigns): the
    /// module's `module.exports`, or one of its keys.
    Require,
    /// CommonJS `require(…)` bound to a `var` or `let` the file assigns
    /// again: what it holds is known only at run time.
    RequireReassigned,
    /// `import('s')` or `require('s')` anywhere but a module-level
    /// declaration (in a function, `.then(m => …)`): binds no name the
    /// index follows, but a member read through a local value in the
    /// file may be the module's.
    Dynamic,
    /// An ES re-export (`export … from`): the module exports it, binds
    /// nothing.
    ReExport,
    /// Java's `import static a.B.m;` (or `a.B.*`): binds a member of a
    /// class (`source` is the class's full name), not a module-level name.
    Member,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The name it binds in the file (for a re-export: the name exported).
    pub local: String,
    pub imported: Imported,
    /// As written: a specifier, an import path, a dotted or `::` path.
    pub source: String,
    pub kind: ImportKind,
}

/// A name declared with a type within a scope.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Typed {
    pub name: String,
    /// The type's name (`C`, `pkg.C`); Rust's `T::f` is what the
    /// associated function `f` of `T` returns, Go's `f()` or `pkg.f()`
    /// what the function returns first (the type when a query finds `f`
    /// among the type's `constructors`).
    pub type_name: String,
    pub scope: Range<usize>,
    /// Go: where the name is declared (chars): the local binding
    /// ([`LocalDef::offset`]) whose type it is.
    pub at: Option<usize>,
    /// Go: `type_name` is the expression the name is bound to (`x := e`,
    /// `for _, x := range e` as `e[]`), as [`Qualifier::Expression`]
    /// writes it: its type is inferred when a query runs.
    pub inferred: bool,
}

/// The type a package-level name (Go) or a member (Go, Java) is declared
/// with, as written in its file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Declared {
    /// The type whose member it is (a field's struct or class, a method's
    /// receiver or class); `None`: a package-level function or variable,
    /// a Java type parameter.
    /// (Inline, as most names and types are short: no allocation.)
    pub owner: Option<CompactString>,
    pub name: CompactString,
    /// A field's or variable's type, or what a function or method
    /// returns first (empty: nothing).
    pub type_text: CompactString,
    pub kind: DeclaredKind,
}

/// What a [`Declared`] name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeclaredKind {
    /// A field or a variable, of `type_text`.
    Value,
    /// Go: a package-level variable declared without a type, bound to the
    /// expression `type_text` in [`super::go::chain`]'s compact form
    /// (`var e = NewEncoding(…)`: `NewEncoding()`), whose type a query
    /// infers.
    Inferred,
    /// A function or a method, whose call makes a `type_text`.
    Returns,
    /// A type the owner embeds (a struct's field named by its type, an
    /// interface's), or `""`: the owner may reach another type's members
    /// some other way (a defined type over a named one, an alias, a
    /// generic type): a member it does not declare may be another's.
    Embedded,
    /// Java: a method with this many parameters (`varargs`: its last
    /// one takes any number of arguments), whose call makes a
    /// `type_text` (empty: `void`, or a type parameter's).
    Method { arity: u8, varargs: bool },
    /// Java: the class the owner extends (`type_text`).
    Extends,
    /// Java: an interface the owner implements, or one an interface
    /// extends (`type_text`).
    Implements,
    /// Java: a type parameter `name` of a class or a method of the file
    /// (a type written with its name is no class's).
    TypeParameter,
}

/// Where a local's binding starts when its declaration binds it from its
/// end (bytes): the declaration's end, when it is inside the scope;
/// `None`: from the scope's start.
fn declared_until(declaration: Option<Node<'_>>, scope: Node<'_>) -> Option<usize> {
    let declaration = declaration.filter(|d| {
        d.id() != scope.id()
            && d.start_byte() >= scope.start_byte()
            && d.end_byte() <= scope.end_byte()
    })?;
    Some(declaration.end_byte())
}

/// Where a loop variable's binding starts (bytes): at its loop's body, so
/// that `for x in x` (Rust), `for _, v := range v` (Go) and `for (T s :
/// s)` (Java) read the outer name in what they iterate (and a Go type
/// switch's alias after its guard); `None` for a local that no loop's
/// pattern binds. (JavaScript's `for (const x of x)`
/// reads its own `x`, which throws: no exception there.)
fn loop_body_start(local: Node<'_>, scope: Node<'_>) -> Option<usize> {
    // Go: `switch x := x.(type)` binds its `x` in the clauses; the guard
    // reads the outer `x` (before, the alias's binding took it, and a
    // rename of the outer `x` left it: "undefined: x")
    if scope.kind() == "type_switch_statement" {
        let (alias, value) = (
            scope.child_by_field_name("alias")?,
            scope.child_by_field_name("value")?,
        );
        let inside =
            alias.start_byte() <= local.start_byte() && local.end_byte() <= alias.end_byte();
        return inside.then(|| value.end_byte());
    }
    // a loop binds in the scope the loop is (its pattern's names are
    // the loop's own): no walk up from each local
    let pattern = match scope.kind() {
        "for_expression" => scope.child_by_field_name("pattern"),
        "enhanced_for_statement" => scope.child_by_field_name("name"),
        "for_statement" => scope
            .named_children(&mut scope.walk())
            .find(|c| c.kind() == "range_clause")
            .and_then(|range| range.child_by_field_name("left")),
        _ => None,
    }?;
    let inside =
        pattern.start_byte() <= local.start_byte() && local.end_byte() <= pattern.end_byte();
    inside.then(|| scope.child_by_field_name("body").map(|b| b.start_byte()))?
}

/// Where a local's binding ends when its declaration says so (bytes):
/// Rust's `if let` and `while let` bind in their block alone, not in an
/// `else` (`if let Some(x) = x { … } else { x }` reads the outer `x`
/// there); `None`: at its scope's end.
fn bound_until(declaration: Option<Node<'_>>) -> Option<usize> {
    let condition = declaration.filter(|d| d.kind() == "let_condition")?;
    let mut around = condition.parent()?;
    while around.kind() == "let_chain" {
        around = around.parent()?;
    }
    let block = around
        .child_by_field_name("consequence")
        .or_else(|| around.child_by_field_name("body"))?;
    Some(block.end_byte())
}

/// The index's definitions of a file's symbol sites: each with whether it
/// is at the file's level and the class it is a member of.
fn tag_defs(sites: Vec<SiteDefinition>, methods_apart: bool) -> Vec<TagDef> {
    let containers: Vec<Option<String>> = sites
        .iter()
        .map(|site| match site.parent {
            Some(parent) => {
                let parent = &sites[parent];
                (parent.kind == SymbolKind::Class).then(|| parent.name.clone())
            }
            None if methods_apart => {
                declared_apart(site.kind, &site.qualified_name, site.via_trait.is_some())
                    .map(str::to_string)
            }
            None => None,
        })
        .collect();
    sites
        .into_iter()
        .zip(containers)
        .map(|(site, container)| TagDef {
            top_level: site.parent.is_none() && container.is_none(),
            container,
            name: site.name,
            qualified: site.qualified_name,
            kind: site.kind,
            position: site.position,
            name_position: site.name_position,
            span: site.definition,
            trait_member: site.trait_member,
            binds_name: site.binds_name,
            on_prototype: site.on_prototype,
        })
        .collect()
}

/// The type a method declared apart from it belongs to, when the file
/// does not declare the type (Go's `func (s *Stack) Push` in another file
/// of the package than `type Stack`): its qualified name's (`Stack.Push`;
/// `Point.Display.fmt` through a trait).
fn declared_apart(kind: SymbolKind, qualified: &str, via_trait: bool) -> Option<&str> {
    if kind != SymbolKind::Method {
        return None;
    }
    let mut names = qualified.rsplit('.').skip(1);
    if via_trait {
        names.next();
    }
    names.next()
}

/// Each local definition with the scope it binds its name in: one sweep
/// over the scopes by start, a stack of the open ones (scopes nest).
fn scopes_of<'t>(
    family: &dyn Family,
    mut scopes: Vec<Node<'t>>,
    mut locals: Vec<Local<'t>>,
) -> Vec<(Local<'t>, Node<'t>)> {
    scopes.sort_by_key(|s| (s.start_byte(), std::cmp::Reverse(s.end_byte())));
    locals.sort_by_key(|l| l.node.start_byte());
    let mut open: Vec<Node<'t>> = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for local in locals {
        let at = local.node.start_byte();
        while let Some(scope) = scopes.get(next).filter(|s| s.start_byte() <= at) {
            while open
                .last()
                .is_some_and(|o| o.end_byte() <= scope.start_byte())
            {
                open.pop();
            }
            open.push(*scope);
            next += 1;
        }
        while open.last().is_some_and(|o| o.end_byte() <= at) {
            open.pop();
        }
        let scope = match local.binds {
            Binds::Here => open.last(),
            Binds::Outer => open.iter().rev().nth(1),
            Binds::Function => open.iter().rev().find(|s| family.function_scope(s.kind())),
        };
        if let Some(scope) = scope {
            out.push((local, *scope));
        }
    }
    out
}

/// Go's `a, err := f()` declares `a` and assigns the `err` that its
/// block already declares — or, in a function's body, its parameters and
/// results (the spec's "redeclaration"): that `err` is a use of the
/// earlier one, not a local of its own. `bound` comes by start.
fn without_redeclarations<'t>(
    text: &str,
    bound: Vec<(Local<'t>, Node<'t>)>,
) -> Vec<(Local<'t>, Node<'t>)> {
    // a function's body is one block with its parameters (each scope's
    // block looked up once: a `parent()` is a descent from the root)
    let mut blocks: FxHashMap<usize, usize> = FxHashMap::default();
    let mut block = |scope: Node<'_>| {
        *blocks.entry(scope.id()).or_insert_with(|| {
            let function = scope.parent().filter(|p| {
                scope.kind() == "block"
                    && matches!(
                        p.kind(),
                        "function_declaration" | "method_declaration" | "func_literal"
                    )
            });
            function.unwrap_or(scope).id()
        })
    };
    let mut declared: FxHashSet<(&str, usize)> = FxHashSet::default();
    bound
        .into_iter()
        .filter(|(local, scope)| {
            let fresh = declared.insert((&text[local.node.byte_range()], block(*scope)));
            let short = local
                .declaration
                .is_some_and(|d| d.kind() == "short_var_declaration");
            fresh || !short
        })
        .collect()
}

/// The scopes (in bytes) that bind one name. Scopes nest or are apart, so
/// one binds an offset when, among those that start at or before it, the
/// furthest end is past it: a binary search, not a pass over every scope
/// (Go binds `err` in hundreds of scopes of one file).
#[derive(Default)]
struct Bindings {
    scopes: Vec<Range<usize>>,
    /// The furthest end of the scopes up to each one, by start.
    reach: Vec<usize>,
}

impl Bindings {
    fn sort(&mut self) {
        self.scopes.sort_by_key(|s| s.start);
        let mut furthest = 0;
        self.reach = self
            .scopes
            .iter()
            .map(|s| {
                furthest = furthest.max(s.end);
                furthest
            })
            .collect();
    }

    fn bind(&self, offset: usize) -> bool {
        let started = self.scopes.partition_point(|s| s.start <= offset);
        started > 0 && self.reach[started - 1] > offset
    }

    /// The smallest scope that binds an offset (the first of them by
    /// start): back from the last scope started before it, as far as a
    /// scope may still reach it.
    fn innermost(&self, offset: usize) -> Option<Range<usize>> {
        let started = self.scopes.partition_point(|s| s.start <= offset);
        let mut best: Option<&Range<usize>> = None;
        for i in (0..started).rev() {
            let scope = &self.scopes[i];
            // (none before reaches it; none before is as small)
            let larger = best.is_some_and(|b| scope.start + (b.end - b.start) <= offset);
            if self.reach[i] <= offset || larger {
                break;
            }
            if scope.contains(&offset)
                && best.is_none_or(|b| scope.end - scope.start <= b.end - b.start)
            {
                best = Some(scope);
            }
        }
        best.cloned()
    }
}

/// Scans a file of `language` (which has an index family).
pub fn scan(language: &'static dyn Language, text: &str) -> TagsFile {
    let Some(family) = family_of(language) else {
        return TagsFile::default();
    };
    let Ok(tree) = SyntaxTree::parse_text(language, text) else {
        return TagsFile::default();
    };
    // (positions from a table of the lines: no rope per file)
    let lines = LineTable::new(text);
    let mut file = TagsFile::default();
    references(family, language, &lines, text, tree.root(), &mut file);
    family.read_module(text, &lines, tree.root(), &mut file);
    // by name: a query reads only its names' uses
    file.refs = grouped_by_name(std::mem::take(&mut file.refs));
    file.key_words();
    file
}

/// The uses grouped by name, the names in order, each name's uses by
/// offset: each use keyed by its name's rank (the distinct names alone
/// sorted as strings) and its offset, the keys sorted, the uses moved
/// into place once (as `sort_by_cached_key` does: a use is large).
fn grouped_by_name(mut refs: Vec<TagRef>) -> Vec<TagRef> {
    let mut ids: FxHashMap<&str, u32> =
        FxHashMap::with_capacity_and_hasher(refs.len(), Default::default());
    let mut names: Vec<&str> = Vec::new();
    let keys: Vec<u32> = refs
        .iter()
        .map(|r| {
            *ids.entry(r.name.as_str()).or_insert_with(|| {
                names.push(r.name.as_str());
                names.len() as u32 - 1
            })
        })
        .collect();
    let mut rank = vec![0u32; names.len()];
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_unstable_by_key(|&id| names[id as usize]);
    for (r, &id) in order.iter().enumerate() {
        rank[id as usize] = r as u32;
    }
    // (rank, offset, index): the index keeps equal uses in their order
    let mut sorted: Vec<(u32, usize, u32)> = refs
        .iter()
        .zip(&keys)
        .enumerate()
        .map(|(i, (r, &k))| (rank[k as usize], r.offset, i as u32))
        .collect();
    drop((ids, names));
    sorted.sort_unstable();
    // each use moved to its place: the use at `i` swapped with its source,
    // followed through the swaps already made
    for i in 0..sorted.len() {
        let mut from = sorted[i].2;
        while (from as usize) < i {
            from = sorted[from as usize].2;
        }
        sorted[i].2 = from;
        refs.swap(i, from as usize);
    }
    refs
}

fn references(
    family: &dyn Family,
    language: &'static dyn Language,
    lines: &LineTable<'_>,
    text: &str,
    root: Node<'_>,
    file: &mut TagsFile,
) {
    let walked = walk::walk(family, language, text, lines, root, file);
    let Walked {
        uses,
        scopes,
        locals,
        sites,
        embedded,
    } = walked;
    file.embedded = embedded
        .into_iter()
        .map(|name| text[name.byte_range()].to_string())
        .collect();
    if let Some(definitions) = language.site_definitions() {
        // (Go's methods, JavaScript's written on their constructor or
        // object, and Rust's in an `impl` of a type another module
        // declares, are declared apart from their owner)
        let methods_apart = language.id() != "java";
        file.defs = tag_defs(definitions(lines, sites), methods_apart);
    }
    // the scopes that bind each name, from where each binding is visible
    // (chars), sorted for a binary search
    // (the maps sized once for the locals: no growth on the way)
    let mut bound: FxHashMap<&str, Bindings> =
        FxHashMap::with_capacity_and_hasher(locals.len(), Default::default());
    // a local's own name reads its binding, wherever that starts
    let mut own: FxHashMap<usize, Range<usize>> =
        FxHashMap::with_capacity_and_hasher(locals.len(), Default::default());
    // (the locals come by start: their offsets in one sweep)
    let mut at_local = Sweep::new(lines, text);
    let char_at = |byte: usize| byte_to_char(lines, byte);
    let mut bound_locals = scopes_of(family, scopes, locals);
    match language.name() {
        "Go" => bound_locals = without_redeclarations(text, bound_locals),
        // a capitalized name in a pattern is a constant's or a unit
        // variant's (`None`, `MAX`), never a binding (rustc's lints); a
        // block's item is one (`const MAX: u8 = 3;`)
        "Rust" => bound_locals.retain(|(l, _)| {
            !text.as_bytes()[l.node.start_byte()].is_ascii_uppercase()
                || l.node.parent().is_some_and(|p| p.kind().ends_with("_item"))
        }),
        _ => {}
    }
    for (local, scope) in bound_locals {
        let visible = loop_body_start(local.node, scope)
            .or_else(|| declared_until(local.declaration, scope))
            .unwrap_or(scope.start_byte());
        let until = bound_until(local.declaration).unwrap_or(scope.end_byte());
        let local = local.node;
        let name = &text[local.byte_range()];
        let visible = char_at(visible)..char_at(until);
        let scope = char_at(scope.start_byte())..char_at(scope.end_byte());
        let (offset, start) = at_local.at(local.start_byte());
        file.locals.push(LocalDef {
            name: name.to_string(),
            start,
            offset,
            scope,
            visible: visible.clone(),
        });
        own.insert(local.start_byte(), visible.clone());
        bound.entry(name).or_default().scopes.push(visible);
    }
    bound.values_mut().for_each(Bindings::sort);
    file.locals.sort_by_key(|l| l.offset);
    // the statements whose names are read with them (imports)
    let mut skipped_ranges: Vec<Range<usize>> = Vec::new();
    let mut c = root.walk();
    for statement in root.named_children(&mut c) {
        if family.skips(statement) {
            skipped_ranges.push(statement.byte_range());
        }
    }
    let def_names: FxHashSet<Position> = file.defs.iter().map(|d| d.name_position).collect();
    let mut enclosing = Enclosing::new(&file.defs);
    // the uses the walk found and the names strings read, in source order
    let in_strings = family.names_in_strings(text, root);
    let mut uses = uses.into_iter().peekable();
    let mut in_strings = in_strings.into_iter().peekable();
    let uses = std::iter::from_fn(|| match (uses.peek(), in_strings.peek()) {
        (Some(u), Some(s)) if s.start < u.0.start => {
            in_strings.next().map(|s| (s, Capture::Name, None))
        }
        (Some(_), _) => uses.next(),
        (None, _) => in_strings.next().map(|s| (s, Capture::Name, None)),
    });
    file.refs.reserve_exact(uses.size_hint().0);
    let mut skip_at = 0;
    let mut starts = Sweep::new(lines, text);
    for (range, capture, object) in uses {
        while skipped_ranges
            .get(skip_at)
            .is_some_and(|r| r.end <= range.start)
        {
            skip_at += 1;
        }
        let in_skipped = skipped_ranges
            .get(skip_at)
            .is_some_and(|r| r.start <= range.start);
        if in_skipped {
            continue;
        }
        let (offset, start) = starts.at(range.start);
        if capture == Capture::Name && def_names.contains(&start) {
            continue;
        }
        let name = &text[range.clone()];
        let qualifier = match (capture, object) {
            (Capture::Name, _) | (_, None) => Qualifier::None,
            (_, Some((path, true))) => Qualifier::Path(path_names(text, path)),
            (_, Some((object, false))) => family.qualifier(text, object),
        };
        let binds = |name: &str| bound.get(name).is_some_and(|b| b.bind(offset));
        let innermost = |name: &str| bound.get(name).and_then(|b| b.innermost(offset));
        let binding = match qualifier {
            Qualifier::None => own.get(&range.start).cloned().or_else(|| innermost(name)),
            _ => None,
        };
        let shadowed = binding.is_some();
        let local_qualifier = matches!(&qualifier, Qualifier::Name(q) if binds(q));
        let in_def = enclosing.at(offset);
        // (a name is on one line: it ends as many chars after its start)
        let end = match name.contains('\n') {
            false => Position {
                line: start.line,
                col: start.col + name.chars().count(),
            },
            true => byte_to_position(lines, range.end),
        };
        file.refs.push(TagRef {
            end,
            name: name.into(),
            start,
            offset,
            call: capture == Capture::Call,
            arity: match capture {
                Capture::Call => family.call_arity(text, range.end),
                _ => None,
            },
            qualifier,
            shadowed,
            binding,
            local_qualifier,
            pasted: false,
            path_head: false,
            in_def,
            import: None,
        });
    }
}

/// The char offsets and positions of increasing byte offsets, in one
/// sweep of the text: the line table finds each with a binary search, and
/// the scan asks for three per use. A byte offset before the last one asked
/// is looked up in the table. Lines end at `\n` alone (as Eddi's ropes
/// count them).
struct Sweep<'t> {
    lines: &'t LineTable<'t>,
    text: &'t [u8],
    byte: usize,
    char: usize,
    line: usize,
    /// The char offset where the current line starts.
    line_start: usize,
}

impl<'t> Sweep<'t> {
    fn new(lines: &'t LineTable<'t>, text: &'t str) -> Self {
        Sweep {
            lines,
            text: text.as_bytes(),
            byte: 0,
            char: 0,
            line: 0,
            line_start: 0,
        }
    }

    fn at(&mut self, byte: usize) -> (usize, Position) {
        if byte < self.byte || byte > self.text.len() {
            return (
                byte_to_char(self.lines, byte),
                byte_to_position(self.lines, byte),
            );
        }
        for &b in &self.text[self.byte..byte] {
            // a char starts at every byte but UTF-8's continuation bytes
            if b & 0xC0 != 0x80 {
                self.char += 1;
            }
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.char;
            }
        }
        self.byte = byte;
        let position = Position {
            line: self.line,
            col: self.char - self.line_start,
        };
        (self.char, position)
    }
}

/// The name an import takes from its source (`f` of `import { f as g }`),
/// as a use of it.
pub(super) fn import_ref(
    lines: &LineTable<'_>,
    text: &str,
    node: Node<'_>,
    import: usize,
) -> TagRef {
    TagRef {
        import: Some(import),
        ..name_ref(lines, text, node, Qualifier::None)
    }
}

/// The name `node` spells, read through `qualifier`, as a use no scope
/// binds.
pub(super) fn name_ref(
    lines: &LineTable<'_>,
    text: &str,
    node: Node<'_>,
    qualifier: Qualifier,
) -> TagRef {
    TagRef {
        name: text[node.byte_range()].into(),
        start: byte_to_position(lines, node.start_byte()),
        end: byte_to_position(lines, node.end_byte()),
        offset: byte_to_char(lines, node.start_byte()),
        call: false,
        arity: None,
        qualifier,
        shadowed: false,
        binding: None,
        local_qualifier: false,
        pasted: false,
        path_head: false,
        in_def: None,
        import: None,
    }
}

/// The names of a path (`a::b::c`, `crate::m`), in order; a qualified
/// type first (`<P>::len`, `<P as Area>::area`) is its type's path (`P`).
pub(super) fn path_names(text: &str, path: Node<'_>) -> Vec<String> {
    let written = &text[path.byte_range()];
    let (head, rest) = match written.strip_prefix('<') {
        Some(inner) => qualified_type(inner),
        None => ("", written),
    };
    head.split("::")
        .chain(rest.split("::"))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The type of a qualified type's `P as Trait>…` (after its `<`), and
/// what follows its `>`.
fn qualified_type(inner: &str) -> (&str, &str) {
    let mut depth = 0usize;
    for (i, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if depth == 0 => {
                let written = &inner[..i];
                let ty = written.split(" as ").next().unwrap_or(written).trim();
                // (a generic type's arguments are not its path)
                let ty = ty.split('<').next().unwrap_or(ty);
                return (ty, &inner[i + 1..]);
            }
            '>' => depth -= 1,
            _ => {}
        }
    }
    ("", inner)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The sweep's offsets and positions are the rope's, over multibyte
    /// chars and both line endings, and asked backwards too.
    #[test]
    fn the_sweep_agrees_with_the_rope() {
        let text = "é = 1;\r\nlet 日本 = \"x\";\n\n  ok(é)\r\n";
        let rope = ropey::Rope::from_str(text);
        let lines = LineTable::new(text);
        // every char boundary but those between `\r` and `\n` (no name
        // starts there; the rope puts them at the line's end)
        let bytes: Vec<usize> = (0..=text.len())
            .filter(|&b| text.is_char_boundary(b))
            .filter(|&b| !(b > 0 && text.as_bytes()[b - 1] == b'\r'))
            .collect();
        let mut sweep = Sweep::new(&lines, text);
        for &b in bytes.iter().chain(bytes.iter().rev()) {
            assert_eq!(
                sweep.at(b),
                (byte_to_char(&rope, b), byte_to_position(&rope, b)),
                "at byte {b}"
            );
        }
    }

    /// The definitions the walk finds are the symbols of the outline
    /// (`Language::symbol_sites`, by its query) that Show and Goto read:
    /// on this crate's Rust and on the trees `EDDI_SITE_TREES` names
    /// (`:`-separated; Go's std lib, rxjs, the JDK's sources).
    #[test]
    fn the_walks_definitions_are_the_outlines_symbols() {
        let own = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut roots = vec![own];
        if let Ok(trees) = std::env::var("EDDI_SITE_TREES") {
            roots.extend(trees.split(':').map(std::path::PathBuf::from));
        }
        let mut compared = 0;
        for root in roots {
            for entry in ignore::WalkBuilder::new(&root).build().flatten() {
                let path = entry.path();
                let Some(language) = crate::language::language_of(&path.to_string_lossy()) else {
                    continue;
                };
                let (Some(sites), Some(_)) = (language.symbol_sites(), family_of(language)) else {
                    continue;
                };
                let Ok(text) = std::fs::read_to_string(path) else {
                    continue;
                };
                let rope = ropey::Rope::from_str(&text);
                let tree = SyntaxTree::parse_language(language, &rope).expect("a parse");
                let outline = sites(&rope, &tree);
                let expected: Vec<_> = outline
                    .symbols
                    .iter()
                    .map(|symbol| {
                        let parent = outline.parent(symbol);
                        // a Go method apart from its type is the type's
                        let apart = match (parent, language.id()) {
                            (None, id) if id != "java" => declared_apart(
                                symbol.kind,
                                &symbol.qualified_name,
                                symbol.via_trait.is_some(),
                            ),
                            _ => None,
                        };
                        (
                            symbol.name.clone(),
                            symbol.qualified_name.clone(),
                            symbol.kind,
                            symbol.position,
                            symbol.name_position,
                            parent.is_none() && apart.is_none(),
                            parent
                                .filter(|p| p.kind == SymbolKind::Class)
                                .map(|p| p.name.clone())
                                .or(apart.map(str::to_string)),
                            symbol.definition.clone(),
                        )
                    })
                    .collect();
                let found: Vec<_> = scan(language, &text)
                    .defs
                    .into_iter()
                    .map(|d| {
                        (
                            d.name,
                            d.qualified,
                            d.kind,
                            d.position,
                            d.name_position,
                            d.top_level,
                            d.container,
                            d.span,
                        )
                    })
                    .collect();
                if let Some(i) =
                    (0..found.len().max(expected.len())).find(|&i| found.get(i) != expected.get(i))
                {
                    panic!(
                        "in {}: definition {i} of {} (outline: {}): {:?}, the outline's {:?}",
                        path.display(),
                        found.len(),
                        expected.len(),
                        found.get(i),
                        expected.get(i)
                    );
                }
                compared += 1;
            }
        }
        assert!(compared > 100, "only {compared} files compared");
        eprintln!("{compared} files compared");
    }

    /// Go: the types a struct embeds, in each form, and not a named
    /// field's type, an interface's embedded interface or a const group's
    /// lone name.
    #[test]
    fn a_go_scan_lists_the_types_its_structs_embed() {
        let text = "package p\n\ntype S struct {\n\tPosition\n\t*Buffer\n\tio.Reader\n\tList[int]\n\tname Named\n}\n\ntype I interface {\n\tCloser\n}\n\nconst (\n\tA = iota\n\tB\n)\n";
        let file = scan(&crate::language::go::Go, text);
        assert_eq!(file.embedded, ["Position", "Buffer", "Reader", "List"]);
    }

    /// Rust: a member of a trait or of a trait's implementation is one a
    /// type implementing it may reach; an inherent method of a type the
    /// file declares is its own.
    #[test]
    fn a_rust_scan_marks_the_members_of_traits() {
        let text = "struct P;\nimpl P { fn own(&self) {} }\ntrait T { fn req(&self); fn given(&self) {} }\nimpl T for P { fn req(&self) {} }\nimpl Elsewhere { fn far(&self) {} }\n";
        let file = scan(&crate::language::rust::Rust, text);
        let marked: Vec<(&str, bool)> = file
            .defs
            .iter()
            .filter(|d| d.kind == SymbolKind::Method)
            .map(|d| (d.qualified.as_str(), d.trait_member))
            .collect();
        assert_eq!(
            marked,
            [
                ("P.own", false),
                ("T.req", true),
                ("T.given", true),
                ("P.T.req", true),
                // (a type declared elsewhere: the file cannot tell)
                ("Elsewhere.far", true),
            ]
        );
    }

    /// Rust: what each function of an inherent `impl` returns when that
    /// is a type's name (through `&`, `Box`; `Self` as the type;
    /// lifetimes aside), and not a type parameter's, a generic type's,
    /// `impl Trait`, a trait object, an associated type or a trait
    /// impl's; a result holding elements as written; a type alias
    /// reaches another type's members.
    #[test]
    fn a_rust_scan_records_what_impl_functions_return() {
        let text = "pub type Piece<'a> = Slice<'a>;\nstruct R;\nimpl R {\n    fn new() -> Self { R }\n    fn slice(&self) -> Slice<'_> { todo!() }\n    fn boxed(&self) -> Box<Node> { todo!() }\n    fn make<Node>(&self) -> Node { todo!() }\n    fn all(&self) -> Vec<Node> { todo!() }\n    fn hidden(&self) -> impl Iterator<Item = u8> { todo!() }\n    fn any(&self) -> Box<dyn Tr> { todo!() }\n    fn item(&self) -> Self::Item { todo!() }\n}\nimpl Tr for R {\n    fn next(&self) -> Node { todo!() }\n}\n";
        let file = scan(&crate::language::rust::Rust, text);
        let recorded: Vec<(&str, &str, &str, DeclaredKind)> = file
            .declared
            .iter()
            .map(|d| {
                let owner = d.owner.as_deref().unwrap_or_default();
                (owner, d.name.as_str(), d.type_text.as_str(), d.kind)
            })
            .collect();
        assert_eq!(
            recorded,
            [
                ("R", "new", "R", DeclaredKind::Returns),
                ("R", "slice", "Slice", DeclaredKind::Returns),
                ("R", "boxed", "Node", DeclaredKind::Returns),
                // (its elements' type read where it is indexed or iterated)
                ("R", "all", "Vec<Node>", DeclaredKind::Returns),
                ("Piece", "", "Slice<'a>", DeclaredKind::Embedded),
            ]
        );
    }
}
