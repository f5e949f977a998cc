//! The checks every refactor's result passes before it may be applied:
//! each edited Python file still parses and compiles with no error it did
//! not already have. (Name conflicts are each refactor's own check: only
//! it knows which names it binds.)

use crate::analysis::validate::{syntax_errors, SyntaxError};
use crate::analysis::SyntaxTree;
use rayon::prelude::*;

use crate::change::{FileChange, FileOp, WorkspaceChange};
use crate::workspace::WorkspacePath;

use super::{RefactorError, RefactorFailure, Sources};

/// A Python file's text once the change is applied, with its syntax
/// tree: the check parsed it, so the index takes it after the commit
/// instead of parsing the file again.
pub struct Checked {
    /// Where the text goes (a move's destination).
    pub path: WorkspacePath,
    pub text: String,
    pub tree: SyntaxTree,
}

/// Fails, naming the first file and its first new error, when `change`
/// would add a syntax or compile-time error to a Python file it edits,
/// creates or moves. The files are checked in parallel (a parse and a
/// compile walk each: most of a big rename's time); the error reported is
/// the first file's in the change's order, whatever finished first.
/// Returns every checked file's new text and tree.
pub fn no_new_errors(
    sources: &(dyn Sources + Sync),
    change: &WorkspaceChange,
) -> Result<Vec<Checked>, RefactorError> {
    let files: Vec<(&WorkspacePath, &FileChange)> = change.files().collect();
    let checked: Vec<Option<Checked>> = files
        .par_iter()
        .map(|(path, file)| file_keeps_its_errors(sources, path, file))
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<_, _>>()?;
    Ok(checked.into_iter().flatten().collect())
}

/// [`no_new_errors`] for one file of the change.
fn file_keeps_its_errors(
    sources: &(dyn Sources + Sync),
    path: &WorkspacePath,
    file: &FileChange,
) -> Result<Option<Checked>, RefactorError> {
    let (edits, target) = match &file.op {
        FileOp::Edit(edits) => (edits, path),
        FileOp::Move { to, edits } => (edits, to),
        FileOp::Create(text) => {
            if !is_python(path.as_str()) {
                return Ok(None);
            }
            let rope = ropey::Rope::from_str(text);
            let (tree, errors) = parsed(&rope);
            if let Some(error) = errors.into_iter().next() {
                return Err(would_break(path.as_str(), &error));
            }
            return Ok(tree.map(|tree| Checked {
                path: path.clone(),
                text: text.clone(),
                tree,
            }));
        }
        FileOp::Delete => return Ok(None),
    };
    if !is_python(target.as_str()) {
        return Ok(None);
    }
    let before = sources.source(path.as_str())?.text;
    let after = edits.apply(&before).map_err(|e| {
        RefactorError::new(
            RefactorFailure::WouldBreak,
            format!("Internal error: the edits of {path} do not apply: {e}"),
        )
    })?;
    // The text after first: with no error there is nothing to compare,
    // and the check of the text before (a parse and a compile walk) is
    // not needed.
    let (tree, new) = parsed(&after);
    let checked = tree.map(|tree| Checked {
        path: target.clone(),
        text: after.to_string(),
        tree,
    });
    if new.is_empty() {
        return Ok(checked);
    }
    let old: Vec<String> = errors_of(&before).into_iter().map(|e| e.message).collect();
    // An error is new when its message was not there before (positions
    // move with the edits, so they cannot be compared).
    let mut old_left = old;
    for error in new {
        match old_left.iter().position(|m| *m == error.message) {
            Some(i) => {
                old_left.swap_remove(i);
            }
            None => return Err(would_break(target.as_str(), &error)),
        }
    }
    Ok(checked)
}

fn is_python(path: &str) -> bool {
    path.ends_with(".py") || path.ends_with(".pyi")
}

fn errors_of(text: &ropey::Rope) -> Vec<SyntaxError> {
    parsed(text).1
}

/// The tree of `text` and its syntax and compile-time errors.
fn parsed(text: &ropey::Rope) -> (Option<SyntaxTree>, Vec<SyntaxError>) {
    match SyntaxTree::parse(text) {
        Ok(tree) => {
            let errors = syntax_errors(text, &tree);
            (Some(tree), errors)
        }
        Err(_) => (
            None,
            vec![SyntaxError {
                position: crate::edit::Position::new(0, 0),
                message: "the file could not be parsed".into(),
            }],
        ),
    }
}

fn would_break(path: &str, error: &SyntaxError) -> RefactorError {
    RefactorError::new(
        RefactorFailure::WouldBreak,
        format!("The refactor would break {path}: {error}; nothing was changed"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{Indel, TextEdits};
    use crate::refactor::testing::TestProject;
    use crate::refactor::WorkspaceSources;

    fn edit(project: &TestProject, path: &str, indel: Indel) -> WorkspaceChange {
        let resolved = project.workspace.resolve(path).unwrap();
        let stamp = project.workspace.read(&resolved).unwrap().stamp;
        WorkspaceChange::edit(
            resolved,
            crate::change::Base::Disk(stamp),
            TextEdits::new([indel]).unwrap(),
        )
    }

    #[test]
    fn a_change_that_adds_a_syntax_error_is_refused_naming_the_file() {
        let project = TestProject::new(&[("a.py", "def f():\n    return 1\n")]);
        let sources = WorkspaceSources {
            workspace: &project.workspace,
        };
        let breaking = edit(&project, "a.py", Indel::new(4..5, "("));
        let Err(error) = no_new_errors(&sources, &breaking) else {
            panic!("the broken file passed the check");
        };
        assert_eq!(error.kind, RefactorFailure::WouldBreak);
        assert!(
            error.message.starts_with("The refactor would break a.py: "),
            "{error}"
        );
        let fine = edit(&project, "a.py", Indel::new(4..5, "g"));
        let checked = no_new_errors(&sources, &fine)
            .map_err(|e| e.to_string())
            .unwrap();
        assert_eq!(checked.len(), 1);
        assert_eq!(
            checked[0].text, "def g():\n    return 1\n",
            "the text the commit writes"
        );
        assert_eq!(checked[0].path.as_str(), "a.py");
    }

    #[test]
    fn errors_the_file_already_had_do_not_count() {
        let project = TestProject::new(&[("a.py", "def f(:\n    return 1\nx = 1\n")]);
        let sources = WorkspaceSources {
            workspace: &project.workspace,
        };
        let rename = edit(&project, "a.py", Indel::new(21..22, "y"));
        assert!(no_new_errors(&sources, &rename).is_ok());
    }
}
