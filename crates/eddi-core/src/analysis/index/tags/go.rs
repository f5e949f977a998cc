//! Go: a package is a directory (its files of one package clause see
//! each other's names); an import path names a package of the module when
//! it starts with the module path of the nearest `go.mod` above the file,
//! or of another module of the project it builds with (a `replace` to a
//! directory, a `go.work` using both: [`local_module`]), and is unknown
//! otherwise (the standard library, other modules). The
//! names declared with a type — a method's receiver, parameters, `var x
//! T`, `x := T{…}` — make `x.M` a method of that type; so do the values
//! whose type the project states: `x := e`, `for _, x := range e`, `v
//! := <-ch` (a `select`'s `case v := <-ch:` too), a type switch's name in
//! a case of one type and member uses through expressions ([`chain`])
//! keep the expression, and
//! the file's [`Declared`] types of fields, results and variables let a
//! query infer its type (`resolve/infer.rs`). Through any other value,
//! `x.M` is possible.

use compact_str::CompactString;
use tree_sitter::Node;

use super::family::{joined, Family, Files, ModuleKey, Source, TypedKinds};
use super::scan::{
    Declared, DeclaredKind, Import, ImportKind, Imported, Qualifier, TagsFile, Typed,
};
use crate::analysis::syntax::{byte_to_char, LineTable};

pub struct Go;

impl Family for Go {
    fn read_module(&self, text: &str, _lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
        let mut cursor = root.walk();
        for node in root.named_children(&mut cursor) {
            match node.kind() {
                "package_clause" => {
                    file.package = package_name(node).map(|n| text[n.byte_range()].to_string())
                }
                "import_declaration" => imports(text, node, file),
                _ => {}
            }
        }
        constructors(text, root, file);
        declared(text, root, file);
    }

    fn typed_kinds(&self) -> TypedKinds {
        TypedKinds {
            nodes: &[
                "parameter_declaration",
                "variadic_parameter_declaration",
                "var_spec",
                "short_var_declaration",
                "range_clause",
                "receive_statement",
                "type_case",
            ],
            functions: &["function_declaration", "method_declaration", "func_literal"],
            classes: &[],
        }
    }

    fn read_typed(
        &self,
        text: &str,
        lines: &LineTable<'_>,
        node: Node<'_>,
        function: Node<'_>,
        _class: Node<'_>,
        file: &mut TagsFile,
    ) {
        typed_name(text, lines, node, function, file)
    }

    fn qualifier(&self, text: &str, object: Node<'_>) -> Qualifier {
        match object.kind() {
            "identifier" | "package_identifier" | "type_identifier" => {
                Qualifier::Name(text[object.byte_range()].into())
            }
            _ => match chain(text, object) {
                Some(expression) => Qualifier::Expression(expression),
                None => Qualifier::Other,
            },
        }
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
        let (module_dir, rest) = match rest {
            Some(rest) => (module_dir, rest),
            // another module of the project this one builds with (a
            // `replace` to a directory, a `go.work` that uses both)
            None => match local_module(files, &module_dir, source) {
                Some(found) => found,
                None => return Source::Unknown,
            },
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

    fn label(&self, path: &str, package: Option<&str>) -> String {
        match directory(path) {
            "" => package.unwrap_or_default().to_string(),
            dir => dir.replace('/', "."),
        }
    }

    fn package<'t>(&self, root: Node<'t>) -> Option<Node<'t>> {
        let mut cursor = root.walk();
        let clause = root
            .named_children(&mut cursor)
            .find(|n| n.kind() == "package_clause")?;
        package_name(clause)
    }
}

/// The name a `package x` clause declares.
fn package_name(clause: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = clause.walk();
    let found = clause
        .named_children(&mut cursor)
        .find(|n| n.kind() == "package_identifier");
    found
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

/// The module of the project that the module in `module_dir` builds
/// `source` from, when one does — its `go.mod` replaces that module with
/// a directory (`replace example.com/lib => ../lib`), or a `go.work` above
/// it uses both directories —: that module's directory and the rest of
/// the import path after the module's path.
fn local_module<'s>(
    files: &Files<'_>,
    module_dir: &str,
    source: &'s str,
) -> Option<(String, &'s str)> {
    let modules = replaced_modules(files, module_dir)
        .into_iter()
        .chain(workspace_modules(files, module_dir));
    let (path, dir) = modules
        .filter(|(path, _)| source == path || source.starts_with(&format!("{path}/")))
        .max_by_key(|(path, _)| path.len())?;
    let rest = source[path.len()..].trim_start_matches('/');
    Some((dir, rest))
}

