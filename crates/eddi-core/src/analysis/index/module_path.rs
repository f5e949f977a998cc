//! Module names from workspace-relative paths, and relative imports made absolute.
//!
//! **Import roots**, as Python finds them for a project: a file's module
//! name is its path relative to its *import root*, which is its deepest
//! ancestor directory holding a project marker (`pyproject.toml`,
//! `setup.py`, `setup.cfg`), else the workspace root; when that directory
//! has a `src/` directory (not itself a package) and the file is under it,
//! the root is that `src/` (the "src layout"). So with the workspace root
//! above two projects, `requests/src/requests/models.py` is
//! `requests.models` and `rich/rich/console.py` is `rich.console`, the
//! names their imports use.
//!
//! * `pkg/sub/mod.py` is `pkg.sub.mod`; `pkg/__init__.py` is the package `pkg`.
//! * Directories without `__init__.py` are namespace packages (PEP 420): their
//!   files are named the same way, so `ns/tool.py` is `ns.tool`.
//!
//! **Projects.** A file belongs to the *project* of its import root: the
//! directory holding the marker (`""` for the workspace root), with its
//! `src/` when it has one. Two projects may give two files one module
//! name (`humanize.time` in two copies of a project, `tests.test_utils`):
//! module names are looked up per project (`projects.rs`), so each file's
//! imports find its own project's module first.
//!
//! Known limits: no `sys.path` configuration, no `.pth` files; a marker
//! added or removed is noticed when the files under it are re-indexed
//! (`refresh` re-checks the names of all files). Only `.py` files are
//! modules (stubs `.pyi` are not indexed).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::projects::Project;

/// Files whose presence makes a directory a project (an import root).
pub const PROJECT_MARKERS: [&str; 3] = ["pyproject.toml", "setup.py", "setup.cfg"];

/// Finds the import roots of files under a workspace root, remembering what
/// it saw of each directory (one `ImportRoots` per pass over the files).
#[derive(Debug)]
pub struct ImportRoots {
    root: PathBuf,
    /// Directory (relative) → is it a project directory.
    projects: HashMap<String, bool>,
    /// Directory (relative) → its `src/` is a source root.
    src_roots: HashMap<String, bool>,
    /// Each project directory once, shared by its files' entries.
    interned: HashMap<String, Project>,
}

impl ImportRoots {
    pub fn new(root: &Path) -> ImportRoots {
        ImportRoots {
            root: root.to_path_buf(),
            projects: HashMap::new(),
            src_roots: HashMap::new(),
            interned: HashMap::new(),
        }
    }

    fn is_project(&mut self, dir: &str) -> bool {
        if dir.is_empty() {
            return true;
        }
        let root = &self.root;
        *self.projects.entry(dir.to_string()).or_insert_with(|| {
            PROJECT_MARKERS
                .iter()
                .any(|m| root.join(dir).join(m).is_file())
        })
    }

    fn has_src_root(&mut self, dir: &str) -> bool {
        let root = &self.root;
        *self.src_roots.entry(dir.to_string()).or_insert_with(|| {
            let src = root.join(dir).join("src");
            src.is_dir() && !src.join("__init__.py").exists()
        })
    }

    /// The import root of a workspace-relative file path (`""` for the
    /// workspace root, else a relative directory without trailing `/`).
    pub fn root_of(&mut self, rel_path: &str) -> String {
        self.root_and_project(rel_path).0
    }

    /// The import root of a file and the project directory it is in (the
    /// root itself, or the directory whose `src/` the root is).
    fn root_and_project(&mut self, rel_path: &str) -> (String, String) {
        let dirs: Vec<&str> = rel_path.split('/').collect();
        let dirs = &dirs[..dirs.len().saturating_sub(1)];
        let mut project = String::new();
        for depth in (1..=dirs.len()).rev() {
            let dir = dirs[..depth].join("/");
            if self.is_project(&dir) {
                project = dir;
                break;
            }
        }
        let inside = |d: &str| {
            if project.is_empty() {
                d.to_string()
            } else {
                format!("{project}/{d}")
            }
        };
        let src = inside("src");
        if rel_path.starts_with(&format!("{src}/")) && self.has_src_root(&project) {
            return (src, project);
        }
        (project.clone(), project)
    }

    /// The dotted module name of a workspace-relative `.py` path and
    /// whether it is a package's `__init__`; `None` for other paths.
    pub fn module_name(&mut self, rel_path: &str) -> Option<(String, bool)> {
        rel_path.strip_suffix(".py")?;
        let root = self.root_of(rel_path);
        module_name_under(rel_path, &root)
    }

