//! Rust: a crate is the directory of the nearest `Cargo.toml` above a
//! file; its modules are files as `mod` finds them (`src/lib.rs` or
//! `src/main.rs` the root, `src/a.rs` or `src/a/mod.rs` module `a`,
//! `src/a/b.rs` module `a::b`). A `use` binds a name from a path —
//! `crate::`, `super::`, `self::`, a module the file's module declares —,
//! a module or an item, renamed (`as`) or every one (`*`); paths in code
//! (`a::f()`, `Type::new()`, `Self::m()`) are resolved alike. A `mod m {
//! … }` block is a module too (`crate::m::f`, `use self::m::f`): its
//! items' uses through paths from outside it are resolved, and inside it
//! a name is its own item or what its own `use` declarations bind
//! (`use super::*` in `mod tests` brings the file's items and imports);
//! a path inside it is read from the block ([`rebase`]).
//! Macros and other crates are not followed: their names are possible.

use tree_sitter::Node;

use super::family::{joined, Bound, Family, Files, ModuleKey, Source, TypedKinds};
use compact_str::{format_compact, CompactString};

use super::scan::{
    import_ref, Declared, DeclaredKind, Import, ImportKind, Imported, Qualifier, TagsFile, Typed,
};
use crate::analysis::outline::SymbolKind;
use crate::analysis::syntax::{byte_to_char, LineTable};

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

    fn read_module(&self, text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
        let mut cursor = root.walk();
        for node in root.named_children(&mut cursor) {
            if node.kind() == "use_declaration" {
                if let Some(argument) = node.child_by_field_name("argument") {
                    uses(text, lines, argument, &[], file);
                }
            }
        }
        inline_modules(text, lines, root, "", file);
        local_uses(text, lines, root, file);
        macro_paths(text, lines, &super::macros::token_trees(text, root), file);
        path_heads(text, lines, file);
        impl_facts(text, lines, root, file);
    }

    fn names_in_strings(&self, text: &str, root: Node<'_>) -> Vec<std::ops::Range<usize>> {
        super::macros::format_names(text, root)
    }

    fn typed_kinds(&self) -> TypedKinds {
        TypedKinds {
            nodes: &[
                "parameter",
                "let_declaration",
                "for_expression",
                "tuple_struct_pattern",
                "struct_pattern",
                "closure_parameters",
            ],
            functions: &["function_item", "closure_expression"],
            // a `let` binds to the end of its block
            classes: &["block"],
        }
    }

    fn read_typed(
        &self,
        text: &str,
        lines: &LineTable<'_>,
        node: Node<'_>,
        function: Node<'_>,
        block: Node<'_>,
        file: &mut TagsFile,
    ) {
        typed_name(text, lines, node, function, block, file)
    }

    fn qualifier(&self, text: &str, object: Node<'_>) -> Qualifier {
        match object.kind() {
            "self" => Qualifier::This,
            "identifier" => Qualifier::Name(text[object.byte_range()].into()),
            _ => match chain(text, object) {
                Some(expression) => Qualifier::Expression(expression),
                None => Qualifier::Other,
            },
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
                    .enumerate()
                    .find(|(i, import)| {
                        import.local == name
                            && import.imported != Imported::All
                            && !binds_in_part(file, *i)
                    })
                    .map(|(_, import)| import)
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
                } else if let Some(library) =
                    own_library(files, from, name).or_else(|| dependency_library(files, from, name))
                {
                    // an integration test, example or binary naming its
                    // package's library (`ropey::Rope` in `tests/`), or a
                    // crate naming another of the project it depends on by
                    // path (`shop_core::Cart` with `shop-core = { path =
                    // "../core" }`)
                    let mut through = vec!["crate".to_string()];
                    through.extend(rest.iter().cloned());
                    let scanned = files.scanned(&library)?;
                    return self.resolve_path(files, &library, scanned, &through);
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

    fn label(&self, path: &str, _package: Option<&str>) -> String {
        // the module path under the crate's source root, by the path
        // alone, after the crate's directory when it is not the
        // project's root (a workspace's crates: `regex_syntax.escape`
        // and `regex.escape`, not two `escape`)
        let (krate, rel) = match path.rsplit_once("src/") {
            Some((dir, rel)) if dir.is_empty() || dir.ends_with('/') => {
                (dir.trim_end_matches('/'), rel)
            }
            _ => ("", path),
        };
        let stem = rel.strip_suffix(".rs").unwrap_or(rel);
        let stem = stem.strip_suffix("/mod").unwrap_or(stem);
        let module = match stem {
            "lib" | "main" => "",
            s => s,
        };
        [krate, module]
            .iter()
            .filter(|part| !part.is_empty())
            .map(|part| part.replace('/', ".").replace('-', "_"))
            .collect::<Vec<_>>()
            .join(".")
    }

    fn bound(&self, files: &Files<'_>, from: &str, file: &TagsFile, import: &Import) -> Bound {
        let path: Vec<String> = import.source.split("::").map(str::to_string).collect();
        match self.resolve_path(files, from, file, &path) {
            Some((module, None)) => Bound::Module(module),
            Some((module, Some(item))) if import.imported != Imported::All => {
                Bound::Item(module, item)
            }
            // `use Kind::*`: an enum's variants, no module-level item
            Some((module, Some(item))) if self.defines_type(files, &module, &item) => {
                Bound::Item(module, item)
            }
            _ => Bound::Unknown,
        }
    }
}

impl Rust {
    /// Whether a file of `module` declares the type `name` (an enum whose
    /// variants a glob imports).
    fn defines_type(&self, files: &Files<'_>, module: &ModuleKey, name: &str) -> bool {
        self.module_files(files, module).iter().any(|path| {
            files.scanned(path).is_some_and(|file| {
                file.defs
                    .iter()
                    .any(|d| d.name == name && d.kind == SymbolKind::Class)
            })
        })
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

/// The directory of the package a file is in: the nearest with a
/// `Cargo.toml`; in a tree with none, the directory above the innermost
/// `src/` around the file that holds a `main.rs` or a `lib.rs` (a crate
/// laid out as Cargo lays one out, its manifest outside the project: its
/// `mod` files are its modules, not crates of their own).
fn package_dir<'p>(files: &Files<'_>, path: &'p str) -> Option<&'p str> {
    let mut dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    loop {
        if files.manifest(&manifest_in(dir)).is_some() {
            return Some(dir);
        }
        match dir.rsplit_once('/') {
            Some((up, _)) => dir = up,
            None if !dir.is_empty() => dir = "",
            None => break,
        }
    }
    let sources = path.match_indices("src/").map(|(i, _)| i);
    let root = sources
        .filter(|&i| i == 0 || path.as_bytes()[i - 1] == b'/')
        .filter(|&i| {
            ["main.rs", "lib.rs"]
                .iter()
                .any(|f| files.has(&format!("{}{f}", &path[..i + 4])))
        })
        .last()?;
    Some(path[..root].trim_end_matches('/'))
}

fn manifest_in(dir: &str) -> String {
    match dir {
        "" => "Cargo.toml".to_string(),
        d => format!("{d}/Cargo.toml"),
    }
}

/// A package's library as its other crates name it: `[lib] name`, else
/// the package's name with `-` as `_`; and its root file (`[lib] path`,
/// else `src/lib.rs`).
#[derive(Debug, Default)]
struct Library {
    name: Option<String>,
    root: String,
}

/// The library of the package in `dir` (read once per state of its
/// manifest).
fn library(files: &Files<'_>, dir: &str) -> std::sync::Arc<Library> {
    let manifest = manifest_in(dir);
    files.memo().parsed(&manifest, || {
        let Some(table) = manifest_table(files, &manifest) else {
            return Library::default();
        };
        let field = |section: &str, key: &str| {
            table
                .get(section)
                .and_then(|s| s.get(key))
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let root = field("lib", "path").unwrap_or_else(|| "src/lib.rs".to_string());
        Library {
            name: field("lib", "name")
                .or_else(|| field("package", "name"))
                .map(|n| n.replace('-', "_")),
            root: match dir {
                "" => root,
                d => format!("{d}/{root}"),
            },
        }
    })
}

fn manifest_table(files: &Files<'_>, manifest: &str) -> Option<toml::Table> {
    files.manifest(manifest)?.parse::<toml::Table>().ok()
}

/// The root file of the library `name` of the package `from` is in, when
/// `from` is one of the package's other crates (a test, an example, a
/// benchmark, a binary) and the project has that file.
fn own_library(files: &Files<'_>, from: &str, name: &str) -> Option<String> {
    let dir = package_dir(files, from)?;
    let library = library(files, dir);
    let in_library = module_key(files, from)
        .split_once('|')
        .is_some_and(|(krate, _)| krate == dir)
        && !from.ends_with("src/main.rs");
    (library.name.as_deref() == Some(name) && !in_library && files.has(&library.root))
        .then(|| library.root.clone())
}

/// The root file of the library that the package of `from` names `name`
/// and depends on by path — `shop-core = { path = "../core" }`, or `{
/// workspace = true }` with a path in the workspace's
/// `[workspace.dependencies]` —, when the project has it: another crate
/// of the project, whose items its code reaches as `crate::` does there.
/// (A dependency by version, or under `[target.….dependencies]`, is not
/// read: its names stay possible.)
fn dependency_library(files: &Files<'_>, from: &str, name: &str) -> Option<String> {
    let dir = package_dir(files, from)?;
    let key = format!("{}#path-dependencies", manifest_in(dir));
    let dependencies = files.memo().parsed(&key, || path_dependencies(files, dir));
    let (_, root) = dependencies.iter().find(|(n, _)| n == name)?;
    files.has(root).then(|| root.clone())
}

/// The libraries the package in `dir` depends on by path, each by the
/// name its code gives it: the dependency's key when it renames a
/// package (`package = "…"`), else the library's own name.
fn path_dependencies(files: &Files<'_>, dir: &str) -> Vec<(String, String)> {
    let Some(table) = manifest_table(files, &manifest_in(dir)) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(dependencies) = table.get(section).and_then(|d| d.as_table()) else {
            continue;
        };
        for (key, spec) in dependencies {
            let Some(spec) = spec.as_table() else {
                continue;
            };
            let from_workspace = spec.get("workspace").and_then(|w| w.as_bool()) == Some(true);
            // (the workspace's entry says where, and whether it renames)
            let (path, renamed) = match spec.get("path").and_then(|p| p.as_str()) {
                Some(path) => (joined(dir, path), spec.get("package").is_some()),
                None if from_workspace => match workspace_dependency(files, dir, key) {
                    Some((path, renamed)) => (Some(path), renamed),
                    None => (None, false),
                },
                None => (None, false),
            };
            let Some(path) = path else {
                continue;
            };
            let library = library(files, &path);
            let name = match renamed {
                true => Some(key.replace('-', "_")),
                false => library.name.clone(),
            };
            if let Some(name) = name {
                found.push((name, library.root.clone()));
            }
        }
    }
    found
}

/// The workspace around the package in `dir`: the nearest directory above
/// it whose manifest has a `[workspace]`, with that manifest.
fn workspace_of(files: &Files<'_>, dir: &str) -> Option<(String, toml::Table)> {
    let mut at = dir;
    loop {
        at = match at.rsplit_once('/') {
            Some((up, _)) => up,
            None if !at.is_empty() => "",
            None => return None,
        };
        if let Some(table) = manifest_table(files, &manifest_in(at)) {
            if table.contains_key("workspace") {
                return Some((at.to_string(), table));
            }
        }
    }
}

/// The path of `[workspace.dependencies]`' `key`, from the project's
/// root, and whether that entry renames a package (`package = …`).
fn workspace_dependency(files: &Files<'_>, dir: &str, key: &str) -> Option<(String, bool)> {
    let (root, table) = workspace_of(files, dir)?;
    let spec = table.get("workspace")?.get("dependencies")?.get(key)?;
    let path = joined(&root, spec.get("path")?.as_str()?)?;
    Some((path, spec.get("package").is_some()))
}

/// `crate directory|a::b` for a file of module `a::b`; a file outside a
/// crate's `src/` (a test, an example, a build script) is a crate root
/// of its own.
fn module_key(files: &Files<'_>, path: &str) -> ModuleKey {
    let krate = package_dir(files, path);
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
fn uses(text: &str, lines: &LineTable<'_>, node: Node<'_>, prefix: &[String], file: &mut TagsFile) {
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
                file.refs.push(import_ref(lines, text, name, i));
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
                file.refs.push(import_ref(lines, text, name, i));
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
                uses(text, lines, list, &inner, file);
            }
        }
        "use_list" => {
            let mut c = node.walk();
            for item in node.named_children(&mut c) {
                uses(text, lines, item, prefix, file);
            }
        }
        _ => {}
    }
}

/// The `mod m { … }` blocks under `node`, by qualified name (`a.b`).
fn inline_modules(
    text: &str,
    lines: &LineTable<'_>,
    node: Node<'_>,
    prefix: &str,
    file: &mut TagsFile,
) {
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
        let chars = byte_to_char(lines, body.start_byte())..byte_to_char(lines, body.end_byte());
        file.inline_modules.push((qualified.clone(), chars));
        block_uses(text, lines, body, &qualified, file);
        inline_modules(text, lines, body, &qualified, file);
    }
}

