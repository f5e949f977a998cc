//! Go: the type of the value a member is read through, where the
//! project states it — a local's declared type, or the type of the
//! expression it is bound to (`x := t.lookup(n)`, `for _, x := range
//! t.items`), a package-level variable's, a field's, what a function or
//! method returns first, an element of a slice, an array, a map or a
//! channel (a receive, a range over it), a type assertion's (a type
//! switch's case of one type), a conversion's. The expression is the
//! scan's compact one ([`super::super::go::chain`]:
//! `t.lookup().items[]`); each name in it is looked up where Go's scopes
//! say (the innermost local binding, an import, the package), each
//! member in the declarations of its type's package
//! ([`TagsFile::declared`], the files that spell its name), selected as
//! Go selects it: the type's own, else the one member of the name at the
//! shallowest depth of the types it embeds ([`Selected`]). A method
//! expression (`T.M`, `(*T).M`) is a member of its type.
//!
//! Whatever the declarations do not state — a member an embedded type
//! from outside the project may shadow, a generic type or function, a
//! type from outside the project, a dot import, a type declared in a
//! function, a name declared twice (a build tag's files) — leaves the
//! type unknown: the use stays possible.

use super::*;
use crate::analysis::index::tags::go::PREDECLARED;
use crate::analysis::index::tags::scan::{Declared, DeclaredKind};

/// A Go package: its directory and, where a file's own names reach it,
/// its package clause (an external test package, `x_test`, shares its
/// directory with `x`); `None`: the package an import names (not a test
/// package).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Package {
    module: ModuleKey,
    clause: Option<String>,
}

/// A type a package declares, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Named {
    package: Package,
    name: String,
}

