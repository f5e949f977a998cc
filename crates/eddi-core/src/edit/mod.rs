//! The edit model: positions, change sets, history and text conventions.
//!
//! Pure data and functions over [`ropey::Rope`]; knows nothing of sessions,
//! disk or transports. **Invariant:** nothing here does I/O.

pub mod changeset;
pub mod diff;
pub mod history;
pub mod position;
pub mod text;

pub use changeset::{Assoc, ChangeError, ChangeSet, Operation};
pub use history::{History, Revision};
pub use position::{LineRange, Position, PositionError};
pub use text::LineEnding;
