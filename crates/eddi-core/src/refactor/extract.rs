//! Extract a method or a function from a range of lines, and replace the
//! duplicates.
//!
//! `Extract_Method` makes the lines a new method of the enclosing class,
//! right after the method they come from, called through `self` (`cls` in
//! a classmethod, the class in a staticmethod, which stays static);
//! `ExtractFunction` makes them a module-level function, placed before the
//! top-level statement that holds them.
//!
//! The steps: [`selection`] turns the lines into whole statements of one
//! block (or refuses, naming the statement the range cuts); [`flow`] finds
//! what the statements read before binding it (the parameters: names of
//! the enclosing function bound before the range — globals and builtins
//! are read where they are) and what they bind that is read after them
//! (the return values, several as a tuple unpacked at the call site); a
//! name bound only on some paths and read after is also passed in, so the
//! helper returns it unchanged where the original did not assign it. The
//! range must be a clean cut of the control flow: no `return`, no
//! `break`/`continue` of an outer loop, no `nonlocal`/`global` whose
//! meaning would change. An `await` makes an `async def` called with
//! `await`; a `yield` makes a generator called with `yield from` (which
//! passes `send`/`throw` through and gives back its return value).
//! [`duplicates`] then finds the same code up to consistent renaming of
//! the helper's local names elsewhere in the class (methods) or the module
//! (functions) and replaces it with calls too.
//!
//! Known limits: only whole lines; an inherited method of the same name is
//! not seen (only the class's own names and `self.` attributes conflict);
//! a closure created in the range that reads a name assigned after the
//! range is refused rather than analysed.

mod annotations;
mod control;
mod duplicates;
mod flow;
mod host;
mod names;
mod plan;
mod selection;

use std::collections::HashSet;

use ropey::Rope;
use tree_sitter::Node;

use super::{
    ExtractKind, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Summary,
};
use crate::analysis::identifier::is_identifier;
use crate::analysis::lines;
use crate::analysis::reindent::detect_unit;
use crate::analysis::scope::{self, Scopes};
use crate::analysis::syntax::{node_chars, SyntaxTree};
use crate::change::{Indel, TextEdits, WorkspaceChange};
use annotations::{annotated, Annotations};
use control::{control, Mode};
use host::{Host, Method, MethodKind};
use names::check_name;
use plan::{plan, Plan};
use selection::Selection;

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    let Refactoring::Extract {
        kind,
        name,
        first_line,
        last_line,
    } = request
    else {
        return Err(super::not_built(request));
    };
    let current = project.current.as_ref().ok_or_else(|| {
        invalid(format!(
            "Open the file first: {} works on the current file",
            request.spec_name()
        ))
        .at(crate::refactor::Argument::File)
    })?;
    if !is_identifier(name) {
        return Err(invalid(format!(
            "Invalid name '{name}': not a Python identifier (letters, digits, _; not a keyword)"
        ))
        .at(crate::refactor::Argument::NewName));
    }
    let parsed = project.parsed(&current.path)?;
    let (source, text, tree) = (&parsed.source, parsed.text(), &parsed.tree);
    if tree.has_errors() {
        return Err(refuse(format!(
            "{} has syntax errors; fix them first",
            current.path
        )));
    }
    let scopes = parsed.scopes();
    // the walks below recurse along the tree: as deep as the resolver went
    if scopes.truncated {
        return Err(refuse(format!(
            "{} nests deeper than {} levels, more than Eddi analyses",
            current.path,
            scope::MAX_DEPTH
        )));
    }
    let file = File {
        text,
        scopes,
        unit: detect_unit(text),
    };
    let selection = selection::select(text, tree, *first_line, *last_line)?;
    let range = format!("{first_line}:{last_line}");
    let host = Host::of(&file, &selection, *kind, &range)?;
    let mode = control(&file, &selection, &host, &range)?;
    let plan = plan(
        project,
        &current.path,
        &file,
        &selection,
        &host,
        *kind,
        &range,
    )?;
    check_name(project, &current.path, &file, &host, *kind, name)?;
    let annotations = Annotations::of(&file, tree.root(), host.scope);
    let helper = Helper {
        kind: *kind,
        name,
        host: &host,
        mode,
        plan: &plan,
        annotations: &annotations,
    };
    let returned: Vec<Option<String>> = plan
        .returns
        .iter()
        .map(|r| {
            helper
                .annotations
                .of_returned(r, &selection.chars)
                .map(str::to_string)
        })
        .collect();
    let call = helper.call(
        &selection.indent,
        &plan.params,
        &plan.returns,
        &returned,
        host.receiver(),
    );
    let definition = helper.definition(&file, tree, &selection);
    let definition_at = definition.range.start;
    let mut indels = vec![Indel::new(selection.line_chars(text), call), definition];
    let found = duplicates::find(
        project,
        &current.path,
        &file,
        tree,
        &selection,
        &helper,
        definition_at,
    );
    let count = found.len();
    indels.extend(found);
    let edits = TextEdits::new(indels).map_err(|(a, b)| {
        RefactorError::new(
            RefactorFailure::WouldBreak,
            format!("Internal error: overlapping edits {a:?} and {b:?}"),
        )
    })?;
    Ok(Refactored {
        change: WorkspaceChange::edit(source.path.clone(), source.base.clone(), edits),
        summary: Summary::Extracted {
            kind: *kind,
            name: name.clone(),
            duplicates: count,
        },
        evidence: Default::default(),
        left_alone: Vec::new(),
        mentions: Vec::new(),
        names_swapped: Default::default(),
        data_strings: Vec::new(),
        also_renamed: Vec::new(),
        assumed: Vec::new(),
    })
}

