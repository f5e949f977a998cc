//! Rename a parameter (`Rename_Param`), change a signature (`Signature`),
//! and update every call site.
//!
//! Both start from the function a name denotes ([`target::lookup`]: the
//! current file first, then the project) and, for a method, its overrides
//! in project subclasses, which change with it so that they stay
//! compatible. The call sites are the index's certain callers of each;
//! every file with call sites is read and parsed once and the call node
//! found at each caller's position. Uses that cannot be followed — possible
//! callers (a receiver of unknown type), the function passed as a value,
//! calls that forward `*args`/`**kwargs` where the change needs to see the
//! arguments — are left alone and listed with why.
//!
//! Edits are [`edits::Rewrite`]s: argument and parameter lists are rebuilt
//! from their entries' texts ([`layout`]), so comments and line breaks
//! they do not need to change stay, and a call inside an argument of
//! another rewritten call (or a recursive call in the renamed body) is
//! rewritten too.

mod calls;
mod change;
mod edits;
mod layout;
mod params;
mod target;

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::index::Location;
use crate::analysis::scope::{Resolution, ScopeKind, Scopes};
use crate::change::WorkspaceChange;
use crate::choices::Choices;

use super::{LeftAlone, Project, RefactorError, RefactorFailure, Refactored, Refactoring, Summary};
use calls::{Call, CallArgs};
use edits::{Piece, Rewrite};
use params::Param;
use target::{Files, Function, Parsed};

pub(super) fn compute(
    project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    match request {
        Refactoring::RenameParam {
            function,
            param,
            new_name,
        } => rename_param(project, function, param, new_name),
        Refactoring::Signature {
            function,
            old_params,
            new_params,
        } => change::compute(project, function, old_params, new_params),
        _ => Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!(
                "Refactor {} is not a signature refactor",
                request.spec_name()
            ),
        )),
    }
}

/// `Refactor Rename_Param <function> <param> <new>`.
fn rename_param(
    project: &Project<'_>,
    function: &str,
    param: &str,
    new_name: &str,
) -> Result<Refactored, RefactorError> {
    check_identifier(new_name)?;
    let mut files = Files::new(project);
    let definitions = target::lookup(project, &mut files, function, true)?;
    // of several definitions (overloads), the first that has the parameter
    let mut with_param = None;
    for d in &definitions {
        let current = parameters(&files, d)?;
        if let Some(p) = current
            .iter()
            .find(|p| p.name == param && !p.kind.is_marker())
        {
            with_param = Some((d.clone(), p.clone()));
            break;
        }
    }
    let Some((target, p)) = with_param else {
        let first = &definitions[0];
        return Err(no_such_parameter(first, param, &parameters(&files, first)?));
    };
    if param == new_name {
        return Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!(
                "The parameter {param} of {} is already named {new_name}",
                target.qualified
            ),
        ));
    }
    let by_keyword = p.kind.takes_keyword();
    let mut work = Work::default();
    let mut family = family(project, &mut files, &target, &mut work)?;
    for d in definitions {
        if d.range != target.range {
            family.push(d);
        }
    }
    with_stubs(&mut files, &mut family)?;
    for member in &family {
        let current = parameters(&files, member)?;
        if !current.iter().any(|p| p.name == param) {
            work.left_alone(
                member_location(&files, member),
                format!(
                    "{} has no parameter {param}: not renamed there",
                    member.qualified
                ),
            );
            continue;
        }
        let renames = [(param.to_string(), new_name.to_string())];
        rename_in_body(&files, member, &current, &renames, &mut work)?;
    }
    let mut callers = 0;
    // a positional-only or `*args` parameter is never passed by name
    if by_keyword {
        let sites = collect_sites(project, &mut files, &family, &mut work)?;
        // A call through an alias passes the parameter positionally as a
        // rule: those keep working, so they are only reported.
        for site in &sites.values {
            work.left_alone(
                site.clone(),
                "used as a value: calls through it are not followed".to_string(),
            );
        }
        note_wrappers(&files, &family, &mut work);
        for call in &sites.calls {
            if rename_keyword(&call.args, &call.site, param, new_name, &mut work)? {
                callers += 1;
            }
            if passes_double_star(&call.args) {
                work.left_alone(
                    call.site.clone(),
                    format!("passes **kwargs: a key '{param}' in it is not renamed"),
                );
            }
        }
        for (site, args) in &sites.partials {
            if rename_keyword(args, site, param, new_name, &mut work)? {
                callers += 1;
            }
        }
    }
    work.finish(
        &files,
        Summary::SignatureChanged {
            function: target.qualified.clone(),
            callers,
        },
    )
}

