//! The statements of a class body that define a member, their text moved
//! to another class body (re-indented), and the edits that take them out
//! of one body and into another.

use std::ops::Range;

use tree_sitter::Node;

use crate::change::Indel;
use crate::refactor::Parsed;

/// The name a statement of a class body defines: a method, a nested
/// class, or the one target of an assignment (`rate = 2`, `rate: int = 2`).
pub(in crate::refactor) fn defines(file: &Parsed, statement: Node<'_>) -> Option<String> {
    let definition = match statement.kind() {
        "decorated_definition" => statement.child_by_field_name("definition")?,
        _ => statement,
    };
    match definition.kind() {
        "function_definition" | "class_definition" => definition
            .child_by_field_name("name")
            .map(|n| file.node_text(n)),
        "expression_statement" => {
            let assignment = definition.named_child(0)?;
            if assignment.kind() != "assignment" {
                return None;
            }
            let left = assignment.child_by_field_name("left")?;
            (left.kind() == "identifier").then(|| file.node_text(left))
        }
        _ => None,
    }
}

/// The statements (comments aside) of a class body, in order.
pub(in crate::refactor) fn body(class: Node<'_>) -> Vec<Node<'_>> {
    let Some(body) = class.child_by_field_name("body") else {
        return Vec::new();
    };
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// The statements of `class`'s body that define `name`.
pub(in crate::refactor) fn defining<'t>(
    file: &Parsed,
    class: Node<'t>,
    name: &str,
) -> Vec<Node<'t>> {
    body(class)
        .into_iter()
        .filter(|s| defines(file, *s).as_deref() == Some(name))
        .collect()
}

