//! Java: a package is a name (`package a.b;`): the classes of one package
//! see each other unqualified; `import a.b.C;` binds `C`, `import a.b.*;`
//! every class of `a.b`. A bare method name inside a class is the class's
//! own (implicit `this`); a field, parameter or local declared with a
//! type makes `x.m()` that type's method; through any other value,
//! `x.m()` is possible. A static import (`import static a.b.C.m;`,
//! `a.b.C.*`) binds a member of class `C` of package `a.b`: a bare `m()`
//! outside `C` is `C.m` when it is imported so, unless a class around it
//! declares an `m` or inherits from another (whose members would hide
//! it: then possible).

use std::ops::Range;

use tree_sitter::Node;

use compact_str::CompactString;

use super::family::{Bound, Family, Files, ModuleKey, Source, TypedKinds};
use super::scan::{
    Declared, DeclaredKind, Import, ImportKind, Imported, Qualifier, TagsFile, Typed,
};
use crate::analysis::syntax::{byte_to_char, LineTable};

pub struct Java;

impl Family for Java {
    fn call_arity(&self, text: &str, after: usize) -> Option<u8> {
        call_arity(text.as_bytes(), after)
    }

    fn skips(&self, statement: Node<'_>) -> bool {
        matches!(
            statement.kind(),
            "package_declaration" | "import_declaration"
        )
    }

    fn read_module(&self, text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
        let mut cursor = root.walk();
        for node in root.named_children(&mut cursor) {
            match node.kind() {
                "package_declaration" => {
                    file.package = package_name(node).map(|n| text[n.byte_range()].to_string())
                }
                "import_declaration" => import(text, lines, node, file),
                _ => {}
            }
        }
        declared(text, root, file);
    }

    fn typed_kinds(&self) -> TypedKinds {
        TypedKinds {
            nodes: &[
                "formal_parameter",
                "catch_formal_parameter",
                "enhanced_for_statement",
                "local_variable_declaration",
                "field_declaration",
                "class_declaration",
                "enum_declaration",
                "interface_declaration",
                "record_declaration",
                "object_creation_expression",
                "lambda_expression",
            ],
            functions: &[
                "method_declaration",
                "constructor_declaration",
                "lambda_expression",
            ],
            classes: &[
                "class_body",
                "enum_body",
                "interface_body",
                "record_declaration",
            ],
        }
    }

    fn read_typed(
        &self,
        text: &str,
        lines: &LineTable<'_>,
        node: Node<'_>,
        function: Node<'_>,
        class: Node<'_>,
        file: &mut TagsFile,
    ) {
        typed_name(text, lines, node, function, class, file);
        inheriting(lines, node, file);
    }

    fn qualifier(&self, text: &str, object: Node<'_>) -> Qualifier {
        match object.kind() {
            "this" => Qualifier::This,
            "identifier" | "type_identifier" => Qualifier::Name(text[object.byte_range()].into()),
            // `com.acme.lib` of `com.acme.lib.Cart` in a type
            "scoped_type_identifier" => match dotted(&text[object.byte_range()]) {
                Some(written) => Qualifier::Expression(written),
                None => Qualifier::Other,
            },
            _ => match chain(text, object) {
                Some(expression) => Qualifier::Expression(expression),
                None => Qualifier::Other,
            },
        }
    }

    fn bound(&self, _files: &Files<'_>, _from: &str, _file: &TagsFile, import: &Import) -> Bound {
        match (import.kind, &import.imported) {
            // a static import binds a member of the class `a.b.C`: of
            // package `a.b`'s item `C`
            (ImportKind::Member, _) => match import.source.rsplit_once('.') {
                Some((package, class)) => Bound::Item(package.to_string(), class.to_string()),
                None => Bound::Item(String::new(), import.source.clone()),
            },
            (_, Imported::Name(name)) => Bound::Item(import.source.clone(), name.clone()),
            (_, Imported::Default) => Bound::Unknown,
            (_, Imported::Module | Imported::All) => Bound::Module(import.source.clone()),
        }
    }

