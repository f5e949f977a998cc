//! Prints Eddi's first syntax error (`Validate`: parse and compile-time
//! checks) of every given Python file, or that it has none, one
//! tab-separated line per file: `path  line(1-based)|ok  message`.
//!
//! Used by `scripts/compile-compare`:
//! `cargo run --example validate -- <dir-or-file>...`

use std::path::Path;

use eddi::analysis::validate::syntax_errors;
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
