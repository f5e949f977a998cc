//! Java's Javadoc references: the names in `{@link Cart#total()}`,
//! `{@linkplain #total label}`, `@see Cart`, `{@value #LIMIT}` and
//! `@throws CartError`, which the javadoc tool resolves as code (a link
//! left to an old name is its "reference not found" error). A rename of
//! a top-level class, or of a member of one, writes them with its uses:
//!
//! - `#member` names the member of the class whose Javadoc (or whose
//!   member's) holds it: the target's class, proven; a class that
//!   extends it (by name) and declares no member of the name inherits
//!   it, proven where the file sees the class; any other class's is its
//!   own;
//! - `Class#member` and `Class` are proven when the class is the
//!   target's as the file sees it (the defining file, a file of its
//!   package, one that imports it or its package, or the name written
//!   with its package), else possible.
//!
//! The files read are the defining file and those whose code spells the
//! class's name (an import or a use): a link from a file that names the
//! class nowhere else stays a mention in a comment.

use ropey::Rope;

use super::{point, Target};
use crate::analysis::index::tags::named_type;
use crate::analysis::index::tags::scan::{DeclaredKind, ImportKind, Imported, TagsFile};
use crate::analysis::outline::SymbolKind;
use crate::refactor::rename::Location;
use crate::refactor::{Project, RefactorError, Unproven};

/// The tags whose argument is a reference.
const REFERENCE_TAGS: &[&str] = &[
    "{@link ",
    "{@linkplain ",
    "{@value ",
    "@see ",
    "@throws ",
    "@exception ",
];

/// One reference of a Javadoc comment: `class#member`, either part
/// possibly empty, with the byte offsets of their starts in the text.
struct Reference<'t> {
    class: &'t str,
    class_at: usize,
    member: &'t str,
    member_at: usize,
}

/// The Javadoc sites of `target`: proven and possible.
pub(super) fn link_sites(
    project: &Project<'_>,
    target: &Target,
) -> Result<(Vec<Location>, Vec<Unproven>), RefactorError> {
    let mut certain = Vec::new();
    let mut possible = Vec::new();
    if target.language.id() != "java" {
        return Ok((certain, possible));
    }
    // the top-level class the target is or is a member of
    let (class, member) = match (&target.class, target.symbol.kind) {
        (None, SymbolKind::Class) => (target.old.as_str(), None),
        (Some(class), _) if !class.contains('.') => (class.as_str(), Some(target.old.as_str())),
        _ => return Ok((certain, possible)),
    };
    let tags = project.index.tags();
    let Some(def_entry) = tags.entry(&target.def_path) else {
        return Ok((certain, possible));
    };
    let package = def_entry.file().package.clone().unwrap_or_default();
    let mut files: Vec<String> = tags
        .files_with(Some("java"), &[class], false)
        .into_iter()
        .map(|e| e.path.clone())
        .collect();
    if !files.contains(&target.def_path) {
        files.push(target.def_path.clone());
    }
    for path in files {
        let Some(entry) = tags.entry(&path) else {
            continue;
        };
        let scan = entry.file();
        let text = project.source(&path)?.text;
        let whole = text.to_string();
        if !whole.contains("/**") {
            continue;
        }
        let sees_class = |written: &str| {
            let (qualifier, name) = written.rsplit_once('.').unwrap_or(("", written));
            name == class
                && match qualifier {
                    "" => path == target.def_path || sees_by_name(scan, &package, class),
                    q => q == package,
                }
        };
        for (comment, references) in javadoc_references(&whole) {
            for r in references {
                let written_class = r.class.rsplit('.').next().unwrap_or(r.class);
                let sure = match member {
                    // the class itself (`{@link Cart}`, `{@link p.Cart#add}`)
                    None if written_class == class => {
                        let at = r.class_at + r.class.len() - class.len();
                        Some((at, sees_class(r.class)))
                    }
                    None => None,
                    Some(member) if r.member != member => None,
                    Some(_) if r.class.is_empty() => {
                        match class_of_comment(scan, &text, comment.clone()) {
                            Some(around) if around == class && path == target.def_path => {
                                Some((r.member_at, true))
                            }
                            // a subclass's own Javadoc: the member it inherits
                            Some(around)
                                if !declares(scan, around, r.member)
                                    && extends(scan, around, class) =>
                            {
                                Some((r.member_at, sees_class(class)))
                            }
                            _ => None,
                        }
                    }
                    Some(_) if written_class == class => Some((r.member_at, sees_class(r.class))),
                    Some(_) => None,
                };
                let Some((at, proven)) = sure else {
                    continue;
                };
                let name = target.old.as_str();
                let site = point(&text, &path, text.byte_to_char(at), name);
                match proven {
                    true => certain.push(site),
                    false => possible.push(Unproven {
                        site,
                        why: "a Javadoc reference of the name: which class it names, the index does not know"
                            .to_string(),
                    }),
                }
            }
        }
    }
    Ok((certain, possible))
}

