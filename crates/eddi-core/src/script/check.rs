//! The static checks of a parsed script, before anything runs: every
//! `$variable` is defined before it is used, every attribute exists for
//! what it is asked of, and every element word, condition and placeholder
//! stands where it can apply.
//!
//! What a variable holds is known from its definition (`let $m = methods
//! in C` holds methods; `foreach $m in $ms` binds one of them), so
//! `$m.nme` is refused before anything runs, with `name` offered.
//!
//! Where a statement runs outside any `foreach`/`use` (the spec's
//! single-line `if complexity > 10 …`), its element is the one at the
//! cursor, known only when it runs: the element checks apply inside an
//! iteration only.

use super::ast::*;
use super::error::{ScriptError, ScriptErrorKind};
use super::words;
use crate::choices;

/// A variable and the kind of the elements it holds.
pub type Variable = (String, ElementKind);

/// Checks `script`; `known` are the variables earlier messages of the
/// session defined. Returns the variables the script's top level defines
/// (for the messages after it), or the first mistake.
/// Checks a query alone (see `parser::parse_query`): the kind of the
/// elements it yields, or its first mistake.
pub fn check_query(query: &Query, known: &[Variable]) -> Result<ElementKind> {
    let mut checker = Checker {
        scope: known.to_vec(),
        elements: Vec::new(),
    };
    checker.query(query, None)
}

pub fn check(script: &Script, known: &[Variable]) -> Result<Vec<Variable>> {
    let mut checker = Checker {
        scope: known.to_vec(),
        elements: Vec::new(),
    };
    for statement in &script.statements {
        checker.statement(statement)?;
    }
    Ok(checker.scope.split_off(known.len()))
}

struct Checker {
    /// Variables in scope, innermost last (a later one shadows).
    scope: Vec<Variable>,
    /// The kinds of the elements the enclosing `foreach`/`use` visit,
    /// innermost last.
    elements: Vec<ElementKind>,
}

type Result<T> = std::result::Result<T, ScriptError>;

impl Checker {
    fn statement(&mut self, statement: &Statement) -> Result<()> {
        match &statement.kind {
            StatementKind::Foreach {
                binding,
                query,
                body,
            } => {
                let kind = self.query(query, binding.as_ref())?;
                let mark = self.scope.len();
                self.scope.extend(captures(query));
                if let Some(var) = binding {
                    self.scope.push((var.name.clone(), kind));
                }
                self.elements.push(kind);
                let checked = self.statement(body);
                self.elements.pop();
                self.scope.truncate(mark);
                checked
            }
            StatementKind::If {
                condition,
                then,
                otherwise,
            } => {
                self.condition(condition)?;
                self.statement(then)?;
                match otherwise {
                    Some(otherwise) => self.statement(otherwise),
                    None => Ok(()),
                }
            }
            StatementKind::Let { var, query } => {
                let kind = self.query(query, None)?;
                self.scope.push((var.name.clone(), kind));
                Ok(())
            }
            StatementKind::Use { var, body } => {
                let kind = self.lookup(var)?;
                self.elements.push(kind);
                let checked = self.statement(body);
                self.elements.pop();
                checked
            }
            StatementKind::Block(block) => self.block(block),
            StatementKind::Try { body, catch } => {
                self.block(body)?;
                self.block(catch)
            }
            StatementKind::Action(action) => self.action(action),
            StatementKind::OnError(_)
            | StatementKind::StorePosition { .. }
            | StatementKind::PushContext
            | StatementKind::PopContext
            | StatementKind::Collect { .. }
            | StatementKind::PreviewChangeset { .. }
            | StatementKind::ApplyChangeset { .. }
            | StatementKind::RollbackChangeset { .. }
            | StatementKind::RollbackAll => Ok(()),
        }
    }

    /// A block's `let`s end with it.
    fn block(&mut self, block: &Block) -> Result<()> {
        let mark = self.scope.len();
        let checked = block.statements.iter().try_for_each(|s| self.statement(s));
        self.scope.truncate(mark);
        checked
    }

    /// The kind of the elements a query yields; `binding` (`foreach $m
    /// in …`) names each in the query's own `where`.
    fn query(&mut self, query: &Query, binding: Option<&Var>) -> Result<ElementKind> {
        use ElementKind::*;
        let kind = match &query.source {
            Source::Callers(subject) | Source::Calls(subject) => {
                self.subject(subject, &[Function, Method, Class], "a function")?;
                Call
            }
            Source::Methods(subject) => {
                self.subject(subject, &[Class], "a class")?;
                Method
            }
            Source::ClassesImplementing(subject) => {
                self.subject(subject, &[Class], "a class")?;
                Class
            }
            Source::Functions(_) => Function,
            Source::Classes(_) => Class,
            Source::Files { .. } => File,
            Source::Lines { .. } => Line,
            Source::Symbols(_) => Symbol,
            Source::Imports => Import,
            Source::Variable(var) => self.lookup(var)?,
            Source::Match(_) => Match,
        };
        if let Some(filter) = &query.filter {
            let mark = self.scope.len();
            self.scope.extend(captures(query));
            if let Some(var) = binding {
                self.scope.push((var.name.clone(), kind));
            }
            self.elements.push(kind);
            let checked = self.condition(filter);
            self.elements.pop();
            self.scope.truncate(mark);
            checked?;
        }
        Ok(kind)
    }

