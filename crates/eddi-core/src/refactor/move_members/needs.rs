//! What moved code needs where it lands: the module-level names it reads
//! (the same binding in the target module, or an import that brings it,
//! in the module's style), and what cannot move as text — a name of the
//! source class's body read at definition, a name mangled by the class
//! (`self.__x`), `super(C, self)`.

use std::collections::BTreeMap;
use std::ops::Range;

use tree_sitter::Node;

use crate::analysis::index::file::FileIndex;
use crate::analysis::index::resolve::Res;
use crate::analysis::index::FileId;
use crate::analysis::scope::{BindingKind, Resolution, ScopeKind};
use crate::change::Indel;
use crate::refactor::imports;
use crate::refactor::{Parsed, Project};

/// Why code cannot move: the reason alone, which each refactoring words
/// as its own refusal (`Cannot move members - …`, `Cannot merge classes
/// - …`).
#[derive(Debug)]
pub(in crate::refactor) struct Why(pub String);

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn refused(why: impl std::fmt::Display) -> Why {
    Why(why.to_string())
}

/// The chars of a class's own scope in `file`.
pub(in crate::refactor) fn class_scope(file: &Parsed, class: Node<'_>) -> Option<usize> {
    let range = file.chars(class);
    file.scopes().scopes.iter().rposition(|s| {
        s.kind == ScopeKind::Class && s.range.start <= range.start && s.range.end >= range.end
    })
}

