"""Eddi's Python API: a project as an object model, backed by Eddi's engine.

    import eddi
    ws = eddi.Workspace("path/to/project", sender="refactor-bot")
    for cls in ws.classes():
        for method in cls.methods:
            print(cls.name, method.name, method.complexity)

See docs/PYTHON.md. ``eddi.aio`` has the same API as coroutines.
"""

from .elements import (
    Call,
    Class,
    Element,
    File,
    Function,
    Import,
    Location,
    Module,
    Reply,
    Variable,
)
from .errors import (
    Ambiguous,
    Conflict,
    EddiError,
    InvalidScript,
    NotFound,
    PermissionDenied,
    Refused,
    TransportError,
    WorkspaceBusy,
)
from .workspace import Changeset, Transaction, Workspace, connect

__all__ = [
    "Ambiguous",
    "Call",
    "Changeset",
    "Class",
    "Conflict",
    "EddiError",
    "Element",
    "File",
    "Function",
    "Import",
    "InvalidScript",
    "Location",
    "Module",
    "NotFound",
    "PermissionDenied",
    "Refused",
    "Reply",
    "Transaction",
    "TransportError",
    "Variable",
    "Workspace",
    "WorkspaceBusy",
    "connect",
]
