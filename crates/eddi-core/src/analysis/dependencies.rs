//! Imports of one module and which of them a function or class uses.
//!
//! [`imports`] lists every import statement's bindings (module level and
//! nested): `import a.b` (binds `a`), `import a.b as c`, `from .a import b as
//! c` (level 1), `from m import *` (star, binds nothing). [`dependencies_of`]
//! resolves the names read inside an element ([`super::scope`]) and sorts
//! them into imports used (the *external* dependencies: anything imported,
//! relative imports included), module-level definitions of this file used
//! (internal), builtins, and names that cannot be resolved (undefined, or
//! possibly from a star import). Cross-module resolution (what `pkg.mod`
//! is) belongs to the project index.

use std::collections::BTreeSet;
use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use super::outline::Symbol;
use super::scope::{BindingKind, Resolution, Scopes};
use super::syntax::{byte_to_char, node_start, node_text, SyntaxTree};
use crate::edit::Position;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The module as written, without the leading dots: `a.b`, `` for `from . import x`.
    pub module: String,
    /// Leading dots of a relative import (0 for absolute).
    pub level: usize,
    /// The imported name of a `from` import (`b` in `from a import b as c`).
    pub name: Option<String>,
    pub alias: Option<String>,
    /// The local name it binds (`c`, or `a` for `import a.b`); empty for star imports.
    pub bound: String,
    pub star: bool,
    pub position: Position,
    pub statement: Range<usize>,
    /// At module level (not inside a function, class or block).
    pub top_level: bool,
}

impl Import {
    /// `from .a import b as c` style text of this single binding.
    pub fn describe(&self) -> String {
        let dots = ".".repeat(self.level);
        match (&self.name, self.star) {
            (_, true) => format!("from {dots}{} import *", self.module),
            (Some(n), _) => match &self.alias {
                Some(a) => format!("from {dots}{} import {n} as {a}", self.module),
                None => format!("from {dots}{} import {n}", self.module),
            },
            (None, _) => match &self.alias {
                Some(a) => format!("import {} as {a}", self.module),
                None => format!("import {}", self.module),
            },
        }
    }
}

/// Every import binding of the file, in source order.
pub fn imports(text: &Rope, tree: &SyntaxTree) -> Vec<Import> {
    let mut out = Vec::new();
    walk(text, tree.root(), &mut out);
    out
}

/// Depth first, in source order; an explicit stack rather than recursion,
/// so that a pathologically nested file cannot overflow the thread's stack.
fn walk(text: &Rope, root: Node<'_>, out: &mut Vec<Import>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "import_statement" | "import_from_statement" | "future_import_statement" => {
                collect_import(text, node, out);
            }
            _ => {
                let mut c = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
                stack.extend(children.into_iter().rev());
            }
        }
    }
}

fn collect_import(text: &Rope, stmt: Node<'_>, out: &mut Vec<Import>) {
    let statement = byte_to_char(text, stmt.start_byte())..byte_to_char(text, stmt.end_byte());
    let top_level = stmt.parent().is_some_and(|p| p.kind() == "module");
    let position = node_start(text, stmt);
    let base = |module: String, level: usize| Import {
        module,
        level,
        name: None,
        alias: None,
        bound: String::new(),
        star: false,
        position,
        statement: statement.clone(),
        top_level,
    };
    let mut c = stmt.walk();
    let names: Vec<Node<'_>> = stmt.children_by_field_name("name", &mut c).collect();
    match stmt.kind() {
        "import_statement" => {
            for n in names {
                let (module, alias) = name_and_alias(text, n);
                let bound = alias
                    .clone()
                    .unwrap_or_else(|| module.split('.').next().unwrap_or("").to_string());
                out.push(Import {
                    alias,
                    bound,
                    ..base(module, 0)
                });
            }
        }
        _ => {
            let (module, level) = if stmt.kind() == "future_import_statement" {
                ("__future__".to_string(), 0)
            } else {
                match stmt.child_by_field_name("module_name") {
                    Some(m) => {
                        let t = node_text(text, m);
                        let level = t.chars().take_while(|c| *c == '.').count();
                        (t[level..].to_string(), level)
                    }
                    None => (String::new(), 0),
                }
            };
            let mut c = stmt.walk();
            if stmt
                .named_children(&mut c)
                .any(|n| n.kind() == "wildcard_import")
            {
                out.push(Import {
                    star: true,
                    ..base(module.clone(), level)
                });
            }
            for n in names {
                let (name, alias) = name_and_alias(text, n);
                let bound = alias.clone().unwrap_or_else(|| name.clone());
                out.push(Import {
                    name: Some(name),
                    alias,
                    bound,
                    ..base(module.clone(), level)
                });
            }
        }
    }
}

