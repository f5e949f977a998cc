"""One rename with rope (run by scripts/bench-refactor inside its venv).

Usage: python bench_refactor_rope.py <root> <file> <line> <old> <new> [--in-hierarchy]
Renames the definition named <old> on (1-based) <line> of <file>, across
the project at <root>, and writes the result to disk. Prints one JSON line:
the seconds rope took to compute the change and to write it (wall) and
its CPU time for both, the files
it changed and the files left out because they do not parse.
"""

import ast
import json
import os
import sys
import time
import warnings

from rope.base.project import Project
from rope.refactor.rename import Rename

root, path, line, old, new = sys.argv[1:6]
in_hierarchy = "--in-hierarchy" in sys.argv[6:]


def parses(path):
    # rope stops at the first module it cannot parse (Django's tests hold a
    # few on purpose): those are left out of its search, before the clock
    with open(path, "rb") as f:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(f.read())
            return True
        except (SyntaxError, ValueError):
            return False


python_files, skipped = [], []
for folder, dirs, names in os.walk(root):
    dirs[:] = sorted(d for d in dirs if not d.startswith("."))
    for name in sorted(names):
        if name.endswith(".py"):
            full = os.path.join(folder, name)
            (python_files if parses(full) else skipped).append(os.path.relpath(full, root))
t0, c0 = time.perf_counter(), time.process_time()
# ropefolder=None: no .ropeproject cache, so every run starts cold, as
# rope's own default first run does; validation off: the tree is fresh
project = Project(root, ropefolder=None)
resource = project.get_resource(path)
source = resource.read()
lines = source.splitlines(keepends=True)
row = lines[int(line) - 1]
offset = sum(len(text) for text in lines[: int(line) - 1]) + row.index(old)
changes = Rename(project, resource, offset).get_changes(
    new,
    docs=False,
    in_hierarchy=in_hierarchy,
    unsure=None,
    resources=[project.get_resource(p) for p in python_files],
)
t1 = time.perf_counter()
project.do(changes)
t2, c2 = time.perf_counter(), time.process_time()
project.close()
files = sorted(r.path for r in changes.get_changed_resources())
print(json.dumps({"compute_s": t1 - t0, "write_s": t2 - t1, "cpu_s": c2 - c0, "files": files, "skipped": skipped}))