    fn module_of(&self, _files: &Files<'_>, _path: &str, file: &TagsFile) -> ModuleKey {
        file.package.clone().unwrap_or_default()
    }

    fn resolve(&self, _files: &Files<'_>, _from: &str, _file: &TagsFile, source: &str) -> Source {
        // a package is its name: one the project does not define simply
        // holds none of its classes
        Source::Module(source.to_string())
    }

    /// A class named through its package in an import (`C` of `import
    /// static a.b.C.m;`, of `import a.b.C.Inner;`): the package is its
    /// name.
    fn resolve_path(
        &self,
        _files: &Files<'_>,
        _from: &str,
        _file: &TagsFile,
        path: &[String],
    ) -> Option<(ModuleKey, Option<String>)> {
        Some((path.join("."), None))
    }

    fn implicit_members(&self) -> bool {
        true
    }

    fn shares_module(&self) -> bool {
        true
    }

    fn resolves_by_paths(&self) -> bool {
        true
    }

    fn label(&self, _path: &str, package: Option<&str>) -> String {
        package.unwrap_or_default().to_string()
    }

    fn package<'t>(&self, root: Node<'t>) -> Option<Node<'t>> {
        let mut cursor = root.walk();
        let declaration = root
            .named_children(&mut cursor)
            .find(|n| n.kind() == "package_declaration")?;
        package_name(declaration)
    }
}

/// The name a `package a.b;` declaration declares.
fn package_name(declaration: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = declaration.walk();
    let found = declaration
        .named_children(&mut cursor)
        .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"));
    found
}

/// `import a.b.C;`, `import a.b.*;`, and the static imports of a class's
/// members, `import static a.b.C.m;` and `import static a.b.C.*;`.
fn import(text: &str, lines: &LineTable<'_>, node: Node<'_>, file: &mut TagsFile) {
    let mut c = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut c).collect();
    let is_static = children.iter().any(|n| n.kind() == "static");
    let every = children.iter().any(|n| n.kind() == "asterisk");
    let Some(name) = children
        .iter()
        .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"))
    else {
        return;
    };
    let full = text[name.byte_range()].to_string();
    let kind = match is_static {
        true => ImportKind::Member,
        false => ImportKind::Static,
    };
    let import = match every {
        // `a.b.*`: every class of `a.b`; static: every member of `a.b`
        true => Import {
            local: "*".into(),
            imported: Imported::All,
            source: full,
            kind,
        },
        false => {
            let (source, last) = full.rsplit_once('.').unwrap_or(("", &full));
            Import {
                local: last.to_string(),
                imported: Imported::Name(last.to_string()),
                source: source.to_string(),
                kind,
            }
        }
    };
    file.imports.push(import);
    // `import a.b.C;` names `C`, `import static a.b.C.m;` names `m`: a use
    if let (Some(last), false) = (name.child_by_field_name("name"), every) {
        let i = file.imports.len() - 1;
        file.refs
            .push(super::scan::import_ref(lines, text, last, i));
    }
    // the class a member or a nested class is imported through (`C` of
    // `a.b.C.m`, `a.b.C.*`, `a.b.C.Inner`): a use of it, through its
    // package (a package's name is no class of the package above it)
    let through = match every {
        true => Some(*name),
        false => name.child_by_field_name("scope"),
    };
    let class = through.filter(|t| t.kind() == "scoped_identifier");
    if let Some((class, package)) = class.and_then(|c| {
        Some((
            c.child_by_field_name("name")?,
            c.child_by_field_name("scope")?,
        ))
    }) {
        let mut r = super::scan::import_ref(lines, text, class, 0);
        r.import = None;
        r.qualifier = Qualifier::Path(
            text[package.byte_range()]
                .split('.')
                .map(|s| s.trim().to_string())
                .collect(),
        );
        file.refs.push(r);
    }
}

