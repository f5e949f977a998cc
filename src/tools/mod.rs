//! The agent tools: Eddi's operations as JSON function calls, for agents
//! that speak MCP or a host's tool schema instead of the terse language.
//!
//! One registry ([`tools`]) is read by every surface — the NATS endpoints
//! `tools.list`/`tools.call`, the MCP server (`eddi mcp`) and the guide for
//! models ([`guide`]). A tool is a name, a description written for a model,
//! a parameter type (deriving `Deserialize` and `JsonSchema`, so the schema
//! a client sees is the one the call is parsed with), its [`Effect`] (the
//! command table's classification; MCP's hints come from it) and a function
//! on `&Engine`. Adding a tool is one entry of [`tools`].
//!
//! **Invariants:** no second implementation — each tool calls the engine's
//! typed operations (`engine::ops`) or runs a typed command, through the
//! engine's one door for permissions and its one applier for changes; no
//! tool parses a terse reply. Every failure is a [`ToolError`]: a `code`, a
//! `message` that names what to fix, and where it helps the valid choices
//! or the parameter at fault.

mod analysis;
mod edit;
pub mod guide;
mod read;
mod refactor;
mod script;
mod search;
mod session;

use std::sync::LazyLock;

use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use crate::commands::Effect;
use crate::engine::ops::{ErrorKind, OpError};
use crate::engine::Engine;

/// One tool: see the module doc.
pub struct Tool {
    pub name: &'static str,
    /// One paragraph for a model: what it does, when to use it instead of
    /// another tool, what it returns.
    pub description: &'static str,
    /// The most the tool may do (read … write), as the command table says.
    pub effect: Effect,
    /// The JSON Schema of the parameters, generated from their Rust type.
    pub input_schema: Value,
    run: Run,
}

/// A tool's function, its parameters still JSON.
type Run = Box<dyn Fn(&Engine, &str, Value) -> Result<Value, ToolError> + Send + Sync>;

impl Tool {
    /// A tool whose parameters are `P`.
    fn new<P>(
        name: &'static str,
        description: &'static str,
        effect: Effect,
        run: fn(&Engine, &str, P) -> Result<Value, ToolError>,
    ) -> Tool
    where
        P: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        Tool {
            name,
            description,
            effect,
            input_schema: schema_of::<P>(),
            run: Box::new(move |engine, sender, params| run(engine, sender, parse(params)?)),
        }
    }

    /// Changes nothing: MCP's `readOnlyHint`.
    pub fn read_only(&self) -> bool {
        self.effect <= Effect::Move
    }

    /// May replace or remove what is there: MCP's `destructiveHint`.
    pub fn destructive(&self) -> bool {
        self.effect >= Effect::Edit
    }

    /// Calling it again with the same arguments does nothing more: MCP's
    /// `idempotentHint` (reads; every edit tool makes a new undo step).
    pub fn idempotent(&self) -> bool {
        self.read_only()
    }

    /// `{name, description, input_schema, effect, annotations}`: one entry
    /// of `tools.list`.
    pub fn definition(&self) -> Value {
        json!({
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
            "effect": self.effect.name(),
            "annotations": {
                "readOnlyHint": self.read_only(),
                "destructiveHint": self.destructive(),
                "idempotentHint": self.idempotent(),
                "openWorldHint": false,
            },
        })
    }
}

