//! `Refactor …`, `Preview [Diff] Refactor …`, `Apply` and `Discard`: the
//! engine's side of the semantic refactors (`crate::refactor` computes them).
//!
//! A refactor runs in four steps, and only the last touches anything:
//! 1. *compute* on the index brought up to date with the disk (and the
//!    sender's unsaved buffers laid over it), every file read through the
//!    workspace — a file the sender has unsaved edits in is refused;
//! 2. *check*: no touched file gets a new syntax or compile-time error, no
//!    other session has unsaved edits on the lines it changes (edits on
//!    other lines are carried over: `elsewhere`), the sender may write
//!    every touched path;
//! 3. *preview* (`Preview`, or any refactor in preview mode) stops here and
//!    says what would change; in preview mode the change waits for `Apply`
//!    (`session::PendingRefactor`): `Apply` checks that the files it
//!    changes are still the texts it was computed against and applies it
//!    without computing it again — unless the rest of the project moved on
//!    (a use may have come) or Eddi restarted (the change is kept in
//!    memory, the request in the journal): then it is computed once more;
//! 4. *apply*: one commit of every file (`Ctx::apply_change`), one undo
//!    step in the sender's session. Other sessions' unmodified buffers of
//!    the files take the new text on their next message (`check_disk`);
//!    their unsaved buffers take the change under their edits at once.
//!
//! [`Engine::refactor`] is the typed operation (the agent tools' entry): a
//! [`Located`] request names its place (file and line), so a tool's
//! refactor leaves the session's current file and cursor alone; a failure
//! is a [`RefactorFault`], the argument at fault as data. The commands word
//! its [`RefactorReport`].

use crate::outcome::{Fact, Outcome, Preview};
use std::collections::{BTreeMap, BTreeSet};

use ropey::Rope;
use std::sync::Arc;

use serde_json::Value;

use crate::analysis::index::ProjectIndex;
use crate::change::{Base, FileOp, WorkspaceChange};
use crate::edit::Position;
use crate::language::Capability;
use crate::refactor::{
    self, check, Argument, Cursor, Located, Project, RefactorError, RefactorFailure, Refactored,
    Refactoring, Source, Sources, WorkspaceSources,
};
use crate::reply::Clause;
use crate::session::{ComputedRefactor, Event, PendingRefactor, Session};
use crate::workspace::{DiskStamp, Workspace, WorkspacePath};

use super::apply::ApplyMode;
use super::context::Ctx;
use super::context::Ran;
use super::ops::{ErrorKind, OpError};
use super::{Engine, Held};

/// Whether a refactor is only shown or also written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefactorMode {
    /// Computed and checked; nothing changes.
    Preview,
    /// Computed, checked and committed as one undo step.
    Apply,
}

/// What a refactor computed and, when applied, did.
#[derive(Debug, Clone)]
pub struct RefactorReport {
    pub refactoring: Refactoring,
    pub refactored: Refactored,
    /// Every file the change touches, with its edit count and unified diff.
    pub files: Vec<FileReport>,
    pub applied: bool,
}

#[derive(Debug, Clone)]
pub struct FileReport {
    pub path: String,
    /// Text edits in the file (1 for a created or deleted file).
    pub edits: usize,
    /// `--- a/path` / `+++ b/path` unified diff, 3 lines of context; empty
    /// for an applied refactor whose terse reply does not show it.
    pub diff: String,
}

/// Why [`Engine::refactor`] failed: the error, and the part of the
/// request at fault when it is one (set where the error was raised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefactorFault {
    pub error: OpError,
    pub argument: Option<Argument>,
}

impl From<OpError> for RefactorFault {
    fn from(error: OpError) -> RefactorFault {
        RefactorFault {
            error,
            argument: None,
        }
    }
}

/// A refactor computed and checked (steps 1 and 2), not yet previewed or
/// applied.
pub(super) struct Computed {
    pub(super) refactored: Refactored,
    /// The files the check parsed, for the index once they are written.
    checked: Vec<check::Checked>,
    /// The file and position it was computed in.
    place: Option<Cursor>,
    /// The state of the project it was computed on, when asked for.
    project: Option<String>,
}

