//! Per-file name resolution for Python: scopes, bindings, references.
//!
//! This is the model of Eddi's one Python resolver. The walk itself is the
//! project index's scanner (`index/file.rs`), run in its full mode
//! ([`model`]): the index keeps a compact projection of the same walk, so
//! both follow one implementation of the scope rules, and [`lookup`] is the
//! one LEGB lookup. Here the model is given in chars and strings.
//!
//! One walk over the tree builds the scopes (module, class, function,
//! lambda, comprehension), what each binds (imports, `def`/`class` names,
//! parameters, assignment/`for`/`with`/`except`/walrus/match-capture targets,
//! `global`/`nonlocal` redirections) and every name read. References are
//! then resolved with Python's rules (LEGB): the reference's own scope, then
//! enclosing *function* scopes (class scopes are skipped from nested
//! scopes), then the module, then builtins. A name bound anywhere in a
//! function is local to the whole function (as in Python).
//!
//! Attribute accesses (`obj.name`) are recorded separately with the
//! resolution of `obj` when it is a plain name, so renames can follow
//! `self.m`, `cls.m` and `ClassName.m` without touching unrelated `.m`.
//!
//! Known limits: no type inference (`x = C(); x.m()` is not linked to
//! `C.m`); names created dynamically (`globals()[…]`, `exec`) are unknown;
//! with a star import unresolved names are reported as
//! [`Resolution::Star`], not undefined. As in Python, a comprehension's
//! first iterable is resolved in the enclosing scope (so it sees class
//! attributes in a class body), the rest in the comprehension's own scope.
//! Nesting deeper than [`MAX_DEPTH`] is not walked ([`Scopes::truncated`]):
//! its names are neither bindings nor references, so that a pathological
//! file cannot overflow the stack; CPython refuses such nesting anyway.
//! Type parameters (`def f[T]`, Python 3.12) are not bound.
//!
//! Ground truth is CPython's `symtable`: `tests/analysis/scope_symtable.rs` (tricky
//! snippets) and `scripts/symtable-compare` (whole packages) compare every
//! scope's names through [`super::symtable`].

use std::borrow::Cow;
use std::ops::Range;

use ropey::Rope;

use super::index::file::{model, Name};
use super::syntax::{byte_to_char, SyntaxTree};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Class,
    Function,
    Lambda,
    Comprehension,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindingKind {
    /// `import x`, `from m import x`
    Import,
    Function,
    Class,
    Parameter,
    /// Assignment, annotated assignment, augmented assignment, walrus.
    Assignment,
    /// Target of an assignment that unpacks (`a, b = …`).
    Unpacking,
    /// `for` target, `with … as`, `except … as`, match capture, `del`.
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub name: String,
    pub kind: BindingKind,
    /// The identifier (for imports: the bound name, alias or first dotted part).
    pub range: Range<usize>,
    /// The whole statement (imports: the import statement).
    pub statement: Range<usize>,
    /// The scope the name binds in (after `global`/`nonlocal` and walrus
    /// targets in comprehensions are taken into account).
    pub scope: usize,
    /// The scope the binding is written in.
    pub site: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// Bound in that scope (index into [`Scopes::scopes`]).
    Scope(usize),
    Builtin,
    /// Not bound anywhere, but the module has a star import.
    Star,
    Undefined,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub range: Range<usize>,
    pub scope: usize,
    pub resolution: Resolution,
    /// Read in an annotation (of a parameter, return or variable): not
    /// evaluated under `from __future__ import annotations`, still a use
    /// of the name for renames.
    pub in_annotation: bool,
}

/// `object.attribute` where `object` is a plain name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeAccess {
    pub object: String,
    pub object_resolution: Resolution,
    pub attribute: String,
    pub attribute_range: Range<usize>,
    pub scope: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub kind: ScopeKind,
    pub parent: Option<usize>,
    /// Name of the function/class.
    pub name: Option<String>,
    /// Chars of the defining node (whole file for the module).
    pub range: Range<usize>,
    /// Names declared `global` / `nonlocal` here.
    pub globals: Vec<String>,
    pub nonlocals: Vec<String>,
    /// First parameter (`self`/`cls`) of functions.
    pub first_param: Option<String>,
    /// True when the scope calls `locals()` / `vars()`.
    pub uses_locals: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes {
    pub scopes: Vec<Scope>,
    pub bindings: Vec<Binding>,
    pub references: Vec<Reference>,
    pub attributes: Vec<AttributeAccess>,
    pub star_import: bool,
    /// `from __future__ import annotations`: annotations are not evaluated.
    pub future_annotations: bool,
    /// The names `from __future__ import …` binds (module scope). Kept
    /// apart from [`Scopes::bindings`]: they are compiler directives,
    /// never "unused imports" nor rename targets.
    pub future_imports: Vec<String>,
    /// Nesting beyond [`MAX_DEPTH`] was not walked (its names are missing).
    pub truncated: bool,
}