/// A class, enum, interface or record that extends or implements another,
/// and an anonymous class (`new T() { … }`): its body, where a bare name
/// may be an inherited member.
fn inheriting(lines: &LineTable<'_>, node: Node<'_>, file: &mut TagsFile) {
    if node.kind() == "object_creation_expression" {
        let mut c = node.walk();
        let body = node.children(&mut c).find(|n| n.kind() == "class_body");
        if let Some(body) = body {
            file.inheriting
                .push(byte_to_char(lines, body.start_byte())..byte_to_char(lines, body.end_byte()));
        }
        return;
    }
    let declarations = [
        "class_declaration",
        "enum_declaration",
        "interface_declaration",
        "record_declaration",
    ];
    if !declarations.contains(&node.kind()) {
        return;
    }
    let mut c = node.walk();
    let inherits = node.children(&mut c).any(|n| {
        matches!(
            n.kind(),
            "superclass" | "super_interfaces" | "extends_interfaces"
        )
    });
    if let (true, Some(body)) = (inherits, node.child_by_field_name("body")) {
        file.inheriting
            .push(byte_to_char(lines, body.start_byte())..byte_to_char(lines, body.end_byte()));
    }
}

/// The type a declaration gives its names, by its simple name.
fn type_name(text: &str, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "type_identifier" => Some(text[node.byte_range()].to_string()),
        // `List<Foo>`: the class's name as for a plain type, then the
        // arguments (a collection's element, a lambda's parameter)
        "generic_type" => {
            let base = type_name(text, node.named_child(0)?)?;
            let mut c = node.walk();
            let arguments = node
                .named_children(&mut c)
                .find(|n| n.kind() == "type_arguments");
            Some(match arguments {
                Some(a) => {
                    let written: Vec<&str> = text[a.byte_range()].split_whitespace().collect();
                    format!("{base}{}", written.join(" "))
                }
                None => base,
            })
        }
        // `com.acme.lib.Cart`: the class through its package (a first
        // name in lower case, as Java names packages), whole; `Map.Entry`:
        // the nested class's name
        "scoped_type_identifier" => {
            let written = dotted(&text[node.byte_range()]);
            match written.filter(|w| w.starts_with(|c: char| c.is_lowercase())) {
                Some(written) => Some(written.to_string()),
                None => {
                    let mut c = node.walk();
                    let last = node.named_children(&mut c).last();
                    last.and_then(|n| type_name(text, n))
                }
            }
        }
        _ => None,
    }
}

/// The names `node` declares with a type, with the method (or class
/// body) they are declared in as their scope.
fn typed_name(
    text: &str,
    lines: &LineTable<'_>,
    node: Node<'_>,
    function: Node<'_>,
    class: Node<'_>,
    file: &mut TagsFile,
) {
    let names: Vec<Node<'_>> = match node.kind() {
        "lambda_expression" => return lambda_names(text, lines, node, file),
        "formal_parameter" | "catch_formal_parameter" | "enhanced_for_statement" => {
            node.child_by_field_name("name").into_iter().collect()
        }
        "local_variable_declaration" | "field_declaration" => {
            let mut c = node.walk();
            node.children_by_field_name("declarator", &mut c)
                .filter_map(|d| d.child_by_field_name("name"))
                .collect()
        }
        _ => return,
    };
    // a field is its class body's; a parameter or a local its method's
    let scope = match node.kind() {
        "field_declaration" => class,
        _ => function,
    };
    let scope = byte_to_char(lines, scope.start_byte())..byte_to_char(lines, scope.end_byte());
    let Some(written) = node.child_by_field_name("type") else {
        return;
    };
    if &text[written.byte_range()] == "var" {
        inferred_names(text, lines, node, scope, file);
        return;
    }
    let Some(t) = type_name(text, written) else {
        return;
    };
    for name in names {
        file.typed.push(Typed {
            name: text[name.byte_range()].to_string(),
            type_name: t.clone(),
            scope: scope.clone(),
            at: Some(byte_to_char(lines, name.start_byte())),
            ..Typed::default()
        });
    }
}

