//! Printing a [`Command`] back as canonical command text.
//!
//! `parse_command(&cmd.to_string()) == Ok(cmd)` for every command the parser
//! can produce (a round-trip proptest in `tests/engine/lang_parser.rs` checks it),
//! so the engine can log, journal or echo commands as text. Canonical means:
//! keywords in their documented spelling, defaults left out (`Find` rather
//! than `Find Next`, `Comment ... "x"` rather than `... "x" Line`), strings
//! quoted with escapes, and paths bare unless they need quotes.
//!
//! Known limit: a regex whose pattern holds a raw newline, or a single
//! backslash right before a `/`, has no literal form; it prints, but does not
//! parse back. The lexer never produces either.

use std::fmt::{self, Display, Formatter};

use super::command::*;
use super::lexer::is_word_char;

/// `"text"` with `\\`, `\"`, `\n` and `\t` escaped (the lexer's escapes).
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A path, glob or name: bare when it lexes back as one word (or number)
/// and is not one of `flags`, quoted otherwise.
fn word(text: &str, flags: &[&str]) -> String {
    let plain = !text.is_empty()
        && !text.starts_with('#')
        && text.chars().all(is_word_char)
        && !flags.iter().any(|f| f.eq_ignore_ascii_case(text));
    if plain {
        text.to_string()
    } else {
        quote(text)
    }
}

fn regex(pattern: &str) -> String {
    format!("/{}/", pattern.replace('/', "\\/"))
}

impl Display for Pattern {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Pattern::Text(text) => f.write_str(&quote(text)),
            Pattern::Regex(pattern) => f.write_str(&regex(pattern)),
        }
    }
}

impl Display for CodeTarget {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            CodeTarget::Function { name, params: None } => write!(f, "Function {name}"),
            CodeTarget::Function {
                name,
                params: Some(params),
            } => write!(f, "Function {name}({params})"),
            CodeTarget::Class { name } => write!(f, "Class {name}"),
            CodeTarget::Method {
                class,
                name,
                params: None,
            } => write!(f, "Method {class}.{name}"),
            CodeTarget::Method {
                class,
                name,
                params: Some(params),
            } => write!(f, "Method {class}.{name}({params})"),
            CodeTarget::Variable { name } => write!(f, "Variable {name}"),
        }
    }
}

fn opt<T: Display>(value: &Option<T>) -> String {
    value.as_ref().map_or_else(String::new, |v| format!(" {v}"))
}

fn opt_word(value: &Option<String>, flags: &[&str]) -> String {
    value
        .as_deref()
        .map_or_else(String::new, |v| format!(" {}", word(v, flags)))
}

/// ` From <session>`, when one is named.
fn from_session(from: &Option<String>) -> String {
    from.as_deref()
        .map_or_else(String::new, |name| format!(" From {name}"))
}

