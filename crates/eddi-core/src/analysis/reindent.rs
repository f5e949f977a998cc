//! Re-indenting Python snippets for insertion.
//!
//! Agents send code with any indentation, sometimes with the indentation
//! lost (`"def f(self):\n # body\n return 1"`). [`reindent`] rebuilds a
//! consistent indentation:
//! 1. line endings become `\n`, trailing blank lines go;
//! 2. lines are dedented by the first code line's indentation;
//! 3. a logical depth is computed per line: after a block opener (a logical
//!    line ending in `:` outside brackets, strings and comments) the next
//!    line is one level deeper *even if it is not indented more* (lost
//!    indentation); a line at the same raw indentation as the previous one
//!    keeps its depth; a dedent returns to the enclosing level with that raw
//!    indentation (or the nearest shallower one);
//! 4. lines continuing a bracket or a triple-quoted string keep their
//!    position relative to the line that opened it;
//! 5. each line is emitted as `base + unit × depth + content`.
//!
//! Known limit: when the indentation is lost, a body line cannot be told
//! from a dedented statement at the same raw indentation; it is kept in the
//! body (the common case for one inserted definition).

/// Re-indents `code` to start at `base` with `unit` per level. The result
/// has `\n` endings and ends with `\n` (empty input gives an empty string).
pub fn reindent(code: &str, base: &str, unit: &str) -> String {
    let normalized = code.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = normalized
        .trim_end_matches([' ', '\t', '\n'])
        .split('\n')
        .collect();
    if lines.len() == 1 && lines[0].trim().is_empty() {
        return String::new();
    }
    let first_indent = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .map(|l| indent_width(l))
        .unwrap_or(0);

    let mut out = String::new();
    // (raw indentation, depth) of the open levels
    let mut stack: Vec<(usize, usize)> = vec![(first_indent, 0)];
    let mut after_opener = false;
    let mut scan = Scanner::default();
    // continuation: (raw indentation of the opening line, its new indentation)
    let mut continuation: Option<(usize, usize)> = None;
    let unit_width = unit.chars().count().max(1);
    for line in &lines {
        if let Some((raw_open, new_open)) = continuation {
            // inside brackets or a triple-quoted string: shift relatively
            let raw = indent_width(line);
            let shifted = (new_open + raw).saturating_sub(raw_open);
            if line.trim().is_empty() {
                out.push('\n');
            } else {
                out.push_str(base);
                push_width(&mut out, shifted, unit);
                out.push_str(line.trim_start_matches([' ', '\t']));
                out.push('\n');
            }
            scan.feed(line);
            if !scan.open() {
                continuation = None;
                after_opener = scan.ends_with_colon;
            }
            continue;
        }
        if line.trim().is_empty() {
            out.push('\n');
            continue;
        }
        let raw = indent_width(line);
        let depth = if after_opener {
            let depth = stack.last().map_or(0, |t| t.1) + 1;
            stack.push((raw, depth));
            depth
        } else {
            while stack.len() > 1 && raw < stack.last().map_or(0, |t| t.0) {
                stack.pop();
            }
            stack.last().map_or(0, |t| t.1)
        };
        let extra = if after_opener {
            0
        } else {
            raw.saturating_sub(stack.last().map_or(0, |t| t.0))
        };
        out.push_str(base);
        out.push_str(&unit.repeat(depth));
        out.push_str(&" ".repeat(extra));
        out.push_str(line.trim_start_matches([' ', '\t']));
        out.push('\n');
        scan.feed(line);
        if scan.open() {
            continuation = Some((raw, depth * unit_width + extra));
        } else {
            after_opener = scan.ends_with_colon;
        }
    }
    out
}

fn push_width(out: &mut String, width: usize, unit: &str) {
    if unit == "\t" {
        out.push_str(&"\t".repeat(width));
    } else {
        out.push_str(&" ".repeat(width));
    }
}

/// Indentation width in chars (a tab counts as one, like Eddi's columns).
fn indent_width(line: &str) -> usize {
    line.chars().take_while(|c| *c == ' ' || *c == '\t').count()
}

/// Tracks brackets and strings across lines.
#[derive(Default)]
struct Scanner {
    depth: i32,
    /// Open triple-quoted string delimiter.
    triple: Option<&'static str>,
    /// The last logical line ended with `:` at bracket depth 0.
    ends_with_colon: bool,
}

