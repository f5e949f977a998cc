//! `Modify … Rename` of a member of a brace-language file, checked as the
//! project-wide rename would check it.
//!
//! A rename in one file cannot see what ties a member to other code: a
//! method another class overrides without saying so (Java's missing
//! `@Override`, a TypeScript subclass), a method that makes its type
//! satisfy an interface outside the project (Go's `var _ io.Writer =
//! &W{}`, Java's `toString`), a name a derived trait's method takes (Rust's
//! `P::default()`). `Refactor RenameSymbol` checks them across the
//! project. So once the file's own checks pass, that rename is computed
//! (not applied), its possible sites included: a name conflict it finds,
//! another definition it renames with the member (an override, an
//! implementation), code outside the project that reads the member's
//! own definition by name, or (Go) an interface's method of its name,
//! refuses the rename of one file too, naming the
//! command that renames them together. The check reads the session's
//! texts, its unsaved edits included. Its uses in other files stay the
//! note they were ([`super::leftovers`]).

use crate::analysis::outline::SymbolKind;
use crate::commands::{CodeTarget, Command, Modification};
use crate::refactor::{Located, Refactoring, RenameKind, SitePolicy};

use super::context::Ctx;
use super::ops::{ErrorKind, OpError};
use super::{Engine, Held};

impl Engine {
    /// Before `command`: the reason `Modify <member> Rename <new>` of a
    /// brace-language file is unsafe in that file alone, if it is.
    pub(super) fn member_rename_refused(
        &self,
        live: &mut Held,
        command: &Command,
    ) -> Option<OpError> {
        let Command::Modify {
            target,
            change: Modification::Rename { new_name },
        } = command
        else {
            return None;
        };
        let path = live.session.current.clone()?;
        if !crate::analysis::index::tags::reads(path.as_str()) {
            return None;
        }
        let (name, edited) = {
            let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
            let name = member_name(&mut ctx, target)?;
            // (what the file's own checks refuse, they say)
            (name, ctx.file_rename_checked(target, new_name).ok()??)
        };
        let request = Located::here(Refactoring::Rename {
            kind: RenameKind::Symbol,
            symbol: name.clone(),
            new_name: new_name.clone(),
            include_text: false,
            sites: SitePolicy::IncludePossible,
        });
        let instead = format!("Refactor RenameSymbol {name} {new_name}");
        let refused = |why: String| {
            OpError::new(
                ErrorKind::NotApplicable,
                format!("{name} is not renamed in this file alone: {why}; {instead} checks the project and renames what follows from it"),
            )
        };
        let computed = match self.check_refactor(live, &request) {
            // (the project's rename is refused as well: no use naming it)
            Err(fault) if fault.error.kind == ErrorKind::Conflict => return Some(fault.error),
            // (what the index cannot tell, the file's own rename decided)
            Err(_) => return None,
            Ok(computed) => computed,
        };
        let evidence = &computed.refactored.evidence;
        if !evidence.also.is_empty() {
            return Some(refused(format!(
                "{} must keep one name with it (one overrides the other)",
                evidence.also.join(", ")
            )));
        }
        // a site in this file the project's rename proves and the file's
        // own does not see (a namespace's member read bare in its body)
        let untouched = |l: &crate::analysis::index::Location| {
            l.path == path.as_str()
                && !edited
                    .iter()
                    .any(|(start, end)| *start <= l.position && l.position <= *end)
        };
        let missed: Vec<String> = evidence
            .proven
            .iter()
            .filter(|l| untouched(l))
            .map(|l| l.to_string())
            .collect();
        if !missed.is_empty() {
            return Some(refused(format!(
                "it is also used at {} in this file, which a rename of one file does not see",
                missed.join(", ")
            )));
        }
        // and a site in this file it cannot prove, which the file's own
        // rename would leave without a word
        let unproven: Vec<String> = evidence
            .possible
            .iter()
            .filter(|u| untouched(&u.site))
            .map(|u| format!("{} ({})", u.site, u.why))
            .collect();
        if !unproven.is_empty() {
            return Some(refused(format!(
                "it may also be used at {} in this file",
                unproven.join(", ")
            )));
        }
        // code outside the project reading the definition itself by name;
        // in Go, an interface's method of the name too (a type satisfies
        // an interface by its methods' names alone)
        let go = path.as_str().ends_with(".go");
        let last = name.rsplit('.').next().unwrap_or(&name);
        let outside = match go {
            true => self.possible_at_definitions(live, &evidence.possible, last, None),
            false => self.possible_at_definitions(live, &evidence.possible, &name, Some(&path)),
        };
        outside.into_iter().next().map(refused)
    }

    /// The sites of `possible` that are definitions the index finds for
    /// `query` (asked from `from`), each with why it may be one: code
    /// outside the project reading a member's definition by name, or
    /// (Go) an interface's method of its name.
    pub(super) fn possible_at_definitions(
        &self,
        live: &Held,
        possible: &[crate::refactor::Unproven],
        query: &str,
        from: Option<&crate::workspace::WorkspacePath>,
    ) -> Vec<String> {
        let definitions = self.with_index(&live.session, |index, _, _| {
            (index.tags())
                .find_definition(index.root(), query, from.map(|p| p.as_str()))
                .unwrap_or_default()
        });
        possible
            .iter()
            .filter(|u| {
                definitions
                    .iter()
                    .any(|d| d.location.path == u.site.path && d.name_position == u.site.position)
            })
            .map(|u| format!("{} ({})", u.site, u.why))
            .collect()
    }
}

/// The name the brace index knows `target` by, when it is a member (a
/// method, a field, a namespace's variable) other code may reach.
fn member_name(ctx: &mut Ctx<'_>, target: &CodeTarget) -> Option<String> {
    let name = ctx.brace_rename_name(target)?;
    let kind = ctx.symbol_kind(target)?;
    // (Rust reads a module's items through paths too — `super::helper`,
    // `crate::helper`, `inner::twice` — which the file's own rename of
    // bare names does not see)
    let rust = ctx
        .current_path()
        .is_ok_and(|p| p.as_str().ends_with(".rs"));
    let member = match kind {
        SymbolKind::Method | SymbolKind::Attribute => true,
        // a namespace's (TypeScript's `NS.helper`), or a nested class
        SymbolKind::Variable | SymbolKind::Function | SymbolKind::Class => {
            rust || name.contains('.')
        }
        _ => false,
    };
    member.then_some(name)
}
