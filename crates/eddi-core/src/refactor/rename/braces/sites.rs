//! Where a brace rename writes: the sites the index proves and those it
//! cannot, gathered from each source a language has — the index's uses,
//! constructors and Go examples that spell the name, members of the name
//! elsewhere that may override or stand for it, names code outside the
//! project calls or reads, literal keys of a field, JavaScript's JSDoc
//! types, and Rust paths and variants the index does not resolve.

use std::collections::BTreeMap;

use super::argument_literals::argument_literals;
use super::parsed::ParsedFiles;
use super::{go, hierarchy, name_at, point, Parsed, Target};
use crate::analysis::index::query::{Definition, References};
use crate::analysis::index::tags::family::family_id;
use crate::analysis::index::tags::scan::{Import, Imported, Qualifier, TagRef};
use crate::analysis::index::{spells, tags};
use crate::analysis::outline::{Symbol, SymbolKind};
use crate::language;
use crate::refactor::rename::Location;
use crate::refactor::{Argument, Project, RefactorError, RefactorFailure, Unproven};

/// A field's (or a structural method's) keys in literals of its type, by
/// file: (start char, whether the key keeps its value's name).
pub(super) type Keys = BTreeMap<String, Vec<(usize, bool)>>;

/// Every site of a rename.
pub(super) struct Sites {
    /// The definitions and the uses the index proves.
    pub proven: Vec<Location>,
    /// The sites it cannot prove, each with why.
    pub possible: Vec<Unproven>,
    pub keys: Keys,
    /// A TypeScript parameter property's uses as its constructor's
    /// parameter: (start char, whether written as a shorthand).
    pub parameter_uses: Vec<(usize, bool)>,
}

/// Gathers every site of `target` from the index's `found` and what
/// each language adds.
/// `inherited` are possible uses the method's family proves (`super.m()`,
/// `this.m()` in a class of the family).
pub(super) fn collect(
    project: &Project<'_>,
    target: &Target,
    found: &References,
    inherited: &[Location],
    new: &str,
) -> Result<Sites, RefactorError> {
    let mut proven = proven(project, target, found)?;
    proven.extend(inherited.iter().cloned());
    let parameter_uses = parameter_uses(target, new)?;
    let mut possible: Vec<Unproven> = found
        .possible
        .iter()
        .filter(|site| !inherited.contains(site))
        .map(|site| Unproven {
            site: site.clone(),
            why: "the index cannot resolve it".to_string(),
        })
        .collect();
    possible.extend(members_of_the_name(project, target, found)?);
    possible.extend(called_by_name_outside(project, target, new));
    if target.language.id() == "go" {
        possible.extend(go::interfaces_it_would_satisfy(project, target, new)?);
    }
    possible.extend(overrides_outside(project, target)?);
    possible.extend(read_by_name(target));
    possible.extend(read_whole(project, target));
    possible.extend(declaration_twins(project, target));
    if target.language.id() == "go" && target.symbol.kind == SymbolKind::Class {
        possible.extend(go::embedded_uses(
            project,
            target.language,
            &target.old,
            &mut proven,
            &found.possible,
        )?);
    }
    proven.extend(scope_member_uses(project, target));
    if target.language.id() == "go" {
        proven.extend(build_variants(project, target, found));
    }
    let (documented, undecided) = super::jsdoc::type_sites(project, target, &proven)?;
    proven.extend(documented);
    possible.extend(undecided);
    let (linked, undecided) = super::javadoc::link_sites(project, target)?;
    proven.extend(linked);
    possible.extend(undecided);
    let (keys, unknown_keys) = literal_keys(project, target)?;
    possible.extend(unknown_keys);
    if target.language.id() == "rust" {
        possible.extend(rust_unresolved_paths(project, target, &proven, found)?);
        possible.extend(rust_bare_variants(project, target));
        possible.extend(rust_doc_tests(project, target)?);
    }
    Ok(Sites {
        proven,
        possible,
        keys,
        parameter_uses,
    })
}

