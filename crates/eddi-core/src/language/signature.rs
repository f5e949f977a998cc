//! `Modify … AddParam | RemoveParam | ChangeSignature | AddDecorator |
//! SetVisibility` in the brace languages (JavaScript, TypeScript, Go,
//! Rust, Java): one element of one file, as edits.
//!
//! Parameters are the items of the function's parameter list as written
//! (Rust's `self` and a Go group `a, b int` each count as one item;
//! `At <i>` counts them from 0). A new parameter without `At` goes last,
//! before a variadic or rest parameter (which must stay last). Removing
//! a parameter the body reads is refused, naming where: the code would no
//! longer compile. The calls are not changed (the engine names them).
//! `AddDecorator` writes a Java or TypeScript annotation (`@X`) or a Rust
//! attribute (`#[x]`) on its own line above the element, after its doc
//! comment; Go and JavaScript have none. `SetVisibility` writes the
//! language's modifier (Java's and TypeScript members' `public`,
//! `protected`, `private`; Rust's `pub`, or none for private); Go's is
//! the name's case, a rename across the project, which it names.

use ropey::Rope;
use tree_sitter::Node;

use super::Language;
use crate::analysis::index::tags::scan::{scan, Qualifier};
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::analysis::syntax::{byte_to_char, node_text, SyntaxTree};
use crate::analysis::target::{Modification, Visibility};
use crate::analysis::textedit::EditResult;
use crate::change::Indel;
use crate::edit::position::from_char;
use crate::failure::{ErrorKind, OpError};

/// The edits of `change` to `symbol` of the file `text` (parsed as `tree`);
/// `Rename` is [`super::rename`]'s.
pub fn modify(
    language: &'static dyn Language,
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    change: &Modification,
) -> Result<EditResult, OpError> {
    let edits = match change {
        Modification::Rename { .. } => {
            return Err(OpError::new(
                ErrorKind::Internal,
                "Internal: a brace language's rename is language::rename's",
            ))
        }
        Modification::AddParam { param, at } => {
            let list = Parameters::of(text, tree, symbol)?;
            let name = refuse_added_param(language, text, &list, symbol, param)?;
            if let Some(name) = name {
                refuse_taken_in_body(language, text, symbol, &name)?;
            }
            list.add(text, param, *at)?
        }
        Modification::RemoveParam { name } => {
            let list = Parameters::of(text, tree, symbol)?;
            list.remove(language, text, symbol, name)?
        }
        Modification::ChangeSignature { params } => {
            let list = Parameters::of(text, tree, symbol)?;
            let trimmed = params.trim();
            let inner = trimmed
                .strip_prefix('(')
                .and_then(|s| s.strip_suffix(')'))
                .unwrap_or(trimmed);
            let open = byte_to_char(text, list.node.start_byte()) + 1;
            let close = byte_to_char(text, list.node.end_byte()) - 1;
            if text.slice(open..close) == inner {
                return Err(no_change(format!(
                    "{} already takes ({inner})",
                    symbol.qualified_name
                )));
            }
            refuse_rest_not_last(inner)?;
            // a parameter the new list no longer names must not be read
            let kept: Vec<&str> = inner
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .collect();
            let mut had = Vec::new();
            for item in &list.items {
                for declared in names_of(*item) {
                    let name = parameter_name(text, declared);
                    if !kept.contains(&name.as_str()) {
                        refuse_read(language, text, symbol, &name, declared)?;
                    }
                    had.push(name);
                }
            }
            // a name the new list declares that the old did not must not
            // be one the body reads or declares
            for item in top_level_items(inner) {
                if let Some(name) = declared_name(language, item) {
                    if !had.contains(&name) {
                        refuse_taken_in_body(language, text, symbol, &name)?;
                    }
                }
            }
            vec![Indel::new(open..close, inner.to_string())]
        }
        Modification::AddDecorator { decorator } => {
            add_decorator(language, text, tree, symbol, decorator.trim())?
        }
        Modification::SetVisibility { visibility } => {
            set_visibility(language, text, tree, symbol, *visibility)?
        }
    };
    // Java: a method's new parameter types may be an overload's
    let resigned = matches!(
        change,
        Modification::AddParam { .. }
            | Modification::RemoveParam { .. }
            | Modification::ChangeSignature { .. }
    );
    if resigned && language.id() == "java" {
        let after = crate::analysis::textedit::apply(text, &edits)
            .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
        let start = symbol.definition.start;
        super::insert_rules::check(
            language,
            &after,
            start,
            start + 1,
            crate::analysis::target::InsertKind::Method,
        )
        .map_err(|why| refused(format!("the new signature clashes: {why}")))?;
    }
    // a line added above the element moves it down
    let mut at = symbol.position;
    if matches!(change, Modification::AddDecorator { .. }) {
        at.line += 1;
    }
    Ok(EditResult {
        edits,
        cursor: at,
        element: Some(at),
        note: None,
    })
}

