//! What the index knows about one Python file: its definitions, imports and
//! references, with names already resolved by scope *inside* the file.
//!
//! The walk here is Eddi's one Python resolver. [`scan`] keeps its compact
//! projection for the index (interned names, definitions, symbolic values,
//! the references that can denote a module- or class-level symbol);
//! [`model`] runs the same walk in its full mode and keeps every scope,
//! binding and read with byte ranges ([`Model`], which `analysis::scope`
//! presents in chars and strings). The full mode only adds records: which
//! scope a name binds in and what a read resolves to are decided once, by
//! the same code, with `analysis::scope::lookup` as the one LEGB lookup.
//!
//! A [`FileIndex`] is built from one parse ([`scan`]) and never looks at
//! other files: what a name means across modules is left symbolic (a
//! [`Value`] such as "member `f` of module `pkg.a`") and resolved at query
//! time by `resolve`. This keeps `update_file` to one file: nothing stored
//! here depends on another file's contents.
//!
//! Scopes follow Python's LEGB rules: module, class, function, lambda and
//! comprehension scopes; a name assigned anywhere in a function (assignment,
//! augmented assignment, `for`, `with … as`, `except … as`, `import`, `def`,
//! `class`, walrus, parameters) is local to it unless declared `global` or
//! `nonlocal`; class bodies are not visible from nested functions; the first
//! iterable of a comprehension is evaluated in the enclosing scope; a walrus
//! in a comprehension binds in the enclosing function.
//!
//! Definitions are functions, methods, classes (nested ones too, qualified
//! through their parents: `Outer.Inner.method`, `f.helper`), module-level
//! variables, class attributes (targets of assignments in a class body) and
//! instance attributes (the first `self.x = …` in a method of a class whose
//! body does not assign `x`; later ones are references).
//! Every such binding site is a definition; several definitions may share a
//! qualified name (a property and its setter, conditional definitions).
//!
//! References are identifiers read as names, attribute names (`x.f`), and the
//! names in `from m import f` (the import is a use of `f`). Function locals
//! and parameters are resolved and then dropped: the index answers questions
//! about module-level and class-level symbols only.
//!
//! Type inference is minimal: `self`/`cls` in methods, calling a class
//! (`C().m`), and a function local bound exactly once (`m = C()`, then
//! `m.f()`); a local bound several times is untyped.
//!
//! `match` patterns bind their captures and read their class and value
//! patterns (`case Point(x=0) | Color.RED`), as in `analysis::scope`.
//!
//! Known limits: `__all__` is read only when it is a literal list or tuple of strings;
//! instance attributes are found only through `self.x = …` in the class's
//! own methods (a subclass assigning an attribute of its base defines its own);
//! nesting deeper than
//! [`MAX_DEPTH`] is not walked (the file is flagged `truncated`).

use std::ops::Range;

use super::hash::FxHashMap as HashMap;

use tree_sitter::{Node, Tree};

use super::module_path;
use crate::analysis::grammar::kind_name;
use crate::analysis::outline::{parameter_identifier, SymbolKind};
use crate::analysis::scope::{is_builtin, lookup, BindingKind, ScopeChain, ScopeKind};
use crate::analysis::syntax;
use crate::edit::Position;

/// Deepest syntax nesting walked; deeper subtrees are skipped so that a
/// pathological file cannot overflow the stack.
pub const MAX_DEPTH: usize = 256;

/// Index of an interned string of a [`FileIndex`] ([`FileIndex::name`]).
pub use super::names::Name;
use super::names::Names;
/// Index of a [`Value`] of a [`FileIndex`] ([`FileIndex::value`]).
pub type ValueId = u32;
/// Index of a [`Def`] in [`FileIndex::defs`].
pub type DefId = u32;

/// The value a local name, attribute or expression denotes, as far as one
/// file can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// A local, a parameter, a literal, a function's result: nothing the
    /// index follows.
    Unknown,
    /// A definition of this file.
    Def(DefId),
    /// A module, by absolute dotted name (`import x.y` binds `x`).
    Module(Name),
    /// `from module import name`.
    Member { module: Name, name: Name },
    /// A name not bound at module level: a star import's or a builtin.
    Free(Name),
    /// `base.name`.
    Attr { base: ValueId, name: Name },
    /// The result of calling `base` (an instance when `base` is a class).
    Call(ValueId),
    /// `self`/`cls` in a method of the class.
    SelfOf(DefId),
    /// `super()` in a method of the class: its bases.
    Super(DefId),
    /// `super(C, obj)`, anywhere: the bases of the class `C` denotes.
    SuperOf(ValueId),
    /// Same as another value (a name use points at its binding).
    Same(ValueId),
    /// Several bindings of one name (`try: import a` / `except: a = None`).
    Union { start: u32, len: u32 },
    /// A collection whose items are this value (`list[C]`: `Call(C)`).
    Items(ValueId),
    /// An item of this collection (`for x in xs`).
    Elem(ValueId),
    /// A mapping whose values are this value (`dict[str, C]`: `Call(C)`).
    Values(ValueId),
    /// `base[index]`: an item of a collection, a value of a mapping.
    Index(ValueId),
}

/// One definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Def {
    pub name: Name,
    /// Qualified within the module: `Outer.Inner.method`.
    pub qualified: String,
    pub kind: SymbolKind,
    /// The `def`/`class`/`async` keyword; the name for variables.
    pub position: Position,
    pub name_position: Position,
    /// The enclosing function or class.
    pub parent: Option<DefId>,
    /// Base class expressions (classes only).
    pub bases: Vec<ValueId>,
    /// An instance attribute: first assigned as `self.x = …` in a method,
    /// with no class-level definition of `x` in its class.
    pub instance: bool,
    /// What a variable or class attribute was assigned (`x = C()`), when
    /// it is the sole target.
    pub value: Option<ValueId>,
    /// A function's return annotation when it is a name or a dotted name
    /// (`-> Manager`): calling it gives an instance of that class.
    pub returns: Option<ValueId>,
}

/// The form of an import.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    /// `import a.b [as c]`.
    Module,
    /// `from a import b [as c]`; `name` is set.
    From,
    /// `from a import *`.
    Star,
}

/// One imported module or name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub kind: ImportKind,
    /// Absolute module name; empty when a relative import climbs above the
    /// top-level package.
    pub module: String,
    pub name: Option<String>,
    /// Where the module name is written.
    pub position: Position,
    pub relative: bool,
}

/// One use of a symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ref {
    pub line: u32,
    pub col: u32,
    /// Length of the name in chars (identifiers never span lines; longer
    /// than `u16::MAX` is cut, which keeps a `Ref` at 24 bytes).
    pub len: u16,
    pub value: ValueId,
    /// The innermost function or class the use is in.
    pub owner: Option<DefId>,
    /// The use is the callee of a call (`f()`, `x.f()`).
    pub is_call: bool,
}

// Every reference of the project is one of these: keep it small.
const _: () = assert!(std::mem::size_of::<Ref>() == 24);

impl Ref {
    pub fn position(&self) -> Position {
        Position::new(self.line as usize, self.col as usize)
    }

    /// Where the name ends (exclusive).
    pub fn end(&self) -> Position {
        Position::new(self.line as usize, self.col as usize + self.len as usize)
    }
}

/// The index of one file. Built by [`scan`]; immutable afterwards.
#[derive(Debug, Clone, Default)]
pub struct FileIndex {
    pub module: String,
    pub is_package: bool,
    /// Interned names: id ↔ text (equal texts have equal ids).
    pub(crate) names: Names,
    pub defs: Vec<Def>,
    /// Def ids grouped by name.
    pub(crate) defs_by_name: Vec<DefId>,
    /// name → `(start, end)` range of `defs_by_name`.
    pub(crate) def_ranges: HashMap<Name, (u32, u32)>,
    pub imports: Vec<Import>,
    pub(crate) values: Vec<Value>,
    pub(crate) unions: Vec<ValueId>,
    /// References grouped by key: the name the referenced symbol has at its
    /// definition (`g` imported as `from m import f as g` has key `f`), in
    /// source order within a key.
    pub(crate) refs: Vec<Ref>,
    /// key → `(start, end)` range of `refs`.
    pub(crate) ref_ranges: HashMap<Name, (u32, u32)>,
    /// Sites that name a symbol without reading it, which a rename must
    /// change but `Find References` does not list: the strings of a
    /// literal `__all__`, and the targets of bindings that are not
    /// definitions (`for x in …` at module or class level, `x = …` after
    /// `global x`), the alias of `from m import f as f`, and forward
    /// references in annotations (`x: "User"`). Keyed and grouped as `refs`.
    pub(crate) sites: Vec<Ref>,
    /// key → `(start, end)` range of `sites`.
    pub(crate) site_ranges: HashMap<Name, (u32, u32)>,
    /// Module-level bindings: name → value.
    pub(crate) exports: HashMap<Box<str>, ValueId>,
    /// Members (methods, attributes, nested classes) of each class.
    pub(crate) members: HashMap<DefId, Vec<DefId>>,
    /// Modules star-imported at module level, in order.
    pub stars: Vec<String>,
    /// The names of a literal `__all__` (list or tuple of strings, also
    /// extended with `+=`); `None` without one or when it is computed.
    pub all: Option<Vec<Box<str>>>,
    pub has_syntax_errors: bool,
    /// Nesting beyond [`MAX_DEPTH`] was skipped.
    pub truncated: bool,
}

impl FileIndex {
    pub fn name(&self, id: Name) -> &str {
        self.names.name(id)
    }

    pub fn value(&self, id: ValueId) -> Value {
        self.values
            .get(id as usize)
            .copied()
            .unwrap_or(Value::Unknown)
    }

    /// What `value` stands for through `Same` links (a use points at its
    /// binding), a few steps at most.
    pub fn through_same(&self, mut value: ValueId) -> ValueId {
        for _ in 0..8 {
            match self.value(value) {
                Value::Same(next) if next != value => value = next,
                _ => break,
            }
        }
        value
    }

    /// The dotted name a value spells when it names something imported:
    /// `collections.abc.MutableMapping` after `import collections.abc`,
    /// `MutableMapping` after `from collections.abc import MutableMapping`.
    pub fn dotted_name(&self, value: ValueId) -> Option<String> {
        match self.value(self.through_same(value)) {
            Value::Module(m) => Some(self.name(m).to_string()),
            Value::Member { module, name } => {
                Some(format!("{}.{}", self.name(module), self.name(name)))
            }
            Value::Attr { base, name } => {
                Some(format!("{}.{}", self.dotted_name(base)?, self.name(name)))
            }
            // `import collections` and `import collections.abc` both bind
            // `collections`
            Value::Union { start, len } => {
                let mut names = self.union(start, len).iter().map(|&v| self.dotted_name(v));
                let first = names.next()??;
                names
                    .all(|n| n.as_deref() == Some(first.as_str()))
                    .then_some(first)
            }
            _ => None,
        }
    }

    /// `self`/`cls` (through `Same`): its class.
    pub fn self_class(&self, value: ValueId) -> Option<DefId> {
        match self.value(self.through_same(value)) {
            Value::SelfOf(class) => Some(class),
            _ => None,
        }
    }

    /// What a name bound to a call result (through `Same`) was called on:
    /// `bar = Bar(…)` gives `Bar`.
    pub fn called(&self, value: ValueId) -> Option<ValueId> {
        match self.value(self.through_same(value)) {
            Value::Call(callee) => Some(callee),
            _ => None,
        }
    }

    pub fn union(&self, start: u32, len: u32) -> &[ValueId] {
        let (s, e) = (start as usize, (start + len) as usize);
        self.unions.get(s..e).unwrap_or(&[])
    }

    /// Definitions named `name`.
    pub fn defs_named(&self, name: &str) -> &[DefId] {
        self.names
            .get(name)
            .and_then(|id| self.def_ranges.get(&id))
            .and_then(|&(s, e)| self.defs_by_name.get(s as usize..e as usize))
            .unwrap_or(&[])
    }

    /// References whose key is `name`.
    pub fn refs_keyed(&self, name: &str) -> &[Ref] {
        self.names
            .get(name)
            .and_then(|id| self.ref_ranges.get(&id))
            .and_then(|&(s, e)| self.refs.get(s as usize..e as usize))
            .unwrap_or(&[])
    }

    /// The [`FileIndex::sites`] whose key is `name`.
    pub fn sites_keyed(&self, name: &str) -> &[Ref] {
        self.names
            .get(name)
            .and_then(|id| self.site_ranges.get(&id))
            .and_then(|&(s, e)| self.sites.get(s as usize..e as usize))
            .unwrap_or(&[])
    }

    /// `super().name`: an attribute whose object is `super()`.
    pub fn is_super_attribute(&self, value: ValueId) -> bool {
        let Value::Attr { mut base, .. } = self.value(value) else {
            return false;
        };
        for _ in 0..8 {
            match self.value(base) {
                Value::Same(v) => base = v,
                Value::Super(_) | Value::SuperOf(_) => return true,
                _ => return false,
            }
        }
        false
    }

    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id as usize]
    }

    /// `module.qualified` of a definition.
    pub fn full_name(&self, id: DefId) -> String {
        let d = self.def(id);
        if self.module.is_empty() {
            d.qualified.clone()
        } else {
            format!("{}.{}", self.module, d.qualified)
        }
    }
}

// -- scanning ---------------------------------------------------------------

/// Field ids of the Python grammar, looked up once (by name, tree-sitter
/// compares strings on every call).
struct Fields {
    alias: u16,
    alternative: u16,
    argument: u16,
    arguments: u16,
    attribute: u16,
    body: u16,
    condition: u16,
    consequence: u16,
    definition: u16,
    function: u16,
    left: u16,
    module_name: u16,
    name: u16,
    object: u16,
    operator: u16,
    parameters: u16,
    return_type: u16,
    right: u16,
    subscript: u16,
    superclasses: u16,
    r#type: u16,
    value: u16,
}

