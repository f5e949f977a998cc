//! What a function, class or method of a JavaScript, TypeScript, Go, Rust
//! or Java file uses (`Analyze … Dependencies`), read from the file's own
//! scan ([`super::index::tags::scan`]) as Python's element dependencies
//! ([`super::dependencies`]) are read from its scopes.
//!
//! Every name read inside the element is taken by its head — `fmt` of
//! `fmt.Println`, `std` of `std::fs::read`, the name itself when bare —
//! and sorted, in this order: bound inside the element (a parameter, a
//! local, one of its own members: not a dependency), bound by an import
//! (an *external* dependency: the import's source, with the names read
//! through it), defined in this file (internal), a `crate::`/`self::`/
//! `super::` path (internal), a name the language binds without an
//! import (builtins: Go's predeclared names, Rust's prelude, `java.lang`,
//! the JavaScript globals), a Rust path through another crate (external),
//! or none of these (unresolved: Go's and Java's names of the same
//! package in other files, names a glob import may bring). Members read
//! through `this`/`self` or through another expression are the element's
//! own business, as Python's `self.x` is. Cross-file resolution belongs
//! to the project index (`Analyze File Dependencies`).

use std::collections::BTreeSet;
use std::ops::Range;

use ropey::Rope;

use super::index::tags::scan::{ImportKind, Imported, Qualifier, TagsFile};
use super::syntax::{byte_to_char, node_text, SyntaxTree};

/// One source the element reads through, with the names it reads there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceUsed {
    /// As written: a specifier, an import path, a package, a `::` path.
    pub source: String,
    /// Its names the element reads (a module's members, the names an
    /// import binds), sorted.
    pub names: Vec<String>,
}

/// What an element of a brace-language file uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElementUses {
    /// The imports (and other crates' paths) it reads, by source, sorted.
    pub external: Vec<SourceUsed>,
    /// The file's own definitions it reads (qualified), and Rust's
    /// `crate::` paths, sorted.
    pub internal: Vec<String>,
    /// The language's predeclared names it reads, sorted.
    pub builtins: Vec<String>,
    /// Names read that neither the element, the file, its imports nor the
    /// language bind, sorted.
    pub unresolved: Vec<String>,
}

/// Heads of Rust paths that stay in the crate.
const CRATE_HEADS: [&str; 3] = ["crate", "self", "super"];

/// A generic type's or function's type parameter: its name and the
/// declaration it binds the name in (chars).
pub type TypeParameter = (String, Range<usize>);

/// Every type parameter the file declares (`<T>` of a TypeScript, Java or
/// Rust generic, `[T any]` of Go's), each with its declaration: a `T` read
/// there is bound, not a dependency.
pub fn type_parameters(text: &Rope, tree: &SyntaxTree) -> Vec<TypeParameter> {
    let mut found = Vec::new();
    let mut cursor = tree.root().walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        if descend {
            let name = match node.kind() {
                // TypeScript, Java, Rust's bounded `T: Ord`, Go's `T any`
                "type_parameter" | "constrained_type_parameter" | "type_parameter_declaration" => {
                    node.child_by_field_name("name")
                        .or_else(|| node.child_by_field_name("left"))
                        .or_else(|| node.named_child(0))
                }
                // Rust's bare `<T>`
                "type_identifier"
                    if node.parent().is_some_and(|p| p.kind() == "type_parameters") =>
                {
                    Some(node)
                }
                _ => None,
            };
            let owner = node
                .parent()
                .and_then(|list| list.parent())
                .filter(|_| name.is_some());
            if let (Some(name), Some(owner)) = (name, owner) {
                found.push((
                    node_text(text, name),
                    byte_to_char(text, owner.start_byte())..byte_to_char(text, owner.end_byte()),
                ));
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            return found;
        }
        descend = false;
    }
}

