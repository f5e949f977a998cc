//! The scan's one walk over a file's tree (a `TreeCursor`, node kinds and
//! fields compared by id): the uses of names, the scopes, the names the
//! scopes bind, the symbol sites ([`super::sites`]), the types Go's
//! structs embed, and what the file's family reads of typed declarations
//! ([`Family::read_typed`]), all together. Each language's rules say, in
//! the tags convention (tree-sitter's `tags.scm` and `locals.scm`, widened
//! from calls to every use), that a name is a call's callee, a member read
//! through an object, the last name of a path, or any other use; that a
//! scope binds the names of its parameters and locals. A name several
//! rules find keeps the strongest (a call over a member over a path over
//! a name). (They replaced `queries/<language>/index.scm`, which a query
//! cursor matched in a pass of its own: `docs/PERFORMANCE.md`.)

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use tree_sitter::Node;

use super::family::{family_of, Family};
use super::scan::TagsFile;
use super::sites::site_kind;
use crate::analysis::syntax::{LineTable, TextAt};
use crate::language::{FoundSite, Language};

/// What a use says of its name; the strongest wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Capture {
    Name,
    Path,
    Member,
    Call,
}

/// Where a local definition binds its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Binds {
    /// In the innermost scope around it.
    Here,
    /// In the scope around the declaration it names (a function declared
    /// in a block binds its name in the block).
    Outer,
    /// In the innermost function around it (JavaScript's `var`).
    Function,
}

/// A use of a name: the name's bytes (read while the walk is at its node,
/// whose subtree is then in the cache), how, and what it is read through
/// (a path's qualifier when `true`).
pub(super) type Use<'t> = (Range<usize>, Capture, Option<(Node<'t>, bool)>);

/// What the walk finds in a file.
#[derive(Default)]
pub(super) struct Walked<'t> {
    /// In source order.
    pub(super) uses: Vec<Use<'t>>,
    /// In source order, outer before inner.
    pub(super) scopes: Vec<Node<'t>>,
    /// In source order.
    pub(super) locals: Vec<Local<'t>>,
    /// The symbol sites, by their names in source order.
    pub(super) sites: Vec<FoundSite<'t>>,
    /// Go: the names of the types a struct embeds (`T`, `*T`, `pkg.T`,
    /// `T[P]`), in source order.
    pub(super) embedded: Vec<Node<'t>>,
}

/// A name a scope binds.
#[derive(Debug, Clone, Copy)]
pub(super) struct Local<'t> {
    pub(super) node: Node<'t>,
    pub(super) binds: Binds,
    /// The innermost declaration around it that binds its names from its
    /// end on (Go's `x := x + 1` and Rust's `let x = x + 1;` and `if let
    /// Some(x) = x` read the `x` outside on the right).
    pub(super) declaration: Option<Node<'t>>,
}

/// The node kinds the rules name (one enum for every language: a
/// grammar maps the ids of its kinds of these names to them).
macro_rules! kinds {
    ($($kind:ident = $name:literal,)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(super) enum K { Other, $($kind,)* }
        const KIND_NAMES: &[(K, &str)] = &[$((K::$kind, $name),)*];
    };
}

kinds! {
    Identifier = "identifier",
    TypeIdentifier = "type_identifier",
    FieldIdentifier = "field_identifier",
    PropertyIdentifier = "property_identifier",
    PrivatePropertyIdentifier = "private_property_identifier",
    ShorthandPropertyIdentifier = "shorthand_property_identifier",
    ShorthandPropertyIdentifierPattern = "shorthand_property_identifier_pattern",
    ShorthandFieldIdentifier = "shorthand_field_identifier",
    PackageIdentifier = "package_identifier",
    PrimitiveType = "primitive_type",
    TokenTree = "token_tree",
    Lifetime = "lifetime",
    Label = "label",
    CallExpression = "call_expression",
    NewExpression = "new_expression",
    MemberExpression = "member_expression",
    BinaryExpression = "binary_expression",
    JsxOpeningElement = "jsx_opening_element",
    JsxSelfClosingElement = "jsx_self_closing_element",
    JsxClosingElement = "jsx_closing_element",
    NestedTypeIdentifier = "nested_type_identifier",
    ExportSpecifier = "export_specifier",
    FormalParameters = "formal_parameters",
    AssignmentPattern = "assignment_pattern",
    ObjectAssignmentPattern = "object_assignment_pattern",
    AssignmentExpression = "assignment_expression",
    ExpressionStatement = "expression_statement",
    Pair = "pair",
    Object = "object",
    RestPattern = "rest_pattern",
    ArrowFunction = "arrow_function",
    VariableDeclarator = "variable_declarator",
    VariableDeclaration = "variable_declaration",
    ObjectPattern = "object_pattern",
    PairPattern = "pair_pattern",
    ArrayPattern = "array_pattern",
    CatchClause = "catch_clause",
    ForInStatement = "for_in_statement",
    FunctionDeclaration = "function_declaration",
    StatementBlock = "statement_block",
    ClassDeclaration = "class_declaration",
    RequiredParameter = "required_parameter",
    OptionalParameter = "optional_parameter",
    SelectorExpression = "selector_expression",
    QualifiedType = "qualified_type",
    CompositeLiteral = "composite_literal",
    ParameterDeclaration = "parameter_declaration",
    VariadicParameterDeclaration = "variadic_parameter_declaration",
    ExpressionList = "expression_list",
    ShortVarDeclaration = "short_var_declaration",
    VarDeclaration = "var_declaration",
    ConstDeclaration = "const_declaration",
    VarSpec = "var_spec",
    ConstSpec = "const_spec",
    RangeClause = "range_clause",
    TypeSwitchStatement = "type_switch_statement",
    ReceiveStatement = "receive_statement",
    FieldExpression = "field_expression",
    GenericFunction = "generic_function",
    ScopedIdentifier = "scoped_identifier",
    ScopedTypeIdentifier = "scoped_type_identifier",
    StructExpression = "struct_expression",
    Parameter = "parameter",
    LetDeclaration = "let_declaration",
    TuplePattern = "tuple_pattern",
    ClosureParameters = "closure_parameters",
    ForExpression = "for_expression",
    LetCondition = "let_condition",
    TupleStructPattern = "tuple_struct_pattern",
    FieldPattern = "field_pattern",
    MatchPattern = "match_pattern",
    CapturedPattern = "captured_pattern",
    RefPattern = "ref_pattern",
    MutPattern = "mut_pattern",
    SlicePattern = "slice_pattern",
    ReferencePattern = "reference_pattern",
    OrPattern = "or_pattern",
    MethodInvocation = "method_invocation",
    ExplicitConstructorInvocation = "explicit_constructor_invocation",
    Super = "super",
    This = "this",
    ObjectCreationExpression = "object_creation_expression",
    FieldAccess = "field_access",
    MethodReference = "method_reference",
    FormalParameter = "formal_parameter",
    SpreadParameter = "spread_parameter",
    LocalVariableDeclaration = "local_variable_declaration",
    EnhancedForStatement = "enhanced_for_statement",
    CatchFormalParameter = "catch_formal_parameter",
    LambdaExpression = "lambda_expression",
    InferredParameters = "inferred_parameters",
    InstanceofExpression = "instanceof_expression",
    TypePattern = "type_pattern",
    RecordPatternComponent = "record_pattern_component",
    Resource = "resource",
    // the elements of the symbol sites ([`super::sites`]) and what
    // they are found in
    Program = "program",
    ExportStatement = "export_statement",
    LexicalDeclaration = "lexical_declaration",
    FunctionExpression = "function_expression",
    GeneratorFunction = "generator_function",
    GeneratorFunctionDeclaration = "generator_function_declaration",
    FunctionSignature = "function_signature",
    Class = "class",
    ClassBody = "class_body",
    AbstractClassDeclaration = "abstract_class_declaration",
    InterfaceDeclaration = "interface_declaration",
    InterfaceBody = "interface_body",
    TypeAliasDeclaration = "type_alias_declaration",
    EnumDeclaration = "enum_declaration",
    EnumBody = "enum_body",
    EnumAssignment = "enum_assignment",
    InternalModule = "internal_module",
    MethodDefinition = "method_definition",
    MethodSignature = "method_signature",
    AbstractMethodSignature = "abstract_method_signature",
    FieldDefinition = "field_definition",
    PublicFieldDefinition = "public_field_definition",
    PropertySignature = "property_signature",
    SourceFile = "source_file",
    MethodDeclaration = "method_declaration",
    TypeSpec = "type_spec",
    TypeAlias = "type_alias",
    StructType = "struct_type",
    InterfaceType = "interface_type",
    FieldDeclaration = "field_declaration",
    FieldDeclarationList = "field_declaration_list",
    MethodElem = "method_elem",
    VarSpecList = "var_spec_list",
    DeclarationList = "declaration_list",
    FunctionItem = "function_item",
    FunctionSignatureItem = "function_signature_item",
    ImplItem = "impl_item",
    TraitItem = "trait_item",
    ModItem = "mod_item",
    StructItem = "struct_item",
    EnumItem = "enum_item",
    UnionItem = "union_item",
    TypeItem = "type_item",
    AssociatedType = "associated_type",
    EnumVariant = "enum_variant",
    EnumVariantList = "enum_variant_list",
    ConstItem = "const_item",
    StaticItem = "static_item",
    RecordDeclaration = "record_declaration",
    AnnotationTypeDeclaration = "annotation_type_declaration",
    AnnotationTypeElementDeclaration = "annotation_type_element_declaration",
    ConstructorDeclaration = "constructor_declaration",
    CompactConstructorDeclaration = "compact_constructor_declaration",
    EnumConstant = "enum_constant",
    ConstantDeclaration = "constant_declaration",
    GenericType = "generic_type",
    Block = "block",
}