impl Engine {
    /// Computes `request` in `sender`'s session and previews or applies
    /// it (see the module doc); the session's events are persisted. A
    /// request with a place works there: the session's current file and
    /// cursor stay as they are.
    pub fn refactor(
        &self,
        sender: &str,
        request: &Located,
        mode: RefactorMode,
    ) -> Result<RefactorReport, RefactorFault> {
        // Before the session is held: the place is read as the sender sees it.
        let place = match &request.place {
            Some(place) => Some(self.checked_place(sender, place)?),
            None => None,
        };
        let Some(mut live) = self.hold(sender) else {
            return Err(no_session().into());
        };
        let request = Located {
            refactoring: request.refactoring.clone(),
            place,
        };
        let report = self.run_refactor(sender, &mut live, &request, mode)?;
        self.persist(&mut live).map_err(|e| {
            OpError::new(
                ErrorKind::Internal,
                format!("Could not persist the session ({e}); the refactor is applied"),
            )
        })?;
        Ok(report)
    }

    /// `Refactor …`: applied, or (preview mode) previewed and waiting.
    pub(super) fn refactor_command(
        &self,
        sender: &str,
        live: &mut Held,
        refactoring: &Refactoring,
    ) -> Ran {
        if live.session.preferences.preview {
            return self.preview_and_wait(sender, live, refactoring);
        }
        let request = Located::here(refactoring.clone());
        match self.run_refactor(sender, live, &request, RefactorMode::Apply) {
            Ok(report) => Ok(Outcome::refactored(report, None)),
            Err(fault) => Err(fault.error),
        }
    }

    /// `Preview [Diff] Refactor …`.
    pub(super) fn preview_command(
        &self,
        sender: &str,
        live: &mut Held,
        refactoring: &Refactoring,
        diff: bool,
    ) -> Ran {
        let request = Located::here(refactoring.clone());
        match self.run_refactor(sender, live, &request, RefactorMode::Preview) {
            Ok(report) => Ok(Outcome::refactored(
                report,
                Some(Preview {
                    diff,
                    waiting: false,
                }),
            )),
            Err(fault) => Err(fault.error),
        }
    }

    /// `Apply`: the waiting refactor's change, as its preview computed it,
    /// if no file it changes moved on since. When other files of the
    /// project moved on (their uses may be new), or the process restarted
    /// (the change is kept in memory only), it is computed once more and
    /// applied if it changes the same files from the same texts.
    pub(super) fn apply_command(&self, sender: &str, live: &mut Held) -> Ran {
        let mut pending = pending_of(live)?;
        // Whatever happens next, the preview has been answered.
        set_pending(live, None);
        // Taken, so that the kept change is this turn's alone (not copied).
        let applied = match pending.computed.take() {
            Some(kept) => self.apply_kept(sender, live, &pending, kept),
            None => self.apply_recomputed(sender, live, &pending, None),
        };
        match applied {
            Ok(report) => Ok(Outcome::refactored(report, None)),
            Err(fault) => Err(fault.error),
        }
    }

    /// `Apply` of the change a preview kept (see [`Self::apply_command`]).
    fn apply_kept(
        &self,
        sender: &str,
        live: &mut Held,
        pending: &PendingRefactor,
        kept: Arc<ComputedRefactor>,
    ) -> Result<RefactorReport, RefactorFault> {
        let refactoring = &pending.refactoring;
        let moved = self.moved_since(&live.session, &kept.refactored.change);
        if !moved.is_empty() {
            return Err(changed_since_preview(&moved, refactoring).into());
        }
        if self.project_state(&live.session) != kept.project {
            return self.apply_recomputed(sender, live, pending, kept.place.clone());
        }
        // Another holder is left only while the preview's events wait for
        // the journal; then the change is copied.
        let kept = Arc::try_unwrap(kept).unwrap_or_else(|shared| ComputedRefactor {
            place: shared.place.clone(),
            refactored: shared.refactored.clone(),
            project: shared.project.clone(),
        });
        let computed = Computed {
            refactored: kept.refactored,
            // the check's trees are not kept: the index reads the files
            checked: Vec::new(),
            place: kept.place,
            project: None,
        };
        Ok(self.finish_refactor(sender, live, refactoring, computed, RefactorMode::Apply)?)
    }