/// The `use` declarations of the `mod` block `block` (its body `body`):
/// imports that bind in the block alone, their paths rebased to the
/// file's module; the names they spell are read with them, not as uses
/// of paths from the block.
fn block_uses(text: &str, lines: &LineTable<'_>, body: Node<'_>, block: &str, file: &mut TagsFile) {
    let mut c = body.walk();
    let items: Vec<Node<'_>> = body.named_children(&mut c).collect();
    let declared: Vec<&str> = items
        .iter()
        .filter_map(|item| item.child_by_field_name("name"))
        .map(|name| &text[name.byte_range()])
        .collect();
    for declaration in items.iter().filter(|n| n.kind() == "use_declaration") {
        let Some(argument) = declaration.child_by_field_name("argument") else {
            continue;
        };
        // what the index query took of it as uses of paths
        let chars = byte_to_char(lines, declaration.start_byte())
            ..byte_to_char(lines, declaration.end_byte());
        file.refs.retain(|r| !chars.contains(&r.offset));
        let first = file.imports.len();
        uses(text, lines, argument, &[], file);
        for i in first..file.imports.len() {
            let path: Vec<String> = file.imports[i]
                .source
                .split("::")
                .map(str::to_string)
                .collect();
            file.imports[i].source =
                rebase(&path, block, |n| declared.contains(&n), |_| None).join("::");
            file.block_imports.push((i, block.to_string()));
        }
    }
}

