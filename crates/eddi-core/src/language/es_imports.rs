//! `Insert Import` in an ES module (JavaScript, TypeScript): the agent
//! gives the import statement (`import { a, b } from './m'`, `import x
//! from 'm'`, `import * as ns from 'm'`, `import type { T } from './t'`,
//! `import './side-effect'`).
//!
//! * Named imports from a module the file already imports names from (in
//!   the same `{ … }` form, `type` or not) are merged into that statement:
//!   the names it lacks are appended inside its braces, one line each when
//!   it spans lines. An import the file has already is not added twice
//!   (`already imported`).
//! * Otherwise the statement goes after the last import of the file's
//!   first run of imports — else after a `#!` line, the directive
//!   prologue (`'use strict'`) and the comments that open the file — with
//!   a `;` when the file's imports end with one.

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::lines;
use crate::analysis::syntax::{byte_to_char, node_text, SyntaxTree};
use crate::analysis::textedit::{apply, EditResult};
use crate::change::Indel;
use crate::edit::position::from_char;

/// One import statement, read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Import {
    /// The module as written, without its quotes.
    source: String,
    /// `import type …`.
    type_only: bool,
    default: Option<String>,
    namespace: Option<String>,
    /// The `{ … }` specifiers as written (`a`, `b as c`, `type T`), when
    /// the statement has braces.
    named: Option<Vec<String>>,
}

