"""The workspace: queries, edits, transactions and changesets of one sender.

``Workspace(root, sender=…)`` embeds the engine (it holds the workspace's
state directory, as ``eddi run`` does); ``connect(nats_url, sender=…)``
talks to a running ``eddi serve``. Both send the same tool calls (see
``_backend``): ``select`` for queries, ``run_script`` for edits, ``eddi``
for commands. The sender's session is started on first use, or continued
when it already has one.
"""

from __future__ import annotations

import itertools
import os
from types import TracebackType
from typing import Any, Dict, List, Optional, Sequence, Tuple, Type, TypeVar, Union

from . import _backend, _script
from .elements import (
    Call,
    Class,
    Element,
    File,
    Function,
    Location,
    Reply,
    Variable,
    element_of,
)
from .errors import Ambiguous, Conflict, EddiError, NotFound, Refused, error_from

E = TypeVar("E", bound=Element)

#: ``find_references`` returns everything under this many chars.
_ALL = 1 << 30


class _Batch:
    """Edits collected by a transaction or changeset, as one script, so one
    change: each statement runs on the element it edits, bound by a
    ``let`` placed where that element was read — before the statements
    that were pending when its query ran, after the others (a query inside
    a transaction sees the edits made so far, see ``Workspace.select``)."""

    def __init__(self) -> None:
        #: (stage, line): a ``let`` binds at the stage its element was
        #: read (how many statements were pending then); statements are
        #: their own stage's last line
        self._lines: List[Tuple[int, int, str]] = []
        self.statements = 0
        self._names = itertools.count(1)

    def add(self, element: Optional[Element], statement: str) -> None:
        if element is None:
            self._append(self.statements, statement)
            return
        var = f"$eddi_py_{next(self._names)}"
        read_at = element._read_at[1] if element._read_at[0] is self else 0
        self._lines.append((read_at, 0, f"let {var} = {element._selector()}"))
        self._append(self.statements, f"use {var} {{ {statement} }}")

    def _append(self, stage: int, statement: str) -> None:
        self._lines.append((stage, 1, statement))
        self.statements += 1

    @property
    def empty(self) -> bool:
        return self.statements == 0

    @property
    def script(self) -> str:
        # a binding goes before the statement of its stage: stable order
        # within a stage (bindings, then that stage's statement)
        ordered = [line for _, _, line in sorted(self._lines, key=lambda item: (item[0], item[1]))]
        # in braces: a script may start with a refactoring's command form
        return "{\n" + "\n".join(ordered) + "\n}"


class _Found:
    """The definitions one query found: the callers of all of them that
    one index answers for (Python's, or the brace languages') are asked in
    one request, on the first ``callers()`` of one of them (``select``'s
    ``queries``), and kept while the workspace is as it was then (no edit
    through this Workspace since)."""

    def __init__(self, found: Optional[_backend.Found] = None) -> None:
        #: the query's answer, whose definitions are asked about
        self._found = found
        #: by index (Python's: True), the names asked, their answers and
        #: the workspace's state then
        self._asked: Dict[bool, Tuple[Dict[str, int], _backend.Found, Tuple[int, int]]] = {}

    def names(self, python: bool) -> List[str]:
        """The full names of its functions, methods and classes of Python
        code (``python``) or of the brace languages' (not)."""
        found = self._found
        if found is None:
            return []
        if isinstance(found, _backend.JsonFound):
            names: List[str] = []
            for row in found.rows():
                for data in [row, *(row.get("methods") or [])]:
                    if data.get("indexed_name") is not None and (data.get("language") == "python") == python:
                        names.append(data["indexed_name"])
            return names
        return found.definitions(python)

    def answer(self, ws: "Workspace", name: str, python: bool) -> "Union[None, Sequence[_backend.Row], _backend.Failure]":
        state = ws._state()
        asked = self._asked.get(python)
        if asked is None or asked[2] != state:
            unique = list(dict.fromkeys(self.names(python)))
            if len(unique) < 2:
                return None
            queries = [f"caller of {_script.callee(n)}" for n in unique]
            answers = ws._select({"queries": queries}, texts=True)
            asked = ({n: i for i, n in enumerate(unique)}, answers, state)
            self._asked[python] = asked
        at = asked[0].get(name)
        return None if at is None else asked[1].answer(at)


