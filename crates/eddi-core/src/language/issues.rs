//! The potential issues of a file in a language other than Python
//! (`Analyze … Issues`, `get_todos`): TODO, FIXME, XXX and HACK in its
//! comments, in every language; and, in JavaScript and TypeScript, `==`
//! and `!=` where `===` and `!==` are meant (ESLint's `eqeqeq`; `== null`,
//! the idiom for "null or undefined", is left alone); in Go and Java,
//! imports nothing in the file uses (the compiler's "imported and not
//! used" in Go; javac's unused-import lint). An import is reported only
//! when the name it binds is certain and appears nowhere else: a Go path
//! whose last element is not the package's name for sure (`gopkg.in/
//! yaml.v2`, `go-foo`) is never reported, nor a Java wildcard, nor a
//! Java name a comment mentions (`{@link Name}`: javadoc reads it).

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::issues::{has_word, Issue, IssueKind};
use crate::analysis::syntax::{node_start, node_text, SyntaxTree};

/// What a language's issues check beyond its comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssueChecks {
    /// `==`/`!=` that convert types before comparing (JavaScript).
    pub loose_equality: bool,
    /// Imports nothing uses, as the language binds them.
    pub unused_imports: Option<UnusedImports>,
}

/// How a language's imports bind names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnusedImports {
    /// `import "a/b"` binds `b` (or its alias), used as `b.X`.
    Go,
    /// `import a.b.C;` binds `C`; `import static a.B.m;` binds `m`.
    Java,
}

/// The markers of a TODO comment, as whole words.
const MARKERS: [&str; 4] = ["TODO", "FIXME", "XXX", "HACK"];

/// The potential issues of a file, in source order.
pub fn issues(text: &Rope, tree: &SyntaxTree, checks: IssueChecks) -> Vec<Issue> {
    let mut out = Vec::new();
    let mut stack: Vec<Node<'_>> = vec![tree.root()];
    while let Some(node) = stack.pop() {
        if node.kind().contains("comment") {
            if let Some(issue) = todo(text, node) {
                out.push(issue);
            }
            continue;
        }
        if checks.loose_equality && node.kind() == "binary_expression" {
            if let Some(issue) = loose_equality(text, node) {
                out.push(issue);
            }
        }
        let mut walk = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut walk).collect();
        stack.extend(children.into_iter().rev());
    }
    match checks.unused_imports {
        Some(UnusedImports::Go) => out.extend(unused_go_imports(text, tree)),
        Some(UnusedImports::Java) => out.extend(unused_java_imports(text, tree)),
        None => {}
    }
    out.sort_by_key(|i| i.position);
    out
}

/// Every node of the tree, parents first, each with whether it lies
/// inside a node of one of the `skipped` kinds (an import declaration):
/// one walk, as a node's parent costs a descent from the root.
fn nodes<'t>(tree: &'t SyntaxTree, skipped: &[&str]) -> Vec<(Node<'t>, bool)> {
    let mut out = Vec::new();
    let mut stack = vec![(tree.root(), false)];
    while let Some((node, inside)) = stack.pop() {
        out.push((node, inside));
        let inside = inside || skipped.contains(&node.kind());
        let mut walk = node.walk();
        stack.extend(node.children(&mut walk).map(|child| (child, inside)));
    }
    out
}

