//! Per-file name resolution for Python: scopes, bindings, references.
//!
//! One walk over the tree builds the scopes (module, class, function,
//! lambda, comprehension), what each binds (imports, `def`/`class` names,
//! parameters, assignment/`for`/`with`/`except`/walrus/match-capture targets,
//! `global`/`nonlocal` redirections) and every name read. References are
//! then resolved with Python's rules (LEGB): the reference's own scope, then
//! enclosing *function* scopes (class scopes are skipped from nested
//! scopes), then the module, then builtins. A name bound anywhere in a
//! function is local to the whole function (as in Python).
//!
//! Attribute accesses (`obj.name`) are recorded separately with the
//! resolution of `obj` when it is a plain name, so renames can follow
//! `self.m`, `cls.m` and `ClassName.m` without touching unrelated `.m`.
//!
//! Known limits: no type inference (`x = C(); x.m()` is not linked to
//! `C.m`); names created dynamically (`globals()[…]`, `exec`) are unknown;
//! with a star import unresolved names are reported as
//! [`Resolution::Star`], not undefined. As in Python, a comprehension's
//! first iterable is resolved in the enclosing scope (so it sees class
//! attributes in a class body), the rest in the comprehension's own scope.
//! Nesting deeper than [`MAX_DEPTH`] is not walked ([`Scopes::truncated`]):
//! its names are neither bindings nor references, so that a pathological
//! file cannot overflow the stack; CPython refuses such nesting anyway.
//! Type parameters (`def f[T]`, Python 3.12) are not bound.
//!
//! Ground truth is CPython's `symtable`: `tests/scope_symtable.rs` (tricky
//! snippets) and `scripts/symtable-compare` (whole packages) compare every
//! scope's names through [`super::symtable`].

use std::collections::HashMap;
use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use super::syntax::{byte_to_char, node_text, SyntaxTree};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Class,
    Function,
    Lambda,
    Comprehension,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindingKind {
    /// `import x`, `from m import x`
    Import,
    Function,
    Class,
    Parameter,
    /// Assignment, annotated assignment, augmented assignment, walrus.
    Assignment,
    /// Target of an assignment that unpacks (`a, b = …`).
    Unpacking,
    /// `for` target, `with … as`, `except … as`, match capture, `del`.
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub name: String,
    pub kind: BindingKind,
    /// The identifier (for imports: the bound name, alias or first dotted part).
    pub range: Range<usize>,
    /// The whole statement (imports: the import statement).
    pub statement: Range<usize>,
    /// The scope the name binds in (after `global`/`nonlocal` and walrus
    /// targets in comprehensions are taken into account).
    pub scope: usize,
    /// The scope the binding is written in.
    pub site: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// Bound in that scope (index into [`Scopes::scopes`]).
    Scope(usize),
    Builtin,
    /// Not bound anywhere, but the module has a star import.
    Star,
    Undefined,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub range: Range<usize>,
    pub scope: usize,
    pub resolution: Resolution,
    /// Read in an annotation (of a parameter, return or variable): not
    /// evaluated under `from __future__ import annotations`, still a use
    /// of the name for renames.
    pub in_annotation: bool,
}

/// `object.attribute` where `object` is a plain name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeAccess {
    pub object: String,
    pub object_resolution: Resolution,
    pub attribute: String,
    pub attribute_range: Range<usize>,
    pub scope: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub kind: ScopeKind,
    pub parent: Option<usize>,
    /// Name of the function/class.
    pub name: Option<String>,
    /// Chars of the defining node (whole file for the module).
    pub range: Range<usize>,
    /// Names declared `global` / `nonlocal` here.
    pub globals: Vec<String>,
    pub nonlocals: Vec<String>,
    /// First parameter (`self`/`cls`) of functions.
    pub first_param: Option<String>,
    /// True when the scope calls `locals()` / `vars()`.
    pub uses_locals: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes {
    pub scopes: Vec<Scope>,
    pub bindings: Vec<Binding>,
    pub references: Vec<Reference>,
    pub attributes: Vec<AttributeAccess>,
    pub star_import: bool,
    /// `from __future__ import annotations`: annotations are not evaluated.
    pub future_annotations: bool,
    /// The names `from __future__ import …` binds (module scope). Kept
    /// apart from [`Scopes::bindings`]: they are compiler directives,
    /// never "unused imports" nor rename targets.
    pub future_imports: Vec<String>,
    /// Nesting beyond [`MAX_DEPTH`] was not walked (its names are missing).
    pub truncated: bool,
}

