//! The new names a brace rename refuses: no name the language allows
//! there (a constructor's, an entry point's), a supertype's (a trait
//! impl's method, an `@Override`), one the defining file, its package,
//! its lineage or a trait of its type binds, one a file of its uses
//! binds at module level, one a Go type related to the member's by
//! embedding has, and an unexported Go name used from another package.

use ropey::Rope;

use super::parsed::{self, head_before_name};
use super::{hierarchy, member_of, starts_upper, Parsed, Target};
use crate::analysis::index::tags::family::family_id;
use crate::analysis::index::tags::scan::ImportKind;
use crate::analysis::outline::{Outline, Symbol, SymbolKind};
use crate::language;
use crate::refactor::rename::Location;
use crate::refactor::{Argument, Project, RefactorError, RefactorFailure};

/// Java: a class named like a class around it (`Util.Inner` → `Util`)
/// is refused by the compiler whatever its uses ("is already defined").
fn refuse_enclosing_class_name(
    file: &Parsed,
    symbol: &Symbol,
    full_name: &str,
    new: &str,
) -> Result<(), RefactorError> {
    if file.language.id() != "java" || symbol.kind != SymbolKind::Class {
        return Ok(());
    }
    let mut parent = symbol.parent.map(|p| &file.outline.symbols[p]);
    while let Some(p) = parent {
        if p.kind == SymbolKind::Class && p.name == new {
            return Err(RefactorError::new(
                RefactorFailure::NameConflict,
                format!(
                    "Name conflict exists: {full_name} is nested in the class {}, and Java forbids a class named like a class around it; choose another name",
                    p.qualified_name
                ),
            )
            .at(Argument::NewName));
        }
        parent = p.parent.map(|q| &file.outline.symbols[q]);
    }
    Ok(())
}

/// The global types of TypeScript's own libraries (`lib.es*.d.ts`,
/// `lib.dom.d.ts`, `@types/node`) a project's declarations commonly
/// augment.
const LIB_GLOBAL_TYPES: &[&str] = &[
    "Array",
    "ArrayConstructor",
    "ArrayBuffer",
    "AsyncIterable",
    "AsyncIterator",
    "BigInt",
    "Boolean",
    "CSSStyleDeclaration",
    "Console",
    "CustomEvent",
    "Date",
    "DateConstructor",
    "Document",
    "DocumentEventMap",
    "Element",
    "Error",
    "ErrorConstructor",
    "Event",
    "EventTarget",
    "Function",
    "GlobalEventHandlers",
    "HTMLElement",
    "HTMLElementTagNameMap",
    "History",
    "ImportMeta",
    "ImportMetaEnv",
    "Iterable",
    "IterableIterator",
    "Iterator",
    "JSON",
    "KeyboardEvent",
    "Location",
    "Map",
    "MapConstructor",
    "Math",
    "MouseEvent",
    "Navigator",
    "Node",
    "NodeList",
    "Number",
    "NumberConstructor",
    "Object",
    "ObjectConstructor",
    "Performance",
    "Promise",
    "PromiseConstructor",
    "PromiseLike",
    "ReadonlyArray",
    "ReadonlyMap",
    "ReadonlySet",
    "RegExp",
    "Set",
    "SetConstructor",
    "Storage",
    "String",
    "StringConstructor",
    "Symbol",
    "SymbolConstructor",
    "WeakMap",
    "Window",
    "WindowEventMap",
    "Worker",
];

