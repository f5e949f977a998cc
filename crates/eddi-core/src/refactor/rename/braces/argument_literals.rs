//! TypeScript: the object literals passed a parameter declared as the
//! renamed field's type (`add({ cents: 1 })` for `function add(item:
//! Item)`), whose keys are then the type's as surely as a declared
//! literal's. The parameters are the type's certain uses that annotate
//! one ([`language::es_arguments::parameter_typed_at`]), the calls their
//! function's certain uses — the index's resolution, as `Find Callers`
//! reads it, so a call it cannot resolve (`x.add(…)` with `x` untyped)
//! passes no proven literal.

use std::collections::BTreeMap;

use super::parsed::ParsedFiles;
use super::Target;
use crate::analysis::index::tags;
use crate::language::{self, es_arguments};
use crate::refactor::{Project, RefactorError};

/// The start chars of the object literals that calls pass parameters
/// declared as `target`'s class, by file.
pub(super) fn argument_literals(
    project: &Project<'_>,
    target: &Target,
    files: &mut ParsedFiles,
) -> Result<BTreeMap<String, Vec<usize>>, RefactorError> {
    let mut literals = BTreeMap::new();
    if !matches!(target.language.id(), "typescript" | "tsx") {
        return Ok(literals);
    }
    let suffix = format!(".{}", target.old);
    let Some(class) = target.full_name.strip_suffix(&suffix) else {
        return Ok(literals);
    };
    let index = project.index.tags();
    let root = project.index.root();
    let Ok(typed) = index.find_references(root, class, None) else {
        return Ok(literals);
    };
    let mut read = |path: &str| match language::language_of(path) {
        Some(language) if matches!(language.id(), "typescript" | "tsx") => {
            files.read(project, language, path).map(Some)
        }
        _ => Ok(None),
    };
    let mut parameters = Vec::new();
    for annotation in &typed.certain {
        let Some(file) = read(&annotation.path)? else {
            continue;
        };
        let text = &file.text;
        let Ok(at) = crate::edit::position::to_char(text, annotation.position) else {
            continue;
        };
        let Some(parameter) = es_arguments::parameter_typed_at(text, &file.tree, at) else {
            continue;
        };
        // (`Partial<Item>` is TypeScript's only where the project
        // defines no type of the name)
        if let Some(wrapper) = &parameter.wrapper {
            let defined = index.find_definition(root, wrapper, None);
            if defined.is_ok_and(|d| !d.is_empty()) {
                continue;
            }
        }
        let function = tags::full_name_of(
            &annotation.path,
            &parameter.callable,
            file.tree.root(),
            |bytes| text.byte_slice(bytes).to_string(),
        );
        parameters.extend(function.map(|f| (f, parameter)));
    }
    for (function, parameter) in parameters {
        let Ok(calls) = index.find_references(root, &function, None) else {
            continue;
        };
        for call in &calls.certain {
            let Some(file) = read(&call.path)? else {
                continue;
            };
            let Ok(at) = crate::edit::position::to_char(&file.text, call.position) else {
                continue;
            };
            let passed = es_arguments::argument_literals(&file.text, &file.tree, at, &parameter);
            if !passed.is_empty() {
                literals
                    .entry(call.path.clone())
                    .or_insert_with(Vec::new)
                    .extend(passed);
            }
        }
    }
    Ok(literals)
}
