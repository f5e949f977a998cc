//! The command line: `eddi run`, `eddi repl`, `eddi serve`, `eddi send`.
//!
//! Each subcommand lives in its own module and drives the same core
//! ([`crate::engine::Engine`]); none of them holds command logic.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod send;
pub mod serve;

/// Eddi: a code editor without a screen, for LLM agents.
#[derive(Debug, Parser)]
#[command(name = "eddi", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: CliCommand,
}

#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// Serve Eddi on NATS until SIGINT/SIGTERM.
    Serve(Box<serve::ServeArgs>),
    /// Send commands to a running Eddi and print the answer.
    Send(send::SendArgs),
}

/// Entry point of the binary; returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        CliCommand::Serve(args) => serve::run(*args),
        CliCommand::Send(args) => send::run(args),
    }
}
