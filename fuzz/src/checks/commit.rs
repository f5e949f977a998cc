//! The multi-file commit: random commits of creations, modifications and
//! deletions, with stale expectations and injected faults, in a temp dir,
//! checked against an in-memory model of the files.
//!
//! Each input makes a small tree (a few files, maybe a symlink `l.py` to
//! `a.py`), then runs up to six commits. The model predicts the outcome of
//! each exactly — `Duplicate` (two names of one file), `Conflicts` (which
//! files, and how they differ from what their writer expected),
//! `Prepare`/`RolledBack` (an injected failure), `Stuck` (abandoned after
//! the K-th rename, the in-process crash) or success — and then:
//!
//! - after a success the disk holds exactly the new files, after a failure
//!   exactly the old ones; the stamps returned are those of the new files;
//! - after an abandoned commit, `recover()` on a fresh `Workspace` of the
//!   same directory rolls a multi-file commit back to exactly the old files
//!   (a single file's rename is its commit point: it stays new);
//! - the symlink stays a symlink to `a.py` whatever is written through it;
//! - no `.eddi-*` temp file or backup is ever left behind in the project,
//!   and no commit record in the state directory once a commit returned
//!   (an abandoned one's until its recovery).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use eddi::workspace::{
    CommitError, Conflict, DiskStamp, Expect, Fault, FileWrite, Found, Recovery, Workspace,
};

use super::input::Input;

/// The file names commits choose from; none is a directory of another.
const NAMES: &[&str] = &["a.py", "b.txt", "d/c.py", "d/e/f.py", "g h.py", "l.py"];
/// The symlink's name and target, when the input asks for one.
const LINK: (&str, &str) = ("l.py", "a.py");
const MAX_COMMITS: usize = 6;

type Files = BTreeMap<String, Vec<u8>>;

pub fn check(data: &[u8]) {
    let mut input = Input::new(data);
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    let link = input.bool();
    let mut model = Files::new();
    if link {
        std::os::unix::fs::symlink(LINK.1, root.join(LINK.0)).expect("a symlink");
    }
    for name in NAMES {
        if canonical(link, name) == *name && input.bool() {
            let content = content(&mut input);
            let path = root.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, &content).unwrap();
            model.insert(name.to_string(), content);
        }
    }
    let mut ws = Workspace::new(root, 1 << 20).expect("a workspace");
    same_disk(root, &model, link);
    for _ in 0..MAX_COMMITS {
        if input.is_empty() {
            break;
        }
        ws = commit(&mut input, ws, root, &mut model, link);
    }
}

/// One commit: builds it, predicts it, runs it, compares. Returns the
/// workspace to go on with (a fresh one after a recovery).
fn commit(
    input: &mut Input,
    ws: Workspace,
    root: &Path,
    model: &mut Files,
    link: bool,
) -> Workspace {
    let count = input.below(4) + 1;
    let mut writes = Vec::new();
    // Per write: its canonical name, and the content its expectation is
    // the stamp of (`None` when the stamp matches no content at all).
    let mut expected: Vec<(String, Option<Option<Vec<u8>>>)> = Vec::new();
    for _ in 0..count {
        let name = input.pick(NAMES);
        let file = canonical(link, name).to_string();
        let path = ws.resolve(name).expect("every name resolves");
        assert_eq!(path.as_str(), file, "{name} resolves to its canonical name");
        let (expect, stamp_of) = match input.below(5) {
            0 => (Expect::Absent, None),
            1 => stamp(&ws, model, &file),
            2 => {
                let other = canonical(link, input.pick(NAMES)).to_string();
                stamp(&ws, model, &other)
            }
            3 => (Expect::Anything, None),
            _ => (Expect::Stamp(fabricated()), Some(None)),
        };
        let content = input.bool().then(|| content(input));
        expected.push((file, stamp_of));
        writes.push(FileWrite {
            path,
            expect,
            content,
        });
    }
    let fault = match input.below(8) {
        0..=3 => None,
        kind => {
            let k = input.below(count + 1);
            Some(match kind {
                4 | 5 => Fault::FailApply(k),
                6 => Fault::FailPrepare(k),
                _ => Fault::AbandonAfterApply(k),
            })
        }
    };
    ws.inject_fault(fault);
    let outcome = ws.commit(&writes);
    ws.inject_fault(None);
    let new = applied(model, &writes);

    let mut names: Vec<&String> = expected.iter().map(|(file, _)| file).collect();
    names.sort();
    if names.windows(2).any(|pair| pair[0] == pair[1]) {
        assert!(
            matches!(outcome, Err(CommitError::Duplicate(_))),
            "one file twice: {outcome:?}"
        );
        same_disk(root, model, link);
        return ws;
    }
    let conflicts: Vec<Conflict> = writes
        .iter()
        .zip(&expected)
        .filter_map(|(write, (file, stamp_of))| {
            let now = model.get(file);
            let found = match (&write.expect, now) {
                (Expect::Anything, _) | (Expect::Absent, None) => None,
                (Expect::Absent, Some(_)) => Some(Found::Created),
                (Expect::Stamp(_), None) => Some(Found::Deleted),
                (Expect::Stamp(_), Some(now)) => {
                    let was = stamp_of.clone().expect("a stamp expectation has content");
                    (was.as_ref() != Some(now)).then_some(Found::Changed)
                }
            };
            found.map(|found| Conflict {
                path: write.path.clone(),
                found,
            })
        })
        .collect();
    if !conflicts.is_empty() {
        match &outcome {
            Err(CommitError::Conflicts(found)) => assert_eq!(found, &conflicts),
            other => panic!("expected conflicts {conflicts:?}, got {other:?}"),
        }
        same_disk(root, model, link);
        return ws;
    }
    let has_content = |k: usize| writes.get(k).is_some_and(|w| w.content.is_some());
    match fault {
        Some(Fault::FailPrepare(k)) if has_content(k) => {
            assert!(
                matches!(outcome, Err(CommitError::Prepare(_))),
                "{fault:?}: {outcome:?}"
            );
            same_disk(root, model, link);
            ws
        }
        Some(Fault::FailApply(k)) if k < count => {
            assert!(
                matches!(outcome, Err(CommitError::RolledBack(_))),
                "{fault:?}: {outcome:?}"
            );
            same_disk(root, model, link);
            ws
        }
        Some(Fault::AbandonAfterApply(k)) if k < count => {
            assert!(
                matches!(outcome, Err(CommitError::Stuck { .. })),
                "{fault:?}: {outcome:?}"
            );
            drop(ws);
            let fresh = Workspace::new(root, 1 << 20).expect("a workspace");
            let recovery = fresh.recover().expect("recovery succeeds");
            let many = count > 1;
            assert_eq!(
                recovery,
                Recovery {
                    rolled_back: usize::from(many),
                    finished: 0
                }
            );
            if !many {
                *model = new;
            }
            same_disk(root, model, link);
            fresh
        }
        _ => {
            let stamps = match outcome {
                Ok(stamps) => stamps,
                Err(e) => panic!("commit {writes:?} with {fault:?} failed: {e}"),
            };
            *model = new;
            same_disk(root, model, link);
            assert_eq!(stamps.len(), writes.len());
            for (write, stamp) in writes.iter().zip(stamps) {
                let now = ws.stamp(&write.path).expect("a stamp");
                match &write.content {
                    None => assert!(stamp.is_none(), "a deletion has no stamp"),
                    Some(bytes) => {
                        let stamp = stamp.expect("a written file has a stamp");
                        assert_eq!(stamp.len, bytes.len() as u64);
                        assert_eq!(Some(stamp.hash), now.map(|n| n.hash));
                    }
                }
            }
            ws
        }
    }
}

