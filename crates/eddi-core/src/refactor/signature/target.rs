//! What a signature refactor works on: the function a name denotes, its
//! overrides in subclasses, and the files read and parsed once each.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::index::{Definition, IndexError, Location};
use crate::analysis::outline::SymbolKind;
pub(super) use crate::refactor::Parsed;
use crate::refactor::{Project, RefactorError, RefactorFailure, Source};

/// A piece of code written in a file's strings (a doctest example),
/// parsed on its own; `None` when it does not parse.
pub(super) fn snippet(file: &Parsed, code: &str) -> Option<Parsed> {
    Parsed::new(Source {
        path: file.source.path.clone(),
        text: Rope::from_str(code),
        base: file.source.base.clone(),
    })
    .ok()
}

/// The files a signature refactor reads: the computation's own
/// ([`Project::parsed`]), each read and parsed once.
pub(super) struct Files<'a> {
    project: &'a Project<'a>,
}

impl<'a> Files<'a> {
    pub fn new(project: &'a Project<'a>) -> Files<'a> {
        Files { project }
    }

    /// Reads and parses `path` unless that was done.
    pub fn load(&mut self, path: &str) -> Result<Arc<Parsed>, RefactorError> {
        self.project.parsed(path)
    }

    /// A file [`Files::load`] read.
    pub fn get(&self, path: &str) -> Arc<Parsed> {
        self.project
            .parsed(path)
            .unwrap_or_else(|e| panic!("{path} was not loaded: {e}"))
    }
}

/// How a method's first parameter is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Receiver {
    /// A function or a `@staticmethod`: no implicit argument.
    None,
    /// A method: `self`, bound by `obj.m()`, explicit in `Class.m(obj)`.
    Instance,
    /// A `@classmethod`: `cls`, bound by `Class.m()` and `obj.m()` alike.
    Class,
}

/// A function or method a refactor changes.
#[derive(Debug, Clone)]
pub(super) struct Function {
    /// `pkg.mod.Class.method`.
    pub qualified: String,
    pub name: String,
    pub path: String,
    /// The `function_definition` node's chars.
    pub range: Range<usize>,
    pub receiver: Receiver,
    /// The class it is a method of (full name).
    pub class: Option<String>,
    /// Decorators that may change what the calls pass (not
    /// `staticmethod`, `classmethod`, `overload`, caches …), as written.
    pub wrapped_by: Vec<String>,
}

impl Function {
    /// The `function_definition` node in its parsed file.
    pub fn node<'t>(&self, file: &'t Parsed) -> Option<Node<'t>> {
        let node = file.node_covering(self.range.start)?;
        let mut n = Some(node);
        while let Some(x) = n {
            if x.kind() == "function_definition" && file.chars(x) == self.range {
                return Some(x);
            }
            n = x.parent();
        }
        None
    }
}

/// The function `query` names: plain, dotted or qualified; a name that is
/// ambiguous in the project but names one symbol of the current file is
/// that one. A symbol with several definitions (`typing.overload`s,
/// conditional ones) is refused unless `many` asks for all of them.
pub(super) fn lookup(
    project: &Project<'_>,
    files: &mut Files<'_>,
    query: &str,
    many: bool,
) -> Result<Vec<Function>, RefactorError> {
    let definitions = match project.index.find_definition(query) {
        Ok(d) => d,
        Err(IndexError::Ambiguous { name, candidates }) => {
            let here: BTreeSet<&str> = candidates
                .iter()
                .filter(|c| {
                    project
                        .current
                        .as_ref()
                        .is_some_and(|cur| cur.path == c.path)
                })
                .map(|c| c.qualified_name.as_str())
                .collect();
            match here.into_iter().collect::<Vec<_>>()[..] {
                [one] => project.index.find_definition(one)?,
                _ => return Err(IndexError::Ambiguous { name, candidates }.into()),
            }
        }
        Err(e) => return Err(e.into()),
    };
    let first = definitions.first().ok_or_else(|| {
        RefactorError::new(
            RefactorFailure::NotFound,
            format!("Function not found: {query}"),
        )
        .at(crate::refactor::Argument::Symbol)
    })?;
    match first.kind {
        SymbolKind::Function | SymbolKind::Method => {}
        SymbolKind::Class => {
            return Err(RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!(
                    "{} is a class: name its constructor, {}.__init__",
                    first.qualified_name,
                    query.trim()
                ),
            )
            .at(crate::refactor::Argument::Symbol))
        }
        kind => {
            return Err(RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!(
                    "{} is a {}, not a function",
                    first.qualified_name,
                    kind.noun()
                ),
            )
            .at(crate::refactor::Argument::Symbol))
        }
    }
    if definitions.len() > 1 && !many {
        let sites: Vec<String> = definitions.iter().map(|d| d.location.to_string()).collect();
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "{} is defined {} times ({}): change each definition by hand, or make it one",
                first.qualified_name,
                definitions.len(),
                sites.join(", ")
            ),
        ));
    }
    definitions.iter().map(|d| function_at(files, d)).collect()
}

