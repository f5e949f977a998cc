//! Code-aware commands: `Show`/`Goto`/`Insert`/`Delete` of functions,
//! classes, methods and variables, `Modify`, `Comment`, `Format`,
//! `Validate` and `Analyze`.
//!
//! What a file's language offers decides which run: addressing and reads
//! (Show, Goto, `Analyze … Structure`, Validate) on every language with
//! code targets; the edits of code elements and the code analyses, whose
//! implementations are Python's (`crate::analysis`), only on a language
//! that offers them ([`Capability::CodeEdits`],
//! [`Capability::CodeAnalyses`]) — any other file gets a typed `Fail`
//! naming the command and the language, never Python's logic on its text.
//!
//! The analysis layer computes edits as data ([`EditResult`]); this module
//! turns them into one change set (in the file's line-ending style), applies
//! it as one undo step and words the reply. Queries of the project index
//! (`Find References|Definition|Callers`) live in `query`.

use crate::failure::ErrorKind;
use crate::failure::OpError;
use crate::outcome::{CodeFact, Element, Fact, Outcome, Shape};
use ropey::Rope;

use crate::analysis::issues::IssueConfig;
use crate::analysis::outline::{self, enclosing, lookup, Enclosing, Outline, Symbol, SymbolKind};
use crate::analysis::textedit::EditResult;
use crate::analysis::{
    comment, delete, format, insert, modify, validate, Analysis, AnalysisError, SyntaxTree,
};
use crate::change::{Base, WorkspaceChange};
use crate::commands::{
    AnalysisKind, AnalyzeTarget, CodeTarget, Command, CommentStyle, DeleteTarget, GotoTarget,
    InsertKind, Modification,
};
use crate::edit::{position, ChangeSet, LineRange, Position};
use crate::language::{edits, Capability, Language, SyntaxCheck};
use crate::reply::Clause;

use super::apply::ApplyMode;
use super::context::{Ctx, Ran};
use super::ops;
use super::output;

/// The commands that edit text as text (their syntax is noted, not refused).
pub(super) fn is_text_edit(command: &Command) -> bool {
    matches!(
        command,
        Command::Insert {
            kind: InsertKind::Line | InsertKind::Block,
            ..
        } | Command::Replace { .. }
            | Command::Delete(
                DeleteTarget::Lines { .. } | DeleteTarget::Current | DeleteTarget::Block(_)
            )
    )
}

/// The lines an edit changed, in the text before and after it (from the
/// common prefix and suffix of the two texts, compared chunk by chunk);
/// `None` when nothing changed.
fn changed_lines(before: &Rope, after: &Rope) -> Option<(LineRange, LineRange)> {
    let prefix = common_bytes(before.chunks(), after.chunks(), false);
    if prefix == before.len_bytes() && prefix == after.len_bytes() {
        return None;
    }
    let max_suffix = before.len_bytes().min(after.len_bytes()) - prefix;
    let suffix = common_bytes(backwards(before), backwards(after), true).min(max_suffix);
    let lines = |rope: &Rope| {
        let end = (rope.len_bytes() - suffix).max(prefix);
        LineRange::new(rope.byte_to_line(prefix), rope.byte_to_line(end))
    };
    Some((lines(before), lines(after)))
}

/// The lines `change` changed, in the text before and after it (as
/// [`changed_lines`], from the change's own ranges: no scan of the texts);
/// `None` when it changed nothing.
fn edited_lines(before: &Rope, after: &Rope, change: &ChangeSet) -> Option<(LineRange, LineRange)> {
    let edits = change.edits();
    let (first, last) = (edits.first()?, edits.last()?);
    let start = first.0;
    let growth: isize = edits
        .iter()
        .map(|(s, e, text)| text.chars().count() as isize - (e - s) as isize)
        .sum();
    let end_before = last.1;
    let end_after = (end_before as isize + growth).max(start as isize) as usize;
    let lines = |rope: &Rope, end: usize| {
        let end = end.min(rope.len_chars());
        LineRange::new(rope.char_to_line(start.min(end)), rope.char_to_line(end))
    };
    Some((lines(before, end_before), lines(after, end_after)))
}

/// The chunks of a rope from its end to its start.
fn backwards(rope: &Rope) -> ropey::iter::Chunks<'_> {
    rope.chunks_at_byte(rope.len_bytes()).0.reversed()
}

/// How many bytes two chunk sequences share, counted from their start —
/// or from their end, when the chunks come last first (`from_end`).
fn common_bytes<'a>(
    mut a: impl Iterator<Item = &'a str>,
    mut b: impl Iterator<Item = &'a str>,
    from_end: bool,
) -> usize {
    let (mut x, mut y): (&[u8], &[u8]) = (&[], &[]);
    let mut same = 0;
    loop {
        if x.is_empty() {
            match a.next() {
                Some(chunk) => x = chunk.as_bytes(),
                None => return same,
            }
            continue;
        }
        if y.is_empty() {
            match b.next() {
                Some(chunk) => y = chunk.as_bytes(),
                None => return same,
            }
            continue;
        }
        let n = x.len().min(y.len());
        // (the n bytes compared now, what is left of the chunk)
        let ((xs, xr), (ys, yr)) = if from_end {
            let (xr, xs) = x.split_at(x.len() - n);
            let (yr, ys) = y.split_at(y.len() - n);
            ((xs, xr), (ys, yr))
        } else {
            (x.split_at(n), y.split_at(n))
        };
        if xs != ys {
            let equal = |(p, q): &(&u8, &u8)| p == q;
            let run = if from_end {
                xs.iter()
                    .rev()
                    .zip(ys.iter().rev())
                    .take_while(equal)
                    .count()
            } else {
                xs.iter().zip(ys).take_while(equal).count()
            };
            return same + run;
        }
        same += n;
        x = xr;
        y = yr;
    }
}

/// A buffer of a language with a syntax check as it was before a text
/// edit. (The lines checked are widened by the layout of a language with
/// the off-side rule, Python's; other languages' files are checked
/// whole.)
pub(super) struct SyntaxBefore {
    /// How many events the session had staged before the edit: the edit's
    /// own events come after.
    events: usize,
    path: crate::workspace::WorkspacePath,
    language: &'static dyn Language,
    check: SyntaxCheck,
    text: Rope,
    /// The buffer's tree as it was, not reparsed (see `syntax_unparsed`).
    tree: Option<SyntaxTree>,
}

/// `lines` widened to whole top-level statements: those of the (possibly
/// not reparsed) tree that touch them, and, for code typed since the last
/// parse, what the text says: up to the line at column 0 that starts a
/// statement (with its decorators), down to the line before the next one.
/// Clauses at column 0 (`else:`, `except …:`) and closing brackets
/// continue a statement.
fn top_level_lines(text: &Rope, tree: Option<&SyntaxTree>, lines: LineRange) -> LineRange {
    let count = text.len_lines();
    let starts = |line: usize| {
        let l = text.line(line);
        let Some(first) = l.chars().next() else {
            return false;
        };
        if first.is_whitespace() || first == '#' || matches!(first, ')' | ']' | '}') {
            return false;
        }
        let word: String = l
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        !matches!(word.as_str(), "else" | "elif" | "except" | "finally")
    };
    let mut first = lines.first.min(count.saturating_sub(1));
    while first > 0 && !starts(first) {
        first -= 1;
    }
    while first > 0 && text.line(first - 1).chars().next() == Some('@') {
        first -= 1;
    }
    let mut last = lines.last.min(count.saturating_sub(1));
    while last + 1 < count && !starts(last + 1) {
        last += 1;
    }
    if let Some(tree) = tree {
        // from the first statement that reaches the lines (a descent, not a
        // walk over the whole module) to the last that starts in them
        let from = text.line_to_byte(lines.first.min(count.saturating_sub(1)));
        let mut next = tree.root().first_child_for_byte(from);
        while let Some(n) = next.filter(|n| n.start_position().row <= lines.last) {
            first = first.min(n.start_position().row);
            last = last.max(n.end_position().row.min(count.saturating_sub(1)));
            next = n.next_sibling();
        }
    }
    LineRange::new(first, last)
}

