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
    assert!(matches!(
        ws.read(&ws.resolve("missing").unwrap()),
        Err(FileError::NotFound(_))
    ));
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
