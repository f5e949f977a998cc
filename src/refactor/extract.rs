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

mod duplicates;
mod flow;
mod selection;

use std::collections::HashSet;
use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use super::{
    ExtractKind, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Summary,
};
use crate::analysis::lines;
use crate::analysis::modify::is_identifier;
use crate::analysis::reindent::detect_unit;
use crate::analysis::scope::{self, Resolution, ScopeKind, Scopes};
use crate::analysis::syntax::{node_chars, node_text, SyntaxTree};
use crate::change::{Indel, TextEdits, WorkspaceChange};
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
    })?;
    if !is_identifier(name) {
        return Err(invalid(format!(
            "Invalid name '{name}': not a Python identifier (letters, digits, _; not a keyword)"
        )));
    }
    let source = project.sources.source(&current.path)?;
    let text = &source.text;
    let tree = SyntaxTree::parse(text)
        .map_err(|e| RefactorError::new(RefactorFailure::Unreadable, e.to_string()))?;
    if tree.has_errors() {
        return Err(refuse(format!(
            "{} has syntax errors; fix them first",
            current.path
        )));
    }
    let scopes = scope::analyze(text, &tree);
    let file = File {
        text,
        scopes: &scopes,
        unit: detect_unit(text),
    };
    let selection = selection::select(text, &tree, *first_line, *last_line)?;
    let range = format!("{first_line}:{last_line}");
    let host = Host::of(&file, &selection, *kind, &range)?;
    let mode = control(&file, &selection, &host, &range)?;
    let plan = plan(project, &current.path, &file, &selection, &host, *kind, &range)?;
    check_name(&file, &host, *kind, name)?;
    let helper = Helper {
        kind: *kind,
        name,
        host: &host,
        mode,
        plan: &plan,
    };
    let call = helper.call(
        &selection.indent,
        &plan.params,
        &plan.returns,
        host.receiver(),
    );
    let definition = helper.definition(&file, &tree, &selection);
    let definition_at = definition.range.start;
    let mut indels = vec![Indel::new(selection.line_chars(text), call), definition];
    let found = duplicates::find(
        project,
        &current.path,
        &file,
        &tree,
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
        left_alone: Vec::new(),
        mentions: Vec::new(),
    })
}

fn refuse(reason: impl std::fmt::Display) -> RefactorError {
    RefactorError::new(RefactorFailure::Refused, format!("Cannot extract - {reason}"))
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

/// Where the extracted lines live.
struct Host<'t> {
    /// The scope whose names flow in and out (a function, or the module).
    scope: usize,
    /// The enclosing function, unless the lines are at module level.
    function: Option<Function<'t>>,
    /// The top-level statement that holds the lines.
    top: Node<'t>,
}

struct Function<'t> {
    name: String,
    /// The `def` (with its decorators).
    outer: Node<'t>,
    is_async: bool,
    /// Set when the function is a method.
    method: Option<Method>,
}

