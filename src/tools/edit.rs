//! The edit tools: replace lines (with a hash precondition), create and
//! delete files, replace a text across files, undo — each committed to disk as one undo step of the
//! caller's session, through the engine's one applier.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::commands::Pattern;
use crate::engine::ops::{EditError, LineRange};
use crate::engine::Engine;

use super::ToolError;

pub const EDIT_LINES: &str = "Replace lines `start`..`end` (zero-based, inclusive, as get_lines numbers them) of a file with `content`, and save it. `content` is whole lines separated by \\n (a final line break is added); an empty `content` deletes the lines; `end` = `start` - 1 inserts before `start` without replacing (`start` = the number of lines appends). Pass the `hash` from your last get_lines (or get_function, or edit_lines) as `expected_hash`: if the file changed since, nothing is written and the error (code `stale`) carries `current_hash` and the range's `current_text`, so you can retry at once. Returns the new `hash` (for your next edit), lines `removed`/`inserted` and `total_lines`, and a `warning` when the edit made a valid code file invalid (`Now invalid Python (1 syntax error): 3:8 missing ':'`, `Now invalid TypeScript …`: written anyway — fix it with the next edit). Another session's unsaved edits on the same lines refuse the edit (code `conflict`); on other lines they are kept and get the edit too. Each call is one undo step (see undo). For renames across files use eddi with `Modify`, not many edit_lines.";

/// Parameters of `edit_lines`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditLines {
    /// Workspace-relative path of the file.
    pub path: String,
    /// First line to replace, zero-based.
    pub start: usize,
    /// Last line to replace, inclusive (default: `start`); `start - 1` inserts before `start`.
    #[schemars(range(min = -1))]
    pub end: Option<i64>,
    /// The new lines, separated by `\n`; empty deletes the range.
    pub content: String,
    /// The `hash` get_lines (get_function, edit_lines) returned; the edit is refused if the file changed since.
    pub expected_hash: Option<String>,
}

pub fn edit_lines(engine: &Engine, sender: &str, p: EditLines) -> Result<Value, ToolError> {
    let range = LineRange {
        start: p.start,
        end: p.end,
    };
    match engine.edit_lines(
        sender,
        &p.path,
        range,
        &p.content,
        p.expected_hash.as_deref(),
    ) {
        // The path and start are the caller's own: not echoed.
        Ok(edited) => {
            let mut result = json!({
                "hash": super::short_hash(&edited.hash),
                "removed": edited.removed,
                "inserted": edited.inserted,
                "total_lines": edited.total,
            });
            // Written anyway, but said: the file no longer parses.
            if let Some(warning) = edited.warning {
                result["warning"] = json!(warning);
            }
            Ok(result)
        }
        Err(EditError::Stale {
            path,
            expected,
            current_hash,
            current_text,
        }) => {
            let mut error = ToolError::new(
                "stale",
                format!(
                    "{path} changed since it was read (expected_hash {expected}); nothing was written. Its current hash and the lines {}..{} as they are now are attached: retry with them",
                    p.start,
                    p.end.unwrap_or(p.start as i64)
                ),
            );
            error.field = Some("expected_hash".into());
            error.details.insert(
                "current_hash".into(),
                json!(super::short_hash(&current_hash)),
            );
            error
                .details
                .insert("current_text".into(), json!(current_text));
            Err(error)
        }
        Err(EditError::Op(e)) => Err(e.into()),
    }
}

pub const CREATE_FILE: &str = "Create a new file with `content` (any text; \\n line breaks) and save it; folders are created as needed. Refused (code `conflict`) when the file exists: change an existing file with edit_lines. Returns the `path`, its `hash` and `total_lines`.";

/// Parameters of `create_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateFile {
    /// Workspace-relative path of the new file.
    pub path: String,
    /// The file's text.
    pub content: String,
}

pub fn create_file(engine: &Engine, sender: &str, p: CreateFile) -> Result<Value, ToolError> {
    let created = engine.create_file(sender, &p.path, &p.content)?;
    Ok(json!({
        "path": created.path,
        "hash": super::short_hash(&created.hash),
        "total_lines": created.total,
    }))
}

pub const DELETE_FILE: &str = "Delete a file from disk (and from the session's open files). Refused when the session has unsaved changes in it. Returns the `files` deleted. Deleting cannot be undone with undo: read the file first if you may need it again.";

/// Parameters of `delete_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteFile {
    /// Workspace-relative path of the file.
    pub path: String,
}

pub fn delete_file(engine: &Engine, sender: &str, p: DeleteFile) -> Result<Value, ToolError> {
    let deleted = engine.delete_file(sender, &p.path)?;
    Ok(json!({ "files": deleted.files }))
}

pub const UNDO: &str = "Take back the last change this session made to `path` (default: the file it changed last) — an edit_lines, a command run through eddi, or a whole multi-file change at once — on disk too. Returns the `files` it changed. Call it again to go further back.";

/// Parameters of `undo`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    /// The file whose last change to take back (default: the current file).
    pub path: Option<String>,
}

pub fn undo(engine: &Engine, sender: &str, p: Undo) -> Result<Value, ToolError> {
    let undone = engine.undo_step(sender, p.path.as_deref())?;
    Ok(json!({ "files": undone.files }))
}

pub const REPLACE_IN_FILES: &str = "Replace a text (or, with `regex: true`, every match of a regular expression) in every file whose workspace path matches the glob `files` (`*.py`, `src/**/*.py`; gitignore-aware; binary, non-UTF-8 and oversized files are skipped and listed) — the terse `Replace All … In Files`. With `preview: true` nothing changes: it counts what would change. With `preview: false` every file is written at once (all or nothing) as one undo step — the undo tool takes the whole change back — after the checks a refactor makes: refused, nothing written, when a file it changes has unsaved edits in this session, or when another session has unsaved edits on the lines it changes, or when you may not write a file. In `replace` with a regex, `$1`, `${name}` are groups and `$$` is a `$`; without `regex` both are literal text. Returns `total`, `files` (replacements per path), `searched`, `skipped_files` ([{path, reason}]) and `applied`. For code names use rename_symbol instead: it changes the uses, not the same word in strings and comments.";

/// Parameters of `replace_in_files`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplaceInFiles {
    /// The text to find, literal; with `regex: true` a regular expression (Rust syntax).
    pub find: String,
    /// `find` is a regular expression, and `replace` may name its groups.
    #[serde(default)]
    pub regex: bool,
    /// The replacement.
    pub replace: String,
    /// Which files: a glob over workspace paths (`*.py`, `src/**/*.py`).
    pub files: String,
    /// Only count what would change; nothing is written.
    #[serde(default)]
    pub preview: bool,
}

pub fn replace_in_files(
    engine: &Engine,
    sender: &str,
    p: ReplaceInFiles,
) -> Result<Value, ToolError> {
    if p.find.is_empty() {
        return Err(ToolError::param(
            "find",
            "find: empty; give the text to find",
        ));
    }
    if p.files.trim().is_empty() {
        return Err(ToolError::param(
            "files",
            "files: empty; give a glob such as *.py or src/**/*.py",
        ));
    }
    let pattern = if p.regex {
        if let Err(e) = regex::Regex::new(&p.find) {
            let why = e.to_string();
            let why = why.lines().last().unwrap_or_default();
            return Err(ToolError::param(
                "find",
                format!("find: invalid regex: {why}"),
            ));
        }
        Pattern::Regex(p.find)
    } else {
        Pattern::Text(p.find)
    };
    Ok(engine.replace_in_files_op(sender, &pattern, &p.replace, &p.files, p.preview)?)
}
