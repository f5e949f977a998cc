//! The same code elsewhere, up to consistent renaming of the helper's
//! local names, replaced by calls too.
//!
//! A duplicate is a run of consecutive statements of one block whose trees
//! are the extracted ones node for node (comments aside): the same kinds,
//! the same operators, literals and fixed names (globals, builtins,
//! attribute and keyword names, resolving the same way), and the helper's
//! local names (parameters, what the range binds, comprehension and lambda
//! variables) renamed one-to-one. Then the run's own data flow, computed
//! as for the range, must give exactly the renamed parameters, no return
//! value the helper does not give, the same `global`s and the same kind of
//! call (`await`, `yield from`) — else it is left as it is.
//!
//! Where: `Extract_Method` looks in the methods of the same class of the
//! same kind (instance, class or static — a staticmethod helper is called
//! through the class from any method); `ExtractFunction` in every function
//! and module-level block of the module, not in class bodies, and not at
//! module level before the new function is defined.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use super::annotations::Annotations;
use super::selection::Selection;
use super::{control, flow, plan, File, Helper, Host, MethodKind};
use crate::analysis::lines;
use crate::analysis::scope::Resolution;
use crate::analysis::syntax::node_chars;
use crate::analysis::SyntaxTree;
use crate::change::Indel;
use crate::refactor::{ExtractKind, Project};

/// The calls that replace the duplicates of the selection.
pub(super) fn find(
    project: &Project<'_>,
    path: &str,
    file: &File<'_>,
    tree: &SyntaxTree,
    selection: &Selection<'_>,
    helper: &Helper<'_, '_>,
    definition_at: usize,
) -> Vec<Indel> {
    let original = Side::new(file, helper.host.scope, selection.chars.clone());
    let locals = helper_locals(file, selection, helper);
    let taken = selection.line_chars(file.text);
    let n = selection.statements.len();
    let mut out = Vec::new();
    for block in blocks(tree.root()) {
        let statements: Vec<Node<'_>> = {
            let mut cursor = block.walk();
            block
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .collect()
        };
        let mut i = 0;
        while i + n <= statements.len() {
            let window = &statements[i..i + n];
            match duplicate(
                project,
                path,
                file,
                selection,
                helper,
                &original,
                &locals,
                window,
                &taken,
                definition_at,
            ) {
                Some(indel) => {
                    out.push(indel);
                    i += n;
                }
                None => i += 1,
            }
        }
    }
    out
}

/// The modules and blocks that may hold duplicates (not class bodies).
fn blocks(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = vec![root];
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let mut cursor = n.walk();
        for child in n.named_children(&mut cursor) {
            if child.kind() == "block" && n.kind() != "class_definition" {
                out.push(child);
            }
            stack.push(child);
        }
    }
    out
}

/// The helper's own names: its parameters, its receiver, what the range
/// binds in the host scope.
fn helper_locals(
    file: &File<'_>,
    selection: &Selection<'_>,
    helper: &Helper<'_, '_>,
) -> HashSet<String> {
    let mut out: HashSet<String> = helper.plan.params.iter().cloned().collect();
    if let Some(r) = helper.as_method().and_then(|m| m.receiver.clone()) {
        out.insert(r);
    }
    let flow = flow::analyze(
        file.text,
        file.scopes,
        helper.host.scope,
        &selection.statements,
    );
    out.extend(flow.bound);
    out
}

