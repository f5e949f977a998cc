//! Scripts through the one door: a message whose text is a script is
//! parsed and checked here (with the variables the session's earlier
//! messages defined), run by `script::run` on the sender's view of the
//! project, and its one change committed through the one applier — one
//! commit, one undo step — or kept as a named changeset. Also the
//! changeset statements sent alone: `preview [diff] changeset`, `apply
//! changeset`, `rollback changeset`.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::SystemTime;

use ropey::Rope;

use crate::analysis::index::{CallersMemo, ProjectIndex};
use crate::change::{Base, WorkspaceChange};
use crate::commands::{ScriptMode, Selection};
use crate::edit::Position;
use crate::failure::{ErrorKind, OpError};
use crate::language::Capability;
use crate::outcome::{Fact, Outcome};
use crate::refactor::{self, check, Cursor, Project, Refactoring, WorkspaceSources};
use crate::reply::Clause;
use crate::script::ast::StatementKind;
use crate::script::run::{self as interpreter, Calls};
use crate::script::{self, ScriptError};
use crate::session::{ChangesetName, ChangesetState, Event};
use crate::workspace::{CheckedDirs, DiskStamp, WorkspacePath};

use super::apply::{ApplyMode, Direction};
use super::context::{Ctx, Ran};
use super::refactor::SessionSources;
use super::{Engine, Held};

/// A refused script as the reply's failure: `line:col: …`, with the
/// valid words as candidates.
fn refused(error: ScriptError) -> OpError {
    OpError {
        kind: ErrorKind::InvalidCommand,
        message: error.to_string(),
        candidates: error.candidates,
    }
}

/// Applies a session event; one the session refuses is a bug here.
fn record(live: &mut Held, event: Event) -> Result<(), OpError> {
    live.session
        .apply(event)
        .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))
}

fn now() -> String {
    crate::session::lock::to_the_second(time::OffsetDateTime::now_utc())
}

impl Engine {
    pub(super) fn script_command(
        &self,
        sender: &str,
        live: &mut Held,
        text: &str,
        mode: &ScriptMode,
    ) -> Ran {
        if let ScriptMode::Select(selection) = mode {
            return self.select(sender, live, text, selection);
        }
        let earlier = live.session.script_variables.clone();
        let known: Vec<script::Variable> = earlier
            .iter()
            .filter_map(|d| Some((d.name.clone(), script::words::element(&d.kind)?)))
            .collect();
        let parsed = script::parse(text, &known).map_err(refused)?;
        if let [statement] = parsed.statements.as_slice() {
            match &statement.kind {
                StatementKind::PreviewChangeset { name, diff } => {
                    return self.preview_changeset(live, &name.text, *diff)
                }
                StatementKind::ApplyChangeset { name } => {
                    return self.apply_changeset(sender, live, &name.text)
                }
                StatementKind::RollbackChangeset { name } => {
                    return self.rollback_changeset(sender, live, &name.text)
                }
                _ => {}
            }
        }
        let ran = self.with_view(sender, live, |view| {
            interpreter::run(&parsed, text, &earlier, view)
        })?;
        let mut report = ran.report;
        if !ran.defined.is_empty() {
            record(
                live,
                Event::ScriptVariables {
                    defined: ran.defined,
                },
            )?;
        }
        if !report.flagged.is_empty() {
            let items = report.flagged.clone();
            record(live, Event::ScriptFlagged { items })?;
        }
        let mut diffs = None;
        match mode {
            ScriptMode::Collect(name) => {
                if report.collected.as_ref().is_some_and(|own| own != name) {
                    return Err(OpError::new(
                        ErrorKind::InvalidArgument,
                        format!(
                            "The script collects its changes as '{}' and the call as '{name}': name one changeset",
                            report.collected.as_deref().unwrap_or_default()
                        ),
                    ));
                }
                report.collected = Some(name.clone());
            }
            ScriptMode::Preview if report.collected.is_none() => {
                report.previewed = true;
                let files = super::refactor::file_reports(&self.workspace, &ran.change, true);
                diffs = Some(files.into_iter().map(|f| f.diff).collect::<String>());
            }
            ScriptMode::Preview | ScriptMode::Run | ScriptMode::Select(_) => {}
        }
        if let Some(name) = report.collected.clone() {
            self.collect(live, &name, &ran.change)?;
        } else if !report.previewed && !ran.change.is_empty() {
            self.commit_script(sender, live, &ran.change)?;
        }
        report.files.sort();
        let data = super::ops::json::data("script", super::ops::json::script(&report));
        let answers = report.answers.join("\n");
        let mut facts = vec![Clause::Fact(Fact::Script(report)), data];
        // what the statements that answer said, then the diff
        let text = [answers, diffs.unwrap_or_default()]
            .into_iter()
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        if !text.is_empty() {
            facts.push(Clause::Txt(text));
        }
        Ok(Outcome::effect(facts))
    }

