//! What a pytest test's parameter holds: the fixture of its name
//! ([`Value::Fixture`](super::file::Value::Fixture), recorded by the walk in
//! `file/pytest.rs`), found as pytest finds it — a fixture method of the
//! test's class (or of its project bases), then the test module's own
//! fixtures (defined or imported there), then the `conftest.py` of the
//! test's directory and of each directory above it, up to the root. The
//! value is what the fixture returns or yields (its annotation, or what
//! every `return` gives).
//!
//! A fixture the project does not define (pytest's own `tmp_path`, a
//! plugin's) leaves the parameter unknown, and so does a module on the way
//! that names a fixture otherwise than its function (`@pytest.fixture(name=
//! "env")`): the index cannot tell which fixture that module gives.

use super::file::DefId;
use super::resolve::{DefRef, Res};
use super::{FileId, ProjectIndex};
use crate::analysis::outline::SymbolKind;

/// What a fixture lookup found at one place.
enum Found {
    /// The fixtures of the name there (a property and its setter share a
    /// name; fixtures do not, but a module may define one twice).
    Fixtures(Vec<DefRef>),
    /// Nothing of the name that pytest would take as a fixture.
    Nothing,
    /// The place may give a fixture the index cannot see.
    Unknown,
}

impl ProjectIndex {
    /// The value of the parameter `name` of the test or fixture
    /// `function` of `file`.
    pub(crate) fn fixture_value(
        &self,
        file: FileId,
        function: DefId,
        name: &str,
        depth: usize,
    ) -> Res {
        let Some(f) = self.file(file) else {
            return Res::Unknown;
        };
        let Some(def) = f.defs.get(function as usize) else {
            return Res::Unknown;
        };
        // a fixture asking for the fixture it overrides gets the outer one
        if f.name(def.name) == name {
            return Res::Unknown;
        }
        let class = def
            .parent
            .map(|c| DefRef { file, def: c })
            .filter(|&c| self.kind(c) == Some(SymbolKind::Class));
        let mut found = match class {
            Some(c) => self.class_fixture(c, name),
            None => Found::Nothing,
        };
        if matches!(found, Found::Nothing) {
            found = self.module_fixture(file, name);
        }
        if matches!(found, Found::Nothing) {
            for conftest in self.conftests_above(file) {
                found = self.module_fixture(conftest, name);
                if !matches!(found, Found::Nothing) {
                    break;
                }
            }
        }
        match found {
            Found::Fixtures(fixtures) => self.fixture_returns(&fixtures, depth + 1),
            _ => Res::Unknown,
        }
    }

    /// What the fixtures give: their return (annotated or inferred) as
    /// calling them would, every one alike.
    fn fixture_returns(&self, fixtures: &[DefRef], depth: usize) -> Res {
        match self.returned(fixtures, depth) {
            r @ (Res::Instance(_) | Res::Items(_) | Res::Mapping(_)) => r,
            _ => Res::Unknown,
        }
    }

    /// A fixture method named `name` of `class` or of its project bases
    /// (a test class's own fixtures come first).
    fn class_fixture(&self, class: DefRef, name: &str) -> Found {
        match self.class_member(&[class], name, 0) {
            Res::Defs(defs) => self.fixtures_among(defs),
            _ => Found::Nothing,
        }
    }

    /// The fixture a module binds as `name` (defined there or imported).
    fn module_fixture(&self, file: FileId, name: &str) -> Found {
        let Some(f) = self.file(file) else {
            return Found::Nothing;
        };
        if f.renamed_fixtures {
            return Found::Unknown;
        }
        let Some(&v) = f.exports.get(name) else {
            return Found::Nothing;
        };
        match self.resolve(file, v, 0) {
            Res::Defs(defs) => self.fixtures_among(defs),
            // an import from outside the project may be a plugin's fixture
            Res::External | Res::Unknown | Res::Possible => Found::Unknown,
            _ => Found::Nothing,
        }
    }

    /// Definitions that are all fixtures, or none: pytest skips what is
    /// not one.
    fn fixtures_among(&self, defs: Vec<DefRef>) -> Found {
        let is_fixture = |d: &DefRef| {
            self.file(d.file)
                .and_then(|f| f.defs.get(d.def as usize))
                .is_some_and(|def| def.fixture)
        };
        if defs.iter().all(is_fixture) {
            Found::Fixtures(defs)
        } else if defs.iter().any(is_fixture) {
            Found::Unknown
        } else {
            Found::Nothing
        }
    }

    /// The `conftest.py` files of `file`'s directory and of each directory
    /// above it, nearest first (not `file` itself).
    fn conftests_above(&self, file: FileId) -> Vec<FileId> {
        let Some(path) = self.path(file) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut dir = path;
        loop {
            dir = match dir.rfind('/') {
                Some(i) => &dir[..i],
                None => "",
            };
            let conftest = if dir.is_empty() {
                "conftest.py".to_string()
            } else {
                format!("{dir}/conftest.py")
            };
            if let Some(&fid) = self.by_path.get(conftest.as_str()) {
                if fid != file {
                    out.push(fid);
                }
            }
            if dir.is_empty() {
                break;
            }
        }
        out
    }
}
