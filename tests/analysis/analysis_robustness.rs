//! No panics on any input: random damage to real Python source, then every
//! analysis and every edit computation; produced edits must be well formed.

use eddi::analysis::comment::comment;
use eddi::analysis::complexity::blocks;
use eddi::analysis::delete::delete_symbol;
use eddi::analysis::dependencies::dependencies_of;
use eddi::analysis::insert::{insert_definition, insert_import};
use eddi::analysis::issues::IssueConfig;
use eddi::analysis::modify::modify;
use eddi::analysis::outline::{enclosing, Enclosing};
use eddi::analysis::reindent::reindent;
use eddi::analysis::textedit::check;
use eddi::analysis::{Analysis, SymbolKind, SyntaxTree};
use eddi::commands::command::{CodeTarget, CommentStyle, InsertKind, Modification, Visibility};
use eddi::edit::position::from_char;
use proptest::prelude::*;
use ropey::Rope;

const SOURCES: &[&str] = &[
    include_str!("../fixtures/python/inventory.py"),
    include_str!("../fixtures/python/shadowing.py"),
];

const FRAGMENTS: &[&str] = &[
    "",
    ":",
    "(",
    ")",
    "[",
    "\"\"\"",
    "'",
    "\n",
    "\r\n",
    "    ",
    "\t",
    "def ",
    "class ",
    "@",
    "import ",
    "from . import *",
    "lambda",
    "é",
    "🎉",
    "#",
    "\\",
    "if x:\n",
    "except:\n",
    "=",
];

fn target_of(a: &Analysis, i: usize) -> Option<CodeTarget> {
    let s = a.outline.symbols.get(i % a.outline.symbols.len().max(1))?;
    Some(match s.kind {
        SymbolKind::Function => CodeTarget::Function {
            name: s.name.clone(),
            params: s.params.clone(),
        },
        SymbolKind::Method => CodeTarget::Method {
            class: a
                .outline
                .parent(s)
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            name: s.name.clone(),
            params: None,
        },
        SymbolKind::Class => CodeTarget::Class {
            name: s.name.clone(),
        },
        SymbolKind::Variable | SymbolKind::Attribute | SymbolKind::Local => CodeTarget::Variable {
            name: s.name.clone(),
        },
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn analyses_and_edits_never_panic(
        source in 0..SOURCES.len(),
        damage in prop::collection::vec((any::<usize>(), 0usize..6, 0..FRAGMENTS.len()), 0..6),
        pick in any::<usize>(),
        line in 0usize..90,
    ) {
        let mut text = Rope::from_str(SOURCES[source]);
        for (at, len, frag) in damage {
            let n = text.len_chars();
            let start = at % (n + 1);
            let end = (start + len).min(n);
            text.remove(start..end);
            text.insert(start, FRAGMENTS[frag]);
        }
        let tree = SyntaxTree::parse(&text).unwrap();
        let a = Analysis::new(&text, &tree);
        let _ = blocks(&text, &tree);
        for e in eddi::analysis::validate::syntax_errors(&text, &tree) {
            prop_assert!(e.position.line < text.len_lines());
        }
        let report = a.report(&text, &tree, None, &IssueConfig::default()).unwrap();
        for s in &a.outline.symbols {
            let _ = dependencies_of(&text, &tree, &a.scopes, s);
            prop_assert!(s.full.start <= s.full.end && s.full.end <= text.len_chars());
        }
        let _ = report;
        let cursor = from_char(&text, text.line_to_char(line.min(text.len_lines() - 1)));
        let _ = enclosing(&a.outline, &text, cursor, Enclosing::Class);
        for kind in [InsertKind::Method, InsertKind::Function, InsertKind::Class] {
            let code = if kind == InsertKind::Class { "class Z:\n pass" } else { "def z(self):\n return 1" };
            if let Ok(r) = insert_definition(&text, &tree, &a.outline, cursor, kind, code) {
                prop_assert!(check(&text, &r.edits).is_ok());
            }
        }
        if let Ok(r) = insert_import(&text, &tree, "from collections import deque") {
            prop_assert!(check(&text, &r.edits).is_ok());
        }
        if let Some(target) = target_of(&a, pick) {
            let changes = [
                Modification::Rename { new_name: "renamed".into() },
                Modification::AddParam { param: "extra=None".into(), at: Some(pick % 3) },
                Modification::RemoveParam { name: "self".into() },
                Modification::ChangeSignature { params: "a, b".into() },
                Modification::AddDecorator { decorator: "cached".into() },
                Modification::SetVisibility { visibility: Visibility::Protected },
            ];
            for change in &changes {
                if let Ok(r) = modify(&text, &tree, &a.outline, &target, change) {
                    prop_assert!(check(&text, &r.edits).is_ok());
                }
            }
            if let Ok(symbol) = a.lookup(&target) {
                let r = delete_symbol(&text, &a.outline, symbol).unwrap();
                prop_assert!(check(&text, &r.edits).is_ok());
                for style in [CommentStyle::Line, CommentStyle::Block, CommentStyle::Docstring] {
                    if let Ok((r, _)) = comment(&text, &tree, symbol, "Doc \u{3000}text\n\n  more", style, true) {
                        prop_assert!(check(&text, &r.edits).is_ok());
                    }
                }
            }
        }
        let snippet: String = text.slice(..text.len_chars().min(200)).to_string();
        let _ = reindent(&snippet, "    ", "  ");
    }
}
