"""The object model: code elements as the engine's query found them.

Each element is data captured when it was found (``name``, ``line``,
``complexity``, ``params``, a class's ``methods``, …): reading an attribute
asks nothing. Relations (``callers()``, ``references()``,
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

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from . import _script
from .errors import EddiError, Refused

if TYPE_CHECKING:
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
    ``source`` (its text when found)."""

    kind = "element"

    def __init__(self, ws: "Workspace", data: Dict[str, Any], read_at: "ReadAt" = (None, 0)) -> None:
        self._ws = ws
        self._read_at = read_at
        self.name: str = data["name"]
        self.qualname: str = data["qualified_name"]
        self.path: str = data["path"]
        self.line: int = data["line"]
        self.end_line: int = data["end_line"]
        self.col: int = data["col"]
        self._source: Optional[str] = data.get("text")

    @property
    def source(self) -> str:
        """Its text (a definition's from its keyword). A query of many
        elements leaves it out; it is then asked on first read, and raises
        :class:`~eddi.errors.Conflict` if its file changed since."""
        if self._source is None:
            self._source = self._ws._source_of(self)
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

    def __init__(self, ws: "Workspace", data: Dict[str, Any], read_at: "ReadAt" = (None, 0),
                 found: "Optional[_Found]" = None) -> None:
        Element.__init__(self, ws, data, read_at)
        self.complexity: int = data["complexity"]
        self.line_count: int = data["line_count"]
        self.decorators: List[str] = data["decorators"]
        #: the name the index knows it by: ``pkg.mod.Class.method``
        self.full_name: str = data["indexed_name"]
        #: the language of its file (``python``, ``javascript``, …)
        self.language: str = data["language"]
        #: the query that found it (its callers are asked with its others')
        self._found = found

    def callers(self) -> List["Call"]:
        """The calls the index proves are of this function (not of a
        same-named method), or of this class (its instantiations); refused,
        naming them, when some cannot be proven. The first ``callers()`` of
        an element asks those of every function and class its query found,
        in one request; they are kept until this Workspace writes (another
        writer's edits show in a new query). Refused for code that is not
        Python."""
        # one frame between the caller and a refusal: a walk raises
        # thousands, and each frame an exception passes is built as an object
        if self.language != "python":
            self._python_only("callers()")
        calls = self._ws._callers_or_failure(self.full_name, self._found)
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
        self._python_only("references()")
        return self._ws._references(self.full_name)

    def _python_only(self, what: str) -> None:
        """The relations ask the project index, which proves them in
        Python code: of another language's definition they are refused
        (never another definition's of the same name)."""
        if self.language != "python":
            raise Refused(
                "not_applicable",
                f"{self.path}:{self.line}: {what} asks the project index, which proves the uses of Python "
                f"code; {self.qualname} is {self.language} code: find its uses with a query "
                f"(ws.select(\"match ...\")) or ws.run(\"Find All ...\")",
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

    def __init__(self, ws: "Workspace", data: Dict[str, Any], read_at: "ReadAt" = (None, 0),
                 found: "Optional[_Found]" = None) -> None:
        _Definition.__init__(self, ws, data, read_at, found)
        self.params: List[str] = data["params"]
        self.class_name: Optional[str] = data.get("class")

    @property
    def is_method(self) -> bool:
        return self.class_name is not None


class Class(_Definition):
    """A class: ``methods`` (in source order), ``bases`` (as written);
    ``callers()`` its instantiations, as the index proves them."""

    kind = "class"

    def __init__(self, ws: "Workspace", data: Dict[str, Any], read_at: "ReadAt" = (None, 0),
                 found: "Optional[_Found]" = None) -> None:
        _Definition.__init__(self, ws, data, read_at, found)
        self.bases: List[str] = data["bases"]
        self.methods: List[Function] = [Function(ws, m, read_at, found) for m in data.get("methods", [])]

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

    def __init__(self, ws: "Workspace", data: Dict[str, Any], read_at: "ReadAt" = (None, 0)) -> None:
        Element.__init__(self, ws, data, read_at)
        self.module: str = data["module"]
        self.names: List[str] = list(data["names"])
        self.unused: bool = data["unused"]

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

    def __init__(self, ws: "Workspace", data: Dict[str, Any], read_at: "ReadAt" = (None, 0)) -> None:
        Element.__init__(self, ws, data, read_at)
        self.line_count: int = data["line_count"]
        self.complexity: int = data["complexity"]
        self.imports: List[Import] = [Import(ws, i, read_at) for i in data.get("imports", [])]

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

    def __init__(self, ws: "Workspace", data: Dict[str, Any], target: str, read_at: "ReadAt" = (None, 0)) -> None:
        Element.__init__(self, ws, data, read_at)
        self.text: str = data["text"]
        self.function: str = data["function"]
        self.args, self.keywords = _split_arguments(data["args"])
        self._target = target
        #: calls of the same text on the same line (an edit names a call
        #: by file, line and text: it cannot tell such twins apart)
        self._twins = 1

    def replace(self, text: str) -> None:
        """Replaces the whole call with ``text`` (``f(a, timeout=30)``)."""
        if self._twins > 1:
            raise Refused("not_applicable",
                          f"{self.path}:{self.line} has {self._twins} calls '{self.text}': an edit cannot tell them apart; "
                          "change that line with ws.run (Open, Goto, Replace)")
        self._ws._edit(self, f"replace with {_script.quote(text)}")

    def _selector(self) -> str:
        return f"call to {_script.word(self._target, 'callee')}" + _script.where(
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


def element_of(ws: "Workspace", data: Dict[str, Any], target: str = "",
               found: "Optional[_Found]" = None, read_at: "ReadAt" = (None, 0)) -> Element:
    """The element class for a selected element's data; ``found``: the
    query's definitions, ``read_at``: where it was read."""
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
        return Call(ws, data, target, read_at)
    return Variable(ws, data, read_at)
