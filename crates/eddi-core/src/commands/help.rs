//! The command table: one row per command, used by the parser (usage lines in
//! errors, suggestions for unknown names), by `Help`, and to generate the
//! reference section of `docs/COMMANDS.md` (a test keeps them equal).

use std::ops::Deref;
use std::sync::LazyLock;

use super::error::{excerpt, ParseError, Span};

/// One command of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandSpec {
    /// The command word as written in docs (`Goto`); matched case-insensitively.
    pub name: &'static str,
    /// Where the command belongs in the reference.
    pub group: &'static str,
    /// The full syntax, one line.
    pub usage: &'static str,
    /// What it does, one line.
    pub summary: &'static str,
    /// The success reply shape(s).
    pub reply: &'static str,
    /// Typical failures (beyond parse errors).
    pub failures: &'static str,
    /// Example commands, separated by `; `.
    pub examples: &'static str,
}

/// Every command, in reference order. The `Command` enum has one variant
/// (or a few, e.g. `Find` and `FindSymbol`) per row.
pub static COMMANDS: CommandTable = CommandTable(&TABLE);

/// The command table: [`ROWS`], with the `Refactor` row's usage,
/// examples, reply and failures made of the registry of refactoring kinds
/// (`refactor::kinds`).
#[derive(Clone, Copy)]
pub struct CommandTable(&'static LazyLock<Vec<CommandSpec>>);

impl Deref for CommandTable {
    type Target = [CommandSpec];

    fn deref(&self) -> &[CommandSpec] {
        self.0
    }
}

impl IntoIterator for CommandTable {
    type Item = &'static CommandSpec;
    type IntoIter = std::slice::Iter<'static, CommandSpec>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

static TABLE: LazyLock<Vec<CommandSpec>> = LazyLock::new(|| {
    ROWS.iter()
        .map(|row| match row.name {
            "Refactor" => CommandSpec {
                usage: REFACTOR_USAGE.as_str(),
                examples: REFACTOR_EXAMPLES.as_str(),
                reply: REFACTOR_REPLIES.as_str(),
                failures: REFACTOR_FAILURES.as_str(),
                ..*row
            },
            _ => *row,
        })
        .collect()
});

/// `Refactor RenameSymbol … | Rename_Class … | …`, from the kinds' usages.
static REFACTOR_USAGE: LazyLock<String> = LazyLock::new(crate::refactor::kinds::usage);

/// `Refactor RenameSymbol chunked batched; …`, from the kinds' examples.
static REFACTOR_EXAMPLES: LazyLock<String> = LazyLock::new(crate::refactor::kinds::examples);

/// `Ok, Renamed in … | Ok, Signature updated, …`, from the kinds' replies.
static REFACTOR_REPLIES: LazyLock<String> = LazyLock::new(crate::refactor::kinds::replies);

/// `Fail "Cannot rename …"; …`, from the kinds' failures.
static REFACTOR_FAILURES: LazyLock<String> = LazyLock::new(crate::refactor::kinds::failures);

/// The rows as written; see [`COMMANDS`].
static ROWS: &[CommandSpec] = &[
    // -- sessions --
    CommandSpec {
        name: "Start",
        group: "Sessions",
        usage: "Start <name> [\"<description>\"]",
        summary: "Starts a session (a name of 1-64 of A-Z a-z 0-9 _ . -), or continues your own of that name, so a script that starts with it runs again",
        reply: "Ok | Ok, Continued session '<name>' (your own session of that name)",
        failures: "Fail \"You already have session '<current>'. End it first: End <current>\"; Fail \"Session already exists: <name>. Choose another name\" (another sender's); Fail \"Invalid session name '<name>' ...\"",
        examples: "Start refactor_session \"Refactoring user authentication module\"",
    },
    CommandSpec {
        name: "End",
        group: "Sessions",
        usage: "End [<name>] [Force]",
        summary: "Ends the current or named session, closing its files; End <name> Force ends another sender's session (operators only), keeping its unsaved edits as drafts (see Recover)",
        reply: "Ok, Session saved; Ok, Session t ended (sender b), Unsaved edits kept as drafts: .eddi/drafts/t/a.py (List Drafts From t lists them, Recover <file> From t takes one back)",
        failures: "Fail \"Session not found: <name>. Sessions: ...\"; Fail \"Session '<name>' belongs to another sender; End <name> Force ends it (operators only)\"",
        examples: "End; End refactor_session; End abandoned_session Force",
    },
    CommandSpec {
        name: "Summary",
        group: "Sessions",
        usage: "Summary [<name>]",
        summary: "Summarises the changes of the current or named session",
        reply: "Ok: Created a.py (156 bytes), Modified 2 files, Added 45 lines, Deleted 12 lines, 1 class created (C), 2 methods created (C.f, C.g)",
        failures: "Fail \"Session not found: <name>\"",
        examples: "Summary; Summary refactor_session",
    },
    CommandSpec {
        name: "Status",
        group: "Sessions",
        usage: "Status",
        summary: "Reports the session, current file and cursor, and what waits for an answer",
        reply: "Ok: Session <name>, File <path>, At l:c[, Modified][, <n> files open][, Replace Confirm waiting in <path> (y/n/q)][, Refactor <refactoring> waiting for Apply (writes it if its files have not changed since the preview) or Discard (drops it)][, Replace All … In Files \"<glob>\" waiting for Apply … or Discard …][, <n> changesets not applied (<names>): apply changeset <name> writes one]",
        failures: "",
        examples: "Status",
    },
    CommandSpec {
        name: "Set",
        group: "Sessions",
        usage: "Set Format terse|json | Set Limit <n> | Set Replies brief|full | Set Preview on|off | Set Progress on|off",
        summary: "Sets a session preference: reply format, output limit in chars (n >= 1), brief replies (a success that only confirms what was asked is just Ok), preview mode (a refactor, or a Replace All … In Files, shows its preview and waits for Apply or Discard), or progress (a long script says how far it is on the service's progress subject, <prefix>.<name>.progress.<sender>)",
        reply: "Ok[, Limit capped at <n> chars: …] (capped where no reply could carry it)",
        failures: "",
        examples: "Set Format json; Set Limit 4000; Set Replies brief; Set Preview on; Set Progress on",
    },
    CommandSpec {
        name: "Push",
        group: "Sessions",
        usage: "Push Context",
        summary: "Saves the current file and cursor on the context stack",
        reply: "Ok, Context depth <n>",
        failures: "",
        examples: "Push Context",
    },
    CommandSpec {
        name: "Pop",
        group: "Sessions",
        usage: "Pop Context",
        summary: "Returns to the file and cursor saved by Push Context",
        reply: "Ok, File <path>, At l:c",
        failures: "Fail \"No context to pop. Save one with: Push Context\"",
        examples: "Pop Context",
    },
    CommandSpec {
        name: "Recover",
        group: "Sessions",
        usage: "Recover <file> [From <session>]",
        summary: "Takes back a draft: the unsaved edits a session released (idle past session_idle_release_minutes, or ended by End <name> Force) become the unsaved buffer of the file again, one undo step over its text on disk; nothing is written (Save writes it, Undo drops it) and the draft is removed. Drafts belong to a session's name: yours, or (operators only) From another. List Drafts lists them",
        reply: "Ok, Recovered a.py from the draft kept <time> (+3 -1 lines), At l:c, Length <lines>[, Notice: a.py changed on disk since the draft was kept: …]",
        failures: "Fail \"No draft of <file> in session <s>; drafts: a.py, b.py\"; Fail \"<file> has unsaved edits in this session: Save or Close it first; the draft is kept\"; Fail \"Permission denied: <sender> is not an operator; Recover From is for operators ...\"",
        examples: "Recover src/auth.py; Recover a.py From abandoned_session",
    },
    // -- files --
    CommandSpec {
        name: "Open",
        group: "Files",
        usage: "Open [Create] [<dir>/] <file>",
        summary: "Opens a file (Create: a new one) and makes it current; a dir word and a file word are joined",
        reply: "Ok, At 0:0, Length <lines>",
        failures: "Fail \"File not found\"; Fail \"Permission denied\"; path outside the workspace; binary file",
        examples: "Open Create src/auth user_manager.py; Open src/auth/user_manager.py; Open \"my notes.txt\"",
    },
    CommandSpec {
        name: "Save",
        group: "Files",
        usage: "Save [Close] [Force] [<file>] | Save All [Force]",
        summary: "Saves the current or named file atomically; Close closes it after; Force overwrites a file changed on disk. Save All saves every modified open file as one commit: all of them or none",
        reply: "Ok, Bytes <n>[, 1 syntax error at 4:8] | Ok, No changes to save, closed | Ok, Saved <n> files: <paths>, Bytes <n>[, a.py: 1 syntax error at 4:8]",
        failures: "Fail \"No changes to save in <path>\"; Fail \"<path> changed on disk since it was opened; Save Force overwrites it ...\"; Fail \"Conflict: <paths> changed on disk since it was read; nothing was written ...\"; Fail \"The save changes lines other sessions have unsaved edits on: a.py line 3 (session t); nothing was written ... Save Force writes over them\"",
        examples: "Save; Save Close user_manager.py; Save Force; Save All",
    },
    CommandSpec {
        name: "Close",
        group: "Files",
        usage: "Close [<file>]",
        summary: "Closes the current or named file without saving",
        reply: "Ok | Ok, Unsaved changes discarded",
        failures: "Fail \"File not open: <file>. Open: ...\"",
        examples: "Close; Close user_manager.py",
    },
    CommandSpec {
        name: "List",
        group: "Files",
        usage: "List [Open] [<glob>] | List Sessions | List Drafts [From <session>] | List Changesets",
        summary: "Lists workspace files (gitignore-aware) matching a glob or under a directory, or only the open ones; List Sessions lists every active session with its sender, idle time and files with unsaved edits (operators only); List Drafts lists your session's drafts (From another session: operators only), each with when it was kept, its size and whether the file changed on disk since (Recover takes one back); List Changesets lists your session's named changesets (a script's collect changes as), each with its state and files",
        reply: "Ok: file1.py, file2.py | Ok: 3 files | Ok: No files match '<glob>' | Ok: 2 sessions: s (sender a, idle 5 s, no unsaved edits); t (sender b, idle 42 min, unsaved: a.py) | Ok: 2 drafts of session t: a.py (kept 2026-12-04T19:30:00Z, 12 lines, 301 bytes, unchanged on disk); b.py (kept …, changed on disk since) | Ok: No drafts of session t | Ok: 1 changeset: auth_migration (not applied, 45 files) | Ok: No changesets",
        failures: "Fail \"Permission denied: <sender> is not an operator ...\"",
        examples: "List; List **/*.py; List src; List Open; List Sessions; List Drafts; List Drafts From abandoned_session; List Changesets",
    },
    // -- navigation --
    CommandSpec {
        name: "Goto",
        group: "Navigation",
        usage: "Goto <line>:<col> | <line> | StartOfFile | EndOfFile | StartOfLine | EndOfLine | StartOfFunction | EndOfFunction | StartOfClass | EndOfClass | Function <f> | Class <C> | Method <C>.<m> | Variable <v> | <bookmark>",
        summary: "Moves the cursor",
        reply: "Ok, At l:c",
        failures: "Fail \"Line 99 out of range: valid lines are 0..41\"; Fail \"Not in function/class\"",
        examples: "Goto 12:4; Goto 12; Goto EndOfClass; Goto Method UserManager.authenticate; Goto Variable login.user; Goto mark1",
    },
    CommandSpec {
        name: "Find",
        group: "Navigation",
        usage: "Find [Next|Prev|All] \"<text>\"|/<regex>/ | Find All \"<text>\"|/<regex>/ In Files \"<glob>\" | Find References|Definition|Callers <symbol>",
        summary: "Searches the current file from the cursor (wraps); or every file of the workspace matching a glob (gitignore-aware, your unsaved buffers included); or queries the symbol index",
        reply: "Ok, At l:c[, Wrapped] | Ok: Found 3 matches at 45:4, 67:0, 89:12 | Ok: Found 2 matches, with lines, searched 40 files[, skipped 1 file: x.py (binary)], Txt a.py:3:4: x = timeout\\nb/c.py:0:0: timeout = 1 (tiers as below) | Ok: Found 2 references[ and 1 possible], with lines, Txt pkg/cli.py:8:4: login(u)\\npkg/a.py:0:27: from pkg.auth import login[\\npossible:\\n...] | Ok: Found 1 definition, with lines, Txt pkg/a.py:3:0 function pkg.a.f: def f(x): | Ok: Found 2 callers, with lines, Txt pkg/cli.py:8:4 in pkg.cli.main: f(1)\\n... | over the output limit: Ok: Found 300 references, positions only (...): pkg/cli.py:8:4, ... | ..., counts per file (...): pkg/cli.py 12, ... | Ok: Found 30000 references in 400 files (too many to list ...)",
        failures: "Fail \"Not found: 'x'\"; Fail \"Not found: symbol 'x'. Closest: ...\" (or: Members of pkg.C: ...; in the brace languages' index: Did you mean: …?, else Available: C.a, C.b, the members of the type the name starts with, else No JavaScript, TypeScript, Go, Rust or Java file of the project defines it); Fail \"Ambiguous symbol 'x': ...; use a qualified name\"; a name no longer defined: Ok: Found 0 references (no definition of 'x' in the project); 2 unresolved: ...",
        examples: "Find \"self.users\"; Find All /def \\w+/; Find Prev \"x\"; Find All \"timeout=\" In Files \"*.py\"; Find All /def get_\\w+/ In Files \"src/**/*.py\"; Find References UserManager.authenticate",
    },
    CommandSpec {
        name: "Replace",
        group: "Navigation",
        usage: "Replace [All|Confirm] \"<text>\"|/<regex>/ With \"<text>\" [In Function <f> | Method <C>.<m> | Class <C> | Variable <v> | Block <a>:<b>] | [Preview] Replace All \"<text>\"|/<regex>/ With \"<text>\" In Files \"<glob>\"",
        summary: "Replaces the next match, all matches, or walks them asking y/n/q, in the file or only In a scope; with a /regex/, $1, ${1}, ${name} are groups and $$ is a $; with \"text\" the replacement is literal. In Files replaces every match in the workspace's files matching the glob (as Find All In Files lists them) as one commit and one undo step, checked as a refactor is (permissions, unsaved edits); Preview only counts; in preview mode (Set Preview on) it previews and waits for Apply, as a refactor does",
        reply: "Ok, Replaced <n> occurrences, At l:c[, Wrapped] | Ok, At l:c, Replace? (y/n) | Ok, Replaced <n> occurrences in <k> files (a.py, b.py, …)[, searched 40 files, skipped 1 file: x.py (binary)] | Ok, Preview: Would replace <n> occurrences in <k> files: a.py (3), b.py (1)[, Apply or Discard (Set Preview on)]",
        failures: "Fail \"Pattern not found: 'x'\"; Fail \"Unknown group '$costs' in the replacement ... Write $$ for a literal $ ...\"; Fail \"Pattern not found in function f: 'x' (2 matches elsewhere in the file)\"; Fail \"Not found: 'x' in the files matching \\\"*.py\\\" (searched 40 files)\"; Fail \"The replacement must change a.py, which has unsaved edits: Save or Undo them first; nothing was changed\"; Fail \"The replacement changes lines other sessions have unsaved edits on: ...\"",
        examples: "Replace \"foo\" With \"bar\"; Replace All /(\\w+)_id/ With \"${1}Id\"; Replace Confirm \"x\" With \"y\"; Replace All \"a\" With \"b\" In Function f; Replace All /\\bi\\b/ With \"n\" In Block 10:20; Replace All \"timeout=\" With \"timeout_s=\" In Files \"src/**/*.py\"; Preview Replace All /(\\w+)_id/ With \"${1}Id\" In Files \"*.py\"",
    },
    CommandSpec {
        name: "Bookmark",
        group: "Navigation",
        usage: "Bookmark <name> [<line>:<col>]",
        summary: "Names the cursor (or a position) for Goto <name>",
        reply: "Ok, Bookmark <name> at l:c",
        failures: "",
        examples: "Bookmark mark1; Bookmark init 1:4",
    },
    // -- inspection --
    CommandSpec {
        name: "Show",
        group: "Inspection",
        usage: "Show Line <n> | Block <a>:<b> | Current | Function <f>[(<params>)] | Class <C> | Method <C>.<m>[(<params>)] | Variable <v> [<context_lines>]",
        summary: "Shows code and moves the cursor there; context lines default to 0 (see Editing rules); a Block past the end is clamped",
        reply: "Ok: At l:c, Txt <text with \\n escaped> | Ok: At l:c, Lines a:b, Txt <text> (with context)",
        failures: "Fail \"Not found: function 'x'. Available: ...\"; Fail \"Ambiguous match: 'x' at 3:4 (Method A.x), 9:4 (Method B.x); name one of them as listed\"; Fail \"Line 9 out of range: valid lines are 0..5\"",
        examples: "Show Line 3; Show Block 0:9; Show Current 5; Show Function __init__(); Show Method Text.plain.setter; Show Variable login.user",
    },
    CommandSpec {
        name: "Analyze",
        group: "Inspection",
        usage: "Analyze File | Function <f> | Class <C> | Method <C>.<m> [Dependencies|Complexity|Structure|Issues]",
        summary: "Reports dependencies, complexity, structure or issues of code",
        reply: "Ok: Function f has complexity 8, uses 3 external dependencies, 2 potential issues found | Ok: Function f has complexity 8 | Ok: Function f uses 1 external dependency: json; builtins: open | Ok: Function main uses 2 external dependencies: fmt (Println), strings (ToUpper); internal: helper; builtins: len (JavaScript, TypeScript, Go, Rust, Java: each source with the names read through it) | Ok: 2 potential issues: 4:15 mutable default argument 'cache=[]', 7:4 bare 'except:' | Ok: Class C: method f at 4:4, ...",
        failures: "Fail \"Not found\"",
        examples: "Analyze File Structure; Analyze Function login Complexity",
    },
    CommandSpec {
        name: "Validate",
        group: "Inspection",
        usage: "Validate [File | Function <f> | Class <C> | Method <C>.<m> | Variable <v>]",
        summary: "Checks the current file or a code element for what CPython refuses to compile",
        reply: "Ok: No syntax errors | Ok: 1 syntax error: 4:11 missing ')' | Ok: 2 syntax errors: 0:11 non-default argument follows default argument, 3:0 'return' outside function",
        failures: "",
        examples: "Validate; Validate Class UserManager",
    },
    CommandSpec {
        name: "Diff",
        group: "Inspection",
        usage: "Diff [<file>]",
        summary: "Unified diff of the current or named file against disk",
        reply: "Ok: +15 -8 lines[, 3 methods modified (C.f, ...)], Txt <unified diff, \\n escaped> | Ok: No changes in <path>",
        failures: "Fail \"File not open: <file>\"",
        examples: "Diff; Diff src/auth/user_manager.py",
    },
    // -- modification --
    CommandSpec {
        name: "Insert",
        group: "Modification",
        usage: "Insert Line|Block|Function|Method|Class|Import \"<text>\"",
        summary: "Inserts text: Line before the cursor's line (after it at the end of a line), Block at the cursor; the cursor moves to its end",
        reply: "Ok, Inserted <n> lines at <l>, At l:c | Ok, Merged into line <l>, At l:c (Import) | Ok, Nothing inserted: already imported, At l:c",
        failures: "Fail \"No file open\"; Fail \"Refused, nothing changed: the file would no longer be valid Python: …\" (Function, Method, Class, Import)",
        examples: "Insert Line \"import os\"; Insert Block \"class A:\\n    pass\\n\"",
    },
    CommandSpec {
        name: "Delete",
        group: "Modification",
        usage: "Delete Line [<count>] | Block <a>:<b> | Current | Function <f> | Method <C>.<m> | Class <C>",
        summary: "Deletes lines from the cursor's line, a line range, the current line or a code element",
        reply: "Ok, Deleted <n> lines at <l>, At l:c[, still used: 2 references (b.py:3, …)]",
        failures: "Fail \"Not found: function 'f' ...[; f is defined in b.py: Open b.py first]\"; Fail \"Block 4:99 is past the end of the file: the last line is 41; write Block 4:41\"; Fail \"Cannot delete 3 lines from line 40: only 2 lines left to the end ...\"; Fail \"Cannot delete Sq.Shape.area alone: Shape.area overrides it, implements it or is overridden by it; deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block 7:9\"",
        examples: "Delete Line; Delete Line 3; Delete Block 4:9; Delete Method UserManager.login",
    },
    CommandSpec {
        name: "Modify",
        group: "Modification",
        usage: "Modify Function|Method|Class|Variable <name> Rename <new> | AddParam \"<param>\" [At <index>] | RemoveParam <name> | ChangeSignature \"<params>\" | AddDecorator \"@<decorator>\" (Rust: \"#[<attribute>]\") | SetVisibility public|protected|private",
        summary: "Changes a code element",
        reply: "Ok, Modified method C.f (2 edits), At l:c[, not changed: 5 references in other files (b.py:3, …); cross-file rename: Refactor RenameSymbol pkg.a.C.f g][, calls not updated: 2 (a.py:4, …)] | Ok, Modified method C.f (1 edit), replace=True placed at 2 instead of 1: …, At l:c",
        failures: "Fail \"Not found\"; Fail \"No change: f already has the decorator @cache\"; Fail \"Refused, nothing changed: the file would no longer be valid Python: …\"; Fail \"Cannot remove parameter 'a' of helper: the body reads it (at 3:8); change the body first\"",
        examples: "Modify Function login Rename sign_in; Modify Variable login.user Rename account; Modify Method A.f AddParam \"timeout=30\" At 1; Modify Function helper AddParam \"c bool\"",
    },
    CommandSpec {
        name: "Comment",
        group: "Modification",
        usage: "Comment Function <f> | Class <C> | Method <C>.<m> | Variable <v> \"<text>\" [Line|Block|Docstring] [Replace]",
        summary: "Adds a comment (default Line) to a code element; Replace replaces its docstring or attached comment",
        reply: "Ok, Comment added to function f, At l:c | Ok, Docstring added to method C.f, At l:c | Ok, Docstring replaced on function f (was 9 lines), At l:c",
        failures: "Fail \"Not found\"; Fail \"Function f already has a docstring (…); to replace it: Comment Function f … Docstring Replace\"",
        examples: "Comment Function login \"Checks the password\" Docstring; Comment Function get \"Fetch a URL.\" Docstring Replace",
    },
    CommandSpec {
        name: "Format",
        group: "Modification",
        usage: "Format [File | Function <f> | Class <C> | Method <C>.<m> | Variable <v>] [<style>]",
        summary: "Formats the current file or a code element",
        reply: "Ok, Formatted, <a> -> <b> lines, At l:c | Ok, Already formatted, At l:c",
        failures: "Fail \"Unknown style 'yapf'. Valid: ruff, black, or a line length (Format 100)\"; Fail \"No formatter found: black is not installed (pip install black); …\"",
        examples: "Format; Format File black; Format Class UserManager",
    },
    CommandSpec {
        name: "Undo",
        group: "Modification",
        usage: "Undo [<count>]",
        summary: "Undoes the last count (default 1) edits of the current file; a step that changed several files (a refactor) in all of them at once, a committed one from the disk whether its files are open or not",
        reply: "Ok, Undid <n>, At l:c[, Also in b.py]",
        failures: "Fail \"Nothing to undo in <path>\"; Fail \"Cannot undo the step that changed a.py, b.py: b.py changed on disk since the step wrote it\"; Fail \"The undo changes lines other sessions have unsaved edits on: b.py line 3 (session t); nothing was written ...\"",
        examples: "Undo; Undo 3",
    },
    CommandSpec {
        name: "Redo",
        group: "Modification",
        usage: "Redo [<count>]",
        summary: "Redoes the last count (default 1) undone edits",
        reply: "Ok, Redid <n>, At l:c",
        failures: "Fail \"Nothing to redo\"",
        examples: "Redo; Redo 2",
    },
    // -- refactoring --
    CommandSpec {
        name: "Refactor",
        group: "Refactoring",
        // every kind's usage, from the registry (`REFACTOR_USAGE`)
        usage: "Refactor <kind> …",
        summary: "A semantic refactor across the project, written as one all-or-nothing commit and undone as one step; names are plain (f), dotted (C.m) or qualified (pkg.mod.f), looked up in the current file first; lines are zero-based and inclusive; kinds are case- and underscore-insensitive",
        // every kind's reply and failures, from the registry
        // (`REFACTOR_REPLIES`, `REFACTOR_FAILURES`)
        reply: "",
        failures: "",
        // every kind's example, from the registry (`REFACTOR_EXAMPLES`)
        examples: "",
    },
    CommandSpec {
        name: "Preview",
        group: "Refactoring",
        usage: "Preview [Diff] Refactor <kind> … | Preview [Diff] Replace All … In Files \"<glob>\"",
        summary: "Computes a refactor and checks it, changing nothing: the files it would modify with its counts, and with Diff the unified diff; Preview [Diff] Replace All … In Files counts the occurrences per file, with Diff the unified diff too (see Replace)",
        reply: "Ok, Preview: Would modify <n> files: a.py, b.py, <counts>[, Txt <unified diff>] | Ok, Preview: Would replace <n> occurrences in <k> files: a.py (3), b.py (1)[, Txt <unified diff>]",
        failures: "the failures of Refactor",
        examples: "Preview Refactor Rename_Class UserManager AccountManager; Preview Diff Refactor RenameSymbol f g; Preview Diff Replace All \"timeout=\" With \"timeout_s=\" In Files \"*.py\"",
    },
    CommandSpec {
        name: "Apply",
        group: "Refactoring",
        usage: "Apply",
        summary: "Applies the refactor or the Replace All … In Files a preview is waiting on (Set Preview on), after checking that no file it changes moved on since the preview (a waiting replacement writes exactly the change it previewed)",
        reply: "the reply of the Refactor or the Replace All … In Files",
        failures: "Fail \"No refactor is waiting …\"; Fail \"<file> changed since the preview …\"; Fail \"The replacement must change <file>, which has unsaved edits since the preview …\"",
        examples: "Apply",
    },
    CommandSpec {
        name: "Discard",
        group: "Refactoring",
        usage: "Discard",
        summary: "Drops the refactor or the Replace All … In Files a preview is waiting on",
        reply: "Ok, Discarded <kind> | Ok, Discarded Replace All \"<text>\" With \"<text>\" In Files \"<glob>\"",
        failures: "Fail \"No refactor is waiting …\"",
        examples: "Discard",
    },
    // -- help --
    CommandSpec {
        name: "Help",
        group: "Help",
        usage: "Help [<command>]",
        summary: "Lists the commands, or gives one command's usage",
        reply: "Ok: <usage> - <summary>",
        failures: "Fail \"Unknown command '<x>'. Did you mean: ...?\"",
        examples: "Help; Help Goto",
    },
];

/// The row for `name`, case-insensitively.
pub fn lookup(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// Terse help: without a topic, the command names; with one, its usage and
/// summary. An unknown topic is the same error as an unknown command.
pub fn help(topic: Option<&str>) -> Result<String, ParseError> {
    match topic {
        None => Ok(format!(
            "Commands: {}. Help <command> for usage",
            command_names().join(", ")
        )),
        Some(topic) => match lookup(topic) {
            Some(spec) => Ok(format!("{} - {}", spec.usage, spec.summary)),
            None => Err(unknown_command(topic, Span::default())),
        },
    }
}

/// All command names in table order.
pub fn command_names() -> Vec<&'static str> {
    COMMANDS.iter().map(|c| c.name).collect()
}

/// `Unknown command 'Opn'. Did you mean: Open?`, or the list of commands
/// when nothing is close.
pub(crate) fn unknown_command(word: &str, span: Span) -> ParseError {
    let names = command_names();
    let close = suggest(word, &names);
    let message = if close.is_empty() {
        format!(
            "Unknown command '{}'. Commands: {}",
            excerpt(word),
            names.join(", ")
        )
    } else {
        format!(
            "Unknown command '{}'. Did you mean: {}?",
            excerpt(word),
            close.join(", ")
        )
    };
    // as the message: the close names, else all
    let candidates = if close.is_empty() { names } else { close };
    ParseError::new(message, span).with_candidates(candidates)
}

/// `close` and then the other `all`, for a parse error's candidates.
pub(crate) fn closest_first<'c>(close: &[&'c str], all: &[&'c str]) -> Vec<&'c str> {
    let rest = all.iter().filter(|name| !close.contains(name));
    close.iter().chain(rest).copied().collect()
}

/// The candidates close to `word` (case-insensitive), best first, at most
/// three ([`crate::choices::closest`]).
pub fn suggest<'c>(word: &str, candidates: &[&'c str]) -> Vec<&'c str> {
    let close = crate::choices::closest(word, candidates, 3);
    close
        .iter()
        .filter_map(|c| candidates.iter().copied().find(|x| x == c))
        .collect()
}

