//! Java behind the language seam: its outline, a syntax check and code
//! targets, read from its symbol sites by the brace languages' reader
//! ([`super::braces`]). Classes, interfaces, enums, records and annotation
//! types (nested ones by their path, `Outer.Inner`); their methods and
//! constructors (`Method Shape.area`, `Method Shape.Shape`; overloads by
//! their parameters, `Shape.scale( factor)`, or ordinal); fields and enum
//! constants (`Variable Shape.LIMIT`). Java has no functions outside
//! classes: `Function m` finds a method by its name alone. Its code edits,
//! analyses, project index and renames are those of the brace languages
//! ([`super::edits`], [`super::complexity`], `analysis/index/tags`); the
//! refactors beyond renames say that they are Python's alone.

use ropey::Rope;
use tree_sitter::Node;

use super::braces::{self, parameter_list, Braces, Parameters};
use super::parse_errors::{keywords_as_names, parse_errors, token_before, EndOfFile, Lexicon};
use super::{Language, Outline, SymbolSites, SyntaxCheck};
use crate::analysis::outline as symbols;
use crate::analysis::syntax::{byte_to_position, node_start, node_text, TextAt};
use crate::analysis::validate::SyntaxError;
use crate::analysis::SyntaxTree;

/// The Java language.
#[derive(Debug, Clone, Copy)]
pub struct Java;

impl Language for Java {
    fn predeclared(&self, name: &str) -> bool {
        JAVA_LANG.contains(&name)
    }

