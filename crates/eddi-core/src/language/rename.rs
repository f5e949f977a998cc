//! `Modify … Rename` in the brace languages (JavaScript, TypeScript, Go,
//! Rust, Java): one file, scope-aware.
//!
//! The file is read as the project index reads it ([`scan`]): its
//! definitions, each use of a name with the innermost scope that binds it
//! (the scopes and the names they bind, from the scan's walk), and the
//! names declared with a type.
//! What a rename changes depends on what the symbol is:
//!
//! - a **local** (a parameter, a variable, a function declared in a
//!   block): its binding and every bare use whose innermost binding is
//!   that scope's — an inner block or closure that binds the name again
//!   keeps its own;
//! - a **module-level** function, class, type or variable: its
//!   definitions (overloads, Java's constructors of a class) and every
//!   bare use no scope binds;
//! - a **member** (a method, a field, a property) of a type `C`: its
//!   definitions in `C`, and its uses through `this`/`self` in `C`'s
//!   code, through a name declared of type `C` (a Go receiver, a typed
//!   parameter or local), through `C` itself (`C.m`, `C::m`, `Self::m`),
//!   bare in `C`'s code where the language reads members so (Java), and
//!   the keys of `C`'s struct literals (Go `C{X: 1}`, Rust `C { x }`).
//!
//! A shorthand keeps what it meant: renaming the local `x` of `{ x }`
//! writes `{ x: y }`, renaming the field `x` of `C { x }` writes
//! `C { y: x }`. A use the file cannot decide (`obj.x` through a value of
//! unknown type) refuses the rename, naming where, with the cross-file
//! rename that can be told what to do with it. So do a new name that is
//! not an identifier or is a keyword of the language, one the scope (or
//! the type) already binds, one a renamed use would then read from an
//! inner binding, and one that would hide a name a use reads.

use std::ops::Range;

use ropey::Rope;
use tree_sitter::Node;

use super::{record_components, Language};
use crate::analysis::index::tags::scan::{scan, DeclaredKind, Qualifier, TagRef, TagsFile};
use crate::analysis::outline::{Outline, Symbol, SymbolKind};
use crate::analysis::syntax::byte_to_char;
use crate::analysis::textedit::EditResult;
use crate::analysis::SyntaxTree;
use crate::change::Indel;
use crate::edit::Position;
use crate::failure::{ErrorKind, OpError};

/// Renames `symbol` of `outline` (the file `path`, whose text is `text`,
/// parsed as `tree`) to `new_name`: the edits, or why not.
pub fn rename(
    language: &'static dyn Language,
    path: &str,
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    symbol: &Symbol,
    new_name: &str,
) -> Result<EditResult, OpError> {
    let old = symbol.name.as_str();
    check_new_name(language, old, new_name)?;
    let unchanged = |note: String| EditResult {
        edits: Vec::new(),
        cursor: symbol.position,
        element: Some(symbol.position),
        note: Some(note),
    };
    if new_name == old {
        return Ok(unchanged(format!(
            "{} is already named {new_name}",
            symbol.qualified_name
        )));
    }
    let owner = outline
        .parent(symbol)
        .filter(|_| symbol.kind != SymbolKind::Class)
        .map(|p| p.name.as_str());
    if let Some(fixed) = FixedName::of(language, path, text, outline, owner, symbol, new_name) {
        let refusal = fixed.refusal(&symbol.qualified_name, owner.unwrap_or_default(), new_name);
        return Err(OpError::new(ErrorKind::NotApplicable, refusal));
    }
    // a Java method's overloads are one name to its calls, which this
    // file cannot tell apart by their arguments' types
    let overloads: Vec<&Symbol> = outline
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Method && symbol.kind == SymbolKind::Method)
        .filter(|s| s.qualified_name == symbol.qualified_name && s.parent == symbol.parent)
        .collect();
    if language.id() == "java" && overloads.len() > 1 {
        let lines: Vec<String> = overloads
            .iter()
            .map(|s| (s.position.line + 1).to_string())
            .collect();
        return Err(OpError::new(
            ErrorKind::NotApplicable,
            format!(
                "Cannot rename one overload of {}: its {} definitions (lines {}) are one name to their calls; Refactor RenameSymbol {} {new_name} renames them all, with their calls in every file",
                symbol.qualified_name,
                overloads.len(),
                lines.join(", "),
                symbol.qualified_name,
            ),
        ));
    }
    if language.id() == "go" {
        refuse_go_embedding(text, tree, symbol, owner, new_name)?;
    }
    let source = text.to_string();
    let file = scan(language, &source);
    let reader = Reader {
        language,
        text,
        source: &source,
        tree,
        file: &file,
    };
    let what = reader.what(outline, symbol)?;
    let found = match &what {
        Renamed::Local { visible, .. } => reader.local_sites(old, visible, symbol),
        Renamed::TopLevel => reader.top_level_sites(outline, symbol),
        Renamed::Member(class) => reader.member_sites(outline, symbol, class),
    };
    reader.check_conflicts(&what, old, new_name, &found, outline, symbol)?;
    if let (Renamed::Local { .. }, "rust") = (&what, language.id()) {
        refuse_rust_pattern_name(&file, outline, symbol, new_name)?;
    }
    if let Renamed::Member(_) = &what {
        let at = reader.offset(symbol.name_position);
        if let Some(why) = super::read_by_name::read_by_name(language, text, tree, at) {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!(
                    "Cannot rename {} in this file: code outside the project may read it by its name: {why}; Refactor RenameSymbol {} {new_name} Include Possible renames it anyway",
                    symbol.qualified_name, symbol.qualified_name,
                ),
            ));
        }
    }
    if !found.possible.is_empty() {
        let places: Vec<String> = found
            .possible
            .iter()
            .map(|&at| position_of(text, at).to_string())
            .collect();
        return Err(OpError::new(
            ErrorKind::NotApplicable,
            format!(
                "Cannot rename {} in this file: {} may name it through a value of unknown type (at {}); Refactor RenameSymbol {} {new_name} Include Possible renames them too, Only Proven leaves them",
                symbol.qualified_name,
                count(found.possible.len(), "use"),
                places.join(", "),
                symbol.qualified_name,
            ),
        ));
    }
    let mut edits: Vec<Indel> = found
        .sites
        .iter()
        .map(|site| {
            // Rust's `C { ref x }`: the key goes before the `ref`
            let from = match site.write {
                Write::Name => site.at,
                Write::KeepKey | Write::KeepValue => pattern_start(text, tree, site.at),
            };
            let range = from..site.at + old.chars().count();
            let modifiers = text.slice(from..site.at).to_string();
            let insert = match site.write {
                Write::Name => new_name.to_string(),
                Write::KeepKey => format!("{old}: {modifiers}{new_name}"),
                Write::KeepValue => format!("{new_name}: {modifiers}{old}"),
            };
            Indel::new(range, insert)
        })
        .collect();
    edits.sort_by_key(|e| e.range.start);
    edits.dedup_by_key(|e| e.range.start);
    Ok(EditResult {
        edits,
        cursor: symbol.position,
        element: Some(symbol.position),
        note: None,
    })
}

/// Where the shorthand at char `at` starts with what binds it: a Rust
/// field pattern's `ref`, `mut` or `ref mut` before its name (`C { ref x
/// }`), else `at`.
fn pattern_start(text: &Rope, tree: &SyntaxTree, at: usize) -> usize {
    let byte = text.char_to_byte(at);
    let pattern = tree
        .root()
        .named_descendant_for_byte_range(byte, byte)
        .filter(|n| n.kind() == "shorthand_field_identifier")
        .and_then(|n| n.parent())
        .filter(|p| p.kind() == "field_pattern" && p.start_byte() < byte);
    pattern.map_or(at, |p| text.byte_to_char(p.start_byte()))
}

/// A name its language (or its toolchain) fixes, so that a rename would
/// change what the code is while it may still compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixedName {
    /// A Java constructor: named by its class.
    JavaConstructor,
    /// A JavaScript class's `constructor`.
    ScriptConstructor,
    /// A JavaScript method renamed `constructor` would become the class's.
    BecomesConstructor,
    /// The function a program starts at, called by name from outside the
    /// code: Go's `main` of package `main`, Rust's `main` of a binary's
    /// root, Java's `static main` (or a new name that would be one).
    EntryPoint,
    /// Go's `init`: the runtime calls it, no code may name it.
    GoInit,
    /// A Go test, benchmark or fuzz function (`go test` runs them by
    /// their prefix): renamed to a name without it, or a function renamed
    /// to one.
    GoTest(&'static str),
}

impl FixedName {
    /// Whether renaming `symbol` (of the file `path`, whose text is
    /// `text`), a member of the class `owner` when `Some`, to `new` meets
    /// such a name.
    pub fn of(
        language: &dyn Language,
        path: &str,
        text: &Rope,
        outline: &Outline,
        owner: Option<&str>,
        symbol: &Symbol,
        new: &str,
    ) -> Option<FixedName> {
        let old = symbol.name.as_str();
        let member = owner.filter(|_| symbol.kind != SymbolKind::Class);
        let function = symbol.kind == SymbolKind::Function && member.is_none();
        let file_name = path.rsplit('/').next().unwrap_or(path);
        let either = |name: &str| old == name || new == name;
        match (language.id(), member) {
            ("java", Some(class)) if old == class => Some(FixedName::JavaConstructor),
            // overloads are renamed together: any of them may be the one
            ("java", Some(_)) if either("main") && has_static_main(text, outline, symbol) => {
                Some(FixedName::EntryPoint)
            }
            ("javascript" | "typescript" | "tsx", Some(_)) if old == "constructor" => {
                Some(FixedName::ScriptConstructor)
            }
            ("javascript" | "typescript" | "tsx", Some(_)) if new == "constructor" => {
                Some(FixedName::BecomesConstructor)
            }
            ("go", None) if function && either("init") => Some(FixedName::GoInit),
            ("go", None) if function && either("main") && go_package_main(text) => {
                Some(FixedName::EntryPoint)
            }
            ("go", None) if function && file_name.ends_with("_test.go") => {
                ["Test", "Benchmark", "Fuzz"]
                    .into_iter()
                    .find(|prefix| go_runs(prefix, old) != go_runs(prefix, new))
                    .map(FixedName::GoTest)
            }
            ("rust", None) if function && either("main") && rust_program_root(path) => {
                Some(FixedName::EntryPoint)
            }
            _ => None,
        }
    }

    /// Why a rename of `name` (a member of `class`, when one) to `new` is
    /// refused.
    pub fn refusal(self, name: &str, class: &str, new: &str) -> String {
        match self {
            FixedName::JavaConstructor => format!(
                "Cannot rename {name}: it is {class}'s constructor, which Java names by its class; rename the class (Refactor RenameSymbol {class} <new>), and its constructors follow"
            ),
            FixedName::ScriptConstructor => format!(
                "Cannot rename {name}: it is {class}'s constructor, which JavaScript names `constructor`; under another name it would be a plain method"
            ),
            FixedName::BecomesConstructor => format!(
                "Cannot rename {name} to 'constructor': that would make it {class}'s constructor; give another name"
            ),
            FixedName::EntryPoint => format!(
                "Cannot rename {name} to '{new}': `main` is where the program starts, called by that name from outside the code; keep `main` as it is and give other functions other names"
            ),
            FixedName::GoInit => format!(
                "Cannot rename {name} to '{new}': Go runs every `init` when the package loads and no code may name one, so a rename changes when the code runs; give another name"
            ),
            FixedName::GoTest(prefix) => format!(
                "Cannot rename {name} to '{new}': `go test` runs the functions of a test file named {prefix}Xxx, so the rename would add or drop one; keep the prefix {prefix} on a {prefix} function and off any other"
            ),
        }
    }
}

/// Whether `go test` takes `name` for a function of the kind `prefix`:
/// the prefix, then nothing or a name not starting with a lower-case letter.
fn go_runs(prefix: &str, name: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_lowercase()))
}