    /// `Apply` that computes the waiting refactor again, in `place` (else
    /// the session's current file), and applies it if it changes the same
    /// files from the texts the preview saw.
    fn apply_recomputed(
        &self,
        sender: &str,
        live: &mut Held,
        pending: &PendingRefactor,
        place: Option<Cursor>,
    ) -> Result<RefactorReport, RefactorFault> {
        let request = Located {
            refactoring: pending.refactoring.clone(),
            place,
        };
        let computed = self.compute_refactor(live, &request, false)?;
        let now = base_hashes(&computed.refactored.change);
        let moved: Vec<&str> = pending
            .files
            .iter()
            .filter(|seen| !now.contains(seen))
            .map(|(path, _)| path.as_str())
            .chain(
                now.iter()
                    .filter(|now| !pending.files.iter().any(|(p, _)| *p == now.0))
                    .map(|(path, _)| path.as_str()),
            )
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if !moved.is_empty() {
            return Err(changed_since_preview(&moved, &pending.refactoring).into());
        }
        Ok(self.finish_refactor(
            sender,
            live,
            &pending.refactoring,
            computed,
            RefactorMode::Apply,
        )?)
    }

    /// `Discard`: drops the waiting refactor.
    pub(super) fn discard_command(&self, live: &mut Held) -> Ran {
        match pending_of(live) {
            Ok(pending) => {
                set_pending(live, None);
                Ok(Outcome::effect(vec![Clause::Fact(Fact::Discarded {
                    what: format!("Refactor {}", pending.refactoring),
                })]))
            }
            Err(fail) => Err(fail),
        }
    }

    /// Previews the refactor and keeps what it computed for `Apply`.
    fn preview_and_wait(&self, sender: &str, live: &mut Held, refactoring: &Refactoring) -> Ran {
        let request = Located::here(refactoring.clone());
        let computed = match self.compute_refactor(live, &request, true) {
            Ok(computed) => computed,
            Err(fault) => return Err(fault.error),
        };
        let (place, project) = (computed.place.clone(), computed.project.clone());
        match self.finish_refactor(sender, live, refactoring, computed, RefactorMode::Preview) {
            Ok(report) => {
                let files = base_hashes(&report.refactored.change);
                set_pending(
                    live,
                    Some(PendingRefactor {
                        refactoring: refactoring.clone(),
                        files,
                        computed: Some(Arc::new(ComputedRefactor {
                            place,
                            refactored: report.refactored.clone(),
                            project: project.unwrap_or_default(),
                        })),
                    }),
                );
                let waiting = Preview {
                    diff: false,
                    waiting: true,
                };
                Ok(Outcome::refactored(report, Some(waiting)))
            }
            Err(error) => Err(error),
        }
    }

    /// Steps 1–4 of the module doc, in the session the caller holds; the
    /// events stay staged for the turn.
    fn run_refactor(
        &self,
        sender: &str,
        live: &mut Held,
        request: &Located,
        mode: RefactorMode,
    ) -> Result<RefactorReport, RefactorFault> {
        let computed = self.compute_refactor(live, request, false)?;
        Ok(self.finish_refactor(sender, live, &request.refactoring, computed, mode)?)
    }

    /// Steps 1 and 2: the refactor computed on the index the session sees
    /// and checked; with `keep`, also the state of the project it was
    /// computed on ([`ComputedRefactor::project`]), for a change kept for
    /// `Apply`.
    pub(super) fn compute_refactor(
        &self,
        live: &Held,
        request: &Located,
        keep: bool,
    ) -> Result<Computed, RefactorFault> {
        self.compute_refactor_on(live, request, keep, Texts::Saved)
    }

    /// The refactor computed as a check of another edit, never applied:
    /// on the session's texts, its unsaved edits included (the index the
    /// session sees has them too), so that an edit of a file with unsaved
    /// edits is checked as the project would be with them.
    pub(super) fn check_refactor(
        &self,
        live: &Held,
        request: &Located,
    ) -> Result<Computed, RefactorFault> {
        self.compute_refactor_on(live, request, false, Texts::Session)
    }

