//! Merge_Classes of two modules: the merged class takes the first class's
//! place, in the first class's module, and the second class's uses follow
//! it there. An import of the second class from its module
//! (`from m2 import Class2`) imports the target from the first's (the
//! statement's module changes when it imports nothing else, else the
//! entry leaves it for an import line of its own); `m2.Class2` names the
//! target as the module writes it (`Target`, `m1.Target`, or a new
//! import); a module that reads the second class's name otherwise (a
//! star import, `__all__`, its own module) imports the target; an import
//! the change leaves unread goes. What the second class's body reads
//! follows it into the first's module (`Pull_Up`'s rules). Refused: an
//! import cycle the new imports would close, a use of the second class
//! evaluated at import above the merged class in its module, and a
//! module reading the second class through a name Eddi cannot place.

use std::collections::BTreeMap;
use std::ops::Range;

use tree_sitter::Node;

use super::{
    dedupe_imports, dedupe_listed, internal, merged_body, moved_statements, refused, whole_lines,
};
use crate::analysis::index::file::FileIndex;
use crate::analysis::index::rename::DefInfo;
use crate::analysis::index::resolve::DefRef;
use crate::analysis::index::{FileId, Location};
use crate::change::{Indel, TextEdits, WorkspaceChange};
use crate::refactor::classes;
use crate::refactor::imports;
use crate::refactor::move_members::{needs, statements, unused_after, Imports};
use crate::refactor::{Parsed, Project, RefactorError};

/// One of the two classes: its definition, its module parsed, its node
/// and the sites of its name.
pub(super) struct Side<'p> {
    pub def: DefRef,
    pub info: &'p DefInfo,
    pub file: &'p Parsed,
    pub node: Node<'p>,
    pub sites: &'p [Location],
}

/// The change, the files it edits and the references it renames.
pub(super) struct Merged {
    pub change: WorkspaceChange,
    pub files: usize,
    pub references: usize,
}

/// What a site of the second class's name is, for the edit it needs.
enum Use<'t> {
    /// The imported name of `from m2 import Class2 [as C]`.
    Import {
        statement: Node<'t>,
        entry: Node<'t>,
    },
    /// `m2.Class2`: the attribute, and the name its module is bound to.
    ThroughModule { attribute: Node<'t>, root: String },
    /// A name the rename alone keeps right. `binds`: it is the imported
    /// name of a module-level `from pkg import Class2` (a re-export), so
    /// the module binds the target; `needs`: the module must bind the
    /// target for it (a bare name, an `__all__` entry).
    Renamed { binds: bool, needs: bool },
}

