//! Extract a method or a function from a range of lines, and replace the duplicates.

use super::{not_built, Project, RefactorError, Refactored, Refactoring};

pub(super) fn compute(
    _project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    Err(not_built(request))
}
