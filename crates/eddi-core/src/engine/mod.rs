//! The engine: the one core every transport drives.
//!
//! [`Engine::execute`] takes a sender's message (one or more commands),
//! runs it against that sender's session and returns the rendered reply.
//! The flow per message: de-duplicate a retried request id → report files
//! changed on disk → parse → run each command in order, stopping at the
//! first failure → persist the session's new events (fsync) → render.
//!
//! Concurrency: the registry lock is held only to look sessions up; each
//! session has its own lock, so different senders run in parallel. A
//! message locks its session once and passes the held session on. Keeping
//! one sender's messages in order is the caller's job (the router does it).
//!
//! **Invariant:** a failed command changes nothing — commands compute
//! their events first and apply them only when everything checked out.

mod apply;
mod code;
mod context;
mod drafts;
mod elsewhere;
mod files;
mod fit;
mod inspect;
mod leftovers;
mod modify;
mod navigate;
pub mod ops;
mod output;
mod policy;
mod query;
mod refactor;
mod replace_files;
mod search;
mod sessions;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::commands::{self, AnalysisKind, AnalyzeTarget, Command, ReplyDetail, ResponseFormat};
use crate::language::{Capability, Language};
use crate::reply::{Clause, Reply};
use crate::session::store::{JournalState, Store, StoreError};
use crate::session::{Event, Preferences, Session};
use crate::workspace::{Fault, Recovery, Workspace};
use leftovers::Leftover;
use ops::json::typed;
use ops::ErrorKind;

pub use apply::{Applied, ApplyMode};
pub use context::Ctx;
pub use fit::{fit_lines, ReplyRoom};
pub use policy::Permissions;
pub use refactor::{FileReport, RefactorFault, RefactorMode, RefactorReport};

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
    /// Who may do what; checked for every message, whatever its transport.
    pub permissions: Permissions,
    /// How long one message's commands may run: once used up, the commands
    /// left are not run (one sender's long message must not hold its
    /// session, and a pool thread, without end).
    pub message_time_budget: std::time::Duration,
    /// Once the project index is built (at the first query), scan every
    /// file of it on a thread of its own, so that later queries find it
    /// whole. Off, the index scans only the files queries need — what a
    /// one-shot `eddi run` wants; a long-running service turns it on.
    pub scan_index_ahead: bool,
    /// Watch the tree (`notify`) for other programs' writes, from the
    /// first query on. Off, the index polls the files' stamps before a
    /// query, at most once per `query::REFRESH_EVERY` — what a one-shot
    /// `eddi run` wants: setting up the watch of a large tree, and the
    /// events every read then raises, cost more than the run's polls.
    pub watch_tree: bool,
    /// A session that runs nothing for this long releases its unsaved
    /// buffers (kept as drafts under the state directory), so that it
    /// stands in nobody's way for good; zero: never.
    pub idle_release: std::time::Duration,
}

/// The default of [`EngineConfig::idle_release`]: 30 minutes.
pub const DEFAULT_IDLE_RELEASE: std::time::Duration = std::time::Duration::from_secs(30 * 60);

impl EngineConfig {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        EngineConfig {
            root: root.into(),
            state_dir: None,
            max_file_size: 16 << 20,
            output_limit: 4000,
            permissions: Permissions::default(),
            message_time_budget: std::time::Duration::from_secs(30),
            scan_index_ahead: false,
            watch_tree: true,
            idle_release: DEFAULT_IDLE_RELEASE,
        }
    }
}

/// A message parsed once ([`Engine::prepare`]), ready to run.
#[derive(Debug)]
pub struct Turn {
    statements: Vec<commands::Statement>,
    quick: bool,
    light: bool,
}

impl Turn {
    /// Instant reads and moves only: see [`Engine::is_quick`].
    pub fn is_quick(&self) -> bool {
        self.quick
    }

