//! A class's name reaching code as a string: name-based dispatch.
//!
//! jinja2's `NodeVisitor.get_visitor` does `getattr(self,
//! f"visit_{type(node).__name__}")`: renaming `nodes.Name` alone would
//! leave every `visit_Name` unreached. Before a class is renamed, every
//! project file that takes a class's name as a string (`type(x).__name__`,
//! `x.__class__.__name__`, `cls.__name__`, `__qualname__`) is read with
//! tree-sitter and the string is followed — through a variable of the same
//! function, string building (`f"visit_{…}"`, `"visit_" + …`,
//! `"visit_%s" % …`, `"visit_{}".format(…)`), `.lower()` — to where it
//! goes:
//!
//! * `getattr(self, <template>)` (or `hasattr`, …) in a project class: the
//!   members that template makes of the old name (`visit_Name`) in that
//!   class's hierarchy are renamed along (`visit_NameNode`) — when every
//!   one of them is in the project and found: a class of the hierarchy with
//!   a base outside the project, a member named as the new template already,
//!   a lookup on another receiver or an unknown transformation refuse.
//! * a comparison with a string literal that the old name makes (`type(x)
//!   .__name__ == "Name"`) refuses;
//! * a dict key, a subscript or a comparison with a variable (a registry
//!   keyed by class name) refuses when a project string literal spells the
//!   old name (`{"Name": …}`, `registry["Name"]`): that key would stay;
//! * a name built from it that goes elsewhere (returned, passed to another
//!   function) refuses when the project spells the name it builds.
//!
//! A string made of the name that is not an identifier (`f"<{type(self)
//! .__name__} …>"`, a message with `!r`) is text: a repr changes with the
//! class, as it should.

use tree_sitter::Node;

use crate::analysis::index::rename::DefInfo;
use crate::analysis::index::resolve::DefRef;
use crate::analysis::index::{Location, ProjectIndex};
use crate::analysis::outline::SymbolKind;
use crate::change::{FileOp, Indel, TextEdits, WorkspaceChange};
use crate::edit::Position;

use super::super::{
    AlsoRenamed, Project, RefactorError, RefactorFailure, Refactored, Refactoring, RenameKind,
    SitePolicy,
};

/// What the class rename must do about name-based dispatch: the members to
/// rename along, and the lookup lines that then stay right (a member rename
/// would otherwise refuse them).
#[derive(Debug, Default)]
pub(in crate::refactor) struct Along {
    members: Vec<AlsoRenamed>,
    pub sanctioned: Vec<(String, usize)>,
}

impl Along {
    /// The members dispatch by the class's name reaches, to rename along.
    pub(in crate::refactor) fn members(&self) -> &[AlsoRenamed] {
        &self.members
    }
}

/// Where a class's name (as a string) goes, found from one
/// `….__name__` expression.
#[derive(Debug, Clone)]
enum Flow {
    /// `getattr(receiver, <template>)`, at `line`; `class` is the full name
    /// of the class whose method holds it, when the receiver is `self`/`cls`.
    Lookup {
        line: usize,
        class: Option<String>,
        template: Template,
        call: String,
    },
    /// Compared with string literals, or with strings built from one
    /// (`"Multi%s" % kind`: `starts` holds `Multi`).
    Compared {
        line: usize,
        literals: Vec<String>,
        starts: Vec<String>,
        template: Template,
    },
    /// A dict key, a subscript, or compared with a variable.
    Keyed { line: usize, code: String },
    /// An identifier built from it that goes where this cannot follow.
    Escapes {
        line: usize,
        template: Template,
        code: String,
    },
}

/// How the name becomes an attribute name: `prefix + t(name) + suffix`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Template {
    prefix: String,
    suffix: String,
    transform: Transform,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Transform {
    #[default]
    Same,
    Lower,
    Upper,
    /// A method or a computed part this does not know.
    Unknown,
}

impl Flow {
    fn line(&self) -> usize {
        match self {
            Flow::Lookup { line, .. }
            | Flow::Compared { line, .. }
            | Flow::Keyed { line, .. }
            | Flow::Escapes { line, .. } => *line,
        }
    }
}