#[derive(Clone)]
struct Method {
    class: String,
    class_scope: usize,
    kind: MethodKind,
    /// `self` / `cls` as this method spells it.
    receiver: Option<String>,
    /// The scopes of the class's staticmethods (their first parameter is
    /// no receiver).
    statics: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum MethodKind {
    Instance,
    Class,
    Static,
}

impl<'t> Host<'t> {
    fn of(
        file: &File<'_>,
        selection: &Selection<'t>,
        kind: ExtractKind,
        range: &str,
    ) -> Result<Host<'t>, RefactorError> {
        let first = selection.statements[0];
        let scope = file.scopes.scope_at(selection.chars.start);
        let mut top = first;
        while let Some(p) = top.parent() {
            if p.kind() == "module" {
                break;
            }
            top = p;
        }
        let s = &file.scopes.scopes[scope];
        match s.kind {
            ScopeKind::Class => {
                return Err(refuse(format!(
                    "lines {range} are in the body of class {}, not in a method; select lines inside a method",
                    s.name.as_deref().unwrap_or("?")
                )))
            }
            ScopeKind::Module if kind == ExtractKind::Method => {
                return Err(refuse(format!(
                    "lines {range} are at module level, not in a method; use ExtractFunction"
                )))
            }
            ScopeKind::Module => {
                return Ok(Host {
                    scope,
                    function: None,
                    top,
                })
            }
            _ => {}
        }
        let mut node = first;
        while node.kind() != "function_definition" || node_chars(file.text, node) != s.range {
            node = node
                .parent()
                .ok_or_else(|| refuse("the enclosing function was not found"))?;
        }
        let name = s.name.clone().unwrap_or_default();
        let outer = match node.parent() {
            Some(p) if p.kind() == "decorated_definition" => p,
            _ => node,
        };
        let is_async = node.child(0).is_some_and(|c| c.kind() == "async");
        let parent = s.parent.map(|p| &file.scopes.scopes[p]);
        let method = match parent {
            Some(c) if c.kind == ScopeKind::Class => {
                let decorators = decorator_names(file.text, outer);
                let kind = if decorators.iter().any(|d| d == "staticmethod") {
                    MethodKind::Static
                } else if decorators.iter().any(|d| d == "classmethod") {
                    MethodKind::Class
                } else {
                    MethodKind::Instance
                };
                let receiver = match kind {
                    MethodKind::Static => None,
                    _ => s.first_param.clone(),
                };
                if kind != MethodKind::Static && receiver.is_none() {
                    return Err(refuse(format!(
                        "method {name} has no self parameter to call the new method through"
                    )));
                }
                Some(Method {
                    class: c.name.clone().unwrap_or_default(),
                    class_scope: s.parent.unwrap_or(0),
                    kind,
                    receiver,
                    statics: static_methods(file, outer),
                })
            }
            _ => None,
        };
        if kind == ExtractKind::Method && method.is_none() {
            return Err(refuse(format!(
                "lines {range} are in function {name}, which is not a method; use ExtractFunction"
            )));
        }
        // a docstring stays with its function
        if let Some(body) = node.child_by_field_name("body") {
            if let Some(doc) = docstring(body) {
                if selection.statements.contains(&doc) {
                    return Err(refuse(format!(
                        "line {} is the docstring of {name}; select the lines after it",
                        file.line_of(node_chars(file.text, doc).start)
                    )));
                }
            }
        }
        Ok(Host {
            scope,
            function: Some(Function {
                name,
                outer,
                is_async,
                method,
            }),
            top,
        })
    }

    fn method(&self) -> Option<&Method> {
        self.function.as_ref().and_then(|f| f.method.as_ref())
    }

    /// What the call goes through, for an extracted method.
    fn receiver(&self) -> Option<String> {
        let m = self.method()?;
        match m.kind {
            MethodKind::Static => Some(m.class.clone()),
            _ => m.receiver.clone(),
        }
    }
}

/// The scopes of the staticmethods of the class that defines `method`.
fn static_methods(file: &File<'_>, method: Node<'_>) -> Vec<usize> {
    let Some(body) = method.parent() else {
        return Vec::new();
    };
    let mut cursor = body.walk();
    let members: Vec<Node<'_>> = body.named_children(&mut cursor).collect();
    members
        .into_iter()
        .filter(|m| m.kind() == "decorated_definition")
        .filter(|m| decorator_names(file.text, *m).iter().any(|d| d == "staticmethod"))
        .filter_map(|m| m.child_by_field_name("definition"))
        .filter_map(|d| file.scopes.scope_of_definition(node_chars(file.text, d).start))
        .collect()
}

fn decorator_names(text: &Rope, outer: Node<'_>) -> Vec<String> {
    let mut cursor = outer.walk();
    outer
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "decorator")
        .map(|d| node_text(text, d).trim_start_matches('@').trim().to_string())
        .collect()
}

/// The docstring statement of a body, if it has one.
fn docstring(body: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = body.walk();
    let first = body
        .named_children(&mut cursor)
        .find(|c| c.kind() != "comment")?;
    let is_doc = first.kind() == "expression_statement"
        && first.named_child_count() == 1
        && first.named_child(0).is_some_and(|s| s.kind() == "string");
    is_doc.then_some(first)
}

/// How the helper is called.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Plain,
    /// An `await` in the range: `async def`, `await self.helper(…)`.
    Await,
    /// A `yield` in the range: a generator, `yield from self.helper(…)`.
    YieldFrom,
}

/// Refuses control flow that would leave the range; tells whether it awaits
/// or yields.
fn control(
    file: &File<'_>,
    selection: &Selection<'_>,
    host: &Host<'_>,
    range: &str,
) -> Result<Mode, RefactorError> {
    let mut seen = Seen::default();
    for s in &selection.statements {
        walk_control(file, *s, false, &mut seen, range)?;
    }
    let function = host.function.as_ref().map(|f| f.name.as_str()).unwrap_or("the module");
    match (seen.awaits, seen.yields) {
        (Some(_), Some(line)) => Err(refuse(format!(
            "the yield at line {line} in async {function} would need an async generator, which `yield from` cannot call"
        ))),
        (Some(line), None) if host.function.as_ref().is_some_and(|f| !f.is_async) => Err(refuse(
            format!("the await at line {line} is outside an async function"),
        )),
        (Some(_), None) => Ok(Mode::Await),
        (None, Some(_)) => Ok(Mode::YieldFrom),
        (None, None) => Ok(Mode::Plain),
    }
}

