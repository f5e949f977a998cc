//! `Summary`: what a session changed, measured against the files as they
//! were when the session first opened them.

use similar::{ChangeTag, TextDiff};

use super::Session;
use crate::analysis::changes::{code_changes, terse};
use crate::reply::plural;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files that did not exist before and were saved: path and size.
    pub created: Vec<(String, usize)>,
    /// Existing files whose text differs now.
    pub modified: Vec<String>,
    /// Files with edits not saved yet.
    pub unsaved: Vec<String>,
    pub lines_added: usize,
    pub lines_deleted: usize,
    /// Functions, methods and classes created/modified/deleted (Python files).
    pub code: Vec<String>,
    /// The review list of the session's last script that flagged any
    /// (`path:line: message`).
    pub flagged: Vec<crate::script::run::Flagged>,
}

impl Session {
    pub fn summary(&self) -> Summary {
        let mut summary = Summary {
            flagged: self.script_flagged.clone(),
            ..Summary::default()
        };
        for (path, record) in &self.files {
            let buffer = self.buffers.get(path);
            if buffer.is_some_and(|b| {
                b.is_modified() && !(b.text().len_chars() == 0 && record.original.is_none())
            }) {
                summary.unsaved.push(path.to_string());
            }
            let now = match buffer {
                Some(buffer) => buffer.text().to_string(),
                None => match record.saved.as_ref().or(record.original.as_ref()) {
                    Some(text) => text.clone(),
                    None => continue,
                },
            };
            let before = record.original.as_deref().unwrap_or("");
            if record.original.is_none() {
                if let Some(saved) = &record.saved {
                    summary.created.push((path.to_string(), saved.len()));
                }
            } else if before != now {
                summary.modified.push(path.to_string());
            }
            // the changes to definitions: an analysis of Python's outline
            let analyses = crate::language::Capability::CodeAnalyses;
            if crate::language::supporting(path.as_str(), analyses).is_some() {
                summary
                    .code
                    .extend(terse(&code_changes(record.original.as_deref(), &now)));
            }
            for change in TextDiff::from_lines(before, &now).iter_all_changes() {
                match change.tag() {
                    ChangeTag::Insert => summary.lines_added += 1,
                    ChangeTag::Delete => summary.lines_deleted += 1,
                    ChangeTag::Equal => {}
                }
            }
        }
        summary
    }
}

impl Summary {
    /// The terse line: `Created a.py (156 bytes), Modified 2 files, Added 45 lines, Deleted 12 lines`.
    pub fn terse(&self) -> String {
        let mut parts = Vec::new();
        for (path, bytes) in &self.created {
            parts.push(format!(
                "Created {path} ({bytes} {})",
                plural(*bytes, "byte")
            ));
        }
        if !self.modified.is_empty() {
            parts.push(format!(
                "Modified {} {}",
                self.modified.len(),
                plural(self.modified.len(), "file")
            ));
        }
        if !self.unsaved.is_empty() {
            parts.push(format!("Unsaved {}", self.unsaved.join(", ")));
        }
        let flagged = (!self.flagged.is_empty()).then(|| {
            format!(
                "Flagged {}: {}",
                self.flagged.len(),
                self.flagged
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        });
        if parts.is_empty()
            && self.lines_added == 0
            && self.lines_deleted == 0
            && self.code.is_empty()
        {
            return match flagged {
                Some(flagged) => format!("No changes, {flagged}"),
                None => "No changes".to_owned(),
            };
        }
        parts.push(format!(
            "Added {} {}",
            self.lines_added,
            plural(self.lines_added, "line")
        ));
        parts.push(format!(
            "Deleted {} {}",
            self.lines_deleted,
            plural(self.lines_deleted, "line")
        ));
        parts.extend(self.code.iter().cloned());
        parts.extend(flagged);
        parts.join(", ")
    }
}