/// Every tool, in the order a model should meet them.
pub fn tools() -> &'static [Tool] {
    static TOOLS: LazyLock<Vec<Tool>> = LazyLock::new(|| {
        let mut tools = vec![
            // -- read
            Tool::new("get_lines", read::GET_LINES, Effect::Read, read::get_lines),
            Tool::new(
                "get_function",
                read::GET_FUNCTION,
                Effect::Read,
                read::get_function,
            ),
            Tool::new("get_class", read::GET_CLASS, Effect::Read, read::get_class),
            Tool::new(
                "get_structure",
                read::GET_STRUCTURE,
                Effect::Read,
                read::get_structure,
            ),
            // -- edit
            Tool::new(
                "edit_lines",
                edit::EDIT_LINES,
                Effect::Write,
                edit::edit_lines,
            ),
            Tool::new(
                "create_file",
                edit::CREATE_FILE,
                Effect::Write,
                edit::create_file,
            ),
            Tool::new(
                "delete_file",
                edit::DELETE_FILE,
                Effect::Write,
                edit::delete_file,
            ),
            Tool::new(
                "replace_in_files",
                edit::REPLACE_IN_FILES,
                Effect::Write,
                edit::replace_in_files,
            ),
            Tool::new("undo", edit::UNDO, Effect::Write, edit::undo),
            // -- search
            Tool::new(
                "find_references",
                search::FIND_REFERENCES,
                Effect::Read,
                search::find_references,
            ),
            Tool::new(
                "find_definition",
                search::FIND_DEFINITION,
                Effect::Read,
                search::find_definition,
            ),
            Tool::new(
                "find_callers",
                search::FIND_CALLERS,
                Effect::Read,
                search::find_callers,
            ),
            // -- analysis
            Tool::new(
                "get_dependencies",
                analysis::GET_DEPENDENCIES,
                Effect::Read,
                analysis::get_dependencies,
            ),
            Tool::new(
                "get_dependents",
                analysis::GET_DEPENDENTS,
                Effect::Read,
                analysis::get_dependents,
            ),
            Tool::new(
                "get_complexity",
                analysis::GET_COMPLEXITY,
                Effect::Read,
                analysis::get_complexity,
            ),
            Tool::new(
                "get_todos",
                analysis::GET_TODOS,
                Effect::Read,
                analysis::get_todos,
            ),
            Tool::new(
                "validate",
                analysis::VALIDATE,
                Effect::Read,
                analysis::validate,
            ),
        ];
        // -- refactor: one tool per refactoring
        tools.extend(refactor::tools());
        // -- a query: the elements a script would visit
        tools.push(Tool::new(
            "select",
            script::SELECT,
            Effect::Read,
            script::select,
        ));
        // -- a script: a systematic change in one call
        tools.push(Tool::new(
            "run_script",
            script::RUN_SCRIPT,
            Effect::Write,
            script::run_script,
        ));
        // -- anything else, in the terse language
        tools.push(Tool::new(
            "eddi",
            session::EDDI,
            Effect::Write,
            session::eddi,
        ));
        tools
    });
    &TOOLS
}

/// A content hash as the tools show it: its first [`MIN_HASH`] hex digits
/// (64 bits), which `expected_hash` takes back.
pub fn short_hash(hash: &str) -> &str {
    &hash[..hash.len().min(crate::engine::ops::MIN_HASH)]
}

/// The tool named `name`.
pub fn tool(name: &str) -> Option<&'static Tool> {
    tools().iter().find(|t| t.name == name)
}

/// `tools.list`: every tool's definition.
pub fn list() -> Value {
    json!({ "tools": tools().iter().map(Tool::definition).collect::<Vec<_>>() })
}

/// Runs `tool` for `sender` with `params` (a JSON object; `null` is `{}`).
pub fn call(
    engine: &Engine,
    sender: &str,
    tool_name: &str,
    params: Value,
) -> Result<Value, ToolError> {
    let Some(tool) = tool(tool_name) else {
        let names: Vec<&str> = tools().iter().map(|t| t.name).collect();
        let mut candidates = crate::choices::closest(tool_name, &names, 3);
        if candidates.is_empty() {
            candidates = names.iter().map(|n| n.to_string()).collect();
        }
        return Err(ToolError {
            code: "unknown_tool",
            message: format!("Unknown tool '{tool_name}'; tools are listed by tools/list"),
            candidates,
            field: Some("tool".into()),
            details: Map::new(),
        });
    };
    let params = if params.is_null() { json!({}) } else { params };
    // The tools work in the sender's session (the index's view of its
    // buffers, undo steps): one is started on first use.
    engine.ensure_session(sender)?;
    (tool.run)(engine, sender, params)
}

/// The `select` tool for a caller in this process that renders what it
/// found itself (the Python binding builds its objects from the typed
/// elements, without JSON between): the same parameters, checks and
/// session as [`call`]`("select", …)`, whose JSON is these elements'.
pub fn select_found(
    engine: &Engine,
    sender: &str,
    params: Value,
) -> Result<SelectFound, ToolError> {
    let params = if params.is_null() { json!({}) } else { params };
    engine.ensure_session(sender)?;
    script::select_found(engine, sender, parse(params)?)
}

pub use script::Found as SelectFound;

/// The answer to one tool call, as a transport sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The [`envelope`], as JSON text.
    pub json: String,
    pub ok: bool,
    /// The stored answer to a repeated request id: not run again.
    pub duplicate: bool,
}

/// [`call`] once per request `id`: a retry with the same id (NATS's
/// `Nats-Msg-Id`) gets the first answer again and changes nothing, as a
/// retried message does (the session's window of answered ids).
pub fn call_once(
    engine: &Engine,
    sender: &str,
    tool_name: &str,
    params: Value,
    id: Option<&str>,
) -> Answer {
    let key = id.map(|id| format!("tool:{id}"));
    if let Some(key) = &key {
        if engine.ensure_session(sender).is_ok() {
            if let Some((json, ok)) = engine.recall(sender, key) {
                return Answer {
                    json,
                    ok,
                    duplicate: true,
                };
            }
        }
    }
    let outcome = call(engine, sender, tool_name, params);
    let json = envelope_text(&outcome);
    if let Some(key) = &key {
        engine.record(sender, key, &json, outcome.is_ok());
    }
    Answer {
        json,
        ok: outcome.is_ok(),
        duplicate: false,
    }
}

