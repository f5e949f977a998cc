//! TypeScript behind the language seam, as two languages: TypeScript
//! (`.ts`, `.mts`, `.cts`) and TSX (`.tsx`), whose grammars differ where
//! `<T>x` is a type assertion in one and an element in the other. Both
//! are read as JavaScript is ([`super::javascript`]), with the symbol
//! sites of TypeScript's declarations too (overloads, abstract classes,
//! interfaces, type aliases, enums, namespaces) and its members
//! (signatures, interface members); `queries/typescript/outline.scm`
//! says the same as a query.

use ropey::Rope;

use tree_sitter::Node;

use super::javascript::{read, syntax_errors, JS_GLOBALS};
use super::parse_errors::keywords_as_names;
use super::{Language, Outline, SymbolSites, SyntaxCheck};
use crate::analysis::syntax::{node_start, node_text};
use crate::analysis::validate::SyntaxError;
use crate::analysis::SyntaxTree;

/// The TypeScript language (`.ts` files).
#[derive(Debug, Clone, Copy)]
pub struct TypeScript;

/// TypeScript with JSX (`.tsx` files).
#[derive(Debug, Clone, Copy)]
pub struct Tsx;

impl Language for TypeScript {
    fn predeclared(&self, name: &str) -> bool {
        JS_GLOBALS.contains(&name) || TS_GLOBAL_TYPES.contains(&name)
    }

    fn id(&self) -> &'static str {
        "typescript"
    }

    fn name(&self) -> &'static str {
        "TypeScript"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["ts", "mts", "cts"]
    }

    fn interpreters(&self) -> &'static [&'static str] {
        &["ts-node", "tsx"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
    }

    fn omits_member_separators(&self) -> bool {
        true
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        read(&TypeScript, text, tree).outline()
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(typescript_syntax_errors)
    }

    fn brace_edits(&self) -> Option<super::edits::BraceEdits> {
        Some(super::javascript::EDITS)
    }

    fn formatter(&self) -> Option<super::ExternalFormatter> {
        Some(super::javascript::PRETTIER)
    }

    fn issue_checks(&self) -> Option<super::issues::IssueChecks> {
        Some(super::issues::IssueChecks {
            loose_equality: true,
            unused_imports: None,
        })
    }

    fn decision_points(&self) -> Option<super::complexity::DecisionPoints> {
        Some(super::complexity::JAVASCRIPT)
    }

    fn index_scan(&self) -> Option<super::IndexScan> {
        // references, definitions and callers across the project
        // (analysis/index/tags)
        Some(super::IndexScan {
            indexed: &["ts", "mts", "cts"],
            watched: &["ts", "mts", "cts"],
        })
    }

    fn local_sites(&self) -> Option<super::LocalSites> {
        Some(locals_typescript)
    }

    fn renames(&self) -> bool {
        true
    }

    fn symbol_sites(&self) -> Option<SymbolSites> {
        Some(typescript_sites)
    }

    fn site_definitions(&self) -> Option<super::SiteDefinitions> {
        Some(super::javascript::definitions)
    }
}

impl Language for Tsx {
    fn predeclared(&self, name: &str) -> bool {
        JS_GLOBALS.contains(&name) || TS_GLOBAL_TYPES.contains(&name)
    }

    fn id(&self) -> &'static str {
        "tsx"
    }

    fn name(&self) -> &'static str {
        "TSX"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["tsx"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_typescript::LANGUAGE_TSX.into()
    }

    fn omits_member_separators(&self) -> bool {
        true
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        read(&Tsx, text, tree).outline()
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(tsx_syntax_errors)
    }

    fn brace_edits(&self) -> Option<super::edits::BraceEdits> {
        Some(super::javascript::EDITS)
    }

    fn formatter(&self) -> Option<super::ExternalFormatter> {
        Some(super::javascript::PRETTIER)
    }

    fn issue_checks(&self) -> Option<super::issues::IssueChecks> {
        Some(super::issues::IssueChecks {
            loose_equality: true,
            unused_imports: None,
        })
    }

    fn decision_points(&self) -> Option<super::complexity::DecisionPoints> {
        Some(super::complexity::JAVASCRIPT)
    }

    fn index_scan(&self) -> Option<super::IndexScan> {
        // references, definitions and callers across the project
        // (analysis/index/tags)
        Some(super::IndexScan {
            indexed: &["tsx"],
            watched: &["tsx"],
        })
    }

    fn local_sites(&self) -> Option<super::LocalSites> {
        Some(locals_tsx)
    }

    fn renames(&self) -> bool {
        true
    }

    fn symbol_sites(&self) -> Option<SymbolSites> {
        Some(tsx_sites)
    }

    fn site_definitions(&self) -> Option<super::SiteDefinitions> {
        Some(super::javascript::definitions)
    }
}

