"""The same API for asyncio: ``eddi.aio.Workspace`` and ``eddi.aio.connect``.

What asks the engine is a coroutine — ``run``, ``select``, ``symbol``,
``functions``, ``classes``, ``files``, ``file``, ``refactor``, ``undo``,
``redo``, an element's ``callers()``, ``references()``, ``subclasses()``
and its edits — while an element's attributes (``name``, ``methods``,
``complexity``, ``params``, …) are plain values that came with it.

The bridge: each coroutine runs the synchronous call in the event loop's
default thread pool (``loop.run_in_executor``). The engine releases the
GIL while it works, so other coroutines and threads run meanwhile; one
sender's requests run one at a time, in the order they were made (the
engine runs a sender's messages in order), so many senders — many
``Workspace`` objects on one connection or engine — are what runs in
parallel. A transaction or changeset (``async with``) collects the edits
awaited inside it, as the synchronous one does.
"""

from __future__ import annotations

import asyncio
import functools
import os
from types import TracebackType
from typing import Any, Callable, Dict, List, Optional, Type, TypeVar, Union

from . import elements as sync_elements
from . import workspace as sync
from .elements import Location, Reply

T = TypeVar("T")


class _Bridge:
    """Runs a synchronous call in the loop's thread pool."""

    def __init__(self, ws: sync.Workspace) -> None:
        self.sync = ws
        # an attribute never asks: elements come with their source
        ws._texts = True

    async def __call__(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))

    def wrap(self, element: sync_elements.Element) -> "Element":
        kind = {
            sync_elements.Function: Function,
            sync_elements.Class: Class,
            sync_elements.File: File,
            sync_elements.Import: Import,
            sync_elements.Call: Call,
            sync_elements.Variable: Variable,
        }.get(type(element), Element)
        return kind(self, element)


class Element:
    """An element's data (as ``eddi.Element``); see the module doc."""

    kind = "element"
    name: str
    qualname: str
    path: str
    line: int
    end_line: int
    col: int
    source: str

    def __init__(self, bridge: _Bridge, element: sync_elements.Element) -> None:
        self._bridge = bridge
        self._sync = element
        self.kind = element.kind
        for key, value in sync_elements.attributes(element).items():
            setattr(self, key, value)
        self.source = element.source

    @property
    def location(self) -> Location:
        return self._sync.location

    def __repr__(self) -> str:
        return f"<aio.{type(self).__name__} {self.qualname} at {self.path}:{self.line}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and self._sync == other._sync

    def __hash__(self) -> int:
        return hash(self._sync)


class Function(Element):
    params: List[str]
    decorators: List[str]
    complexity: int
    line_count: int
    class_name: Optional[str]
    full_name: str
    language: str

    @property
    def is_method(self) -> bool:
        return self.class_name is not None

    async def callers(self) -> List["Call"]:
        fn = self._sync
        assert isinstance(fn, sync_elements.Function)
        return [Call(self._bridge, c) for c in await self._bridge(fn.callers)]

    async def references(self) -> List[Location]:
        fn = self._sync
        assert isinstance(fn, sync_elements.Function)
        return await self._bridge(fn.references)


class Class(Element):
    bases: List[str]
    decorators: List[str]
    complexity: int
    line_count: int
    full_name: str
    language: str
    methods: List[Function]

    def __init__(self, bridge: _Bridge, element: sync_elements.Element) -> None:
        super().__init__(bridge, element)
        assert isinstance(element, sync_elements.Class)
        self.methods = [Function(bridge, m) for m in element.methods]

    def method(self, name: str) -> Function:
        cls = self._sync
        assert isinstance(cls, sync_elements.Class)
        return Function(self._bridge, cls.method(name))

    async def callers(self) -> List["Call"]:
        cls = self._sync
        assert isinstance(cls, sync_elements.Class)
        return [Call(self._bridge, c) for c in await self._bridge(cls.callers)]

    async def references(self) -> List[Location]:
        cls = self._sync
        assert isinstance(cls, sync_elements.Class)
        return await self._bridge(cls.references)

    async def subclasses(self) -> List["Class"]:
        cls = self._sync
        assert isinstance(cls, sync_elements.Class)
        return [Class(self._bridge, c) for c in await self._bridge(cls.subclasses)]


class Variable(Element):
    async def references(self) -> List[Location]:
        var = self._sync
        assert isinstance(var, sync_elements.Variable)
        return await self._bridge(var.references)


class Import(Element):
    module: str
    names: List[str]
    unused: bool

    async def remove(self) -> None:
        imp = self._sync
        assert isinstance(imp, sync_elements.Import)
        await self._bridge(imp.remove)


class File(Element):
    line_count: int
    complexity: int
    imports: List[Import]

    def __init__(self, bridge: _Bridge, element: sync_elements.Element) -> None:
        super().__init__(bridge, element)
        assert isinstance(element, sync_elements.File)
        self.imports = [Import(bridge, i) for i in element.imports]

    async def add_import(self, name: str) -> None:
        f = self._sync
        assert isinstance(f, sync_elements.File)
        await self._bridge(f.add_import, name)

    async def add_line(self, text: str) -> None:
        f = self._sync
        assert isinstance(f, sync_elements.File)
        await self._bridge(f.add_line, text)


