"""Inventory service: fixture for Eddi's analysis tests."""
from __future__ import annotations

import os
import json as js
from collections import OrderedDict, defaultdict
from .models import Item as ModelItem, Stock
from ..util import *
import typing

MAX_ITEMS = 100
größe, count = 1, 2


def log(message, *args, level="info", **kwargs):
    print(message % args, level)


# Registry of handlers.
@staticmethod
@log_calls(level=2)
def register(name, handler=[]):
    handler.append(name)
    return handler


class Warehouse(Base):
    """A place with stock."""

    capacity = 10
    name: str = "main"

    class Shelf:
        def run(self):
            return [x for x in range(3) if x]

    def __init__(self, items=None):
        self.items = items or OrderedDict()
        unused = 3

    async def run(self, worker):
        try:
            await worker.go(lambda y: y and y.ok)
        except:
            pass
        return os.path.join("a", "b")

    @property
    def total(self):
        def helper(v):
            return v if v > 0 else 0
        return sum(helper(i) for i in self.items.values())


class Server:
    def run(self, port=8080):
        for attempt in range(3):
            if port and attempt > 1 or port is None:
                break
        else:
            return None
        while True:
            with open("x") as fh:
                assert fh and port
                break
        return js.dumps({"port": port})


def naïve_sum(values):
    total = 0
    for v in values:
        total += v  # TODO: overflow?
    return total


async def fetch(url):
    async with session.get(url) as resp:
        return await resp.text()
