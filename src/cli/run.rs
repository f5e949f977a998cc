//! `eddi run [FILE|-]`: a script of commands, one reply line per command.
//!
//! Each command is sent as its own message (so `y`/`n` answers to a
//! `Replace Confirm` work in a script); the run stops at the first failure,
//! as a multi-command message does, and the exit code is 1 then. The
//! commands left unrun are counted on one more line, `Skipped <n> commands`
//! (in a multi-command message the count is part of the failure's reply).

use std::io::{self, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::LocalArgs;
use crate::engine::Request;
use crate::lang;

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub local: LocalArgs,
    /// The file of commands; `-` or nothing reads stdin.
    pub file: Option<PathBuf>,
}

pub fn run(args: RunArgs) -> Result<ExitCode, String> {
    let script = match &args.file {
        Some(path) if path.as_os_str() != "-" => std::fs::read_to_string(path)
            .map_err(|e| format!("eddi: cannot read {}: {e}", path.display()))?,
        _ => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("eddi: cannot read stdin: {e}"))?;
            text
        }
    };
    let engine = args.local.engine()?;
    let statements = lang::parse_message(&script);
    for (index, statement) in statements.iter().enumerate() {
        let response = engine.execute(&Request {
            sender: &args.local.sender,
            text: &statement.text,
            id: None,
        });
        println!("{}", response.text);
        if !response.ok {
            let skipped = statements.len() - index - 1;
            if skipped > 0 {
                println!(
                    "Skipped {skipped} {}",
                    crate::reply::plural(skipped, "command")
                );
            }
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}