    /// Runs `work` on the sender's view of the project: the files it may
    /// read (its unsaved ones refused), the index, its cursor.
    fn with_view<T>(
        &self,
        sender: &str,
        live: &Held,
        work: impl FnOnce(&View<'_>) -> Result<T, OpError>,
    ) -> Result<T, OpError> {
        let session = &live.session;
        let unsaved: BTreeSet<String> = session
            .buffers
            .values()
            .filter(|b| b.is_modified())
            .map(|b| b.path().to_string())
            .collect();
        let cursor = session
            .current_buffer()
            .map(|b| (b.path().to_string(), b.cursor()));
        let progress = self.progress_sinks(sender, session.preferences.progress);
        self.with_index(session, |index, _, _| {
            // the files the query engine parsed are not parsed again by
            // the index's scan
            index.lend_trees(|path, content| self.parses.tree_of(path, content));
            let memo = self.index.memo_for(index);
            let view = View {
                engine: self,
                sender,
                index,
                unsaved: &unsaved,
                cursor: cursor.clone(),
                progress: &progress,
                session,
                memo: RefCell::new(memo),
                read_at: Default::default(),
                checked_dirs: Default::default(),
            };
            let done = work(&view);
            self.index.keep_memo(view.memo.into_inner());
            done
        })
    }

    /// A query alone (`ScriptMode::Select`): its elements as data
    /// (`"elements"`), nothing written. Many queries (`each_line`): each
    /// one's answer (`"answers"`: its elements or its failure).
    fn select(&self, sender: &str, live: &mut Held, text: &str, selection: &Selection) -> Ran {
        let before = match &selection.after {
            Some(script) => Some(script::parse(script, &[]).map_err(refused)?),
            None => None,
        };
        let before = before
            .as_ref()
            .zip(selection.after.as_deref())
            .map(|(script, source)| interpreter::Before { script, source });
        let filter = selection.filter.as_deref();
        let texts = !selection.without_texts;
        if !selection.each_line {
            let (query, kind) =
                script::parse_checked_query_where(text, filter, &[]).map_err(refused)?;
            let mut answers = self.with_view(sender, live, |view| {
                interpreter::select_each(&[&query], before, view, texts)
            })?;
            let selected = answers.pop().unwrap_or_else(|| Ok(Vec::new()))?;
            return Ok(Outcome::answer(vec![
                Clause::Fact(Fact::Selected {
                    kind,
                    count: selected.len(),
                }),
                Clause::Selections {
                    found: std::sync::Arc::new(interpreter::Selections::Elements(selected)),
                    texts,
                },
            ]));
        }
        // each line its own query; one that does not parse is its own failure
        let parsed: Vec<Result<script::ast::Query, OpError>> = text
            .lines()
            .map(|line| {
                script::parse_checked_query_where(line, filter, &[])
                    .map(|(query, _)| query)
                    .map_err(refused)
            })
            .collect();
        let queries: Vec<&script::ast::Query> = parsed.iter().flatten().collect();
        let mut answered = self
            .with_view(sender, live, |view| {
                interpreter::select_each(&queries, before, view, texts)
            })?
            .into_iter();
        let answers: Vec<interpreter::Answer> = parsed
            .iter()
            .map(|query| match query {
                Ok(_) => answered.next().unwrap_or_else(|| Ok(Vec::new())),
                Err(refusal) => Err(refusal.clone()),
            })
            .collect();
        Ok(Outcome::answer(vec![
            Clause::Fact(Fact::SelectedEach {
                queries: answers.len(),
            }),
            Clause::Selections {
                found: std::sync::Arc::new(interpreter::Selections::Answers(answers)),
                texts,
            },
        ]))
    }

    /// The script's change as one commit and one undo step.
    fn commit_script(
        &self,
        sender: &str,
        live: &mut Held,
        change: &WorkspaceChange,
    ) -> Result<(), OpError> {
        self.config
            .permissions
            .check_change(sender, change.touched())
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let own = live.session.name.clone();
        let elsewhere = self.unsaved_elsewhere(&own, change);
        if !elsewhere.is_empty() {
            return Err(OpError::new(
                ErrorKind::Stale,
                super::elsewhere::elsewhere_message("script", &elsewhere),
            ));
        }
        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        let applied = ctx.apply_change(change, ApplyMode::Commit);
        let carried = std::mem::take(&mut ctx.carried);
        let applied = applied.map_err(|fail| OpError {
            kind: ErrorKind::Stale,
            message: format!("{}; the script wrote nothing", fail.message),
            ..fail
        })?;
        Held::unlocked(live, || self.carry_over(&own, carried));
        self.index.touch(&applied.files);
        Ok(())
    }

    /// `collect changes as <name>`: the change joins the named changeset
    /// (created if new); nothing is written.
    fn collect(
        &self,
        live: &mut Held,
        name: &str,
        change: &WorkspaceChange,
    ) -> Result<(), OpError> {
        let name = ChangesetName::new(name)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        let at = now();
        if live.session.changesets.get(name.as_str()).is_none() {
            record(
                live,
                Event::ChangesetCreated {
                    name: name.clone(),
                    at: at.clone(),
                },
            )?;
        }
        if !change.is_empty() {
            record(
                live,
                Event::ChangesetAdded {
                    name,
                    change: change.clone(),
                    at,
                },
            )
            .map_err(|e| OpError::new(ErrorKind::Conflict, e.to_string()))?;
        }
        Ok(())
    }

    fn changeset<'s>(
        &self,
        session: &'s crate::session::Session,
        name: &str,
    ) -> Result<&'s crate::session::NamedChangeset, OpError> {
        session.changesets.get(name).ok_or_else(|| {
            let names: Vec<String> = session
                .changesets
                .iter()
                .map(|(n, _)| n.to_string())
                .collect();
            let mut error = OpError::new(
                ErrorKind::NotFound,
                match names.is_empty() {
                    true => format!(
                        "No changeset '{name}': collect one first (… collect changes as {name})"
                    ),
                    false => format!("No changeset '{name}'; changesets: {}", names.join(", ")),
                },
            );
            error.candidates = crate::choices::closest(name, &names, 3);
            error
        })
    }

    fn preview_changeset(&self, live: &mut Held, name: &str, diff: bool) -> Ran {
        self.changeset_preview(&live.session, name, diff)
    }

    /// `preview [diff] changeset <name>`: its state and files, with `diff`
    /// the unified diff (alone, or inside a larger script).
    fn changeset_preview(&self, session: &crate::session::Session, name: &str, diff: bool) -> Ran {
        let set = self.changeset(session, name)?;
        let files: Vec<String> = set.change.touched().iter().map(|p| p.to_string()).collect();
        let state = state_word(set.state);
        let data = super::ops::json::data(
            "changeset",
            serde_json::json!({ "name": name, "state": state, "files": files }),
        );
        let mut facts = vec![
            Clause::Fact(Fact::ChangesetPreview {
                name: name.to_owned(),
                state,
                files,
            }),
            data,
        ];
        if diff {
            let diffs: Vec<String> =
                super::refactor::file_reports(&self.workspace, &set.change, true)
                    .into_iter()
                    .map(|r| r.diff)
                    .collect();
            facts.push(Clause::Txt(diffs.concat()));
        }
        Ok(Outcome::answer(facts))
    }

    fn apply_changeset(&self, sender: &str, live: &mut Held, name: &str) -> Ran {
        let set = self.changeset(&live.session, name)?.clone();
        if let ChangesetState::Applied { step } = set.state {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!("Changeset '{name}' is applied already (step {step}); rollback changeset {name} takes it back"),
            ));
        }
        let step = live.session.next_step_id();
        self.commit_script(sender, live, &set.change)?;
        let name = ChangesetName::new(name)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        record(
            live,
            Event::ChangesetApplied {
                name: name.clone(),
                step,
                at: now(),
            },
        )?;
        let files = set.change.touched().iter().map(|p| p.to_string()).collect();
        Ok(Outcome::effect(vec![Clause::Fact(
            Fact::ChangesetApplied {
                name: name.to_string(),
                files,
            },
        )]))
    }

    fn rollback_changeset(&self, sender: &str, live: &mut Held, name: &str) -> Ran {
        let set = self.changeset(&live.session, name)?.clone();
        let ChangesetState::Applied { step } = set.state else {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!("Changeset '{name}' is not applied: nothing to roll back (apply changeset {name} applies it)"),
            ));
        };
        self.config
            .permissions
            .check_change(sender, set.change.touched())
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        let files = ctx.step(step, Direction::Undo).map_err(|fail| OpError {
            message: format!("{}; nothing was rolled back", fail.message),
            ..fail
        })?;
        let carried = std::mem::take(&mut ctx.carried);
        let own = live.session.name.clone();
        record(
            live,
            Event::ChangesetRolledBack {
                name: ChangesetName::new(name)
                    .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?,
                at: now(),
            },
        )?;
        Held::unlocked(live, || self.carry_over(&own, carried));
        self.index.touch(&files);
        Ok(Outcome::effect(vec![Clause::Fact(
            Fact::ChangesetRolledBack {
                name: name.to_owned(),
                files: files.iter().map(|p| p.to_string()).collect(),
            },
        )]))
    }
}

