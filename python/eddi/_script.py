"""Text of the scripting language built from Python values.

Every query and edit of the Python API is a query or statement of the
scripting language (docs/SCRIPTING.md), run by the engine's one
interpreter; this module only writes their text, quoting what it takes.
"""

from __future__ import annotations

import re
from typing import List

_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_GLOB_SPECIAL = set("*?[]{}")


def quote(text: str) -> str:
    """A script string holding ``text`` exactly."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\t", "\\t")
    )
    return f'"{escaped}"'


def unquote(text: str) -> str:
    """The text a script string (as :func:`quote` makes it) holds."""
    escapes = {"n": "\n", "t": "\t"}
    out: List[str] = []
    chars = iter(text[1:-1])
    for c in chars:
        if c == "\\":
            c = next(chars, "")
            c = escapes.get(c, c)
        out.append(c)
    return "".join(out)


def is_word(text: str) -> bool:
    """A script word: a name, dotted or not (``pkg.mod.f``)."""
    return bool(_WORD.match(text)) and not text.endswith(".")


def word(text: str, what: str) -> str:
    """``text`` as a script word, or ValueError naming ``what``."""
    if not is_word(text):
        raise ValueError(
            f"{what} {text!r} is not a name (letters, digits, _ and dots, not starting with a digit)"
        )
    return text


def callee(full_name: str) -> str:
    """The subject of ``caller of``/``call to`` naming a definition by its
    full name: the name as a word (``pkg.mod.f()``), or quoted when it is
    none — a brace language's module label is its path's, which may hold a
    ``-`` (``"web.my-app.util.fmt"``)."""
    return f"{full_name}()" if is_word(full_name) else quote(full_name)


def glob_of(path: str) -> str:
    """A glob that matches exactly the workspace path ``path``."""
    escaped = "".join(f"[{c}]" if c in _GLOB_SPECIAL else c for c in path)
    # without a '/', a glob matches file names anywhere: the `where` that
    # goes with it keeps the one path
    return escaped


_CHANGESET = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def changeset_name(name: str) -> str:
    """A changeset's name (1-64 of A-Z a-z 0-9 _ . -), or ValueError."""
    if not _CHANGESET.match(name):
        raise ValueError(f"changeset name {name!r}: use 1-64 of A-Z a-z 0-9 _ . -")
    return name


def where(*conditions: str) -> str:
    return " where " + " and ".join(conditions) if conditions else ""
