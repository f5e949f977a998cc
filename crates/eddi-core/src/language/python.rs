//! Python behind the language seam: every capability, each delegated to
//! the analyses of `crate::analysis` (its outline, syntax and compile
//! checks, scopes) and to the project index and the refactors built on
//! them.

use ropey::Rope;

use super::{IndexScan, Language, LocalSites, Outline, SymbolSites, SyntaxCheck};
use crate::analysis::outline::{self as symbols, display_name, SymbolKind};
use crate::analysis::{grammar, validate, SyntaxTree};

/// The Python language.
#[derive(Debug, Clone, Copy)]
pub struct Python;

impl Language for Python {
    fn id(&self) -> &'static str {
        "python"
    }

    fn name(&self) -> &'static str {
        "Python"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["py", "pyi", "pyw"]
    }

    fn interpreters(&self) -> &'static [&'static str] {
        &["python", "python3", "pypy", "pypy3"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        grammar::python()
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        outline_of(&symbols::outline(text, tree))
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(validate::syntax_errors)
    }

    fn symbol_sites(&self) -> Option<SymbolSites> {
        Some(symbols::outline)
    }

    fn local_sites(&self) -> Option<LocalSites> {
        Some(symbols::Outline::add_locals)
    }

    fn code_edits(&self) -> bool {
        true
    }

    fn code_analyses(&self) -> bool {
        true
    }

    fn offside_rule(&self) -> bool {
        true
    }

    fn index_scan(&self) -> Option<IndexScan> {
        Some(IndexScan {
            // modules; stubs are read beside them, not indexed
            indexed: &["py"],
            watched: &["py", "pyi"],
        })
    }

    fn refactors(&self) -> bool {
        true
    }
}

/// Python's outline of symbols as the seam's outline: each symbol under
/// the name that names it alone (its qualified form where the plain name
/// is ambiguous), from its keyword to the line after it.
pub fn outline_of(outline: &crate::analysis::Outline) -> Outline {
    Outline {
        entries: outline
            .symbols
            .iter()
            .map(|s| {
                let form = display_name(outline, s);
                super::Entry {
                    kind: s.kind.noun(),
                    name: if form == s.qualified_name {
                        s.name.clone()
                    } else {
                        form.clone()
                    },
                    form,
                    is_async: s.is_async
                        && matches!(s.kind, SymbolKind::Function | SymbolKind::Method),
                    start: s.position,
                    end: s.end,
                    parent: s.parent,
                }
            })
            .collect(),
    }
}