/// TypeScript: a namespace's or an enum's member read bare in its body
/// (`export function f() { return k; }` in `namespace NS`, `B = A << 1`
/// in `enum Flags`), in each block of the name the defining file declares
/// (merged namespaces), where no scope around the use binds the name.
fn scope_member_uses(project: &Project<'_>, target: &Target) -> Vec<Location> {
    let (Some(class), true) = (
        target.class.as_deref(),
        matches!(target.language.id(), "typescript" | "tsx"),
    ) else {
        return Vec::new();
    };
    let Some(entry) = project.index.tags().entry(&target.def_path) else {
        return Vec::new();
    };
    let (file, text) = (&target.def_file, &target.def_file.text);
    let source = text.to_string();
    let mut bodies = Vec::new();
    let mut todo = vec![file.tree.root()];
    while let Some(node) = todo.pop() {
        let mut c = node.walk();
        todo.extend(node.named_children(&mut c));
        if !matches!(
            node.kind(),
            "internal_module" | "module" | "enum_declaration"
        ) {
            continue;
        }
        let named = node
            .child_by_field_name("name")
            .is_some_and(|n| source[n.byte_range()].rsplit('.').next() == Some(class));
        if let (true, Some(body)) = (named, node.child_by_field_name("body")) {
            let chars = |byte| crate::analysis::syntax::byte_to_char(text, byte);
            bodies.push(chars(body.start_byte())..chars(body.end_byte()));
        }
    }
    // (a namespace's `const k` is a binding of its body: a use reading
    // that binding is the member's)
    let at = crate::edit::position::to_char(text, target.symbol.name_position).ok();
    let own = entry
        .file()
        .locals
        .iter()
        .find(|l| Some(l.offset) == at)
        .map(|l| l.visible.clone());
    let reads_it = |r: &&TagRef| !r.shadowed || (own.is_some() && r.binding == own);
    entry
        .file()
        .refs_named(&target.old)
        .iter()
        .filter(|r| r.qualifier == Qualifier::None && r.import.is_none())
        .filter(reads_it)
        .filter(|r| bodies.iter().any(|b| b.contains(&r.offset)))
        .map(|r| name_at(&target.def_path, r.start, &target.old))
        .collect()
}

/// Go: the definitions of the name in the package's other files (its
/// variants for other build constraints: `//go:build slow` beside `!slow`),
/// and their own uses — one name to the package, whichever file builds.
fn build_variants(project: &Project<'_>, target: &Target, found: &References) -> Vec<Location> {
    let dir = |path: &str| path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let package = dir(&target.def_path);
    let root = project.index.root();
    let tags = project.index.tags();
    let known = |path: &str, at: crate::edit::Position| {
        found
            .definitions
            .iter()
            .any(|d| d.location.path == path && d.name_position == at)
    };
    let variants: Vec<Definition> = tags
        .find_definition(root, &target.full_name, None)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.qualified_name == target.full_name && dir(&d.location.path) == package)
        .filter(|d| !known(&d.location.path, d.name_position))
        .collect();
    let mut sites = Vec::new();
    for variant in variants {
        sites.push(name_at(
            &variant.location.path,
            variant.name_position,
            &target.old,
        ));
        let uses = tags
            .find_references(root, &variant.qualified_name, Some(&variant.location.path))
            .map(|r| r.certain)
            .unwrap_or_default();
        sites.extend(
            uses.iter()
                .map(|u| name_at(&u.path, u.position, &target.old)),
        );
    }
    sites
}

/// The definitions, the uses the index proves, and what spells the name
/// with them: a Java class's constructors, Go's example functions
/// (`ExampleWriter_WriteAll`: `go vet` checks the name they spell) and
/// `//go:linkname` directives.
fn proven(
    project: &Project<'_>,
    target: &Target,
    found: &References,
) -> Result<Vec<Location>, RefactorError> {
    let Target {
        def_path,
        language,
        def_file,
        symbol,
        old,
        class,
        ..
    } = target;
    let mut proven: Vec<Location> = found
        .definitions
        .iter()
        .map(|def| name_at(&def.location.path, def.name_position, old))
        .collect();
    if symbol.kind == SymbolKind::Class && language.id() == "java" {
        for s in &def_file.outline.symbols {
            let of_it = def_file.outline.parent(s).is_some_and(|p| p.name == *old);
            if s.name == *old && of_it && s.kind != SymbolKind::Class {
                proven.push(name_at(def_path, s.name_position, old));
            }
        }
    }
    if language.id() == "go" && class.is_none() {
        proven.extend(go::linknames(project, def_path, old)?);
    }
    if language.id() == "go" {
        let is_type = symbol.kind == SymbolKind::Class;
        proven.extend(go::examples(
            project,
            *language,
            def_path,
            class.as_deref(),
            is_type,
            old,
        )?);
    }
    proven.extend(found.certain.iter().cloned());
    if class.is_none() && family_id(*language) == Some("es") {
        proven.extend(augmentations(project, target)?);
    }
    Ok(proven)
}

/// A TypeScript parameter property's uses as its constructor's
/// parameter; refuses a new name the constructor binds.
fn parameter_uses(target: &Target, new: &str) -> Result<Vec<(usize, bool)>, RefactorError> {
    let Target {
        def_path,
        language,
        def_file,
        symbol,
        old,
        ..
    } = target;
    let (uses, bound_there) = language::rename::parameter_property_uses(
        *language,
        &def_file.text,
        &def_file.tree,
        symbol,
    );
    if bound_there.iter().any(|n| n == new) {
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!(
                "Name conflict exists: the constructor of {def_path}:{} binds {new}, where it reads the parameter {old}; choose another name",
                symbol.name_position.line + 1
            ),
        )
        .at(Argument::NewName));
    }
    Ok(uses)
}

