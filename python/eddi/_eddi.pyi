"""Stubs of the native module (crates/eddi-py): the tool-call transport."""

from typing import Any, Dict, Optional, Union

class OpenError(Exception): ...
class BusyError(OpenError): ...
class TransportError(Exception): ...

class LocalEngine:
    """The engine in this process; holds the workspace's state directory."""

    def __init__(self, root: str, state_dir: Optional[str] = None) -> None: ...
    def call(self, sender: str, tool: str, params: str) -> str:
        """One tool call (params as JSON text); the envelope as JSON text."""
    def select(self, sender: str, params: str) -> Union[Dict[str, Any], str]:
        """The `select` tool: its result as the dict `json.loads` would make
        of it, or the failure's envelope as JSON text."""

class NatsEngine:
    """A running `eddi serve`, asked on `<prefix>.<name>.tools.call`."""

    def __init__(self, url: str, prefix: str = "mizuki", name: str = "eddi", timeout: float = 30.0) -> None: ...
    def call(self, sender: str, tool: str, params: str) -> str: ...
