//! Java's, JavaScript's and TypeScript's class hierarchies in a brace
//! rename: the project classes a class derives from (and the first
//! supertype outside the project), and the new names a class of the
//! lineage already has.

use super::parsed::{is_record_component, ParsedFiles};
use super::Parsed;
use crate::analysis::index::query::Definition;
use crate::analysis::index::tags::family::family_id;
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::language;
use crate::refactor::{Argument, Project, RefactorError, RefactorFailure};

/// The first supertype outside the project that `class` (of `file`)
/// derives from, through the project's classes it extends or implements:
/// its name as written, or the expression a JavaScript class extends
/// (`mixin(Base)`).
pub(super) fn outside_supertype(
    project: &Project<'_>,
    file: &Parsed,
    class: &Symbol,
) -> Result<Option<String>, RefactorError> {
    lineage(
        project,
        &mut ParsedFiles::default(),
        file,
        class,
        &mut Vec::new(),
        &mut Vec::new(),
    )
}

/// The names of the project's classes `class` derives from.
pub(super) fn ancestors(
    project: &Project<'_>,
    file: &Parsed,
    class: &Symbol,
) -> Result<Vec<String>, RefactorError> {
    let mut names = Vec::new();
    let mut files = ParsedFiles::default();
    let seen = &mut Vec::new();
    lineage(project, &mut files, file, class, seen, &mut names)?;
    Ok(names)
}

/// Follows `class`'s supertypes through the project's classes: pushes
/// each project class it derives from onto `names` (by name) and answers
/// the first supertype outside the project (see [`outside_supertype`]).
/// `seen` holds the classes already followed (a cycle of invalid code
/// ends there).
fn lineage(
    project: &Project<'_>,
    files: &mut ParsedFiles,
    file: &Parsed,
    class: &Symbol,
    seen: &mut Vec<(String, usize)>,
    names: &mut Vec<String>,
) -> Result<Option<String>, RefactorError> {
    const DEEPEST: usize = 16;
    if seen.len() > DEEPEST || seen.contains(&(file.path.to_string(), class.full.start)) {
        return Ok(None);
    }
    seen.push((file.path.to_string(), class.full.start));
    let root = project.index.root();
    let tags = project.index.tags();
    let mut outside = None;
    for supertype in language::rename::supertypes(&file.text, &file.tree, class.definition.clone())
    {
        let name = match supertype {
            language::rename::Supertype::Named(name) => name,
            language::rename::Supertype::Expression(text) => {
                outside.get_or_insert(text);
                continue;
            }
        };
        let last = name.rsplit('.').next().unwrap_or(&name).to_string();
        let family = family_id(file.language);
        let found: Vec<_> = tags
            .find_definition(root, &last, None)
            .unwrap_or_default()
            .into_iter()
            .filter(|d| d.kind == SymbolKind::Class)
            .filter(|d| {
                language::language_of(&d.location.path).is_some_and(|l| family_id(l) == family)
            })
            .collect();
        if found.is_empty() {
            if !java_methodless(file, &name) {
                outside.get_or_insert(name);
            }
            continue;
        }
        names.push(last);
        for definition in found {
            let Some(language) = language::language_of(&definition.location.path) else {
                continue;
            };
            let other = files.read(project, language, &definition.location.path)?;
            let declared = other.outline.symbols.iter().find(|s| {
                s.kind == SymbolKind::Class && s.name_position == definition.name_position
            });
            if let Some(declared) = declared {
                let further = lineage(project, files, &other, declared, seen, names)?;
                if let Some(further) = further {
                    outside.get_or_insert(further);
                }
            }
        }
    }
    Ok(outside)
}