/// A member: another type's member of the name may override it, be
/// overridden by it or stand for it in an interface the index does not
/// follow. Rust types inherit nothing, Go types only what they embed:
/// there only a trait's member (or an embedding) counts.
fn members_of_the_name(
    project: &Project<'_>,
    target: &Target,
    found: &References,
) -> Result<Vec<Unproven>, RefactorError> {
    let Target {
        language,
        old,
        full_name,
        class,
        ..
    } = target;
    // (an ES private name, `#count`, is its class's alone: no other
    // class's member of the name overrides it)
    if class.is_none() || old.starts_with('#') {
        return Ok(Vec::new());
    }
    let root = project.index.root();
    let others = project
        .index
        .tags()
        .find_definition(root, old, None)
        .unwrap_or_default();
    // a Go interface's method: any type's method of the name may
    // implement it (Go's interfaces are satisfied, not declared)
    let of_interface = language.id() == "go"
        && found
            .definitions
            .iter()
            .any(|d| declared_by_trait(project, d));
    let mut possible = Vec::new();
    for other in others {
        let own = found.definitions.iter().any(|d| {
            d.location.path == other.location.path && d.name_position == other.name_position
        });
        let member = matches!(other.kind, SymbolKind::Method | SymbolKind::Attribute);
        // (another language's type shares nothing with it)
        let kin = language::language_of(&other.location.path)
            .is_some_and(|l| family_id(l) == family_id(*language));
        if own || !member || !kin || other.qualified_name == *full_name {
            continue;
        }
        if language.id() == "rust" && !declared_by_trait(project, &other) {
            continue;
        }
        if language.id() == "go"
            && !of_interface
            && !declared_by_trait(project, &other)
            && !go::embeds_either(project, *language, class.as_deref(), &other)
        {
            continue;
        }
        // (Java, Rust: a field overrides nothing and implements no
        // trait, nor is a method's; a field and a method of one name are
        // apart)
        let field = target.symbol.kind == SymbolKind::Attribute;
        let apart = matches!(language.id(), "java" | "rust");
        if apart && (field || other.kind != target.symbol.kind) {
            continue;
        }
        if language.id() == "java" && !related_in_java(project, target, &other)? {
            continue;
        }
        let why = match of_interface {
            true => format!(
                "{} may implement the interface's method (a Go type satisfies an interface by its methods' names; its own uses are not renamed with it)",
                other.qualified_name
            ),
            false => format!(
                "{} has a member of the name, which may override it, be overridden by it or declare it for an interface",
                other.qualified_name
            ),
        };
        possible.push(Unproven {
            site: name_at(&other.location.path, other.name_position, old),
            why,
        });
        // a member renamed with it takes its own uses along: a Go
        // interface's method renamed with its implementation, its calls
        // through the interface (`l.Label()`); another class's member of
        // the name, its uses (`B.create()` with `B.create`)
        let takes_its_uses = match language.id() {
            "go" => !of_interface && declared_by_trait(project, &other),
            _ => true,
        };
        if takes_its_uses {
            let uses = project
                .index
                .tags()
                .find_references(root, &other.qualified_name, None)
                .map(|r| r.certain.into_iter().chain(r.possible).collect::<Vec<_>>())
                .unwrap_or_default();
            for site in uses {
                possible.push(Unproven {
                    site: name_at(&site.path, site.position, old),
                    why: format!("a use of {}, renamed with it", other.qualified_name),
                });
            }
        }
    }
    Ok(possible)
}

/// Java: whether another member of the name may be related to the
/// method — unless its family is known whole and the member's class is
/// none of its classes (Java's types are nominal: an unrelated class's
/// method overrides nothing of it).
fn related_in_java(
    project: &Project<'_>,
    target: &Target,
    other: &Definition,
) -> Result<bool, RefactorError> {
    let family = &target.family;
    if !family.complete || target.symbol.kind != SymbolKind::Method {
        return Ok(true);
    }
    let Some((file, member)) = Parsed::of_definition(project, other)? else {
        return Ok(true);
    };
    let class = file
        .outline
        .parent(&member)
        .filter(|p| p.kind == SymbolKind::Class);
    Ok(class.is_none_or(|class| {
        family
            .classes
            .contains(&(other.location.path.clone(), class.full.start))
    }))
}