impl Scanner {
    fn open(&self) -> bool {
        self.depth > 0 || self.triple.is_some()
    }

    fn feed(&mut self, line: &str) {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        let mut last_significant: Option<char> = None;
        while i < chars.len() {
            if let Some(delim) = self.triple {
                let d: Vec<char> = delim.chars().collect();
                if chars[i] == '\\' {
                    i += 2;
                    continue;
                }
                if chars[i..].starts_with(&d) {
                    self.triple = None;
                    i += 3;
                    last_significant = Some('"');
                    continue;
                }
                i += 1;
                continue;
            }
            let c = chars[i];
            match c {
                '#' => break,
                '"' | '\'' => {
                    let triple: [char; 3] = [c, c, c];
                    if chars[i..].starts_with(&triple) {
                        self.triple = Some(if c == '"' { "\"\"\"" } else { "'''" });
                        i += 3;
                        continue;
                    }
                    // single-line string
                    i += 1;
                    while i < chars.len() && chars[i] != c {
                        if chars[i] == '\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    last_significant = Some(c);
                }
                '(' | '[' | '{' => {
                    self.depth += 1;
                    last_significant = Some(c);
                }
                ')' | ']' | '}' => {
                    self.depth = (self.depth - 1).max(0);
                    last_significant = Some(c);
                }
                c if c.is_whitespace() => {}
                '\\' if i + 1 == chars.len() => {
                    // explicit line continuation: behave as an open bracket
                    // for the next line only
                }
                _ => last_significant = Some(c),
            }
            i += 1;
        }
        if !self.open() {
            self.ends_with_colon = last_significant == Some(':');
        }
    }
}

/// The indentation unit of a file: the most common positive step between a
/// block opener and the line after it; four spaces when there is none.
pub fn detect_unit(text: &ropey::Rope) -> String {
    use std::collections::HashMap;
    let mut counts: HashMap<String, usize> = HashMap::new();
    let n = super::lines::count(text);
    let mut prev: Option<String> = None;
    for line in 0..n {
        let t = super::lines::text_of(text, line);
        if t.trim().is_empty() || t.trim_start().starts_with('#') {
            continue;
        }
        if let Some(p) = &prev {
            if p.trim_end().ends_with(':') {
                let pi = super::lines::indent_str(p);
                let ti = super::lines::indent_str(&t);
                if ti.len() > pi.len() && ti.starts_with(pi) {
                    *counts.entry(ti[pi.len()..].to_string()).or_default() += 1;
                }
            }
        }
        prev = Some(t);
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
        .map(|(unit, _)| unit)
        .unwrap_or_else(|| "    ".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_indentation_is_rebuilt() {
        assert_eq!(
            reindent(
                "def authenticate(self, username, password):\n # TODO: Implement authentication\n return False\n",
                "    ",
                "    "
            ),
            "    def authenticate(self, username, password):\n        # TODO: Implement authentication\n        return False\n"
        );
        assert_eq!(
            reindent(
                "class UserManager:\n def __init__(self):\n self.users = {}\n",
                "",
                "    "
            ),
            "class UserManager:\n    def __init__(self):\n        self.users = {}\n"
        );
    }

    #[test]
    fn proper_indentation_is_kept_and_rebased() {
        let code = "        def f(x):\n            if x:\n                return [\n                    1,\n                ]\n            return 2\r\n";
        assert_eq!(
            reindent(code, "", "  "),
            "def f(x):\n  if x:\n    return [\n        1,\n    ]\n  return 2\n"
        );
        let doc = "def f():\n    \"\"\"Doc\n\n    more\n    \"\"\"\n    pass";
        assert_eq!(
            reindent(doc, "\t", "    "),
            "\tdef f():\n\t    \"\"\"Doc\n\n\t    more\n\t    \"\"\"\n\t    pass\n"
        );
        assert_eq!(reindent("\n\n", "", "    "), "");
    }

    #[test]
    fn unit_is_detected() {
        let text = ropey::Rope::from_str("class A:\n  def f(self):\n    pass\n");
        assert_eq!(detect_unit(&text), "  ");
        assert_eq!(detect_unit(&ropey::Rope::from_str("x = 1\n")), "    ");
    }
}
