//! `[Preview] Replace All "<text>"|/<regex>/ With "<text>" In Files "<glob>"`:
//! a text replacement across the workspace, applied as a refactor is.
//!
//! The files are those `Find All … In Files` searches (the workspace's
//! listing, gitignore-aware, filtered by the glob), read through the
//! workspace: binary, non-UTF-8 and oversized files are skipped and counted.
//! The pattern and the replacement are those of single-file `Replace All`
//! (a text, or a regex with `$1`/`${name}` in the replacement). Every match
//! becomes one [`WorkspaceChange`], checked as a refactor's is — the sender
//! may write every file, it has no unsaved edits in any file that would
//! change, no other session has unsaved edits on the lines it changes —
//! and committed at once (`Ctx::apply_change`): all files or none, one undo
//! step. `Preview` stops after the checks and says what would change. In
//! preview mode (`Set Preview on`) the command previews as a refactor does
//! and keeps the change it computed (each file's edits and the disk stamp
//! they were made on, `PendingReplace`) for `Apply`, which writes exactly
//! that after checking that no file moved on, or `Discard`.

use super::context::Ran;
use crate::outcome::{Fact, Outcome};
use std::collections::BTreeMap;

use rayon::prelude::*;
use ropey::Rope;
use serde_json::json;

use crate::change::{Base, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use crate::commands::{Command, Pattern};
use crate::edit::LineEnding;
use crate::reply::Clause;
use crate::session::{Event, PendingFile, PendingReplace};
use crate::workspace::{FileError, LoadedFile, Workspace, WorkspacePath};

use super::apply::ApplyMode;
use super::context::Ctx;
use super::navigate::{compile, describe, replacements, template};
use super::ops::json::{data, typed};
use super::ops::{ErrorKind, OpError};
use super::search::files_of_glob;
use super::{Engine, Held};

/// The JSON reply's key.
const JSON_KEY: &str = "replaced_in_files";

/// What the pattern does in one file.
enum Replaced {
    /// Its edits (none: no match, or every match already reads as the
    /// replacement) and how many matches were no-ops.
    Edits {
        loaded: LoadedFile,
        edits: Vec<Indel>,
        noops: usize,
    },
    /// A buffer of the sender with unsaved edits the pattern does not match.
    NoMatch,
    /// Matches in a buffer of the sender with unsaved edits (or never saved).
    Unsaved,
    /// Not text Eddi edits (binary, not UTF-8, too large, unreadable): why.
    Skipped(String),
}

/// The request, as the command gives it.
pub(super) struct ReplaceInFiles<'a> {
    pub pattern: &'a Pattern,
    pub replacement: &'a str,
    pub glob: &'a str,
    pub preview: bool,
    /// With `preview`: the unified diff of every file too.
    pub diff: bool,
}

impl ReplaceInFiles<'_> {
    /// The command as it reads (for a waiting preview's replies).
    fn command(&self) -> String {
        Command::ReplaceInFiles {
            pattern: self.pattern.clone(),
            replacement: self.replacement.to_owned(),
            glob: self.glob.to_owned(),
            preview: false,
            diff: false,
        }
        .to_string()
    }
}

/// What a replacement does: previews, waits for `Apply`, or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Preview,
    /// Preview mode (`Set Preview on`): previewed, and kept for `Apply`.
    Wait,
    Apply,
}

/// A computed replacement: the change and what the replies count.
struct Computed {
    change: WorkspaceChange,
    /// Replacements per file.
    counts: BTreeMap<String, usize>,
    searched: usize,
    /// Files that are no text Eddi edits, with why.
    skipped: Vec<(String, String)>,
}

impl Engine {
    /// Replaces (or, previewing, counts) every match in the files of the
    /// glob; see the module doc. In preview mode (`Set Preview on`) it
    /// previews and waits for `Apply`, as a refactor does.
    pub(super) fn replace_in_files_command(
        &self,
        sender: &str,
        live: &mut Held,
        request: &ReplaceInFiles<'_>,
    ) -> Ran {
        let mode = match (request.preview, live.session.preferences.preview) {
            (true, _) => Mode::Preview,
            (false, true) => Mode::Wait,
            (false, false) => Mode::Apply,
        };
        self.replace_in_files(sender, live, request, mode)
    }

