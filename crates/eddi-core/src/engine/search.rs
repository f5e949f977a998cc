//! `Find All "<text>"|/<regex>/ In Files "<glob>"`: a text search over the
//! workspace, answered as grep does (`path:line:col: text`) in the output
//! tiers.
//!
//! The files are the workspace's listing (gitignore-aware, hidden files
//! skipped) filtered by the glob; they are read through the workspace, so
//! its rules hold: binary, non-UTF-8 and oversized files are skipped and
//! counted. A file the session has open is searched in its buffer (unsaved
//! edits included), not on disk; a new buffer not yet saved is searched too
//! when its path matches. Files are searched in parallel (rayon).

use crate::outcome::{Fact, Found as FoundHead, Listed, Outcome, Site, Sites};
use std::collections::BTreeMap;

use rayon::prelude::*;
use regex::Regex;

use crate::commands::Pattern;
use crate::edit::{LineEnding, Position};
use crate::reply::Clause;
use crate::workspace::{FileError, Workspace};

use super::context::{Ctx, Ran};
use super::navigate::{compile, describe};
use super::output::site_line;
use serde_json::json;

use super::ops::json::typed;
use super::ops::{ErrorKind, OpError};

/// The matches of one file: how many, and the first ones (with their lines
/// while many could fit), at most `keep` of them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Found {
    count: usize,
    kept: Vec<Kept>,
}

/// One listed match: where it starts and ends, and its line when kept.
#[derive(Debug, PartialEq, Eq)]
struct Kept {
    start: Position,
    end: Position,
    line: Option<String>,
}

/// What searching one file gave.
enum Searched {
    /// The matches, with the text of their lines when `keep_lines`.
    Matches(Found),
    /// The file could not be searched as text (binary, not UTF-8, too large,
    /// unreadable): why.
    Skipped(String),
}

impl Ctx<'_> {
    pub(super) fn find_in_files(&mut self, pattern: &Pattern, glob: &str) -> Ran {
        // A text pattern's line breaks are each file's own.
        let regexes = Regexes {
            lf: compile(pattern, LineEnding::Lf)?,
            crlf: compile(pattern, LineEnding::CrLf)?,
        };
        let (paths, buffers) = files_of_glob(
            self.workspace,
            glob,
            self.session
                .buffers
                .values()
                .map(|b| (b.path().to_string(), b.text().to_string())),
        )?;
        let limit = self.session.preferences.output_limit;
        let keep_lines = |n: usize| n.saturating_mul(16) <= limit;
        // More sites than this cannot be listed even as positions (`a:1:2, `
        // is 7 chars): only counted, so a pattern matching everywhere costs
        // no memory per match.
        let keep = limit / 7 + 1;
        let workspace = self.workspace;
        let results: Vec<Searched> = paths
            .par_iter()
            .map(|path| match buffers.get(path) {
                Some(text) => Searched::Matches(matches(regexes.of(text), text, keep, &keep_lines)),
                None => search_disk(workspace, path, &regexes, keep, &keep_lines),
            })
            .collect();

        let mut sites = Vec::new();
        let mut ends = Vec::new();
        let mut per_file = BTreeMap::new();
        let mut skipped = Vec::new();
        let mut skipped_data = Vec::new();
        for (path, searched) in paths.iter().zip(results) {
            match searched {
                Searched::Matches(found) => {
                    if found.count > 0 {
                        per_file.insert(path.clone(), found.count);
                    }
                    for kept in found.kept {
                        ends.push(kept.end);
                        sites.push(Site {
                            path: path.clone(),
                            position: kept.start,
                            label: None,
                            line: kept.line,
                        });
                    }
                }
                Searched::Skipped(why) => {
                    skipped.push(format!("{path} ({why})"));
                    skipped_data.push(json!({"path": path, "reason": why}));
                }
            }
        }
        let total: usize = per_file.values().sum();
        if !keep_lines(total) {
            for site in &mut sites {
                site.line = None; // cannot fit: positions or counts only
            }
        }
        let searched = paths.len() - skipped.len();
        let scope = Fact::SearchedFiles {
            searched,
            skipped,
            limit,
        };
        if total == 0 {
            return Err(typed(
                ErrorKind::NotFound,
                format!(
                    "Not found: {} in the files matching \"{glob}\" ({scope})",
                    describe(pattern),
                ),
            ));
        }
        let data = json!({
            "total": total,
            "complete": total == sites.len(),
            "files": per_file,
            "searched": searched,
            "skipped_files": skipped_data,
            "matches": sites.iter().zip(&ends).map(|(site, end)| {
                let mut object = json!({
                    "path": site.path,
                    "line": site.position.line,
                    "col": site.position.col,
                    "end_line": end.line,
                    "end_col": end.col,
                });
                if let Some(line) = &site.line {
                    object["context"] = json!(line);
                }
                object
            }).collect::<Vec<_>>(),
        });
        let listed = if total <= keep {
            Listed::Sites {
                certain: sites,
                possible: Vec::new(),
            }
        } else {
            Listed::Counts(per_file)
        };
        let found = Sites {
            head: FoundHead::Matches(total),
            listed,
            limit,
            first: None,
        };
        Ok(
            Outcome::found(found, super::ops::json::data("found_in_files", data))
                .with(Clause::Fact(scope)),
        )
    }
}

