//! How a module names a definition a refactor brings into it, and the
//! imports that follow code: the local name the module has for it
//! already, else one import in the module's style (joining an existing
//! `from m import …`, relative where the module imports its package
//! relatively); an import nothing uses any more after a change, dropped;
//! and whether a new import would close an import cycle.

use std::collections::VecDeque;
use std::ops::Range;

use tree_sitter::Node;

use super::Parsed;
use crate::analysis::index::file::{FileIndex, ImportKind, Value};
use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::index::{FileId, ProjectIndex};
use crate::analysis::scope::{BindingKind, Resolution};
use crate::change::Indel;

/// How a module writes a definition: `Base`, `base.Base`, and the import
/// that binds the name when the module has none.
#[derive(Debug)]
pub(super) struct Spelling {
    pub text: String,
    pub import: Option<Indel>,
    /// The module the new import imports (an edge the module did not have).
    pub imports: Option<String>,
}

/// How `file` (the module `fid`) writes the class `def` in an expression
/// evaluated where `at` starts (a class statement: the name must be bound
/// before it). `Err` says why it cannot.
pub(super) fn spell(
    index: &ProjectIndex,
    file: &Parsed,
    fid: FileId,
    def: DefRef,
    at: Node<'_>,
) -> Result<Spelling, String> {
    spell_as(index, file, fid, def, at, None)
}

/// [`spell`] for a module-level definition the change renames to
/// `renamed` (`Merge_Classes`' target): the name written and imported
/// is the new one, and a local name that is the old one becomes it.
pub(super) fn spell_as(
    index: &ProjectIndex,
    file: &Parsed,
    fid: FileId,
    def: DefRef,
    at: Node<'_>,
    renamed: Option<&str>,
) -> Result<Spelling, String> {
    let module = index.file(fid).ok_or("the module is gone from the index")?;
    let target = index
        .file(def.file)
        .ok_or("the class is gone from the index")?;
    let old = target.def(def.def).qualified.clone();
    let qualified = renamed.map_or_else(|| old.clone(), str::to_string);
    let top = qualified.split('.').next().unwrap_or_default().to_string();
    if def.file == fid {
        let old_top = old.split('.').next().unwrap_or_default();
        let outer = target
            .defs_named(old_top)
            .iter()
            .map(|&d| target.def(d))
            .find(|d| d.parent.is_none())
            .ok_or("the class is not bound at module level")?;
        if outer.position.line >= at.start_position().row {
            return Err(format!(
                "{top} is defined below it, at {}:{}: the class statement would run before {top} exists; move {top} above it first",
                file.path(),
                outer.name_position
            ));
        }
        return Ok(Spelling {
            text: qualified,
            import: None,
            imports: None,
        });
    }
    // a name the module has for it already (imported, perhaps aliased)
    let mut locals: Vec<&str> = module
        .exports
        .iter()
        .filter(|(_, &value)| matches!(index.resolve(fid, value, 0), Res::Defs(ds) if ds == [def]))
        .map(|(local, _)| &**local)
        .collect();
    locals.sort_by_key(|local| (*local != old, *local));
    if let Some(local) = locals.first() {
        return Ok(Spelling {
            text: if *local == old {
                qualified
            } else {
                local.to_string()
            },
            import: None,
            imports: None,
        });
    }
    // `import pkg.base as b`: `b.Base`
    let mut aliases: Vec<&str> = module
        .exports
        .iter()
        .filter(|(_, &value)| {
            matches!(module.value(module.through_same(value)), Value::Module(m) if module.name(m) == target.module)
        })
        .map(|(local, _)| &**local)
        .collect();
    aliases.sort();
    if let Some(alias) = aliases.first() {
        return Ok(Spelling {
            text: format!("{alias}.{qualified}"),
            import: None,
            imports: None,
        });
    }
    if !free(file, module, &top) {
        return Err(format!(
            "{} binds or reads the name {top} otherwise, so it cannot import {}.{top}",
            file.path(),
            target.module
        ));
    }
    let import = match existing_from(file, module, &target.module) {
        Some(statement) => extend(file, statement, &[&top]),
        None => {
            let from = if module.imports.iter().any(|i| i.relative) {
                relative(module, &target.module).unwrap_or_else(|| target.module.clone())
            } else {
                target.module.clone()
            };
            new_import(
                file,
                at,
                file.char_of(at.start_byte()),
                &format!("from {from} import {top}"),
            )
        }
    };
    Ok(Spelling {
        text: qualified,
        import: Some(import),
        imports: Some(target.module.clone()),
    })
}

