//! Watching the workspace for changes made by other programs (`notify`:
//! inotify, FSEvents, …), so the project index learns what changed without
//! walking the tree on every query.
//!
//! The watcher's thread only records what it saw; the index takes the
//! record when it is next asked ([`TreeWatch::take`]). The watcher's events
//! come a little after the writes, so `take` first waits for a *barrier*:
//! it creates a file of its own in the state directory and waits for the
//! watcher to report it. Events come in the order of the writes, so by then
//! every write made before `take` was called has been seen — a program
//! that writes a file and then asks Eddi is never answered from the old
//! text. (Where the state directory is outside the tree, or the watcher
//! stops reporting, `take` is best effort.) What matters to the
//! index are the files of the languages it scans (by path; the language
//! registry, `crate::language`, names their extensions: Python's `.py`
//! and `.pyi`) and what changes the set of files or
//! their module names — directories, ignore files, project markers — which
//! ask for a full re-walk. Eddi's own state directory, `.git` and
//! `__pycache__` are not looked at.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

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
    /// The highest barrier the watcher reported.
    barrier: u64,
}

/// What the watcher's thread records, and a signal for barriers.
#[derive(Default)]
struct Record {
    seen: Mutex<Seen>,
    arrived: Condvar,
}

impl Record {
    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// How long `take` waits for its barrier before it stops trusting the
/// watcher (it then asks for one full re-walk, and is best effort after).
const BARRIER_TIMEOUT: Duration = Duration::from_secs(2);

/// The files `take` creates for its barriers: `<dir>/<prefix><n>`.
struct Barriers {
    dir: PathBuf,
    /// Unique to this watch (process id and a counter), so that another
    /// watch of the same tree never answers this one's barrier.
    prefix: String,
    next: AtomicU64,
    working: AtomicBool,
}

impl Barriers {
    /// The barrier number of a path this watch created, if it is one.
    fn number(&self, path: &Path) -> Option<u64> {
        if path.parent() != Some(self.dir.as_path()) {
            return None;
        }
        path.file_name()?
            .to_str()?
            .strip_prefix(&self.prefix)?
            .parse()
            .ok()
    }
}

/// A running watch of the workspace root; stops when dropped.
pub struct TreeWatch {
    record: Arc<Record>,
    barriers: Option<Arc<Barriers>>,
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
        static WATCHES: AtomicU64 = AtomicU64::new(0);
        let record = Arc::new(Record::default());
        // created before the watch starts, so that it is watched
        let barriers = state_dir
            .starts_with(root)
            .then(|| state_dir.join("watch"))
            .filter(|dir| std::fs::create_dir_all(dir).is_ok())
            .map(|dir| {
                Arc::new(Barriers {
                    dir,
                    prefix: format!(
                        "{}.{}.",
                        std::process::id(),
                        WATCHES.fetch_add(1, Ordering::Relaxed)
                    ),
                    next: AtomicU64::new(0),
                    working: AtomicBool::new(true),
                })
            });
        let (recorder, own) = (Arc::clone(&record), barriers.clone());
        let root_owned = root.to_path_buf();
        let state_dir = state_dir.to_path_buf();
        let mut watcher = notify::recommended_watcher(move |event: notify::Result<Event>| {
            let mut seen = recorder.lock();
            match event {
                Ok(event) => {
                    let barrier = own
                        .as_ref()
                        .and_then(|own| event.paths.iter().filter_map(|p| own.number(p)).max());
                    match barrier {
                        Some(n) => {
                            seen.barrier = seen.barrier.max(n);
                            recorder.arrived.notify_all();
                        }
                        None => note(&mut seen, &root_owned, &state_dir, &event),
                    }
                }
                Err(_) => seen.everything = true,
            }
        })?;
        watcher.watch(root, RecursiveMode::Recursive)?;
        Ok(TreeWatch {
            record,
            barriers,
            _watcher: watcher,
        })
    }

