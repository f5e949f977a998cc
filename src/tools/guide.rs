//! The guide for models (`eddi://guide` over MCP, `mizuki.eddi.guide` over
//! NATS): what Eddi is, how sessions and the cursor work, the tools, every
//! command with an example, and how to recover from the common failures.
//! Generated from the command table (`commands::help::COMMANDS`) and the tool
//! registry, so it names every command and tool there is and no other.

use crate::commands::help::COMMANDS;

use super::tools;

/// The commands an agent needs first, in the order to learn them.
const FIRST: &[&str] = &[
    "Start", "Open", "Show", "Find", "Goto", "Insert", "Delete", "Replace", "Modify", "Save",
    "Undo", "Validate", "Analyze", "Diff", "Summary", "Help",
];

/// The common failures and what to do about each.
const RECOVERY: &[(&str, &str)] = &[
    ("No session", "the tools start one for you; in commands, `Start <name>` first"),
    ("File not found: <path>", "check the path with get_structure; create it with create_file or `Open Create <path>`"),
    ("Not found: '<name>'", "use one of the `candidates` (closest names first), or find_definition"),
    ("Ambiguous", "use the qualified form listed in `candidates` (`Class.method`, `f(a, b)`, `Name#2`)"),
    ("stale (expected_hash)", "the file changed since you read it: use `current_hash` and `current_text` from the error, or get_lines again"),
    ("Permission denied", "this sender is read-only or limited to some folders: the message names them; do not retry"),
    ("changed on disk", "another program wrote the file: read it again (get_lines), then edit"),
    ("has unsaved edits", "`Save` (or `Undo`) the session's buffer of that file first"),
    ("were released so that others may write", "your session sat idle and its unsaved edits were kept as drafts: `List Drafts`, then `Recover <file>` makes one your unsaved buffer again (a `Notice` says when the file changed since: check `Diff` before `Save`)"),
    ("invalid_params", "the `field` names the parameter to fix; an unknown field lists the valid ones"),
    ("Name conflict exists", "the new name is taken or would shadow one: choose another `new_name` (or `name`)"),
    ("Signature conflict detected", "`old_params` must be the current parameters, which the message shows: copy them"),
    ("Cannot extract / Cannot inline", "the refactor is not safe there, the message says why: pick other lines, or edit by hand"),
];

/// What a refactor changes, what it leaves, and what to check: the safety
/// contract as an agent acts on it.
const AFTER_A_REFACTOR: &str = "## After a refactor: what to check\n\n\
A refactor changes what it can show is the symbol, not every occurrence of \
the name. It sorts each use it finds:\n\n\
- *proven*: the index resolves it to the symbol. Changed.\n\
- *inferred*: not proven, but nothing else of that name could be meant. \
Changed, and listed (`inferred: …`): glance at each.\n\
- *possible*: may be the symbol or something else (an attribute of an object \
of unknown type, say). By default the refactor is **refused, nothing \
written**, and the `Fail` lists each site with why. Read them, then send it \
again with `Include Possible` (tool: `possible: \"include\"`) if they are all \
the symbol, or `Only Proven` (`possible: \"only_proven\"`) to leave them: the \
`Ok` then says `may be broken at: …`, and those sites are yours to fix.\n\
- *left alone*: uses it could not prove and did not change, each with why \
(`left alone: …`). Where one is the symbol, it still says the old name.\n\
- *mentions*: the name in strings, comments and docstrings, never changed \
unless `Include Text` (tool: `include_text: true`). Fix those that mean the \
symbol (`getattr(obj, \"name\")`, `__all__`, docs).\n\n\
In JSON (the tools, or `Set Format json`) the result carries the site lists \
`proven`, `inferred`, `possible`, `left_alone` (with `why`) and `mentions` \
(each site `path`, `line`, `col`, zero-based). After applying, check the \
sites those lists name (find_references on the new name, `Validate`), run \
the project's tests, and `undo` (or `Undo`) if it went wrong: the whole \
refactor is one step.\n";

