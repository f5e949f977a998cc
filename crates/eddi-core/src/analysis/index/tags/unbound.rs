//! The calls of a brace-language file that nothing in the file binds: a
//! bare `f(…)` (or `new F(…)`) whose name no scope, definition or import
//! of the file gives and that is no predeclared name of its language.
//! Such a name is either another file's (a Go package's other files, a
//! Java package's classes, a global an ES project declares) or nobody's —
//! what a script's final check tells apart with the project's index
//! before it answers `Ok` (`script::run`'s `no_new_problems`).
//!
//! A call through a module (`calc.Mix(…)` of a Go package, `ns.f(…)` of
//! an ES namespace import, Rust's `crate::calc::mix(…)`) names what that
//! module must define: [`Unbound::through_modules`], and
//! [`TagsIndex::module_reached`] for what the module holds.
//!
//! Where the file itself cannot say, it says nothing: a file with an
//! import of every name of a module (Java's `import p.*`, Go's dot import,
//! Rust's `use m::*` — in its module or block alone), and a Java class
//! that inherits (a bare call may be an inherited method's). A Go type
//! parameter (`K2(x)` in `func f[K1, K2 ~uint32]`) is bound in its
//! declaration.

use std::ops::Range;

use std::path::Path;

use super::family::{family_of, Bound, Files};
use super::scan::{scan, ImportKind, Imported, Qualifier, TagsFile};
use super::TagsIndex;
use tree_sitter::Node;

use crate::analysis::SyntaxTree;
use crate::edit::Position;
use crate::language::Language;

/// The methods every Java class inherits from `Object`.
const JAVA_OBJECT_METHODS: &[&str] = &[
    "clone",
    "equals",
    "finalize",
    "getClass",
    "hashCode",
    "notify",
    "notifyAll",
    "toString",
    "wait",
];

/// What a file leaves to the rest of the project, and what it gives it.
#[derive(Debug, Default)]
pub struct Unbound {
    /// Its bare calls no binding of the file reaches, as (name, position
    /// of the name), in the file's order.
    pub calls: Vec<(String, Position)>,
    /// Its calls through a module.
    pub through_modules: Vec<ModuleCall>,
    /// The names it defines (functions, classes, members, values),
    /// exports, and (Rust) binds with a `use`: what a call through its
    /// module may name ([`holds`]).
    pub defines: Vec<String>,
}

/// How a call reaches the module whose name it calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Through an import of the module (a Go package, an ES namespace
    /// import), by its source as written.
    Import(String),
    /// Through a Rust path (`crate::calc`, `super`, `calc`).
    Path(Vec<String>),
}

/// A call through a module (`calc.Mix(…)`).
#[derive(Debug, Clone)]
pub struct ModuleCall {
    pub reach: Reach,
    /// The callee as written (`calc.Mix`, `crate::calc::mix`).
    pub written: String,
    /// The name called.
    pub name: String,
    /// Where the name is.
    pub at: Position,
}

/// Reads `text` as `language`'s.
pub fn unbound(language: &'static dyn Language, text: &str) -> Unbound {
    let file = scan(language, text);
    let defines = held_names(language, &file);
    let opaque = match language.id() {
        "rust" => opaque_ranges(language, text),
        _ => Vec::new(),
    };
    let type_parameters = match language.id() {
        "go" => go_type_parameters(language, text),
        _ => Vec::new(),
    };
    Unbound {
        calls: unbound_calls(language, text, &file, &opaque, &type_parameters),
        through_modules: through_modules(&file, &opaque),
        defines,
    }
}

/// The calls of `file` through a module, but in `opaque` ranges.
fn through_modules(file: &TagsFile, opaque: &[Range<usize>]) -> Vec<ModuleCall> {
    let module_import = |local: &str| {
        (file.imports.iter())
            .find(|i| {
                i.local == local && i.imported == Imported::Module && i.kind == ImportKind::Static
            })
            .map(|i| Reach::Import(i.source.clone()))
    };
    (file.refs.iter())
        .filter(|r| r.call && !r.local_qualifier && !r.pasted)
        .filter(|r| !opaque.iter().any(|range| range.contains(&r.offset)))
        .filter_map(|r| {
            let (reach, written) = match &r.qualifier {
                Qualifier::Name(local) => (module_import(local)?, format!("{local}.{}", r.name)),
                Qualifier::Path(path) => (
                    Reach::Path(path.clone()),
                    format!("{}::{}", path.join("::"), r.name),
                ),
                _ => return None,
            };
            Some(ModuleCall {
                reach,
                written,
                name: r.name.to_string(),
                at: r.start,
            })
        })
        .collect()
}

