//! Potential problems in a Python file, each with a position and a short
//! message:
//! * syntax errors ([`super::validate`]);
//! * unused imports (module and function level). Exempt: `__future__` and
//!   star imports, names listed in a literal `__all__`, explicit re-exports
//!   (`import x as x`, `from m import x as x`), import statements carrying a
//!   `# noqa` comment, names that occur as a word inside a string (string
//!   annotations such as `"WSGIApplication"`), every module-level import
//!   of a package `__init__.py` ([`IssueConfig::package_init`]), and
//!   availability probes: imports in the body of a `try` that catches
//!   `ImportError` (or `ModuleNotFoundError`, `Exception`, everything) —
//!   importing is what they are for (`try: import numpy … except
//!   ImportError: …`, a test that a module imports or fails to);
//! * unused local variables (plain assignments in functions never read;
//!   names starting with `_`, unpacking targets, and functions calling
//!   `locals()`/`vars()` are exempt);
//! * undefined names (not bound in any enclosing scope nor a Python 3
//!   builtin; not reported when the module has a star import);
//! * mutable default arguments (`[]`, `{}`, `set()`-like literals,
//!   comprehensions, and calls to `list`/`dict`/`set`/`bytearray`/
//!   `defaultdict`/`OrderedDict`/`deque`);
//! * bare `except:`;
//! * functions longer than a limit ([`IssueConfig::max_function_lines`],
//!   default 50 lines, counted from the `def` line to the last body line);
//! * `TODO`/`FIXME`/`XXX`/`HACK` comments.
//!
//! Known limits (per-file, no type inference): names created dynamically or
//! PEP 695 type parameters may be reported as undefined; a name mentioned
//! in any string is taken as used.

use ropey::Rope;
use tree_sitter::Node;

use super::outline::{Outline, Symbol};
use super::scope::{BindingKind, Resolution, ScopeKind, Scopes};
use super::syntax::{node_start, node_text, SyntaxTree};
use super::validate::syntax_errors;
use crate::edit::position::from_char;
use crate::edit::Position;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IssueKind {
    SyntaxError,
    UnusedImport,
    UnusedVariable,
    UndefinedName,
    MutableDefault,
    BareExcept,
    LongFunction,
    Todo,
    /// `==`/`!=` in JavaScript or TypeScript, where `===`/`!==` is meant.
    LooseEquality,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub kind: IssueKind,
    pub position: Position,
    pub message: String,
}

impl std::fmt::Display for Issue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.position, self.message)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssueConfig {
    /// Functions with more lines than this are reported (default 50).
    pub max_function_lines: usize,
    /// The file is a package's `__init__.py`: its module-level imports are
    /// re-exports, not unused (default false; the caller knows the path).
    pub package_init: bool,
}

impl Default for IssueConfig {
    fn default() -> Self {
        IssueConfig {
            max_function_lines: 50,
            package_init: false,
        }
    }
}

/// All issues of a file, sorted by position.
pub fn issues(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    scopes: &Scopes,
    config: &IssueConfig,
) -> Vec<Issue> {
    let mut out: Vec<Issue> = syntax_errors(text, tree)
        .into_iter()
        .map(|e| Issue {
            kind: IssueKind::SyntaxError,
            position: e.position,
            message: format!("syntax error: {}", e.message),
        })
        .collect();
    let exported = dunder_all(text, tree);
    let mut strings: Option<std::collections::HashSet<String>> = None;
    // unused imports and variables
    let mut reported: Vec<(usize, String)> = Vec::new();
    for b in &scopes.bindings {
        let key = (b.scope, b.name.clone());
        if reported.contains(&key) {
            continue;
        }
        let used = scopes.references_to(b.scope, &b.name).next().is_some();
        if used {
            continue;
        }
        let scope = &scopes.scopes[b.scope];
        match b.kind {
            BindingKind::Import => {
                if b.scope == 0 && (exported.contains(&b.name) || config.package_init) {
                    continue;
                }
                let statement = text.slice(b.statement.clone()).to_string();
                let last_line = from_char(text, b.statement.end).line;
                let noqa = |t: &str| t.to_ascii_lowercase().contains("# noqa");
                if statement.contains(&format!("{0} as {0}", b.name))
                    || noqa(&super::lines::text_of(text, last_line))
                    || noqa(&statement)
                {
                    continue;
                }
                let strings = strings.get_or_insert_with(|| string_words(text, tree));
                if strings.contains(&b.name) || is_probe(text, tree, &b.statement) {
                    continue;
                }
                reported.push(key);
                out.push(Issue {
                    kind: IssueKind::UnusedImport,
                    position: from_char(text, b.range.start),
                    message: format!("unused import '{}'", b.name),
                });
            }
            BindingKind::Assignment
                if scope.kind == ScopeKind::Function
                    && !b.name.starts_with('_')
                    && !scope.uses_locals
                    && scopes
                        .bindings_of(b.scope, &b.name)
                        .all(|x| x.kind == BindingKind::Assignment) =>
            {
                reported.push(key);
                out.push(Issue {
                    kind: IssueKind::UnusedVariable,
                    position: from_char(text, b.range.start),
                    message: format!("unused variable '{}'", b.name),
                });
            }
            _ => {}
        }
    }
    for r in &scopes.references {
        if r.resolution == Resolution::Undefined {
            out.push(Issue {
                kind: IssueKind::UndefinedName,
                position: from_char(text, r.range.start),
                message: format!("undefined name '{}'", r.name),
            });
        }
    }
    walk(text, tree.root(), &mut out);
    for s in outline.symbols.iter().filter(|s| s.kind.is_callable()) {
        let len = s.full_lines.last + 1 - s.position.line;
        if len > config.max_function_lines {
            out.push(Issue {
                kind: IssueKind::LongFunction,
                position: s.position,
                message: format!(
                    "function '{}' is {len} lines long (limit {})",
                    s.qualified_name, config.max_function_lines
                ),
            });
        }
    }
    out.sort_by_key(|i| i.position);
    out
}

