//! The command line: `eddi run`, `eddi repl`, `eddi serve`, `eddi send`,
//! `eddi mcp`.
//!
//! Each subcommand lives in its own module and drives the same core
//! ([`crate::engine::Engine`]); none of them holds command logic.

mod repl;
mod run;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::engine::{Engine, EngineConfig};

pub mod mcp;
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
    /// Run the commands of a file (or stdin) as one sender: one reply line per
    /// command; at the first failure it stops (exit 1), saying `Skipped <n> commands`.
    Run(run::RunArgs),
    /// Interactive session with line editing and history.
    Repl(repl::ReplArgs),
    /// Serve Eddi on NATS until SIGINT/SIGTERM.
    ///
    /// On SIGINT or SIGTERM it takes no new messages, lets the running ones
    /// finish (their commits complete), persists every session, then waits
    /// at most 5 s for the broker to take the last replies: it stops even
    /// while NATS is unreachable.
    Serve(Box<serve::ServeArgs>),
    /// Send commands to a running Eddi and print the answer.
    Send(send::SendArgs),
    /// Serve the agent tools over MCP on stdio (for MCP clients).
    Mcp(mcp::McpArgs),
}

/// Where the workspace is and who is speaking: shared by `run` and `repl`.
#[derive(Debug, Args)]
pub struct LocalArgs {
    /// The workspace root; every path is resolved inside it.
    #[arg(long, env = "EDDI_ROOT", default_value = ".")]
    pub root: PathBuf,
    /// Where sessions persist (default: <root>/.eddi).
    #[arg(long, env = "EDDI_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
    /// The sender id the commands come from.
    #[arg(long, env = "EDDI_SENDER", default_value = "cli")]
    pub sender: String,
}

impl LocalArgs {
    fn engine(&self, one_shot: bool) -> Result<Engine, String> {
        // quiet unless asked: stderr is the user's terminal
        if std::env::var_os("RUST_LOG").is_some() {
            crate::transport::report::init(crate::transport::report::LogFormat::Human);
        }
        let mut config = EngineConfig::new(&self.root);
        config.state_dir = self.state_dir.clone();
        config.watch_tree = !one_shot;
        Engine::open(config).map_err(|e| format!("eddi: {e}"))
    }
}

/// Entry point of the binary; returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        CliCommand::Run(args) => run::run(args),
        CliCommand::Repl(args) => repl::repl(args),
        CliCommand::Serve(args) => Ok(serve::run(*args)),
        CliCommand::Send(args) => Ok(send::run(args)),
        CliCommand::Mcp(args) => mcp::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}
