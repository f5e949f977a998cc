//! The one door: every command runs through [`Engine::dispatch`] —
//! `Command` in, `Result<Outcome, OpError>` out — whatever its transport
//! (a NATS message, `eddi run`, an agent tool, MCP) and whatever it works
//! on (the session registry, the project, the session's buffers).
//!
//! The door owns what every command shares: the session the turn holds
//! (locked once per turn, by the caller), the `Set Limit` cap of a small
//! connection, the Notice a plain text edit that breaks a file's syntax
//! gets, the completions from the project's view ([`Completion`]), a
//! failure's pointer to the file that defines a name, and the bookkeeping
//! after a command wrote (other sessions' buffers take the write, saved
//! files are re-indexed). Nothing is added to an outcome after it leaves.
//!
//! **Invariant:** a command's events stay staged here; the turn persists
//! them once, at its end (see [`Engine::execute`]).

use crate::commands::{self, AnalysisKind, AnalyzeTarget, Command};
use crate::failure::{ErrorKind, OpError};
use crate::language::Capability;
use crate::outcome::{Fact, Outcome};
use crate::reply::Clause;
use crate::session::Event;

use super::context::{Ctx, Ran};
use super::{fit, index_blind_here, not_supported_here, target_name, Engine, Held, ReplyRoom};

impl Engine {
    /// Runs one command in the session the turn holds (`Start` and `End`
    /// change which one that is); `room` is the connection's, when it has
    /// one (`Set Limit` is capped to what it can carry).
    pub(super) fn dispatch(
        &self,
        sender: &str,
        held: &mut Option<Held>,
        command: &Command,
        room: Option<&ReplyRoom>,
    ) -> Ran {
        if let (
            Command::Set {
                option: commands::SessionOption::OutputLimit(asked),
            },
            Some(room),
        ) = (command, room)
        {
            if let Some((cap, note)) = fit::cap_limit(room, *asked) {
                let capped = Command::Set {
                    option: commands::SessionOption::OutputLimit(cap),
                };
                return Ok(self.dispatch(sender, held, &capped, None)?.with(note));
            }
        }
        use Command::*;
        match command {
            // The registry of sessions: no session needed.
            Start { name, description } => self.start(sender, name, description.as_deref(), held),
            End { name, force } => self.end(sender, name.as_deref(), *force, held),
            // Each session is read with this one unlocked.
            ListSessions => unlocked(held, || self.list_sessions()),
            ListDrafts { from } => {
                let own = held.as_ref().map(|live| live.session.name.clone());
                match from.clone().or(own) {
                    Some(owner) => self.list_drafts(&owner),
                    None => Err(OpError::new(
                        ErrorKind::NoSession,
                        "No session, so no drafts of yours: Start the session whose drafts to list (Start <name>), or name it: List Drafts From <session> (operators)",
                    )),
                }
            }
            // Another session is read with this one unlocked: a turn never
            // holds two sessions (two senders reading each other's would
            // deadlock).
            Summary { name: Some(name) }
                if held.as_ref().map(|live| &live.session.name) != Some(name) =>
            {
                unlocked(held, || self.summary_of(name))
            }
            ListChangesets => {
                let live = session(held)?;
                let sets = live
                    .session
                    .changesets
                    .iter()
                    .map(|(name, set)| {
                        let state = super::script::state_word(set.state);
                        (name.to_string(), state, set.change.touched().len())
                    })
                    .collect();
                Ok(Outcome::answer(vec![Clause::Fact(Fact::Changesets(sets))]))
            }
            Help { topic } => match commands::help::help(topic.as_deref()) {
                Ok(text) => Ok(Outcome::told(text)),
                Err(e) => Err(e.into()),
            },
            // The project: the index, the refactors, the waiting previews.
            FindSymbol { kind, symbol } => {
                let live = session(held)?;
                let asked = match kind {
                    commands::SymbolQuery::References => "Find References",
                    commands::SymbolQuery::Definition => "Find Definition",
                    commands::SymbolQuery::Callers => "Find Callers",
                };
                self.find_symbol(sender, &live.session, *kind, symbol)
                    .map(|outcome| {
                        // found in the Python files while the current file
                        // is code the index does not read: it says so first
                        match index_blind_here(&live.session, asked) {
                            Some(why) => outcome.found_elsewhere(why),
                            None => outcome,
                        }
                    })
                    .map_err(|error| {
                        // the index reads Python only: a failure while the
                        // current file is something else says so first
                        match not_supported_here(&live.session, Capability::IndexScan, asked) {
                            Some(why) if error.kind == ErrorKind::NotFound => OpError {
                                message: super::unindexed_file_first(&why, &error.message),
                                ..error
                            },
                            _ => error,
                        }
                    })
            }
            Refactor(refactoring) => {
                let live = session(held)?;
                let outcome = self.refactor_command(sender, live, refactoring);
                // One preview waits at a time: a refactor's that now waits
                // replaces a waiting replacement's.
                if live.session.pending.is_some() && live.session.pending_replace.is_some() {
                    let _ = live.session.apply(Event::PendingReplace { replace: None });
                }
                outcome
            }
            Preview { diff, refactoring } => {
                self.preview_command(sender, session(held)?, refactoring, *diff)
            }
            ReplaceInFiles {
                pattern,
                replacement,
                glob,
                preview,
                diff,
            } => {
                let request = super::replace_files::ReplaceInFiles {
                    pattern,
                    replacement,
                    glob,
                    preview: *preview,
                    diff: *diff,
                };
                self.replace_in_files_command(sender, session(held)?, &request)
            }
            Recover { path, from } => self.recover_command(session(held)?, path, from.as_deref()),
            // A waiting replacement across files, else a refactor.
            Apply | Discard => {
                let live = session(held)?;
                match (command, live.session.pending_replace.is_some()) {
                    (Apply, true) => self.apply_replacement(sender, live),
                    (Apply, false) => self.apply_command(sender, live),
                    (_, true) => self.discard_replacement(live),
                    (_, false) => self.discard_command(live),
                }
            }
            Script { text, mode } => self.script_command(sender, session(held)?, text, mode),
            // The session's own state and buffers.
            Analyze {
                target: AnalyzeTarget::File,
                kind: Some(AnalysisKind::Dependencies),
            } if current_reads_braces(held) => self.brace_dependencies(sender, held),
            Summary { .. }
            | Status
            | Set { .. }
            | PushContext
            | PopContext
            | Open { .. }
            | Save { .. }
            | SaveAll { .. }
            | Close { .. }
            | List { .. }
            | Diff { .. }
            | Goto(_)
            | Find { .. }
            | FindInFiles { .. }
            | Replace { .. }
            | Bookmark { .. }
            | Show { .. }
            | Insert { .. }
            | Delete(_)
            | Undo { .. }
            | Redo { .. }
            | Analyze { .. }
            | Validate { .. }
            | Modify { .. }
            | Comment { .. }
            | Format { .. } => self.in_session(sender, held, command, |ctx| ctx.run(command)),
        }
    }

