//! Keeping the index current: `update_file` (Eddi's own edits), `refresh`
//! (changes on disk by others), and files that cannot be indexed.

use std::fs;
use std::path::{Path, PathBuf};

use eddi::analysis::index::{ProjectIndex, RefreshReport, SkipReason};
use ropey::Rope;

/// A private copy of the `shop` fixture.
fn copy_fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/shop");
    copy_dir(&src, dir.path());
    let root = dir.path().to_path_buf();
    (dir, root)
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn certain(index: &ProjectIndex, symbol: &str) -> String {
    match index.find_references(symbol) {
        Ok(r) => r
            .certain
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        Err(e) => format!("Fail: {e}"),
    }
}

#[test]
fn update_file_changes_answers() {
    let (_dir, root) = copy_fixture();
    let mut index = ProjectIndex::build(&root);
    assert_eq!(
        certain(&index, "slug"),
        "app.py:9:19, shop/cli.py:2:22, shop/cli.py:13:14"
    );
    // The agent edits cli.py: the call of slug moves, a new one appears.
    let cli = fs::read_to_string(root.join("shop/cli.py")).unwrap();
    let edited = cli.replace(
        "    model_log(slug(argv[0]))\n",
        "    model_log(argv[0])\n    x = [slug(a) for a in argv]\n    return slug(x)\n",
    );
    index
        .update_file("shop/cli.py", &Rope::from_str(&edited))
        .unwrap();
    assert_eq!(
        certain(&index, "slug"),
        "app.py:9:19, shop/cli.py:2:22, shop/cli.py:14:9, shop/cli.py:15:11"
    );
    // Renaming the definition in text.py: uses elsewhere no longer resolve,
    // though only text.py was re-indexed.
    let text = fs::read_to_string(root.join("shop/util/text.py")).unwrap();
    index
        .update_file(
            "./shop/util/text.py",
            &Rope::from_str(&text.replace("def slug(", "def make_slug(")),
        )
        .unwrap();
    assert!(certain(&index, "slug").starts_with("Fail: Not found: symbol 'slug'"));
    assert_eq!(certain(&index, "make_slug"), "");
    // Unchanged on disk, so refresh keeps the edited buffers.
    assert!(index.refresh().is_empty());
    assert_eq!(certain(&index, "make_slug"), "");
    // A buffer that does not exist on disk yet survives refresh.
    index
        .update_file(
            "shop/new.py",
            &Rope::from_str("from .util.text import make_slug\n"),
        )
        .unwrap();
    assert!(index.refresh().is_empty());
    assert_eq!(certain(&index, "make_slug"), "shop/new.py:0:23");
    assert!(index.remove_file("shop/new.py"));
    assert!(!index.remove_file("shop/new.py"));
    assert_eq!(certain(&index, "make_slug"), "");
    // Paths outside the workspace and non-Python files are refused.
    assert_eq!(
        index
            .update_file("../x.py", &Rope::from_str(""))
            .unwrap_err()
            .to_string(),
        "Invalid path '../x.py': use a path relative to the workspace root, inside it"
    );
    assert!(index.update_file("notes.txt", &Rope::from_str("")).is_err());
}

#[test]
fn refresh_sees_changes_on_disk() {
    let (_dir, root) = copy_fixture();
    let mut index = ProjectIndex::build(&root);
    // Another process adds a file, rewrites one, deletes one.
    fs::write(
        root.join("shop/extra.py"),
        "from shop.util.text import slug\n\n\ndef go():\n    return slug('x')\n",
    )
    .unwrap();
    let cli = fs::read_to_string(root.join("shop/cli.py")).unwrap();
    fs::write(
        root.join("shop/cli.py"),
        cli.replace("    model_log(slug(argv[0]))\n", ""),
    )
    .unwrap();
    fs::remove_file(root.join("shop/plugins/base.py")).unwrap();
    let report = index.refresh();
    assert_eq!(
        report,
        RefreshReport {
            added: vec!["shop/extra.py".into()],
            changed: vec!["shop/cli.py".into()],
            removed: vec!["shop/plugins/base.py".into()],
            reused: vec![],
        }
    );
    assert_eq!(
        certain(&index, "slug"),
        "app.py:9:19, shop/cli.py:2:22, shop/extra.py:0:27, shop/extra.py:4:11"
    );
    assert!(certain(&index, "AdminManager").starts_with("Fail: Not found"));
    assert!(index.refresh().is_empty());
}

