//! The programming languages Eddi understands, behind one seam.
//!
//! Not to be confused with the command language (`crate::commands`): a
//! *language* here is a programming language whose files Eddi parses.
//! Each is one implementation of the [`Language`] trait — its name, how its
//! files are recognised (extensions, `#!` interpreters), its tree-sitter
//! grammar, its outline — plus the optional capabilities it offers
//! ([`Capability`]): a syntax check, code targets and their sites, the
//! project index's scan, the refactors. [`registry`] lists them, one line
//! per language; [`language_of`] finds a file's.
//!
//! The rest of Eddi asks the registry what a file's language supports
//! instead of assuming Python: the engine runs the outline of any
//! registered language, and refuses a command whose capability the
//! language lacks, saying so; the workspace's watcher and the project
//! index take their file sets from the languages that support the index
//! scan.
//!
//! Adding a language: a grammar crate in `Cargo.toml`, its queries
//! (`queries/<language>/outline.scm`, in the tags convention:
//! `@definition.<kind>` around an element, `@name` on its name), one
//! implementation file here, and one line in [`registry`]. Python
//! ([`python`]) is the one language with every capability. JavaScript
//! ([`javascript`]), TypeScript ([`typescript`]), Go ([`go`]), Rust
//! ([`rust`]) and Java ([`java`]) offer addressing and reads — the
//! outline, a syntax check, code targets and their sites — from their
//! outline queries (the brace languages through one reader, `braces.rs`;
//! the syntax checks through `parse_errors.rs`). JavaScript and
//! TypeScript also have the edits of code elements as brace languages
//! make them ([`edits`], [`es_imports`]), Prettier, and complexity as
//! lizard counts it ([`complexity`]). The other code edits, analyses,
//! index and refactors are still to come, and the commands that need them
//! say so. JSON (`json.rs`, registered for the tests only) proves the seam
//! with an outline alone.

mod braces;
pub mod complexity;
pub mod edits;
pub mod es_arguments;
pub mod es_imports;
pub mod go;
mod go_imports;
pub mod gofmt_align;
pub mod inner_functions;
pub mod insert_rules;
pub mod issues;
pub mod java;
pub mod javascript;
pub mod kinds;
mod line_imports;
pub mod lizard_tokens;
mod locals;
pub mod outline;
mod parse_errors;
pub mod python;
pub mod read_by_name;
pub mod record_components;
pub mod rename;
pub mod rust;
mod rust_lexer;
pub(crate) mod rust_std;
pub(crate) mod separators;
pub mod signature;
pub mod token_functions;
mod tsc;
pub mod typescript;

#[cfg(test)]
pub mod json;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod outline_queries;

use std::path::Path;

use ropey::Rope;

use crate::analysis::validate::SyntaxError;
use crate::analysis::SyntaxTree;
pub use kinds::KindTable;
pub use outline::{Entry, Outline};

/// A programming language: what Eddi knows of it, and what it can do with
/// its files. The required methods are what every language gives; the
/// capabilities default to "not supported".
pub trait Language: Sync {
    /// Stable lowercase identifier (`python`).
    fn id(&self) -> &'static str;

    /// The name a message gives it (`Python`).
    fn name(&self) -> &'static str;

