//! `eddi run [FILE|-]`: a script of commands, one reply line per command.
//!
//! Each command is sent as its own message, and each script (`foreach …`,
//! a `{ … }` block over many lines) as one (so `y`/`n` answers to a
//! `Replace Confirm` work in a script); the run stops at the first failure,
//! as a multi-command message does, and the exit code is 1 then; the
//! failing command's reply counts the skipped ones (`Fail "…", Skipped 2
//! commands`, or `"skipped": 2` in JSON), so there is exactly one line per
//! command that ran.

use std::io::{self, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::LocalArgs;
use crate::commands;
use crate::engine::Request;

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
    let engine = args.local.engine(true)?;
    // Each script of the file (`foreach …`, `{ … }` over many lines) is one
    // message; the commands between them one message each.
    let mut messages: Vec<String> = Vec::new();
    for (is_script, text) in eddi_core::script::message::split(&script) {
        match is_script {
            true => messages.push(text),
            false => messages.extend(
                commands::parse_message(&text)
                    .into_iter()
                    .map(|statement| statement.text),
            ),
        }
    }
    for (index, message) in messages.iter().enumerate() {
        // The failing reply itself says how many commands were skipped.
        let remaining = messages.len() - index - 1;
        let response = engine.execute_in_script(
            &Request {
                sender: &args.local.sender,
                text: message,
                id: None,
            },
            remaining,
        );
        println!("{}", response.text);
        if !response.ok {
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}
