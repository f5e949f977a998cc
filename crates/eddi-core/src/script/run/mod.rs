//! The interpreter: a checked [`Script`] run against a [`Project`] (the
//! files the sender may read, the index), statement by statement, on an
//! evolving [`Snapshot`]. Nothing is written here: the result is one
//! [`WorkspaceChange`] and a [`ScriptReport`], which the engine commits
//! through the one applier as one undo step, or keeps as a named
//! changeset (`collect changes as`).
//!
//! - [`query`]: queries to elements (through the index for calls and
//!   subclasses), sorted by path and place.
//! - [`condition`]: `where`/`if` conditions and expressions.
//! - [`action`]: each action as edits of the snapshot.
//! - [`snapshot`]: the texts, the edits with their statements, conflicts.
//! - [`parsed`]: a file as the Python wing reads it, once per version.
//! - [`element`], [`report`]: the data in and out.
//! - [`select`]: a query alone, its elements as data (the Python API).
//!
//! Errors: a failure is the statement that failed (its `line:col`), the
//! element being processed and why. `try`/`catch`, `on_error` and
//! `rollback all` decide what a failure does (see `docs/SCRIPTING.md`).

pub mod action;
mod called;
pub mod condition;
pub mod cursor;
pub mod element;
mod matching;
pub mod parsed;
pub mod query;
pub mod report;
pub mod select;
pub mod snapshot;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use ropey::Rope;

use crate::change::{Base, WorkspaceChange};
use crate::edit::Position;
use crate::failure::{ErrorKind, OpError};
use crate::refactor::Refactoring;
use crate::workspace::WorkspacePath;

use super::ast::*;
pub use cursor::{Commanded, Place};
pub use element::{Detail, Element};
pub use parsed::Parsed;
pub use report::{Count, Flagged, ScriptReport, Verb};
pub use select::{select, select_each, Answer, Before, Selected, Selections};
pub use snapshot::Snapshot;

