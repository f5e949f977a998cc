//! `Format [File|<target>] [<style>]` through a real formatter.
//!
//! Runs Ruff's formatter (`ruff format -`, text on stdin) and falls back to
//! Black (`black -q -`) when `ruff` is not on `PATH`; with neither, the error
//! says what to install. A target is formatted with the formatter's range
//! option (`ruff format --range a-b`, `black --line-ranges a-b`, 1-based
//! lines). `style` may be `ruff` or `black` (only that one), or a number
//! (the line length); any other style is refused, naming the valid ones, and
//! a missing formatter is named. The result is one whole-text replacement (one undo step),
//! with `'\n'` line endings like every generated text; no edit when the
//! text is already formatted (compared with `'\n'` line endings, so a CRLF
//! file that is formatted stays untouched).
//!
//! This is the only module of `analysis` that runs a process.

use std::io::Write;
use std::process::{Command, Stdio};

use ropey::Rope;

use super::error::{AnalysisError, Result};
use super::textedit::EditResult;
use crate::change::Indel;
use crate::edit::position::clamp;
use crate::edit::{LineRange, Position};
use crate::language::ExternalFormatter;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formatter {
    Ruff,
    Black,
}

/// What `style` asks for: which formatters to try, in order, and a line
/// length. `Err` names the valid styles.
fn parse_style(style: Option<&str>) -> Result<(&'static [Formatter], Option<u32>)> {
    const EITHER: &[Formatter] = &[Formatter::Ruff, Formatter::Black];
    let Some(style) = style else {
        return Ok((EITHER, None));
    };
    if let Ok(n) = style.parse::<u32>() {
        return Ok((EITHER, Some(n)));
    }
    match style.to_ascii_lowercase().as_str() {
        "ruff" => Ok((&[Formatter::Ruff], None)),
        "black" => Ok((&[Formatter::Black], None)),
        _ => Err(AnalysisError::UnknownStyle(style.to_string())),
    }
}

/// Formats `text` (or only `lines`), keeping the cursor clamped in the result.
pub fn format(
    text: &Rope,
    lines: Option<LineRange>,
    style: Option<&str>,
    cursor: Position,
) -> Result<EditResult> {
    let (order, line_length) = parse_style(style)?;
    // formatters and generated text speak '\n'; the engine restores CRLF
    let source = text.to_string().replace("\r\n", "\n");
    for f in order {
        match run(*f, &source, lines, line_length) {
            Ok(out) => return Ok(replacement(text, &source, out, cursor)),
            Err(RunError::Missing) => continue,
            Err(RunError::Failed(msg)) => return Err(AnalysisError::FormatFailed(msg)),
        }
    }
    Err(AnalysisError::FormatterMissing(
        match order {
            [Formatter::Black] => {
                "black is not installed (pip install black); Format ruff uses ruff"
            }
            [Formatter::Ruff] => {
                "ruff is not installed (pip install ruff); Format black uses black"
            }
            _ => "neither ruff nor black is installed: pip install ruff",
        }
        .to_owned(),
    ))
}

/// Formats `text` (or only the chars `range`) of the file at the
/// absolute path `file` with a language's own formatter
/// ([`ExternalFormatter`]), run in the file's directory so that it finds
/// the project's settings (`.prettierrc`, `rustfmt.toml`) whatever the
/// server's own directory; `style` is its name or a line length. The
/// same one-replacement result as [`format`].
pub fn format_external(
    formatter: &ExternalFormatter,
    file: &std::path::Path,
    text: &Rope,
    range: Option<std::ops::Range<usize>>,
    style: Option<&str>,
    cursor: Position,
) -> Result<EditResult> {
    let width = match style {
        None => None,
        Some(s) if s.eq_ignore_ascii_case(formatter.program) => None,
        Some(s) => match (s.parse::<u32>(), formatter.width) {
            (Ok(n), Some(_)) => Some(n),
            _ => {
                let mut valid = formatter.program.to_owned();
                if formatter.width.is_some() {
                    valid.push_str(", or a line length (Format 100)");
                }
                return Err(AnalysisError::UnknownFormatStyle {
                    style: s.to_owned(),
                    formatter: formatter.program,
                    valid,
                });
            }
        },
    };
    let source = text.to_string().replace("\r\n", "\n");
    let fill = |arg: &str| -> String {
        let mut arg = arg.replace("{file}", &file.to_string_lossy());
        if let Some(n) = width {
            arg = arg.replace("{n}", &n.to_string());
        }
        if let Some(r) = &range {
            // the formatter counts UTF-16 code units (prettier is JavaScript)
            let utf16 = |c: usize| text.char_to_utf16_cu(c).to_string();
            arg = arg
                .replace("{start}", &utf16(r.start))
                .replace("{end}", &utf16(r.end));
        }
        arg
    };
    let mut cmd = Command::new(formatter.program);
    cmd.args(formatter.args.iter().map(|a| fill(a)));
    if let Some(dir) = file.parent().filter(|d| d.is_dir()) {
        cmd.current_dir(dir);
    }
    if range.is_some() {
        match formatter.range {
            Some(args) => {
                cmd.args(args.iter().map(|a| fill(a)));
            }
            None => {
                return Err(AnalysisError::FormatFailed(format!(
                    "{} formats whole files only: use Format File",
                    formatter.program
                )))
            }
        }
    }
    if let (Some(arg), Some(_)) = (formatter.width, width) {
        cmd.arg(fill(arg));
    }
    match execute(cmd, &source) {
        Ok(out) => Ok(replacement(text, &source, out, cursor)),
        Err(RunError::Missing) => Err(AnalysisError::FormatterMissing(format!(
            "{} is not installed ({})",
            formatter.program, formatter.install
        ))),
        Err(RunError::Failed(why)) => Err(AnalysisError::FormatFailed(why)),
    }
}

