//! What the analysis layer is asked about and asked to do, as plain data:
//! the element a request names ([`CodeTarget`]), how to change it
//! ([`Modification`]), what to insert ([`InsertKind`]) and how to comment
//! it ([`CommentStyle`]). The command
//! language parses into these types (`commands` re-exports them) and prints
//! them; the analysis layer depends on no front end.

/// A code element a request names: its kind, name and, for functions and
/// methods, optionally its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeTarget {
    /// `Function <name>[(<params>)]`; `params` is the raw text between the
    /// parentheses. `Some("")` comes from `f()`, which the spec writes to mean
    /// "the function" (`Show Function __init__()` finds `def __init__(self)`),
    /// so an empty list should not filter by parameters.
    Function {
        name: String,
        params: Option<String>,
    },
    /// `Class <Name>`
    Class { name: String },
    /// `Method <Class>.<method>[(<params>)]`; `params` as for `Function`.
    Method {
        class: String,
        name: String,
        params: Option<String>,
    },
    /// `Variable <name>`
    Variable { name: String },
}

impl CodeTarget {
    /// Whether it names a function without a name of its own by its
    /// place (`Function f.<anonymous@3:8>`,
    /// [`crate::language::inner_functions`]).
    pub fn names_inner_function(&self) -> bool {
        match self {
            CodeTarget::Function { name, .. } => {
                crate::language::inner_functions::is_inner_name(name)
            }
            CodeTarget::Method { name, .. } => {
                crate::language::inner_functions::is_inner_name(name)
            }
            _ => false,
        }
    }
}

/// A change of a definition's name, signature, decorators or visibility.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Modification {
    Rename { new_name: String },
    AddParam { param: String, at: Option<usize> },
    RemoveParam { name: String },
    ChangeSignature { params: String },
    AddDecorator { decorator: String },
    SetVisibility { visibility: Visibility },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Protected,
    Private,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CommentStyle {
    #[default]
    Line,
    Block,
    Docstring,
}

/// What an insertion adds: lines as given, or a definition or an import
/// placed where Python wants it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertKind {
    Line,
    Block,
    Function,
    Method,
    Class,
    Import,
}

#[cfg(test)]
mod tests {
    /// The services depend on no front end: no `crate::commands` (the command
    /// language) in the analysis or workspace code outside their tests.
    #[test]
    fn analysis_and_workspace_do_not_speak_the_command_language() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offenders = Vec::new();
        // the command language module, not `crate::language` (the programming languages)
        let command_language = regex::Regex::new(r"crate::commands\b").unwrap();
        for dir in ["analysis", "workspace", "change"] {
            for entry in walkdir(&root.join(dir)) {
                let text = std::fs::read_to_string(&entry).unwrap();
                // test modules sit at the end of a file
                let code = text.split("#[cfg(test)]").next().unwrap_or("");
                if command_language.is_match(code) || code.contains("Use: Open") {
                    offenders.push(entry.display().to_string());
                }
            }
        }
        assert!(offenders.is_empty(), "{offenders:?}");
    }

    fn walkdir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(walkdir(&path));
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
                files.push(path);
            }
        }
        files
    }
}
