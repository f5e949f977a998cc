//! One use of the function: an import, a call, or something else; a call
//! mapped to the parameters and replaced by the body's expression.

use tree_sitter::Node;

use super::super::expr;
use super::super::{
    enclosing_interpolation, fits_interpolation, refused, remove_statement, shown, Parsed,
};
use super::callee::{Callee, ParamKind};
use crate::analysis::nodes::is_name_chain;
use crate::analysis::scope::{Reference, Resolution, ScopeKind};
use crate::change::Indel;
use crate::refactor::RefactorError;

/// What a reference of the function is.
pub(super) enum Site<'f> {
    /// `from m import f`: the statement and its name (or `f as g`).
    Import(Node<'f>, Node<'f>),
    /// `f(…)` or `x.f(…)`: the call and the receiver `x`.
    Call(Node<'f>, Option<Node<'f>>),
    /// `@f` or `@m.f` above a definition: a call with no argument list.
    Decorator,
    /// Anything else: the function used as a value, an `import m.f`, …
    Value,
}

impl<'f> Site<'f> {
    pub fn classify(id: Node<'f>) -> Site<'f> {
        let Some(parent) = id.parent() else {
            return Site::Value;
        };
        let mut child = id;
        let mut up = Some(parent);
        for _ in 0..3 {
            let Some(p) = up else { break };
            if p.kind() == "import_from_statement" {
                return Site::Import(p, child);
            }
            child = p;
            up = p.parent();
        }
        let callee_of = |call: Option<Node<'f>>, function: Node<'f>| {
            call.filter(|c| {
                c.kind() == "call" && c.child_by_field_name("function") == Some(function)
            })
        };
        if let Some(call) = callee_of(Some(parent), id) {
            return Site::Call(call, None);
        }
        let applied = |d: Option<Node<'f>>| d.is_some_and(|d| d.kind() == "decorator");
        if applied(Some(parent))
            || (parent.kind() == "attribute"
                && parent.child_by_field_name("attribute") == Some(id)
                && applied(parent.parent()))
        {
            return Site::Decorator;
        }
        if parent.kind() == "attribute" && parent.child_by_field_name("attribute") == Some(id) {
            if let Some(call) = callee_of(parent.parent(), parent) {
                return Site::Call(call, parent.child_by_field_name("object"));
            }
        }
        Site::Value
    }
}

/// What a parameter gets at one call.
#[derive(Clone)]
pub(super) enum Given<'f> {
    /// One argument (or the default).
    One(Node<'f>),
    /// The extra positional arguments, packed for `*args`.
    Tuple(Vec<Node<'f>>),
    /// The extra keyword arguments, packed for `**kwargs`.
    Dict(Vec<(String, Node<'f>)>),
}

#[derive(Clone)]
pub(super) struct Value<'f> {
    pub given: Given<'f>,
    /// A default: a node of the callee's file, not the caller's.
    pub default: bool,
    /// Where the call evaluates it (defaults: after every argument).
    pub order: usize,
}

/// Replaces the call `call` of `file` by the callee's body.
pub(super) fn inline_call<'f>(
    callee: &Callee<'f>,
    file: &'f Parsed,
    call: Node<'f>,
    receiver: Option<Node<'f>>,
) -> Result<Indel, RefactorError> {
    if let Some(private) = &callee.mangled {
        let same_class = enclosing_class(call).is_some_and(|c| {
            file.path() == callee.file.path() && Some(c) == enclosing_class(callee.node)
        });
        if !same_class {
            return Err(refused(format!(
                "{} uses {private}, which Python renames after its class: the call at {} is outside it",
                callee.name,
                file.place(call)
            )));
        }
    }
    let values = map_arguments(callee, file, call, receiver)?;
    match callee.returns {
        Some(expression) => {
            let mut text = substituted(callee, file, call, &values, expression)?;
            if let Some(interpolation) = enclosing_interpolation(call) {
                if fits_interpolation(
                    file,
                    &format!("the body of {}", callee.name),
                    &callee.name,
                    &text,
                    interpolation,
                    call,
                )? && !text.starts_with('(')
                {
                    text = format!("({text})");
                }
            }
            Ok(Indel::new(file.chars(call), text))
        }
        None => super::statements::inline(callee, file, call, &values),
    }
}

/// Each parameter's value at this call, in parameter order.
fn map_arguments<'f>(
    callee: &Callee<'f>,
    file: &'f Parsed,
    call: Node<'f>,
    receiver: Option<Node<'f>>,
) -> Result<Vec<Value<'f>>, RefactorError> {
    let name = &callee.name;
    let at = file.place(call);
    let mut slots: Vec<Option<Value<'f>>> = vec![None; callee.params.len()];
    let mut order = 0;
    let mut next_positional = 0;
    let star = callee.params.iter().position(|p| p.kind == ParamKind::Star);
    let double = callee
        .params
        .iter()
        .position(|p| p.kind == ParamKind::DoubleStar);
    let mut extra_positionals: Vec<Node<'f>> = Vec::new();
    let mut first_extra_positional = usize::MAX;
    let mut extra_keywords: Vec<(String, Node<'f>, usize)> = Vec::new();
    match receiver {
        Some(object) if callee.bound => {
            let unbound = object.kind() == "identifier"
                && callee.class.as_deref() == Some(&*file.source_of(object))
                && matches!(
                    file.scopes().resolve(
                        &file.source_of(object),
                        file.scopes().scope_at(file.char_of(object.start_byte()))
                    ),
                    Resolution::Scope(_)
                );
            if !unbound {
                if is_super_call(object) {
                    return Err(refused(format!(
                        "the call of {name} at {at} goes through super(): its receiver is not self's class"
                    )));
                }
                slots[0] = Some(Value::one(object, false, order));
                order += 1;
                next_positional = 1;
            }
        }
        Some(object) if !is_name_chain(object) => {
            return Err(refused(format!(
                "the call of {name} at {at} is made through {}, which would not be evaluated",
                shown(&file.source_of(object))
            )));
        }
        Some(_) => {}
        None if callee.bound => {
            return Err(refused(format!(
                "{name} is called at {at} without a receiver"
            )))
        }
        None => {}
    }
    let arguments: Vec<Node<'f>> = match call.child_by_field_name("arguments") {
        Some(list) if list.kind() == "argument_list" => {
            let mut c = list.walk();
            let all = list
                .named_children(&mut c)
                .filter(|n| n.kind() != "comment")
                .collect();
            all
        }
        Some(generator) => vec![generator],
        None => Vec::new(),
    };
    for argument in arguments {
        match argument.kind() {
            "list_splat" | "dictionary_splat" => {
                return Err(refused(format!(
                    "the call of {name} at {at} passes {}: its arguments cannot be mapped to parameters",
                    shown(&file.source_of(argument))
                )))
            }
            "keyword_argument" => {
                let key = argument
                    .child_by_field_name("name")
                    .map(|n| file.source_of(n))
                    .unwrap_or_default();
                let value = argument
                    .child_by_field_name("value")
                    .ok_or_else(|| refused(format!("the call of {name} at {at} cannot be read")))?;
                let named = callee
                    .params
                    .iter()
                    .position(|p| p.name == key && !p.kind.is_packed());
                let Some(i) = named else {
                    if double.is_some() {
                        extra_keywords.push((key, value, order));
                        order += 1;
                        continue;
                    }
                    return Err(refused(format!(
                        "the call of {name} at {at} passes {key}=, which {name} does not take"
                    )));
                };
                if callee.params[i].kind == ParamKind::Positional {
                    return Err(refused(format!(
                        "the call of {name} at {at} passes the positional-only {key} by keyword"
                    )));
                }
                if slots[i].is_some() {
                    return Err(refused(format!(
                        "the call of {name} at {at} passes {key} twice"
                    )));
                }
                slots[i] = Some(Value::one(value, false, order));
            }
            _ => {
                let i = next_positional;
                if star.is_some_and(|s| i >= s) {
                    if extra_positionals.is_empty() {
                        first_extra_positional = order;
                    }
                    extra_positionals.push(argument);
                    order += 1;
                    continue;
                }
                if i >= callee.params.len() || callee.params[i].kind == ParamKind::Keyword {
                    return Err(refused(format!(
                        "the call of {name} at {at} passes more positional arguments than {name} takes"
                    )));
                }
                slots[i] = Some(Value::one(argument, false, order));
                next_positional += 1;
            }
        }
        order += 1;
    }
    if let Some(i) = star {
        let order = extra_positionals
            .first()
            .map_or(usize::MAX, |_| first_extra_positional);
        slots[i] = Some(Value {
            given: Given::Tuple(extra_positionals),
            default: false,
            order,
        });
    }
    if let Some(i) = double {
        let orders: Vec<usize> = extra_keywords.iter().map(|(_, _, o)| *o).collect();
        let contiguous = orders.windows(2).all(|w| w[1] == w[0] + 1);
        let acts = extra_keywords
            .iter()
            .any(|(_, n, _)| expr::effects(*n).acts);
        if acts && !contiguous {
            return Err(refused(format!(
                "the call of {name} at {at} passes keywords for {} between others: they would be evaluated in another order",
                callee.params[i].name
            )));
        }
        slots[i] = Some(Value {
            given: Given::Dict(extra_keywords.into_iter().map(|(k, n, _)| (k, n)).collect()),
            default: false,
            order: orders.first().copied().unwrap_or(usize::MAX),
        });
    }
    let mut values = Vec::with_capacity(slots.len());
    for (slot, param) in slots.into_iter().zip(&callee.params) {
        let value = match (slot, param.default) {
            (Some(v), _) => v,
            (None, Some(default)) if expr::is_constant(default) => {
                Value::one(default, true, usize::MAX)
            }
            (None, Some(default)) => {
                return Err(refused(format!(
                    "the default of {} ({}) is evaluated once, when {name} is defined: pass it at {at} first",
                    param.name,
                    shown(&callee.file.source_of(default))
                )))
            }
            (None, None) => {
                return Err(refused(format!(
                    "the call of {name} at {at} does not pass {}",
                    param.name
                )))
            }
        };
        values.push(value);
    }
    Ok(values)
}