/// The fields the rules name.
macro_rules! fields {
    ($($field:ident = $name:literal,)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(super) enum F { Other, $($field,)* }
        const FIELD_NAMES: &[(F, &str)] = &[$((F::$field, $name),)*];
    };
}

fields! {
    Function = "function",
    Constructor = "constructor",
    Object = "object",
    Property = "property",
    Name = "name",
    Module = "module",
    Alias = "alias",
    Left = "left",
    Right = "right",
    Key = "key",
    Parameter = "parameter",
    Pattern = "pattern",
    Value = "value",
    Operand = "operand",
    Field = "field",
    Package = "package",
    Type = "type",
    Path = "path",
    Declarator = "declarator",
    Parameters = "parameters",
    Declaration = "declaration",
    Body = "body",
    Condition = "condition",
}

/// The kinds of the nodes whose field in their parent a rule reads: the
/// names, and the nodes whose place says what a name in them is.
const FIELDED: &[K] = &[
    K::Identifier,
    K::TypeIdentifier,
    K::FieldIdentifier,
    K::PropertyIdentifier,
    K::PrivatePropertyIdentifier,
    K::ShorthandFieldIdentifier,
    K::ObjectPattern,
    K::ArrayPattern,
    K::MemberExpression,
    K::SelectorExpression,
    K::FieldExpression,
    K::ScopedIdentifier,
    K::RestPattern,
    K::ExpressionList,
    K::LexicalDeclaration,
    K::VariableDeclaration,
    K::DeclarationList,
    K::VariableDeclarator,
    K::QualifiedType,
    K::GenericType,
    K::Super,
    K::This,
];

/// Whether a kind is a name's: what a rule may say is a use, a local or
/// a symbol site's name (a destructuring pattern names a JavaScript
/// module-level binding's names).
fn is_name(kind: K) -> bool {
    matches!(
        kind,
        K::Identifier
            | K::PrimitiveType
            | K::TypeIdentifier
            | K::FieldIdentifier
            | K::PropertyIdentifier
            | K::PrivatePropertyIdentifier
            | K::ShorthandPropertyIdentifier
            | K::ShorthandPropertyIdentifierPattern
            | K::ShorthandFieldIdentifier
            | K::ObjectPattern
            | K::ArrayPattern
    )
}

/// The kinds of the nodes no name is under, in the languages but Java:
/// the walk does not go down them.
const OPAQUE: &[&str] = &[
    "comment",
    "line_comment",
    "block_comment",
    "string",
    "interpreted_string_literal",
    "raw_string_literal",
    "string_literal",
    "char_literal",
    "rune_literal",
    "regex",
];

/// Which language's rules read a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rules {
    /// JavaScript and TypeScript; `ts`: TypeScript's types and
    /// parameters, `jsx`: elements named by a component.
    Es {
        ts: bool,
        jsx: bool,
    },
    Go,
    Rust,
    Java,
}

/// One language's kinds and fields by id, looked up once.
pub(super) struct Grammar {
    pub(super) rules: Rules,
    kinds: Vec<K>,
    /// Per kind id: an anonymous token (a keyword, a bracket, an
    /// operator): a leaf, nothing to the rules.
    tokens: Vec<bool>,
    /// Per kind id: a scope that binds names.
    scopes: Vec<bool>,
    /// Per kind id: a node the family reads for typed names; a function,
    /// a class body (the scopes of typed names).
    typed: Vec<bool>,
    functions: Vec<bool>,
    classes: Vec<bool>,
    /// Per kind id: a node whose field in its parent a rule reads (a
    /// field costs a search of the parent's fields).
    fielded: Vec<bool>,
    /// Per kind id: a node no name is under (a string, a comment): the
    /// walk does not go down it.
    opaque: Vec<bool>,
    fields: Vec<F>,
    /// The ids of the fields the rules read a child by (0: the grammar
    /// has no such field), by [`F`].
    field_ids: Vec<u16>,
}

