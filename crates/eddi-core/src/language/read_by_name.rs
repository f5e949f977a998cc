//! Members that code outside the project reads by their names, as their
//! declarations say: a serializer, an ORM, a template or generated
//! accessors take a field's name as data, so renaming it compiles and
//! changes the JSON a service answers, the column it maps or the getter
//! its callers call. What says so, per language:
//!
//! - Go: an exported field whose struct tag names no key for an encoding
//!   (`json:",omitempty"`), or that has no tag where the struct's other
//!   fields have one (`encoding/json` reads it by its name);
//! - Rust: a field of a struct (a variant of an enum) that derives a
//!   macro other than the standard library's (`Serialize`, `Deserialize`, clap's `Parser`):
//!   the generated code spells the field's name (a serde-only struct
//!   whose field says `#[serde(rename = …)]` is exempt);
//! - Java: a field annotated for a mapping or for generated accessors
//!   (`@Column`, `@JsonProperty`, Lombok's `@Getter`), or of a class so
//!   annotated (`@Entity`, `@Data`); an enum's constant (`name()`,
//!   `valueOf("ONE")`, serializers);
//! - TypeScript and JavaScript: a decorated property (`@Input()`,
//!   `@Column()`), or a non-private member of a class whose decorator
//!   binds members by name (Angular's `@Component` templates, TypeORM's
//!   `@Entity`, TypeGraphQL's `@ObjectType`).
//!
//! The rename calls such a member possible, refused by default.

use ropey::Rope;
use tree_sitter::Node;

use super::Language;
use crate::analysis::SyntaxTree;

/// Why code outside the project may read the member named at char `at`
/// by that name; `None` when its declaration says nothing of it.
pub fn read_by_name(
    language: &dyn Language,
    text: &Rope,
    tree: &SyntaxTree,
    at: usize,
) -> Option<String> {
    let byte = text.char_to_byte(at.min(text.len_chars()));
    let name = tree.root().named_descendant_for_byte_range(byte, byte)?;
    let source = |n: Node<'_>| text.byte_slice(n.byte_range()).to_string();
    match language.id() {
        "go" => go(name, &source),
        "rust" => rust(name, &source),
        "java" => java(name, &source),
        "javascript" | "typescript" | "tsx" => es(name, &source),
        _ => None,
    }
}

type Source<'s> = dyn Fn(Node<'_>) -> String + 's;

fn go(name: Node<'_>, source: &Source<'_>) -> Option<String> {
    let field = name.parent().filter(|p| p.kind() == "field_declaration")?;
    let list = field.parent()?;
    if !source(name).starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    let tags = |f: Node<'_>| -> Vec<(String, String)> {
        f.child_by_field_name("tag")
            .map(|t| struct_tags(&source(t)))
            .unwrap_or_default()
    };
    let own = tags(field);
    if let Some((key, value)) = own
        .iter()
        .find(|(_, v)| v.split(',').next() == Some("") && v != "-")
    {
        return Some(format!(
            "its tag {key}:\"{value}\" names no key: the {key} encoding reads the field by its name"
        ));
    }
    let mut c = list.walk();
    let siblings: Vec<(String, String)> = list
        .named_children(&mut c)
        .filter(|f| f.kind() == "field_declaration" && *f != field)
        .flat_map(tags)
        .collect();
    let unnamed = siblings
        .iter()
        .find(|(key, _)| !own.iter().any(|(k, _)| k == key))?;
    Some(format!(
        "the struct's other fields have {} tags: the code that reads them reads this field by its name",
        unnamed.0
    ))
}

/// The `key:"value"` pairs of a Go struct tag (its raw literal).
fn struct_tags(literal: &str) -> Vec<(String, String)> {
    let mut rest = literal
        .strip_prefix('`')
        .and_then(|l| l.strip_suffix('`'))
        .unwrap_or(literal);
    let mut found = Vec::new();
    while let Some((key, after)) = rest.trim_start().split_once(":\"") {
        let Some((value, next)) = after.split_once('"') else {
            break;
        };
        found.push((key.trim().to_string(), value.to_string()));
        rest = next;
    }
    found
}

