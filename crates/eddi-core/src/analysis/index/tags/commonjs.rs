//! CommonJS modules: what a file's `module.exports` is made of, read from
//! its module-level code, and whether a `require` binding keeps what it
//! was bound to.
//!
//! A module's keys are *known* when every write to `module.exports` and
//! `exports` is one the scan reads — a module-level statement
//! `module.exports = { a, b: c, d() {} }`, `module.exports = X`,
//! `module.exports.k = v` or `exports.k = v` (`exports = module.exports =
//! …` too) — and every other mention of them reads a key (`exports.k()`).
//! Anything else (`Object.assign(module.exports, …)`, `exports[k] = v`, a
//! write inside a function or an `if`, a second `module.exports = …`,
//! `exports` passed or declared, `module.exports = require(…)`) makes the
//! module's keys known only at run time ([`CommonJs::dynamic`]): a query
//! then holds every use through them possible, as it did before it read
//! CommonJS at all.

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

use super::scan::{Qualifier, TagRef, TagsFile};
use crate::analysis::syntax::{LineTable, TextAt};

/// What a CommonJS module exports.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CommonJs {
    /// Each key its module-level code assigns, in order, with the
    /// module-level name its value is when it is one (`{ a, b: c }`: `a`
    /// → `a`, `b` → `c`; `d() {}` → none). `module.exports = X` is the
    /// key `default`.
    pub keys: Vec<(String, Option<String>)>,
    /// The keys are known only at run time.
    pub dynamic: bool,
    /// `module.exports = require('s')`: the module is module `s`'s
    /// exports (`s` as written).
    pub from: Option<String>,
}

/// What key `key` of a module holds, as far as its code tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyValue {
    /// The module-level name `.0` of the module.
    Name(String),
    /// A value no module-level name holds (`exports.k = f()`, a method
    /// of `module.exports = { d() {} }`). A function or class written in
    /// place by a module-level `exports.k = …` is the index's definition
    /// `k`: its value is the name `k`.
    Unnamed,
}

impl CommonJs {
    /// What `key` holds; `None`: the module's keys are not known, the key
    /// is not among them, or it is assigned twice with different values.
    pub fn value(&self, key: &str) -> Option<KeyValue> {
        if self.dynamic {
            return None;
        }
        let mut values = self.keys.iter().filter(|(k, _)| k == key).map(|(_, v)| v);
        let first = values.next()?;
        if values.any(|v| v != first) {
            return None;
        }
        Some(match first {
            Some(name) => KeyValue::Name(name.clone()),
            None => KeyValue::Unnamed,
        })
    }

    /// Whether `module.exports` is one value (`module.exports = X`), not
    /// an object of keys: a `require` of the module is that value.
    pub fn is_one_value(&self) -> bool {
        self.keys.iter().any(|(k, _)| k == "default")
    }
}

/// The file's CommonJS exports, when its text spells `exports` (or
/// TypeScript's `export =`, read as `module.exports =`); the keys
/// of `module.exports = { k: v }` as uses of the export `k` (through
/// `exports`, as `exports.k` is), and its `module.exports = { … }` and
/// `exports.k = v` as [`TagsFile::exports`] pairs.
pub(super) fn read_exports(text: &str, lines: &LineTable<'_>, root: Node<'_>, file: &mut TagsFile) {
    if !text.contains("exports") && !text.contains("export =") {
        return;
    }
    let mut module = CommonJs::default();
    let mut wholes = 0;
    for (at, word) in text.match_indices("exports") {
        let Some(node) = root.descendant_for_byte_range(at, at + word.len()) else {
            continue;
        };
        if node.byte_range() != (at..at + word.len()) {
            continue;
        }
        let Some(object) = exports_object(text, node) else {
            // (`{ exports }` passes the object on)
            if is_shorthand(node) {
                module.dynamic = true;
            }
            continue;
        };
        match write_of(object) {
            Write::Whole(assignment) => {
                // (`exports = module.exports = v` is read once, from its
                // outermost assignment)
                if is_inner(text, assignment) {
                    continue;
                }
                let value = innermost_value(text, assignment);
                if is_exports_object(text, value) {
                    continue;
                }
                let of_module = is_module_exports(text, object) || chained(text, assignment);
                if !at_module_level(assignment) || !of_module {
                    module.dynamic = true;
                    continue;
                }
                wholes += 1;
                whole_value(text, lines, value, &mut module, file);
            }
            Write::Key(member, assignment) => {
                let key = member.child_by_field_name("property");
                match (key, at_module_level(assignment)) {
                    (Some(key), true) if key.kind() == "property_identifier" => {
                        let in_place = defined_in_place(file, lines, key);
                        let key = text[key.byte_range()].to_string();
                        let value = assignment.child_by_field_name("right");
                        let named = match in_place {
                            true => Some(key.clone()),
                            false => value.and_then(|v| name_of(text, v)),
                        };
                        module.keys.push((key, named));
                    }
                    _ => module.dynamic = true,
                }
            }
            Write::Read => {}
            Write::Other => module.dynamic = true,
        }
    }
    // TypeScript's `export = value` is `module.exports = value`
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        if statement.kind() != "export_statement"
            || statement.child(1).map(|c| c.kind()) != Some("=")
        {
            continue;
        }
        if let Some(value) = statement.named_children(&mut statement.walk()).last() {
            wholes += 1;
            whole_value(text, lines, value, &mut module, file);
        }
    }
    if wholes > 1 {
        module.dynamic = true;
    }
    if module.keys.is_empty() && !module.dynamic && module.from.is_none() {
        return;
    }
    if !module.dynamic {
        for (key, value) in &module.keys {
            if let Some(value) = value {
                file.exports.push((key.clone(), value.clone()));
            }
        }
    }
    file.commonjs = Some(Box::new(module));
}