class Workspace:
    """A project, as one sender sees it. See the module doc."""

    def __init__(
        self,
        root: Union[str, "os.PathLike[str]", None] = None,
        sender: str = "python",
        *,
        state_dir: Optional[str] = None,
        backend: Optional[_backend.Backend] = None,
    ) -> None:
        if backend is None:
            if root is None:
                raise ValueError("root: give the workspace's root directory")
            backend = _backend.local(root, sender, state_dir)
        self._backend = backend
        self.sender = backend.sender
        self._batches: List[_Batch] = []
        #: how many times this Workspace wrote (kept answers are of before)
        self._generation = 0
        #: elements come with their text (eddi.aio: no attribute asks later)
        self._texts = False

    # -- commands ---------------------------------------------------------

    def run(self, text: str, check: bool = False) -> Reply:
        """Runs commands or a script; ``check=True`` raises the failure
        instead of returning a Reply whose ``ok`` is False."""
        # a command may write: what was kept of the files before is not kept
        self._generation += 1
        try:
            result = self._backend.call("eddi", {"command": text, "data": True})
        except EddiError as failure:
            if failure.code != "command_failed":
                raise
            replies = list(failure.details.get("replies", []))
            if check:
                last = replies[-1] if replies else {}
                raise _failure_of(last, failure) from None
            return Reply(False, failure.message, replies)
        return Reply(True, result["reply"], list(result.get("replies", [])))

    def _command(self, text: str) -> Reply:
        return self.run(text, check=True)

    def undo(self) -> Reply:
        """Takes back the sender's last step (a transaction is one)."""
        return self._command("Undo")

    def redo(self) -> Reply:
        return self._command("Redo")

    def refactor(self, kind: str, *args: str, preview: bool = False) -> Reply:
        """A refactoring (``ws.refactor("Rename_Class", "Old", "New")``), as
        ``Refactor <kind> <args…>``; in a transaction or changeset it joins
        its one change. ``preview=True`` writes nothing and returns the diff."""
        words = " ".join([_script.word(kind, "refactoring")] + [_argument(a) for a in args])
        # in a transaction: the script's command form of the refactoring
        if self._batches:
            if preview:
                raise ValueError("preview: a refactoring inside a transaction is previewed with the transaction's changeset")
            self._batches[-1].add(None, words)
            return Reply(True, "Ok, collected", [])
        prefix = "Preview Diff Refactor" if preview else "Refactor"
        return self._command(f"{prefix} {words}")

    # -- queries ----------------------------------------------------------

    def select(self, query: str, where: Optional[str] = None) -> List[Element]:
        """The elements of a query of the scripting language
        (``methods in UserManager where complexity > 3``), and only those
        for which ``where`` holds (its mistakes are reported at their
        line:col in ``where``). Inside a transaction or changeset, the
        query sees the files as its edits so far leave them."""
        params: Dict[str, Any] = {"query": query}
        if where is not None:
            params["where"] = where
        target = _callee_of(query)
        found = self._select(params)
        rows = found.rows()
        definitions = _Found(found)
        read_at = self._read_at()
        with _backend.paused_gc():
            # (a call's twins are counted among the calls found with it)
            return [element_of(self, r, target, definitions, read_at, rows) for r in rows]

    def functions(self, where: Optional[str] = None, path: Optional[str] = None) -> List[Function]:
        """Every function and method (in ``path`` only, if given) for which
        ``where`` (the scripting language's condition) holds."""
        return self._definitions("function", Function, where, path)

    def classes(self, where: Optional[str] = None, path: Optional[str] = None) -> List[Class]:
        return self._definitions("class", Class, where, path)

    def files(self, glob: str = "**/*.py", where: Optional[str] = None) -> List[File]:
        """The Python files matching ``glob`` (without a ``/``: file names
        anywhere, ``test_*.py``; with one: paths, ``src/**/*.py``)."""
        found = self.select(f"file matching {_script.quote(glob)}", where=where)
        return [e for e in found if isinstance(e, File)]

    def file(self, path: str) -> File:
        """The Python file at ``path`` (workspace-relative)."""
        found = self._files_at(path)
        if not found or not isinstance(found[0], File):
            raise NotFound("not_found", f"no Python file {path} in the workspace")
        return found[0]

    def symbol(self, name: str) -> Element:
        """The function, class, variable or module ``name`` names: plain
        (``authenticate``), qualified (``UserManager.login``) or dotted with
        its module (``pkg.auth.authenticate``, ``pkg.auth``). Ambiguous
        names raise :class:`Ambiguous` with the full names as candidates."""
        _script.word(name, "symbol")
        found: List[Element] = []
        for word in ("function", "class"):
            found += self._named(word, name, None)
        found += [v for v in self.select("symbol of type variable" + _script.where(
            f"symbol.name == {_script.quote(name)}")) if isinstance(v, Variable)]
        if not found:
            found = self._dotted(name)
        if not found:
            raise NotFound("not_found", f"no function, class, variable or module named '{name}'")
        if len(found) > 1:
            names = sorted({_full_name(self, e) for e in found})
            raise Ambiguous("ambiguous", f"'{name}' names {len(found)} elements: {', '.join(names)}; give the dotted name", names)
        return found[0]

    def _select(self, params: Dict[str, Any], texts: bool = False) -> _backend.Found:
        """A ``select``: inside a transaction or changeset after its edits
        so far; without the long texts unless ``texts`` (an element's
        ``source`` is then asked when read)."""
        batch = self._pending()
        if batch is not None:
            params["after"] = batch.script
        # read inside a transaction, an element's text comes with it:
        # asked later, it would be of the files as they are then
        params["text"] = texts or batch is not None or self._texts
        return self._backend.select(params)

    def _pending(self) -> Optional[_Batch]:
        """The transaction's or changeset's batch, when it holds edits."""
        if self._batches and not self._batches[-1].empty:
            return self._batches[-1]
        return None

    def _read_at(self) -> Tuple[Optional[_Batch], int]:
        batch = self._batches[-1] if self._batches else None
        return (batch, batch.statements if batch is not None else 0)

    def _state(self) -> Tuple[int, int]:
        """What a kept answer depends on: the edits made through this
        Workspace, and those pending in its transaction."""
        batch = self._pending()
        return (self._generation, id(batch) * 1_000_003 + batch.statements if batch is not None else 0)

    def _source_of(self, element: Element) -> str:
        """An element's text, asked when first read (its query left it out)."""
        found = self._select({"query": element._selector()}, texts=True)
        texts = [e.get("text") for e in found.rows() if e.get("line") == element.line]
        if len(texts) != 1 or not isinstance(texts[0], str):
            raise Conflict(
                "conflict",
                f"{element.path}:{element.line}: {element.qualname} is no longer where it was read: "
                "its file changed since; query it again",
            )
        return texts[0]

    def _definitions(self, word: str, cls: Type[E], where: Optional[str], path: Optional[str]) -> List[E]:
        conditions = []
        if path is not None:
            conditions.append(f"{word}.file == {_script.quote(path)}")
        found = self.select(word + _script.where(*conditions), where=where)
        return [e for e in found if isinstance(e, cls)]

    def _named(self, word: str, name: str, path: Optional[str]) -> List[Element]:
        conditions = [f"{word}.file == {_script.quote(path)}"] if path else []
        try:
            return self.select(f"{word} {name}" + _script.where(*conditions))
        except NotFound:
            return []

    def _dotted(self, name: str) -> List[Element]:
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            module, rest = parts[:cut], parts[cut:]
            for candidate in ("/".join(module) + ".py", "/".join(module) + "/__init__.py"):
                files = self._files_at(candidate)
                if not files:
                    continue
                if not rest:
                    return list(files)
                inner = ".".join(rest)
                found: List[Element] = []
                for word in ("function", "class"):
                    found += self._named(word, inner, candidate)
                if found:
                    return found
        return []

    def _files_at(self, path: str) -> List[Element]:
        return self.select(
            f"file matching {_script.quote(_script.glob_of(path))}"
            + _script.where(f"file.path == {_script.quote(path)}")
        )

    def _module_name(self, path: str) -> str:
        return path[:-3].replace("/", ".").removesuffix(".__init__") if path.endswith(".py") else path

    # -- relations (the elements call these) --------------------------------

    def _callers(self, full_name: str, found: Optional[_Found] = None, python: bool = True) -> List[Call]:
        calls = self._callers_or_failure(full_name, found, python)
        if isinstance(calls, EddiError):
            try:
                raise calls
            finally:
                del calls  # no cycle through this frame (see Function.callers)
        return calls

    def _callers_or_failure(self, full_name: str, found: Optional[_Found] = None,
                            python: bool = True) -> Union[List[Call], EddiError]:
        """The callers (of a definition of Python code, or not), or the
        failure of the request that kept them: the element raises it (a
        walk raises thousands; each frame an exception passes through is
        built as an object)."""
        answer = found.answer(self, full_name, python) if found is not None else None
        if answer is None:
            query = f"caller of {_script.callee(full_name)}"
            return [e for e in self.select(query) if isinstance(e, Call)]
        if isinstance(answer, tuple):
            return error_from(*answer)
        if not answer:
            return []
        read_at = self._read_at()
        return [Call(self, data, full_name, read_at, answer) for data in answer]

    def _subclasses(self, full_name: str) -> List[Class]:
        query = f"class implementing {_script.word(full_name, 'class')}"
        return [e for e in self.select(query) if isinstance(e, Class)]

    def _references(self, full_name: str) -> List[Location]:
        batch = self._pending()
        if batch is not None:
            # the index answers for the files on disk, not for a script's
            # edits: its answer would be of before them
            raise Refused(
                "not_applicable",
                f"references() reads the project index, which does not see the {batch.statements} edit(s) "
                "this transaction or changeset has collected so far: ask before its first edit, or after it",
            )
        result = self._backend.call("find_references", {"symbol": full_name, "max_chars": _ALL})
        return [
            Location(r["path"], r["line"] + 1, r["col"], bool(r.get("certain", True)), r.get("context"))
            for r in result.get("references", [])
        ]

    # -- edits ------------------------------------------------------------

    def _edit(self, element: Optional[Element], statement: str) -> None:
        if self._batches:
            self._batches[-1].add(element, statement)
            return
        batch = _Batch()
        batch.add(element, statement)
        self._commit(batch, collect=None)

    def _commit(self, batch: _Batch, collect: Optional[str]) -> Dict[str, Any]:
        """Runs the batch as one script: first as a preview (nothing
        written) to prove each element is still there, then for real."""
        if batch.empty:
            return {}
        self._generation += 1
        script = batch.script
        preview = self._backend.call("run_script", {"script": script, "preview": True})
        _every_element_found(preview.get("script", {}))
        params: Dict[str, Any] = {"script": script}
        if collect is not None:
            params["collect"] = collect
        return self._backend.call("run_script", params)

    def transaction(self) -> "Transaction":
        """``with ws.transaction(): …`` — the edits inside are written on
        exit, all or nothing, as one undo step; an exception inside writes
        nothing. Queries inside see the files as its edits so far leave
        them (as a script's statements see the earlier ones')."""
        return Transaction(self)

    def changeset(self, name: str) -> "Changeset":
        """The named changeset: ``with ws.changeset("x") as cs: …`` collects
        the edits inside (nothing written); ``cs.preview()``, ``cs.files``,
        ``cs.apply()``, ``cs.rollback()``. Changesets persist with the
        session: another process of the same sender finds it by name."""
        return Changeset(self, name)

    def close(self) -> None:
        """Lets go of the engine (and, in-process, of the state directory,
        once nothing else holds the workspace)."""
        self._backend = _Closed(self.sender)

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Transaction:
    """See :meth:`Workspace.transaction`."""

    def __init__(self, ws: Workspace) -> None:
        self._ws = ws
        self._batch = _Batch()
        #: what the transaction's script reported (counts, files)
        self.report: Dict[str, Any] = {}

    def __enter__(self) -> "Transaction":
        # a transaction inside another joins it: one change, written (or
        # not) when the outer one ends
        self._joined = bool(self._ws._batches)
        if not self._joined:
            self._ws._batches.append(self._batch)
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        if self._joined:
            return
        self._ws._batches.remove(self._batch)
        if kind is None:
            self.report = self._ws._commit(self._batch, collect=None).get("script", {})