/// The parameters of a lambda without types given first to a method
/// (`list.forEach(f -> …)`, `list.stream().map(f -> …)`, `map.forEach((k,
/// v) -> …)`), each of what the method passes its function there: the
/// compact expression `list.forEach(|0|)`, inferred when a query runs (a
/// `java.util` collection's element, a map's key or value, else
/// unknown). Visible in the lambda.
fn lambda_names(text: &str, lines: &LineTable<'_>, node: Node<'_>, file: &mut TagsFile) {
    let Some(arguments) = node.parent().filter(|a| a.kind() == "argument_list") else {
        return;
    };
    let mut c = arguments.walk();
    let first = arguments
        .named_children(&mut c)
        .find(|a| !a.kind().ends_with("comment"));
    if first.map(|a| a.id()) != Some(node.id()) {
        return;
    }
    let Some(call) = arguments
        .parent()
        .filter(|c| c.kind() == "method_invocation")
    else {
        return;
    };
    let (Some(receiver), Some(method)) = (
        call.child_by_field_name("object")
            .and_then(|o| chain(text, o)),
        call.child_by_field_name("name"),
    ) else {
        return;
    };
    let Some(parameters) = node.child_by_field_name("parameters") else {
        return;
    };
    let names: Vec<Node<'_>> = match parameters.kind() {
        "identifier" => vec![parameters],
        // (typed ones are `formal_parameter`s, read as a method's)
        "inferred_parameters" => {
            let mut c = parameters.walk();
            parameters
                .named_children(&mut c)
                .filter(|p| p.kind() == "identifier")
                .collect()
        }
        _ => return,
    };
    let scope = byte_to_char(lines, node.start_byte())..byte_to_char(lines, node.end_byte());
    for (i, name) in names.into_iter().enumerate() {
        file.typed.push(Typed {
            name: text[name.byte_range()].to_string(),
            type_name: format!("{receiver}.{}(|{i}|)", &text[method.byte_range()]),
            scope: scope.clone(),
            at: Some(byte_to_char(lines, name.start_byte())),
            inferred: true,
        });
    }
}

/// The names `var` declares (`var x = e;`, `for (var x : e)`), each with
/// the expression it is bound to ([`chain`]; an element of it for the
/// loop's): its type is inferred when a query runs.
fn inferred_names(
    text: &str,
    lines: &LineTable<'_>,
    node: Node<'_>,
    scope: Range<usize>,
    file: &mut TagsFile,
) {
    let mut push = |name: Node<'_>, expression: CompactString| {
        file.typed.push(Typed {
            name: text[name.byte_range()].to_string(),
            type_name: expression.to_string(),
            scope: scope.clone(),
            at: Some(byte_to_char(lines, name.start_byte())),
            inferred: true,
        })
    };
    match node.kind() {
        "enhanced_for_statement" => {
            let (Some(name), Some(value)) = (
                node.child_by_field_name("name"),
                node.child_by_field_name("value"),
            ) else {
                return;
            };
            if let Some(mut iterated) = chain(text, value) {
                iterated.push_str("[]");
                push(name, iterated);
            }
        }
        "local_variable_declaration" => {
            let mut c = node.walk();
            for declarator in node.children_by_field_name("declarator", &mut c) {
                let (Some(name), Some(value)) = (
                    declarator.child_by_field_name("name"),
                    declarator.child_by_field_name("value"),
                ) else {
                    continue;
                };
                if let Some(expression) = chain(text, value) {
                    push(name, expression);
                }
            }
        }
        _ => {}
    }
}

/// An expression whose type a query may infer, written compactly: a root
/// — a name, a bare call `m(2)` (its number of arguments), `this`,
/// `super`, a cast's type `(T)`, a construction `new(T)` — then steps
/// `.name` (a field), `(2)` (a call of the member before it, with two
/// arguments) and `[]` (an array's element): `a.getB(x).items[i]` is
/// `a.getB(1).items[]`. `None`: another expression (a literal, an
/// operator's, a lambda, an anonymous class, a call with type arguments).
/// A dotted name of plain names (`com.acme.lib`, spaces dropped), as
/// written; `None` for anything else.
pub(super) fn dotted(written: &str) -> Option<CompactString> {
    let plain: CompactString = written.chars().filter(|c| !c.is_whitespace()).collect();
    let names = plain.split('.').all(|n| {
        n.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && n.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    });
    names.then_some(plain)
}