/// Whether the walk defined the key whose name is `key` in place: a
/// function or class written there (`exports.k = function …`, `{ k() {}
/// }` of `module.exports = …`: `sites::commonjs_key_site`,
/// `commonjs_object_site`), a definition that binds no bare name. Such a
/// key's value is the definition its name names.
fn defined_in_place(file: &TagsFile, lines: &LineTable<'_>, key: Node<'_>) -> bool {
    let at = lines.position_at(key.start_byte());
    file.defs
        .iter()
        .any(|d| !d.binds_name && d.name_position == at)
}

/// The value of `module.exports = value`: an object's keys, else the key
/// `default`.
fn whole_value(
    text: &str,
    lines: &LineTable<'_>,
    value: Node<'_>,
    module: &mut CommonJs,
    file: &mut TagsFile,
) {
    match value.kind() {
        "object" => {
            let mut cursor = value.walk();
            for part in value.named_children(&mut cursor) {
                match part.kind() {
                    "shorthand_property_identifier" => {
                        let name = text[part.byte_range()].to_string();
                        module.keys.push((name.clone(), Some(name)));
                    }
                    "pair" => {
                        let (Some(key), Some(v)) = (
                            part.child_by_field_name("key"),
                            part.child_by_field_name("value"),
                        ) else {
                            continue;
                        };
                        let name = match key.kind() {
                            "property_identifier" => {
                                // the key is a use of the export it names
                                file.refs.push(key_ref(text, lines, key));
                                text[key.byte_range()].to_string()
                            }
                            "string" => key_string(text, key),
                            _ => {
                                module.dynamic = true;
                                continue;
                            }
                        };
                        let named = match defined_in_place(file, lines, key) {
                            true => Some(name.clone()),
                            false => name_of(text, v),
                        };
                        module.keys.push((name, named));
                    }
                    "method_definition" => match part.child_by_field_name("name") {
                        Some(key) if key.kind() == "property_identifier" => {
                            let name = text[key.byte_range()].to_string();
                            let named = defined_in_place(file, lines, key).then(|| name.clone());
                            module.keys.push((name, named));
                        }
                        _ => module.dynamic = true,
                    },
                    "comment" => {}
                    // a spread, a computed key
                    _ => module.dynamic = true,
                }
            }
        }
        // another module's exports, passed on whole
        "call_expression" => match super::es::required_source(&text[value.byte_range()]) {
            Some(source) => module.from = Some(source.to_string()),
            None => module.dynamic = true,
        },
        _ => module
            .keys
            .push(("default".to_string(), name_of(text, value))),
    }
}

/// How code touches the exports object `object` (`module.exports` or
/// `exports`).
enum Write<'t> {
    /// `object = value`: the assignment.
    Whole(Node<'t>),
    /// `object.k = value`: the member and the assignment.
    Key(Node<'t>, Node<'t>),
    /// `object.k` read, or written below a key (`object.k.x = v`).
    Read,
    /// Anything else.
    Other,
}