fn unbound_calls(
    language: &'static dyn Language,
    text: &str,
    file: &TagsFile,
    opaque: &[Range<usize>],
    type_parameters: &[(String, Range<usize>)],
) -> Vec<(String, Position)> {
    let Some(blind) = blind_ranges(file) else {
        return Vec::new();
    };
    let rust = language.id() == "rust";
    let bound = |name: &str| {
        language.predeclared(name)
            || matches!(name, "this" | "super" | "self" | "Self")
            || (language.id() == "java" && JAVA_OBJECT_METHODS.contains(&name))
            || file.defs.iter().any(|d| d.name == name)
            || file.locals.iter().any(|l| l.name == name)
            || (file.imports.iter()).any(|i| i.local == name && i.kind != ImportKind::ReExport)
            || (rust && declared_in_text(text, name))
    };
    let mut unbound: Vec<(String, Position)> = file
        .refs
        .iter()
        .filter(|r| {
            r.call
                && r.qualifier == Qualifier::None
                && !r.shadowed
                && r.binding.is_none()
                && r.import.is_none()
                && !r.pasted
                && !r.path_head
        })
        .filter(|r| {
            !blind
                .iter()
                .chain(opaque)
                .any(|range| range.contains(&r.offset))
        })
        .filter(|r| !bound(&r.name))
        .filter(|r| {
            !(type_parameters.iter())
                .any(|(name, scope)| name.as_str() == r.name.as_str() && scope.contains(&r.offset))
        })
        .map(|r| (r.name.to_string(), r.start))
        .collect();
    // `strings.ToUpper(…)` without the import: the qualifier's name (a
    // Rust value's may be a pattern's binding the scan does not list)
    if !rust {
        unbound.extend(
            (file.refs.iter())
                .filter(|r| r.call && !r.local_qualifier && !r.pasted)
                .filter_map(|r| match &r.qualifier {
                    Qualifier::Name(name) => Some((name, r)),
                    _ => None,
                })
                .filter(|(_, r)| !blind.iter().any(|range| range.contains(&r.offset)))
                .filter(|(name, _)| !bound(name))
                .map(|(name, r)| (name.to_string(), r.start)),
        );
    }
    unbound.sort_by_key(|(_, at)| *at);
    unbound
}

/// The names a call through `file`'s module may name: its definitions,
/// its exports, and Rust's `use` bindings (`pub use task::spawn;`).
fn held_names(language: &dyn Language, file: &TagsFile) -> Vec<String> {
    let mut names: Vec<String> = file.defs.iter().map(|d| d.name.clone()).collect();
    names.extend(file.exports.iter().map(|(exported, _)| exported.clone()));
    if language.id() == "rust" {
        names.extend(
            (file.imports.iter())
                .filter(|i| i.imported != Imported::All)
                .map(|i| i.local.clone()),
        );
    }
    names
}

/// Whether a file of a module (read as `unbound`, its text `text`) holds
/// `name` for a call through its module: one of its [`Unbound::defines`],
/// or, in Rust, an item or `use` in a macro's tokens that names it.
pub fn holds(language: &dyn Language, read: &Unbound, text: &str, name: &str) -> bool {
    read.defines.iter().any(|n| n == name)
        || (language.id() == "rust" && declared_in_text(text, name))
}

/// Whether a module's file can hold more names than it spells: an ES
/// module's re-exports, a Rust glob `use`.
fn holds_unspelled(file: &TagsFile) -> bool {
    (file.imports.iter()).any(|i| i.kind == ImportKind::ReExport || i.imported == Imported::All)
}

impl TagsIndex {
    /// The project files of the module the file at `path` reaches
    /// through `reach`; `None` when that is no module of the project (a
    /// package from outside, a Rust type's path) or one that holds more
    /// names than its files spell (an ES module that re-exports, a Rust
    /// glob `use`).
    pub fn module_reached(&self, root: &Path, path: &str, reach: &Reach) -> Option<Vec<String>> {
        let entry = self.entry(path)?;
        let family = family_of(entry.language)?;
        let paths = self.family_paths(entry.family_id()?);
        let files = Files {
            root,
            paths: &paths,
            index: self,
        };
        let file = entry.file();
        let module = match reach {
            Reach::Import(source) => {
                let import = (file.imports.iter())
                    .find(|i| &i.source == source && i.imported == Imported::Module)?;
                match family.bound(&files, path, file, import) {
                    Bound::Module(module) => module,
                    _ => return None,
                }
            }
            Reach::Path(through) => match family.resolve_path(&files, path, file, through)? {
                (module, None) => module,
                (_, Some(_item)) => return None,
            },
        };
        let members = family.module_files(&files, &module);
        let spelled =
            (members.iter()).all(|m| files.scanned(m).is_some_and(|f| !holds_unspelled(f)));
        (spelled && !members.is_empty()).then_some(members)
    }

