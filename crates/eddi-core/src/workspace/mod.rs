//! The workspace: the one root directory Eddi edits, and the only module
//! that touches files on disk.
//!
//! **Invariants:** every path is resolved inside the root (`..`, absolute
//! paths elsewhere, symlinks that lead out and Eddi's own state directory
//! are refused) to its canonical form, so a file reached through a link or
//! under two names is one file; every write is a [`commit`]: all of its
//! files or none, checked against what the writer expected under per-file
//! locks shared by all sessions, atomic per file (temp file beside the
//! target, fsync, rename, permissions kept), so a crash never leaves a
//! partial file or a half-applied change.

mod commit;
mod encoding;
mod listing;
mod locks;
mod path;
mod watch;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

pub use commit::{CommitError, Conflict, Expect, Fault, FileWrite, Found, Recovery};
pub use path::{CheckedDirs, WorkspacePath};
pub use watch::{TreeChanges, TreeWatch};

/// What a file looked like on disk when Eddi last read or wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiskStamp {
    pub len: u64,
    /// Modification time in nanoseconds since the epoch.
    pub mtime_ns: u64,
    /// blake3 of the bytes, hex.
    pub hash: String,
    /// The inode: every commit replaces the file by a new one, so this
    /// tells a rewrite apart even within one mtime tick. 0 when unknown
    /// (stamps persisted by older versions).
    #[serde(default)]
    pub ino: u64,
}

/// A text file read from disk.
#[derive(Debug)]
pub struct LoadedFile {
    pub text: String,
    pub stamp: DiskStamp,
}

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("Path escapes the workspace: {0}")]
    Escapes(String),
    #[error("Path is inside Eddi's state directory, which is not part of the project: {0}")]
    StateDir(String),
    #[error("Invalid path '{0}': {1}")]
    Invalid(String, &'static str),
    /// Each surface says how to create the file in its own terms
    /// (the engine names the command that creates it).
    #[error("File not found: {0}")]
    NotFound(String),
    #[error("Not a file: {0}")]
    NotAFile(String),
    #[error("Binary file refused: {0} (contains NUL bytes)")]
    Binary(String),
    #[error("Not UTF-8: {0} (only UTF-8 text files can be edited, and Python files in the encoding their coding line declares)")]
    NotUtf8(String),
    /// A Python file's coding line (PEP 263) names an encoding Eddi does
    /// not read.
    #[error("Unsupported encoding: {path} declares 'coding: {encoding}'; Eddi reads and writes UTF-8, ASCII, Latin-1, the windows-125x and ISO-8859 code pages and KOI8: convert the file (and its coding line) to UTF-8 to edit it")]
    UnsupportedEncoding { path: String, encoding: String },
    /// The bytes are not in the declared encoding (or would not be
    /// written back as they are).
    #[error("Not {encoding}: {path} declares 'coding: {encoding}' but its bytes are not valid {encoding}; fix the coding line")]
    NotInEncoding { path: String, encoding: String },
    /// A write of a character the file's declared encoding cannot hold.
    #[error("{path} declares 'coding: {encoding}', which cannot represent '{ch}' (U+{:04X}) at {line}:{col}: write it as an escape (\\u{:04x} in a string) or change the coding line", u32::from(*.ch), u32::from(*.ch))]
    Unencodable {
        path: String,
        encoding: String,
        ch: char,
        line: usize,
        col: usize,
    },
    #[error("File too large: {path} is {size} bytes, the limit is {limit}")]
    TooLarge { path: String, size: u64, limit: u64 },
    #[error("Permission denied: {0}")]
    PermissionDenied(String),
    /// Its permissions give nobody write access: a save would replace it
    /// by rename all the same, so it is refused (as editors do).
    #[error("Read-only file: {0} (no write permission; make it writable, e.g. chmod u+w {0}, and save again)")]
    ReadOnly(String),
    #[error("I/O error on {path}: {source}")]
    Io { path: String, source: io::Error },
}

pub type Result<T, E = FileError> = std::result::Result<T, E>;

/// The workspace. Clones share the commit locks (one set per workspace).
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
    /// Eddi's own directory (sessions, commit records): never a project file.
    state_dir: PathBuf,
    max_file_size: u64,
    shared: Arc<Shared>,
}

/// What every clone of a workspace shares.
#[derive(Debug, Default)]
struct Shared {
    locks: locks::FileLocks,
    fault: Mutex<Option<Fault>>,
    /// The last listing of every file, while what it rests on is unchanged.
    listing: Mutex<Option<Arc<listing::Listing>>>,
}

impl Workspace {
    /// Opens the workspace rooted at `root`, which must be a directory.
    pub fn new(root: &Path, max_file_size: u64) -> io::Result<Workspace> {
        let root = root.canonicalize()?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        Ok(Workspace {
            state_dir: root.join(".eddi"),
            root,
            max_file_size,
            shared: Arc::default(),
        })
    }

