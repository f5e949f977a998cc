//! Go: a package is a directory (its files of one package clause see
//! each other's names); an import path names a package of the module when
//! it starts with the module path of the nearest `go.mod` above the file,
//! and is unknown otherwise (the standard library, other modules). The
//! names declared with a type — a method's receiver, parameters, `var x
//! T`, `x := T{…}` — make `x.M` a method of that type; through any other
//! value, `x.M` is possible.

use ropey::Rope;
use tree_sitter::Node;

use super::family::{Family, Files, ModuleKey, Source, TypedKinds};
use super::scan::{Import, ImportKind, Imported, TagsFile, Typed};
use crate::analysis::syntax::byte_to_char;

pub struct Go;

impl Family for Go {
    fn read_module(&self, text: &str, _rope: &Rope, root: Node<'_>, file: &mut TagsFile) {
        let mut cursor = root.walk();
        for node in root.named_children(&mut cursor) {
            match node.kind() {
                "package_clause" => {
                    let mut c = node.walk();
                    file.package = node
                        .named_children(&mut c)
                        .find(|n| n.kind() == "package_identifier")
                        .map(|n| text[n.byte_range()].to_string());
                }
                "import_declaration" => imports(text, node, file),
                _ => {}
            }
        }
        constructors(text, root, file);
    }

    fn typed_kinds(&self) -> TypedKinds {
        TypedKinds {
            nodes: &["parameter_declaration", "var_spec", "short_var_declaration"],
            functions: &["function_declaration", "method_declaration", "func_literal"],
            classes: &[],
        }
    }

    fn read_typed(
        &self,
        text: &str,
        rope: &Rope,
        node: Node<'_>,
        function: Node<'_>,
        _class: Node<'_>,
        file: &mut TagsFile,
    ) {
        typed_name(text, rope, node, function, file)
    }

    fn module_of(&self, _files: &Files<'_>, path: &str, _file: &TagsFile) -> ModuleKey {
        directory(path).to_string()
    }

    fn resolve(&self, files: &Files<'_>, from: &str, _file: &TagsFile, source: &str) -> Source {
        let Some((module_dir, module_path)) = go_mod(files, directory(from)) else {
            return Source::Unknown;
        };
        let rest = if source == module_path {
            Some("")
        } else if module_path == "std" {
            // the standard library's own module: its import paths are its
            // directories (`fmt`, `internal/fmtsort`)
            Some(source)
        } else {
            source
                .strip_prefix(module_path.as_str())
                .and_then(|r| r.strip_prefix('/'))
        };
        let Some(rest) = rest else {
            return Source::Unknown;
        };
        let dir = match (module_dir.as_str(), rest) {
            ("", r) => r.to_string(),
            (d, "") => d.to_string(),
            (d, r) => format!("{d}/{r}"),
        };
        match files.has_in(&dir, "go") {
            true => Source::Module(dir),
            false => Source::Unknown,
        }
    }

    fn shares_module(&self) -> bool {
        true
    }

    fn resolves_by_paths(&self) -> bool {
        true
    }

    fn label(&self, path: &str, file: &TagsFile) -> String {
        match directory(path) {
            "" => file.package.clone().unwrap_or_default(),
            dir => dir.replace('/', "."),
        }
    }
}

