//! Forwarding calls: a call of the target that passes on its own
//! function's `*args`/`**kwargs` (`super().__init__(**kwargs)` in a
//! subclass's constructor, `def wrap(*args, **kwargs): return f(*args,
//! **kwargs)`). What such a call binds is what the forwarder's callers
//! pass, so those callers are the target's callers for what the forwarded
//! arguments carry, and the change follows them.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::calls::{ArgKind, Call};
use super::params::{self, Kind, Param};
use super::target::{self, Files, Function, Parsed, Receiver};
use crate::refactor::{Project, RefactorError};

/// The function a forwarding call is in, and what it passes on.
pub(super) struct Forwarder {
    pub function: Function,
    pub params: Vec<Param>,
    /// The names of the forwarder's `*args` / `**kwargs` when the call
    /// passes them on.
    pub star: Option<String>,
    pub double_star: Option<String>,
    /// The forwarder takes nothing but its receiver and what it passes on,
    /// passes on nothing else and reads them nowhere else: its callers
    /// bind to the target exactly as its calls do.
    pub exact: bool,
    /// The texts of its string literals (`kwargs.pop("timeout")` reads
    /// the key before passing the rest on).
    pub literals: BTreeSet<String>,
}

impl Forwarder {
    /// It takes `name` as a keyword itself: a caller's `name=` stays there.
    pub fn takes_keyword(&self, name: &str) -> bool {
        self.params
            .iter()
            .any(|p| p.name == name && p.kind.takes_keyword())
    }
}

/// The forwarder of `call`, when every `*`/`**` argument of it is its
/// enclosing function's own `*args`/`**kwargs` parameter, never rebound;
/// `None` when some is anything else (a list, a dict, a local).
pub(super) fn forwarder(
    project: &Project<'_>,
    files: &mut Files<'_>,
    call: &Call,
) -> Result<Option<Forwarder>, RefactorError> {
    let Some(seen) = read_forwarding(&files.get(&call.site.path), call) else {
        return Ok(None);
    };
    let module = project.index.module_of(&call.site.path).unwrap_or_default();
    let qualified = if module.is_empty() {
        seen.chain.join(".")
    } else {
        format!("{module}.{}", seen.chain.join("."))
    };
    let Ok(definitions) = project.index.find_definition(&qualified) else {
        return Ok(None);
    };
    for d in definitions.iter().filter(|d| d.qualified_name == qualified) {
        let function = target::function_at(files, d)?;
        if function.path != call.site.path || function.range != seen.range {
            continue;
        }
        let receiver = usize::from(
            function.receiver != Receiver::None
                && seen.params.first().is_some_and(|p| p.kind.is_positional()),
        );
        let passed = |kind: Kind| seen.params.iter().any(|p| p.kind == kind);
        let own_only = seen.params[receiver..].iter().all(|p| {
            (p.kind == Kind::VarPositional && seen.star.is_some())
                || (p.kind == Kind::VarKeyword && seen.double_star.is_some())
        }) && passed(Kind::VarPositional) == seen.star.is_some()
            && passed(Kind::VarKeyword) == seen.double_star.is_some();
        let only_those = call
            .args
            .args
            .iter()
            .all(|a| matches!(a.kind, ArgKind::Star | ArgKind::DoubleStar));
        let exact = own_only && only_those && seen.read_once;
        return Ok(Some(Forwarder {
            function,
            params: seen.params,
            star: seen.star,
            double_star: seen.double_star,
            exact,
            literals: seen.literals,
        }));
    }
    Ok(None)
}

/// What the file shows of a forwarding call's enclosing function.
struct Seen {
    /// The names of the function and the classes and functions around it.
    chain: Vec<String>,
    range: std::ops::Range<usize>,
    params: Vec<Param>,
    star: Option<String>,
    double_star: Option<String>,
    /// Each forwarded name is read only by this call.
    read_once: bool,
    literals: BTreeSet<String>,
}

fn read_forwarding(file: &Parsed, call: &Call) -> Option<Seen> {
    let function = enclosing_function(file, file.offset(call.site.position))?;
    let params = params::of_node(file.text(), function.child_by_field_name("parameters")?);
    let own = |kind: Kind| params.iter().find(|p| p.kind == kind).map(|p| &p.name);
    let scopes = file.scopes();
    let scope = scopes.scope_of_definition(file.chars(function).start)?;
    let mut star = None;
    let mut double_star = None;
    let mut read_once = true;
    for arg in &call.args.args {
        let (kind, slot) = match arg.kind {
            ArgKind::Star => (Kind::VarPositional, &mut star),
            ArgKind::DoubleStar => (Kind::VarKeyword, &mut double_star),
            _ => continue,
        };
        let written = file.slice(arg.range.clone());
        let name = written.trim_start_matches('*').trim();
        if own(kind).map(String::as_str) != Some(name) || slot.is_some() {
            return None;
        }
        // rebound (`kwargs = {…}`) it is not what the callers passed
        if scopes.bindings_of(scope, name).count() != 1 {
            return None;
        }
        read_once &= scopes.references_to(scope, name).count() == 1;
        *slot = Some(name.to_string());
    }
    let mut literals = BTreeSet::new();
    let mut stack = vec![function];
    while let Some(n) = stack.pop() {
        if n.kind() == "string_content" {
            literals.insert(file.node_text(n));
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    Some(Seen {
        chain: target::name_chain(file, function),
        range: file.chars(function),
        params,
        star,
        double_star,
        read_once,
        literals,
    })
}

/// The function whose body the offset is in, when no lambda or class
/// stands between them.
fn enclosing_function(file: &Parsed, offset: usize) -> Option<Node<'_>> {
    let mut node = file.node_covering(offset)?.parent();
    while let Some(n) = node {
        match n.kind() {
            "function_definition" => return Some(n),
            "lambda" | "class_definition" => return None,
            _ => node = n.parent(),
        }
    }
    None
}

/// The class (full name) whose body holds a `super().m(…)` call at the
/// site, when the call is one; `None` for any other call.
pub(super) fn super_call_class(
    project: &Project<'_>,
    file: &Parsed,
    site: &crate::analysis::index::Location,
) -> Option<String> {
    let name = file.node_covering(file.offset(site.position))?;
    let attribute = name.parent().filter(|p| p.kind() == "attribute")?;
    let object = attribute.child_by_field_name("object")?;
    let callee = object.child_by_field_name("function")?;
    if object.kind() != "call" || file.node_text(callee) != "super" {
        return None;
    }
    let mut node = attribute.parent();
    while let Some(n) = node {
        if n.kind() == "class_definition" {
            let chain = target::name_chain(file, n);
            let module = project.index.module_of(&site.path).unwrap_or_default();
            return Some(if module.is_empty() {
                chain.join(".")
            } else {
                format!("{module}.{}", chain.join("."))
            });
        }
        node = n.parent();
    }
    None
}
