//! ES modules (JavaScript, TypeScript and their JSX dialects): imports —
//! named, default, namespace —, exports and re-exports (`export … from`),
//! CommonJS `require` (what it binds, [`super::commonjs`] tells when the
//! module's code states its keys), and relative specifiers resolved as
//! Node and TypeScript do:
//! the path itself, then with each extension, then its `index.*` file;
//! a `.js` specifier also finds the `.ts` file TypeScript compiles to it.
//! A bare specifier is mapped by TypeScript's `paths` and `baseUrl`
//! ([`super::tsconfig`]) into the project; else (`react`) it names a
//! package from outside: unknown.

use std::cell::RefCell;

use tree_sitter::{Language, Node};

use super::family::{joined, Family, Files, ModuleKey, Source, TypedKinds};
use super::packages::Packages;
use super::scan::{Declared, DeclaredKind, Import, ImportKind, Imported, Qualifier, TagsFile};
use super::tsconfig::TsConfig;
use crate::analysis::syntax::{byte_to_char, LineTable};

pub struct Es;

/// The extensions a relative specifier is probed with, in order.
const EXTENSIONS: &[&str] = &["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts"];

/// The scopes a `var` or a parameter binds in.
const FUNCTIONS: &[&str] = &[
    "function_declaration",
    "function_expression",
    "generator_function_declaration",
    "generator_function",
    "arrow_function",
    "method_definition",
];

impl Family for Es {
    fn function_scope(&self, kind: &str) -> bool {
        FUNCTIONS.contains(&kind)
    }

    fn skips(&self, statement: Node<'_>) -> bool {
        // the names of imports and re-exports are read with them
        match statement.kind() {
            "import_statement" => true,
            "export_statement" => field(statement, "source").is_some(),
            _ => false,
        }
    }

    fn read_module(&self, text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
        let mut cursor = root.walk();
        for statement in root.named_children(&mut cursor) {
            match statement.kind() {
                "import_statement" => import(text, lines, statement, file),
                "export_statement" => {
                    if let Some(declaration) = field(statement, "declaration") {
                        heritage(text, declaration, file);
                        returns(text, declaration, file);
                        fields(text, declaration, file);
                    }
                    export(text, lines, statement, file)
                }
                "lexical_declaration" | "variable_declaration" => {
                    require(text, lines, root, statement, file);
                    returns(text, statement, file);
                }
                _ => {
                    heritage(text, statement, file);
                    returns(text, statement, file);
                    fields(text, statement, file);
                }
            }
            let declaration = match statement.kind() {
                "export_statement" => field(statement, "declaration"),
                _ => Some(statement),
            };
            if let Some(declaration) = declaration {
                type_alias(text, declaration, file);
            }
        }
        super::commonjs::read_exports(text, lines, root, file);
        if text.contains("import(") || text.contains("require(") {
            dynamic_imports(text, lines, root, file);
        }
    }