/// A method code outside the project may call by its name, through an
/// interface it implements (`errors.Is` calls `Unwrap`); and one the new
/// name makes such a method (`Describe` renamed `String` makes the type
/// a `fmt.Stringer`, and `fmt` prints it otherwise).
fn called_by_name_outside(project: &Project<'_>, target: &Target, new: &str) -> Vec<Unproven> {
    let Target {
        def_path,
        language,
        def_file,
        symbol,
        old,
        full_name,
        class,
        ..
    } = target;
    let (Some(class), SymbolKind::Method) = (class, symbol.kind) else {
        return Vec::new();
    };
    let declaration = def_file
        .outline
        .symbols
        .iter()
        .find(|s| s.kind == SymbolKind::Class && s.name == *class)
        .map(|s| def_file.text.slice(s.definition.clone()).to_string())
        .unwrap_or_default();
    // (a Go type's methods may be declared in any file of its package)
    let prefix = full_name.rsplit_once('.').map_or("", |(p, _)| p);
    let tags = project.index.tags();
    let has = |method: &str| {
        tags.find_definition(project.index.root(), &format!("{class}.{method}"), None)
            .unwrap_or_default()
            .iter()
            .any(|d| d.qualified_name == format!("{prefix}.{method}"))
    };
    let mut possible = Vec::new();
    let site = name_at(def_path, symbol.name_position, old);
    if let Some(interface) = language::rename::external_interface(*language, old, has, &declaration)
    {
        possible.push(Unproven {
            site: site.clone(),
            why: format!("code outside the project may call it by its name, through {interface}"),
        });
    }
    let has_after = |method: &str| method != old.as_str() && (method == new || has(method));
    if let Some(interface) =
        language::rename::external_interface(*language, new, has_after, &declaration)
    {
        possible.push(Unproven {
            site,
            why: format!(
                "code outside the project calls the new name {new} through {interface}: renamed, the method changes what that code does"
            ),
        });
    }
    possible
}

/// Java, JavaScript, TypeScript: a class deriving from a type outside the
/// project may override that type's method of the name, which code there
/// calls by it (`Thread.run`) — the method's class, or a class of a method
/// renamed with it. Java's private and static methods override nothing.
fn overrides_outside(
    project: &Project<'_>,
    target: &Target,
) -> Result<Vec<Unproven>, RefactorError> {
    let mut possible = Vec::new();
    let mut check = |path: &str, file: &Parsed, method: &Symbol| -> Result<(), RefactorError> {
        let class = file
            .outline
            .parent(method)
            .filter(|p| p.kind == SymbolKind::Class);
        let Some(class) = class.filter(|_| super::overrides(file.language, file, method)) else {
            return Ok(());
        };
        if let Some(outside) = hierarchy::outside_supertype(project, file, class)? {
            possible.push(Unproven {
                site: name_at(path, method.name_position, &method.name),
                why: format!(
                    "{} derives from {outside}, outside the project, whose method of the name it may override (code there calls it by that name)",
                    class.name
                ),
            });
        }
        Ok(())
    };
    check(&target.def_path, &target.def_file, &target.symbol)?;
    for member in &target.family.members {
        if let Some((file, method)) = Parsed::of_definition(project, member)? {
            check(&member.location.path, &file, &method)?;
        }
    }
    Ok(possible)
}

/// A member code outside the project reads by its name, as its
/// declaration says (a serializer, an ORM, a template, generated
/// accessors).
fn read_by_name(target: &Target) -> Option<Unproven> {
    let Target {
        def_path,
        language,
        def_file,
        symbol,
        old,
        class,
        ..
    } = target;
    if class.is_none() || !matches!(symbol.kind, SymbolKind::Attribute | SymbolKind::Method) {
        return None;
    }
    let at = crate::edit::position::to_char(&def_file.text, symbol.name_position)
        .unwrap_or(symbol.definition.start);
    let why = language::read_by_name::read_by_name(*language, &def_file.text, &def_file.tree, at)?;
    Some(Unproven {
        site: name_at(def_path, symbol.name_position, old),
        why: format!("code outside the project may read it by its name: {why}"),
    })
}

/// Where the definition's module is read whole as a value (`import * as
/// formatters` passed on as `{ formatters }`): code there may read the
/// export by its name, which no use spells — a possible use of the
/// definition itself, saying where.
fn read_whole(project: &Project<'_>, target: &Target) -> Option<Unproven> {
    let Target {
        def_path,
        symbol,
        old,
        full_name,
        ..
    } = target;
    let escapes = (project.index.tags()).modules_read_whole(project.index.root(), full_name);
    let places: Vec<String> = escapes
        .iter()
        .map(|at| format!("{}:{}:{}", at.path, at.position.line, at.position.col))
        .collect();
    let shown = match places.len() {
        0 => return None,
        1..=3 => places.join(", "),
        n => format!("{} and {} more", places[..3].join(", "), n - 3),
    };
    Some(Unproven {
        site: name_at(def_path, symbol.name_position, old),
        why: format!(
            "its module is read whole as a value at {shown}, where code may read the export by its name"
        ),
    })
}