    fn id(&self) -> &'static str {
        "java"
    }

    fn name(&self) -> &'static str {
        "Java"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["java"]
    }

    fn interpreters(&self) -> &'static [&'static str] {
        // a single-file source program: `#!/usr/bin/java --source 17`
        &["java"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_java::LANGUAGE.into()
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        braces::read(&BRACES, text, tree).outline()
    }

    fn syntax_check(&self) -> Option<SyntaxCheck> {
        Some(syntax_errors)
    }

    fn brace_edits(&self) -> Option<super::edits::BraceEdits> {
        // Javadoc above an element, four spaces where the file shows none
        Some(super::edits::BraceEdits {
            unit: "    ",
            line_comment: "//",
            doc: super::edits::DocComment::Block,
            imports: Some(super::line_imports::insert_java_import),
            top_level_functions: false,
            methods: super::edits::MethodPlace::InClass,
            overloads: false,
        })
    }

    fn formatter(&self) -> Option<super::ExternalFormatter> {
        // google-java-format: Google's style, whole files (its ranges are
        // lines or offsets and lengths, not the two offsets Eddi gives),
        // no line length to set
        Some(super::ExternalFormatter {
            program: "google-java-format",
            args: &["-"],
            range: None,
            width: None,
            install: "install google-java-format: npm install --global google-java-format@1.4.0 (it needs Java 17)",
        })
    }

    fn issue_checks(&self) -> Option<super::issues::IssueChecks> {
        Some(super::issues::IssueChecks {
            loose_equality: false,
            unused_imports: Some(super::issues::UnusedImports::Java),
        })
    }

    fn decision_points(&self) -> Option<super::complexity::DecisionPoints> {
        Some(super::complexity::JAVA)
    }

    fn index_scan(&self) -> Option<super::IndexScan> {
        // references, definitions and callers across the project
        // (analysis/index/tags)
        Some(super::IndexScan {
            indexed: &["java"],
            watched: &["java"],
        })
    }

    fn local_sites(&self) -> Option<super::LocalSites> {
        Some(locals_java)
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

/// Where Java keeps the parts of its elements.
const BRACES: Braces = Braces {
    language: &Java,
    comments: &["line_comment", "block_comment"],
    annotations: &["marker_annotation", "annotation"],
    modifiers: &["modifiers"],
    groups: &["field_declaration", "constant_declaration"],
    body: |node| node.child_by_field_name("body"),
    parameters,
    owner: |_, _| None,
    is_async: |_| false,
};

/// What a bracket scan skips in Java: `"` strings and `'` characters,
/// comments; javac reports the end of the file at its last token.
const LEXICON: Lexicon = Lexicon {
    line_quotes: &['"', '\''],
    multiline_quotes: &[],
    char_quote: false,
    raw_strings: false,
    nested_comments: false,
    semicolon_before_line: true,
    list_error_at_token: false,
    expression_keywords: &["return", "throw"],
    accepts: None,
    end: EndOfFile::LastToken,
};

/// A Java file's symbols as code targets name them.
fn sites(text: &Rope, tree: &SyntaxTree) -> symbols::Outline {
    braces::read(&BRACES, text, tree).symbols
}

/// The index's definitions of the elements its walk found.
fn definitions(text: &dyn TextAt, found: Vec<super::FoundSite<'_>>) -> Vec<super::SiteDefinition> {
    super::braces::definitions(&BRACES, text, found)
}

/// A method's or constructor's parameters: `int a, String... more` binds
/// `a`, `more` (a receiver parameter, `Shape this`, binds nothing).
fn parameters(text: &Rope, callable: Node<'_>) -> Parameters {
    parameter_list(
        text,
        callable.child_by_field_name("parameters"),
        |p| match p.kind() {
            "formal_parameter" => p.child_by_field_name("name").into_iter().collect(),
            "spread_parameter" => {
                let mut c = p.walk();
                let declarator = p
                    .named_children(&mut c)
                    .find(|n| n.kind() == "variable_declarator");
                declarator
                    .and_then(|d| d.child_by_field_name("name"))
                    .into_iter()
                    .collect()
            }
            _ => Vec::new(),
        },
    )
}

/// The syntax errors of a Java file, in source order: tree-sitter's parse
/// errors, each with what is wrong (javac agrees on the line in the common
/// cases: the tests compare them where javac is installed).
fn syntax_errors(text: &Rope, tree: &SyntaxTree) -> Vec<SyntaxError> {
    let mut errors = parse_errors(text, tree.root(), &LEXICON);
    errors.extend(keyword_names(text, tree.root()));
    if let Some(stray) = stray_annotation(text, tree.root()) {
        // javac reads it as the annotation of the type before it: what
        // the grammar reports from that type on follows from it
        errors.retain(|e| e.position < stray.after);
        errors.push(stray.error);
    }
    if let Some(scanned) = unclosed(text) {
        // the grammar's reading of its line and of the rest is not Java's
        errors.retain(|e| e.position.line < scanned.position.line);
        errors.push(scanned);
    }
    errors.sort_by_key(|e| e.position);
    errors
}

/// Java's reserved words, which are never names.
pub(crate) const RESERVED: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
];

/// A reserved word where the grammar took a name (`int class;`), where
/// javac reports it: a local variable's at its declaration ("not a
/// statement"), another's right after the token before it ("<identifier>
/// expected", "'{' expected"), one that starts a member or statement at
/// the word ("illegal start of type").
fn keyword_names(text: &Rope, root: Node<'_>) -> Vec<SyntaxError> {
    let names = keywords_as_names(text, root, &["identifier", "type_identifier"], RESERVED);
    names
        .into_iter()
        .map(|name| {
            let declaration = name
                .parent()
                .filter(|p| p.kind() == "variable_declarator")
                .and_then(|p| p.parent())
                .filter(|d| d.kind() == "local_variable_declaration");
            // (after a `;` or a brace, the word starts a member or statement)
            let before = token_before(name)
                .filter(|b| !matches!(node_text(text, *b).as_str(), ";" | "{" | "}"));
            let position = match (declaration, before) {
                (Some(d), _) => node_start(text, d),
                (None, Some(before)) => byte_to_position(text, before.end_byte()),
                (None, None) => node_start(text, name),
            };
            SyntaxError {
                position,
                message: format!("'{}' is a reserved word, not a name", node_text(text, name)),
            }
        })
        .collect()
}

/// An annotation javac refuses, and where its error's causes start.
struct StrayAnnotation {
    error: SyntaxError,
    /// The start of the types before the annotation.
    after: crate::edit::Position,
}

/// The first annotation that starts a line right after a name with no
/// `;` or brace between them (a class header's `{` or a field's `;`
/// missing): javac reads it as a type annotation of that name, which only
/// array brackets may follow, and reports "illegal start of type" at the
/// `@` (JavacParser.bracketsOpt).
fn stray_annotation(text: &Rope, root: Node<'_>) -> Option<StrayAnnotation> {
    let mut stack = vec![root];
    let mut found: Option<Node<'_>> = None;
    while let Some(node) = stack.pop() {
        if !node.is_named() && node.kind() == "@" && stray_at(text, node) {
            found = Some(found.map_or(node, |f| {
                if node.start_byte() < f.start_byte() {
                    node
                } else {
                    f
                }
            }));
        }
        let mut c = node.walk();
        stack.extend(node.children(&mut c));
    }
    let at = found?;
    let name = token_before(at)?;
    Some(StrayAnnotation {
        error: SyntaxError {
            position: node_start(text, at),
            message: format!(
                "illegal start of type: an annotation after '{}'",
                node_text(text, name)
            ),
        },
        after: node_start(text, type_list_start(text, name)),
    })
}

/// The first token of the types that end with `last` (`extends A<B>,
/// C`, `implements java.io.Serializable`): the grammar's errors from
/// there on are the stray annotation's.
fn type_list_start<'t>(text: &Rope, last: Node<'t>) -> Node<'t> {
    let mut start = last;
    while let Some(before) = token_before(start) {
        let word = node_text(text, before);
        let in_types = matches!(
            word.as_str(),
            "." | "," | "<" | ">" | "?" | "&" | "extends" | "implements" | "permits" | "super"
        ) || word
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && !RESERVED.contains(&word.as_str());
        if !in_types {
            break;
        }
        start = before;
    }
    start
}