    /// Reads and moves in the session's own buffers only: no fsync, no
    /// work on the whole project (see [`is_light_command`]).
    pub fn is_light(&self) -> bool {
        self.light
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
    /// How `text` is rendered (the sender's preference when it was).
    pub format: ResponseFormat,
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
    #[error("recovering interrupted commits: {0}")]
    Recovery(std::io::Error),
}

/// Records the reply to a request id in the session, to be persisted with
/// the turn's other events.
fn note_answer(live: &mut Live, id: &str, text: &str, ok: bool) {
    let _ = live.session.apply(Event::Answered {
        id: id.to_owned(),
        reply: text.to_owned(),
        ok,
    });
}

/// A session with its journal bookkeeping, behind its own lock.
pub(crate) struct Live {
    pub session: Session,
    pub journal: JournalState,
    /// How often the session was locked: a turn locks it once (tested).
    pub locked: u64,
    /// Drafts `Recover` took into the session, `(session, path)`: removed
    /// once the session's events that hold their text are persisted.
    pub recovered: Vec<(String, String)>,
}

impl Live {
    pub(crate) fn new(session: Session, journal: JournalState) -> Live {
        Live {
            session,
            journal,
            locked: 0,
            recovered: Vec::new(),
        }
    }
}

type LiveRef = Arc<parking_lot::Mutex<Live>>;

/// The sender's session as a turn holds it: locked once when the turn
/// starts, passed to everything the turn does, unlocked when it ends.
type Held = parking_lot::ArcMutexGuard<parking_lot::RawMutex, Live>;

#[derive(Default)]
struct Registry {
    /// Active sessions by name.
    sessions: HashMap<String, LiveRef>,
    /// Sender id → its active session's name.
    by_sender: HashMap<String, String>,
    /// Response format asked for in a handshake, before a session exists.
    formats: HashMap<String, ResponseFormat>,
    /// Reply detail asked for in a handshake, before a session exists.
    details: HashMap<String, ReplyDetail>,
    /// Handshake `preview_mode` per sender.
    previews: HashMap<String, bool>,
}

pub struct Engine {
    workspace: Workspace,
    store: Store,
    config: EngineConfig,
    registry: Mutex<Registry>,
    /// The project index, shared by every session; built on first use.
    index: std::sync::Arc<query::SharedIndex>,
    /// Every session's unsaved buffers and last activity, for the check
    /// of every write (see `elsewhere`).
    board: elsewhere::Board,
}

impl Engine {
    /// Opens the workspace and restores every persisted session.
    pub fn open(config: EngineConfig) -> Result<Engine, EngineError> {
        let root_error = |source| EngineError::Root {
            path: config.root.display().to_string(),
            source,
        };
        let mut workspace =
            Workspace::new(&config.root, config.max_file_size).map_err(root_error)?;
        if let Some(state_dir) = &config.state_dir {
            workspace = workspace.with_state_dir(state_dir).map_err(root_error)?;
        }
        let store = Store::open(workspace.state_dir())?;
        // A commit a crash interrupted is rolled back (or, if it had
        // finished, cleaned up) before any session looks at the files.
        let recovery = workspace.recover().map_err(EngineError::Recovery)?;
        if recovery != Recovery::default() {
            tracing::warn!(
                rolled_back = recovery.rolled_back,
                finished = recovery.finished,
                "recovered commits interrupted by a crash"
            );
        }
        // Test hook: faults injected into commits of a whole process.
        if let Ok(spec) = std::env::var("EDDI_FAULT_COMMIT") {
            workspace.inject_fault(Fault::parse(&spec));
        }
        let mut registry = Registry::default();
        let board = elsewhere::Board::default();
        for (session, journal) in store.load_all()? {
            board.record(&session);
            let active = store
                .last_written(&session.name)
                .unwrap_or_else(std::time::SystemTime::now);
            board.active(&session.name, active);
            registry
                .by_sender
                .insert(session.sender.clone(), session.name.clone());
            let name = session.name.clone();
            let live = Live::new(session, journal);
            registry
                .sessions
                .insert(name, Arc::new(parking_lot::Mutex::new(live)));
        }
        Ok(Engine {
            workspace,
            store,
            config,
            registry: Mutex::new(registry),
            index: Default::default(),
            board,
        })
    }

    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// Tells an Eddi refused this state directory how to reach this one
    /// (a service's `eddi send` line).
    pub fn announce(&self, how_to_reach: &str) -> Result<(), EngineError> {
        Ok(self.store.announce(how_to_reach)?)
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
        self.registry().formats.insert(sender.to_owned(), format);
        self.set_preference(sender, |preferences| preferences.format = format);
    }