/// Refuses an added parameter the compiler would: one named like a
/// parameter the function has; in Go, one without a type beside named
/// ones, or a named one beside unnamed ones (`mixed named and unnamed
/// parameters`: `func f(int, string)` given `x int` would read as three
/// `int`s named `int`, `string` and `x`). The name it declares, if any.
fn refuse_added_param(
    language: &dyn Language,
    text: &Rope,
    list: &Parameters<'_>,
    symbol: &Symbol,
    param: &str,
) -> Result<Option<String>, OpError> {
    let words: Vec<&str> = param
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .collect();
    let name = declared_name(language, param);
    if language.id() == "go" && words.len() == 1 && !symbol.param_names.is_empty() {
        return Err(refused(format!(
            "{param} has no type, and {}'s parameters are named: Go refuses mixed named and unnamed parameters; write it as the others are (`{param} int`)",
            symbol.qualified_name
        )));
    }
    let unnamed = |item: &Node<'_>| item.child_by_field_name("name").is_none();
    if language.id() == "go" && words.len() > 1 && list.items.iter().any(unnamed) {
        let written: Vec<String> = list.items.iter().map(|n| node_text(text, *n)).collect();
        return Err(refused(format!(
            "{}'s parameters have no names ({}): Go refuses mixed named and unnamed parameters, and would read them as names of one type; add the type alone (AddParam \"{}\"), or name them first (Modify … ChangeSignature)",
            symbol.qualified_name,
            written.join(", "),
            words.last().unwrap_or(&param),
        )));
    }
    match name {
        Some(name) if symbol.param_names.contains(&name) => Err(refused(format!(
            "{} already has a parameter {name}: choose another name",
            symbol.qualified_name
        ))),
        name => Ok(name),
    }
}

/// The name a parameter as written declares (`n int`, `int n`, `mut n:
/// u8`, `...n`, `n?: T`, `n = 1`); `None` for a Go type alone.
fn declared_name(language: &dyn Language, param: &str) -> Option<String> {
    let words: Vec<&str> = param
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .collect();
    let head = param.split(['=', ':']).next().unwrap_or(param);
    let head_words: Vec<&str> = head
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty() && *w != "mut" && *w != "final")
        .collect();
    let name = match language.id() {
        // `n int`, `n, m int`; a type alone declares none
        "go" => words.first().filter(|_| words.len() > 1).copied(),
        // `int n`, `List<T> n`: the last word of the declarator
        "java" => head_words.last().copied(),
        // `n: T`, `n = 1`, `mut n: u8`, `...n`, `n?: T`
        _ => head_words.last().copied(),
    };
    name.filter(|n| *n != "self" && *n != "this")
        .map(str::to_string)
}