impl Template {
    /// Whether it builds an identifier around the name (`visit_{…}`): a
    /// name only lowered (`{"class": cls.__name__.lower()}`) is not.
    fn glued(&self) -> bool {
        !self.prefix.is_empty() || !self.suffix.is_empty()
    }

    /// The attribute the template makes of `name`; `None` when unknown.
    fn apply(&self, name: &str) -> Option<String> {
        let t = match self.transform {
            Transform::Same => name.to_string(),
            Transform::Lower => name.to_lowercase(),
            Transform::Upper => name.to_uppercase(),
            Transform::Unknown => return None,
        };
        Some(format!("{}{t}{}", self.prefix, self.suffix))
    }

    fn shown(&self) -> String {
        format!("{}{{…}}{}", self.prefix, self.suffix)
    }

    fn around(&self, before: &str, after: &str) -> Template {
        Template {
            prefix: format!("{before}{}", self.prefix),
            suffix: format!("{}{after}", self.suffix),
            transform: self.transform,
        }
    }
}

/// Checks a class rename against the project's name-based dispatch:
/// refuses what it cannot keep right, and says which members to rename
/// along.
pub(in crate::refactor) fn check(
    project: &Project<'_>,
    class: &DefInfo,
    new: &str,
) -> Result<Along, RefactorError> {
    let index = project.index;
    let old = class.name.as_str();
    let refuse = |why: String| {
        RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot rename {}: {why}; nothing was changed",
                class.full_name
            ),
        )
    };
    let mut flows: Vec<(String, Flow)> = Vec::new();
    for path in index.paths() {
        if !path.ends_with(".py") {
            continue;
        }
        let source = project.source(path)?;
        let src = source.text.to_string();
        if !class_name_taken().is_match(&src) {
            continue; // parsed only where a class's name may be taken
        }
        let Ok(file) = project.scanned(path) else {
            continue;
        };
        let mut found = flows_in(&src, file.tree.root());
        found.sort_by_key(Flow::line);
        flows.extend(found.into_iter().map(|f| (path.to_string(), f)));
    }
    let mut along = Along::default();
    let mut keyed: Option<(String, usize, String)> = None;
    let mut families: Vec<DefRef> = Vec::new();
    let tree = index.subclasses();
    for (path, flow) in &flows {
        match flow {
            Flow::Lookup {
                line,
                class: owner,
                template,
                call,
            } => {
                let (Some(from), Some(to)) = (template.apply(old), template.apply(new)) else {
                    return Err(refuse(format!(
                        "{path}:{line} reaches attributes by a name made from a class's name ({call}) in a way this cannot follow, so '{old}' there would not be renamed"
                    )));
                };
                if from == to || (owner.is_none() && from == old) {
                    // the same name, or the class's own name looked up
                    // where the class is bound (`hasattr(module, name)`),
                    // which the rename renames too
                    continue;
                }
                let module = index.module_of(path).unwrap_or_default();
                let owner = owner
                    .as_deref()
                    .and_then(|o| class_named(index, &format!("{module}.{o}")));
                let Some(owner) = owner else {
                    return Err(refuse(format!(
                        "{path}:{line} reaches attributes by a name made from a class's name ({call}), on a receiver whose class this cannot tell, so '{from}' would not be renamed along"
                    )));
                };
                let mut hierarchy = vec![owner];
                hierarchy.extend(tree.of(owner));
                hierarchy.extend(index.project_ancestors(&[owner]));
                hierarchy.sort();
                hierarchy.dedup();
                if let Some(outside) = index.with_unknown_bases(&hierarchy, &from).first() {
                    let c = index.def_info(*outside).map(|c| c.full_name);
                    return Err(refuse(format!(
                        "{path}:{line} reaches '{from}' by the class's name ({call}), and {} derives from a class outside the project, which may define it",
                        c.unwrap_or_default()
                    )));
                }
                let mut members: Vec<DefRef> = hierarchy
                    .iter()
                    .flat_map(|&k| index.members_named(k, &from))
                    .collect();
                members.sort();
                members.dedup();
                if members.is_empty() {
                    continue;
                }
                if let Some(taken) = hierarchy
                    .iter()
                    .flat_map(|&k| index.members_named(k, &to))
                    .find_map(|d| index.def_info(d))
                {
                    return Err(refuse(format!(
                        "{path}:{line} reaches '{from}' by the class's name ({call}), which would then reach '{to}', and {} is already named so",
                        taken.full_name
                    )));
                }
                along.sanctioned.push((path.clone(), *line));
                let dispatch = Location {
                    path: path.clone(),
                    position: Position::new(*line, 0),
                    end: Position::new(*line, 0),
                };
                for m in members {
                    if families.contains(&m) {
                        continue;
                    }
                    families.extend(index.hierarchy_of(&[m], &tree));
                    if let Some(info) = index.def_info(m) {
                        along.members.push(AlsoRenamed {
                            symbol: info.full_name,
                            new_name: to.clone(),
                            dispatch: dispatch.clone(),
                        });
                    }
                }
            }
            Flow::Compared {
                line,
                literals,
                starts,
                template,
            } => {
                let made = template.apply(old);
                if made.is_none() || literals.iter().any(|l| Some(l) == made.as_ref()) {
                    return Err(refuse(format!(
                        "{path}:{line} compares a class's name with the string '{}', which the rename would not change",
                        made.unwrap_or_else(|| old.to_string())
                    )));
                }
                if let Some(start) = made
                    .as_ref()
                    .and_then(|m| starts.iter().find(|s| m.starts_with(s.as_str())))
                {
                    return Err(refuse(format!(
                        "{path}:{line} compares a class's name with a string built from '{start}', which may be '{old}' and would not be renamed",
                    )));
                }
            }
            Flow::Keyed { line, code } => {
                keyed.get_or_insert((path.clone(), *line, code.clone()));
            }
            Flow::Escapes {
                line,
                template,
                code,
            } => {
                let spelled = match template.apply(old) {
                    Some(made) => spelled_in_project(project, &made, false)?
                        .map(|at| format!("{at} spells '{made}'")),
                    None => Some(format!("what it makes of '{old}' is unknown")),
                };
                if let Some(spelled) = spelled {
                    return Err(refuse(format!(
                        "{path}:{line} builds a name from a class's name ({code}, {}) that goes where this cannot follow, and {spelled}",
                        template.shown()
                    )));
                }
            }
        }
    }
    if let Some((path, line, code)) = keyed {
        if let Some(literal) = spelled_in_project(project, old, true)? {
            return Err(refuse(format!(
                "{path}:{line} keys or compares by a class's name ({code}), and {literal} spells '{old}' as a string, which the rename would not change"
            )));
        }
    }
    along.sanctioned.sort();
    along.sanctioned.dedup();
    Ok(along)
}

