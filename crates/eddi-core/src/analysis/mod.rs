//! Code intelligence for one file (tree-sitter): syntax trees, symbols,
//! analyses, and code edits computed as data.
//!
//! Pure: every function takes a [`ropey::Rope`] and/or a [`SyntaxTree`] and
//! returns data. Edits are the change's [`crate::change::Indel`]s in char
//! offsets of the current text (sorted, non-overlapping), never applied;
//! generated text uses `'\n'` and the applier writes the file's line ending. Positions are
//! [`crate::edit::Position`]s (chars); [`syntax`] is the only place that
//! converts tree-sitter bytes/points. Nothing panics on bad input: trees with
//! ERROR nodes are analysed as far as they go. The only process spawned is
//! the formatter in [`format`].
//!
//! Code map:
//! * [`grammar`] — Python's grammar and its kind names. This tree is the
//!   Python wing of the language seam (`crate::language`, where the
//!   registry of programming languages lives; `crate::language::python`
//!   implements the seam's trait by delegating here).
//! * [`syntax`] — [`SyntaxTree`]: parse from rope chunks, incremental edits,
//!   byte/point ↔ position conversions.
//! * [`identifier`] — Python's identifier shape and keywords.
//! * [`lines`] — line text, indentation, CRLF-aware helpers.
//! * [`nodes`] — small questions about nodes (parentheses, docstrings,
//!   dotted names, children) asked in several places.
//! * [`outline`] — symbols, [`outline::lookup`] of command targets,
//!   [`outline::enclosing`] function/class.
//! * [`scope`] — scopes, bindings, references (LEGB).
//! * [`complexity`] — radon-exact cyclomatic complexity.
//! * [`dependencies`] — imports and what an element uses.
//! * [`issues`], [`validate`] — problems and syntax errors;
//!   [`compile_checks`] — the errors CPython's compiler adds to its parser's.
//! * [`textedit`], [`reindent`], [`insert`], [`delete`], [`modify`],
//!   [`comment`], [`format`] — edits.
//!
//! The project-wide index lives in `analysis::index` (built on this layer).

pub mod brace_dependencies;
pub mod changes;
pub mod comment;
pub mod compile_checks;
pub mod complexity;
pub mod delete;
pub mod dependencies;
pub mod error;
pub mod format;
pub mod grammar;
pub mod identifier;
pub mod index;
pub mod insert;
pub mod issues;
pub mod lines;
pub mod modify;
pub mod nodes;
pub mod outline;
pub mod pattern;
pub mod reindent;
pub mod scope;
pub mod symtable;
pub mod syntax;
pub mod target;
pub mod textedit;
pub mod validate;

pub use error::{AnalysisError, Candidate};
pub use outline::{Enclosing, Outline, Symbol, SymbolKind};
pub use syntax::{CharEdit, SyntaxTree};
pub use textedit::EditResult;

use ropey::Rope;

use crate::analysis::target::CodeTarget;
use dependencies::Dependencies;
use issues::{Issue, IssueConfig};
use scope::Scopes;

/// What one parse of a file yields: its outline and its scopes. Cheap to
/// rebuild after each edit; holds no reference to the text or tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub outline: Outline,
    pub scopes: Scopes,
}

/// Structured answer for `Analyze File|<target> [kind]`; the engine words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The element analysed; `None` for the whole file.
    pub symbol: Option<Symbol>,
    /// radon's complexity of the element (`None` for files and variables).
    pub complexity: Option<u32>,
    /// Complexity of every function, method and class inside (qualified
    /// name, complexity), in source order.
    pub complexities: Vec<(String, u32)>,
    /// For an element: what it uses. For the file: every import, with
    /// `internal`/`builtins`/`unresolved` over all module-level code.
    pub dependencies: Dependencies,
    pub issues: Vec<Issue>,
    /// Symbols nested in the element (all symbols for the file).
    pub structure: Vec<Symbol>,
}

impl Analysis {
    pub fn new(text: &Rope, tree: &SyntaxTree) -> Self {
        Analysis {
            outline: outline::outline(text, tree),
            scopes: scope::analyze(text, tree),
        }
    }

    pub fn lookup(&self, target: &CodeTarget) -> Result<&Symbol, AnalysisError> {
        outline::lookup(&self.outline, target)
    }

    /// Complexity, dependencies, issues and structure of the file
    /// (`target` = `None`) or of one element.
    pub fn report(
        &self,
        text: &Rope,
        tree: &SyntaxTree,
        target: Option<&CodeTarget>,
        config: &IssueConfig,
    ) -> Result<Report, AnalysisError> {
        let all_issues = issues::issues(text, tree, &self.outline, &self.scopes, config);
        let blocks = complexity::blocks(text, tree);
        let mut by_position: Vec<(crate::edit::Position, u32)> = Vec::new();
        for b in &blocks {
            for inner in b.flatten() {
                by_position.push((inner.position, inner.complexity));
            }
        }
        let complexity_at = |s: &Symbol| {
            by_position
                .iter()
                .find(|(p, _)| *p == s.position)
                .map(|(_, c)| *c)
                .or_else(|| complexity::of_symbol(text, tree, s))
        };
        match target {
            None => {
                let complexities = self
                    .outline
                    .symbols
                    .iter()
                    .filter(|s| s.kind.is_callable() || s.kind == SymbolKind::Class)
                    .filter_map(|s| {
                        complexity_at(s).map(|c| (outline::display_name(&self.outline, s), c))
                    })
                    .collect();
                let mut dependencies = Dependencies {
                    imports: dependencies::imports(text, tree),
                    ..Dependencies::default()
                };
                for r in &self.scopes.references {
                    let bucket = match r.resolution {
                        scope::Resolution::Builtin => &mut dependencies.builtins,
                        scope::Resolution::Star | scope::Resolution::Undefined => {
                            &mut dependencies.unresolved
                        }
                        scope::Resolution::Scope(_) => continue,
                    };
                    if !bucket.contains(&r.name) {
                        bucket.push(r.name.clone());
                    }
                }
                dependencies.builtins.sort();
                dependencies.unresolved.sort();
                Ok(Report {
                    symbol: None,
                    complexity: None,
                    complexities,
                    dependencies,
                    issues: all_issues,
                    structure: self.outline.symbols.clone(),
                })
            }
            Some(target) => {
                let symbol = self.lookup(target)?;
                let inside = |s: &Symbol| {
                    !std::ptr::eq(s, symbol)
                        && s.full_lines.first >= symbol.full_lines.first
                        && s.full_lines.last <= symbol.full_lines.last
                        && s.definition.start >= symbol.definition.start
                };
                let complexities = std::iter::once(symbol)
                    .chain(self.outline.symbols.iter().filter(|s| inside(s)))
                    .filter(|s| s.kind.is_callable() || s.kind == SymbolKind::Class)
                    .filter_map(|s| {
                        complexity_at(s).map(|c| (outline::display_name(&self.outline, s), c))
                    })
                    .collect();
                Ok(Report {
                    symbol: Some(symbol.clone()),
                    complexity: complexity_at(symbol),
                    complexities,
                    dependencies: dependencies::dependencies_of(text, tree, &self.scopes, symbol),
                    issues: issues::issues_within(&all_issues, symbol)
                        .into_iter()
                        .cloned()
                        .collect(),
                    structure: self
                        .outline
                        .symbols
                        .iter()
                        .filter(|s| inside(s))
                        .cloned()
                        .collect(),
                })
            }
        }
    }
}