/// Deepest syntax nesting walked; deeper subtrees are skipped so that a
/// pathological file cannot overflow the stack.
pub const MAX_DEPTH: usize = crate::analysis::index::file::MAX_DEPTH;

/// What LEGB lookup needs to know about a file's scopes, for one name.
pub trait ScopeChain {
    fn kind(&self, scope: usize) -> ScopeKind;
    fn parent(&self, scope: usize) -> Option<usize>;
    /// The name is declared `global` in `scope`.
    fn declares_global(&self, scope: usize) -> bool;
    /// The name is declared `nonlocal` in `scope`.
    fn declares_nonlocal(&self, scope: usize) -> bool;
    /// The name is bound in `scope` (after `global` / `nonlocal` moved
    /// bindings to the scope they bind in).
    fn binds(&self, scope: usize) -> bool;
}

/// Python's LEGB rule, the one implementation of it: the scope a name
/// read in `scope` is bound in, or `None` (a builtin, a star import's or
/// undefined). The reading scope first, then the enclosing scopes with
/// class bodies skipped (they are seen only from their own body), then
/// the module; `global` sends the name to the module, `nonlocal` past
/// the declaring scope.
pub fn lookup(chain: &impl ScopeChain, scope: usize) -> Option<usize> {
    let mut current = Some(scope);
    let mut first = true;
    while let Some(i) = current {
        if chain.declares_global(i) {
            return chain.binds(0).then_some(0);
        }
        let skip = (chain.kind(i) == ScopeKind::Class && !first) || chain.declares_nonlocal(i);
        if !skip && chain.binds(i) {
            return Some(i);
        }
        first = false;
        current = chain.parent(i);
    }
    None
}

/// One name seen through a [`Scopes`].
struct NameIn<'s> {
    scopes: &'s Scopes,
    name: &'s str,
}

impl ScopeChain for NameIn<'_> {
    fn kind(&self, scope: usize) -> ScopeKind {
        self.scopes.scopes[scope].kind
    }
    fn parent(&self, scope: usize) -> Option<usize> {
        self.scopes.scopes[scope].parent
    }
    fn declares_global(&self, scope: usize) -> bool {
        self.scopes.scopes[scope]
            .globals
            .iter()
            .any(|g| g == self.name)
    }
    fn declares_nonlocal(&self, scope: usize) -> bool {
        self.scopes.scopes[scope]
            .nonlocals
            .iter()
            .any(|n| n == self.name)
    }
    fn binds(&self, scope: usize) -> bool {
        self.scopes.bindings_of(scope, self.name).next().is_some()
    }
}

impl Scopes {
    /// Bindings of `name` in `scope`.
    pub fn bindings_of<'a>(
        &'a self,
        scope: usize,
        name: &'a str,
    ) -> impl Iterator<Item = &'a Binding> {
        self.bindings
            .iter()
            .filter(move |b| b.scope == scope && b.name == name)
    }

    /// References resolved to `name` bound in `scope`.
    pub fn references_to<'a>(
        &'a self,
        scope: usize,
        name: &'a str,
    ) -> impl Iterator<Item = &'a Reference> {
        self.references
            .iter()
            .filter(move |r| r.name == name && r.resolution == Resolution::Scope(scope))
    }

    /// The innermost scope whose range contains the char offset.
    pub fn scope_at(&self, offset: usize) -> usize {
        let mut best = 0;
        for (i, s) in self.scopes.iter().enumerate() {
            if s.range.start <= offset && offset < s.range.end {
                best = i; // later scopes are nested deeper
            }
        }
        best
    }

    /// The scope created by the definition starting at char `start`.
    pub fn scope_of_definition(&self, start: usize) -> Option<usize> {
        self.scopes.iter().position(|s| {
            s.range.start == start && matches!(s.kind, ScopeKind::Class | ScopeKind::Function)
        })
    }

    /// What `name` would mean if read in `scope` (the rule references were
    /// resolved with, for names a refactoring is about to write there).
    pub fn resolve(&self, name: &str, scope: usize) -> Resolution {
        match lookup(&NameIn { scopes: self, name }, scope) {
            Some(i) => Resolution::Scope(i),
            None => fallback(name, self.star_import),
        }
    }

    /// True when `scope` is `ancestor` or nested in it.
    pub fn is_within(&self, mut scope: usize, ancestor: usize) -> bool {
        loop {
            if scope == ancestor {
                return true;
            }
            match self.scopes[scope].parent {
                Some(p) => scope = p,
                None => return false,
            }
        }
    }
}

