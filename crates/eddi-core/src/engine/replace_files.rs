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
//! step. `Preview` stops after the checks and says what would change.

use std::collections::BTreeMap;

use rayon::prelude::*;
use ropey::Rope;
use serde_json::json;

use crate::change::{Base, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use crate::commands::Pattern;
use crate::edit::LineEnding;
use crate::reply::{plural, Clause, Reply};
use crate::workspace::{FileError, LoadedFile, Workspace, WorkspacePath};

use super::apply::ApplyMode;
use super::context::Ctx;
use super::navigate::{compile, describe, replacements, template};
use super::ops::json::{data, typed};
use super::ops::ErrorKind;
use super::search::files_of_glob;
use super::{Engine, Held};

/// How many file names a reply lists before `… (N more)`.
const FILES_SHOWN: usize = 10;

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
}

impl Engine {
    /// Replaces (or, previewing, counts) every match in the files of the
    /// glob; see the module doc.
    pub(super) fn replace_in_files_command(
        &self,
        sender: &str,
        live: &mut Held,
        request: &ReplaceInFiles<'_>,
    ) -> Reply {
        self.replace_in_files(sender, live, request)
            .unwrap_or_else(|fail| fail)
    }

    fn replace_in_files(
        &self,
        sender: &str,
        live: &mut Held,
        request: &ReplaceInFiles<'_>,
    ) -> Result<Reply, Reply> {
        let ReplaceInFiles {
            pattern,
            replacement,
            glob,
            preview,
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
        let per_file = |path: &String| -> Result<Replaced, Reply> {
            let regex_of = |text: &str| match line_ending_of(text) {
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
            let line_ending = line_ending_of(&loaded.text);
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
            .map_err(|fail| {
                Reply::fail(format!("{path}: {}", fail.failure().unwrap_or_default()))
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
        let results: Vec<Result<Replaced, Reply>> = paths.par_iter().map(per_file).collect();

        let mut change = WorkspaceChange::new();
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let mut in_unsaved = Vec::new();
        let mut skipped = Vec::new();
        let mut skipped_data = Vec::new();
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
                        Reply::fail(format!("Internal: overlapping matches in {path}"))
                    })?;
                    let file = FileChange {
                        base: Base::Disk(loaded.stamp),
                        op: FileOp::Edit(edits),
                    };
                    let at = self
                        .workspace
                        .resolve(path)
                        .map_err(|e| Reply::fail(e.to_string()))?;
                    change
                        .insert(at, file)
                        .map_err(|e| Reply::fail(format!("Internal: {e}")))?;
                }
                Replaced::Unsaved => in_unsaved.push(path.clone()),
                Replaced::NoMatch => {}
                Replaced::Skipped(why) => {
                    skipped.push(format!("{path} ({why})"));
                    skipped_data.push(json!({"path": path, "reason": why}));
                }
            }
        }
        if !in_unsaved.is_empty() {
            return Err(typed(ErrorKind::Stale, format!(
                "The replacement must change {}, which {} unsaved edits: Save or Undo them first; nothing was changed",
                in_unsaved.join(", "),
                if in_unsaved.len() == 1 { "has" } else { "have" }
            )));
        }
        let total: usize = counts.values().sum();
        let searched = paths.len() - skipped.len();
        let mut scope = format!("searched {searched} {}", plural(searched, "file"));
        if !skipped.is_empty() {
            let n = skipped.len();
            scope.push_str(&format!(
                ", skipped {n} {}: {}",
                plural(n, "file"),
                shown(&skipped)
            ));
        }
        if total == 0 {
            if noops > 0 {
                return Err(Reply::fail(format!(
                    "Replacement equals every match of {}: nothing to change ({scope})",
                    describe(pattern)
                )));
            }
            return Err(typed(
                ErrorKind::NotFound,
                format!(
                    "Not found: {} in the files matching \"{glob}\" ({scope})",
                    describe(pattern)
                ),
            ));
        }

        // The checks of a refactor: permissions, other sessions' edits.
        let touched = change.touched();
        let permissions = &self.config.permissions;
        if preview {
            touched
                .iter()
                .try_for_each(|path| permissions.check_read(&self.workspace, sender, path.as_str()))
        } else {
            permissions.check_change(sender, touched.iter().copied())
        }
        .map_err(|denied| typed(ErrorKind::PermissionDenied, denied))?;
        let own = live.session.name.clone();
        let elsewhere = self.unsaved_elsewhere(&own, &change);
        if !elsewhere.is_empty() {
            return Err(typed(
                ErrorKind::Stale,
                super::elsewhere::elsewhere_message("replacement", &elsewhere),
            ));
        }

        let files: Vec<String> = counts.keys().cloned().collect();
        let k = files.len();
        let json = data(
            "replaced_in_files",
            json!({
                "total": total,
                "files": counts,
                "searched": searched,
                "skipped_files": skipped_data,
                "applied": !preview,
            }),
        );
        if preview {
            let listed: Vec<String> = counts
                .iter()
                .map(|(path, n)| format!("{path} ({n})"))
                .collect();
            let mut clauses = vec![Clause::Note(format!(
                "Preview: Would replace {total} {} in {k} {}: {}",
                plural(total, "occurrence"),
                plural(k, "file"),
                shown(&listed)
            ))];
            if !skipped.is_empty() {
                clauses.push(Clause::Note(scope));
            }
            clauses.push(json);
            return Ok(Reply::Done(clauses));
        }

        let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
        let applied = ctx.apply_change(&change, ApplyMode::Commit);
        let carried = std::mem::take(&mut ctx.carried);
        applied?;
        // Other sessions' buffers take the change with this one unlocked.
        Held::unlocked(live, || self.carry_over(&own, carried));
        self.index.touch(change.touched());
        let mut clauses = vec![Clause::Note(format!(
            "Replaced {total} {} in {k} {} ({})",
            plural(total, "occurrence"),
            plural(k, "file"),
            shown(&files)
        ))];
        if !skipped.is_empty() {
            clauses.push(Clause::Note(scope));
        }
        clauses.push(json);
        Ok(Reply::Done(clauses))
    }
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

/// The style of a text's first line break (as `LineEnding::detect`).
fn line_ending_of(text: &str) -> LineEnding {
    match text.find('\n') {
        Some(i) if text[..i].ends_with('\r') => LineEnding::CrLf,
        _ => LineEnding::Lf,
    }
}

/// The first names, then `… (N more)`.
fn shown(items: &[String]) -> String {
    let mut shown: Vec<String> = items.iter().take(FILES_SHOWN).cloned().collect();
    if items.len() > FILES_SHOWN {
        shown.push(format!("… ({} more)", items.len() - FILES_SHOWN));
    }
    shown.join(", ")
}