/// Renames the members of `along` with the class's rename `done`: each
/// one's whole rename, as `RenameSymbol` would do it, merged in. A use of
/// one that rename cannot prove refuses: dispatch would no longer match.
pub(super) fn rename_along(
    project: &Project<'_>,
    class: &str,
    along: Along,
    include_text: bool,
    rename: impl Fn(&Refactoring, &[(String, usize)]) -> Result<Refactored, RefactorError>,
    mut done: Refactored,
) -> Result<Refactored, RefactorError> {
    for also in along.members {
        let request = Refactoring::Rename {
            kind: RenameKind::Symbol,
            symbol: also.symbol.clone(),
            new_name: also.new_name.clone(),
            include_text,
            // a use it cannot prove refuses: dispatch would no longer match
            sites: SitePolicy::Refuse,
        };
        let member = rename(&request, &along.sanctioned).map_err(|e| RefactorError {
            // the member's argument at fault is the class rename's too
            argument: e.argument,
            ..RefactorError::new(
                e.kind,
                format!(
                    "Cannot rename {class}: {} reaches {} by the class's name, and renaming it along to {} fails: {}",
                    also.dispatch.path_line(),
                    also.symbol,
                    also.new_name,
                    e.message
                ),
            )
        })?;
        if let Some(left) = member.left_alone.first() {
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot rename {class}: {} reaches {} by the class's name, and renaming it along to {} would leave {} use(s) it cannot prove: {} ({}); nothing was changed",
                    also.dispatch.path_line(),
                    also.symbol,
                    also.new_name,
                    member.left_alone.len(),
                    left.site,
                    left.why
                ),
            ));
        }
        done = merge(done, member)?;
        done.also_renamed.push(also);
    }
    if !done.also_renamed.is_empty() {
        done.mentions = unchanged(project, &done.change, done.mentions)?;
    }
    Ok(done)
}

