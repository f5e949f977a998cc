//! The engine: the one core every transport drives.
//!
//! [`Engine::execute`] takes a sender's message (one or more commands),
//! runs it against that sender's session and returns the rendered reply.
//! The flow per message: de-duplicate a retried request id → report files
//! changed on disk → parse → run each command in order, stopping at the
//! first failure → persist the session's new events (fsync) → render.
//!
//! Concurrency: the registry lock is held only to look sessions up; each
//! session has its own lock, so different senders run in parallel. Keeping
//! one sender's messages in order is the caller's job (the router does it).
//!
//! **Invariant:** a failed command changes nothing — commands compute
//! their events first and apply them only when everything checked out.

mod code;
mod context;
mod files;
mod inspect;
mod leftovers;
mod modify;
mod navigate;
mod output;
mod query;
mod sessions;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::lang::{self, AnalysisKind, AnalyzeTarget, Command, ResponseFormat};
use crate::reply::{Clause, Reply};
use crate::session::store::{JournalState, Store, StoreError};
use crate::session::{Event, Preferences, Session};
use crate::workspace::Workspace;
use leftovers::Leftover;

pub use context::Ctx;

/// What the engine needs to know; every field has a sensible default.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// The workspace root: every path is resolved inside it.
    pub root: PathBuf,
    /// Where sessions persist; `<root>/.eddi` by default.
    pub state_dir: Option<PathBuf>,
    /// Files larger than this are refused on `Open`.
    pub max_file_size: u64,
    /// Default output budget (chars) before replies are shortened in tiers.
    pub output_limit: usize,
}

impl EngineConfig {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        EngineConfig {
            root: root.into(),
            state_dir: None,
            max_file_size: 16 << 20,
            output_limit: 4000,
        }
    }
}

/// One message from one sender.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub sender: &'a str,
    pub text: &'a str,
    /// The message id, when the transport has one: a repeated id gets the
    /// same reply again and is not applied twice.
    pub id: Option<&'a str>,
}