impl Display for Command {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start { name, description } => {
                write!(f, "Start {name}{}", opt(&description.as_deref().map(quote)))
            }
            Command::End { name, force } => {
                write!(f, "End{}{}", opt(name), if *force { " Force" } else { "" })
            }
            Command::ListSessions => f.write_str("List Sessions"),
            Command::ListDrafts { from } => write!(f, "List Drafts{}", from_session(from)),
            Command::ListChangesets => f.write_str("List Changesets"),
            Command::Recover { path, from } => {
                write!(f, "Recover {}{}", word(path, &["From"]), from_session(from))
            }
            Command::Summary { name } => write!(f, "Summary{}", opt(name)),
            Command::Status => f.write_str("Status"),
            Command::Set {
                option: SessionOption::ResponseFormat(format),
            } => write!(
                f,
                "Set Format {}",
                match format {
                    ResponseFormat::Terse => "terse",
                    ResponseFormat::Json => "json",
                }
            ),
            Command::Set {
                option: SessionOption::OutputLimit(limit),
            } => write!(f, "Set Limit {limit}"),
            Command::Set {
                option: SessionOption::Preview(on),
            } => write!(f, "Set Preview {}", if *on { "on" } else { "off" }),
            Command::Set {
                option: SessionOption::Progress(on),
            } => write!(f, "Set Progress {}", if *on { "on" } else { "off" }),
            Command::Set {
                option: SessionOption::Replies(detail),
            } => write!(
                f,
                "Set Replies {}",
                match detail {
                    ReplyDetail::Full => "full",
                    ReplyDetail::Brief => "brief",
                }
            ),
            Command::PushContext => f.write_str("Push Context"),
            Command::PopContext => f.write_str("Pop Context"),
            Command::Open { create, path } => write!(
                f,
                "Open{} {}",
                if *create { " Create" } else { "" },
                word(path, &["Create"])
            ),
            Command::Save { close, force, path } => write!(
                f,
                "Save{}{}{}",
                if *close { " Close" } else { "" },
                if *force { " Force" } else { "" },
                opt_word(path, &["Close", "Force", "All"])
            ),
            Command::SaveAll { force } => {
                write!(f, "Save All{}", if *force { " Force" } else { "" })
            }
            Command::Close { path } => write!(f, "Close{}", opt_word(path, &[])),
            Command::List { open_only, pattern } => write!(
                f,
                "List{}{}",
                if *open_only { " Open" } else { "" },
                opt_word(pattern, &["Open", "Sessions", "Drafts"])
            ),
            Command::Goto(target) => {
                f.write_str("Goto ")?;
                match target {
                    GotoTarget::Position(pos) => write!(f, "{pos}"),
                    GotoTarget::Line(line) => write!(f, "{line}"),
                    GotoTarget::StartOfFile => f.write_str("StartOfFile"),
                    GotoTarget::EndOfFile => f.write_str("EndOfFile"),
                    GotoTarget::StartOfLine => f.write_str("StartOfLine"),
                    GotoTarget::EndOfLine => f.write_str("EndOfLine"),
                    GotoTarget::StartOfFunction => f.write_str("StartOfFunction"),
                    GotoTarget::EndOfFunction => f.write_str("EndOfFunction"),
                    GotoTarget::StartOfClass => f.write_str("StartOfClass"),
                    GotoTarget::EndOfClass => f.write_str("EndOfClass"),
                    GotoTarget::Code(code) => write!(f, "{code}"),
                    GotoTarget::Bookmark(name) => f.write_str(name),
                }
            }
            Command::Find { direction, pattern } => {
                let direction = match direction {
                    FindDirection::Next => "",
                    FindDirection::Prev => " Prev",
                    FindDirection::All => " All",
                };
                write!(f, "Find{direction} {pattern}")
            }
            Command::FindInFiles { pattern, glob } => {
                write!(f, "Find All {pattern} In Files {}", quote(glob))
            }
            Command::FindSymbol { kind, symbol } => {
                let kind = match kind {
                    SymbolQuery::References => "References",
                    SymbolQuery::Definition => "Definition",
                    SymbolQuery::Callers => "Callers",
                };
                write!(f, "Find {kind} {symbol}")
            }
            Command::Replace {
                mode,
                pattern,
                replacement,
                scope,
            } => {
                let mode = match mode {
                    ReplaceMode::Next => "",
                    ReplaceMode::All => " All",
                    ReplaceMode::Confirm => " Confirm",
                };
                write!(f, "Replace{mode} {pattern} With {}", quote(replacement))?;
                match scope {
                    None => Ok(()),
                    Some(Scope::Code(code)) => write!(f, " In {code}"),
                    Some(Scope::Block(range)) => write!(f, " In Block {range}"),
                }
            }
            Command::ReplaceInFiles {
                pattern,
                replacement,
                glob,
                preview,
                diff,
            } => write!(
                f,
                "{}Replace All {pattern} With {} In Files {}",
                match (*preview, *diff) {
                    (true, true) => "Preview Diff ",
                    (true, false) => "Preview ",
                    (false, _) => "",
                },
                quote(replacement),
                quote(glob)
            ),
            Command::Bookmark { name, at } => write!(f, "Bookmark {name}{}", opt(at)),
            Command::Show { target, context } => {
                f.write_str("Show ")?;
                match target {
                    ShowTarget::Line(line) => write!(f, "Line {line}")?,
                    ShowTarget::Block(range) => write!(f, "Block {range}")?,
                    ShowTarget::Current => f.write_str("Current")?,
                    ShowTarget::Code(code) => write!(f, "{code}")?,
                }
                f.write_str(&opt(context))
            }
            Command::Analyze { target, kind } => {
                match target {
                    AnalyzeTarget::File => f.write_str("Analyze File")?,
                    AnalyzeTarget::Code(code) => write!(f, "Analyze {code}")?,
                }
                let kind = kind.map(|k| match k {
                    AnalysisKind::Dependencies => "Dependencies",
                    AnalysisKind::Complexity => "Complexity",
                    AnalysisKind::Structure => "Structure",
                    AnalysisKind::Issues => "Issues",
                });
                f.write_str(&opt(&kind))
            }
            Command::Validate { target } => write!(f, "Validate{}", opt(target)),
            Command::Diff { path } => write!(f, "Diff{}", opt_word(path, &[])),
            Command::Insert { kind, text } => {
                let kind = match kind {
                    InsertKind::Line => "Line",
                    InsertKind::Block => "Block",
                    InsertKind::Function => "Function",
                    InsertKind::Method => "Method",
                    InsertKind::Class => "Class",
                    InsertKind::Import => "Import",
                };
                write!(f, "Insert {kind} {}", quote(text))
            }
            Command::Delete(target) => match target {
                DeleteTarget::Lines { count } => write!(f, "Delete Line {count}"),
                DeleteTarget::Block(range) => write!(f, "Delete Block {range}"),
                DeleteTarget::Current => f.write_str("Delete Current"),
                DeleteTarget::Code(code) => write!(f, "Delete {code}"),
            },
            Command::Modify { target, change } => {
                write!(f, "Modify {target} ")?;
                match change {
                    Modification::Rename { new_name } => write!(f, "Rename {new_name}"),
                    Modification::AddParam { param, at } => write!(
                        f,
                        "AddParam {}{}",
                        quote(param),
                        at.map_or_else(String::new, |i| format!(" At {i}"))
                    ),
                    Modification::RemoveParam { name } => write!(f, "RemoveParam {name}"),
                    Modification::ChangeSignature { params } => {
                        write!(f, "ChangeSignature {}", quote(params))
                    }
                    Modification::AddDecorator { decorator } => {
                        write!(f, "AddDecorator {}", quote(decorator))
                    }
                    Modification::SetVisibility { visibility } => write!(
                        f,
                        "SetVisibility {}",
                        match visibility {
                            Visibility::Public => "public",
                            Visibility::Protected => "protected",
                            Visibility::Private => "private",
                        }
                    ),
                }
            }
            Command::Comment {
                target,
                text,
                style,
                replace,
            } => {
                let style = match (style, replace) {
                    (CommentStyle::Line, false) => "",
                    (CommentStyle::Line, true) => " Line",
                    (CommentStyle::Block, _) => " Block",
                    (CommentStyle::Docstring, _) => " Docstring",
                };
                let replace = if *replace { " Replace" } else { "" };
                write!(f, "Comment {target} {}{style}{replace}", quote(text))
            }
            Command::Format { target, style } => match (target, style) {
                // `Format <style>` would read a style spelled `File` as a target.
                (None, Some(style)) => write!(f, "Format File {style}"),
                _ => write!(f, "Format{}{}", opt(target), opt(style)),
            },
            Command::Undo { count } => write!(f, "Undo {count}"),
            Command::Redo { count } => write!(f, "Redo {count}"),
            Command::Help { topic } => write!(f, "Help{}", opt(topic)),
            Command::Refactor(refactoring) => write!(f, "Refactor {refactoring}"),
            Command::Preview { diff, refactoring } => write!(
                f,
                "Preview{} Refactor {refactoring}",
                if *diff { " Diff" } else { "" }
            ),
            Command::Apply => f.write_str("Apply"),
            Command::Discard => f.write_str("Discard"),
            Command::Script { text, .. } => f.write_str(text),
        }
    }
}

/// The words after `Refactor`: the kind's keyword, then its arguments as
/// its entry in the registry of kinds writes them.
impl Display for Refactoring {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let kind = self.kind();
        write!(f, "{} ", kind.keyword)?;
        kind.print(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_words() {
        assert_eq!(quote("a \"b\"\n\t\\"), r#""a \"b\"\n\t\\""#);
        assert_eq!(word("src/x.py", &[]), "src/x.py");
        assert_eq!(word("my notes.txt", &[]), "\"my notes.txt\"");
        assert_eq!(word("create", &["Create"]), "\"create\"");
        assert_eq!(word("", &[]), "\"\"");
        assert_eq!(regex("a/b"), r"/a\/b/");
    }
}
