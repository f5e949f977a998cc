#!/usr/bin/env python3
"""Drives `eddi mcp` with the MCP Python SDK (a real MCP client), as an agent
would: initialize -> tools/list -> every tool -> errors -> an editing session.

Usage: mcp_driver.py EDDI_BINARY ROOT EXPECTED_JSON
       mcp_driver.py --http URL EXPECTED_JSON   (a running `eddi mcp --http`
       on the same project: list, read, edit with the hash, the guide)
       mcp_driver.py --refactor EDDI_BINARY ROOT CASES_JSON   (every
       refactoring tool, replace_in_files and run_script: preview, apply, undo,
       errors, a read-only server;
       CASES_JSON: [{"tool", "params", "files": {path: text after}}])
  ROOT holds the project tests/wire/tools_mcp.rs wrote (shop.py, app.py);
  EXPECTED_JSON: {"tools": {name: read_only, ...}} from the Rust registry.
Prints one line per check group and "mcp-driver: N checks passed"; exits 1
on the first failed check. tests/wire/tools_mcp.rs runs it and then checks the
files it left, byte for byte.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

CHECKS = 0


def check(condition, what, got=None):
    global CHECKS
    if not condition:
        print(f"FAILED: {what}: {got!r}", file=sys.stderr)
        sys.exit(1)
    CHECKS += 1


async def call(session, tool, args):
    """The tool's JSON result, and whether it failed."""
    result = await session.call_tool(tool, args)
    check(len(result.content) == 1, f"{tool}: one content block", result.content)
    return json.loads(result.content[0].text), bool(result.is_error)


async def ok(session, tool, args):
    value, failed = await call(session, tool, args)
    check(not failed, f"{tool} {args} succeeds", value)
    return value


async def err(session, tool, args):
    value, failed = await call(session, tool, args)
    check(failed, f"{tool} {args} fails", value)
    return value["error"]


def server(eddi, root, *extra):
    return StdioServerParameters(command=eddi, args=["mcp", "--root", root, "--sender", "agent", *extra])


