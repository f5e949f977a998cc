//! Prints radon-style cyclomatic complexity for every function, method and
//! class (closures and inner classes included) of the given Python files or
//! directories, one tab-separated line per block:
//! `path  line(1-based)  type  name  complexity`.
//!
//! Used by `scripts/radon-compare`:
//! `cargo run --example complexity -- <dir-or-file>...`

use std::path::Path;

use eddi::analysis::complexity::blocks;
use eddi::analysis::SyntaxTree;
use ropey::Rope;

#[path = "common/files.rs"]
mod files;
use files::python_files;

fn main() {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        python_files(Path::new(&arg), &mut files);
    }
    for file in files {
        let Ok(bytes) = std::fs::read(&file) else {
            eprintln!("{}: unreadable", file.display());
            continue;
        };
        let source = String::from_utf8_lossy(&bytes);
        let text = Rope::from_str(&source);
        let Ok(tree) = SyntaxTree::parse(&text) else {
            eprintln!("{}: parse failed", file.display());
            continue;
        };
        for top in blocks(&text, &tree) {
            for b in top.flatten() {
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    file.display(),
                    b.position.line + 1,
                    b.kind.radon_type(),
                    b.name,
                    b.complexity
                );
            }
        }
    }
}