/// The `use` declarations in functions' blocks (`fn f() { use
/// crate::g; … }`): imports that bind in their block alone, their paths
/// rebased to the file's module. Found where the text spells `use`.
fn local_uses(text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
    let word = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices("use") {
        if (at > 0 && word(bytes.get(at - 1)))
            || !bytes.get(at + 3).is_some_and(u8::is_ascii_whitespace)
        {
            continue;
        }
        let declaration = root
            .descendant_for_byte_range(at, at + 3)
            .filter(|keyword| keyword.kind() == "use")
            .and_then(|keyword| keyword.parent())
            .filter(|d| d.kind() == "use_declaration");
        let Some(declaration) = declaration else {
            continue;
        };
        let (Some(block), Some(argument)) = (
            declaration.parent().filter(|b| b.kind() == "block"),
            declaration.child_by_field_name("argument"),
        ) else {
            continue;
        };
        let chars =
            |n: Node<'_>| byte_to_char(lines, n.start_byte())..byte_to_char(lines, n.end_byte());
        let (own, scope) = (chars(declaration), chars(block));
        // what the index query took of it as uses of paths
        file.refs.retain(|r| !own.contains(&r.offset));
        let module = super::resolve::inline_at(file, own.start).map(str::to_string);
        let first = file.imports.len();
        uses(text, lines, argument, &[], file);
        for i in first..file.imports.len() {
            if let Some(block) = &module {
                let path: Vec<String> = file.imports[i]
                    .source
                    .split("::")
                    .map(str::to_string)
                    .collect();
                let rebased = rebase(&path, block, |n| declares(file, block, n), |_| None);
                file.imports[i].source = rebased.join("::");
            }
            file.scoped_imports.push((i, scope.clone()));
        }
    }
}

/// What a `let` or a parameter declares with a type, and where it is
/// visible: a parameter (`r: &Rope`) in its function; a `let` with a type
/// (`let r: Rope`) or of a struct literal (`let r = Rope { … }`) from the
/// `let` to the end of its block (of another value, [`let_expression`]:
/// `let r = Rope::new()` is what `new` returns). `&`, `&mut`, `Box`, `Rc` and `Arc` reach the type (a
/// method call dereferences them); other generics do not.
fn typed_name(
    text: &str,
    lines: &LineTable<'_>,
    node: Node<'_>,
    function: Node<'_>,
    block: Node<'_>,
    file: &mut TagsFile,
) {
    let chars = |from: usize, to: usize| byte_to_char(lines, from)..byte_to_char(lines, to);
    match node.kind() {
        "for_expression" => return loop_element(text, node, chars, file),
        "tuple_struct_pattern" | "struct_pattern" => {
            return pattern_fields(text, lines, node, file)
        }
        "closure_parameters" => return closure_elements(text, lines, node, file),
        _ => {}
    }
    let (name, type_name, scope) = match node.kind() {
        "parameter" => (
            node.child_by_field_name("pattern"),
            node.child_by_field_name("type")
                .and_then(|t| type_of(text, t).or_else(|| container_type(text, t))),
            chars(function.start_byte(), function.end_byte()),
        ),
        "let_declaration" => {
            let declared = node.child_by_field_name("type");
            let value = node.child_by_field_name("value");
            let built = value.and_then(|v| literal_type(text, v));
            if let (None, None, Some(value)) = (declared, &built, value) {
                // `let s = r.slice(..)`: the type of the expression
                let_expression(
                    text,
                    node,
                    value,
                    chars(node.start_byte(), block.end_byte()),
                    file,
                );
                return;
            }
            (
                node.child_by_field_name("pattern"),
                declared
                    .and_then(|t| type_of(text, t).or_else(|| container_type(text, t)))
                    .or(built),
                chars(node.start_byte(), block.end_byte()),
            )
        }
        _ => return,
    };
    let (Some(name), Some(mut type_name)) = (name.filter(|n| n.kind() == "identifier"), type_name)
    else {
        return;
    };
    if type_name == "Self" {
        // the type of the `impl` around it; in a trait, any implementor
        let Some(own) = impl_type(text, function) else {
            return;
        };
        type_name = own;
    }
    file.typed.push(Typed {
        name: text[name.byte_range()].to_string(),
        type_name,
        scope,
        // (the local binding it is: a closer one hides it)
        at: Some(byte_to_char(lines, name.start_byte())),
        inferred: false,
    });
}

/// A `let x = e` without a type, of an expression the query may type
/// ([`chain`]: a method's result, a field, an element), inferred when a
/// query runs.
fn let_expression(
    text: &str,
    node: Node<'_>,
    value: Node<'_>,
    scope: std::ops::Range<usize>,
    file: &mut TagsFile,
) {
    let Some(pattern) = node.child_by_field_name("pattern") else {
        return;
    };
    // (a bare name or `self` is the value itself: no member read)
    let Some(expression) = chain(text, value).filter(|c| c.contains(['.', '[', '('])) else {
        return;
    };
    let mut bind = |name: Node<'_>, type_name: String| {
        let at = scope.start + text[node.start_byte()..name.start_byte()].chars().count();
        file.typed.push(Typed {
            name: text[name.byte_range()].to_string(),
            type_name,
            scope: scope.clone(),
            at: Some(at),
            inferred: true,
        });
    };
    match pattern.kind() {
        "identifier" => bind(pattern, expression.to_string()),
        // `let (a, b) = e`: `a` is `e.0` (a name after `..` is not read)
        "tuple_pattern" => {
            let mut c = pattern.walk();
            for (i, element) in pattern.named_children(&mut c).enumerate() {
                if element.kind() == "remaining_field_pattern" {
                    break;
                }
                if let Some(name) = bound_name(element) {
                    bind(name, format!("{expression}.{i}"));
                }
            }
        }
        _ => {}
    }
}

