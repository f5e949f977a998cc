"""The object model: elements, their attributes, lookups by name."""

from __future__ import annotations

import subprocess
import sys
import json
from pathlib import Path

import pytest

import eddi


def test_class_methods_in_source_order_with_their_attributes(ws: eddi.Workspace) -> None:
    manager = ws.symbol("shop.users.UserManager")
    assert isinstance(manager, eddi.Class)
    assert [m.name for m in manager.methods] == ["__init__", "normalize", "authenticate", "find"]
    assert manager.bases == ["Base"]
    assert manager.path == "shop/users.py"
    assert (manager.line, manager.end_line) == (11, 34)
    assert manager.source.startswith("class UserManager(Base):")
    normalize = manager.method("normalize")
    assert normalize.decorators == ["@staticmethod"]
    assert normalize.params == ["name"]
    auth = manager.method("authenticate")
    assert auth.params == ["self", "name", "password"]
    assert auth.qualname == "UserManager.authenticate"
    assert auth.full_name == "shop.users.UserManager.authenticate"
    assert auth.is_method and auth.class_name == "UserManager"
    assert auth.line_count == 7


def radon_blocks(root: Path) -> dict:
    """radon cc of every file: (path, line, name) -> complexity."""
    radon = pytest.importorskip("radon.complexity")
    visitors = pytest.importorskip("radon.visitors")
    blocks = {}
    for path in root.rglob("*.py"):
        if ".eddi" in path.parts:
            continue
        for block in radon.cc_visit(path.read_text()):
            rel = str(path.relative_to(root))
            blocks[(rel, block.lineno, block.name)] = block.complexity
            if isinstance(block, visitors.Class):
                for method in block.methods:
                    blocks[(rel, method.lineno, method.name)] = method.complexity
    return blocks


def test_complexity_of_every_function_method_and_class_equals_radon(ws: eddi.Workspace, shop: Path) -> None:
    radon = radon_blocks(shop)
    ours = {}
    for cls in ws.classes():
        ours[(cls.path, cls.line, cls.name)] = cls.complexity
        for method in cls.methods:
            ours[(method.path, method.line, method.name)] = method.complexity
    for fn in ws.functions():
        ours[(fn.path, fn.line, fn.name)] = fn.complexity
    assert ours == radon
    assert ours[("shop/auth.py", 5, "authenticate")] == 6


def test_functions_where_takes_the_scripting_conditions(ws: eddi.Workspace) -> None:
    found = ws.functions(where="complexity > 3 and params.count == 2")
    assert [f.qualname for f in found] == ["UserManager.authenticate"]
    found = ws.functions(where="complexity >= 3", path="shop/users.py")
    assert [f.qualname for f in found] == ["UserManager.authenticate", "UserManager.find"]
    assert [c.name for c in ws.classes(where="line_count > 10")] == ["UserManager"]


def test_functions_and_methods_are_the_queries_a_script_makes(ws: eddi.Workspace) -> None:
    # the same engine: the select tool's count is a script's `let` count
    script = ws.run("let $m = function where complexity > 2", check=True)
    assert script.data["script"]["bound"] == [{"name": "m", "n": len(ws.functions(where="complexity > 2")), "kind": "function"}]


def test_files_and_imports(ws: eddi.Workspace) -> None:
    assert [f.path for f in ws.files()] == [
        "shop/__init__.py", "shop/auth.py", "shop/service.py", "shop/users.py", "tests/test_users.py"]
    assert [f.path for f in ws.files("test_*.py")] == ["tests/test_users.py"]
    users = ws.file("shop/users.py")
    assert [(i.name, i.module, i.line, i.unused) for i in users.imports] == [
        ("logging", "logging", 1, True), ("json", "json", 2, False), ("authenticate", "shop.auth", 3, False)]
    assert users.line_count == 48


def test_symbol_plain_qualified_dotted_and_modules(ws: eddi.Workspace) -> None:
    assert isinstance(ws.symbol("logout"), eddi.Function)
    assert ws.symbol("UserManager.find").qualname == "UserManager.find"
    assert ws.symbol("shop.auth.authenticate").path == "shop/auth.py"
    module = ws.symbol("shop.service")
    assert isinstance(module, eddi.Module) and module.path == "shop/service.py"
    assert ws.symbol("shop").path == "shop/__init__.py"


def test_elements_are_plain_values_captured_when_found(ws: eddi.Workspace, shop: Path) -> None:
    fn = ws.symbol("logout")
    (shop / "shop" / "auth.py").write_text("def logout(user, reason):\n    pass\n")
    # read when found; a new query sees the file as it is now
    assert fn.params == ["user"]
    assert ws.symbol("logout").params == ["user", "reason"]


def test_reply_of_run(ws: eddi.Workspace) -> None:
    reply = ws.run("Open shop/auth.py; Show Line 4")
    assert reply.ok and reply.text.splitlines()[0].startswith("Ok")
    assert reply.data["ok"] is True and len(reply.replies) == 2
    failed = ws.run("Goto 999:0")
    assert not failed.ok and failed.data["failure"]["code"] == "out_of_range"
    with pytest.raises(eddi.EddiError) as raised:
        ws.run("Goto 999:0", check=True)
    assert raised.value.code == "out_of_range"
