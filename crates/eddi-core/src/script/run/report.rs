//! What a script did, as data: the counts per action and element, the
//! review list of `flag` and `suggest`, the files changed, a changeset
//! collected. The engine carries it as `outcome::Fact::Script` and the
//! renderer words it (`Ok, 15 functions flagged, 8 unused imports
//! removed`).

/// `n <noun> <verb>`: `15 functions flagged`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    pub verb: Verb,
    /// The element, singular, with what the query said of it (`unused
    /// import`); the renderer makes it plural.
    pub noun: String,
    pub n: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Flagged,
    Suggested,
    Replaced,
    Removed,
    Added,
    Refactored,
    /// A phase-1 command ran (`3 commands run`).
    Ran,
}

impl Verb {
    pub fn word(self) -> &'static str {
        match self {
            Verb::Flagged => "flagged",
            Verb::Suggested => "suggested",
            Verb::Replaced => "replaced",
            Verb::Removed => "removed",
            Verb::Added => "added",
            Verb::Refactored => "refactored",
            Verb::Ran => "run",
        }
    }
}

/// A review item: `path:line: message` (1-based line; a note outside any
/// element has no path and line 0).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Flagged {
    pub path: String,
    pub line: usize,
    pub message: String,
}

/// What one run of a script did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptReport {
    pub counts: Vec<Count>,
    pub flagged: Vec<Flagged>,
    /// The files the script changes (written, or collected), sorted.
    pub files: Vec<String>,
    /// `collect changes as <name>`: nothing was written, the change waits
    /// under this name.
    pub collected: Option<String>,
    /// Elements an `on_error continue` went past: `line:col: why`.
    pub failed: Vec<String>,
    /// `on_error stop`: the failure the script stopped at (what ran
    /// before it is kept).
    pub stopped: Option<String>,
    /// A `catch` ran: why the `try` failed (its edits were undone).
    pub caught: Vec<String>,
    /// `rollback all` ran: every edit before it was undone.
    pub rolled_back: bool,
    /// Run as a preview (the `run_script` tool's `preview`): nothing was
    /// written; `files` would change.
    pub previewed: bool,
    /// Top-level `let`s: the variable, how many elements, their kind.
    pub bound: Vec<(String, usize, String)>,
    /// What the phase-1 commands that answer said (`Show`, `Find All`,
    /// `Validate`, `preview changeset`): `line:col: command: reply`.
    pub answers: Vec<String>,
}

impl std::fmt::Display for Flagged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path.is_empty() {
            true => f.write_str(&self.message),
            false => write!(f, "{}:{}: {}", self.path, self.line, self.message),
        }
    }
}

impl ScriptReport {
    /// Adds `n` to the count of `verb` on `noun`, keeping first-seen order.
    pub fn count(&mut self, verb: Verb, noun: &str, n: usize) {
        if n == 0 {
            return;
        }
        match self
            .counts
            .iter_mut()
            .find(|c| c.verb == verb && c.noun == noun)
        {
            Some(count) => count.n += n,
            None => self.counts.push(Count {
                verb,
                noun: noun.to_owned(),
                n,
            }),
        }
    }
}
