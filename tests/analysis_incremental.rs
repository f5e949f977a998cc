//! Random edit sequences on Python source: the incrementally edited tree must
//! print the same S-expression as a fresh parse of the final text.

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

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
            prop_assert_eq!(tree.to_sexp(), fresh.to_sexp(), "text: {:?}", text.to_string());
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
        prop_assert_eq!(tree.to_sexp(), fresh.to_sexp(), "text: {:?}", text.to_string());
    }
}