pub(super) fn chain(text: &str, expression: Node<'_>) -> Option<CompactString> {
    // (the steps from the last, the node walked down to the root)
    let mut steps: Vec<CompactString> = Vec::new();
    let mut node = expression;
    let root: CompactString = loop {
        match node.kind() {
            "identifier" | "this" | "super" => break text[node.byte_range()].into(),
            "field_access" => {
                let field = node.child_by_field_name("field")?;
                if field.kind() != "identifier" {
                    return None;
                }
                steps.push(compact_str::format_compact!(
                    ".{}",
                    &text[field.byte_range()]
                ));
                node = node.child_by_field_name("object")?;
            }
            "method_invocation" if node.child_by_field_name("type_arguments").is_none() => {
                let name = &text[node.child_by_field_name("name")?.byte_range()];
                let arguments = node.child_by_field_name("arguments")?;
                let mut c = arguments.walk();
                let arity = arguments
                    .named_children(&mut c)
                    .filter(|a| !a.kind().ends_with("comment"))
                    .count();
                match node.child_by_field_name("object") {
                    Some(object) => {
                        steps.push(compact_str::format_compact!(".{name}({arity})"));
                        node = object;
                    }
                    None => break compact_str::format_compact!("{name}({arity})"),
                }
            }
            "array_access" => {
                steps.push("[]".into());
                node = node.child_by_field_name("array")?;
            }
            "parenthesized_expression" => node = node.named_child(0)?,
            "cast_expression" => {
                let t = &text[node.child_by_field_name("type")?.byte_range()];
                break compact_str::format_compact!("({})", plain_type(t)?);
            }
            "object_creation_expression" => {
                let t = node.child_by_field_name("type")?;
                let mut c = node.walk();
                // an anonymous class, or an inner class's `outer.new T()`
                let anonymous = node
                    .named_children(&mut c)
                    .any(|n| n.kind() == "class_body");
                if anonymous || text[node.start_byte()..t.start_byte()].contains('.') {
                    return None;
                }
                let t = &text[t.byte_range()];
                break compact_str::format_compact!("new({})", plain_type(t)?);
            }
            _ => return None,
        }
    };
    let mut written = root;
    steps.iter().rev().for_each(|s| written.push_str(s));
    Some(written)
}

/// A type as written, when a compact expression may hold it (no
/// parentheses, no annotations): `T`, `a.b.T`, `List<T>`, `T[]`.
fn plain_type(t: &str) -> Option<&str> {
    t.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"_$.<>[], ?".contains(&b))
        .then_some(t)
        .filter(|t| !t.is_empty())
}