/// The insertion of the import statement `code` into `text`.
pub fn insert_import(text: &Rope, tree: &SyntaxTree, code: &str) -> Result<EditResult> {
    let wanted = parse_one(tree, code)?;
    let root = tree.root();
    let mut walk = root.walk();
    let statements: Vec<Node<'_>> = root.named_children(&mut walk).collect();
    let imports: Vec<(Node<'_>, Import)> = statements
        .iter()
        .filter(|s| s.kind() == "import_statement")
        .filter_map(|s| read(text, *s).map(|i| (*s, i)))
        .collect();
    let nl = lines::ending(text);
    if imports.iter().any(|(_, i)| covers(i, &wanted)) {
        return Ok(nothing("already imported"));
    }
    // names from a module already imported with braces: merged there
    if let (Some(names), None, None) = (&wanted.named, &wanted.default, &wanted.namespace) {
        let same = imports.iter().find(|(_, i)| {
            i.source == wanted.source && i.type_only == wanted.type_only && i.named.is_some()
        });
        if let Some((node, existing)) = same {
            let have = existing.named.as_deref().unwrap_or_default();
            let missing: Vec<&String> = names
                .iter()
                .filter(|n| !have.iter().any(|h| local_name(h) == local_name(n)))
                .collect();
            return merge(text, *node, &missing, nl);
        }
    }
    let semicolon = imports
        .first()
        .is_none_or(|(node, _)| node_text(text, *node).trim_end().ends_with(';'));
    let mut statement = code.trim().trim_end_matches(';').to_owned();
    if semicolon {
        statement.push(';');
    }
    let at = match imports.last() {
        Some(_) => {
            // the end of the first run of imports
            let first = statements
                .iter()
                .position(|s| s.kind() == "import_statement")
                .expect("there are imports");
            let last = statements[first..]
                .iter()
                .take_while(|s| matches!(s.kind(), "import_statement" | "comment"))
                .filter(|s| s.kind() == "import_statement")
                .last()
                .expect("the run starts with an import");
            lines::end_with_newline(text, last.end_position().row)
        }
        None => prologue_end(text, &statements),
    };
    let ends_line = at == 0 || text.char(at - 1) == '\n';
    let mut inserted = String::new();
    if !ends_line {
        inserted.push_str(nl);
    }
    inserted.push_str(&statement);
    inserted.push_str(nl);
    if imports.is_empty() && at < text.len_chars() && !lines::is_blank(text, text.char_to_line(at))
    {
        // a blank line between the new import block and the code
        inserted.push_str(nl);
    }
    let edits = vec![Indel::new(at..at, inserted)];
    let new = apply(text, &edits)?;
    let line = text.char_to_line(at) + usize::from(!ends_line);
    let element = crate::edit::Position::new(line, 0);
    Ok(EditResult {
        edits,
        cursor: from_char(&new, new.line_to_char(line + 1).min(new.len_chars())),
        element: Some(element),
        note: None,
    })
}

/// The one import statement `code` is, parsed with the file's grammar.
fn parse_one(tree: &SyntaxTree, code: &str) -> Result<Import> {
    let usage = "give an import statement, e.g. import { a } from './m' or import x from 'm'";
    let rope = Rope::from_str(code.trim());
    let parsed = SyntaxTree::parse_language(tree.language(), &rope)
        .map_err(|e| AnalysisError::InvalidCode(e.to_string()))?;
    let root = parsed.root();
    let mut walk = root.walk();
    let statements: Vec<Node<'_>> = root.named_children(&mut walk).collect();
    match statements.as_slice() {
        [statement] if statement.kind() == "import_statement" && !root.has_error() => {
            read(&rope, *statement)
                .ok_or_else(|| AnalysisError::InvalidCode(format!("not an import: {usage}")))
        }
        _ => Err(AnalysisError::InvalidCode(format!(
            "'{}' is not one import statement: {usage}",
            code.trim()
        ))),
    }
}

/// An import statement's parts.
fn read(text: &Rope, statement: Node<'_>) -> Option<Import> {
    let source = statement.child_by_field_name("source")?;
    let quoted = node_text(text, source);
    let source = quoted
        .trim_matches(|c| c == '\'' || c == '"' || c == '`')
        .to_owned();
    let mut import = Import {
        source,
        type_only: false,
        default: None,
        namespace: None,
        named: None,
    };
    let mut walk = statement.walk();
    for child in statement.children(&mut walk) {
        match child.kind() {
            "type" => import.type_only = true,
            "import_clause" => {
                let mut inner = child.walk();
                for part in child.named_children(&mut inner) {
                    match part.kind() {
                        "identifier" => import.default = Some(node_text(text, part)),
                        "namespace_import" => {
                            let name = part.named_child(0).map(|n| node_text(text, n));
                            import.namespace = name;
                        }
                        "named_imports" => {
                            let mut specs = part.walk();
                            let names = part
                                .named_children(&mut specs)
                                .filter(|s| s.kind() == "import_specifier")
                                .map(|s| {
                                    node_text(text, s)
                                        .split_whitespace()
                                        .collect::<Vec<_>>()
                                        .join(" ")
                                })
                                .collect();
                            import.named = Some(names);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    Some(import)
}

/// The name a specifier binds in the module (`b` for `a as b`, `T` for
/// `type T`).
fn local_name(specifier: &str) -> &str {
    specifier.rsplit(' ').next().unwrap_or(specifier)
}

/// Whether `have` imports everything `wanted` does.
fn covers(have: &Import, wanted: &Import) -> bool {
    if have.source != wanted.source || have.type_only != wanted.type_only {
        return false;
    }
    let default = wanted.default.is_none() || have.default == wanted.default;
    let namespace = wanted.namespace.is_none() || have.namespace == wanted.namespace;
    let named = match (&wanted.named, &have.named) {
        (None, _) => true,
        (Some(names), Some(got)) => names
            .iter()
            .all(|n| got.iter().any(|g| local_name(g) == local_name(n))),
        (Some(names), None) => names.is_empty(),
    };
    // a bare `import 'm'` runs the module, as any import of it does
    default && namespace && named
}

/// `missing` appended inside the braces of the import `statement`.
fn merge(text: &Rope, statement: Node<'_>, missing: &[&String], nl: &str) -> Result<EditResult> {
    let named = find(statement, "named_imports").expect("the statement has braces");
    let close = byte_to_char(text, named.end_byte()) - 1;
    let mut walk = named.walk();
    let specifiers: Vec<Node<'_>> = named
        .named_children(&mut walk)
        .filter(|s| s.kind() == "import_specifier")
        .collect();
    let multiline = named.start_position().row != named.end_position().row;
    let inserted = match specifiers.last() {
        None => format!(" {} ", join(missing, ", ")),
        Some(last) if multiline => {
            let indent =
                lines::indent_str(&lines::text_of(text, last.start_position().row)).to_owned();
            let after_last = byte_to_char(text, last.end_byte());
            let trailing_comma = text.slice(after_last..close).chars().any(|c| c == ',');
            let mut out = String::new();
            if !trailing_comma {
                out.push(',');
            }
            for name in missing {
                out.push_str(nl);
                out.push_str(&indent);
                out.push_str(name);
                out.push(',');
            }
            if !trailing_comma {
                out.pop();
            }
            // after the last specifier (and its comma), before the brace's line
            let at = if trailing_comma {
                after_last
                    + text
                        .slice(after_last..close)
                        .chars()
                        .position(|c| c == ',')
                        .map_or(0, |p| p + 1)
            } else {
                after_last
            };
            return edit(text, at, out, statement);
        }
        Some(last) => {
            let at = byte_to_char(text, last.end_byte());
            return edit(text, at, format!(", {}", join(missing, ", ")), statement);
        }
    };
    // `{}` or `{ }`: replace what is inside
    let open = byte_to_char(text, named.start_byte()) + 1;
    let edits = vec![Indel::new(open..close, inserted)];
    finish(text, edits, statement)
}

fn edit(text: &Rope, at: usize, inserted: String, statement: Node<'_>) -> Result<EditResult> {
    finish(text, vec![Indel::new(at..at, inserted)], statement)
}

fn finish(text: &Rope, edits: Vec<Indel>, statement: Node<'_>) -> Result<EditResult> {
    let new = apply(text, &edits)?;
    let line = statement.start_position().row;
    Ok(EditResult {
        edits,
        cursor: from_char(&new, new.line_to_char(line).min(new.len_chars())),
        element: Some(crate::edit::Position::new(line, 0)),
        note: None,
    })
}

fn join(names: &[&String], separator: &str) -> String {
    names
        .iter()
        .map(|n| n.as_str())
        .collect::<Vec<_>>()
        .join(separator)
}

/// The first descendant of `node` of `kind`.
fn find<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    if node.kind() == kind {
        return Some(node);
    }
    let mut walk = node.walk();
    let children: Vec<Node<'t>> = node.named_children(&mut walk).collect();
    children.into_iter().find_map(|c| find(c, kind))
}

/// Where the first import goes in a file without one: after a `#!` line,
/// the directive prologue (`'use strict';`) and the comments that open
/// the file.
fn prologue_end(text: &Rope, statements: &[Node<'_>]) -> usize {
    let mut line = 0;
    let count = lines::count(text);
    if count > 0 && lines::text_of(text, 0).starts_with("#!") {
        line = 1;
    }
    for statement in statements {
        let directive = statement.kind() == "expression_statement"
            && statement
                .named_child(0)
                .is_some_and(|e| e.kind() == "string");
        let is_comment = statement.kind() == "comment" || statement.kind() == "hash_bang_line";
        if directive || is_comment {
            line = line.max(statement.end_position().row + 1);
        } else {
            break;
        }
    }
    if line >= count {
        return text.len_chars();
    }
    lines::start(text, line)
}

/// Nothing to do, and why (the engine keeps the cursor where it is).
fn nothing(why: &str) -> EditResult {
    EditResult {
        edits: Vec::new(),
        cursor: crate::edit::Position::ZERO,
        element: None,
        note: Some(why.to_owned()),
    }
}
