//! The helper's parameters and return values, and the declarations
//! (`global`, `nonlocal`, `locals()`, `super()`) that decide whether the
//! lines can move at all.

use std::ops::Range;

use tree_sitter::Node;

use super::host::Host;
use super::selection::Selection;
use super::{flow, refuse, File};
use crate::analysis::scope::{Resolution, ScopeKind, Scopes};
use crate::analysis::syntax::{node_chars, node_text};
use crate::refactor::{ExtractKind, Project, RefactorError};

/// The helper's parameters and return values.
pub(super) struct Plan {
    /// Passed in, in the order they are first read (the receiver aside).
    pub(super) params: Vec<String>,
    /// Given back, in the order they are first bound.
    pub(super) returns: Vec<String>,
    /// Names the enclosing function declares `global` that the lines assign.
    pub(super) globals: Vec<String>,
}

pub(super) fn plan(
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
                        && matches!(
                            scopes.scopes[s].kind,
                            ScopeKind::Function | ScopeKind::Lambda
                        )
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
        returns.push(name.clone());
    }

    for name in &flow.deleted {
        if read_after(name) {
            return Err(refuse(format!(
                "'{name}' is deleted in lines {range} and used after them"
            )));
        }
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

    // a nested function outside the range that assigns a name of the host
    // through `nonlocal` may change it while the helper holds a copy
    if scope != 0 {
        let used: Vec<&str> = flow
            .needs
            .iter()
            .chain(&flow.bound)
            .map(|n| n.as_str())
            .collect();
        if let Some(b) = scopes.bindings.iter().find(|b| {
            b.scope == scope
                && b.site != scope
                && !inside(&b.range)
                && used.contains(&b.name.as_str())
        }) {
            return Err(refuse(format!(
                "'{}' is assigned through nonlocal at line {}, and lines {range} use it",
                b.name,
                line(b.range.start)
            )));
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
pub(super) fn continuation<'t>(
    selection: &Selection<'t>,
    host: Option<Node<'t>>,
) -> (Vec<Node<'t>>, bool) {
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

pub(super) fn first_binding(
    scopes: &Scopes,
    scope: usize,
    name: &str,
    span: &Range<usize>,
) -> Option<usize> {
    scopes
        .bindings
        .iter()
        .filter(|b| b.scope == scope && b.name == name && flow::within(&b.range, span))
        .map(|b| b.range.start)
        .min()
}

/// True when another project file uses the module-level `name` of `path`.
pub(super) fn used_by_other_files(project: &Project<'_>, path: &str, name: &str) -> bool {
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
pub(super) fn check_declarations(
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
    let fname = host
        .function
        .as_ref()
        .map(|f| f.name.as_str())
        .unwrap_or("the module");
    for (statement, at, start, names) in declarations(file, selection) {
        let used_outside = |name: &str| {
            scopes
                .bindings
                .iter()
                .any(|b| b.name == name && b.site == scope && !inside(&b.range))
                || scopes.references.iter().any(|r| {
                    r.name == name
                        && !inside(&r.range)
                        && scopes.is_within(r.scope, scope)
                        && r.scope != 0
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
pub(super) fn declarations(
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

pub(super) fn declared_inside(
    file: &File<'_>,
    selection: &Selection<'_>,
    kind: &str,
    name: &str,
) -> bool {
    declarations(file, selection)
        .iter()
        .any(|(k, _, _, names)| *k == kind && names.iter().any(|n| n == name))
}