#[allow(clippy::too_many_arguments)]
fn duplicate(
    project: &Project<'_>,
    path: &str,
    file: &File<'_>,
    selection: &Selection<'_>,
    helper: &Helper<'_, '_>,
    original: &Side<'_>,
    locals: &HashSet<String>,
    window: &[Node<'_>],
    taken: &Range<usize>,
    definition_at: usize,
) -> Option<Indel> {
    let text = file.text;
    let chars = node_chars(text, window[0]).start..node_chars(text, window[window.len() - 1]).end;
    let first_line = file.line_of(chars.start);
    let last_line = file.line_of(chars.end);
    let replaced = lines::start(text, first_line)..lines::end_with_newline(text, last_line);
    let overlaps = |r: &Range<usize>| r.start < replaced.end && replaced.start < r.end;
    if overlaps(taken) || (replaced.start < definition_at && definition_at < replaced.end) {
        return None;
    }
    // the cheap test first: the same shapes, names aside
    if window
        .iter()
        .zip(&selection.statements)
        .any(|(a, b)| !same_shape(file, *b, *a))
    {
        return None;
    }
    let scope = super::host::scope_of_statement(file, window[0]);
    let side = Side::new(file, scope, chars.clone());
    let mut renaming = Renaming::default();
    // the receiver is the dup's own
    let host = {
        let sel = Selection {
            statements: window.to_vec(),
            first_line,
            last_line,
            chars: chars.clone(),
            indent: lines::indent_str(&lines::text_of(text, first_line)).to_string(),
        };
        let host = Host::of(file, &sel, helper.kind, "").ok()?;
        (sel, host)
    };
    let (sel, dup_host) = host;
    let receiver = match (helper.as_method(), dup_host.method()) {
        (Some(m), Some(d)) => {
            if m.class_scope != d.class_scope {
                return None;
            }
            if m.kind != MethodKind::Static && m.kind != d.kind {
                return None;
            }
            if let (Some(a), Some(b)) = (&m.receiver, &d.receiver) {
                if m.kind != MethodKind::Static && !renaming.pair(a, b) {
                    return None;
                }
            }
            dup_host.receiver().map(|r| {
                if m.kind == MethodKind::Static {
                    m.class.clone()
                } else {
                    r
                }
            })
        }
        (Some(_), None) => return None,
        _ => None,
    };
    if helper.kind == ExtractKind::Function
        && dup_host.function.is_none()
        && chars.start < definition_at
    {
        // module-level code that runs before the function is defined
        return None;
    }
    if helper.kind == ExtractKind::Function && shadowed(file, scope, helper.name) {
        return None;
    }
    for (a, b) in selection.statements.iter().zip(window) {
        if !same(original, &side, locals, *a, *b, &mut renaming) {
            return None;
        }
    }
    // the duplicate's own data flow must be the renamed one
    if control(file, &sel, &dup_host, "").ok()? != helper.mode {
        return None;
    }
    let dup_plan = plan(project, path, file, &sel, &dup_host, helper.kind, "").ok()?;
    let renamed = |names: &[String]| -> Option<Vec<String>> {
        names
            .iter()
            .map(|n| renaming.forward.get(n).cloned())
            .collect()
    };
    let args = renamed(&helper.plan.params)?;
    let targets = renamed(&helper.plan.returns)?;
    let as_set = |v: &[String]| v.iter().cloned().collect::<HashSet<String>>();
    // module-level code reads its globals in place: passing them is the same
    let params_agree = if dup_host.scope == 0 {
        as_set(&dup_plan.params).is_subset(&as_set(&args))
    } else {
        as_set(&dup_plan.params) == as_set(&args)
    };
    if !params_agree
        || !as_set(&dup_plan.returns).is_subset(&as_set(&targets))
        || as_set(&dup_plan.globals) != as_set(&helper.plan.globals)
    {
        return None;
    }
    let mut root = window[0];
    while let Some(up) = root.parent() {
        root = up;
    }
    let annotations = Annotations::of(file, root, scope);
    let returned: Vec<Option<String>> = targets
        .iter()
        .map(|t| annotations.of_returned(t, &chars).map(str::to_string))
        .collect();
    let call = helper.call(&sel.indent, &args, &targets, &returned, receiver);
    Some(Indel::new(replaced, call))
}

/// How identifiers of one side are read.
struct Side<'a> {
    file: &'a File<'a>,
    scope: usize,
    span: Range<usize>,
    refs: HashMap<usize, (Range<usize>, Resolution)>,
    binds: HashMap<usize, (Range<usize>, usize)>,
}

/// What an identifier is, for the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ident {
    /// A variable of the host function.
    Own,
    /// A variable of a scope created inside the compared statements
    /// (comprehension, lambda, nested function).
    Nested,
    /// A variable of an enclosing function (a free variable).
    Enclosing(usize),
    /// Anything else — a module-level name, a builtin, an attribute or
    /// keyword name: it must be written and resolve the same.
    Fixed(Option<Resolution>),
}
impl<'a> Side<'a> {
    fn new(file: &'a File<'a>, scope: usize, span: Range<usize>) -> Side<'a> {
        let inside = |r: &Range<usize>| flow::within(r, &span);
        let refs = file
            .scopes
            .references
            .iter()
            .filter(|r| inside(&r.range))
            .map(|r| (r.range.start, (r.range.clone(), r.resolution)))
            .collect();
        let binds = file
            .scopes
            .bindings
            .iter()
            .filter(|b| inside(&b.range))
            .map(|b| (b.range.start, (b.range.clone(), b.scope)))
            .collect();
        Side {
            file,
            scope,
            span,
            refs,
            binds,
        }
    }

    fn ident(&self, node: Node<'_>) -> Ident {
        let range = node_chars(self.file.text, node);
        let scopes = self.file.scopes;
        let of_scope = |s: usize| {
            if s == 0 {
                Ident::Fixed(Some(Resolution::Scope(0)))
            } else if s == self.scope {
                Ident::Own
            } else if flow::within(&scopes.scopes[s].range, &self.span) {
                Ident::Nested
            } else if scopes.is_within(self.scope, s)
                && scopes.scopes[s].kind == crate::analysis::scope::ScopeKind::Function
            {
                Ident::Enclosing(s)
            } else {
                Ident::Fixed(Some(Resolution::Scope(s)))
            }
        };
        if let Some((r, resolution)) = self.refs.get(&range.start) {
            if *r == range {
                return match resolution {
                    Resolution::Scope(s) => of_scope(*s),
                    other => Ident::Fixed(Some(*other)),
                };
            }
        }
        if let Some((r, scope)) = self.binds.get(&range.start) {
            if *r == range {
                return of_scope(*scope);
            }
        }
        Ident::Fixed(None)
    }

    /// A variable the helper may take under another name: the host's own
    /// (module-level ones when the host is the module), or a free one.
    fn renameable(&self, ident: Ident) -> bool {
        match ident {
            Ident::Own | Ident::Enclosing(_) => true,
            Ident::Fixed(Some(Resolution::Scope(0))) => self.scope == 0,
            _ => false,
        }
    }
}

