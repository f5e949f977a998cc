//! The symbol sites the walk finds ([`super::walk`]): at each name, whether
//! it names an element the language's outline query would find
//! (`queries/<language>/outline.scm`) and of what kind — one rule per
//! pattern, the first pattern's kind where two would find one element.
//! The language then makes the index's definitions of them
//! ([`crate::language::Language::site_definitions`]): their nesting,
//! owners, qualified names and ranges, as its outline makes its symbols.

use super::walk::{Grammar, Rules, Step, F, K};
use crate::analysis::syntax::TextAt;

/// The kind of the element whose name `node` is (its parent, the last of
/// `path`), as its outline query's capture says it (`function`, `struct`,
/// …); `None`: no element's name.
pub(super) fn site_kind(
    grammar: &Grammar,
    path: &[Step<'_>],
    node: Step<'_>,
    text: &dyn TextAt,
) -> Option<&'static str> {
    let up = |n: usize| path.len().checked_sub(n).map(|i| path[i]);
    let element = up(1)?;
    match grammar.rules {
        Rules::Es { .. } if element.kind == K::MemberExpression => {
            commonjs_key_site(grammar, node, element, up(2), up(3), up(4), text)
        }
        Rules::Es { .. }
            if matches!(element.kind, K::Pair | K::MethodDefinition) && is(up(2), K::Object) =>
        {
            commonjs_object_site(grammar, path, node, text)
        }
        Rules::Es { .. } => es_site(grammar, node, element, up(2), up(3), up(4), text),
        Rules::Go => go_site(grammar, node, element, up(2), up(3), up(4)),
        Rules::Rust => rust_site(grammar, node, element, up(2), up(3)),
        Rules::Java => java_site(node, element, up(2), up(3), up(4)),
    }
}

/// Whether a step is of `kind`.
fn is(step: Option<Step<'_>>, kind: K) -> bool {
    step.is_some_and(|s| s.kind == kind)
}

/// The kind of the node in an element's field `field`.
fn child_kind(grammar: &Grammar, element: Step<'_>, field: F) -> Option<K> {
    grammar.child(element.node, field).map(|c| grammar.kind(c))
}

/// A function value (`() => …`, `function () {…}`), which makes a name
/// bound to it a function.
fn is_function_value(kind: Option<K>) -> bool {
    matches!(
        kind,
        Some(K::ArrowFunction | K::FunctionExpression | K::GeneratorFunction)
    )
}

/// The kind of element a name bound to a value of kind `value` names: a
/// function value's, a class's; `None`: another value.
fn value_site(value: Option<K>) -> Option<&'static str> {
    match value {
        value if is_function_value(value) => Some("function"),
        Some(K::Class) => Some("class"),
        _ => None,
    }
}

