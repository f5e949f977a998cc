//! The files one refactor computation reads: each read once, parsed once
//! and scoped once, when first asked, and shared by every refactoring and
//! by the check ([`super::check`]).
//!
//! A [`Project`] holds one [`Parses`]; the engine makes a new `Project`
//! for each computation, so nothing outlives the texts it was read from.
//! A tree is always the tree of the [`Source`] it is kept with: the text
//! is read first, kept, and the tree parsed from that very text.
//!
//! Trees are kept for the files a refactoring works in ([`Parses::parsed`]),
//! not for those a step only looks through once ([`Parses::scanned`]: a
//! scan of the whole project, one file being renamed, one file a function
//! is inlined in): held all at once,
//! tree-sitter's trees made a class rename on Django 70% slower (its
//! allocations in glibc's heap no longer reuse what the last tree freed).
//!
//! [`Project`]: super::Project

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

use ropey::Rope;
use tree_sitter::Node;

use super::{RefactorError, RefactorFailure, Source, Sources};
use crate::analysis::scope::{analyze, Scopes};
use crate::analysis::syntax::{char_to_byte, node_chars, node_text, SyntaxTree};
use crate::edit::Position;

/// The files a computation read, by the path it asked for and by the
/// canonical path its [`Source`] names (both lead to one entry).
#[derive(Default)]
pub struct Parses {
    files: Mutex<HashMap<String, Arc<Read>>>,
}

/// A file's text as read, and its parse once made.
struct Read {
    source: Source,
    parsed: OnceLock<Result<Arc<Parsed>, String>>,
}

impl Parses {
    /// The text of `path`, read through `sources` the first time only.
    /// A refusal (a file with unsaved edits, an unreadable one) is not
    /// kept: asked again, `sources` answers again.
    pub fn source(&self, sources: &dyn Sources, path: &str) -> Result<Source, RefactorError> {
        Ok(self.read(sources, path)?.source.clone())
    }

    /// `path` read and parsed, each the first time only.
    pub fn parsed(&self, sources: &dyn Sources, path: &str) -> Result<Arc<Parsed>, RefactorError> {
        let read = self.read(sources, path)?;
        let parsed = read.parsed.get_or_init(|| {
            Parsed::new(read.source.clone())
                .map(Arc::new)
                .map_err(|e| format!("{} could not be parsed: {e}", read.source.path))
        });
        parsed
            .clone()
            .map_err(|message| RefactorError::new(RefactorFailure::Unreadable, message))
    }

    /// `path`'s parse for one look: the kept one when a step parsed it
    /// already, else a parse that is not kept.
    pub fn scanned(&self, sources: &dyn Sources, path: &str) -> Result<Arc<Parsed>, RefactorError> {
        let read = self.read(sources, path)?;
        match read.parsed.get() {
            Some(parsed) => parsed.clone(),
            None => Parsed::new(read.source.clone())
                .map(Arc::new)
                .map_err(|e| format!("{} could not be parsed: {e}", read.source.path)),
        }
        .map_err(|message| RefactorError::new(RefactorFailure::Unreadable, message))
    }

