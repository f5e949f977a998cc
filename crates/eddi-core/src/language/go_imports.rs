//! `Insert Import` in Go: the agent gives a package path (`fmt`,
//! `"net/http"`), an alias and a path (`f "fmt"`), or an import
//! declaration (`import "fmt"`).
//!
//! * A package the file imports already (same path, same name) is not
//!   added twice (`already imported`).
//! * With a grouped `import ( … )`, the spec goes into its first group
//!   (the block up to the first blank line), in gofmt's sorted place.
//! * Otherwise a new `import "path"` goes after the file's last import
//!   declaration, else after the package clause.

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::lines;
use crate::analysis::syntax::{node_text, SyntaxTree};
use crate::analysis::textedit::{apply, EditResult};
use crate::change::Indel;
use crate::edit::position::from_char;
use crate::edit::Position;

/// One import spec: its name (`f`, `_`, `.`) and its quoted path.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Spec {
    name: Option<String>,
    path: String,
}

impl Spec {
    fn written(&self) -> String {
        match &self.name {
            Some(name) => format!("{name} {}", self.path),
            None => self.path.clone(),
        }
    }
}

/// The insertion of the import `code` into `text`.
pub fn insert_import(text: &Rope, tree: &SyntaxTree, code: &str) -> Result<EditResult> {
    let wanted = parse(code)?;
    let root = tree.root();
    let mut walk = root.walk();
    let declarations: Vec<Node<'_>> = root
        .named_children(&mut walk)
        .filter(|n| n.kind() == "import_declaration")
        .collect();
    let mut specs: Vec<(Node<'_>, Spec)> = Vec::new();
    for declaration in &declarations {
        collect_specs(text, *declaration, &mut specs);
    }
    if specs.iter().any(|(_, s)| *s == wanted) {
        return Ok(EditResult {
            edits: Vec::new(),
            cursor: Position::ZERO,
            element: None,
            note: Some("already imported".into()),
        });
    }
    let nl = lines::ending(text);
    // a grouped import: into its first group, in sorted place
    let group = declarations.iter().find_map(|d| {
        let mut w = d.walk();
        let list = d
            .named_children(&mut w)
            .find(|n| n.kind() == "import_spec_list");
        list
    });
    let (at, inserted, line) = match group {
        Some(list) => {
            let mut w = list.walk();
            let members: Vec<Node<'_>> = list
                .named_children(&mut w)
                .filter(|n| n.kind() == "import_spec")
                .collect();
            // the first group: up to the first blank line
            let mut first_group: Vec<Node<'_>> = Vec::new();
            for m in &members {
                if let Some(last) = first_group.last() {
                    if m.start_position().row > last.end_position().row + 1 {
                        break;
                    }
                }
                first_group.push(*m);
            }
            let before = first_group
                .iter()
                .find(|m| spec_path(text, **m) > wanted.path.clone());
            let indent = "\t";
            match (before, first_group.last()) {
                (Some(next), _) => {
                    let row = next.start_position().row;
                    (
                        lines::start(text, row),
                        format!("{indent}{}{nl}", wanted.written()),
                        row,
                    )
                }
                (None, Some(last)) => {
                    let row = last.end_position().row;
                    (
                        lines::end_with_newline(text, row),
                        format!("{indent}{}{nl}", wanted.written()),
                        row + 1,
                    )
                }
                (None, None) => {
                    // `import ()`: replace what is inside
                    let row = list.start_position().row;
                    let close = text.byte_to_char(list.end_byte()) - 1;
                    return finish(
                        text,
                        Indel::new(
                            text.byte_to_char(list.start_byte()) + 1..close,
                            format!("{nl}{indent}{}{nl}", wanted.written()),
                        ),
                        row + 1,
                    );
                }
            }
        }
        None => {
            let after = declarations
                .last()
                .copied()
                .or_else(|| {
                    let mut w = root.walk();
                    let clause = root
                        .named_children(&mut w)
                        .find(|n| n.kind() == "package_clause");
                    clause
                })
                .ok_or_else(|| {
                    AnalysisError::InvalidCode("the file has no package clause".into())
                })?;
            let row = after.end_position().row;
            let at = lines::end_with_newline(text, row);
            let lead = if declarations.is_empty() { nl } else { "" };
            (
                at,
                format!("{lead}import {}{nl}", wanted.written()),
                row + 1 + usize::from(declarations.is_empty()),
            )
        }
    };
    finish(text, Indel::new(at..at, inserted), line)
}

fn finish(text: &Rope, edit: Indel, line: usize) -> Result<EditResult> {
    let edits = vec![edit];
    let new = apply(text, &edits)?;
    Ok(EditResult {
        edits,
        cursor: from_char(&new, new.line_to_char((line + 1).min(new.len_lines() - 1))),
        element: Some(Position::new(line, 0)),
        note: None,
    })
}

/// The import the agent gave: `fmt`, `"fmt"`, `f "fmt"`, `import "fmt"`.
fn parse(code: &str) -> Result<Spec> {
    let usage = "give a package path, e.g. fmt, \"net/http\" or f \"fmt\"";
    let code = code.trim();
    let code = code.strip_prefix("import").map_or(code, str::trim);
    let mut words = code.split_whitespace();
    let (name, path) = match (words.next(), words.next(), words.next()) {
        (Some(path), None, None) => (None, path),
        (Some(name), Some(path), None) => (Some(name.to_owned()), path),
        _ => {
            return Err(AnalysisError::InvalidCode(format!(
                "'{code}' is not one import: {usage}"
            )))
        }
    };
    let bare = path.trim_matches('"').trim_matches('`');
    let valid = !bare.is_empty()
        && bare
            .chars()
            .all(|c| c.is_alphanumeric() || "/._-~+".contains(c));
    let name_valid = name
        .as_deref()
        .is_none_or(|n| n == "_" || n == "." || n.chars().all(|c| c.is_alphanumeric() || c == '_'));
    if !valid || !name_valid {
        return Err(AnalysisError::InvalidCode(format!(
            "'{code}' is not one import: {usage}"
        )));
    }
    Ok(Spec {
        name,
        path: format!("\"{bare}\""),
    })
}

/// The specs of an import declaration.
fn collect_specs<'t>(text: &Rope, declaration: Node<'t>, out: &mut Vec<(Node<'t>, Spec)>) {
    let mut stack = vec![declaration];
    while let Some(n) = stack.pop() {
        if n.kind() == "import_spec" {
            let name = n.child_by_field_name("name").map(|x| node_text(text, x));
            out.push((
                n,
                Spec {
                    name,
                    path: spec_path(text, n),
                },
            ));
            continue;
        }
        let mut w = n.walk();
        stack.extend(n.named_children(&mut w));
    }
}

/// A spec's path as written, in double quotes.
fn spec_path(text: &Rope, spec: Node<'_>) -> String {
    let written = spec
        .child_by_field_name("path")
        .map(|p| node_text(text, p))
        .unwrap_or_default();
    format!("\"{}\"", written.trim_matches('"').trim_matches('`'))
}
