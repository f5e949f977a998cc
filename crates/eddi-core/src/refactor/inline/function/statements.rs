//! A body of several statements, inlined where the call is a whole
//! statement: `x = f(a)` (any target), `f(a)`, `return f(a)`.
//!
//! The call's values are bound first, in the order the call evaluates
//! them (`x = a + 1`), unless a value is a plain name or literal that the
//! body never rebinds (then it is written in place of the parameter); the
//! body follows at the call's indentation, its locals renamed where they
//! would collide with a name the caller uses (`total_1`); its final
//! `return <expr>` becomes the call statement's own use of the result.
//! Early returns are refused (they would need the rest of the body in an
//! `else`), as are calls sharing their line with other code and calls at
//! module level or in a class body (the body's locals would become the
//! module's globals or the class's attributes).

use std::collections::HashSet;

use tree_sitter::Node;

use super::super::{expr, refused, Parsed};
use super::call::{parameter_reads, value_text, Value};
use super::callee::Callee;
use crate::analysis::scope::{BindingKind, Resolution, ScopeKind};
use crate::change::Indel;
use crate::refactor::RefactorError;

/// What the call statement does with the result.
enum Use {
    /// `f(a)`: nothing.
    Discard,
    /// `<target> = f(a)`: the text before the call.
    Assign(String),
    /// `return f(a)`.
    Return,
}