class Changeset:
    """See :meth:`Workspace.changeset`."""

    def __init__(self, ws: Workspace, name: str) -> None:
        self._ws = ws
        self.name = _script.changeset_name(name)
        self._batch = _Batch()

    def __enter__(self) -> "Changeset":
        if self._ws._batches:
            raise ValueError(
                f"changeset {self.name}: collect it outside any transaction or other changeset (one change goes to one place)")
        self._ws._batches.append(self._batch)
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        self._ws._batches.remove(self._batch)
        if kind is None:
            self._ws._commit(self._batch, collect=self.name)

    def _said(self, diff: bool) -> Reply:
        return self._ws._command(f"preview {'diff ' if diff else ''}changeset {_script.quote(self.name)}")

    def preview(self) -> str:
        """The unified diff of what it changes."""
        return str(self._said(True).data.get("text", ""))

    @property
    def files(self) -> List[str]:
        return list(self._said(False).data.get("changeset", {}).get("files", []))

    @property
    def state(self) -> str:
        return str(self._said(False).data.get("changeset", {}).get("state", ""))

    def apply(self) -> Reply:
        """Writes it, all or nothing, as one undo step; refused when a file
        changed since it was collected."""
        return self._ws._command(f"apply changeset {_script.quote(self.name)}")

    def rollback(self) -> Reply:
        """Takes an applied changeset back from the disk."""
        return self._ws._command(f"rollback changeset {_script.quote(self.name)}")


