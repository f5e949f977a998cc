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

mod code;

pub use code::{CodeFact, Element};

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
#[derive(Debug, Clone)]
pub struct Outcome {
    pub shape: Shape,
    /// The facts, in the order the terse form says them.
    pub facts: Vec<Clause>,
    /// The changes the command applied to the session's buffers (and to
    /// disk, when it committed), in order.
    pub changes: Vec<WorkspaceChange>,
    /// What the command computed, when it is a report (a refactor's).
    pub report: Option<Report>,
    /// Completions from the project's view, said after the facts.
    pub completions: Vec<Completion>,
}

/// A command's report: what it computed, as data.
#[derive(Debug, Clone)]
pub enum Report {
    /// A refactor, applied — or previewed (`preview`).
    Refactor {
        report: Box<crate::engine::RefactorReport>,
        preview: Option<Preview>,
    },
    /// What a search or a query found, listed in tiers by the renderer.
    Found(Box<Sites>),
}

/// What a search or a query found: its head and its sites (or, past what
/// a reply can hold, their counts per file). The renderer lists them in
/// tiers within `limit` chars: with their lines, positions only, counts
/// per file, or the total, always saying which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sites {
    pub head: Found,
    pub listed: Listed,
    pub limit: usize,
    /// Said first: why the answer comes from other files than the
    /// current one (the index does not read the current file's language).
    pub first: Option<String>,
}

/// The sites of [`Sites`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listed {
    /// Each site; `possible` may be uses too (said after the certain ones).
    Sites {
        certain: Vec<Site>,
        possible: Vec<Site>,
    },
    /// How many sites per file, when they were too many to keep.
    Counts(std::collections::BTreeMap<String, usize>),
}

/// One place a search or query found: `path:line:col[ <label>]`, with the
/// text of its line when it could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub path: String,
    pub position: Position,
    /// What the site is, e.g. `in pkg.cli.main` or `function pkg.a.f`.
    pub label: Option<String>,
    /// The line, trimmed (at most 160 chars, ending in `…` when cut).
    pub line: Option<String>,
}

/// How a refactor's preview is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preview {
    /// With the unified diff of every file (`Preview Diff`).
    pub diff: bool,
    /// Waiting for `Apply` or `Discard` (preview mode).
    pub waiting: bool,
}

/// A fact a command reports beyond positions, counts and texts, as data:
/// the renderer words it (`engine/output.rs`, `impl Display for Fact`) as a
/// terse note and the JSON `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// `Start` of the sender's own session: it goes on.
    SessionContinued { name: String },
    /// `End`: the session's record is kept.
    SessionSaved,
    /// `End`, `Close`: these files' unsaved edits are gone (`Close`: its own).
    UnsavedDiscarded { files: Vec<String> },
    /// `End <name> Force` of another sender's session.
    SessionEnded { name: String, sender: String },
    /// Unsaved edits of a session that ended, kept as drafts.
    KeptAsDrafts { session: String, files: Vec<String> },
    /// `List Sessions`: every active session.
    Sessions(Vec<SessionLine>),
    /// `Summary`: what the session changed.
    Summary(crate::session::Summary),
    /// `Summary` of an ended session: the summary its record keeps.
    RecordedSummary(String),
    /// `Status`: the session's name.
    InSession { name: String },
    /// `Status`, `Pop Context`: the current file.
    CurrentFile { path: String },
    /// `Status`: the current file has unsaved edits.
    Modified,
    /// `Status`: no file is open.
    NoFile,
    /// `Status`: how many files are open (said when more than one).
    FilesOpen(usize),
    /// `Status`: a `Replace Confirm` walk waits for `y`/`n`/`q`.
    ConfirmWaiting { path: String },
    /// `Status`: a refactor's preview waits for `Apply` or `Discard`.
    RefactorWaiting { refactoring: String },
    /// `Status`: a replacement across files waits for `Apply` or `Discard`.
    ReplaceWaiting { command: String },
    /// `Push Context`: how many contexts are saved now.
    ContextDepth(usize),
    /// `Open` of a link: the file it was opened as.
    OpenedAs { path: String, alias: String },
    /// `Save Close` of a file without unsaved edits: closed, nothing written.
    NothingToSaveClosed,
    /// `Save All`: the files written.
    SavedFiles { files: Vec<String> },
    /// `List`: the files (said within `limit` chars, in tiers).
    Files { files: Vec<String>, limit: usize },
    /// `List`: no file (open, when `open_only`) matches `pattern`.
    NoFiles {
        open_only: bool,
        pattern: Option<String>,
    },
    /// `Diff`: the buffer is the file's text on disk.
    NoChanges { path: String },
    /// `Diff`: lines added and deleted against the disk.
    Changed { added: usize, deleted: usize },
    /// `Bookmark <name>`: where it is set.
    Bookmarked {
        name: String,
        at: crate::edit::Position,
    },
    /// `Find Next|Prev`, `Replace Next`: the match was found past the end
    /// (or the start), from the other end.
    Wrapped,
    /// `Find All`: the matches' positions (said within `limit` chars).
    FoundAt {
        positions: Vec<crate::edit::Position>,
        limit: usize,
    },
    /// `Show Block`: the range asked for went past the end of the file.
    Clamped {
        asked: crate::edit::LineRange,
        shown: crate::edit::LineRange,
        last_line: usize,
    },
    /// `Show … Context <n>`: the context did not fit the output limit.
    ContextLeftOut { limit: usize },
    /// `Undo`, `Redo`: the steps taken (fewer than asked when there were
    /// no more).
    Stepped {
        direction: Direction,
        done: usize,
        asked: usize,
    },
    /// `Undo`, `Redo` of a step that changed other files too.
    AlsoIn { files: Vec<String> },
    /// `Find Definition` of a module.
    ModuleDefinition { module: String, path: String },
    /// `Discard`: the waiting preview dropped (`Refactor …`, `Replace All …`).
    Discarded { what: String },
    /// A preview waits: `Apply` writes it, `Discard` drops it.
    ApplyOrDiscard,
    /// `Replace All … In Files`: how many occurrences in which files.
    ReplacedInFiles { total: usize, files: Vec<String> },
    /// `Preview Replace All … In Files`: the occurrences per file.
    WouldReplace { counts: Vec<(String, usize)> },
    /// `List Drafts`: the drafts kept for a session (none: `drafts` empty).
    Drafts {
        session: String,
        drafts: Vec<DraftLine>,
    },
    /// `Recover`: the draft is the buffer's text now (`from`: the other
    /// session it was kept for), with the lines it adds and deletes.
    Recovered {
        path: String,
        from: Option<String>,
        kept: String,
        added: usize,
        deleted: usize,
    },
    /// `Recover` of a draft that is the file's text: nothing to do.
    DraftIsTheFile { path: String, kept: String },
    /// `Find All … In Files`: the files searched, and those skipped (said
    /// within `limit` chars).
    SearchedFiles {
        searched: usize,
        skipped: Vec<String>,
        limit: usize,
    },
    /// A script ran: its counts, review list and files (`script::run`).
    Script(crate::script::run::ScriptReport),
    /// A query alone (the `select` tool, the Python API): how many
    /// elements of which kind it found; the elements are its data.
    Selected {
        kind: crate::script::ElementKind,
        count: usize,
    },
    /// Many queries at once (the Python API's callers of a query's
    /// functions): how many were answered; their answers are its data.
    SelectedEach { queries: usize },
    /// `preview [diff] changeset`: a changeset's files (and diffs).
    ChangesetPreview {
        name: String,
        state: &'static str,
        files: Vec<String>,
    },
    /// `Status`: named changesets not applied (`apply changeset <name>`).
    ChangesetsWaiting { names: Vec<String> },
    /// `List Changesets`: each changeset's name, state and file count.
    Changesets(Vec<(String, &'static str, usize)>),
    /// `apply changeset`: written as one commit and one undo step.
    ChangesetApplied { name: String, files: Vec<String> },
    /// `rollback changeset`: its step undone.
    ChangesetRolledBack { name: String, files: Vec<String> },
    /// `Replace All … In Files`: the files searched, and those skipped
    /// with why.
    Searched {
        searched: usize,
        skipped: Vec<(String, String)>,
    },
    /// What a code command did or found.
    Code(Box<CodeFact>),
}

/// Which way `Undo` and `Redo` go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Undo,
    Redo,
}