/// The mentions that no edit of `change` changes: a member's rename
/// reports a mention (in a file it does not touch) that another's changes.
fn unchanged(
    project: &Project<'_>,
    change: &WorkspaceChange,
    mentions: Vec<Location>,
) -> Result<Vec<Location>, RefactorError> {
    let mut kept = Vec::new();
    for m in mentions {
        let edits =
            change
                .files()
                .find(|(p, _)| p.as_str() == m.path)
                .and_then(|(_, f)| match &f.op {
                    FileOp::Edit(edits) => Some(edits.clone()),
                    _ => None,
                });
        let Some(edits) = edits else {
            kept.push(m);
            continue;
        };
        let text = project.source(&m.path)?.text;
        let at = (m.position.line < text.len_lines())
            .then(|| text.line_to_char(m.position.line) + m.position.col);
        if !edits.iter().any(|i| Some(i.range.start) == at) {
            kept.push(m);
        }
    }
    Ok(kept)
}

/// Both renames' edits and reports, as one.
fn merge(a: Refactored, b: Refactored) -> Result<Refactored, RefactorError> {
    use super::super::Summary;
    let mixed = |r: &Refactored| -> Vec<crate::workspace::WorkspacePath> {
        r.change
            .files()
            .map(|(p, _)| p.clone())
            .filter(|p| !r.names_swapped.contains(p))
            .collect()
    };
    let not_swapped: Vec<_> = mixed(&a).into_iter().chain(mixed(&b)).collect();
    let mut names_swapped = a.names_swapped.clone();
    names_swapped.extend(b.names_swapped.iter().cloned());
    names_swapped.retain(|p| !not_swapped.contains(p));
    let (b_change, repeated) = without_repeats(&a.change, &b.change)?;
    let change = a.change.union(b_change).map_err(|e| {
        RefactorError::new(RefactorFailure::WouldBreak, format!("Internal error: {e}"))
    })?;
    let references = |s: &Summary| match s {
        Summary::Renamed { references, .. } => *references,
        _ => 0,
    };
    let total = references(&a.summary) + references(&b.summary) - repeated;
    let summary = match a.summary {
        Summary::Renamed { symbol, .. } => Summary::Renamed {
            symbol,
            files: change.files().count(),
            references: total,
        },
        other => other,
    };
    let mut mentions = a.mentions;
    mentions.extend(b.mentions);
    mentions.sort();
    mentions.dedup();
    let mut data_strings = a.data_strings;
    data_strings.extend(b.data_strings);
    let mut also_renamed = a.also_renamed;
    also_renamed.extend(b.also_renamed);
    let mut evidence = a.evidence;
    evidence.proven.extend(b.evidence.proven);
    evidence.proven.sort();
    evidence.proven.dedup();
    evidence.inferred.extend(b.evidence.inferred);
    evidence.possible.extend(b.evidence.possible);
    evidence.also.extend(b.evidence.also);
    Ok(Refactored {
        change,
        summary,
        evidence,
        left_alone: a.left_alone,
        mentions,
        names_swapped,
        data_strings,
        also_renamed,
        assumed: Vec::new(),
    })
}

/// `b` without the edits `a` makes too (two members renamed along change
/// the same mention of their name with `Include Text`), and how many.
fn without_repeats(
    a: &WorkspaceChange,
    b: &WorkspaceChange,
) -> Result<(WorkspaceChange, usize), RefactorError> {
    let internal = |e: String| RefactorError::new(RefactorFailure::WouldBreak, e);
    let mut out = WorkspaceChange::new();
    let mut repeated = 0;
    for (path, theirs) in b.files() {
        let mut file = theirs.clone();
        if let (Some(FileOp::Edit(ours)), FileOp::Edit(edits)) =
            (a.file(path).map(|f| &f.op), &theirs.op)
        {
            let kept: Vec<Indel> = edits
                .iter()
                .filter(|i| !ours.iter().any(|o| o == *i))
                .cloned()
                .collect();
            repeated += edits.len() - kept.len();
            let kept = TextEdits::new(kept)
                .map_err(|(x, y)| internal(format!("Internal error: edits {x:?} and {y:?}")))?;
            file.op = FileOp::Edit(kept);
        }
        out.insert(path.clone(), file)
            .map_err(|e| internal(format!("Internal error: {e}")))?;
    }
    Ok((out, repeated))
}

