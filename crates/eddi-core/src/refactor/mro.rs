//! The method resolution order of project classes, as Python computes it
//! (C3 linearization), with some classes' bases replaced: what a class
//! hierarchy becomes after a change to it, whether Python would create its
//! classes at all, and which class a name is found in before and after.
//!
//! A base from outside the project is one class deriving from `object`
//! (its own ancestors are not known); what it defines is known for the
//! builtins and the standard classes `builtin_classes` lists, and unknown
//! otherwise (a lookup that reaches it says so instead of guessing).

use std::collections::HashMap;

use crate::analysis::index::builtin_classes;
use crate::analysis::index::resolve::{DefRef, Res};
use crate::analysis::index::ProjectIndex;
use crate::analysis::outline::SymbolKind;

/// One class of a linearization.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Klass {
    Project(DefRef),
    /// A class from outside the project, by its dotted name (`object`,
    /// `collections.OrderedDict`), or a base the index cannot name (`?`
    /// and where it is written).
    Outside(String),
}

/// Why Python would refuse to create a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum MroError {
    /// `TypeError: Cannot create a consistent method resolution order
    /// (MRO) for bases …`: the class and its bases' names.
    Inconsistent { class: DefRef, bases: Vec<String> },
    /// A class would derive from itself.
    Cycle(DefRef),
}

/// Where a name is found along a linearization.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Found {
    /// Defined by this project class (its definitions of the name).
    Project(DefRef),
    /// Defined by this class from outside the project.
    Outside(String),
    /// Not found before this outside class, whose members are unknown.
    Unknown(String),
    Missing,
}

/// Linearizations of project classes, with some classes' bases replaced.
pub(super) struct Lineages<'i> {
    index: &'i ProjectIndex,
    replaced: HashMap<DefRef, Vec<Klass>>,
    done: HashMap<DefRef, Result<Vec<Klass>, MroError>>,
    visiting: Vec<DefRef>,
}

impl<'i> Lineages<'i> {
    /// The hierarchy as the index has it, but for the classes of
    /// `replaced`, whose bases are the ones given.
    pub fn new(index: &'i ProjectIndex, replaced: HashMap<DefRef, Vec<Klass>>) -> Self {
        Lineages {
            index,
            replaced,
            done: HashMap::new(),
            visiting: Vec::new(),
        }
    }

    /// The bases of a project class, in order.
    pub fn bases(&self, class: DefRef) -> Vec<Klass> {
        if let Some(bases) = self.replaced.get(&class) {
            return bases.clone();
        }
        bases_in_index(self.index, class)
    }