pub(super) fn merge(
    project: &Project<'_>,
    first: Side<'_>,
    second: Side<'_>,
    target: &str,
) -> Result<Merged, RefactorError> {
    let index = project.index;
    let module_name = |fid: FileId| {
        index
            .file(fid)
            .map(|f| f.module.clone())
            .ok_or_else(|| internal("a class's module is gone from the index"))
    };
    let (m1, m2) = (module_name(first.def.file)?, module_name(second.def.file)?);
    let (p1, p2) = (first.info.path.as_str(), second.info.path.as_str());
    let (s1, s2) = (
        classes::statement(first.node),
        classes::statement(second.node),
    );
    let second_range = whole_lines(second.file, s2);
    let within_second = |l: &Location| {
        l.path == p2 && {
            let start = second.file.offset(l.position);
            second_range.start <= start && start < second_range.end
        }
    };
    // the second class's body, its names renamed, into the first's
    let inside: Vec<Indel> = first
        .sites
        .iter()
        .chain(second.sites)
        .filter(|l| within_second(l))
        .map(|l| {
            let start = second.file.offset(l.position);
            Indel::new(start..second.file.offset(l.end), target)
        })
        .collect();
    let indent = statements::body(first.node)
        .first()
        .map(|s| statements::indent(first.file, *s))
        .unwrap_or_else(|| "    ".into());
    let body = merged_body(second.file, second.node, &indent, &inside)?;
    // what it reads comes along
    let mut reads = moved_statements(second.node);
    let bases = second
        .node
        .child_by_field_name("superclasses")
        .filter(|_| first.node.child_by_field_name("superclasses").is_none());
    reads.extend(bases);
    let mut follows = Imports::binding(&[&first.info.name, &second.info.name, target]);
    needs::follow(
        project,
        second.file,
        second.def.file,
        &reads,
        second.node,
        first.file,
        first.def.file,
        s1,
        &mut follows,
    )
    .map_err(refused)?;
    let mut added: Vec<(String, String)> = follows
        .modules
        .iter()
        .map(|m| (m1.clone(), m.clone()))
        .collect();

    let mut removed: Vec<(String, String)> = Vec::new();
    let mut by_file: BTreeMap<String, (Vec<&Location>, Vec<&Location>)> = BTreeMap::new();
    for l in first.sites.iter().filter(|l| !within_second(l)) {
        by_file.entry(l.path.clone()).or_default().0.push(l);
    }
    for l in second.sites.iter().filter(|l| !within_second(l)) {
        by_file.entry(l.path.clone()).or_default().1.push(l);
    }
    by_file.entry(p1.to_string()).or_default();
    by_file.entry(p2.to_string()).or_default();
    let mut edits_of: BTreeMap<String, (std::sync::Arc<Parsed>, Vec<Indel>)> = BTreeMap::new();
    let references = first.sites.len() + second.sites.len();
    for (path, (ones, twos)) in &by_file {
        let file = project.parsed(path)?;
        let fid = index
            .file_id(Some(path))
            .ok_or_else(|| internal(format!("{path} is gone from the index")))?;
        let module = index
            .file(fid)
            .ok_or_else(|| internal(format!("{path} is gone from the index")))?;
        let home = path == p1;
        let at = |l: &Location| file.offset(l.position)..file.offset(l.end);
        let mut renames: Vec<Indel> = Vec::new();
        let mut edits: Vec<Indel> = Vec::new();
        let mut binds = home;
        for l in ones {
            if first.info.name != target {
                renames.push(Indel::new(at(l), target));
            }
            if let Some((statement, entry)) = import_entry(&file, at(l).start) {
                binds |= entry.kind() == "dotted_name" && at_module_level(statement);
            }
        }
        let uses: Vec<(Range<usize>, Use<'_>)> = twos
            .iter()
            .map(|l| Ok((at(l), classify(&file, module, at(l), &m2)?)))
            .collect::<Result<_, RefactorError>>()?;
        let mut needs_binding = false;
        for (range, u) in &uses {
            if let Use::Renamed { binds: b, needs } = u {
                binds |= *b;
                needs_binding |= needs;
                if second.info.name != target {
                    renames.push(Indel::new(range.clone(), target));
                }
            }
        }
        if home {
            check_evaluated_after(&file, s1, &uses, &second.info.name)?;
        }
        let mut through_module: Vec<Range<usize>> = Vec::new();
        let mut roots: Vec<String> = Vec::new();
        for (range, u) in &uses {
            match u {
                Use::Import { statement, entry } => {
                    let aliased = entry.kind() == "aliased_import";
                    if home && aliased {
                        return Err(refused(format!(
                            "{path} imports {} as another name at {}, and the merged class is defined there under its own",
                            second.info.name,
                            file.position(range.start)
                        )));
                    }
                    if home || (binds && !aliased) {
                        edits.push(without(&file, *statement, *entry)?);
                        continue;
                    }
                    edits.extend(import_from(
                        &file,
                        module,
                        *statement,
                        *entry,
                        range.clone(),
                        &m1,
                        target,
                    )?);
                    if !imports::imports_at_module_level(module, &m1) {
                        added.push((module.module.clone(), m1.clone()));
                    }
                    binds |= !aliased && at_module_level(*statement);
                }
                Use::ThroughModule { attribute, root } => {
                    through_module.push(file.chars(*attribute));
                    roots.push(root.clone());
                }
                Use::Renamed { .. } => {}
            }
        }
        // the name the module writes for the target where it needs one (a
        // name an import of the class binds, at any level, is bound by it)
        let imported = uses
            .iter()
            .any(|(_, u)| matches!(u, Use::Import { entry, .. } if entry.kind() == "dotted_name"));
        if !through_module.is_empty() || (needs_binding && !binds && !imported) {
            let written = if binds {
                target.to_string()
            } else {
                let first_use = through_module
                    .first()
                    .cloned()
                    .or_else(|| uses.first().map(|(r, _)| r.clone()))
                    .unwrap_or(0..0);
                let statement = top_statement(&file, first_use.start)
                    .ok_or_else(|| internal("a use outside the module's statements"))?;
                let spelling =
                    imports::spell_as(index, &file, fid, first.def, statement, Some(target))
                        .map_err(refused)?;
                if let Some(import) = spelling.import {
                    edits.push(import);
                    if !imports::imports_at_module_level(module, &m1) {
                        added.push((module.module.clone(), m1.clone()));
                    }
                }
                spelling.text
            };
            for range in &through_module {
                edits.push(Indel::new(range.clone(), written.clone()));
            }
        }
        roots.sort();
        roots.dedup();
        let mut dropped_modules = 0;
        for root in roots {
            if let Some(dropped) =
                imports::drop_unused(index, &file, module, &root, &through_module)
            {
                edits.push(dropped.edit);
                dropped_modules += 1;
            }
        }
        if path != p2 && imports_m2_no_more(module, &m2, &second.info.name, dropped_modules) {
            removed.push((module.module.clone(), m2.clone()));
        }
        if home {
            if !body.is_empty() {
                edits.push(statements::insertion(&file, first.node, &body).map_err(refused)?);
            }
            let name = first
                .node
                .child_by_field_name("name")
                .ok_or_else(|| internal("a class without a name"))?;
            if first.info.name != target {
                edits.push(Indel::new(file.chars(name), target));
            }
            if let Some(args) = bases {
                edits.push(Indel::insert(
                    file.char_of(name.end_byte()),
                    second.file.node_text(args),
                ));
            }
            edits.extend(follows.edits(&file, s1));
        }
        if path == p2 {
            edits.push(Indel::delete(second_range.clone()));
            edits.extend(unused_after(project, &file, fid, &[s2]));
        }
        edits.extend(dedupe_listed(
            &file,
            dedupe_imports(&file, &renames, target),
            target,
        ));
        edits_of.insert(path.clone(), (file, settle(edits)));
    }
    for (from, to) in &added {
        if let Some(chain) = imports::import_chain_with(index, to, from, &added, &removed) {
            return Err(refused(format!(
                "{from} would import {to}, which imports {from} ({}): an import cycle; move what makes it (the second class's reads of its own module, or its uses there) first",
                chain.join(" → ")
            )));
        }
    }
    let mut change = WorkspaceChange::new();
    let mut files = 0;
    for (_, (file, edits)) in edits_of {
        if edits.is_empty() {
            continue;
        }
        files += 1;
        let edits = TextEdits::new(edits)
            .map_err(|(a, b)| internal(format!("overlapping edits {a:?} and {b:?}")))?;
        change = change
            .union(WorkspaceChange::edit(
                file.source.path.clone(),
                file.source.base.clone(),
                edits,
            ))
            .map_err(|e| internal(format!("the files' edits do not combine: {e}")))?;
    }
    Ok(Merged {
        change,
        files,
        references,
    })
}

/// The edits that make `from m2 import Class2 [as C]` (the entry of
/// `statement`, the class's name at `name`) import the target from `m1`:
/// the statement's module when it imports nothing else, else an import
/// line of its own below it; relative when the statement is.
fn import_from(
    file: &Parsed,
    module: &FileIndex,
    statement: Node<'_>,
    entry: Node<'_>,
    name: Range<usize>,
    m1: &str,
    target: &str,
) -> Result<Vec<Indel>, RefactorError> {
    let module_node = statement
        .child_by_field_name("module_name")
        .ok_or_else(|| internal("an import without its module"))?;
    let written = if file.node_text(module_node).starts_with('.') {
        imports::relative(module, m1).unwrap_or_else(|| m1.to_string())
    } else {
        m1.to_string()
    };
    if imports::import_names(statement).len() == 1 {
        return Ok(vec![
            Indel::new(file.chars(module_node), written),
            Indel::new(name, target),
        ]);
    }
    let entry_text = file.slice(file.chars(entry).start..name.start)
        + target
        + &file.slice(name.end..file.chars(entry).end);
    let row = statement.end_position().row + 1;
    let text = file.text();
    let line = format!(
        "{}from {written} import {entry_text}\n",
        statements::indent(file, statement)
    );
    let insertion = if row < text.len_lines() {
        Indel::insert(text.line_to_char(row), line)
    } else {
        Indel::insert(text.len_chars(), format!("\n{}", line.trim_end()))
    };
    Ok(vec![without(file, statement, entry)?, insertion])
}

/// Whether `module` imports `m2` no more after the merge: its imports of
/// it were of the second class (`class`, moved to the first module) or
/// the `dropped` module imports.
fn imports_m2_no_more(module: &FileIndex, m2: &str, class: &str, dropped: usize) -> bool {
    let of_m2: Vec<bool> = module
        .imports
        .iter()
        .filter(|i| {
            i.module == m2
                || i.name
                    .as_ref()
                    .is_some_and(|n| format!("{}.{n}", i.module) == m2)
        })
        .map(|i| i.module == m2 && i.name.as_deref() == Some(class))
        .collect();
    let others = of_m2.iter().filter(|of_class| !**of_class).count();
    !of_m2.is_empty() && others <= dropped
}

/// What the site of the second class's name at `range` is.
fn classify<'t>(
    file: &'t Parsed,
    module: &FileIndex,
    range: Range<usize>,
    m2: &str,
) -> Result<Use<'t>, RefactorError> {
    let node = file
        .node_covering(range.start)
        .ok_or_else(|| internal("a site outside the file's tree"))?;
    if let Some((statement, entry)) = import_entry(file, range.start) {
        let from_m2 = statement.kind() == "import_from_statement"
            && statement
                .child_by_field_name("module_name")
                .is_some_and(|m| {
                    let written = file.node_text(m);
                    imports::absolute(module, &written).unwrap_or(written) == m2
                });
        if from_m2 {
            return Ok(Use::Import { statement, entry });
        }
        return Ok(Use::Renamed {
            binds: entry.kind() == "dotted_name" && at_module_level(statement),
            needs: false,
        });
    }
    let attribute = node
        .parent()
        .filter(|p| p.kind() == "attribute" && p.child_by_field_name("attribute") == Some(node));
    if let Some(attribute) = attribute {
        let object = attribute
            .child_by_field_name("object")
            .ok_or_else(|| internal("an attribute without its object"))?;
        let dotted = file.node_text(object);
        return match classes::canonical(module, &dotted) {
            Some(m) if m == m2 => Ok(Use::ThroughModule {
                attribute,
                root: dotted.split('.').next().unwrap_or_default().trim().to_string(),
            }),
            Some(_) => Ok(Use::Renamed {
                binds: false,
                needs: false,
            }),
            None => Err(refused(format!(
                "{} at {} reads the class through {dotted}, which Eddi cannot tell is its module or one that re-exports it",
                file.path(),
                file.position(range.start)
            ))),
        };
    }
    Ok(Use::Renamed {
        binds: false,
        needs: true,
    })
}

