//! The calls of a brace-language file that nothing in the file binds: a
//! bare `f(…)` (or `new F(…)`) whose name no scope, definition or import
//! of the file gives and that is no predeclared name of its language.
//! Such a name is either another file's (a Go package's other files, a
//! Java package's classes, a global an ES project declares) or nobody's —
//! what a script's final check tells apart with the project's index
//! before it answers `Ok` (`script::run`'s `no_new_problems`).
//!
//! Where the file itself cannot say, it says nothing: a file with an
//! import of every name of a module (Java's `import p.*`, Go's dot import,
//! Rust's `use m::*` — in its module or block alone), and a Java class
//! that inherits (a bare call may be an inherited method's).

use std::ops::Range;

use super::scan::{scan, ImportKind, Imported, Qualifier, TagsFile};
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
    /// The names it defines (functions, classes, members, values).
    pub defines: Vec<String>,
}

/// Reads `text` as `language`'s.
pub fn unbound(language: &'static dyn Language, text: &str) -> Unbound {
    let file = scan(language, text);
    let defines = file.defs.iter().map(|d| d.name.clone()).collect();
    Unbound {
        calls: unbound_calls(language, text, &file),
        defines,
    }
}

fn unbound_calls(
    language: &'static dyn Language,
    text: &str,
    file: &TagsFile,
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
    let mut unbound: Vec<(String, Position, usize)> = file
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
        .filter(|r| !blind.iter().any(|range| range.contains(&r.offset)))
        .filter(|r| !bound(&r.name))
        .map(|r| (r.name.to_string(), r.start, r.offset))
        .collect();
    if rust && !unbound.is_empty() {
        let opaque = opaque_ranges(language, text);
        unbound.retain(|(_, _, offset)| !opaque.iter().any(|r| r.contains(offset)));
    }
    unbound.sort_by_key(|(_, at, _)| *at);
    unbound
        .into_iter()
        .map(|(name, at, _)| (name, at))
        .collect()
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
    fn an_es_call_of_no_import_nor_global() {
        let text = "import { a } from \"./a.js\";\n\nexport function f() {\n  a(parseInt(\"1\"));\n  const h = () => 1;\n  return h() + g() + new Thing();\n}\n";
        assert_eq!(calls("web/f.ts", text), ["g@5:15", "Thing@5:25"]);
    }
}
