//! The workspace's file list, kept between two listings and vouched for
//! by the stamps of what it was made from, so that a walk of a large tree
//! (Django: 2454 directories) is not made again while nothing changed.
//!
//! What a listing depends on: each directory the walk entered (a file
//! created, removed or renamed in it changes its mtime), and the ignore
//! rules — each `.gitignore` and `.ignore` of those directories and of the
//! root's parents, each `.git/info/exclude`, git's global excludes file
//! and the git configs that name it. Their stamps (mtime, ctime, inode,
//! size) are taken with the list; the list is given again only when every
//! one is as it was.
//!
//! A stamp vouches for nothing written in the same tick of the file
//! system's clock as the walk read it (git's "racy clean", as in
//! `engine/parses.rs`): a listing is kept only when every stamp it rests
//! on is older than [`SETTLED`] at the walk's start; a younger tree is
//! walked at every listing until it settles. A `.git` file (a linked
//! worktree, whose excludes live elsewhere) keeps nothing either.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How old every stamp must be at the walk's start for the listing to
/// be kept (the coarsest mtime tick of the file systems Eddi runs on, with
/// room to spare: the same rule as a kept parse's).
pub const SETTLED: Duration = Duration::from_secs(2);

/// A listing of every file, and what vouches for it.
#[derive(Debug)]
pub struct Listing {
    /// Workspace-relative, with `/`, sorted.
    pub files: Arc<Vec<String>>,
    watched: Vec<(PathBuf, Option<Stamp>)>,
}

/// What a directory or an ignore file looked like; `None`: absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    mtime_ns: i128,
    ctime_ns: i128,
    ino: u64,
    len: u64,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let meta = fs::symlink_metadata(path).ok()?;
        Some(Stamp {
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
            ino: meta.ino(),
            len: meta.len(),
        })
    }

    /// Whether it was last changed more than [`SETTLED`] before `began`.
    fn settled_at(&self, began: SystemTime) -> bool {
        let Ok(began) = began.duration_since(UNIX_EPOCH) else {
            return false;
        };
        let latest = self.mtime_ns.max(self.ctime_ns);
        latest + (SETTLED.as_nanos() as i128) < began.as_nanos() as i128
    }
}

impl Listing {
    /// Whether every stamp it rests on is still as it was.
    pub fn still_true(&self) -> bool {
        self.watched
            .iter()
            .all(|(path, stamp)| Stamp::of(path) == *stamp)
    }
}

/// Walks `root` (gitignore-aware, hidden files skipped): the files, and
/// the listing to keep when everything it rests on has settled.
pub fn walk(root: &Path) -> (Arc<Vec<String>>, Option<Listing>) {
    let began = SystemTime::now();
    let mut files = Vec::new();
    let mut directories = Vec::new();
    for entry in ignore::WalkBuilder::new(root)
        .require_git(false)
        .build()
        .flatten()
    {
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            directories.push(entry.into_path());
            continue;
        }
        if !kind.is_file() {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        files.push(rel.to_string_lossy().replace('\\', "/"));
    }
    files.sort();
    let files = Arc::new(files);
    let listing = watched(root, directories).and_then(|watched| {
        watched
            .iter()
            .all(|(_, stamp)| stamp.is_none_or(|s| s.settled_at(began)))
            .then(|| Listing {
                files: files.clone(),
                watched,
            })
    });
    (files, listing)
}

/// The directories walked and the ignore rules' files, with their
/// stamps; `None` when the rules cannot be watched (a `.git` file).
fn watched(root: &Path, walked: Vec<PathBuf>) -> Option<Vec<(PathBuf, Option<Stamp>)>> {
    let mut watched = Vec::new();
    let mut watch = |path: PathBuf| {
        let stamp = Stamp::of(&path);
        watched.push((path, stamp));
    };
    for directory in &walked {
        // an ignore file created or removed here changes its mtime
        watch(directory.clone());
        for name in [".gitignore", ".ignore"] {
            let file = directory.join(name);
            if file.exists() {
                watch(file);
            }
        }
        if !git_rules(directory, &mut watch) {
            return None;
        }
    }
    // the root's parents: their ignore files, present or absent (not
    // their mtimes, which other programs' files change all the time)
    for parent in root.ancestors().skip(1) {
        watch(parent.join(".gitignore"));
        watch(parent.join(".ignore"));
        if !git_rules(parent, &mut watch) {
            return None;
        }
    }
    for file in ignore::gitignore::gitconfig_excludes_path()
        .into_iter()
        .chain(git_configs())
    {
        watch(file);
    }
    Some(watched)
}

/// Watches a directory's `.git` and its `info/exclude`; false for a
/// `.git` file (a linked worktree, whose excludes live elsewhere).
fn git_rules(directory: &Path, watch: &mut impl FnMut(PathBuf)) -> bool {
    let git = directory.join(".git");
    match fs::symlink_metadata(&git) {
        Ok(meta) if meta.is_dir() => {
            watch(git.join("info"));
            watch(git.join("info").join("exclude"));
        }
        Ok(_) => return false,
        Err(_) => {}
    }
    watch(git);
    true
}

/// The git configuration files that may name the global excludes file.
fn git_configs() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let mut configs = vec![PathBuf::from("/etc/gitconfig")];
    configs.extend(home.map(|h| h.join(".gitconfig")));
    configs.extend(xdg.map(|x| x.join("git").join("config")));
    configs
}
