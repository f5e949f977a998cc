//! One file of a brace rename, read and parsed once: its text, tree and
//! outline, and what a member's declaration says before its name.

use ropey::Rope;

use crate::analysis::index::query::Definition;
use crate::analysis::outline::{Outline, Symbol, SymbolKind};
use crate::analysis::SyntaxTree;
use crate::change::TextEdits;
use crate::language::Language;
use crate::refactor::{Project, RefactorError, RefactorFailure};
use crate::workspace::WorkspacePath;

/// One file read and parsed for the rename.
pub(super) struct Parsed {
    pub path: WorkspacePath,
    pub base: crate::change::Base,
    pub language: &'static dyn Language,
    pub text: Rope,
    pub tree: SyntaxTree,
    pub outline: Outline,
}

impl Parsed {
    pub fn read(
        project: &Project<'_>,
        language: &'static dyn Language,
        path: &str,
    ) -> Result<Parsed, RefactorError> {
        let source = project.source(path)?;
        let tree = SyntaxTree::parse_language(language, &source.text).map_err(|e| {
            RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!("{path} could not be parsed: {e}"),
            )
        })?;
        let outline = language
            .symbol_sites()
            .map(|sites| sites(&source.text, &tree))
            .unwrap_or_default();
        Ok(Parsed {
            path: source.path,
            base: source.base,
            language,
            text: source.text,
            tree,
            outline,
        })
    }

    /// The file of an index definition, read, with the definition's
    /// symbol there (`None`: of no language Eddi reads, or no longer
    /// there).
    pub fn of_definition(
        project: &Project<'_>,
        definition: &Definition,
    ) -> Result<Option<(Parsed, Symbol)>, RefactorError> {
        let path = &definition.location.path;
        let Some(language) = crate::language::language_of(path) else {
            return Ok(None);
        };
        let file = Parsed::read(project, language, path)?;
        let symbol = file
            .outline
            .symbols
            .iter()
            .find(|s| s.name_position == definition.name_position)
            .cloned();
        Ok(symbol.map(|symbol| (file, symbol)))
    }

    /// The text after the edits; refuses edits that leave the file with
    /// more syntax errors.
    pub fn check_kept(&self, path: &str, edits: &TextEdits) -> Result<Rope, RefactorError> {
        let after = edits.apply(&self.text).map_err(|e| {
            RefactorError::new(
                RefactorFailure::WouldBreak,
                format!("Internal error: the edits of {path} do not apply: {e}"),
            )
        })?;
        let Some(check) = self.language.syntax_check() else {
            return Ok(after);
        };
        let Ok(tree) = SyntaxTree::parse_language(self.language, &after) else {
            return Ok(after);
        };
        let before = check(&self.text, &self.tree).len();
        let now = check(&after, &tree);
        if now.len() > before {
            let first = &now[0];
            return Err(RefactorError::new(
                RefactorFailure::WouldBreak,
                format!(
                    "The rename would break {path}: {} at {}; nothing was changed",
                    first.message, first.position
                ),
            ));
        }
        Ok(after)
    }
}

/// The files one walk of a rename reads (a class hierarchy's), each read
/// and parsed once however many classes ask for it: a base class that
/// hundreds of files name is asked for by each class of the family.
#[derive(Default)]
pub(super) struct ParsedFiles(std::collections::HashMap<String, std::rc::Rc<Parsed>>);

impl ParsedFiles {
    pub fn read(
        &mut self,
        project: &Project<'_>,
        language: &'static dyn Language,
        path: &str,
    ) -> Result<std::rc::Rc<Parsed>, RefactorError> {
        if let Some(parsed) = self.0.get(path) {
            return Ok(parsed.clone());
        }
        let parsed = std::rc::Rc::new(Parsed::read(project, language, path)?);
        self.0.insert(path.to_string(), parsed.clone());
        Ok(parsed)
    }
}

/// The type a member belongs to (its class, or a method's receiver type
/// named before it: `T.m`); `None` for a module-level symbol.
pub(super) fn member_of(outline: &Outline, symbol: &Symbol) -> Option<String> {
    if let Some(parent) = outline.parent(symbol) {
        return (parent.kind == SymbolKind::Class).then(|| parent.name.clone());
    }
    match symbol.kind {
        SymbolKind::Method | SymbolKind::Attribute => symbol
            .qualified_name
            .split('.')
            .next()
            .filter(|t| *t != symbol.name)
            .map(str::to_string),
        _ => None,
    }
}

/// Whether a member's declaration before its name holds one of `words`
/// as a word (`private`, `static`).
pub(super) fn has_modifier(file: &Parsed, symbol: &Symbol, words: &[&str]) -> bool {
    head_before_name(file, symbol)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| words.contains(&w))
}

/// A member's declaration before its name, with its annotations (its
/// whole lines hold them).
pub(super) fn head_before_name(file: &Parsed, symbol: &Symbol) -> String {
    symbol.head(&file.text)
}

/// Whether `symbol` of `file` is a Java record's component (its field,
/// its accessor and its canonical constructor's parameter at once).
pub(super) fn is_record_component(file: &Parsed, symbol: &Symbol) -> bool {
    symbol.kind == SymbolKind::Attribute
        && crate::language::record_components::is_record_component(
            &file.text,
            &file.tree,
            symbol.name_position,
        )
}