/// Whether a Go file's package clause says `package main`.
fn go_package_main(text: &Rope) -> bool {
    text.lines().any(|line| {
        let line = line.to_string();
        let mut words = line.split_whitespace();
        words.next() == Some("package") && words.next() == Some("main")
    })
}

/// Whether a Rust file is the root of a program: `main.rs`, a file of a
/// `bin` directory, an example.
fn rust_program_root(path: &str) -> bool {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    file_name == "main.rs"
        || path.split('/').any(|dir| dir == "bin")
        || path.starts_with("examples/")
        || path.contains("/examples/")
}

/// Whether the Java method `symbol` or a sibling is a `static main`.
fn has_static_main(text: &Rope, outline: &Outline, symbol: &Symbol) -> bool {
    let is_static = |method: &Symbol| {
        let end = crate::edit::position::to_char(text, method.name_position)
            .unwrap_or(method.definition.start)
            .max(method.definition.start);
        text.slice(method.definition.start..end)
            .to_string()
            .split_whitespace()
            .any(|word| word == "static")
    };
    is_static(symbol)
        || outline
            .symbols
            .iter()
            .filter(|s| s.name == "main" && s.parent == symbol.parent)
            .any(is_static)
}

/// What a rename renames.
enum Renamed {
    /// A name a scope binds: where it is visible, and the whole scope
    /// (chars).
    Local {
        visible: Range<usize>,
        scope: Range<usize>,
    },
    /// A module-level definition.
    TopLevel,
    /// A member of the named type.
    Member(String),
}

/// How a site is rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Write {
    /// The name itself.
    Name,
    /// A shorthand whose key stays (`{ x }` → `{ x: y }`).
    KeepKey,
    /// A shorthand whose value stays (`C { x }` → `C { y: x }`).
    KeepValue,
}

#[derive(Debug, Clone, Copy)]
struct Site {
    /// In chars.
    at: usize,
    write: Write,
}

#[derive(Default)]
struct Found {
    sites: Vec<Site>,
    /// Uses that may name the symbol (chars).
    possible: Vec<usize>,
}

impl Found {
    fn add(&mut self, at: usize, write: Write) {
        self.sites.push(Site { at, write });
    }
}

struct Reader<'a> {
    language: &'static dyn Language,
    text: &'a Rope,
    source: &'a str,
    tree: &'a SyntaxTree,
    file: &'a TagsFile,
}

