"""What makes walking a project fast keeps its answers: a query's elements
come without their source, which is asked when read; the callers of a
query's functions are asked together, and asked again after an edit; a
file another program changed between two walks is read again, whatever
its stamp kept of it."""

from __future__ import annotations

import gc
import json
import os
import time
import weakref
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import eddi


def test_source_is_asked_when_read_and_is_the_elements_text(ws: eddi.Workspace, shop: Path) -> None:
    functions = {f.qualname: f for f in ws.functions()}
    login = functions["login"]
    assert login._source is None
    assert login.source.startswith("def login(name, password):")
    assert login.source.endswith("return authenticate(name, password, timeout=5)")
    cls = ws.symbol("shop.users.UserManager")
    assert cls.source.startswith("class UserManager(Base):")
    assert ws.file("shop/service.py").source == (shop / "shop/service.py").read_text()


def test_a_source_asked_after_its_file_changed_is_a_conflict(ws: eddi.Workspace, shop: Path) -> None:
    [login] = [f for f in ws.functions() if f.qualname == "login"]
    path = shop / "shop/users.py"
    path.write_text("\n\n" + path.read_text())
    with pytest.raises(eddi.Conflict):
        login.source


def test_callers_asked_together_equal_callers_asked_alone(ws: eddi.Workspace) -> None:
    together = {}
    for function in ws.functions():
        try:
            together[function.full_name] = [(c.path, c.line, c.text) for c in function.callers()]
        except eddi.Refused as refused:
            together[function.full_name] = ["refused", refused.code]
    for name, calls in together.items():
        try:
            alone = [(c.path, c.line, c.text) for c in ws._callers(name)]
        except eddi.Refused as refused:
            alone = ["refused", refused.code]
        assert alone == calls, name
    assert together["shop.auth.authenticate"] == [
        ("shop/service.py", 6, "authenticate(request.user, request.password)"),
        ("shop/users.py", 28, "authenticate(user, password)"),
        ("shop/users.py", 47, "authenticate(name, password, timeout=5)")]
    # a class's methods share its query's request
    cls = ws.classes(where="complexity > 0")
    manager = [c for c in cls if c.qualname == "UserManager"][0]
    assert [(c.line, c.text) for c in manager.method("authenticate").callers()] == [
        (45, "manager.authenticate(name, password)")]


def test_callers_kept_for_a_query_are_asked_again_after_an_edit(ws: eddi.Workspace, shop: Path) -> None:
    functions = {f.full_name: f for f in ws.functions()}
    handle = functions["shop.service.handle"]
    assert handle.callers() == []
    ws.file("shop/service.py").add_line("handle(None)")
    # the same elements, after an edit through this Workspace: asked again
    assert [c.text for c in functions["shop.service.handle"].callers()] == ["handle(None)"]
    assert [(c.path, c.line) for c in functions["shop.auth.authenticate"].callers()][0] == ("shop/service.py", 7)


def test_a_where_mistake_is_reported_at_its_place_in_where(ws: eddi.Workspace) -> None:
    with pytest.raises(eddi.InvalidScript) as raised:
        ws.functions(where="params.count == 1 and complexty > 3")
    assert raised.value.message.startswith("1:23:"), raised.value.message
    with pytest.raises(eddi.InvalidScript) as raised:
        ws.classes(path="shop/users.py", where="complexity >")
    assert raised.value.message.startswith("1:13:"), raised.value.message
    with pytest.raises(eddi.InvalidScript) as raised:
        ws.files("*.py", where="imports")
    assert raised.value.message.startswith("1:8:"), raised.value.message


def _walk(ws: eddi.Workspace) -> Dict[str, Tuple[int, object]]:
    """What the benchmark reads of every function: its complexity and its
    callers count (or the refusal's code)."""
    found: Dict[str, Tuple[int, object]] = {}
    for function in ws.functions():
        try:
            count: object = len(function.callers())
        except eddi.Refused as refused:
            count = refused.code
        found[function.full_name] = (function.complexity, count)
    return found


