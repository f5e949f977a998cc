//! The replacement text of `Replace … With "<text>"` when the pattern is a
//! `/regex/`: `$1` or `${1}` is a numbered group, `$name` or `${name}` a
//! named one, `$0` the whole match, `$$` a literal `$`; a `$` followed by
//! anything else is itself. A group the regex does not have is an error
//! (the `regex` crate would silently expand it to nothing, deleting text).
//!
//! With a `"text"` pattern the replacement is literal: no `$` is special.
//!
//! Pure: parsed and checked once, before anything changes, then expanded
//! per match.

use regex::{Captures, Regex};

use super::error::excerpt;

/// A parsed replacement: literal text and group references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    /// A group as written: its name or number, and whether it was `${…}`.
    Group {
        name: String,
        braced: bool,
    },
}

impl Template {
    /// Parses `text` and checks every group against `regex`; the error
    /// says how to write a literal `$` or a group.
    pub fn new(text: &str, regex: &Regex) -> Result<Template, String> {
        let template = Template::parse(text)?;
        template.check(text, regex)?;
        Ok(template)
    }

    fn parse(text: &str) -> Result<Template, String> {
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(dollar) = rest.find('$') {
            literal.push_str(&rest[..dollar]);
            let after = &rest[dollar + 1..];
            if let Some(tail) = after.strip_prefix('$') {
                literal.push('$');
                rest = tail;
            } else if let Some(braced) = after.strip_prefix('{') {
                let Some(close) = braced.find('}') else {
                    return Err(format!(
                        "Unclosed '${{' in the replacement \"{}\": write ${{1}} or ${{name}} for a group, $$ for a literal $",
                        excerpt(text)
                    ));
                };
                let name = &braced[..close];
                if name.is_empty() {
                    return Err(format!(
                        "Empty group '${{}}' in the replacement \"{}\": a group is ${{1}} or ${{name}}; $$ is a literal $",
                        excerpt(text)
                    ));
                }
                push_literal(&mut pieces, &mut literal);
                pieces.push(Piece::Group {
                    name: name.to_owned(),
                    braced: true,
                });
                rest = &braced[close + 1..];
            } else {
                let len = after
                    .find(|c: char| !is_name_char(c))
                    .unwrap_or(after.len());
                if len == 0 {
                    literal.push('$'); // `$` before anything else is itself
                } else {
                    push_literal(&mut pieces, &mut literal);
                    pieces.push(Piece::Group {
                        name: after[..len].to_owned(),
                        braced: false,
                    });
                }
                rest = &after[len..];
            }
        }
        literal.push_str(rest);
        push_literal(&mut pieces, &mut literal);
        Ok(Template { pieces })
    }

    fn check(&self, text: &str, regex: &Regex) -> Result<(), String> {
        for piece in &self.pieces {
            let Piece::Group { name, braced } = piece else {
                continue;
            };
            if group_exists(regex, name) {
                continue;
            }
            let written = if *braced {
                format!("${{{name}}}")
            } else {
                format!("${name}")
            };
            // Quoted as one short line: the text may hold line breaks.
            let mut message = format!(
                "Unknown group '{}' in the replacement \"{}\": the regex has {}.",
                excerpt(&written),
                excerpt(text),
                groups_text(regex)
            );
            let literal = text.replacen(&written, &format!("${written}"), 1);
            // `$1_id` reads as the group named `1_id`: offer `${1}_id`.
            let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
            if !*braced && !digits.is_empty() && group_exists(regex, &digits) {
                let rest = &name[digits.len()..];
                let fixed = text.replacen(&written, &format!("${{{digits}}}{rest}"), 1);
                message.push_str(&format!(
                    " Write \"{}\" for group {digits} followed by '{rest}', or $$ for a literal $ (\"{}\")",
                    excerpt(&fixed),
                    excerpt(&literal)
                ));
            } else {
                message.push_str(&format!(
                    " Write $$ for a literal $ (\"{}\"); a group is ${{1}} or ${{name}}",
                    excerpt(&literal)
                ));
            }
            return Err(message);
        }
        Ok(())
    }

