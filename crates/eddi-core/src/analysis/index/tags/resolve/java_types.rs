//! Java: the class of the value a member is read through, where the
//! project states it, and the class that declares a member of that name
//! through the project's hierarchy. A value's class is a local's or a
//! field's declared type, or the type of the expression it is bound to
//! (`var x = e`, `for (var x : e)`) or that the member is read through
//! ([`super::super::java::chain`]: `a.getB(0).items[]`): a method's
//! declared result (overloads told apart by their number of parameters,
//! when that differs), a field's declared type, an array's element, the
//! element of a `java.util` collection or an `Iterable` with one type
//! argument, a cast's type, a construction's, `this`, `super`.
//!
//! The member a class reaches by a name is the one the class declares,
//! else the one its superclass reaches, else the one its interfaces
//! reach (when they agree). Whatever the declarations do not state — a
//! type parameter's value, a supertype from outside the project (where
//! the class does not declare the name itself), a class declared twice
//! in a package or in a method's body, overloads of one number of
//! parameters, a static import's value — leaves the use possible.

use super::*;
use crate::analysis::index::tags::java::sole_overload_taking;
use crate::analysis::index::tags::scan::{DeclaredKind, Typed};

/// A class (an interface, an enum, a record) of the project: its package
/// and its simple name.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Class {
    package: ModuleKey,
    name: String,
}

/// What a type written in a file names.
enum Resolved {
    Project(Class),
    /// A type from outside the project (`String`, `java.util.List`), a
    /// primitive, an array: it has no member the project declares.
    Outside,
    /// A type parameter, or a name the index cannot tell.
    Unknown,
}

/// What an expression is, as far as the project's declarations say.
enum Value<'e> {
    /// A value of a type as written in a file.
    Written(String, &'e TagsEntry),
    /// A value of a class of the project (`this`, `new T()`).
    Of(Class),
    /// A class itself, whose static members a step reads (`Util.make()`).
    Static(Class),
    /// The superclass of a class (`super`): its members, not the class's.
    Super(Class),
}

/// Which of a class's members a name is looked up among.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    /// Any member (a use's verdict).
    Any,
    Field,
    Method,
}

/// Where a class finds a member by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Owner {
    /// This class (itself or a supertype) declares it.
    Declared(Class),
    /// Neither it nor any supertype does.
    Nowhere,
    /// A supertype the index cannot read may.
    Unknown,
}

/// The classes a query looked up, by package and name: the one file
/// that declares each and its definition's index there (`None`: none,
/// or several).
pub(super) type Classes<'a> = HashMap<(ModuleKey, String), Option<(&'a TagsEntry, usize)>>;

/// How deep supertypes and `var x = y` chains are followed (broken code
/// may loop).
const MAX_DEPTH: usize = 16;

/// The `java.util` types (and `Iterable`) whose element, in a for-each
/// loop, is their one type argument.
const COLLECTIONS: &[&str] = &[
    "Iterable",
    "Collection",
    "List",
    "Set",
    "SortedSet",
    "NavigableSet",
    "Queue",
    "Deque",
    "ArrayList",
    "LinkedList",
    "HashSet",
    "LinkedHashSet",
    "TreeSet",
    "ArrayDeque",
];

impl<'a> Query<'a> {
    /// Whether a Java member use `r` through the name `q` — a local's or
    /// a field's of a declared or inferred type — names a member of the
    /// class whose names are `aliases`: certain when the class its type
    /// reaches the name in is that class, another's when another class
    /// declares it (or none does), possible when its type or a supertype
    /// is unknown; through a class of the project, as its static member.
    /// `None`: no typed name `q` is in scope, nor a class of the project
    /// (a package, an outside class, an untyped local: the caller
    /// decides).
    pub(super) fn java_named_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        q: &str,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> Option<Verdict> {
        let Some(value) = self.typed_value(entry, r.offset, q, 0) else {
            // a class of the project (`A::price`, `A.make()`): a member
            // it declares or inherits, whichever class that is
            return match self.java_type(q, entry) {
                Resolved::Project(class) if !r.local_qualifier => {
                    Some(self.java_verdict(Value::Static(class), &r.name, aliases))
                }
                _ => None,
            };
        };
        Some(match value {
            Some(value) => self.java_verdict(value, &r.name, aliases),
            None => Verdict::Possible,
        })
    }

    /// Whether a Java member use through a compact expression names a
    /// member of the class whose names are `aliases`.
    pub(super) fn java_expression_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        expression: &str,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> Verdict {
        match self.java_value_of(entry, r.offset, expression, 0) {
            Some(value) => self.java_verdict(value, &r.name, aliases),
            None => Verdict::Possible,
        }
    }

