"""kcheck verify driver: runs the experiments of verify plans.

    python3 kcheck_verify_driver.py PLAN.json RESULTS.json [--build-only]
    python3 kcheck_verify_driver.py --batch BATCH.json RESULTS_DIR [--build-only]

A Triton plan names the user's module, the op spec, the reference
directory, the call expression and the experiments; a CUDA plan names a
generated harness to build with nvcc and the modes to run it in. Paths in a
plan are relative to the plan's directory. Results are written after every
experiment, so a run that is killed (timeout, GPU fault) still leaves what
it measured. --build-only compiles what would run (nvcc, py_compile) and
runs nothing.

--batch runs every plan BATCH.json lists ({"plans": [{"plan": P, "results":
R}, ...]}, P relative to BATCH.json, R to RESULTS_DIR) in this one process,
so Python, torch and the CUDA context start once. Plans whose results file
exists are skipped; each plan's results file is written before the plan
starts. A plan that runs past its limit (plan_limit_s, or the environment's
KCHECK_PLAN_TIMEOUT) is recorded as killed and ends the process (exit 124);
a CUDA error that may have spoiled the context ends it after its plan (exit
3). Either way, running the same command again goes on with the plans left,
and exit status 0 means none is left. Only the standard library (and torch/triton for Triton
plans) is used.
"""
import importlib.util
import json
import py_compile
import re
import shutil
import subprocess
import math
import os
import sys
import tempfile
import threading
import time
import traceback

RESULTS = {"env": {}, "experiments": [], "fatal": None}
FLUSH_LOCK = threading.Lock()
CHILDREN = set()  # process groups of the harness runs under way


def flush(path):
    with FLUSH_LOCK:
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(RESULTS, f, indent=1, default=str)
        os.replace(tmp, path)