/// A `for x in e` loop's variable, of the type of an element of `e`
/// (`e[]`, inferred when a query runs; `e.iter()`, `e.iter_mut()` and
/// `e.into_iter()` iterate `e`'s elements too), in the loop's body.
fn loop_element(
    text: &str,
    node: Node<'_>,
    chars: impl Fn(usize, usize) -> std::ops::Range<usize>,
    file: &mut TagsFile,
) {
    let (Some(name), Some(value), Some(body)) = (
        node.child_by_field_name("pattern")
            .filter(|p| p.kind() == "identifier"),
        node.child_by_field_name("value"),
        node.child_by_field_name("body"),
    ) else {
        return;
    };
    let Some(iterated) = chain(text, value) else {
        return;
    };
    let iterated = [".iter()", ".iter_mut()", ".into_iter()"]
        .iter()
        .find_map(|call| iterated.strip_suffix(call))
        .unwrap_or(&iterated);
    file.typed.push(Typed {
        name: text[name.byte_range()].to_string(),
        type_name: format!("{iterated}[]"),
        scope: chars(body.start_byte(), body.end_byte()),
        at: Some(chars(name.start_byte(), name.start_byte()).start),
        inferred: true,
    });
}

/// The untyped parameters of a closure passed first to a method
/// (`v.iter().map(|n| …)`, `v.retain(|n| …)`, `m.retain(|k, v| …)`), each
/// of what the method gives its closure's parameter at that place: the
/// compact expression `v.iter().map(|0|)`, inferred when a query runs (a
/// standard container's item, element or value, else unknown). Visible in
/// the closure.
fn closure_elements(text: &str, lines: &LineTable<'_>, node: Node<'_>, file: &mut TagsFile) {
    let Some(closure) = node.parent().filter(|c| c.kind() == "closure_expression") else {
        return;
    };
    let Some(arguments) = closure.parent().filter(|a| a.kind() == "arguments") else {
        return;
    };
    let mut c = arguments.walk();
    let first = arguments
        .named_children(&mut c)
        .find(|a| !a.kind().ends_with("comment"));
    if first.map(|a| a.id()) != Some(closure.id()) {
        return;
    }
    let Some(method) = arguments
        .parent()
        .filter(|call| call.kind() == "call_expression")
        .and_then(|call| call.child_by_field_name("function"))
        .filter(|f| f.kind() == "field_expression")
    else {
        return;
    };
    let (Some(receiver), Some(name)) = (
        method
            .child_by_field_name("value")
            .and_then(|v| chain(text, v)),
        method.child_by_field_name("field"),
    ) else {
        return;
    };
    let scope = byte_to_char(lines, closure.start_byte())..byte_to_char(lines, closure.end_byte());
    let mut c = node.walk();
    let parameters = node
        .named_children(&mut c)
        .filter(|p| !p.kind().ends_with("comment"));
    for (i, parameter) in parameters.enumerate() {
        // (a typed one is a `parameter`, read as a function's)
        if let Some(bound) = bound_name(parameter) {
            file.typed.push(Typed {
                name: text[bound.byte_range()].to_string(),
                type_name: format!("{receiver}.{}(|{i}|)", &text[name.byte_range()]),
                scope: scope.clone(),
                at: Some(byte_to_char(lines, bound.start_byte())),
                inferred: true,
            });
        }
    }
}

/// The names a struct's or an enum variant's pattern binds to its fields
/// (`Node::Leaf(ref text)`, `Span { start, .. }`, `Self::V(x)`), each of
/// the type the field is declared with: the compact expression
/// `Node::Leaf{}.0` (a value the variant's pattern matched, then its field
/// `0`), inferred when a query runs. Visible in the arm, `if`, `while`,
/// loop, closure, function or block around the pattern, where no closer
/// binding hides it. A name after `..` in a tuple's pattern, and a
/// pattern whose path is generic or longer than `E::V`, are not read.
fn pattern_fields(text: &str, lines: &LineTable<'_>, node: Node<'_>, file: &mut TagsFile) {
    let Some(path) = node.child_by_field_name("type") else {
        return;
    };
    let value = match path.kind() {
        "identifier" | "type_identifier" => text[path.byte_range()].to_string(),
        "scoped_identifier" | "scoped_type_identifier" => {
            let (Some(owner), Some(variant)) = (
                path.child_by_field_name("path")
                    .filter(|p| matches!(p.kind(), "identifier" | "type_identifier" | "self")),
                path.child_by_field_name("name"),
            ) else {
                return;
            };
            let owner = match &text[owner.byte_range()] {
                "Self" => match impl_type(text, node) {
                    Some(own) => own,
                    None => return,
                },
                owner => owner.to_string(),
            };
            format!("{owner}::{}", &text[variant.byte_range()])
        }
        _ => return,
    };
    let Some(scope) = binding_scope(node) else {
        return;
    };
    let scope = byte_to_char(lines, scope.start_byte())..byte_to_char(lines, scope.end_byte());
    // `Some(x)`, `Ok(x)` matching a compact expression: `x` is what its
    // `unwrap()` makes (`if let Some(s) = &self.opt`); `Err(e)`'s type is
    // not read
    if matches!(value.as_str(), "Some" | "Ok" | "Err") {
        let matched = (value != "Err").then(|| scrutinee(node)).flatten();
        let mut c = node.walk();
        let mut elements = node.named_children(&mut c).filter(|n| n.id() != path.id());
        let (Some(matched), Some(only), None) = (matched, elements.next(), elements.next()) else {
            return;
        };
        if let (Some(name), Some(matched)) = (bound_name(only), chain(text, matched)) {
            file.typed.push(Typed {
                name: text[name.byte_range()].to_string(),
                type_name: format!("{matched}.unwrap()"),
                scope: scope.clone(),
                at: Some(byte_to_char(lines, name.start_byte())),
                inferred: true,
            });
        }
        return;
    }
    let mut bind = |name: Node<'_>, field: &str| {
        file.typed.push(Typed {
            name: text[name.byte_range()].to_string(),
            type_name: format!("{value}{{}}.{field}"),
            scope: scope.clone(),
            at: Some(byte_to_char(lines, name.start_byte())),
            inferred: true,
        });
    };
    let mut c = node.walk();
    if node.kind() == "tuple_struct_pattern" {
        let elements = node.named_children(&mut c).filter(|n| {
            n.id() != path.id() && n.kind() != "line_comment" && n.kind() != "block_comment"
        });
        for (i, element) in elements.enumerate() {
            if element.kind() == "remaining_field_pattern" {
                break;
            }
            if let Some(name) = bound_name(element) {
                bind(name, &i.to_string());
            }
        }
        return;
    }
    for field in node
        .named_children(&mut c)
        .filter(|n| n.kind() == "field_pattern")
    {
        let Some(name) = field.child_by_field_name("name") else {
            continue;
        };
        let bound = match name.kind() {
            "shorthand_field_identifier" => Some(name),
            _ => field.child_by_field_name("pattern").and_then(bound_name),
        };
        if let Some(bound) = bound {
            bind(bound, &text[name.byte_range()]);
        }
    }
}

