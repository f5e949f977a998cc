//! The files the comparison examples read (`complexity`, `validate`,
//! `scopes`): every `.py` file (or every file of another extension) under each path given, in sorted order, a
//! file given by name included — every file, ignore files or not, so that
//! Eddi and the judge it is compared with (radon, `compile()`, `symtable`)
//! read the same set.

use std::path::{Path, PathBuf};

/// Appends the `.py` files at or under `path` to `out`, sorted.
#[allow(dead_code)] // (each example uses one of the two)
pub fn python_files(path: &Path, out: &mut Vec<PathBuf>) {
    files_with(path, "py", out);
}

/// Appends the files with extension `extension` at or under `path` to
/// `out`, sorted.
pub fn files_with(path: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            files_with(&p, extension, out);
        }
    } else if path.extension().is_some_and(|e| e == extension) {
        out.push(path.to_path_buf());
    }
}
