"""The object model: code elements as the engine's query found them.

Each element is data captured when it was found (``name``, ``line``,
``complexity``, ``params``, a class's ``methods``, …): reading an attribute
asks nothing (in process, the fields stay in Rust until one is read). Relations (``callers()``, ``references()``,
``subclasses()``) are queries, and edits (``Call.replace``,
``Import.remove``, ``File.add_import``, ``File.add_line``) are statements
of the scripting language — run at once, or collected by the transaction
or changeset they are made in.

An edit names its element by what was read of it (file, line, name,
text); the engine finds it again before it changes anything, and an edit
whose element is no longer there is refused (:class:`~eddi.errors.Conflict`),
never dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from . import _script
from .errors import EddiError, Refused

if TYPE_CHECKING:
    from ._backend import Row
    from .workspace import Workspace, _Batch, _Found

    #: where an element was read: the transaction's batch (or None) and
    #: how many of its statements were pending then
    ReadAt = Tuple[Optional[_Batch], int]


class Reply:
    """The answer to ``ws.run(text)``: ``ok``, ``text`` (the terse lines)
    and ``data`` (the last command's reply as JSON; ``replies`` all of them)."""

    def __init__(self, ok: bool, text: str, replies: List[Dict[str, Any]]) -> None:
        self.ok = ok
        self.text = text
        self.replies = replies
        self.data: Dict[str, Any] = replies[-1] if replies else {}

    def __repr__(self) -> str:
        return f"Reply(ok={self.ok!r}, text={self.text!r})"

    def __bool__(self) -> bool:
        return self.ok


class Location:
    """A place in the workspace: ``path``, ``line`` (1-based), ``col``
    (0-based), and whether the index proves it (``certain``)."""

    def __init__(self, path: str, line: int, col: int, certain: bool = True,
                 context: Optional[str] = None) -> None:
        self.path = path
        self.line = line
        self.col = col
        self.certain = certain
        self.context = context

    def __repr__(self) -> str:
        return f"Location({self.path}:{self.line}:{self.col})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Location) and (self.path, self.line, self.col) == (
            other.path, other.line, other.col)

    def __hash__(self) -> int:
        return hash((self.path, self.line, self.col))


class Element:
    """What every element has: ``name``, ``qualname``, ``path``
    (workspace-relative), ``line`` and ``end_line`` (1-based), ``col``,
    ``source`` (its text when found).

    An element's attributes are read from the fields its query found
    (``_data``: the dict of the ``select`` tool's JSON, or in process a
    ``_eddi.Row`` that makes a field a Python value when it is read): a
    walk of a project reads two or three of each element's."""

    kind = "element"
    #: its public attributes (``eddi.aio`` copies them)
    _ATTRIBUTES: Tuple[str, ...] = ("name", "qualname", "path", "line", "end_line", "col")
    _source: Optional[str] = None

    def __init__(self, ws: "Workspace", data: "Row", read_at: "ReadAt" = (None, 0)) -> None:
        self._ws = ws
        self._data = data
        self._read_at = read_at

    @property
    def name(self) -> str:
        return str(self._data["name"])

    @property
    def qualname(self) -> str:
        return str(self._data["qualified_name"])

    @property
    def path(self) -> str:
        return str(self._data["path"])

    @property
    def line(self) -> int:
        return int(self._data["line"])

    @property
    def end_line(self) -> int:
        return int(self._data["end_line"])

    @property
    def col(self) -> int:
        return int(self._data["col"])

    @property
    def source(self) -> str:
        """Its text (a definition's from its keyword). A query of many
        elements leaves it out; it is then asked on first read, and raises
        :class:`~eddi.errors.Conflict` if its file changed since."""
        if self._source is None:
            text = self._data.get("text")
            self._source = text if isinstance(text, str) else self._ws._source_of(self)
        return self._source

    @property
    def location(self) -> Location:
        return Location(self.path, self.line, self.col)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.qualname} at {self.path}:{self.line}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Element)
            and type(self) is type(other)
            and (self.path, self.line, self.col, self.qualname)
            == (other.path, other.line, other.col, other.qualname)
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.path, self.line, self.col, self.qualname))

    # -- how a statement finds it again ------------------------------------

    def _selector(self) -> str:
        raise NotImplementedError