    /// Puts Eddi's state directory elsewhere than `<root>/.eddi`.
    pub fn with_state_dir(mut self, state_dir: &Path) -> io::Result<Workspace> {
        fs::create_dir_all(state_dir)?;
        self.state_dir = state_dir.canonicalize()?;
        Ok(self)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn state_dir(&self) -> &Path {
        &self.state_dir
    }

    /// Starts watching the files for changes by other programs (see
    /// [`TreeWatch`]); fails where the platform cannot watch.
    pub fn watch(&self) -> notify::Result<TreeWatch> {
        TreeWatch::start(&self.root, &self.state_dir)
    }

    /// Resolves a user-given path inside the workspace, to the file's
    /// canonical name (through symlinks inside the root).
    pub fn resolve(&self, user_path: &str) -> Result<WorkspacePath> {
        self.resolve_checked(user_path, &mut CheckedDirs::default())
    }

    /// [`Self::resolve`] for one of a request's many paths: the
    /// directories `checked` holds are known to be no links (one `lstat`
    /// per directory a request, not one per file's every parent).
    pub fn resolve_checked(
        &self,
        user_path: &str,
        checked: &mut CheckedDirs,
    ) -> Result<WorkspacePath> {
        WorkspacePath::resolve(&self.root, &self.state_dir, user_path, checked)
    }

    /// The name a user path was given under, when it is not the file's
    /// canonical name (a symlink, or a path through a linked directory).
    pub fn alias_of(&self, user_path: &str, resolved: &WorkspacePath) -> Option<String> {
        let given = WorkspacePath::lexical(&self.root, user_path).ok()?;
        (given != resolved.as_str()).then_some(given)
    }

    /// The current state of a file on disk, `None` when it does not exist.
    pub fn stamp(&self, path: &WorkspacePath) -> Result<Option<DiskStamp>> {
        let abs = path.absolute(&self.root);
        match fs::read(&abs) {
            Ok(bytes) => Ok(Some(stamp_of(&abs, &bytes)?)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(path, e)),
        }
    }

    /// Cheap check of whether a file still matches `stamp`: compares size
    /// and mtime, and hashes only when those differ (a `touch` is no change).
    pub fn changed_since(&self, path: &WorkspacePath, stamp: Option<&DiskStamp>) -> Result<bool> {
        let abs = path.absolute(&self.root);
        let meta = match fs::metadata(&abs) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(stamp.is_some()),
            Err(e) => return Err(io_error(path, e)),
        };
        let Some(stamp) = stamp else { return Ok(true) };
        if meta.len() == stamp.len && mtime_ns(&meta) == stamp.mtime_ns && inode(&meta) == stamp.ino
        {
            return Ok(false);
        }
        Ok(self.stamp(path)?.map(|now| now.hash) != Some(stamp.hash.clone()))
    }

    /// Whether a file's size, mtime and inode are still `stamp`'s, asked
    /// of its metadata alone (no read, no hash): what
    /// [`Workspace::changed_since`] trusts before it hashes.
    pub fn has_stamp(&self, path: &WorkspacePath, stamp: &DiskStamp) -> bool {
        fs::metadata(path.absolute(&self.root)).is_ok_and(|meta| {
            meta.is_file()
                && meta.len() == stamp.len
                && mtime_ns(&meta) == stamp.mtime_ns
                && inode(&meta) == stamp.ino
        })
    }

    /// The largest file Eddi reads (and so the largest an edit may make).
    pub fn max_file_size(&self) -> u64 {
        self.max_file_size
    }

    /// Reads a UTF-8 text file (a Python file in the encoding its coding
    /// line declares), refusing binary, non-UTF-8 and oversized files.
    /// The stamp is of the bytes on disk.
    pub fn read(&self, path: &WorkspacePath) -> Result<LoadedFile> {
        let (text, raw, _) = self.read_decoded(path)?;
        let bytes = raw.as_deref().unwrap_or(text.as_bytes());
        let stamp = stamp_of(&path.absolute(&self.root), bytes)?;
        Ok(LoadedFile { text, stamp })
    }

    /// [`Workspace::read`] without the content hash: the text and the
    /// metadata taken before reading it (size, mtime), for readers of every
    /// file of the project (the project index), where hashing costs.
    pub fn read_text(&self, path: &WorkspacePath) -> Result<(String, fs::Metadata)> {
        let (text, _, meta) = self.read_decoded(path)?;
        Ok((text, meta))
    }

