//! `Refactor Signature <f>(<old params>) <f>(<new params>)`: the old list
//! must be the current one; the new one says what each parameter becomes.
//!
//! A new entry is the old parameter of the same name; an entry with a new
//! name standing where an old parameter left the list (the same place
//! among the parameters) renames it; any other new name is added and any
//! old one missing is removed. An added parameter needs what existing
//! callers give it: a default (`timeout=30`: callers unchanged) or a value
//! every call passes, written `timeout:=30` (the `def` gets `timeout`, each
//! call `timeout=30`). Every call site is then rebuilt: arguments bound to
//! the old parameters as Python binds them, and passed to the new ones —
//! positionally while the positions line up, by keyword after a gap or
//! where the caller wrote a keyword.

use std::collections::BTreeSet;

use super::calls::{self, ArgKind, Call, CallArgs, Via};
use super::edits::{Piece, Rewrite};
use super::forwarding;
use super::layout::{self, Item};
use super::params::{self, compact, Kind, Param};
use super::target::{Files, Function, Parsed, Receiver};
use super::{
    collect_sites, family, keyword_pieces, parameters, rename_in_body, stale, with_stubs, Work,
};
use crate::refactor::{Project, RefactorError, RefactorFailure, Refactored, Summary};

pub(super) fn compute(
    project: &Project<'_>,
    function: &str,
    old_list: &str,
    new_list: &str,
    mut work: Work,
) -> Result<Refactored, RefactorError> {
    use crate::refactor::Argument;
    let invalid = |which: &str, list: &str, why: String, argument: Argument| {
        RefactorError::new(
            RefactorFailure::InvalidArgument,
            format!(
                "Invalid {which} signature {}({list}): {why}",
                function.trim()
            ),
        )
        .at(argument)
    };
    let old = params::parse_list(old_list, false)
        .map_err(|e| invalid("old", old_list, e, Argument::OldParams))?;
    let new = params::parse_list(new_list, true)
        .map_err(|e| invalid("new", new_list, e, Argument::NewParams))?;
    let mut files = Files::new(project);
    let target = target_function(project, &mut files, function)?;
    let current = parameters(&files, &target)?;
    let (old, new) = with_receiver(&target, &current, old, new)?;
    if !matches_current(&old, &current) {
        return Err(RefactorError::new(
            RefactorFailure::SignatureConflict,
            format!(
                "Signature conflict detected: current signature is {}({})",
                target.name,
                params::show(&current)
            ),
        )
        .at(crate::refactor::Argument::OldParams));
    }
    let plan = Plan::new(&target, &current, &new)?;
    let mut members = family(project, &mut files, &target, &mut work)?;
    with_stubs(&mut files, &mut members)?;
    for member in &members {
        let mine = parameters(&files, member)?;
        let is_target = member.path == target.path && member.range == target.range;
        if member.path.ends_with(".pyi") && !same_shape(&mine, &current) {
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "The stub {} declares {}({}): make it match {} first",
                    member.path,
                    member.name,
                    params::show(&mine),
                    target.qualified
                ),
            ));
        }
        if !is_target && !same_shape(&mine, &current) {
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "{} overrides {} with another signature ({}({})): make them match first",
                    member.qualified,
                    target.qualified,
                    member.name,
                    params::show(&mine)
                ),
            ));
        }
    }
    // all of them can change: now change them
    for member in &members {
        let mine = parameters(&files, member)?;
        plan.check_removals(&files, member)?;
        rename_in_body(&files, member, &mine, &plan.renames(), &mut work)?;
        plan.rewrite_def(&files, member, &mine, &old, &new, &mut work)?;
    }
    let mut callers = 0;
    // a change no call can notice (a default added at the end) needs no
    // call site, and leaves none alone
    if plan.touches_calls {
        let sites = collect_sites(project, &mut files, &members, &mut work)?;
        // Calls through an alias (`pad = _padleft; pad(w, s)`) would bind
        // their arguments the old way: the change would break them.
        if !sites.values.is_empty() {
            let shown: Vec<String> = sites.values.iter().take(5).map(|s| s.to_string()).collect();
            let more = sites.values.len().saturating_sub(shown.len());
            return Err(RefactorError::new(
                RefactorFailure::Refused,
                format!(
                    "Cannot change the signature of {}: it is used as a value at {}{}, and calls through it cannot be updated; change those uses first",
                    target.qualified,
                    shown.join(", "),
                    if more > 0 { format!(" … ({more} more)") } else { String::new() }
                ),
            ));
        }
        super::note_wrappers(&files, &members, &mut work);
        let mut followed = BTreeSet::new();
        for call in &sites.calls {
            callers += plan.call(project, &mut files, call, &mut followed, &mut work)?;
        }
        let mut scanned = BTreeSet::new();
        for path in members
            .iter()
            .map(|m| m.path.clone())
            .chain(sites.calls.iter().map(|c| c.site.path.clone()))
        {
            if scanned.insert(path.clone()) {
                let examples = doctest_calls(&files.get(&path), &path, &target.name);
                for (site, args) in examples {
                    if plan.binds_the_same(&args) {
                        continue;
                    }
                    work.left_alone(
                        site,
                        "a doctest example calls it: not rewritten, update it by hand".to_string(),
                    );
                }
            }
        }
        for call in &sites.possible {
            if plan.would_change(&files, call) {
                work.possible(
                    call.site.clone(),
                    "a possible call (the receiver's type is not known)".to_string(),
                );
            }
        }
        for (site, _) in &sites.partials {
            work.left_alone(
                site.clone(),
                "functools.partial binds arguments here: the calls of the partial are not followed"
                    .to_string(),
            );
        }
    }
    let what = format!("change the signature of {}", target.qualified);
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

