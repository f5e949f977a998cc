//! The terse command language: text in, [`Command`]s out.
//!
//! Pure: no I/O, no session state. The parser never panics; bad input
//! becomes a [`ParseError`] that names what to fix.

pub mod command;

pub use command::*;