def _aged(path: Path, seconds: int) -> None:
    """Gives the file an mtime long past: the engine's kept parse of it is
    then found by its stamp alone (size, mtime, inode), unread."""
    os.utime(path, (seconds, seconds))


def test_a_walk_after_another_program_changed_a_file_sees_the_change(ws: eddi.Workspace, shop: Path) -> None:
    service = shop / "shop/service.py"
    _aged(service, 1_000_000_000)
    first = _walk(ws)
    assert first["shop.service.handle"] == (2, 0)
    assert first["shop.auth.logout"] == (1, 1)
    assert _walk(ws) == first
    # another program: a branch more in handle, a call more of logout
    service.write_text(service.read_text().replace(
        "    return ok\n", "    if ok is None:\n        logout(request.user)\n    return ok\n"))
    _aged(service, 1_000_000_100)
    deadline = time.monotonic() + 5
    again = _walk(ws)
    # the index hears of another program's write from the tree's watch
    while again["shop.auth.logout"] != (1, 2) and time.monotonic() < deadline:
        time.sleep(0.05)
        again = _walk(ws)
    assert again["shop.service.handle"] == (3, 0)
    assert again["shop.auth.logout"] == (1, 2)


def test_a_rewrite_of_the_same_size_is_read_again(ws: eddi.Workspace, shop: Path) -> None:
    auth = shop / "shop/auth.py"
    _aged(auth, 1_000_000_000)
    assert "shop.auth.logout" in _walk(ws)
    text = auth.read_text()
    auth.write_text(text.replace("def logout(user)", "def logoff(user)"))
    assert len(auth.read_text()) == len(text)
    _aged(auth, 1_000_000_100)
    names = {f.full_name for f in ws.functions()}
    assert "shop.auth.logoff" in names and "shop.auth.logout" not in names


def test_callers_of_another_languages_function(ws: eddi.Workspace, shop: Path) -> None:
    (shop / "shop/ui.js").write_text("function logout(user) {\n  return user;\n}\nlogout(1);\n")
    # a module label no script name spells: its path holds a '-'
    (shop / "shop/my-app").mkdir()
    (shop / "shop/my-app/pad.js").write_text(
        "export function pad(s) {\n  return s;\n}\nexport const twice = (s) => pad(pad(s));\n")
    (shop / "shop/my-app/use.ts").write_text(
        "import { pad } from './pad.js';\n\nexport function show(s: string) {\n  return pad(s);\n}\n")
    functions = ws.functions()
    [js] = [f for f in functions if f.path == "shop/ui.js"]
    assert (js.language, js.full_name) == ("javascript", "shop.ui.logout")
    assert [(c.path, c.line, c.text) for c in js.callers()] == [("shop/ui.js", 4, "logout(1)")]
    assert [(r.path, r.line, r.certain) for r in js.references()] == [("shop/ui.js", 4, True)]
    [pad] = [f for f in functions if f.name == "pad"]
    assert pad.full_name == "shop.my-app.pad.pad"
    calls = pad.callers()
    assert [(c.path, c.line, c.text) for c in calls] == [
        ("shop/my-app/pad.js", 4, "pad(pad(s))"), ("shop/my-app/pad.js", 4, "pad(s)"),
        ("shop/my-app/use.ts", 4, "pad(s)")]
    # the same answers through the scripting language's query, quoted
    assert [(c.path, c.line) for c in ws.select('caller of "shop.my-app.pad.pad"')] == [
        (c.path, c.line) for c in calls]
    # a call changed through the brace languages' index
    calls[2].replace("pad(s.trim())")
    assert "return pad(s.trim());" in (shop / "shop/my-app/use.ts").read_text()
    # Java's full names start with the package the file declares
    (shop / "shop/Cart.java").write_text(
        "package com.shop;\n\nclass Cart {\n    int total() {\n        return 1;\n    }\n\n"
        "    int twice() {\n        return total() + this.total();\n    }\n}\n")
    [total] = [f for f in ws.functions() if f.name == "total"]
    assert total.full_name == "com.shop.Cart.total"
    assert [c.text for c in total.callers()] == ["total()", "this.total()"]
    # the Python functions of the same walk still get their callers
    [py] = [f for f in functions if f.full_name == "shop.auth.logout"]
    assert py.language == "python"
    assert [c.path for c in py.callers()] == ["shop/service.py"]