/// The edits and notes a refactor collects, per file.
#[derive(Default)]
struct Work {
    rewrites: BTreeMap<String, Vec<Rewrite>>,
    left_alone: Vec<LeftAlone>,
    /// Where a class of the method's hierarchy is named (`Base.m(obj)`
    /// calls through the class).
    class_mentions: BTreeSet<Location>,
    /// The renamed parameters' names in comments and strings of the
    /// function (its docstring's `:param timeout:`): not changed.
    mentions: Vec<Location>,
}

impl Work {
    fn rewrite(&mut self, path: &str, rewrite: Rewrite) {
        self.rewrites
            .entry(path.to_string())
            .or_default()
            .push(rewrite);
    }

    fn left_alone(&mut self, site: Location, why: String) {
        if !self
            .left_alone
            .iter()
            .any(|l| l.site == site && l.why == why)
        {
            self.left_alone.push(LeftAlone { site, why });
        }
    }

    /// One change of every file's rewrites.
    fn finish(mut self, files: &Files<'_>, summary: Summary) -> Result<Refactored, RefactorError> {
        let mut change = WorkspaceChange::new();
        for (path, rewrites) in std::mem::take(&mut self.rewrites) {
            let file = files.get(&path);
            let edits = edits::to_edits(file.text(), rewrites).map_err(|e| {
                RefactorError::new(
                    RefactorFailure::Refused,
                    format!("Cannot change {path} safely: {e}"),
                )
            })?;
            let part =
                WorkspaceChange::edit(file.source.path.clone(), file.source.base.clone(), edits);
            change = change.union(part).map_err(|e| {
                RefactorError::new(
                    RefactorFailure::Refused,
                    format!("Cannot change {path} safely: {e}"),
                )
            })?;
        }
        self.left_alone.sort_by(|a, b| a.site.cmp(&b.site));
        self.mentions.sort();
        self.mentions.dedup();
        Ok(Refactored {
            change,
            summary,
            left_alone: self.left_alone,
            mentions: self.mentions,
            names_swapped: Default::default(),
            data_strings: Vec::new(),
            also_renamed: Vec::new(),
        })
    }
}

fn check_identifier(name: &str) -> Result<(), RefactorError> {
    if crate::analysis::identifier::is_identifier(name) {
        Ok(())
    } else {
        Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("'{name}' is not a valid parameter name: use a Python identifier that is not a keyword"),
        ))
    }
}

fn no_such_parameter(function: &Function, param: &str, current: &[Param]) -> RefactorError {
    let names: Vec<String> = current
        .iter()
        .filter(|p| !p.kind.is_marker())
        .map(|p| p.name.clone())
        .collect();
    let choices = Choices::ranked(param, names);
    RefactorError::new(
        RefactorFailure::NotFound,
        format!(
            "Not found: parameter '{param}' of {}. Parameters: {choices}",
            function.qualified
        ),
    )
    .with_candidates(choices.shown)
}

/// The current parameters of a function (its file loaded).
fn parameters(files: &Files<'_>, function: &Function) -> Result<Vec<Param>, RefactorError> {
    let file = files.get(&function.path);
    let node = function
        .node(file)
        .and_then(|n| n.child_by_field_name("parameters"))
        .ok_or_else(|| stale(function))?;
    Ok(params::of_node(file.text(), node))
}

