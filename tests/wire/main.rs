//! The front ends' integration tests, against real processes: NATS (a real
//! `nats-server`, Eddi in-process or `eddi serve`), the agent tools on NATS
//! and MCP, permissions on every front end, the `eddi` CLI (`run`, `repl`,
//! `send`), and the faults `scripts/faults` found. One binary, each former
//! test file a module (see `tests/engine/main.rs` for why); e.g.
//! `cargo test --test wire nats_serve::`.

#[path = "../support/mod.rs"]
mod support;

mod cli;
mod cli_replies;
mod faults;
mod nats_engine;
mod nats_limits;
mod nats_protocol;
mod nats_replies;
mod nats_security;
mod nats_serve;
mod nats_transport;
mod permissions_wire;
mod text_edits_cli;
mod tools_mcp;
mod tools_nats;
