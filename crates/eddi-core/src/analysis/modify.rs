//! `Modify <target> <change>` as edits: Rename, AddParam, RemoveParam,
//! ChangeSignature, AddDecorator, SetVisibility — within one file.
//!
//! Rename is scope-aware ([`super::scope`]): for a function, class or
//! variable it renames the bindings and the references that resolve to the
//! same scope (shadowing locals and unrelated same-named attributes are left
//! alone, `global`/`nonlocal` declarations follow). For a method or class
//! attribute it renames the definition, bare uses in the class body,
//! `self.name`/`cls.name` in the class's own methods (the first parameter
//! of a function defined directly in the class) and `ClassName.name`.
//! Subclasses, other files and `obj.name` on instances of unknown type are
//! not followed (the project index handles cross-file renames).
//!
//! Parameters: `AddParam … At <i>` counts the parameters as written,
//! *not counting* a leading `self`/`cls` of methods; without `At`, the
//! parameter goes before a `**kwargs` if there is one, else last. Where
//! Python would refuse the parameter (`replace=True` before a parameter
//! without a default, a plain one after a default, anything after
//! `**kwargs`) it goes to the nearest place Python accepts, and the
//! result's note says so.
//! RemoveParam/ChangeSignature change the signature only, not the calls.
//! AddDecorator puts the decorator outermost (first); adding one already
//! present changes nothing. SetVisibility follows Python's convention
//! (`name`, `_name`, `__name`) and renames like Rename; dunder names
//! (`__init__`) are refused.

use ropey::Rope;
use tree_sitter::Node;

use super::error::{AnalysisError, Result};
use super::lines;
use super::outline::{lookup, parameter_identifier, symbol_node, Outline, Symbol, SymbolKind};
use super::scope::{analyze, Resolution, ScopeKind, Scopes};
use super::syntax::{byte_to_char, node_text, SyntaxTree};
use super::textedit::{apply, map_offset, EditResult};
use crate::analysis::target::{CodeTarget, Modification, Visibility};
use crate::change::Indel;
use crate::edit::position::from_char;

/// Computes a modification of the element named by `target`.
pub fn modify(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    target: &CodeTarget,
    change: &Modification,
) -> Result<EditResult> {
    let symbol = lookup(outline, target)?;
    let mut placed = None;
    let edits = match change {
        Modification::Rename { new_name } => rename(text, tree, outline, symbol, new_name)?,
        Modification::SetVisibility { visibility } => {
            let new_name = visible_name(&symbol.name, *visibility)?;
            if new_name == symbol.name {
                Vec::new()
            } else {
                rename(text, tree, outline, symbol, &new_name)?
            }
        }
        Modification::AddParam { param, at } => {
            let (edits, note) = add_param(text, tree, symbol, param, *at)?;
            placed = note;
            edits
        }
        Modification::RemoveParam { name } => remove_param(text, tree, symbol, name)?,
        Modification::ChangeSignature { params } => change_signature(text, tree, symbol, params)?,
        Modification::AddDecorator { decorator } => add_decorator(text, symbol, decorator)?,
    };
    let name = &symbol.qualified_name;
    let note = edits.is_empty().then(|| match change {
        Modification::Rename { new_name } => format!("{name} is already named {new_name}"),
        Modification::SetVisibility { .. } => format!("{name} already has that visibility"),
        Modification::AddDecorator { decorator } => format!(
            "{name} already has the decorator @{}",
            decorator.trim().trim_start_matches('@')
        ),
        Modification::ChangeSignature { .. } => format!("{name} already has that signature"),
        _ => "nothing to change".to_string(),
    });
    let note = note.or(placed).or_else(|| match change {
        // the old parameter list is gone: say what it was
        Modification::ChangeSignature { .. } => symbol
            .params
            .as_ref()
            .map(|old| format!("the signature was ({old})")),
        _ => None,
    });
    let new = apply(text, &edits)?;
    // A renamed variable's position is its name: it stays at the name's start.
    let at = symbol.position_offset(text);
    let moved = match edits
        .iter()
        .find(|e| e.range.start == at && e.range.end > at)
    {
        Some(e) => map_offset(&edits, at) - e.insert.chars().count(),
        None => map_offset(&edits, at),
    };
    let element = from_char(&new, moved);
    Ok(EditResult {
        edits,
        cursor: element,
        element: Some(element),
        note,
    })
}

use super::identifier::is_identifier;

/// `name`, `_name` or `__name` for a visibility.
pub fn visible_name(name: &str, visibility: Visibility) -> Result<String> {
    if name.starts_with("__") && name.ends_with("__") && name.len() > 4 {
        return Err(AnalysisError::InvalidCode(format!(
            "'{name}' is a special (dunder) name; its visibility cannot change"
        )));
    }
    let base = name.trim_start_matches('_');
    if base.is_empty() {
        return Err(AnalysisError::InvalidName(name.to_string()));
    }
    Ok(match visibility {
        Visibility::Public => base.to_string(),
        Visibility::Protected => format!("_{base}"),
        Visibility::Private => format!("__{base}"),
    })
}