fn stale(function: &Function) -> RefactorError {
    RefactorError::new(
        RefactorFailure::Stale,
        format!(
            "{} is not where the index has it: the index is behind {}",
            function.qualified, function.path
        ),
    )
}

fn member_location(files: &Files<'_>, function: &Function) -> Location {
    let file = files.get(&function.path);
    Location::point(function.path.clone(), file.position(function.range.start))
}

/// The function and, for a method, its overrides in project subclasses.
/// A method that itself overrides one of a project base class is refused:
/// the change belongs to the base, where it reaches every override.
/// Constructors are the exception: a subclass's `__init__` need not accept
/// what its base's does (it is called through its own class).
fn family(
    project: &Project<'_>,
    files: &mut Files<'_>,
    target: &Function,
    work: &mut Work,
) -> Result<Vec<Function>, RefactorError> {
    let mut family = vec![target.clone()];
    let Some(class) = &target.class else {
        return Ok(family);
    };
    if CONSTRUCTORS.contains(&target.name.as_str()) {
        work.class_mentions = target::hierarchy(project, files, class)?.class_mentions;
        return Ok(family);
    }
    if let Some(base) = target::overridden(project, files, target)? {
        return Err(RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "{} overrides {base}: change {base} instead, which changes its overrides with it",
                target.qualified
            ),
        ));
    }
    let hierarchy = target::hierarchy(project, files, class)?;
    family.extend(target::overrides(project, files, &hierarchy, &target.name)?);
    work.class_mentions = hierarchy.class_mentions;
    Ok(family)
}

/// Calls of a decorated function go through its decorator, which may
/// take other arguments than the function: said, at each definition.
fn note_wrappers(files: &Files<'_>, family: &[Function], work: &mut Work) {
    for member in family {
        if let Some(d) = member.wrapped_by.first() {
            work.left_alone(
                member_location(files, member),
                format!("decorated with @{d}: the calls were updated as if it passed them through unchanged"),
            );
        }
    }
}

/// Adds to `family` their definitions in stubs (`.pyi`) next to them.
fn with_stubs(files: &mut Files<'_>, family: &mut Vec<Function>) -> Result<(), RefactorError> {
    let mut stubs = Vec::new();
    for member in family.iter() {
        for stub in target::stub_functions(files, member)? {
            if !stubs
                .iter()
                .any(|s: &Function| s.path == stub.path && s.range == stub.range)
            {
                stubs.push(stub);
            }
        }
    }
    family.extend(stubs);
    Ok(())
}

/// Methods whose overrides need not stay compatible.
const CONSTRUCTORS: &[&str] = &["__init__", "__new__", "__init_subclass__"];

/// The calls, `functools.partial`s and other uses of a family of functions.
struct Sites {
    calls: Vec<Call>,
    partials: Vec<(Location, CallArgs)>,
    /// Where the function is used as a value (`pad = _padleft`): calls
    /// through it cannot be followed.
    values: Vec<Location>,
}