#[derive(Default)]
struct Seen {
    awaits: Option<usize>,
    yields: Option<usize>,
}

fn walk_control(
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

/// The helper's parameters and return values.
struct Plan {
    /// Passed in, in the order they are first read (the receiver aside).
    params: Vec<String>,
    /// Given back, in the order they are first bound.
    returns: Vec<String>,
    /// Names the enclosing function declares `global` that the lines assign.
    globals: Vec<String>,
}

fn plan(
    project: &Project<'_>,
    path: &str,
    file: &File<'_>,
    selection: &Selection<'_>,
    host: &Host<'_>,
    kind: ExtractKind,
    range: &str,
) -> Result<Plan, RefactorError> {
    let scopes = file.scopes;
    let scope = host.scope;
    let span = selection.chars.clone();
    let inside = |r: &Range<usize>| flow::within(r, &span);
    let line = |c: usize| file.line_of(c);
    let function = host.function.as_ref();
    let fname = function.map(|f| f.name.as_str()).unwrap_or("the module");

    check_declarations(file, selection, host, kind, range)?;
    let flow = flow::analyze(file.text, scopes, scope, &selection.statements);

    // The outermost loop of the host around the range: what its body binds
    // may be there from the previous iteration, what it reads may see the
    // range's bindings in the next one.
    let mut loop_span: Option<Range<usize>> = None;
    let mut up = selection.statements[0].parent();
    let stop = function.map(|f| node_chars(file.text, f.outer));
    while let Some(n) = up {
        if Some(node_chars(file.text, n)) == stop {
            break;
        }
        if matches!(n.kind(), "for_statement" | "while_statement") {
            loop_span = Some(node_chars(file.text, n));
        }
        up = n.parent();
    }
    let in_loop = |r: &Range<usize>| loop_span.as_ref().is_some_and(|l| flow::within(r, l));
    let bound_before = |name: &str| {
        scopes.bindings.iter().any(|b| {
            b.scope == scope
                && b.name == name
                && !inside(&b.range)
                && (b.range.start < span.start || in_loop(&b.range))
        })
    };
    // What runs after the range reads a name before binding it again: then
    // the range's value is live. Inside a loop or a `try`, any later read
    // counts (the next iteration, a handler).
    let (after, textual) = continuation(selection, function.map(|f| f.outer));
    let live = flow::analyze(file.text, scopes, scope, &after).needs;
    let read_after = |name: &str| {
        if scope == 0 {
            return scopes.references.iter().any(|r| {
                r.name == name && r.resolution == Resolution::Scope(0) && !inside(&r.range)
            }) || used_by_other_files(project, path, name);
        }
        live.iter().any(|n| n == name)
            || scopes.references.iter().any(|r| {
                r.name == name
                    && r.resolution == Resolution::Scope(scope)
                    && !inside(&r.range)
                    && (r.scope != scope
                        || in_loop(&r.range)
                        || (textual && r.range.start >= span.end))
            })
    };

    let receiver = match kind {
        ExtractKind::Method => host.method().and_then(|m| m.receiver.clone()),
        ExtractKind::Function => None,
    };
    let mut params: Vec<String> = Vec::new();
    for name in &flow.needs {
        if Some(name) == receiver.as_ref() {
            continue;
        }
        let bound_here = flow.bound.contains(name);
        // a module-level name not bound here is read as a global
        let param = if scope == 0 {
            bound_here && bound_before(name)
        } else {
            !bound_here || bound_before(name)
        };
        if param {
            params.push(name.clone());
        }
    }
    // free variables of an enclosing function: a module-level function
    // cannot see them (a method of a class nested in the function can)
    if kind == ExtractKind::Function {
        let mut free: Vec<(usize, &str)> = scopes
            .references
            .iter()
            .filter(|r| inside(&r.range))
            .filter_map(|r| match r.resolution {
                Resolution::Scope(s)
                    if s != scope
                        && s != 0
                        && matches!(scopes.scopes[s].kind, ScopeKind::Function | ScopeKind::Lambda)
                        && !scopes.is_within(s, scope)
                        && scopes.is_within(scope, s) =>
                {
                    Some((r.range.start, r.name.as_str()))
                }
                _ => None,
            })
            .collect();
        free.sort();
        for (_, name) in free {
            if !params.iter().any(|p| p == name) {
                params.push(name.to_string());
            }
        }
    }

    let mut returns = Vec::new();
    for name in &flow.bound {
        if Some(name) == receiver.as_ref() {
            let at = first_binding(scopes, scope, name, &span).unwrap_or(span.start);
            return Err(refuse(format!(
                "line {} rebinds {name}, which the call goes through",
                line(at)
            )));
        }
        if !read_after(name) {
            continue;
        }
        if !flow.definite.contains(name) {
            if bound_before(name) {
                if !params.contains(name) {
                    params.push(name.clone());
                }
            } else {
                return Err(refuse(format!(
                    "'{name}' is assigned on only some paths through lines {range} and used after them, with no value before them"
                )));
            }
        }
        if is_deleted(file, scopes, scope, name, &span) {
            return Err(refuse(format!(
                "'{name}' is deleted in lines {range} and used after them"
            )));
        }
        returns.push(name.clone());
    }

    // a closure made here that reads a name assigned after the range
    // would see the helper's copy, not the later value
    for r in &scopes.references {
        if inside(&r.range) && r.scope != scope && r.resolution == Resolution::Scope(scope) {
            let later = scopes.bindings.iter().any(|b| {
                b.scope == scope
                    && b.name == r.name
                    && !inside(&b.range)
                    && (b.range.start >= span.end || in_loop(&b.range))
            });
            if later {
                return Err(refuse(format!(
                    "the function or lambda at line {} reads '{}', which {fname} assigns again after lines {range}",
                    line(r.range.start),
                    r.name
                )));
            }
        }
    }

    let mut globals: Vec<String> = Vec::new();
    if scope != 0 {
        for b in &scopes.bindings {
            if inside(&b.range) && b.site == scope && b.scope == 0 && !globals.contains(&b.name) {
                let declared_here = declared_inside(file, selection, "global_statement", &b.name);
                if !declared_here {
                    globals.push(b.name.clone());
                }
            }
        }
    }
    Ok(Plan {
        params,
        returns,
        globals,
    })
}

/// The statements that run after the selection, innermost block first, up
/// to the end of the host function; and whether a loop or `try` around it
/// makes the order of execution differ from the text.
fn continuation<'t>(selection: &Selection<'t>, host: Option<Node<'t>>) -> (Vec<Node<'t>>, bool) {
    let mut out = Vec::new();
    let mut textual = false;
    let Some(mut node) = selection.statements.last().copied() else {
        return (out, textual);
    };
    while let Some(parent) = node.parent() {
        if Some(parent) == host {
            break;
        }
        match parent.kind() {
            "block" | "module" => {
                let mut next = node.next_named_sibling();
                while let Some(n) = next {
                    if n.kind() != "comment" {
                        out.push(n);
                    }
                    next = n.next_named_sibling();
                }
            }
            "for_statement" | "while_statement" | "try_statement" => textual = true,
            _ => {}
        }
        node = parent;
    }
    (out, textual)
}