    fn compute_refactor_on(
        &self,
        live: &Held,
        request: &Located,
        keep: bool,
        texts: Texts,
    ) -> Result<Computed, RefactorFault> {
        let refactoring = &request.refactoring;
        let session = &live.session;
        // A file of another language is no place in Python code: a refactor
        // of the current file fails saying so, one that names what it
        // changes looks in the project and says so first if it fails.
        let current = match &request.place {
            Some(place) => Some(place.path.as_str()),
            None => session
                .current_buffer()
                .map(|buffer| buffer.path().as_str()),
        };
        // a rename also starts from a file of the brace languages' index
        let renames_braces = matches!(refactoring, Refactoring::Rename { .. });
        let brace_place = |path: &str| renames_braces && crate::analysis::index::tags::reads(path);
        let not_python = current.filter(|path| !brace_place(path)).and_then(|path| {
            // an open script whose `#!` names Python (no `.py`)
            let script = session
                .buffers
                .iter()
                .any(|(open, buffer)| open.as_str() == path && buffer.language().is_some());
            not_refactorable_file(path, script)
        });
        if let Some(why) = &not_python {
            if refactoring.kind().needs_current_file(refactoring) {
                return Err(OpError::new(ErrorKind::InvalidArgument, why.clone()).into());
            }
        }
        let in_project = |mut fault: RefactorFault| {
            if let Some(why) = not_python
                .as_ref()
                .filter(|_| matches!(fault.error.kind, ErrorKind::NotFound))
            {
                // a rename looked in every index, the others in Python's
                fault.error.message = match renames_braces {
                    true => super::unindexed_file_first(why, &fault.error.message),
                    false => super::unsupported_file_first(why, &fault.error.message),
                };
            }
            fault
        };
        let current = match &request.place {
            Some(place) => {
                Some(place.clone()).filter(|p| not_python.is_none() || brace_place(&p.path))
            }
            None => session
                .current_buffer()
                .filter(|b| {
                    b.language_supporting(Capability::Refactors).is_some()
                        || brace_place(b.path().as_str())
                })
                .map(|buffer| Cursor {
                    path: buffer.path().to_string(),
                    position: buffer.cursor(),
                }),
        };
        let modified = || session.buffers.values().filter(|b| b.is_modified());
        let unsaved: BTreeSet<String> = modified().map(|b| b.path().to_string()).collect();
        let session_texts: BTreeMap<String, (Rope, u64)> = match texts {
            Texts::Saved => BTreeMap::new(),
            Texts::Session => modified()
                .map(|b| (b.path().to_string(), (b.text().clone(), b.version())))
                .collect(),
        };
        let compute = || {
            let sources = SessionSources {
                disk: WorkspaceSources {
                    workspace: &self.workspace,
                },
                unsaved: &unsaved,
                session_texts: &session_texts,
                read: Default::default(),
            };
            self.with_index(session, |index, _, _| {
                let project = Project::new(index, &sources, current.clone());
                let started = std::time::Instant::now();
                let refactored = refactor::compute(&project, refactoring)?;
                let computed = started.elapsed();
                let checked = check::no_new_errors(&project, &refactored)?;
                tracing::debug!(
                    compute_ms = computed.as_secs_f64() * 1e3,
                    check_ms = (started.elapsed() - computed).as_secs_f64() * 1e3,
                    files = checked.len(),
                    "refactor computed and checked"
                );
                let stale = sources.read_since(index);
                let state = keep.then(|| project_state_of(index, session));
                Ok::<_, RefactorError>(((refactored, checked, state), stale))
            })
            .map_err(refactor_fault)
        };
        // The index's positions become edits of the files as read now: when
        // a file the refactor read is not the text the index read (a polled
        // tree; a write the index read half done, its end not yet taken),
        // the file is re-read and the refactor computed again.
        let ((mut refactored, mut checked, mut state), mut stale) =
            compute()
                .map_err(in_project)
                .map_err(|fault| match (&not_python, renames_braces) {
                    (None, false) => self.defined_in_another_language(session, refactoring, fault),
                    _ => fault,
                })?;
        if !stale.is_empty() {
            self.index.touch(&stale);
            ((refactored, checked, state), stale) = compute()?;
        }
        if !stale.is_empty() {
            let names: Vec<&str> = stale.iter().map(WorkspacePath::as_str).collect();
            return Err(OpError::new(
                ErrorKind::Stale,
                format!(
                    "{} kept changing on disk while the refactor was computed; nothing was changed, try again",
                    names.join(", ")
                ),
            )
            .into());
        }
        Ok(Computed {
            refactored,
            checked,
            place: current,
            project: state,
        })
    }

