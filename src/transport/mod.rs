//! Eddi on NATS: the communication layer of the spec.
//!
//! - [`listener`] — `NATSStreamListener`: connection, auth, reconnect events;
//! - [`validator`] — `MessageValidator`: size, UTF-8, sender ids, control
//!   characters, permissions;
//! - [`router`] — `MessageRouter`: per-sender order, bounded concurrency;
//! - [`handshake`] — version/feature negotiation and the accepted senders;
//! - [`wire`] — the JSON messages, mirroring `protocol/schemas/`;
//! - [`server`] — the service registration and the main loop;
//! - [`report`] — the error-reporting unit every layer calls;
//! - [`embedded`] — a private `nats-server` when none is configured.
//!
//! **Invariant:** no command logic lives here. Messages go to a
//! [`CommandHandler`] (the engine) and its rendered reply goes back out.
//! Only this module knows NATS subjects and the wire's serde shapes.

pub mod embedded;
pub mod handler;
pub mod handshake;
pub mod listener;
pub mod report;
pub mod router;
pub mod server;
pub mod validator;
pub mod wire;

pub use handler::{CommandHandler, Incoming, Reply};
pub use server::{serve, Ready, ServeSettings, Subjects};