def _plain(value: object) -> object:
    """A value read of a `_eddi.Row`, its nested rows made dicts."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, eddi._eddi.Row):
        return {key: _plain(value[key]) for key in value.keys()}
    return value


def _rows_and_json(ws: eddi.Workspace, params: Dict[str, object]) -> Tuple[object, "eddi._eddi.Found"]:
    engine = ws._backend._engine
    assert isinstance(engine, eddi._eddi.LocalEngine)
    text = json.dumps(params)
    envelope = json.loads(engine.call(ws.sender, "select", text))
    assert envelope["ok"], envelope
    found = engine.select_found(ws.sender, text)
    assert isinstance(found, eddi._eddi.Found), found
    return envelope["result"], found


@pytest.mark.parametrize("query", [
    "function", "class", "method in UserManager", 'file matching "*.py"', "import", "symbol of type variable",
    "caller of shop.auth.authenticate()", "match `authenticate($a, $b)`",
])
@pytest.mark.parametrize("text", [True, False])
def test_in_process_rows_read_as_the_json_of_select(ws: eddi.Workspace, shop: Path, query: str, text: bool) -> None:
    (shop / "shop/settings.py").write_text("TIMEOUT = 30\n")
    (ws_json, found) = _rows_and_json(ws, {"query": query, "text": text})
    assert isinstance(ws_json, dict)
    rows = found.rows()
    assert rows and found.reply == ws_json["reply"] and len(found) == len(rows)
    assert [_plain(r) for r in rows] == ws_json["elements"], query
    for row, element in zip(rows, ws_json["elements"]):
        # a key the JSON leaves out is not there either
        assert ("text" in row) == ("text" in element)
        assert row.get("text") == element.get("text") and row.get("nonsense", 7) == 7
        with pytest.raises(KeyError):
            row["nonsense"]


def test_in_process_answers_read_as_the_json_of_select(ws: eddi.Workspace) -> None:
    queries = ["caller of shop.auth.authenticate()", "caller of nowhere.f()", "caller of", "function"]
    (ws_json, found) = _rows_and_json(ws, {"queries": queries, "text": False})
    assert isinstance(ws_json, dict) and len(found) == len(queries)
    for i, answer in enumerate(ws_json["answers"]):
        read = found.answer(i)
        if "failure" in answer:
            failure = answer["failure"]
            assert read == (failure["code"], failure["message"], failure["candidates"])
        else:
            assert isinstance(read, list) and [_plain(r) for r in read] == answer["elements"]
    with pytest.raises(IndexError):
        found.answer(len(queries))
    with pytest.raises(ValueError):
        found.rows()


def test_elements_read_in_process_equal_those_read_as_json(ws: eddi.Workspace) -> None:
    """What the object model gives is the same through `_eddi.Row`s (in
    process) as through the JSON dicts (as over NATS)."""
    from eddi import _backend
    from eddi.elements import attributes

    def seen(workspace: eddi.Workspace) -> List[Dict[str, object]]:
        found = []
        for element in workspace.select("class") + workspace.functions() + workspace.files():
            values = attributes(element)
            values["methods"] = [attributes(m) for m in values.get("methods", [])]  # type: ignore[attr-defined]
            values["imports"] = [attributes(i) for i in values.get("imports", [])]  # type: ignore[attr-defined]
            found.append(values)
        return found

    class Json(_backend.Backend):
        def select(self, params: Dict[str, object]) -> _backend.Found:
            return _backend.JsonFound(self.call("select", params))

    in_process = seen(ws)
    over_json = eddi.Workspace(backend=Json(ws._backend._engine, ws.sender))
    assert seen(over_json) == in_process
    calls = {f.full_name: [attributes(c) for c in f.callers()] for f in over_json.functions()
             if f.full_name == "shop.auth.authenticate"}
    assert calls == {f.full_name: [attributes(c) for c in f.callers()] for f in ws.functions()
                     if f.full_name == "shop.auth.authenticate"}


def test_in_process_failures_are_the_engines(ws: eddi.Workspace) -> None:
    with pytest.raises(eddi.InvalidScript):
        ws.select("functoin")
    engine = ws._backend._engine
    assert isinstance(engine, eddi._eddi.LocalEngine)
    refused = engine.select_found(ws.sender, json.dumps({"query": "function", "nonsense": 1}))
    assert isinstance(refused, str) and json.loads(refused)["error"]["code"] == "invalid_params"


def test_a_walk_sees_files_added_changed_and_deleted_between_two_walks(ws: eddi.Workspace, shop: Path) -> None:
    # a tree older than the file list's SETTLED: its listing is kept
    # between two walks, vouched for by the directories' stamps
    time.sleep(2.3)
    first = _walk(ws)
    assert _walk(ws) == first
    assert "shop.auth.logout" in first
    (shop / "shop/extra.py").write_text("from shop.auth import logout\n\n\ndef bye(u):\n    logout(u)\n")
    (shop / "tests/test_users.py").unlink()
    (shop / "shop/pkg").mkdir()
    (shop / "shop/pkg/deep.py").write_text("def deep(x):\n    if x:\n        return 1\n    return 2\n")
    deadline = time.monotonic() + 5
    again = _walk(ws)
    # the index hears of another program's files from the tree's watch
    while again.get("shop.auth.logout") != (1, 2) and time.monotonic() < deadline:
        time.sleep(0.05)
        again = _walk(ws)
    assert again["shop.extra.bye"] == (1, 0)
    assert again["shop.pkg.deep.deep"] == (2, 0)
    assert again["shop.auth.logout"] == (1, 2)
    assert not [name for name in again if name.startswith("tests.")]
    assert set(first) - set(again) == {name for name in first if name.startswith("tests.")}


def test_a_refused_callers_leaves_no_cycle_behind(ws: eddi.Workspace, shop: Path) -> None:
    """A refusal raised from an element holds no cycle (frame, exception,
    traceback): a walk's elements are freed by reference counting when
    the walk lets go of them, not kept until a full collection."""
    (shop / "shop/dyn.py").write_text("def use(x):\n    x.find(2)\n")
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        functions = ws.functions()
        refused: List["weakref.ref[eddi.Function]"] = []
        for function in functions:
            try:
                function.callers()
            except eddi.Refused:
                refused.append(weakref.ref(function))
        assert refused, "the fixture has a function whose calls the index cannot prove"
        del functions, function
        assert [r() for r in refused if r() is not None] == []
    finally:
        if enabled:
            gc.enable()


def test_a_refusal_counts_every_unproven_call_and_names_the_first_ten(ws: eddi.Workspace, shop: Path) -> None:
    # `thing.get(...)` on an object the index cannot type: possibly Box.get
    (shop / "shop/box.py").write_text("class Box:\n    def get(self, key):\n        return key\n")
    (shop / "shop/many.py").write_text("def f(thing):\n" + "".join(f"    thing.get({n})\n" for n in range(12)))
    (shop / "shop/one.py").write_text("def g(thing):\n    return thing.get(0)\n")
    [get] = [f for f in ws.functions() if f.full_name == "shop.box.Box.get"]
    with pytest.raises(eddi.Refused) as refused:
        get.callers()
    message = refused.value.message
    # the fixture has `.get(` calls of its own: 13 of these files and more
    counted = int(message.split("cannot prove ", 1)[1].split(" ", 1)[0])
    assert counted >= 13 and "call(s) of shop.box.Box.get (" in message, message
    named = message.split(" (", 1)[1].split(")", 1)[0].split(", ")
    assert len(named) == 10 and all(site.startswith("shop/") for site in named), named
    # inside a foreach of one file: that file's calls alone are counted
    reply = ws.run('foreach file matching "one.py" { foreach caller of shop.box.Box.get() { flag "x" } }')
    assert not reply.ok
    assert "cannot prove 1 call(s) of shop.box.Box.get (shop/one.py:2)" in reply.text, reply.text