fn es_site(
    grammar: &Grammar,
    node: Step<'_>,
    element: Step<'_>,
    around: Option<Step<'_>>,
    statement: Option<Step<'_>>,
    outer: Option<Step<'_>>,
    text: &dyn TextAt,
) -> Option<&'static str> {
    let identifier = node.kind == K::Identifier;
    let type_name = node.kind == K::TypeIdentifier;
    let property = matches!(
        node.kind,
        K::PropertyIdentifier | K::PrivatePropertyIdentifier
    );
    let named = node.field == F::Name;
    match element.kind {
        K::FunctionDeclaration | K::GeneratorFunctionDeclaration | K::FunctionSignature
            if named && identifier =>
        {
            Some("function")
        }
        K::VariableDeclarator if named => {
            let value = child_kind(grammar, element, F::Value);
            if let Some(kind) = value_site(value).filter(|_| identifier) {
                return Some(kind);
            }
            // a function a wrapper returns (`memo((props) => …)`)
            if identifier && value == Some(K::CallExpression) {
                let call = grammar.child(element.node, F::Value)?;
                if crate::language::javascript::wrapped_function(text, call).is_some() {
                    return Some("function");
                }
            }
            // a module-level binding (each name of a pattern its own)
            let declaration = around
                .filter(|a| matches!(a.kind, K::LexicalDeclaration | K::VariableDeclaration))?;
            let module_level = is(statement, K::Program)
                || (is(statement, K::ExportStatement)
                    && declaration.field == F::Declaration
                    && is(outer, K::Program));
            // a TypeScript namespace's (`namespace N { export const x = 1 }`)
            let in_namespace = (is(statement, K::StatementBlock) && is(outer, K::InternalModule))
                || (is(statement, K::ExportStatement)
                    && declaration.field == F::Declaration
                    && is(outer, K::StatementBlock)
                    && outer
                        .and_then(|o| o.node.parent())
                        .is_some_and(|n| grammar.kind(n) == K::InternalModule));
            (module_level || in_namespace).then_some("variable")
        }
        // (a JavaScript class is named by an identifier, TypeScript's by
        // a type identifier)
        K::ClassDeclaration if named && (identifier || type_name) => Some("class"),
        K::AbstractClassDeclaration if named && type_name => Some("class"),
        K::InterfaceDeclaration if named && type_name => Some("interface"),
        K::TypeAliasDeclaration if named && type_name => Some("type"),
        K::EnumDeclaration if named && identifier => Some("enum"),
        // a TypeScript enum's members (`Red`, `Green = "g"`)
        K::EnumBody if property => Some("field"),
        K::EnumAssignment if named && property && is(around, K::EnumBody) => Some("field"),
        K::InternalModule if named && identifier => Some("namespace"),
        K::MethodDefinition | K::MethodSignature | K::AbstractMethodSignature
            if named && property && is(around, K::ClassBody) =>
        {
            Some("method")
        }
        K::FieldDefinition | K::PublicFieldDefinition
            if property
                && is(around, K::ClassBody)
                && node.field
                    == match element.kind {
                        K::FieldDefinition => F::Property,
                        _ => F::Name,
                    } =>
        {
            match is_function_value(child_kind(grammar, element, F::Value)) {
                true => Some("method"),
                false => Some("field"),
            }
        }
        // a parameter property (`constructor(private x: T)`, TypeScript
        // allows the modifiers on a constructor's parameters alone): a
        // field of the class
        K::RequiredParameter | K::OptionalParameter
            if identifier
                && node.field == F::Pattern
                && is(around, K::FormalParameters)
                && is(statement, K::MethodDefinition)
                && is(outer, K::ClassBody)
                && is_parameter_property(element) =>
        {
            Some("field")
        }
        K::MethodSignature
            if named && node.kind == K::PropertyIdentifier && is(around, K::InterfaceBody) =>
        {
            Some("method")
        }
        K::PropertySignature
            if named && node.kind == K::PropertyIdentifier && is(around, K::InterfaceBody) =>
        {
            Some("property")
        }
        _ => None,
    }
}

/// CommonJS: a function or a class written in place as a key of the
/// module's exports by a statement of the module (`exports.f = function
/// () {}`, `module.exports.C = class {}`): the key names it, the
/// assignment is the element. (A key whose value is another name, `exports.f
/// = f`, is that name's; any other value defines nothing.) A function
/// written so on another name or its prototype is a method of that name
/// ([`member_owner`]).
fn commonjs_key_site(
    grammar: &Grammar,
    node: Step<'_>,
    member: Step<'_>,
    assignment: Option<Step<'_>>,
    statement: Option<Step<'_>>,
    program: Option<Step<'_>>,
    text: &dyn TextAt,
) -> Option<&'static str> {
    let in_place = node.kind == K::PropertyIdentifier
        && node.field == F::Property
        && member.field == F::Left
        && is(assignment, K::AssignmentExpression)
        && is(statement, K::ExpressionStatement)
        && is(program, K::Program);
    if !in_place {
        return None;
    }
    let kind = value_site(child_kind(grammar, assignment?, F::Right))?;
    let object = grammar.child(member.node, F::Object)?;
    let written = text.text_of(object.byte_range());
    match written.as_str() {
        "exports" | "module.exports" => Some(kind),
        _ if kind == "function" && member_owner(grammar, object, text) => Some("method"),
        _ => None,
    }
}