/// TypeScript: the declarations of the name in a module augmentation of
/// the target's module (`declare module './a' { interface Foo { … } }`),
/// which the compiler merges with the export: the same symbol.
fn augmentations(project: &Project<'_>, target: &Target) -> Result<Vec<Location>, RefactorError> {
    let Target {
        def_path,
        old,
        language,
        ..
    } = target;
    let stem_of = |path: &str| -> String {
        let path = path.trim_end_matches('/');
        let stem = es_stem(path).map_or(path, |(stem, _)| stem);
        stem.strip_suffix("/index").unwrap_or(stem).to_string()
    };
    let module = stem_of(def_path);
    let mut found = Vec::new();
    for (path, file_language) in files_spelling(project, *language, old)? {
        // (a file without an augmentation is not parsed)
        let text = project.source(&path)?.text;
        let source = text.to_string();
        if !source.contains("declare module") {
            continue;
        }
        let tree =
            crate::analysis::SyntaxTree::parse_language(file_language, &text).map_err(|e| {
                RefactorError::new(
                    RefactorFailure::InvalidArgument,
                    format!("{path} could not be parsed: {e}"),
                )
            })?;
        let mut todo = vec![tree.root()];
        while let Some(node) = todo.pop() {
            let mut c = node.walk();
            todo.extend(node.named_children(&mut c));
            let augmented = node.kind() == "module"
                && node
                    .parent()
                    .is_some_and(|p| p.kind() == "ambient_declaration");
            let Some(spec) = augmented
                .then(|| node.child_by_field_name("name"))
                .flatten()
                .filter(|n| n.kind() == "string")
            else {
                continue;
            };
            let spec = source[spec.byte_range()].trim_matches(['"', '\'', '`']);
            if !spec.starts_with('.') {
                continue;
            }
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            if stem_of(&normalized(dir, spec)) != module {
                continue;
            }
            let Some(body) = node.child_by_field_name("body") else {
                continue;
            };
            let mut c = body.walk();
            for statement in body.named_children(&mut c) {
                let declaration = match statement.kind() {
                    "export_statement" => statement.child_by_field_name("declaration"),
                    _ => Some(statement),
                };
                let name = declaration.and_then(|d| d.child_by_field_name("name"));
                if let Some(name) = name.filter(|n| &source[n.byte_range()] == old.as_str()) {
                    let at = crate::analysis::syntax::byte_to_char(&text, name.start_byte());
                    found.push(point(&text, &path, at, old));
                }
            }
        }
    }
    Ok(found)
}

/// An ES module's path without its extension (`lib/util` of
/// `lib/util.d.ts` or `lib/util.js`), and whether it is a declaration
/// file.
fn es_stem(path: &str) -> Option<(&str, bool)> {
    const DECLARATIONS: [&str; 3] = [".d.ts", ".d.mts", ".d.cts"];
    const CODE: [&str; 8] = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
    if let Some(stem) = DECLARATIONS.iter().find_map(|x| path.strip_suffix(x)) {
        return Some((stem, true));
    }
    CODE.iter()
        .find_map(|x| path.strip_suffix(x))
        .map(|stem| (stem, false))
}

