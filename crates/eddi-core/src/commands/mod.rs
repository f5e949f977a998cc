//! The terse command language: text in, [`Command`]s out.
//!
//! Pure: no I/O, no session state. The parser never panics; bad input
//! becomes a [`ParseError`] that names what to fix.
//!
//! - [`lexer`]: text to tokens with char spans.
//! - [`parser`]: tokens to [`Statement`]s ([`parse_message`]) or one
//!   [`Command`] ([`parse_command`]).
//! - [`help`]: the command table behind usage lines, suggestions, `Help`
//!   and `docs/COMMANDS.md`.
//! - [`error`]: [`ParseError`], [`Span`] and [`quote_for_reply`].
//! - [`print`]: `Display` for [`Command`], canonical text that parses back.
//! - [`command`]: the validated commands the engine executes.
//! - [`effect`]: what each command may do ([`Effect`]), for every policy.
//! - [`replacement`]: `Replace`'s replacement text (`$1`, `${name}`, `$$`).

pub mod command;
pub mod effect;
pub mod error;
pub mod help;
pub mod lexer;
pub mod parser;
pub mod print;
pub mod replacement;

pub use command::*;
pub use effect::Effect;
pub use error::{quote_for_reply, ParseError, Span};
pub use help::{help, CommandSpec, COMMANDS};
pub use parser::{parse_answer, parse_command, parse_message, Answer, Statement};