/// What a script reads of the project; the engine implements it over the
/// workspace, the sender's permissions and the index.
pub trait Project {
    /// The code files the sender may read (every language whose symbols
    /// Eddi reads: Python, JavaScript, TypeScript, Go, Rust, Java),
    /// workspace paths, sorted.
    fn files(&self) -> std::result::Result<Vec<String>, OpError>;
    /// A file's text and the base a change of it is computed against;
    /// refused when the sender has unsaved edits in it.
    fn read(&self, path: &str) -> std::result::Result<(WorkspacePath, Base, Rope), OpError>;
    /// The module name of a file, as the index knows it.
    fn module_of(&self, path: &str) -> Option<String>;
    /// The calls of a function, method or class as the index resolves
    /// them in the files on disk (in file `only`, when given): proven, and
    /// possible (the index can neither prove nor exclude them). `name` is
    /// Python's index's, or, when that index has no such name, the brace
    /// languages' index's; `defined_in`, the file of the definition a
    /// script holds, picks the index of its language and that file's
    /// definition among same-named ones.
    fn calls_of(
        &self,
        name: &str,
        defined_in: Option<&str>,
        only: Option<&str>,
    ) -> std::result::Result<Calls, OpError>;
    /// The classes deriving from a class, transitively: (path, position
    /// of the `class` keyword).
    fn subclasses_of(&self, name: &str) -> std::result::Result<Vec<(String, Position)>, OpError>;
    /// Whether anything in the project may use the definition (proven or
    /// possible uses, `__all__`, re-exports).
    fn is_used(&self, qualified_name: &str) -> std::result::Result<bool, OpError>;
    /// A refactoring's change, computed on the project with `texts` (the
    /// files the script changed so far, as it left them) in place of
    /// theirs on disk: its edits of those files are edits of those texts.
    fn refactor(
        &self,
        refactoring: &Refactoring,
        texts: &[(String, Rope)],
        place: Option<(String, Position)>,
    ) -> std::result::Result<WorkspaceChange, OpError>;
    /// The project files that import the module of `path`.
    fn importers_of(&self, path: &str) -> Vec<String>;
    /// The files of `path`'s language family (ES, Go, Rust, Java) that
    /// define `name` (a function, a class, a member, a value) as the index
    /// reads them on disk; `None` when the project cannot tell.
    fn definers_of(&self, path: &str, name: &str) -> Option<Vec<String>> {
        let _ = (path, name);
        None
    }
    /// The files of the project's module that the file at `path` (as on
    /// disk) reaches through `reach` (a Go package, an ES namespace
    /// import, a Rust path); `None` when that is no module of the project
    /// or one that holds more names than its files spell.
    fn module_reached(
        &self,
        path: &str,
        reach: &crate::analysis::index::tags::unbound::Reach,
    ) -> Option<Vec<String>> {
        let _ = (path, reach);
        None
    }
    /// Whether a file of a module (as the index read it) holds `name` for
    /// a call through the module (a definition, an export, a Rust `use`).
    fn file_holds(&self, path: &str, name: &str) -> bool {
        let _ = (path, name);
        true
    }
    /// The sender's current file and cursor, for statements outside any
    /// `foreach`.
    fn cursor(&self) -> Option<(String, Position)>;
    /// A session bookmark of the sender: its file and chars offset (in
    /// the file as on disk), for `goto <name>` when the script stored none.
    fn bookmark(&self, _name: &str) -> Option<(String, usize)> {
        None
    }
    /// `preview [diff] changeset <name>` inside a script: its answer.
    fn preview_changeset(&self, name: &str, _diff: bool) -> std::result::Result<String, OpError> {
        Err(OpError::new(
            ErrorKind::NotFound,
            format!("No changeset '{name}' in this project"),
        ))
    }
    /// A phase-1 command (`Insert`, `Goto`, `Show`, …) run as on an open
    /// buffer holding `place`'s text, at its cursor (see [`cursor`]).
    fn command(
        &self,
        command: &crate::commands::Command,
        _place: &Place,
    ) -> std::result::Result<Commanded, OpError> {
        Err(cursor::no_editor(command))
    }
    /// How far the script is (files read, elements of its outermost
    /// `foreach` done), for whoever watches the sender.
    fn progress(&self, _progress: &crate::progress::Progress) {}
    /// A file as read (`base`, `text`: what `read` gave), parsed; a project
    /// may keep it for the next script or query that reads the same text.
    fn parsed(&self, path: &str, base: &Base, text: &Rope) -> Option<Arc<Parsed>> {
        let _ = base;
        Parsed::new(path, text.clone()).map(Arc::new)
    }
    /// Many files as read, parsed (in parallel where the project can).
    fn parsed_many(&self, files: Vec<(String, Base, Rope)>) -> Vec<Option<Arc<Parsed>>> {
        use rayon::prelude::*;
        files
            .into_par_iter()
            .map(|(path, _, text)| Parsed::new(&path, text).map(Arc::new))
            .collect()
    }
}

/// Call sites: (path, position of the callee's name).
#[derive(Debug, Clone, Default)]
pub struct Calls {
    /// Every proven call (none when some are only possible: the query is
    /// refused then).
    pub proven: Vec<(String, Position)>,
    /// How many calls the index can neither prove nor exclude.
    pub possible: usize,
    /// The first [`Calls::NAMED`] of them, which a refusal names.
    pub possible_named: Vec<(String, Position)>,
}

impl Calls {
    /// How many possible calls a refusal names.
    pub const NAMED: usize = 10;
}

/// A variable a script's top level defines, kept for the session's next
/// messages: its name, the kind of its elements and its query as written
/// (run again where a later message uses it, on the files as they are
/// then).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Defined {
    pub name: String,
    pub kind: String,
    pub query: String,
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct Ran {
    pub change: WorkspaceChange,
    pub report: ScriptReport,
    pub defined: Vec<Defined>,
}