    /// The typed operation under the `replace_in_files` tool: previews or
    /// applies (whatever the session's preview mode: the caller says), in
    /// the sender's session; the `replaced_in_files` object.
    pub fn replace_in_files_op(
        &self,
        sender: &str,
        pattern: &Pattern,
        replacement: &str,
        glob: &str,
        preview: bool,
    ) -> Result<serde_json::Value, OpError> {
        let command = Command::ReplaceInFiles {
            pattern: pattern.clone(),
            replacement: replacement.to_owned(),
            glob: glob.to_owned(),
            preview,
            diff: false,
        };
        // The one door, as for a message.
        self.config
            .permissions
            .check(&self.workspace, sender, &command)
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let Some(mut live) = self.hold(sender) else {
            return Err(OpError::new(
                ErrorKind::NoSession,
                "No session. Start one with: Start <name>",
            ));
        };
        let request = ReplaceInFiles {
            pattern,
            replacement,
            glob,
            preview,
            diff: false,
        };
        let mode = if preview { Mode::Preview } else { Mode::Apply };
        let outcome = self.replace_in_files(sender, &mut live, &request, mode);
        self.persist(&mut live).map_err(|e| {
            OpError::new(
                ErrorKind::Internal,
                format!("Could not persist the session ({e})"),
            )
        })?;
        Ok(outcome?
            .facts
            .iter()
            .find_map(|fact| match fact {
                Clause::Data(fields) => fields.get(JSON_KEY).cloned(),
                _ => None,
            })
            .unwrap_or_default())
    }

    fn replace_in_files(
        &self,
        sender: &str,
        live: &mut Held,
        request: &ReplaceInFiles<'_>,
        mode: Mode,
    ) -> Ran {
        let computed = self.compute_replacement(live, request)?;
        self.check_replacement(sender, live, &computed.change, mode == Mode::Apply)?;
        match mode {
            Mode::Preview if request.diff => {
                let mut reply = preview_reply(&computed, false);
                reply.push(Clause::Txt(self.diff_of(&computed.change)));
                Ok(reply)
            }
            Mode::Preview => Ok(preview_reply(&computed, false)),
            Mode::Wait => {
                let pending = PendingReplace {
                    command: request.command(),
                    files: pending_files(&computed.change),
                    searched: computed.searched,
                    skipped: computed.skipped.clone(),
                };
                // One preview waits at a time: this one replaces any other.
                if live.session.pending.is_some() {
                    let _ = live.session.apply(Event::Pending { refactor: None });
                }
                let _ = live.session.apply(Event::PendingReplace {
                    replace: Some(pending),
                });
                Ok(preview_reply(&computed, true))
            }
            Mode::Apply => self.commit_replacement(live, &computed),
        }
    }

    /// `Apply` of a waiting replacement: the change its preview computed,
    /// written if no file of it moved on since.
    pub(super) fn apply_replacement(&self, sender: &str, live: &mut Held) -> Ran {
        let Some(pending) = live.session.pending_replace.clone() else {
            return Err(typed(
                ErrorKind::NotApplicable,
                "No replacement is waiting for Apply",
            ));
        };
        // Whatever happens next, the preview has been answered.
        let _ = live.session.apply(Event::PendingReplace { replace: None });
        let again = format!("preview it again: {}", pending.command);
        let mut moved = Vec::new();
        for file in &pending.files {
            match self.workspace.changed_since(&file.path, Some(&file.base)) {
                Ok(false) => {}
                _ => moved.push(file.path.to_string()),
            }
        }
        let mut unsaved: Vec<String> = pending
            .files
            .iter()
            .filter(|file| {
                live.session
                    .buffer(&file.path)
                    .is_some_and(|b| b.is_modified())
            })
            .map(|file| file.path.to_string())
            .collect();
        if !moved.is_empty() {
            return Err(typed(
                ErrorKind::Stale,
                format!(
                    "{} changed since the preview, so nothing was applied; {again}",
                    moved.join(", ")
                ),
            ));
        }
        if !unsaved.is_empty() {
            unsaved.sort();
            return Err(typed(ErrorKind::Stale, format!(
                "The replacement must change {}, which {} unsaved edits since the preview: Save or Undo them first, then {again}; nothing was changed",
                unsaved.join(", "),
                if unsaved.len() == 1 { "has" } else { "have" }
            )));
        }
        let computed = computed_of(&pending)?;
        self.check_replacement(sender, live, &computed.change, true)
            .and_then(|()| self.commit_replacement(live, &computed))
    }