pub(super) fn inline<'f>(
    callee: &Callee<'f>,
    file: &'f Parsed,
    call: Node<'f>,
    values: &[Value<'f>],
) -> Result<Indel, RefactorError> {
    let name = &callee.name;
    let home = callee.file;
    let at = file.place(call);
    // The body without a final `return`, and what that returns.
    let (statements, result) = match callee.body.split_last() {
        Some((last, rest)) if last.kind() == "return_statement" => (rest, last.named_child(0)),
        _ => (callee.body.as_slice(), None),
    };
    for s in statements {
        if let Some(early) = find_kind(*s, "return_statement") {
            return Err(refused(format!(
                "{name} returns early at {}: only a final return can be inlined",
                home.at(early)
            )));
        }
    }
    if let Some(packed) = callee.params.iter().find(|p| p.kind.is_packed()) {
        return Err(refused(format!(
            "{name} takes {}{} and its body has several statements: only a body that is one `return <expression>` is inlined then",
            if packed.kind == super::callee::ParamKind::Star { "*" } else { "**" },
            packed.name
        )));
    }
    let (statement, use_) = call_statement(file, call).ok_or_else(|| {
        refused(format!(
            "{name}'s body has several statements: it is inlined only where a call is a whole statement \
             (`x = {name}(…)`, `{name}(…)`, `return {name}(…)`), not at {at}"
        ))
    })?;
    let line_start = file.text().line_to_char(statement.start_position().row);
    let indent: String = file
        .text()
        .slice(line_start..file.char_of(statement.start_byte()))
        .to_string();
    let shares_line = !indent.chars().all(|c| c == ' ' || c == '\t')
        || super::super::named_sibling(statement, true)
            .is_some_and(|n| n.start_position().row == statement.end_position().row)
        || super::super::named_sibling(statement, false)
            .is_some_and(|n| n.end_position().row == statement.start_position().row);
    if shares_line {
        return Err(refused(format!(
            "the call of {name} at {at} shares its line with other code: put it on a line of its own"
        )));
    }
    let caller_scope = file.scopes().scope_at(file.char_of(call.start_byte()));
    match file.scopes().scopes[caller_scope].kind {
        ScopeKind::Module => {
            return Err(refused(format!(
                "the call of {name} at {at} is at module level: the body's variables would become the module's globals"
            )))
        }
        ScopeKind::Class => {
            return Err(refused(format!(
                "the call of {name} at {at} is in a class body: its locals would become class attributes"
            )))
        }
        _ if file.scopes().scopes[caller_scope].uses_locals => {
            return Err(refused(format!(
                "the call of {name} at {at} is in a scope that calls locals() or vars(): new names would show there"
            )))
        }
        _ => {}
    }

    let body = callee
        .body
        .first()
        .map(|f| {
            home.char_of(f.start_byte())
                ..home.char_of(callee.body.last().map_or(f.end_byte(), |l| l.end_byte()))
        })
        .unwrap_or(0..0);
    let reads = parameter_reads(callee, file, call, body.clone())?;

    // Names the inlined code may not take: the caller's, and the body's own.
    let taken = taken_names(callee, file, caller_scope, body.clone());
    let mut chosen: HashSet<String> = HashSet::new();
    let mut fresh = |local: &str| -> String {
        let mut candidate = local.to_string();
        let mut k = 1;
        while taken.contains(&candidate) || chosen.contains(&candidate) {
            candidate = format!("{local}_{k}");
            k += 1;
        }
        chosen.insert(candidate.clone());
        candidate
    };

    // Each local of the callee: its new name, or the value written in place.
    let scopes = &home.scopes();
    let mut locals: Vec<String> = scopes
        .bindings
        .iter()
        .filter(|b| b.scope == callee.scope)
        .map(|b| b.name.clone())
        .collect();
    locals.sort();
    locals.dedup();
    let mut replacement: std::collections::HashMap<String, String> = Default::default();
    let mut bound_first: Vec<(usize, String)> = Vec::new();
    for (i, (param, value)) in callee.params.iter().zip(values).enumerate() {
        let text = value_text(callee, file, value);
        let rebound = scopes.bindings_of(callee.scope, &param.name).count() > 1;
        let used = reads.iter().any(|(p, _)| *p == i);
        let nested = reads
            .iter()
            .any(|(p, r)| *p == i && r.scope != callee.scope);
        let literal = value.constant();
        let in_place = !rebound
            && (literal
                || (value.atomic() && !nested && !taken_by_body(callee, &text, body.clone())));
        if in_place {
            replacement.insert(param.name.clone(), text);
        } else if used || rebound || value.effects().acts {
            let new = fresh(&param.name);
            bound_first.push((value.order, format!("{new} = {text}")));
            replacement.insert(param.name.clone(), new);
        } else {
            // unused, and evaluating it does nothing: dropped
            replacement.insert(param.name.clone(), param.name.clone());
        }
    }
    for local in &locals {
        if !replacement.contains_key(local) {
            let new = fresh(local);
            let imported = scopes
                .bindings_of(callee.scope, local)
                .find(|b| b.kind == BindingKind::Import);
            if let (true, Some(import)) = (new != *local, imported) {
                return Err(refused(format!(
                    "{name} imports {local} at {}, a name the call at {at} already uses: import it at the top of the module instead",
                    home.position(import.range.start)
                )));
            }
            replacement.insert(local.clone(), new);
        }
    }
    bound_first.sort_by_key(|(order, _)| *order);

    // Every read and binding of a local in the body, renamed or replaced.
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let within = |r: &std::ops::Range<usize>| body.start <= r.start && r.end <= body.end;
    for r in scopes
        .references
        .iter()
        .filter(|r| within(&r.range) && r.resolution == Resolution::Scope(callee.scope))
    {
        if let Some(new) = replacement.get(&r.name) {
            let mut text = new.clone();
            if let Some(node) = home.node_spanning(r.range.clone()) {
                if let Some(value) = callee
                    .params
                    .iter()
                    .position(|p| p.name == r.name)
                    .map(|i| &values[i])
                {
                    // a literal in place of the name may need parentheses (`(1).real`)
                    let (precedence, kind) = value.precedence(callee, file);
                    if *new == value_text(callee, file, value)
                        && expr::needs_parens(precedence, kind, node, home.src().as_bytes())
                    {
                        text = format!("({text})");
                    }
                }
            }
            edits.push((r.range.clone(), text));
        }
    }
    for b in scopes
        .bindings
        .iter()
        .filter(|b| b.scope == callee.scope && within(&b.range))
    {
        if let Some(new) = replacement.get(&b.name) {
            if !edits.iter().any(|(r, _)| *r == b.range) {
                edits.push((b.range.clone(), new.clone()));
            }
        }
    }
    let body_indent = callee
        .body
        .first()
        .map(|f| {
            let start = home.text().line_to_char(f.start_position().row);
            home.text()
                .slice(start..home.char_of(f.start_byte()))
                .to_string()
        })
        .unwrap_or_default();
    let render = |range: std::ops::Range<usize>| -> Result<String, RefactorError> {
        render_range(home, range, &edits, &body_indent, &indent)
    };

    let mut lines: Vec<String> = bound_first.into_iter().map(|(_, l)| l).collect();
    if let (Some(first), Some(last)) = (statements.first(), statements.last()) {
        lines.push(render(
            home.char_of(first.start_byte())..home.char_of(last.end_byte()),
        )?);
    }
    let result_text = result.map(|r| render(home.chars(r))).transpose()?;
    match (use_, result_text) {
        (Use::Assign(prefix), Some(value)) => lines.push(format!("{prefix}{value}")),
        (Use::Assign(prefix), None) => lines.push(format!("{prefix}None")),
        (Use::Return, Some(value)) => lines.push(format!("return {value}")),
        (Use::Return, None) => lines.push("return None".to_string()),
        (Use::Discard, Some(value)) if result.is_some_and(|r| expr::effects(r).acts) => {
            lines.push(value)
        }
        (Use::Discard, _) => {}
    }
    if lines.is_empty() {
        lines.push("pass".to_string());
    }
    Ok(Indel::new(
        file.chars(statement),
        lines.join(&format!("\n{indent}")),
    ))
}

