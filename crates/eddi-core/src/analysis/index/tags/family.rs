//! A family of languages that share a module system (JavaScript and
//! TypeScript share ES modules): what its resolver reads of a file when
//! it is scanned, and how it resolves the file's imports when a query
//! runs. One implementation per family: [`super::es`], [`super::go`],
//! [`super::java`], [`super::rust`].

use tree_sitter::Node;

use super::scan::{Import, Imported, Qualifier, TagsFile};
use crate::analysis::syntax::LineTable;
use crate::language::Language;

/// A module as the resolver keys it: a file (ES, Rust), a directory (a Go
/// package) or a package name (Java).
pub type ModuleKey = String;

/// The files of one family a query sees: their paths and what they are.
pub struct Files<'a> {
    pub root: &'a std::path::Path,
    /// Every indexed path of the family (scanned or not), sorted.
    pub paths: &'a [Box<str>],
    pub index: &'a super::TagsIndex,
}

impl Files<'_> {
    pub fn has(&self, path: &str) -> bool {
        self.paths.binary_search_by(|p| (**p).cmp(path)).is_ok()
    }

    /// Whether a file of the family is directly in the directory `dir`
    /// (`""`: the root) with the extension `extension`.
    pub fn has_in(&self, dir: &str, extension: &str) -> bool {
        let prefix = match dir {
            "" => String::new(),
            d => format!("{d}/"),
        };
        let start = self.paths.partition_point(|p| **p < *prefix);
        self.paths[start..]
            .iter()
            .take_while(|p| p.starts_with(&prefix))
            .any(|p| {
                let name = &p[prefix.len()..];
                !name.contains('/') && name.rsplit_once('.').is_some_and(|(_, x)| x == extension)
            })
    }

    /// The text of a project file that is not indexed (a manifest:
    /// `go.mod`, `Cargo.toml`, `tsconfig.json`), read once per state of
    /// the index.
    pub fn manifest(&self, rel: &str) -> Option<std::sync::Arc<str>> {
        self.memo().manifest(self.root, rel)
    }

    /// What queries resolved in this state of the index.
    pub fn memo(&self) -> &super::memo::Memo {
        self.index.memo()
    }

    /// The scan of a project file of the family.
    pub fn scanned(&self, path: &str) -> Option<&TagsFile> {
        self.index.entry(path).map(|e| e.file())
    }
}

/// The node kinds a family reads for typed names, and the kinds of their
/// scopes.
#[derive(Debug, Clone, Copy, Default)]
pub struct TypedKinds {
    pub nodes: &'static [&'static str],
    pub functions: &'static [&'static str],
    pub classes: &'static [&'static str],
}

/// What an import's source is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A module of the project.
    Module(ModuleKey),
    /// Not one the index can find (a package from outside, a missing
    /// file): what it binds cannot be proven.
    Unknown,
}

pub trait Family: Sync {
    /// Reads the file's imports, exports and package.
    fn read_module(&self, text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile);

    /// The kinds of the nodes [`Family::read_typed`] reads, and of the
    /// scopes it is given.
    fn typed_kinds(&self) -> TypedKinds {
        TypedKinds::default()
    }

    /// Reads the names one node (of [`TypedKinds::nodes`]) declares with a
    /// type (a parameter, a local, a field) into [`TagsFile::typed`], and
    /// Java's inheriting classes; `function` and `class` are the innermost
    /// of [`TypedKinds::functions`] and [`TypedKinds::classes`] around it
    /// (the file's root where none is). The scan's one walk calls it.
    fn read_typed(
        &self,
        _text: &str,
        _lines: &LineTable<'_>,
        _node: Node<'_>,
        _function: Node<'_>,
        _class: Node<'_>,
        _file: &mut TagsFile,
    ) {
    }

    /// Whether a scope of this kind is a function's (where JavaScript's
    /// `var` binds).
    fn function_scope(&self, _kind: &str) -> bool {
        false
    }

    /// The names a file reads inside string literals, as byte ranges:
    /// Rust's format strings (`println!("{x}")` reads `x`).
    fn names_in_strings(&self, _text: &str, _root: Node<'_>) -> Vec<std::ops::Range<usize>> {
        Vec::new()
    }

    /// How many arguments the call whose callee's name ends at byte
    /// `after` passes, where overloads are told apart by it (Java).
    fn call_arity(&self, _text: &str, _after: usize) -> Option<u8> {
        None
    }

    /// Whether a module-level statement's names are read with it, not as
    /// uses (an import, a package clause).
    fn skips(&self, _statement: Node<'_>) -> bool {
        false
    }