/// What a search or a query found, as the head of its list says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// `Find Definition`.
    Definitions(usize),
    /// `Find References|Callers`: `noun` is `reference` or `caller`.
    Uses {
        noun: &'static str,
        certain: usize,
        possible: usize,
    },
    /// Uses of a name the project does not define (any more).
    Unresolved {
        noun: &'static str,
        symbol: String,
        count: usize,
    },
    /// `Find All … In Files`.
    Matches(usize),
}

/// One draft, as `List Drafts` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftLine {
    pub path: String,
    /// When it was kept (RFC 3339).
    pub kept: String,
    pub lines: usize,
    pub bytes: usize,
    pub since: DiskSince,
}

/// What happened on disk to a draft's file since the draft was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskSince {
    /// The file is the text the draft's edits were made on.
    Unchanged,
    Changed,
    Deleted,
    /// The draft was of a new file, which exists on disk now.
    Created,
    /// The draft was of a new file, still not on disk.
    Absent,
    /// The draft was kept before drafts had records.
    Unknown,
}

/// One active session, as `List Sessions` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLine {
    pub name: String,
    pub sender: String,
    pub idle: std::time::Duration,
    /// Files with unsaved edits.
    pub unsaved: Vec<String>,
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
    /// Made `private` or `protected`: the uses outside its class (its
    /// file, for an element of no class: a Rust module's item).
    Restricted {
        member: String,
        visibility: &'static str,
        outside: &'static str,
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
            report: None,
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

    /// A refactor's outcome: its report, applied or previewed.
    pub fn refactored(report: crate::engine::RefactorReport, preview: Option<Preview>) -> Outcome {
        Outcome {
            report: Some(Report::Refactor {
                report: Box::new(report),
                preview,
            }),
            ..Outcome::ok()
        }
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

    /// What a search or a query found, as this outcome's report.
    pub fn found(sites: Sites, data: Clause) -> Outcome {
        Outcome {
            report: Some(Report::Found(Box::new(sites))),
            ..Outcome::answer(vec![data])
        }
    }

    /// The outcome, its found sites said after `why` (the current file is
    /// one the answer could not come from).
    pub fn found_elsewhere(mut self, why: String) -> Outcome {
        if let Some(Report::Found(sites)) = &mut self.report {
            sites.first = Some(why);
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
    pub fn as_search(mut self) -> Outcome {
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
        let mut facts = Vec::new();
        // a list's lines (`Txt`) come last
        let mut lines = None;
        if let Some(Report::Found(sites)) = &outcome.report {
            for clause in crate::engine::output::sites(sites) {
                match clause {
                    Clause::Txt(_) => lines = Some(clause),
                    _ => facts.push(clause),
                }
            }
        }
        facts.extend(outcome.facts);
        if let Some(Report::Refactor { report, preview }) = &outcome.report {
            facts.extend(crate::engine::refactor_report(report, preview.as_ref()))
        }
        for completion in &outcome.completions {
            facts.extend(crate::engine::output::completion(completion));
        }
        facts.extend(lines);
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
