//! The checks every refactor's result passes before it may be applied:
//! each edited Python file still parses and compiles with no error it did
//! not already have — proved by parsing it, or, for a file where names
//! only were swapped for names, by the rules of [`names_swapped`]. (Name
//! conflicts are each refactor's own check: only it knows which names it
//! binds.)

mod names_swapped;

use crate::analysis::validate::{syntax_errors, SyntaxError};
use crate::analysis::SyntaxTree;
use rayon::prelude::*;

use crate::change::{FileChange, FileOp};
use crate::workspace::WorkspacePath;

use super::{Project, RefactorError, RefactorFailure, Refactored};

/// A Python file's text once the change is applied, with its syntax
/// tree: the check parsed it, so the index takes it after the commit
/// instead of parsing the file again.
pub struct Checked {
    /// Where the text goes (a move's destination).
    pub path: WorkspacePath,
    pub text: String,
    pub tree: SyntaxTree,
}

/// Fails, naming the first file and its first new error, when the
/// refactor's change would add a syntax or compile-time error to a Python
/// file it edits, creates or moves. The files are checked in parallel (a
/// parse and a compile walk each: most of a big rename's time, but for the
/// files of `refactored.names_swapped` that `index` proves keep their
/// parse); the error reported is the first file's in the change's order,
/// whatever finished first. Returns the new text and tree of every file
/// it parsed.
pub fn no_new_errors(
    project: &Project<'_>,
    refactored: &Refactored,
) -> Result<Vec<Checked>, RefactorError> {
    let files: Vec<(&WorkspacePath, &FileChange)> = refactored.change.files().collect();
    let checked: Vec<Option<Checked>> = files
        .par_iter()
        .map(|(path, file)| {
            let swapped = refactored.names_swapped.contains(*path);
            file_keeps_its_errors(project, path, file, swapped)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<_, _>>()?;
    Ok(checked.into_iter().flatten().collect())
}

/// [`no_new_errors`] for one file of the change; `swapped` when the
/// refactor swapped names only in it. The text before, and its tree when
/// it is needed, are the ones the refactor read ([`Project::parsed`]).
fn file_keeps_its_errors(
    project: &Project<'_>,
    path: &WorkspacePath,
    file: &FileChange,
    swapped: bool,
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
    let before = project.source(path.as_str())?.text;
    if let (true, FileOp::Edit(edits)) = (swapped, &file.op) {
        if names_swapped::keep_the_parse(project.index, path.as_str(), &before, edits) {
            return Ok(None);
        }
    }
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
    let old: Vec<String> = errors_of(project, path.as_str())
        .into_iter()
        .map(|e| e.message)
        .collect();
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

/// The syntax and compile-time errors of `path` as the refactor read it,
/// parsed once for the whole computation.
fn errors_of(project: &Project<'_>, path: &str) -> Vec<SyntaxError> {
    match project.parsed(path) {
        Ok(file) => syntax_errors(file.text(), &file.tree),
        Err(_) => vec![unparsed()],
    }
}

/// The tree of `text` and its syntax and compile-time errors.
fn parsed(text: &ropey::Rope) -> (Option<SyntaxTree>, Vec<SyntaxError>) {
    match SyntaxTree::parse(text) {
        Ok(tree) => {
            let errors = syntax_errors(text, &tree);
            (Some(tree), errors)
        }
        Err(_) => (None, vec![unparsed()]),
    }
}

fn unparsed() -> SyntaxError {
    SyntaxError {
        position: crate::edit::Position::new(0, 0),
        message: "the file could not be parsed".into(),
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
    use crate::change::{Indel, TextEdits, WorkspaceChange};
    use crate::refactor::testing::TestProject;
    use crate::refactor::{Project, WorkspaceSources};

    /// A refactor's result that makes `indels` in `path`, a file where it
    /// swapped names only when `names_only`.
    fn edit(project: &TestProject, path: &str, indels: Vec<Indel>, names_only: bool) -> Refactored {
        let resolved = project.workspace.resolve(path).unwrap();
        let stamp = project.workspace.read(&resolved).unwrap().stamp;
        Refactored {
            change: WorkspaceChange::edit(
                resolved.clone(),
                crate::change::Base::Disk(stamp),
                TextEdits::new(indels).unwrap(),
            ),
            summary: crate::refactor::Summary::Renamed {
                symbol: "f".into(),
                files: 1,
                references: 1,
            },
            evidence: Default::default(),
            left_alone: Vec::new(),
            mentions: Vec::new(),
            names_swapped: names_only.then_some(resolved).into_iter().collect(),
            data_strings: Vec::new(),
            also_renamed: Vec::new(),
            assumed: Vec::new(),
        }
    }

    fn check(
        project: &TestProject,
        refactored: &Refactored,
    ) -> Result<Vec<Checked>, RefactorError> {
        let sources = WorkspaceSources {
            workspace: &project.workspace,
        };
        let project = Project::new(&project.index, &sources, None);
        no_new_errors(&project, refactored)
    }

    #[test]
    fn a_change_that_adds_a_syntax_error_is_refused_naming_the_file() {
        let project = TestProject::new(&[("a.py", "def f():\n    return 1\n")]);
        let breaking = edit(&project, "a.py", vec![Indel::new(4..5, "(")], false);
        let Err(error) = check(&project, &breaking) else {
            panic!("the broken file passed the check");
        };
        assert_eq!(error.kind, RefactorFailure::WouldBreak);
        assert!(
            error.message.starts_with("The refactor would break a.py: "),
            "{error}"
        );
        let fine = edit(&project, "a.py", vec![Indel::new(4..5, "g")], false);
        let checked = check(&project, &fine).map_err(|e| e.to_string()).unwrap();
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
        let rename = edit(&project, "a.py", vec![Indel::new(21..22, "y")], false);
        assert!(check(&project, &rename).is_ok());
    }

    #[test]
    fn a_file_where_names_were_swapped_for_names_is_not_parsed_again() {
        let text = "from m import f\n\n\ndef g():\n    return f(1) + m.f\n";
        let project = TestProject::new(&[("a.py", text)]);
        let swapped: Vec<Indel> = regex::Regex::new(r"\bf\b")
            .unwrap()
            .find_iter(text)
            .map(|f| Indel::new(f.range(), "h"))
            .collect();
        assert_eq!(swapped.len(), 3);
        let checked = check(&project, &edit(&project, "a.py", swapped.clone(), true)).unwrap();
        assert!(checked.is_empty(), "proved without a parse");
        let parsed = check(&project, &edit(&project, "a.py", swapped, false)).unwrap();
        assert_eq!(parsed.len(), 1, "not said to be names only: parsed");
    }

    #[test]
    fn a_swap_the_rules_do_not_cover_is_parsed_and_refused_if_it_breaks() {
        let project = TestProject::new(&[
            ("a.py", "def f():\n    return 1\n"),
            ("b.py", "def f():\n    global x\n    return x\n"),
            ("c.py", "x = 1\n\n\ndef f():\n    global x\n    return x\n"),
        ]);
        // not a name put for a name: parsed, and the error found
        let breaking = edit(&project, "a.py", vec![Indel::new(4..5, "f(")], true);
        assert_eq!(
            check(&project, &breaking)
                .map(|c| c.len())
                .unwrap_err()
                .kind,
            RefactorFailure::WouldBreak
        );
        // a keyword: parsed, and refused
        let keyword = edit(&project, "a.py", vec![Indel::new(4..5, "class")], true);
        assert!(check(&project, &keyword).is_err());
        // a `global` that declares another name: proved
        let other = edit(&project, "b.py", vec![Indel::new(4..5, "g")], true);
        assert_eq!(check(&project, &other).unwrap().len(), 0);
        // one that declares the swapped name: parsed, though the swap is plain
        let declared = edit(&project, "c.py", vec![Indel::new(0..1, "y")], true);
        assert_eq!(check(&project, &declared).unwrap().len(), 1);
        // the disk changed since the index read it: parsed
        std::fs::write(
            project.workspace.root().join("a.py"),
            "def f():\n    return 2\n",
        )
        .unwrap();
        let changed = edit(&project, "a.py", vec![Indel::new(4..5, "g")], true);
        assert_eq!(check(&project, &changed).unwrap().len(), 1);
    }
}
