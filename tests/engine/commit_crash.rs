//! A process that dies in the middle of a multi-file commit (`Save All`):
//! after the restart every file is entirely old or entirely new, and the
//! files of one commit are all old or all new — never a mix.

use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli::{ask, eddi_in, lines, run_script, Repl};

fn run(root: &Path, script: &str, fault: Option<&str>) -> (Vec<String>, ExitStatus) {
    let mut command = eddi_in(root);
    command
        .args(["run", "--sender", "agent", "--root"])
        .arg(root);
    if let Some(fault) = fault {
        command.env("EDDI_FAULT_COMMIT", fault);
    }
    let output = run_script(&mut command, script);
    (lines(&output), output.status)
}

const FILES: [&str; 3] = ["a.py", "pkg/b.py", "pkg/c.py"];

fn read(root: &Path, name: &str) -> String {
    std::fs::read_to_string(root.join(name)).unwrap()
}

/// No temp files or backups left in the project's directories.
fn leftovers(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for dir in [root.to_path_buf(), root.join("pkg")] {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(".eddi-") {
                found.push(name);
            }
        }
    }
    found
}

#[test]
fn a_crash_at_any_file_of_save_all_rolls_the_whole_commit_back() {
    for k in 0..FILES.len() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("pkg")).unwrap();
        for name in FILES {
            std::fs::write(root.join(name), format!("# {name}\n")).unwrap();
        }
        let mut script = String::from("Start s\n");
        for name in FILES {
            script.push_str(&format!("Open {name}\nInsert Line \"new = 1\"\n"));
        }
        script.push_str("Save All\n");
        let (replies, status) = run(root, &script, Some(&format!("crash-after:{k}")));
        assert!(!status.success(), "the process aborted: {replies:?}");
        assert!(
            !replies.iter().any(|r| r.starts_with("Ok, Saved")),
            "no Ok for a commit that did not finish: {replies:?}"
        );
        let changed = FILES
            .iter()
            .filter(|n| read(root, n).starts_with("new"))
            .count();
        assert_eq!(changed, k + 1, "the crash came after file {k}");

        // The restart rolls the interrupted commit back, every file.
        let (replies, _) = run(root, "Status\n", None);
        for name in FILES {
            assert_eq!(
                read(root, name),
                format!("# {name}\n"),
                "after a crash at {k}"
            );
        }
        assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
        // The session still has its unsaved edits, and saving works now.
        assert_eq!(
            replies,
            ["Ok: Session s, File pkg/c.py, At 1:0, Modified, 3 files open"]
        );
        let (replies, _) = run(root, "Save All\n", None);
        assert_eq!(
            replies,
            ["Ok, Saved 3 files: a.py, pkg/b.py, pkg/c.py, Bytes 53"]
        );
        for name in FILES {
            assert_eq!(read(root, name), format!("new = 1\n# {name}\n"));
        }
    }
}

/// `kill -9` at random moments while a live process commits several large
/// files again and again: every file is one whole generation, the same for
/// all files, and no older than the last commit that was answered `Ok`.
#[test]
fn kill_9_during_save_all_of_large_files_never_leaves_a_mix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("pkg")).unwrap();
    let body = "x = 1  # padding padding padding padding padding\n".repeat(60_000); // ~3 MB
    for name in FILES {
        std::fs::write(root.join(name), format!("gen = 0\n{body}")).unwrap();
    }
    let mut acknowledged = 0;
    let mut generation = 0;
    let started = Instant::now();
    for round in 0u64..8 {
        let Repl {
            mut child,
            mut stdin,
            mut stdout,
        } = Repl::spawn(
            eddi_in(root)
                .args(["repl", "--sender", "agent", "--root"])
                .arg(root)
                .stderr(Stdio::null()),
        );
        let mut say = |command: &str| ask(&mut stdin, &mut stdout, command).unwrap();
        if round == 0 {
            assert_eq!(say("Start s"), "Ok");
        }
        // Edit every file to the next generation; the kill lands during the
        // save (a pseudo-random delay, different every round).
        generation += 1;
        for name in FILES {
            for command in [
                format!("Open {name}"),
                "Goto 0:0".to_owned(),
                "Delete Current".to_owned(),
                format!("Insert Line \"gen = {generation}\""),
            ] {
                let reply = say(&command);
                assert!(reply.starts_with("Ok"), "{command}: {reply}");
            }
        }
        // From early in the writing to well after the reply, in a jumbled order.
        let delay = Duration::from_millis([100, 20, 300, 60, 200, 40, 500, 80][round as usize]);
        let saver = std::thread::spawn(move || ask(&mut stdin, &mut stdout, "Save All"));
        std::thread::sleep(delay);
        child.kill().unwrap();
        child.wait().unwrap();
        let reply = saver.join().unwrap();
        if reply
            .as_deref()
            .is_some_and(|r| r.starts_with("Ok, Saved 3 files"))
        {
            acknowledged = generation;
        }
        // Restart (recovery runs in Engine::open), then look at the disk.
        let (status, _) = run(root, "Status\n", None);
        assert!(status[0].starts_with("Ok: Session s"), "{status:?}");
        let firsts: Vec<String> = FILES
            .iter()
            .map(|name| read(root, name).lines().next().unwrap().to_owned())
            .collect();
        assert!(
            firsts.iter().all(|f| f == &firsts[0]),
            "a mix across files: {firsts:?}"
        );
        let on_disk: u64 = firsts[0].trim_start_matches("gen = ").parse().unwrap();
        assert!(
            on_disk >= acknowledged,
            "an answered save was lost: {on_disk} < {acknowledged}"
        );
        for name in FILES {
            let text = read(root, name);
            assert!(text.ends_with(&body), "{name} is not whole");
            assert_eq!(
                text.len(),
                firsts[0].len() + 1 + body.len(),
                "{name} is not whole"
            );
        }
        assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
        eprintln!(
            "round {round}: delay {delay:?}, answered {}, on disk gen {on_disk} of {generation}",
            acknowledged == generation
        );
        // Next round starts from the generation on disk.
        generation = generation.max(on_disk);
    }
    assert!(started.elapsed() < Duration::from_secs(120));
}
