//! Semantic refactors: rename, change a signature, extract, inline, and
//! the class-level ones (extract an interface, change a base, move members).
//!
//! A refactor is a pure computation: from a [`Project`] (the project index
//! and each file's current text) and a [`Refactoring`] request it computes
//! one [`WorkspaceChange`] plus what it counted, what it deliberately left
//! alone and which textual mentions it did not change — a [`Refactored`].
//! It never touches disk or buffers: the engine checks the result
//! ([`check`]), previews it or applies it as one all-or-nothing commit
//! through `engine::apply`, and words the reply.
//!
//! One file (and folder) per refactoring: `rename.rs` (symbols and
//! classes), `signature.rs` (parameters and signatures, and the call sites
//! they update), `extract.rs` (methods and functions from a line range),
//! `inline.rs` (variables and functions), `interface.rs` (an abstract base
//! class or a `Protocol` from a class's public methods), `inheritance.rs`
//! (a class's base replaced), `move_members.rs` (members pulled up to the
//! base or pushed down to the subclasses), `merge.rs` (two classes made
//! one); the class-level ones share
//! `classes.rs`, `class_uses.rs`, `mro.rs` and `imports.rs`. [`kinds`] is
//! the registry: one entry per `Refactor <kind>` keyword, through which the
//! command language, [`compute`], the engine's wording and the tools reach
//! a kind. The other class-level
//! refactors (move method, extract class, …) will be more folders of the
//! same shape: a request variant, a compute
//! function, an entry in [`kinds::KINDS`] (and a [`Summary`] variant when
//! their counts are new).
//!
//! Every refactoring reads files through its [`Project`]: each file read
//! once and parsed once per computation ([`Parses`], `parses.rs`), the
//! check included.
//!
//! **Invariants:** nothing here does I/O except through [`Sources`]; a
//! refactor either returns a complete change or an error and nothing else
//! — never half a change. Every edit is computed against the text the
//! [`Source`] handed out, and carries that text's [`Base`], so a change
//! applied to anything newer fails whole instead of corrupting it.

pub mod check;
mod class_uses;
mod classes;
mod extract;
mod extract_class;
mod imports;
mod inheritance;
mod inline;
mod interface;
pub mod kinds;
mod merge;
mod move_members;
mod move_method;
mod mro;
mod parses;
mod rename;
mod request;
mod signature;
mod split;
#[cfg(test)]
pub(crate) mod testing;

use std::collections::BTreeSet;

use ropey::Rope;

use crate::analysis::index::{IndexError, Location, ProjectIndex};
use crate::change::{Base, WorkspaceChange};
use crate::edit::Position;
use crate::workspace::{Workspace, WorkspacePath};

pub use parses::{Parsed, Parses};
pub(crate) use rename::inserted_taken_beside;
pub use request::{ExtractKind, InlineKind, Located, Refactoring, RenameKind, SitePolicy};

/// Where files' current texts come from. The engine's implementation
/// refuses files with unsaved changes in any session; [`WorkspaceSources`]
/// reads the disk.
pub trait Sources: Sync {
    /// The current text of a workspace file, named as the index names it
    /// (workspace-relative, `/`-separated).
    fn source(&self, path: &str) -> Result<Source, RefactorError>;

    /// A file's text to search, when it can be read: what a refactor only
    /// looks through (strings that may name a symbol) and changes only
    /// after reading it again with [`Sources::source`]. Never refuses.
    fn search_text(&self, path: &str) -> Option<String> {
        self.source(path).ok().map(|s| s.text.to_string())
    }
}

/// One file's text and what it was read at.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: WorkspacePath,
    pub text: Rope,
    /// What the file's part of a change must be computed against.
    pub base: Base,
}

/// What a refactor reads.
pub struct Project<'a> {
    /// Up to date with the texts [`Sources`] hands out.
    pub index: &'a ProjectIndex,
    pub sources: &'a dyn Sources,
    /// The request's place ([`Located::place`]), else the requesting
    /// session's current file and cursor: plain names are looked up there
    /// first; `Inline_Variable` and the extractions work there.
    pub current: Option<Cursor>,
    /// The files read and parsed so far in this computation.
    parses: Parses,
}