    /// Its files' extensions, without the dot (matched ignoring case).
    fn extensions(&self) -> &'static [&'static str];

    /// The interpreters a `#!` line names for a file of it without a known
    /// extension (`python3` in `#!/usr/bin/env python3`).
    fn interpreters(&self) -> &'static [&'static str] {
        &[]
    }

    /// The tree-sitter grammar its files parse with.
    fn grammar(&self) -> tree_sitter::Language;

    /// The structure of a file: its elements (classes, functions, keys, …)
    /// with their ranges, parents before children, in source order.
    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline;

    /// The syntax errors of a file, when the language checks them.
    fn syntax_check(&self) -> Option<SyntaxCheck> {
        None
    }

    /// The symbols code targets name (`Function f`, `Class C`, `Method
    /// C.m`, `Variable v`) and the sites of their names: what the code
    /// commands that address and read code (Show, Goto, `Analyze …
    /// Structure`, Validate of a target, `Replace … In Function f`) work
    /// on, and what the other code commands start from.
    fn symbol_sites(&self) -> Option<SymbolSites> {
        None
    }

    /// The definitions the project index keeps of the elements its scan's
    /// walk finds (the symbol sites of [`Language::symbol_sites`], found
    /// by hand instead of by the outline query, without the ranges only
    /// edits read).
    fn site_definitions(&self) -> Option<SiteDefinitions> {
        None
    }

    /// The local variables of a file's functions (`Variable f.x`), added
    /// to the outline of its symbol sites.
    fn local_sites(&self) -> Option<LocalSites> {
        None
    }

    /// Whether Python's edits of code (`Insert Function|Method|Class|
    /// Import`, `Delete` of a code target, `Modify`, `Comment`, `Format`)
    /// work on its files.
    fn code_edits(&self) -> bool {
        false
    }

    /// How the edits of code elements (`Insert Function|Method|Class`,
    /// `Delete` of a code target, `Comment`) are made in a brace language
    /// ([`edits`]); Python makes its own ([`Language::code_edits`]).
    fn brace_edits(&self) -> Option<edits::BraceEdits> {
        None
    }

    /// The program its files are formatted with (`Format`), when it has
    /// one; Python's are Ruff and Black ([`Language::code_edits`]).
    fn formatter(&self) -> Option<ExternalFormatter> {
        None
    }

    /// What its potential issues check (`Analyze … Issues`, `get_todos`)
    /// when Python's analyses are not its own.
    fn issue_checks(&self) -> Option<issues::IssueChecks> {
        None
    }

    /// What its cyclomatic complexity counts (`Analyze … Complexity`,
    /// `get_complexity`) when Python's analyses are not its own.
    fn decision_points(&self) -> Option<complexity::DecisionPoints> {
        None
    }

    /// Whether it binds `name` in every file without an import (Go's
    /// predeclared identifiers, Rust's prelude, `java.lang`, the JavaScript
    /// globals): what `Analyze … Dependencies` calls builtins.
    fn predeclared(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// Whether the code analyses (`Analyze` complexity, dependencies and
    /// issues; the changes to definitions `Diff` and `Summary` list) work
    /// on its files.
    fn code_analyses(&self) -> bool {
        false
    }

    /// Whether its grammar misreads type members a line break alone
    /// separates (TypeScript's `<T>(…)` after a member's type): its
    /// trees are then read from a copy with those separators written in
    /// ([`separators`]), when that parses with fewer errors.
    fn omits_member_separators(&self) -> bool {
        false
    }

    /// Whether its blocks are delimited by indentation (the off-side
    /// rule), so that a statement starting at column 0 is a top-level one:
    /// a text edit's syntax is then checked on the statements it touched
    /// alone, else on the whole file.
    fn offside_rule(&self) -> bool {
        false
    }

    /// The files the project index scans, when it scans this language.
    fn index_scan(&self) -> Option<IndexScan> {
        None
    }

    /// Whether the semantic refactors (`Refactor …`) work on its files.
    fn refactors(&self) -> bool {
        false
    }

    /// Whether `Modify … Rename` renames its symbols in a file, scope by
    /// scope ([`rename`]), when Python's edits are not its own.
    fn renames(&self) -> bool {
        false
    }

    /// Whether it offers `capability`.
    fn supports(&self, capability: Capability) -> bool {
        match capability {
            Capability::Outline => true,
            Capability::SyntaxCheck => self.syntax_check().is_some(),
            Capability::SymbolSites => self.symbol_sites().is_some(),
            Capability::CodeEdits => self.code_edits(),
            Capability::ElementEdits => self.code_edits() || self.brace_edits().is_some(),
            Capability::Format => self.code_edits() || self.formatter().is_some(),
            Capability::Complexity => self.code_analyses() || self.decision_points().is_some(),
            Capability::Issues => self.code_analyses() || self.issue_checks().is_some(),
            Capability::Imports => {
                self.code_edits() || self.brace_edits().is_some_and(|e| e.imports.is_some())
            }
            Capability::CodeAnalyses => self.code_analyses(),
            Capability::IndexScan => self.index_scan().is_some(),
            Capability::Refactors => self.refactors(),
            Capability::Rename => self.code_edits() || self.renames(),
        }
    }
}

