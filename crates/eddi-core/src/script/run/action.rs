//! Actions: each an edit of the snapshot on the element being visited
//! (or, outside any `foreach`, the one at the cursor), counted for the
//! reply. `flag` and `suggest` write nothing: they add to the review list.

use std::ops::Range;

use tree_sitter::Node;

use crate::analysis::syntax::{byte_to_char, char_to_byte, node_text};
use crate::change::FileOp;
use crate::commands::Command;
use crate::edit::position::from_char;
use crate::failure::{ErrorKind, OpError};

use super::super::ast::*;
use super::element::{Detail, Element};
use super::parsed::call_parts;
use super::report::{Flagged, Verb};
use super::{Failed, Interpreter, Result};

/// A call's arguments as written, split into positional and keyword.
struct Arguments {
    positional: Vec<String>,
    keyword: Vec<(String, String)>,
    all: Vec<String>,
}

impl Arguments {
    fn of(all: &[String]) -> Arguments {
        let mut positional = Vec::new();
        let mut keyword = Vec::new();
        for argument in all {
            match keyword_of(argument) {
                Some((name, value)) => keyword.push((name, value)),
                None => positional.push(argument.clone()),
            }
        }
        Arguments {
            positional,
            keyword,
            all: all.to_vec(),
        }
    }
}

/// `name=value` (not `==`): the keyword and the value as written.
fn keyword_of(argument: &str) -> Option<(String, String)> {
    let (name, value) = argument.split_once('=')?;
    let name = name.trim();
    let is_name = !name.is_empty()
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (is_name && !value.starts_with('=')).then(|| (name.to_owned(), value.trim().to_owned()))
}

fn render(template: &Template, arguments: &Arguments, at: Span) -> Result<String> {
    let mut out = String::new();
    for part in &template.parts {
        match part {
            TemplatePart::Text(text) => out.push_str(text),
            TemplatePart::Argument(n) => match arguments.positional.get(n - 1) {
                Some(value) => out.push_str(value),
                None => {
                    return Err(Failed::new(
                        at,
                        ErrorKind::OutOfRange,
                        format!(
                            "${n}: the call has {} positional argument(s)",
                            arguments.positional.len()
                        ),
                    ))
                }
            },
            TemplatePart::KeywordArgument(name) => {
                match arguments.keyword.iter().find(|(k, _)| k == name) {
                    Some((_, value)) => out.push_str(value),
                    None => {
                        return Err(Failed::new(
                            at,
                            ErrorKind::NotFound,
                            format!("${name}: the call has no keyword argument '{name}'"),
                        ))
                    }
                }
            }
            TemplatePart::AllArguments => out.push_str(&arguments.all.join(", ")),
        }
    }
    Ok(out)
}

/// The code a call pattern writes for a call with `arguments`.
fn render_call(pattern: &CallPattern, arguments: &Arguments, at: Span) -> Result<String> {
    let callee = render(&pattern.callee, arguments, at)?;
    let Some(written) = &pattern.arguments else {
        return Ok(callee);
    };
    let mut parts = Vec::new();
    for argument in written {
        let value = render(&argument.value, arguments, at)?;
        parts.push(match &argument.keyword {
            Some(keyword) => format!("{keyword}={value}"),
            None => value,
        });
    }
    Ok(format!("{callee}({})", parts.join(", ")))
}

/// What stands before `name` in a call's callee as written, when the
/// callee reaches the function `name` through it (`items.` of
/// `items.price`, `self.` of `self.price`, `calc::` of `calc::price`); else
/// nothing.
fn qualifier_of<'c>(callee: &'c str, name: &str) -> &'c str {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    match callee.strip_suffix(name) {
        Some(qualifier) if plain && (qualifier.ends_with('.') || qualifier.ends_with("::")) => {
            qualifier
        }
        _ => "",
    }
}

/// A call's arguments with a pattern's added: a keyword the call has is
/// replaced in place, others are added at the end.
fn merged(call: &Arguments, added: &[PatternArgument], at: Span) -> Result<String> {
    let mut out: Vec<String> = call.all.clone();
    for argument in added {
        let value = render(&argument.value, call, at)?;
        match &argument.keyword {
            Some(keyword) => {
                let written = format!("{keyword}={value}");
                match out
                    .iter()
                    .position(|a| keyword_of(a).is_some_and(|(k, _)| k == *keyword))
                {
                    Some(i) => out[i] = written,
                    None => out.push(written),
                }
            }
            None => {
                // positional arguments go before the keyword ones
                let first_keyword = out
                    .iter()
                    .position(|a| keyword_of(a).is_some() || a.starts_with('*'))
                    .unwrap_or(out.len());
                out.insert(first_keyword, value);
            }
        }
    }
    Ok(out.join(", "))
}

