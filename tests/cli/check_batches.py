#!/usr/bin/env python3
"""Findings do not depend on how the files are batched: for random splits
of the fixtures and the bundled examples into batches (several kcheck runs,
as pre-commit makes when a hook is not serial), the union of the batches'
findings equals the findings of one run over all the files. Also a batch of
one file each.

    check_batches.py KCHECK SOURCE_DIR [TREE...]

With TREE arguments (checkouts of public projects, for a manual run; see
docs/coverage.md) their .py/.cu/.cuh files are split instead, and the
repository walk finds launchers from each file's own repository.
"""
import json
import os
import random
import subprocess
import sys


def findings(kcheck, files):
    p = subprocess.run([kcheck, "--no-cache", "--no-config", "--severity", "note", "--format", "json", "-j", "2",
                        "--end-of-options"] + files, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"kcheck exited {p.returncode} on {len(files)} files: {p.stderr[-400:]}")
    doc = json.loads(p.stdout)
    return {(d["file"], d["line"], d["column"], d["rule"], d["severity"], d["message"], tuple(d.get("notes", [])))
            for d in doc["diagnostics"]}


def main():
    kcheck, src = os.path.abspath(sys.argv[1]), sys.argv[2]
    trees = [os.path.abspath(t) for t in sys.argv[3:]]
    os.chdir(src)
    files = []
    for top in trees or ("tests/fixtures", "examples"):
        for root, dirs, names in os.walk(top):
            dirs.sort()
            for n in sorted(names):
                if n.endswith((".py", ".cu", ".cuh")):
                    files.append(os.path.join(root, n))
    whole = findings(kcheck, files)
    fails = 0
    rng = random.Random(20261202)
    splits = []
    for k in (2, 5, 13):
        shuffled = files[:]
        rng.shuffle(shuffled)
        splits.append([shuffled[i::k] for i in range(k)])
    splits.append([[f] for f in files if f.endswith(".py")] + [[f for f in files if not f.endswith(".py")]])
    for batches in splits:
        union = set()
        for b in batches:
            union |= findings(kcheck, b)
        if union != whole:
            fails += 1
            for x in sorted(whole - union)[:5]:
                print(f"FAIL: {len(batches)} batches lose {x[0]}:{x[1]}:{x[2]} {x[3]} {x[4]} {x[5][:80]}")
            for x in sorted(union - whole)[:5]:
                print(f"FAIL: {len(batches)} batches add {x[0]}:{x[1]}:{x[2]} {x[3]} {x[4]} {x[5][:80]}")
    if fails:
        sys.exit(1)
    print(f"{len(files)} files, {len(whole)} findings: the same from 2, 5 and 13 random batches and one file a batch")


if __name__ == "__main__":
    main()