impl<'a> Project<'a> {
    /// What one computation reads (a refactor and its check): make a new
    /// one for each, so that no file's text or tree outlives it.
    pub fn new(
        index: &'a ProjectIndex,
        sources: &'a dyn Sources,
        current: Option<Cursor>,
    ) -> Project<'a> {
        Project {
            index,
            sources,
            current,
            parses: Parses::default(),
        }
    }

    /// The text of `path` (as the index names it), read once per
    /// computation: every refactoring and the check see the same text.
    pub fn source(&self, path: &str) -> Result<Source, RefactorError> {
        self.parses.source(self.sources, path)
    }

    /// `path` read and parsed once per computation (its scopes too, when
    /// asked): see [`Parses`].
    pub fn parsed(&self, path: &str) -> Result<std::sync::Arc<Parsed>, RefactorError> {
        self.parses.parsed(self.sources, path)
    }

    /// `path` parsed for one look (a scan of the project): the kept tree if
    /// a step parsed it, else one that is not kept ([`Parses::scanned`]).
    pub fn scanned(&self, path: &str) -> Result<std::sync::Arc<Parsed>, RefactorError> {
        self.parses.scanned(self.sources, path)
    }
}

/// A file and a position in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub path: String,
    pub position: Position,
}

/// What a refactor computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refactored {
    /// Every file's edits, against the texts it read.
    pub change: WorkspaceChange,
    pub summary: Summary,
    /// How sure it is of each use it changed, and the uses it may have
    /// missed.
    pub evidence: Evidence,
    /// Uses it could not prove and did not change (a `getattr(obj, "name")`,
    /// an attribute of a value of unknown type), each with why.
    pub left_alone: Vec<LeftAlone>,
    /// Textual mentions (strings, comments, docstring prose) it did not
    /// change, because they were not asked for.
    pub mentions: Vec<Location>,
    /// The files in which every edit is one name in code put in place of
    /// another (not in a string, a doctest or a comment): the check may
    /// prove such a file parses as before without parsing it
    /// ([`check::no_new_errors`]). Empty but for renames.
    pub names_swapped: BTreeSet<WorkspacePath>,
    /// Strings that are data (a dict key, a subscript, a registry name),
    /// not prose: never changed, even with `Include Text`, each with what
    /// it is. Renames only.
    pub data_strings: Vec<LeftAlone>,
    /// Members renamed along with a class because name-based dispatch
    /// reaches them by its name (`visit_Name`). Renames only.
    pub also_renamed: Vec<AlsoRenamed>,
    /// What it assumed without proof, each with what: a call between an
    /// inlined value and its read that cannot reach what the value reads
    /// (`assumed: lines.append does not change self.a`). Inlines only.
    pub assumed: Vec<LeftAlone>,
}

/// The counts a reply reports, per kind of refactor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Summary {
    /// `Ok, Renamed in 2 files (a.py, b.py), 23 references updated`.
    Renamed {
        /// The full name of what was renamed (`pkg.mod.Class.method`).
        symbol: String,
        files: usize,
        /// Every site changed, definitions included.
        references: usize,
    },
    /// `Ok, Signature updated, 12 callers replaced` (also `Rename_Param`).
    SignatureChanged {
        function: String,
        callers: usize,
        /// The forwarding calls (`super().__init__(**kwargs)`) whose
        /// forwarder's callers were followed and changed.
        followed: Vec<Location>,
    },
    /// `Ok, Method extracted, 2 duplicate blocks replaced`.
    Extracted {
        kind: ExtractKind,
        name: String,
        duplicates: usize,
    },
    /// `Ok, Variable inlined at 3 locations`.
    Inlined {
        kind: InlineKind,
        name: String,
        locations: usize,
    },
    /// `Ok, Interface extracted, PaymentProcessor now implements Payable
    /// (2 methods: pay, refund)`.
    InterfaceExtracted {
        /// The class's full name (`shop.payment.PaymentProcessor`).
        class: String,
        interface: String,
        /// A `typing.Protocol` the class matches, not a base it inherits.
        protocol: bool,
        /// The methods the interface declares, in the class's order.
        methods: Vec<String>,
    },
    /// `Ok, Inheritance changed, Child now derives from NewBase (was
    /// OldBase), 1 explicit call rewritten`.
    InheritanceChanged {
        /// The class's full name.
        class: String,
        /// The old base, as the class statement wrote it.
        old_parent: String,
        /// The new base, as the class statement now writes it.
        new_parent: String,
        /// Explicit calls through the old base rewritten
        /// (`OldBase.__init__(self)`, `super(OldBase, self)`).
        calls: usize,
        /// The names whose lookup now reaches another class.
        rerouted: Vec<Rerouted>,
        /// The project's `isinstance`/`issubclass`/`except` tests of the
        /// old base, which the class's instances no longer pass.
        type_tests: Vec<Location>,
    },
    /// `Ok, Pulled up 2 members (rate, fee) from Card to Payment` (also
    /// `Pushed down … to A, B`).
    MembersMoved {
        /// `Pull_Up` (else `Push_Down`).
        up: bool,
        /// The class they left, by its full name.
        class: String,
        /// The classes they moved to.
        to: Vec<String>,
        members: Vec<String>,
        /// Pull_Up: the base's other subclasses, which now inherit them.
        inherited_by: Vec<String>,
        /// Push_Down: the subclasses that define them already (no copy).
        kept_own: Vec<String>,
    },
    /// `Ok, Moved method User.validate to UserValidator.validate (through
    /// self.validator, new parameter user), 3 callers rewritten`.
    MethodMoved {
        /// The method's full name before (`pkg.mod.User.validate`).
        method: String,
        /// The target class's full name.
        target: String,
        /// The method's name in the target.
        name: String,
        /// How the method reached the target: `self.validator`, or the
        /// parameter's name.
        via: String,
        /// The parameters it gained: the source object, when the body
        /// still reads it.
        parameters: Vec<String>,
        /// The calls rewritten to call the target's method.
        callers: usize,
        /// The source kept a one-line delegate for the uses it could not
        /// rewrite (listed in `left_alone`).
        delegate: bool,
    },
    /// `Ok, Class extracted: parse, render moved from User to UserRules,
    /// which User holds as self._user_rules and delegates to`.
    ClassExtracted {
        /// The class's full name.
        class: String,
        new_class: String,
        members: Vec<String>,
        /// The attribute the class holds the new class's instance in.
        attribute: String,
    },
    /// `Ok, Class split: RATE, parse moved from User to UserRules, 4
    /// references updated`.
    ClassSplit {
        /// The class's full name.
        class: String,
        new_class: String,
        members: Vec<String>,
        references: usize,
    },
    /// `Ok, Classes merged into Account (User, Profile), 2 files, 7
    /// references updated`.
    ClassesMerged {
        /// The classes' full names.
        first: String,
        second: String,
        target: String,
        files: usize,
        references: usize,
    },
}

