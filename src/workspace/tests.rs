use std::fs;

use super::*;

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::new(dir.path(), 1024).unwrap();
    (dir, ws)
}

#[test]
fn resolves_inside_and_refuses_escapes() {
    let (dir, ws) = workspace();
    assert_eq!(ws.resolve("src/./a/../b.py").unwrap().as_str(), "src/b.py");
    assert!(matches!(ws.resolve("../x.py"), Err(FileError::Escapes(_))));
    assert!(matches!(
        ws.resolve("a/../../x.py"),
        Err(FileError::Escapes(_))
    ));
    assert!(matches!(
        ws.resolve("/etc/passwd"),
        Err(FileError::Escapes(_))
    ));
    let inside = ws.root().join("ok.py");
    assert_eq!(
        ws.resolve(inside.to_str().unwrap()).unwrap().as_str(),
        "ok.py"
    );
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
    assert!(matches!(
        ws.resolve("link/secret.py"),
        Err(FileError::Escapes(_))
    ));
}

#[test]
fn refuses_binary_non_utf8_and_large_files() {
    let (dir, ws) = workspace();
    fs::write(dir.path().join("bin"), b"ab\0cd").unwrap();
    fs::write(dir.path().join("latin1"), b"caf\xe9").unwrap();
    fs::write(dir.path().join("big"), vec![b'a'; 2048]).unwrap();
    assert!(matches!(
        ws.read(&ws.resolve("bin").unwrap()),
        Err(FileError::Binary(_))
    ));
    assert!(matches!(
        ws.read(&ws.resolve("latin1").unwrap()),
        Err(FileError::NotUtf8(_))
    ));
    assert!(matches!(
        ws.read(&ws.resolve("big").unwrap()),
        Err(FileError::TooLarge { .. })
    ));
    let missing = ws.read(&ws.resolve("missing").unwrap());
    assert!(matches!(missing, Err(FileError::NotFound(_))));
    // the files service speaks no command language: hints are the surface's
    assert_eq!(missing.unwrap_err().to_string(), "File not found: missing");
}

#[test]
fn atomic_write_keeps_permissions_and_detects_changes() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, ws) = workspace();
    let file = dir.path().join("run.sh");
    fs::write(&file, "old").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o750)).unwrap();
    let path = ws.resolve("run.sh").unwrap();
    let stamp = ws.write_atomic(&path, b"new text").unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), "new text");
    assert_eq!(
        fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o750
    );
    assert!(!ws.changed_since(&path, Some(&stamp)).unwrap());
    fs::write(&file, "changed by someone").unwrap();
    assert!(ws.changed_since(&path, Some(&stamp)).unwrap());
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".eddi-save"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn lists_with_gitignore_and_globs() {
    let (dir, ws) = workspace();
    fs::create_dir_all(dir.path().join("src/pkg")).unwrap();
    fs::write(dir.path().join(".gitignore"), "build/\n").unwrap();
    fs::create_dir_all(dir.path().join("build")).unwrap();
    fs::write(dir.path().join("build/out.py"), "").unwrap();
    fs::write(dir.path().join("src/pkg/a.py"), "").unwrap();
    fs::write(dir.path().join("src/b.txt"), "").unwrap();
    assert_eq!(ws.list(None).unwrap(), vec!["src/b.txt", "src/pkg/a.py"]);
    assert_eq!(ws.list(Some("**/*.py")).unwrap(), vec!["src/pkg/a.py"]);
    assert!(ws
        .list(Some("["))
        .unwrap_err()
        .starts_with("Invalid glob '['"));
}