/// Builds and resolves the scopes of a file: the resolver's full model
/// ([`model`]), in chars and strings.
pub fn analyze(text: &Rope, tree: &SyntaxTree) -> Scopes {
    let whole = text.slice(..);
    let src: Cow<'_, str> = match whole.as_str() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(whole.to_string()),
    };
    let m = model(&src, tree.tree());
    let ascii = src.is_ascii();
    let chars = |bytes: &Range<usize>| -> Range<usize> {
        if ascii {
            bytes.clone()
        } else {
            byte_to_char(text, bytes.start)..byte_to_char(text, bytes.end)
        }
    };
    let name = |n: Name| -> String { m.names.name(n).to_string() };
    let names = |ns: &[Name]| -> Vec<String> { ns.iter().map(|&n| name(n)).collect() };
    let resolution = |n: Name, resolved: Option<usize>| match resolved {
        Some(i) => Resolution::Scope(i),
        None => fallback(&name(n), m.star_import),
    };
    let mut scopes: Vec<Scope> = m
        .scopes
        .iter()
        .map(|s| Scope {
            kind: s.kind,
            parent: s.parent,
            name: s.name.map(name),
            range: chars(&s.range),
            globals: names(&s.globals),
            nonlocals: names(&s.nonlocals),
            first_param: s.first_param.map(name),
            uses_locals: s.uses_locals,
        })
        .collect();
    if let Some(module) = scopes.first_mut() {
        module.range = 0..text.len_chars();
    }
    Scopes {
        scopes,
        bindings: m
            .bindings
            .iter()
            .map(|b| Binding {
                name: name(b.name),
                kind: b.kind,
                range: chars(&b.range),
                statement: chars(&b.statement),
                scope: b.scope,
                site: b.site,
            })
            .collect(),
        references: m
            .references
            .iter()
            .map(|r| Reference {
                name: name(r.name),
                range: chars(&r.range),
                scope: r.scope,
                resolution: resolution(r.name, r.resolved),
                in_annotation: r.in_annotation,
            })
            .collect(),
        attributes: m
            .attributes
            .iter()
            .map(|a| AttributeAccess {
                object: name(a.object),
                object_resolution: resolution(a.object, a.object_resolved),
                attribute: name(a.attribute),
                attribute_range: chars(&a.attribute_range),
                scope: a.scope,
            })
            .collect(),
        star_import: m.star_import,
        future_annotations: m.future_annotations,
        future_imports: names(&m.future_imports),
        truncated: m.truncated,
    }
}

fn fallback(name: &str, star: bool) -> Resolution {
    if is_builtin(name) {
        Resolution::Builtin
    } else if star {
        Resolution::Star
    } else {
        Resolution::Undefined
    }
}

/// Python 3 builtins (3.13) and module attributes every module has.
pub const BUILTINS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "PythonFinalizationError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "__build_class__",
    "__debug__",
    "__doc__",
    "__import__",
    "__loader__",
    "__name__",
    "__package__",
    "__spec__",
    "__file__",
    "__builtins__",
    "__path__",
    "__annotations__",
    "__dict__",
    "__qualname__",
    "__module__",
    "__class__",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

