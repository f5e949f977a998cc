//! The script parser: tokens to a [`Script`], by recursive descent.
//!
//! Statements need no separators: the grammar says where each ends
//! (`methods in C where complexity > 8 foreach …` ends its condition at the
//! number), so the spec's one-line scripts read as written. Newlines and
//! `;` are blank to the grammar, except that they end a phase-1 command.
//!
//! A phase-1 command (`Goto 12:4`, `Save`) or a refactoring in command form
//! (`rename_class A B`) runs to the end of its line, a `;`, a brace, or
//! the next word that starts a script statement (`foreach`, `collect`, …);
//! its text goes to the command language's own parser
//! ([`crate::commands::parse_command`]), whose errors come back with the
//! script's `line:col`.
//!
//! Never panics; the first mistake is the error (a script runs all or
//! nothing, so there is no point going on).

use super::ast::*;
use super::error::{ScriptError, ScriptErrorKind};
use super::lexer::{tokenize, Lines, Tok, Token};
use super::template::{pattern_arguments, template};
use super::words;
use crate::analysis::pattern::{self, CodePattern};
use crate::commands::error::excerpt;
use crate::commands::parser::is_valid_name;
use crate::commands::{self, help};
use crate::refactor::kinds;

type Result<T> = std::result::Result<T, ScriptError>;

/// Parses a script. The static checks (variables, attributes, where a
/// word applies) are [`super::check`]'s.
pub fn parse_script(text: &str) -> Result<Script> {
    let mut parser = Parser::new(text)?;
    parser.script()
}

/// Parses a query alone (`functions where complexity > 8`, `caller of
/// f()`): what the Python API and the `select` of the tools send. The
/// static checks are [`super::check::check_query`]'s.
pub fn parse_query(text: &str) -> Result<Query> {
    let mut parser = Parser::new(text)?;
    let query = parser.query()?;
    match parser.peek() {
        None => Ok(query),
        Some(_) => {
            Err(parser.expected("the end of the query (a query is one source and its where)"))
        }
    }
}

/// Parses a condition alone (what follows a query's `where`), as its
/// writer wrote it: its spans, hence its errors' `line:col`, count from
/// its own first char (the Python API's `where=`).
pub fn parse_condition(text: &str) -> Result<Condition> {
    let mut parser = Parser::new(text)?;
    let condition = parser.condition()?;
    match parser.peek() {
        None => Ok(condition),
        Some(_) => Err(parser.expected("the end of the condition (and, or, or nothing)")),
    }
}

/// The `Refactor ` put before a refactoring's command form for the command
/// parser; error spans are moved back by its length.
const REFACTOR_PREFIX: &str = "Refactor ";

struct Parser<'s> {
    source: &'s str,
    lines: Lines,
    tokens: Vec<Token>,
    /// The next token (separators included).
    pos: usize,
    /// The span of the last token taken.
    last: Span,
}

impl<'s> Parser<'s> {
    /// A parser at the start of `text`, tokenized.
    fn new(text: &'s str) -> Result<Parser<'s>> {
        Ok(Parser {
            source: text,
            lines: Lines::new(text),
            tokens: tokenize(text)?,
            pos: 0,
            last: Span::default(),
        })
    }

    // -- tokens ----------------------------------------------------------------

    /// The index of the next token that is not a separator.
    fn next_index(&self, from: usize) -> Option<usize> {
        (from..self.tokens.len()).find(|&i| !self.tokens[i].is_separator())
    }

    fn peek(&self) -> Option<&Token> {
        self.next_index(self.pos).map(|i| &self.tokens[i])
    }

    /// The token after the next one (separators skipped).
    fn peek_second(&self) -> Option<&Token> {
        let first = self.next_index(self.pos)?;
        self.next_index(first + 1).map(|i| &self.tokens[i])
    }

    /// Takes the next token.
    fn bump(&mut self) -> Option<Token> {
        let i = self.next_index(self.pos)?;
        self.pos = i + 1;
        let token = self.tokens[i].clone();
        self.last = token.span;
        Some(token)
    }

    /// Where the next token is, or right after the script's last token.
    fn here(&self) -> Span {
        match self.peek() {
            Some(t) => t.span,
            None => {
                let end = self
                    .tokens
                    .iter()
                    .rev()
                    .find(|t| !t.is_separator())
                    .map_or(0, |t| t.span.end);
                self.lines.span(end, end)
            }
        }
    }

    /// From `start` to the last token taken.
    fn since(&self, start: Span) -> Span {
        start.to(self.last)
    }

    fn text_of(&self, token: &Token) -> &'s str {
        self.source
            .get(token.bytes.0..token.bytes.1)
            .unwrap_or_default()
    }