/// The project class of that full name.
fn class_named(index: &ProjectIndex, full_name: &str) -> Option<DefRef> {
    let defs = index.rename_symbol(full_name, None).ok()?;
    defs.into_iter().find(|&d| {
        index
            .def_info(d)
            .is_some_and(|i| i.kind == SymbolKind::Class && i.full_name == full_name)
    })
}

/// The first place in the project's files that spells `word` as a whole
/// word (`quoted`: as the whole text of a string literal), as `path:line`.
fn spelled_in_project(
    project: &Project<'_>,
    word: &str,
    quoted: bool,
) -> Result<Option<String>, RefactorError> {
    let pattern = if quoted {
        format!(r#"["']{}["']"#, regex::escape(word))
    } else {
        format!(r"\b{}\b", regex::escape(word))
    };
    let Ok(pattern) = regex::Regex::new(&pattern) else {
        return Ok(None);
    };
    for path in project.index.paths() {
        let source = project.source(path)?;
        let src = source.text.to_string();
        let mut file = None;
        for at in pattern.find_iter(&src) {
            if quoted {
                // `__all__ = ["Old"]` is renamed with the class
                let parsed = file.get_or_insert_with(|| project.scanned(path).ok());
                if parsed
                    .as_ref()
                    .is_some_and(|f| in_all(f.tree.root(), &src, at.start()))
                {
                    continue;
                }
            }
            let line = src[..at.start()].matches('\n').count();
            return Ok(Some(format!("{path}:{line}")));
        }
    }
    Ok(None)
}

/// The fixed start of a string built from a literal: `"Multi%s" % x`,
/// `"visit_" + x`, `f"visit_{x}"` → `Multi`, `visit_`.
fn fixed_start(src: &str, n: Node<'_>) -> Option<String> {
    let literal = match n.kind() {
        "binary_operator" => {
            let left = n.child_by_field_name("left")?;
            plain_string(src, left).or_else(|| fixed_start(src, left))?
        }
        "string" => {
            let first = n.named_child(1)?;
            (first.kind() == "string_content").then(|| text(src, first).to_string())?
        }
        _ => return None,
    };
    let end = literal.find(['%', '{']).unwrap_or(literal.len());
    Some(literal[..end].to_string())
}

/// Whether the string literal at byte `at` is an element of `__all__`,
/// which the rename changes with the name.
fn in_all(root: Node<'_>, src: &str, at: usize) -> bool {
    let mut n = root.descendant_for_byte_range(at, at + 1);
    while let Some(k) = n {
        if matches!(k.kind(), "assignment" | "augmented_assignment") {
            return k
                .child_by_field_name("left")
                .is_some_and(|l| text(src, l) == "__all__");
        }
        n = k.parent();
    }
    false
}

/// Every flow of a class's name in one file.
fn flows_in(src: &str, root: Node<'_>) -> Vec<Flow> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "attribute" && is_class_name(src, n) {
            trace(src, n, Template::default(), 0, &mut out);
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    out
}

/// What [`is_class_name`] accepts, written out: a cheap test before a
/// parse.
fn class_name_taken() -> &'static regex::Regex {
    static TAKEN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    TAKEN.get_or_init(|| {
        regex::Regex::new(r"(?i)(?:\)|__class__|cls|class_?|klass)\s*\.\s*__(?:qual)?name__")
            .expect("a valid regex")
    })
}

fn text<'s>(src: &'s str, n: Node<'_>) -> &'s str {
    &src[n.byte_range()]
}

