//! What an edit of a definition in one file leaves unchanged in the others.
//!
//! `Modify … Rename`/`SetVisibility` and `Delete Function|Class|Method`
//! work in the current file only; the uses of the old name in other files
//! then resolve to nothing. `RemoveParam`, `ChangeSignature`, an
//! `AddParam` without a default and renaming a parameter
//! (`Variable f.param`) change no call. In a brace-language file the
//! brace index finds them before the edit ([`BraceLeftovers`]). Instead
//! of a plain `Ok`, the
//! outcome carries those places as a [`Completion::LeftUnchanged`] (the
//! renderer says how many and the first few, `path:line`).

use crate::analysis::index::{Call, Location};
use crate::analysis::modify::visible_name;
use crate::commands::{Command, DeleteTarget, Modification};
use crate::failure::{ErrorKind, OpError};
use crate::outcome::{Completion, DefinitionEdit};
use crate::session::Session;

use super::context::Ctx;
use super::Engine;

/// Before `command` runs: the edit of a definition it makes, which may
/// leave code elsewhere behind.
pub(super) fn definition_edit(ctx: &mut Ctx<'_>, command: &Command) -> Option<DefinitionEdit> {
    // the Python index's: a brace-language file's are the brace index's
    // ([`Engine::brace_leftovers`]), and its calls pass no argument by name
    let current = ctx.session.current.as_ref()?;
    if crate::analysis::index::tags::reads(current.as_str()) {
        return None;
    }
    match command {
        Command::Modify { target, change } => {
            let renamed_to = |old: &str| -> Option<String> {
                let name = old.rsplit('.').next().unwrap_or(old);
                match change {
                    Modification::Rename { new_name } => Some(new_name.clone()),
                    Modification::SetVisibility { visibility } => {
                        visible_name(name, *visibility).ok()
                    }
                    _ => None,
                }
            };
            match change {
                Modification::Rename { .. } | Modification::SetVisibility { .. } => {
                    match ctx.importable_name(target) {
                        Some(old) => {
                            let new = renamed_to(&old)?;
                            Some(DefinitionEdit::Renamed { old, new })
                        }
                        // a parameter: its function's signature changes
                        None => Some(DefinitionEdit::Resigned {
                            function: ctx.parameter_of(target)?,
                        }),
                    }
                }
                Modification::AddParam { param, .. }
                    if param.contains('=') || param.trim_start().starts_with('*') =>
                {
                    None
                }
                Modification::AddParam { .. }
                | Modification::RemoveParam { .. }
                | Modification::ChangeSignature { .. } => Some(DefinitionEdit::Resigned {
                    function: ctx.importable_name(target)?,
                }),
                Modification::AddDecorator { .. } => None,
            }
        }
        Command::Delete(DeleteTarget::Code(target)) => Some(DefinitionEdit::Deleted {
            old: ctx.importable_name(target)?,
        }),
        _ => None,
    }
}

impl Engine {
    /// After the command succeeded in `path`: what it left unchanged, if
    /// anything, found with the project index after the edit — the
    /// renamed or deleted name's *unresolved* uses (what `Find References`
    /// of the old name lists from then on; in other files only for a
    /// rename), the changed function's certain callers.
    pub(super) fn left_unchanged(
        &self,
        session: &Session,
        edit: DefinitionEdit,
        path: &str,
    ) -> Option<Completion> {
        let places = |calls: Vec<Call>, other_files: bool| -> Vec<Location> {
            calls
                .into_iter()
                .map(|c| c.location)
                .filter(|l| !other_files || l.path != path)
                .collect()
        };
        let sites = match &edit {
            DefinitionEdit::Renamed { old, .. } => places(
                self.with_index(session, |index, _, _| index.find_unresolved(old, false)),
                true,
            ),
            DefinitionEdit::Deleted { old } => places(
                self.with_index(session, |index, _, _| index.find_unresolved(old, false)),
                false,
            ),
            DefinitionEdit::Resigned { function } => {
                let calls = self.with_index(session, |index, _, _| {
                    index.find_callers_from(function, Some(path)).ok()
                })?;
                places(calls.certain, false)
            }
            // (Python has no visibility to set)
            DefinitionEdit::Restricted { .. } => return None,
        };
        (!sites.is_empty()).then_some(Completion::LeftUnchanged { edit, sites })
    }
}

