#!/usr/bin/env python3
"""kcheck's directory walk against git's own idea of what is ignored.

check_gitignore.py KCHECK WORKDIR

Builds a scratch repository with .gitignore files at two levels,
.git/info/exclude and a global ignore file (through XDG_CONFIG_HOME),
whose patterns use what git's wildmatch takes: anchoring, `**`, negation,
directory-only patterns, POSIX classes (`[[:digit:]]`), ranges and
negated classes, escapes, trailing spaces. Compares `kcheck --show-files .`
with `git ls-files --others --exclude-standard` (every file is untracked),
both restricted to what the walk takes (.cu, .cuh, .py, and .h/.hpp headers,
no hidden entries). Exit status 0 when the two agree.
"""
import os
import shutil
import subprocess
import sys

KCHECK, WORK = os.path.abspath(sys.argv[1]), sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
repo = os.path.join(WORK, "repo")
xdg = os.path.join(WORK, "xdg")
os.makedirs(os.path.join(xdg, "git"))
os.makedirs(repo)
env = dict(os.environ, XDG_CONFIG_HOME=xdg, HOME=WORK, GIT_CONFIG_NOSYSTEM="1")
subprocess.run(["git", "init", "-q", repo], check=True, env=env)

files = [
    "a.py", "b.cu", "top_only.cu", "sub/top_only.cu", "build/x.cu", "sub/build/y.cu",
    "gen/k.cu", "sub/gen/k.cu", "sub/deep/gen/k.cu", "gen/keep.cu",
    "data1.py", "data22.py", "dataX.py", "xa.py", "xd.py", "x-.py",
    "foo/bar.py", "foo/a/b/bar.py", "foo/a/bar.cu",
    "#hash.py", "sp ace.py", "star*.py", "tmp1.tmp.py", "sub/tmp2.tmp.py", "sub/important.tmp.py",
    "secret_one.py", "sub/secret_two.cu", "global_skip.cuh", "sub/global_skip.cuh",
    "kernels/K.CU", "kernels/k.cuh", "kernels/notes.txt", "UPPER.py", "lower.py",
    "cls/aa.py", "cls/a1.py", "cls/a_.py", "cls/a .py", "q/one.py", "q/two.py",
    "nest/inner/x.py", "nest/inner/y.py", "nest/other/x.py",
]
for f in files:
    p = os.path.join(repo, f)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as fh:
        fh.write("import os\n")

with open(os.path.join(repo, ".gitignore"), "w") as fh:
    fh.write("\n".join([
        "# comment",
        "/top_only.cu",
        "build/",
        "**/gen/*.cu",
        "!gen/keep.cu",
        "data[[:digit:]].py",
        "x[!a-c].py",
        "foo/**/bar.py",
        "\\#hash.py",
        "sp\\ ace.py",
        "star\\*.py",
        "*.tmp.py",
        "[[:upper:]]*.py",
        "cls/a[[:alnum:]].py",
        "cls/a[[:space:]].py",
        "q/*",
        "!q/two.py",
        "nest/*/x.py",
        "trailing.py   ",
        "",
    ]))
with open(os.path.join(repo, "sub", ".gitignore"), "w") as fh:
    fh.write("!important.tmp.py\n")
with open(os.path.join(repo, ".git", "info", "exclude"), "w") as fh:
    fh.write("secret_*\n")
with open(os.path.join(xdg, "git", "ignore"), "w") as fh:
    fh.write("global_skip.cuh\n")

exts = (".cu", ".cuh", ".py", ".h", ".hpp")


def takes(path):
    parts = path.split("/")
    return path.endswith(exts) and not any(p.startswith(".") for p in parts)


git = subprocess.run(["git", "-C", repo, "ls-files", "--others", "--exclude-standard", "-z"],
                     capture_output=True, check=True, env=env).stdout.decode().split("\0")
want = sorted(p for p in git if p and takes(p))
got_run = subprocess.run([KCHECK, "--show-files", "."], cwd=repo, capture_output=True, env=env)
got = sorted(p[2:] if p.startswith("./") else p for p in got_run.stdout.decode().splitlines())
if got_run.returncode != 0 or got != want:
    print("check_gitignore: kcheck and git disagree (exit %d)" % got_run.returncode)
    print("  only kcheck:", sorted(set(got) - set(want)))
    print("  only git:   ", sorted(set(want) - set(got)))
    sys.exit(1)
# the same from a subdirectory: the parent's rules, info/exclude and the global file apply
sub = subprocess.run([KCHECK, "--show-files", "."], cwd=os.path.join(repo, "sub"), capture_output=True, env=env)
got_sub = sorted("sub/" + (p[2:] if p.startswith("./") else p) for p in sub.stdout.decode().splitlines())
want_sub = [p for p in want if p.startswith("sub/")]
if got_sub != want_sub:
    print("check_gitignore: from sub/, kcheck and git disagree")
    print("  only kcheck:", sorted(set(got_sub) - set(want_sub)))
    print("  only git:   ", sorted(set(want_sub) - set(got_sub)))
    sys.exit(1)
print("check_gitignore: %d files, kcheck's walk and git agree (also from sub/)" % len(want))