    /// Whether the project file at `path` (as the index read it; `root`:
    /// the project's) holds `name` for a call through its module
    /// ([`holds`]).
    pub fn file_holds(&self, root: &Path, path: &str, name: &str) -> bool {
        let Some(entry) = self.entry(path) else {
            return false;
        };
        let file = entry.file();
        if held_names(entry.language, file).iter().any(|n| n == name) {
            return true;
        }
        // Rust: an item in a macro's tokens, read from the file's words
        entry.language.id() == "rust"
            && std::fs::read_to_string(root.join(path))
                .is_ok_and(|text| declared_in_text(&text, name))
    }
}

/// Rust: whether `text` declares `name` in words — an item or a `use`
/// inside a macro's tokens (`cfg_rt! { fn spawn_inner… }`) is no
/// definition tree-sitter shows.
pub fn declared_in_text(text: &str, name: &str) -> bool {
    let name = regex::escape(name);
    let declaration = format!(
        r"\b(?:fn|struct|enum|union|type|const|static|trait|mod)\s+{name}\b|\buse\s[^;]*\b{name}\b"
    );
    regex::Regex::new(&declaration).is_ok_and(|re| re.is_match(text))
}

/// Rust's macros whose tokens are expressions it evaluates as written
/// (a call in them is a call).
const EXPRESSION_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "dbg",
    "eprint",
    "eprintln",
    "format",
    "panic",
    "print",
    "println",
    "todo",
    "unimplemented",
    "unreachable",
    "vec",
    "write",
    "writeln",
];

/// Rust: the parts of `text` (chars) where a word is no call as written:
/// attributes (`#[cfg(not(test))]`), `macro_rules!` bodies, and the tokens of a macro other than
/// the standard library's expression macros (`cfg!(any(…))`,
/// `asm!(… lateout(…))`, a crate's own DSL).
fn opaque_ranges(language: &'static dyn Language, text: &str) -> Vec<Range<usize>> {
    let Ok(tree) = SyntaxTree::parse_text(language, text) else {
        return Vec::new();
    };
    let mut opaque: Vec<Range<usize>> = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(node) = stack.pop() {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        let written = |at: usize| &text[children[at].byte_range()];
        for (i, child) in children.iter().enumerate() {
            let opaque_here = match child.kind() {
                "attribute_item" | "inner_attribute_item" | "macro_definition" => true,
                "macro_invocation" => (child.child_by_field_name("macro"))
                    .is_some_and(|name| !expression_macro(&text[name.byte_range()])),
                // in a macro's tokens: `#[…]`, `#![…]` and `name!(…)`
                "token_tree" if i > 0 => match written(i - 1) {
                    "#" => true,
                    "!" => i < 2 || written(i - 2) == "#" || !expression_macro(written(i - 2)),
                    _ => false,
                },
                _ => false,
            };
            match opaque_here {
                true => opaque.push(
                    char_offset(text, child.start_byte())..char_offset(text, child.end_byte()),
                ),
                false => stack.push(*child),
            }
        }
    }
    opaque
}