/// Java, JavaScript, TypeScript: refuses a member's new name that a class
/// of its lineage has (one it derives from, or one deriving from it): one
/// method would then override the other (`A.foo` renamed `baz` where `B
/// extends A` has `baz`: `new B().bar()` then calls `B.baz`).
pub(super) fn refuse_taken_in_hierarchy(
    project: &Project<'_>,
    file: &Parsed,
    symbol: &Symbol,
    new: &str,
) -> Result<(), RefactorError> {
    if !matches!(
        file.language.id(),
        "java" | "javascript" | "typescript" | "tsx"
    ) || !matches!(symbol.kind, SymbolKind::Method | SymbolKind::Attribute)
    {
        return Ok(());
    }
    let Some(class) = file
        .outline
        .parent(symbol)
        .filter(|p| p.kind == SymbolKind::Class)
    else {
        return Ok(());
    };
    let root = project.index.root();
    let family = family_id(file.language);
    let others: Vec<_> = project
        .index
        .tags()
        .find_definition(root, new, None)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| matches!(d.kind, SymbolKind::Method | SymbolKind::Attribute))
        .filter(|d| language::language_of(&d.location.path).is_some_and(|l| family_id(l) == family))
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    let mut ancestors = Vec::new();
    let mut files = ParsedFiles::default();
    let seen = &mut Vec::new();
    lineage(project, &mut files, file, class, seen, &mut ancestors)?;
    for other in others {
        let Some((other_file, member)) = Parsed::of_definition(project, &other)? else {
            continue;
        };
        let member = &member;
        let Some(owner) = other_file
            .outline
            .parent(member)
            .filter(|p| p.kind == SymbolKind::Class)
        else {
            continue;
        };
        if owner.name == class.name {
            continue; // its own class: refuse_taken's
        }
        let related = ancestors.contains(&owner.name) || {
            let mut theirs = Vec::new();
            let seen = &mut Vec::new();
            lineage(project, &mut files, &other_file, owner, seen, &mut theirs)?;
            theirs.contains(&class.name)
        };
        if related {
            return Err(RefactorError::new(
                RefactorFailure::NameConflict,
                format!(
                    "Name conflict exists: {}:{} already defines {} in the lineage of {}: renamed, one method would override the other; choose another name",
                    other.location.path,
                    member.name_position.line + 1,
                    member.qualified_name,
                    class.name,
                ),
            )
            .at(Argument::NewName));
        }
    }
    Ok(())
}

/// The methods renamed together, and the classes they were looked for in.
#[derive(Default)]
pub(super) struct Family {
    /// Each method of the family but the one asked for, as the index
    /// defines it.
    pub members: Vec<Definition>,
    /// The classes related to the method's class (it included): path and
    /// the class's start (chars).
    pub classes: Vec<(String, usize)>,
    /// Whether `classes` are every class related to it: then a class
    /// outside them shares nothing with it (in Java, whose types are
    /// nominal).
    pub complete: bool,
}