/// The generated reference section of `docs/COMMANDS.md`: one subsection
/// per command, grouped, in table order.
pub fn reference_markdown() -> String {
    let mut out = String::new();
    let mut group = "";
    for spec in COMMANDS {
        if spec.group != group {
            group = spec.group;
            out.push_str(&format!("\n## {group}\n"));
        }
        out.push_str(&format!("\n### {}\n\n{}.\n\n", spec.name, spec.summary));
        out.push_str(&format!("- Syntax: `{}`\n", spec.usage));
        out.push_str(&format!("- Reply: `{}`\n", spec.reply));
        if !spec.failures.is_empty() {
            let failures: Vec<String> = spec
                .failures
                .split("; ")
                .map(|f| {
                    if f.starts_with("Fail") {
                        format!("`{f}`")
                    } else {
                        f.to_string()
                    }
                })
                .collect();
            out.push_str(&format!("- Failures: {}\n", failures.join(", ")));
        }
        let examples: Vec<String> = spec
            .examples
            .split("; ")
            .map(|e| format!("`{e}`"))
            .collect();
        out.push_str(&format!("- Examples: {}\n", examples.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_names_or_gives_usage() {
        let all = help(None).unwrap();
        assert!(all.starts_with("Commands: Start, End, Summary"));
        assert_eq!(
            help(Some("goto")).unwrap(),
            format!("{} - Moves the cursor", lookup("Goto").unwrap().usage)
        );
        assert_eq!(
            help(Some("Opn")).unwrap_err().message,
            "Unknown command 'Opn'. Did you mean: Open?"
        );
    }

    #[test]
    fn suggestions_are_close_names() {
        assert_eq!(suggest("Opn", &command_names()), vec!["Open"]);
        assert_eq!(suggest("gtoo", &command_names()), vec!["Goto"]);
        assert!(suggest("xyzzy", &command_names()).is_empty());
        assert_eq!(
            suggest("Funtion", &["Line", "Function", "Class"]),
            vec!["Function"]
        );
    }

    #[test]
    fn refactor_usage_and_examples_are_the_registrys() {
        assert_eq!(
            lookup("Refactor").unwrap().examples,
            "Refactor RenameSymbol chunked batched; Refactor Rename_Class UserManager AccountManager; Refactor Rename_Param connect timeout timeout_s; Refactor Signature authenticate(username) authenticate(username, timeout=30); Refactor Extract_Method calculate_total lines 45:52; Refactor Inline_Variable temp_result; Refactor Extract_Interface PaymentProcessor Payable; Refactor Change_Inheritance AdminUser User StaffUser; Refactor Pull_Up CardPayment.fee,CardPayment.rate; Refactor Push_Down Payment.refund; Refactor Merge_Classes User Profile Account; Refactor Move_Method User.validate UserValidator; Refactor Split_Class User UserRules MAX_NAME,parse; Refactor ExtractClass User UserRules parse,render"
        );
        assert_eq!(
            lookup("Refactor").unwrap().usage,
            "Refactor RenameSymbol <name> <new> [Include Text] [Include Possible | Only Proven] | Rename_Class <Old> <New> [Include Text] [Include Possible | Only Proven] | Rename_Param <function> <param> <new> [Include Text] [Only Proven] | Signature <f>(<old params>) <f>(<new params>) [Only Proven] | Extract_Method <name> lines <a>:<b> | ExtractFunction <name> lines <a>:<b> | Inline_Variable <name> | InlineFunction <name> | Extract_Interface <Class> <Interface> [Protocol] | Change_Inheritance <Class> <OldParent> <NewParent> | Pull_Up <Class.member,…> | Push_Down <Class.member> | Merge_Classes <Class1> <Class2> <Target> | Move_Method <Class.method> <Target> | Split_Class <Class> <NewClass> <member,…> | ExtractClass <Class> <NewClass> <member,…>"
        );
    }

    #[test]
    fn table_lines_are_single_lines() {
        for c in COMMANDS {
            for field in [c.usage, c.summary, c.reply, c.failures, c.examples] {
                assert!(!field.contains('\n'), "{}: {field}", c.name);
            }
            assert!(c.usage.starts_with(c.name), "{}", c.name);
        }
    }
}