    /// How a member's object qualifies it.
    fn qualifier(&self, text: &str, object: Node<'_>) -> Qualifier {
        match object.kind() {
            "this" | "self" => Qualifier::This,
            "identifier" | "package_identifier" | "type_identifier" => {
                Qualifier::Name(text[object.byte_range()].into())
            }
            _ => Qualifier::Other,
        }
    }

    /// The module a file is in.
    fn module_of(&self, files: &Files<'_>, path: &str, file: &TagsFile) -> ModuleKey;

    /// What an import's source names, from the file at `from`.
    fn resolve(&self, files: &Files<'_>, from: &str, file: &TagsFile, source: &str) -> Source;

    /// Rust: the module a path names from the file at `from` (`crate::a`,
    /// `super`, a module the file declares or uses).
    fn resolve_path(
        &self,
        _files: &Files<'_>,
        _from: &str,
        _file: &TagsFile,
        _path: &[String],
    ) -> Option<(ModuleKey, Option<String>)> {
        None
    }

    /// The project files of a module (a file, a Go package's, a Java
    /// package's), sorted.
    fn module_files(&self, files: &Files<'_>, module: &ModuleKey) -> Vec<String> {
        files
            .paths
            .iter()
            .filter(|p| {
                files.scanned(p).is_some_and(|file| {
                    files
                        .memo()
                        .module(p, || self.module_of(files, p, file))
                        .eq(module)
                })
            })
            .map(|p| p.to_string())
            .collect()
    }

    /// Rust: the key of the `mod m { … }` block `inline` (a qualified
    /// name, `a.b`) in the file of `module`.
    fn inline_key(&self, module: &ModuleKey, _inline: &str) -> ModuleKey {
        module.clone()
    }

    /// Whether a bare name inside a class may be its member (Java's
    /// implicit `this`).
    fn implicit_members(&self) -> bool {
        false
    }

    /// Whether a file's module-level definitions are in its module's
    /// scope for the other files of the module (Go's package, Java's):
    /// with `module_of`, whether `b` sees `a`'s names unqualified.
    fn shares_module(&self) -> bool {
        false
    }

    /// The label a definition's full name starts with (its module), from
    /// its file's path and the package its text declares (Go's, Java's:
    /// [`Self::package`]).
    fn label(&self, path: &str, package: Option<&str>) -> String;

    /// The name of the package a file declares (`package a.b;`), among
    /// its root's first children: Go's and Java's; none elsewhere.
    fn package<'t>(&self, _root: Node<'t>) -> Option<Node<'t>> {
        None
    }

    /// Whether a file's module and what its imports bind depend only on
    /// the family's paths, the manifests and the file's own text (not on
    /// another file's text): then a file's new text keeps what the other
    /// files resolved ([`super::memo`]).
    fn resolves_by_paths(&self) -> bool {
        false
    }

    /// What an import binds its local name to.
    fn bound(&self, files: &Files<'_>, from: &str, file: &TagsFile, import: &Import) -> Bound {
        let module = match self.resolve(files, from, file, &import.source) {
            Source::Module(module) => module,
            Source::Unknown => return Bound::Unknown,
        };
        match &import.imported {
            Imported::Name(name) => Bound::Item(module, name.clone()),
            Imported::Default => Bound::Item(module, "default".to_string()),
            Imported::Module | Imported::All => Bound::Module(module),
        }
    }
}

/// `dir` joined with a relative path, `.` and `..` resolved; `None` when
/// it leaves the project's root (a relative import specifier, a
/// manifest's path to another package).
pub fn joined(dir: &str, relative: &str) -> Option<String> {
    super::tsconfig::normalize(&format!("{dir}/{relative}"))
}

/// What an import binds: a module's item, a module, or what the index
/// cannot know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    Item(ModuleKey, String),
    Module(ModuleKey),
    Unknown,
}

/// The family of a language, if the index reads it.
pub fn family_of(language: &dyn Language) -> Option<&'static dyn Family> {
    match language.id() {
        "javascript" | "typescript" | "tsx" => Some(&super::es::Es),
        "go" => Some(&super::go::Go),
        "java" => Some(&super::java::Java),
        "rust" => Some(&super::rust::Rust),
        _ => None,
    }
}

/// Which family a language belongs to, by a stable name: files of one
/// family resolve each other.
pub fn family_id(language: &dyn Language) -> Option<&'static str> {
    match language.id() {
        "javascript" | "typescript" | "tsx" => Some("es"),
        "go" => Some("go"),
        "java" => Some("java"),
        "rust" => Some("rust"),
        _ => None,
    }
}