Module = File


class Call(Element):
    text: str
    function: str
    args: List[str]
    keywords: Dict[str, str]

    async def replace(self, text: str) -> None:
        call = self._sync
        assert isinstance(call, sync_elements.Call)
        await self._bridge(call.replace, text)


class Workspace:
    """``eddi.Workspace`` with coroutines; see the module doc."""

    def __init__(
        self,
        root: Union[str, "os.PathLike[str]", None] = None,
        sender: str = "python",
        *,
        state_dir: Optional[str] = None,
        _sync: Optional[sync.Workspace] = None,
    ) -> None:
        self._bridge = _Bridge(_sync or sync.Workspace(root, sender, state_dir=state_dir))
        self.sender = self._bridge.sync.sender

    @property
    def _ws(self) -> sync.Workspace:
        return self._bridge.sync

    async def run(self, text: str, check: bool = False) -> Reply:
        return await self._bridge(self._ws.run, text, check)

    async def undo(self) -> Reply:
        return await self._bridge(self._ws.undo)

    async def redo(self) -> Reply:
        return await self._bridge(self._ws.redo)

    async def refactor(self, kind: str, *args: str, preview: bool = False) -> Reply:
        return await self._bridge(self._ws.refactor, kind, *args, preview=preview)

    async def select(self, query: str, where: Optional[str] = None) -> List[Element]:
        return [self._bridge.wrap(e) for e in await self._bridge(self._ws.select, query, where)]

    async def functions(self, where: Optional[str] = None, path: Optional[str] = None) -> List[Function]:
        found = await self._bridge(self._ws.functions, where, path)
        return [Function(self._bridge, f) for f in found]

    async def classes(self, where: Optional[str] = None, path: Optional[str] = None) -> List[Class]:
        found = await self._bridge(self._ws.classes, where, path)
        return [Class(self._bridge, c) for c in found]

    async def files(self, glob: str = "**/*.py", where: Optional[str] = None) -> List[File]:
        found = await self._bridge(self._ws.files, glob, where)
        return [File(self._bridge, f) for f in found]

    async def file(self, path: str) -> File:
        return File(self._bridge, await self._bridge(self._ws.file, path))

    async def symbol(self, name: str) -> Element:
        return self._bridge.wrap(await self._bridge(self._ws.symbol, name))

    def transaction(self) -> "Transaction":
        return Transaction(self)

    def changeset(self, name: str) -> "Changeset":
        return Changeset(self, name)

    async def close(self) -> None:
        self._ws.close()

    async def __aenter__(self) -> "Workspace":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


class Transaction:
    """``async with ws.transaction(): …``: as ``eddi.Transaction``."""

    def __init__(self, ws: Workspace) -> None:
        self._ws = ws
        self._sync = sync.Transaction(ws._ws)

    @property
    def report(self) -> Dict[str, Any]:
        return self._sync.report

    async def __aenter__(self) -> "Transaction":
        self._sync.__enter__()
        return self

    async def __aexit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                        tb: Optional[TracebackType]) -> None:
        await self._ws._bridge(self._sync.__exit__, kind, error, tb)


class Changeset:
    """``async with ws.changeset(name) as cs: …``: as ``eddi.Changeset``."""

    def __init__(self, ws: Workspace, name: str) -> None:
        self._ws = ws
        self._sync = sync.Changeset(ws._ws, name)
        self.name = self._sync.name

    async def __aenter__(self) -> "Changeset":
        self._sync.__enter__()
        return self

    async def __aexit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                        tb: Optional[TracebackType]) -> None:
        await self._ws._bridge(self._sync.__exit__, kind, error, tb)

    async def preview(self) -> str:
        return await self._ws._bridge(self._sync.preview)

    async def files(self) -> List[str]:
        return await self._ws._bridge(lambda: self._sync.files)

    async def state(self) -> str:
        return await self._ws._bridge(lambda: self._sync.state)

    async def apply(self) -> Reply:
        return await self._ws._bridge(self._sync.apply)

    async def rollback(self) -> Reply:
        return await self._ws._bridge(self._sync.rollback)


async def connect(nats_url: str = "nats://127.0.0.1:4222", sender: str = "python", *,
                  prefix: str = "mizuki", name: str = "eddi", timeout: float = 30.0) -> Workspace:
    """A running ``eddi serve`` over NATS, with coroutines."""
    loop = asyncio.get_running_loop()
    ws = await loop.run_in_executor(
        None, functools.partial(sync.connect, nats_url, sender, prefix=prefix, name=name, timeout=timeout))
    return Workspace(_sync=ws)


async def open_workspace(root: Union[str, "os.PathLike[str]"], sender: str = "python", *,
                         state_dir: Optional[str] = None) -> Workspace:
    """``Workspace(root, sender)`` opened in the thread pool (opening reads
    the state directory, which may take a while on a large one)."""
    loop = asyncio.get_running_loop()
    ws = await loop.run_in_executor(
        None, functools.partial(sync.Workspace, root, sender, state_dir=state_dir))
    return Workspace(_sync=ws)


__all__ = [
    "Call", "Changeset", "Class", "Element", "File", "Function", "Import", "Location",
    "Module", "Reply", "Transaction", "Variable", "Workspace", "connect", "open_workspace",
]