/// Whether the `@` token `at` starts its line, and the token before it,
/// on an earlier line, is a name that no annotation may follow: not a
/// keyword (`public`, `final`), nor an annotation's own name
/// (`@Deprecated` then `@Override`); `@interface` is a declaration.
fn stray_at(text: &Rope, at: Node<'_>) -> bool {
    let Some(before) = token_before(at) else {
        return false;
    };
    let word = node_text(text, before);
    let is_name = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && !RESERVED.contains(&w)
    };
    let next_is_interface = token_after_text(text, at).as_deref() == Some("interface");
    before.end_position().row < at.start_position().row
        && crate::analysis::lines::text_of(text, at.start_position().row)
            .trim_start()
            .starts_with('@')
        && is_name(&word)
        && !NON_RESERVED_MODIFIERS.contains(&word.as_str())
        && !annotation_name(text, before)
        && !next_is_interface
}

/// Words that are modifiers without being reserved (`sealed`,
/// `non-sealed`'s first part): an annotation may follow them.
const NON_RESERVED_MODIFIERS: &[&str] = &["sealed", "non"];

/// Whether the name `last` ends an annotation's name (`@java.io.Serial`).
fn annotation_name(text: &Rope, last: Node<'_>) -> bool {
    let mut at = last;
    loop {
        let Some(before) = token_before(at) else {
            return false;
        };
        match node_text(text, before).as_str() {
            "@" => return true,
            "." => match token_before(before) {
                Some(name) => at = name,
                None => return false,
            },
            _ => return false,
        }
    }
}

/// The text of the token right after `node`.
fn token_after_text(text: &Rope, node: Node<'_>) -> Option<String> {
    super::parse_errors::token_after(node).map(|t| node_text(text, t))
}

