//! JSON behind the language seam, for the tests that prove it: a grammar
//! and an outline (every key of every object) from its outline query,
//! and no other capability.

use std::sync::OnceLock;

use ropey::Rope;
use tree_sitter::Query;

use super::{outline, Language, Outline};
use crate::analysis::SyntaxTree;

/// The JSON language.
#[derive(Debug, Clone, Copy)]
pub struct Json;

impl Language for Json {
    fn id(&self) -> &'static str {
        "json"
    }

    fn name(&self) -> &'static str {
        "JSON"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["json"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_json::LANGUAGE.into()
    }

    fn outline(&self, text: &Rope, tree: &SyntaxTree) -> Outline {
        static QUERY: OnceLock<Query> = OnceLock::new();
        let query = QUERY.get_or_init(|| {
            Query::new(
                &self.grammar(),
                include_str!("../../queries/json/outline.scm"),
            )
            .expect("the JSON outline query matches the JSON grammar")
        });
        outline::from_query(query, text, tree)
    }
}
