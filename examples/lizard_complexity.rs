//! Prints lizard-style cyclomatic complexity for every function and method
//! of the files of the brace languages Eddi counts (JavaScript,
//! TypeScript, …) under the given directories, one tab-separated line per
//! function: `path  line  body-line  end-line  name  complexity` (lines
//! 1-based; `body-line`: where its body begins, 0 for a declaration
//! without a body — an abstract or native method, an overload signature —
//! which lizard does not list; `name`: the last part of its qualified
//! name, as lizard names it, or for a function without a name of its own
//! what holds it in brackets, `<writeOut>`, `<anonymous>`).
//!
//! Used by `scripts/lizard-compare`:
//! `cargo run --example lizard_complexity -- <dir>...`

use std::path::{Path, PathBuf};

use eddi::analysis::SyntaxTree;
use eddi::language::{complexity, inner_functions, language_of};
use ropey::Rope;

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            files(&p, out);
        }
    } else {
        out.push(path.to_path_buf());
    }
}

fn main() {
    let mut found = Vec::new();
    for arg in std::env::args().skip(1) {
        files(Path::new(&arg), &mut found);
    }
    for file in found {
        let name = file.to_string_lossy();
        let Some(language) = language_of(&name) else {
            continue;
        };
        let (Some(points), Some(sites)) = (language.decision_points(), language.symbol_sites())
        else {
            continue;
        };
        let Ok(bytes) = std::fs::read(&file) else {
            eprintln!("{name}: unreadable");
            continue;
        };
        let text = Rope::from_str(&String::from_utf8_lossy(&bytes));
        let Ok(tree) = SyntaxTree::parse_language(language, &text) else {
            eprintln!("{name}: parse failed");
            continue;
        };
        let mut outline = sites(&text, &tree);
        inner_functions::add_inner_functions(&mut outline, &text, &tree, &points);
        let counter = complexity::Counter::new(&text, &points);
        let callable = outline.symbols.iter().filter(|s| s.kind.is_callable());
        for symbol in callable.chain(&outline.inner) {
            let Some(extent) = counter.extent(&text, &tree, symbol) else {
                continue;
            };
            let line = |byte: usize| text.byte_to_line(byte) + 1;
            let bytes = extent.bytes();
            println!(
                "{name}\t{}\t{}\t{}\t{}\t{}",
                line(bytes.start),
                extent.body().map_or(0, line),
                // the line of its last byte (a node's end position's)
                line(bytes.end.max(bytes.start + 1) - 1),
                label(&symbol.name),
                counter.of_extent(&extent),
            );
        }
    }
}

/// A function's name as the compare reads it: a function without a name
/// of its own (`<writeOut@3:16>`) by what holds it, in brackets
/// (`<writeOut>`, `<anonymous>`: lizard may call it either).
fn label(name: &str) -> String {
    match name.strip_prefix('<').and_then(|n| n.rsplit_once('@')) {
        Some((label, _)) => format!("<{label}>"),
        None => name.to_string(),
    }
}
