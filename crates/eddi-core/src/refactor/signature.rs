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
mod forwarding;
mod layout;
mod params;
mod target;

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::index::Location;
use crate::analysis::scope::{Resolution, ScopeKind, Scopes};
use crate::change::WorkspaceChange;
use crate::choices::Choices;

use super::{
    Evidence, LeftAlone, Project, RefactorError, RefactorFailure, Refactored, Refactoring,
    SitePolicy, Summary, Unproven,
};
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
            include_text,
            sites,
        } => {
            let work = Work {
                policy: *sites,
                include_text: *include_text,
                ..Work::default()
            };
            rename_param(project, function, param, new_name, work)
        }
        Refactoring::Signature {
            function,
            old_params,
            new_params,
            sites,
        } => {
            let work = Work {
                policy: *sites,
                ..Work::default()
            };
            change::compute(project, function, old_params, new_params, work)
        }
        _ => Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!(
                "Refactor {} is not a signature refactor",
                request.spec_name()
            ),
        )),
    }
}

/// `Refactor Rename_Param <function> <param> <new> [Include Text] [Only Proven]`.
fn rename_param(
    project: &Project<'_>,
    function: &str,
    param: &str,
    new_name: &str,
    mut work: Work,
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
        )
        .at(crate::refactor::Argument::NewName));
    }
    let by_keyword = p.kind.takes_keyword();
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
        let keyword = Keyword {
            old: param,
            new: new_name,
        };
        let mut followed = BTreeSet::new();
        for call in &sites.calls {
            callers += keyword.rename_in(project, &mut files, call, &mut followed, &mut work)?;
        }
        for call in &sites.possible {
            keyword.possible(
                call,
                "a possible call (the receiver's type is not known)",
                &mut work,
            );
        }
        for (site, args) in &sites.partials {
            if rename_keyword(args, site, param, new_name, &mut work)? {
                callers += 1;
            }
        }
    }
    let what = format!("rename parameter {param} of {}", target.qualified);
    work.finish(
        &files,
        &what,
        Summary::SignatureChanged {
            function: target.qualified.clone(),
            callers,
            followed: Vec::new(),
        },
    )
}

/// A keyword that `Rename_Param` renames in calls.
struct Keyword<'a> {
    old: &'a str,
    new: &'a str,
}

