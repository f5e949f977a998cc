//! The index and the per-file outline agree on every definition of a file:
//! same qualified names, kinds and positions (columns in chars, non-ASCII
//! identifiers included), LF and CRLF.

use eddi::analysis::index::ProjectIndex;
use eddi::analysis::outline::outline;
use eddi::analysis::SyntaxTree;
use ropey::Rope;

const FILES: &[(&str, &str)] = &[
    ("inventory.py", include_str!("fixtures/python/inventory.py")),
    (
        "shop/auth.py",
        include_str!("fixtures/index/shop/shop/auth.py"),
    ),
    (
        "shop/models.py",
        include_str!("fixtures/index/shop/shop/models.py"),
    ),
];

#[test]
fn definitions_match_the_outline() {
    let dir = tempfile::tempdir().unwrap();
    let mut index = ProjectIndex::build(dir.path());
    for (path, src) in FILES {
        for src in [src.to_string(), src.replace('\n', "\r\n")] {
            let text = Rope::from_str(&src);
            index.update_file(path, &text).unwrap();
            let file = index.file_index(path).unwrap();
            let tree = SyntaxTree::parse(&text).unwrap();
            let want: Vec<String> = outline(&text, &tree)
                .symbols
                .iter()
                .map(|s| {
                    format!(
                        "{} {} {} {}",
                        s.kind.noun(),
                        s.qualified_name,
                        s.position,
                        s.name_position
                    )
                })
                .collect();
            let got: Vec<String> = file
                .defs
                .iter()
                .filter(|d| !d.instance) // the outline lists class-level symbols only
                .map(|d| {
                    format!(
                        "{} {} {} {}",
                        d.kind.noun(),
                        d.qualified,
                        d.position,
                        d.name_position
                    )
                })
                .collect();
            assert_eq!(got, want, "{path}");
        }
    }
}
