//! The node kinds and fields the walk tells apart, by id: tree-sitter
//! compares names as C strings on every call, the walk compares numbers.

use super::*;
pub(super) use crate::analysis::grammar::kind_name;
pub(super) use crate::analysis::nodes::unparenthesized;

/// Field ids of the Python grammar, looked up once (by name, tree-sitter
/// compares strings on every call).
pub(super) struct Fields {
    pub(super) alias: u16,
    pub(super) alternative: u16,
    pub(super) argument: u16,
    pub(super) arguments: u16,
    pub(super) attribute: u16,
    pub(super) body: u16,
    pub(super) condition: u16,
    pub(super) consequence: u16,
    pub(super) definition: u16,
    pub(super) function: u16,
    pub(super) left: u16,
    pub(super) module_name: u16,
    pub(super) name: u16,
    pub(super) object: u16,
    pub(super) operator: u16,
    pub(super) parameters: u16,
    pub(super) return_type: u16,
    pub(super) right: u16,
    pub(super) subscript: u16,
    pub(super) superclasses: u16,
    pub(super) r#type: u16,
    pub(super) value: u16,
}

pub(super) fn fields() -> &'static Fields {
    static FIELDS: std::sync::OnceLock<Fields> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let lang = crate::analysis::grammar::python();
        let id = |name: &str| {
            lang.field_id_for_name(name)
                .map(|f| f.get())
                .unwrap_or(u16::MAX)
        };
        Fields {
            alias: id("alias"),
            alternative: id("alternative"),
            argument: id("argument"),
            arguments: id("arguments"),
            attribute: id("attribute"),
            body: id("body"),
            condition: id("condition"),
            consequence: id("consequence"),
            definition: id("definition"),
            function: id("function"),
            left: id("left"),
            module_name: id("module_name"),
            name: id("name"),
            object: id("object"),
            operator: id("operator"),
            parameters: id("parameters"),
            return_type: id("return_type"),
            right: id("right"),
            subscript: id("subscript"),
            superclasses: id("superclasses"),
            r#type: id("type"),
            value: id("value"),
        }
    })
}

/// Node kind ids the walk compares on hot paths (`Node::kind` measures
/// and checks a C string on every call).
pub(super) struct Kinds {
    pub(super) if_statement: u16,
    pub(super) and: u16,
}

pub(super) fn kinds() -> &'static Kinds {
    static KINDS: std::sync::OnceLock<Kinds> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        let lang = crate::analysis::grammar::python();
        Kinds {
            if_statement: lang.id_for_node_kind("if_statement", true),
            and: lang.id_for_node_kind("and", false),
        }
    })
}

/// The node kinds [`Scanner::visit`] and [`Scanner::expr`] tell apart.
/// Matching a kind id through one table instead of the kind's name saves
/// a C string's measure, check and comparisons per node.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    FunctionDefinition,
    ClassDefinition,
    DecoratedDefinition,
    ImportStatement,
    ImportFromStatement,
    FutureImportStatement,
    /// Comments, `pass` and literals other than strings: nothing to index.
    Inert,
    String,
    Declaration,
    Assignment,
    AugmentedAssignment,
    NamedExpression,
    DeleteStatement,
    ForStatement,
    AsPattern,
    ExceptClause,
    Lambda,
    Comprehension,
    CasePattern,
    BooleanOperator,
    BinaryOperator,
    Conditional,
    ReturnStatement,
    Yield,
    KeywordArgument,
    Identifier,
    Attribute,
    Call,
    Subscript,
    ParenthesizedExpression,
    Other,
}

impl Kind {
    fn of_name(name: &str) -> Kind {
        match name {
            "function_definition" => Kind::FunctionDefinition,
            "class_definition" => Kind::ClassDefinition,
            "decorated_definition" => Kind::DecoratedDefinition,
            "import_statement" => Kind::ImportStatement,
            "import_from_statement" => Kind::ImportFromStatement,
            "future_import_statement" => Kind::FutureImportStatement,
            "comment" | "pass_statement" | "integer" | "float" | "true" | "false" | "none"
            | "ellipsis" => Kind::Inert,
            "string" => Kind::String,
            "global_statement" | "nonlocal_statement" => Kind::Declaration,
            "assignment" => Kind::Assignment,
            "augmented_assignment" => Kind::AugmentedAssignment,
            "named_expression" => Kind::NamedExpression,
            "delete_statement" => Kind::DeleteStatement,
            "for_statement" => Kind::ForStatement,
            "as_pattern" => Kind::AsPattern,
            "except_clause" => Kind::ExceptClause,
            "lambda" => Kind::Lambda,
            "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression" => Kind::Comprehension,
            "case_pattern" => Kind::CasePattern,
            "boolean_operator" => Kind::BooleanOperator,
            "binary_operator" => Kind::BinaryOperator,
            "if_statement" | "elif_clause" => Kind::Conditional,
            "return_statement" => Kind::ReturnStatement,
            "yield" => Kind::Yield,
            "keyword_argument" => Kind::KeywordArgument,
            "identifier" => Kind::Identifier,
            "attribute" => Kind::Attribute,
            "call" => Kind::Call,
            "subscript" => Kind::Subscript,
            "parenthesized_expression" => Kind::ParenthesizedExpression,
            _ => Kind::Other,
        }
    }

    /// The kind of `node`: what `Kind::of_name(node.kind())` gives, by id.
    pub(super) fn of(node: Node<'_>) -> Kind {
        static TABLE: std::sync::OnceLock<crate::language::KindTable<Kind>> =
            std::sync::OnceLock::new();
        TABLE
            .get_or_init(|| {
                crate::language::KindTable::new(crate::analysis::grammar::python(), Kind::of_name)
            })
            .of(node)
    }
}

/// `node.child_by_field_name(name)` through the precomputed id.
pub(super) fn field<'t>(node: Node<'t>, id: u16) -> Option<Node<'t>> {
    if id == u16::MAX {
        return None;
    }
    node.child_by_field_id(id)
}

/// The first child of `node` in each of the fields `ids`.
///
/// One `child_by_field_id` per field, not one cursor pass asking every
/// child for its field: on tree-sitter 0.25 a cursor step out of a
/// child climbs back through its hidden wrappers (`expression`,
/// `primary_expression`) and `TreeCursor::field_id` walks the cursor's
/// stack, so the pass cost the scan 15% more instructions
/// (docs/BENCHMARKS-index.md).
pub(super) fn fields_of<'t, const N: usize>(
    node: Node<'t>,
    ids: [u16; N],
) -> [Option<Node<'t>>; N] {
    ids.map(|id| field(node, id))
}

/// `name` or `a.b.c`: identifiers joined by dots.
pub(super) fn is_dotted_name(text: &str) -> bool {
    let identifier = |p: &str| {
        let mut chars = p.chars();
        chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
            && chars.all(|c| c == '_' || c.is_alphanumeric())
    };
    !text.is_empty() && text.split('.').all(identifier)
}

/// The `string_content` child of a plain string literal (`"name"`).
pub(super) fn string_content(string: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = string.walk();
    let mut parts = string
        .named_children(&mut cursor)
        .filter(|&c| kind_name(c) != "string_start" && kind_name(c) != "string_end");
    let content = parts.next()?;
    (kind_name(content) == "string_content" && parts.next().is_none()).then_some(content)
}

/// An annotation's expression, its `type` wrapper and parentheses taken off.
pub(super) fn annotation_expression(ty: Node<'_>) -> Option<Node<'_>> {
    let node = unparenthesized(ty);
    if kind_name(node) == "type" {
        return Some(unparenthesized(node.named_child(0)?));
    }
    Some(node)
}
