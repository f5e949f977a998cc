//! The evolving snapshot a script runs on: each file it reads, as it was
//! read (its text and the base the change is computed against) and as the
//! statements so far left it.
//!
//! Every edit is recorded with the statement that made it, so an element
//! found earlier (by a query, or held in a variable) is mapped to the text
//! of now: edits before it move it, edits inside it stretch it (the later
//! statement sees the earlier one's result), and an edit across its edge,
//! or one that removed it, is a conflict naming both statements and the
//! span — never a silent drop.
//!
//! At the end the snapshot is one [`WorkspaceChange`]: per file, the edits
//! from the text read to the text now, against the base read.

use std::collections::BTreeMap;
use std::ops::Range;

use ropey::Rope;

use crate::change::{Base, Indel, TextEdits, WorkspaceChange};
use crate::workspace::WorkspacePath;

use super::super::ast::Span;

/// One edit of a file: chars `start..end` of the text before it became
/// `inserted` chars, made by the statement at `statement`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Edit {
    start: usize,
    end: usize,
    inserted: usize,
    statement: Span,
}

/// A file of the snapshot.
#[derive(Debug, Clone)]
pub struct Doc {
    pub path: WorkspacePath,
    pub base: Base,
    pub original: Rope,
    pub text: Rope,
    edits: Vec<Edit>,
}

impl Doc {
    /// How many edits the file has had: a version of its text.
    pub fn version(&self) -> usize {
        self.edits.len()
    }
}

/// Where an element's span cannot follow the edits made since it was
/// found: the statement whose edit broke it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lost {
    pub by: Span,
    /// The element's span in the text it was found in.
    pub span: Range<usize>,
    pub removed: bool,
}

/// The snapshot: the files read, by workspace path (sorted).
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    docs: BTreeMap<String, Doc>,
}

impl Snapshot {
    pub fn get(&self, path: &str) -> Option<&Doc> {
        self.docs.get(path)
    }

    pub fn insert(&mut self, path: WorkspacePath, base: Base, text: Rope) {
        let key = path.as_str().to_owned();
        self.docs.entry(key).or_insert(Doc {
            path,
            base,
            original: text.clone(),
            text,
            edits: Vec::new(),
        });
    }

    /// Replaces chars `range` of the file's text now with `insert`.
    pub fn edit(&mut self, path: &str, range: Range<usize>, insert: &str, statement: Span) {
        let Some(doc) = self.docs.get_mut(path) else {
            return;
        };
        let end = range.end.min(doc.text.len_chars());
        let start = range.start.min(end);
        doc.text.remove(start..end);
        doc.text.insert(start, insert);
        doc.edits.push(Edit {
            start,
            end,
            inserted: insert.chars().count(),
            statement,
        });
    }

    /// `span`, found in the file's text at `version`, in its text now.
    pub fn map(
        &self,
        path: &str,
        version: usize,
        span: Range<usize>,
    ) -> Result<Range<usize>, Lost> {
        let Some(doc) = self.docs.get(path) else {
            return Ok(span);
        };
        let (mut start, mut end) = (span.start, span.end);
        for edit in doc.edits.iter().skip(version) {
            let grown = edit.inserted as isize - (edit.end - edit.start) as isize;
            let shift = |at: usize| (at as isize + grown).max(0) as usize;
            let lost = |removed| Lost {
                by: edit.statement,
                span: span.clone(),
                removed,
            };
            if edit.end <= start && !(edit.start == start && edit.end == end && start < end) {
                // before it (an insertion at its start goes before it)
                start = shift(start);
                end = shift(end);
            } else if edit.start >= end && start < end {
                // after it
            } else if edit.start == start && edit.end == end {
                // the element itself was replaced: it is the new text now
                if edit.inserted == 0 && start < end {
                    return Err(lost(true));
                }
                end = shift(end);
            } else if edit.start >= start && edit.end <= end {
                // inside it: it stretches
                end = shift(end);
            } else if start == end && edit.start >= end {
                // an empty span before the edit
            } else {
                return Err(lost(edit.start <= start && edit.end >= end));
            }
        }
        Ok(start..end)
    }

    /// A point (chars `at` of the file's text at `version`) in its text
    /// now: an edit before it (or an insertion at it) moves it; one that
    /// replaces text around it leaves it where that text began.
    pub fn map_point(&self, path: &str, version: usize, at: usize) -> usize {
        let Some(doc) = self.docs.get(path) else {
            return at;
        };
        let mut at = at;
        for edit in doc.edits.iter().skip(version) {
            if edit.end <= at {
                at = at + edit.inserted - (edit.end - edit.start);
            } else if edit.start < at {
                at = edit.start;
            }
        }
        at.min(doc.text.len_chars())
    }

    /// Restores the snapshot to `earlier` (a `try` failing, `rollback
    /// all`); the files read since stay read, as they were read.
    pub fn restore(&mut self, earlier: &Snapshot) {
        for (path, doc) in self.docs.iter_mut() {
            match earlier.docs.get(path) {
                Some(before) => *doc = before.clone(),
                None => {
                    doc.text = doc.original.clone();
                    doc.edits.clear();
                }
            }
        }
    }

    /// The files whose text differs from what was read, sorted.
    pub fn changed(&self) -> Vec<&Doc> {
        self.docs
            .values()
            // a file never edited is as read (comparing its text is not free)
            .filter(|d| !d.edits.is_empty() && d.text != d.original)
            .collect()
    }

    /// The whole snapshot as one change: per changed file, the edits from
    /// its text read to its text now, against its base.
    pub fn change(&self) -> WorkspaceChange {
        let mut change = WorkspaceChange::new();
        for doc in self.changed() {
            let edits = TextEdits::new(diff_indels(&doc.original, &doc.text))
                .expect("a diff's edits are sorted and disjoint");
            let file = WorkspaceChange::edit(doc.path.clone(), doc.base.clone(), edits);
            change = change
                .union(file)
                .expect("each file of a snapshot is in its change once");
        }
        change
    }
}

/// The edits that turn `old` into `new`, in chars of `old`: one per run of
/// changed lines (the one diff the editor has, `edit::diff`).
fn diff_indels(old: &Rope, new: &Rope) -> Vec<Indel> {
    let change = crate::edit::diff::change_between(old, new);
    change
        .edits()
        .into_iter()
        .map(|(start, end, insert)| Indel::new(start..end, insert))
        .collect()
}
