//! The read tools: numbered lines with the content hash, a function's or
//! class's code, the structure of a file, a folder or the project.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::analysis::target::CodeTarget;
use crate::engine::ops::{json as op_json, ErrorKind, OpError, StructureNode};
use crate::engine::Engine;

use super::ToolError;

/// Most bytes of structure one answer carries.
const STRUCTURE_BUDGET: usize = 12_000;

pub const GET_LINES: &str = "Read numbered lines of a text file (zero-based line numbers, as every Eddi position). Returns `text` with one `N<TAB>line` per line, `hash` (the content hash of the whole file: pass it as `expected_hash` to edit_lines so an edit never lands on a file that changed since you read it), `first`, and `total_lines`. Without start/end the whole file is returned; prefer get_function/get_class to read one definition, and find_references to locate code.";

/// Parameters of `get_lines`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetLines {
    /// Workspace-relative path of the file.
    pub path: String,
    /// First line to return, zero-based (default 0).
    pub start: Option<usize>,
    /// Last line to return, inclusive (default: the end of the file).
    pub end: Option<usize>,
}

pub fn get_lines(engine: &Engine, sender: &str, p: GetLines) -> Result<Value, ToolError> {
    let lines = engine.read_lines(sender, &p.path, p.start, p.end)?;
    let text: Vec<String> = lines
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}\t{l}", lines.first + i))
        .collect();
    let mut result = json!({
        "path": lines.path,
        "hash": super::short_hash(&lines.hash),
        "first": lines.first,
        "total_lines": lines.total,
        "text": text.join("\n"),
    });
    if lines.clamped {
        result["note"] = json!(format!(
            "end clamped: the file ends at line {}",
            lines.total.saturating_sub(1)
        ));
    }
    Ok(result)
}

pub const GET_FUNCTION: &str = "Get the code of one function or method (Python, JavaScript, TypeScript, Go, Rust, Java) by name (`parse`, `Session.send`, `pkg.mod.func`, `f(a, b)` to pick by parameters; a Go or Rust method by its type, `Stack.Push`). Without `path` the project index finds the file (a full name it printed, `web.util.fmt`, `pkg.mod.func`, is taken back); give `path` when the name exists in several files. Returns `text` (the definition, decorators to last line), `path`, the file's `hash` (for edit_lines' `expected_hash`), and its lines `line`..`end_line` (zero-based, inclusive) — the range to pass to edit_lines to replace it. A name that is not found comes back with the closest names as `candidates`.";

pub const GET_CLASS: &str = "Get the code of one class (Python, JavaScript, TypeScript, Go, Rust, Java; also an interface, struct, trait, enum, record or type alias) by name (`Session`, `pkg.mod.Session`). Without `path` the project index finds the file. Returns `text`, `path` and the range (zero-based lines) like get_function. For a class's outline without its code use get_structure on its file.";

/// Parameters of `get_function` and `get_class`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetElement {
    /// The name: `f`, `Class.method`, `pkg.module.f`; `f(a, b)` picks one of same-named functions.
    pub name: String,
    /// Workspace-relative path of the file; omitted, the project index finds it.
    pub path: Option<String>,
}

pub fn get_function(engine: &Engine, sender: &str, p: GetElement) -> Result<Value, ToolError> {
    element(engine, sender, p, false)
}

pub fn get_class(engine: &Engine, sender: &str, p: GetElement) -> Result<Value, ToolError> {
    element(engine, sender, p, true)
}

fn element(engine: &Engine, sender: &str, p: GetElement, class: bool) -> Result<Value, ToolError> {
    let (path, name) = match p.path {
        Some(path) => (path, p.name.clone()),
        None => locate(engine, sender, &p.name, class)?,
    };
    let mut last = None;
    for target in targets(&name, class) {
        match engine.get_element(sender, &path, &target) {
            Ok(found) => {
                // Lines are what edit_lines takes: no columns.
                let value = json!({
                    "kind": found.kind,
                    "name": found.name,
                    "path": found.path,
                    "line": found.span.start.line,
                    "end_line": found.span.end.line,
                    "hash": super::short_hash(&found.file_hash),
                    "text": found.text,
                });
                return Ok(value);
            }
            Err(e) if e.kind == ErrorKind::NotFound => last = Some(e),
            Err(e) => return Err(e.into()),
        }
    }
    let mut error: ToolError = last
        .unwrap_or_else(|| OpError::new(ErrorKind::NotFound, format!("Not found: '{name}'")))
        .into();
    error.field = Some("name".into());
    Err(error)
}

/// The file that defines `name` (of the right kind), from the project index.
fn locate(
    engine: &Engine,
    sender: &str,
    name: &str,
    class: bool,
) -> Result<(String, String), ToolError> {
    let bare = name.split('(').next().unwrap_or(name).trim();
    let found = engine.find_definition(sender, bare).map_err(|e| {
        let mut error: ToolError = e.into();
        error.field = Some("name".into());
        error
    })?;
    let wanted = |kind: &str| match class {
        true => kind == "class",
        false => kind == "function" || kind == "method",
    };
    let fitting: Vec<_> = found.iter().filter(|d| wanted(d.kind)).collect();
    match fitting.as_slice() {
        [one] => Ok((
            one.location.path.clone(),
            qualified(name, &one.qualified_name),
        )),
        [] => {
            let kinds: Vec<String> = found
                .iter()
                .map(|d| format!("{} ({})", d.qualified_name, d.kind))
                .collect();
            let mut error = ToolError::new(
                "not_found",
                format!(
                    "'{bare}' is not a {}; found: {}",
                    if class { "class" } else { "function or method" },
                    kinds.join(", ")
                ),
            );
            error.field = Some("name".into());
            Err(error)
        }
        many => {
            let mut error = ToolError::new(
                "ambiguous",
                format!(
                    "'{bare}' is defined in {} places; give `path`, or the qualified name",
                    many.len()
                ),
            );
            error.candidates = many
                .iter()
                .map(|d| format!("{} ({})", d.qualified_name, d.location.path))
                .collect();
            error.field = Some("name".into());
            Err(error)
        }
    }
}

