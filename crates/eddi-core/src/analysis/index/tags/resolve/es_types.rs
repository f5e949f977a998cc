//! JavaScript and TypeScript: a member read through a value of a class
//! that derives from the class whose member is asked (`const b: B`,
//! `const b = new B()` with `class B extends A`) reaches the member of
//! the nearest class of its lineage that declares one: where that is the
//! asked class's, the use is its (`b.foo()` calls `A.foo` when `B` does
//! not declare `foo`). The lineage is the scan's: each module-level
//! class's `extends` ([`DeclaredKind::Extends`]), followed through the
//! project's modules.

use super::*;
use crate::analysis::index::tags::scan::DeclaredKind;

/// How many classes of a lineage are followed.
const DEEPEST: usize = 16;

impl Query<'_> {
    /// The verdict of a use of the member `member` through a value of the
    /// class `type_name`, as `entry` names it at `offset` (a parameter or
    /// a `const` declared so, `new A().m`, `(x as A).m`): certain where
    /// the name denotes the asked class or a class that inherits the
    /// member from it.
    pub(super) fn es_typed_use(
        &self,
        entry: &TagsEntry,
        offset: usize,
        type_name: &str,
        member: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        match self.typed_as(entry, offset, type_name, aliases, defined) {
            // a subclass's value reaches the member it inherits
            Verdict::Other => self.es_inherited_use(entry, type_name, member, aliases, defined),
            verdict => verdict,
        }
    }

    /// The verdict of a use of `read.member` through `this.name` (or
    /// `this.name()`) in the code of the class `inside` (of `entry`): as
    /// through a value of that class ([`Query::es_member_use`]).
    pub(super) fn es_this_member_use(
        &self,
        entry: &TagsEntry,
        inside: &str,
        read: &MemberRead<'_>,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        match module_class(entry.file(), inside) {
            Some(_) => self.es_member_use(entry, inside, read, aliases, defined),
            None => Verdict::Possible,
        }
    }

    /// The verdict of a use of `read.member` through what the member
    /// `read.name` of a value of the class `type_name` (as `entry` names
    /// it) gives: what its method declares it returns
    /// (`x.getRepo().m`), its getter's or field's stated class
    /// (`x.repo.m`, `private repo: Repo`, a parameter property) — of the
    /// nearest class of its lineage that declares the member, so an
    /// inherited field reads the base's and an override its own. Possible
    /// where a class of the lineage is not the project's, or the member
    /// states no class (or overloads state several).
    pub(super) fn es_member_use(
        &self,
        entry: &TagsEntry,
        type_name: &str,
        read: &MemberRead<'_>,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        self.read_declarations.set(true);
        let (mut entry, mut type_name) = (entry, type_name.to_string());
        for _ in 0..DEEPEST {
            let Some((declaring, local)) = self.es_class(entry, &type_name, aliases, defined)
            else {
                return Verdict::Possible;
            };
            let file = declaring.file();
            let kind = match read.called {
                true => DeclaredKind::Returns,
                false => DeclaredKind::Value,
            };
            let stated: Vec<&str> = (file.declared.iter())
                .filter(|d| {
                    d.kind == kind && d.owner.as_deref() == Some(local) && d.name == read.name
                })
                .map(|d| d.type_text.as_str())
                .collect();
            let at = module_class(file, local).map_or(0, |c| c.span.start);
            match stated.first() {
                Some(&class) if !class.is_empty() && stated.iter().all(|s| *s == class) => {
                    return self.es_typed_use(declaring, at, class, read.member, aliases, defined);
                }
                Some(_) => return Verdict::Possible,
                None => {}
            }
            // declared otherwise (a method read as a value, a static):
            // unknown
            let declares = (file.defs.iter())
                .any(|d| d.name == read.name && d.container.as_deref() == Some(local));
            let base = (file.declared.iter())
                .find(|d| d.kind == DeclaredKind::Extends && d.owner.as_deref() == Some(local));
            match (declares, base) {
                (false, Some(base)) => {
                    (entry, type_name) = (&**declaring, base.type_text.to_string())
                }
                _ => return Verdict::Possible,
            }
        }
        Verdict::Possible
    }

    /// The project's module-level class a type written in `entry` names (`A`, `m.A` of a namespace import): the module that
    /// declares it and its name there.
    fn es_class(
        &self,
        entry: &TagsEntry,
        type_name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Option<(&Arc<TagsEntry>, &str)> {
        let denoted = match type_name.rsplit_once('.') {
            Some((module, name)) => match self.denotes(entry, module, aliases, defined) {
                Denotes::Module(m) => Denotes::Item(m, name.to_string()),
                _ => return None,
            },
            None => self.denotes(entry, type_name, aliases, defined),
        };
        let Denotes::Item(module, exported) = denoted else {
            return None;
        };
        let declaring = self.index.entry(&module)?;
        let class = module_class(declaring.file(), local_name(declaring.file(), &exported))?;
        Some((declaring, class.name.as_str()))
    }

    /// The verdict of a use of the member `member` (at `r`) through what a
    /// call of `function` returns (`make().m`): as through a value of the
    /// class the project's function declares it returns (`function
    /// make(): A`, every overload the same); possible where the function
    /// is not the project's module-level one, or states no class.
    pub(super) fn es_result_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        function: &str,
        member: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        let file = entry.file();
        let hidden =
            (file.locals.iter()).any(|l| l.name == function && l.visible.contains(&r.offset));
        if hidden {
            return Verdict::Possible;
        }
        self.read_declarations.set(true);
        let Denotes::Item(module, exported) = self.denotes(entry, function, aliases, defined)
        else {
            return Verdict::Possible;
        };
        let Some(declaring) = self.index.entry(&module) else {
            return Verdict::Possible;
        };
        let file = declaring.file();
        let local = local_name(file, &exported);
        let results: Vec<&str> = (file.declared.iter())
            .filter(|d| d.kind == DeclaredKind::Returns && d.owner.is_none() && d.name == local)
            .map(|d| d.type_text.as_str())
            .collect();
        let (Some(&result), true) = (results.first(), results.windows(2).all(|w| w[0] == w[1]))
        else {
            return Verdict::Possible;
        };
        let at = (file.defs.iter())
            .find(|d| d.top_level && d.name == local)
            .map_or(0, |d| d.span.start);
        match result {
            "" => Verdict::Possible,
            class => self.es_typed_use(declaring, at, class, member, aliases, defined),
        }
    }

    /// The verdict of a use of the member `member` through a value typed
    /// `type_name` (as `entry` names it) that does not denote the
    /// asked class (whose names are `aliases`): certain where the class
    /// it denotes inherits the member from it through project classes
    /// that do not declare it; possible where the index cannot tell what
    /// a class of the lineage extends; else another's.
    pub(super) fn es_inherited_use(
        &self,
        entry: &TagsEntry,
        type_name: &str,
        member: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        self.read_declarations.set(true);
        let (mut entry, mut type_name) = (entry, type_name.to_string());
        for _ in 0..DEEPEST {
            let denoted = match type_name.rsplit_once('.') {
                Some((module, name)) => match self.denotes(entry, module, aliases, defined) {
                    Denotes::Module(m) => Denotes::Item(m, name.to_string()),
                    other => other,
                },
                None => self.denotes(entry, &type_name, aliases, defined),
            };
            let (module, exported) = match denoted {
                Denotes::Item(m, n) => (m, n),
                Denotes::Unknown | Denotes::Required(..) | Denotes::CommonJs(_) => {
                    return Verdict::Possible
                }
                Denotes::Module(_) | Denotes::Unbound => return Verdict::Other,
            };
            let Some(declaring) = self.index.entry(&module) else {
                return Verdict::Other;
            };
            let file = declaring.file();
            let local = local_name(file, &exported);
            let Some(class) = module_class(file, local) else {
                return Verdict::Other;
            };
            // a class that declares the member has its own
            let declares = file
                .defs
                .iter()
                .any(|d| d.name == member && d.container.as_deref() == Some(local));
            if declares {
                return Verdict::Other;
            }
            let Some(base) = file
                .declared
                .iter()
                .find(|d| d.kind == DeclaredKind::Extends && d.owner.as_deref() == Some(local))
            else {
                return Verdict::Other;
            };
            let at = class.span.start;
            if self.typed_as(declaring, at, &base.type_text, aliases, defined) == Verdict::Certain {
                return Verdict::Certain;
            }
            (entry, type_name) = (&**declaring, base.type_text.to_string());
        }
        Verdict::Possible
    }

    /// The verdict of `super.member` in the class `around` of `entry`:
    /// the member its `extends` names, or one that class inherits.
    pub(super) fn es_super_use(
        &self,
        entry: &TagsEntry,
        around: &str,
        member: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        defined: &Defined<'_>,
    ) -> Verdict {
        let file = entry.file();
        let base = (file.declared.iter())
            .find(|d| d.kind == DeclaredKind::Extends && d.owner.as_deref() == Some(around));
        let class = (file.defs.iter()).find(|d| d.kind == SymbolKind::Class && d.name == around);
        let (Some(base), Some(class)) = (base, class) else {
            return Verdict::Possible;
        };
        match self.typed_as(entry, class.span.start, &base.type_text, aliases, defined) {
            Verdict::Certain => Verdict::Certain,
            _ => self.es_inherited_use(entry, &base.type_text, member, aliases, defined),
        }
    }
}

/// A member read through a value: `name` (`x.name`, or `x.name()` when
/// `called`) before `.member`, the member asked.
pub(super) struct MemberRead<'n> {
    pub name: &'n str,
    pub called: bool,
    pub member: &'n str,
}

/// The module-level name a module exports as `exported` (`export { a as
/// b }`: `a` for `b`; a name it declares and exports as itself).
fn local_name<'f>(file: &'f TagsFile, exported: &'f str) -> &'f str {
    (file.exports.iter())
        .find(|(e, _)| e == exported)
        .map_or(exported, |(_, local)| local.as_str())
}

/// The module-level class `name` of a module, as its scan defines it.
fn module_class<'f>(file: &'f TagsFile, name: &str) -> Option<&'f TagDef> {
    (file.defs.iter()).find(|d| d.top_level && d.kind == SymbolKind::Class && d.name == name)
}
