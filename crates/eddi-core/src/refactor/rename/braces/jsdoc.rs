//! JavaScript's JSDoc types: the names in `@param {Argument} a`,
//! `@returns {Argument}`, `@type {import('./argument.js').Argument}` and
//! `{@link Argument}`, which TypeScript's checker reads in a JavaScript
//! file (`checkJs`) as it reads a TypeScript annotation. A rename of a
//! module-level class or function writes them with its uses:
//!
//! - a bare name in a file whose module-level name is the symbol (a
//!   proven use of it there is no member's: its definition, an import, a
//!   `require` key) is proven;
//! - `import('./m').Name` is proven when `./m` is the defining file;
//! - any other mention (`ns.Name`, a bare name in a file that does not
//!   bind it, a key of an object type) is possible.

use ropey::Rope;

use super::{point, Target};
use crate::analysis::index::spells;
use crate::analysis::index::tags::family::{family_id, joined};
use crate::refactor::rename::Location;
use crate::refactor::{Project, RefactorError, Unproven};

/// The JSDoc sites of `target` in the project's JavaScript files: proven
/// and possible.
pub(super) fn type_sites(
    project: &Project<'_>,
    target: &Target,
    proven: &[Location],
) -> Result<(Vec<Location>, Vec<Unproven>), RefactorError> {
    let mut certain = Vec::new();
    let mut possible = Vec::new();
    if target.is_member() || family_id(target.language) != Some("es") {
        return Ok((certain, possible));
    }
    let old = target.old.as_str();
    let tags = project.index.tags();
    for path in tags.family_paths("es").iter() {
        let is_javascript = tags
            .entry(path)
            .is_some_and(|e| e.language.id() == "javascript");
        if !is_javascript {
            continue;
        }
        let text = project.source(path)?.text;
        let whole = text.to_string();
        if !whole.contains("/**") || !spells(&whole, old) {
            continue;
        }
        // the file's module-level name is the symbol: a proven use there
        // read bare
        let binds = proven
            .iter()
            .filter(|l| *l.path == **path)
            .any(|l| !read_as_member(&text, l));
        // (`@typedef {import('./a').Name} Name` declares a type of the
        // name: the file's bare mentions are that type's)
        let declares = declares_type(&whole, old);
        for (at, form) in mentions(&whole, old) {
            let at = text.byte_to_char(at);
            let site = point(&text, path, at, old);
            let sure = match form {
                Form::Bare if declares => continue,
                Form::Bare => binds,
                Form::Imported(specifier) => resolves_to(path, &specifier, &target.def_path),
                Form::Other => false,
            };
            match sure {
                true => certain.push(site),
                false => possible.push(Unproven {
                    site,
                    why: "a JSDoc type of the name: which symbol it names, the index does not know"
                        .to_string(),
                }),
            }
        }
    }
    Ok((certain, possible))
}

/// Whether a JSDoc comment of the file declares a type `name`
/// (`@typedef {…} name`, `@callback name`).
fn declares_type(text: &str, name: &str) -> bool {
    ["@typedef", "@callback"].iter().any(|tag| {
        text.match_indices(tag).any(|(at, _)| {
            let mut rest = text[at + tag.len()..].trim_start();
            if rest.starts_with('{') {
                let Some(&(_, end)) = braces(rest).first() else {
                    return false;
                };
                rest = rest[end + 1..].trim_start();
            }
            let declared: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            declared == name
        })
    })
}

/// How a JSDoc type spells the name.
#[derive(Debug, PartialEq)]
enum Form {
    /// `Name`, `Name.Inner`, `Name<T>`.
    Bare,
    /// `import('specifier').Name`.
    Imported(String),
    /// `ns.Name`, a key of an object type.
    Other,
}

/// The byte offsets of `name` in the types of the file's JSDoc comments
/// (`{…}` in a `/** … */`, `{@link …}` too), each with how it is spelled.
fn mentions(text: &str, name: &str) -> Vec<(usize, Form)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("/**").map(|i| from + i) {
        let close = text[open..].find("*/").map_or(text.len(), |i| open + i);
        let comment = &text[open..close];
        from = close;
        if !comment.contains(name) {
            continue;
        }
        for (start, end) in braces(comment) {
            let inner = &comment[start..end];
            for (i, _) in inner.match_indices(name) {
                let before = &inner[..i];
                let after = &inner[i + name.len()..];
                let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
                if before.chars().next_back().is_some_and(word)
                    || after.chars().next().is_some_and(word)
                {
                    continue;
                }
                let form = form(before, after);
                found.push((open + start + i, form));
            }
        }
    }
    found
}