def run_child(cmd, timeout, env=None):
    """subprocess.run in a session of its own, killed whole at the time
    limit or when the plan's watchdog ends the process."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env=env)
    CHILDREN.add(p.pid)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(p.pid)
        p.communicate()
        raise
    finally:
        CHILDREN.discard(p.pid)
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def kill_group(pid):
    try:
        os.killpg(pid, 9)
    except OSError:
        pass


def env_info():
    import torch
    info = {"python": sys.version.split()[0], "torch": torch.__version__}
    try:
        import triton
        info["triton"] = triton.__version__
    except Exception as e:  # noqa: BLE001
        info["triton"] = "unavailable: %s" % e
    info["cuda"] = torch.version.cuda
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        info["gpu"] = p.name
        info["compute_capability"] = "%d.%d" % (p.major, p.minor)
        info["sms"] = p.multi_processor_count
    else:
        info["gpu"] = None
    return info


def size_value(expr, sizes):
    if isinstance(expr, (int, float)):
        return expr
    return int(eval(str(expr), {"__builtins__": {}}, dict(sizes)))  # noqa: S307 - spec expressions


def make_inputs(spec, sizes, seed):
    import torch
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
              "int32": torch.int32, "int64": torch.int64}
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    env = {}
    for sc in spec.get("scalars", []):
        name = sc["name"]
        if name in sizes:
            env[name] = sizes[name]
        elif "value" in sc:
            env[name] = sc["value"]
    for inp in spec["inputs"]:
        shape = [size_value(d, sizes) for d in inp["shape"]]
        dt = dtypes[inp["dtype"]]
        init = inp.get("init", {"kind": "normal"})
        kind = init.get("kind", "normal")
        if kind == "randint":
            lo = size_value(init.get("low", 0), sizes)
            hi = size_value(init.get("high", 2), sizes)
            t = torch.randint(lo, hi, shape, generator=g, device="cuda", dtype=torch.int64).to(dt)
        elif kind == "uniform":
            t = torch.rand(shape, generator=g, device="cuda", dtype=torch.float32)
            t = (t * (init.get("high", 1.0) - init.get("low", 0.0)) + init.get("low", 0.0)).to(dt)
        elif kind == "zeros":
            t = torch.zeros(shape, device="cuda", dtype=dt)
        else:
            t = torch.randn(shape, generator=g, device="cuda", dtype=torch.float32)
            t = (t * init.get("std", 1.0) + init.get("mean", 0.0)).to(dt)
        env[inp["name"]] = t.contiguous()
    return env


def make_outputs(spec, sizes, env):
    import torch
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
              "int32": torch.int32, "int64": torch.int64}
    outs = {}
    for o in spec["outputs"]:
        if o.get("inplace"):
            outs[o["name"]] = env[o["inplace"]].clone()
        else:
            shape = [size_value(d, sizes) for d in o["shape"]]
            outs[o["name"]] = torch.zeros(shape, device="cuda", dtype=dtypes[o["dtype"]])
    return outs


def load_module(path, name):
    d = os.path.dirname(os.path.abspath(path))
    if d not in sys.path:
        sys.path.insert(0, d)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def load_reference(plan, spec):
    ref = spec["reference"]["triton"]
    fname, func = ref.split(":")
    mod = load_module(os.path.join(plan["reference_dir"], "triton", fname), "kcheck_reference_" + spec["op"])
    return getattr(mod, func)


def as_list(result, spec, outs):
    """The outputs of a call: what it returned when that is a tensor (or a
    tuple of tensors); otherwise (None, a launch handle) the output buffers."""
    import torch
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (tuple, list)) and result and all(isinstance(t, torch.Tensor) for t in result):
        return list(result)
    return [outs[o["name"]] for o in spec["outputs"]]


CALL_FILE = "kcheck-binding-call"  # the plan's call_file (KC_VERIFY_CALL_FILE) replaces it


def call_user(mod, call, env, outs, names=None):
    """Evaluates the binding's call in the user's module with the inputs,
    sizes and output buffers bound (outputs under `names` when the binding
    gives them: outputs=out). Compiled under CALL_FILE, so that an error of
    the call itself (binding_error) is told from one of the kernel."""
    ns = dict(vars(mod))
    ns.update(env)
    if names:
        ns.update({n: t for n, t in zip(names, outs.values())})
    else:
        ns.update(outs)
    return eval(compile(call, CALL_FILE, "eval"), ns)  # noqa: S307 - the user's own binding


def binding_error(e):
    """The message when exception e is the binding's own mistake: the call
    does not parse, or it failed in the call expression itself (a name it
    uses is not defined, an attribute is missing, the arguments do not fit
    a Python function's signature), not somewhere below it."""
    if isinstance(e, SyntaxError) and e.filename == CALL_FILE:
        return "call= is not a Python expression: %s" % (e.msg or "invalid syntax")
    tb = e.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is not None and last.tb_frame.f_code.co_filename == CALL_FILE and \
            isinstance(e, (NameError, AttributeError, TypeError)):
        return "call= failed: %s: %s" % (type(e).__name__, e)
    return None


def compare(spec, got, want):
    import torch
    report = {"ok": True, "outputs": []}
    for o, g, w in zip(spec["outputs"], got, want):
        entry = {"name": o["name"]}
        if not isinstance(g, torch.Tensor):
            entry.update(ok=False, error="the call returned %s, not a tensor" % type(g).__name__)
            report["ok"] = False
            report["outputs"].append(entry)
            continue
        g64 = g.detach().to(torch.float64).reshape(-1)
        w64 = w.detach().to(torch.float64).reshape(-1)
        if g64.numel() != w64.numel():
            entry.update(ok=False, error="shape %s, expected %s" % (list(g.shape), list(w.shape)))
            report["ok"] = False
            report["outputs"].append(entry)
            continue
        diff = (g64 - w64).abs()
        bad_nan = torch.isnan(g64) != torch.isnan(w64)
        diff = torch.where(torch.isnan(diff), torch.full_like(diff, float("inf")), diff)
        diff = torch.where(bad_nan, torch.full_like(diff, float("inf")), diff)
        tol = o.get("atol", 1e-5) + o.get("rtol", 1e-5) * w64.abs()
        nbad = int((diff > tol).sum().item())
        i = int(torch.argmax(diff).item()) if diff.numel() else 0
        where = list(torch.unravel_index(torch.tensor(i), tuple(w.shape))) if w.dim() else []
        entry.update(ok=nbad == 0, mismatches=nbad, total=int(diff.numel()),
                     max_abs_err=float(diff[i].item()) if diff.numel() else 0.0,
                     where=[int(x) for x in where],
                     got=float(g64[i].item()) if diff.numel() else None,
                     expected=float(w64[i].item()) if diff.numel() else None)
        report["ok"] = report["ok"] and nbad == 0
        report["outputs"].append(entry)
    return report


def short_error(e):
    """One line: a Triton compilation error becomes "line L:C: <the error>"
    (its message quotes the source and a caret in between)."""
    text = "".join(traceback.format_exception_only(type(e), e)).strip()
    lines = [l for l in text.splitlines() if l.strip()]
    where = None
    for l in lines:
        m = re.search(r"\bat (\d+):(\d+):", l)
        if m:
            where = "at %s:%s of the function" % (m.group(1), m.group(2))
            break
    tail = lines[-1].strip() if lines else type(e).__name__
    if where and "CompilationError" in type(e).__name__:
        return ("%s (%s)" % (tail, where))[:600]
    return " | ".join(x.strip() for x in lines[-3:])[:600]


def fresh_cache():
    d = tempfile.mkdtemp(prefix="kcheck-triton-cache-")
    os.environ["TRITON_CACHE_DIR"] = d
    try:
        import triton
        knobs = getattr(triton, "knobs", None)
        if knobs is not None and hasattr(knobs, "cache"):
            knobs.cache.dir = d
    except Exception:  # noqa: BLE001
        pass
    return d


def sync():
    import torch
    torch.cuda.synchronize()


def run_experiment(plan, spec, exp, modules, ref):
    import torch
    sizes = dict(spec["sizes"]["timing" if exp["kind"] == "timing" else "correctness"])
    sizes.update(plan.get("sizes_override", {}))
    variant = exp.get("variant", "original")
    path = plan["module"] if variant == "original" else exp["module"]
    out = {"id": exp["id"], "kind": exp["kind"], "variant": variant, "sizes": sizes}
    if "diag" in exp:
        out["diag"] = exp["diag"]
    if exp["kind"] == "timing":
        fresh_cache()
    key = (path, exp["kind"])
    t_import = time.perf_counter()
    mod = load_module(path, "kcheck_user_%d" % exp["id"])
    out["import_s"] = time.perf_counter() - t_import
    modules[key] = mod
    env = make_inputs(spec, sizes, plan.get("seed", 1234))
    outs = make_outputs(spec, sizes, env)
    if exp["kind"] == "compile_error":
        try:
            call_user(mod, plan["call"], env, outs, plan.get("output_names"))
            sync()
            out["raised"] = False
        except Exception as e:  # noqa: BLE001
            out["raised"] = True
            out["error_type"] = type(e).__name__
            out["error"] = short_error(e)
            why = binding_error(e)
            if why and variant == "original":
                RESULTS["binding_error"] = why
        return out
    if exp["kind"] == "correctness":
        got = as_list(call_user(mod, plan["call"], env, outs, plan.get("output_names")), spec, outs)
        sync()
        want = as_list(ref(**env), spec, make_outputs(spec, sizes, env))
        sync()
        out.update(compare(spec, got, want))
        return out
    if exp["kind"] == "timing":
        from triton.testing import do_bench
        t0 = time.perf_counter()
        call_user(mod, plan["call"], env, outs, plan.get("output_names"))
        sync()
        out["first_call_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        call_user(mod, plan["call"], env, outs, plan.get("output_names"))
        sync()
        out["second_call_s"] = time.perf_counter() - t0
        out["compile_s"] = max(0.0, out["first_call_s"] - out["second_call_s"])
        out["ms"] = float(do_bench(lambda: call_user(mod, plan["call"], env, outs, plan.get("output_names")),
                                   warmup=plan.get("warmup_ms", 25), rep=plan.get("rep_ms", 100),
                                   return_mode="median"))
        if ref is not None and exp.get("with_reference", True):
            ref(**env)
            sync()
            out["ref_ms"] = float(do_bench(lambda: ref(**env), warmup=plan.get("warmup_ms", 25),
                                           rep=plan.get("rep_ms", 100), return_mode="median"))
        nbytes = size_value(spec.get("bytes", "0"), sizes)
        out["bytes"] = nbytes
        if nbytes and out["ms"] > 0:
            out["gbps"] = nbytes / out["ms"] / 1e6
        return out
    out["error"] = "unknown experiment kind %s" % exp["kind"]
    return out


def resolve_paths(plan, base):
    for key in ("module", "spec", "reference_dir", "harness"):
        if key in plan and not os.path.isabs(plan[key]):
            plan[key] = os.path.join(base, plan[key])
    plan["include_dirs"] = [d if os.path.isabs(d) else os.path.join(base, d) for d in plan.get("include_dirs", [])]
    for exp in plan.get("experiments", []):
        if "module" in exp and not os.path.isabs(exp["module"]):
            exp["module"] = os.path.join(base, exp["module"])


def smi_info():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,compute_cap",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=30).stdout
        name, driver, cap = [x.strip() for x in out.splitlines()[0].split(",")]
        return {"gpu": name, "driver": driver, "compute_capability": cap}
    except Exception:  # noqa: BLE001
        return {}


def nvcc_version(nvcc):
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60).stdout
        return out.strip().splitlines()[-1]
    except Exception:  # noqa: BLE001
        return None


def cuda_plan(plan, results_path, build_only):
    """Builds the harness with nvcc and runs it in each experiment's mode."""
    RESULTS["env"] = smi_info()
    nvcc = plan.get("nvcc") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    RESULTS["env"]["nvcc"] = nvcc_version(nvcc)
    arch = plan.get("arch") or "native"
    if arch == "native" and RESULTS["env"].get("compute_capability"):
        arch = "sm_" + RESULTS["env"]["compute_capability"].replace(".", "")
    elif arch == "native":
        arch = "sm_75"
    RESULTS["env"]["arch"] = arch
    binary = os.path.splitext(plan["harness"])[0]
    cmd = [nvcc, "-std=c++17", "-O3", "-lineinfo", "-arch=" + arch, "-o", binary, plan["harness"]]
    for d in plan.get("include_dirs", []):
        cmd.insert(1, "-I" + d)
    t0 = time.perf_counter()
    try:
        p = run_child(cmd, plan.get("compile_timeout_s", 600))
        build_ok, log = p.returncode == 0, (p.stdout + p.stderr)
    except FileNotFoundError:
        build_ok, log = False, "nvcc not found (%s)" % nvcc
    except subprocess.TimeoutExpired:
        build_ok, log = False, "nvcc timed out"
    RESULTS["build"] = {"ok": build_ok, "seconds": time.perf_counter() - t0, "arch": arch,
                        "log": "\n".join([l for l in log.splitlines() if "error" in l][:8]) or log[-2000:]}
    if not build_ok:
        RESULTS["fatal"] = "the harness does not compile (%s): %s" % (arch, RESULTS["build"]["log"][:600])
        # Errors nvcc places in the binding's call (the harness's `#line`).
        mine = [l.split("error:", 1)[1].strip() for l in log.splitlines()
                if l.startswith(CALL_FILE + "(") and "error:" in l]
        if mine:
            RESULTS["binding_error"] = "call= does not compile: " + " | ".join(mine[:3])
    flush(results_path)
    if build_only or not build_ok:
        return 0
    for exp in plan["experiments"]:
        r = {"id": exp["id"], "kind": exp["kind"], "variant": exp.get("variant", "original"),
             "sizes": plan.get("sizes", {}).get("timing" if exp["kind"] == "timing" else "correctness", {})}
        RESULTS["running"] = {"id": exp["id"], "kind": exp["kind"], "variant": r["variant"]}
        flush(results_path)
        run = [binary, "timing" if exp["kind"] == "timing" else "correctness"]
        tool = SANITIZER_TOOLS.get(exp["kind"])
        if tool:
            run = ["compute-sanitizer", "--tool"] + tool + ["--error-exitcode", "9"] + run
        t0 = time.perf_counter()
        run_measured(r, run, plan.get("timeout_s", 120), "the harness", bool(tool))
        r["wall_s"] = time.perf_counter() - t0
        RESULTS["experiments"].append(r)
        RESULTS.pop("running", None)
        flush(results_path)
    return 0


def run_measured(r, cmd, timeout, who, sanitized, env=None):
    """Runs a child that prints its result as its last JSON line (the CUDA
    harness, or this driver's --one call), into the experiment's result r:
    that result, how the child ended (`who` names it), and under
    compute-sanitizer (whose --error-exitcode is 9) the sanitizer's report."""
    try:
        p = run_child(cmd, timeout, env=env)
    except subprocess.TimeoutExpired:
        r["error"] = "timed out after %s s" % timeout
        return
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if lines:
        r.update(json.loads(lines[-1]))
    if p.returncode < 0:
        r["error"] = "%s was killed by signal %d (a GPU fault?)" % (who, -p.returncode)
    elif p.returncode != 0 and not (sanitized and p.returncode == 9) and "error" not in r:
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        r["error"] = "%s exited with status %d: %s" % (who, p.returncode, " | ".join(tail))
    if sanitized:
        sanitizer_report(r, p)


# compute-sanitizer's tools by experiment kind, with their options
SANITIZER_TOOLS = {"memcheck": ["memcheck"], "racecheck": ["racecheck", "--racecheck-report", "hazard"],
                   "synccheck": ["synccheck"]}


def sanitizer_report(r, p):
    """What a compute-sanitizer run (the CompletedProcess p) reported, into
    the experiment's result r."""
    out_lines = (p.stdout + "\n" + p.stderr).splitlines()
    summary = [l for l in out_lines if "ERROR SUMMARY" in l or "RACECHECK SUMMARY" in l]
    r["sanitizer"] = " / ".join(x.strip("= ").strip() for x in summary) if summary else None
    m = re.search(r"ERROR SUMMARY: (\d+) error", " ".join(summary))
    if not m:  # racecheck --racecheck-report hazard: "N hazards displayed (E errors, W warnings)"
        m = re.search(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?", " ".join(summary))
    r["sanitizer_error_count"] = int(m.group(1)) if m else None
    keys = ("Invalid", "Race", "race", "hazard", "Barrier", "barrier", "divergent", "Error")
    r["sanitizer_errors"] = [l.strip("= ").strip() for l in out_lines
                             if l.startswith("=========") and any(k in l for k in keys)
                             and "SUMMARY" not in l][:5]
    # the reports themselves, to place them at the findings' lines (kcheck
    # parses them as it parses a --run log)
    r["sanitizer_log"] = "\n".join([l for l in out_lines if l.startswith("=========")
                                    and "Host Frame" not in l][:1000])
    if "error" in r and r["sanitizer_error_count"]:
        r.pop("error")  # the sanitizer's findings are the result


def triton_sanitized(plan_path, plan, exp):
    """A memory or race experiment on a Triton binding: the kernel as written,
    called once at the correctness sizes in a process of its own under
    compute-sanitizer (Triton's kernels are ordinary cubins to it), without
    PyTorch's caching allocator, which hides an access past a tensor inside
    its block."""
    sizes = dict(plan_spec_sizes(plan))
    r = {"id": exp["id"], "kind": exp["kind"], "variant": "original", "sizes": sizes}
    cs = shutil.which("compute-sanitizer") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                                                           "bin", "compute-sanitizer")
    if not os.access(cs, os.X_OK):
        r["error"] = "compute-sanitizer not found"
        return r
    env = dict(os.environ, PYTORCH_NO_CUDA_MEMORY_CACHING="1")
    run = [cs, "--tool"] + SANITIZER_TOOLS[exp["kind"]] + ["--error-exitcode", "9", sys.executable,
                                                           os.path.abspath(__file__), "--one", os.path.abspath(plan_path),
                                                           str(exp["id"])]
    run_measured(r, run, plan.get("timeout_s", 120), "the call", True, env=env)
    return r


def plan_spec_sizes(plan):
    with open(plan["spec"]) as f:
        sizes = dict(json.load(f)["sizes"]["correctness"])
    sizes.update(plan.get("sizes_override", {}))
    return sizes


def run_one(plan_path, exp_id):
    """--one: the kernel as written, called once for experiment exp_id of a
    Triton plan (the child of triton_sanitized); prints what happened as
    one JSON line."""
    with open(plan_path) as f:
        plan = json.load(f)
    resolve_paths(plan, os.path.dirname(os.path.abspath(plan_path)))
    with open(plan["spec"]) as f:
        spec = json.load(f)
    out = {}
    try:
        sizes = plan_spec_sizes(plan)
        mod = load_module(plan["module"], "kcheck_user_%s" % exp_id)
        env = make_inputs(spec, sizes, plan.get("seed", 1234))
        outs = make_outputs(spec, sizes, env)
        call_user(mod, plan["call"], env, outs, plan.get("output_names"))
        sync()
        out["called"] = True
    except Exception as e:  # noqa: BLE001
        out["error"] = short_error(e)
        out["error_type"] = type(e).__name__
    print(json.dumps(out))
    return 0


def run_plan(plan_path, results_path, build_only):
    global RESULTS
    RESULTS = {"env": {}, "experiments": [], "fatal": None}
    with open(plan_path) as f:
        plan = json.load(f)
    resolve_paths(plan, os.path.dirname(os.path.abspath(plan_path)))
    global CALL_FILE
    CALL_FILE = plan.get("call_file", CALL_FILE)
    if plan.get("lang") == "cuda":
        return cuda_plan(plan, results_path, build_only)
    if build_only:
        mods = [plan["module"]] + [e["module"] for e in plan["experiments"] if "module" in e]
        RESULTS["build"] = {"ok": True, "checked": len(mods)}
        for m in mods:
            try:
                py_compile.compile(m, doraise=True, cfile=os.path.join(tempfile.mkdtemp(), "x.pyc"))
            except Exception as e:  # noqa: BLE001
                RESULTS["build"] = {"ok": False, "log": short_error(e)}
                RESULTS["fatal"] = "does not compile as Python: %s" % short_error(e)
        flush(results_path)
        return 0
    try:
        RESULTS["env"] = env_info()
        for k, v in smi_info().items():
            RESULTS["env"].setdefault(k, v)
    except Exception as e:  # noqa: BLE001
        RESULTS["fatal"] = "cannot import torch/triton or use the GPU: %s" % short_error(e)
        flush(results_path)
        return 0
    flush(results_path)
    try:
        import torch
        if not torch.cuda.is_available():
            RESULTS["fatal"] = "no CUDA GPU visible to torch"
            flush(results_path)
            return 0
        with open(plan["spec"]) as f:
            spec = json.load(f)
        ref = load_reference(plan, spec)
    except Exception as e:  # noqa: BLE001
        RESULTS["fatal"] = "cannot load the op spec or the reference: %s" % short_error(e)
        flush(results_path)
        return 0
    modules = {}
    for exp in plan["experiments"]:
        t0 = time.perf_counter()
        # If the process dies here (time limit, GPU fault), this says where.
        RESULTS["running"] = {"id": exp["id"], "kind": exp["kind"], "variant": exp.get("variant", "original")}
        flush(results_path)
        try:
            if exp["kind"] in SANITIZER_TOOLS:
                r = triton_sanitized(plan_path, plan, exp)
            else:
                r = run_experiment(plan, spec, exp, modules, ref)
        except Exception as e:  # noqa: BLE001
            r = {"id": exp["id"], "kind": exp["kind"], "variant": exp.get("variant", "original"),
                 "error": short_error(e), "error_type": type(e).__name__}
            if "diag" in exp:
                r["diag"] = exp["diag"]
            why = binding_error(e)
            if why and exp.get("variant", "original") == "original":
                RESULTS["binding_error"] = why
        r["wall_s"] = time.perf_counter() - t0
        RESULTS["experiments"].append(r)
        RESULTS.pop("running", None)
        flush(results_path)
    return 0


def plan_limit(plan_path):
    env = os.environ.get("KCHECK_PLAN_TIMEOUT")
    if env:
        return float(env)
    try:
        with open(plan_path) as f:
            plan = json.load(f)
        return float(plan.get("plan_limit_s") or 4 * plan.get("timeout_s", 300))
    except Exception:  # noqa: BLE001 - the plan's own run reports it
        return 1200.0


def context_spoiled():
    """Whether a CUDA error of the last plan may have left the context
    unusable (an illegal address, a launch failure, a device-side assert:
    sticky errors), so that the plans after it need a fresh process."""
    text = json.dumps(RESULTS.get("experiments", []))
    if "CUDA error" in text or "illegal" in text or "launch failure" in text:
        return True
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_initialized():
        return False
    try:
        torch.cuda.synchronize()
        torch.ones(1, device="cuda").add_(1).item()
        torch.cuda.empty_cache()
    except Exception:  # noqa: BLE001
        return True
    return False


def forget_modules(before, dirs):
    """Drops the modules a plan imported from the user's or the reference's
    directories, so that the next plan's imports of the same names load its
    own files."""
    for name in list(sys.modules):
        if name in before:
            continue
        f = getattr(sys.modules[name], "__file__", None) or ""
        if name.startswith("kcheck_") or any(f.startswith(d + os.sep) for d in dirs):
            del sys.modules[name]


def batch(list_path, out_dir, build_only):
    base = os.path.dirname(os.path.abspath(list_path))
    with open(list_path) as f:
        items = json.load(f)["plans"]
    for it in items:
        plan_path = os.path.join(base, it["plan"])
        results_path = os.path.join(out_dir, it["results"])
        if os.path.exists(results_path):
            continue
        global RESULTS
        RESULTS = {"env": {}, "experiments": [], "fatal": None, "running": {"id": -1, "kind": "setup",
                                                                              "variant": "original"}}
        flush(results_path)  # progress: a plan that kills the process is not run again
        print("== %s -> %s" % (it["plan"], results_path), file=sys.stderr)
        limit = plan_limit(plan_path)

        def expire(results_path=results_path, limit=limit):
            RESULTS["killed"] = "the plan's time limit of %.0f s" % limit
            RESULTS.setdefault("running", {"id": -1, "kind": "setup", "variant": "original"})
            flush(results_path)
            for pid in list(CHILDREN):
                kill_group(pid)
            os._exit(124)

        watchdog = threading.Timer(limit, expire)
        watchdog.daemon = True
        watchdog.start()
        before, path_before = set(sys.modules), list(sys.path)
        try:
            run_plan(plan_path, results_path, build_only)
        except Exception as e:  # noqa: BLE001
            RESULTS["fatal"] = "the driver failed: %s" % short_error(e)
            flush(results_path)
        finally:
            watchdog.cancel()
        dirs = [os.path.dirname(os.path.abspath(p)) for p in sys.path if p not in path_before]
        sys.path[:] = path_before
        forget_modules(before, dirs)
        if not build_only and context_spoiled():
            print("   (a CUDA error may have spoiled the context: the plans left need a fresh process)",
                  file=sys.stderr)
            return 3
    return 0


def main():
    build_only = "--build-only" in sys.argv[3:]
    if sys.argv[1] == "--one":
        return run_one(sys.argv[2], sys.argv[3])
    if sys.argv[1] == "--batch":
        return batch(sys.argv[2], sys.argv[3], "--build-only" in sys.argv[4:])
    return run_plan(sys.argv[1], sys.argv[2], build_only)


if __name__ == "__main__":
    sys.exit(main())