/// The issues located inside a symbol's lines.
pub fn issues_within<'a>(issues: &'a [Issue], symbol: &Symbol) -> Vec<&'a Issue> {
    issues
        .iter()
        .filter(|i| {
            i.position.line >= symbol.full_lines.first && i.position.line <= symbol.full_lines.last
        })
        .collect()
}

const MUTABLE_CALLS: &[&str] = &[
    "list",
    "dict",
    "set",
    "bytearray",
    "defaultdict",
    "OrderedDict",
    "deque",
];

/// Depth first over every node; an explicit stack rather than recursion,
/// so that a pathologically nested file cannot overflow the thread's stack.
fn walk(text: &Rope, root: Node<'_>, out: &mut Vec<Issue>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        issues_at(text, node, out);
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
}

/// The issues of one node by itself.
fn issues_at(text: &Rope, node: Node<'_>, out: &mut Vec<Issue>) {
    match node.kind() {
        "default_parameter" | "typed_default_parameter" => {
            if let Some(v) = node.child_by_field_name("value") {
                let mutable = match v.kind() {
                    "list"
                    | "dictionary"
                    | "set"
                    | "list_comprehension"
                    | "dictionary_comprehension"
                    | "set_comprehension" => true,
                    "call" => v.child_by_field_name("function").is_some_and(|f| {
                        MUTABLE_CALLS.contains(&node_text(text, f).rsplit('.').next().unwrap_or(""))
                    }),
                    _ => false,
                };
                if mutable {
                    out.push(Issue {
                        kind: IssueKind::MutableDefault,
                        position: node_start(text, node),
                        message: format!("mutable default argument '{}'", node_text(text, node)),
                    });
                }
            }
        }
        "except_clause" => {
            // no exception type: the first named child is the block itself
            let bare = node.named_child(0).is_none_or(|n| n.kind() == "block");
            if bare && !node_text(text, node).starts_with("except*") {
                out.push(Issue {
                    kind: IssueKind::BareExcept,
                    position: node_start(text, node),
                    message: "bare 'except:'".into(),
                });
            }
        }
        "comment" => {
            let t = node_text(text, node);
            let body = t.trim_start_matches('#').trim();
            if ["TODO", "FIXME", "XXX", "HACK"]
                .iter()
                .any(|m| has_word(body, m))
            {
                out.push(Issue {
                    kind: IssueKind::Todo,
                    position: node_start(text, node),
                    message: body.chars().take(80).collect(),
                });
            }
        }
        _ => {}
    }
}