/// Whether the module may bind `name` at module level: nothing binds it
/// there, and nothing reads it as a builtin, a star import's or undefined.
pub(super) fn free(file: &Parsed, module: &FileIndex, name: &str) -> bool {
    let scopes = file.scopes();
    !module.exports.contains_key(name)
        && !scopes
            .bindings
            .iter()
            .any(|b| b.scope == 0 && b.name == name)
        && !scopes.references.iter().any(|r| {
            r.name == name
                && matches!(
                    r.resolution,
                    Resolution::Builtin | Resolution::Star | Resolution::Undefined
                )
        })
}

/// A top-level `from <module> import a, b` (absolute or relative), to add
/// names to.
fn existing_from<'t>(file: &'t Parsed, module: &FileIndex, target: &str) -> Option<Node<'t>> {
    let root = file.tree.root();
    let mut cursor = root.walk();
    let found = root.named_children(&mut cursor).find(|s| {
        s.kind() == "import_from_statement"
            && s.child_by_field_name("module_name").is_some_and(|m| {
                let written = file.node_text(m);
                written == target || absolute(module, &written).as_deref() == Some(target)
            })
            && {
                let mut c = s.walk();
                let star = s
                    .named_children(&mut c)
                    .any(|n| n.kind() == "wildcard_import");
                !star
            }
    });
    found
}

/// The package a module's relative imports start from.
fn package(module: &FileIndex) -> Vec<&str> {
    let mut parts: Vec<&str> = module.module.split('.').collect();
    if !module.is_package {
        parts.pop();
    }
    parts
}

/// The absolute name of a relative module name written in `module`
/// (`..base` in `pkg.sub.a` is `pkg.base`).
pub(super) fn absolute(module: &FileIndex, written: &str) -> Option<String> {
    let dots = written.chars().take_while(|c| *c == '.').count();
    if dots == 0 {
        return None;
    }
    let mut parts = package(module);
    for _ in 1..dots {
        parts.pop()?;
    }
    let rest = &written[dots..];
    if !rest.is_empty() {
        parts.push(rest);
    }
    Some(parts.join("."))
}

/// `target` written relative to `module`'s package, when they share a
/// top-level package.
pub(super) fn relative(module: &FileIndex, target: &str) -> Option<String> {
    let package = package(module);
    let target: Vec<&str> = target.split('.').collect();
    let common = package
        .iter()
        .zip(&target)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return None;
    }
    let dots = ".".repeat(1 + package.len() - common);
    Some(format!("{dots}{}", target[common..].join(".")))
}

/// An import dropped: the edit, and where the name and its statement
/// were (a new name for the same module may take the name's place).
#[derive(Debug)]
pub(super) struct Dropped {
    pub edit: Indel,
    /// The chars of the dropped name (`Old`, `Old as O`).
    pub entry: Range<usize>,
    /// The chars of its import statement.
    pub statement: Range<usize>,
}

/// The edit that removes the import binding `name` at module level in
/// `file` when nothing reads it any more but inside `replaced` (ranges
/// the change rewrites), nothing re-exports it (`__all__`, another module
/// importing it from this one, a package's `__init__`), and it is a
/// top-level import; else `None` (the import stays).
pub(super) fn drop_unused(
    index: &ProjectIndex,
    file: &Parsed,
    module: &FileIndex,
    name: &str,
    replaced: &[Range<usize>],
) -> Option<Dropped> {
    if module.is_package
        || module
            .all
            .as_ref()
            .is_some_and(|all| all.iter().any(|n| &**n == name))
    {
        return None;
    }
    let scopes = file.scopes();
    let bindings: Vec<_> = scopes
        .bindings
        .iter()
        .filter(|b| b.scope == 0 && b.name == name)
        .collect();
    let [binding] = bindings.as_slice() else {
        return None;
    };
    if binding.kind != BindingKind::Import {
        return None;
    }
    let read = scopes.references.iter().any(|r| {
        r.name == name
            && r.resolution == Resolution::Scope(0)
            && !replaced
                .iter()
                .any(|x| x.start <= r.range.start && r.range.end <= x.end)
    });
    if read || scopes.star_import {
        return None;
    }
    // another module importing the name from this one, or reading it as
    // an attribute of this module
    for (_, other) in index.files_with(name) {
        if other.module == module.module {
            continue;
        }
        let imports_it = other.imports.iter().any(|i| {
            i.module == module.module
                && (i.kind == ImportKind::Star || i.name.as_deref() == Some(name))
        });
        let reads_it = other.refs_keyed(name).iter().any(|r| {
            matches!(other.value(r.value), Value::Attr { base, .. } if other.dotted_name(base).as_deref() == Some(module.module.as_str()))
        });
        if imports_it || reads_it {
            return None;
        }
    }
    let statement = file.node_spanning(binding.statement.clone())?;
    if statement.parent().is_none_or(|p| p.kind() != "module") {
        return None;
    }
    let entry = {
        let mut node = file.node_covering(binding.range.start)?;
        while node.parent()? != statement {
            node = node.parent()?;
        }
        node
    };
    without_entry(file, statement, entry)
}

