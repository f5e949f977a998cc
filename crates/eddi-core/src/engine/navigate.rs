//! Navigation: `Goto`, `Find`, `Replace` (with the `Confirm` walk), `Bookmark`.

use crate::failure::OpError;
use crate::outcome::{Fact, Outcome};
use std::ops::Range;

use regex::Regex;
use ropey::Rope;

use crate::change::{Indel, TextEdits};
use crate::commands::replacement::Template;
use crate::commands::{FindDirection, GotoTarget, Pattern, ReplaceMode, Scope};
use crate::edit::{position, LineEnding, Position};
use crate::reply::{plural, Clause};
use crate::session::{ConfirmWalk, Event};

use super::apply::{Place, Revise};
use super::context::{Ctx, Ran};
use super::inspect::check_block;
use super::ops::json::{out_of_range, typed};
use super::ops::ErrorKind;

impl Ctx<'_> {
    pub(super) fn goto(&mut self, target: &GotoTarget) -> Ran {
        let text = self.current()?.text().clone();
        let cursor = self.current()?.cursor();
        let to = match target {
            GotoTarget::Position(pos) => {
                position::to_char(&text, *pos).map_err(out_of_range)?;
                *pos
            }
            GotoTarget::Line(line) => {
                let pos = Position::new(*line, 0);
                position::to_char(&text, pos).map_err(out_of_range)?;
                pos
            }
            GotoTarget::StartOfFile => Position::ZERO,
            GotoTarget::EndOfFile => position::from_char(&text, text.len_chars()),
            GotoTarget::StartOfLine => Position::new(cursor.line, 0),
            GotoTarget::EndOfLine => {
                Position::new(cursor.line, position::line_len(&text, cursor.line))
            }
            GotoTarget::Bookmark(name) => return self.goto_bookmark(name),
            GotoTarget::StartOfFunction
            | GotoTarget::EndOfFunction
            | GotoTarget::StartOfClass
            | GotoTarget::EndOfClass
            | GotoTarget::Code(_) => return self.goto_code(target),
        };
        self.move_to(to)
    }

    fn goto_bookmark(&mut self, name: &str) -> Ran {
        let Some((path, at)) = self.session.bookmark(name) else {
            let known: Vec<&str> = self.session.bookmarks.keys().map(String::as_str).collect();
            let mut candidates = known.clone();
            candidates.extend_from_slice(crate::commands::parser::GOTO_KEYWORDS);
            let close = crate::commands::help::suggest(name, &candidates);
            let mut message = format!("Unknown Goto target '{name}'.");
            if !close.is_empty() {
                message.push_str(&format!(" Did you mean: {}?", close.join(", ")));
            }
            if known.is_empty() {
                message.push_str(" No bookmarks set.");
            } else {
                let known: Vec<String> = known.iter().map(|k| k.to_string()).collect();
                let known = crate::choices::Choices::ranked(name, known);
                message.push_str(&format!(" Bookmarks: {known}."));
            }
            message.push_str(" Targets: <line>:<col>, <line>, StartOfFile, EndOfFile, StartOfLine, EndOfLine, StartOfFunction, EndOfFunction, StartOfClass, EndOfClass, Function <f>, Class <C>, Method <C>.<m>, Variable <v>");
            return Err(OpError::new(ErrorKind::NotFound, message));
        };
        if self.session.current.as_ref() != Some(&path) {
            self.apply(Event::Switched { path })?;
        }
        self.move_to(at)
    }

    pub(super) fn bookmark(&mut self, name: &str, at: Option<Position>) -> Ran {
        let buffer = self.current()?;
        let at = at.unwrap_or(buffer.cursor());
        position::to_char(buffer.text(), at).map_err(out_of_range)?;
        let path = buffer.path().clone();
        self.apply(Event::Bookmarked {
            name: name.to_owned(),
            path,
            at,
        })?;
        Ok(Outcome::effect(vec![Clause::Fact(Fact::Bookmarked {
            name: name.to_owned(),
            at,
        })]))
    }

    pub(super) fn find(&mut self, direction: FindDirection, pattern: &Pattern) -> Ran {
        let buffer = self.current()?;
        let regex = compile(pattern, buffer.line_ending())?;
        let text = buffer.text().clone();
        let haystack = text.to_string();
        let cursor = buffer.cursor_char();
        let matches = char_matches(&regex, &text, &haystack);
        if matches.is_empty() {
            return Err(typed(
                ErrorKind::NotFound,
                format!("Not found: {}", describe(pattern)),
            ));
        }
        let (start, wrapped) = match direction {
            FindDirection::All => {
                let positions = matches
                    .iter()
                    .map(|m| position::from_char(&text, m.0))
                    .collect();
                let limit = self.session.preferences.output_limit;
                return Ok(Outcome::answer(vec![Clause::Fact(Fact::FoundAt {
                    positions,
                    limit,
                })]));
            }
            FindDirection::Next => match matches.iter().find(|m| m.0 > cursor) {
                Some(m) => (m.0, false),
                None => (matches[0].0, true),
            },
            FindDirection::Prev => match matches.iter().rev().find(|m| m.0 < cursor) {
                Some(m) => (m.0, false),
                None => (matches[matches.len() - 1].0, true),
            },
        };
        // Where the match is was asked: a fact, kept by brief replies.
        let mut reply = self.move_to(position::from_char(&text, start))?.as_search();
        if wrapped {
            reply.push(Clause::Fact(Fact::Wrapped));
        }
        Ok(reply)
    }

    pub(super) fn replace(
        &mut self,
        mode: ReplaceMode,
        pattern: &Pattern,
        replacement: &str,
        scope: Option<&Scope>,
    ) -> Ran {
        let scope = match scope {
            Some(scope) => Some(self.scope_chars(scope)?),
            None => None,
        };
        let buffer = self.current()?;
        let regex = compile(pattern, buffer.line_ending())?;
        let expand = matches!(pattern, Pattern::Regex(_));
        let text = buffer.text().clone();
        let haystack = text.to_string();
        let cursor = buffer.cursor_char();
        let line_ending = buffer.line_ending();
        let replacement = line_ending.apply(replacement);
        let template = template(&replacement, &regex, expand)?;
        let limit = self.workspace.max_file_size();
        let mut found = replacements(
            &regex,
            &text,
            &haystack,
            &replacement,
            template.as_ref(),
            limit,
        )?;
        if found.is_empty() {
            return Err(typed(
                ErrorKind::NotFound,
                format!("Pattern not found: {}", describe(pattern)),
            ));
        }
        if let Some((range, what)) = &scope {
            let in_file = found.len();
            found.retain(|r| r.start >= range.start && r.end <= range.end);
            if found.is_empty() {
                return Err(typed(
                    ErrorKind::NotFound,
                    format!(
                        "Pattern not found in {what}: {} ({in_file} {} elsewhere in the file)",
                        describe(pattern),
                        plural(in_file, "match")
                    ),
                ));
            }
        }
        match mode {
            ReplaceMode::All => {
                // A replacement is already in the file's line ending (the
                // template was converted, captures are the file's text), so
                // the applier's conversion leaves it as it is.
                let edits: Vec<_> = found
                    .iter()
                    .filter(|r| !r.is_noop)
                    .map(|r| Indel::new(r.start..r.end, r.new.as_str()))
                    .collect();
                if edits.is_empty() {
                    return Err(OpError::new(
                        ErrorKind::NotApplicable,
                        format!(
                            "Replacement equals every match of {}: nothing to change",
                            describe(pattern)
                        ),
                    ));
                }
                let count = edits.len();
                let edits = TextEdits::new(edits).map_err(|(a, b)| {
                    OpError::new(
                        ErrorKind::Internal,
                        format!("Internal: matches {a:?} and {b:?} overlap"),
                    )
                })?;
                // the cursor keeps its place in the text around it
                self.edit_current(edits, Place::Kept, Revise::New)?;
                let cursor_after = self.current()?.cursor();
                Ok(Outcome::effect(vec![
                    Clause::Replaced(count),
                    Clause::At(cursor_after),
                ]))
            }
            ReplaceMode::Next => {
                let after = found.iter().find(|r| r.start >= cursor);
                let wrapped = after.is_none();
                let next = after.or(found.first()).expect("not empty");
                if next.is_noop {
                    return Err(OpError::new(
                        ErrorKind::NotApplicable,
                        format!(
                            "Replacement equals the matched text '{}': nothing to change",
                            next.old
                        ),
                    ));
                }
                let end = next.start + next.new.chars().count();
                self.edit_current(
                    one_edit(next.start..next.end, &next.new)?,
                    Place::AtChar(end),
                    Revise::New,
                )?;
                let cursor_after = self.current()?.cursor();
                let mut reply =
                    Outcome::effect(vec![Clause::Replaced(1), Clause::At(cursor_after)]);
                if wrapped {
                    // As `Find` says it: the match was before the cursor.
                    reply.push(Clause::Fact(Fact::Wrapped));
                }
                Ok(reply)
            }
            ReplaceMode::Confirm => {
                // A scope is walked whole; the file is walked from the cursor.
                let from = if scope.is_some() { 0 } else { cursor };
                let Some(first) = found.iter().find(|r| r.start >= from) else {
                    return Err(typed(ErrorKind::NotFound, format!(
                        "Pattern not found after the cursor: {} (Confirm walks from the cursor to the end; Goto StartOfFile first)",
                        describe(pattern)
                    )));
                };
                let walk = ConfirmWalk {
                    path: self.current_path()?,
                    regex: regex.as_str().to_owned(),
                    replacement,
                    expand,
                    current: (first.start, first.end),
                    replaced: 0,
                    scope_end: scope.map(|(range, _)| range.end),
                };
                self.ask(walk)
            }
        }
    }

    /// The chars a `Replace … In <scope>` may change, and how to name them.
    fn scope_chars(&mut self, scope: &Scope) -> Result<(Range<usize>, String), OpError> {
        match scope {
            Scope::Code(target) => self.element_chars(target),
            Scope::Block(range) => {
                let text = self.current()?.text();
                check_block(text, *range)?;
                let end = if range.last + 1 < text.len_lines() {
                    text.line_to_char(range.last + 1)
                } else {
                    text.len_chars()
                };
                Ok((
                    text.line_to_char(range.first)..end,
                    format!("block {range}"),
                ))
            }
        }
    }

    /// Moves to the walk's current match and asks about it.
    fn ask(&mut self, walk: ConfirmWalk) -> Ran {
        let at = position::from_char(self.current()?.text(), walk.current.0);
        self.apply(Event::Confirming { walk: Some(walk) })?;
        let mut reply = self.move_to(at)?;
        reply.push(Clause::Prompt("Replace? (y/n)".into()));
        Ok(reply)
    }

    /// Handles `y`, `n` or `q` for a pending `Replace Confirm` walk.
    pub fn answer(&mut self, answer: char) -> Ran {
        let syntax_before = self.syntax_before();
        let mut outcome = self.answer_walk(answer);
        if let (Some(before), Ok(reply)) = (syntax_before, outcome.as_mut()) {
            self.note_broken_syntax(before, reply);
        }
        outcome
    }

    fn answer_walk(&mut self, answer: char) -> Ran {
        let walk = self.session.confirm.clone().ok_or_else(|| {
            typed(
                ErrorKind::NotApplicable,
                "No Replace Confirm is waiting for an answer",
            )
        })?;
        if self.session.current.as_ref() != Some(&walk.path) {
            self.apply(Event::Switched {
                path: walk.path.clone(),
            })?;
        }
        let regex = Regex::new(&walk.regex)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        let text = self.current()?.text().clone();
        let haystack = text.to_string();
        let mut walk = walk;
        let mut search_from = walk
            .current
            .1
            .max(walk.current.0 + usize::from(walk.current.0 == walk.current.1));
        match answer {
            'q' => return self.finish_walk(walk.replaced),
            'y' => {
                let template = template(&walk.replacement, &regex, walk.expand)?;
                // One replacement at a time: the walk's start checked the size.
                let found = replacements(
                    &regex,
                    &text,
                    &haystack,
                    &walk.replacement,
                    template.as_ref(),
                    u64::MAX,
                )?;
                let Some(current) = found.iter().find(|r| (r.start, r.end) == walk.current) else {
                    self.apply(Event::Confirming { walk: None })?;
                    return Err(OpError::new(
                        ErrorKind::Stale,
                        "The match changed since it was shown; Replace Confirm ended",
                    ));
                };
                if !current.is_noop {
                    let end = current.start + current.new.chars().count();
                    // The walk is one step: each later replacement amends it.
                    let revise = if walk.replaced == 0 {
                        Revise::New
                    } else {
                        Revise::Amend
                    };
                    self.edit_current(
                        one_edit(current.start..current.end, &current.new)?,
                        Place::AtChar(end),
                        revise,
                    )?;
                    walk.replaced += 1;
                    walk.scope_end = walk.scope_end.map(|end| {
                        end + current.new.chars().count() - (current.end - current.start)
                    });
                    search_from = end.max(
                        current.start
                            + usize::from(current.start == current.end && current.new.is_empty()),
                    );
                }
            }
            _ => {}
        }
        let text = self.current()?.text().clone();
        let haystack = text.to_string();
        let next = char_matches(&regex, &text, &haystack)
            .into_iter()
            .find(|m| m.0 >= search_from)
            .filter(|m| walk.scope_end.is_none_or(|end| m.1 <= end));
        match next {
            Some(next) => {
                walk.current = next;
                self.ask(walk)
            }
            None => self.finish_walk(walk.replaced),
        }
    }

    fn finish_walk(&mut self, replaced: usize) -> Ran {
        self.apply(Event::Confirming { walk: None })?;
        let at = self.current()?.cursor();
        Ok(Outcome::effect(vec![
            Clause::Replaced(replaced),
            Clause::At(at),
        ]))
    }

    /// Ends a pending walk because another command came; returns the notice.
    pub fn abandon_walk(&mut self) -> Option<String> {
        let walk = self.session.confirm.clone()?;
        self.apply(Event::Confirming { walk: None }).ok()?;
        Some(format!(
            "Replace Confirm ended after {} {}",
            walk.replaced,
            plural(walk.replaced, "replacement")
        ))
    }
}

