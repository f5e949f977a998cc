//! `Modify <method> AddParam | RemoveParam | ChangeSignature |
//! SetVisibility` of a brace-language method, and `Delete` of a Go
//! method, checked for the methods that must agree with it.
//!
//! The edit changes one method. A method another one overrides or
//! implements (a Java interface's method and its classes', a Rust
//! trait's and its impls'), or one that may make its type satisfy an
//! interface (Go, where a type implements an interface by its methods'
//! names and signatures alone), would then disagree with them: the
//! compiler refuses the override (E0050, "does not override", "does not
//! implement"). So would an override given weaker access than the
//! method it overrides (Java's "attempting to assign weaker access",
//! TS2415); a method made private overrides nothing any more, and a Go
//! method deleted no longer satisfies the interface. The project-wide
//! rename knows these ties: it is computed (to a probe name), not
//! applied, and what it renames with the method (its family) or cannot
//! prove at another definition of the name (Go's interfaces) refuses the
//! edit, naming them.

use crate::analysis::outline::SymbolKind;
use crate::commands::{CodeTarget, Command, DeleteTarget, Modification};
use crate::refactor::{Located, Refactoring, RenameKind, SitePolicy};

use super::context::Ctx;
use super::ops::{ErrorKind, OpError};
use super::{Engine, Held};

/// What the command does to the method.
#[derive(Clone, Copy)]
enum Edit {
    Change,
    Delete,
}

impl Engine {
    /// Before `command`: why a change of a brace method's parameters or
    /// access, or a Go method's deletion, would leave the methods tied to
    /// it disagreeing, if it would.
    pub(super) fn member_signature_refused(
        &self,
        live: &mut Held,
        command: &Command,
    ) -> Option<OpError> {
        let path = live.session.current.clone()?;
        let ends = |extensions: &[&str]| extensions.iter().any(|e| path.as_str().ends_with(e));
        let (target, change) = match command {
            Command::Modify { target, change } => (target, Some(change)),
            // Go: a method an interface of its name may need, deleted
            Command::Delete(DeleteTarget::Code(target)) if ends(&[".go"]) => (target, None),
            _ => return None,
        };
        let es = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"];
        let Some(change) = change else {
            return self.tied_refusal(live, target, "Cannot delete", Edit::Delete);
        };
        let what = match change {
            // (TypeScript lets an override take fewer parameters, and
            // JavaScript any: their calls are named instead)
            Modification::AddParam { .. }
            | Modification::RemoveParam { .. }
            | Modification::ChangeSignature { .. }
                if !ends(&es) =>
            {
                "the parameters"
            }
            // an override takes no weaker access than the method it
            // overrides (Java, TypeScript: TS2415), and a private one
            // overrides none
            Modification::SetVisibility { .. } if ends(&[".java", ".ts", ".tsx", ".mts"]) => {
                "the access"
            }
            _ => return None,
        };
        let doing = format!("Cannot change {what} of");
        self.tied_refusal(live, target, &doing, Edit::Change)
    }

    /// Why `doing` (`Cannot change the parameters of`, `Cannot delete`)
    /// the method `target` of the current file alone would leave the
    /// methods tied to it disagreeing, if it would: the project-wide
    /// rename's family, or (Go) an interface's method of its name.
    fn tied_refusal(
        &self,
        live: &mut Held,
        target: &CodeTarget,
        doing: &str,
        edit: Edit,
    ) -> Option<OpError> {
        let path = live.session.current.clone()?;
        if !crate::analysis::index::tags::reads(path.as_str()) {
            return None;
        }
        let name = {
            let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
            if ctx.symbol_kind(target)? != SymbolKind::Method {
                return None;
            }
            ctx.brace_rename_name(target)?
        };
        let last = name.rsplit('.').next().unwrap_or(&name).to_string();
        // a name no code spells: the rename's sites are the method's ties
        let request = Located::here(Refactoring::Rename {
            kind: RenameKind::Symbol,
            symbol: name.clone(),
            new_name: format!("{last}_eddi_signature_probe"),
            include_text: false,
            sites: SitePolicy::IncludePossible,
        });
        let refused = |why: String| {
            OpError::new(
                ErrorKind::NotApplicable,
                format!("{doing} {name} alone: {why}; {}", match edit {
                    Edit::Delete => "remove the method from what needs it first, or keep it",
                    Edit::Change => "this command changes one method: change theirs with it by hand, or leave it as it is",
                }),
            )
        };
        // (what the index cannot tell, the file's own checks decided)
        let computed = self.compute_refactor(live, &request, false).ok()?;
        let evidence = &computed.refactored.evidence;
        if !evidence.also.is_empty() {
            return Some(refused(format!(
                "{} override{} it, implement{} it or {} overridden by it, and must agree with it",
                evidence.also.join(", "),
                if evidence.also.len() == 1 { "s" } else { "" },
                if evidence.also.len() == 1 { "s" } else { "" },
                if evidence.also.len() == 1 {
                    "is"
                } else {
                    "are"
                },
            )));
        }
        // Go: another definition of the name it may stand for (an
        // interface's method, which the type may implement)
        if !path.as_str().ends_with(".go") {
            return None;
        }
        let interfaces = self.possible_at_definitions(live, &evidence.possible, &last, None);
        (!interfaces.is_empty()).then(|| {
            refused(format!(
                "its type may implement an interface through it, whose method of the name is at {}, and would no longer",
                interfaces.join(", ")
            ))
        })
    }
}