impl std::fmt::Debug for dyn Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Two handles name the same language when their ids are equal.
impl PartialEq for dyn Language {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl Eq for dyn Language {}

/// What a language may offer beyond its outline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// The structure of a file (every language has it).
    Outline,
    /// Syntax errors (`Validate`, the checks of code edits).
    SyntaxCheck,
    /// Code targets and the sites of their names (the code commands that
    /// address and read code).
    SymbolSites,
    /// The edits of code (Insert Import, Modify, Format, and what
    /// `ElementEdits` names).
    CodeEdits,
    /// `Format` through the language's formatter.
    Format,
    /// Cyclomatic complexity (`Analyze … Complexity`).
    Complexity,
    /// Potential issues (`Analyze … Issues`, `get_todos`).
    Issues,
    /// `Insert Import`, merged with the file's imports.
    Imports,
    /// The edits of code elements: `Insert Function|Method|Class`, `Delete`
    /// of a code target, `Comment`, `Modify` but `Rename` (parameters,
    /// decorators, visibility).
    ElementEdits,
    /// The code analyses (complexity, dependencies, issues, the changes
    /// to definitions).
    CodeAnalyses,
    /// The project index (`Find References`, `Find Callers`, …).
    IndexScan,
    /// The semantic refactors.
    Refactors,
    /// `Modify … Rename`: a symbol renamed in its file, scope-aware.
    Rename,
}

/// A language's formatter: a program that reads a file on its stdin and
/// writes it formatted on its stdout. In its arguments `{file}` is the
/// file's name (some pick their parser by it), `{start}`/`{end}` a range's
/// offsets (UTF-16 code units), `{n}` a line length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExternalFormatter {
    /// The program (`prettier`).
    pub program: &'static str,
    pub args: &'static [&'static str],
    /// The arguments that format a range alone; `None`: whole files only.
    pub range: Option<&'static [&'static str]>,
    /// The argument that sets the line length, when it takes one.
    pub width: Option<&'static str>,
    /// How to install it, for the error that says it is missing.
    pub install: &'static str,
}

/// A language's syntax check: the errors of a parsed file, in source order.
pub type SyntaxCheck = fn(&Rope, &SyntaxTree) -> Vec<SyntaxError>;

/// A language's symbols as code targets name them: the file's outline of
/// symbols, each with its ranges and the position of its name.
pub type SymbolSites = fn(&Rope, &SyntaxTree) -> crate::analysis::Outline;

/// An element a walk over a file's tree found where the language's
/// outline query would: its node, its kind (the query's capture,
/// `@definition.<kind>`) and its name (a destructuring pattern, in
/// JavaScript, names each name it binds).
#[derive(Debug, Clone, Copy)]
pub struct FoundSite<'t> {
    pub node: tree_sitter::Node<'t>,
    pub kind: &'static str,
    pub name: tree_sitter::Node<'t>,
    /// The node's parent, when the finder knows it (a walk does; a
    /// node's `parent()` is a descent from the root).
    pub parent: Option<tree_sitter::Node<'t>>,
}

impl<'t> FoundSite<'t> {
    /// The node's parent.
    pub fn parent(&self) -> Option<tree_sitter::Node<'t>> {
        self.parent.or_else(|| self.node.parent())
    }
}

/// A symbol site as the project index keeps it: a [`Symbol`] without
/// the ranges edits read.
///
/// [`Symbol`]: crate::analysis::outline::Symbol
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteDefinition {
    pub name: String,
    pub qualified_name: String,
    pub kind: crate::analysis::outline::SymbolKind,
    pub position: crate::edit::Position,
    pub name_position: crate::edit::Position,
    /// From its first token to its end, in chars.
    pub definition: std::ops::Range<usize>,
    /// The element around it (an index of the list), or its type.
    pub parent: Option<usize>,
    /// The trait whose implementation declares a method (Rust).
    pub via_trait: Option<String>,
    /// A member a type implementing a trait or an interface may reach by
    /// its name — Rust's declared in a `trait` or an `impl Trait for T`
    /// block, or in an `impl` of a type the file does not declare beside
    /// it (which the file alone cannot tell from a trait's); a Go, Java or
    /// TypeScript interface's.
    pub trait_member: bool,
    /// Whether a bare use of its name in the file may read it: not for a
    /// CommonJS export key written in place (`exports.f = function () {}`),
    /// which binds no name (a bare `f` there is another, a global's).
    pub binds_name: bool,
    /// A method written on its owner's prototype (JavaScript's
    /// `Route.prototype.dispatch = function () {}`): an instance's, which
    /// its owner's own name does not read (`Route.dispatch` is another).
    pub on_prototype: bool,
}