/// Decorators known to pass calls through unchanged.
const TRANSPARENT: &[&str] = &[
    "staticmethod",
    "classmethod",
    "abstractmethod",
    "overload",
    "override",
    "cache",
    "lru_cache",
    "wraps",
    "final",
    "no_type_check",
];

/// The function defined at `definition`.
pub(super) fn function_at(
    files: &mut Files<'_>,
    definition: &Definition,
) -> Result<Function, RefactorError> {
    let path = definition.location.path.clone();
    let file = files.load(&path)?;
    let offset = file.offset(definition.location.position);
    let missing = || {
        RefactorError::new(
            RefactorFailure::Stale,
            format!(
                "{} is not at {} any more: the index is behind the file",
                definition.qualified_name, definition.location
            ),
        )
    };
    let mut node = file.node_covering(offset).ok_or_else(missing)?;
    while node.kind() != "function_definition" {
        node = node.parent().ok_or_else(missing)?;
    }
    let name = node
        .child_by_field_name("name")
        .map(|n| file.node_text(n))
        .unwrap_or_default();
    let decorators: Vec<String> = match node.parent() {
        Some(p) if p.kind() == "decorated_definition" => {
            let mut c = p.walk();
            p.named_children(&mut c)
                .filter(|d| d.kind() == "decorator")
                .map(|d| file.node_text(d).trim_start_matches('@').trim().to_string())
                .collect()
        }
        _ => Vec::new(),
    };
    if let Some(d) = decorators.iter().find(|d| {
        d.ends_with("property")
            || d.ends_with(".setter")
            || d.ends_with(".getter")
            || d.ends_with(".deleter")
    }) {
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "{} is a property accessor (@{d}): it is never called with arguments",
                definition.qualified_name
            ),
        ));
    }
    let is_method = definition.kind == SymbolKind::Method;
    let receiver = if !is_method || decorators.iter().any(|d| d == "staticmethod") {
        Receiver::None
    } else if decorators.iter().any(|d| d == "classmethod") {
        Receiver::Class
    } else {
        Receiver::Instance
    };
    let class = is_method.then(|| {
        definition
            .qualified_name
            .rsplit_once('.')
            .map(|(c, _)| c.to_string())
            .unwrap_or_default()
    });
    let wrapped_by = decorators
        .iter()
        .filter(|d| {
            let bare = d.split('(').next().unwrap_or(d);
            let last = bare.rsplit('.').next().unwrap_or(bare);
            !TRANSPARENT.contains(&last)
        })
        .cloned()
        .collect();
    Ok(Function {
        qualified: definition.qualified_name.clone(),
        name,
        path,
        range: file.chars(node),
        receiver,
        class,
        wrapped_by,
    })
}

/// The project classes that derive from `class`, directly or not (full
/// names), with the places that name a class of the hierarchy as a value
/// (`Base.m(obj)` calls through the class, not an instance).
pub(super) struct Hierarchy {
    pub subclasses: Vec<String>,
    pub class_mentions: BTreeSet<Location>,
}

