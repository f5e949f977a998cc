//! Session commands: `Start`, `End`, `Summary`, `Status`, `Set`,
//! `Push Context`, `Pop Context`.

use crate::outcome::{Fact, Outcome, SessionLine};
use std::sync::Arc;

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::commands::SessionOption;
use crate::edit::position;
use crate::reply::Clause;
use crate::session::store::JournalState;
use crate::session::{Event, Session};

use super::context::{Ctx, Ran};
use super::ops::json::typed;
use super::ops::{ErrorKind, OpError};
use super::{lock, Engine, Held, Live};

impl Engine {
    /// `Start`: a new session for the sender, which the turn then holds —
    /// or, when `name` is the sender's own session (the one the turn holds),
    /// that one continued, so a script that starts with `Start` runs again
    /// unchanged (its description stays the first one's).
    pub(super) fn start(
        &self,
        sender: &str,
        name: &str,
        description: Option<&str>,
        held: &mut Option<Held>,
    ) -> Ran {
        if held
            .as_deref()
            .is_some_and(|live| live.session.name == name)
        {
            return Ok(Outcome::effect(vec![Clause::Fact(
                Fact::SessionContinued {
                    name: name.to_owned(),
                },
            )]));
        }
        let reply = self.start_new(sender, name, description);
        if reply.is_ok() {
            *held = self.hold(sender);
        }
        reply
    }

    /// A new session for the sender, nothing held (a turn holds it next).
    pub(super) fn start_new(&self, sender: &str, name: &str, description: Option<&str>) -> Ran {
        let preferences = self.default_preferences(sender);
        let mut registry = self.registry();
        if let Some(current) = registry.by_sender.get(sender) {
            return Err(typed(
                ErrorKind::Conflict,
                format!("You already have session '{current}'. End it first: End {current}"),
            ));
        }
        if registry.sessions.contains_key(name) {
            return Err(typed(
                ErrorKind::Conflict,
                format!("Session already exists: {name}. Choose another name"),
            ));
        }
        let started = OffsetDateTime::now_utc()
            .format(&Rfc3339)
            .unwrap_or_default();
        let session = Session::new(
            name.to_owned(),
            description.map(str::to_owned),
            sender.to_owned(),
            started,
            preferences,
        );
        let mut live = Live::new(session, JournalState::default());
        if let Err(e) = self.store.snapshot(&live.session, &mut live.journal) {
            return Err(typed(
                ErrorKind::Internal,
                format!("Could not persist the new session: {e}"),
            ));
        }
        registry
            .by_sender
            .insert(sender.to_owned(), name.to_owned());
        registry
            .sessions
            .insert(name.to_owned(), Arc::new(parking_lot::Mutex::new(live)));
        Ok(Outcome::ok())
    }

    /// `End`: ends the sender's session, the one its turn `held` (which
    /// then holds none).
    pub(super) fn end(
        &self,
        sender: &str,
        name: Option<&str>,
        force: bool,
        held: &mut Option<Held>,
    ) -> Ran {
        let own = self.registry().by_sender.get(sender).cloned();
        if let (Some(name), true) = (name, force) {
            if own.as_deref() != Some(name) {
                // Another's session is locked with this one unlocked.
                return match held {
                    Some(live) => Held::unlocked(live, || self.end_other(name)),
                    None => self.end_other(name),
                };
            }
        }
        let own = {
            let registry = self.registry();
            let Some(own) = registry.by_sender.get(sender).cloned() else {
                return match name {
                    Some(name) if registry.sessions.contains_key(name) => Err(typed(
                        ErrorKind::PermissionDenied,
                        format!("Session '{name}' belongs to another sender; End {name} Force ends it (operators only)"),
                    )),
                    Some(name) => Err(typed(
                        ErrorKind::NotFound,
                        format!("Session not found: {name}. You have no session"),
                    )),
                    None => Err(typed(
                        ErrorKind::NoSession,
                        "No session to end. Start one with: Start <name>",
                    )),
                };
            };
            own
        };
        if let Some(name) = name {
            if name != own {
                if self.registry().sessions.contains_key(name) {
                    return Err(typed(
                        ErrorKind::PermissionDenied,
                        format!("Session '{name}' belongs to another sender; End {name} Force ends it (operators only). Your session is {own}"),
                    ));
                }
                return Err(OpError {
                    kind: ErrorKind::NotFound,
                    message: format!("Session not found: {name}. Your session is {own}"),
                    candidates: vec![own],
                });
            }
        }
        let Some(live) = held.as_deref().filter(|live| live.session.name == own) else {
            return Err(typed(
                ErrorKind::Conflict,
                format!("Session {own} changed while this message ran; send End again"),
            ));
        };
        let summary = live.session.summary();
        let unsaved = summary.unsaved.clone();
        if let Err(e) = self.store.end(&own, &summary.terse()) {
            return Err(typed(
                ErrorKind::Internal,
                format!("Could not save the session: {e}"),
            ));
        }
        let mut registry = self.registry();
        registry.by_sender.remove(sender);
        registry.sessions.remove(&own);
        self.board.forget(&own);
        *held = None;
        let mut reply = Outcome::effect(vec![Clause::Fact(Fact::SessionSaved)]);
        if !unsaved.is_empty() {
            reply.push(Clause::Fact(Fact::UnsavedDiscarded { files: unsaved }));
        }
        Ok(reply)
    }

