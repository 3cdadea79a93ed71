#!/usr/bin/env python3
"""Holds kcheck's source to its layers (docs/architecture.md).

    check-architecture.py --root DIR [--build BUILD] [--graph]

Reads the table of layers from docs/architecture.md (layer, folder, library,
the layers it may include, its public headers) and checks, for every .c and
.h file of src/:
  - it lies in a layer's folder;
  - every `#include "name"` names a file of its own folder, a public header
    of a layer it may include, or a file the build generates (*.inc);
    include names are bare (no directories) and unique across src/;
  - the table's layers stack: a layer may include only layers listed above
    it (so no two folders can depend on each other);
  - with --build, every symbol an object file takes from an object of
    another folder (nm) is one it may take: a call without an include
    breaks the layers as much as an include does; and inside a folder the
    files do not call each other in a cycle;
  - no file is over 1,200 lines and no function over 150 lines, except the
    ones docs/architecture.md lists under "Sizes".
Prints what it measured (folders, edges, the longest include chain between
files); exits 1 on any violation, 2 when it cannot run.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

MAX_FILE_LINES = 1200
MAX_FUNCTION_LINES = 150


def fail(msg):
    print("check-architecture: " + msg, file=sys.stderr)
    sys.exit(2)


def read_doc(root):
    path = os.path.join(root, "docs", "architecture.md")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e))

    def section(title):
        m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        if not m:
            fail("docs/architecture.md has no section '## %s'" % title)
        return m.group(1)

    layers = []
    for line in section("The layers").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("layer", "") or set(cells[0]) <= set("-"):
            continue
        name, folder, lib, may, public = cells
        layers.append({"name": name, "folder": folder, "lib": lib,
                       "may": may.split(), "public": set(public.split())})
    if not layers:
        fail("docs/architecture.md: no rows in the table of layers")
    data = set()
    for line in section("The layers").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("src/"):
            data.add(cells[0])
    exceptions = set()
    for line in section("Sizes").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] and not set(cells[0]) <= set("-") and cells[0] != "file or function":
            exceptions.add(cells[0].strip("`"))
    return layers, exceptions, data


def functions(path, lines):
    """(name, first line, length) of each function definition: a line at
    column 0 that starts a definition, to the matching '}' at column 0."""
    out = []
    i = 0
    n = len(lines)
    start_re = re.compile(r"^(?!typedef|struct|enum|union|static const|const |#)[A-Za-z_][^;{}]*\b(\w+)\s*\(")
    while i < n:
        m = start_re.match(lines[i])
        if m:
            j = i
            while j < n and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < n and lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                if lines[j].rstrip().endswith("}"):
                    i = j + 1
                    continue
                k = j + 1
                while k < n and not lines[k].startswith("}"):
                    k += 1
                out.append((m.group(1), i + 1, k - i + 1))
                i = k + 1
                continue
        i += 1
    return out


def layer_of_folder(layers, folder):
    for L in layers:
        if L["folder"] == folder:
            return L
    return None


def check_sources(root, layers, exceptions, data, errors, report):
    by_name = {}
    files = []
    for dirpath, _, names in os.walk(os.path.join(root, "src")):
        rel = os.path.relpath(dirpath, root)
        if any(rel == d or rel.startswith(d + "/") for d in data):
            continue
        for f in sorted(names):
            if f.endswith((".c", ".h", ".def")):
                p = os.path.relpath(os.path.join(dirpath, f), root)
                files.append(p)
                by_name.setdefault(f, []).append(p)
    for name, paths in by_name.items():
        if len(paths) > 1:
            errors.append("the name %s is not unique in src/: %s" % (name, ", ".join(paths)))
    edges = collections.defaultdict(set)   # (layer, layer) -> headers
    file_edges = collections.defaultdict(set)
    sizes = []
    for p in files:
        folder = os.path.dirname(p)
        L = layer_of_folder(layers, folder)
        if not p.endswith((".c", ".h")):
            continue
        if L is None:
            errors.append("%s: not in the folder of a layer (docs/architecture.md)" % p)
            continue
        text = open(os.path.join(root, p), encoding="utf-8", errors="replace").read()
        lines = text.split("\n")
        nlines = len(lines) - (1 if text.endswith("\n") else 0)
        sizes.append((nlines, p))
        if nlines > MAX_FILE_LINES and p not in exceptions:
            errors.append("%s: %d lines (over %d)" % (p, nlines, MAX_FILE_LINES))
        if p.endswith(".c"):
            for fname, line, length in functions(p, lines):
                report["functions"].append((length, "%s:%d %s" % (p, line, fname)))
                if length > MAX_FUNCTION_LINES and "%s:%s" % (p, fname) not in exceptions:
                    errors.append("%s:%d: function %s is %d lines (over %d)" %
                                  (p, line, fname, length, MAX_FUNCTION_LINES))
        for num, line in enumerate(lines, 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            where = "%s:%d" % (p, num)
            if "/" in inc:
                errors.append('%s: #include "%s": include names are bare (the build sets each layer\'s folder)' %
                              (where, inc))
                continue
            if inc.endswith(".inc"):
                continue  # generated by the build into its own folder
            targets = by_name.get(inc)
            if not targets:
                continue  # a system or third-party header written with quotes
            t = targets[0]
            tfolder = os.path.dirname(t)
            file_edges[p].add(t)
            if tfolder == folder:
                continue
            T = layer_of_folder(layers, tfolder)
            if T is None:
                errors.append('%s: #include "%s" reaches %s, which is in no layer' % (where, inc, t))
                continue
            edges[(L["name"], T["name"])].add(inc)
            if T["name"] not in L["may"]:
                errors.append('%s: #include "%s": the %s layer may not include the %s layer' %
                              (where, inc, L["name"], T["name"]))
            elif inc not in T["public"]:
                errors.append('%s: #include "%s" is private to %s (its public headers: %s)' %
                              (where, inc, T["folder"], " ".join(sorted(T["public"]))))
    report["sizes"] = sizes
    report["edges"] = edges
    report["file_edges"] = file_edges


def check_table(layers, errors):
    seen = set()
    for L in layers:
        for m in L["may"]:
            if m not in {x["name"] for x in layers}:
                errors.append("docs/architecture.md: %s may include %s, which is no layer" % (L["name"], m))
            elif m not in seen:
                errors.append("docs/architecture.md: %s may include %s, which is not below it in the table" %
                              (L["name"], m))
        seen.add(L["name"])


def check_symbols(root, build, layers, errors, report):
    objects = []
    for dirpath, _, names in os.walk(os.path.join(build, "src")):
        for f in names:
            if f.endswith(".o") and "CMakeFiles" in dirpath:
                objects.append(os.path.join(dirpath, f))
    if not objects:
        fail("no object files under %s/src: build first" % build)
    defined = {}
    undefined = collections.defaultdict(set)
    obj_defined = {}  # symbol -> objects (per folder)
    obj_undefined = collections.defaultdict(set)
    obj_folder = {}
    for o in sorted(objects):
        rel = os.path.relpath(o, os.path.join(build))
        folder = rel.split("/CMakeFiles/")[0]
        L = layer_of_folder(layers, folder)
        if L is None:
            errors.append("%s: an object of no layer" % rel)
            continue
        try:
            out = subprocess.run(["nm", "-P", o], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            fail("nm %s: %s" % (o, e))
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            sym, kind = parts[0], parts[1]
            if kind in "TDBRCGSV":
                defined.setdefault(sym, set()).add(L["name"])
                if kind == "T":  # functions: the calls between files
                    obj_defined.setdefault(sym, set()).add(o)
            elif kind == "U":
                undefined[L["name"]].add(sym)
                obj_undefined[o].add(sym)
        obj_folder[o] = L["name"]
    sym_edges = collections.defaultdict(set)
    for lname, syms in undefined.items():
        L = next(x for x in layers if x["name"] == lname)
        for s in syms:
            owners = defined.get(s)
            if not owners or lname in owners:
                continue
            for owner in owners:
                sym_edges[(lname, owner)].add(s)
                if owner not in L["may"]:
                    errors.append("the %s layer uses %s, defined in the %s layer, which it may not use" %
                                  (lname, s, owner))
    report["sym_edges"] = sym_edges
    # Inside a folder, the files call each other bottom-up too: no cycle of
    # calls (a table that lists the rules refers to their data, not a call).
    g = collections.defaultdict(set)
    for o, syms in obj_undefined.items():
        for s in syms:
            for d in obj_defined.get(s, ()):
                if d != o and obj_folder.get(d) == obj_folder[o] and source_of(d) != source_of(o):
                    g[source_of(o)].add(source_of(d))
    for cyc in file_cycles(g):
        errors.append("files of one folder call each other in a cycle: %s" % " -> ".join(cyc))


def source_of(obj):
    """<folder>/<file>.c (under src/) of an object file of the build."""
    name = os.path.basename(obj)[:-2]  # x.c.o -> x.c
    return obj.split("/CMakeFiles/")[0].split("/src/", 1)[-1] + "/" + name


def file_cycles(g):
    """The cycles of a directed graph, each once (as found by a depth-first walk)."""
    out, state = [], {}

    def walk(u, stack):
        state[u] = 1
        for v in sorted(g.get(u, ())):
            if state.get(v) == 1:
                out.append(stack[stack.index(v):] + [v] if v in stack else [u, v])
            elif not state.get(v):
                walk(v, stack + [v])
        state[u] = 2

    for u in sorted(g):
        if not state.get(u):
            walk(u, [u])
    return out


def room(p):
    return p[:-2] if p.endswith((".c", ".h")) else p


def longest_chain(file_edges):
    g = collections.defaultdict(set)
    for a, bs in file_edges.items():
        for b in bs:
            if room(a) != room(b):
                g[room(a)].add(room(b))
    memo, state, cycles = {}, {}, []

    def depth(u, stack):
        if u in memo:
            return memo[u]
        if state.get(u) == 1:
            cycles.append(stack[stack.index(u):] + [u])
            return (0, [u])
        state[u] = 1
        best = (0, [u])
        for v in sorted(g[u]):
            d, path = depth(v, stack + [u])
            if d + 1 > best[0]:
                best = (d + 1, [u] + path)
        state[u] = 2
        memo[u] = best
        return best

    best = (0, [])
    for u in sorted(list(g)):
        d = depth(u, [])
        if d[0] > best[0]:
            best = d
    return best, cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--build")
    ap.add_argument("--graph", action="store_true")
    a = ap.parse_args()
    layers, exceptions, data = read_doc(a.root)
    errors = []
    report = {"functions": []}
    check_table(layers, errors)
    check_sources(a.root, layers, exceptions, data, errors, report)
    if a.build:
        check_symbols(a.root, a.build, layers, errors, report)
    (chain_len, chain), cycles = longest_chain(report["file_edges"])
    nfile_edges = sum(len(v) for v in report["file_edges"].values())
    print("%d layers, %d files, %d include edges between files, %d between layers%s" %
          (len(layers), len(report["sizes"]), nfile_edges, len(report["edges"]),
           ", %d symbol edges between layers" % len(report["sym_edges"]) if "sym_edges" in report else ""))
    print("longest include chain: %d (%s)" % (chain_len, " -> ".join(chain)))
    for c in cycles:
        print("include cycle between files of one folder: %s" % " -> ".join(c))
    if a.graph:
        for (x, y), names in sorted(report["edges"].items()):
            print("  include %s -> %s: %s" % (x, y, " ".join(sorted(names))))
        for (x, y), names in sorted(report.get("sym_edges", {}).items()):
            print("  symbols %s -> %s: %d (%s)" % (x, y, len(names), " ".join(sorted(names)[:6])))
        for n, p in sorted(report["sizes"], reverse=True)[:10]:
            print("  %5d lines  %s" % (n, p))
        for n, f in sorted(report["functions"], reverse=True)[:10]:
            print("  %5d-line function  %s" % (n, f))
    for e in errors:
        print("error: " + e)
    if errors:
        print("check-architecture: %d violation%s of docs/architecture.md" % (len(errors), "" if len(errors) == 1 else "s"))
        return 1
    print("check-architecture: the source holds to docs/architecture.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
