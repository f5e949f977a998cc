//! A project on disk for the refactors' unit tests: real files in a temp
//! dir, the real index, the real workspace reads.
// Each refactor's tests use what they need of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::process::Command;

use crate::analysis::index::ProjectIndex;
use crate::change::FileOp;
use crate::edit::Position;
use crate::workspace::Workspace;

use super::{
    compute, Cursor, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Summary,
    WorkspaceSources,
};

pub(crate) struct TestProject {
    _dir: tempfile::TempDir,
    pub workspace: Workspace,
    pub index: ProjectIndex,
}

impl TestProject {
    /// A project of these files (`("pkg/a.py", "text")`).
    pub fn new(files: &[(&str, &str)]) -> TestProject {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        let workspace = Workspace::new(dir.path(), 10 << 20).unwrap();
        let index = ProjectIndex::build_in(&workspace);
        TestProject {
            _dir: dir,
            workspace,
            index,
        }
    }

    /// Computes `request` with the cursor at `current` (`("a.py", line, col)`).
    pub fn run(
        &self,
        current: Option<(&str, usize, usize)>,
        request: &Refactoring,
    ) -> Result<Refactored, RefactorError> {
        let sources = WorkspaceSources {
            workspace: &self.workspace,
        };
        let current = current.map(|(path, line, col)| Cursor {
            path: path.to_owned(),
            position: Position::new(line, col),
        });
        let project = Project::new(&self.index, &sources, current);
        let refactored = compute(&project, request)?;
        super::check::no_new_errors(&project, &refactored)?;
        Ok(refactored)
    }

    /// The texts of the files `refactored` changes, after the change (in
    /// memory: the disk is left as it is).
    pub fn after(&self, refactored: &Refactored) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for (path, file) in refactored.change.files() {
            let read = || ropey::Rope::from_str(&self.workspace.read(path).expect("readable").text);
            match &file.op {
                FileOp::Edit(edits) => {
                    out.insert(path.to_string(), edits.apply(&read()).unwrap().to_string());
                }
                FileOp::Move { to, edits } => {
                    out.insert(to.to_string(), edits.apply(&read()).unwrap().to_string());
                }
                FileOp::Create(text) => {
                    out.insert(path.to_string(), text.clone());
                }
                FileOp::Delete => {}
            }
        }
        out
    }
}

/// Writes `files` to a new directory and runs `python3 <args>` there: its
/// output, the run asserted successful.
pub(crate) fn python(files: &BTreeMap<String, String>, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    let out = Command::new("python3")
        .args(args)
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{}\n{stdout}\n{files:#?}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The files as a map, path to text.
pub(crate) fn texts(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

/// Every file of the project after `request` (those it does not change
/// as they were), and the result; a refusal fails the test with its
/// message.
pub(crate) fn applied(
    files: &[(&str, &str)],
    request: &Refactoring,
) -> (BTreeMap<String, String>, Refactored) {
    let project = TestProject::new(files);
    let done = project.run(None, request).unwrap_or_else(|e| panic!("{e}"));
    let mut all = texts(files);
    all.extend(project.after(&done));
    (all, done)
}

/// [`applied`] with the result's summary.
pub(crate) fn changed(
    files: &[(&str, &str)],
    request: &Refactoring,
) -> (BTreeMap<String, String>, Summary) {
    let (all, done) = applied(files, request);
    (all, done.summary)
}

/// The refusal of `request`: its kind and message (an `Ok` fails the
/// test).
pub(crate) fn refusal(files: &[(&str, &str)], request: &Refactoring) -> (RefactorFailure, String) {
    let project = TestProject::new(files);
    let e = project.run(None, request).expect_err("refused");
    (e.kind, e.message)
}

/// The project's own pytest suite run on `files`: its output, the run
/// asserted successful.
pub(crate) fn pytest(files: &BTreeMap<String, String>) -> String {
    python(files, &["-m", "pytest", "-q", "-p", "no:cacheprovider"])
}