/// `spec` (`./a`, `../b/c`) from the directory `dir`, as a project path.
fn normalized(dir: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// An ES module's code and its declaration file beside it (`util.js` and
/// `util.d.ts`) are one module to its importers, the one read at run
/// time, the other by the compiler: an export of the name in the other
/// file, and its uses, are possible sites (renamed alone, the two would
/// disagree, and an importer fail at run time or at compile time).
fn declaration_twins(project: &Project<'_>, target: &Target) -> Vec<Unproven> {
    let Target {
        def_path,
        old,
        class,
        language,
        ..
    } = target;
    if class.is_some() || family_id(*language) != Some("es") {
        return Vec::new();
    }
    let Some((stem, declaration)) = es_stem(def_path) else {
        return Vec::new();
    };
    let twins: Vec<String> = match declaration {
        true => [".js", ".mjs", ".cjs", ".jsx"]
            .iter()
            .map(|x| format!("{stem}{x}"))
            .collect(),
        false => [".d.ts", ".d.mts", ".d.cts"]
            .iter()
            .map(|x| format!("{stem}{x}"))
            .collect(),
    };
    let tags = project.index.tags();
    let root = project.index.root();
    let mut possible = Vec::new();
    for twin in twins.iter().filter(|t| tags.entry(t).is_some()) {
        let half = if declaration { "code" } else { "declarations" };
        let why = format!("{twin} holds the same module's {half}");
        let defined = tags
            .find_definition(root, old, Some(twin))
            .unwrap_or_default();
        for def in defined.iter().filter(|d| &d.location.path == twin) {
            possible.push(Unproven {
                site: name_at(twin, def.name_position, old),
                why: why.clone(),
            });
            let uses = tags
                .find_references(root, &def.qualified_name, Some(twin))
                .map(|r| r.certain.into_iter().chain(r.possible).collect::<Vec<_>>())
                .unwrap_or_default();
            possible.extend(uses.into_iter().map(|u| Unproven {
                site: name_at(&u.path, u.position, old),
                why: why.clone(),
            }));
        }
    }
    possible
}

/// A field: the keys of its type's struct literals, in every file of the
/// language's family that spells it; in JavaScript and TypeScript a
/// method's too (an object literal may be a value of the type). The keys
/// whose type the index cannot tell are possible.
fn literal_keys(
    project: &Project<'_>,
    target: &Target,
) -> Result<(Keys, Vec<Unproven>), RefactorError> {
    let Target {
        language,
        symbol,
        old,
        class,
        ..
    } = target;
    let mut keys = BTreeMap::new();
    let mut possible = Vec::new();
    let structural = matches!(language.id(), "javascript" | "typescript" | "tsx");
    let keyed =
        symbol.kind == SymbolKind::Attribute || (structural && symbol.kind == SymbolKind::Method);
    let (Some(class), true) = (class, keyed) else {
        return Ok((keys, possible));
    };
    let mut proven: BTreeMap<String, language::rename::Proven> = BTreeMap::new();
    if structural {
        let mut files = ParsedFiles::default();
        let tags = match symbol.kind == SymbolKind::Attribute {
            true => jsx_components(project, target, &mut files)?,
            false => BTreeMap::new(),
        };
        for (path, tags) in tags {
            proven.entry(path).or_default().jsx_tags = tags;
        }
        for (path, literals) in argument_literals(project, target, &mut files)? {
            proven.entry(path).or_default().literals = literals;
        }
    }
    // (the definition itself may be an object's key: a method of
    // `Owner.prototype = { m() {} }`, renamed as the definition)
    let definition = crate::edit::position::to_char(&target.def_file.text, symbol.name_position)
        .ok()
        .map(|at| (target.def_path.as_str(), at));
    // (Go and Rust: a literal of a type declared as the class, `type A =
    // P;`, has its keys too; possible, as the alias is matched by name)
    let aliases = match structural {
        true => Vec::new(),
        false => project.index.tags().aliases_of(family_id(*language), class),
    };
    for (path, language) in files_spelling(project, *language, old)? {
        let file = Parsed::read(project, language, &path)?;
        let no_values = language::rename::Proven::default();
        let values_of_the_type = proven.get(&path).unwrap_or(&no_values);
        for alias in &aliases {
            for name in names_in(project, &path, alias) {
                let (keys, unknown_keys) = language::rename::field_keys(
                    language, &file.text, &file.tree, name, old, &no_values,
                );
                let at = keys.iter().map(|&(at, _)| at).chain(unknown_keys);
                possible.extend(at.map(|at| Unproven {
                    site: point(&file.text, &path, at, old),
                    why: format!("a struct literal of {alias}, a type declared as a {class}"),
                }));
            }
        }
        let (mut found_keys, mut unknown) = (Vec::new(), Vec::new());
        for name in names_in(project, &path, class) {
            let (keys, unknown_keys) = language::rename::field_keys(
                language,
                &file.text,
                &file.tree,
                name,
                old,
                values_of_the_type,
            );
            found_keys.extend(keys);
            unknown.extend(unknown_keys);
        }
        let not_the_definition = |at: usize| definition != Some((path.as_str(), at));
        found_keys.retain(|&(at, _)| not_the_definition(at));
        unknown.retain(|&at| not_the_definition(at));
        for at in unknown {
            possible.push(Unproven {
                site: point(&file.text, &path, at, old),
                why: match structural {
                    true => language::rename::es_key_why(&file.text, &file.tree, at, class),
                    false => "a struct literal's key whose type the index cannot tell".to_string(),
                },
            });
        }
        if !found_keys.is_empty() {
            keys.insert(path, found_keys);
        }
    }
    Ok((keys, possible))
}

/// The names the file `path` writes the type `class` by
/// ([`crate::analysis::index::tags::scan::TagsFile::names_of`]).
fn names_in<'a>(project: &'a Project<'_>, path: &str, class: &'a str) -> Vec<&'a str> {
    match project.index.tags().entry(path) {
        Some(entry) => entry.file().names_of(class).collect(),
        None => vec![class],
    }
}