    /// Sets whether replies to `sender` are brief (a handshake preference).
    pub fn set_reply_detail(&self, sender: &str, detail: ReplyDetail) {
        self.registry().details.insert(sender.to_owned(), detail);
        self.set_preference(sender, |preferences| preferences.replies = detail);
    }

    /// Sets whether refactors of `sender` wait for `Apply` after their
    /// preview (a handshake preference, as `Set Preview on|off`).
    pub fn set_preview_mode(&self, sender: &str, on: bool) {
        self.registry().previews.insert(sender.to_owned(), on);
        self.set_preference(sender, |preferences| preferences.preview = on);
    }

    /// Changes the preferences of the sender's active session, if any (and
    /// persists them).
    fn set_preference(&self, sender: &str, change: impl FnOnce(&mut Preferences)) {
        if let Some(live) = self.live_of(sender) {
            let mut live = lock(&live);
            let mut preferences = live.session.preferences.clone();
            change(&mut preferences);
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
        self.prepare(sender, text).is_quick()
    }

    /// Parses a message once, for [`Self::execute_turn`]; says whether it
    /// is quick (see [`Self::is_quick`]).
    pub fn prepare(&self, _sender: &str, text: &str) -> Turn {
        let statements = commands::parse_message(text);
        // A pending `Replace Confirm` takes `y`/`n` answers, which edit.
        // (Decided on the text alone: the session is locked by the turn.)
        let answers = commands::parse_answer(text).is_some();
        let all = |test: fn(&Command) -> bool| {
            !answers
                && !statements.is_empty()
                && statements
                    .iter()
                    .all(|statement| matches!(&statement.parsed, Ok(command) if test(command)))
        };
        // a quick command is light too
        let quick = text.len() <= 4096 && all(is_quick_command);
        let light = all(is_light_command);
        Turn {
            statements,
            quick,
            light,
        }
    }

    /// Applies a computed change in the sender's session — to its buffers,
    /// or also to disk as one commit — as one undo step (the typed
    /// operation under refactors and agent tools). A failure changes
    /// nothing and says why.
    pub fn apply_change(
        &self,
        sender: &str,
        change: &crate::change::WorkspaceChange,
        mode: ApplyMode,
    ) -> Result<Applied, ops::OpError> {
        self.config
            .permissions
            .check_change(sender, change.touched())
            .map_err(|reason| ops::OpError::new(ErrorKind::PermissionDenied, reason))?;
        self.release_idle(sender);
        let Some(live) = self.live_of(sender) else {
            return Err(ops::OpError::new(
                ErrorKind::NoSession,
                "No session. Start one with: Start <name>",
            ));
        };
        let mut live = lock(&live);
        self.board
            .active(&live.session.name, std::time::SystemTime::now());
        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        // a refused change is a conflict with what is there
        let result = ctx.apply_change(change, mode).map_err(|fail| {
            let reason = match fail {
                Reply::Fail(reason, _) => reason,
                other => other.render(ResponseFormat::Terse),
            };
            ops::OpError::new(ErrorKind::Conflict, reason)
        });
        let carried = std::mem::take(&mut ctx.carried);
        let own = live.session.name.clone();
        let persisted = self.persist(&mut live);
        drop(live);
        // The session is unlocked: the write reaches the others' buffers.
        self.carry_over(&own, carried);
        persisted.map_err(|e| {
            ops::OpError::new(
                ErrorKind::Conflict,
                format!(
                    "Could not persist the session ({e}); the change is applied in memory only"
                ),
            )
        })?;
        if result.is_ok() && mode == ApplyMode::Commit {
            let mut touched: Vec<&crate::workspace::WorkspacePath> = change.touched();
            touched.extend(change.files().filter_map(|(_, file)| match &file.op {
                crate::change::FileOp::Move { to, .. } => Some(to),
                _ => None,
            }));
            self.index.touch(touched);
        }
        result
    }

    /// Runs one message and returns its reply.
    pub fn execute(&self, request: &Request<'_>) -> Response {
        self.execute_with(request, None, 0)
    }

    /// Runs one message whose reply must fit `room` (a transport's payload
    /// limit): long replies are shortened, and once the replies fill the
    /// room the next command does not run (see [`fit`]).
    pub fn execute_within(&self, request: &Request<'_>, room: Option<ReplyRoom>) -> Response {
        self.execute_with(request, room, 0)
    }

    /// Runs one message that is followed by `remaining` more commands which
    /// the caller will not run if this one fails (`eddi run` sends a script
    /// one command per message): a failure then counts them as skipped in
    /// its own reply, so the script still gets one reply per command.
    pub fn execute_in_script(&self, request: &Request<'_>, remaining: usize) -> Response {
        self.execute_with(request, None, remaining)
    }

    /// Runs a message [`Self::prepare`] parsed, within `room`.
    pub fn execute_turn(
        &self,
        request: &Request<'_>,
        turn: Turn,
        room: Option<ReplyRoom>,
    ) -> Response {
        self.run_turn(request, turn, room, 0)
    }

    fn execute_with(
        &self,
        request: &Request<'_>,
        room: Option<ReplyRoom>,
        remaining: usize,
    ) -> Response {
        let turn = self.prepare(request.sender, request.text);
        self.run_turn(request, turn, room, remaining)
    }

    fn run_turn(
        &self,
        request: &Request<'_>,
        turn: Turn,
        room: Option<ReplyRoom>,
        remaining: usize,
    ) -> Response {
        // The turn locks the sender's session once and passes it on (only a
        // `Start` in the message locks the new one).
        let mut held = self.hold(request.sender);
        if let Some(id) = request.id {
            let answered = held.as_deref().and_then(|live| live.session.answered(id));
            if let Some(answer) = answered {
                let (text, ok) = (answer.reply.clone(), answer.ok);
                // Given again as it was, unless this connection is smaller.
                let format = self.rendering(request.sender, held.as_deref()).0;
                let fitted = room.and_then(|room| fit_lines(&text, format, &room));
                return Response {
                    ok: ok && fitted.is_none(),
                    text: fitted.unwrap_or(text),
                    duplicate: true,
                    format,
                };
            }
        }
        let mut notices = match held.as_deref_mut() {
            Some(live) => {
                // What happened while the session ran nothing comes first.
                let mut notices = std::mem::take(&mut live.session.notices);
                if !notices.is_empty() {
                    let _ = live.session.apply(Event::NoticesSaid);
                }
                notices.extend(context::check_disk(&mut live.session, &self.workspace));
                notices
            }
            None => Vec::new(),
        };
        let mut replies: Vec<Reply> = Vec::new();
        let mut budget = fit::Budget::new(room);
        let format_of = |held: &Option<Held>| self.rendering(request.sender, held.as_deref()).0;
        let answer = held
            .as_deref_mut()
            .and_then(|live| self.confirm_answer(&mut live.session, request.text));
        match answer {
            Some(Ok(reply)) => replies.push(budget.admit(reply, || format_of(&held))),
            Some(Err(notice)) => notices.push(notice),
            None => {}
        }
        if replies.is_empty() && commands::parse_answer(request.text).is_some() {
            // A late answer: the walk ended (finished, or a command came).
            replies.push(typed(ErrorKind::NotApplicable, format!(
                "No Replace Confirm is waiting for an answer, so '{}' is not understood; start one with: Replace Confirm \"<text>\" With \"<text>\"",
                request.text.trim()
            )));
        }
        let statements = if replies.is_empty() {
            turn.statements
        } else {
            Vec::new()
        };
        // The one door: a message is checked whole before any of it runs.
        if let Some(denied) = self.denied(request.sender, &statements) {
            replies.push(
                budget.admit(typed(ErrorKind::PermissionDenied, denied), || {
                    format_of(&held)
                }),
            );
        }
        let statements = if replies.is_empty() {
            statements
        } else {
            Vec::new()
        };
        if statements.is_empty() && replies.is_empty() {
            let empty = typed(
                ErrorKind::InvalidCommand,
                format!(
                    "Empty message. {}",
                    commands::help::help(None).unwrap_or_default()
                ),
            );
            replies.push(budget.admit(empty, || format_of(&held)));
        }
        let started = std::time::Instant::now();
        for (index, statement) in statements.iter().enumerate() {
            let skipped = statements.len() - index - 1;
            if index > 0 {
                if let Some(not_run) = budget.not_run(skipped) {
                    replies.push(not_run);
                    break;
                }
                if let Some(not_run) = self.out_of_time(started, index, skipped) {
                    replies.push(budget.admit(not_run, || format_of(&held)));
                    break;
                }
            }
            let mut reply = match &statement.parsed {
                Ok(command) => self.run_within(request.sender, &mut held, command, room.as_ref()),
                Err(error) => ops::json::failure(error.clone().into()),
            };
            for notice in notices.drain(..) {
                reply.push(Clause::Notice(notice));
            }
            let failed = !reply.is_ok();
            // Fitted first: the reserve keeps room for the count.
            let mut reply = budget.admit(reply, || format_of(&held));
            if failed && skipped + remaining > 0 {
                reply.push(Clause::Skipped(skipped + remaining));
            }
            replies.push(reply);
            if failed {
                break;
            }
        }
        if let [reply] = replies.as_mut_slice() {
            // A failed `y`/`n` answer in a script stops it too.
            if statements.is_empty() && !reply.is_ok() && remaining > 0 {
                reply.push(Clause::Skipped(remaining));
            }
        }
        // An answer to `Replace Confirm` is no statement: its reply carries
        // the notices (they are said once, so they must not be lost).
        if let Some(first) = replies.first_mut() {
            for notice in notices.drain(..) {
                first.push(Clause::Notice(notice));
            }
        }
        // One turn, one write of its events to the journal (and at most one
        // fsync), before the reply leaves. The answered id is among them: a
        // crash between two writes would leave the changes without the id,
        // and the retry would apply them a second time.
        let (mut text, mut ok) =
            self.render_replies(request.sender, held.as_deref(), &replies, room);
        if let Some(live) = held.as_deref_mut() {
            if let Some(id) = request.id {
                note_answer(live, id, &text, ok);
            }
            if let Err(e) = self.persist(live) {
                if let Some(last) = replies.last_mut() {
                    *last = typed(ErrorKind::Internal, format!(
                        "Could not persist the session ({e}); the changes of this message are applied in memory only, and written with the next message that can persist"
                    ));
                }
                (text, ok) = self.render_replies(request.sender, Some(live), &replies, room);
                if let Some(id) = request.id {
                    note_answer(live, id, &text, ok);
                    let _ = self.persist(live);
                }
            }
        }
        let format = self.rendering(request.sender, held.as_deref()).0;
        Response {
            text,
            ok,
            duplicate: false,
            format,
        }
    }

    /// Why `sender` may not run this message, if it may not (see [`policy`]).
    fn denied(&self, sender: &str, statements: &[commands::Statement]) -> Option<String> {
        let permissions = &self.config.permissions;
        if permissions.is_open() {
            return None;
        }
        statements
            .iter()
            .filter_map(|statement| statement.parsed.as_ref().ok())
            .find_map(|command| permissions.check(&self.workspace, sender, command).err())
    }

    /// Runs one command; `Set Limit` is capped to what `room` can carry.
    fn run_within(
        &self,
        sender: &str,
        held: &mut Option<Held>,
        command: &Command,
        room: Option<&ReplyRoom>,
    ) -> Reply {
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
                let mut reply = self.run(sender, held, &capped);
                if reply.is_ok() {
                    reply.push(note);
                }
                return reply;
            }
        }
        self.run(sender, held, command)
    }

