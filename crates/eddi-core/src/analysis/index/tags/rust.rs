//! Rust: a crate is the directory of the nearest `Cargo.toml` above a
//! file; its modules are files as `mod` finds them (`src/lib.rs` or
//! `src/main.rs` the root, `src/a.rs` or `src/a/mod.rs` module `a`,
//! `src/a/b.rs` module `a::b`). A `use` binds a name from a path —
//! `crate::`, `super::`, `self::`, a module the file's module declares —,
//! a module or an item, renamed (`as`) or every one (`*`); paths in code
//! (`a::f()`, `Type::new()`, `Self::m()`) are resolved alike. A `mod m {
//! … }` block is a module too (`crate::m::f`, `use self::m::f`): its
//! items' uses through paths from outside it are resolved; inside it, a
//! bare name is certain only for its own items, and a path not from
//! `crate::` is possible (its own `use` declarations are not read).
//! Macros and other crates are not followed: their names are possible.

use ropey::Rope;
use tree_sitter::Node;

use super::family::{Bound, Family, Files, ModuleKey, Source};
use super::scan::{import_ref, Import, ImportKind, Imported, Qualifier, TagsFile};
use crate::analysis::syntax::byte_to_char;

pub struct Rust;

impl Family for Rust {
    fn skips(&self, statement: Node<'_>) -> bool {
        // `use` declarations, and `mod m;` (not a module's inline body)
        match statement.kind() {
            "use_declaration" => true,
            "mod_item" => statement.child_by_field_name("body").is_none(),
            _ => false,
        }
    }

    fn read_module(&self, text: &str, rope: &Rope, root: Node<'_>, file: &mut TagsFile) {
        let mut cursor = root.walk();
        for node in root.named_children(&mut cursor) {
            if node.kind() == "use_declaration" {
                if let Some(argument) = node.child_by_field_name("argument") {
                    uses(text, rope, argument, &[], file);
                }
            }
        }
        inline_modules(text, rope, root, "", file);
    }

    fn qualifier(&self, text: &str, object: Node<'_>) -> Qualifier {
        match object.kind() {
            "self" => Qualifier::This,
            "identifier" => Qualifier::Name(text[object.byte_range()].to_string()),
            _ => Qualifier::Other,
        }
    }

    fn module_of(&self, files: &Files<'_>, path: &str, _file: &TagsFile) -> ModuleKey {
        module_key(files, path)
    }

    fn resolve(&self, files: &Files<'_>, from: &str, file: &TagsFile, source: &str) -> Source {
        let path: Vec<String> = source.split("::").map(str::to_string).collect();
        match self.resolve_path(files, from, file, &path) {
            Some((module, None)) => Source::Module(module),
            _ => Source::Unknown,
        }
    }

    fn resolve_path(
        &self,
        files: &Files<'_>,
        from: &str,
        file: &TagsFile,
        path: &[String],
    ) -> Option<(ModuleKey, Option<String>)> {
        let here_key = files.memo().module(from, || module_key(files, from));
        let here = ModulePath::of(&here_key)?;
        let (first, rest) = path.split_first()?;
        let mut at = here.clone();
        match first.as_str() {
            "crate" => at = here.root(),
            "self" => {}
            "super" => at.parent()?,
            name => {
                if let Some(child) = here.child(files, name) {
                    at = child;
                } else if let Some(import) = file
                    .imports
                    .iter()
                    .find(|i| i.local == name && i.imported != Imported::All)
                {
                    // a name the file's `use` binds: its path, then the rest
                    let mut through: Vec<String> =
                        import.source.split("::").map(str::to_string).collect();
                    if through.first().map(String::as_str) == Some(name) {
                        return None; // `use name;`: another crate
                    }
                    through.extend(rest.iter().cloned());
                    return self.resolve_path(files, from, file, &through);
                } else if let Some(child) = here.root().child(files, name) {
                    at = child;
                } else if file.defs.iter().any(|d| d.top_level && d.name == name) {
                    // an item of this module (`Cart::new` beside `Cart`)
                    return Some((here_key.clone(), Some(name.to_string())));
                } else {
                    return None;
                }
            }
        }
        for (i, segment) in rest.iter().enumerate() {
            match segment.as_str() {
                "super" if i == 0 || at.names.is_empty() => at.parent()?,
                "self" => {}
                s => match at.child(files, s) {
                    Some(child) => at = child,
                    None => return Some((at.key(), Some(s.to_string()))),
                },
            }
        }
        Some((at.key(), None))
    }

