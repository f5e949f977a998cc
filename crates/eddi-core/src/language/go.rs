//! Go behind the language seam: its outline, a syntax check and code
//! targets, read from its symbol sites by the brace languages' reader
//! ([`super::braces`]). Functions; methods by their receiver type (`Method
//! Stack.Push`, also where the type is declared in another file of the
//! package); structs, interfaces and the other named types and aliases as
//! classes, a struct's fields and an interface's methods as their members;
//! package-level variables and constants. Its code edits, analyses, project
//! index and renames are those of the brace languages ([`super::edits`],
//! [`super::complexity`], `analysis/index/tags`); the refactors beyond
//! renames say that they are Python's alone.

use ropey::Rope;
use tree_sitter::Node;

use super::braces::{self, field_children, parameter_list, Braces, Owner, Parameters};
use super::parse_errors::{end_of_file, parse_errors, EndOfFile, Lexicon};
use super::{Language, Outline, SymbolSites, SyntaxCheck};
use crate::analysis::outline as symbols;
use crate::analysis::syntax::{node_text, TextAt};
use crate::analysis::validate::SyntaxError;
use crate::analysis::SyntaxTree;
use crate::edit::Position;

/// The Go language.
#[derive(Debug, Clone, Copy)]
pub struct Go;

impl Language for Go {
    fn predeclared(&self, name: &str) -> bool {
        GO_PREDECLARED.contains(&name) || GO_PREDECLARED_TYPES.contains(&name)
    }

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

    fn brace_edits(&self) -> Option<super::edits::BraceEdits> {
        // gofmt's tabs; doc comments are `//` lines; a method follows its
        // type's last one
        Some(super::edits::BraceEdits {
            unit: "\t",
            line_comment: "//",
            doc: super::edits::DocComment::Lines("//"),
            imports: Some(super::go_imports::insert_import),
            top_level_functions: true,
            methods: super::edits::MethodPlace::AfterType,
            overloads: false,
        })
    }

    fn formatter(&self) -> Option<super::ExternalFormatter> {
        // gofmt formats whole files, and takes no line length
        Some(super::ExternalFormatter {
            program: "gofmt",
            args: &[],
            range: None,
            width: None,
            install: "install Go: apt-get install golang-go",
        })
    }

    fn issue_checks(&self) -> Option<super::issues::IssueChecks> {
        Some(super::issues::IssueChecks {
            loose_equality: false,
            unused_imports: Some(super::issues::UnusedImports::Go),
        })
    }

    fn decision_points(&self) -> Option<super::complexity::DecisionPoints> {
        Some(super::complexity::GO)
    }

    fn index_scan(&self) -> Option<super::IndexScan> {
        // references, definitions and callers across the project
        // (analysis/index/tags)
        Some(super::IndexScan {
            indexed: &["go"],
            watched: &["go"],
        })
    }

