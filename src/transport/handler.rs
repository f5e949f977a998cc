//! The one seam between the transport and the core: [`CommandHandler`].
//!
//! The transport never interprets commands. It hands each message's text to a
//! handler and publishes the rendered reply. [`crate::engine::Engine`]
//! implements the trait; tests drive the router with small fakes.

use crate::commands::{ReplyDetail, ResponseFormat};
use crate::engine::{Engine, ReplyRoom, Request, Response, Turn};

/// One message to run: eddispeak text from one sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// The sender id (validated by [`super::validator`]).
    pub sender: String,
    /// The message text (UTF-8, sanitised), one or more commands.
    pub text: String,
    /// The message id for retry de-duplication (stream `id` or `Nats-Msg-Id`).
    pub id: Option<String>,
    /// How many bytes the reply may take on its way back (`None`: any).
    pub room: Option<ReplyRoom>,
}

/// The rendered answer to one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// One line per command, terse or JSON per the sender's preference.
    pub text: String,
    /// `false` when any command failed.
    pub ok: bool,
    /// `true` when the message repeated an id already answered.
    pub duplicate: bool,
    /// How `text` is rendered: the transport's own replies are terse.
    pub format: ResponseFormat,
    /// The room the engine fitted `text` in, if it did: measured already.
    pub fitted_in: Option<ReplyRoom>,
}

impl Reply {
    /// The reply as it fits `room`: the last guard before the wire, for
    /// replies the engine did not fit (the transport's own, a handler's
    /// that ignores the room). Its first lines and a `Fail` saying the rest
    /// was left out; unchanged when it fits.
    pub fn fitted(mut self, room: &ReplyRoom) -> Reply {
        if self.fitted_in.as_ref() == Some(room) {
            return self;
        }
        if let Some(text) = crate::engine::fit_lines(&self.text, self.format, room) {
            self.text = text;
            self.ok = false;
        }
        self
    }

    /// A `Fail "<message>"` produced by the transport itself (rejections).
    pub fn fail(message: &str) -> Reply {
        Reply {
            text: fail_line(message),
            ok: false,
            duplicate: false,
            format: ResponseFormat::Terse,
            fitted_in: None,
        }
    }
}

/// Renders `Fail "<message>"` exactly as the engine renders its own
/// failures (same escaping), so the reply stays one line.
pub fn fail_line(message: &str) -> String {
    crate::reply::fail_line(message)
}

/// A message the handler has looked at once, before it is routed: whether
/// it is quick (the router may run it on its own task), and the handler's
/// parse of it, handed back to [`CommandHandler::run`] so the message is
/// parsed once.
#[derive(Debug, Default)]
pub struct Prepared {
    quick: bool,
    light: bool,
    turn: Option<Turn>,
}

impl Prepared {
    /// For handlers that keep nothing of the look (fakes in tests): a quick
    /// message is light, any other heavy.
    pub fn quick(quick: bool) -> Prepared {
        Prepared {
            quick,
            light: quick,
            turn: None,
        }
    }

    /// For handlers that keep nothing of the look: a light message that is
    /// not quick (fakes in tests).
    pub fn light() -> Prepared {
        Prepared {
            quick: false,
            light: true,
            turn: None,
        }
    }

    pub fn is_quick(&self) -> bool {
        self.quick
    }

    /// Whether it is light: reads and moves in the sender's own buffers,
    /// which never wait for the disk (no fsync) and never work on the
    /// whole project. The router runs light messages before heavy ones
    /// and keeps threads free for them.
    pub fn is_light(&self) -> bool {
        self.light
    }
}

/// What the transport needs from the core. Implementations are synchronous
/// (they may do file I/O and fsync); the router calls them from
/// `tokio::task::spawn_blocking`.
pub trait CommandHandler: Send + Sync + 'static {
    /// Runs one message (one or more commands) and renders the reply.
    fn handle(&self, request: &Incoming) -> Reply;
    /// Looks at a message once: is it cheap enough to run on an async
    /// worker (microseconds, no fsync, no process)? The router then skips
    /// its pool.
    fn prepare(&self, _request: &Incoming) -> Prepared {
        Prepared::default()
    }
    /// Runs a message [`Self::prepare`] looked at.
    fn run(&self, request: &Incoming, _prepared: Prepared) -> Reply {
        self.handle(request)
    }
    /// The sender's active session name, if it has one.
    fn session_of(&self, sender: &str) -> Option<String>;
    /// Records the response format a sender asked for in its handshake.
    fn set_response_format(&self, sender: &str, format: ResponseFormat);
    /// Records the reply detail (brief/full) a sender asked for in its handshake.
    fn set_reply_detail(&self, _sender: &str, _detail: ReplyDetail) {}
    /// Records the preview mode a sender asked for in its handshake.
    fn set_preview_mode(&self, _sender: &str, _on: bool) {}
    /// Persists everything (called on shutdown).
    fn flush(&self) -> Result<(), String>;
    /// Runs one agent tool (`tools.call`), at most once per request id.
    /// Handlers without tools (fakes in tests) refuse every call.
    fn call_tool(
        &self,
        _sender: &str,
        tool: &str,
        _params: serde_json::Value,
        _id: Option<&str>,
    ) -> ToolAnswer {
        let error = crate::tools::ToolError::new(
            "unknown_tool",
            format!("This service runs no tools, so not '{tool}'"),
        );
        ToolAnswer {
            json: crate::tools::envelope(&Err(error)).to_string(),
            ok: false,
            duplicate: false,
        }
    }
}

/// The answer to a `tools.call`: the JSON envelope.
pub type ToolAnswer = crate::tools::Answer;

impl From<Response> for Reply {
    fn from(response: Response) -> Reply {
        Reply {
            text: response.text,
            ok: response.ok,
            duplicate: response.duplicate,
            format: response.format,
            fitted_in: response.fitted_in,
        }
    }
}

/// The engine is the handler in production: each call maps one to one.
impl CommandHandler for Engine {
    fn handle(&self, request: &Incoming) -> Reply {
        let prepared = CommandHandler::prepare(self, request);
        CommandHandler::run(self, request, prepared)
    }

    fn prepare(&self, request: &Incoming) -> Prepared {
        let turn = Engine::prepare(self, &request.sender, &request.text);
        Prepared {
            quick: turn.is_quick(),
            light: turn.is_light(),
            turn: Some(turn),
        }
    }

    fn run(&self, request: &Incoming, prepared: Prepared) -> Reply {
        let request_ref = Request {
            sender: &request.sender,
            text: &request.text,
            id: request.id.as_deref(),
        };
        let turn = prepared
            .turn
            .unwrap_or_else(|| Engine::prepare(self, &request.sender, &request.text));
        self.execute_turn(&request_ref, turn, request.room).into()
    }

    fn session_of(&self, sender: &str) -> Option<String> {
        Engine::session_of(self, sender)
    }

    fn set_response_format(&self, sender: &str, format: ResponseFormat) {
        Engine::set_response_format(self, sender, format)
    }

    fn set_reply_detail(&self, sender: &str, detail: ReplyDetail) {
        Engine::set_reply_detail(self, sender, detail)
    }

    fn set_preview_mode(&self, sender: &str, on: bool) {
        Engine::set_preview_mode(self, sender, on)
    }

    fn flush(&self) -> Result<(), String> {
        Engine::flush(self).map_err(|err| err.to_string())
    }

    fn call_tool(
        &self,
        sender: &str,
        tool: &str,
        params: serde_json::Value,
        id: Option<&str>,
    ) -> ToolAnswer {
        crate::tools::call_once(self, sender, tool, params, id)
    }
}