/// Scripts: one message (or `run_script` call) for a systematic change,
/// with templates to copy.
const SCRIPTS: &str = "## Scripts: a systematic change in one message\n\n\
A message (or a `run_script` call) whose text starts with `foreach`, `let`, \
`if`, `use`, `try`, `on_error`, `collect`, `flag`, `add import|line`, \
`remove`, `apply changeset`, `preview changeset`, `rollback changeset` or \
`{` is a script (docs/SCRIPTING.md has the grammar). It runs against the \
project as the index sees it and writes everything as **one commit and one \
undo step**, or nothing: a statement that fails, an edit that clashes with \
an earlier one, or a result with a new syntax error or undefined name \
writes nothing and says where (`line:col`). Templates:\n\n\
- Change every call of a function (the index's proven calls, not \
same-named methods): `foreach caller of pkg.mod.f() replace with f($1, timeout=30)` \
(`$1` … positional arguments, `$name` a keyword one, `$*` all); add an \
argument to each: `foreach caller of pkg.mod.f() replace f() with f(timeout=30)`.\n\
- Review list, nothing written: `foreach function where complexity > 10 flag \"Split: \" + function.name` \
(`Ok, 3 functions flagged, Flagged: a.py:12: Split: load; …`).\n\
- Clean imports: `foreach file matching \"src/**/*.py\" { foreach import where unused { remove import } }`.\n\
- Add a module logger: `foreach file matching \"*.py\" { if imports logging and not contains \"logger =\" { add line \"logger = logging.getLogger(__name__)\" } }`.\n\
- Rewrite code by its shape (names by what they resolve to: the builtin `pow`, not a local one): \
`foreach match `pow($a, $b)` where $b.type is number replace with `$a ** $b`` \
(`$a` one expression, `$$$args` a run of them; operations put into operands get parentheses); \
inside an element: `foreach function f replace `print($$$a)` with `log($$$a)``.\n\
- Several steps, one undo: `{ foreach caller of users.UserManager.new() { replace with AccountManager.new() } rename_class UserManager LegacyUserManager }`.\n\
- Look before writing: end the script with `collect changes as name` \
(nothing written), then `preview diff changeset name`, `apply changeset \
name`, and later `rollback changeset name`; `List Changesets` lists them.\n\
- Keep elements for later messages: `let $big = methods in C where complexity > 8`, \
then `use $big flag \"review\"`.\n\n\
A query that the index cannot decide (a call it cannot prove) refuses the \
script naming the sites; qualify an ambiguous name (`caller of auth.login()`).\n";