/// The class whose body (directly or in a method) holds `node`.
fn enclosing_class(node: Node<'_>) -> Option<Node<'_>> {
    let mut n = node.parent();
    while let Some(p) = n {
        if p.kind() == "class_definition" {
            return Some(p);
        }
        n = p.parent();
    }
    None
}

fn is_super_call(node: Node<'_>) -> bool {
    node.kind() == "call"
        && node
            .child_by_field_name("function")
            .is_some_and(|f| f.kind() == "identifier" && f.end_byte() - f.start_byte() == 5)
}

impl<'f> Value<'f> {
    fn one(node: Node<'f>, default: bool, order: usize) -> Value<'f> {
        Value {
            given: Given::One(node),
            default,
            order,
        }
    }

    /// The nodes it is made of.
    pub fn nodes(&self) -> Vec<Node<'f>> {
        match &self.given {
            Given::One(n) => vec![*n],
            Given::Tuple(parts) => parts.clone(),
            Given::Dict(parts) => parts.iter().map(|(_, n)| *n).collect(),
        }
    }

    /// What evaluating it may do (packing a `**kwargs` dict creates one).
    pub fn effects(&self) -> expr::Effects {
        let mut out = expr::Effects {
            creates: matches!(self.given, Given::Dict(_)),
            ..Default::default()
        };
        for n in self.nodes() {
            let e = expr::effects(n);
            out.acts |= e.acts;
            out.creates |= e.creates;
            out.reads_state |= e.reads_state;
        }
        out
    }

    /// A name or a literal (an empty `*args` is the literal `()`).
    pub fn atomic(&self) -> bool {
        match &self.given {
            Given::One(n) => expr::is_atomic(*n),
            Given::Tuple(parts) => parts.is_empty(),
            Given::Dict(_) => false,
        }
    }

    /// The same value however often it is evaluated.
    pub fn constant(&self) -> bool {
        match &self.given {
            Given::One(n) => expr::is_constant(*n),
            Given::Tuple(parts) => parts.iter().all(|n| expr::is_constant(*n)),
            Given::Dict(_) => false,
        }
    }

    /// How tightly it binds, and its node kind (for `needs_parens`).
    pub fn precedence(&self, callee: &Callee<'_>, file: &Parsed) -> (u8, &'static str) {
        match &self.given {
            Given::One(n) => {
                let src = if self.default {
                    callee.file.src()
                } else {
                    file.src()
                };
                (expr::precedence(*n, src.as_bytes()), n.kind())
            }
            Given::Tuple(_) => (expr::PRIMARY, "tuple"),
            Given::Dict(_) => (expr::PRIMARY, "dictionary"),
        }
    }
}

/// The source of a value, from the file it is written in.
pub(super) fn value_text(callee: &Callee<'_>, file: &Parsed, value: &Value<'_>) -> String {
    match &value.given {
        Given::One(n) if value.default => callee.file.source_of(*n),
        Given::One(n) => file.source_of(*n),
        Given::Tuple(parts) => {
            let items: Vec<String> = parts.iter().map(|n| file.source_of(*n)).collect();
            match items.as_slice() {
                [one] => format!("({one},)"),
                _ => format!("({})", items.join(", ")),
            }
        }
        Given::Dict(parts) => {
            let items: Vec<String> = parts
                .iter()
                .map(|(k, n)| format!("{k:?}: {}", file.source_of(*n)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// The reads of the callee's parameters in `range` of its file, with the
/// parameter each reads; fails on names the call site does not see alike.
pub(super) fn parameter_reads<'c>(
    callee: &'c Callee<'_>,
    file: &Parsed,
    call: Node<'_>,
    range: std::ops::Range<usize>,
) -> Result<Vec<(usize, &'c Reference)>, RefactorError> {
    let home = callee.file;
    let scopes = &home.scopes();
    let name = &callee.name;
    let at = file.place(call);
    let call_scope = file.scopes().scope_at(file.char_of(call.start_byte()));
    let same_file = file.path() == home.path();
    let mut out = Vec::new();
    for r in scopes
        .references
        .iter()
        .filter(|r| range.start <= r.range.start && r.range.end <= range.end)
    {
        match r.resolution {
            Resolution::Scope(s) if s == callee.scope => {
                if let Some(i) = callee.params.iter().position(|p| p.name == r.name) {
                    out.push((i, r));
                }
                // other locals are the statements' business (renamed there)
            }
            Resolution::Scope(s) if home.scopes().is_within(s, callee.scope) => {}
            Resolution::Scope(0) if same_file => {
                if file.scopes().resolve(&r.name, call_scope) != Resolution::Scope(0) {
                    return Err(refused(format!(
                        "{name} reads {}, which means something else at {at}",
                        r.name
                    )));
                }
            }
            Resolution::Scope(0) if same_import(home, file, &r.name, call_scope) => {}
            Resolution::Scope(0) => {
                return Err(refused(format!(
                "{name} reads {} of its module, which the call at {at} does not see as the same",
                r.name,
            )))
            }
            Resolution::Builtin => {
                if file.scopes().resolve(&r.name, call_scope) != Resolution::Builtin {
                    return Err(refused(format!(
                        "{name} reads the builtin {}, which means something else at {at}",
                        r.name
                    )));
                }
            }
            _ => {
                return Err(refused(format!(
                    "{name} reads {}, which Eddi cannot resolve",
                    r.name
                )))
            }
        }
    }
    Ok(out)
}

/// The body's expression with the parameters replaced by the call's
/// values, parenthesised for the place of the call.
fn substituted(
    callee: &Callee<'_>,
    file: &Parsed,
    call: Node<'_>,
    values: &[Value<'_>],
    expression: Node<'_>,
) -> Result<String, RefactorError> {
    let home = callee.file;
    let name = &callee.name;
    let at = file.place(call);
    let range = home.chars(expression);
    let mut reads = parameter_reads(callee, file, call, range.clone())?;
    let call_scope = file.scopes().scope_at(file.char_of(call.start_byte()));
    if let Some(r) = home.scopes().references.iter().find(|r| {
        range.start <= r.range.start
            && r.range.end <= range.end
            && r.resolution == Resolution::Scope(callee.scope)
            && !callee.params.iter().any(|p| p.name == r.name)
    }) {
        return Err(refused(format!(
            "{name} binds {} in its return expression",
            r.name
        )));
    }
    reads.sort_by_key(|(_, r)| r.range.start);
    // Each value is evaluated once, in the call's order, before the body.
    let mut firsts: Vec<(usize, usize)> = Vec::new();
    let mut any_acts = false;
    for (i, (param, value)) in callee.params.iter().zip(values).enumerate() {
        let uses: Vec<&Reference> = reads
            .iter()
            .filter(|(p, _)| *p == i)
            .map(|(_, r)| *r)
            .collect();
        let text = value_text(callee, file, value);
        let effects = value.effects();
        let atomic = value.atomic();
        let nested = uses.iter().any(|r| r.scope != callee.scope);
        if nested && !value.constant() && file.scopes().scopes[call_scope].kind == ScopeKind::Class
        {
            return Err(refused(format!(
                "the call at {at} is in a class body, whose names the lambdas and comprehensions of {name}'s body cannot see"
            )));
        }
        any_acts |= effects.acts;
        // A name the argument reads must not be captured by a nested scope
        // of the body (a comprehension's variable).
        let args: Vec<std::ops::Range<usize>> = if value.default {
            Vec::new()
        } else {
            value.nodes().into_iter().map(|n| file.chars(n)).collect()
        };
        for arg in &args {
            for read in file
                .scopes()
                .references
                .iter()
                .filter(|r| arg.start <= r.range.start && r.range.end <= arg.end)
            {
                for r in uses.iter().filter(|r| r.scope != callee.scope) {
                    let mut s = r.scope;
                    while s != callee.scope {
                        if home.scopes().bindings_of(s, &read.name).next().is_some() {
                            return Err(refused(format!(
                                "the argument {} of the call at {at} reads {}, which {name}'s body binds where it uses {}",
                                shown(&text),
                                read.name,
                                param.name
                            )));
                        }
                        s = home.scopes().scopes[s].parent.unwrap_or(callee.scope);
                    }
                }
            }
        }
        if uses.is_empty() {
            if effects.acts {
                return Err(refused(format!(
                    "the argument {} of the call at {at} would not be evaluated: {name} does not use {}",
                    shown(&text),
                    param.name
                )));
            }
            continue;
        }
        if atomic {
            continue;
        }
        if uses.len() > 1 || nested {
            let where_ = if nested {
                "inside a lambda or comprehension of".to_string()
            } else {
                format!("{} times by", uses.len())
            };
            // each argument is evaluated once: only a name or a literal may
            // be written several times (`x + y` twice is two new objects)
            return Err(refused(format!(
                "the argument {} of the call at {at} is used {where_} {name}: bind it to a variable first",
                shown(&text)
            )));
        }
        let first = home.node_spanning(uses[0].range.clone());
        if effects.acts || effects.reads_state {
            if let Some(why) = first.and_then(|n| expr::not_first_and_once(n, expression)) {
                return Err(refused(format!(
                    "the argument {} of the call at {at} would run at another time: in {name}'s body its use is {why}",
                    shown(&text)
                )));
            }
        }
        firsts.push((value.order, uses[0].range.start));
    }
    if any_acts {
        firsts.sort_by_key(|(order, _)| *order);
        if firsts.windows(2).any(|w| w[0].1 > w[1].1) {
            return Err(refused(format!(
                "the arguments of the call at {at} would be evaluated in another order than they are written"
            )));
        }
    }
    let mut out = String::new();
    let mut pos = range.start;
    let whole = home.text();
    let mut whole_precedence = None;
    for (i, r) in &reads {
        out.push_str(&whole.slice(pos..r.range.start).to_string());
        let value = &values[*i];
        let mut text = value_text(callee, file, value);
        let occurrence = home
            .node_spanning(r.range.clone())
            .ok_or_else(|| refused(format!("{name}'s body cannot be read")))?;
        let (precedence, kind) = value.precedence(callee, file);
        let mut parens = expr::needs_parens(precedence, kind, occurrence, home.src().as_bytes());
        if let Some(interpolation) = enclosing_interpolation(occurrence) {
            parens |= fits_interpolation(
                home,
                &format!("the argument {}", shown(&text)),
                &callee.params[*i].name,
                &text,
                interpolation,
                occurrence,
            )?;
        }
        if parens {
            text = format!("({text})");
        }
        if occurrence == expression {
            whole_precedence = Some((if parens { expr::PRIMARY } else { precedence }, kind));
        }
        out.push_str(&text);
        pos = r.range.end;
    }
    out.push_str(&whole.slice(pos..range.end).to_string());
    let out = out.replace("\r\n", "\n");
    let (precedence, kind) = whole_precedence.unwrap_or((
        expr::precedence(expression, home.src().as_bytes()),
        expression.kind(),
    ));
    Ok(
        if expr::needs_parens(precedence, kind, call, file.src().as_bytes()) {
            format!("({out})")
        } else {
            out
        },
    )
}

/// `name` is imported alike at the top of both modules (`import os`,
/// `from a.b import c as d`; not relative imports): a body reading it may
/// move from one to the other.
fn same_import(home: &Parsed, file: &Parsed, name: &str, call_scope: usize) -> bool {
    if file.scopes().resolve(name, call_scope) != Resolution::Scope(0) {
        return false;
    }
    let source = |parsed: &Parsed| -> Option<String> {
        let mut bindings = parsed.scopes().bindings_of(0, name);
        let (Some(b), None) = (bindings.next(), bindings.next()) else {
            return None;
        };
        if b.kind != crate::analysis::scope::BindingKind::Import {
            return None;
        }
        let statement = parsed.node_spanning(b.statement.clone())?;
        let byte = parsed.byte_of(b.range.start);
        let mut c = statement.walk();
        let clause = statement
            .children_by_field_name("name", &mut c)
            .find(|n| n.start_byte() <= byte && byte < n.end_byte())?;
        let clause = parsed.source_of(clause);
        let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        match statement.kind() {
            "import_statement" => Some(format!("import {}", words(&clause))),
            "import_from_statement" => {
                let module = parsed.source_of(statement.child_by_field_name("module_name")?);
                (!module.starts_with('.'))
                    .then(|| format!("from {} import {}", words(&module), words(&clause)))
            }
            _ => None,
        }
    };
    source(home).is_some_and(|s| Some(s) == source(file))
}

/// Drops one name of `from m import …` (the whole statement when it is
/// the only one).
pub(super) fn remove_import(file: &Parsed, statement: Node<'_>, name: Node<'_>) -> Indel {
    let mut c = statement.walk();
    let names: Vec<Node<'_>> = statement.children_by_field_name("name", &mut c).collect();
    let Some(i) = names.iter().position(|n| *n == name) else {
        return remove_statement(file, statement);
    };
    if names.len() == 1 {
        return remove_statement(file, statement);
    }
    if i + 1 < names.len() {
        Indel::new(
            file.char_of(name.start_byte())..file.char_of(names[i + 1].start_byte()),
            "",
        )
    } else {
        Indel::new(
            file.char_of(names[i - 1].end_byte())..file.char_of(name.end_byte()),
            "",
        )
    }
}