    /// `Discard` of a waiting replacement.
    pub(super) fn discard_replacement(&self, live: &mut Held) -> Ran {
        match live.session.pending_replace.clone() {
            Some(pending) => {
                let _ = live.session.apply(Event::PendingReplace { replace: None });
                Ok(Outcome::effect(vec![Clause::Fact(Fact::Discarded {
                    what: pending.command,
                })]))
            }
            None => Err(typed(
                ErrorKind::NotApplicable,
                "No replacement is waiting for Discard",
            )),
        }
    }

    /// Every match of the glob's files as one change, or why there is none.
    fn compute_replacement(
        &self,
        live: &Held,
        request: &ReplaceInFiles<'_>,
    ) -> Result<Computed, OpError> {
        let ReplaceInFiles {
            pattern,
            replacement,
            glob,
            ..
        } = *request;
        // A text pattern's line breaks are each file's own.
        let lf = compile(pattern, LineEnding::Lf)?;
        let crlf = compile(pattern, LineEnding::CrLf)?;
        let expand = matches!(pattern, Pattern::Regex(_));
        template(replacement, &lf, expand)?;
        // The sender's buffers that differ from the disk: a match there is
        // refused, as a refactor refuses such a file.
        let (paths, unsaved) = files_of_glob(
            &self.workspace,
            glob,
            live.session
                .buffers
                .values()
                .filter(|b| b.is_modified() || b.disk().is_none())
                .map(|b| (b.path().to_string(), b.text().to_string())),
        )?;
        let limit = self.workspace.max_file_size();
        let workspace = &self.workspace;
        let per_file = |path: &String| -> Result<Replaced, OpError> {
            let regex_of = |text: &str| match LineEnding::detect_str(text) {
                LineEnding::CrLf => &crlf,
                LineEnding::Lf => &lf,
            };
            if let Some(text) = unsaved.get(path) {
                return Ok(if regex_of(text).is_match(text) {
                    Replaced::Unsaved
                } else {
                    Replaced::NoMatch
                });
            }
            let loaded = match read(workspace, path) {
                Ok(loaded) => loaded,
                Err(why) => return Ok(Replaced::Skipped(why)),
            };
            let regex = regex_of(&loaded.text);
            let line_ending = LineEnding::detect_str(&loaded.text);
            let replacement = line_ending.apply(replacement);
            let template = template(&replacement, regex, expand)?;
            let rope = Rope::from_str(&loaded.text);
            let found = replacements(
                regex,
                &rope,
                &loaded.text,
                &replacement,
                template.as_ref(),
                limit,
            )
            .map_err(|fail| OpError {
                message: format!("{path}: {}", fail.message),
                ..fail
            })?;
            let noops = found.iter().filter(|r| r.is_noop).count();
            // Inserted text is written in the file's own line breaks.
            let edits = found
                .into_iter()
                .filter(|r| !r.is_noop)
                .map(|r| Indel::new(r.start..r.end, r.new.replace("\r\n", "\n")))
                .collect();
            Ok(Replaced::Edits {
                loaded,
                edits,
                noops,
            })
        };
        let results: Vec<Result<Replaced, OpError>> = paths.par_iter().map(per_file).collect();

        let mut change = WorkspaceChange::new();
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let mut in_unsaved = Vec::new();
        let mut skipped = Vec::new();
        let mut noops = 0;
        for (path, result) in paths.iter().zip(results) {
            match result? {
                Replaced::Edits {
                    loaded,
                    edits,
                    noops: same,
                } => {
                    noops += same;
                    if edits.is_empty() {
                        continue;
                    }
                    counts.insert(path.clone(), edits.len());
                    let edits = TextEdits::new(edits).map_err(|_| {
                        OpError::new(
                            ErrorKind::Internal,
                            format!("Internal: overlapping matches in {path}"),
                        )
                    })?;
                    let file = FileChange {
                        base: Base::Disk(loaded.stamp),
                        op: FileOp::Edit(edits),
                    };
                    let at = self
                        .workspace
                        .resolve(path)
                        .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
                    change
                        .insert(at, file)
                        .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
                }
                Replaced::Unsaved => in_unsaved.push(path.clone()),
                Replaced::NoMatch => {}
                Replaced::Skipped(why) => skipped.push((path.clone(), why)),
            }
        }
        if !in_unsaved.is_empty() {
            return Err(typed(ErrorKind::Stale, format!(
                "The replacement must change {}, which {} unsaved edits: Save or Undo them first; nothing was changed",
                in_unsaved.join(", "),
                if in_unsaved.len() == 1 { "has" } else { "have" }
            )));
        }
        let computed = Computed {
            change,
            counts,
            searched: paths.len() - skipped.len(),
            skipped,
        };
        if computed.change.is_empty() {
            let scope = computed.searched().to_string();
            if noops > 0 {
                return Err(OpError::new(
                    ErrorKind::NotApplicable,
                    format!(
                        "Replacement equals every match of {}: nothing to change ({scope})",
                        describe(pattern)
                    ),
                ));
            }
            return Err(typed(
                ErrorKind::NotFound,
                format!(
                    "Not found: {} in the files matching \"{glob}\" ({scope})",
                    describe(pattern)
                ),
            ));
        }
        Ok(computed)
    }