/// A name a class's methods read through `self`, `cls` or `super()`
/// whose lookup reaches another class after a change of its hierarchy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rerouted {
    /// The class whose method reads it (the class changed or a subclass).
    pub class: String,
    pub name: String,
    /// Read as `super().name`.
    pub via_super: bool,
    pub before: Resolved,
    pub after: Resolved,
}

/// Where a name's lookup ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// In this class (its name as written: `Base`, `dict`).
    In(String),
    /// Not found before this class from outside the project, whose
    /// members are not known: it may be there.
    Unknown(String),
    /// Nowhere: it is set at run time, if at all.
    Nowhere,
}

/// A member renamed along with a class: dispatch reaches it by the
/// class's name (`getattr(self, f"visit_{type(node).__name__}")`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlsoRenamed {
    /// `jinja2.compiler.CodeGenerator.visit_Name`.
    pub symbol: String,
    /// `visit_NameNode`.
    pub new_name: String,
    /// The line of the lookup that reaches it by name.
    pub dispatch: Location,
}

/// A use the refactor did not change, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftAlone {
    pub site: Location,
    pub why: String,
}

/// The safety contract's account of a refactor's uses: *proven* (the
/// index resolves them to the symbol), *inferred* (not proven, but
/// nothing else of that name could be meant: changed, and listed) and
/// *possible* (may be the symbol or something else). A refactor with
/// possible uses is refused unless the request's [`SitePolicy`] says
/// otherwise: `IncludePossible` changes them, `OnlyProven` leaves them
/// and the reply names them as where the project may now be broken.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evidence {
    /// Changed because the index proves them (definitions included).
    pub proven: Vec<Location>,
    /// Changed without proof: nothing else of the name could be meant.
    pub inferred: Vec<Unproven>,
    /// Changed with `Include Possible`, left with `Only Proven`.
    pub possible: Vec<Unproven>,
    /// Other definitions changed with the one asked for (overrides up and
    /// down a class hierarchy), by full name.
    pub also: Vec<String>,
}

/// A use the index cannot prove, and why it was decided as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unproven {
    pub site: Location,
    pub why: String,
}

/// Why a refactor refused. `message` names what to fix; `candidates` are
/// the valid choices where there are some (names that would resolve);
/// `argument` is the part of the request at fault, set where the error is
/// raised (clients name their own parameter from it, never from the
/// message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RefactorError {
    pub kind: RefactorFailure,
    pub message: String,
    pub candidates: Vec<String>,
    pub argument: Option<Argument>,
}