/// The fact for a text edit that made a valid file of `language` invalid.
pub(super) fn now_invalid(language: &dyn Language, errors: Vec<validate::SyntaxError>) -> CodeFact {
    CodeFact::NowInvalid {
        language: language.name(),
        errors,
    }
}

/// A function definition (with its decorators) that strictly contains some
/// lines: its lines and the column of its header.
struct Function {
    lines: LineRange,
    indent: usize,
}

/// The innermost function of the (possibly not reparsed) tree whose header
/// is above `lines` and whose body reaches their end.
fn enclosing_function(tree: Option<&SyntaxTree>, lines: LineRange) -> Option<Function> {
    let root = tree?.root();
    let at = tree_sitter::Point::new(lines.first, 0);
    let mut node = root.descendant_for_point_range(at, at)?;
    loop {
        if node.kind() == "function_definition"
            && node.start_position().row < lines.first
            && node.end_position().row >= lines.last
        {
            let outer = node
                .parent()
                .filter(|p| p.kind() == "decorated_definition")
                .unwrap_or(node);
            return Some(Function {
                lines: LineRange::new(outer.start_position().row, node.end_position().row),
                indent: node.start_position().column,
            });
        }
        node = node.parent()?;
    }
}

/// The syntax errors of one function parsed on its own, dedented to
/// column 0, at their positions in `text`.
fn function_errors(
    (language, check): (&'static dyn Language, SyntaxCheck),
    text: &Rope,
    function: &Function,
) -> Vec<validate::SyntaxError> {
    let last = function.lines.last.min(text.len_lines().saturating_sub(1));
    let mut snippet = String::new();
    for line in function.lines.first..=last {
        let l = text.line(line).to_string();
        let strip = l
            .char_indices()
            .take(function.indent)
            .take_while(|(_, c)| *c == ' ' || *c == '\t')
            .count();
        snippet.push_str(&l[strip..]);
    }
    let snippet = Rope::from_str(&snippet);
    let Ok(tree) = SyntaxTree::parse_language(language, &snippet) else {
        return Vec::new();
    };
    check(&snippet, &tree)
        .into_iter()
        .map(|mut e| {
            e.position.line += function.lines.first;
            e.position.col += function.indent;
            e
        })
        .collect()
}

/// The syntax errors of the lines `lines` (whole top-level statements)
/// parsed on their own, at their positions in `text`.
fn statement_errors(
    (language, check): (&'static dyn Language, SyntaxCheck),
    text: &Rope,
    lines: LineRange,
) -> Vec<validate::SyntaxError> {
    let start = text.line_to_char(lines.first);
    let end = if lines.last + 1 < text.len_lines() {
        text.line_to_char(lines.last + 1)
    } else {
        text.len_chars()
    };
    let snippet = Rope::from(text.slice(start..end));
    let Ok(tree) = SyntaxTree::parse_language(language, &snippet) else {
        return Vec::new();
    };
    check(&snippet, &tree)
        .into_iter()
        .map(|mut e| {
            e.position.line += lines.first;
            e
        })
        .collect()
}

/// What the code commands work on: the current file's text, tree and
/// outline (with the functions' locals when a target may name one), and
/// its module name.
struct Code {
    language: &'static dyn Language,
    text: Rope,
    tree: SyntaxTree,
    outline: Outline,
    cursor: Position,
    module: String,
}

impl Code {
    /// The target as this file's outline names it: a name the project
    /// index printed (`pkg.mod.C.m`) loses its module prefix when only
    /// that form resolves.
    fn target(&self, target: &CodeTarget) -> CodeTarget {
        ops::code::local_target(&self.outline, &self.module, target)
    }

    /// The one symbol `target` names.
    fn symbol(&self, target: &CodeTarget) -> Result<&Symbol, OpError> {
        lookup(&self.outline, &self.target(target)).map_err(analysis_fail)
    }
}

/// An analysis failure as a typed `Fail` (its code and candidates for JSON).
fn analysis_fail(error: AnalysisError) -> OpError {
    error.into()
}

impl Ctx<'_> {
    /// The current file as code for `target`: with the functions' locals
    /// when the target may name one (`Variable f.x`) and its language
    /// knows them.
    fn code_for(&mut self, target: Option<&CodeTarget>) -> Result<Code, OpError> {
        let mut code = self.code()?;
        if matches!(target, Some(CodeTarget::Variable { name }) if name.contains('.')) {
            if let Some(locals) = code.language.local_sites() {
                locals(&mut code.outline, &code.text, &code.tree);
            }
        }
        if let Some(points) = code.language.decision_points() {
            if target.is_some_and(CodeTarget::names_inner_function) {
                let (outline, text, tree) = (&mut code.outline, &code.text, &code.tree);
                crate::language::inner_functions::add_inner_functions(outline, text, tree, &points);
            }
        }
        Ok(code)
    }

    /// [`Self::code_for`] for `command` (`Modify`), which needs
    /// `capability` of the file's language: a `Fail` naming the command
    /// and the language when it lacks it.
    fn code_able(
        &mut self,
        target: Option<&CodeTarget>,
        capability: Capability,
        command: &str,
    ) -> Result<Code, OpError> {
        let code = self.code_for(target)?;
        let path = self.current_path()?;
        if let Some(why) = super::not_yet(path.as_str(), code.language, capability, command) {
            return Err(OpError::new(ErrorKind::NotApplicable, why));
        }
        if let Some(target) = target.filter(|t| t.names_inner_function()) {
            // the function is part of the expression around it: no
            // element edit can take it alone
            let symbol = code.symbol(target)?;
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!(
                    "{command} edits named elements; {} is a function without a name of its own (a callback or a function literal, part of the code around it): edit its lines (Goto {}:{})",
                    symbol.qualified_name, symbol.position.line, symbol.position.col
                ),
            ));
        }
        Ok(code)
    }

    /// The current file as code, or a `Fail` saying why it is not.
    fn code(&mut self) -> Result<Code, OpError> {
        let path = self.current_path()?;
        let buffer = self
            .session
            .buffers
            .get_mut(&path)
            .expect("current buffer is open");
        let language = buffer.language();
        let sites = language.and_then(|language| language.symbol_sites());
        let (Some(language), Some(sites)) = (language, sites) else {
            let why = super::unsupported(
                path.as_str(),
                language,
                Capability::SymbolSites,
                "code commands",
            );
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                why.unwrap_or_default(),
            ));
        };
        let Some(tree) = buffer.ensure_syntax().cloned() else {
            return Err(OpError::new(
                ErrorKind::Internal,
                format!("{path} could not be parsed"),
            ));
        };
        let text = buffer.text().clone();
        let outline = sites(&text, &tree);
        let module = ops::code::module_name(self.workspace.root(), &path, &text, &tree);
        Ok(Code {
            language,
            text,
            tree,
            outline,
            cursor: buffer.cursor(),
            module,
        })
    }

    /// Applies computed edits as one undo step; `Err` when there are none.
    /// The edits become a [`WorkspaceChange`] of the current buffer, applied
    /// by the one applier like every other change.
    fn apply_result(&mut self, result: &EditResult) -> Result<(Rope, Rope), OpError> {
        if result.edits.is_empty() {
            let why = result
                .note
                .clone()
                .unwrap_or_else(|| "nothing to change".to_owned());
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                format!("No change: {why}"),
            ));
        }
        let buffer = self.current()?;
        let (path, version, line_ending) = (
            buffer.path().clone(),
            buffer.version(),
            buffer.line_ending(),
        );
        let before = buffer.text().clone();
        let edits = result
            .text_edits()
            .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
        let change_set = edits
            .to_change_set(before.len_chars(), line_ending)
            .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
        self.check_syntax_kept(&before, &change_set)?;
        let change = WorkspaceChange::edit(path, Base::Buffer { version }, edits);
        self.apply_change_placing(&change, ApplyMode::Buffers, Some(result.cursor))?;
        Ok((before, self.current()?.text().clone()))
    }

    /// Refuses a code edit that breaks a file's syntax: a valid file must
    /// stay valid, an invalid one must not get more errors. The one check
    /// every code edit (Insert, Delete, Modify, Comment, Format) passes.
    fn check_syntax_kept(&mut self, before: &Rope, change: &ChangeSet) -> Result<(), OpError> {
        let path = self.current_path()?;
        let buffer = self
            .session
            .buffers
            .get_mut(&path)
            .expect("current buffer is open");
        let Some(language) = buffer.language_supporting(Capability::SyntaxCheck) else {
            return Ok(()); // a language without a syntax check
        };
        let Some(check) = language.syntax_check() else {
            return Ok(());
        };
        let Some(tree) = buffer.ensure_syntax() else {
            return Ok(());
        };
        let old = check(before, tree).len();
        let mut after = before.clone();
        change
            .apply(&mut after)
            .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
        let tree = SyntaxTree::parse_language(tree.language(), &after)
            .map_err(|e| OpError::new(ErrorKind::Internal, format!("Internal: {e}")))?;
        let new = check(&after, &tree);
        if new.len() <= old {
            return Ok(());
        }
        let listed: Vec<String> = new.iter().take(3).map(ToString::to_string).collect();
        let more = if new.len() > 3 { ", …" } else { "" };
        let what = if old == 0 {
            format!("the file would no longer be valid {}", language.name())
        } else {
            format!(
                "it would add syntax errors (the file had {old}, it would have {})",
                new.len()
            )
        };
        Err(OpError::new(
            ErrorKind::InvalidArgument,
            format!(
                "Refused, nothing changed: {what}: {}{more}",
                listed.join(", ")
            ),
        ))
    }

    /// Before a plain text edit: the current Python buffer's text and tree,
    /// to tell afterwards whether the edit broke its syntax.
    pub(super) fn syntax_before(&mut self) -> Option<SyntaxBefore> {
        let buffer = self.current().ok()?;
        let language = buffer.language_supporting(Capability::SyntaxCheck)?;
        Some(SyntaxBefore {
            events: self.session.unpersisted().len(),
            language,
            check: language.syntax_check()?,
            text: buffer.text().clone(),
            tree: buffer.syntax_unparsed().cloned(),
            path: buffer.path().clone(),
        })
    }

    /// Text edits may leave a file invalid (code is typed in steps), but
    /// never silently: when a valid file became invalid, the reply names
    /// the errors.
    pub(super) fn note_broken_syntax(&mut self, before: SyntaxBefore, outcome: &mut Outcome) {
        if outcome.shape != Shape::Effect {
            return;
        }
        let clauses = &mut outcome.facts;
        let Some(fact) = self.broken_syntax(&before) else {
            return;
        };
        let at = clauses
            .iter()
            .position(|c| matches!(c, Clause::At(_)))
            .unwrap_or(clauses.len());
        clauses.insert(at, code_fact(fact));
    }

    /// The note for a text edit that made valid code invalid. Only the
    /// function the edit is in (else the top-level statements it touched)
    /// is parsed and checked, before and after, on its own: the buffer's
    /// tree is left to be reparsed lazily, when a code command needs it.
    fn broken_syntax(&mut self, before: &SyntaxBefore) -> Option<CodeFact> {
        let buffer = self.session.buffers.get(&before.path)?;
        let after = buffer.text().clone();
        if !before.language.offside_rule() {
            // no layout tells where a statement starts: the whole file
            let errors = |text: &Rope| {
                SyntaxTree::parse_language(before.language, text)
                    .map(|tree| (before.check)(text, &tree))
                    .unwrap_or_default()
            };
            let now = errors(&after);
            if now.is_empty() || !errors(&before.text).is_empty() {
                return None;
            }
            return Some(now_invalid(before.language, now));
        }
        // the lines the edit's own change names; a diff of the texts only
        // when it took several changes
        let (was, now) = match self.edit_of(before) {
            Some(change) => edited_lines(&before.text, &after, change)?,
            None => changed_lines(&before.text, &after)?,
        };
        if let (Some(old), Some(new)) = (
            enclosing_function(before.tree.as_ref(), was),
            enclosing_function(buffer.syntax_unparsed(), now),
        ) {
            // inside one function whose header the edit left alone: check
            // only that function, dedented (a big class costs its method)
            if old.lines.first == new.lines.first && old.indent == new.indent {
                let language = (before.language, before.check);
                let errors = function_errors(language, &after, &new);
                if errors.is_empty() || !function_errors(language, &before.text, &old).is_empty() {
                    return None;
                }
                return Some(now_invalid(before.language, errors));
            }
        }
        // the same statements on both sides: what the edit touched in
        // either text, mapped through the shift of the lines after it
        let was = top_level_lines(&before.text, before.tree.as_ref(), was);
        let now = top_level_lines(&after, buffer.syntax_unparsed(), now);
        let shift = |line: usize, from: &Rope, to: &Rope| {
            (line + to.len_lines()).saturating_sub(from.len_lines())
        };
        let first = was.first.min(now.first);
        let was = LineRange::new(first, was.last.max(shift(now.last, &after, &before.text)));
        let now = LineRange::new(first, now.last.max(shift(was.last, &before.text, &after)));
        // after first: most edits keep the code valid, one parse then
        let language = (before.language, before.check);
        let errors = statement_errors(language, &after, now);
        if errors.is_empty() || !statement_errors(language, &before.text, was).is_empty() {
            return None;
        }
        Some(now_invalid(before.language, errors))
    }

    /// The one change a text edit made to `before.path`, if it made one.
    fn edit_of(&self, before: &SyntaxBefore) -> Option<&ChangeSet> {
        let events = self.session.unpersisted().get(before.events..)?;
        let mut edits = events.iter().filter_map(|event| match event {
            crate::session::Event::Edited { path, change, .. } if *path == before.path => {
                Some(change)
            }
            _ => None,
        });
        let change = edits.next()?;
        edits.next().is_none().then_some(change)
    }

    /// `Show Function f` …: the definition from its keyword (as the spec's
    /// example shows it); with context, its whole lines (attached comments
    /// and decorators included) and the lines around them.
    pub(super) fn show_code(&mut self, target: &CodeTarget, context: usize) -> Ran {
        let code = self.code_for(Some(target))?;
        let symbol = code.symbol(target)?;
        let path = self.current_path()?;
        let element = ops::code::element(&code.text, &code.outline, symbol, path.as_str());
        let at = element.span.start;
        let clauses = if context == 0 {
            output::text_in_tiers(&element.text, self.session.preferences.output_limit)
        } else {
            self.shown_lines(&code.text, symbol.full_lines, context)
        };
        self.move_to(at)?;
        let mut reply = vec![Clause::At(at)];
        reply.extend(clauses);
        reply.push(ops::json::data("element", ops::json::element(&element)));
        Ok(Outcome::answer(reply))
    }

    /// A code element's whole lines (decorators and attached comments
    /// included) as chars, and its description (`function f`): the scope
    /// of `Replace … In Function f`.
    pub(super) fn element_chars(
        &mut self,
        target: &CodeTarget,
    ) -> Result<(std::ops::Range<usize>, String), OpError> {
        let code = self.code_for(Some(target))?;
        let symbol = code.symbol(target)?;
        Ok((symbol.full.clone(), describe(symbol).to_string()))
    }

    pub(super) fn goto_code(&mut self, target: &GotoTarget) -> Ran {
        let code = self.code_for(match target {
            GotoTarget::Code(t) => Some(t),
            _ => None,
        })?;
        let (kind, start) = match target {
            GotoTarget::StartOfFunction => (Enclosing::Function, true),
            GotoTarget::EndOfFunction => (Enclosing::Function, false),
            GotoTarget::StartOfClass => (Enclosing::Class, true),
            GotoTarget::EndOfClass => (Enclosing::Class, false),
            GotoTarget::Code(target) => {
                let symbol = code.symbol(target)?;
                return self.move_to(symbol.position);
            }
            _ => {
                return Err(OpError::new(
                    ErrorKind::Internal,
                    "Internal: not a code target",
                ))
            }
        };
        let in_impl =
            code.language.brace_edits().map(|e| e.methods) == Some(edits::MethodPlace::InImpl);
        if let Some((first, end)) = (kind == Enclosing::Class && in_impl)
            .then(|| edits::impl_block_around(&code.text, &code.tree, code.cursor))
            .flatten()
        {
            return self.move_to(if start { first } else { end });
        }
        let Some(symbol) = enclosing(&code.outline, &code.text, code.cursor, kind) else {
            let what = if kind == Enclosing::Function {
                "function"
            } else {
                "class"
            };
            let mut message = format!("Not in {what} (cursor at {})", code.cursor);
            // a method written apart from its type (Go's): name the type
            let method = enclosing(&code.outline, &code.text, code.cursor, Enclosing::Function)
                .filter(|m| m.kind == SymbolKind::Method && kind == Enclosing::Class);
            let name = method.map_or("", |m| m.qualified_name.as_str());
            if let Some((owner, _)) = name.rsplit_once('.') {
                message.push_str(&format!(
                    ": method {name} is written outside its type; Goto Class {owner}"
                ));
            }
            return Err(OpError::new(ErrorKind::NotApplicable, message));
        };
        self.move_to(if start { symbol.position } else { symbol.end })
    }

    pub(super) fn insert_code(&mut self, kind: InsertKind, given: &str) -> Ran {
        let command = match kind {
            InsertKind::Function => "Insert Function",
            InsertKind::Method => "Insert Method",
            InsertKind::Class => "Insert Class",
            InsertKind::Import => "Insert Import",
            InsertKind::Line | InsertKind::Block => "Insert",
        };
        let capability = match kind {
            InsertKind::Function | InsertKind::Method | InsertKind::Class => {
                Capability::ElementEdits
            }
            InsertKind::Import => Capability::Imports,
            _ => Capability::CodeEdits,
        };
        let code = self.code_able(None, capability, command)?;
        let brace_imports = code.language.brace_edits().and_then(|e| e.imports);
        let result = match (kind, code.language.brace_edits()) {
            (InsertKind::Import, _) => match brace_imports {
                Some(insert_import) if !code.language.code_edits() => {
                    insert_import(&code.text, &code.tree, given)
                }
                _ => insert::insert_import(&code.text, &code.tree, given),
            },
            (_, Some(style)) if !code.language.code_edits() => edits::insert(
                &code.text,
                &code.tree,
                &code.outline,
                code.cursor,
                kind,
                given,
                style,
            ),
            _ => insert::insert_definition(
                &code.text,
                &code.tree,
                &code.outline,
                code.cursor,
                kind,
                given,
            ),
        }
        .map_err(analysis_fail)?;
        let mut result = result;
        if let (Some(element), Some(_), false) = (
            result.element,
            code.language.brace_edits(),
            code.language.code_edits(),
        ) {
            // what the compiler refuses of the new definition, its parser
            // accepting it
            let after = crate::analysis::textedit::apply(&code.text, &result.edits)
                .map_err(analysis_fail)?;
            let at = |p| position::to_char(&after, p).unwrap_or(0);
            let note = crate::language::insert_rules::check(
                code.language,
                &after,
                at(element),
                at(result.cursor),
                kind,
            )
            .map_err(|why| {
                OpError::new(
                    ErrorKind::InvalidArgument,
                    format!("Refused, nothing changed: {why}"),
                )
            })?;
            self.refuse_taken_beside(code.language, &after, at(element)..at(result.cursor))?;
            if let Some(note) = note {
                result.note = Some(match result.note.take() {
                    Some(n) => format!("{n}; {note}"),
                    None => note,
                });
            }
        }
        if result.edits.is_empty() {
            return match result.note {
                Some(why) => Ok(Outcome::effect(vec![
                    code_fact(CodeFact::NothingInserted { why }),
                    Clause::At(code.cursor),
                ])),
                None => Err(OpError::new(
                    ErrorKind::InvalidArgument,
                    "Nothing to insert",
                )),
            };
        }
        let start = result.edits[0].range.start;
        let mut first_line = code.text.char_to_line(start);
        let (before, after) = self.apply_result(&result)?;
        let lines =
            position::counted_lines(&after).saturating_sub(position::counted_lines(&before));
        if lines > 0 && start > code.text.line_to_char(first_line) {
            // Lines added after the end of a line start on the next one.
            first_line += 1;
        }
        let at = self.current()?.cursor();
        let inserted = if lines == 0 {
            // `from m import b` merged into an existing `from m import a`.
            code_fact(CodeFact::MergedIntoLine(first_line))
        } else {
            Clause::Inserted {
                lines,
                at: first_line,
            }
        };
        let mut clauses = vec![inserted];
        clauses.extend(result.note.map(Clause::Note));
        clauses.push(Clause::At(at));
        Ok(Outcome::effect(clauses))
    }

    pub(super) fn delete_code(&mut self, target: &CodeTarget) -> Ran {
        let command = match target {
            CodeTarget::Function { .. } => "Delete Function",
            CodeTarget::Method { .. } => "Delete Method",
            CodeTarget::Class { .. } => "Delete Class",
            CodeTarget::Variable { .. } => "Delete Variable",
        };
        let code = self.code_able(Some(target), Capability::ElementEdits, command)?;
        let symbol = code.symbol(target)?;
        let result = match code.language.brace_edits() {
            Some(style) if !code.language.code_edits() => {
                edits::delete(&code.text, &code.outline, symbol, style)
            }
            _ => delete::delete_symbol(&code.text, &code.outline, symbol),
        }
        .map_err(analysis_fail)?;
        let first_line = code
            .text
            .char_to_line(result.edits.first().map_or(0, |e| e.range.start));
        let (before, after) = self.apply_result(&result)?;
        // Counted lines (a final line break opens none), plus the lines a
        // replacement put back (`pass` for a class left empty).
        let put_back: usize = result
            .edits
            .iter()
            .map(|e| e.insert.matches('\n').count())
            .sum();
        let lines = (position::counted_lines(&before) + put_back)
            .saturating_sub(position::counted_lines(&after));
        let at = self.current()?.cursor();
        let mut clauses = vec![Clause::Deleted {
            lines,
            at: first_line,
        }];
        clauses.extend(result.note.map(Clause::Note));
        clauses.push(Clause::At(at));
        Ok(Outcome::effect(clauses))
    }

    /// The module-qualified name of the symbol `target` names when other
    /// modules can use it (not a local, nor defined inside a function),
    /// for the note on what a rename in this file leaves unchanged.
    pub(super) fn importable_name(&mut self, target: &CodeTarget) -> Option<String> {
        let code = self.code_for(Some(target)).ok()?;
        let symbol = code.symbol(target).ok()?;
        if symbol.kind == SymbolKind::Local {
            return None;
        }
        importable(&code, symbol)
    }

    /// The name the brace index knows the symbol `target` names by (`f`,
    /// `C.m`), when other files can use it: not a local, nor inside a
    /// function.
    pub(super) fn brace_rename_name(&mut self, target: &CodeTarget) -> Option<String> {
        let code = self.code_for(Some(target)).ok()?;
        let symbol = code.symbol(target).ok()?;
        if symbol.kind == SymbolKind::Local {
            return None;
        }
        importable(&code, symbol)?;
        Some(symbol.qualified_name.clone())
    }

    /// The name the brace index's callers' query takes for `target`:
    /// [`Self::brace_rename_name`], with the overload's ordinal where the
    /// file defines several of the name (`C.m#2`: a Java overload's
    /// calls are those that pass it as many arguments as it takes).
    pub(super) fn brace_callers_name(&mut self, target: &CodeTarget) -> Option<String> {
        let name = self.brace_rename_name(target)?;
        let code = self.code_for(Some(target)).ok()?;
        let symbol = code.symbol(target).ok()?;
        let overloads: Vec<&Symbol> = (code.outline.symbols.iter())
            .filter(|s| s.qualified_name == symbol.qualified_name && s.kind == symbol.kind)
            .collect();
        match overloads
            .iter()
            .position(|s| s.definition.start == symbol.definition.start)
        {
            Some(i) if overloads.len() > 1 => Some(format!("{name}#{}", i + 1)),
            _ => Some(name),
        }
    }

    /// What the checks of an edit of the method `target` read of it, from
    /// one parse: its name for the project's rename, its lines, and the
    /// ties its file shows (`None`: no method the index names).
    pub(super) fn method_ties(&mut self, target: &CodeTarget) -> Option<MethodTies> {
        let code = self.code_for(Some(target)).ok()?;
        let symbol = code.symbol(target).ok()?;
        if symbol.kind != SymbolKind::Method {
            return None;
        }
        importable(&code, symbol)?;
        Some(MethodTies {
            name: symbol.qualified_name.clone(),
            lines: symbol.full_lines,
            supertype: supertype_tie(&code, symbol),
            functional: functional_interface_of(&code, symbol),
        })
    }

    /// What the symbol `target` names is.
    pub(super) fn symbol_kind(&mut self, target: &CodeTarget) -> Option<SymbolKind> {
        let code = self.code_for(Some(target)).ok()?;
        Some(code.symbol(target).ok()?.kind)
    }

    /// The lines the element `target` of the current file spans, with its
    /// attached comments and attributes.
    pub(super) fn element_lines(&mut self, target: &CodeTarget) -> Option<LineRange> {
        let code = self.code_for(Some(target)).ok()?;
        Some(code.symbol(target).ok()?.full_lines)
    }

    /// The current file's line count.
    pub(super) fn current_line_count(&self) -> Option<usize> {
        let path = self.session.current.as_ref()?;
        Some(self.session.buffers.get(path)?.text().len_lines())
    }

    /// For a target naming a parameter of a function other modules can
    /// call: that function's module-qualified name (renaming the parameter
    /// changes its signature).
    pub(super) fn parameter_of(&mut self, target: &CodeTarget) -> Option<String> {
        let code = self.code_for(Some(target)).ok()?;
        let symbol = code.symbol(target).ok()?;
        let function = code.outline.parent(symbol)?;
        let in_signature = function
            .body
            .as_ref()
            .is_some_and(|body| symbol.definition.start < body.start);
        (symbol.kind == SymbolKind::Local
            && in_signature
            && function.param_names.contains(&symbol.name))
        .then(|| importable(&code, function))
        .flatten()
    }

    pub(super) fn code_command(&mut self, command: &Command) -> Ran {
        match command {
            Command::Modify { target, change } => self.modify(target, change),
            Command::Comment {
                target,
                text,
                style,
                replace,
            } => self.comment(target, text, *style, *replace),
            Command::Format { target, style } => self.format(target.as_ref(), style.as_deref()),
            Command::Analyze { target, kind } => self.analyze(target, *kind),
            Command::Validate { target } => self.validate(target.as_ref()),
            Command::FindSymbol { .. } => Err(OpError::new(
                ErrorKind::Internal,
                "Internal: queries run on the engine",
            )),
            _ => Err(OpError::new(
                ErrorKind::Internal,
                "Internal: not a code command",
            )),
        }
    }

    /// `Modify <target> Rename <new>` of a brace-language file computed
    /// by the file's own checks, not applied: what they refuse, if they
    /// do; else the positions its edits cover (`None`: not a brace
    /// language's rename).
    pub(super) fn file_rename_checked(
        &mut self,
        target: &CodeTarget,
        new_name: &str,
    ) -> Result<Option<Vec<(Position, Position)>>, OpError> {
        let code = self.code_able(Some(target), Capability::Rename, "Modify … Rename")?;
        let symbol = code.symbol(target)?;
        if code.language.code_edits() {
            return Ok(None);
        }
        let result = self.brace_rename(&code, symbol, new_name)?;
        let at = |offset: usize| position::from_char(&code.text, offset.min(code.text.len_chars()));
        Ok(Some(
            result
                .edits
                .iter()
                .map(|e| (at(e.range.start), at(e.range.end)))
                .collect(),
        ))
    }

    /// Refuses a definition at chars `element` of the current file's new
    /// text `after` whose name another file declares in its namespace (a
    /// Go package's, a Rust type's inherent `impl`s, a Java package's
    /// classes: [`super::context::Beside`]).
    fn refuse_taken_beside(
        &self,
        language: &'static dyn Language,
        after: &Rope,
        element: std::ops::Range<usize>,
    ) -> Result<(), OpError> {
        let path = self.current_path()?;
        let taken = self
            .beside
            .and_then(|beside| beside(path.as_str(), language, after, element));
        match taken {
            Some(why) => Err(OpError::new(
                ErrorKind::InvalidArgument,
                format!("Refused, nothing changed: {why}"),
            )),
            None => Ok(()),
        }
    }

    /// The rename of `symbol` in the current brace-language file.
    fn brace_rename(
        &self,
        code: &Code,
        symbol: &Symbol,
        new_name: &str,
    ) -> Result<crate::analysis::textedit::EditResult, OpError> {
        crate::language::rename::rename(
            code.language,
            self.current_path()?.as_str(),
            &code.text,
            &code.tree,
            &code.outline,
            symbol,
            new_name,
        )
    }

    fn modify(&mut self, target: &CodeTarget, change: &Modification) -> Ran {
        // a brace language renames through its own scopes and edits its
        // signatures, decorators and modifiers by its own grammar
        let (capability, command) = match change {
            Modification::Rename { .. } => (Capability::Rename, "Modify … Rename"),
            _ => (Capability::ElementEdits, "Modify"),
        };
        let code = self.code_able(Some(target), capability, command)?;
        let symbol = code.symbol(target)?;
        let described = describe_in(&code.outline, symbol);
        let target = &code.target(target);
        let result = match change {
            Modification::Rename { new_name } if !code.language.code_edits() => {
                let renamed = self.brace_rename(&code, symbol, new_name)?;
                if symbol.kind != SymbolKind::Local {
                    // where the definition starts once renamed
                    let shift: isize = (renamed.edits.iter())
                        .filter(|e| e.range.end <= symbol.definition.start)
                        .map(|e| e.insert.chars().count() as isize - e.range.len() as isize)
                        .sum();
                    let start = symbol.definition.start.saturating_add_signed(shift);
                    let after = crate::analysis::textedit::apply(&code.text, &renamed.edits)
                        .map_err(analysis_fail)?;
                    self.refuse_taken_beside(code.language, &after, start..start + 1)?;
                }
                renamed
            }
            _ if !code.language.code_edits() => crate::language::signature::modify(
                code.language,
                &code.text,
                &code.tree,
                symbol,
                change,
            )?,
            _ => modify::modify(&code.text, &code.tree, &code.outline, target, change)
                .map_err(analysis_fail)?,
        };
        let edits = result.edits.len();
        let mut result = result;
        if let (Modification::Rename { .. }, "go") = (change, code.language.id()) {
            realign_go(&code.text, &mut result);
        }
        self.apply_result(&result)?;
        let at = result.element.unwrap_or(result.cursor);
        let at = position::clamp(self.current()?.text(), at);
        let mut clauses = vec![code_fact(CodeFact::Modified {
            element: described,
            edits,
        })];
        clauses.extend(result.note.map(Clause::Note));
        clauses.push(Clause::At(at));
        Ok(Outcome::effect(clauses))
    }

    fn comment(
        &mut self,
        target: &CodeTarget,
        body: &str,
        style: CommentStyle,
        replace: bool,
    ) -> Ran {
        let code = self.code_able(Some(target), Capability::ElementEdits, "Comment")?;
        let symbol = code.symbol(target)?;
        refuse_local(symbol, "Comment", "Goto and Insert Line")?;
        let described = describe_in(&code.outline, symbol);
        let (result, commented) = match code.language.brace_edits() {
            Some(edits_of) if !code.language.code_edits() => {
                edits::comment(&code.text, symbol, body, style, replace, edits_of)
            }
            _ => comment::comment(&code.text, &code.tree, symbol, body, style, replace),
        }
        .map_err(analysis_fail)?;
        self.apply_result(&result)?;
        let fact = CodeFact::Commented {
            docstring: style == CommentStyle::Docstring,
            element: described,
            how: commented,
        };
        let at = self.current()?.cursor();
        Ok(Outcome::effect(vec![code_fact(fact), Clause::At(at)]))
    }

    fn format(&mut self, target: Option<&CodeTarget>, style: Option<&str>) -> Ran {
        let code = self.code_able(target, Capability::Format, "Format")?;
        let symbol = match target {
            Some(target) => Some(code.symbol(target)?),
            None => None,
        };
        let result = match code.language.formatter() {
            Some(formatter) if !code.language.code_edits() => {
                let path = self.current_path()?;
                format::format_external(
                    &formatter,
                    &path.absolute(self.workspace.root()),
                    &code.text,
                    symbol.map(|s| s.full.clone()),
                    style,
                    code.cursor,
                )
            }
            _ => format::format(&code.text, symbol.map(|s| s.full_lines), style, code.cursor),
        }
        .map_err(analysis_fail)?;
        if result.edits.is_empty() {
            return Ok(Outcome::effect(vec![
                code_fact(CodeFact::AlreadyFormatted),
                Clause::At(code.cursor),
            ]));
        }
        let (before, after) = self.apply_result(&result)?;
        let at = self.current()?.cursor();
        let fact = CodeFact::Formatted {
            before: position::counted_lines(&before),
            after: position::counted_lines(&after),
        };
        Ok(Outcome::effect(vec![code_fact(fact), Clause::At(at)]))
    }

    fn analyze(&mut self, target: &AnalyzeTarget, kind: Option<AnalysisKind>) -> Ran {
        if let (AnalyzeTarget::File, Some(AnalysisKind::Structure)) = (target, kind) {
            return self.file_structure();
        }
        let code = self.code_for(match target {
            AnalyzeTarget::Code(target) => Some(target),
            AnalyzeTarget::File => None,
        })?;
        if let (AnalyzeTarget::Code(target), Some(AnalysisKind::Structure)) = (target, kind) {
            if !code.language.supports(Capability::CodeAnalyses) {
                return self.element_structure(&code, target);
            }
        }
        if let (Some(AnalysisKind::Complexity), Some(points), false) = (
            kind,
            code.language.decision_points(),
            code.language.code_analyses(),
        ) {
            let symbol = match target {
                AnalyzeTarget::File => None,
                AnalyzeTarget::Code(target) => Some(code.symbol(target)?),
            };
            let report = ops::code::counted_complexity(
                &code.text,
                &code.tree,
                &code.outline,
                symbol,
                &points,
            );
            let data = ops::json::data("complexity", ops::json::complexity(&report));
            let fact = CodeFact::Complexity {
                subject: symbol.map(|s| describe_in(&code.outline, s)),
                report,
                limit: self.session.preferences.output_limit,
            };
            return Ok(Outcome::answer(vec![code_fact(fact), data]));
        }
        if let (Some(AnalysisKind::Issues), Some(checks), false) = (
            kind,
            code.language.issue_checks(),
            code.language.code_analyses(),
        ) {
            let symbol = match target {
                AnalyzeTarget::File => None,
                AnalyzeTarget::Code(target) => Some(code.symbol(target)?),
            };
            let mut issues = crate::language::issues::issues(&code.text, &code.tree, checks);
            if let Some(s) = symbol {
                let lines = s.full_lines;
                issues.retain(|i| i.position.line >= lines.first && i.position.line <= lines.last);
            }
            let data = ops::json::data("issues", ops::json::issues(&issues));
            let fact = CodeFact::Issues {
                subject: symbol.map(|s| describe_in(&code.outline, s)),
                issues,
                limit: self.session.preferences.output_limit,
            };
            return Ok(Outcome::answer(vec![code_fact(fact), data]));
        }
        if let (None | Some(AnalysisKind::Dependencies), Some(points), false) = (
            kind,
            code.language.decision_points(),
            code.language.code_analyses(),
        ) {
            return self.brace_analysis(&code, target, kind, &points);
        }
        let command = match kind {
            None => "Analyze",
            Some(AnalysisKind::Structure) => "Analyze Structure",
            Some(AnalysisKind::Complexity) => "Analyze Complexity",
            Some(AnalysisKind::Dependencies) => "Analyze Dependencies",
            Some(AnalysisKind::Issues) => "Analyze Issues",
        };
        let path = self.current_path()?;
        if let Some(why) = super::not_yet(
            path.as_str(),
            code.language,
            Capability::CodeAnalyses,
            command,
        ) {
            return Err(OpError::new(ErrorKind::NotApplicable, why));
        }
        let analysis = Analysis::new(&code.text, &code.tree);
        let target = match target {
            AnalyzeTarget::File => None,
            AnalyzeTarget::Code(target) => Some(code.target(target)),
        };
        let config = IssueConfig {
            package_init: self.current_path()?.file_name() == "__init__.py",
            ..IssueConfig::default()
        };
        let report = analysis
            .report(&code.text, &code.tree, target.as_ref(), &config)
            .map_err(analysis_fail)?;
        let subject = report
            .symbol
            .as_ref()
            .map(|s| describe_copy(&code.outline, s));
        let limit = self.session.preferences.output_limit;
        let path = self.current_path()?;
        let structure = || {
            let tree =
                ops::code::structure(&analysis.outline, report.symbol.as_ref(), path.as_str());
            ops::json::data("structure", ops::json::structure(&tree))
        };
        let complexity = || {
            let figures = ops::code::complexity(&analysis.outline, &report);
            ops::json::data("complexity", ops::json::complexity(&figures))
        };
        let dependencies = || {
            ops::json::data(
                "dependencies",
                ops::json::dependencies(&report.dependencies),
            )
        };
        let issues = || ops::json::data("issues", ops::json::issues(&report.issues));
        let data = match kind {
            None => vec![complexity(), dependencies(), issues()],
            Some(AnalysisKind::Structure) => vec![structure()],
            Some(AnalysisKind::Complexity) => vec![complexity()],
            Some(AnalysisKind::Dependencies) => vec![dependencies()],
            Some(AnalysisKind::Issues) => vec![issues()],
        };
        let fact = match kind {
            None => CodeFact::Overview {
                subject,
                complexity: ops::code::complexity(&analysis.outline, &report),
                external: report.dependencies.external_count(),
                issues: report.issues.len(),
            },
            Some(AnalysisKind::Complexity) => CodeFact::Complexity {
                subject,
                report: ops::code::complexity(&analysis.outline, &report),
                limit,
            },
            Some(AnalysisKind::Dependencies) => CodeFact::Dependencies {
                subject,
                dependencies: report.dependencies,
                limit,
            },
            Some(AnalysisKind::Issues) => CodeFact::Issues {
                subject,
                issues: report.issues,
                limit,
            },
            Some(AnalysisKind::Structure) => CodeFact::Structure {
                subject,
                tree: ops::code::structure(
                    &analysis.outline,
                    report.symbol.as_ref(),
                    path.as_str(),
                ),
            },
        };
        let mut reply = vec![code_fact(fact)];
        reply.extend(data);
        Ok(Outcome::answer(reply))
    }

    /// `Analyze <element> Dependencies` and `Analyze <target>` (the
    /// overview) in a brace language: the element's uses from the file's
    /// scan, its complexity and issues by the language's own rules.
    fn brace_analysis(
        &mut self,
        code: &Code,
        target: &AnalyzeTarget,
        kind: Option<AnalysisKind>,
        points: &crate::language::complexity::DecisionPoints,
    ) -> Ran {
        let symbol = match target {
            AnalyzeTarget::File => None,
            AnalyzeTarget::Code(target) => Some(code.symbol(target)?),
        };
        let span = symbol.map_or(0..code.text.len_chars(), |s| s.full.clone());
        let scanned =
            crate::analysis::index::tags::scan::scan(code.language, &code.text.to_string());
        let generics = crate::analysis::brace_dependencies::type_parameters(&code.text, &code.tree);
        let uses = crate::analysis::brace_dependencies::element_uses(
            &scanned,
            span,
            |name| code.language.predeclared(name),
            &generics,
        );
        let subject = symbol.map(|s| describe_in(&code.outline, s));
        let limit = self.session.preferences.output_limit;
        let dependencies = ops::json::data("element_dependencies", ops::json::element_uses(&uses));
        if kind == Some(AnalysisKind::Dependencies) {
            let fact = CodeFact::ElementUses {
                subject,
                uses,
                limit,
            };
            return Ok(Outcome::answer(vec![code_fact(fact), dependencies]));
        }
        let report =
            ops::code::counted_complexity(&code.text, &code.tree, &code.outline, symbol, points);
        let mut issues = match code.language.issue_checks() {
            Some(checks) => crate::language::issues::issues(&code.text, &code.tree, checks),
            None => Vec::new(),
        };
        if let Some(s) = symbol {
            let lines = s.full_lines;
            issues.retain(|i| i.position.line >= lines.first && i.position.line <= lines.last);
        }
        let data = vec![
            ops::json::data("complexity", ops::json::complexity(&report)),
            dependencies,
            ops::json::data("issues", ops::json::issues(&issues)),
        ];
        let fact = CodeFact::Overview {
            subject,
            complexity: report,
            external: uses.external.len(),
            issues: issues.len(),
        };
        let mut reply = vec![code_fact(fact)];
        reply.extend(data);
        Ok(Outcome::answer(reply))
    }

    /// `Analyze Class C Structure` in a language without the code
    /// analyses: the element and its members from its language's outline.
    fn element_structure(&mut self, code: &Code, target: &CodeTarget) -> Ran {
        let symbol = code.symbol(target)?;
        let form = outline::display_name(&code.outline, symbol);
        let entries = code.language.outline(&code.text, &code.tree);
        let path = self.current_path()?;
        let Some(index) = entries
            .entries
            .iter()
            .position(|e| e.start == symbol.position && e.form == form)
        else {
            return Err(OpError::new(
                ErrorKind::Internal,
                format!(
                    "Internal: {} is not in the outline of {path}",
                    describe(symbol)
                ),
            ));
        };
        let structure = ops::code::entry_structure(&entries, index);
        let data = ops::json::data("structure", ops::json::structure(&structure));
        let subject = Element {
            noun: entries.entries[index].kind.to_owned(),
            name: form,
        };
        Ok(Outcome::answer(vec![
            code_fact(CodeFact::Structure {
                subject: Some(subject),
                tree: structure,
            }),
            data,
        ]))
    }

    /// `Analyze File Structure`: the current file's outline, in any
    /// registered language.
    fn file_structure(&mut self) -> Ran {
        let path = self.current_path()?;
        let buffer = self
            .session
            .buffers
            .get_mut(&path)
            .expect("current buffer is open");
        let Some(language) = buffer.language() else {
            let why = super::unsupported(path.as_str(), None, Capability::Outline, "code commands");
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                why.unwrap_or_default(),
            ));
        };
        let Some(tree) = buffer.ensure_syntax().cloned() else {
            return Err(OpError::new(
                ErrorKind::Internal,
                format!("{path} could not be parsed"),
            ));
        };
        let outline = language.outline(buffer.text(), &tree);
        let structure = ops::code::file_structure(&outline, path.as_str());
        let data = ops::json::data("structure", ops::json::structure(&structure));
        Ok(Outcome::answer(vec![
            code_fact(CodeFact::Structure {
                subject: None,
                tree: structure,
            }),
            data,
        ]))
    }

    fn validate(&mut self, target: Option<&CodeTarget>) -> Ran {
        let code = self.code_for(target)?;
        let Some(check) = code.language.syntax_check() else {
            let path = self.current_path()?;
            let why = super::unsupported(
                path.as_str(),
                Some(code.language),
                Capability::SyntaxCheck,
                "code commands",
            );
            return Err(OpError::new(
                ErrorKind::NotApplicable,
                why.unwrap_or_default(),
            ));
        };
        let mut errors = check(&code.text, &code.tree);
        if let Some(target) = target {
            let symbol = code.symbol(target)?;
            let lines = symbol.full_lines;
            errors.retain(|e| e.position.line >= lines.first && e.position.line <= lines.last);
        }
        let data = ops::json::data("syntax_errors", ops::json::syntax_errors(&errors));
        let limit = self.session.preferences.output_limit;
        Ok(Outcome::answer(vec![
            code_fact(CodeFact::SyntaxErrors { errors, limit }),
            data,
        ]))
    }
}

