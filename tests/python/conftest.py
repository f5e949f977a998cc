"""Fixtures of the Python API's tests: a copy of a fixture project per
test (real files in a temporary directory) and a Workspace on it."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Dict, Iterator

import pytest

import eddi

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "shop", root)
    return root


@pytest.fixture
def ws(shop: Path) -> Iterator[eddi.Workspace]:
    workspace = eddi.Workspace(shop, sender="pytest")
    yield workspace
    workspace.close()


def snapshot(root: Path) -> Dict[str, str]:
    """Every file of the tree but the state directory, by content hash."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".eddi" not in path.relative_to(root).parts:
            found[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def eddi_binary() -> Path:
    """The `eddi` binary of this build (the NATS tests start `eddi serve`)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    binary = target / "debug" / "eddi"
    if not binary.exists():
        pytest.fail(f"{binary} is missing: build it with cargo build (scripts/test-python does)")
    return binary