/// The JSX elements that pass their component props of the target's
/// type, by file: the char offsets of their tags' names. A component is
/// a function whose first parameter is declared as the type (`function
/// Tag({ label }: TagProps)`, `const Tag = (p: TagProps) => …`, the
/// annotation one of the type's certain uses); its certain uses that are
/// a JSX element's tag pass it props of the type, so their attributes
/// are the type's fields.
fn jsx_components(
    project: &Project<'_>,
    target: &Target,
    files: &mut ParsedFiles,
) -> Result<BTreeMap<String, Vec<usize>>, RefactorError> {
    let mut tags = BTreeMap::new();
    let suffix = format!(".{}", target.old);
    let Some(class) = target.full_name.strip_suffix(&suffix) else {
        return Ok(tags);
    };
    let index = project.index.tags();
    let root = project.index.root();
    let Ok(typed) = index.find_references(root, class, None) else {
        return Ok(tags);
    };
    let mut read = |path: &str| match language::language_of(path) {
        Some(language) => files.read(project, language, path).map(Some),
        None => Ok(None),
    };
    let mut components = Vec::new();
    for annotation in &typed.certain {
        let Some(file) = read(&annotation.path)? else {
            continue;
        };
        let text = &file.text;
        let at = crate::edit::position::to_char(text, annotation.position).ok();
        let component =
            at.and_then(|at| language::rename::es_component_of_props(text, &file.tree, at));
        let imports = || {
            index
                .entry(&annotation.path)
                .map(|e| e.file().imports.as_slice())
        };
        let component = component.filter(|c| match &c.generic {
            None => true,
            Some(generic) => imports().is_some_and(|i| is_reacts_function_component(i, generic)),
        });
        if let Some(component) = component {
            let full = tags::full_name_of(
                &annotation.path,
                &component.component,
                file.tree.root(),
                |bytes| text.byte_slice(bytes).to_string(),
            );
            components.extend(full);
        }
    }
    for component in components {
        let Ok(uses) = index.find_references(root, &component, None) else {
            continue;
        };
        for used in &uses.certain {
            let Some(file) = read(&used.path)? else {
                continue;
            };
            let Ok(at) = crate::edit::position::to_char(&file.text, used.position) else {
                continue;
            };
            if language::rename::is_jsx_tag(&file.text, &file.tree, at) {
                tags.entry(used.path.clone())
                    .or_insert_with(Vec::new)
                    .push(at);
            }
        }
    }
    Ok(tags)
}

/// Whether the generic `written` (`React.FC`, `FC`) is React's function
/// component type, as the file's `imports` bind it from `react`.
fn is_reacts_function_component(imports: &[Import], written: &str) -> bool {
    let component = |name: &str| matches!(name, "FC" | "FunctionComponent");
    let (binding, member) = match written.split_once('.') {
        Some((binding, member)) => (binding, Some(member)),
        None => (written, None),
    };
    imports.iter().any(|i| {
        i.source == "react"
            && i.local == binding
            && match (member, &i.imported) {
                (Some(member), Imported::Module | Imported::Default) => component(member),
                (None, Imported::Name(name)) => component(name),
                _ => false,
            }
    })
}

/// The files of `language`'s family whose text spells `word`, with their
/// languages, by path: also those whose scan keys no such name — an
/// object's key, a JSX attribute and a string key are no uses the scan
/// records, so the index's words would leave them out.
fn files_spelling(
    project: &Project<'_>,
    language: &'static dyn language::Language,
    word: &str,
) -> Result<Vec<(String, &'static dyn language::Language)>, RefactorError> {
    let tags = project.index.tags();
    let Some(family) = family_id(language) else {
        return Ok(Vec::new());
    };
    let mut spelling = Vec::new();
    for path in tags.family_paths(family).iter() {
        let Some(entry) = tags.entry(path) else {
            continue;
        };
        let text = project.source(path)?.text.to_string();
        if spells(&text, word) {
            spelling.push((path.to_string(), entry.language));
        }
    }
    Ok(spelling)
}

/// Rust: the name in a doc test's code (a fenced block of `///` or `//!`
/// comments, not marked as another language): `cargo test` compiles it,
/// and the index reads comments as prose.
fn rust_doc_tests(project: &Project<'_>, target: &Target) -> Result<Vec<Unproven>, RefactorError> {
    let mut possible = Vec::new();
    for (path, _) in files_spelling(project, target.language, &target.old)? {
        let text = project.source(&path)?.text.to_string();
        // in a fenced block: whether of Rust
        let mut fence: Option<bool> = None;
        for (line, written) in text.lines().enumerate() {
            let trimmed = written.trim_start();
            let Some(doc) = trimmed
                .strip_prefix("///")
                .or_else(|| trimmed.strip_prefix("//!"))
            else {
                fence = None;
                continue;
            };
            if let Some(info) = doc.trim_start().strip_prefix("```") {
                // (` ```text `, ` ```json `: no Rust; ` ```no_run `,
                // ` ```rust,ignore `: Rust)
                fence = match fence {
                    Some(_) => None,
                    None => Some(is_rust_fence(info)),
                };
                continue;
            }
            if fence != Some(true) {
                continue;
            }
            let code_at = written.len() - doc.len();
            for (at, _) in doc.match_indices(target.old.as_str()) {
                let word = |c: char| c.is_alphanumeric() || c == '_';
                let before = doc[..at].chars().next_back();
                let after = doc[at + target.old.len()..].chars().next();
                if before.is_some_and(word) || after.is_some_and(word) {
                    continue;
                }
                let col = written[..code_at + at].chars().count();
                let start = crate::edit::Position::new(line, col);
                let end = crate::edit::Position::new(line, col + target.old.chars().count());
                possible.push(Unproven {
                    site: Location {
                        path: path.clone(),
                        position: start,
                        end,
                    },
                    why: "in a doc test's code, which cargo test compiles".to_string(),
                });
            }
        }
    }
    Ok(possible)
}