    /// Runs one command in the session the turn holds (`Start` and `End`
    /// change which one that is).
    fn run(&self, sender: &str, held: &mut Option<Held>, command: &Command) -> Reply {
        match command {
            Command::Start { name, description } => {
                return self.start(sender, name, description.as_deref(), held)
            }
            Command::End { name, force } => return self.end(sender, name.as_deref(), *force, held),
            Command::ListSessions => {
                // Each session is read with this one unlocked.
                return match held {
                    Some(live) => Held::unlocked(live, || self.list_sessions()),
                    None => self.list_sessions(),
                };
            }
            Command::ListDrafts { from } => {
                let own = held.as_ref().map(|live| live.session.name.clone());
                return match from.clone().or(own) {
                    Some(owner) => self.list_drafts(&owner),
                    None => typed(
                        ErrorKind::NoSession,
                        "No session, so no drafts of yours: Start the session whose drafts to list (Start <name>), or name it: List Drafts From <session> (operators)",
                    ),
                };
            }
            Command::Summary { name: Some(name) }
                if held.as_ref().map(|live| &live.session.name) != Some(name) =>
            {
                // Another session is read with this one unlocked: a turn
                // never holds two sessions (two senders reading each
                // other's would deadlock).
                return match held {
                    Some(live) => Held::unlocked(live, || self.summary_of(name)),
                    None => self.summary_of(name),
                };
            }
            Command::Help { topic } => {
                return match commands::help::help(topic.as_deref()) {
                    Ok(text) => Reply::info(text),
                    Err(e) => ops::json::failure(e.into()),
                }
            }
            _ => {}
        }
        let Some(live) = held.as_mut() else {
            return typed(
                ErrorKind::NoSession,
                "No session. Start one with: Start <name>",
            );
        };
        match command {
            Command::FindSymbol { kind, symbol } => {
                let reply = self.find_symbol(sender, &live.session, *kind, symbol);
                // the index reads Python only: a failure while the current
                // file is something else says so first
                let not_found = reply.failure_code() == Some(ErrorKind::NotFound.code());
                let why = not_supported_here(&live.session, Capability::IndexScan);
                return match (reply, why) {
                    (Reply::Fail(reason, clauses), Some(why)) if not_found => {
                        Reply::Fail(unsupported_file_first(&why, &reason), clauses)
                    }
                    (reply, _) => reply,
                };
            }
            Command::Refactor(refactoring) => {
                let reply = self.refactor_command(sender, live, refactoring);
                // One preview waits at a time: a refactor's that now waits
                // replaces a waiting replacement's.
                if live.session.pending.is_some() && live.session.pending_replace.is_some() {
                    let _ = live.session.apply(Event::PendingReplace { replace: None });
                }
                return reply;
            }
            Command::Preview { diff, refactoring } => {
                return self.preview_command(sender, live, refactoring, *diff)
            }
            Command::ReplaceInFiles {
                pattern,
                replacement,
                glob,
                preview,
                diff,
            } => {
                let request = replace_files::ReplaceInFiles {
                    pattern,
                    replacement,
                    glob,
                    preview: *preview,
                    diff: *diff,
                };
                return self.replace_in_files_command(sender, live, &request);
            }
            Command::Recover { path, from } => {
                return self.recover_command(live, path, from.as_deref())
            }
            // A waiting replacement across files, else a refactor.
            Command::Apply if live.session.pending_replace.is_some() => {
                return self.apply_replacement(sender, live)
            }
            Command::Discard if live.session.pending_replace.is_some() => {
                return self.discard_replacement(live)
            }
            Command::Apply => return self.apply_command(sender, live),
            Command::Discard => return self.discard_command(live),
            _ => {}
        }
        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        // An edit of a definition says what it leaves unchanged elsewhere.
        let leftover = Leftover::of(&mut ctx, command);
        let before = ctx.session.unpersisted().len();
        let mut reply = ctx.run(command);
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
        // The events stay staged: the turn persists them once, at its end.
        let session = &live.session;
        let current = session.current.clone();
        let not_found = reply.failure_code() == Some(ErrorKind::NotFound.code());
        if let (Reply::Fail(reason, _), Some(name), Some(path)) =
            (&mut reply, dotted_target(command), &current)
        {
            if not_found {
                if let Some(hint) = self.defined_elsewhere(session, &name, path.as_str()) {
                    reason.push_str(&format!("; {hint}"));
                }
            }
        }
        if let (Some(leftover), Some(path), true) = (&leftover, &current, reply.is_ok()) {
            if let Some(note) = self.leftover_note(session, leftover, path.as_str()) {
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
                for clause in self
                    .imported_by(sender, session, path.as_str())
                    .into_iter()
                    .flatten()
                {
                    reply.push(clause);
                }
            }
        }
        reply
    }