impl Reader<'_> {
    /// `trait` or `interface` when `symbol` is a method a Rust trait or a
    /// Go interface declares: what implements it (an `impl` block, any Go
    /// type with a method of the name) must keep the name.
    fn declared_by(&self, symbol: &Symbol) -> Option<&'static str> {
        if symbol.kind != SymbolKind::Method {
            return None;
        }
        let (holder, noun) = match self.language.id() {
            "rust" => ("trait_item", "trait"),
            "go" => ("interface_type", "interface"),
            _ => return None,
        };
        let byte = self.text.char_to_byte(self.offset(symbol.name_position));
        let mut node = self
            .tree
            .root()
            .named_descendant_for_byte_range(byte, byte)?;
        while let Some(parent) = node.parent() {
            match parent.kind() {
                kind if kind == holder => return Some(noun),
                "impl_item"
                | "function_item"
                | "function_declaration"
                | "method_declaration"
                | "struct_type" => return None,
                _ => node = parent,
            }
        }
        None
    }

    /// What `symbol` is: a scope's binding, a module-level definition or
    /// a member.
    fn what(&self, outline: &Outline, symbol: &Symbol) -> Result<Renamed, OpError> {
        let at = self.offset(symbol.name_position);
        // (a parameter property's name is its constructor's parameter
        // too: it is renamed as the member, with its uses as a parameter)
        let member = symbol.kind == SymbolKind::Attribute
            && outline
                .parent(symbol)
                .is_some_and(|p| p.kind == SymbolKind::Class);
        if let Some(local) = self
            .file
            .locals
            .iter()
            .find(|l| l.offset == at)
            .filter(|_| !member)
        {
            return Ok(Renamed::Local {
                visible: local.visible.clone(),
                scope: local.scope.clone(),
            });
        }
        if symbol.kind == SymbolKind::Local {
            return Err(OpError::new(
                ErrorKind::NotFound,
                format!(
                    "{} is not a name a scope of this file binds",
                    symbol.qualified_name
                ),
            ));
        }
        if let Some(via) = &symbol.via_trait {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!(
                    "{} implements the trait {via}'s method: renaming it here alone breaks the impl; rename the trait's method (Refactor RenameSymbol {via}.{} <new>)",
                    symbol.qualified_name, symbol.name
                ),
            ));
        }
        if let Some(declared) = self.declared_by(symbol) {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!(
                    "{} is the {declared}'s method: its implementations must keep its name, and they are not renamed in one file; rename it with them (Refactor RenameSymbol {} <new>)",
                    symbol.qualified_name, symbol.qualified_name
                ),
            ));
        }
        // its annotations are in its whole lines, before its name
        let head = symbol.full.start..self.offset(symbol.name_position).max(symbol.full.start);
        if self.language.id() == "java" && self.text.slice(head).to_string().contains("@Override") {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!(
                    "{} overrides a method of a supertype (@Override): renaming it alone changes what calls reach; rename the supertype's method with its overrides",
                    symbol.qualified_name
                ),
            ));
        }
        let parent = outline.parent(symbol);
        match parent {
            Some(p) if p.kind == SymbolKind::Class => return Ok(Renamed::Member(p.name.clone())),
            Some(_) => {
                return Err(OpError::new(
                    ErrorKind::NotApplicable,
                    format!(
                        "{} is nested in a function: Refactor RenameSymbol {} <new> renames it with its uses",
                        symbol.qualified_name, symbol.qualified_name
                    ),
                ))
            }
            None => {}
        }
        if self.language.id() == "java"
            && symbol.kind == SymbolKind::Class
            && self
                .modifiers(symbol)
                .split_whitespace()
                .any(|w| w == "public")
        {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!(
                    "{} is a public class: its name is its file's, which renaming it in the file alone breaks; Refactor RenameSymbol {} <new> renames the file too",
                    symbol.qualified_name, symbol.qualified_name
                ),
            ));
        }
        // a method declared apart from its type (Go's receiver, Rust's
        // `impl`) whose type is in another file: `T.m`
        match symbol.qualified_name.rsplit_once('.') {
            Some((owner, _)) if symbol.kind == SymbolKind::Method => {
                let owner = owner.split('.').next().unwrap_or(owner);
                Ok(Renamed::Member(owner.to_string()))
            }
            _ => Ok(Renamed::TopLevel),
        }
    }

    /// A Java declaration's modifiers and annotations, as written.
    fn modifiers(&self, symbol: &Symbol) -> String {
        let declaration = self
            .node_at(self.offset(symbol.name_position))
            .and_then(|n| n.parent());
        let Some(declaration) = declaration else {
            return String::new();
        };
        let mut c = declaration.walk();
        let modifiers: Vec<&str> = declaration
            .children(&mut c)
            .filter(|n| n.kind() == "modifiers")
            .map(|m| &self.source[m.byte_range()])
            .collect();
        modifiers.join(" ")
    }

    fn offset(&self, position: Position) -> usize {
        crate::edit::position::to_char(self.text, position).unwrap_or(0)
    }

    /// The named node that starts at char `at`, the innermost.
    fn node_at(&self, at: usize) -> Option<Node<'_>> {
        let byte = self.text.char_to_byte(at);
        let node = self
            .tree
            .root()
            .named_descendant_for_byte_range(byte, byte)?;
        Some(node)
    }

    /// How a bare use at `at` of a local or module-level name is
    /// rewritten; `None`: it is no use of a variable there (a struct
    /// literal's field key).
    fn bare_write(&self, at: usize) -> Option<Write> {
        let Some(node) = self.node_at(at) else {
            return Some(Write::Name);
        };
        let parent = node.parent();
        match node.kind() {
            // `{ x }`, `const { x } = o`
            "shorthand_property_identifier" | "shorthand_property_identifier_pattern" => {
                Some(Write::KeepKey)
            }
            // Rust `C { x }`, `let C { x } = c`
            "shorthand_field_identifier" => Some(Write::KeepKey),
            "identifier" if parent.is_some_and(|p| p.kind() == "shorthand_field_initializer") => {
                Some(Write::KeepKey)
            }
            "identifier" if go_field_key(node).is_some() => None,
            // a struct literal among a macro's tokens: `P { x }` keeps its
            // key, `P { x: 1 }`'s key is no use
            "identifier" => match rust_macro_key(node, self.source) {
                Some((_, true)) => Some(Write::KeepKey),
                Some((_, false)) => None,
                None => Some(Write::Name),
            },
            _ => Some(Write::Name),
        }
    }

    fn local_sites(&self, old: &str, scope: &Range<usize>, symbol: &Symbol) -> Found {
        let mut found = Found::default();
        let named = self.bare_refs(old);
        // a variable's name in a type's place is a type's (TypeScript's
        // `type total = number; const z: total = total`), and in a Rust
        // path's a module's (`ast::Group` where a local is `ast`)
        let in_type_place = |at: usize| {
            let rust_path = || {
                let after = (at + old.chars().count()).min(self.text.len_chars());
                let mut rest = self.text.chars_at(after).skip_while(|c| c.is_whitespace());
                self.language.id() == "rust" && rest.next() == Some(':') && rest.next() == Some(':')
            };
            symbol.kind == SymbolKind::Local
                && (self
                    .node_at(at)
                    .is_some_and(|n| n.kind() == "type_identifier")
                    || rust_path())
        };
        for r in named.filter(|r| r.binding.as_ref() == Some(scope)) {
            if in_type_place(r.offset) {
                continue;
            }
            if let Some(write) = self.bare_write(r.offset) {
                found.add(r.offset, write);
            }
        }
        // a function declared in a block is an outline symbol too, and a
        // destructuring's shorthand (`const { x } = o`) declares without a
        // use: its name is no reference of the scan
        let at = self.offset(symbol.name_position);
        if !found.sites.iter().any(|s| s.at == at) {
            found.add(at, self.bare_write(at).unwrap_or(Write::Name));
        }
        found
    }

    /// The bare uses of `name` (declarations of locals included).
    fn bare_refs<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s TagRef> + 's {
        self.file
            .refs
            .iter()
            .filter(move |r| r.name == name && r.qualifier == Qualifier::None && r.import.is_none())
    }

    fn top_level_sites(&self, outline: &Outline, symbol: &Symbol) -> Found {
        let mut found = Found::default();
        let old = symbol.name.as_str();
        // its definitions: overloads, a class's constructors (Java)
        for s in &outline.symbols {
            let same = s.parent.is_none() && s.qualified_name == symbol.qualified_name;
            let constructor = symbol.kind == SymbolKind::Class
                && self.language.id() == "java"
                && s.name == old
                && outline
                    .parent(s)
                    .is_some_and(|p| std::ptr::eq(p, symbol) || p.name == old);
            if same || constructor {
                found.add(self.offset(s.name_position), Write::Name);
            }
        }
        for r in self.bare_refs(old).filter(|r| r.binding.is_none()) {
            if let Some(write) = self.bare_write(r.offset) {
                found.add(r.offset, write);
            }
        }
        // Rust: `self::f`, `Self` is a type's own
        for r in &self.file.refs {
            if r.name == old
                && matches!(&r.qualifier, Qualifier::Path(p) if p.len() == 1 && p[0] == "self")
            {
                found.add(r.offset, Write::Name);
            }
        }
        found
    }

    /// The type whose code a use is in (a class, or a method's type).
    fn class_around(&self, r: &TagRef) -> Option<&str> {
        let def = &self.file.defs[r.in_def?];
        match def.kind {
            SymbolKind::Class => Some(def.name.as_str()),
            _ => def
                .container
                .as_deref()
                .or_else(|| def.qualified.rsplit_once('.').map(|(t, _)| t)),
        }
    }

    /// A bare use (at `at`) of `name` inside classes nested in `class`
    /// (Java): `Some(true)` when each class between declares no member
    /// of the name and inherits from nothing (a named inner class without
    /// `extends`/`implements`: the outer class's member), `Some(false)`
    /// when one may inherit it (an anonymous class, one that extends or
    /// implements a type), `None` when a class between declares it or
    /// `class` is not around it.
    fn through_nested_classes(&self, at: usize, class: &str, name: &str) -> Option<bool> {
        let mut node = self.node_at(at)?;
        let mut certain = true;
        let text_of = |n: Node<'_>| self.text.byte_slice(n.byte_range()).to_string();
        // a call names a method, a read a field: Java keeps them apart
        let call = node.parent().is_some_and(|p| {
            p.kind() == "method_invocation" && p.child_by_field_name("name") == Some(node)
        });
        while let Some(parent) = node.parent() {
            node = parent;
            let (body, named, inherits) = match node.kind() {
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration" => (
                    node.child_by_field_name("body"),
                    node.child_by_field_name("name").map(text_of),
                    node.child_by_field_name("superclass").is_some()
                        || node.child_by_field_name("interfaces").is_some()
                        || node.kind() != "class_declaration",
                ),
                "object_creation_expression" => {
                    let mut c = node.walk();
                    let body = node
                        .named_children(&mut c)
                        .find(|n| n.kind() == "class_body");
                    match body {
                        Some(body) => (Some(body), None, true),
                        None => continue,
                    }
                }
                _ => continue,
            };
            if named.as_deref() == Some(class) {
                return Some(certain);
            }
            let declares = body.is_some_and(|body| {
                let mut c = body.walk();
                let found = body
                    .named_children(&mut c)
                    .any(|member| match member.kind() {
                        "method_declaration" if call => member
                            .child_by_field_name("name")
                            .is_some_and(|n| text_of(n) == name),
                        "field_declaration" | "constant_declaration" if !call => {
                            let mut c = member.walk();
                            let found = member.named_children(&mut c).any(|d| {
                                d.kind() == "variable_declarator"
                                    && d.child_by_field_name("name")
                                        .is_some_and(|n| text_of(n) == name)
                            });
                            found
                        }
                        _ => false,
                    });
                found
            });
            if declares {
                return None;
            }
            certain &= !inherits;
        }
        None
    }

    /// Whether the file implements `Deref` for the type `ty` (Rust): a
    /// member it does not declare may be its target's.
    fn dereferences(&self, ty: &str) -> bool {
        self.file.declared.iter().any(|d| {
            d.kind == DeclaredKind::Embedded && d.name == "*" && d.owner.as_deref() == Some(ty)
        })
    }

    /// The type a name is declared with where `r` reads it.
    fn declared_type(&self, name: &str, at: usize) -> Option<&str> {
        let typed = match self.language.id() {
            // (unless a closer binding of unknown type hides it)
            "rust" => self.file.typed_binding(name, at),
            _ => self
                .file
                .typed
                .iter()
                .filter(|t| t.name == name && t.scope.contains(&at))
                .min_by_key(|t| t.scope.end - t.scope.start),
        };
        typed.and_then(|t| {
            // Go's `x := e`: a call of the file's own function alone
            // (below), no other expression's type
            if t.inferred && !t.type_name.ends_with("()") {
                return None;
            }
            if let Some(callee) = t.type_name.strip_suffix("()") {
                // Rust's `let x = T::f(…)`: `T` when the file's `f` of
                // `T` returns it, else a type unknown
                if let Some((owner, function)) = callee.split_once("::") {
                    return self
                        .file
                        .constructors
                        .iter()
                        .any(|(o, f)| o == owner && f == function)
                        .then_some(owner);
                }
                // Go's `x := f(…)`: the type the file's own `f`
                // returns; another package's `f` makes a type unknown
                // (Rust's `f()`: unknown here)
                return match callee.contains('.') || self.language.id() == "rust" {
                    true => None,
                    false => self
                        .file
                        .constructors
                        .iter()
                        .find(|(_, f)| f == callee)
                        .map(|(t, _)| t.as_str()),
                };
            }
            // (Rust's `ast::Span`: a module's type, not the file's)
            match t.type_name.contains("::") {
                true => None,
                false => t.type_name.rsplit('.').next(),
            }
        })
    }

    fn member_sites(&self, outline: &Outline, symbol: &Symbol, class: &str) -> Found {
        let mut found = Found::default();
        let old = symbol.name.as_str();
        // its definitions: overloads, accessors
        for s in &outline.symbols {
            let owner = match outline.parent(s) {
                Some(p) if p.kind == SymbolKind::Class => Some(p.name.as_str()),
                _ => s
                    .qualified_name
                    .rsplit_once('.')
                    .map(|(o, _)| o.split('.').next().unwrap_or(o)),
            };
            if s.name == old
                && owner == Some(class)
                && matches!(s.kind, SymbolKind::Method | SymbolKind::Attribute)
                && s.via_trait.is_none()
                && !kinds_apart(self.language, s.kind, symbol.kind)
            {
                found.add(self.offset(s.name_position), Write::Name);
            }
            // its own declaration whatever its kind (a nested class, a
            // namespace's function), and a nested Java class's
            // constructors
            let own = std::ptr::eq(s, symbol)
                || (symbol.kind == SymbolKind::Class
                    && self.language.id() == "java"
                    && s.name == old
                    && s.kind == SymbolKind::Method
                    && outline.parent(s).is_some_and(|p| std::ptr::eq(p, symbol)));
            if own {
                found.add(self.offset(s.name_position), Write::Name);
            }
        }
        let implicit = crate::analysis::index::tags::family::family_of(self.language)
            .is_some_and(|f| f.implicit_members());
        let apart = |r: &&TagRef| {
            let length = old.chars().count();
            kinds_apart(
                self.language,
                member_kind_at(self.text, r.offset, length),
                symbol.kind,
            )
        };
        for r in (self.file.refs.iter()).filter(|r| r.name == old && !apart(r)) {
            let inside = self.class_around(r) == Some(class);
            let verdict = match &r.qualifier {
                Qualifier::This if inside && !self.in_another_es_class(r.offset, class) => {
                    Some(true)
                }
                // another class that extends one may inherit the member
                Qualifier::This if self.in_es_subclass(r.offset) => Some(false),
                // Rust: a type that dereferences to another reaches its
                // members
                Qualifier::This if self.class_around(r).is_some_and(|c| self.dereferences(c)) => {
                    Some(false)
                }
                Qualifier::This => None,
                Qualifier::None if implicit && r.binding.is_none() && r.import.is_none() => {
                    match inside {
                        true => Some(true),
                        // in a class nested in it (Java's inner and
                        // anonymous classes see the outer class's members)
                        false => self.through_nested_classes(r.offset, class, old),
                    }
                }
                Qualifier::None => None,
                Qualifier::Name(q) => match self.declared_type(q, r.offset) {
                    Some(ty) if ty != class && self.dereferences(ty) => Some(false),
                    // (a generic type's arguments: `B<T> o`)
                    Some(ty) => {
                        (ty.split('<').next().unwrap_or(ty).trim() == class).then_some(true)
                    }
                    None if q == class && !r.local_qualifier => Some(true),
                    None if r.local_qualifier => Some(false),
                    // another type or module of the file
                    None if self.file.defs.iter().any(|d| d.top_level && d.name == *q) => None,
                    None if self.file.imports.iter().any(|i| i.local == *q) => None,
                    None => Some(false),
                },
                Qualifier::Path(p) => match p.last().map(String::as_str) {
                    Some("Self") => inside.then_some(true),
                    Some(t) if t == class => Some(true),
                    _ => None,
                },
                Qualifier::Expression(_) | Qualifier::Other => Some(false),
            };
            match verdict {
                Some(true) => {
                    let write = match self.node_at(r.offset).map(|n| n.kind()) {
                        Some("shorthand_field_identifier") => Write::KeepValue,
                        _ => Write::Name,
                    };
                    found.add(r.offset, write)
                }
                Some(false) => found.possible.push(r.offset),
                None => {}
            }
        }
        self.struct_literal_keys(class, old, &Proven::default(), &mut found);
        // a parameter property is a parameter of its constructor too
        for (at, shorthand) in self.parameter_uses(symbol) {
            found.add(
                at,
                match shorthand {
                    true => Write::KeepKey,
                    false => Write::Name,
                },
            );
        }
        found
    }

    /// A TypeScript parameter property's uses as its constructor's
    /// parameter (`x` and `{ x }` in `constructor(private x: T) { f(x, { x
    /// }) }`), a Java record component's as its explicit canonical
    /// constructor's parameter (its declaration with them), chars, each
    /// with whether it is a shorthand; none for any other symbol.
    fn parameter_uses(&self, symbol: &Symbol) -> Vec<(usize, bool)> {
        // a parameter property's name is its parameter's
        if is_parameter_property(self.text, self.tree, symbol) {
            let at = self.offset(symbol.name_position);
            return self.uses_of_parameter(at, &symbol.name);
        }
        // a Java record's explicit canonical constructor declares a
        // parameter of each component's name: renamed with it
        let position = symbol.name_position;
        let declared = record_components::canonical_parameters(self.text, self.tree, position);
        let mut uses = Vec::new();
        for at in declared {
            uses.push((at, false));
            uses.extend(self.uses_of_parameter(at, &symbol.name));
        }
        uses
    }

    /// The uses of the parameter `name` declared at char `at`, each with
    /// whether it is a shorthand (`{ x }`).
    fn uses_of_parameter(&self, at: usize, name: &str) -> Vec<(usize, bool)> {
        let Some(local) = self.file.locals.iter().find(|l| l.offset == at) else {
            return Vec::new();
        };
        self.file
            .refs
            .iter()
            .filter(|r| {
                r.name == name
                    && r.qualifier == Qualifier::None
                    && r.binding.as_ref() == Some(&local.visible)
            })
            .map(|r| {
                let shorthand = self
                    .node_at(r.offset)
                    .is_some_and(|n| n.kind() == "shorthand_property_identifier");
                (r.offset, shorthand)
            })
            .collect()
    }

    /// The keys naming field `old` in `class`'s struct literals and
    /// patterns (Go `C{X: 1}`, Rust `C { x: 1 }`, `C { x }`); `proven`:
    /// the values of the type the index proves in the file.
    fn struct_literal_keys(&self, class: &str, old: &str, proven: &Proven, found: &mut Found) {
        let mut todo = vec![self.tree.root()];
        while let Some(node) = todo.pop() {
            let mut c = node.walk();
            todo.extend(node.named_children(&mut c));
            let text = &self.source[node.byte_range()];
            if text != old {
                continue;
            }
            let at = byte_to_char(self.text, node.start_byte());
            match node.kind() {
                "identifier" => {
                    if let Some(literal_type) = go_field_key(node) {
                        match literal_type.map(|t| &self.source[t.byte_range()]) {
                            Some(t) if t == class => found.add(at, Write::Name),
                            Some(_) => {}
                            None => found.possible.push(at),
                        }
                    } else if let Some((name, shorthand)) = rust_macro_key(node, self.source) {
                        // `vec![P { x: 1 }]`: a macro's tokens, the same
                        let write = match shorthand {
                            true => Write::KeepValue,
                            false => Write::Name,
                        };
                        match name {
                            n if n == class => found.add(at, write),
                            "Self" => found.possible.push(at),
                            _ => {}
                        }
                    } else if let Some(parent) = node
                        .parent()
                        .filter(|p| p.kind() == "shorthand_field_initializer")
                    {
                        if self.rust_struct_named(parent.parent(), class) {
                            found.add(at, Write::KeepValue);
                        }
                    }
                }
                "field_identifier" => {
                    let Some(parent) = node.parent() else {
                        continue;
                    };
                    let keyed = match parent.kind() {
                        "field_initializer" => parent.child_by_field_name("field"),
                        "field_pattern" => parent.child_by_field_name("name"),
                        _ => None,
                    };
                    if keyed == Some(node) && self.rust_struct_named(parent.parent(), class) {
                        found.add(at, Write::Name);
                    }
                }
                // a destructuring pattern's key (`const { x } = this` in
                // the class, `({ x }: Shape) => …`, `const { x: y } = s`):
                // certain where the pattern is declared as the type or
                // takes `this` in the class, possible elsewhere
                "shorthand_property_identifier_pattern" | "property_identifier"
                    if Self::es_pattern_of_key(node).is_some() =>
                {
                    let Some(pattern) = Self::es_pattern_of_key(node) else {
                        continue;
                    };
                    let shorthand = node.kind() == "shorthand_property_identifier_pattern";
                    match self.es_pattern_is(pattern, node, class) {
                        true if shorthand => found.add(at, Write::KeepValue),
                        true => found.add(at, Write::Name),
                        false => found.possible.push(at),
                    }
                }
                // a JSX attribute (`<Tag label="x" />`): a key of the
                // props object the element passes its component, which
                // may be a value of the type
                "property_identifier"
                    if node.parent().is_some_and(|p| p.kind() == "jsx_attribute") =>
                {
                    let tag = node
                        .parent()
                        .and_then(|attribute| attribute.parent())
                        .and_then(|element| element.child_by_field_name("name"));
                    let of_the_type = tag.is_some_and(|t| {
                        proven
                            .jsx_tags
                            .contains(&byte_to_char(self.text, t.start_byte()))
                    });
                    match of_the_type {
                        true => found.add(at, Write::Name),
                        false => found.possible.push(at),
                    }
                }
                // a key written as a string (`s["x"]`, `{ "x": 1 }`): the
                // member's name in a string, which the index cannot type
                "string_fragment" if Self::es_string_key(node) => found.possible.push(at),
                // in TypeScript any other string of the name but a
                // module's: it may be a value of a `keyof` type (`const k:
                // keyof S = "x"`, `get(s, "x")`), which tsc holds to the
                // member's name
                "string_fragment"
                    if matches!(self.language.id(), "typescript" | "tsx")
                        && self.es_string_may_be_keyof(node) =>
                {
                    found.possible.push(at)
                }
                // an object literal's key (`{ area: f }`, `{ area() {} }`,
                // `{ area }`): JavaScript's and TypeScript's types are
                // structural, so the object may be a value of the type —
                // certain where the literal is declared as it (`const s:
                // Shape = {…}`, `{…} as Shape`, `satisfies Shape`, `return
                // {…}` in a function returning it) or passed a parameter
                // declared as it (`proven.literals`), possible elsewhere
                "property_identifier" | "shorthand_property_identifier" => {
                    let Some(parent) = node.parent() else {
                        continue;
                    };
                    let literal = match parent.kind() {
                        "object" => Some(parent),
                        "pair" if parent.child_by_field_name("key") == Some(node) => {
                            parent.parent()
                        }
                        "method_definition" if parent.child_by_field_name("name") == Some(node) => {
                            parent.parent()
                        }
                        _ => None,
                    };
                    let Some(literal) = literal.filter(|l| l.kind() == "object") else {
                        continue;
                    };
                    let typed = self.es_declared_type(literal) == Some(class)
                        || proven
                            .literals
                            .contains(&byte_to_char(self.text, literal.start_byte()));
                    match typed {
                        true if node.kind() == "shorthand_property_identifier" => {
                            found.add(at, Write::KeepValue)
                        }
                        true => found.add(at, Write::Name),
                        false => found.possible.push(at),
                    }
                }
                "shorthand_field_identifier" => {
                    let pattern = node.parent().and_then(|p| p.parent());
                    if self.rust_struct_named(pattern, class)
                        && !found.sites.iter().any(|s| s.at == at)
                    {
                        found.add(at, Write::KeepValue);
                    }
                }
                _ => {}
            }
        }
    }

    /// The object pattern whose key `node` is (`{ x }`, `{ x: y }`).
    fn es_pattern_of_key(node: Node<'_>) -> Option<Node<'_>> {
        let parent = node.parent()?;
        match parent.kind() {
            "object_pattern" if node.kind() == "shorthand_property_identifier_pattern" => {
                Some(parent)
            }
            "pair_pattern" if parent.child_by_field_name("key") == Some(node) => {
                parent.parent().filter(|p| p.kind() == "object_pattern")
            }
            _ => None,
        }
    }

    /// Whether a destructuring pattern surely takes a value of `class`:
    /// declared as it (`const { x }: C = …`, a parameter `({ x }: C)`) or
    /// taking `this` in the class.
    fn es_pattern_is(&self, pattern: Node<'_>, key: Node<'_>, class: &str) -> bool {
        let Some(holder) = pattern.parent() else {
            return false;
        };
        let declared = match holder.kind() {
            "variable_declarator" | "required_parameter" | "optional_parameter" => holder
                .child_by_field_name("type")
                .and_then(|t| t.named_child(0)),
            _ => None,
        };
        if let Some(declared) = declared {
            return declared.kind() == "type_identifier"
                && &self.source[declared.byte_range()] == class;
        }
        let value = match holder.kind() {
            "variable_declarator" => holder.child_by_field_name("value"),
            "assignment_expression" => holder.child_by_field_name("right"),
            _ => None,
        };
        value.is_some_and(|v| v.kind() == "this") && self.es_class_of(key) == Some(class)
    }

    /// Whether a string's text is a member's key: `o["x"]`, `{ "x": 1 }`,
    /// `const { "x": y } = o`, a literal type (`Omit<Shape, "x">`).
    fn es_string_key(fragment: Node<'_>) -> bool {
        let Some(string) = fragment.parent().filter(|s| s.kind() == "string") else {
            return false;
        };
        let Some(holder) = string.parent() else {
            return false;
        };
        match holder.kind() {
            "subscript_expression" => holder.child_by_field_name("index") == Some(string),
            "pair" | "pair_pattern" => holder.child_by_field_name("key") == Some(string),
            // a string literal type (`Pick<Shape, "x">`, `keyof` values)
            "literal_type" => true,
            _ => false,
        }
    }

    /// Whether a string fragment is a whole string (`"x"`, `` `x` ``)
    /// that is not a module's name (an import's or export's source,
    /// `require("x")`, `import("x")`, `declare module "x"`).
    fn es_string_may_be_keyof(&self, fragment: Node<'_>) -> bool {
        let Some(string) = fragment.parent() else {
            return false;
        };
        let whole = matches!(string.kind(), "string" | "template_string")
            && string.named_child_count() == 1;
        let Some(holder) = string.parent() else {
            return false;
        };
        let module_name = match holder.kind() {
            "import_statement" | "export_statement" | "import_require_clause" | "module" => true,
            "arguments" => holder
                .parent()
                .and_then(|call| call.child_by_field_name("function"))
                .is_some_and(|f| matches!(&self.source[f.byte_range()], "require" | "import")),
            _ => false,
        };
        whole && !module_name
    }

    /// The type an object literal is declared as, by its name: `const s:
    /// Shape = {…}`, `{…} as Shape`, `{…} satisfies Shape`, a field's or a
    /// parameter's default value (`s: Shape = {…}`), an element of `const
    /// a: Shape[] = [{…}]`, the value a function declared to return
    /// `Shape` returns (`return {…}`, `(): Shape => ({…})`).
    fn es_declared_type(&self, literal: Node<'_>) -> Option<&str> {
        let parent = literal.parent()?;
        let written = match parent.kind() {
            "variable_declarator"
            | "public_field_definition"
            | "required_parameter"
            | "optional_parameter"
                if parent.child_by_field_name("value") == Some(literal) =>
            {
                let annotation = parent.child_by_field_name("type")?;
                annotation.named_child(0)?
            }
            "array" => {
                let declarator = parent
                    .parent()
                    .filter(|d| d.kind() == "variable_declarator")
                    .filter(|d| d.child_by_field_name("value") == Some(parent))?;
                let annotation = declarator.child_by_field_name("type")?;
                let array = annotation
                    .named_child(0)
                    .filter(|a| a.kind() == "array_type")?;
                array.named_child(0)?
            }
            "return_statement" => Self::es_return_type(parent)?,
            "parenthesized_expression" => {
                let arrow = parent
                    .parent()
                    .filter(|a| a.kind() == "arrow_function")
                    .filter(|a| a.child_by_field_name("body") == Some(parent))?;
                arrow.child_by_field_name("return_type")?.named_child(0)?
            }
            "as_expression" | "satisfies_expression" => {
                let mut c = parent.walk();
                let last = parent.named_children(&mut c).last()?;
                (last != literal).then_some(last)?
            }
            _ => return None,
        };
        (written.kind() == "type_identifier").then(|| &self.source[written.byte_range()])
    }

    /// The return type written on the function a `return` statement
    /// returns from (`function f(): Shape`).
    fn es_return_type(statement: Node<'_>) -> Option<Node<'_>> {
        let mut at = statement.parent();
        while let Some(n) = at {
            match n.kind() {
                "function_declaration"
                | "function_expression"
                | "arrow_function"
                | "method_definition" => {
                    return n.child_by_field_name("return_type")?.named_child(0);
                }
                // (a generator's `return` is no value of its return type)
                "generator_function_declaration" | "generator_function" | "class_body" => {
                    return None
                }
                _ => at = n.parent(),
            }
        }
        None
    }

    /// The JavaScript or TypeScript class around `node`.
    fn es_class_around<'t>(node: Node<'t>) -> Option<Node<'t>> {
        let mut at = node.parent();
        while let Some(n) = at {
            if matches!(
                n.kind(),
                "class_declaration" | "class" | "abstract_class_declaration"
            ) {
                return Some(n);
            }
            at = n.parent();
        }
        None
    }

    /// The name of the JavaScript or TypeScript class around `node`.
    fn es_class_of(&self, node: Node<'_>) -> Option<&str> {
        let name = Self::es_class_around(node)?.child_by_field_name("name")?;
        Some(&self.source[name.byte_range()])
    }

    /// Whether the class nearest around char `at` is one other than
    /// `class`: a class expression in its method (`return class { … }`),
    /// whose `this` is its own.
    fn in_another_es_class(&self, at: usize, class: &str) -> bool {
        let around = self.node_at(at).and_then(Self::es_class_around);
        around.is_some_and(|around| {
            let name = around
                .child_by_field_name("name")
                .map(|n| &self.source[n.byte_range()]);
            name != Some(class.rsplit('.').next().unwrap_or(class))
        })
    }

    /// Whether char `at` is in a JavaScript or TypeScript class that
    /// extends another (`this.x` there may be an inherited member).
    fn in_es_subclass(&self, at: usize) -> bool {
        let class = self.node_at(at).and_then(Self::es_class_around);
        class.is_some_and(|class| {
            let mut c = class.walk();
            let extends = class.children(&mut c).any(|k| k.kind() == "class_heritage");
            extends
        })
    }

    /// Whether a Rust `field_initializer_list` or `struct_pattern` is
    /// `class`'s (`C { … }`, `Self { … }` in `C`'s `impl`).
    fn rust_struct_named(&self, node: Option<Node<'_>>, class: &str) -> bool {
        let Some(mut node) = node else {
            return false;
        };
        if node.kind() == "field_initializer_list" {
            match node.parent() {
                Some(p) => node = p,
                None => return false,
            }
        }
        let name = match node.kind() {
            "struct_expression" => node.child_by_field_name("name"),
            "struct_pattern" => node.child_by_field_name("type"),
            _ => None,
        };
        let Some(name) = name else {
            return false;
        };
        let written = &self.source[name.byte_range()];
        let last = written.rsplit("::").next().unwrap_or(written);
        if last == "Self" {
            return self.impl_type_around(node) == Some(class);
        }
        last == class
    }

    /// The type of the Rust `impl` block around a node.
    fn impl_type_around(&self, node: Node<'_>) -> Option<&str> {
        let mut at = node.parent();
        while let Some(n) = at {
            if n.kind() == "impl_item" {
                let ty = n.child_by_field_name("type")?;
                let ty = match ty.kind() {
                    "generic_type" => ty.child_by_field_name("type")?,
                    _ => ty,
                };
                return Some(&self.source[ty.byte_range()]);
            }
            at = n.parent();
        }
        None
    }

    /// Whether two scopes bind names as one: the same scope, a function
    /// and its body's block, and in Java any two nested scopes.
    fn one_frame(&self, a: &Range<usize>, b: &Range<usize>) -> bool {
        if a == b {
            return true;
        }
        let nested = |x: &Range<usize>, y: &Range<usize>| x.start <= y.start && y.end <= x.end;
        if self.language.id() == "java" {
            return nested(a, b) || nested(b, a);
        }
        let node = |r: &Range<usize>| {
            let (start, end) = (
                self.text.char_to_byte(r.start),
                self.text.char_to_byte(r.end),
            );
            self.tree.root().descendant_for_byte_range(start, end)
        };
        let body_of = |outer: &Range<usize>, inner: &Range<usize>| {
            let (Some(outer), Some(inner)) = (node(outer), node(inner)) else {
                return false;
            };
            inner.parent() == Some(outer) && outer.child_by_field_name("body") == Some(inner)
        };
        body_of(a, b) || body_of(b, a)
    }

    /// Refuses a new name the scope (or type) binds already, one an inner
    /// binding would take a renamed use from, and one a use reads that
    /// the renamed binding would hide.
    fn check_conflicts(
        &self,
        what: &Renamed,
        old: &str,
        new: &str,
        found: &Found,
        outline: &Outline,
        symbol: &Symbol,
    ) -> Result<(), OpError> {
        let line_of = |at: usize| self.text.char_to_line(at) + 1;
        let conflict = |why: String| {
            Err(OpError::new(
                ErrorKind::Conflict,
                format!("Name conflict: {why}; choose another name"),
            ))
        };
        let sites: Vec<usize> = found.sites.iter().map(|s| s.at).collect();
        // the scope the renamed binding lives in (the whole file for a
        // module-level name)
        let whole = 0..self.text.len_chars();
        let (scope, frame) = match what {
            Renamed::Local { visible, scope } => (visible.clone(), scope.clone()),
            Renamed::TopLevel => (whole.clone(), whole.clone()),
            Renamed::Member(class) => {
                if let Some(other) = outline.symbols.iter().find(|s| {
                    s.name == new
                        && outline
                            .parent(s)
                            .is_some_and(|p| p.name == *class && p.kind == SymbolKind::Class)
                }) {
                    return conflict(format!(
                        "{class} already has {new} (line {})",
                        other.name_position.line + 1
                    ));
                }
                // a parameter property's uses as a parameter: a name the
                // constructor binds around them would take them over
                let uses = self.parameter_uses(symbol);
                if let Some(local) = self
                    .file
                    .locals
                    .iter()
                    .find(|l| l.name == new && uses.iter().any(|(at, _)| l.scope.contains(at)))
                {
                    return conflict(format!(
                        "the constructor binds {new} (line {}), where it reads the parameter {old}",
                        local.start.line + 1
                    ));
                }
                let used = self.file.refs.iter().find(|r| {
                    r.name == new
                        && r.qualifier == Qualifier::This
                        && self.class_around(r) == Some(class.as_str())
                });
                if let Some(r) = used {
                    return conflict(format!(
                        "{class}'s code already reads {new} through this/self (line {})",
                        r.start.line + 1
                    ));
                }
                // a use by its bare name (Java) where a local of the new
                // name is visible would read the local
                let bare = sites.iter().filter(|&&at| {
                    self.file
                        .refs
                        .iter()
                        .any(|r| r.offset == at && r.qualifier == Qualifier::None)
                });
                for &at in bare {
                    if let Some(l) = self
                        .file
                        .locals
                        .iter()
                        .find(|l| l.name == new && l.visible.contains(&at))
                    {
                        return conflict(format!(
                            "{new} is bound at line {} where {old} is read by its bare name (line {}), which would then read it",
                            l.start.line + 1,
                            line_of(at)
                        ));
                    }
                }
                return Ok(());
            }
        };
        // bound already in the same scope (a function's parameters and
        // its body's outermost block are one; Java binds a name once in a
        // method, nested blocks included)
        let same_scope = self
            .file
            .locals
            .iter()
            .find(|l| l.name == new && self.one_frame(&l.scope, &frame));
        if let Some(l) = same_scope {
            return conflict(format!(
                "{new} is already bound in this scope (line {})",
                l.start.line + 1
            ));
        }
        if matches!(what, Renamed::TopLevel) {
            let defined = outline
                .symbols
                .iter()
                .find(|s| s.parent.is_none() && s.name == new);
            if let Some(s) = defined {
                return conflict(format!(
                    "the file already defines {new} (line {})",
                    s.name_position.line + 1
                ));
            }
            if self.file.imports.iter().any(|i| i.local == new) {
                return conflict(format!("the file already imports {new}"));
            }
        }
        // an inner binding of the new name would take a renamed use
        for l in self.file.locals.iter().filter(|l| l.name == new) {
            let inner =
                frame.start <= l.scope.start && l.scope.end <= frame.end && l.scope != frame;
            if inner && sites.iter().any(|at| l.visible.contains(at)) {
                return conflict(format!(
                    "{new} is bound at line {} in a scope where {old} is used, which would then read it",
                    l.start.line + 1
                ));
            }
        }
        // a use of the new name in the scope that reads an outer binding
        // (or a global, a builtin) would read the renamed one
        for r in self.bare_refs(new) {
            let reads_outer = match &r.binding {
                None => true,
                Some(b) => !(scope.start <= b.start && b.end <= scope.end),
            };
            if reads_outer && scope.contains(&r.offset) && self.bare_write(r.offset).is_some() {
                return conflict(format!(
                    "{new} is used at line {} for another binding, which {} would hide",
                    line_of(r.offset),
                    symbol.qualified_name
                ));
            }
        }
        Ok(())
    }
}

