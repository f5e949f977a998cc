//! Python's rules for names: what is shaped like an identifier and which
//! words are reserved. One list, read by every edit that creates a name
//! (rename, extract, change signature, modify).

/// The hard keywords of Python 3 (`keyword.kwlist`). The soft keywords
/// (`match`, `case`, `type`, `_`) are valid names and are not listed.
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// True for a hard keyword of Python 3.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// True for a name shaped like a Python identifier: a letter or `_`, then
/// letters, digits or `_` (Unicode letters included, as Python allows).
/// Keywords are shaped like identifiers; [`is_identifier`] excludes them.
pub fn is_identifier_shaped(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// True for a Python identifier that is not a keyword.
pub fn is_identifier(name: &str) -> bool {
    is_identifier_shaped(name) && !is_keyword(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_keywords() {
        assert!(is_identifier("größe"));
        assert!(is_identifier("_private"));
        assert!(is_identifier("match"), "a soft keyword is a valid name");
        assert!(!is_identifier("class"));
        assert!(is_identifier_shaped("class"));
        assert!(!is_identifier("1a"));
        assert!(!is_identifier(""));
        assert!(!is_identifier("a.b"));
        assert!(is_keyword("nonlocal"));
    }

    /// The list is CPython's `keyword.kwlist`, when a Python is at hand.
    #[test]
    fn keywords_are_cpythons() {
        let Ok(out) = std::process::Command::new("python3")
            .args(["-c", "import keyword; print(' '.join(keyword.kwlist))"])
            .output()
        else {
            return;
        };
        if !out.status.success() {
            return;
        }
        let cpython: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        assert_eq!(cpython, KEYWORDS, "KEYWORDS differs from keyword.kwlist");
    }
}
