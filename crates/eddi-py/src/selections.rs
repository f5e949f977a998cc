//! What a `select` found, made Python objects straight from the engine's
//! typed elements: the dicts the `select` tool's JSON would give once
//! `json.loads` read it (the same keys and values, checked by
//! `tests/python/test_speed_paths.py`), without building a JSON tree,
//! writing its text and reading it back — on a walk of a large project
//! that round trip cost more than the query.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::{intern, IntoPyObjectExt};

use eddi::script::run::{Answer, Detail, Selected, Selections};

/// `{"reply": …, "elements": [...]}` or `{"reply": …, "answers": [...]}`.
pub fn result<'py>(
    py: Python<'py>,
    reply: &str,
    found: &Selections,
    texts: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let result = PyDict::new(py);
    result.set_item(intern!(py, "reply"), reply)?;
    match found {
        Selections::Elements(all) => {
            result.set_item(intern!(py, "elements"), elements(py, all, texts)?)?
        }
        Selections::Answers(all) => {
            let answers = all
                .iter()
                .map(|a| answer(py, a, texts))
                .collect::<PyResult<Vec<_>>>()?;
            result.set_item(intern!(py, "answers"), PyList::new(py, answers)?)?
        }
    }
    Ok(result)
}

fn elements<'py>(py: Python<'py>, all: &[Selected], texts: bool) -> PyResult<Bound<'py, PyList>> {
    let each = all
        .iter()
        .map(|s| selected(py, s, texts))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, each)
}

/// `{"elements": [...]}` or `{"failure": {code, message, candidates}}`.
fn answer<'py>(py: Python<'py>, answer: &Answer, texts: bool) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    match answer {
        Ok(found) => dict.set_item(intern!(py, "elements"), elements(py, found, texts)?)?,
        Err(error) => {
            let failure = PyDict::new(py);
            failure.set_item(intern!(py, "code"), error.kind.code())?;
            failure.set_item(intern!(py, "message"), &error.message)?;
            failure.set_item(intern!(py, "candidates"), &error.candidates)?;
            dict.set_item(intern!(py, "failure"), failure)?;
        }
    }
    Ok(dict)
}

/// One element: the fields of `eddi::engine::ops::json::selected`.
fn selected<'py>(
    py: Python<'py>,
    selected: &Selected,
    texts: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let element = &selected.element;
    let dict = PyDict::new(py);
    let set = |key: &Bound<'py, pyo3::types::PyString>, value: Bound<'py, PyAny>| {
        dict.set_item(key, value)
    };
    set(intern!(py, "kind"), word(py, element.kind.word()))?;
    set(
        intern!(py, "name"),
        element.name.as_str().into_bound_py_any(py)?,
    )?;
    set(
        intern!(py, "qualified_name"),
        element.qualified_name.as_str().into_bound_py_any(py)?,
    )?;
    set(
        intern!(py, "path"),
        element.path.as_str().into_bound_py_any(py)?,
    )?;
    set(intern!(py, "line"), element.line.into_bound_py_any(py)?)?;
    set(intern!(py, "col"), selected.col.into_bound_py_any(py)?)?;
    set(
        intern!(py, "end_line"),
        selected.end_line.into_bound_py_any(py)?,
    )?;
    let language = eddi::language::language_of(&element.path).map_or("python", |l| l.id());
    set(intern!(py, "language"), word(py, language))?;
    let long = matches!(
        element.detail,
        Detail::File { .. } | Detail::Definition { .. } | Detail::Variable { .. }
    );
    if texts || !long {
        set(
            intern!(py, "text"),
            selected.text.as_str().into_bound_py_any(py)?,
        )?;
    }
    match &element.detail {
        Detail::File {
            line_count,
            complexity,
        } => {
            set(intern!(py, "line_count"), line_count.into_bound_py_any(py)?)?;
            set(intern!(py, "complexity"), complexity.into_bound_py_any(py)?)?;
            set(
                intern!(py, "imports"),
                elements(py, &selected.imports, texts)?.into_any(),
            )?;
        }
        Detail::Definition {
            decorators,
            class,
            bases,
            complexity,
            line_count,
            ..
        } => {
            set(
                intern!(py, "indexed_name"),
                selected.indexed_name.as_str().into_bound_py_any(py)?,
            )?;
            set(intern!(py, "params"), strings(py, &selected.params)?)?;
            set(intern!(py, "decorators"), strings(py, decorators)?)?;
            set(
                intern!(py, "class"),
                class.as_deref().into_bound_py_any(py)?,
            )?;
            set(intern!(py, "bases"), strings(py, bases)?)?;
            set(intern!(py, "complexity"), complexity.into_bound_py_any(py)?)?;
            set(intern!(py, "line_count"), line_count.into_bound_py_any(py)?)?;
            set(
                intern!(py, "methods"),
                elements(py, &selected.methods, texts)?.into_any(),
            )?;
        }
        Detail::Call {
            function,
            arguments,
        } => {
            set(
                intern!(py, "function"),
                function.as_str().into_bound_py_any(py)?,
            )?;
            set(intern!(py, "args"), strings(py, arguments)?)?;
        }
        Detail::Line { number } => set(intern!(py, "number"), number.into_bound_py_any(py)?)?,
        Detail::Variable { .. } => {}
        Detail::Import {
            module,
            names,
            unused,
            top_level,
            ..
        } => {
            set(
                intern!(py, "module"),
                module.as_str().into_bound_py_any(py)?,
            )?;
            set(intern!(py, "names"), strings(py, names)?)?;
            set(intern!(py, "unused"), unused.into_bound_py_any(py)?)?;
            set(intern!(py, "top_level"), top_level.into_bound_py_any(py)?)?;
        }
        Detail::Match { captures, .. } => {
            let all = PyDict::new(py);
            for capture in captures {
                let one = PyDict::new(py);
                one.set_item(intern!(py, "text"), &capture.text)?;
                one.set_item(intern!(py, "line"), capture.line)?;
                all.set_item(&capture.name, one)?;
            }
            set(intern!(py, "captures"), all.into_any())?;
        }
        Detail::Capture { type_word } => set(intern!(py, "type"), word(py, type_word))?,
    }
    Ok(dict)
}

/// A word from a small set (a kind, a language): one Python string each,
/// made once.
fn word<'py>(py: Python<'py>, word: &str) -> Bound<'py, PyAny> {
    pyo3::types::PyString::intern(py, word).into_any()
}

fn strings<'py>(py: Python<'py>, all: &[String]) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyList::new(py, all)?.into_any())
}