    /// The unified diff of every file of the change (read again: it was
    /// computed against them moments ago).
    fn diff_of(&self, change: &WorkspaceChange) -> String {
        let mut text = String::new();
        for (path, file) in change.files() {
            let FileOp::Edit(edits) = &file.op else {
                continue;
            };
            let Ok(loaded) = self.workspace.read(path) else {
                continue;
            };
            let before = Rope::from_str(&loaded.text);
            let Ok(after) = edits.apply(&before) else {
                continue;
            };
            let after = after.to_string();
            let diff = similar::TextDiff::from_lines(&loaded.text, &after);
            text.push_str(
                &diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("a/{path}"), &format!("b/{path}"))
                    .to_string(),
            );
        }
        text.trim_end_matches('\n').to_owned()
    }

    /// The checks of a refactor: permissions (to read for a preview, to
    /// write otherwise), other sessions' unsaved edits on the lines.
    fn check_replacement(
        &self,
        sender: &str,
        live: &Held,
        change: &WorkspaceChange,
        writes: bool,
    ) -> Result<(), OpError> {
        let touched = change.touched();
        let permissions = &self.config.permissions;
        if writes {
            permissions.check_change(sender, touched.iter().copied())
        } else {
            touched
                .iter()
                .try_for_each(|path| permissions.check_read(&self.workspace, sender, path.as_str()))
        }
        .map_err(|denied| typed(ErrorKind::PermissionDenied, denied))?;
        let elsewhere = self.unsaved_elsewhere(&live.session.name, change);
        if !elsewhere.is_empty() {
            return Err(typed(
                ErrorKind::Stale,
                super::elsewhere::elsewhere_message("replacement", &elsewhere),
            ));
        }
        Ok(())
    }

    /// Writes the change as one commit and one undo step.
    fn commit_replacement(&self, live: &mut Held, computed: &Computed) -> Ran {
        let own = live.session.name.clone();
        let change = &computed.change;
        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        let applied = ctx.apply_change(change, ApplyMode::Commit);
        let carried = std::mem::take(&mut ctx.carried);
        applied?;
        // Other sessions' buffers take the change with this one unlocked.
        Held::unlocked(live, || self.carry_over(&own, carried));
        self.index.touch(change.touched());
        let files: Vec<String> = computed.counts.keys().cloned().collect();
        let total = computed.total();
        let mut clauses = vec![Clause::Fact(Fact::ReplacedInFiles { total, files })];
        if !computed.skipped.is_empty() {
            clauses.push(Clause::Fact(computed.searched()));
        }
        clauses.push(computed.json(true, false));
        Ok(Outcome::effect(clauses))
    }
}