/// The sender's files for a refactoring inside a script: the texts the
/// script changed so far in place of the disk's.
struct ScriptSources<'a> {
    session: SessionSources<'a>,
    texts: &'a [(String, Rope)],
}

impl refactor::Sources for ScriptSources<'_> {
    fn source(&self, path: &str) -> Result<refactor::Source, refactor::RefactorError> {
        let mut source = self.session.source(path)?;
        if let Some((_, text)) = self.texts.iter().find(|(p, _)| p == source.path.as_str()) {
            source.text = text.clone();
        }
        Ok(source)
    }

    fn search_text(&self, path: &str) -> Option<String> {
        match self.texts.iter().find(|(p, _)| p == path) {
            Some((_, text)) => Some(text.to_string()),
            None => self.session.search_text(path),
        }
    }
}

/// An answer inside a script as its reply's line, its text (`Txt`) on
/// the lines after it as it is: the script's reply carries it once.
fn answer_text(mut outcome: Outcome) -> String {
    let mut texts = Vec::new();
    outcome.facts.retain(|clause| match clause {
        Clause::Txt(text) => {
            texts.push(text.clone());
            false
        }
        _ => true,
    });
    let line = crate::reply::Reply::from(outcome).terse();
    std::iter::once(line)
        .chain(texts)
        .collect::<Vec<_>>()
        .join("\n")
}