/// What an expression is, as far as the project's declarations say.
enum Value<'e> {
    /// A value of a type as written in a file (`*Item`, `[]T`, `pkg.T`),
    /// which names what that file's scope says.
    Written(String, &'e TagsEntry),
    /// A value of a named type.
    Of(Named),
    /// A function or a method; what it returns first, as written in its
    /// file.
    Function(String, &'e TagsEntry),
    /// A package of the project (an import's name).
    Package(Package),
    /// A type (a conversion's callee, `T(x)`).
    Type(Named),
}

/// One step of a compact expression.
enum Step<'x> {
    Member(&'x str),
    Call,
    Index,
    Receive,
}

/// Where Go's selector finds a member of a named type: the type's own,
/// else at the shallowest depth of the types it embeds (through pointers
/// too), where exactly one type must declare it.
enum Selected<'e> {
    /// The one type declaring it there, and the member (`None`: declared
    /// in files of several build tags).
    Found(Named, Option<Value<'e>>),
    /// No type of its embedding tree declares it, each the project's.
    Absent,
    /// A type there or above that the declarations do not state (from
    /// outside the project, generic, declared over another type, an
    /// interface that embeds), or several types declaring it at that
    /// depth (the selector does not compile).
    Unknown,
}

/// How many embedded types one depth of a selection follows at most.
const WIDEST: usize = 64;

/// How deep `x := y` chains are followed (broken code may loop).
const MAX_DEPTH: usize = 16;

/// Where a package-level variable's value is evaluated
/// ([`DeclaredKind::Inferred`]): the start of its file, before the
/// package clause, where no local binding is visible, so that its names
/// are the file's imports' and the package's, as at the package's level.
const PACKAGE_LEVEL: usize = 0;

/// The declarations a query looked up: where a package declares a name
/// (a member of a type, or at its level), or that it declares no single
/// one.
pub(super) type DeclaredIn<'a> =
    HashMap<(Package, Option<String>, String), Option<(&'a TagsEntry, usize)>>;

impl<'a> Query<'a> {
    /// Whether a Go member use through `expression` (a local's or a
    /// package-level name, or a compact expression) names a member of the
    /// class whose names are `aliases` (in the package of clause
    /// `clause`): certain when the expression is of that type, another's
    /// when of a type the project declares, possible when its type is
    /// unknown. `None`: the expression is no value whose type is stated
    /// and no local (a package, a type, an unknown package-level name):
    /// the caller decides by what the name denotes.
    pub(super) fn go_member_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        expression: &str,
        aliases: &HashSet<(ModuleKey, String)>,
        clause: Option<&str>,
    ) -> Option<Verdict> {
        self.read_declarations.set(true);
        let value = self.value_of(entry, r.offset, expression, 0);
        let named = match value {
            Some(Value::Written(t, file)) => self.named(&t, file),
            // (a type's: a method expression, `T.M`, `(*T).M`)
            Some(Value::Of(named) | Value::Type(named)) => Some(named),
            _ if r.local_qualifier || expression.contains(['.', '(', '[']) => {
                return Some(Verdict::Possible)
            }
            _ => return None,
        };
        let Some(named) = named else {
            return Some(Verdict::Possible);
        };
        let ours = |named: &Named| {
            aliases.contains(&(named.package.module.clone(), named.name.clone()))
                && named
                    .package
                    .clause
                    .as_deref()
                    .is_none_or(|c| Some(c) == clause)
        };
        if ours(&named) {
            return Some(Verdict::Certain);
        }
        if !self.declares_type(&named.package, &named.name) {
            // a predeclared type has no member of the project's
            return Some(match PREDECLARED.contains(&named.name.as_str()) {
                true => Verdict::Other,
                false => Verdict::Possible,
            });
        }
        Some(match self.selected(&named, &r.name) {
            // promoted from an embedded type of the class's
            Selected::Found(owner, _) if ours(&owner) => Verdict::Certain,
            // another type's member, or none it may reach
            Selected::Found(..) | Selected::Absent => Verdict::Other,
            Selected::Unknown => Verdict::Possible,
        })
    }

    /// The member `name` of `named` as Go's selector finds it (see
    /// [`Selected`]): depth by depth through the types each type embeds
    /// ([`DeclaredKind::Embedded`], a field named by its type; one with
    /// no name: what the declarations do not state).
    fn selected<'e>(&self, named: &Named, name: &str) -> Selected<'e>
    where
        'a: 'e,
    {
        let mut level = vec![named.clone()];
        for _ in 0..MAX_DEPTH {
            let mut found = Vec::new();
            // a type of this depth, or one it embeds, the declarations
            // do not state
            let (mut unknown, mut unknown_below) = (false, false);
            let mut next = Vec::new();
            for t in &level {
                if !self.declares_type(&t.package, &t.name) {
                    unknown = true;
                    continue;
                }
                if let Some(member) = self.member(t, name) {
                    found.push((t.clone(), Some(member)));
                    continue;
                }
                let mut declares = false;
                for e in self.package_files(&t.package, &t.name) {
                    let own = |d: &&Declared| d.owner.as_deref() == Some(t.name.as_str());
                    for d in e.file().declared.iter().filter(own) {
                        declares |= d.name == name;
                        if d.kind != DeclaredKind::Embedded {
                            continue;
                        }
                        match (d.name.is_empty(), self.named(&d.type_text, e)) {
                            (false, Some(inner)) => next.push(inner),
                            _ => unknown_below = true,
                        }
                    }
                }
                // (declared in files of several build tags)
                if declares {
                    found.push((t.clone(), None));
                }
            }
            match found.len() {
                0 if unknown || unknown_below => return Selected::Unknown,
                0 if next.is_empty() => return Selected::Absent,
                0 if next.len() > WIDEST => return Selected::Unknown,
                0 => level = next,
                1 if !unknown => {
                    let (owner, member) = found.pop().expect("one found");
                    return Selected::Found(owner, member);
                }
                _ => return Selected::Unknown,
            }
        }
        Selected::Unknown
    }

    /// A member of a named type as Go's selector finds it, when the
    /// declarations state it ([`Self::selected`]).
    fn selected_member<'e>(&self, named: &Named, name: &str) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        match self.selected(named, name) {
            Selected::Found(_, member) => member,
            Selected::Absent | Selected::Unknown => None,
        }
    }

    /// What `expression` is at `offset` in `entry`.
    fn value_of<'e>(
        &self,
        entry: &'e TagsEntry,
        offset: usize,
        expression: &str,
        depth: usize,
    ) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        if depth > MAX_DEPTH {
            return None;
        }
        let (root, mut rest) = split_root(expression)?;
        let mut value = match (root.strip_prefix('('), root.strip_prefix("new(")) {
            (Some(asserted), _) => {
                Value::Written(asserted.trim_end_matches(')').to_string(), entry)
            }
            // the builtin's, unless a local or the package declares `new`
            (_, Some(made)) if self.is_builtin(entry, offset, "new") => {
                Value::Written(made.trim_end_matches(')').to_string(), entry)
            }
            (_, Some(_)) => return None,
            _ => self.name_value(entry, offset, root, depth)?,
        };
        while let Some((step, after)) = next_step(rest) {
            rest = after;
            value = match (value, step) {
                (Value::Package(package), Step::Member(name)) => {
                    self.package_level(&package, name, depth)?
                }
                (Value::Written(t, file), Step::Member(name)) => {
                    let named = self.named(&t, file)?;
                    self.selected_member(&named, name)?
                }
                (Value::Of(named), Step::Member(name)) => self.selected_member(&named, name)?,
                (Value::Function(t, file), Step::Call) => Value::Written(t, file),
                (Value::Type(named), Step::Call) => Value::Of(named),
                (Value::Written(t, file), Step::Index) => {
                    Value::Written(element(&t)?.to_string(), file)
                }
                (Value::Written(t, file), Step::Receive) => {
                    Value::Written(received(&t)?.to_string(), file)
                }
                _ => return None,
            };
        }
        rest.is_empty().then_some(value)
    }

    /// What a bare name is at `offset`: the innermost local binding that
    /// reads it (its declared type, or its expression's), else an
    /// import's package, else its package's name.
    fn name_value<'e>(
        &self,
        entry: &'e TagsEntry,
        offset: usize,
        name: &str,
        depth: usize,
    ) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        let file = entry.file();
        let local = file
            .locals
            .iter()
            .filter(|l| l.name == name && l.visible.contains(&offset))
            .min_by_key(|l| l.visible.end - l.visible.start);
        if let Some(local) = local {
            // (a type switch's name has a type in each case of one type)
            let typed = file
                .typed
                .iter()
                .filter(|t| t.at == Some(local.offset) && t.scope.contains(&offset))
                .min_by_key(|t| t.scope.end - t.scope.start)?;
            return match typed.inferred {
                true => self.value_of(entry, local.offset, &typed.type_name, depth + 1),
                false => Some(Value::Written(typed.type_name.clone(), entry)),
            };
        }
        if let Some(package) = self.imported(entry, name) {
            return package.map(Value::Package);
        }
        let own = self.package_of(entry);
        match self.package_level(&own, name, depth) {
            Some(value) => Some(value),
            None => {
                let package = self.dot_imported(entry, |p| {
                    self.declaration(p, None, name).is_some() || self.declares_type(p, name)
                })??;
                self.package_level(&package, name, depth)
            }
        }
    }

    /// The package a dot import of `entry` (`import . "p"`) brings a name
    /// from, by `declares`: `Some(None)` when one is not the project's
    /// (it may bring any name); `None` when none brings it.
    fn dot_imported(
        &self,
        entry: &TagsEntry,
        declares: impl Fn(&Package) -> bool,
    ) -> Option<Option<Package>> {
        let file = entry.file();
        let mut found = None;
        for (i, import) in file.imports.iter().enumerate() {
            if import.imported != Imported::All {
                continue;
            }
            let Bound::Module(module) = self.bound(entry, i) else {
                return Some(None);
            };
            let package = Package {
                module,
                clause: None,
            };
            if declares(&package) {
                found = Some(Some(package));
            }
        }
        found
    }

    /// Whether a bare `name` at `offset` is Go's builtin: no local binds
    /// it, no import, no package-level name of the file's package.
    fn is_builtin(&self, entry: &TagsEntry, offset: usize, name: &str) -> bool {
        let file = entry.file();
        let bound = file
            .locals
            .iter()
            .any(|l| l.name == name && l.visible.contains(&offset));
        let package = self.package_of(entry);
        !bound
            && self.imported(entry, name).is_none()
            && self.declaration(&package, None, name).is_none()
            && self
                .package_files(&package, name)
                .iter()
                .all(|e| !e.file().defs.iter().any(|d| d.top_level && d.name == name))
    }

    /// The package an import of `entry` names `name` for: `Some(None)`
    /// when it is not the project's.
    fn imported(&self, entry: &TagsEntry, name: &str) -> Option<Option<Package>> {
        let file = entry.file();
        let i = file.imports.iter().position(|i| {
            i.local == name && i.kind == ImportKind::Static && i.imported == Imported::Module
        })?;
        Some(match self.bound(entry, i) {
            Bound::Module(module) => Some(Package {
                module,
                clause: None,
            }),
            _ => None,
        })
    }

    /// The package of `entry`, as its own names reach it.
    fn package_of(&self, entry: &TagsEntry) -> Package {
        Package {
            module: self.module(entry),
            clause: entry.file().package.clone(),
        }
    }

    /// What a package-level `name` of `package` is: a variable of its
    /// declared type, a function, a type.
    fn package_level<'e>(&self, package: &Package, name: &str, depth: usize) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        if let Some(value) = self.declared_value(package, None, name, depth) {
            return Some(value);
        }
        self.declares_type(package, name).then(|| {
            Value::Type(Named {
                package: package.clone(),
                name: name.to_string(),
            })
        })
    }

    /// A member of a named type: a field of its declared type, a method.
    fn member<'e>(&self, named: &Named, name: &str) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        self.declared_value(&named.package, Some(&named.name), name, 0)
    }

    /// What the one declaration of `name` ([`Self::declaration`]) says
    /// it is; `depth`: how deep the inference asking is.
    fn declared_value<'e>(
        &self,
        package: &Package,
        owner: Option<&str>,
        name: &str,
        depth: usize,
    ) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        let (file, i) = self.declaration(package, owner, name)?;
        let Declared {
            type_text, kind, ..
        } = &file.file().declared[i];
        Some(match kind {
            DeclaredKind::Returns => Value::Function(type_text.to_string(), file),
            DeclaredKind::Value | DeclaredKind::Embedded => {
                Value::Written(type_text.to_string(), file)
            }
            DeclaredKind::Inferred => {
                return self.value_of(file, PACKAGE_LEVEL, type_text, depth + 1)
            }
            // (Java's: no Go file declares them)
            DeclaredKind::Method { .. }
            | DeclaredKind::Extends
            | DeclaredKind::Implements
            | DeclaredKind::TypeParameter => return None,
        })
    }

    /// The one declaration of `name` (a member of `owner`, or at the
    /// package's level) in `package`: its file and its index in the
    /// file's [`TagsFile::declared`]. `None`: none, or several (files of
    /// other build tags).
    fn declaration(
        &self,
        package: &Package,
        owner: Option<&str>,
        name: &str,
    ) -> Option<(&'a TagsEntry, usize)> {
        let key = (package.clone(), owner.map(str::to_string), name.to_string());
        if let Some(known) = self.declared_in.borrow().get(&key) {
            return *known;
        }
        let mut found = None;
        let mut twice = false;
        for e in self.package_files(package, name) {
            for (i, d) in e.file().declared.iter().enumerate() {
                if d.name == name && d.owner.as_deref() == owner {
                    twice |= found.is_some();
                    found = Some((e, i));
                }
            }
        }
        let found = found.filter(|_| !twice);
        self.declared_in.borrow_mut().insert(key, found);
        found
    }

    /// Whether `package` declares a type `name` at its level.
    fn declares_type(&self, package: &Package, name: &str) -> bool {
        self.package_files(package, name).iter().any(|e| {
            e.file()
                .defs
                .iter()
                .any(|d| d.top_level && d.name == name && d.kind == SymbolKind::Class)
        })
    }

    /// The files of `package` that spell `name`.
    fn package_files(&self, package: &Package, name: &str) -> Vec<&'a TagsEntry> {
        self.files_with(&[name], false)
            .into_iter()
            .map(|e| &**e)
            .filter(|e| self.module(e) == package.module)
            .filter(|e| {
                let clause = e.file().package.as_deref().unwrap_or_default();
                match &package.clause {
                    Some(c) => clause == c,
                    None => !clause.ends_with("_test"),
                }
            })
            .collect()
    }

    /// The named type a type written in `file` is (`T`, `*T`, `pkg.T`,
    /// `T[int]`); `None` for a slice, a map, a function's type, a type
    /// from outside the project, one a dot import may bring, one declared
    /// in a function.
    fn named(&self, written: &str, file: &TagsEntry) -> Option<Named> {
        let mut t = written.trim().trim_start_matches('*').trim_start();
        // a generic type's instance (its members were not read)
        if let Some((name, _)) = t.split_once('[') {
            t = name;
        }
        if t.is_empty()
            || !t
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            return None;
        }
        let scan = file.file();
        let (package, name) = match t.split_once('.') {
            Some((package, name)) => (self.imported(file, package)??, name),
            None if scan
                .defs
                .iter()
                .any(|d| !d.top_level && d.name == t && d.kind == SymbolKind::Class) =>
            {
                return None
            }
            None => {
                let own = self.package_of(file);
                match self.declares_type(&own, t) {
                    true => (own, t),
                    // a dot import's, or no project's
                    false => match self.dot_imported(file, |p| self.declares_type(p, t)) {
                        Some(package) => (package?, t),
                        None => (own, t),
                    },
                }
            }
        };
        Some(Named {
            package,
            name: name.to_string(),
        })
    }
}