/// Refuses a use of the second class, in the merged class's module,
/// evaluated when the module is imported above the merged class's place
/// (it would run before the class exists).
fn check_evaluated_after(
    file: &Parsed,
    merged: Node<'_>,
    uses: &[(Range<usize>, Use<'_>)],
    name: &str,
) -> Result<(), RefactorError> {
    let start = file.char_of(merged.start_byte());
    for (range, u) in uses {
        if matches!(u, Use::Import { .. }) || range.start >= start {
            continue;
        }
        let deferred = file.node_covering(range.start).is_some_and(|mut n| loop {
            let Some(parent) = n.parent() else {
                break false;
            };
            let in_body = |kind: &str, field: &str| {
                parent.kind() == kind && parent.child_by_field_name(field) == Some(n)
            };
            if in_body("function_definition", "body") || in_body("lambda", "body") {
                break true;
            }
            n = parent;
        });
        if !deferred {
            return Err(refused(format!(
                "{name} is used at {}:{} when the module is imported, above the merged class's place",
                file.path(),
                file.position(range.start)
            )));
        }
    }
    Ok(())
}

/// The import statement and the entry (`A`, `A as B`) a name at `at` is
/// the imported name of.
fn import_entry(file: &Parsed, at: usize) -> Option<(Node<'_>, Node<'_>)> {
    let mut node = file.node_covering(at)?;
    loop {
        let parent = node.parent()?;
        if matches!(parent.kind(), "import_from_statement" | "import_statement") {
            let is_module = parent.child_by_field_name("module_name") == Some(node);
            return (!is_module).then_some((parent, node));
        }
        node = parent;
    }
}

fn at_module_level(statement: Node<'_>) -> bool {
    statement.parent().is_some_and(|p| p.kind() == "module")
}

/// The module-level statement the char `at` is in.
fn top_statement(file: &Parsed, at: usize) -> Option<Node<'_>> {
    let mut node = file.node_covering(at)?;
    while node.parent()?.kind() != "module" {
        node = node.parent()?;
    }
    Some(node)
}

fn without(file: &Parsed, statement: Node<'_>, entry: Node<'_>) -> Result<Indel, RefactorError> {
    imports::without_entry(file, statement, entry)
        .map(|d| d.edit)
        .ok_or_else(|| {
            refused(format!(
                "the import at {} shares its line with other code",
                file.place(statement)
            ))
        })
}

/// The edits with a deletion that an insertion lands inside (an import
/// that goes, with the blank line it took along, and a new import line
/// after it) cut short at the insertion: the blank lines stay below the
/// new line, and the edits do not overlap.
fn settle(mut indels: Vec<Indel>) -> Vec<Indel> {
    let insertions: Vec<usize> = indels
        .iter()
        .filter(|i| i.range.is_empty())
        .map(|i| i.range.start)
        .collect();
    for d in indels.iter_mut().filter(|i| !i.range.is_empty()) {
        if let Some(&at) = insertions
            .iter()
            .filter(|&&at| d.range.start < at && at < d.range.end)
            .min()
        {
            d.range.end = at;
        }
    }
    indels
}