    fn persist(&self, live: &mut Live) -> Result<(), StoreError> {
        // Other writers check what this session has unsaved from now on.
        self.board.record(&live.session);
        let events = live.session.take_unpersisted();
        let result = self.store.append(&live.session, &mut live.journal, &events);
        if matches!(&result, Err(e) if !matches!(e, StoreError::NotDurable { .. })) {
            // Not written: they go with the next write that succeeds.
            live.session.requeue_unpersisted(events);
        }
        if result.is_ok() {
            // Their text is in the session's persisted state now.
            for (owner, path) in std::mem::take(&mut live.recovered) {
                if let Err(e) = self.store.remove_draft(&owner, &path) {
                    tracing::warn!(session = %owner, %path, error = %e, "recovered draft not removed");
                }
            }
        }
        result
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

    /// Locks the sender's session, if it has one, for a turn.
    fn hold(&self, sender: &str) -> Option<Held> {
        // Before locking: releasing an idle session locks it.
        self.release_idle(sender);
        let mut held = self.live_of(sender)?.lock_arc();
        held.locked += 1;
        self.board
            .active(&held.session.name, std::time::SystemTime::now());
        Some(held)
    }

    /// How the sender's replies are rendered: its session's preferences,
    /// else what its handshake asked for.
    fn rendering(&self, sender: &str, live: Option<&Live>) -> (ResponseFormat, ReplyDetail) {
        if let Some(live) = live {
            let preferences = &live.session.preferences;
            return (preferences.format, preferences.replies);
        }
        let preferences = self.default_preferences(sender);
        (preferences.format, preferences.replies)
    }

    fn default_preferences(&self, sender: &str) -> Preferences {
        let registry = self.registry();
        Preferences {
            format: registry.formats.get(sender).copied().unwrap_or_default(),
            output_limit: self.config.output_limit,
            replies: registry.details.get(sender).copied().unwrap_or_default(),
            preview: registry.previews.get(sender).copied().unwrap_or_default(),
        }
    }

    /// The reply in place of the next command once the message has run for
    /// its whole time budget.
    fn out_of_time(
        &self,
        started: std::time::Instant,
        ran: usize,
        skipped: usize,
    ) -> Option<Reply> {
        let budget = self.config.message_time_budget;
        if started.elapsed() < budget {
            return None;
        }
        let mut reply = Reply::fail(format!(
            "Not run: this message used up its time budget of {} ms after {ran} {}. Send this command and the rest again in another message",
            budget.as_millis(),
            crate::reply::plural(ran, "command")
        ));
        if skipped > 0 {
            reply.push(Clause::Skipped(skipped));
        }
        Some(reply)
    }

    /// The replies of a turn as one text, and whether all are `Ok`.
    fn render_replies(
        &self,
        sender: &str,
        live: Option<&Live>,
        replies: &[Reply],
        room: Option<ReplyRoom>,
    ) -> (String, bool) {
        let (format, detail) = self.rendering(sender, live);
        let mut ok = replies.iter().all(Reply::is_ok);
        let mut text = replies
            .iter()
            .map(|r| r.render_as(format, detail))
            .collect::<Vec<_>>()
            .join("\n");
        // Replies were fitted in the format of their time; a `Set Format`
        // later in the message may have made them longer.
        if let Some(fitted) = room.and_then(|room| fit_lines(&text, format, &room)) {
            text = fitted;
            ok = false;
        }
        (text, ok)
    }

    /// A pending `Replace Confirm` walk takes `y`, `n` or `q` as its answer
    /// (`Ok(reply)`); any other message ends the walk (`Err(notice)`).
    fn confirm_answer(&self, session: &mut Session, text: &str) -> Option<Result<Reply, String>> {
        session.confirm.as_ref()?;
        let answer = match text.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => Some('y'),
            "n" | "no" => Some('n'),
            "q" | "quit" => Some('q'),
            _ => None,
        };
        let mut ctx = Ctx::new(session, &self.workspace, Some(&self.board));
        let outcome = match answer {
            Some(answer) => Ok(ctx.answer(answer)),
            None => Err(ctx.abandon_walk()?),
        };
        Some(outcome)
    }
}

