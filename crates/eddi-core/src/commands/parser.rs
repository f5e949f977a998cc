//! The parser: a message to [`Statement`]s, each a [`Command`] or a
//! [`ParseError`] naming what to fix.
//!
//! Recursive descent over the tokens of one command at a time; never panics
//! (a proptest in `tests/engine/lang_parser.rs` feeds it arbitrary text).
//!
//! Message rules:
//! - Commands are separated by newlines or `;` outside strings, regexes and
//!   parameter lists. A string may span lines, so a command may too.
//! - Blank commands (empty lines, `;;`) and comments (`#` where a command
//!   starts, to the end of that line) produce no statement.
//! - Keywords and command names are case-insensitive; names, paths and
//!   text keep their case.
//! - A statement whose tokens hold a lexical error (bad escape, unterminated
//!   string) fails with that error; the ones before it still parse.
//!
//! Known limits: a bookmark named like a Goto keyword or a file named like
//! an Open/Save flag must be avoided or quoted (`Open "Create"`); a word
//! after `Open` that is not `Create` is a path, so `Open Crate x.py` opens
//! `Crate/x.py`.

use super::command::*;
use super::error::{excerpt, ParseError, Span};
use super::help::{self, CommandSpec};
use super::lexer::{tokenize, Token, TokenKind};
use crate::edit::{LineRange, Position};
use crate::refactor::kinds;

type Result<T> = std::result::Result<T, ParseError>;

/// One command of a message, in message order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The command's source text, trimmed (for the reply's list of what ran).
    /// It may hold raw newlines from inside a string: escape it with
    /// [`super::quote_for_reply`] before echoing it in a reply.
    pub text: String,
    /// Char offsets of `text` in the message.
    pub span: Span,
    /// The command, or why it could not be parsed.
    pub parsed: Result<Command>,
}

/// Splits a message into its commands and parses each. An empty or
/// comment-only message gives no statements.
pub fn parse_message(text: &str) -> Vec<Statement> {
    let tokens = tokenize(text);
    tokens
        .split(Token::is_separator)
        .filter_map(|group| {
            let (first, last) = (group.first()?, group.last()?);
            Some(Statement {
                text: text
                    .get(first.bytes.0..last.bytes.1)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
                span: first.span.join(last.span),
                parsed: parse_tokens(text, group),
            })
        })
        .collect()
}

/// Parses exactly one command; an empty text or a second command is an error.
pub fn parse_command(text: &str) -> Result<Command> {
    let tokens = tokenize(text);
    let mut groups = tokens
        .split(Token::is_separator)
        .filter(|group| !group.is_empty());
    let Some(first) = groups.next() else {
        return Err(ParseError::new(
            "Empty command; Help lists the commands",
            Span::at(0),
        ));
    };
    if let Some(second) = groups.next() {
        return Err(ParseError::new(
            format!(
                "Expected one command, found a second: '{}'",
                excerpt(text.get(second[0].bytes.0..).unwrap_or_default())
            ),
            second[0].span,
        ));
    }
    parse_tokens(text, first)
}

/// Parses the tokens of one command (no separators, at least one token).
fn parse_tokens(source: &str, tokens: &[Token]) -> Result<Command> {
    if let Some(err) = tokens.iter().find_map(|t| match &t.kind {
        TokenKind::Error(e) => Some(e.clone()),
        _ => None,
    }) {
        return Err(err);
    }
    let Some(head) = tokens.first() else {
        return Err(ParseError::new(
            "Empty command; Help lists the commands",
            Span::at(0),
        ));
    };
    let Some(word) = head.word() else {
        return Err(ParseError::new(
            format!(
                "Expected a command name, found '{}'; Help lists the commands",
                excerpt(token_text(source, head))
            ),
            head.span,
        ));
    };
    let Some(spec) = help::lookup(word) else {
        return Err(help::unknown_command(word, head.span));
    };
    let mut p = Parser {
        source,
        tokens,
        pos: 1,
        spec,
    };
    let command = p.command()?;
    p.finish()?;
    Ok(command)
}

fn token_text<'s>(source: &'s str, token: &Token) -> &'s str {
    source.get(token.bytes.0..token.bytes.1).unwrap_or_default()
}

/// The keywords `Goto` knows; any other name is a bookmark. The engine can
/// suggest from these when a bookmark is not found (`help::suggest`).
pub const GOTO_KEYWORDS: &[&str] = &[
    "StartOfFile",
    "EndOfFile",
    "StartOfLine",
    "EndOfLine",
    "StartOfFunction",
    "EndOfFunction",
    "StartOfClass",
    "EndOfClass",
    "Function",
    "Class",
    "Method",
    "Variable",
];
const CODE_KINDS: &[&str] = &["Function", "Class", "Method", "Variable"];
const REPLACE_SCOPES: &[&str] = &["Function", "Method", "Class", "Variable", "Block", "Files"];
const SHOW_TARGETS: &[&str] = &[
    "Line", "Block", "Current", "Function", "Class", "Method", "Variable",
];
const ANALYZE_TARGETS: &[&str] = &["File", "Function", "Class", "Method"];
const ANALYSIS_KINDS: &[&str] = &["Dependencies", "Complexity", "Structure", "Issues"];
const FILE_OR_CODE: &[&str] = &["File", "Function", "Class", "Method", "Variable"];
const INSERT_KINDS: &[&str] = &["Line", "Block", "Function", "Method", "Class", "Import"];
const DELETE_TARGETS: &[&str] = &["Line", "Block", "Current", "Function", "Method", "Class"];
const MODIFY_CHANGES: &[&str] = &[
    "Rename",
    "AddParam",
    "RemoveParam",
    "ChangeSignature",
    "AddDecorator",
    "SetVisibility",
];
const VISIBILITIES: &[&str] = &["public", "protected", "private"];
const COMMENT_STYLES: &[&str] = &["Line", "Block", "Docstring", "Replace"];
const SET_OPTIONS: &[&str] = &["Format", "Limit", "Replies", "Preview", "Progress"];
const ON_OFF: &[&str] = &["on", "off"];
const FORMATS: &[&str] = &["terse", "json"];
const REPLY_DETAILS: &[&str] = &["brief", "full"];