/// The value a whole pattern is matched against: an `if let`'s or a
/// `while let`'s, a `let … else`'s, a `match`'s (the pattern of an arm).
fn scrutinee(pattern: Node<'_>) -> Option<Node<'_>> {
    let parent = pattern.parent()?;
    match parent.kind() {
        "let_condition" | "let_declaration" => parent
            .child_by_field_name("value")
            .filter(|_| parent.child_by_field_name("pattern") == Some(pattern)),
        "match_pattern" => {
            let arm = parent.parent().filter(|a| a.kind() == "match_arm")?;
            let block = arm.parent().filter(|b| b.kind() == "match_block")?;
            block.parent()?.child_by_field_name("value")
        }
        _ => None,
    }
}

/// The name a pattern binds as a whole: `x`, `ref x`, `mut x`, `ref mut
/// x`, `&x` (a reference's target: the same members).
fn bound_name(pattern: Node<'_>) -> Option<Node<'_>> {
    match pattern.kind() {
        "identifier" => Some(pattern),
        "ref_pattern" | "mut_pattern" | "reference_pattern" => {
            let mut c = pattern.walk();
            let inner = pattern
                .named_children(&mut c)
                .find(|n| n.kind() != "mutable_specifier");
            inner.and_then(bound_name)
        }
        _ => None,
    }
}

/// The node a pattern's names are bound in: the nearest match arm, `if`,
/// `while`, `for`, closure, function or block around it.
fn binding_scope(pattern: Node<'_>) -> Option<Node<'_>> {
    let mut around = pattern.parent();
    while let Some(n) = around {
        if matches!(
            n.kind(),
            "match_arm"
                | "if_expression"
                | "while_expression"
                | "for_expression"
                | "closure_expression"
                | "function_item"
                | "block"
        ) {
            return Some(n);
        }
        around = n.parent();
    }
    None
}

/// The type an `impl` block around `node` is for (`Point` of `impl<T>
/// Display for Point<T>`); `None` outside one (a trait's body).
fn impl_type(text: &str, node: Node<'_>) -> Option<String> {
    let mut around = node.parent();
    while let Some(n) = around {
        match n.kind() {
            "impl_item" => {
                let own = n.child_by_field_name("type")?;
                // `impl<T> … for Point<T>`: Point
                let own = match own.kind() {
                    "generic_type" => own.child_by_field_name("type")?,
                    _ => own,
                };
                return type_of(text, own);
            }
            "trait_item" => return None,
            _ => around = n.parent(),
        }
    }
    None
}

/// What the file's items say of its types: the associated functions that
/// return their own type (`T::f`, for [`typed_name`]'s values), what
/// each function of an inherent `impl` returns, its structs' fields, its
/// type aliases, and the bodies of traits (where `self` is any type that
/// implements it).
fn impl_facts(text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
    let items = module_items(root);
    file.constructors = impl_results(text, &items, file);
    fields(text, &items, file);
    function_results(text, &items, file);
    dereferencing(text, &items, file);
    file.inheriting.extend(
        items
            .iter()
            .filter(|item| item.kind() == "trait_item")
            .filter_map(|item| item.child_by_field_name("body"))
            .map(|body| {
                byte_to_char(lines, body.start_byte())..byte_to_char(lines, body.end_byte())
            }),
    );
}

/// What each non-generic function among `items` (at module level, or in
/// a `mod` block) returns when that is a type's name or holds one, as
/// written ([`DeclaredKind::Returns`] without an owner): `props(p).m()`.
fn function_results(text: &str, items: &[Node<'_>], file: &mut TagsFile) {
    for function in items.iter().filter(|i| i.kind() == "function_item") {
        if function.child_by_field_name("type_parameters").is_some() {
            continue;
        }
        let (Some(name), Some(returns)) = (
            function.child_by_field_name("name"),
            function.child_by_field_name("return_type"),
        ) else {
            continue;
        };
        // (`Self` names no type outside an `impl`)
        let result = type_of(text, returns).or_else(|| holding(text, returns, "Self", None));
        if let Some(result) = result.filter(|t| t != "Self") {
            file.declared.push(Declared {
                owner: None,
                name: text[name.byte_range()].into(),
                type_text: result.into(),
                kind: DeclaredKind::Returns,
            });
        }
    }
}

/// The types among `items` that implement `Deref` (or `DerefMut`): a
/// method call through one reaches the target's methods it does not
/// declare itself ([`DeclaredKind::Embedded`], named `*`).
fn dereferencing(text: &str, items: &[Node<'_>], file: &mut TagsFile) {
    for item in items.iter().filter(|i| i.kind() == "impl_item") {
        let derefs = item.child_by_field_name("trait").is_some_and(|t| {
            let name = &text[t.byte_range()];
            let name = name.rsplit("::").next().unwrap_or(name);
            matches!(name, "Deref" | "DerefMut")
        });
        let owner = item
            .child_by_field_name("type")
            .and_then(|t| match t.kind() {
                "generic_type" => t.child_by_field_name("type"),
                _ => Some(t),
            });
        if let (true, Some(owner)) = (derefs, owner) {
            let owner = &text[owner.byte_range()];
            file.declared.push(Declared {
                owner: Some(owner.rsplit("::").next().unwrap_or(owner).into()),
                name: "*".into(),
                type_text: CompactString::default(),
                kind: DeclaredKind::Embedded,
            });
        }
    }
}

/// The type a type node names, through references and owning pointers.
fn type_of(text: &str, node: Node<'_>) -> Option<String> {
    match node.kind() {
        // (a primitive's members are no type's of the crate)
        "type_identifier" | "primitive_type" => Some(text[node.byte_range()].to_string()),
        // `ast::Span`, `crate::hir::Hir`: a module's type (`Self::Item`,
        // a generic path's are not read)
        "scoped_type_identifier" => {
            let path = &text[node.byte_range()];
            let word = |w: &str| {
                !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            };
            (path.split("::").all(word) && !path.starts_with("Self::")).then(|| path.to_string())
        }
        "reference_type" => type_of(text, node.child_by_field_name("type")?),
        "generic_type" => {
            let outer = node.child_by_field_name("type")?;
            let arguments = node.child_by_field_name("type_arguments")?;
            // `RopeSlice<'a>`: lifetimes do not change the type's members
            if only_lifetimes(arguments) {
                return type_of(text, outer);
            }
            let outer = &text[outer.byte_range()];
            let only = (arguments.named_child_count() == 1)
                .then(|| arguments.named_child(0))
                .flatten()?;
            matches!(outer, "Box" | "Rc" | "Arc").then(|| type_of(text, only))?
        }
        _ => None,
    }
}

/// A standard container's type as written (its spaces collapsed), for a
/// value declared with it: `Vec<T>`, `VecDeque<T>`, `Option<T>`,
/// `Result<T, E>`, `HashMap<K, V>`, `BTreeMap<K, V>`, a slice, an array,
/// through references, `Box`, `Rc` and `Arc` (the query reads what it
/// holds, and whether the name is the standard library's there).
fn container_type(text: &str, node: Node<'_>) -> Option<String> {
    let written = || {
        Some(
            text[node.byte_range()]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        )
    };
    match node.kind() {
        "reference_type" => container_type(text, node.child_by_field_name("type")?),
        "slice_type" | "array_type" => written(),
        "generic_type" => {
            let outer = &text[node.child_by_field_name("type")?.byte_range()];
            let arguments = node.child_by_field_name("type_arguments")?;
            match outer {
                "Box" | "Rc" | "Arc" if arguments.named_child_count() == 1 => {
                    container_type(text, arguments.named_child(0)?)
                }
                "Vec" | "VecDeque" | "Option" | "Result" | "HashMap" | "BTreeMap" => written(),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a list of generic arguments or parameters has lifetimes
/// alone (`<'a>`, `<'a, 'b: 'a>`).
fn only_lifetimes(list: Node<'_>) -> bool {
    let mut c = list.walk();
    let all = list
        .named_children(&mut c)
        .all(|n| matches!(n.kind(), "lifetime" | "lifetime_parameter"));
    all
}

/// The type a struct literal builds (`Rope { … }`, `ast::Span { … }`).
fn literal_type(text: &str, value: Node<'_>) -> Option<String> {
    match value.kind() {
        "struct_expression" => type_of(text, value.child_by_field_name("name")?),
        _ => None,
    }
}

/// The fields of the structs and enum variants among `items`, with their
/// types as written ([`TagsFile::declared`]; a generic one's type
/// parameters as `?`, a type no query reads: `ranges: Vec<I>` is a
/// `Vec<?>`); and each type alias (`type A = …;`) as a type that reaches
/// another's members ([`DeclaredKind::Embedded`], of the type it names).
fn fields(text: &str, items: &[Node<'_>], file: &mut TagsFile) {
    for alias in items.iter().filter(|i| i.kind() == "type_item") {
        if let Some(name) = alias.child_by_field_name("name") {
            let aliased = alias.child_by_field_name("type");
            file.declared.push(Declared {
                owner: Some(text[name.byte_range()].into()),
                name: CompactString::default(),
                type_text: aliased
                    .map_or_else(CompactString::default, |t| text[t.byte_range()].into()),
                kind: DeclaredKind::Embedded,
            });
        }
    }
    let types = items
        .iter()
        .filter(|i| matches!(i.kind(), "struct_item" | "enum_item"));
    for item in types {
        let (Some(owner), Some(body), Some(parameters)) = (
            item.child_by_field_name("name"),
            item.child_by_field_name("body"),
            type_parameters(text, *item),
        ) else {
            continue;
        };
        let owner = Owner {
            name: text[owner.byte_range()].into(),
            parameters,
        };
        if item.kind() == "struct_item" {
            struct_fields(text, &owner, "", body, file);
            continue;
        }
        // an enum's variants' fields, as `V.0`, `V.name`
        let mut c = body.walk();
        for variant in body.named_children(&mut c) {
            let (Some(name), Some(fields)) = (
                variant.child_by_field_name("name"),
                variant.child_by_field_name("body"),
            ) else {
                continue;
            };
            let prefix = format!("{}.", &text[name.byte_range()]);
            struct_fields(text, &owner, &prefix, fields, file);
        }
    }
}

/// A struct or an enum whose fields are read: its name, and its type
/// parameters' names.
struct Owner {
    name: CompactString,
    parameters: Vec<String>,
}

impl Owner {
    /// A field's type as written, each of the owner's type parameters as
    /// `?` (`Vec<I>` is `Vec<?>`: a `Vec`, of elements of no type a query
    /// reads).
    fn field_type(&self, written: &str) -> CompactString {
        if self.parameters.is_empty() {
            return written.into();
        }
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut blanked = CompactString::default();
        let mut rest = written;
        while let Some(start) = rest.find(word) {
            let end = rest[start..]
                .find(|c| !word(c))
                .map_or(rest.len(), |e| start + e);
            blanked.push_str(&rest[..start]);
            let name = &rest[start..end];
            let parameter = self.parameters.iter().any(|p| p == name);
            blanked.push_str(if parameter { "?" } else { name });
            rest = &rest[end..];
        }
        blanked.push_str(rest);
        blanked
    }
}

/// The names of a struct's or an enum's type parameters (none when it
/// has none, lifetimes aside); `None` when it has another kind (a const
/// parameter, a macro's).
fn type_parameters(text: &str, item: Node<'_>) -> Option<Vec<String>> {
    let Some(list) = item.child_by_field_name("type_parameters") else {
        return Some(Vec::new());
    };
    let mut names = Vec::new();
    let mut c = list.walk();
    for p in list.named_children(&mut c) {
        match p.kind() {
            "lifetime_parameter" | "lifetime" | "attribute_item" => {}
            "type_parameter" => {
                names.push(text[p.child_by_field_name("name")?.byte_range()].to_string())
            }
            _ => return None,
        }
    }
    Some(names)
}

/// The fields of a struct's or a variant's body — named (`{ a: A }`) or
/// by position (`(A, B)`: `0`, `1`) — as the owner's values, each name
/// after `prefix`.
fn struct_fields(text: &str, owner: &Owner, prefix: &str, body: Node<'_>, file: &mut TagsFile) {
    let mut push = |name: &str, t: Node<'_>| {
        file.declared.push(Declared {
            owner: Some(owner.name.clone()),
            name: format_compact!("{prefix}{name}"),
            type_text: owner.field_type(&text[t.byte_range()]),
            kind: DeclaredKind::Value,
        });
    };
    if body.kind() == "ordered_field_declaration_list" {
        let mut c = body.walk();
        for (i, t) in body.children_by_field_name("type", &mut c).enumerate() {
            push(&i.to_string(), t);
        }
        return;
    }
    let mut c = body.walk();
    for field in body.named_children(&mut c) {
        if let (Some(name), Some(t)) = (
            field.child_by_field_name("name"),
            field.child_by_field_name("type"),
        ) {
            push(&text[name.byte_range()], t);
        }
    }
}

/// An expression whose type a query may infer, written compactly: a
/// root — `self`, a name, an associated function's call `T::f()`, a
/// function's call `f()` — then
/// steps `.name` (a field, or a method with `()` after it) and `[]` (an
/// element): `self.items[i].next()` is `self.items[].next()`. A
/// reference, a dereference and parentheses keep the type (a member
/// access dereferences); `e?` is `e.unwrap()`. `None`: another
/// expression (a macro's, a generic call, a literal).
pub(super) fn chain(text: &str, expression: Node<'_>) -> Option<CompactString> {
    let mut steps: Vec<&str> = Vec::new();
    let mut node = expression;
    let root: CompactString = loop {
        match node.kind() {
            "self" | "identifier" => break text[node.byte_range()].into(),
            "field_expression" => {
                let field = node.child_by_field_name("field")?;
                // (`self.0`: a tuple struct's field by position)
                if !matches!(field.kind(), "field_identifier" | "integer_literal") {
                    return None;
                }
                steps.push(&text[field.byte_range()]);
                steps.push(".");
                node = node.child_by_field_name("value")?;
            }
            "call_expression" => {
                let function = node.child_by_field_name("function")?;
                match function.kind() {
                    // (`v.get(1..)` makes a slice, not an element)
                    "field_expression" if ranged_get(text, node, function) => return None,
                    "field_expression" => {
                        steps.push("()");
                        node = function;
                    }
                    // a function of the crate's (`props(p)`)
                    "identifier" => {
                        break compact_str::format_compact!("{}()", &text[function.byte_range()])
                    }
                    "scoped_identifier" => {
                        let owner = function
                            .child_by_field_name("path")
                            .filter(|p| matches!(p.kind(), "identifier" | "type_identifier"))?;
                        let name = function.child_by_field_name("name")?;
                        break compact_str::format_compact!(
                            "{}::{}()",
                            &text[owner.byte_range()],
                            &text[name.byte_range()]
                        );
                    }
                    _ => return None,
                }
            }
            "index_expression" => {
                steps.push("[]");
                node = node.named_child(0)?;
            }
            "reference_expression" => node = node.child_by_field_name("value")?,
            "unary_expression" if text[node.byte_range()].starts_with('*') => {
                node = node.named_child(0)?
            }
            "parenthesized_expression" => node = node.named_child(0)?,
            // `e?`: what `e.unwrap()` makes (an `Option`'s or a `Result`'s)
            "try_expression" => {
                steps.extend(["()", "unwrap", "."]);
                node = node.named_child(0)?;
            }
            _ => return None,
        }
    };
    let mut written = root;
    steps.iter().rev().for_each(|s| written.push_str(s));
    Some(written)
}

/// Whether a call is `x.get(…)` or `x.get_mut(…)` of a range (`1..`,
/// `..=n`): a slice's sub-slice, where the index would read an element.
fn ranged_get(text: &str, call: Node<'_>, function: Node<'_>) -> bool {
    let getter = function
        .child_by_field_name("field")
        .is_some_and(|f| matches!(&text[f.byte_range()], "get" | "get_mut"));
    let ranged = || {
        let arguments = call.child_by_field_name("arguments");
        let mut c = arguments.map(|a| a.walk());
        match (arguments, c.as_mut()) {
            (Some(a), Some(c)) => a.named_children(c).any(|n| n.kind() == "range_expression"),
            _ => false,
        }
    };
    getter && ranged()
}

/// The items at module level: the file's, and its `mod m { … }` blocks'.
fn module_items(root: Node<'_>) -> Vec<Node<'_>> {
    let mut items = Vec::new();
    let mut todo = vec![root];
    while let Some(node) = todo.pop() {
        let mut c = node.walk();
        for item in node.named_children(&mut c) {
            if item.kind() == "mod_item" {
                todo.extend(item.child_by_field_name("body"));
            }
            items.push(item);
        }
    }
    items
}

/// The associated functions of `impl T` blocks among `items` that return
/// `Self` or `T`, as `(T, f)`; and into `file`'s declarations, what each
/// function of them returns when that is a type's name (through `&`,
/// `Box`, `Rc`, `Arc`; `Self` as `T`; not one of its type parameters):
/// [`DeclaredKind::Returns`].
fn impl_results(text: &str, items: &[Node<'_>], file: &mut TagsFile) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let inherent = items
        .iter()
        .filter(|i| i.kind() == "impl_item" && i.child_by_field_name("trait").is_none());
    for item in inherent {
        let (Some(owner), Some(body)) = (
            item.child_by_field_name("type")
                .and_then(|t| type_of(text, t)),
            item.child_by_field_name("body"),
        ) else {
            continue;
        };
        let mut c = body.walk();
        for function in body.named_children(&mut c) {
            let returns = function
                .child_by_field_name("return_type")
                .map(|r| &text[r.byte_range()]);
            let name = function.child_by_field_name("name");
            let (Some(returns), Some(name)) = (returns, name) else {
                continue;
            };
            if returns == "Self" || returns == owner {
                found.push((owner.clone(), text[name.byte_range()].to_string()));
            }
            let type_parameters = function.child_by_field_name("type_parameters");
            let result = function
                .child_by_field_name("return_type")
                .and_then(|r| {
                    type_of(text, r).or_else(|| holding(text, r, &owner, type_parameters))
                })
                .map(|t| if t == "Self" { owner.clone() } else { t });
            let generic =
                |t: &str| type_parameters.is_some_and(|p| declares_type_parameter(text, p, t));
            if let Some(result) = result.filter(|t| !generic(t)) {
                file.declared.push(Declared {
                    owner: Some(owner.as_str().into()),
                    name: text[name.byte_range()].into(),
                    type_text: result.into(),
                    kind: DeclaredKind::Returns,
                });
            }
        }
    }
    found
}

/// A result that holds values (`&[TextInfo]`, `Vec<Node>`, `[u8; 4]`,
/// `(&str, usize)`, `Option<Node>`) as written, `Self` as the `impl`'s
/// type (`owner`): what it holds is read where it is indexed, iterated
/// or destructured. Not of a generic function (what it holds may be a
/// parameter).
fn holding(
    text: &str,
    result: Node<'_>,
    owner: &str,
    type_parameters: Option<Node<'_>>,
) -> Option<String> {
    let mut held = result;
    while held.kind() == "reference_type" {
        held = held.child_by_field_name("type")?;
    }
    let holds = match held.kind() {
        "array_type" | "tuple_type" => true,
        "generic_type" => held
            .child_by_field_name("type")
            .is_some_and(|t| matches!(&text[t.byte_range()], "Vec" | "Option" | "Result")),
        _ => false,
    };
    if !holds || type_parameters.is_some() {
        return None;
    }
    let written = &text[result.byte_range()];
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut replaced = String::with_capacity(written.len());
    let mut rest = written;
    while let Some(start) = rest.find(word) {
        let end = rest[start..]
            .find(|c| !word(c))
            .map_or(rest.len(), |e| start + e);
        replaced.push_str(&rest[..start]);
        replaced.push_str(match &rest[start..end] {
            "Self" => owner,
            name => name,
        });
        rest = &rest[end..];
    }
    replaced.push_str(rest);
    Some(replaced)
}

/// Marks the bare names `::` follows (`m::X`; not a turbofish's `f::<T>`)
/// as the first names of paths ([`super::scan::TagRef::path_head`]).
fn path_heads(text: &str, lines: &LineTable<'_>, file: &mut TagsFile) {
    let bare = |r: &super::scan::TagRef| r.qualifier == Qualifier::None && r.import.is_none();
    for r in file.refs.iter_mut().filter(|r| bare(r)) {
        let after = text[lines.byte_of_char(r.offset) + r.name.len()..].trim_start();
        r.path_head = after.starts_with("::") && !after[2..].trim_start().starts_with('<');
    }
}

/// Whether a function's type parameters (`<T: Tr, U = X>`) declare `name`.
fn declares_type_parameter(text: &str, parameters: Node<'_>, name: &str) -> bool {
    let mut c = parameters.walk();
    let found = parameters.named_children(&mut c).any(|p| {
        p.kind() == "type_parameter"
            && p.child_by_field_name("name")
                .is_some_and(|n| &text[n.byte_range()] == name)
    });
    found
}

/// A macro's arguments are tokens to tree-sitter (`assert!(crlf::f(x))`,
/// `vec![a.len()]`): each name in them is a bare name to the query. The
/// tokens before it tell what it is: after `a::b::` a path (`$crate::`
/// is `crate::`), after `x.` a member of `x` (`self.` of `self`), after
/// any other `.` or `>::` a member of what the index cannot tell. A bare
/// name no call follows, in the tokens of a macro that may paste it
/// anywhere, may be a member's name too (`TagRef::pasted`).
fn macro_paths(
    text: &str,
    lines: &LineTable<'_>,
    tokens: &super::macros::MacroTokens,
    file: &mut TagsFile,
) {
    let bytes = text.as_bytes();
    let back = |at: usize| super::macros::blanks_before(bytes, at);
    let word_before = |end: usize| {
        super::macros::word_before(text, end, |b| {
            b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
        })
    };
    for r in file
        .refs
        .iter_mut()
        .filter(|r| r.qualifier == Qualifier::None && r.import.is_none())
    {
        let byte = lines.byte_of_char(r.offset);
        if !tokens.in_tokens(byte) {
            continue;
        }
        let at = back(byte);
        let before = &bytes[..at];
        if before.ends_with(b"::") {
            let mut path = Vec::new();
            let mut end = at;
            let mut other = false;
            while bytes[..end].ends_with(b"::") {
                let (start, segment) = word_before(back(end - 2));
                if segment.is_empty() {
                    other = true; // `<T as Trait>::`, `Vec::<u8>::`
                    break;
                }
                path.push(segment.strip_prefix('$').unwrap_or(segment).to_string());
                end = back(start);
            }
            path.reverse();
            r.qualifier = match other {
                true => Qualifier::Other,
                false => Qualifier::Path(path),
            };
        } else if before.ends_with(b".") && !before.ends_with(b"..") {
            let (start, object) = word_before(back(at - 1));
            let alone = start == 0 || !matches!(bytes[back(start).saturating_sub(1)], b'.' | b':');
            r.qualifier = match object {
                "self" if alone => Qualifier::This,
                o if alone && !o.is_empty() && !o.as_bytes()[0].is_ascii_digit() => {
                    Qualifier::Name(o.into())
                }
                // `r.line(6).len()`: the chain of calls, fields and
                // elements before it, as code writes it
                _ => match super::macros::object_chain(text, at - 1) {
                    Some(chain) => Qualifier::Expression(chain.into()),
                    None => Qualifier::Other,
                },
            };
        } else {
            // a bare name: whether it is called (`vec![helper(1)]`), or
            // a macro's own name (`inner!(…)` in another's tokens)
            let after = text[byte + r.name.len()..].trim_start();
            // (`fn from_hex(…)` in a `macro_rules!` body: a function's
            // or a method's definition wherever it expands, no call)
            let defined = word_before(at).1 == "fn";
            r.call = after.starts_with('(') && !defined;
            r.pasted = !r.call && !after.starts_with('!') && tokens.pasting(byte);
            continue;
        }
        r.shadowed = false;
        r.binding = None;
        let after = lines.byte_of_char(r.offset) + r.name.len();
        // (`x.f::<T>()`: a method's turbofish)
        r.call = text[after..].trim_start().starts_with(['(', ':']);
    }
}

/// Whether import `i` binds in a part of its file only: a `mod` block's
/// own `use`, or a `use` in a function's block.
pub(super) fn binds_in_part(file: &TagsFile, i: usize) -> bool {
    file.block_imports.iter().any(|(j, _)| *j == i)
        || file.scoped_imports.iter().any(|(j, _)| *j == i)
}

/// Whether the `mod m { … }` block `block` declares `name`: an item, or
/// a block of its own.
pub(super) fn declares(file: &TagsFile, block: &str, name: &str) -> bool {
    declares_item(file, block, name)
        || file
            .inline_modules
            .iter()
            .any(|(q, _)| child_of(block, q, name))
}

/// Whether the `mod m { … }` block `block` declares the item `name` (a
/// block of its own aside: a module is no value).
pub(super) fn declares_item(file: &TagsFile, block: &str, name: &str) -> bool {
    let module = |q: &str| file.inline_modules.iter().any(|(m, _)| m == q);
    file.defs
        .iter()
        .any(|d| d.name == name && child_of(block, &d.qualified, name) && !module(&d.qualified))
}

/// Whether the qualified name `q` is `block`'s child `name`.
fn child_of(block: &str, q: &str, name: &str) -> bool {
    q.strip_prefix(block)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|rest| rest == name)
}

/// A path written inside the `mod` block `block` (`a.b`) as the file's
/// module writes it: `self::` and `super::` are the block's, a first
/// name the block `declares` is its item, a name one of the block's `use`
/// declarations binds (`bound`) is that import's path; `crate::` and
/// another crate's name read the same anywhere.
pub(super) fn rebase(
    path: &[String],
    block: &str,
    declares: impl Fn(&str) -> bool,
    bound: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let chain: Vec<&str> = block.split('.').collect();
    let within = |keep: usize, rest: &[String]| -> Vec<String> {
        std::iter::once("self")
            .chain(chain[..keep].iter().copied())
            .map(str::to_string)
            .chain(rest.iter().cloned())
            .collect()
    };
    let Some((first, rest)) = path.split_first() else {
        return Vec::new();
    };
    match first.as_str() {
        "crate" => path.to_vec(),
        "self" => within(chain.len(), rest),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            match chain.len().checked_sub(ups) {
                Some(keep) => within(keep, &path[ups..]),
                // above the file's module: the file's own `super::`s
                None => std::iter::repeat_n("super".to_string(), ups - chain.len())
                    .chain(path[ups..].iter().cloned())
                    .collect(),
            }
        }
        name if declares(name) => within(chain.len(), path),
        name => match bound(name) {
            Some(source) => source
                .split("::")
                .map(str::to_string)
                .chain(rest.iter().cloned())
                .collect(),
            None => path.to_vec(),
        },
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
