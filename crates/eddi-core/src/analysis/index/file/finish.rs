//! After the walk: every bound name's value, every pending read resolved,
//! instance attributes and inferred returns, and the index's grouped
//! tables ([`super::FileIndex`]).

use super::*;
use crate::analysis::scope::lookup;

/// The `(start, end)` run of each key in a sequence grouped by key.
/// Items grouped by their key (a name id below `names`), each group in
/// `order`, and each key's range of the groups. A counting sort: the keys
/// are dense ids, and the items come in nearly that order within a key
/// already (references about in source order), so each group is sorted
/// from almost sorted.
pub(super) fn grouped_by_key<T: Copy, K: Ord>(
    keyed: impl Iterator<Item = (Name, T)>,
    names: usize,
    order: impl Fn(&T) -> K,
) -> (Vec<T>, HashMap<Name, (u32, u32)>) {
    let keyed: Vec<(Name, T)> = keyed.collect();
    let Some(&(_, placeholder)) = keyed.first() else {
        return (Vec::new(), HashMap::default());
    };
    // where each key's group starts, then (after the scatter) ends
    let mut ends = vec![0u32; names + 1];
    for &(k, _) in &keyed {
        ends[k as usize + 1] += 1;
    }
    for i in 1..ends.len() {
        ends[i] += ends[i - 1];
    }
    let mut grouped = vec![placeholder; keyed.len()];
    for &(k, item) in &keyed {
        let at = &mut ends[k as usize];
        grouped[*at as usize] = item;
        *at += 1;
    }
    let mut ranges = HashMap::default();
    let mut start = 0;
    for (k, &end) in ends.iter().enumerate().take(names) {
        if end > start {
            grouped[start as usize..end as usize].sort_unstable_by_key(&order);
            ranges.insert(k as Name, (start, end));
        }
        start = end;
    }
    (grouped, ranges)
}

/// The name a reference's symbol has at its definition, or `None` when the
/// reference denotes nothing the index answers for (locals, literals).
pub(super) fn key_of(file: &FileIndex, value: ValueId, depth: usize) -> Option<Name> {
    if depth > 32 {
        return None;
    }
    match file.value(value) {
        Value::Unknown
        | Value::Call(_)
        | Value::SelfOf(_)
        | Value::Super(_)
        | Value::SuperOf(_)
        | Value::Items(_)
        | Value::Elem(_)
        | Value::Values(_)
        | Value::Index(_)
        | Value::OneOf { .. }
        | Value::Copy { .. }
        | Value::Fixture { .. } => None,
        Value::Def(d) => Some(file.def(d).name),
        Value::Module(m) => Some(m),
        Value::Member { name, .. } | Value::Free(name) | Value::Attr { name, .. } => Some(name),
        Value::Same(v) => key_of(file, v, depth + 1),
        Value::Union { start, len } => file
            .union(start, len)
            .iter()
            .find_map(|&v| key_of(file, v, depth + 1)),
    }
}

impl<'s, 't> Scanner<'s, 't> {
    /// A function without a return annotation whose every `return` gives
    /// an instance of one class (`return Engine(…)`, or `return self` in a
    /// method) returns that class (`Def::returns`); `return None` or a bare
    /// `return` beside them counts as nothing returned. Anything else
    /// returned, a generator or an `async` function: nothing is inferred.
    pub(super) fn inferred_returns(&mut self) {
        let returned = std::mem::take(&mut self.returned);
        let mut by_function: HashMap<DefId, Vec<ValueId>> = HashMap::default();
        for (function, value) in returned {
            by_function.entry(function).or_default().push(value);
        }
        for (function, values) in by_function {
            let def = &self.file.defs[function as usize];
            if def.returns.is_some()
                || !matches!(def.kind, SymbolKind::Function | SymbolKind::Method)
                || self.not_returning.contains(&function)
            {
                continue;
            }
            let mut class: Option<ValueId> = None;
            let mut typed = true;
            for v in values.into_iter().filter(|&v| v != UNKNOWN) {
                let candidate = match self.file.value(v) {
                    // `cls(…)` in a classmethod: its class
                    Value::Call(callee) => match self.file.self_class(callee) {
                        Some(c) => self.push(Value::Def(c)),
                        None => callee,
                    },
                    Value::Same(_) => match self.file.self_class(v) {
                        Some(c) => self.push(Value::Def(c)),
                        // a name bound once to a call: `bar = Bar(…)`, `return bar`
                        None => match self.file.called(v) {
                            Some(callee) => match self.file.self_class(callee) {
                                Some(c) => self.push(Value::Def(c)),
                                None => callee,
                            },
                            None => {
                                typed = false;
                                break;
                            }
                        },
                    },
                    _ => {
                        typed = false;
                        break;
                    }
                };
                match class {
                    None => class = Some(candidate),
                    Some(c) if self.same_value(c, candidate, 0) => {}
                    Some(_) => {
                        typed = false;
                        break;
                    }
                }
            }
            if typed {
                if let Some(c) = class {
                    self.file.defs[function as usize].returns = Some(c);
                }
            }
        }
    }