    fn module_files(&self, files: &Files<'_>, module: &ModuleKey) -> Vec<String> {
        // a `mod m { … }` block's file is the nearest module above it
        // that has one
        let Some(path) = ModulePath::of(module) else {
            return Vec::new();
        };
        if path.krate.ends_with(".rs") {
            return vec![path.krate.to_string()]; // a crate root of its own
        }
        (0..=path.names.len())
            .rev()
            .find_map(|n| module_file(files, path.krate, &path.names[..n]))
            .into_iter()
            .collect()
    }

    fn inline_key(&self, module: &ModuleKey, inline: &str) -> ModuleKey {
        let inline = inline.replace('.', "::");
        match module.ends_with('|') {
            true => format!("{module}{inline}"),
            false => format!("{module}::{inline}"),
        }
    }

    fn label(&self, path: &str, _file: &TagsFile) -> String {
        // the module path under the crate's source root, by the path alone
        let rel = path.rsplit_once("src/").map_or(path, |(_, r)| r);
        let stem = rel.strip_suffix(".rs").unwrap_or(rel);
        let stem = stem.strip_suffix("/mod").unwrap_or(stem);
        match stem {
            "lib" | "main" => String::new(),
            s => s.replace('/', "."),
        }
    }

    fn bound(&self, files: &Files<'_>, from: &str, file: &TagsFile, import: &Import) -> Bound {
        let path: Vec<String> = import.source.split("::").map(str::to_string).collect();
        match self.resolve_path(files, from, file, &path) {
            Some((module, None)) => Bound::Module(module),
            Some((module, Some(item))) if import.imported != Imported::All => {
                Bound::Item(module, item)
            }
            _ => Bound::Unknown,
        }
    }
}

/// A module of a crate as a path is walked: its names, and how many of
/// them are modules of files (the others are `mod m { … }` blocks in the
/// last one's file).
#[derive(Debug, Clone)]
struct ModulePath<'k> {
    krate: &'k str,
    names: Vec<String>,
    in_files: usize,
}

impl<'k> ModulePath<'k> {
    /// The module of a key (a file's).
    fn of(key: &'k str) -> Option<ModulePath<'k>> {
        let (krate, module) = key.split_once('|')?;
        let names: Vec<String> = match module {
            "" => Vec::new(),
            m => m.split("::").map(str::to_string).collect(),
        };
        Some(ModulePath {
            krate,
            in_files: names.len(),
            names,
        })
    }

    fn root(&self) -> ModulePath<'k> {
        ModulePath {
            krate: self.krate,
            names: Vec::new(),
            in_files: 0,
        }
    }

    fn key(&self) -> ModuleKey {
        format!("{}|{}", self.krate, self.names.join("::"))
    }

    fn parent(&mut self) -> Option<()> {
        self.names.pop()?;
        self.in_files = self.in_files.min(self.names.len());
        Some(())
    }