fn fields() -> &'static Fields {
    static FIELDS: std::sync::OnceLock<Fields> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let lang: tree_sitter::Language = crate::analysis::Language::Python.tree_sitter();
        let id = |name: &str| {
            lang.field_id_for_name(name)
                .map(|f| f.get())
                .unwrap_or(u16::MAX)
        };
        Fields {
            alias: id("alias"),
            alternative: id("alternative"),
            argument: id("argument"),
            arguments: id("arguments"),
            attribute: id("attribute"),
            body: id("body"),
            condition: id("condition"),
            consequence: id("consequence"),
            definition: id("definition"),
            function: id("function"),
            left: id("left"),
            module_name: id("module_name"),
            name: id("name"),
            object: id("object"),
            operator: id("operator"),
            parameters: id("parameters"),
            return_type: id("return_type"),
            right: id("right"),
            subscript: id("subscript"),
            superclasses: id("superclasses"),
            r#type: id("type"),
            value: id("value"),
        }
    })
}

/// Node kind ids the walk compares on hot paths (`Node::kind` measures
/// and checks a C string on every call).
struct Kinds {
    if_statement: u16,
    and: u16,
}

fn kinds() -> &'static Kinds {
    static KINDS: std::sync::OnceLock<Kinds> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        let lang: tree_sitter::Language = crate::analysis::Language::Python.tree_sitter();
        Kinds {
            if_statement: lang.id_for_node_kind("if_statement", true),
            and: lang.id_for_node_kind("and", false),
        }
    })
}

/// The node kinds [`Scanner::visit`] and [`Scanner::expr`] tell apart.
/// Matching a kind id through one table instead of the kind's name saves
/// a C string's measure, check and comparisons per node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    FunctionDefinition,
    ClassDefinition,
    DecoratedDefinition,
    ImportStatement,
    ImportFromStatement,
    FutureImportStatement,
    /// Comments, `pass` and literals other than strings: nothing to index.
    Inert,
    String,
    Declaration,
    Assignment,
    AugmentedAssignment,
    NamedExpression,
    DeleteStatement,
    ForStatement,
    AsPattern,
    ExceptClause,
    Lambda,
    Comprehension,
    CasePattern,
    BooleanOperator,
    BinaryOperator,
    Conditional,
    ReturnStatement,
    Yield,
    KeywordArgument,
    Identifier,
    Attribute,
    Call,
    Subscript,
    ParenthesizedExpression,
    Other,
}

impl Kind {
    fn of_name(name: &str) -> Kind {
        match name {
            "function_definition" => Kind::FunctionDefinition,
            "class_definition" => Kind::ClassDefinition,
            "decorated_definition" => Kind::DecoratedDefinition,
            "import_statement" => Kind::ImportStatement,
            "import_from_statement" => Kind::ImportFromStatement,
            "future_import_statement" => Kind::FutureImportStatement,
            "comment" | "pass_statement" | "integer" | "float" | "true" | "false" | "none"
            | "ellipsis" => Kind::Inert,
            "string" => Kind::String,
            "global_statement" | "nonlocal_statement" => Kind::Declaration,
            "assignment" => Kind::Assignment,
            "augmented_assignment" => Kind::AugmentedAssignment,
            "named_expression" => Kind::NamedExpression,
            "delete_statement" => Kind::DeleteStatement,
            "for_statement" => Kind::ForStatement,
            "as_pattern" => Kind::AsPattern,
            "except_clause" => Kind::ExceptClause,
            "lambda" => Kind::Lambda,
            "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression" => Kind::Comprehension,
            "case_pattern" => Kind::CasePattern,
            "boolean_operator" => Kind::BooleanOperator,
            "binary_operator" => Kind::BinaryOperator,
            "if_statement" | "elif_clause" => Kind::Conditional,
            "return_statement" => Kind::ReturnStatement,
            "yield" => Kind::Yield,
            "keyword_argument" => Kind::KeywordArgument,
            "identifier" => Kind::Identifier,
            "attribute" => Kind::Attribute,
            "call" => Kind::Call,
            "subscript" => Kind::Subscript,
            "parenthesized_expression" => Kind::ParenthesizedExpression,
            _ => Kind::Other,
        }
    }

    /// The kind of `node`: what `Kind::of_name(node.kind())` gives, by id.
    fn of(node: Node<'_>) -> Kind {
        static TABLE: std::sync::OnceLock<crate::analysis::grammar::KindTable<Kind>> =
            std::sync::OnceLock::new();
        TABLE
            .get_or_init(|| crate::analysis::grammar::KindTable::new(Kind::of_name))
            .of(node)
    }
}

/// `node.child_by_field_name(name)` through the precomputed id.
fn field<'t>(node: Node<'t>, id: u16) -> Option<Node<'t>> {
    if id == u16::MAX {
        return None;
    }
    node.child_by_field_id(id)
}

const UNKNOWN: ValueId = 0;

/// `name` or `a.b.c`: identifiers joined by dots.
fn is_dotted_name(text: &str) -> bool {
    let identifier = |p: &str| {
        let mut chars = p.chars();
        chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
            && chars.all(|c| c == '_' || c.is_alphanumeric())
    };
    !text.is_empty() && text.split('.').all(identifier)
}