/// A TypeScript file's symbols as code targets name them.
fn typescript_sites(text: &Rope, tree: &SyntaxTree) -> crate::analysis::Outline {
    read(&TypeScript, text, tree).symbols
}

/// A TSX file's symbols as code targets name them.
fn tsx_sites(text: &Rope, tree: &SyntaxTree) -> crate::analysis::Outline {
    read(&Tsx, text, tree).symbols
}

/// The locals of a TypeScript file's functions (`Variable f.x`).
fn locals_typescript(outline: &mut crate::analysis::Outline, text: &Rope, _tree: &SyntaxTree) {
    super::locals::add_locals(&TypeScript, outline, text);
}

/// The locals of a Tsx file's functions (`Variable f.x`).
fn locals_tsx(outline: &mut crate::analysis::Outline, text: &Rope, _tree: &SyntaxTree) {
    super::locals::add_locals(&Tsx, outline, text);
}

/// TypeScript's own global types (the utility types, the iteration
/// protocols), besides JavaScript's globals.
pub(crate) const TS_GLOBAL_TYPES: &[&str] = &[
    "Partial",
    "Required",
    "Readonly",
    "Record",
    "Pick",
    "Omit",
    "Exclude",
    "Extract",
    "NonNullable",
    "ReturnType",
    "Parameters",
    "ConstructorParameters",
    "InstanceType",
    "ThisType",
    "Awaited",
    "Uppercase",
    "Lowercase",
    "Capitalize",
    "Uncapitalize",
    "NoInfer",
    "PromiseLike",
    "ArrayLike",
    "Iterable",
    "Iterator",
    "IterableIterator",
    "AsyncIterable",
    "AsyncIterator",
    "AsyncIterableIterator",
    "Generator",
    "AsyncGenerator",
    "ReadonlyArray",
    "ReadonlyMap",
    "ReadonlySet",
    "PropertyKey",
    "TemplateStringsArray",
];

/// A TypeScript file's syntax errors: the grammar's, confirmed by `tsc`
/// when it finds any ([`super::tsc`]: the grammar rejects some valid
/// TypeScript).
fn typescript_syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    confirmed(grammar_errors(text, tree), text, "ts")
}

/// A TSX file's, as [`typescript_syntax_errors`].
fn tsx_syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    confirmed(grammar_errors(text, tree), text, "tsx")
}

/// JavaScript's reserved words, never names (tree-sitter-typescript 0.23
/// takes them where it expects one: `export default default`, `var
/// class`; tree-sitter-javascript reserves them itself).
pub(crate) const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
];

/// The grammar's errors of a TypeScript file and its reserved words taken
/// as names (an import's or export's `default` is one: `import {
/// default as x }`), at the word.
fn grammar_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let mut errors = syntax_errors(text, tree);
    let names = keywords_as_names(text, tree.root(), &["identifier"], RESERVED);
    let specifier = |n: &Node<'_>| {
        n.parent()
            .is_some_and(|p| matches!(p.kind(), "import_specifier" | "export_specifier"))
    };
    errors.extend(
        names
            .iter()
            .filter(|n| !specifier(n))
            .map(|name| SyntaxError {
                position: node_start(text, *name),
                message: format!(
                    "'{}' is a reserved word, not a name",
                    node_text(text, *name)
                ),
            }),
    );
    errors.sort_by_key(|e| e.position);
    errors
}

fn confirmed(found: Vec<SyntaxError>, text: &Rope, extension: &str) -> Vec<SyntaxError> {
    match found.is_empty() {
        true => found,
        false => super::tsc::syntax_errors(text, extension).unwrap_or(found),
    }
}