/// The formatter's output as one whole-text replacement (none when the
/// text was formatted already).
fn replacement(text: &Rope, source: &str, out: String, cursor: Position) -> EditResult {
    let out = out.replace("\r\n", "\n");
    let edits = if out == source {
        Vec::new()
    } else {
        vec![Indel::new(0..text.len_chars(), out.clone())]
    };
    let note = edits.is_empty().then(|| "already formatted".to_string());
    let new = Rope::from_str(&out);
    EditResult {
        edits,
        cursor: clamp(&new, cursor),
        element: None,
        note,
    }
}

pub(crate) enum RunError {
    Missing,
    Failed(String),
}

fn run(
    f: Formatter,
    source: &str,
    lines: Option<LineRange>,
    line_length: Option<u32>,
) -> std::result::Result<String, RunError> {
    let cmd = match f {
        Formatter::Ruff => {
            let mut c = Command::new("ruff");
            c.args(["format", "--stdin-filename", "eddi.py"]);
            if let Some(r) = lines {
                // the end is exclusive: the start of the line after the range
                c.arg(format!("--range={}-{}", r.first + 1, r.last + 2));
            }
            if let Some(n) = line_length {
                c.arg(format!("--line-length={n}"));
            }
            c.arg("-");
            c
        }
        Formatter::Black => {
            let mut c = Command::new("black");
            c.arg("-q");
            if let Some(r) = lines {
                c.arg(format!("--line-ranges={}-{}", r.first + 1, r.last + 1));
            }
            if let Some(n) = line_length {
                c.arg(format!("--line-length={n}"));
            }
            c.arg("-");
            c
        }
    };
    execute(cmd, source)
}

/// Runs a formatter with `source` on its stdin: its stdout, or why not.
pub(crate) fn execute(mut cmd: Command, source: &str) -> std::result::Result<String, RunError> {
    let mut child = match cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(RunError::Missing),
        Err(e) => return Err(RunError::Failed(e.to_string())),
    };
    if let Some(mut stdin) = child.stdin.take() {
        // a formatter that exits early closes the pipe; its status says why
        let _ = stdin.write_all(source.as_bytes());
    }
    let output = child
        .wait_with_output()
        .map_err(|e| RunError::Failed(e.to_string()))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        let first = err
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("formatter failed")
            .trim()
            .to_string();
        return Err(RunError::Failed(first));
    }
    String::from_utf8(output.stdout).map_err(|e| RunError::Failed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn have_ruff() -> bool {
        Command::new("ruff").arg("--version").output().is_ok()
    }

    #[test]
    fn ruff_formats_and_reports_errors() {
        if !have_ruff() {
            // without ruff the error must say what to install
            let r = format(&Rope::from_str("x=1\n"), None, Some("ruff"), Position::ZERO);
            assert_eq!(
                r.unwrap_err().to_string(),
                "No formatter found: ruff is not installed (pip install ruff); Format black uses black"
            );
            return;
        }
        let r = format(
            &Rope::from_str("x=1\r\ny = [1,2]\n"),
            None,
            None,
            Position::new(5, 5),
        )
        .unwrap();
        assert_eq!(r.edits[0].insert, "x = 1\ny = [1, 2]\n");
        assert_eq!(r.cursor, Position::new(2, 0));
        let same = format(&Rope::from_str("x = 1\n"), None, None, Position::ZERO).unwrap();
        assert!(same.edits.is_empty());
        assert!(matches!(
            format(&Rope::from_str("def (:\n"), None, None, Position::ZERO),
            Err(AnalysisError::FormatFailed(_))
        ));
        let ranged = format(
            &Rope::from_str("a=1\nb=2\n"),
            Some(LineRange::new(1, 1)),
            None,
            Position::ZERO,
        )
        .unwrap();
        assert_eq!(ranged.edits[0].insert, "a=1\nb = 2\n");
        let crlf = format(
            &Rope::from_str("x = 1\r\ny = 2\r\n"),
            None,
            None,
            Position::ZERO,
        );
        assert!(
            crlf.unwrap().edits.is_empty(),
            "a formatted CRLF file needs no edit"
        );
    }

    #[test]
    fn styles_are_checked_and_missing_formatters_named() {
        let x = Rope::from_str("x=1\n");
        assert_eq!(
            format(&x, None, Some("yapf"), Position::ZERO)
                .unwrap_err()
                .to_string(),
            "Unknown style 'yapf'. Valid: ruff, black, or a line length (Format 100)"
        );
        if Command::new("black").arg("--version").output().is_err() {
            assert_eq!(
                format(&x, None, Some("black"), Position::ZERO).unwrap_err().to_string(),
                "No formatter found: black is not installed (pip install black); Format ruff uses ruff"
            );
        }
    }
}