    /// The class's linearization (`C.__mro__`), the class first.
    pub fn of(&mut self, class: DefRef) -> Result<Vec<Klass>, MroError> {
        if let Some(done) = self.done.get(&class) {
            return done.clone();
        }
        if self.visiting.contains(&class) {
            return Err(MroError::Cycle(class));
        }
        self.visiting.push(class);
        let bases = self.bases(class);
        let mut sequences: Vec<Vec<Klass>> = Vec::new();
        let mut result = Ok(());
        for base in &bases {
            match self.of_klass(base) {
                Ok(l) => sequences.push(l),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.visiting.pop();
        let lineage = result.and_then(|()| {
            if bases.is_empty() {
                return Ok(vec![Klass::Project(class), object()]);
            }
            sequences.push(bases.clone());
            let mut out = vec![Klass::Project(class)];
            merge(sequences, &mut out)
                .map(|()| out)
                .ok_or_else(|| MroError::Inconsistent {
                    class,
                    bases: bases.iter().map(|b| self.name(b)).collect(),
                })
        });
        self.done.insert(class, lineage.clone());
        lineage
    }

    fn of_klass(&mut self, k: &Klass) -> Result<Vec<Klass>, MroError> {
        match k {
            Klass::Project(c) => self.of(*c),
            Klass::Outside(name) if name == "object" => Ok(vec![object()]),
            Klass::Outside(_) => Ok(vec![k.clone(), object()]),
        }
    }

    /// A class's name as a reply gives it: `Base`, `collections.OrderedDict`.
    pub fn name(&self, k: &Klass) -> String {
        match k {
            Klass::Project(c) => self
                .index
                .def_info(*c)
                .map(|i| {
                    i.full_name
                        .rsplit('.')
                        .next()
                        .unwrap_or_default()
                        .to_string()
                })
                .unwrap_or_default(),
            // a base the index cannot name (`Base[T]`, a call)
            Klass::Outside(name) if name.starts_with('?') => "(a base it cannot name)".into(),
            Klass::Outside(name) => name.clone(),
        }
    }

    /// Where `name` is found along `lineage`, from its `from`th class on
    /// (1 for `super()` in the first class).
    pub fn find(&self, lineage: &[Klass], from: usize, name: &str) -> Found {
        for k in lineage.iter().skip(from) {
            match k {
                Klass::Project(c) => {
                    if !self.index.own_members(*c, name).is_empty() {
                        return Found::Project(*c);
                    }
                }
                Klass::Outside(outside) if outside == "object" => {
                    if OBJECT.contains(&name) {
                        return Found::Outside(outside.clone());
                    }
                }
                Klass::Outside(outside) => {
                    let members = builtin_classes::stdlib_members(outside)
                        .or_else(|| builtin_classes::members(outside));
                    match members {
                        Some(members) if members.contains(&name) => {
                            return Found::Outside(outside.clone())
                        }
                        Some(_) => {}
                        None => return Found::Unknown(outside.clone()),
                    }
                }
            }
        }
        Found::Missing
    }
}

/// What every class has from `object` (the tables list public members).
const OBJECT: &[&str] = &[
    "__init__",
    "__new__",
    "__repr__",
    "__str__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__hash__",
    "__format__",
    "__getattribute__",
    "__setattr__",
    "__delattr__",
    "__dir__",
    "__sizeof__",
    "__reduce__",
    "__reduce_ex__",
    "__getstate__",
    "__init_subclass__",
    "__subclasshook__",
    "__class__",
    "__doc__",
    "__module__",
];

fn object() -> Klass {
    Klass::Outside("object".into())
}

/// The bases of a project class as the index resolves them.
pub(super) fn bases_in_index(index: &ProjectIndex, class: DefRef) -> Vec<Klass> {
    let Some(f) = index.file(class.file) else {
        return Vec::new();
    };
    f.def(class.def)
        .bases
        .iter()
        .map(|&b| match index.resolve_base(class.file, b, 0) {
            Res::Defs(defs) => {
                match defs
                    .iter()
                    .find(|&&d| index.kind(d) == Some(SymbolKind::Class))
                {
                    Some(&d) => Klass::Project(d),
                    None => Klass::Outside(format!("?{}:{b}", class.file)),
                }
            }
            Res::External => Klass::Outside(
                f.dotted_name(b)
                    .unwrap_or_else(|| format!("?{}:{b}", class.file)),
            ),
            _ => Klass::Outside(
                index
                    .builtin_name(class.file, b)
                    .map_or_else(|| format!("?{}:{b}", class.file), str::to_string),
            ),
        })
        .collect()
}

/// C3's merge of `sequences` onto `out`; `None` when no consistent order
/// exists.
fn merge(mut sequences: Vec<Vec<Klass>>, out: &mut Vec<Klass>) -> Option<()> {
    loop {
        sequences.retain(|s| !s.is_empty());
        if sequences.is_empty() {
            return Some(());
        }
        let head = sequences
            .iter()
            .map(|s| &s[0])
            .find(|candidate| !sequences.iter().any(|s| s[1..].contains(candidate)))?
            .clone();
        for s in &mut sequences {
            if s[0] == head {
                s.remove(0);
            }
        }
        out.push(head);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lineage(index: &ProjectIndex, lineages: &mut Lineages<'_>, class: &str) -> Vec<String> {
        let class = index.rename_symbol(class, None).unwrap()[0];
        let l = lineages.of(class).unwrap();
        l.iter().map(|k| lineages.name(k)).collect()
    }

    #[test]
    fn c3_orders_a_diamond_as_python_does() {
        let index = ProjectIndex::of_texts(&[(
            "m.py",
            "class O: pass\nclass A(O): pass\nclass B(O): pass\nclass C(A, B): pass\nclass D(dict, C): pass\n",
        )]);
        let mut lineages = Lineages::new(&index, HashMap::new());
        assert_eq!(
            lineage(&index, &mut lineages, "C"),
            ["C", "A", "B", "O", "object"]
        );
        assert_eq!(
            lineage(&index, &mut lineages, "D"),
            ["D", "dict", "C", "A", "B", "O", "object"]
        );
    }

    #[test]
    fn a_replaced_base_that_breaks_the_order_is_an_error_naming_the_bases() {
        let index = ProjectIndex::of_texts(&[(
            "m.py",
            "class O: pass\nclass A(O): pass\nclass C(A, O): pass\n",
        )]);
        let c = index.rename_symbol("C", None).unwrap()[0];
        let a = index.rename_symbol("A", None).unwrap()[0];
        let o = index.rename_symbol("O", None).unwrap()[0];
        // class C(O, A): O before its own subclass
        let replaced = HashMap::from([(c, vec![Klass::Project(o), Klass::Project(a)])]);
        let mut lineages = Lineages::new(&index, replaced);
        assert_eq!(
            lineages.of(c),
            Err(MroError::Inconsistent {
                class: c,
                bases: vec!["O".into(), "A".into()]
            })
        );
        // A deriving from C, which derives from A
        let replaced = HashMap::from([(a, vec![Klass::Project(c)])]);
        let mut lineages = Lineages::new(&index, replaced);
        assert!(matches!(lineages.of(c), Err(MroError::Cycle(_))));
    }
}