    /// Whether `this.name` (outside the class whose member is asked), or
    /// a bare `name` in a class that may inherit it, names a member of
    /// the class whose names are `aliases`: through the classes around
    /// the use, innermost first.
    pub(super) fn java_implicit_use(
        &self,
        entry: &TagsEntry,
        r: &TagRef,
        through_this: bool,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> Verdict {
        let owner = match through_this {
            true => match self.class_around(entry, r.offset) {
                Some(class) => self.owner(&class, &r.name, Member::Any, 0),
                None => Owner::Unknown,
            },
            false => self.implicit_owner(entry, r.offset, &r.name, Member::Any),
        };
        owner_verdict(owner, aliases)
    }

    fn java_verdict(
        &self,
        value: Value<'_>,
        name: &str,
        aliases: &HashSet<(ModuleKey, String)>,
    ) -> Verdict {
        self.read_declarations.set(true);
        let class = match value {
            Value::Of(class) | Value::Static(class) => class,
            Value::Super(class) => {
                return owner_verdict(self.super_owner(&class, name, Member::Any, 0), aliases)
            }
            Value::Written(t, file) => match self.java_type(&t, file) {
                Resolved::Project(class) => class,
                Resolved::Outside => return Verdict::Other,
                Resolved::Unknown => return Verdict::Possible,
            },
        };
        owner_verdict(self.owner(&class, name, Member::Any, 0), aliases)
    }

    /// The value of a name typed in scope at `offset` (`Some(None)`: a
    /// local binds it whose type the index does not know); `None`: no
    /// local binds it and no field of the file's is typed so.
    fn typed_value<'e>(
        &self,
        entry: &'e TagsEntry,
        offset: usize,
        name: &str,
        depth: usize,
    ) -> Option<Option<Value<'e>>>
    where
        'a: 'e,
    {
        let file = entry.file();
        let local = file
            .locals
            .iter()
            .filter(|l| l.name == name && l.visible.contains(&offset))
            .min_by_key(|l| l.visible.end - l.visible.start);
        let typed = match local {
            // the local's own declaration
            Some(local) => file.typed.iter().find(|t| t.at == Some(local.offset)),
            // a field of the file's classes around it: the innermost
            None => {
                let fields = file
                    .typed
                    .iter()
                    .filter(|t| t.name == name && t.scope.contains(&offset) && is_field(file, t));
                let narrowest = fields.clone().map(|t| t.scope.end - t.scope.start).min()?;
                let mut fields = fields.filter(|t| t.scope.end - t.scope.start == narrowest);
                // (a class in between that inherits may hide it)
                let hidden = file
                    .inheriting
                    .iter()
                    .any(|b| b.contains(&offset) && b.end - b.start < narrowest);
                match (fields.next(), fields.next(), hidden) {
                    (Some(t), None, false) => Some(t),
                    _ => return Some(None),
                }
            }
        };
        let Some(t) = typed else {
            return Some(None);
        };
        Some(match t.inferred {
            true => self.java_value_of(entry, t.at.unwrap_or(offset), &t.type_name, depth + 1),
            false => Some(Value::Written(t.type_name.clone(), entry)),
        })
    }