async def main(eddi, root, expected):
    async with stdio_client(server(eddi, root)) as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            check(init.server_info.name == "eddi", "server name", init.server_info)
            check("edit_lines" in (init.instructions or ""), "instructions", init.instructions)

            # tools/list: the registry, with hints from the effects
            listed = (await s.list_tools()).tools
            check(sorted(t.name for t in listed) == sorted(expected["tools"]), "tool names", [t.name for t in listed])
            for t in listed:
                read_only = expected["tools"][t.name]
                check(t.annotations.read_only_hint == read_only, f"{t.name} readOnlyHint", t.annotations)
                check(t.annotations.destructive_hint == (not read_only), f"{t.name} destructiveHint", t.annotations)
                check(t.input_schema.get("type") == "object", f"{t.name} schema", t.input_schema)
                check(len(t.description) > 80, f"{t.name} description", t.description)
            print("tools/list: ok")

            # the guide
            resources = (await s.list_resources()).resources
            check([str(r.uri) for r in resources] == ["eddi://guide"], "resources", resources)
            guide = (await s.read_resource("eddi://guide")).contents[0].text
            for name in expected["tools"]:
                check(f"`{name}`" in guide, f"guide names {name}")
            print("guide: ok")

            # every read, search and analysis tool on the real files
            lines = await ok(s, "get_lines", {"path": "shop.py", "start": 4, "end": 5})
            check(lines["text"] == "4\t    def total(self):\n5\t        if self.items:", "get_lines text", lines)
            total = await ok(s, "get_function", {"name": "Cart.total"})
            check((total["path"], total["line"], total["end_line"]) == ("shop.py", 4, 7), "get_function", total)
            cart = await ok(s, "get_class", {"name": "Cart"})
            check(cart["text"].startswith("class Cart:"), "get_class", cart)
            structure = await ok(s, "get_structure", {})
            check(structure["files"][1] == {"path": "shop.py", "outline": ["class Cart@0: add, total", "async def checkout@10"]},
                  "get_structure", structure)
            refs = await ok(s, "find_references", {"symbol": "shop.Cart"})
            check(refs["detail"] == "full" and any(r["path"] == "app.py" and r["line"] == 2 for r in refs["references"]),
                  "find_references", refs)
            small = await ok(s, "find_references", {"symbol": "shop.Cart", "max_chars": 150})
            check(small["detail"] == "per_file" and sum(small["references"].values()) == refs["count"], "budget", small)
            definition = await ok(s, "find_definition", {"symbol": "checkout"})
            check(definition["definitions"][0]["path"] == "shop.py", "find_definition", definition)
            callers = await ok(s, "find_callers", {"function": "shop.Cart.total"})
            check(callers["callers"][0]["in_symbol"] == "shop.checkout", "find_callers", callers)
            deps = await ok(s, "get_dependencies", {"path": "app.py"})
            check(deps["imports"][0]["module"] == "shop", "get_dependencies", deps)
            dependents = await ok(s, "get_dependents", {"path": "shop.py"})
            check(dependents["dependents"] == [{"module": "app", "path": "app.py"}], "get_dependents", dependents)
            complexity = await ok(s, "get_complexity", {})
            check(complexity["blocks"][0]["complexity"] >= complexity["blocks"][-1]["complexity"], "sorted", complexity)
            todos = await ok(s, "get_todos", {})
            check(todos["todos"] == [{"path": "shop.py", "line": 11, "col": 4, "text": "TODO: taxes"}], "get_todos", todos)
            check((await ok(s, "validate", {"path": "shop.py"}))["valid"] is True, "validate")
            print("read, search, analysis: ok")

            # errors: bad params by field, jail, unknown names, stale hash
            bad = await err(s, "edit_lines", {"path": "shop.py", "start": "four", "content": ""})
            check((bad["code"], bad["field"]) == ("invalid_params", "start"), "bad param", bad)
            typo = await err(s, "get_lines", {"paht": "shop.py"})
            check(typo["field"] == "paht" and "path" in typo["candidates"], "unknown field", typo)
            jail = await err(s, "get_lines", {"path": "../outside.py"})
            check("escapes the workspace" in jail["message"], "jail", jail)
            unknown = await err(s, "find_references", {"symbol": "Crat"})
            check(unknown["code"] == "not_found" and unknown["candidates"], "unknown symbol", unknown)
            print("errors: ok")

            # an agent's session: look, find, edit with the hash, rename, validate, undo
            found = await ok(s, "find_callers", {"function": "checkout"})
            site = found["callers"][0]
            check((site["path"], site["line"]) == ("app.py", 4), "the call to change", site)
            view = await ok(s, "get_lines", {"path": "app.py", "start": site["line"], "end": site["line"]})
            edited = await ok(s, "edit_lines", {"path": "app.py", "start": 4, "content": "total = checkout(cart)",
                                                "expected_hash": view["hash"]})
            check(edited["removed"] == 1 and edited["inserted"] == 1, "edit_lines", edited)
            stale = await err(s, "edit_lines", {"path": "app.py", "start": 4, "content": "x",
                                                "expected_hash": view["hash"]})
            check(stale["code"] == "stale" and stale["current_hash"] == edited["hash"]
                  and stale["current_text"] == "total = checkout(cart)", "stale", stale)
            appended = await ok(s, "edit_lines", {"path": "app.py", "start": 5, "end": 4, "content": "print(total)",
                                                  "expected_hash": edited["hash"]})
            check(appended["total_lines"] == 6, "append", appended)
            renamed = await ok(s, "eddi", {"command": "Open shop.py; Modify Method Cart.add Rename put; Save"})
            check("Modified method Cart.put" in renamed["reply"] or "Modified" in renamed["reply"], "rename", renamed)
            await ok(s, "edit_lines", {"path": "app.py", "start": 3, "content": "cart.put(1)"})
            broken = await ok(s, "edit_lines", {"path": "app.py", "start": 5, "content": "print(total"})
            invalid = await ok(s, "validate", {"path": "app.py"})
            check(invalid["valid"] is False and invalid["errors"][0]["line"] == 5, "validate finds it", invalid)
            undone = await ok(s, "undo", {"path": "app.py"})
            check(undone["files"] == ["app.py"], "undo", undone)
            check((await ok(s, "validate", {"path": "app.py"}))["valid"] is True, "valid again")
            created = await ok(s, "create_file", {"path": "notes/todo.txt", "content": "rename done\n"})
            check(created["total_lines"] == 1, "create_file", created)
            await ok(s, "create_file", {"path": "scratch.py", "content": "x = 1\n"})
            deleted = await ok(s, "delete_file", {"path": "scratch.py"})
            check(deleted["files"] == ["scratch.py"], "delete_file", deleted)
            print("agent session: ok")

    # a read-only sender: looks, never writes
    async with stdio_client(server(eddi, root, "--read-only")) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            await ok(s, "get_lines", {"path": "app.py"})
            denied = await err(s, "edit_lines", {"path": "app.py", "start": 0, "content": "x"})
            check(denied["code"] == "permission_denied", "read-only refused", denied)
            denied = await err(s, "delete_file", {"path": "app.py"})
            check(denied["code"] == "permission_denied", "read-only refused delete", denied)
            print("read-only: ok")

    print(f"mcp-driver: {CHECKS} checks passed")


