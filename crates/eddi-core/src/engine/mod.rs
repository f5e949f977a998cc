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
mod code_words;
mod context;
mod door;
mod drafts;
mod elsewhere;
mod files;
mod fit;
mod inspect;
mod leftovers;
mod member_rename;
mod member_signature;
mod modify;
mod navigate;
pub mod ops;
pub(crate) mod output;
mod parses;
mod policy;
mod query;
mod refactor;
mod refactor_words;
mod replace_files;
mod script;
mod search;
mod sessions;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::commands::{self, AnalyzeTarget, Command, ReplyDetail, ResponseFormat};
use crate::failure::{ErrorKind, OpError};
use crate::language::{Capability, Language};
use crate::reply::{Clause, Reply};
use crate::session::store::{JournalState, Store, StoreError};
use crate::session::{Event, Preferences, Session};
use crate::workspace::{Fault, Recovery, Workspace};

pub use apply::{Applied, ApplyMode};
pub use context::Ctx;
pub use fit::{fit_lines, ReplyRoom};
pub use policy::Permissions;
pub use refactor::{FileReport, RefactorFault, RefactorMode, RefactorReport};
pub(crate) use refactor_words::report as refactor_report;

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
    /// The room `text` was fitted in, if any: a transport with the same
    /// room need not measure it again.
    pub fitted_in: Option<ReplyRoom>,
    /// Each command's reply in its JSON form (`protocol/schemas/reply.json`),
    /// whatever `format`, when asked for ([`Engine::execute_with_data`]);
    /// else, and for the stored reply to a repeated id, empty.
    pub data: Vec<serde_json::Value>,
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
    /// Who watches each sender's progress (`eddi run`'s bar, an MCP
    /// client's progress token).
    watchers: std::sync::Arc<crate::progress::Watchers>,
    /// Where the progress of a session that asked for it (`Set Progress
    /// on`) goes: the service's NATS progress subject.
    progress_out: std::sync::OnceLock<ProgressOut>,
    /// The files scripts and queries parsed, by content (see `parses`).
    parses: parses::ParsedFiles,
}

