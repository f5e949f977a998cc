//! `Modify <method> AddParam | RemoveParam | ChangeSignature |
//! SetVisibility` and `Delete` of a brace-language method, checked for
//! the methods that must agree with it.
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
//! method deleted no longer satisfies the interface. A method deleted
//! leaves its overrides nothing to override, its trait's impls a method
//! the trait lacks, its type without a method its trait or interface
//! requires — within the project or outside it (a Rust `impl Iterator`,
//! a Java `@Override` of a JDK type) — or its calls reaching the method
//! it overrode. The project-wide
//! rename knows these ties: it is computed (to a probe name), not
//! applied, and what it renames with the method (its family) or cannot
//! prove at another definition of the name (Go's interfaces) refuses the
//! edit, naming them.

use crate::commands::{CodeTarget, Command, DeleteTarget, Modification};
use crate::refactor::{Located, Refactoring, RenameKind, SitePolicy};

use super::context::Ctx;
use super::ops::{ErrorKind, OpError};
use super::{Engine, Held};

/// What the command does to the method.
#[derive(Clone, Copy)]
enum Edit {
    Parameters,
    Access,
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
            // a method another one overrides, implements or is
            // overridden by, deleted (Go: one an interface may need)
            Command::Delete(DeleteTarget::Code(target)) => (target, None),
            _ => return None,
        };
        let es = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"];
        let Some(change) = change else {
            return self.tied_refusal(live, target, "Cannot delete", Edit::Delete);
        };
        let edit = match change {
            // (TypeScript lets an override take fewer parameters, and
            // JavaScript any: their calls are named instead)
            Modification::AddParam { .. }
            | Modification::RemoveParam { .. }
            | Modification::ChangeSignature { .. }
                if !ends(&es) =>
            {
                Edit::Parameters
            }
            // an override takes no weaker access than the method it
            // overrides (Java, TypeScript: TS2415), and a private one
            // overrides none
            Modification::SetVisibility { .. } if ends(&[".java", ".ts", ".tsx", ".mts"]) => {
                Edit::Access
            }
            _ => return None,
        };
        let doing = match edit {
            Edit::Access => "Cannot change the access of",
            _ => "Cannot change the parameters of",
        };
        self.tied_refusal(live, target, doing, edit)
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
        let ties = {
            let mut ctx = Ctx::new(&mut live.session, &self.workspace, Some(&self.board));
            ctx.method_ties(target)?
        };
        let (name, lines, supertype) = (ties.name, ties.lines, ties.supertype);
        let functional = match edit {
            Edit::Access => None,
            Edit::Parameters | Edit::Delete => ties.functional,
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
            let how = match edit {
                Edit::Delete => format!(
                    "deleted, it leaves a method missing or its calls reaching another: keep it, or delete it (and what needs it) by its lines: Delete Block {}:{}",
                    lines.first, lines.last
                ),
                Edit::Parameters | Edit::Access => "this command changes one method: change theirs with it by hand, or leave it as it is".to_string(),
            };
            OpError::new(
                ErrorKind::NotApplicable,
                format!("{doing} {name} alone: {why}; {how}"),
            )
        };
        // (what the index cannot tell, the file's own checks decided)
        let computed = self.check_refactor(live, &request).ok();
        let evidence = computed.as_ref().map(|c| &c.refactored.evidence);
        // the methods of the project tied to it
        if let Some(also) = evidence.map(|e| &e.also).filter(|also| !also.is_empty()) {
            let one = also.len() == 1;
            let tied = format!(
                "{} override{} it, implement{} it or {} overridden by it",
                also.join(", "),
                if one { "s" } else { "" },
                if one { "s" } else { "" },
                if one { "is" } else { "are" },
            );
            return Some(refused(match edit {
                Edit::Parameters | Edit::Access => format!("{tied}, and must agree with it"),
                Edit::Delete => tied,
            }));
        }
        // a functional interface's method: the lambdas and method
        // references that implement it name neither it nor the interface
        // where they stand (`Fn f = x -> x + 1`, an argument's)
        if let Some(interface) = functional {
            return Some(refused(format!(
                "{interface} is a functional interface, and this its one abstract method: lambdas and method references anywhere may implement it without naming it, and Eddi does not find them"
            )));
        }
        // a supertype's method outside the project it implements or
        // overrides: deleted, the type may lack a method the supertype
        // requires (E0046, "is not abstract and does not override"), or
        // its calls reach the supertype's
        if let Some(supertype) = supertype.filter(|_| matches!(edit, Edit::Delete)) {
            return Some(refused(format!(
                "it implements or overrides a method of {supertype}"
            )));
        }
        let evidence = evidence?;
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
