//! Annotations read as types: the class an annotation names (`C`,
//! `Optional[C]`, `C | None`, `"C"`, `Final[C]`), the items of a
//! collection or the values of a mapping it names, and forward references
//! written in strings.

use super::nodes::*;
use super::*;

/// What a subscripted annotation `X[…]` holds, by `X`'s last name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Subscripted {
    /// `Final[C]`, `ClassVar[C]`, `Annotated[C, …]`: a `C`.
    Wrapper,
    /// `List[C]`, `Type[C]`, `Union[…]`, `Callable[…]` and the other forms
    /// of `typing`, and the builtin containers: nothing the index follows
    /// (a `Type[C]` is the class, a `List[C]` a list).
    Typing,
    /// Any other, a generic class (`ProgressBar[V]`): an instance of it.
    Generic,
}

/// The last part of a dotted name: `typing.List` gives `List`.
pub(super) fn last_name(dotted: &str) -> &str {
    dotted.rsplit('.').next().unwrap_or(dotted).trim()
}

/// A mapping whose second type argument is its values'.
pub(super) fn is_mapping(generic: &str) -> bool {
    const MAPPINGS: &[&str] = &[
        "dict",
        "Dict",
        "Mapping",
        "MutableMapping",
        "defaultdict",
        "DefaultDict",
        "OrderedDict",
    ];
    MAPPINGS.contains(&last_name(generic))
}

/// A collection whose iteration gives its one type argument.
pub(super) fn is_collection(generic: &str) -> bool {
    const COLLECTIONS: &[&str] = &[
        "list",
        "List",
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "AbstractSet",
        "MutableSet",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Collection",
        "deque",
        "Deque",
    ];
    COLLECTIONS.contains(&last_name(generic))
}

pub(super) fn subscripted(generic: &str) -> Subscripted {
    const WRAPPERS: &[&str] = &[
        "Final",
        "ClassVar",
        "Annotated",
        "Required",
        "NotRequired",
        "ReadOnly",
    ];
    const TYPING: &[&str] = &[
        "List",
        "Dict",
        "Set",
        "FrozenSet",
        "Tuple",
        "Type",
        "Union",
        "Callable",
        "Literal",
        "Iterable",
        "Iterator",
        "Generator",
        "AsyncIterator",
        "AsyncIterable",
        "AsyncGenerator",
        "Sequence",
        "MutableSequence",
        "Mapping",
        "MutableMapping",
        "Collection",
        "Container",
        "AbstractSet",
        "MutableSet",
        "Awaitable",
        "Coroutine",
        "TypeGuard",
        "TypeIs",
        "Unpack",
        "DefaultDict",
        "OrderedDict",
        "Counter",
        "Deque",
        "ChainMap",
        "Pattern",
        "Match",
        "IO",
        "ContextManager",
        "AsyncContextManager",
        "KeysView",
        "ValuesView",
        "ItemsView",
        "list",
        "dict",
        "set",
        "frozenset",
        "tuple",
        "type",
        "deque",
        "defaultdict",
    ];
    let last = last_name(generic);
    if WRAPPERS.contains(&last) {
        Subscripted::Wrapper
    } else if TYPING.contains(&last) {
        Subscripted::Typing
    } else {
        Subscripted::Generic
    }
}

impl<'s, 't> Scanner<'s, 't> {
    /// Forward references in an annotation (`x: "User"`, `-> "pkg.m.C"`):
    /// each string that is a dotted name names what that name would, in
    /// the scope the annotation is evaluated in. Sites, as
    /// `typing.get_type_hints` would resolve them.
    pub(super) fn string_annotations(&mut self, annotation: Node<'t>, ctx: Ctx) {
        let mut stack = vec![(annotation, 0usize)];
        while let Some((node, depth)) = stack.pop() {
            if kind_name(node) == "string" {
                if let Some(content) = string_content(node) {
                    self.dotted_string(content, ctx);
                }
                continue;
            }
            if depth < 16 {
                let mut cursor = node.walk();
                for c in node.named_children(&mut cursor) {
                    stack.push((c, depth + 1));
                }
            }
        }
    }

    /// `a.b.C` written inside a string: a use of `a`, then of each attribute.
    pub(super) fn dotted_string(&mut self, content: Node<'t>, ctx: Ctx) {
        let text = self.text(content);
        if !is_dotted_name(text) {
            return;
        }
        let start = self.pos(content);
        let mut col = start.col;
        let mut value = UNKNOWN;
        for (i, part) in text.split('.').enumerate() {
            let name = self.intern(part);
            let len = part.chars().count();
            value = if i == 0 {
                self.pending_read(ctx.scope, name)
            } else {
                self.push(Value::Attr { base: value, name })
            };
            self.push_site_at(Position::new(start.line, col), len, value, ctx);
            col += len + 1;
        }
    }

    /// The value of a name or dotted name, as [`Self::expr`] computes it
    /// but recording no reference.
    pub(super) fn quiet_value(&mut self, node: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        match kind_name(node) {
            "identifier" => {
                let name = self.intern(self.text(node));
                Some(self.pending_read(ctx.scope, name))
            }
            "attribute" => {
                let base = self.quiet_value(field(node, fields().object)?, ctx)?;
                let name = self.intern(self.text(field(node, fields().attribute)?));
                Some(self.push(Value::Attr { base, name }))
            }
            _ => None,
        }
    }

