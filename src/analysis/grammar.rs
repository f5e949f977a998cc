//! Languages Eddi understands through tree-sitter.
//!
//! One enum, one match per question: adding a grammar means adding a variant,
//! its tree-sitter `LanguageFn` and its file extensions. Only Python is wired
//! up; the analyses in this module tree are Python-specific (they match
//! tree-sitter-python node kinds) and say so in their own docs.

use std::path::Path;

/// A language with a tree-sitter grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    Python,
}

impl Language {
    /// Every supported language, for listing in error messages.
    pub const ALL: &'static [Language] = &[Language::Python];

    /// Stable lowercase identifier (`python`).
    pub fn id(self) -> &'static str {
        match self {
            Language::Python => "python",
        }
    }

    /// File extensions without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Python => &["py", "pyi", "pyw"],
        }
    }

    /// The tree-sitter grammar.
    pub fn tree_sitter(self) -> tree_sitter::Language {
        match self {
            Language::Python => tree_sitter_python::LANGUAGE.into(),
        }
    }

    /// The language of a path, by extension (case-insensitive).
    pub fn from_path(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?;
        Language::from_extension(ext)
    }

    /// The language for an extension given without the dot.
    pub fn from_extension(ext: &str) -> Option<Language> {
        Language::ALL.iter().copied().find(|lang| {
            lang.extensions()
                .iter()
                .any(|e| e.eq_ignore_ascii_case(ext))
        })
    }

    /// The language for an identifier such as `python` (case-insensitive).
    pub fn from_id(id: &str) -> Option<Language> {
        Language::ALL
            .iter()
            .copied()
            .find(|lang| lang.id().eq_ignore_ascii_case(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_is_found_by_extension_and_id() {
        assert_eq!(
            Language::from_path(Path::new("src/a.PY")),
            Some(Language::Python)
        );
        assert_eq!(Language::from_path(Path::new("a.rs")), None);
        assert_eq!(Language::from_path(Path::new("Makefile")), None);
        assert_eq!(Language::from_id("Python"), Some(Language::Python));
    }

    #[test]
    fn grammar_loads() {
        let mut parser = tree_sitter::Parser::new();
        assert!(parser.set_language(&Language::Python.tree_sitter()).is_ok());
    }
}
