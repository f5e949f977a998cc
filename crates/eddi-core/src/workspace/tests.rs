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
fn paths_resolved_with_the_directories_checked_once_are_those_resolved_alone() {
    let (dir, ws) = workspace();
    fs::create_dir_all(dir.path().join("pkg/sub")).unwrap();
    fs::create_dir_all(dir.path().join("real")).unwrap();
    for file in ["pkg/a.py", "pkg/sub/b.py", "real/c.py"] {
        fs::write(dir.path().join(file), "x = 1\n").unwrap();
    }
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("pkg/linked")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("pkg/out")).unwrap();
    let given = [
        "pkg/a.py",
        "pkg/sub/b.py",
        "pkg/linked/c.py",
        "pkg/out/secret.py",
        "pkg/sub/../a.py",
        "pkg/missing/new.py",
    ];
    let mut checked = CheckedDirs::default();
    for path in given {
        let alone = ws
            .resolve(path)
            .map(|p| p.to_string())
            .map_err(|e| e.to_string());
        let together = ws
            .resolve_checked(path, &mut checked)
            .map(|p| p.to_string())
            .map_err(|e| e.to_string());
        assert_eq!(together, alone, "{path}");
    }
    assert_eq!(ws.resolve("pkg/linked/c.py").unwrap().as_str(), "real/c.py");
    // a directory made a link after one request is checked by the next
    fs::remove_dir_all(dir.path().join("pkg/sub")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("pkg/sub")).unwrap();
    assert!(matches!(
        ws.resolve_checked("pkg/sub/b.py", &mut CheckedDirs::default()),
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

/// A listing kept between two `list`s is given again only while nothing
/// it rests on changed: each kind of change between two listings of a
/// settled tree (the listing kept) shows in the second.
#[test]
fn a_kept_listing_shows_every_change_made_since() {
    type Change = fn(&Path);
    let cases: Vec<(&str, Change, Vec<&str>)> = vec![
        (
            "a file added deep down",
            |root| fs::write(root.join("src/pkg/new.py"), "").unwrap(),
            vec!["src/b.txt", "src/pkg/a.py", "src/pkg/new.py", "top.py"],
        ),
        (
            "a file removed",
            |root| fs::remove_file(root.join("src/pkg/a.py")).unwrap(),
            vec!["src/b.txt", "top.py"],
        ),
        (
            "a directory renamed",
            |root| fs::rename(root.join("src/pkg"), root.join("src/lib")).unwrap(),
            vec!["src/b.txt", "src/lib/a.py", "top.py"],
        ),
        (
            "a .gitignore edited in place, same size",
            |root| fs::write(root.join(".gitignore"), "src/pkg\n").unwrap(),
            vec!["build/out.py", "src/b.txt", "top.py"],
        ),
        (
            "an .ignore added below",
            |root| fs::write(root.join("src/.ignore"), "*.txt\n").unwrap(),
            vec!["src/pkg/a.py", "top.py"],
        ),
    ];
    let trees: Vec<(tempfile::TempDir, Workspace)> = cases
        .iter()
        .map(|_| {
            let (dir, ws) = workspace();
            let root = dir.path();
            fs::create_dir_all(root.join("src/pkg")).unwrap();
            fs::create_dir_all(root.join("build")).unwrap();
            fs::write(root.join(".gitignore"), "/build/\n").unwrap();
            fs::write(root.join("build/out.py"), "").unwrap();
            fs::write(root.join("src/pkg/a.py"), "").unwrap();
            fs::write(root.join("src/b.txt"), "").unwrap();
            fs::write(root.join("top.py"), "").unwrap();
            assert_eq!(
                ws.list(None).unwrap(),
                vec!["src/b.txt", "src/pkg/a.py", "top.py"]
            );
            assert!(
                !ws.keeps_listing(),
                "a tree younger than SETTLED is walked each time"
            );
            (dir, ws)
        })
        .collect();
    std::thread::sleep(listing::SETTLED + std::time::Duration::from_millis(200));
    for ((what, change, expected), (dir, ws)) in cases.into_iter().zip(&trees) {
        let before = ws.list(None).unwrap();
        assert!(
            ws.keeps_listing(),
            "{what}: a settled tree's listing is kept"
        );
        assert_eq!(ws.list(None).unwrap(), before, "{what}: the kept listing");
        change(dir.path());
        assert_eq!(ws.list(None).unwrap(), expected, "{what}");
        assert_eq!(
            ws.list(Some("**/*.py")).unwrap(),
            expected
                .iter()
                .filter(|p| p.ends_with(".py"))
                .copied()
                .collect::<Vec<_>>(),
            "{what}: a glob"
        );
    }
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

#[test]
fn a_python_file_is_read_and_written_in_the_encoding_it_declares() {
    let (dir, ws) = workspace();
    let original: &[u8] =
        b"# -*- coding: latin-1 -*-\r\nname = 'caf\xe9'  # \xa9 2024\r\nx = 1\r\n";
    fs::write(dir.path().join("m.py"), original).unwrap();
    let path = ws.resolve("m.py").unwrap();
    let loaded = ws.read(&path).unwrap();
    assert_eq!(
        loaded.text,
        "# -*- coding: latin-1 -*-\r\nname = 'café'  # © 2024\r\nx = 1\r\n"
    );
    // the stamp is of the bytes on disk, and the index reads the same text
    assert_eq!(loaded.stamp.hash, blake3::hash(original).to_hex().as_str());
    assert_eq!(ws.read_text(&path).unwrap().0, loaded.text);
    // an edit is written in Latin-1: the untouched bytes as they were
    let edited = loaded.text.replace("x = 1", "x = 'é'");
    let write = |text: &str| FileWrite {
        path: path.clone(),
        expect: Expect::Anything,
        content: Some(text.as_bytes().to_vec()),
    };
    let stamps = ws.commit(&[write(&edited)]).unwrap();
    let on_disk = fs::read(dir.path().join("m.py")).unwrap();
    assert_eq!(
        on_disk,
        b"# -*- coding: latin-1 -*-\r\nname = 'caf\xe9'  # \xa9 2024\r\nx = '\xe9'\r\n"
    );
    assert_eq!(
        stamps[0].as_ref().unwrap().hash,
        blake3::hash(&on_disk).to_hex().as_str()
    );
    // a character Latin-1 cannot hold: refused, nothing written
    let euro = edited.replace("x = 'é'", "x = '€'");
    let err = ws.commit(&[write(&euro)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "m.py declares 'coding: latin-1', which cannot represent '€' (U+20AC) at 2:5: write it as an escape (\\u20ac in a string) or change the coding line; nothing was written"
    );
    assert_eq!(fs::read(dir.path().join("m.py")).unwrap(), on_disk);
    // the declaration on the second line, after a shebang; a code page
    fs::write(
        dir.path().join("w.py"),
        b"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\ns = '\x80'\n",
    )
    .unwrap();
    let w = ws.read(&ws.resolve("w.py").unwrap()).unwrap();
    assert!(w.text.ends_with("s = '€'\n"), "{}", w.text);
    // no declaration, or not a Python file: UTF-8, invalid bytes refused
    fs::write(dir.path().join("plain.py"), b"s = 'caf\xe9'\n").unwrap();
    fs::write(
        dir.path().join("notes.txt"),
        b"# coding: latin-1\ncaf\xe9\n",
    )
    .unwrap();
    for name in ["plain.py", "notes.txt"] {
        assert!(matches!(
            ws.read(&ws.resolve(name).unwrap()),
            Err(FileError::NotUtf8(_))
        ));
    }
    // ASCII declared, bytes that are not; an encoding Eddi does not read
    fs::write(dir.path().join("a.py"), b"# coding: ascii\ns = 'caf\xe9'\n").unwrap();
    fs::write(dir.path().join("j.py"), b"# coding: shift_jis\ns = 1\n").unwrap();
    assert_eq!(
        ws.read(&ws.resolve("a.py").unwrap()).unwrap_err().to_string(),
        "Not ascii: a.py declares 'coding: ascii' but its bytes are not valid ascii; fix the coding line"
    );
    assert!(matches!(
        ws.read(&ws.resolve("j.py").unwrap()),
        Err(FileError::UnsupportedEncoding { .. })
    ));
}

/// Eddi's own state names files by their canonical relative paths; read
/// back, only such a path is one (an edited journal cannot escape the root).
#[test]
fn a_persisted_path_is_read_back_only_when_plain_and_relative() {
    let read = |json: &str| serde_json::from_str::<WorkspacePath>(json).map_err(|e| e.to_string());
    assert_eq!(read(r#""src/b.py""#).unwrap().as_str(), "src/b.py");
    assert_eq!(read(r#""a b\\c.py""#).unwrap().as_str(), r"a b\c.py");
    for (json, why) in [
        (r#""""#, "empty"),
        (r#""/etc/passwd""#, "absolute"),
        (r#""../x.py""#, "'..' part"),
        (r#""src/../../x.py""#, "'..' part"),
        (r#""src/./x.py""#, "'.' part"),
        (r#""src//x.py""#, "an empty part"),
        (r#""x.py/""#, "an empty part"),
        (r#""x\u0000.py""#, "contains NUL"),
    ] {
        let error = read(json).unwrap_err();
        assert!(
            error.contains("invalid workspace path") && error.contains(why),
            "{json}: {error}"
        );
    }
    let (_dir, ws) = workspace();
    let resolved = ws.resolve("src/./a/../b.py").unwrap();
    let json = serde_json::to_string(&resolved).unwrap();
    assert_eq!(json, r#""src/b.py""#);
    assert_eq!(read(&json).unwrap(), resolved);
}