/// The standard library's derives: they do not spell a field's name
/// (`Debug` prints it, as output, not data).
const STD_DERIVES: &[&str] = &[
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Default",
];

fn rust(name: Node<'_>, source: &Source<'_>) -> Option<String> {
    // a struct's field, or an enum's variant
    let field = name
        .parent()
        .filter(|p| matches!(p.kind(), "field_declaration" | "enum_variant"))?;
    let list = field
        .parent()
        .filter(|l| matches!(l.kind(), "field_declaration_list" | "enum_variant_list"))?;
    let item = list
        .parent()
        .filter(|s| matches!(s.kind(), "struct_item" | "enum_item"))?;
    let (owner, member) = match item.kind() {
        "enum_item" => ("enum", "variant"),
        _ => ("struct", "field"),
    };
    let derives: Vec<String> = attributes_before(item)
        .iter()
        .flat_map(|a| derived(&source(*a)))
        .filter(|d| !STD_DERIVES.contains(&d.as_str()))
        .collect();
    if derives.is_empty() {
        return None;
    }
    let serde_only = derives
        .iter()
        .all(|d| d == "Serialize" || d == "Deserialize");
    let renamed = attributes_before(field).iter().any(|a| {
        let written = source(*a);
        written.contains("serde") && written.contains("rename")
    });
    if serde_only && renamed {
        return None;
    }
    Some(format!(
        "its {owner} derives {}, whose generated code spells the {member}'s name",
        derives.join(", ")
    ))
}

