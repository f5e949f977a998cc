//! Which project classes derive from which, found on demand.
//!
//! A class derives from `K` by naming it in its bases: by `K`'s own name,
//! or by a name bound to `K` somewhere (an alias, a re-export), which is
//! itself written next to `K`'s name or to another such alias. So the
//! subclasses of `K` are among the files that spell `K`'s name, then the
//! names of the subclasses and aliases found there, and so on
//! ([`ProjectIndex::derived_from`]): a rename scans the files its
//! hierarchy reaches, not the whole project.
//!
//! The questions a member's rename asks — which classes share a method
//! through inheritance, which derive from a class of the hierarchy and
//! have the new name already — are answered from the few classes that
//! own a member of the name ([`ProjectIndex::classes_owning`]), and of two
//! classes the one whose name fewer files spell is the one whose
//! subclasses are looked for ([`Subclasses::share_a_subclass`]): for
//! `SimpleTestCase.assertContains`, Django's thousands of test classes are
//! never listed.

use std::cell::RefCell;
use std::collections::HashSet;

use super::hash::FxHashMap as HashMap;
use super::resolve::{DefRef, Res};
use super::ProjectIndex;
use crate::analysis::outline::SymbolKind;

/// The subclasses of project classes, looked for when first asked and
/// kept for the rest of one question (a rename).
pub struct Subclasses<'i> {
    index: &'i ProjectIndex,
    derived: RefCell<HashMap<DefRef, Vec<DefRef>>>,
    spelled: RefCell<HashMap<String, usize>>,
}

impl<'i> Subclasses<'i> {
    pub fn new(index: &'i ProjectIndex) -> Self {
        Subclasses {
            index,
            derived: Default::default(),
            spelled: Default::default(),
        }
    }

    /// The classes deriving from `class`, transitively, sorted.
    pub fn of(&self, class: DefRef) -> Vec<DefRef> {
        if let Some(found) = self.derived.borrow().get(&class) {
            return found.clone();
        }
        let found = self.index.derived_from(class);
        self.derived.borrow_mut().insert(class, found.clone());
        found
    }

    /// Whether some class derives from both `a` and `b` (neither being
    /// it). Looks among the subclasses of the one whose name fewer files
    /// spell.
    pub fn share_a_subclass(&self, a: DefRef, b: DefRef) -> bool {
        let (few, many) = match self.spelled_by(a) <= self.spelled_by(b) {
            true => (a, b),
            false => (b, a),
        };
        self.of(few)
            .into_iter()
            .any(|s| s != many && self.index.ancestors(s).contains(&many))
    }

    /// How many files may name `class` (see [`ProjectIndex::spelling`]).
    fn spelled_by(&self, class: DefRef) -> usize {
        if self.derived.borrow().contains_key(&class) {
            return 0; // listed already: nothing more to look for
        }
        let Some(name) = self.index.class_name(class) else {
            return 0;
        };
        if let Some(&n) = self.spelled.borrow().get(&name) {
            return n;
        }
        let n = self.index.spelling(&name);
        self.spelled.borrow_mut().insert(name, n);
        n
    }
}

