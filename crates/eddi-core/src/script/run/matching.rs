//! Code patterns in scripts: ``foreach match `pow($a, $b)` …`` (each place
//! the pattern matches, its metavariables bound as `$a`, `$b`), ``replace
//! with `$a ** $b` `` on a match, and ``replace `pat` with `tmpl` ``
//! inside any element. The matching is `analysis::pattern`'s.
//!
//! Matches come inner first (a match inside another before it): a
//! replacement of the outer one then sees the inner one's result, since
//! each replacement matches its element again on the text as it is now.

use std::ops::Range;
use std::rc::Rc;

use crate::analysis::pattern::{self, Capture, CodePattern};
use crate::analysis::syntax::{byte_to_char, char_to_byte};
use crate::edit::position::from_char;
use crate::failure::{ErrorKind, OpError};

use super::super::ast::{Code, ElementKind, Span};
use super::element::{Captured, Detail, Element};
use super::parsed::Parsed;
use super::{Failed, Interpreter, Result};

/// A pattern the parser accepted already.
pub(super) fn compiled(code: &Code) -> Result<CodePattern> {
    CodePattern::parse(&code.text)
        .map_err(|e| Failed::new(code.span, ErrorKind::InvalidArgument, e.to_string()))
}

/// `work` on the file as the matcher reads it (its text as one string,
/// its tree, scopes and imports).
fn with_code<T>(parsed: &Parsed, work: impl FnOnce(&pattern::Code<'_>) -> T) -> T {
    let source = parsed.text.to_string();
    work(&pattern::Code {
        text: &parsed.text,
        source: &source,
        tree: &parsed.tree,
        scopes: parsed.scopes(),
        imports: parsed.imports(),
    })
}

/// The matches of `pattern` in a parsed file, within `bytes`.
fn find_in(parsed: &Parsed, pattern: &CodePattern, bytes: Range<usize>) -> Vec<pattern::Match> {
    with_code(parsed, |code| pattern.find(code, bytes))
}

fn at_in(parsed: &Parsed, pattern: &CodePattern, bytes: Range<usize>) -> Option<pattern::Match> {
    with_code(parsed, |code| pattern.at(code, bytes))
}

/// The replacement of the code at `bytes`, parenthesized where its place
/// binds tighter than it does.
fn placed_in(parsed: &Parsed, bytes: Range<usize>, replacement: &str) -> String {
    with_code(parsed, |code| pattern::placed(code, bytes, replacement))
}

fn chars(parsed: &Parsed, bytes: &Range<usize>) -> Range<usize> {
    byte_to_char(&parsed.text, bytes.start)..byte_to_char(&parsed.text, bytes.end)
}

impl Interpreter<'_> {
    /// `match `…``: every place the pattern matches where the query looks,
    /// inner matches before the ones that hold them.
    pub(super) fn matches(&mut self, code: &Code) -> Result<Vec<Element>> {
        let pattern = compiled(code)?;
        let fail = |error: OpError| Failed {
            at: code.span,
            error,
            stop: false,
            named: false,
        };
        let (files, within) = self.scoped_files().map_err(fail)?;
        let project_wide = self.current.is_empty();
        let files = self
            .python_files(files, project_wide, "a code pattern")
            .map_err(fail)?;
        self.parse_all(&files).map_err(fail)?;
        let mut found = Vec::new();
        for path in files {
            let parsed = self.parse(&path).map_err(fail)?;
            let version = self.version(&path);
            let bytes = match &within {
                Some(span) => {
                    char_to_byte(&parsed.text, span.start)..char_to_byte(&parsed.text, span.end)
                }
                None => 0..parsed.text.len_bytes(),
            };
            for found_here in find_in(&parsed, &pattern, bytes) {
                let span = chars(&parsed, &found_here.bytes);
                let text = parsed.text.slice(span.clone()).to_string();
                let captures = found_here
                    .captures
                    .iter()
                    .map(|c| {
                        let span = chars(&parsed, &c.bytes);
                        Captured {
                            name: c.name.clone(),
                            line: from_char(&parsed.text, span.start).line + 1,
                            span,
                            kind: c.kind,
                            text: c.text.clone(),
                        }
                    })
                    .collect();
                found.push(Element {
                    kind: ElementKind::Match,
                    path: path.clone(),
                    line: from_char(&parsed.text, span.start).line + 1,
                    span,
                    version,
                    name: shortened(&text),
                    qualified_name: text,
                    detail: Detail::Match {
                        pattern: code.text.clone(),
                        captures,
                    },
                });
            }
        }
        Ok(found)
    }

    /// The variables a match binds: each metavariable as a capture element.
    pub(super) fn capture_scope(element: &Element) -> Vec<(String, Rc<Vec<Element>>)> {
        let Detail::Match { captures, .. } = &element.detail else {
            return Vec::new();
        };
        captures
            .iter()
            .map(|captured| {
                let capture = Element {
                    kind: ElementKind::Capture,
                    path: element.path.clone(),
                    span: captured.span.clone(),
                    version: element.version,
                    line: captured.line,
                    name: captured.text.clone(),
                    qualified_name: captured.text.clone(),
                    detail: Detail::Capture {
                        type_word: pattern::type_of(captured.kind),
                    },
                };
                (captured.name.clone(), Rc::new(vec![capture]))
            })
            .collect()
    }

    /// The match's captures on its text as it is now (an earlier
    /// statement may have changed inside it).
    pub(super) fn captures_now(&mut self, element: &Element, at: Span) -> Result<Vec<Capture>> {
        let Detail::Match {
            pattern: written, ..
        } = &element.detail
        else {
            return Ok(Vec::new());
        };
        let pattern = CodePattern::parse(written)
            .map_err(|e| Failed::new(at, ErrorKind::Internal, e.to_string()))?;
        let span = self.span_now(element, at)?;
        let parsed = self.parse(&element.path).map_err(Self::fail(at))?;
        let bytes = char_to_byte(&parsed.text, span.start)..char_to_byte(&parsed.text, span.end);
        match at_in(&parsed, &pattern, bytes) {
            Some(found) => Ok(found.captures),
            None => Err(Failed::named(
                at,
                ErrorKind::Conflict,
                format!(
                    "{} no longer matches `{written}`: an earlier statement changed it",
                    element.describe()
                ),
            )),
        }
    }

    /// `replace with `…`` on a match: the template with its captures.
    pub(super) fn replace_match(
        &mut self,
        element: &Element,
        template: &Code,
        at: Span,
    ) -> Result<()> {
        let captures = match element.kind {
            ElementKind::Match => self.captures_now(element, at)?,
            _ => self.enclosing_captures(at)?,
        };
        let new = pattern::render(&template.text, &captures)
            .map_err(|e| Failed::new(template.span, ErrorKind::InvalidArgument, e.to_string()))?;
        let span = self.span_now(element, at)?;
        let parsed = self.parse(&element.path).map_err(Self::fail(at))?;
        let bytes = char_to_byte(&parsed.text, span.start)..char_to_byte(&parsed.text, span.end);
        let new = placed_in(&parsed, bytes, &new);
        self.write(&element.path, span, &new, at);
        self.report
            .count(super::report::Verb::Replaced, &Self::noun(element), 1);
        Ok(())
    }

    /// The captures of the innermost enclosing `foreach match`.
    pub(super) fn enclosing_captures(&mut self, at: Span) -> Result<Vec<Capture>> {
        let enclosing = self
            .current
            .iter()
            .rev()
            .find(|e| e.kind == ElementKind::Match)
            .cloned();
        match enclosing {
            Some(element) => self.captures_now(&element, at),
            None => Ok(Vec::new()),
        }
    }

    /// ``replace `pattern` with …`` inside an element: every outermost
    /// match, replaced by what `new` makes of its captures and node.
    pub(super) fn replace_matches(
        &mut self,
        element: &Element,
        pattern: &CodePattern,
        at: Span,
        mut new: impl FnMut(&mut Self, &pattern::Match, &str) -> Result<String>,
    ) -> Result<usize> {
        let span = self.span_now(element, at)?;
        let parsed = self.parse(&element.path).map_err(Self::fail(at))?;
        let bytes = char_to_byte(&parsed.text, span.start)..char_to_byte(&parsed.text, span.end);
        let mut kept: Vec<pattern::Match> = Vec::new();
        for found in find_in(&parsed, pattern, bytes) {
            // an outer match holds the inner ones: keep the outermost
            if kept.last().is_some_and(|k| found.bytes.start < k.bytes.end) {
                continue;
            }
            kept.push(found);
        }
        let source = parsed.text.to_string();
        let mut count = 0;
        for found in kept.iter().rev() {
            let replacement = new(self, found, &source[found.bytes.clone()])?;
            let replacement = placed_in(&parsed, found.bytes.clone(), &replacement);
            self.write(
                &element.path,
                chars(&parsed, &found.bytes),
                &replacement,
                at,
            );
            count += 1;
        }
        Ok(count)
    }
}

/// A match as messages name it: its first line, at most 60 chars.
fn shortened(text: &str) -> String {
    let first = text.lines().next().unwrap_or_default();
    match first.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &first[..cut]),
        None if first.len() < text.len() => format!("{first}…"),
        None => first.to_owned(),
    }
}
