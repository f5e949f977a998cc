//! The Eddi scripting language (stage 2): its front end — text to a
//! checked syntax tree. Execution is not built yet, and nothing sends a
//! script here: a script sent to Eddi today is still an unknown command
//! (a typed `Fail`), never `Ok`.
//!
//! - [`lexer`]: text to tokens with `line:col` spans.
//! - [`parser`]: tokens to a [`Script`] ([`parse_script`]); phase-1
//!   commands inside a script go through [`crate::commands`]' parser.
//! - [`ast`]: the tree a later interpreter walks, spans on every node;
//!   `Display` prints it as an S-expression.
//! - [`template`]: code in a replacement, its `$1`/`$name`/`$*`
//!   placeholders and arguments as written.
//! - [`check`]: the static checks (variables, attributes, where a word
//!   applies) before anything runs.
//! - [`words`]: the vocabulary — keywords, elements, attributes,
//!   conditions.
//! - [`error`]: [`ScriptError`]: `line:col`, what was expected, the closest
//!   valid word, and its kind.
//!
//! The grammar and every construct are in `docs/SCRIPTING.md`.

pub mod ast;
pub mod check;
pub mod error;
pub mod lexer;
pub mod message;
pub mod parser;
pub mod run;
pub mod template;
pub mod words;

#[cfg(test)]
mod tests;

pub use ast::{ElementKind, Script};
pub use check::{check, check_query, Variable};
pub use error::{ScriptError, ScriptErrorKind};
pub use parser::{parse_condition, parse_query, parse_script};

/// Parses `text` and checks it; `known` are the variables earlier messages
/// defined. The script is refused, before anything runs, at its first
/// mistake.
pub fn parse(text: &str, known: &[Variable]) -> Result<Script, ScriptError> {
    let script = parse_script(text)?;
    check(&script, known)?;
    Ok(script)
}

/// Parses a query alone and checks it (see [`parse_query`]): the query
/// and the kind of the elements it yields.
pub fn parse_checked_query(
    text: &str,
    known: &[Variable],
) -> Result<(ast::Query, ElementKind), ScriptError> {
    let query = parse_query(text)?;
    let kind = check_query(&query, known)?;
    Ok((query, kind))
}

/// [`parse_checked_query`] with a condition written apart (`filter`),
/// joined to the query's own `where` with `and`. A mistake in the
/// condition is refused at its `line:col` in the condition's own text,
/// one in the query at its `line:col` in the query's.
pub fn parse_checked_query_where(
    text: &str,
    filter: Option<&str>,
    known: &[Variable],
) -> Result<(ast::Query, ElementKind), ScriptError> {
    let mut query = parse_query(text)?;
    if let Some(filter) = filter {
        let condition = parse_condition(filter)?;
        query.filter = Some(match query.filter.take() {
            None => condition,
            Some(own) => ast::Condition {
                span: own.span,
                kind: ast::ConditionKind::And(Box::new(own), Box::new(condition)),
            },
        });
    }
    let kind = check_query(&query, known)?;
    Ok((query, kind))
}