/// A language's definitions of the elements a walk found, in any order:
/// what its outline of symbol sites says of them, in source order (the
/// text read at the nodes: the index's scan builds no rope).
pub type SiteDefinitions =
    for<'t> fn(&dyn crate::analysis::syntax::TextAt, Vec<FoundSite<'t>>) -> Vec<SiteDefinition>;

/// A language's local variables: adds each function's to an outline of
/// its symbol sites ([`crate::analysis::Outline::locals`]).
pub type LocalSites = fn(&mut crate::analysis::Outline, &Rope, &SyntaxTree);

/// The files the project index scans for a language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexScan {
    /// The extensions of the files it indexes (matched exactly): Python's
    /// modules, `py`.
    pub indexed: &'static [&'static str],
    /// The extensions of the files whose changes it must hear of: its
    /// indexed files and the files that change what they mean (Python's
    /// stubs, `pyi`).
    pub watched: &'static [&'static str],
}

/// Every language Eddi understands, one line each.
pub fn registry() -> &'static [&'static dyn Language] {
    static REGISTRY: &[&dyn Language] = &[
        &python::Python,
        &javascript::JavaScript,
        &typescript::TypeScript,
        &typescript::Tsx,
        &go::Go,
        &rust::Rust,
        &java::Java,
        #[cfg(test)]
        &json::Json,
    ];
    REGISTRY
}

/// The language of a file, by its extension (ignoring case).
pub fn language_of(path: &str) -> Option<&'static dyn Language> {
    let extension = Path::new(path).extension()?.to_str()?;
    registry().iter().copied().find(|language| {
        language
            .extensions()
            .iter()
            .any(|e| e.eq_ignore_ascii_case(extension))
    })
}

/// The language of a file from its extension, else from the interpreter
/// its first line's `#!` names (`#!/usr/bin/env python3`,
/// `#!/usr/bin/python3.12 -u`).
pub fn language_of_source(path: &str, first_line: &str) -> Option<&'static dyn Language> {
    language_of(path).or_else(|| {
        let command = first_line.strip_prefix("#!")?.trim();
        let mut words = command.split_whitespace();
        let mut program = words.next()?.rsplit('/').next()?;
        if program == "env" {
            program = words.find(|w| !w.starts_with('-'))?;
        }
        // `python3.12` is `python3`'s interpreter too
        let program = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        registry().iter().copied().find(|language| {
            language
                .interpreters()
                .iter()
                .any(|i| i.trim_end_matches(|c: char| c.is_ascii_digit()) == program)
        })
    })
}

/// The language of an identifier such as `python` (ignoring case).
pub fn by_id(id: &str) -> Option<&'static dyn Language> {
    registry()
        .iter()
        .copied()
        .find(|language| language.id().eq_ignore_ascii_case(id))
}

/// The language of `path` when it offers `capability`.
pub fn supporting(path: &str, capability: Capability) -> Option<&'static dyn Language> {
    language_of(path).filter(|language| language.supports(capability))
}

/// The extensions of the files the project index scans (every language
/// with an index scan).
pub fn indexed_extensions() -> impl Iterator<Item = &'static str> {
    registry()
        .iter()
        .filter_map(|language| language.index_scan())
        .flat_map(|scan| scan.indexed.iter().copied())
}

/// The extensions of the files whose changes the project index must hear
/// of (what the workspace's watcher reports by path).
pub fn watched_extensions() -> impl Iterator<Item = &'static str> {
    registry()
        .iter()
        .filter_map(|language| language.index_scan())
        .flat_map(|scan| scan.watched.iter().copied())
}
