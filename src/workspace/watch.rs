//! Watching the workspace for changes made by other programs (`notify`:
//! inotify, FSEvents, …), so the project index learns what changed without
//! walking the tree on every query.
//!
//! The watcher's thread only records what it saw; the index takes the
//! record when it is next asked ([`TreeWatch::take`]). What matters to the
//! index are Python files (by path) and what changes the set of files or
//! their module names — directories, ignore files, project markers — which
//! ask for a full re-walk. Eddi's own state directory, `.git` and
//! `__pycache__` are not looked at.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::event::{CreateKind, EventKind, ModifyKind, RemoveKind};
use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher};

/// What changed since the last [`TreeWatch::take`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreeChanges {
    Nothing,
    /// These Python files (workspace-relative, `/`-separated) changed,
    /// appeared or disappeared — or paths that are gone and may have been
    /// directories (the index walks the tree when it had files under one);
    /// nothing else that matters.
    Files(Vec<String>),
    /// Something that can change any file's place or name in the project
    /// (a directory, an ignore file, a project marker), or events were
    /// lost: walk the whole tree again.
    Everything,
}

#[derive(Debug, Default)]
struct Seen {
    files: BTreeSet<String>,
    everything: bool,
}

/// A running watch of the workspace root; stops when dropped.
pub struct TreeWatch {
    seen: Arc<Mutex<Seen>>,
    _watcher: RecommendedWatcher,
}

impl std::fmt::Debug for TreeWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeWatch").finish_non_exhaustive()
    }
}

impl TreeWatch {
    /// Starts watching `root` recursively, `state_dir` left out. Fails
    /// where the platform cannot watch (no inotify, too many directories
    /// for the watch limit): the caller then polls.
    pub fn start(root: &Path, state_dir: &Path) -> notify::Result<TreeWatch> {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let record = Arc::clone(&seen);
        let root_owned = root.to_path_buf();
        let state_dir = state_dir.to_path_buf();
        let mut watcher = notify::recommended_watcher(move |event: notify::Result<Event>| {
            let mut seen = record.lock().unwrap_or_else(|p| p.into_inner());
            match event {
                Ok(event) => note(&mut seen, &root_owned, &state_dir, &event),
                Err(_) => seen.everything = true,
            }
        })?;
        watcher.watch(root, RecursiveMode::Recursive)?;
        Ok(TreeWatch {
            seen,
            _watcher: watcher,
        })
    }

    /// What changed since the last call, and forgets it.
    pub fn take(&self) -> TreeChanges {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        let seen = std::mem::take(&mut *seen);
        if seen.everything {
            TreeChanges::Everything
        } else if seen.files.is_empty() {
            TreeChanges::Nothing
        } else {
            TreeChanges::Files(seen.files.into_iter().collect())
        }
    }
}

/// Files whose change can rename modules or change which files are part
/// of the project.
const MARKERS: [&str; 5] = [
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    ".gitignore",
    ".ignore",
];

fn note(seen: &mut Seen, root: &Path, state_dir: &Path, event: &Event) {
    if event.need_rescan() {
        seen.everything = true;
        return;
    }
    let folder = matches!(
        event.kind,
        EventKind::Create(CreateKind::Folder) | EventKind::Remove(RemoveKind::Folder)
    );
    match event.kind {
        EventKind::Access(_) => return,
        // metadata (permissions, times) alone does not change the code
        EventKind::Modify(ModifyKind::Metadata(_)) => return,
        _ => {}
    }
    for path in &event.paths {
        if path.starts_with(state_dir) {
            continue;
        }
        let Some(rel) = relative(root, path) else {
            continue;
        };
        if rel
            .components()
            .any(|c| matches!(c.as_os_str().to_str(), Some(".git" | "__pycache__")))
        {
            continue;
        }
        let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let extension = rel.extension().and_then(|e| e.to_str());
        let joined = || {
            let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
            parts.join("/")
        };
        if name.starts_with(".eddi-") {
            // the temp and backup files of Eddi's own commits
        } else if folder || MARKERS.contains(&name) || path.is_dir() {
            seen.everything = true;
        } else if matches!(extension, Some("py" | "pyi")) || !path.exists() {
            // a Python file; or something gone that may have been a
            // directory (a rename does not say): the index knows
            seen.files.insert(joined());
        }
        // any other file is not the index's business
    }
}

