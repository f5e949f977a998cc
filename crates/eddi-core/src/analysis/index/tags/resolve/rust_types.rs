//! Rust: the type of the value a member is read through, where the file
//! states it — `self` in a type's `impl`, a typed local, a loop's
//! variable over a `Vec<T>`, an array or a slice (`for x in
//! &self.items`, `.iter()`, `.iter_mut()`, `.into_iter()`), a field of
//! a non-generic struct the file declares (`self.inner.m()`), what an
//! associated function or a method of an `impl` in the file that returns
//! `Self` or the type makes (`T::new().m()`, `x.builder().m()`).
//! References, `Box`, `Rc` and `Arc` reach the type they hold (a member
//! access dereferences them). The expression is the scan's compact one
//! ([`super::super::rust::chain`]).
//!
//! What the file does not state — a struct of another file, a generic
//! struct, a type parameter, a method's other result, a trait's `self`,
//! a macro — leaves the use possible.

use super::*;
use crate::analysis::index::tags::scan::{DeclaredKind, Typed};

/// How deep `for` variables over other ones are followed.
const MAX_DEPTH: usize = 16;

impl Query<'_> {
    /// Whether a Rust member use through a compact expression (or a
    /// name of an inferred type) names a member of `class` (the type
    /// whose names are `aliases`; `returns_class`: whether a function of
    /// the class's own `impl` makes one): by the type the expression is
    /// of, as a typed name's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rust_expression_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        expression: &str,
        inside: Option<&str>,
        aliases: &HashSet<(ModuleKey, String)>,
        returns_class: &dyn Fn(&str, &str) -> bool,
        defined: &Defined<'_>,
    ) -> Verdict {
        self.read_declarations.set(true);
        match self.rust_type_of(
            entry,
            r.offset,
            expression,
            inside,
            returns_class,
            defined,
            0,
        ) {
            Some(t) => self.typed_as(entry, r.offset, &t, aliases, defined),
            None => Verdict::Possible,
        }
    }

    /// The type (its name in `entry`) of a compact expression at
    /// `offset`.
    #[allow(clippy::too_many_arguments)]
    fn rust_type_of(
        &self,
        entry: &TagsEntry,
        offset: usize,
        expression: &str,
        inside: Option<&str>,
        returns_class: &dyn Fn(&str, &str) -> bool,
        defined: &Defined<'_>,
        depth: usize,
    ) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let file = entry.file();
        let (root, mut rest) = split_root(expression)?;
        // whether the file's `impl T` has a function `f` that returns a `T`
        let makes = |t: &str, f: &str| {
            file.constructors.iter().any(|(o, g)| o == t && g == f) || returns_class(t, f)
        };
        let mut t: String = if root == "self" {
            // a trait's body: any type that implements it
            if file.inheriting.iter().any(|b| b.contains(&offset)) {
                return None;
            }
            inside?.to_string()
        } else if let Some(call) = root.strip_suffix("()") {
            let (owner, f) = call.split_once("::")?;
            makes(owner, f).then(|| owner.to_string())?
        } else {
            let typed = file
                .typed
                .iter()
                .filter(|t| t.name == root && t.scope.contains(&offset))
                .min_by_key(|t| t.scope.end - t.scope.start)?;
            // a loop's variable, unless a closer binding (a closure's
            // parameter) hides it
            let innermost = file
                .locals
                .iter()
                .filter(|l| l.name == root && l.visible.contains(&offset))
                .min_by_key(|l| l.visible.end - l.visible.start);
            if typed.inferred && innermost.is_some_and(|l| typed.at != Some(l.offset)) {
                return None;
            }
            self.typed_type(entry, typed, inside, returns_class, defined, depth)?
        };
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("[]") {
                t = element(&t)?.to_string();
                rest = after;
                continue;
            }
            let after = rest.strip_prefix('.')?;
            let end = after.find(['.', '(', '[']).unwrap_or(after.len());
            let (name, after) = after.split_at(end);
            let own = held(&t)?;
            match after.strip_prefix("()") {
                Some(after) => {
                    t = makes(own, name).then(|| own.to_string())?;
                    rest = after;
                }
                None => {
                    t = self.own_field(entry, offset, own, name, defined)?;
                    rest = after;
                }
            }
        }
        Some(held(&t)?.to_string())
    }

    /// The type a typed name is of: its declared one, what `T::f`
    /// makes, or its inferred expression's.
    fn typed_type(
        &self,
        entry: &TagsEntry,
        typed: &Typed,
        inside: Option<&str>,
        returns_class: &dyn Fn(&str, &str) -> bool,
        defined: &Defined<'_>,
        depth: usize,
    ) -> Option<String> {
        if typed.inferred {
            let at = typed.scope.start;
            let e = &typed.type_name;
            return self.rust_type_of(entry, at, e, inside, returns_class, defined, depth + 1);
        }
        match typed.type_name.split_once("::") {
            Some((owner, f)) => {
                let file = entry.file();
                let makes = file.constructors.iter().any(|(o, g)| o == owner && g == f)
                    || returns_class(owner, f);
                makes.then(|| owner.to_string())
            }
            None => Some(typed.type_name.clone()),
        }
    }

    /// The declared type of the field `name` of the struct `owner`, when
    /// `owner` names (at `offset`) a non-generic struct `entry`'s module
    /// declares.
    fn own_field(
        &self,
        entry: &TagsEntry,
        offset: usize,
        owner: &str,
        name: &str,
        defined: &Defined<'_>,
    ) -> Option<String> {
        let file = entry.file();
        let module = self.module(entry);
        let own: HashSet<(ModuleKey, String)> = [(module, owner.to_string())].into();
        let declared_here = file
            .defs
            .iter()
            .filter(|d| d.top_level && d.name == owner && d.kind == SymbolKind::Class)
            .count()
            == 1;
        if !declared_here || self.typed_as(entry, offset, owner, &own, defined) != Verdict::Certain
        {
            return None;
        }
        let mut fields = file.declared.iter().filter(|d| {
            d.kind == DeclaredKind::Value && d.owner.as_deref() == Some(owner) && d.name == name
        });
        match (fields.next(), fields.next()) {
            (Some(d), None) => Some(d.type_text.to_string()),
            _ => None,
        }
    }
}