    /// [`Self::module_name`] and the project the file belongs to.
    pub fn module_and_project(&mut self, rel_path: &str) -> Option<((String, bool), Project)> {
        rel_path.strip_suffix(".py")?;
        let (root, project) = self.root_and_project(rel_path);
        let module = module_name_under(rel_path, &root)?;
        let project = match self.interned.get(&project) {
            Some(p) => Arc::clone(p),
            None => {
                let p: Project = project.as_str().into();
                self.interned.insert(project, Arc::clone(&p));
                p
            }
        };
        Some((module, project))
    }
}

/// The module name of a `.py` path relative to the import root `root`.
pub fn module_name_under(rel_path: &str, root: &str) -> Option<(String, bool)> {
    let stem = rel_path.strip_suffix(".py")?;
    let stem = if root.is_empty() {
        stem
    } else {
        stem.strip_prefix(root)?.strip_prefix('/')?
    };
    let mut parts: Vec<&str> = stem.split('/').filter(|p| !p.is_empty()).collect();
    let is_package = parts.last() == Some(&"__init__");
    if is_package {
        parts.pop();
    }
    Some((parts.join("."), is_package))
}

/// The package a module's relative imports start from: the module itself
/// for a package's `__init__`, else its parent.
pub fn package_of(module: &str, is_package: bool) -> &str {
    if is_package {
        module
    } else {
        module.rsplit_once('.').map(|(p, _)| p).unwrap_or("")
    }
}

/// Makes `from <dots><rest> import …` absolute. `level` is the number of
/// dots (at least 1). `None` when it climbs above the top-level package.
pub fn absolute(package: &str, level: usize, rest: &str) -> Option<String> {
    let mut base: Vec<&str> = package.split('.').filter(|p| !p.is_empty()).collect();
    for _ in 1..level {
        base.pop()?;
    }
    if base.is_empty() && rest.is_empty() {
        return None;
    }
    if !rest.is_empty() {
        base.push(rest);
    }
    Some(base.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_relative_imports() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/pkg")).unwrap();
        let mut roots = ImportRoots::new(dir.path());
        let cases: &[(&str, Option<(&str, bool)>)] = &[
            ("pkg/__init__.py", Some(("pkg", true))),
            ("pkg/sub/mod.py", Some(("pkg.sub.mod", false))),
            ("src/pkg/a.py", Some(("pkg.a", false))),
            ("top.py", Some(("top", false))),
            ("README.md", None),
        ];
        for (path, want) in cases {
            let got = roots.module_name(path);
            assert_eq!(got.as_ref().map(|(m, p)| (m.as_str(), *p)), *want, "{path}");
        }
        assert_eq!(package_of("pkg.sub.mod", false), "pkg.sub");
        assert_eq!(package_of("pkg", true), "pkg");
        assert_eq!(absolute("pkg.sub", 1, "m").as_deref(), Some("pkg.sub.m"));
        assert_eq!(absolute("pkg.sub", 2, "a").as_deref(), Some("pkg.a"));
        assert_eq!(absolute("pkg.sub", 2, "").as_deref(), Some("pkg"));
        assert_eq!(absolute("pkg", 3, "x"), None);
        assert_eq!(absolute("", 1, ""), None);
    }

    #[test]
    fn projects_below_the_workspace_root_are_import_roots() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in [
            ("requests/pyproject.toml", ""),
            ("requests/src/requests/__init__.py", ""),
            ("rich/setup.py", ""),
            ("rich/rich/__init__.py", ""),
            ("tool/setup.cfg", ""),
            ("tool/src/__init__.py", ""),
        ] {
            std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            std::fs::write(root.join(path), text).unwrap();
        }
        let mut roots = ImportRoots::new(root);
        let name = |roots: &mut ImportRoots, p: &str| roots.module_name(p).unwrap().0;
        assert_eq!(
            name(&mut roots, "requests/src/requests/models.py"),
            "requests.models"
        );
        assert_eq!(name(&mut roots, "requests/tests/test_a.py"), "tests.test_a");
        assert_eq!(name(&mut roots, "rich/rich/console.py"), "rich.console");
        assert_eq!(name(&mut roots, "rich/setup.py"), "setup");
        // a `src` that is a package is not a source root
        assert_eq!(name(&mut roots, "tool/src/a.py"), "src.a");
        assert_eq!(name(&mut roots, "loose/b.py"), "loose.b");
    }
}
