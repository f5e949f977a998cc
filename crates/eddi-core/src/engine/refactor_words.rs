//! The words and the JSON of a refactor's report — the renderer's side
//! of [`Report::Refactor`](crate::outcome::Report): what the summary line
//! says per kind (from the registry's `Summary::words`), what else was
//! renamed, inferred, possible or left alone (the safety contract), the
//! mentions and data strings, and the `refactor` object.

use serde_json::{json, Value};

use crate::analysis::index::Location as Site;
use crate::outcome::{Fact, Preview};
use crate::refactor::{self, Refactoring, SitePolicy};
use crate::reply::{plural, Clause};

use super::ops::json as op_json;
use super::RefactorReport;

/// How many sites a terse reply lists before `… (N more)`.
const SITES_SHOWN: usize = 5;

/// `Renamed in 2 files (a.py, b.py), 23 references updated` and its kin
/// (worded by the summary, `refactor::kinds`).
fn summary_words(report: &RefactorReport) -> String {
    let files = listed(report.files.iter().map(|f| f.path.clone()));
    report.refactored.summary.words(&files, &sites)
}

/// `a.py:3:4, b.py:9:0 … (N more)`.
fn sites(sites: &[&Site]) -> String {
    let mut shown: Vec<String> = sites
        .iter()
        .take(SITES_SHOWN)
        .map(|s| s.to_string())
        .collect();
    if sites.len() > SITES_SHOWN {
        shown.push(format!("… ({} more)", sites.len() - SITES_SHOWN));
    }
    shown.join(", ")
}

/// What every refactor reply adds: what else it renamed, what it
/// inferred, the possible uses it changed or left (the safety contract),
/// what else was left alone, and mentions.
fn side_clauses(report: &RefactorReport) -> Vec<Clause> {
    let refactored = &report.refactored;
    let evidence = &refactored.evidence;
    let mut clauses = Vec::new();
    // overrides up and down the hierarchy, then members name-based
    // dispatch reaches
    let also: Vec<String> = evidence
        .also
        .iter()
        .cloned()
        .chain(refactored.also_renamed.iter().map(|a| {
            format!(
                "{} → {} (dispatch by the class's name at {}:{})",
                a.symbol, a.new_name, a.dispatch.path, a.dispatch.position.line
            )
        }))
        .collect();
    if !also.is_empty() {
        clauses.push(Clause::Note(format!(
            "also renamed: {}",
            listed(also.into_iter())
        )));
    }
    let unproven = |sites: &[refactor::Unproven]| {
        listed(sites.iter().map(|u| format!("{} ({})", u.site, u.why)))
    };
    if !refactored.assumed.is_empty() {
        clauses.push(Clause::Note(listed(refactored.assumed.iter().map(|a| {
            format!("{} at {}:{}", a.why, a.site.path, a.site.position)
        }))));
    }
    if !evidence.inferred.is_empty() {
        let n = evidence.inferred.len();
        clauses.push(Clause::Note(format!(
            "inferred: {n} {} changed without proof, check them: {}",
            plural(n, "use"),
            unproven(&evidence.inferred)
        )));
    }
    let policy = report.refactoring.site_policy();
    let possible = &evidence.possible;
    if !possible.is_empty() {
        let n = possible.len();
        clauses.push(Clause::Note(match policy {
            SitePolicy::OnlyProven => format!(
                "may be broken at: {n} possible {} left unchanged (Only Proven): {}",
                plural(n, "use"),
                unproven(possible)
            ),
            _ => format!(
                "possible: {n} {} changed too (Include Possible): {}",
                plural(n, "use"),
                unproven(possible)
            ),
        }));
    }
    // The possible uses an Only Proven refactor left are said above.
    let left_alone: Vec<&refactor::LeftAlone> = refactored
        .left_alone
        .iter()
        .filter(|left| !possible.iter().any(|p| p.site == left.site))
        .collect();
    if !left_alone.is_empty() {
        clauses.push(Clause::Note(format!(
            "left alone: {} {} it cannot prove: {}",
            left_alone.len(),
            plural(left_alone.len(), "use"),
            listed(
                left_alone
                    .iter()
                    .map(|left| format!("{} ({})", left.site, left.why))
            )
        )));
    }
    if !refactored.mentions.is_empty() {
        let all: Vec<&Site> = refactored.mentions.iter().collect();
        let include_text = matches!(
            report.refactoring,
            Refactoring::Rename {
                include_text: true,
                ..
            }
        );
        clauses.push(Clause::Note(if include_text {
            format!(
                "not changed: {} {} in strings and comments of files the rename does not otherwise change ({})",
                all.len(),
                plural(all.len(), "mention"),
                sites(&all)
            )
        } else {
            format!(
                "not changed: {} {} in strings and comments ({}); Include Text changes them",
                all.len(),
                plural(all.len(), "mention"),
                sites(&all)
            )
        }));
    }
    if !refactored.data_strings.is_empty() {
        let data = &refactored.data_strings;
        let mut shown: Vec<String> = data
            .iter()
            .take(SITES_SHOWN)
            .map(|d| format!("{} ({})", d.site, d.why))
            .collect();
        if data.len() > SITES_SHOWN {
            shown.push(format!("… ({} more)", data.len() - SITES_SHOWN));
        }
        clauses.push(Clause::Note(format!(
            "data strings: {} {} naming it as data, never changed (not even with Include Text): {}",
            data.len(),
            plural(data.len(), "string"),
            shown.join(", ")
        )));
    }
    clauses.push(op_json::data("refactor", report_json(report)));
    clauses
}