/// The pattern as a regex for a file with `line_ending`: a text's line
/// breaks become the file's, and `^`/`$` know `\r\n` (the `R` flag), so a
/// search finds the same in a CRLF file as in an LF one.
pub(super) fn compile(pattern: &Pattern, line_ending: LineEnding) -> Result<Regex, OpError> {
    match pattern {
        Pattern::Text(text) if text.is_empty() => Err(OpError::new(
            ErrorKind::InvalidArgument,
            "Empty search text",
        )),
        Pattern::Text(text) => Ok(Regex::new(&regex::escape(&line_ending.apply(text)))
            .expect("escaped text is a valid regex")),
        Pattern::Regex(source) => Regex::new(&format!("(?mR){source}")).map_err(|e| {
            OpError::new(
                ErrorKind::InvalidArgument,
                format!(
                    "Invalid regex /{source}/: {}",
                    e.to_string().lines().last().unwrap_or("")
                ),
            )
        }),
    }
}

pub(super) fn describe(pattern: &Pattern) -> String {
    match pattern {
        Pattern::Text(text) => format!("'{text}'"),
        Pattern::Regex(source) => format!("/{source}/"),
    }
}

/// Matches as char ranges.
fn char_matches(regex: &Regex, text: &Rope, haystack: &str) -> Vec<(usize, usize)> {
    regex
        .find_iter(haystack)
        .map(|m| (text.byte_to_char(m.start()), text.byte_to_char(m.end())))
        .collect()
}