/// The declarations a query infers the types of expressions from
/// ([`TagsFile::declared`]): each class's (interface's, enum's, record's)
/// fields and methods with their declared types, its supertypes, and
/// every type parameter of the file. Classes declared in a method's
/// body are left out (their names are no package's).
fn declared(text: &str, root: Node<'_>, file: &mut TagsFile) {
    let mut classes: Vec<Node<'_>> = Vec::new();
    let mut c = root.walk();
    classes.extend(root.named_children(&mut c).filter(|n| is_class(n.kind())));
    while let Some(class) = classes.pop() {
        let Some(owner) = class.child_by_field_name("name") else {
            continue;
        };
        let owner = &text[owner.byte_range()];
        type_parameters(text, class, &mut file.declared);
        let declared = &mut file.declared;
        let mut push = |name: &str, t: &str, kind: DeclaredKind| {
            declared.push(Declared {
                owner: Some(owner.into()),
                name: name.into(),
                type_text: t.into(),
                kind,
            })
        };
        let mut c = class.walk();
        for part in class.children(&mut c) {
            let (kind, list) = match part.kind() {
                "superclass" => (DeclaredKind::Extends, part),
                "super_interfaces" | "extends_interfaces" => match part.named_child(0) {
                    Some(list) => (DeclaredKind::Implements, list),
                    None => continue,
                },
                _ => continue,
            };
            let mut c = list.walk();
            for t in list.named_children(&mut c) {
                push("", &text[t.byte_range()], kind);
            }
        }
        // a record's components are its fields and its accessors
        if let Some(components) = class.child_by_field_name("parameters") {
            let mut c = components.walk();
            for component in components.named_children(&mut c) {
                let (Some(name), Some(t)) = (
                    component.child_by_field_name("name"),
                    component.child_by_field_name("type"),
                ) else {
                    continue;
                };
                let (name, t) = (&text[name.byte_range()], &text[t.byte_range()]);
                push(name, t, DeclaredKind::Value);
                let accessor = DeclaredKind::Method {
                    arity: 0,
                    varargs: false,
                };
                push(name, t, accessor);
            }
        }
        let Some(body) = class.child_by_field_name("body") else {
            continue;
        };
        let mut methods: Vec<Node<'_>> = Vec::new();
        let mut members: Vec<Node<'_>> = Vec::new();
        let mut c = body.walk();
        for member in body.named_children(&mut c) {
            match member.kind() {
                // an enum's members after its constants
                "enum_body_declarations" => {
                    let mut c = member.walk();
                    members.extend(member.named_children(&mut c));
                }
                _ => members.push(member),
            }
        }
        for member in members {
            match member.kind() {
                kind if is_class(kind) => classes.push(member),
                // an enum's constant is a value of the enum (`Op.ONE.apply()`)
                "enum_constant" => {
                    if let Some(name) = member.child_by_field_name("name") {
                        push(&text[name.byte_range()], owner, DeclaredKind::Value);
                    }
                }
                "field_declaration" | "constant_declaration" => {
                    let Some(t) = member.child_by_field_name("type") else {
                        continue;
                    };
                    let t = &text[t.byte_range()];
                    let mut c = member.walk();
                    for declarator in member.children_by_field_name("declarator", &mut c) {
                        let Some(name) = declarator.child_by_field_name("name") else {
                            continue;
                        };
                        // `int a[]`: an array of the written type
                        let array = declarator.child_by_field_name("dimensions").is_some();
                        let t = match array {
                            true => format!("{t}[]"),
                            false => t.to_string(),
                        };
                        push(&text[name.byte_range()], &t, DeclaredKind::Value);
                    }
                }
                "method_declaration" => {
                    let (Some(name), Some(t)) = (
                        member.child_by_field_name("name"),
                        member.child_by_field_name("type"),
                    ) else {
                        continue;
                    };
                    let (arity, varargs) = parameter_count(member);
                    // `int m()[]`: an array of the written type
                    let t = &text[t.byte_range()];
                    let t = match member.child_by_field_name("dimensions") {
                        Some(_) => format!("{t}[]"),
                        None if t == "void" => String::new(),
                        None => t.to_string(),
                    };
                    let kind = DeclaredKind::Method { arity, varargs };
                    push(&text[name.byte_range()], &t, kind);
                    methods.push(member);
                }
                // (under the JVM's name, which no method of the code has)
                "constructor_declaration" => {
                    let (arity, varargs) = parameter_count(member);
                    push(CONSTRUCTOR, "", DeclaredKind::Method { arity, varargs });
                }
                _ => {}
            }
        }
        for method in methods {
            type_parameters(text, method, &mut file.declared);
        }
    }
}

/// The name [`TagsFile::declared`] gives a class's constructors.
pub(super) const CONSTRUCTOR: &str = "<init>";

/// Whether a method of `parameters` parameters (the last taking any
/// number of arguments when `varargs`) may take a call of `arguments`.
pub(super) fn takes(parameters: u8, varargs: bool, arguments: usize) -> bool {
    let parameters = usize::from(parameters);
    arguments == parameters || (varargs && arguments + 1 >= parameters)
}

/// Which of a name's overloads (their parameter counts and varargs) a
/// call of `arguments` arguments picks, when only one may take it.
pub(super) fn sole_overload_taking(
    overloads: impl IntoIterator<Item = (u8, bool)>,
    arguments: usize,
) -> Option<usize> {
    let mut taking = (overloads.into_iter().enumerate())
        .filter(|&(_, (parameters, varargs))| takes(parameters, varargs, arguments))
        .map(|(i, _)| i);
    match (taking.next(), taking.next()) {
        (Some(i), None) => Some(i),
        _ => None,
    }
}