/// Whether `word` is in `s` as a whole word (TODO markers).
pub(crate) fn has_word(s: &str, word: &str) -> bool {
    s.match_indices(word).any(|(i, _)| {
        let before = s[..i].chars().next_back();
        let after = s[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Identifier-like words inside string literals (string annotations).
fn string_words(text: &Rope, tree: &SyntaxTree) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    // An explicit stack, not recursion: see `walk`.
    let mut stack = vec![tree.root()];
    while let Some(node) = stack.pop() {
        if node.kind() == "string_content" {
            let t = node_text(text, node);
            for w in t.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !w.is_empty() {
                    out.insert(w.to_string());
                }
            }
            continue;
        }
        let mut c = node.walk();
        stack.extend(node.children(&mut c));
    }
    out
}

/// Whether the import statement at `statement` (chars) is in the body of
/// a `try` one of whose `except` clauses catches `ImportError`: an
/// availability probe, used by being run.
fn is_probe(text: &Rope, tree: &SyntaxTree, statement: &std::ops::Range<usize>) -> bool {
    let (start, end) = (
        super::syntax::char_to_byte(text, statement.start),
        super::syntax::char_to_byte(text, statement.end),
    );
    let Some(mut node) = tree.root().descendant_for_byte_range(start, end) else {
        return false;
    };
    while let Some(parent) = node.parent() {
        if parent.kind() == "try_statement" && parent.child_by_field_name("body") == Some(node) {
            let mut cursor = parent.walk();
            let catches = parent
                .named_children(&mut cursor)
                .filter(|c| matches!(c.kind(), "except_clause" | "except_group_clause"))
                .any(|clause| catches_import_error(text, clause));
            if catches {
                return true;
            }
        }
        node = parent;
    }
    false
}

/// Whether an `except` clause catches `ImportError`: bare, or naming it,
/// `ModuleNotFoundError` or a base of it.
fn catches_import_error(text: &Rope, clause: Node<'_>) -> bool {
    let mut cursor = clause.walk();
    let caught: Vec<String> = clause
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "block" && c.kind() != "comment")
        .map(|c| node_text(text, c))
        .collect();
    caught.is_empty()
        || caught.iter().any(|t| {
            [
                "ImportError",
                "ModuleNotFoundError",
                "Exception",
                "BaseException",
            ]
            .iter()
            .any(|name| has_word(t, name))
        })
}

/// Names in a module-level `__all__ = [...]` / `(...)` literal.
fn dunder_all(text: &Rope, tree: &SyntaxTree) -> Vec<String> {
    let root = tree.root();
    let mut names = Vec::new();
    let mut c = root.walk();
    for stmt in root.named_children(&mut c) {
        let Some(assign) = stmt
            .named_child(0)
            .filter(|a| a.kind() == "assignment" || a.kind() == "augmented_assignment")
        else {
            continue;
        };
        let is_all = assign
            .child_by_field_name("left")
            .is_some_and(|l| node_text(text, l) == "__all__");
        if !is_all {
            continue;
        }
        if let Some(right) = assign.child_by_field_name("right") {
            let mut c2 = right.walk();
            for item in right.named_children(&mut c2) {
                if item.kind() == "string" {
                    let t = node_text(text, item);
                    names.push(t.trim_matches(|c| c == '"' || c == '\'').to_string());
                }
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::outline::outline;
    use crate::analysis::scope::analyze;

    fn run(src: &str, limit: usize) -> Vec<String> {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse(&text).unwrap();
        let o = outline(&text, &tree);
        let s = analyze(&text, &tree);
        issues(
            &text,
            &tree,
            &o,
            &s,
            &IssueConfig {
                max_function_lines: limit,
                package_init: false,
            },
        )
        .iter()
        .map(|i| i.to_string())
        .collect()
    }

    #[test]
    fn each_kind() {
        let src = "import os, sys\nfrom x import y\nfrom z import w as w\nimport q  # noqa: F401\nfrom t import Hint\nv: 'Hint' = 1\n__all__ = ['y']\n\ndef f(a, b=[], *, c=dict()):\n    unused = 1\n    _ignored = 2\n    p, q = 1, 2\n    try:\n        return sys.argv, missing\n    except:\n        pass  # TODO: handle\n    # TODOS are not todos\n";
        assert_eq!(
            run(src, 5),
            [
                "0:7 unused import 'os'",
                "8:0 function 'f' is 8 lines long (limit 5)",
                "8:9 mutable default argument 'b=[]'",
                "8:18 mutable default argument 'c=dict()'",
                "9:4 unused variable 'unused'",
                "13:25 undefined name 'missing'",
                "14:4 bare 'except:'",
                "15:14 TODO: handle",
            ]
        );
        assert_eq!(
            run("def f(:\n    pass\n", 50),
            ["0:6 syntax error: missing ')'"]
        );
        let locals = "def g(items):\n    x: int\n    a = 1\n    b = 2\n    c = 0\n    c += 1\n    d = 3\n    del d\n    for i in items:\n        pass\n    with open('f') as fh:\n        pass\n    def inner():\n        return a\n    return inner\n";
        assert_eq!(run(locals, 50), ["3:4 unused variable 'b'"]);
    }

    #[test]
    fn an_import_that_probes_availability_is_used_by_running() {
        let src = "try:\n    import numpy\nexcept ImportError:\n    HAS = False\ntry:\n    import a.b\nexcept (OSError, ModuleNotFoundError) as e:\n    pass\ntry:\n    import c\nexcept:\n    pass\ntry:\n    import d\nexcept ValueError:\n    pass\ntry:\n    pass\nexcept ImportError:\n    import e\n";
        assert_eq!(
            run(src, 50),
            [
                "10:0 bare 'except:'",
                "13:11 unused import 'd'",
                "19:11 unused import 'e'",
            ]
        );
    }
}
