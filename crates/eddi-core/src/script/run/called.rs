//! The last check of the brace-language files a script changed: what
//! they call exists. A call the script leaves naming nothing — the
//! replacement's typo (`price(x)` for `items.price(x)`, `calc.Blend` of a
//! package that has no `Blend`), a function the script removed while a
//! call of it stays — makes a file its compiler refuses, so the script
//! is refused before it writes (Python's files get the same from their
//! undefined names).
//!
//! What each file binds is the file's own reading
//! ([`crate::analysis::index::tags::unbound`]); what the rest of the
//! project defines is the index's on disk ([`Project::definers_of`],
//! [`Project::module_reached`]), but for the files the script changed,
//! read as it leaves them. A call the file already made is not the
//! script's to answer for.

use ropey::Rope;

use super::Project;
use crate::analysis::index::tags::family::family_id;
use crate::analysis::index::tags::unbound::{holds, unbound, Unbound};
use crate::language::Language;

/// A changed file, read as the script leaves it.
struct Changed {
    path: String,
    language: &'static dyn Language,
    before: Rope,
    after: String,
    now: Unbound,
}

/// The places where the script's result calls what nothing defines, one
/// line each (`main.go:6: 'mix' is not defined: …`). `changed`: the
/// brace-language files the script changed (path, text before, text
/// after), each free of new syntax errors.
pub(super) fn new_calls_of_nothing(
    project: &dyn Project,
    changed: Vec<(String, Rope, Rope)>,
) -> Vec<String> {
    let changed: Vec<Changed> = (changed.into_iter())
        .filter_map(|(path, before, after)| {
            let language = crate::language::language_of(&path)?;
            family_id(language)?;
            let after = after.to_string();
            let now = unbound(language, &after);
            Some(Changed {
                path,
                language,
                before,
                after,
                now,
            })
        })
        .collect();
    let mut problems = Vec::new();
    for file in &changed {
        if file.now.calls.is_empty() && file.now.through_modules.is_empty() {
            continue;
        }
        let before = unbound(file.language, &file.before.to_string());
        let mut reported: Vec<String> = Vec::new();
        for (name, at) in &file.now.calls {
            if reported.contains(name)
                || before.calls.iter().any(|(had, _)| had == name)
                || defined_anywhere(project, &changed, file, name)
            {
                continue;
            }
            reported.push(name.clone());
            problems.push(format!(
                "{}:{}: '{name}' is not defined: no scope, import or file of the project defines it (define or import it, or change the replacement)",
                file.path,
                at.line + 1
            ));
        }
        for call in &file.now.through_modules {
            let written = &call.written;
            let had = (before.through_modules.iter())
                .any(|c| c.reach == call.reach && c.name == call.name);
            if had || reported.contains(written) {
                continue;
            }
            let Some(module) = project.module_reached(&file.path, &call.reach) else {
                continue;
            };
            let holds = |path: &String| match changed_file(&changed, path) {
                Some(now) => now.holds(&call.name),
                None => project.file_holds(path, &call.name),
            };
            if module.iter().any(holds) {
                continue;
            }
            let files: Vec<&str> = module.iter().take(3).map(String::as_str).collect();
            problems.push(format!(
                "{}:{}: '{written}' is not defined: {}{} define{} no {} (define it, or change the replacement)",
                file.path,
                call.at.line + 1,
                files.join(", "),
                if module.len() > 3 { ", …" } else { "" },
                if module.len() == 1 { "s" } else { "" },
                call.name
            ));
            reported.push(written.clone());
        }
    }
    problems
}

/// Whether a file of `file`'s family defines `name`: one the script
/// changed as it leaves it, any other as the index read it.
fn defined_anywhere(
    project: &dyn Project,
    changed: &[Changed],
    file: &Changed,
    name: &str,
) -> bool {
    let family = family_id(file.language);
    let now = (changed.iter())
        .any(|c| family_id(c.language) == family && c.now.defines.iter().any(|d| d == name));
    now || project
        .definers_of(&file.path, name)
        .is_none_or(|files| (files.iter()).any(|path| changed_file(changed, path).is_none()))
}

/// A file the script changed, as it leaves it.
fn changed_file<'c>(changed: &'c [Changed], path: &str) -> Option<&'c Changed> {
    (changed.iter()).find(|c| c.path == path)
}

impl Changed {
    /// Whether the file, as the script leaves it, holds `name` for a
    /// call through its module.
    fn holds(&self, name: &str) -> bool {
        holds(self.language, &self.now, &self.after, name)
    }
}
