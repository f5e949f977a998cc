//! The search tools: definitions, references and callers from the project
//! index, as location arrays within a budget that degrades like Serena's —
//! every site with its line, else without lines, else counts per file,
//! else the total — always saying which (`detail`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::engine::ops::{json as op_json, Location, Uses};
use crate::engine::Engine;

use super::ToolError;

/// The budget when the caller gives none (chars of the JSON answer).
pub const DEFAULT_MAX_CHARS: usize = 8_000;

pub const FIND_REFERENCES: &str = "Find every use of a symbol across the project — Python, JavaScript, TypeScript, Go, Rust or Java (`Cart`, `shop.Cart.total`, `pkg.module.func`, `web.util.add`, `Stack.Push`) — the unsaved edits of this session included. Returns `references`: locations {path, line, col, end_line, end_col, certain, context} (zero-based; `context` is the site's line; `certain: false` marks uses the index cannot prove), with `count`, `certain` and `possible`. Large answers degrade to fit `max_chars`: `detail` says which — `full`, `no_context`, `per_file` (counts by path) or `total`. Use it instead of text search for code names: strings and comments with the same word are not uses. An unknown name comes back with the closest names as `candidates`.";

pub const FIND_DEFINITION: &str = "Find where a symbol (function, class, method, variable; of Python, JavaScript, TypeScript, Go, Rust or Java) or a Python module is defined: `definitions` with {name (qualified), kind, path, line, col, end_line, end_col, context} (zero-based). Use it to go from a name to its file before get_function or get_lines. An unknown name comes back with the closest names as `candidates`.";

pub const FIND_CALLERS: &str = "Find the calls of a function or method (Python, JavaScript, TypeScript, Go, Rust, Java) across the project: `callers`, locations {path, line, col, end_line, end_col, certain, in_symbol, context} where `in_symbol` is the function or class making the call (`<module>` at module level). Use it before changing a function's signature: these are the lines to update. Degrades to fit `max_chars` like find_references (`detail`: full, no_context, per_file, total).";

/// Parameters of `find_references` and `find_definition`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindSymbol {
    /// The name: `Cart`, `Cart.total`, `pkg.module.func`.
    pub symbol: String,
    /// Budget of the answer in chars (default 8000); the answer degrades to fit it.
    pub max_chars: Option<usize>,
}

/// Parameters of `find_callers`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindCallers {
    /// The function or method: `checkout`, `Cart.total`, `pkg.module.func`.
    pub function: String,
    /// Budget of the answer in chars (default 8000); the answer degrades to fit it.
    pub max_chars: Option<usize>,
}

pub fn find_references(engine: &Engine, sender: &str, p: FindSymbol) -> Result<Value, ToolError> {
    let uses = engine
        .find_references(sender, &p.symbol)
        .map_err(|e| named(e.into(), "symbol"))?;
    Ok(in_budget(
        &p.symbol,
        "references",
        &uses,
        p.max_chars.unwrap_or(DEFAULT_MAX_CHARS),
    ))
}

pub fn find_callers(engine: &Engine, sender: &str, p: FindCallers) -> Result<Value, ToolError> {
    let uses = engine
        .find_callers(sender, &p.function)
        .map_err(|e| named(e.into(), "function"))?;
    Ok(in_budget(
        &p.function,
        "callers",
        &uses,
        p.max_chars.unwrap_or(DEFAULT_MAX_CHARS),
    ))
}

pub fn find_definition(engine: &Engine, sender: &str, p: FindSymbol) -> Result<Value, ToolError> {
    let found = engine
        .find_definition(sender, &p.symbol)
        .map_err(|e| named(e.into(), "symbol"))?;
    let max = p.max_chars.unwrap_or(DEFAULT_MAX_CHARS);
    let full: Vec<Value> = found.iter().map(op_json::definition).collect();
    let mut result =
        json!({"symbol": p.symbol, "count": found.len(), "detail": "full", "definitions": full});
    if result.to_string().len() > max {
        let bare: Vec<Value> = found
            .iter()
            .map(|d| {
                let mut v = op_json::definition(d);
                v.as_object_mut().map(|o| o.remove("context"));
                v
            })
            .collect();
        result["definitions"] = json!(bare);
        result["detail"] = json!("no_context");
    }
    Ok(result)
}

fn named(mut error: ToolError, field: &str) -> ToolError {
    if error.field.is_none() && (error.code == "not_found" || error.code == "ambiguous") {
        error.field = Some(field.to_owned());
    }
    error
}

/// The uses in the richest form that fits `max` chars.
fn in_budget(symbol: &str, key: &str, uses: &Uses, max: usize) -> Value {
    let certain = uses.certain().count();
    let mut head = Map::new();
    head.insert("symbol".into(), json!(symbol));
    head.insert("count".into(), json!(uses.sites.len()));
    head.insert("certain".into(), json!(certain));
    head.insert("possible".into(), json!(uses.sites.len() - certain));
    if uses.unresolved {
        head.insert("unresolved".into(), json!(true));
        head.insert(
            "note".into(),
            json!("the project no longer defines this name: these uses resolve to nothing"),
        );
    }
    let with = |detail: &str, value: Value| {
        let mut object = head.clone();
        object.insert("detail".into(), json!(detail));
        object.insert(key.into(), value);
        Value::Object(object)
    };
    let full = with("full", op_json::locations(&uses.sites));
    if full.to_string().len() <= max {
        return full;
    }
    let bare: Vec<Location> = uses
        .sites
        .iter()
        .map(|s| Location {
            context: None,
            ..s.clone()
        })
        .collect();
    let no_context = with("no_context", op_json::locations(&bare));
    if no_context.to_string().len() <= max {
        return no_context;
    }
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for site in &uses.sites {
        *per_file.entry(site.path.as_str()).or_default() += 1;
    }
    let counts = with("per_file", json!(per_file));
    if counts.to_string().len() <= max {
        return counts;
    }
    let mut total = head;
    total.insert("detail".into(), json!("total"));
    total.insert("files".into(), json!(per_file.len()));
    Value::Object(total)
}