fn write_of(object: Node<'_>) -> Write<'_> {
    let Some(parent) = object.parent() else {
        return Write::Other;
    };
    let is_left = |assignment: Node<'_>, node: Node<'_>| {
        assignment.kind() == "assignment_expression"
            && assignment.child_by_field_name("left") == Some(node)
    };
    match parent.kind() {
        _ if is_left(parent, object) => Write::Whole(parent),
        "member_expression" if parent.child_by_field_name("object") == Some(object) => {
            match parent.parent() {
                Some(assignment) if is_left(assignment, parent) => Write::Key(parent, assignment),
                Some(p) if p.kind() == "augmented_assignment_expression" => Write::Other,
                _ => Write::Read,
            }
        }
        "subscript_expression" if parent.child_by_field_name("object") == Some(object) => {
            match parent.parent() {
                Some(p) if is_left(p, parent) || p.kind() == "augmented_assignment_expression" => {
                    Write::Other
                }
                _ => Write::Read,
            }
        }
        _ => Write::Other,
    }
}

/// The exports object a mention of the word `exports` is part of: the
/// name `exports`, or `module.exports`.
fn exports_object<'t>(text: &str, word: Node<'t>) -> Option<Node<'t>> {
    match word.kind() {
        "identifier" => Some(word),
        "property_identifier" => {
            let member = word.parent()?;
            let object = member.child_by_field_name("object")?;
            let of_module = member.kind() == "member_expression"
                && member.child_by_field_name("property") == Some(word)
                && object.kind() == "identifier"
                && &text[object.byte_range()] == "module";
            of_module.then_some(member)
        }
        _ => None,
    }
}

fn is_shorthand(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "shorthand_property_identifier" | "shorthand_property_identifier_pattern"
    )
}

fn is_module_exports(text: &str, node: Node<'_>) -> bool {
    node.kind() == "member_expression" && &text[node.byte_range()] == "module.exports"
}

fn is_exports_object(text: &str, node: Node<'_>) -> bool {
    is_module_exports(text, node)
        || node.kind() == "identifier" && &text[node.byte_range()] == "exports"
}

/// Whether `assignment` is the value of an assignment to an exports
/// object (`module.exports` of `exports = module.exports = v`).
fn is_inner(text: &str, assignment: Node<'_>) -> bool {
    assignment.parent().is_some_and(|p| {
        p.kind() == "assignment_expression"
            && p.child_by_field_name("right") == Some(assignment)
            && p.child_by_field_name("left")
                .is_some_and(|l| is_exports_object(text, l))
    })
}

/// Whether `assignment` (of `exports = …`) is part of `exports =
/// module.exports = …` or `module.exports = exports = …`.
fn chained(text: &str, assignment: Node<'_>) -> bool {
    let mut node = assignment;
    let mut module_exports = false;
    loop {
        if let Some(left) = node.child_by_field_name("left") {
            module_exports |= is_module_exports(text, left);
        }
        match node.child_by_field_name("right") {
            Some(right) if right.kind() == "assignment_expression" => node = right,
            _ => break,
        }
    }
    let mut up = assignment;
    while let Some(parent) = up.parent().filter(|p| p.kind() == "assignment_expression") {
        if let Some(left) = parent.child_by_field_name("left") {
            module_exports |= is_module_exports(text, left);
        }
        up = parent;
    }
    module_exports
}

/// The value at the end of a chain of assignments (`a = b = v`: `v`),
/// through parentheses.
fn innermost_value<'t>(text: &str, assignment: Node<'t>) -> Node<'t> {
    let mut node = assignment;
    loop {
        let Some(right) = node.child_by_field_name("right") else {
            return node;
        };
        let right = unparenthesized(right);
        let chains = right.kind() == "assignment_expression"
            && right
                .child_by_field_name("left")
                .is_some_and(|l| is_exports_object(text, l));
        match chains {
            true => node = right,
            false => return right,
        }
    }
}

fn unparenthesized(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// Whether `assignment` is a module-level statement (the chain of
/// assignments it ends included): run once, in order.
fn at_module_level(assignment: Node<'_>) -> bool {
    let mut node = assignment;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "assignment_expression" if parent.child_by_field_name("right") == Some(node) => {
                node = parent
            }
            "expression_statement" => {
                return parent.parent().is_some_and(|p| p.kind() == "program");
            }
            _ => return false,
        }
    }
    false
}

/// The module-level name a value is, when it is a bare name.
fn name_of(text: &str, value: Node<'_>) -> Option<String> {
    let value = unparenthesized(value);
    (value.kind() == "identifier").then(|| text[value.byte_range()].to_string())
}

fn key_string(text: &str, key: Node<'_>) -> String {
    text[key.byte_range()]
        .trim_matches(|c| c == '"' || c == '\'')
        .to_string()
}

/// The key `k` of `module.exports = { k: v }`, as a use of the export `k`
/// (read through `exports`, as `exports.k` is).
fn key_ref(text: &str, lines: &LineTable<'_>, key: Node<'_>) -> TagRef {
    super::scan::name_ref(lines, text, key, Qualifier::Name("exports".into()))
}