/// An index's refusal as a typed failure, its choices as candidates.
impl View<'_> {
    /// `caller of`/`call to` a name the Python index does not know but a
    /// brace language's file defines: the relation is Python's alone for
    /// now, and `Find Callers` answers for that language.
    /// The calls of a definition in a brace language's file, as the
    /// brace languages' index resolves them (`defined_in` picks its file's
    /// definition among same-named ones).
    fn brace_calls_of(
        &self,
        name: &str,
        defined_in: Option<&str>,
        only: Option<&str>,
    ) -> Result<Calls, OpError> {
        let found = self
            .index
            .tags()
            .find_callers(self.index.root(), name, defined_in)
            .map_err(index_error)?;
        Ok(calls_in(&found.certain, &found.possible, only))
    }
}

/// A script's calls of a definition from an index's (in file `only`,
/// when given): the proven ones only when none is merely possible.
fn calls_in(
    certain: &[crate::analysis::index::Call],
    possible: &[crate::analysis::index::Call],
    only: Option<&str>,
) -> Calls {
    use crate::analysis::index::Call;
    let here = |c: &&Call| only.is_none_or(|path| c.location.path == path);
    let site = |c: &Call| (c.location.path.clone(), c.location.position);
    let possible_here = possible.iter().filter(here).count();
    Calls {
        proven: match possible_here {
            0 => certain.iter().filter(here).map(site).collect(),
            _ => Vec::new(),
        },
        possible: possible_here,
        possible_named: possible
            .iter()
            .filter(here)
            .take(Calls::NAMED)
            .map(site)
            .collect(),
    }
}

