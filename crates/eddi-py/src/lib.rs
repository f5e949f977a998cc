//! `eddi._eddi`: the native half of the Python package `eddi`.
//!
//! It carries one request, the agent tools' `tools.call` (`{sender, tool,
//! params}` in, the envelope `{ok, result | error}` out, JSON text both
//! ways), over one of two backends:
//!
//! - [`LocalEngine`]: the engine in this process. It holds the
//!   workspace's state directory as `eddi run` does (a second Eddi on it
//!   is refused, naming the one running) and runs each call through
//!   `eddi::tools::call_once`, hence through the engine's one door.
//! - [`NatsEngine`]: a running `eddi serve`, asked on its
//!   `<prefix>.<name>.tools.call` subject.
//!
//! The Python layer (`python/eddi`) builds every request, so both backends
//! send the same ones. `LocalEngine.select_found` answers a query with
//! the engine's typed elements kept in Rust (`selections`), read from
//! Python like the dicts the JSON of `select` would give, without JSON
//! between. The GIL is released while the engine or the network
//! works.

mod selections;
mod tree_heap;

use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

use eddi::engine::{Engine, EngineConfig, EngineError};
use eddi::session::store::StoreError;
use eddi::transport::server::Subjects;

create_exception!(
    _eddi,
    OpenError,
    PyException,
    "The workspace could not be opened."
);
create_exception!(
    _eddi,
    BusyError,
    OpenError,
    "Another Eddi holds the workspace's state directory."
);
create_exception!(
    _eddi,
    TransportError,
    PyException,
    "No answer from a running Eddi."
);

/// The engine in-process: `LocalEngine(root, state_dir=None)`.
#[pyclass(frozen, module = "eddi._eddi")]
struct LocalEngine {
    engine: Engine,
}

#[pymethods]
impl LocalEngine {
    #[new]
    #[pyo3(signature = (root, state_dir=None))]
    fn new(
        py: Python<'_>,
        root: std::path::PathBuf,
        state_dir: Option<std::path::PathBuf>,
    ) -> PyResult<Self> {
        let mut config = EngineConfig::new(root);
        config.state_dir = state_dir;
        let engine = py
            .allow_threads(|| Engine::open(config))
            .map_err(|e| match e {
                EngineError::Store(StoreError::Locked(_)) => BusyError::new_err(e.to_string()),
                _ => OpenError::new_err(e.to_string()),
            })?;
        Ok(LocalEngine { engine })
    }

    /// Runs one tool call; returns the envelope as JSON text.
    fn call(&self, py: Python<'_>, sender: &str, tool: &str, params: &str) -> PyResult<String> {
        let params = params_of(params)?;
        Ok(py.allow_threads(|| {
            eddi::tools::call_once(&self.engine, sender, tool, params, None).json
        }))
    }

    /// The `select` tool, its result kept here: a `Found` whose elements
    /// are made Python values field by field as they are read
    /// (`selections::Row`), or, when it fails, the tool's envelope as
    /// JSON text.
    fn select_found<'py>(
        &self,
        py: Python<'py>,
        sender: &str,
        params: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let params = params_of(params)?;
        let found = py.allow_threads(|| eddi::tools::select_found(&self.engine, sender, params));
        match found {
            Ok(found) => Ok(Bound::new(
                py,
                selections::Found::new(found.reply, found.selections, found.texts),
            )?
            .into_any()),
            Err(error) => {
                let envelope = eddi::tools::envelope_text(&Err(error));
                Ok(pyo3::types::PyString::new(py, &envelope).into_any())
            }
        }
    }
}

fn params_of(params: &str) -> PyResult<serde_json::Value> {
    serde_json::from_str(params)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("params: {e}")))
}

/// A running `eddi serve`: `NatsEngine(url, prefix, name, timeout)`.
#[pyclass(frozen, module = "eddi._eddi")]
struct NatsEngine {
    runtime: tokio::runtime::Runtime,
    client: async_nats::Client,
    subject: String,
    timeout: Duration,
}

#[pymethods]
impl NatsEngine {
    #[new]
    #[pyo3(signature = (url, prefix="mizuki", name="eddi", timeout=30.0))]
    fn new(py: Python<'_>, url: &str, prefix: &str, name: &str, timeout: f64) -> PyResult<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| TransportError::new_err(e.to_string()))?;
        let client = py
            .allow_threads(|| {
                runtime.block_on(
                    async_nats::ConnectOptions::new()
                        .connection_timeout(Duration::from_secs(5))
                        .connect(url),
                )
            })
            .map_err(|e| {
                TransportError::new_err(format!(
                    "cannot connect to {}: {e}",
                    eddi::transport::report::redact_url(url)
                ))
            })?;
        if !(timeout.is_finite() && timeout > 0.0) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "timeout: {timeout} seconds; give a positive number"
            )));
        }
        Ok(NatsEngine {
            runtime,
            client,
            subject: Subjects::new(prefix, name).tools_call(),
            timeout: Duration::from_secs_f64(timeout),
        })
    }

    /// Sends one tool call; returns the envelope as JSON text.
    fn call(&self, py: Python<'_>, sender: &str, tool: &str, params: &str) -> PyResult<String> {
        let params = params_of(params)?;
        let body = serde_json::json!({ "sender": sender, "tool": tool, "params": params });
        let request = async_nats::Request::new()
            .payload(body.to_string().into())
            .timeout(Some(self.timeout));
        let subject = self.subject.clone();
        let message = py
            .allow_threads(|| {
                self.runtime
                    .block_on(self.client.send_request(subject.clone(), request))
            })
            .map_err(|e| TransportError::new_err(format!("no answer on {subject}: {e}")))?;
        Ok(String::from_utf8_lossy(&message.payload).into_owned())
    }
}

#[pymodule]
fn _eddi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    tree_heap::use_mimalloc();
    m.add_class::<LocalEngine>()?;
    m.add_class::<NatsEngine>()?;
    m.add_class::<selections::Found>()?;
    m.add_class::<selections::Row>()?;
    m.add("OpenError", m.py().get_type::<OpenError>())?;
    m.add("BusyError", m.py().get_type::<BusyError>())?;
    m.add("TransportError", m.py().get_type::<TransportError>())?;
    Ok(())
}