class _Definition(Element):
    """A function, method or class.

    The element classes call their base's ``__init__`` by name, not
    through ``super()``: a walk makes thousands, and each ``super()`` is an
    object the cycle collector counts."""

    _ATTRIBUTES = Element._ATTRIBUTES + ("complexity", "line_count", "decorators", "full_name", "language")

    def __init__(self, ws: "Workspace", data: "Row", read_at: "ReadAt" = (None, 0),
                 found: "Optional[_Found]" = None) -> None:
        Element.__init__(self, ws, data, read_at)
        #: the query that found it (its callers are asked with its others')
        self._found = found

    @property
    def complexity(self) -> int:
        return int(self._data["complexity"])

    @property
    def line_count(self) -> int:
        return int(self._data["line_count"])

    @property
    def decorators(self) -> List[str]:
        return list(self._data["decorators"])

    @property
    def full_name(self) -> str:
        """The name the index knows it by: ``pkg.mod.Class.method``."""
        return str(self._data["indexed_name"])

    @property
    def language(self) -> str:
        """The language of its file (``python``, ``javascript``, …)."""
        return str(self._data["language"])

    def callers(self) -> List["Call"]:
        """The calls the index proves are of this function (not of a
        same-named method), or of this class (its instantiations); refused,
        naming them, when some cannot be proven. The first ``callers()`` of
        an element asks those of every function and class its query found
        that its index answers for (Python's, or the brace languages'), in
        one request; they are kept until this Workspace writes (another
        writer's edits show in a new query)."""
        # one frame between the caller and a refusal: a walk raises
        # thousands, and each frame an exception passes is built as an object
        python = self._data["language"] == "python"
        calls = self._ws._callers_or_failure(self._data["indexed_name"], self._found, python)
        if isinstance(calls, EddiError):
            try:
                raise calls
            finally:
                # no cycle frame -> exception -> traceback -> frame: it
                # would keep this walk's elements alive until a full
                # collection
                del calls
        return calls

    def references(self) -> List[Location]:
        """Every use the index finds (certain ones first), and the import lines."""
        return self._ws._references(self.full_name)

    def _python_only(self, what: str) -> None:
        """A relation only Python's index answers: of another language's
        definition it is refused (never another definition's of the same
        name)."""
        if self.language != "python":
            raise Refused(
                "not_applicable",
                f"{self.path}:{self.line}: {what} asks Python's index; {self.qualname} is {self.language} "
                f"code: its callers() and references() are the brace languages' index's",
            )

    def _selector(self) -> str:
        word = "class" if isinstance(self, Class) else "function"
        return (
            f"{word} {_script.word(self.qualname, 'name')}"
            + _script.where(f"{word}.file == {_script.quote(self.path)}", f"{word}.line == {self.line}")
        )


class Function(_Definition):
    """A function or a method: ``params`` (names as written, ``self``
    included), ``decorators``, ``complexity`` (radon's), ``line_count``,
    ``class_name`` (a method's class, else None); ``callers()`` the calls
    the index proves are of it."""

    kind = "function"
    _ATTRIBUTES = _Definition._ATTRIBUTES + ("params", "class_name")

    @property
    def params(self) -> List[str]:
        return list(self._data["params"])

    @property
    def class_name(self) -> Optional[str]:
        name = self._data.get("class")
        return None if name is None else str(name)

    @property
    def is_method(self) -> bool:
        return self.class_name is not None


class Class(_Definition):
    """A class: ``methods`` (in source order), ``bases`` (as written);
    ``callers()`` its instantiations, as the index proves them."""

    kind = "class"
    _ATTRIBUTES = _Definition._ATTRIBUTES + ("bases", "methods")
    _methods: Optional[List[Function]] = None

    @property
    def bases(self) -> List[str]:
        return list(self._data["bases"])

    @property
    def methods(self) -> List[Function]:
        if self._methods is None:
            self._methods = [Function(self._ws, m, self._read_at, self._found)
                             for m in self._data.get("methods") or []]
        return self._methods

    def method(self, name: str) -> Function:
        """The method ``name``; NotFound with the methods as candidates."""
        for m in self.methods:
            if m.name == name:
                return m
        from .errors import NotFound
        raise NotFound("not_found", f"class {self.qualname} has no method '{name}'",
                       [m.name for m in self.methods])

    def subclasses(self) -> List["Class"]:
        """The classes deriving from it, transitively, through aliases."""
        self._python_only("subclasses()")
        return self._ws._subclasses(self.full_name)


class Variable(Element):
    """A module-level variable."""

    kind = "variable"

    def references(self) -> List[Location]:
        module = self._ws._module_name(self.path)
        return self._ws._references(f"{module}.{self.name}" if module else self.name)

    def _selector(self) -> str:
        return "symbol of type variable" + _script.where(
            f"symbol.file == {_script.quote(self.path)}", f"symbol.line == {self.line}")


class Import(Element):
    """One name an import binds: ``name`` (the bound name), ``module``,
    ``names`` (all its statement imports), ``unused``."""

    kind = "import"
    _ATTRIBUTES = Element._ATTRIBUTES + ("module", "names", "unused")

    @property
    def module(self) -> str:
        return str(self._data["module"])

    @property
    def names(self) -> List[str]:
        return list(self._data["names"])

    @property
    def unused(self) -> bool:
        return bool(self._data["unused"])

    def remove(self) -> None:
        """Removes this name from its import (the statement when it is the only one)."""
        self._ws._edit(self, "remove import")

    def _selector(self) -> str:
        return "import" + _script.where(
            f"import.file == {_script.quote(self.path)}",
            f"import.line == {self.line}",
            f"import.name == {_script.quote(self.name)}",
        )


