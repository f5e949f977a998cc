//! The npm packages of the project (a monorepo's workspaces): each
//! `package.json` with a `"name"` in a directory of the ES files or above
//! one, and the file a bare specifier naming one (`@acme/lib`,
//! `@acme/lib/sub`) reaches, as Node and TypeScript read the package: its
//! `exports` entry for the subpath (`"."`, `"./sub"`; a string, or the
//! first of the conditions `types`, `import`, `module`, `default`,
//! `require`, `node`), else its `source`, `types`/`typings`, `module`
//! and `main` fields, else its `index` file. An entry the project does not
//! have (a build's `dist/`) reaches nothing the index reads: the package's
//! uses are then possible, never another package's.

use std::sync::Arc;

use serde_json::Value;

use super::family::{joined, Files};

/// The project's packages, by name.
#[derive(Debug, Default)]
pub struct Packages {
    /// (name, directory, manifest), the longest names first.
    by_name: Vec<(String, String, Value)>,
}

impl Packages {
    /// The packages of the project (read once per state of the index).
    pub fn of(files: &Files<'_>) -> Arc<Packages> {
        files.memo().parsed("#npm-packages", || {
            let mut dirs: Vec<&str> = Vec::new();
            let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
            for path in files.paths {
                let mut dir = path.rsplit_once('/').map_or("", |(d, _)| d);
                loop {
                    if !seen.insert(dir) {
                        break;
                    }
                    dirs.push(dir);
                    match dir.rsplit_once('/') {
                        Some((up, _)) => dir = up,
                        None if !dir.is_empty() => dir = "",
                        None => break,
                    }
                }
            }
            let mut by_name = Vec::new();
            for dir in dirs {
                let manifest = match dir {
                    "" => "package.json".to_string(),
                    d => format!("{d}/package.json"),
                };
                let Some(text) = files.manifest(&manifest) else {
                    continue;
                };
                let Ok(value) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                if let Some(name) = value.get("name").and_then(Value::as_str) {
                    by_name.push((name.to_string(), dir.to_string(), value.clone()));
                }
            }
            by_name.sort_by_key(|(name, ..)| std::cmp::Reverse(name.len()));
            Packages { by_name }
        })
    }

    /// Whether `specifier` names a package of the project.
    pub fn names(&self, specifier: &str) -> bool {
        self.find(specifier).is_some()
    }

    /// The package `specifier` names, with the subpath after its name.
    fn find<'s>(&self, specifier: &'s str) -> Option<(&(String, String, Value), &'s str)> {
        self.by_name.iter().find_map(|package| {
            let rest = specifier.strip_prefix(package.0.as_str())?;
            match rest {
                "" => Some((package, "")),
                r if r.starts_with('/') => Some((package, &r[1..])),
                _ => None,
            }
        })
    }

    /// The paths (from the project's root, without extensions probed) the
    /// specifier may reach, in the order Node and TypeScript try them;
    /// `None`: no package of the project.
    pub fn entries(&self, specifier: &str) -> Option<Vec<String>> {
        let ((_, dir, manifest), subpath) = self.find(specifier)?;
        let mut entries: Vec<String> = Vec::new();
        let key = match subpath {
            "" => ".".to_string(),
            s => format!("./{s}"),
        };
        match manifest.get("exports") {
            Some(Value::String(entry)) if subpath.is_empty() => entries.push(entry.clone()),
            Some(Value::Object(map)) => {
                // `{ ".": …, "./sub": … }`, or the conditions of "." alone
                let keyed = map.keys().any(|k| k.starts_with('.'));
                let entry = match keyed {
                    true => map.get(&key),
                    false if subpath.is_empty() => manifest.get("exports"),
                    false => None,
                };
                entries.extend(entry.and_then(condition));
            }
            _ => {}
        }
        if subpath.is_empty() {
            for field in ["source", "types", "typings", "module", "main"] {
                if let Some(entry) = manifest.get(field).and_then(Value::as_str) {
                    entries.push(entry.to_string());
                }
            }
            entries.push("index".to_string());
        } else {
            entries.push(subpath.to_string());
        }
        let paths = entries
            .iter()
            .filter_map(|entry| joined(dir, entry.trim_start_matches("./")))
            .collect();
        Some(paths)
    }
}

/// The path an `exports` entry gives: a string, or the first condition of
/// an object that gives one.
fn condition(entry: &Value) -> Option<String> {
    match entry {
        Value::String(path) => Some(path.clone()),
        Value::Object(conditions) => ["types", "import", "module", "default", "require", "node"]
            .iter()
            .find_map(|c| conditions.get(*c).and_then(condition)),
        _ => None,
    }
}