    fn typed_kinds(&self) -> TypedKinds {
        TypedKinds {
            nodes: &[
                "required_parameter",
                "optional_parameter",
                "variable_declarator",
            ],
            functions: FUNCTIONS,
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

    fn module_of(&self, _files: &Files<'_>, path: &str, _file: &TagsFile) -> ModuleKey {
        path.to_string()
    }

    fn resolve(&self, files: &Files<'_>, from: &str, _file: &TagsFile, source: &str) -> Source {
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let relative = source.starts_with("./")
            || source.starts_with("../")
            || source == "."
            || source == "..";
        let found = match relative {
            true => joined(dir, source).and_then(|base| probe(files, &base)),
            // a bare specifier: TypeScript's `paths` and `baseUrl` map it
            // into the project, else it is a package's
            false => TsConfig::nearest(files, dir)
                .and_then(|config| {
                    config
                        .candidates(source)
                        .iter()
                        .find_map(|base| probe(files, base))
                })
                // a package of the project (a monorepo's workspace)
                .or_else(|| {
                    Packages::of(files)
                        .entries(source)?
                        .iter()
                        .find_map(|base| probe(files, base))
                }),
        };
        match found {
            Some(module) => Source::Module(module),
            // a package from outside: a module of its own, which holds
            // nothing of the project's
            None if !relative => {
                installed(files, dir, source).map_or(Source::Unknown, Source::Module)
            }
            None => Source::Unknown,
        }
    }

    fn qualifier(&self, text: &str, object: Node<'_>) -> Qualifier {
        match object.kind() {
            // (`#x in o` reads the class's own `#x`: `walk::es_use`)
            "this" | "private_property_identifier" => Qualifier::This,
            // the superclass's member (`super.m()`): the class's `extends`
            "super" => Qualifier::Expression("super".into()),
            "identifier" => Qualifier::Name(text[object.byte_range()].into()),
            // CommonJS: `module.exports.k` is `exports.k`; `require('./a').k`
            // a key of the module
            "member_expression" if &text[object.byte_range()] == "module.exports" => {
                Qualifier::Name("exports".into())
            }
            "call_expression" if required_source(&text[object.byte_range()]).is_some() => {
                Qualifier::Expression(text[object.byte_range()].into())
            }
            // a field of the instance (`this.users.m`): its declared class
            "member_expression" if this_field(text, object).is_some() => {
                Qualifier::Expression(text[object.byte_range()].into())
            }
            // a value of a class the expression states: its type
            _ => match stated_class(text, object) {
                Some(class) => Qualifier::Expression(format!(": {class}").into()),
                None => {
                    match called_function(text, object).or_else(|| value_member(text, object)) {
                        Some(written) => Qualifier::Expression(written.into()),
                        None => Qualifier::Other,
                    }
                }
            },
        }
    }

    fn resolves_by_paths(&self) -> bool {
        true
    }

    fn label(&self, path: &str, _package: Option<&str>) -> String {
        let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
        stem.replace('/', ".")
    }
}

/// The project file a specifier's path `base` names, as Node and
/// TypeScript find it: the path itself, the `.ts` file a `.js` one is
/// compiled from, the path with each extension, its `index.*` file.
fn probe(files: &Files<'_>, base: &str) -> Option<String> {
    let mut candidates = vec![base.to_string()];
    for (js, ts) in [
        (".js", ".ts"),
        (".js", ".tsx"),
        (".jsx", ".tsx"),
        (".mjs", ".mts"),
        (".cjs", ".cts"),
    ] {
        if let Some(stem) = base.strip_suffix(js) {
            candidates.push(format!("{stem}{ts}"));
        }
    }
    candidates.extend(EXTENSIONS.iter().map(|x| format!("{base}.{x}")));
    candidates.extend(EXTENSIONS.iter().map(|x| match base {
        "" => format!("index.{x}"),
        b => format!("{b}/index.{x}"),
    }));
    candidates.into_iter().find(|c| files.has(c))
}

/// The function a call calls, when it is a bare name (`require`,
/// `import`).
fn called<'t>(text: &'t str, call: Node<'_>) -> Option<&'t str> {
    (call.kind() == "call_expression")
        .then(|| field(call, "function"))
        .flatten()
        .filter(|f| matches!(f.kind(), "identifier" | "import"))
        .map(|f| &text[f.byte_range()])
}

/// Every `import('s')` and `require('s')` of the file with a string
/// specifier, as [`ImportKind::Dynamic`] imports (those a module-level
/// declaration binds too): a member read through a local value may be
/// the module's.
fn dynamic_imports(text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
    for word in ["import(", "require("] {
        for (at, _) in text.match_indices(word) {
            let Some(mut node) = root.descendant_for_byte_range(at, at + word.len() - 1) else {
                continue;
            };
            // (`import` is a node around its own token)
            while let Some(up) = node
                .parent()
                .filter(|p| p.byte_range() == node.byte_range())
            {
                node = up;
            }
            let Some(call) = node.parent().filter(|c| c.kind() == "call_expression") else {
                continue;
            };
            if called(text, call) != Some(&word[..word.len() - 1]) {
                continue;
            }
            let Some(source) = field(call, "arguments")
                .and_then(|a| a.named_child(0))
                .filter(|s| s.kind() == "string")
            else {
                continue;
            };
            let source = string_text(text, source);
            // `const { f } = await import('s')`: each key, a use of the
            // module's name
            let mut value = call;
            if let Some(awaited) = value.parent().filter(|p| p.kind() == "await_expression") {
                value = awaited;
            }
            let declarator = value
                .parent()
                .filter(|d| d.kind() == "variable_declarator" && field(*d, "value") == Some(value));
            // (a module-level declaration's is read with the imports)
            if declarator.is_some_and(crate::language::rename::is_module_level_declarator) {
                continue;
            }
            let pattern = declarator
                .and_then(|d| field(d, "name"))
                .filter(|n| n.kind() == "object_pattern");
            let mut keys = Vec::new();
            // `import("./u").Opts`: a TypeScript import type reads the
            // module's name (not a promise's `then`)
            let member = call
                .parent()
                .filter(|m| m.kind() == "member_expression" && field(*m, "object") == Some(call))
                .and_then(|m| field(m, "property"))
                .filter(|p| p.kind() == "property_identifier")
                .filter(|p| !matches!(&text[p.byte_range()], "then" | "catch" | "finally"));
            let member = member.filter(|_| word == "import(");
            if let Some(pattern) = pattern {
                let mut c = pattern.walk();
                for part in pattern.named_children(&mut c) {
                    let key = match part.kind() {
                        "shorthand_property_identifier_pattern" => Some(part),
                        "pair_pattern" => {
                            field(part, "key").filter(|k| k.kind() == "property_identifier")
                        }
                        _ => None,
                    };
                    keys.extend(key);
                }
            }
            file.imports.push(Import {
                local: String::new(),
                imported: Imported::Module,
                source: source.clone(),
                kind: ImportKind::Dynamic,
            });
            // (an import type is resolved as the compiler reads it: certain)
            let keys = keys.into_iter().map(|k| (k, ImportKind::Dynamic));
            for (key, kind) in keys.chain(member.map(|m| (m, ImportKind::Static))) {
                file.imports.push(Import {
                    local: String::new(),
                    imported: Imported::Name(text[key.byte_range()].to_string()),
                    source: source.clone(),
                    kind,
                });
                let i = file.imports.len() - 1;
                file.refs.push(super::scan::import_ref(lines, text, key, i));
            }
        }
    }
}

/// The specifier of `require('s')` written so (the call's text).
pub(super) fn required_source(call: &str) -> Option<&str> {
    let inner = call.strip_prefix("require(")?.strip_suffix(')')?.trim();
    let quote = inner
        .chars()
        .next()
        .filter(|q| matches!(q, '\'' | '"' | '`'))?;
    let source = inner.strip_prefix(quote)?.strip_suffix(quote)?;
    let plain = !source.contains(['\'', '"', '`', '$', '\\']);
    plain.then_some(source)
}

/// A string literal's text without its quotes.
fn string_text(text: &str, node: Node<'_>) -> String {
    text[node.byte_range()]
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
}

/// `import d, { a, b as c } from 's'`, `import * as ns from 's'`.
fn import(text: &str, lines: &LineTable<'_>, statement: Node<'_>, file: &mut TagsFile) {
    // TypeScript's `import c = require('./c')`: CommonJS's `require`
    let mut cursor = statement.walk();
    let required = statement
        .named_children(&mut cursor)
        .find(|n| n.kind() == "import_require_clause");
    if let Some(clause) = required {
        let name = clause.named_child(0).filter(|n| n.kind() == "identifier");
        if let (Some(name), Some(source)) = (name, field(clause, "source")) {
            file.imports.push(Import {
                local: text[name.byte_range()].to_string(),
                imported: Imported::Module,
                source: string_text(text, source),
                kind: ImportKind::Require,
            });
        }
        return;
    }
    let Some(source) = field(statement, "source") else {
        return;
    };
    let source = string_text(text, source);
    let mut push = |local: &str, imported: Imported, named: Option<Node<'_>>| {
        file.imports.push(Import {
            local: local.to_string(),
            imported,
            source: source.clone(),
            kind: ImportKind::Static,
        });
        if let Some(node) = named {
            let i = file.imports.len() - 1;
            file.refs
                .push(super::scan::import_ref(lines, text, node, i));
        }
    };
    let mut cursor = statement.walk();
    for clause in statement.named_children(&mut cursor) {
        if clause.kind() != "import_clause" {
            continue;
        }
        let mut inner = clause.walk();
        for part in clause.named_children(&mut inner) {
            match part.kind() {
                "identifier" => push(&text[part.byte_range()], Imported::Default, None),
                "namespace_import" => {
                    let mut c = part.walk();
                    let name = part
                        .named_children(&mut c)
                        .find(|n| n.kind() == "identifier");
                    if let Some(name) = name {
                        push(&text[name.byte_range()], Imported::Module, None);
                    }
                }
                "named_imports" => {
                    let mut c = part.walk();
                    for specifier in part.named_children(&mut c) {
                        let Some(name) = field(specifier, "name") else {
                            continue;
                        };
                        let imported = string_text(text, name);
                        let local = field(specifier, "alias")
                            .map_or(imported.clone(), |a| text[a.byte_range()].to_string());
                        let named = (name.kind() == "identifier").then_some(name);
                        let imported = match imported.as_str() {
                            "default" => Imported::Default,
                            _ => Imported::Name(imported),
                        };
                        push(&local, imported, named);
                    }
                }
                _ => {}
            }
        }
    }
}

/// `export function f`, `export { a as b }`, `export default f`, and the
/// re-exports `export { a as b } from 's'`, `export * from 's'`.
/// The class a module-level class declaration extends (`class B extends
/// A`, `extends ns.A<T>`: the expression without its type arguments), as
/// a [`DeclaredKind::Extends`] of the class: a member the class does not
/// declare is the one it inherits.
fn heritage(text: &str, declaration: Node<'_>, file: &mut TagsFile) {
    if !matches!(
        declaration.kind(),
        "class_declaration" | "abstract_class_declaration"
    ) {
        return;
    }
    let Some(name) = field(declaration, "name") else {
        return;
    };
    let mut c = declaration.walk();
    let Some(heritage) = declaration
        .named_children(&mut c)
        .find(|n| n.kind() == "class_heritage")
    else {
        return;
    };
    // TypeScript: `extends_clause` (its `value`); JavaScript: the expression
    let mut c = heritage.walk();
    let first = heritage.named_children(&mut c).next();
    let base = match first {
        Some(clause) if clause.kind() == "extends_clause" => field(clause, "value"),
        Some(clause) if clause.kind() == "implements_clause" => None,
        other => other,
    };
    let Some(base) = base.filter(|b| matches!(b.kind(), "identifier" | "member_expression")) else {
        return;
    };
    file.declared.push(Declared {
        owner: Some(text[name.byte_range()].into()),
        name: "".into(),
        type_text: text[base.byte_range()].into(),
        kind: DeclaredKind::Extends,
    });
}

/// A module-level TypeScript type alias (`type Teardown = Sub | (() =>
/// void)`), as a [`DeclaredKind::Embedded`] of its name, unnamed, of the
/// type it stands for: a value declared of it may be of any class it
/// names (through a union, an intersection, another alias).
fn type_alias(text: &str, declaration: Node<'_>, file: &mut TagsFile) {
    if declaration.kind() != "type_alias_declaration" {
        return;
    }
    let (Some(name), Some(value)) = (field(declaration, "name"), field(declaration, "value"))
    else {
        return;
    };
    file.declared.push(Declared {
        owner: Some(text[name.byte_range()].into()),
        name: "".into(),
        type_text: text[value.byte_range()].into(),
        kind: DeclaredKind::Embedded,
    });
}

fn export(text: &str, lines: &LineTable<'_>, statement: Node<'_>, file: &mut TagsFile) {
    let name_of = |n: Node<'_>| text[n.byte_range()].to_string();
    let is_default = {
        let mut c = statement.walk();
        let found = statement.children(&mut c).any(|n| n.kind() == "default");
        found
    };
    if let Some(source) = field(statement, "source") {
        let source = string_text(text, source);
        let mut c = statement.walk();
        let children: Vec<Node<'_>> = statement.named_children(&mut c).collect();
        let clause = children.iter().find(|n| n.kind() == "export_clause");
        match clause {
            Some(clause) => {
                let mut c = clause.walk();
                for specifier in clause.named_children(&mut c) {
                    let Some(name) = field(specifier, "name") else {
                        continue;
                    };
                    let imported = string_text(text, name);
                    let local = field(specifier, "alias")
                        .map_or(imported.clone(), |a| string_text(text, a));
                    file.imports.push(Import {
                        local,
                        imported: match imported.as_str() {
                            "default" => Imported::Default,
                            _ => Imported::Name(imported),
                        },
                        source: source.clone(),
                        kind: ImportKind::ReExport,
                    });
                    if name.kind() == "identifier" {
                        let i = file.imports.len() - 1;
                        file.refs
                            .push(super::scan::import_ref(lines, text, name, i));
                    }
                }
            }
            None => {
                // `export * from 's'`, `export * as ns from 's'`
                let alias = children
                    .iter()
                    .find(|n| n.kind() == "namespace_export")
                    .and_then(|n| n.named_child(0))
                    .map(|n| string_text(text, n));
                let (local, imported) = match alias {
                    Some(ns) => (ns, Imported::Module),
                    None => ("*".to_string(), Imported::All),
                };
                file.imports.push(Import {
                    local,
                    imported,
                    source,
                    kind: ImportKind::ReExport,
                });
            }
        }
        return;
    }
    if let Some(declaration) = field(statement, "declaration") {
        let names = declared_names(text, declaration);
        for name in names {
            let exported = if is_default {
                "default".to_string()
            } else {
                name.clone()
            };
            file.exports.push((exported, name));
        }
        return;
    }
    if let Some(value) = field(statement, "value") {
        if is_default {
            let local = match value.kind() {
                "identifier" => Some(name_of(value)),
                _ => field(value, "name").map(name_of),
            };
            if let Some(local) = local {
                file.exports.push(("default".to_string(), local));
            }
        }
        return;
    }
    let mut c = statement.walk();
    for clause in statement.named_children(&mut c) {
        if clause.kind() != "export_clause" {
            continue;
        }
        let mut c = clause.walk();
        for specifier in clause.named_children(&mut c) {
            let Some(name) = field(specifier, "name") else {
                continue;
            };
            let local = string_text(text, name);
            let exported =
                field(specifier, "alias").map_or(local.clone(), |a| string_text(text, a));
            file.exports.push((exported, local));
        }
    }
}

/// The names a declaration binds at module level.
fn declared_names(text: &str, declaration: Node<'_>) -> Vec<String> {
    match declaration.kind() {
        "lexical_declaration" | "variable_declaration" => {
            let mut c = declaration.walk();
            declaration
                .named_children(&mut c)
                .filter(|d| d.kind() == "variable_declarator")
                .filter_map(|d| field(d, "name"))
                .flat_map(|n| pattern_names(text, n))
                .collect()
        }
        _ => field(declaration, "name")
            .map(|n| vec![text[n.byte_range()].to_string()])
            .unwrap_or_default(),
    }
}

/// The names a binding pattern binds (`a`, `{ a, b: c }`, `[a, b]`).
fn pattern_names(text: &str, pattern: Node<'_>) -> Vec<String> {
    match pattern.kind() {
        "identifier" | "shorthand_property_identifier_pattern" => {
            vec![text[pattern.byte_range()].to_string()]
        }
        _ => {
            let mut c = pattern.walk();
            let children: Vec<Node<'_>> = pattern.named_children(&mut c).collect();
            children
                .into_iter()
                .flat_map(|n| match n.kind() {
                    "pair_pattern" => field(n, "value")
                        .map(|v| pattern_names(text, v))
                        .unwrap_or_default(),
                    _ => pattern_names(text, n),
                })
                .collect()
        }
    }
}

/// `const m = require('s')`, `const { a, b: c } = require('s')` at
/// module level; each key a destructuring takes (`a`, `b`) as a use of
/// the module's export.
fn require(
    text: &str,
    lines: &LineTable<'_>,
    root: Node<'_>,
    statement: Node<'_>,
    file: &mut TagsFile,
) {
    // (a `const` is never assigned again; a `var` or `let` may be)
    let constant = statement.kind() == "lexical_declaration"
        && statement.child(0).is_some_and(|k| k.kind() == "const");
    let mut c = statement.walk();
    for declarator in statement.named_children(&mut c) {
        let (Some(name), Some(value)) = (field(declarator, "name"), field(declarator, "value"))
        else {
            continue;
        };
        // `await import('s')` at module level: the module's namespace, as
        // `import * as m` binds it
        let (value, dynamic) = match value.kind() {
            "await_expression" => match value.named_child(0) {
                Some(call) if called(text, call) == Some("import") => (call, true),
                _ => continue,
            },
            _ => (value, false),
        };
        let is_require =
            value.kind() == "call_expression" && called(text, value) == Some("require");
        let Some(source) = field(value, "arguments")
            .and_then(|a| a.named_child(0))
            .filter(|s| (is_require || dynamic) && s.kind() == "string")
        else {
            continue;
        };
        let source = string_text(text, source);
        let mut push = |local: String, imported: Imported, key: Option<Node<'_>>| {
            let kind = match constant || !super::commonjs::is_assigned(text, root, &local) {
                true if dynamic => ImportKind::Static,
                true => ImportKind::Require,
                false => ImportKind::RequireReassigned,
            };
            file.imports.push(Import {
                local,
                imported,
                source: source.clone(),
                kind,
            });
            if let Some(key) = key {
                let i = file.imports.len() - 1;
                file.refs.push(super::scan::import_ref(lines, text, key, i));
            }
        };
        match name.kind() {
            "identifier" => push(text[name.byte_range()].to_string(), Imported::Module, None),
            "object_pattern" => {
                let mut c = name.walk();
                for part in name.named_children(&mut c) {
                    match part.kind() {
                        "shorthand_property_identifier_pattern" => {
                            let n = text[part.byte_range()].to_string();
                            push(n.clone(), Imported::Name(n), Some(part));
                        }
                        "pair_pattern" => {
                            let (Some(key), Some(value)) =
                                (field(part, "key"), field(part, "value"))
                            else {
                                continue;
                            };
                            if value.kind() != "identifier" {
                                continue;
                            }
                            let named = (key.kind() == "property_identifier").then_some(key);
                            push(
                                text[value.byte_range()].to_string(),
                                Imported::Name(string_text(text, key)),
                                named,
                            );
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// The class a TypeScript annotation (`: C`, `: C<T>`) or a construction
/// (`new C()`) gives a value, by name.
fn class_of(text: &str, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "type_annotation" => node.named_child(0).and_then(|t| class_of(text, t)),
        // a type parameter stands for what its constraint names (`T
        // extends Opts`: `t.size` reads `Opts`'s); without one, for
        // anything
        "type_identifier" => match type_parameter(text, node) {
            Some(parameter) => field(parameter, "constraint")
                .and_then(|c| c.named_child(0))
                .and_then(|t| class_of(text, t)),
            None => Some(text[node.byte_range()].to_string()),
        },
        "identifier" => Some(text[node.byte_range()].to_string()),
        "generic_type" => {
            let name = node.named_child(0)?;
            match &text[name.byte_range()] {
                // TypeScript's mapped types that keep every member of
                // their argument, named as they were, and the
                // conditional ones that keep some of its union's members
                // (`Exclude<TeardownLogic, void>`)
                "Partial" | "Required" | "Readonly" | "NonNullable" | "Exclude" | "Extract" => {
                    field(node, "type_arguments")
                        .and_then(|a| a.named_child(0))
                        .and_then(|t| class_of(text, t))
                }
                // some of them, chosen by key literals (`Pick<Opts,
                // "size">`) the index does not follow: unknown
                "Pick" | "Omit" => None,
                _ => class_of(text, name),
            }
        }
        // `m.A` of a namespace import (a query reads the module, then `A`)
        "nested_type_identifier" | "member_expression" => {
            let written = &text[node.byte_range()];
            let plain = written.split('.').count() == 2
                && (written.bytes())
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'));
            plain.then(|| written.to_string())
        }
        "new_expression" => field(node, "constructor").and_then(|c| class_of(text, c)),
        _ => None,
    }
}

/// The type parameter a type identifier names, from the nearest
/// declaration around it that has one of its name (`<T extends Opts>` of
/// a function, a method, a class, an interface or a type alias).
fn type_parameter<'t>(text: &str, name: Node<'t>) -> Option<Node<'t>> {
    let written = &text[name.byte_range()];
    let mut around = name.parent();
    while let Some(node) = around {
        if let Some(parameters) = field(node, "type_parameters") {
            let mut c = parameters.walk();
            let declared = parameters
                .named_children(&mut c)
                .find(|p| field(*p, "name").is_some_and(|n| &text[n.byte_range()] == written));
            if declared.is_some() {
                return declared;
            }
        }
        around = node.parent();
    }
    None
}

/// The class of the value an expression makes or asserts, as written:
/// `new A()`, `(new A())`, TypeScript's `x as A` and `<A>x` (what `.m`
/// after it reads is `A`'s member, as a value declared `A` would).
fn stated_class(text: &str, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "parenthesized_expression" => node.named_child(0).and_then(|e| stated_class(text, e)),
        "new_expression" => class_of(text, node),
        "as_expression" => node.named_child(1).and_then(|t| class_of(text, t)),
        "type_assertion" => node
            .named_child(0)
            .and_then(|arguments| arguments.named_child(0))
            .and_then(|t| class_of(text, t)),
        _ => None,
    }
}

/// `x` of `this.x`.
fn this_field<'t>(text: &'t str, node: Node<'_>) -> Option<&'t str> {
    let object = field(node, "object").filter(|o| o.kind() == "this")?;
    let property = field(node, "property").filter(|p| {
        matches!(
            p.kind(),
            "property_identifier" | "private_property_identifier"
        )
    })?;
    (object.end_byte() + 1 == property.start_byte()).then(|| &text[property.byte_range()])
}

/// The classes a module-level class's fields are declared of, as
/// [`DeclaredKind::Value`]s of the class (`private users: UserService`,
/// `users = new UserService()`, TypeScript's parameter properties
/// `constructor(private users: UserService)`): what `this.users.m` reads
/// `m` of. A field of no stated class is recorded with none (`""`); its
/// methods' results and getters' values as [`member_result`] says.
fn fields(text: &str, declaration: Node<'_>, file: &mut TagsFile) {
    if !matches!(
        declaration.kind(),
        "class_declaration" | "abstract_class_declaration" | "class"
    ) {
        return;
    }
    let (Some(class), Some(body)) = (field(declaration, "name"), field(declaration, "body")) else {
        return;
    };
    let owner: compact_str::CompactString = text[class.byte_range()].into();
    let mut push = |name: Node<'_>, class: Option<String>| {
        file.declared.push(Declared {
            owner: Some(owner.clone()),
            name: text[name.byte_range()].into(),
            type_text: class.unwrap_or_default().into(),
            kind: DeclaredKind::Value,
        })
    };
    let mut methods = Vec::new();
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        match member.kind() {
            "public_field_definition" | "field_definition" => {
                let name = field(member, "name").or_else(|| field(member, "property"));
                let stated = field(member, "type")
                    .or_else(|| field(member, "value").filter(|v| v.kind() == "new_expression"))
                    .and_then(|t| class_of(text, t));
                // (`#dep: Dep` too: read as `this.#dep`)
                let named = |n: &Node<'_>| {
                    matches!(
                        n.kind(),
                        "property_identifier" | "private_property_identifier"
                    )
                };
                if let Some(name) = name.filter(named) {
                    push(name, stated);
                }
            }
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                let constructor =
                    field(member, "name").is_some_and(|n| &text[n.byte_range()] == "constructor");
                if !constructor {
                    methods.push(member);
                    continue;
                }
                let Some(parameters) = field(member, "parameters") else {
                    continue;
                };
                let mut c = parameters.walk();
                for parameter in parameters.named_children(&mut c) {
                    let mut c = parameter.walk();
                    let property = parameter
                        .children(&mut c)
                        .any(|m| matches!(m.kind(), "accessibility_modifier" | "readonly"));
                    let name = field(parameter, "pattern").filter(|p| p.kind() == "identifier");
                    if let (true, Some(name)) = (property, name) {
                        push(
                            name,
                            field(parameter, "type").and_then(|t| class_of(text, t)),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    for method in methods {
        member_result(text, &owner, method, file);
    }
}

/// What a method of the class `owner` declares it returns, as a
/// [`DeclaredKind::Returns`] of the class (`getRepo(): Repo`; `""` where
/// it states no class), and a getter's as the [`DeclaredKind::Value`] its
/// reads make (`get repo(): Repo`): what `x.getRepo().m` and `x.repo.m`
/// read `m` of. A setter's says nothing.
fn member_result(text: &str, owner: &str, method: Node<'_>, file: &mut TagsFile) {
    let Some(name) = field(method, "name").filter(|n| n.kind() == "property_identifier") else {
        return;
    };
    let mut c = method.walk();
    let accessor = method
        .children(&mut c)
        .find(|k| matches!(k.kind(), "get" | "set"))
        .map(|k| k.kind());
    let kind = match accessor {
        None => DeclaredKind::Returns,
        Some("get") => DeclaredKind::Value,
        Some(_) => return,
    };
    let result = field(method, "return_type").and_then(|t| class_of(text, t));
    file.declared.push(Declared {
        owner: Some(owner.into()),
        name: text[name.byte_range()].into(),
        type_text: result.unwrap_or_default().into(),
        kind,
    });
}

/// A call `f(…)`, `x.f(…)` or `this.f(…)` written `f()`, `x.f()`,
/// `this.f()` (what `….m` after it reads `m` of: what `f` returns).
fn called_function(text: &str, node: Node<'_>) -> Option<String> {
    let function = (node.kind() == "call_expression")
        .then(|| field(node, "function"))
        .flatten()?;
    match function.kind() {
        "identifier" => Some(format!("{}()", &text[function.byte_range()])),
        _ => value_member(text, function).map(|member| format!("{member}()")),
    }
}

/// A member read through a name or `this`, `x.f` (a getter's or a
/// field's value, whose class `.m` after it reads `m` of).
fn value_member(text: &str, node: Node<'_>) -> Option<String> {
    let object = field(node, "object").filter(|o| matches!(o.kind(), "identifier" | "this"))?;
    let property = field(node, "property").filter(|p| p.kind() == "property_identifier")?;
    let plain =
        node.kind() == "member_expression" && object.end_byte() + 1 == property.start_byte();
    plain.then(|| {
        format!(
            "{}.{}",
            &text[object.byte_range()],
            &text[property.byte_range()]
        )
    })
}

/// TypeScript: the class a module-level function declares it returns
/// (`function make(): A`, each overload's signature too, `const make =
/// (): A => …`), as
/// [`DeclaredKind::Returns`]: what `make().m` reads `m` of.
fn returns(text: &str, declaration: Node<'_>, file: &mut TagsFile) {
    let (name, function) = match declaration.kind() {
        "function_declaration" | "function_signature" => (field(declaration, "name"), declaration),
        // `const make = (): A => …` (`function (): A { … }`)
        "lexical_declaration" | "variable_declaration" => {
            let mut c = declaration.walk();
            for declarator in declaration.named_children(&mut c) {
                let function = field(declarator, "value")
                    .filter(|v| matches!(v.kind(), "arrow_function" | "function_expression"));
                let name = field(declarator, "name").filter(|n| n.kind() == "identifier");
                if let (Some(name), Some(function)) = (name, function) {
                    declared_result(text, name, function, file);
                }
            }
            return;
        }
        _ => return,
    };
    if let Some(name) = name {
        declared_result(text, name, function, file);
    }
}

/// What `function` (named `name`) declares it returns, if anything.
fn declared_result(text: &str, name: Node<'_>, function: Node<'_>, file: &mut TagsFile) {
    let Some(result) = field(function, "return_type") else {
        return;
    };
    file.declared.push(Declared {
        owner: None,
        name: text[name.byte_range()].into(),
        // (not a class's name, `Promise<A>` is `Promise`: never the class)
        type_text: class_of(text, result).unwrap_or_default().into(),
        kind: DeclaredKind::Returns,
    });
}

/// `node`'s child in the field `name`, as `Node::child_by_field_name`
/// finds it, the field's id looked up once per grammar and thread: that
/// look-up compares the name with each of the grammar's fields, and the
/// scan asks it for every parameter and declarator, import, export and
/// `require`.
fn field<'t>(node: Node<'t>, name: &'static str) -> Option<Node<'t>> {
    type Known = Vec<(Language, &'static str, Option<std::num::NonZeroU16>)>;
    thread_local! {
        static FIELD_IDS: RefCell<Known> = const { RefCell::new(Vec::new()) };
    }
    let language = node.language();
    let id = FIELD_IDS.with(|known| {
        let mut known = known.borrow_mut();
        match known.iter().find(|(l, n, _)| *l == *language && *n == name) {
            Some((_, _, id)) => *id,
            None => {
                let id = language.field_id_for_name(name);
                known.push(((*language).clone(), name, id));
                id
            }
        }
    })?;
    node.child_by_field_id(id.get())
}

/// Whether `parameter` is one of `function`'s own parameters.
fn is_parameter_of(parameter: Node<'_>, function: Node<'_>) -> bool {
    let Some(parameters) = field(function, "parameters") else {
        return false;
    };
    let mut cursor = parameters.walk();
    let own = parameters
        .named_children(&mut cursor)
        .any(|p| p == parameter);
    own
}

/// The names `node` declares with a class (a parameter `c: C`, `const c
/// = new C()`), with the function (or file) around as their scope.
fn typed_name(
    text: &str,
    lines: &LineTable<'_>,
    node: Node<'_>,
    scope: Node<'_>,
    file: &mut TagsFile,
) {
    let (name, class) = match node.kind() {
        // a parameter of the function around; one of a function's type
        // (`type F = (p: A) => void`, an interface's method, an overload)
        // binds no name in any code
        "required_parameter" | "optional_parameter" if !is_parameter_of(node, scope) => return,
        "required_parameter" | "optional_parameter" => (
            field(node, "pattern"),
            field(node, "type").and_then(|t| class_of(text, t)),
        ),
        "variable_declarator" => (
            field(node, "name"),
            field(node, "type")
                .or_else(|| field(node, "value").filter(|v| v.kind() == "new_expression"))
                .and_then(|t| class_of(text, t)),
        ),
        _ => return,
    };
    let (Some(name), Some(class)) = (name.filter(|n| n.kind() == "identifier"), class) else {
        return;
    };
    file.typed.push(super::scan::Typed {
        name: text[name.byte_range()].to_string(),
        type_name: class,
        scope: byte_to_char(lines, scope.start_byte())..byte_to_char(lines, scope.end_byte()),
        // (the binding a local declares: a closer untyped one hides it)
        at: Some(byte_to_char(lines, name.start_byte())),
        ..Default::default()
    });
}

/// The module a bare specifier names when it is a package from outside
/// the project: one of Node's own (`node:fs`: the specifier), or one
/// installed — not linked: a workspace's packages are symlinks into the
/// project — in a `node_modules` of the importing file's directory or
/// one above it (its directory there, `node_modules/ava`). No file of
/// the index is that module: what it binds is none of the project's.
fn installed(files: &Files<'_>, dir: &str, source: &str) -> Option<ModuleKey> {
    if source.starts_with("node:") {
        return Some(source.to_string());
    }
    let mut segments = source.split('/');
    let package = match (segments.next(), segments.next()) {
        (Some(scope), Some(name)) if scope.starts_with('@') => format!("{scope}/{name}"),
        (Some(name), _) if !name.is_empty() => name.to_string(),
        _ => return None,
    };
    let mut at = Some(dir);
    while let Some(d) = at {
        let relative = match d {
            "" => format!("node_modules/{package}"),
            d => format!("{d}/node_modules/{package}"),
        };
        if let Ok(meta) = std::fs::symlink_metadata(files.root.join(&relative)) {
            return meta.is_dir().then_some(relative);
        }
        at = match d {
            "" => None,
            _ => Some(d.rsplit_once('/').map_or("", |(up, _)| up)),
        };
    }
    None
}