class File(Element):
    """A Python file: ``imports``, ``line_count``, ``complexity`` (its most
    complex block's)."""

    kind = "file"
    _ATTRIBUTES = Element._ATTRIBUTES + ("line_count", "complexity", "imports")
    _imports: Optional[List[Import]] = None

    @property
    def line_count(self) -> int:
        return int(self._data["line_count"])

    @property
    def complexity(self) -> int:
        return int(self._data["complexity"])

    @property
    def imports(self) -> List[Import]:
        if self._imports is None:
            self._imports = [Import(self._ws, i, self._read_at) for i in self._data.get("imports") or []]
        return self._imports

    def add_import(self, name: str) -> None:
        """Imports ``name`` (``logging``, or ``from x import y`` as written),
        merged with the file's imports, never twice."""
        what = name if _script.is_word(name) else _script.quote(name)
        self._ws._edit(self, f"add import {what}")

    def add_line(self, text: str) -> None:
        """Adds a line after the file's imports."""
        self._ws._edit(self, f"add line {_script.quote(text)}")

    def functions(self, where: Optional[str] = None) -> List[Function]:
        return self._ws.functions(where=where, path=self.path)

    def classes(self, where: Optional[str] = None) -> List[Class]:
        return self._ws.classes(where=where, path=self.path)

    def _selector(self) -> str:
        return f"file matching {_script.quote(_script.glob_of(self.path))}" + _script.where(
            f"file.path == {_script.quote(self.path)}")


#: A module is a file named by its dotted name (``ws.symbol("pkg.mod")``).
Module = File


class Call(Element):
    """A call site: ``text`` (as written), ``function`` (the callee as
    written), ``args`` (positional arguments as source text), ``keywords``
    (``name -> source text``)."""

    kind = "call"
    _ATTRIBUTES = Element._ATTRIBUTES + ("text", "function", "args", "keywords")
    _arguments: Optional[Tuple[List[str], Dict[str, str]]] = None

    def __init__(self, ws: "Workspace", data: "Row", target: str, read_at: "ReadAt" = (None, 0),
                 siblings: "Optional[Sequence[Row]]" = None) -> None:
        Element.__init__(self, ws, data, read_at)
        self._target = target
        #: the calls found with it (an edit names a call by file, line and
        #: text: it cannot tell twins apart)
        self._siblings = siblings

    @property
    def text(self) -> str:
        return str(self._data["text"])

    @property
    def function(self) -> str:
        return str(self._data["function"])

    @property
    def args(self) -> List[str]:
        return self._split()[0]

    @property
    def keywords(self) -> Dict[str, str]:
        return self._split()[1]

    def _split(self) -> Tuple[List[str], Dict[str, str]]:
        if self._arguments is None:
            self._arguments = _split_arguments(list(self._data["args"]))
        return self._arguments

    @property
    def _twins(self) -> int:
        """Calls of the same text on the same line found with it."""
        if not self._siblings:
            return 1
        me = (self.path, self.line, self.text)
        return sum(1 for s in self._siblings if (s["path"], s["line"], s["text"]) == me)

    def replace(self, text: str) -> None:
        """Replaces the whole call with ``text`` (``f(a, timeout=30)``)."""
        twins = self._twins
        if twins > 1:
            raise Refused("not_applicable",
                          f"{self.path}:{self.line} has {twins} calls '{self.text}': an edit cannot tell them apart; "
                          "change that line with ws.run (Open, Goto, Replace)")
        self._ws._edit(self, f"replace with {_script.quote(text)}")

    def _selector(self) -> str:
        return f"call to {_script.callee(self._target)}" + _script.where(
            f"call.file == {_script.quote(self.path)}",
            f"call.line == {self.line}",
            f"call.text == {_script.quote(self.text)}",
        )


def _split_arguments(arguments: List[str]) -> Tuple[List[str], Dict[str, str]]:
    positional: List[str] = []
    keywords: Dict[str, str] = {}
    for argument in arguments:
        name, sep, value = argument.partition("=")
        name = name.strip()
        if sep and name.isidentifier() and not value.startswith("="):
            keywords[name] = value.strip()
        else:
            positional.append(argument)
    return positional, keywords


def element_of(ws: "Workspace", data: "Row", target: str = "",
               found: "Optional[_Found]" = None, read_at: "ReadAt" = (None, 0),
               siblings: "Optional[Sequence[Row]]" = None) -> Element:
    """The element class for a selected element's fields; ``found``: the
    query's definitions, ``read_at``: where it was read, ``siblings``: the
    elements found with a call."""
    kind = data["kind"]
    if kind in ("function", "method"):
        return Function(ws, data, read_at, found)
    if kind == "class":
        return Class(ws, data, read_at, found)
    if kind == "file":
        return File(ws, data, read_at)
    if kind == "import":
        return Import(ws, data, read_at)
    if kind == "call":
        return Call(ws, data, target, read_at, siblings)
    return Variable(ws, data, read_at)


def attributes(element: Element) -> Dict[str, Any]:
    """An element's public attributes and their values."""
    return {name: getattr(element, name) for name in element._ATTRIBUTES}