    /// Takes the keyword `kw` if it is next.
    fn eat(&mut self, kw: &str) -> bool {
        if self.peek().is_some_and(|t| t.is_word(kw)) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_tok(&mut self, tok: &Tok) -> bool {
        if self.peek().is_some_and(|t| &t.tok == tok) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// `expected <what>, found …` at the next token.
    fn expected(&self, what: &str) -> ScriptError {
        let found = self.peek().map(|t| self.text_of(t));
        ScriptError::expected(self.here(), what, found)
    }

    /// The keyword `kw` is required next.
    fn expect(&mut self, kw: &str, what: &str) -> Result<()> {
        if self.eat(kw) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    // -- statements --------------------------------------------------------------

    fn script(&mut self) -> Result<Script> {
        let start = self.here();
        let mut statements = Vec::new();
        while let Some(token) = self.peek() {
            if token.tok == Tok::RBrace {
                return Err(ScriptError::new(
                    ScriptErrorKind::Syntax,
                    token.span,
                    "unmatched '}'; expected a statement (every '}' closes a '{' before it)",
                ));
            }
            statements.push(self.statement()?);
        }
        if statements.is_empty() {
            return Err(
                self.expected("a statement (foreach, if, let, use, { … }, an action or a command)")
            );
        }
        Ok(Script {
            statements,
            span: self.since(start),
        })
    }

    /// `{ statement* }`
    fn block(&mut self, after: &str) -> Result<Block> {
        let open = self.here();
        if !self.eat_tok(&Tok::LBrace) {
            return Err(self.expected(&format!("'{{' to open the block of {after}")));
        }
        let mut statements = Vec::new();
        loop {
            match self.peek() {
                None => {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Syntax,
                        self.here(),
                        format!(
                            "expected '}}' to close the '{{' opened at {open}, found the end of the script"
                        ),
                    ))
                }
                Some(t) if t.tok == Tok::RBrace => {
                    self.bump();
                    break;
                }
                Some(_) => statements.push(self.statement()?),
            }
        }
        Ok(Block {
            statements,
            span: self.since(open),
        })
    }

    /// What a `foreach`, `if`, `else` or `use` runs: a block or one
    /// statement.
    fn body(&mut self, of: &str) -> Result<Box<Statement>> {
        match self.peek() {
            None => Err(self.expected(&format!("an action or a {{ block }} for {of}"))),
            Some(t) if t.tok == Tok::LBrace => {
                let start = t.span;
                let block = self.block(of)?;
                Ok(Box::new(Statement {
                    kind: StatementKind::Block(block),
                    span: self.since(start),
                }))
            }
            Some(_) => Ok(Box::new(self.statement()?)),
        }
    }

    fn statement(&mut self) -> Result<Statement> {
        let Some(token) = self.peek().cloned() else {
            return Err(self.expected("a statement"));
        };
        let start = token.span;
        let kind = match &token.tok {
            Tok::LBrace => StatementKind::Block(self.block("the script")?),
            Tok::Word(word) => self.keyword_statement(&token, &word.to_ascii_lowercase())?,
            Tok::Var(name) => {
                return Err(ScriptError::new(
                    ScriptErrorKind::Syntax,
                    start,
                    format!(
                        "a statement cannot start with ${name}; expected 'use ${name} <action>' or 'foreach $x in ${name} <action>'"
                    ),
                ))
            }
            _ => return Err(self.expected("a statement (foreach, if, let, use, { … }, an action or a command)")),
        };
        Ok(Statement {
            kind,
            span: self.since(start),
        })
    }

    fn keyword_statement(&mut self, token: &Token, word: &str) -> Result<StatementKind> {
        let second_is = |p: &Self, kw: &str| p.peek_second().is_some_and(|t| t.is_word(kw));
        match word {
            "foreach" => self.foreach(),
            "if" => self.if_statement(),
            "let" => self.let_statement(),
            "use" => {
                self.bump();
                let var = self.variable("a variable after use, as use $name <action>")?;
                let body = self.body("use")?;
                Ok(StatementKind::Use { var, body })
            }
            "try" => {
                self.bump();
                let body = self.block("try")?;
                self.expect("catch", "'catch { … }' after the try block")?;
                let catch = self.block("catch")?;
                Ok(StatementKind::Try { body, catch })
            }
            "else" => Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                token.span,
                "'else' without an 'if' before it; expected a statement",
            )),
            "catch" => Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                token.span,
                "'catch' without a 'try { … }' before it; expected a statement",
            )),
            "on_error" => {
                self.bump();
                let policy = match self.one_of("on_error policy", words::ERROR_POLICIES)? {
                    "continue" => ErrorPolicy::Continue,
                    "stop" => ErrorPolicy::Stop,
                    _ => ErrorPolicy::Rollback,
                };
                Ok(StatementKind::OnError(policy))
            }
            "store" => {
                self.bump();
                self.expect(
                    "current_position",
                    "'current_position' (store current_position as <name>)",
                )?;
                self.expect("as", "'as' (store current_position as <name>)")?;
                let name = self.name("a position name")?;
                Ok(StatementKind::StorePosition { name })
            }
            "push" | "pop" => {
                self.bump();
                self.expect("context", &format!("'context' ({word} context)"))?;
                Ok(if word == "push" {
                    StatementKind::PushContext
                } else {
                    StatementKind::PopContext
                })
            }
            "collect" => {
                self.bump();
                self.expect("changes", "'changes' (collect changes as \"<name>\")")?;
                self.expect("as", "'as' (collect changes as \"<name>\")")?;
                let name = self.name("a changeset name")?;
                Ok(StatementKind::Collect { name })
            }
            "rollback" => {
                self.bump();
                if self.eat("all") {
                    return Ok(StatementKind::RollbackAll);
                }
                self.expect("changeset", "'all' or 'changeset <name>' after rollback")?;
                let name = self.name("a changeset name")?;
                Ok(StatementKind::RollbackChangeset { name })
            }
            "preview" if second_is(self, "changeset") || second_is(self, "diff") => {
                let before = (self.pos, self.last);
                self.bump();
                let diff = self.eat("diff");
                if !self.eat("changeset") {
                    // `preview diff refactor …` is the phase-1 command.
                    (self.pos, self.last) = before;
                    return self.command(token);
                }
                let name = self.name("a changeset name")?;
                Ok(StatementKind::PreviewChangeset { name, diff })
            }
            "apply" if second_is(self, "changeset") => {
                self.bump();
                self.bump();
                let name = self.name("a changeset name")?;
                Ok(StatementKind::ApplyChangeset { name })
            }
            "replace" if !(second_is(self, "all") || second_is(self, "confirm")) => {
                self.action_statement()
            }
            "flag" | "suggest" | "remove" | "add" => self.action_statement(),
            _ => {
                if let Some(kind) = kinds::lookup(word) {
                    let call = self
                        .peek_second()
                        .is_some_and(|t| t.glued && t.tok == Tok::LParen);
                    if call {
                        return self.refactor_call(kind.keyword);
                    }
                    return self.command(token);
                }
                if help::lookup(word).is_some() {
                    return self.command(token);
                }
                Err(self.unknown_statement(token))
            }
        }
    }

    fn unknown_statement(&self, token: &Token) -> ScriptError {
        let mut valid: Vec<&str> = words::STATEMENT_KEYWORDS
            .iter()
            .chain(words::ACTION_KEYWORDS)
            .copied()
            .filter(|w| !matches!(*w, "else" | "catch"))
            .collect();
        valid.extend(["preview", "apply"]);
        valid.extend(kinds::KINDS.iter().map(|k| k.keyword));
        valid.extend(help::command_names());
        ScriptError::unknown(token.span, "statement", self.text_of(token), &valid)
    }

    fn foreach(&mut self) -> Result<StatementKind> {
        self.bump();
        let bound = matches!(self.peek().map(|t| &t.tok), Some(Tok::Var(_)))
            && self.peek_second().is_some_and(|t| t.is_word("in"));
        let binding = if bound {
            let var = self.variable("a variable")?;
            self.bump();
            Some(var)
        } else {
            None
        };
        let query = self.query()?;
        let body = self.body("foreach")?;
        Ok(StatementKind::Foreach {
            binding,
            query,
            body,
        })
    }

    fn if_statement(&mut self) -> Result<StatementKind> {
        self.bump();
        let condition = self.condition()?;
        let then = self.body("if")?;
        let otherwise = if self.eat("else") {
            Some(self.body("else")?)
        } else {
            None
        };
        Ok(StatementKind::If {
            condition,
            then,
            otherwise,
        })
    }

    fn let_statement(&mut self) -> Result<StatementKind> {
        self.bump();
        let var = self.variable("a variable after let, as let $name = <query>")?;
        match self.peek().map(|t| &t.tok) {
            Some(Tok::Assign) => {
                self.bump();
            }
            Some(Tok::Compare(CompareOp::Eq)) => {
                return Err(ScriptError::new(
                    ScriptErrorKind::Syntax,
                    self.here(),
                    "expected '=' after the variable (let $name = <query>), found '=='",
                ))
            }
            _ => return Err(self.expected("'=' (let $name = <query>)")),
        }
        let query = self.query()?;
        Ok(StatementKind::Let { var, query })
    }

    /// A phase-1 command from `head` to where it ends (see the module
    /// doc), parsed by the command language.
    fn command(&mut self, head: &Token) -> Result<StatementKind> {
        let first = self.next_index(self.pos).unwrap_or(self.pos);
        let mut end = first + 1;
        while let Some(t) = self.tokens.get(end) {
            let stops = t.is_separator()
                || matches!(t.tok, Tok::LBrace | Tok::RBrace)
                || t.word().is_some_and(|w| {
                    words::STATEMENT_KEYWORDS
                        .iter()
                        .any(|k| k.eq_ignore_ascii_case(w))
                        || (words::CHANGESET_VERBS
                            .iter()
                            .any(|k| k.eq_ignore_ascii_case(w))
                            && self
                                .tokens
                                .get(end + 1)
                                .is_some_and(|n| n.is_word("changeset")))
                });
            if stops {
                break;
            }
            end += 1;
        }
        let last = self.tokens[end - 1].span;
        let last_byte = self.tokens[end - 1].bytes.1;
        let text = self.source.get(head.bytes.0..last_byte).unwrap_or_default();
        let refactoring = head
            .word()
            .is_some_and(|w| kinds::lookup(w).is_some() && help::lookup(w).is_none());
        let parsed = if refactoring {
            commands::parse_command(&format!("{REFACTOR_PREFIX}{text}"))
        } else {
            commands::parse_command(text)
        };
        let command = parsed.map_err(|e| {
            let shift = if refactoring {
                REFACTOR_PREFIX.chars().count()
            } else {
                0
            };
            let from = head.span.start + e.span.start.saturating_sub(shift);
            let to = head.span.start + e.span.end.saturating_sub(shift);
            ScriptError {
                kind: ScriptErrorKind::Syntax,
                span: self.lines.span(from, to.max(from)),
                message: e.message,
                candidates: e.candidates,
            }
        })?;
        self.pos = end;
        self.last = last;
        Ok(StatementKind::Action(Action {
            kind: ActionKind::Command(command),
            span: head.span.to(last),
        }))
    }

    // -- actions -------------------------------------------------------------

    fn action_statement(&mut self) -> Result<StatementKind> {
        Ok(StatementKind::Action(self.action()?))
    }

    fn action(&mut self) -> Result<Action> {
        let start = self.here();
        let Some(head) = self.bump() else {
            return Err(self.expected("an action"));
        };
        let word = head.word().unwrap_or_default().to_ascii_lowercase();
        let kind = match word.as_str() {
            "replace" => {
                if self.eat("with") {
                    ActionKind::ReplaceWith(self.replacement()?)
                } else {
                    let pattern =
                        match self.peek().map(|t| t.tok.clone()) {
                            Some(Tok::Str(text)) => {
                                if text.is_empty() {
                                    return Err(ScriptError::new(
                                        ScriptErrorKind::Syntax,
                                        self.here(),
                                        "empty search text; expected the text to replace",
                                    ));
                                }
                                self.bump();
                                Pattern::Text(text)
                            }
                            Some(Tok::Word(_)) => Pattern::Code(self.call_pattern()?),
                            Some(Tok::Code(_)) => {
                                Pattern::Match(self.code_pattern("a code pattern in backticks")?)
                            }
                            _ => return Err(self.expected(
                                "'with' or what to replace (\"text\", a name or a call like f())",
                            )),
                        };
                    self.expect("with", "'with' (replace <what> with <replacement>)")?;
                    let replacement = self.replacement()?;
                    ActionKind::Replace {
                        pattern,
                        replacement,
                    }
                }
            }
            "flag" => ActionKind::Flag(self.expr("the message to flag, as \"<text>\"")?),
            "suggest" => {
                let Some(t) = self.peek().cloned() else {
                    return Err(self.expected("a refactoring to suggest"));
                };
                let keyword = self.refactoring_keyword(&t)?;
                self.bump();
                ActionKind::Suggest(keyword)
            }
            "remove" => {
                if self.eat("import") {
                    ActionKind::RemoveImport
                } else {
                    ActionKind::Remove
                }
            }
            _ => match self.one_of("thing to add", words::ADD_KINDS)? {
                "import" => ActionKind::AddImport(self.module("a module to import")?),
                _ => ActionKind::AddLine(self.expr("the line to add, as \"<text>\"")?),
            },
        };
        Ok(Action {
            kind,
            span: self.since(start),
        })
    }

    /// A refactoring's registry keyword from its word (`extract_method`).
    fn refactoring_keyword(&self, token: &Token) -> Result<&'static str> {
        let word = token.word().unwrap_or_default();
        if let Some(kind) = kinds::lookup(word) {
            return Ok(kind.keyword);
        }
        let squashed = kinds::squash(word);
        if let Some(later) = kinds::LATER.iter().find(|k| kinds::squash(k) == squashed) {
            return Err(ScriptError::new(
                ScriptErrorKind::UnknownWord,
                token.span,
                format!(
                    "refactoring {later} is not available yet; expected one of: {}",
                    kinds::keywords().join(", ")
                ),
            ));
        }
        if token.word().is_none() {
            return Err(ScriptError::expected(
                token.span,
                "a refactoring",
                Some(self.text_of(token)),
            ));
        }
        Err(ScriptError::unknown(
            token.span,
            "refactoring",
            word,
            &kinds::keywords(),
        ))
    }

    /// `extract_method($m, "name")`: a refactoring called with values.
    fn refactor_call(&mut self, keyword: &'static str) -> Result<StatementKind> {
        let start = self.here();
        self.bump();
        let head = self.last;
        let Some(expected) = words::call_arguments(keyword) else {
            let usage = kinds::lookup(keyword).map_or("", |k| k.usage);
            return Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                head,
                format!("{keyword} has no call form; expected its command form: {usage}"),
            ));
        };
        self.bump(); // (
        let mut arguments = Vec::new();
        if !self.eat_tok(&Tok::RParen) {
            loop {
                arguments.push(self.expr("an argument")?);
                if self.eat_tok(&Tok::Comma) {
                    continue;
                }
                if self.eat_tok(&Tok::RParen) {
                    break;
                }
                return Err(self.expected("',' or ')' in the argument list"));
            }
        }
        if arguments.len() != expected.len() {
            return Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                self.since(start),
                format!(
                    "{keyword} takes {} argument{} ({}), found {}",
                    expected.len(),
                    if expected.len() == 1 { "" } else { "s" },
                    expected.join(", "),
                    arguments.len()
                ),
            ));
        }
        Ok(StatementKind::Action(Action {
            kind: ActionKind::Refactor {
                kind: keyword,
                arguments,
            },
            span: self.since(start),
        }))
    }

    /// What `replace … with` puts in: a quoted text (an expression that
    /// starts with one) or code.
    fn replacement(&mut self) -> Result<Replacement> {
        match self.peek().map(|t| &t.tok) {
            Some(Tok::Code(_)) => {
                let code = self.code("code in backticks")?;
                pattern::template_names(&code.text).map_err(|e| {
                    ScriptError::new(
                        ScriptErrorKind::Syntax,
                        code.span,
                        format!("the replacement `{}`: {e}", excerpt(&code.text)),
                    )
                })?;
                Ok(Replacement::Template(code))
            }
            Some(Tok::Str(_)) => Ok(Replacement::Text(self.expr("the replacement")?)),
            Some(Tok::Word(w)) if !is_reserved(w) => Ok(Replacement::Code(self.call_pattern()?)),
            Some(Tok::Var(_)) => Ok(Replacement::Code(self.call_pattern()?)),
            _ => Err(self.expected("the replacement: \"text\" or code like f($1, timeout=30)")),
        }
    }

    /// Code: a callee (a dotted name or a placeholder) and, glued to it,
    /// an argument list taken as written.
    fn call_pattern(&mut self) -> Result<CallPattern> {
        let start = self.here();
        let Some(head) = self.bump() else {
            return Err(self.expected("code like f($1)"));
        };
        let callee = template(self.text_of(&head), head.span)?;
        let glued_paren = self
            .tokens
            .get(self.pos)
            .is_some_and(|t| t.glued && t.tok == Tok::LParen);
        let arguments = if glued_paren {
            let open = self.pos;
            let mut depth = 0usize;
            let mut close = None;
            for (i, t) in self.tokens.iter().enumerate().skip(open) {
                match t.tok {
                    Tok::LParen => depth += 1,
                    Tok::RParen => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(close) = close else {
                return Err(ScriptError::new(
                    ScriptErrorKind::Syntax,
                    self.tokens[open].span,
                    "expected ')' to close this '(', found the end of the script",
                ));
            };
            let (open_token, close_token) = (&self.tokens[open], &self.tokens[close]);
            let text = self
                .source
                .get(open_token.bytes.1..close_token.bytes.0)
                .unwrap_or_default();
            let span = open_token.span.to(close_token.span);
            let arguments = pattern_arguments(text, span)?;
            self.pos = close + 1;
            self.last = close_token.span;
            Some(arguments)
        } else {
            None
        };
        Ok(CallPattern {
            callee,
            arguments,
            span: self.since(start),
        })
    }

    // -- queries -----------------------------------------------------------------

    fn query(&mut self) -> Result<Query> {
        let start = self.here();
        let Some(token) = self.peek().cloned() else {
            return Err(self.expected(
                "a query (caller of f(), method in C, function, class, file matching \"*.py\", …)",
            ));
        };
        let source = match &token.tok {
            Tok::Var(_) => Source::Variable(self.variable("a variable")?),
            Tok::Word(w) => {
                let word = w.to_ascii_lowercase();
                self.bump();
                match word.as_str() {
                    "caller" | "callers" => {
                        self.expect("of", &format!("'of' ({word} of f())"))?;
                        Source::Callers(self.subject("a function, as f() or mod.f()")?)
                    }
                    "call" | "calls" => {
                        self.expect("to", &format!("'to' ({word} to mod.f)"))?;
                        Source::Calls(self.subject("a function, as mod.f")?)
                    }
                    "method" | "methods" => {
                        self.expect("in", &format!("'in' ({word} in <Class>)"))?;
                        Source::Methods(self.subject("a class")?)
                    }
                    "function" | "functions" => Source::Functions(self.optional_name()),
                    "class" | "classes" => {
                        if self.eat("implementing") {
                            Source::ClassesImplementing(self.subject("a class or interface")?)
                        } else {
                            Source::Classes(self.optional_name())
                        }
                    }
                    "file" | "files" => {
                        self.expect(
                            "matching",
                            &format!("'matching' ({word} matching \"<glob>\")"),
                        )?;
                        let glob = self.string("a glob in quotes, as \"src/**/*.py\"")?;
                        if glob.text.trim().is_empty() {
                            return Err(ScriptError::new(
                                ScriptErrorKind::Syntax,
                                glob.span,
                                "empty glob; expected a glob like \"*.py\" (\"**/*\" for every file)",
                            ));
                        }
                        if let Err(e) = globset::Glob::new(&glob.text) {
                            return Err(ScriptError::new(
                                ScriptErrorKind::Syntax,
                                glob.span,
                                format!("invalid glob \"{}\": {}", excerpt(&glob.text), e.kind()),
                            ));
                        }
                        Source::Files { glob }
                    }
                    "line" | "lines" => {
                        self.expect("in", &format!("'in' ({word} in range a:b)"))?;
                        self.expect("range", &format!("'range' ({word} in range a:b)"))?;
                        self.line_range()?
                    }
                    "symbol" | "symbols" => {
                        self.expect(
                            "of",
                            &format!("'of' ({word} of type function|class|variable)"),
                        )?;
                        self.expect(
                            "type",
                            &format!("'type' ({word} of type function|class|variable)"),
                        )?;
                        Source::Symbols(match self.one_of("symbol type", words::SYMBOL_KINDS)? {
                            "function" => SymbolKind::Function,
                            "class" => SymbolKind::Class,
                            _ => SymbolKind::Variable,
                        })
                    }
                    "import" | "imports" => Source::Imports,
                    "match" | "matches" => Source::Match(
                        self.code_pattern("a code pattern in backticks, as `pow($a, $b)`")?,
                    ),
                    _ => {
                        return Err(ScriptError::unknown(
                            token.span,
                            "query",
                            w,
                            words::QUERY_WORDS,
                        ))
                    }
                }
            }
            _ => return Err(self.expected(
                "a query (caller of f(), method in C, function, class, file matching \"*.py\", …)",
            )),
        };
        let filter = if self.eat("where") {
            Some(self.condition()?)
        } else {
            None
        };
        Ok(Query {
            source,
            filter,
            span: self.since(start),
        })
    }

    /// `a:b` after `line in range`.
    fn line_range(&mut self) -> Result<Source> {
        let start = self.here();
        let first = self.number("a line range like 3:9")?;
        if !self.eat_tok(&Tok::Colon) {
            return Err(self.expected("':' in a line range like 3:9"));
        }
        let last = self.number("the last line of the range")?;
        if first == 0 || first > last {
            return Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                self.since(start),
                format!("invalid line range {first}:{last}; expected a:b with 1 <= a <= b"),
            ));
        }
        Ok(Source::Lines { first, last })
    }

    /// The function or class a query is about: `$x`, `name`, `name()`,
    /// or a full name quoted (`"src.my-app.util.fmt"`: a brace language's
    /// module label may hold what a name cannot, a `-` of its path).
    fn subject(&mut self, what: &str) -> Result<Subject> {
        match self.peek().map(|t| t.tok.clone()) {
            Some(Tok::Var(_)) => Ok(Subject::Var(self.variable(what)?)),
            Some(Tok::Str(text)) if !text.trim().is_empty() => {
                self.bump();
                Ok(Subject::Name(Name {
                    text,
                    span: self.last,
                }))
            }
            Some(Tok::Word(w)) if is_dotted(&w) && !is_reserved(&w) => {
                self.bump();
                let span = self.last;
                let glued_paren = self
                    .tokens
                    .get(self.pos)
                    .is_some_and(|t| t.glued && t.tok == Tok::LParen);
                if glued_paren {
                    self.bump();
                    if !self.eat_tok(&Tok::RParen) {
                        return Err(self.expected(&format!(
                            "')' right after '(' ({w}() names the function; a query takes no arguments)"
                        )));
                    }
                }
                Ok(Subject::Name(Name {
                    text: w,
                    span: self.since(span),
                }))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// The name after `class`/`function`, if one follows: a word that is
    /// not a keyword of the script, a refactoring or a command.
    fn optional_name(&mut self) -> Option<Name> {
        let token = self.peek()?;
        let word = token.word()?;
        if !is_dotted(word)
            || is_reserved(word)
            || kinds::lookup(word).is_some()
            || help::lookup(word).is_some()
        {
            return None;
        }
        let name = Name {
            text: word.to_string(),
            span: token.span,
        };
        self.bump();
        Some(name)
    }

    // -- conditions --------------------------------------------------------------

    fn condition(&mut self) -> Result<Condition> {
        let start = self.here();
        let mut left = self.and_condition()?;
        while self.eat("or") {
            let right = self.and_condition()?;
            left = Condition {
                kind: ConditionKind::Or(Box::new(left), Box::new(right)),
                span: self.since(start),
            };
        }
        Ok(left)
    }

    fn and_condition(&mut self) -> Result<Condition> {
        let start = self.here();
        let mut left = self.not_condition()?;
        while self.eat("and") {
            let right = self.not_condition()?;
            left = Condition {
                kind: ConditionKind::And(Box::new(left), Box::new(right)),
                span: self.since(start),
            };
        }
        Ok(left)
    }

    fn not_condition(&mut self) -> Result<Condition> {
        let start = self.here();
        if self.eat("not") {
            let inner = self.not_condition()?;
            return Ok(Condition {
                kind: ConditionKind::Not(Box::new(inner)),
                span: self.since(start),
            });
        }
        self.condition_atom()
    }

    fn condition_atom(&mut self) -> Result<Condition> {
        let start = self.here();
        let what = "a condition (complexity > n, params.count == n, line_count > n, has_annotation @x, imports <module>, contains \"<text>\", unused, file.path contains \"<text>\", not, ( … ))";
        let Some(token) = self.peek().cloned() else {
            return Err(self.expected(what));
        };
        let kind = match &token.tok {
            Tok::LParen => {
                self.bump();
                let inner = self.condition()?;
                if !self.eat_tok(&Tok::RParen) {
                    return Err(self.expected(&format!("')' to close the '(' at {}", token.span)));
                }
                return Ok(Condition {
                    span: self.since(start),
                    ..inner
                });
            }
            Tok::Var(_) => {
                let attribute = self.attribute()?;
                self.attribute_test(attribute)?
            }
            Tok::Word(w) => {
                let word = w.to_ascii_lowercase();
                if let Some(metric) = words::metric(&word) {
                    self.bump();
                    let op = self.compare_op(metric.word())?;
                    let value =
                        self.number(&format!("a number after {} {}", metric.word(), op.symbol()))?;
                    ConditionKind::Measure { metric, op, value }
                } else {
                    match word.as_str() {
                        "has_annotation" => {
                            self.bump();
                            self.eat_tok(&Tok::At);
                            let name = self.module("an annotation, as @login_required")?;
                            ConditionKind::HasAnnotation(name)
                        }
                        "imports" => {
                            self.bump();
                            ConditionKind::Imports(self.module("a module, as imports logging")?)
                        }
                        "contains" => {
                            self.bump();
                            ConditionKind::Contains(self.expr("the text, as contains \"<text>\"")?)
                        }
                        "unused" => {
                            self.bump();
                            ConditionKind::Unused
                        }
                        _ if word.contains('.') => {
                            let attribute = self.attribute()?;
                            self.attribute_test(attribute)?
                        }
                        _ => {
                            return Err(ScriptError::unknown(
                                token.span,
                                "condition",
                                w,
                                words::CONDITION_WORDS,
                            ))
                        }
                    }
                }
            }
            _ => return Err(self.expected(what)),
        };
        Ok(Condition {
            kind,
            span: self.since(start),
        })
    }

    /// `contains <expr>` or `<op> <expr>` after an attribute.
    fn attribute_test(&mut self, attribute: Attribute) -> Result<ConditionKind> {
        let test = if self.eat("contains") {
            Test::Contains(self.expr("the text, as contains \"<text>\"")?)
        } else if self.eat("is") {
            let negated = self.eat("not");
            let word = self.one_of("type", &pattern::type_words())?;
            Test::Is { negated, word }
        } else {
            let op = self.compare_op(&attribute.to_string())?;
            Test::Compare(op, self.expr("a value to compare with")?)
        };
        Ok(ConditionKind::Test { attribute, test })
    }

    fn compare_op(&mut self, after: &str) -> Result<CompareOp> {
        match self.peek().map(|t| &t.tok) {
            Some(Tok::Compare(op)) => {
                let op = *op;
                self.bump();
                Ok(op)
            }
            Some(Tok::Assign) => Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                self.here(),
                format!("expected a comparison after {after} (==, !=, >, >=, <, <=), found '='; write == to compare"),
            )),
            _ => Err(self.expected(&format!(
                "a comparison after {after} (==, !=, >, >=, <, <=, or contains)"
            ))),
        }
    }

    // -- expressions -------------------------------------------------------------

    /// `term ('+' term)*`
    fn expr(&mut self, what: &str) -> Result<Expr> {
        let start = self.here();
        let first = self.term(what)?;
        if self.peek().is_none_or(|t| t.tok != Tok::Plus) {
            return Ok(first);
        }
        let mut parts = vec![first];
        while self.eat_tok(&Tok::Plus) {
            parts.push(self.term("a value after '+'")?);
        }
        Ok(Expr {
            kind: ExprKind::Concat(parts),
            span: self.since(start),
        })
    }

    fn term(&mut self, what: &str) -> Result<Expr> {
        let start = self.here();
        let Some(token) = self.peek().cloned() else {
            return Err(self.expected(what));
        };
        let kind = match &token.tok {
            Tok::Str(text) => {
                self.bump();
                ExprKind::Str(text.clone())
            }
            Tok::Number(_) => ExprKind::Number(self.number(what)?),
            Tok::Var(_) => ExprKind::Attribute(self.attribute()?),
            Tok::Word(w) if w.contains('.') || words::element(w).is_some() => {
                ExprKind::Attribute(self.attribute()?)
            }
            Tok::Word(w) if is_dotted(w) && !is_reserved(w) => {
                self.bump();
                ExprKind::Name(w.clone())
            }
            Tok::LParen => {
                self.bump();
                let inner = self.expr(what)?;
                if !self.eat_tok(&Tok::RParen) {
                    return Err(self.expected(&format!("')' to close the '(' at {}", token.span)));
                }
                return Ok(Expr {
                    span: self.since(start),
                    ..inner
                });
            }
            _ => {
                return Err(self.expected(&format!(
                "{what} (\"text\", a number, $variable, $variable.attribute or element.attribute)"
            )))
            }
        };
        Ok(Expr {
            kind,
            span: self.since(start),
        })
    }

    /// `$x`, `$x.a.b`, `function`, `file.path`: which attributes exist is
    /// the checks' business (they know what each variable holds).
    fn attribute(&mut self) -> Result<Attribute> {
        let Some(token) = self.bump() else {
            return Err(self.expected("a value"));
        };
        let (object, rest) = match &token.tok {
            Tok::Var(text) => {
                let (name, rest) = text.split_once('.').unwrap_or((text.as_str(), ""));
                if is_placeholder(name) {
                    return Err(ScriptError::new(
                        ScriptErrorKind::WrongContext,
                        token.span,
                        format!("${name} is an argument of the matched call: it goes in code after 'replace … with', as f($1); expected a value (\"text\", $variable, element.attribute)"),
                    ));
                }
                let var = Var {
                    name: name.to_string(),
                    span: token.span,
                };
                (Object::Var(var), rest.to_string())
            }
            Tok::Word(text) => {
                let (head, rest) = text.split_once('.').unwrap_or((text.as_str(), ""));
                let Some(kind) = words::element(head) else {
                    return Err(ScriptError::unknown(
                        token.span,
                        "element",
                        head,
                        &words::element_words(),
                    ));
                };
                (Object::Element(kind), rest.to_string())
            }
            _ => {
                return Err(ScriptError::expected(
                    token.span,
                    "a value",
                    Some(self.text_of(&token)),
                ))
            }
        };
        let path: Vec<String> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.split('.').map(str::to_ascii_lowercase).collect()
        };
        if path.iter().any(String::is_empty) {
            return Err(ScriptError::expected(
                token.span,
                "an attribute name after '.'",
                Some(self.text_of(&token)),
            ));
        }
        Ok(Attribute {
            object,
            path,
            span: token.span,
        })
    }

    // -- words and values --------------------------------------------------------

    /// One of `valid` (case-insensitive), as spelled there.
    /// A code pattern between backticks, refused here when it is not one.
    fn code_pattern(&mut self, what: &str) -> Result<Code> {
        let code = self.code(what)?;
        CodePattern::parse(&code.text).map_err(|e| {
            ScriptError::new(
                ScriptErrorKind::Syntax,
                code.span,
                format!("the code pattern `{}`: {e}", excerpt(&code.text)),
            )
        })?;
        Ok(code)
    }

    /// Code between backticks.
    fn code(&mut self, what: &str) -> Result<Code> {
        match self.peek().map(|t| t.tok.clone()) {
            Some(Tok::Code(text)) => {
                self.bump();
                Ok(Code {
                    text,
                    span: self.last,
                })
            }
            _ => Err(self.expected(what)),
        }
    }

    fn one_of(&mut self, what: &str, valid: &[&'static str]) -> Result<&'static str> {
        let Some(token) = self.peek().cloned() else {
            return Err(self.expected(&format!("{what} ({})", valid.join(", "))));
        };
        let Some(word) = token.word() else {
            return Err(self.expected(&format!("{what} ({})", valid.join(", "))));
        };
        match valid.iter().copied().find(|v| v.eq_ignore_ascii_case(word)) {
            Some(v) => {
                self.bump();
                Ok(v)
            }
            None => Err(ScriptError::unknown(token.span, what, word, valid)),
        }
    }

    fn variable(&mut self, what: &str) -> Result<Var> {
        match self.peek().map(|t| t.tok.clone()) {
            Some(Tok::Var(name)) => {
                self.bump();
                let span = self.last;
                if is_placeholder(&name) || name.contains('.') {
                    return Err(ScriptError::expected(
                        span,
                        &format!("{what} ($ and a name)"),
                        Some(&format!("${name}")),
                    ));
                }
                Ok(Var { name, span })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A changeset or position name: a word or a quoted string of
    /// `A-Z a-z 0-9 _ . -`.
    fn name(&mut self, what: &str) -> Result<Name> {
        let Some(token) = self.peek().cloned() else {
            return Err(self.expected(what));
        };
        let text = match &token.tok {
            Tok::Str(s) | Tok::Word(s) => s.clone(),
            _ => return Err(self.expected(what)),
        };
        if !is_valid_name(&text) {
            return Err(ScriptError::new(
                ScriptErrorKind::Syntax,
                token.span,
                format!(
                    "invalid {what} '{}'; expected 1-64 of A-Z a-z 0-9 _ . -",
                    excerpt(&text)
                ),
            ));
        }
        self.bump();
        Ok(Name {
            text,
            span: token.span,
        })
    }

    /// A quoted string.
    fn string(&mut self, what: &str) -> Result<Name> {
        match self.peek().map(|t| t.tok.clone()) {
            Some(Tok::Str(text)) => {
                self.bump();
                let span = self.last;
                Ok(Name { text, span })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A module or annotation name: dotted, or quoted.
    fn module(&mut self, what: &str) -> Result<Name> {
        match self.peek().map(|t| t.tok.clone()) {
            Some(Tok::Word(text)) if is_dotted(&text) => {
                self.bump();
                let span = self.last;
                Ok(Name { text, span })
            }
            Some(Tok::Str(text)) if !text.trim().is_empty() => {
                self.bump();
                let span = self.last;
                Ok(Name { text, span })
            }
            _ => Err(self.expected(what)),
        }
    }

    fn number(&mut self, what: &str) -> Result<usize> {
        match self.peek().map(|t| t.tok.clone()) {
            Some(Tok::Number(digits)) => {
                self.bump();
                let span = self.last;
                digits.parse().map_err(|_| {
                    ScriptError::new(
                        ScriptErrorKind::Syntax,
                        span,
                        format!(
                            "number {} is too large (max {})",
                            excerpt(&digits),
                            usize::MAX
                        ),
                    )
                })
            }
            _ => Err(self.expected(what)),
        }
    }
}

/// Words the grammar reads as its own where a name could stand.
fn is_reserved(word: &str) -> bool {
    let is = |list: &[&str]| list.iter().any(|k| k.eq_ignore_ascii_case(word));
    is(words::STATEMENT_KEYWORDS)
        || is(words::ACTION_KEYWORDS)
        || is(words::CLAUSE_WORDS)
        || is(&["with", "changeset"])
}

/// `$1`, `$*`: a matched call's arguments.
fn is_placeholder(name: &str) -> bool {
    name == "*" || name.bytes().all(|b| b.is_ascii_digit())
}

/// `a`, `a.b`, `pkg.mod.Class.m`: identifiers joined by dots.
/// A dotted name: identifiers, except that a module after the first may
/// start with a digit (Django's `migrations.0011_update_proxy_permissions`
/// is a module the index knows by that name).
fn is_dotted(s: &str) -> bool {
    s.split('.').enumerate().all(|(i, part)| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || (i > 0 && c.is_ascii_digit()))
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    })
}
