"""Relations: callers (of a function, not of a same-named method),
references, subclasses; a call's arguments."""

from __future__ import annotations

import eddi


def test_callers_of_a_function_and_not_of_a_same_named_method(ws: eddi.Workspace) -> None:
    function = ws.symbol("shop.auth.authenticate")
    assert isinstance(function, eddi.Function)
    calls = function.callers()
    assert [(c.path, c.line) for c in calls] == [
        ("shop/service.py", 6), ("shop/users.py", 28), ("shop/users.py", 47)]
    method = ws.symbol("shop.users.UserManager.authenticate")
    assert isinstance(method, eddi.Function)
    assert [(c.path, c.line, c.text) for c in method.callers()] == [
        ("shop/users.py", 45, "manager.authenticate(name, password)")]


def test_a_call_has_its_arguments_as_written(ws: eddi.Workspace) -> None:
    function = ws.symbol("shop.auth.authenticate")
    assert isinstance(function, eddi.Function)
    last = function.callers()[-1]
    assert last.text == "authenticate(name, password, timeout=5)"
    assert last.args == ["name", "password"]
    assert last.keywords == {"timeout": "5"}
    assert last.function == "authenticate"
    assert (last.line, last.col) == (47, 11)


def test_callers_of_a_class_are_its_instantiations(ws: eddi.Workspace) -> None:
    cls = ws.symbol("shop.users.UserManager")
    assert isinstance(cls, eddi.Class)
    assert [(c.path, c.line) for c in cls.callers()] == [("shop/service.py", 13), ("shop/users.py", 44)]


def test_references(ws: eddi.Workspace) -> None:
    logout = ws.symbol("logout")
    assert isinstance(logout, eddi.Function)
    assert [(r.path, r.line, r.certain) for r in logout.references()] == [
        ("shop/service.py", 1, True), ("shop/service.py", 8, True)]


def test_subclasses(ws: eddi.Workspace) -> None:
    base = ws.symbol("Base")
    assert isinstance(base, eddi.Class)
    assert [c.qualname for c in base.subclasses()] == ["UserManager", "AdminManager"]