/// Whether the object of a module-level `owner.m = function () {}` names
/// the element's owner: a name (`Route.create`, express's `app.init`) or
/// its prototype (`Route.prototype.dispatch`) — a method of the
/// constructor or of the object, the pre-class way. (Not the module's
/// `module` nor its `exports`: those are its exports' keys.)
fn member_owner(grammar: &Grammar, object: tree_sitter::Node<'_>, text: &dyn TextAt) -> bool {
    let owner = match grammar.kind(object) {
        K::Identifier => object,
        K::MemberExpression => {
            let property = grammar.child(object, F::Property);
            let is_prototype =
                property.is_some_and(|p| text.text_of(p.byte_range()) == "prototype");
            match grammar.child(object, F::Object) {
                Some(owner) if is_prototype && grammar.kind(owner) == K::Identifier => owner,
                _ => return false,
            }
        }
        _ => return false,
    };
    !matches!(
        text.text_of(owner.byte_range()).as_str(),
        "module" | "exports"
    )
}

/// CommonJS: a function or a class written in place as a key of the
/// object a module-level statement `module.exports = { … }` assigns
/// (`parse(s) {}`, `format: function (o) {}`, `helper: (x) => x`): the
/// key names it, the method or the pair is the element. (A key whose
/// value is another name, `{ add }`, `{ create: makeRepo }`, is that
/// name's.) A function so written in the object a module-level
/// `Owner.prototype = { … }` assigns is a method of the owner.
fn commonjs_object_site(
    grammar: &Grammar,
    path: &[Step<'_>],
    node: Step<'_>,
    text: &dyn TextAt,
) -> Option<&'static str> {
    let up = |n: usize| path.len().checked_sub(n).map(|i| path[i]);
    let (element, object, assignment) = (up(1)?, up(2)?, up(3)?);
    let in_place = node.kind == K::PropertyIdentifier
        && is(Some(assignment), K::AssignmentExpression)
        && is(up(4), K::ExpressionStatement)
        && is(up(5), K::Program)
        && grammar
            .child(assignment.node, F::Right)
            .is_some_and(|right| right.id() == object.node.id());
    if !in_place {
        return None;
    }
    let kind = match element.kind {
        K::MethodDefinition if node.field == F::Name => "function",
        K::Pair if node.field == F::Key => value_site(child_kind(grammar, element, F::Value))?,
        _ => return None,
    };
    let left = grammar.child(assignment.node, F::Left)?;
    if text.text_of(left.byte_range()) == "module.exports" {
        return Some(kind);
    }
    // `Route.prototype = { dispatch() {} }`: the prototype's methods
    let prototype = grammar.kind(left) == K::MemberExpression && member_owner(grammar, left, text);
    (kind == "function" && prototype).then_some("method")
}

/// Whether a TypeScript parameter declares a member: it has an
/// accessibility modifier, `override` or `readonly`.
fn is_parameter_property(parameter: Step<'_>) -> bool {
    let mut cursor = parameter.node.walk();
    let found = parameter.node.children(&mut cursor).any(|c| {
        matches!(
            c.kind(),
            "accessibility_modifier" | "override_modifier" | "readonly"
        )
    });
    found
}

fn go_site(
    grammar: &Grammar,
    node: Step<'_>,
    element: Step<'_>,
    around: Option<Step<'_>>,
    statement: Option<Step<'_>>,
    outer: Option<Step<'_>>,
) -> Option<&'static str> {
    if node.field != F::Name {
        return None;
    }
    let identifier = node.kind == K::Identifier;
    let field = node.kind == K::FieldIdentifier;
    match element.kind {
        K::FunctionDeclaration if identifier => Some("function"),
        K::MethodDeclaration if field => Some("method"),
        K::TypeSpec if node.kind == K::TypeIdentifier => {
            match child_kind(grammar, element, F::Type) {
                Some(K::StructType) => Some("struct"),
                Some(K::InterfaceType) => Some("interface"),
                _ => Some("type"),
            }
        }
        K::TypeAlias if node.kind == K::TypeIdentifier => Some("type"),
        K::FieldDeclaration if field && is(around, K::FieldDeclarationList) => Some("field"),
        K::MethodElem if field && is(around, K::InterfaceType) => Some("method"),
        // package-level variables and constants
        K::VarSpec
            if identifier
                && ((is(around, K::VarDeclaration) && is(statement, K::SourceFile))
                    || (is(around, K::VarSpecList)
                        && is(statement, K::VarDeclaration)
                        && is(outer, K::SourceFile))) =>
        {
            Some("variable")
        }
        K::ConstSpec
            if identifier && is(around, K::ConstDeclaration) && is(statement, K::SourceFile) =>
        {
            Some("constant")
        }
        _ => None,
    }
}

