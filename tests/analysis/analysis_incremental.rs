//! Random edit sequences on Python source: the incrementally edited tree must
//! print the same S-expression as a fresh parse of the final text.
//!
//! Exception, upstream: when the text has syntax errors, tree-sitter's error
//! recovery may shape ERROR nodes differently after an incremental reparse
//! than after a fresh one (reproduced with plain `tree_sitter::Parser`,
//! `String` text and hand-computed `InputEdit`s, e.g. inserting `"""` twice
//! into a class body). For such texts the property is that both trees agree
//! that there are errors; for error-free texts the trees must be identical.

use eddi::analysis::{CharEdit, SyntaxTree};
use proptest::prelude::*;
use ropey::Rope;

const SOURCE: &str = "import os\r\nfrom .a import b as c\n\n@decorator(1)\nclass Outer:\n    \"\"\"Döc\"\"\"\n    x: int = 1\n\n    class Inner:\n        def m(self, y=[]):\n            return [i for i in y if i]\n\n    async def run(self, *args, **kw):\n        try:\n            await go(lambda z: z or 1)\n        except:\n            pass\n\n\ndef naïve(a, b='€🎉'):\n    if a and b:\n        return a if b else None\n    while True:\n        break\n";

/// Fragments that make, break and repair Python syntax.
const FRAGMENTS: &[&str] = &[
    "",
    "x",
    " ",
    "\n",
    "\r\n",
    "    ",
    ":",
    "(",
    ")",
    "def ",
    "class ",
    "if x:\n    pass\n",
    "'",
    "\"\"\"",
    "é",
    "🎉",
    "return",
    "#",
    "lambda: 0",
    "[",
    "]",
    ",",
    "async ",
    "\n\n",
];

#[derive(Debug, Clone)]
struct Op {
    start: usize,
    len: usize,
    fragment: usize,
}

fn op() -> impl Strategy<Value = Op> {
    (any::<usize>(), 0usize..8, 0..FRAGMENTS.len()).prop_map(|(start, len, fragment)| Op {
        start,
        len,
        fragment,
    })
}

fn apply(rope: &mut Rope, op: &Op) -> CharEdit {
    let n = rope.len_chars();
    let start = if n == 0 { 0 } else { op.start % (n + 1) };
    let old_end = (start + op.len).min(n);
    let text = FRAGMENTS[op.fragment];
    rope.remove(start..old_end);
    rope.insert(start, text);
    CharEdit {
        start,
        old_end,
        new_end: start + text.chars().count(),
    }
}

/// Identical trees for error-free text; agreement on "has errors" otherwise.
fn same_tree(
    incremental: &SyntaxTree,
    fresh: &SyntaxTree,
    text: &Rope,
) -> Result<(), TestCaseError> {
    if fresh.has_errors() {
        prop_assert!(incremental.has_errors(), "text: {:?}", text.to_string());
    } else {
        prop_assert_eq!(
            incremental.to_sexp(),
            fresh.to_sexp(),
            "text: {:?}",
            text.to_string()
        );
    }
    Ok(())
}

/// Edits that keep the source valid Python must give identical trees.
#[test]
fn valid_edits_give_identical_trees() {
    let mut text = Rope::from_str(SOURCE);
    let mut tree = SyntaxTree::parse(&text).unwrap();
    let steps: &[(&str, &str)] = &[
        ("x: int = 1", "x: int = 2  # ü"),
        ("def m(self, y=[]):", "def m(self, y=None, *, z=1):"),
        ("pass\n", "return [k async for k in kw]\n"),
        (
            "    while True:\n        break\n",
            "    match a:\n        case [1, *rest]:\n            pass\n",
        ),
    ];
    for (from, to) in steps {
        let old = text.clone();
        let s = text.to_string();
        let byte = s.find(from).unwrap();
        let start = text.byte_to_char(byte);
        let old_end = start + from.chars().count();
        text.remove(start..old_end);
        text.insert(start, to);
        let edit = CharEdit {
            start,
            old_end,
            new_end: start + to.chars().count(),
        };
        tree.edit(&old, &text, &[edit]).unwrap();
        let fresh = SyntaxTree::parse(&text).unwrap();
        assert!(!fresh.has_errors(), "{}", text);
        assert_eq!(tree.to_sexp(), fresh.to_sexp());
    }
}

