//! A body of several statements, inlined where the call is a whole
//! statement.

use tree_sitter::Node;

use super::super::refused;
use super::super::Parsed;
use super::call::Value;
use super::callee::Callee;
use crate::change::Indel;
use crate::refactor::RefactorError;

pub(super) fn inline<'f>(
    callee: &Callee<'f>,
    _file: &'f Parsed,
    _call: Node<'f>,
    _values: &[Value<'f>],
) -> Result<Indel, RefactorError> {
    Err(refused(format!(
        "{}'s body is not one `return <expression>`",
        callee.name
    )))
}