/// TypeScript: an interface declared in the global scope (a script's,
/// one in `declare global { … }`) under the name of a global type of
/// TypeScript's libraries (`Window`, `Array`, `ImportMeta`) merges with
/// it: renamed, the project's members would no longer be the global
/// type's (TS2339 at each use), so the rename is refused.
fn refuse_global_augmentation(
    file: &Parsed,
    symbol: &Symbol,
    full_name: &str,
) -> Result<(), RefactorError> {
    if !matches!(file.language.id(), "typescript" | "tsx")
        || symbol.kind != SymbolKind::Class
        || symbol.parent.is_some()
        || !LIB_GLOBAL_TYPES.contains(&symbol.name.as_str())
    {
        return Ok(());
    }
    let root = file.tree.root();
    let at = file.text.char_to_byte(symbol.definition.start);
    let mut node = root.descendant_for_byte_range(at, at);
    let mut in_declare_global = false;
    while let Some(n) = node {
        let text = &file.text;
        let head = |n: tree_sitter::Node<'_>| {
            let start = text.byte_to_char(n.start_byte());
            let end = text.byte_to_char(n.end_byte().min(n.start_byte() + 16));
            text.slice(start..end).to_string()
        };
        if n.kind() == "ambient_declaration" && head(n).starts_with("declare global") {
            in_declare_global = true;
        }
        node = n.parent();
    }
    let mut cursor = root.walk();
    let script = !root
        .named_children(&mut cursor)
        .any(|c| matches!(c.kind(), "import_statement" | "export_statement"));
    if !(in_declare_global || script) {
        return Ok(());
    }
    Err(RefactorError::new(
        RefactorFailure::Refused,
        format!(
            "Cannot rename {full_name}: it is declared in the global scope ({}), where it merges with TypeScript's own global type {}; renamed, its members would no longer be that type's",
            if in_declare_global { "in declare global" } else { "a script, with no import or export" },
            symbol.name,
        ),
    )
    .at(Argument::Symbol))
}

/// Refuses a new name that `target`'s definition cannot take.
pub(super) fn refuse(
    project: &Project<'_>,
    target: &Target,
    new: &str,
) -> Result<(), RefactorError> {
    let Target {
        def_file,
        symbol,
        full_name,
        class,
        ..
    } = target;
    let class = class.as_deref();
    refuse_supertypes(project, target)?;
    refuse_components_in_families(project, target)?;
    refuse_global_augmentation(def_file, symbol, full_name)?;
    refuse_enclosing_class_name(def_file, symbol, full_name, new)?;
    refuse_fixed_names(def_file, class, symbol, full_name, new)?;
    refuse_taken(def_file, class, symbol, new)?;
    if class.is_none() {
        refuse_commonjs_names(def_file, symbol, full_name, new)?;
    }
    refuse_imported_by_package(project, def_file, class, new)?;
    refuse_taken_beside(project, def_file, symbol, class, new)?;
    hierarchy::refuse_taken_in_hierarchy(project, def_file, symbol, new)?;
    refuse_taken_by_traits(project, def_file, symbol, class, new)?;
    super::go::refuse_taken_through_embedding(project, target, new)?;
    // each method renamed with it: its class must not have the new name
    for member in &target.family.members {
        if let Some((file, symbol)) = Parsed::of_definition(project, member)? {
            refuse_taken(
                &file,
                member_of(&file.outline, &symbol).as_deref(),
                &symbol,
                new,
            )?;
            hierarchy::refuse_taken_in_hierarchy(project, &file, &symbol, new)?;
        }
    }
    Ok(())
}

/// Go exports by the case of a name's first letter: refuses an
/// unexported new name for a symbol used from another package.
pub(super) fn refuse_unexported(
    target: &Target,
    proven: &[Location],
    new: &str,
) -> Result<(), RefactorError> {
    let Target {
        def_path,
        language,
        old,
        full_name,
        ..
    } = target;
    if language.id() != "go" || !starts_upper(old) || starts_upper(new) {
        return Ok(());
    }
    let package = def_path.rsplit_once('/').map_or("", |(d, _)| d);
    let outside = proven
        .iter()
        .find(|l| l.path.rsplit_once('/').map_or("", |(d, _)| d) != package);
    match outside {
        Some(site) => Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {full_name} to {new}: a Go name starting with a lower-case letter is not exported, and {site} uses it from another package; choose a name starting with an upper-case letter"
            ),
        )
        .at(Argument::NewName)),
        None => Ok(()),
    }
}

/// Refuses a member whose name is a supertype's: a Rust trait impl's
/// method, a Java `@Override` method.
fn refuse_supertypes(project: &Project<'_>, target: &Target) -> Result<(), RefactorError> {
    let Target {
        language,
        def_file: file,
        symbol,
        full_name,
        ..
    } = target;
    // (the trait's method in the project is of its family: renamed too)
    if let Some(via) = symbol
        .via_trait
        .as_ref()
        .filter(|_| target.family.members.is_empty())
    {
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {full_name}: it implements the trait {via}'s method, whose name it must keep; rename the trait's method"
            ),
        ));
    }
    // (a supertype's method in the project is of its family: renamed too)
    let overridden_here = || -> Result<bool, RefactorError> {
        let Some(class) = file.outline.parent(symbol) else {
            return Ok(false);
        };
        let ancestors = hierarchy::ancestors(project, file, class)?;
        Ok(target.family.members.iter().any(|member| {
            let owner = member.qualified_name.rsplit('.').nth(1);
            owner.is_some_and(|owner| ancestors.iter().any(|a| a == owner))
        }))
    };
    if language.id() == "java"
        && head_before_name(file, symbol).contains("@Override")
        && !overridden_here()?
    {
        return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot rename {full_name}: it overrides a method of a supertype (@Override), whose name it must keep; rename the supertype's method"
                ),
            ));
    }
    Ok(())
}