/// Whether a comment of the file names `word` (a Javadoc `{@link}`, a
/// commented-out use: the import may be meant).
fn commented(text: &Rope, all: &[(Node<'_>, bool)], word: &str) -> bool {
    all.iter()
        .filter(|(n, _)| n.kind().contains("comment"))
        .any(|(n, _)| has_word(&node_text(text, *n), word))
}

fn unused(position: crate::edit::Position, name: &str) -> Issue {
    Issue {
        kind: IssueKind::UnusedImport,
        position,
        message: format!("unused import '{name}'"),
    }
}

/// Go: each `import_spec` binding a package name the file never uses as
/// `name.X` (in code or in a type).
fn unused_go_imports(text: &Rope, tree: &SyntaxTree) -> Vec<Issue> {
    let all = nodes(tree, &["import_spec"]);
    let used: std::collections::HashSet<String> = all
        .iter()
        .filter(|(_, in_import)| !in_import)
        .filter_map(|(n, _)| match n.kind() {
            "package_identifier" => Some(node_text(text, *n)),
            // (a local of the package's name hides it: `strings :=
            // …; strings.X` reads the local)
            "selector_expression" => n
                .child_by_field_name("operand")
                .filter(|o| o.kind() == "identifier")
                .map(|o| node_text(text, o))
                .filter(|name| !go_bound_locally(text, *n, name)),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (spec, _) in all.iter().filter(|(n, _)| n.kind() == "import_spec") {
        let Some(path) = spec.child_by_field_name("path") else {
            continue;
        };
        let name = match spec.child_by_field_name("name") {
            // `_` and `.` imports are used for their effects or names
            Some(alias) if alias.kind() == "package_identifier" => node_text(text, alias),
            Some(_) => continue,
            None => {
                let written = node_text(text, path);
                let last = written
                    .trim_matches('"')
                    .rsplit('/')
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                // the package's name is the path's last element only by
                // convention; where it cannot be a name, it is unknown
                let is_name = last.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                    && last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !(last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit()));
                if !is_name {
                    continue;
                }
                last
            }
        };
        // (a comment naming it uses nothing: the compiler says so too)
        if !used.contains(&name) {
            out.push(unused(node_start(text, path), &name));
        }
    }
    out
}

/// Go: whether a local binding of `name` is in scope at `node`: a
/// parameter, receiver or named result of a function around it, or a
/// declaration (`:=`, `var`, `const`, a `for` or `if` clause's) ended
/// before it in a block or statement around it.
fn go_bound_locally(text: &Rope, node: Node<'_>, name: &str) -> bool {
    let at = node.start_byte();
    // the names a `:=`'s left side binds (`a, strings := …`)
    let names = |left: Node<'_>| -> bool {
        let mut walk = left.walk();
        let mut listed: Vec<Node<'_>> = left.named_children(&mut walk).collect();
        listed.push(left);
        listed
            .into_iter()
            .any(|n| n.kind() == "identifier" && node_text(text, n) == name)
    };
    let declares = |statement: Node<'_>| -> bool {
        match statement.kind() {
            "short_var_declaration" => statement.child_by_field_name("left").is_some_and(names),
            // (`for k = range xs` assigns: only `:=` binds)
            "range_clause" => {
                node_text(text, statement).contains(":=")
                    && statement.child_by_field_name("left").is_some_and(names)
            }
            // (each spec's or parameter's names: `var a, strings = …`,
            // `func(os []string)`)
            "var_declaration" | "const_declaration" | "parameter_list" => {
                let mut walk = statement.walk();
                let parts: Vec<Node<'_>> = statement.named_children(&mut walk).collect();
                parts.into_iter().any(|part| {
                    let mut walk = part.walk();
                    let bound = part
                        .children_by_field_name("name", &mut walk)
                        .any(|n| node_text(text, n) == name);
                    bound
                })
            }
            "for_clause" => statement
                .child_by_field_name("initializer")
                .is_some_and(|i| {
                    i.kind() == "short_var_declaration"
                        && i.child_by_field_name("left").is_some_and(names)
                }),
            _ => false,
        }
    };
    let mut inner = node;
    while let Some(around) = inner.parent() {
        let mut walk = around.walk();
        let before: Vec<Node<'_>> = around
            .named_children(&mut walk)
            .filter(|c| c.end_byte() <= at)
            .collect();
        if before.into_iter().any(declares) {
            return true;
        }
        inner = around;
    }
    false
}

/// Java: each single-name import (`import a.b.C;`, `import static
/// a.B.m;`) whose name the file never mentions outside its imports.
fn unused_java_imports(text: &Rope, tree: &SyntaxTree) -> Vec<Issue> {
    let all = nodes(tree, &["import_declaration", "package_declaration"]);
    let used: std::collections::HashSet<String> = all
        .iter()
        .filter(|(n, in_import)| !in_import && matches!(n.kind(), "identifier" | "type_identifier"))
        .map(|(n, _)| node_text(text, *n))
        .collect();
    let mut out = Vec::new();
    for (import, _) in all.iter().filter(|(n, _)| n.kind() == "import_declaration") {
        let mut walk = import.walk();
        let children: Vec<Node<'_>> = import.named_children(&mut walk).collect();
        if children.iter().any(|c| c.kind() == "asterisk") {
            continue;
        }
        let Some(path) = children
            .iter()
            .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))
        else {
            continue;
        };
        let name = match path.child_by_field_name("name") {
            Some(name) => node_text(text, name),
            None => node_text(text, *path),
        };
        if !used.contains(&name) && !commented(text, &all, &name) {
            out.push(unused(node_start(text, *path), &name));
        }
    }
    out
}

/// A comment naming a marker: its line with the marker, without the
/// comment's own punctuation.
fn todo(text: &Rope, comment: Node<'_>) -> Option<Issue> {
    let whole = node_text(text, comment);
    let (index, line) = whole
        .lines()
        .enumerate()
        .find(|(_, line)| MARKERS.iter().any(|m| has_word(line, m)))?;
    let body = line
        .trim()
        .trim_start_matches("/**")
        .trim_start_matches("/*")
        .trim_start_matches('/')
        .trim_start_matches('*')
        .trim_end_matches("*/")
        .trim();
    let mut position = node_start(text, comment);
    if index > 0 {
        position.line += index;
        let row = crate::analysis::lines::text_of(text, position.line);
        position.col = row.chars().take_while(|c| c.is_whitespace()).count();
    }
    Some(Issue {
        kind: IssueKind::Todo,
        position,
        message: body.chars().take(80).collect(),
    })
}

/// `a == b` or `a != b`, unless one side is `null`.
fn loose_equality(text: &Rope, node: Node<'_>) -> Option<Issue> {
    let operator = node.child_by_field_name("operator")?;
    let strict = match operator.kind() {
        "==" => "===",
        "!=" => "!==",
        _ => return None,
    };
    let is_null = |side: &str| {
        node.child_by_field_name(side)
            .is_some_and(|n| n.kind() == "null")
    };
    if is_null("left") || is_null("right") {
        return None;
    }
    Some(Issue {
        kind: IssueKind::LooseEquality,
        position: node_start(text, operator),
        message: format!(
            "'{}' compares after converting types: use '{strict}'",
            operator.kind()
        ),
    })
}
