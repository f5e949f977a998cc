//! TypeScript's module paths: `compilerOptions.baseUrl` and
//! `compilerOptions.paths` of the nearest `tsconfig.json` above a file,
//! with what it `extends` (a relative path, or a list of them), as `tsc`
//! reads them: a key of the extending file replaces the extended one's;
//! `baseUrl` is relative to the file that sets it, `paths`' targets to the
//! `baseUrl` in effect, else to the file that sets `paths`. A bare
//! specifier that a pattern of `paths` matches (exactly, or around its one
//! `*`; the longest prefix first) names the first of its targets the
//! project has; one that none matches names `baseUrl`'s file, if any.
//! A JavaScript project's `jsconfig.json` says the same and is read the
//! same way: in a directory with both, `tsconfig.json` wins, as in the
//! TypeScript language service that reads both.
//! The files are read with tree-sitter-json (it takes their comments).

use std::sync::Arc;

use tree_sitter::{Node, Parser};

use super::family::Files;

/// What a `tsconfig.json` says of module paths, its `extends` followed.
#[derive(Debug, Default, Clone)]
pub struct TsConfig {
    /// `baseUrl`, as a directory of the project (`""`: the root).
    base_url: Option<String>,
    paths: Option<Paths>,
}

/// `paths`: each pattern with its targets, and the directory the targets
/// are relative to when no `baseUrl` is in effect.
type Paths = (Vec<(String, Vec<String>)>, String);

/// How deep `extends` is followed (a cycle ends there too).
const MAX_EXTENDS: usize = 8;

impl TsConfig {
    /// The configuration of the nearest `tsconfig.json` (or
    /// `jsconfig.json`) at or above `dir`.
    pub fn nearest(files: &Files<'_>, dir: &str) -> Option<Arc<TsConfig>> {
        let mut at = Some(dir);
        while let Some(d) = at {
            for name in ["tsconfig.json", "jsconfig.json"] {
                let path = join(d, name);
                if files.manifest(&path).is_some() {
                    return Some(files.memo().parsed(&path, || read(files, &path, 0)));
                }
            }
            at = match d {
                "" => None,
                d => Some(parent(d)),
            };
        }
        None
    }

    /// The project paths a bare specifier may name, in the order `tsc`
    /// tries them (each still to be probed with extensions): the targets
    /// of the `paths` pattern that matches it, then `baseUrl`'s; empty
    /// when neither maps it.
    pub fn candidates(&self, specifier: &str) -> Vec<String> {
        let mut found = Vec::new();
        if let Some((patterns, own_dir)) = &self.paths {
            let matched = patterns
                .iter()
                .filter_map(|(pattern, targets)| {
                    let (prefix, star) = match pattern.split_once('*') {
                        None if pattern == specifier => (pattern.as_str(), None),
                        None => return None,
                        Some((prefix, suffix)) => (
                            prefix,
                            Some(
                                specifier
                                    .strip_prefix(prefix)
                                    .and_then(|r| r.strip_suffix(suffix))?,
                            ),
                        ),
                    };
                    Some((star.is_none(), prefix.len(), star, targets))
                })
                // an exact pattern first, then the longest prefix
                .max_by_key(|(exact, prefix, _, _)| (*exact, *prefix));
            if let Some((_, _, star, targets)) = matched {
                let base = self.base_url.as_deref().unwrap_or(own_dir);
                found.extend(targets.iter().filter_map(|t| {
                    let target = match star {
                        Some(star) => t.replacen('*', star, 1),
                        None => t.clone(),
                    };
                    normalize(&join(base, &target))
                }));
            }
        }
        if let Some(base) = &self.base_url {
            found.extend(normalize(&join(base, specifier)));
        }
        found
    }
}

/// Reads the configuration at `path` and what it extends.
fn read(files: &Files<'_>, path: &str, depth: usize) -> TsConfig {
    let Some(text) = files.manifest(path) else {
        return TsConfig::default();
    };
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_json::LANGUAGE.into())
        .is_err()
    {
        return TsConfig::default();
    }
    let Some(tree) = parser.parse(text.as_bytes(), None) else {
        return TsConfig::default();
    };
    let dir = parent(path);
    let top = tree
        .root_node()
        .named_child(0)
        .filter(|n| n.kind() == "object");
    // what it extends first: its own keys replace those
    let mut config = TsConfig::default();
    if let Some(extends) = top.and_then(|o| member(&text, o, "extends")) {
        if depth < MAX_EXTENDS {
            let bases: Vec<String> = match extends.kind() {
                "array" => {
                    let mut c = extends.walk();
                    let items: Vec<Node<'_>> = extends.named_children(&mut c).collect();
                    items.into_iter().filter_map(|n| string(&text, n)).collect()
                }
                _ => string(&text, extends).into_iter().collect(),
            };
            // a package's configuration (`@tsconfig/node18`) is not the
            // project's: its keys are not read
            for base in bases.iter().filter(|b| b.starts_with('.')) {
                let Some(mut file) = normalize(&join(dir, base)) else {
                    continue;
                };
                if files.manifest(&file).is_none() && !file.ends_with(".json") {
                    file.push_str(".json");
                }
                let extended = read(files, &file, depth + 1);
                if extended.base_url.is_some() {
                    config.base_url = extended.base_url;
                }
                if extended.paths.is_some() {
                    config.paths = extended.paths;
                }
            }
        }
    }
    let options = top.and_then(|o| member(&text, o, "compilerOptions"));
    if let Some(base) = options
        .and_then(|o| member(&text, o, "baseUrl"))
        .and_then(|b| string(&text, b))
    {
        config.base_url = normalize(&join(dir, &base));
    }
    if let Some(paths) = options.and_then(|o| member(&text, o, "paths")) {
        let mut patterns = Vec::new();
        let mut c = paths.walk();
        for pair in paths.named_children(&mut c).filter(|n| n.kind() == "pair") {
            let (Some(key), Some(value)) = (
                pair.child_by_field_name("key")
                    .and_then(|k| string(&text, k)),
                pair.child_by_field_name("value"),
            ) else {
                continue;
            };
            let mut c = value.walk();
            let targets: Vec<String> = value
                .named_children(&mut c)
                .filter_map(|t| string(&text, t))
                .collect();
            patterns.push((key, targets));
        }
        config.paths = Some((patterns, dir.to_string()));
    }
    config
}

/// The value of an object's member `key`.
fn member<'t>(text: &str, object: Node<'t>, key: &str) -> Option<Node<'t>> {
    let mut c = object.walk();
    let found = object
        .named_children(&mut c)
        .filter(|n| n.kind() == "pair")
        .find(|p| {
            p.child_by_field_name("key")
                .and_then(|k| string(text, k))
                .is_some_and(|k| k == key)
        });
    found.and_then(|p| p.child_by_field_name("value"))
}

/// A JSON string's text, its quotes off.
fn string(text: &str, node: Node<'_>) -> Option<String> {
    (node.kind() == "string").then(|| text[node.byte_range()].trim_matches('"').to_string())
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

fn join(dir: &str, rel: &str) -> String {
    match dir {
        "" => rel.to_string(),
        d => format!("{d}/{rel}"),
    }
}

/// A project path with `.` and `..` resolved; `None` when it leaves the
/// root.
pub(super) fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}