/// The syntax errors of a buffer, for `Save`'s reply (`path`: named, for
/// `Save All`'s); `None` when its language has no syntax check or it has
/// none.
pub(super) fn saved_with_errors(
    buffer: &mut crate::session::Buffer,
    path: Option<String>,
) -> Option<Clause> {
    let check = buffer
        .language_supporting(Capability::SyntaxCheck)?
        .syntax_check()?;
    let text = buffer.text().clone();
    let tree = buffer.ensure_syntax()?;
    let errors = check(&text, tree);
    if errors.is_empty() {
        return None;
    }
    Some(code_fact(CodeFact::SavedWithErrors { path, errors }))
}

/// A code command's fact, as a reply clause.
fn code_fact(fact: CodeFact) -> Clause {
    Clause::Fact(Fact::Code(Box::new(fact)))
}

/// The module-qualified name of a symbol other modules can use: not
/// defined inside a function.
/// A Go rename's edits with gofmt's columns realigned to the new names
/// (`language::gofmt_align`), where they need it.
fn realign_go(text: &Rope, result: &mut crate::analysis::textedit::EditResult) {
    if let Some((_, edits)) = crate::language::gofmt_align::realigned(text, &result.edits) {
        result.edits = edits;
    }
}

fn importable(code: &Code, symbol: &Symbol) -> Option<String> {
    let mut parent = code.outline.parent(symbol);
    while let Some(p) = parent {
        if p.kind.is_callable() {
            return None;
        }
        parent = code.outline.parent(p);
    }
    Some(if code.module.is_empty() {
        symbol.qualified_name.clone()
    } else {
        format!("{}.{}", code.module, symbol.qualified_name)
    })
}