impl Grammar {
    fn new(language: &'static dyn Language, family: &dyn Family) -> Option<Grammar> {
        let rules = match language.id() {
            "javascript" => Rules::Es {
                ts: false,
                jsx: true,
            },
            "typescript" => Rules::Es {
                ts: true,
                jsx: false,
            },
            "tsx" => Rules::Es {
                ts: true,
                jsx: true,
            },
            "go" => Rules::Go,
            "rust" => Rules::Rust,
            "java" => Rules::Java,
            _ => return None,
        };
        let grammar = language.grammar();
        let count = grammar.node_kind_count();
        let name_of = |id: usize| {
            let id = id as u16;
            grammar
                .node_kind_is_named(id)
                .then(|| grammar.node_kind_for_id(id))
                .flatten()
        };
        let marks = |names: &[&str]| -> Vec<bool> {
            (0..count)
                .map(|id| name_of(id).is_some_and(|n| names.contains(&n)))
                .collect()
        };
        let kinds: Vec<K> = (0..count)
            .map(|id| {
                name_of(id)
                    .and_then(|n| KIND_NAMES.iter().find(|(_, name)| *name == n))
                    .map_or(K::Other, |(k, _)| *k)
            })
            .collect();
        let fielded = kinds.iter().map(|k| FIELDED.contains(k)).collect();
        let typed = family.typed_kinds();
        let fields = (0..=grammar.field_count())
            .map(|id| {
                grammar
                    .field_name_for_id(id as u16)
                    .and_then(|n| FIELD_NAMES.iter().find(|(_, name)| *name == n))
                    .map_or(F::Other, |(f, _)| *f)
            })
            .collect();
        let mut field_ids = vec![0; FIELD_NAMES.len() + 1];
        for (field, name) in FIELD_NAMES {
            field_ids[*field as usize] = grammar.field_id_for_name(name).map_or(0, |id| id.get());
        }
        let tokens = (0..count)
            .map(|id| !grammar.node_kind_is_named(id as u16))
            .collect();
        Some(Grammar {
            rules,
            kinds,
            tokens,
            scopes: marks(scope_kinds(rules)),
            typed: marks(typed.nodes),
            functions: marks(typed.functions),
            classes: marks(typed.classes),
            fielded,
            opaque: match rules {
                // (a Java string's template holds expressions)
                Rules::Java => marks(&["line_comment", "block_comment"]),
                _ => marks(OPAQUE),
            },
            fields,
            field_ids,
        })
    }

    /// The kind of a node kind's id.
    fn kind_of_id(&self, id: u16) -> K {
        self.kinds.get(id as usize).copied().unwrap_or(K::Other)
    }

    /// The field of the cursor's node (of kind `id`) in its parent, where
    /// a rule may read it: a field costs a search of the parent's fields,
    /// read for the kinds a rule asks of, or when `anyway`.
    fn field_at(&self, cursor: &tree_sitter::TreeCursor<'_>, id: u16, anyway: bool) -> F {
        match anyway || marked(&self.fielded, id) {
            true => cursor
                .field_id()
                .and_then(|f| self.fields.get(f.get() as usize).copied())
                .unwrap_or(F::Other),
            false => F::Other,
        }
    }

    pub(super) fn kind(&self, node: Node<'_>) -> K {
        self.kind_of_id(node.kind_id())
    }

    pub(super) fn child<'t>(&self, node: Node<'t>, field: F) -> Option<Node<'t>> {
        let id = self
            .field_ids
            .get(field as usize)
            .copied()
            .filter(|&id| id != 0)?;
        node.child_by_field_id(id).filter(|n| n.is_named())
    }
}

/// The kinds of the scopes that bind names, per language.
fn scope_kinds(rules: Rules) -> &'static [&'static str] {
    match rules {
        Rules::Es { .. } => &[
            "function_declaration",
            "function_expression",
            "generator_function_declaration",
            "generator_function",
            "arrow_function",
            "method_definition",
            "statement_block",
            "for_statement",
            "for_in_statement",
            "catch_clause",
            "class_body",
        ],
        Rules::Go => &[
            "function_declaration",
            "method_declaration",
            "func_literal",
            "block",
            "for_statement",
            "if_statement",
            "expression_switch_statement",
            "type_switch_statement",
            // (a `select` case's names: `case v := <-ch:`)
            "communication_case",
        ],
        Rules::Rust => &[
            "function_item",
            "closure_expression",
            "block",
            "for_expression",
            "match_arm",
            "if_expression",
            "while_expression",
        ],
        Rules::Java => &[
            "method_declaration",
            "constructor_declaration",
            "lambda_expression",
            "block",
            "for_statement",
            "enhanced_for_statement",
            "catch_clause",
            "class_body",
            "try_with_resources_statement",
        ],
    }
}

/// A language's grammar table, made the first time a file of it is
/// scanned.
fn grammar_of(language: &'static dyn Language) -> Option<&'static Grammar> {
    static GRAMMARS: OnceLock<HashMap<&'static str, OnceLock<Option<Grammar>>>> = OnceLock::new();
    let grammars = GRAMMARS.get_or_init(|| {
        crate::language::registry()
            .iter()
            .map(|l| (l.id(), OnceLock::new()))
            .collect()
    });
    grammars
        .get(language.id())?
        .get_or_init(|| Grammar::new(language, family_of(language)?))
        .as_ref()
}

/// A node on the way down: its kind, its field in its parent (where a
/// rule may read it), and the innermost function, class and declaration
/// that binds from its end around its children.
#[derive(Clone, Copy)]
pub(super) struct Step<'t> {
    pub(super) node: Node<'t>,
    /// Its kind's id.
    id: u16,
    pub(super) kind: K,
    pub(super) field: F,
    function: Node<'t>,
    class: Node<'t>,
    declaration: Option<Node<'t>>,
}

