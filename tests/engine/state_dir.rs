//! The state directory as real processes see it: one Eddi at a time (the
//! second is refused naming the holder, a `kill -9`ed holder frees it), and
//! the versioned format (an unversioned directory is migrated, a newer one
//! refused).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Output, Stdio};

use crate::support::cli::{self, run, Repl};
use crate::support::nats::*;

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout)
        .trim_end()
        .to_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr)
        .trim_end()
        .to_owned()
}

#[test]
fn a_second_eddi_on_one_state_dir_is_refused_until_the_holder_dies() {
    let dir = tempfile::tempdir().unwrap();
    let mut holder = Repl::start(dir.path(), &[]);
    assert_eq!(holder.ask("Start held"), "Ok");
    assert_eq!(holder.ask("Open Create a.py"), "Ok, At 0:0, Length 0");
    assert_eq!(
        holder.ask("Insert Line \"x = 1\""),
        "Ok, Inserted 1 line at 0, At 1:0"
    );

    let refused = run(dir.path(), &[], "Status\n");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert_eq!(stdout(&refused), "", "no command ran");
    let message = stderr(&refused);
    let pid = holder.child.id();
    assert!(
        message.contains(&format!(
            "is in use by another Eddi (pid {pid}, eddi repl, since "
        )),
        "{message}"
    );
    assert!(message.contains("eddi send --sender"), "{message}");
    assert!(message.contains("another --state-dir"), "{message}");

    // Another state directory is another Eddi's to hold.
    let other = dir.path().join("other-state");
    let beside = run(
        dir.path(),
        &["--state-dir", other.to_str().unwrap()],
        "Start beside\nStatus\n",
    );
    assert_eq!(
        stdout(&beside),
        "Ok\nOk: Session beside, No file",
        "{beside:?}"
    );

    // kill -9: the OS drops the lock; the next Eddi finds the session the
    // holder left, unsaved edit included.
    holder.child.kill().unwrap();
    holder.child.wait().unwrap();
    let after = run(dir.path(), &[], "Status\nShow Line 0\n");
    assert_eq!(
        stdout(&after),
        "Ok: Session held, File a.py, At 1:0, Modified\nOk: At 0:0, Txt x = 1",
        "{after:?}"
    );
}

#[test]
fn eddi_serve_holds_the_state_dir_against_run_and_a_second_serve() {
    let nats = NatsServer::start();
    let dir = tempfile::tempdir().unwrap();
    let serve = |root: &Path| {
        cli::serve(root, &["--nats-url", &nats.url()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut first = serve(dir.path());
    let mut out = BufReader::new(first.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("send commands with") {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "serve stopped");
    }

    let refused = run(dir.path(), &[], "Status\n");
    assert_eq!(refused.status.code(), Some(2));
    // The holder says how to reach it.
    let holder = format!("(pid {}, eddi serve, since 20", first.id());
    let reach = format!(
        "; reach it with: eddi send --nats-url {} --sender NAME 'Start s; Status'). Two Eddis",
        nats.url()
    );
    assert!(
        stderr(&refused).contains(&holder) && stderr(&refused).contains(&reach),
        "{}",
        stderr(&refused)
    );

    let second = serve(dir.path()).wait_with_output().unwrap();
    assert!(!second.status.success());
    assert!(
        stderr(&second).contains(&format!("in use by another Eddi (pid {}", first.id())),
        "{}",
        stderr(&second)
    );
    first.kill().unwrap();
    first.wait().unwrap();
}

#[test]
fn a_state_dir_from_before_versioning_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(
        dir.path(),
        &[],
        "Start old\nOpen Create a.py\nInsert Line \"x = 1\"\n",
    );
    assert!(first.status.success(), "{first:?}");
    // Today's layout without its version: what Eddi wrote before versioning.
    let state = dir.path().join(".eddi");
    std::fs::remove_file(state.join("format.json")).unwrap();

    let again = run(dir.path(), &[], "Status\nShow Line 0\n");
    assert_eq!(
        stdout(&again),
        "Ok: Session old, File a.py, At 1:0, Modified\nOk: At 0:0, Txt x = 1",
        "{again:?}"
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(state.join("format.json")).unwrap()).unwrap();
    assert_eq!(record["format"], 6);
    assert_eq!(
        record["written_by"],
        format!("eddi {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_state_dir_of_a_newer_format_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(dir.path(), &[], "Start future\n");
    assert!(first.status.success(), "{first:?}");
    let state = dir.path().join(".eddi");
    let newer = r#"{"format": 7, "written_by": "eddi 9.0.0"}"#;
    std::fs::write(state.join("format.json"), newer).unwrap();
    let snapshot = state.join("sessions/future/snapshot.json");
    let before = std::fs::read(&snapshot).unwrap();

    let refused = run(dir.path(), &[], "Status\n");
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(stdout(&refused), "");
    let message = stderr(&refused);
    assert!(
        message.contains("holds state format 7 (written by eddi 9.0.0); this eddi"),
        "{message}"
    );
    assert!(
        message.contains("reads format 6 and older. Use that newer Eddi, or start this one with another --state-dir"),
        "{message}"
    );
    assert_eq!(std::fs::read(&snapshot).unwrap(), before);
    assert_eq!(
        std::fs::read_to_string(state.join("format.json")).unwrap(),
        newer
    );
}

#[test]
fn a_garbled_format_file_is_refused_saying_what_it_should_hold() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".eddi");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("format.json"), "version one").unwrap();
    let refused = run(dir.path(), &[], "Status\n");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains(r#"it should read {"format": 6, "written_by": "…"}"#),
        "{}",
        stderr(&refused)
    );
}