    /// What an annotation says a name holds: an instance of the class it
    /// names (`C`, `m.C`, `"C"`, `Optional[C]`, `C | None`), else nothing.
    /// Built without references (the annotation's visit made them).
    pub(super) fn annotated(&mut self, ty: Node<'t>, ctx: Ctx) -> ValueId {
        if let Some(collection) = self.annotated_collection(ty, ctx) {
            return collection;
        }
        match self.annotation_class(ty, ctx, 0) {
            Some(class) => self.push(Value::Call(class)),
            None => UNKNOWN,
        }
    }

    /// A collection an annotation names, of instances of a class:
    /// `Items` for `list[C]`, `Sequence[C]`, `set[C]`, `Iterator[C]`,
    /// `"list[C]"`; `Values` for `dict[K, C]`, `Mapping[K, C]`.
    pub(super) fn annotated_collection(&mut self, ty: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let (class, mapping) = match self.collection_item_class(ty, ctx) {
            Some(class) => (class, false),
            None => (self.mapping_value_class(ty, ctx)?, true),
        };
        let item = self.push(Value::Call(class));
        Some(self.push(if mapping {
            Value::Values(item)
        } else {
            Value::Items(item)
        }))
    }

    /// The class of the values of a mapping an annotation names:
    /// `dict[str, C]`, `Mapping[str, C]`, `defaultdict[str, C]`.
    pub(super) fn mapping_value_class(&mut self, ty: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let node = annotation_expression(ty)?;
        let (generic, value) = match kind_name(node) {
            "generic_type" => {
                let parameter = node.named_child(1)?;
                if parameter.named_child_count() != 2 {
                    return None;
                }
                (node.named_child(0)?, parameter.named_child(1)?)
            }
            "subscript" => {
                let args = self.children_in(fields().subscript, node);
                let [_, value] = args.as_slice() else {
                    return None;
                };
                (field(node, fields().value)?, *value)
            }
            _ => return None,
        };
        if !is_mapping(self.text(generic)) {
            return None;
        }
        self.annotation_class(value, ctx, 1)
    }

    /// The class of the items of a collection an annotation names:
    /// `list[C]`, `Sequence[C]`, `set[C]`, `Iterator[C]`, `"list[C]"`
    /// (what iterating it gives; mappings and tuples are left out).
    pub(super) fn collection_item_class(&mut self, ty: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        let node = annotation_expression(ty)?;
        match kind_name(node) {
            "generic_type" => {
                let generic = node.named_child(0)?;
                let parameter = node.named_child(1)?;
                if !is_collection(self.text(generic)) || parameter.named_child_count() != 1 {
                    return None;
                }
                self.annotation_class(parameter.named_child(0)?, ctx, 1)
            }
            "subscript" => {
                let generic = field(node, fields().value)?;
                if !is_collection(self.text(generic)) {
                    return None;
                }
                let inner = node.child_by_field_name("subscript")?;
                if node.named_child_count() != 2 {
                    return None; // `Generator[C, None, None]` and the like
                }
                self.annotation_class(inner, ctx, 1)
            }
            "string" => {
                let content = string_content(node)?;
                let text = self.text(content).trim();
                let (generic, inner) = text.strip_suffix(']')?.split_once('[')?;
                if !is_collection(generic.trim()) || inner.contains([',', '[']) {
                    return None;
                }
                self.quiet_dotted(inner, ctx)
            }
            _ => None,
        }
    }