/// The statement a call is the whole of, and what it does with the result.
fn call_statement<'f>(file: &Parsed, call: Node<'f>) -> Option<(Node<'f>, Use)> {
    let parent = call.parent()?;
    let (statement, use_) = match parent.kind() {
        "expression_statement" if parent.named_child_count() == 1 => (parent, Use::Discard),
        "return_statement" => (parent, Use::Return),
        "assignment" if parent.child_by_field_name("right") == Some(call) => {
            let statement = parent
                .parent()
                .filter(|p| p.kind() == "expression_statement")?;
            let prefix =
                file.src()[statement.start_byte()..call.start_byte()].replace("\r\n", "\n");
            (statement, Use::Assign(prefix))
        }
        _ => return None,
    };
    statement
        .parent()
        .filter(|p| matches!(p.kind(), "block" | "module"))
        .map(|_| (statement, use_))
}

fn find_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == kind {
            return Some(n);
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    None
}

/// Names a new local of the caller must not have: every name its scope
/// (the whole module at module level) binds or reads, and every name the
/// callee's body binds or reads.
fn taken_names(
    callee: &Callee<'_>,
    file: &Parsed,
    caller_scope: usize,
    body: std::ops::Range<usize>,
) -> HashSet<String> {
    let mut taken = HashSet::new();
    let same_file = file.path() == callee.file.path();
    let counts = |scope: usize| {
        (caller_scope == 0 || file.scopes().is_within(scope, caller_scope))
            && !(same_file && file.scopes().is_within(scope, callee.scope))
    };
    for b in file.scopes().bindings.iter().filter(|b| counts(b.scope)) {
        taken.insert(b.name.clone());
    }
    for r in file.scopes().references.iter().filter(|r| counts(r.scope)) {
        taken.insert(r.name.clone());
    }
    let home = &callee.file.scopes();
    let within = |r: &std::ops::Range<usize>| body.start <= r.start && r.end <= body.end;
    for r in home.references.iter().filter(|r| within(&r.range)) {
        if r.resolution != Resolution::Scope(callee.scope) {
            taken.insert(r.name.clone());
        }
    }
    for b in home
        .bindings
        .iter()
        .filter(|b| within(&b.range) && b.scope != callee.scope)
    {
        taken.insert(b.name.clone());
    }
    taken
}

