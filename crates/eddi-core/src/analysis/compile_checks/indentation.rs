//! CPython's tokenizer check of indentation (`TabError`, a dedent to no
//! outer level), on the text itself: tree-sitter's scanner measures
//! indentation its own way.

use ropey::Rope;

use crate::analysis::validate::SyntaxError;

/// The first line after `line` that is not blank or a comment.
pub(super) fn next_code_line(text: &Rope, line: usize) -> Option<usize> {
    (line + 1..text.len_lines()).find(|l| {
        let content = crate::analysis::lines::text_of(text, *l);
        let content = content.trim();
        !content.is_empty() && !content.starts_with('#')
    })
}

/// CPython's tokenizer check of indentation: each logical line's
/// indentation is compared with tabs as 8 columns and as 1; the two must
/// agree on more/same/less (`TabError`), and a dedent must land on an
/// outer level.
pub(super) fn indentation_errors(text: &Rope) -> Vec<SyntaxError> {
    // Every character the check looks at is ASCII, and no byte of a
    // multi-byte UTF-8 character is: the bytes of the text are walked.
    let whole = String::from(text);
    let mut out = Vec::new();
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    let mut depth = 0usize;
    let mut string: Option<(u8, bool)> = None; // quote, triple
    let mut continued = false;
    for (line_no, line) in whole.split_inclusive('\n').enumerate() {
        let chars = line.as_bytes();
        let logical_start = depth == 0 && string.is_none() && !continued;
        if logical_start {
            let (mut col, mut alt, mut i) = (0usize, 0usize, 0usize);
            while i < chars.len() {
                match chars[i] {
                    b' ' => {
                        col += 1;
                        alt += 1;
                    }
                    b'\t' => {
                        col = (col / 8 + 1) * 8;
                        alt += 1;
                    }
                    b'\x0c' => {
                        col = 0;
                        alt = 0;
                    }
                    _ => break,
                }
                i += 1;
            }
            let rest = chars.get(i).copied();
            // a backslash with at most one character after it
            let lone_backslash = rest == Some(b'\\') && line[i + 1..].chars().nth(1).is_none();
            let blank = matches!(rest, None | Some(b'#' | b'\n' | b'\r')) || lone_backslash;
            if !blank {
                let at = SyntaxError {
                    position: crate::edit::Position::new(line_no, 0),
                    message: "inconsistent use of tabs and spaces in indentation".into(),
                };
                let (top, top_alt) = *stack.last().unwrap_or(&(0, 0));
                if col == top {
                    if alt != top_alt {
                        out.push(at);
                    }
                } else if col > top {
                    if alt <= top_alt {
                        out.push(at);
                    }
                    stack.push((col, alt));
                } else {
                    while stack.len() > 1 && col < stack[stack.len() - 1].0 {
                        stack.pop();
                    }
                    let (top, top_alt) = *stack.last().unwrap_or(&(0, 0));
                    if col != top {
                        out.push(SyntaxError {
                            message: "unindent does not match any outer indentation level".into(),
                            ..at
                        });
                    } else if alt != top_alt {
                        out.push(at);
                    }
                }
            }
        }
        // advance the bracket/string state over the line
        continued = false;
        let mut i = 0;
        while i < chars.len() {
            let ch = chars[i];
            if let Some((quote, triple)) = string {
                if ch == b'\\' {
                    i += 2;
                    continue;
                }
                if ch == quote {
                    if !triple {
                        string = None;
                    } else if chars.get(i + 1) == Some(&quote) && chars.get(i + 2) == Some(&quote) {
                        string = None;
                        i += 3;
                        continue;
                    }
                }
                if ch == b'\n' && !triple {
                    string = None; // an unterminated string: the parser reports it
                }
                i += 1;
                continue;
            }
            match ch {
                b'#' => break,
                b'\'' | b'"' => {
                    let triple = chars.get(i + 1) == Some(&ch) && chars.get(i + 2) == Some(&ch);
                    string = Some((ch, triple));
                    i += if triple { 3 } else { 1 };
                    continue;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'\\' if matches!(chars.get(i + 1), None | Some(b'\n' | b'\r')) => continued = true,
                _ => {}
            }
            i += 1;
        }
        if let Some((_, false)) = string {
            // a single-quoted string cannot span lines (unless continued)
            if !line.trim_end_matches(['\n', '\r']).ends_with('\\') {
                string = None;
            }
        }
    }
    out
}