    /// A Python refactoring's "Not found" for a name the brace languages'
    /// index defines: that the refactoring does not work on its language
    /// (then what Python's files said), not a false "No similar name".
    fn defined_in_another_language(
        &self,
        session: &Session,
        refactoring: &Refactoring,
        mut fault: RefactorFault,
    ) -> RefactorFault {
        if fault.error.kind != ErrorKind::NotFound {
            return fault;
        }
        let elsewhere = self.with_index(session, |index, _, _| {
            refactoring.names().into_iter().find_map(|name| {
                let found = index
                    .tags()
                    .find_definition(index.root(), name, None)
                    .ok()?;
                found.into_iter().next().map(|d| d.location.path)
            })
        });
        let Some(path) = elsewhere else {
            return fault;
        };
        let command = format!("Refactor {}", refactoring.spec_name());
        let language = crate::language::language_of(&path);
        let why = language.and_then(|l| super::not_yet(&path, l, Capability::Refactors, &command));
        if let Some(why) = why {
            fault.error.message = super::unsupported_file_first(&why, &fault.error.message);
            fault.error.kind = ErrorKind::NotApplicable;
        }
        fault
    }

    /// Steps 3 and 4: a computed refactor checked against the permissions
    /// and other sessions' unsaved edits, then previewed or committed.
    fn finish_refactor(
        &self,
        sender: &str,
        live: &mut Held,
        refactoring: &Refactoring,
        computed: Computed,
        mode: RefactorMode,
    ) -> Result<RefactorReport, OpError> {
        let Computed {
            refactored,
            checked,
            ..
        } = computed;
        let touched: Vec<&WorkspacePath> = refactored.change.touched();
        // A preview only reads (its diffs show the files); applying writes.
        let permissions = &self.config.permissions;
        match mode {
            RefactorMode::Preview => touched.iter().try_for_each(|path| {
                permissions.check_read(&self.workspace, sender, path.as_str())
            }),
            RefactorMode::Apply => permissions.check_change(sender, touched.iter().copied()),
        }
        .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let own = live.session.name.clone();
        let elsewhere = self.unsaved_elsewhere(&own, &refactored.change);
        if !elsewhere.is_empty() {
            return Err(OpError::new(
                ErrorKind::Stale,
                super::elsewhere::elsewhere_message("refactor", &elsewhere),
            ));
        }
        // The diffs are shown by a preview and carried by a JSON reply.
        let diffs = mode == RefactorMode::Preview
            || live.session.preferences.format == crate::commands::ResponseFormat::Json;
        let files = file_reports(&self.workspace, &refactored.change, diffs);
        let mut report = RefactorReport {
            refactoring: refactoring.clone(),
            refactored,
            files,
            applied: false,
        };
        let change = &report.refactored.change;
        if mode == RefactorMode::Apply && !change.is_empty() {
            let started = std::time::Instant::now();
            let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
            let applied = ctx.apply_change(change, ApplyMode::Commit);
            let carried = std::mem::take(&mut ctx.carried);
            let applied = applied.map_err(|fail| OpError {
                kind: ErrorKind::Stale,
                ..fail
            })?;
            // Other sessions' buffers take the change with this one unlocked.
            Held::unlocked(live, || self.carry_over(&own, carried));
            let committed = started.elapsed();
            self.index_written(change, checked, &applied.stamps);
            tracing::debug!(
                commit_ms = committed.as_secs_f64() * 1e3,
                index_ms = (started.elapsed() - committed).as_secs_f64() * 1e3,
                "refactor committed and indexed"
            );
            report.applied = true;
        }
        Ok(report)
    }