/// Deepest syntax nesting walked; deeper subtrees are skipped so that a
/// pathological file cannot overflow the stack (as in the project index).
pub const MAX_DEPTH: usize = crate::analysis::index::file::MAX_DEPTH;

impl Scopes {
    /// Bindings of `name` in `scope`.
    pub fn bindings_of<'a>(
        &'a self,
        scope: usize,
        name: &'a str,
    ) -> impl Iterator<Item = &'a Binding> {
        self.bindings
            .iter()
            .filter(move |b| b.scope == scope && b.name == name)
    }

    /// References resolved to `name` bound in `scope`.
    pub fn references_to<'a>(
        &'a self,
        scope: usize,
        name: &'a str,
    ) -> impl Iterator<Item = &'a Reference> {
        self.references
            .iter()
            .filter(move |r| r.name == name && r.resolution == Resolution::Scope(scope))
    }

    /// The innermost scope whose range contains the char offset.
    pub fn scope_at(&self, offset: usize) -> usize {
        let mut best = 0;
        for (i, s) in self.scopes.iter().enumerate() {
            if s.range.start <= offset && offset < s.range.end {
                best = i; // later scopes are nested deeper
            }
        }
        best
    }

    /// The scope created by the definition starting at char `start`.
    pub fn scope_of_definition(&self, start: usize) -> Option<usize> {
        self.scopes.iter().position(|s| {
            s.range.start == start && matches!(s.kind, ScopeKind::Class | ScopeKind::Function)
        })
    }

    /// True when `scope` is `ancestor` or nested in it.
    pub fn is_within(&self, mut scope: usize, ancestor: usize) -> bool {
        loop {
            if scope == ancestor {
                return true;
            }
            match self.scopes[scope].parent {
                Some(p) => scope = p,
                None => return false,
            }
        }
    }
}

/// Builds and resolves the scopes of a file.
pub fn analyze(text: &Rope, tree: &SyntaxTree) -> Scopes {
    let mut b = Builder {
        text,
        out: Scopes::default(),
        pending: Vec::new(),
        pending_attrs: Vec::new(),
        in_annotation: false,
        depth: 0,
    };
    b.out.scopes.push(Scope {
        kind: ScopeKind::Module,
        parent: None,
        name: None,
        range: 0..text.len_chars(),
        globals: Vec::new(),
        nonlocals: Vec::new(),
        first_param: None,
        uses_locals: false,
    });
    let root = tree.root();
    b.visit_children(root, 0);
    b.resolve();
    b.out
}

struct Builder<'r> {
    text: &'r Rope,
    out: Scopes,
    /// (name, range, scope, in an annotation)
    pending: Vec<(String, Range<usize>, usize, bool)>,
    /// (object, attribute, attribute range, scope)
    pending_attrs: Vec<(String, String, Range<usize>, usize)>,
    /// Visiting an annotation.
    in_annotation: bool,
    /// Nesting of the walk (see [`MAX_DEPTH`]).
    depth: usize,
}