/// Whether a member of `kind` is apart from one of `other`: Java and
/// Rust keep a type's fields and methods apart (`label` and `label()`
/// may both be, and are two members).
pub fn kinds_apart(language: &dyn Language, kind: SymbolKind, other: SymbolKind) -> bool {
    let kinds = [kind, other];
    matches!(language.id(), "java" | "rust")
        && kinds.contains(&SymbolKind::Method)
        && kinds.contains(&SymbolKind::Attribute)
}

/// What the member name at char `at` (of `length` chars) reads by its
/// syntax: a method when called (`x.m(`, Rust's `x.m::<T>(`) or named
/// by a path (`T::m`, Java's `x::m`), else a field.
pub fn member_kind_at(text: &Rope, at: usize, length: usize) -> SymbolKind {
    let end = (at + length).min(text.len_chars());
    let after: String = text.chars_at(end).take(64).collect();
    let after = after.trim_start();
    let before: String = text.slice(at.saturating_sub(2)..at).to_string();
    if after.starts_with('(') || after.starts_with("::<") || before == "::" {
        SymbolKind::Method
    } else {
        SymbolKind::Attribute
    }
}

/// For an identifier that is the key of a Go composite literal's keyed
/// element (`C{X: 1}`): `Some` with the literal's type when it is a named
/// type (`C`, `pkg.C`, the element type of `[]C{{X: 1}}`), `Some(None)`
/// when the type cannot be told; `None` when it is no key, or a map's
/// (whose keys are expressions).
/// Whether the name at char `at` of a Go file is a struct literal's field
/// key (`E{Kind: 1}`): no use of a package-level name it spells.
pub fn is_go_field_key(text: &Rope, tree: &SyntaxTree, at: usize) -> bool {
    let byte = text.char_to_byte(at.min(text.len_chars()));
    tree.root()
        .named_descendant_for_byte_range(byte, byte)
        .filter(|n| n.kind() == "identifier")
        .and_then(go_field_key)
        .is_some()
}