fn directory(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// The nearest `go.mod` at or above `dir` (within the root): its
/// directory and its module path.
fn go_mod(files: &Files<'_>, dir: &str) -> Option<(String, String)> {
    let mut at = Some(dir);
    while let Some(d) = at {
        let manifest = match d {
            "" => "go.mod".to_string(),
            d => format!("{d}/go.mod"),
        };
        if let Some(text) = files.manifest(&manifest) {
            let module = text.lines().find_map(|line| {
                let rest = line.trim().strip_prefix("module")?;
                Some(rest.trim().trim_matches('"').to_string())
            })?;
            return Some((d.to_string(), module));
        }
        at = match d {
            "" => None,
            d => Some(directory(d)),
        };
    }
    None
}

/// `import "a/b"`, `import x "a/b"`, `import . "a/b"`, and their groups.
fn imports(text: &str, declaration: Node<'_>, file: &mut TagsFile) {
    let mut specs = Vec::new();
    let mut c = declaration.walk();
    for n in declaration.named_children(&mut c) {
        match n.kind() {
            "import_spec" => specs.push(n),
            "import_spec_list" => {
                let mut c = n.walk();
                specs.extend(
                    n.named_children(&mut c)
                        .filter(|s| s.kind() == "import_spec"),
                );
            }
            _ => {}
        }
    }
    for spec in specs {
        let Some(path) = spec.child_by_field_name("path") else {
            continue;
        };
        let source = text[path.byte_range()].trim_matches(|c| c == '"' || c == '`');
        let last = source.rsplit('/').next().unwrap_or(source);
        // `pkg/v2` is package `pkg`
        let last = match (source.rsplit('/').nth(1), last.strip_prefix('v')) {
            (Some(before), Some(n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                before
            }
            _ => last,
        };
        let (local, imported) = match spec.child_by_field_name("name") {
            Some(n) if n.kind() == "dot" => ("*".to_string(), Imported::All),
            Some(n) if n.kind() == "blank_identifier" => continue,
            Some(n) => (text[n.byte_range()].to_string(), Imported::Module),
            None => (last.to_string(), Imported::Module),
        };
        file.imports.push(Import {
            local,
            imported,
            source: source.to_string(),
            kind: ImportKind::Static,
        });
    }
}

/// The type a declaration gives its names, by name (`T`, `*T`, `pkg.T`,
/// `T[int]`).
fn type_name(text: &str, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "type_identifier" => Some(text[node.byte_range()].to_string()),
        "pointer_type" | "generic_type" => {
            node.named_child(0).and_then(|inner| type_name(text, inner))
        }
        // `pkg.T`, resolved through the package's import when a query runs
        "qualified_type" => Some(text[node.byte_range()].to_string()),
        "composite_literal" => node
            .child_by_field_name("type")
            .and_then(|t| type_name(text, t)),
        "unary_expression" => node
            .child_by_field_name("operand")
            .and_then(|o| type_name(text, o)),
        _ => None,
    }
}

/// What a call returns, as `F()` or `pkg.F()`: the first result of the
/// function, which a query reads from its declaration (`x, err :=
/// csv.NewReader(r)`).
fn call_result(text: &str, value: Node<'_>) -> Option<String> {
    let function = value
        .child_by_field_name("function")
        .filter(|_| value.kind() == "call_expression")?;
    match function.kind() {
        "identifier" => Some(format!("{}()", &text[function.byte_range()])),
        "selector_expression" => {
            let operand = function.child_by_field_name("operand")?;
            (operand.kind() == "identifier").then(|| format!("{}()", &text[function.byte_range()]))
        }
        _ => None,
    }
}

/// The file's functions whose first result is one of its package's
/// types (`func New() *List`, `func NewReader(r io.Reader) (*Reader,
/// error)`), as `(T, F)`.
fn constructors(text: &str, root: Node<'_>, file: &mut TagsFile) {
    let mut c = root.walk();
    for function in root
        .named_children(&mut c)
        .filter(|n| n.kind() == "function_declaration")
    {
        let (Some(name), Some(result)) = (
            function.child_by_field_name("name"),
            function.child_by_field_name("result"),
        ) else {
            continue;
        };
        let first = match result.kind() {
            "parameter_list" => result
                .named_child(0)
                .and_then(|p| p.child_by_field_name("type")),
            _ => Some(result),
        };
        let first = first.map(|t| match t.kind() {
            "pointer_type" => t.named_child(0).unwrap_or(t),
            _ => t,
        });
        if let Some(t) = first.filter(|t| t.kind() == "type_identifier") {
            file.constructors.push((
                text[t.byte_range()].to_string(),
                text[name.byte_range()].to_string(),
            ));
        }
    }
}

/// The ids of the Go grammar's fields `type`, `name`, `left` and
/// `right` (a field read by its name is a search of the grammar's names).
fn typed_fields() -> &'static [u16; 4] {
    static FIELDS: std::sync::OnceLock<[u16; 4]> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let grammar = crate::language::Language::grammar(&crate::language::go::Go);
        ["type", "name", "left", "right"]
            .map(|f| grammar.field_id_for_name(f).map_or(0, |id| id.get()))
    })
}

/// The names `node` declares with a type, with the function (or file)
/// it is declared in as their scope.
fn typed_name(text: &str, rope: &Rope, node: Node<'_>, scope: Node<'_>, file: &mut TagsFile) {
    let &[type_field, name_field, left_field, right_field] = typed_fields();
    // (the scope's chars, shared by the names it declares, found once)
    let mut chars = None;
    let mut scope_of = |_: Node<'_>| {
        chars
            .get_or_insert_with(|| {
                byte_to_char(rope, scope.start_byte())..byte_to_char(rope, scope.end_byte())
            })
            .clone()
    };
    match node.kind() {
        "parameter_declaration" | "var_spec" => {
            if let Some(t) = node
                .child_by_field_id(type_field)
                .and_then(|t| type_name(text, t))
            {
                let mut c = node.walk();
                let names: Vec<Node<'_>> = match std::num::NonZeroU16::new(name_field) {
                    Some(f) => node.children_by_field_id(f, &mut c).collect(),
                    None => Vec::new(),
                };
                for name in names {
                    file.typed.push(Typed {
                        name: text[name.byte_range()].to_string(),
                        type_name: t.clone(),
                        scope: scope_of(node),
                    });
                }
            }
        }
        "short_var_declaration" => {
            if let (Some(left), Some(right)) = (
                node.child_by_field_id(left_field),
                node.child_by_field_id(right_field),
            ) {
                let (mut lc, mut rc) = (left.walk(), right.walk());
                for (name, value) in left
                    .named_children(&mut lc)
                    .zip(right.named_children(&mut rc))
                {
                    if let Some(t) = type_name(text, value).or_else(|| call_result(text, value)) {
                        file.typed.push(Typed {
                            name: text[name.byte_range()].to_string(),
                            type_name: t,
                            scope: scope_of(node),
                        });
                    }
                }
            }
        }
        _ => {}
    }
}