fn refuse(reason: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Refused,
        format!("Cannot extract - {reason}"),
    )
}

fn invalid(message: impl Into<String>) -> RefactorError {
    RefactorError::new(RefactorFailure::InvalidArgument, message)
}

/// The file being changed.
struct File<'a> {
    text: &'a Rope,
    scopes: &'a Scopes,
    /// The file's indentation unit (spaces or a tab).
    unit: String,
}

impl File<'_> {
    fn line_of(&self, char: usize) -> usize {
        self.text.char_to_line(char.min(self.text.len_chars()))
    }
}

/// The new method or function.
struct Helper<'a, 't> {
    kind: ExtractKind,
    name: &'a str,
    host: &'a Host<'t>,
    mode: Mode,
    plan: &'a Plan,
    /// The host's annotated variables (the parameters' annotations).
    annotations: &'a Annotations,
}

impl Helper<'_, '_> {
    fn as_method(&self) -> Option<&Method> {
        match self.kind {
            ExtractKind::Method => self.host.method(),
            ExtractKind::Function => None,
        }
    }

    /// The call that replaces the lines (or a duplicate), at `indent`;
    /// `annotations`: of the `targets`, which the call binds.
    fn call(
        &self,
        indent: &str,
        args: &[String],
        targets: &[String],
        annotations: &[Option<String>],
        receiver: Option<String>,
    ) -> String {
        let mut out = String::new();
        match (targets, annotations) {
            ([target], [Some(annotation)]) => {
                out.push_str(&format!("{indent}{target}: {annotation} = "));
            }
            _ => {
                // a tuple target takes no annotation: each is declared first
                for (target, annotation) in targets.iter().zip(annotations) {
                    if let Some(a) = annotation {
                        out.push_str(&format!("{indent}{target}: {a}\n"));
                    }
                }
                out.push_str(indent);
                if !targets.is_empty() {
                    out.push_str(&targets.join(", "));
                    out.push_str(" = ");
                }
            }
        }
        match self.mode {
            Mode::Plain => {}
            Mode::Await => out.push_str("await "),
            Mode::YieldFrom => out.push_str("yield from "),
        }
        if self.as_method().is_some() {
            if let Some(r) = receiver {
                out.push_str(&r);
                out.push('.');
            }
        }
        out.push_str(self.name);
        out.push('(');
        out.push_str(&args.join(", "));
        out.push_str(")\n");
        out
    }

