"""kcheck_ncu.py reads Nsight Compute's per-source-line counters back from
the source view `ncu -i REP --page source --csv --print-source cuda,sass`
prints. The views in recorded/ncu/ were printed by ncu 2025.3.1 on an H200
for strided.cu (built with -lineinfo: col_read reads a[r * cols + c], its
lanes 64 floats apart; bank stores t[x][y] into a 32x32 shared array, a
32-way bank conflict) and for a Triton script (CUDA view only, with torch's
kernels, which have no line information):

  - cu-src-cuda_sass.csv: line 7 of col_read touched 4194304 L2 sectors
    where 524288 would do; line 13 of bank took 1024 shared wavefronts where
    32 would do, 32 ways; every line kept has a counter above zero;
  - cu-src-sass.csv (SASS only): lineinfo false, no lines;
  - tr-src-cuda.csv (no counters): no lines; ncu's five "No lineinfo"
    warnings each go with the kernel they name.

Also: two launches of one kernel sum; a source line with quotes and commas
in it and numbers with thousands separators do not move the columns; a
warning names a kernel in its own spelling; output cut short, a non-CSV
line, an empty or binary file, a missing file give a document and exit 0;
the REPORT mode runs $KCHECK_NCU with the source-view arguments, and an ncu
that fails, is missing or hangs gives an "error". Needs no GPU and no ncu.
    check_ncu_lines.py SOURCE_DIR WORKDIR"""
import json
import os
import shutil
import stat
import subprocess
import sys
import time