    /// `End <name> Force`: ends another sender's session (the operator's
    /// permission was checked at the door). Its unsaved edits are kept as
    /// drafts first; the caller holds no session.
    fn end_other(&self, name: &str) -> Ran {
        let Some(live) = self.registry().sessions.get(name).cloned() else {
            return Err(self.session_not_found(name));
        };
        let mut live = lock(&live);
        let drafts = self.release(&mut live, "Session ended by an operator");
        if live.session.buffers.values().any(|b| b.is_modified()) {
            return Err(typed(
                ErrorKind::Unavailable,
                format!("Session {name} not ended: its unsaved edits could not be kept as drafts (see the log); nothing was lost"),
            ));
        }
        let sender = live.session.sender.clone();
        let summary = live.session.summary();
        if let Err(e) = self.store.end(name, &summary.terse()) {
            return Err(typed(
                ErrorKind::Internal,
                format!("Could not end session {name}: {e}"),
            ));
        }
        {
            let mut registry = self.registry();
            if registry.by_sender.get(&sender).map(String::as_str) == Some(name) {
                registry.by_sender.remove(&sender);
            }
            registry.sessions.remove(name);
        }
        self.board.forget(name);
        drop(live);
        let mut reply = Outcome::effect(vec![Clause::Fact(Fact::SessionEnded {
            name: name.to_owned(),
            sender,
        })]);
        if !drafts.is_empty() {
            reply.push(Clause::Fact(Fact::KeptAsDrafts {
                session: name.to_owned(),
                files: drafts,
            }));
        }
        Ok(reply)
    }

    /// `List Sessions`: each active session, read one at a time (the
    /// caller holds none), as text and as the JSON `sessions` data.
    pub(super) fn list_sessions(&self) -> Ran {
        let all: Vec<(String, super::LiveRef)> = {
            let registry = self.registry();
            let mut all: Vec<_> = registry
                .sessions
                .iter()
                .map(|(name, live)| (name.clone(), live.clone()))
                .collect();
            all.sort_by(|a, b| a.0.cmp(&b.0));
            all
        };
        if all.is_empty() {
            return Ok(Outcome::answer(vec![Clause::Fact(Fact::Sessions(
                Vec::new(),
            ))]));
        }
        let mut lines = Vec::new();
        let mut data = Vec::new();
        for (name, live) in all {
            let (sender, unsaved) = {
                let live = lock(&live);
                let unsaved: Vec<String> = live
                    .session
                    .buffers
                    .values()
                    .filter(|b| b.is_modified())
                    .map(|b| b.path().to_string())
                    .collect();
                (live.session.sender.clone(), unsaved)
            };
            let idle = self.board.idle(&name);
            data.push(serde_json::json!({
                "name": name,
                "sender": sender,
                "idle_seconds": idle.as_secs(),
                "unsaved": unsaved,
            }));
            lines.push(SessionLine {
                name,
                sender,
                idle,
                unsaved,
            });
        }
        Ok(Outcome::answer(vec![
            Clause::Fact(Fact::Sessions(lines)),
            super::ops::json::data("sessions", serde_json::Value::Array(data)),
        ]))
    }

    fn session_not_found(&self, name: &str) -> OpError {
        let names = self.sessions();
        let choices = crate::choices::Choices::ranked(name, names);
        let hint = if choices.is_empty() {
            "No active sessions".to_owned()
        } else {
            format!("Sessions: {choices}")
        };
        OpError {
            kind: ErrorKind::NotFound,
            message: format!("Session not found: {name}. {hint}"),
            candidates: choices.shown,
        }
    }