impl Interpreter<'_> {
    pub(super) fn fail(at: Span) -> impl Fn(OpError) -> Failed {
        move |error| Failed {
            at,
            error,
            stop: false,
            named: false,
        }
    }

    /// The noun a count uses for the element: `unused import`.
    pub(super) fn noun(element: &Element) -> String {
        match &element.detail {
            Detail::Import { unused: true, .. } => "unused import".to_owned(),
            _ => element.kind.word().to_owned(),
        }
    }

    pub(super) fn action(&mut self, action: &Action, at: Span) -> Result<()> {
        match &action.kind {
            ActionKind::Command(Command::Refactor(refactoring)) => {
                return self.refactor(refactoring, None, at)
            }
            ActionKind::Refactor { kind, arguments } => {
                return self.refactor_called(kind, arguments, at)
            }
            ActionKind::Command(command) => return self.phase1(command, at),
            _ => {}
        }
        // a flag outside any element (a `catch`'s) is a note, with no place
        if let (ActionKind::Flag(message), None) = (&action.kind, self.current.last()) {
            let message = self.expr(message)?.text();
            self.report.flagged.push(Flagged {
                path: String::new(),
                line: 0,
                message,
            });
            self.report.count(Verb::Flagged, "note", 1);
            return Ok(());
        }
        let element = self.here(at)?;
        match &action.kind {
            ActionKind::Flag(message) => {
                let message = self.expr(message)?.text();
                let line = self.line_now(&element, at)?;
                self.report.flagged.push(Flagged {
                    path: element.path.clone(),
                    line,
                    message,
                });
                self.report.count(Verb::Flagged, &Self::noun(&element), 1);
            }
            ActionKind::Suggest(kind) => {
                let line = self.line_now(&element, at)?;
                self.report.flagged.push(Flagged {
                    path: element.path.clone(),
                    line,
                    message: format!("suggest {kind} for {}", element.name),
                });
                self.report.count(Verb::Suggested, &Self::noun(&element), 1);
            }
            ActionKind::Remove => self.remove(&element, at)?,
            ActionKind::RemoveImport => {
                if element.kind != ElementKind::Import {
                    return Err(Failed::named(
                        at,
                        ErrorKind::NotApplicable,
                        format!(
                            "remove import removes an import; the element here is {}",
                            element.describe()
                        ),
                    ));
                }
                self.remove_import(&element, at)?;
            }
            ActionKind::AddImport(module) => self.add_import(&element.path, &module.text, at)?,
            ActionKind::AddLine(text) => {
                let text = self.expr(text)?.text();
                self.add_line(&element, &text, at)?;
            }
            ActionKind::ReplaceWith(Replacement::Template(code)) => {
                self.replace_match(&element, code, at)?;
            }
            ActionKind::ReplaceWith(replacement) => {
                let span = self.span_now(&element, at)?;
                let new = match (replacement, &element.detail) {
                    (Replacement::Code(pattern), Detail::Call { .. }) => {
                        let (callee, arguments) = self.call_now(&element, &span, at)?;
                        let arguments = Arguments::of(&arguments);
                        match &pattern.arguments {
                            // a bare name replaces the callee, the arguments kept
                            None => {
                                let name = render(&pattern.callee, &arguments, at)?;
                                let start = span.start;
                                self.write(
                                    &element.path,
                                    start..start + callee.chars().count(),
                                    &name,
                                    at,
                                );
                                self.report.count(Verb::Replaced, "call", 1);
                                return Ok(());
                            }
                            // (`price($*, 1)` for `items.price(x)`: the call
                            // keeps the qualifier it reaches the function by)
                            Some(_) => {
                                let call = render_call(pattern, &arguments, at)?;
                                let name = render(&pattern.callee, &arguments, at)?;
                                format!("{}{call}", qualifier_of(&callee, &name))
                            }
                        }
                    }
                    (Replacement::Code(pattern), _) => {
                        if pattern.has_placeholders() {
                            return Err(Failed::named(
                                at,
                                ErrorKind::NotApplicable,
                                format!(
                                    "$1, $name and $* are a call's arguments; {} is not a call",
                                    element.describe()
                                ),
                            ));
                        }
                        render_call(pattern, &Arguments::of(&[]), at)?
                    }
                    (Replacement::Text(expr), _) => self.expr(expr)?.text(),
                    (Replacement::Template(_), _) => unreachable!("handled above"),
                };
                self.write(&element.path, span, &new, at);
                self.report.count(Verb::Replaced, &Self::noun(&element), 1);
            }
            ActionKind::Replace {
                pattern,
                replacement,
            } => self.replace_inside(&element, pattern, replacement, at)?,
            // run above, before the element is found
            ActionKind::Refactor { .. } | ActionKind::Command(_) => {
                return Err(Failed::new(
                    at,
                    ErrorKind::Internal,
                    "Internal: an action ran twice",
                ))
            }
        }
        Ok(())
    }

    pub(super) fn write(&mut self, path: &str, range: Range<usize>, insert: &str, at: Span) {
        self.snapshot.edit(path, range, insert, at);
    }

    /// The element's 1-based line now.
    fn line_now(&mut self, element: &Element, at: Span) -> Result<usize> {
        let span = self.span_now(element, at)?;
        let text = self.doc_text(&element.path).map_err(Self::fail(at))?;
        Ok(from_char(&text, span.start.min(text.len_chars())).line + 1)
    }

    /// The call at `span` of the text now: its callee and arguments.
    fn call_now(
        &mut self,
        element: &Element,
        span: &Range<usize>,
        at: Span,
    ) -> Result<(String, Vec<String>)> {
        let parsed = self.parse(&element.path).map_err(Self::fail(at))?;
        let text = &parsed.text;
        let (start, end) = (char_to_byte(text, span.start), char_to_byte(text, span.end));
        let call = parsed
            .tree
            .root()
            .descendant_for_byte_range(start, end)
            .and_then(|mut n| loop {
                if n.start_byte() == start && n.end_byte() == end {
                    if let Some(parts) = call_parts(parsed.language, n) {
                        return Some(parts);
                    }
                }
                n = n.parent()?;
            });
        let Some(call) = call else {
            return Err(Failed::named(
                at,
                ErrorKind::Conflict,
                format!(
                    "{} is no longer a call (an earlier statement changed it)",
                    element.describe()
                ),
            ));
        };
        let callee = text.byte_slice(call.callee).to_string();
        Ok((callee, super::query::call_arguments(text, call.arguments)))
    }

    fn remove(&mut self, element: &Element, at: Span) -> Result<()> {
        let whole = match &element.detail {
            Detail::Definition { full, .. } | Detail::Variable { full } => {
                let full = self
                    .snapshot
                    .map(&element.path, element.version, full.clone())
                    .map_err(|_| {
                        self.span_now(element, at).err().unwrap_or_else(|| {
                            Failed::new(at, ErrorKind::Conflict, "changed since")
                        })
                    })?;
                let text = self.doc_text(&element.path).map_err(Self::fail(at))?;
                with_separator(&text, full)
            }
            Detail::Line { .. } => {
                let span = self.span_now(element, at)?;
                let text = self.doc_text(&element.path).map_err(Self::fail(at))?;
                let line = from_char(&text, span.start).line;
                let start = text.line_to_char(line);
                let end = if line + 1 < text.len_lines() {
                    text.line_to_char(line + 1)
                } else {
                    text.len_chars()
                };
                start..end
            }
            Detail::Import { .. } => return self.remove_import(element, at),
            Detail::Call { .. } | Detail::Match { .. } => {
                let span = self.span_now(element, at)?;
                self.statement_lines(element, span, at)?
            }
            Detail::Capture { .. } => {
                return Err(Failed::named(
                    at,
                    ErrorKind::NotApplicable,
                    format!(
                        "{} is part of a match; replace the match instead (replace with `…`)",
                        element.describe()
                    ),
                ))
            }
            Detail::File { .. } => {
                return Err(Failed::new(
                    at,
                    ErrorKind::NotApplicable,
                    format!(
                        "remove deletes an element of a file; a script does not delete files ({})",
                        element.path
                    ),
                ))
            }
        };
        self.write(&element.path, whole, "", at);
        self.report.count(Verb::Removed, &Self::noun(element), 1);
        Ok(())
    }

    /// The whole lines of the statement that is exactly `span` (a call
    /// written as a statement of its own), else a refusal.
    fn statement_lines(
        &mut self,
        element: &Element,
        span: Range<usize>,
        at: Span,
    ) -> Result<Range<usize>> {
        let text = self.doc_text(&element.path).map_err(Self::fail(at))?;
        let first = from_char(&text, span.start).line;
        let last = from_char(&text, span.end).line;
        let start = text.line_to_char(first);
        let end = if last + 1 < text.len_lines() {
            text.line_to_char(last + 1)
        } else {
            text.len_chars()
        };
        let around = text.slice(start..end).to_string();
        let inner = text.slice(span.clone()).to_string();
        if around.trim() != inner.trim() {
            return Err(Failed::named(
                at,
                ErrorKind::NotApplicable,
                format!("{} is part of a larger statement; remove deletes a call only when it is a statement of its own (replace it instead)", element.describe()),
            ));
        }
        Ok(start..end)
    }

    /// Removes the import's name from its statement: the whole line when
    /// it is the statement's only name, else the statement written again
    /// without it.
    fn remove_import(&mut self, element: &Element, at: Span) -> Result<()> {
        let Detail::Import { bound, .. } = &element.detail else {
            return Ok(());
        };
        let span = self.span_now(element, at)?;
        let parsed = self.parse(&element.path).map_err(Self::fail(at))?;
        let in_statement: Vec<_> = parsed
            .imports()
            .iter()
            .filter(|i| i.statement.start == span.start)
            .collect();
        if !in_statement.iter().any(|i| i.bound == *bound) {
            return Err(Failed::named(
                at,
                ErrorKind::Conflict,
                format!(
                    "{} is no longer in its import statement (an earlier statement changed it)",
                    element.describe()
                ),
            ));
        }
        let statement = in_statement[0].statement.clone();
        let kept: Vec<_> = in_statement.iter().filter(|i| i.bound != *bound).collect();
        let text = &parsed.text;
        if kept.is_empty() {
            let first = from_char(text, statement.start).line;
            let last = from_char(text, statement.end).line;
            let start = text.line_to_char(first);
            let end = if last + 1 < text.len_lines() {
                text.line_to_char(last + 1)
            } else {
                text.len_chars()
            };
            let around = text.slice(start..end).to_string();
            let own = text.slice(statement.clone()).to_string();
            let range = if around.trim() == own.trim() {
                start..end
            } else {
                statement.clone()
            };
            self.write(&element.path, range, "", at);
        } else {
            let written = text.slice(statement.clone()).to_string();
            let first = kept[0];
            let parts: Vec<String> = kept
                .iter()
                .map(|i| {
                    let name = i.name.clone().unwrap_or_else(|| i.module.clone());
                    match &i.alias {
                        Some(alias) => format!("{name} as {alias}"),
                        None => name,
                    }
                })
                .collect();
            let new = match &first.name {
                None => format!("import {}", parts.join(", ")),
                Some(_) => {
                    let module = format!("{}{}", ".".repeat(first.level), first.module);
                    if written.contains('(') {
                        format!("from {module} import ({})", parts.join(", "))
                    } else {
                        format!("from {module} import {}", parts.join(", "))
                    }
                }
            };
            self.write(&element.path, statement, &new, at);
        }
        self.report.count(Verb::Removed, &Self::noun(element), 1);
        Ok(())
    }

    /// Where a line goes after a file's imports: the start of the line
    /// after its last top-level import, else after its docstring, else
    /// its start.
    fn after_imports(&mut self, path: &str, at: Span) -> Result<usize> {
        self.python_code(path, "add line (after a file's imports)")
            .map_err(Self::fail(at))?;
        let parsed = self.parse(path).map_err(Self::fail(at))?;
        let text = &parsed.text;
        let next_line = |offset: usize| {
            let line = from_char(text, offset).line;
            if line + 1 < text.len_lines() {
                text.line_to_char(line + 1)
            } else {
                text.len_chars()
            }
        };
        if let Some(last) = parsed
            .imports()
            .iter()
            .filter(|i| i.top_level)
            .map(|i| i.statement.end)
            .max()
        {
            return Ok(next_line(last));
        }
        let root = parsed.tree.root();
        let mut cursor = root.walk();
        let first: Option<Node<'_>> = root
            .named_children(&mut cursor)
            .find(|n| n.kind() != "comment");
        if let Some(first) = first.filter(|n| crate::analysis::nodes::is_docstring(*n)) {
            return Ok(next_line(byte_to_char(text, first.end_byte())));
        }
        Ok(0)
    }

    fn add_import(&mut self, path: &str, module: &str, at: Span) -> Result<()> {
        self.python_code(path, "add import")
            .map_err(Self::fail(at))?;
        let parsed = self.parse(path).map_err(Self::fail(at))?;
        let present = parsed.imports().iter().any(|i| {
            i.level == 0
                && i.name.is_none()
                && i.alias.is_none()
                && i.module == module
                && i.top_level
        });
        if present {
            return Ok(());
        }
        let offset = self.after_imports(path, at)?;
        let text = self.doc_text(path).map_err(Self::fail(at))?;
        let line = format!("import {module}\n");
        // a file that does not end its last line gets one first
        let insert = if offset == text.len_chars() && offset > 0 && text.char(offset - 1) != '\n' {
            format!("\n{line}")
        } else {
            line
        };
        self.write(path, offset..offset, &insert, at);
        self.report.count(Verb::Added, "import", 1);
        Ok(())
    }

    fn add_line(&mut self, element: &Element, line: &str, at: Span) -> Result<()> {
        let text = self.doc_text(&element.path).map_err(Self::fail(at))?;
        let (offset, indent) = match &element.detail {
            Detail::File { .. } => (self.after_imports(&element.path, at)?, String::new()),
            detail => {
                let span = match detail {
                    Detail::Definition { full, .. } | Detail::Variable { full } => self
                        .snapshot
                        .map(&element.path, element.version, full.clone())
                        .map_err(|_| {
                            Failed::named(
                                at,
                                ErrorKind::Conflict,
                                format!("{} changed across its edge", element.describe()),
                            )
                        })?,
                    _ => self.span_now(element, at)?,
                };
                let first = from_char(&text, span.start).line;
                let indent: String = text
                    .line(first)
                    .chars()
                    .take_while(|c| *c == ' ' || *c == '\t')
                    .collect();
                let end = span.end.max(span.start + 1).min(text.len_chars());
                let last = from_char(&text, end.saturating_sub(1)).line;
                let offset = if last + 1 < text.len_lines() {
                    text.line_to_char(last + 1)
                } else {
                    text.len_chars()
                };
                (offset, indent)
            }
        };
        let mut insert = format!("{indent}{line}\n");
        if offset == text.len_chars() && offset > 0 && text.char(offset - 1) != '\n' {
            insert.insert(0, '\n');
        }
        self.write(&element.path, offset..offset, &insert, at);
        self.report.count(Verb::Added, "line", 1);
        Ok(())
    }

    /// `replace <pattern> with <replacement>` inside the element.
    fn replace_inside(
        &mut self,
        element: &Element,
        pattern: &Pattern,
        replacement: &Replacement,
        at: Span,
    ) -> Result<()> {
        if matches!(pattern, Pattern::Match(_) | Pattern::Code(_)) {
            self.python_code(&element.path, "replace of code")
                .map_err(Self::fail(at))?;
        }
        if let Pattern::Match(code) = pattern {
            let compiled = super::matching::compiled(code)?;
            return self.replace_by_pattern(element, &compiled, replacement, "match", at);
        }
        if let Pattern::Code(code) = pattern {
            if code.arguments.as_ref().is_some_and(|a| !a.is_empty()) {
                // `f(x)`: the calls of f with these arguments, as code
                let written: String = self
                    .source
                    .chars()
                    .skip(code.span.start)
                    .take(code.span.end - code.span.start)
                    .collect();
                let compiled =
                    crate::analysis::pattern::CodePattern::parse(&written).map_err(|e| {
                        Failed::new(
                            code.span,
                            ErrorKind::InvalidArgument,
                            format!("`{written}`: {e}"),
                        )
                    })?;
                return self.replace_by_pattern(element, &compiled, replacement, "call", at);
            }
        }
        let span = self.span_now(element, at)?;
        match pattern {
            Pattern::Match(_) => unreachable!("handled above"),
            Pattern::Text(needle) => {
                if needle.is_empty() {
                    return Err(Failed::new(
                        at,
                        ErrorKind::InvalidArgument,
                        "replace \"\": the text to replace is empty",
                    ));
                }
                let new = match replacement {
                    Replacement::Text(expr) => self.expr(expr)?.text(),
                    Replacement::Code(code) => render_call(code, &Arguments::of(&[]), at)?,
                    Replacement::Template(code) => {
                        let captures = self.enclosing_captures(at)?;
                        crate::analysis::pattern::render(&code.text, &captures).map_err(|e| {
                            Failed::new(code.span, ErrorKind::InvalidArgument, e.to_string())
                        })?
                    }
                };
                let text = self.doc_text(&element.path).map_err(Self::fail(at))?;
                let inside = text.slice(span.clone()).to_string();
                let found: Vec<usize> = inside
                    .match_indices(needle.as_str())
                    .map(|(byte, _)| inside[..byte].chars().count())
                    .collect();
                let length = needle.chars().count();
                for start in found.iter().rev() {
                    let from = span.start + start;
                    self.write(&element.path, from..from + length, &new, at);
                }
                self.report.count(Verb::Replaced, "occurrence", found.len());
            }
            Pattern::Code(code) => {
                let name = render(&code.callee, &Arguments::of(&[]), at)?;
                if code.arguments.as_ref().is_some_and(|a| !a.is_empty()) {
                    return Err(Failed::new(at, ErrorKind::NotApplicable, "a call pattern with arguments (f(x)) is not matched yet; write f() to match every call of f"));
                }
                let parsed = self.parse(&element.path).map_err(Self::fail(at))?;
                let text = &parsed.text;
                let (start, end) = (char_to_byte(text, span.start), char_to_byte(text, span.end));
                // the nodes naming it, or its calls, inside the element
                let mut sites: Vec<(Range<usize>, Option<Vec<String>>)> = Vec::new();
                let mut stack = vec![parsed.tree.root()];
                while let Some(node) = stack.pop() {
                    if node.end_byte() <= start || node.start_byte() >= end {
                        continue;
                    }
                    let inside = node.start_byte() >= start && node.end_byte() <= end;
                    if inside && code.arguments.is_some() && node.kind() == "call" {
                        let callee = node.child_by_field_name("function");
                        if callee.is_some_and(|c| node_text(text, c) == name) {
                            sites.push((
                                byte_to_char(text, node.start_byte())
                                    ..byte_to_char(text, node.end_byte()),
                                Some(super::query::call_arguments(
                                    text,
                                    node.child_by_field_name("arguments"),
                                )),
                            ));
                        }
                    } else if inside
                        && code.arguments.is_none()
                        && matches!(node.kind(), "identifier" | "attribute")
                        && node_text(text, node) == name
                    {
                        sites.push((
                            byte_to_char(text, node.start_byte())
                                ..byte_to_char(text, node.end_byte()),
                            None,
                        ));
                        continue;
                    }
                    let mut cursor = node.walk();
                    stack.extend(node.children(&mut cursor));
                }
                sites.sort_by_key(|(r, _)| r.start);
                // an outer call holds inner ones: keep the outermost
                let mut kept: Vec<(Range<usize>, Option<Vec<String>>)> = Vec::new();
                for site in sites {
                    if kept.last().is_some_and(|(r, _)| site.0.start < r.end) {
                        continue;
                    }
                    kept.push(site);
                }
                let mut count = 0;
                for (range, arguments) in kept.into_iter().rev() {
                    let new = match (replacement, arguments) {
                        (Replacement::Code(to), Some(arguments)) => {
                            let arguments = Arguments::of(&arguments);
                            let callee = render(&to.callee, &arguments, at)?;
                            let added = to.arguments.clone().unwrap_or_default();
                            format!("{callee}({})", merged(&arguments, &added, at)?)
                        }
                        (Replacement::Code(to), None) => render_call(to, &Arguments::of(&[]), at)?,
                        (Replacement::Text(expr), _) => self.expr(expr)?.text(),
                        (Replacement::Template(code), _) => {
                            let captures = self.enclosing_captures(at)?;
                            crate::analysis::pattern::render(&code.text, &captures).map_err(
                                |e| {
                                    Failed::new(
                                        code.span,
                                        ErrorKind::InvalidArgument,
                                        e.to_string(),
                                    )
                                },
                            )?
                        }
                    };
                    self.write(&element.path, range, &new, at);
                    count += 1;
                }
                let noun = if code.arguments.is_some() {
                    "call"
                } else {
                    "name"
                };
                self.report.count(Verb::Replaced, noun, count);
            }
        }
        Ok(())
    }

    /// ``replace `pattern` with …`` (or `replace f(x) with …`) inside the
    /// element: each outermost match, replaced with the template (its
    /// captures and the enclosing match's), the code (`$1` … the matched
    /// call's arguments), or the text.
    fn replace_by_pattern(
        &mut self,
        element: &Element,
        pattern: &crate::analysis::pattern::CodePattern,
        replacement: &Replacement,
        noun: &str,
        at: Span,
    ) -> Result<()> {
        let count = self.replace_matches(element, pattern, at, |this, found, text| {
            Ok(match replacement {
                Replacement::Template(code) => {
                    let mut captures = found.captures.clone();
                    for outer in this.enclosing_captures(at)? {
                        if !captures.iter().any(|c| c.name == outer.name) {
                            captures.push(outer);
                        }
                    }
                    crate::analysis::pattern::render(&code.text, &captures).map_err(|e| {
                        Failed::new(code.span, ErrorKind::InvalidArgument, e.to_string())
                    })?
                }
                Replacement::Text(expr) => this.expr(expr)?.text(),
                // the pattern wrote the whole call: the replacement is the
                // new one, `$1` … the matched call's arguments
                Replacement::Code(to) => {
                    render_call(to, &Arguments::of(&arguments_of_call(text)), at)?
                }
            })
        })?;
        self.report.count(Verb::Replaced, noun, count);
        Ok(())
    }

    /// A refactoring in command form, computed on the files as the
    /// statements before it left them: its edits join the snapshot.
    fn refactor(
        &mut self,
        refactoring: &crate::refactor::Refactoring,
        place: Option<(String, crate::edit::Position)>,
        at: Span,
    ) -> Result<()> {
        let texts = self.changed_texts();
        let change = self
            .project
            .refactor(refactoring, &texts, place)
            .map_err(Self::fail(at))?;
        let keyword = refactoring.kind().keyword;
        for (path, file) in change.files() {
            let FileOp::Edit(edits) = &file.op else {
                return Err(Failed::new(at, ErrorKind::NotApplicable, format!("{keyword} creates, deletes or moves {path}, which a script does not do yet; run it as its own message")));
            };
            let read_now = self.snapshot.get(path.as_str()).is_none();
            self.doc_text(path.as_str()).map_err(Self::fail(at))?;
            let doc = self.snapshot.get(path.as_str()).expect("read above");
            if read_now && doc.base != file.base {
                return Err(Failed::new(at, ErrorKind::Stale, format!("{path} changed on disk while {keyword} was computed; nothing was written, try again")));
            }
            let indels: Vec<_> = edits.iter().cloned().collect();
            for indel in indels.iter().rev() {
                self.write(path.as_str(), indel.range.clone(), &indel.insert, at);
            }
        }
        self.report.count(Verb::Refactored, keyword, 1);
        Ok(())
    }

    /// A refactoring called with an element and values:
    /// `extract_method($m, "name")` extracts the body of `$m` (its
    /// docstring and a final `return` kept) into a new method that `$m`
    /// then calls;
    /// `rename_class($c, "New")`, `rename_symbol($f, "g")`,
    /// `inline_variable($v)`, `inline_function($f)`.
    fn refactor_called(&mut self, kind: &str, arguments: &[Expr], at: Span) -> Result<()> {
        use crate::refactor::{ExtractKind, InlineKind, Refactoring, RenameKind, SitePolicy};
        let element = match arguments.first().map(|a| &a.kind) {
            Some(ExprKind::Attribute(attribute)) if attribute.path.is_empty() => {
                self.object(attribute)?
            }
            _ => {
                return Err(Failed::new(
                    at,
                    ErrorKind::InvalidArgument,
                    format!("{kind}(…): its first argument is the element ($method, or method), e.g. {kind}($method, \"new_name\")"),
                ))
            }
        };
        let name = match arguments.get(1) {
            Some(expr) => Some(self.expr(expr)?.text()),
            None => None,
        };
        let needs_name = |name: Option<String>| {
            name.ok_or_else(|| {
                Failed::new(
                    at,
                    ErrorKind::InvalidArgument,
                    format!("{kind}(…): the new name is missing, e.g. {kind}($x, \"new_name\")"),
                )
            })
        };
        let span = self.span_now(&element, at)?;
        let parsed = self.parse(&element.path).map_err(Self::fail(at))?;
        let position = from_char(&parsed.text, span.start);
        let refactoring = match kind {
            "Extract_Method" | "ExtractFunction" => {
                let symbol = parsed
                    .outline
                    .symbols
                    .iter()
                    .find(|s| s.definition.start == span.start && s.body.is_some())
                    .ok_or_else(|| {
                        Failed::named(at, ErrorKind::NotApplicable, format!("{kind}(…) extracts the body of a function or method; {} is not one", element.describe()))
                    })?;
                let (first_line, last_line) = body_lines(&parsed, symbol).ok_or_else(|| {
                    Failed::named(at, ErrorKind::NotApplicable, format!("{} has no body to extract beyond its docstring", element.describe()))
                })?;
                Refactoring::Extract {
                    kind: match kind {
                        "Extract_Method" => ExtractKind::Method,
                        _ => ExtractKind::Function,
                    },
                    name: needs_name(name)?,
                    first_line,
                    last_line,
                }
            }
            "RenameSymbol" | "Rename_Class" => Refactoring::Rename {
                kind: match kind {
                    "Rename_Class" => RenameKind::Class,
                    _ => RenameKind::Symbol,
                },
                symbol: self.indexed_name(&element),
                new_name: needs_name(name)?,
                include_text: false,
                sites: SitePolicy::default(),
            },
            "Inline_Variable" | "InlineFunction" => Refactoring::Inline {
                kind: match kind {
                    "Inline_Variable" => InlineKind::Variable,
                    _ => InlineKind::Function,
                },
                name: element.name.clone(),
            },
            _ => {
                return Err(Failed::new(
                    at,
                    ErrorKind::NotApplicable,
                    format!("{kind} is called in its command form only inside a script (e.g. rename_param f old new)"),
                ))
            }
        };
        self.refactor(&refactoring, Some((element.path.clone(), position)), at)
    }
}