pub(super) fn hierarchy(
    project: &Project<'_>,
    files: &mut Files<'_>,
    class: &str,
) -> Result<Hierarchy, RefactorError> {
    let mut out = Hierarchy {
        subclasses: Vec::new(),
        class_mentions: BTreeSet::new(),
    };
    let mut todo = vec![class.to_string()];
    let mut seen = BTreeSet::new();
    while let Some(c) = todo.pop() {
        if !seen.insert(c.clone()) {
            continue;
        }
        let Ok(refs) = project.index.find_references(&c) else {
            continue;
        };
        for site in refs.certain {
            let file = files.load(&site.path)?;
            let offset = file.offset(site.position);
            if let Some(sub) = subclass_at(&file, offset) {
                let module = project.index.module_of(&site.path).unwrap_or_default();
                let full = if module.is_empty() {
                    sub
                } else {
                    format!("{module}.{sub}")
                };
                out.subclasses.push(full.clone());
                todo.push(full);
            }
            out.class_mentions.insert(site);
        }
    }
    out.subclasses.sort();
    out.subclasses.dedup();
    Ok(out)
}

/// The qualified name (in its module) of the class whose bases the name at
/// `offset` is one of.
fn subclass_at(file: &Parsed, offset: usize) -> Option<String> {
    let mut node = file.node_covering(offset)?;
    if node.kind() != "identifier" {
        return None;
    }
    // `mod.Base`: the attribute is the base expression
    if let Some(p) = node.parent().filter(|p| p.kind() == "attribute") {
        if p.child_by_field_name("attribute") == Some(node) {
            node = p;
        }
    }
    let list = node.parent().filter(|p| p.kind() == "argument_list")?;
    let class = list.parent().filter(|c| c.kind() == "class_definition")?;
    if class.child_by_field_name("superclasses") != Some(list) {
        return None;
    }
    let mut names = vec![file.node_text(class.child_by_field_name("name")?)];
    let mut up = class.parent();
    while let Some(n) = up {
        if matches!(n.kind(), "class_definition" | "function_definition") {
            names.push(file.node_text(n.child_by_field_name("name")?));
        }
        up = n.parent();
    }
    names.reverse();
    Some(names.join("."))
}

/// The methods that override `method` of `class` in `subclasses`.
pub(super) fn overrides(
    project: &Project<'_>,
    files: &mut Files<'_>,
    hierarchy: &Hierarchy,
    method: &str,
) -> Result<Vec<Function>, RefactorError> {
    let mut out = Vec::new();
    for sub in &hierarchy.subclasses {
        let name = format!("{sub}.{method}");
        let Ok(definitions) = project.index.find_definition(&name) else {
            continue;
        };
        for d in definitions.iter().filter(|d| d.qualified_name == name) {
            if matches!(d.kind, SymbolKind::Method) {
                out.push(function_at(files, d)?);
            }
        }
    }
    Ok(out)
}

/// A method of a project base class (direct or not) that `method`
/// overrides, if there is one. Base classes are found by name and then
/// proven: the candidate's hierarchy must contain `method`'s class.
pub(super) fn overridden(
    project: &Project<'_>,
    files: &mut Files<'_>,
    method: &Function,
) -> Result<Option<String>, RefactorError> {
    let Some(class) = &method.class else {
        return Ok(None);
    };
    let mut todo: Vec<String> = vec![class.clone()];
    let mut seen: BTreeSet<String> = BTreeSet::new();
    while let Some(c) = todo.pop() {
        if !seen.insert(c.clone()) || seen.len() > 64 {
            continue;
        }
        for base in base_names(project, files, &c)? {
            for candidate in classes_named(project, &base) {
                let name = format!("{candidate}.{}", method.name);
                let defines = project.index.find_definition(&name).is_ok_and(|ds| {
                    ds.iter()
                        .any(|d| d.qualified_name == name && d.kind == SymbolKind::Method)
                });
                if defines
                    && hierarchy(project, files, &candidate)?
                        .subclasses
                        .contains(class)
                {
                    return Ok(Some(name));
                }
                todo.push(candidate);
            }
        }
    }
    Ok(None)
}