/// Walks the tree of a file of `language` once (see the module's doc);
/// the family's typed names go into `file`.
pub(super) fn walk<'t>(
    family: &dyn Family,
    language: &'static dyn Language,
    text: &str,
    lines: &LineTable<'_>,
    root: Node<'t>,
    file: &mut TagsFile,
) -> Walked<'t> {
    // (a use in 10–16 bytes of code, Go's densest: mostly no growth)
    let mut walked = Walked {
        uses: Vec::with_capacity(text.len() / 10),
        ..Walked::default()
    };
    let Some(grammar) = grammar_of(language) else {
        return walked;
    };
    // the family's reads in the order its own walk made them (each node
    // before its children, the last child first): blocks collected after
    // each node's children, then reversed
    let mut typed_blocks: Vec<(usize, usize)> = Vec::new();
    let mut inheriting_blocks: Vec<(usize, usize)> = Vec::new();
    let mut cursor = root.walk();
    // the ancestors of the cursor's node
    let mut path: Vec<Step<'t>> = Vec::new();
    loop {
        let node = cursor.node();
        // (the kind's id read once: each read is a call into the tree)
        let id = node.kind_id();
        // (a token is a leaf the rules never read: stepped over; about
        // half the nodes of a tree)
        if !marked(&grammar.tokens, id) {
            let kind = grammar.kind_of_id(id);
            let parent = path.last();
            // (and under Rust's `let_condition` for its pattern)
            let field = grammar.field_at(
                &cursor,
                id,
                parent.is_some_and(|p| p.kind == K::LetCondition),
            );
            let step = Step {
                node,
                id,
                kind,
                field,
                function: parent.map_or(root, |p| p.function),
                class: parent.map_or(root, |p| p.class),
                declaration: parent.and_then(|p| p.declaration),
            };
            visit(grammar, &path, step, lines, &mut walked);
            let inner = Step {
                // (a Go name a `var`/`const` group declares is bound
                // from the end of its own spec: `y = x + 1` after `x = 1`
                // in one group reads that `x`)
                declaration: match kind {
                    K::ShortVarDeclaration
                    | K::ReceiveStatement
                    | K::VarSpec
                    | K::ConstSpec
                    | K::LetDeclaration
                    | K::LetCondition
                    | K::InstanceofExpression
                    | K::TypePattern
                    | K::RecordPatternComponent => Some(node),
                    // a Java local is bound from its own name on, its
                    // initializer included (`String count = count;` reads
                    // the local): `int y = x;` before `int x` reads a field
                    K::VariableDeclarator
                        if parent.is_some_and(|p| p.kind == K::LocalVariableDeclaration) =>
                    {
                        Some(node.child_by_field_name("name").unwrap_or(node))
                    }
                    _ => step.declaration,
                },
                function: match marked(&grammar.functions, id) {
                    true => node,
                    false => step.function,
                },
                class: match marked(&grammar.classes, id) {
                    true => node,
                    false => step.class,
                },
                ..step
            };
            if !marked(&grammar.opaque, id) && cursor.goto_first_child() {
                path.push(inner);
                continue;
            }
            read_typed(
                grammar,
                family,
                text,
                lines,
                step,
                file,
                &mut typed_blocks,
                &mut inheriting_blocks,
            );
        }
        // leave the node, and each ancestor whose last child it is
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                reorder(&mut file.typed, &typed_blocks);
                reorder(&mut file.inheriting, &inheriting_blocks);
                return walked;
            }
            let parent = path.pop().expect("a parent on the path");
            let left = Step {
                function: path.last().map_or(root, |p| p.function),
                class: path.last().map_or(root, |p| p.class),
                declaration: path.last().and_then(|p| p.declaration),
                ..parent
            };
            read_typed(
                grammar,
                family,
                text,
                lines,
                left,
                file,
                &mut typed_blocks,
                &mut inheriting_blocks,
            );
        }
    }
}

/// The symbol sites of a file of `language` alone ([`super::sites`], the
/// rules the scan's walk asks at each name), in the walk's order: what
/// the outline of a brace language is read from, with no use, scope or
/// typed name collected (`text`: the file's, which a few rules read).
/// `None` for a language the walk has no rules for.
pub(crate) fn symbol_sites<'t>(
    language: &'static dyn Language,
    root: Node<'t>,
    text: &dyn TextAt,
) -> Option<Vec<FoundSite<'t>>> {
    let grammar = grammar_of(language)?;
    let mut sites = Vec::new();
    let mut cursor = root.walk();
    let mut path: Vec<Step<'t>> = Vec::new();
    loop {
        let node = cursor.node();
        let id = node.kind_id();
        if !marked(&grammar.tokens, id) {
            let kind = grammar.kind_of_id(id);
            let field = grammar.field_at(&cursor, id, false);
            let step = Step {
                node,
                id,
                kind,
                field,
                // (what only the uses' and locals' rules read)
                function: root,
                class: root,
                declaration: None,
            };
            if is_name(kind) {
                sites.extend(site_at(grammar, &path, step, text));
            }
            if !marked(&grammar.opaque, id) && cursor.goto_first_child() {
                path.push(step);
                continue;
            }
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Some(sites);
            }
            path.pop();
        }
    }
}

/// The family's typed names of a node it reads (after its children),
/// each node's in a block of its own ([`reorder`]).
#[allow(clippy::too_many_arguments)]
fn read_typed(
    grammar: &Grammar,
    family: &dyn Family,
    text: &str,
    lines: &LineTable<'_>,
    left: Step<'_>,
    file: &mut TagsFile,
    typed_blocks: &mut Vec<(usize, usize)>,
    inheriting_blocks: &mut Vec<(usize, usize)>,
) {
    if marked(&grammar.typed, left.id) {
        let (t, i) = (file.typed.len(), file.inheriting.len());
        family.read_typed(text, lines, left.node, left.function, left.class, file);
        typed_blocks.push((t, file.typed.len()));
        inheriting_blocks.push((i, file.inheriting.len()));
    }
}

/// Whether a table per kind id marks the node's kind (an `ERROR` node's
/// id is past every table).
fn marked(table: &[bool], id: u16) -> bool {
    table.get(id as usize).copied().unwrap_or(false)
}

/// The items in the reverse order of their blocks (each block's own order
/// kept).
fn reorder<T>(items: &mut Vec<T>, blocks: &[(usize, usize)]) {
    if blocks.len() < 2 {
        return;
    }
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    for &(start, end) in blocks.iter().rev() {
        items.extend(slots[start..end].iter_mut().filter_map(Option::take));
    }
}

/// What the rules say of one named node, given its ancestors.
fn visit<'t>(
    grammar: &Grammar,
    path: &[Step<'t>],
    node: Step<'t>,
    text: &dyn TextAt,
    walked: &mut Walked<'t>,
) {
    if marked(&grammar.scopes, node.id) {
        walked.scopes.push(node.node);
    }
    let parent = path.last().copied();
    if matches!(node.kind, K::Super | K::This) {
        if constructor_call(grammar.rules, node, parent) {
            walked
                .uses
                .push((node.node.byte_range(), Capture::Call, None));
        }
        return;
    }
    if !is_name(node.kind) {
        return;
    }
    let grandparent = path.len().checked_sub(2).map(|i| path[i]);
    let (used, binds) = match grammar.rules {
        Rules::Es { ts, jsx } => (
            es_use(grammar, node, parent, grandparent, ts, jsx)
                .filter(|_| !(jsx && jsx_intrinsic(node, parent, text)))
                .filter(|_| !private_of_anonymous_class(path, node, text))
                .filter(|_| !this_of_anonymous_class(path, node)),
            es_local(node, parent, grandparent, ts),
        ),
        Rules::Go => (
            go_use(grammar, node, parent, grandparent),
            go_local(node, parent, grandparent),
        ),
        Rules::Rust => (
            rust_use(grammar, node, parent, grandparent),
            rust_local(node, parent, grandparent),
        ),
        Rules::Java => (
            java_use(grammar, node, parent),
            java_local(grammar, node, parent, grandparent),
        ),
    };
    if let Some((capture, object)) = used {
        walked.uses.push((node.node.byte_range(), capture, object));
    }
    walked.sites.extend(site_at(grammar, path, node, text));
    if grammar.rules == Rules::Go && node.kind == K::TypeIdentifier && embedded(grammar, path, node)
    {
        walked.embedded.push(node.node);
    }
    if let Some(binds) = binds {
        walked.locals.push(Local {
            node: node.node,
            binds,
            declaration: node.declaration,
        });
    }
}

