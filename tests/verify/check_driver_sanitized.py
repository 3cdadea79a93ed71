"""A bound Triton kernel's memory experiment: the driver runs the call
alone (`--one`) in a process of its own under compute-sanitizer, without
PyTorch's caching allocator, and keeps the sanitizer's log (host frames
left out) so that kcheck can place each report at a finding's line. Needs
no torch or GPU: a stand-in compute-sanitizer on PATH checks the command
line and environment it is given and prints a recorded H200 log.
    check_driver_sanitized.py SOURCE_DIR WORK_DIR"""
import importlib.util
import json
import os
import stat
import sys

src, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
spec = importlib.util.spec_from_file_location("kcheck_verify_driver", src + "/src/verify/kcheck_verify_driver.py")
drv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(drv)

log = """========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at loss_kernel+0x2d50 in 2_seed000_constexpr_n.py:44
=========     by thread (0,0,0) in block (16,0,0)
=========     Access to 0x7f7fec8c5204 is out of bounds
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: launch [0x1dcc] in __triton_launcher.cpython-312-x86_64-linux-gnu.so
=========
========= ERROR SUMMARY: 1 error"""
fake = os.path.join(work, "compute-sanitizer")
with open(fake, "w") as f:
    f.write("#!/bin/sh\n"
            "[ \"$PYTORCH_NO_CUDA_MEMORY_CACHING\" = 1 ] || { echo 'caching allocator on' >&2; exit 3; }\n"
            "case \"$*\" in *'--tool memcheck --error-exitcode 9 '*' --one '*' 7') ;; "
            "*) echo \"unexpected arguments: $*\" >&2; exit 4 ;; esac\n"
            "echo '{\"called\": true}'\n"
            "cat <<'LOG'\n" + log + "\nLOG\nexit 9\n")
os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
os.environ["PATH"] = work + os.pathsep + os.environ["PATH"]
spec_path = os.path.join(work, "op.json")
with open(spec_path, "w") as f:
    json.dump({"sizes": {"correctness": {"M": 67, "N": 1003}, "timing": {"M": 4096, "N": 32000}}}, f)
plan = {"spec": spec_path, "sizes_override": {"N": 1000}, "timeout_s": 30}
r = drv.triton_sanitized(os.path.join(work, "plan_1.json"), plan, {"id": 7, "kind": "memcheck"})
failures = []
if r.get("sanitizer_error_count") != 1:
    failures.append("error count: %r (%r)" % (r.get("sanitizer_error_count"), r.get("error")))
if r.get("sizes") != {"M": 67, "N": 1000}:
    failures.append("sizes: %r" % r.get("sizes"))
if not r.get("called") or "error" in r:
    failures.append("the call's own line or an error: %r" % r)
kept = r.get("sanitizer_log", "")
if "2_seed000_constexpr_n.py:44" not in kept or "Host Frame" in kept:
    failures.append("log kept: %r" % kept)
for f in failures:
    print("FAIL:", f)
if not failures:
    print("ok: the Triton call ran alone under compute-sanitizer memcheck, its log kept")
sys.exit(1 if failures else 0)