struct Parser<'t> {
    source: &'t str,
    tokens: &'t [Token],
    pos: usize,
    spec: &'static CommandSpec,
}

impl<'t> Parser<'t> {
    // -- token access ------------------------------------------------------

    fn peek(&self) -> Option<&'t Token> {
        self.tokens.get(self.pos)
    }

    /// Where a missing argument would go: the end of the last token.
    fn end_span(&self) -> Span {
        Span::at(self.tokens.last().map_or(0, |t| t.span.end))
    }

    fn here(&self) -> Span {
        self.peek().map_or_else(|| self.end_span(), |t| t.span)
    }

    fn shown(&self, token: &Token) -> String {
        excerpt(token_text(self.source, token))
    }

    /// Eats the keyword `kw` (case-insensitive) if it is next.
    fn eat(&mut self, kw: &str) -> bool {
        match self.peek().and_then(Token::word) {
            Some(w) if w.eq_ignore_ascii_case(kw) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    /// Eats one of `kws` if next; returns its canonical spelling.
    fn eat_one_of(&mut self, kws: &[&'static str]) -> Option<&'static str> {
        let w = self.peek().and_then(Token::word)?;
        let kw = kws.iter().find(|k| k.eq_ignore_ascii_case(w))?;
        self.pos += 1;
        Some(kw)
    }

    // -- errors --------------------------------------------------------------

    fn with_usage(&self, message: String, span: Span) -> ParseError {
        ParseError::new(format!("{message}. Usage: {}", self.spec.usage), span)
    }

    fn missing(&self, what: &str) -> ParseError {
        self.with_usage(format!("Missing {what}"), self.end_span())
    }

    /// `Missing <what>` at the end, or `Expected <what>, found '<x>'`.
    fn expected(&self, what: &str) -> ParseError {
        match self.peek() {
            None => self.missing(what),
            Some(t) => self.with_usage(
                format!("Expected {what}, found '{}'", self.shown(t)),
                t.span,
            ),
        }
    }

    /// A keyword out of `valid` is required next.
    fn keyword(&mut self, label: &str, valid: &[&'static str]) -> Result<&'static str> {
        if let Some(kw) = self.eat_one_of(valid) {
            return Ok(kw);
        }
        match self.peek() {
            Some(t) if t.word().is_some() => {
                let w = t.word().unwrap_or_default();
                let close = help::suggest(w, valid);
                let hint = if close.is_empty() {
                    String::new()
                } else {
                    format!(" Did you mean: {}?", close.join(", "))
                };
                Err(ParseError::new(
                    format!(
                        "Unknown {label} '{}'.{hint} Valid: {}",
                        excerpt(w),
                        valid.join(", ")
                    ),
                    t.span,
                )
                .with_candidates(help::closest_first(&close, valid)))
            }
            _ => Err(self.expected(&format!("{label} ({})", valid.join(", ")))),
        }
    }

    /// Rejects leftover tokens.
    fn finish(&self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(t) => {
                let after_regex = self
                    .pos
                    .checked_sub(1)
                    .and_then(|i| self.tokens.get(i))
                    .is_some_and(|p| matches!(p.kind, TokenKind::Regex(_)));
                let takes_text = matches!(
                    self.spec.name,
                    "Find" | "Replace" | "Open" | "Save" | "Close" | "List" | "Diff" | "Start"
                );
                let hint = match &t.kind {
                    TokenKind::Word(w) if w.starts_with('#') => {
                        " (a # comment must start the command)"
                    }
                    TokenKind::Word(_) if t.glued && after_regex => {
                        " (regex flags go inside the regex, as /(?i)text/)"
                    }
                    TokenKind::Params(_) if !t.glued => {
                        " (write parameters right after the name, as f(a, b))"
                    }
                    TokenKind::Word(_) if takes_text => " (quote text that has spaces)",
                    _ => "",
                };
                Err(self.with_usage(format!("Unexpected '{}'{hint}", self.shown(t)), t.span))
            }
        }
    }

    // -- values --------------------------------------------------------------

    fn number(&self, text: &str, span: Span) -> Result<usize> {
        text.parse::<usize>().map_err(|_| {
            ParseError::new(
                format!(
                    "Number '{}' is too large (max {})",
                    excerpt(text),
                    usize::MAX
                ),
                span,
            )
        })
    }

    /// An optional number; `min` is the least allowed value.
    fn opt_number(&mut self, what: &str, min: usize) -> Result<Option<usize>> {
        let Some(t) = self.peek() else {
            return Ok(None);
        };
        let TokenKind::Number(text) = &t.kind else {
            return Ok(None);
        };
        let n = self.number(text, t.span)?;
        if n < min {
            return Err(
                self.with_usage(format!("{what} must be at least {min}, found {n}"), t.span)
            );
        }
        self.pos += 1;
        Ok(Some(n))
    }

    /// A required number: `what` names it when missing (`a line number`),
    /// `label` when below `min` (`Line`).
    fn required_number(&mut self, what: &str, label: &str, min: usize) -> Result<usize> {
        match self.opt_number(label, min)? {
            Some(n) => Ok(n),
            None => Err(self.expected(what)),
        }
    }

    fn pair(&mut self) -> Result<Option<(usize, usize, Span)>> {
        let Some(t) = self.peek() else {
            return Ok(None);
        };
        let TokenKind::Pair(a, b) = &t.kind else {
            return Ok(None);
        };
        let (a, b) = (self.number(a, t.span)?, self.number(b, t.span)?);
        self.pos += 1;
        Ok(Some((a, b, t.span)))
    }

    fn position(&mut self) -> Result<Option<Position>> {
        Ok(self.pair()?.map(|(line, col, _)| Position::new(line, col)))
    }

    fn line_range(&mut self) -> Result<LineRange> {
        match self.pair()? {
            Some((first, last, span)) if first > last => {
                Err(self.with_usage(format!("Block start {first} is after its end {last}"), span))
            }
            Some((first, last, _)) => Ok(LineRange::new(first, last)),
            None => Err(self.expected("a line range like 3:9")),
        }
    }

    /// A quoted string.
    fn string(&mut self, what: &str) -> Result<String> {
        match self.peek().map(|t| &t.kind) {
            Some(TokenKind::Str(s)) => {
                self.pos += 1;
                Ok(s.clone())
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A quoted string or a bare word (or number) taken literally.
    fn text_or_word(&mut self, what: &str) -> Result<String> {
        let value = match self.peek().map(|t| &t.kind) {
            Some(TokenKind::Str(s) | TokenKind::Word(s) | TokenKind::Number(s)) => s.clone(),
            _ => return Err(self.expected(what)),
        };
        self.pos += 1;
        Ok(value)
    }

    /// A path, glob or name: a word, number, pair or quoted string.
    fn opt_path(&mut self) -> Option<(String, Span)> {
        let t = self.peek()?;
        let value = match &t.kind {
            TokenKind::Word(s) | TokenKind::Number(s) | TokenKind::Str(s) => s.clone(),
            TokenKind::Pair(..) => token_text(self.source, t).to_string(),
            _ => return None,
        };
        self.pos += 1;
        Some((value, t.span))
    }

    fn opt_file(&mut self) -> Result<Option<String>> {
        match self.opt_path() {
            None => Ok(None),
            Some((path, _)) if path.is_empty() => {
                Err(self.missing("file name (the quotes are empty)"))
            }
            Some((path, _)) => Ok(Some(path)),
        }
    }

    /// A session or bookmark name, `[A-Za-z0-9_.-]{1,64}`.
    fn name(&mut self, what: &str) -> Result<(String, Span)> {
        let Some(t) = self.peek() else {
            return Err(self.missing(what));
        };
        let raw = match &t.kind {
            TokenKind::Word(s) | TokenKind::Number(s) | TokenKind::Str(s) => s.clone(),
            _ => token_text(self.source, t).to_string(),
        };
        if !is_valid_name(&raw) {
            return Err(ParseError::new(
                format!(
                    "Invalid {what} '{}': use 1-64 of A-Z a-z 0-9 _ . -",
                    excerpt(&raw)
                ),
                t.span,
            ));
        }
        self.pos += 1;
        Ok((raw, t.span))
    }

    /// `From <session>`, if it follows.
    fn opt_from_session(&mut self) -> Result<Option<String>> {
        if !self.eat("From") {
            return Ok(None);
        }
        Ok(Some(self.name("session name")?.0))
    }

    fn opt_session_name(&mut self) -> Result<Option<String>> {
        if self.peek().is_none() {
            return Ok(None);
        }
        Ok(Some(self.name("session name")?.0))
    }

    /// An identifier, optionally dotted (`pkg.mod.Class`).
    fn ident(&mut self, what: &str, dotted: bool) -> Result<String> {
        match self.peek().and_then(Token::word) {
            Some(w) if (dotted && is_dotted(w)) || is_ident(w) => {
                self.pos += 1;
                Ok(w.to_string())
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A name for code of any language Eddi reads (`$el` is
    /// JavaScript's); whether the file's language takes it is the
    /// command's to check.
    fn code_name(&mut self, what: &str) -> Result<String> {
        match self.peek().and_then(Token::word) {
            Some(w) if is_code_name(w) => {
                self.pos += 1;
                Ok(w.to_string())
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A glued `(...)` after a name.
    fn glued_params(&mut self) -> Option<String> {
        match self.peek() {
            Some(Token {
                kind: TokenKind::Params(p),
                glued: true,
                ..
            }) => {
                self.pos += 1;
                Some(p.clone())
            }
            _ => None,
        }
    }

    /// A code element's name: dotted, with an optional `#<n>` (the n-th of
    /// the same-named definitions: `Function f#2`).
    fn target_name(&mut self, what: &str) -> Result<String> {
        match self.peek().and_then(Token::word).map(dotted) {
            Some(w) if is_target_name(&w) => {
                self.pos += 1;
                Ok(w)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// The name after a code-kind keyword (`Function`, `Class`, `Method`,
    /// `Variable`, canonical spelling).
    fn code_target(&mut self, kind: &str) -> Result<CodeTarget> {
        match kind {
            "Function" => {
                let name = self.target_name("a function name")?;
                let params = self.glued_params();
                Ok(CodeTarget::Function { name, params })
            }
            "Class" => {
                let name = self.target_name("a class name")?;
                self.no_params("Class", &name)?;
                Ok(CodeTarget::Class { name })
            }
            "Method" => {
                // (`Data#2.len`: a method of a type declared twice, by the
                // form the structure prints the type in)
                let (class, name) = match self.peek().and_then(Token::word).map(dotted) {
                    Some(w) => match w.rsplit_once('.') {
                        Some((c, m)) if is_target_name(c) && is_target_name(m) => {
                            (c.to_string(), m.to_string())
                        }
                        _ => return Err(self.expected("a method as Class.method")),
                    },
                    _ => return Err(self.expected("a method as Class.method")),
                };
                self.pos += 1;
                let params = self.glued_params();
                Ok(CodeTarget::Method {
                    class,
                    name,
                    params,
                })
            }
            _ => {
                let name = self.target_name("a variable name")?;
                self.no_params("Variable", &name)?;
                Ok(CodeTarget::Variable { name })
            }
        }
    }

    /// Classes and variables take no `(…)`; same-named ones are `Name#2`.
    fn no_params(&mut self, kind: &str, name: &str) -> Result<()> {
        let span = self.here();
        match self.glued_params() {
            Some(_) => Err(self.with_usage(
                format!(
                    "{kind} takes no parameters: write {kind} {name} (the second of that name: {kind} {name}#2)"
                ),
                span,
            )),
            None => Ok(()),
        }
    }

    fn pattern(&mut self) -> Result<Pattern> {
        let what = "a search text \"<text>\" or /<regex>/";
        let Some(t) = self.peek() else {
            return Err(self.missing(what));
        };
        let pattern = match &t.kind {
            TokenKind::Str(s) if s.is_empty() => {
                return Err(self.with_usage("Empty search text".into(), t.span))
            }
            TokenKind::Str(s) | TokenKind::Word(s) | TokenKind::Number(s) => {
                Pattern::Text(s.clone())
            }
            TokenKind::Pair(..) => Pattern::Text(token_text(self.source, t).to_string()),
            TokenKind::Regex(r) if r.is_empty() => {
                return Err(self.with_usage("Empty regex".into(), t.span))
            }
            TokenKind::Regex(r) => {
                if let Err(e) = regex::Regex::new(r) {
                    return Err(ParseError::new(
                        format!("Invalid regex /{}/: {}", excerpt(r), regex_reason(&e)),
                        t.span,
                    ));
                }
                Pattern::Regex(r.clone())
            }
            _ => return Err(self.expected(what)),
        };
        self.pos += 1;
        Ok(pattern)
    }

    // -- commands ------------------------------------------------------------

    fn command(&mut self) -> Result<Command> {
        match self.spec.name {
            "Start" => {
                let (name, _) = self.name("session name")?;
                let description = match self.peek() {
                    None => None,
                    Some(_) => Some(self.string("a quoted description \"...\"")?),
                };
                Ok(Command::Start { name, description })
            }
            "End" => {
                let name = match self.peek().and_then(Token::word) {
                    Some("Force") => None,
                    _ => self.opt_session_name()?,
                };
                let force = self.eat("Force");
                Ok(Command::End { name, force })
            }
            "Recover" => {
                let Some(path) = self.opt_file()? else {
                    return Err(self.missing("the file whose draft to recover"));
                };
                let from = self.opt_from_session()?;
                Ok(Command::Recover { path, from })
            }
            "Summary" => Ok(Command::Summary {
                name: self.opt_session_name()?,
            }),
            "Status" => Ok(Command::Status),
            "Set" => self.set(),
            "Push" | "Pop" => {
                if !self.eat("Context") {
                    return Err(self.expected("'Context'"));
                }
                Ok(if self.spec.name == "Push" {
                    Command::PushContext
                } else {
                    Command::PopContext
                })
            }
            "Open" => self.open(),
            "Save" => {
                if self.eat("All") {
                    let force = self.eat("Force");
                    return Ok(Command::SaveAll { force });
                }
                let (mut close, mut force) = (false, false);
                loop {
                    if self.eat("Close") {
                        close = true;
                    } else if self.eat("Force") {
                        force = true;
                    } else {
                        break;
                    }
                }
                let path = self.opt_file()?;
                Ok(Command::Save { close, force, path })
            }
            "Close" => Ok(Command::Close {
                path: self.opt_file()?,
            }),
            "List" => {
                if self.eat("Sessions") {
                    return Ok(Command::ListSessions);
                }
                if self.eat("Changesets") {
                    return Ok(Command::ListChangesets);
                }
                if self.eat("Drafts") {
                    let from = self.opt_from_session()?;
                    return Ok(Command::ListDrafts { from });
                }
                let open_only = self.eat("Open");
                let pattern = self.opt_path().map(|(p, _)| p).filter(|p| !p.is_empty());
                Ok(Command::List { open_only, pattern })
            }
            "Goto" => self.goto(),
            "Find" => {
                if let Some(kind) = self.eat_one_of(&["References", "Definition", "Callers"]) {
                    let kind = match kind {
                        "References" => SymbolQuery::References,
                        "Definition" => SymbolQuery::Definition,
                        _ => SymbolQuery::Callers,
                    };
                    let symbol =
                        self.target_name("a symbol like name, Class.method or pkg.mod.func")?;
                    // Names Eddi prints may carry `(params)`: the index
                    // takes same-named definitions as one symbol, and a
                    // Java overload's callers by the parameters' number.
                    let symbol = match self.glued_params() {
                        Some(params) if !params.trim().is_empty() => format!("{symbol}({params})"),
                        _ => symbol,
                    };
                    return Ok(Command::FindSymbol { kind, symbol });
                }
                let direction = match self.eat_one_of(&["Next", "Prev", "All"]) {
                    Some("Prev") => FindDirection::Prev,
                    Some("All") => FindDirection::All,
                    _ => FindDirection::Next,
                };
                let pattern = self.pattern()?;
                if self.eat("In") {
                    return self.in_files(direction, pattern);
                }
                Ok(Command::Find { direction, pattern })
            }
            "Replace" => self.replace(),
            "Bookmark" => {
                let (name, span) = self.name("bookmark name")?;
                check_bookmark_name(&name, span)?;
                let at = self.position()?;
                Ok(Command::Bookmark { name, at })
            }
            "Show" => self.show(),
            "Analyze" => {
                let target = match self.keyword("Analyze target", ANALYZE_TARGETS)? {
                    "File" => AnalyzeTarget::File,
                    kind => AnalyzeTarget::Code(self.code_target(kind)?),
                };
                let kind = match self.peek() {
                    None => None,
                    Some(_) => Some(match self.keyword("analysis kind", ANALYSIS_KINDS)? {
                        "Dependencies" => AnalysisKind::Dependencies,
                        "Complexity" => AnalysisKind::Complexity,
                        "Structure" => AnalysisKind::Structure,
                        _ => AnalysisKind::Issues,
                    }),
                };
                Ok(Command::Analyze { target, kind })
            }
            "Validate" => {
                let target = match self.peek() {
                    None => None,
                    Some(_) => self.file_or_code("Validate target")?,
                };
                Ok(Command::Validate { target })
            }
            "Diff" => Ok(Command::Diff {
                path: self.opt_file()?,
            }),
            "Insert" => self.insert(),
            "Delete" => self.delete(),
            "Modify" => self.modify(),
            "Comment" => {
                let kind = self.keyword("Comment target", CODE_KINDS)?;
                let target = self.code_target(kind)?;
                let text = self.string("a quoted comment \"<text>\"")?;
                if text.trim().is_empty() {
                    return Err(self.with_usage("Empty comment".into(), self.here()));
                }
                // `Replace` may follow the style or stand for `Line Replace`
                let (mut style, mut replace) = (CommentStyle::Line, false);
                if self.peek().is_some() {
                    match self.keyword("comment style", COMMENT_STYLES)? {
                        "Replace" => replace = true,
                        "Block" => style = CommentStyle::Block,
                        "Docstring" => style = CommentStyle::Docstring,
                        _ => {}
                    }
                    replace = replace || self.eat("Replace");
                }
                Ok(Command::Comment {
                    target,
                    text,
                    style,
                    replace,
                })
            }
            "Format" => {
                let is_target = self
                    .peek()
                    .and_then(Token::word)
                    .is_some_and(|w| FILE_OR_CODE.iter().any(|k| k.eq_ignore_ascii_case(w)));
                let target = if is_target {
                    self.file_or_code("Format target")?
                } else {
                    None
                };
                // a formatter's name, or a line length (`Format 100`)
                let style = match self.opt_number("a line length", 1)? {
                    Some(length) => Some(length.to_string()),
                    None if self.peek().is_none() => None,
                    None => Some(self.ident("a style name or a line length", false)?),
                };
                Ok(Command::Format { target, style })
            }
            "Refactor" => Ok(Command::Refactor(self.refactoring()?)),
            "Preview" => {
                let diff = self.eat("Diff");
                if self.eat("Replace") {
                    return match self.replace()? {
                        Command::ReplaceInFiles {
                            pattern,
                            replacement,
                            glob,
                            ..
                        } => Ok(Command::ReplaceInFiles {
                            pattern,
                            replacement,
                            glob,
                            preview: true,
                            diff,
                        }),
                        _ => Err(self.with_usage(
                            "Preview Replace previews a workspace replacement: Preview Replace All \"<text>\" With \"<text>\" In Files \"<glob>\"".into(),
                            self.end_span(),
                        )),
                    };
                }
                if !self.eat("Refactor") {
                    return Err(self.expected(
                        "'Refactor' or 'Replace' (Preview [Diff] Refactor <kind> …, Preview [Diff] Replace All … In Files \"<glob>\")",
                    ));
                }
                let refactoring = self.refactoring()?;
                Ok(Command::Preview { diff, refactoring })
            }
            "Apply" => Ok(Command::Apply),
            "Discard" => Ok(Command::Discard),
            "Undo" => Ok(Command::Undo {
                count: self.opt_number("Count", 1)?.unwrap_or(1),
            }),
            "Redo" => Ok(Command::Redo {
                count: self.opt_number("Count", 1)?.unwrap_or(1),
            }),
            _ => self.help(),
        }
    }

    /// The words after `Refactor`: a kind (case and underscores free:
    /// `Rename_Class`, `renameclass`), found in the registry of kinds,
    /// which reads its own arguments.
    fn refactoring(&mut self) -> Result<Refactoring> {
        let keywords = kinds::keywords();
        let Some(token) = self.peek() else {
            return Err(self.missing(&format!("refactoring ({})", keywords.join(", "))));
        };
        let Some(word) = token.word() else {
            return Err(self.expected(&format!("a refactoring ({})", keywords.join(", "))));
        };
        let Some(kind) = kinds::lookup(word) else {
            let squashed = kinds::squash(word);
            if let Some(later) = kinds::LATER.iter().find(|k| kinds::squash(k) == squashed) {
                return Err(ParseError::new(
                    format!(
                        "Refactor {later} is not available yet. Available: {}",
                        keywords.join(", ")
                    ),
                    token.span,
                ));
            }
            let close = help::suggest(word, &keywords);
            let hint = if close.is_empty() {
                String::new()
            } else {
                format!(" Did you mean: {}?", close.join(", "))
            };
            return Err(ParseError::new(
                format!(
                    "Unknown refactoring '{}'.{hint} Valid: {}",
                    excerpt(word),
                    keywords.join(", ")
                ),
                token.span,
            ));
        };
        self.pos += 1;
        kind.parse(self)
    }

    /// The `In Files "<glob>"` suffix of `Find All` (`In` already eaten).
    fn in_files(&mut self, direction: FindDirection, pattern: Pattern) -> Result<Command> {
        if direction != FindDirection::All {
            return Err(self.with_usage(
                "'In Files' searches every match: write Find All \"<text>\" In Files \"<glob>\""
                    .into(),
                self.here(),
            ));
        }
        if !self.eat("Files") {
            return Err(self.expected("'Files' (Find All \"<text>\" In Files \"<glob>\")"));
        }
        let glob = self.files_glob()?;
        Ok(Command::FindInFiles { pattern, glob })
    }

    /// The `"<glob>"` of `… In Files "<glob>"`.
    fn files_glob(&mut self) -> Result<String> {
        match self.opt_path() {
            None => Err(self.expected("a glob like \"*.py\" or \"src/**/*.py\"")),
            Some((glob, span)) if glob.trim().is_empty() => {
                Err(self.with_usage("Empty glob: use \"*\" for every file".into(), span))
            }
            Some((glob, _)) => Ok(glob),
        }
    }

    fn set(&mut self) -> Result<Command> {
        let option = match self.keyword("Set option", SET_OPTIONS)? {
            "Format" => SessionOption::ResponseFormat(match self.keyword("format", FORMATS)? {
                "json" => ResponseFormat::Json,
                _ => ResponseFormat::Terse,
            }),
            "Preview" => SessionOption::Preview(self.keyword("preview mode", ON_OFF)? == "on"),
            "Progress" => SessionOption::Progress(self.keyword("progress", ON_OFF)? == "on"),
            "Replies" => {
                SessionOption::Replies(match self.keyword("reply detail", REPLY_DETAILS)? {
                    "brief" => ReplyDetail::Brief,
                    _ => ReplyDetail::Full,
                })
            }
            _ => {
                SessionOption::OutputLimit(self.required_number("a limit in chars", "Limit", 1)?)
            }
        };
        Ok(Command::Set { option })
    }

    /// `Open [Create] [<dir>/] <file>`: one path word, or a directory word
    /// and a file word joined with `/`.
    fn open(&mut self) -> Result<Command> {
        let create = self.eat("Create");
        let Some((first, first_span)) = self.opt_path() else {
            return Err(self.expected("file name"));
        };
        let path = match self.opt_path() {
            None => {
                if first.is_empty() {
                    return Err(self.missing("file name (the quotes are empty)"));
                }
                if first.ends_with('/') {
                    return Err(self.with_usage(
                        format!("Missing file name after directory '{}'", excerpt(&first)),
                        first_span,
                    ));
                }
                first
            }
            Some((file, file_span)) => {
                if file.is_empty() || file.starts_with('/') || file.ends_with('/') {
                    return Err(self.with_usage(
                        format!(
                            "Expected a file name in directory '{}', found '{}'",
                            excerpt(&first),
                            excerpt(&file)
                        ),
                        file_span,
                    ));
                }
                let dir = first.trim_end_matches('/');
                if dir.is_empty() {
                    format!("/{file}")
                } else {
                    format!("{dir}/{file}")
                }
            }
        };
        Ok(Command::Open { create, path })
    }

    fn goto(&mut self) -> Result<Command> {
        let what = "a position like 12:4 or a target (StartOfFile, EndOfFile, …)";
        let Some(t) = self.peek() else {
            return Err(
                self.missing("target: a position like 12:4, a line, a keyword or a bookmark")
            );
        };
        if let Some(pos) = self.position()? {
            return Ok(Command::Goto(GotoTarget::Position(pos)));
        }
        if let TokenKind::Number(n) = &t.kind {
            let line = self.number(n, t.span)?;
            self.pos += 1;
            return Ok(Command::Goto(GotoTarget::Line(line)));
        }
        let Some(word) = t.word() else {
            return Err(self.expected(what));
        };
        if let Some(kw) = self.eat_one_of(GOTO_KEYWORDS) {
            let target = match kw {
                "StartOfFile" => GotoTarget::StartOfFile,
                "EndOfFile" => GotoTarget::EndOfFile,
                "StartOfLine" => GotoTarget::StartOfLine,
                "EndOfLine" => GotoTarget::EndOfLine,
                "StartOfFunction" => GotoTarget::StartOfFunction,
                "EndOfFunction" => GotoTarget::EndOfFunction,
                "StartOfClass" => GotoTarget::StartOfClass,
                "EndOfClass" => GotoTarget::EndOfClass,
                kind => GotoTarget::Code(self.code_target(kind)?),
            };
            return Ok(Command::Goto(target));
        }
        if is_valid_name(word) {
            self.pos += 1;
            return Ok(Command::Goto(GotoTarget::Bookmark(word.to_string())));
        }
        Err(self.expected(what))
    }

    fn replace(&mut self) -> Result<Command> {
        let mode = match self.eat_one_of(&["All", "Confirm"]) {
            Some("All") => ReplaceMode::All,
            Some(_) => ReplaceMode::Confirm,
            None => ReplaceMode::Next,
        };
        let pattern = self.pattern()?;
        if !self.eat("With") {
            return Err(self.expected("'With \"<text>\"'"));
        }
        let span = self.here();
        let replacement = self.text_or_word("the replacement \"<text>\"")?;
        if let Pattern::Regex(source) = &pattern {
            // `$costs` would expand to nothing: refuse before anything runs.
            if let Ok(regex) = regex::Regex::new(source) {
                if let Err(message) = super::replacement::Template::new(&replacement, &regex) {
                    return Err(ParseError::new(message, span));
                }
            }
        }
        if pattern == Pattern::Text(replacement.clone()) {
            return Err(self.with_usage(
                "Replacement equals the search text; nothing would change".into(),
                self.end_span(),
            ));
        }
        let scoped = self.eat("In");
        if scoped && self.eat("Files") {
            if mode != ReplaceMode::All {
                return Err(self.with_usage(
                    "'In Files' replaces every match: write Replace All \"<text>\" With \"<text>\" In Files \"<glob>\"".into(),
                    self.here(),
                ));
            }
            let glob = self.files_glob()?;
            return Ok(Command::ReplaceInFiles {
                pattern,
                replacement,
                glob,
                preview: false,
                diff: false,
            });
        }
        let scope = if scoped {
            Some(match self.keyword("Replace scope", REPLACE_SCOPES)? {
                "Block" => Scope::Block(self.line_range()?),
                kind => Scope::Code(self.code_target(kind)?),
            })
        } else {
            None
        };
        Ok(Command::Replace {
            mode,
            pattern,
            replacement,
            scope,
        })
    }

    fn show(&mut self) -> Result<Command> {
        let target = match self.keyword("Show target", SHOW_TARGETS)? {
            "Line" => ShowTarget::Line(self.required_number("a line number", "Line", 0)?),
            "Block" => ShowTarget::Block(self.line_range()?),
            "Current" => ShowTarget::Current,
            kind => ShowTarget::Code(self.code_target(kind)?),
        };
        let context = self.opt_number("Context lines", 0)?;
        Ok(Command::Show { target, context })
    }

    /// `File` (meaning the whole current file: `None`) or a code target.
    fn file_or_code(&mut self, label: &str) -> Result<Option<CodeTarget>> {
        match self.keyword(label, FILE_OR_CODE)? {
            "File" => Ok(None),
            kind => Ok(Some(self.code_target(kind)?)),
        }
    }

    fn insert(&mut self) -> Result<Command> {
        let kind = match self.keyword("Insert kind", INSERT_KINDS)? {
            "Line" => InsertKind::Line,
            "Block" => InsertKind::Block,
            "Function" => InsertKind::Function,
            "Method" => InsertKind::Method,
            "Class" => InsertKind::Class,
            _ => InsertKind::Import,
        };
        let span = self.here();
        let mut text = self.string("the text to insert in quotes \"...\"")?;
        if kind == InsertKind::Line {
            // The engine adds the line terminator; one written out is dropped.
            if text.ends_with('\n') {
                text.pop();
                if text.ends_with('\r') {
                    text.pop();
                }
            }
            if text.contains('\n') {
                return Err(self.with_usage(
                    "Insert Line takes one line; use Insert Block for several".into(),
                    span,
                ));
            }
        } else if text.is_empty() {
            return Err(self.with_usage("Nothing to insert: the text is empty".into(), span));
        }
        Ok(Command::Insert { kind, text })
    }

    fn delete(&mut self) -> Result<Command> {
        let target = match self.keyword("Delete target", DELETE_TARGETS)? {
            "Line" => DeleteTarget::Lines {
                count: self.opt_number("Count", 1)?.unwrap_or(1),
            },
            "Block" => DeleteTarget::Block(self.line_range()?),
            "Current" => DeleteTarget::Current,
            kind => DeleteTarget::Code(self.code_target(kind)?),
        };
        Ok(Command::Delete(target))
    }

    fn modify(&mut self) -> Result<Command> {
        let kind = self.keyword("Modify target", CODE_KINDS)?;
        let target = self.code_target(kind)?;
        let change = match self.keyword("Modify change", MODIFY_CHANGES)? {
            "Rename" => Modification::Rename {
                new_name: self.code_name("a new name")?,
            },
            "AddParam" => {
                let span = self.here();
                let param = self.text_or_word("a parameter \"<param>\"")?;
                if param.trim().is_empty() {
                    return Err(self.with_usage("Empty parameter".into(), span));
                }
                let at = if self.eat("At") {
                    Some(self.required_number("an index", "Index", 0)?)
                } else {
                    None
                };
                Modification::AddParam { param, at }
            }
            "RemoveParam" => Modification::RemoveParam {
                name: self.code_name("a parameter name")?,
            },
            "ChangeSignature" => {
                let params = match self.peek().map(|t| &t.kind) {
                    Some(TokenKind::Params(p)) => {
                        let p = p.clone();
                        self.pos += 1;
                        p
                    }
                    _ => self.string("the new parameters \"<params>\"")?,
                };
                Modification::ChangeSignature { params }
            }
            "AddDecorator" => {
                let span = self.here();
                let decorator = self.text_or_word("a decorator \"@<name>\"")?;
                if decorator.trim().is_empty() {
                    return Err(self.with_usage("Empty decorator".into(), span));
                }
                if let Some(p) = self.glued_params() {
                    // `AddDecorator @retry(3)` written without quotes.
                    Modification::AddDecorator {
                        decorator: format!("{decorator}({p})"),
                    }
                } else {
                    Modification::AddDecorator { decorator }
                }
            }
            _ => Modification::SetVisibility {
                visibility: match self.keyword("visibility", VISIBILITIES)? {
                    "public" => Visibility::Public,
                    "protected" => Visibility::Protected,
                    _ => Visibility::Private,
                },
            },
        };
        Ok(Command::Modify { target, change })
    }

    fn help(&mut self) -> Result<Command> {
        let Some(t) = self.peek() else {
            return Ok(Command::Help { topic: None });
        };
        let Some(word) = t.word() else {
            return Err(self.expected("a command name"));
        };
        let Some(spec) = help::lookup(word) else {
            return Err(help::unknown_command(word, t.span));
        };
        self.pos += 1;
        if matches!(spec.name, "Push" | "Pop") {
            self.eat("Context");
        }
        Ok(Command::Help {
            topic: Some(spec.name.to_string()),
        })
    }
}

/// An answer to `Replace Confirm`'s `Replace? (y/n)` prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `y`: replace this match, go to the next.
    Yes,
    /// `n`: keep this match, go to the next.
    No,
    /// `q`: stop; the replacements made so far stay (one undo step).
    Quit,
}

/// Reads a whole message as a confirm answer: `y`, `n` or `q` (also `yes`,
/// `no`, `quit`), case-insensitive, surrounding whitespace ignored. `None`
/// for anything else; the engine asks this only while a walk is pending.
pub fn parse_answer(text: &str) -> Option<Answer> {
    match text.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(Answer::Yes),
        "n" | "no" => Some(Answer::No),
        "q" | "quit" => Some(Answer::Quit),
        _ => None,
    }
}

/// Session and bookmark names: `[A-Za-z0-9_.-]{1,64}`.
pub fn is_valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A bookmark name must not read as a line number or a Goto keyword.
fn check_bookmark_name(name: &str, span: Span) -> Result<()> {
    if name.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(
            format!("Bookmark name '{name}' would read as a line number; include a letter"),
            span,
        ));
    }
    if let Some(kw) = GOTO_KEYWORDS.iter().find(|k| k.eq_ignore_ascii_case(name)) {
        return Err(ParseError::new(
            format!("Bookmark name '{name}' is the Goto keyword {kw}; choose another"),
            span,
        ));
    }
    Ok(())
}

/// A code identifier (Unicode letters allowed, as in Python).
fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// `a`, `a.b`, `pkg.mod.Class.m`.
fn is_dotted(s: &str) -> bool {
    s.split('.').all(is_ident)
}

/// A dotted name, optionally followed by `#<n>` (`f#2`, `C.m#1`). Its
/// parts are code names of any language Eddi reads: JavaScript's may hold
/// `$`, and a class member's may start with `#` (`C.#secret`).
/// A name as Eddi writes it: Rust's and C++'s paths (`Either::flip`,
/// `crate::util::parse`) are dotted like the others (`Either.flip`,
/// `util.parse`), as agents writing those languages tend to spell them.
fn dotted(word: &str) -> String {
    let dotted = word.replace("::", ".");
    match dotted.strip_prefix("crate.") {
        Some(within_crate) => within_crate.to_owned(),
        None => dotted,
    }
}

fn is_target_name(s: &str) -> bool {
    match s.rsplit_once('#') {
        Some((name, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            is_target_path(name)
        }
        _ => is_target_path(s),
    }
}

/// `a`, `C.m`, `$el`, `C.#secret`: the name part of a code target; its
/// last part may be a function's place (`f.<anonymous@3:8>`).
fn is_target_path(s: &str) -> bool {
    let (path, last) = s.rsplit_once('.').unwrap_or(("", s));
    let name = |part: &str| is_code_name(part.strip_prefix('#').unwrap_or(part));
    (path.is_empty() || path.split('.').all(name)) && (name(last) || is_place_name(last))
}

/// `<anonymous@3:8>`, `<writeOut@12:4>`: a function without a name of
/// its own, named by what holds it and its position
/// ([`crate::language::inner_functions`]).
fn is_place_name(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('<').and_then(|s| s.strip_suffix('>')) else {
        return false;
    };
    let Some((label, place)) = inner.rsplit_once('@') else {
        return false;
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    is_code_name(label)
        && place
            .split_once(':')
            .is_some_and(|(l, c)| digits(l) && digits(c))
}

/// A name in code of any language Eddi reads: letters, digits, `_` and
/// `$`, not starting with a digit.
fn is_code_name(s: &str) -> bool {
    // (an ES class's private name, `#count`, as a new name)
    let s = s.strip_prefix('#').unwrap_or(s);
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The one-line reason of a regex error (its Display spans several lines).
fn regex_reason(err: &regex::Error) -> String {
    let text = err.to_string();
    let reason = text
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("invalid");
    excerpt(reason.trim_start_matches("error: "))
}

/// The registry's kinds read their arguments with the parser's words.
impl kinds::Arguments for Parser<'_> {
    fn name(&mut self, what: &str) -> Result<String> {
        self.target_name(what)
    }

    fn identifier(&mut self, what: &str) -> Result<String> {
        self.code_name(what)
    }

    fn names(&mut self, what: &str) -> Result<Vec<String>> {
        let mut out = Vec::new();
        loop {
            let word = match self.peek().and_then(Token::word) {
                Some(w) => w.to_string(),
                None => return Err(self.expected(what)),
            };
            let parts: Vec<&str> = word.split(',').filter(|p| !p.is_empty()).collect();
            if parts.is_empty() || !parts.iter().all(|p| is_target_name(p)) {
                return Err(self.expected(what));
            }
            out.extend(parts.iter().map(|p| p.to_string()));
            self.pos += 1;
            if !word.ends_with(',') {
                return Ok(out);
            }
        }
    }

    fn glued_params(&mut self) -> Option<String> {
        Parser::glued_params(self)
    }

    fn eat(&mut self, word: &str) -> bool {
        Parser::eat(self, word)
    }

    fn lines(&mut self) -> Result<(usize, usize)> {
        self.line_range().map(|range| (range.first, range.last))
    }

    fn here(&self) -> Span {
        Parser::here(self)
    }

    fn expected(&self, what: &str) -> ParseError {
        Parser::expected(self, what)
    }

    fn refused(&self, message: String, span: Span) -> ParseError {
        self.with_usage(message, span)
    }
}