/// The index's qualified name, keeping the parameters the caller gave.
fn qualified(asked: &str, qualified: &str) -> String {
    match asked.find('(') {
        Some(at) => format!("{qualified}{}", &asked[at..]),
        None => qualified.to_owned(),
    }
}

/// The code targets a name may mean, tried in order.
fn targets(name: &str, class: bool) -> Vec<CodeTarget> {
    // `f(a: (x: T) => U)`: the parameters run from the first `(` to the
    // last `)`, which closes it; their own parentheses stay theirs.
    let name = name.trim();
    let (bare, params) = match name.find('(') {
        Some(at) => {
            let inner = &name[at + 1..];
            let params = inner.strip_suffix(')').unwrap_or(inner);
            (name[..at].trim().to_owned(), Some(params.to_owned()))
        }
        None => (name.to_owned(), None),
    };
    if class {
        return vec![CodeTarget::Class { name: bare }];
    }
    let mut targets = vec![CodeTarget::Function {
        name: bare.clone(),
        params: params.clone(),
    }];
    // `C.m` and `pkg.mod.C.m`: a method of the class before the last dot.
    if let Some((owner, method)) = bare.rsplit_once('.') {
        let mut owners = vec![owner.to_owned()];
        if let Some((_, class)) = owner.rsplit_once('.') {
            owners.push(class.to_owned());
        }
        for class in owners {
            targets.push(CodeTarget::Method {
                class,
                name: method.to_owned(),
                params: params.clone(),
            });
        }
        targets.push(CodeTarget::Function {
            name: method.to_owned(),
            params,
        });
    }
    targets
}

pub const GET_STRUCTURE: &str = "Outline code without reading it (Python, JavaScript, TypeScript, Go, Rust, Java): for a file, its classes, functions and methods (and interfaces, structs, traits, enums, types, fields) with their zero-based line ranges; for a folder (or the whole project when `path` is omitted), each code file with its classes (and their methods) and functions, compactly. Large answers stop at a budget and say how many files were left out (`more_files`): then ask for a sub-folder. Use it first to find where things are; then get_function or get_lines to read them.";

/// Parameters of `get_structure`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetStructure {
    /// A code file, or a folder; omitted: the whole project.
    pub path: Option<String>,
}

pub fn get_structure(engine: &Engine, sender: &str, p: GetStructure) -> Result<Value, ToolError> {
    let is_dir = p
        .path
        .as_deref()
        .filter(|path| !escapes(path))
        .is_some_and(|path| engine.workspace().root().join(path).is_dir());
    if let (Some(path), false) = (&p.path, is_dir) {
        let tree = engine.structure(sender, path).map_err(|e| {
            let mut error: ToolError = e.into();
            error.field = Some("path".into());
            error
        })?;
        return Ok(op_json::structure(&tree));
    }
    let files = engine.code_files(sender, p.path.as_deref())?;
    let mut shown = Vec::new();
    let mut used = 0;
    let mut skipped = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let entry = match engine.structure(sender, file) {
            Ok(tree) => compact(file, &tree),
            Err(e) => {
                skipped.push(json!({"path": file, "error": e.message}));
                continue;
            }
        };
        let size = entry.to_string().len();
        if used + size > STRUCTURE_BUDGET && !shown.is_empty() {
            let more = files.len() - i;
            return Ok(json!({
                "files": shown,
                "more_files": more,
                "note": format!("{more} more files not shown (budget {STRUCTURE_BUDGET} bytes): ask for a folder, e.g. the folder of the last file shown"),
            }));
        }
        used += size;
        shown.push(entry);
    }
    let mut result = json!({ "files": shown });
    if !skipped.is_empty() {
        result["unreadable"] = json!(skipped);
    }
    Ok(result)
}

/// `{path, classes: {Name: "line", methods…}, functions: […]}` — one file in few bytes:
/// `"class Session@12: get, post"` and `"def request@40"`.
fn compact(path: &str, tree: &StructureNode) -> Value {
    let outline: Vec<String> = tree
        .children
        .iter()
        .filter(|n| !is_data(n.kind))
        .map(|node| {
            let line = node.span.map_or(0, |s| s.start.line);
            // a function is a `def` in any language; the other kinds say
            // what they are (`interface`, `struct`, `trait`, `enum`)
            let keyword = match (node.kind, node.is_async) {
                ("function", true) => "async def",
                ("function", false) => "def",
                (kind, _) => kind,
            };
            let members: Vec<&str> = node
                .children
                .iter()
                .filter(|c| !is_data(c.kind))
                .map(|c| c.name.as_str())
                .collect();
            if members.is_empty() {
                format!("{keyword} {}@{line}", node.name)
            } else {
                format!("{keyword} {}@{line}: {}", node.name, members.join(", "))
            }
        })
        .collect();
    json!({ "path": path, "outline": outline })
}

/// Whether an outline's kind is data (a variable, a field, a constant, an
/// enum's variant), which the compact outline leaves out: it lists code.
fn is_data(kind: &str) -> bool {
    matches!(
        kind,
        "variable"
            | "attribute"
            | "field"
            | "static field"
            | "property"
            | "variant"
            | "constant"
            | "static"
    )
}

/// A path that leaves the root lexically: it goes to the file operations,
/// which refuse it by name (never probed on disk here).
fn escapes(path: &str) -> bool {
    std::path::Path::new(path).is_absolute() || path.split(['/', '\\']).any(|part| part == "..")
}
