//! What a brace language forbids of an inserted definition that its
//! grammar accepts: a second definition of a name in one scope (Go, Rust,
//! TypeScript; Java's overloads are legitimate), a Go method without a
//! receiver, a Rust `impl` method without a body, and Java's rules on
//! bodies and modifiers in classes and interfaces. The compiler refuses
//! each; so does `Insert`, naming the rule, before anything is written.

use ropey::Rope;
use tree_sitter::Node;

use super::Language;
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::analysis::target::InsertKind;
use crate::analysis::SyntaxTree;

/// Why inserting `code` as `after`'s element at char `element` would
/// leave code its compiler refuses; `None`: nothing known against it.
/// A duplicate its language allows (Java overloads, JavaScript's later
/// definition winning) comes back as a note instead: `Ok(Some(note))`.
pub fn check(
    language: &'static dyn Language,
    after: &Rope,
    element: usize,
    end: usize,
    kind: InsertKind,
) -> Result<Option<String>, String> {
    let Some(sites) = language.symbol_sites() else {
        return Ok(None);
    };
    let Ok(tree) = SyntaxTree::parse_language(language, after) else {
        return Ok(None);
    };
    let outline = sites(after, &tree);
    let Some(new) = outline
        .symbols
        .iter()
        .find(|s| s.kind != SymbolKind::Local && (element..end).contains(&s.definition.start))
    else {
        return Ok(None);
    };
    let id = language.id();
    if id == "go" {
        refuse_go_kind(new, kind)?;
    }
    let head: String = after
        .slice(new.definition.start..new.definition.start.max(name_offset(after, new)))
        .to_string();
    let node = tree
        .root()
        .descendant_for_byte_range(
            after.char_to_byte(new.definition.start),
            after.char_to_byte(new.definition.start),
        )
        .unwrap_or(tree.root());
    match id {
        "rust" => refuse_rust_bodies(new, node)?,
        "java" => refuse_java_bodies(new, node, &head)?,
        _ => {}
    }
    if new.parent.is_none() {
        refuse_imported_name(language, after, new)?;
    }
    let same: Vec<&Symbol> = outline
        .symbols
        .iter()
        .filter(|s| !std::ptr::eq(*s, new) && s.kind != SymbolKind::Local)
        .filter(|s| s.qualified_name == new.qualified_name && s.via_trait == new.via_trait)
        .filter(|s| {
            s.parent.map(|p| &outline.symbols[p].qualified_name)
                == new.parent.map(|p| &outline.symbols[p].qualified_name)
        })
        .collect();
    let clashing: Vec<&Symbol> = same
        .iter()
        .copied()
        .filter(|s| match id {
            // a field and a method of one name are one selector
            "go" => true,
            // a field and a method may share a name; two fns may not
            "rust" => callable(s) == callable(new),
            // an overload signature (no body) is no second definition
            "typescript" | "tsx" => s.body.is_some() && new.body.is_some(),
            // an overload is another list of parameter types; two fields
            // or two classes of a name are no overloads
            "java" => match (callable(s), callable(new)) {
                (true, true) => java_param_types(s) == java_param_types(new),
                (false, false) => true,
                _ => false,
            },
            _ => false,
        })
        .collect();
    let listed = |symbols: &[&Symbol]| {
        symbols
            .iter()
            .map(|s| format!("{} {} at {}", s.kind.noun(), s.qualified_name, s.position))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !clashing.is_empty() {
        let rule = match id {
            "java" if callable(new) => {
                "Java allows one method of a name and parameter types (erased) in a class".to_string()
            }
            "java" => "Java allows one field of a name in a class, and one class of a name in a scope".to_string(),
            "go" => "Go allows one definition of a name in a package, and one field or method of a name in a type".to_string(),
            _ => format!("{} allows one definition of a name in a scope", language.name()),
        };
        return Err(format!(
            "'{}' is already defined ({}): {rule}; rename the new one, or edit the existing one (Show {} {})",
            new.name,
            listed(&clashing),
            target_word(clashing[0]),
            clashing[0].qualified_name,
        ));
    }
    let notable: Vec<&Symbol> = same
        .into_iter()
        .filter(|s| callable(s) == callable(new))
        .collect();
    Ok((!notable.is_empty()).then(|| match id {
        "java" => format!(
            "'{}' is also defined ({}): an overload",
            new.name,
            listed(&notable)
        ),
        _ => format!(
            "'{}' is already defined ({}); the later definition wins",
            new.name,
            listed(&notable)
        ),
    }))
}

/// Refuses a module-level definition of a name the file's imports bind
/// (Rust's `use crate::helper;` and `fn helper`, E0255; an ES import and
/// a `function` of its name; a Go package and a function of its name;
/// Java's `import a.P;` and a class `P`).
fn refuse_imported_name(
    language: &'static dyn Language,
    after: &Rope,
    new: &Symbol,
) -> Result<(), String> {
    use crate::analysis::index::tags::scan::{self, ImportKind};
    let file = scan::scan(language, &after.to_string());
    // (a `use` in a block or a `mod` block binds there only)
    let in_part = |i: usize| {
        file.block_imports.iter().any(|(j, _)| *j == i)
            || file.scoped_imports.iter().any(|(j, _)| *j == i)
    };
    let imported = file.imports.iter().enumerate().find(|(i, import)| {
        import.local == new.name
            && matches!(import.kind, ImportKind::Static | ImportKind::Require)
            && !in_part(*i)
    });
    match imported {
        Some((_, import)) => Err(format!(
            "the file imports '{}' (from {}): a definition of the name beside the import is refused by {}; rename the new one, or remove the import first",
            new.name,
            import.source,
            language.name()
        )),
        None => Ok(()),
    }
}

/// A Java method's parameter types, as written (`Map<K,V>`, `int[]`,
/// `String...`), without their names and modifiers.
fn java_param_types(s: &Symbol) -> Vec<String> {
    let params = s.params.as_deref().unwrap_or("");
    let mut types = Vec::new();
    let (mut depth, mut part) = (0, String::new());
    for c in params.chars().chain([',']) {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                let words: Vec<&str> = part
                    .split_whitespace()
                    .filter(|w| *w != "final" && !w.starts_with('@'))
                    .collect();
                if let Some((_, ty)) = words.split_last() {
                    types.push(erased(&ty.concat()));
                }
                part.clear();
            }
            // (a type's arguments are erased)
            _ if depth == 0 => part.push(c),
            _ => {}
        }
    }
    types
}

