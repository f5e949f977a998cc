//! The validated command: what the parser produces and the engine executes.
//!
//! This is data only. Every variant corresponds to one row of the command
//! table in [`super::help`]; adding a command means adding both.

use crate::edit::{LineRange, Position};

// What a command names of the code and how it changes it are the analysis
// layer's own plain types; the command language uses them as they are.
pub use crate::analysis::target::{CodeTarget, CommentStyle, InsertKind, Modification, Visibility};
pub use crate::refactor::{ExtractKind, InlineKind, Refactoring, RenameKind, SitePolicy};

/// What a script's change becomes: written (a message's script; its own
/// `collect changes as` still collects), kept as a named changeset, or
/// only shown (the `run_script` tool's `collect` and `preview`). `Select`:
/// the text is a query alone, whose elements are the answer (the `select`
/// tool, the Python API); nothing is written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ScriptMode {
    #[default]
    Run,
    Collect(String),
    Preview,
    Select(Selection),
}

/// How a query alone is asked and answered (`ScriptMode::Select`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// A condition written apart from the query (the Python API's
    /// `where=`), joined to its own with `and`: a mistake in it is refused
    /// at its `line:col` in this text, not in the query's.
    pub filter: Option<String>,
    /// Leave out the text of definitions and files (a call's, an
    /// import's or a line's stays: it is what they are); the Python API
    /// reads a definition's source when asked.
    pub without_texts: bool,
    /// The text is many queries, one a line, each answered on its own
    /// (its elements or its failure) on one reading of the project: the
    /// Python API asks the callers of a whole query's functions at once.
    pub each_line: bool,
    /// A script run first, nothing written: the queries see the files as
    /// it leaves them (the Python API's queries inside a transaction or
    /// changeset, after its edits so far).
    pub after: Option<String>,
}

/// One executable command of the terse language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    // -- sessions --------------------------------------------------------
    /// `Start <name> ["description"]`
    Start {
        name: String,
        description: Option<String>,
    },
    /// `End [<name>] [Force]`: `Force` ends another sender's session (an
    /// operator's command), its unsaved edits kept as drafts.
    End { name: Option<String>, force: bool },
    /// `List Sessions`: every active session, its sender, idle time and
    /// files with unsaved edits (an operator's command).
    ListSessions,
    /// `List Drafts [From <session>]`: the drafts kept of a session's
    /// released unsaved edits (`From` another session: operators only).
    ListDrafts { from: Option<String> },
    /// `List Changesets`: the session's named changesets (scripts'
    /// `collect changes as`), each with its files and state.
    ListChangesets,
    /// `Recover <file> [From <session>]`: a draft back as the unsaved
    /// buffer of its file, one undo step over the file's disk text.
    Recover { path: String, from: Option<String> },
    /// `Summary [<name>]`
    Summary { name: Option<String> },
    /// `Status`
    Status,
    /// `Set <option> <value>`: per-session preferences (`Set Format json`).
    Set { option: SessionOption },
    /// `Push Context`
    PushContext,
    /// `Pop Context`
    PopContext,

    // -- files -----------------------------------------------------------
    /// `Open [Create] [dir/] <file>`; `dir` and `file` are already joined.
    Open { create: bool, path: String },
    /// `Save [Close] [Force] [<file>]`
    Save {
        close: bool,
        force: bool,
        path: Option<String>,
    },
    /// `Save All [Force]`: every modified open file, as one commit.
    SaveAll { force: bool },
    /// `Close [<file>]`
    Close { path: Option<String> },
    /// `List [Open] [<glob>]`
    List {
        open_only: bool,
        pattern: Option<String>,
    },

    // -- navigation ------------------------------------------------------
    /// `Goto <target>`
    Goto(GotoTarget),
    /// `Find [Next|Prev|All] "<text>" | /<regex>/`
    Find {
        direction: FindDirection,
        pattern: Pattern,
    },
    /// `Find All "<text>"|/<regex>/ In Files "<glob>"`: every match in the
    /// workspace's files (gitignore-aware) whose path matches the glob.
    FindInFiles { pattern: Pattern, glob: String },
    /// `Find References|Definition|Callers <symbol>` (project index)
    FindSymbol { kind: SymbolQuery, symbol: String },
    /// `Replace [All|Confirm] "<text>"|/<regex>/ With "<text>" [In <scope>]`
    Replace {
        mode: ReplaceMode,
        pattern: Pattern,
        replacement: String,
        /// Only matches inside this part of the file; `None`: the whole file.
        scope: Option<Scope>,
    },
    /// `[Preview [Diff]] Replace All "<text>"|/<regex>/ With "<text>" In Files "<glob>"`:
    /// every match in the workspace's files matching the glob, replaced as
    /// one commit and one undo step; `preview` only counts them, and with
    /// `diff` (only with `preview`) shows the unified diff too.
    ReplaceInFiles {
        pattern: Pattern,
        replacement: String,
        glob: String,
        preview: bool,
        diff: bool,
    },
    /// `Bookmark <name> [<line>:<col>]`
    Bookmark { name: String, at: Option<Position> },

    // -- inspection ------------------------------------------------------
    /// `Show <target> [<context_lines>]`
    Show {
        target: ShowTarget,
        context: Option<usize>,
    },
    /// `Analyze <target> [Dependencies|Complexity|Structure|Issues]`
    Analyze {
        target: AnalyzeTarget,
        kind: Option<AnalysisKind>,
    },
    /// `Validate [File|<target>]`
    Validate { target: Option<CodeTarget> },
    /// `Diff [<file>]`
    Diff { path: Option<String> },

    // -- modification ----------------------------------------------------
    /// `Insert Line|Block|Function|Method|Class|Import "<text>"`
    Insert { kind: InsertKind, text: String },
    /// `Delete Line [<count>] | Block <a>:<b> | Current | Function <f> | ...`
    Delete(DeleteTarget),
    /// `Modify <target> <change>`
    Modify {
        target: CodeTarget,
        change: Modification,
    },
    /// `Comment <target> "<text>" [Line|Block|Docstring] [Replace]`
    Comment {
        target: CodeTarget,
        text: String,
        style: CommentStyle,
        /// Replace the element's existing docstring or attached comment
        /// (without it, an existing docstring is never overwritten).
        replace: bool,
    },
    /// `Format [File|<target>] [<style>]`
    Format {
        target: Option<CodeTarget>,
        style: Option<String>,
    },
    /// `Undo [<count>]`
    Undo { count: usize },
    /// `Redo [<count>]`
    Redo { count: usize },

    // -- refactoring -----------------------------------------------------
    /// `Refactor <kind> …`: a semantic refactor across the project.
    Refactor(Refactoring),
    /// `Preview [Diff] Refactor <kind> …`: what it would change, changing nothing.
    Preview {
        diff: bool,
        refactoring: Refactoring,
    },
    /// `Apply`: the refactor a preview (`Set Preview on`) waits on.
    Apply,
    /// `Discard`: drops the refactor a preview waits on.
    Discard,

    // -- scripts -----------------------------------------------------------
    /// A message whose text is a script (`foreach …`, `let …`, `{ … }`:
    /// see `docs/SCRIPTING.md`), as written: parsed and checked when it
    /// runs, with the variables earlier messages of the session defined.
    Script { text: String, mode: ScriptMode },

    // -- help ------------------------------------------------------------
    /// `Help [<command>]`
    Help { topic: Option<String> },
}

