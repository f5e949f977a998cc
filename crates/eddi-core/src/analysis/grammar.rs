//! Python's tree-sitter grammar, as the analyses of this module tree use
//! it: they match tree-sitter-python node kinds (this tree is the Python
//! wing of the language seam, `crate::language::python`; the registry of
//! languages is `crate::language`, not to be confused with the command
//! language, `commands`).

use crate::language::KindTable;

/// The tree-sitter-python grammar.
pub fn python() -> tree_sitter::Language {
    tree_sitter_python::LANGUAGE.into()
}

/// `node.kind()` of a Python node from a table: the same `&'static str`,
/// without measuring and checking the grammar's C string on every call
/// (walks that compare kinds by name on hot paths).
pub fn kind_name(node: tree_sitter::Node<'_>) -> &'static str {
    static NAMES: std::sync::OnceLock<KindTable<&'static str>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| KindTable::new(python(), |name| name))
        .get(node)
        .unwrap_or_else(|| node.kind()) // ERROR, outside the grammar's table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_loads() {
        let mut parser = tree_sitter::Parser::new();
        assert!(parser.set_language(&python()).is_ok());
    }

    #[test]
    fn the_kind_tables_name_every_node_as_node_kind_does() {
        let table = KindTable::new(python(), |name| name);
        let src = "import os\n@d\nclass C(B):\n    async def f(self, *a, k=1):\n        x = [y async for y in a if (z := y)]\n        yield from x\n        await g()\n        return f'{x!r}' b'' 1 2.0\nmatch p:\n    case {\"a\": [1, *r]} | None: pass\ntry: pass\nexcept* E as e: print >> f, e\nlambda q=(yield): q\nf(]\n";
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&python()).unwrap();
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
