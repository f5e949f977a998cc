//! `Insert Import` in the languages whose imports are one declaration a
//! line: Java (`import a.b.C;`, `import static a.B.m;`) and Rust (`use
//! a::b::C;`). The agent gives the declaration or its path alone.
//!
//! * An import the file has already (the same declaration, layout aside;
//!   in Java also a class its wildcard `a.b.*` imports) is not added twice
//!   (`already imported`).
//! * Imports stand in groups, as the formatters and IDEs keep them: Java
//!   static imports, then the others (google-java-format); Rust `std`/
//!   `core`/`alloc`, then external crates, then `crate`/`self`/`super`
//!   (rust-analyzer's). The new one goes into its group in sorted place;
//!   a group the file lacks is started, a blank line apart, where its order
//!   puts it.
//! * A file without imports gets it after its `package` declaration (Java)
//!   or its inner doc comments and attributes (Rust), a blank line apart
//!   from the code.

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::lines;
use crate::analysis::syntax::{node_text, SyntaxTree};
use crate::analysis::textedit::{apply, EditResult};
use crate::change::Indel;
use crate::edit::position::from_char;
use crate::edit::Position;

/// How a language writes its imports.
struct Style {
    /// The declaration's node kind.
    kind: &'static str,
    /// The declaration the agent gave, written out in full, or why not.
    parse: fn(&str) -> std::result::Result<String, String>,
    /// The group a declaration belongs to (lower first).
    group: fn(&str) -> u8,
    /// What orders declarations within a group.
    key: fn(&str) -> String,
    /// Whether an existing declaration imports what the wanted one does.
    covers: fn(existing: &str, wanted: &str) -> bool,
    /// Where the imports of a file without any go: after this node of
    /// the top level, when there is one (`package_declaration`).
    after: fn(Node<'_>) -> bool,
    /// The name a declaration binds in the file, when it binds one name
    /// (`import a.b.C;`: `C`; `use a::B as D;`: `D`), with what it names.
    binds: fn(&str) -> Option<(String, String)>,
    /// The kinds of top-level items whose names an import of the name
    /// clashes with, for a name so written (a Java class; a Rust type,
    /// for an upper-case name, which is one).
    declares: fn(kind: &str, name: &str) -> bool,
    /// The compiler's word for a clash.
    clash: &'static str,
    /// What to do instead.
    remedy: &'static str,
}

const JAVA: Style = Style {
    kind: "import_declaration",
    parse: java_declaration,
    group: |d| u8::from(!d.starts_with("import static ")),
    key: |d| d.trim_end_matches(';').to_owned(),
    covers: |existing, wanted| {
        existing == wanted || {
            // `import a.b.*;` imports the class `a.b.C`, not `a.b.c.D`
            let package = existing
                .strip_prefix("import ")
                .and_then(|p| p.strip_suffix(".*;"));
            let class = wanted
                .strip_prefix("import ")
                .and_then(|p| p.strip_suffix(';'))
                .filter(|p| !p.starts_with("static "));
            matches!((package, class), (Some(package), Some(class))
                if class.rsplit_once('.').is_some_and(|(owner, _)| owner == package))
        }
    },
    after: |node| node.kind() == "package_declaration",
    binds: |d| {
        let path = d.strip_prefix("import ")?.strip_suffix(';')?;
        let (_, name) = path.rsplit_once('.')?;
        (!path.starts_with("static ") && name != "*").then(|| (name.to_owned(), path.to_owned()))
    },
    declares: |kind, _| {
        matches!(
            kind,
            "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "annotation_type_declaration"
        )
    },
    clash: "javac: \"already defined in this compilation unit\"",
    remedy: "write its full name where it is used instead",
};

const RUST: Style = Style {
    kind: "use_declaration",
    parse: rust_declaration,
    group: |d| {
        let path = d.trim_start_matches("pub ").trim_start_matches("use ");
        let path = path.trim_start_matches("::");
        let first = path.split("::").next().unwrap_or_default();
        match first {
            "std" | "core" | "alloc" => 0,
            "crate" | "self" | "super" => 2,
            _ => 1,
        }
    },
    key: |d| {
        d.trim_start_matches("pub ")
            .trim_start_matches("use ")
            .trim_end_matches(';')
            .to_owned()
    },
    covers: |existing, wanted| existing == wanted,
    after: |node| {
        node.kind() == "inner_attribute_item"
            || (node.kind() == "line_comment" && node.child_by_field_name("inner").is_some())
    },
    binds: |d| {
        let path = d
            .trim_start_matches("pub ")
            .strip_prefix("use ")?
            .strip_suffix(';')?;
        if path.contains(['{', '*']) {
            return None;
        }
        let (path, name) = match path.split_once(" as ") {
            Some((path, alias)) => (path.trim(), alias.trim()),
            None => (path, path.rsplit("::").next()?),
        };
        (name != "self" && name != "_").then(|| (name.to_owned(), path.to_owned()))
    },
    // (a lower-case name may be a module, a function or a macro, each in
    // a namespace of its own: only a type's name is known to clash)
    declares: |kind, name| {
        name.starts_with(char::is_uppercase)
            && matches!(
                kind,
                "struct_item" | "enum_item" | "union_item" | "trait_item" | "type_item"
            )
    },
    clash: "E0252, E0255",
    remedy: "import it under another name (use … as …), or write its path where it is used",
};

/// Java's `Insert Import`.
pub fn insert_java_import(text: &Rope, tree: &SyntaxTree, code: &str) -> Result<EditResult> {
    insert(&JAVA, text, tree, code)
}

/// Rust's `Insert Import`.
pub fn insert_rust_import(text: &Rope, tree: &SyntaxTree, code: &str) -> Result<EditResult> {
    insert(&RUST, text, tree, code)
}

/// `import [static] a.b.C;` from `a.b.C`, `static a.B.m`, or itself.
fn java_declaration(code: &str) -> std::result::Result<String, String> {
    let usage = "give one import, e.g. java.util.List, static java.lang.Math.max or java.util.*";
    let bare = code.trim().trim_end_matches(';').trim();
    let bare = bare.strip_prefix("import ").map_or(bare, str::trim);
    let (is_static, path) = match bare.strip_prefix("static ") {
        Some(path) => (true, path.trim()),
        None => (false, bare),
    };
    let segments: Vec<&str> = path.split('.').map(str::trim).collect();
    let identifier = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let (last, owner) = segments.split_last().ok_or_else(|| usage.to_owned())?;
    let valid = !owner.is_empty()
        && owner.iter().all(|s| identifier(s))
        && (identifier(last) || *last == "*");
    if !valid {
        return Err(format!("'{}' is not one import: {usage}", code.trim()));
    }
    let path = segments.join(".");
    Ok(match is_static {
        true => format!("import static {path};"),
        false => format!("import {path};"),
    })
}

/// `use a::b::C;` from `a::b::C`, `pub use …`, or itself; a use tree
/// (`std::io::{self, Read}`) as written, its layout made one line.
fn rust_declaration(code: &str) -> std::result::Result<String, String> {
    let usage = "give one use, e.g. std::collections::HashMap or crate::a::{B, C}";
    let bare = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let bare = bare.trim_end_matches(';').trim();
    let (public, bare) = match bare.strip_prefix("pub ") {
        Some(rest) => ("pub ", rest.trim()),
        None => ("", bare),
    };
    let path = bare.strip_prefix("use ").map_or(bare, str::trim);
    let balanced = path.matches('{').count() == path.matches('}').count();
    let valid = !path.is_empty()
        && balanced
        && path
            .chars()
            .all(|c| c.is_alphanumeric() || "_:{}, *".contains(c))
        && !path.ends_with("::")
        && path
            .split(|c: char| "{}, ".contains(c))
            .filter(|s| !s.is_empty() && *s != "as")
            .all(|s| {
                s.split("::").all(|seg| {
                    seg == "*"
                        || seg.is_empty()
                        || seg
                            .chars()
                            .next()
                            .is_some_and(|c| c.is_alphabetic() || c == '_')
                })
            });
    if !valid {
        return Err(format!("'{}' is not one use: {usage}", code.trim()));
    }
    Ok(format!("{public}use {path};"))
}

/// A declaration as written, its layout made one line.
fn normalized(text: &Rope, node: Node<'_>) -> String {
    node_text(text, node)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ;", ";")
}

fn insert(style: &Style, text: &Rope, tree: &SyntaxTree, code: &str) -> Result<EditResult> {
    let wanted = (style.parse)(code).map_err(AnalysisError::InvalidCode)?;
    let root = tree.root();
    let mut walk = root.walk();
    let top: Vec<Node<'_>> = root.children(&mut walk).collect();
    let existing: Vec<(Node<'_>, String)> = top
        .iter()
        .filter(|n| n.kind() == style.kind)
        .map(|n| (*n, normalized(text, *n)))
        .collect();
    if let Some((_, by)) = existing.iter().find(|(_, d)| (style.covers)(d, &wanted)) {
        let note = match *by == wanted {
            true => "already imported".to_owned(),
            false => format!("already imported ({by})"),
        };
        return Ok(EditResult {
            edits: Vec::new(),
            cursor: Position::ZERO,
            element: None,
            note: Some(note),
        });
    }
    if let Some(why) = clash(style, text, &top, &existing, &wanted) {
        return Err(AnalysisError::Clash(why));
    }
    let nl = lines::ending(text);
    let group = (style.group)(&wanted);
    let key = (style.key)(&wanted);
    let line = format!("{wanted}{nl}");
    let same: Vec<&(Node<'_>, String)> = existing
        .iter()
        .filter(|(_, d)| (style.group)(d) == group)
        .collect();
    // into its group, in sorted place
    if let Some((next, _)) = same.iter().find(|(_, d)| (style.key)(d) > key) {
        let row = next.start_position().row;
        return finish(text, lines::start(text, row), line, row);
    }
    if let Some((last, _)) = same.last() {
        let row = last.end_position().row;
        return finish(text, lines::end_with_newline(text, row), line, row + 1);
    }
    // a group of its own: before the first of a later group, else after
    // the last of an earlier one
    if let Some((next, _)) = existing.iter().find(|(_, d)| (style.group)(d) > group) {
        let row = next.start_position().row;
        return finish(text, lines::start(text, row), format!("{line}{nl}"), row);
    }
    if let Some((last, _)) = existing.last() {
        let row = last.end_position().row;
        let at = lines::end_with_newline(text, row);
        return finish(text, at, format!("{nl}{line}"), row + 2);
    }
    // the file's first import
    let after = top.iter().rfind(|n| (style.after)(**n));
    let code_after = |row: usize| {
        top.iter()
            .any(|n| n.start_position().row >= row && n.kind() != "line_comment")
    };
    match after {
        Some(node) => {
            let row = node.end_position().row;
            let at = lines::end_with_newline(text, row);
            let tail = if code_after(row + 1) && !blank(text, row + 1) {
                nl
            } else {
                ""
            };
            finish(text, at, format!("{nl}{line}{tail}"), row + 2)
        }
        None => {
            let tail = if code_after(0) && !blank(text, 0) {
                nl
            } else {
                ""
            };
            finish(text, 0, format!("{line}{tail}"), 0)
        }
    }
}

/// Why the import `wanted` cannot stand in the file: the name it binds
/// is one another import binds to something else, or one a top-level
/// type of the file declares.
fn clash(
    style: &Style,
    text: &Rope,
    top: &[Node<'_>],
    existing: &[(Node<'_>, String)],
    wanted: &str,
) -> Option<String> {
    let (name, path) = (style.binds)(wanted)?;
    let imported = existing.iter().find_map(|(node, d)| {
        let (other, other_path) = (style.binds)(d)?;
        (other == name && other_path != path).then(|| (node.start_position().row, d.clone()))
    });
    if let Some((row, other)) = imported {
        return Some(format!(
            "'{name}' is already imported, from elsewhere: {other} (line {row}), and one name binds one thing ({}); {}",
            style.clash, style.remedy
        ));
    }
    let declared = top.iter().find(|n| {
        (style.declares)(n.kind(), &name)
            && n.child_by_field_name("name")
                .is_some_and(|id| node_text(text, id) == name)
    })?;
    Some(format!(
        "'{name}' is declared in this file (line {}), and one name binds one thing ({}); {}",
        declared.start_position().row,
        style.clash,
        style.remedy
    ))
}

fn blank(text: &Rope, row: usize) -> bool {
    row >= text.len_lines() || text.line(row).chars().all(char::is_whitespace)
}

fn finish(text: &Rope, at: usize, inserted: String, line: usize) -> Result<EditResult> {
    let edits = vec![Indel::new(at..at, inserted)];
    let new = apply(text, &edits)?;
    let next = (line + 1).min(new.len_lines().saturating_sub(1));
    Ok(EditResult {
        edits,
        cursor: from_char(&new, new.line_to_char(next)),
        element: Some(Position::new(line, 0)),
        note: None,
    })
}