impl ProjectIndex {
    /// The classes deriving from `class`, transitively, sorted: see the
    /// module docs. The same answer as a pass over every class of the
    /// project, from the files that spell the names involved.
    pub(crate) fn derived_from(&self, class: DefRef) -> Vec<DefRef> {
        let mut family: HashSet<DefRef> = HashSet::from([class]);
        let mut searched: HashSet<String> = HashSet::new();
        let mut words: Vec<String> = self.class_name(class).into_iter().collect();
        let in_family = |res: Res, family: &HashSet<DefRef>| match res {
            Res::Defs(ds) => ds.iter().any(|d| family.contains(d)),
            _ => false,
        };
        while !words.is_empty() {
            let batch: Vec<String> = std::mem::take(&mut words)
                .into_iter()
                .filter(|w| searched.insert(w.clone()))
                .collect();
            if batch.is_empty() {
                break;
            }
            let files: Vec<usize> = self
                .files_with_any(&batch)
                .filter(|(_, f)| {
                    batch
                        .iter()
                        .any(|w| !f.refs_keyed(w).is_empty() || !f.sites_keyed(w).is_empty())
                })
                .map(|(fid, _)| fid)
                .collect();
            for fid in files {
                let Some(f) = self.file(fid) else { continue };
                for (d, def) in f.defs.iter().enumerate() {
                    let c = DefRef {
                        file: fid,
                        def: d as u32,
                    };
                    let name = f.name(def.name);
                    if def.kind == SymbolKind::Class {
                        if !family.contains(&c)
                            && def
                                .bases
                                .iter()
                                .any(|&b| in_family(self.resolve_base(fid, b, 0), &family))
                        {
                            family.insert(c);
                            words.push(name.to_string());
                        }
                    } else if let Some(v) = def.value {
                        // `Base = K`, at module level or in a class body
                        if !searched.contains(name) && in_family(self.resolve(fid, v, 0), &family) {
                            words.push(name.to_string());
                        }
                    }
                }
                // `from m import K as Base`, a re-export under another name
                for (name, &v) in &f.exports {
                    if !searched.contains(&**name)
                        && f.defs_named(name).is_empty()
                        && in_family(self.resolve(fid, v, 0), &family)
                    {
                        words.push(name.to_string());
                    }
                }
            }
        }
        family.remove(&class);
        let mut out: Vec<DefRef> = family.into_iter().collect();
        out.sort();
        out
    }