/// Whether the file assigns `name` anywhere (`name = v`, `name += v`,
/// `name++`): a `var` or `let` bound by `require` may then hold
/// something else.
pub(super) fn is_assigned(text: &str, root: Node<'_>, name: &str) -> bool {
    for (at, word) in text.match_indices(name) {
        let Some(node) = root.descendant_for_byte_range(at, at + word.len()) else {
            continue;
        };
        let named = matches!(
            node.kind(),
            "identifier" | "shorthand_property_identifier_pattern"
        );
        if !named || node.byte_range() != (at..at + word.len()) {
            continue;
        }
        let Some(parent) = node.parent() else {
            continue;
        };
        let assigned = match parent.kind() {
            "assignment_expression" | "augmented_assignment_expression" | "for_in_statement" => {
                parent.child_by_field_name("left") == Some(node)
            }
            "update_expression" => true,
            // a destructuring assignment (`({ name } = o)`, `[name] = a`),
            // not a declaration's pattern
            "array_pattern" | "object_pattern" | "pair_pattern" => {
                let mut up = parent;
                while let Some(p) = up.parent().filter(|p| {
                    matches!(
                        p.kind(),
                        "array_pattern" | "object_pattern" | "pair_pattern"
                    )
                }) {
                    up = p;
                }
                up.parent().is_some_and(|p| {
                    p.kind() == "assignment_expression" && p.child_by_field_name("left") == Some(up)
                })
            }
            _ => false,
        };
        if assigned {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::analysis::index::tags::scan::scan;
    use crate::language::language_of;

    /// The keys a file's text states, or `None` when only a run knows
    /// them.
    fn keys(text: &str) -> Option<Vec<(String, Option<String>)>> {
        let file = scan(language_of("m.js").unwrap(), text);
        let module = file.commonjs.expect("a CommonJS module");
        (!module.dynamic).then_some(module.keys)
    }

    fn named(pairs: &[(&str, Option<&str>)]) -> Option<Vec<(String, Option<String>)>> {
        Some(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
                .collect(),
        )
    }

    #[test]
    fn the_keys_module_level_code_states() {
        assert_eq!(
            keys("function a() {}\nconst c = 1;\nmodule.exports = { a, b: c, 'd': c, e() {}, f: () => 1 };\n"),
            // (a function written in place: the definition its key names)
            named(&[("a", Some("a")), ("b", Some("c")), ("d", Some("c")), ("e", Some("e")), ("f", Some("f"))])
        );
        assert_eq!(
            keys("exports.a = a;\nmodule.exports.b = function () {};\nexports.a.x = 1;\nexports.b();\n"),
            // (a function written in place: the definition its key names)
            named(&[("a", Some("a")), ("b", Some("b"))])
        );
        assert_eq!(
            keys("class W {}\nexports = module.exports = W;\nexports.v = v;\n"),
            named(&[("default", Some("W")), ("v", Some("v"))])
        );
        assert_eq!(
            keys("module.exports = exports = (W);\n"),
            named(&[("default", Some("W"))])
        );
    }

    /// `module.exports = require('s')` passes module `s`'s exports on (the
    /// resolver follows it); a key written beside it is the module's own.
    #[test]
    fn a_module_passing_another_on_names_it() {
        let from = |text: &str| {
            let file = scan(language_of("m.js").unwrap(), text);
            let module = file.commonjs.expect("a CommonJS module");
            (module.dynamic, module.from, module.keys.len())
        };
        assert_eq!(
            from("module.exports = require('./other');\n"),
            (false, Some("./other".to_string()), 0)
        );
        assert_eq!(
            from("module.exports = require(\"./lib/x.js\");\nmodule.exports.k = 1;\n"),
            (false, Some("./lib/x.js".to_string()), 1)
        );
    }

    #[test]
    fn keys_only_a_run_knows() {
        for text in [
            "Object.assign(module.exports, { a });\n",
            "module.exports[name] = a;\n",
            "exports['a'] = a;\n",
            "if (x) { exports.a = a; }\n",
            "function f() { module.exports.a = a; }\n",
            "module.exports = { a };\nmodule.exports = { b };\n",
            "exports = { a };\n",
            "module.exports = require(name);\n",
            "module.exports = { ...base, a };\n",
            "module.exports = { [k]: a };\n",
            "(function (exports) { exports.a = a; })(typeof exports === 'object' ? exports : this);\n",
            "const e = module.exports;\ne.a = a;\n",
            "module.exports.a += 1;\n",
            "f({ exports });\n",
        ] {
            assert_eq!(keys(text), None, "{text}");
        }
    }

    #[test]
    fn a_file_that_touches_no_exports_is_no_commonjs_module() {
        let plain = scan(
            language_of("m.js").unwrap(),
            "export const exports2 = 1;\nconst o = { exports: 1 };\no.exports;\n",
        );
        assert!(plain.commonjs.is_none());
    }
}