/// A one-to-one renaming of the helper's names to the duplicate's; a
/// fixed name is never the image of a renamed one.
#[derive(Default)]
struct Renaming {
    forward: HashMap<String, String>,
    images: HashSet<String>,
    fixed: HashSet<String>,
}

impl Renaming {
    fn fix(&mut self, name: &str) -> bool {
        self.fixed.insert(name.to_string());
        !self.images.contains(name)
    }

    fn pair(&mut self, from: &str, to: &str) -> bool {
        match self.forward.get(from) {
            Some(existing) => existing == to,
            None if self.images.contains(to) || self.fixed.contains(to) => false,
            None => {
                self.forward.insert(from.to_string(), to.to_string());
                self.images.insert(to.to_string());
                true
            }
        }
    }
}

/// The same tree up to the renaming of the helper's names.
fn same(
    a_side: &Side<'_>,
    b_side: &Side<'_>,
    locals: &HashSet<String>,
    a: Node<'_>,
    b: Node<'_>,
    renaming: &mut Renaming,
) -> bool {
    if a.kind() != b.kind() {
        return false;
    }
    let text_a = || crate::analysis::syntax::node_text(a_side.file.text, a);
    let text_b = || crate::analysis::syntax::node_text(b_side.file.text, b);
    if a.kind() == "identifier" {
        let (name_a, name_b) = (text_a(), text_b());
        let (ia, ib) = (a_side.ident(a), b_side.ident(b));
        if ia == Ident::Nested {
            return ib == Ident::Nested && renaming.pair(&name_a, &name_b);
        }
        if a_side.renameable(ia) && locals.contains(&name_a) {
            return b_side.renameable(ib) && renaming.pair(&name_a, &name_b);
        }
        // the same name, resolving the same
        return name_a == name_b && ia == ib && renaming.fix(&name_b);
    }
    let (ca, cb) = (children(a), children(b));
    if ca.len() != cb.len() {
        return false;
    }
    if ca.is_empty() {
        return text_a() == text_b();
    }
    ca.into_iter()
        .zip(cb)
        .all(|(x, y)| same(a_side, b_side, locals, x, y, renaming))
}

/// The children of a node, tokens included, comments aside.
fn children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = n.walk();
    n.children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// The same tree, identifiers aside (they are compared with their scopes).
fn same_shape(file: &File<'_>, a: Node<'_>, b: Node<'_>) -> bool {
    if a.kind() != b.kind() {
        return false;
    }
    if a.kind() == "identifier" {
        return true;
    }
    let (ca, cb) = (children(a), children(b));
    if ca.len() != cb.len() {
        return false;
    }
    if ca.is_empty() {
        let text = |n: Node<'_>| file.text.byte_slice(n.start_byte()..n.end_byte());
        return text(a) == text(b);
    }
    ca.into_iter().zip(cb).all(|(x, y)| same_shape(file, x, y))
}

/// True when a function around `scope` binds `name`: a call there would
/// not reach the new module-level function.
fn shadowed(file: &File<'_>, mut scope: usize, name: &str) -> bool {
    let scopes = file.scopes;
    while scope != 0 {
        let s = &scopes.scopes[scope];
        if s.kind != crate::analysis::scope::ScopeKind::Class
            && scopes.bindings_of(scope, name).next().is_some()
        {
            return true;
        }
        match s.parent {
            Some(p) => scope = p,
            None => break,
        }
    }
    false
}