/// `type(x).__name__`, `x.__class__.__name__`, `cls.__name__`,
/// `klass.__qualname__`: the name of a class, as a string.
fn is_class_name(src: &str, n: Node<'_>) -> bool {
    let (Some(object), Some(attribute)) = (
        n.child_by_field_name("object"),
        n.child_by_field_name("attribute"),
    ) else {
        return false;
    };
    if !matches!(text(src, attribute), "__name__" | "__qualname__") {
        return false;
    }
    match object.kind() {
        "call" => object
            .child_by_field_name("function")
            .is_some_and(|f| text(src, f) == "type"),
        "attribute" => object
            .child_by_field_name("attribute")
            .is_some_and(|a| text(src, a) == "__class__"),
        "identifier" => {
            let name = text(src, object).to_ascii_lowercase();
            name == "cls"
                || name.ends_with("_cls")
                || name.ends_with("class")
                || name.ends_with("class_")
                || name.ends_with("klass")
        }
        _ => false,
    }
}

/// The leading identifier characters of `s`, and whether that is all of it.
fn leading_ident(s: &str) -> (&str, bool) {
    let end = s
        .find(|c: char| !(c == '_' || c.is_alphanumeric()))
        .unwrap_or(s.len());
    (&s[..end], end == s.len())
}

fn trailing_ident(s: &str) -> (&str, bool) {
    let start = s
        .rfind(|c: char| !(c == '_' || c.is_alphanumeric()))
        .map_or(0, |i| i + 1);
    (&s[start..], start == 0)
}

/// The text of a string literal without interpolations; `None` for an
/// f-string or a concatenation.
fn plain_string(src: &str, n: Node<'_>) -> Option<String> {
    if n.kind() != "string" {
        return None;
    }
    let mut out = String::new();
    let mut cursor = n.walk();
    for c in n.named_children(&mut cursor) {
        match c.kind() {
            "string_start" | "string_end" => {}
            "string_content" => out.push_str(text(src, c)),
            _ => return None,
        }
    }
    Some(out)
}

