//! Java: a package is a name (`package a.b;`): the classes of one package
//! see each other unqualified; `import a.b.C;` binds `C`, `import a.b.*;`
//! every class of `a.b`. A bare method name inside a class is the class's
//! own (implicit `this`); a field, parameter or local declared with a
//! type makes `x.m()` that type's method; through any other value,
//! `x.m()` is possible. Static imports are not followed (their names are
//! possible).

use ropey::Rope;
use tree_sitter::Node;

use super::family::{Family, Files, ModuleKey, Source};
use super::scan::{Import, ImportKind, Imported, TagsFile, Typed};
use crate::analysis::syntax::byte_to_char;

pub struct Java;

impl Family for Java {
    fn query_source(&self, language: &str) -> Option<&'static str> {
        (language == "java").then_some(include_str!("../../../../queries/java/index.scm"))
    }

    fn skips(&self, statement: Node<'_>) -> bool {
        matches!(
            statement.kind(),
            "package_declaration" | "import_declaration"
        )
    }

    fn read_module(&self, text: &str, rope: &Rope, root: Node<'_>, file: &mut TagsFile) {
        let mut cursor = root.walk();
        for node in root.named_children(&mut cursor) {
            match node.kind() {
                "package_declaration" => {
                    let mut c = node.walk();
                    file.package = node
                        .named_children(&mut c)
                        .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"))
                        .map(|n| text[n.byte_range()].to_string());
                }
                "import_declaration" => {
                    let mut c = node.walk();
                    let children: Vec<Node<'_>> = node.children(&mut c).collect();
                    if children.iter().any(|n| n.kind() == "static") {
                        continue;
                    }
                    let Some(name) = children
                        .iter()
                        .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"))
                    else {
                        continue;
                    };
                    let name = text[name.byte_range()].to_string();
                    let import = match children.iter().any(|n| n.kind() == "asterisk") {
                        true => Import {
                            local: "*".into(),
                            imported: Imported::All,
                            source: name,
                            kind: ImportKind::Static,
                        },
                        false => {
                            let (package, class) = name.rsplit_once('.').unwrap_or(("", &name));
                            Import {
                                local: class.to_string(),
                                imported: Imported::Name(class.to_string()),
                                source: package.to_string(),
                                kind: ImportKind::Static,
                            }
                        }
                    };
                    file.imports.push(import);
                    // `import a.b.C;` names `C`: a use of it
                    let last = children
                        .iter()
                        .find(|n| n.kind() == "scoped_identifier")
                        .and_then(|n| n.child_by_field_name("name"));
                    if let (Some(last), false) =
                        (last, children.iter().any(|n| n.kind() == "asterisk"))
                    {
                        let i = file.imports.len() - 1;
                        file.refs.push(super::scan::import_ref(rope, text, last, i));
                    }
                }
                _ => {}
            }
        }
        let functions = [
            "method_declaration",
            "constructor_declaration",
            "lambda_expression",
        ];
        let classes = [
            "class_body",
            "enum_body",
            "interface_body",
            "record_declaration",
        ];
        super::scan::walk_scoped(root, (&functions, &classes), |node, function, class| {
            typed_name(text, rope, node, function, class, file)
        });
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

    fn label(&self, _path: &str, file: &TagsFile) -> String {
        file.package.clone().unwrap_or_default()
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
    rope: &Rope,
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
            scope: byte_to_char(rope, scope.start_byte())..byte_to_char(rope, scope.end_byte()),
        });
    }
}