    fn local_sites(&self) -> Option<super::LocalSites> {
        Some(locals_go)
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

/// Where Go keeps the parts of its elements.
const BRACES: Braces = Braces {
    language: &Go,
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
    semicolon_before_line: false,
    list_error_at_token: false,
    expression_keywords: &[],
    accepts: None,
    end: EndOfFile::LastLine,
};

/// A Go file's symbols as code targets name them.
fn sites(text: &Rope, tree: &SyntaxTree) -> symbols::Outline {
    braces::read(&BRACES, text, tree).symbols
}

/// The index's definitions of the elements its walk found.
fn definitions(text: &dyn TextAt, found: Vec<super::FoundSite<'_>>) -> Vec<super::SiteDefinition> {
    super::braces::definitions(&BRACES, text, found)
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
fn receiver_type(text: &dyn TextAt, method: Node<'_>) -> Option<Owner> {
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
/// errors, each with what is wrong, and the errors of Go's layout that
/// its grammar does not see — a line break that ends a statement inside a
/// list, a top-level list never closed, an operand missing from a list, a
/// top-level statement that is no declaration (`gofmt -e` agrees
/// on the line in the common cases: the tests compare them where Go is
/// installed). A literal or comment the scanner refuses is the error of
/// its line: the grammar's reading of that line and of the rest is no
/// longer Go's.
fn syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let mut errors = parse_errors(text, tree.root(), &LEXICON);
    errors.extend(parser_rules(text, tree));
    match tokens(&text.to_string()) {
        Ok(tokens) => {
            let literals = composite_literals(text, tree.root());
            if let Some((list, unclosed)) = list_unclosed(&tokens, end_of_file(text, &LEXICON)) {
                // the grammar's errors in the list are its reading of
                // the missing bracket
                errors.retain(|e| e.position < list || e.position > unclosed.position);
                errors.push(unclosed);
            }
            errors.extend(newline_in_list(&tokens, &literals));
            errors.extend(element_outside_literal(&tokens, &literals));
            errors.extend(empty_element(&tokens));
            errors.extend(comma_after_range(&tokens, &literals));
            errors.extend(not_a_declaration(&tokens));
            if let Some((header, missing)) = header_without_brace(&tokens) {
                // the grammar's errors inside the header are its reading
                // of the missing brace
                errors.retain(|e| e.position < header || e.position >= missing.position);
                errors.push(missing);
            }
        }
        Err(scanned) => {
            errors.retain(|e| e.position.line < scanned.position.line);
            errors.push(scanned);
        }
    }
    errors.sort_by_key(|e| e.position);
    errors.dedup_by_key(|e| e.position);
    errors
}

/// What Go's parser refuses of a tree its grammar accepts: a `defer` or
/// `go` of no call; parameters some named and some not; a
/// `:=` whose left side is not names. At `gofmt -e`'s positions.
fn parser_rules(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let at = |byte: usize| crate::analysis::syntax::byte_to_position(text, byte);
    let error = |byte: usize, message: &str| SyntaxError {
        position: at(byte),
        message: message.to_string(),
    };
    let mut errors = Vec::new();
    let mut todo = vec![tree.root()];
    while let Some(node) = todo.pop() {
        let mut c = node.walk();
        todo.extend(node.named_children(&mut c));
        match node.kind() {
            "defer_statement" | "go_statement" => {
                let mut expression = node.named_child(0);
                while let Some(e) = expression.filter(|e| e.kind() == "parenthesized_expression") {
                    expression = e.named_child(0);
                }
                if let Some(e) = expression.filter(|e| e.kind() != "call_expression") {
                    let keyword = if node.kind() == "defer_statement" {
                        "defer"
                    } else {
                        "go"
                    };
                    let end = node.named_child(0).map_or(e.end_byte(), |n| n.end_byte());
                    errors.push(error(
                        end,
                        &format!("function must be invoked in {keyword} statement"),
                    ));
                }
            }
            "parameter_list" => {
                let mut c = node.walk();
                let items: Vec<Node<'_>> = node
                    .named_children(&mut c)
                    .filter(|n| {
                        matches!(
                            n.kind(),
                            "parameter_declaration" | "variadic_parameter_declaration"
                        )
                    })
                    .collect();
                // (`a, b, c int` may parse as types `a`, `b`, then `c int`:
                // a bare name before a named one is one of its group)
                let is_named = |n: &Node<'_>| n.child_by_field_name("name").is_some();
                let bare = |n: &Node<'_>| {
                    n.kind() == "parameter_declaration"
                        && n.child_by_field_name("type")
                            .is_some_and(|t| t.kind() == "type_identifier")
                };
                let any_named = items.iter().any(is_named);
                let mixed = any_named
                    && items.iter().enumerate().any(|(i, n)| {
                        !is_named(n) && (!bare(n) || !items[i + 1..].iter().any(is_named))
                    });
                if mixed {
                    errors.push(error(
                        items[0].start_byte(),
                        "mixed named and unnamed parameters",
                    ));
                }
            }
            "short_var_declaration" => {
                let left = node.child_by_field_name("left");
                let mut c = node.walk();
                // (`iota`, `nil`, `true` are names to the parser too)
                let not_a_name = left.and_then(|l| {
                    l.named_children(&mut c).find(|n| {
                        n.kind() != "comment"
                            && (n.named_child_count() > 0 || n.kind().ends_with("literal"))
                    })
                });
                if let Some(n) = not_a_name {
                    errors.push(error(
                        n.start_byte(),
                        "expected identifier on left side of :=",
                    ));
                }
            }
            _ => {}
        }
    }
    errors
}

/// Go's keywords after which a line break inserts a `;`.
const ENDING_KEYWORDS: &[&str] = &["break", "continue", "fallthrough", "return"];

/// Go's other keywords.
const KEYWORDS: &[&str] = &[
    "case",
    "chan",
    "const",
    "default",
    "defer",
    "else",
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
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// The keywords a top-level statement starts with.
const DECLARATIONS: &[&str] = &["package", "import", "func", "var", "const", "type"];

/// A token of a Go file, as its layout sees it.
struct Token {
    /// Its text (a literal's first char only: a quote).
    text: String,
    start: Position,
    /// Just after it.
    end: Position,
    /// Whether a line break after it inserts a `;` (a name, a literal,
    /// `break`/`continue`/`fallthrough`/`return`, `++`, `--`, `)`, `]`,
    /// `}`).
    inserts: bool,
    /// Whether a line break (or a comment across lines) comes before it.
    after_break: bool,
}

/// The tokens of a Go file, comments left out; the scanner's first error
/// instead, for a literal or comment it refuses ([`literal_end`]).
fn tokens(code: &str) -> Result<Vec<Token>, SyntaxError> {
    let chars: Vec<char> = code.chars().collect();
    let mut out: Vec<Token> = Vec::new();
    let (mut i, mut line, mut col) = (0, 0, 0);
    let mut after_break = false;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let start = Position::new(line, col);
        let (length, inserts) = match c {
            '\n' => {
                after_break = true;
                (i, line, col) = (i + 1, line + 1, 0);
                continue;
            }
            c if c.is_whitespace() => {
                (i, col) = (i + 1, col + 1);
                continue;
            }
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    (i, col) = (i + 1, col + 1);
                }
                continue;
            }
            '/' if next == Some('*') => {
                (i, col) = (i + 2, col + 2);
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    if chars[i] == '\n' {
                        after_break = true;
                        (line, col) = (line + 1, 0);
                    } else {
                        col += 1;
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    return Err(SyntaxError {
                        position: start,
                        message: "comment not terminated".to_owned(),
                    });
                }
                (i, col) = (i + 2, col + 2);
                continue;
            }
            '"' | '\'' | '`' => {
                let end = literal_end(&chars, i).map_err(|(at, message)| SyntaxError {
                    // (the error is on the literal's first line)
                    position: Position::new(line, col + (at - i)),
                    message: message.to_owned(),
                })?;
                // (a raw string may span lines)
                for &ch in &chars[i..end] {
                    (line, col) = if ch == '\n' {
                        (line + 1, 0)
                    } else {
                        (line, col + 1)
                    };
                }
                i = end;
                out.push(Token {
                    text: c.to_string(),
                    start,
                    end: Position::new(line, col),
                    inserts: true,
                    after_break: std::mem::take(&mut after_break),
                });
                continue;
            }
            c if c.is_alphanumeric() || c == '_' => {
                // a name, a keyword or a number (`3.14`: a name's `.`
                // selects, a number's is its own)
                let number = c.is_ascii_digit();
                let mut n = 0;
                while chars
                    .get(i + n)
                    .is_some_and(|&d| d.is_alphanumeric() || d == '_' || (number && d == '.'))
                {
                    n += 1;
                }
                let word: String = chars[i..i + n].iter().collect();
                let inserts =
                    ENDING_KEYWORDS.contains(&word.as_str()) || !KEYWORDS.contains(&word.as_str());
                (n, inserts)
            }
            ')' | ']' | '}' => (1, true),
            '+' | '-' if next == Some(c) => (2, true),
            _ => (1, false),
        };
        out.push(Token {
            text: chars[i..i + length].iter().collect(),
            start,
            end: Position::new(line, col + length),
            inserts,
            after_break: std::mem::take(&mut after_break),
        });
        (i, col) = (i + length, col + length);
    }
    Ok(out)
}

