//! Rust behind the language seam: its outline, a syntax check and code
//! targets, read from its symbol sites by the brace languages' reader
//! ([`super::braces`]). Functions (in modules too: `Function net.connect`);
//! methods of inherent and trait `impl` blocks by their type (`Method
//! Point.new`; a trait's method is also `Point.Display.fmt`, the form
//! printed where the type's name alone is ambiguous) and of traits;
//! structs, enums, unions, traits, type aliases and inline modules as
//! classes, with their fields and variants; constants and statics. Its code
//! edits, analyses, project index and renames are those of the brace
//! languages ([`super::edits`], [`super::complexity`],
//! `analysis/index/tags`); the refactors beyond renames say that they are
//! Python's alone.

use ropey::Rope;
use tree_sitter::Node;

use super::braces::{self, parameter_list, Braces, Owner, Parameters};
use super::parse_errors::{delimiter_error, parse_errors, EndOfFile, Lexicon};
use super::{Language, Outline, SymbolSites, SyntaxCheck};
use crate::analysis::outline as symbols;
use crate::analysis::syntax::{byte_to_position, node_start, node_text, TextAt};
use crate::analysis::validate::SyntaxError;
use crate::analysis::SyntaxTree;

/// The Rust language.
#[derive(Debug, Clone, Copy)]
pub struct Rust;

impl Language for Rust {
    fn predeclared(&self, name: &str) -> bool {
        RUST_PRELUDE.contains(&name)
    }

    fn id(&self) -> &'static str {
        "rust"
    }

    fn name(&self) -> &'static str {
        "Rust"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["rs"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_rust::LANGUAGE.into()
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        braces::read(&BRACES, text, tree).outline()
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(syntax_errors)
    }

    fn brace_edits(&self) -> Option<super::edits::BraceEdits> {
        // rustfmt's four spaces; `///` doc comments; methods in impl blocks
        Some(super::edits::BraceEdits {
            unit: "    ",
            line_comment: "//",
            doc: super::edits::DocComment::Lines("///"),
            imports: Some(super::line_imports::insert_rust_import),
            top_level_functions: true,
            methods: super::edits::MethodPlace::InImpl,
            overloads: false,
        })
    }

    fn formatter(&self) -> Option<super::ExternalFormatter> {
        // rustfmt formats whole files (its line ranges are unstable)
        Some(super::ExternalFormatter {
            program: "rustfmt",
            args: &["--edition", "2021"],
            range: None,
            width: Some("--config=max_width={n}"),
            install: "rustup component add rustfmt",
        })
    }

    fn issue_checks(&self) -> Option<super::issues::IssueChecks> {
        Some(super::issues::IssueChecks {
            loose_equality: false,
            unused_imports: None,
        })
    }

    fn decision_points(&self) -> Option<super::complexity::DecisionPoints> {
        Some(super::complexity::RUST)
    }

    fn index_scan(&self) -> Option<super::IndexScan> {
        // references, definitions and callers across the project
        // (analysis/index/tags)
        Some(super::IndexScan {
            indexed: &["rs"],
            watched: &["rs"],
        })
    }

    fn local_sites(&self) -> Option<super::LocalSites> {
        Some(locals_rust)
    }

    fn renames(&self) -> bool {
        true
    }

    fn symbol_sites(&self) -> Option<SymbolSites> {
        Some(sites)
    }

    fn site_definitions(&self) -> Option<super::SiteDefinitions> {
        Some(definitions)
    }
}

/// Where Rust keeps the parts of its elements.
const BRACES: Braces = Braces {
    language: &Rust,
    comments: &["line_comment", "block_comment"],
    annotations: &["attribute_item"],
    modifiers: &[],
    groups: &[],
    body: |node| node.child_by_field_name("body"),
    parameters,
    owner: impl_type,
    is_async,
};