/// The pattern compiled for each line-ending style.
struct Regexes {
    lf: Regex,
    crlf: Regex,
}

impl Regexes {
    /// The regex for a text, by the style of its first line break.
    fn of(&self, text: &str) -> &Regex {
        match text.find('\n') {
            Some(i) if text[..i].ends_with('\r') => &self.crlf,
            _ => &self.lf,
        }
    }
}

fn search_disk(
    workspace: &Workspace,
    path: &str,
    regexes: &Regexes,
    keep: usize,
    keep_lines: &(impl Fn(usize) -> bool + Sync),
) -> Searched {
    let loaded = workspace
        .resolve(path)
        .and_then(|resolved| workspace.read(&resolved));
    match loaded {
        Ok(file) => Searched::Matches(matches(
            regexes.of(&file.text),
            &file.text,
            keep,
            keep_lines,
        )),
        Err(FileError::Binary(_)) => Searched::Skipped("binary".into()),
        Err(FileError::NotUtf8(_)) => Searched::Skipped("not UTF-8".into()),
        Err(FileError::TooLarge { size, .. }) => Searched::Skipped(format!("{size} bytes")),
        Err(e) => Searched::Skipped(e.to_string()),
    }
}

/// The matches of `regex` in `text`: all counted, the first `keep` as
/// `line:col` (columns in chars), with their line's text while
/// `keep_lines` says so many could fit.
fn matches(regex: &Regex, text: &str, keep: usize, keep_lines: &impl Fn(usize) -> bool) -> Found {
    let mut found = Vec::new();
    let mut count = 0;
    let (mut line, mut line_start, mut scanned) = (0, 0, 0);
    for m in regex.find_iter(text) {
        count += 1;
        if found.len() == keep {
            continue;
        }
        // Lines are counted forward from the previous match only.
        for (offset, _) in text[scanned..m.start()].match_indices('\n') {
            line += 1;
            line_start = scanned + offset + 1;
        }
        scanned = m.start();
        let col = text[line_start..m.start()].chars().count();
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |end| line_start + end);
        let shown = keep_lines(found.len() + 1).then(|| site_line(&text[line_start..line_end]));
        // where it ends: a match may span lines
        let matched = m.as_str();
        let end = match matched.rfind('\n') {
            Some(last) => Position::new(
                line + matched.matches('\n').count(),
                matched[last + 1..].chars().count(),
            ),
            None => Position::new(line, col + matched.chars().count()),
        };
        found.push(Kept {
            start: Position::new(line, col),
            end,
            line: shown,
        });
    }
    if !keep_lines(found.len()) {
        for kept in &mut found {
            kept.line = None;
        }
    }
    Found { count, kept: found }
}

/// The glob as `Workspace::list` matches it (against the relative path,
/// `*` crossing `/`), for buffers that are not on disk yet.
/// The files `glob` names, sorted: the workspace's (gitignore-aware) and
/// the paths of `buffers` (path, text) that match it (a new file is not on
/// disk yet), with those buffers' texts. No file at all is `Not found`.
pub(super) fn files_of_glob(
    workspace: &Workspace,
    glob: &str,
    buffers: impl Iterator<Item = (String, String)>,
) -> Result<(Vec<String>, BTreeMap<String, String>), OpError> {
    let invalid = |why: String| typed(ErrorKind::InvalidArgument, why);
    let matcher = glob_matcher(glob).map_err(invalid)?;
    let mut paths = workspace.list(Some(glob)).map_err(invalid)?;
    let buffers: BTreeMap<String, String> =
        buffers.filter(|(path, _)| matcher.is_match(path)).collect();
    for path in buffers.keys() {
        if !paths.contains(path) {
            paths.push(path.clone());
        }
    }
    paths.sort();
    if paths.is_empty() {
        return Err(typed(ErrorKind::NotFound, format!(
            "No files match \"{glob}\" (gitignored and hidden files are not searched); List shows the files"
        )));
    }
    Ok((paths, buffers))
}

pub(super) fn glob_matcher(glob: &str) -> Result<globset::GlobMatcher, String> {
    globset::GlobBuilder::new(glob)
        .literal_separator(false)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| format!("Invalid glob '{glob}': {}", e.kind()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_give_line_col_in_chars_and_the_trimmed_line() {
        let regex = Regex::new("x").unwrap();
        let found = matches(&regex, "aé x\r\n\n  bx x\n", 10, &|_| true);
        let kept = |line: usize, col: usize, text: &str| Kept {
            start: Position::new(line, col),
            end: Position::new(line, col + 1),
            line: Some(text.into()),
        };
        assert_eq!(
            found.kept,
            [kept(0, 3, "aé x"), kept(2, 3, "bx x"), kept(2, 5, "bx x")]
        );
        assert!(matches(&regex, "x x x", 10, &|n| n < 3)
            .kept
            .iter()
            .all(|kept| kept.line.is_none()));
        // a match over a line break ends on the next line
        let across = matches(&Regex::new("b\nc+").unwrap(), "ab\ncc\n", 10, &|_| true);
        assert_eq!(across.kept[0].end, Position::new(1, 2));
        let many = matches(&regex, &"x".repeat(1000), 5, &|_| false);
        assert_eq!((many.count, many.kept.len()), (1000, 5));
    }
}