/// Why a statement failed: where, and why.
#[derive(Debug, Clone)]
pub struct Failed {
    pub at: Span,
    pub error: OpError,
    /// Raised under `on_error stop`: what ran before it is kept.
    pub stop: bool,
    /// The message names the element being processed already.
    pub named: bool,
}

impl Failed {
    fn new(at: Span, kind: ErrorKind, message: impl Into<String>) -> Failed {
        Failed {
            at,
            error: OpError::new(kind, message),
            stop: false,
            named: false,
        }
    }

    /// A failure whose message names the element it is about.
    fn named(at: Span, kind: ErrorKind, message: impl Into<String>) -> Failed {
        Failed {
            named: true,
            ..Failed::new(at, kind, message)
        }
    }

    /// The error as the reply gives it: `line:col: message`.
    pub fn into_error(self) -> OpError {
        OpError {
            message: format!("{}: {}", self.at, self.error.message),
            ..self.error
        }
    }
}

type Result<T> = std::result::Result<T, Failed>;

/// Runs `script` (checked) on `project`; `earlier` are the variables
/// earlier messages defined; `source` is the script's text.
pub fn run(
    script: &Script,
    source: &str,
    earlier: &[Defined],
    project: &dyn Project,
) -> std::result::Result<Ran, OpError> {
    unsupported(script).map_err(Failed::into_error)?;
    let mut interpreter = Interpreter::new(project, source, earlier);
    let mut stopped = None;
    for statement in &script.statements {
        match interpreter.statement(statement, true) {
            Ok(()) => {}
            Err(failed) if failed.stop => {
                stopped = Some(failed);
                break;
            }
            Err(failed) => return Err(failed.into_error()),
        }
    }
    interpreter.no_new_problems()?;
    let mut report = interpreter.report;
    report.stopped = stopped.map(|f| f.into_error().message);
    report.files = interpreter
        .snapshot
        .changed()
        .iter()
        .map(|doc| doc.path.as_str().to_owned())
        .collect();
    Ok(Ran {
        change: interpreter.snapshot.change(),
        report,
        defined: interpreter.defined,
    })
}