/// A comment, text block, string or char literal never closed, where
/// javac's scanner reports it: at its start.
fn unclosed(text: &Rope) -> Option<SyntaxError> {
    let code = text.to_string();
    let bytes = code.as_bytes();
    let error = |at: usize, message: &str| {
        Some(SyntaxError {
            position: byte_to_position(text, at),
            message: message.to_owned(),
        })
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        i = if rest.starts_with("//") {
            rest.find('\n').map_or(bytes.len(), |n| i + n)
        } else if let Some(comment) = rest.strip_prefix("/*") {
            match comment.find("*/") {
                Some(n) => i + 2 + n + 2,
                None => return error(i, "unclosed comment"),
            }
        } else if rest.starts_with("\"\"\"") {
            match quoted_end(rest, 3, "\"\"\"", false) {
                Some(n) => i + n,
                None => return error(i, "unclosed text block"),
            }
        } else if rest.starts_with('"') || rest.starts_with('\'') {
            let quote = &rest[..1];
            match quoted_end(rest, 1, quote, true) {
                Some(n) => i + n,
                None if quote == "\"" => return error(i, "unclosed string literal"),
                None => return error(i, "unclosed character literal"),
            }
        } else {
            i + rest.chars().next().map_or(1, char::len_utf8)
        };
    }
    None
}

/// Just after the closing `quote` of a literal whose body starts at byte
/// `from` of `rest` (escapes skipped); None when a line break (where
/// `one_line`) or the end comes first.
fn quoted_end(rest: &str, from: usize, quote: &str, one_line: bool) -> Option<usize> {
    let mut chars = rest[from..].char_indices();
    while let Some((n, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\n' if one_line => return None,
            _ if rest[from + n..].starts_with(quote) => return Some(from + n + quote.len()),
            _ => {}
        }
    }
    None
}

/// The locals of a Java file's functions (`Variable f.x`).
fn locals_java(outline: &mut crate::analysis::Outline, text: &Rope, _tree: &SyntaxTree) {
    super::locals::add_locals(&Java, outline, text);
}

/// The classes of `java.lang` every Java file sees without an import.
pub(crate) const JAVA_LANG: &[&str] = &[
    "Object",
    "String",
    "System",
    "Math",
    "StrictMath",
    "Integer",
    "Long",
    "Double",
    "Float",
    "Short",
    "Byte",
    "Character",
    "Boolean",
    "Number",
    "Void",
    "StringBuilder",
    "StringBuffer",
    "CharSequence",
    "Comparable",
    "Iterable",
    "AutoCloseable",
    "Cloneable",
    "Runnable",
    "Thread",
    "ThreadGroup",
    "ThreadLocal",
    "InheritableThreadLocal",
    "Class",
    "ClassLoader",
    "Enum",
    "Record",
    "Process",
    "ProcessBuilder",
    "Runtime",
    "StackTraceElement",
    "StackWalker",
    "Module",
    "Package",
    "SecurityManager",
    "Throwable",
    "Exception",
    "RuntimeException",
    "Error",
    "IllegalArgumentException",
    "IllegalStateException",
    "NullPointerException",
    "UnsupportedOperationException",
    "IndexOutOfBoundsException",
    "ArrayIndexOutOfBoundsException",
    "StringIndexOutOfBoundsException",
    "ClassCastException",
    "ArithmeticException",
    "ArrayStoreException",
    "NegativeArraySizeException",
    "NumberFormatException",
    "CloneNotSupportedException",
    "InterruptedException",
    "SecurityException",
    "ReflectiveOperationException",
    "ClassNotFoundException",
    "NoSuchFieldException",
    "NoSuchMethodException",
    "InstantiationException",
    "IllegalAccessException",
    "IllegalMonitorStateException",
    "AssertionError",
    "OutOfMemoryError",
    "StackOverflowError",
    "LinkageError",
    "NoClassDefFoundError",
    "ExceptionInInitializerError",
    "VirtualMachineError",
    "InternalError",
    "Override",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
];