/// Instant reads and cursor moves: no fsync, microseconds.
fn is_quick_command(command: &Command) -> bool {
    command.effect() <= commands::Effect::Move && command.is_instant()
}

/// Reads and cursor moves in the session's own buffers: no text change
/// (hence no fsync), no disk write, nothing project-wide (a code target
/// named with dots may be in another file: the index finds it).
/// Milliseconds at most, for a search through a large buffer.
fn is_light_command(command: &Command) -> bool {
    command.effect() <= commands::Effect::Move
        && !command.is_project_wide()
        && dotted_target(command).is_none()
}

/// Locks a session outside a turn (a lock that is not poisoned: a panic
/// elsewhere must not take every later request of that sender down with it).
fn lock(live: &LiveRef) -> parking_lot::MutexGuard<'_, Live> {
    let mut guard = live.lock();
    guard.locked += 1;
    guard
}

/// Why the session's current file cannot be the context of a command
/// that needs `capability`: it is open and its language lacks it.
pub(super) fn not_supported_here(session: &Session, capability: Capability) -> Option<String> {
    let buffer = session.current_buffer()?;
    unsupported(
        buffer.path().as_str(),
        buffer.language(),
        capability,
        "code commands",
    )
}

/// Why `what` (`code commands`) cannot work on the file `path` of
/// `language`: `None` when the language offers `capability`. A file of
/// no registered language is "not a Python file", as Python is the
/// language with every capability.
pub(super) fn unsupported(
    path: &str,
    language: Option<&dyn Language>,
    capability: Capability,
    what: &str,
) -> Option<String> {
    match language {
        Some(language) if language.supports(capability) => None,
        Some(language) => {
            let able: Vec<&str> = crate::language::registry()
                .iter()
                .filter(|l| l.supports(capability))
                .map(|l| l.name())
                .collect();
            let name = language.name();
            Some(format!(
                "{path} is a {name} file: {what} do not support {name} (they work on {} files)",
                able.join(", ")
            ))
        }
        None => Some(format!(
            "{path} is not a Python file: {what} need a .py or .pyi file"
        )),
    }
}

/// The failure of a project-wide code command run while the current file
/// is not one the command supports: that first (the name asked for may be in that file),
/// then what the project's Python files said.
pub(super) fn unsupported_file_first(not_python: &str, failure: &str) -> String {
    format!("{not_python}; in the project's Python files: {failure}")
}

/// The name of a command's code target when it is dotted (`pkg.mod.f`,
/// `C.m`): a name that may be defined in another file.
fn dotted_target(command: &Command) -> Option<String> {
    use commands::{CodeTarget, DeleteTarget, GotoTarget, ShowTarget};
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