/// Refuses what cannot move as text: a name mangled by the class, an
/// explicit `super(C, obj)`, and a name of the class body (not moved with
/// it) that the statements read.
pub(in crate::refactor) fn check_movable(
    file: &Parsed,
    class: Node<'_>,
    statements: &[Node<'_>],
    moved: &[String],
) -> Result<(), Why> {
    for statement in statements {
        let mut stack = vec![*statement];
        while let Some(n) = stack.pop() {
            if n.kind() == "identifier" {
                let name = file.node_text(n);
                if name.starts_with("__") && !name.ends_with("__") {
                    return Err(refused(format!(
                        "{name} at {} is mangled with the class's name (_Class{name}): in another class it would name another attribute",
                        file.place(n)
                    )));
                }
            }
            if n.kind() == "call"
                && n.child_by_field_name("function")
                    .is_some_and(|f| f.kind() == "identifier" && file.node_text(f) == "super")
                && n.child_by_field_name("arguments")
                    .is_some_and(|a| a.named_child_count() > 0)
            {
                return Err(refused(format!(
                    "{} at {} names its class: write super() first",
                    file.node_text(n),
                    file.place(n)
                )));
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    let Some(scope) = class_scope(file, class) else {
        return Ok(());
    };
    let ranges: Vec<Range<usize>> = statements.iter().map(|s| file.chars(*s)).collect();
    if let Some(r) = file.scopes().references.iter().find(|r| {
        r.resolution == Resolution::Scope(scope)
            && !moved.contains(&r.name)
            && ranges
                .iter()
                .any(|x| x.start <= r.range.start && r.range.end <= x.end)
    }) {
        return Err(refused(format!(
            "{} at {} is a name of the class body, read where the member is defined: move it too",
            r.name,
            file.position(r.range.start)
        )));
    }
    Ok(())
}

/// Refuses when the class body, outside the moved statements, reads one
/// of them where it is defined (`double = rate * 2`).
pub(super) fn check_not_read_in_body(
    file: &Parsed,
    class: Node<'_>,
    statements: &[Node<'_>],
    moved: &[String],
) -> Result<(), Why> {
    let Some(scope) = class_scope(file, class) else {
        return Ok(());
    };
    let ranges: Vec<Range<usize>> = statements.iter().map(|s| file.chars(*s)).collect();
    if let Some(r) = file.scopes().references.iter().find(|r| {
        r.resolution == Resolution::Scope(scope)
            && moved.contains(&r.name)
            && !ranges
                .iter()
                .any(|x| x.start <= r.range.start && r.range.end <= x.end)
    }) {
        return Err(refused(format!(
            "the class body reads {} at {} where the class is defined",
            r.name,
            file.position(r.range.start)
        )));
    }
    Ok(())
}

/// The imports a target module needs for moved code, gathered per module
/// and statement so that each import statement is edited once.
#[derive(Default)]
pub(in crate::refactor) struct Imports {
    /// Names to add to an existing `from m import …` (by its start).
    extend: BTreeMap<usize, Vec<String>>,
    /// New import lines.
    lines: Vec<String>,
    /// The modules the imports run (new edges of the import graph).
    pub modules: Vec<String>,
    /// Names the target module binds itself after the change, which need
    /// no import (`Merge_Classes`: the two classes' names).
    bound_there: Vec<String>,
}

impl Imports {
    /// The imports of a change after which the target module binds
    /// `names` itself.
    pub fn binding(names: &[&str]) -> Imports {
        Imports {
            bound_there: names.iter().map(|n| n.to_string()).collect(),
            ..Imports::default()
        }
    }

    /// The edits: one per extended statement, the new lines together
    /// after the module's imports (above `before`, the target class's
    /// statement).
    pub fn edits(&self, file: &Parsed, before: Node<'_>) -> Vec<Indel> {
        let mut out = Vec::new();
        let root = file.tree.root();
        for (start, names) in &self.extend {
            let mut cursor = root.walk();
            let found = root
                .named_children(&mut cursor)
                .find(|s| s.start_byte() == *start);
            if let Some(statement) = found {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                out.push(imports::extend(file, statement, &names));
            }
        }
        if !self.lines.is_empty() {
            out.push(imports::new_import(
                file,
                before,
                file.char_of(before.start_byte()),
                &self.lines.join("\n"),
            ));
        }
        out
    }
}

/// Checks that every module-level name the moved statements read means
/// the same in the target module (`target`, parsed as `to`, the class
/// statement `before`), adding the imports that bring the ones it lacks.
#[allow(clippy::too_many_arguments)]
pub(in crate::refactor) fn follow(
    project: &Project<'_>,
    from: &Parsed,
    from_id: FileId,
    statements: &[Node<'_>],
    class: Node<'_>,
    to: &Parsed,
    to_id: FileId,
    before: Node<'_>,
    imports_out: &mut Imports,
) -> Result<(), Why> {
    follow_but(
        project,
        from,
        from_id,
        statements,
        class,
        (to, to_id, before),
        None,
        imports_out,
    )
}

/// [`follow`], but for the reads inside `skipped` (code that does not
/// move along: `Move_Method`'s parameter that reached the target).
#[allow(clippy::too_many_arguments)]
pub(in crate::refactor) fn follow_but(
    project: &Project<'_>,
    from: &Parsed,
    from_id: FileId,
    statements: &[Node<'_>],
    class: Node<'_>,
    (to, to_id, before): (&Parsed, FileId, Node<'_>),
    skipped: Option<Range<usize>>,
    imports_out: &mut Imports,
) -> Result<(), Why> {
    let index = project.index;
    let source = index
        .file(from_id)
        .ok_or_else(|| refused("the class's module is gone from the index"))?;
    let target = index
        .file(to_id)
        .ok_or_else(|| refused("the target's module is gone from the index"))?;
    let scopes = from.scopes();
    let class_scope = class_scope(from, class);
    let ranges: Vec<Range<usize>> = statements.iter().map(|s| from.chars(*s)).collect();
    let mut seen: Vec<String> = Vec::new();
    for r in scopes.references.iter().filter(|r| {
        ranges
            .iter()
            .any(|x| x.start <= r.range.start && r.range.end <= x.end)
            && !skipped
                .as_ref()
                .is_some_and(|x| x.start <= r.range.start && r.range.end <= x.end)
    }) {
        let at_definition = Some(r.scope) == class_scope;
        match r.resolution {
            Resolution::Scope(0) => {}
            Resolution::Builtin | Resolution::Undefined => {
                if from_id != to_id && target.exports.contains_key(r.name.as_str()) {
                    return Err(refused(format!(
                        "{} (at {}) is a builtin here and means something else in {}",
                        r.name,
                        from.position(r.range.start),
                        to.path()
                    )));
                }
                continue;
            }
            Resolution::Star => {
                return Err(refused(format!(
                    "{} (at {}) comes from a star import, which Eddi does not follow into {}",
                    r.name,
                    from.position(r.range.start),
                    to.path()
                )))
            }
            Resolution::Scope(_) => continue,
        }
        if from_id == to_id {
            if at_definition {
                let bound_before = scopes.bindings.iter().any(|b| {
                    b.scope == 0
                        && b.name == r.name
                        && b.range.start < to.char_of(before.start_byte())
                });
                if !bound_before {
                    return Err(refused(format!(
                        "{} (at {}) is read where the member is defined, and is bound below {}",
                        r.name,
                        from.position(r.range.start),
                        to.place(before)
                    )));
                }
            }
            continue;
        }
        if seen.contains(&r.name) || imports_out.bound_there.contains(&r.name) {
            continue;
        }
        seen.push(r.name.clone());
        follow_name(
            project,
            from,
            source,
            from_id,
            to,
            target,
            to_id,
            &r.name,
            imports_out,
        )?;
    }
    Ok(())
}

/// One module-level name of the source module, in the target module.
#[allow(clippy::too_many_arguments)]
fn follow_name(
    project: &Project<'_>,
    from: &Parsed,
    source: &FileIndex,
    from_id: FileId,
    to: &Parsed,
    target: &FileIndex,
    to_id: FileId,
    name: &str,
    out: &mut Imports,
) -> Result<(), Why> {
    let index = project.index;
    let meaning = |fid: FileId, module: &FileIndex| -> Option<(Res, Option<String>)> {
        let &value = module.exports.get(name)?;
        Some((index.resolve(fid, value, 0), module.dotted_name(value)))
    };
    let here = meaning(from_id, source);
    if target.exports.contains_key(name) {
        let there = meaning(to_id, target);
        let same = match (&here, &there) {
            (Some((Res::Defs(a), _)), Some((Res::Defs(b), _))) => !a.is_empty() && a == b,
            (Some((Res::Module(a), _)), Some((Res::Module(b), _))) => a.name == b.name,
            (Some((_, Some(a))), Some((_, Some(b)))) => a == b,
            _ => false,
        };
        if same {
            return Ok(());
        }
        return Err(refused(format!(
            "{name} means something else in {} than in {}",
            to.path(),
            from.path()
        )));
    }
    if !imports::free(to, target, name) {
        return Err(refused(format!(
            "{} reads {name} otherwise, so it cannot import the one the member reads",
            to.path()
        )));
    }
    let binding = from
        .scopes()
        .bindings
        .iter()
        .find(|b| b.scope == 0 && b.name == name)
        .ok_or_else(|| refused(format!("{name} is not bound in {}", from.path())))?;
    let (module, entry) = if binding.kind == BindingKind::Import {
        import_of(from, source, binding.range.start, binding.statement.clone()).ok_or_else(
            || {
                refused(format!(
                    "the import of {name} in {} cannot be copied",
                    from.path()
                ))
            },
        )?
    } else {
        (Some(source.module.clone()), name.to_string())
    };
    // the module the new import runs must not import the target's
    let runs = module.clone().unwrap_or_else(|| {
        entry
            .split([' ', '.'])
            .next()
            .unwrap_or_default()
            .to_string()
    });
    if !imports::imports_at_module_level(target, &runs) {
        if let Some(chain) = imports::import_chain(index, &runs, &target.module) {
            return Err(refused(format!(
                "the member reads {name}, from {runs}, which imports {} ({}): importing it there would make an import cycle",
                target.module,
                chain.join(" → ")
            )));
        }
    }
    out.modules.push(runs);
    match module {
        None => out.lines.push(format!("import {entry}")),
        Some(module) => {
            let root = to.tree.root();
            let mut cursor = root.walk();
            let existing = root.named_children(&mut cursor).find(|s| {
                s.kind() == "import_from_statement"
                    && s.child_by_field_name("module_name").is_some_and(|m| {
                        let written = to.node_text(m);
                        written == module
                            || imports::absolute(target, &written).as_deref()
                                == Some(module.as_str())
                    })
                    && {
                        let mut c = s.walk();
                        let star = s
                            .named_children(&mut c)
                            .any(|n| n.kind() == "wildcard_import");
                        !star
                    }
            });
            match existing {
                Some(statement) => out
                    .extend
                    .entry(statement.start_byte())
                    .or_default()
                    .push(entry),
                None => {
                    let written = if target.imports.iter().any(|i| i.relative) {
                        imports::relative(target, &module).unwrap_or(module)
                    } else {
                        module
                    };
                    out.lines.push(format!("from {written} import {entry}"));
                }
            }
        }
    }
    Ok(())
}

/// The module (absolute; `None` for `import m`) and the imported entry as
/// written (`x`, `x as y`, `pkg.mod`) of the import binding at `at`.
fn import_of(
    file: &Parsed,
    module: &FileIndex,
    at: usize,
    statement: Range<usize>,
) -> Option<(Option<String>, String)> {
    let statement = file.node_spanning(statement)?;
    let mut node = file.node_covering(at)?;
    while node.parent()? != statement {
        node = node.parent()?;
    }
    let entry = file.node_text(node);
    match statement.kind() {
        "import_statement" => Some((None, entry)),
        "import_from_statement" => {
            let written = file.node_text(statement.child_by_field_name("module_name")?);
            let absolute = imports::absolute(module, &written).unwrap_or(written);
            Some((Some(absolute), entry))
        }
        _ => None,
    }
}