impl Engine {
    /// The full name of `target` (of the brace-language file `path`) and
    /// its uses across the project, certain and possible, as the brace
    /// index finds them now.
    fn brace_uses(
        &self,
        ctx: &mut Ctx<'_>,
        path: &str,
        target: &crate::commands::CodeTarget,
    ) -> Option<(String, Vec<Location>)> {
        let name = ctx.brace_rename_name(target)?;
        let found = self.with_index(ctx.session, |index, _, _| {
            index
                .tags()
                .find_references(index.root(), &name, Some(path))
                .ok()
        })?;
        let full_name = found.definitions.first()?.qualified_name.clone();
        let mut sites: Vec<Location> = found.certain.into_iter().chain(found.possible).collect();
        // a Rust trait's method: the `impl Trait for T` blocks define it
        // too, and hold it no more once the trait does not (E0407)
        if path.ends_with(".rs") && found.definitions.len() == 1 {
            if let Some((class, method)) = name.rsplit_once('.') {
                let trait_name = class.rsplit('.').next().unwrap_or(class);
                let suffix = format!(".{trait_name}.{method}");
                let impls = self.with_index(ctx.session, |index, _, _| {
                    index
                        .tags()
                        .find_definition(index.root(), method, None)
                        .ok()
                });
                sites.extend(
                    impls
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|d| d.qualified_name.ends_with(&suffix))
                        .map(|d| Location {
                            path: d.location.path.clone(),
                            position: d.name_position,
                            end: d.name_position,
                        }),
                );
            }
        }
        Some((full_name, sites))
    }

    /// [`Self::brace_uses`], but a constructor's are its calls (a
    /// constructor is referred to by the constructions that call it: what
    /// its delete or a narrower visibility leaves behind), an overload's
    /// those that pass it as many arguments as it takes.
    fn brace_uses_or_calls(
        &self,
        ctx: &mut Ctx<'_>,
        path: &str,
        target: &crate::commands::CodeTarget,
    ) -> Option<(String, Vec<Location>)> {
        let name = ctx.brace_callers_name(target)?;
        let calls = self.with_index(ctx.session, |index, _, _| {
            let tags = index.tags();
            if !tags.names_constructor(&name, Some(path)) {
                return None;
            }
            tags.find_callers(index.root(), &name, Some(path)).ok()
        });
        let Some(calls) = calls else {
            return self.brace_uses(ctx, path, target);
        };
        let full_name = calls.definitions.first()?.qualified_name.clone();
        let sites = (calls.certain.into_iter().chain(calls.possible))
            .map(|call| call.location)
            .collect();
        Some((full_name, sites))
    }

    /// Before a change of the signature of `target` (a function or method
    /// of the brace-language file `path`): its calls across the project,
    /// certain and possible, which the change leaves as they are.
    fn brace_calls_left(
        &self,
        ctx: &mut Ctx<'_>,
        path: &str,
        target: &crate::commands::CodeTarget,
    ) -> Option<BraceLeftovers> {
        let name = ctx.brace_callers_name(target)?;
        let callers = self.with_index(ctx.session, |index, _, _| {
            index
                .tags()
                .find_callers(index.root(), &name, Some(path))
                .ok()
        })?;
        let function = callers.definitions.first()?.qualified_name.clone();
        let sites: Vec<Location> = callers
            .certain
            .into_iter()
            .chain(callers.possible)
            .map(|call| call.location)
            .collect();
        (!sites.is_empty()).then_some(BraceLeftovers::Renamed(Completion::LeftUnchanged {
            edit: DefinitionEdit::Resigned { function },
            sites,
        }))
    }
}

impl Engine {
    /// Before a member of the brace-language file `path` is made private
    /// or protected: its uses outside its class, which may no longer
    /// compile.
    fn brace_uses_outside_class(
        &self,
        ctx: &mut Ctx<'_>,
        path: &str,
        target: &crate::commands::CodeTarget,
        visibility: crate::analysis::target::Visibility,
    ) -> Option<BraceLeftovers> {
        use crate::analysis::target::Visibility;
        use crate::commands::CodeTarget;
        let visibility = match visibility {
            Visibility::Public => return None,
            Visibility::Private => "private",
            Visibility::Protected => "protected",
        };
        let class = match target {
            CodeTarget::Method { class, .. } => Some(class.clone()),
            CodeTarget::Function { name, .. } | CodeTarget::Variable { name } => {
                name.rsplit_once('.').map(|(class, _)| class.to_string())
            }
            CodeTarget::Class { .. } => None,
        };
        let (member, mut sites) = self.brace_uses_or_calls(ctx, path, target)?;
        // Java: a private member is read in its top-level class only; a
        // use from another one is the compiler's error, not a risk
        if let (true, "private", Some(class)) = (path.ends_with(".java"), visibility, &class) {
            let outermost = class.split('.').next().unwrap_or(class).to_string();
            let lines = ctx.element_lines(&CodeTarget::Class {
                name: outermost.clone(),
            })?;
            let outside: Vec<String> = sites
                .iter()
                .filter(|l| {
                    l.path != path || !(lines.first..=lines.last).contains(&l.position.line)
                })
                .map(|l| format!("{}:{}", l.path, l.position.line))
                .collect();
            if !outside.is_empty() {
                return Some(BraceLeftovers::Refused(OpError::new(
                    ErrorKind::NotApplicable,
                    format!(
                        "{member} is used outside {outermost} ({}): made private, those uses no longer compile; make it protected or package-private, or move them first",
                        outside.join(", ")
                    ),
                )));
            }
        }
        let outside = match class {
            Some(class) => {
                let lines = ctx.element_lines(&CodeTarget::Class { name: class })?;
                sites.retain(|l| {
                    l.path != path || !(lines.first..=lines.last).contains(&l.position.line)
                });
                "class"
            }
            // a module's item (Rust: a file is a module, or holds `mod`
            // blocks the uses may be in, said by the other files alone)
            None => {
                sites.retain(|l| l.path != path);
                "file"
            }
        };
        (!sites.is_empty()).then_some(BraceLeftovers::Renamed(Completion::LeftUnchanged {
            edit: DefinitionEdit::Restricted {
                member,
                visibility,
                outside,
            },
            sites,
        }))
    }
}