/// A per-session preference set with `Set`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionOption {
    /// `Set Format terse|json`
    ResponseFormat(ResponseFormat),
    /// `Set Limit <n>`: the output budget in characters before tiers shorten it.
    OutputLimit(usize),
    /// `Set Replies brief|full`
    Replies(ReplyDetail),
    /// `Set Preview on|off`: refactors show their preview and wait for
    /// `Apply` or `Discard`.
    Preview(bool),
    /// `Set Progress on|off`: long commands say how far they are on the
    /// transport's progress channel (NATS: `<prefix>.<name>.progress.<sender>`).
    Progress(bool),
}

/// How much a success reply says: everything, or only what the sender did
/// not already know (`Set Replies brief`; see `reply::Clause::is_confirmation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplyDetail {
    #[default]
    Full,
    Brief,
}

/// How replies are rendered for a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResponseFormat {
    #[default]
    Terse,
    Json,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GotoTarget {
    /// `Goto <line>:<col>`
    Position(Position),
    /// `Goto <line>`
    Line(usize),
    StartOfFile,
    EndOfFile,
    StartOfLine,
    EndOfLine,
    StartOfFunction,
    EndOfFunction,
    StartOfClass,
    EndOfClass,
    /// `Goto Function <f>` / `Class <C>` / `Method <C>.<m>`
    Code(CodeTarget),
    /// `Goto <bookmark>`
    Bookmark(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FindDirection {
    #[default]
    Next,
    Prev,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolQuery {
    References,
    Definition,
    Callers,
}

/// A search pattern: `"text"` (literal) or `/regex/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    Text(String),
    Regex(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReplaceMode {
    /// The next match from the cursor.
    #[default]
    Next,
    All,
    /// Walk the matches, asking `y`/`n`/`q` for each.
    Confirm,
}

/// Where `Replace … In <scope>` looks: a code element or a line range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// `In Function f`, `In Method C.m`, `In Class C`, `In Variable v`
    Code(CodeTarget),
    /// `In Block a:b`
    Block(LineRange),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShowTarget {
    Line(usize),
    Block(LineRange),
    Current,
    Code(CodeTarget),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalyzeTarget {
    File,
    Code(CodeTarget),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalysisKind {
    Dependencies,
    Complexity,
    Structure,
    Issues,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeleteTarget {
    /// `Delete Line [<count>]`: `count` lines from the cursor's line.
    Lines {
        count: usize,
    },
    Block(LineRange),
    Current,
    Code(CodeTarget),
}