/// The `replace M => ./dir` (or `M v1.2.3 => ../dir`) directives of the
/// `go.mod` in `module_dir`, single or in a block, as (module path,
/// directory from the root).
fn replaced_modules(files: &Files<'_>, module_dir: &str) -> Vec<(String, String)> {
    let Some(text) = files.manifest(&in_dir(module_dir, "go.mod")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default().trim();
        let directive = match line.strip_prefix("replace") {
            Some(rest) if rest.trim_start().starts_with('(') => {
                in_block = true;
                continue;
            }
            Some(rest) => rest.trim(),
            None if in_block && line == ")" => {
                in_block = false;
                continue;
            }
            None if in_block => line,
            None => continue,
        };
        let Some((old, new)) = directive.split_once("=>") else {
            continue;
        };
        let (Some(module), Some(target)) =
            (old.split_whitespace().next(), new.split_whitespace().next())
        else {
            continue;
        };
        if !(target.starts_with("./") || target.starts_with("../")) {
            continue;
        }
        if let Some(dir) = joined(module_dir, target) {
            found.push((module.trim_matches('"').to_string(), dir));
        }
    }
    found
}

/// The modules of the `go.work` at or above `module_dir` that uses it:
/// each `use`d directory's module path and directory.
fn workspace_modules(files: &Files<'_>, module_dir: &str) -> Vec<(String, String)> {
    let mut at = Some(module_dir);
    while let Some(dir) = at {
        if let Some(text) = files.manifest(&in_dir(dir, "go.work")) {
            let used = work_uses(&text)
                .into_iter()
                .filter_map(|u| joined(dir, &u))
                .collect::<Vec<_>>();
            if !used.iter().any(|u| u == module_dir) {
                return Vec::new();
            }
            return used
                .into_iter()
                .filter_map(|u| Some((go_mod(files, &u).filter(|(d, _)| *d == u)?.1, u)))
                .collect();
        }
        at = match dir {
            "" => None,
            d => Some(directory(d)),
        };
    }
    Vec::new()
}

/// The directories a `go.work` file `use`s, single or in a block.
fn work_uses(text: &str) -> Vec<String> {
    let mut used = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default().trim();
        match line.strip_prefix("use") {
            Some(rest) if rest.trim_start().starts_with('(') => in_block = true,
            Some(rest) if !rest.is_empty() && rest.starts_with(char::is_whitespace) => {
                used.push(rest.trim().trim_matches('"').to_string())
            }
            _ if in_block && line == ")" => in_block = false,
            _ if in_block && !line.is_empty() => used.push(line.trim_matches('"').to_string()),
            _ => {}
        }
    }
    used
}