/// Refuses a new parameter named like a name the body reads bare (a
/// package-level variable, an import, a builtin, a type: the parameter
/// would shadow it) or declares (a local, a Go named result: redeclared).
fn refuse_taken_in_body(
    language: &'static dyn Language,
    text: &Rope,
    symbol: &Symbol,
    name: &str,
) -> Result<(), OpError> {
    let source = text.to_string();
    let file = scan(language, &source);
    let within = symbol.definition.clone();
    let declared = file
        .locals
        .iter()
        .find(|l| l.name == name && within.contains(&l.offset));
    if let Some(local) = declared {
        return Err(refused(format!(
            "{} already declares {name} (at {}): a parameter of that name would clash with it; choose another name",
            symbol.qualified_name, local.start
        )));
    }
    let read = file
        .refs_named(name)
        .iter()
        .find(|r| within.contains(&r.offset) && r.qualifier == Qualifier::None);
    match read {
        Some(r) => Err(refused(format!(
            "{} reads {name} (at {}), which a parameter of that name would then hide; choose another name",
            symbol.qualified_name,
            from_char(text, r.offset)
        ))),
        None => Ok(()),
    }
}

/// Refuses a new parameter list whose rest or variadic parameter is not
/// the last (`...xs`, Go's `xs ...int`, Java's `T... xs`: TS1014, and
/// each compiler's like it).
fn refuse_rest_not_last(list: &str) -> Result<(), OpError> {
    let items = top_level_items(list);
    let early = items.iter().rev().skip(1).find(|item| item.contains("..."));
    match early {
        Some(rest) => Err(refused(format!(
            "{} is a rest or variadic parameter, which must be the last",
            rest.trim()
        ))),
        None => Ok(()),
    }
}

/// A parameter list's items: split at the commas outside brackets
/// (`a: Map<K, V>, b: [x, y]` is two).
fn top_level_items(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let mut previous = ' ';
    for (i, c) in list.char_indices() {
        let arrow = previous == '=' || previous == '-';
        previous = c;
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            // (not the `>` of `=>` or `->`)
            '>' if arrow => {}
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !list[start..].trim().is_empty() {
        items.push(&list[start..]);
    }
    items
}

fn no_change(why: String) -> OpError {
    OpError::new(ErrorKind::NotApplicable, format!("No change: {why}"))
}

fn refused(why: String) -> OpError {
    OpError::new(ErrorKind::NotApplicable, why)
}

/// The node of `symbol`'s definition: the smallest node that starts
/// where the definition starts and spans it.
fn definition_node<'t>(text: &Rope, tree: &'t SyntaxTree, symbol: &Symbol) -> Option<Node<'t>> {
    let start = text.try_char_to_byte(symbol.definition.start).ok()?;
    let end = text.try_char_to_byte(symbol.definition.end).ok()?;
    let mut node = tree.root().descendant_for_byte_range(start, end)?;
    while node.start_byte() > start || node.end_byte() < end {
        node = node.parent()?;
    }
    Some(node)
}

/// A function's parameter list and its items.
struct Parameters<'t> {
    /// The list, parentheses included.
    node: Node<'t>,
    items: Vec<Node<'t>>,
    /// TypeScript's `this: T` before them.
    this: Option<Node<'t>>,
}

impl<'t> Parameters<'t> {
    fn of(text: &Rope, tree: &'t SyntaxTree, symbol: &Symbol) -> Result<Parameters<'t>, OpError> {
        let not_function = || {
            OpError::new(
                ErrorKind::InvalidArgument,
                format!(
                    "{} is not a function or method: only those have parameters",
                    symbol.qualified_name
                ),
            )
        };
        if !matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method) {
            return Err(not_function());
        }
        refuse_supertype_signature(text, symbol)?;
        let def = definition_node(text, tree, symbol).ok_or_else(not_function)?;
        // a function's own list, or that of the function a variable holds
        // (`const f = (a) => …`)
        let function = [def, def.child_by_field_name("value").unwrap_or(def)]
            .into_iter()
            .chain(
                first_named(def, "variable_declarator")
                    .and_then(|d| d.child_by_field_name("value")),
            )
            .find(|n| {
                n.child_by_field_name("parameters").is_some()
                    || n.child_by_field_name("parameter").is_some()
            })
            .ok_or_else(not_function)?;
        let Some(node) = function.child_by_field_name("parameters") else {
            // `x => …`: one parameter without parentheses
            return Err(refused(format!(
                "{} takes its one parameter without parentheses (`x => …`): write them first (Modify … ChangeSignature \"(x)\")",
                symbol.qualified_name
            )));
        };
        let mut cursor = node.walk();
        let items: Vec<Node<'t>> = node
            .named_children(&mut cursor)
            .filter(|n| !n.kind().contains("comment"))
            .collect();
        // TypeScript's `this: T` declares what the function is called on,
        // no argument: it stays first (TS2680), and is no item
        let this = items.first().copied().filter(|n| {
            let written = node_text(text, *n);
            written == "this" || written.starts_with("this:") || written.starts_with("this ")
        });
        let items = items
            .into_iter()
            .skip(usize::from(this.is_some()))
            .collect();
        Ok(Parameters { node, items, this })
    }