/// Local variables are addressed by Show, Goto and Modify Rename; other
/// commands work on whole definitions.
fn refuse_local(symbol: &Symbol, command: &str, instead: &str) -> Result<(), OpError> {
    if symbol.kind != SymbolKind::Local {
        return Ok(());
    }
    Err(OpError::new(
        ErrorKind::NotApplicable,
        format!(
            "{command} works on definitions; {} is a local variable (at {}): use {instead}",
            symbol.qualified_name, symbol.position
        ),
    ))
}

/// [`describe`] with a name that works when the plain one is ambiguous
/// (`method Text.plain.setter`); `symbol` is from `outline`.
fn describe_in(outline: &Outline, symbol: &Symbol) -> Element {
    Element {
        noun: symbol.kind.noun().to_owned(),
        name: outline::display_name(outline, symbol),
    }
}

/// [`describe_in`] for a copy of a symbol of `outline` (as reports hold).
fn describe_copy(outline: &Outline, copy: &Symbol) -> Element {
    outline
        .symbols
        .iter()
        .find(|s| s.position == copy.position && s.qualified_name == copy.qualified_name)
        .map_or_else(|| describe(copy), |s| describe_in(outline, s))
}

/// `function f`, `method C.m`, `class C`, `variable v`.
fn describe(symbol: &Symbol) -> Element {
    Element {
        noun: symbol.kind.noun().to_owned(),
        name: symbol.qualified_name.clone(),
    }
}