/// Refuses a Java record's component whose accessor implements a method
/// of the project renamed with it (`record Tag(int price) implements
/// Priced`), either way: renaming the component then asks the method's
/// family to follow, and renaming the method the component to follow —
/// its explicit canonical constructor's parameter with it, which a
/// rename of a family does not (yet) carry.
fn refuse_components_in_families(
    project: &Project<'_>,
    target: &Target,
) -> Result<(), RefactorError> {
    let Target {
        def_file,
        symbol,
        full_name,
        family,
        ..
    } = target;
    // (an explicit accessor, `int price()`, is the component's own face)
    let mut others = family
        .members
        .iter()
        .filter(|m| m.qualified_name != *full_name);
    if parsed::is_record_component(def_file, symbol) {
        if let Some(method) = others.next() {
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot rename {full_name}: its accessor {}() implements an interface's method, of one name with {}; renaming a record's component with the methods of an interface is not supported",
                    symbol.name, method.qualified_name
                ),
            ));
        }
        return Ok(());
    }
    for member in others {
        if let Some((file, theirs)) = Parsed::of_definition(project, member)? {
            if parsed::is_record_component(&file, &theirs) {
                return Err(RefactorError::new(
                    RefactorFailure::Refused,
                    format!(
                        "Cannot rename {full_name}: {}, a record's component, implements it with its accessor; renaming the methods of an interface with a record's component is not supported",
                        member.qualified_name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Refuses a rename the language's fixed names forbid: a constructor, an
/// entry point, Go's `init` and test functions
/// ([`language::rename::FixedName`]).
fn refuse_fixed_names(
    file: &Parsed,
    class: Option<&str>,
    symbol: &Symbol,
    full_name: &str,
    new: &str,
) -> Result<(), RefactorError> {
    use language::rename::FixedName;
    let fixed = FixedName::of(
        file.language,
        file.path.as_str(),
        &file.text,
        &file.outline,
        class,
        symbol,
        new,
    );
    let Some(fixed) = fixed else {
        return Ok(());
    };
    let at = match fixed {
        FixedName::JavaConstructor | FixedName::ScriptConstructor => Argument::Symbol,
        _ => Argument::NewName,
    };
    Err(RefactorError::new(
        RefactorFailure::Refused,
        fixed.refusal(full_name, class.unwrap_or_default(), new),
    )
    .at(at))
}

/// Refuses a new name the defining file (or, for a member, its type)
/// binds already.
fn refuse_taken(
    file: &Parsed,
    class: Option<&str>,
    renamed: &Symbol,
    new: &str,
) -> Result<(), RefactorError> {
    // (Java and Rust keep a type's fields and methods apart: `size` and
    // `size()` may both be; but a record's component is its accessor
    // too, whose name a method of the record may have)
    let component = parsed::is_record_component(file, renamed);
    let apart = |s: &Symbol| {
        !component && language::rename::kinds_apart(file.language, s.kind, renamed.kind)
    };
    let taken = file.outline.symbols.iter().find(|s| {
        s.name == new
            && !apart(s)
            && match class {
                Some(class) => member_of(&file.outline, s).as_deref() == Some(class),
                None => s.parent.is_none(),
            }
    });
    match taken {
        Some(s) => Err(name_conflict(file.path.as_str(), s)),
        None => Ok(()),
    }
}

/// `path` already defines `s`: the new name is taken.
fn name_conflict(path: &str, s: &Symbol) -> RefactorError {
    RefactorError::new(
        RefactorFailure::NameConflict,
        format!(
            "Name conflict exists: {path}:{} already defines {}; choose another name",
            s.name_position.line + 1,
            s.qualified_name,
        ),
    )
    .at(Argument::NewName)
}

/// Go: refuses a package-level new name an import binds in a file of
/// the package, or a dot import declares there.
fn refuse_imported_by_package(
    project: &Project<'_>,
    file: &Parsed,
    class: Option<&str>,
    new: &str,
) -> Result<(), RefactorError> {
    if file.language.id() != "go" || class.is_some() {
        return Ok(());
    }
    let package = package_clause(&file.text);
    let dir = file.path.as_str().rsplit_once('/').map_or("", |(d, _)| d);
    refuse_imported_in_package(project, file, package.as_deref(), dir, new)?;
    refuse_dot_imported(project, dir, new)
}

/// Refuses a new name another file declares in the namespace of the
/// renamed definition ([`taken_beside`]).
fn refuse_taken_beside(
    project: &Project<'_>,
    file: &Parsed,
    symbol: &Symbol,
    class: Option<&str>,
    new: &str,
) -> Result<(), RefactorError> {
    if symbol.via_trait.is_some() {
        return Ok(());
    }
    let declaring = Declaring {
        path: file.path.as_str(),
        language: file.language,
        text: &file.text,
        outline: &file.outline,
    };
    match taken_beside(project, &declaring, class, symbol.kind, new)? {
        Some((path, taken)) => Err(name_conflict(&path, &taken)),
        None => Ok(()),
    }
}

/// The file a definition is (or is to be) declared in, as it is then.
pub(crate) struct Declaring<'a> {
    pub path: &'a str,
    pub language: &'static dyn language::Language,
    pub text: &'a Rope,
    pub outline: &'a Outline,
}

/// Another file's definition of `name` in the namespace a definition of
/// that name in `file` would take (a member of `class`, else
/// module-level), where one namespace spans files: a Go package (its
/// files, and a type's methods and fields in any of them: `func (s
/// *Stack) Len` in `len.go`, `type Stack` in `stack.go`), a Rust type's
/// inherent `impl`s in any module of the crate (E0592), a Java package's
/// top-level classes ("duplicate class"). Go files that each carry a
/// build constraint may be exclusive variants of one another, and do
/// not meet. A Rust `impl` of a type its own module declares, beside
/// one of a type the defining module declares too, is another type's.
pub(crate) fn taken_beside(
    project: &Project<'_>,
    file: &Declaring<'_>,
    class: Option<&str>,
    kind: SymbolKind,
    name: &str,
) -> Result<Option<(String, Symbol)>, RefactorError> {
    let language = file.language;
    let declares_type = |outline: &Outline, class: &str| {
        outline
            .symbols
            .iter()
            .any(|s| s.parent.is_none() && s.kind == SymbolKind::Class && s.name == class)
    };
    let candidates: Vec<String> = match (language.id(), class) {
        ("go", _) => {
            let dir = file.path.rsplit_once('/').map_or("", |(d, _)| d);
            super::go::files_in(project, dir)
        }
        ("rust", Some(class)) if kind == SymbolKind::Method => project
            .index
            .tags()
            .files_with(family_id(language), &[name, class], false)
            .into_iter()
            .map(|e| e.path.as_str().to_string())
            .collect(),
        ("java", None) if kind == SymbolKind::Class => project
            .index
            .tags()
            .files_with(family_id(language), &[name], false)
            .into_iter()
            .map(|e| e.path.as_str().to_string())
            .collect(),
        _ => return Ok(None),
    };
    let package = package_clause(file.text);
    let constrained = |text: &Rope| {
        text.lines()
            .take_while(|l| !l.to_string().starts_with("package "))
            .any(|l| l.to_string().starts_with("//go:build "))
    };
    for path in candidates.iter().filter(|p| p.as_str() != file.path) {
        if language::language_of(path).map(|l| l.id()) != Some(language.id()) {
            continue;
        }
        let other = Parsed::read(project, language, path)?;
        let found =
            match (language.id(), class) {
                ("go", _) => {
                    if package_clause(&other.text) != package
                        || (constrained(file.text) && constrained(&other.text))
                    {
                        continue;
                    }
                    other.outline.symbols.iter().find(|s| {
                        let owner = member_of(&other.outline, s);
                        s.name == name
                            && s.kind != SymbolKind::Local
                            && match class {
                                Some(class) => owner.as_deref() == Some(class),
                                None => s.parent.is_none() && owner.is_none(),
                            }
                    })
                }
                ("rust", Some(class)) => {
                    if declares_type(&other.outline, class) && declares_type(file.outline, class) {
                        continue;
                    }
                    other.outline.symbols.iter().find(|s| {
                        s.name == name
                            && s.kind == SymbolKind::Method
                            && s.via_trait.is_none()
                            && member_of(&other.outline, s).as_deref() == Some(class)
                    })
                }
                _ => {
                    if package_clause(&other.text) != package {
                        continue;
                    }
                    other.outline.symbols.iter().find(|s| {
                        s.parent.is_none() && s.kind == SymbolKind::Class && s.name == name
                    })
                }
            };
        if let Some(s) = found {
            return Ok(Some((path.clone(), s.clone())));
        }
    }
    Ok(None)
}

/// Why inserting a definition at chars `element` of `path`'s new text
/// `after` would meet one another file declares in its namespace
/// ([`taken_beside`]); `None`: none does (or the files cannot be read).
pub(crate) fn inserted_taken_beside(
    project: &Project<'_>,
    path: &str,
    language: &'static dyn language::Language,
    after: &Rope,
    element: std::ops::Range<usize>,
) -> Option<String> {
    let tree = crate::analysis::SyntaxTree::parse_language(language, after).ok()?;
    let outline = language.symbol_sites()?(after, &tree);
    let new = outline
        .symbols
        .iter()
        .find(|s| s.kind != SymbolKind::Local && element.contains(&s.definition.start))?;
    if language.id() == "rust" {
        if let Some(why) =
            super::traits::inserted_foreign_to_trait(project, language, after, &tree, new)
        {
            return Some(why);
        }
    }
    if language.id() == "go" {
        if let Some(why) = undeclared_receiver(project, path, &outline, new) {
            return Some(why);
        }
    }
    // Java: a public top-level class is its file's, named as it is
    let stem = path
        .rsplit('/')
        .next()
        .and_then(|f| f.strip_suffix(".java"));
    if let Some(stem) = stem.filter(|stem| new.parent.is_none() && *stem != new.name) {
        if new.head(after).split_whitespace().any(|w| w == "public") {
            let dir = path
                .strip_suffix(&format!("{stem}.java"))
                .unwrap_or_default();
            return Some(format!(
                "{name} is public: javac wants a public top-level class in a file of its name, not in {stem}.java; write it in {dir}{name}.java (Open Create {dir}{name}.java), or without public",
                name = new.name,
            ));
        }
    }
    let class = member_of(&outline, new);
    let declaring = Declaring {
        path,
        language,
        text: after,
        outline: &outline,
    };
    let (other, taken) =
        taken_beside(project, &declaring, class.as_deref(), new.kind, &new.name).ok()??;
    let rule = match language.id() {
        "go" => "Go allows one definition of a name in a package, and one field or method of a name in a type, across the package's files",
        "rust" => "Rust allows one inherent method of a name in a type, across its impl blocks (E0592)",
        _ => "Java allows one top-level class of a name in a package (duplicate class)",
    };
    Some(format!(
        "'{}' is already defined ({} {} at {other}:{}): {rule}; choose another name, or edit the existing one",
        new.name,
        taken.kind.noun(),
        taken.qualified_name,
        taken.name_position.line + 1,
    ))
}

/// Go: why a new method's receiver type is none of the package's (`func
/// (q *Queue) Len()` where no file of it declares `Queue`: "undefined").
fn undeclared_receiver(
    project: &Project<'_>,
    path: &str,
    outline: &Outline,
    new: &Symbol,
) -> Option<String> {
    let (receiver, _) = new.qualified_name.rsplit_once('.')?;
    let declared_here = outline
        .symbols
        .iter()
        .any(|s| s.kind == SymbolKind::Class && s.parent.is_none() && s.name == receiver);
    if new.kind != SymbolKind::Method || declared_here {
        return None;
    }
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let tags = project.index.tags();
    let declared = super::go::files_in(project, dir).iter().any(|other| {
        other != path
            && tags.entry(other).is_some_and(|entry| {
                entry
                    .file()
                    .defs
                    .iter()
                    .any(|d| d.kind == SymbolKind::Class && d.top_level && d.name == receiver)
            })
    });
    (!declared).then(|| {
        format!(
            "no file of this package declares the type {receiver} (undefined: {receiver}); declare it first (Insert Class), or give the method a type of the package"
        )
    })
}

/// The package a Go or Java file says it is of.
fn package_clause(text: &Rope) -> Option<String> {
    text.lines().map(|l| l.to_string()).find_map(|l| {
        l.strip_prefix("package ")
            .map(|p| p.trim().trim_end_matches(';').trim().to_string())
    })
}

/// Go: a package-level name may not be one an import binds in any file
/// of its package (`strings already declared through import of package
/// strings`), whether or not that file uses it where the name is.
fn refuse_imported_in_package(
    project: &Project<'_>,
    file: &Parsed,
    package: Option<&str>,
    dir: &str,
    new: &str,
) -> Result<(), RefactorError> {
    for path in super::go::files_in(project, dir) {
        let scanned;
        let tags = match project.index.tags().entry(&path) {
            Some(entry) => entry.file(),
            None => {
                let text = Parsed::read(project, file.language, &path)?
                    .text
                    .to_string();
                scanned = crate::analysis::index::tags::scan::scan(file.language, &text);
                &scanned
            }
        };
        let binds = tags
            .imports
            .iter()
            .find(|i| i.local == new && i.kind == ImportKind::Static);
        let Some(import) = binds else {
            continue;
        };
        let same_package = || -> Result<bool, RefactorError> {
            if path == file.path.as_str() {
                return Ok(true);
            }
            let other = Parsed::read(project, file.language, &path)?;
            Ok(package_clause(&other.text).as_deref() == package)
        };
        if same_package()? {
            return Err(RefactorError::new(
                RefactorFailure::NameConflict,
                format!(
                    "Name conflict exists: {path} imports \"{}\" as {new}, and Go forbids a package-level name an import of a file of the package binds ({new} already declared through import); choose another name",
                    import.source
                ),
            )
            .at(Argument::NewName));
        }
    }
    Ok(())
}

/// Go: a dot import (`import . "m/a"`) declares the exported names of
/// its package in the importing file, so a package-level name may not
/// be one of them (`Sum already declared through dot-import of package
/// a`): neither the new name of a name of a package whose files
/// dot-import one declaring it, nor that of a package's name another
/// package dot-imports and declares itself.
fn refuse_dot_imported(project: &Project<'_>, dir: &str, new: &str) -> Result<(), RefactorError> {
    if !starts_upper(new) {
        return Ok(());
    }
    let tags = project.index.tags();
    let dir_of = |path: &str| path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    // an import path names a directory of the project by its end
    let names = |source: &str, dir: &str| {
        source == dir
            || (!dir.is_empty() && source.ends_with(&format!("/{dir}")))
            || (dir.is_empty() && !source.contains('.'))
    };
    let declaring: Vec<String> = tags
        .find_definition(project.index.root(), new, None)
        .unwrap_or_default()
        .iter()
        .filter(|d| d.location.path.ends_with(".go"))
        .filter(|d| !matches!(d.kind, SymbolKind::Method | SymbolKind::Attribute))
        .map(|d| d.location.path.clone())
        .collect();
    let conflict = |path: &str, source: &str, declared: &str, whose: &str| {
        RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: {path} dot-imports \"{source}\", and {whose} package declares {new} ({declared}): Go forbids a package-level name a dot import of a file of the package declares ({new} already declared through dot-import); choose another name"
            ),
        )
        .at(Argument::NewName)
    };
    for path in tags.paths().filter(|p| p.ends_with(".go")) {
        let Some(entry) = tags.entry(path) else {
            continue;
        };
        let dots = entry.file().imports.iter().filter(|i| {
            i.imported == crate::analysis::index::tags::scan::Imported::All
                && i.kind == ImportKind::Static
        });
        for import in dots {
            let importer = dir_of(path);
            // a file of the package dot-imports one declaring the new name
            if importer == dir {
                if let Some(declared) = declaring.iter().find(|d| names(&import.source, &dir_of(d)))
                {
                    return Err(conflict(path, &import.source, declared, "that"));
                }
            }
            // the package is dot-imported where the new name is declared
            if names(&import.source, dir) {
                if let Some(declared) = declaring.iter().find(|d| dir_of(d) == importer) {
                    return Err(conflict(path, &import.source, declared, "its own"));
                }
            }
        }
    }
    Ok(())
}

/// Rust: refuses an inherent method's new name that a project trait the
/// type implements declares: method calls reach the inherent method
/// first, so `p.baz()`, the trait's until then, would call the renamed
/// one.
fn refuse_taken_by_traits(
    project: &Project<'_>,
    file: &Parsed,
    symbol: &Symbol,
    class: Option<&str>,
    new: &str,
) -> Result<(), RefactorError> {
    let Some(class) = class else {
        return Ok(());
    };
    if file.language.id() != "rust"
        || symbol.kind != SymbolKind::Method
        || symbol.via_trait.is_some()
    {
        return Ok(());
    }
    let root = project.index.root();
    let tags = project.index.tags();
    let declared: Vec<_> = tags
        .find_definition(root, new, None)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.kind == SymbolKind::Method && d.location.path.ends_with(".rs"))
        .collect();
    if declared.is_empty() {
        return Ok(());
    }
    for entry in tags.files_with(family_id(file.language), &[class], false) {
        let other = Parsed::read(project, entry.language, &entry.path)?;
        for implemented in
            language::rename::rust_traits_implemented(&other.text, &other.tree, class)
        {
            let of_trait = format!("{implemented}.{new}");
            let taken = declared.iter().find(|d| {
                d.qualified_name == of_trait || d.qualified_name.ends_with(&format!(".{of_trait}"))
            });
            if let Some(taken) = taken {
                return Err(RefactorError::new(
                    RefactorFailure::NameConflict,
                    format!(
                        "Name conflict exists: {class} implements the trait {implemented}, whose method {new} ({}:{}) its calls reach: renamed, they would call the inherent method instead; choose another name",
                        taken.location.path,
                        taken.name_position.line + 1,
                    ),
                )
                .at(Argument::NewName));
            }
        }
    }
    Ok(())
}

/// The CommonJS names an ES rename refuses, read from one scan of the
/// defining file:
/// - the name a `require` binds (`const { f } = require('./a')`, `const
///   a = require('./a')`) as a symbol of its own: its uses are the
///   module's export, which a rename of the export renames; the file's
///   local name alone is `Modify … Rename`'s;
/// - a new name the file's exports already hold another value under
///   (`module.exports = { f, g: h }`: renaming `f` to `g` would make two
///   keys `g`, the second one winning).
fn refuse_commonjs_names(
    file: &Parsed,
    symbol: &Symbol,
    full_name: &str,
    new: &str,
) -> Result<(), RefactorError> {
    if family_id(file.language) != Some("es") {
        return Ok(());
    }
    let scan = crate::analysis::index::tags::scan::scan(file.language, &file.text.to_string());
    let required = scan.imports.iter().find(|i| {
        i.local == symbol.name
            && matches!(i.kind, ImportKind::Require | ImportKind::RequireReassigned)
    });
    if let Some(import) = required.filter(|_| symbol.kind != SymbolKind::Class) {
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {full_name}: it is the name require('{}') binds in {}; rename the module's export where it is defined, or the local name alone with Modify Variable {} Rename in that file",
                import.source,
                file.path.as_str(),
                symbol.name
            ),
        )
        .at(Argument::Symbol));
    }
    let taken = scan.commonjs.as_deref().is_some_and(|module| {
        module
            .keys
            .iter()
            .any(|(key, value)| key == new && value.as_deref() != Some(symbol.name.as_str()))
    });
    if taken {
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: {} already exports {new} (module.exports), which the renamed export would then meet; choose another name",
                file.path.as_str()
            ),
        )
        .at(Argument::NewName));
    }
    Ok(())
}

/// Refuses a file whose renamed uses would meet a module-level binding of
/// the new name there (a definition or an import).
pub(super) fn refuse_bound_in(file: &Parsed, path: &str, new: &str) -> Result<(), RefactorError> {
    let scan = crate::analysis::index::tags::scan::scan(file.language, &file.text.to_string());
    let defined = scan.defs.iter().find(|d| d.top_level && d.name == new);
    let imported = scan.imports.iter().any(|i| i.local == new);
    if defined.is_some() || imported {
        let line = defined.map(|d| format!(":{}", d.name_position.line + 1));
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: {path}{} already binds {new}, which the renamed uses there would then read; choose another name",
                line.unwrap_or_default()
            ),
        )
        .at(Argument::NewName));
    }
    Ok(())
}
