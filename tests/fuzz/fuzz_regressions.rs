//! What the fuzz targets found (`docs/RELIABILITY.md` lists each finding
//! with its target and input), one test per bug, named after what broke.
//! The minimised inputs are also in `fuzz/corpus/<target>/regression-*`,
//! replayed by `tests/fuzz/fuzz_corpus.rs`.

use eddi::analysis::complexity::blocks;
use eddi::analysis::dependencies::{dependencies_of, imports};
use eddi::analysis::index::disk::index_text;
use eddi::analysis::issues::IssueConfig;
use eddi::analysis::validate::syntax_errors;
use eddi::analysis::{Analysis, SyntaxTree};
use eddi::change::{Base, ChangeError, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use eddi::workspace::Workspace;
use ropey::Rope;

/// `change`: the range check looked at the first of each pair only, so an
/// inverted range sorted last (or alone) was accepted as a valid edit; an
/// inverted range without text was even dropped as a no-op.
#[test]
#[allow(clippy::reversed_empty_ranges)] // inverted ranges are the point
fn text_edits_refuse_an_inverted_range_wherever_it_sorts() {
    let inverted = [
        vec![Indel::new(1..2, ""), Indel::new(4..2, "x")],
        vec![Indel::new(4..2, "x")],
        vec![Indel::new(4..2, "")],
        vec![Indel::new(4..2, "x"), Indel::new(7..8, "y")],
    ];
    for indels in inverted {
        assert!(
            TextEdits::new(indels.clone()).is_err(),
            "accepted {indels:?}"
        );
    }
    // A no-op is still dropped, and touching edits are still fine.
    let fine = TextEdits::new([
        Indel::new(3..3, ""),
        Indel::new(1..2, "a"),
        Indel::new(2..4, ""),
    ])
    .unwrap();
    assert_eq!(fine.len(), 2);
}

/// `analysis`: the scope walk (expressions, targets, match patterns), the
/// complexity visitor, the import walk, the issue and string walks, the
/// syntax-error walk and the outline's target names and content end all
/// recursed once per level of syntax nesting, so `x = ((((…1))))` a few
/// thousand levels deep (a few KB of text, one message) overflowed the
/// stack and aborted the whole process. Each shape here crashed at least
/// one of them on a 2 MB thread (the size of Eddi's router threads).
#[test]
fn deeply_nested_code_does_not_overflow_the_stack() {
    let n = 20_000;
    let shapes = [
        format!("x = {}1{}\n", "(".repeat(n), ")".repeat(n)),
        format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n)),
        format!("x = {}1{}\n", "f(".repeat(n), ")".repeat(n)),
        format!("x = {}1\n", "-".repeat(n)),
        format!("x = 1{}\n", " + 1".repeat(n)),
        format!("f = {}0\n", "lambda: ".repeat(n)),
        format!("x = a{}\n", ".b".repeat(n)),
        format!("x = {}1 +{}\n", "(".repeat(n), ")".repeat(n)),
        format!("x = {}1, def{}\n", "[".repeat(n), "]".repeat(n)),
        format!("{}a{} = 1\n", "(".repeat(n), ")".repeat(n)),
        format!(
            "def f():\n    return {}1{}\n",
            "[".repeat(n * 10),
            "]".repeat(n * 10)
        ),
        format!(
            "match x:\n    case {}a{}:\n        pass\n",
            "[".repeat(n),
            "]".repeat(n)
        ),
        (0..2000)
            .map(|i| format!("{}if x:\n", " ".repeat(i)))
            .collect::<String>()
            + &" ".repeat(2000)
            + "pass\n",
    ];
    for source in shapes {
        let outcome = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let text = Rope::from_str(&source);
                let tree = SyntaxTree::parse(&text).unwrap();
                let analysis = Analysis::new(&text, &tree);
                let _ = blocks(&text, &tree);
                let _ = imports(&text, &tree);
                let _ = syntax_errors(&text, &tree);
                let _ = analysis.report(&text, &tree, None, &IssueConfig::default());
                for symbol in &analysis.outline.symbols {
                    let _ = dependencies_of(&text, &tree, &analysis.scopes, symbol);
                }
                let _ = index_text(&("m".to_owned(), false), &source);
            })
            .unwrap()
            .join();
        assert!(outcome.is_ok());
    }
}

/// `change`: `union` checked that no move's destination was another
/// file's part, but not that two moves went to the same destination: the
/// union of `a.py → c.py` and `b.py → c.py` was accepted as one change.
#[test]
fn two_moves_onto_one_destination_do_not_combine() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::new(dir.path(), 1 << 20).unwrap();
    let path = |p: &str| ws.resolve(p).unwrap();
    let move_to = |to: &str| FileChange {
        base: Base::Absent,
        op: FileOp::Move {
            to: path(to),
            edits: TextEdits::default(),
        },
    };
    let mut a = WorkspaceChange::new();
    a.insert(path("a.py"), move_to("c.py")).unwrap();
    let mut b = WorkspaceChange::new();
    b.insert(path("b.py"), move_to("c.py")).unwrap();
    assert_eq!(
        a.clone().union(b).unwrap_err(),
        ChangeError::MoveTarget(path("c.py"))
    );
    assert!(a.insert(path("b.py"), move_to("c.py")).is_err());
    // Moves to different destinations still combine.
    let mut d = WorkspaceChange::new();
    d.insert(path("d.py"), move_to("e.py")).unwrap();
    assert!(a.union(d).is_ok());
}

/// OPEN — `analysis`: `o:P i,` is not Python (CPython: invalid syntax) and
/// its tree has an error (`root.has_error()`), a MISSING `_newline`
/// between the two statements; but `_newline` is a hidden token, so the
/// MISSING node is invisible to tree-sitter's node API and
/// `validate::syntax_errors` reports nothing (`Validate` would answer that
/// the file is fine). See docs/RELIABILITY.md, finding 4. Input:
/// `fuzz/corpus/analysis/syntax-errors-missed`.
#[test]
fn validate_reports_the_hidden_missing_newline_of_o_p_i() {
    let text = Rope::from_str("o:P i,");
    let tree = SyntaxTree::parse(&text).unwrap();
    assert!(tree.has_errors());
    assert!(!syntax_errors(&text, &tree).is_empty());
}

/// `parser`: a replacement holding a line break was quoted raw in its
/// error (`Unclosed '${' in the replacement "${\n…`), so the error was
/// several lines; errors quote user text as one short line (`excerpt`).
/// Input: `fuzz/corpus/parser/regression-replacement-with-line-break`.
#[test]
fn replacement_errors_quote_line_breaks_on_one_line() {
    for text in [
        "Replace All /(x)+d/ With \"${\n\0&$\"",
        "Replace All /x/ With \"${}\n\"",
        "Replace All /x/ With \"$nope\nmore\"",
        "Replace All /(x)/ With \"$1_id\nrest\"",
    ] {
        for statement in eddi::commands::parse_message(text) {
            if let Err(error) = statement.parsed {
                assert!(
                    !error.message.contains('\n') && !error.message.contains('\r'),
                    "{:?}",
                    error.message
                );
            }
        }
    }
}
