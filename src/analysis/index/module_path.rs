//! Module names from workspace-relative paths, and relative imports made absolute.
//!
//! * `pkg/sub/mod.py` is `pkg.sub.mod`; `pkg/__init__.py` is the package `pkg`.
//! * Directories without `__init__.py` are namespace packages (PEP 420): their
//!   files are named the same way, so `ns/tool.py` is `ns.tool`.
//! * A leading `src/` directory is dropped (the "src layout"):
//!   `src/pkg/a.py` is `pkg.a`.
//!
//! Known limits: no `sys.path` configuration, no `.pth` files; a project
//! with several source roots other than the workspace root and `src/` gets
//! module names prefixed with their directories. Only `.py` files are
//! modules (stubs `.pyi` are not indexed).

/// The dotted module name of a workspace-relative path using `/`, and
/// whether the file is a package's `__init__.py`. `None` for non-`.py` paths.
pub fn module_name(rel_path: &str) -> Option<(String, bool)> {
    let stem = rel_path.strip_suffix(".py")?;
    let stem = stem.strip_prefix("src/").unwrap_or(stem);
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
        let cases: &[(&str, Option<(&str, bool)>)] = &[
            ("pkg/__init__.py", Some(("pkg", true))),
            ("pkg/sub/mod.py", Some(("pkg.sub.mod", false))),
            ("src/pkg/a.py", Some(("pkg.a", false))),
            ("top.py", Some(("top", false))),
            ("README.md", None),
        ];
        for (path, want) in cases {
            let got = module_name(path);
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
}
