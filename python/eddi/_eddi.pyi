"""Stubs of the native module (crates/eddi-py): the tool-call transport."""

from typing import Any, List, Optional, Tuple, Union

class OpenError(Exception): ...
class BusyError(OpenError): ...
class TransportError(Exception): ...

class LocalEngine:
    """The engine in this process; holds the workspace's state directory."""

    def __init__(self, root: str, state_dir: Optional[str] = None) -> None: ...
    def call(self, sender: str, tool: str, params: str) -> str:
        """One tool call (params as JSON text); the envelope as JSON text."""
    def select_found(self, sender: str, params: str) -> Union["Found", str]:
        """The `select` tool, its result kept in Rust (`Found`), or the
        failure's envelope as JSON text."""

class Found:
    """A `select`'s answer: one query's elements or many queries' answers."""

    @property
    def reply(self) -> str: ...
    def __len__(self) -> int: ...
    def rows(self) -> List["Row"]:
        """One query's elements."""
    def definitions(self, python: bool) -> List[str]:
        """The indexed names of the functions, methods and classes among
        one query's elements (a class's methods after it), of Python code
        (``python``) or of the brace languages' (not)."""
    def answer(self, i: int) -> Union[List["Row"], Tuple[str, str, List[str]]]:
        """Query i's elements, or its failure as (code, message, candidates)."""

class Row:
    """One element, read like the dict of its fields in the `select` tool's
    JSON; each field made when it is read."""

    def __getitem__(self, key: str) -> Any: ...
    def get(self, key: str, default: Any = None) -> Any: ...
    def __contains__(self, key: str) -> bool: ...
    def keys(self) -> List[str]: ...

class NatsEngine:
    """A running `eddi serve`, asked on `<prefix>.<name>.tools.call`."""

    def __init__(self, url: str, prefix: str = "mizuki", name: str = "eddi", timeout: float = 30.0) -> None: ...
    def call(self, sender: str, tool: str, params: str) -> str: ...