/// `(x)` → `x`.
fn unparenthesized(mut node: Node<'_>) -> Node<'_> {
    while kind_name(node) == "parenthesized_expression" && node.named_child_count() == 1 {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

// -- the resolver's full model ------------------------------------------------

/// The resolver's whole per-file model, in the walker's terms (interned
/// names, byte ranges): every scope, binding, name read and attribute
/// access, each read resolved. Built by [`model`] only;
/// `analysis::scope::analyze` turns it into `Scopes`. The project index
/// keeps a projection of the same walk ([`FileIndex`]) and never builds it.
#[derive(Debug, Default)]
pub struct Model {
    /// Interned names ([`Name`] indexes it).
    pub names: Names,
    pub scopes: Vec<ModelScope>,
    /// In source order.
    pub bindings: Vec<ModelBinding>,
    /// In source order.
    pub references: Vec<ModelReference>,
    /// `object.attribute` where `object` is a plain name, in source order.
    pub attributes: Vec<ModelAttribute>,
    /// Some `from m import *`, in any scope.
    pub star_import: bool,
    /// `from __future__ import annotations`.
    pub future_annotations: bool,
    /// The names `from __future__ import …` binds.
    pub future_imports: Vec<Name>,
    pub truncated: bool,
}

#[derive(Debug, Clone)]
pub struct ModelScope {
    pub kind: ScopeKind,
    pub parent: Option<usize>,
    /// The function's or class's name.
    pub name: Option<Name>,
    /// Bytes of the defining node (the whole file for the module).
    pub range: Range<usize>,
    pub globals: Vec<Name>,
    pub nonlocals: Vec<Name>,
    /// First parameter (`self` / `cls`).
    pub first_param: Option<Name>,
    /// Calls `locals()` / `vars()`.
    pub uses_locals: bool,
}

#[derive(Debug, Clone)]
pub struct ModelBinding {
    pub name: Name,
    pub kind: BindingKind,
    /// Bytes of the bound identifier.
    pub range: Range<usize>,
    /// Bytes of the statement that binds.
    pub statement: Range<usize>,
    /// The scope the name binds in (after `global`, `nonlocal`, walrus).
    pub scope: usize,
    /// The scope the binding is written in.
    pub site: usize,
}

#[derive(Debug, Clone)]
pub struct ModelReference {
    pub name: Name,
    pub range: Range<usize>,
    /// The scope the name is read in.
    pub scope: usize,
    /// Where it resolves ([`lookup`]); `None`: builtin, star or undefined.
    pub resolved: Option<usize>,
    pub in_annotation: bool,
}

#[derive(Debug, Clone)]
pub struct ModelAttribute {
    pub object: Name,
    pub object_resolved: Option<usize>,
    pub attribute: Name,
    pub attribute_range: Range<usize>,
    pub scope: usize,
}

/// The resolver's full model of one parsed file (see [`Model`]).
pub fn model(src: &str, tree: &Tree) -> Model {
    let mut s = Scanner::new("", false, src, tree);
    s.model = Some(Model::default());
    s.walk(tree);
    s.finish_model()
}

struct Scope {
    kind: ScopeKind,
    parent: Option<usize>,
    /// name → binding values (`UNKNOWN` for plain locals).
    bindings: HashMap<Name, Vec<ValueId>>,
    globals: Vec<Name>,
    nonlocals: Vec<Name>,
    /// The resolved value of each bound name (after the walk).
    resolved: HashMap<Name, ValueId>,
    /// Bytes of the defining node.
    range: Range<usize>,
    name: Option<Name>,
    first_param: Option<Name>,
    uses_locals: bool,
}

/// One name seen through the walker's scopes, for [`lookup`].
struct NameIn<'a> {
    scopes: &'a [Scope],
    name: Name,
}

impl ScopeChain for NameIn<'_> {
    fn kind(&self, scope: usize) -> ScopeKind {
        self.scopes[scope].kind
    }
    fn parent(&self, scope: usize) -> Option<usize> {
        self.scopes[scope].parent
    }
    fn declares_global(&self, scope: usize) -> bool {
        self.scopes[scope].globals.contains(&self.name)
    }
    fn declares_nonlocal(&self, scope: usize) -> bool {
        self.scopes[scope].nonlocals.contains(&self.name)
    }
    fn binds(&self, scope: usize) -> bool {
        self.scopes[scope].resolved.contains_key(&self.name)
    }
}

#[derive(Clone, Copy)]
struct Ctx {
    scope: usize,
    owner: Option<DefId>,
    /// Set in a class body: the class.
    class: Option<DefId>,
    /// Set in a method (and lambdas/comprehensions in it): its class, for `super()`.
    method_of: Option<DefId>,
    depth: usize,
}

/// `obj.name = …`: an instance attribute's definition when `obj` is `self`.
struct AttrWrite {
    /// Index in `refs` of the reference to `name`.
    reference: usize,
    value: ValueId,
    /// What `self.x = …` assigns (or its annotation gives), when it is the
    /// statement's one target.
    assigned: ValueId,
}

struct Pending {
    scope: usize,
    name: Name,
    slot: ValueId,
}

/// Where `isinstance(name, C)` holds, `name` read in `scope` is an
/// instance of `C` (for its attributes; the name still resolves to its
/// binding).
struct Narrowing {
    scope: usize,
    name: Name,
    instance: ValueId,
}

struct Scanner<'s, 't> {
    /// The full model, when asked for ([`model`]); the index never is.
    model: Option<Model>,
    /// Visiting an annotation (for [`ModelReference::in_annotation`]).
    in_annotation: bool,
    /// How the targets being bound by [`Scanner::target`] bind.
    target_kind: BindingKind,
    target_statement: Option<Node<'t>>,
    /// Cursors reused by `children` (creating one allocates).
    cursors: crate::analysis::syntax::CursorPool<'t>,
    src: &'s str,
    /// `src` is ASCII: byte columns and lengths are char ones (most
    /// files; the test is one pass, the counting one per reference).
    ascii: bool,
    package: String,
    file: FileIndex,
    scopes: Vec<Scope>,
    pending: Vec<Pending>,
    attr_writes: Vec<AttrWrite>,
    /// `__all__` was assigned something other than literal strings.
    all_dynamic: bool,
    /// The value assigned to the identifier target being bound.
    rhs: ValueId,
    /// The `isinstance` tests holding where the walk is ([`Narrowing`]).
    narrowed: Vec<Narrowing>,
    /// The narrowing the `if` visited last gives the statements after it,
    /// if it is a guard ([`Scanner::guard`]).
    guarded: Option<Narrowing>,
    /// What each function's `return` statements give, for a function
    /// without a return annotation ([`Self::inferred_returns`]).
    returned: Vec<(DefId, ValueId)>,
    /// Functions that cannot be typed by their returns: generators, and
    /// `async` ones (a call gives a generator or a coroutine).
    not_returning: Vec<DefId>,
}

/// Indexes one parsed file. `src` is the text `tree` was parsed from.
pub fn scan(module: &str, is_package: bool, src: &str, tree: &Tree) -> FileIndex {
    let mut s = Scanner::new(module, is_package, src, tree);
    s.walk(tree);
    s.finish()
}

impl<'s, 't> Scanner<'s, 't> {
    fn new(module: &str, is_package: bool, src: &'s str, tree: &'t Tree) -> Self {
        let root = tree.root_node();
        let mut module_scope = Scope::new(ScopeKind::Module, None);
        module_scope.range = 0..src.len();
        Scanner {
            model: None,
            in_annotation: false,
            target_kind: BindingKind::Other,
            target_statement: None,
            cursors: Default::default(),
            src,
            ascii: src.is_ascii(),
            package: module_path::package_of(module, is_package).to_string(),
            file: FileIndex {
                module: module.to_string(),
                is_package,
                has_syntax_errors: root.has_error(),
                values: vec![Value::Unknown],
                ..FileIndex::default()
            },
            scopes: vec![module_scope],
            pending: Vec::new(),
            attr_writes: Vec::new(),
            all_dynamic: false,
            rhs: UNKNOWN,
            narrowed: Vec::new(),
            guarded: None,
            returned: Vec::new(),
            not_returning: Vec::new(),
        }
    }

    fn walk(&mut self, tree: &'t Tree) {
        let ctx = Ctx {
            scope: 0,
            owner: None,
            class: None,
            method_of: None,
            depth: 0,
        };
        self.children(tree.root_node(), ctx);
    }
}

impl Scope {
    fn new(kind: ScopeKind, parent: Option<usize>) -> Self {
        Scope {
            kind,
            parent,
            bindings: HashMap::default(),
            globals: Vec::new(),
            nonlocals: Vec::new(),
            resolved: HashMap::default(),
            range: 0..0,
            name: None,
            first_param: None,
            uses_locals: false,
        }
    }
}

impl<'s, 't> Scanner<'s, 't> {
    fn text(&self, node: Node<'t>) -> &'s str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    /// Zero-based line and char column of a node's start.
    fn pos(&self, node: Node<'t>) -> Position {
        if self.ascii {
            let p = node.start_position();
            return Position::new(p.row, p.column);
        }
        syntax::node_start_in(self.src, node)
    }

    /// The length of a node's text in chars.
    fn char_len(&self, node: Node<'t>) -> usize {
        if self.ascii {
            return node.end_byte() - node.start_byte();
        }
        syntax::char_len_in(self.src, node.byte_range())
    }

    fn intern(&mut self, s: &str) -> Name {
        self.file.names.intern(s)
    }

    fn intern_owned(&mut self, s: String) -> Name {
        self.intern(&s)
    }

    fn push(&mut self, v: Value) -> ValueId {
        self.file.values.push(v);
        (self.file.values.len() - 1) as ValueId
    }

    /// Binds `name`, written at `node` in `statement`, in `scope`; returns
    /// the scope it binds in.
    fn bind(
        &mut self,
        scope: usize,
        name: Name,
        value: ValueId,
        (node, kind, statement): (Node<'t>, BindingKind, Node<'t>),
    ) -> usize {
        // `global x` in a function sends bindings of x to the module.
        let bound = if self.scopes[scope].globals.contains(&name) {
            0
        } else {
            scope
        };
        self.scopes[bound]
            .bindings
            .entry(name)
            .or_default()
            .push(value);
        if let Some(m) = self.model.as_mut() {
            m.bindings.push(ModelBinding {
                name,
                kind,
                range: node.byte_range(),
                statement: statement.byte_range(),
                scope: bound,
                site: scope,
            });
        }
        bound
    }

    /// A name read, for the full model (the index keeps its own `Ref`s).
    fn model_ref(&mut self, node: Node<'t>, name: Name, scope: usize) {
        if let Some(m) = self.model.as_mut() {
            m.references.push(ModelReference {
                name,
                range: node.byte_range(),
                scope,
                resolved: None,
                in_annotation: self.in_annotation,
            });
            if matches!(self.text(node), "locals" | "vars") {
                self.scopes[scope].uses_locals = true;
            }
        }
    }

    /// Visits an annotation: its names are reads flagged as such.
    fn annotation<R>(&mut self, walk: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.in_annotation, true);
        let r = walk(self);
        self.in_annotation = outer;
        r
    }

    /// Binds the targets of `node` ([`Scanner::target`]) as `kind`, in `statement`.
    fn bind_targets(
        &mut self,
        node: Node<'t>,
        ctx: Ctx,
        defines: bool,
        kind: BindingKind,
        statement: Node<'t>,
    ) {
        let outer = (self.target_kind, self.target_statement);
        self.target_kind = kind;
        self.target_statement = Some(statement);
        self.target(node, ctx, defines);
        (self.target_kind, self.target_statement) = outer;
    }

    /// The nearest scope that is not a comprehension (walrus targets).
    fn binding_scope(&self, mut scope: usize) -> usize {
        while self.scopes[scope].kind == ScopeKind::Comprehension {
            match self.scopes[scope].parent {
                Some(p) => scope = p,
                None => break,
            }
        }
        scope
    }

    fn add_ref(&mut self, node: Node<'t>, value: ValueId, ctx: Ctx) {
        let p = self.pos(node);
        let len = self.char_len(node);
        self.file.refs.push(Ref {
            line: p.line as u32,
            col: p.col as u32,
            len: len.min(u16::MAX as usize) as u16,
            value,
            owner: ctx.owner,
            is_call: false,
        });
    }

    /// A [`FileIndex::sites`] entry: `node` names whatever `name` is
    /// bound to in `scope`.
    fn add_site(&mut self, node: Node<'t>, scope: usize, name: Name, ctx: Ctx) {
        let slot = self.push(Value::Unknown);
        self.pending.push(Pending { scope, name, slot });
        self.push_site(node, slot, ctx);
    }

    /// A [`FileIndex::sites`] entry: `node` names `value`.
    fn push_site(&mut self, node: Node<'t>, value: ValueId, ctx: Ctx) {
        let p = self.pos(node);
        let len = self.char_len(node);
        self.push_site_at(p, len, value, ctx);
    }

    fn push_site_at(&mut self, p: Position, len: usize, value: ValueId, ctx: Ctx) {
        let slot = value;
        self.file.sites.push(Ref {
            line: p.line as u32,
            col: p.col as u32,
            len: len.min(u16::MAX as usize) as u16,
            value: slot,
            owner: ctx.owner,
            is_call: false,
        });
    }

    /// Forward references in an annotation (`x: "User"`, `-> "pkg.m.C"`):
    /// each string that is a dotted name names what that name would, in
    /// the scope the annotation is evaluated in. Sites, as
    /// `typing.get_type_hints` would resolve them.
    fn string_annotations(&mut self, annotation: Node<'t>, ctx: Ctx) {
        let mut stack = vec![(annotation, 0usize)];
        while let Some((node, depth)) = stack.pop() {
            if kind_name(node) == "string" {
                if let Some(content) = string_content(node) {
                    self.dotted_string(content, ctx);
                }
                continue;
            }
            if depth < 16 {
                let mut cursor = node.walk();
                for c in node.named_children(&mut cursor) {
                    stack.push((c, depth + 1));
                }
            }
        }
    }

    /// `a.b.C` written inside a string: a use of `a`, then of each attribute.
    fn dotted_string(&mut self, content: Node<'t>, ctx: Ctx) {
        let text = self.text(content);
        if !is_dotted_name(text) {
            return;
        }
        let start = self.pos(content);
        let mut col = start.col;
        let mut value = UNKNOWN;
        for (i, part) in text.split('.').enumerate() {
            let name = self.intern(part);
            let len = part.chars().count();
            value = if i == 0 {
                let slot = self.push(Value::Unknown);
                self.pending.push(Pending {
                    scope: ctx.scope,
                    name,
                    slot,
                });
                slot
            } else {
                self.push(Value::Attr { base: value, name })
            };
            self.push_site_at(Position::new(start.line, col), len, value, ctx);
            col += len + 1;
        }
    }

    fn children(&mut self, node: Node<'t>, ctx: Ctx) {
        if node.child_count() == 0 {
            return;
        }
        let mut cursor = self.cursors.take(node);
        let narrowed = self.narrowed.len();
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if child.is_named() {
                    if child.kind_id() != kinds().if_statement {
                        self.visit(child, ctx);
                    } else {
                        self.guarded = None;
                        self.visit(child, ctx);
                        if let Some(n) = self.guarded.take() {
                            self.narrowed.push(n);
                        }
                    }
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.narrowed.truncate(narrowed);
        self.cursors.give(cursor);
    }

    /// The named children of `node`, through a pooled cursor (`Node::walk`
    /// allocates one, with C's `malloc`).
    fn named_children(&mut self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut cursor = self.cursors.take(node);
        let found = node.named_children(&mut cursor).collect();
        self.cursors.give(cursor);
        found
    }

    /// A pooled cursor stood on each child of `node` in turn, named or
    /// not: `each` asks it for the node or its field only when it needs
    /// them.
    fn each_child(&mut self, node: Node<'t>, mut each: impl FnMut(&tree_sitter::TreeCursor<'t>)) {
        let mut cursor = self.cursors.take(node);
        if cursor.goto_first_child() {
            loop {
                each(&cursor);
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.cursors.give(cursor);
    }

    /// Each child of `node` with the id of the field it is in, in one
    /// pass of a pooled cursor.
    fn each_field_child(&mut self, node: Node<'t>, mut each: impl FnMut(u16, Node<'t>)) {
        self.each_child(node, |cursor| {
            if let Some(id) = cursor.field_id() {
                each(id.get(), cursor.node());
            }
        });
    }

    /// The children of `node` in the field `id`, in order.
    fn children_in(&mut self, id: u16, node: Node<'t>) -> Vec<Node<'t>> {
        let mut found = Vec::new();
        self.each_field_child(node, |field, child| {
            if field == id {
                found.push(child);
            }
        });
        found
    }

    /// The children of `node` in the fields `ids`, found in one pass over
    /// its children (each `child_by_field_id` passes over them again,
    /// computing every child's position).
    fn fields_of<const N: usize>(
        &mut self,
        node: Node<'t>,
        ids: [u16; N],
    ) -> [Option<Node<'t>>; N] {
        let mut found = [None; N];
        self.each_field_child(node, |field, child| {
            if let Some(i) = ids.iter().position(|&f| f == field) {
                found[i].get_or_insert(child);
            }
        });
        found
    }

    fn deeper(&mut self, ctx: Ctx) -> Option<Ctx> {
        if ctx.depth >= MAX_DEPTH {
            self.file.truncated = true;
            return None;
        }
        Some(Ctx {
            depth: ctx.depth + 1,
            ..ctx
        })
    }

    /// Visits a statement or expression for its uses and bindings.
    fn visit(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(ctx) = self.deeper(ctx) else {
            return;
        };
        match Kind::of(node) {
            Kind::FunctionDefinition => self.function(node, None, ctx),
            Kind::ClassDefinition => self.class(node, None, ctx),
            Kind::DecoratedDefinition => self.decorated(node, ctx),
            Kind::ImportStatement => self.import(node, ctx),
            Kind::ImportFromStatement => self.import_from(node, ctx),
            Kind::FutureImportStatement => self.future_import(node),
            Kind::Inert => {}
            Kind::String => self.string(node, ctx),
            Kind::Declaration => self.declaration(node, ctx),
            Kind::Assignment | Kind::AugmentedAssignment if ctx.scope == 0 && self.is_all(node) => {
                self.dunder_all(node, ctx);
            }
            Kind::Assignment => self.assignment(node, ctx),
            Kind::AugmentedAssignment => self.augmented_assignment(node, ctx),
            Kind::NamedExpression => self.named_expression(node, ctx),
            Kind::DeleteStatement => self.delete(node, ctx),
            Kind::ForStatement => self.for_statement(node, ctx),
            Kind::AsPattern => self.as_pattern(node, ctx),
            Kind::ExceptClause => self.except_clause(node, ctx),
            Kind::Lambda => self.lambda(node, ctx),
            Kind::Comprehension => self.comprehension(node, ctx),
            Kind::CasePattern => self.pattern(node, ctx),
            Kind::BooleanOperator if self.is_and(node) => self.and_chain(node, ctx),
            Kind::BinaryOperator | Kind::BooleanOperator => self.operator_chain(node, ctx),
            Kind::Conditional => self.conditional(node, ctx),
            Kind::ReturnStatement => {
                let value = match node.named_child(0) {
                    Some(e) => self.expr(e, ctx),
                    None => UNKNOWN,
                };
                if let Some(owner) = ctx.owner {
                    self.returned.push((owner, value));
                }
            }
            Kind::Yield => {
                if let Some(owner) = ctx.owner {
                    self.not_returning.push(owner);
                }
                self.children(node, ctx);
            }
            Kind::KeywordArgument => {
                if let Some(v) = field(node, fields().value) {
                    self.visit(v, ctx);
                }
            }
            Kind::Identifier
            | Kind::Attribute
            | Kind::Call
            | Kind::Subscript
            | Kind::ParenthesizedExpression => {
                self.expr(node, ctx);
            }
            _ => self.children(node, ctx),
        }
    }

    /// `@d def f` / `@d class C`: the decorators, then the definition.
    fn decorated(&mut self, node: Node<'t>, ctx: Ctx) {
        let mut decorators = self.named_children(node);
        decorators.retain(|&c| kind_name(c) == "decorator");
        for d in &decorators {
            self.children(*d, ctx);
        }
        if let Some(def) = field(node, fields().definition) {
            match kind_name(def) {
                "function_definition" => self.function(def, Some(&decorators), ctx),
                "class_definition" => self.class(def, Some(&decorators), ctx),
                _ => self.visit(def, ctx),
            }
        }
    }

    /// Only f-strings (and t-strings) hold expressions, in `interpolation` nodes.
    fn string(&mut self, node: Node<'t>, ctx: Ctx) {
        // Only f-strings hold expressions (in `interpolation` nodes).
        let start = node.start_byte();
        let prefix = self
            .src
            .as_bytes()
            .get(start..(start + 3).min(node.end_byte()));
        if prefix.is_some_and(|p| {
            p.iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .any(|b| matches!(b, b'f' | b'F' | b't' | b'T'))
        }) {
            self.children(node, ctx);
        }
    }

    /// `global` / `nonlocal`.
    fn declaration(&mut self, node: Node<'t>, ctx: Ctx) {
        let global = kind_name(node) == "global_statement";
        let names = self.named_children(node);
        for n in names {
            if kind_name(n) == "identifier" {
                let id = self.intern(self.text(n));
                // the declared names are uses (renames must update them)
                self.model_ref(n, id, ctx.scope);
                if global {
                    self.scopes[ctx.scope].globals.push(id);
                    // `global x` names the module's `x` (a rename must change it).
                    let slot = self.push(Value::Unknown);
                    self.pending.push(Pending {
                        scope: 0,
                        name: id,
                        slot,
                    });
                    self.add_ref(n, slot, ctx);
                } else {
                    self.scopes[ctx.scope].nonlocals.push(id);
                }
            }
        }
    }

    /// `a = …`, `a: T = …`, `a: T`.
    fn assignment(&mut self, node: Node<'t>, ctx: Ctx) {
        let [left, right, ty] =
            self.fields_of(node, [fields().left, fields().right, fields().r#type]);
        let mut value = match right {
            Some(right) => self.expr(right, ctx),
            None => UNKNOWN,
        };
        if let Some(ty) = ty {
            self.annotation(|s| s.visit(ty, ctx));
            self.string_annotations(ty, ctx);
            // `x: Engine = …` holds an Engine, whatever the value says
            // (`None` until set, a factory's result).
            let annotated = self.annotated(ty, ctx);
            if annotated != UNKNOWN {
                value = annotated;
            }
        }
        if let Some(left) = left {
            // `x: int` without a value declares, it does not assign
            let kind = if right.is_some() {
                BindingKind::Assignment
            } else {
                BindingKind::Other
            };
            let statement = self.statement_of(node);
            let left_kind = Kind::of(left);
            if left_kind == Kind::Identifier && self.scopes[ctx.scope].kind == ScopeKind::Function {
                // A local holding a value the index can follow
                // (`m = Manager()`); kept only if it is its sole binding.
                self.bind_local(left, value, ctx, (kind, statement));
            } else if matches!(left_kind, Kind::Identifier | Kind::Attribute) {
                // A module or class variable (or `self.x`) remembers what
                // it holds.
                self.rhs = value;
                self.bind_targets(left, ctx, true, kind, statement);
                self.rhs = UNKNOWN;
            } else {
                self.bind_targets(left, ctx, true, kind, statement);
            }
        }
    }

    /// `a += …`.
    fn augmented_assignment(&mut self, node: Node<'t>, ctx: Ctx) {
        if let Some(right) = field(node, fields().right) {
            self.visit(right, ctx);
        }
        if let Some(left) = field(node, fields().left) {
            // `a += 1` reads and binds `a`
            self.expr(left, ctx);
            if kind_name(left) == "identifier" {
                let id = self.intern(self.text(left));
                let site = (left, BindingKind::Assignment, node);
                self.bind(ctx.scope, id, UNKNOWN, site);
            }
        }
    }

    /// `(a := …)` binds in the nearest scope that is not a comprehension.
    fn named_expression(&mut self, node: Node<'t>, ctx: Ctx) {
        if let Some(v) = field(node, fields().value) {
            self.visit(v, ctx);
        }
        if let Some(n) = field(node, fields().name) {
            let scope = self.binding_scope(ctx.scope);
            let text = self.text(n);
            let id = self.intern(text);
            // at module level (comprehensions included) it assigns a
            // module variable, as `x = …` does
            let value = if self.scopes[scope].kind == ScopeKind::Module {
                let pos = self.pos(n);
                let module = Ctx {
                    owner: None,
                    class: None,
                    ..ctx
                };
                self.define(text, id, SymbolKind::Variable, pos, pos, module)
            } else {
                UNKNOWN
            };
            self.bind(scope, id, value, (n, BindingKind::Assignment, node));
            if let Some(b) = self.model.as_mut().and_then(|m| m.bindings.last_mut()) {
                b.site = ctx.scope;
            }
        }
    }

    /// `for a in …:`.
    fn for_statement(&mut self, node: Node<'t>, ctx: Ctx) {
        let iterated = match field(node, fields().right) {
            Some(right) => self.iterated(right, ctx),
            None => Iterated::Items(UNKNOWN),
        };
        if let Some(left) = field(node, fields().left) {
            self.bind_iterated(left, iterated, ctx, node);
        }
        if let Some(body) = field(node, fields().body) {
            self.visit(body, ctx);
        }
        if let Some(alt) = field(node, fields().alternative) {
            self.visit(alt, ctx);
        }
    }

    /// What a `for` iterates, visited in `ctx`, as far as its items go: a
    /// value the index follows (a name, an attribute, a call) — seen
    /// through the builtins that keep the items (`sorted(xs)`,
    /// `reversed(xs)`, `list(xs)`…) —, `enumerate(xs)`, `zip(xs, ys)`.
    fn iterated(&mut self, collection: Node<'t>, ctx: Ctx) -> Iterated {
        if let Some(iterated) = self.iterated_builtin(collection, ctx) {
            return iterated;
        }
        if let Some(each) = self.iterated_literal(collection, ctx) {
            return Iterated::Each(each);
        }
        if matches!(
            Kind::of(collection),
            Kind::Identifier
                | Kind::Attribute
                | Kind::Call
                | Kind::Subscript
                | Kind::ParenthesizedExpression
        ) {
            let value = self.expr(collection, ctx);
            // `d.items()`: pairs of a key and a value, as `d.values()` gives
            if let Value::Call(callee) = self.file.value(value) {
                if let Value::Attr { base, name } = self.file.value(callee) {
                    if self.file.name(name) == "items" {
                        let values = self.intern("values");
                        let method = self.push(Value::Attr { base, name: values });
                        return Iterated::Enumerated(self.push(Value::Call(method)));
                    }
                }
            }
            Iterated::Items(value)
        } else {
            self.visit(collection, ctx);
            Iterated::Items(UNKNOWN)
        }
    }

    /// `(LRU, LRI)`, `[a.B, C]`: a literal of names, iterated: each item is
    /// one of them (a union of their values; the literal visited).
    fn iterated_literal(&mut self, literal: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        if !matches!(kind_name(literal), "tuple" | "list" | "set") {
            return None;
        }
        let names = self.named_children(literal);
        if names.is_empty()
            || names.len() > 16
            || !names
                .iter()
                .all(|n| matches!(Kind::of(*n), Kind::Identifier | Kind::Attribute))
        {
            return None;
        }
        let mut values: Vec<ValueId> = names.iter().map(|n| self.expr(*n, ctx)).collect();
        values.dedup();
        if values.contains(&UNKNOWN) {
            return Some(UNKNOWN);
        }
        Some(match values.as_slice() {
            [one] => *one,
            _ => {
                let start = self.file.unions.len() as u32;
                let len = values.len() as u32;
                self.file.unions.extend(values);
                self.push(Value::Union { start, len })
            }
        })
    }

    /// `sorted(xs, key=…)`, `enumerate(xs)`, `zip(xs, ys)` and the like,
    /// when the name is the builtin's: the call visited, what it iterates.
    fn iterated_builtin(&mut self, call: Node<'t>, ctx: Ctx) -> Option<Iterated> {
        if Kind::of(call) != Kind::Call {
            return None;
        }
        // `sorted(sorted(…))` nests like any expression
        let ctx = self.deeper(ctx)?;
        let [function, arguments] = self.fields_of(call, [fields().function, fields().arguments]);
        let (function, arguments) = (function?, arguments?);
        if Kind::of(function) != Kind::Identifier || kind_name(arguments) != "argument_list" {
            return None;
        }
        let builtin = self.text(function);
        const SAME_ITEMS: &[&str] = &[
            "sorted",
            "reversed",
            "list",
            "tuple",
            "set",
            "frozenset",
            "iter",
        ];
        if !(SAME_ITEMS.contains(&builtin) || builtin == "enumerate" || builtin == "zip") {
            return None;
        }
        let name = self.intern(builtin);
        let shadowed = |scopes: &[Scope], mut at: Option<usize>| {
            while let Some(i) = at {
                if scopes[i].bindings.contains_key(&name) {
                    return true;
                }
                at = scopes[i].parent;
            }
            false
        };
        if shadowed(&self.scopes, Some(ctx.scope)) {
            return None;
        }
        let args = self.named_children(arguments);
        let positional = args
            .iter()
            .take_while(|&&a| {
                !matches!(
                    kind_name(a),
                    "keyword_argument" | "list_splat" | "dictionary_splat" | "comment"
                )
            })
            .count();
        if positional == 0 {
            return None;
        }
        // the call as `expr` visits it (its name a reference), the
        // positional arguments kept
        self.expr(function, ctx);
        let mut values = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if i < positional {
                let v = match self.iterated(*a, ctx) {
                    Iterated::Items(v) => v,
                    _ => UNKNOWN,
                };
                values.push(v);
            } else {
                self.visit(*a, ctx);
            }
        }
        Some(match builtin {
            "enumerate" => Iterated::Enumerated(values[0]),
            "zip" => Iterated::Zipped(values),
            _ => Iterated::Items(values[0]),
        })
    }

    /// Binds the target of a `for` (or a comprehension's `for`) over
    /// `iterated`: a lone name in a function or comprehension is an item
    /// of it (typed when it is an annotated collection, `for x in
    /// self.items` with `items: list[C]`), and so are the item positions of
    /// `for i, x in enumerate(xs)` and `for a, b in zip(xs, ys)`.
    fn bind_iterated(
        &mut self,
        target: Node<'t>,
        iterated: Iterated,
        ctx: Ctx,
        statement: Node<'t>,
    ) {
        let unpacked = matches!(kind_name(target), "pattern_list" | "tuple_pattern");
        let parts = match iterated {
            Iterated::Enumerated(_) | Iterated::Zipped(_) if unpacked => {
                self.named_children(target)
            }
            _ => Vec::new(),
        };
        match iterated {
            Iterated::Items(collection) => self.bind_item(target, collection, ctx, statement),
            Iterated::Each(value) => self.bind_each(target, value, ctx, statement),
            Iterated::Enumerated(collection) if unpacked && parts.len() == 2 => {
                self.bind_targets(parts[0], ctx, false, BindingKind::Other, statement);
                self.bind_item(parts[1], collection, ctx, statement);
            }
            Iterated::Zipped(collections) if unpacked && parts.len() == collections.len() => {
                for (part, collection) in parts.into_iter().zip(collections) {
                    self.bind_item(part, collection, ctx, statement);
                }
            }
            _ => self.bind_targets(target, ctx, false, BindingKind::Other, statement),
        }
    }

    /// Binds `target` to an item of `collection` (see [`Self::bind_iterated`]).
    fn bind_item(&mut self, target: Node<'t>, collection: ValueId, ctx: Ctx, statement: Node<'t>) {
        self.bind_loop_target(target, collection, ctx, statement, |s, c| {
            s.push(Value::Elem(c))
        });
    }

    /// Binds `target` to `value` itself, an item of a literal.
    fn bind_each(&mut self, target: Node<'t>, value: ValueId, ctx: Ctx, statement: Node<'t>) {
        self.bind_loop_target(target, value, ctx, statement, |_, v| v);
    }

    /// A lone name in a function or comprehension is bound to the value
    /// `item` makes of `of` (when the index follows `of`); any other target
    /// as a plain binding.
    fn bind_loop_target(
        &mut self,
        target: Node<'t>,
        of: ValueId,
        ctx: Ctx,
        statement: Node<'t>,
        item: impl FnOnce(&mut Self, ValueId) -> ValueId,
    ) {
        let local = matches!(
            self.scopes[ctx.scope].kind,
            ScopeKind::Function | ScopeKind::Comprehension
        );
        if of != UNKNOWN && local && Kind::of(target) == Kind::Identifier {
            let value = item(self, of);
            self.bind_local(target, value, ctx, (BindingKind::Other, statement));
        } else {
            self.bind_targets(target, ctx, false, BindingKind::Other, statement);
        }
    }

    /// `with x as y`, `case p as y` (and `except E as e` in older grammars).
    fn as_pattern(&mut self, node: Node<'t>, ctx: Ctx) {
        let parts = self.named_children(node);
        let statement = node.parent().unwrap_or(node);
        let catches = kind_name(statement) == "except_clause";
        let enters = kind_name(statement) == "with_item";
        let mut caught = UNKNOWN;
        let mut entered = UNKNOWN;
        for p in parts {
            if kind_name(p) == "as_pattern_target" {
                if let Some(t) = p.named_child(0) {
                    if entered != UNKNOWN {
                        self.bind_entered(t, entered, ctx, statement);
                    } else {
                        self.bind_caught(t, caught, ctx, statement);
                    }
                }
            } else if enters && entered == UNKNOWN {
                // `with x as y`: `y` is what `x.__enter__()` returns
                let manager = self.expr(p, ctx);
                let name = self.intern("__enter__");
                let method = self.push(Value::Attr {
                    base: manager,
                    name,
                });
                entered = self.push(Value::Call(method));
            } else if catches
                && caught == UNKNOWN
                && matches!(Kind::of(p), Kind::Identifier | Kind::Attribute)
            {
                caught = self.expr(p, ctx);
            } else {
                self.visit(p, ctx);
            }
        }
    }

    /// Binds the target of `except E as e` (or of `with … as t`, where
    /// `caught` is unknown): in a function, `e` holds an instance of `E`
    /// (or of a subclass, which has `E`'s members too). A tuple of classes
    /// types nothing.
    ///
    /// In the clause's body `e` is that instance whatever else the name
    /// is bound to (`except A as e: …` `except B as e: …`): a
    /// [`Narrowing`] the clause drops at its end.
    fn bind_caught(&mut self, target: Node<'t>, caught: ValueId, ctx: Ctx, statement: Node<'t>) {
        if caught != UNKNOWN && Kind::of(target) == Kind::Identifier {
            let name = self.intern(self.text(target));
            let instance = self.push(Value::Call(caught));
            self.narrowed.push(Narrowing {
                scope: ctx.scope,
                name,
                instance,
            });
            let scope = &self.scopes[ctx.scope];
            if scope.kind == ScopeKind::Function && !scope.globals.contains(&name) {
                self.bind(
                    ctx.scope,
                    name,
                    instance,
                    (target, BindingKind::Other, statement),
                );
                return;
            }
        }
        self.bind_targets(target, ctx, false, BindingKind::Other, statement);
    }

    /// Binds the target of `with x as t` in a function to `entered`, what
    /// `x.__enter__()` returns (`with open_db() as db:`, where `__enter__`
    /// is annotated or returns `self`): a local, kept only if it is its
    /// sole binding, as an assignment's is. Elsewhere, or for a tuple
    /// target, the target holds nothing the index follows.
    fn bind_entered(&mut self, target: Node<'t>, entered: ValueId, ctx: Ctx, statement: Node<'t>) {
        if Kind::of(target) == Kind::Identifier
            && self.scopes[ctx.scope].kind == ScopeKind::Function
        {
            self.bind_local(target, entered, ctx, (BindingKind::Other, statement));
            return;
        }
        self.bind_targets(target, ctx, false, BindingKind::Other, statement);
    }

    /// Binds the identifier `target` in the function scope of `ctx` to
    /// `value` (a `global` name is the module's: its site is recorded).
    fn bind_local(
        &mut self,
        target: Node<'t>,
        value: ValueId,
        ctx: Ctx,
        (kind, statement): (BindingKind, Node<'t>),
    ) {
        let name = self.intern(self.text(target));
        if self.scopes[ctx.scope].globals.contains(&name) {
            self.add_site(target, 0, name, ctx);
        }
        self.bind(ctx.scope, name, value, (target, kind, statement));
    }

    /// `except E as e:`.
    fn except_clause(&mut self, node: Node<'t>, ctx: Ctx) {
        // `except E as e:` binds `e` (grammars that give the clause an
        // `alias` field; others nest an `as_pattern`, see above)
        let alias = field(node, fields().alias);
        let parts = self.named_children(node);
        let mut caught = UNKNOWN;
        let narrowed = self.narrowed.len();
        for p in parts {
            if Some(p) == alias {
                self.bind_caught(p, caught, ctx, node);
            } else if alias.is_some()
                && caught == UNKNOWN
                && matches!(Kind::of(p), Kind::Identifier | Kind::Attribute)
            {
                caught = self.expr(p, ctx);
            } else {
                self.visit(p, ctx);
            }
        }
        // `e` is the caught instance in this clause only
        self.narrowed.truncate(narrowed);
    }

    /// `a + b + c …`, `a and b or c …`.
    fn is_and(&self, node: Node<'t>) -> bool {
        field(node, fields().operator).is_some_and(|o| o.kind_id() == kinds().and)
    }

    /// `a and b and c`: each operand after an `isinstance(x, C)` sees `x`
    /// narrowed. Nested to the left like [`Self::operator_chain`].
    fn and_chain(&mut self, node: Node<'t>, ctx: Ctx) {
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
    fn conditional(&mut self, node: Node<'t>, ctx: Ctx) {
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
    fn narrow_by(&mut self, condition: Node<'t>, ctx: Ctx) {
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
    fn guard(&mut self, test: Node<'t>, body: Node<'t>, ctx: Ctx) -> Option<Narrowing> {
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

    /// `isinstance(name, C)` with `C` a name or dotted name (a tuple of
    /// classes narrows nothing): the narrowing, its class's value built
    /// without new references (the call's visit made them).
    fn isinstance_test(&mut self, test: Node<'t>, ctx: Ctx) -> Option<Narrowing> {
        if kind_name(test) != "call" {
            return None;
        }
        let callee = field(test, fields().function)?;
        if kind_name(callee) != "identifier" || self.text(callee) != "isinstance" {
            return None;
        }
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
        let instance = self.push(Value::Call(class));
        Some(Narrowing {
            scope: ctx.scope,
            name,
            instance,
        })
    }

    /// The value of a name or dotted name, as [`Self::expr`] computes it
    /// but recording no reference.
    fn quiet_value(&mut self, node: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        match kind_name(node) {
            "identifier" => {
                let name = self.intern(self.text(node));
                let slot = self.push(Value::Unknown);
                self.pending.push(Pending {
                    scope: ctx.scope,
                    name,
                    slot,
                });
                Some(slot)
            }
            "attribute" => {
                let base = self.quiet_value(field(node, fields().object)?, ctx)?;
                let name = self.intern(self.text(field(node, fields().attribute)?));
                Some(self.push(Value::Attr { base, name }))
            }
            _ => None,
        }
    }

    /// A function without a return annotation whose every `return` gives
    /// an instance of one class (`return Engine(…)`, or `return self` in a
    /// method) returns that class (`Def::returns`); `return None` or a bare
    /// `return` beside them counts as nothing returned. Anything else
    /// returned, a generator or an `async` function: nothing is inferred.
    fn inferred_returns(&mut self) {
        let returned = std::mem::take(&mut self.returned);
        let mut by_function: HashMap<DefId, Vec<ValueId>> = HashMap::default();
        for (function, value) in returned {
            by_function.entry(function).or_default().push(value);
        }
        for (function, values) in by_function {
            let def = &self.file.defs[function as usize];
            if def.returns.is_some()
                || !matches!(def.kind, SymbolKind::Function | SymbolKind::Method)
                || self.not_returning.contains(&function)
            {
                continue;
            }
            let mut class: Option<ValueId> = None;
            let mut typed = true;
            for v in values.into_iter().filter(|&v| v != UNKNOWN) {
                let candidate = match self.file.value(v) {
                    // `cls(…)` in a classmethod: its class
                    Value::Call(callee) => match self.file.self_class(callee) {
                        Some(c) => self.push(Value::Def(c)),
                        None => callee,
                    },
                    Value::Same(_) => match self.file.self_class(v) {
                        Some(c) => self.push(Value::Def(c)),
                        // a name bound once to a call: `bar = Bar(…)`, `return bar`
                        None => match self.file.called(v) {
                            Some(callee) => match self.file.self_class(callee) {
                                Some(c) => self.push(Value::Def(c)),
                                None => callee,
                            },
                            None => {
                                typed = false;
                                break;
                            }
                        },
                    },
                    _ => {
                        typed = false;
                        break;
                    }
                };
                match class {
                    None => class = Some(candidate),
                    Some(c) if self.same_value(c, candidate, 0) => {}
                    Some(_) => {
                        typed = false;
                        break;
                    }
                }
            }
            if typed {
                if let Some(c) = class {
                    self.file.defs[function as usize].returns = Some(c);
                }
            }
        }
    }

    /// Whether two values are the same expression of the same bindings
    /// (`Engine()` in two methods), through `Same`.
    fn same_value(&self, a: ValueId, b: ValueId, depth: usize) -> bool {
        if a == b {
            return true;
        }
        if depth > 8 {
            return false;
        }
        let (a, b) = (self.file.through_same(a), self.file.through_same(b));
        if a == b {
            return true;
        }
        match (self.file.value(a), self.file.value(b)) {
            (Value::Call(x), Value::Call(y)) => self.same_value(x, y, depth + 1),
            (Value::Attr { base: x, name: n }, Value::Attr { base: y, name: m }) => {
                n == m && self.same_value(x, y, depth + 1)
            }
            (x, y) => x == y && !matches!(x, Value::Unknown),
        }
    }

    /// `self.name` (through `Same`): the class and the name.
    fn self_attribute(&self, value: ValueId) -> Option<(DefId, Name)> {
        let Value::Attr { base, name } = self.file.value(value) else {
            return None;
        };
        Some((self.file.self_class(base)?, name))
    }

    /// What an annotation says a name holds: an instance of the class it
    /// names (`C`, `m.C`, `"C"`, `Optional[C]`, `C | None`), else nothing.
    /// Built without references (the annotation's visit made them).
    fn annotated(&mut self, ty: Node<'t>, ctx: Ctx) -> ValueId {
        if let Some(collection) = self.annotated_collection(ty, ctx) {
            return collection;
        }
        match self.annotation_class(ty, ctx, 0) {
            Some(class) => self.push(Value::Call(class)),
            None => UNKNOWN,
        }
    }

    /// A collection an annotation names, of instances of a class:
    /// `Items` for `list[C]`, `Sequence[C]`, `set[C]`, `Iterator[C]`,
    /// `"list[C]"`; `Values` for `dict[K, C]`, `Mapping[K, C]`.
    fn annotated_collection(&mut self, ty: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let (class, mapping) = match self.collection_item_class(ty, ctx) {
            Some(class) => (class, false),
            None => (self.mapping_value_class(ty, ctx)?, true),
        };
        let item = self.push(Value::Call(class));
        Some(self.push(if mapping {
            Value::Values(item)
        } else {
            Value::Items(item)
        }))
    }

    /// The class of the values of a mapping an annotation names:
    /// `dict[str, C]`, `Mapping[str, C]`, `defaultdict[str, C]`.
    fn mapping_value_class(&mut self, ty: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let node = annotation_expression(ty)?;
        let (generic, value) = match kind_name(node) {
            "generic_type" => {
                let parameter = node.named_child(1)?;
                if parameter.named_child_count() != 2 {
                    return None;
                }
                (node.named_child(0)?, parameter.named_child(1)?)
            }
            "subscript" => {
                let args = self.children_in(fields().subscript, node);
                let [_, value] = args.as_slice() else {
                    return None;
                };
                (field(node, fields().value)?, *value)
            }
            _ => return None,
        };
        if !is_mapping(self.text(generic)) {
            return None;
        }
        self.annotation_class(value, ctx, 1)
    }

    /// The class of the items of a collection an annotation names:
    /// `list[C]`, `Sequence[C]`, `set[C]`, `Iterator[C]`, `"list[C]"`
    /// (what iterating it gives; mappings and tuples are left out).
    fn collection_item_class(&mut self, ty: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let node = annotation_expression(ty)?;
        match kind_name(node) {
            "generic_type" => {
                let generic = node.named_child(0)?;
                let parameter = node.named_child(1)?;
                if !is_collection(self.text(generic)) || parameter.named_child_count() != 1 {
                    return None;
                }
                self.annotation_class(parameter.named_child(0)?, ctx, 1)
            }
            "subscript" => {
                let generic = field(node, fields().value)?;
                if !is_collection(self.text(generic)) {
                    return None;
                }
                let inner = node.child_by_field_name("subscript")?;
                if node.named_child_count() != 2 {
                    return None; // `Generator[C, None, None]` and the like
                }
                self.annotation_class(inner, ctx, 1)
            }
            "string" => {
                let content = string_content(node)?;
                let text = self.text(content).trim();
                let (generic, inner) = text.strip_suffix(']')?.split_once('[')?;
                if !is_collection(generic.trim()) || inner.contains([',', '[']) {
                    return None;
                }
                self.quiet_dotted(inner, ctx)
            }
            _ => None,
        }
    }

    fn annotation_class(&mut self, node: Node<'t>, ctx: Ctx, depth: usize) -> Option<ValueId> {
        if depth > 4 {
            return None;
        }
        let node = unparenthesized(node);
        match kind_name(node) {
            "type" => self.annotation_class(node.named_child(0)?, ctx, depth + 1),
            // `typing.Self` in a class's methods: that class
            "identifier" | "attribute"
                if ctx.class.is_some() && {
                    let text = self.text(node);
                    text == "Self" || text.ends_with(".Self")
                } =>
            {
                ctx.class.map(|c| self.push(Value::Def(c)))
            }
            "identifier" | "attribute" => self.quiet_value(node, ctx),
            "string" => {
                let parts = self.named_children(node);
                let [_, content, _] = parts.as_slice() else {
                    return None;
                };
                if kind_name(*content) != "string_content" {
                    return None;
                }
                // the same shapes, written as text: `"Optional[C]"`, `"C | None"`
                let mut text = self.text(*content).trim();
                for _ in 0..4 {
                    let inner = text
                        .strip_prefix("Optional[")
                        .or_else(|| text.strip_prefix("typing.Optional["))
                        .and_then(|t| t.strip_suffix(']'))
                        .or_else(|| text.strip_suffix("| None"))
                        .or_else(|| text.strip_prefix("None |"));
                    match inner {
                        Some(inner) => text = inner.trim(),
                        None => break,
                    }
                }
                // `"Bar[V]"`: `Bar`; `"Final[C]"`: `C`; as above
                if let Some((generic, inner)) =
                    text.strip_suffix(']').and_then(|t| t.split_once('['))
                {
                    text = match subscripted(generic.trim()) {
                        Subscripted::Generic => generic.trim(),
                        Subscripted::Wrapper => inner.split(',').next().unwrap_or_default().trim(),
                        Subscripted::Typing => return None,
                    };
                }
                self.quiet_dotted(text, ctx)
            }
            // `Optional[C]`
            "generic_type" => {
                let generic = node.named_child(0)?;
                let parameter = node.named_child(1)?;
                if self.text(generic) != "Optional" {
                    return match subscripted(self.text(generic)) {
                        Subscripted::Wrapper => {
                            self.annotation_class(parameter.named_child(0)?, ctx, depth + 1)
                        }
                        Subscripted::Generic => self.annotation_class(generic, ctx, depth + 1),
                        Subscripted::Typing => None,
                    };
                }
                if parameter.named_child_count() != 1 {
                    return None;
                }
                self.annotation_class(parameter.named_child(0)?, ctx, depth + 1)
            }
            // `typing.Optional[C]`
            "subscript" => {
                let generic = field(node, fields().value)?;
                let text = self.text(generic);
                if !(text == "Optional" || text.ends_with(".Optional")) {
                    // `typing.Final[C]`, `pkg.Bar[V]`: as above
                    return match subscripted(text) {
                        Subscripted::Wrapper => {
                            let inner = node.child_by_field_name("subscript")?;
                            self.annotation_class(inner, ctx, depth + 1)
                        }
                        Subscripted::Generic => self.annotation_class(generic, ctx, depth + 1),
                        Subscripted::Typing => None,
                    };
                }
                let inner = node.child_by_field_name("subscript")?;
                self.annotation_class(inner, ctx, depth + 1)
            }
            // `C | None`, `None | C`
            "binary_operator" => {
                let (left, right) = (field(node, fields().left)?, field(node, fields().right)?);
                match (kind_name(left), kind_name(right)) {
                    (_, "none") => self.annotation_class(left, ctx, depth + 1),
                    ("none", _) => self.annotation_class(right, ctx, depth + 1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A dotted name written in a string (`"pkg.C"`), as [`Self::quiet_value`].
    fn quiet_dotted(&mut self, text: &str, ctx: Ctx) -> Option<ValueId> {
        let text = text.trim();
        if !is_dotted_name(text) {
            return None;
        }
        let mut value = None;
        for part in text.split('.') {
            let name = self.intern(part);
            value = Some(match value {
                None => {
                    let slot = self.push(Value::Unknown);
                    self.pending.push(Pending {
                        scope: ctx.scope,
                        name,
                        slot,
                    });
                    slot
                }
                Some(base) => self.push(Value::Attr { base, name }),
            });
        }
        value
    }

    fn operator_chain(&mut self, node: Node<'t>, ctx: Ctx) {
        // Long chains (`a + b + c …`) nest to the left: walk the left
        // spine in a loop instead of recursing once per operator.
        let mut rights = Vec::new();
        let mut left = node;
        while kind_name(left) == "binary_operator"
            || (kind_name(left) == "boolean_operator" && !self.is_and(left))
        {
            if let Some(r) = field(left, fields().right) {
                rights.push(r);
            }
            match field(left, fields().left) {
                Some(l) => left = l,
                None => break,
            }
        }
        if left != node {
            self.visit(left, ctx);
        }
        for r in rights.into_iter().rev() {
            self.visit(r, ctx);
        }
    }

    /// Visits an expression and returns its value.
    fn expr(&mut self, node: Node<'t>, ctx: Ctx) -> ValueId {
        let Some(ctx) = self.deeper(ctx) else {
            return UNKNOWN;
        };
        match Kind::of(node) {
            Kind::Identifier => {
                let text = self.text(node);
                let name = self.intern(text);
                self.model_ref(node, name, ctx.scope);
                let scope = &self.scopes[ctx.scope];
                if scope.kind == ScopeKind::Module
                    && is_builtin(text)
                    && !scope.bindings.contains_key(&name)
                {
                    // Module code runs in order: a builtin's name read before
                    // the module binds it (`sorted = sorted`) is the builtin.
                    let v = self.free(name);
                    self.add_ref(node, v, ctx);
                    return v;
                }
                let slot = self.push(Value::Unknown);
                self.pending.push(Pending {
                    scope: ctx.scope,
                    name,
                    slot,
                });
                self.add_ref(node, slot, ctx);
                self.narrowed
                    .iter()
                    .rev()
                    .find(|n| n.scope == ctx.scope && n.name == name)
                    .map_or(slot, |n| n.instance)
            }
            Kind::Attribute => {
                let [object, attribute] =
                    self.fields_of(node, [fields().object, fields().attribute]);
                let base = match object {
                    Some(o) => self.expr(o, ctx),
                    None => UNKNOWN,
                };
                match attribute {
                    Some(a) => {
                        let name = self.intern(self.text(a));
                        self.model_attribute(node, a, name, ctx.scope);
                        let v = self.push(Value::Attr { base, name });
                        self.add_ref(a, v, ctx);
                        v
                    }
                    None => UNKNOWN,
                }
            }
            Kind::Call => {
                let [function, arguments] =
                    self.fields_of(node, [fields().function, fields().arguments]);
                let mut callee = UNKNOWN;
                if let Some(f) = function {
                    let before = self.file.refs.len();
                    callee = self.expr(f, ctx);
                    if matches!(Kind::of(f), Kind::Identifier | Kind::Attribute)
                        && self.file.refs.len() > before
                    {
                        if let Some(r) = self.file.refs.last_mut() {
                            r.is_call = true;
                        }
                    }
                }
                let is_super = function
                    .is_some_and(|f| Kind::of(f) == Kind::Identifier && self.text(f) == "super");
                let mut explicit_class = None;
                if let Some(args) = arguments {
                    if is_super {
                        explicit_class = self.super_arguments(args, ctx);
                    } else {
                        self.visit(args, ctx);
                    }
                }
                match (explicit_class, ctx.method_of) {
                    (Some(class), _) => self.push(Value::SuperOf(class)),
                    (None, Some(class)) if is_super => self.push(Value::Super(class)),
                    _ => self.push(Value::Call(callee)),
                }
            }
            // `xs[i]`, `by_name[k]`: an item (a slice `xs[1:]` is not one)
            Kind::Subscript => {
                let base = field(node, fields().value).map_or(UNKNOWN, |v| self.expr(v, ctx));
                let mut sliced = false;
                for index in self.children_in(fields().subscript, node) {
                    sliced |= kind_name(index) == "slice";
                    self.visit(index, ctx);
                }
                if base == UNKNOWN || sliced {
                    UNKNOWN
                } else {
                    self.push(Value::Index(base))
                }
            }
            Kind::ParenthesizedExpression => match node.named_child(0) {
                Some(inner) if node.named_child_count() == 1 => self.expr(inner, ctx),
                _ => {
                    self.children(node, ctx);
                    UNKNOWN
                }
            },
            _ => {
                self.visit(node, ctx);
                UNKNOWN
            }
        }
    }

    /// Visits the arguments of a `super(…)` call; returns the value of the
    /// class of `super(C, obj)` when the call names one (a bare `super()`
    /// or a `super(*args)` does not).
    fn super_arguments(&mut self, args: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let mut arguments = self.named_children(args);
        arguments.retain(|&a| kind_name(a) != "comment");
        let mut class = None;
        for (i, argument) in arguments.into_iter().enumerate() {
            let positional = !matches!(
                kind_name(argument),
                "keyword_argument" | "list_splat" | "dictionary_splat"
            );
            if i == 0 && positional {
                class = Some(self.expr(argument, ctx));
            } else {
                self.visit(argument, ctx);
            }
        }
        class
    }

    /// A `match` pattern: bare names capture (bind), dotted names are
    /// values read (`Color.RED`), class patterns read their class
    /// (`Point(x=0)`; the keyword names attributes, not variables).
    fn pattern(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(ctx) = self.deeper(ctx) else {
            return;
        };
        match kind_name(node) {
            "dotted_name" if node.named_child_count() == 1 => {
                if let Some(id) = node.named_child(0) {
                    self.bind_targets(id, ctx, false, BindingKind::Other, node);
                }
            }
            "dotted_name" => {
                self.dotted_value(node, ctx);
            }
            "identifier" => self.bind_targets(node, ctx, false, BindingKind::Other, node),
            "class_pattern" => {
                let parts = self.named_children(node);
                for (i, p) in parts.into_iter().enumerate() {
                    if i == 0 && kind_name(p) == "dotted_name" {
                        self.dotted_value(p, ctx);
                    } else {
                        self.pattern(p, ctx);
                    }
                }
            }
            "keyword_pattern" => {
                let parts = self.named_children(node);
                for p in parts.into_iter().skip(1) {
                    self.pattern(p, ctx);
                }
            }
            "string" | "integer" | "float" | "true" | "false" | "none" | "comment" => {}
            _ => self.children_patterns(node, ctx),
        }
    }

    fn children_patterns(&mut self, node: Node<'t>, ctx: Ctx) {
        let parts = self.named_children(node);
        for p in parts {
            self.pattern(p, ctx);
        }
    }

    /// `a.b.c` read as a value: a use of `a`, then of each attribute.
    fn dotted_value(&mut self, node: Node<'t>, ctx: Ctx) {
        let parts = self.named_children(node);
        let mut value = UNKNOWN;
        for (i, p) in parts.into_iter().enumerate() {
            if i == 0 {
                value = self.expr(p, ctx);
            } else {
                let name = self.intern(self.text(p));
                value = self.push(Value::Attr { base: value, name });
                self.add_ref(p, value, ctx);
            }
        }
    }

    /// `del a, b[i], c.d`: in a function `del a` makes `a` local (it is a
    /// use of the local, not of a global); at module or class level it is
    /// a use of the variable. Subscripts and attributes are uses.
    fn delete(&mut self, node: Node<'t>, ctx: Ctx) {
        let targets = self.named_children(node);
        for t in targets {
            match kind_name(t) {
                "identifier" if self.scopes[ctx.scope].kind == ScopeKind::Function => {
                    // a use of the local it makes
                    let id = self.intern(self.text(t));
                    self.model_ref(t, id, ctx.scope);
                    self.bind(ctx.scope, id, UNKNOWN, (t, BindingKind::Other, node));
                }
                "expression_list" | "tuple" | "list" | "parenthesized_expression" => {
                    self.delete(t, ctx)
                }
                _ => self.visit(t, ctx),
            }
        }
    }

    /// Binds the names of an assignment-like target. `defines`: an
    /// assignment, whose targets at module or class level are definitions.
    fn target(&mut self, node: Node<'t>, ctx: Ctx, defines: bool) {
        let Some(ctx) = self.deeper(ctx) else {
            return;
        };
        match kind_name(node) {
            "identifier" => {
                let text = self.text(node);
                let name = self.intern(text);
                let kind = match self.scopes[ctx.scope].kind {
                    ScopeKind::Module if defines => Some(SymbolKind::Variable),
                    ScopeKind::Class if defines => Some(SymbolKind::Attribute),
                    _ => None,
                };
                let value = match kind {
                    Some(kind) => {
                        let pos = self.pos(node);
                        let v = self.define(text, name, kind, pos, pos, ctx);
                        if self.rhs != UNKNOWN {
                            if let Some(d) = self.file.defs.last_mut() {
                                d.value = Some(self.rhs);
                            }
                        }
                        v
                    }
                    None => {
                        // rebinds a module or class variable without defining it
                        let scope = &self.scopes[ctx.scope];
                        if scope.globals.contains(&name) {
                            self.add_site(node, 0, name, ctx);
                        } else if matches!(scope.kind, ScopeKind::Module | ScopeKind::Class) {
                            self.add_site(node, ctx.scope, name, ctx);
                        }
                        UNKNOWN
                    }
                };
                let statement = self.target_statement.unwrap_or(node);
                self.bind(ctx.scope, name, value, (node, self.target_kind, statement));
            }
            "list_splat_pattern" | "list_splat" => {
                if let Some(inner) = node.named_child(0) {
                    self.target(inner, ctx, defines);
                }
            }
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "tuple"
            | "list"
            | "expression_list"
            | "parenthesized_expression" => {
                let parts = self.named_children(node);
                let outer = self.target_kind;
                if outer == BindingKind::Assignment {
                    self.target_kind = BindingKind::Unpacking;
                }
                for p in parts {
                    self.target(p, ctx, defines);
                }
                self.target_kind = outer;
            }
            "attribute" => {
                // `self.x = …` may define an instance attribute (see `finish`).
                let assigned = std::mem::replace(&mut self.rhs, UNKNOWN);
                let value = self.expr(node, ctx);
                if value != UNKNOWN && !self.file.refs.is_empty() {
                    self.attr_writes.push(AttrWrite {
                        reference: self.file.refs.len() - 1,
                        value,
                        assigned,
                    });
                }
            }
            _ => {
                // `a[i] = …`: uses, not bindings.
                self.expr(node, ctx);
            }
        }
    }

    fn qualified(&self, parent: Option<DefId>, name: &str) -> String {
        match parent {
            Some(p) => format!("{}.{}", self.file.defs[p as usize].qualified, name),
            None => name.to_string(),
        }
    }

    /// Adds a definition owned by `ctx.owner` and returns its value.
    fn define(
        &mut self,
        text: &str,
        name: Name,
        kind: SymbolKind,
        position: Position,
        name_position: Position,
        ctx: Ctx,
    ) -> ValueId {
        let id = self.file.defs.len() as DefId;
        self.file.defs.push(Def {
            name,
            qualified: self.qualified(ctx.owner, text),
            kind,
            position,
            name_position,
            parent: ctx.owner,
            bases: Vec::new(),
            instance: false,
            value: None,
            returns: None,
        });
        if let Some(class) = ctx.class {
            self.file.members.entry(class).or_default().push(id);
        }
        self.push(Value::Def(id))
    }

    fn function(&mut self, node: Node<'t>, decorators: Option<&[Node<'t>]>, ctx: Ctx) {
        let f = fields();
        let [name_node, return_type, parameters, body] =
            self.fields_of(node, [f.name, f.return_type, f.parameters, f.body]);
        let Some(name_node) = name_node else {
            return self.children(node, ctx);
        };
        let text = self.text(name_node);
        let name = self.intern(text);
        let kind = if ctx.class.is_some() {
            SymbolKind::Method
        } else {
            SymbolKind::Function
        };
        let (pos, name_pos) = (self.pos(node), self.pos(name_node));
        let value = self.define(text, name, kind, pos, name_pos, ctx);
        let def = (self.file.defs.len() - 1) as DefId;
        self.bind(
            ctx.scope,
            name,
            value,
            (name_node, BindingKind::Function, node),
        );
        let is_static = decorators.is_some_and(|ds| {
            ds.iter().any(|d| {
                d.named_child(0)
                    .is_some_and(|e| self.text(e) == "staticmethod")
            })
        });
        // Annotations and defaults are evaluated in the enclosing scope.
        if let Some(ret) = return_type {
            match ret.named_child(0) {
                Some(e)
                    if ret.named_child_count() == 1
                        && matches!(kind_name(e), "identifier" | "attribute") =>
                {
                    let v = self.annotation(|s| s.expr(e, ctx));
                    let text = self.text(e);
                    self.file.defs[def as usize].returns =
                        if ctx.class.is_some() && (text == "Self" || text.ends_with(".Self")) {
                            self.annotation_class(e, ctx, 0)
                        } else {
                            Some(v)
                        };
                }
                _ => {
                    self.annotation(|s| s.visit(ret, ctx));
                    // `-> "C"`, `-> Optional[C]`, `-> C | None`; `-> list[C]`
                    let returns = match self.annotated_collection(ret, ctx) {
                        Some(collection) => Some(collection),
                        None => self.annotation_class(ret, ctx, 0),
                    };
                    self.file.defs[def as usize].returns = returns;
                }
            }
            self.string_annotations(ret, ctx);
        }
        if node.child(0).is_some_and(|c| kind_name(c) == "async") {
            self.not_returning.push(def);
        }
        let scope = self.new_scope(ScopeKind::Function, ctx.scope, node, Some(name));
        let inner = Ctx {
            scope,
            owner: Some(def),
            class: None,
            method_of: ctx.class,
            depth: ctx.depth,
        };
        if let Some(params) = parameters {
            let self_class = match ctx.class {
                Some(c) if !is_static => Some(c),
                _ => None,
            };
            self.parameters(params, ctx, inner, self_class);
        }
        if let Some(body) = body {
            self.children(body, inner);
        }
    }

    /// Binds parameters in `inner`, visits defaults and annotations in `outer`.
    fn parameters(&mut self, params: Node<'t>, outer: Ctx, inner: Ctx, self_class: Option<DefId>) {
        // a comment is no parameter: `def loads(  # type: ignore\n self, …)`
        let mut list = self.named_children(params);
        list.retain(|&p| kind_name(p) != "comment");
        for (i, p) in list.into_iter().enumerate() {
            // most parameters are a bare name, which has no fields
            let [default, ty] = match kind_name(p) {
                "identifier" => [None, None],
                _ => self.fields_of(p, [fields().value, fields().r#type]),
            };
            if let Some(v) = default {
                self.visit(v, outer);
            }
            if let Some(t) = ty {
                self.annotation(|s| s.visit(t, outer));
                self.string_annotations(t, outer);
            }
            if let Some(id) = parameter_identifier(p) {
                let name = self.intern(self.text(id));
                if i == 0 {
                    self.scopes[inner.scope].first_param = Some(name);
                }
                let value = match (self_class, ty) {
                    (Some(c), _) if i == 0 && kind_name(p) == "identifier" => {
                        self.push(Value::SelfOf(c))
                    }
                    // `e: Engine` is an Engine (`*args: T` and `**kw: T` are not)
                    (_, Some(t))
                        if matches!(
                            kind_name(p),
                            "typed_parameter" | "typed_default_parameter"
                        ) && !matches!(
                            p.named_child(0).map(kind_name),
                            Some("list_splat_pattern" | "dictionary_splat_pattern")
                        ) =>
                    {
                        self.annotated(t, outer)
                    }
                    _ => UNKNOWN,
                };
                self.bind(inner.scope, name, value, (id, BindingKind::Parameter, p));
            }
        }
    }

    fn class(&mut self, node: Node<'t>, _decorators: Option<&[Node<'t>]>, ctx: Ctx) {
        let f = fields();
        let [name_node, superclasses, body] =
            self.fields_of(node, [f.name, f.superclasses, f.body]);
        let Some(name_node) = name_node else {
            return self.children(node, ctx);
        };
        let text = self.text(name_node);
        let name = self.intern(text);
        let mut bases = Vec::new();
        if let Some(args) = superclasses {
            let list = self.named_children(args);
            for a in list {
                if kind_name(a) == "keyword_argument" || kind_name(a) == "comment" {
                    self.visit(a, ctx);
                } else if kind_name(a) == "subscript" {
                    // a generic base, `Serializer[T]`: the class is `Serializer`
                    let value = field(a, fields().value);
                    let mut base = UNKNOWN;
                    let parts = self.named_children(a);
                    for part in parts {
                        if Some(part) == value {
                            base = self.expr(part, ctx);
                        } else {
                            self.visit(part, ctx);
                        }
                    }
                    bases.push(base);
                } else {
                    bases.push(self.expr(a, ctx));
                }
            }
        }
        let (pos, name_pos) = (self.pos(node), self.pos(name_node));
        let value = self.define(text, name, SymbolKind::Class, pos, name_pos, ctx);
        let def = (self.file.defs.len() - 1) as DefId;
        self.file.defs[def as usize].bases = bases;
        self.bind(
            ctx.scope,
            name,
            value,
            (name_node, BindingKind::Class, node),
        );
        let scope = self.new_scope(ScopeKind::Class, ctx.scope, node, Some(name));
        if let Some(body) = body {
            let inner = Ctx {
                scope,
                owner: Some(def),
                class: Some(def),
                method_of: None,
                depth: ctx.depth,
            };
            self.children(body, inner);
        }
    }

    fn lambda(&mut self, node: Node<'t>, ctx: Ctx) {
        let scope = self.new_scope(ScopeKind::Lambda, ctx.scope, node, None);
        let inner = Ctx {
            scope,
            class: None,
            ..ctx
        };
        if let Some(params) = field(node, fields().parameters) {
            self.parameters(params, ctx, inner, None);
        }
        if let Some(body) = field(node, fields().body) {
            self.visit(body, inner);
        }
    }

    fn comprehension(&mut self, node: Node<'t>, ctx: Ctx) {
        let scope = self.new_scope(ScopeKind::Comprehension, ctx.scope, node, None);
        let inner = Ctx {
            scope,
            class: None,
            ..ctx
        };
        let parts = self.named_children(node);
        let mut first = true;
        for p in parts {
            if kind_name(p) == "for_in_clause" {
                let mut c = p.walk();
                let rights: Vec<Node<'t>> = p
                    .children_by_field_name("right", &mut c)
                    .filter(|r| r.is_named())
                    .collect();
                // the first iterable is evaluated outside the comprehension
                let at = if first { ctx } else { inner };
                let iterated = match rights.as_slice() {
                    [one] => self.iterated(*one, at),
                    _ => {
                        for r in rights {
                            self.visit(r, at);
                        }
                        Iterated::Items(UNKNOWN)
                    }
                };
                first = false;
                if let Some(left) = field(p, fields().left) {
                    self.bind_iterated(left, iterated, inner, p);
                }
            } else {
                self.visit(p, inner);
            }
        }
    }

    fn new_scope(
        &mut self,
        kind: ScopeKind,
        parent: usize,
        node: Node<'t>,
        name: Option<Name>,
    ) -> usize {
        let mut scope = Scope::new(kind, Some(parent));
        scope.range = node.byte_range();
        scope.name = name;
        self.scopes.push(scope);
        self.scopes.len() - 1
    }

    fn dotted(&self, node: Node<'t>) -> String {
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .map(|n| self.text(n))
            .collect::<Vec<_>>()
            .join(".")
    }

    fn import(&mut self, node: Node<'t>, ctx: Ctx) {
        let names = self.children_in(fields().name, node);
        for n in names {
            let (dotted_node, alias) = match kind_name(n) {
                "aliased_import" => (field(n, fields().name), field(n, fields().alias)),
                _ => (Some(n), None),
            };
            let Some(dotted_node) = dotted_node else {
                continue;
            };
            let module = self.dotted(dotted_node);
            if module.is_empty() {
                continue;
            }
            let position = self.pos(dotted_node);
            self.file.imports.push(Import {
                kind: ImportKind::Module,
                module: module.clone(),
                name: None,
                position,
                relative: false,
            });
            match alias {
                Some(a) => {
                    let m = self.intern_owned(module);
                    let v = self.push(Value::Module(m));
                    let id = self.intern(self.text(a));
                    self.bind(ctx.scope, id, v, (a, BindingKind::Import, node));
                }
                None => {
                    // `import a.b` binds `a`
                    let first = dotted_node.named_child(0).unwrap_or(dotted_node);
                    let id = self.intern(self.text(first));
                    let v = self.push(Value::Module(id));
                    self.bind(ctx.scope, id, v, (first, BindingKind::Import, node));
                }
            }
        }
    }

    fn import_from(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(module_node) = field(node, fields().module_name) else {
            return;
        };
        let (module, relative) = if kind_name(module_node) == "relative_import" {
            let mut level = 0;
            let mut rest = String::new();
            let mut cursor = module_node.walk();
            for c in module_node.named_children(&mut cursor) {
                match kind_name(c) {
                    "import_prefix" => level = self.text(c).chars().filter(|&ch| ch == '.').count(),
                    "dotted_name" => rest = self.dotted(c),
                    _ => {}
                }
            }
            (
                module_path::absolute(&self.package, level.max(1), &rest).unwrap_or_default(),
                true,
            )
        } else {
            (self.dotted(module_node), false)
        };
        let position = self.pos(module_node);
        let m = self.intern_owned(module.clone());
        let mut cursor = node.walk();
        let star = node
            .named_children(&mut cursor)
            .any(|c| kind_name(c) == "wildcard_import");
        if star {
            self.file.imports.push(Import {
                kind: ImportKind::Star,
                module: module.clone(),
                name: None,
                position,
                relative,
            });
            if ctx.scope == 0 && !module.is_empty() {
                self.file.stars.push(module);
            }
            if let Some(m) = self.model.as_mut() {
                m.star_import = true;
            }
            return;
        }
        let names = self.children_in(fields().name, node);
        for n in names {
            let (name_node, alias) = match kind_name(n) {
                "aliased_import" => (field(n, fields().name), field(n, fields().alias)),
                _ => (Some(n), None),
            };
            let Some(name_node) = name_node else {
                continue;
            };
            let name_text = self.dotted(name_node);
            self.file.imports.push(Import {
                kind: ImportKind::From,
                module: module.clone(),
                name: Some(name_text.clone()),
                position,
                relative,
            });
            let name = self.intern_owned(name_text.clone());
            let (bound, bound_node) = match alias {
                Some(a) => (self.intern(self.text(a)), a),
                None => {
                    let last = name_node.named_child_count().saturating_sub(1);
                    (name, name_node.named_child(last).unwrap_or(name_node))
                }
            };
            let site = (bound_node, BindingKind::Import, node);
            if module.is_empty() {
                // a relative import above the top-level package
                self.bind(ctx.scope, bound, UNKNOWN, site);
                continue;
            }
            let v = self.push(Value::Member { module: m, name });
            self.add_ref(name_node, v, ctx);
            if alias.is_some_and(|a| self.text(a) == name_text) {
                // `import f as f` binds what it imports: a rename changes both
                self.push_site(bound_node, v, ctx);
            }
            self.bind(ctx.scope, bound, v, site);
        }
    }

    /// The statement an assignment is (its `expression_statement`), for the
    /// full model's binding ranges; the index keeps none, and
    /// `Node::parent` walks down from the root, so it is not asked then.
    fn statement_of(&self, assignment: Node<'t>) -> Node<'t> {
        if self.model.is_none() {
            return assignment;
        }
        assignment
            .parent()
            .filter(|&p| kind_name(p) == "expression_statement")
            .unwrap_or(assignment)
    }

    /// `__all__ = …` / `__all__ += …` at module level.
    fn is_all(&self, node: Node<'t>) -> bool {
        field(node, fields().left).is_some_and(|l| self.text(l) == "__all__")
    }

    fn dunder_all(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(right) = field(node, fields().right) else {
            return;
        };
        self.visit(right, ctx);
        let statement = self.statement_of(node);
        if !matches!(kind_name(right), "list" | "tuple") {
            self.all_dynamic = true;
            if kind_name(node) == "assignment" {
                if let Some(left) = field(node, fields().left) {
                    self.bind_targets(left, ctx, true, BindingKind::Assignment, statement);
                }
            }
            return;
        }
        let mut names = Vec::new();
        let mut cursor = right.walk();
        for item in right.named_children(&mut cursor) {
            let text = self.text(item);
            let inner = text
                .strip_prefix(['"', '\''])
                .and_then(|t| t.strip_suffix(['"', '\'']));
            match inner {
                Some(name) if kind_name(item) == "string" => {
                    if let Some(content) = string_content(item) {
                        let id = self.intern(name);
                        self.add_site(content, 0, id, ctx);
                    }
                    names.push(name.into())
                }
                _ if kind_name(item) == "comment" => {}
                _ => self.all_dynamic = true,
            }
        }
        if kind_name(node) == "assignment" {
            if let Some(left) = field(node, fields().left) {
                self.bind_targets(left, ctx, true, BindingKind::Assignment, statement);
            }
            self.file.all = Some(names);
        } else {
            self.file.all.get_or_insert_with(Vec::new).extend(names);
            if let Some(left) = field(node, fields().left) {
                // `__all__ += …` reads and rebinds `__all__`
                let id = self.intern("__all__");
                self.model_ref(left, id, ctx.scope);
                self.bind(
                    ctx.scope,
                    id,
                    UNKNOWN,
                    (left, BindingKind::Assignment, node),
                );
            }
        }
    }

    /// `obj.name` with a plain name as `obj`, for the full model.
    fn model_attribute(&mut self, node: Node<'t>, attribute: Node<'t>, name: Name, scope: usize) {
        if self.model.is_none() {
            return;
        }
        let Some(object) = field(node, fields().object).filter(|&o| kind_name(o) == "identifier")
        else {
            return;
        };
        let object = self.intern(self.text(object));
        if let Some(m) = self.model.as_mut() {
            m.attributes.push(ModelAttribute {
                object,
                object_resolved: None,
                attribute: name,
                attribute_range: attribute.byte_range(),
                scope,
            });
        }
    }

    /// `from __future__ import …` binds the features' names, kept apart
    /// from the bindings (compiler directives, never renamed).
    fn future_import(&mut self, node: Node<'t>) {
        if self.model.is_none() {
            return;
        }
        let names = self.children_in(fields().name, node);
        for n in names {
            let (feature, id) = match kind_name(n) {
                "aliased_import" => (field(n, fields().name), field(n, fields().alias)),
                _ => (Some(n), n.named_child(0)),
            };
            let annotations = feature.is_some_and(|f| self.text(f) == "annotations");
            let id = id.map(|id| self.intern(self.text(id)));
            if let Some(m) = self.model.as_mut() {
                m.future_annotations |= annotations;
                m.future_imports.extend(id);
            }
        }
    }

    // -- after the walk -----------------------------------------------------

    fn finish(mut self) -> FileIndex {
        self.resolve_bindings();
        self.finish_index()
    }

    /// The full model: bindings moved by `nonlocal`, every read resolved.
    fn finish_model(mut self) -> Model {
        self.resolve_bindings();
        let mut m = self.model.take().unwrap_or_default();
        let scopes = &self.scopes;
        for b in &mut m.bindings {
            // `nonlocal x`: x binds in the nearest enclosing function binding it
            if scopes[b.scope].nonlocals.contains(&b.name) {
                let mut p = scopes[b.scope].parent;
                while let Some(i) = p {
                    if scopes[i].kind == ScopeKind::Function
                        && scopes[i].resolved.contains_key(&b.name)
                    {
                        b.scope = i;
                        break;
                    }
                    p = scopes[i].parent;
                }
            }
        }
        let resolve = |name: Name, scope: usize| lookup(&NameIn { scopes, name }, scope);
        for r in &mut m.references {
            r.resolved = resolve(r.name, r.scope);
        }
        for a in &mut m.attributes {
            a.object_resolved = resolve(a.object, a.scope);
        }
        m.bindings.sort_by_key(|b| b.range.start);
        m.references.sort_by_key(|r| r.range.start);
        m.attributes.sort_by_key(|a| a.attribute_range.start);
        m.scopes = scopes
            .iter()
            .map(|s| ModelScope {
                kind: s.kind,
                parent: s.parent,
                name: s.name,
                range: s.range.clone(),
                globals: s.globals.clone(),
                nonlocals: s.nonlocals.clone(),
                first_param: s.first_param,
                uses_locals: s.uses_locals,
            })
            .collect();
        m.names = std::mem::take(&mut self.file.names);
        m.truncated = self.file.truncated;
        m
    }

    /// The value of every bound name of every scope.
    fn resolve_bindings(&mut self) {
        for i in 0..self.scopes.len() {
            let bindings = std::mem::take(&mut self.scopes[i].bindings);
            let local =
                self.scopes[i].kind != ScopeKind::Module && self.scopes[i].kind != ScopeKind::Class;
            for (name, mut values) in bindings {
                if local && values.len() > 1 && values.contains(&UNKNOWN) {
                    values.clear();
                }
                values.retain(|&v| v != UNKNOWN);
                values.dedup();
                let v = match values.len() {
                    0 => UNKNOWN,
                    1 => values[0],
                    n => {
                        let start = self.file.unions.len() as u32;
                        self.file.unions.extend(values);
                        self.push(Value::Union {
                            start,
                            len: n as u32,
                        })
                    }
                };
                self.scopes[i].resolved.insert(name, v);
            }
        }
    }

    /// The index's projection of the walk.
    fn finish_index(mut self) -> FileIndex {
        let pending = std::mem::take(&mut self.pending);
        for p in &pending {
            let v = self.lookup(p.scope, p.name);
            self.file.values[p.slot as usize] = if v == UNKNOWN {
                Value::Unknown
            } else {
                Value::Same(v)
            };
        }
        self.instance_attributes();
        self.inferred_returns();
        if self.all_dynamic {
            self.file.all = None;
        }
        let module_scope = std::mem::take(&mut self.scopes[0].resolved);
        for (name, v) in module_scope {
            if v != UNKNOWN {
                let key = self.file.names.name(name).into();
                self.file.exports.insert(key, v);
            }
        }
        // Keep the references that may denote a module- or class-level
        // symbol, keyed by that symbol's own name.
        let names = self.file.names.len();
        let refs = std::mem::take(&mut self.file.refs);
        let keyed = refs
            .into_iter()
            .filter_map(|r| Some((key_of(&self.file, r.value, 0)?, r)));
        let in_source_order = |r: &Ref| (r.line, r.col);
        (self.file.refs, self.file.ref_ranges) = grouped_by_key(keyed, names, in_source_order);
        let sites = std::mem::take(&mut self.file.sites);
        let keyed = sites
            .into_iter()
            .filter_map(|r| Some((key_of(&self.file, r.value, 0)?, r)));
        (self.file.sites, self.file.site_ranges) = grouped_by_key(keyed, names, in_source_order);
        let defs = self.file.defs.iter().enumerate();
        let keyed = defs.map(|(d, def)| (def.name, d as DefId));
        (self.file.defs_by_name, self.file.def_ranges) = grouped_by_key(keyed, names, |&d| d);
        self.file.names.shrink_to_fit();
        self.file.refs.shrink_to_fit();
        self.file.values.shrink_to_fit();
        self.file
    }

    /// The first `self.x = …` of a class whose body does not define `x`
    /// becomes the definition of the instance attribute `x`.
    fn instance_attributes(&mut self) {
        let writes = std::mem::take(&mut self.attr_writes);
        // What each `self.name` is assigned across the class's methods: one
        // value the index can follow types the attribute (`None` besides
        // it is fine: unset); two different ones, nothing.
        let mut assigned: HashMap<(DefId, Name), Option<ValueId>> = HashMap::default();
        for w in &writes {
            let Some((class, name)) = self.self_attribute(w.value) else {
                continue;
            };
            let slot = assigned.entry((class, name)).or_insert(Some(UNKNOWN));
            if w.assigned != UNKNOWN {
                *slot = match *slot {
                    Some(UNKNOWN) => Some(w.assigned),
                    Some(v) if self.same_value(v, w.assigned, 0) => Some(v),
                    _ => None,
                };
            }
        }
        for w in writes {
            let Some((class, name)) = self.self_attribute(w.value) else {
                continue;
            };
            let text = self.file.name(name).to_string();
            let defined = self.file.members.get(&class).is_some_and(|m| {
                m.iter()
                    .any(|&d| self.file.name(self.file.defs[d as usize].name) == text)
            });
            if defined {
                continue;
            }
            let Some(r) = self.file.refs.get_mut(w.reference) else {
                continue;
            };
            r.value = UNKNOWN; // the definition site is not a reference
            let position = Position::new(r.line as usize, r.col as usize);
            let id = self.file.defs.len() as DefId;
            self.file.defs.push(Def {
                name,
                qualified: self.qualified(Some(class), &text),
                kind: SymbolKind::Attribute,
                position,
                name_position: position,
                parent: Some(class),
                bases: Vec::new(),
                instance: true,
                value: assigned
                    .get(&(class, name))
                    .copied()
                    .flatten()
                    .filter(|&v| v != UNKNOWN),
                returns: None,
            });
            self.file.members.entry(class).or_default().push(id);
        }
    }

    /// The value of `name` read in `scope` ([`lookup`]).
    fn lookup(&mut self, scope: usize, name: Name) -> ValueId {
        let chain = NameIn {
            scopes: &self.scopes,
            name,
        };
        match lookup(&chain, scope) {
            Some(i) => self.scopes[i]
                .resolved
                .get(&name)
                .copied()
                .unwrap_or(UNKNOWN),
            None => self.free(name),
        }
    }

    fn free(&mut self, name: Name) -> ValueId {
        self.push(Value::Free(name))
    }
}

/// The `string_content` child of a plain string literal (`"name"`).
fn string_content(string: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = string.walk();
    let mut parts = string
        .named_children(&mut cursor)
        .filter(|&c| kind_name(c) != "string_start" && kind_name(c) != "string_end");
    let content = parts.next()?;
    (kind_name(content) == "string_content" && parts.next().is_none()).then_some(content)
}

/// The `(start, end)` run of each key in a sequence grouped by key.
/// Items grouped by their key (a name id below `names`), each group in
/// `order`, and each key's range of the groups. A counting sort: the keys
/// are dense ids, and the items come in nearly that order within a key
/// already (references about in source order), so each group is sorted
/// from almost sorted.
fn grouped_by_key<T: Copy, K: Ord>(
    keyed: impl Iterator<Item = (Name, T)>,
    names: usize,
    order: impl Fn(&T) -> K,
) -> (Vec<T>, HashMap<Name, (u32, u32)>) {
    let keyed: Vec<(Name, T)> = keyed.collect();
    let Some(&(_, placeholder)) = keyed.first() else {
        return (Vec::new(), HashMap::default());
    };
    // where each key's group starts, then (after the scatter) ends
    let mut ends = vec![0u32; names + 1];
    for &(k, _) in &keyed {
        ends[k as usize + 1] += 1;
    }
    for i in 1..ends.len() {
        ends[i] += ends[i - 1];
    }
    let mut grouped = vec![placeholder; keyed.len()];
    for &(k, item) in &keyed {
        let at = &mut ends[k as usize];
        grouped[*at as usize] = item;
        *at += 1;
    }
    let mut ranges = HashMap::default();
    let mut start = 0;
    for (k, &end) in ends.iter().enumerate().take(names) {
        if end > start {
            grouped[start as usize..end as usize].sort_unstable_by_key(&order);
            ranges.insert(k as Name, (start, end));
        }
        start = end;
    }
    (grouped, ranges)
}

/// The name a reference's symbol has at its definition, or `None` when the
/// reference denotes nothing the index answers for (locals, literals).
fn key_of(file: &FileIndex, value: ValueId, depth: usize) -> Option<Name> {
    if depth > 32 {
        return None;
    }
    match file.value(value) {
        Value::Unknown
        | Value::Call(_)
        | Value::SelfOf(_)
        | Value::Super(_)
        | Value::SuperOf(_)
        | Value::Items(_)
        | Value::Elem(_)
        | Value::Values(_)
        | Value::Index(_) => None,
        Value::Def(d) => Some(file.def(d).name),
        Value::Module(m) => Some(m),
        Value::Member { name, .. } | Value::Free(name) | Value::Attr { name, .. } => Some(name),
        Value::Same(v) => key_of(file, v, depth + 1),
        Value::Union { start, len } => file
            .union(start, len)
            .iter()
            .find_map(|&v| key_of(file, v, depth + 1)),
    }
}

/// What a subscripted annotation `X[…]` holds, by `X`'s last name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Subscripted {
    /// `Final[C]`, `ClassVar[C]`, `Annotated[C, …]`: a `C`.
    Wrapper,
    /// `List[C]`, `Type[C]`, `Union[…]`, `Callable[…]` and the other forms
    /// of `typing`, and the builtin containers: nothing the index follows
    /// (a `Type[C]` is the class, a `List[C]` a list).
    Typing,
    /// Any other, a generic class (`ProgressBar[V]`): an instance of it.
    Generic,
}

/// What a `for` iterates, as far as its items go ([`Scanner::iterated`]).
enum Iterated {
    /// The items of this collection (`UNKNOWN`: nothing followed).
    Items(ValueId),
    /// `enumerate(xs)`: pairs of a number and an item of `xs`.
    Enumerated(ValueId),
    /// `zip(xs, ys, …)`: tuples of an item of each.
    Zipped(Vec<ValueId>),
    /// A literal of names (`(LRU, LRI)`): each item is this value.
    Each(ValueId),
}

/// An annotation's expression, its `type` wrapper and parentheses taken off.
fn annotation_expression(ty: Node<'_>) -> Option<Node<'_>> {
    let node = unparenthesized(ty);
    if kind_name(node) == "type" {
        return Some(unparenthesized(node.named_child(0)?));
    }
    Some(node)
}

/// The last part of a dotted name: `typing.List` gives `List`.
fn last_name(dotted: &str) -> &str {
    dotted.rsplit('.').next().unwrap_or(dotted).trim()
}

/// A mapping whose second type argument is its values'.
fn is_mapping(generic: &str) -> bool {
    const MAPPINGS: &[&str] = &[
        "dict",
        "Dict",
        "Mapping",
        "MutableMapping",
        "defaultdict",
        "DefaultDict",
        "OrderedDict",
    ];
    MAPPINGS.contains(&last_name(generic))
}

/// A collection whose iteration gives its one type argument.
fn is_collection(generic: &str) -> bool {
    const COLLECTIONS: &[&str] = &[
        "list",
        "List",
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "AbstractSet",
        "MutableSet",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Collection",
        "deque",
        "Deque",
    ];
    COLLECTIONS.contains(&last_name(generic))
}

fn subscripted(generic: &str) -> Subscripted {
    const WRAPPERS: &[&str] = &[
        "Final",
        "ClassVar",
        "Annotated",
        "Required",
        "NotRequired",
        "ReadOnly",
    ];
    const TYPING: &[&str] = &[
        "List",
        "Dict",
        "Set",
        "FrozenSet",
        "Tuple",
        "Type",
        "Union",
        "Callable",
        "Literal",
        "Iterable",
        "Iterator",
        "Generator",
        "AsyncIterator",
        "AsyncIterable",
        "AsyncGenerator",
        "Sequence",
        "MutableSequence",
        "Mapping",
        "MutableMapping",
        "Collection",
        "Container",
        "AbstractSet",
        "MutableSet",
        "Awaitable",
        "Coroutine",
        "TypeGuard",
        "TypeIs",
        "Unpack",
        "DefaultDict",
        "OrderedDict",
        "Counter",
        "Deque",
        "ChainMap",
        "Pattern",
        "Match",
        "IO",
        "ContextManager",
        "AsyncContextManager",
        "KeysView",
        "ValuesView",
        "ItemsView",
        "list",
        "dict",
        "set",
        "frozenset",
        "tuple",
        "type",
        "deque",
        "defaultdict",
    ];
    let last = last_name(generic);
    if WRAPPERS.contains(&last) {
        Subscripted::Wrapper
    } else if TYPING.contains(&last) {
        Subscripted::Typing
    } else {
        Subscripted::Generic
    }
}
