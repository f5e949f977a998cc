//! Whether the class's hierarchy takes an abstract base class: the
//! interface brings `ABCMeta` into the class and every class deriving
//! from it, so each metaclass there must be provably compatible (`type`,
//! `ABCMeta` or a kin of it), and a declared method's `super()` call must
//! still reach a base's method, not the interface's stub.
//!
//! The classes looked at: the class, its subclasses in the project, and
//! the project ancestors of all of them (a subclass's other bases count:
//! `class S(C, Model)` would fail too). A base from outside the project is
//! compatible only when known to be: builtins, `abc`, `collections.abc`,
//! `numbers`, `io`, the generic aliases of `typing`, and a few standard
//! classes of plain metaclass ([`STANDARD`]); `enum`, `NamedTuple`,
//! `TypedDict`, `ctypes` are known not to be; anything else (Django's
//! `models.Model`, a base computed by a call) cannot be proven and is
//! refused, pointing at `Protocol`. So is a class decorator not known to
//! keep the class ([`CLASS_DECORATORS`]): `six.add_metaclass` makes
//! another class, of another metaclass.

use std::collections::HashMap;
use std::sync::Arc;

use super::members::Declared;
use super::{canonical, class_node, internal, refused};
use crate::analysis::index::builtin_classes;
use crate::analysis::index::rename::{DefInfo, Subclasses};
use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::outline::SymbolKind;
use crate::refactor::{Parsed, Project, RefactorError};

/// Standard classes whose metaclass is `type` or `ABCMeta`.
const STANDARD: &[&str] = &[
    "abc.ABC",
    "typing.Generic",
    "typing.Protocol",
    "typing_extensions.Protocol",
    "os.PathLike",
    "contextlib.AbstractContextManager",
    "contextlib.AbstractAsyncContextManager",
    "contextlib.ContextDecorator",
    "threading.Thread",
    "unittest.TestCase",
    "logging.Handler",
    "logging.StreamHandler",
    "logging.FileHandler",
    "logging.Filter",
    "logging.Formatter",
    "logging.LoggerAdapter",
    "json.JSONEncoder",
    "json.JSONDecoder",
    "argparse.Action",
    "argparse.ArgumentParser",
    "argparse.Namespace",
    "html.parser.HTMLParser",
    "string.Formatter",
    "string.Template",
    "ast.NodeVisitor",
    "ast.NodeTransformer",
    "collections.OrderedDict",
    "collections.defaultdict",
    "collections.UserDict",
    "collections.UserList",
    "collections.UserString",
    "collections.Counter",
    "collections.deque",
    "collections.ChainMap",
];

/// Class decorators known to keep the class's metaclass.
const CLASS_DECORATORS: &[&str] = &[
    "dataclasses.dataclass",
    "functools.total_ordering",
    "typing.final",
    "typing_extensions.final",
    "typing.runtime_checkable",
    "typing_extensions.runtime_checkable",
    "typing.dataclass_transform",
    "attr.s",
    "attr.attrs",
    "attr.define",
    "attr.mutable",
    "attr.frozen",
    "attrs.define",
    "attrs.mutable",
    "attrs.frozen",
];

/// `typing`'s aliases of builtin and `collections.abc` classes.
const TYPING_ALIASES: &[&str] = &[
    "List",
    "Dict",
    "Set",
    "FrozenSet",
    "Deque",
    "DefaultDict",
    "OrderedDict",
    "Counter",
    "ChainMap",
    "Iterable",
    "Iterator",
    "Reversible",
    "Container",
    "Collection",
    "Sized",
    "Hashable",
    "Awaitable",
    "Coroutine",
    "AsyncIterable",
    "AsyncIterator",
    "AsyncGenerator",
    "Generator",
    "Mapping",
    "MutableMapping",
    "Sequence",
    "MutableSequence",
    "AbstractSet",
    "MutableSet",
    "MappingView",
    "KeysView",
    "ItemsView",
    "ValuesView",
    "ContextManager",
    "AsyncContextManager",
    "SupportsInt",
    "SupportsFloat",
    "SupportsComplex",
    "SupportsBytes",
    "SupportsIndex",
    "SupportsAbs",
    "SupportsRound",
];

