//! Line helpers over a [`Rope`]: line text without its terminator,
//! indentation, blank lines, whole-line char ranges. CRLF-aware: the `'\r'`
//! of a CRLF ending is never part of a line's text.

use ropey::Rope;

/// Number of lines; a trailing newline opens one more (empty) line.
pub fn count(text: &Rope) -> usize {
    text.len_lines()
}

/// The text of `line` without `\n` / `\r\n`; empty past the end.
pub fn text_of(text: &Rope, line: usize) -> String {
    if line >= text.len_lines() {
        return String::new();
    }
    let mut s = text.line(line).to_string();
    if s.ends_with('\n') {
        s.pop();
        if s.ends_with('\r') {
            s.pop();
        }
    }
    s
}

/// Leading whitespace of `line`, in chars (a tab counts as one char).
pub fn indent_of(text: &Rope, line: usize) -> usize {
    indent_str(&text_of(text, line)).chars().count()
}

/// The leading whitespace of a string.
pub fn indent_str(s: &str) -> &str {
    let n = s.len() - s.trim_start_matches([' ', '\t']).len();
    &s[..n]
}

/// True for lines that are empty or whitespace only (and lines past the end).
pub fn is_blank(text: &Rope, line: usize) -> bool {
    text_of(text, line).trim().is_empty()
}

/// Char offset where `line` starts (the end of the text past the last line).
pub fn start(text: &Rope, line: usize) -> usize {
    if line >= text.len_lines() {
        text.len_chars()
    } else {
        text.line_to_char(line)
    }
}

/// Char offset just after `line` including its terminator: the start of the
/// next line, or the end of the text.
pub fn end_with_newline(text: &Rope, line: usize) -> usize {
    start(text, line + 1)
}

/// The line ending used by the text: `"\r\n"` when its first line ends so.
pub fn ending(text: &Rope) -> &'static str {
    if text.len_lines() > 1 {
        let first = text.line(0);
        let n = first.len_chars();
        if n >= 2 && first.char(n - 2) == '\r' {
            return "\r\n";
        }
    }
    "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_lines_have_no_carriage_return() {
        let text = Rope::from_str("  a\r\n\tb\r\n\r\n");
        assert_eq!(text_of(&text, 0), "  a");
        assert_eq!(indent_of(&text, 1), 1);
        assert!(is_blank(&text, 2));
        assert!(is_blank(&text, 3));
        assert!(is_blank(&text, 9));
        assert_eq!(end_with_newline(&text, 0), 5);
        assert_eq!(ending(&text), "\r\n");
        assert_eq!(ending(&Rope::from_str("a\nb")), "\n");
    }
}