fn index_error(error: crate::analysis::index::IndexError) -> OpError {
    use crate::analysis::index::IndexError;
    let (kind, candidates) = match &error {
        IndexError::NotFound { choices, .. } => (ErrorKind::NotFound, choices.clone()),
        IndexError::Ambiguous { candidates, .. } => (
            ErrorKind::Ambiguous,
            candidates
                .iter()
                .map(|c| c.qualified_name.clone())
                .collect(),
        ),
        _ => (ErrorKind::InvalidArgument, Vec::new()),
    };
    OpError {
        kind,
        message: error.to_string(),
        candidates,
    }
}

pub(super) fn state_word(state: ChangesetState) -> &'static str {
    match state {
        ChangesetState::Open => "not applied",
        ChangesetState::Applied { .. } => "applied",
        ChangesetState::RolledBack { .. } => "rolled back",
    }
}

/// The project as the sender sees it: the files it may read (refusing
/// those it has unsaved edits in: the script computes on the disk), the
/// index with its unsaved buffers laid over it, its cursor.
struct View<'a> {
    engine: &'a Engine,
    sender: &'a str,
    index: &'a ProjectIndex,
    unsaved: &'a BTreeSet<String>,
    cursor: Option<(String, Position)>,
    /// Whoever watches the sender's progress.
    progress: &'a [crate::progress::ProgressSink],
    /// The sender's session: its preferences and bookmarks (read only).
    session: &'a crate::session::Session,
    /// What the caller queries of one script or `select` share, and of
    /// the next while the index is the same (`CallersMemo`: the index
    /// does not change while they run).
    memo: RefCell<CallersMemo>,
    /// When the read of each file read from disk began (whether its
    /// stamp may vouch for its bytes later: `engine/parses.rs`).
    read_at: RefCell<HashMap<String, SystemTime>>,
    /// The directories this view found to be no links (each file's path
    /// checks only the parts not checked yet: `CheckedDirs`).
    checked_dirs: RefCell<CheckedDirs>,
}

impl View<'_> {
    /// How `path`'s bytes of `stamp` were read: when its read began (a
    /// file this view did not read itself: never, so never settled).
    fn seen(&self, path: &str, stamp: &DiskStamp) -> super::parses::Seen {
        let read_at = self.read_at.borrow().get(path).copied();
        super::parses::Seen {
            stamp: stamp.clone(),
            read_at: read_at.unwrap_or(SystemTime::UNIX_EPOCH),
        }
    }
}