pub fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scopes(src: &str) -> (Rope, Scopes) {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let s = analyze(&text, &tree);
        (text, s)
    }

    fn resolved(s: &Scopes, name: &str) -> Vec<Resolution> {
        s.references
            .iter()
            .filter(|r| r.name == name)
            .map(|r| r.resolution)
            .collect()
    }

    #[test]
    fn legb_and_class_scope_skipping() {
        let (_, s) = scopes(
            "x = 1\nclass C:\n    x = 2\n    y = x\n    def m(self):\n        return x\n\ndef f(x):\n    return [x for x in range(x)]\nprint(undefined_name, len)\n",
        );
        // y = x (class scope), return x (module, class skipped), the element
        // x (comprehension), range(x) (first iterable: f's parameter)
        assert_eq!(
            resolved(&s, "x"),
            [
                Resolution::Scope(1),
                Resolution::Scope(0),
                Resolution::Scope(4),
                Resolution::Scope(3)
            ]
        );
        assert_eq!(resolved(&s, "undefined_name"), [Resolution::Undefined]);
        assert_eq!(resolved(&s, "len"), [Resolution::Builtin]);
        let (_, class) = scopes(
            "class T:\n    _types = {1: 'a'}\n    _str = {v: k for k, v in _types.items() if _types}\n",
        );
        // the first iterable sees the class attribute; the condition does not
        assert_eq!(
            resolved(&class, "_types"),
            [Resolution::Scope(1), Resolution::Undefined]
        );
    }

    #[test]
    fn match_patterns_capture_and_read() {
        let (_, s) = scopes("from m import Point, Color\ndef f(v):\n    match v:\n        case Point(x=0, y=yy) | Color.RED:\n            return yy\n        case [first, *rest]:\n            return first, rest\n");
        assert_eq!(resolved(&s, "Point"), [Resolution::Scope(0)]);
        assert_eq!(resolved(&s, "Color"), [Resolution::Scope(0)]);
        assert_eq!(resolved(&s, "yy"), [Resolution::Scope(1)]);
        assert_eq!(resolved(&s, "rest"), [Resolution::Scope(1)]);
        let bound: Vec<&str> = s
            .bindings
            .iter()
            .filter(|b| b.scope == 1)
            .map(|b| b.name.as_str())
            .collect();
        assert_eq!(bound, ["v", "yy", "first", "rest"]);
    }

    #[test]
    fn annotations_are_uses_read_once_and_flagged() {
        let (_, s) = scopes("from __future__ import annotations\nclass T: ...\ndef f(a: T, b: T = T()) -> T:\n    v: T = a\n");
        assert!(s.future_annotations);
        let uses: Vec<bool> = s
            .references
            .iter()
            .filter(|r| r.name == "T")
            .map(|r| r.in_annotation)
            .collect();
        // one use per written `T` (a typed parameter's was read twice)
        assert_eq!(uses, [true, true, false, true, true]);
        assert_eq!(s.future_imports, ["annotations"]);
        assert_eq!(s.bindings_of(0, "annotations").count(), 0);
    }

    #[test]
    fn deep_nesting_is_cut_not_a_stack_overflow() {
        // 10 000 nested lists overflowed the stack (an abort, not a panic)
        let n = 10_000;
        let src = format!("x = {}{}\ny = 1\n", "[a, ".repeat(n), "]".repeat(n));
        let (_, s) = scopes(&src);
        assert!(s.truncated);
        // what is not too deep is still resolved
        assert_eq!(s.bindings_of(0, "y").count(), 1);
        assert!(!scopes("x = [[a]]\n").1.truncated);
    }

    #[test]
    fn except_del_and_nonlocal_bind_where_symtable_says() {
        let (_, s) = scopes("def f():\n    try:\n        pass\n    except E as e:\n        del e\n    n = 0\n    def g():\n        nonlocal n\n        n = 1\n");
        let bound: Vec<(&str, usize, usize)> = s
            .bindings
            .iter()
            .map(|b| (b.name.as_str(), b.scope, b.site))
            .collect();
        // `except … as e` and `del e` bind in f; g's `n = 1` binds f's n
        assert_eq!(
            bound,
            [
                ("f", 0, 0),
                ("e", 1, 1),
                ("e", 1, 1),
                ("n", 1, 1),
                ("g", 1, 1),
                ("n", 1, 2)
            ]
        );
        // `del e` and `nonlocal n` are uses, of f's names
        assert_eq!(resolved(&s, "e"), [Resolution::Scope(1)]);
        assert_eq!(resolved(&s, "n"), [Resolution::Scope(1)]);
        assert_eq!(resolved(&s, "E"), [Resolution::Undefined]);
        assert_eq!(s.resolve("n", 2), Resolution::Scope(1));
        assert_eq!(s.resolve("e", 0), Resolution::Undefined);
    }

    #[test]
    fn globals_augmented_and_imports() {
        let (_, s) = scopes("import os.path\nfrom a import b as c\ncount = 0\ndef inc():\n    global count\n    count += 1\n    return os.sep, c\n");
        let names: Vec<(&str, usize)> = s
            .bindings
            .iter()
            .map(|b| (b.name.as_str(), b.scope))
            .collect();
        assert_eq!(
            names,
            [("os", 0), ("c", 0), ("count", 0), ("inc", 0), ("count", 0)]
        );
        assert_eq!(
            resolved(&s, "count"),
            [Resolution::Scope(0), Resolution::Scope(0)]
        );
        assert_eq!(resolved(&s, "os"), [Resolution::Scope(0)]);
        assert_eq!(s.attributes[0].attribute, "sep");
    }
}