    /// The text, the bytes on disk when they are not its UTF-8 (a declared
    /// encoding), and the metadata taken before the read.
    fn read_decoded(
        &self,
        path: &WorkspacePath,
    ) -> Result<(String, Option<Vec<u8>>, fs::Metadata)> {
        let abs = path.absolute(&self.root);
        let meta = fs::metadata(&abs).map_err(|e| io_error(path, e))?;
        if !meta.is_file() {
            return Err(FileError::NotAFile(path.to_string()));
        }
        if meta.len() > self.max_file_size {
            return Err(FileError::TooLarge {
                path: path.to_string(),
                size: meta.len(),
                limit: self.max_file_size,
            });
        }
        let bytes = fs::read(&abs).map_err(|e| io_error(path, e))?;
        if bytes.contains(&0) {
            return Err(FileError::Binary(path.to_string()));
        }
        match encoding::decode(path.as_str(), &bytes)? {
            Some(text) => Ok((text, Some(bytes), meta)),
            None => {
                let text =
                    String::from_utf8(bytes).map_err(|_| FileError::NotUtf8(path.to_string()))?;
                Ok((text, None, meta))
            }
        }
    }

    /// Writes one file whatever it holds now (a single-file [`commit`]
    /// with [`Expect::Anything`]).
    pub fn write_atomic(&self, path: &WorkspacePath, bytes: &[u8]) -> Result<DiskStamp> {
        let write = FileWrite {
            path: path.clone(),
            expect: Expect::Anything,
            content: Some(bytes.to_vec()),
        };
        match self.commit(&[write]) {
            Ok(mut stamps) => Ok(stamps.pop().flatten().expect("a written file has a stamp")),
            Err(CommitError::Prepare(e) | CommitError::RolledBack(e)) => Err(e),
            Err(other) => Err(FileError::Io {
                path: path.to_string(),
                source: io::Error::other(other.to_string()),
            }),
        }
    }

    /// Lists files under the root (gitignore-aware, hidden files skipped),
    /// as workspace-relative paths with `/`, sorted, optionally filtered by
    /// a glob matched against the relative path — or, when the pattern
    /// names a directory (`src`, `src/`, `.`), the files under it.
    pub fn list(&self, pattern: Option<&str>) -> std::result::Result<Vec<String>, String> {
        let under = pattern.and_then(|p| self.directory(p));
        let matcher = match pattern {
            Some(glob) if under.is_none() => Some(
                globset::GlobBuilder::new(glob)
                    .literal_separator(false)
                    .build()
                    .map_err(|e| format!("Invalid glob '{glob}': {}", e.kind()))?
                    .compile_matcher(),
            ),
            _ => None,
        };
        let all = self.all_files();
        let wanted = |rel: &&String| match (&under, &matcher) {
            (Some(dir), _) => dir.is_empty() || rel.starts_with(&format!("{dir}/")),
            (None, Some(m)) => m.is_match(rel.as_str()),
            (None, None) => true,
        };
        Ok(all.iter().filter(wanted).cloned().collect())
    }

    /// Every file (see [`Workspace::list`]): the kept listing while every
    /// directory and ignore file it rests on is as it was (`listing`),
    /// else a walk of the tree.
    fn all_files(&self) -> Arc<Vec<String>> {
        let mut kept = self
            .shared
            .listing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(listing) = kept.as_ref().filter(|l| l.still_true()) {
            return listing.files.clone();
        }
        let (files, listing) = listing::walk(&self.root);
        *kept = listing.map(Arc::new);
        files
    }

    /// Whether a listing is kept (the tree it rests on has settled).
    #[cfg(test)]
    fn keeps_listing(&self) -> bool {
        self.shared.listing.lock().is_ok_and(|kept| kept.is_some())
    }

    /// The workspace-relative directory a `List` pattern names (`""` for
    /// the root), or `None` when it is not an existing directory.
    fn directory(&self, pattern: &str) -> Option<String> {
        let trimmed = pattern.trim().trim_end_matches('/');
        let abs = self
            .root
            .join(if trimmed.is_empty() { "." } else { trimmed });
        if abs.canonicalize().ok()? == self.root {
            return Some(String::new());
        }
        let path = self.resolve(trimmed).ok()?;
        path.absolute(&self.root)
            .is_dir()
            .then(|| path.as_str().to_owned())
    }
}

fn mtime_ns(meta: &fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64)
}

fn inode(meta: &fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.ino()
}

fn stamp_of(abs: &Path, bytes: &[u8]) -> Result<DiskStamp> {
    let meta = fs::metadata(abs).map_err(|e| FileError::Io {
        path: abs.display().to_string(),
        source: e,
    })?;
    Ok(DiskStamp {
        len: bytes.len() as u64,
        mtime_ns: mtime_ns(&meta),
        hash: blake3::hash(bytes).to_hex().to_string(),
        ino: inode(&meta),
    })
}

fn io_error(path: &WorkspacePath, e: io::Error) -> FileError {
    match e.kind() {
        io::ErrorKind::NotFound => FileError::NotFound(path.to_string()),
        io::ErrorKind::PermissionDenied => FileError::PermissionDenied(path.to_string()),
        _ => FileError::Io {
            path: path.to_string(),
            source: e,
        },
    }
}

#[cfg(test)]
mod tests;
