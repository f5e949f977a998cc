//! Workspace-relative paths that are known not to escape the root.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{FileError, Result};

/// A normalised path relative to the workspace root, with `/` separators.
///
/// Constructed only by [`WorkspacePath::resolve`], which guarantees that it
/// stays inside the root, also through symlinks that exist at that time.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WorkspacePath(String);

impl WorkspacePath {
    pub(super) fn resolve(root: &Path, user_path: &str) -> Result<WorkspacePath> {
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
        // Lexical normalisation: `..` may not climb above the root.
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
        let path = WorkspacePath(parts.join("/"));
        // Symlinks: the deepest existing ancestor must resolve inside the root.
        let mut probe = path.absolute(root);
        loop {
            if let Ok(real) = probe.canonicalize() {
                if !real.starts_with(root) {
                    return Err(FileError::Escapes(trimmed.to_owned()));
                }
                break;
            }
            if !probe.pop() {
                break;
            }
        }
        Ok(path)
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

impl fmt::Display for WorkspacePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