impl interpreter::Project for View<'_> {
    fn progress(&self, progress: &crate::progress::Progress) {
        for sink in self.progress {
            sink(progress);
        }
    }

    fn files(&self) -> Result<Vec<String>, OpError> {
        let files = self
            .engine
            .workspace
            .list(None)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e))?;
        Ok(files
            .into_iter()
            .filter(|path| {
                crate::language::supporting(path, Capability::SymbolSites).is_some()
                    && self.engine.can_see(self.sender, path)
            })
            .collect())
    }

    fn read(&self, path: &str) -> Result<(WorkspacePath, Base, Rope), OpError> {
        self.engine
            .config
            .permissions
            .check_read(&self.engine.workspace, self.sender, path)
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let resolved = self
            .engine
            .workspace
            .resolve_checked(path, &mut self.checked_dirs.borrow_mut())
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        if self.unsaved.contains(resolved.as_str()) {
            return Err(OpError::new(
                ErrorKind::Stale,
                format!("The script reads {resolved}, which has unsaved edits: Save or Undo them first; nothing was changed"),
            ));
        }
        let workspace = &self.engine.workspace;
        let kept = self.engine.parses.unchanged(resolved.as_str(), |stamp| {
            workspace.has_stamp(&resolved, stamp)
        });
        if let Some((stamp, parsed)) = kept {
            let text = parsed.text.clone();
            return Ok((resolved, Base::Disk(stamp), text));
        }
        self.read_at
            .borrow_mut()
            .insert(resolved.as_str().to_owned(), SystemTime::now());
        let loaded = self
            .engine
            .workspace
            .read(&resolved)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        Ok((
            resolved,
            Base::Disk(loaded.stamp),
            Rope::from_str(&loaded.text),
        ))
    }

    fn parsed(
        &self,
        path: &str,
        base: &Base,
        text: &Rope,
    ) -> Option<std::sync::Arc<interpreter::Parsed>> {
        match base {
            Base::Disk(stamp) => self.engine.parses.get(path, &self.seen(path, stamp), text),
            _ => interpreter::Parsed::new(path, text.clone()).map(std::sync::Arc::new),
        }
    }

    fn parsed_many(
        &self,
        files: Vec<(String, Base, Rope)>,
    ) -> Vec<Option<std::sync::Arc<interpreter::Parsed>>> {
        self.engine.parses.get_many(
            files
                .into_iter()
                .map(|(path, base, text)| {
                    let seen = match base {
                        Base::Disk(stamp) => Some(self.seen(&path, &stamp)),
                        _ => None,
                    };
                    (path, seen, text)
                })
                .collect(),
        )
    }

    fn module_of(&self, path: &str) -> Option<String> {
        self.index.module_of(path).map(str::to_owned)
    }

    fn module_reached(
        &self,
        path: &str,
        reach: &crate::analysis::index::tags::unbound::Reach,
    ) -> Option<Vec<String>> {
        (self.index.tags()).module_reached(self.index.root(), path, reach)
    }

    fn file_holds(&self, path: &str, name: &str) -> bool {
        (self.index.tags()).file_holds(self.index.root(), path, name)
    }

    fn definers_of(&self, path: &str, name: &str) -> Option<Vec<String>> {
        let family =
            crate::analysis::index::tags::family::family_id(crate::language::language_of(path)?)?;
        let files = self.index.tags().files_with(Some(family), &[name], false);
        Some(
            (files.into_iter())
                .filter(|entry| entry.file().defs.iter().any(|d| d.name == name))
                .map(|entry| entry.path.clone())
                .collect(),
        )
    }

    fn calls_of(
        &self,
        name: &str,
        defined_in: Option<&str>,
        only: Option<&str>,
    ) -> Result<Calls, OpError> {
        use crate::analysis::index::{tags, IndexError};
        if defined_in.is_some_and(tags::reads) {
            return self.brace_calls_of(name, defined_in, only);
        }
        // read where the memo keeps it, copying only what the query reads:
        // a walk asks thousands, most of them refused
        let python = self
            .index
            .read_callers_memo(name, &mut self.memo.borrow_mut(), |found| {
                found
                    .as_ref()
                    .map(|found| calls_in(&found.certain, &found.possible, only))
                    .map_err(IndexError::clone)
            });
        match python {
            // a name Python's index does not have: the brace languages'
            Err(IndexError::NotFound { .. })
                if self
                    .index
                    .tags()
                    .find_definition(self.index.root(), name, None)
                    .is_ok() =>
            {
                self.brace_calls_of(name, None, only)
            }
            found => found.map_err(index_error),
        }
    }

    fn subclasses_of(&self, name: &str) -> Result<Vec<(String, Position)>, OpError> {
        self.index
            .subclasses_of(name)
            .map(|found| {
                found
                    .into_iter()
                    .map(|d| (d.location.path, d.location.position))
                    .collect()
            })
            .map_err(index_error)
    }

    fn is_used(&self, qualified_name: &str) -> Result<bool, OpError> {
        let short = qualified_name.rsplit('.').next().unwrap_or(qualified_name);
        let proven = match self.index.find_references_from(qualified_name, None) {
            Ok(found) => !found.certain.is_empty() || !found.possible.is_empty(),
            // a name the index cannot resolve is taken as used
            Err(_) => true,
        };
        Ok(proven || self.index.is_referenced(short))
    }

    fn refactor(
        &self,
        refactoring: &Refactoring,
        texts: &[(String, Rope)],
        place: Option<(String, Position)>,
    ) -> Result<WorkspaceChange, OpError> {
        let sources = ScriptSources {
            session: SessionSources {
                disk: WorkspaceSources {
                    workspace: &self.engine.workspace,
                },
                unsaved: self.unsaved,
                session_texts: &BTreeMap::new(),
                read: Default::default(),
            },
            texts,
        };
        let current = place
            .or_else(|| self.cursor.clone())
            .map(|(path, position)| Cursor { path, position });
        // the index sees the files as the script left them so far
        let overlaid;
        let index = match texts.is_empty() {
            true => self.index,
            false => {
                overlaid = self.index.overlaid(texts);
                &overlaid
            }
        };
        let project = Project::new(index, &sources, current);
        let refactored =
            refactor::compute(&project, refactoring).map_err(super::refactor::op_error)?;
        check::no_new_errors(&project, &refactored).map_err(super::refactor::op_error)?;
        Ok(refactored.change)
    }

    fn importers_of(&self, path: &str) -> Vec<String> {
        let mut found: Vec<String> = self
            .index
            .dependents(path)
            .map(|found| found.into_iter().filter_map(|d| d.path).collect())
            .unwrap_or_default();
        found.sort();
        found.dedup();
        found
    }

    fn cursor(&self) -> Option<(String, Position)> {
        self.cursor.clone()
    }

    fn preview_changeset(&self, name: &str, diff: bool) -> Result<String, OpError> {
        let outcome = self.engine.changeset_preview(self.session, name, diff)?;
        Ok(answer_text(outcome))
    }

    fn bookmark(&self, name: &str) -> Option<(String, usize)> {
        let mark = self.session.bookmarks.get(name)?;
        Some((mark.path.to_string(), mark.offset))
    }

    /// A phase-1 command on a scratch session holding one buffer: the
    /// script's text of the file, at the script's cursor. Only commands of
    /// one buffer get here (`script::run::cursor::refusal`): nothing is
    /// written, and the scratch session is dropped after.
    fn command(
        &self,
        command: &crate::commands::Command,
        place: &interpreter::Place,
    ) -> Result<interpreter::Commanded, OpError> {
        use crate::session::Session;
        let path = self
            .engine
            .workspace
            .resolve(&place.path)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        let mut scratch = Session::new(
            self.session.name.clone(),
            None,
            self.sender.to_owned(),
            now(),
            self.session.preferences.clone(),
        );
        let disk = match &place.base {
            Base::Disk(stamp) => Some(stamp.clone()),
            _ => None,
        };
        let internal = |e: crate::session::EventError| {
            OpError::new(ErrorKind::Internal, format!("Internal: {e}"))
        };
        scratch
            .apply(Event::Opened {
                path: path.clone(),
                text: place.text.to_string(),
                disk,
            })
            .map_err(internal)?;
        scratch
            .apply(Event::Moved {
                path: path.clone(),
                to: place.cursor,
            })
            .map_err(internal)?;
        let before = scratch.unpersisted().len();
        let mut ctx = Ctx::new(&mut scratch, &self.engine.workspace, None);
        let outcome = ctx.run(command)?;
        let edits = scratch.unpersisted()[before..]
            .iter()
            .filter_map(|event| match event {
                Event::Edited { change, .. } => Some(
                    change
                        .edits()
                        .into_iter()
                        .map(|(start, end, insert)| (start, end, insert.to_owned()))
                        .collect(),
                ),
                _ => None,
            })
            .collect();
        let buffer = scratch.buffer(&path).ok_or_else(|| {
            OpError::new(
                ErrorKind::Internal,
                format!("Internal: '{command}' closed the script's buffer"),
            )
        })?;
        let answer = (outcome.shape == crate::outcome::Shape::Answer).then(|| answer_text(outcome));
        Ok(interpreter::Commanded {
            edits,
            cursor: buffer.cursor(),
            answer,
        })
    }
}
