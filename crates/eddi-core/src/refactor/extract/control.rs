//! Control flow that would leave the range, and how the helper is called
//! (`await`, `yield from`).

use tree_sitter::Node;

use super::host::Host;
use super::selection::Selection;
use super::{refuse, File};
use crate::analysis::syntax::node_chars;
use crate::refactor::RefactorError;

/// How the helper is called.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    Plain,
    /// An `await` in the range: `async def`, `await self.helper(…)`.
    Await,
    /// A `yield` in the range: a generator, `yield from self.helper(…)`.
    YieldFrom,
}

/// Refuses control flow that would leave the range; tells whether it awaits
/// or yields.
pub(super) fn control(
    file: &File<'_>,
    selection: &Selection<'_>,
    host: &Host<'_>,
    range: &str,
) -> Result<Mode, RefactorError> {
    let mut seen = Seen::default();
    for s in &selection.statements {
        walk_control(file, *s, false, &mut seen, range)?;
    }
    let function = host
        .function
        .as_ref()
        .map(|f| f.name.as_str())
        .unwrap_or("the module");
    let in_async = host.function.as_ref().is_some_and(|f| f.is_async);
    match (seen.awaits, seen.yields) {
        (_, Some(line)) if in_async => Err(refuse(format!(
            "the yield at line {line} in async {function} would need an async generator, which `yield from` cannot call"
        ))),
        (Some(line), None) if host.function.is_some() && !in_async => Err(refuse(
            format!("the await at line {line} is outside an async function"),
        )),
        (Some(_), None) => Ok(Mode::Await),
        (None, Some(_)) => Ok(Mode::YieldFrom),
        // an await outside an async function: not valid Python to begin with
        (Some(line), Some(_)) => Err(refuse(format!(
            "the await at line {line} is outside an async function"
        ))),
        (None, None) => Ok(Mode::Plain),
    }
}

#[derive(Default)]
pub(super) struct Seen {
    pub(super) awaits: Option<usize>,
    pub(super) yields: Option<usize>,
}

pub(super) fn walk_control(
    file: &File<'_>,
    node: Node<'_>,
    in_loop: bool,
    seen: &mut Seen,
    range: &str,
) -> Result<(), RefactorError> {
    let line = || file.line_of(node_chars(file.text, node).start);
    match node.kind() {
        // their own control flow
        "function_definition" | "lambda" | "class_definition" => return Ok(()),
        "return_statement" => {
            return Err(refuse(format!(
                "the return at line {} would return from the new function instead; select lines without it",
                line()
            )))
        }
        "break_statement" | "continue_statement" if !in_loop => {
            let word = node.kind().trim_end_matches("_statement");
            return Err(refuse(format!(
                "the {word} at line {} belongs to a loop outside lines {range}; select the whole loop",
                line()
            )));
        }
        "yield" => {
            seen.yields.get_or_insert(line());
        }
        "await" | "async" => {
            seen.awaits.get_or_insert(line());
        }
        _ => {}
    }
    let is_loop = matches!(node.kind(), "for_statement" | "while_statement");
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    for child in children {
        let body = is_loop && child.kind() == "block";
        walk_control(file, child, in_loop || body, seen, range)?;
    }
    Ok(())
}