    /// The module `name` declares in this one, if the project has it: a
    /// file (`a/name.rs`, `a/name/mod.rs`), or a `mod name { … }` block.
    fn child(&self, files: &Files<'_>, name: &str) -> Option<ModulePath<'k>> {
        let mut names = self.names.clone();
        names.push(name.to_string());
        if module_file(files, self.krate, &names).is_some() {
            return Some(ModulePath {
                krate: self.krate,
                in_files: names.len(),
                names,
            });
        }
        let own = match (self.in_files, self.krate.ends_with(".rs")) {
            // a file outside `src/` is a crate root of its own
            (0, true) => self.krate.to_string(),
            (n, _) => module_file(files, self.krate, &self.names[..n])?,
        };
        let inline = names[self.in_files..].join(".");
        let declared = files
            .scanned(&own)?
            .inline_modules
            .iter()
            .any(|(q, _)| *q == inline);
        declared.then_some(ModulePath {
            krate: self.krate,
            names,
            in_files: self.in_files,
        })
    }
}

/// `crate directory|a::b` for a file of module `a::b`; a file outside a
/// crate's `src/` (a test, an example, a build script) is a crate root
/// of its own.
fn module_key(files: &Files<'_>, path: &str) -> ModuleKey {
    let mut dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let krate = loop {
        let manifest = match dir {
            "" => "Cargo.toml".to_string(),
            d => format!("{d}/Cargo.toml"),
        };
        if files.manifest(&manifest).is_some() {
            break Some(dir);
        }
        match dir.rsplit_once('/') {
            Some((up, _)) => dir = up,
            None if !dir.is_empty() => dir = "",
            None => break None,
        }
    };
    let Some(krate) = krate else {
        return format!("{path}|");
    };
    let under = match krate {
        "" => path,
        k => &path[k.len() + 1..],
    };
    let Some(in_src) = under.strip_prefix("src/") else {
        return format!("{path}|");
    };
    if in_src.starts_with("bin/") {
        return format!("{path}|");
    }
    let stem = in_src.trim_end_matches(".rs");
    let module = match stem {
        "lib" | "main" => String::new(),
        s => s.trim_end_matches("/mod").replace('/', "::"),
    };
    format!("{krate}|{module}")
}

/// The file of a module of a crate, if the project has it.
fn module_file(files: &Files<'_>, krate: &str, module: &[String]) -> Option<String> {
    let src = match krate {
        "" => "src".to_string(),
        k => format!("{k}/src"),
    };
    if module.is_empty() {
        return ["lib.rs", "main.rs"]
            .iter()
            .map(|f| format!("{src}/{f}"))
            .find(|p| files.has(p));
    }
    let joined = module.join("/");
    [
        format!("{src}/{joined}.rs"),
        format!("{src}/{joined}/mod.rs"),
    ]
    .into_iter()
    .find(|p| files.has(p))
}

/// The names a `use` tree binds, under `prefix`.
fn uses(text: &str, rope: &Rope, node: Node<'_>, prefix: &[String], file: &mut TagsFile) {
    let names = |n: Node<'_>| -> Vec<String> {
        text[n.byte_range()]
            .split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let joined = |rest: Vec<String>| -> Vec<String> {
        let mut all = prefix.to_vec();
        all.extend(rest);
        all
    };
    match node.kind() {
        "identifier" | "scoped_identifier" | "crate" | "super" | "self" => {
            let path = joined(names(node));
            let Some(last) = path.last().cloned() else {
                return;
            };
            // `use a::{self}` binds `a`
            let (path, local) = if last == "self" && path.len() > 1 {
                let p = path[..path.len() - 1].to_vec();
                let l = p.last().cloned().unwrap_or_default();
                (p, l)
            } else {
                (path, last.clone())
            };
            file.imports.push(Import {
                imported: Imported::Name(local.clone()),
                local,
                source: path.join("::"),
                kind: ImportKind::Static,
            });
            if let Some(name) = last_name(node).filter(|n| &text[n.byte_range()] != "self") {
                let i = file.imports.len() - 1;
                file.refs.push(import_ref(rope, text, name, i));
            }
        }
        "use_as_clause" => {
            let (Some(path_node), Some(alias)) = (
                node.child_by_field_name("path"),
                node.child_by_field_name("alias"),
            ) else {
                return;
            };
            let path = joined(names(path_node));
            let Some(last) = path.last().cloned() else {
                return;
            };
            file.imports.push(Import {
                local: text[alias.byte_range()].to_string(),
                imported: Imported::Name(last),
                source: path.join("::"),
                kind: ImportKind::Static,
            });
            if let Some(name) = last_name(path_node) {
                let i = file.imports.len() - 1;
                file.refs.push(import_ref(rope, text, name, i));
            }
        }
        "use_wildcard" => {
            let mut c = node.walk();
            let path = node
                .named_children(&mut c)
                .next()
                .map(|p| joined(names(p)))
                .unwrap_or_else(|| prefix.to_vec());
            file.imports.push(Import {
                local: "*".into(),
                imported: Imported::All,
                source: path.join("::"),
                kind: ImportKind::Static,
            });
        }
        "scoped_use_list" => {
            let inner = node
                .child_by_field_name("path")
                .map(|p| joined(names(p)))
                .unwrap_or_else(|| prefix.to_vec());
            if let Some(list) = node.child_by_field_name("list") {
                uses(text, rope, list, &inner, file);
            }
        }
        "use_list" => {
            let mut c = node.walk();
            for item in node.named_children(&mut c) {
                uses(text, rope, item, prefix, file);
            }
        }
        _ => {}
    }
}

/// The `mod m { … }` blocks under `node`, by qualified name (`a.b`).
fn inline_modules(text: &str, rope: &Rope, node: Node<'_>, prefix: &str, file: &mut TagsFile) {
    let mut c = node.walk();
    for item in node.named_children(&mut c) {
        let (Some(name), Some(body)) = (
            item.child_by_field_name("name"),
            item.child_by_field_name("body"),
        ) else {
            continue;
        };
        if item.kind() != "mod_item" {
            continue;
        }
        let qualified = match prefix {
            "" => text[name.byte_range()].to_string(),
            p => format!("{p}.{}", &text[name.byte_range()]),
        };
        let chars = byte_to_char(rope, body.start_byte())..byte_to_char(rope, body.end_byte());
        file.inline_modules.push((qualified.clone(), chars));
        inline_modules(text, rope, body, &qualified, file);
    }
}

/// The last name of a path: a use of what it names.
fn last_name(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "identifier" => Some(node),
        "scoped_identifier" => node.child_by_field_name("name"),
        _ => None,
    }
}