/// `{"ok": true, "result": …}` or `{"ok": false, "error": {…}}`: the
/// answer of `tools.call`.
pub fn envelope(outcome: &Result<Value, ToolError>) -> Value {
    match outcome {
        Ok(result) => json!({"ok": true, "result": result}),
        Err(error) => json!({"ok": false, "error": error.json()}),
    }
}

/// [`envelope`] as JSON text, written from the result where it is (a
/// query's result may be megabytes: not copied into a new tree first).
pub fn envelope_text(outcome: &Result<Value, ToolError>) -> String {
    #[derive(serde::Serialize)]
    struct Answered<'a> {
        ok: bool,
        result: &'a Value,
    }
    match outcome {
        Ok(result) => serde_json::to_string(&Answered { ok: true, result }).unwrap_or_else(|e| {
            envelope(&Err(ToolError::new("internal", e.to_string()))).to_string()
        }),
        Err(_) => envelope(outcome).to_string(),
    }
}

/// A failed tool call; see the module doc.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// What clients match on: an [`ErrorKind`]'s code (`not_found`,
    /// `permission_denied`, …), `invalid_params`, `stale`, `unknown_tool`.
    pub code: &'static str,
    pub message: String,
    /// Valid choices, closest first (names, tools, fields).
    pub candidates: Vec<String>,
    /// The parameter at fault, as a path (`start`, `params.content`).
    pub field: Option<String>,
    /// More facts for the caller (`current_hash`, `current_text`).
    pub details: Map<String, Value>,
}

impl ToolError {
    pub fn new(code: &'static str, message: impl Into<String>) -> ToolError {
        ToolError {
            code,
            message: message.into(),
            candidates: Vec::new(),
            field: None,
            details: Map::new(),
        }
    }

    /// A bad parameter: names the field.
    pub fn param(field: &str, message: impl Into<String>) -> ToolError {
        ToolError {
            field: Some(field.to_owned()),
            ..ToolError::new("invalid_params", message)
        }
    }

    pub fn json(&self) -> Value {
        let mut object = Map::new();
        object.insert("code".into(), json!(self.code));
        object.insert("message".into(), json!(self.message));
        if !self.candidates.is_empty() {
            object.insert("candidates".into(), json!(self.candidates));
        }
        if let Some(field) = &self.field {
            object.insert("field".into(), json!(field));
        }
        object.extend(self.details.clone());
        Value::Object(object)
    }
}

impl From<OpError> for ToolError {
    fn from(error: OpError) -> ToolError {
        // An operation's argument error names its parameter first (`start: …`).
        let field = (error.kind == ErrorKind::InvalidArgument)
            .then(|| error.message.split_once(": ").map(|(f, _)| f))
            .flatten()
            .filter(|f| f.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .map(str::to_owned);
        ToolError {
            code: error.kind.code(),
            message: error.message,
            candidates: error.candidates,
            field,
            details: Map::new(),
        }
    }
}

/// The parameters as `P`, or an error that names the field at fault and,
/// for an unknown one, the valid names.
fn parse<P: DeserializeOwned + schemars::JsonSchema>(params: Value) -> Result<P, ToolError> {
    if !params.is_object() {
        return Err(ToolError::param(
            "params",
            format!("params must be a JSON object, not {}", kind_of(&params)),
        ));
    }
    serde_path_to_error::deserialize(params).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner().to_string();
        // serde says `missing field `x`` and `unknown field `x`, expected
        // one of …` at the object itself: the field is in the message.
        let named = |prefix: &str| {
            inner
                .strip_prefix(prefix)
                .and_then(|rest| rest.split('`').next())
                .map(str::to_owned)
        };
        let field = match path.as_str() {
            "." | "" => named("missing field `")
                .or_else(|| named("unknown field `"))
                .unwrap_or(path),
            _ => path,
        };
        let mut tool_error = ToolError::param(&field, format!("{field}: {inner}"));
        // wording: serde says an unknown field only in its message
        if inner.starts_with("unknown field") {
            tool_error.candidates = fields_of::<P>();
        }
        tool_error
    })
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The parameter schema of `P`, without the meta keys a client ignores.
fn schema_of<P: schemars::JsonSchema>() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(P)).unwrap_or_default();
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
    }
    schema
}

fn fields_of<P: schemars::JsonSchema>() -> Vec<String> {
    schema_of::<P>()["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
