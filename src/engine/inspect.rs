//! Inspection: `Show Line | Block | Current` (code targets live in `code`).

use ropey::Rope;

use crate::edit::{position, LineRange, Position};
use crate::lang::ShowTarget;
use crate::reply::{Clause, Reply};

use super::context::{Ctx, Outcome};
use super::output;

impl Ctx<'_> {
    pub(super) fn show(&mut self, target: &ShowTarget, context: Option<usize>) -> Outcome {
        let text = self.current()?.text().clone();
        let context = context.unwrap_or(0);
        let (at, range, moves) = match target {
            ShowTarget::Line(line) => {
                check_line(&text, *line)?;
                (Position::new(*line, 0), LineRange::new(*line, *line), true)
            }
            ShowTarget::Block(range) => {
                if range.first > range.last {
                    return Err(Reply::fail(format!(
                        "Block {range} is reversed: write it as {}:{}",
                        range.last, range.first
                    )));
                }
                check_line(&text, range.last)?;
                (Position::new(range.first, 0), *range, true)
            }
            ShowTarget::Current => {
                let cursor = self.current()?.cursor();
                (cursor, LineRange::new(cursor.line, cursor.line), false)
            }
            ShowTarget::Code(target) => return self.show_code(target, context),
        };
        let last_line = text.len_lines() - 1;
        let shown = LineRange::new(
            range.first.saturating_sub(context),
            (range.last + context).min(last_line),
        );
        let body = lines_text(&text, shown);
        if moves {
            self.move_to(at)?;
        }
        let mut clauses = vec![Clause::At(at)];
        clauses.extend(output::text_in_tiers(
            &body,
            self.session.preferences.output_limit,
        ));
        Ok(Reply::Info(clauses))
    }
}

/// Fails with the valid range when `line` does not exist.
pub(super) fn check_line(text: &Rope, line: usize) -> Result<(), Reply> {
    position::to_char(text, Position::new(line, 0))
        .map(|_| ())
        .map_err(|e| Reply::fail(e.to_string()))
}

/// Refuses a line range that reaches past the last line, for commands that
/// change text (`Delete Block`, `Replace … In Block`): there a wrong range
/// means a wrong idea of the file, so nothing is guessed. Reads clamp instead.
pub(super) fn check_block(text: &Rope, range: LineRange) -> Result<(), Reply> {
    let lines = position::counted_lines(text);
    if lines == 0 {
        return Err(Reply::fail(format!(
            "Block {range} is past the end: the file is empty"
        )));
    }
    let last = lines - 1;
    if range.first > last {
        return Err(Reply::fail(format!(
            "Block {range} is past the end of the file: the last line is {last}"
        )));
    }
    if range.last > last {
        return Err(Reply::fail(format!(
            "Block {range} is past the end of the file: the last line is {last}; write Block {}:{last}",
            range.first
        )));
    }
    Ok(())
}

/// The text of whole lines, without their line terminators, joined by `\n`.
pub(super) fn lines_text(text: &Rope, range: LineRange) -> String {
    let mut out = String::new();
    for line in range.first..=range.last.min(text.len_lines() - 1) {
        if line > range.first {
            out.push('\n');
        }
        let len = position::line_len(text, line);
        out.extend(text.line(line).chars().take(len));
    }
    out
}
