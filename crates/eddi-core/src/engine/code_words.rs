//! The words of the code commands' facts ([`CodeFact`]): the terse note
//! and the JSON `message` of Insert, Modify, Comment, Format, Analyze and
//! Validate, and of the syntax errors a save or a text edit left.

use std::fmt::{self, Display, Formatter};

use crate::analysis::comment::Commented;
use crate::analysis::dependencies::Dependencies;
use crate::analysis::validate::SyntaxError;
use crate::outcome::{CodeFact, Element};
use crate::reply::plural;

use super::ops::{ComplexityReport, StructureNode};
use super::output::list_in_tiers;

impl Display for Element {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.noun, self.name)
    }
}

impl Display for CodeFact {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            CodeFact::NothingInserted { why } => write!(f, "Nothing inserted: {why}"),
            CodeFact::MergedIntoLine(line) => write!(f, "Merged into line {line}"),
            CodeFact::Modified { element, edits } => {
                write!(f, "Modified {element} ({edits} {})", plural(*edits, "edit"))
            }
            CodeFact::Commented {
                docstring,
                element,
                how,
            } => {
                let what = if *docstring { "Docstring" } else { "Comment" };
                let lines = |n: usize| format!("{n} {}", plural(n, "line"));
                match how {
                    Commented::Added => write!(f, "{what} added to {element}"),
                    Commented::AddedBelow(n) => write!(
                        f,
                        "{what} added to {element}, below its {} of comments",
                        lines(*n)
                    ),
                    Commented::Replaced(n) => {
                        write!(f, "{what} replaced on {element} (was {})", lines(*n))
                    }
                }
            }
            CodeFact::AlreadyFormatted => f.write_str("Already formatted"),
            CodeFact::Formatted { before, after } => {
                write!(f, "Formatted, {before} -> {after} lines")
            }
            CodeFact::Overview {
                subject,
                complexity,
                external,
                issues,
            } => {
                let subject = Subject(subject.as_ref());
                match complexity.total {
                    Some(c) => write!(f, "{subject} has complexity {c}")?,
                    None => write!(f, "{subject}: {}", Blocks(complexity))?,
                }
                write!(
                    f,
                    ", uses {external} external {}, {issues} potential {} found",
                    dependencies(*external),
                    plural(*issues, "issue")
                )
            }
            CodeFact::Complexity {
                subject,
                report,
                limit,
            } => complexity(f, Subject(subject.as_ref()), report, *limit),
            CodeFact::Dependencies {
                subject,
                dependencies,
                limit,
            } => uses(f, Subject(subject.as_ref()), dependencies, *limit),
            CodeFact::ElementUses {
                subject,
                uses: found,
                limit,
            } => element_uses(f, Subject(subject.as_ref()), found, *limit),
            CodeFact::ModuleImports { imports, limit } => module_imports(f, imports, *limit),
            CodeFact::Issues {
                subject, issues, ..
            } if issues.is_empty() => {
                write!(
                    f,
                    "{}: no potential issues found",
                    Subject(subject.as_ref())
                )
            }
            CodeFact::Issues { issues, limit, .. } => {
                let listed: Vec<String> = issues.iter().map(ToString::to_string).collect();
                let n = listed.len();
                write!(
                    f,
                    "{n} potential {}: {}",
                    plural(n, "issue"),
                    list_in_tiers("issue", &listed, *limit)
                )
            }
            CodeFact::Structure { subject, tree } => members(f, Subject(subject.as_ref()), tree),
            CodeFact::SyntaxErrors { errors, .. } if errors.is_empty() => {
                f.write_str("No syntax errors")
            }
            CodeFact::SyntaxErrors { errors, limit } => {
                let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
                let n = listed.len();
                write!(
                    f,
                    "{n} syntax {}: {}",
                    plural(n, "error"),
                    list_in_tiers("error", &listed, *limit)
                )
            }
            CodeFact::SavedWithErrors { path, errors } => {
                if let Some(path) = path {
                    write!(f, "{path}: ")?;
                }
                let n = errors.len();
                let at: Vec<String> = errors
                    .iter()
                    .take(5)
                    .map(|e| e.position.to_string())
                    .collect();
                write!(f, "{n} syntax {} at {}", plural(n, "error"), at.join(", "))
            }
            CodeFact::NowInvalid { language, errors } => {
                write!(
                    f,
                    "Now invalid {language} ({} syntax {}): ",
                    errors.len(),
                    plural(errors.len(), "error")
                )?;
                first_errors(f, errors)
            }
        }
    }
}

/// What an analysis is about, capitalized to start the reply: `File`,
/// `Method C.m`.
struct Subject<'a>(Option<&'a Element>);

impl Display for Subject<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let Some(element) = self.0 else {
            return f.write_str("File");
        };
        let mut noun = element.noun.chars();
        if let Some(first) = noun.next() {
            write!(f, "{}{}", first.to_uppercase(), noun.as_str())?;
        }
        write!(f, " {}", element.name)
    }
}

/// `dependency` or `dependencies`.
fn dependencies(n: usize) -> &'static str {
    if n == 1 {
        "dependency"
    } else {
        "dependencies"
    }
}

/// The first three errors, then `…` if there are more.
fn first_errors(f: &mut Formatter<'_>, errors: &[SyntaxError]) -> fmt::Result {
    let listed: Vec<String> = errors.iter().take(3).map(ToString::to_string).collect();
    f.write_str(&listed.join(", "))?;
    if errors.len() > 3 {
        f.write_str(", …")?;
    }
    Ok(())
}

