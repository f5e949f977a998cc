//! Prints Eddi's scope decisions for every Python file under a directory in
//! the format of `scripts/symtable_dump.py` (CPython's `symtable` view):
//! `path  kind  name  line  occurrence  symbol  category`, paths relative
//! to the directory.
//!
//! Used by `scripts/symtable-compare`: `cargo run --example scopes -- <dir>`

use std::path::Path;

use eddi::analysis::{scope, symtable, SyntaxTree};
use ropey::Rope;

#[path = "common/files.rs"]
mod files;
use files::python_files;

fn main() {
    let root = std::env::args().nth(1).expect("usage: scopes <dir>");
    let root = Path::new(&root);
    let mut files = Vec::new();
    python_files(root, &mut files);
    let mut out = String::new();
    for file in files {
        let Ok(source) = std::fs::read_to_string(&file) else {
            eprintln!("{}: unreadable", file.display());
            continue;
        };
        let text = Rope::from_str(&source);
        let Ok(tree) = SyntaxTree::parse(&text) else {
            eprintln!("{}: parse failed", file.display());
            continue;
        };
        let scopes = scope::analyze(&text, &tree);
        let rel = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for line in symtable::dump(&scopes, |c| text.char_to_line(c)) {
            out.push_str(&rel);
            out.push('\t');
            out.push_str(&line);
            out.push('\n');
        }
    }
    print!("{out}");
}
