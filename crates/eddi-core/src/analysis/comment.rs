//! `Comment <target> "<text>" [Line|Block|Docstring]` as edits.
//!
//! * Line: one `# text` line per line of text, directly above the element
//!   (below comments already attached, above decorators), at its indentation.
//! * Block: the same, with the text wrapped at 72 columns (paragraphs kept,
//!   empty lines become a bare `#`).
//! * Docstring (functions, methods, classes): a PEP 257 docstring as the
//!   first statement of the body. An existing docstring is never
//!   overwritten silently: without `replace` the command is refused (the
//!   message says how to replace it); with it, the old one goes. One line
//!   gives `"""Text."""`; several give the summary line, a blank line, the
//!   rest, and the closing quotes on their own line. `'''` is used when the
//!   text contains `"""`. A body on the header's line (`def f(): pass`) is
//!   refused with a message to split it first.
//! * `replace` on Line/Block removes the comment lines attached above the
//!   element first; without it the new comment goes below them. What
//!   happened (added, added below N lines, replaced N lines) comes back as
//!   a [`Commented`] so the reply can say it.

use ropey::Rope;

use super::error::{AnalysisError, Result};
use super::lines;
use super::outline::{symbol_node, Symbol, SymbolKind};
use super::syntax::{byte_to_char, node_start, SyntaxTree};
use super::textedit::{apply, map_offset, EditResult};
use crate::analysis::target::CommentStyle;
use crate::change::Indel;
use crate::edit::position::from_char;

/// What a comment edit does to the text that was there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commented {
    /// Nothing was there.
    Added,
    /// Added below this many comment lines already attached to the element.
    AddedBelow(usize),
    /// Replaced a comment or docstring of this many lines.
    Replaced(usize),
}

/// Computes a comment or docstring for `symbol`; `replace` allows
/// replacing the existing one.
pub fn comment(
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    body: &str,
    style: CommentStyle,
    replace: bool,
) -> Result<(EditResult, Commented)> {
    let body = body.replace("\r\n", "\n");
    let (edits, commented) = match style {
        CommentStyle::Line | CommentStyle::Block => {
            let first = symbol.full_lines.first;
            let mut line = first;
            while line < symbol.position.line
                && lines::text_of(text, line).trim_start().starts_with('#')
            {
                line += 1;
            }
            let attached = line - first;
            let indent = lines::indent_str(&lines::text_of(text, line)).to_string();
            let content: Vec<String> = if style == CommentStyle::Block {
                wrap(
                    &body,
                    72usize.saturating_sub(indent.chars().count() + 2).max(20),
                )
            } else {
                body.lines().map(str::to_string).collect()
            };
            let mut out = String::new();
            for l in content {
                out.push_str(&indent);
                if l.trim().is_empty() {
                    out.push_str("#\n");
                } else {
                    out.push_str("# ");
                    out.push_str(l.trim_end());
                    out.push('\n');
                }
            }
            let at = lines::start(text, line);
            match attached {
                0 => (vec![Indel::insert(at, out)], Commented::Added),
                n if replace => (
                    vec![Indel::new(lines::start(text, first)..at, out)],
                    Commented::Replaced(n),
                ),
                n => (vec![Indel::insert(at, out)], Commented::AddedBelow(n)),
            }
        }
        CommentStyle::Docstring => docstring(text, tree, symbol, &body, replace)?,
    };
    let new = apply(text, &edits)?;
    let at = map_offset(&edits, edits[0].range.start);
    let element = from_char(&new, at);
    let result = EditResult {
        cursor: element,
        element: Some(element),
        edits,
        note: None,
    };
    Ok((result, commented))
}