fn collect_sites(
    project: &Project<'_>,
    files: &mut Files<'_>,
    family: &[Function],
    work: &mut Work,
) -> Result<Sites, RefactorError> {
    let mut certain: BTreeSet<Location> = BTreeSet::new();
    let mut possible: BTreeSet<Location> = BTreeSet::new();
    let mut values: BTreeSet<Location> = BTreeSet::new();
    let names: BTreeSet<&str> = family.iter().map(|f| f.qualified.as_str()).collect();
    for name in names {
        let callers = project
            .index
            .find_callers(name)
            .map_err(|e| RefactorError::new(RefactorFailure::NotFound, e.to_string()))?;
        certain.extend(callers.certain.into_iter().map(|c| c.location));
        possible.extend(callers.possible.into_iter().map(|c| c.location));
        let references = project
            .index
            .find_references(name)
            .map_err(|e| RefactorError::new(RefactorFailure::NotFound, e.to_string()))?;
        values.extend(references.certain);
    }
    let receiver = family
        .first()
        .map(|f| f.receiver)
        .unwrap_or(target::Receiver::None);
    let mut sites = Sites {
        calls: Vec::new(),
        partials: Vec::new(),
        values: Vec::new(),
    };
    for site in &certain {
        let file = files.load(&site.path)?;
        match calls::call_at(file, site, receiver, &work.class_mentions) {
            Ok(call) => sites.calls.push(call),
            Err(why) => work.left_alone(site.clone(), why.to_string()),
        }
    }
    for site in possible.difference(&certain) {
        work.left_alone(
            site.clone(),
            "a possible call (the receiver's type is not known): not changed".to_string(),
        );
    }
    for site in values.difference(&certain) {
        let file = files.load(&site.path)?;
        if calls::is_import(file, site) {
            continue;
        }
        let imports_partial = project.index.file_index(&site.path).is_some_and(|f| {
            f.imports
                .iter()
                .any(|i| i.module == "functools" && i.name.as_deref() == Some("partial"))
        });
        match calls::partial_at(file, site, imports_partial) {
            Some(args) => sites.partials.push((site.clone(), args)),
            None => sites.values.push(site.clone()),
        }
    }
    Ok(sites)
}

fn passes_double_star(args: &CallArgs) -> bool {
    args.args
        .iter()
        .any(|a| a.kind == calls::ArgKind::DoubleStar)
}

/// Renames the keyword `old` of a call's arguments to `new`; true when it
/// was there. A call that already passes `new` is a conflict.
fn rename_keyword(
    args: &CallArgs,
    site: &Location,
    old: &str,
    new: &str,
    work: &mut Work,
) -> Result<bool, RefactorError> {
    if args
        .args
        .iter()
        .any(|a| a.keyword.as_ref().is_some_and(|(k, _)| k == new))
    {
        return Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!("Name conflict exists: the call at {site} already passes {new}="),
        ));
    }
    let mut renamed = false;
    for arg in &args.args {
        if let Some((k, range)) = &arg.keyword {
            if k == old {
                work.rewrite(&site.path, Rewrite::text(range.clone(), new));
                renamed = true;
            }
        }
    }
    Ok(renamed)
}

/// Renames parameters (`renames`: old → new) of `function` in its
/// parameter list and wherever its body (closures included) uses them,
/// after checking that each new name collides with nothing there.
fn rename_in_body(
    files: &Files<'_>,
    function: &Function,
    current: &[Param],
    renames: &[(String, String)],
    work: &mut Work,
) -> Result<(), RefactorError> {
    let file = files.get(&function.path);
    let scopes = file.scopes();
    let scope = scopes
        .scope_of_definition(function.range.start)
        .ok_or_else(|| stale(function))?;
    let at = |offset: usize| format!("{}:{}", function.path, file.position(offset));
    for (old, new) in renames {
        if let Some(other) = current
            .iter()
            .find(|p| p.name == *new && !renames.iter().any(|(o, _)| o == new))
        {
            return Err(RefactorError::new(
                RefactorFailure::NameConflict,
                format!(
                    "Name conflict exists: {} already has a parameter {} at {}",
                    function.qualified,
                    other.name,
                    at(other.name_range.start)
                ),
            ));
        }
        conflicts(scopes, scope, function, old, new, &at)?;
        if scopes.scopes[scope].uses_locals {
            work.left_alone(
                member_location(files, function),
                format!(
                    "{} reads locals()/vars(): a use of {old} through them is not renamed",
                    function.qualified
                ),
            );
        }
        if let Some(node) = function.node(file) {
            work.mentions
                .extend(word_mentions(file, node, old, &function.path));
        }
        for b in scopes.bindings_of(scope, old) {
            work.rewrite(&function.path, Rewrite::text(b.range.clone(), new.clone()));
        }
        for r in scopes.references_to(scope, old) {
            work.rewrite(&function.path, Rewrite::text(r.range.clone(), new.clone()));
        }
    }
    Ok(())
}