/// Whether a file that writes the class's bare name sees the package's
/// class: it is of the package, or imports the class or the package.
fn sees_by_name(file: &TagsFile, package: &str, class: &str) -> bool {
    file.package.as_deref().unwrap_or_default() == package
        || file.imports.iter().any(|i| {
            i.kind == ImportKind::Static
                && i.source == package
                && match &i.imported {
                    Imported::Name(n) => n == class,
                    Imported::All => true,
                    _ => false,
                }
        })
}

/// Whether the file's class `class` extends or implements one named
/// `base` (as written, without its package or type arguments).
fn extends(file: &TagsFile, class: &str, base: &str) -> bool {
    file.declared.iter().any(|d| {
        matches!(d.kind, DeclaredKind::Extends | DeclaredKind::Implements)
            && d.owner.as_deref() == Some(class)
            && named_type(&d.type_text) == base
    })
}

/// Whether the file's class `class` declares a member `name`.
fn declares(file: &TagsFile, class: &str, name: &str) -> bool {
    file.defs
        .iter()
        .any(|d| d.name == name && d.container.as_deref() == Some(class))
}

/// The class a Javadoc comment (its byte range) documents or is in: the
/// innermost class around it, else the class declared right after it.
fn class_of_comment<'f>(
    file: &'f TagsFile,
    text: &Rope,
    comment: std::ops::Range<usize>,
) -> Option<&'f str> {
    let start = text.byte_to_char(comment.start);
    let end = text.byte_to_char(comment.end);
    let classes = || file.defs.iter().filter(|d| d.kind == SymbolKind::Class);
    let around = classes()
        .filter(|d| d.span.start <= start && end <= d.span.end)
        .min_by_key(|d| d.span.len());
    let next = || {
        let d = classes()
            .filter(|d| d.span.start >= end)
            .min_by_key(|d| d.span.start)?;
        let between = text.slice(end..d.span.start).to_string();
        between.trim().is_empty().then_some(d)
    };
    // (a class's own Javadoc stands before it, inside the class around)
    next().or(around).map(|d| d.name.as_str())
}

/// The Javadoc comments of `text` (byte ranges) with their references.
fn javadoc_references(text: &str) -> Vec<(std::ops::Range<usize>, Vec<Reference<'_>>)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("/**").map(|i| from + i) {
        let close = text[open + 3..]
            .find("*/")
            .map_or(text.len(), |i| open + 3 + i + 2);
        let comment = &text[open..close];
        let mut references = Vec::new();
        for tag in REFERENCE_TAGS {
            for (i, _) in comment.match_indices(tag) {
                let at = open + i + tag.len();
                if let Some(r) = reference_at(text, at) {
                    references.push(r);
                }
            }
        }
        found.push((open..close, references));
        from = close;
    }
    found
}

/// The reference written from byte `at` on (blanks first): a class's
/// dotted name, then `#` and a member's name, either part possibly
/// missing.
fn reference_at(text: &str, at: usize) -> Option<Reference<'_>> {
    let blank = text[at..].len() - text[at..].trim_start_matches([' ', '\t']).len();
    let start = at + blank;
    let word = |from: usize, dots: bool| {
        let len = text[from..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || (dots && c == '.')))
            .unwrap_or(text.len() - from);
        &text[from..from + len]
    };
    let class = word(start, true).trim_end_matches('.');
    let after = start + class.len();
    let (member, member_at) = match text[after..].strip_prefix('#') {
        Some(_) => (word(after + 1, false), after + 1),
        None => ("", after),
    };
    (!class.is_empty() || !member.is_empty()).then_some(Reference {
        class,
        class_at: start,
        member,
        member_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_read_from_the_reference_tags() {
        let text = "/** See {@link #total()} and {@linkplain p.Cart#add(int) add}.\n * @see Cart\n * @throws CartError when {@code x} */";
        let found = javadoc_references(text);
        let refs: Vec<(&str, &str)> = found[0].1.iter().map(|r| (r.class, r.member)).collect();
        assert_eq!(
            refs,
            [
                ("", "total"),
                ("p.Cart", "add"),
                ("Cart", ""),
                ("CartError", "")
            ]
        );
        let add = &found[0].1[1];
        assert_eq!(&text[add.member_at..add.member_at + 3], "add");
        assert_eq!(&text[add.class_at..add.class_at + 6], "p.Cart");
    }
}
