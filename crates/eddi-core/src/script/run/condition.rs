//! Conditions (`where`, `if`) and expressions (`flag "x: " + function.name`).
//!
//! Measures (`complexity`, `line_count`, `params.count`, decorators) are
//! the element's as it was found; `contains` and `imports` read its text
//! now (the snapshot), so they see what earlier statements did.

use crate::failure::ErrorKind;

use super::super::ast::*;
use super::element::{Detail, Element};
use super::{Failed, Interpreter, Result};

/// An attribute's value: a number compares as a number.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(String),
    Number(usize),
}

impl Value {
    pub fn text(&self) -> String {
        match self {
            Value::Text(text) => text.clone(),
            Value::Number(n) => n.to_string(),
        }
    }

    fn number(&self) -> Option<usize> {
        match self {
            Value::Number(n) => Some(*n),
            Value::Text(text) => text.trim().parse().ok(),
        }
    }
}

/// Whether `text` has `word` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

fn compare<T: PartialOrd>(op: CompareOp, a: T, b: T) -> bool {
    match op {
        CompareOp::Eq => a == b,
        CompareOp::Ne => a != b,
        CompareOp::Gt => a > b,
        CompareOp::Ge => a >= b,
        CompareOp::Lt => a < b,
        CompareOp::Le => a <= b,
    }
}