fn in_dir(dir: &str, name: &str) -> String {
    match dir {
        "" => name.to_string(),
        d => format!("{d}/{name}"),
    }
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
        let Some(path) = child(spec, F::Path) else {
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
        let (local, imported) = match child(spec, F::Name) {
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
        "composite_literal" => child(node, F::Type).and_then(|t| type_name(text, t)),
        "unary_expression" => child(node, F::Operand).and_then(|o| type_name(text, o)),
        _ => None,
    }
}

/// An expression whose type a query may infer, written compactly: a
/// name (or a type assertion's type, `(T)`, or `new(T)`), then steps `.name`, `()` (a
/// call, its arguments left out), `[]` (an index) and `<-` (a receive,
/// written after what it receives from): `t.lookup(n).items[i]` is
/// `t.lookup().items[]`, `<-t.done` is `t.done<-`. A dereference, an address and parentheses
/// keep the type a selector reads through. `None`: another expression
/// (a literal, an operator's, a generic call with type arguments).
pub(super) fn chain(text: &str, expression: Node<'_>) -> Option<CompactString> {
    // (the steps from the last, the node walked down to the root name)
    let mut steps: Vec<&str> = Vec::new();
    let mut node = expression;
    let root = loop {
        match node.kind() {
            "identifier" | "package_identifier" => {
                break CompactString::from(&text[node.byte_range()])
            }
            "selector_expression" => {
                steps.push(&text[child(node, F::Field)?.byte_range()]);
                steps.push(".");
                node = child(node, F::Operand)?;
            }
            "call_expression" if child(node, F::TypeArguments).is_none() => {
                let function = child(node, F::Function)?;
                if let Some(made) = allocated(text, node, function) {
                    break made;
                }
                steps.push("()");
                node = function;
            }
            "index_expression" => {
                steps.push("[]");
                node = child(node, F::Operand)?;
            }
            "parenthesized_expression" => node = node.named_child(0)?,
            "unary_expression" => {
                let operator = child(node, F::Operator)?;
                match &text[operator.byte_range()] {
                    "*" | "&" => {}
                    // a value received from a channel: its element
                    "<-" => steps.push("<-"),
                    _ => return None,
                }
                node = child(node, F::Operand)?;
            }
            // `x.(T)` and `T{…}` (`&T{…}`): a value of `T`
            "type_assertion_expression" | "composite_literal" => {
                let stated = &text[child(node, F::Type)?.byte_range()];
                if !plain_type(stated) {
                    return None;
                }
                break compact_str::format_compact!("({stated})");
            }
            _ => return None,
        }
    };
    let mut written = root;
    steps.iter().rev().for_each(|s| written.push_str(s));
    Some(written)
}

/// `new(T)` as `new(T)` (a query checks that `new` is the builtin).
fn allocated(text: &str, call: Node<'_>, function: Node<'_>) -> Option<CompactString> {
    if function.kind() != "identifier" || &text[function.byte_range()] != "new" {
        return None;
    }
    let arguments = child(call, F::Arguments)?;
    let mut c = arguments.walk();
    let mut types = arguments.named_children(&mut c);
    let (Some(t), None) = (types.next(), types.next()) else {
        return None;
    };
    let t = &text[t.byte_range()];
    plain_type(t).then(|| compact_str::format_compact!("new({t})"))
}

/// Whether a type as written is a name, `pkg.T` or a pointer to one
/// (what a compact expression may hold).
fn plain_type(t: &str) -> bool {
    !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'*'))
}

