//! `run_script`: a script of the Eddi scripting language (`foreach …`,
//! `{ … }`: docs/SCRIPTING.md) in the caller's session, written as one
//! commit and one undo step, kept as a named changeset (`collect`), or
//! only shown (`preview`).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::commands::{Command, ScriptMode, Selection};
use crate::engine::Engine;
use crate::outcome::Fact;
use crate::reply::{Clause, Reply};
use crate::script::run::Selections;

use super::ToolError;

pub const RUN_SCRIPT: &str = "Run a script of Eddi's scripting language: one call for a systematic change across the project, all or nothing. `foreach caller of auth.authenticate() replace with authenticate($1, timeout=30)`, `{ foreach file matching \"*.py\" { foreach import where unused { remove import } } }`, `foreach function where complexity > 10 flag \"Split: \" + function.name`. Queries go through the project index (callers it proves, not same-named methods); a script whose result would break a file (a syntax error, an undefined name), or that names an unknown word, changes nothing and says where (line:col). With `collect`, nothing is written: the change is kept as a named changeset (`apply changeset <name>`, `rollback changeset <name>` through the eddi tool); with `preview`, nothing is written and the diff is returned. Returns `reply` (the terse line: `Ok, 15 functions flagged, 8 unused imports removed`), `script` (counts, the flagged items with path and line, the files) and, for a preview, `diff`. The guide (eddi://guide) has the grammar.";

/// Parameters of `run_script`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunScript {
    /// The script, e.g. `foreach method in UserManager where complexity > 8 flag "Review"`.
    pub script: String,
    /// Keep the change as the named changeset (1-64 of A-Z a-z 0-9 _ . -)
    /// instead of writing it.
    #[serde(default)]
    pub collect: Option<String>,
    /// Write nothing; return what the script would change, with its diff.
    #[serde(default)]
    pub preview: bool,
}

pub fn run_script(engine: &Engine, sender: &str, p: RunScript) -> Result<Value, ToolError> {
    if !crate::script::message::is_script(&p.script) {
        return Err(ToolError::param(
            "script",
            "script: not a script; it starts with a script statement (foreach, let, if, use, try, on_error, collect, flag, add import, …) or '{' — for terse commands use the eddi tool",
        ));
    }
    let mode = match (&p.collect, p.preview) {
        (Some(_), true) => {
            return Err(ToolError::param(
                "preview",
                "preview and collect: give one (collect keeps the change as a changeset, preview only shows it)",
            ))
        }
        (Some(name), false) => ScriptMode::Collect(name.clone()),
        (None, true) => ScriptMode::Preview,
        (None, false) => ScriptMode::Run,
    };
    engine.ensure_session(sender)?;
    let outcome = engine.command(
        sender,
        &Command::Script {
            text: p.script,
            mode,
        },
    )?;
    let report = outcome.facts.iter().find_map(|clause| match clause {
        Clause::Fact(Fact::Script(report)) => Some(report.clone()),
        _ => None,
    });
    let diff = outcome.facts.iter().find_map(|clause| match clause {
        Clause::Txt(diff) => Some(diff.clone()),
        _ => None,
    });
    // the diff is its own field
    let mut outcome = outcome;
    outcome
        .facts
        .retain(|clause| !matches!(clause, Clause::Txt(_)));
    let reply = Reply::from(outcome).terse();
    let mut value = json!({ "reply": reply });
    if let Some(report) = report {
        value["script"] = crate::engine::ops::json::script(&report);
    }
    if let Some(diff) = diff {
        value["diff"] = json!(diff);
    }
    Ok(value)
}

pub const SELECT: &str = "Find code elements with the scripting language's query engine, without changing anything: `functions where complexity > 8 and params.count == 2`, `methods in users.UserManager`, `caller of auth.authenticate()` (the calls the index proves, not same-named methods), `classes implementing Base`, `files matching \"src/**/*.py\"`, `imports where unused`. The query is a script's query (the grammar in eddi://guide): what a `foreach` would visit. Returns `elements`, each `{kind, name, qualified_name, path, line (1-based), col (0-based), end_line, language, text}` and per kind `indexed_name` (a definition's dotted name in the index: what `caller of` takes), `complexity`, `line_count`, `params` (as written, self included), `decorators`, `class`, `bases`, `methods` (a class's), `imports` (a file's), `function` and `args` (a call), `module`, `names`, `unused` (an import). `queries` (a list, instead of `query`) answers each query on its own in one call (`answers`: each `{elements}` or `{failure}`); `where` is a condition joined with `and`, its mistakes at their line:col in it; `text: false` leaves out the text of definitions and files; `after` is a script run first, nothing written, whose edits the query sees.";

