//! The semantic refactors: a small project of grammar-shaped Python files
//! (and raw bytes among them) and one refactor request — rename, rename a
//! parameter, change a signature, extract lines, inline — through
//! `refactor::compute` and the engine's check (`check::no_new_errors`), as
//! `Refactor …` runs them.
//!
//! What must hold, whatever the input:
//!
//! - no panic, no hang (libFuzzer's `-timeout`), no stack overflow;
//! - a refusal names what to fix: a non-empty one-line message;
//! - a change that passed the check applies: every edited file's edits
//!   apply to the text it was computed against, a created file or a move's
//!   destination does not exist yet, every path is a file of the project;
//! - a Python file that parsed without an error still does after the
//!   change (a created one parses), both for `validate::syntax_errors` and
//!   for the tree itself; files the change does not name are untouched.
//!
//! The disk is never written: the change is applied in memory, as the
//! preview shows it (the commit itself is the `commit` target's, and the
//! kill -9 runs of `scripts/faults refactor`).

use std::collections::BTreeMap;
use std::fs;

use eddi::analysis::index::ProjectIndex;
use eddi::analysis::validate::syntax_errors;
use eddi::analysis::SyntaxTree;
use eddi::change::FileOp;
use eddi::edit::Position;
use eddi::refactor::{
    check, compute, Cursor, ExtractKind, InlineKind, Project, Refactoring, RenameKind, SitePolicy,
    WorkspaceSources,
};
use eddi::workspace::Workspace;
use ropey::Rope;

use super::input::Input;

/// The project's files: two modules, a package and its module, so that
/// imports (`from pkg.m import f`, `from . import a`) cross files.
const FILES: &[&str] = &["a.py", "b.py", "pkg/__init__.py", "pkg/m.py"];
/// The modules those files are, for imports.
const MODULES: &[&str] = &["a", "b", "pkg", "pkg.m", ".", ".m", "os"];
/// Names the code and the requests share, so that requests find things.
const NAMES: &[&str] = &[
    "f", "g", "C", "D", "x", "y", "self", "cls", "n", "run", "items", "a", "b", "m", "pkg",
];
/// What a request may ask to rename to: mostly the names above, and some
/// that are not identifiers or are keywords (each must be refused cleanly).
const NEW_NAMES: &[&str] = &[
    "f", "g", "C", "x", "h", "total", "self", "class", "1x", "", "a b", "None", "é", "_",
];
/// Dotted symbols for rename and the functions of signature requests.
const SYMBOLS: &[&str] = &[
    "C.f", "C.run", "D.g", "a.f", "b.g", "pkg.m.f", "pkg.m.C", "pkg.C", "C.x", "f.x", "a.C.f",
];
/// Pieces of parameter lists (definitions and signature requests).
const PARAMS: &[&str] = &[
    "self", "x", "y", "n=1", "x=None", "*args", "**kw", "*", "/", "y: int", "cls", "items=[]",
    ", ", ", ",
];
/// Pieces of expressions.
const EXPRS: &[&str] = &[
    "x",
    "y",
    "n",
    "self.x",
    "self.f()",
    "f(x)",
    "g(x, y=1)",
    "C()",
    "C.f",
    "a.f(1)",
    "x + 1",
    "[x for x in items]",
    "\"x\"",
    "f\"{x}\"",
    "lambda x: x",
    "x if y else n",
    "(n := 2)",
    "*items",
    "await f()",
    "yield x",
    "not x",
    "x[0]",
    "{x: y}",
    " ",
    ", ",
    "(",
    ")",
    "#x",
];
/// Statement heads; `{E}` and `{P}` are filled with an expression, a
/// parameter list; the ones that end with `:` open a block.
const STATEMENTS: &[&str] = &[
    "def {N}({P}):",
    "async def {N}({P}):",
    "class {N}:",
    "class {N}({N}):",
    "@{N}",
    "{N} = {E}",
    "self.{N} = {E}",
    "{N} += {E}",
    "return {E}",
    "{E}",
    "{N}({E})",
    "if {E}:",
    "else:",
    "for {N} in {E}:",
    "while {E}:",
    "with {E} as {N}:",
    "try:",
    "except {N} as {N}:",
    "finally:",
    "global {N}",
    "nonlocal {N}",
    "import {M}",
    "from {M} import {N}",
    "from {M} import {N} as {N}",
    "pass",
    "break",
    "\"\"\"{N} docstring\"\"\"",
    "del {N}",
    "raise {E}",
];
/// Lines per file, statements per line-piece: inputs stay small, so each
/// run is fast and the fuzzer explores shapes rather than sizes.
const MAX_LINES: usize = 24;

/// A literal case starts with this line (see [`literal`]).
pub const LITERAL: &str = "#refactor\n";