    /// `Summary <name>` of a session that is not the sender's own.
    pub(super) fn summary_of(&self, name: &str) -> Ran {
        let live = self.registry().sessions.get(name).cloned();
        if let Some(live) = live {
            let summary = lock(&live).session.summary();
            return Ok(Outcome::answer(vec![Clause::Fact(Fact::Summary(summary))]));
        }
        match self.store.ended_summary(name) {
            Some(summary) => Ok(Outcome::answer(vec![Clause::Fact(Fact::RecordedSummary(
                summary,
            ))])),
            None => {
                let names = self.sessions();
                let choices = crate::choices::Choices::ranked(name, names);
                let hint = if choices.is_empty() {
                    "No active sessions".to_owned()
                } else {
                    format!("Sessions: {choices}")
                };
                Err(OpError {
                    kind: ErrorKind::NotFound,
                    message: format!("Session not found: {name}. {hint}"),
                    candidates: choices.shown,
                })
            }
        }
    }
}

impl Ctx<'_> {
    pub(super) fn status(&self) -> Ran {
        let fact = |fact| Clause::Fact(fact);
        let mut clauses = vec![fact(Fact::InSession {
            name: self.session.name.clone(),
        })];
        match self.session.current_buffer() {
            Some(buffer) => {
                clauses.push(fact(Fact::CurrentFile {
                    path: buffer.path().to_string(),
                }));
                clauses.push(Clause::At(buffer.cursor()));
                if buffer.is_modified() {
                    clauses.push(fact(Fact::Modified));
                }
            }
            None => clauses.push(fact(Fact::NoFile)),
        }
        let open = self.session.buffers.len();
        if open > 1 {
            clauses.push(fact(Fact::FilesOpen(open)));
        }
        if let Some(walk) = &self.session.confirm {
            clauses.push(fact(Fact::ConfirmWaiting {
                path: walk.path.to_string(),
            }));
        }
        if let Some(pending) = &self.session.pending {
            clauses.push(fact(Fact::RefactorWaiting {
                refactoring: pending.refactoring.to_string(),
            }));
        }
        if let Some(pending) = &self.session.pending_replace {
            clauses.push(fact(Fact::ReplaceWaiting {
                command: pending.command.to_string(),
            }));
        }
        // named changesets not applied yet wait for `apply changeset`
        let waiting: Vec<String> = self
            .session
            .changesets
            .iter()
            .filter(|(_, set)| !matches!(set.state, crate::session::ChangesetState::Applied { .. }))
            .map(|(name, _)| name.to_string())
            .collect();
        if !waiting.is_empty() {
            clauses.push(fact(Fact::ChangesetsWaiting { names: waiting }));
        }
        Ok(Outcome::answer(clauses))
    }

    pub(super) fn set(&mut self, option: &SessionOption) -> Ran {
        let mut preferences = self.session.preferences.clone();
        match option {
            SessionOption::ResponseFormat(format) => preferences.format = *format,
            SessionOption::OutputLimit(limit) => preferences.output_limit = *limit,
            SessionOption::Replies(detail) => preferences.replies = *detail,
            SessionOption::Preview(on) => preferences.preview = *on,
            SessionOption::Progress(on) => preferences.progress = *on,
        }
        self.apply(Event::PreferencesSet(preferences))?;
        Ok(Outcome::ok())
    }

    pub(super) fn push_context(&mut self) -> Ran {
        self.apply(Event::ContextPushed)?;
        Ok(Outcome::effect(vec![Clause::Fact(Fact::ContextDepth(
            self.session.contexts.len(),
        ))]))
    }

    pub(super) fn pop_context(&mut self) -> Ran {
        if self.session.contexts.is_empty() {
            return Err(typed(
                ErrorKind::NotApplicable,
                "No context to pop. Save one with: Push Context",
            ));
        }
        let target = self.session.contexts.last().cloned().flatten();
        if let Some(mark) = &target {
            if !self.session.buffers.contains_key(&mark.path) {
                return Err(typed(
                    ErrorKind::NotApplicable,
                    format!(
                        "The saved context's file {} is closed. Open it first",
                        mark.path
                    ),
                ));
            }
        }
        self.apply(Event::ContextPopped)?;
        match self.session.current_buffer() {
            Some(buffer) if target.is_some() => {
                let at = position::clamp(buffer.text(), buffer.cursor());
                Ok(Outcome::effect(vec![
                    Clause::Fact(Fact::CurrentFile {
                        path: buffer.path().to_string(),
                    }),
                    Clause::At(at),
                ]))
            }
            _ => Ok(Outcome::ok()),
        }
    }
}
