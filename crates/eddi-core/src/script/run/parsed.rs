//! A file of the snapshot as its language reads it: its tree, outline and
//! complexity per function (radon's for Python, lizard's for the brace
//! languages), and for Python also its scopes and unused imports — what
//! queries and conditions ask. Parsed once per version of the file's text.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

use parking_lot::Mutex;
use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::complexity;
use crate::analysis::dependencies::{self, Import};
use crate::analysis::issues::{self, IssueConfig, IssueKind};
use crate::analysis::outline::{self, Outline, Symbol};
use crate::analysis::scope::{self, BindingKind, Scopes};
use crate::analysis::syntax::SyntaxTree;
use crate::edit::Position;
use crate::language::Language;

pub struct Parsed {
    /// The file's language: Python's analyses (scopes, imports, unused
    /// imports, undefined names) are read of Python files only.
    pub language: &'static dyn Language,
    pub text: Rope,
    pub tree: SyntaxTree,
    pub outline: Outline,
    /// radon's complexity of each function, method and class, by its
    /// keyword's position (what `Analyze` reports).
    complexity: HashMap<Position, u32>,
    /// A package's `__init__.py` (its imports are re-exports).
    package_init: bool,
    // What only some queries ask, computed when first asked: a query over
    // every function of a project needs none of them.
    scopes: OnceLock<Scopes>,
    imports: OnceLock<Vec<Import>>,
    /// The positions of the names of the imports nothing uses (as
    /// `Analyze … Issues` reports them: `__all__`, re-exports, `# noqa`,
    /// names in strings and a package's `__init__.py` exempt).
    unused: OnceLock<HashSet<Position>>,
    /// The call found at each position a caller query asked (`call_at`):
    /// a parse is kept while its file is unchanged (`engine/parses.rs`),
    /// and a walk of a project asks for the same calls in every walk —
    /// each found by a descent from the root otherwise.
    calls: Mutex<HashMap<Position, Option<CallSite>>>,
}

/// A call as the text holds it: what a `Call` element is made of, but
/// the file's path and version.
#[derive(Debug, Clone)]
pub struct CallSite {
    /// The whole call, in chars.
    pub span: Range<usize>,
    /// 1-based.
    pub line: usize,
    /// The callee as written (`self.client.get`).
    pub callee: String,
    /// The arguments as written.
    pub arguments: Vec<String>,
}

impl Parsed {
    /// The file parsed in the language its path names (Python when it
    /// names none); `None` for a language without code symbols (JSON,
    /// Markdown, …) or text its grammar cannot read at all.
    pub fn new(path: &str, text: Rope) -> Option<Parsed> {
        let python = crate::language::by_id("python")?;
        match crate::language::language_of(path) {
            Some(language) if language != python => Parsed::in_language(language, text),
            _ => Parsed::python(path, python, text),
        }
    }

    /// A file of a brace language: its symbols and lizard's complexity of
    /// each function and method.
    fn in_language(language: &'static dyn Language, text: Rope) -> Option<Parsed> {
        let sites = language.symbol_sites()?;
        let tree = SyntaxTree::parse_language(language, &text).ok()?;
        let outline = sites(&text, &tree);
        let mut by_position = HashMap::new();
        if let Some(points) = language.decision_points() {
            let counter = crate::language::complexity::Counter::new(&text, &points);
            for symbol in outline.symbols.iter().filter(|s| s.kind.is_callable()) {
                if let Some(extent) = counter.extent(&text, &tree, symbol) {
                    by_position.insert(symbol.position, counter.of_extent(&extent));
                }
            }
        }
        Some(Parsed {
            language,
            text,
            tree,
            outline,
            complexity: by_position,
            package_init: false,
            scopes: OnceLock::new(),
            imports: OnceLock::new(),
            unused: OnceLock::new(),
            calls: Mutex::default(),
        })
    }

    fn python(path: &str, language: &'static dyn Language, text: Rope) -> Option<Parsed> {
        let tree = SyntaxTree::parse(&text).ok()?;
        let outline = outline::outline(&text, &tree);
        let mut by_position = HashMap::new();
        for block in complexity::blocks(&text, &tree) {
            for inner in block.flatten() {
                by_position.insert(inner.position, inner.complexity);
            }
        }
        Some(Parsed {
            language,
            text,
            tree,
            outline,
            complexity: by_position,
            package_init: path.rsplit('/').next() == Some("__init__.py"),
            scopes: OnceLock::new(),
            imports: OnceLock::new(),
            unused: OnceLock::new(),
            calls: Mutex::default(),
        })
    }

    /// The call at `position` (the first char of its callee's name, as the
    /// index has it), found by `find` the first time it is asked.
    pub fn call_at(
        &self,
        position: Position,
        find: impl FnOnce() -> Option<CallSite>,
    ) -> Option<CallSite> {
        if let Some(known) = self.calls.lock().get(&position) {
            return known.clone();
        }
        // found outside the lock (a parse is shared between threads)
        let found = find();
        self.calls.lock().insert(position, found.clone());
        found
    }

    /// Whether the file is Python's: what the scripting language reads of
    /// imports, scopes and code patterns is Python's.
    pub fn is_python(&self) -> bool {
        self.language.id() == "python"
    }