impl Builder<'_> {
    fn chars(&self, node: Node<'_>) -> Range<usize> {
        byte_to_char(self.text, node.start_byte())..byte_to_char(self.text, node.end_byte())
    }

    fn new_scope(
        &mut self,
        kind: ScopeKind,
        parent: usize,
        node: Node<'_>,
        name: Option<String>,
    ) -> usize {
        self.out.scopes.push(Scope {
            kind,
            parent: Some(parent),
            name,
            range: self.chars(node),
            globals: Vec::new(),
            nonlocals: Vec::new(),
            first_param: None,
            uses_locals: false,
        });
        self.out.scopes.len() - 1
    }

    fn bind(&mut self, name_node: Node<'_>, kind: BindingKind, statement: Node<'_>, scope: usize) {
        let name = node_text(self.text, name_node);
        self.bind_name(name, self.chars(name_node), kind, statement, scope);
    }

    fn bind_name(
        &mut self,
        name: String,
        range: Range<usize>,
        kind: BindingKind,
        statement: Node<'_>,
        scope: usize,
    ) {
        let statement = self.chars(statement);
        self.out.bindings.push(Binding {
            name,
            kind,
            range,
            statement,
            scope,
            site: scope,
        });
    }

    fn reference(&mut self, node: Node<'_>, scope: usize) {
        let name = node_text(self.text, node);
        if name == "locals" || name == "vars" {
            self.out.scopes[scope].uses_locals = true;
        }
        self.pending
            .push((name, self.chars(node), scope, self.in_annotation));
    }

    /// An annotation: its names are uses, flagged as such.
    fn visit_annotation(&mut self, node: Node<'_>, scope: usize) {
        let outer = std::mem::replace(&mut self.in_annotation, true);
        self.visit(node, scope);
        self.in_annotation = outer;
    }

    fn visit_children(&mut self, node: Node<'_>, scope: usize) {
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
        for child in children {
            self.visit(child, scope);
        }
    }

    /// Binds every identifier of an assignment-like target; attribute and
    /// subscript targets are visited as expressions.
    fn bind_target(
        &mut self,
        target: Node<'_>,
        kind: BindingKind,
        statement: Node<'_>,
        scope: usize,
    ) {
        self.deeper(|b| b.bind_target_node(target, kind, statement, scope));
    }

    fn bind_target_node(
        &mut self,
        target: Node<'_>,
        kind: BindingKind,
        statement: Node<'_>,
        scope: usize,
    ) {
        match target.kind() {
            "identifier" => self.bind(target, kind, statement, scope),
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "tuple"
            | "list"
            | "expression_list"
            | "parenthesized_expression" => {
                let mut c = target.walk();
                let parts: Vec<Node<'_>> = target.named_children(&mut c).collect();
                let kind = if kind == BindingKind::Assignment {
                    BindingKind::Unpacking
                } else {
                    kind
                };
                for p in parts {
                    self.bind_target(p, kind, statement, scope);
                }
            }
            "list_splat_pattern" | "list_splat" => {
                if let Some(inner) = target.named_child(0) {
                    self.bind_target(inner, kind, statement, scope);
                }
            }
            _ => self.visit(target, scope),
        }
    }

    fn bind_parameters(&mut self, params: Node<'_>, outer: usize, inner: usize) {
        let mut c = params.walk();
        let list: Vec<Node<'_>> = params.named_children(&mut c).collect();
        for (i, p) in list.iter().enumerate() {
            // defaults and annotations are evaluated in the enclosing scope
            if let Some(v) = p.child_by_field_name("value") {
                self.visit(v, outer);
            }
            if let Some(t) = p.child_by_field_name("type") {
                self.visit_annotation(t, outer);
            }
            if let Some(id) = super::outline::parameter_identifier(*p) {
                if i == 0 {
                    self.out.scopes[inner].first_param = Some(node_text(self.text, id));
                }
                self.bind(id, BindingKind::Parameter, *p, inner);
            }
        }
    }

    /// Runs `walk` one level deeper, unless that is beyond [`MAX_DEPTH`].
    fn deeper(&mut self, walk: impl FnOnce(&mut Self)) {
        if self.depth >= MAX_DEPTH {
            self.out.truncated = true;
            return;
        }
        self.depth += 1;
        walk(self);
        self.depth -= 1;
    }

    fn visit(&mut self, node: Node<'_>, scope: usize) {
        self.deeper(|b| b.visit_node(node, scope));
    }

    fn visit_node(&mut self, node: Node<'_>, scope: usize) {
        match node.kind() {
            "identifier" => self.reference(node, scope),
            "comment" | "string_content" | "escape_sequence" => {}
            "decorated_definition" => self.visit_children(node, scope),
            "function_definition" => self.visit_function(node, scope),
            "lambda" => self.visit_lambda(node, scope),
            "class_definition" => self.visit_class(node, scope),
            "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression" => self.visit_comprehension(node, scope),
            "assignment" => self.visit_assignment(node, scope),
            "augmented_assignment" => self.visit_augmented_assignment(node, scope),
            "named_expression" => self.visit_named_expression(node, scope),
            "for_statement" => self.visit_for(node, scope),
            "as_pattern" => self.visit_as_pattern(node, scope),
            "except_clause" => self.visit_except(node, scope),
            "import_statement" => self.visit_import(node, scope),
            "import_from_statement" => self.visit_import_from(node, scope),
            "future_import_statement" => self.visit_future_import(node, scope),
            "global_statement" | "nonlocal_statement" => self.visit_declaration(node, scope),
            "attribute" => self.visit_attribute(node, scope),
            "keyword_argument" => {
                if let Some(v) = node.child_by_field_name("value") {
                    self.visit(v, scope);
                }
            }
            "case_pattern" => self.bind_pattern(node, scope),
            "dotted_name" => {
                // only reached in expression-like positions (decorators, patterns)
                if let Some(first) = node.named_child(0) {
                    self.reference(first, scope);
                }
            }
            _ => self.visit_children(node, scope),
        }
    }

    /// `def`: the name binds here; annotations, defaults and decorators are
    /// evaluated here, the body in its own scope.
    fn visit_function(&mut self, node: Node<'_>, scope: usize) {
        if let Some(name) = node.child_by_field_name("name") {
            self.bind(name, BindingKind::Function, node, scope);
        }
        if let Some(rt) = node.child_by_field_name("return_type") {
            self.visit_annotation(rt, scope);
        }
        let fname = node
            .child_by_field_name("name")
            .map(|n| node_text(self.text, n));
        let inner = self.new_scope(ScopeKind::Function, scope, node, fname);
        if let Some(params) = node.child_by_field_name("parameters") {
            self.bind_parameters(params, scope, inner);
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.visit_children(body, inner);
        }
    }

    /// `lambda`: defaults here, the body in its own scope.
    fn visit_lambda(&mut self, node: Node<'_>, scope: usize) {
        let inner = self.new_scope(ScopeKind::Lambda, scope, node, None);
        if let Some(params) = node.child_by_field_name("parameters") {
            self.bind_parameters(params, scope, inner);
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.visit(body, inner);
        }
    }

    /// `class`: the name and bases here, the body in a class scope
    /// (invisible from nested scopes).
    fn visit_class(&mut self, node: Node<'_>, scope: usize) {
        if let Some(name) = node.child_by_field_name("name") {
            self.bind(name, BindingKind::Class, node, scope);
        }
        if let Some(sup) = node.child_by_field_name("superclasses") {
            self.visit(sup, scope);
        }
        let cname = node
            .child_by_field_name("name")
            .map(|n| node_text(self.text, n));
        let inner = self.new_scope(ScopeKind::Class, scope, node, cname);
        if let Some(body) = node.child_by_field_name("body") {
            self.visit_children(body, inner);
        }
    }

    /// Comprehensions and generator expressions have their own scope; the
    /// first iterable is evaluated in the enclosing one.
    fn visit_comprehension(&mut self, node: Node<'_>, scope: usize) {
        let inner = self.new_scope(ScopeKind::Comprehension, scope, node, None);
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
        let mut first_clause = true;
        for child in children {
            if child.kind() == "for_in_clause" {
                if let Some(left) = child.child_by_field_name("left") {
                    self.bind_target(left, BindingKind::Other, child, inner);
                }
                // the first iterable is evaluated in the enclosing scope
                let iter_scope = if first_clause { scope } else { inner };
                first_clause = false;
                let mut c2 = child.walk();
                let rights: Vec<Node<'_>> =
                    child.children_by_field_name("right", &mut c2).collect();
                for r in rights {
                    self.visit(r, iter_scope);
                }
            } else {
                self.visit(child, inner);
            }
        }
    }

    /// `a = …`, `a: T = …`, `a: T`.
    fn visit_assignment(&mut self, node: Node<'_>, scope: usize) {
        if let Some(left) = node.child_by_field_name("left") {
            let stmt = node
                .parent()
                .filter(|p| p.kind() == "expression_statement")
                .unwrap_or(node);
            // `x: int` without a value declares, it does not assign
            let kind = if node.child_by_field_name("right").is_some() {
                BindingKind::Assignment
            } else {
                BindingKind::Other
            };
            self.bind_target(left, kind, stmt, scope);
        }
        if let Some(t) = node.child_by_field_name("type") {
            self.visit_annotation(t, scope);
        }
        if let Some(right) = node.child_by_field_name("right") {
            self.visit(right, scope);
        }
    }

    /// `a += …` reads and binds `a`.
    fn visit_augmented_assignment(&mut self, node: Node<'_>, scope: usize) {
        if let Some(left) = node.child_by_field_name("left") {
            if left.kind() == "identifier" {
                self.reference(left, scope);
                self.bind(left, BindingKind::Assignment, node, scope);
            } else {
                self.visit(left, scope);
            }
        }
        if let Some(right) = node.child_by_field_name("right") {
            self.visit(right, scope);
        }
    }

    /// `(a := …)` binds in the nearest scope that is not a comprehension.
    fn visit_named_expression(&mut self, node: Node<'_>, scope: usize) {
        let mut target_scope = scope;
        while self.out.scopes[target_scope].kind == ScopeKind::Comprehension {
            target_scope = self.out.scopes[target_scope].parent.unwrap_or(0);
        }
        if let Some(name) = node.child_by_field_name("name") {
            self.bind(name, BindingKind::Assignment, node, scope);
            if let Some(b) = self.out.bindings.last_mut() {
                b.scope = target_scope;
            }
        }
        if let Some(v) = node.child_by_field_name("value") {
            self.visit(v, scope);
        }
    }

    /// `for a in …:`
    fn visit_for(&mut self, node: Node<'_>, scope: usize) {
        if let Some(left) = node.child_by_field_name("left") {
            self.bind_target(left, BindingKind::Other, node, scope);
        }
        for field in ["right", "body", "alternative"] {
            if let Some(n) = node.child_by_field_name(field) {
                self.visit(n, scope);
            }
        }
    }

    /// `with x as y`, `except E as e` (older grammars), `case p as y`.
    fn visit_as_pattern(&mut self, node: Node<'_>, scope: usize) {
        // `with x as y`, `except E as e` (older grammars), `case p as y`
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
        for child in children {
            if child.kind() == "as_pattern_target" {
                let stmt = node.parent().unwrap_or(node);
                if let Some(t) = child.named_child(0) {
                    self.bind_target(t, BindingKind::Other, stmt, scope);
                }
            } else {
                self.visit(child, scope);
            }
        }
    }

    /// `except E as e:`
    fn visit_except(&mut self, node: Node<'_>, scope: usize) {
        let alias = node.child_by_field_name("alias");
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
        for child in children {
            if Some(child) == alias && child.kind() == "identifier" {
                self.bind(child, BindingKind::Other, node, scope);
            } else {
                self.visit(child, scope);
            }
        }
    }

    /// `import a.b [as c]` binds `a` (or `c`).
    fn visit_import(&mut self, node: Node<'_>, scope: usize) {
        let mut c = node.walk();
        let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut c).collect();
        for n in names {
            match n.kind() {
                "aliased_import" => {
                    if let Some(alias) = n.child_by_field_name("alias") {
                        self.bind(alias, BindingKind::Import, node, scope);
                    }
                }
                _ => {
                    if let Some(first) = n.named_child(0) {
                        self.bind(first, BindingKind::Import, node, scope);
                    }
                }
            }
        }
    }

    /// `from m import a [as b]`, `from m import *`.
    fn visit_import_from(&mut self, node: Node<'_>, scope: usize) {
        let mut c = node.walk();
        let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut c).collect();
        for n in names {
            match n.kind() {
                "aliased_import" => {
                    if let Some(alias) = n.child_by_field_name("alias") {
                        self.bind(alias, BindingKind::Import, node, scope);
                    }
                }
                _ => {
                    if let Some(last) = n.named_child(n.named_child_count().saturating_sub(1)) {
                        self.bind(last, BindingKind::Import, node, scope);
                    }
                }
            }
        }
        let mut c = node.walk();
        if node
            .named_children(&mut c)
            .any(|n| n.kind() == "wildcard_import")
        {
            self.out.star_import = true;
        }
    }

    /// `from __future__ import …` binds the feature's name (kept apart).
    fn visit_future_import(&mut self, node: Node<'_>, _scope: usize) {
        // `from __future__ import annotations` binds `annotations`
        let mut c = node.walk();
        let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut c).collect();
        for n in names {
            let id = match n.kind() {
                "aliased_import" => n.child_by_field_name("alias"),
                _ => n.named_child(0),
            };
            let feature = match n.kind() {
                "aliased_import" => n.child_by_field_name("name"),
                _ => Some(n),
            };
            if feature.is_some_and(|f| node_text(self.text, f) == "annotations") {
                self.out.future_annotations = true;
            }
            if let Some(id) = id {
                self.out.future_imports.push(node_text(self.text, id));
            }
        }
    }

    /// `global` / `nonlocal`.
    fn visit_declaration(&mut self, node: Node<'_>, scope: usize) {
        let mut c = node.walk();
        let names: Vec<String> = node
            .named_children(&mut c)
            .filter(|n| n.kind() == "identifier")
            .map(|n| node_text(self.text, n))
            .collect();
        if node.kind() == "global_statement" {
            self.out.scopes[scope].globals.extend(names);
        } else {
            self.out.scopes[scope].nonlocals.extend(names);
        }
        // the declared names count as uses (renames must update them)
        let mut c = node.walk();
        let ids: Vec<Node<'_>> = node
            .named_children(&mut c)
            .filter(|n| n.kind() == "identifier")
            .collect();
        for id in ids {
            self.reference(id, scope);
        }
    }

    /// `obj.name`: a use of `obj`; the attribute is kept for renames.
    fn visit_attribute(&mut self, node: Node<'_>, scope: usize) {
        let object = node.child_by_field_name("object");
        if let Some(o) = object {
            self.visit(o, scope);
        }
        if let (Some(o), Some(attr)) = (object, node.child_by_field_name("attribute")) {
            if o.kind() == "identifier" {
                self.pending_attrs.push((
                    node_text(self.text, o),
                    node_text(self.text, attr),
                    self.chars(attr),
                    scope,
                ));
            }
        }
    }

    /// Match patterns: bare names capture, dotted names are values, class
    /// patterns read their class.
    fn bind_pattern(&mut self, node: Node<'_>, scope: usize) {
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
        for child in children {
            self.bind_pattern_node(child, scope);
        }
    }

    fn bind_pattern_node(&mut self, node: Node<'_>, scope: usize) {
        self.deeper(|b| b.bind_pattern_kind(node, scope));
    }

    fn bind_pattern_kind(&mut self, node: Node<'_>, scope: usize) {
        match node.kind() {
            "case_pattern" => self.bind_pattern(node, scope),
            "dotted_name" if node.named_child_count() == 1 => {
                if let Some(id) = node.named_child(0) {
                    self.bind(id, BindingKind::Other, node, scope);
                }
            }
            "dotted_name" => {
                if let Some(first) = node.named_child(0) {
                    self.reference(first, scope);
                }
            }
            "class_pattern" => {
                let mut c = node.walk();
                let parts: Vec<Node<'_>> = node.named_children(&mut c).collect();
                for (i, p) in parts.into_iter().enumerate() {
                    if i == 0 && p.kind() == "dotted_name" {
                        if let Some(first) = p.named_child(0) {
                            self.reference(first, scope);
                        }
                    } else {
                        self.bind_pattern_node(p, scope);
                    }
                }
            }
            "keyword_pattern" => {
                // `name=pattern`: the keyword is an attribute name
                let mut c = node.walk();
                let parts: Vec<Node<'_>> = node.named_children(&mut c).collect();
                for p in parts.into_iter().skip(1) {
                    self.bind_pattern_node(p, scope);
                }
            }
            "identifier" => self.bind(node, BindingKind::Other, node, scope),
            _ => {
                let mut c = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
                for child in children {
                    self.bind_pattern_node(child, scope);
                }
            }
        }
    }

    fn resolve(&mut self) {
        let mut bound: HashMap<(usize, String), ()> = HashMap::new();
        for b in &self.out.bindings {
            bound.insert((b.scope, b.name.clone()), ());
        }
        // `global x` in a function: its bindings of x are the module's
        for b in &mut self.out.bindings {
            let s = &self.out.scopes[b.scope];
            if s.globals.contains(&b.name) {
                b.scope = 0;
            } else if s.nonlocals.contains(&b.name) {
                let mut p = s.parent;
                while let Some(i) = p {
                    if bound.contains_key(&(i, b.name.clone()))
                        && self.out.scopes[i].kind == ScopeKind::Function
                    {
                        b.scope = i;
                        break;
                    }
                    p = self.out.scopes[i].parent;
                }
            }
        }
        bound.clear();
        for b in &self.out.bindings {
            bound.insert((b.scope, b.name.clone()), ());
        }
        let resolve = |name: &str, scope: usize| -> Resolution {
            let scopes = &self.out.scopes;
            let mut current = Some(scope);
            let mut first = true;
            while let Some(i) = current {
                let s = &scopes[i];
                if s.globals.iter().any(|g| g == name) {
                    return if bound.contains_key(&(0, name.to_string())) {
                        Resolution::Scope(0)
                    } else {
                        fallback(name, self.out.star_import)
                    };
                }
                let skip =
                    (s.kind == ScopeKind::Class && !first) || s.nonlocals.iter().any(|n| n == name);
                if !skip && bound.contains_key(&(i, name.to_string())) {
                    return Resolution::Scope(i);
                }
                first = false;
                current = s.parent;
            }
            fallback(name, self.out.star_import)
        };
        let pending = std::mem::take(&mut self.pending);
        let mut refs: Vec<Reference> = pending
            .into_iter()
            .map(|(name, range, scope, in_annotation)| {
                let resolution = resolve(&name, scope);
                Reference {
                    name,
                    range,
                    scope,
                    resolution,
                    in_annotation,
                }
            })
            .collect();
        // a binding identifier is not also a read (augmented assignment aside)
        let binding_ranges: std::collections::HashSet<(usize, usize)> = self
            .out
            .bindings
            .iter()
            .map(|b| (b.range.start, b.range.end))
            .collect();
        refs.retain(|r| {
            !binding_ranges.contains(&(r.range.start, r.range.end)) || self.is_augmented(r)
        });
        self.out.references = refs;
        let attrs = std::mem::take(&mut self.pending_attrs);
        self.out.attributes = attrs
            .into_iter()
            .map(
                |(object, attribute, attribute_range, scope)| AttributeAccess {
                    object_resolution: resolve(&object, scope),
                    object,
                    attribute,
                    attribute_range,
                    scope,
                },
            )
            .collect();
    }

    fn is_augmented(&self, r: &Reference) -> bool {
        // `x += 1` both reads and binds x: the statement text starts with it
        self.out.bindings.iter().any(|b| {
            b.range == r.range && {
                let stmt = self.text.slice(b.statement.clone()).to_string();
                let rest = stmt[..].trim_start();
                rest.starts_with(&b.name)
                    && rest[b.name.len()..]
                        .trim_start()
                        .chars()
                        .next()
                        .is_some_and(|c| "+-*/%&|^@<>".contains(c))
                    && !rest[b.name.len()..].trim_start().starts_with("==")
            }
        })
    }
}

