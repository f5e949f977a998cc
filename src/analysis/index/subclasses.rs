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
                                .any(|&b| in_family(self.resolve(fid, b, 0), &family))
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
