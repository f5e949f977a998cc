//! What a `select` found, read from Python straight from the engine's
//! typed elements, without building a JSON tree, writing its text and
//! reading it back — on a walk of a large project that round trip cost
//! more than the query.
//!
//! [`Found`] keeps the answer in Rust, each element a [`Row`] read like
//! the dict `json.loads` would make of the tool's JSON (the same keys and
//! values, [`keys`] and [`field`], checked by
//! `tests/python/test_speed_paths.py`), each field made a Python value
//! when it is read. A walk of a project reads two or three fields of each
//! of thousands of elements: the others are never made, and a `Row`
//! holds no Python object, so Python's cycle collector never walks it.

use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::{intern, IntoPyObjectExt};

use eddi::script::run::{Detail, Selected, Selections};

/// The value of one key of an element.
enum Field<'py, 'a> {
    Value(Bound<'py, PyAny>),
    /// A class's methods, a file's imports: elements themselves.
    Nested(&'a [Selected]),
}

/// The keys of an element (those of `eddi::engine::ops::json::selected`,
/// in its order).
fn keys(selected: &Selected, texts: bool) -> Vec<&'static str> {
    let mut keys = vec![
        "kind",
        "name",
        "qualified_name",
        "path",
        "line",
        "col",
        "end_line",
        "language",
    ];
    if has_text(selected, texts) {
        keys.push("text");
    }
    keys.extend_from_slice(match &selected.element.detail {
        Detail::File { .. } => &["line_count", "complexity", "imports"][..],
        Detail::Definition { .. } => &[
            "indexed_name",
            "params",
            "decorators",
            "class",
            "bases",
            "complexity",
            "line_count",
            "methods",
        ][..],
        Detail::Call { .. } => &["function", "args"][..],
        Detail::Line { .. } => &["number"][..],
        Detail::Variable { .. } => &[][..],
        Detail::Import { .. } => &["module", "names", "unused", "top_level"][..],
        Detail::Match { .. } => &["captures"][..],
        Detail::Capture { .. } => &["type"][..],
    });
    keys
}

/// Whether an element comes with its text: a definition's, a variable's
/// and a file's only when the query asked for the long texts.
fn has_text(selected: &Selected, texts: bool) -> bool {
    texts
        || !matches!(
            selected.element.detail,
            Detail::File { .. } | Detail::Definition { .. } | Detail::Variable { .. }
        )
}

/// The value of `key` of an element, `None` when it has no such key.
fn field<'py, 'a>(
    py: Python<'py>,
    selected: &'a Selected,
    texts: bool,
    key: &str,
) -> PyResult<Option<Field<'py, 'a>>> {
    let element = &selected.element;
    let value = |v: Bound<'py, PyAny>| Ok(Some(Field::Value(v)));
    match key {
        "kind" => return value(word(py, element.kind.word())),
        "name" => return value(element.name.as_str().into_bound_py_any(py)?),
        "qualified_name" => return value(element.qualified_name.as_str().into_bound_py_any(py)?),
        "path" => return value(element.path.as_str().into_bound_py_any(py)?),
        "line" => return value(element.line.into_bound_py_any(py)?),
        "col" => return value(selected.col.into_bound_py_any(py)?),
        "end_line" => return value(selected.end_line.into_bound_py_any(py)?),
        "language" => {
            let language = eddi::language::language_of(&element.path).map_or("python", |l| l.id());
            return value(word(py, language));
        }
        "text" if has_text(selected, texts) => {
            return value(selected.text.as_str().into_bound_py_any(py)?)
        }
        _ => {}
    }
    match (&element.detail, key) {
        (Detail::File { line_count, .. }, "line_count") => value(line_count.into_bound_py_any(py)?),
        (Detail::File { complexity, .. }, "complexity") => value(complexity.into_bound_py_any(py)?),
        (Detail::File { .. }, "imports") => Ok(Some(Field::Nested(&selected.imports))),
        (Detail::Definition { .. }, "indexed_name") => {
            value(selected.indexed_name.as_str().into_bound_py_any(py)?)
        }
        (Detail::Definition { .. }, "params") => value(strings(py, &selected.params)?),
        (Detail::Definition { decorators, .. }, "decorators") => value(strings(py, decorators)?),
        (Detail::Definition { class, .. }, "class") => {
            value(class.as_deref().into_bound_py_any(py)?)
        }
        (Detail::Definition { bases, .. }, "bases") => value(strings(py, bases)?),
        (Detail::Definition { complexity, .. }, "complexity") => {
            value(complexity.into_bound_py_any(py)?)
        }
        (Detail::Definition { line_count, .. }, "line_count") => {
            value(line_count.into_bound_py_any(py)?)
        }
        (Detail::Definition { .. }, "methods") => Ok(Some(Field::Nested(&selected.methods))),
        (Detail::Call { function, .. }, "function") => {
            value(function.as_str().into_bound_py_any(py)?)
        }
        (Detail::Call { arguments, .. }, "args") => value(strings(py, arguments)?),
        (Detail::Line { number }, "number") => value(number.into_bound_py_any(py)?),
        (Detail::Import { module, .. }, "module") => value(module.as_str().into_bound_py_any(py)?),
        (Detail::Import { names, .. }, "names") => value(strings(py, names)?),
        (Detail::Import { unused, .. }, "unused") => value(unused.into_bound_py_any(py)?),
        (Detail::Import { top_level, .. }, "top_level") => value(top_level.into_bound_py_any(py)?),
        (Detail::Match { captures, .. }, "captures") => {
            let all = PyDict::new(py);
            for capture in captures {
                let one = PyDict::new(py);
                one.set_item(intern!(py, "text"), &capture.text)?;
                one.set_item(intern!(py, "line"), capture.line)?;
                all.set_item(&capture.name, one)?;
            }
            value(all.into_any())
        }
        (Detail::Capture { type_word }, "type") => value(word(py, type_word)),
        _ => Ok(None),
    }
}

/// A word from a small set (a kind, a language): one Python string each,
/// made once.
fn word<'py>(py: Python<'py>, word: &str) -> Bound<'py, PyAny> {
    PyString::intern(py, word).into_any()
}