/// `Analyze … Complexity`: the element's figure and its blocks, or the
/// file's overview.
fn complexity(
    f: &mut Formatter<'_>,
    subject: Subject<'_>,
    report: &ComplexityReport,
    limit: usize,
) -> fmt::Result {
    match report.total {
        Some(c) if report.blocks.len() <= 1 => write!(f, "{subject} has complexity {c}"),
        Some(c) => {
            let inner: Vec<String> = report
                .blocks
                .iter()
                .map(|b| format!("{} {}", b.name, b.complexity))
                .collect();
            write!(
                f,
                "{subject} has complexity {c}; {}",
                list_in_tiers("block", &inner, limit)
            )
        }
        None => write!(f, "{subject}: {}", Blocks(report)),
    }
}

/// A file's complexity overview: blocks, their average, the highest.
struct Blocks<'a>(&'a ComplexityReport);

impl Display for Blocks<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let blocks = &self.0.blocks;
        if blocks.is_empty() {
            return f.write_str("no functions or classes");
        }
        let total: u32 = blocks.iter().map(|b| b.complexity).sum();
        let top: Vec<String> = self
            .0
            .ranked()
            .iter()
            .take(5)
            .map(|b| format!("{} {}", b.name, b.complexity))
            .collect();
        write!(
            f,
            "{} {}, average complexity {:.1}, highest {}",
            blocks.len(),
            plural(blocks.len(), "block"),
            f64::from(total) / blocks.len() as f64,
            top.join(", ")
        )
    }
}

/// `Analyze … Dependencies`: the imports used, then the file's own names,
/// the builtins and the unresolved names read.
fn uses(
    f: &mut Formatter<'_>,
    subject: Subject<'_>,
    deps: &Dependencies,
    limit: usize,
) -> fmt::Result {
    let n = deps.external_count();
    write!(f, "{subject} uses {n} external {}", dependencies(n))?;
    let imports: Vec<String> = deps
        .imports
        .iter()
        .map(|i| {
            let dots = ".".repeat(i.level);
            match &i.name {
                Some(name) => format!("{dots}{}.{name}", i.module).replace("..", "."),
                None => format!("{dots}{}", i.module),
            }
        })
        .collect();
    if !imports.is_empty() {
        write!(f, ": {}", list_in_tiers("import", &imports, limit / 2))?;
    }
    for (label, names) in [
        ("internal", &deps.internal),
        ("builtins", &deps.builtins),
        ("unresolved", &deps.unresolved),
    ] {
        if !names.is_empty() {
            write!(f, "; {label}: {}", list_in_tiers("name", names, limit / 4))?;
        }
    }
    Ok(())
}

/// `Analyze … Dependencies` of an element of a brace language's file:
/// the sources it reads through (with what it reads there), then the
/// file's own names, the builtins and the unresolved names.
fn element_uses(
    f: &mut Formatter<'_>,
    subject: Subject<'_>,
    found: &crate::analysis::brace_dependencies::ElementUses,
    limit: usize,
) -> fmt::Result {
    let n = found.external.len();
    write!(f, "{subject} uses {n} external {}", dependencies(n))?;
    let sources: Vec<String> = found
        .external
        .iter()
        .map(|s| format!("{} ({})", s.source, s.names.join(", ")))
        .collect();
    if !sources.is_empty() {
        write!(f, ": {}", list_in_tiers("source", &sources, limit / 2))?;
    }
    for (label, names) in [
        ("internal", &found.internal),
        ("builtins", &found.builtins),
        ("unresolved", &found.unresolved),
    ] {
        if !names.is_empty() {
            write!(f, "; {label}: {}", list_in_tiers("name", names, limit / 4))?;
        }
    }
    Ok(())
}

/// `Analyze File Dependencies` of a brace language's file: the sources it
/// imports from, the project's (with their files) then the others.
fn module_imports(
    f: &mut Formatter<'_>,
    imports: &crate::analysis::index::tags::FileImports,
    limit: usize,
) -> fmt::Result {
    let n = imports.imports.len();
    write!(f, "The file imports from {n} {}", plural(n, "source"))?;
    let internal: Vec<String> = imports
        .internal()
        .map(|i| match i.files.as_slice() {
            [one] if *one != i.source => format!("{} ({one})", i.source),
            [_] => i.source.clone(),
            many => format!("{} ({} files)", i.source, many.len()),
        })
        .collect();
    let external: Vec<String> = imports.external().map(|i| i.source.clone()).collect();
    if !internal.is_empty() {
        write!(
            f,
            "; of the project: {}",
            list_in_tiers("source", &internal, limit / 2)
        )?;
    }
    if !external.is_empty() {
        write!(
            f,
            "; from outside or not found: {}",
            list_in_tiers("source", &external, limit / 2)
        )?;
    }
    Ok(())
}

/// An outline: the members of a class, or the top level of the file.
fn members(f: &mut Formatter<'_>, owner: Subject<'_>, tree: &StructureNode) -> fmt::Result {
    if tree.children.is_empty() {
        return write!(f, "{owner} has no members");
    }
    write!(f, "{owner}: ")?;
    for (i, s) in tree.children.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if s.is_async {
            f.write_str("async ")?;
        }
        let at = s
            .span
            .map_or_else(String::new, |span| span.start.to_string());
        write!(f, "{} {} at {at}", s.kind, s.name)?;
    }
    Ok(())
}
