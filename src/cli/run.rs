//! `eddi run [FILE|-]`: a script of commands, one reply line per command.
//!
//! Each command is sent as its own message, and each script (`foreach …`,
//! a `{ … }` block over many lines) as one (so `y`/`n` answers to a
//! `Replace Confirm` work in a script); the run stops at the first failure,
//! as a multi-command message does, and the exit code is 1 then; the
//! failing command's reply counts the skipped ones (`Fail "…", Skipped 2
//! commands`, or `"skipped": 2` in JSON), so there is exactly one line per
//! command that ran. On a terminal a long script draws a progress bar on
//! stderr (its stage, done/total), cleared before its reply is printed.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;

use super::LocalArgs;
use crate::commands;
use crate::engine::Request;
use crate::progress::Progress;

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
    // A long script draws how far it is, on a terminal only.
    let bar = io::stderr().is_terminal().then(progress_bar);
    let _watch = bar.clone().map(|bar| {
        engine.watch_progress(
            &args.local.sender,
            Arc::new(move |p: &Progress| {
                bar.set_length(p.total as u64);
                bar.set_position(p.done as u64);
                bar.set_message(p.stage.clone());
            }),
        )
    });
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
        if let Some(bar) = &bar {
            bar.finish_and_clear();
            bar.reset();
        }
        println!("{}", response.text);
        if !response.ok {
            engine.store_index_scans();
            return Ok(ExitCode::from(1));
        }
    }
    // (the next run's first queries read what this one scanned)
    engine.store_index_scans();
    Ok(ExitCode::SUCCESS)
}

/// The bar of a long script: its stage, a bar, done/total and the time left.
fn progress_bar() -> indicatif::ProgressBar {
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg:>16} [{bar:30}] {pos}/{len} ({eta} left)")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