/// The files after `writes`.
fn applied(model: &Files, writes: &[FileWrite]) -> Files {
    let mut new = model.clone();
    for write in writes {
        let file = write.path.as_str().to_string();
        match &write.content {
            Some(bytes) => new.insert(file, bytes.clone()),
            None => new.remove(&file),
        };
    }
    new
}

/// The name a user name stands for: the link's target, or itself.
fn canonical(link: bool, name: &str) -> &str {
    if link && name == LINK.0 {
        LINK.1
    } else {
        name
    }
}

/// `file`'s stamp on disk with its content, or a stamp of no content when
/// it does not exist.
fn stamp(ws: &Workspace, model: &Files, file: &str) -> (Expect, Option<Option<Vec<u8>>>) {
    let path = ws.resolve(file).expect("resolves");
    match ws.stamp(&path).expect("a stamp") {
        Some(stamp) => (Expect::Stamp(stamp), Some(model.get(file).cloned())),
        None => (Expect::Stamp(fabricated()), Some(None)),
    }
}

/// A stamp whose hash is that of no content.
fn fabricated() -> DiskStamp {
    DiskStamp {
        len: 0,
        mtime_ns: 0,
        hash: "not a hash".into(),
        ino: 0,
    }
}

fn content(input: &mut Input) -> Vec<u8> {
    let len = input.below(12);
    input.bytes(len).to_vec()
}

/// The project on disk is exactly `model` (plus the link), with no temp
/// files, backups or commit records left.
fn same_disk(root: &Path, model: &Files, link: bool) {
    let mut files = Files::new();
    let mut links = Vec::new();
    walk(root, root, &mut files, &mut links);
    assert_eq!(&files, model, "files on disk");
    let expected_links = if link {
        vec![(LINK.0.to_string(), LINK.1.to_string())]
    } else {
        Vec::new()
    };
    assert_eq!(links, expected_links, "symlinks on disk");
    let records = root.join(".eddi/commits");
    let left: Vec<_> = fs::read_dir(&records)
        .map(|entries| entries.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "commit records left: {left:?}");
}

fn walk(root: &Path, dir: &Path, files: &mut Files, links: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if name == ".eddi" {
            continue;
        }
        assert!(
            !entry.file_name().to_string_lossy().starts_with(".eddi-"),
            "left behind: {name}"
        );
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            let target = fs::read_link(&path).unwrap();
            links.push((name, target.to_string_lossy().into_owned()));
        } else if kind.is_dir() {
            walk(root, &path, files, links);
        } else {
            files.insert(name, fs::read(&path).unwrap());
        }
    }
}