/// The answer to one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// One line per command that ran, terse or JSON per the sender's preference.
    pub text: String,
    /// True when every command succeeded.
    pub ok: bool,
    /// True when this is the stored reply to a repeated request id.
    pub duplicate: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("workspace root {path}: {source}")]
    Root {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A session with its journal bookkeeping, behind its own lock.
pub(crate) struct Live {
    pub session: Session,
    pub journal: JournalState,
    /// Disk hashes already reported as changed, so a notice is said once.
    pub reported: HashMap<crate::workspace::WorkspacePath, String>,
}

type LiveRef = Arc<Mutex<Live>>;

#[derive(Default)]
struct Registry {
    /// Active sessions by name.
    sessions: HashMap<String, LiveRef>,
    /// Sender id → its active session's name.
    by_sender: HashMap<String, String>,
    /// Response format asked for in a handshake, before a session exists.
    formats: HashMap<String, ResponseFormat>,
}

pub struct Engine {
    workspace: Workspace,
    store: Store,
    config: EngineConfig,
    registry: Mutex<Registry>,
    /// The project index, shared by every session; built on first use.
    index: Mutex<query::IndexState>,
}

impl Engine {
    /// Opens the workspace and restores every persisted session.
    pub fn open(config: EngineConfig) -> Result<Engine, EngineError> {
        let workspace = Workspace::new(&config.root, config.max_file_size).map_err(|source| {
            EngineError::Root {
                path: config.root.display().to_string(),
                source,
            }
        })?;
        let state_dir = config
            .state_dir
            .clone()
            .unwrap_or_else(|| workspace.root().join(".eddi"));
        let store = Store::open(&state_dir)?;
        let mut registry = Registry::default();
        for (session, journal) in store.load_all()? {
            registry
                .by_sender
                .insert(session.sender.clone(), session.name.clone());
            let name = session.name.clone();
            let live = Live {
                session,
                journal,
                reported: HashMap::new(),
            };
            registry.sessions.insert(name, Arc::new(Mutex::new(live)));
        }
        Ok(Engine {
            workspace,
            store,
            config,
            registry: Mutex::new(registry),
            index: Mutex::default(),
        })
    }

    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The sender's active session name.
    pub fn session_of(&self, sender: &str) -> Option<String> {
        self.registry().by_sender.get(sender).cloned()
    }

    /// Names of all active sessions.
    pub fn sessions(&self) -> Vec<String> {
        let mut names: Vec<_> = self.registry().sessions.keys().cloned().collect();
        names.sort();
        names
    }

    /// Sets how replies to `sender` are rendered (a handshake preference).
    pub fn set_response_format(&self, sender: &str, format: ResponseFormat) {
        let live = {
            let mut registry = self.registry();
            registry.formats.insert(sender.to_owned(), format);
            registry
                .by_sender
                .get(sender)
                .and_then(|name| registry.sessions.get(name))
                .cloned()
        };
        if let Some(live) = live {
            let mut live = lock(&live);
            let mut preferences = live.session.preferences.clone();
            preferences.format = format;
            if live.session.preferences != preferences {
                let _ = live.session.apply(Event::PreferencesSet(preferences));
                let _ = self.persist(&mut live);
            }
        }
    }

    /// Writes a fresh snapshot of every session (clean shutdown).
    pub fn flush(&self) -> Result<(), EngineError> {
        let sessions: Vec<LiveRef> = self.registry().sessions.values().cloned().collect();
        for live in sessions {
            let mut live = lock(&live);
            let Live {
                session, journal, ..
            } = &mut *live;
            session.take_unpersisted();
            self.store.snapshot(session, journal)?;
        }
        Ok(())
    }

    /// Whether a message only moves the cursor or reads (no text change,
    /// hence no fsync; no search over the file, no code analysis, no
    /// process): microseconds, so a transport may run it on an async
    /// worker. Anything else, and anything that does not parse, is not.
    pub fn is_quick(&self, sender: &str, text: &str) -> bool {
        if text.len() > 4096 {
            return false;
        }
        if let Some(live) = self.live_of(sender) {
            if lock(&live).session.confirm.is_some() {
                return false; // `y`/`n` answers edit
            }
        }
        let statements = lang::parse_message(text);
        !statements.is_empty()
            && statements.iter().all(|statement| match &statement.parsed {
                Ok(command) => is_quick_command(command),
                Err(_) => false,
            })
    }

    /// Runs one message and returns its reply.
    pub fn execute(&self, request: &Request<'_>) -> Response {
        if let Some(id) = request.id {
            if let Some((text, ok)) = self.answered(request.sender, id) {
                return Response {
                    text,
                    ok,
                    duplicate: true,
                };
            }
        }
        let mut notices = self.check_disk(request.sender);
        let mut replies: Vec<Reply> = Vec::new();
        match self.confirm_answer(request.sender, request.text) {
            Some(Ok(reply)) => replies.push(reply),
            Some(Err(notice)) => notices.push(notice),
            None => {}
        }
        let statements = if replies.is_empty() {
            lang::parse_message(request.text)
        } else {
            Vec::new()
        };
        if statements.is_empty() && replies.is_empty() {
            replies.push(Reply::fail(format!(
                "Empty message. {}",
                lang::help::help(None).unwrap_or_default()
            )));
        }
        for (index, statement) in statements.iter().enumerate() {
            let mut reply = match &statement.parsed {
                Ok(command) => self.run(request.sender, command),
                Err(error) => Reply::fail(error.to_string()),
            };
            for notice in notices.drain(..) {
                reply.push(Clause::Notice(notice));
            }
            let failed = !reply.is_ok();
            replies.push(reply);
            if failed {
                let skipped = statements.len() - index - 1;
                if skipped > 0 {
                    let last = replies.last_mut().expect("just pushed");
                    last.push(Clause::Note(format!(
                        "Skipped {skipped} {}",
                        crate::reply::plural(skipped, "command")
                    )));
                }
                break;
            }
        }
        let format = self.format_of(request.sender);
        let ok = replies.iter().all(Reply::is_ok);
        let text = replies
            .iter()
            .map(|r| r.render(format))
            .collect::<Vec<_>>()
            .join("\n");
        if let Some(id) = request.id {
            self.remember(request.sender, id, &text, ok);
        }
        Response {
            text,
            ok,
            duplicate: false,
        }
    }

    fn run(&self, sender: &str, command: &Command) -> Reply {
        match command {
            Command::Start { name, description } => {
                return self.start(sender, name, description.as_deref())
            }
            Command::End { name } => return self.end(sender, name.as_deref()),
            Command::Summary { name: Some(name) }
                if self.session_of(sender).as_deref() != Some(name) =>
            {
                return self.summary_of(name)
            }
            Command::Help { topic } => {
                return match lang::help::help(topic.as_deref()) {
                    Ok(text) => Reply::info(text),
                    Err(e) => Reply::fail(e.to_string()),
                }
            }
            Command::FindSymbol { kind, symbol } => return self.find_symbol(sender, *kind, symbol),
            Command::Save { .. } => {
                // A file Eddi saved is re-indexed before the next query.
                self.index.lock().unwrap_or_else(|p| p.into_inner()).touch();
            }
            _ => {}
        }
        let Some(live) = self.live_of(sender) else {
            return Reply::fail("No session. Start one with: Start <name>");
        };
        let mut live = lock(&live);
        let mut ctx = Ctx::new(&mut live.session, &self.workspace);
        // An edit of a definition says what it leaves unchanged elsewhere.
        let leftover = Leftover::of(&mut ctx, command);
        let mut reply = ctx.run(command);
        if let Err(e) = self.persist(&mut live) {
            return Reply::fail(format!(
                "Could not persist the session ({e}); the change is applied in memory only"
            ));
        }
        let current = live.session.current.clone();
        drop(live);
        if let (Reply::Fail(reason), Some(name), Some(path)) =
            (&mut reply, dotted_target(command), &current)
        {
            if reason.starts_with("Not found") {
                if let Some(hint) = self.defined_elsewhere(sender, &name, path.as_str()) {
                    reason.push_str(&format!("; {hint}"));
                }
            }
        }
        if let (Some(leftover), Some(path), true) = (&leftover, &current, reply.is_ok()) {
            if let Some(note) = self.leftover_note(sender, leftover, path.as_str()) {
                reply.push(Clause::Note(note));
            }
        }
        // The project's side of a file's dependencies comes from the index.
        if let (
            Command::Analyze {
                target: AnalyzeTarget::File,
                kind: Some(AnalysisKind::Dependencies),
            },
            Some(path),
        ) = (command, current)
        {
            if reply.is_ok() {
                if let Some(note) = self.imported_by(sender, path.as_str()) {
                    reply.push(Clause::Note(note));
                }
            }
        }
        reply
    }

    fn persist(&self, live: &mut Live) -> Result<(), StoreError> {
        let events = live.session.take_unpersisted();
        self.store.append(&live.session, &mut live.journal, &events)
    }

    fn registry(&self) -> MutexGuard<'_, Registry> {
        self.registry
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn live_of(&self, sender: &str) -> Option<LiveRef> {
        let registry = self.registry();
        registry
            .by_sender
            .get(sender)
            .and_then(|name| registry.sessions.get(name))
            .cloned()
    }

    fn format_of(&self, sender: &str) -> ResponseFormat {
        if let Some(live) = self.live_of(sender) {
            return lock(&live).session.preferences.format;
        }
        self.registry()
            .formats
            .get(sender)
            .copied()
            .unwrap_or_default()
    }

    fn default_preferences(&self, sender: &str) -> Preferences {
        let format = self
            .registry()
            .formats
            .get(sender)
            .copied()
            .unwrap_or_default();
        Preferences {
            format,
            output_limit: self.config.output_limit,
        }
    }

    fn answered(&self, sender: &str, id: &str) -> Option<(String, bool)> {
        let live = self.live_of(sender)?;
        let live = lock(&live);
        live.session
            .answered(id)
            .map(|answer| (answer.reply.clone(), answer.ok))
    }

    fn remember(&self, sender: &str, id: &str, text: &str, ok: bool) {
        if let Some(live) = self.live_of(sender) {
            let mut live = lock(&live);
            let _ = live.session.apply(Event::Answered {
                id: id.to_owned(),
                reply: text.to_owned(),
                ok,
            });
            let _ = self.persist(&mut live);
        }
    }

    /// A pending `Replace Confirm` walk takes `y`, `n` or `q` as its answer
    /// (`Ok(reply)`); any other message ends the walk (`Err(notice)`).
    fn confirm_answer(&self, sender: &str, text: &str) -> Option<Result<Reply, String>> {
        let live = self.live_of(sender)?;
        let mut live = lock(&live);
        live.session.confirm.as_ref()?;
        let answer = match text.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => Some('y'),
            "n" | "no" => Some('n'),
            "q" | "quit" => Some('q'),
            _ => None,
        };
        let mut ctx = Ctx::new(&mut live.session, &self.workspace);
        let outcome = match answer {
            Some(answer) => Ok(ctx.answer(answer)),
            None => Err(ctx.abandon_walk()?),
        };
        let _ = self.persist(&mut live);
        Some(outcome)
    }

    /// Notices for open files changed on disk since this session read or
    /// wrote them (by another session or another program), said once each.
    /// An unmodified buffer simply takes the new text.
    fn check_disk(&self, sender: &str) -> Vec<String> {
        let Some(live) = self.live_of(sender) else {
            return Vec::new();
        };
        let mut live = lock(&live);
        let notices = context::check_disk(&mut live, &self.workspace);
        let _ = self.persist(&mut live);
        notices
    }
}