fn relative(root: &Path, path: &Path) -> Option<PathBuf> {
    let rel = path.strip_prefix(root).ok()?;
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    (plain && !rel.as_os_str().is_empty()).then(|| rel.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// What the watch reports until it is `expected` (events may come in
    /// several batches on a loaded machine), or all it saw in 5 s.
    fn seen(watch: &TreeWatch, expected: TreeChanges) -> TreeChanges {
        let start = Instant::now();
        let mut all = BTreeSet::new();
        loop {
            let now = match watch.take() {
                TreeChanges::Everything => TreeChanges::Everything,
                TreeChanges::Files(files) => {
                    all.extend(files);
                    TreeChanges::Files(all.iter().cloned().collect())
                }
                TreeChanges::Nothing if all.is_empty() => TreeChanges::Nothing,
                TreeChanges::Nothing => TreeChanges::Files(all.iter().cloned().collect()),
            };
            if now == expected || start.elapsed() > Duration::from_secs(5) {
                return now;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn files(paths: &[&str]) -> TreeChanges {
        TreeChanges::Files(paths.iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn python_files_by_path_directories_and_markers_as_everything() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("ws");
        std::fs::create_dir_all(root.join("pkg/__pycache__")).unwrap();
        std::fs::create_dir_all(root.join(".eddi")).unwrap();
        std::fs::write(root.join("pkg/a.py"), "x = 1\n").unwrap();
        let watch = TreeWatch::start(&root, &root.join(".eddi")).unwrap();
        assert_eq!(watch.take(), TreeChanges::Nothing);

        std::fs::write(root.join("pkg/a.py"), "x = 2\n").unwrap();
        std::fs::write(root.join("pkg/b.pyi"), "y: int\n").unwrap();
        let expected = files(&["pkg/a.py", "pkg/b.pyi"]);
        assert_eq!(seen(&watch, expected.clone()), expected);
        // not the index's business: Eddi's state, byte code, other files
        std::fs::write(root.join(".eddi/journal.jsonl"), "{}\n").unwrap();
        std::fs::write(root.join("pkg/__pycache__/a.cpython-311.pyc"), "").unwrap();
        std::fs::write(root.join("notes.txt"), "hello\n").unwrap();
        std::thread::sleep(Duration::from_millis(300));
        // A late second event of the writes above may still come (a loaded
        // machine); the files written since must not.
        match watch.take() {
            TreeChanges::Nothing => {}
            TreeChanges::Files(late) => assert!(
                late.iter().all(|p| p == "pkg/a.py" || p == "pkg/b.pyi"),
                "{late:?}"
            ),
            TreeChanges::Everything => panic!("an ignored file made the tree change"),
        }

        std::fs::remove_file(root.join("pkg/a.py")).unwrap();
        assert_eq!(seen(&watch, files(&["pkg/a.py"])), files(&["pkg/a.py"]));
        // Eddi's own temp files are not looked at
        std::fs::write(root.join("pkg/.eddi-tmp-1-0"), "").unwrap();
        std::fs::rename(root.join("pkg/.eddi-tmp-1-0"), root.join("pkg/b.pyi")).unwrap();
        assert_eq!(seen(&watch, files(&["pkg/b.pyi"])), files(&["pkg/b.pyi"]));
        std::fs::create_dir(root.join("lib")).unwrap();
        assert_eq!(
            seen(&watch, TreeChanges::Everything),
            TreeChanges::Everything
        );
        std::fs::write(root.join("pyproject.toml"), "[project]\n").unwrap();
        assert_eq!(
            seen(&watch, TreeChanges::Everything),
            TreeChanges::Everything
        );
        // a directory moved out: its old name, for the index to judge
        std::fs::rename(root.join("pkg"), root.join("../away")).unwrap();
        assert_eq!(seen(&watch, files(&["pkg"])), files(&["pkg"]));
        // and moved back in
        std::fs::rename(root.join("../away"), root.join("pkg")).unwrap();
        assert_eq!(
            seen(&watch, TreeChanges::Everything),
            TreeChanges::Everything
        );
    }
}