/// What an edit of a method must know of it ([`Ctx::method_ties`]).
pub(super) struct MethodTies {
    /// As the project-wide rename names it (`C.m`, `T.Trait.m`).
    pub name: String,
    pub lines: LineRange,
    /// The supertype outside its file whose method it implements or
    /// overrides, by the file's word ([`supertype_tie`]).
    pub supertype: Option<String>,
    /// The Java functional interface whose one abstract method it is.
    pub functional: Option<String>,
}

/// The supertype whose method the method `symbol` of `code` implements or
/// overrides by its name alone, when the file says so: a Rust trait
/// impl's trait (`the trait Iterator`), a Java `@Override` method's
/// (`a supertype (@Override)`), a TypeScript `override` method's.
fn supertype_tie(code: &Code, symbol: &Symbol) -> Option<String> {
    if let Some(via) = &symbol.via_trait {
        return Some(format!("the trait {via}"));
    }
    let head = symbol.head(&code.text);
    let words = || head.split(|c: char| !c.is_alphanumeric() && c != '@');
    // (a Java class with no supertype but `Object` overrides only its
    // methods: `@Override` elsewhere is javac's error, not a tie)
    let has_supertype = || {
        const OBJECTS: [&str; 5] = ["toString", "equals", "hashCode", "clone", "finalize"];
        let Some(class) = code.outline.parent(symbol) else {
            return true;
        };
        let head_end = class.body.as_ref().map_or(class.full.end, |b| b.start);
        let head = code
            .text
            .slice(class.full.start..head_end.max(class.full.start));
        OBJECTS.contains(&symbol.name.as_str())
            || head
                .to_string()
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "extends" || w == "implements" || w == "enum" || w == "record")
    };
    match code.language.id() {
        "java" if words().any(|w| w == "@Override") && has_supertype() => {
            Some("a supertype (@Override)".to_string())
        }
        "typescript" | "tsx" if words().any(|w| w == "override") => {
            Some("a base class (override)".to_string())
        }
        _ => None,
    }
}

