//! The index and the per-file outline agree on every definition of a file:
//! same qualified names, kinds and positions (columns in chars, non-ASCII
//! identifiers included), LF and CRLF.

use eddi::analysis::index::ProjectIndex;
use eddi::analysis::outline::outline;
use eddi::analysis::SyntaxTree;
use ropey::Rope;

const FILES: &[(&str, &str)] = &[
    (
        "inventory.py",
        include_str!("../fixtures/python/inventory.py"),
    ),
    (
        "shop/auth.py",
        include_str!("../fixtures/index/shop/shop/auth.py"),
    ),
    (
        "shop/models.py",
        include_str!("../fixtures/index/shop/shop/models.py"),
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

/// Within one file, the index and the per-file resolver (`analysis::scope`)
/// agree on the uses of every module-level function, class and variable.
#[test]
fn same_file_references_match_the_scope_resolver() {
    use eddi::analysis::scope::{analyze, BindingKind, Resolution};
    let dir = tempfile::tempdir().unwrap();
    let mut index = ProjectIndex::build(dir.path());
    let files: &[(&str, &str)] = &[
        (
            "inventory.py",
            include_str!("../fixtures/python/inventory.py"),
        ),
        (
            "shop/auth.py",
            include_str!("../fixtures/index/shop/shop/auth.py"),
        ),
        (
            "shop/cli.py",
            include_str!("../fixtures/index/shop/shop/cli.py"),
        ),
        (
            "shop/util/text.py",
            include_str!("../fixtures/index/shop/shop/util/text.py"),
        ),
        (
            "shadowing.py",
            include_str!("../fixtures/python/shadowing.py"),
        ),
    ];
    for (path, src) in files {
        let text = Rope::from_str(src);
        index.update_file(path, &text).unwrap();
        let module = index.module_of(path).unwrap().to_string();
        let scopes = analyze(&text, &SyntaxTree::parse(&text).unwrap());
        let mut names: Vec<&str> = scopes
            .bindings
            .iter()
            .filter(|b| b.scope == 0)
            .filter(|b| {
                matches!(
                    b.kind,
                    BindingKind::Function | BindingKind::Class | BindingKind::Assignment
                )
            })
            .map(|b| b.name.as_str())
            .collect();
        names.sort();
        names.dedup();
        for name in names {
            let mut want: Vec<String> = scopes
                .references
                .iter()
                .filter(|r| r.name == name && r.resolution == Resolution::Scope(0))
                .map(|r| eddi::edit::position::from_char(&text, r.range.start).to_string())
                .collect();
            want.sort();
            want.dedup();
            let mut got: Vec<String> = match index.find_references(&format!("{module}.{name}")) {
                Ok(r) => r
                    .certain
                    .iter()
                    .filter(|l| l.path == *path)
                    .map(|l| l.position.to_string())
                    .collect(),
                Err(e) => vec![format!("Fail: {e}")],
            };
            got.sort();
            assert_eq!(got, want, "{path}: {name}");
        }
    }
}