    /// Whether two values are the same expression of the same bindings
    /// (`Engine()` in two methods), through `Same`.
    pub(super) fn same_value(&self, a: ValueId, b: ValueId, depth: usize) -> bool {
        if a == b {
            return true;
        }
        if depth > 8 {
            return false;
        }
        let (a, b) = (self.file.through_same(a), self.file.through_same(b));
        if a == b {
            return true;
        }
        match (self.file.value(a), self.file.value(b)) {
            (Value::Call(x), Value::Call(y)) => self.same_value(x, y, depth + 1),
            (Value::Attr { base: x, name: n }, Value::Attr { base: y, name: m }) => {
                n == m && self.same_value(x, y, depth + 1)
            }
            (x, y) => x == y && !matches!(x, Value::Unknown),
        }
    }

    /// `value` is the attribute `key` itself, or a copy of it (`self.x`,
    /// `copy.deepcopy(self.x)`).
    fn copies_attribute(&self, value: ValueId, key: (DefId, Name)) -> bool {
        let value = match self.file.value(value) {
            Value::Copy { of, .. } => of,
            _ => value,
        };
        self.self_attribute(self.file.through_same(value)) == Some(key)
    }

    /// `self.name` (through `Same`): the class and the name.
    pub(super) fn self_attribute(&self, value: ValueId) -> Option<(DefId, Name)> {
        let Value::Attr { base, name } = self.file.value(value) else {
            return None;
        };
        Some((self.file.self_class(base)?, name))
    }

    pub(super) fn finish(mut self) -> FileIndex {
        self.resolve_bindings();
        self.finish_index()
    }

    /// The value of every bound name of every scope.
    pub(super) fn resolve_bindings(&mut self) {
        for i in 0..self.scopes.len() {
            let bindings = std::mem::take(&mut self.scopes[i].bindings);
            let local =
                self.scopes[i].kind != ScopeKind::Module && self.scopes[i].kind != ScopeKind::Class;
            for (name, mut values) in bindings {
                if local && values.len() > 1 && values.contains(&UNKNOWN) {
                    values.clear();
                }
                values.retain(|&v| v != UNKNOWN);
                values.dedup();
                // a test's fixture parameter bound again (`env =
                // Environment(…)`): typed when every binding is, alike
                let fixture = values
                    .iter()
                    .any(|&v| matches!(self.file.value(v), Value::Fixture { .. }));
                let v = match values.len() {
                    0 => UNKNOWN,
                    1 => values[0],
                    n if local && fixture => {
                        let start = self.file.unions.len() as u32;
                        self.file.unions.extend(values);
                        self.push(Value::OneOf {
                            start,
                            len: n as u32,
                        })
                    }
                    n => {
                        let start = self.file.unions.len() as u32;
                        self.file.unions.extend(values);
                        self.push(Value::Union {
                            start,
                            len: n as u32,
                        })
                    }
                };
                self.scopes[i].resolved.insert(name, v);
            }
        }
    }

