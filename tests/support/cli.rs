//! The `eddi` binary as a child process, driven the way a person or an
//! agent drives it: a script through `eddi run`, a live `eddi repl`, and
//! `eddi serve` with its output and its signals. Every child starts without
//! the `EDDI_*` variables of the shell that runs the tests, so a test sees
//! only what it sets itself.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// The `eddi` binary, with no `EDDI_*` variable of the test's environment.
pub fn eddi() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_eddi"));
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("EDDI_") {
            command.env_remove(name);
        }
    }
    command
}

/// [`eddi`] working in `root`.
pub fn eddi_in(root: &Path) -> Command {
    let mut command = eddi();
    command.current_dir(root);
    command
}

/// `eddi run --root <root> <args>` in `root` with `script` on its stdin.
pub fn run(root: &Path, args: &[&str], script: &str) -> Output {
    run_script(
        eddi_in(root).arg("run").arg("--root").arg(root).args(args),
        script,
    )
}

/// Spawns `command` with `script` on its stdin (closed after it) and waits
/// for it; stdout and stderr are kept in the output.
pub fn run_script(command: &mut Command, script: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The lines a run printed on stdout (which must be UTF-8).
pub fn lines(output: &Output) -> Vec<String> {
    std::str::from_utf8(&output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A run's exit code; -1 when a signal ended it.
pub fn code(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

/// A running `eddi repl`: one command line in, one reply line out.
pub struct Repl {
    pub child: Child,
    pub stdin: ChildStdin,
    pub stdout: BufReader<ChildStdout>,
}

impl Repl {
    /// `eddi repl --root <root> <args>` in `root`.
    pub fn start(root: &Path, args: &[&str]) -> Repl {
        Repl::spawn(eddi_in(root).arg("repl").arg("--root").arg(root).args(args))
    }

    /// Spawns `command` (an `eddi repl`) with piped stdin and stdout.
    pub fn spawn(command: &mut Command) -> Repl {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Repl {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends `command`, returns its reply; panics if the repl is gone.
    pub fn ask(&mut self, command: &str) -> String {
        ask(&mut self.stdin, &mut self.stdout, command)
            .unwrap_or_else(|| panic!("eddi repl gave no reply to {command:?}"))
    }
}

/// Sends one command line to a running `eddi repl` and reads its reply
/// line; `None` once the process is gone.
pub fn ask(
    stdin: &mut ChildStdin,
    stdout: &mut BufReader<ChildStdout>,
    command: &str,
) -> Option<String> {
    writeln!(stdin, "{command}").ok()?;
    stdin.flush().ok()?;
    let mut reply = String::new();
    match stdout.read_line(&mut reply) {
        Ok(n) if n > 0 => Some(reply.trim_end().to_owned()),
        _ => None,
    }
}

/// `eddi serve --root <root> <args>` in `root`, logging warnings, its
/// output discarded; the caller may redirect it, then spawns it.
pub fn serve(root: &Path, args: &[&str]) -> Command {
    let mut command = eddi_in(root);
    command
        .arg("serve")
        .arg("--root")
        .arg(root)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// Reads the child's stdout lines (taking its stdout) until one contains
/// `needle`, for up to 30 s; returns that line.
pub fn wait_for_line(child: &mut Child, needle: &str) -> String {
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
            if line.contains(needle) {
                return line;
            }
            seen.push(line);
        }
    }
    panic!("eddi serve never printed {needle:?}; printed {seen:?}");
}

/// Sends `signal` (`-TERM`, `-INT`, …) to the child with `kill`.
pub fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} {}", child.id());
}

/// Sends SIGTERM, the graceful stop.
pub fn sigterm(child: &Child) {
    signal(child, "-TERM");
}

/// Waits up to 20 s for the child to exit; returns how it ended.
pub fn wait_exit(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "eddi serve did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}