    fn subject(&self, subject: &Subject, allowed: &[ElementKind], what: &str) -> Result<()> {
        let Subject::Var(var) = subject else {
            return Ok(());
        };
        let kind = self.lookup(var)?;
        if allowed.contains(&kind) {
            return Ok(());
        }
        Err(ScriptError::new(
            ScriptErrorKind::WrongContext,
            var.span,
            format!("{var} holds {}; expected {what} here", kind.plural()),
        ))
    }

    fn lookup(&self, var: &Var) -> Result<ElementKind> {
        if let Some((_, kind)) = self.scope.iter().rev().find(|(name, _)| *name == var.name) {
            return Ok(*kind);
        }
        let mut defined: Vec<String> = Vec::new();
        for (name, _) in self.scope.iter().rev() {
            let shown = format!("${name}");
            if !defined.contains(&shown) {
                defined.push(shown);
            }
        }
        let close = choices::closest(&format!("${}", var.name), &defined, 3);
        let mut message = format!(
            "undefined variable {var}; expected a variable defined before it (let {var} = <query>, or foreach {var} in …)"
        );
        if !defined.is_empty() {
            message.push_str(&format!("; defined here: {}", defined.join(", ")));
        }
        if let Some(best) = close.first() {
            message.push_str(&format!("; did you mean '{best}'?"));
        }
        let mut candidates = close.clone();
        candidates.extend(defined.into_iter().filter(|d| !close.contains(d)));
        Err(ScriptError {
            kind: ScriptErrorKind::UndefinedVariable,
            span: var.span,
            message,
            candidates,
        })
    }

    fn condition(&self, condition: &Condition) -> Result<()> {
        match &condition.kind {
            ConditionKind::And(a, b) | ConditionKind::Or(a, b) => {
                self.condition(a)?;
                self.condition(b)
            }
            ConditionKind::Not(a) => self.condition(a),
            ConditionKind::Measure { metric, .. } => self.applies(metric.word(), condition.span),
            ConditionKind::HasAnnotation(_) => self.applies("has_annotation", condition.span),
            ConditionKind::Imports(_) => self.applies("imports", condition.span),
            ConditionKind::Unused => self.applies("unused", condition.span),
            ConditionKind::Contains(text) => self.expr(text),
            ConditionKind::Test { attribute, test } => {
                self.attribute(attribute)?;
                match test {
                    Test::Contains(value) | Test::Compare(_, value) => self.expr(value),
                    Test::Is { .. } => Ok(()),
                }
            }
        }
    }

    /// The current element's kind, where an enclosing iteration says it.
    fn current(&self) -> Option<ElementKind> {
        self.elements.last().copied()
    }

    /// Whether the condition `word` applies to the current element.
    fn applies(&self, word: &str, span: Span) -> Result<()> {
        let (Some(kind), Some(kinds)) = (self.current(), words::condition_applies_to(word)) else {
            return Ok(());
        };
        if kinds.contains(&kind) {
            return Ok(());
        }
        let valid: Vec<&str> = kinds.iter().map(|k| k.plural()).collect();
        Err(ScriptError::new(
            ScriptErrorKind::WrongContext,
            span,
            format!(
                "{word} applies to {}; the elements here are {}",
                valid.join(", "),
                kind.plural()
            ),
        ))
    }

    fn attribute(&self, attribute: &Attribute) -> Result<()> {
        let kind = match &attribute.object {
            Object::Var(var) => self.lookup(var)?,
            Object::Element(kind) => {
                let iterated = self.elements.is_empty() || self.elements.contains(kind);
                if *kind != ElementKind::File && !iterated {
                    let here: Vec<&str> = self.elements.iter().map(|k| k.plural()).collect();
                    return Err(ScriptError::new(
                        ScriptErrorKind::WrongContext,
                        attribute.span,
                        format!(
                            "'{attribute}' names the current {}, but no enclosing foreach visits {}; expected an element visited here ({}) or a $variable",
                            kind.word(),
                            kind.plural(),
                            here.join(", ")
                        ),
                    ));
                }
                *kind
            }
        };
        if attribute.path.is_empty() {
            return Ok(());
        }
        let asked = attribute.path.join(".");
        if kind.attributes().contains(&asked.as_str()) {
            return Ok(());
        }
        Err(ScriptError::unknown(
            attribute.span,
            &format!("{} attribute", kind.word()),
            &asked,
            kind.attributes(),
        ))
    }

