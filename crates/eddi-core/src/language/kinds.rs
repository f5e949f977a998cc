//! Tables from one grammar's node kind ids to values.
//!
//! Node kind ids are the grammar's own: id 5 is one kind in Python's
//! grammar and another in JSON's. A table is built for one grammar and
//! answers for that grammar's nodes only (a node of another grammar is a
//! bug, caught by a debug assertion; the release build pays nothing on
//! the hot walks that use these tables).

/// A table from a grammar's node kind ids to `T`, built from the kinds'
/// names by `of_name`: a walk that matches every node's kind looks it up
/// by id instead of calling `Node::kind`, which measures and checks a C
/// string and then compares it arm by arm. Every id of a name maps as the
/// name does (a keyword and the expression it starts share theirs); an
/// ERROR node (no name) maps as `""`.
pub struct KindTable<T> {
    grammar: tree_sitter::Language,
    by_id: Vec<T>,
    unnamed: T,
}

impl<T: Copy> KindTable<T> {
    /// The table of `grammar`'s kinds.
    pub fn new(grammar: tree_sitter::Language, of_name: impl Fn(&'static str) -> T) -> Self {
        KindTable {
            by_id: (0..grammar.node_kind_count() as u16)
                .map(|id| of_name(grammar.node_kind_for_id(id).unwrap_or("")))
                .collect(),
            unnamed: of_name(""),
            grammar,
        }
    }

    /// What `of_name(node.kind())` gives.
    pub fn of(&self, node: tree_sitter::Node<'_>) -> T {
        self.get(node).unwrap_or(self.unnamed)
    }

    /// [`Self::of`] for the kinds the grammar names; `None` for an ERROR
    /// node.
    pub fn get(&self, node: tree_sitter::Node<'_>) -> Option<T> {
        debug_assert!(
            self.is_for(node),
            "a node of grammar {:?} looked up in a table of {:?}",
            node.language().name(),
            self.grammar.name()
        );
        self.by_id.get(node.kind_id() as usize).copied()
    }

    /// Whether `node` is of the grammar this table was built for.
    pub fn is_for(&self, node: tree_sitter::Node<'_>) -> bool {
        *node.language() == self.grammar
    }
}
