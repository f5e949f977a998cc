//! Long outputs are shortened in tiers, and always say so: never a silent cut.

use std::collections::BTreeMap;

use crate::outcome::{
    Completion, DefinitionEdit, Direction, DiskSince, DraftLine, Fact, Found, Listed, SessionLine,
    Site, Sites,
};
use crate::reply::{plural, Clause};

/// Longest line text a site shows, in chars; longer lines end in `…`.
pub(super) const MAX_LINE_CHARS: usize = 160;

impl Site {
    fn position_text(&self) -> String {
        match &self.label {
            Some(label) => format!("{}:{} {label}", self.path, self.position),
            None => format!("{}:{}", self.path, self.position),
        }
    }

    /// Whether `other` is on the same line, shown the same way.
    fn same_line(&self, other: &Site) -> bool {
        self.path == other.path
            && self.position.line == other.position.line
            && self.label == other.label
            && self.line.is_some()
            && self.line == other.line
    }
}

/// Sites one per line, `path:line:col[ label]: text`; several sites on one
/// line share it, their columns listed (`a.py:7:4,19: f(x) or f(y)`), as
/// grep shows a matching line once.
fn with_lines(sites: &[Site]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sites.len() {
        let site = &sites[i];
        let mut cols = vec![site.position.col.to_string()];
        while i + 1 < sites.len() && site.same_line(&sites[i + 1]) {
            i += 1;
            cols.push(sites[i].position.col.to_string());
        }
        let label = site
            .label
            .as_ref()
            .map(|l| format!(" {l}"))
            .unwrap_or_default();
        let at = format!(
            "{}:{}:{}{label}",
            site.path,
            site.position.line,
            cols.join(",")
        );
        out.push(match &site.line {
            Some(line) => format!("{at}: {line}"),
            None => at,
        });
        i += 1;
    }
    out.join("\n")
}

/// A line as a site shows it: trimmed, and cut at [`MAX_LINE_CHARS`].
pub(super) fn site_line(line: &str) -> String {
    let line = line.trim();
    if line.chars().count() <= MAX_LINE_CHARS {
        return line.to_owned();
    }
    let mut cut: String = line.chars().take(MAX_LINE_CHARS).collect();
    cut.push('…');
    cut
}

/// What a search or a query found, in words: its head, then its sites in
/// tiers ([`sites_in_tiers`], [`counts_in_tiers`]); what `first` says
/// comes before the head.
pub(crate) fn sites(found: &Sites) -> Vec<Clause> {
    let mut head = found.head.to_string();
    if let Some(why) = &found.first {
        head = super::unindexed_file_first(why, &head);
    }
    match &found.listed {
        Listed::Sites { certain, possible } => {
            sites_in_tiers(&head, certain, possible, found.limit)
        }
        Listed::Counts(per_file) => counts_in_tiers(&head, per_file, &BTreeMap::new(), found.limit),
    }
}

/// Sites in tiers, always saying which: every site with its line, one per
/// line of a `Txt` (grep's `path:line:col: text`); else their positions;
/// else the count per file; else the total. `found` is the head of the
/// answer (`Found 3 references`), `possible` the sites that may be uses
/// too, listed after the certain ones.
pub(super) fn sites_in_tiers(
    found: &str,
    certain: &[Site],
    possible: &[Site],
    limit: usize,
) -> Vec<Clause> {
    if certain.is_empty() && possible.is_empty() {
        return vec![Clause::Note(found.to_owned())];
    }
    let joined = |sites: &[Site], each: fn(&Site) -> String, sep: &str| -> String {
        sites.iter().map(each).collect::<Vec<_>>().join(sep)
    };
    let mut lines = with_lines(certain);
    if !possible.is_empty() {
        if !lines.is_empty() {
            lines.push('\n');
        }
        lines.push_str("possible:\n");
        lines.push_str(&with_lines(possible));
    }
    // Sites read without their lines (too many to fit anyway) skip a tier.
    let has_lines = certain.iter().chain(possible).any(|s| s.line.is_some());
    if has_lines && lines.chars().count() <= limit {
        return vec![
            Clause::Note(format!("{found}, with lines")),
            Clause::Txt(lines),
        ];
    }
    let mut positions = joined(certain, Site::position_text, ", ");
    if !possible.is_empty() {
        positions.push_str(&format!(
            "; {} possible: {}",
            possible.len(),
            joined(possible, Site::position_text, ", ")
        ));
    }
    if positions.chars().count() <= limit {
        return vec![Clause::Note(format!(
            "{found}, positions only (the lines exceed the limit of {limit} chars; Set Limit <n> to raise it): {positions}"
        ))];
    }
    let per_file = |sites: &[Site]| -> BTreeMap<String, usize> {
        let mut counts = BTreeMap::new();
        for site in sites {
            *counts.entry(site.path.clone()).or_default() += 1;
        }
        counts
    };
    counts_in_tiers(found, &per_file(certain), &per_file(possible), limit)
}