    fn add(&self, text: &Rope, param: &str, at: Option<usize>) -> Result<Vec<Indel>, OpError> {
        let param = param.trim();
        if param.is_empty() {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                "AddParam needs the parameter as the language writes it (Modify Function f AddParam \"n int\")",
            ));
        }
        let last_is_rest = self.items.last().is_some_and(|n| {
            let kind = n.kind();
            kind.contains("variadic")
                || kind.contains("rest")
                || kind.contains("spread")
                || node_text(text, *n).contains("...")
        });
        let default_at = self.items.len() - usize::from(last_is_rest);
        // a default or optional one asks nothing of the calls when last:
        // before a rest parameter it takes their first rest argument
        if at.is_none() && last_is_rest && (param.contains('=') || param.contains("?:")) {
            return Err(refused(format!(
                "{param} would go before the rest parameter {}, and take the first of the arguments the calls give it: add it with At {default_at} (the calls are then named)",
                node_text(text, self.items[default_at])
            )));
        }
        let at = at.unwrap_or(default_at);
        if at > self.items.len() {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                format!(
                    "At {at} is past the parameters: there are {}, so At 0 to At {} (none: last)",
                    self.items.len(),
                    self.items.len()
                ),
            ));
        }
        // what the languages require of the order: a rest or variadic
        // parameter last (`...xs`, Go's `xs ...int`, Java's `T... xs`),
        // TypeScript's optional ones after the required ones
        if at < self.items.len() && param.contains("...") {
            return Err(refused(format!(
                "{param} is a rest or variadic parameter, which must be the last: leave out At (or At {})",
                self.items.len()
            )));
        }
        let marked_optional = |p: &str| {
            let name = p.split([':', '=']).next().unwrap_or(p).trim_end();
            name.ends_with('?')
        };
        // (a typed one: TypeScript's; neither a default nor a rest)
        let required = |p: &String| {
            p.contains(':') && !marked_optional(p) && !p.contains('=') && !p.contains("...")
        };
        let required_after = self.items[at..]
            .iter()
            .map(|n| node_text(text, *n))
            .find(required);
        if let Some(required) = required_after.filter(|_| marked_optional(param)) {
            return Err(refused(format!(
                "{param} is optional, and the required parameter {required} would follow it (TypeScript's TS1016): add it after the required ones, or give it no `?`"
            )));
        }
        let edit = match self.items.get(at) {
            Some(next) => {
                Indel::insert(byte_to_char(text, next.start_byte()), format!("{param}, "))
            }
            None => match self.items.last().or(self.this.as_ref()) {
                Some(last) => {
                    Indel::insert(byte_to_char(text, last.end_byte()), format!(", {param}"))
                }
                None => Indel::insert(
                    byte_to_char(text, self.node.start_byte()) + 1,
                    param.to_string(),
                ),
            },
        };
        Ok(vec![edit])
    }

    fn remove(
        &self,
        language: &'static dyn Language,
        text: &Rope,
        symbol: &Symbol,
        name: &str,
    ) -> Result<Vec<Indel>, OpError> {
        let named: Vec<(usize, Node<'t>)> = self
            .items
            .iter()
            .enumerate()
            .flat_map(|(i, item)| names_of(*item).into_iter().map(move |n| (i, n)))
            .collect();
        let Some(&(i, name_node)) = named.iter().find(|(_, n)| parameter_name(text, *n) == name)
        else {
            let names: Vec<String> = named
                .iter()
                .map(|(_, n)| parameter_name(text, *n))
                .collect();
            return Err(OpError::new(
                ErrorKind::NotFound,
                format!(
                    "Not found: parameter '{name}' of '{}'. Available: {}",
                    symbol.qualified_name,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            ));
        };
        refuse_read(language, text, symbol, name, name_node)?;
        let item = self.items[i];
        let mut c = item.walk();
        let property = item.children(&mut c).any(|m| {
            matches!(
                m.kind(),
                "accessibility_modifier" | "readonly" | "override_modifier"
            )
        });
        if property {
            return Err(refused(format!(
                "{name} is a parameter property: it declares the field {}.{name} too, which removing it removes; write the field in the class first, or rename it",
                symbol.qualified_name.rsplit_once('.').map_or(symbol.qualified_name.as_str(), |(c, _)| c)
            )));
        }
        let group: Vec<Node<'t>> = named
            .iter()
            .filter(|(j, _)| *j == i)
            .map(|(_, n)| *n)
            .collect();
        if group.len() > 1 {
            // Go's `a, b int`: the name and its comma
            let k = group
                .iter()
                .position(|n| n.id() == name_node.id())
                .unwrap_or(0);
            let range = match group.get(k + 1) {
                Some(next) => {
                    byte_to_char(text, name_node.start_byte())
                        ..byte_to_char(text, next.start_byte())
                }
                None => {
                    byte_to_char(text, group[k - 1].end_byte())
                        ..byte_to_char(text, name_node.end_byte())
                }
            };
            return Ok(vec![Indel::delete(range)]);
        }
        let range = match (
            self.items.get(i + 1),
            i.checked_sub(1).map(|p| self.items[p]),
        ) {
            (Some(next), _) => {
                byte_to_char(text, item.start_byte())..byte_to_char(text, next.start_byte())
            }
            (None, Some(previous)) => {
                byte_to_char(text, previous.end_byte())..byte_to_char(text, item.end_byte())
            }
            // the only one: up to the closing parenthesis (a trailing comma too)
            (None, None) => {
                byte_to_char(text, item.start_byte())..byte_to_char(text, self.node.end_byte()) - 1
            }
        };
        Ok(vec![Indel::delete(range)])
    }
}

/// Refuses changing the parameters of a method whose signature a
/// supertype fixes: a Rust trait impl's method, a Java `@Override` one.
fn refuse_supertype_signature(text: &Rope, symbol: &Symbol) -> Result<(), OpError> {
    let supertype = match &symbol.via_trait {
        Some(via) => Some(format!("the trait {via}")),
        None => {
            let from = text.line_to_char(symbol.full_lines.first);
            let head = text
                .slice(from..symbol.definition.start.max(from))
                .to_string();
            head.lines()
                .any(|l| l.trim() == "@Override")
                .then(|| "the supertype it overrides (@Override)".to_string())
        }
    };
    match supertype {
        Some(owner) => Err(refused(format!(
            "Cannot change the parameters of {}: {owner} fixes its signature; change it there",
            symbol.qualified_name
        ))),
        None => Ok(()),
    }
}

/// The first named child of `node` of `kind`.
fn first_named<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node.named_children(&mut cursor).find(|n| n.kind() == kind);
    found
}

