"""The measurements of scripts/bench-python (run by it, in its venv).

    python scripts/bench_python.py <tree> [--repeat N] [--one eddi|libcst] [--state DIR]

Each side walks every function and method of <tree> with its complexity
and its callers count:

- Eddi: ``ws.functions()`` (complexity comes with each element), its
  Python ones, then ``fn.callers()`` for each — the calls the index proves; a function with
  calls the index cannot prove is refused (``eddi.Refused``) and counted
  as such, never guessed.
- LibCST: every module parsed (``libcst.parse_module``), one visitor
  collecting the functions (with their class) and every call's callee
  name, radon's ``cc_visit`` for complexity; a function's callers count is
  the number of calls whose callee's last name is the function's (what a
  per-module tool can tell without a project model: it over-counts
  same-named functions and methods).

Cold is a new process (Eddi: a new, empty state directory, so the index
is built); warm is the same walk again in that process. The parent runs
each cold measurement in a child process and prints the table: wall
time, and the process's CPU time (all its threads) — on a machine other
work loads, the fairer figure of the two.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List


def eddi_walk(ws: Any) -> Dict[str, int]:
    import eddi

    # Python's, as LibCST's side reads only them (a tree's JavaScript is
    # found too, its callers asked of the brace languages' index)
    functions = [f for f in ws.functions() if f.language == "python"]
    proven = refused = 0
    for function in functions:
        try:
            proven += len(function.callers())
        except eddi.Refused:
            refused += 1
    return {"functions": len(functions), "calls": proven, "refused": refused,
            "complexity": sum(f.complexity for f in functions)}


def run_eddi(tree: str, repeat: int) -> Dict[str, Any]:
    import eddi

    with tempfile.TemporaryDirectory() as state:
        started, cpu = time.perf_counter(), time.process_time()
        ws = eddi.Workspace(tree, sender="bench", state_dir=state)
        cold = eddi_walk(ws)
        cold_s, cold_cpu = time.perf_counter() - started, time.process_time() - cpu
        warm: List[float] = []
        warm_cpu: List[float] = []
        for _ in range(repeat):
            started, cpu = time.perf_counter(), time.process_time()
            again = eddi_walk(ws)
            warm.append(time.perf_counter() - started)
            warm_cpu.append(time.process_time() - cpu)
            assert again == cold, (again, cold)
        ws.close()
    return {"cold_s": cold_s, "warm_s": warm, "cold_cpu": cold_cpu, "warm_cpu": warm_cpu, **cold}


def libcst_walk(tree: Path) -> Dict[str, int]:
    import libcst as cst
    from radon.complexity import cc_visit

    class Collect(cst.CSTVisitor):
        def __init__(self) -> None:
            self.functions: List[str] = []
            self.calls: Counter[str] = Counter()

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.functions.append(node.name.value)

        def visit_Call(self, node: cst.Call) -> None:
            callee = node.func
            if isinstance(callee, cst.Attribute):
                self.calls[callee.attr.value] += 1
            elif isinstance(callee, cst.Name):
                self.calls[callee.value] += 1

    functions: List[str] = []
    calls: Counter[str] = Counter()
    complexity = 0
    for path in sorted(tree.rglob("*.py")):
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            module = cst.parse_module(source)
        except Exception:
            continue
        visitor = Collect()
        module.visit(visitor)
        functions += visitor.functions
        calls.update(visitor.calls)
        try:
            for block in cc_visit(source):
                complexity += block.complexity
        except SyntaxError:
            pass
    return {"functions": len(functions), "calls": sum(calls[f] for f in functions), "complexity": complexity}


def run_libcst(tree: str, repeat: int) -> Dict[str, Any]:
    started, cpu = time.perf_counter(), time.process_time()
    cold = libcst_walk(Path(tree))
    cold_s, cold_cpu = time.perf_counter() - started, time.process_time() - cpu
    warm = []
    warm_cpu = []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        libcst_walk(Path(tree))
        warm.append(time.perf_counter() - started)
        warm_cpu.append(time.process_time() - cpu)
    return {"cold_s": cold_s, "warm_s": warm, "cold_cpu": cold_cpu, "warm_cpu": warm_cpu, **cold}


def child(tree: str, which: str, repeat: int) -> Dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, tree, "--one", which, "--repeat", str(repeat)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{which} failed:\n{done.stderr}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    args = sys.argv[1:]
    tree = args[0]
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
    if "--one" in args:
        which = args[args.index("--one") + 1]
        result = run_eddi(tree, repeat) if which == "eddi" else run_libcst(tree, repeat)
        print(json.dumps(result))
        return
    eddi_result = child(tree, "eddi", repeat)
    libcst_result = child(tree, "libcst", max(1, repeat // 3))
    e_warm = statistics.median(eddi_result["warm_s"])
    l_warm = statistics.median(libcst_result["warm_s"])
    e_warm_cpu = statistics.median(eddi_result["warm_cpu"])
    l_warm_cpu = statistics.median(libcst_result["warm_cpu"])
    files = sum(1 for _ in Path(tree).rglob("*.py"))
    print(f"\nDjango tree: {tree} ({files} .py files)\n")
    print("| walk: every function and method, complexity, callers count | cold | warm (median) | cold CPU | warm CPU (median) |")
    print("|---|---|---|---|---|")
    print(f"| Eddi (`import eddi`, in-process, release) | {eddi_result['cold_s']:.2f} s | {e_warm:.2f} s "
          f"| {eddi_result['cold_cpu']:.2f} s | {e_warm_cpu:.2f} s |")
    print(f"| LibCST + radon | {libcst_result['cold_s']:.2f} s | {l_warm:.2f} s "
          f"| {libcst_result['cold_cpu']:.2f} s | {l_warm_cpu:.2f} s |")
    print(f"| LibCST / Eddi | {libcst_result['cold_s'] / eddi_result['cold_s']:.1f}× | {l_warm / e_warm:.1f}× "
          f"| {libcst_result['cold_cpu'] / eddi_result['cold_cpu']:.1f}× | {l_warm_cpu / e_warm_cpu:.1f}× |")
    print()
    print(f"Eddi: {eddi_result['functions']} functions and methods, {eddi_result['calls']} proven calls, "
          f"{eddi_result['refused']} functions with calls the index cannot prove (refused, not guessed), "
          f"complexity sum {eddi_result['complexity']}; warm runs: {', '.join(f'{s:.2f}' for s in eddi_result['warm_s'])} s")
    print(f"LibCST: {libcst_result['functions']} functions and methods, {libcst_result['calls']} calls by name, "
          f"complexity sum (radon, every block) {libcst_result['complexity']}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
