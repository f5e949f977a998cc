//! From a line range to the whole statements it selects: consecutive
//! statements of one block, or a refusal that says which statement the
//! range cuts.

use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use super::{invalid, refuse};
use crate::analysis::lines;
use crate::analysis::syntax::{byte_to_char, node_chars, SyntaxTree};
use crate::refactor::RefactorError;

/// The statements a range selects.
pub(super) struct Selection<'t> {
    /// Consecutive siblings of one block (or of the module), in order.
    pub statements: Vec<Node<'t>>,
    /// The first and last line that hold code or comments (blank lines at
    /// the edges of the range stay where they are).
    pub first_line: usize,
    pub last_line: usize,
    /// Chars of the statements themselves.
    pub chars: Range<usize>,
    /// The leading whitespace of the first statement's line.
    pub indent: String,
}

impl Selection<'_> {
    /// Whole lines from the first to the last, with the last line's end.
    pub fn line_chars(&self, text: &Rope) -> Range<usize> {
        lines::start(text, self.first_line)..lines::end_with_newline(text, self.last_line)
    }
}

/// The statements of lines `first..=last` (zero-based, inclusive).
pub(super) fn select<'t>(
    text: &Rope,
    tree: &'t SyntaxTree,
    first: usize,
    last: usize,
) -> Result<Selection<'t>, RefactorError> {
    let count = line_count(text);
    if first > last {
        return Err(invalid(format!(
            "Invalid range: lines {first}:{last} end before they start; give the first line first"
        ))
        .at(crate::refactor::Argument::Lines));
    }
    if last >= count {
        let valid = if count == 0 {
            "the file is empty".to_string()
        } else {
            format!("the file has lines 0:{}", count - 1)
        };
        return Err(
            invalid(format!("Invalid range: lines {first}:{last}, {valid}"))
                .at(crate::refactor::Argument::Lines),
        );
    }
    let range = format!("{first}:{last}");
    let coded: Vec<usize> = (first..=last)
        .filter(|&l| !lines::is_blank(text, l))
        .collect();
    let code_lines: Vec<usize> = coded
        .iter()
        .copied()
        .filter(|&l| !is_comment_line(text, tree, l))
        .collect();
    let (Some(&first_code), Some(&last_code)) = (code_lines.first(), code_lines.last()) else {
        return Err(refuse(format!(
            "lines {range} hold no statement; select the lines of the code to extract"
        )));
    };
    // The content the statements must cover, without edge blanks or comments.
    let content = content_start(text, first_code)..content_end(text, last_code);
    // What the statements may occupy: the whole lines of the range.
    let room = lines::start(text, first)..content_end(text, last);
    let statements = pick(text, tree.root(), &content, &room, &range)?;
    let first_node = statements[0];
    let chars =
        node_chars(text, first_node).start..node_chars(text, statements[statements.len() - 1]).end;
    let first_row = text.char_to_line(chars.start);
    let indent = lines::indent_str(&lines::text_of(text, first_row)).to_string();
    Ok(Selection {
        statements,
        first_line: coded[0],
        last_line: *coded.last().unwrap_or(&last_code),
        chars,
        indent,
    })
}

/// Lines of the file as the user counts them: a trailing newline does not
/// open one more.
fn line_count(text: &Rope) -> usize {
    let n = lines::count(text);
    if n > 0 && text.len_chars() > 0 && lines::text_of(text, n - 1).is_empty() {
        n - 1
    } else if text.len_chars() == 0 {
        0
    } else {
        n
    }
}

fn is_comment_line(text: &Rope, tree: &SyntaxTree, line: usize) -> bool {
    let start = content_start(text, line);
    let byte = text.char_to_byte(start);
    tree.root()
        .descendant_for_byte_range(byte, byte + 1)
        .is_some_and(|n| n.kind() == "comment")
}

fn content_start(text: &Rope, line: usize) -> usize {
    lines::start(text, line) + lines::indent_of(text, line)
}

fn content_end(text: &Rope, line: usize) -> usize {
    lines::start(text, line) + lines::text_of(text, line).chars().count()
}

/// The children of `parent` (a module or a block) the range selects,
/// descending into the one compound statement whose body holds it.
fn pick<'t>(
    text: &Rope,
    parent: Node<'t>,
    content: &Range<usize>,
    room: &Range<usize>,
    range: &str,
) -> Result<Vec<Node<'t>>, RefactorError> {
    let mut cursor = parent.walk();
    let overlapping: Vec<Node<'t>> = parent
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .filter(|c| {
            let r = node_chars(text, *c);
            r.start < content.end && r.end > content.start
        })
        .collect();
    let contained = |n: &Node<'t>| {
        let r = node_chars(text, *n);
        room.start <= r.start && r.end <= room.end
    };
    if let [only] = overlapping.as_slice() {
        if !contained(only) {
            return match body_holding(text, *only, content) {
                Some(block) => pick(text, block, content, room, range),
                None => Err(cut(text, *only, range)),
            };
        }
    }
    if overlapping.is_empty() {
        return Err(refuse(format!("lines {range} hold no statement")));
    }
    if let Some(cut_one) = overlapping.iter().find(|n| !contained(n)) {
        return Err(cut(text, *cut_one, range));
    }
    Ok(overlapping)
}

/// The outermost block inside `node` that holds all of `content`.
fn body_holding<'t>(text: &Rope, node: Node<'t>, content: &Range<usize>) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
    for child in children {
        let r = node_chars(text, child);
        if r.start > content.start || r.end < content.end {
            continue;
        }
        if child.kind() == "block" {
            return Some(child);
        }
        if let Some(found) = body_holding(text, child, content) {
            return Some(found);
        }
    }
    None
}

fn cut(text: &Rope, node: Node<'_>, range: &str) -> RefactorError {
    let start = text.char_to_line(byte_to_char(text, node.start_byte()));
    let end = text.char_to_line(byte_to_char(text, node.end_byte()));
    let what = statement_word(node.kind());
    refuse(format!(
        "lines {range} cut the {what} at lines {start}:{end}; select whole statements (a header with its whole body)"
    ))
}

/// `if_statement` → "`if` statement", `expression_statement` → "statement".
fn statement_word(kind: &str) -> String {
    match kind {
        "decorated_definition" | "function_definition" => "function definition".into(),
        "class_definition" => "class definition".into(),
        "import_from_statement" | "future_import_statement" => "`from … import` statement".into(),
        k => match k.strip_suffix("_statement") {
            Some("expression") | None => "statement".into(),
            Some(word) => format!("`{word}` statement"),
        },
    }
}
