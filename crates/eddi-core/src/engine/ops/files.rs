//! The operations on files as text, for clients other than the terse
//! commands (the agent tools): read numbered lines with the text's content
//! hash, replace lines (refused when the hash moved on), create and delete
//! files, undo, and run a typed command — each in `sender`'s session and
//! through the engine's one door (`Permissions`) and one applier
//! (`apply_change`, committed: one undo step, all files or none).
//!
//! A file is seen as the sender sees it: its buffer when open (unsaved
//! edits included), else the disk. The content hash is blake3 of that
//! text (what `Buffer::content_hash` computes), so a hash read here is the
//! precondition of the next edit.

use std::collections::BTreeMap;

use ropey::Rope;

use crate::change::{Base, FileChange, FileOp, Indel, TextEdits, WorkspaceChange};
use crate::commands::Command;
use crate::edit::position;
use crate::outcome::Outcome;
use crate::workspace::WorkspacePath;

use super::super::{lock, ApplyMode, Engine};
use super::code::file_error;
use super::{ErrorKind, OpError};

/// Numbered lines of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLines {
    pub path: String,
    /// blake3 of the whole text, hex: the `expected_hash` of an edit.
    pub hash: String,
    /// The number (zero-based) of the first line in `lines`.
    pub first: usize,
    /// The lines without their line breaks.
    pub lines: Vec<String>,
    /// Lines in the file (a final line break opens no line).
    pub total: usize,
    /// The range asked for went past the end and was cut to the file.
    pub clamped: bool,
}

/// Lines to replace: `start..=end`, zero-based; `end == start - 1`
/// replaces nothing and inserts before `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRange {
    pub start: usize,
    /// Inclusive; `None`: the line `start` alone.
    pub end: Option<i64>,
}

/// What a line edit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinesEdited {
    pub path: String,
    /// The hash of the new text: the precondition of the next edit.
    pub hash: String,
    /// The first line replaced (or inserted before).
    pub start: usize,
    pub removed: usize,
    pub inserted: usize,
    /// Lines in the file now.
    pub total: usize,
    /// The edit made a valid Python file invalid: `Now invalid Python (1
    /// syntax error): 3:8 missing ':'` — written anyway, but said, as the
    /// terse edits say it.
    pub warning: Option<String>,
}

/// Why a line edit was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// The file is not what the caller last read: its current hash and the
    /// range's current text, to edit again without another read.
    Stale {
        path: String,
        expected: String,
        current_hash: String,
        current_text: String,
    },
    Op(OpError),
}

impl From<OpError> for EditError {
    fn from(error: OpError) -> EditError {
        EditError::Op(error)
    }
}

/// A file created, deleted or changed by undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilesChanged {
    /// Workspace-relative, sorted.
    pub files: Vec<String>,
}

/// A file as the sender sees it.
struct Seen {
    path: WorkspacePath,
    text: Rope,
    hash: String,
    base: Base,
}