/// What a bracket scan skips in Rust: strings (which may span lines), raw
/// strings, characters (`'a'`, not lifetimes), comments (which nest); rustc reports the
/// end of the file on its last line.
const LEXICON: Lexicon = Lexicon {
    line_quotes: &[],
    multiline_quotes: &['"'],
    char_quote: true,
    raw_strings: true,
    nested_comments: true,
    semicolon_before_line: true,
    list_error_at_token: true,
    expression_keywords: &[],
    accepts: Some(read_by_rustc),
    end: EndOfFile::LastLine,
};

/// A Rust file's symbols as code targets name them.
fn sites(text: &Rope, tree: &SyntaxTree) -> symbols::Outline {
    braces::read(&BRACES, text, tree).symbols
}

/// The index's definitions of the elements its walk found.
fn definitions(text: &dyn TextAt, found: Vec<super::FoundSite<'_>>) -> Vec<super::SiteDefinition> {
    super::braces::definitions(&BRACES, text, found)
}

/// A function's parameters, `self` left out: `x: T, (a, b): (i32, i32)`
/// binds `x`, `a`, `b`.
fn parameters(text: &Rope, function: Node<'_>) -> Parameters {
    parameter_list(text, function.child_by_field_name("parameters"), |p| {
        match p.kind() {
            "parameter" => p
                .child_by_field_name("pattern")
                .map(identifiers)
                .unwrap_or_default(),
            _ => Vec::new(), // self, a variadic `...`, an attribute
        }
    })
}