pub fn check(data: &[u8]) {
    let case = match data.strip_prefix(LITERAL.as_bytes()) {
        Some(rest) => literal(&String::from_utf8_lossy(rest)),
        None => generated(&mut Input::new(data)),
    };
    let Some(Case {
        texts,
        request,
        cursor,
    }) = case
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    for (file, text) in &texts {
        let path = root.join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
    }
    // A session's cursor is always in a file and inside its text.
    let cursor = cursor.and_then(|(path, line, col)| {
        let lines: Vec<&str> = texts.get(&path)?.split('\n').collect();
        let line = line % lines.len();
        let width = lines[line].trim_end_matches('\r').chars().count();
        Some(Cursor {
            path,
            position: Position::new(line, col % (width + 1)),
        })
    });

    let workspace = Workspace::new(root, 1 << 20).expect("a workspace");
    let index = ProjectIndex::build_in(&workspace);
    let sources = WorkspaceSources {
        workspace: &workspace,
    };
    let project = Project::new(&index, &sources, cursor);
    let refactored = compute(&project, &request)
        .and_then(|refactored| check::no_new_errors(&project, &refactored).map(|_| refactored));
    let refactored = match refactored {
        Ok(refactored) => refactored,
        Err(error) => {
            let message = error.to_string();
            assert!(
                !message.is_empty() && !message.contains('\n'),
                "{request:?}: refusal {message:?} is not one non-empty line"
            );
            return;
        }
    };

    for (path, file) in refactored.change.files() {
        let name = path.as_str();
        let before = texts.get(name);
        match &file.op {
            FileOp::Edit(edits) => {
                let before =
                    before.unwrap_or_else(|| panic!("{request:?} edits {name}, not a file"));
                let after = edits.apply(&Rope::from_str(before)).unwrap_or_else(|e| {
                    panic!("{request:?}: the edits of {name} do not apply: {e}")
                });
                still_parses(&request, name, before, &after.to_string());
            }
            FileOp::Move { to, edits } => {
                let before =
                    before.unwrap_or_else(|| panic!("{request:?} moves {name}, not a file"));
                assert!(
                    !texts.contains_key(to.as_str()),
                    "{request:?} moves {name} onto the existing {to}"
                );
                let after = edits.apply(&Rope::from_str(before)).unwrap_or_else(|e| {
                    panic!("{request:?}: the edits of {name} do not apply: {e}")
                });
                still_parses(&request, to.as_str(), before, &after.to_string());
            }
            FileOp::Create(text) => {
                assert!(before.is_none(), "{request:?} creates the existing {name}");
                if name.ends_with(".py") {
                    assert!(
                        errors(text).is_empty(),
                        "{request:?} creates {name} broken:\n{text}"
                    );
                }
            }
            FileOp::Delete => {
                assert!(before.is_some(), "{request:?} deletes {name}, not a file");
            }
        }
    }
    // Nothing on disk changed: compute and check only read.
    for (name, text) in &texts {
        assert_eq!(
            &fs::read_to_string(root.join(name)).unwrap(),
            text,
            "{name} was written"
        );
    }
}

/// What one input asks: the files, the request, the cursor (file, line,
/// column, taken modulo the file's size).
struct Case {
    texts: BTreeMap<String, String>,
    request: Refactoring,
    cursor: Option<(String, usize, usize)>,
}

/// A case from the fuzzer's bytes: grammar-shaped files, a request on the
/// names they share.
fn generated(input: &mut Input) -> Option<Case> {
    let mut texts = BTreeMap::new();
    for file in FILES {
        if input.bool() {
            texts.insert(file.to_string(), python(input));
        }
    }
    let request = request(input);
    let names: Vec<&String> = texts.keys().collect();
    let cursor = (input.bool() && !names.is_empty()).then(|| {
        let path = names[input.below(names.len())].clone();
        (path, input.below(MAX_LINES), input.below(32))
    });
    Some(Case {
        texts,
        request,
        cursor,
    })
}

/// A case written out (the seeds: the refactors' unit tests and real
/// code), so that mutations start from realistic projects:
///
/// ```text
/// #refactor
/// === a.py
/// def f(x): ...
/// === pkg/m.py
/// ...
/// === cursor a.py 3 4
/// === Refactor RenameSymbol f g
/// ```
///
/// The request is a `Refactor …` command of the terse language; an input
/// that does not read as one is no case.
fn literal(text: &str) -> Option<Case> {
    let mut texts = BTreeMap::new();
    let mut request = None;
    let mut cursor = None;
    let mut current: Option<(String, String)> = None;
    for line in text.split_inclusive('\n') {
        let Some(head) = line.strip_prefix("=== ") else {
            if let Some((_, body)) = &mut current {
                body.push_str(line);
            }
            continue;
        };
        texts.extend(current.take());
        let head = head.trim_end();
        if let Some(at) = head.strip_prefix("cursor ") {
            let mut parts = at.split(' ');
            let path = parts.next()?.to_string();
            let line = parts.next()?.parse().ok()?;
            let col = parts.next()?.parse().ok()?;
            cursor = Some((path, line, col));
        } else if head.starts_with("Refactor ") {
            match eddi::commands::parse_command(head).ok()? {
                eddi::commands::Command::Refactor(r) => request = Some(r),
                _ => return None,
            }
        } else if is_relative_name(head) {
            current = Some((head.to_string(), String::new()));
        } else {
            return None;
        }
    }
    texts.extend(current);
    Some(Case {
        texts,
        request: request?,
        cursor,
    })
}

