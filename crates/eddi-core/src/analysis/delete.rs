//! `Delete Function|Method|Class <name>` (and variables) as edits.
//!
//! The deleted lines are the symbol's `full_lines`: attached `#` comments,
//! decorators and the whole definition (a variable: its whole statement,
//! even when it binds several names). PEP 8 spacing survives: when blank
//! lines precede the element they are deleted with it (so the blank lines
//! that followed it now separate its neighbours); otherwise the blank lines
//! that follow it go. A class left without members gets a `pass`.

use ropey::Rope;

use super::error::Result;
use super::lines;
use super::outline::{Outline, Symbol};
use super::reindent::detect_unit;
use super::textedit::{apply, EditResult};
use crate::change::Indel;
use crate::edit::position::from_char;

/// Computes the deletion of `symbol`.
pub fn delete_symbol(text: &Rope, outline: &Outline, symbol: &Symbol) -> Result<EditResult> {
    let first = symbol.full_lines.first;
    let last = symbol.full_lines.last;
    let n = lines::count(text);
    // deleting the element empties its class's body?
    let sole_member = outline.parent(symbol).is_some_and(|p| {
        p.kind == super::outline::SymbolKind::Class
            && p.body_lines
                .is_some_and(|b| b.first >= first && b.last <= last)
    });
    let edit = if sole_member {
        let indent = lines::indent_str(&lines::text_of(text, symbol.position.line)).to_string();
        let indent = if indent.is_empty() {
            detect_unit(text)
        } else {
            indent
        };
        Indel::new(
            lines::start(text, first)..lines::end_with_newline(text, last),
            format!("{indent}pass\n"),
        )
    } else {
        let mut before = first;
        while before > 0 && lines::is_blank(text, before - 1) {
            before -= 1;
        }
        if before < first && before > 0 {
            // delete the blank lines above with the element; keep the newline
            // that ends the previous code line
            Indel::delete(lines::start(text, before)..lines::end_with_newline(text, last))
        } else {
            let mut after = last + 1;
            while after < n && lines::is_blank(text, after) {
                after += 1;
            }
            let end = lines::start(text, after);
            let start = lines::start(text, first);
            if after >= n && first > 0 {
                // nothing follows: drop the element and keep the text ending
                Indel::delete(start..text.len_chars())
            } else {
                Indel::delete(start..end)
            }
        }
    };
    let edits = vec![edit];
    let new = apply(text, &edits)?;
    let at = edits[0].range.start.min(new.len_chars());
    let cursor = from_char(&new, at);
    let note = sole_member.then(|| "the class keeps a 'pass' body".to_string());
    Ok(EditResult {
        edits,
        cursor,
        element: None,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::outline::{lookup, outline};
    use crate::analysis::target::CodeTarget;
    use crate::analysis::SyntaxTree;
    use crate::edit::Position;

    fn del(src: &str, target: CodeTarget) -> (String, Position) {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let o = outline(&text, &tree);
        let s = lookup(&o, &target).unwrap();
        let r = delete_symbol(&text, &o, s).unwrap();
        (apply(&text, &r.edits).unwrap().to_string(), r.cursor)
    }

    #[test]
    fn spacing_is_kept() {
        let src = "import os\n\n\n# about b\n@dec\ndef b():\n    pass\n\n\ndef c():\n    pass\n";
        let f = |n: &str| CodeTarget::Function {
            name: n.into(),
            params: None,
        };
        assert_eq!(
            del(src, f("b")),
            (
                "import os\n\n\ndef c():\n    pass\n".into(),
                Position::new(1, 0)
            )
        );
        assert_eq!(
            del(src, f("c")).0,
            "import os\n\n\n# about b\n@dec\ndef b():\n    pass\n"
        );
        let cls = "class A:\n    def m(self):\n        pass\n\n\nx = 1\n";
        let m = CodeTarget::Method {
            class: "A".into(),
            name: "m".into(),
            params: None,
        };
        assert_eq!(del(cls, m).0, "class A:\n    pass\n\n\nx = 1\n");
        let two = "class A:\n    def m(self):\n        pass\n\n    def n(self):\n        pass\n";
        let m = CodeTarget::Method {
            class: "A".into(),
            name: "m".into(),
            params: None,
        };
        assert_eq!(del(two, m).0, "class A:\n    def n(self):\n        pass\n");
        let n = CodeTarget::Method {
            class: "A".into(),
            name: "n".into(),
            params: None,
        };
        assert_eq!(del(two, n).0, "class A:\n    def m(self):\n        pass\n");
    }
}
