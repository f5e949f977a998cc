//! Rename a parameter, change a signature, and update every call site.

use super::{not_built, Project, RefactorError, Refactored, Refactoring};

pub(super) fn compute(
    _project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    Err(not_built(request))
}