/// What an element uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dependencies {
    /// Imports of this file used by the element (each once, source order).
    pub imports: Vec<Import>,
    /// Module-level functions, classes and variables of this file used.
    pub internal: Vec<String>,
    pub builtins: Vec<String>,
    /// Names that resolve nowhere (or only maybe, through a star import).
    pub unresolved: Vec<String>,
}

impl Dependencies {
    /// The `uses N external dependencies` figure: imports used.
    pub fn external_count(&self) -> usize {
        self.imports.len()
    }
}

/// The dependencies of a function, method or class (names read inside its
/// definition, decorators included).
pub fn dependencies_of(
    text: &Rope,
    tree: &SyntaxTree,
    scopes: &Scopes,
    symbol: &Symbol,
) -> Dependencies {
    let range = symbol.full.clone();
    let all_imports = imports(text, tree);
    let mut deps = Dependencies::default();
    let mut internal = BTreeSet::new();
    let mut builtins = BTreeSet::new();
    let mut unresolved = BTreeSet::new();
    for r in scopes
        .references
        .iter()
        .filter(|r| r.range.start >= range.start && r.range.end <= range.end)
    {
        match r.resolution {
            Resolution::Scope(s) => {
                // bound inside the element itself: local, not a dependency
                let binding_inside = scopes
                    .bindings_of(s, &r.name)
                    .all(|b| b.range.start >= range.start && b.range.end <= range.end);
                if binding_inside && s != 0 {
                    continue;
                }
                let bindings: Vec<_> = scopes.bindings_of(s, &r.name).collect();
                if let Some(b) = bindings.iter().find(|b| b.kind == BindingKind::Import) {
                    if let Some(imp) = all_imports
                        .iter()
                        .find(|i| i.bound == r.name && i.statement == b.statement)
                    {
                        if !deps.imports.contains(imp) {
                            deps.imports.push(imp.clone());
                        }
                    }
                } else if s == 0
                    && !(bindings
                        .iter()
                        .all(|b| b.range.start >= range.start && b.range.end <= range.end))
                {
                    internal.insert(r.name.clone());
                }
            }
            Resolution::Builtin => {
                builtins.insert(r.name.clone());
            }
            Resolution::Star | Resolution::Undefined => {
                unresolved.insert(r.name.clone());
            }
        }
    }
    deps.imports.sort_by_key(|i| i.position);
    deps.internal = internal.into_iter().collect();
    deps.builtins = builtins.into_iter().collect();
    deps.unresolved = unresolved.into_iter().collect();
    deps
}

/// The imported name and its alias: `a.b as c` → (`a.b`, `c`), `a.b` → (`a.b`, none).
fn name_and_alias(text: &Rope, n: Node<'_>) -> (String, Option<String>) {
    match n.kind() {
        "aliased_import" => (
            n.child_by_field_name("name")
                .map(|m| node_text(text, m))
                .unwrap_or_default(),
            n.child_by_field_name("alias").map(|a| node_text(text, a)),
        ),
        _ => (node_text(text, n), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::outline::{lookup, outline};
    use crate::analysis::scope::analyze;
    use crate::analysis::target::CodeTarget;

    #[test]
    fn imports_and_uses() {
        let src = "import os.path\nimport numpy as np\nfrom .models import Item as I, Stock\nfrom ..util import *\nLIMIT = 3\n\ndef f(x):\n    y = np.array(x)\n    return os.sep, I(y), len(y), LIMIT, helper(x)\n";
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let imps: Vec<String> = imports(&text, &tree)
            .iter()
            .map(|i| format!("{} -> {}", i.describe(), i.bound))
            .collect();
        assert_eq!(
            imps,
            [
                "import os.path -> os",
                "import numpy as np -> np",
                "from .models import Item as I -> I",
                "from .models import Stock -> Stock",
                "from ..util import * -> ",
            ]
        );
        let o = outline(&text, &tree);
        let s = lookup(
            &o,
            &CodeTarget::Function {
                name: "f".into(),
                params: None,
            },
        )
        .unwrap();
        let d = dependencies_of(&text, &tree, &analyze(&text, &tree), s);
        let used: Vec<String> = d.imports.iter().map(|i| i.bound.clone()).collect();
        assert_eq!(used, ["os", "np", "I"]);
        assert_eq!(d.external_count(), 3);
        assert_eq!(d.internal, ["LIMIT"]);
        assert_eq!(d.builtins, ["len"]);
        assert_eq!(d.unresolved, ["helper"]);
    }
}