impl Keyword<'_> {
    /// Renames the keyword in a call of the target and, where the call
    /// passes its function's `**kwargs` on, in that forwarder's callers
    /// (transitively): how many calls changed. A `**` argument it cannot
    /// see into is a possible site.
    fn rename_in(
        &self,
        project: &Project<'_>,
        files: &mut Files<'_>,
        call: &Call,
        followed: &mut BTreeSet<String>,
        work: &mut Work,
    ) -> Result<usize, RefactorError> {
        let mut changed = usize::from(rename_keyword(
            &call.args, &call.site, self.old, self.new, work,
        )?);
        if !passes_double_star(&call.args) {
            return Ok(changed);
        }
        match forwarding::forwarder(project, files, call)? {
            Some(forwarder) if forwarder.double_star.is_some() => {
                changed += self.follow(project, files, call, &forwarder, followed, work)?;
            }
            _ => {
                let splat = double_star_text(&files.get(&call.site.path), &call.args);
                work.possible(
                    call.site.clone(),
                    format!(
                        "passes {splat}: a key '{}' in it cannot be renamed",
                        self.old
                    ),
                );
            }
        }
        Ok(changed)
    }

    /// The callers of the forwarder of `call` (which passes its `**kwargs`
    /// on) that pass the keyword: renamed, transitively.
    fn follow(
        &self,
        project: &Project<'_>,
        files: &mut Files<'_>,
        call: &Call,
        forwarder: &forwarding::Forwarder,
        followed: &mut BTreeSet<String>,
        work: &mut Work,
    ) -> Result<usize, RefactorError> {
        let mut changed = 0;
        let Some(kwargs) = forwarder.double_star.clone() else {
            return Ok(changed);
        };
        let name = forwarder.function.qualified.clone();
        // the forwarder's own parameter takes its callers' `old=`
        if forwarder.takes_keyword(self.old) {
            return Ok(changed);
        }
        if forwarder.literals.contains(self.old) {
            work.possible(
                call.site.clone(),
                format!(
                    "{name} reads '{}' from **{kwargs} before passing it on",
                    self.old
                ),
            );
            return Ok(changed);
        }
        work.followed(
            call.site.clone(),
            format!("passes on **{kwargs} of {name}: its callers were followed"),
        );
        if !followed.insert(format!("{name} {}", self.old)) {
            return Ok(changed);
        }
        let callers = project.index.find_callers(&name).map_err(|e| {
            RefactorError::new(RefactorFailure::NotFound, e.to_string())
                .at(crate::refactor::Argument::Symbol)
        })?;
        for c in &callers.certain {
            let file = files.load(&c.location.path)?;
            if let Ok(outer) = calls::call_at(
                &file,
                &c.location,
                forwarder.function.receiver,
                &BTreeSet::new(),
            ) {
                changed += self.rename_in(project, files, &outer, followed, work)?;
            }
        }
        let classes = forwarder_classes(project, files, &forwarder.function)?;
        for c in &callers.possible {
            let file = files.load(&c.location.path)?;
            if unrelated_super(project, &file, &c.location, &classes) {
                continue;
            }
            if let Ok(outer) = calls::call_at(
                &file,
                &c.location,
                forwarder.function.receiver,
                &BTreeSet::new(),
            ) {
                let why = format!("a possible call of {name} (which passes **{kwargs} on)");
                self.possible(&outer, &why, work);
            }
        }
        Ok(changed)
    }

    /// A call that may be of the target: possible when it passes the
    /// keyword (or a `**` that may hold it); any other is not changed by
    /// the rename.
    fn possible(&self, call: &Call, why: &str, work: &mut Work) {
        let passes = call
            .args
            .args
            .iter()
            .any(|a| a.keyword.as_ref().is_some_and(|(k, _)| k == self.old));
        if passes {
            work.possible(call.site.clone(), format!("{why} passes {}=", self.old));
        } else if passes_double_star(&call.args) {
            work.possible(
                call.site.clone(),
                format!("{why} passes ** that may hold '{}'", self.old),
            );
        }
    }
}

/// The classes whose `super()` calls may reach a method of `function`'s
/// class: its hierarchy and their bases (empty for a function).
fn forwarder_classes(
    project: &Project<'_>,
    files: &mut Files<'_>,
    function: &Function,
) -> Result<(BTreeSet<String>, BTreeSet<String>), RefactorError> {
    let mut scratch = Work::default();
    if let Some(class) = &function.class {
        let hierarchy = target::hierarchy(project, files, class)?;
        scratch.classes = hierarchy.subclasses.into_iter().collect();
        scratch.classes.insert(class.clone());
        with_mixins(project, files, &mut scratch)?;
    }
    Ok((scratch.classes, scratch.mixins))
}

/// The site is a `super().m(…)` call in a class whose `super()` cannot
/// reach the hierarchy (`classes`, `mixins`: see [`Work::classes`]): an
/// exception's or a metaclass's constructor calling its own base's.
fn unrelated_super(
    project: &Project<'_>,
    file: &Parsed,
    site: &Location,
    (classes, mixins): &(BTreeSet<String>, BTreeSet<String>),
) -> bool {
    forwarding::super_call_class(project, file, site).is_some_and(|class| {
        let last = class.rsplit('.').next().unwrap_or(&class);
        !classes.contains(&class) && !mixins.contains(last)
    })
}

/// `**options`, as the call writes it.
fn double_star_text(file: &Parsed, args: &CallArgs) -> String {
    args.args
        .iter()
        .find(|a| a.kind == calls::ArgKind::DoubleStar)
        .map(|a| params::squeeze(&file.slice(a.range.clone())))
        .unwrap_or_else(|| "**kwargs".to_string())
}