/// The names a parameter item declares (Go's group declares several).
fn names_of(item: Node<'_>) -> Vec<Node<'_>> {
    match item.kind() {
        "identifier" | "self_parameter" => return vec![item],
        _ => {}
    }
    for field in ["name", "pattern", "left"] {
        let mut cursor = item.walk();
        let found: Vec<Node<'_>> = item.children_by_field_name(field, &mut cursor).collect();
        if !found.is_empty() {
            return found
                .into_iter()
                .flat_map(|n| match n.kind() {
                    "identifier" => vec![n],
                    _ => names_of(n),
                })
                .collect();
        }
    }
    // `...args`, `mut x`: the identifier inside
    let mut cursor = item.walk();
    let inner: Vec<Node<'_>> = item.named_children(&mut cursor).collect();
    inner
        .into_iter()
        .find(|n| n.kind() == "identifier")
        .into_iter()
        .collect()
}

fn parameter_name(text: &Rope, node: Node<'_>) -> String {
    match node.kind() {
        "self_parameter" => "self".to_string(),
        _ => node_text(text, node),
    }
}

/// Refuses removing a parameter the function's body reads: a bare use
/// whose innermost binding is the parameter's (Rust's `self` also through
/// `self.x`).
fn refuse_read(
    language: &'static dyn Language,
    text: &Rope,
    symbol: &Symbol,
    name: &str,
    declared: Node<'_>,
) -> Result<(), OpError> {
    let source = text.to_string();
    let file = scan(language, &source);
    let at = byte_to_char(text, declared.start_byte());
    let within = symbol.definition.clone();
    let binding_of = |offset: usize| {
        file.locals
            .iter()
            .filter(|l| l.name == name && l.visible.contains(&offset))
            .min_by_key(|l| l.scope.len())
            .map(|l| l.offset)
    };
    let mut reads: Vec<usize> = file
        .refs_named(name)
        .iter()
        .filter(|r| within.contains(&r.offset) && r.offset != at)
        .filter(|r| r.qualifier == Qualifier::None && binding_of(r.offset) == Some(at))
        .map(|r| r.offset)
        .collect();
    if name == "self" {
        reads.extend(
            file.refs
                .iter()
                .filter(|r| r.qualifier == Qualifier::This && within.contains(&r.offset))
                .map(|r| r.offset),
        );
    }
    if reads.is_empty() {
        return Ok(());
    }
    reads.sort_unstable();
    let places: Vec<String> = reads
        .iter()
        .take(5)
        .map(|&r| from_char(text, r).to_string())
        .collect();
    Err(refused(format!(
        "Cannot remove parameter '{name}' of {}: the body reads it (at {}{}); change the body first",
        symbol.qualified_name,
        places.join(", "),
        if reads.len() > 5 { ", …" } else { "" }
    )))
}

/// Java: a top-level class is public or of its package, never private
/// or protected; an `@Override` method never takes weaker access than
/// the method it overrides, which had its access now.
fn refuse_java_access(
    symbol: &Symbol,
    words: &[(usize, &str)],
    current: Option<&str>,
    word: &str,
) -> Result<(), OpError> {
    if symbol.parent.is_none() && word != "public" {
        return Err(refused(format!(
            "{} is a top-level class: Java makes one public or of its package alone, not {word}",
            symbol.qualified_name
        )));
    }
    let rank = |w: Option<&str>| match w {
        Some("public") => 3,
        Some("protected") => 2,
        Some("private") => 0,
        _ => 1,
    };
    let overrides = words.iter().any(|(_, w)| *w == "@Override");
    if overrides && rank(Some(word)) < rank(current) {
        return Err(refused(format!(
            "{} overrides a method (@Override): Java forbids it weaker access than the overridden method's, {} at least",
            symbol.qualified_name,
            current.unwrap_or("package access")
        )));
    }
    Ok(())
}

/// Java: the access a member's place allows — an interface's members
/// are public, or private with a body (Java 9), never protected; an
/// enum's constructor is private or of its package alone.
fn refuse_java_placement(
    def: Node<'_>,
    symbol: &Symbol,
    words: &[(usize, &str)],
    word: &str,
) -> Result<(), OpError> {
    let body = def.parent().map(|p| p.kind());
    let interface = matches!(body, Some("interface_body"));
    let enum_constructor =
        def.kind() == "constructor_declaration" && matches!(body, Some("enum_body_declarations"));
    let has_body = def.child_by_field_name("body").is_some();
    let why = match word {
        "protected" if interface => "an interface's member is public (or private with a body), never protected",
        "private" if interface && def.kind() == "method_declaration" && !has_body => {
            "an interface's method without a body is abstract, and must stay public for its classes to implement"
        }
        "private" if interface && words.iter().any(|(_, w)| *w == "default") => {
            "a default method is public (its classes inherit it); remove `default` first to make it a private helper"
        }
        "public" | "protected" if enum_constructor => "an enum's constructor is private or of its package alone",
        _ => return Ok(()),
    };
    Err(refused(format!(
        "{} cannot be made {word}: {why}",
        symbol.qualified_name
    )))
}

/// Whether a TypeScript element takes a decorator: a class, or a member
/// of a class's body (not an interface's, an object literal's, a
/// namespace's).
fn ts_decorable(text: &Rope, tree: &SyntaxTree, symbol: &Symbol) -> bool {
    let byte = text.char_to_byte(symbol.definition.start);
    let mut at = tree.root().descendant_for_byte_range(byte, byte);
    while let Some(node) = at {
        match node.kind() {
            "class_declaration" | "abstract_class_declaration" | "class" => {
                return symbol.kind == SymbolKind::Class
            }
            "class_body" => return symbol.kind != SymbolKind::Class,
            "interface_declaration"
            | "interface_body"
            | "object"
            | "statement_block"
            | "program"
            | "function_declaration"
            | "lexical_declaration"
            | "type_alias_declaration"
            | "enum_declaration"
            | "internal_module" => return false,
            _ => at = node.parent(),
        }
    }
    false
}

/// Where the element's own lines start: after its doc comment, at its
/// first attribute or keyword.
fn add_decorator(
    language: &dyn Language,
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    decorator: &str,
) -> Result<Vec<Indel>, OpError> {
    let form = match language.id() {
        "java" | "typescript" | "tsx" => "@",
        "rust" => "#[",
        _ => {
            return Err(refused(format!(
                "{} has no decorators or annotations: AddDecorator works on Python, TypeScript, Java and Rust",
                language.name()
            )))
        }
    };
    // TypeScript decorates classes and their members alone (TS1206
    // "Decorators are not valid here" on a function, an interface, …)
    if form == "@" && language.id() != "java" && !ts_decorable(text, tree, symbol) {
        return Err(refused(format!(
            "TypeScript decorates classes and their members alone: {} {} takes none (TS1206)",
            symbol.kind.noun(),
            symbol.qualified_name
        )));
    }
    if !decorator.starts_with(form) {
        return Err(OpError::new(
            ErrorKind::InvalidArgument,
            format!(
                "Write the {} as the language does: it starts with {form} (`{}`)",
                if form == "@" {
                    "annotation"
                } else {
                    "attribute"
                },
                if form == "@" {
                    "@Deprecated"
                } else {
                    "#[inline]"
                }
            ),
        ));
    }
    // the lines above the keyword: doc comments, then attributes
    let keyword_line = text.char_to_line(symbol.definition.start);
    let above: Vec<(usize, String)> = (symbol.full_lines.first..keyword_line)
        .map(|l| (l, text.line(l).to_string().trim().to_string()))
        .collect();
    if above.iter().any(|(_, l)| l == decorator) {
        return Err(no_change(format!(
            "{} already has {decorator}",
            symbol.qualified_name
        )));
    }
    // the first line of the element proper: its first attribute, else its keyword
    let line = above
        .iter()
        .find(|(_, l)| l.starts_with(form))
        .map_or(keyword_line, |(l, _)| *l);
    let line_start = text.line_to_char(line);
    let indent: String = text
        .line(line)
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    Ok(vec![Indel::insert(
        line_start,
        format!("{indent}{decorator}\n"),
    )])
}

fn set_visibility(
    language: &dyn Language,
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    visibility: Visibility,
) -> Result<Vec<Indel>, OpError> {
    let word = match visibility {
        Visibility::Public => "public",
        Visibility::Protected => "protected",
        Visibility::Private => "private",
    };
    let member = symbol.parent.is_some();
    let def = definition_node(text, tree, symbol).ok_or_else(|| {
        OpError::new(
            ErrorKind::Internal,
            format!("Internal: no node for {}", symbol.qualified_name),
        )
    })?;
    let start = byte_to_char(text, def.start_byte());
    let name_at = crate::edit::position::to_char(text, symbol.name_position).unwrap_or(start);
    let head = text.slice(start..name_at.max(start)).to_string();
    // each word with its byte offset in `head`
    let words: Vec<(usize, &str)> = head
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - head.as_ptr() as usize, w))
        .collect();
    let at = |offset: usize| start + head[..offset].chars().count();
    match language.id() {
        "java" | "typescript" | "tsx" if language.id() == "java" || member => {
            let current = words
                .iter()
                .find(|(_, w)| matches!(*w, "public" | "protected" | "private"));
            if language.id() == "java" {
                refuse_java_access(symbol, &words, current.map(|(_, w)| *w), word)?;
                refuse_java_placement(def, symbol, &words, word)?;
            }
            // (TS1243; Java's "illegal combination of modifiers")
            if visibility == Visibility::Private && words.iter().any(|(_, w)| *w == "abstract") {
                return Err(refused(format!(
                    "{} is abstract: a subclass must implement it, which it cannot see if private; make it protected, or give it a body first",
                    symbol.qualified_name
                )));
            }
            match current {
                Some((_, w)) if *w == word => Err(no_change(format!(
                    "{} is already {word}",
                    symbol.qualified_name
                ))),
                Some((offset, w)) => Ok(vec![Indel::new(
                    at(*offset)..at(*offset) + w.len(),
                    word.to_string(),
                )]),
                None if language.id() != "java" && visibility == Visibility::Public => {
                    Err(no_change(format!(
                        "{} is public already (TypeScript's members are unless marked)",
                        symbol.qualified_name
                    )))
                }
                None => Ok(vec![Indel::insert(start, format!("{word} "))]),
            }
        }
        "rust" => {
            let current = words.iter().find(|(_, w)| w.starts_with("pub"));
            match (visibility, current) {
                (Visibility::Protected, _) => Err(OpError::new(
                    ErrorKind::InvalidArgument,
                    "Rust has no protected: public (pub) or private",
                )),
                (Visibility::Public, Some(_)) => Err(no_change(format!(
                    "{} is already pub",
                    symbol.qualified_name
                ))),
                (Visibility::Public, None) => Ok(vec![Indel::insert(start, "pub ".to_string())]),
                (Visibility::Private, None) => Err(no_change(format!(
                    "{} is already private",
                    symbol.qualified_name
                ))),
                (Visibility::Private, Some((offset, w))) => {
                    // `pub(crate) `: the word and the spaces after it
                    let word_end = offset + w.len();
                    let after = head[word_end..]
                        .chars()
                        .take_while(|c| c.is_whitespace())
                        .count();
                    Ok(vec![Indel::delete(at(*offset)..at(word_end) + after)])
                }
            }
        }
        "go" => {
            let name = &symbol.name;
            let exported = name.starts_with(|c: char| c.is_uppercase());
            let new: String = match visibility {
                Visibility::Public if !exported => name[..1].to_uppercase() + &name[1..],
                Visibility::Private if exported => name[..1].to_lowercase() + &name[1..],
                Visibility::Protected => {
                    return Err(OpError::new(
                        ErrorKind::InvalidArgument,
                        "Go has no protected: public (an upper-case first letter) or private",
                    ))
                }
                _ => {
                    return Err(no_change(format!(
                        "{} is already {word}",
                        symbol.qualified_name
                    )))
                }
            };
            Err(refused(format!(
                "In Go a name's case is its visibility: making {} {word} renames it across the project: Refactor RenameSymbol {} {new}",
                symbol.qualified_name, symbol.qualified_name
            )))
        }
        _ => Err(refused(format!(
            "{} has no visibility modifiers for {}: its module's exports say what others see",
            language.name(),
            symbol.qualified_name
        ))),
    }
}