/// Whether `node` (`super`, `this`) calls a constructor: Java's
/// `super(…)` and `this(…)` at a constructor's start, ES's `super(…)` in
/// a subclass's constructor. They are uses named `super` and `this`,
/// which a constructor's callers read ([`super::resolve`]).
fn constructor_call(rules: Rules, node: Step<'_>, parent: Option<Step<'_>>) -> bool {
    match rules {
        Rules::Java => holds(
            parent,
            K::ExplicitConstructorInvocation,
            F::Constructor,
            node,
        ),
        Rules::Es { .. } => {
            node.kind == K::Super && holds(parent, K::CallExpression, F::Function, node)
        }
        Rules::Go | Rules::Rust => false,
    }
}

/// The symbol site a name makes, given its ancestors: the element
/// around it (`path`'s last; for a CommonJS export key written in place,
/// `exports.f = function () {}`, the assignment around its member
/// expression), of the kind the rules say.
fn site_at<'t>(
    grammar: &Grammar,
    path: &[Step<'t>],
    name: Step<'t>,
    text: &dyn TextAt,
) -> Option<FoundSite<'t>> {
    let kind = site_kind(grammar, path, name, text)?;
    let above = match path[path.len() - 1].kind {
        K::MemberExpression => 2,
        // a TypeScript enum's member without a value is its name alone
        K::EnumBody => 0,
        _ => 1,
    };
    let node = match above {
        0 => name.node,
        _ => path[path.len() - above].node,
    };
    Some(FoundSite {
        node,
        kind,
        name: name.node,
        parent: path.len().checked_sub(above + 1).map(|i| path[i].node),
    })
}

type Found<'t> = Option<(Capture, Option<(Node<'t>, bool)>)>;

/// Go: whether a type's name is that of a type a struct embeds: a field
/// declaration's type without a field name (`T`, `*T`, `pkg.T`, `T[P]`).
fn embedded(grammar: &Grammar, path: &[Step<'_>], node: Step<'_>) -> bool {
    let up = |n: usize| path.len().checked_sub(n).map(|i| path[i]);
    // the field's type: the name, or the qualified or generic type it names
    let (field_type, above) = match up(1) {
        Some(p)
            if (p.kind == K::QualifiedType && node.field == F::Name)
                || (p.kind == K::GenericType && node.field == F::Type) =>
        {
            (p, 2)
        }
        _ => (node, 1),
    };
    let Some(declaration) = up(above).filter(|d| d.kind == K::FieldDeclaration) else {
        return false;
    };
    field_type.field == F::Type
        && up(above + 1).is_some_and(|l| l.kind == K::FieldDeclarationList)
        && grammar.child(declaration.node, F::Name).is_none()
}

/// Whether `parent` is `kind` and holds the node in `field`.
fn holds(parent: Option<Step<'_>>, kind: K, field: F, node: Step<'_>) -> bool {
    parent.is_some_and(|p| p.kind == kind) && node.field == field
}

/// A member read through `object` (a call's callee when `call`).
fn member(object: Option<Node<'_>>, call: bool) -> Found<'_> {
    let object = object?;
    Some((
        if call { Capture::Call } else { Capture::Member },
        Some((object, false)),
    ))
}

fn es_use<'t>(
    grammar: &Grammar,
    node: Step<'t>,
    parent: Option<Step<'t>>,
    grandparent: Option<Step<'t>>,
    ts: bool,
    jsx: bool,
) -> Found<'t> {
    let call = Some((Capture::Call, None));
    match node.kind {
        K::Identifier if export_alias(node, parent) => None,
        K::Identifier
            if holds(parent, K::CallExpression, F::Function, node)
                || holds(parent, K::NewExpression, F::Constructor, node) =>
        {
            call
        }
        K::Identifier
            if jsx
                && (holds(parent, K::JsxOpeningElement, F::Name, node)
                    || holds(parent, K::JsxSelfClosingElement, F::Name, node)) =>
        {
            call
        }
        K::Identifier | K::ShorthandPropertyIdentifier => Some((Capture::Name, None)),
        // `({ a } = o)` assigns `a`
        K::ShorthandPropertyIdentifierPattern
            if parent.is_some_and(|p| p.kind == K::ObjectPattern)
                && grandparent.is_some_and(|g| g.kind == K::AssignmentExpression) =>
        {
            Some((Capture::Name, None))
        }
        // `#count in o`: the class's private name, as `this.#count` reads
        // it (its own node stands for the `this` it is read through)
        K::PrivatePropertyIdentifier if holds(parent, K::BinaryExpression, F::Left, node) => {
            member(Some(node.node), false)
        }
        K::PropertyIdentifier | K::PrivatePropertyIdentifier
            if holds(parent, K::MemberExpression, F::Property, node) =>
        {
            let parent = parent?;
            let callee = holds(grandparent, K::CallExpression, F::Function, parent)
                || (node.kind == K::PropertyIdentifier
                    && holds(grandparent, K::NewExpression, F::Constructor, parent));
            member(grammar.child(parent.node, F::Object), callee)
        }
        K::TypeIdentifier if ts && export_alias(node, parent) => None,
        K::TypeIdentifier if ts && holds(parent, K::NestedTypeIdentifier, F::Name, node) => {
            let module = grammar
                .child(parent?.node, F::Module)
                .filter(|m| grammar.kind(*m) == K::Identifier);
            member(module, false).or(Some((Capture::Name, None)))
        }
        K::TypeIdentifier if ts => Some((Capture::Name, None)),
        _ => None,
    }
}

/// A JSX tag's name that starts with a lower-case letter (`<div>`,
/// `</label>`): an element of the host (HTML's), no value of the code.
fn jsx_intrinsic(node: Step<'_>, parent: Option<Step<'_>>, text: &dyn TextAt) -> bool {
    let tag = [
        K::JsxOpeningElement,
        K::JsxSelfClosingElement,
        K::JsxClosingElement,
    ];
    node.kind == K::Identifier
        && tag.iter().any(|&kind| holds(parent, kind, F::Name, node))
        && text
            .text_of(node.node.start_byte()..node.node.start_byte() + 1)
            .starts_with(|c: char| c.is_ascii_lowercase())
}

