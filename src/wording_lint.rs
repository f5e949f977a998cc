//! No logic reads wording: what a reply or an error *says* is for the
//! reader; what code decides on is its kind, its fields, its data. This
//! test keeps it so across both crates: outside tests, no
//! `starts_with`/`contains`/`ends_with`/`strip_prefix` on a value that holds
//! a reply's or an error's text (`reason`, `message`, `why`, `error`, …).
//!
//! A line that must read text it does not own (a library's error message)
//! says so with a `// wording: <why>` comment on it or on the line above.

use std::path::{Path, PathBuf};

/// Names that hold a reply's or an error's words in this code base.
const WORDED: &[&str] = &[
    "reason", "message", "why", "error", "err", "e", "failure", "fail", "reply", "replies",
    "answer", "rendered", "response", "outcome",
];

/// What reading the words would look like.
const READS: &[&str] = &["starts_with(", "contains(", "ends_with(", "strip_prefix("];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `path` is test code as a whole (a tests folder or file).
fn is_test_file(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == "tests")
        || path
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| s.starts_with("tests") || s == "testing" || s == "wording_lint")
}

/// The offences of one line: a worded name (or a field of one, as in
/// `error.message`) whose text is read.
fn offences(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    for read in READS {
        let mut from = 0;
        while let Some(at) = code[from..].find(read) {
            let at = from + at;
            from = at + read.len();
            let Some(receiver) = code[..at].strip_suffix('.') else {
                continue;
            };
            // the last name of the receiver's path: `error.message` → message
            let name: String = receiver
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if WORDED.contains(&name.as_str()) {
                found.push(format!("{name}.{read}"));
            }
        }
    }
    found
}

#[test]
fn no_logic_reads_the_wording_of_a_reply_or_an_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("crates"), &mut files);
    let mut offenders = Vec::new();
    let mut checked = 0;
    for path in files.iter().filter(|p| !is_test_file(p)) {
        let text = std::fs::read_to_string(path).unwrap();
        // test modules sit at the end of a file
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let lines: Vec<&str> = code.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            checked += 1;
            let allowed = line.contains("// wording:")
                || n > 0 && lines[n - 1].trim_start().starts_with("// wording:");
            if allowed {
                continue;
            }
            for offence in offences(line) {
                let shown = path.strip_prefix(root).unwrap_or(path).display();
                offenders.push(format!("{shown}:{}: {offence}", n + 1));
            }
        }
    }
    assert!(checked > 20_000, "only {checked} lines checked");
    assert!(
        offenders.is_empty(),
        "logic reads wording (decide on a kind or a field instead):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_lint_sees_what_it_forbids() {
    assert_eq!(
        offences(r#"if error.message.starts_with("Signature conflict") {"#),
        ["message.starts_with("]
    );
    assert_eq!(
        offences(r#"let kind = if reason.starts_with("Permission denied") {"#),
        ["reason.starts_with("]
    );
    assert!(offences(r#"if name.starts_with("__") {"#).is_empty());
    assert!(offences(r#"// reason.starts_with("x") in a comment"#).is_empty());
}