/// The scope a symbol is bound in.
fn binding_scope(scopes: &Scopes, outline: &Outline, symbol: &Symbol) -> usize {
    match outline.parent(symbol) {
        None => 0,
        Some(parent) => scopes
            .scope_of_definition(parent.definition.start)
            .unwrap_or(0),
    }
}

/// The edits renaming a symbol and its uses in this file.
pub fn rename(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    symbol: &Symbol,
    new_name: &str,
) -> Result<Vec<Indel>> {
    if !is_identifier(new_name) {
        return Err(AnalysisError::InvalidName(new_name.to_string()));
    }
    if new_name == symbol.name {
        return Ok(Vec::new());
    }
    let scopes = analyze(text, tree);
    let scope = binding_scope(&scopes, outline, symbol);
    if scopes.bindings_of(scope, new_name).next().is_some() {
        return Err(AnalysisError::NameConflict(new_name.to_string()));
    }
    let name = symbol.name.as_str();
    let mut ranges: Vec<std::ops::Range<usize>> = scopes
        .bindings_of(scope, name)
        .map(|b| b.range.clone())
        .chain(scopes.references_to(scope, name).map(|r| r.range.clone()))
        .collect();
    if scopes.scopes[scope].kind == ScopeKind::Class {
        let class_name = scopes.scopes[scope].name.clone().unwrap_or_default();
        let class_binding_scope = scopes.scopes[scope].parent.unwrap_or(0);
        for a in scopes.attributes.iter().filter(|a| a.attribute == name) {
            let matches = match a.object_resolution {
                Resolution::Scope(s) if s == class_binding_scope && a.object == class_name => true,
                Resolution::Scope(s) => {
                    let sc = &scopes.scopes[s];
                    sc.kind == ScopeKind::Function
                        && sc.parent == Some(scope)
                        && sc.first_param.as_deref() == Some(a.object.as_str())
                }
                _ => false,
            };
            if matches {
                ranges.push(a.attribute_range.clone());
            }
        }
    }
    ranges.sort_by_key(|r| r.start);
    ranges.dedup();
    Ok(ranges
        .into_iter()
        .map(|r| Indel::new(r, new_name))
        .collect())
}

fn function_node<'t>(text: &Rope, tree: &'t SyntaxTree, symbol: &Symbol) -> Result<Node<'t>> {
    if !symbol.kind.is_callable() {
        return Err(AnalysisError::InvalidCode(format!(
            "'{}' is a {}; parameters belong to functions and methods",
            symbol.name,
            symbol.kind.noun()
        )));
    }
    symbol_node(text, tree, symbol).ok_or_else(|| {
        AnalysisError::InvalidCode(format!("no definition found for '{}'", symbol.name))
    })
}

/// The `parameters` node (only when it is a complete `( … )`) and its items.
fn parameter_nodes<'t>(def: Node<'t>) -> (Option<Node<'t>>, Vec<Node<'t>>) {
    let params = def.child_by_field_name("parameters").filter(|p| {
        p.end_byte() >= p.start_byte() + 2
            && p.child(0)
                .is_some_and(|c| c.kind() == "(" && !c.is_missing())
            && p.child(p.child_count().saturating_sub(1))
                .is_some_and(|c| c.kind() == ")" && !c.is_missing())
    });
    let list = params
        .map(|p| {
            let mut c = p.walk();
            p.named_children(&mut c)
                .filter(|n| n.kind() != "comment")
                .collect()
        })
        .unwrap_or_default();
    (params, list)
}

/// Parses `def f(<params>): pass` and fails on syntax errors.
fn check_params(params: &str) -> Result<()> {
    let probe = Rope::from_str(&format!("def f({params}):\n    pass\n"));
    let tree = SyntaxTree::parse(&probe)?;
    if tree.has_errors() {
        return Err(AnalysisError::InvalidCode(format!(
            "not a valid parameter list: ({params})"
        )));
    }
    Ok(())
}

/// What a parameter is, for where Python allows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ParamKind {
    Plain,
    Default,
    Star,
    DoubleStar,
    Slash,
}

fn param_kind(node: Node<'_>) -> ParamKind {
    match node.kind() {
        "default_parameter" | "typed_default_parameter" => ParamKind::Default,
        "list_splat_pattern" | "keyword_separator" => ParamKind::Star,
        "dictionary_splat_pattern" => ParamKind::DoubleStar,
        "positional_separator" => ParamKind::Slash,
        "typed_parameter" => {
            node.named_child(0)
                .map_or(ParamKind::Plain, |inner| match param_kind(inner) {
                    ParamKind::Default => ParamKind::Plain,
                    kind => kind,
                })
        }
        _ => ParamKind::Plain,
    }
}

