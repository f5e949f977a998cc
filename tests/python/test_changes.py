"""Changes: edits, transactions (all or nothing, one undo step),
changesets (persisted, found by name from another process), refactors."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import eddi
from conftest import snapshot


def callers_of_authenticate(ws: eddi.Workspace) -> list:
    function = ws.symbol("shop.auth.authenticate")
    assert isinstance(function, eddi.Function)
    return function.callers()


def test_transaction_writes_every_edit_as_one_undo_step(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    with ws.transaction() as tx:
        for call in callers_of_authenticate(ws):
            call.replace(f"authenticate({', '.join(call.args)}, timeout=30)")
        users = ws.file("shop/users.py")
        [unused] = [i for i in users.imports if i.unused]
        unused.remove()
        ws.file("shop/service.py").add_import("logging")
        ws.file("shop/service.py").add_line("log = logging.getLogger(__name__)")
    assert tx.report["files"] == ["shop/service.py", "shop/users.py"]
    service = (shop / "shop/service.py").read_text()
    assert "authenticate(request.user, request.password, timeout=30)" in service
    assert "import logging\n" in service and "log = logging.getLogger(__name__)\n" in service
    users_text = (shop / "shop/users.py").read_text()
    assert "import logging" not in users_text
    assert "return authenticate(user, password, timeout=30)" in users_text
    assert "authenticate(name, password, timeout=30)" in users_text
    ws.undo()
    assert snapshot(shop) == before


def test_a_transaction_that_raises_leaves_every_file_as_it_was(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    with pytest.raises(RuntimeError):
        with ws.transaction():
            for call in callers_of_authenticate(ws):
                call.replace("authenticate(None, None)")
            ws.file("shop/users.py").imports[0].remove()
            raise RuntimeError("the caller changed its mind")
    assert snapshot(shop) == before
    # and nothing is left waiting: the next edit is alone
    ws.file("shop/users.py").imports[0].remove()
    assert "import logging" not in (shop / "shop/users.py").read_text()
    assert snapshot(shop)["shop/service.py"] == before["shop/service.py"]


def test_a_transaction_that_would_break_a_file_writes_nothing(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    with pytest.raises(eddi.EddiError) as raised:
        with ws.transaction():
            ws.file("shop/service.py").imports[0].remove()  # authenticate is still called
    assert "not defined" in raised.value.message
    assert snapshot(shop) == before


def test_an_edit_of_an_element_whose_file_changed_is_a_conflict(ws: eddi.Workspace, shop: Path) -> None:
    [call] = [c for c in callers_of_authenticate(ws) if c.path == "shop/service.py"]
    path = shop / "shop/service.py"
    path.write_text("\n\n" + path.read_text())  # the call moved two lines down
    before = snapshot(shop)
    with pytest.raises(eddi.Conflict):
        call.replace("authenticate(None, None)")
    assert snapshot(shop) == before


def test_edits_outside_a_transaction_are_one_step_each(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    service = ws.file("shop/service.py")
    service.add_import("json")
    service.add_import("json")  # never twice
    assert (shop / "shop/service.py").read_text().count("import json") == 1
    ws.undo()
    assert snapshot(shop) == before
    ws.redo()
    assert (shop / "shop/service.py").read_text().count("import json") == 1


def run_in_new_process(root: Path, code: str) -> str:
    program = "import eddi\nws = eddi.Workspace(%r, sender='pytest')\n" % str(root) + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_changeset_collected_in_one_process_is_rolled_back_from_another(shop: Path) -> None:
    before = snapshot(shop)
    out = run_in_new_process(shop, """
        fn = ws.symbol("shop.auth.authenticate")
        with ws.changeset("timeouts") as cs:
            for call in fn.callers():
                call.replace("authenticate(%s, timeout=30)" % ", ".join(call.args))
        print(cs.files)
        print(cs.preview())
    """)
    assert "['shop/service.py', 'shop/users.py']" in out
    assert "+    ok = authenticate(request.user, request.password, timeout=30)" in out
    assert snapshot(shop) == before  # collected: nothing written
    run_in_new_process(shop, """
        cs = ws.changeset("timeouts")
        assert cs.state == "not applied", cs.state
        cs.apply()
    """)
    assert "timeout=30" in (shop / "shop/service.py").read_text()
    run_in_new_process(shop, """
        ws.changeset("timeouts").rollback()
    """)
    assert snapshot(shop) == before


def test_refactor_and_refactor_inside_a_transaction(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    reply = ws.refactor("Rename_Class", "UserManager", "AccountManager")
    assert reply.ok
    assert "AccountManager(store={})" in (shop / "shop/service.py").read_text()
    ws.undo()
    assert snapshot(shop) == before
    with ws.transaction():
        ws.refactor("rename_class", "UserManager", "AccountManager")
        ws.file("shop/service.py").add_import("json")
    service = (shop / "shop/service.py").read_text()
    assert "AccountManager" in service and "import json" in service
    ws.undo()
    assert snapshot(shop) == before


def test_a_refactoring_refused_for_safety_is_refused(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    ws.run("Open shop/auth.py", check=True)
    with pytest.raises(eddi.Refused) as raised:
        ws.refactor("Extract_Method", "helper", "lines 10:12")  # cuts an `if`
    assert raised.value.code == "not_applicable"
    with pytest.raises(eddi.Conflict):
        ws.refactor("Rename_Class", "UserManager", "AdminManager")  # the name is taken
    assert snapshot(shop) == before


def test_a_transaction_inside_another_joins_it(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    with pytest.raises(RuntimeError):
        with ws.transaction():
            with ws.transaction():
                ws.file("shop/service.py").add_import("json")
            # the inner one wrote nothing: it is the outer one's
            assert snapshot(shop) == before
            raise RuntimeError("outer fails")
    assert snapshot(shop) == before
    with ws.transaction():
        with ws.transaction():
            ws.file("shop/service.py").add_import("json")
        ws.file("shop/users.py").add_import("os")
    ws.undo()  # one step
    assert snapshot(shop) == before
    with pytest.raises(ValueError):
        with ws.transaction():
            with ws.changeset("inner"):
                pass


def test_twin_calls_on_one_line_are_refused_not_both_replaced(ws: eddi.Workspace, shop: Path) -> None:
    (shop / "shop/twins.py").write_text("from shop.auth import logout\n\nlogout(1); logout(1)\n")
    before = snapshot(shop)
    logout = ws.symbol("shop.auth.logout")
    assert isinstance(logout, eddi.Function)
    twins = [c for c in logout.callers() if c.path == "shop/twins.py"]
    assert len(twins) == 2
    with pytest.raises(eddi.Refused):
        twins[0].replace("logout(2)")
    assert snapshot(shop) == before