impl Interpreter<'_> {
    pub(super) fn condition(&mut self, condition: &Condition, element: &Element) -> Result<bool> {
        let at = condition.span;
        let wrong = |what: &str| {
            Err(Failed::named(
                at,
                ErrorKind::NotApplicable,
                format!("{what} does not apply to {}", element.describe()),
            ))
        };
        Ok(match &condition.kind {
            ConditionKind::And(a, b) => {
                self.condition(a, element)? && self.condition(b, element)?
            }
            ConditionKind::Or(a, b) => self.condition(a, element)? || self.condition(b, element)?,
            ConditionKind::Not(a) => !self.condition(a, element)?,
            ConditionKind::Measure { metric, op, value } => {
                let measured = match (metric, &element.detail) {
                    (Metric::Complexity, Detail::Definition { complexity, .. })
                    | (Metric::Complexity, Detail::File { complexity, .. }) => *complexity as usize,
                    (Metric::LineCount, Detail::Definition { line_count, .. })
                    | (Metric::LineCount, Detail::File { line_count, .. }) => *line_count,
                    (Metric::ParamsCount, Detail::Definition { params, .. }) => params.len(),
                    (Metric::ParamsCount, Detail::Call { arguments, .. }) => arguments.len(),
                    _ => return wrong(metric.word()),
                };
                compare(*op, measured, *value)
            }
            ConditionKind::HasAnnotation(name) => match &element.detail {
                Detail::Definition { decorators, .. } => decorators.iter().any(|d| {
                    let bare = d.trim_start_matches('@');
                    let bare = bare.split('(').next().unwrap_or(bare).trim();
                    bare == name.text || bare.ends_with(&format!(".{}", name.text))
                }),
                _ => return wrong("has_annotation"),
            },
            ConditionKind::Imports(module) => {
                self.python_code(&element.path, "imports")
                    .map_err(Self::fail(at))?;
                let parsed = self.parse(&element.path).map_err(|error| Failed {
                    at,
                    error,
                    stop: false,
                    named: false,
                })?;
                parsed.imports_module(&module.text)
            }
            ConditionKind::Contains(expr) => {
                let needle = self.expr(expr)?.text();
                self.text_now(element, at)?.contains(&needle)
            }
            ConditionKind::Unused => match &element.detail {
                Detail::Import {
                    unused,
                    bound,
                    top_level,
                    ..
                } => *unused && !(*top_level && self.imported_elsewhere(&element.path, bound)),
                Detail::Definition { .. } | Detail::Variable { .. } => {
                    self.python_code(&element.path, "unused")
                        .map_err(Self::fail(at))?;
                    let name = self.indexed_name(element);
                    !self.project.is_used(&name).map_err(|error| Failed {
                        at,
                        error,
                        stop: false,
                        named: false,
                    })?
                }
                _ => return wrong("unused"),
            },
            ConditionKind::Test { attribute, test } => {
                let value = self.attribute(attribute)?;
                match test {
                    Test::Contains(expr) => value.text().contains(&self.expr(expr)?.text()),
                    Test::Is { negated, word } => (value.text() == *word) != *negated,
                    Test::Compare(op, expr) => {
                        let other = self.expr(expr)?;
                        match (value.number(), other.number()) {
                            (Some(a), Some(b)) => compare(*op, a, b),
                            _ => compare(*op, value.text(), other.text()),
                        }
                    }
                }
            }
        })
    }

    /// Whether a module that imports `path`'s module names `name`: the
    /// import is a re-export another file uses (`from m import name`,
    /// `m.name`), not unused.
    fn imported_elsewhere(&mut self, path: &str, name: &str) -> bool {
        let importers = match self.importers.get(path) {
            Some(found) => found.clone(),
            None => {
                let found = self.project.importers_of(path);
                self.importers.insert(path.to_owned(), found.clone());
                found
            }
        };
        importers.iter().any(|importer| {
            // a file it cannot read counts as a use: never guess unused
            self.doc_text(importer)
                .map_or(true, |text| has_word(&text.to_string(), name))
        })
    }

    /// The element's text now.
    pub(super) fn text_now(&mut self, element: &Element, at: Span) -> Result<String> {
        let span = self.span_now(element, at)?;
        let text = self.doc_text(&element.path).map_err(|error| Failed {
            at,
            error,
            stop: false,
            named: false,
        })?;
        let end = span.end.min(text.len_chars());
        Ok(text.slice(span.start.min(end)..end).to_string())
    }

    pub(super) fn expr(&mut self, expr: &Expr) -> Result<Value> {
        Ok(match &expr.kind {
            ExprKind::Str(text) => Value::Text(text.clone()),
            ExprKind::Number(n) => Value::Number(*n),
            ExprKind::Name(name) => Value::Text(name.clone()),
            ExprKind::Attribute(attribute) => self.attribute(attribute)?,
            ExprKind::Concat(parts) => {
                let mut joined = String::new();
                for part in parts {
                    joined.push_str(&self.expr(part)?.text());
                }
                Value::Text(joined)
            }
        })
    }

    /// The element an attribute asks about.
    pub(super) fn object(&mut self, attribute: &Attribute) -> Result<Element> {
        let at = attribute.span;
        match &attribute.object {
            Object::Var(var) => {
                let elements = self.variable(var)?;
                match elements.as_slice() {
                    [one] => Ok(one.clone()),
                    [] => Err(Failed::new(at, ErrorKind::NotFound, format!("{var} holds no element"))),
                    many => Err(Failed::new(
                        at,
                        ErrorKind::Ambiguous,
                        format!("{var} holds {} elements; expected one (foreach $x in {var} {{ … $x.name … }})", many.len()),
                    )),
                }
            }
            Object::Element(ElementKind::File) => {
                let element = self.here(at)?;
                if element.kind == ElementKind::File {
                    return Ok(element);
                }
                let parsed = self.parse(&element.path).map_err(|error| Failed {
                    at,
                    error,
                    stop: false,
                    named: false,
                })?;
                Ok(Element {
                    kind: ElementKind::File,
                    path: element.path.clone(),
                    span: 0..parsed.text.len_chars(),
                    version: self.version(&element.path),
                    line: 1,
                    name: element
                        .path
                        .rsplit('/')
                        .next()
                        .unwrap_or(&element.path)
                        .to_owned(),
                    qualified_name: element.path.clone(),
                    detail: Detail::File {
                        line_count: crate::analysis::lines::count(&parsed.text),
                        complexity: parsed.file_complexity(),
                    },
                })
            }
            Object::Element(kind) => {
                let found = self
                    .current
                    .iter()
                    .rev()
                    .find(|e| {
                        e.kind == *kind
                            || (*kind == ElementKind::Function && e.kind == ElementKind::Method)
                    })
                    .cloned();
                match found {
                    Some(element) => Ok(element),
                    None => self.here(at),
                }
            }
        }
    }

    pub(super) fn attribute(&mut self, attribute: &Attribute) -> Result<Value> {
        let element = self.object(attribute)?;
        let at = attribute.span;
        let asked = attribute.path.join(".");
        let text = |s: &str| Value::Text(s.to_owned());
        let value = match (asked.as_str(), &element.detail) {
            ("", Detail::Capture { .. }) | ("", Detail::Match { .. }) => {
                Value::Text(self.text_now(&element, at)?)
            }
            ("type", Detail::Capture { type_word }) => text(type_word),
            ("", _) => text(&element.name),
            ("name", Detail::File { .. }) => text(&element.name),
            ("path", _) | ("file", _) => text(&element.path),
            ("name", _) => text(&element.name),
            ("qualified_name", _) => text(&element.qualified_name),
            ("location", _) => text(&element.location()),
            ("line", _) | ("number", _) => Value::Number(element.line),
            ("text", _) => Value::Text(self.text_now(&element, at)?),
            ("line_count", Detail::Definition { line_count, .. })
            | ("line_count", Detail::File { line_count, .. }) => Value::Number(*line_count),
            ("complexity", Detail::Definition { complexity, .. })
            | ("complexity", Detail::File { complexity, .. }) => {
                Value::Number(*complexity as usize)
            }
            ("params", Detail::Definition { params, .. }) => text(&params.join(", ")),
            ("params.count", Detail::Definition { params, .. }) => Value::Number(params.len()),
            ("decorators", Detail::Definition { decorators, .. }) => text(&decorators.join(" ")),
            ("class", Detail::Definition { class, .. }) => text(class.as_deref().unwrap_or("")),
            ("bases", Detail::Definition { bases, .. }) => text(&bases.join(", ")),
            ("function", Detail::Call { function, .. }) => text(function),
            ("args", Detail::Call { arguments, .. }) => text(&arguments.join(", ")),
            ("args.count", Detail::Call { arguments, .. }) => Value::Number(arguments.len()),
            ("module", Detail::Import { module, .. }) => text(module),
            ("names", Detail::Import { names, .. }) => text(&names.join(", ")),
            ("kind", _) => text(element.kind.word()),
            _ => {
                return Err(Failed::named(
                    at,
                    ErrorKind::NotApplicable,
                    format!("{} has no attribute '{asked}'", element.describe()),
                ))
            }
        };
        Ok(value)
    }
}