fn is_quick_command(command: &Command) -> bool {
    use lang::{GotoTarget as G, ShowTarget as S};
    match command {
        Command::Status | Command::Help { .. } | Command::Bookmark { .. } => true,
        Command::Goto(target) => !matches!(
            target,
            G::Code(_) | G::StartOfFunction | G::EndOfFunction | G::StartOfClass | G::EndOfClass
        ),
        Command::Show { target, .. } => !matches!(target, S::Code(_)),
        _ => false,
    }
}

/// Locks a session, recovering from a poisoned lock (a panic elsewhere must
/// not take every later request of that sender down with it).
fn lock(live: &LiveRef) -> MutexGuard<'_, Live> {
    live.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The name of a command's code target when it is dotted (`pkg.mod.f`,
/// `C.m`): a name that may be defined in another file.
fn dotted_target(command: &Command) -> Option<String> {
    use lang::{CodeTarget, DeleteTarget, GotoTarget, ShowTarget};
    let target = match command {
        Command::Show {
            target: ShowTarget::Code(t),
            ..
        }
        | Command::Goto(GotoTarget::Code(t))
        | Command::Delete(DeleteTarget::Code(t))
        | Command::Modify { target: t, .. }
        | Command::Comment { target: t, .. }
        | Command::Analyze {
            target: AnalyzeTarget::Code(t),
            ..
        } => t,
        Command::Format {
            target: Some(t), ..
        }
        | Command::Validate { target: Some(t) } => t,
        _ => return None,
    };
    let name = match target {
        CodeTarget::Method { class, name, .. } => format!("{class}.{name}"),
        CodeTarget::Function { name, .. }
        | CodeTarget::Class { name }
        | CodeTarget::Variable { name } => name.clone(),
    };
    let dotted = match target {
        CodeTarget::Method { class, .. } => class.contains('.'),
        _ => name.contains('.'),
    };
    dotted.then_some(name)
}

#[cfg(test)]
mod tests;