/// A transport's way out for progress: (sender, progress).
pub type ProgressOut = std::sync::Arc<dyn Fn(&str, &crate::progress::Progress) + Send + Sync>;

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
            watchers: Default::default(),
            progress_out: std::sync::OnceLock::new(),
            parses: Default::default(),
        })
    }

    /// `sink` gets the progress of `sender`'s long commands (a script
    /// over the project) until the watch is dropped.
    pub fn watch_progress(
        &self,
        sender: &str,
        sink: crate::progress::ProgressSink,
    ) -> crate::progress::Watch {
        self.watchers.watch(sender, sink)
    }

    /// Where the progress of sessions that ask for it (`Set Progress on`)
    /// goes; set once, by the transport that serves them.
    pub fn send_progress_to(&self, out: ProgressOut) {
        let _ = self.progress_out.set(out);
    }

    /// The sinks for `sender`'s progress now: its watchers, and the
    /// transport's way out when its session asked for progress.
    pub(super) fn progress_sinks(
        &self,
        sender: &str,
        asked: bool,
    ) -> Vec<crate::progress::ProgressSink> {
        let mut sinks = self.watchers.of(sender);
        if let (true, Some(out)) = (asked, self.progress_out.get()) {
            let out = out.clone();
            let sender = sender.to_owned();
            sinks.push(std::sync::Arc::new(move |p: &crate::progress::Progress| {
                out(&sender, p)
            }));
        }
        sinks
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
        // A script is one command, whatever its lines and semicolons.
        let statements = match crate::script::message::is_script(text) {
            true => vec![commands::Statement {
                text: text.trim().to_owned(),
                span: commands::error::Span::new(0, text.chars().count()),
                parsed: Ok(Command::Script {
                    text: text.to_owned(),
                    mode: commands::ScriptMode::Run,
                }),
            }],
            false => commands::parse_message(text),
        };
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
    ) -> Result<Applied, OpError> {
        self.config
            .permissions
            .check_change(sender, change.touched())
            .map_err(|reason| OpError::new(ErrorKind::PermissionDenied, reason))?;
        self.release_idle(sender);
        let Some(live) = self.live_of(sender) else {
            return Err(OpError::new(
                ErrorKind::NoSession,
                "No session. Start one with: Start <name>",
            ));
        };
        let mut live = lock(&live);
        self.board
            .active(&live.session.name, std::time::SystemTime::now());
        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        // a refused change is a conflict with what is there
        let result = ctx.apply_change(change, mode).map_err(|fail| OpError {
            kind: ErrorKind::Conflict,
            ..fail
        });
        let carried = std::mem::take(&mut ctx.carried);
        let own = live.session.name.clone();
        let persisted = self.persist(&mut live);
        drop(live);
        // The session is unlocked: the write reaches the others' buffers.
        self.carry_over(&own, carried);
        persisted.map_err(|e| {
            OpError::new(
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

    /// [`Self::execute`], with each command's reply in its JSON form as
    /// [`Response::data`] (the `eddi` tool's `data`, the Python API).
    pub fn execute_with_data(&self, request: &Request<'_>) -> Response {
        let turn = self.prepare(request.sender, request.text);
        self.run_turn(request, turn, None, 0, true)
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
        self.run_turn(request, turn, room, 0, false)
    }

    fn execute_with(
        &self,
        request: &Request<'_>,
        room: Option<ReplyRoom>,
        remaining: usize,
    ) -> Response {
        let turn = self.prepare(request.sender, request.text);
        self.run_turn(request, turn, room, remaining, false)
    }

    fn run_turn(
        &self,
        request: &Request<'_>,
        turn: Turn,
        room: Option<ReplyRoom>,
        remaining: usize,
        with_data: bool,
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
                    fitted_in: room,
                    data: Vec::new(),
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
        let mut budget = fit::Budget::new(room);
        let rendering_of = |held: &Option<Held>| self.rendering(request.sender, held.as_deref());
        // A reply in place of the statements: the answer to a waiting
        // `Replace Confirm`, or why none of them runs.
        let answer = held
            .as_deref_mut()
            .and_then(|live| self.confirm_answer(&mut live.session, request.text));
        let mut instead = match answer {
            Some(Ok(reply)) => Some(reply),
            Some(Err(notice)) => {
                notices.push(notice);
                None
            }
            None => None,
        };
        if instead.is_none() && commands::parse_answer(request.text).is_some() {
            // A late answer: the walk ended (finished, or a command came).
            instead = Some(Reply::fail(ErrorKind::NotApplicable, format!(
                "No Replace Confirm is waiting for an answer, so '{}' is not understood; start one with: Replace Confirm \"<text>\" With \"<text>\"",
                request.text.trim()
            )));
        }
        if instead.is_none() {
            // The one door: a message is checked whole before any of it runs.
            instead = match self.denied(request.sender, &turn.statements) {
                Some(denied) => Some(Reply::fail(ErrorKind::PermissionDenied, denied)),
                None if turn.statements.is_empty() => Some(Reply::fail(
                    ErrorKind::InvalidCommand,
                    format!(
                        "Empty message. {}",
                        commands::help::help(None).unwrap_or_default()
                    ),
                )),
                None => None,
            };
        }
        let statements = match &mut instead {
            Some(reply) => {
                // A failed `y`/`n` answer in a script stops it too.
                if !reply.is_ok() && remaining > 0 {
                    reply.push(Clause::Skipped(remaining));
                }
                // It carries the notices (they are said once, so they must
                // not be lost).
                for notice in notices.drain(..) {
                    reply.push(Clause::Notice(notice));
                }
                Vec::new()
            }
            None => turn.statements,
        };
        if let Some(reply) = instead {
            budget.admit(reply, rendering_of(&held));
        }
        let started = std::time::Instant::now();
        for (index, statement) in statements.iter().enumerate() {
            let skipped = statements.len() - index - 1;
            if index > 0 {
                let not_run = budget
                    .not_run(skipped)
                    .or_else(|| self.out_of_time(started, index, skipped));
                if let Some(not_run) = not_run {
                    budget.admit(not_run, rendering_of(&held));
                    break;
                }
            }
            let mut reply = match &statement.parsed {
                Ok(command) => {
                    Reply::from(self.dispatch(request.sender, &mut held, command, room.as_ref()))
                }
                Err(error) => Reply::from(OpError::from(error.clone())),
            };
            for notice in notices.drain(..) {
                reply.push(Clause::Notice(notice));
            }
            let failed = !reply.is_ok();
            if failed && skipped + remaining > 0 {
                reply.push(Clause::Skipped(skipped + remaining));
            }
            budget.admit(reply, rendering_of(&held));
            if failed {
                break;
            }
        }
        // One turn, one write of its events to the journal (and at most one
        // fsync), before the reply leaves. The answered id is among them: a
        // crash between two writes would leave the changes without the id,
        // and the retry would apply them a second time.
        let (mut text, mut ok) = budget.text(rendering_of(&held));
        if let Some(live) = held.as_deref_mut() {
            if let Some(id) = request.id {
                note_answer(live, id, &text, ok);
            }
            if let Err(e) = self.persist(live) {
                budget.replace_last(Reply::fail(ErrorKind::Internal, format!(
                    "Could not persist the session ({e}); the changes of this message are applied in memory only, and written with the next message that can persist"
                )));
                (text, ok) = budget.text(self.rendering(request.sender, Some(live)));
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
            fitted_in: room,
            data: match with_data {
                true => budget.data(),
                false => Vec::new(),
            },
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
            progress: false,
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
        let mut reply = Reply::fail(ErrorKind::TooLarge, format!(
            "Not run: this message used up its time budget of {} ms after {ran} {}. Send this command and the rest again in another message",
            budget.as_millis(),
            crate::reply::plural(ran, "command")
        ));
        if skipped > 0 {
            reply.push(Clause::Skipped(skipped));
        }
        Some(reply)
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
            Some(answer) => Ok(Reply::from(ctx.answer(answer))),
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
        && !names_a_dotted_target(command)
}

/// Whether a command's code target is named with dots (`pkg.mod.f`,
/// `mod.C.m`): one the index may find in another file.
fn names_a_dotted_target(command: &Command) -> bool {
    match code_target(command) {
        Some(commands::CodeTarget::Method { class, .. }) => class.contains('.'),
        Some(target) => target_name_of(target).contains('.'),
        None => false,
    }
}

/// Locks a session outside a turn (a lock that is not poisoned: a panic
/// elsewhere must not take every later request of that sender down with it).
fn lock(live: &LiveRef) -> parking_lot::MutexGuard<'_, Live> {
    let mut guard = live.lock();
    guard.locked += 1;
    guard
}

/// Why the session's current file cannot be the context of `command`
/// (`Find References`), which needs `capability`: it is open and its
/// language lacks it.
pub(super) fn not_supported_here(
    session: &Session,
    capability: Capability,
    command: &str,
) -> Option<String> {
    let buffer = session.current_buffer()?;
    let path = buffer.path().as_str();
    match buffer.language() {
        Some(language) if language.supports(Capability::SymbolSites) => {
            not_yet(path, language, capability, command)
        }
        language => unsupported(path, language, capability, "code commands"),
    }
}

/// Why the project index's answer to `command` (`Find References`) leaves
/// out the session's current file: a file of code targets in a language
/// the index does not read (JavaScript); `None` for any other file.
pub(super) fn index_blind_here(session: &Session, command: &str) -> Option<String> {
    let buffer = session.current_buffer()?;
    let language = buffer.language_supporting(Capability::SymbolSites)?;
    not_yet(
        buffer.path().as_str(),
        language,
        Capability::IndexScan,
        command,
    )
}

/// Why `command` (`Modify`, `Analyze Complexity`) cannot work on the file
/// `path` of `language`, a language whose code targets other code
/// commands address (so not "code commands" as a whole): `None` when the
/// language offers `capability`.
pub(super) fn not_yet(
    path: &str,
    language: &dyn Language,
    capability: Capability,
    command: &str,
) -> Option<String> {
    if language.supports(capability) {
        return None;
    }
    let able: Vec<&str> = crate::language::registry()
        .iter()
        .filter(|l| l.supports(capability))
        .map(|l| l.name())
        .collect();
    let name = language.name();
    Some(format!(
        "{path} is a {name} file: {command} does not support {name} yet (it works on {} files)",
        able.join(", ")
    ))
}

/// Why `what` (`code commands`) cannot work on the file `path` of
/// `language`: `None` when the language offers `capability`. A file of
/// no registered language is told the languages that offer it, with
/// their extensions.
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
        // (whatever the command: the languages whose code Eddi knows)
        None => {
            let known = crate::language::registry()
                .iter()
                .filter(|l| l.supports(Capability::Outline));
            let able: Vec<String> = known
                .map(|l| {
                    let dotted: Vec<String> =
                        l.extensions().iter().map(|e| format!(".{e}")).collect();
                    format!("{} ({})", l.name(), dotted.join(", "))
                })
                .collect();
            Some(format!(
                "{path} is in no language Eddi knows: {what} work on {} files, and on scripts whose #! line names one",
                able.join(", ")
            ))
        }
    }
}

/// The failure of a project-wide code command run while the current file
/// is not one the command supports: that first (the name asked for may be in that file),
/// then what the project's Python files said.
pub(super) fn unsupported_file_first(not_python: &str, failure: &str) -> String {
    format!("{not_python}; in the project's Python files: {failure}")
}

/// The failure of a query of the project index (`Find References`) run
/// while the current file is not one it reads: that first, then what the
/// files of every language the index reads said.
pub(super) fn unindexed_file_first(not_indexed: &str, failure: &str) -> String {
    let read: Vec<&str> = crate::language::registry()
        .iter()
        .filter(|l| l.supports(Capability::IndexScan))
        .map(|l| l.name())
        .collect();
    format!(
        "{not_indexed}; in the project's {} files: {failure}",
        read.join(", ")
    )
}

/// The code target a command names, if it names one.
fn code_target(command: &Command) -> Option<&commands::CodeTarget> {
    use commands::{DeleteTarget, GotoTarget, ShowTarget};
    match command {
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
        } => Some(t),
        Command::Format {
            target: Some(t), ..
        }
        | Command::Validate { target: Some(t) } => Some(t),
        _ => None,
    }
}

/// The name of a command's code target (`f`, `C.m`, `pkg.mod.f`): a name
/// that may be defined in another file.
fn target_name(command: &Command) -> Option<String> {
    code_target(command).map(target_name_of)
}

fn target_name_of(target: &commands::CodeTarget) -> String {
    use commands::CodeTarget;
    match target {
        CodeTarget::Method { class, name, .. } => format!("{class}.{name}"),
        CodeTarget::Function { name, .. }
        | CodeTarget::Class { name }
        | CodeTarget::Variable { name } => name.clone(),
    }
}

#[cfg(test)]
mod tests;
