#!/usr/bin/env python3
"""Extract HEAD of a bare git dir into a directory, skipping blobs the
snapshot lacks (large files / LFS are absent from the stored mirrors, which
makes `git archive` stop).  usage: census_extract.py GIT_DIR DEST
The commit extracted is written to DEST/.census-commit (read by census.sh)."""
import os, subprocess, sys
gd, dest = sys.argv[1], sys.argv[2]
ls = subprocess.run(["git", "--git-dir", gd, "ls-tree", "-r", "-z", "HEAD"],
                    capture_output=True, check=True).stdout.split(b"\0")
ents = []
for e in ls:
    if not e:
        continue
    meta, path = e.split(b"\t", 1)
    mode, typ, sha = meta.split()
    if typ == b"blob" and mode != b"120000":
        ents.append((sha, path))
p = subprocess.Popen(["git", "--git-dir", gd, "cat-file", "--batch"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
missing = 0
for sha, path in ents:
    p.stdin.write(sha + b"\n"); p.stdin.flush()
    hdr = p.stdout.readline().split()
    if hdr[-1] == b"missing":
        missing += 1
        continue
    n = int(hdr[2]); data = p.stdout.read(n); p.stdout.read(1)
    out = os.path.join(dest.encode(), path)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "wb") as f:
        f.write(data)
p.stdin.close(); p.wait()
head = subprocess.run(["git", "--git-dir", gd, "rev-parse", "HEAD"], capture_output=True,
                      text=True, check=True).stdout.strip()
with open(os.path.join(dest, ".census-commit"), "w") as f:
    f.write(head + "\n")
print(f"{dest}: {len(ents)-missing} files written, {missing} missing blobs skipped")