    fn read(&self, sources: &dyn Sources, path: &str) -> Result<Arc<Read>, RefactorError> {
        if let Some(read) = self.lock().get(path) {
            return Ok(read.clone());
        }
        // Read without the lock: the check asks from several threads.
        let source = sources.source(path)?;
        let mut files = self.lock();
        let canonical = source.path.as_str().to_owned();
        let read = files
            .entry(canonical)
            .or_insert_with(|| {
                Arc::new(Read {
                    source,
                    parsed: OnceLock::new(),
                })
            })
            .clone();
        files.entry(path.to_owned()).or_insert_with(|| read.clone());
        Ok(read)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Read>>> {
        self.files.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One file as the refactors read it: its text, its tree and (when asked)
/// its scopes, with the conversions between tree-sitter's bytes and the
/// text's chars and positions.
pub struct Parsed {
    pub source: Source,
    pub tree: SyntaxTree,
    /// The text as a string, for tree-sitter's byte offsets (when asked).
    src: OnceLock<String>,
    scopes: OnceLock<Scopes>,
}

impl Parsed {
    /// Parses `source`'s text: a file's, or a piece of code of its own (a
    /// doctest example) with the file's path and base.
    pub fn new(source: Source) -> crate::analysis::error::Result<Parsed> {
        let tree = SyntaxTree::parse(&source.text)?;
        Ok(Parsed {
            source,
            tree,
            src: OnceLock::new(),
            scopes: OnceLock::new(),
        })
    }

    pub fn text(&self) -> &Rope {
        &self.source.text
    }

    pub fn path(&self) -> &str {
        self.source.path.as_str()
    }

    /// The text as a string: what tree-sitter's byte offsets index.
    pub fn src(&self) -> &str {
        self.src.get_or_init(|| self.source.text.to_string())
    }

    /// The file's scopes, bindings and references, analysed once.
    pub fn scopes(&self) -> &Scopes {
        self.scopes
            .get_or_init(|| analyze(&self.source.text, &self.tree))
    }

    pub fn chars(&self, node: Node<'_>) -> Range<usize> {
        node_chars(self.text(), node)
    }

    pub fn char_of(&self, byte: usize) -> usize {
        self.text().byte_to_char(byte.min(self.text().len_bytes()))
    }

    pub fn byte_of(&self, char: usize) -> usize {
        self.text().char_to_byte(char.min(self.text().len_chars()))
    }

    /// The char offset of a position (clamped to the text).
    pub fn offset(&self, position: Position) -> usize {
        let text = self.text();
        let line = position.line.min(text.len_lines().saturating_sub(1));
        let start = text.line_to_char(line);
        let line_len = text.line(line).len_chars();
        start + position.col.min(line_len)
    }

    pub fn position(&self, char: usize) -> Position {
        crate::edit::position::from_char(self.text(), char)
    }

    /// `line:col` of where a node starts, as replies print places.
    pub fn at(&self, node: Node<'_>) -> Position {
        self.position(self.char_of(node.start_byte()))
    }

    /// `path:line:col` of where a node starts: a call site is named with its
    /// file, since a function's calls may be in any file of the project.
    pub fn place(&self, node: Node<'_>) -> String {
        format!("{}:{}", self.path(), self.at(node))
    }

    /// The source of a node as written.
    pub fn node_text(&self, node: Node<'_>) -> String {
        node_text(self.text(), node)
    }

    /// The source of a node, with `\n` line endings (inserted text's form).
    pub fn source_of(&self, node: Node<'_>) -> String {
        node.utf8_text(self.src().as_bytes())
            .unwrap_or_default()
            .replace("\r\n", "\n")
    }

    pub fn slice(&self, range: Range<usize>) -> String {
        self.text().slice(range).to_string()
    }

    /// The smallest named node that covers the char offset.
    pub fn node_covering(&self, offset: usize) -> Option<Node<'_>> {
        let byte = char_to_byte(self.text(), offset);
        self.tree.root().named_descendant_for_byte_range(byte, byte)
    }

    /// The smallest named node spanning exactly these chars.
    pub fn node_spanning(&self, chars: Range<usize>) -> Option<Node<'_>> {
        let (start, end) = (self.byte_of(chars.start), self.byte_of(chars.end));
        let node = self
            .tree
            .root()
            .named_descendant_for_byte_range(start, end)?;
        (node.start_byte() == start && node.end_byte() == end).then_some(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::syntax::fresh_parses;
    use crate::edit::Position;
    use crate::refactor::testing::TestProject;
    use crate::refactor::{
        compute, Cursor, InlineKind, Project, Refactoring, RenameKind, SitePolicy, WorkspaceSources,
    };

    /// The fresh parses `request` makes on this thread (the check's run
    /// on others), and the project it computed in.
    fn parses_of(
        project: &TestProject,
        current: Option<(&str, usize)>,
        request: Refactoring,
    ) -> usize {
        let sources = WorkspaceSources {
            workspace: &project.workspace,
        };
        let current = current.map(|(path, line)| Cursor {
            path: path.into(),
            position: Position::new(line, 4),
        });
        let project = Project::new(&project.index, &sources, current);
        let before = fresh_parses::made();
        compute(&project, &request).map_err(|e| e.message).unwrap();
        fresh_parses::made() - before
    }

    fn rename(kind: RenameKind, symbol: &str, new: &str) -> Refactoring {
        Refactoring::Rename {
            kind,
            symbol: symbol.into(),
            new_name: new.into(),
            include_text: true,
            sites: SitePolicy::Refuse,
        }
    }

    #[test]
    fn a_refactor_parses_a_file_once_for_all_its_steps() {
        // both files say the new name (the conflict check reads their
        // scopes); b.py has strings with the old one (data or prose: read
        // in its tree) and takes a class's name (what name-based dispatch
        // reads)
        let b = "class Shape:\n    '''Shape: a shape'''\n\n\ndef area(s):\n    # not Figure\n    return type(s).__name__, {'Shape': 1}\n";
        let project = TestProject::new(&[
            (
                "a.py",
                "from b import Shape, area\n\nx = area(Shape())  # a Figure\ny = x\n",
            ),
            ("b.py", b),
        ]);
        let class = rename(RenameKind::Class, "b.Shape", "Figure");
        assert_eq!(
            parses_of(&project, None, class),
            3,
            "a.py once, b.py once for its edits and once in the scan for name-based dispatch"
        );
        let function = rename(RenameKind::Symbol, "b.area", "Figure");
        assert_eq!(parses_of(&project, None, function), 2);
        let inline = Refactoring::Inline {
            kind: InlineKind::Variable,
            name: "x".into(),
        };
        assert_eq!(parses_of(&project, Some(("a.py", 3)), inline), 1);
    }

    #[test]
    fn a_file_asked_for_by_two_names_is_read_and_parsed_once() {
        let project = TestProject::new(&[("pkg/a.py", "x = 1\n")]);
        let sources = WorkspaceSources {
            workspace: &project.workspace,
        };
        let parses = Parses::default();
        let before = fresh_parses::made();
        let one = parses.parsed(&sources, "pkg/a.py").unwrap();
        let other = parses.parsed(&sources, "pkg/../pkg/a.py").unwrap();
        assert_eq!(fresh_parses::made() - before, 1);
        assert!(Arc::ptr_eq(&one, &other));
        assert_eq!(one.tree.root().end_byte(), one.text().len_bytes());
        assert!(parses.parsed(&sources, "nosuch.py").is_err());
    }

    #[test]
    fn a_scan_uses_a_kept_tree_and_keeps_none() {
        let project = TestProject::new(&[("a.py", "x = 1\n"), ("b.py", "y = 2\n")]);
        let sources = WorkspaceSources {
            workspace: &project.workspace,
        };
        let parses = Parses::default();
        let before = fresh_parses::made();
        let kept = parses.parsed(&sources, "a.py").unwrap();
        assert!(Arc::ptr_eq(
            &kept,
            &parses.scanned(&sources, "a.py").unwrap()
        ));
        parses.scanned(&sources, "b.py").unwrap();
        parses.scanned(&sources, "b.py").unwrap();
        assert_eq!(fresh_parses::made() - before, 3, "a.py once, b.py twice");
    }
}
