//! File commands: `Open`, `Save`, `Close`, `List`, `Diff`.

use similar::TextDiff;

use crate::analysis::changes::{code_changes, terse};
use crate::reply::{Clause, Reply};
use crate::session::Event;
use crate::workspace::FileError;

use super::context::{Ctx, Outcome};
use super::output;

impl Ctx<'_> {
    pub(super) fn open(&mut self, create: bool, given: &str) -> Outcome {
        let path = self.workspace.resolve(given).map_err(file_fail)?;
        if let Some(buffer) = self.session.buffer(&path) {
            let reply = Reply::Done(vec![
                Clause::At(buffer.cursor()),
                Clause::Length(buffer.line_count()),
            ]);
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
        let lines = self.current()?.line_count();
        Ok(Reply::Done(vec![
            Clause::At(crate::edit::Position::ZERO),
            Clause::Length(lines),
        ]))
    }

    pub(super) fn save(&mut self, close: bool, force: bool, given: Option<&str>) -> Outcome {
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
                return Ok(Reply::Done(vec![Clause::Note(
                    "No changes to save, closed".into(),
                )]));
            }
            return Err(Reply::fail(format!("No changes to save in {path}")));
        }
        let changed = self
            .workspace
            .changed_since(&path, buffer.disk())
            .map_err(file_fail)?;
        if changed && !force && !deleted {
            return Err(Reply::fail(format!(
                "{path} changed on disk since it was opened; Save Force overwrites it, Diff shows the difference, or Close and Open to take the new text"
            )));
        }
        let bytes = buffer.text().to_string().into_bytes();
        let stamp = self
            .workspace
            .write_atomic(&path, &bytes)
            .map_err(file_fail)?;
        self.apply(Event::Saved {
            path: path.clone(),
            disk: stamp,
        })?;
        let mut reply = Reply::Done(vec![Clause::Bytes(bytes.len())]);
        // Saved anyway, but said: the agent should know the file is broken.
        let buffer = self
            .session
            .buffers
            .get_mut(&path)
            .expect("saved buffer is open");
        if let Some(note) = super::code::syntax_note(buffer) {
            reply.push(Clause::Note(note));
        }
        if close {
            self.apply(Event::Closed { path })?;
        }
        Ok(reply)
    }

    pub(super) fn close(&mut self, given: Option<&str>) -> Outcome {
        let path = self.open_or_current(given)?;
        let discarded = self
            .session
            .buffer(&path)
            .is_some_and(|b| b.is_modified() && !(b.disk().is_none() && b.text().len_chars() == 0));
        self.apply(Event::Closed { path })?;
        Ok(if discarded {
            Reply::Done(vec![Clause::Note("Unsaved changes discarded".into())])
        } else {
            Reply::ok()
        })
    }

    pub(super) fn list(&mut self, open_only: bool, pattern: Option<&str>) -> Outcome {
        let mut files: Vec<String> = if open_only {
            let matcher = match pattern {
                Some(glob) => Some(
                    globset::Glob::new(glob)
                        .map_err(|e| Reply::fail(format!("Invalid glob '{glob}': {}", e.kind())))?
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
            self.workspace.list(pattern).map_err(Reply::fail)?
        };
        if files.is_empty() {
            let what = if open_only {
                "No open files"
            } else {
                "No files"
            };
            return Ok(Reply::info(match pattern {
                Some(pattern) => format!("{what} match '{pattern}'"),
                None => what.to_owned(),
            }));
        }
        files.sort();
        Ok(Reply::info(output::list_in_tiers(
            "file",
            &files,
            self.session.preferences.output_limit,
        )))
    }

    pub(super) fn diff(&mut self, given: Option<&str>) -> Outcome {
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
            return Ok(Reply::info(format!("No changes in {path}")));
        }
        let unified = diff
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{path}"), &format!("b/{path}"))
            .to_string();
        let limit = self.session.preferences.output_limit;
        let mut clauses = vec![Clause::Note(format!("+{added} -{deleted} lines"))];
        if buffer.language().is_some() {
            let existed = self.workspace.stamp(&path).ok().flatten().is_some();
            let before = existed.then_some(on_disk.as_str());
            let changes = code_changes(before, &now);
            clauses.extend(terse(&changes).into_iter().map(Clause::Note));
        }
        clauses.extend(output::text_in_tiers(unified.trim_end_matches('\n'), limit));
        Ok(Reply::Info(clauses))
    }
}

pub(super) fn file_fail(error: FileError) -> Reply {
    Reply::fail(error.to_string())
}
