"""Queries inside a transaction or changeset see its edits so far, as a
script's statements see the earlier ones'; an edit of an element read
after earlier edits finds it where they left it; what cannot see them
(the index's references) refuses instead of answering stale."""

from __future__ import annotations

from pathlib import Path

import pytest

import eddi
from conftest import snapshot


def test_a_query_inside_a_transaction_sees_its_edits_so_far(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    with pytest.raises(RuntimeError):
        with ws.transaction():
            service = ws.file("shop/service.py")
            assert [i.name for i in service.imports] == ["authenticate", "logout", "UserManager"]
            service.add_import("logging")
            again = ws.file("shop/service.py")
            assert "logging" in [i.name for i in again.imports]
            assert "import logging" in again.source
            # the callers found now are where the added import moved them
            authenticate = ws.symbol("shop.auth.authenticate")
            assert isinstance(authenticate, eddi.Function)
            lines = {(c.path, c.line) for c in authenticate.callers()}
            assert ("shop/service.py", 7) in lines
            handle = ws.functions(path="shop/service.py", where="params.count == 1")[0]
            assert handle.line == 6
            raise RuntimeError("nothing written")
    assert snapshot(shop) == before


def test_an_element_read_after_edits_is_edited_where_they_left_it(ws: eddi.Workspace, shop: Path) -> None:
    with ws.transaction():
        ws.file("shop/service.py").add_import("logging")
        authenticate = ws.symbol("shop.auth.authenticate")
        assert isinstance(authenticate, eddi.Function)
        for call in authenticate.callers():
            call.replace(f"authenticate({', '.join(call.args)}, timeout=30)")
        # an element read before the edits is still found where it was
    service = (shop / "shop/service.py").read_text()
    assert service.startswith("import logging\n") or "\nimport logging\n" in service
    assert "authenticate(request.user, request.password, timeout=30)" in service
    users = (shop / "shop/users.py").read_text()
    assert "return authenticate(user, password, timeout=30)" in users


def test_elements_read_before_and_after_an_edit_in_one_transaction(ws: eddi.Workspace, shop: Path) -> None:
    users = ws.file("shop/users.py")  # read before the transaction
    with ws.transaction():
        ws.file("shop/service.py").add_import("logging")
        users.add_line("LIMIT = 3")
        make = ws.functions(path="shop/service.py", where="params.count == 0")[0]
        assert make.name == "make" and make.line == 13
        assert make.source.startswith("def make")
        ws.file("shop/service.py").add_line("TIMEOUT = 30")
    text = (shop / "shop/users.py").read_text()
    assert "LIMIT = 3\n" in text
    assert "TIMEOUT = 30\n" in (shop / "shop/service.py").read_text()


def test_a_changeset_sees_its_own_edits_and_writes_nothing(ws: eddi.Workspace, shop: Path) -> None:
    before = snapshot(shop)
    with ws.changeset("seen") as cs:
        ws.file("shop/service.py").add_import("logging")
        assert "logging" in [i.name for i in ws.file("shop/service.py").imports]
    assert snapshot(shop) == before
    assert cs.files == ["shop/service.py"]


def test_references_inside_a_transaction_with_edits_refuse(ws: eddi.Workspace, shop: Path) -> None:
    logout = ws.symbol("logout")
    assert isinstance(logout, eddi.Function)
    with ws.transaction():
        assert len(logout.references()) == 2  # nothing collected yet: the disk is the truth
        ws.file("shop/service.py").add_import("logging")
        with pytest.raises(eddi.Refused) as raised:
            logout.references()
        assert raised.value.code == "not_applicable"
    assert "import logging" in (shop / "shop/service.py").read_text()