/// A compact expression's root (a name, or `(T)`) and its steps.
fn split_root(expression: &str) -> Option<(&str, &str)> {
    let end = match expression.starts_with('(') || expression.starts_with("new(") {
        true => expression.find(')')? + 1,
        false => expression
            .find(['.', '(', '[', '<'])
            .unwrap_or(expression.len()),
    };
    Some(expression.split_at(end)).filter(|(root, _)| !root.is_empty())
}

/// The first step of a compact expression's steps, and the rest.
fn next_step(steps: &str) -> Option<(Step<'_>, &str)> {
    if let Some(rest) = steps.strip_prefix("()") {
        return Some((Step::Call, rest));
    }
    if let Some(rest) = steps.strip_prefix("[]") {
        return Some((Step::Index, rest));
    }
    if let Some(rest) = steps.strip_prefix("<-") {
        return Some((Step::Receive, rest));
    }
    let rest = steps.strip_prefix('.')?;
    let end = rest.find(['.', '(', '[', '<']).unwrap_or(rest.len());
    Some((Step::Member(&rest[..end]), &rest[end..]))
}

/// The element type of a slice, an array or a map (or a pointer to an
/// array), as written: `Item` of `[]Item`, `[4]Item`, `map[string]Item`.
fn element(written: &str) -> Option<&str> {
    let t = written.trim().trim_start_matches('*').trim_start();
    let open = match t.strip_prefix("map") {
        Some(rest) if rest.trim_start().starts_with('[') => t.len() - rest.trim_start().len(),
        _ if t.starts_with('[') => 0,
        _ => return None,
    };
    let mut depth = 0;
    for (i, b) in t.bytes().enumerate().skip(open) {
        match b {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(t[i + 1..].trim()).filter(|e| !e.is_empty());
                }
            }
            _ => {}
        }
    }
    None
}