/// The edit that takes one imported name (`entry`, `x` or `x as y`) out
/// of its import statement: the name with its comma, or the statement
/// with its line when it is the only name; `None` when the statement
/// shares its line with other code.
pub(super) fn without_entry(
    file: &Parsed,
    statement: Node<'_>,
    entry: Node<'_>,
) -> Option<Dropped> {
    let names: Vec<Node<'_>> = import_names(statement);
    if !names.contains(&entry) {
        return None;
    }
    let text = file.text();
    let dropped = |edit: Indel| Dropped {
        edit,
        entry: file.chars(entry),
        statement: file.chars(statement),
    };
    if names.len() == 1 {
        // the whole statement, with its line when it is alone on it
        let first = statement.start_position().row;
        let last = statement.end_position().row;
        let line_start = text.line_to_char(first);
        let before = text
            .slice(line_start..file.char_of(statement.start_byte()))
            .to_string();
        let end_line = text.line(last).to_string();
        let after_end = file.char_of(statement.end_byte());
        let rest = text
            .slice(after_end..text.line_to_char(last) + end_line.chars().count())
            .to_string();
        if before.trim().is_empty() && rest.trim().is_empty() {
            let line_end = |row: usize| {
                if row + 1 < text.len_lines() {
                    text.line_to_char(row + 1)
                } else {
                    text.len_chars()
                }
            };
            let blank =
                |row: usize| row < text.len_lines() && text.line(row).to_string().trim().is_empty();
            let mut end = line_end(last);
            // a statement between blank lines (or first in the file) takes
            // one blank line after it along: the gap stays as it was
            if (first == 0 || blank(first - 1)) && last + 1 < text.len_lines() && blank(last + 1) {
                end = line_end(last + 1);
            }
            return Some(dropped(Indel::new(line_start..end, "")));
        }
        return None;
    }
    let at = names.iter().position(|n| *n == entry)?;
    let range = if at + 1 < names.len() {
        file.char_of(entry.start_byte())..file.char_of(names[at + 1].start_byte())
    } else {
        // the last: from the end of the name before it
        file.char_of(names[at - 1].end_byte())..file.char_of(entry.end_byte())
    };
    Some(dropped(Indel::new(range, "")))
}

/// The imported names of an import statement (`a.b`, `x as y`), in order.
pub(super) fn import_names(statement: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = statement.walk();
    let module_name = statement.child_by_field_name("module_name");
    statement
        .named_children(&mut cursor)
        .filter(|n| Some(*n) != module_name && matches!(n.kind(), "dotted_name" | "aliased_import"))
        .collect()
}

/// Whether a module-level import of `module` binds `target` or a name
/// of it already (an import at module level, not in a function).
pub(super) fn imports_at_module_level(module: &FileIndex, target: &str) -> bool {
    module
        .exports
        .values()
        .any(|&v| match module.value(module.through_same(v)) {
            Value::Module(m) => {
                let m = module.name(m);
                m == target || target.starts_with(&format!("{m}."))
            }
            Value::Member { module: m, .. } => module.name(m) == target,
            _ => false,
        })
}

/// The chain of project modules by which `from` imports `target` (at any
/// depth, parent packages included), when it does: `[from, …, target]`.
pub(super) fn import_chain(index: &ProjectIndex, from: &str, target: &str) -> Option<Vec<String>> {
    import_chain_with(index, from, target, &[], &[])
}