/// A private name (`#count`) that an anonymous class expression around
/// it declares (`return class { #count = 0; … }` in a method): private
/// names are the innermost declaring class's, and that class has no name
/// the index keeps — so it is no use of a named class's member.
fn private_of_anonymous_class(path: &[Step<'_>], node: Step<'_>, text: &dyn TextAt) -> bool {
    if node.kind != K::PrivatePropertyIdentifier {
        return false;
    }
    let name = text.text_of(node.node.byte_range());
    for class in path.iter().rev().map(|step| step.node) {
        if !matches!(
            class.kind(),
            "class" | "class_declaration" | "abstract_class_declaration"
        ) {
            continue;
        }
        let Some(body) = class.child_by_field_name("body") else {
            continue;
        };
        let mut members = body.walk();
        let declares = body.named_children(&mut members).any(|member| {
            let own = member
                .child_by_field_name("name")
                .or_else(|| member.child_by_field_name("property"));
            matches!(
                member.kind(),
                "field_definition" | "public_field_definition" | "method_definition"
            ) && own.is_some_and(|own| text.text_of(own.byte_range()) == name)
        });
        if declares {
            return unnamed_class_expression(class);
        }
    }
    false
}

/// A class expression nothing names: neither a name of its own nor a
/// binding (`const B = class …`, `o.B = class …`, `static B = class …`,
/// `export default class …`), whose members the index then keeps as the
/// binding's.
fn unnamed_class_expression(class: tree_sitter::Node<'_>) -> bool {
    class.kind() == "class"
        && class.child_by_field_name("name").is_none()
        && !class.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                "variable_declarator"
                    | "assignment_expression"
                    | "export_statement"
                    | "public_field_definition"
                    | "field_definition"
                    | "pair"
            )
        })
}

/// `this.x` in an anonymous class expression that extends nothing
/// (`return class { … this.size … }` in a method): `this` is its
/// instance, whose class the index keeps no name for — no use of a named
/// class's member.
fn this_of_anonymous_class(path: &[Step<'_>], node: Step<'_>) -> bool {
    let Some(member) = path.last().filter(|p| p.kind == K::MemberExpression) else {
        return false;
    };
    let through_this = member
        .node
        .child_by_field_name("object")
        .is_some_and(|o| o.kind() == "this");
    if node.kind != K::PropertyIdentifier || !through_this {
        return false;
    }
    // (`this` in a `function` is its caller's: not followed here)
    let class = path.iter().rev().map(|step| step.node).find(|n| {
        matches!(
            n.kind(),
            "class" | "class_declaration" | "abstract_class_declaration"
        )
    });
    class.is_some_and(|class| {
        let mut parts = class.walk();
        let extends = class
            .children(&mut parts)
            .any(|k| k.kind() == "class_heritage");
        unnamed_class_expression(class) && !extends
    })
}

/// An export's alias names no use.
fn export_alias(node: Step<'_>, parent: Option<Step<'_>>) -> bool {
    holds(parent, K::ExportSpecifier, F::Alias, node)
}

fn es_local(
    node: Step<'_>,
    parent: Option<Step<'_>>,
    grandparent: Option<Step<'_>>,
    ts: bool,
) -> Option<Binds> {
    let parent_kind = parent.map(|p| p.kind);
    let grandparent_kind = grandparent.map(|g| g.kind);
    let here = Some(Binds::Here);
    match node.kind {
        K::Identifier => match parent_kind? {
            K::FormalParameters if !ts => here,
            K::AssignmentPattern
                if !ts
                    && node.field == F::Left
                    && grandparent_kind == Some(K::FormalParameters) =>
            {
                here
            }
            K::RestPattern if !ts && grandparent_kind == Some(K::FormalParameters) => here,
            // a destructuring's defaults and rests: `{ a: x = 1, ...rest }`, `[y = 2, ...more]`
            K::AssignmentPattern
                if node.field == F::Left
                    && matches!(grandparent_kind, Some(K::PairPattern | K::ArrayPattern)) =>
            {
                here
            }
            K::RestPattern
                if matches!(grandparent_kind, Some(K::ObjectPattern | K::ArrayPattern)) =>
            {
                here
            }
            K::RestPattern
                if ts && holds(grandparent, K::RequiredParameter, F::Pattern, parent?) =>
            {
                here
            }
            K::RequiredParameter | K::OptionalParameter if ts && node.field == F::Pattern => here,
            K::ArrowFunction if node.field == F::Parameter => here,
            K::VariableDeclarator if node.field == F::Name => {
                match grandparent_kind == Some(K::VariableDeclaration) {
                    true => Some(Binds::Function),
                    false => here,
                }
            }
            K::PairPattern
                if node.field == F::Value && grandparent_kind == Some(K::ObjectPattern) =>
            {
                here
            }
            K::ArrayPattern => here,
            K::CatchClause if node.field == F::Parameter => here,
            // `const f = function g() { … }`: `g` is the function's own
            K::FunctionExpression | K::GeneratorFunction if node.field == F::Name => here,
            K::ForInStatement if node.field == F::Left => here,
            K::FunctionDeclaration
                if node.field == F::Name && grandparent_kind == Some(K::StatementBlock) =>
            {
                Some(Binds::Outer)
            }
            K::ClassDeclaration
                if !ts && node.field == F::Name && grandparent_kind == Some(K::StatementBlock) =>
            {
                here
            }
            _ => None,
        },
        K::TypeIdentifier
            if ts
                && holds(parent, K::ClassDeclaration, F::Name, node)
                && grandparent_kind == Some(K::StatementBlock) =>
        {
            here
        }
        // `{ a }` and `{ a = 1 }`
        // (an assignment's pattern assigns: `({ a } = o)`)
        K::ShorthandPropertyIdentifierPattern
            if matches!(
                parent_kind,
                Some(K::ObjectPattern | K::ObjectAssignmentPattern)
            ) && grandparent_kind != Some(K::AssignmentExpression) =>
        {
            here
        }
        _ => None,
    }
}

fn go_use<'t>(
    grammar: &Grammar,
    node: Step<'t>,
    parent: Option<Step<'t>>,
    grandparent: Option<Step<'t>>,
) -> Found<'t> {
    match node.kind {
        K::Identifier if holds(parent, K::CallExpression, F::Function, node) => {
            Some((Capture::Call, None))
        }
        K::FieldIdentifier if holds(parent, K::SelectorExpression, F::Field, node) => {
            let parent = parent?;
            let callee = holds(grandparent, K::CallExpression, F::Function, parent);
            member(grammar.child(parent.node, F::Operand), callee)
        }
        K::TypeIdentifier if holds(parent, K::QualifiedType, F::Name, node) => {
            let package = grammar
                .child(parent?.node, F::Package)
                .filter(|p| grammar.kind(*p) == K::PackageIdentifier);
            member(package, false).or(Some((Capture::Name, None)))
        }
        K::TypeIdentifier if holds(parent, K::CompositeLiteral, F::Type, node) => {
            Some((Capture::Call, None))
        }
        K::Identifier | K::TypeIdentifier => Some((Capture::Name, None)),
        _ => None,
    }
}