    pub(super) fn annotation_class(
        &mut self,
        node: Node<'t>,
        ctx: Ctx,
        depth: usize,
    ) -> Option<ValueId> {
        if depth > 4 {
            return None;
        }
        let node = unparenthesized(node);
        match kind_name(node) {
            "type" => self.annotation_class(node.named_child(0)?, ctx, depth + 1),
            // `typing.Self` in a class's methods: that class
            "identifier" | "attribute"
                if ctx.class.is_some() && {
                    let text = self.text(node);
                    text == "Self" || text.ends_with(".Self")
                } =>
            {
                ctx.class.map(|c| self.push(Value::Def(c)))
            }
            "identifier" | "attribute" => self.quiet_value(node, ctx),
            "string" => {
                let parts = self.named_children(node);
                let [_, content, _] = parts.as_slice() else {
                    return None;
                };
                if kind_name(*content) != "string_content" {
                    return None;
                }
                // the same shapes, written as text: `"Optional[C]"`, `"C | None"`
                let mut text = self.text(*content).trim();
                for _ in 0..4 {
                    let inner = text
                        .strip_prefix("Optional[")
                        .or_else(|| text.strip_prefix("typing.Optional["))
                        .and_then(|t| t.strip_suffix(']'))
                        .or_else(|| text.strip_suffix("| None"))
                        .or_else(|| text.strip_prefix("None |"));
                    match inner {
                        Some(inner) => text = inner.trim(),
                        None => break,
                    }
                }
                // `"Bar[V]"`: `Bar`; `"Final[C]"`: `C`; as above
                if let Some((generic, inner)) =
                    text.strip_suffix(']').and_then(|t| t.split_once('['))
                {
                    text = match subscripted(generic.trim()) {
                        Subscripted::Generic => generic.trim(),
                        Subscripted::Wrapper => inner.split(',').next().unwrap_or_default().trim(),
                        Subscripted::Typing => return None,
                    };
                }
                self.quiet_dotted(text, ctx)
            }
            // `Optional[C]`
            "generic_type" => {
                let generic = node.named_child(0)?;
                let parameter = node.named_child(1)?;
                if self.text(generic) != "Optional" {
                    return match subscripted(self.text(generic)) {
                        Subscripted::Wrapper => {
                            self.annotation_class(parameter.named_child(0)?, ctx, depth + 1)
                        }
                        Subscripted::Generic => self.annotation_class(generic, ctx, depth + 1),
                        Subscripted::Typing => None,
                    };
                }
                if parameter.named_child_count() != 1 {
                    return None;
                }
                self.annotation_class(parameter.named_child(0)?, ctx, depth + 1)
            }
            // `typing.Optional[C]`
            "subscript" => {
                let generic = field(node, fields().value)?;
                let text = self.text(generic);
                if !(text == "Optional" || text.ends_with(".Optional")) {
                    // `typing.Final[C]`, `pkg.Bar[V]`: as above
                    return match subscripted(text) {
                        Subscripted::Wrapper => {
                            let inner = node.child_by_field_name("subscript")?;
                            self.annotation_class(inner, ctx, depth + 1)
                        }
                        Subscripted::Generic => self.annotation_class(generic, ctx, depth + 1),
                        Subscripted::Typing => None,
                    };
                }
                let inner = node.child_by_field_name("subscript")?;
                self.annotation_class(inner, ctx, depth + 1)
            }
            // `C | None`, `None | C`
            "binary_operator" => {
                let (left, right) = (field(node, fields().left)?, field(node, fields().right)?);
                match (kind_name(left), kind_name(right)) {
                    (_, "none") => self.annotation_class(left, ctx, depth + 1),
                    ("none", _) => self.annotation_class(right, ctx, depth + 1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The type comment of an assignment (`x = {}  # type: Dict[str, C]`,
    /// PEP 484), read as an annotation written in a string: `C`, `m.C`,
    /// `Optional[C]`, `C | None`, `List[C]` and its kin, `Dict[K, C]` and
    /// its kin. `None` without one, or for a type the index does not follow.
    pub(super) fn type_comment(&mut self, assignment: Node<'t>, ctx: Ctx) -> Option<ValueId> {
        // only spaces between the statement and a `#` on its line (most
        // assignments end with the line: one byte looked at)
        let rest = self.src.get(assignment.end_byte()..)?;
        let rest = rest.trim_start_matches([' ', '\t']);
        let comment = rest.strip_prefix('#')?;
        let line = comment.split(['\n', '\r']).next()?;
        let ty = line.trim_start().strip_prefix("type:")?;
        // `# type: C  # a note`
        let ty = ty.split('#').next()?.trim();
        if ty.starts_with("ignore") {
            return None;
        }
        self.written_type(ty, ctx, 0)
    }

    /// A type written as text (see [`Self::type_comment`]).
    fn written_type(&mut self, text: &str, ctx: Ctx, depth: usize) -> Option<ValueId> {
        if depth > 4 {
            return None;
        }
        let text = text.trim();
        if let Some(inner) = text
            .strip_suffix("| None")
            .or_else(|| text.strip_prefix("None |"))
        {
            return self.written_type(inner, ctx, depth + 1);
        }
        let Some((generic, inner)) = text.strip_suffix(']').and_then(|t| t.split_once('[')) else {
            let class = self.quiet_dotted(text, ctx)?;
            return Some(self.push(Value::Call(class)));
        };
        let generic = generic.trim();
        if last_name(generic) == "Optional" {
            return self.written_type(inner, ctx, depth + 1);
        }
        let arguments: Vec<&str> = inner.split(',').collect();
        let (class, mapping) = match arguments.as_slice() {
            [item] if is_collection(generic) => (*item, false),
            [_, value] if is_mapping(generic) => (*value, true),
            _ => return None,
        };
        if class.contains('[') {
            return None;
        }
        let class = self.quiet_dotted(class, ctx)?;
        let item = self.push(Value::Call(class));
        Some(self.push(if mapping {
            Value::Values(item)
        } else {
            Value::Items(item)
        }))
    }

    /// A dotted name written in a string (`"pkg.C"`), as [`Self::quiet_value`].
    pub(super) fn quiet_dotted(&mut self, text: &str, ctx: Ctx) -> Option<ValueId> {
        let text = text.trim();
        if !is_dotted_name(text) {
            return None;
        }
        let mut value = None;
        for part in text.split('.') {
            let name = self.intern(part);
            value = Some(match value {
                None => self.pending_read(ctx.scope, name),
                Some(base) => self.push(Value::Attr { base, name }),
            });
        }
        value
    }
}
