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

/// A table from the Python grammar's node kind ids to `T`, built from the
/// kinds' names by `of_name`: a walk that matches every node's kind looks
/// it up by id instead of calling `Node::kind`, which measures and checks
/// a C string and then compares it arm by arm. Every id of a name maps as
/// the name does (a keyword and the expression it starts share theirs);
/// an ERROR node (no name) maps as `""`.
pub struct KindTable<T> {
    by_id: Vec<T>,
    unnamed: T,
}

impl<T: Copy> KindTable<T> {
    pub fn new(of_name: impl Fn(&'static str) -> T) -> Self {
        let lang = Language::Python.tree_sitter();
        KindTable {
            by_id: (0..lang.node_kind_count() as u16)
                .map(|id| of_name(lang.node_kind_for_id(id).unwrap_or("")))
                .collect(),
            unnamed: of_name(""),
        }
    }

    /// What `of_name(node.kind())` gives.
    pub fn of(&self, node: tree_sitter::Node<'_>) -> T {
        self.get(node).unwrap_or(self.unnamed)
    }

    /// [`Self::of`] for the kinds the grammar names; `None` for an ERROR
    /// node.
    pub fn get(&self, node: tree_sitter::Node<'_>) -> Option<T> {
        self.by_id.get(node.kind_id() as usize).copied()
    }
}

/// `node.kind()` from a table: the same `&'static str`, without measuring
/// and checking the grammar's C string on every call (walks that compare
/// kinds by name on hot paths).
pub fn kind_name(node: tree_sitter::Node<'_>) -> &'static str {
    static NAMES: std::sync::OnceLock<KindTable<&'static str>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| KindTable::new(|name| name))
        .get(node)
        .unwrap_or_else(|| node.kind()) // ERROR, outside the grammar's table
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

    #[test]
    fn the_kind_tables_name_every_node_as_node_kind_does() {
        let table = KindTable::new(|name| name);
        let src = "import os\n@d\nclass C(B):\n    async def f(self, *a, k=1):\n        x = [y async for y in a if (z := y)]\n        yield from x\n        await g()\n        return f'{x!r}' b'' 1 2.0\nmatch p:\n    case {\"a\": [1, *r]} | None: pass\ntry: pass\nexcept* E as e: print >> f, e\nlambda q=(yield): q\nf(]\n";
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&Language::Python.tree_sitter())
            .unwrap();
        let tree = parser.parse(src, None).unwrap();
        let mut cursor = tree.walk();
        let (mut seen, mut errors) = (0, 0);
        loop {
            let node = cursor.node();
            assert_eq!(kind_name(node), node.kind(), "{node:?}");
            errors += usize::from(node.is_error());
            if !node.is_error() {
                assert_eq!(table.of(node), node.kind(), "{node:?}");
                seen += 1;
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    assert!(seen > 100, "only {seen} nodes");
                    assert!(errors > 0, "the source has a syntax error");
                    return;
                }
            }
        }
    }
}
