//! Workspace-relative paths that are known not to escape the root.

use std::collections::HashSet;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{FileError, Result};

/// A normalised path relative to the workspace root, with `/` separators.
///
/// Constructed only by [`WorkspacePath::resolve`], which guarantees that it
/// stays inside the root, also through symlinks that exist at that time,
/// and that it is the file's canonical name (symlinks resolved).
///
/// Read back from Eddi's own state (journals, snapshots), a path is checked
/// again ([`WorkspacePath::from_persisted`]): a relative path of plain
/// names, so an edited or corrupt file cannot make one escape the root.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct WorkspacePath(String);

impl WorkspacePath {
    /// Resolves `user_path` to the canonical name of the file inside `root`:
    /// lexically normalised (`..` may not climb above the root), then
    /// through the symlinks that exist now — so a link and its target, or
    /// `a/../b.py` and `b.py`, are one path. Refuses what leads outside the
    /// root and what lies in Eddi's state directory.
    ///
    /// `checked`: the directories below the root this request already
    /// found to be no links (see [`CheckedDirs`]).
    pub(super) fn resolve(
        root: &Path,
        state_dir: &Path,
        user_path: &str,
        checked: &mut CheckedDirs,
    ) -> Result<WorkspacePath> {
        let lexical = Self::lexical(root, user_path)?;
        let escapes = || FileError::Escapes(user_path.trim().to_owned());
        // The deepest existing ancestor, canonical, plus the rest as given.
        let mut probe = root.join(&lexical);
        let mut missing: Vec<std::ffi::OsString> = Vec::new();
        let mut hops = 0;
        let real = loop {
            // an existing path without a link below the (canonical) root
            // is its own canonical form: one lstat per part below the
            // root instead of a walk of every part from `/`
            if missing.is_empty() && hops == 0 && no_link_below(root, &lexical, checked) {
                break probe.clone();
            }
            match probe.canonicalize() {
                Ok(real) => break real,
                // A dangling link: follow it to the file it would create.
                Err(_) if probe.is_symlink() && hops < 40 => {
                    hops += 1;
                    let target = std::fs::read_link(&probe).map_err(|_| escapes())?;
                    let parent = probe.parent().ok_or_else(escapes)?;
                    probe = parent.join(target);
                }
                Err(_) => match (probe.file_name(), probe.parent()) {
                    (Some(name), Some(parent)) => {
                        missing.push(name.to_owned());
                        probe = parent.to_path_buf();
                    }
                    _ => return Err(escapes()),
                },
            }
        };
        let mut real = real;
        real.extend(missing.iter().rev());
        let relative = real.strip_prefix(root).map_err(|_| escapes())?;
        if state_dir.starts_with(root) && real.starts_with(state_dir) {
            return Err(FileError::StateDir(user_path.trim().to_owned()));
        }
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.is_empty() {
            return Err(FileError::Invalid(
                user_path.to_owned(),
                "names the workspace root, not a file",
            ));
        }
        Ok(WorkspacePath(parts.join("/")))
    }

    /// The lexical normal form of a user path, relative to `root`, with `/`
    /// (no symlink is followed).
    pub(super) fn lexical(root: &Path, user_path: &str) -> Result<String> {
        let trimmed = user_path.trim();
        if trimmed.is_empty() {
            return Err(FileError::Invalid(user_path.to_owned(), "empty path"));
        }
        if trimmed.chars().any(char::is_control) {
            return Err(FileError::Invalid(
                user_path.to_owned(),
                "control characters in path",
            ));
        }
        let given = Path::new(trimmed);
        let relative = if given.is_absolute() {
            given
                .strip_prefix(root)
                .map_err(|_| FileError::Escapes(trimmed.to_owned()))?
                .to_path_buf()
        } else {
            given.to_path_buf()
        };
        let mut parts: Vec<String> = Vec::new();
        for component in relative.components() {
            match component {
                Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
                Component::CurDir => {}
                Component::ParentDir => {
                    if parts.pop().is_none() {
                        return Err(FileError::Escapes(trimmed.to_owned()));
                    }
                }
                Component::RootDir | Component::Prefix(_) => {
                    return Err(FileError::Escapes(trimmed.to_owned()))
                }
            }
        }
        if parts.is_empty() {
            return Err(FileError::Invalid(
                user_path.to_owned(),
                "names the workspace root, not a file",
            ));
        }
        Ok(parts.join("/"))
    }

    /// A path as Eddi wrote it to its state: `/`-separated plain names —
    /// not absolute, no `.`, `..` or empty part, no NUL — the form
    /// [`Self::resolve`] produces. Symlinks are not checked here (no root
    /// is at hand): a commit resolves each path again as it writes.
    pub fn from_persisted(path: String) -> std::result::Result<WorkspacePath, String> {
        let fault = if path.is_empty() {
            Some("empty")
        } else if path.starts_with('/') {
            Some("absolute")
        } else if path.contains('\0') {
            Some("contains NUL")
        } else {
            path.split('/').find_map(|part| match part {
                "" => Some("has an empty part"),
                "." => Some("has a '.' part"),
                ".." => Some("has a '..' part"),
                _ => None,
            })
        };
        match fault {
            Some(why) => Err(format!("invalid workspace path {path:?}: {why}")),
            None => Ok(WorkspacePath(path)),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The file name (last component).
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    pub fn absolute(&self, root: &Path) -> PathBuf {
        root.join(&self.0)
    }
}

impl TryFrom<String> for WorkspacePath {
    type Error = String;

    fn try_from(path: String) -> std::result::Result<WorkspacePath, String> {
        WorkspacePath::from_persisted(path)
    }
}

impl From<WorkspacePath> for String {
    fn from(path: WorkspacePath) -> String {
        path.0
    }
}

impl fmt::Display for WorkspacePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The directories below the root that one request found to be real
/// directories, not links: each path it resolves then checks only the
/// parts it has not checked (a walk of a project reads hundreds of files
/// in a few dozen directories). Kept for one request only — a directory
/// replaced by a link afterwards is checked again by the next one.
#[derive(Debug, Default)]
pub struct CheckedDirs(HashSet<String>);

/// Whether every part of `relative` (`/`-separated, lexical) exists below
/// `root` and none is a symbolic link; the directories found so are added
/// to `checked`, and those in it are not asked again.
fn no_link_below(root: &Path, relative: &str, checked: &mut CheckedDirs) -> bool {
    if relative.is_empty() {
        return false;
    }
    let mut probe = root.to_path_buf();
    let mut end = 0;
    for part in relative.split('/') {
        probe.push(part);
        end += part.len();
        let directory = (end < relative.len()).then(|| &relative[..end]);
        if !directory.is_some_and(|dir| checked.0.contains(dir)) {
            let real =
                std::fs::symlink_metadata(&probe).is_ok_and(|meta| !meta.file_type().is_symlink());
            if !real {
                return false;
            }
            if let Some(dir) = directory {
                checked.0.insert(dir.to_owned());
            }
        }
        end += 1; // the '/'
    }
    true
}
