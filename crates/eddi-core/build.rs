//! The fingerprint of this build's scanning code: a hash of the crate's
//! sources, its queries, its manifest and the workspace's lock file (the
//! grammars' versions). A scan stored on disk by one build is read back
//! only by a build with the same fingerprint
//! (`src/analysis/index/tags/store.rs`): any change to the code that
//! scans, or to a grammar, makes the stored scans stale at once.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    let crate_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut inputs = vec![crate_dir.join("Cargo.toml")];
    for dir in ["src", "queries"] {
        files_under(&crate_dir.join(dir), &mut inputs);
    }
    let lock = crate_dir.join("../../Cargo.lock");
    if lock.is_file() {
        inputs.push(lock);
    }
    inputs.sort();
    let mut hasher = DefaultHasher::new();
    for input in &inputs {
        println!("cargo:rerun-if-changed={}", input.display());
        input
            .strip_prefix(&crate_dir)
            .unwrap_or(input)
            .hash(&mut hasher);
        std::fs::read(input)
            .expect("a source file is readable")
            .hash(&mut hasher);
    }
    for dir in ["src", "queries"] {
        // (a file added or removed)
        println!("cargo:rerun-if-changed={}", crate_dir.join(dir).display());
    }
    println!(
        "cargo:rustc-env=EDDI_SCAN_FINGERPRINT={:016x}",
        hasher.finish()
    );
}

fn files_under(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, into);
        } else {
            into.push(path);
        }
    }
}