/// Go: the type parameters of generic functions and types (`K1, K2` of
/// `func f[K1, K2 ~uint32]`), each with the declaration it binds in
/// (chars): `K2(x)` converts to it.
fn go_type_parameters(language: &'static dyn Language, text: &str) -> Vec<(String, Range<usize>)> {
    let mut bound = Vec::new();
    if !text.contains('[') {
        return bound;
    }
    let Ok(tree) = SyntaxTree::parse_text(language, text) else {
        return bound;
    };
    let mut stack = vec![tree.root()];
    while let Some(node) = stack.pop() {
        if node.kind() == "type_parameter_declaration" {
            let scope = std::iter::successors(node.parent(), |n| n.parent()).find(|n| {
                matches!(
                    n.kind(),
                    "function_declaration" | "method_declaration" | "type_spec" | "type_alias"
                )
            });
            if let Some(scope) = scope {
                let chars =
                    char_offset(text, scope.start_byte())..char_offset(text, scope.end_byte());
                let mut cursor = node.walk();
                for name in node.children_by_field_name("name", &mut cursor) {
                    bound.push((text[name.byte_range()].to_string(), chars.clone()));
                }
            }
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    bound
}

/// A macro's name (as written, maybe a path) is one of
/// [`EXPRESSION_MACROS`].
fn expression_macro(name: &str) -> bool {
    let last = name.rsplit("::").next().unwrap_or(name);
    EXPRESSION_MACROS.contains(&last)
}

fn char_offset(text: &str, byte: usize) -> usize {
    text.get(..byte).map_or(0, |before| before.chars().count())
}

/// The parts of the file (chars) where a bare name may be one the file
/// does not spell: Java's inheriting classes (Rust's trait bodies, also
/// among them, lose little), the reach of an import of every name.
/// `None`: the whole file.
fn blind_ranges(file: &TagsFile) -> Option<Vec<Range<usize>>> {
    let mut blind = file.inheriting.clone();
    for (i, import) in file.imports.iter().enumerate() {
        if import.imported != Imported::All || import.kind == ImportKind::ReExport {
            continue;
        }
        let in_block = (file.block_imports.iter()).find(|(at, _)| *at == i);
        let in_scope = (file.scoped_imports.iter()).find(|(at, _)| *at == i);
        match (in_block, in_scope) {
            (_, Some((_, scope))) => blind.push(scope.clone()),
            (Some((_, module)), None) => {
                let body = (file.inline_modules.iter()).find(|(name, _)| name == module);
                blind.push(body.map(|(_, body)| body.clone())?);
            }
            (None, None) => return None,
        }
    }
    Some(blind)
}

#[cfg(test)]
mod tests {
    use super::unbound;
    use crate::language::language_of;

    fn calls(path: &str, text: &str) -> Vec<String> {
        let language = language_of(path).unwrap();
        unbound(language, text)
            .calls
            .into_iter()
            .map(|(name, at)| format!("{name}@{}:{}", at.line, at.col))
            .collect()
    }

    #[test]
    fn a_go_call_no_scope_binds_nor_the_universe() {
        let text = "package p\n\nfunc f(x []int) int {\n\th := func() {}\n\th()\n\tg(len(x))\n\treturn int(x[0]) + k()\n}\n\nfunc k() int { return 1 }\n";
        assert_eq!(calls("p/a.go", text), ["g@5:1"]);
    }

    #[test]
    fn a_go_type_parameter_converts_in_its_declaration_alone() {
        let text = "package p\n\nfunc equal[K1, K2 ~uint32](a K1, b K2) bool {\n\treturn K2(a) == b\n}\n\nfunc other(a uint32) uint32 {\n\treturn K2(a)\n}\n";
        assert_eq!(calls("p/a.go", text), ["K2@7:8"]);
    }

    #[test]
    fn rust_attributes_and_macros_call_nothing_but_the_expression_macros() {
        let text = "use std::mem::swap;\n\n#[cfg(not(test))]\nfn f(a: &mut u8, b: &mut u8) {\n    swap(a, b);\n    if cfg!(any(unix)) { g(); }\n    drop(Some(1));\n    println!(\"{}\", h(1));\n    other!(lateout(x));\n}\n\nmacro_rules! m { (if feature(\"x\")) => {} }\n";
        assert_eq!(calls("src/a.rs", text), ["g@5:25", "h@7:19"]);
        // an item inside a macro's tokens still declares its name
        let hidden = "cfg_rt! {\n    fn spawn_inner() {}\n}\n\nfn f() {\n    spawn_inner();\n}\n";
        assert!(calls("src/b.rs", hidden).is_empty());
    }

    #[test]
    fn a_glob_import_blinds_its_module_alone() {
        let text = "fn f() {\n    g();\n}\n\nmod tests {\n    use super::*;\n\n    fn t() {\n        h();\n    }\n}\n";
        assert_eq!(calls("src/a.rs", text), ["g@1:4"]);
        let go = "package p\n\nimport . \"strings\"\n\nfunc f() { g() }\n";
        assert!(calls("p/a.go", go).is_empty());
    }

    #[test]
    fn a_java_class_that_inherits_may_call_what_it_inherits() {
        let alone = "class A {\n    void f() {\n        g();\n        hashCode();\n        new StringBuilder();\n    }\n}\n";
        assert_eq!(calls("p/A.java", alone), ["g@2:8"]);
        let inheriting = "class B extends Base {\n    void f() {\n        g();\n    }\n}\n";
        assert!(calls("p/B.java", inheriting).is_empty());
    }

    #[test]
    fn a_call_through_a_name_nothing_binds() {
        let go = "package p\n\nimport \"fmt\"\n\nfunc f(s string) {\n\tfmt.Println(strings.ToUpper(s))\n}\n";
        assert_eq!(calls("p/a.go", go), ["strings@5:21"]);
        let java = "class A {\n    void f(java.util.List<String> xs) {\n        System.out.println(xs.size());\n        Collections.sort(xs);\n        Math.max(1, 2);\n    }\n}\n";
        assert_eq!(calls("p/A.java", java), ["Collections@3:20"]);
        let js = "const fs = require(\"fs\");\n\nfunction f(p) {\n  console.log(JSON.parse(fs.readFileSync(p)));\n  return path.join(p, \"x\");\n}\n";
        assert_eq!(calls("web/a.js", js), ["path@4:14"]);
    }

    #[test]
    fn an_es_call_of_no_import_nor_global() {
        let text = "import { a } from \"./a.js\";\n\nexport function f() {\n  a(parseInt(\"1\"));\n  const h = () => 1;\n  return h() + g() + new Thing();\n}\n";
        assert_eq!(calls("web/f.ts", text), ["g@5:15", "Thing@5:25"]);
    }
}
