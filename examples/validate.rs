//! Prints Eddi's first syntax error (`Validate`: parse and compile-time
//! checks) of every given Python file, or that it has none, one
//! tab-separated line per file: `path  line(1-based)|ok  message`.
//!
//! Used by `scripts/compile-compare`:
//! `cargo run --example validate -- <dir-or-file>...`

use std::path::{Path, PathBuf};

use eddi::analysis::validate::syntax_errors;
use eddi::analysis::SyntaxTree;
use ropey::Rope;

fn python_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            python_files(&p, out);
        }
    } else if path.extension().is_some_and(|e| e == "py") {
        out.push(path.to_path_buf());
    }
}

fn main() {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        python_files(Path::new(&arg), &mut files);
    }
    for file in files {
        let Ok(source) = std::fs::read_to_string(&file) else {
            println!("{}\tunreadable\tnot UTF-8", file.display());
            continue;
        };
        let text = Rope::from_str(&source);
        let Ok(tree) = SyntaxTree::parse(&text) else {
            println!("{}\tunparsed\tparse failed", file.display());
            continue;
        };
        match syntax_errors(&text, &tree).first() {
            None => println!("{}\tok\t", file.display()),
            Some(e) => println!("{}\t{}\t{}", file.display(), e.position.line + 1, e.message),
        }
    }
}