/// The last names of the base class expressions of a project class
/// (`Base`, `mod.Base` → `Base`).
pub(super) fn base_names(
    project: &Project<'_>,
    files: &mut Files<'_>,
    class: &str,
) -> Result<Vec<String>, RefactorError> {
    let Ok(definitions) = project.index.find_definition(class) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for d in definitions.iter().filter(|d| d.kind == SymbolKind::Class) {
        let file = files.load(&d.location.path)?;
        let Some(mut node) = file.node_covering(file.offset(d.name_position)) else {
            continue;
        };
        while node.kind() != "class_definition" {
            match node.parent() {
                Some(p) => node = p,
                None => break,
            }
        }
        let Some(list) = node.child_by_field_name("superclasses") else {
            continue;
        };
        let mut c = list.walk();
        for base in list.named_children(&mut c) {
            let text = file.node_text(base);
            if matches!(base.kind(), "identifier" | "attribute") {
                out.push(text.rsplit('.').next().unwrap_or(&text).to_string());
            }
        }
    }
    Ok(out)
}

/// The full names of the project classes named `name`.
fn classes_named(project: &Project<'_>, name: &str) -> Vec<String> {
    let names: Vec<String> = match project.index.find_definition(name) {
        Ok(ds) => ds.into_iter().map(|d| d.qualified_name).collect(),
        Err(IndexError::Ambiguous { candidates, .. }) => {
            candidates.into_iter().map(|c| c.qualified_name).collect()
        }
        Err(_) => Vec::new(),
    };
    let mut out: Vec<String> = names
        .into_iter()
        .filter(|n| n.rsplit('.').next() == Some(name))
        .filter(|n| {
            project
                .index
                .find_definition(n)
                .is_ok_and(|ds| ds.iter().any(|d| d.kind == SymbolKind::Class))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The definitions of `function` in the stub next to its module
/// (`m.pyi` beside `m.py`), which must change with it. A missing stub is
/// no stub; one that cannot be read as it is (unsaved changes) fails.
pub(super) fn stub_functions(
    files: &mut Files<'_>,
    function: &Function,
) -> Result<Vec<Function>, RefactorError> {
    let Some(stem) = function.path.strip_suffix(".py") else {
        return Ok(Vec::new());
    };
    let chain = {
        let file = files.get(&function.path);
        match function.node(&file) {
            Some(node) => name_chain(&file, node),
            None => return Ok(Vec::new()),
        }
    };
    let stub_path = format!("{stem}.pyi");
    let stub = match files.load(&stub_path) {
        Ok(stub) => stub,
        Err(e) if e.kind == RefactorFailure::Unreadable => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    let mut stack = vec![stub.tree.root()];
    while let Some(node) = stack.pop() {
        if node.kind() == "function_definition" && name_chain(&stub, node) == chain {
            out.push(Function {
                path: stub_path.clone(),
                range: stub.chars(node),
                ..function.clone()
            });
        }
        // definitions sit in blocks of classes and functions, never deeper
        // than their nesting: walk statements only
        if matches!(
            node.kind(),
            "module"
                | "block"
                | "class_definition"
                | "function_definition"
                | "decorated_definition"
                | "if_statement"
                | "else_clause"
                | "elif_clause"
                | "try_statement"
        ) {
            let mut c = node.walk();
            stack.extend(node.named_children(&mut c));
        }
    }
    out.sort_by_key(|f| f.range.start);
    Ok(out)
}

/// The names of a definition and the classes and functions around it.
pub(super) fn name_chain(file: &Parsed, node: Node<'_>) -> Vec<String> {
    let mut names = Vec::new();
    let mut n = Some(node);
    while let Some(x) = n {
        if matches!(x.kind(), "class_definition" | "function_definition") {
            if let Some(name) = x.child_by_field_name("name") {
                names.push(file.node_text(name));
            }
        }
        n = x.parent();
    }
    names.reverse();
    names
}