/// The edits and notes a refactor collects, per file.
#[derive(Default)]
struct Work {
    /// What to do when a call may break and cannot be rewritten.
    policy: SitePolicy,
    /// Rename the parameter in the function's strings and comments too.
    include_text: bool,
    rewrites: BTreeMap<String, Vec<Rewrite>>,
    left_alone: Vec<LeftAlone>,
    /// Calls the change may break and cannot rewrite (a `*args`/`**kwargs`
    /// it cannot see into, a receiver of unknown type): they refuse the
    /// refactor unless `Only Proven`.
    possible: Vec<LeftAlone>,
    /// Forwarding calls whose forwarder's callers were followed.
    followed: Vec<LeftAlone>,
    /// The classes of the target's hierarchy (full names): a
    /// `super().m()` in any other class is not a call of it.
    classes: BTreeSet<String>,
    /// The last names of their bases (mixins among them).
    mixins: BTreeSet<String>,
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

    fn possible(&mut self, site: Location, why: String) {
        if !self.possible.iter().any(|l| l.site == site) {
            self.possible.push(LeftAlone { site, why });
        }
    }

    fn followed(&mut self, site: Location, why: String) {
        if !self.followed.iter().any(|l| l.site == site) {
            self.followed.push(LeftAlone { site, why });
        }
    }

    /// One change of every file's rewrites. Possible sites refuse it
    /// (`what`: "change the signature of f") unless `Only Proven`, which
    /// lists them as where the project may be broken.
    fn finish(
        mut self,
        files: &Files<'_>,
        what: &str,
        mut summary: Summary,
    ) -> Result<Refactored, RefactorError> {
        self.possible.sort_by(|a, b| a.site.cmp(&b.site));
        let mut evidence = Evidence::default();
        // the sites where `Only Proven` may leave the project broken
        let mut broken = Vec::new();
        if !self.possible.is_empty() {
            if self.policy == SitePolicy::Refuse {
                return Err(self.refusal(what));
            }
            // Only Proven: the reply says where the project may be broken
            for p in std::mem::take(&mut self.possible) {
                evidence.possible.push(Unproven {
                    site: p.site.clone(),
                    why: p.why.clone(),
                });
                broken.push(LeftAlone {
                    site: p.site,
                    why: format!("may be broken: {}", p.why),
                });
            }
        }
        if let Summary::SignatureChanged { followed, .. } = &mut summary {
            self.followed.sort_by(|a, b| a.site.cmp(&b.site));
            *followed = self.followed.iter().map(|f| f.site.clone()).collect();
        }
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
        // where the project may be broken first
        broken.sort_by(|a, b| a.site.cmp(&b.site));
        self.left_alone.sort_by(|a, b| a.site.cmp(&b.site));
        broken.append(&mut self.left_alone);
        self.left_alone = broken;
        self.mentions.sort();
        self.mentions.dedup();
        Ok(Refactored {
            change,
            summary,
            evidence,
            left_alone: self.left_alone,
            mentions: self.mentions,
            names_swapped: Default::default(),
            data_strings: Vec::new(),
            also_renamed: Vec::new(),
            assumed: Vec::new(),
        })
    }
}

/// `Cannot <what>: 2 calls it cannot rewrite: a.py:3:4 (why), …; nothing
/// was changed. Only Proven …`.
impl Work {
    fn refusal(&self, what: &str) -> RefactorError {
        const SHOWN: usize = 8;
        let mut shown: Vec<String> = self
            .possible
            .iter()
            .take(SHOWN)
            .map(|p| format!("{} ({})", p.site, p.why))
            .collect();
        if self.possible.len() > SHOWN {
            shown.push(format!("… ({} more)", self.possible.len() - SHOWN));
        }
        let n = self.possible.len();
        RefactorError::new(
            RefactorFailure::Refused,
            format!(
                "Cannot {what}: {n} {} it cannot rewrite: {}; nothing was changed. Only Proven changes only the calls it can prove (the project may then be broken at those sites)",
                if n == 1 { "call" } else { "calls" },
                shown.join(", ")
            ),
        )
    }
}

fn check_identifier(name: &str) -> Result<(), RefactorError> {
    if crate::analysis::identifier::is_identifier(name) {
        Ok(())
    } else {
        Err(RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!("'{name}' is not a valid parameter name: use a Python identifier that is not a keyword"),
        )
        .at(crate::refactor::Argument::NewName))
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
    .at(crate::refactor::Argument::Param)
    .with_candidates(choices.shown)
}