    /// The place of a request, checked as `Open` and `Goto` would check
    /// it (the sender may read the file, the line exists), named as the
    /// workspace names it. Nothing in the session moves.
    fn checked_place(&self, sender: &str, place: &Cursor) -> Result<Cursor, RefactorFault> {
        let at = |argument: Argument| {
            move |error: OpError| RefactorFault {
                error,
                argument: Some(argument),
            }
        };
        let (path, text) = self
            .text_seen(sender, &place.path)
            .map_err(at(Argument::File))?;
        crate::edit::position::to_char(&text, Position::new(place.position.line, 0))
            .map_err(|e| at(Argument::Line)(OpError::from(e)))?;
        Ok(Cursor {
            path: path.to_string(),
            position: place.position,
        })
    }

    /// The files of `change` that are not the texts it was computed
    /// against any more, sorted.
    fn moved_since(&self, session: &Session, change: &WorkspaceChange) -> Vec<String> {
        change
            .files()
            .filter(|(path, file)| match &file.base {
                Base::Disk(stamp) => self
                    .workspace
                    .read(path)
                    .map_or(true, |loaded| loaded.stamp.hash != stamp.hash),
                Base::Buffer { version } => {
                    session.buffer(path).map(|b| b.version()) != Some(*version)
                }
                Base::Absent => !matches!(self.workspace.stamp(path), Ok(None)),
            })
            .map(|(path, _)| path.to_string())
            .collect()
    }

    /// The state of the project `session` sees now ([`project_state_of`]).
    fn project_state(&self, session: &Session) -> String {
        self.with_index(session, |index, _, _| project_state_of(index, session))
    }

    /// Brings the index up to the files a refactor committed: each is
    /// due before the next query at once; then, in the background, the
    /// ones the check parsed, whose text is what the commit wrote (same
    /// hash), are taken from their trees, and the others re-read.
    fn index_written(
        &self,
        change: &WorkspaceChange,
        checked: Vec<check::Checked>,
        stamps: &[(WorkspacePath, DiskStamp)],
    ) {
        self.index.touch(written_paths(change));
        let parsed = checked
            .into_iter()
            .filter_map(|c| {
                let (_, disk) = stamps.iter().find(|(path, _)| *path == c.path)?;
                Some((c, disk.clone()))
            })
            .collect();
        self.index.update_in_background(parsed);
    }

    /// `path lines (session)` for each file of the change whose changed
    /// lines another session than `own` has unsaved edits on (the board of
    /// `elsewhere`: no other session is locked).
    pub(super) fn unsaved_elsewhere(&self, own: &str, change: &WorkspaceChange) -> Vec<String> {
        let mut found = Vec::new();
        for (path, file) in change.files() {
            if self.board.unsaved_in(own, path).is_empty() {
                continue;
            }
            let after = match &file.op {
                FileOp::Edit(edits) => match self.workspace.read(path) {
                    Ok(loaded) => edits.apply(&ropey::Rope::from_str(&loaded.text)).ok(),
                    Err(_) => continue,
                },
                FileOp::Create(_) => continue,
                FileOp::Delete | FileOp::Move { .. } => None,
            };
            found.extend(self.conflicts_elsewhere(own, path, after.as_ref()));
        }
        found.sort();
        found
    }
}

fn no_session() -> OpError {
    OpError::new(
        ErrorKind::NoSession,
        "No session. Start one with: Start <name>",
    )
}

fn pending_of(live: &Held) -> Result<PendingRefactor, OpError> {
    live.session.pending.clone().ok_or_else(|| {
        OpError::new(
            ErrorKind::NotApplicable,
            "No refactor is waiting for Apply or Discard: in preview mode (Set Preview on) a Refactor shows its preview and waits",
        )
    })
}

fn set_pending(live: &mut Held, refactor: Option<PendingRefactor>) {
    if live.session.pending != refactor {
        // Cannot fail: the event only sets a field.
        let _ = live.session.apply(Event::Pending { refactor });
    }
}

/// Every path a committed change wrote: its files, and where moves went.
fn written_paths(change: &WorkspaceChange) -> Vec<&WorkspacePath> {
    let mut paths = change.touched();
    paths.extend(change.files().filter_map(|(_, file)| match &file.op {
        FileOp::Move { to, .. } => Some(to),
        _ => None,
    }));
    paths
}