fn strings<'py>(py: Python<'py>, all: &[String]) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyList::new(py, all)?.into_any())
}

/// A `select`'s answer kept in Rust (`LocalEngine.select_found`): its
/// elements as [`Row`]s (`rows()`), or each query's (`answer(i)`).
#[pyclass(frozen, module = "eddi._eddi")]
pub struct Found {
    reply: String,
    selections: Arc<Selections>,
    texts: bool,
}

impl Found {
    pub fn new(reply: String, selections: Arc<Selections>, texts: bool) -> Found {
        Found {
            reply,
            selections,
            texts,
        }
    }

    fn rows_of<'py>(
        &self,
        py: Python<'py>,
        answer: Option<usize>,
        count: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        let rows = (0..count).map(|index| Row {
            selections: self.selections.clone(),
            texts: self.texts,
            answer,
            index,
            nested: Vec::new(),
        });
        PyList::new(py, rows)
    }
}

#[pymethods]
impl Found {
    /// The terse line (`Ok: Selected 3 functions`).
    #[getter]
    fn reply(&self) -> &str {
        &self.reply
    }

    /// How many elements (one query) or answers (many).
    fn __len__(&self) -> usize {
        match &*self.selections {
            Selections::Elements(all) => all.len(),
            Selections::Answers(all) => all.len(),
        }
    }