/// Follows the value of `n` (a class's name, or a name made from it by
/// `template`) up the tree to where it goes.
fn trace(src: &str, n: Node<'_>, template: Template, depth: usize, out: &mut Vec<Flow>) {
    let Some(p) = n.parent() else {
        return;
    };
    let line = n.start_position().row;
    let escapes = |out: &mut Vec<Flow>, at: Node<'_>| {
        if template.glued() {
            out.push(Flow::Escapes {
                line: at.start_position().row,
                template: template.clone(),
                code: first_line(text(src, at)),
            });
        }
    };
    match p.kind() {
        "parenthesized_expression" | "conditional_expression" | "boolean_operator" => {
            trace(src, p, template, depth, out)
        }
        // `"visit_%s" % (name,)`
        "tuple" if p.named_child_count() == 1 => trace(src, p, template, depth, out),
        "interpolation" => {
            // `f"visit_{…}"`: the whole string must be the name and the
            // identifier characters glued to it
            let Some(string) = p.parent() else { return };
            if p.child_by_field_name("type_conversion").is_some()
                || p.child_by_field_name("format_specifier").is_some()
            {
                return;
            }
            let mut before = String::new();
            let mut after = String::new();
            let mut seen = false;
            let mut cursor = string.walk();
            for c in string.named_children(&mut cursor) {
                match c.kind() {
                    "string_start" | "string_end" => {}
                    "string_content" if seen => after.push_str(text(src, c)),
                    "string_content" => before.push_str(text(src, c)),
                    "interpolation" if c.id() == p.id() => seen = true,
                    _ => {
                        return escapes(out, string); // another computed part
                    }
                }
            }
            let (prefix, whole_before) = trailing_ident(&before);
            let (suffix, whole_after) = leading_ident(&after);
            if !(whole_before && whole_after) {
                return; // text: a repr, a message
            }
            trace(src, string, template.around(prefix, suffix), depth, out);
        }
        "binary_operator" => {
            let (Some(left), Some(right), Some(op)) = (
                p.child_by_field_name("left"),
                p.child_by_field_name("right"),
                p.child_by_field_name("operator"),
            ) else {
                return;
            };
            let ours_left = left.id() == n.id();
            let other = if ours_left { right } else { left };
            match (op.kind(), plain_string(src, other)) {
                ("+", Some(s)) => {
                    let (piece, whole) = if ours_left {
                        leading_ident(&s)
                    } else {
                        trailing_ident(&s)
                    };
                    if !whole {
                        return;
                    }
                    let t = if ours_left {
                        template.around("", piece)
                    } else {
                        template.around(piece, "")
                    };
                    trace(src, p, t, depth, out);
                }
                ("%", Some(s)) if !ours_left => {
                    if let Some(t) = placeholder(&s, &["%s", "%r"], &template) {
                        trace(src, p, t, depth, out);
                    }
                }
                ("+", None) => {
                    let mut t = template.clone();
                    t.transform = Transform::Unknown;
                    trace(src, p, t, depth, out);
                }
                _ => {}
            }
        }
        "argument_list" | "keyword_argument" => {
            let (args, keyword) = if p.kind() == "keyword_argument" {
                let Some(args) = p.parent() else { return };
                let name = p.child_by_field_name("name").map(|k| text(src, k));
                (args, name)
            } else {
                (p, None)
            };
            let Some(call) = args.parent() else { return };
            let Some(function) = call.child_by_field_name("function") else {
                return;
            };
            let position = {
                let mut cursor = args.walk();
                let list: Vec<Node<'_>> = args.named_children(&mut cursor).collect();
                list.iter()
                    .position(|a| a.id() == n.id() || a.id() == p.id())
            };
            let f = text(src, function);
            if matches!(f, "getattr" | "hasattr" | "setattr" | "delattr") && position == Some(1) {
                let receiver = args.named_child(0).map(|r| text(src, r)).unwrap_or("");
                let class = matches!(receiver, "self" | "cls")
                    .then(|| enclosing_class(src, call))
                    .flatten();
                out.push(Flow::Lookup {
                    line: call.start_position().row,
                    class,
                    template,
                    call: first_line(text(src, call)),
                });
                return;
            }
            // `"visit_{}".format(…)`, `'_process_{cls}'.format(cls=…)`
            if function.kind() == "attribute"
                && function
                    .child_by_field_name("attribute")
                    .is_some_and(|a| text(src, a) == "format")
            {
                let format = function
                    .child_by_field_name("object")
                    .and_then(|o| plain_string(src, o));
                if let Some(format) = format {
                    let holders = match keyword {
                        Some(k) => vec![format!("{{{k}}}")],
                        None => vec!["{}".to_string(), format!("{{{}}}", position.unwrap_or(0))],
                    };
                    let holders: Vec<&str> = holders.iter().map(String::as_str).collect();
                    if let Some(t) = placeholder(&format, &holders, &template) {
                        trace(src, call, t, depth, out);
                    }
                    return;
                }
            }
            escapes(out, call);
        }
        "attribute"
            if p.child_by_field_name("object")
                .is_some_and(|o| o.id() == n.id()) =>
        {
            // `name.lower()`
            let Some(call) = p.parent().filter(|c| c.kind() == "call") else {
                return;
            };
            let method = p.child_by_field_name("attribute").map(|a| text(src, a));
            let mut t = template.clone();
            t.transform = match (method, template.transform) {
                (Some("lower" | "casefold"), Transform::Same | Transform::Lower) => {
                    Transform::Lower
                }
                (Some("upper"), Transform::Same | Transform::Upper) => Transform::Upper,
                (Some("strip"), same) => same,
                (Some("lower" | "casefold" | "upper" | "replace" | "title" | "capitalize"), _) => {
                    Transform::Unknown
                }
                _ => return, // `.startswith(…)`, `.split(…)`: not a name any more
            };
            trace(src, call, t, depth, out);
        }
        "subscript"
            if p.child_by_field_name("value")
                .is_some_and(|v| v.id() != n.id()) =>
        {
            out.push(Flow::Keyed {
                line,
                code: first_line(text(src, p)),
            });
        }
        "pair"
            if p.child_by_field_name("key")
                .is_some_and(|k| k.id() == n.id()) =>
        {
            out.push(Flow::Keyed {
                line,
                code: first_line(text(src, p)),
            });
        }
        "comparison_operator" => {
            // `sep in name`: a test of what the name holds, not of which
            let mut cursor = p.walk();
            let operands: Vec<Node<'_>> = p.named_children(&mut cursor).collect();
            if let Some(i) = operands
                .iter()
                .position(|o| o.id() == n.id())
                .filter(|&i| i > 0)
            {
                let between = &src[operands[i - 1].end_byte()..n.start_byte()];
                if matches!(between.trim(), "in" | "not in") {
                    return;
                }
            }
            let mut literals = Vec::new();
            let mut starts = Vec::new();
            let mut variable = false;
            let mut cursor = p.walk();
            for operand in p.named_children(&mut cursor) {
                if operand.id() == n.id() {
                    continue;
                }
                if let Some(s) = plain_string(src, operand) {
                    literals.push(s);
                } else if matches!(operand.kind(), "tuple" | "list" | "set") {
                    let mut c = operand.walk();
                    for e in operand.named_children(&mut c) {
                        match plain_string(src, e) {
                            Some(s) => literals.push(s),
                            None => variable = true,
                        }
                    }
                } else if let Some(start) = fixed_start(src, operand) {
                    starts.push(start);
                } else if operand.kind() != "none" {
                    variable = true;
                }
            }
            out.push(Flow::Compared {
                line,
                literals,
                starts,
                template: template.clone(),
            });
            if variable {
                out.push(Flow::Keyed {
                    line,
                    code: first_line(text(src, p)),
                });
            }
        }
        "assignment"
            if p.child_by_field_name("right")
                .is_some_and(|r| r.id() == n.id())
                && depth < 4 =>
        {
            let Some(left) = p.child_by_field_name("left") else {
                return;
            };
            if left.kind() != "identifier" {
                return escapes(out, p);
            }
            let name = text(src, left);
            let scope = enclosing_scope(p);
            let mut stack = vec![scope];
            while let Some(k) = stack.pop() {
                if k.kind() == "identifier"
                    && k.start_byte() >= p.end_byte()
                    && text(src, k) == name
                    && k.parent()
                        .and_then(|a| a.child_by_field_name("left"))
                        .is_none_or(|l| l.id() != k.id())
                {
                    trace(src, k, template.clone(), depth + 1, out);
                }
                let mut cursor = k.walk();
                stack.extend(k.named_children(&mut cursor));
            }
        }
        // `def get_internal_type(self): return self.__class__.__name__`:
        // callers may key a table by it (Django's `data_types["CharField"]`)
        "return_statement" if !template.glued() => out.push(Flow::Keyed {
            line,
            code: first_line(text(src, p)),
        }),
        _ => escapes(out, p),
    }
}