/// The disk through the workspace, refusing the files the sender has
/// unsaved edits in (the index sees those edits, the disk does not).
/// Which texts a refactor reads of the files a session has unsaved edits
/// in.
#[derive(Clone, Copy)]
enum Texts {
    /// None: a refactor that writes them refuses (Save or Undo first).
    Saved,
    /// The session's, for a check that is never applied.
    Session,
}

pub(super) struct SessionSources<'a> {
    pub(super) disk: WorkspaceSources<'a>,
    pub(super) unsaved: &'a BTreeSet<String>,
    /// The unsaved files' texts and buffer versions, read instead of
    /// refused (a check's: [`Texts::Session`]).
    pub(super) session_texts: &'a BTreeMap<String, (Rope, u64)>,
    /// Every file read, with its stamp, for [`Self::read_since`].
    pub(super) read: std::sync::Mutex<Vec<(WorkspacePath, Base)>>,
}

impl SessionSources<'_> {
    /// The files read whose text is not the one the index scanned: its
    /// positions in them may be off. By content, not by stamp: two writes
    /// of the same length within one tick of the file system's clock
    /// leave the same (mtime, size).
    fn read_since(&self, index: &crate::analysis::index::ProjectIndex) -> Vec<WorkspacePath> {
        let read = self.read.lock().unwrap_or_else(|p| p.into_inner());
        let mut stale: Vec<WorkspacePath> = read
            .iter()
            .filter_map(|(path, base)| {
                let Base::Disk(disk) = base else {
                    return None;
                };
                let indexed = index.content_of(path.as_str())?;
                (indexed.to_hex().as_str() != disk.hash).then(|| path.clone())
            })
            .collect();
        stale.sort();
        stale.dedup();
        stale
    }
}

impl Sources for SessionSources<'_> {
    fn search_text(&self, path: &str) -> Option<String> {
        self.disk.search_text(path)
    }

    fn source(&self, path: &str) -> Result<Source, RefactorError> {
        let source = self.disk.source(path)?;
        if let Some((text, version)) = self.session_texts.get(source.path.as_str()) {
            return Ok(Source {
                text: text.clone(),
                base: Base::Buffer { version: *version },
                ..source
            });
        }
        if self.unsaved.contains(source.path.as_str()) {
            return Err(RefactorError::new(
                RefactorFailure::Stale,
                format!(
                    "The refactor must change {}, which has unsaved edits: Save or Undo them first; nothing was changed",
                    source.path
                ),
            ));
        }
        self.read
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((source.path.clone(), source.base.clone()));
        Ok(source)
    }
}

/// `a.py changed since the preview, so nothing was applied; …`.
fn changed_since_preview(moved: &[impl AsRef<str>], refactoring: &Refactoring) -> OpError {
    let moved: Vec<&str> = moved.iter().map(AsRef::as_ref).collect();
    OpError::new(
        ErrorKind::Stale,
        format!(
            "{} changed since the preview, so nothing was applied; preview it again: Refactor {}",
            moved.join(", "),
            refactoring
        ),
    )
}

/// Why `path` is no place for a refactor's current file: not Python, or
/// a Python script without the `.py` extension (the index reads the
/// project's `.py` files; the refactors change what it knows).
fn not_refactorable_file(path: &str, script: bool) -> Option<String> {
    let language = crate::language::language_of(path);
    if language.is_none() && script {
        return Some(format!(
            "{path} is not a .py file: refactors change the project's .py files, which the index reads; a script without the extension is not among them (code commands work on it)"
        ));
    }
    match language {
        Some(language) if language.supports(Capability::SymbolSites) => {
            super::not_yet(path, language, Capability::Refactors, "Refactor")
        }
        language => super::unsupported(path, language, Capability::Refactors, "code commands"),
    }
}