/// The names the class body defines, in order, once each.
pub(in crate::refactor) fn names(file: &Parsed, class: Node<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for statement in body(class) {
        if let Some(name) = defines(file, statement) {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The whitespace a node's line starts with.
pub(in crate::refactor) fn indent(file: &Parsed, node: Node<'_>) -> String {
    file.text()
        .line(node.start_position().row)
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// The chars of the whole lines a statement is on, newline included;
/// `None` when it shares them with other code (`x = 1; y = 2`, a one-line
/// class body).
fn lines(file: &Parsed, statement: Node<'_>) -> Option<Range<usize>> {
    let text = file.text();
    let (first, last) = (statement.start_position().row, statement.end_position().row);
    let start = text.line_to_char(first);
    let end = if last + 1 < text.len_lines() {
        text.line_to_char(last + 1)
    } else {
        text.len_chars()
    };
    let chars = file.chars(statement);
    let before = text.slice(start..chars.start).to_string();
    let after = text.slice(chars.end..end).to_string();
    (before.trim().is_empty() && (after.trim().is_empty() || after.trim_start().starts_with('#')))
        .then_some(start..end)
}

/// The first row of the comments directly above a statement, at its
/// indentation — comment blocks separated from it (or from each other)
/// by blank lines too —, which travel with it: they say what it is. The
/// statement's own row when there are none. A comment indented deeper
/// ends the block above (it belongs to it), and so does any code.
pub(in crate::refactor) fn comments_above(file: &Parsed, statement: Node<'_>) -> usize {
    let text = file.text();
    let own = indent(file, statement);
    let mut first = statement.start_position().row;
    let mut row = first;
    while row > 0 {
        row -= 1;
        let line = text.line(row).to_string();
        let trimmed = line.trim_start_matches([' ', '\t']);
        if trimmed.trim().is_empty() {
            continue;
        }
        let is_comment = trimmed.starts_with('#')
            && line.len() - trimmed.len() == own.len()
            && line.starts_with(own.as_str())
            // not a line of a string that starts with '#'
            && file
                .node_covering(text.line_to_char(row) + own.chars().count())
                .is_some_and(|n| n.kind() == "comment");
        if !is_comment {
            break;
        }
        first = row;
    }
    first
}

/// [`lines`] with the comments above the statement ([`comments_above`]).
fn lines_with_comments(file: &Parsed, statement: Node<'_>) -> Option<Range<usize>> {
    let range = lines(file, statement)?;
    let start = file.text().line_to_char(comments_above(file, statement));
    Some(start.min(range.start)..range.end)
}

/// The text of `statements` (in order) as they read in a body indented by
/// `to`: each re-indented from its own indentation with the comments
/// above it, a blank line before each function or class. `Err` says why
/// it cannot be moved as text.
pub(in crate::refactor) fn moved_text(
    file: &Parsed,
    statements: &[Node<'_>],
    to: &str,
) -> Result<String, String> {
    moved_text_edited(file, statements, &[], to)
}

/// [`moved_text`] with `edits` (inside the statements, none spanning a
/// line break) made to the text first: the moved code rewritten for its
/// new place.
pub(in crate::refactor) fn moved_text_edited(
    file: &Parsed,
    statements: &[Node<'_>],
    edits: &[Indel],
    to: &str,
) -> Result<String, String> {
    let mut out = String::new();
    for (i, statement) in statements.iter().enumerate() {
        let Some(range) = lines_with_comments(file, *statement) else {
            return Err(format!(
                "the statement at {} shares its line with other code",
                file.place(*statement)
            ));
        };
        let from = indent(file, *statement);
        let mut inside: Vec<&Indel> = edits
            .iter()
            .filter(|e| range.start <= e.range.start && e.range.end <= range.end)
            .collect();
        // an insertion before a deletion at the same place
        inside.sort_by_key(|e| (e.range.start, e.range.end));
        let mut text = String::new();
        let mut at = range.start;
        for e in inside {
            if e.range.start < at {
                return Err(format!(
                    "two rewrites of the statement at {} overlap",
                    file.place(*statement)
                ));
            }
            text.push_str(&file.slice(at..e.range.start));
            text.push_str(&e.insert);
            at = e.range.end;
        }
        text.push_str(&file.slice(at..range.end));
        let text = text.replace("\r\n", "\n");
        if from != to && spans_a_string(*statement) {
            return Err(format!(
                "the statement at {} holds a string over several lines, which a new indentation would change",
                file.place(*statement)
            ));
        }
        let is_block = matches!(
            statement.kind(),
            "function_definition" | "class_definition" | "decorated_definition"
        );
        if is_block || i == 0 {
            out.push('\n');
        }
        for line in text.split_inclusive('\n') {
            match line.strip_prefix(from.as_str()) {
                Some(rest) if !line.trim().is_empty() => {
                    out.push_str(to);
                    out.push_str(rest);
                }
                _ if line.trim().is_empty() => out.push_str(line.trim_start_matches([' ', '\t'])),
                // a continuation line indented less than the statement
                _ => out.push_str(line),
            }
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}

fn spans_a_string(node: Node<'_>) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "string" && n.start_position().row != n.end_position().row {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// The edits that take `removed` out of `class`'s body: each statement's
/// lines with the comments and blank lines before it; a body left empty
/// gets `pass`.
pub(in crate::refactor) fn removal(
    file: &Parsed,
    class: Node<'_>,
    removed: &[Node<'_>],
) -> Result<Vec<Indel>, String> {
    let text = file.text();
    let Some(body) = class.child_by_field_name("body") else {
        return Err("the class has no body".into());
    };
    let mut cursor = body.walk();
    let all: Vec<Node<'_>> = body.named_children(&mut cursor).collect();
    let mut out = Vec::new();
    for statement in removed {
        let Some(range) = lines_with_comments(file, *statement) else {
            return Err(format!(
                "the statement at {} shares its line with other code",
                file.place(*statement)
            ));
        };
        let first_row = text.char_to_line(range.start);
        // what stays above: the nodes before the statement's comments
        let above: Vec<Node<'_>> = all
            .iter()
            .take_while(|n| n != &statement)
            .filter(|n| n.start_position().row < first_row)
            .copied()
            .collect();
        // from the line after the statement before it (blank lines with it)
        let (start, end) = match above.last().copied() {
            Some(previous) => (
                text.line_to_char(previous.end_position().row + 1)
                    .min(range.start),
                range.end,
            ),
            // the first: the blank lines after it go with it, unless the
            // next statement goes too (its edit takes them)
            None => match all
                .iter()
                .skip_while(|n| n != &statement)
                .nth(1)
                .filter(|next| !removed.contains(next))
            {
                Some(next) => (
                    range.start,
                    text.line_to_char(next.start_position().row).max(range.end),
                ),
                None => (range.start, range.end),
            },
        };
        out.push(Indel::delete(start..end));
    }
    let left = all
        .iter()
        .filter(|n| n.kind() != "comment" && !removed.contains(n))
        .count();
    if left == 0 {
        // the first removal leaves `pass` in the body's place
        let indent = indent(file, removed[0]);
        if let Some(first) = out.first_mut() {
            first.insert = format!("{indent}pass\n");
        }
    }
    Ok(out)
}

/// The edit that puts `text` (from [`moved_text`]) at the end of
/// `class`'s body, or in the place of a body that is only `pass` or `...`
/// (after a docstring).
pub(in crate::refactor) fn insertion(
    file: &Parsed,
    class: Node<'_>,
    text: &str,
) -> Result<Indel, String> {
    let statements = body(class);
    let Some(last) = statements.last() else {
        return Err("the class has no body".into());
    };
    let placeholder = |n: &Node<'_>| {
        n.kind() == "pass_statement"
            || (n.kind() == "expression_statement"
                && n.named_child(0).is_some_and(|e| e.kind() == "ellipsis"))
    };
    let rest: Vec<&Node<'_>> = statements
        .iter()
        .filter(|n| {
            !(n.kind() == "expression_statement"
                && n.named_child(0).is_some_and(|e| e.kind() == "string"))
        })
        .collect();
    if let [only] = rest.as_slice() {
        if placeholder(only) {
            let Some(range) = lines(file, **only) else {
                return Err(format!(
                    "the body at {} shares its line with other code",
                    file.place(**only)
                ));
            };
            let first = statements.first() == Some(*only);
            let text = if first {
                text.trim_start_matches('\n')
            } else {
                text
            };
            return Ok(Indel::new(range, text));
        }
    }
    if lines(file, *last).is_none() {
        return Err(format!(
            "the body at {} shares its line with other code",
            file.place(*last)
        ));
    }
    let t = file.text();
    let row = last.end_position().row + 1;
    if row < t.len_lines() {
        Ok(Indel::insert(t.line_to_char(row), text))
    } else {
        Ok(Indel::insert(
            t.len_chars(),
            format!("\n{}", text.trim_start_matches('\n')),
        ))
    }
}
