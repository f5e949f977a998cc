//! Module names per project: which file a module name denotes, seen from
//! the file that imports it.
//!
//! A workspace may hold several projects (each directory with a
//! `pyproject.toml`, `setup.py` or `setup.cfg`, see
//! [`module_path`](super::module_path)), and two of them may have modules
//! of one name: two copies of a project, or `tests.test_utils` in each.
//! Python runs each project with its own `sys.path`, so a file's imports
//! find its own project's modules. The index does the same:
//!
//! * a module name is looked up in the importing file's own project first
//!   (its project directory, its `src/` layout and the packages it
//!   holds), and in the other projects only when its own has no module
//!   or package of that name;
//! * found in one other project, it is that project's; found in several,
//!   it is any of theirs ([`ModuleRef::project`] is `None`), and what is
//!   looked up in it is the union of what each holds — a rename counts a
//!   use through it as *possible*, never as proven.
//!
//! So a symbol belongs to the project of the file that defines it, and a
//! rename changes that project and the code that really imports it, never
//! another project's module of the same name.
//!
//! The table is kept as files come and go (one entry per module name and
//! per dotted prefix, as before projects were told apart); a lookup costs
//! one hash lookup and a scan of the (almost always one) projects that
//! have the name.

use std::sync::Arc;

use super::hash::FxHashMap as HashMap;
use super::FileId;

/// A project: its directory relative to the workspace root (`""` for the
/// root itself), shared by the entries of its files.
pub type Project = Arc<str>;

/// A module of the project index as the file that names it finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleRef {
    /// The dotted module name (or a package prefix of one).
    pub name: String,
    /// The project whose module it is; `None` when the name is not in
    /// the importing file's project but in several others (any of them).
    pub project: Option<Project>,
}

/// The module names of every project, with the files and the projects
/// that have each.
#[derive(Debug, Clone, Default)]
pub(super) struct ModuleTable {
    /// Module name → the files with that name, in the order indexed (two
    /// only where projects share a name, or a project has `m.py` both
    /// at its root and under `src/`).
    files: HashMap<String, Vec<(Project, FileId)>>,
    /// Every dotted prefix of a module name (the module itself included)
    /// → the projects that have it, with how many files each.
    packages: HashMap<String, Vec<(Project, usize)>>,
}

impl ModuleTable {
    pub(super) fn add(&mut self, module: &str, project: &Project, fid: FileId) {
        if !module.is_empty() {
            self.files
                .entry(module.to_string())
                .or_default()
                .push((Arc::clone(project), fid));
        }
        for prefix in prefixes(module) {
            let projects = self.packages.entry(prefix.to_string()).or_default();
            match projects.iter_mut().find(|(p, _)| p == project) {
                Some((_, n)) => *n += 1,
                None => projects.push((Arc::clone(project), 1)),
            }
        }
    }

    pub(super) fn remove(&mut self, module: &str, project: &Project, fid: FileId) {
        if let Some(files) = self.files.get_mut(module) {
            files.retain(|&(_, f)| f != fid);
            if files.is_empty() {
                self.files.remove(module);
            }
        }
        for prefix in prefixes(module) {
            let Some(projects) = self.packages.get_mut(prefix) else {
                continue;
            };
            if let Some(i) = projects.iter().position(|(p, _)| p == project) {
                projects[i].1 -= 1;
                if projects[i].1 == 0 {
                    projects.remove(i);
                }
            }
            if projects.is_empty() {
                self.packages.remove(prefix);
            }
        }
    }

    /// Whether some project has a module or package of this name.
    pub(super) fn has(&self, name: &str) -> bool {
        self.packages.contains_key(name)
    }

    /// The projects that have a module or package of this name.
    pub(super) fn projects_with(&self, name: &str) -> impl Iterator<Item = &Project> {
        self.packages
            .get(name)
            .into_iter()
            .flatten()
            .map(|(p, _)| p)
    }

    /// Every module name, each once.
    pub(super) fn names(&self) -> impl Iterator<Item = &String> {
        self.files.keys()
    }