/// Statements inserted at the start of a line, with that line's indentation.
const STATEMENTS: &[&str] = &[
    "pass",
    "x = 1",
    "y = [i for i in range(3) if i]",
    "# comment ü",
    "z = 'é🎉'",
    "if a:\n{indent}    b = 2",
    "del q",
    "return None",
];

/// An edit that usually keeps the source valid: a statement or blank line at
/// the start of a line, or an identifier replaced by another.
fn valid_edit(text: &mut Rope, kind: usize, at: usize, which: usize) -> CharEdit {
    let lines = text.len_lines();
    let line = at % lines;
    let start = text.line_to_char(line);
    let line_text = text.line(line).to_string();
    let indent: String = line_text.chars().take_while(|c| *c == ' ').collect();
    let (start, old_end, insert) = match kind % 3 {
        0 if !line_text.trim().is_empty() && !line_text.trim_start().starts_with('@') => {
            let stmt = STATEMENTS[which % STATEMENTS.len()].replace("{indent}", &indent);
            (start, start, format!("{indent}{stmt}\n"))
        }
        1 => {
            // replace the identifier at a word start on this line
            let chars: Vec<char> = line_text.chars().collect();
            let word_start = (0..chars.len()).find(|&i| {
                chars[i].is_alphabetic()
                    && (i == 0 || !chars[i - 1].is_alphanumeric())
                    && i >= which % chars.len().max(1)
            });
            match word_start {
                Some(i) => {
                    let len = chars[i..]
                        .iter()
                        .take_while(|c| c.is_alphanumeric() || **c == '_')
                        .count();
                    let word: String = chars[i..i + len].iter().collect();
                    let keyword = [
                        "def", "class", "async", "await", "import", "from", "as", "return", "if",
                        "else", "while", "for", "in", "try", "except", "pass", "lambda", "and",
                        "or", "True", "None", "break",
                    ]
                    .contains(&word.as_str());
                    if keyword {
                        (start, start, "\n".to_string())
                    } else {
                        (start + i, start + i + len, "renamed_ü".to_string())
                    }
                }
                None => (start, start, "\n".to_string()),
            }
        }
        _ => (start, start, "\n".to_string()),
    };
    text.remove(start..old_end);
    text.insert(start, &insert);
    CharEdit {
        start,
        old_end,
        new_end: start + insert.chars().count(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Mostly valid edits: wherever the result parses without errors, the
    /// incremental tree must equal the fresh one.
    #[test]
    fn mostly_valid_edits_match_fresh_parse(ops in prop::collection::vec((0usize..3, any::<usize>(), any::<usize>()), 1..10)) {
        let mut text = Rope::from_str(SOURCE);
        let mut tree = SyntaxTree::parse(&text).unwrap();
        for (kind, at, which) in ops {
            let old = text.clone();
            let edit = valid_edit(&mut text, kind, at, which);
            tree.edit(&old, &text, &[edit]).unwrap();
            let fresh = SyntaxTree::parse(&text).unwrap();
            same_tree(&tree, &fresh, &text)?;
        }
    }

    /// Each command's edits folded into one `Tree::edit`, then a reparse.
    #[test]
    fn batched_edits_match_fresh_parse(batches in prop::collection::vec(prop::collection::vec(op(), 1..4), 1..6)) {
        let mut text = Rope::from_str(SOURCE);
        let mut tree = SyntaxTree::parse(&text).unwrap();
        for batch in &batches {
            let old = text.clone();
            let edits: Vec<CharEdit> = batch.iter().map(|op| apply(&mut text, op)).collect();
            tree.edit(&old, &text, &edits).unwrap();
            let fresh = SyntaxTree::parse(&text).unwrap();
            same_tree(&tree, &fresh, &text)?;
        }
    }

    /// One `Tree::edit` per edit (intermediate ropes known), one reparse.
    #[test]
    fn stepwise_edits_match_fresh_parse(ops in prop::collection::vec(op(), 1..12)) {
        let mut text = Rope::from_str(SOURCE);
        let mut tree = SyntaxTree::parse(&text).unwrap();
        for (i, op) in ops.iter().enumerate() {
            let before = text.clone();
            let edit = apply(&mut text, op);
            tree.edit_step(&before, &text, edit).unwrap();
            if i % 3 == 2 {
                tree.reparse(&text).unwrap();
            }
        }
        tree.reparse(&text).unwrap();
        let fresh = SyntaxTree::parse(&text).unwrap();
        same_tree(&tree, &fresh, &text)?;
    }
}
