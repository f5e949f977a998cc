//! Inline a variable or a function where that is provably safe.

use super::{not_built, Project, RefactorError, Refactored, Refactoring};

pub(super) fn compute(
    _project: &Project<'_>,
    request: &Refactoring,
) -> Result<Refactored, RefactorError> {
    Err(not_built(request))
}
