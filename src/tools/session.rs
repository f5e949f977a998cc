//! `eddi`: any terse command (or several) in the caller's session — for
//! what no tool covers (cursor moves, `Modify … Rename`, `Replace`, `Diff`).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::engine::{Engine, Request};

use super::ToolError;

pub const EDDI: &str = "Run Eddi commands in this session, in its terse language, for what no other tool does: `Open a.py; Goto 3:0; Insert Line \"x = 1\"; Save`, `Modify Function f Rename g` (renames a definition in its file and says what it leaves elsewhere), `Replace All \"a\" With \"b\"`, `Diff`, `Summary`, `Help Goto`. Commands are separated by `;` or newlines and run in order until the first `Fail`; edits stay in the session's buffers until `Save`. Returns `reply`: one line per command (`Ok, …`, `Ok: …`); with `data`, also `replies`, each command's reply as JSON. A failing command returns an error (code `command_failed`) whose message is the replies, the `Fail` last (with `data`, its `replies` too, the last one's `failure` the typed error). The resource eddi://guide (NATS: mizuki.eddi.guide) explains the language.";

/// Parameters of `eddi`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Eddi {
    /// One or more terse commands, separated by `;` or newlines.
    pub command: String,
    /// Also return `replies`: each command's reply in its JSON form
    /// (`{ok, message, …, failure}`), on success and in a failure's error.
    #[serde(default)]
    pub data: bool,
}

pub fn eddi(engine: &Engine, sender: &str, p: Eddi) -> Result<Value, ToolError> {
    if p.command.trim().is_empty() {
        return Err(ToolError::param(
            "command",
            "command: empty; give one or more commands, e.g. \"Open a.py; Show Line 0\"",
        ));
    }
    engine.ensure_session(sender)?;
    let request = Request {
        sender,
        text: &p.command,
        id: None,
    };
    let response = match p.data {
        true => engine.execute_with_data(&request),
        false => engine.execute(&request),
    };
    let replies = json!(response.data);
    match (response.ok, p.data) {
        (true, false) => Ok(json!({ "reply": response.text })),
        (true, true) => Ok(json!({ "reply": response.text, "replies": replies })),
        (false, data) => {
            let mut error = ToolError::new("command_failed", response.text);
            if data {
                error.details.insert("replies".into(), replies);
            }
            Err(error)
        }
    }
}