/// The current parameters of a function (its file loaded).
fn parameters(files: &Files<'_>, function: &Function) -> Result<Vec<Param>, RefactorError> {
    let file = files.get(&function.path);
    let node = function
        .node(&file)
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
        let hierarchy = target::hierarchy(project, files, class)?;
        work.classes = hierarchy.subclasses.into_iter().collect();
        work.classes.insert(class.clone());
        work.class_mentions = hierarchy.class_mentions;
        with_mixins(project, files, work)?;
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
    work.classes = hierarchy.subclasses.iter().cloned().collect();
    work.classes.insert(class.clone());
    work.class_mentions = hierarchy.class_mentions;
    with_mixins(project, files, work)?;
    Ok(family)
}

/// The bases of the hierarchy's classes join it for `super()` calls: in
/// `class F(Mixin, Field)`, `Mixin`'s `super().__init__()` reaches
/// `Field.__init__`.
fn with_mixins(
    project: &Project<'_>,
    files: &mut Files<'_>,
    work: &mut Work,
) -> Result<(), RefactorError> {
    let mut bases = BTreeSet::new();
    for class in &work.classes {
        bases.extend(target::base_names(project, files, class)?);
    }
    work.mixins = bases;
    Ok(())
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
    /// Calls that may be of the function (a receiver of unknown type).
    possible: Vec<Call>,
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
        let callers = project.index.find_callers(name).map_err(|e| {
            RefactorError::new(RefactorFailure::NotFound, e.to_string())
                .at(crate::refactor::Argument::Symbol)
        })?;
        certain.extend(callers.certain.into_iter().map(|c| c.location));
        possible.extend(callers.possible.into_iter().map(|c| c.location));
        let references = project.index.find_references(name).map_err(|e| {
            RefactorError::new(RefactorFailure::NotFound, e.to_string())
                .at(crate::refactor::Argument::Symbol)
        })?;
        values.extend(references.certain);
    }
    let receiver = family
        .first()
        .map(|f| f.receiver)
        .unwrap_or(target::Receiver::None);
    let mut sites = Sites {
        calls: Vec::new(),
        possible: Vec::new(),
        partials: Vec::new(),
        values: Vec::new(),
    };
    for site in &certain {
        let file = files.load(&site.path)?;
        match calls::call_at(&file, site, receiver, &work.class_mentions) {
            Ok(call) => sites.calls.push(call),
            Err(why) => work.left_alone(site.clone(), why.to_string()),
        }
    }
    for site in possible.difference(&certain) {
        let file = files.load(&site.path)?;
        // `super().__init__(…)` in a class outside the hierarchy (an
        // exception, a metaclass) calls another class's method
        let hierarchy = (work.classes.clone(), work.mixins.clone());
        if unrelated_super(project, &file, site, &hierarchy) {
            continue;
        }
        match calls::call_at(&file, site, receiver, &work.class_mentions) {
            Ok(call) => sites.possible.push(call),
            Err(_) => work.possible(
                site.clone(),
                "a possible call (the receiver's type is not known)".to_string(),
            ),
        }
    }
    for site in values.difference(&certain) {
        let file = files.load(&site.path)?;
        if calls::is_import(&file, site) {
            continue;
        }
        let imports_partial = project.index.file_index(&site.path).is_some_and(|f| {
            f.imports
                .iter()
                .any(|i| i.module == "functools" && i.name.as_deref() == Some("partial"))
        });
        match calls::partial_at(&file, site, imports_partial) {
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
        )
        .at(crate::refactor::Argument::NewName));
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
            )
            .at(crate::refactor::Argument::NewName));
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
        if let Some(node) = function.node(&file) {
            for range in word_mentions(&file, node, old) {
                if work.include_text {
                    work.rewrite(&function.path, Rewrite::text(range, new.clone()));
                } else {
                    work.mentions.push(Location {
                        path: function.path.clone(),
                        position: file.position(range.start),
                        end: file.position(range.end),
                    });
                }
            }
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
        )
        .at(crate::refactor::Argument::NewName))
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

/// `name` as a whole word in the comments and strings inside `node`
/// (char ranges).
fn word_mentions(
    file: &Parsed,
    node: tree_sitter::Node<'_>,
    name: &str,
) -> Vec<std::ops::Range<usize>> {
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
                    out.push(start..start + word.len());
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
