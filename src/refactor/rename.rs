//! Rename a symbol or a class everywhere it is that symbol.

use super::{not_built, Project, RefactorError, Refactored, Refactoring};

pub(super) fn compute(
    _project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    Err(not_built(request))
}