/// The element type of a channel, as written: `T` of `chan T`, `<-chan
/// T`, `chan<- T`.
fn received(written: &str) -> Option<&str> {
    let t = written.trim();
    let t = t.strip_prefix("<-").map_or(t, str::trim_start);
    let rest = t.strip_prefix("chan")?;
    let rest = match rest.strip_prefix("<-") {
        Some(rest) => rest,
        // (`channel` is a name)
        None if rest.starts_with(char::is_whitespace) => rest,
        None => return None,
    };
    Some(rest.trim()).filter(|e| !e.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_of_slices_arrays_and_maps() {
        assert_eq!(element("[]*Item"), Some("*Item"));
        assert_eq!(element("[4]pkg.T"), Some("pkg.T"));
        assert_eq!(element("*[4]T"), Some("T"));
        assert_eq!(element("map[[2]int][]T"), Some("[]T"));
        assert_eq!(element("map[string]T"), Some("T"));
        assert_eq!(element("T"), None);
        assert_eq!(element("mapper"), None);
        assert_eq!(element("chan T"), None);
    }

    #[test]
    fn elements_of_channels() {
        assert_eq!(received("chan *Item"), Some("*Item"));
        assert_eq!(received("<-chan pkg.T"), Some("pkg.T"));
        assert_eq!(received("chan<- T"), Some("T"));
        assert_eq!(received("chan []T"), Some("[]T"));
        assert_eq!(received("channel"), None);
        assert_eq!(received("[]T"), None);
    }

    #[test]
    fn compact_expressions_split_into_steps() {
        assert_eq!(
            split_root("t.lookup().items[]"),
            Some(("t", ".lookup().items[]"))
        );
        assert_eq!(split_root("(*pkg.T).x"), Some(("(*pkg.T)", ".x")));
        assert_eq!(split_root("t.done<-"), Some(("t", ".done<-")));
        assert_eq!(split_root("ch<-.x"), Some(("ch", "<-.x")));
        let mut steps = Vec::new();
        let mut rest = ".lookup().items[]";
        while let Some((step, after)) = next_step(rest) {
            steps.push(match step {
                Step::Member(m) => m.to_string(),
                Step::Call => "()".to_string(),
                Step::Index => "[]".to_string(),
                Step::Receive => "<-".to_string(),
            });
            rest = after;
        }
        assert_eq!(steps, ["lookup", "()", "items", "[]"]);
    }
}
