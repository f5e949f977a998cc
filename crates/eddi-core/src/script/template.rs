//! Code written in a script's replacement or pattern (`f($1,
//! timeout=30)`): its text with the matched call's placeholders — `$1`,
//! `$2` … its positional arguments, `$name` its keyword argument, `$*` all
//! of them, `$$` a dollar sign — and its arguments split as written.

use super::ast::{PatternArgument, Span, Template, TemplatePart};
use super::error::{ScriptError, ScriptErrorKind};

type Result<T> = std::result::Result<T, ScriptError>;

/// Code text with `$1`, `$name`, `$*` placeholders (`$$` is a `$`).
pub fn template(text: &str, span: Span) -> Result<Template> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '$' {
            literal.push(chars[i]);
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        let placeholder = match next {
            Some('$') => {
                literal.push('$');
                i += 2;
                continue;
            }
            Some('*') => {
                i += 2;
                TemplatePart::AllArguments
            }
            Some(c) if c.is_ascii_digit() => {
                let mut j = i + 1;
                while chars.get(j).is_some_and(|c| c.is_ascii_digit()) {
                    j += 1;
                }
                let digits: String = chars[i + 1..j].iter().collect();
                let n: usize = digits.parse().unwrap_or(0);
                if n == 0 {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Syntax,
                        span,
                        format!("invalid argument ${digits}; expected $1 for the first argument, $2 for the second, …"),
                    ));
                }
                i = j;
                TemplatePart::Argument(n)
            }
            Some(c) if c.is_alphabetic() || c == '_' => {
                let mut j = i + 1;
                while chars
                    .get(j)
                    .is_some_and(|c| c.is_alphanumeric() || *c == '_')
                {
                    j += 1;
                }
                let name: String = chars[i + 1..j].iter().collect();
                i = j;
                TemplatePart::KeywordArgument(name)
            }
            _ => {
                return Err(ScriptError::new(
                    ScriptErrorKind::Syntax,
                    span,
                    "a lone '$' in code; expected $1, $name or $* (write $$ for a dollar sign)",
                ))
            }
        };
        if !literal.is_empty() {
            parts.push(TemplatePart::Text(std::mem::take(&mut literal)));
        }
        parts.push(placeholder);
    }
    if !literal.is_empty() {
        parts.push(TemplatePart::Text(literal));
    }
    Ok(Template { parts })
}

/// The arguments written between a call pattern's parentheses: split at
/// top-level commas (brackets and Python strings respected), each
/// `keyword=value` or a positional value.
pub fn pattern_arguments(text: &str, span: Span) -> Result<Vec<PatternArgument>> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut piece = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            piece.push(c);
            if c == '\\' {
                if let Some(escaped) = chars.next() {
                    piece.push(escaped);
                }
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(std::mem::take(&mut piece));
                continue;
            }
            _ => {}
        }
        piece.push(c);
    }
    pieces.push(piece);
    let last = pieces.len() - 1;
    let mut arguments = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        let piece = piece.trim();
        if piece.is_empty() {
            if i == last && i > 0 {
                break; // a trailing comma, as Python allows
            }
            return Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                span,
                "empty argument; expected a value between the commas",
            ));
        }
        let keyword = piece.split_once('=').and_then(|(name, value)| {
            let name = name.trim();
            let is_keyword = !value.starts_with('=')
                && !name.is_empty()
                && name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            is_keyword.then(|| (name.to_string(), value.trim()))
        });
        let argument = match keyword {
            Some((name, value)) => {
                if value.is_empty() {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Syntax,
                        span,
                        format!("keyword argument {name}= has no value; expected {name}=<value>"),
                    ));
                }
                PatternArgument {
                    keyword: Some(name),
                    value: template(value, span)?,
                }
            }
            None => PatternArgument {
                keyword: None,
                value: template(piece, span)?,
            },
        };
        arguments.push(argument);
    }
    Ok(arguments)
}
