"""docs/PYTHON.md's examples run as written, and type-check."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO

DOC = REPO / "docs" / "PYTHON.md"
NEEDS_SERVICE = "# needs: eddi serve"


def examples() -> list:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 8, "docs/PYTHON.md lost its examples"
    return blocks


@pytest.mark.parametrize("index", range(len(examples())))
def test_each_example_runs_as_written(index: int, tmp_path: Path) -> None:
    code = examples()[index]
    if code.startswith(NEEDS_SERVICE):
        pytest.skip("needs a running eddi serve: type-checked only (test_nats.py runs eddi.connect)")
    shutil.copytree(FIXTURES / "shop", tmp_path, dirs_exist_ok=True)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"example {index} failed:\n{code}\n{done.stderr}"


def test_the_examples_type_check(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    for index, code in enumerate(examples()):
        (tmp_path / f"example_{index}.py").write_text(code)
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