fn go_field_key(node: Node<'_>) -> Option<Option<Node<'_>>> {
    let element = node.parent().filter(|p| p.kind() == "literal_element")?;
    let keyed = element.parent().filter(|p| p.kind() == "keyed_element")?;
    if keyed.child_by_field_name("key") != Some(element) {
        return None;
    }
    let mut value = keyed.parent().filter(|p| p.kind() == "literal_value")?;
    // an elided type (`[]C{{X: 1}}`, `map[string]C{"a": {X: 1}}`,
    // `map[C]bool{{X: 2}: true}`): the element, value or key type of the
    // literal around, each step outward saying which
    let mut elided: Vec<bool> = Vec::new(); // true: a map's key
    loop {
        let parent = value.parent()?;
        match parent.kind() {
            "composite_literal" => {
                let mut ty = parent.child_by_field_name("type")?;
                for &key in elided.iter().rev() {
                    ty = match ty.kind() {
                        "slice_type" | "array_type" | "implicit_length_array_type" => {
                            ty.child_by_field_name("element")?
                        }
                        "map_type" if key => ty.child_by_field_name("key")?,
                        "map_type" => ty.child_by_field_name("value")?,
                        _ => return Some(None),
                    };
                }
                return match ty.kind() {
                    "map_type" => None,
                    "type_identifier" => Some(Some(ty)),
                    "qualified_type" => Some(ty.child_by_field_name("name")),
                    "pointer_type" => Some(None),
                    _ => Some(None),
                };
            }
            "literal_element" => {
                let up = parent.parent()?;
                value = match up.kind() {
                    // a keyed element's key or value
                    "keyed_element" => {
                        elided.push(up.child_by_field_name("key") == Some(parent));
                        up.parent().filter(|p| p.kind() == "literal_value")?
                    }
                    "literal_value" => {
                        elided.push(false);
                        up
                    }
                    _ => return Some(None),
                };
            }
            _ => return Some(None),
        }
    }
}

/// Rust: a local's new name that a pattern reads as a path, not as a
/// binding — a constant, a static, a unit struct or variant the file
/// declares or imports, or the prelude's `None` (`let MAX = …` matches
/// the constant: E0005, E0308).
fn refuse_rust_pattern_name(
    file: &TagsFile,
    outline: &Outline,
    symbol: &Symbol,
    new_name: &str,
) -> Result<(), OpError> {
    let declared = outline.symbols.iter().any(|s| {
        s.name == new_name
            && s.kind != SymbolKind::Local
            && !s.kind.is_callable()
            && outline.parent(s).is_none()
    });
    let imported = file.imports.iter().any(|i| i.local == new_name);
    let prelude = matches!(new_name, "None" | "Some" | "Ok" | "Err");
    if declared || (imported && new_name.starts_with(char::is_uppercase)) || prelude {
        return Err(OpError::new(
            ErrorKind::Conflict,
            format!(
                "Name conflict: {new_name} names a constant, static, unit struct or variant here, which a pattern reads as that item, not as a new binding; {} would no longer bind; choose another name",
                symbol.qualified_name
            ),
        ));
    }
    Ok(())
}

/// Go: what ties a type's names to others' in ways a rename of one file
/// does not follow — a type embedded in a struct (its field is named by
/// the type: `w.Base`, `W{Base: …}`; its members are promoted: `w.Hello()`),
/// a type embedding others (a member's new name may take a promoted one's
/// place), an interface declaring a method of the old or new name (the
/// type may implement it): refused, naming `Refactor RenameSymbol`,
/// which checks them across the package.
fn refuse_go_embedding(
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
    owner: Option<&str>,
    new_name: &str,
) -> Result<(), OpError> {
    let member = matches!(symbol.kind, SymbolKind::Method | SymbolKind::Attribute);
    let (old, class) = match (symbol.kind, owner) {
        (SymbolKind::Class, _) => (symbol.name.as_str(), symbol.name.as_str()),
        (_, Some(owner)) if member => (symbol.name.as_str(), owner),
        // a method declared apart from its type: `T.m`
        _ if member => match symbol.qualified_name.rsplit_once('.') {
            Some((class, _)) => (symbol.name.as_str(), class),
            None => return Ok(()),
        },
        _ => return Ok(()),
    };
    let source = text.to_string();
    let mut embedding: Vec<(String, String)> = Vec::new();
    let mut interface_methods: Vec<String> = Vec::new();
    let mut todo = vec![tree.root()];
    while let Some(node) = todo.pop() {
        match node.kind() {
            "field_declaration" if node.child_by_field_name("name").is_none() => {
                let embedded = node
                    .child_by_field_name("type")
                    .and_then(|t| go_type_name(t, &source));
                let struct_name = node
                    .parent()
                    .and_then(|l| l.parent())
                    .and_then(|st| st.parent())
                    .filter(|spec| spec.kind() == "type_spec")
                    .and_then(|spec| spec.child_by_field_name("name"))
                    .map(|n| source[n.byte_range()].to_string());
                if let Some(embedded) = embedded {
                    embedding.push((struct_name.unwrap_or_default(), embedded));
                }
            }
            "method_elem" => {
                if let Some(n) = node.child_by_field_name("name") {
                    // an interface's own method: refused as such elsewhere
                    if byte_to_char(text, n.start_byte())
                        == crate::edit::position::to_char(text, symbol.name_position).unwrap_or(0)
                    {
                        return Ok(());
                    }
                    interface_methods.push(source[n.byte_range()].to_string());
                }
            }
            _ => {}
        }
        let mut c = node.walk();
        todo.extend(node.named_children(&mut c));
    }
    let why = if symbol.kind == SymbolKind::Class {
        embedding
            .iter()
            .find(|(_, e)| e == old)
            .map(|(s, _)| format!("{s} embeds it: its field is named by the type ({}.{old}, {s}{{{old}: …}}) and its members are promoted", s.to_lowercase()))
    } else if let Some((s, _)) = embedding.iter().find(|(_, e)| e == class) {
        Some(format!("{s} embeds {class}: {old} is promoted to it"))
    } else if let Some((_, e)) = embedding.iter().find(|(s, _)| s == class) {
        Some(format!(
            "{class} embeds {e}, whose members are promoted to it"
        ))
    } else if symbol.kind == SymbolKind::Method {
        interface_methods
            .iter()
            .find(|m| *m == old || *m == new_name)
            .map(|m| {
                format!(
                    "an interface of the file declares a method {m}, which {class} may implement"
                )
            })
    } else {
        None
    };
    match why {
        Some(why) => Err(OpError::new(
            ErrorKind::NotApplicable,
            format!(
                "Cannot rename {} in this file: {why}; Refactor RenameSymbol {} {new_name} checks and renames what follows from it",
                symbol.qualified_name, symbol.qualified_name
            ),
        )),
        None => Ok(()),
    }
}

/// Rust: a field's key in a struct literal among a macro's tokens
/// (`vec![P { x: 1 }]`, `assert_eq!(P { x }, p)`): the struct's name as
/// written before the braces (a capitalised name, or `Self`), and whether
/// the key is a shorthand (`P { x }`).
fn rust_macro_key<'s>(node: Node<'_>, source: &'s str) -> Option<(&'s str, bool)> {
    let tokens = node.parent().filter(|p| p.kind() == "token_tree")?;
    if tokens.child(0).map(|b| b.kind()) != Some("{") {
        return None;
    }
    let before = node.prev_sibling()?;
    if !matches!(before.kind(), "{" | ",") {
        return None;
    }
    let shorthand = match node.next_sibling()?.kind() {
        ":" => false,
        "," | "}" => true,
        _ => return None,
    };
    let name = tokens.prev_sibling().filter(|n| n.kind() == "identifier")?;
    let name = &source[name.byte_range()];
    name.starts_with(|c: char| c.is_ascii_uppercase())
        .then_some((name, shorthand))
}

