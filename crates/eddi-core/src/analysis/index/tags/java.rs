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

use tree_sitter::Node;

use super::family::{Bound, Family, Files, ModuleKey, Source, TypedKinds};
use super::scan::{Import, ImportKind, Imported, TagsFile, Typed};
use crate::analysis::syntax::{byte_to_char, LineTable};

pub struct Java;

impl Family for Java {
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
        "generic_type" => node.named_child(0).and_then(|n| type_name(text, n)),
        "scoped_type_identifier" => {
            let mut c = node.walk();
            let last = node.named_children(&mut c).last();
            last.and_then(|n| type_name(text, n))
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
    let Some(t) = node
        .child_by_field_name("type")
        .and_then(|t| type_name(text, t))
    else {
        return;
    };
    // a field is its class body's; a parameter or a local its method's
    let scope = match node.kind() {
        "field_declaration" => class,
        _ => function,
    };
    for name in names {
        file.typed.push(Typed {
            name: text[name.byte_range()].to_string(),
            type_name: t.clone(),
            scope: byte_to_char(lines, scope.start_byte())..byte_to_char(lines, scope.end_byte()),
            ..Typed::default()
        });
    }
}