fn target_function(
    project: &Project<'_>,
    files: &mut Files<'_>,
    function: &str,
) -> Result<Function, RefactorError> {
    let mut found = super::target::lookup(project, files, function, false)?;
    found.pop().ok_or_else(|| {
        RefactorError::new(
            RefactorFailure::NotFound,
            format!("Function not found: {function}"),
        )
        .at(crate::refactor::Argument::Symbol)
    })
}

/// The receiver (`self`, `cls`) is optional in what the user writes: when
/// the old list leaves it out, both lists get it back in front.
fn with_receiver(
    target: &Function,
    current: &[Param],
    mut old: Vec<Param>,
    mut new: Vec<Param>,
) -> Result<(Vec<Param>, Vec<Param>), RefactorError> {
    let receiver = match (target.receiver, current.first()) {
        (Receiver::None, _) | (_, None) => return Ok((old, new)),
        (_, Some(first)) if first.kind.is_positional() => first,
        _ => return Ok((old, new)),
    };
    let written = old.first().is_some_and(|p| p.name == receiver.name);
    if written {
        if new.first().map(|p| &p.name) != Some(&receiver.name) {
            return Err(RefactorError::new(
                RefactorFailure::InvalidArgument,
                format!(
                    "The first parameter of {}, {}, must stay first: the calls pass it implicitly",
                    target.qualified, receiver.name
                ),
            ));
        }
    } else {
        old.insert(0, receiver.clone());
        if new.first().map(|p| &p.name) != Some(&receiver.name) {
            new.insert(0, receiver.clone());
        }
    }
    Ok((old, new))
}

/// The user's old list is the current one: the same names in the same
/// order, and the same annotation and default texts where written (blanks
/// ignored). A bare name (`binary`) stands for the current parameter
/// whatever its annotation and default. The markers (`*`, `/`) and the
/// kinds they make must match when the list writes any; a list without
/// them is compared by names (and `*args`/`**kwargs`) alone.
fn matches_current(old: &[Param], current: &[Param]) -> bool {
    let markers = old.iter().any(|p| p.kind.is_marker());
    let entries = |list: &[Param]| -> Vec<Param> {
        list.iter()
            .filter(|p| markers || !p.kind.is_marker())
            .cloned()
            .collect()
    };
    let (old, current) = (entries(old), entries(current));
    let splat = |k: Kind| matches!(k, Kind::VarPositional | Kind::VarKeyword);
    old.len() == current.len()
        && old.iter().zip(&current).all(|(o, c)| {
            let bare = o.default.is_none() && o.annotation.is_none();
            o.name == c.name
                && (if markers {
                    o.kind == c.kind
                } else {
                    splat(o.kind) == splat(c.kind) && (!splat(o.kind) || o.kind == c.kind)
                })
                && (bare || o.default.is_some() == c.default.is_some())
                && o.default
                    .as_ref()
                    .is_none_or(|d| Some(compact(d)) == c.default.as_deref().map(compact))
                && o.annotation
                    .as_ref()
                    .is_none_or(|a| Some(compact(a)) == c.annotation.as_deref().map(compact))
        })
}

/// A bare name in the new list (`binary`) is the parameter as it is: its
/// annotation and default stay. `name:=value` drops the default (the
/// calls that relied on it get `name=value`); anything else written is
/// what the entry becomes.
fn is_bare(p: &Param) -> bool {
    p.default.is_none() && p.annotation.is_none() && p.call_value.is_none()
}

/// Two lists with the same names, kinds and defaults-or-not (an
/// override's signature as the one it overrides).
fn same_shape(a: &[Param], b: &[Param]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.name == y.name && x.kind == y.kind && x.default.is_some() == y.default.is_some()
        })
}

/// What happens to each parameter.
struct Plan {
    /// The old parameters (markers left out).
    old: Vec<Param>,
    /// The new ones (markers left out), each with the index in `old` of the
    /// parameter it was.
    new: Vec<(Param, Option<usize>)>,
    /// The index of the receiver in both lists, when there is one.
    receiver: bool,
    method: Receiver,
    /// Some call may need another argument list.
    touches_calls: bool,
}