/// True when the body binds `name` (so a value of that name written in
/// place of a parameter would be captured).
fn taken_by_body(callee: &Callee<'_>, name: &str, body: std::ops::Range<usize>) -> bool {
    callee
        .file
        .scopes()
        .bindings
        .iter()
        .any(|b| b.name == name && body.start <= b.range.start && b.range.end <= body.end)
}

/// `range` of the callee's file with `edits` applied and its lines moved
/// from the body's indentation to the call's (lines inside a multi-line
/// string are left as they are).
fn render_range(
    home: &Parsed,
    range: std::ops::Range<usize>,
    edits: &[(std::ops::Range<usize>, String)],
    from_indent: &str,
    to_indent: &str,
) -> Result<String, RefactorError> {
    let text = home.text();
    let mut all: Vec<(std::ops::Range<usize>, String)> = edits
        .iter()
        .filter(|(r, _)| range.start <= r.start && r.end <= range.end)
        .cloned()
        .collect();
    let in_string = string_lines(home, range.clone());
    let first_line = text.char_to_line(range.start);
    let last_line = text.char_to_line(range.end);
    for line in first_line + 1..=last_line {
        if in_string.contains(&line) {
            continue;
        }
        let start = text.line_to_char(line);
        let content: String = text
            .line(line)
            .chars()
            .take(from_indent.chars().count())
            .collect();
        if content == from_indent {
            all.push((
                start..start + from_indent.chars().count(),
                to_indent.to_string(),
            ));
        } else if !text.line(line).chars().all(char::is_whitespace) && !continues(home, start) {
            return Err(refused(format!(
                "the line {}:{line} of the body is indented unlike its first line",
                home.path()
            )));
        }
    }
    all.sort_by_key(|(r, _)| r.start);
    let mut out = String::new();
    let mut pos = range.start;
    for (r, new) in all {
        if r.start < pos {
            continue;
        }
        out.push_str(&text.slice(pos..r.start).to_string());
        out.push_str(&new);
        pos = r.end;
    }
    out.push_str(&text.slice(pos..range.end).to_string());
    Ok(out.replace("\r\n", "\n").replace("\r", ""))
}

/// The lines that start inside a string (a multi-line string's content).
fn string_lines(home: &Parsed, range: std::ops::Range<usize>) -> HashSet<usize> {
    let mut lines = HashSet::new();
    let (from, to) = (home.byte_of(range.start), home.byte_of(range.end));
    let mut stack = vec![home.tree.root()];
    while let Some(n) = stack.pop() {
        if n.end_byte() <= from || n.start_byte() >= to {
            continue;
        }
        if n.kind() == "string" && n.start_position().row != n.end_position().row {
            for l in n.start_position().row + 1..=n.end_position().row {
                lines.insert(l);
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    lines
}

/// A line that continues a bracketed expression may be indented anyhow.
fn continues(home: &Parsed, line_start: usize) -> bool {
    let byte = home.byte_of(line_start);
    let Some(node) = home.tree.root().descendant_for_byte_range(byte, byte) else {
        return false;
    };
    let mut n = Some(node);
    while let Some(x) = n {
        if matches!(
            x.kind(),
            "argument_list"
                | "list"
                | "dictionary"
                | "set"
                | "tuple"
                | "parenthesized_expression"
                | "parameters"
                | "subscript"
                | "list_comprehension"
                | "generator_expression"
                | "dictionary_comprehension"
                | "set_comprehension"
        ) && x.start_byte() < byte
        {
            return true;
        }
        if x.kind().ends_with("statement") || x.kind() == "block" {
            return false;
        }
        n = x.parent();
    }
    false
}
