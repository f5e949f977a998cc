//! Go behind the language seam: its outline, a syntax check and code
//! targets, read from its outline query (`queries/go/outline.scm`) by the
//! brace languages' reader ([`super::braces`]). Functions; methods by
//! their receiver type (`Method Stack.Push`, also where the type is
//! declared in another file of the package); structs, interfaces and the
//! other named types and aliases as classes, a struct's fields and an
//! interface's methods as their members; package-level variables and
//! constants. The code edits, the code analyses, the project index and
//! the refactors are Python's alone for now: the commands that need them
//! say that Go is not supported yet.

use std::sync::OnceLock;

use ropey::Rope;
use tree_sitter::{Node, Query};

use super::braces::{self, field_children, parameter_list, Braces, Owner, Parameters};
use super::parse_errors::{parse_errors, EndOfFile, Lexicon};
use super::{Language, Outline, SymbolSites, SyntaxCheck};
use crate::analysis::outline as symbols;
use crate::analysis::syntax::node_text;
use crate::analysis::validate::SyntaxError;
use crate::analysis::SyntaxTree;

/// The Go language.
#[derive(Debug, Clone, Copy)]
pub struct Go;

impl Language for Go {
    fn id(&self) -> &'static str {
        "go"
    }

    fn name(&self) -> &'static str {
        "Go"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["go"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_go::LANGUAGE.into()
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        braces::read(&BRACES, text, tree).outline()
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(syntax_errors)
    }

    fn symbol_sites(&self) -> Option<SymbolSites> {
        Some(sites)
    }
}

/// Where Go keeps the parts of its elements.
const BRACES: Braces = Braces {
    query,
    comments: &["comment"],
    annotations: &[],
    modifiers: &[],
    groups: &["type_declaration", "var_declaration", "const_declaration"],
    body,
    parameters,
    owner: receiver_type,
    is_async: |_| false,
};

/// What a bracket scan skips in Go: `"` strings and `'` runes, raw
/// strings in backquotes (which may span lines), comments; gofmt reports
/// the end of the file on its last line.
const LEXICON: Lexicon = Lexicon {
    line_quotes: &['"', '\''],
    multiline_quotes: &['`'],
    char_quote: false,
    raw_strings: false,
    nested_comments: false,
    accepts: None,
    end: EndOfFile::LastLine,
};

/// A Go file's symbols as code targets name them.
fn sites(text: &Rope, tree: &SyntaxTree) -> symbols::Outline {
    braces::read(&BRACES, text, tree).symbols
}

/// Go's outline query, compiled once.
fn query() -> &'static Query {
    static QUERY: OnceLock<Query> = OnceLock::new();
    QUERY.get_or_init(|| {
        Query::new(&Go.grammar(), include_str!("../../queries/go/outline.scm"))
            .expect("the Go outline query matches the Go grammar")
    })
}

/// The braces that end an element: a function's block, a struct's field
/// list, an interface's own.
fn body(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "function_declaration" | "method_declaration" => node.child_by_field_name("body"),
        "type_spec" => {
            let ty = node.child_by_field_name("type")?;
            match ty.kind() {
                "struct_type" => ty.named_child(0),
                "interface_type" => Some(ty),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A function's or method's parameters: `a, b int, rest ...string` binds
/// `a`, `b`, `rest`.
fn parameters(text: &Rope, callable: Node<'_>) -> Parameters {
    parameter_list(text, callable.child_by_field_name("parameters"), |p| {
        field_children(p, "name")
    })
}

/// The type a method's receiver names: `Stack` for `(s *Stack[T])`.
fn receiver_type(text: &Rope, method: Node<'_>) -> Option<Owner> {
    let receiver = method.child_by_field_name("receiver")?;
    let mut c = receiver.walk();
    let parameter = receiver
        .named_children(&mut c)
        .find(|n| n.kind() == "parameter_declaration")?;
    let mut ty = parameter.child_by_field_name("type")?;
    loop {
        ty = match ty.kind() {
            "pointer_type" | "parenthesized_type" => ty.named_child(0)?,
            "generic_type" => ty.child_by_field_name("type")?,
            "type_identifier" => break,
            _ => return None,
        };
    }
    Some(Owner {
        type_name: node_text(text, ty),
        via_trait: None,
    })
}

/// The syntax errors of a Go file, in source order: tree-sitter's parse
/// errors, each with what is wrong (`gofmt -e` agrees on the line in the
/// common cases: the tests compare them where Go is installed).
fn syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    parse_errors(text, tree.root(), &LEXICON)
}