fn go_local(
    node: Step<'_>,
    parent: Option<Step<'_>>,
    grandparent: Option<Step<'_>>,
) -> Option<Binds> {
    if node.kind != K::Identifier {
        return None;
    }
    let parent = parent?;
    let bound = match parent.kind {
        K::ParameterDeclaration | K::VariadicParameterDeclaration | K::VarSpec | K::ConstSpec => {
            node.field == F::Name
        }
        K::ExpressionList => {
            holds(grandparent, K::ShortVarDeclaration, F::Left, parent)
                || holds(grandparent, K::RangeClause, F::Left, parent)
                || holds(grandparent, K::TypeSwitchStatement, F::Alias, parent)
                // `case v := <-ch:` (not `case v = <-ch:`)
                || (holds(grandparent, K::ReceiveStatement, F::Left, parent)
                    && grandparent.is_some_and(|g| declares(g.node)))
        }
        _ => false,
    };
    bound.then_some(Binds::Here)
}

/// Whether a Go statement declares its left side (`:=`, not `=`).
fn declares(statement: Node<'_>) -> bool {
    let mut cursor = statement.walk();
    let found = statement.children(&mut cursor).any(|c| c.kind() == ":=");
    found
}

fn rust_use<'t>(
    grammar: &Grammar,
    node: Step<'t>,
    parent: Option<Step<'t>>,
    grandparent: Option<Step<'t>>,
) -> Found<'t> {
    let name = Some((Capture::Name, None));
    match node.kind {
        // an associated type's or constant's name in an `impl` or a
        // `trait` (`type Item = u8;`, `const LIMIT: u8;`): its own, no
        // use of an item of the name
        K::TypeIdentifier | K::Identifier
            if grandparent.is_some_and(|g| g.kind == K::DeclarationList)
                && (holds(parent, K::TypeItem, F::Name, node)
                    || holds(parent, K::AssociatedType, F::Name, node)
                    || holds(parent, K::ConstItem, F::Name, node)) =>
        {
            None
        }
        K::Identifier if holds(parent, K::CallExpression, F::Function, node) => {
            Some((Capture::Call, None))
        }
        K::FieldIdentifier if holds(parent, K::FieldExpression, F::Field, node) => {
            let parent = parent?;
            // (`x.f::<T>()`: a method's turbofish is a call's too)
            let callee = holds(grandparent, K::CallExpression, F::Function, parent)
                || grandparent.is_some_and(|g| g.kind == K::GenericFunction);
            member(grammar.child(parent.node, F::Value), callee)
        }
        K::Identifier if holds(parent, K::ScopedIdentifier, F::Name, node) => {
            let parent = parent?;
            let callee = holds(grandparent, K::CallExpression, F::Function, parent);
            match grammar.child(parent.node, F::Path) {
                Some(path) if callee => Some((Capture::Call, Some((path, true)))),
                Some(path) => Some((Capture::Path, Some((path, true)))),
                None => name,
            }
        }
        K::TypeIdentifier if holds(parent, K::ScopedTypeIdentifier, F::Name, node) => {
            match grammar.child(parent?.node, F::Path) {
                Some(path) => Some((Capture::Path, Some((path, true)))),
                None => name,
            }
        }
        K::TypeIdentifier if holds(parent, K::StructExpression, F::Name, node) => {
            Some((Capture::Call, None))
        }
        // a macro's named argument (`name` of `format!("{name}", name =
        // 7)`): a key of the macro's own, no use of a value
        K::Identifier
            if parent.is_some_and(|p| p.kind == K::TokenTree)
                && node.node.next_sibling().is_some_and(|n| n.kind() == "=") =>
        {
            None
        }
        // a lifetime's or a loop label's name (`'a`) is no value's
        K::Identifier if parent.is_some_and(|p| matches!(p.kind, K::Lifetime | K::Label)) => None,
        K::Identifier | K::TypeIdentifier | K::ShorthandFieldIdentifier => name,
        // a macro's tokens: `char` of `assert_eq!(r.char(0), 'H')` is a
        // name there (a method's), not the type
        K::PrimitiveType if parent.is_some_and(|p| p.kind == K::TokenTree) => name,
        _ => None,
    }
}

/// Rust's locals: the names its patterns bind, in parameters, `let`s,
/// `for`s, `if let`s, closures and match arms (`Some(ref x)`, `[first,
/// rest @ ..]`, `n @ 1..=5`, `&x`, `mut m`); not a tuple struct's name
/// (`Some` of `Some(x)`) nor an arm's guard. (A constant or a unit
/// variant in a pattern is a path, not a binding: the scan tells them
/// by their case.)
fn rust_local(
    node: Step<'_>,
    parent: Option<Step<'_>>,
    grandparent: Option<Step<'_>>,
) -> Option<Binds> {
    let parent = parent?;
    let bound = match node.kind {
        K::Identifier => match parent.kind {
            K::Parameter | K::LetDeclaration | K::ForExpression | K::LetCondition => {
                node.field == F::Pattern
            }
            K::TupleStructPattern => node.field != F::Type,
            K::MatchPattern => node.field != F::Condition,
            // `n @ 1..=5`: the name before the `@`
            K::CapturedPattern => node.node.start_byte() == parent.node.start_byte(),
            K::TuplePattern
            | K::ClosureParameters
            | K::FieldPattern
            | K::RefPattern
            | K::MutPattern
            | K::SlicePattern
            | K::ReferencePattern
            | K::OrPattern => true,
            _ => {
                parent.node.is_named()
                    && grandparent.is_some_and(|g| g.kind == K::LetCondition)
                    && parent.field == F::Pattern
            }
        },
        K::ShorthandFieldIdentifier => parent.kind == K::FieldPattern && node.field == F::Name,
        _ => false,
    };
    if bound {
        return Some(Binds::Here);
    }
    // an item of a block (`fn total` in `fn total`, `const LIMIT: u8 = 3;`,
    // `struct Item(u16);`): its name, in the whole block, is not the
    // module's item of that name
    let in_block = node.field == F::Name && grandparent.is_some_and(|g| g.kind == K::Block);
    match (node.kind, parent.kind) {
        // (a function is a scope of its own: it binds in the one around)
        (K::Identifier, K::FunctionItem) if in_block => Some(Binds::Outer),
        (K::Identifier, K::ConstItem | K::StaticItem)
        | (
            K::TypeIdentifier,
            K::StructItem | K::EnumItem | K::UnionItem | K::TypeItem | K::TraitItem,
        ) if in_block => Some(Binds::Here),
        _ => None,
    }
}