/// Why renaming `old` (bound in `scope`) to `new` would change what a name
/// means, if it would.
fn conflicts(
    scopes: &Scopes,
    scope: usize,
    function: &Function,
    old: &str,
    new: &str,
    at: &dyn Fn(usize) -> String,
) -> Result<(), RefactorError> {
    let conflict = |why: String| {
        Err(RefactorError::new(
            RefactorFailure::NameConflict,
            format!("Name conflict exists: {why}"),
        ))
    };
    let declared = &scopes.scopes[scope];
    if declared
        .globals
        .iter()
        .chain(&declared.nonlocals)
        .any(|n| n == new)
    {
        return conflict(format!(
            "{} declares {new} global or nonlocal",
            function.qualified
        ));
    }
    if let Some(b) = scopes.bindings_of(scope, new).next() {
        return conflict(format!(
            "{new} is already a local of {} at {}",
            function.qualified,
            at(b.range.start)
        ));
    }
    for (i, s) in scopes.scopes.iter().enumerate() {
        if i != scope && scopes.is_within(i, scope) && s.nonlocals.iter().any(|n| n == old) {
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "A nested function of {} declares nonlocal {old} (at {}): rename it by hand",
                    function.qualified,
                    at(s.range.start)
                ),
            ));
        }
    }
    // a nested scope that binds `new` where `old` is read would take it over
    for r in scopes.references_to(scope, old) {
        let mut s = r.scope;
        while s != scope {
            let kind = scopes.scopes[s].kind;
            if (s == r.scope || kind != ScopeKind::Class)
                && scopes.bindings_of(s, new).next().is_some()
            {
                return conflict(format!(
                    "{new} is bound in a nested scope of {} where {old} is read, at {}",
                    function.qualified,
                    at(r.range.start)
                ));
            }
            match scopes.scopes[s].parent {
                Some(p) => s = p,
                None => break,
            }
        }
    }
    // the body reading an outer `new` would read the parameter instead
    for r in scopes
        .references
        .iter()
        .filter(|r| r.name == new && scopes.is_within(r.scope, scope))
    {
        let outer = match r.resolution {
            Resolution::Scope(s) => !scopes.is_within(s, scope),
            _ => true,
        };
        if outer {
            return conflict(format!(
                "{} reads {new} from outside at {}: the parameter would hide it",
                function.qualified,
                at(r.range.start)
            ));
        }
    }
    Ok(())
}

/// `name` as a whole word in the comments and strings inside `node`.
fn word_mentions(
    file: &Parsed,
    node: tree_sitter::Node<'_>,
    name: &str,
    path: &str,
) -> Vec<Location> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "comment" | "string_content") {
            let range = file.chars(n);
            let text: Vec<char> = file.slice(range.clone()).chars().collect();
            let word: Vec<char> = name.chars().collect();
            let is_word = |c: char| c == '_' || c.is_alphanumeric();
            let mut i = 0;
            while i + word.len() <= text.len() {
                let hit = text[i..i + word.len()] == word[..]
                    && (i == 0 || !is_word(text[i - 1]))
                    && text.get(i + word.len()).is_none_or(|&c| !is_word(c));
                if hit {
                    let start = range.start + i;
                    out.push(Location {
                        path: path.to_string(),
                        position: file.position(start),
                        end: file.position(start + word.len()),
                    });
                    i += word.len();
                } else {
                    i += 1;
                }
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

/// A piece list that writes `name=` before the value of an argument.
fn keyword_pieces(name: &str, value: std::ops::Range<usize>) -> Vec<Piece> {
    vec![Piece::Text(format!("{name}=")), Piece::Keep(value)]
}

#[cfg(test)]
#[path = "tests/signature.rs"]
mod tests;