    fn expr(&self, expr: &Expr) -> Result<()> {
        match &expr.kind {
            ExprKind::Attribute(attribute) => self.attribute(attribute),
            ExprKind::Concat(parts) => parts.iter().try_for_each(|p| self.expr(p)),
            ExprKind::Str(_) | ExprKind::Number(_) | ExprKind::Name(_) => Ok(()),
        }
    }

    fn action(&self, action: &Action) -> Result<()> {
        match &action.kind {
            ActionKind::ReplaceWith(replacement) => self.replacement(replacement),
            ActionKind::Replace {
                pattern,
                replacement,
            } => {
                if let (Pattern::Match(code), Replacement::Template(template)) =
                    (pattern, replacement)
                {
                    // the template may use the pattern's own metavariables
                    let own = metavariables(code);
                    return self.template(template, &own);
                }
                // a call pattern's calls give $1 … to the replacement
                let matches_calls = match pattern {
                    Pattern::Code(code) => code.arguments.is_some(),
                    Pattern::Match(_) => true,
                    Pattern::Text(_) => false,
                };
                if matches_calls && matches!(replacement, Replacement::Code(_)) {
                    return Ok(());
                }
                if let Pattern::Code(code) = pattern {
                    if code.has_placeholders() {
                        return Err(ScriptError::new(
                            ScriptErrorKind::WrongContext,
                            code.span,
                            "$1, $name and $* stand for a matched call's arguments in the replacement; expected code without them in what to replace, as f()",
                        ));
                    }
                }
                self.replacement(replacement)
            }
            ActionKind::Flag(text) | ActionKind::AddLine(text) => self.expr(text),
            ActionKind::Refactor { arguments, .. } => {
                arguments.iter().try_for_each(|a| self.expr(a))
            }
            ActionKind::RemoveImport => match self.current() {
                Some(kind) if kind != ElementKind::Import => Err(ScriptError::new(
                    ScriptErrorKind::WrongContext,
                    action.span,
                    format!(
                        "remove import removes the import being visited; the elements here are {} (expected foreach import where … {{ remove import }})",
                        kind.plural()
                    ),
                )),
                _ => Ok(()),
            },
            ActionKind::Suggest(_)
            | ActionKind::Remove
            | ActionKind::AddImport(_)
            | ActionKind::Command(_) => Ok(()),
        }
    }

    /// A template's `$a` are metavariables of a pattern: `own` (the
    /// `replace` pattern's) or a `foreach match`'s in scope.
    fn template(&self, template: &Code, own: &[String]) -> Result<()> {
        let names = crate::analysis::pattern::template_names(&template.text).unwrap_or_default();
        for name in names.iter().filter(|n| !own.contains(n)) {
            let var = Var {
                name: name.clone(),
                span: template.span,
            };
            let kind = self.lookup(&var)?;
            if kind != ElementKind::Capture {
                return Err(ScriptError::new(
                    ScriptErrorKind::WrongContext,
                    template.span,
                    format!(
                        "{var} holds {}; in code between backticks $a is a metavariable of a pattern (foreach match `…`, or replace `…` with `…`)",
                        kind.plural()
                    ),
                ));
            }
        }
        Ok(())
    }

    fn replacement(&self, replacement: &Replacement) -> Result<()> {
        match replacement {
            Replacement::Template(template) => self.template(template, &[]),
            Replacement::Text(text) => self.expr(text),
            Replacement::Code(code) => match self.current() {
                Some(kind) if kind != ElementKind::Call && code.has_placeholders() => {
                    Err(ScriptError::new(
                        ScriptErrorKind::WrongContext,
                        code.span,
                        format!(
                            "$1, $name and $* are the arguments of a matched call; the elements here are {} (expected foreach caller of …/call to …)",
                            kind.plural()
                        ),
                    ))
                }
                _ => Ok(()),
            },
        }
    }
}

/// A pattern's metavariables (none when it does not parse: the parser
/// refused that already).
fn metavariables(code: &Code) -> Vec<String> {
    crate::analysis::pattern::CodePattern::parse(&code.text)
        .map(|p| p.names().to_vec())
        .unwrap_or_default()
}

/// The variables a `foreach match` binds for each match: its
/// metavariables.
fn captures(query: &Query) -> Vec<Variable> {
    match &query.source {
        Source::Match(code) => metavariables(code)
            .into_iter()
            .map(|name| (name, ElementKind::Capture))
            .collect(),
        _ => Vec::new(),
    }
}
