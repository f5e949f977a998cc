//! What a command may do, as one classification every policy reads: the
//! NATS fast path (instant reads and moves skip the router's pool), the
//! permissions (a read-only sender runs nothing above [`Effect::Session`]),
//! the fsync policy (only commands that edit or write produce events that
//! are fsynced) and the agent tools' MCP hints (read-only, destructive,
//! idempotent: `tools::Tool`).
//!
//! The classification is a `match` over [`Command`], so the compiler makes
//! every new command state its effect; the reference in `docs/COMMANDS.md`
//! shows it per command.

use super::command::{
    AnalysisKind, Command, DeleteTarget, FindDirection, GotoTarget, InsertKind, ShowTarget,
};

/// The most a command does, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effect {
    /// Looks at files, code or the session and changes nothing.
    Read,
    /// Moves the cursor or the session's marks (or opens a file to read).
    Move,
    /// Changes the session itself: starts or ends it, its preferences,
    /// which buffers are open.
    Session,
    /// Changes a buffer's text; the files on disk stay as they are.
    Edit,
    /// Writes files on disk.
    Write,
}

impl Effect {
    pub fn name(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Move => "move",
            Effect::Session => "session",
            Effect::Edit => "edit",
            Effect::Write => "write",
        }
    }
}

impl Command {
    /// What this command may do; see the module doc.
    pub fn effect(&self) -> Effect {
        use Command::*;
        match self {
            Summary { .. } | Status | List { .. } | Diff { .. } | Help { .. } => Effect::Read,
            ListSessions | ListDrafts { .. } | ListChangesets => Effect::Read,
            Show { .. } | Analyze { .. } | Validate { .. } | FindSymbol { .. } => Effect::Read,
            FindInFiles { .. } => Effect::Read,
            Find {
                direction: FindDirection::All,
                ..
            } => Effect::Read,
            // `Show` and the code queries move the cursor to what they show.
            Goto(_) | Find { .. } | Bookmark { .. } | PushContext | PopContext => Effect::Move,
            Open { create: false, .. } => Effect::Move,
            Start { .. } | End { .. } | Set { .. } | Close { .. } => Effect::Session,
            Open { create: true, .. } => Effect::Edit,
            Replace { .. }
            | Insert { .. }
            | Delete(_)
            | Modify { .. }
            | Comment { .. }
            | Format { .. } => Effect::Edit,
            // A draft becomes an unsaved buffer; nothing is written.
            Recover { .. } => Effect::Edit,
            Undo { .. } | Redo { .. } => Effect::Write, // the undo of a committed step writes
            Save { .. } | SaveAll { .. } => Effect::Write,
            // A preview computes everything and changes nothing (in preview
            // mode a refactor only previews, but may not be allowed less).
            Preview { .. } => Effect::Read,
            ReplaceInFiles { preview: true, .. } => Effect::Read,
            ReplaceInFiles { preview: false, .. } => Effect::Write,
            Discard => Effect::Session,
            Refactor(_) | Apply => Effect::Write,
            // a query alone reads; a script may write every file it reads
            Script {
                mode: super::ScriptMode::Select(_),
                ..
            } => Effect::Read,
            Script { .. } => Effect::Write,
        }
    }

    /// Whether the command works on the whole project: the project index
    /// (references, definitions, callers, dependencies), a search or a
    /// listing of every file, a refactor and its preview or apply. It may
    /// take milliseconds to seconds of CPU. (A code target named with dots,
    /// `pkg.m.f`, also asks the index: the engine tells that apart.)
    pub fn is_project_wide(&self) -> bool {
        use Command::*;
        match self {
            FindInFiles { .. } | FindSymbol { .. } | Refactor(_) | Preview { .. } | Apply => true,
            Script { .. } => true,
            ReplaceInFiles { .. } => true,
            List { open_only, .. } => !open_only,
            Analyze { kind, .. } => *kind == Some(AnalysisKind::Dependencies),
            _ => false,
        }
    }

    /// Whether the command takes microseconds: no search through a file,
    /// no code analysis, no disk read, no process. Instant reads and moves
    /// may run on the transport's own task.
    pub fn is_instant(&self) -> bool {
        use Command::*;
        match self {
            Status | Help { .. } | Bookmark { .. } | PushContext | PopContext => true,
            Goto(target) => !matches!(
                target,
                GotoTarget::Code(_)
                    | GotoTarget::StartOfFunction
                    | GotoTarget::EndOfFunction
                    | GotoTarget::StartOfClass
                    | GotoTarget::EndOfClass
            ),
            Show { target, .. } => !matches!(target, ShowTarget::Code(_)),
            Insert {
                kind: InsertKind::Line | InsertKind::Block,
                ..
            } => true,
            Delete(target) => !matches!(target, DeleteTarget::Code(_)),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::parse_command;

    fn effect(text: &str) -> Effect {
        parse_command(text).unwrap().effect()
    }

    #[test]
    fn classifies_commands_by_what_they_may_do() {
        assert_eq!(effect("Show Line 3"), Effect::Read);
        assert_eq!(effect("Find All \"x\""), Effect::Read);
        assert_eq!(effect("Find \"x\""), Effect::Move);
        assert_eq!(effect("Goto 3:0"), Effect::Move);
        assert_eq!(effect("Open a.py"), Effect::Move);
        assert_eq!(effect("Close a.py"), Effect::Session);
        assert_eq!(effect("Open Create a.py"), Effect::Edit);
        assert_eq!(effect("Insert Line \"x\""), Effect::Edit);
        assert_eq!(effect("Save All"), Effect::Write);
        assert_eq!(effect("Refactor RenameSymbol f g"), Effect::Write);
        assert_eq!(effect("Preview Refactor RenameSymbol f g"), Effect::Read);
        assert_eq!(effect("Apply"), Effect::Write);
        assert_eq!(effect("Discard"), Effect::Session);
        assert_eq!(effect("List Drafts"), Effect::Read);
        assert_eq!(effect("Recover a.py From t"), Effect::Edit);
        assert!(Effect::Read < Effect::Move && Effect::Edit < Effect::Write);
    }

    #[test]
    fn tells_the_commands_that_work_on_the_whole_project() {
        let wide = |text: &str| parse_command(text).unwrap().is_project_wide();
        for text in [
            "Find References f",
            "Find Callers m.f",
            "Find Definition C",
            "Find All \"x\" In Files \"*.py\"",
            "Refactor RenameSymbol f g",
            "Preview Refactor RenameSymbol f g",
            "Apply",
            "Analyze File Dependencies",
            "List",
        ] {
            assert!(wide(text), "{text}");
        }
        for text in [
            "Goto 3:0",
            "Show Line 3",
            "Find \"x\"",
            "Insert Line \"x\"",
            "Save",
            "Undo",
            "Analyze File Complexity",
            "Show Function f",
            "List Open",
        ] {
            assert!(!wide(text), "{text}");
        }
    }
}