/// A slice's, an array's, a map's or a channel's type, as written
/// (`[]*Item`, `map[string]T`, `<-chan T`), or a pointer to one: what an
/// index, a receive or a range reads its element of.
fn composite_type(text: &str, node: Node<'_>) -> Option<String> {
    let inner = match node.kind() {
        "pointer_type" => node.named_child(0)?,
        _ => node,
    };
    matches!(
        inner.kind(),
        "slice_type" | "array_type" | "map_type" | "channel_type"
    )
    .then(|| text[node.byte_range()].to_string())
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
        let (Some(name), Some(result)) = (child(function, F::Name), child(function, F::Result))
        else {
            continue;
        };
        let first = match result.kind() {
            "parameter_list" => result.named_child(0).and_then(|p| child(p, F::Type)),
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

/// The declared types the file states ([`TagsFile::declared`]): its
/// non-generic structs' named fields, its functions' and its non-generic
/// types' methods' first results, its package-level variables and
/// constants with a type, and its package-level variables without one
/// by their values (a composite literal's type, or the expression a
/// query infers the type of).
fn declared(text: &str, root: Node<'_>, file: &mut TagsFile) {
    let mut push = |owner: Option<&str>, name: &str, t: &str, kind: DeclaredKind| {
        file.declared.push(Declared {
            owner: owner.map(CompactString::from),
            name: name.into(),
            type_text: t.into(),
            kind,
        })
    };
    let written = |n: Node<'_>| &text[n.byte_range()];
    let mut c = root.walk();
    for node in root.named_children(&mut c) {
        match node.kind() {
            "function_declaration" | "method_declaration" => {
                if child(node, F::TypeParameters).is_some() {
                    continue;
                }
                let owner = match child(node, F::Receiver) {
                    Some(receiver) => match receiver_type(text, receiver) {
                        Some(owner) => Some(owner),
                        None => continue,
                    },
                    None => None,
                };
                let Some(name) = child(node, F::Name) else {
                    continue;
                };
                // (one without a result too: a type's own method)
                let first = first_result(node).map_or("", written);
                push(owner, written(name), first, DeclaredKind::Returns);
            }
            "type_declaration" => {
                let mut c = node.walk();
                for spec in node.named_children(&mut c) {
                    let (Some(owner), Some(body)) = (child(spec, F::Name), child(spec, F::Type))
                    else {
                        continue;
                    };
                    let owner = written(owner);
                    let generic = child(spec, F::TypeParameters).is_some();
                    match body.kind() {
                        _ if generic || spec.kind() != "type_spec" => {
                            push(Some(owner), "", "", DeclaredKind::Embedded)
                        }
                        "struct_type" => {
                            let Some(fields) = body.named_child(0) else {
                                continue;
                            };
                            let mut c = fields.walk();
                            for field in fields.named_children(&mut c) {
                                let Some(t) = child(field, F::Type) else {
                                    continue;
                                };
                                let mut c = field.walk();
                                let mut named = false;
                                for name in children(field, F::Name, &mut c) {
                                    push(
                                        Some(owner),
                                        written(name),
                                        written(t),
                                        DeclaredKind::Value,
                                    );
                                    named = true;
                                }
                                if !named {
                                    // the embedded field is named by its type
                                    let by = written(t).trim_start_matches('*');
                                    let by = by.split('[').next().unwrap_or(by);
                                    let by = by.rsplit('.').next().unwrap_or(by);
                                    push(Some(owner), by, written(t), DeclaredKind::Embedded);
                                }
                            }
                        }
                        // its methods (what an embedding of it promotes),
                        // and whether it embeds what it does not state
                        "interface_type" => {
                            let mut c = body.walk();
                            for element in body.named_children(&mut c) {
                                match element.kind() {
                                    "method_elem" => {
                                        let Some(name) = child(element, F::Name) else {
                                            continue;
                                        };
                                        let first = first_result(element).map_or("", written);
                                        push(
                                            Some(owner),
                                            written(name),
                                            first,
                                            DeclaredKind::Returns,
                                        );
                                    }
                                    "comment" => {}
                                    _ => push(Some(owner), "", "", DeclaredKind::Embedded),
                                }
                            }
                        }
                        "type_identifier" if PREDECLARED.contains(&written(body)) => {}
                        // (the type it names: a literal of it has that one's keys)
                        "type_identifier" | "qualified_type" | "generic_type" => {
                            push(Some(owner), "", written(body), DeclaredKind::Embedded)
                        }
                        _ => {}
                    }
                }
            }
            "var_declaration" | "const_declaration" => {
                let mut specs = vec![node];
                let mut at = 0;
                while let Some(n) = specs.get(at).copied() {
                    at += 1;
                    let mut c = n.walk();
                    specs.extend(n.named_children(&mut c).filter(|s| {
                        matches!(s.kind(), "var_spec" | "const_spec" | "var_spec_list")
                    }));
                }
                for spec in &specs[1..] {
                    let mut c = spec.walk();
                    let names = children(*spec, F::Name, &mut c);
                    match child(*spec, F::Type) {
                        Some(t) => {
                            for name in names {
                                push(None, written(name), written(t), DeclaredKind::Value);
                            }
                        }
                        None if spec.kind() == "var_spec" => {
                            for (name, value) in names.into_iter().zip(values_one_each(*spec)) {
                                match type_name(text, value) {
                                    Some(t) => push(None, written(name), &t, DeclaredKind::Value),
                                    None => {
                                        let Some(e) = chain(text, value) else {
                                            continue;
                                        };
                                        push(None, written(name), &e, DeclaredKind::Inferred)
                                    }
                                }
                            }
                        }
                        None => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// The values of a `var` spec without a type, one for each of its names
/// (none for `var a, b = f()`, whose call's results the scan does not
/// read).
fn values_one_each(spec: Node<'_>) -> Vec<Node<'_>> {
    let Some(values) = child(spec, F::Value) else {
        return Vec::new();
    };
    let mut c = values.walk();
    let values: Vec<Node<'_>> = values.named_children(&mut c).collect();
    let mut c = spec.walk();
    match children(spec, F::Name, &mut c).len() == values.len() {
        true => values,
        false => Vec::new(),
    }
}

/// The type of a function's (a method's, an interface method's) first
/// result, as written.
fn first_result(function: Node<'_>) -> Option<Node<'_>> {
    let result = child(function, F::Result)?;
    match result.kind() {
        "parameter_list" => result
            .named_child(0)
            .filter(|p| p.kind() == "parameter_declaration")
            .and_then(|p| child(p, F::Type)),
        _ => Some(result),
    }
}

/// Go's predeclared types that a defined type may be over: none reaches
/// a member of the project's types.
pub(super) use crate::language::go::GO_PREDECLARED_TYPES as PREDECLARED;

/// The type a method's receiver is of, by name (`T` of `(t *T)`);
/// `None` for a generic type's (`(l *List[E])`).
fn receiver_type<'t>(text: &'t str, receiver: Node<'_>) -> Option<&'t str> {
    let t = child(receiver.named_child(0)?, F::Type)?;
    let t = match t.kind() {
        "pointer_type" => t.named_child(0)?,
        _ => t,
    };
    (t.kind() == "type_identifier").then(|| &text[t.byte_range()])
}

/// The fields of the Go grammar the scan reads.
#[derive(Clone, Copy)]
enum F {
    Alias,
    Arguments,
    Field,
    Function,
    Left,
    Name,
    Operand,
    Operator,
    Path,
    Receiver,
    Result,
    Right,
    Type,
    TypeArguments,
    TypeParameters,
    Value,
}

/// The ids of [`F`]'s fields, in its order (a field read by its name is
/// a search of the grammar's names: looked up once).
fn field_ids() -> &'static [u16; 16] {
    static FIELDS: std::sync::OnceLock<[u16; 16]> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let grammar = crate::language::Language::grammar(&crate::language::go::Go);
        [
            "alias",
            "arguments",
            "field",
            "function",
            "left",
            "name",
            "operand",
            "operator",
            "path",
            "receiver",
            "result",
            "right",
            "type",
            "type_arguments",
            "type_parameters",
            "value",
        ]
        .map(|f| grammar.field_id_for_name(f).map_or(0, |id| id.get()))
    })
}

/// `node`'s child in `field`.
fn child(node: Node<'_>, field: F) -> Option<Node<'_>> {
    node.child_by_field_id(field_ids()[field as usize])
}

/// `node`'s children in `field`.
fn children<'t>(
    node: Node<'t>,
    field: F,
    cursor: &mut tree_sitter::TreeCursor<'t>,
) -> Vec<Node<'t>> {
    match std::num::NonZeroU16::new(field_ids()[field as usize]) {
        Some(id) => node.children_by_field_id(id, cursor).collect(),
        None => Vec::new(),
    }
}

/// The names `node` declares with a type, with the function (or file)
/// it is declared in as their scope.
fn typed_name(
    text: &str,
    lines: &LineTable<'_>,
    node: Node<'_>,
    scope: Node<'_>,
    file: &mut TagsFile,
) {
    // (the scope's chars, shared by the names it declares, found once)
    let mut chars = None;
    let mut typed = |file: &mut TagsFile, name: Node<'_>, type_name: String, inferred: bool| {
        let scope = chars
            .get_or_insert_with(|| {
                byte_to_char(lines, scope.start_byte())..byte_to_char(lines, scope.end_byte())
            })
            .clone();
        file.typed.push(Typed {
            name: text[name.byte_range()].to_string(),
            type_name,
            scope,
            at: Some(byte_to_char(lines, name.start_byte())),
            inferred,
        });
    };
    match node.kind() {
        "parameter_declaration" | "variadic_parameter_declaration" | "var_spec" => {
            let mut c = node.walk();
            let names = children(node, F::Name, &mut c);
            let declared = child(node, F::Type);
            // `var x = e` in a function: of the expression's type; not in
            // a group (`var ( a = f(); b = a )`), where the scan binds
            // `a` from the group's end, so `b`'s `a` may seem an outer one
            // (the parent asked last: a search from the root)
            let values = child(node, F::Value).filter(|_| {
                declared.is_none()
                    && scope.kind() != "source_file"
                    && node.parent().is_none_or(|p| p.kind() != "var_spec_list")
            });
            let types: Vec<(String, bool)> = match (declared, values) {
                (Some(t), _) => {
                    let Some(t) = type_name(text, t).or_else(|| composite_type(text, t)) else {
                        return;
                    };
                    let t = match node.kind() {
                        "variadic_parameter_declaration" => format!("[]{t}"),
                        _ => t,
                    };
                    vec![(t, false); names.len()]
                }
                (None, Some(values)) => {
                    let mut c = values.walk();
                    values
                        .named_children(&mut c)
                        .map(|v| (chain(text, v).map(String::from).unwrap_or_default(), true))
                        .collect()
                }
                (None, None) => return,
            };
            for (name, (t, inferred)) in names.into_iter().zip(types) {
                if !t.is_empty() {
                    typed(file, name, t, inferred);
                }
            }
        }
        "short_var_declaration" => {
            if let (Some(left), Some(right)) = (child(node, F::Left), child(node, F::Right)) {
                let (mut lc, mut rc) = (left.walk(), right.walk());
                for (name, value) in left
                    .named_children(&mut lc)
                    .zip(right.named_children(&mut rc))
                {
                    // `T{…}`, `&T{…}`: of type `T`; any other value, the
                    // expression's
                    let (t, inferred) = match type_name(text, value) {
                        Some(t) => (Some(t), false),
                        None => (chain(text, value).map(String::from), true),
                    };
                    if let Some(t) = t {
                        typed(file, name, t, inferred);
                    }
                }
            }
        }
        // `for k, v := range e`: `v` is an element (a value) of `e`
        "range_clause" => {
            let (Some(left), Some(right)) = (child(node, F::Left), child(node, F::Right)) else {
                return;
            };
            let declares = text[left.end_byte()..right.start_byte()].contains(":=");
            let mut c = left.walk();
            let names: Vec<Node<'_>> = left.named_children(&mut c).collect();
            let (true, Some(e)) = (declares, chain(text, right)) else {
                return;
            };
            match names[..] {
                [_, value] => typed(file, value, format!("{e}[]"), true),
                // `for v := range ch`: an element of a channel (over
                // anything else, what it reads is no element: unknown)
                [value] => typed(file, value, format!("{e}<-"), true),
                _ => {}
            }
        }
        // `case v := <-ch:` (`v, ok := <-ch`) in a `select`
        "receive_statement" => {
            let (Some(left), Some(right)) = (child(node, F::Left), child(node, F::Right)) else {
                return;
            };
            let declares = text[left.end_byte()..right.start_byte()].contains(":=");
            let value = left.named_child(0);
            if let (true, Some(value), Some(e)) = (declares, value, chain(text, right)) {
                typed(file, value, e.to_string(), true);
            }
        }
        // `switch t := x.(type) { case *T: … }`: in a case of one type,
        // `t` is of it, as `x.(*T)` is (inferred, its scope the case's:
        // a name the case declares again is bound by its own entry)
        "type_case" => {
            let alias = node
                .parent()
                .filter(|s| s.kind() == "type_switch_statement")
                .and_then(|s| child(s, F::Alias))
                .and_then(|a| a.named_child(0));
            let mut c = node.walk();
            let types = children(node, F::Type, &mut c);
            let (Some(alias), [t]) = (alias, &types[..]) else {
                return;
            };
            let stated = &text[t.byte_range()];
            if stated == "nil" || !plain_type(stated) {
                return;
            }
            file.typed.push(Typed {
                name: text[alias.byte_range()].to_string(),
                type_name: format!("({stated})"),
                scope: byte_to_char(lines, node.start_byte())..byte_to_char(lines, node.end_byte()),
                at: Some(byte_to_char(lines, alias.start_byte())),
                inferred: true,
            });
        }
        _ => {}
    }
}
