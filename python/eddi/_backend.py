"""The one request both backends carry: an agent tool call.

``call(tool, params)`` sends ``{sender, tool, params}`` — to the engine in
this process (``LocalEngine``) or to a running ``eddi serve`` on its
``tools.call`` subject (``NatsEngine``) — and returns the tool's result,
or raises the engine's failure as an :class:`~eddi.errors.EddiError`.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import threading
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _eddi
from .errors import EddiError, error_from, from_failure


class Backend:
    """Sends tool calls for one sender."""

    def __init__(self, engine: Union["_eddi.LocalEngine", "_eddi.NatsEngine"], sender: str) -> None:
        if not sender or not isinstance(sender, str):
            raise ValueError("sender: give the name this program speaks as, e.g. sender=\"refactor-bot\"")
        self._engine = engine
        self.sender = sender
        # one request at a time per sender: the engine runs a sender's
        # messages in order, and so does this client
        self._lock = threading.Lock()

    def call(self, tool: str, params: Dict[str, Any]) -> Dict[str, Any]:
        text = json.dumps(params)
        with self._lock:
            try:
                answer = self._engine.call(self.sender, tool, text)
            except _eddi.TransportError as e:
                raise error_from("transport", str(e)) from None
        return _result(answer)

    def select(self, params: Dict[str, Any]) -> "Found":
        """The ``select`` tool: its elements (``rows()``) or its answers
        (``answer(i)``), each element read like the dict of its fields. In
        process they stay in Rust until a field is read (no JSON between)."""
        if not isinstance(self._engine, _eddi.LocalEngine):
            return JsonFound(self.call("select", params))
        text = json.dumps(params)
        with self._lock:
            found = self._engine.select_found(self.sender, text)
        if isinstance(found, str):
            _result(found)  # raises the failure
            raise EddiError("internal", f"select: no answer and no failure: {found}")
        return found


def _result(envelope_text: str) -> Dict[str, Any]:
    """A tool's result from its envelope, or its failure raised."""
    envelope = json.loads(envelope_text)
    if envelope.get("ok"):
        result = envelope.get("result", {})
        return result if isinstance(result, dict) else {"value": result}
    raise from_failure(envelope.get("error", {}))


#: An element's fields, read like a dict: the JSON's dict, or in process
#: a ``_eddi.Row`` that makes each field when it is read.
Row = Union[Dict[str, Any], "_eddi.Row"]

#: A query's answer failure: (code, message, candidates).
Failure = Tuple[str, str, List[str]]

#: What ``Backend.select`` answers: ``_eddi.Found`` or a ``JsonFound``.
Found = Union["_eddi.Found", "JsonFound"]


class JsonFound:
    """A ``select`` answered in JSON (over NATS), read as ``_eddi.Found`` is."""

    def __init__(self, result: Dict[str, Any]) -> None:
        self.reply: str = str(result.get("reply", ""))
        self._elements: List[Dict[str, Any]] = list(result.get("elements", []))
        self._answers: List[Dict[str, Any]] = list(result.get("answers", []))

    def __len__(self) -> int:
        return len(self._answers) if self._answers else len(self._elements)

    def rows(self) -> Sequence[Row]:
        return self._elements

    def answer(self, i: int) -> Union[Sequence[Row], Failure]:
        answer = self._answers[i]
        failure = answer.get("failure")
        if failure is not None:
            return (str(failure.get("code", "internal")), str(failure.get("message", "")),
                    [str(c) for c in failure.get("candidates") or []])
        return list(answer.get("elements", []))


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cycle collector paused while a query's answer becomes
    elements (thousands, none in a cycle): each collection meanwhile would
    walk every object alive, the elements of earlier queries too.
    Reference counting frees them as ever."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def local(root: Union[str, "os.PathLike[str]"], sender: str, state_dir: Optional[str] = None) -> Backend:
    """The engine in this process, holding ``root``'s state directory."""
    try:
        engine = _eddi.LocalEngine(os.fspath(root), state_dir)
    except _eddi.BusyError as e:
        raise error_from("locked", str(e)) from None
    except _eddi.OpenError as e:
        raise error_from("unavailable", str(e)) from None
    return Backend(engine, sender)


def nats(url: str, sender: str, prefix: str = "mizuki", name: str = "eddi", timeout: float = 30.0) -> Backend:
    """A running ``eddi serve`` reached at ``url``."""
    try:
        engine = _eddi.NatsEngine(url, prefix, name, timeout)
    except _eddi.TransportError as e:
        raise error_from("transport", str(e)) from None
    return Backend(engine, sender)


__all__ = ["Backend", "EddiError", "Failure", "Found", "JsonFound", "Row", "local", "nats", "paused_gc"]