/// The guide as Markdown.
pub fn guide() -> String {
    let mut out = String::new();
    out.push_str(
        "# Eddi: a guide for models\n\n\
Eddi is a code editor without a screen, for agents. It understands Python, \
JavaScript, TypeScript, Go, Rust and Java (tree-sitter): definitions, references, \
callers, complexity, syntax errors; each answer says which uses it proves. \
Use its JSON tools, or its terse command language through the `eddi` tool.\n\n\
## Sessions, files and positions\n\n\
- Everything you do happens in your *session*: open files (buffers), a cursor per \
file, undo history, bookmarks. The tools start a session for you on first use; it \
survives restarts of Eddi.\n\
- Paths are relative to the workspace root; nothing outside it (or in `.eddi/`) \
can be read or written.\n\
- Lines and columns are zero-based everywhere (`3:0` is the fourth line's start); \
get_lines numbers lines the same way, and edit_lines takes those numbers.\n\
- The edit tools save at once, each call one undo step; commands run through \
`eddi` edit the buffer until `Save`.\n\
- Read with a hash, edit with it: get_lines returns `hash`; pass it as \
`expected_hash` to edit_lines and a file that changed meanwhile is never \
overwritten.\n\
- Change code across files with the refactoring tools, not with many edits: \
call one with `preview: true` to see the diff, then again with \
`preview: false` to write every file at once (one undo step: `undo` takes it \
all back). Then check what it reports (below).\n\n",
    );
    out.push_str(AFTER_A_REFACTOR);
    out.push('\n');
    out.push_str(SCRIPTS);
    out.push_str("\n## Tools\n\n");
    for tool in tools() {
        let first = tool
            .description
            .split_once(". ")
            .map_or(tool.description, |(s, _)| s);
        out.push_str(&format!(
            "- `{}` ({}): {}.\n",
            tool.name,
            tool.effect.name(),
            first.trim_end_matches('.')
        ));
    }
    out.push_str(
        "\n## Commands (through the `eddi` tool)\n\n\
One or more per message, separated by `;` or newlines; they run in order and stop \
at the first `Fail`. Each answers one line: `Ok`, `Ok, <facts>`, `Ok: <text>` or \
`Fail \"<what to fix>\"`.\n\n### Most used\n\n",
    );
    let example = |examples: &str| examples.split("; ").next().unwrap_or("").to_owned();
    for name in FIRST {
        if let Some(spec) = COMMANDS.iter().find(|c| c.name == *name) {
            out.push_str(&format!(
                "- `{}` — {}. Example: `{}`\n",
                spec.usage,
                spec.summary,
                example(spec.examples)
            ));
        }
    }
    out.push_str("\n### The others\n\n");
    for spec in COMMANDS.iter().filter(|c| !FIRST.contains(&c.name)) {
        out.push_str(&format!(
            "- `{}` — {}. Example: `{}`\n",
            spec.usage,
            spec.summary,
            example(spec.examples)
        ));
    }
    out.push_str("\n## When something fails\n\n");
    for (failure, fix) in RECOVERY {
        out.push_str(&format!("- {failure}: {fix}.\n"));
    }
    out.push_str("\n`Help <command>` gives a command's full usage, replies and failures.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent learns what a refactor did not prove and how to check it.
    #[test]
    fn has_script_templates_that_parse() {
        let guide = guide();
        let template = r#"foreach function where complexity > 10 flag "Split: " + function.name"#;
        assert!(guide.contains(template), "{guide}");
        eddi_core::script::parse(template, &[]).unwrap();
        let template = r#"foreach file matching "*.py" { if imports logging and not contains "logger =" { add line "logger = logging.getLogger(__name__)" } }"#;
        assert!(guide.contains(template), "{guide}");
        eddi_core::script::parse(template, &[]).unwrap();
        let template =
            "foreach match `pow($a, $b)` where $b.type is number replace with `$a ** $b`";
        assert!(guide.contains(template), "{guide}");
        eddi_core::script::parse(template, &[]).unwrap();
    }

    #[test]
    fn says_what_to_check_after_a_refactor() {
        let guide = guide();
        for term in [
            "*proven*",
            "*inferred*",
            "*possible*",
            "refused, nothing written",
            "`Include Possible`",
            "`Only Proven`",
            "`Include Text`",
            "may be broken at",
            "`left_alone`",
            "`mentions`",
            "`proven`, `inferred`, `possible`",
        ] {
            assert!(guide.contains(term), "the guide never says {term}");
        }
        assert!(!guide.contains("everywhere it is used"));
    }

    #[test]
    fn names_every_command_and_every_tool() {
        let guide = guide();
        for spec in COMMANDS {
            assert!(
                guide.contains(&format!("- `{}", spec.usage)),
                "{} missing",
                spec.name
            );
        }
        for tool in tools() {
            assert!(
                guide.contains(&format!("- `{}` (", tool.name)),
                "{} missing",
                tool.name
            );
        }
        for name in FIRST {
            assert!(
                COMMANDS.iter().any(|c| c.name == *name),
                "{name} is no command"
            );
        }
    }
}