    /// `Analyze File Dependencies` of a JavaScript, TypeScript, Go, Rust or
    /// Java file: what it imports, resolved by the project index, and the
    /// files that import it.
    fn brace_dependencies(&self, sender: &str, held: &mut Option<Held>) -> Ran {
        let live = session(held)?;
        let session = &live.session;
        let Some(path) = session.current.clone() else {
            return Err(OpError::new(ErrorKind::NotFound, "No file open"));
        };
        let imports = self
            .module_imports(sender, session, path.as_str())
            .ok_or_else(|| {
                OpError::new(
                    ErrorKind::NotFound,
                    format!("{path} is not in the project index (is it ignored by .gitignore?)"),
                )
            })?;
        let data =
            super::ops::json::data("module_imports", super::ops::json::module_imports(&imports));
        let fact = crate::outcome::CodeFact::ModuleImports {
            imports,
            limit: session.preferences.output_limit,
        };
        let mut outcome = Outcome::answer(vec![Clause::Fact(Fact::Code(Box::new(fact))), data]);
        outcome
            .completions
            .extend(self.imported_by(sender, session, path.as_str()));
        Ok(outcome)
    }

    /// Runs a command on the session's own state and buffers (`run`), then
    /// what the door does after every such command (see the module doc).
    fn in_session(
        &self,
        sender: &str,
        held: &mut Option<Held>,
        command: &Command,
        run: impl FnOnce(&mut Ctx<'_>) -> Ran,
    ) -> Ran {
        let live = session(held)?;
        // a member of a brace file: renamed alone only where the project allows
        if let Some(refused) = self.member_rename_refused(live, command) {
            return Err(refused);
        }
        // a method of a brace file: its parameters changed alone only
        // where no other method must keep them
        if let Some(refused) = self.member_signature_refused(live, command) {
            return Err(refused);
        }
        let beside = |path: &str, language, after: &ropey::Rope, element| {
            self.inserted_taken_beside(path, language, after, element)
        };
        let mut ctx =
            Ctx::new(&mut live.session, &self.workspace, Some(&self.board)).with_beside(&beside);
        // An edit of a definition says what it leaves unchanged elsewhere.
        let definition_edit = super::leftovers::definition_edit(&mut ctx, command);
        // a brace file's: its uses elsewhere, found before the edit
        let brace_left = match self.brace_leftovers(&mut ctx, command) {
            Some(super::leftovers::BraceLeftovers::Refused(error)) => return Err(error),
            left => left,
        };
        // Plain text edits may break a file's syntax, but say so.
        let syntax_before = if super::code::is_text_edit(command) {
            ctx.syntax_before()
        } else {
            None
        };
        let before = ctx.session.unpersisted().len();
        let mut outcome = run(&mut ctx);
        if let (Some(before), Ok(outcome)) = (syntax_before, outcome.as_mut()) {
            ctx.note_broken_syntax(before, outcome);
        }
        if let Ok(outcome) = outcome.as_mut() {
            outcome.changes = std::mem::take(&mut ctx.applied);
        }
        let carried = std::mem::take(&mut ctx.carried);
        if !carried.is_empty() {
            // A write under other sessions' unsaved edits reaches their
            // buffers, with this session unlocked (a turn never holds two).
            let own = live.session.name.clone();
            Held::unlocked(live, || self.carry_over(&own, carried));
        }
        // The effects table is what the fsync policy and the fast path
        // trust: a command below `Edit` never makes an event that needs one.
        debug_assert!(
            command.effect() >= commands::Effect::Edit
                || !live.session.unpersisted()[before..]
                    .iter()
                    .any(Event::needs_fsync),
            "{command} is classified {:?} but fsyncs",
            command.effect()
        );
        // A file Eddi saved is re-indexed before the next query.
        let saved = live.session.unpersisted()[before..]
            .iter()
            .filter_map(|event| match event {
                Event::Saved { path, .. } => Some(path),
                _ => None,
            });
        self.index.touch(saved);
        let session = &live.session;
        let Some(path) = session.current.clone() else {
            return outcome;
        };
        match outcome {
            // A name not defined in the current file: where it is.
            Err(error) if error.kind == ErrorKind::NotFound => {
                let elsewhere = target_name(command)
                    .and_then(|name| self.defined_elsewhere(session, &name, path.as_str()));
                Err(match elsewhere {
                    Some(hint) => OpError {
                        message: format!("{}; {hint}", error.message),
                        ..error
                    },
                    None => error,
                })
            }
            Err(error) => Err(error),
            Ok(mut outcome) => {
                let python_left = || {
                    definition_edit
                        .and_then(|edit| self.left_unchanged(session, edit, path.as_str()))
                };
                let lines_after = session.buffers.get(&path).map(|b| b.text().len_lines());
                let brace_left =
                    brace_left.and_then(|left| left.after(lines_after.unwrap_or_default()));
                if let Some(left) = brace_left.or_else(python_left) {
                    outcome.completions.push(left);
                }
                // The project's side of a file's dependencies comes from the index.
                if let Command::Analyze {
                    target: AnalyzeTarget::File,
                    kind: Some(AnalysisKind::Dependencies),
                } = command
                {
                    outcome
                        .completions
                        .extend(self.imported_by(sender, session, path.as_str()));
                }
                Ok(outcome)
            }
        }
    }
}

impl Ctx<'_> {
    /// Runs a command on the session's own state and buffers: the door's
    /// `in_session` commands, and a phase-1 command inside a script (on a
    /// scratch session holding the script's text of one file).
    pub(super) fn run(&mut self, command: &Command) -> Ran {
        use Command::*;
        match command {
            Summary { .. } => {
                let summary = self.session.summary();
                Ok(Outcome::answer(vec![Clause::Fact(Fact::Summary(summary))]))
            }
            Status => self.status(),
            Set { option } => self.set(option),
            PushContext => self.push_context(),
            PopContext => self.pop_context(),
            Open { create, path } => self.open(*create, path),
            Save { close, force, path } => self.save(*close, *force, path.as_deref()),
            SaveAll { force } => self.save_all(*force),
            Close { path } => self.close(path.as_deref()),
            List { open_only, pattern } => self.list(*open_only, pattern.as_deref()),
            Diff { path } => self.diff(path.as_deref()),
            Goto(target) => self.goto(target),
            Find { direction, pattern } => self.find(*direction, pattern),
            FindInFiles { pattern, glob } => self.find_in_files(pattern, glob),
            Replace {
                mode,
                pattern,
                replacement,
                scope,
            } => self.replace(*mode, pattern, replacement, scope.as_ref()),
            Bookmark { name, at } => self.bookmark(name, *at),
            Show { target, context } => self.show(target, *context),
            Insert { kind, text } => self.insert(*kind, text),
            Delete(target) => self.delete(target),
            Undo { count } => self.undo(*count),
            Redo { count } => self.redo(*count),
            Analyze { .. } | Validate { .. } | Modify { .. } | Comment { .. } | Format { .. } => {
                self.code_command(command)
            }
            // the registry's and the project's commands run in the door
            _ => Err(OpError::new(
                ErrorKind::Internal,
                format!("Internal: '{command}' is not a command of one session's buffers"),
            )),
        }
    }
}

/// Whether the session's current file is one of a brace language (its
/// dependencies come from the project index).
fn current_reads_braces(held: &mut Option<Held>) -> bool {
    session(held).is_ok_and(|live| {
        live.session
            .current
            .as_ref()
            .is_some_and(|p| crate::analysis::index::tags::reads(p.as_str()))
    })
}

/// The session the turn holds, or the failure that says how to start one.
fn session(held: &mut Option<Held>) -> Result<&mut Held, OpError> {
    held.as_mut().ok_or_else(|| {
        OpError::new(
            ErrorKind::NoSession,
            "No session. Start one with: Start <name>",
        )
    })
}

/// Runs `read` with the turn's session, if any, unlocked.
fn unlocked<R>(held: &mut Option<Held>, read: impl FnOnce() -> R) -> R {
    match held {
        Some(live) => Held::unlocked(live, read),
        None => read(),
    }
}
