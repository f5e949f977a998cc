//! An index that scans files as queries need them answers as one that
//! scanned every file first: for every definition of a project, its
//! definitions, references and callers, each asked of a fresh index.

use std::path::{Path, PathBuf};

use eddi::analysis::index::ProjectIndex;

/// Every definition's full name in the project under `root`.
fn every_symbol(index: &ProjectIndex) -> Vec<String> {
    let mut names: Vec<String> = index
        .paths()
        .into_iter()
        .filter_map(|path| index.file_index(path))
        .flat_map(|f| {
            (0..f.defs.len() as u32)
                .map(|d| f.full_name(d))
                .collect::<Vec<_>>()
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

fn answers_as_scanned(root: &Path) -> usize {
    let whole = ProjectIndex::build(root);
    whole.scan_all();
    assert_eq!(whole.unscanned(), 0);
    let symbols = every_symbol(&whole);
    for symbol in &symbols {
        let fresh = ProjectIndex::build(root);
        assert_eq!(fresh.unscanned(), fresh.len(), "a build scans nothing");
        assert_eq!(
            fresh.find_references(symbol),
            whole.find_references(symbol),
            "references of {symbol}"
        );
        assert!(
            fresh.unscanned() > 0 || fresh.len() < 3,
            "{symbol}: scanned everything"
        );
        let fresh = ProjectIndex::build(root);
        assert_eq!(
            fresh.find_callers(symbol),
            whole.find_callers(symbol),
            "callers of {symbol}"
        );
        let fresh = ProjectIndex::build(root);
        assert_eq!(
            fresh.find_definition(symbol),
            whole.find_definition(symbol),
            "definition of {symbol}"
        );
    }
    symbols.len()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[test]
fn the_shop_fixture_answers_the_same_scanned_on_demand() {
    let n = answers_as_scanned(&fixture("index/shop"));
    assert!(n > 20, "only {n} symbols");
}

#[test]
fn every_fixture_answers_the_same_scanned_on_demand() {
    let n = answers_as_scanned(&fixture(""));
    assert!(n > 200, "only {n} symbols");
}