fn rust_site(
    grammar: &Grammar,
    node: Step<'_>,
    element: Step<'_>,
    around: Option<Step<'_>>,
    owner: Option<Step<'_>>,
) -> Option<&'static str> {
    if node.field != F::Name {
        return None;
    }
    let identifier = node.kind == K::Identifier;
    let type_name = node.kind == K::TypeIdentifier;
    // in the body of an item of `kind` (an impl, a trait, a module)
    let in_body_of = |kind: K| {
        around.is_some_and(|a| a.kind == K::DeclarationList && a.field == F::Body)
            && is(owner, kind)
    };
    // at a module's level: the file's, or a `mod m { … }` block's
    let module_level = is(around, K::SourceFile) || in_body_of(K::ModItem);
    match element.kind {
        K::FunctionItem if identifier && in_body_of(K::ImplItem) => Some("method"),
        K::FunctionItem | K::FunctionSignatureItem if identifier && in_body_of(K::TraitItem) => {
            Some("method")
        }
        K::FunctionItem | K::FunctionSignatureItem if identifier => Some("function"),
        K::StructItem if type_name => Some("struct"),
        K::EnumItem if type_name => Some("enum"),
        K::UnionItem if type_name => Some("union"),
        K::TraitItem if type_name => Some("trait"),
        K::ModItem
            if identifier && child_kind(grammar, element, F::Body) == Some(K::DeclarationList) =>
        {
            Some("module")
        }
        K::TypeItem if type_name && module_level => Some("type"),
        K::FieldDeclaration
            if node.kind == K::FieldIdentifier && is(around, K::FieldDeclarationList) =>
        {
            Some("field")
        }
        K::EnumVariant if identifier && is(around, K::EnumVariantList) => Some("variant"),
        K::ConstItem if identifier && module_level => Some("constant"),
        K::StaticItem if identifier && module_level => Some("static"),
        _ => None,
    }
}

fn java_site(
    node: Step<'_>,
    element: Step<'_>,
    around: Option<Step<'_>>,
    outer: Option<Step<'_>>,
    outermost: Option<Step<'_>>,
) -> Option<&'static str> {
    if node.field != F::Name || node.kind != K::Identifier {
        return None;
    }
    match element.kind {
        K::ClassDeclaration => Some("class"),
        K::InterfaceDeclaration => Some("interface"),
        K::EnumDeclaration => Some("enum"),
        K::RecordDeclaration => Some("record"),
        K::AnnotationTypeDeclaration => Some("annotation"),
        K::MethodDeclaration | K::AnnotationTypeElementDeclaration => Some("method"),
        K::ConstructorDeclaration | K::CompactConstructorDeclaration => Some("constructor"),
        K::EnumConstant => Some("constant"),
        // a field's declarator (each its own), an interface's constant
        K::VariableDeclarator
            if element.field == F::Declarator
                && around.is_some_and(|a| {
                    matches!(a.kind, K::FieldDeclaration | K::ConstantDeclaration)
                }) =>
        {
            Some("field")
        }
        // a record's component (`int price` of `record Item(int price)`):
        // its field, its accessor and its canonical constructor's
        // parameter, one member of the record
        K::FormalParameter
            if is(around, K::FormalParameters) && is(outer, K::RecordDeclaration) =>
        {
            Some("field")
        }
        // a varargs component (`String... tags`): its declarator's name
        K::VariableDeclarator
            if is(around, K::SpreadParameter)
                && is(outer, K::FormalParameters)
                && is(outermost, K::RecordDeclaration) =>
        {
            Some("field")
        }
        _ => None,
    }
}