/// A plain relative file name: written under the temp dir, never beside it.
fn is_relative_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.split('/').any(|part| part.is_empty() || part == "..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-/".contains(c))
}

/// A file that parsed without an error parses without one after the change.
fn still_parses(request: &Refactoring, name: &str, before: &str, after: &str) {
    if !name.ends_with(".py") || !errors(before).is_empty() {
        return;
    }
    let found = errors(after);
    assert!(
        found.is_empty(),
        "{request:?} broke {name}: {found:?}\n--- before\n{before}\n--- after\n{after}"
    );
}

/// The file's syntax errors, and one for a tree with an error node that
/// `validate` did not explain (the two must agree; the converse is checked
/// by the `analysis` target).
fn errors(text: &str) -> Vec<String> {
    let rope = Rope::from_str(text);
    let tree = SyntaxTree::parse(&rope).expect("Python parses");
    let mut found: Vec<String> = syntax_errors(&rope, &tree)
        .into_iter()
        .map(|e| e.to_string())
        .collect();
    if found.is_empty() && tree.has_errors() {
        found.push("the tree has an error node".into());
    }
    found
}

/// Up to [`MAX_LINES`] lines of grammar-shaped Python, indented as the
/// blocks open (and sometimes not), with now and then a raw byte line.
fn python(input: &mut Input) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for _ in 0..input.below(MAX_LINES + 1) {
        match input.below(8) {
            // Dedent, or stay: the shape of real code.
            0 => depth = depth.saturating_sub(1 + input.below(2)),
            1 => {
                let len = input.below(24);
                out.push_str(&String::from_utf8_lossy(input.bytes(len)));
                out.push('\n');
                continue;
            }
            _ => {}
        }
        let line = statement(input);
        out.push_str(&"    ".repeat(depth));
        out.push_str(&line);
        out.push('\n');
        if line.ends_with(':') {
            depth = (depth + 1).min(6);
        }
    }
    if input.bool() {
        out = out.replace('\n', "\r\n");
    }
    out
}

fn statement(input: &mut Input) -> String {
    let template = input.pick(STATEMENTS);
    let mut out = String::new();
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let hole = &rest[at..at + 3];
        match hole {
            "{N}" => out.push_str(input.pick(NAMES)),
            "{M}" => out.push_str(input.pick(MODULES)),
            "{P}" => out.push_str(&params(input)),
            _ => out.push_str(&input.text(EXPRS, 4)),
        }
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
}

fn params(input: &mut Input) -> String {
    let count = input.below(4);
    (0..count)
        .map(|_| input.pick(PARAMS))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A name for a request: mostly a shared one, sometimes dotted or raw.
fn symbol(input: &mut Input) -> String {
    match input.below(6) {
        0 => input.pick(SYMBOLS).to_string(),
        1 => input.text(NAMES, 3),
        _ => input.pick(NAMES).to_string(),
    }
}

fn request(input: &mut Input) -> Refactoring {
    match input.below(8) {
        0 | 1 => Refactoring::Rename {
            kind: if input.bool() {
                RenameKind::Class
            } else {
                RenameKind::Symbol
            },
            symbol: symbol(input),
            new_name: input.pick(NEW_NAMES).to_string(),
            include_text: input.bool(),
            sites: input.pick(&[
                SitePolicy::Refuse,
                SitePolicy::IncludePossible,
                SitePolicy::OnlyProven,
            ]),
        },
        2 => Refactoring::RenameParam {
            function: symbol(input),
            param: input.pick(NAMES).to_string(),
            new_name: input.pick(NEW_NAMES).to_string(),
            include_text: input.bool(),
            sites: input.pick(&[SitePolicy::Refuse, SitePolicy::OnlyProven]),
        },
        3 => Refactoring::Signature {
            function: symbol(input),
            old_params: params(input),
            new_params: if input.bool() {
                params(input)
            } else {
                input.text(PARAMS, 6)
            },
            sites: input.pick(&[SitePolicy::Refuse, SitePolicy::OnlyProven]),
        },
        4 | 5 => {
            let first_line = input.below(MAX_LINES);
            Refactoring::Extract {
                kind: if input.bool() {
                    ExtractKind::Method
                } else {
                    ExtractKind::Function
                },
                name: input.pick(NEW_NAMES).to_string(),
                first_line,
                last_line: match input.below(4) {
                    0 => input.below(MAX_LINES),
                    _ => first_line + input.below(6),
                },
            }
        }
        _ => Refactoring::Inline {
            kind: if input.bool() {
                InlineKind::Function
            } else {
                InlineKind::Variable
            },
            name: symbol(input),
        },
    }
}