impl Engine {
    /// `get_lines`: lines `start..=end` (zero-based, clamped to the file)
    /// with the file's content hash.
    pub fn read_lines(
        &self,
        sender: &str,
        path: &str,
        start: Option<usize>,
        end: Option<usize>,
    ) -> Result<FileLines, OpError> {
        self.may_read(sender, path)?;
        let seen = self.seen(sender, path)?;
        let total = position::counted_lines(&seen.text);
        let first = start.unwrap_or(0);
        if first > total.max(1) - 1 && !(first == 0 && total == 0) {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                format!(
                    "start: line {first} is past the end of {} (lines 0-{})",
                    seen.path,
                    total.max(1) - 1
                ),
            ));
        }
        let asked_last = end.unwrap_or(usize::MAX);
        if asked_last < first {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                format!("end: {asked_last} is before start {first}"),
            ));
        }
        let last = asked_last.min(total.saturating_sub(1));
        let lines = if total == 0 {
            Vec::new()
        } else {
            (first..=last).map(|l| line_text(&seen.text, l)).collect()
        };
        Ok(FileLines {
            path: seen.path.to_string(),
            hash: seen.hash,
            first,
            lines,
            total,
            clamped: end.is_some() && asked_last > last,
        })
    }

    /// `edit_lines`: replaces lines with `content` (whole lines, `\n`
    /// between them; a last line break is added), committed to disk as one
    /// undo step of the sender's session. With `expected_hash`, refused
    /// unless the file is still the text that hash was read from.
    pub fn edit_lines(
        &self,
        sender: &str,
        path: &str,
        range: LineRange,
        content: &str,
        expected_hash: Option<&str>,
    ) -> Result<LinesEdited, EditError> {
        self.may_write(sender, path)?;
        self.ensure_session(sender)?;
        let seen = self.seen(sender, path)?;
        let total = position::counted_lines(&seen.text);
        let (start, end) = (range.start, range.end.unwrap_or(range.start as i64));
        let removed = end + 1 - start as i64;
        let range_text = |text: &Rope| -> String {
            let last = (end.max(0) as usize).min(total.saturating_sub(1));
            if total == 0 || removed <= 0 || start >= total {
                return String::new();
            }
            (start..=last)
                .map(|l| line_text(text, l))
                .collect::<Vec<_>>()
                .join("\n")
        };
        if let Some(expected) = expected_hash {
            if expected.len() < MIN_HASH || !expected.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(OpError::new(
                    ErrorKind::InvalidArgument,
                    format!("expected_hash: '{expected}' is not a content hash; give the `hash` get_lines returned ({MIN_HASH} hex digits or more)"),
                )
                .into());
            }
            if !hash_matches(expected, &seen.hash) {
                return Err(EditError::Stale {
                    path: seen.path.to_string(),
                    expected: expected.to_owned(),
                    current_hash: seen.hash.clone(),
                    current_text: range_text(&seen.text),
                });
            }
        }
        if removed < 0 {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                format!(
                    "end: {end} is before start {start}; to insert before line {start} without replacing, use end = {}",
                    start as i64 - 1
                ),
            )
            .into());
        }
        let removed = removed as usize;
        // Inserting may go right after the last line; replacing must name lines that exist.
        let limit = if removed == 0 {
            total
        } else {
            total.saturating_sub(1)
        };
        let last_needed = if removed == 0 { start } else { end as usize };
        if last_needed > limit {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                format!(
                    "{}: line {last_needed} is past the end of {} ({} lines: 0-{}); to append, use start = {total} and end = {}",
                    if removed == 0 || start > limit { "start" } else { "end" },
                    seen.path,
                    total,
                    total.saturating_sub(1),
                    total as i64 - 1
                ),
            )
            .into());
        }
        if removed == 0 && content.is_empty() {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                "content: empty, and the range replaces no line: nothing to do",
            )
            .into());
        }
        let text = &seen.text;
        let from = text.line_to_char(start.min(text.len_lines() - 1));
        let from = if start >= text.len_lines() {
            text.len_chars()
        } else {
            from
        };
        let to = if removed == 0 {
            from
        } else if start + removed < text.len_lines() {
            text.line_to_char(start + removed)
        } else {
            text.len_chars()
        };
        let mut insert = content.replace("\r\n", "\n");
        let ends_file = to == text.len_chars();
        let file_had_final_break = text.len_chars() > 0 && text.char(text.len_chars() - 1) == '\n';
        // The last line of a file that ends without a break keeps ending so.
        let keeps_no_break = ends_file && text.len_chars() > 0 && !file_had_final_break;
        if !insert.is_empty() && !insert.ends_with('\n') && !keeps_no_break {
            insert.push('\n');
        }
        // Appending after a last line without a break: the break goes first.
        if removed == 0 && from == text.len_chars() && text.len_chars() > 0 && !file_had_final_break
        {
            insert = format!("\n{}", insert.strip_suffix('\n').unwrap_or(&insert));
        }
        // Deleting the last lines of a file without a final break leaves
        // the one before them without one too.
        let from = if insert.is_empty() && ends_file && !file_had_final_break && from > 0 {
            from - 1
        } else {
            from
        };
        let inserted = if insert.is_empty() {
            0
        } else {
            insert
                .trim_start_matches('\n')
                .split_terminator('\n')
                .count()
        };
        let edits = TextEdits::new([Indel::new(from..to, insert)]).map_err(|(a, b)| {
            OpError::new(
                ErrorKind::Internal,
                format!("overlapping edits {a:?} {b:?}"),
            )
        })?;
        let change = WorkspaceChange::edit(seen.path.clone(), seen.base, edits);
        self.commit(sender, &change)?;
        let after = self.seen(sender, seen.path.as_str())?;
        Ok(LinesEdited {
            path: after.path.to_string(),
            total: position::counted_lines(&after.text),
            warning: broke_syntax(&seen.path, &seen.text, &after.text),
            hash: after.hash,
            start,
            removed,
            inserted,
        })
    }

    /// `create_file`: a new file with `content`, committed.
    pub fn create_file(
        &self,
        sender: &str,
        path: &str,
        content: &str,
    ) -> Result<FileLines, OpError> {
        self.may_write(sender, path)?;
        self.ensure_session(sender)?;
        let resolved = self.workspace.resolve(path).map_err(file_error)?;
        let exists = self
            .workspace
            .stamp(&resolved)
            .map_err(file_error)?
            .is_some()
            || self
                .live_of(sender)
                .is_some_and(|live| lock(&live).session.buffers.contains_key(&resolved));
        if exists {
            return Err(OpError::new(
                ErrorKind::Conflict,
                format!("{resolved} exists: change it with edit_lines, or delete_file it first"),
            ));
        }
        let mut change = WorkspaceChange::new();
        change
            .insert(
                resolved.clone(),
                FileChange {
                    base: Base::Absent,
                    op: FileOp::Create(content.replace("\r\n", "\n")),
                },
            )
            .map_err(|e| OpError::new(ErrorKind::Internal, e.to_string()))?;
        self.commit(sender, &change)?;
        self.read_lines(sender, resolved.as_str(), Some(0), Some(0))
            .map(|lines| FileLines {
                lines: Vec::new(),
                ..lines
            })
    }

    /// `delete_file`: removes the file from disk (and the session's buffers).
    pub fn delete_file(&self, sender: &str, path: &str) -> Result<FilesChanged, OpError> {
        self.may_write(sender, path)?;
        self.ensure_session(sender)?;
        let seen = self.seen(sender, path)?;
        let mut change = WorkspaceChange::new();
        change
            .insert(
                seen.path.clone(),
                FileChange {
                    base: seen.base,
                    op: FileOp::Delete,
                },
            )
            .map_err(|e| OpError::new(ErrorKind::Internal, e.to_string()))?;
        self.commit(sender, &change)?;
        Ok(FilesChanged {
            files: vec![seen.path.to_string()],
        })
    }

    /// `undo`: takes back the last step of `path` (else of the session's
    /// current file) — on disk too when the step was committed, in every
    /// file of a multi-file step. Says which files changed.
    pub fn undo_step(&self, sender: &str, path: Option<&str>) -> Result<FilesChanged, OpError> {
        self.ensure_session(sender)?;
        if let Some(path) = path {
            self.may_read(sender, path)?;
            let resolved = self.workspace.resolve(path).map_err(file_error)?;
            // Open, or written by a committed step that is not undone (its
            // undo works from the disk, the file open or not).
            let changed =
                self.live_of(sender).is_some_and(|live| {
                    let live = lock(&live);
                    live.session.buffers.contains_key(&resolved)
                        || live.session.steps.values().any(|step| {
                            !step.undone && step.writes.iter().any(|w| w.path == resolved)
                        })
                });
            if !changed {
                return Err(OpError::new(
                    ErrorKind::NotApplicable,
                    format!("Nothing to undo in {resolved}: this session has not changed it"),
                ));
            }
            self.command(
                sender,
                &Command::Open {
                    create: false,
                    path: resolved.to_string(),
                },
            )?;
        }
        let before = self.versions(sender);
        let steps_before = self.steps_undone(sender);
        self.command(sender, &Command::Undo { count: 1 })?;
        let after = self.versions(sender);
        let mut files: Vec<String> = after
            .iter()
            .filter(|(path, version)| before.get(*path) != Some(version))
            .map(|(path, _)| path.clone())
            .collect();
        files.extend(before.keys().filter(|p| !after.contains_key(*p)).cloned());
        // A committed step's files that are not open changed on disk.
        if let Some(live) = self.live_of(sender) {
            let live = lock(&live);
            for (group, step) in &live.session.steps {
                if steps_before.get(group) != Some(&step.undone) {
                    files.extend(step.files.iter().map(|p| p.to_string()));
                }
            }
        }
        files.sort();
        files.dedup();
        Ok(FilesChanged { files })
    }

    /// Runs one typed command in the sender's session, through the same
    /// door as a message (permissions), persisting its events.
    pub fn command(&self, sender: &str, command: &Command) -> Result<Outcome, OpError> {
        self.config
            .permissions
            .check(&self.workspace, sender, command)
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let mut held = self.hold(sender);
        let outcome = self.dispatch(sender, &mut held, command, None);
        if let Some(live) = held.as_deref_mut() {
            self.persist(live).map_err(|e| {
                OpError::new(
                    ErrorKind::Internal,
                    format!("Could not persist the session ({e})"),
                )
            })?;
        }
        outcome
    }

    /// Starts a session for `sender` when it has none (named after it),
    /// so tools work without a `Start`; the session is an ordinary one.
    pub fn ensure_session(&self, sender: &str) -> Result<String, OpError> {
        if let Some(name) = self.session_of(sender) {
            return Ok(name);
        }
        let base: String = sender
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .take(56)
            .collect();
        let base = if base.is_empty() {
            "tools".into()
        } else {
            base
        };
        for n in 1..100 {
            let name = if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            if !self.registry().sessions.contains_key(&name) {
                return match self.start_new(sender, &name, Some("agent tools")) {
                    Err(error) if self.session_of(sender).is_none() => Err(OpError {
                        kind: ErrorKind::Internal,
                        ..error
                    }),
                    _ => Ok(self.session_of(sender).unwrap_or(name)),
                };
            }
        }
        Err(OpError::new(
            ErrorKind::Conflict,
            format!("No free session name for {sender}; Start one yourself"),
        ))
    }

    /// The stored answer to a retried request `id` of `sender`, if any.
    pub fn recall(&self, sender: &str, id: &str) -> Option<(String, bool)> {
        let live = self.hold(sender)?;
        let answer = live.session.answered(id)?;
        Some((answer.reply.clone(), answer.ok))
    }

    /// Stores the answer to request `id`, for its retries (needs a session).
    pub fn record(&self, sender: &str, id: &str, answer: &str, ok: bool) {
        if let Some(mut live) = self.hold(sender) {
            super::super::note_answer(&mut live, id, answer, ok);
            let _ = self.persist(&mut live);
        }
    }

    /// Applies and commits `change`; a change of one file makes it the
    /// session's current file (what `undo` without a path takes back).
    fn commit(&self, sender: &str, change: &WorkspaceChange) -> Result<(), OpError> {
        self.apply_change(sender, change, ApplyMode::Commit)
            .map(|applied| {
                if let [path] = applied.files.as_slice() {
                    let open = Command::Open {
                        create: false,
                        path: path.to_string(),
                    };
                    let mut held = self.hold(sender);
                    if held
                        .as_ref()
                        .is_some_and(|live| live.session.buffers.contains_key(path))
                    {
                        let _ = self.dispatch(sender, &mut held, &open, None);
                    }
                    if let Some(live) = held.as_deref_mut() {
                        let _ = self.persist(live);
                    }
                }
            })
    }

    fn may_read(&self, sender: &str, path: &str) -> Result<(), OpError> {
        self.config
            .permissions
            .check_read(&self.workspace, sender, path)
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))
    }

    /// The door for a tool that writes `path`: read-only senders and path
    /// prefixes, before anything is computed.
    fn may_write(&self, sender: &str, path: &str) -> Result<(), OpError> {
        self.may_read(sender, path)?;
        match self.workspace.resolve(path) {
            Ok(resolved) => self.config.permissions.check_change(sender, [&resolved]),
            Err(_) => self
                .config
                .permissions
                .check_change(sender, std::iter::empty()),
        }
        .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))
    }

    /// `path` and its text as `sender` sees it (its open buffer, else the
    /// disk), if the sender may read it.
    pub(in crate::engine) fn text_seen(
        &self,
        sender: &str,
        path: &str,
    ) -> Result<(WorkspacePath, Rope), OpError> {
        self.may_read(sender, path)?;
        let seen = self.seen(sender, path)?;
        Ok((seen.path, seen.text))
    }

    fn seen(&self, sender: &str, path: &str) -> Result<Seen, OpError> {
        let resolved = self.workspace.resolve(path).map_err(file_error)?;
        let open = self.live_of(sender).and_then(|live| {
            let live = lock(&live);
            live.session
                .buffers
                .get(&resolved)
                .map(|b| (b.text().clone(), b.content_hash(), b.version()))
        });
        Ok(match open {
            Some((text, hash, version)) => Seen {
                path: resolved,
                text,
                hash,
                base: Base::Buffer { version },
            },
            None => {
                let loaded = self.workspace.read(&resolved).map_err(file_error)?;
                Seen {
                    path: resolved,
                    hash: blake3::hash(loaded.text.as_bytes()).to_hex().to_string(),
                    text: Rope::from_str(&loaded.text),
                    base: Base::Disk(loaded.stamp),
                }
            }
        })
    }

    /// Whether each committed step of the session is undone, by group.
    fn steps_undone(&self, sender: &str) -> BTreeMap<u64, bool> {
        self.live_of(sender)
            .map(|live| {
                lock(&live)
                    .session
                    .steps
                    .iter()
                    .map(|(group, step)| (*group, step.undone))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Each open buffer's version, by path.
    fn versions(&self, sender: &str) -> BTreeMap<String, u64> {
        self.live_of(sender)
            .map(|live| {
                lock(&live)
                    .session
                    .buffers
                    .iter()
                    .map(|(path, b)| (path.to_string(), b.version()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// blake3 of a text, hex — what `Buffer::content_hash` computes.
pub fn text_hash(text: &Rope) -> String {
    let mut hasher = blake3::Hasher::new();
    for chunk in text.chunks() {
        hasher.update(chunk.as_bytes());
    }
    hasher.finalize().to_hex().to_string()
}

/// Whether `expected` (a hash as the tools show it: at least
/// [`MIN_HASH`] leading hex digits of the full one) names `current`.
pub fn hash_matches(expected: &str, current: &str) -> bool {
    expected.len() >= MIN_HASH && current.starts_with(&expected.to_ascii_lowercase())
}

/// The fewest hex digits of a content hash an `expected_hash` may give
/// (64 bits: no accidental match between two versions of a file).
pub const MIN_HASH: usize = 16;

/// The note for an edit that made a valid file invalid (the whole file
/// parsed before and after: a tool's edit is one call, not a typing
/// step); `None` for files of a language without a syntax check and
/// edits that keep it valid.
fn broke_syntax(path: &WorkspacePath, before: &Rope, after: &Rope) -> Option<String> {
    use crate::analysis::SyntaxTree;
    use crate::language::{self, Capability};
    let language = language::supporting(path.as_str(), Capability::SyntaxCheck)?;
    let check = language.syntax_check()?;
    let errors = |text: &Rope| {
        SyntaxTree::parse_language(language, text)
            .map(|tree| check(text, &tree))
            .unwrap_or_default()
    };
    let now = errors(after);
    if now.is_empty() || !errors(before).is_empty() {
        return None;
    }
    Some(super::super::code::now_invalid(language, now).to_string())
}

/// Line `line` without its line break.
fn line_text(text: &Rope, line: usize) -> String {
    let len = position::line_len(text, line);
    text.line(line).slice(..len).to_string()
}