    /// What a compact expression is at `offset` in `entry`.
    fn java_value_of<'e>(
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
        self.read_declarations.set(true);
        if let Some((class, after)) = self.class_through_package(entry, expression) {
            return self.java_steps(Value::Static(class), after);
        }
        let (root, rest) = split_root(expression)?;
        let value = if let Some(cast) = root.strip_prefix('(') {
            Value::Written(cast.strip_suffix(')')?.to_string(), entry)
        } else if let Some(made) = root.strip_prefix("new(") {
            Value::Written(made.strip_suffix(')')?.to_string(), entry)
        } else if root == "this" {
            Value::Of(self.class_around(entry, offset)?)
        } else if root == "super" {
            Value::Super(self.class_around(entry, offset)?)
        } else if let Some((name, arity)) = call_of(root) {
            // a bare call: a method of a class around it
            let Owner::Declared(owner) = self.implicit_owner(entry, offset, name, Member::Method)
            else {
                return None;
            };
            self.call_result(&owner, name, arity)?
        } else {
            self.java_name_value(entry, offset, root, depth)?
        };
        self.java_steps(value, rest)
    }

    /// A class named through its package at the start of an expression
    /// (`com.acme.lib.Cart` of `com.acme.lib.Cart.twice(1)` or
    /// `com.acme.lib.Cart.NAME.length()`): the longest dotted prefix that
    /// names a class of the project, when the first name binds nothing in
    /// the file (a local, a field, a class, an import); with what
    /// follows it.
    fn class_through_package<'x>(
        &self,
        entry: &TagsEntry,
        expression: &'x str,
    ) -> Option<(Class, &'x str)> {
        let is_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '$' | '.');
        let end = expression
            .find(|c: char| !is_name(c))
            .unwrap_or(expression.len());
        let dotted = &expression[..end];
        if !dotted.contains('.') || self.binds_first_name(entry, dotted) {
            return None;
        }
        let mut ends: Vec<usize> = dotted
            .match_indices('.')
            .map(|(at, _)| at)
            .skip(1)
            .collect();
        ends.push(dotted.len());
        ends.into_iter()
            .rev()
            .find_map(|end| match self.java_type(&dotted[..end], entry) {
                Resolved::Project(class) => Some((class, &expression[end..])),
                Resolved::Outside | Resolved::Unknown => None,
            })
    }

    /// A value after the steps `rest` of a compact expression (`.f`,
    /// `.m(1)`, `[]`) read through it.
    fn java_steps<'e>(&self, mut value: Value<'e>, mut rest: &str) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        while let Some((step, after)) = next_step(rest) {
            rest = after;
            value = match step {
                Step::Element => match value {
                    Value::Written(t, file) => Value::Written(self.element(&t, file)?, file),
                    _ => return None,
                },
                Step::Field(name) => {
                    let class = self.class_of(value)?;
                    let Owner::Declared(owner) = self.owner_from(&class, name, Member::Field)
                    else {
                        return None;
                    };
                    self.field_type(&owner, name)?
                }
                Step::Call(name, arity) if self.standard_holds(&value).is_some() => {
                    let (holds, file) = self.standard_holds(&value)?;
                    Value::Written(stream_made(&holds, name, arity)?, file)
                }
                Step::Lambda(name, index) => {
                    let (holds, file) = self.standard_holds(&value)?;
                    Value::Written(lambda_parameter(&holds, name, index)?, file)
                }
                Step::Call(name, arity) => {
                    let class = self.class_of(value)?;
                    let Owner::Declared(owner) = self.owner_from(&class, name, Member::Method)
                    else {
                        return None;
                    };
                    self.call_result(&owner, name, arity)?
                }
            };
        }
        rest.is_empty().then_some(value)
    }

    /// What a bare name is: a local's or a field's value, else a class.
    fn java_name_value<'e>(
        &self,
        entry: &'e TagsEntry,
        offset: usize,
        name: &str,
        depth: usize,
    ) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        if let Some(value) = self.typed_value(entry, offset, name, depth) {
            return value;
        }
        match self.implicit_owner(entry, offset, name, Member::Field) {
            Owner::Declared(owner) => return self.field_type(&owner, name),
            Owner::Unknown => return None,
            Owner::Nowhere => {}
        }
        match self.java_type(name, entry) {
            Resolved::Project(class) => Some(Value::Static(class)),
            Resolved::Outside | Resolved::Unknown => None,
        }
    }

    /// The class whose members a step reads through a value.
    fn class_of(&self, value: Value<'_>) -> Option<ClassOrSuper> {
        match value {
            Value::Of(class) | Value::Static(class) => Some(ClassOrSuper::Class(class)),
            Value::Super(class) => Some(ClassOrSuper::Super(class)),
            Value::Written(t, file) => match self.java_type(&t, file) {
                Resolved::Project(class) => Some(ClassOrSuper::Class(class)),
                Resolved::Outside | Resolved::Unknown => None,
            },
        }
    }

    fn owner_from(&self, class: &ClassOrSuper, name: &str, member: Member) -> Owner {
        match class {
            ClassOrSuper::Class(class) => self.owner(class, name, member, 0),
            ClassOrSuper::Super(class) => self.super_owner(class, name, member, 0),
        }
    }

    /// The declared type of the field `name` of `owner` (which declares
    /// it).
    fn field_type<'e>(&self, owner: &Class, name: &str) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        let (file, _) = self.class_file(owner)?;
        let mut fields = file.file().declared.iter().filter(|d| {
            d.kind == DeclaredKind::Value
                && d.name == name
                && d.owner.as_deref() == Some(owner.name.as_str())
        });
        match (fields.next(), fields.next()) {
            (Some(d), None) => Some(Value::Written(d.type_text.to_string(), file)),
            _ => None,
        }
    }

    /// What a call of the method `name` of `owner` (which declares it)
    /// with `arity` arguments makes: the declared result of its one
    /// method of the name, or of its one method of that many parameters
    /// (none taking any number); `None` when a supertype declares the
    /// name too (an overload the call may pick) or the result is `void`.
    fn call_result<'e>(&self, owner: &Class, name: &str, arity: usize) -> Option<Value<'e>>
    where
        'a: 'e,
    {
        let (file, _) = self.class_file(owner)?;
        let result = result_of(&methods_of(file, owner, name), arity)?;
        if result.is_empty() {
            return None;
        }
        // a supertype's method of the name: an override of the same
        // result, or overloads of other numbers of parameters (one from
        // outside the project is not followed)
        if let Owner::Declared(up) = self.super_owner(owner, name, Member::Method, 0) {
            let (up_file, _) = self.class_file(&up)?;
            let up_methods = methods_of(up_file, &up, name);
            let same = result_of(&up_methods, arity) == Some(result);
            let other_arities = up_methods
                .iter()
                .all(|(_, n, varargs)| !varargs && usize::from(*n) != arity);
            if !same && !other_arities {
                return None;
            }
        }
        Some(Value::Written(result.to_string(), file))
    }

    /// The element type of an array (`T[]`) or of a `java.util`
    /// collection of one type argument (`List<T>`), as written in `file`;
    /// `None` for a raw type, a wildcard, another type.
    fn element(&self, written: &str, file: &TagsEntry) -> Option<String> {
        let t = written.trim();
        if let Some(element) = t.strip_suffix("[]") {
            return Some(element.trim().to_string());
        }
        let (base, arguments) = t.split_once('<')?;
        let argument = arguments.strip_suffix('>')?.trim();
        let simple = base.trim().rsplit('.').next().unwrap_or(base);
        let one = !argument.contains([',', '?', '<']) && !argument.is_empty();
        (one && COLLECTIONS.contains(&simple) && self.is_java_util(base.trim(), file))
            .then(|| argument.to_string())
    }

    /// What a value of a standard container holds, where its type is
    /// written with type arguments the index reads ([`Holds`]): a
    /// `java.util` collection's element, a map's key and value, an
    /// `Optional`'s value, a `java.util.stream.Stream`'s element.
    fn standard_holds<'e>(&self, value: &Value<'e>) -> Option<(Holds, &'e TagsEntry)> {
        let Value::Written(t, file) = value else {
            return None;
        };
        let t = t.trim();
        let (base, arguments) = t.split_once('<')?;
        let arguments: Vec<&str> = arguments
            .strip_suffix('>')?
            .split(',')
            .map(str::trim)
            .collect();
        let plain = |a: &&str| !a.is_empty() && !a.contains(['?', '<', '>']);
        if !arguments.iter().all(plain) {
            return None;
        }
        let base = base.trim();
        let simple = base.rsplit('.').next().unwrap_or(base);
        let holds = match arguments[..] {
            [element] if COLLECTIONS.contains(&simple) && self.is_java_util(base, file) => {
                Holds::Collection(element.to_string())
            }
            [value] if simple == "Optional" && self.is_java_util(base, file) => {
                Holds::Optional(value.to_string())
            }
            [element] if simple == "Stream" && self.is_java_stream(base, file) => {
                Holds::Stream(element.to_string())
            }
            [key, value] if MAPS.contains(&simple) && self.is_java_util(base, file) => {
                Holds::Map(key.to_string(), value.to_string())
            }
            _ => return None,
        };
        Some((holds, file))
    }

    /// Whether a type written in `file` is `java.util.stream.Stream`: no
    /// project class of its name, and the file imports it from there (or
    /// spells it so).
    fn is_java_stream(&self, written: &str, file: &TagsEntry) -> bool {
        if written == "java.util.stream.Stream" {
            return true;
        }
        if written != "Stream" || self.project_declares_class(written) {
            return false;
        }
        let imports = &file.file().imports;
        let single = imports.iter().find(|i| {
            i.kind == ImportKind::Static && i.imported == Imported::Name(written.to_string())
        });
        match single {
            Some(import) => import.source == "java.util.stream",
            None => imports.iter().any(|i| {
                i.kind == ImportKind::Static
                    && i.imported == Imported::All
                    && i.source == "java.util.stream"
            }),
        }
    }

    /// Whether a type written in `file` is `java.util`'s (or
    /// `java.lang.Iterable`): no project class of its name, and the file
    /// imports it from `java.util` (or spells it so).
    fn is_java_util(&self, written: &str, file: &TagsEntry) -> bool {
        if let Some(package) = written.strip_suffix(written.rsplit('.').next().unwrap_or("")) {
            if !package.is_empty() {
                return matches!(package, "java.util." | "java.lang.");
            }
        }
        if self.project_declares_class(written) {
            return false;
        }
        if written == "Iterable" {
            return true;
        }
        let imports = &file.file().imports;
        let single = imports.iter().find(|i| {
            i.kind == ImportKind::Static && i.imported == Imported::Name(written.to_string())
        });
        match single {
            Some(import) => import.source == "java.util",
            None => imports.iter().any(|i| {
                i.kind == ImportKind::Static
                    && i.imported == Imported::All
                    && i.source == "java.util"
            }),
        }
    }

    /// What a type written in `file` names (`Item`, `a.b.Item`,
    /// `List<Item>`: its class, not its arguments).
    fn java_type(&self, written: &str, file: &TagsEntry) -> Resolved {
        let t = written.trim();
        if t.ends_with(']') {
            return Resolved::Outside;
        }
        let base = t.split('<').next().unwrap_or(t).trim();
        if base.is_empty()
            || !base
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_$.".contains(&b))
        {
            return Resolved::Unknown;
        }
        let scan = file.file();
        let package = self.module(file);
        let in_package = |package: &str, name: &str| {
            let class = Class {
                package: package.to_string(),
                name: name.to_string(),
            };
            self.class_file(&class).map(|_| class)
        };
        // a class nested in another (`Outer.Inner`, `import
        // p.Outer.Inner;`): the package's class of its name (when it has
        // one), declared in the outer one
        let nested = |outer: Option<Class>, name: &str| -> Option<Class> {
            let outer = outer?;
            let (outer_entry, outer_def) = self.class_file(&outer)?;
            let class = Class {
                package: outer.package.clone(),
                name: name.to_string(),
            };
            let (entry, def) = self.class_file(&class)?;
            let inside =
                outer_def.span.start < def.span.start && def.span.end <= outer_def.span.end;
            (std::ptr::eq(entry, outer_entry) && inside).then_some(class)
        };
        let found = match base.rsplit_once('.') {
            Some((prefix, name)) => in_package(prefix, name).or_else(|| {
                let outer = match self.java_type(prefix, file) {
                    Resolved::Project(outer) => Some(outer),
                    _ => None,
                };
                nested(outer, name)
            }),
            None if scan
                .declared
                .iter()
                .any(|d| d.kind == DeclaredKind::TypeParameter && d.name == base) =>
            {
                return Resolved::Unknown
            }
            None if scan
                .defs
                .iter()
                .any(|d| d.kind == SymbolKind::Class && d.name == base) =>
            {
                in_package(&package, base)
            }
            None => {
                let single = scan.imports.iter().find(|i| {
                    i.kind == ImportKind::Static && i.imported == Imported::Name(base.to_string())
                });
                match single {
                    Some(import) => in_package(&import.source, base).or_else(|| {
                        let (package, outer) = import.source.rsplit_once('.')?;
                        nested(in_package(package, outer), base)
                    }),
                    None => in_package(&package, base).or_else(|| {
                        let mut every = scan.imports.iter().filter(|i| {
                            i.kind == ImportKind::Static && i.imported == Imported::All
                        });
                        every.find_map(|i| in_package(&i.source, base))
                    }),
                }
            }
        };
        match found {
            Some(class) => Resolved::Project(class),
            // a nested class (of a supertype, of an outer class): one the
            // rules above do not follow
            None if self.project_nests_class(base.rsplit('.').next().unwrap_or(base)) => {
                Resolved::Unknown
            }
            None => Resolved::Outside,
        }
    }

    /// Whether a file of the project declares a class `name` (at any
    /// level).
    fn project_declares_class(&self, name: &str) -> bool {
        self.project_class(name, |_| true)
    }

    /// Whether a file of the project declares a class `name` inside
    /// another (or in a method's body).
    fn project_nests_class(&self, name: &str) -> bool {
        self.project_class(name, |d| !d.top_level)
    }

    fn project_class(&self, name: &str, which: impl Fn(&TagDef) -> bool) -> bool {
        self.read_declarations.set(true);
        self.files_with(&[name], false).iter().any(|e| {
            e.file()
                .defs
                .iter()
                .any(|d| d.kind == SymbolKind::Class && d.name == name && which(d))
        })
    }

    /// The one file of `class`'s package that declares it, and its
    /// definition there; `None`: none, or several (a nested class of the
    /// name beside another).
    fn class_file(&self, class: &Class) -> Option<(&'a TagsEntry, &'a TagDef)> {
        self.read_declarations.set(true);
        let key = (class.package.clone(), class.name.clone());
        if let Some(known) = self.java_classes.borrow().get(&key) {
            return known.map(|(e, i)| (e, &e.file().defs[i]));
        }
        let mut found = None;
        let mut twice = false;
        for e in self.files_with(&[class.name.as_str()], false) {
            if self.module(e) != class.package {
                continue;
            }
            for (i, d) in e.file().defs.iter().enumerate() {
                if d.kind == SymbolKind::Class && d.name == class.name {
                    twice |= found.is_some();
                    found = Some((&**e, i));
                }
            }
        }
        let found = found.filter(|_| !twice);
        self.java_classes.borrow_mut().insert(key, found);
        found.map(|(e, i)| (e, &e.file().defs[i]))
    }

    /// The class around `offset` that `this` is: `None` in an anonymous
    /// class's body.
    fn class_around(&self, entry: &TagsEntry, offset: usize) -> Option<Class> {
        let file = entry.file();
        let class = file
            .defs
            .iter()
            .filter(|d| d.kind == SymbolKind::Class && d.span.contains(&offset))
            .min_by_key(|d| d.span.end - d.span.start)?;
        let anonymous = anonymous_around(file, offset);
        if anonymous.is_some_and(|a| a < class.span.end - class.span.start) {
            return None;
        }
        Some(Class {
            package: self.module(entry),
            name: class.name.clone(),
        })
    }

    /// Where a bare `name` at `offset` is a member: the first class
    /// around it, innermost first, that reaches a member of the name.
    fn implicit_owner(
        &self,
        entry: &TagsEntry,
        offset: usize,
        name: &str,
        member: Member,
    ) -> Owner {
        let file = entry.file();
        let mut classes: Vec<&TagDef> = file
            .defs
            .iter()
            .filter(|d| d.kind == SymbolKind::Class && d.span.contains(&offset))
            .collect();
        classes.sort_by_key(|d| d.span.end - d.span.start);
        let anonymous = anonymous_around(file, offset);
        for class in classes {
            if anonymous.is_some_and(|a| a < class.span.end - class.span.start) {
                return Owner::Unknown;
            }
            let class = Class {
                package: self.module(entry),
                name: class.name.clone(),
            };
            match self.owner(&class, name, member, 0) {
                Owner::Nowhere => continue,
                found => return found,
            }
        }
        match anonymous {
            Some(_) => Owner::Unknown,
            None => Owner::Nowhere,
        }
    }

    /// Where `class` finds a member `name`: itself, else its superclass,
    /// else its interfaces (when one owner is found and no supertype is
    /// unknown).
    fn owner(&self, class: &Class, name: &str, member: Member, depth: usize) -> Owner {
        if depth > MAX_DEPTH {
            return Owner::Unknown;
        }
        let Some((entry, def)) = self.class_file(class) else {
            return Owner::Unknown;
        };
        let file = entry.file();
        let declares = match member {
            // (a member class too: a bare `new CData()` in a nested class
            // reads the outer class's `CData` as Java scopes it)
            Member::Any => file.defs.iter().any(|d| {
                d.name == name
                    && d.container.as_deref() == Some(class.name.as_str())
                    && d.kind != SymbolKind::Local
                    && def.span.contains(&d.span.start)
                    && !super::java_constructor(file, d, def)
            }),
            Member::Field | Member::Method => file.declared.iter().any(|d| {
                d.name == name
                    && d.owner.as_deref() == Some(class.name.as_str())
                    && match member {
                        Member::Field => d.kind == DeclaredKind::Value,
                        _ => matches!(d.kind, DeclaredKind::Method { .. }),
                    }
            }),
        };
        if declares {
            return Owner::Declared(class.clone());
        }
        self.super_owner(class, name, member, depth)
    }

    /// Where `class`'s supertypes find a member `name` (what `super.name`
    /// reads).
    fn super_owner(&self, class: &Class, name: &str, member: Member, depth: usize) -> Owner {
        let Some((entry, def)) = self.class_file(class) else {
            return Owner::Unknown;
        };
        let file = entry.file();
        let mut supertypes: Vec<(DeclaredKind, &str)> = file
            .declared
            .iter()
            .filter(|d| d.owner.as_deref() == Some(class.name.as_str()))
            .filter(|d| matches!(d.kind, DeclaredKind::Extends | DeclaredKind::Implements))
            .map(|d| (d.kind, &*d.type_text))
            .collect();
        // a class declared in a method's body (its supertypes are not read)
        let inherits = file
            .inheriting
            .iter()
            .any(|b| b.end == def.span.end && def.span.start < b.start);
        if supertypes.is_empty() && inherits {
            return Owner::Unknown;
        }
        // the superclass first: what it reaches hides the interfaces'
        supertypes.sort_by_key(|(kind, _)| *kind != DeclaredKind::Extends);
        let mut found: Option<Class> = None;
        for (kind, written) in supertypes {
            let owner = match self.java_type(written, entry) {
                Resolved::Project(parent) => self.owner(&parent, name, member, depth + 1),
                Resolved::Outside | Resolved::Unknown => Owner::Unknown,
            };
            match (owner, kind) {
                (Owner::Nowhere, _) => {}
                (Owner::Declared(o), DeclaredKind::Extends) => return Owner::Declared(o),
                (Owner::Declared(o), _) if found.as_ref().is_none_or(|f| *f == o) => {
                    found = Some(o)
                }
                _ => return Owner::Unknown,
            }
        }
        match found {
            Some(o) => Owner::Declared(o),
            None => Owner::Nowhere,
        }
    }
}