#[test]
fn unreadable_and_odd_files_are_skipped_or_survived() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("pkg")).unwrap();
    fs::create_dir_all(root.join("build")).unwrap();
    fs::write(root.join(".gitignore"), "build/\n").unwrap();
    fs::write(root.join("build/gen.py"), "def generated():\n    pass\n").unwrap();
    fs::write(root.join("pkg/latin1.py"), b"x = '\xe9t\xe9'\n").unwrap();
    fs::write(root.join("pkg/huge.py"), vec![b'#'; 9 * 1024 * 1024]).unwrap();
    // Syntax errors: the index keeps what it can read.
    fs::write(
        root.join("pkg/broken.py"),
        "def ok():\n    return 1\n\ndef bad(:\n    x = \nclass\n\nok()\n",
    )
    .unwrap();
    // Deep nesting: walked up to a limit, never a stack overflow.
    let deep = format!(
        "def deep():\n    return {}1{}\n\nv = {}\n\ndeep()\nw = {}1{}\nc = deep{}\na = deep{}\nt = {}0\n",
        "(".repeat(3000),
        ")".repeat(3000),
        vec!["deep()"; 3000].join(" + "),
        "[f(".repeat(2000),
        ")]".repeat(2000),
        "()".repeat(3000),
        ".x".repeat(3000),
        "1 if v else ".repeat(2000),
    );
    fs::write(root.join("pkg/deep.py"), deep).unwrap();
    fs::write(root.join("pkg/empty.py"), "").unwrap();
    let index = ProjectIndex::build(root);
    // `update_file` runs on the caller's thread: re-index the deep file on a
    // thread with a small (1 MiB) stack to show the depth limit, not a large
    // stack, keeps the walk safe (debug build, large frames).
    let deep_src = fs::read_to_string(root.join("pkg/deep.py")).unwrap();
    let index = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let mut index = index;
            index
                .update_file("pkg/deep.py", &Rope::from_str(&deep_src))
                .unwrap();
            index
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        index.paths(),
        ["pkg/broken.py", "pkg/deep.py", "pkg/empty.py"]
    );
    let mut index = index;
    let mut skipped: Vec<(String, SkipReason)> = index
        .skipped()
        .iter()
        .map(|s| (s.path.clone(), s.reason.clone()))
        .collect();
    skipped.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        skipped,
        [
            (
                "pkg/huge.py".to_string(),
                SkipReason::TooLarge(9 * 1024 * 1024)
            ),
            ("pkg/latin1.py".to_string(), SkipReason::NotUtf8),
        ]
    );
    assert!(index.file_index("pkg/broken.py").unwrap().has_syntax_errors);
    assert!(index.file_index("pkg/deep.py").unwrap().truncated);
    assert_eq!(certain(&index, "ok"), "pkg/broken.py:7:0");
    assert!(certain(&index, "deep").contains("pkg/deep.py:5:0"));
    // Re-saved as UTF-8, the skipped file is indexed by the next refresh.
    assert!(index.refresh().is_empty());
    fs::write(root.join("pkg/latin1.py"), "été = 1\n").unwrap();
    assert_eq!(index.refresh().added, ["pkg/latin1.py"]);
    assert_eq!(index.skipped().len(), 1);
    assert_eq!(
        index.find_definition("été").unwrap()[0]
            .location
            .to_string(),
        "pkg/latin1.py:0:0"
    );
}