mod commits {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn ws_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let ws = Workspace::new(dir.path(), 1 << 20).unwrap();
        (dir, ws)
    }

    fn write(ws: &Workspace, name: &str, content: Option<&str>) -> FileWrite {
        let path = ws.resolve(name).unwrap();
        let expect = match ws.stamp(&path).unwrap() {
            Some(stamp) => Expect::Stamp(stamp),
            None => Expect::Absent,
        };
        FileWrite {
            path,
            expect,
            content: content.map(|c| c.as_bytes().to_vec()),
        }
    }

    /// Every file of the tree, with its bytes (temps and backups included,
    /// so leftovers show up as differences).
    fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<_> = walk(dir)
            .into_iter()
            .filter(|p| !p.starts_with(dir.join(".eddi")))
            .map(|p| {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                (rel, fs::read(&p).unwrap())
            })
            .collect();
        files.sort();
        files
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for entry in fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path);
            }
        }
        out
    }

    const FILES: &[(&str, &str)] = &[
        ("a.py", "a = 1\n"),
        ("pkg/b.py", "b = 2\n"),
        ("pkg/c.py", "c = 3\n"),
        ("d.py", "d = 4\n"),
    ];

    fn change(ws: &Workspace) -> Vec<FileWrite> {
        vec![
            write(ws, "a.py", Some("a = 10\n")),
            write(ws, "pkg/b.py", Some("b = 20\n")),
            write(ws, "pkg/new.py", Some("new = 1\n")),
            write(ws, "pkg/c.py", None),
            write(ws, "d.py", Some("d = 40\n")),
        ]
    }

    fn after() -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = [
            ("a.py", "a = 10\n"),
            ("d.py", "d = 40\n"),
            ("pkg/b.py", "b = 20\n"),
            ("pkg/new.py", "new = 1\n"),
        ]
        .iter()
        .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
        .collect();
        files.sort();
        files
    }

    #[test]
    fn writes_creates_and_deletes_all_files_of_a_commit() {
        let (dir, ws) = ws_with(FILES);
        let stamps = ws.commit(&change(&ws)).unwrap();
        assert_eq!(tree(dir.path()), after());
        assert_eq!(stamps.iter().filter(|s| s.is_none()).count(), 1);
        assert_eq!(
            fs::read_dir(dir.path().join(".eddi/commits"))
                .unwrap()
                .count(),
            0,
            "the intent record is gone"
        );
    }

    #[test]
    fn a_failure_at_any_file_restores_every_file_byte_for_byte() {
        for k in 0..5 {
            // File 3 is a deletion: it has no temp file to prepare.
            let prepare = (k != 3).then_some(Fault::FailPrepare(k));
            for fault in prepare.into_iter().chain([Fault::FailApply(k)]) {
                let (dir, ws) = ws_with(FILES);
                let before = tree(dir.path());
                ws.inject_fault(Some(fault));
                let error = ws.commit(&change(&ws)).unwrap_err();
                assert_eq!(tree(dir.path()), before, "{fault:?}: {error}");
                assert!(error.to_string().contains("injected fault"), "{error}");
            }
        }
    }

    #[test]
    fn an_interrupted_commit_is_rolled_back_at_the_next_start() {
        for k in 0..5 {
            let (dir, ws) = ws_with(FILES);
            let before = tree(dir.path());
            ws.inject_fault(Some(Fault::AbandonAfterApply(k)));
            ws.commit(&change(&ws)).unwrap_err();
            assert_ne!(tree(dir.path()), before, "half applied, as after a crash");
            let restarted = Workspace::new(dir.path(), 1 << 20).unwrap();
            let recovery = restarted.recover().unwrap();
            assert_eq!(recovery.rolled_back, 1);
            assert_eq!(tree(dir.path()), before, "after abandoning at file {k}");
            assert_eq!(restarted.recover().unwrap(), Recovery::default());
        }
    }

    #[test]
    fn conflicts_name_every_changed_file_and_write_nothing() {
        let (dir, ws) = ws_with(FILES);
        let writes = change(&ws);
        fs::write(dir.path().join("a.py"), "a = 'someone else'\n").unwrap();
        fs::remove_file(dir.path().join("d.py")).unwrap();
        fs::write(dir.path().join("pkg/new.py"), "# theirs\n").unwrap();
        let before = tree(dir.path());
        let error = ws.commit(&writes).unwrap_err();
        let CommitError::Conflicts(conflicts) = &error else {
            panic!("{error}")
        };
        let found: Vec<(&str, Found)> = conflicts
            .iter()
            .map(|c| (c.path.as_str(), c.found))
            .collect();
        assert_eq!(
            found,
            [
                ("a.py", Found::Changed),
                ("pkg/new.py", Found::Created),
                ("d.py", Found::Deleted)
            ]
        );
        assert_eq!(
            error.to_string(),
            "a.py changed on disk, pkg/new.py was created on disk, d.py was deleted on disk since it was read; nothing was written"
        );
        assert_eq!(tree(dir.path()), before);
    }

    /// Two Workspaces on one root share no in-process locks, as two Eddi
    /// processes (`eddi run` beside `eddi serve`): the directory's OS lock
    /// still lets exactly one of two saves of one state win (before it,
    /// both passed the check now and then and one update was lost).
    #[test]
    fn of_two_processes_expecting_one_state_exactly_one_wins() {
        for _ in 0..100 {
            let (dir, ws) = ws_with(&[("f.py", "x = 0\n")]);
            let other = Workspace::new(dir.path(), 1 << 20).unwrap();
            let barrier = std::sync::Barrier::new(2);
            let results: Vec<bool> = std::thread::scope(|scope| {
                let handles: Vec<_> = [(&ws, "x = 1\n"), (&other, "x = 2\n")]
                    .into_iter()
                    .map(|(ws, text)| {
                        let barrier = &barrier;
                        let w = write(ws, "f.py", Some(text));
                        scope.spawn(move || {
                            barrier.wait();
                            ws.commit(&[w]).is_ok()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert_eq!(results.iter().filter(|ok| **ok).count(), 1, "{results:?}");
        }
    }

    /// Same size, same mtime tick: only the content tells the saves apart.
    #[test]
    fn of_two_commits_expecting_one_state_exactly_one_wins() {
        for _ in 0..50 {
            let (dir, ws) = ws_with(&[("f.py", "x = 0\n")]);
            let barrier = std::sync::Barrier::new(2);
            let results: Vec<bool> = std::thread::scope(|scope| {
                let handles: Vec<_> = ["x = 1\n", "x = 2\n"]
                    .into_iter()
                    .map(|text| {
                        let (ws, barrier) = (&ws, &barrier);
                        let w = write(ws, "f.py", Some(text));
                        scope.spawn(move || {
                            barrier.wait();
                            ws.commit(&[w]).is_ok()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert_eq!(results.iter().filter(|ok| **ok).count(), 1, "{results:?}");
            let text = fs::read_to_string(dir.path().join("f.py")).unwrap();
            let winner = if results[0] { "x = 1\n" } else { "x = 2\n" };
            assert_eq!(text, winner);
        }
    }

    #[test]
    fn writes_through_a_symlink_to_its_target_and_keeps_the_link() {
        let (dir, ws) = ws_with(&[("real.py", "x = 1\n")]);
        let real = dir.path().join("real.py");
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("real.py", dir.path().join("alias.py")).unwrap();
        let path = ws.resolve("alias.py").unwrap();
        assert_eq!(path.as_str(), "real.py", "one file, its canonical name");
        assert_eq!(ws.alias_of("alias.py", &path).as_deref(), Some("alias.py"));
        assert_eq!(ws.alias_of("./real.py", &path), None);
        ws.commit(&[write(&ws, "alias.py", Some("x = 2\n"))])
            .unwrap();
        let link = dir.path().join("alias.py");
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "x = 2\n");
        assert_eq!(
            fs::metadata(&real).unwrap().permissions().mode() & 0o777,
            0o640
        );
        // A linked directory and a dangling link inside the root.
        std::os::unix::fs::symlink("pkg", dir.path().join("lib")).unwrap();
        fs::create_dir(dir.path().join("pkg")).unwrap();
        assert_eq!(ws.resolve("lib/m.py").unwrap().as_str(), "pkg/m.py");
        std::os::unix::fs::symlink("later.py", dir.path().join("soon.py")).unwrap();
        assert_eq!(ws.resolve("soon.py").unwrap().as_str(), "later.py");
    }

    #[test]
    fn refuses_the_state_directory_like_a_path_outside() {
        let (dir, ws) = ws_with(&[(".eddi/.gitignore", "*\n")]);
        for given in [
            ".eddi/.gitignore",
            "./.eddi/x.py",
            "pkg/../.eddi/sessions/a",
        ] {
            assert!(
                matches!(ws.resolve(given), Err(FileError::StateDir(_))),
                "{given}"
            );
        }
        std::os::unix::fs::symlink(".eddi", dir.path().join("state")).unwrap();
        assert!(matches!(
            ws.resolve("state/.gitignore"),
            Err(FileError::StateDir(_))
        ));
        let elsewhere = tempfile::tempdir().unwrap();
        let moved = ws.clone().with_state_dir(elsewhere.path()).unwrap();
        assert!(
            moved.resolve(".eddi/.gitignore").is_ok(),
            "only the real state dir"
        );
    }
}