/// The uses of the element whose text is `span` (chars) in the file
/// `file`; `predeclared` says which names its language binds everywhere,
/// `generics` are the file's [`type_parameters`].
pub fn element_uses(
    file: &TagsFile,
    span: Range<usize>,
    predeclared: impl Fn(&str) -> bool,
    generics: &[TypeParameter],
) -> ElementUses {
    let inside = |r: &Range<usize>| r.start >= span.start && r.end <= span.end;
    let own: BTreeSet<&str> = file
        .defs
        .iter()
        .filter(|d| inside(&d.span))
        .map(|d| d.name.as_str())
        .collect();
    let mut external: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    let mut internal = BTreeSet::new();
    let mut builtins = BTreeSet::new();
    let mut unresolved = BTreeSet::new();
    let mut crate_paths = BTreeSet::new();
    let mut other_paths = BTreeSet::new();
    for r in &file.refs {
        if r.offset < span.start || r.offset >= span.end || r.import.is_some() {
            continue;
        }
        // (the name the use starts from, what it reads through it)
        let (head, through): (&str, Vec<&str>) = match &r.qualifier {
            Qualifier::None if r.shadowed || r.binding.is_some() => continue,
            Qualifier::None => (r.name.as_str(), Vec::new()),
            Qualifier::Name(_) if r.local_qualifier => continue,
            Qualifier::Name(q) => (q.as_str(), vec![r.name.as_str()]),
            Qualifier::Path(path) => match path.split_first() {
                Some((head, _)) if head == "Self" => continue,
                Some((head, rest)) => {
                    let mut through: Vec<&str> = rest.iter().map(String::as_str).collect();
                    through.push(&r.name);
                    (head.as_str(), through)
                }
                None => (r.name.as_str(), Vec::new()),
            },
            Qualifier::This | Qualifier::Expression(_) | Qualifier::Other => continue,
        };
        let generic = || {
            generics
                .iter()
                .any(|(name, within)| name == head && within.contains(&r.offset))
        };
        if own.contains(head) || generic() {
            continue;
        }
        if let Some(import) = file.imports.iter().find(|i| {
            i.local == head && i.kind != ImportKind::ReExport && i.imported != Imported::All
        }) {
            let read = match (&import.imported, through.as_slice()) {
                (Imported::Name(name), []) => Some(name.clone()),
                (Imported::Default, []) => Some("default".to_string()),
                (Imported::Name(name), rest) => Some(format!("{name}.{}", rest.join("."))),
                // the module itself, read as a value: its source says it
                (_, []) => None,
                (_, rest) => Some(rest.join(".")),
            };
            let names = external.entry(import.source.clone()).or_default();
            names.extend(read);
            continue;
        }
        if CRATE_HEADS.contains(&head) && matches!(r.qualifier, Qualifier::Path(_)) {
            crate_paths.insert(format!("{head}::{}", through.join("::")));
            continue;
        }
        // a module-level definition, or a member of a class around the use
        // (Java's bare `helper()` in a sibling method)
        let defined = file.defs.iter().filter(|d| d.name == head).find(|d| {
            d.top_level
                || file.defs.iter().any(|owner| {
                    Some(&owner.name) == d.container.as_ref()
                        && owner.span.start <= r.offset
                        && r.offset < owner.span.end
                })
        });
        if let Some(def) = defined {
            internal.insert(def.qualified.clone());
            continue;
        }
        if file.defs.iter().any(|d| d.name == head) {
            // another type's member by its bare name: a field's key in a
            // literal (`User{Name: …}`), not a name the element depends on
            continue;
        }
        if predeclared(head) {
            builtins.insert(head.to_string());
            continue;
        }
        if matches!(r.qualifier, Qualifier::Path(_)) {
            // another crate's path: `std::fs::read`, `serde_json::to_string`
            other_paths.insert(format!("{head}::{}", through.join("::")));
        } else {
            unresolved.insert(head.to_string());
        }
    }
    // `a::b::f` is read as `a::b` then `f` (and `a` alone): the longest says it
    let longest = |paths: &BTreeSet<String>| -> Vec<String> {
        paths
            .iter()
            .filter(|p| {
                !paths
                    .iter()
                    .any(|q| q.len() > p.len() && q.starts_with(&format!("{p}::")))
            })
            .cloned()
            .collect()
    };
    internal.extend(longest(&crate_paths));
    for path in longest(&other_paths) {
        if let Some((source, name)) = path.rsplit_once("::") {
            external
                .entry(source.to_string())
                .or_default()
                .insert(name.to_string());
        }
    }
    unresolved.retain(|name: &String| {
        !other_paths
            .iter()
            .any(|p| p.starts_with(&format!("{name}::")))
    });
    ElementUses {
        external: external
            .into_iter()
            .map(|(source, names)| SourceUsed {
                source,
                names: names.into_iter().collect(),
            })
            .collect(),
        internal: internal.into_iter().collect(),
        builtins: builtins.into_iter().collect(),
        unresolved: unresolved.into_iter().collect(),
    }
}