/// The name of a Go type as written (`T`, `*T`, `pkg.T`, `T[int]`).
fn go_type_name(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "type_identifier" => Some(source[node.byte_range()].to_string()),
        "qualified_type" => node
            .child_by_field_name("name")
            .map(|n| source[n.byte_range()].to_string()),
        "pointer_type" | "generic_type" => {
            let inner = node
                .child_by_field_name("type")
                .or_else(|| node.named_child(0))?;
            go_type_name(inner, source)
        }
        _ => None,
    }
}

fn position_of(text: &Rope, at: usize) -> Position {
    let line = text.char_to_line(at);
    Position::new(line, at - text.line_to_char(line))
}

fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// Rust: the traits a file's `impl Trait for Type` blocks implement for
/// the type named `ty` (by their last path segment, without type
/// arguments: `fmt::Display` is `Display`).
pub fn rust_traits_implemented(text: &Rope, tree: &SyntaxTree, ty: &str) -> Vec<String> {
    fn base_name(text: &Rope, node: Node<'_>) -> String {
        let node = match node.kind() {
            "generic_type" => node.child_by_field_name("type").unwrap_or(node),
            _ => node,
        };
        let node = match node.kind() {
            "scoped_type_identifier" => node.child_by_field_name("name").unwrap_or(node),
            _ => node,
        };
        text.byte_slice(node.byte_range()).to_string()
    }
    let mut found = Vec::new();
    let mut todo = vec![tree.root()];
    while let Some(node) = todo.pop() {
        if node.kind() == "impl_item" {
            let (Some(implemented), Some(of)) = (
                node.child_by_field_name("trait"),
                node.child_by_field_name("type"),
            ) else {
                continue;
            };
            if base_name(text, of) == ty {
                found.push(base_name(text, implemented));
            }
            continue;
        }
        // impls are items: of the file, or of its modules and functions
        let mut c = node.walk();
        todo.extend(node.named_children(&mut c).filter(|n| {
            matches!(
                n.kind(),
                "impl_item" | "mod_item" | "declaration_list" | "function_item" | "block"
            )
        }));
    }
    found
}

/// A supertype a class declaration names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Supertype {
    /// A type by its name as written, without type arguments (`a.b.Base`
    /// of `a.b.Base<T>`).
    Named(String),
    /// What a JavaScript class extends when it is no name (`mixin(Base)`).
    Expression(String),
}

/// The supertypes the class (interface, enum, record) declaration at
/// `definition` (chars) names after `extends` and `implements`, in order.
pub fn supertypes(text: &Rope, tree: &SyntaxTree, definition: Range<usize>) -> Vec<Supertype> {
    let end = definition.end.min(text.len_chars());
    let (start, end) = (
        text.char_to_byte(definition.start.min(end)),
        text.char_to_byte(end),
    );
    let Some(mut node) = tree.root().descendant_for_byte_range(start, end) else {
        return Vec::new();
    };
    // `export class …`: the declaration the statement exports
    if let Some(declaration) = node.child_by_field_name("declaration") {
        node = declaration;
    }
    let header_end = node
        .child_by_field_name("body")
        .map_or(node.end_byte(), |b| b.start_byte());
    // the header without its comments (`@SuppressWarnings(…) // implements
    // X` above `final class Logging implements X`: the comment's words
    // were read as supertypes)
    let mut comments = Vec::new();
    comments_before(node, header_end, &mut comments);
    let mut header = String::new();
    let mut at = node.start_byte();
    for comment in comments {
        header.push_str(&text.byte_slice(at..comment.start.max(at)).to_string());
        header.push(' ');
        at = comment.end.max(at);
    }
    header.push_str(&text.byte_slice(at..header_end.max(at)).to_string());
    supertypes_in(&header)
}

/// The byte ranges of the comments in `node` that begin before `end`.
fn comments_before(node: Node<'_>, end: usize, found: &mut Vec<Range<usize>>) {
    let mut c = node.walk();
    for child in node.children(&mut c) {
        if child.start_byte() >= end {
            break;
        }
        if child.kind().contains("comment") {
            found.push(child.start_byte()..child.end_byte().min(end));
        } else {
            comments_before(child, end, found);
        }
    }
}

/// The supertypes a declaration's header (up to its body) names: what
/// follows `extends` and `implements` outside its type parameters, up to
/// Java's `permits` (subclasses, not supertypes).
fn supertypes_in(header: &str) -> Vec<Supertype> {
    let mut found = Vec::new();
    let mut item = String::new();
    let mut listing = false;
    let (mut angles, mut parens) = (0usize, 0usize);
    let mut word = String::new();
    let finish = |item: &mut String, found: &mut Vec<Supertype>| {
        let written = item.trim();
        if !written.is_empty() {
            let is_name = written.split('.').all(|part| {
                part.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                    && part
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            });
            found.push(match is_name {
                true => Supertype::Named(written.to_string()),
                false => Supertype::Expression(written.to_string()),
            });
        }
        item.clear();
    };
    let mut chars = header.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' || c == '$' {
            word.push(c);
        } else {
            word.clear();
        }
        let at_top = angles == 0 && parens == 0;
        match c {
            '<' => angles += 1,
            '>' => angles = angles.saturating_sub(1),
            '=' if chars.peek() == Some(&'>') => {
                // an arrow in a type argument (`Foo<() => void>`)
                chars.next();
                continue;
            }
            '(' => parens += 1,
            ')' => parens = parens.saturating_sub(1),
            _ => {}
        }
        let boundary = !chars
            .peek()
            .is_some_and(|n| n.is_alphanumeric() || *n == '_' || *n == '$');
        if at_top && boundary && matches!(word.as_str(), "extends" | "implements" | "permits") {
            // the keyword's letters went into the item: take them back
            let keep = (item.len() + 1).saturating_sub(word.len());
            item.truncate(keep);
            finish(&mut item, &mut found);
            listing = word != "permits";
            word.clear();
            continue;
        }
        if !listing {
            continue;
        }
        match c {
            ',' if at_top => finish(&mut item, &mut found),
            // a type's arguments are not its name
            '<' | '>' => {}
            _ if angles > 0 => {}
            _ => item.push(c),
        }
    }
    finish(&mut item, &mut found);
    found
}

