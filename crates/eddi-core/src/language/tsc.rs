//! TypeScript's own compiler as the judge of a file's syntax, where the
//! grammar and it disagree.
//!
//! tree-sitter-typescript 0.23 (the newest) rejects valid TypeScript:
//! `export type * from`, variance annotations (`interface Z<out T>`),
//! `abstract override`, a function type's parameter named as a type
//! (`(any) => void`), `keyof readonly any[]` (type members apart by line
//! breaks alone it misreads too, but [`super::separators`] reads those
//! files right, so no error is left for `tsc` to judge). When the
//! grammar finds errors, `tsc` (on the `PATH`, 5.6 or later: `--noCheck`)
//! reads the text alone — no types checked, no module resolved — and its
//! syntax errors (`TS1xxx`) are the file's. Without a `tsc` that can say,
//! the grammar's errors stand.

use std::process::Command;

use ropey::Rope;

use crate::analysis::validate::SyntaxError;
use crate::edit::Position;

/// The syntax errors `tsc` finds in `text` read as a file of `extension`
/// (`ts`, `tsx`), in source order; `None` when no `tsc` can tell.
pub(super) fn syntax_errors(text: &Rope, extension: &str) -> Option<Vec<SyntaxError>> {
    let dir = tempfile::tempdir().ok()?;
    let name = format!("checked.{extension}");
    std::fs::write(dir.path().join(&name), text.to_string()).ok()?;
    // (a project file: no `types` is `[]` there, while tsc 5.6 refuses
    // `--types ""` with TS6044, which left every file to the grammar)
    let config = format!(
        r#"{{"compilerOptions": {{"noEmit": true, "noCheck": true, "noResolve": true, "skipLibCheck": true, "pretty": false, "types": []}}, "files": ["{name}"]}}"#
    );
    std::fs::write(dir.path().join("tsconfig.json"), config).ok()?;
    let run = Command::new("tsc")
        .args(["-p", "tsconfig.json"])
        .current_dir(dir.path())
        .output()
        .ok()?;
    let (mut errors, mut judged) = (Vec::new(), run.status.success());
    for line in String::from_utf8_lossy(&run.stdout).lines() {
        let Some((code, error)) = diagnostic(line, &name) else {
            if line.contains("error TS") {
                return None; // about its options or its files
            }
            continue;
        };
        judged = true;
        match code.as_bytes() {
            // TS1xxx: the syntax
            [b'1', _, _, _] => errors.push(error),
            // TS5xxx, TS6xxx: options and files; it cannot judge
            [b'5' | b'6', ..] => return None,
            // what `--noCheck` still checks of the rest (TS17004, `--jsx`)
            _ => {}
        }
    }
    if !judged {
        return None;
    }
    errors.sort_by_key(|e| e.position);
    Some(errors)
}

/// `checked.ts(3,1): error TS1005: '}' expected.` → its code (`1005`) and
/// the error at 2:0.
fn diagnostic(line: &str, name: &str) -> Option<(String, SyntaxError)> {
    let rest = line.strip_prefix(name)?.strip_prefix('(')?;
    let (place, rest) = rest.split_once("): error TS")?;
    let (code, message) = rest.split_once(": ")?;
    let (line, col) = place.split_once(',')?;
    let position = Position::new(line.parse::<usize>().ok()?.checked_sub(1)?, {
        col.parse::<usize>().ok()?.checked_sub(1)?
    });
    Some((
        code.to_owned(),
        SyntaxError {
            position,
            message: message.trim().to_owned(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_line_gives_its_code_and_zero_based_position() {
        let (code, error) = diagnostic(
            "checked.ts(3,12): error TS1005: '}' expected.",
            "checked.ts",
        )
        .unwrap();
        assert_eq!(code, "1005");
        assert_eq!(error.position, Position::new(2, 11));
        assert_eq!(error.message, "'}' expected.");
        assert!(diagnostic("other.ts(1,1): error TS1005: x", "checked.ts").is_none());
    }
}