/// A parameter type as the JVM tells overloads apart: its arguments
/// already gone, `T...` as `T[]`, `java.util.List` as `List`.
fn erased(written: &str) -> String {
    let array = written.replace("...", "[]");
    let (base, dims) = match array.find('[') {
        Some(i) => array.split_at(i),
        None => (array.as_str(), ""),
    };
    let simple = base.rsplit('.').next().unwrap_or(base);
    format!("{simple}{dims}")
}

fn callable(s: &Symbol) -> bool {
    matches!(s.kind, SymbolKind::Function | SymbolKind::Method)
}

fn target_word(s: &Symbol) -> &'static str {
    match s.kind {
        SymbolKind::Function => "Function",
        SymbolKind::Method => "Method",
        SymbolKind::Class => "Class",
        _ => "Variable",
    }
}

fn name_offset(text: &Rope, s: &Symbol) -> usize {
    crate::edit::position::to_char(text, s.name_position).unwrap_or(s.definition.start)
}

/// Go: `Insert Method` takes a method (`func (s *S) m()`), `Insert
/// Function` a function: the other is written elsewhere and means
/// something else.
fn refuse_go_kind(new: &Symbol, kind: InsertKind) -> Result<(), String> {
    match (kind, new.kind) {
        (InsertKind::Method, SymbolKind::Function) => Err(format!(
            "{} has no receiver: a Go method is written `func (s *T) {}(…)`; or insert it with Insert Function",
            new.name, new.name
        )),
        (InsertKind::Function, SymbolKind::Method) => Err(format!(
            "{} has a receiver: insert it with Insert Method",
            new.qualified_name
        )),
        _ => Ok(()),
    }
}

/// The nearest ancestor of `node` of one of `kinds`.
fn ancestor<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut at = node.parent();
    while let Some(n) = at {
        if kinds.contains(&n.kind()) {
            return Some(n);
        }
        at = n.parent();
    }
    None
}

/// Rust: a function in an `impl` block has a body (a trait's may not).
fn refuse_rust_bodies(new: &Symbol, node: Node<'_>) -> Result<(), String> {
    let owner = ancestor(node, &["impl_item", "trait_item"]);
    if callable(new) && new.body.is_none() && owner.is_some_and(|o| o.kind() == "impl_item") {
        return Err(format!(
            "{} has no body: a function in an impl block needs one ({{ … }}); a body-less one belongs in a trait",
            new.name
        ));
    }
    Ok(())
}

/// Java: a class's method has a body unless `abstract` (in an abstract
/// class) or `native`, and is never `default`; an interface's has one
/// exactly when it is `default`, `static` or `private`.
fn refuse_java_bodies(new: &Symbol, node: Node<'_>, head: &str) -> Result<(), String> {
    if new.kind != SymbolKind::Method {
        return Ok(());
    }
    let has = |word: &str| {
        head.split(|c: char| !c.is_alphanumeric())
            .any(|w| w == word)
    };
    let Some(owner) = ancestor(
        node,
        &[
            "class_declaration",
            "interface_declaration",
            "enum_declaration",
            "record_declaration",
            "annotation_type_declaration",
            "object_creation_expression",
        ],
    ) else {
        return Ok(());
    };
    let body = new.body.is_some();
    let name = &new.name;
    if matches!(
        owner.kind(),
        "interface_declaration" | "annotation_type_declaration"
    ) {
        let with_body = has("default") || has("static") || has("private");
        return match (body, with_body) {
            (true, false) => Err(format!(
                "{name} has a body in an interface: make it `default` (or `static`, `private`), or leave only its signature (`…;`)"
            )),
            (false, true) => Err(format!(
                "{name} is `default`, `static` or `private` in an interface: it needs a body ({{ … }})"
            )),
            _ => Ok(()),
        };
    }
    if has("default") {
        return Err(format!(
            "{name} is `default`: only an interface's methods are; remove the modifier"
        ));
    }
    if !body && !has("abstract") && !has("native") {
        return Err(format!(
            "{name} has no body: a class's method needs one ({{ … }}), unless `abstract`"
        ));
    }
    let abstract_class = owner.kind() == "class_declaration"
        && owner
            .child(0)
            .filter(|m| m.kind() == "modifiers")
            .is_some_and(|m| {
                let mut c = m.walk();
                let found = m.children(&mut c).any(|k| k.kind() == "abstract");
                found
            });
    if has("abstract") && !abstract_class {
        return Err(format!(
            "{name} is `abstract` in a class that is not: make the class abstract first, or give the method a body"
        ));
    }
    Ok(())
}