/// Refuses a name that is not an identifier of `language`, or is one of
/// its keywords.
/// The interface (or protocol) outside the project that a type's method
/// named `name` may implement, so that code Eddi does not see calls it by
/// that name (`errors.Is` calls `Unwrap`, `fmt` calls `String`,
/// `JSON.stringify` calls `toJSON`). `has` says whether the type has a
/// method of a name (Go: a type implements an interface when it has all
/// of its methods); `declaration` is the type's text (Java: a class
/// implements what its declaration names; JavaScript: React calls a
/// component's lifecycle methods, the iterator protocol needs
/// `Symbol.iterator`).
pub fn external_interface(
    language: &dyn Language,
    name: &str,
    has: impl Fn(&str) -> bool,
    declaration: &str,
) -> Option<&'static str> {
    let header = declaration.split('{').next().unwrap_or(declaration);
    // (interface, its methods, a word the declaration must hold)
    type Table = &'static [(&'static str, &'static [&'static str], Option<&'static str>)];
    let table: Table = match language.id() {
        "go" => &[
            ("the error interface", &["Error"], None),
            (
                "the interface errors.Is, errors.As and errors.Unwrap call",
                &["Unwrap"],
                None,
            ),
            ("the interface errors.Is calls", &["Is"], None),
            ("the interface errors.As calls", &["As"], None),
            ("fmt.Stringer", &["String"], None),
            ("fmt.GoStringer", &["GoString"], None),
            ("fmt.Formatter", &["Format"], None),
            ("fmt.Scanner or database/sql.Scanner", &["Scan"], None),
            ("io.Reader", &["Read"], None),
            ("io.Writer", &["Write"], None),
            ("io.Closer", &["Close"], None),
            ("io.Seeker", &["Seek"], None),
            ("io.ReaderFrom", &["ReadFrom"], None),
            ("io.WriterTo", &["WriteTo"], None),
            ("io.ReaderAt", &["ReadAt"], None),
            ("io.WriterAt", &["WriteAt"], None),
            ("io.ByteReader", &["ReadByte"], None),
            ("io.ByteScanner", &["ReadByte", "UnreadByte"], None),
            ("io.RuneReader", &["ReadRune"], None),
            ("io.RuneScanner", &["ReadRune", "UnreadRune"], None),
            ("io.ByteWriter", &["WriteByte"], None),
            ("io.StringWriter", &["WriteString"], None),
            ("sort.Interface", &["Len", "Less", "Swap"], None),
            (
                "container/heap.Interface",
                &["Len", "Less", "Swap", "Push", "Pop"],
                None,
            ),
            ("net/http.Handler", &["ServeHTTP"], None),
            ("net/http.RoundTripper", &["RoundTrip"], None),
            ("encoding/json.Marshaler", &["MarshalJSON"], None),
            ("encoding/json.Unmarshaler", &["UnmarshalJSON"], None),
            ("encoding.TextMarshaler", &["MarshalText"], None),
            ("encoding.TextUnmarshaler", &["UnmarshalText"], None),
            ("encoding.BinaryMarshaler", &["MarshalBinary"], None),
            ("encoding.BinaryUnmarshaler", &["UnmarshalBinary"], None),
            ("encoding/xml.Marshaler", &["MarshalXML"], None),
            ("encoding/xml.Unmarshaler", &["UnmarshalXML"], None),
            ("encoding/gob.GobEncoder", &["GobEncode"], None),
            ("encoding/gob.GobDecoder", &["GobDecode"], None),
            ("database/sql/driver.Valuer", &["Value"], None),
            ("flag.Value", &["String", "Set"], None),
            ("net.Error", &["Error", "Timeout", "Temporary"], None),
            (
                "context.Context",
                &["Deadline", "Done", "Err", "Value"],
                None,
            ),
            (
                "hash.Hash",
                &["Write", "Sum", "Reset", "Size", "BlockSize"],
                None,
            ),
            ("sync.Locker", &["Lock", "Unlock"], None),
        ],
        "java" => &[
            ("java.lang.Object", &["toString"], None),
            ("java.lang.Object", &["equals"], None),
            ("java.lang.Object", &["hashCode"], None),
            ("java.lang.Object", &["clone"], None),
            ("java.lang.Object", &["finalize"], None),
            ("java.lang.Comparable", &["compareTo"], Some("Comparable")),
            ("java.lang.Runnable", &["run"], Some("Runnable")),
            ("java.lang.AutoCloseable", &["close"], Some("Closeable")),
            ("java.lang.Iterable", &["iterator"], Some("Iterable")),
            ("java.lang.CharSequence", &["length"], Some("CharSequence")),
            ("java.lang.CharSequence", &["charAt"], Some("CharSequence")),
            ("java.util.Iterator", &["hasNext"], Some("Iterator")),
            ("java.util.Iterator", &["next"], Some("Iterator")),
            ("java.util.Comparator", &["compare"], Some("Comparator")),
            ("java.util.concurrent.Callable", &["call"], Some("Callable")),
            ("java.util.function.Supplier", &["get"], Some("Supplier")),
            ("java.util.function.Function", &["apply"], Some("Function")),
            ("java.util.function.Consumer", &["accept"], Some("Consumer")),
            ("java.util.function.Predicate", &["test"], Some("Predicate")),
            // what serialization calls by name, private or not, in a class
            // that is `Serializable` through any supertype
            ("Java's serialization", &["writeObject"], None),
            ("Java's serialization", &["readObject"], None),
            ("Java's serialization", &["readObjectNoData"], None),
            ("Java's serialization", &["writeReplace"], None),
            ("Java's serialization", &["readResolve"], None),
        ],
        "javascript" | "typescript" | "tsx" => &[
            ("JavaScript's conversions", &["toString"], None),
            ("JavaScript's conversions", &["valueOf"], None),
            ("JSON.stringify", &["toJSON"], None),
            (
                "the thenable protocol (await, Promise.resolve)",
                &["then"],
                None,
            ),
            ("the iterator protocol", &["next"], Some("Symbol.")),
            ("the iterator protocol", &["return"], Some("Symbol.")),
            ("the iterator protocol", &["throw"], Some("Symbol.")),
            ("the DOM's EventListener", &["handleEvent"], None),
            ("React's class components", &["render"], Some("Component")),
            ("React's class components", &["componentDidMount"], None),
            ("React's class components", &["componentDidUpdate"], None),
            ("React's class components", &["componentWillUnmount"], None),
            ("React's class components", &["shouldComponentUpdate"], None),
            (
                "React's class components",
                &["getSnapshotBeforeUpdate"],
                None,
            ),
            ("React's class components", &["componentDidCatch"], None),
            (
                "React's class components",
                &["getDerivedStateFromProps"],
                None,
            ),
            (
                "React's class components",
                &["getDerivedStateFromError"],
                None,
            ),
            ("Angular's lifecycle hooks", &["ngOnInit"], None),
            ("Angular's lifecycle hooks", &["ngOnChanges"], None),
            ("Angular's lifecycle hooks", &["ngOnDestroy"], None),
            ("Angular's lifecycle hooks", &["ngDoCheck"], None),
            ("Angular's lifecycle hooks", &["ngAfterViewInit"], None),
            ("Angular's lifecycle hooks", &["ngAfterViewChecked"], None),
            ("Angular's lifecycle hooks", &["ngAfterContentInit"], None),
            (
                "Angular's lifecycle hooks",
                &["ngAfterContentChecked"],
                None,
            ),
            ("custom elements' callbacks", &["connectedCallback"], None),
            (
                "custom elements' callbacks",
                &["disconnectedCallback"],
                None,
            ),
            (
                "custom elements' callbacks",
                &["attributeChangedCallback"],
                None,
            ),
            ("custom elements' callbacks", &["adoptedCallback"], None),
        ],
        _ => &[],
    };
    // the iterator protocol's word is in the body, the others' in the head
    let holds = |word: &str| match word {
        "Symbol." => declaration.contains(word),
        w => header.contains(w),
    };
    table
        .iter()
        .find(|(_, methods, word)| {
            methods.contains(&name)
                && methods.iter().all(|m| *m == name || has(m))
                && word.is_none_or(holds)
        })
        .map(|(interface, _, _)| *interface)
}

/// Refuses a new name for `old` that is no identifier of the language
/// ([`check_name`]), or that would change an ES class's private name
/// (`#count`) into a public one or back: a rename keeps what code
/// outside the class sees.
pub fn check_new_name(language: &dyn Language, old: &str, new: &str) -> Result<(), OpError> {
    match (old.starts_with('#'), new.strip_prefix('#')) {
        (true, Some(name)) => check_name(language, name),
        (true, None) => Err(OpError::new(
            ErrorKind::InvalidArgument,
            format!("'{old}' is a private name of its class: give the new one with its # (#{new}); a public name would change what code outside the class sees"),
        )),
        (false, Some(_)) => Err(OpError::new(
            ErrorKind::InvalidArgument,
            format!("Invalid name '{new}': a # name is a class's private name, and '{old}' is not one; give a name without #"),
        )),
        (false, None) => check_name(language, new),
    }
}

pub fn check_name(language: &dyn Language, name: &str) -> Result<(), OpError> {
    let dollar = matches!(language.id(), "javascript" | "typescript" | "tsx" | "java");
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || (dollar && c == '$'));
    let rest_ok = chars.all(|c| c.is_alphanumeric() || c == '_' || (dollar && c == '$'));
    if !first_ok || !rest_ok {
        let allowed = match dollar {
            true => "letters, digits, _ and $, not starting with a digit",
            false => "letters, digits and _, not starting with a digit",
        };
        return Err(OpError::new(
            ErrorKind::InvalidArgument,
            format!(
                "Invalid name '{name}': not a {} identifier ({allowed})",
                language.name()
            ),
        ));
    }
    if keywords(language).contains(&name) || reserved(language).contains(&name) {
        return Err(OpError::new(
            ErrorKind::InvalidArgument,
            format!(
                "Invalid name '{name}': a {} keyword; choose another name",
                language.name()
            ),
        ));
    }
    Ok(())
}

/// The reserved words of a language: what no binding may be named — the
/// words its grammar always reserves ([`reserved`]) and these.
fn keywords(language: &dyn Language) -> &'static [&'static str] {
    match language.id() {
        // TypeScript's own words (`type`, `declare`, …) are contextual:
        // valid names, as in JavaScript
        "javascript" | "typescript" | "tsx" => ES_STRICT_RESERVED,
        "go" => &[
            "break",
            "case",
            "chan",
            "const",
            "continue",
            "default",
            "defer",
            "else",
            "fallthrough",
            "for",
            "func",
            "go",
            "goto",
            "if",
            "import",
            "interface",
            "map",
            "package",
            "range",
            "return",
            "select",
            "struct",
            "switch",
            "type",
            "var",
            "_",
        ],
        "rust" => &[
            "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
            "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod",
            "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
            "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become",
            "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual",
            "yield", "try", "_",
        ],
        // (the words it takes as names only where they cannot be one)
        "java" => &["var", "yield", "record", "_"],
        _ => &[],
    }
}

/// The words the grammar of a language reserves everywhere, which its
/// syntax check reports where a name stands.
fn reserved(language: &dyn Language) -> &'static [&'static str] {
    match language.id() {
        "javascript" | "typescript" | "tsx" => super::typescript::RESERVED,
        "java" => super::java::RESERVED,
        _ => &[],
    }
}

/// The words JavaScript and TypeScript reserve in strict mode (a module's
/// and a class's code), or keep from being bound there, beside the ones
/// they always reserve ([`super::typescript::RESERVED`]).
const ES_STRICT_RESERVED: &[&str] = &[
    "await",
    "yield",
    "let",
    "static",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
    "arguments",
    "eval",
];

/// The keys naming the field `old` of the type `class` in a file's struct
/// literals and patterns (Go `C{X: 1}`, Rust `C { x: 1 }`, `C { x }`):
/// each key's char offset with whether it is a shorthand whose value
/// stays (`C { x }` → `C { y: x }`), and the keys of literals whose type
/// cannot be told. For the cross-file rename of a field.
/// `proven` are the values of `class` the index proves in the file.
pub fn field_keys(
    language: &'static dyn Language,
    text: &Rope,
    tree: &SyntaxTree,
    class: &str,
    old: &str,
    proven: &Proven,
) -> (Vec<(usize, bool)>, Vec<usize>) {
    let source = text.to_string();
    let file = TagsFile::default();
    let reader = Reader {
        language,
        text,
        source: &source,
        tree,
        file: &file,
    };
    let mut found = Found::default();
    reader.struct_literal_keys(class, old, proven, &mut found);
    let keys = found
        .sites
        .iter()
        .map(|s| (s.at, s.write == Write::KeepValue))
        .collect();
    (keys, found.possible)
}

/// The JavaScript and TypeScript values of a type that the index proves
/// in a file although nothing beside them declares their type, by char
/// offset.
#[derive(Debug, Default)]
pub struct Proven {
    /// The JSX elements' tag names whose component takes props of the
    /// type ([`es_component_of_props`]): their attributes of the name are
    /// the type's fields, any other's possible.
    pub jsx_tags: Vec<usize>,
    /// The object literals passed a parameter declared as the type
    /// ([`super::es_arguments`]): their keys are the type's.
    pub literals: Vec<usize>,
}

/// A TypeScript parameter property's uses as its constructor's parameter,
/// a Java record component's as its canonical constructor's (see
/// [`Reader::parameter_uses`]), and the names the constructor's
/// scopes bind there (a new name among them would take the uses over).
pub fn parameter_property_uses(
    language: &'static dyn Language,
    text: &Rope,
    tree: &SyntaxTree,
    symbol: &Symbol,
) -> (Vec<(usize, bool)>, Vec<String>) {
    // (most symbols are none: no scan of the file for them)
    let position = symbol.name_position;
    if !is_parameter_property(text, tree, symbol)
        && record_components::canonical_parameters(text, tree, position).is_empty()
    {
        return (Vec::new(), Vec::new());
    }
    let source = text.to_string();
    let file = scan(language, &source);
    let reader = Reader {
        language,
        text,
        source: &source,
        tree,
        file: &file,
    };
    let uses = reader.parameter_uses(symbol);
    let bound = file
        .locals
        .iter()
        .filter(|l| uses.iter().any(|(at, _)| l.scope.contains(at)))
        .map(|l| l.name.clone())
        .collect();
    (uses, bound)
}

/// Whether an attribute is a TypeScript parameter property: its name is
/// a parameter's (`constructor(private x: T)`).
fn is_parameter_property(text: &Rope, tree: &SyntaxTree, symbol: &Symbol) -> bool {
    let Ok(at) = crate::edit::position::to_char(text, symbol.name_position) else {
        return false;
    };
    let byte = text.char_to_byte(at);
    symbol.kind == SymbolKind::Attribute
        && tree
            .root()
            .named_descendant_for_byte_range(byte, byte)
            .and_then(|n| n.parent())
            .is_some_and(|p| matches!(p.kind(), "required_parameter" | "optional_parameter"))
}

