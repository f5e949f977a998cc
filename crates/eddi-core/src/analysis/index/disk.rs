//! Reading the workspace: which files are indexed, their stamps, and
//! turning one file's bytes into a [`FileIndex`] with the thread's parser.
//!
//! * Files: every `*.py` under the root found by `ignore::WalkBuilder`:
//!   `.gitignore` (also outside a git repository), `.ignore` and global git
//!   excludes are honoured; hidden files and directories are skipped;
//!   symbolic links are not followed.
//! * Read through the [`Workspace`] (`Workspace::read`): its jail, size
//!   limit ([`MAX_FILE_BYTES`] for an index built on a bare root), binary
//!   and UTF-8 rules. Skipped, and reported: files over the limit, binary
//!   or not UTF-8, unreadable files.
//! * One tree-sitter `Parser` per thread (a thread-local), reused for every
//!   file that thread parses; trees are dropped once scanned.

use std::cell::RefCell;
use std::path::Path;
use std::time::SystemTime;

use tree_sitter::Parser;

use super::file::{scan, FileIndex};
use crate::workspace::{FileError, Workspace};

/// Larger files are skipped (generated code, data dumps).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// What the disk said about a file when it was read: polled by `refresh`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub modified: Option<SystemTime>,
    pub len: u64,
}

impl Stamp {
    /// The modification time in nanoseconds since the epoch (0 unknown),
    /// as `workspace::DiskStamp` keeps it.
    pub fn mtime_ns(&self) -> u64 {
        self.modified
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64)
    }

    pub fn of(path: &Path) -> std::io::Result<Stamp> {
        let meta = std::fs::metadata(path)?;
        Ok(Stamp {
            modified: meta.modified().ok(),
            len: meta.len(),
        })
    }
}

/// Why a file is not in the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    NotUtf8,
    /// Contains NUL bytes.
    Binary,
    TooLarge(u64),
    Unreadable(String),
    ParseFailed,
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::NotUtf8 => write!(f, "not UTF-8"),
            SkipReason::Binary => write!(f, "binary (contains NUL bytes)"),
            SkipReason::TooLarge(n) => write!(f, "too large ({n} bytes)"),
            SkipReason::Unreadable(e) => write!(f, "unreadable: {e}"),
            SkipReason::ParseFailed => write!(f, "parse failed"),
        }
    }
}

/// A file that could not be indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: String,
    pub reason: SkipReason,
    /// The disk's stamp when it was skipped: `refresh` retries on change.
    pub stamp: Option<Stamp>,
}

/// Workspace-relative, `/`-separated paths of the files the index scans
/// under `root` (the extensions of the languages with an index scan:
/// Python's modules), sorted.
pub fn indexed_files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .require_git(false)
        .follow_links(false)
        .build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if let Some(rel) = relative(root, entry.path()).filter(|rel| is_indexed(rel)) {
            out.push(rel);
        }
    }
    out.sort();
    out
}

/// Whether the index reads the file at `path`: its extension is one of
/// an indexed language's.
pub fn is_indexed(path: &str) -> bool {
    let extension = Path::new(path).extension().and_then(|e| e.to_str());
    extension.is_some_and(|e| crate::language::indexed_extensions().any(|x| x == e))
}

/// `path` relative to `root` with `/` separators.
pub fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    Some(parts.join("/"))
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `src` with this thread's parser.
pub fn parse(src: &str) -> Option<tree_sitter::Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut p = Parser::new();
            p.set_language(&crate::analysis::grammar::python()).ok()?;
            *slot = Some(p);
        }
        slot.as_mut()?.parse(src, None)
    })
}

/// A module's name and whether it is a package's `__init__`.
pub type ModuleName = (String, bool);

/// Indexes the source text of a module.
pub fn index_text(module: &ModuleName, src: &str) -> Result<FileIndex, SkipReason> {
    let tree = parse(src).ok_or(SkipReason::ParseFailed)?;
    Ok(scan(&module.0, module.1, src, &tree))
}

/// Reads and indexes one file through the workspace: the same jail,
/// size limit, binary and UTF-8 rules as every other read of Eddi.
pub fn load(
    workspace: &Workspace,
    rel: &str,
    module: &ModuleName,
) -> Result<(FileIndex, Stamp), SkipReason> {
    let (text, stamp) = read(workspace, rel)?;
    Ok((index_text(module, &text)?, stamp))
}

/// Reads one file through the workspace ([`load`]'s rules), with the
/// stamp taken before the read.
pub fn read(workspace: &Workspace, rel: &str) -> Result<(String, Stamp), SkipReason> {
    let path = workspace
        .resolve(rel)
        .map_err(|e| SkipReason::Unreadable(e.to_string()))?;
    let (text, meta) = workspace.read_text(&path).map_err(|e| match e {
        FileError::TooLarge { size, .. } => SkipReason::TooLarge(size),
        FileError::NotUtf8(_) => SkipReason::NotUtf8,
        FileError::Binary(_) => SkipReason::Binary,
        other => SkipReason::Unreadable(other.to_string()),
    })?;
    // taken before the read: a write meanwhile shows at the next refresh
    let stamp = Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
    };
    Ok((text, stamp))
}