/// Parameters of `select`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Select {
    /// A query of the scripting language, e.g. `methods in UserManager where complexity > 3`.
    #[serde(default)]
    pub query: Option<String>,
    /// Many queries instead of one, each answered on its own (`answers`:
    /// its `elements` or its `failure`), the project read once for all:
    /// e.g. the callers of many functions, `["caller of a.f()", "caller of a.g()"]`.
    #[serde(default)]
    pub queries: Option<Vec<String>>,
    /// A condition joined to the query's with `and`, e.g. `complexity > 8`:
    /// a mistake in it is refused at its line:col in this text.
    #[serde(default, rename = "where")]
    pub filter: Option<String>,
    /// Include the text of functions, classes, variables and files
    /// (default true; a call's, an import's or a line's text always comes).
    #[serde(default = "yes")]
    pub text: bool,
    /// A script run first, nothing written: the query sees the files as
    /// it leaves them (e.g. the edits of a transaction so far).
    #[serde(default)]
    pub after: Option<String>,
}

fn yes() -> bool {
    true
}

pub fn select(engine: &Engine, sender: &str, p: Select) -> Result<Value, ToolError> {
    let found = select_found(engine, sender, p)?;
    let (field, elements) = crate::engine::ops::json::selections(&found.selections, found.texts);
    Ok(json!({ "reply": found.reply, field: elements }))
}

/// What a `select` found, typed: the JSON tool renders it, and so does
/// the Python binding (as objects, without JSON between).
#[derive(Debug)]
pub struct Found {
    /// The terse line (`Ok: Selected 3 functions`).
    pub reply: String,
    pub selections: std::sync::Arc<crate::script::run::Selections>,
    /// Whether definitions and files come with their text.
    pub texts: bool,
}

/// `select`'s parameters checked and its query run: what it found.
pub fn select_found(engine: &Engine, sender: &str, p: Select) -> Result<Found, ToolError> {
    let (text, each_line) = match (p.query, p.queries) {
        (Some(query), None) => {
            if query.trim().is_empty() {
                return Err(ToolError::param(
                    "query",
                    "query: empty; give a query, e.g. \"functions where complexity > 8\"",
                ));
            }
            (query, false)
        }
        (None, Some(queries)) => {
            if let Some(at) = queries
                .iter()
                .position(|q| q.trim().is_empty() || q.contains(['\n', '\r']))
            {
                return Err(ToolError::param(
                    "queries",
                    format!("queries[{at}]: give one query on one line, e.g. \"caller of pkg.f()\""),
                ));
            }
            (queries.join("\n"), true)
        }
        (Some(_), Some(_)) => {
            return Err(ToolError::param(
                "queries",
                "query and queries: give one (query: one query; queries: many, answered each on its own)",
            ))
        }
        (None, None) => {
            return Err(ToolError::param(
                "query",
                "query: missing; give a query, e.g. \"functions where complexity > 8\" (or queries: a list)",
            ))
        }
    };
    if p.filter.as_deref().is_some_and(|f| f.trim().is_empty()) {
        return Err(ToolError::param(
            "where",
            "where: empty; give a condition, e.g. \"complexity > 8\", or leave it out",
        ));
    }
    engine.ensure_session(sender)?;
    let outcome = engine.command(
        sender,
        &Command::Script {
            text,
            mode: ScriptMode::Select(Selection {
                filter: p.filter,
                without_texts: !p.text,
                each_line,
                after: p.after.filter(|script| !script.trim().is_empty()),
            }),
        },
    )?;
    let mut outcome = outcome;
    // taken out, not copied (the terse line does not read the data)
    let at = outcome
        .facts
        .iter()
        .position(|clause| matches!(clause, Clause::Selections { .. }));
    let (selections, texts) = match at.map(|at| outcome.facts.remove(at)) {
        Some(Clause::Selections { found, texts }) => (found, texts),
        _ => {
            let none = if each_line {
                Selections::Answers(Vec::new())
            } else {
                Selections::Elements(Vec::new())
            };
            (std::sync::Arc::new(none), p.text)
        }
    };
    Ok(Found {
        reply: Reply::from(outcome).terse(),
        selections,
        texts,
    })
}