fn first_binding(scopes: &Scopes, scope: usize, name: &str, span: &Range<usize>) -> Option<usize> {
    scopes
        .bindings
        .iter()
        .filter(|b| b.scope == scope && b.name == name && flow::within(&b.range, span))
        .map(|b| b.range.start)
        .min()
}

fn is_deleted(file: &File<'_>, scopes: &Scopes, scope: usize, name: &str, span: &Range<usize>) -> bool {
    scopes.bindings.iter().any(|b| {
        b.scope == scope
            && b.name == name
            && flow::within(&b.range, span)
            && file
                .text
                .slice(b.statement.clone())
                .to_string()
                .trim_start()
                .starts_with("del ")
    })
}

/// True when another project file uses the module-level `name` of `path`.
fn used_by_other_files(project: &Project<'_>, path: &str, name: &str) -> bool {
    let Some(module) = project.index.module_of(path) else {
        return false;
    };
    match project.index.find_references(&format!("{module}.{name}")) {
        Ok(refs) => refs
            .certain
            .iter()
            .chain(&refs.possible)
            .any(|l| l.path != path),
        Err(_) => false,
    }
}

/// `global`/`nonlocal` statements in the range, names the host declares,
/// `locals()`, and what only the class gives a method (`super()`, private
/// names).
fn check_declarations(
    file: &File<'_>,
    selection: &Selection<'_>,
    host: &Host<'_>,
    kind: ExtractKind,
    range: &str,
) -> Result<(), RefactorError> {
    let scopes = file.scopes;
    let scope = host.scope;
    let span = selection.chars.clone();
    let inside = |r: &Range<usize>| flow::within(r, &span);
    let line = |c: usize| file.line_of(c);
    let fname = host.function.as_ref().map(|f| f.name.as_str()).unwrap_or("the module");
    for (statement, at, start, names) in declarations(file, selection) {
        let used_outside = |name: &str| {
            scopes
                .bindings
                .iter()
                .any(|b| b.name == name && b.site == scope && !inside(&b.range))
                || scopes.references.iter().any(|r| {
                    r.name == name && !inside(&r.range) && scopes.is_within(r.scope, scope) && r.scope != 0
                })
        };
        for name in names {
            let outside = used_outside(&name);
            if statement == "nonlocal_statement" && (at == scope || outside) {
                return Err(refuse(format!(
                    "the nonlocal statement at line {} would change meaning in a new function",
                    line(start)
                )));
            }
            if statement == "global_statement" && at == scope && scope != 0 && outside {
                return Err(refuse(format!(
                    "the global statement at line {} declares '{name}' for all of {fname}, which uses it outside lines {range}",
                    line(start)
                )));
            }
        }
    }
    // the host's nonlocal names: the helper cannot assign them
    if let Some(s) = scopes.scopes.get(scope) {
        for b in &scopes.bindings {
            if inside(&b.range) && b.site == scope && s.nonlocals.contains(&b.name) {
                return Err(refuse(format!(
                    "line {} assigns '{}', which {fname} declares nonlocal",
                    line(b.range.start),
                    b.name
                )));
            }
        }
    }
    for r in &scopes.references {
        if !inside(&r.range) || r.resolution != Resolution::Builtin {
            continue;
        }
        if r.name == "locals" || r.name == "vars" {
            return Err(refuse(format!(
                "{}() at line {} sees the local names, which move",
                r.name,
                line(r.range.start)
            )));
        }
        if kind == ExtractKind::Function
            && host.method().is_some()
            && (r.name == "super" || r.name == "__class__")
        {
            return Err(refuse(format!(
                "{} at line {} needs the class; use Extract_Method",
                r.name,
                line(r.range.start)
            )));
        }
    }
    // `self.__x` is mangled with the class name only inside the class
    if kind == ExtractKind::Function && host.method().is_some() {
        let private = |n: &str| n.starts_with("__") && !n.ends_with("__");
        let names = scopes
            .attributes
            .iter()
            .map(|a| (&a.attribute, &a.attribute_range))
            .chain(scopes.references.iter().map(|r| (&r.name, &r.range)));
        for (name, at) in names {
            if inside(at) && private(name) {
                return Err(refuse(format!(
                    "the private name {name} at line {} is mangled by the class; use Extract_Method",
                    line(at.start)
                )));
            }
        }
    }
    Ok(())
}