/// The methods `name` of `owner` declared in `file`: each one's result
/// as written, its number of parameters, whether it takes any number.
fn methods_of<'f>(file: &'f TagsEntry, owner: &Class, name: &str) -> Vec<(&'f str, u8, bool)> {
    file.file()
        .declared
        .iter()
        .filter(|d| d.name == name && d.owner.as_deref() == Some(owner.name.as_str()))
        .filter_map(|d| match d.kind {
            DeclaredKind::Method { arity, varargs } => Some((&*d.type_text, arity, varargs)),
            _ => None,
        })
        .collect()
}

/// The result of a call with `arity` arguments among `methods` (one
/// name's): the one method's that may take it.
fn result_of<'f>(methods: &[(&'f str, u8, bool)], arity: usize) -> Option<&'f str> {
    let overloads = methods.iter().map(|&(_, n, varargs)| (n, varargs));
    sole_overload_taking(overloads, arity).map(|i| methods[i].0)
}

/// Whether a typed name is a field's (its scope is a class's body).
fn is_field(file: &TagsFile, typed: &Typed) -> bool {
    file.defs.iter().any(|d| {
        d.kind == SymbolKind::Class
            && d.span.end == typed.scope.end
            && d.span.start < typed.scope.start
    })
}

/// A class, or the supertypes of one (`super`).
enum ClassOrSuper {
    Class(Class),
    Super(Class),
}

