//! Prints Eddi's first syntax error (`Validate`) of every given file, or
//! that it has none, one tab-separated line per file: `path
//! line(1-based)|ok  message`. Python files by default (parse and
//! compile-time checks: Python's syntax check); with `--ext go` (or `rs`, `java`, `js`, …) the
//! files of that extension, checked by their language's syntax check.
//!
//! Used by `scripts/compile-compare` and `scripts/brace-compare`:
//! `cargo run --example validate -- [--ext EXT] <dir-or-file>...`

use std::path::Path;

use eddi::analysis::SyntaxTree;
use ropey::Rope;

#[path = "common/files.rs"]
mod files;
use files::files_with;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let extension = match args.iter().position(|a| a == "--ext") {
        Some(at) if at + 1 < args.len() => {
            let ext = args.remove(at + 1);
            args.remove(at);
            ext
        }
        _ => "py".to_owned(),
    };
    let Some(language) = eddi::language::language_of(&format!("x.{extension}")) else {
        eprintln!("no language has the extension {extension}");
        std::process::exit(2);
    };
    let Some(check) = language.syntax_check() else {
        eprintln!("{} has no syntax check", language.name());
        std::process::exit(2);
    };
    let mut files = Vec::new();
    for arg in &args {
        files_with(Path::new(arg), &extension, &mut files);
    }
    for file in files {
        let Ok(source) = std::fs::read_to_string(&file) else {
            println!("{}\tunreadable\tnot UTF-8", file.display());
            continue;
        };
        let text = Rope::from_str(&source);
        let Ok(tree) = SyntaxTree::parse_language(language, &text) else {
            println!("{}\tunparsed\tparse failed", file.display());
            continue;
        };
        match check(&text, &tree).first() {
            None => println!("{}\tok\t", file.display()),
            Some(e) => println!("{}\t{}\t{}", file.display(), e.position.line + 1, e.message),
        }
    }
}