/// The `global`/`nonlocal` statements in the range: kind, the scope they
/// are written in, where they start, the names.
fn declarations(
    file: &File<'_>,
    selection: &Selection<'_>,
) -> Vec<(&'static str, usize, usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut stack: Vec<Node<'_>> = selection.statements.clone();
    while let Some(n) = stack.pop() {
        let kind = match n.kind() {
            "global_statement" => "global_statement",
            "nonlocal_statement" => "nonlocal_statement",
            _ => {
                let mut cursor = n.walk();
                stack.extend(n.named_children(&mut cursor));
                continue;
            }
        };
        let start = node_chars(file.text, n).start;
        let at = file.scopes.scope_at(start);
        let mut cursor = n.walk();
        let names = n
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "identifier")
            .map(|c| node_text(file.text, c))
            .collect();
        out.push((kind, at, start, names));
    }
    out
}

fn declared_inside(file: &File<'_>, selection: &Selection<'_>, kind: &str, name: &str) -> bool {
    declarations(file, selection)
        .iter()
        .any(|(k, _, _, names)| *k == kind && names.iter().any(|n| n == name))
}

/// The new name must not collide with what the class or module defines,
/// nor be shadowed where it is called.
fn check_name(
    file: &File<'_>,
    host: &Host<'_>,
    kind: ExtractKind,
    name: &str,
) -> Result<(), RefactorError> {
    let scopes = file.scopes;
    let line = |c: usize| file.line_of(c);
    let conflict = |what: String| {
        RefactorError::new(
            RefactorFailure::NameConflict,
            format!("Name conflict exists: {what}; choose another name"),
        )
    };
    match (kind, host.method()) {
        (ExtractKind::Method, Some(m)) => {
            if let Some(b) = scopes.bindings_of(m.class_scope, name).next() {
                return Err(conflict(format!(
                    "{}.{name} is already defined at line {}",
                    m.class,
                    line(b.range.start)
                )));
            }
            for a in &scopes.attributes {
                let Resolution::Scope(s) = a.object_resolution else {
                    continue;
                };
                let of_class = scopes.scopes[s].parent == Some(m.class_scope)
                    && !m.statics.contains(&s)
                    && scopes.scopes[s].first_param.as_deref() == Some(a.object.as_str());
                if a.attribute == name && of_class {
                    return Err(conflict(format!(
                        "{}.{name} is used in {} at line {}",
                        a.object,
                        m.class,
                        line(a.attribute_range.start)
                    )));
                }
            }
        }
        _ => {
            if let Some(b) = scopes.bindings_of(0, name).next() {
                return Err(conflict(format!(
                    "{name} is already defined at line {}",
                    line(b.range.start)
                )));
            }
            if let Some(r) = scopes.references.iter().find(|r| {
                r.name == name && matches!(r.resolution, Resolution::Builtin | Resolution::Star)
            }) {
                return Err(conflict(format!(
                    "{name} is used at line {} as a builtin or star import",
                    line(r.range.start)
                )));
            }
            // the call must reach the new function, not a local of that name
            let mut s = Some(host.scope);
            while let Some(i) = s {
                if i == 0 {
                    break;
                }
                if scopes.scopes[i].kind != ScopeKind::Class {
                    if let Some(b) = scopes.bindings_of(i, name).next() {
                        return Err(conflict(format!(
                            "{name} is a local name of {} at line {}",
                            scopes.scopes[i].name.as_deref().unwrap_or("?"),
                            line(b.range.start)
                        )));
                    }
                }
                s = scopes.scopes[i].parent;
            }
        }
    }
    Ok(())
}

