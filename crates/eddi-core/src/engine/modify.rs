//! Text modification: `Insert Line | Block`, `Delete Line | Block |
//! Current`, `Undo`, `Redo` (code-aware forms live in `code`).

use crate::failure::OpError;
use crate::outcome::{Fact, Outcome};
use ropey::Rope;

use crate::change::{Indel, TextEdits};
use crate::commands::{DeleteTarget, InsertKind};
use crate::edit::{position, LineEnding, LineRange, Position};
use crate::reply::{plural, Clause};
use crate::session::Event;
use crate::workspace::WorkspacePath;

use super::apply::{Direction, Place, Revise};
use super::context::{Ctx, Ran};
use super::inspect::check_block;
use super::ops::json::typed;
use super::ops::ErrorKind;

impl Ctx<'_> {
    pub(super) fn insert(&mut self, kind: InsertKind, given: &str) -> Ran {
        match kind {
            InsertKind::Line => self.insert_line(given),
            InsertKind::Block => self.insert_block(given),
            InsertKind::Function | InsertKind::Method | InsertKind::Class | InsertKind::Import => {
                self.insert_code(kind, given)
            }
        }
    }

    /// `Insert Line`: a new line before the cursor's line, or after it when
    /// the cursor is at the end of a non-empty line (see [`whole_lines_at`]).
    /// Texts are placed with `\n` line breaks; the applier writes the
    /// file's own.
    fn insert_line(&mut self, given: &str) -> Ran {
        let buffer = self.current()?;
        let text = buffer.text();
        let body = given.strip_suffix('\n').unwrap_or(given);
        let mut lines_given = LineEnding::Lf.apply(body);
        lines_given.push('\n');
        let lines = lines_given.matches('\n').count();
        let placed = whole_lines_at(text, buffer.cursor(), &lines_given);
        self.insert_placed(placed, lines)
    }

    /// `Insert Block`: the text at the cursor, as given — except that a block
    /// of whole lines (ending with a line break) at the end of a line goes
    /// after that line instead of gluing onto it.
    fn insert_block(&mut self, given: &str) -> Ran {
        if given.is_empty() {
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                "Nothing to insert: the text is empty",
            ));
        }
        let buffer = self.current()?;
        let inserted = LineEnding::Lf.apply(given);
        let text = buffer.text();
        let cursor = buffer.cursor();
        let lines = inserted.matches('\n').count() + usize::from(!inserted.ends_with('\n'));
        let ends_line = cursor.col > 0 && cursor.col == position::line_len(text, cursor.line);
        let placed = if inserted.ends_with('\n') && ends_line {
            whole_lines_at(text, cursor, &inserted)
        } else {
            Placed {
                at: buffer.cursor_char(),
                text: inserted,
                line: cursor.line,
            }
        };
        self.insert_placed(placed, lines)
    }

    /// Applies a placed insertion; the cursor goes to the end of what was
    /// inserted (in the file's line endings).
    fn insert_placed(&mut self, placed: Placed, lines: usize) -> Ran {
        let written = self.current()?.line_ending().apply(&placed.text);
        let end = placed.at + written.chars().count();
        let edits =
            TextEdits::new([Indel::new(placed.at..placed.at, placed.text)]).map_err(|_| {
                OpError::new(
                    ErrorKind::Internal,
                    "Internal: an insertion overlaps itself",
                )
            })?;
        self.edit_current(edits, Place::AtChar(end), Revise::New)?;
        let cursor = self.current()?.cursor();
        Ok(Outcome::effect(vec![
            Clause::Inserted {
                lines,
                at: placed.line,
            },
            Clause::At(cursor),
        ]))
    }

    pub(super) fn delete(&mut self, target: &DeleteTarget) -> Ran {
        let buffer = self.current()?;
        let cursor_line = buffer.cursor().line;
        let lines = buffer.line_count();
        if lines == 0 && !matches!(target, DeleteTarget::Code(_)) {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                "Nothing to delete: the file is empty",
            ));
        }
        let range = match target {
            DeleteTarget::Lines { count } => {
                check_count(cursor_line, *count, lines)?;
                LineRange::new(cursor_line, cursor_line + count - 1)
            }
            DeleteTarget::Current => {
                check_count(cursor_line, 1, lines)?;
                LineRange::new(cursor_line, cursor_line)
            }
            DeleteTarget::Block(range) => {
                if range.first > range.last {
                    return Err(OpError::new(
                        ErrorKind::InvalidArgument,
                        format!(
                            "Block {range} is reversed: write it as {}:{}",
                            range.last, range.first
                        ),
                    ));
                }
                check_block(buffer.text(), *range)?;
                *range
            }
            DeleteTarget::Code(target) => return self.delete_code(target),
        };
        self.delete_lines(range)
    }

    /// Deletes whole lines that exist, with their line breaks; the cursor
    /// goes to the start of the line that takes their place.
    pub(super) fn delete_lines(&mut self, range: LineRange) -> Ran {
        let text = self.current()?.text().clone();
        check_block(&text, range)?;
        let mut start = text.line_to_char(range.first);
        let end = if range.last + 1 < text.len_lines() {
            text.line_to_char(range.last + 1)
        } else {
            text.len_chars()
        };
        // The last line has no line break of its own: take the one before it.
        let ends_file = end == text.len_chars() && (end == 0 || text.char(end - 1) != '\n');
        if ends_file && start > 0 {
            start -= 1;
            if start > 0 && text.char(start - 1) == '\r' {
                start -= 1;
            }
        }
        let edits = TextEdits::new([Indel::new(start..end, "")]).map_err(|_| {
            OpError::new(ErrorKind::Internal, "Internal: a deletion overlaps itself")
        })?;
        // The start of the line that takes their place (the buffer clamps
        // it into the new text: after the last line, the end).
        self.edit_current(edits, Place::At(Position::new(range.first, 0)), Revise::New)?;
        let cursor = self.current()?.cursor();
        Ok(Outcome::effect(vec![
            Clause::Deleted {
                lines: range.len(),
                at: range.first,
            },
            Clause::At(cursor),
        ]))
    }

    pub(super) fn undo(&mut self, count: usize) -> Ran {
        self.walk_history(count, Direction::Undo)
    }

    pub(super) fn redo(&mut self, count: usize) -> Ran {
        self.walk_history(count, Direction::Redo)
    }

    /// Undoes or redoes up to `count` steps of the current file: its own
    /// revisions, and whole multi-file steps (every file of the step at
    /// once). With no file open, the session's steps only (a committed
    /// step undoes from the disk, its files open or not).
    fn walk_history(&mut self, count: usize, direction: Direction) -> Ran {
        let none = match direction {
            Direction::Undo => "Nothing to undo",
            Direction::Redo => "Nothing to redo",
        };
        let path = self.current_path().ok();
        let mut done = 0;
        let mut spanned: Vec<WorkspacePath> = Vec::new();
        let last_step = self.session.last_step.filter(|_| count > 0);
        if let (Direction::Undo, Some(group)) = (direction, last_step) {
            spanned = self.step(group, direction)?;
            done += 1;
        }
        while done < count {
            let next = match &path {
                Some(path) => {
                    let history = self
                        .session
                        .buffer(path)
                        .ok_or_else(|| {
                            OpError::new(
                                ErrorKind::Internal,
                                format!("Internal: {path} is not open"),
                            )
                        })?
                        .history();
                    let mut stack: Box<dyn Iterator<Item = &crate::edit::Revision>> =
                        match direction {
                            Direction::Undo => Box::new(history.undo_stack()),
                            Direction::Redo => Box::new(history.redo_stack()),
                        };
                    stack.next().map(|first| match first.group {
                        Some(group) => (Some(group), 1),
                        None => (None, 1 + stack.take_while(|r| r.group.is_none()).count()),
                    })
                }
                None => None,
            };
            // A refactor that did not touch the current file is still the
            // step `Undo` right after it takes back.
            let next = next.or_else(|| {
                (done == 0)
                    .then(|| self.latest_step(direction))
                    .flatten()
                    .map(|group| (Some(group), 1))
            });
            let Some((group, run)) = next else { break };
            if let Some(group) = group {
                for file in self.step(group, direction)? {
                    if !spanned.contains(&file) {
                        spanned.push(file);
                    }
                }
                done += 1;
                continue;
            }
            let Some(path) = path.clone() else { break };
            // A run of this file's own revisions is one event.
            let n = run.min(count - done);
            self.apply(match direction {
                Direction::Undo => Event::Undone { path, count: n },
                Direction::Redo => Event::Redone { path, count: n },
            })?;
            done += n;
        }
        if done == 0 {
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                match &path {
                    Some(path) => format!("{none} in {path}"),
                    None => format!("{none}: no file is open and no step of this session is next"),
                },
            ));
        }
        let at = self.session.current_buffer().map(|b| b.cursor());
        let mut reply = step_reply(direction, done, count, at);
        let current = self.session.current.clone();
        spanned.retain(|file| Some(file) != current.as_ref());
        if !spanned.is_empty() {
            let files = spanned.iter().map(|p| p.to_string()).collect();
            reply.push(Clause::Fact(Fact::AlsoIn { files }));
        }
        Ok(reply)
    }

    /// The newest multi-file step that is the next one to undo (for a
    /// redo: the oldest undone one) in every file it changed. A committed
    /// step's file that is closed, or was opened again since, is no
    /// obstacle: the step undoes from the disk.
    fn latest_step(&self, direction: Direction) -> Option<u64> {
        let session = &self.session;
        let is_next = |group: u64, step: &crate::session::Step| {
            let from_disk = step.committed && !step.writes.is_empty();
            if from_disk && step.undone != (direction == Direction::Redo) {
                return false;
            }
            step.files.iter().all(|path| match session.buffer(path) {
                None => from_disk,
                Some(buffer) => {
                    let history = buffer.history();
                    let next = match direction {
                        Direction::Undo => history.undo_stack().next(),
                        Direction::Redo => history.redo_stack().next(),
                    };
                    let in_history = || {
                        history
                            .undo_stack()
                            .chain(history.redo_stack())
                            .any(|r| r.group == Some(group))
                    };
                    next.is_some_and(|r| r.group == Some(group))
                        || (from_disk && !buffer.is_modified() && !in_history())
                }
            })
        };
        match direction {
            Direction::Undo => session
                .steps
                .iter()
                .rev()
                .find(|(&group, step)| is_next(group, step)),
            Direction::Redo => session
                .steps
                .iter()
                .find(|(&group, step)| is_next(group, step)),
        }
        .map(|(&group, _)| group)
    }
}

