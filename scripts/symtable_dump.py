"""Prints CPython's `symtable` view of Python files, one tab-separated line
per (scope, name): path, scope kind, scope name, line, occurrence, name,
category. Used by scripts/symtable-compare; `examples/scopes.rs` prints
Eddi's view in the same format.

Scope kinds: module, class, function, lambda, comprehension. Categories
(one per name, first that applies): param, global (declared), nonlocal,
import, local (bound here), free (bound in an enclosing function),
implicit (read here, bound in no enclosing function: module or builtin).
Compiler-made names (`.0`, `__class__`) are left out.

Usage: python3 symtable_dump.py ROOT [--snippet]  (paths relative to ROOT)
With --snippet ROOT is one file and the path column is left empty.
"""
import os
import sys
import symtable

COMPREHENSIONS = {"listcomp", "setcomp", "dictcomp", "genexpr"}


def category(sym):
    if sym.is_parameter():
        return "param"
    if sym.is_declared_global():
        return "global"
    if sym.is_nonlocal():
        return "nonlocal"
    if sym.is_imported():
        return "import"
    if sym.is_local():
        return "local"
    if sym.is_free():
        return "free"
    return "implicit"


def kind_of(table):
    t = table.get_type()
    if t == "module":
        return "module", ""
    if t == "class":
        return "class", table.get_name()
    name = table.get_name()
    if name == "lambda":
        return "lambda", "lambda"
    if name in COMPREHENSIONS:
        return "comprehension", "comprehension"
    return "function", name


def dump(path, table, seen, out):
    kind, name = kind_of(table)
    line = 0 if kind == "module" else table.get_lineno()
    key = (kind, name, line)
    occurrence = seen.get(key, 0)
    seen[key] = occurrence + 1
    for sym in table.get_symbols():
        n = sym.get_name()
        if n.startswith(".") or n == "__class__":
            continue
        out.append(f"{path}\t{kind}\t{name}\t{line}\t{occurrence}\t{n}\t{category(sym)}")
    for child in table.get_children():
        dump(path, child, seen, out)


def main():
    root = sys.argv[1]
    snippet = "--snippet" in sys.argv
    files = []
    if snippet:
        files = [root]
    else:
        for d, dirs, names in os.walk(root):
            dirs.sort()
            files.extend(os.path.join(d, n) for n in sorted(names) if n.endswith(".py"))
    out = []
    errors = 0
    for f in files:
        try:
            src = open(f, encoding="utf-8").read()
            table = symtable.symtable(src, f, "exec")
        except (SyntaxError, UnicodeDecodeError, ValueError) as e:
            errors += 1
            print(f"symtable: {f}: {e}", file=sys.stderr)
            continue
        rel = "" if snippet else os.path.relpath(f, root)
        dump(rel, table, {}, out)
    sys.stdout.write("".join(line + "\n" for line in out))
    if errors:
        print(f"{errors} files symtable could not read", file=sys.stderr)


main()