/// The last two tiers of [`sites_in_tiers`], from the number of sites per
/// file: the counts per file, else the total (`found` says it).
pub(super) fn counts_in_tiers(
    found: &str,
    certain: &BTreeMap<String, usize>,
    possible: &BTreeMap<String, usize>,
    limit: usize,
) -> Vec<Clause> {
    let listed = |counts: &BTreeMap<String, usize>| -> String {
        counts
            .iter()
            .map(|(path, n)| format!("{path} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut counted = listed(certain);
    if !possible.is_empty() {
        counted.push_str(&format!(
            "; {} possible: {}",
            possible.values().sum::<usize>(),
            listed(possible)
        ));
    }
    if counted.chars().count() <= limit {
        return vec![Clause::Note(format!(
            "{found}, counts per file (too many for positions within {limit} chars): {counted}"
        ))];
    }
    let files = certain
        .keys()
        .chain(possible.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    vec![Clause::Note(format!(
        "{found} in {files} {} (too many to list within {limit} chars; narrow the query)",
        plural(files, "file")
    ))]
}

/// A list of names: all of them; else the first ones and a count; else the count.
pub(super) fn list_in_tiers(noun: &str, items: &[String], limit: usize) -> String {
    let all = items.join(", ");
    if all.chars().count() <= limit {
        return all;
    }
    let mut shown = Vec::new();
    let mut used = 0;
    for item in items {
        used += item.chars().count() + 2;
        if used > limit.saturating_sub(60) {
            break;
        }
        shown.push(item.as_str());
    }
    let total = items.len();
    if shown.is_empty() {
        return format!("{total} {}", plural(total, noun));
    }
    format!(
        "{total} {} (first {}: {}; narrow it with a pattern)",
        plural(total, noun),
        shown.len(),
        shown.join(", ")
    )
}

/// Text for a `Txt` clause: whole, or its first lines with a note of what was left out.
pub(super) fn text_in_tiers(text: &str, limit: usize) -> Vec<Clause> {
    if text.chars().count() <= limit {
        return vec![Clause::Txt(text.to_owned())];
    }
    let total = text.lines().count();
    let mut kept = String::new();
    let mut lines = 0;
    for line in text.lines() {
        if kept.chars().count() + line.chars().count() + 1 > limit {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
        lines += 1;
    }
    vec![
        Clause::Note(format!("Shortened to {lines} of {total} lines (limit {limit} chars; Set Limit <n> to raise it)")),
        Clause::Txt(kept.trim_end_matches('\n').to_owned()),
    ]
}

/// A completion of an outcome in words (and, for JSON, its data).
pub(crate) fn completion(completion: &Completion) -> Vec<Clause> {
    match completion {
        Completion::LeftUnchanged { edit, sites } => {
            let n = sites.len();
            let note = match edit {
                DefinitionEdit::Renamed { old, new } => format!(
                    "not changed: {n} {} in other files ({}); cross-file rename: Refactor RenameSymbol {old} {new}",
                    plural(n, "reference"),
                    first_places(sites)
                ),
                DefinitionEdit::Deleted { .. } => format!(
                    "still used: {n} {} ({})",
                    plural(n, "reference"),
                    first_places(sites)
                ),
                DefinitionEdit::Resigned { .. } => {
                    format!("calls not updated: {n} ({})", first_places(sites))
                }
                DefinitionEdit::Restricted {
                    visibility,
                    outside,
                    ..
                } => format!(
                    "used outside its {outside}: {n} {} ({}), which {visibility} may forbid",
                    plural(n, "reference"),
                    first_places(sites)
                ),
            };
            vec![Clause::Note(note)]
        }
        Completion::ImportedBy {
            module,
            modules,
            limit,
        } => {
            let note = if modules.is_empty() {
                format!("imported by no module of the project ({module})")
            } else {
                format!(
                    "imported by {}",
                    list_in_tiers("module", modules, limit / 2)
                )
            };
            vec![
                Clause::Note(note),
                super::ops::json::data(
                    "imported_by",
                    serde_json::json!({"module": module, "modules": modules}),
                ),
            ]
        }
    }
}

/// The first few places as `path:line`, `…` when there are more.
fn first_places(sites: &[crate::analysis::index::Location]) -> String {
    const SHOWN: usize = 3;
    let mut shown: Vec<String> = sites
        .iter()
        .take(SHOWN)
        .map(|l| format!("{}:{}", l.path, l.position.line))
        .collect();
    if sites.len() > SHOWN {
        shown.push("…".to_string());
    }
    shown.join(", ")
}

/// How many review items a reply lists before counting the rest.
const FLAGS_SHOWN: usize = 50;

/// A script's report in words: `Changeset m prepared: 3 files affected,
/// use 'apply changeset m'`, then `15 functions flagged, 8 unused imports
/// removed`, the files changed, the review list as `path:line: message`.
fn script_words(report: &crate::script::run::ScriptReport) -> String {
    let mut parts: Vec<String> = Vec::new();
    let files = report.files.len();
    if let Some(name) = &report.collected {
        parts.push(format!(
            "Changeset {name} prepared: {files} {} affected, use 'apply changeset {name}'",
            plural(files, "file")
        ));
    }
    for count in &report.counts {
        parts.push(match count.verb {
            // `Rename_Class applied`
            crate::script::run::Verb::Refactored if count.n == 1 => {
                format!("{} applied", count.noun)
            }
            crate::script::run::Verb::Refactored => {
                format!("{} applied {} times", count.noun, count.n)
            }
            _ => format!(
                "{} {} {}",
                count.n,
                plural(count.n, &count.noun),
                count.verb.word()
            ),
        });
    }
    if report.previewed && files > 0 {
        parts.push(format!(
            "Preview: {files} {} would change ({}), nothing written",
            plural(files, "file"),
            first_files(&report.files)
        ));
    } else if report.collected.is_none() && files > 0 {
        parts.push(format!(
            "{files} {} changed ({})",
            plural(files, "file"),
            first_files(&report.files)
        ));
    }
    for (name, n, kind) in &report.bound {
        parts.push(format!("${name} = {n} {}", plural(*n, kind)));
    }
    if report.counts.is_empty() && report.collected.is_none() && report.bound.is_empty() {
        parts.push("Script completed: nothing matched, nothing changed".to_owned());
    }
    if report.rolled_back {
        parts.push("Rolled back all: nothing the script did before is kept".to_owned());
    }
    for caught in &report.caught {
        parts.push(format!("Caught: {caught}"));
    }
    if !report.failed.is_empty() {
        parts.push(format!(
            "{} {} failed and skipped (on_error continue): {}",
            report.failed.len(),
            plural(report.failed.len(), "element"),
            report.failed.join("; ")
        ));
    }
    if let Some(stopped) = &report.stopped {
        parts.push(format!(
            "Stopped (on_error stop) at {stopped}; what ran before it is kept"
        ));
    }
    if !report.flagged.is_empty() {
        let mut items: Vec<String> = report
            .flagged
            .iter()
            .take(FLAGS_SHOWN)
            .map(ToString::to_string)
            .collect();
        if report.flagged.len() > FLAGS_SHOWN {
            items.push(format!("… ({} more)", report.flagged.len() - FLAGS_SHOWN));
        }
        parts.push(format!("Flagged: {}", items.join("; ")));
    }
    parts.join(", ")
}

/// The words of a fact (a terse note, the JSON `message`).
impl std::fmt::Display for Fact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fact::Code(fact) => fact.fmt(f),
            Fact::SessionContinued { name } => write!(f, "Continued session '{name}'"),
            Fact::SessionSaved => f.write_str("Session saved"),
            Fact::UnsavedDiscarded { files } if files.is_empty() => {
                f.write_str("Unsaved changes discarded")
            }
            Fact::UnsavedDiscarded { files } => {
                write!(f, "Unsaved changes discarded: {}", files.join(", "))
            }
            Fact::SessionEnded { name, sender } => {
                write!(f, "Session {name} ended (sender {sender})")
            }
            Fact::KeptAsDrafts { session, files } => write!(
                f,
                "Unsaved edits kept as drafts: {} (List Drafts From {session} lists them, Recover <file> From {session} takes one back)",
                files.join(", ")
            ),
            Fact::Sessions(sessions) if sessions.is_empty() => f.write_str("No active sessions"),
            Fact::Sessions(sessions) => {
                let lines: Vec<String> = sessions.iter().map(session_line).collect();
                let n = sessions.len();
                write!(f, "{n} {}: {}", plural(n, "session"), lines.join("; "))
            }
            Fact::Summary(summary) => f.write_str(&summary.terse()),
            Fact::RecordedSummary(text) => f.write_str(text),
            Fact::InSession { name } => write!(f, "Session {name}"),
            Fact::CurrentFile { path } => write!(f, "File {path}"),
            Fact::Modified => f.write_str("Modified"),
            Fact::NoFile => f.write_str("No file"),
            Fact::FilesOpen(n) => write!(f, "{n} files open"),
            Fact::ConfirmWaiting { path } => write!(f, "Replace Confirm waiting in {path} (y/n/q)"),
            Fact::RefactorWaiting { refactoring } => write!(
                f,
                "Refactor {refactoring} waiting for Apply (writes it if its files have not changed since the preview) or Discard (drops it)"
            ),
            Fact::ReplaceWaiting { command } => write!(
                f,
                "{command} waiting for Apply (writes it if its files have not changed since the preview) or Discard (drops it)"
            ),
            Fact::ContextDepth(n) => write!(f, "Context depth {n}"),
            Fact::OpenedAs { path, alias } => write!(f, "Opened as {path} ({alias} links to it)"),
            Fact::NothingToSaveClosed => f.write_str("No changes to save, closed"),
            Fact::SavedFiles { files } => write!(
                f,
                "Saved {} {}: {}",
                files.len(),
                plural(files.len(), "file"),
                files.join(", ")
            ),
            Fact::Files { files, limit } => f.write_str(&list_in_tiers("file", files, *limit)),
            Fact::NoFiles { open_only, pattern } => {
                let what = if *open_only { "No open files" } else { "No files" };
                match pattern {
                    Some(pattern) => write!(f, "{what} match '{pattern}'"),
                    None => f.write_str(what),
                }
            }
            Fact::NoChanges { path } => write!(f, "No changes in {path}"),
            Fact::Changed { added, deleted } => write!(f, "+{added} -{deleted} lines"),
            Fact::Bookmarked { name, at } => write!(f, "Bookmark {name} at {at}"),
            Fact::Wrapped => f.write_str("Wrapped"),
            Fact::FoundAt { positions, limit } => {
                let count = positions.len();
                let positions: Vec<String> = positions.iter().map(|p| p.to_string()).collect();
                let full = positions.join(", ");
                if full.chars().count() <= *limit {
                    write!(f, "Found {count} {} at {full}", plural(count, "match"))
                } else {
                    write!(f, "Found {}", list_in_tiers("match", &positions, *limit))
                }
            }
            Fact::Clamped {
                asked,
                shown,
                last_line,
            } => write!(
                f,
                "Block {asked} clamped to {shown}: the file ends at line {last_line}"
            ),
            Fact::ContextLeftOut { limit } => write!(
                f,
                "Context left out (limit {limit} chars; Set Limit <n> to raise it)"
            ),
            Fact::Stepped {
                direction,
                done,
                asked,
            } => {
                let verb = match direction {
                    Direction::Undo => "Undid",
                    Direction::Redo => "Redid",
                };
                if done < asked {
                    write!(f, "{verb} {done} of {asked} (no more steps)")
                } else {
                    write!(f, "{verb} {done}")
                }
            }
            Fact::AlsoIn { files } => write!(f, "Also in {}", files.join(", ")),
            Fact::ModuleDefinition { module, path } => {
                write!(f, "Found 1 definition: module {module} at {path}:0:0")
            }
            Fact::Discarded { what } => write!(f, "Discarded {what}"),
            Fact::ApplyOrDiscard => f.write_str("Apply or Discard"),
            Fact::Script(report) => f.write_str(&script_words(report)),
            Fact::Selected { kind, count } => {
                write!(f, "Selected {count} {}", plural(*count, kind.word()))
            }
            Fact::SelectedEach { queries } => {
                write!(f, "Answered {queries} {}", plural(*queries, "query"))
            }
            Fact::ChangesetsWaiting { names } => write!(
                f,
                "{} {} not applied ({}): apply changeset <name> writes one",
                names.len(),
                plural(names.len(), "changeset"),
                names.join(", ")
            ),
            Fact::Changesets(sets) if sets.is_empty() => f.write_str("No changesets"),
            Fact::Changesets(sets) => {
                let listed: Vec<String> = sets
                    .iter()
                    .map(|(name, state, files)| {
                        format!("{name} ({state}, {files} {})", plural(*files, "file"))
                    })
                    .collect();
                write!(
                    f,
                    "{} {}: {}",
                    sets.len(),
                    plural(sets.len(), "changeset"),
                    listed.join("; ")
                )
            }
            Fact::ChangesetPreview { name, state, files } => write!(
                f,
                "Changeset {name} ({state}): {} {} ({})",
                files.len(),
                plural(files.len(), "file"),
                first_files(files)
            ),
            Fact::ChangesetApplied { name, files } => write!(
                f,
                "Changeset {name} applied: {} {} written as one undo step (rollback changeset {name} takes it back)",
                files.len(),
                plural(files.len(), "file")
            ),
            Fact::ChangesetRolledBack { name, files } => write!(
                f,
                "Changeset {name} rolled back: {} {} restored",
                files.len(),
                plural(files.len(), "file")
            ),
            Fact::ReplacedInFiles { total, files } => write!(
                f,
                "Replaced {total} {} in {} {} ({})",
                plural(*total, "occurrence"),
                files.len(),
                plural(files.len(), "file"),
                first_files(files)
            ),
            Fact::WouldReplace { counts } => {
                let listed: Vec<String> =
                    counts.iter().map(|(path, n)| format!("{path} ({n})")).collect();
                let total: usize = counts.iter().map(|(_, n)| n).sum();
                write!(
                    f,
                    "Preview: Would replace {total} {} in {} {}: {}",
                    plural(total, "occurrence"),
                    listed.len(),
                    plural(listed.len(), "file"),
                    first_files(&listed)
                )
            }
            Fact::Drafts { session, drafts } if drafts.is_empty() => {
                write!(f, "No drafts of session {session}")
            }
            Fact::Drafts { session, drafts } => {
                let lines: Vec<String> = drafts.iter().map(draft_line).collect();
                let n = drafts.len();
                write!(
                    f,
                    "{n} {} of session {session}: {}",
                    plural(n, "draft"),
                    lines.join("; ")
                )
            }
            Fact::Recovered {
                path,
                from,
                kept,
                added,
                deleted,
            } => {
                let of = from
                    .as_ref()
                    .map_or_else(String::new, |session| format!("of session {session} "));
                write!(
                    f,
                    "Recovered {path} from the draft {of}kept {kept} (+{added} -{deleted} lines)"
                )
            }
            Fact::DraftIsTheFile { path, kept } => write!(
                f,
                "The draft of {path} kept {kept} is the file's text: nothing to recover"
            ),
            Fact::SearchedFiles {
                searched,
                skipped,
                limit,
            } => {
                write!(f, "searched {searched} {}", plural(*searched, "file"))?;
                if skipped.is_empty() {
                    return Ok(());
                }
                let n = skipped.len();
                let listed = list_in_tiers("file", skipped, limit / 4);
                if listed.starts_with(|c: char| c.is_ascii_digit()) {
                    // already counted: `40 files (first 3: …)`
                    write!(f, ", skipped {listed}")
                } else {
                    write!(f, ", skipped {n} {}: {listed}", plural(n, "file"))
                }
            }
            Fact::Searched { searched, skipped } => {
                write!(f, "searched {searched} {}", plural(*searched, "file"))?;
                if !skipped.is_empty() {
                    let listed: Vec<String> = skipped
                        .iter()
                        .map(|(path, why)| format!("{path} ({why})"))
                        .collect();
                    write!(
                        f,
                        ", skipped {} {}: {}",
                        skipped.len(),
                        plural(skipped.len(), "file"),
                        first_files(&listed)
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// `a.py (kept <time>, 3 lines, 40 bytes, changed on disk since)`.
fn draft_line(draft: &DraftLine) -> String {
    let since = match draft.since {
        DiskSince::Unchanged => "unchanged on disk",
        DiskSince::Changed => "changed on disk since",
        DiskSince::Deleted => "deleted on disk since",
        DiskSince::Created => "a new file then, created on disk since",
        DiskSince::Absent => "a new file, not on disk",
        DiskSince::Unknown => "disk unknown: kept before Eddi recorded it",
    };
    format!(
        "{} (kept {}, {} {}, {} {}, {since})",
        draft.path,
        draft.kept,
        draft.lines,
        plural(draft.lines, "line"),
        draft.bytes,
        plural(draft.bytes, "byte"),
    )
}

/// The first files of a list, then `… (N more)`.
fn first_files(items: &[String]) -> String {
    /// How many file names a reply lists before `… (N more)`.
    const FILES_SHOWN: usize = 10;
    let mut shown: Vec<String> = items.iter().take(FILES_SHOWN).cloned().collect();
    if items.len() > FILES_SHOWN {
        shown.push(format!("… ({} more)", items.len() - FILES_SHOWN));
    }
    shown.join(", ")
}

/// `Found 3 references and 2 possible`, `Found 1 definition`, …
impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::Definitions(n) => write!(f, "Found {n} {}", plural(*n, "definition")),
            Found::Matches(n) => write!(f, "Found {n} {}", plural(*n, "match")),
            Found::Uses {
                noun,
                certain,
                possible,
            } => {
                write!(f, "Found {certain} {}", plural(*certain, noun))?;
                if *possible > 0 {
                    write!(f, " and {possible} possible")?;
                }
                Ok(())
            }
            Found::Unresolved {
                noun,
                symbol,
                count,
            } => write!(
                f,
                "Found 0 {} (no definition of '{symbol}' in the project); {count} unresolved",
                plural(0, noun)
            ),
        }
    }
}

/// `name (sender s, idle 3 s, unsaved: a.py)`.
fn session_line(session: &SessionLine) -> String {
    let idle = session.idle.as_secs();
    let idle = if idle < 60 {
        format!("{idle} s")
    } else {
        format!("{} min", idle / 60)
    };
    let files = if session.unsaved.is_empty() {
        "no unsaved edits".to_owned()
    } else {
        format!("unsaved: {}", session.unsaved.join(", "))
    };
    format!(
        "{} (sender {}, idle {idle}, {files})",
        session.name, session.sender
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Position;

    #[test]
    fn lists_shorten_in_tiers() {
        let items: Vec<String> = (0..100).map(|i| format!("file{i}.py")).collect();
        assert_eq!(
            list_in_tiers("file", &items[..2], 100),
            "file0.py, file1.py"
        );
        let shortened = list_in_tiers("file", &items, 100);
        assert!(
            shortened.starts_with("100 files (first 4: file0.py, file1.py, file2.py, file3.py;"),
            "{shortened}"
        );
        assert_eq!(list_in_tiers("file", &items, 10), "100 files");
    }

    #[test]
    fn sites_shorten_from_lines_to_positions_to_counts_to_the_total() {
        let sites: Vec<Site> = (0..20)
            .map(|i| Site {
                path: format!("pkg/m{}.py", i % 4),
                position: Position::new(i, 4),
                label: None,
                line: Some(site_line("    x = f(1)   ")),
            })
            .collect();
        let mut same_line = sites[4].clone();
        same_line.position.col = 9;
        let clauses = sites_in_tiers(
            "Found 20 references",
            &[sites[0].clone(), sites[4].clone(), same_line],
            &[],
            1000,
        );
        assert_eq!(
            clauses,
            [
                Clause::Note("Found 20 references, with lines".into()),
                Clause::Txt("pkg/m0.py:0:4: x = f(1)\npkg/m0.py:4:4,9: x = f(1)".into())
            ]
        );
        let tier = |limit| match &sites_in_tiers("Found 20 references", &sites, &[], limit)[..] {
            [Clause::Note(note)] => note.clone(),
            other => panic!("{other:?}"),
        };
        assert!(tier(400).starts_with("Found 20 references, positions only (the lines exceed the limit of 400 chars; Set Limit <n> to raise it): pkg/m0.py:0:4, pkg/m1.py:1:4,"), "{}", tier(400));
        assert_eq!(
            tier(100),
            "Found 20 references, counts per file (too many for positions within 100 chars): pkg/m0.py 5, pkg/m1.py 5, pkg/m2.py 5, pkg/m3.py 5"
        );
        assert_eq!(
            tier(20),
            "Found 20 references in 4 files (too many to list within 20 chars; narrow the query)"
        );
        assert_eq!(
            site_line(&"x".repeat(500)).chars().count(),
            MAX_LINE_CHARS + 1
        );
    }

    #[test]
    fn text_says_when_it_was_shortened() {
        let text = "line\n".repeat(100);
        let clauses = text_in_tiers(&text, 50);
        assert_eq!(
            clauses[0],
            Clause::Note(
                "Shortened to 10 of 100 lines (limit 50 chars; Set Limit <n> to raise it)".into()
            )
        );
    }
}
