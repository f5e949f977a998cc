//! The script language's vocabulary: its keywords, the code elements and
//! their attributes, the conditions and what each applies to. The parser
//! and the checks read these tables, and errors offer their words as the
//! closest valid ones. Keywords match case-insensitively.

use super::ast::{ElementKind, Metric};

/// Words that start a statement of the script language (beyond actions,
/// refactorings and phase-1 commands). A phase-1 command written in a
/// script ends before any of them.
pub const STATEMENT_KEYWORDS: &[&str] = &[
    "foreach", "if", "else", "let", "use", "try", "catch", "on_error", "store", "push", "pop",
    "collect", "rollback",
];

/// Words of `preview changeset <name>` and `apply changeset <name>`: they
/// start a script statement only when `changeset` follows (else they are
/// the phase-1 `Preview`/`Apply`).
pub const CHANGESET_VERBS: &[&str] = &["preview", "apply"];

/// Words that start an action.
pub const ACTION_KEYWORDS: &[&str] = &["replace", "flag", "suggest", "remove", "add"];

/// What `add` adds.
pub const ADD_KINDS: &[&str] = &["import", "line"];

/// `on_error`'s policies.
pub const ERROR_POLICIES: &[&str] = &["continue", "stop", "rollback"];

/// The first words of the queries (singular and plural read the same).
pub const QUERY_WORDS: &[&str] = &[
    "caller",
    "callers",
    "call",
    "calls",
    "method",
    "methods",
    "function",
    "functions",
    "class",
    "classes",
    "file",
    "files",
    "line",
    "lines",
    "symbol",
    "symbols",
    "import",
    "imports",
    "match",
    "matches",
];

/// `symbol of type …`
pub const SYMBOL_KINDS: &[&str] = &["function", "class", "variable"];

/// Words that end a condition's or query's optional parts; never read as
/// a class or function name after `class`/`function`.
pub const CLAUSE_WORDS: &[&str] = &["where", "implementing", "and", "or", "not", "in", "of"];

/// The words a condition starts with (besides `not`, `(`, `$x.attr` and
/// `<element>.attr`).
pub const CONDITION_WORDS: &[&str] = &[
    "complexity",
    "params.count",
    "line_count",
    "has_annotation",
    "imports",
    "contains",
    "unused",
    "not",
];

/// The metric a condition word measures.
pub fn metric(word: &str) -> Option<Metric> {
    match word.to_ascii_lowercase().as_str() {
        "complexity" => Some(Metric::Complexity),
        "params.count" => Some(Metric::ParamsCount),
        "line_count" => Some(Metric::LineCount),
        _ => None,
    }
}

/// The element words and their kinds: `function.name`, `caller.location`.
pub const ELEMENT_WORDS: &[(&str, ElementKind)] = &[
    ("file", ElementKind::File),
    ("function", ElementKind::Function),
    ("method", ElementKind::Method),
    ("class", ElementKind::Class),
    ("caller", ElementKind::Call),
    ("call", ElementKind::Call),
    ("line", ElementKind::Line),
    ("symbol", ElementKind::Symbol),
    ("import", ElementKind::Import),
    ("match", ElementKind::Match),
];

/// The element kind a word names, case-insensitively.
pub fn element(word: &str) -> Option<ElementKind> {
    ELEMENT_WORDS
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(word))
        .map(|(_, kind)| *kind)
}

/// Every element word, for suggestions.
pub fn element_words() -> Vec<&'static str> {
    ELEMENT_WORDS.iter().map(|(w, _)| *w).collect()
}

const FUNCTION_ATTRIBUTES: &[&str] = &[
    "name",
    "qualified_name",
    "location",
    "file",
    "line",
    "line_count",
    "complexity",
    "params",
    "params.count",
    "decorators",
    "text",
];
const METHOD_ATTRIBUTES: &[&str] = &[
    "name",
    "qualified_name",
    "class",
    "location",
    "file",
    "line",
    "line_count",
    "complexity",
    "params",
    "params.count",
    "decorators",
    "text",
];

impl ElementKind {
    /// The word that names the current element of this kind.
    pub fn word(self) -> &'static str {
        match self {
            ElementKind::File => "file",
            ElementKind::Function => "function",
            ElementKind::Method => "method",
            ElementKind::Class => "class",
            ElementKind::Call => "call",
            ElementKind::Line => "line",
            ElementKind::Symbol => "symbol",
            ElementKind::Import => "import",
            ElementKind::Match => "match",
            ElementKind::Capture => "capture",
        }
    }

    /// The kind in the plural, as messages say it (`the elements here are
    /// imports`).
    pub fn plural(self) -> &'static str {
        match self {
            ElementKind::File => "files",
            ElementKind::Function => "functions",
            ElementKind::Method => "methods",
            ElementKind::Class => "classes",
            ElementKind::Call => "calls",
            ElementKind::Line => "lines",
            ElementKind::Symbol => "symbols",
            ElementKind::Import => "imports",
            ElementKind::Match => "matches",
            ElementKind::Capture => "captures",
        }
    }

    /// The attributes an element of this kind has (`$m.name`).
    pub fn attributes(self) -> &'static [&'static str] {
        match self {
            ElementKind::File => &["path", "name", "line_count", "complexity", "text"],
            ElementKind::Function => FUNCTION_ATTRIBUTES,
            ElementKind::Method => METHOD_ATTRIBUTES,
            ElementKind::Class => &[
                "name",
                "qualified_name",
                "location",
                "file",
                "line",
                "line_count",
                "complexity",
                "bases",
                "decorators",
                "text",
            ],
            ElementKind::Call => &[
                "location",
                "file",
                "line",
                "function",
                "args",
                "args.count",
                "text",
            ],
            ElementKind::Line => &["number", "text", "location", "file"],
            ElementKind::Symbol => &["name", "kind", "location", "file", "line"],
            ElementKind::Import => &[
                "name", "module", "names", "location", "file", "line", "text",
            ],
            ElementKind::Match => &["text", "location", "file", "line"],
            ElementKind::Capture => &["text", "type", "location", "file", "line"],
        }
    }
}

/// The element kinds a condition applies to; `None`: any element.
/// Checked where the enclosing `foreach` says what the element is.
pub fn condition_applies_to(word: &str) -> Option<&'static [ElementKind]> {
    use ElementKind::*;
    match word {
        "complexity" | "line_count" => Some(&[File, Function, Method, Class]),
        "params.count" => Some(&[Function, Method, Call]),
        "has_annotation" => Some(&[Function, Method, Class]),
        "imports" => Some(&[File]),
        "unused" => Some(&[Function, Method, Class, Symbol, Import]),
        _ => None,
    }
}

/// The arguments of a refactoring written as a call (`extract_method($m,
/// "name")`), by its registry keyword; `None`: it has only the command form
/// (`rename_param f old new`).
pub fn call_arguments(keyword: &str) -> Option<&'static [&'static str]> {
    match keyword {
        "Extract_Method" | "ExtractFunction" => Some(&["the element", "the new name"]),
        "RenameSymbol" | "Rename_Class" => Some(&["the element", "the new name"]),
        "Inline_Variable" | "InlineFunction" => Some(&["the element"]),
        _ => None,
    }
}