async def over_http(url, expected):
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as s:
            await s.initialize()
            listed = (await s.list_tools()).tools
            check(sorted(t.name for t in listed) == sorted(expected["tools"]), "tool names over HTTP", listed)
            guide = (await s.read_resource("eddi://guide")).contents[0].text
            check("`edit_lines`" in guide, "guide over HTTP")
            lines = await ok(s, "get_lines", {"path": "app.py", "start": 0, "end": 0})
            await ok(s, "edit_lines", {"path": "app.py", "start": 0, "end": -1, "content": "import os",
                                       "expected_hash": lines["hash"]})
            stale = await err(s, "edit_lines", {"path": "app.py", "start": 0, "content": "x",
                                                "expected_hash": lines["hash"]})
            check(stale["code"] == "stale", "stale over HTTP", stale)
            print("streamable HTTP: ok")
    print(f"mcp-driver: {CHECKS} checks passed")


def read(root, path):
    with open(f"{root}/{path}", encoding="utf-8") as f:
        return f.read()


def snapshot(root):
    return {p: read(root, p) for p in ("app.py", "shop.py", "calc.py")}


async def refactors(eddi, root, cases):
    before = snapshot(root)
    async with stdio_client(server(eddi, root)) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            listed = {t.name: t for t in (await s.list_tools()).tools}
            for case in cases:
                hints = listed[case["tool"]].annotations
                check(hints.read_only_hint is False and hints.destructive_hint is True,
                      f"{case['tool']} hints: destructive unless preview", hints)
            for case in cases:
                tool, params, after = case["tool"], dict(case["params"]), case["files"]
                preview = await ok(s, tool, {**params, "preview": True})
                check(snapshot(root) == before, f"{tool} preview writes nothing")
                check([f["path"] for f in preview["files"]] == sorted(after), f"{tool} preview files", preview)
                check(all(f["diff"].startswith("--- a/") for f in preview["files"]), f"{tool} diff", preview)
                applied = await ok(s, tool, {**params, "preview": False})
                check(applied["applied"] is True and applied["summary"] == preview["summary"], f"{tool} applied", applied)
                check(all("diff" not in f for f in applied["files"]), f"{tool} applied without diffs", applied)
                for path, text in after.items():
                    check(read(root, path) == text, f"{tool} wrote {path}", read(root, path))
                undone = await ok(s, "undo", {"path": sorted(after)[0]})
                check(undone["files"] == sorted(after), f"{tool} undo", undone)
                check(snapshot(root) == before, f"{tool} undone in every file")
            print("refactor tools: ok")

            # replace_in_files: previewed, applied as one step, undone
            args = {"find": "cart", "replace": "basket", "files": "*.py"}
            counted = await ok(s, "replace_in_files", {**args, "preview": True})
            check(counted["files"] == {"app.py": 3, "shop.py": 2} and counted["applied"] is False,
                  "replace_in_files preview", counted)
            check(snapshot(root) == before, "replace_in_files preview writes nothing")
            replaced = await ok(s, "replace_in_files", {**args, "preview": False})
            check(replaced["applied"] is True and replaced["total"] == 5, "replace_in_files applied", replaced)
            check("basket = Cart()" in read(root, "app.py"), "replace_in_files wrote app.py", read(root, "app.py"))
            undone = await ok(s, "undo", {})
            check(sorted(undone["files"]) == ["app.py", "shop.py"], "replace_in_files undo", undone)
            check(snapshot(root) == before, "replace_in_files undone in every file")
            print("replace_in_files: ok")

            # run_script: previewed, written as one step, undone
            script = "foreach caller of shop.checkout() replace with checkout($1, fast=True)"
            previewed = await ok(s, "run_script", {"script": script, "preview": True})
            check("+checkout(cart, fast=True)" in previewed["diff"], "run_script preview diff", previewed)
            check(snapshot(root) == before, "run_script preview writes nothing")
            heard = []

            async def progress(done, total, message):
                heard.append((done, total, message))

            await s.call_tool("run_script", {"script": script, "preview": True},
                              progress_callback=progress)
            check(heard and heard[-1][0] == heard[-1][1] and heard[-1][2] == "foreach call",
                  "run_script progress notifications", heard)
            written = await ok(s, "run_script", {"script": script})
            check(written["script"]["files"] == ["app.py"], "run_script written", written)
            check("checkout(cart, fast=True)" in read(root, "app.py"), "run_script wrote app.py", read(root, "app.py"))
            undone = await ok(s, "undo", {})
            check(snapshot(root) == before, "run_script undone", undone)
            print("run_script: ok")

            unknown = await err(s, "rename_symbol", {"symbol": "Cart.ad", "new_name": "put", "preview": True})
            check((unknown["code"], unknown["field"], unknown["candidates"]) == ("not_found", "symbol", ["add", "total"]),
                  "unknown symbol", unknown)
            past = await err(s, "extract_method", {"path": "calc.py", "name": "f", "first_line": 12, "last_line": 60,
                                                   "preview": True})
            check((past["code"], past["field"]) == ("invalid_params", "last_line"), "bad line range", past)
            taken = await err(s, "rename_symbol", {"symbol": "Cart.add", "new_name": "total", "preview": False})
            check((taken["code"], taken["field"]) == ("conflict", "new_name"), "name conflict", taken)
            stale = await err(s, "change_signature", {"function": "checkout", "old_params": "basket",
                                                      "new_params": "basket, tax:=0", "preview": True})
            check((stale["code"], stale["field"]) == ("conflict", "old_params") and "checkout(cart)" in stale["message"],
                  "old signature", stale)
            check(snapshot(root) == before, "errors write nothing")
            # what the Rust test checks on disk: one rename left applied
            await ok(s, "rename_symbol", {"symbol": "shop.checkout", "new_name": "pay", "preview": False})
            print("refactor errors: ok")

    async with stdio_client(server(eddi, root, "--read-only")) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            preview = await ok(s, "inline_function", {"function": "double", "preview": True})
            check(preview["summary"]["locations"] == 1, "read-only preview", preview)
            denied = await err(s, "inline_function", {"function": "double", "preview": False})
            check(denied["code"] == "permission_denied", "read-only apply refused", denied)
            print("read-only refactors: ok")
    print(f"mcp-driver: {CHECKS} checks passed")


if __name__ == "__main__":
    if sys.argv[1] == "--refactor":
        asyncio.run(refactors(sys.argv[2], sys.argv[3], json.loads(sys.argv[4])))
    elif sys.argv[1] == "--http":
        asyncio.run(over_http(sys.argv[2], json.loads(sys.argv[3])))
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
