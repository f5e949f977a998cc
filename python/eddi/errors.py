"""Errors: the engine's failures as exceptions, with its data.

Every failure the engine answers is an :class:`EddiError` carrying the
engine's ``code`` (``not_found``, ``ambiguous``, ``conflict``, …), its
``message`` (which names what to fix) and ``candidates`` (the valid
choices, closest first). The subclass is chosen by the code, never by the
message.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional


class EddiError(Exception):
    """A failure the engine answered: ``code``, ``message``, ``candidates``."""

    def __init__(
        self,
        code: str,
        message: str,
        candidates: Optional[List[str]] = None,
        details: Optional[Dict[str, Any]] = None,
    ) -> None:
        # Exception's own __init__, not super(): a walk raises thousands
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.candidates: List[str] = list(candidates) if candidates else []
        self.details: Dict[str, Any] = dict(details) if details else {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class NotFound(EddiError):
    """Nothing of that name or place (``not_found``)."""


class Ambiguous(EddiError):
    """The name means several things; ``candidates`` are their full names."""


class Conflict(EddiError):
    """A file changed since it was read, or a name is taken (``conflict``, ``stale``)."""


class Refused(EddiError):
    """The engine refuses what cannot be proven safe (``not_applicable``:
    a refactoring's safety refusal, a script statement that cannot apply)."""


class InvalidScript(EddiError):
    """A command, query or script that does not parse or check
    (``invalid_command``, ``invalid_params``), with ``line:col``."""


class PermissionDenied(EddiError):
    """The sender may not do this (``permission_denied``)."""


class WorkspaceBusy(EddiError):
    """Another Eddi holds the workspace's state directory (``locked``)."""


class TransportError(EddiError):
    """No answer from a running Eddi (``transport``)."""


_BY_CODE = {
    "not_found": NotFound,
    "ambiguous": Ambiguous,
    "conflict": Conflict,
    "stale": Conflict,
    "not_applicable": Refused,
    "invalid_command": InvalidScript,
    "invalid_params": InvalidScript,
    "permission_denied": PermissionDenied,
    "locked": WorkspaceBusy,
    "transport": TransportError,
}


def error_from(code: str, message: str, candidates: Optional[List[str]] = None,
               details: Optional[Dict[str, Any]] = None) -> EddiError:
    """The exception for an engine failure of ``code``."""
    return _BY_CODE.get(code, EddiError)(code, message, candidates, details)


def from_failure(failure: Dict[str, Any]) -> EddiError:
    """The exception for a reply's ``failure`` or a tool's ``error`` object."""
    details = None
    if len(failure) > 3 or not failure.keys() <= _FAILURE_KEYS:
        details = {k: v for k, v in failure.items() if k not in _FAILURE_KEYS}
    candidates = failure.get("candidates")
    return error_from(
        str(failure.get("code", "internal")),
        str(failure.get("message", "")),
        [str(c) for c in candidates] if candidates else None,
        details,
    )


_FAILURE_KEYS = frozenset(("code", "message", "candidates"))