fn owner_verdict(owner: Owner, aliases: &HashSet<(ModuleKey, String)>) -> Verdict {
    match owner {
        Owner::Declared(class) => certain_if(aliases.contains(&(class.package, class.name))),
        Owner::Nowhere => Verdict::Other,
        Owner::Unknown => Verdict::Possible,
    }
}

/// The size of the innermost anonymous class's body around `offset`
/// (an inheriting body no declared class ends with).
fn anonymous_around(file: &TagsFile, offset: usize) -> Option<usize> {
    file.inheriting
        .iter()
        .filter(|b| b.contains(&offset))
        .filter(|b| {
            !file.defs.iter().any(|d| {
                d.kind == SymbolKind::Class && d.span.end == b.end && d.span.start < b.start
            })
        })
        .map(|b| b.end - b.start)
        .min()
}

/// One step of a compact expression.
enum Step<'x> {
    Field(&'x str),
    /// A call of a member with its number of arguments.
    Call(&'x str, usize),
    Element,
    /// The `index`th parameter of a lambda given first to a method
    /// (`.forEach(|0|)`).
    Lambda(&'x str, usize),
}

/// A compact expression's root and its steps.
fn split_root(expression: &str) -> Option<(&str, &str)> {
    let end = match expression.starts_with('(') || expression.starts_with("new(") {
        // (a type may hold `[]`, never a parenthesis)
        true => expression.find(')')? + 1,
        false => match expression.find(['.', '(', '[']) {
            Some(i) if expression[i..].starts_with('(') => i + expression[i..].find(')')? + 1,
            Some(i) => i,
            None => expression.len(),
        },
    };
    Some(expression.split_at(end)).filter(|(root, _)| !root.is_empty())
}

/// A bare call's name and number of arguments (`m(2)`).
fn call_of(root: &str) -> Option<(&str, usize)> {
    let (name, arity) = root.strip_suffix(')')?.split_once('(')?;
    Some((name, arity.parse().ok()?))
}

/// The first step of a compact expression's steps, and the rest.
fn next_step(steps: &str) -> Option<(Step<'_>, &str)> {
    if let Some(rest) = steps.strip_prefix("[]") {
        return Some((Step::Element, rest));
    }
    let rest = steps.strip_prefix('.')?;
    let end = rest.find(['.', '(', '[']).unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    if let Some(lambda) = after.strip_prefix("(|") {
        let (index, rest) = lambda.split_once("|)")?;
        return Some((Step::Lambda(name, index.parse().ok()?), rest));
    }
    match after.strip_prefix('(') {
        Some(call) => {
            let close = call.find(')')?;
            Some((
                Step::Call(name, call[..close].parse().ok()?),
                &call[close + 1..],
            ))
        }
        None => Some((Step::Field(name), after)),
    }
}

/// The `java.util` maps whose `forEach` gives a key and a value.
const MAPS: &[&str] = &[
    "Map",
    "SortedMap",
    "NavigableMap",
    "HashMap",
    "LinkedHashMap",
    "TreeMap",
];

/// What a standard container holds, as written in its type's arguments.
enum Holds {
    /// A `java.util` collection's element (`List<Foo>`).
    Collection(String),
    /// A map's key and value.
    Map(String, String),
    Optional(String),
    /// A `java.util.stream.Stream`'s element.
    Stream(String),
}

/// What a call of the standard method `name` with `arity` arguments of a
/// container makes, where the index reads it: a collection's `stream()`,
/// a stream's `filter`, `sorted`, `distinct`, `limit`, `skip` and `peek`
/// (a stream of the same elements). `None`: another method.
fn stream_made(holds: &Holds, name: &str, arity: usize) -> Option<String> {
    let stream = |element: &str| format!("java.util.stream.Stream<{element}>");
    match (holds, name, arity) {
        (Holds::Collection(element), "stream", 0) => Some(stream(element)),
        (Holds::Stream(element), "filter" | "limit" | "skip" | "peek", 1)
        | (Holds::Stream(element), "sorted", 0 | 1)
        | (Holds::Stream(element), "distinct", 0) => Some(stream(element)),
        _ => None,
    }
}

/// What the `index`th parameter of a lambda given first to the standard
/// method `name` of a container is: a collection's element (`forEach`,
/// `removeIf`), a stream's (`map`, `filter`, `forEach`, `anyMatch`, …;
/// both of `sorted`'s, `max`'s and `min`'s comparator), an `Optional`'s
/// value (`ifPresent`, `map`, `filter`, …), a map's key and value
/// (`forEach((k, v) -> …)`, `replaceAll`).
fn lambda_parameter(holds: &Holds, name: &str, index: usize) -> Option<String> {
    let element = match (holds, name, index) {
        (Holds::Collection(element), "forEach" | "removeIf", 0) => element,
        (
            Holds::Stream(element),
            "map" | "filter" | "forEach" | "forEachOrdered" | "anyMatch" | "allMatch" | "noneMatch"
            | "peek" | "flatMap" | "mapToInt" | "mapToLong" | "mapToDouble" | "takeWhile"
            | "dropWhile",
            0,
        ) => element,
        (Holds::Stream(element), "sorted" | "max" | "min", 0 | 1) => element,
        (
            Holds::Optional(value),
            "ifPresent" | "ifPresentOrElse" | "map" | "filter" | "flatMap",
            0,
        ) => value,
        (Holds::Map(key, _), "forEach" | "replaceAll", 0) => key,
        (Holds::Map(_, value), "forEach" | "replaceAll", 1) => value,
        _ => return None,
    };
    Some(element.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_expressions_split_into_steps() {
        assert_eq!(
            split_root("a.getB(1).items[]"),
            Some(("a", ".getB(1).items[]"))
        );
        assert_eq!(split_root("get(0).x"), Some(("get(0)", ".x")));
        assert_eq!(split_root("(a.b.T[]).x"), Some(("(a.b.T[])", ".x")));
        assert_eq!(split_root("new(Box<>)"), Some(("new(Box<>)", "")));
        assert_eq!(call_of("get(2)"), Some(("get", 2)));
        let mut steps = Vec::new();
        let mut rest = ".getB(1).items[].size(0).forEach(|1|)";
        while let Some((step, after)) = next_step(rest) {
            steps.push(match step {
                Step::Field(f) => f.to_string(),
                Step::Call(m, n) => format!("{m}/{n}"),
                Step::Element => "[]".to_string(),
                Step::Lambda(m, i) => format!("{m}|{i}"),
            });
            rest = after;
        }
        assert_eq!(steps, ["getB/1", "items", "[]", "size/0", "forEach|1"]);
        assert!(rest.is_empty());
    }
}