impl Plan {
    fn new(target: &Function, current: &[Param], new: &[Param]) -> Result<Plan, RefactorError> {
        let old: Vec<Param> = current
            .iter()
            .filter(|p| !p.kind.is_marker())
            .cloned()
            .collect();
        let new_params: Vec<Param> = new
            .iter()
            .filter(|p| !p.kind.is_marker())
            .cloned()
            .collect();
        let mut origin: Vec<Option<usize>> = new_params
            .iter()
            .map(|n| old.iter().position(|o| o.name == n.name))
            .collect();
        // an unmatched new name where an unmatched old one was: a rename —
        // positional ones at the same place, keyword-only ones in order
        let taken: BTreeSet<usize> = origin.iter().flatten().copied().collect();
        let unmatched_old = |kind: Kind| -> Vec<usize> {
            (0..old.len())
                .filter(|&i| old[i].kind == kind && !taken.contains(&i))
                .collect()
        };
        for (k, o) in origin.iter_mut().enumerate() {
            let i = k;
            let pairs = o.is_none()
                && i < old.len()
                && !taken.contains(&i)
                && old[i].kind.is_positional()
                && new_params[k].kind.is_positional();
            if pairs {
                *o = Some(i);
            }
        }
        let old_keyword = unmatched_old(Kind::KeywordOnly);
        let new_keyword: Vec<usize> = (0..new_params.len())
            .filter(|&k| origin[k].is_none() && new_params[k].kind == Kind::KeywordOnly)
            .collect();
        if old_keyword.len() == new_keyword.len() {
            for (&k, &i) in new_keyword.iter().zip(&old_keyword) {
                origin[k] = Some(i);
            }
        }
        for (p, o) in new_params.iter().zip(&origin) {
            let needs_value = o.is_none()
                && p.default.is_none()
                && p.call_value.is_none()
                && !matches!(p.kind, Kind::VarPositional | Kind::VarKeyword);
            if needs_value {
                let example: Vec<String> = new
                    .iter()
                    .map(|e| {
                        if e.name == p.name {
                            format!("{}:=<value>", p.name)
                        } else {
                            e.normalised()
                        }
                    })
                    .collect();
                return Err(RefactorError::new(
                    RefactorFailure::InvalidArgument,
                    format!(
                        "The new parameter {} needs a value for the existing calls: write the value callers should pass: {}({}), or give it a default: {}=<value>",
                        p.name,
                        target.name,
                        example.join(", "),
                        p.name
                    ),
                ));
            }
        }
        let mut new: Vec<(Param, Option<usize>)> = new_params.into_iter().zip(origin).collect();
        for (p, o) in &mut new {
            if let Some(was) = o.map(|i| &old[i]) {
                if is_bare(p) && p.kind == was.kind {
                    p.default = was.default.clone();
                    p.annotation = was.annotation.clone();
                }
            }
        }
        let touches_calls = touches_calls(&old, &new);
        Ok(Plan {
            old,
            new,
            receiver: target.receiver != Receiver::None
                && current.first().is_some_and(|p| p.kind.is_positional()),
            method: target.receiver,
            touches_calls,
        })
    }

    /// Old name → new name of the renamed parameters.
    fn renames(&self) -> Vec<(String, String)> {
        self.new
            .iter()
            .filter_map(|(p, o)| {
                let old = &self.old[(*o)?];
                (old.name != p.name).then(|| (old.name.clone(), p.name.clone()))
            })
            .collect()
    }

