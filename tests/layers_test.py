#!/usr/bin/env python3
"""The plan of the house (docs/design.md, "The map"): every include line between folders runs
downward. Reads each C/C++ source and header of the tree, resolves its quoted includes to the
folder that owns the header, and fails naming each include whose folder the includer may not
see, and each quoted include it cannot resolve. Usage: layers_test.py REPO_ROOT
"""
import os
import re
import sys

CORE = ["chess", "tables", "probe", "analysis", "games", "scans"]
BELOW = {  # folder -> the folders it may include (besides itself)
    "core/chess": [],
    "core/tables": ["core/chess"],
    "core/probe": ["core/tables", "core/chess"],
    "core/analysis": ["core/probe", "core/tables", "core/chess"],
    "core/games": ["core/analysis", "core/probe", "core/tables", "core/chess"],
    "core/scans": ["core/probe", "core/tables", "core/chess"],
}
ALL_CORE = ["core/" + r for r in CORE]
BELOW["answers"] = ALL_CORE
BELOW["generator"] = ALL_CORE
BELOW["server"] = ["answers"] + ALL_CORE
BELOW["bindings"] = ["answers"] + ALL_CORE
BELOW["tools"] = ["server", "generator", "answers"] + ALL_CORE
TOP = ["bench", "tests", "examples"]  # may include anything


def folder_of(rel):
    parts = rel.split("/")
    if parts[0] == "core":
        return "core/" + parts[1]
    return parts[0]


def main(root):
    owners = {}  # "deadpos/x.h" -> folder; other public headers by name
    for dirpath, _, files in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir.startswith((".git", "build")) or "/node_modules" in rel_dir:
            continue
        for f in files:
            rel = os.path.normpath(os.path.join(rel_dir, f))
            if rel.endswith("/include/deadpos/" + f):
                owners["deadpos/" + f] = folder_of(rel)
            elif rel == "bindings/include/deadpos.h":
                owners["deadpos.h"] = "bindings"
    problems = []
    checked = 0
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for dirpath, _, files in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir.startswith((".git", "build")) or "node_modules" in rel_dir or rel_dir == ".":
            continue
        for f in files:
            if not f.endswith((".h", ".hpp", ".c", ".cpp", ".cc")):
                continue
            rel = os.path.normpath(os.path.join(rel_dir, f))
            me = folder_of(rel)
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as src:
                for n, line in enumerate(src, 1):
                    m = include.match(line)
                    if not m:
                        continue
                    name = m.group(1)
                    checked += 1
                    if os.path.exists(os.path.join(dirpath, name)):
                        target = folder_of(os.path.normpath(os.path.join(rel_dir, name)))
                    elif name in owners:
                        target = owners[name]
                    elif me in TOP:
                        continue  # tests' and benches' own helpers (support/, test_util.h, ...)
                    elif me == "server" or me == "tools":
                        # tools/ and server/ see each other's folder-level headers (cli.h, server.h)
                        target = "tools" if os.path.exists(os.path.join(root, "tools", name)) else (
                            "server" if os.path.exists(os.path.join(root, "server", name)) else None)
                        if target is None:
                            problems.append(f"{rel}:{n}: cannot resolve \"{name}\"")
                            continue
                    else:
                        problems.append(f"{rel}:{n}: cannot resolve \"{name}\"")
                        continue
                    if target == me or me in TOP:
                        continue
                    if target not in BELOW.get(me, []):
                        problems.append(f"{rel}:{n}: {me} includes {target} (\"{name}\"): an arrow running up")
    for p in problems:
        print(p)
    print(f"layers: {checked} include lines, {len(problems)} running up or unresolved")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