/// Whether a doc comment's fence (its info string after ` ``` `) opens
/// Rust code: none, or only rustdoc's attributes (`rust`, `no_run`,
/// `ignore`, `should_panic`, `compile_fail`, `edition2021`, …).
fn is_rust_fence(info: &str) -> bool {
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|a| !a.is_empty())
        .all(|a| {
            matches!(
                a,
                "rust" | "no_run" | "ignore" | "should_panic" | "compile_fail" | "test_harness"
            ) || a.starts_with("edition")
                || a.starts_with("ignore-")
        })
}

/// Rust: a path to the name the index does not resolve (a module
/// `#[path]` moved) may be a use it missed; a function's name is never a
/// path's prefix (`crate::rank::TABLE` names a module `rank`).
fn rust_unresolved_paths(
    project: &Project<'_>,
    target: &Target,
    proven: &[Location],
    found: &References,
) -> Result<Vec<Unproven>, RefactorError> {
    let Target {
        language,
        symbol,
        old,
        ..
    } = target;
    let known = |path: &str, at: crate::edit::Position| {
        proven
            .iter()
            .chain(found.possible.iter())
            .any(|l| l.path == path && l.position == at)
    };
    let mut possible = Vec::new();
    let tags = project.index.tags();
    for entry in tags.files_with(family_id(*language), &[old.as_str()], false) {
        for r in &entry.file().refs {
            let relative = matches!(&r.qualifier, Qualifier::Path(p)
                if p.first().is_some_and(|q| matches!(q.as_str(), "super" | "self" | "crate")));
            if r.name != *old || !relative || known(&entry.path, r.start) {
                continue;
            }
            if symbol.kind == SymbolKind::Function {
                let text = &project.source(&entry.path)?.text;
                let after = r.offset + old.chars().count();
                let next: String = text.chars_at(after.min(text.len_chars())).take(3).collect();
                if next.starts_with("::") && next != "::<" {
                    continue;
                }
            }
            possible.push(Unproven {
                site: name_at(&entry.path, r.start, old),
                why: "a path the index does not resolve, which may name it".to_string(),
            });
        }
    }
    Ok(possible)
}

/// Rust: an enum's variant named bare, as `use Shape::*` or `use
/// Shape::Dot` brings it in (the index reads a bare name as no member's).
fn rust_bare_variants(project: &Project<'_>, target: &Target) -> Vec<Unproven> {
    let Target {
        language,
        def_file,
        symbol,
        old,
        ..
    } = target;
    let variant = symbol.kind == SymbolKind::Attribute
        && language::rename::is_rust_variant(&def_file.text, &def_file.tree, symbol.name_position);
    if !variant {
        return Vec::new();
    }
    let mut possible = Vec::new();
    let tags = project.index.tags();
    for entry in tags.files_with(family_id(*language), &[old.as_str()], false) {
        let file = entry.file();
        let brings = file.imports.iter().any(|i| match &i.imported {
            Imported::All => true,
            Imported::Name(n) => n == old,
            _ => false,
        });
        if !brings {
            continue;
        }
        for r in file.refs.iter().filter(|r| r.name == *old) {
            let bare = r.qualifier == Qualifier::None && !r.shadowed && r.import.is_none();
            if bare {
                possible.push(Unproven {
                    site: name_at(&entry.path, r.start, old),
                    why: "a bare name a `use` of the enum's variants may bring in".to_string(),
                });
            }
        }
    }
    possible
}

/// Rust: whether a member is a trait's (declared in a `trait`, or in an
/// `impl Trait for T` block): a type implementing the trait may reach it
/// by the same name, where another type's own member never matters. The
/// index's scan says so of each definition ([`TagDef::trait_member`]); a
/// definition it no longer has may be.
///
/// [`TagDef::trait_member`]: crate::analysis::index::tags::scan::TagDef::trait_member
fn declared_by_trait(project: &Project<'_>, member: &crate::analysis::index::Definition) -> bool {
    let tags = project.index.tags();
    let Some(entry) = tags.entry(&member.location.path) else {
        return true;
    };
    entry
        .file()
        .defs
        .iter()
        .find(|d| d.name_position == member.name_position)
        .is_none_or(|d| d.trait_member)
}
