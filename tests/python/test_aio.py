"""eddi.aio: the same API as coroutines, over the sync core in a thread pool."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import eddi
import eddi.aio
from conftest import snapshot


def test_the_async_api(shop: Path) -> None:
    async def main() -> None:
        ws = await eddi.aio.open_workspace(shop, sender="aio")
        classes = await ws.classes()
        manager = [c for c in classes if c.name == "UserManager"][0]
        # attributes are plain values that came with the element
        assert [m.name for m in manager.methods] == ["__init__", "normalize", "authenticate", "find"]
        assert manager.methods[2].complexity == 4
        function = await ws.symbol("shop.auth.authenticate")
        assert isinstance(function, eddi.aio.Function)
        calls, refs = await asyncio.gather(function.callers(), function.references())
        assert len(calls) == 3 and len(refs) >= 3
        assert [c.qualname for c in await manager.subclasses()] == ["AdminManager"]
        before = snapshot(shop)
        async with ws.transaction():
            for call in calls:
                await call.replace(f"authenticate({', '.join(call.args)}, timeout=30)")
        assert "timeout=30)" in (shop / "shop/service.py").read_text()
        await ws.undo()
        assert snapshot(shop) == before
        with pytest.raises(RuntimeError):
            async with ws.transaction():
                await calls[0].replace("authenticate(None)")
                raise RuntimeError("no")
        assert snapshot(shop) == before
        async with ws.changeset("aio-set") as cs:
            service = await ws.file("shop/service.py")
            await service.add_import("json")
        assert await cs.files() == ["shop/service.py"]
        assert "+import json" in await cs.preview()
        reply = await ws.run("List Changesets")
        assert reply.ok
        with pytest.raises(eddi.NotFound):
            await ws.symbol("nothing_here")
        assert [f.name for f in await ws.functions(where="complexity > 4")] == ["authenticate"]
        await ws.close()

    asyncio.run(main())


def test_overlapping_queries_of_one_sender(shop: Path) -> None:
    async def main() -> None:
        first = await eddi.aio.open_workspace(shop, sender="one")
        # gathered queries of one sender are served one at a time, in order
        results = await asyncio.gather(*(first.functions() for _ in range(8)))
        assert len({len(r) for r in results}) == 1
        await first.close()

    asyncio.run(main())


def test_async_parity_of_sources_where_and_reads_inside_a_transaction(shop: Path) -> None:
    async def main() -> None:
        ws = await eddi.aio.open_workspace(shop, sender="aio-parity")
        # an element's source is a plain value that came with it
        [login] = [f for f in await ws.functions() if f.name == "login"]
        assert login.source.startswith("def login(name, password):")
        assert [m.name for m in await ws.select("methods in UserManager", where="complexity > 2")] == [
            "authenticate", "find"]
        with pytest.raises(eddi.InvalidScript) as raised:
            await ws.functions(where="complexity > 1 and complexty > 3")
        assert raised.value.message.startswith("1:20:"), raised.value.message
        # the callers of a query's functions, asked together, as the sync API
        counts = {}
        for function in await ws.functions():
            try:
                counts[function.full_name] = len(await function.callers())
            except eddi.Refused:
                counts[function.full_name] = -1
        assert counts["shop.auth.authenticate"] == 3
        with pytest.raises(RuntimeError):
            async with ws.transaction():
                service = await ws.file("shop/service.py")
                await service.add_import("logging")
                again = await ws.file("shop/service.py")
                assert "logging" in [i.name for i in again.imports]
                raise RuntimeError("nothing written")
        assert "logging" not in (shop / "shop/service.py").read_text()
        await ws.close()

    asyncio.run(main())
