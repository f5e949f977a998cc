//! `Refactor InlineFunction <name>`.

use crate::refactor::{Project, RefactorError, Refactored};

pub(super) fn inline(_project: &Project<'_>, name: &str) -> Result<Refactored, RefactorError> {
    Err(super::refused(format!("{name}: not built yet")))
}