    /// One query's elements, each a `Row`.
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match &*self.selections {
            Selections::Elements(all) => self.rows_of(py, None, all.len()),
            Selections::Answers(_) => Err(PyValueError::new_err(
                "rows(): this select asked many queries; read each with answer(i)",
            )),
        }
    }

    /// The indexed names of the functions, methods and classes among one
    /// query's elements, each class's methods after it, of Python code
    /// (`python`) or of the brace languages' (not): the names one index
    /// answers `caller of` for.
    fn definitions(&self, python: bool) -> Vec<&str> {
        fn add<'a>(all: &'a [Selected], python: bool, names: &mut Vec<&'a str>) {
            for selected in all {
                let is_python = eddi::language::language_of(&selected.element.path)
                    .is_none_or(|l| l.id() == "python");
                if is_python == python
                    && matches!(selected.element.detail, Detail::Definition { .. })
                {
                    names.push(&selected.indexed_name);
                    add(&selected.methods, python, names);
                }
            }
        }
        let mut names = Vec::new();
        if let Selections::Elements(all) = &*self.selections {
            add(all, python, &mut names);
        }
        names
    }

    /// The answer of query `i` of many: its elements (a list of `Row`s),
    /// or its failure as `(code, message, candidates)`.
    fn answer<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        let Selections::Answers(all) = &*self.selections else {
            return Err(PyValueError::new_err(
                "answer(i): this select asked one query; read its rows()",
            ));
        };
        match all.get(i) {
            Some(Ok(found)) => Ok(self.rows_of(py, Some(i), found.len())?.into_any()),
            Some(Err(error)) => Ok(PyTuple::new(
                py,
                [
                    error.kind.code().into_bound_py_any(py)?,
                    error.message.as_str().into_bound_py_any(py)?,
                    PyList::new(py, &error.candidates)?.into_any(),
                ],
            )?
            .into_any()),
            None => Err(PyIndexError::new_err(format!(
                "answer({i}): {} queries were asked",
                all.len()
            ))),
        }
    }
}

/// Where a nested element is: a class's method, a file's import.
#[derive(Clone, Copy)]
enum Nested {
    Method(usize),
    Import(usize),
}

/// One element of a [`Found`], read like the dict of its fields
/// (`row["complexity"]`, `row.get("text")`, `row.keys()`): each field
/// made a Python value when it is read.
#[pyclass(frozen, module = "eddi._eddi")]
pub struct Row {
    selections: Arc<Selections>,
    texts: bool,
    /// The answer it is of, when many queries were asked.
    answer: Option<usize>,
    index: usize,
    /// The way down from that element to this one (empty: itself).
    nested: Vec<Nested>,
}

impl Row {
    fn selected(&self) -> PyResult<&Selected> {
        let list = match (&*self.selections, self.answer) {
            (Selections::Elements(all), None) => Some(&all[..]),
            (Selections::Answers(all), Some(i)) => all.get(i).and_then(|a| a.as_deref().ok()),
            _ => None,
        };
        let top = list.and_then(|all| all.get(self.index));
        let found = self.nested.iter().fold(top, |at, step| match *step {
            Nested::Method(k) => at.and_then(|s| s.methods.get(k)),
            Nested::Import(k) => at.and_then(|s| s.imports.get(k)),
        });
        found.ok_or_else(|| PyIndexError::new_err("no such element"))
    }

    fn value<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        let selected = self.selected()?;
        Ok(match field(py, selected, self.texts, key)? {
            Some(Field::Value(value)) => Some(value),
            Some(Field::Nested(all)) => {
                let methods = key == "methods";
                let rows = (0..all.len()).map(|k| {
                    let mut nested = self.nested.clone();
                    nested.push(if methods {
                        Nested::Method(k)
                    } else {
                        Nested::Import(k)
                    });
                    Row {
                        selections: self.selections.clone(),
                        texts: self.texts,
                        answer: self.answer,
                        index: self.index,
                        nested,
                    }
                });
                Some(PyList::new(py, rows)?.into_any())
            }
            None => None,
        })
    }
}

#[pymethods]
impl Row {
    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.value(py, key)?
            .ok_or_else(|| PyKeyError::new_err(key.to_owned()))
    }

    #[pyo3(signature = (key, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self.value(py, key)? {
            Some(value) => value,
            None => default.unwrap_or_else(|| py.None().into_bound(py)),
        })
    }

    fn __contains__(&self, key: &str) -> PyResult<bool> {
        Ok(keys(self.selected()?, self.texts).contains(&key))
    }

    /// Its keys: those of its dict in the `select` tool's JSON.
    fn keys(&self) -> PyResult<Vec<&'static str>> {
        Ok(keys(self.selected()?, self.texts))
    }
}