/// The template made by putting the name at one of `holders` in `format`,
/// when the rest of the format is identifier characters.
fn placeholder(format: &str, holders: &[&str], template: &Template) -> Option<Template> {
    let (at, holder) = holders
        .iter()
        .filter_map(|h| format.find(h).map(|i| (i, *h)))
        .min()?;
    let (before, whole_before) = trailing_ident(&format[..at]);
    let (after, whole_after) = leading_ident(&format[at + holder.len()..]);
    (whole_before && whole_after).then(|| template.around(before, after))
}

/// The function (or module) `n` is in.
fn enclosing_scope(n: Node<'_>) -> Node<'_> {
    let mut k = n;
    while let Some(p) = k.parent() {
        if matches!(p.kind(), "function_definition" | "lambda") {
            return p;
        }
        k = p;
    }
    k
}

/// The qualified name (within its module) of the class whose method holds
/// `n`, with the module's name: `None` for a function outside a class or
/// a class inside a function.
fn enclosing_class(src: &str, n: Node<'_>) -> Option<String> {
    let mut names = Vec::new();
    let mut k = n;
    let mut in_method = false;
    while let Some(p) = k.parent() {
        match p.kind() {
            "function_definition" if names.is_empty() && !in_method => in_method = true,
            "function_definition" => return None,
            "class_definition" => {
                names.push(text(src, p.child_by_field_name("name")?).to_string());
            }
            _ => {}
        }
        k = p;
    }
    (in_method && !names.is_empty()).then(|| {
        names.reverse();
        names.join(".")
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

trait PathLine {
    fn path_line(&self) -> String;
}

impl PathLine for Location {
    fn path_line(&self) -> String {
        format!("{}:{}", self.path, self.position.line)
    }
}