    /// Every file of a module name, whatever its project.
    pub(super) fn all_files(&self, name: &str) -> impl Iterator<Item = FileId> + '_ {
        self.files.get(name).into_iter().flatten().map(|&(_, f)| f)
    }

    /// The module `name` as a file of project `from` finds it (`None`
    /// from no file: any project's); `None` when no project has it.
    pub(super) fn find(&self, from: Option<&Project>, name: &str) -> Option<ModuleRef> {
        let projects = self.packages.get(name)?;
        let project = match (from, projects.as_slice()) {
            (Some(own), _) if projects.iter().any(|(p, _)| p == own) => Some(Arc::clone(own)),
            (_, [(only, _)]) => Some(Arc::clone(only)),
            _ => None,
        };
        Some(ModuleRef {
            name: name.to_string(),
            project,
        })
    }

    /// The files of a module in its project (of every project that has
    /// it when its project is `None`), in the order indexed.
    pub(super) fn files_of<'a>(&'a self, m: &'a ModuleRef) -> impl Iterator<Item = FileId> + 'a {
        self.files
            .get(&m.name)
            .into_iter()
            .flatten()
            .filter(|(p, _)| m.project.as_ref().is_none_or(|own| own == p))
            .map(|&(_, f)| f)
    }

    /// The module `m` in each project that has it, for a module of no
    /// one project.
    pub(super) fn in_each_project<'a>(
        &'a self,
        m: &'a ModuleRef,
    ) -> impl Iterator<Item = ModuleRef> + 'a {
        self.projects_with(&m.name).map(|p| ModuleRef {
            name: m.name.clone(),
            project: Some(Arc::clone(p)),
        })
    }
}

