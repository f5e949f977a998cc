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
//! Type inference is local and symbolic: `self`/`cls` in methods, calling
//! a class (`C().m`), a function local bound exactly once (`m = C()`, then
//! `m.f()`; a local bound several times is untyped, but for a pytest
//! fixture parameter bound again), annotations and type comments,
//! `isinstance`/`issubclass` narrowing, what functions return, items of
//! typed collections, `copy.copy`/`copy.deepcopy`, pytest fixtures
//! (`pytest`); the values are resolved across modules at query time.
//!
//! `match` patterns bind their captures and read their class and value
//! patterns (`case Point(x=0) | Color.RED`), as in `analysis::scope`.
//!
//! Known limits: `__all__` is read only when it is a literal list or tuple of strings;
//! instance attributes are found only through `self.x = …` in the class's
//! own methods (a subclass assigning an attribute of its base defines its own);
//! nesting deeper than
//! [`MAX_DEPTH`] is not walked (the file is flagged `truncated`).
//!
//! Layout: this file holds what a file's index is ([`FileIndex`]) and the
//! walker's state (`Scanner`, its scopes and pending reads); the walk
//! itself is split by what it reads. `walk` has the primitives and the
//! dispatch by node kind (`nodes`), then `statements`, `loops`,
//! `narrowing`, `expressions`, `annotations`, `definitions` and `imports`
//! each read their kind of syntax; `full_model` records the [`Model`];
//! `finish` resolves what the walk left pending and builds the tables.

use std::ops::Range;

use super::hash::FxHashMap as HashMap;

use tree_sitter::{Node, Tree};

use super::module_path;
use crate::analysis::outline::SymbolKind;
use crate::analysis::scope::{BindingKind, ScopeChain, ScopeKind};
use crate::edit::Position;

mod annotations;
mod definitions;
mod expressions;
mod finish;
mod full_model;
mod imports;
mod loops;
mod narrowing;
mod nodes;
mod pytest;
mod statements;
mod walk;

pub use full_model::{Model, ModelAttribute, ModelBinding, ModelReference, ModelScope};

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
    /// One of several values, each typed alike (an attribute a class's
    /// methods assign different classes' instances): typed only when every
    /// one of them is.
    OneOf { start: u32, len: u32 },
    /// `copy.copy(of)`, `copy.deepcopy(of)` when `callee` is the standard
    /// library's: a value of `of`'s type (else the call of `callee`).
    Copy { callee: ValueId, of: ValueId },
    /// A parameter of a pytest test or fixture (in a test module or a
    /// `conftest.py`) that no annotation, default or `parametrize` gives:
    /// what the fixture of its name returns (`index/fixtures.rs`).
    Fixture { function: DefId, name: Name },
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
    /// A pytest fixture (`@pytest.fixture`, `@fixture(…)`) of a test
    /// module or a `conftest.py`: what it returns (or yields) is the value
    /// of a test's parameter of its name.
    pub fixture: bool,
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
    /// The use is the callee of a call (`f()`, `x.f()`) or a decorator
    /// applied to a definition (`@f`, `@mod.f`).
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
    /// A fixture here is named otherwise than its function
    /// (`@pytest.fixture(name="env")`): fixtures are not looked up here.
    pub renamed_fixtures: bool,
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

const UNKNOWN: ValueId = 0;

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

/// One name seen through the walker's scopes, for [`lookup`](crate::analysis::scope::lookup).
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
    /// `assigned` is what an annotation or a type comment declares
    /// (`self.x: C = …`): the attribute's type wherever it is assigned.
    declared: bool,
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
    /// The module is one pytest reads tests or fixtures from
    /// (`file/pytest.rs`).
    pytest: bool,
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
    /// `rhs` is declared by an annotation or a type comment.
    rhs_declared: bool,
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
        // What a scan of this many visible nodes grows its tables to, at
        // most (Django's files: 0.22 values, 0.15 references, 0.10 pending
        // reads and 0.05 names a node); reserved at once instead of by
        // doubling, each doubling a copy into fresh memory.
        let nodes = root.descendant_count();
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
            pytest: pytest::is_pytest_module(module, is_package),
            package: module_path::package_of(module, is_package).to_string(),
            file: FileIndex {
                module: module.to_string(),
                is_package,
                has_syntax_errors: root.has_error(),
                values: {
                    let mut values = Vec::with_capacity(nodes / 4 + 1);
                    values.push(Value::Unknown);
                    values
                },
                refs: Vec::with_capacity(nodes / 6),
                names: Names::with_capacity(nodes / 16, nodes / 2),
                ..FileIndex::default()
            },
            scopes: vec![module_scope],
            pending: Vec::with_capacity(nodes / 8),
            attr_writes: Vec::new(),
            all_dynamic: false,
            rhs: UNKNOWN,
            rhs_declared: false,
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