    /// The insertion of the definition.
    fn definition(&self, file: &File<'_>, tree: &SyntaxTree, selection: &Selection<'_>) -> Indel {
        let text = file.text;
        let (indent, at, before, after) = match (self.as_method(), &self.host.function) {
            (Some(_), Some(f)) => {
                let def_line = file.line_of(node_chars(text, f.outer).start);
                let indent = lines::indent_str(&lines::text_of(text, def_line)).to_string();
                let end_line = file.line_of(node_chars(text, f.outer).end);
                // after the method, or after the range when its trailing
                // comments run past the method's last statement
                let at =
                    lines::end_with_newline(text, end_line).max(selection.line_chars(text).end);
                let before = if at == text.len_chars() && !text.to_string().ends_with('\n') {
                    "\n\n"
                } else {
                    "\n"
                };
                (indent, at, before, "")
            }
            _ => {
                let top_line =
                    attached_comments(file, file.line_of(node_chars(text, self.host.top).start));
                let at = lines::start(text, top_line);
                let before = if top_line > 0 && !lines::is_blank(text, top_line - 1) {
                    "\n\n"
                } else {
                    ""
                };
                (String::new(), at, before, "\n\n")
            }
        };
        let body_indent = format!("{indent}{}", file.unit);
        let mut out = String::from(before);
        let method = self.as_method();
        match method.map(|m| m.kind) {
            Some(MethodKind::Static) => out.push_str(&format!("{indent}@staticmethod\n")),
            Some(MethodKind::Class) => out.push_str(&format!("{indent}@classmethod\n")),
            _ => {}
        }
        out.push_str(&indent);
        if self.mode == Mode::Await {
            out.push_str("async ");
        }
        let mut params: Vec<String> = Vec::new();
        if let Some(m) = method {
            if m.kind != MethodKind::Static {
                params.extend(m.receiver.clone());
            }
        }
        let span = &selection.chars;
        params.extend(
            self.plan
                .params
                .iter()
                .map(|p| annotated(p, self.annotations.of_parameter(p, span))),
        );
        out.push_str(&format!("def {}({}):\n", self.name, params.join(", ")));
        if !self.plan.globals.is_empty() {
            out.push_str(&format!(
                "{body_indent}global {}\n",
                self.plan.globals.join(", ")
            ));
        }
        out.push_str(&body(
            file,
            tree,
            selection,
            &selection.indent,
            &body_indent,
        ));
        if !self.plan.returns.is_empty() {
            out.push_str(&format!(
                "{body_indent}return {}\n",
                self.plan.returns.join(", ")
            ));
        }
        out.push_str(after);
        Indel::new(at..at, out)
    }
}

/// The comment lines right above `line` (no blank between): they go with it.
fn attached_comments(file: &File<'_>, mut line: usize) -> usize {
    while line > 0 {
        let above = lines::text_of(file.text, line - 1);
        if above.starts_with('#') {
            line -= 1;
        } else {
            break;
        }
    }
    line
}

/// The selected lines re-indented from `from` to `to`; lines that continue
/// a multi-line string are kept as they are.
fn body(
    file: &File<'_>,
    tree: &SyntaxTree,
    selection: &Selection<'_>,
    from: &str,
    to: &str,
) -> String {
    let verbatim = string_continuations(tree, selection);
    let mut out = String::new();
    for line in selection.first_line..=selection.last_line {
        let raw = lines::text_of(file.text, line);
        if verbatim.contains(&line) {
            out.push_str(&raw);
        } else if raw.trim().is_empty() {
        } else if let Some(rest) = raw.strip_prefix(from) {
            out.push_str(to);
            out.push_str(rest);
        } else {
            out.push_str(&raw);
        }
        out.push('\n');
    }
    out
}

/// Lines that start inside a string literal.
fn string_continuations(_tree: &SyntaxTree, selection: &Selection<'_>) -> HashSet<usize> {
    let mut out = HashSet::new();
    let mut stack: Vec<Node<'_>> = selection.statements.clone();
    while let Some(n) = stack.pop() {
        if n.kind() == "string" {
            let (a, b) = (n.start_position().row, n.end_position().row);
            out.extend(a + 1..=b);
            continue;
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    out
}

#[cfg(test)]
#[path = "tests/extract.rs"]
mod tests;