/// What a base from outside the project does with `ABCMeta`.
enum Verdict {
    Compatible,
    /// Known to fail, and why.
    Conflict(&'static str),
    Unknown,
}

fn external(dotted: &str) -> Verdict {
    if let Some(name) = dotted.strip_prefix("typing.") {
        return match name {
            "NamedTuple" => Verdict::Conflict("a NamedTuple class takes no other base"),
            "TypedDict" => Verdict::Conflict("a TypedDict class takes no other base"),
            "Any" => Verdict::Conflict("its metaclass is not ABCMeta's kin"),
            _ if STANDARD.contains(&dotted) || TYPING_ALIASES.contains(&name) => {
                Verdict::Compatible
            }
            _ => Verdict::Unknown,
        };
    }
    if dotted.starts_with("enum.") {
        return Verdict::Conflict("its metaclass, EnumType, is not ABCMeta's kin");
    }
    if dotted.starts_with("ctypes.") {
        return Verdict::Conflict("its metaclass is ctypes' own");
    }
    let compatible = STANDARD.contains(&dotted)
        || ["collections.abc.", "numbers.", "io.", "builtins."]
            .iter()
            .any(|prefix| dotted.starts_with(prefix));
    if compatible {
        Verdict::Compatible
    } else {
        Verdict::Unknown
    }
}

/// What `Protocol` does instead, for a refusal's reason.
const USE_PROTOCOL: &str =
    "Protocol extracts a typing.Protocol the class matches without inheriting it";

pub(super) fn check(
    project: &Project<'_>,
    class: DefRef,
    info: &DefInfo,
    declared: &Declared<'_>,
) -> Result<(), RefactorError> {
    let index = project.index;
    let subclasses = Subclasses::new(index).of(class);
    let mut below: Vec<DefRef> = vec![class];
    below.extend(subclasses.iter().copied());
    let mut classes = below.clone();
    for ancestor in index.project_ancestors(&below) {
        if !classes.contains(&ancestor) {
            classes.push(ancestor);
        }
    }
    // a test module may hold hundreds of subclasses: each file parsed once
    let mut files: HashMap<String, Arc<Parsed>> = HashMap::new();
    for &k in &classes {
        check_class(project, &mut files, k, k == class, info)?;
    }
    let ancestors = index.project_ancestors(&[class]);
    for call in &declared.supers {
        if !defined_above(project, class, &ancestors, &call.name) {
            return Err(refused(format!(
                "{}.{} reaches super().{} at {}, which no base of {} defines: after the change it would reach the interface's abstract stub instead",
                info.name, call.method, call.name, call.at, info.name
            )));
        }
    }
    Ok(())
}

/// One class of the hierarchy: its `metaclass=` and the bases from outside
/// the project (its project bases are classes of the hierarchy too).
fn check_class(
    project: &Project<'_>,
    files: &mut HashMap<String, Arc<Parsed>>,
    k: DefRef,
    is_the_class: bool,
    the_class: &DefInfo,
) -> Result<(), RefactorError> {
    let index = project.index;
    let info = index
        .def_info(k)
        .ok_or_else(|| internal("a class of the hierarchy is gone from the index"))?;
    let module = index
        .file(k.file)
        .ok_or_else(|| internal("a module of the hierarchy is gone from the index"))?;
    let parsed = match files.get(&info.path) {
        Some(parsed) => parsed.clone(),
        None => {
            let parsed = project.scanned(&info.path)?;
            files.insert(info.path.clone(), parsed.clone());
            parsed
        }
    };
    let node = class_node(&parsed, &info)
        .ok_or_else(|| internal(format!("{} is not where the index saw it", info.name)))?;
    let who = if is_the_class {
        info.name.clone()
    } else {
        format!(
            "{} ({}:{}), which derives from or is a base in the hierarchy of {}",
            info.name, info.path, info.name_location.position, the_class.name
        )
    };
    if let Some(decorated) = node.parent().filter(|p| p.kind() == "decorated_definition") {
        let mut cursor = decorated.walk();
        for decorator in decorated
            .named_children(&mut cursor)
            .filter(|d| d.kind() == "decorator")
        {
            let Some(expression) = decorator.named_child(0) else {
                continue;
            };
            let callee = match expression.kind() {
                "call" => expression
                    .child_by_field_name("function")
                    .unwrap_or(expression),
                _ => expression,
            };
            let text = parsed.node_text(callee);
            let known =
                canonical(module, &text).is_some_and(|c| CLASS_DECORATORS.contains(&c.as_str()));
            if !known {
                return Err(refused(format!(
                    "{who} is decorated with @{text}, which may make another class of it (as six.add_metaclass does, with its own metaclass); {USE_PROTOCOL}"
                )));
            }
        }
    }
    let mut positional: Vec<String> = Vec::new();
    if let Some(args) = node.child_by_field_name("superclasses") {
        let mut cursor = args.walk();
        for child in args.named_children(&mut cursor) {
            match child.kind() {
                "comment" => {}
                "keyword_argument" => {
                    let name = child
                        .child_by_field_name("name")
                        .map(|n| parsed.node_text(n));
                    let value = child
                        .child_by_field_name("value")
                        .map(|v| parsed.node_text(v));
                    if let (Some("metaclass"), Some(value)) = (name.as_deref(), value) {
                        if !is_abc_meta(project, k, &value) {
                            return Err(refused(format!(
                                "{who} has metaclass={value}, which is not ABCMeta or derived from it: with the interface's ABCMeta the class would fail at import; {USE_PROTOCOL}"
                            )));
                        }
                    }
                }
                "list_splat" | "dictionary_splat" => {
                    return Err(refused(format!(
                        "the bases of {who} are computed (`{}`): their metaclass cannot be known; {USE_PROTOCOL}",
                        parsed.node_text(child)
                    )));
                }
                _ => positional.push(parsed.node_text(child)),
            }
        }
    }
    let def = &module.defs[k.def as usize];
    for (i, &base) in def.bases.iter().enumerate() {
        let text = positional.get(i).cloned().unwrap_or_else(|| "?".into());
        let verdict = match index.resolve_base(k.file, base, 0) {
            Res::Defs(defs)
                if !defs.is_empty()
                    && defs
                        .iter()
                        .all(|&d| index.kind(d) == Some(SymbolKind::Class)) =>
            {
                continue
            }
            Res::External => match module.dotted_name(base) {
                Some(dotted) => {
                    if is_the_class
                        && matches!(
                            dotted.as_str(),
                            "typing.Protocol" | "typing_extensions.Protocol"
                        )
                    {
                        return Err(refused(format!(
                            "{who} is a Protocol, which can only inherit protocols; {USE_PROTOCOL}"
                        )));
                    }
                    external(&dotted)
                }
                None => Verdict::Unknown,
            },
            Res::Unknown => match index.builtin_name(k.file, base) {
                Some("type") => Verdict::Conflict("the class is a metaclass"),
                Some(_) => Verdict::Compatible,
                None => Verdict::Unknown,
            },
            _ => Verdict::Unknown,
        };
        match verdict {
            Verdict::Compatible => {}
            Verdict::Conflict(why) => {
                return Err(refused(format!(
                    "{who} derives from {text}: {why}, so with the interface's ABCMeta the class would fail at import; {USE_PROTOCOL}"
                )))
            }
            Verdict::Unknown => {
                return Err(refused(format!(
                    "{who} derives from {text}, whose metaclass cannot be known (it is not a class of the project): one that is not ABCMeta's kin (as Django's models.Model has) makes the class fail at import; {USE_PROTOCOL}"
                )))
            }
        }
    }
    Ok(())
}

/// Whether `metaclass=<value>` in class `k`'s module is `abc.ABCMeta` or a
/// project class deriving from it.
fn is_abc_meta(project: &Project<'_>, k: DefRef, value: &str) -> bool {
    let index = project.index;
    let Some(module) = index.file(k.file) else {
        return false;
    };
    if canonical(module, value).as_deref() == Some("abc.ABCMeta") {
        return true;
    }
    let Some(&bound) = module.exports.get(value.trim()) else {
        return false;
    };
    let Res::Defs(defs) = index.resolve(k.file, bound, 0) else {
        return false;
    };
    let metaclasses: Vec<DefRef> = defs
        .into_iter()
        .filter(|&d| index.kind(d) == Some(SymbolKind::Class))
        .collect();
    if metaclasses.is_empty() {
        return false;
    }
    metaclasses.iter().all(|&m| {
        let mut lineage = vec![m];
        lineage.extend(index.project_ancestors(&[m]));
        lineage.iter().any(|&c| {
            let Some(f) = index.file(c.file) else {
                return false;
            };
            f.defs[c.def as usize].bases.iter().any(|&b| {
                matches!(index.resolve_base(c.file, b, 0), Res::External)
                    && f.dotted_name(b).as_deref() == Some("abc.ABCMeta")
            })
        })
    })
}

/// Whether a base of `class` (a project ancestor, or a builtin or standard
/// base the tables know) defines `name`.
fn defined_above(project: &Project<'_>, class: DefRef, ancestors: &[DefRef], name: &str) -> bool {
    let index = project.index;
    if ancestors
        .iter()
        .any(|&a| !index.members_named(a, name).is_empty())
    {
        return true;
    }
    std::iter::once(class)
        .chain(ancestors.iter().copied())
        .any(|c| {
            let Some(f) = index.file(c.file) else {
                return false;
            };
            f.defs[c.def as usize].bases.iter().any(|&b| {
                let members = match index.resolve_base(c.file, b, 0) {
                    Res::External => f
                        .dotted_name(b)
                        .and_then(|d| builtin_classes::stdlib_members(&d)),
                    Res::Unknown => index
                        .builtin_name(c.file, b)
                        .and_then(builtin_classes::members),
                    _ => None,
                };
                members.is_some_and(|m| m.contains(&name))
            })
        })
}