src, work = sys.argv[1], sys.argv[2]
module = os.path.join(src, "src", "verify", "kcheck_ncu.py")
rec = os.path.join(src, "tests", "verify", "recorded", "ncu")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []
SIG = "col_read(const float *, float *, int, int)"


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def run(args, env=None, name="case"):
    out = os.path.join(work, name + ".json")
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run([sys.executable, module] + args + [out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=e, timeout=120)
    check(r.returncode == 0, "%s: exit status %d (%s)" % (name, r.returncode, r.stderr.strip()[-300:]))
    check("Traceback" not in r.stderr, "%s: a traceback: %s" % (name, r.stderr[-500:]))
    try:
        with open(out) as f:
            doc = json.load(f)
    except (OSError, ValueError) as x:
        failures.append("%s: no JSON document written (%s)" % (name, x))
        return {"kernels": [], "warnings": [], "error": "no document"}
    check(doc.get("tool") == "ncu", "%s: tool is not ncu" % name)
    return doc


def run_csv(text, name):
    path = os.path.join(work, name + ".csv")
    with open(path, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode())
    return run(["--csv", path], name=name)


def kernel(doc, function, name):
    ks = [k for k in doc.get("kernels", []) if k.get("function") == function]
    check(len(ks) == 1, "%s: %d entries for %s, expected 1" % (name, len(ks), function))
    return ks[0] if ks else {"lines": []}


def line(k, n):
    for ln in k.get("lines", []):
        if ln.get("line") == n:
            return ln
    return {}


def read(name):
    with open(os.path.join(rec, name)) as f:
        return f.read()


# ---- the CUDA file, CUDA and SASS view: the counters of each line
cuda_sass = read("cu-src-cuda_sass.csv")
doc = run(["--csv", os.path.join(rec, "cu-src-cuda_sass.csv")], name="cuda_sass")
check(doc.get("error") is None, "cuda_sass: error %r" % doc.get("error"))
check([k["function"] for k in doc["kernels"]] == ["col_read", "bank"],
      "cuda_sass: kernels %r" % [k.get("function") for k in doc["kernels"]])
cr = kernel(doc, "col_read", "cuda_sass")
check(cr.get("signature") == SIG, "cuda_sass: signature %r" % cr.get("signature"))
check(str(cr.get("file")).endswith("/strided.cu"), "cuda_sass: file %r" % cr.get("file"))
check(cr.get("lineinfo") is True and cr.get("launches") == 1, "cuda_sass: lineinfo/launches %r/%r" %
      (cr.get("lineinfo"), cr.get("launches")))
l7 = line(cr, 7)
check((l7.get("global_sectors"), l7.get("global_sectors_ideal"), l7.get("global_sectors_excessive")) ==
      (4194304, 524288, 3670016), "cuda_sass: col_read line 7 sectors %r" % l7)
check(l7.get("instructions") == 264192 and l7.get("address_spaces") == {"Global": 16},
      "cuda_sass: col_read line 7 instructions/address spaces %r" % l7)
check(l7.get("shared_wavefronts") == 0 and "shared_wavefronts" not in cr.get("metrics", []),
      "cuda_sass: col_read has no shared columns, its counters read 0")
l8 = line(cr, 8)
check(l8.get("global_sectors") == 8192 == l8.get("global_sectors_ideal"), "cuda_sass: line 8 (coalesced) %r" % l8)
check([ln["line"] for ln in cr["lines"]] == [2, 3, 4, 6, 7, 8, 9], "cuda_sass: col_read lines %r" %
      [ln["line"] for ln in cr["lines"]])
bank = kernel(doc, "bank", "cuda_sass")
l13 = line(bank, 13)
check((l13.get("shared_wavefronts"), l13.get("shared_wavefronts_ideal"), l13.get("shared_wavefronts_excessive"),
       l13.get("shared_conflict_ways")) == (1024, 32, 992, 32), "cuda_sass: bank line 13 %r" % l13)
check(l13.get("source", "").startswith("t[x][y] = x + y;"), "cuda_sass: bank line 13 source %r" % l13.get("source"))
l15 = line(bank, 15)
check((l15.get("shared_wavefronts"), l15.get("shared_wavefronts_ideal"), l15.get("shared_conflict_ways"),
       l15.get("global_sectors"), l15.get("address_spaces")) == (32, 32, 1, 128, {"Global": 1, "Shared": 1}),
      "cuda_sass: bank line 15 %r" % l15)
for k in doc["kernels"]:
    for ln in k["lines"]:
        check(any(isinstance(v, int) and v > 0 for key, v in ln.items() if key != "line"),
              "cuda_sass: %s line %d kept without a counter" % (k["function"], ln["line"]))

# ---- SASS only: no line information
doc = run(["--csv", os.path.join(rec, "cu-src-sass.csv")], name="sass")
check(sorted(k["function"] for k in doc["kernels"]) == ["bank", "col_read"], "sass: kernels %r" % doc["kernels"])
for k in doc["kernels"]:
    check(k["lineinfo"] is False and k["lines"] == [], "sass: %s has lines" % k["function"])
    check(k["launches"] == 2, "sass: %s launches %r (the view lists it twice)" % (k["function"], k["launches"]))

# ---- Triton, CUDA view only: no counters; the warnings name torch's kernels
doc = run(["--csv", os.path.join(rec, "tr-src-cuda.csv")], name="triton_cuda")
check(doc.get("error") is None, "triton_cuda: error %r" % doc.get("error"))
check(all(k["lines"] == [] for k in doc["kernels"]), "triton_cuda: metric lines from a view without counters")
check(len(doc["warnings"]) == 5 and all("No lineinfo" in w for w in doc["warnings"]),
      "triton_cuda: warnings %r" % doc["warnings"])
check(sorted(k["function"] for k in doc["kernels"]) ==
      ["distribution_elementwise_grid_stride_kernel", "reduce_kernel", "reduce_kernel",
       "vectorized_elementwise_kernel", "vectorized_elementwise_kernel"],
      "triton_cuda: kernels %r" % [k["function"] for k in doc["kernels"]])
check(all(k["lineinfo"] is False and len(k["warnings"]) == 1 for k in doc["kernels"]),
      "triton_cuda: each kernel without lineinfo and with its own warning")

# ---- two launches of each kernel: summed per line, the conflict ways are not
doc = run_csv(cuda_sass + cuda_sass, "two_launches")
cr, bank = kernel(doc, "col_read", "two_launches"), kernel(doc, "bank", "two_launches")
check(cr.get("launches") == 2 and line(cr, 7).get("global_sectors") == 2 * 4194304,
      "two_launches: col_read %r / line 7 %r" % (cr.get("launches"), line(cr, 7)))
check(line(bank, 13).get("shared_wavefronts") == 2048 and line(bank, 13).get("shared_conflict_ways") == 32,
      "two_launches: bank line 13 %r" % line(bank, 13))

# ---- quotes and commas in the source text (ncu escapes neither), 1,234 numbers
src7 = "s += a[r * cols + c];          // line 7: neighbouring threads are `cols` apart"
check(src7 in cuda_sass and '"4194304","524288"' in cuda_sass, "quoted: the recorded line 7 changed")
odd = 'printf("%d","x", c); s += a[r * cols + c]; // "'
quoted = cuda_sass.replace(src7, odd).replace('"4194304","524288"', '"4,194,304","524,288"')
doc = run_csv(quoted, "quoted")
l7 = line(kernel(doc, "col_read", "quoted"), 7)
check((l7.get("global_sectors"), l7.get("global_sectors_ideal"), l7.get("source")) == (4194304, 524288, odd),
      "quoted: line 7 %r" % l7)

# ---- a warning spelled as the CUDA view spells it goes with its SASS block
warn = "==WARNING== No lineinfo available to show CUDA-C source related to 'void at::k<4, ns::F<float>>(int, T2)'.\n"
sass_blocks = ('"Kernel Name","void at::native::k<(int)8, at::native::ns::F<float>>(int, T2)",\n'
               '"Address","Source","Instructions Executed"\n"0x10","      EXIT","32"\n'
               '"Kernel Name","void at::native::k<(int)4, at::native::ns::F<float>>(int, T2)",\n'
               '"Address","Source","Instructions Executed"\n"0x10","      EXIT","32"\n')
doc = run_csv(warn + sass_blocks, "warning_spelling")
check([(k["function"], k["lineinfo"], k["warnings"]) for k in doc["kernels"]] ==
      [("k", False, []), ("k", False, [warn.strip()])], "warning_spelling: %r" % doc["kernels"])

# ---- junk: a document and exit 0, whatever it is
lines = cuda_sass.splitlines(True)
doc = run_csv("", "empty")
check(doc["kernels"] == [] and doc.get("error"), "empty: %r" % doc)
doc = run_csv(bytes(range(256)) * 8, "binary")
check(doc["kernels"] == [] or doc.get("error"), "binary: %r" % doc)
doc = run_csv("".join(lines[:3]), "header_only")
k = kernel(doc, "col_read", "header_only")
check(k.get("lineinfo") is False and k.get("lines") == [], "header_only: %r" % k)
cut = cuda_sass[: cuda_sass.index(src7) + 40]  # in the middle of line 7's row
doc = run_csv(cut, "cut_in_a_row")
k = kernel(doc, "col_read", "cut_in_a_row")
check(line(k, 6).get("instructions") == 106496 and line(k, 7).get("global_sectors", 0) == 0,
      "cut_in_a_row: %r" % k.get("lines"))
i7 = next(i for i, ln in enumerate(lines) if ln.startswith('"7",'))
noisy = lines[:i7] + ["Segmentation fault (core dumped)\n", "==ERROR== something went wrong\n", "a,b,c\n"] + lines[i7:]
doc = run_csv("".join(noisy), "noisy")
check(line(kernel(doc, "col_read", "noisy"), 7).get("global_sectors") == 4194304 and
      "==ERROR== something went wrong" in doc["warnings"], "noisy: %r" % doc.get("warnings"))
doc = run_csv("==PROF== Connected\n==ERROR== The file could not be opened.\n", "ncu_error_only")
check(doc["kernels"] == [] and "could not be opened" in str(doc.get("error")), "ncu_error_only: %r" % doc)
doc = run(["--csv", os.path.join(work, "no-such.csv")], name="missing_csv")
check(doc["kernels"] == [] and doc.get("error"), "missing_csv: %r" % doc)

# ---- REPORT mode: the ncu that $KCHECK_NCU names, with the source-view arguments
report = os.path.join(work, "run.ncu-rep")
with open(report, "w") as f:
    f.write("not a real report\n")


def fake_ncu(name, body):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


ncu = fake_ncu("ncu-ok", '[ "$*" = "-i %s --page source --csv --print-source cuda,sass" ] || '
                         '{ echo "==ERROR== arguments: $*" >&2; exit 3; }\n'
                         'cat "%s"\necho "==WARNING== from stderr" >&2\n'
              % (report, os.path.join(rec, "cu-src-cuda_sass.csv")))
doc = run([report], {"KCHECK_NCU": ncu}, "report")
check(doc.get("error") is None and line(kernel(doc, "col_read", "report"), 7).get("global_sectors") == 4194304,
      "report: %r" % doc.get("error"))
check("==WARNING== from stderr" in doc.get("warnings", []), "report: ncu's stderr warning lost")
doc = run([report], {"KCHECK_NCU": fake_ncu("ncu-fail", 'echo "==ERROR== cannot open" >&2; exit 1\n')},
          "report_fails")
check(doc["kernels"] == [] and "exited 1" in str(doc.get("error")), "report_fails: %r" % doc.get("error"))
doc = run([report], {"KCHECK_NCU": os.path.join(work, "no-ncu-here")}, "report_no_ncu")
check(doc["kernels"] == [] and doc.get("error"), "report_no_ncu: %r" % doc)
doc = run([os.path.join(work, "no-such.ncu-rep")], {"KCHECK_NCU": ncu}, "report_missing")
check(doc["kernels"] == [] and doc.get("error"), "report_missing: %r" % doc)
t0 = time.time()
doc = run([report], {"KCHECK_NCU": fake_ncu("ncu-hangs", "sleep 30 &\nwait\n"), "KCHECK_NCU_TIMEOUT": "1"}, "report_hangs")
check(time.time() - t0 < 8 and "did not finish" in str(doc.get("error")),
      "report_hangs: %.1f s, %r" % (time.time() - t0, doc.get("error")))

# ---- the bare name of a kernel
sys.path.insert(0, os.path.dirname(module))
import kcheck_ncu  # noqa: E402

for sig, want in [("col_read(const float *, float *, int, int)", "col_read"), ("void foo<float>(float *)", "foo"),
                  ("ns::bar(int)", "bar"), ("col_sum", "col_sum"), ("(anonymous namespace)::baz(int)", "baz"),
                  ("void ns::Foo<int>::qux<(int)2, ns::F<float>>(T1, int)", "qux"),
                  ("void at::native::<unnamed>::k<float, void f<(int)4>(int)::[lambda() (instance 1)]>(T1)", "k")]:
    got = kcheck_ncu.function_name(sig)
    check(got == want, "function_name(%r) = %r, expected %r" % (sig, got, want))

for f in failures:
    print("FAILED:", f)
if failures:
    sys.exit(1)
print("ok: recorded source views of ncu 2025.3.1 and the junk around them read")