fn java_use<'t>(grammar: &Grammar, node: Step<'t>, parent: Option<Step<'t>>) -> Found<'t> {
    let name = Some((Capture::Name, None));
    match node.kind {
        K::Identifier if holds(parent, K::MethodInvocation, F::Name, node) => {
            let object = grammar.child(parent?.node, F::Object);
            Some((Capture::Call, object.map(|o| (o, false))))
        }
        K::TypeIdentifier if holds(parent, K::ObjectCreationExpression, F::Type, node) => {
            Some((Capture::Call, None))
        }
        // a constructor's reference (`Base::new`): a construction
        K::TypeIdentifier | K::Identifier if constructor_reference(node, parent) => {
            Some((Capture::Call, None))
        }
        // an enum's constant calls the enum's constructor (`ADD("+")`)
        K::Identifier if holds(parent, K::EnumConstant, F::Name, node) => {
            Some((Capture::Call, None))
        }
        K::Identifier if holds(parent, K::FieldAccess, F::Field, node) => {
            member(grammar.child(parent?.node, F::Object), false).or(name)
        }
        // `(scoped_type_identifier (type_identifier) (type_identifier))`
        K::TypeIdentifier if parent.is_some_and(|p| p.kind == K::ScopedTypeIdentifier) => {
            // (`com.acme.lib.Cart`: the scoped `com.acme.lib` before it)
            let is_type = |n: Node<'_>| {
                matches!(grammar.kind(n), K::TypeIdentifier | K::ScopedTypeIdentifier)
            };
            let object = earlier_sibling(parent?.node, node.node, is_type);
            member(object, false).or(name)
        }
        // `(method_reference (_) (identifier))`
        K::Identifier if parent.is_some_and(|p| p.kind == K::MethodReference) => {
            member(earlier_sibling(parent?.node, node.node, |_| true), false).or(name)
        }
        K::Identifier | K::TypeIdentifier => name,
        _ => None,
    }
}

/// Whether `node` is the class of a constructor's reference (`Base::new`).
fn constructor_reference(node: Step<'_>, parent: Option<Step<'_>>) -> bool {
    let Some(reference) = parent.filter(|p| p.kind == K::MethodReference) else {
        return false;
    };
    let reference = reference.node;
    let first = reference
        .named_child(0)
        .is_some_and(|n| n.id() == node.node.id());
    let last = reference.child(reference.child_count().saturating_sub(1));
    first && last.is_some_and(|n| n.kind() == "new")
}

/// The first named child of `parent` before `node` that `wanted` accepts.
fn earlier_sibling<'t>(
    parent: Node<'t>,
    node: Node<'t>,
    wanted: impl Fn(Node<'t>) -> bool,
) -> Option<Node<'t>> {
    let mut c = parent.walk();
    let found = parent
        .named_children(&mut c)
        .take_while(|n| n.id() != node.id())
        .find(|n| wanted(*n));
    found
}

/// Whether the parameter list `parameters` is a record's components
/// (`(String name, int price)` of `record Item(String name, int price)`).
fn record_components(grammar: &Grammar, parameters: Option<Node<'_>>) -> bool {
    parameters.is_some_and(|p| {
        grammar.kind(p) == K::FormalParameters
            && p.parent()
                .is_some_and(|r| grammar.kind(r) == K::RecordDeclaration)
    })
}

/// Java's locals: parameters, variables, a `try`'s resources, the names
/// patterns bind (`o instanceof String s`, from the pattern on), and the
/// fields of a class declared in a method (an anonymous class's own `x`
/// hides the method's `x` in its body).
fn java_local(
    grammar: &Grammar,
    node: Step<'_>,
    parent: Option<Step<'_>>,
    grandparent: Option<Step<'_>>,
) -> Option<Binds> {
    if node.kind != K::Identifier {
        return None;
    }
    let parent = parent?;
    let bound = match parent.kind {
        // (a record's component is no local: a member of the record)
        K::FormalParameter => {
            node.field == F::Name && !record_components(grammar, grandparent.map(|g| g.node))
        }
        K::EnhancedForStatement | K::CatchFormalParameter => node.field == F::Name,
        K::InstanceofExpression | K::Resource => node.field == F::Name,
        K::TypePattern | K::RecordPatternComponent => true,
        K::VariableDeclarator => {
            node.field == F::Name
                && (grandparent.is_some_and(|g| {
                    g.kind == K::SpreadParameter && !record_components(grammar, g.node.parent())
                }) || holds(
                    grandparent,
                    K::LocalVariableDeclaration,
                    F::Declarator,
                    parent,
                ) || (holds(grandparent, K::FieldDeclaration, F::Declarator, parent)
                    && grammar.kind(node.function) != K::Program))
        }
        K::LambdaExpression => node.field == F::Parameters,
        K::InferredParameters => true,
        _ => false,
    };
    bound.then_some(Binds::Here)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind or a field the rules name but no grammar has would never
    /// match: each is some index language's, and each language's scopes
    /// and typed kinds are its grammar's.
    #[test]
    fn the_rules_name_kinds_and_fields_of_their_grammars() {
        let languages: Vec<&'static dyn Language> = crate::language::registry()
            .iter()
            .copied()
            .filter(|l| family_of(*l).is_some())
            .collect();
        let has_kind = |l: &dyn Language, name: &str| l.grammar().id_for_node_kind(name, true) != 0;
        let has_field =
            |l: &dyn Language, name: &str| l.grammar().field_id_for_name(name).is_some();
        for (_, name) in KIND_NAMES {
            assert!(
                languages.iter().any(|l| has_kind(*l, name)),
                "no grammar has the kind {name}"
            );
        }
        for (_, name) in FIELD_NAMES {
            assert!(
                languages.iter().any(|l| has_field(*l, name)),
                "no grammar has the field {name}"
            );
        }
        for language in &languages {
            let grammar = grammar_of(*language).expect("a grammar table");
            for kind in scope_kinds(grammar.rules) {
                assert!(
                    has_kind(*language, kind),
                    "{} has no kind {kind}",
                    language.id()
                );
            }
            // a family's typed kinds: some language's of the family
            let family = super::super::family::family_id(*language);
            let typed = family_of(*language).unwrap().typed_kinds();
            for kind in typed
                .nodes
                .iter()
                .chain(typed.functions)
                .chain(typed.classes)
            {
                assert!(
                    languages
                        .iter()
                        .filter(|l| super::super::family::family_id(**l) == family)
                        .any(|l| has_kind(*l, kind)),
                    "no language of {family:?} has the kind {kind}"
                );
            }
        }
    }
}