def connect(nats_url: str = "nats://127.0.0.1:4222", sender: str = "python", *,
            prefix: str = "mizuki", name: str = "eddi", timeout: float = 30.0) -> Workspace:
    """The workspace of a running ``eddi serve``, over NATS: the same API."""
    return Workspace(backend=_backend.nats(nats_url, sender, prefix, name, timeout))


# -- helpers -----------------------------------------------------------------


class _Closed(_backend.Backend):
    def __init__(self, sender: str) -> None:  # noqa: D401 - no engine
        self.sender = sender

    def call(self, tool: str, params: Dict[str, Any]) -> Dict[str, Any]:
        raise EddiError("closed", "this Workspace is closed: open a new one")

    def select(self, params: Dict[str, Any]) -> _backend.Found:
        return _backend.JsonFound(self.call("select", params))


def _argument(value: str) -> str:
    # a refactoring's arguments are the command language's own forms, as
    # written: names, `lines 45:52`, `f(a, timeout=30)`, `C.a,C.b`
    if not value.strip() or "\n" in value:
        raise ValueError(f"refactoring argument {value!r}: give one line of text, e.g. 'lines 12:20'")
    return value.strip()


def _callee_of(query: str) -> str:
    words = query.split()
    if len(words) >= 3 and words[0].lower() in ("caller", "callers", "call", "calls") and words[1].lower() in ("of", "to"):
        target = words[2]
        if len(target) >= 2 and target[0] == target[-1] == '"':
            return _script.unquote(target)
        return target.removesuffix("()")
    return ""


def _full_name(ws: Workspace, element: Element) -> str:
    full = getattr(element, "full_name", None)
    if isinstance(full, str):
        return full
    module = ws._module_name(element.path)
    return f"{module}.{element.name}" if module and element.kind == "variable" else module


def _failure_of(reply: Dict[str, Any], fallback: EddiError) -> EddiError:
    failure = reply.get("failure")
    if isinstance(failure, dict):
        from .errors import from_failure
        return from_failure(failure)
    return fallback


def _every_element_found(report: Dict[str, Any]) -> None:
    for bound in report.get("bound", []):
        if str(bound.get("name", "")).startswith("eddi_py_") and bound.get("n") != 1:
            raise Conflict(
                "conflict",
                f"an element an edit names is no longer where it was read (found {bound.get('n')} instead of 1): "
                "its file changed since; query it again, then edit",
            )