/// The Java interface whose one abstract method the method `symbol` of `code`
/// is: a functional interface, which lambdas (`x -> …`) and method
/// references (`C::m`) implement without naming the method.
fn functional_interface_of(code: &Code, symbol: &Symbol) -> Option<String> {
    if code.language.id() != "java" {
        return None;
    }
    let interface = code.outline.parent(symbol)?;
    let words = |s: &Symbol| {
        s.head(&code.text)
            .split(|c: char| !c.is_alphanumeric() && c != '@')
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    if !words(interface).iter().any(|w| w == "interface") {
        return None;
    }
    // (an interface's method without a body is abstract; `Object`'s
    // public methods redeclared do not count)
    let abstract_methods: Vec<&Symbol> = code
        .outline
        .symbols
        .iter()
        .filter(|s| {
            s.kind == SymbolKind::Method
                && s.body.is_none()
                && code
                    .outline
                    .parent(s)
                    .is_some_and(|p| p.full == interface.full)
                && !["equals", "hashCode", "toString"].contains(&s.name.as_str())
                && !words(s).iter().any(|w| w == "default" || w == "static")
        })
        .collect();
    match abstract_methods[..] {
        [only] if only.full == symbol.full => Some(interface.name.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(a: &str, b: &str) -> Option<(LineRange, LineRange)> {
        changed_lines(&Rope::from_str(a), &Rope::from_str(b))
    }

    #[test]
    fn changed_lines_from_common_prefix_and_suffix() {
        assert_eq!(lines("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            lines("a\nb\nc\n", "a\nx\nb\nc\n"),
            Some((LineRange::new(1, 1), LineRange::new(1, 2)))
        );
        assert_eq!(
            lines("a\nb\nc\n", "a\nc\n"),
            Some((LineRange::new(1, 2), LineRange::new(1, 1)))
        );
        // ropes of many chunks, edited deep inside
        let big: String = (0..5000).map(|i| format!("x{i} = {i}\n")).collect();
        let mut edited = Rope::from_str(&big);
        let at = edited.line_to_char(4000);
        edited.insert(at, "if y\n");
        let (was, now) = changed_lines(&Rope::from_str(&big), &edited).unwrap();
        assert_eq!((was.first, now.first, now.last), (4000, 4000, 4001));
    }

    /// The lines a change names are the lines the texts' diff finds (or,
    /// for a replacement that kept part of its text, a few more).
    #[test]
    fn edited_lines_come_from_the_change_and_cover_the_diff() {
        let big: String = (0..5000).map(|i| format!("x{i} = {i}\n")).collect();
        let before = Rope::from_str(&big);
        let line = |n: usize| before.line_to_char(n);
        let cases = [
            vec![(line(4000), line(4000), "if y\n")],
            vec![(line(10), line(12), "")],
            vec![
                (line(3) + 1, line(3) + 3, "yy"),
                (line(70), line(70) + 1, "z\nw"),
            ],
            vec![(line(4999), before.len_chars(), "end")],
        ];
        for edits in cases {
            let change = ChangeSet::from_edits(
                before.len_chars(),
                edits.iter().map(|(s, e, t)| (*s, *e, Some(*t))),
            )
            .unwrap();
            let mut after = before.clone();
            change.apply(&mut after).unwrap();
            let (was, now) = edited_lines(&before, &after, &change).unwrap();
            let (diff_was, diff_now) = changed_lines(&before, &after).unwrap();
            assert_eq!(
                (was.first, now.first),
                (diff_was.first, diff_now.first),
                "{edits:?}"
            );
            assert!(
                was.last >= diff_was.last && now.last >= diff_now.last,
                "{edits:?}"
            );
        }
        let (was, now) = {
            let change = ChangeSet::from_edits(
                before.len_chars(),
                [(line(4000), line(4000), Some("if y\n"))],
            )
            .unwrap();
            let mut after = before.clone();
            change.apply(&mut after).unwrap();
            edited_lines(&before, &after, &change).unwrap()
        };
        assert_eq!(
            (was.first, was.last, now.first, now.last),
            (4000, 4000, 4000, 4001)
        );
    }

    #[test]
    fn top_level_lines_cover_whole_statements() {
        let text = Rope::from_str(
            "import os\n\n@dec\ndef f():\n    x = (\n1)\n    return x\n\nif a:\n    pass\nelse:\n    pass\nz = 1\n",
        );
        let tree = SyntaxTree::parse(&text).unwrap();
        let span = |a, b| top_level_lines(&text, Some(&tree), LineRange::new(a, b));
        assert_eq!(
            span(6, 6),
            LineRange::new(2, 7),
            "decorator to the blank line"
        );
        assert_eq!(
            span(5, 5),
            LineRange::new(2, 7),
            "a column-0 bracket continues"
        );
        assert_eq!(span(11, 11), LineRange::new(8, 11), "else continues the if");
        assert_eq!(span(12, 12), LineRange::new(12, 13));
    }
}