/// True when Python accepts a parameter of kind `new` inserted before
/// `kinds[index]`.
fn legal_at(kinds: &[ParamKind], index: usize, new: ParamKind) -> bool {
    let (before, after) = kinds.split_at(index);
    if before.contains(&ParamKind::DoubleStar) {
        return false;
    }
    let keyword_only = before.contains(&ParamKind::Star);
    let positional_after = || {
        after
            .iter()
            .take_while(|k| !matches!(k, ParamKind::Star | ParamKind::DoubleStar))
    };
    match new {
        ParamKind::Plain => keyword_only || !before.contains(&ParamKind::Default),
        ParamKind::Default => keyword_only || !positional_after().any(|k| *k == ParamKind::Plain),
        ParamKind::Star => !kinds.contains(&ParamKind::Star) && !after.contains(&ParamKind::Slash),
        ParamKind::DoubleStar => after.is_empty() && !kinds.contains(&ParamKind::DoubleStar),
        ParamKind::Slash => true,
    }
}

fn add_param(
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    param: &str,
    at: Option<usize>,
) -> Result<(Vec<Indel>, Option<String>)> {
    let def = function_node(text, tree, symbol)?;
    let param = param.trim();
    check_params(param)?;
    let new_names = super::outline::split_param_names(param);
    if let Some(dup) = new_names.iter().find(|n| symbol.param_names.contains(n)) {
        return Err(AnalysisError::NameConflict(dup.clone()));
    }
    let (params, list) = parameter_nodes(def);
    let params = params.ok_or_else(|| AnalysisError::InvalidCode("no parameter list".into()))?;
    let skip = usize::from(
        symbol.kind == SymbolKind::Method
            && matches!(
                symbol.param_names.first().map(String::as_str),
                Some("self" | "cls")
            ),
    );
    let asked = match at {
        Some(i) => (i + skip).min(list.len()),
        None => list
            .iter()
            .position(|n| n.kind() == "dictionary_splat_pattern")
            .unwrap_or(list.len()),
    };
    let kinds: Vec<ParamKind> = list.iter().map(|n| param_kind(*n)).collect();
    let mut index = asked;
    let mut note = None;
    if let Some(new) = single_param_kind(param) {
        if !legal_at(&kinds, asked, new) {
            let nearest = (skip..=list.len())
                .filter(|i| legal_at(&kinds, *i, new))
                .min_by_key(|i| (i.abs_diff(asked), std::cmp::Reverse(*i)));
            if let Some(i) = nearest {
                index = i;
                let why = match new {
                    ParamKind::Default => "a parameter with a default cannot precede one without",
                    ParamKind::Plain => {
                        "a parameter without a default cannot follow one with a default"
                    }
                    ParamKind::DoubleStar => "**kwargs comes last",
                    _ => "Python allows it only there",
                };
                note = Some(format!(
                    "{param} placed at {} instead of {}: {why}",
                    i - skip,
                    asked - skip
                ));
            }
        }
    }
    let edit = if list.is_empty() {
        Indel::insert(byte_to_char(text, params.start_byte()) + 1, param)
    } else if index >= list.len() {
        let last = list[list.len() - 1];
        Indel::insert(byte_to_char(text, last.end_byte()), format!(", {param}"))
    } else {
        Indel::insert(
            byte_to_char(text, list[index].start_byte()),
            format!("{param}, "),
        )
    };
    Ok((vec![edit], note))
}

/// The kind of a parameter text that is exactly one parameter.
fn single_param_kind(param: &str) -> Option<ParamKind> {
    let probe = Rope::from_str(&format!("def f({param}):\n    pass\n"));
    let tree = SyntaxTree::parse(&probe).ok()?;
    let def = tree.root().named_child(0)?;
    let (_, list) = parameter_nodes(def);
    match list.as_slice() {
        [one] => Some(param_kind(*one)),
        _ => None,
    }
}

fn remove_param(text: &Rope, tree: &SyntaxTree, symbol: &Symbol, name: &str) -> Result<Vec<Indel>> {
    let def = function_node(text, tree, symbol)?;
    let (params, list) = parameter_nodes(def);
    let found = list
        .iter()
        .position(|p| parameter_identifier(*p).is_some_and(|id| node_text(text, id) == name));
    let Some(i) = found else {
        return Err(AnalysisError::NotFound {
            kind: "parameter",
            name: format!("{name}' of '{}", symbol.qualified_name),
            available: crate::choices::Choices::ranked(name, symbol.param_names.clone()),
        });
    };
    let start = byte_to_char(text, list[i].start_byte());
    let end = byte_to_char(text, list[i].end_byte());
    let range = if i + 1 < list.len() {
        start..byte_to_char(text, list[i + 1].start_byte())
    } else if i > 0 {
        byte_to_char(text, list[i - 1].end_byte())..end
    } else {
        // the only parameter: also drop a trailing comma
        let close = params
            .map(|p| byte_to_char(text, p.end_byte()) - 1)
            .unwrap_or(end);
        start..close
    };
    Ok(vec![Indel::delete(range)])
}