/// `a.b.c` → `a`, `a.b`, `a.b.c`; nothing for `""`.
fn prefixes(module: &str) -> impl Iterator<Item = &str> {
    let ends = module
        .match_indices('.')
        .map(|(i, _)| i)
        .chain((!module.is_empty()).then_some(module.len()));
    ends.map(move |end| &module[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(dir: &str) -> Project {
        dir.into()
    }

    #[test]
    fn a_module_name_is_found_in_the_own_project_first() {
        let (a, b, c, root) = (project("a"), project("b"), project("c"), project(""));
        let mut table = ModuleTable::default();
        table.add("humanize.time", &a, 0);
        table.add("humanize.time", &b, 1);
        table.add("tool", &c, 2);
        fn found(
            table: &ModuleTable,
            from: Option<&Project>,
            name: &str,
        ) -> Option<Option<String>> {
            table
                .find(from, name)
                .map(|m| m.project.map(|p| p.to_string()))
        }
        assert_eq!(
            found(&table, Some(&a), "humanize.time"),
            Some(Some("a".into()))
        );
        assert_eq!(found(&table, Some(&b), "humanize"), Some(Some("b".into())));
        // not in its own project: the one other project that has it
        assert_eq!(found(&table, Some(&a), "tool"), Some(Some("c".into())));
        // in several other projects: any of them
        assert_eq!(found(&table, Some(&root), "humanize"), Some(None));
        assert_eq!(found(&table, None, "humanize.time"), Some(None));
        assert_eq!(found(&table, Some(&a), "nosuch"), None);
        let any = table.find(None, "humanize.time").unwrap();
        assert_eq!(table.files_of(&any).collect::<Vec<_>>(), vec![0, 1]);
        let of_b = table.find(Some(&b), "humanize.time").unwrap();
        assert_eq!(table.files_of(&of_b).collect::<Vec<_>>(), vec![1]);
        // a project's last file gone, the name is the other's alone
        table.remove("humanize.time", &b, 1);
        assert_eq!(found(&table, Some(&b), "humanize"), Some(Some("a".into())));
        table.remove("humanize.time", &a, 0);
        assert!(!table.has("humanize"));
        assert_eq!(prefixes("a.b").collect::<Vec<_>>(), vec!["a", "a.b"]);
        assert_eq!(prefixes("").count(), 0);
    }

    use crate::analysis::index::{IndexError, ProjectIndex};

    /// A small project (`src/` layout, or its package at its root) as
    /// files under `dir`.
    fn tiny(dir: &str, src_layout: bool) -> Vec<(String, &'static str)> {
        let package = if src_layout {
            format!("{dir}/src/tiny")
        } else {
            format!("{dir}/tiny")
        };
        vec![
            (format!("{dir}/pyproject.toml"), "[project]\nname = 'tiny'\n"),
            (
                format!("{package}/__init__.py"),
                "from tiny.core import shout\n\n__all__ = ['shout']\n",
            ),
            (
                format!("{package}/core.py"),
                "def shout(s):\n    return s.upper()\n",
            ),
            (
                format!("{dir}/tests/test_core.py"),
                "import tiny\nfrom tiny.core import shout\n\n\ndef test_shout():\n    assert shout('a') == tiny.shout('a')\n",
            ),
        ]
    }

    fn build(files: &[(String, &str)]) -> (tempfile::TempDir, ProjectIndex) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        let index = ProjectIndex::build(dir.path());
        (dir, index)
    }

    fn shown(locations: &[crate::analysis::index::Location]) -> Vec<String> {
        locations.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn each_copy_of_a_project_finds_its_own_modules() {
        let mut files = tiny("app_a", true);
        files.extend(tiny("app_b", false));
        let (_dir, index) = build(&files);
        assert_eq!(index.project_of("app_a/tests/test_core.py"), Some("app_a"));
        assert_eq!(index.project_of("app_b/tiny/core.py"), Some("app_b"));
        let a = index.find_references("app_a.src.tiny.core.shout").unwrap();
        assert_eq!(
            shown(&a.certain),
            vec![
                "app_a/src/tiny/__init__.py:0:22",
                "app_a/tests/test_core.py:1:22",
                "app_a/tests/test_core.py:5:11",
                "app_a/tests/test_core.py:5:30",
            ]
        );
        assert!(a.possible.is_empty());
        let b = index.find_references("app_b.tiny.core.shout").unwrap();
        assert!(b.certain.iter().all(|l| l.path.starts_with("app_b/")));
        assert_eq!(b.certain.len(), 4);
        // the same full name in two projects, asked from no file
        let Err(IndexError::Ambiguous { candidates, .. }) = index.find_definition("shout") else {
            panic!("ambiguous")
        };
        let names: Vec<&str> = candidates
            .iter()
            .map(|c| c.qualified_name.as_str())
            .collect();
        assert_eq!(
            names,
            vec!["app_a.src.tiny.core.shout", "app_b.tiny.core.shout"]
        );
        let message = index
            .find_definition("tiny.core.shout")
            .unwrap_err()
            .to_string();
        assert!(
            message.ends_with("defined in the projects app_a, app_b: name one as app_a.src.tiny.core.shout or app_b.tiny.core.shout, or ask with a current file in its project"),
            "{message}"
        );
        // a current file decides: its project's symbol
        let from_b = index
            .rename_symbol("tiny.core.shout", Some("app_b/tests/test_core.py"))
            .unwrap();
        assert_eq!(
            index.def_info(from_b[0]).unwrap().path,
            "app_b/tiny/core.py"
        );
        // a module name of two projects names its files
        assert!(matches!(
            index.dependents("tiny.core"),
            Err(IndexError::AmbiguousModule { .. })
        ));
        let dependents = index.dependents("app_a/src/tiny/core.py").unwrap();
        let paths: Vec<_> = dependents
            .iter()
            .filter_map(|d| d.path.as_deref())
            .collect();
        assert_eq!(
            paths,
            vec!["app_a/tests/test_core.py", "app_a/src/tiny/__init__.py"]
        );
        let deps = index.dependencies("app_b/tests/test_core.py").unwrap();
        let targets: Vec<_> = deps.iter().filter_map(|d| d.path.as_deref()).collect();
        assert_eq!(
            targets,
            vec!["app_b/tiny/__init__.py", "app_b/tiny/core.py"]
        );
    }

    #[test]
    fn a_module_only_another_project_has_is_that_projects_and_of_several_any() {
        let mut files = tiny("lib_a", true);
        files.push(("app/pyproject.toml".into(), "[project]\nname = 'app'\n"));
        files.push((
            "app/main.py".into(),
            "from tiny.core import shout\n\nshout('x')\n",
        ));
        let (_dir, index) = build(&files);
        // not in its own project: the one project that has it
        let refs = index.find_references("tiny.core.shout").unwrap();
        assert!(refs.certain.iter().any(|l| l.path == "app/main.py"));

        files.extend(tiny("lib_b", false));
        let (_dir, index) = build(&files);
        // in two other projects: either one's, never proven to be one
        let a = index
            .rename_symbol("lib_a.src.tiny.core.shout", None)
            .unwrap();
        let sites = index.rename_sites(&a, "shout", false);
        assert!(sites.certain.iter().all(|l| l.path.starts_with("lib_a/")));
        let possible: Vec<String> = sites.possible.iter().map(|(l, _)| l.to_string()).collect();
        assert_eq!(possible, vec!["app/main.py:0:22", "app/main.py:2:0"]);
        let refs = index.find_references("lib_b.tiny.core.shout").unwrap();
        assert!(refs.certain.iter().all(|l| l.path.starts_with("lib_b/")));
        assert_eq!(
            shown(&refs.possible),
            vec!["app/main.py:0:22", "app/main.py:2:0"]
        );
    }

    #[test]
    fn copies_in_directories_that_are_not_identifiers_are_picked_by_a_current_file() {
        let mut files = tiny("humanize-4.10.0", true);
        files.extend(tiny("humanize-4.9.0", true));
        let (_dir, index) = build(&files);
        let message = index.find_references("shout").unwrap_err().to_string();
        assert!(
            message.ends_with("defined in the projects humanize-4.10.0, humanize-4.9.0: Open a file of the project meant first (its own symbols win there)"),
            "{message}"
        );
        let refs = index
            .find_references_from("shout", Some("humanize-4.9.0/tests/test_core.py"))
            .unwrap();
        assert_eq!(
            refs.definitions[0].location.path,
            "humanize-4.9.0/src/tiny/core.py"
        );
        assert!(refs
            .certain
            .iter()
            .all(|l| l.path.starts_with("humanize-4.9.0/")));
        assert_eq!(refs.certain.len(), 4);
    }
}