/// A method's family: the project's methods of its name in the classes
/// related to its class through `extends` and `implements`, up and down
/// (`A.foo`, `B extends A`'s `foo`, an interface's `foo` and each
/// implementation's). One overrides another, so they keep one name: a
/// rename renames them together. Each member as the index defines it
/// (its full name asks for its uses); the method itself is none of them.
/// `None` when the classes related are more than a rename should follow
/// (its members of the name then stay possible sites).
pub(super) fn family(
    project: &Project<'_>,
    file: &Parsed,
    method: &Symbol,
) -> Result<Option<Family>, RefactorError> {
    /// Related classes followed at most.
    const MOST: usize = 64;
    let Some(class) = file
        .outline
        .parent(method)
        .filter(|p| p.kind == SymbolKind::Class)
    else {
        return Ok(Some(Family::default()));
    };
    let root = project.index.root();
    let tags = project.index.tags();
    let kin = family_id(file.language);
    let origin = (file.path.to_string(), class.full.start);
    let origin_name = class.name.clone();
    let mut seen: Vec<(String, usize)> = vec![origin.clone()];
    // the classes below the method's class (deriving from it, or from
    // one below it)
    let mut below: Vec<(String, usize)> = Vec::new();
    let mut queue: Vec<(String, Symbol)> = vec![(file.path.to_string(), class.clone())];
    let mut members: Vec<(String, crate::edit::Position)> = Vec::new();
    let mut files = ParsedFiles::default();
    while let Some((path, class)) = queue.pop() {
        let Some(language) = language::language_of(&path) else {
            continue;
        };
        let here = files.read(project, language, &path)?;
        // its method of the name (a record's component is its accessor)
        let own = here.outline.symbols.iter().find(|s| {
            s.name == method.name
                && (s.kind == SymbolKind::Method || is_record_component(&here, s))
                && here.outline.parent(s).is_some_and(|p| p.full == class.full)
        });
        if let Some(own) =
            own.filter(|s| (path.as_str(), s.full.start) != (file.path.as_str(), method.full.start))
        {
            members.push((path.clone(), own.name_position));
        }
        let mut related: Vec<(String, Symbol)> = Vec::new();
        // Java: a concrete class of the family without its own method of
        // the name, which a type from outside the project it extends or
        // implements may give it (`MyList extends ArrayList<String>
        // implements Sized`: `size` is `ArrayList`'s, and keeps its name)
        let concrete = || {
            let name_at = crate::edit::position::to_char(&here.text, class.name_position)
                .unwrap_or(class.definition.start);
            let head = (here.text)
                .slice(class.definition.start..name_at.max(class.definition.start))
                .to_string();
            !head.contains("abstract") && !head.contains("interface")
        };
        let here_key = (path.clone(), class.full.start);
        let down_from_here = here_key == origin || below.contains(&here_key);
        let inherits_outside = here.language.id() == "java"
            && own.is_none()
            && below.contains(&here_key)
            && concrete();
        // up: the project's classes it names after `extends`/`implements`
        for supertype in
            language::rename::supertypes(&here.text, &here.tree, class.definition.clone())
        {
            let language::rename::Supertype::Named(name) = supertype else {
                continue;
            };
            let last = name.rsplit('.').next().unwrap_or(&name).to_string();
            let definitions = tags.find_definition(root, &last, None).unwrap_or_default();
            if inherits_outside && definitions.is_empty() {
                return Err(RefactorError::new(
                    RefactorFailure::Refused,
                    format!(
                        "Cannot rename {}.{}: {} declares no {} of its own and may take it from {name}, a type outside the project, whose method keeps its name; give {} its own method first",
                        origin_name,
                        method.name,
                        class.name,
                        method.name,
                        class.name,
                    ),
                ));
            }
            for definition in definitions {
                related.extend(class_at(project, &mut files, kin, &definition)?);
            }
        }
        // down: the classes that name it so, and Java's anonymous bodies
        // (`new A() { … }`, an enum constant's) that override it
        for entry in tags.files_with(kin, &[class.name.as_str()], false) {
            let other = files.read(project, entry.language, &entry.path)?;
            if entry.language.id() == "java" {
                // (an anonymous body in a static or instance initializer
                // is read as the class's own method: its syntax tells)
                let anonymous = other.outline.symbols.iter().filter(|s| {
                    s.name == method.name
                        && language::rename::java_anonymous_base(
                            &other.text,
                            &other.tree,
                            s.name_position,
                        )
                        .is_some_and(|base| base == class.name)
                });
                members.extend(anonymous.map(|s| (entry.path.clone(), s.name_position)));
            }
            for s in other
                .outline
                .symbols
                .iter()
                .filter(|s| s.kind == SymbolKind::Class)
            {
                let derives =
                    language::rename::supertypes(&other.text, &other.tree, s.definition.clone())
                        .iter()
                        .any(|t| {
                            matches!(t, language::rename::Supertype::Named(n)
                        if n.rsplit('.').next() == Some(class.name.as_str()))
                        });
                if derives {
                    if down_from_here {
                        below.push((entry.path.clone(), s.full.start));
                    }
                    related.push((entry.path.clone(), s.clone()));
                }
            }
        }
        for (path, class) in related {
            let key = (path.clone(), class.full.start);
            if !seen.contains(&key) {
                if seen.len() >= MOST {
                    return Ok(None);
                }
                seen.push(key);
                queue.push((path, class));
            }
        }
    }
    // each member as the index defines it
    let mut found = Vec::new();
    for (path, at) in members {
        let definition = tags
            .find_definition(root, &method.name, None)
            .unwrap_or_default()
            .into_iter()
            .find(|d| d.location.path == path && d.name_position == at);
        match definition {
            Some(d) => found.push(d),
            None => return Ok(None),
        }
    }
    Ok(Some(Family {
        members: found,
        classes: seen,
        complete: true,
    }))
}