/// [`import_chain`] in the project as a change leaves it: with the
/// imports `added` (`(module, imported module)`) and without those
/// `removed` (every import of that module gone from the module).
pub(super) fn import_chain_with(
    index: &ProjectIndex,
    from: &str,
    target: &str,
    added: &[(String, String)],
    removed: &[(String, String)],
) -> Option<Vec<String>> {
    let mut came_from: std::collections::HashMap<String, String> = Default::default();
    let mut queue = VecDeque::from([from.to_string()]);
    let mut seen = std::collections::HashSet::from([from.to_string()]);
    while let Some(module) = queue.pop_front() {
        if module == target {
            let mut chain = vec![module.clone()];
            let mut at = module;
            while let Some(prev) = came_from.get(&at) {
                chain.push(prev.clone());
                at = prev.clone();
            }
            chain.reverse();
            return Some(chain);
        }
        let mut next: Vec<String> = added
            .iter()
            .filter(|(a, _)| *a == module)
            .map(|(_, b)| b.clone())
            .collect();
        let imports = index
            .path_of_module(&module)
            .and_then(|path| index.file_index(path))
            .map(|f| f.imports.as_slice())
            .unwrap_or_default();
        for i in imports {
            let mut names = vec![i.module.clone()];
            if let Some(name) = &i.name {
                names.push(format!("{}.{name}", i.module));
            }
            for name in names {
                let gone = removed.iter().any(|(a, b)| {
                    *a == module && (name == *b || name.starts_with(&format!("{b}.")))
                });
                if gone {
                    continue;
                }
                // importing `a.b.c` runs `a` and `a.b` first, but for the
                // importer's own packages: they are imported (or being
                // imported) before it runs, so importing them runs nothing
                let parts: Vec<&str> = name.split('.').collect();
                for k in 1..=parts.len() {
                    let package = parts[..k].join(".");
                    if !module.starts_with(&format!("{package}.")) {
                        next.push(package);
                    }
                }
            }
        }
        for n in next {
            if index.path_of_module(&n).is_some() && seen.insert(n.clone()) {
                came_from.insert(n.clone(), module.clone());
                queue.push_back(n);
            }
        }
    }
    None
}

/// The edit that adds `names` to an existing `from … import …`: after its
/// last name, on a line of its own when the names are on several.
pub(super) fn extend(file: &Parsed, statement: Node<'_>, names: &[&str]) -> Indel {
    let mut cursor = statement.walk();
    let last = statement
        .children_by_field_name("name", &mut cursor)
        .last()
        .unwrap_or(statement);
    let comma = last.next_sibling().filter(|n| n.kind() == ",");
    let multiline = statement.start_position().row != statement.end_position().row;
    let indent: String = file
        .text()
        .line(last.start_position().row)
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let (at, text) = match (multiline, comma) {
        (true, Some(comma)) => (
            comma.end_byte(),
            names.iter().map(|n| format!("\n{indent}{n},")).collect(),
        ),
        (true, None) => (
            last.end_byte(),
            names.iter().map(|n| format!(",\n{indent}{n}")).collect(),
        ),
        (false, Some(comma)) => (
            comma.end_byte(),
            names.iter().map(|n| format!(" {n},")).collect(),
        ),
        (false, None) => (
            last.end_byte(),
            names.iter().map(|n| format!(", {n}")).collect::<String>(),
        ),
    };
    Indel::insert(file.char_of(at), text)
}

/// A new import line: after the last top-level import (or `__future__`
/// import, or the docstring) above the class, else at the top of the code
/// (never above the interface).
pub(super) fn new_import(
    file: &Parsed,
    statement: Node<'_>,
    interface_at: usize,
    line: &str,
) -> Indel {
    let root = file.tree.root();
    let mut cursor = root.walk();
    let mut anchor = None;
    let mut first_code = None;
    for (i, child) in root
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .enumerate()
    {
        if child.start_byte() >= statement.start_byte() {
            break;
        }
        first_code.get_or_insert(child);
        let docstring = i == 0
            && child.kind() == "expression_statement"
            && child
                .named_child(0)
                .is_some_and(|s| matches!(s.kind(), "string" | "concatenated_string"));
        if docstring
            || matches!(
                child.kind(),
                "import_statement" | "import_from_statement" | "future_import_statement"
            )
        {
            anchor = Some(child);
        }
    }
    let text = file.text();
    if let Some(anchor) = anchor {
        let row = anchor.end_position().row + 1;
        if row >= text.len_lines() {
            return Indel::insert(text.len_chars(), format!("\n{line}\n"));
        }
        return Indel::insert(text.line_to_char(row), format!("{line}\n"));
    }
    let at = first_code
        .map_or(interface_at, |c| text.line_to_char(c.start_position().row))
        .min(interface_at);
    let before_definition = at == interface_at
        || first_code.is_some_and(|c| {
            matches!(
                c.kind(),
                "class_definition" | "function_definition" | "decorated_definition"
            )
        });
    let gap = if before_definition { "\n\n\n" } else { "\n\n" };
    Indel::insert(at, format!("{line}{gap}"))
}