    fn removed(&self) -> impl Iterator<Item = &Param> {
        self.old
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.new.iter().any(|(_, o)| *o == Some(*i)))
            .map(|(_, p)| p)
    }

    /// A removed parameter the body still reads is refused, naming the line.
    fn check_removals(&self, files: &Files<'_>, member: &Function) -> Result<(), RefactorError> {
        let file = files.get(&member.path);
        let scopes = file.scopes();
        let scope = scopes
            .scope_of_definition(member.range.start)
            .ok_or_else(|| stale(member))?;
        for p in self.removed() {
            if let Some(r) = scopes.references_to(scope, &p.name).next() {
                return Err(RefactorError::new(
                    RefactorFailure::Refused,
                    format!(
                        "Cannot remove parameter {}: the body of {} still uses it at {}:{}",
                        p.name,
                        member.qualified,
                        member.path,
                        file.position(r.range.start)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The `def`'s parameter list as the new list writes it; entries the
    /// user did not change keep their text (annotations, defaults, comments).
    fn rewrite_def(
        &self,
        files: &Files<'_>,
        member: &Function,
        mine: &[Param],
        written_old: &[Param],
        written_new: &[Param],
        work: &mut Work,
    ) -> Result<(), RefactorError> {
        let file = files.get(&member.path);
        let node = member
            .node(&file)
            .and_then(|n| n.child_by_field_name("parameters"))
            .ok_or_else(|| stale(member))?;
        let range = file.chars(node);
        let inside = range.start + 1..range.end.saturating_sub(1).max(range.start + 1);
        let entries: Vec<std::ops::Range<usize>> = mine.iter().map(|p| p.range.clone()).collect();
        let mut items = Vec::new();
        for entry in written_new {
            let item = if entry.kind.is_marker() {
                match mine.iter().position(|m| m.kind == entry.kind) {
                    Some(i) => Item::kept(i, mine[i].range.clone()),
                    None => Item::New(entry.text.trim().to_string()),
                }
            } else {
                let was = self
                    .new
                    .iter()
                    .find(|(p, _)| p.name == entry.name)
                    .and_then(|(_, o)| *o)
                    .map(|o| &self.old[o]);
                let here = was.and_then(|w| {
                    mine.iter()
                        .position(|m| m.name == w.name && !m.kind.is_marker())
                });
                let as_written = was
                    .and_then(|w| written_old.iter().find(|o| o.name == w.name))
                    .map_or(mine.get(here.unwrap_or(usize::MAX)), Some);
                match (was, here, as_written) {
                    (Some(w), Some(i), Some(o)) => {
                        // an entry written as the old list writes it is
                        // the def's, whatever the def adds to it
                        let rest_old = compact(&o.text).replacen(&w.name, "", 1);
                        let rest_new = compact(&entry.text).replacen(&entry.name, "", 1);
                        let keeps =
                            rest_old == rest_new || (is_bare(entry) && entry.kind == w.kind);
                        if entry.call_value.is_some()
                            && is_bare(&Param {
                                call_value: None,
                                ..entry.clone()
                            })
                        {
                            // `name:=value`: the parameter without its default
                            match &mine[i].annotation {
                                Some(a) => Item::New(format!("{}: {}", entry.name, a.trim())),
                                None => Item::New(entry.name.clone()),
                            }
                        } else if !keeps {
                            Item::New(entry.text.trim().to_string())
                        } else if w.name == entry.name {
                            Item::kept(i, mine[i].range.clone())
                        } else {
                            Item::Old {
                                index: i,
                                pieces: vec![
                                    Piece::Keep(mine[i].range.start..mine[i].name_range.start),
                                    Piece::Text(entry.name.clone()),
                                    Piece::Keep(mine[i].name_range.end..mine[i].range.end),
                                ],
                            }
                        }
                    }
                    _ => Item::New(entry.text.trim().to_string()),
                }
            };
            items.push(item);
        }
        let indent = entries
            .first()
            .and_then(|e| layout::line_indent(&file, inside.start, e.start));
        if entries.is_empty() {
            let text: Vec<String> = written_new
                .iter()
                .map(|p| p.text.trim().to_string())
                .collect();
            work.rewrite(&member.path, Rewrite::text(inside, text.join(", ")));
        } else if let Some(rewrite) =
            layout::relayout(&file, inside, &entries, indent.as_deref(), items)
        {
            work.rewrite(&member.path, rewrite);
        }
        Ok(())
    }

    /// Rebuilds one call's arguments; true when they changed. A call that
    /// cannot be followed is left alone (and said); one that cannot be
    /// rewritten correctly refuses the refactor.
    fn rewrite_call(
        &self,
        files: &Files<'_>,
        call: &Call,
        work: &mut Work,
    ) -> Result<bool, RefactorError> {
        if !self.touches_calls {
            return Ok(false);
        }
        let site = &call.site;
        let args = &call.args;
        let leave = |work: &mut Work, why: &str| {
            work.left_alone(site.clone(), why.to_string());
            Ok(false)
        };
        if call.via == Via::Unclear {
            return leave(
                work,
                "called through cls: whether self is passed cannot be told",
            );
        }
        if has_splat(args) {
            return leave(
                work,
                "forwards *args/**kwargs: the arguments cannot be followed",
            );
        }
        // the receiver: bound, or the first argument through the class
        let explicit_receiver =
            self.receiver && self.method == Receiver::Instance && call.via == Via::ThroughClass;
        let skip = usize::from(self.receiver);
        let Some(bound) = bind(&self.old[skip..], args, explicit_receiver) else {
            return leave(work, "does not match the current signature: not changed");
        };
        let refuse = |why: String| {
            RefactorError::new(
                RefactorFailure::Refused,
                format!("Cannot update the call at {site}: {why}; nothing was changed"),
            )
        };
        let emit = |by_keyword: bool| -> Result<Emitted, String> {
            let mut emitted = Emitted::default();
            if explicit_receiver {
                emitted.old(0, vec![Piece::Keep(args.args[0].range.clone())]);
            }
            self.pass(args, &bound, by_keyword, &mut emitted)?;
            Ok(emitted)
        };
        if call.decorator {
            // the decorated function is passed where nothing can be written
            let unchanged =
                emit(false).is_ok_and(|e| e.items == [Item::kept(0, args.args[0].range.clone())]);
            if unchanged {
                return Ok(false);
            }
            return Err(refuse(
                "it applies the function as a decorator, which passes the decorated definition as the one positional argument and cannot pass anything else; the new signature would not take it that way (apply that decorator by hand first)"
                    .to_string(),
            ));
        }
        let mut emitted = emit(false).map_err(refuse)?;
        if !keeps_evaluation_order(args, &emitted.order) {
            // keywords can be written in any order: the caller's
            emitted = emit(true).map_err(refuse)?;
            if !keeps_evaluation_order(args, &emitted.order) {
                return Err(refuse(
                    "it would change the order in which its arguments are evaluated (pass them through names first)"
                        .to_string(),
                ));
            }
        }
        match list_rewrite(&files.get(&site.path), args, emitted.items) {
            Some(r) => {
                work.rewrite(&site.path, r);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Changes one call of the target: rebuilds its arguments, or, when it
    /// passes `*`/`**` arguments, changes what it writes if those bind as
    /// before, follows its forwarder's callers if they are the target's
    /// callers in effect, and otherwise records it as a possible site.
    /// How many calls changed.
    fn call(
        &self,
        project: &Project<'_>,
        files: &mut Files<'_>,
        call: &Call,
        followed: &mut BTreeSet<String>,
        work: &mut Work,
    ) -> Result<usize, RefactorError> {
        if !has_splat(&call.args) {
            return Ok(usize::from(self.rewrite_call(files, call, work)?));
        }
        let star = call.args.args.iter().any(|a| a.kind == ArgKind::Star);
        let double_star = call.args.args.iter().any(|a| a.kind == ArgKind::DoubleStar);
        let moves = star && self.moves_positions();
        let (renamed, other) = self.changed_keywords();
        let keywords_hurt = double_star && !other.is_empty();
        let keywords_renamed = double_star && !renamed.is_empty();
        if !(moves || keywords_hurt || keywords_renamed) {
            // what the `*`/`**` arguments carry binds as before
            return Ok(usize::from(self.rewrite_splat_call(files, call, work)?));
        }
        let forwarder = forwarding::forwarder(project, files, call)?;
        let site = call.site.clone();
        match forwarder {
            Some(f) if f.exact && (f.star.is_some() || !moves) => {
                self.follow_exact(project, files, call, f, followed, work)
            }
            Some(f) if !moves && !keywords_hurt && f.double_star.is_some() => {
                // only renamed keywords: renamed in what it writes, and in
                // the callers of the forwarder that pass them
                let mut changed = usize::from(self.rewrite_splat_call(files, call, work)?);
                for (old, new) in &renamed {
                    let keyword = super::Keyword { old, new };
                    changed += keyword.follow(project, files, call, &f, followed, work)?;
                }
                Ok(changed)
            }
            _ => {
                let why = if moves {
                    let splat = splat_text(&files.get(&site.path), call, ArgKind::Star);
                    format!("passes {splat}: its values would bind to other parameters")
                } else {
                    let splat = splat_text(&files.get(&site.path), call, ArgKind::DoubleStar);
                    let names: Vec<&str> = other
                        .iter()
                        .map(String::as_str)
                        .chain(renamed.iter().map(|(o, _)| o.as_str()))
                        .collect();
                    format!(
                        "passes {splat}: a key {} in it would bind otherwise",
                        names.join("/")
                    )
                };
                work.possible(site, why);
                Ok(0)
            }
        }
    }

    /// A forwarder that takes and passes on only `*args`/`**kwargs`: its
    /// callers are changed as calls of the target.
    fn follow_exact(
        &self,
        project: &Project<'_>,
        files: &mut Files<'_>,
        call: &Call,
        forwarder: forwarding::Forwarder,
        followed: &mut BTreeSet<String>,
        work: &mut Work,
    ) -> Result<usize, RefactorError> {
        let name = forwarder.function.qualified.clone();
        work.followed(
            call.site.clone(),
            format!("passes on the arguments of {name}: its callers were followed"),
        );
        if !followed.insert(name.clone()) {
            return Ok(0);
        }
        let mentions = match &forwarder.function.class {
            Some(class) => super::target::hierarchy(project, files, class)?.class_mentions,
            None => BTreeSet::new(),
        };
        let callers = project.index.find_callers(&name).map_err(|e| {
            RefactorError::new(RefactorFailure::NotFound, e.to_string())
                .at(crate::refactor::Argument::Symbol)
        })?;
        let references = project.index.find_references(&name).map_err(|e| {
            RefactorError::new(RefactorFailure::NotFound, e.to_string())
                .at(crate::refactor::Argument::Symbol)
        })?;
        let certain: BTreeSet<_> = callers.certain.iter().map(|c| c.location.clone()).collect();
        for value in references.certain.iter().filter(|r| !certain.contains(*r)) {
            let file = files.load(&value.path)?;
            if !calls::is_import(&file, value) {
                work.possible(
                    value.clone(),
                    format!("{name} passes its arguments on, and is used as a value here"),
                );
            }
        }
        let same_receiver = forwarder.function.receiver == self.method
            || (forwarder.function.receiver != Receiver::Instance
                && self.method != Receiver::Instance);
        let mut changed = 0;
        for c in &callers.certain {
            let file = files.load(&c.location.path)?;
            match calls::call_at(&file, &c.location, forwarder.function.receiver, &mentions) {
                Ok(outer) if outer.via == Via::Bound || same_receiver => {
                    changed += self.call(project, files, &outer, followed, work)?;
                }
                Ok(_) => work.possible(
                    c.location.clone(),
                    format!("calls {name} through its class: the arguments cannot be lined up"),
                ),
                Err(_) => {}
            }
        }
        let classes = super::forwarder_classes(project, files, &forwarder.function)?;
        for c in &callers.possible {
            let file = files.load(&c.location.path)?;
            if super::unrelated_super(project, &file, &c.location, &classes) {
                continue;
            }
            if let Ok(outer) =
                calls::call_at(&file, &c.location, forwarder.function.receiver, &mentions)
            {
                if self.would_change(files, &outer) {
                    work.possible(
                        c.location.clone(),
                        format!("a possible call of {name}, which passes its arguments on"),
                    );
                }
            }
        }
        Ok(changed)
    }

    /// The positional arguments a `*args` carries would bind to other
    /// parameters: one moved, removed, inserted among the old ones, or
    /// one added where `*args` took the extras.
    fn moves_positions(&self) -> bool {
        let skip = usize::from(self.receiver);
        let old: Vec<usize> = (skip..self.old.len())
            .filter(|&i| self.old[i].kind.is_positional())
            .collect();
        let new: Vec<Option<usize>> = self
            .new
            .iter()
            .skip(skip)
            .filter(|(p, _)| p.kind.is_positional())
            .map(|(_, o)| *o)
            .collect();
        let had_var = self.old.iter().any(|p| p.kind == Kind::VarPositional);
        let keeps_var = self.new.iter().any(|(p, o)| {
            p.kind == Kind::VarPositional
                && o.is_some_and(|i| self.old[i].kind == Kind::VarPositional)
        });
        old.iter()
            .enumerate()
            .any(|(k, &i)| new.get(k) != Some(&Some(i)))
            || (had_var && (new.len() > old.len() || !keeps_var))
    }

    /// The old keyword names whose meaning changes: renamed ones (old →
    /// new), and the rest (removed, no longer taken by keyword, or new
    /// names a `**kwargs` took before).
    fn changed_keywords(&self) -> (Vec<(String, String)>, Vec<String>) {
        let skip = usize::from(self.receiver);
        let mut renamed = Vec::new();
        let mut other = Vec::new();
        for (i, o) in self.old.iter().enumerate().skip(skip) {
            if !o.kind.takes_keyword() {
                continue;
            }
            match self.new.iter().find(|(_, from)| *from == Some(i)) {
                Some((p, _)) if p.kind.takes_keyword() && p.name == o.name => {}
                Some((p, _)) if p.kind.takes_keyword() => {
                    renamed.push((o.name.clone(), p.name.clone()))
                }
                _ => other.push(o.name.clone()),
            }
        }
        let had_var = self.old.iter().any(|p| p.kind == Kind::VarKeyword);
        for (p, from) in &self.new {
            if had_var && from.is_none() && p.kind.takes_keyword() {
                other.push(p.name.clone());
            }
        }
        if had_var && !self.new.iter().any(|(p, _)| p.kind == Kind::VarKeyword) {
            other.push("**".to_string());
        }
        (renamed, other)
    }

    /// A call with `*`/`**` arguments that bind as before: its keywords
    /// renamed, and the values for callers added by keyword. True when
    /// it changed.
    fn rewrite_splat_call(
        &self,
        files: &Files<'_>,
        call: &Call,
        work: &mut Work,
    ) -> Result<bool, RefactorError> {
        let site = &call.site;
        let (renamed, other) = self.changed_keywords();
        let mut changed = false;
        for arg in &call.args.args {
            let Some((k, range)) = &arg.keyword else {
                continue;
            };
            if let Some((_, new)) = renamed.iter().find(|(o, _)| o == k) {
                work.rewrite(&site.path, Rewrite::text(range.clone(), new.clone()));
                changed = true;
            } else if other.contains(k) {
                return Err(RefactorError::new(
                    RefactorFailure::Refused,
                    format!("Cannot update the call at {site}: it passes {k}=, which the new signature does not take by that name; nothing was changed"),
                ));
            }
        }
        let file = files.get(&site.path);
        let end = call
            .args
            .args
            .last()
            .map_or(call.args.inside.start, |a| a.range.end);
        let mut added = String::new();
        for (p, o) in &self.new {
            if let (None, Some(v)) = (o, &p.call_value) {
                if !call.args.args.is_empty() || !added.is_empty() {
                    added.push_str(", ");
                }
                added.push_str(&format!("{}={v}", p.name));
            }
        }
        if !added.is_empty() {
            let _ = file;
            work.rewrite(&site.path, Rewrite::text(end..end, added));
            changed = true;
        }
        Ok(changed)
    }

    /// Whether the change would touch a call (one that may not be of the
    /// target, which it therefore cannot change).
    fn would_change(&self, files: &Files<'_>, call: &Call) -> bool {
        let mut scratch = Work::default();
        if has_splat(&call.args) {
            let star = call.args.args.iter().any(|a| a.kind == ArgKind::Star);
            let double_star = call.args.args.iter().any(|a| a.kind == ArgKind::DoubleStar);
            let (renamed, other) = self.changed_keywords();
            return (star && self.moves_positions())
                || (double_star && (!renamed.is_empty() || !other.is_empty()))
                || !matches!(
                    self.rewrite_splat_call(files, call, &mut scratch),
                    Ok(false)
                );
        }
        !matches!(self.rewrite_call(files, call, &mut scratch), Ok(false))
            || !scratch.left_alone.is_empty()
    }

    /// The arguments bind after the change as they did before: each to a
    /// parameter that kept its name, kind and place, none needing a value
    /// for callers. (The doctest examples a change lists are the others.)
    fn binds_the_same(&self, args: &CallArgs) -> bool {
        if has_splat(args) {
            return false;
        }
        let skip = usize::from(self.receiver);
        let Some(bound) = bind(&self.old[skip..], args, false) else {
            return false;
        };
        let fills = self
            .new
            .iter()
            .any(|(p, o)| o.is_none() && p.call_value.is_some());
        let kept = |i: usize| {
            let i = i + skip;
            self.new.iter().enumerate().any(|(k, (p, o))| {
                *o == Some(i)
                    && p.name == self.old[i].name
                    && p.kind == self.old[i].kind
                    && (!p.kind.is_positional() || k == i)
            })
        };
        !fills
            && bound
                .params
                .iter()
                .enumerate()
                .all(|(i, a)| a.is_none() || kept(i))
            && (bound.extra_positional.is_empty() || !self.moves_positions())
    }

    /// What a call gives each new parameter (the receiver left out).
    fn values(&self, bound: &Bound) -> Vec<Value> {
        let skip = usize::from(self.receiver);
        self.new
            .iter()
            .skip(skip)
            .map(|(p, o)| {
                let passed = o
                    .and_then(|i| i.checked_sub(skip))
                    .and_then(|i| bound.params.get(i).copied().flatten());
                match (passed, &p.call_value) {
                    (Some(a), _) => Value::Arg(a),
                    (None, Some(v)) => Value::Text(v.clone()),
                    (None, None) => Value::Missing,
                }
            })
            .collect()
    }

    /// The new arguments of a call, in order: positionally while the
    /// positions line up (up to the last parameter the caller passed
    /// positionally or that must be), the rest by keyword in the order the
    /// caller wrote them, values for callers last; `by_keyword` passes by
    /// keyword all that may be. `Err` says why it cannot be done.
    fn pass(
        &self,
        args: &CallArgs,
        bound: &Bound,
        by_keyword: bool,
        out: &mut Emitted,
    ) -> Result<(), String> {
        let new: Vec<&Param> = self
            .new
            .iter()
            .skip(usize::from(self.receiver))
            .map(|(p, _)| p)
            .collect();
        let values = self.values(bound);
        let is_var = |p: &Param| matches!(p.kind, Kind::VarPositional | Kind::VarKeyword);
        if let Some(p) = new
            .iter()
            .zip(&values)
            .find(|(p, v)| **v == Value::Missing && p.default.is_none() && !is_var(p))
            .map(|(p, _)| p)
        {
            return Err(format!(
                "it does not pass {0}, which has no default any more (write {0}:=<value> to give the calls a value)",
                p.name
            ));
        }
        let kept_var = |kind: Kind| {
            self.new
                .iter()
                .any(|(p, o)| p.kind == kind && o.is_some_and(|i| self.old[i].kind == kind))
        };
        if !bound.extra_positional.is_empty() && !kept_var(Kind::VarPositional) {
            return Err("it passes extra positional arguments and *args is gone".to_string());
        }
        if !bound.extra_keywords.is_empty() && !kept_var(Kind::VarKeyword) {
            return Err("it passes extra keyword arguments and **kwargs is gone".to_string());
        }
        let positional: Vec<usize> = (0..new.len())
            .filter(|&k| new[k].kind.is_positional())
            .collect();
        let must_be_positional = |k: usize| match &values[k] {
            Value::Arg(a) => {
                (args.args[*a].kind == ArgKind::Positional && !by_keyword)
                    || new[k].kind == Kind::PositionalOnly
            }
            Value::Text(_) => new[k].kind == Kind::PositionalOnly,
            Value::Missing => false,
        };
        let mut upto = if bound.extra_positional.is_empty() {
            positional
                .iter()
                .rposition(|&k| must_be_positional(k))
                .map_or(0, |i| i + 1)
        } else {
            positional.len()
        };
        // a parameter left to its default ends the positional part
        if let Some(gap) = positional[..upto]
            .iter()
            .position(|&k| values[k] == Value::Missing)
        {
            if !bound.extra_positional.is_empty() {
                return Err(format!(
                    "{} would be skipped before the extra positional arguments",
                    new[positional[gap]].name
                ));
            }
            upto = gap;
        }
        for &k in &positional[..upto] {
            match &values[k] {
                Value::Arg(a) => out.old(*a, vec![Piece::Keep(args.args[*a].value.clone())]),
                Value::Text(t) => out.items.push(Item::New(t.clone())),
                Value::Missing => {}
            }
        }
        for &a in &bound.extra_positional {
            out.old(a, vec![Piece::Keep(args.args[a].range.clone())]);
        }
        let mut by_keyword: Vec<(usize, Vec<Piece>)> = Vec::new();
        let mut for_callers: Vec<Item> = Vec::new();
        for (k, p) in new.iter().enumerate() {
            if positional[..upto].contains(&k) || is_var(p) || values[k] == Value::Missing {
                continue;
            }
            if p.kind == Kind::PositionalOnly {
                return Err(format!(
                    "{} is positional-only and cannot be passed after a parameter left to its default",
                    p.name
                ));
            }
            match &values[k] {
                Value::Text(t) => for_callers.push(Item::New(format!("{}={t}", p.name))),
                Value::Arg(a) => by_keyword.push((*a, keyword_argument(&args.args[*a], &p.name))),
                Value::Missing => {}
            }
        }
        for &a in &bound.extra_keywords {
            by_keyword.push((a, vec![Piece::Keep(args.args[a].range.clone())]));
        }
        by_keyword.sort_by_key(|(a, _)| *a);
        for (a, pieces) in by_keyword {
            out.old(a, pieces);
        }
        out.items.extend(for_callers);
        Ok(())
    }
}

/// A call's new argument list as it is being built: the items, and the
/// old arguments in the order they now come.
#[derive(Default)]
struct Emitted {
    items: Vec<Item>,
    order: Vec<usize>,
}

impl Emitted {
    fn old(&mut self, index: usize, pieces: Vec<Piece>) {
        self.items.push(Item::Old { index, pieces });
        self.order.push(index);
    }
}

/// An argument passed as `name=…`: kept as written when it already is,
/// the keyword renamed, or `name=` written before a positional value.
fn keyword_argument(arg: &super::calls::Arg, name: &str) -> Vec<Piece> {
    match &arg.keyword {
        Some((written, _)) if written == name => vec![Piece::Keep(arg.range.clone())],
        Some((_, name_range)) => vec![
            Piece::Text(name.to_string()),
            Piece::Keep(name_range.end..arg.range.end),
        ],
        None => keyword_pieces(name, arg.value.clone()),
    }
}

/// Where a doctest example (`>>> naturalsize(300, False, True)`) in a
/// string of the file calls `name`, and the call's arguments (ranges in
/// the example's own text).
fn doctest_calls(
    file: &Parsed,
    path: &str,
    name: &str,
) -> Vec<(crate::analysis::index::Location, CallArgs)> {
    let mut out = Vec::new();
    let mut stack = vec![file.tree.root()];
    while let Some(n) = stack.pop() {
        if n.kind() == "string_content" {
            let start = file.chars(n).start;
            let text = file.node_text(n);
            let mut offset = 0;
            for line in text.split_inclusive('\n') {
                let code = line.trim_start();
                if let Some(example) = code
                    .strip_prefix(">>>")
                    .or_else(|| code.strip_prefix("..."))
                {
                    let at = line.len() - code.len() + 3;
                    for (i, _) in example.match_indices(name) {
                        let before = example[..i].chars().next_back();
                        let after = example[i + name.len()..].trim_start();
                        let word = |c: char| c == '_' || c.is_alphanumeric();
                        if before.is_none_or(|c| !word(c)) && after.starts_with('(') {
                            let chars = text[..offset + at + i].chars().count();
                            let from = start + chars;
                            let site = crate::analysis::index::Location {
                                path: path.to_string(),
                                position: file.position(from),
                                end: file.position(from + name.chars().count()),
                            };
                            let args = example_arguments(file, example, i);
                            out.push((site, args));
                        }
                    }
                }
                offset += line.len();
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

/// The arguments of the call whose name starts at byte `at` of a
/// doctest example; a lone `*` argument (binding unknown) when the
/// example does not parse as one call.
fn example_arguments(file: &Parsed, example: &str, at: usize) -> CallArgs {
    let unknown = CallArgs {
        inside: 0..0,
        args: vec![super::calls::Arg {
            kind: ArgKind::Star,
            range: 0..0,
            keyword: None,
            value: 0..0,
            pure: false,
        }],
        line_indent: None,
        generator: false,
    };
    let Some(snippet) = super::target::snippet(file, example.trim_end()) else {
        return unknown;
    };
    let offset = example[..at].chars().count();
    let call = snippet
        .node_covering(offset)
        .and_then(|n| n.parent())
        .filter(|c| c.kind() == "call");
    match call.and_then(|c| c.child_by_field_name("arguments")) {
        Some(arguments) if !arguments.has_error() => calls::arguments_of(&snippet, arguments),
        _ => unknown,
    }
}

fn has_splat(args: &CallArgs) -> bool {
    args.args
        .iter()
        .any(|a| matches!(a.kind, ArgKind::Star | ArgKind::DoubleStar))
}

/// `*test_args`, as the call writes it.
fn splat_text(file: &Parsed, call: &Call, kind: ArgKind) -> String {
    call.args
        .args
        .iter()
        .find(|a| a.kind == kind)
        .map(|a| params::squeeze(&file.slice(a.range.clone())))
        .unwrap_or_default()
}

/// Arguments that do something when evaluated (a call, an operator) stay
/// in the order the caller wrote them.
fn keeps_evaluation_order(args: &CallArgs, order: &[usize]) -> bool {
    let mut last_impure: Option<usize> = None;
    for &a in order {
        if !args.args[a].pure {
            if last_impure.is_some_and(|l| l > a) {
                return false;
            }
            last_impure = Some(a);
        }
    }
    true
}

/// The rewrite of a call's argument list into `items`; `None` when they
/// are the arguments as written.
fn list_rewrite(file: &Parsed, args: &CallArgs, mut items: Vec<Item>) -> Option<Rewrite> {
    let entries: Vec<std::ops::Range<usize>> = args.args.iter().map(|a| a.range.clone()).collect();
    if entries.is_empty() {
        let texts: Vec<String> = items
            .iter()
            .filter_map(|i| match i {
                Item::New(t) => Some(t.clone()),
                Item::Old { .. } => None,
            })
            .collect();
        return (!texts.is_empty()).then(|| Rewrite::text(args.inside.clone(), texts.join(", ")));
    }
    // a generator that is not the only argument any more needs its own
    // parentheses: `f(x for x in xs)` → `f((x for x in xs), start=0)`
    let alone = items.len() == 1 && items[0] == Item::kept(0, entries[0].clone());
    if args.generator && !alone {
        for item in &mut items {
            if let Item::Old { index: 0, pieces } = item {
                pieces.insert(0, Piece::Text("(".into()));
                pieces.push(Piece::Text(")".into()));
            }
        }
    }
    layout::relayout(
        file,
        args.inside.clone(),
        &entries,
        args.line_indent.as_deref(),
        items,
    )
}

/// Whether some call may need new arguments: anything but parameters
/// with defaults added after the old positional ones (or keyword-only).
fn touches_calls(old: &[Param], new: &[(Param, Option<usize>)]) -> bool {
    let old_positional = old.iter().filter(|o| o.kind.is_positional()).count();
    let old_var_positional = old.iter().any(|o| o.kind == Kind::VarPositional);
    let removed = (0..old.len()).any(|i| !new.iter().any(|(_, o)| *o == Some(i)));
    let unchanged = new.iter().enumerate().all(|(k, (p, o))| match o {
        Some(i) => {
            let was = &old[*i];
            was.name == p.name
                && was.kind == p.kind
                && (was.default.is_none() || p.default.is_some())
                && (!p.kind.is_positional() || *i == k)
        }
        // extra positional arguments would fill a new positional parameter
        None => {
            p.call_value.is_none()
                && (!p.kind.is_positional() || (k >= old_positional && !old_var_positional))
        }
    });
    removed || !unchanged
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Arg(usize),
    Text(String),
    Missing,
}

/// A call's arguments bound to the old parameters (`old` without the
/// receiver) as Python binds them: each parameter's argument, and the
/// extras `*args` and `**kwargs` take. `None` when they do not bind.
struct Bound {
    params: Vec<Option<usize>>,
    extra_positional: Vec<usize>,
    extra_keywords: Vec<usize>,
}

fn bind(old: &[Param], args: &CallArgs, explicit_receiver: bool) -> Option<Bound> {
    let mut bound = Bound {
        params: vec![None; old.len()],
        extra_positional: Vec::new(),
        extra_keywords: Vec::new(),
    };
    let positional: Vec<usize> = (0..old.len())
        .filter(|&i| old[i].kind.is_positional())
        .collect();
    let has_var_positional = old.iter().any(|p| p.kind == Kind::VarPositional);
    let has_var_keyword = old.iter().any(|p| p.kind == Kind::VarKeyword);
    let mut next = 0;
    for (a, arg) in args.args.iter().enumerate() {
        if explicit_receiver && a == 0 {
            if arg.kind != ArgKind::Positional {
                return None;
            }
            continue;
        }
        match arg.kind {
            ArgKind::Positional => {
                if let Some(&i) = positional.get(next) {
                    bound.params[i] = Some(a);
                    next += 1;
                } else if has_var_positional {
                    bound.extra_positional.push(a);
                } else {
                    return None;
                }
            }
            ArgKind::Keyword => {
                let name = &arg.keyword.as_ref()?.0;
                match old
                    .iter()
                    .position(|p| p.name == *name && p.kind.takes_keyword())
                {
                    Some(i) if bound.params[i].is_none() => bound.params[i] = Some(a),
                    Some(_) => return None,
                    None if has_var_keyword => bound.extra_keywords.push(a),
                    None => return None,
                }
            }
            ArgKind::Star | ArgKind::DoubleStar => return None,
        }
    }
    if explicit_receiver && args.args.is_empty() {
        return None;
    }
    Some(bound)
}