/// The part of a [`Refactoring`] (or of its place) an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Argument {
    /// What the request names: the symbol a rename renames, the function
    /// whose parameter or signature changes, what an inline inlines.
    Symbol,
    /// The parameter a `Rename_Param` renames.
    Param,
    /// A new name: a rename's, a parameter's (also one a signature change
    /// renames), an extracted function's.
    NewName,
    /// A signature's parameters as they are now (`old_params`).
    OldParams,
    /// A signature's new parameters (`new_params`).
    NewParams,
    /// What to do with the uses it cannot prove ([`SitePolicy`]).
    Sites,
    /// The lines an extraction moves.
    Lines,
    /// The base a `Change_Inheritance` replaces.
    OldParent,
    /// The base a `Change_Inheritance` puts in its place.
    NewParent,
    /// The members a `Pull_Up` or `Push_Down` moves.
    Members,
    /// The class a `Move_Method` moves the method to.
    Target,
    /// The file the request works in (its place).
    File,
    /// The line in that file (its place's position).
    Line,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefactorFailure {
    /// No such symbol, parameter or file.
    NotFound,
    /// The name matches several symbols; `candidates` tells them apart.
    Ambiguous,
    /// A malformed argument (a name that is not an identifier, a bad range).
    InvalidArgument,
    /// `Name conflict exists: …` — the new name collides or shadows.
    NameConflict,
    /// `Signature conflict detected: …` — the old signature is not the current one.
    SignatureConflict,
    /// The refactor is not safe here (`Cannot inline - …`, `Cannot extract - …`).
    Refused,
    /// A file it must change has unsaved changes in a session, or changed on disk.
    Stale,
    /// The change would break a file (a new syntax error).
    WouldBreak,
    /// A file could not be read.
    Unreadable,
}

impl RefactorError {
    pub fn new(kind: RefactorFailure, message: impl Into<String>) -> RefactorError {
        RefactorError {
            kind,
            message: message.into(),
            candidates: Vec::new(),
            argument: None,
        }
    }

    pub fn with_candidates(mut self, candidates: Vec<String>) -> RefactorError {
        self.candidates = candidates;
        self
    }

    /// The error is about `argument` of the request.
    pub fn at(mut self, argument: Argument) -> RefactorError {
        self.argument = Some(argument);
        self
    }
}

/// The index's lookup failure as a refactor's: not found and ambiguous
/// with their candidates, anything else (a module several projects have,
/// a bad path) an invalid argument.
impl From<IndexError> for RefactorError {
    fn from(error: IndexError) -> RefactorError {
        match &error {
            IndexError::NotFound { choices, .. } => {
                RefactorError::new(RefactorFailure::NotFound, error.to_string())
                    .at(Argument::Symbol)
                    .with_candidates(choices.clone())
            }
            IndexError::Ambiguous { candidates, .. } => {
                let names = candidates
                    .iter()
                    .map(|c| c.qualified_name.clone())
                    .collect();
                RefactorError::new(RefactorFailure::Ambiguous, error.to_string())
                    .at(Argument::Symbol)
                    .with_candidates(names)
            }
            _ => RefactorError::new(RefactorFailure::InvalidArgument, error.to_string()),
        }
    }
}

/// Computes `request` on `project` (see the module doc). Never mutates.
pub fn compute(project: &Project<'_>, request: &Refactoring) -> Result<Refactored, RefactorError> {
    #[cfg(test)]
    COMPUTED.with(|computed| computed.set(computed.get() + 1));
    request.kind().compute(project, request)
}

#[cfg(test)]
thread_local! {
    /// How many refactors this thread computed: what a command costs, for
    /// tests (the engine computes on the thread that runs the command).
    static COMPUTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many refactors this thread has computed ([`compute`] calls).
#[cfg(test)]
pub(crate) fn computed_on_this_thread() -> usize {
    COMPUTED.with(std::cell::Cell::get)
}

/// The refusal of a refactoring that is not built yet: never an `Ok`.
fn not_built(request: &Refactoring) -> RefactorError {
    RefactorError::new(
        RefactorFailure::InvalidArgument,
        format!("Refactor {} is not available yet", request.spec_name()),
    )
}

/// Reads files from disk through the workspace (its jail, size, binary and
/// UTF-8 rules), each with its disk stamp as the base.
pub struct WorkspaceSources<'a> {
    pub workspace: &'a Workspace,
}

impl Sources for WorkspaceSources<'_> {
    fn source(&self, path: &str) -> Result<Source, RefactorError> {
        let unreadable = |e: crate::workspace::FileError| {
            RefactorError::new(RefactorFailure::Unreadable, e.to_string())
        };
        let resolved = self.workspace.resolve(path).map_err(unreadable)?;
        let loaded = self.workspace.read(&resolved).map_err(unreadable)?;
        Ok(Source {
            path: resolved,
            text: Rope::from_str(&loaded.text),
            base: Base::Disk(loaded.stamp),
        })
    }

    fn search_text(&self, path: &str) -> Option<String> {
        let resolved = self.workspace.resolve(path).ok()?;
        self.workspace
            .read_text(&resolved)
            .ok()
            .map(|(text, _)| text)
    }
}
