//! The analysis tools: what a file imports and what imports it, McCabe
//! complexity, TODO comments, syntax errors.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::engine::ops::json as op_json;
use crate::engine::Engine;

use super::ToolError;

/// Most blocks a project-wide complexity answer lists.
const MAX_BLOCKS: usize = 50;
/// Most TODOs a project-wide answer lists.
const MAX_TODOS: usize = 200;

/// Parameters of the tools on one file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OneFile {
    /// Workspace-relative path of the file.
    pub path: String,
}

/// Parameters of the tools on a file or the project.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileOrProject {
    /// A code file or a folder; omitted: the whole project.
    pub path: Option<String>,
}

pub const GET_DEPENDENCIES: &str = "What a file imports. A Python file: `imports` [{module, name?, alias?, level, line, col}] (level > 0 for relative imports), the count of `external` ones, and the names its module-level code uses: `internal` (defined in the file), `builtins`, `unresolved` (neither: likely a bug). A JavaScript, TypeScript, Go, Rust or Java file: its `module` and `imports` [{source, kind, names, files, module?}], resolved through the language's module system: `files` are the project files the source names (empty: a package from outside, or not found). Use get_dependents for the other direction.";

pub fn get_dependencies(engine: &Engine, sender: &str, p: OneFile) -> Result<Value, ToolError> {
    if crate::analysis::index::tags::reads(&p.path) {
        let imports = engine
            .module_imports_of(sender, &p.path)
            .map_err(|e| at_path(e.into()))?;
        let mut value = op_json::module_imports(&imports);
        value["path"] = json!(p.path);
        return Ok(value);
    }
    let deps = engine
        .dependencies(sender, &p.path, None)
        .map_err(|e| at_path(e.into()))?;
    let mut value = op_json::dependencies(&deps);
    value["path"] = json!(p.path);
    Ok(value)
}

pub const GET_DEPENDENTS: &str = "Which modules of the project import a file (Python, JavaScript, TypeScript, Go, Rust or Java): its `module` name and `dependents` [{module, path}]. Use it to see what a change to the file's names may break (then find_references for the exact sites).";

pub fn get_dependents(engine: &Engine, sender: &str, p: OneFile) -> Result<Value, ToolError> {
    let (module, dependents) = engine
        .dependents_of(sender, &p.path)
        .map_err(|e| at_path(e.into()))?;
    let dependents: Vec<Value> = dependents
        .into_iter()
        .map(|(module, path)| json!({"module": module, "path": path}))
        .collect();
    Ok(json!({"path": p.path, "module": module, "dependents": dependents}))
}

pub const GET_COMPLEXITY: &str = "McCabe complexity of the functions, methods and classes of a file (Python as radon computes it; JavaScript, TypeScript, Go, Rust and Java as lizard does) — or of every such file under a folder or the whole project when `path` is a folder or omitted — most complex first: `blocks` [{name, complexity, path?}] with the `average`. Project-wide answers list the 50 most complex and say how many more. Use it to find what to simplify or test first.";

pub fn get_complexity(engine: &Engine, sender: &str, p: FileOrProject) -> Result<Value, ToolError> {
    if let Some(path) = p.path.as_deref().filter(|path| !is_folder(engine, path)) {
        let report = engine
            .complexity(sender, path, None)
            .map_err(|e| at_path(e.into()))?;
        let mut value = op_json::complexity(&report);
        value["path"] = json!(path);
        return Ok(value);
    }
    let mut blocks: Vec<(u32, String, String)> = Vec::new();
    for file in engine.measured_files(sender, p.path.as_deref())? {
        if let Ok(report) = engine.complexity(sender, &file, None) {
            blocks.extend(
                report
                    .blocks
                    .into_iter()
                    .map(|b| (b.complexity, file.clone(), b.name)),
            );
        }
    }
    // most complex first; by place among equals
    blocks.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| (&a.1, &a.2).cmp(&(&b.1, &b.2))));
    let count = blocks.len();
    let average = if count == 0 {
        0.0
    } else {
        f64::from(blocks.iter().map(|b| b.0).sum::<u32>()) / count as f64
    };
    let shown: Vec<Value> = blocks
        .iter()
        .take(MAX_BLOCKS)
        .map(|(c, path, name)| json!({"name": name, "complexity": c, "path": path}))
        .collect();
    let mut value = json!({"blocks": shown, "count": count, "average": average});
    if count > MAX_BLOCKS {
        value["more"] = json!(count - MAX_BLOCKS);
    }
    Ok(value)
}

pub const GET_TODOS: &str = "The TODO, FIXME, XXX and HACK comments of a file (Python, JavaScript, TypeScript, Go, Rust, Java), or of every such file under a folder or the whole project: `todos` [{path, line, col, text}] (zero-based). Only comments count, not strings.";

pub fn get_todos(engine: &Engine, sender: &str, p: FileOrProject) -> Result<Value, ToolError> {
    let files = match p.path.as_deref() {
        Some(path) if !is_folder(engine, path) => vec![path.to_owned()],
        under => engine.checked_files(sender, under)?,
    };
    let single = files.len() == 1 && p.path.is_some();
    let mut todos = Vec::new();
    let mut count = 0;
    for file in &files {
        let found = match engine.todos(sender, file) {
            Ok(found) => found,
            Err(e) if single => return Err(at_path(e.into())),
            Err(_) => continue,
        };
        for todo in found {
            count += 1;
            if todos.len() < MAX_TODOS {
                todos.push(json!({"path": file, "line": todo.position.line,
                                  "col": todo.position.col, "text": todo.message}));
            }
        }
    }
    let mut value = json!({"todos": todos, "count": count});
    if count > MAX_TODOS {
        value["more"] = json!(count - MAX_TODOS);
    }
    Ok(value)
}

pub const VALIDATE: &str = "Check a Python file for syntax errors as CPython's compiler reports them (tree-sitter's errors plus the compiler's own checks), or a JavaScript, TypeScript, Go, Rust or Java file for its parse errors (where node, gofmt, rustc and javac report them), on the text this session sees (unsaved edits included): `valid` and `errors` [{line, col, message}] (zero-based). Call it after edits.";

pub fn validate(engine: &Engine, sender: &str, p: OneFile) -> Result<Value, ToolError> {
    let errors = engine
        .syntax_errors(sender, &p.path)
        .map_err(|e| at_path(e.into()))?;
    Ok(json!({
        "path": p.path,
        "valid": errors.is_empty(),
        "errors": op_json::syntax_errors(&errors),
    }))
}

fn is_folder(engine: &Engine, path: &str) -> bool {
    !std::path::Path::new(path).is_absolute()
        && !path.split(['/', '\\']).any(|part| part == "..")
        && engine.workspace().root().join(path).is_dir()
}

/// A failure about the file names the `path` parameter.
fn at_path(mut error: ToolError) -> ToolError {
    if error.field.is_none() && error.code != "internal" {
        error.field = Some("path".into());
    }
    error
}