/// The ranges within a comment of its `{…}` types, braces balanced,
/// without the braces.
fn braces(comment: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in comment.char_indices() {
        match c {
            '{' => {
                if depth == 0 {
                    start = i + 1;
                }
                depth += 1;
            }
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    ranges.push((start, i));
                }
            }
            _ => {}
        }
    }
    ranges
}

fn form(before: &str, after: &str) -> Form {
    let trimmed_after = after.trim_start();
    let before = before.trim_end();
    // a key of an object type (`{ Name: string }`)
    if trimmed_after.starts_with(':') || trimmed_after.starts_with("?:") {
        return Form::Other;
    }
    let Some(head) = before.strip_suffix('.') else {
        return Form::Bare;
    };
    // `import('./m').Name`
    let head = head.trim_end();
    if let Some(call) = head.strip_suffix(')') {
        if let Some(i) = call.rfind("import(") {
            let specifier = call[i + "import(".len()..]
                .trim()
                .trim_matches(|c| c == '\'' || c == '"' || c == '`');
            return Form::Imported(specifier.to_string());
        }
    }
    Form::Other
}

/// Whether the proven use at `location` is read through a value (`x.Name`).
fn read_as_member(text: &Rope, location: &Location) -> bool {
    let Ok(at) = crate::edit::position::to_char(text, location.position) else {
        return true;
    };
    let mut before = text.chars_at(at);
    loop {
        match before.prev() {
            Some(c) if c.is_whitespace() => continue,
            Some('.') => return true,
            _ => return false,
        }
    }
}

/// Whether the relative `specifier`, read from `from`, names `target`
/// (the path itself, with an extension, or its `index` file).
fn resolves_to(from: &str, specifier: &str, target: &str) -> bool {
    if !specifier.starts_with("./") && !specifier.starts_with("../") {
        return false;
    }
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let Some(base) = joined(dir, specifier) else {
        return false;
    };
    let stem = |p: &str| {
        p.rsplit_once('.')
            .filter(|(_, x)| {
                matches!(
                    *x,
                    "js" | "cjs" | "mjs" | "jsx" | "ts" | "tsx" | "mts" | "cts"
                )
            })
            .map_or(p.to_string(), |(s, _)| s.to_string())
    };
    let base = stem(&base);
    let target = stem(target);
    target == base || target == format!("{base}/index")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_in_jsdoc_types() {
        let text = "/**\n * @param {Argument} a\n * @returns {Argument[]|null}\n * @type {import('./argument.js').Argument}\n * {@link Argument} {ns.Argument} {{ Argument: string }} {Arguments}\n */\nconst Argument = 1; // {Argument}\n";
        let found: Vec<Form> = mentions(text, "Argument")
            .into_iter()
            .map(|(at, form)| {
                assert_eq!(&text[at..at + 8], "Argument");
                form
            })
            .collect();
        assert_eq!(
            found,
            [
                Form::Bare,
                Form::Bare,
                Form::Imported("./argument.js".to_string()),
                Form::Bare,
                Form::Other,
                Form::Other,
            ]
        );
    }

    #[test]
    fn a_typedef_declares_a_type_of_its_name() {
        let text = "/**\n * @typedef { import(\"./argument.js\").Argument } Argument\n * @callback Done\n */\n";
        assert!(declares_type(text, "Argument"));
        assert!(declares_type(text, "Done"));
        assert!(!declares_type(text, "Command"));
    }

    #[test]
    fn a_specifier_names_the_defining_file() {
        assert!(resolves_to(
            "lib/help.js",
            "./argument.js",
            "lib/argument.js"
        ));
        assert!(resolves_to("lib/help.js", "./argument", "lib/argument.js"));
        assert!(resolves_to(
            "lib/x/help.js",
            "../argument",
            "lib/argument.js"
        ));
        assert!(resolves_to("help.js", "./lib", "lib/index.js"));
        assert!(!resolves_to(
            "lib/help.js",
            "./option.js",
            "lib/argument.js"
        ));
        assert!(!resolves_to("lib/help.js", "argument", "lib/argument.js"));
    }
}
