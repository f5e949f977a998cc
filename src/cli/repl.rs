//! `eddi repl`: one message per line, with line editing and history when
//! stdin is a terminal, plain line reading when it is not (pipes, tests).

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

use clap::Args;
use rustyline::error::ReadlineError;

use super::LocalArgs;
use crate::engine::{Engine, Request};

#[derive(Debug, Args)]
pub struct ReplArgs {
    #[command(flatten)]
    pub local: LocalArgs,
}

pub fn repl(args: ReplArgs) -> Result<ExitCode, String> {
    let engine = args.local.engine(false)?;
    let sender = args.local.sender.clone();
    if !io::stdin().is_terminal() {
        return piped(&engine, &sender);
    }
    let mut editor = rustyline::DefaultEditor::new().map_err(|e| format!("eddi: terminal: {e}"))?;
    let history = engine.workspace().root().join(".eddi").join("repl_history");
    let _ = editor.load_history(&history);
    println!(
        "Eddi {} — workspace {}. Help lists the commands; Ctrl-D quits.",
        env!("CARGO_PKG_VERSION"),
        engine.workspace().root().display()
    );
    loop {
        match editor.readline("eddi> ") {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => {
                let _ = editor.add_history_entry(line.as_str());
                println!(
                    "{}",
                    engine
                        .execute(&Request {
                            sender: &sender,
                            text: &line,
                            id: None
                        })
                        .text
                );
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(format!("eddi: terminal: {e}")),
        }
    }
    let _ = editor.save_history(&history);
    // (the next process's first queries read what this one scanned)
    engine.store_index_scans();
    Ok(ExitCode::SUCCESS)
}

/// Without a terminal: read lines, answer each, flush after every reply.
fn piped(engine: &Engine, sender: &str) -> Result<ExitCode, String> {
    let stdout = io::stdout();
    for line in io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("eddi: stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = engine.execute(&Request {
            sender,
            text: &line,
            id: None,
        });
        let mut out = stdout.lock();
        writeln!(out, "{}", reply.text)
            .and_then(|_| out.flush())
            .map_err(|e| format!("eddi: stdout: {e}"))?;
    }
    engine.store_index_scans();
    Ok(ExitCode::SUCCESS)
}
