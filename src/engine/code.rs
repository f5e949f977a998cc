//! Code-aware commands: Python targets (`Function`, `Class`, `Method`,
//! `Variable`), analysis, validation, formatting and the project index.
//!
//! Until the code-intelligence layer is wired in, every one of them fails
//! with a reason: a command that is not implemented never answers `Ok`.

use crate::lang::{CodeTarget, Command, GotoTarget, InsertKind};
use crate::reply::Reply;

use super::context::{Ctx, Outcome};

fn unavailable(what: &str) -> Reply {
    Reply::fail(format!(
        "{what} needs Python code intelligence, which this build does not have yet"
    ))
}

impl Ctx<'_> {
    pub(super) fn code_command(&mut self, command: &Command) -> Outcome {
        let what = match command {
            Command::FindSymbol { .. } => "Find References/Definition/Callers",
            Command::Analyze { .. } => "Analyze",
            Command::Validate { .. } => "Validate",
            Command::Modify { .. } => "Modify",
            Command::Comment { .. } => "Comment",
            _ => "Format",
        };
        Err(unavailable(what))
    }

    pub(super) fn goto_code(&mut self, _target: &GotoTarget) -> Outcome {
        Err(unavailable("Goto to a code element"))
    }

    pub(super) fn show_code(&mut self, _target: &CodeTarget, _context: usize) -> Outcome {
        Err(unavailable("Show of a code element"))
    }

    pub(super) fn insert_code(&mut self, _kind: InsertKind, _text: &str) -> Outcome {
        Err(unavailable("Insert Function/Method/Class/Import"))
    }

    pub(super) fn delete_code(&mut self, _target: &CodeTarget) -> Outcome {
        Err(unavailable("Delete of a code element"))
    }
}
