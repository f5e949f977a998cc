"""Errors are exceptions carrying the engine's data."""

from __future__ import annotations

from pathlib import Path

import pytest

import eddi


def test_not_found(ws: eddi.Workspace) -> None:
    with pytest.raises(eddi.NotFound) as raised:
        ws.symbol("no_such_thing")
    assert raised.value.code == "not_found"
    with pytest.raises(eddi.NotFound):
        ws.file("shop/missing.py")


def test_ambiguous_names_its_candidates(ws: eddi.Workspace) -> None:
    with pytest.raises(eddi.Ambiguous) as raised:
        ws.symbol("authenticate")
    assert raised.value.candidates == ["shop.auth.authenticate", "shop.users.UserManager.authenticate"]


def test_invalid_script_says_where_and_the_closest_word(ws: eddi.Workspace) -> None:
    with pytest.raises(eddi.InvalidScript) as raised:
        ws.functions(where="complexty > 3")
    assert raised.value.code == "invalid_command"
    assert raised.value.candidates[0] == "complexity"
    with pytest.raises(eddi.InvalidScript):
        ws.select("functions where")
    with pytest.raises(eddi.InvalidScript):
        ws.select("functions flag 'x'")  # a query alone, not a script


def test_an_eddi_error_is_an_exception_with_its_data(ws: eddi.Workspace) -> None:
    with pytest.raises(eddi.EddiError) as raised:
        ws.run("Open shop/auth.py; Goto 999:0", check=True)
    assert isinstance(raised.value, Exception)
    assert raised.value.code == "out_of_range"
    assert "999" in raised.value.message


def test_a_second_eddi_on_the_workspace_is_refused_naming_the_first(ws: eddi.Workspace, shop: Path) -> None:
    with pytest.raises(eddi.WorkspaceBusy) as raised:
        eddi.Workspace(shop, sender="another")
    assert "in use by another Eddi" in raised.value.message
    # another state directory is another Eddi
    other = eddi.Workspace(shop, sender="another", state_dir=str(shop / ".eddi-other"))
    assert other.functions(where="function.name == \"logout\"")[0].name == "logout"


def test_a_closed_workspace_says_so(shop: Path) -> None:
    ws = eddi.Workspace(shop, sender="x")
    ws.close()
    with pytest.raises(eddi.EddiError) as raised:
        ws.functions()
    assert raised.value.code == "closed"
    # closing let go of the state directory: another Eddi may hold it now
    with eddi.Workspace(shop, sender="x") as again:
        assert again.symbol("logout").name == "logout"