/// The zero-based lines of a function's body after its docstring, and
/// before its final `return` when it has statements before that.
fn body_lines(
    parsed: &super::parsed::Parsed,
    symbol: &crate::analysis::outline::Symbol,
) -> Option<(usize, usize)> {
    let node = crate::analysis::outline::symbol_node(&parsed.text, &parsed.tree, symbol)?;
    let body = node.child_by_field_name("body")?;
    let mut cursor = body.walk();
    let statements: Vec<Node<'_>> = body
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect();
    let first = statements
        .iter()
        .find(|n| !crate::analysis::nodes::is_docstring(**n))?;
    // a final `return` stays: the method returns what the extraction gives it
    let last = match statements.as_slice() {
        [.., before, last]
            if last.kind() == "return_statement" && before.start_byte() >= first.start_byte() =>
        {
            before
        }
        [.., last] => last,
        [] => return None,
    };
    let text = &parsed.text;
    let first_line = from_char(text, byte_to_char(text, first.start_byte())).line;
    let last_line = from_char(text, byte_to_char(text, last.end_byte())).line;
    Some((first_line, last_line))
}

/// The arguments of the call `text` is, as written (none when it is not
/// a call).
fn arguments_of_call(text: &str) -> Vec<String> {
    let rope = ropey::Rope::from_str(text);
    let Ok(tree) = crate::analysis::syntax::SyntaxTree::parse(&rope) else {
        return Vec::new();
    };
    let mut node = tree.root();
    while node.kind() != "call" {
        match node.named_child(0) {
            Some(child) => node = child,
            None => return Vec::new(),
        }
    }
    super::query::call_arguments(&rope, node.child_by_field_name("arguments"))
}

/// A definition's whole lines with the blank lines that set it apart:
/// those after it when code follows in its block, else those before it
/// (the last of a file or of a block leaves no blank line behind).
fn with_separator(text: &ropey::Rope, lines: Range<usize>) -> Range<usize> {
    let blank = |line: usize| text.line(line).chars().all(char::is_whitespace);
    let last_line = text.len_lines();
    let mut after = from_char(text, lines.end.min(text.len_chars())).line;
    if lines.end == text.len_chars() {
        after = last_line;
    }
    let mut next = after;
    while next < last_line && blank(next) && text.line(next).len_chars() > 0 {
        next += 1;
    }
    let closes_block = next < last_line && {
        let line = text.line(next).to_string();
        let code = line.trim_start();
        code.starts_with('}') || code.is_empty()
    };
    if next < last_line && !closes_block {
        return lines.start..text.line_to_char(next);
    }
    let mut first = from_char(text, lines.start).line;
    while first > 0 && blank(first - 1) {
        first -= 1;
    }
    text.line_to_char(first)..lines.end
}
