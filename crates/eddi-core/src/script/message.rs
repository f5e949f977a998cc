//! Which messages are scripts, and where each script of a file of
//! commands ends (`eddi run`).
//!
//! A message is a script when its first word starts a script statement
//! the command language does not have: `foreach`, `if`, `let`, `use`,
//! `try`, `on_error`, `store`, `collect`, `rollback`, `flag`, `suggest`,
//! `remove`, `add import|line`, `replace with`, `preview [diff]
//! changeset`, `apply changeset` — or `{`. Anything else is phase-1
//! commands (`Push Context`, `Replace All …`, `Preview Refactor …`).

use super::lexer::{tokenize, Tok, Token};

const SCRIPT_WORDS: &[&str] = &[
    "foreach", "if", "let", "use", "try", "on_error", "store", "collect", "rollback", "flag",
    "suggest", "remove",
];

/// Whether the tokens from `at` start a script statement.
fn starts_at(tokens: &[Token], at: usize) -> bool {
    let word = |i: usize, w: &str| tokens.get(i).is_some_and(|t| t.is_word(w));
    match tokens.get(at).map(|t| &t.tok) {
        Some(Tok::LBrace) => true,
        Some(Tok::Word(first)) => {
            SCRIPT_WORDS.iter().any(|w| first.eq_ignore_ascii_case(w))
                || (first.eq_ignore_ascii_case("add")
                    && (word(at + 1, "import") || word(at + 1, "line")))
                || (first.eq_ignore_ascii_case("replace") && word(at + 1, "with"))
                || (first.eq_ignore_ascii_case("apply") && word(at + 1, "changeset"))
                || (first.eq_ignore_ascii_case("preview")
                    && (word(at + 1, "changeset")
                        || (word(at + 1, "diff") && word(at + 2, "changeset"))))
        }
        _ => false,
    }
}

fn first_token(tokens: &[Token], from: usize) -> Option<usize> {
    (from..tokens.len()).find(|&i| !tokens[i].is_separator())
}

/// The first word of a text (or `{`), past blanks and `#` comments.
fn first_word(text: &str) -> &str {
    let mut rest = text.trim_start();
    while let Some(comment) = rest.strip_prefix('#') {
        rest = comment
            .split_once('\n')
            .map_or("", |(_, after)| after)
            .trim_start();
    }
    if rest.starts_with('{') {
        return "{";
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Whether the message is a script.
pub fn is_script(text: &str) -> bool {
    // most messages are commands: known by their first word, unlexed
    let first = first_word(text);
    let candidate = first == "{"
        || SCRIPT_WORDS
            .iter()
            .chain(&["add", "replace", "apply", "preview"])
            .any(|w| first.eq_ignore_ascii_case(w));
    if !candidate {
        return false;
    }
    let Ok(tokens) = tokenize(text) else {
        // a script the lexer refuses (an unterminated string) is still
        // one when its first word says so: its parse will say what is wrong
        return starts_with_script_word(text);
    };
    first_token(&tokens, 0).is_some_and(|i| starts_at(&tokens, i))
}

fn starts_with_script_word(text: &str) -> bool {
    let text = text.trim_start();
    if text.starts_with('{') {
        return true;
    }
    let first: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    SCRIPT_WORDS.iter().any(|w| first.eq_ignore_ascii_case(w))
}

/// A file of commands split into messages: each script whole (a `{ … }`
/// block to its closing brace, a single-line form to the end of its line
/// or of the braces it opens), the phase-1 commands between them as they
/// are written. Returns `(is_script, text)` in order.
pub fn split(text: &str) -> Vec<(bool, String)> {
    let Ok(tokens) = tokenize(text) else {
        return vec![(false, text.to_owned())];
    };
    let mut pieces: Vec<(bool, String)> = Vec::new();
    let mut plain_from: Option<usize> = None;
    let mut i = 0;
    let mut line_start = true;
    while i < tokens.len() {
        let token = &tokens[i];
        if token.is_separator() {
            line_start = matches!(token.tok, Tok::Newline) || line_start;
            i += 1;
            continue;
        }
        if line_start && starts_at(&tokens, i) {
            if let Some(from) = plain_from.take() {
                pieces.push((false, text[from..token.bytes.0].to_owned()));
            }
            // to the end of the line, or past the braces it opens
            let mut depth = 0usize;
            let mut end = i;
            while end < tokens.len() {
                match tokens[end].tok {
                    Tok::LBrace => depth += 1,
                    Tok::RBrace => depth = depth.saturating_sub(1),
                    Tok::Newline if depth == 0 => break,
                    _ => {}
                }
                end += 1;
            }
            let last = tokens[end.saturating_sub(1).max(i)].bytes.1;
            pieces.push((true, text[token.bytes.0..last].to_owned()));
            i = end;
            line_start = true;
            continue;
        }
        if plain_from.is_none() {
            plain_from = Some(token.bytes.0);
        }
        line_start = false;
        // a phase-1 command goes on to the end of its line
        while i < tokens.len() && !matches!(tokens[i].tok, Tok::Newline) {
            i += 1;
        }
    }
    if let Some(from) = plain_from {
        pieces.push((false, text[from..].to_owned()));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_told_from_commands_by_their_first_words() {
        for script in [
            "foreach function flag \"x\"",
            "  { let $a = class A }",
            "LET $a = class A",
            "add import logging",
            "replace with f($1)",
            "apply changeset c",
            "preview diff changeset c",
            "if unused remove import",
            "# clean up\nforeach import where unused { remove import }",
        ] {
            assert!(is_script(script), "{script}");
        }
        for command in [
            "Open a.py",
            "Push Context",
            "Replace All \"a\" With \"b\"",
            "Apply",
            "Preview Refactor Rename_Class A B",
            "Insert Line \"it's\"",
            "# a comment\nOpen a.py",
            "",
        ] {
            assert!(!is_script(command), "{command}");
        }
    }

    #[test]
    fn a_file_splits_into_whole_scripts_and_the_commands_between() {
        let file = "Start s\nOpen a.py; Goto 1:0\n{\n  foreach import where unused {\n    remove import\n  }\n}\nforeach class flag \"c\"\nSave\n";
        let pieces = split(file);
        assert_eq!(
            pieces,
            vec![
                (false, "Start s\nOpen a.py; Goto 1:0\n".to_owned()),
                (
                    true,
                    "{\n  foreach import where unused {\n    remove import\n  }\n}".to_owned()
                ),
                (true, "foreach class flag \"c\"".to_owned()),
                (false, "Save\n".to_owned()),
            ]
        );
    }
}