/// Refuses to delete `count` lines from `line` when fewer are left: a
/// count that is too large means a wrong idea of the file.
fn check_count(line: usize, count: usize, lines: usize) -> Result<(), OpError> {
    let last = lines - 1;
    let asked = format!("{count} {}", plural(count, "line"));
    if line > last {
        return Err(typed(ErrorKind::OutOfRange, format!(
            "Cannot delete {asked} at line {line}: the cursor is past the last line ({last}), on the empty end after the final line break; Goto {last} first"
        )));
    }
    let left = lines - line;
    if count > left {
        return Err(typed(ErrorKind::OutOfRange, format!(
            "Cannot delete {asked} from line {line}: only {left} {} left to the end (the last line is {last}); use Delete Line {left}",
            plural(left, "line")
        )));
    }
    Ok(())
}

fn step_reply(direction: Direction, done: usize, asked: usize, at: Option<Position>) -> Outcome {
    let mut clauses = vec![Clause::Fact(Fact::Stepped {
        direction,
        done,
        asked,
    })];
    clauses.extend(at.map(Clause::At));
    Outcome::effect(clauses)
}

/// Where an insertion goes: the char offset, the text to insert there, and
/// the line its first inserted line gets.
struct Placed {
    at: usize,
    text: String,
    line: usize,
}

/// Places whole lines (`given` ends with `\n`) relative to the cursor's
/// line: before it, or after it when the cursor is at the end of a
/// non-empty line — as Enter would there. After a last line that has no
/// line break, the break goes in front and the file keeps ending without one.
fn whole_lines_at(text: &Rope, cursor: Position, given: &str) -> Placed {
    let len = position::line_len(text, cursor.line);
    let after = len > 0 && cursor.col == len;
    if !after {
        return Placed {
            at: text.line_to_char(cursor.line),
            text: given.to_owned(),
            line: cursor.line,
        };
    }
    if cursor.line + 1 < text.len_lines() {
        return Placed {
            at: text.line_to_char(cursor.line + 1),
            text: given.to_owned(),
            line: cursor.line + 1,
        };
    }
    let body = given.strip_suffix('\n').unwrap_or(given);
    Placed {
        at: text.len_chars(),
        text: format!("\n{body}"),
        line: cursor.line + 1,
    }
}