/// The class an index definition names, in a file of the language family
/// `kin`: its path and its symbol there.
fn class_at(
    project: &Project<'_>,
    files: &mut ParsedFiles,
    kin: Option<&str>,
    definition: &Definition,
) -> Result<Option<(String, Symbol)>, RefactorError> {
    let path = &definition.location.path;
    let language = language::language_of(path).filter(|l| family_id(*l) == kin);
    let (Some(language), SymbolKind::Class) = (language, definition.kind) else {
        return Ok(None);
    };
    let file = files.read(project, language, path)?;
    let class = file
        .outline
        .symbols
        .iter()
        .find(|s| s.kind == SymbolKind::Class && s.name_position == definition.name_position)
        .cloned();
    Ok(class.map(|c| (path.clone(), c)))
}

/// Java's interfaces outside any project that declare no method
/// (`java.io.Serializable`, `java.lang.Cloneable`, …), by their packages:
/// a class deriving from one overrides nothing of it. (What serialization
/// calls by name, `readObject` and the like, whatever the class derives
/// from, is `language::rename::external_interface`'s.)
const JAVA_METHODLESS: &[(&str, &str)] = &[
    ("java.io", "Serializable"),
    ("java.lang", "Cloneable"),
    ("java.util", "RandomAccess"),
    ("java.util", "EventListener"),
    ("java.rmi", "Remote"),
];

/// Whether the supertype `name`, as `file` (Java) writes it, is one of
/// [`JAVA_METHODLESS`] (the project declares no class of its name, as
/// its caller found): written whole, or by its simple name where the
/// file's imports make it that interface — a single-type import of it; or
/// no single-type import of another of the name, and the file's package,
/// an on-demand import or `java.lang`'s implicit one is its package.
fn java_methodless(file: &Parsed, name: &str) -> bool {
    if file.language.id() != "java" {
        return false;
    }
    if let Some((package, simple)) = name.rsplit_once('.') {
        return JAVA_METHODLESS.contains(&(package, simple));
    }
    let Some(&(package, _)) = JAVA_METHODLESS.iter().find(|(_, n)| *n == name) else {
        return false;
    };
    let text = file.text.to_string();
    let mut imported = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let statement = |keyword: &str| {
            line.strip_prefix(keyword)
                .filter(|rest| rest.starts_with(char::is_whitespace))
                .and_then(|rest| rest.trim().strip_suffix(';'))
                .map(|written| written.split_whitespace().collect::<String>())
        };
        if let Some(written) = statement("package") {
            imported.push(format!("package {written}"));
        } else if let Some(written) = statement("import") {
            imported.push(written);
        }
    }
    let whole = format!("{package}.{name}");
    if imported.contains(&whole) {
        return true;
    }
    let another = imported.iter().any(|i| {
        i.rsplit_once('.').is_some_and(|(_, last)| last == name) && !i.starts_with("package ")
    });
    !another
        && (package == "java.lang"
            || imported.contains(&format!("{package}.*"))
            || imported.contains(&format!("package {package}")))
}
