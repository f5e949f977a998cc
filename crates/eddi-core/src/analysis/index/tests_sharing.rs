//! What the index shares with others keeps its answers: a tree lent by
//! whoever parsed the same text scans as the index's own parse would, a
//! tree of another text is not taken, and a memo of caller queries fits
//! its index only while no file of it changed.

use std::fs;

use ropey::Rope;

use super::{disk, CallersMemo, ProjectIndex};

const CORE: &str = "def helper(x):\n    return x\n";
const USE: &str = "from core import helper\n\nhelper(1)\n";

fn project() -> (tempfile::TempDir, ProjectIndex) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("core.py"), CORE).unwrap();
    fs::write(dir.path().join("use.py"), USE).unwrap();
    let index = ProjectIndex::build(dir.path());
    (dir, index)
}

#[test]
fn a_lent_tree_is_scanned_as_the_index_would_parse_it() {
    let (_dir, index) = project();
    let (_other, own) = project();
    // a tree of a text of another length is not taken
    let longer = "def helper(x):\n    return x + 1\n";
    let taken = index.lend_trees(|path, _| {
        (path == "core.py").then(|| (disk::parse(longer).unwrap(), longer.len()))
    });
    assert_eq!(taken, 0, "a tree of another length is refused");
    let taken = index.lend_trees(|path, content| {
        let text = match path {
            "core.py" => CORE,
            "use.py" => USE,
            _ => return None,
        };
        (*content == blake3::hash(text.as_bytes()))
            .then(|| (disk::parse(text).unwrap(), text.len()))
    });
    assert_eq!(taken, 2);
    let lent = index.find_callers("core.helper").unwrap();
    let parsed = own.find_callers("core.helper").unwrap();
    assert_eq!(lent.certain, parsed.certain);
    assert_eq!(lent.certain.len(), 1);
    assert_eq!(
        format!("{:?}", index.file_index("use.py").unwrap()),
        format!("{:?}", own.file_index("use.py").unwrap())
    );
    // once scanned, nothing more is taken
    assert_eq!(
        index.lend_trees(|_, _| Some((disk::parse(CORE).unwrap(), CORE.len()))),
        0
    );
}

#[test]
fn a_memo_fits_its_index_until_a_file_of_it_changes() {
    let (_dir, mut index) = project();
    assert!(
        !CallersMemo::default().fits(&index),
        "an empty memo fits none"
    );
    let mut memo = CallersMemo::for_index(&index);
    assert!(memo.fits(&index));
    let once = index.find_callers_memo("core.helper", &mut memo).unwrap();
    let again = index.find_callers_memo("core.helper", &mut memo).unwrap();
    assert_eq!(once.certain, again.certain);
    assert!(memo.fits(&index), "scanning and asking change no entry");
    // kept for another request: the answers asked before come from it
    memo.begin_request();
    let kept = index.find_callers_memo("core.helper", &mut memo).unwrap();
    assert_eq!(kept.certain, once.certain);
    // a view with a buffer laid over it is another index
    let view = index.overlaid(&[("use.py".into(), Rope::from_str(USE))]);
    assert!(!memo.fits(&view));
    index
        .update_file(
            "use.py",
            &Rope::from_str("from core import helper\nhelper(1)\nhelper(2)\n"),
        )
        .unwrap();
    assert!(!memo.fits(&index));
    let mut fresh = CallersMemo::for_index(&index);
    assert_eq!(
        index
            .find_callers_memo("core.helper", &mut fresh)
            .unwrap()
            .certain
            .len(),
        2
    );
}
