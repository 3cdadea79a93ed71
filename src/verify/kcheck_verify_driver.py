"""kcheck verify driver for Triton (and other Python) kernels.

Generated plans are run as:  python3 kcheck_verify_driver.py PLAN.json RESULTS.json

The plan names the user's module, the op spec, the reference directory, the
call expression and a list of experiments. Results are written after every
experiment, so a run that is killed (timeout, GPU fault) still leaves what
it measured. Only the standard library, torch and triton are used.
"""
import importlib.util
import json
import math
import os
import sys
import tempfile
import time
import traceback

RESULTS = {"env": {}, "experiments": [], "fatal": None}


def flush(path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(RESULTS, f, indent=1, default=str)
    os.replace(tmp, path)


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
    if result is None:
        return [outs[o["name"]] for o in spec["outputs"]]
    if isinstance(result, (tuple, list)):
        return list(result)
    return [result]


def call_user(mod, call, env, outs):
    ns = dict(vars(mod))
    ns.update(env)
    ns.update(outs)
    return eval(call, ns)  # noqa: S307 - the user's own binding


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
    text = "".join(traceback.format_exception_only(type(e), e)).strip()
    lines = [l for l in text.splitlines() if l.strip()]
    # Triton compilation errors carry the offending source line: keep the tail.
    return " | ".join(lines[-6:])[:1200]


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
            call_user(mod, plan["call"], env, outs)
            sync()
            out["raised"] = False
        except Exception as e:  # noqa: BLE001
            out["raised"] = True
            out["error_type"] = type(e).__name__
            out["error"] = short_error(e)
        return out
    if exp["kind"] == "correctness":
        got = as_list(call_user(mod, plan["call"], env, outs), spec, outs)
        sync()
        want = as_list(ref(**env), spec, make_outputs(spec, sizes, env))
        sync()
        out.update(compare(spec, got, want))
        return out
    if exp["kind"] == "timing":
        from triton.testing import do_bench
        t0 = time.perf_counter()
        call_user(mod, plan["call"], env, outs)
        sync()
        out["first_call_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        call_user(mod, plan["call"], env, outs)
        sync()
        out["second_call_s"] = time.perf_counter() - t0
        out["compile_s"] = max(0.0, out["first_call_s"] - out["second_call_s"])
        out["ms"] = float(do_bench(lambda: call_user(mod, plan["call"], env, outs),
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


def main():
    plan_path, results_path = sys.argv[1], sys.argv[2]
    with open(plan_path) as f:
        plan = json.load(f)
    try:
        RESULTS["env"] = env_info()
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
        try:
            r = run_experiment(plan, spec, exp, modules, ref)
        except Exception as e:  # noqa: BLE001
            r = {"id": exp["id"], "kind": exp["kind"], "variant": exp.get("variant", "original"),
                 "error": short_error(e), "error_type": type(e).__name__}
        r["wall_s"] = time.perf_counter() - t0
        RESULTS["experiments"].append(r)
        flush(results_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
