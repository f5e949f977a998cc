//! The resolver's full model ([`Model`]): every scope, binding, read and
//! attribute access with byte ranges, recorded only when [`super::model`]
//! asks for it; the index's own walk skips every record here.

use super::nodes::*;
use super::*;
use crate::analysis::scope::lookup;

/// The resolver's whole per-file model, in the walker's terms (interned
/// names, byte ranges): every scope, binding, name read and attribute
/// access, each read resolved. Built by [`model`] only;
/// `analysis::scope::analyze` turns it into `Scopes`. The project index
/// keeps a projection of the same walk ([`FileIndex`]) and never builds it.
#[derive(Debug, Default)]
pub struct Model {
    /// Interned names ([`Name`] indexes it).
    pub names: Names,
    pub scopes: Vec<ModelScope>,
    /// In source order.
    pub bindings: Vec<ModelBinding>,
    /// In source order.
    pub references: Vec<ModelReference>,
    /// `object.attribute` where `object` is a plain name, in source order.
    pub attributes: Vec<ModelAttribute>,
    /// Some `from m import *`, in any scope.
    pub star_import: bool,
    /// `from __future__ import annotations`.
    pub future_annotations: bool,
    /// The names `from __future__ import …` binds.
    pub future_imports: Vec<Name>,
    pub truncated: bool,
}

#[derive(Debug, Clone)]
pub struct ModelScope {
    pub kind: ScopeKind,
    pub parent: Option<usize>,
    /// The function's or class's name.
    pub name: Option<Name>,
    /// Bytes of the defining node (the whole file for the module).
    pub range: Range<usize>,
    pub globals: Vec<Name>,
    pub nonlocals: Vec<Name>,
    /// First parameter (`self` / `cls`).
    pub first_param: Option<Name>,
    /// Calls `locals()` / `vars()`.
    pub uses_locals: bool,
}

#[derive(Debug, Clone)]
pub struct ModelBinding {
    pub name: Name,
    pub kind: BindingKind,
    /// Bytes of the bound identifier.
    pub range: Range<usize>,
    /// Bytes of the statement that binds.
    pub statement: Range<usize>,
    /// The scope the name binds in (after `global`, `nonlocal`, walrus).
    pub scope: usize,
    /// The scope the binding is written in.
    pub site: usize,
}

#[derive(Debug, Clone)]
pub struct ModelReference {
    pub name: Name,
    pub range: Range<usize>,
    /// The scope the name is read in.
    pub scope: usize,
    /// Where it resolves ([`lookup`]); `None`: builtin, star or undefined.
    pub resolved: Option<usize>,
    pub in_annotation: bool,
}

#[derive(Debug, Clone)]
pub struct ModelAttribute {
    pub object: Name,
    pub object_resolved: Option<usize>,
    pub attribute: Name,
    pub attribute_range: Range<usize>,
    pub scope: usize,
}

impl<'s, 't> Scanner<'s, 't> {
    /// A name read, for the full model (the index keeps its own `Ref`s).
    pub(super) fn model_ref(&mut self, node: Node<'t>, name: Name, scope: usize) {
        if let Some(m) = self.model.as_mut() {
            m.references.push(ModelReference {
                name,
                range: node.byte_range(),
                scope,
                resolved: None,
                in_annotation: self.in_annotation,
            });
            if matches!(self.text(node), "locals" | "vars") {
                self.scopes[scope].uses_locals = true;
            }
        }
    }

    /// Visits an annotation: its names are reads flagged as such.
    pub(super) fn annotation<R>(&mut self, walk: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.in_annotation, true);
        let r = walk(self);
        self.in_annotation = outer;
        r
    }

    /// `obj.name` with a plain name as `obj`, for the full model.
    pub(super) fn model_attribute(
        &mut self,
        node: Node<'t>,
        attribute: Node<'t>,
        name: Name,
        scope: usize,
    ) {
        if self.model.is_none() {
            return;
        }
        let Some(object) = field(node, fields().object).filter(|&o| kind_name(o) == "identifier")
        else {
            return;
        };
        let object = self.intern(self.text(object));
        if let Some(m) = self.model.as_mut() {
            m.attributes.push(ModelAttribute {
                object,
                object_resolved: None,
                attribute: name,
                attribute_range: attribute.byte_range(),
                scope,
            });
        }
    }

    /// The full model: bindings moved by `nonlocal`, every read resolved.
    pub(super) fn finish_model(mut self) -> Model {
        self.resolve_bindings();
        let mut m = self.model.take().unwrap_or_default();
        let scopes = &self.scopes;
        for b in &mut m.bindings {
            // `nonlocal x`: x binds in the nearest enclosing function binding it
            if scopes[b.scope].nonlocals.contains(&b.name) {
                let mut p = scopes[b.scope].parent;
                while let Some(i) = p {
                    if scopes[i].kind == ScopeKind::Function
                        && scopes[i].resolved.contains_key(&b.name)
                    {
                        b.scope = i;
                        break;
                    }
                    p = scopes[i].parent;
                }
            }
        }
        let resolve = |name: Name, scope: usize| lookup(&NameIn { scopes, name }, scope);
        for r in &mut m.references {
            r.resolved = resolve(r.name, r.scope);
        }
        for a in &mut m.attributes {
            a.object_resolved = resolve(a.object, a.scope);
        }
        m.bindings.sort_by_key(|b| b.range.start);
        m.references.sort_by_key(|r| r.range.start);
        m.attributes.sort_by_key(|a| a.attribute_range.start);
        m.scopes = scopes
            .iter()
            .map(|s| ModelScope {
                kind: s.kind,
                parent: s.parent,
                name: s.name,
                range: s.range.clone(),
                globals: s.globals.clone(),
                nonlocals: s.nonlocals.clone(),
                first_param: s.first_param,
                uses_locals: s.uses_locals,
            })
            .collect();
        m.names = std::mem::take(&mut self.file.names);
        m.truncated = self.file.truncated;
        m
    }
}