impl Computed {
    fn total(&self) -> usize {
        self.counts.values().sum()
    }

    /// `searched 40 files[, skipped 1 file: x.py (binary)]`.
    /// The files searched and those skipped, as the reply says them.
    fn searched(&self) -> Fact {
        Fact::Searched {
            searched: self.searched,
            skipped: self
                .skipped
                .iter()
                .map(|(path, why)| (path.to_string(), why.to_string()))
                .collect(),
        }
    }

    /// The JSON `replaced_in_files` object.
    fn json(&self, applied: bool, waiting: bool) -> Clause {
        let skipped: Vec<serde_json::Value> = self
            .skipped
            .iter()
            .map(|(path, why)| json!({"path": path, "reason": why}))
            .collect();
        let mut object = json!({
            "total": self.total(),
            "files": self.counts,
            "searched": self.searched,
            "skipped_files": skipped,
            "applied": applied,
        });
        if waiting {
            object["waiting"] = json!(true);
        }
        data(JSON_KEY, object)
    }
}

/// `Preview: Would replace 4 occurrences in 2 files: a.py (2), b.py (2)`,
/// and, waiting for `Apply`, what to answer.
fn preview_reply(computed: &Computed, waiting: bool) -> Outcome {
    let counts = computed
        .counts
        .iter()
        .map(|(path, n)| (path.clone(), *n))
        .collect();
    let mut clauses = vec![Clause::Fact(Fact::WouldReplace { counts })];
    if waiting {
        clauses.push(Clause::Fact(Fact::ApplyOrDiscard));
    }
    if !computed.skipped.is_empty() {
        clauses.push(Clause::Fact(computed.searched()));
    }
    clauses.push(computed.json(false, waiting));
    Outcome::effect(clauses)
}

/// The change as a waiting preview keeps it.
fn pending_files(change: &WorkspaceChange) -> Vec<PendingFile> {
    change
        .files()
        .filter_map(|(path, file)| match (&file.base, &file.op) {
            (Base::Disk(stamp), FileOp::Edit(edits)) => Some(PendingFile {
                path: path.clone(),
                base: stamp.clone(),
                edits: edits
                    .iter()
                    .map(|i| (i.range.start, i.range.end, i.insert.clone()))
                    .collect(),
            }),
            _ => None,
        })
        .collect()
}

/// A waiting preview's change, as it was computed.
fn computed_of(pending: &PendingReplace) -> Result<Computed, OpError> {
    let mut change = WorkspaceChange::new();
    let mut counts = BTreeMap::new();
    for file in &pending.files {
        let edits = TextEdits::new(
            file.edits
                .iter()
                .map(|(start, end, text)| Indel::new(*start..*end, text.clone())),
        )
        .map_err(|_| {
            OpError::new(
                ErrorKind::Internal,
                format!("Internal: overlapping edits kept for {}", file.path),
            )
        })?;
        counts.insert(file.path.to_string(), edits.len());
        change
            .insert(
                file.path.clone(),
                FileChange {
                    base: Base::Disk(file.base.clone()),
                    op: FileOp::Edit(edits),
                },
            )
            .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
    }
    Ok(Computed {
        change,
        counts,
        searched: pending.searched,
        skipped: pending.skipped.clone(),
    })
}

/// A file read through the workspace, or why it is no text Eddi edits.
fn read(workspace: &Workspace, path: &str) -> Result<LoadedFile, String> {
    let loaded = workspace
        .resolve(path)
        .and_then(|resolved: WorkspacePath| workspace.read(&resolved));
    loaded.map_err(|e| match e {
        FileError::Binary(_) => "binary".into(),
        FileError::NotUtf8(_) => "not UTF-8".into(),
        FileError::TooLarge { size, .. } => format!("{size} bytes"),
        e => e.to_string(),
    })
}
