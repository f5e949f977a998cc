//! Who may do what, checked at the engine's one door — for every front end
//! (NATS, the CLI, agent tools), so none can go around it.
//!
//! Two rules, from configuration: *read-only* senders run nothing whose
//! [`Effect`] is above `Session` (they may open, look, move and close);
//! *path prefixes* limit a sender to files under some directories;
//! *operators* may list every session and end another sender's
//! (`List Sessions`, `End <name> Force`), and list and recover another
//! session's drafts (`List Drafts From`, `Recover … From`) — when none is
//! configured, every
//! sender that neither rule restricts is one. Paths
//! are checked as the workspace resolves them (canonical, through
//! symlinks), so a link inside an allowed directory that points elsewhere
//! does not open the way. A message is checked whole before any of it runs.

use std::collections::{BTreeMap, BTreeSet};

use crate::commands::{Command, Effect};
use crate::workspace::{Workspace, WorkspacePath};

/// Who may do what. Empty means everyone may do everything.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Permissions {
    /// Senders that may inspect and navigate but never change a file.
    pub read_only: BTreeSet<String>,
    /// Per sender: the only path prefixes it may open or save under.
    pub path_prefixes: BTreeMap<String, Vec<String>>,
    /// Senders that may list every session and end another sender's
    /// (`List Sessions`, `End <name> Force`), and list and recover another
    /// session's drafts (`… From <session>`). Empty: every sender that is
    /// neither read-only nor limited to path prefixes.
    pub operators: BTreeSet<String>,
}

impl Permissions {
    /// `true` when no rule is configured.
    pub fn is_open(&self) -> bool {
        self.read_only.is_empty() && self.path_prefixes.is_empty() && self.operators.is_empty()
    }

    /// Whether `sender` may list and end other senders' sessions.
    pub fn is_operator(&self, sender: &str) -> bool {
        if self.operators.is_empty() {
            !self.restricts(sender)
        } else {
            self.operators.contains(sender)
        }
    }

    fn restricts(&self, sender: &str) -> bool {
        self.read_only.contains(sender) || self.path_prefixes.contains_key(sender)
    }

    /// Whether `sender` may run `command`; the reason when not.
    pub fn check(
        &self,
        workspace: &Workspace,
        sender: &str,
        command: &Command,
    ) -> Result<(), String> {
        let operators_only = matches!(
            command,
            Command::ListSessions
                | Command::End { force: true, .. }
                | Command::ListDrafts { from: Some(_) }
                | Command::Recover { from: Some(_), .. }
        );
        if operators_only && !self.is_operator(sender) {
            return Err(format!(
                "Permission denied: {sender} is not an operator; {} is for operators (permissions.operators)",
                verb(command)
            ));
        }
        if !self.restricts(sender) {
            return Ok(());
        }
        // A script writes only what its statements change, so it is
        // checked where it writes (its commit, `apply changeset`, `rollback
        // changeset`: `check_change`); a read-only sender may run one that
        // only looks or flags.
        let writes =
            command.effect() > Effect::Session && !matches!(command, Command::Script { .. });
        if self.read_only.contains(sender) && writes {
            return Err(format!(
                "Permission denied: {sender} is read-only; {} changes files",
                verb(command)
            ));
        }
        for path in paths_of(command) {
            self.check_path(workspace, sender, path)?;
        }
        Ok(())
    }

    /// Whether `sender` may write the files of a change.
    pub fn check_change<'a>(
        &self,
        sender: &str,
        paths: impl IntoIterator<Item = &'a WorkspacePath>,
    ) -> Result<(), String> {
        if !self.restricts(sender) {
            return Ok(());
        }
        if self.read_only.contains(sender) {
            return Err(format!("Permission denied: {sender} is read-only"));
        }
        for path in paths {
            self.check_allowed(sender, path.as_str(), path.as_str())?;
        }
        Ok(())
    }

    /// Whether `sender` may read the file `given` (its path prefixes), for
    /// the typed operations that name a file without a command.
    pub fn check_read(
        &self,
        workspace: &Workspace,
        sender: &str,
        given: &str,
    ) -> Result<(), String> {
        if !self.restricts(sender) {
            return Ok(());
        }
        self.check_path(workspace, sender, given)
    }

    fn check_path(&self, workspace: &Workspace, sender: &str, given: &str) -> Result<(), String> {
        // Lexically first (`..` never passes), then as the file really is.
        self.check_allowed(sender, given, given)?;
        match workspace.resolve(given) {
            Ok(real) => self.check_allowed(sender, real.as_str(), given),
            // The command itself reports a path it cannot resolve.
            Err(_) => Ok(()),
        }
    }

    fn check_allowed(&self, sender: &str, path: &str, given: &str) -> Result<(), String> {
        let Some(prefixes) = self.path_prefixes.get(sender) else {
            return Ok(());
        };
        if prefixes.iter().any(|prefix| under_prefix(path, prefix)) {
            return Ok(());
        }
        let shown = if path == given {
            given.to_owned()
        } else {
            format!("{given} (which is {path})")
        };
        Err(format!(
            "Permission denied: {sender} may not use {shown}; allowed: {}",
            prefixes.join(", ")
        ))
    }
}