/// The statements that do not run inside this script, refused before
/// anything runs (never answered `Ok`): `apply`/`rollback changeset`
/// among other statements, and the phase-1 commands that do not fit a
/// script (`cursor::refusal`).
fn unsupported(script: &Script) -> Result<()> {
    fn walk(statement: &Statement, top: bool, alone: bool) -> Result<()> {
        match &statement.kind {
            StatementKind::Foreach { body, .. } | StatementKind::Use { body, .. } => {
                walk(body, false, false)
            }
            StatementKind::If {
                then, otherwise, ..
            } => {
                walk(then, false, false)?;
                otherwise.as_ref().map_or(Ok(()), |o| walk(o, false, false))
            }
            StatementKind::Block(block) => block
                .statements
                .iter()
                .try_for_each(|s| walk(s, top, false)),
            StatementKind::Try { body, catch } => body
                .statements
                .iter()
                .chain(&catch.statements)
                .try_for_each(|s| walk(s, false, false)),
            StatementKind::ApplyChangeset { .. } | StatementKind::RollbackChangeset { .. }
                if !(top && alone) =>
            {
                Err(Failed::new(
                    statement.span,
                    ErrorKind::NotApplicable,
                    "apply and rollback changeset run as a message of their own: a changeset is applied as its own undo step, so that rollback changeset restores exactly what it changed",
                ))
            }
            StatementKind::Action(action) => match &action.kind {
                ActionKind::Command(crate::commands::Command::Refactor(_)) => Ok(()),
                ActionKind::Command(command) => match cursor::refusal(command) {
                    None => Ok(()),
                    Some(why) => Err(Failed::new(
                        statement.span,
                        ErrorKind::NotApplicable,
                        format!("'{command}' does not run inside a script: {why}"),
                    )),
                },
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }
    let alone = script.statements.len() == 1;
    script
        .statements
        .iter()
        .try_for_each(|s| walk(s, true, alone))
}

pub(super) struct Interpreter<'p> {
    project: &'p dyn Project,
    source: &'p str,
    snapshot: Snapshot,
    /// Each file parsed at a version of its text.
    parsed: HashMap<String, (usize, Arc<Parsed>)>,
    /// Variables, innermost block last.
    scopes: Vec<Vec<(String, Rc<Vec<Element>>)>>,
    /// The elements the enclosing `foreach`/`use` visit, innermost last.
    current: Vec<Element>,
    policy: ErrorPolicy,
    report: ScriptReport,
    defined: Vec<Defined>,
    earlier: &'p [Defined],
    /// The importers of each module asked about, once.
    importers: HashMap<String, Vec<String>>,
    /// How many `foreach`/`use` are running (progress is the outermost's).
    depth: usize,
    /// Where phase-1 commands work; stored positions; contexts.
    cursor: cursor::Cursor,
}

/// The syntax errors a non-Python file has now that it did not have when
/// read (none when it had some already: code is not made worse silently,
/// but an invalid file may be edited).
fn new_syntax_errors(
    language: Option<&'static dyn crate::language::Language>,
    path: &str,
    before: &Rope,
    after: &Rope,
) -> Vec<String> {
    let Some((language, check)) = language.and_then(|l| Some((l, l.syntax_check()?))) else {
        return Vec::new();
    };
    let errors = |text: &Rope| {
        crate::analysis::syntax::SyntaxTree::parse_language(language, text)
            .map(|tree| check(text, &tree))
            .unwrap_or_default()
    };
    let now = errors(after);
    if now.is_empty() || !errors(before).is_empty() {
        return Vec::new();
    }
    now.iter()
        .map(|e| {
            format!(
                "{path}:{}: a {} syntax error ({})",
                e.position.line + 1,
                language.name(),
                e.message
            )
        })
        .collect()
}

impl<'p> Interpreter<'p> {
    fn new(project: &'p dyn Project, source: &'p str, earlier: &'p [Defined]) -> Self {
        Interpreter {
            project,
            source,
            snapshot: Snapshot::default(),
            parsed: HashMap::new(),
            scopes: vec![Vec::new()],
            current: Vec::new(),
            policy: ErrorPolicy::Rollback,
            report: ScriptReport::default(),
            defined: Vec::new(),
            earlier,
            importers: HashMap::new(),
            depth: 0,
            cursor: cursor::Cursor::default(),
        }
    }
}

impl Interpreter<'_> {
    fn statement(&mut self, statement: &Statement, top: bool) -> Result<()> {
        match &statement.kind {
            StatementKind::Foreach {
                binding,
                query,
                body,
            } => {
                let elements = self.query(query, binding.as_ref())?;
                self.each(&elements, binding.as_ref(), body)
            }
            StatementKind::Use { var, body } => {
                // inside, `$var` is the element visited (`use $ms flag $ms.name`)
                let elements = self.variable(var)?;
                self.each(&elements, Some(var), body)
            }
            StatementKind::If {
                condition,
                then,
                otherwise,
            } => {
                let element = self.here(statement.span)?;
                let pushed = self.current.last() != Some(&element);
                if pushed {
                    self.current.push(element.clone());
                }
                let holds = self.condition(condition, &element);
                let ran = match holds {
                    Ok(true) => self.statement(then, false),
                    Ok(false) => match otherwise {
                        Some(otherwise) => self.statement(otherwise, false),
                        None => Ok(()),
                    },
                    Err(e) => Err(e),
                };
                if pushed {
                    self.current.pop();
                }
                ran
            }
            StatementKind::Let { var, query } => {
                let elements = self.query(query, None)?;
                if top {
                    let text: String = self
                        .source
                        .chars()
                        .skip(query.span.start)
                        .take(query.span.end - query.span.start)
                        .collect();
                    let kind = elements
                        .first()
                        .map(|e| e.kind)
                        .unwrap_or_else(|| query::kind_of(&query.source, self));
                    self.defined.retain(|d| d.name != var.name);
                    self.defined.push(Defined {
                        name: var.name.clone(),
                        kind: kind.word().to_owned(),
                        query: text,
                    });
                }
                if top {
                    let kind = elements.first().map_or("element", |e| e.kind.word());
                    self.report
                        .bound
                        .push((var.name.clone(), elements.len(), kind.to_owned()));
                }
                self.bind(&var.name, elements);
                Ok(())
            }
            StatementKind::Block(block) => self.block(block, top),
            StatementKind::Try { body, catch } => {
                let snapshot = self.snapshot.clone();
                let report = self.report.clone();
                match self.block(body, false) {
                    Ok(()) => Ok(()),
                    Err(failed) if failed.stop => Err(failed),
                    Err(failed) => {
                        self.snapshot.restore(&snapshot);
                        self.report = report;
                        self.report.caught.push(failed.into_error().message);
                        self.block(catch, false)
                    }
                }
            }
            StatementKind::OnError(policy) => {
                self.policy = *policy;
                Ok(())
            }
            StatementKind::Collect { name } => {
                if let Some(other) = &self.report.collected {
                    if *other != name.text {
                        return Err(Failed::new(
                            statement.span,
                            ErrorKind::InvalidArgument,
                            format!("the script already collects its changes as '{other}'; a script collects into one changeset"),
                        ));
                    }
                }
                self.report.collected = Some(name.text.clone());
                Ok(())
            }
            StatementKind::RollbackAll => {
                self.snapshot.restore(&Snapshot::default());
                let caught = std::mem::take(&mut self.report.caught);
                let collected = self.report.collected.take();
                self.report = ScriptReport {
                    caught,
                    collected,
                    rolled_back: true,
                    ..ScriptReport::default()
                };
                Ok(())
            }
            StatementKind::Action(action) => self.action(action, statement.span),
            StatementKind::StorePosition { name } => {
                self.store_position(&name.text, None, statement.span)
            }
            StatementKind::PushContext => self.push_context(statement.span),
            StatementKind::PopContext => self.pop_context(statement.span),
            StatementKind::PreviewChangeset { name, diff } => {
                let answer = self
                    .project
                    .preview_changeset(&name.text, *diff)
                    .map_err(Self::fail(statement.span))?;
                let diff = if *diff { "diff " } else { "" };
                self.report.answers.push(format!(
                    "{}: preview {diff}changeset {}: {answer}",
                    statement.span, name.text
                ));
                Ok(())
            }
            // refused before the run (see `unsupported`), or run by the
            // engine as a message of their own
            StatementKind::ApplyChangeset { .. } | StatementKind::RollbackChangeset { .. } => {
                Err(Failed::new(
                    statement.span,
                    ErrorKind::NotApplicable,
                    "this statement runs as a message of its own",
                ))
            }
        }
    }

    fn block(&mut self, block: &Block, top: bool) -> Result<()> {
        self.scopes.push(Vec::new());
        let ran = block
            .statements
            .iter()
            .try_for_each(|s| self.statement(s, top));
        self.scopes.pop();
        ran
    }

    /// The body once per element, as `on_error` says for a failing one.
    fn each(
        &mut self,
        elements: &[Element],
        binding: Option<&Var>,
        body: &Statement,
    ) -> Result<()> {
        self.depth += 1;
        // each element puts the cursor at its start; after, it is back
        let before = self.cursor.here.clone();
        let ran = self.each_element(elements, binding, body);
        self.cursor.here = before;
        self.depth -= 1;
        ran
    }

    fn each_element(
        &mut self,
        elements: &[Element],
        binding: Option<&Var>,
        body: &Statement,
    ) -> Result<()> {
        let outermost = self.depth == 1;
        for (done, element) in elements.iter().enumerate() {
            if outermost {
                self.project.progress(&crate::progress::Progress {
                    stage: format!("foreach {}", element.kind.word()),
                    done,
                    total: elements.len(),
                });
            }
            let before = (self.policy == ErrorPolicy::Continue).then(|| self.snapshot.clone());
            self.current.push(element.clone());
            if let Ok(span) =
                self.snapshot
                    .map(&element.path, element.version, element.span.clone())
            {
                self.put_cursor(&element.path, span.start);
            }
            // a match's metavariables, then the binding, for the body
            let mut bound = Self::capture_scope(element);
            if let Some(var) = binding {
                bound.push((var.name.clone(), Rc::new(vec![element.clone()])));
            }
            self.scopes.push(bound);
            let ran = self.statement(body, false);
            self.scopes.pop();
            self.current.pop();
            if let Err(mut failed) = ran {
                if !failed.stop && !failed.named {
                    failed.error.message =
                        format!("{} (at {})", failed.error.message, element.describe());
                }
                match self.policy {
                    ErrorPolicy::Continue => {
                        if let Some(before) = before {
                            self.snapshot.restore(&before);
                        }
                        self.report.failed.push(failed.into_error().message);
                    }
                    ErrorPolicy::Stop => {
                        failed.stop = true;
                        return Err(failed);
                    }
                    ErrorPolicy::Rollback => return Err(failed),
                }
            }
        }
        if outermost && !elements.is_empty() {
            self.project.progress(&crate::progress::Progress {
                stage: format!("foreach {}", elements[0].kind.word()),
                done: elements.len(),
                total: elements.len(),
            });
        }
        Ok(())
    }

    fn bind(&mut self, name: &str, elements: Vec<Element>) {
        let scope = self.scopes.last_mut().expect("a scope is always open");
        scope.retain(|(n, _)| n != name);
        scope.push((name.to_owned(), Rc::new(elements)));
    }

    /// The elements a variable holds: this script's, else an earlier
    /// message's query run again now.
    fn variable(&mut self, var: &Var) -> Result<Rc<Vec<Element>>> {
        for scope in self.scopes.iter().rev() {
            if let Some((_, elements)) = scope.iter().rev().find(|(n, _)| *n == var.name) {
                return Ok(elements.clone());
            }
        }
        let Some(defined) = self.earlier.iter().rev().find(|d| d.name == var.name) else {
            return Err(Failed::new(
                var.span,
                ErrorKind::NotFound,
                format!("undefined variable {var}"),
            ));
        };
        let text = format!("let ${} = {}", defined.name, defined.query);
        let script = super::parse_script(&text).map_err(|e| {
            Failed::new(
                var.span,
                ErrorKind::Internal,
                format!(
                    "{var} was defined as '{}', which no longer reads: {e}",
                    defined.query
                ),
            )
        })?;
        let Some(StatementKind::Let { query, .. }) = script.statements.first().map(|s| &s.kind)
        else {
            return Err(Failed::new(var.span, ErrorKind::Internal, "not a let"));
        };
        let elements = self.query(query, None).map_err(|mut failed| {
            failed.at = var.span;
            failed
        })?;
        self.scopes[0].push((var.name.clone(), Rc::new(elements)));
        self.variable(var)
    }

    /// The element a statement outside any `foreach` works on: the
    /// innermost enclosing one, else the one at the sender's cursor — an
    /// import on its line, else the innermost function, method or class
    /// around it, else its file.
    fn here(&mut self, at: Span) -> Result<Element> {
        if let Some(element) = self.current.last() {
            return Ok(element.clone());
        }
        let Some((path, offset)) = self.cursor_now(at)? else {
            return Err(Failed::new(
                at,
                ErrorKind::NotApplicable,
                "no element here: outside a foreach a statement works on the element at the cursor, and no file is open (Open one, or write foreach <query> …)",
            ));
        };
        let text = self.doc_text(&path).map_err(Self::fail(at))?;
        let position = crate::edit::position::from_char(&text, offset);
        query::at_cursor(self, &path, position).map_err(|e| Failed {
            at,
            error: e,
            stop: false,
            named: false,
        })
    }

    /// Refuses a result that would break a file: a syntax error, or a
    /// name no scope defines, that the file did not have before the script
    /// (what a script writes must run as the code did).
    fn no_new_problems(&mut self) -> std::result::Result<(), OpError> {
        use crate::analysis::issues::IssueKind;
        let changed: Vec<(String, Rope, Rope)> = self
            .snapshot
            .changed()
            .iter()
            .map(|d| {
                (
                    d.path.as_str().to_owned(),
                    d.original.clone(),
                    d.text.clone(),
                )
            })
            .collect();
        let mut problems = Vec::new();
        let mut brace_files = Vec::new();
        for (path, before, after) in changed {
            let language = crate::language::language_of(&path);
            if language.is_none_or(|l| l.id() != "python") {
                // a phase-1 command may edit any file: its language's own
                // syntax check, where it has one (none for plain text)
                let broken = new_syntax_errors(language, &path, &before, &after);
                if broken.is_empty() && language.is_some() {
                    brace_files.push((path, before, after));
                }
                problems.extend(broken);
                continue;
            }
            let problems_of = |text: Rope| -> Vec<(IssueKind, String, Position)> {
                Parsed::new(&path, text)
                    .map(|p| p.problems())
                    .unwrap_or_default()
            };
            let had: Vec<(IssueKind, String)> = problems_of(before)
                .into_iter()
                .map(|(kind, name, _)| (kind, name))
                .collect();
            for (kind, name, at) in problems_of(after) {
                if had.contains(&(kind, name.clone())) {
                    continue;
                }
                problems.push(match kind {
                    IssueKind::SyntaxError => format!("{path}:{}: a syntax error ({name})", at.line + 1),
                    _ => format!("{path}:{}: '{name}' is not defined (add import … to the script, or change the replacement)", at.line + 1),
                });
            }
        }
        problems.extend(called::new_calls_of_nothing(self.project, brace_files));
        if problems.is_empty() {
            return Ok(());
        }
        let shown: Vec<&String> = problems.iter().take(10).collect();
        Err(OpError::new(
            ErrorKind::NotApplicable,
            format!(
                "The script would break {} place(s), so nothing was written: {}{}",
                problems.len(),
                shown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
                if problems.len() > 10 { "; …" } else { "" }
            ),
        ))
    }

    /// Fails unless `path` is a Python file: what reads imports, scopes,
    /// calls and code patterns reads Python's (a script reads the
    /// functions, classes, methods, lines and text of every language).
    pub(super) fn python_code(&self, path: &str, what: &str) -> std::result::Result<(), OpError> {
        match crate::language::language_of(path) {
            Some(language) if language.id() != "python" => Err(OpError::new(
                ErrorKind::NotApplicable,
                format!(
                    "{what} reads Python code; {path} is {}: a script reads its functions, classes, methods, lines and text",
                    language.name()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The files a project-wide query of Python code looks in (`import`,
    /// `match`), or the one file a scoped query names, which must be one.
    pub(super) fn python_files(
        &self,
        files: Vec<String>,
        project_wide: bool,
        what: &str,
    ) -> std::result::Result<Vec<String>, OpError> {
        if project_wide {
            return Ok(files
                .into_iter()
                .filter(|path| self.python_code(path, what).is_ok())
                .collect());
        }
        for path in &files {
            self.python_code(path, what)?;
        }
        Ok(files)
    }

    /// The file's text now, read into the snapshot on first use.
    fn doc_text(&mut self, path: &str) -> std::result::Result<Rope, OpError> {
        if let Some(doc) = self.snapshot.get(path) {
            return Ok(doc.text.clone());
        }
        let (resolved, base, text) = self.project.read(path)?;
        self.snapshot.insert(resolved, base, text.clone());
        Ok(text)
    }

    /// The file parsed at its version now: as the project keeps it while
    /// the script has not changed it, else parsed here.
    fn parse(&mut self, path: &str) -> std::result::Result<Arc<Parsed>, OpError> {
        let text = self.doc_text(path)?;
        let version = self.snapshot.get(path).map_or(0, |d| d.version());
        if let Some((at, parsed)) = self.parsed.get(path) {
            if *at == version {
                return Ok(parsed.clone());
            }
        }
        let unparsable = || {
            OpError::new(
                ErrorKind::Internal,
                format!("{path} could not be parsed as Python"),
            )
        };
        let parsed = match (version, self.snapshot.get(path)) {
            (0, Some(doc)) => self.project.parsed(path, &doc.base, &text),
            _ => Parsed::new(path, text).map(Arc::new),
        }
        .ok_or_else(unparsable)?;
        self.parsed
            .insert(path.to_owned(), (version, parsed.clone()));
        Ok(parsed)
    }

    /// Parses the files not parsed at their version yet, in parallel
    /// (those the script has not changed as the project keeps them): a
    /// query over the project reads every file.
    fn parse_all(&mut self, paths: &[String]) -> std::result::Result<(), OpError> {
        use rayon::prelude::*;
        let mut as_read = Vec::new();
        let mut changed = Vec::new();
        for path in paths {
            let text = self.doc_text(path)?;
            let version = self.version(path);
            if self.parsed.get(path).is_some_and(|(at, _)| *at == version) {
                continue;
            }
            match (version, self.snapshot.get(path)) {
                (0, Some(doc)) => as_read.push((path.clone(), doc.base.clone(), text)),
                _ => changed.push((path.clone(), version, text)),
            }
        }
        // in chunks, so that the reading says how far it is
        let total = as_read.len() + changed.len();
        let mut parsed: Vec<(String, usize, Option<Arc<Parsed>>)> = Vec::with_capacity(total);
        while !as_read.is_empty() {
            let chunk: Vec<_> = as_read.drain(..as_read.len().min(256)).collect();
            let paths: Vec<String> = chunk.iter().map(|(path, _, _)| path.clone()).collect();
            let found = self.project.parsed_many(chunk);
            parsed.extend(paths.into_iter().zip(found).map(|(path, p)| (path, 0, p)));
            if total > 1 {
                self.project.progress(&crate::progress::Progress {
                    stage: "reading files".into(),
                    done: parsed.len(),
                    total,
                });
            }
        }
        parsed.extend(
            changed
                .into_par_iter()
                .map(|(path, version, text)| {
                    let parsed = Parsed::new(&path, text).map(Arc::new);
                    (path, version, parsed)
                })
                .collect::<Vec<_>>(),
        );
        for (path, version, parsed) in parsed {
            let parsed = parsed.ok_or_else(|| {
                OpError::new(
                    ErrorKind::Internal,
                    format!("{path} could not be parsed as Python"),
                )
            })?;
            self.parsed.insert(path, (version, parsed));
        }
        Ok(())
    }

    /// The files the script changed so far, as it left them.
    fn changed_texts(&self) -> Vec<(String, Rope)> {
        self.snapshot
            .changed()
            .iter()
            .map(|doc| (doc.path.as_str().to_owned(), doc.text.clone()))
            .collect()
    }

    fn version(&self, path: &str) -> usize {
        self.snapshot.get(path).map_or(0, |d| d.version())
    }

    /// The element's span in its file's text now, or the conflict.
    fn span_now(&self, element: &Element, at: Span) -> Result<std::ops::Range<usize>> {
        self.snapshot
            .map(&element.path, element.version, element.span.clone())
            .map_err(|lost| {
                let what = if lost.removed {
                    "removed or replaced it"
                } else {
                    "edited across its edge"
                };
                Failed::named(
                    at,
                    ErrorKind::Conflict,
                    format!(
                        "{} can no longer be edited: the statement at {} {what} (chars {}..{} of {} as found)",
                        element.describe(),
                        lost.by,
                        lost.span.start,
                        lost.span.end,
                        element.path
                    ),
                )
            })
    }
}
