//! The Python analyses on arbitrary text: outline, scopes and references,
//! complexity, issues, syntax errors, dependencies, `enclosing`, the
//! report of the file and of every symbol, and the project index's per-file
//! scan. None may panic or hang (the fuzz runs give each input a time
//! limit; inputs are capped at `MAX_LEN` bytes). What they return must be
//! well formed:
//!
//! - every char range lies in the text and is not inverted, every position
//!   is a valid position of the text;
//! - outline parents come before their children; scope, binding and
//!   reference indices point at existing scopes, each scope's parent
//!   before it;
//! - syntax errors are sorted, and there are none when the tree has no
//!   ERROR or MISSING nodes (the converse is an open finding, see below).

use eddi::analysis::compile_checks::compile_errors;
use eddi::analysis::complexity::blocks;
use eddi::analysis::dependencies::{dependencies_of, imports};
use eddi::analysis::index::disk::index_text;
use eddi::analysis::issues::IssueConfig;
use eddi::analysis::outline::{enclosing, Enclosing};
use eddi::analysis::scope::Resolution;
use eddi::analysis::validate::syntax_errors;
use eddi::analysis::{Analysis, SymbolKind, SyntaxTree};
use eddi::commands::CodeTarget;
use eddi::edit::position::{line_count, to_char};
use eddi::edit::Position;
use ropey::Rope;
use std::ops::Range;

/// Inputs are cut here: the analyses are linear-ish, and a bigger input
/// only makes the fuzzer slower, not smarter.
pub const MAX_LEN: usize = 64 * 1024;

pub fn check(data: &[u8]) {
    let data = &data[..data.len().min(MAX_LEN)];
    let source = String::from_utf8_lossy(data);
    let text = Rope::from_str(&source);
    let len = text.len_chars();
    let tree = SyntaxTree::parse(&text).expect("Python parses");
    let analysis = Analysis::new(&text, &tree);
    let valid = |pos: Position| {
        assert!(to_char(&text, pos).is_ok(), "invalid position {pos}");
    };
    let inside = |r: &Range<usize>, what: &str| {
        assert!(
            r.start <= r.end && r.end <= len,
            "{what} range {r:?} in {len} chars"
        );
    };

    let symbols = &analysis.outline.symbols;
    for (i, s) in symbols.iter().enumerate() {
        valid(s.position);
        valid(s.name_position);
        valid(s.end);
        inside(&s.definition, "definition");
        inside(&s.full, "full");
        if let Some(body) = &s.body {
            inside(body, "body");
        }
        assert!(s.full_lines.first <= s.full_lines.last);
        assert!(s.full_lines.last < line_count(&text));
        if let Some(parent) = s.parent {
            assert!(parent < i, "parent {parent} of symbol {i} comes after it");
        }
    }
    let scopes = &analysis.scopes;
    for (i, scope) in scopes.scopes.iter().enumerate() {
        inside(&scope.range, "scope");
        if let Some(parent) = scope.parent {
            assert!(parent < i, "scope {i}'s parent {parent} comes after it");
        }
    }
    let n = scopes.scopes.len();
    for b in &scopes.bindings {
        assert!(b.scope < n);
        inside(&b.range, "binding");
        inside(&b.statement, "statement");
    }
    for r in &scopes.references {
        assert!(r.scope < n);
        inside(&r.range, "reference");
        if let Resolution::Scope(s) = r.resolution {
            assert!(s < n, "reference resolved to scope {s} of {n}");
        }
    }
    for a in &scopes.attributes {
        assert!(a.scope < n);
        inside(&a.attribute_range, "attribute");
    }

    let errors = syntax_errors(&text, &tree);
    // Errors in a tree without ERROR or MISSING nodes come only from the
    // compile-time checks (code CPython refuses after parsing: `return`
    // outside a function, 100 levels of indentation …).
    assert!(
        errors.is_empty() || tree.has_errors() || !compile_errors(&text, &tree).is_empty(),
        "syntax errors {errors:?} in a tree without errors"
    );
    assert!(errors.windows(2).all(|w| w[0].position <= w[1].position));
    for e in &errors {
        valid(e.position);
    }
    for block in blocks(&text, &tree) {
        for inner in block.flatten() {
            valid(inner.position);
        }
    }
    for import in imports(&text, &tree) {
        valid(import.position);
        inside(&import.statement, "import");
    }

    let config = IssueConfig::default();
    let report = analysis
        .report(&text, &tree, None, &config)
        .expect("the file's report");
    for issue in &report.issues {
        valid(issue.position);
    }
    for (i, symbol) in symbols.iter().enumerate() {
        let _ = dependencies_of(&text, &tree, scopes, symbol);
        // Each report analyses the whole file again: a few are enough.
        if i < 8 {
            if let Some(target) = target(&analysis, symbol) {
                let _ = analysis.report(&text, &tree, Some(&target), &config);
            }
        }
    }
    for line in 0..line_count(&text).min(64) {
        let at = Position::new(line, 0);
        let _ = enclosing(&analysis.outline, &text, at, Enclosing::Function);
        let _ = enclosing(&analysis.outline, &text, at, Enclosing::Class);
    }

    let index =
        index_text(&("pkg.mod".to_owned(), false), &source).expect("the index scans any text");
    assert_eq!(index.has_syntax_errors, tree.has_errors());
    for def in &index.defs {
        valid(def.position);
        valid(def.name_position);
    }
}

/// The command target that names `symbol`.
fn target(analysis: &Analysis, symbol: &eddi::analysis::Symbol) -> Option<CodeTarget> {
    Some(match symbol.kind {
        SymbolKind::Function => CodeTarget::Function {
            name: symbol.name.clone(),
            params: symbol.params.clone(),
        },
        SymbolKind::Method => CodeTarget::Method {
            class: analysis.outline.parent(symbol)?.name.clone(),
            name: symbol.name.clone(),
            params: symbol.params.clone(),
        },
        SymbolKind::Class => CodeTarget::Class {
            name: symbol.name.clone(),
        },
        SymbolKind::Variable | SymbolKind::Attribute => CodeTarget::Variable {
            name: symbol.name.clone(),
        },
        // Locals are added to an outline only when a target names one.
        SymbolKind::Local => return None,
    })
}