/// Files are read through the workspace: its size limit and its refusal of
/// binary files apply to the index as to every other read.
#[test]
fn files_are_read_through_the_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("ok.py"), "def ok(): pass\n").unwrap();
    fs::write(root.join("nul.py"), "x = 1\0\n").unwrap();
    fs::write(root.join("big.py"), format!("s = '{}'\n", "a".repeat(2000))).unwrap();
    let workspace = eddi::workspace::Workspace::new(root, 1024).unwrap();
    let index = ProjectIndex::build_in(&workspace);
    assert_eq!(index.paths(), ["ok.py"]);
    let mut skipped: Vec<(String, SkipReason)> = index
        .skipped()
        .iter()
        .map(|s| (s.path.clone(), s.reason.clone()))
        .collect();
    skipped.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        skipped,
        [
            ("big.py".to_string(), SkipReason::TooLarge(2007)),
            ("nul.py".to_string(), SkipReason::Binary),
        ]
    );
    // a bare root gets the index's own limit, and the same binary rule
    let index = ProjectIndex::build(root);
    assert_eq!(index.paths(), ["big.py", "ok.py"]);
}

/// Unsaved text is laid over the index as a view: the view answers from
/// it, the index itself (shared by every session) is unchanged.
#[test]
fn an_overlay_is_a_view_not_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("a.py"), "def old(): pass\n").unwrap();
    fs::write(root.join("b.py"), "from a import old\nold()\n").unwrap();
    let index = ProjectIndex::build(root);
    let view = index.overlaid(&[
        ("a.py".to_string(), Rope::from_str("def new(): pass\n")),
        (
            "c.py".to_string(),
            Rope::from_str("from a import new\nnew()\n"),
        ),
    ]);
    assert!(view.find_references("a.new").is_ok());
    assert!(view.find_references("a.old").is_err());
    assert_eq!(view.len(), 3);
    // the index is as the disk says
    assert!(index.find_references("a.old").is_ok());
    assert!(index.find_references("a.new").is_err());
    assert_eq!(index.paths(), ["a.py", "b.py"]);
}

#[test]
fn a_file_given_back_a_text_the_index_had_takes_its_entry_back_unparsed() {
    let (_dir, root) = copy_fixture();
    let mut index = ProjectIndex::build(&root);
    let path = root.join("shop/cli.py");
    let original = fs::read_to_string(&path).unwrap();
    let before = certain(&index, "slug");
    fs::write(&path, format!("# one line more\n{original}")).unwrap();
    let report = index.refresh_files(&["shop/cli.py".to_string()]);
    assert_eq!(report.changed, vec!["shop/cli.py".to_string()]);
    assert!(report.reused.is_empty(), "a new text is parsed");
    assert_ne!(certain(&index, "slug"), before);
    // Given its first text back (an Undo): the old entry, not a parse.
    fs::write(&path, &original).unwrap();
    let report = index.refresh_files(&["shop/cli.py".to_string()]);
    assert_eq!(report.reused, vec!["shop/cli.py".to_string()]);
    assert_eq!(certain(&index, "slug"), before);
    // Unchanged since it was read: nothing to do.
    assert!(index.refresh_files(&["shop/cli.py".to_string()]).is_empty());
    // Written again with the text it has (a refactor and its Undo, both
    // before the index looked): read, found unchanged, its entry kept.
    std::thread::sleep(std::time::Duration::from_millis(20));
    fs::write(&path, &original).unwrap();
    let report = index.refresh_files(&["shop/cli.py".to_string()]);
    assert!(report.is_empty(), "{report:?}");
    assert_eq!(certain(&index, "slug"), before);
}

#[test]
fn a_file_rewritten_within_one_tick_of_the_clock_is_read_again() {
    // Two writes of the same length in one tick of the file system's clock
    // leave the same (mtime, size): a file reported written is read, not
    // judged by its stamp.
    let (_dir, root) = copy_fixture();
    let mut index = ProjectIndex::build(&root);
    let path = root.join("shop/cli.py");
    let original = fs::read_to_string(&path).unwrap();
    let modified = fs::metadata(&path).unwrap().modified().unwrap();
    assert!(original.contains("slug"));
    assert!(certain(&index, "shop.util.slug").contains("shop/cli.py"));
    let renamed = original.replace("slug", "slog");
    assert_eq!(renamed.len(), original.len());
    fs::write(&path, &renamed).unwrap();
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let report = index.refresh_files(&["shop/cli.py".to_string()]);
    assert_eq!(report.changed, vec!["shop/cli.py".to_string()]);
    let uses = certain(&index, "shop.util.slug");
    assert!(!uses.contains("shop/cli.py"), "{uses}");
}