/// The first few of `items`, then `… (N more)`.
fn listed(items: impl ExactSizeIterator<Item = String>) -> String {
    let total = items.len();
    let mut shown: Vec<String> = items.take(SITES_SHOWN).collect();
    if total > SITES_SHOWN {
        shown.push(format!("… ({} more)", total - SITES_SHOWN));
    }
    shown.join(", ")
}

/// The clauses of a refactor's report: applied, or previewed.
pub(crate) fn report(report: &RefactorReport, preview: Option<&Preview>) -> Vec<Clause> {
    match preview {
        None => applied(report),
        Some(preview) => previewed(report, preview.diff, preview.waiting),
    }
}

fn applied(report: &RefactorReport) -> Vec<Clause> {
    let mut clauses = vec![Clause::Note(summary_words(report))];
    if report.files.is_empty() {
        clauses = vec![Clause::Note("Nothing to change".into())];
    }
    clauses.extend(side_clauses(report));
    clauses
}

/// `Preview: Would modify 2 files: a.py, b.py, 23 references`.
fn previewed(report: &RefactorReport, diff: bool, waiting: bool) -> Vec<Clause> {
    let names: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
    let mut clauses = vec![Clause::Note(format!(
        "Preview: Would modify {} {}: {}, {}",
        names.len(),
        plural(names.len(), "file"),
        names.join(", "),
        report.refactored.summary.preview_counts()
    ))];
    if waiting {
        clauses.push(Clause::Fact(Fact::ApplyOrDiscard));
    }
    clauses.extend(side_clauses(report));
    if diff {
        let text: String = report.files.iter().map(|f| f.diff.as_str()).collect();
        clauses.push(Clause::Txt(text.trim_end_matches('\n').to_owned()));
    }
    clauses
}

pub(super) fn report_json(report: &RefactorReport) -> Value {
    let site = |s: &Site| {
        json!({
            "path": s.path,
            "line": s.position.line,
            "col": s.position.col,
            "end_line": s.end.line,
            "end_col": s.end.col,
        })
    };
    let unproven = |u: &refactor::Unproven| {
        let mut object = site(&u.site);
        object["why"] = json!(u.why);
        object
    };
    let refactored = &report.refactored;
    let evidence = &refactored.evidence;
    let summary = refactored.summary.json(&site);
    json!({
        "kind": report.refactoring.spec_name(),
        "applied": report.applied,
        "summary": summary,
        "files": report.files.iter().map(|f| json!({"path": f.path, "edits": f.edits, "diff": f.diff})).collect::<Vec<_>>(),
        "left_alone": refactored.left_alone.iter().map(|l| {
            let mut object = site(&l.site);
            object["why"] = json!(l.why);
            object
        }).collect::<Vec<_>>(),
        "mentions": refactored.mentions.iter().map(site).collect::<Vec<_>>(),
        "proven": evidence.proven.iter().map(site).collect::<Vec<_>>(),
        "inferred": evidence.inferred.iter().map(unproven).collect::<Vec<_>>(),
        "possible": evidence.possible.iter().map(unproven).collect::<Vec<_>>(),
        "site_policy": match report.refactoring.site_policy() {
            SitePolicy::Refuse => "refuse",
            SitePolicy::IncludePossible => "include_possible",
            SitePolicy::OnlyProven => "only_proven",
        },
        "overrides_renamed": evidence.also,
        "data_strings": refactored.data_strings.iter().map(|d| {
            let mut object = site(&d.site);
            object["why"] = json!(d.why);
            object
        }).collect::<Vec<_>>(),
        "assumed": refactored.assumed.iter().map(|a| {
            let mut object = site(&a.site);
            object["why"] = json!(a.why);
            object
        }).collect::<Vec<_>>(),
        "also_renamed": refactored.also_renamed.iter().map(|a| json!({
            "symbol": a.symbol,
            "new_name": a.new_name,
            "dispatch": site(&a.dispatch),
        })).collect::<Vec<_>>(),
    })
}