    /// The project classes with a member (a method, a class or instance
    /// attribute) named `name` of their own, sorted.
    pub(crate) fn classes_owning(&self, name: &str) -> Vec<DefRef> {
        let mut out = Vec::new();
        for (fid, f) in self.files_with(name) {
            for &d in f.defs_named(name) {
                let Some(parent) = f.def(d).parent else {
                    continue;
                };
                if f.def(parent).kind == SymbolKind::Class {
                    out.push(DefRef {
                        file: fid,
                        def: parent,
                    });
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    pub(crate) fn class_name(&self, class: DefRef) -> Option<String> {
        let f = self.file(class.file)?;
        Some(f.name(f.defs.get(class.def as usize)?.name).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(files: &[(&str, &str)]) -> ProjectIndex {
        ProjectIndex::of_texts(files)
    }

    /// What a pass over every class of the project says derives from
    /// `class`: the answer `derived_from` must give.
    fn by_a_pass_over_every_class(index: &ProjectIndex, class: DefRef) -> Vec<DefRef> {
        let mut bases: Vec<(DefRef, DefRef)> = Vec::new();
        for (fid, f) in index.iter_files() {
            for (d, def) in f.defs.iter().enumerate() {
                if def.kind != SymbolKind::Class {
                    continue;
                }
                for &b in &def.bases {
                    if let Res::Defs(ds) = index.resolve_base(fid, b, 0) {
                        for base in ds {
                            bases.push((
                                base,
                                DefRef {
                                    file: fid,
                                    def: d as u32,
                                },
                            ));
                        }
                    }
                }
            }
        }
        let mut out: Vec<DefRef> = Vec::new();
        let mut todo = vec![class];
        while let Some(k) = todo.pop() {
            for &(base, sub) in &bases {
                if base == k && sub != class && !out.contains(&sub) {
                    out.push(sub);
                    todo.push(sub);
                }
            }
        }
        out.sort();
        out
    }

    fn classes(index: &ProjectIndex) -> Vec<(String, DefRef)> {
        let mut out = Vec::new();
        for (fid, f) in index.iter_files() {
            for (d, def) in f.defs.iter().enumerate() {
                if def.kind == SymbolKind::Class {
                    let c = DefRef {
                        file: fid,
                        def: d as u32,
                    };
                    out.push((f.full_name(d as u32), c));
                }
            }
        }
        out
    }

    const FILES: &[(&str, &str)] = &[
        (
            "base.py",
            "class K:\n    def run(self):\n        pass\n\n\nclass Unrelated:\n    pass\n",
        ),
        // a re-export under another name, an alias, a class attribute
        (
            "alias.py",
            "from base import K as Renamed\n\nAlso = Renamed\n\n\nclass Holder:\n    Inner = Renamed\n",
        ),
        ("star.py", "from alias import *\n"),
        (
            "subs.py",
            "import alias\nfrom alias import Also, Holder\nfrom star import Renamed\n\n\nclass A(Renamed):\n    pass\n\n\nclass B(Also):\n    pass\n\n\nclass C(alias.Renamed):\n    pass\n\n\nclass D(Holder.Inner):\n    pass\n\n\nclass E(A):\n    pass\n",
        ),
        // a subclass of a subclass, in a file that never spells `K`
        ("deeper.py", "from subs import E\n\n\nclass F(E):\n    pass\n"),
        // spells `K`, derives from something else
        ("other.py", "from base import Unrelated\n\nK = 1\n\n\nclass G(Unrelated):\n    pass\n"),
    ];

    #[test]
    fn subclasses_found_from_spelled_names_are_those_of_a_pass_over_every_class() {
        let whole = project(FILES);
        for (name, class) in classes(&whole) {
            let fresh = project(FILES);
            let found = fresh.derived_from(class);
            assert_eq!(
                found,
                by_a_pass_over_every_class(&whole, class),
                "subclasses of {name}"
            );
        }
        let index = project(FILES);
        let k = index.rename_symbol("base.K", None).unwrap()[0];
        let names: Vec<String> = index
            .derived_from(DefRef {
                file: k.file,
                def: k.def,
            })
            .into_iter()
            .filter_map(|c| Some(index.def_info(c)?.full_name))
            .collect();
        // through a re-export, a star import, a module's attribute, an
        // alias (`B(Also)`), a class attribute (`D(Holder.Inner)`), and a
        // subclass's subclass in a file that never spells `K`
        assert_eq!(
            names,
            ["subs.A", "subs.B", "subs.C", "subs.D", "subs.E", "deeper.F"]
        );
    }

    #[test]
    fn a_search_for_subclasses_scans_only_the_files_that_spell_the_names() {
        let mut files = FILES.to_vec();
        files.push(("far.py", "class Far:\n    pass\n"));
        let index = project(&files);
        let unrelated = index.rename_symbol("base.Unrelated", None).unwrap()[0];
        let found = index.derived_from(unrelated);
        let names: Vec<String> = found
            .into_iter()
            .filter_map(|c| Some(index.def_info(c)?.full_name))
            .collect();
        assert_eq!(names, ["other.G"]);
        // scanned: base.py (the class) and other.py (spells it); no other
        let scanned: Vec<&str> = index
            .paths()
            .into_iter()
            .filter(|p| {
                let fid = index.by_path[*p];
                index.files[fid].as_ref().unwrap().scanned_index().is_some()
            })
            .collect();
        assert_eq!(scanned, ["base.py", "other.py"]);
    }

    #[test]
    fn two_classes_share_a_subclass_whichever_is_looked_from() {
        let files = [
            ("a.py", "class Mixin:\n    def run(self):\n        pass\n\n\nclass Base:\n    def run(self):\n        pass\n"),
            ("b.py", "from a import Mixin, Base\n\n\nclass Both(Mixin, Base):\n    pass\n\n\nclass One(Base):\n    pass\n"),
            ("c.py", "from a import Base\n\n\nclass Two(Base):\n    pass\n"),
        ];
        let index = project(&files);
        let mixin = index.rename_symbol("a.Mixin", None).unwrap()[0];
        let base = index.rename_symbol("a.Base", None).unwrap()[0];
        let one = index.rename_symbol("b.One", None).unwrap()[0];
        let tree = Subclasses::new(&index);
        assert!(tree.share_a_subclass(mixin, base));
        assert!(tree.share_a_subclass(base, mixin));
        assert!(!tree.share_a_subclass(mixin, one));
    }
}