/// The new method or function.
struct Helper<'a, 't> {
    kind: ExtractKind,
    name: &'a str,
    host: &'a Host<'t>,
    mode: Mode,
    plan: &'a Plan,
}

impl Helper<'_, '_> {
    fn as_method(&self) -> Option<&Method> {
        match self.kind {
            ExtractKind::Method => self.host.method(),
            ExtractKind::Function => None,
        }
    }

    /// The call that replaces the lines (or a duplicate), at `indent`.
    fn call(
        &self,
        indent: &str,
        args: &[String],
        targets: &[String],
        receiver: Option<String>,
    ) -> String {
        let mut out = indent.to_string();
        if !targets.is_empty() {
            out.push_str(&targets.join(", "));
            out.push_str(" = ");
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
    fn definition(
        &self,
        file: &File<'_>,
        tree: &SyntaxTree,
        selection: &Selection<'_>,
    ) -> Indel {
        let text = file.text;
        let (indent, at, before, after) = match (self.as_method(), &self.host.function) {
            (Some(_), Some(f)) => {
                let def_line = file.line_of(node_chars(text, f.outer).start);
                let indent = lines::indent_str(&lines::text_of(text, def_line)).to_string();
                let end_line = file.line_of(node_chars(text, f.outer).end);
                let at = lines::end_with_newline(text, end_line);
                let before = if at == text.len_chars() && !text.to_string().ends_with('\n') {
                    "\n\n"
                } else {
                    "\n"
                };
                (indent, at, before, "")
            }
            _ => {
                let top_line = attached_comments(file, file.line_of(node_chars(text, self.host.top).start));
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
        params.extend(self.plan.params.iter().cloned());
        out.push_str(&format!("def {}({}):\n", self.name, params.join(", ")));
        if !self.plan.globals.is_empty() {
            out.push_str(&format!("{body_indent}global {}\n", self.plan.globals.join(", ")));
        }
        out.push_str(&body(file, tree, selection, &selection.indent, &body_indent));
        if !self.plan.returns.is_empty() {
            out.push_str(&format!("{body_indent}return {}\n", self.plan.returns.join(", ")));
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
fn body(file: &File<'_>, tree: &SyntaxTree, selection: &Selection<'_>, from: &str, to: &str) -> String {
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