/// The attribute items right before a Rust item (comments between them).
fn attributes_before(item: Node<'_>) -> Vec<Node<'_>> {
    let mut found = Vec::new();
    let mut at = item.prev_sibling();
    while let Some(node) = at {
        match node.kind() {
            "attribute_item" => found.push(node),
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        at = node.prev_sibling();
    }
    found
}

/// The macros a `#[derive(…)]` attribute names, by their last segment.
fn derived(attribute: &str) -> Vec<String> {
    let Some(inside) = attribute
        .split_once("derive(")
        .and_then(|(_, a)| a.rsplit_once(')'))
        .map(|(a, _)| a)
    else {
        return Vec::new();
    };
    inside
        .split(',')
        .map(|d| d.trim().rsplit("::").next().unwrap_or("").to_string())
        .filter(|d| !d.is_empty())
        .collect()
}

/// Java annotations on a class that make frameworks read its fields by
/// their names (mappings, generated accessors).
const JAVA_CLASS_ANNOTATIONS: &[&str] = &[
    "Entity",
    "Embeddable",
    "MappedSuperclass",
    "Document",
    "Data",
    "Getter",
    "Setter",
    "Value",
    "Builder",
    "SuperBuilder",
    "With",
    "ConfigurationProperties",
    "JsonAutoDetect",
    "XmlRootElement",
    "XmlAccessorType",
];

/// Java annotations on a field that read it by its name.
const JAVA_FIELD_ANNOTATIONS: &[&str] = &[
    "Getter",
    "Setter",
    "With",
    "Column",
    "Id",
    "JsonProperty",
    "Expose",
    "XmlElement",
    "XmlAttribute",
    "Field",
];

fn java(name: Node<'_>, source: &Source<'_>) -> Option<String> {
    if name.parent().is_some_and(|p| p.kind() == "enum_constant") {
        return Some(
            "an enum constant's name is data: name(), toString() and valueOf() read it, as serializers and mappings do"
                .to_string(),
        );
    }
    let declarator = name
        .parent()
        .filter(|p| p.kind() == "variable_declarator")?;
    let field = declarator
        .parent()
        .filter(|p| p.kind() == "field_declaration")?;
    let class = field.parent()?.parent()?;
    let on = |node: Node<'_>, which: &[&str]| -> Option<String> {
        let modifiers = {
            let mut c = node.walk();
            let found = node.children(&mut c).find(|m| m.kind() == "modifiers");
            found
        }?;
        let mut c = modifiers.walk();
        let annotations: Vec<String> = modifiers
            .named_children(&mut c)
            .filter(|a| matches!(a.kind(), "marker_annotation" | "annotation"))
            .filter_map(|a| a.child_by_field_name("name").map(source))
            .collect();
        annotations
            .into_iter()
            .find(|a| which.contains(&a.rsplit('.').next().unwrap_or(a)))
    };
    if let Some(annotation) = on(field, JAVA_FIELD_ANNOTATIONS) {
        return Some(format!(
            "its annotation @{annotation} reads the field by its name"
        ));
    }
    let annotation = on(class, JAVA_CLASS_ANNOTATIONS)?;
    Some(format!(
        "its class's annotation @{annotation} reads its fields by their names"
    ))
}

/// TypeScript decorators on a class that bind its members by name.
const ES_CLASS_DECORATORS: &[&str] = &[
    "Component",
    "Directive",
    "Pipe",
    "Entity",
    "ViewEntity",
    "ObjectType",
    "InputType",
    "ArgsType",
    "InterfaceType",
    "Schema",
    "Table",
];

fn es(name: Node<'_>, source: &Source<'_>) -> Option<String> {
    let member = name.parent().filter(|p| {
        matches!(
            p.kind(),
            "public_field_definition"
                | "field_definition"
                | "method_definition"
                | "required_parameter"
                | "optional_parameter"
        )
    })?;
    let decorators = |node: Node<'_>| -> Vec<String> {
        let mut c = node.walk();
        let found = node
            .children(&mut c)
            .filter(|d| d.kind() == "decorator")
            .map(|d| decorator_name(&source(d)))
            .collect();
        found
    };
    let property = member.kind() != "method_definition";
    if let Some(decorator) = decorators(member).first().filter(|_| property) {
        return Some(format!(
            "its decorator @{decorator} reads the property by its name"
        ));
    }
    let private = source(name).starts_with('#') || {
        let mut c = member.walk();
        let found = member
            .children(&mut c)
            .any(|m| m.kind() == "accessibility_modifier" && source(m) == "private");
        found
    };
    if private {
        return None;
    }
    let mut class = member.parent();
    while let Some(node) = class {
        if matches!(
            node.kind(),
            "class_declaration" | "abstract_class_declaration" | "class"
        ) {
            break;
        }
        class = node.parent();
    }
    let class = class?;
    // `export @D class …` keeps the decorators on the statement
    let mut written = decorators(class);
    if let Some(statement) = class.parent().filter(|p| p.kind() == "export_statement") {
        written.extend(decorators(statement));
    }
    let decorator = written
        .into_iter()
        .find(|d| ES_CLASS_DECORATORS.contains(&d.as_str()))?;
    Some(format!(
        "its class's decorator @{decorator} binds its members by their names (templates, mappings)"
    ))
}

/// A decorator's name, without its `@`, module and arguments
/// (`@core.Input('x')` → `Input`).
fn decorator_name(written: &str) -> String {
    let name = written.trim_start_matches('@');
    let name = name.split(['(', '<']).next().unwrap_or(name);
    name.rsplit('.').next().unwrap_or(name).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_derives_and_decorators_are_read() {
        assert_eq!(
            struct_tags("`json:\"name,omitempty\" yaml:\"-\"`"),
            [
                ("json".to_string(), "name,omitempty".to_string()),
                ("yaml".to_string(), "-".to_string())
            ]
        );
        assert_eq!(
            derived("#[derive(Debug, serde::Serialize, Clone)]"),
            ["Debug", "Serialize", "Clone"]
        );
        assert_eq!(derived("#[cfg(test)]"), Vec::<String>::new());
        assert_eq!(decorator_name("@core.Input('x')"), "Input");
        assert_eq!(decorator_name("@Column"), "Column");
    }
}