/// The identifiers a pattern binds, in order.
fn identifiers(pattern: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    // an explicit stack, not recursion: nesting may be deep
    let mut stack = vec![pattern];
    while let Some(node) = stack.pop() {
        if node.kind() == "identifier" {
            out.push(node);
            continue;
        }
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The type (and trait) of the `impl` block a method is in: `Point` and
/// `Display` for `impl fmt::Display for Point<i32>`.
fn impl_type(text: &dyn TextAt, method: Node<'_>) -> Option<Owner> {
    let block = method
        .parent()
        .filter(|p| p.kind() == "declaration_list")?
        .parent()
        .filter(|p| p.kind() == "impl_item")?;
    let type_name = type_name(text, block.child_by_field_name("type")?)?;
    let via_trait = match block.child_by_field_name("trait") {
        Some(t) => Some(type_name_of_path(text, t)?),
        None => None,
    };
    Some(Owner {
        type_name,
        via_trait,
    })
}

/// The name of the type a type expression names: `Point` for
/// `Point<T>`, `&mut Point`, `geo::Point`.
fn type_name(text: &dyn TextAt, ty: Node<'_>) -> Option<String> {
    let mut ty = ty;
    loop {
        ty = match ty.kind() {
            "reference_type" | "pointer_type" => ty.child_by_field_name("type")?,
            _ => return type_name_of_path(text, ty),
        };
    }
}

/// The last name of a (generic, scoped) type path: `Display` for
/// `fmt::Display`, `From` for `From<u8>`.
fn type_name_of_path(text: &dyn TextAt, path: Node<'_>) -> Option<String> {
    match path.kind() {
        "type_identifier" | "primitive_type" => Some(node_text(text, path)),
        "generic_type" => type_name_of_path(text, path.child_by_field_name("type")?),
        "scoped_type_identifier" => type_name_of_path(text, path.child_by_field_name("name")?),
        _ => None,
    }
}

/// Whether a function is `async`.
fn is_async(function: Node<'_>) -> bool {
    let mut c = function.walk();
    let modifiers = function
        .children(&mut c)
        .find(|n| n.kind() == "function_modifiers");
    modifiers.is_some_and(|m| {
        let mut c = m.walk();
        let found = m.children(&mut c).any(|n| n.kind() == "async");
        found
    })
}

/// Whether rustc reads what tree-sitter's grammar could not: a macro's
/// body or arguments (token trees, which rustc parses only as the macro
/// expands them: `$` alone, a pattern, any tokens — their delimiters are
/// checked first), the `!` of a macro invocation whose name the grammar
/// takes for a keyword or a type (`str![…]`, `try!(…)`, `mac!(Self)` in a
/// `where` clause), a negative const generic argument (`R<-5, 5>`), the
/// unit type bounded in a `where` clause (`(): Send`), a `where` clause on
/// a struct without fields.
fn read_by_rustc(text: &Rope, node: Node<'_>) -> bool {
    if in_macro(node) {
        return true;
    }
    let parent = node.parent().map(|p| p.kind());
    // a negative const generic argument: `RangedI8<-5, 5>`
    if parent == Some("type_arguments")
        && node_text(text, node) == "-"
        && node
            .next_sibling()
            .is_some_and(|n| matches!(n.kind(), "integer_literal" | "float_literal"))
    {
        return true;
    }
    // the unit type as a where clause's bounded type: `(): Send`
    if node.is_missing()
        && parent == Some("tuple_type")
        && node.parent().is_some_and(|t| node_text(text, t) == "()")
    {
        return true;
    }
    // a where clause on a struct without fields: `struct T where u8: Copy;`
    if node.is_error() && node.parent().is_some_and(|p| p.kind() == "struct_item") {
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        if let [clause] = children.as_slice() {
            if clause.kind() == "where_clause" && !clause.has_error() {
                return true;
            }
        }
    }
    let invocation = node_text(text, node);
    let name = invocation.trim_end().strip_suffix('!').map(str::trim_end);
    let named = name.is_some_and(|n| {
        n.chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
            || (n.is_empty()
                && node
                    .prev_sibling()
                    .is_some_and(|p| p.end_byte() == node.start_byte() && !p.is_extra()))
    });
    let arguments = node
        .next_sibling()
        .is_some_and(|next| node_text(text, next).starts_with(['(', '[', '{']));
    named && arguments
}

/// Whether `node` is in a macro's body or arguments: tokens, which rustc
/// parses only as the macro expands them.
fn in_macro(node: Node<'_>) -> bool {
    let mut around = node.parent();
    while let Some(n) = around {
        if matches!(n.kind(), "token_tree" | "macro_definition" | "macro_rule") {
            return true;
        }
        around = n.parent();
    }
    false
}

/// The syntax errors of a Rust file: as rustc, what its lexer refuses
/// first ([`super::rust_lexer`]), then the file's delimiters — an
/// unbalanced one is the error (rustc's lexer reports it before it
/// parses) — else tree-sitter's parse errors, what rustc's parser refuses
/// of the grammar's tree and the doc comments that document nothing, in
/// source order, each with what is wrong (rustc agrees on the line in the
/// common cases: the tests compare them where rustc is installed).
fn syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    if let Some(error) = super::rust_lexer::lexer_error(text) {
        return vec![error];
    }
    if let Some(error) = delimiter_error(&without_shebang(text), &LEXICON) {
        return vec![error];
    }
    let mut errors = parse_errors(text, tree.root(), &LEXICON);
    let refused = parser_rules(text, tree.root());
    let dangling = dangling_doc_comments(text, tree.root());
    if !dangling.is_empty() || !refused.is_empty() {
        errors.extend(dangling);
        errors.extend(refused);
        errors.sort_by_key(|e| e.position);
    }
    if let Some(first) = errors.first_mut() {
        at_doc_comment(text, tree.root(), first);
    }
    errors
}

/// The text with its shebang line (`#!/usr/bin/env …`, which rustc skips)
/// blanked: its brackets are no delimiters.
fn without_shebang(text: &Rope) -> std::borrow::Cow<'_, Rope> {
    let length = super::rust_lexer::shebang_length(text);
    if length == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut blanked = text.clone();
    blanked.remove(0..length);
    blanked.insert(0, &" ".repeat(length));
    std::borrow::Cow::Owned(blanked)
}