    /// What changed since the last call — every write made before this
    /// call included (see the module docs) —, and forgets it.
    pub fn take(&self) -> TreeChanges {
        let reported = self.barriers.as_deref().is_none_or(|b| self.barrier(b));
        let mut seen = self.record.lock();
        let seen = std::mem::take(&mut *seen);
        if seen.everything || !reported {
            TreeChanges::Everything
        } else if seen.files.is_empty() {
            TreeChanges::Nothing
        } else {
            TreeChanges::Files(seen.files.into_iter().collect())
        }
    }
}

impl TreeWatch {
    /// Creates a barrier file and waits until the watcher reports it:
    /// whether it did (the first time it does not, the barriers stop).
    fn barrier(&self, barriers: &Barriers) -> bool {
        if !barriers.working.load(Ordering::Relaxed) {
            return true;
        }
        let n = barriers.next.fetch_add(1, Ordering::Relaxed) + 1;
        let path = barriers.dir.join(format!("{}{n}", barriers.prefix));
        if let Err(e) = std::fs::write(&path, b"") {
            tracing::warn!(error = %e, path = %path.display(), "cannot write a watch barrier; the watch is best effort");
            barriers.working.store(false, Ordering::Relaxed);
            return false;
        }
        let deadline = Instant::now() + BARRIER_TIMEOUT;
        let mut seen = self.record.lock();
        let mut reported = true;
        while seen.barrier < n {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                tracing::warn!(
                    "the watch did not report its barrier; it is best effort from now on"
                );
                barriers.working.store(false, Ordering::Relaxed);
                reported = false;
                break;
            }
            seen = self
                .record
                .arrived
                .wait_timeout(seen, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        drop(seen);
        let _ = std::fs::remove_file(&path);
        reported
    }
}

/// Files whose change can rename modules or change which files are part
/// of the project; with the brace languages' manifests ([`is_marker`]),
/// which change what an import names.
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
        } else if folder || is_marker(name) || path.is_dir() {
            seen.everything = true;
        } else if extension.is_some_and(watched) || !path.exists() {
            // a file the index takes (the languages with an index scan say
            // which); or something gone that may have been a directory (a
            // rename does not say): the index knows
            seen.files.insert(joined());
        }
        // any other file is not the index's business
    }
}

fn is_marker(name: &str) -> bool {
    MARKERS.contains(&name) || crate::analysis::index::tags::is_manifest(name)
}

/// Whether the index must hear of a file with this extension.
fn watched(extension: &str) -> bool {
    crate::language::watched_extensions().any(|x| x == extension)
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

    #[test]
    fn a_write_made_before_take_is_in_what_it_returns() {
        // No waiting between the write and the question: the barrier makes
        // the watcher catch up first.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let watch = TreeWatch::start(&root, &root.join(".eddi")).unwrap();
        // Busy threads keep the watcher's thread waiting for a core, as on
        // a loaded machine: without the barrier, events come too late.
        let busy = Arc::new(AtomicBool::new(true));
        let spinners: Vec<_> = (0..4)
            .map(|_| {
                let busy = Arc::clone(&busy);
                std::thread::spawn(move || {
                    while busy.load(Ordering::Relaxed) {
                        std::hint::spin_loop()
                    }
                })
            })
            .collect();
        for round in 0..50 {
            let names: Vec<String> = (0..4).map(|i| format!("m{i}.py")).collect();
            for name in &names {
                std::fs::write(root.join(name), format!("x = {round}\n")).unwrap();
            }
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            assert_eq!(watch.take(), files(&names), "round {round}");
        }
        busy.store(false, Ordering::Relaxed);
        spinners.into_iter().for_each(|s| s.join().unwrap());
        // the barriers leave nothing behind, and are not reported
        assert_eq!(watch.take(), TreeChanges::Nothing);
        let left: Vec<_> = std::fs::read_dir(root.join(".eddi/watch"))
            .unwrap()
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_state_directory_outside_the_tree_takes_what_was_seen() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        let watch = TreeWatch::start(&root, &dir.path().join("state")).unwrap();
        assert!(watch.barriers.is_none());
        std::fs::write(root.join("a.py"), "x = 1\n").unwrap();
        assert_eq!(seen(&watch, files(&["a.py"])), files(&["a.py"]));
    }
}
