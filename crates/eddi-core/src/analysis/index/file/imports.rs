//! `import`, `from … import` (relative ones made absolute) and
//! `from __future__ import`.

use super::nodes::*;
use super::*;

impl<'s, 't> Scanner<'s, 't> {
    pub(super) fn dotted(&self, node: Node<'t>) -> String {
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .map(|n| self.text(n))
            .collect::<Vec<_>>()
            .join(".")
    }

    pub(super) fn import(&mut self, node: Node<'t>, ctx: Ctx) {
        let names = self.children_in(fields().name, node);
        for n in names {
            let (dotted_node, alias) = match kind_name(n) {
                "aliased_import" => (field(n, fields().name), field(n, fields().alias)),
                _ => (Some(n), None),
            };
            let Some(dotted_node) = dotted_node else {
                continue;
            };
            let module = self.dotted(dotted_node);
            if module.is_empty() {
                continue;
            }
            let position = self.pos(dotted_node);
            self.file.imports.push(Import {
                kind: ImportKind::Module,
                module: module.clone(),
                name: None,
                position,
                relative: false,
            });
            match alias {
                Some(a) => {
                    let m = self.intern_owned(module);
                    let v = self.push(Value::Module(m));
                    let id = self.intern(self.text(a));
                    self.bind(ctx.scope, id, v, (a, BindingKind::Import, node));
                }
                None => {
                    // `import a.b` binds `a`
                    let first = dotted_node.named_child(0).unwrap_or(dotted_node);
                    let id = self.intern(self.text(first));
                    let v = self.push(Value::Module(id));
                    self.bind(ctx.scope, id, v, (first, BindingKind::Import, node));
                }
            }
        }
    }

    pub(super) fn import_from(&mut self, node: Node<'t>, ctx: Ctx) {
        let Some(module_node) = field(node, fields().module_name) else {
            return;
        };
        let (module, relative) = if kind_name(module_node) == "relative_import" {
            let mut level = 0;
            let mut rest = String::new();
            let mut cursor = module_node.walk();
            for c in module_node.named_children(&mut cursor) {
                match kind_name(c) {
                    "import_prefix" => level = self.text(c).chars().filter(|&ch| ch == '.').count(),
                    "dotted_name" => rest = self.dotted(c),
                    _ => {}
                }
            }
            (
                module_path::absolute(&self.package, level.max(1), &rest).unwrap_or_default(),
                true,
            )
        } else {
            (self.dotted(module_node), false)
        };
        let position = self.pos(module_node);
        let m = self.intern_owned(module.clone());
        let mut cursor = node.walk();
        let star = node
            .named_children(&mut cursor)
            .any(|c| kind_name(c) == "wildcard_import");
        if star {
            self.file.imports.push(Import {
                kind: ImportKind::Star,
                module: module.clone(),
                name: None,
                position,
                relative,
            });
            if ctx.scope == 0 && !module.is_empty() {
                self.file.stars.push(module);
            }
            if let Some(m) = self.model.as_mut() {
                m.star_import = true;
            }
            return;
        }
        let names = self.children_in(fields().name, node);
        for n in names {
            let (name_node, alias) = match kind_name(n) {
                "aliased_import" => (field(n, fields().name), field(n, fields().alias)),
                _ => (Some(n), None),
            };
            let Some(name_node) = name_node else {
                continue;
            };
            let name_text = self.dotted(name_node);
            self.file.imports.push(Import {
                kind: ImportKind::From,
                module: module.clone(),
                name: Some(name_text.clone()),
                position,
                relative,
            });
            let name = self.intern_owned(name_text.clone());
            let (bound, bound_node) = match alias {
                Some(a) => (self.intern(self.text(a)), a),
                None => {
                    let last = name_node.named_child_count().saturating_sub(1);
                    (name, name_node.named_child(last).unwrap_or(name_node))
                }
            };
            let site = (bound_node, BindingKind::Import, node);
            if module.is_empty() {
                // a relative import above the top-level package
                self.bind(ctx.scope, bound, UNKNOWN, site);
                continue;
            }
            let v = self.push(Value::Member { module: m, name });
            self.add_ref(name_node, v, ctx);
            if alias.is_some_and(|a| self.text(a) == name_text) {
                // `import f as f` binds what it imports: a rename changes both
                self.push_site(bound_node, v, ctx);
            }
            self.bind(ctx.scope, bound, v, site);
        }
    }

    /// `from __future__ import …` binds the features' names, kept apart
    /// from the bindings (compiler directives, never renamed).
    pub(super) fn future_import(&mut self, node: Node<'t>) {
        if self.model.is_none() {
            return;
        }
        let names = self.children_in(fields().name, node);
        for n in names {
            let (feature, id) = match kind_name(n) {
                "aliased_import" => (field(n, fields().name), field(n, fields().alias)),
                _ => (Some(n), n.named_child(0)),
            };
            let annotations = feature.is_some_and(|f| self.text(f) == "annotations");
            let id = id.map(|id| self.intern(self.text(id)));
            if let Some(m) = self.model.as_mut() {
                m.future_annotations |= annotations;
                m.future_imports.extend(id);
            }
        }
    }
}