/// rustc reads a doc comment as a token, tree-sitter as a comment: an
/// error right before one (`use a::b` then `/// …`: the `;` missing) or
/// one inside the error's ERROR node before it (a field's `,` missing)
/// is at the doc comment, the token rustc found where it expected
/// another.
fn at_doc_comment(text: &Rope, root: Node<'_>, error: &mut SyntaxError) {
    let Ok(at) = crate::edit::position::to_char(text, error.position) else {
        return;
    };
    let at = text.char_to_byte(at);
    let mut error_node = root.descendant_for_byte_range(at, at);
    let mut from = at;
    while let Some(node) = error_node {
        if node.is_error() {
            from = node.start_byte();
        }
        error_node = node.parent();
    }
    let tokens = tokens_and_comments(root);
    let inside = tokens
        .iter()
        .find(|t| is_outer_doc(**t) && (from..at).contains(&t.start_byte()));
    let next = tokens
        .iter()
        .find(|t| t.start_byte() >= at && (!t.is_extra() || is_outer_doc(**t)));
    if let Some(doc) = inside.or(next.filter(|t| is_outer_doc(**t))) {
        error.position = node_start(text, *doc);
        error.message = format!("{} (rustc finds a doc comment here)", error.message);
    }
}

/// The leaves of a tree in order, a comment as one.
fn tokens_and_comments(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.child_count() == 0 || matches!(node.kind(), "line_comment" | "block_comment") {
            out.push(node);
            continue;
        }
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// Whether a comment is an outer doc comment (`///`, `/** */`).
fn is_outer_doc(comment: Node<'_>) -> bool {
    let mut c = comment.walk();
    matches!(comment.kind(), "line_comment" | "block_comment")
        && comment
            .children(&mut c)
            .any(|n| n.kind() == "outer_doc_comment_marker")
}

/// What rustc's parser refuses of a tree the grammar accepts: a cast to a
/// path type followed by `<` or `<<` (rustc reads generic arguments of
/// the type: `x as usize < y`), and a `,` after a struct literal's base
/// (`..Default::default(),`). At rustc's positions: the operator, the
/// `..`.
fn parser_rules(text: &Rope, root: Node<'_>) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "binary_expression" => out.extend(comparison_after_cast(text, node)),
            "macro_invocation" => out.extend(macro_statement_unended(text, node)),
            "base_field_initializer" if node.next_sibling().is_some_and(|n| n.kind() == ",") => {
                out.push(SyntaxError {
                    position: node_start(text, node),
                    message: "cannot use a comma after the base struct".to_owned(),
                });
            }
            _ => {}
        }
        let mut c = node.walk();
        stack.extend(node.named_children(&mut c));
    }
    out
}

/// A macro call with `(…)` or `[…]` written as a statement or an item
/// without its `;`: rustc wants one after a statement that is not its
/// block's last (at the call's end: "expected `;`"), and after an item
/// (at its delimiter: "macros that expand to items must be delimited with
/// braces or followed by a semicolon"). A call with `{…}` needs none.
fn macro_statement_unended(text: &Rope, call: Node<'_>) -> Option<SyntaxError> {
    let parent = call.parent()?;
    let in_block = parent.kind() == "block";
    if !in_block && !matches!(parent.kind(), "source_file" | "declaration_list") {
        return None;
    }
    let delimited = call
        .named_children(&mut call.walk())
        .find(|n| n.kind() == "token_tree")?;
    if !matches!(
        text.byte_slice(delimited.start_byte()..).chars().next(),
        Some('(' | '[')
    ) {
        return None;
    }
    let after = first_code_char(text.byte_slice(delimited.end_byte()..).chars());
    match (in_block, after) {
        (_, Some(';')) | (true, Some('}')) => None,
        (true, _) => Some(SyntaxError {
            position: byte_to_position(text, call.end_byte()),
            message: "expected `;` after the macro call".to_owned(),
        }),
        (false, _) => Some(SyntaxError {
            position: node_start(text, delimited),
            message: "a macro call with `(…)` or `[…]` as an item needs a `;` after it".to_owned(),
        }),
    }
}

/// The first character of `chars` that is neither blank nor in a comment;
/// read lazily, since the rest of a file can be long and is seldom needed.
fn first_code_char(chars: impl Iterator<Item = char>) -> Option<char> {
    let mut chars = chars.peekable();
    loop {
        let c = chars.next()?;
        if c.is_whitespace() {
            continue;
        }
        if c != '/' {
            return Some(c);
        }
        match chars.peek() {
            Some('/') => {
                chars.find(|&c| c == '\n')?;
            }
            Some('*') => {
                chars.next();
                let mut previous = ' ';
                chars.find(|&c| std::mem::replace(&mut previous, c) == '*' && c == '/')?;
            }
            _ => return Some('/'),
        }
    }
}

