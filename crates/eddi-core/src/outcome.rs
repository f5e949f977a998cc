//! What one command did, as data: `Result<Outcome, OpError>` is what the
//! engine's one door ([`crate::engine::Engine::dispatch`]) gives back for
//! every command. The renderers (terse, JSON, the agent tools) word it;
//! a program (the scripting language, the Python API) reads it.
//!
//! An [`Outcome`] is an effect (`Ok, …`: the command did something) or an
//! answer (`Ok: …`: it told something), with its facts in the order they
//! are said, the changes it applied (edits as data, for a changeset to
//! collect), and the completions the engine adds from the project's view
//! (what an edit of a definition left unchanged elsewhere, which modules
//! import a file). A failure is never an `Outcome`: it is an
//! [`OpError`](crate::failure::OpError), so an `Ok` cannot hide one.

use crate::analysis::index::Location;
use crate::change::WorkspaceChange;
use crate::edit::Position;
use crate::reply::{Clause, Reply};

/// Whether the command did something or answered a question: what the
/// terse form says with `Ok, …` or `Ok: …`, and what `Set Replies brief`
/// trims (effects only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Effect,
    Answer,
}

/// What one command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub shape: Shape,
    /// The facts, in the order the terse form says them.
    pub facts: Vec<Clause>,
    /// The changes the command applied to the session's buffers (and to
    /// disk, when it committed), in order.
    pub changes: Vec<WorkspaceChange>,
    /// Completions from the project's view, said after the facts.
    pub completions: Vec<Completion>,
}

/// What the engine adds to a command's outcome from the project's view:
/// facts about code outside what the command touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// An edit of a definition in one file (`Modify … Rename`, `Delete
    /// Function`, a signature change) left these uses as they were: the
    /// old name's unresolved uses, or the changed function's callers.
    LeftUnchanged {
        edit: DefinitionEdit,
        sites: Vec<Location>,
    },
    /// The modules of the project that import the file (a dependency
    /// report's other side); `module` is the file's own module name.
    ImportedBy {
        module: String,
        modules: Vec<String>,
        /// The output limit the list is said within.
        limit: usize,
    },
}

/// An edit of a definition that code elsewhere may depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefinitionEdit {
    /// Renamed (module-qualified names).
    Renamed {
        old: String,
        new: String,
    },
    Deleted {
        old: String,
    },
    /// Its signature changed (a parameter added, removed or renamed).
    Resigned {
        function: String,
    },
}

impl Outcome {
    /// `Ok`: done, nothing more to say.
    pub fn ok() -> Outcome {
        Outcome::effect(Vec::new())
    }

    /// `Ok, a, b`: the command did something.
    pub fn effect(facts: Vec<Clause>) -> Outcome {
        Outcome {
            shape: Shape::Effect,
            facts,
            changes: Vec::new(),
            completions: Vec::new(),
        }
    }

    /// `Ok: a, b`: the command answers a question.
    pub fn answer(facts: Vec<Clause>) -> Outcome {
        Outcome {
            shape: Shape::Answer,
            ..Outcome::effect(facts)
        }
    }

    /// `Ok: <text>`: an answer in one note.
    pub fn told(text: impl Into<String>) -> Outcome {
        Outcome::answer(vec![Clause::Note(text.into())])
    }

    /// `Ok, At l:c`: the cursor moved (or stayed) there.
    pub fn at(pos: Position) -> Outcome {
        Outcome::effect(vec![Clause::At(pos)])
    }

    /// Adds a fact at the end.
    pub fn push(&mut self, fact: Clause) {
        self.facts.push(fact);
    }

    /// The same outcome with one more fact.
    pub fn with(mut self, fact: Clause) -> Outcome {
        self.facts.push(fact);
        self
    }

    /// The outcome with its first note reworded by `reword` (to say
    /// first where the answer comes from).
    pub fn reword_first_note(mut self, reword: impl FnOnce(&str) -> String) -> Outcome {
        if let Some(Clause::Note(note)) = self
            .facts
            .iter_mut()
            .find(|fact| matches!(fact, Clause::Note(_)))
        {
            *note = reword(note);
        }
        self
    }

    /// Where the cursor is after the command, when the outcome says it.
    pub fn cursor(&self) -> Option<Position> {
        self.facts.iter().rev().find_map(|fact| match fact {
            Clause::At(pos) => Some(*pos),
            _ => None,
        })
    }

    /// The outcome's `At` facts as the answer to a search ([`Clause::Found`]).
    pub fn found(mut self) -> Outcome {
        for fact in &mut self.facts {
            if let Clause::At(pos) = fact {
                *fact = Clause::Found(*pos);
            }
        }
        self
    }
}

impl From<Outcome> for Reply {
    /// The renderers' input: the facts, then the completions in words.
    fn from(outcome: Outcome) -> Reply {
        let mut facts = outcome.facts;
        for completion in &outcome.completions {
            facts.extend(crate::engine::output::completion(completion));
        }
        match outcome.shape {
            Shape::Effect => Reply::Done(facts),
            Shape::Answer => Reply::Info(facts),
        }
    }
}

impl From<crate::failure::OpError> for Reply {
    fn from(error: crate::failure::OpError) -> Reply {
        Reply::Fail(error, Vec::new())
    }
}

impl From<Result<Outcome, crate::failure::OpError>> for Reply {
    fn from(result: Result<Outcome, crate::failure::OpError>) -> Reply {
        result.map_or_else(Reply::from, Reply::from)
    }
}