fn docstring(
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    body: &str,
    replace: bool,
) -> Result<(Vec<Indel>, Commented)> {
    if !matches!(
        symbol.kind,
        SymbolKind::Function | SymbolKind::Method | SymbolKind::Class
    ) {
        return Err(AnalysisError::InvalidCode(format!(
            "'{}' is a {}; docstrings belong to functions, methods and classes (use Line or Block)",
            symbol.name,
            symbol.kind.noun()
        )));
    }
    let node = symbol_node(text, tree, symbol).ok_or_else(|| {
        AnalysisError::InvalidCode(format!("no definition found for '{}'", symbol.name))
    })?;
    let block = node
        .child_by_field_name("body")
        .ok_or_else(|| AnalysisError::InvalidCode("definition has no body".into()))?;
    let mut c = block.walk();
    let first = block
        .named_children(&mut c)
        .find(|n| n.kind() != "comment")
        .ok_or_else(|| AnalysisError::InvalidCode("definition has no body".into()))?;
    let first_pos = node_start(text, first);
    if first_pos.line == symbol.position.line {
        return Err(AnalysisError::InvalidCode(format!(
            "'{}' has its body on the header line; put the body on its own line first",
            symbol.name
        )));
    }
    let indent = lines::indent_str(&lines::text_of(text, first_pos.line)).to_string();
    let quotes = if body.contains("\"\"\"") {
        "'''"
    } else {
        "\"\"\""
    };
    let trimmed = body.trim();
    let mut doc_lines = trimmed.lines();
    let summary = doc_lines.next().unwrap_or("").trim();
    let rest: Vec<&str> = doc_lines.collect();
    let doc = if rest.iter().all(|l| l.trim().is_empty()) {
        let pad = if summary.ends_with(quotes.chars().next().unwrap_or('"')) {
            " "
        } else {
            ""
        };
        format!("{quotes}{summary}{pad}{quotes}")
    } else {
        let mut s = format!("{quotes}{summary}\n");
        let rest_text: Vec<&str> = rest
            .iter()
            .map(|l| l.trim_end())
            .skip_while(|l| l.trim().is_empty())
            .collect();
        s.push('\n');
        let common = rest_text
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
            .min()
            .unwrap_or(0);
        for l in rest_text {
            if l.trim().is_empty() {
                s.push('\n');
            } else {
                s.push_str(&indent);
                s.push_str(&l[common.min(l.len() - l.trim_start_matches([' ', '\t']).len())..]);
                s.push('\n');
            }
        }
        s.push_str(&indent);
        s.push_str(quotes);
        s
    };
    let is_doc = first.kind() == "expression_statement"
        && first.named_child_count() == 1
        && first.named_child(0).is_some_and(|n| n.kind() == "string");
    let start = byte_to_char(text, first.start_byte());
    if is_doc {
        let old_lines = first.end_position().row - first.start_position().row + 1;
        if !replace {
            let kind = capitalized(symbol.kind.noun());
            let name = &symbol.qualified_name;
            return Err(AnalysisError::WouldOverwrite(format!(
                "{kind} {name} already has a docstring ({old_lines} {} at {first_pos}); \
                 to replace it: Comment {kind} {name} \"<text>\" Docstring Replace",
                if old_lines == 1 { "line" } else { "lines" },
            )));
        }
        let end = byte_to_char(text, first.end_byte());
        Ok((
            vec![Indel::new(start..end, doc)],
            Commented::Replaced(old_lines),
        ))
    } else {
        Ok((
            vec![Indel::insert(start, format!("{doc}\n{indent}"))],
            Commented::Added,
        ))
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Greedy word wrap; blank lines separate paragraphs.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for para in text.split('\n') {
        if para.trim().is_empty() {
            out.push(String::new());
            continue;
        }
        let mut line = String::new();
        for word in para.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                out.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::outline::{lookup, outline};
    use crate::analysis::target::CodeTarget;

    fn run(src: &str, target: CodeTarget, body: &str, style: CommentStyle) -> Result<String> {
        run_with(src, target, body, style, false).map(|(text, _)| text)
    }

    fn run_with(
        src: &str,
        target: CodeTarget,
        body: &str,
        style: CommentStyle,
        replace: bool,
    ) -> Result<(String, Commented)> {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let o = outline(&text, &tree);
        let s = lookup(&o, &target)?;
        let (r, commented) = comment(&text, &tree, s, body, style, replace)?;
        Ok((apply(&text, &r.edits).unwrap().to_string(), commented))
    }

    #[test]
    fn existing_text_is_never_dropped_silently() {
        let f = CodeTarget::Function {
            name: "f".into(),
            params: None,
        };
        let with_doc = "def f():\n    \"\"\"Old.\n\n    More.\n    \"\"\"\n    pass\n";
        assert_eq!(
            run_with(with_doc, f.clone(), "New.", CommentStyle::Docstring, false)
                .unwrap_err()
                .to_string(),
            "Function f already has a docstring (4 lines at 1:4); to replace it: Comment Function f \"<text>\" Docstring Replace"
        );
        let (_, how) =
            run_with(with_doc, f.clone(), "New.", CommentStyle::Docstring, true).unwrap();
        assert_eq!(how, Commented::Replaced(4));
        let commented = "# one\n# two\ndef f():\n    pass\n";
        assert_eq!(
            run_with(commented, f.clone(), "three", CommentStyle::Line, false).unwrap(),
            (
                "# one\n# two\n# three\ndef f():\n    pass\n".to_string(),
                Commented::AddedBelow(2)
            )
        );
        assert_eq!(
            run_with(commented, f, "new", CommentStyle::Line, true).unwrap(),
            (
                "# new\ndef f():\n    pass\n".to_string(),
                Commented::Replaced(2)
            )
        );
    }

    #[test]
    fn comments_and_docstrings() {
        let src = "class A:\n    # existing\n    @dec\n    def m(self):\n        return 1\n";
        let m = CodeTarget::Method {
            class: "A".into(),
            name: "m".into(),
            params: None,
        };
        assert_eq!(
            run(src, m.clone(), "Returns one.", CommentStyle::Line).unwrap(),
            "class A:\n    # existing\n    # Returns one.\n    @dec\n    def m(self):\n        return 1\n"
        );
        assert_eq!(
            run(src, m.clone(), "Return one.", CommentStyle::Docstring).unwrap(),
            "class A:\n    # existing\n    @dec\n    def m(self):\n        \"\"\"Return one.\"\"\"\n        return 1\n"
        );
        let with_doc = "def f():\n    '''Old.'''\n    pass\n";
        let f = CodeTarget::Function {
            name: "f".into(),
            params: None,
        };
        assert_eq!(
            run_with(
                with_doc,
                f.clone(),
                "New.\n\nDetails here.",
                CommentStyle::Docstring,
                true
            )
            .unwrap()
            .0,
            "def f():\n    \"\"\"New.\n\n    Details here.\n    \"\"\"\n    pass\n"
        );
        assert!(run("def f(): pass\n", f, "x", CommentStyle::Docstring).is_err());
        assert_eq!(wrap("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
    }
}