/// `x as usize < y`: a `<` or `<<` right after a cast to a path type,
/// which rustc reads as the start of the type's generic arguments (a
/// reference, a tuple or a type with its arguments already is not read
/// on).
fn comparison_after_cast(text: &Rope, binary: Node<'_>) -> Option<SyntaxError> {
    let operator = binary.child_by_field_name("operator")?;
    let symbol = node_text(text, operator);
    if !matches!(symbol.as_str(), "<" | "<<") {
        return None;
    }
    // the operand right before the operator (`a + b as u8 < c`: the cast)
    let mut left = binary.child_by_field_name("left")?;
    while left.kind() == "binary_expression" {
        left = left.child_by_field_name("right")?;
    }
    let cast = Some(left).filter(|l| l.kind() == "type_cast_expression")?;
    let path = cast.child_by_field_name("type").is_some_and(|t| {
        matches!(
            t.kind(),
            "primitive_type" | "type_identifier" | "scoped_type_identifier"
        )
    });
    path.then(|| SyntaxError {
        position: node_start(text, operator),
        message: format!("`{symbol}` after a cast is read as the start of generic arguments"),
    })
}

/// The doc comments (`///`, `/** … */`) that document nothing: the last
/// thing before a closing brace or the end of the file, comments aside
/// (rustc's E0585; in a `match`, the grammar's own error stands; a
/// macro's tokens may hold any).
fn dangling_doc_comments(text: &Rope, root: Node<'_>) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    // an explicit stack, not recursion: nesting may be deep
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if matches!(node.kind(), "line_comment" | "block_comment") {
            let outer_doc = is_outer_doc(node);
            let mut next = node.next_sibling();
            while let Some(comment) =
                next.filter(|n| matches!(n.kind(), "line_comment" | "block_comment"))
            {
                next = comment.next_sibling();
            }
            let in_match = node.parent().is_some_and(|p| p.kind() == "match_block");
            let dangling = outer_doc && next.is_none_or(|n| n.kind() == "}");
            if dangling && !in_match && !in_macro(node) {
                out.push(SyntaxError {
                    position: node_start(text, node),
                    message: "a doc comment that documents nothing".to_owned(),
                });
            }
            continue;
        }
        let mut c = node.walk();
        stack.extend(node.named_children(&mut c));
    }
    out
}

/// The locals of a Rust file's functions (`Variable f.x`).
fn locals_rust(outline: &mut crate::analysis::Outline, text: &Rope, _tree: &SyntaxTree) {
    super::locals::add_locals(&Rust, outline, text);
}

/// Rust's prelude (2021 edition, and the `size_of` family every edition has
/// since 1.80), its primitive types and the standard library's macros.
pub(crate) const RUST_PRELUDE: &[&str] = &[
    "Copy",
    "Send",
    "Sized",
    "Sync",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "drop",
    "size_of",
    "size_of_val",
    "align_of",
    "align_of_val",
    "Box",
    "ToOwned",
    "Clone",
    "PartialEq",
    "PartialOrd",
    "Eq",
    "Ord",
    "AsRef",
    "AsMut",
    "Into",
    "From",
    "Default",
    "Iterator",
    "Extend",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "ToString",
    "Vec",
    "TryFrom",
    "TryInto",
    "FromIterator",
    "bool",
    "char",
    "str",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f32",
    "f64",
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "format_args",
    "write",
    "writeln",
    "vec",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "unimplemented",
    "todo",
    "matches",
    "dbg",
    "include",
    "include_str",
    "include_bytes",
    "concat",
    "stringify",
    "env",
    "option_env",
    "line",
    "column",
    "file",
    "module_path",
    "cfg",
    "compile_error",
    "thread_local",
];