    /// The index's projection of the walk.
    pub(super) fn finish_index(mut self) -> FileIndex {
        let pending = std::mem::take(&mut self.pending);
        for p in &pending {
            let v = self.lookup(p.scope, p.name);
            self.file.values[p.slot as usize] = if v == UNKNOWN {
                Value::Unknown
            } else {
                Value::Same(v)
            };
        }
        self.instance_attributes();
        self.inferred_returns();
        if self.all_dynamic {
            self.file.all = None;
        }
        let module_scope = std::mem::take(&mut self.scopes[0].resolved);
        for (name, v) in module_scope {
            if v != UNKNOWN {
                let key = self.file.names.name(name).into();
                self.file.exports.insert(key, v);
            }
        }
        // Keep the references that may denote a module- or class-level
        // symbol, keyed by that symbol's own name.
        let names = self.file.names.len();
        let refs = std::mem::take(&mut self.file.refs);
        let keyed = refs
            .into_iter()
            .filter_map(|r| Some((key_of(&self.file, r.value, 0)?, r)));
        let in_source_order = |r: &Ref| (r.line, r.col);
        (self.file.refs, self.file.ref_ranges) = grouped_by_key(keyed, names, in_source_order);
        let sites = std::mem::take(&mut self.file.sites);
        let keyed = sites
            .into_iter()
            .filter_map(|r| Some((key_of(&self.file, r.value, 0)?, r)));
        (self.file.sites, self.file.site_ranges) = grouped_by_key(keyed, names, in_source_order);
        let defs = self.file.defs.iter().enumerate();
        let keyed = defs.map(|(d, def)| (def.name, d as DefId));
        (self.file.defs_by_name, self.file.def_ranges) = grouped_by_key(keyed, names, |&d| d);
        self.file.names.shrink_to_fit();
        self.file.refs.shrink_to_fit();
        self.file.values.shrink_to_fit();
        self.file
    }

    /// The first `self.x = …` of a class whose body does not define `x`
    /// becomes the definition of the instance attribute `x`.
    pub(super) fn instance_attributes(&mut self) {
        let writes = std::mem::take(&mut self.attr_writes);
        // What each `self.name` is assigned across the class's methods: the
        // values the index can follow type the attribute, one of them each
        // time (`None` besides them is fine: unset; a copy of the
        // attribute itself, `self.x = copy.deepcopy(self.x)`, adds nothing).
        // A declared type (`self.x: C = …`, `# type: C`) is the type
        // wherever the attribute is assigned.
        let mut assigned: HashMap<(DefId, Name), Vec<ValueId>> = HashMap::default();
        let declared: Vec<(DefId, Name)> = writes
            .iter()
            .filter(|w| w.declared)
            .filter_map(|w| self.self_attribute(w.value))
            .collect();
        for w in &writes {
            let Some(key) = self.self_attribute(w.value) else {
                continue;
            };
            let values = assigned.entry(key).or_default();
            if w.assigned == UNKNOWN
                || self.copies_attribute(w.assigned, key)
                || (!w.declared && declared.contains(&key))
            {
                continue;
            }
            if !values.iter().any(|&v| self.same_value(v, w.assigned, 0)) {
                values.push(w.assigned);
            }
        }
        let mut typed: HashMap<(DefId, Name), ValueId> = HashMap::default();
        for (key, values) in assigned {
            let value = match values.len() {
                0 => continue,
                1 => values[0],
                n => {
                    let start = self.file.unions.len() as u32;
                    self.file.unions.extend(values);
                    self.push(Value::OneOf {
                        start,
                        len: n as u32,
                    })
                }
            };
            typed.insert(key, value);
        }
        for w in writes {
            let Some((class, name)) = self.self_attribute(w.value) else {
                continue;
            };
            let text = self.file.name(name).to_string();
            let defined = self.file.members.get(&class).is_some_and(|m| {
                m.iter()
                    .any(|&d| self.file.name(self.file.defs[d as usize].name) == text)
            });
            if defined {
                continue;
            }
            let Some(r) = self.file.refs.get_mut(w.reference) else {
                continue;
            };
            r.value = UNKNOWN; // the definition site is not a reference
            let position = Position::new(r.line as usize, r.col as usize);
            let id = self.file.defs.len() as DefId;
            self.file.defs.push(Def {
                name,
                qualified: self.qualified(Some(class), &text),
                kind: SymbolKind::Attribute,
                position,
                name_position: position,
                parent: Some(class),
                bases: Vec::new(),
                instance: true,
                value: typed.get(&(class, name)).copied(),
                returns: None,
                fixture: false,
            });
            self.file.members.entry(class).or_default().push(id);
        }
    }

    /// The value of `name` read in `scope` ([`lookup`]).
    pub(super) fn lookup(&mut self, scope: usize, name: Name) -> ValueId {
        let chain = NameIn {
            scopes: &self.scopes,
            name,
        };
        match lookup(&chain, scope) {
            Some(i) => self.scopes[i]
                .resolved
                .get(&name)
                .copied()
                .unwrap_or(UNKNOWN),
            None => self.free(name),
        }
    }

    pub(super) fn free(&mut self, name: Name) -> ValueId {
        self.push(Value::Free(name))
    }
}
