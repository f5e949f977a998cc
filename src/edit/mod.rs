//! The edit model: positions, change sets, history and documents.
//!
//! Pure data and functions over [`ropey::Rope`]; knows nothing of sessions,
//! disk or transports.

pub mod position;

pub use position::{LineRange, Position, PositionError};