/// A compact expression's root (`self`, a name, `T::f()`) and its steps.
fn split_root(expression: &str) -> Option<(&str, &str)> {
    let end = match expression.find("()") {
        Some(call) if expression[..call].contains("::") && !expression[..call].contains('.') => {
            call + 2
        }
        _ => expression.find(['.', '[']).unwrap_or(expression.len()),
    };
    Some(expression.split_at(end)).filter(|(root, _)| !root.is_empty())
}

/// The type a written type holds for member access: itself, or through
/// `&`, `&mut`, `Box<…>`, `Rc<…>`, `Arc<…>`; `None` unless that is a
/// plain name (a path, a generic type, a tuple are not followed).
fn held(written: &str) -> Option<&str> {
    let mut t = written.trim();
    loop {
        if let Some(inner) = t.strip_prefix('&') {
            t = unreferenced(inner)?;
            continue;
        }
        match ["Box<", "Rc<", "Arc<"]
            .iter()
            .find_map(|w| t.strip_prefix(w))
        {
            Some(inner) => t = inner.strip_suffix('>')?.trim(),
            None => break,
        }
    }
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')).then_some(t)
}

/// What a reference (after its `&`) is to: its lifetime and `mut` left
/// out.
fn unreferenced(after: &str) -> Option<&str> {
    let mut t = after.trim_start();
    if t.starts_with('\'') {
        t = t.split_once(' ')?.1.trim_start();
    }
    Some(t.strip_prefix("mut ").unwrap_or(t).trim_start())
}

/// The element type of a `Vec<T>`, an array `[T; N]` or a slice `[T]`
/// (through references and `Box`), as written.
fn element(written: &str) -> Option<&str> {
    let mut t = written.trim();
    loop {
        if let Some(inner) = t.strip_prefix('&') {
            t = unreferenced(inner)?;
            continue;
        }
        match t.strip_prefix("Box<") {
            Some(inner) => t = inner.strip_suffix('>')?.trim(),
            None => break,
        }
    }
    if let Some(inner) = t.strip_prefix("Vec<") {
        let inner = inner.strip_suffix('>')?.trim();
        return (!inner.contains(',')).then_some(inner);
    }
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    let element = match inner.rsplit_once(';') {
        Some((element, _)) => element,
        None => inner,
    };
    Some(element.trim()).filter(|kept| !kept.is_empty() && !kept.contains([',', ';']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_types_and_elements() {
        assert_eq!(held("&'a mut Box<Node>"), Some("Node"));
        assert_eq!(held("Arc<Inner>"), Some("Inner"));
        assert_eq!(held("Vec<Node>"), None);
        assert_eq!(held("crate::a::Node"), None);
        assert_eq!(element("&[Node]"), Some("Node"));
        assert_eq!(element("[Box<Node>; 4]"), Some("Box<Node>"));
        assert_eq!(element("&mut Vec<Node>"), Some("Node"));
        assert_eq!(element("HashMap<K, V>"), None);
        assert_eq!(split_root("T::new().inner"), Some(("T::new()", ".inner")));
        assert_eq!(split_root("self.a.b()"), Some(("self", ".a.b()")));
        assert_eq!(split_root("x.items[]"), Some(("x", ".items[]")));
    }
}