    /// The replacement for one match; a group that did not take part in
    /// the match (`(a)?`) is empty.
    pub fn expand(&self, caps: &Captures<'_>) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Literal(text) => out.push_str(text),
                Piece::Group { name, .. } => {
                    let group = match name.parse::<usize>() {
                        Ok(index) => caps.get(index),
                        Err(_) => caps.name(name),
                    };
                    out.push_str(group.map_or("", |m| m.as_str()));
                }
            }
        }
        out
    }
}

fn push_literal(pieces: &mut Vec<Piece>, literal: &mut String) {
    if !literal.is_empty() {
        pieces.push(Piece::Literal(std::mem::take(literal)));
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn group_exists(regex: &Regex, name: &str) -> bool {
    match name.parse::<usize>() {
        Ok(index) => index < regex.captures_len(),
        Err(_) => regex.capture_names().flatten().any(|n| n == name),
    }
}

/// `no groups besides $0 (the whole match)`, `groups $0, $1, ${year}`.
fn groups_text(regex: &Regex) -> String {
    if regex.captures_len() == 1 {
        return "no groups besides $0 (the whole match)".to_owned();
    }
    let groups: Vec<String> = regex
        .capture_names()
        .enumerate()
        .map(|(index, name)| match name {
            Some(name) => format!("${index} or ${{{name}}}"),
            None => format!("${index}"),
        })
        .collect();
    format!("groups {}", groups.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(regex: &str, replacement: &str, haystack: &str) -> Result<String, String> {
        let regex = Regex::new(regex).unwrap();
        let template = Template::new(replacement, &regex)?;
        let caps = regex.captures(haystack).unwrap();
        Ok(template.expand(&caps))
    }

    #[test]
    fn expands_groups_and_literal_dollars() {
        assert_eq!(expand(r"(\w+)_id", "${1}Id", "user_id").unwrap(), "userId");
        assert_eq!(expand(r"(\w) = (\d)", "$2 = $1", "x = 1").unwrap(), "1 = x");
        assert_eq!(
            expand(r"(?P<y>\d{4})", "${y}/$y/$0", "2024").unwrap(),
            "2024/2024/2024"
        );
        assert_eq!(expand("cost", "$$costs", "cost").unwrap(), "$costs");
        assert_eq!(expand("cost", "$ 5 $", "cost").unwrap(), "$ 5 $");
        assert_eq!(expand("(a)?b", "[$1]", "b").unwrap(), "[]");
    }

    #[test]
    fn an_unknown_group_says_how_to_write_a_dollar_or_a_group() {
        assert_eq!(
            expand("cost", "$costs", "cost").unwrap_err(),
            "Unknown group '$costs' in the replacement \"$costs\": the regex has no groups besides $0 (the whole match). Write $$ for a literal $ (\"$$costs\"); a group is ${1} or ${name}"
        );
        assert_eq!(
            expand(r"(\w+)_id", "$1_key", "a_id").unwrap_err(),
            "Unknown group '$1_key' in the replacement \"$1_key\": the regex has groups $0, $1. Write \"${1}_key\" for group 1 followed by '_key', or $$ for a literal $ (\"$$1_key\")"
        );
        assert!(expand(r"(?P<y>\d)", "${x}", "1")
            .unwrap_err()
            .contains("the regex has groups $0, $1 or ${y}"));
        assert!(expand("a", "$2", "a")
            .unwrap_err()
            .starts_with("Unknown group '$2'"));
        assert!(expand("a", "${1", "a")
            .unwrap_err()
            .starts_with("Unclosed '${'"));
        assert!(expand("a", "${}", "a")
            .unwrap_err()
            .starts_with("Empty group '${}'"));
        assert!(expand("a", "${a-b}", "a")
            .unwrap_err()
            .starts_with("Unknown group '${a-b}'"));
        assert_eq!(expand(r"(?P<a.b>x)", "[${a.b}]", "x").unwrap(), "[x]");
    }
}