/// What an edit of a definition in a brace-language file leaves behind,
/// found before the edit ([`Engine::brace_leftovers`]).
pub(super) enum BraceLeftovers {
    /// The edit would break what the index finds (a Java member made
    /// private while another class reads it): refused.
    Refused(OpError),
    /// `Modify … Rename`: the uses in other files; a signature's change:
    /// the calls.
    Renamed(Completion),
    /// `Delete Function|Class|Method`: the uses outside the element, as
    /// they stood; those below it in its file move up by the lines the
    /// delete removes ([`BraceLeftovers::after`]).
    Deleted {
        old: String,
        path: String,
        sites: Vec<Location>,
        /// The element's last line, and the file's line count, before.
        last_line: usize,
        lines_before: usize,
    },
}

impl BraceLeftovers {
    /// The completion the outcome carries, once the edit left the file
    /// `lines_after` lines long.
    pub(super) fn after(self, lines_after: usize) -> Option<Completion> {
        match self {
            BraceLeftovers::Refused(_) => None,
            BraceLeftovers::Renamed(completion) => Some(completion),
            BraceLeftovers::Deleted {
                old,
                path,
                mut sites,
                last_line,
                lines_before,
            } => {
                let removed = lines_before.saturating_sub(lines_after);
                for site in sites.iter_mut().filter(|s| s.path == path) {
                    if site.position.line > last_line {
                        site.position.line -= removed;
                        site.end.line -= removed;
                    }
                }
                (!sites.is_empty()).then_some(Completion::LeftUnchanged {
                    edit: DefinitionEdit::Deleted { old },
                    sites,
                })
            }
        }
    }
}

impl Engine {
    /// Before `Modify … Rename` or `Delete Function|Class|Method` of a
    /// module-level symbol or a member in a file of a brace language:
    /// what the edit will leave behind, as the brace index finds it now
    /// (after the edit the old name names nothing) — a rename's uses in
    /// other files, certain and possible, with the full name `Refactor
    /// RenameSymbol` takes; a delete's uses anywhere outside the element.
    pub(super) fn brace_leftovers(
        &self,
        ctx: &mut Ctx<'_>,
        command: &Command,
    ) -> Option<BraceLeftovers> {
        let path = ctx.session.current.clone()?;
        if !crate::analysis::index::tags::reads(path.as_str()) {
            return None;
        }
        if let Command::Delete(DeleteTarget::Code(target)) = command {
            let lines = ctx.element_lines(target)?;
            let lines_before = ctx.current_line_count()?;
            let (old, mut sites) = self.brace_uses_or_calls(ctx, path.as_str(), target)?;
            // its own uses go with it
            sites.retain(|l| {
                l.path != path.as_str() || !(lines.first..=lines.last).contains(&l.position.line)
            });
            return Some(BraceLeftovers::Deleted {
                old,
                path: path.as_str().to_string(),
                sites,
                last_line: lines.last,
                lines_before,
            });
        }
        if let Command::Modify { target, change } = command {
            let resigned = match change {
                // a JavaScript default (`z = 3`), a TypeScript optional
                // (`z?: number`) or rest (`...z`) parameter added last asks
                // nothing of the calls; one before others shifts their
                // arguments
                Modification::AddParam { param, at } => {
                    let param = param.trim_start();
                    at.is_some()
                        || !(param.contains('=')
                            || param.contains("?:")
                            || param.starts_with("..."))
                }
                Modification::RemoveParam { .. } | Modification::ChangeSignature { .. } => true,
                _ => false,
            };
            if resigned {
                return self.brace_calls_left(ctx, path.as_str(), target);
            }
            if let Modification::SetVisibility { visibility } = change {
                return self.brace_uses_outside_class(ctx, path.as_str(), target, *visibility);
            }
        }
        let Command::Modify {
            target,
            change: Modification::Rename { new_name },
        } = command
        else {
            return None;
        };
        let (old, mut sites) = self.brace_uses(ctx, path.as_str(), target)?;
        sites.retain(|l| l.path != path.as_str());
        (!sites.is_empty()).then(|| {
            BraceLeftovers::Renamed(Completion::LeftUnchanged {
                edit: DefinitionEdit::Renamed {
                    old,
                    new: new_name.clone(),
                },
                sites,
            })
        })
    }
}
