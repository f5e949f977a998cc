//! What the integration tests share: the `eddi` binary as a child process
//! (`cli`), a real `nats-server` and Eddi in-process (`nats`), and the
//! specification's example workflow (`spec_workflow`). Each test binary
//! uses part of it.

pub mod cli;
pub mod nats;
pub mod spec_workflow;
