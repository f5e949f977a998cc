//! `Validate` against CPython: every snippet of
//! `tests/fixtures/python/compile_errors/` is rejected by `python3`'s
//! `compile()` and Eddi reports its first error on the same line; every
//! snippet of `compile_valid/` compiles and Eddi reports nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use eddi::analysis::validate::syntax_errors;
use eddi::analysis::SyntaxTree;
use ropey::Rope;

fn snippets(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/python")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    files.sort();
    files
}

/// CPython's verdict per file: `None` when it compiles, else the 1-based
/// line and message of its SyntaxError. One `python3` for all files.
fn cpython(files: &[PathBuf]) -> Vec<Option<(usize, String)>> {
    let script = r#"
import sys
for path in sys.argv[1:]:
    try:
        compile(open(path, encoding="utf-8").read(), path, "exec")
        print("ok")
    except SyntaxError as e:
        print(f"{e.lineno}\t{e.msg}")
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            l.split_once('\t')
                .map(|(line, msg)| (line.parse().unwrap(), msg.to_string()))
        })
        .collect()
}

fn eddi(path: &Path) -> Vec<(usize, String)> {
    let text = Rope::from_str(&std::fs::read_to_string(path).unwrap());
    let tree = SyntaxTree::parse(&text).unwrap();
    syntax_errors(&text, &tree)
        .into_iter()
        .map(|e| (e.position.line + 1, e.message))
        .collect()
}

#[test]
fn every_invalid_snippet_is_rejected_on_cpythons_line() {
    let files = snippets("compile_errors");
    assert!(files.len() > 50);
    let mut wrong = Vec::new();
    for (file, verdict) in files.iter().zip(cpython(&files)) {
        let name = file.file_stem().unwrap().to_string_lossy();
        let Some((line, message)) = verdict else {
            wrong.push(format!("{name}: python3 compiles it (not a compile error)"));
            continue;
        };
        let found = eddi(file);
        match found.first() {
            Some((l, _)) if *l == line => {}
            _ => wrong.push(format!(
                "{name}: python3 says {line} {message}; eddi says {found:?}"
            )),
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn tricky_valid_snippets_have_no_errors() {
    let files = snippets("compile_valid");
    let mut wrong = Vec::new();
    for (file, verdict) in files.iter().zip(cpython(&files)) {
        let name = file.file_stem().unwrap().to_string_lossy();
        if let Some((line, message)) = verdict {
            wrong.push(format!("{name}: python3 rejects it: {line} {message}"));
        }
        let found = eddi(file);
        if !found.is_empty() {
            wrong.push(format!("{name}: eddi says {found:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