/// Where the string, raw string or rune literal that starts at char
/// `start` ends (just after its closing quote), or the error Go's scanner
/// reports of it: (the char it is at, what it says) — a literal not
/// terminated (at its quote), a rune of no char or of more than one, an
/// escape Go does not know.
fn literal_end(chars: &[char], start: usize) -> Result<usize, (usize, &'static str)> {
    let quote = chars[start];
    let not_terminated = match quote {
        '"' => "string literal not terminated",
        '`' => "raw string literal not terminated",
        _ => "rune literal not terminated",
    };
    let (mut i, mut length) = (start + 1, 0);
    let mut escape_error = None;
    loop {
        match chars.get(i) {
            None => return Err((start, not_terminated)),
            Some('\n') if quote != '`' => return Err((start, not_terminated)),
            Some(&c) if c == quote => break,
            Some('\\') if quote != '`' => {
                let (end, error) = escape_end(chars, i + 1, quote);
                escape_error = escape_error.or(error);
                i = end;
            }
            Some(_) => i += 1,
        }
        length += 1;
    }
    if let Some(error) = escape_error {
        return Err(error);
    }
    if quote == '\'' && length != 1 {
        return Err((start, "illegal rune literal"));
    }
    Ok(i + 1)
}

/// Where the escape whose char after the `\` is at `i` ends, and Go's
/// scanner's error of it: an unknown escape (at that char), a digit
/// missing (at the char that stands instead).
fn escape_end(chars: &[char], i: usize, quote: char) -> (usize, Option<(usize, &'static str)>) {
    let (digits, radix) = match chars.get(i) {
        Some('a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | '\\') => return (i + 1, None),
        Some(&c) if c == quote => return (i + 1, None),
        Some('0'..='7') => (3, 8),
        Some('x') => (2, 16),
        Some('u') => (4, 16),
        Some('U') => (8, 16),
        _ => return (i, Some((i, "unknown escape sequence"))),
    };
    let first = if radix == 8 { i } else { i + 1 };
    for at in first..first + digits {
        if !chars.get(at).is_some_and(|c| c.is_digit(radix)) {
            return (at, Some((at, "illegal character in escape sequence")));
        }
    }
    (first + digits, None)
}

/// Where a line break ends a statement inside a list: after a token that
/// inserts a `;`, inside a call's arguments, a parameter list, an index
/// or a composite literal's braces (`f(a,\n b\n)` needs a comma after
/// `b`; `literals` are where the tree's composite literals open their
/// braces, as `[]int{` even when the literal is never closed). A
/// declaration group (`var (…)`, `import (…)`) and other braces (blocks,
/// function literals) take line breaks. Reported just after that token.
fn newline_in_list(tokens: &[Token], literals: &[Position]) -> Option<SyntaxError> {
    // the open brackets: (bracket, whether it holds a list)
    let mut open: Vec<(char, bool)> = Vec::new();
    let mut previous: Option<&Token> = None;
    for token in tokens {
        if let (Some(p), Some(&(bracket, true))) = (previous, open.last()) {
            if token.after_break && p.inserts {
                let list = match bracket {
                    '(' => "list (it still waits for ')')",
                    '[' => "list (it still waits for ']')",
                    _ => "composite literal",
                };
                return Some(SyntaxError {
                    position: p.end,
                    message: format!("missing ',' before newline in {list}"),
                });
            }
        }
        match token.text.as_str() {
            "(" => {
                let group = previous.is_some_and(|p| {
                    matches!(p.text.as_str(), "var" | "const" | "import" | "type")
                });
                open.push(('(', !group));
            }
            "[" => open.push(('[', true)),
            "{" => open.push(('{', literals.binary_search(&token.start).is_ok())),
            ")" | "]" | "}" => {
                open.pop();
            }
            _ => {}
        }
        previous = Some(token);
    }
    None
}

/// A top-level list whose closing bracket is missing — a declaration
/// group (`const (`, `var (`, `type (`, `import (`), a declared struct's
/// or interface's braces (`type T struct {`): Go's parser reads specs or
/// fields on until one starts with a token that cannot start it — the
/// next declaration's keyword (`expected 'IDENT', found 'func'`; an
/// import's path is a string: `expected 'STRING'`; a struct's fields end
/// at it: `expected '}'`) — or the file ends (`expected ')'`, at its end,
/// `eof`). With where the list starts. None when the lists close, or a
/// bracket in one does not match (its own error).
fn list_unclosed(tokens: &[Token], eof: Position) -> Option<(Position, SyntaxError)> {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate() {
        let opener = tokens.get(i + 1).map_or("", |t| t.text.as_str());
        let list = match (token.text.as_str(), opener) {
            ("const" | "var" | "type", "(") => Some(List::Specs("IDENT")),
            ("import", "(") => Some(List::Specs("STRING")),
            ("struct" | "interface", "{") => Some(List::Fields),
            _ => None,
        };
        if let Some(list) = list.filter(|_| depth == 0) {
            match list_end(&tokens[i + 1..], list, eof) {
                ListEnd::Closed => {}
                ListEnd::Unclosed(error) => return Some((token.start, error)),
                ListEnd::Mismatched => return None,
            }
        }
        match token.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// A list of a declaration's.
#[derive(Clone, Copy)]
enum List {
    /// A group's specs in `(…)`, each starting with a name (an import's
    /// also with its path: the token Go's parser expects).
    Specs(&'static str),
    /// A struct's or interface's fields or methods in `{…}`, each
    /// starting with a name, a `*`, a `~` or a `(`.
    Fields,
}

impl List {
    /// The bracket that closes the list.
    fn closer(self) -> &'static str {
        match self {
            List::Specs(_) => ")",
            List::Fields => "}",
        }
    }

    /// Whether `token` may start one of the list's items.
    fn starts_item(self, token: &str) -> bool {
        let name =
            is_name(token) && !KEYWORDS.contains(&token) && !ENDING_KEYWORDS.contains(&token);
        name || match self {
            List::Specs(expected) => expected == "STRING" && matches!(token, "." | "\"" | "`"),
            List::Fields => matches!(token, "*" | "~" | "("),
        }
    }

    /// Go's parser's error at a token that cannot start an item.
    fn expected(self, found: &str) -> String {
        match self {
            List::Specs(expected) => format!("expected '{expected}', found '{found}'"),
            List::Fields => format!("expected '}}', found '{found}'"),
        }
    }
}

/// How a list's items end.
enum ListEnd {
    /// At its closing bracket.
    Closed,
    /// Without it: Go's parser's error.
    Unclosed(SyntaxError),
    /// At a closing bracket that matches none of the list's.
    Mismatched,
}

/// How the items of `list`, which `tokens[0]` opens, end: at its closing
/// bracket; at a token that starts an item and cannot start one (a
/// keyword); at the end of the file.
fn list_end(tokens: &[Token], list: List, eof: Position) -> ListEnd {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(1) {
        let previous = &tokens[i - 1];
        // an item starts after the opening bracket, a `;` or a line
        // break's `;`
        let starts = depth == 0
            && (i == 1 || previous.text == ";" || (token.after_break && previous.inserts));
        let text = token.text.as_str();
        if starts && text != list.closer() && text != ";" && !list.starts_item(text) {
            return ListEnd::Unclosed(SyntaxError {
                position: token.start,
                message: list.expected(text),
            });
        }
        match text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" if depth == 0 && text == list.closer() => return ListEnd::Closed,
            ")" | "]" | "}" if depth == 0 => return ListEnd::Mismatched,
            ")" | "]" | "}" => depth -= 1,
            _ => {}
        }
    }
    if depth > 0 {
        return ListEnd::Mismatched;
    }
    ListEnd::Unclosed(SyntaxError {
        position: eof,
        message: format!("expected '{}', found 'EOF'", list.closer()),
    })
}

/// A `{` right after a `,` outside a composite literal's braces (`[]T{a,
/// b},` then `{c, d},` once the first element's `{` is gone): only an
/// element of a literal may leave out its type; Go's parser expects an
/// operand there ("expected operand", at the `{`).
fn element_outside_literal(tokens: &[Token], literals: &[Position]) -> Option<SyntaxError> {
    // whether each open bracket is a composite literal's `{`
    let mut open: Vec<bool> = Vec::new();
    let mut previous: Option<&Token> = None;
    for token in tokens {
        match token.text.as_str() {
            "{" => {
                let in_literal = open.last() == Some(&true);
                if previous.is_some_and(|p| p.text == ",") && !in_literal {
                    return Some(SyntaxError {
                        position: token.start,
                        message: "expected operand, found '{'".to_owned(),
                    });
                }
                open.push(literals.binary_search(&token.start).is_ok());
            }
            "(" | "[" => open.push(false),
            ")" | "]" | "}" => {
                open.pop();
            }
            _ => {}
        }
        previous = Some(token);
    }
    None
}

/// A `,` right after a `,` or an opening bracket (`f(a,, b)`, `{a: 1,`
/// then `,` once a `}` is gone): an element of the list is missing, where
/// Go's parser expects an operand (at the `,`).
fn empty_element(tokens: &[Token]) -> Option<SyntaxError> {
    tokens.windows(2).find_map(|pair| {
        let [previous, token] = pair else { return None };
        let empty = token.text == "," && matches!(previous.text.as_str(), "," | "(" | "[" | "{");
        empty.then(|| SyntaxError {
            position: token.start,
            message: "expected operand, found ','".to_owned(),
        })
    })
}

/// A `,` after a `for` header's `range` expression (`range []T{…},`
/// once an element's `{` is gone and its `}` closes the literal): a
/// range clause takes one expression; Go's parser expects the body's `{`
/// there, at the `,`. (Within the expression, a `{` is a struct's or a
/// composite literal's: `literals`; another `{` is the body's.)
fn comma_after_range(tokens: &[Token], literals: &[Position]) -> Option<SyntaxError> {
    let ranges = tokens.iter().enumerate().filter(|(_, t)| t.text == "range");
    for (i, _) in ranges {
        let mut depth = 0usize;
        for (j, token) in tokens.iter().enumerate().skip(i + 1) {
            match token.text.as_str() {
                "," if depth == 0 => {
                    return Some(SyntaxError {
                        position: token.start,
                        message: "expected '{', found ','".to_owned(),
                    })
                }
                "{" if depth == 0
                    && tokens[j - 1].text != "struct"
                    && tokens[j - 1].text != "interface"
                    && literals.binary_search(&token.start).is_err() =>
                {
                    break
                }
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" if depth == 0 => break,
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
        }
    }
    None
}

/// The `{` missing after a header, where `gofmt -e` reports it: after
/// `struct` or `interface` (`type T struct`), at the token found instead;
/// after an `if`, `for` or `switch` header that a line break ends, at the
/// token that starts the next line — or, when the header has its own `;`
/// (`if x := f(); x > 0`) or a `range`, right after the header, where the
/// line break's `;` stands ("found newline"). With where the header
/// starts.
fn header_without_brace(tokens: &[Token]) -> Option<(Position, SyntaxError)> {
    let expected = |token: &Token, found: &str| SyntaxError {
        position: token.start,
        message: format!("expected '{{', found {found}"),
    };
    for (i, token) in tokens.iter().enumerate() {
        match token.text.as_str() {
            // (of a type declared or a field: in an expression, Go's
            // parser reads on)
            "struct" | "interface" if i > 0 && is_name(&tokens[i - 1].text) => {
                let next = tokens.get(i + 1)?;
                if next.text != "{" {
                    return Some((token.start, expected(next, &format!("'{}'", next.text))));
                }
            }
            "if" | "for" | "switch" => {
                let (mut depth, mut semicolons) = (0usize, 0);
                for (j, t) in tokens.iter().enumerate().skip(i + 1) {
                    match t.text.as_str() {
                        "{" if depth == 0 => break,
                        "(" | "[" | "{" => depth += 1,
                        ")" | "]" | "}" => depth = depth.saturating_sub(1),
                        // (a `range` clause or an init statement's `;`:
                        // the line break's `;` is unexpected itself)
                        ";" | "range" if depth == 0 => semicolons += 1,
                        _ => {}
                    }
                    let Some(next) = tokens.get(j + 1) else { break };
                    // (a header of more lines is a broken bracket's
                    // doing: its own error comes first)
                    if t.end.line > token.start.line + 1 {
                        break;
                    }
                    if depth == 0 && t.inserts && next.after_break {
                        let missing = if semicolons > 0 {
                            SyntaxError {
                                position: t.end,
                                message: "expected '{', found newline".to_owned(),
                            }
                        } else {
                            expected(next, &format!("'{}'", next.text))
                        };
                        return Some((token.start, missing));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a token is a name (or a keyword).
fn is_name(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// Where the composite literals of a tree open their braces, in order.
fn composite_literals(text: &Rope, root: Node<'_>) -> Vec<Position> {
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(node) = todo.pop() {
        if node.kind() == "literal_value" {
            out.push(crate::analysis::syntax::node_start(text, node));
        }
        let mut c = node.walk();
        todo.extend(node.children(&mut c));
    }
    out.sort_unstable();
    out
}

/// A top-level statement that is no declaration (`for` or a name where
/// `func`, `var`, `const`, `type` or `import` must start one): Go's
/// "expected declaration", at that token.
fn not_a_declaration(tokens: &[Token]) -> Option<SyntaxError> {
    let mut depth = 0usize;
    let mut previous: Option<&Token> = None;
    // the file's first token is `package`; its imports come before its
    // other declarations
    let mut declarations = 0;
    let mut imports_end = false;
    for token in tokens {
        let starts = match previous {
            None => true,
            Some(p) => p.text == ";" || (token.after_break && p.inserts),
        };
        let word = token.text.as_str();
        if depth == 0 && starts && word != ";" {
            declarations += 1;
            let expected = match (declarations, word) {
                (1, "package") => None,
                (1, _) => Some("'package'"),
                (_, "package") => Some("declaration"),
                (_, "import") if imports_end => Some("declaration"),
                (_, "import") => None,
                (_, w) if DECLARATIONS.contains(&w) => {
                    imports_end = true;
                    None
                }
                _ => Some("a declaration"),
            };
            if let Some(expected) = expected {
                return Some(SyntaxError {
                    position: token.start,
                    message: format!("expected {expected}, found '{word}'"),
                });
            }
        }
        match token.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
        previous = Some(token);
    }
    None
}

/// The locals of a Go file's functions (`Variable f.x`).
fn locals_go(outline: &mut crate::analysis::Outline, text: &Rope, _tree: &SyntaxTree) {
    super::locals::add_locals(&Go, outline, text);
}

/// Go's predeclared types (of the spec's universe block) a defined type
/// may be over.
pub(crate) const GO_PREDECLARED_TYPES: &[&str] = &[
    "bool",
    "byte",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
    "any",
];

/// Go's other predeclared identifiers (the spec's universe block): its
/// builtin functions, `comparable`, the constants and `nil`.
pub(crate) const GO_PREDECLARED: &[&str] = &[
    "append",
    "cap",
    "clear",
    "close",
    "complex",
    "copy",
    "delete",
    "imag",
    "len",
    "make",
    "max",
    "min",
    "new",
    "panic",
    "print",
    "println",
    "real",
    "recover",
    "comparable",
    "true",
    "false",
    "iota",
    "nil",
];