fn fallback(name: &str, star: bool) -> Resolution {
    if is_builtin(name) {
        Resolution::Builtin
    } else if star {
        Resolution::Star
    } else {
        Resolution::Undefined
    }
}

/// Python 3 builtins (3.13) and module attributes every module has.
pub const BUILTINS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "PythonFinalizationError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "__build_class__",
    "__debug__",
    "__doc__",
    "__import__",
    "__loader__",
    "__name__",
    "__package__",
    "__spec__",
    "__file__",
    "__builtins__",
    "__path__",
    "__annotations__",
    "__dict__",
    "__qualname__",
    "__module__",
    "__class__",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

pub fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scopes(src: &str) -> (Rope, Scopes) {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let s = analyze(&text, &tree);
        (text, s)
    }

    fn resolved(s: &Scopes, name: &str) -> Vec<Resolution> {
        s.references
            .iter()
            .filter(|r| r.name == name)
            .map(|r| r.resolution)
            .collect()
    }

    #[test]
    fn legb_and_class_scope_skipping() {
        let (_, s) = scopes(
            "x = 1\nclass C:\n    x = 2\n    y = x\n    def m(self):\n        return x\n\ndef f(x):\n    return [x for x in range(x)]\nprint(undefined_name, len)\n",
        );
        // y = x (class scope), return x (module, class skipped), the element
        // x (comprehension), range(x) (first iterable: f's parameter)
        assert_eq!(
            resolved(&s, "x"),
            [
                Resolution::Scope(1),
                Resolution::Scope(0),
                Resolution::Scope(4),
                Resolution::Scope(3)
            ]
        );
        assert_eq!(resolved(&s, "undefined_name"), [Resolution::Undefined]);
        assert_eq!(resolved(&s, "len"), [Resolution::Builtin]);
        let (_, class) = scopes(
            "class T:\n    _types = {1: 'a'}\n    _str = {v: k for k, v in _types.items() if _types}\n",
        );
        // the first iterable sees the class attribute; the condition does not
        assert_eq!(
            resolved(&class, "_types"),
            [Resolution::Scope(1), Resolution::Undefined]
        );
    }

    #[test]
    fn match_patterns_capture_and_read() {
        let (_, s) = scopes("from m import Point, Color\ndef f(v):\n    match v:\n        case Point(x=0, y=yy) | Color.RED:\n            return yy\n        case [first, *rest]:\n            return first, rest\n");
        assert_eq!(resolved(&s, "Point"), [Resolution::Scope(0)]);
        assert_eq!(resolved(&s, "Color"), [Resolution::Scope(0)]);
        assert_eq!(resolved(&s, "yy"), [Resolution::Scope(1)]);
        assert_eq!(resolved(&s, "rest"), [Resolution::Scope(1)]);
        let bound: Vec<&str> = s
            .bindings
            .iter()
            .filter(|b| b.scope == 1)
            .map(|b| b.name.as_str())
            .collect();
        assert_eq!(bound, ["v", "yy", "first", "rest"]);
    }

    #[test]
    fn annotations_are_uses_read_once_and_flagged() {
        let (_, s) = scopes("from __future__ import annotations\nclass T: ...\ndef f(a: T, b: T = T()) -> T:\n    v: T = a\n");
        assert!(s.future_annotations);
        let uses: Vec<bool> = s
            .references
            .iter()
            .filter(|r| r.name == "T")
            .map(|r| r.in_annotation)
            .collect();
        // one use per written `T` (a typed parameter's was read twice)
        assert_eq!(uses, [true, true, false, true, true]);
        assert_eq!(s.future_imports, ["annotations"]);
        assert_eq!(s.bindings_of(0, "annotations").count(), 0);
    }

    #[test]
    fn deep_nesting_is_cut_not_a_stack_overflow() {
        // 10 000 nested lists overflowed the stack (an abort, not a panic)
        let n = 10_000;
        let src = format!("x = {}{}\ny = 1\n", "[a, ".repeat(n), "]".repeat(n));
        let (_, s) = scopes(&src);
        assert!(s.truncated);
        // what is not too deep is still resolved
        assert_eq!(s.bindings_of(0, "y").count(), 1);
        assert!(!scopes("x = [[a]]\n").1.truncated);
    }

    #[test]
    fn globals_augmented_and_imports() {
        let (_, s) = scopes("import os.path\nfrom a import b as c\ncount = 0\ndef inc():\n    global count\n    count += 1\n    return os.sep, c\n");
        let names: Vec<(&str, usize)> = s
            .bindings
            .iter()
            .map(|b| (b.name.as_str(), b.scope))
            .collect();
        assert_eq!(
            names,
            [("os", 0), ("c", 0), ("count", 0), ("inc", 0), ("count", 0)]
        );
        assert_eq!(
            resolved(&s, "count"),
            [Resolution::Scope(0), Resolution::Scope(0)]
        );
        assert_eq!(resolved(&s, "os"), [Resolution::Scope(0)]);
        assert_eq!(s.attributes[0].attribute, "sep");
    }
}