pub(super) struct Replacement {
    pub start: usize,
    pub end: usize,
    old: String,
    pub new: String,
    pub is_noop: bool,
}

/// The parsed replacement of a regex pattern (`$1`, `${name}`, `$$`);
/// `None` for a text pattern, whose replacement is literal.
pub(super) fn template(
    replacement: &str,
    regex: &Regex,
    expand: bool,
) -> Result<Option<Template>, OpError> {
    if !expand {
        return Ok(None);
    }
    Template::new(replacement, regex)
        .map(Some)
        .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e))
}

/// Every match and its replacement. Refused once replacing them all would
/// make the text larger than `limit` bytes (the largest file Eddi reads):
/// an empty match such as `/x*/` is found between every two characters, and
/// a long replacement there would take memory and time without bound.
pub(super) fn replacements(
    regex: &Regex,
    text: &Rope,
    haystack: &str,
    replacement: &str,
    template: Option<&Template>,
    limit: u64,
) -> Result<Vec<Replacement>, OpError> {
    let mut size = haystack.len() as u64;
    let mut found = Vec::new();
    for caps in regex.captures_iter(haystack) {
        let m = caps.get(0).expect("group 0 always matches");
        let new = match template {
            Some(template) => template.expand(&caps),
            None => replacement.to_owned(),
        };
        size = (size + new.len() as u64).saturating_sub(m.len() as u64);
        if size > limit {
            let empty = if m.is_empty() {
                " (it matches the empty text, so between every two characters: /x+/ instead of /x*/ needs an x)"
            } else {
                ""
            };
            return Err(OpError::new(ErrorKind::InvalidArgument, format!(
                "Replacing every match would make the file over {limit} bytes, the largest Eddi edits; nothing was replaced. Narrow the pattern{empty} or add a scope (In Function …, In Block a:b)"
            )));
        }
        let old = m.as_str().to_owned();
        found.push(Replacement {
            start: text.byte_to_char(m.start()),
            end: text.byte_to_char(m.end()),
            is_noop: old == new,
            old,
            new,
        });
    }
    Ok(found)
}

/// One replacement as the edits of a change.
fn one_edit(range: Range<usize>, new: &str) -> Result<TextEdits, OpError> {
    TextEdits::new([Indel::new(range, new)]).map_err(|(a, _)| {
        OpError::new(
            ErrorKind::Internal,
            format!("Internal: a reversed match {a:?}"),
        )
    })
}
