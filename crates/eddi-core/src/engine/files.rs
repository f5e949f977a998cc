//! File commands: `Open`, `Save`, `Close`, `List`, `Diff`.

use crate::failure::OpError;
use crate::outcome::{Fact, Outcome};
use similar::TextDiff;

use crate::analysis::changes::{code_changes, terse};
use crate::language::Capability;
use crate::reply::Clause;
use crate::session::Event;
use crate::workspace::{CommitError, Expect, FileError, FileWrite, WorkspacePath};

use super::apply::commit_fail;
use super::context::{Ctx, Ran};
use super::ops::json::typed;
use super::ops::ErrorKind;
use super::output;

impl Ctx<'_> {
    pub(super) fn open(&mut self, create: bool, given: &str) -> Ran {
        let path = self.workspace.resolve(given).map_err(file_fail)?;
        // One file, one buffer, whatever name it is reached by.
        let alias = self.workspace.alias_of(given, &path).map(|alias| {
            Clause::Fact(Fact::OpenedAs {
                path: path.to_string(),
                alias,
            })
        });
        if let Some(buffer) = self.session.buffer(&path) {
            let mut reply = Outcome::effect(vec![
                Clause::At(buffer.cursor()),
                Clause::Length(buffer.line_count()),
            ]);
            if let Some(alias) = alias.clone() {
                reply.push(alias);
            }
            self.apply(Event::Switched { path })?;
            return Ok(reply);
        }
        let (text, disk) = match self.workspace.read(&path) {
            Ok(loaded) => (loaded.text, Some(loaded.stamp)),
            Err(FileError::NotFound(_)) if create => (String::new(), None),
            Err(e) => return Err(file_fail(e)),
        };
        self.apply(Event::Opened {
            path: path.clone(),
            text,
            disk,
        })?;
        // A file opened to work in is parsed now: its first edit can then
        // tell whether it broke the syntax, and its first code command
        // waits for nothing.
        if let Some(buffer) = self.session.buffers.get_mut(&path) {
            buffer.ensure_syntax();
        }
        let lines = self.current()?.line_count();
        let mut reply = Outcome::effect(vec![
            Clause::At(crate::edit::Position::ZERO),
            Clause::Length(lines),
        ]);
        if let Some(alias) = alias {
            reply.push(alias);
        }
        Ok(reply)
    }

    pub(super) fn save(&mut self, close: bool, force: bool, given: Option<&str>) -> Ran {
        let path = self.open_or_current(given)?;
        let buffer = self
            .session
            .buffer(&path)
            .expect("find_open returns open files");
        // A file deleted on disk is written again, edited or not (the
        // notice about it says so).
        let deleted =
            buffer.disk().is_some() && self.workspace.stamp(&path).map_err(file_fail)?.is_none();
        if !buffer.is_modified() && !force && !deleted {
            if close {
                self.apply(Event::Closed { path })?;
                return Ok(Outcome::effect(vec![Clause::Fact(
                    Fact::NothingToSaveClosed,
                )]));
            }
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!("No changes to save in {path}"),
            ));
        }
        let expect = self.save_expect(&path, force)?;
        let bytes = buffer.text().to_string().into_bytes();
        let write = FileWrite {
            path: path.clone(),
            expect,
            content: Some(bytes),
        };
        let stamp = self
            .commit_writes(std::slice::from_ref(&write), "save", |error| match error {
                CommitError::Conflicts(_) => typed(ErrorKind::Stale, format!(
                    "{path} changed on disk since it was opened; Save Force overwrites it, Diff shows the difference, or Close and Open to take the new text"
                )),
                e => commit_fail(e),
            })?
            .pop()
            .flatten()
            .expect("a saved file has a stamp");
        // what is on disk (a declared encoding may differ from UTF-8)
        let bytes = stamp.len as usize;
        self.apply(Event::Saved {
            path: path.clone(),
            disk: stamp,
        })?;
        let mut reply = Outcome::effect(vec![Clause::Bytes(bytes)]);
        // Saved anyway, but said: the agent should know the file is broken.
        let buffer = self
            .session
            .buffers
            .get_mut(&path)
            .expect("saved buffer is open");
        if let Some(errors) = super::code::saved_with_errors(buffer, None) {
            reply.push(errors);
        }
        if close {
            self.apply(Event::Closed { path })?;
        }
        Ok(reply)
    }

    /// `Save All`: every modified open file of the session, as one commit
    /// (all of them or none; a conflict names every file in the way).
    pub(super) fn save_all(&mut self, force: bool) -> Ran {
        let modified: Vec<WorkspacePath> = self
            .session
            .buffers
            .values()
            .filter(|b| b.is_modified())
            .map(|b| b.path().clone())
            .collect();
        if modified.is_empty() {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                "No changes to save in any open file",
            ));
        }
        let mut writes = Vec::with_capacity(modified.len());
        for path in &modified {
            let expect = self.save_expect(path, force)?;
            let buffer = self.session.buffer(path).expect("listed above");
            writes.push(FileWrite {
                path: path.clone(),
                expect,
                content: Some(buffer.text().to_string().into_bytes()),
            });
        }
        let stamps = self.commit_writes(&writes, "save", commit_fail)?;
        let bytes: usize = stamps.iter().flatten().map(|s| s.len as usize).sum();
        for (path, stamp) in modified.iter().zip(stamps) {
            self.apply(Event::Saved {
                path: path.clone(),
                disk: stamp.expect("a saved file has a stamp"),
            })?;
        }
        let files: Vec<String> = modified.iter().map(|p| p.to_string()).collect();
        let mut clauses = vec![
            Clause::Fact(Fact::SavedFiles { files }),
            Clause::Bytes(bytes),
        ];
        // Saved anyway, but said, file by file, as `Save` says it.
        for path in &modified {
            if let Some(buffer) = self.session.buffers.get_mut(path) {
                clauses.extend(super::code::saved_with_errors(
                    buffer,
                    Some(path.to_string()),
                ));
            }
        }
        Ok(Outcome::effect(clauses))
    }

    /// What a file must still be on disk for this session to save it: the
    /// commit checks it under the file's lock, so of two sessions saving
    /// one file only one wins.
    fn save_expect(&self, path: &WorkspacePath, force: bool) -> Result<Expect, OpError> {
        let buffer = self.session.buffer(path).expect("saving an open file");
        let on_disk = self.workspace.stamp(path).map_err(file_fail)?;
        let recreated = on_disk.is_none() && buffer.disk().is_some();
        let expect = match buffer.disk() {
            _ if force => Expect::Anything,
            // Deleted meanwhile: writing it again loses nobody's text.
            Some(_) if recreated => Expect::Absent,
            Some(stamp) => Expect::Stamp(stamp.clone()),
            None => Expect::Absent,
        };
        Ok(expect)
    }

    pub(super) fn close(&mut self, given: Option<&str>) -> Ran {
        let path = self.open_or_current(given)?;
        let discarded = self
            .session
            .buffer(&path)
            .is_some_and(|b| b.is_modified() && !(b.disk().is_none() && b.text().len_chars() == 0));
        self.apply(Event::Closed { path })?;
        Ok(if discarded {
            Outcome::effect(vec![Clause::Fact(Fact::UnsavedDiscarded {
                files: Vec::new(),
            })])
        } else {
            Outcome::ok()
        })
    }

    pub(super) fn list(&mut self, open_only: bool, pattern: Option<&str>) -> Ran {
        let mut files: Vec<String> = if open_only {
            let matcher = match pattern {
                Some(glob) => Some(
                    globset::Glob::new(glob)
                        .map_err(|e| {
                            OpError::new(
                                ErrorKind::InvalidArgument,
                                format!("Invalid glob '{glob}': {}", e.kind()),
                            )
                        })?
                        .compile_matcher(),
                ),
                None => None,
            };
            self.session
                .buffers
                .values()
                .filter(|b| {
                    matcher
                        .as_ref()
                        .is_none_or(|m| m.is_match(b.path().as_str()))
                })
                .map(|b| {
                    let mark = if b.is_modified() { " (modified)" } else { "" };
                    format!("{}{mark}", b.path())
                })
                .collect()
        } else {
            self.workspace
                .list(pattern)
                .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e))?
        };
        if files.is_empty() {
            return Ok(Outcome::answer(vec![Clause::Fact(Fact::NoFiles {
                open_only,
                pattern: pattern.map(str::to_owned),
            })]));
        }
        files.sort();
        let limit = self.session.preferences.output_limit;
        Ok(Outcome::answer(vec![Clause::Fact(Fact::Files {
            files,
            limit,
        })]))
    }

    pub(super) fn diff(&mut self, given: Option<&str>) -> Ran {
        let path = self.open_or_current(given)?;
        let buffer = self
            .session
            .buffer(&path)
            .expect("find_open returns open files");
        let on_disk = match self.workspace.read(&path) {
            Ok(loaded) => loaded.text,
            Err(FileError::NotFound(_)) => String::new(),
            Err(e) => return Err(file_fail(e)),
        };
        let now = buffer.text().to_string();
        let diff = TextDiff::from_lines(&on_disk, &now);
        let (mut added, mut deleted) = (0, 0);
        for change in diff.iter_all_changes() {
            match change.tag() {
                similar::ChangeTag::Insert => added += 1,
                similar::ChangeTag::Delete => deleted += 1,
                similar::ChangeTag::Equal => {}
            }
        }
        if added == 0 && deleted == 0 {
            return Ok(Outcome::answer(vec![Clause::Fact(Fact::NoChanges {
                path: path.to_string(),
            })]));
        }
        let unified = diff
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{path}"), &format!("b/{path}"))
            .to_string();
        let limit = self.session.preferences.output_limit;
        let mut clauses = vec![Clause::Fact(Fact::Changed { added, deleted })];
        if buffer
            .language_supporting(Capability::CodeAnalyses)
            .is_some()
        {
            let existed = self.workspace.stamp(&path).ok().flatten().is_some();
            let before = existed.then_some(on_disk.as_str());
            let changes = code_changes(before, &now);
            clauses.extend(terse(&changes).into_iter().map(Clause::Note));
        }
        clauses.extend(output::text_in_tiers(unified.trim_end_matches('\n'), limit));
        Ok(Outcome::answer(clauses))
    }
}

/// A file error worded for the terse language: a missing file says how to
/// create it (the workspace speaks no command language).
pub(super) fn file_fail(error: FileError) -> OpError {
    let kind = match &error {
        FileError::NotFound(_) | FileError::NotAFile(_) => ErrorKind::NotFound,
        FileError::Escapes(_) | FileError::StateDir(_) => ErrorKind::PermissionDenied,
        FileError::PermissionDenied(_) | FileError::ReadOnly(_) | FileError::Io { .. } => {
            ErrorKind::Unavailable
        }
        FileError::Invalid(..)
        | FileError::Binary(_)
        | FileError::NotUtf8(_)
        | FileError::UnsupportedEncoding { .. }
        | FileError::NotInEncoding { .. }
        | FileError::Unencodable { .. }
        | FileError::TooLarge { .. } => ErrorKind::InvalidArgument,
    };
    match &error {
        FileError::NotFound(path) => typed(kind, format!("{error}. Use: Open Create {path}")),
        _ => typed(kind, error.to_string()),
    }
}