/// The file paths a command names.
fn paths_of(command: &Command) -> Vec<&str> {
    match command {
        Command::Open { path, .. } => vec![path.as_str()],
        Command::Save {
            path: Some(path), ..
        }
        | Command::Close { path: Some(path) }
        | Command::Diff { path: Some(path) }
        | Command::Recover { path, .. } => vec![path.as_str()],
        // A search reads the files its glob matches: the glob must start
        // with an allowed prefix's literal directories (`src/auth/**/*.py`
        // does; `*.py` and `src/auth*/x.py` do not).
        Command::FindInFiles { glob, .. } | Command::ReplaceInFiles { glob, .. } => {
            vec![glob.as_str()]
        }
        _ => Vec::new(),
    }
}

/// The command's verb, for messages.
fn verb(command: &Command) -> &'static str {
    match command {
        Command::Open { .. } => "Open Create",
        Command::Save { .. } => "Save",
        Command::SaveAll { .. } => "Save All",
        Command::Replace { .. } => "Replace",
        Command::ReplaceInFiles { .. } => "Replace All In Files",
        Command::Insert { .. } => "Insert",
        Command::Delete(_) => "Delete",
        Command::Modify { .. } => "Modify",
        Command::Comment { .. } => "Comment",
        Command::Format { .. } => "Format",
        Command::Undo { .. } => "Undo",
        Command::Redo { .. } => "Redo",
        Command::Refactor(_) => "Refactor",
        Command::Apply => "Apply",
        Command::Script { .. } => "a script",
        Command::ListSessions => "List Sessions",
        Command::End { .. } => "End Force",
        Command::ListDrafts { .. } => "List Drafts From",
        Command::Recover { from: Some(_), .. } => "Recover From",
        Command::Recover { .. } => "Recover",
        _ => "this command",
    }
}

/// Component-wise prefix test on workspace-relative paths; `..` never passes.
fn under_prefix(path: &str, prefix: &str) -> bool {
    let parts = |p: &'_ str| -> Vec<String> {
        p.split(['/', '\\'])
            .filter(|s| !s.is_empty() && *s != ".")
            .map(str::to_string)
            .collect()
    };
    let path = parts(path);
    if path.iter().any(|s| s == "..") {
        return false;
    }
    let prefix = parts(prefix);
    path.len() >= prefix.len() && path[..prefix.len()] == prefix[..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::parse_command;

    fn workspace() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::new(dir.path(), 1 << 20).unwrap();
        (dir, ws)
    }

    fn check(p: &Permissions, ws: &Workspace, sender: &str, text: &str) -> Result<(), String> {
        p.check(ws, sender, &parse_command(text).unwrap())
    }

    #[test]
    fn read_only_senders_may_look_but_not_touch() {
        let (_dir, ws) = workspace();
        let p = Permissions {
            read_only: ["viewer".to_string()].into(),
            ..Default::default()
        };
        assert!(check(&p, &ws, "viewer", "Show Line 3").is_ok());
        assert!(check(&p, &ws, "viewer", "Close").is_ok());
        assert_eq!(
            check(&p, &ws, "viewer", "Insert Line \"x\"").unwrap_err(),
            "Permission denied: viewer is read-only; Insert changes files"
        );
        assert!(check(&p, &ws, "viewer", "Open Create a.py").is_err());
        assert!(check(&p, &ws, "viewer", "Save All").is_err());
        assert!(check(&p, &ws, "editor", "Insert Line \"x\"").is_ok());
    }

    #[test]
    fn path_prefixes_hold_through_dot_dot_and_symlinks() {
        let (dir, ws) = workspace();
        std::fs::create_dir_all(dir.path().join("src/auth")).unwrap();
        std::fs::write(dir.path().join("secret.py"), "").unwrap();
        std::os::unix::fs::symlink("../../secret.py", dir.path().join("src/auth/link.py")).unwrap();
        let p = Permissions {
            path_prefixes: [("a".to_string(), vec!["src/auth".to_string()])].into(),
            ..Default::default()
        };
        assert!(check(&p, &ws, "a", "Open src/auth/user.py").is_ok());
        assert!(check(&p, &ws, "a", "Open ./src/auth/x.py").is_ok());
        assert!(check(&p, &ws, "a", "Open src/authz/x.py").is_err());
        assert!(check(&p, &ws, "a", "Open src/auth/../../etc/passwd").is_err());
        assert_eq!(
            check(&p, &ws, "a", "Open src/auth/link.py").unwrap_err(),
            "Permission denied: a may not use src/auth/link.py (which is secret.py); allowed: src/auth"
        );
        assert!(check(&p, &ws, "b", "Open etc/x").is_ok());
        assert!(check(&p, &ws, "a", "Find All \"x\" In Files \"src/auth/**/*.py\"").is_ok());
        assert_eq!(
            check(&p, &ws, "a", "Find All \"x\" In Files \"*.py\"").unwrap_err(),
            "Permission denied: a may not use *.py; allowed: src/auth"
        );
        assert!(check(&p, &ws, "a", "Find All \"x\" In Files \"src/auth*/x.py\"").is_err());
    }
}