/// What a refactor's result depends on beyond its request and the files
/// it changes: every file `index` holds — its text (by content hash), its
/// module and project (a new project marker renames modules) — and
/// `session`'s unsaved buffers (by version), as one hash. Equal states give
/// equal results: a kept change stands for a new computation.
fn project_state_of(index: &ProjectIndex, session: &Session) -> String {
    let mut state = blake3::Hasher::new();
    for path in index.paths() {
        for part in [Some(path), index.module_of(path), index.project_of(path)] {
            state.update(part.unwrap_or_default().as_bytes());
            state.update(b"\0");
        }
        match index.content_of(path) {
            Some(content) => state.update(content.as_bytes()),
            None => state.update(b"unsaved"),
        };
    }
    for buffer in session.buffers.values().filter(|b| b.is_modified()) {
        state.update(buffer.path().as_str().as_bytes());
        state.update(&buffer.version().to_le_bytes());
    }
    state.finalize().to_hex().to_string()
}

/// A refactor's error as the engine's, with the argument it names.
fn refactor_fault(error: RefactorError) -> RefactorFault {
    let argument = error.argument;
    RefactorFault {
        error: op_error(error),
        argument,
    }
}

pub(super) fn op_error(error: RefactorError) -> OpError {
    let kind = match error.kind {
        RefactorFailure::NotFound => ErrorKind::NotFound,
        RefactorFailure::Ambiguous => ErrorKind::Ambiguous,
        RefactorFailure::InvalidArgument | RefactorFailure::Unreadable => {
            ErrorKind::InvalidArgument
        }
        RefactorFailure::NameConflict | RefactorFailure::SignatureConflict => ErrorKind::Conflict,
        RefactorFailure::Refused | RefactorFailure::WouldBreak => ErrorKind::NotApplicable,
        RefactorFailure::Stale => ErrorKind::Stale,
    };
    OpError {
        kind,
        message: error.message,
        candidates: error.candidates,
    }
}

/// The content hash each file of the change was computed against.
fn base_hashes(change: &WorkspaceChange) -> Vec<(WorkspacePath, String)> {
    change
        .files()
        .map(|(path, file)| {
            let hash = match &file.base {
                Base::Disk(stamp) => stamp.hash.clone(),
                Base::Buffer { version } => format!("version {version}"),
                Base::Absent => "absent".to_owned(),
            };
            (path.clone(), hash)
        })
        .collect()
}

/// Each touched file's edit count and, with `diffs`, its unified diff
/// (read from disk once: the change was computed against it moments ago),
/// files in parallel.
pub(super) fn file_reports(
    workspace: &Workspace,
    change: &WorkspaceChange,
    diffs: bool,
) -> Vec<FileReport> {
    use rayon::prelude::*;
    let files: Vec<_> = change.files().collect();
    files
        .into_par_iter()
        .map(|(path, file)| {
            if !diffs {
                let edits = match &file.op {
                    FileOp::Edit(edits) => edits.len(),
                    FileOp::Move { edits, .. } => edits.len().max(1),
                    FileOp::Create(_) | FileOp::Delete => 1,
                };
                return FileReport {
                    path: path.to_string(),
                    edits,
                    diff: String::new(),
                };
            }
            let before = || {
                workspace
                    .read(path)
                    .map(|loaded| ropey::Rope::from_str(&loaded.text))
                    .unwrap_or_default()
            };
            let (edits, old, new, new_path) = match &file.op {
                FileOp::Edit(edits) => {
                    let old = before();
                    let new = edits.apply(&old).unwrap_or_else(|_| old.clone());
                    (edits.len(), old.to_string(), new.to_string(), path)
                }
                FileOp::Move { to, edits } => {
                    let old = before();
                    let new = edits.apply(&old).unwrap_or_else(|_| old.clone());
                    (edits.len().max(1), old.to_string(), new.to_string(), to)
                }
                FileOp::Create(text) => (1, String::new(), text.clone(), path),
                FileOp::Delete => (1, before().to_string(), String::new(), path),
            };
            let diff = similar::TextDiff::from_lines(&old, &new)
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{path}"), &format!("b/{new_path}"))
                .to_string();
            FileReport {
                path: path.to_string(),
                edits,
                diff,
            }
        })
        .collect()
}

impl RefactorReport {
    /// The JSON `refactor` object (`protocol/schemas/reply.json`): what the
    /// terse replies carry as data and the refactoring tools answer.
    pub fn json(&self) -> Value {
        super::refactor_words::report_json(self)
    }
}
