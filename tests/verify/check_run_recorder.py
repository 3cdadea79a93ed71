"""`kcheck verify --run CMD` up to the GPU: the recorder is loaded into the
command's Python processes, sees the launches of flagged kernels (also from
a copy of the file at another path, as an installed package would be),
leaves the user's program and its own sitecustomize alone, and kcheck turns
what it wrote into verdicts: `not executed by the command` for a kernel the
command never launched, the recorder's own failure (here: no torch) for one
it did. A stand-in `triton` package (JITFunction.run(*args, grid, warmup))
and a `torch` that cannot be imported make it the same on every machine.

    check_run_recorder.py KCHECK WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

kcheck, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def write(rel, text):
    path = os.path.join(work, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


KERNELS = '''import triton
import triton.language as tl


@triton.jit
def row_scale_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, x * 2, mask=mask)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x + y, mask=offs < n)


def row_scale(x, y, m, n):
    row_scale_kernel[(m,)](x, y, n, n, BLOCK=1024)


def add(x, y, out, n):
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
'''
src = write("proj/ops.py", KERNELS)
# the command imports an identical copy from elsewhere (an installed package)
write("site/ops.py", KERNELS)
write("fake/triton/__init__.py", '''
from triton.runtime.jit import JITFunction
def jit(fn):
    return JITFunction(fn)
def cdiv(a, b):
    return (a + b - 1) // b
''')
write("fake/triton/language/__init__.py", "constexpr = int\n")
write("fake/triton/runtime/__init__.py", "")
write("fake/triton/runtime/jit.py", '''
LAUNCHES = []
class JITFunction:
    def __init__(self, fn):
        self.fn = fn
        self.arg_names = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)
    def run(self, *args, grid, warmup, **kwargs):
        LAUNCHES.append((self.fn.__name__, grid))
        return "launched"
''')
write("fake/torch.py", "raise ImportError('torch is hidden by this test')\n")
write("fake/sitecustomize.py", "import os\nopen(os.environ['USER_SITE_MARK'], 'w').write('ran')\n")
mark = os.path.join(work, "user-site-ran")
user = write("user.py", '''
import sys
import ops
from triton.runtime.jit import LAUNCHES
r = ops.add_kernel[(4,)](1, 2, 3, 4000, BLOCK=1024)
ops.add(1, 2, 3, 4000)
print("user result", r, len(LAUNCHES))
''')

env = dict(os.environ)
env["PYTHONPATH"] = os.path.join(work, "fake") + os.pathsep + os.path.join(work, "site")
env["USER_SITE_MARK"] = mark
env["KCHECK_RUN_SANITIZER"] = "0"  # the same on a machine with compute-sanitizer and no GPU
env.pop("KCHECK_RECORD_PLAN", None)
cmd = "%s %s > %s" % (sys.executable, user, os.path.join(work, "user.out"))

p = subprocess.run([kcheck, "verify", "--no-config", "--severity", "note", "--format", "json", "--run", cmd, src],
                   capture_output=True, text=True, env=env, cwd=work)
try:
    doc = json.loads(p.stdout)
except ValueError:
    doc = None
    failures.append("no JSON from kcheck verify --run: rc %d, stderr %s" % (p.returncode, p.stderr[-2000:]))
if doc:
    verdicts = {}
    for d in doc.get("diagnostics", []):
        verdicts.setdefault(d["rule"] + ":" + str(d["line"]), d.get("verify") or {})
    check(set(verdicts) == {"KC304:10", "KC304:11", "KC303:19"}, "the findings: %s" % sorted(verdicts))
    for k in ("KC304:10", "KC304:11"):
        v = verdicts.get(k, {})
        check(v.get("status") == "inconclusive" and "not executed by the command" in v.get("summary", ""),
              "%s: row_scale_kernel is never launched: %s" % (k, v))
    v = verdicts.get("KC303:19", {})
    check(v.get("status") == "inconclusive" and "launched by the command" in v.get("summary", "")
          and "recorder failed" in v.get("summary", "") and "torch is hidden" in v.get("summary", ""),
          "KC303:19: add_kernel is launched (from the copy of the file), the recorder needs torch: %s" % v)
    ev = v.get("evidence") or {}
    check(ev.get("inputs") == "recorded launch" and ev.get("command") == cmd and ev.get("exit_status") == 0,
          "KC303:19: the evidence names the inputs' origin, the command and its status: %s" % ev)
try:
    out = open(os.path.join(work, "user.out")).read()
except OSError:
    out = ""
check("user result launched 2" in out, "the user's program ran its launches as written: %r" % out)
check(os.path.exists(mark), "the user's own sitecustomize still ran")

# --run is verify's
q = subprocess.run([kcheck, "--run", "true", src], capture_output=True, text=True, env=env)
check(q.returncode == 2 and "--run" in q.stderr, "--run outside verify: exit 2 with a message, got %d %s" % (
    q.returncode, q.stderr))

# the GPU machine's way: --export writes the bundle, its run-command.sh runs
# the command from the project's directory, --results reads it back
bundle, results = os.path.join(work, "bundle"), os.path.join(work, "results")
q = subprocess.run([kcheck, "verify", "--no-config", "--severity", "note", "--format", "json", "--run", cmd,
                    "--export", bundle, src], capture_output=True, text=True, env=env, cwd=work)
sums = [(d.get("verify") or {}).get("summary", "") for d in json.loads(q.stdout or "{}").get("diagnostics", [])]
check(len(sums) == 3 and all(x.startswith("not run here: exported to") for x in sums), "--export verdicts: %s" % sums)
shutil.move(os.path.join(work, "user.out"), os.path.join(work, "user.out.1"))
q = subprocess.run(["sh", os.path.join(bundle, "run-command.sh"), results], env=env, cwd=work)
check(q.returncode == 0 and open(os.path.join(results, "command.status")).read().strip() == "0",
      "run-command.sh ran the command")
q = subprocess.run([kcheck, "verify", "--no-config", "--severity", "note", "--format", "json", "--run", cmd,
                    "--results", results, src], capture_output=True, text=True, env=env, cwd=work)
vs = {d["rule"] + ":" + str(d["line"]): (d.get("verify") or {}) for d in json.loads(q.stdout or "{}").get(
    "diagnostics", [])}
check("recorder failed" in vs.get("KC303:19", {}).get("summary", "")
      and "not executed by the command" in vs.get("KC304:10", {}).get("summary", ""),
      "--results reads the recorded launches back: %s" % vs)

# --no-run: the plan, the recorder and the fixed copies are written, nothing runs
keep = subprocess.run([kcheck, "verify", "--no-config", "--severity", "note", "--no-run", "--keep", "--format", "json",
                       "--run", "touch %s" % os.path.join(work, "ran"), src], capture_output=True, text=True, env=env)
check(not os.path.exists(os.path.join(work, "ran")), "--no-run ran the command")
kept = [l.split("kept ", 1)[1].strip() for l in keep.stderr.splitlines() if "kept " in l]
if not kept:
    failures.append("--keep did not say where: %s" % keep.stderr)
else:
    plan = json.load(open(os.path.join(kept[0], "record-plan.json")))
    fs = plan["findings"]
    check([f["kernel"] for f in fs] == ["row_scale_kernel", "add_kernel"] and [f["lines"] for f in fs] == [[10, 11],
                                                                                                          [19]]
          and [f["kind"] for f in fs] == ["overflow", "memory"],
          "one experiment per kernel's correctness findings: %s" % fs)
    fixed = open(os.path.join(kept[0], fs[0]["fixed"])).read() if fs and fs[0].get("fixed") else ""
    check("x_ptr + row.to(tl.int64) * stride + cols" in fixed and "y_ptr + row.to(tl.int64) * stride" in fixed
          and "y = tl.load(y_ptr + offs)\n" in fixed,
          "the first experiment's fixed copy has both int64 fix-its of its kernel and no other: %r" % fixed[:600])
    check(os.path.exists(os.path.join(kept[0], "record", "sitecustomize.py")), "the sitecustomize is written")
    shutil.rmtree(kept[0], ignore_errors=True)
    jd = json.loads(keep.stdout) if keep.stdout.strip().startswith("{") else {}
    sums = [(d.get("verify") or {}).get("summary", "") for d in jd.get("diagnostics", [])]
    check(sums and all(s.startswith("not run (--no-run)") for s in sums), "--no-run verdicts: %s" % sums)

# a CUDA race finding: judged by compute-sanitizer racecheck alone, and it says when that did not run
cu = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "KC402_shared-memory-race",
                  "bad_broadcast_after_reduction.cu")
q = subprocess.run([kcheck, "verify", "--no-config", "--format", "json", "--run", "true", cu], capture_output=True,
                   text=True, env=env)
sums = [(d.get("verify") or {}).get("summary", "") for d in json.loads(q.stdout or "{}").get("diagnostics", [])
        if d["rule"] == "KC402"]
check(sums and all("compute-sanitizer racecheck did not run (KCHECK_RUN_SANITIZER=0)" in x for x in sums),
      "CUDA KC402 under --run: %s" % sums)

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ok: verify --run records launches, says what was not executed, and leaves the user's program alone")
