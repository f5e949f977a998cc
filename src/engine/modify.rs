//! Text modification: `Insert Line | Block`, `Delete Line | Block |
//! Current`, `Undo`, `Redo` (code-aware forms live in `code`).

use crate::edit::{position, ChangeSet, LineRange, Position};
use crate::lang::{DeleteTarget, InsertKind};
use crate::reply::{plural, Clause, Reply};
use crate::session::Event;
use crate::workspace::WorkspacePath;

use super::apply::Direction;
use super::context::{Ctx, Outcome};
use super::inspect::check_line;

impl Ctx<'_> {
    pub(super) fn insert(&mut self, kind: InsertKind, given: &str) -> Outcome {
        match kind {
            InsertKind::Line => self.insert_line(given),
            InsertKind::Block => self.insert_block(given),
            InsertKind::Function | InsertKind::Method | InsertKind::Class | InsertKind::Import => {
                self.insert_code(kind, given)
            }
        }
    }

    /// `Insert Line`: new line(s) before the cursor's line.
    fn insert_line(&mut self, given: &str) -> Outcome {
        let buffer = self.current()?;
        let line_ending = buffer.line_ending();
        let text = buffer.text();
        let line = buffer.cursor().line;
        let body = given.strip_suffix('\n').unwrap_or(given);
        let mut inserted = line_ending.apply(body);
        inserted.push_str(line_ending.as_str());
        let at = text.line_to_char(line);
        let lines = inserted.matches('\n').count();
        let change = ChangeSet::replace(text.len_chars(), at, at, &inserted)
            .map_err(|e| Reply::fail(e.to_string()))?;
        let cursor = Position::new(line + lines, 0);
        self.edit_current(change, cursor)?;
        Ok(Reply::Done(vec![
            Clause::Inserted { lines, at: line },
            Clause::At(cursor),
        ]))
    }

    /// `Insert Block`: the text at the cursor, as given.
    fn insert_block(&mut self, given: &str) -> Outcome {
        if given.is_empty() {
            return Err(Reply::fail("Nothing to insert: the text is empty"));
        }
        let buffer = self.current()?;
        let inserted = buffer.line_ending().apply(given);
        let text = buffer.text();
        let at = buffer.cursor_char();
        let line = buffer.cursor().line;
        let change = ChangeSet::replace(text.len_chars(), at, at, &inserted)
            .map_err(|e| Reply::fail(e.to_string()))?;
        let mut after = text.clone();
        change
            .apply(&mut after)
            .map_err(|e| Reply::fail(e.to_string()))?;
        let cursor = position::from_char(&after, at + inserted.chars().count());
        let lines = inserted.matches('\n').count() + usize::from(!inserted.ends_with('\n'));
        self.edit_current(change, cursor)?;
        Ok(Reply::Done(vec![
            Clause::Inserted { lines, at: line },
            Clause::At(cursor),
        ]))
    }

    pub(super) fn delete(&mut self, target: &DeleteTarget) -> Outcome {
        let buffer = self.current()?;
        let cursor_line = buffer.cursor().line;
        let range = match target {
            DeleteTarget::Lines { count } => {
                LineRange::new(cursor_line, cursor_line + count.saturating_sub(1))
            }
            DeleteTarget::Current => LineRange::new(cursor_line, cursor_line),
            DeleteTarget::Block(range) => {
                if range.first > range.last {
                    return Err(Reply::fail(format!(
                        "Block {range} is reversed: write it as {}:{}",
                        range.last, range.first
                    )));
                }
                *range
            }
            DeleteTarget::Code(target) => return self.delete_code(target),
        };
        self.delete_lines(range)
    }

    /// Deletes whole lines, with their line breaks; the cursor goes to the
    /// start of the line that takes their place.
    pub(super) fn delete_lines(&mut self, range: LineRange) -> Outcome {
        let text = self.current()?.text().clone();
        let lines = self.current()?.line_count();
        if lines == 0 {
            return Err(Reply::fail("Nothing to delete: the file is empty"));
        }
        if range.last >= lines {
            let valid = lines - 1;
            return Err(Reply::fail(if range.first > valid {
                format!(
                    "Line {} out of range: valid lines are 0..{valid}",
                    range.first
                )
            } else {
                let left = lines - range.first;
                let noun = plural(left, "line");
                format!(
                    "Only {left} {noun} from line {} to the end (last line is {valid})",
                    range.first
                )
            }));
        }
        check_line(&text, range.first)?;
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
        let change = ChangeSet::from_edits(text.len_chars(), [(start, end, None::<&str>)])
            .map_err(|e| Reply::fail(e.to_string()))?;
        let mut after = text.clone();
        change
            .apply(&mut after)
            .map_err(|e| Reply::fail(e.to_string()))?;
        let cursor = position::clamp(&after, Position::new(range.first, 0));
        self.edit_current(change, cursor)?;
        Ok(Reply::Done(vec![
            Clause::Deleted {
                lines: range.len(),
                at: range.first,
            },
            Clause::At(cursor),
        ]))
    }

    pub(super) fn undo(&mut self, count: usize) -> Outcome {
        self.walk_history(count, Direction::Undo)
    }

    pub(super) fn redo(&mut self, count: usize) -> Outcome {
        self.walk_history(count, Direction::Redo)
    }

    /// Undoes or redoes up to `count` steps of the current file: its own
    /// revisions, and whole multi-file steps (every file of the step at once).
    fn walk_history(&mut self, count: usize, direction: Direction) -> Outcome {
        let (verb, none) = match direction {
            Direction::Undo => ("Undid", "Nothing to undo"),
            Direction::Redo => ("Redid", "Nothing to redo"),
        };
        let path = self.current_path()?;
        let mut done = 0;
        let mut spanned: Vec<WorkspacePath> = Vec::new();
        while done < count {
            let next = {
                let history = self.current()?.history();
                let mut stack: Box<dyn Iterator<Item = &crate::edit::Revision>> = match direction {
                    Direction::Undo => Box::new(history.undo_stack()),
                    Direction::Redo => Box::new(history.redo_stack()),
                };
                stack.next().map(|first| match first.group {
                    Some(group) => (Some(group), 1),
                    None => (None, 1 + stack.take_while(|r| r.group.is_none()).count()),
                })
            };
            let Some((group, run)) = next else { break };
            if let Some(group) = group {
                for file in self.step(group, direction)? {
                    if file != path && !spanned.contains(&file) {
                        spanned.push(file);
                    }
                }
                done += 1;
                continue;
            }
            // A run of this file's own revisions is one event.
            let n = run.min(count - done);
            let path = path.clone();
            self.apply(match direction {
                Direction::Undo => Event::Undone { path, count: n },
                Direction::Redo => Event::Redone { path, count: n },
            })?;
            done += n;
        }
        if done == 0 {
            return Err(Reply::fail(format!("{none} in {path}")));
        }
        let mut reply = step_reply(verb, done, count, self.current()?.cursor());
        if !spanned.is_empty() {
            let files: Vec<&str> = spanned.iter().map(|p| p.as_str()).collect();
            reply.push(Clause::Note(format!("Also in {}", files.join(", "))));
        }
        Ok(reply)
    }
}

fn step_reply(verb: &str, done: usize, asked: usize, at: Position) -> Reply {
    let note = if done < asked {
        format!("{verb} {done} of {asked} (no more steps)")
    } else {
        format!("{verb} {done}")
    };
    Reply::Done(vec![Clause::Note(note), Clause::At(at)])
}
