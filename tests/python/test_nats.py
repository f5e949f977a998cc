"""eddi.connect: the same API against a running `eddi serve`, over a real
nats-server (both started here, on a free port)."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Iterator

import pytest

import eddi
import eddi.aio
from conftest import eddi_binary, snapshot


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def service(shop: Path) -> Iterator[str]:
    if shutil.which("nats-server") is None:
        pytest.fail("nats-server is not on PATH: scripts/install-tools installs it")
    port = free_port()
    broker = subprocess.Popen(["nats-server", "-a", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"nats://127.0.0.1:{port}"
    server = None
    try:
        deadline = time.time() + 20
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert time.time() < deadline, "nats-server did not listen"
            time.sleep(0.05)
        server = subprocess.Popen([str(eddi_binary()), "serve", "--root", str(shop), "--nats-url", url],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert server.stdout is not None
        for line in server.stdout:  # it says how to reach it once it serves
            if "eddi: send commands with: " in line:
                break
        else:
            pytest.fail("eddi serve exited before serving")
        # it says so just before it subscribes: wait until it answers
        deadline = time.time() + 20
        while True:
            try:
                eddi.connect(url, sender="probe").run("Status")
                break
            except eddi.TransportError:
                assert time.time() < deadline, "eddi serve never answered tools.call"
                time.sleep(0.05)
        yield url
    finally:
        for child in (server, broker):
            if child is not None:
                child.terminate()
                child.wait(timeout=20)


def test_connect_gives_the_same_api_over_nats(service: str, shop: Path) -> None:
    ws = eddi.connect(service, sender="remote")
    manager = ws.symbol("shop.users.UserManager")
    assert isinstance(manager, eddi.Class)
    assert [(m.name, m.complexity) for m in manager.methods] == [
        ("__init__", 1), ("normalize", 1), ("authenticate", 4), ("find", 3)]
    function = ws.symbol("shop.auth.authenticate")
    assert isinstance(function, eddi.Function)
    calls = function.callers()
    assert [(c.path, c.line) for c in calls] == [("shop/service.py", 6), ("shop/users.py", 28), ("shop/users.py", 47)]
    before = snapshot(shop)
    with pytest.raises(KeyError):
        with ws.transaction():
            calls[0].replace("authenticate(None)")
            raise KeyError("no")
    assert snapshot(shop) == before
    with ws.transaction():
        for call in calls:
            call.replace(f"authenticate({', '.join(call.args)}, timeout=30)")
    assert "authenticate(request.user, request.password, timeout=30)" in (shop / "shop/service.py").read_text()
    ws.undo()
    assert snapshot(shop) == before
    with pytest.raises(eddi.Ambiguous) as raised:
        ws.symbol("authenticate")
    assert raised.value.candidates == ["shop.auth.authenticate", "shop.users.UserManager.authenticate"]
    with ws.changeset("remote-set") as cs:
        ws.file("shop/service.py").add_import("json")
    # the changeset is the service's: another client of the sender finds it
    again = eddi.connect(service, sender="remote")
    assert again.changeset("remote-set").files == ["shop/service.py"]
    assert ws.run("Status").ok


def test_async_connect(service: str) -> None:
    async def main() -> None:
        ws = await eddi.aio.connect(service, sender="remote-aio")
        found = await ws.functions(where="complexity > 4")
        assert [f.full_name for f in found] == ["shop.auth.authenticate"]
        assert len(await found[0].callers()) == 3

    asyncio.run(main())


def test_no_service_is_a_transport_error() -> None:
    with pytest.raises(eddi.TransportError):
        eddi.connect(f"nats://127.0.0.1:{free_port()}", sender="x")