/// Whether the Rust name at `position` is an enum's variant.
pub fn is_rust_variant(text: &Rope, tree: &SyntaxTree, position: crate::edit::Position) -> bool {
    let Ok(at) = crate::edit::position::to_char(text, position) else {
        return false;
    };
    let byte = text.char_to_byte(at);
    tree.root()
        .named_descendant_for_byte_range(byte, byte)
        .and_then(|n| n.parent())
        .is_some_and(|p| p.kind() == "enum_variant")
}

/// The component whose props the type named at char `at` declares: a
/// function whose first parameter is annotated with it (`function
/// Tag({ label }: TagProps)`, `const Tag = (props: TagProps) => …`), or a
/// constant declared as a generic of it alone (`const Tag:
/// React.FC<TagProps> = …`), which the caller checks is React's.
pub fn es_component_of_props(text: &Rope, tree: &SyntaxTree, at: usize) -> Option<PropsOf> {
    let byte = text.char_to_byte(at);
    let name = tree.root().named_descendant_for_byte_range(byte, byte)?;
    if name.kind() != "type_identifier" {
        return None;
    }
    let holder = name.parent()?;
    let (named, generic) = match holder.kind() {
        "type_annotation" => (first_parameter_of(holder)?, None),
        "type_arguments" => {
            let (named, generic) = generic_constant_of(holder)?;
            (
                named,
                Some(text.byte_slice(generic.byte_range()).to_string()),
            )
        }
        _ => return None,
    };
    (named.kind() == "identifier").then(|| PropsOf {
        component: text.byte_slice(named.byte_range()).to_string(),
        generic,
    })
}

/// A component [`es_component_of_props`] found.
pub struct PropsOf {
    pub component: String,
    /// The generic its constant is declared as, as written (`React.FC`,
    /// `FC`); `None` for a function taking the props.
    pub generic: Option<String>,
}

/// The name of the function whose first parameter `annotation` types.
fn first_parameter_of(annotation: Node<'_>) -> Option<Node<'_>> {
    let parameter = annotation
        .parent()
        .filter(|p| matches!(p.kind(), "required_parameter" | "optional_parameter"))?;
    let parameters = parameter
        .parent()
        .filter(|p| p.kind() == "formal_parameters")?;
    if parameters.named_child(0) != Some(parameter) {
        return None;
    }
    let function = parameters.parent()?;
    match function.kind() {
        "function_declaration" => function.child_by_field_name("name"),
        "arrow_function" | "function_expression" => function
            .parent()
            .filter(|d| d.kind() == "variable_declarator")?
            .child_by_field_name("name"),
        _ => None,
    }
}

/// The name of the constant declared as the generic whose only type
/// argument `arguments` hold (`const Tag: G<P>`), and the generic's name.
fn generic_constant_of(arguments: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    if arguments.named_child_count() != 1 {
        return None;
    }
    let generic = arguments.parent().filter(|g| g.kind() == "generic_type")?;
    let declarator = generic
        .parent()
        .filter(|a| a.kind() == "type_annotation")?
        .parent()
        .filter(|d| d.kind() == "variable_declarator")?;
    Some((
        declarator.child_by_field_name("name")?,
        generic.child_by_field_name("name")?,
    ))
}

/// Whether the name at char `at` is a JSX element's tag (`<Tag …>`,
/// `<Tag />`).
pub fn is_jsx_tag(text: &Rope, tree: &SyntaxTree, at: usize) -> bool {
    let byte = text.char_to_byte(at);
    let Some(name) = tree.root().named_descendant_for_byte_range(byte, byte) else {
        return false;
    };
    name.parent().is_some_and(|element| {
        matches!(
            element.kind(),
            "jsx_opening_element" | "jsx_self_closing_element"
        ) && element.child_by_field_name("name") == Some(name)
    })
}

/// Why the JavaScript or TypeScript site at char `at` may be a member of
/// `class`: a key in an object literal, a destructuring pattern, a string
/// (`o["x"]`) or a JSX attribute, whose object may be a value of the type,
/// or a string that may be a `keyof` value.
pub fn es_key_why(text: &Rope, tree: &SyntaxTree, at: usize, class: &str) -> String {
    let byte = text.char_to_byte(at);
    let node = tree.root().named_descendant_for_byte_range(byte, byte);
    let written_in = match node {
        Some(n) if n.kind() == "string_fragment" && !Reader::es_string_key(n) => {
            return format!("a string of the name: it may be a value of `keyof {class}`");
        }
        Some(n) if n.kind() == "string_fragment" => "a string key",
        Some(n) if Reader::es_pattern_of_key(n).is_some() => "a destructuring pattern's key",
        Some(n) if n.parent().is_some_and(|p| p.kind() == "jsx_attribute") => "a JSX attribute",
        _ => "an object literal's key",
    };
    format!("{written_in} of the name: the object may be a {class} (types are structural)")
}

/// Whether the name at char `at` is a shorthand that stands for both a
/// key and a value (`{ x }`, `const { x } = o`, Rust's `C { x }`).
pub fn is_shorthand(text: &Rope, tree: &SyntaxTree, at: usize) -> bool {
    let byte = text.char_to_byte(at);
    let Some(node) = tree.root().named_descendant_for_byte_range(byte, byte) else {
        return false;
    };
    match node.kind() {
        "shorthand_property_identifier"
        | "shorthand_property_identifier_pattern"
        | "shorthand_field_identifier" => true,
        "identifier" => node
            .parent()
            .is_some_and(|p| p.kind() == "shorthand_field_initializer"),
        _ => false,
    }
}

/// Whether the shorthand at char `at` is a module's key as well as a
/// local's name: a key of `module.exports = { x }` (or `exports = { x
/// }`, TypeScript's `export = { x }`), or one a destructuring takes from `require(…)` or `await
/// import(…)` (`const { x } = require('./a')`). A rename of the export
/// renames it whole.
pub fn is_module_shorthand(text: &Rope, tree: &SyntaxTree, at: usize) -> bool {
    let byte = text.char_to_byte(at);
    let Some(node) = tree.root().named_descendant_for_byte_range(byte, byte) else {
        return false;
    };
    let source = |n: Node<'_>| text.byte_slice(n.byte_range()).to_string();
    let Some(object) = node.parent() else {
        return false;
    };
    match node.kind() {
        "shorthand_property_identifier" => object.parent().is_some_and(|assignment| {
            let exported = assignment.kind() == "assignment_expression"
                && assignment.child_by_field_name("right") == Some(object)
                && assignment
                    .child_by_field_name("left")
                    .is_some_and(|l| matches!(source(l).as_str(), "module.exports" | "exports"));
            // TypeScript's `export = { x }`
            let exported_as_module = assignment.kind() == "export_statement"
                && assignment.child(1).is_some_and(|c| c.kind() == "=");
            exported || exported_as_module
        }),
        "shorthand_property_identifier_pattern" => object.parent().is_some_and(|declarator| {
            declarator.kind() == "variable_declarator"
                && declarator.child_by_field_name("name") == Some(object)
                && declarator
                    .child_by_field_name("value")
                    .map(|v| match v.kind() {
                        // `await import('./a')`
                        "await_expression" => v.named_child(0).unwrap_or(v),
                        _ => v,
                    })
                    .and_then(|v| v.child_by_field_name("function"))
                    .is_some_and(|f| matches!(source(f).as_str(), "require" | "import"))
        }),
        _ => false,
    }
}

/// Whether the shorthand at char `at` is a key a destructuring in a
/// function or a block takes (`const { x } = await import('./a')` there):
/// a binding the project index does not follow as an import, so the
/// uses of its local are not a rename's sites.
pub fn is_nested_destructuring(text: &Rope, tree: &SyntaxTree, at: usize) -> bool {
    let byte = text.char_to_byte(at);
    let Some(node) = tree.root().named_descendant_for_byte_range(byte, byte) else {
        return false;
    };
    if node.kind() != "shorthand_property_identifier_pattern" {
        return false;
    }
    let declarator = node
        .parent()
        .and_then(|pattern| pattern.parent())
        .filter(|d| d.kind() == "variable_declarator");
    declarator.is_some_and(|d| !is_module_level_declarator(d))
}

/// Whether a JavaScript `variable_declarator` is one of a declaration of
/// the module itself (`const m = await import('./a')` there binds as an
/// import does; anywhere else, a dynamic import the index does not
/// follow).
pub fn is_module_level_declarator(declarator: Node<'_>) -> bool {
    declarator
        .parent()
        .and_then(|statement| statement.parent())
        .is_some_and(|p| p.kind() == "program")
}

/// Java: the class an anonymous body extends or implements, when the
/// method whose name is at `position` is declared in one — `new T(…) {
/// … }`'s `T` (its last segment), or an enum constant's body's enum. The
/// outline reads such a method as a function of the code around it; it
/// overrides `T`'s method of its name.
pub fn java_anonymous_base(
    text: &Rope,
    tree: &SyntaxTree,
    position: crate::edit::Position,
) -> Option<String> {
    let at = crate::edit::position::to_char(text, position).ok()?;
    let byte = text.char_to_byte(at);
    let method = tree
        .root()
        .named_descendant_for_byte_range(byte, byte)?
        .parent()
        .filter(|m| m.kind() == "method_declaration")?;
    let body = method.parent().filter(|b| b.kind() == "class_body")?;
    let holder = body.parent()?;
    let base = match holder.kind() {
        "object_creation_expression" => holder.child_by_field_name("type")?,
        "enum_constant" => holder
            .parent()
            .and_then(|b| b.parent())
            .filter(|e| e.kind() == "enum_declaration")?
            .child_by_field_name("name")?,
        _ => return None,
    };
    let written = text
        .byte_slice(base.start_byte()..base.end_byte())
        .to_string();
    // `a.b.T<X>`: `T`
    let bare = written.split('<').next().unwrap_or(&written);
    Some(bare.rsplit('.').next().unwrap_or(bare).trim().to_string())
}

/// JavaScript, TypeScript: whether `this` (or `super`) before the name
/// at char `at` is the instance of the class around it — no `function`
/// between them rebinds it (an arrow function keeps it).
pub fn es_this_is_the_instance(text: &Rope, tree: &SyntaxTree, at: usize) -> bool {
    let byte = text.char_to_byte(at);
    let mut node = tree.root().named_descendant_for_byte_range(byte, byte);
    while let Some(n) = node {
        match n.kind() {
            "class_body" => return true,
            "function_expression"
            | "function_declaration"
            | "generator_function"
            | "generator_function_declaration"
            | "function" => return false,
            _ => node = n.parent(),
        }
    }
    false
}

#[cfg(test)]
mod supertype_tests {
    use super::{supertypes_in, Supertype};

    fn named(names: &[&str]) -> Vec<Supertype> {
        names
            .iter()
            .map(|n| Supertype::Named(n.to_string()))
            .collect()
    }

    #[test]
    fn a_headers_supertypes_are_its_extends_and_implements() {
        for (header, expected) in [
            ("public class Foo extends Thread ", named(&["Thread"])),
            (
                "class Foo<T extends Comparable<T>> extends a.b.Base<T> implements Runnable, java.io.Serializable ",
                named(&["a.b.Base", "Runnable", "java.io.Serializable"]),
            ),
            ("sealed interface Shape extends HasArea permits Circle, Square ", named(&["HasArea"])),
            ("interface Cb extends Fn<(x: number) => void>, Other ", named(&["Fn", "Other"])),
            ("@Deprecated(since = \"9\") final class Plain ", named(&[])),
            ("export class View extends React.Component<Props> ", named(&["React.Component"])),
        ] {
            assert_eq!(supertypes_in(header), expected, "{header}");
        }
        assert_eq!(
            supertypes_in("class Mixed extends mixin(Base, Other) "),
            vec![Supertype::Expression("mixin(Base, Other)".to_string())]
        );
    }
}