    /// The file's scopes: its names and what each resolves to (none for a
    /// file that is not Python).
    pub fn scopes(&self) -> &Scopes {
        self.scopes.get_or_init(|| match self.is_python() {
            true => scope::analyze(&self.text, &self.tree),
            false => Scopes::default(),
        })
    }

    /// Every import binding of the file, in source order (none for a file
    /// that is not Python).
    pub fn imports(&self) -> &[Import] {
        self.imports.get_or_init(|| match self.is_python() {
            true => dependencies::imports(&self.text, &self.tree),
            false => Vec::new(),
        })
    }

    fn unused(&self) -> &HashSet<Position> {
        self.unused.get_or_init(|| {
            let config = IssueConfig {
                package_init: self.package_init,
                ..IssueConfig::default()
            };
            issues::issues(
                &self.text,
                &self.tree,
                &self.outline,
                self.scopes(),
                &config,
            )
            .into_iter()
            .filter(|issue| issue.kind == IssueKind::UnusedImport)
            .map(|issue| issue.position)
            .collect()
        })
    }

    /// The syntax errors and undefined names of the file: (kind, the
    /// name or the error, where).
    pub fn problems(&self) -> Vec<(IssueKind, String, Position)> {
        use crate::analysis::scope::Resolution;
        let mut found: Vec<(IssueKind, String, Position)> =
            crate::analysis::validate::syntax_errors(&self.text, &self.tree)
                .into_iter()
                .map(|e| (IssueKind::SyntaxError, e.message, e.position))
                .collect();
        found.extend(
            self.scopes()
                .references
                .iter()
                .filter(|r| r.resolution == Resolution::Undefined)
                .map(|r| {
                    let at = crate::edit::position::from_char(&self.text, r.range.start);
                    (IssueKind::UndefinedName, r.name.clone(), at)
                }),
        );
        found
    }

    /// radon's complexity of a function, method or class.
    pub fn complexity_of(&self, symbol: &Symbol) -> u32 {
        self.complexity
            .get(&symbol.position)
            .copied()
            .or_else(|| {
                self.is_python()
                    .then(|| complexity::of_symbol(&self.text, &self.tree, symbol))
                    .flatten()
            })
            .unwrap_or(1)
    }

    /// The file's complexity: its most complex block's (a file has no
    /// radon figure of its own).
    pub fn file_complexity(&self) -> u32 {
        self.complexity.values().copied().max().unwrap_or(0)
    }

    /// Whether the import binding is one nothing uses.
    pub fn is_unused(&self, import: &Import) -> bool {
        self.scopes()
            .bindings
            .iter()
            .filter(|b| b.kind == BindingKind::Import && b.name == import.bound)
            .filter(|b| b.statement == import.statement)
            .any(|b| {
                self.unused()
                    .contains(&crate::edit::position::from_char(&self.text, b.range.start))
            })
    }

    /// Whether the file imports `module` (or a module under it), anywhere.
    pub fn imports_module(&self, module: &str) -> bool {
        self.imports().iter().any(|import| {
            let full = match &import.name {
                Some(name) if !import.module.is_empty() => format!("{}.{name}", import.module),
                Some(name) => name.clone(),
                None => import.module.clone(),
            };
            import.level == 0
                && (import.module == module
                    || full == module
                    || import.module.starts_with(&format!("{module}.")))
        })
    }
}

/// A call's parts in the syntax tree of its language: the callee's bytes
/// (`obj.method`, `pkg.F`, `new Foo`'s `Foo`) and the node that lists its
/// arguments.
#[derive(Debug, Clone)]
pub struct CallParts<'t> {
    pub callee: Range<usize>,
    pub arguments: Option<Node<'t>>,
}

/// `node` as a call of `language`: Python's `call`, the JavaScript
/// family's, Go's and Rust's `call_expression` (and `new Foo(…)`), Java's
/// method invocation and `new Foo(…)`; `None` for any other node.
pub fn call_parts<'t>(language: &dyn Language, node: Node<'t>) -> Option<CallParts<'t>> {
    let arguments = || node.child_by_field_name("arguments");
    let callee = match (language.id(), node.kind()) {
        ("python", "call")
        | ("go" | "rust" | "javascript" | "typescript" | "tsx", "call_expression") => {
            node.child_by_field_name("function")?
        }
        ("javascript" | "typescript" | "tsx", "new_expression") => {
            node.child_by_field_name("constructor")?
        }
        ("java", "object_creation_expression") => node.child_by_field_name("type")?,
        ("java", "method_invocation") => {
            let name = node.child_by_field_name("name")?;
            // the callee runs from its object (`list.add`, `a.b().c`)
            let start = node
                .child_by_field_name("object")
                .map_or(name.start_byte(), |o| o.start_byte());
            return Some(CallParts {
                callee: start..name.end_byte(),
                arguments: arguments(),
            });
        }
        _ => return None,
    };
    // (a tagged template, tag`…`, is the JavaScript family's call of
    // its tag without an argument list)
    let arguments = arguments();
    if arguments.is_some_and(|a| a.kind() == "template_string") {
        return None;
    }
    Some(CallParts {
        callee: callee.byte_range(),
        arguments,
    })
}