/// How many parameters a method or constructor declares, and whether
/// its last one takes any number of arguments.
fn parameter_count(member: Node<'_>) -> (u8, bool) {
    let (mut arity, mut varargs) = (0u8, false);
    if let Some(parameters) = member.child_by_field_name("parameters") {
        let mut c = parameters.walk();
        for p in parameters.named_children(&mut c) {
            match p.kind() {
                "formal_parameter" => arity = arity.saturating_add(1),
                "spread_parameter" => {
                    arity = arity.saturating_add(1);
                    varargs = true;
                }
                _ => {}
            }
        }
    }
    (arity, varargs)
}

fn is_class(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration"
    )
}

/// The type parameters a class or a method declares (`<T extends B>`).
fn type_parameters(text: &str, declaration: Node<'_>, declared: &mut Vec<Declared>) {
    let Some(parameters) = declaration.child_by_field_name("type_parameters") else {
        return;
    };
    let mut c = parameters.walk();
    for parameter in parameters.named_children(&mut c) {
        let mut c = parameter.walk();
        let name = parameter
            .named_children(&mut c)
            .find(|n| n.kind() == "type_identifier");
        if let Some(name) = name {
            declared.push(Declared {
                owner: None,
                name: text[name.byte_range()].into(),
                type_text: CompactString::default(),
                kind: DeclaredKind::TypeParameter,
            });
        }
    }
}

/// The number of arguments of the call whose callee's name ends at byte
/// `at` (`m(a, b)`, `new C<>(a)`, `this(a)`), read from the text: the
/// commas at the top of its argument list, past nested brackets, strings,
/// characters and comments. `None` when no argument list follows.
fn call_arity(text: &[u8], mut at: usize) -> Option<u8> {
    at = skip_blank(text, at);
    if text.get(at) == Some(&b'<') {
        // a construction's type arguments (`new C<K, V>(…)`, `new C<>()`)
        let mut depth = 0usize;
        while let Some(&b) = text.get(at) {
            at += 1;
            match b {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        at = skip_blank(text, at);
    }
    if text.get(at) != Some(&b'(') {
        return None;
    }
    at += 1;
    let (mut depth, mut commas, mut any) = (0usize, 0u8, false);
    while let Some(&b) = text.get(at) {
        match b {
            b'/' if matches!(text.get(at + 1), Some(b'/' | b'*')) => {
                at = skip_blank(text, at);
                continue;
            }
            b'"' | b'\'' => {
                at = past_literal(text, at);
                any = true;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return Some(if any { commas + 1 } else { 0 }),
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => commas = commas.saturating_add(1),
            b if b.is_ascii_whitespace() => {}
            _ => {}
        }
        any |= !b.is_ascii_whitespace();
        at += 1;
    }
    None
}

/// Past blanks and comments from byte `at`.
fn skip_blank(text: &[u8], mut at: usize) -> usize {
    loop {
        match (text.get(at), text.get(at + 1)) {
            (Some(b), _) if b.is_ascii_whitespace() => at += 1,
            (Some(b'/'), Some(b'/')) => {
                at += memchr::memchr(b'\n', &text[at..]).map_or(text.len() - at, |n| n + 1);
            }
            (Some(b'/'), Some(b'*')) => {
                at += 2;
                at += memchr::memmem::find(&text[at..], b"*/").map_or(text.len() - at, |n| n + 2);
            }
            _ => return at,
        }
    }
}

/// Past the string, text block or character literal at byte `at`.
fn past_literal(text: &[u8], at: usize) -> usize {
    let quote = text[at];
    if quote == b'"' && text[at..].starts_with(b"\"\"\"") {
        let from = at + 3;
        return memchr::memmem::find(&text[from..], b"\"\"\"").map_or(text.len(), |n| from + n + 3);
    }
    let mut i = at + 1;
    while let Some(&b) = text.get(i) {
        match b {
            b'\\' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    text.len()
}