fn change_signature(
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    params: &str,
) -> Result<Vec<Indel>> {
    let def = function_node(text, tree, symbol)?;
    let trimmed = params.trim();
    let inner = trimmed
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(trimmed);
    check_params(inner)?;
    let (params, _) = parameter_nodes(def);
    let params = params.ok_or_else(|| AnalysisError::InvalidCode("no parameter list".into()))?;
    let range =
        byte_to_char(text, params.start_byte()) + 1..byte_to_char(text, params.end_byte()) - 1;
    if text.slice(range.clone()) == inner {
        return Ok(Vec::new());
    }
    Ok(vec![Indel::new(range, inner)])
}

fn add_decorator(text: &Rope, symbol: &Symbol, decorator: &str) -> Result<Vec<Indel>> {
    if !matches!(
        symbol.kind,
        SymbolKind::Function | SymbolKind::Method | SymbolKind::Class
    ) {
        return Err(AnalysisError::InvalidCode(format!(
            "'{}' is a {}; decorators apply to functions, methods and classes",
            symbol.name,
            symbol.kind.noun()
        )));
    }
    let d = decorator.trim();
    let d = if d.starts_with('@') {
        d.to_string()
    } else {
        format!("@{d}")
    };
    if d.contains('\n') || d.len() < 2 {
        return Err(AnalysisError::InvalidCode(format!(
            "not a decorator: {decorator}"
        )));
    }
    let probe = Rope::from_str(&format!("{d}\ndef f():\n    pass\n"));
    if SyntaxTree::parse(&probe)?.has_errors() {
        return Err(AnalysisError::InvalidCode(format!(
            "not a decorator: {decorator}"
        )));
    }
    if symbol.decorators.iter().any(|x| {
        x.split_whitespace().collect::<String>() == d.split_whitespace().collect::<String>()
    }) {
        return Ok(Vec::new());
    }
    // below attached comments, above existing decorators
    let mut line = symbol.full_lines.first;
    while line < symbol.position.line && lines::text_of(text, line).trim_start().starts_with('#') {
        line += 1;
    }
    let indent = lines::indent_str(&lines::text_of(text, symbol.position.line)).to_string();
    Ok(vec![Indel::insert(
        lines::start(text, line),
        format!("{indent}{d}\n"),
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::outline::outline;

    fn run(src: &str, target: CodeTarget, change: Modification) -> Result<String> {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let o = outline(&text, &tree);
        let r = modify(&text, &tree, &o, &target, &change)?;
        Ok(apply(&text, &r.edits).unwrap().to_string())
    }

    fn f(name: &str) -> CodeTarget {
        CodeTarget::Function {
            name: name.into(),
            params: None,
        }
    }

    #[test]
    fn rename_is_scope_aware() {
        let src = "def load(x):\n    return x\n\ndef use(load=None):\n    return load\n\nclass A:\n    def load(self):\n        return load(1)\n\nprint(load(2), obj.load)\n";
        assert_eq!(
            run(src, f("load"), Modification::Rename { new_name: "fetch".into() }).unwrap(),
            "def fetch(x):\n    return x\n\ndef use(load=None):\n    return load\n\nclass A:\n    def load(self):\n        return fetch(1)\n\nprint(fetch(2), obj.load)\n"
        );
        let method = CodeTarget::Method {
            class: "A".into(),
            name: "load".into(),
            params: None,
        };
        let src2 = "class A:\n    def load(self):\n        return self.load\n\n    @classmethod\n    def make(cls):\n        return cls.load, A.load, other.load\n\nload = 1\n";
        assert_eq!(
            run(src2, method.clone(), Modification::Rename { new_name: "read".into() }).unwrap(),
            "class A:\n    def read(self):\n        return self.read\n\n    @classmethod\n    def make(cls):\n        return cls.read, A.read, other.load\n\nload = 1\n"
        );
        assert_eq!(
            run(
                src2,
                method,
                Modification::Rename {
                    new_name: "make".into()
                }
            )
            .unwrap_err()
            .to_string(),
            "Name conflict: 'make' already exists in this scope"
        );
    }

    #[test]
    fn visibility_names() {
        assert_eq!(visible_name("_x", Visibility::Public).unwrap(), "x");
        assert_eq!(visible_name("x", Visibility::Private).unwrap(), "__x");
        assert!(visible_name("__init__", Visibility::Private).is_err());
    }
}
