//! The traits of Rust's standard library, as far as an edit needs them:
//! which methods an `impl Trait for T` block of one may define.
//!
//! The table ([`table::STD_TRAIT_METHODS`]) is generated from the
//! toolchain's documentation by `scripts/std-trait-methods`; this module
//! finds the entries a trait path written in a file stands for.

mod table;

/// One trait of the standard library: its path in `std` and its methods.
pub(crate) struct StdTrait {
    pub path: &'static str,
    pub methods: &'static [&'static str],
}

/// The standard library's traits the trait written `written` in a file of
/// text `file` may be (`Iterator`, `fmt::Display`,
/// `std::io::Write`, `Into<String>`): those of its name whose module
/// its qualifier names, narrowed to the ones the file spells with their
/// module (`io::Write` in a `use`) when it spells any. Empty: no trait of
/// the standard library is so named.
pub(crate) fn std_traits(written: &str, file: &str) -> Vec<StdTrait> {
    let path = written.split('<').next().unwrap_or_default().trim();
    let mut segments: Vec<&str> = path.split("::").map(str::trim).collect();
    let name = segments.pop().unwrap_or_default();
    // `std::`, `core::`, `alloc::` and a leading `::` say nothing more
    segments.retain(|s| !matches!(*s, "" | "std" | "core" | "alloc"));
    let module = segments.join("::");
    let named: Vec<StdTrait> = table::STD_TRAIT_METHODS
        .iter()
        .filter(|&&(path, _)| {
            let (in_module, last) = path.rsplit_once("::").unwrap_or(("", path));
            last == name && (module.is_empty() || in_module.ends_with(module.as_str()))
        })
        .map(|&(path, methods)| StdTrait { path, methods })
        .collect();
    if named.len() < 2 {
        return named;
    }
    let spelled = |t: &StdTrait| {
        let module = t.path.rsplit_once("::").map_or("", |(m, _)| m);
        let last = module.rsplit("::").next().unwrap_or(module);
        file.contains(&format!("{last}::{name}"))
            || file.split(&format!("{last}::{{")).skip(1).any(|rest| {
                rest.split('}')
                    .next()
                    .unwrap_or_default()
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == name)
            })
    };
    if named.iter().any(spelled) {
        named.into_iter().filter(spelled).collect()
    } else {
        named
    }
}

#[cfg(test)]
mod tests {
    use super::std_traits;

    fn paths(written: &str, file: &str) -> Vec<&'static str> {
        std_traits(written, file).iter().map(|t| t.path).collect()
    }

    #[test]
    fn a_written_trait_finds_its_std_entries() {
        assert_eq!(paths("Iterator", ""), ["iter::Iterator"]);
        assert_eq!(paths("std::fmt::Display", ""), ["fmt::Display"]);
        assert_eq!(paths("Into<String>", ""), ["convert::Into"]);
        assert_eq!(paths("io::Write", ""), ["io::Write"]);
        assert_eq!(paths("Write", "use std::fmt::Write;\n"), ["fmt::Write"]);
        assert_eq!(
            paths("Write", "use std::io::{self, Read, Write};\n"),
            ["io::Write"]
        );
        assert_eq!(paths("Write", ""), ["fmt::Write", "io::Write"]);
        assert!(paths("Serialize", "").is_empty());
        let iterator = &std_traits("Iterator", "")[0];
        assert!(iterator.methods.contains(&"next") && iterator.methods.contains(&"size_hint"));
        assert!(!iterator.methods.contains(&"helper"));
    }
}
