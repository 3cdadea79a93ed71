#!/usr/bin/env python3
"""Benchmark and check of kcheck's reference kernels (kernels/reference/).

    python3 bench/reference_bench.py [--quick] [--cuda-bench PATH | --build-cuda]
                                     [--ops a,b,...] [--out results.json] [--md results.md]

For every op spec in kernels/reference/ops/ that this script knows (an
oracle and a PyTorch equivalent below):

  (a) checks the Triton reference, called exactly as `kcheck verify` calls it
      (keyword arguments for every input and scalar, inputs generated from
      the spec), against PyTorch in float64, at the spec's correctness sizes,
      at extra sizes that are not multiples of the block sizes (odd rows,
      unaligned rows, fallback paths, ignore_index; for cross-entropy also
      the keyword options label_smoothing and reduction, checked against
      F.cross_entropy in float64), and at the timing sizes;
      max_rel_err is max|got - want| / max|want|, ok means every element is
      within the spec's atol + rtol * |want| and NaNs match;
  (b) times the Triton reference and the PyTorch equivalent at the spec's
      timing sizes with triton.testing.do_bench (L2 flushed before every run,
      median); cross-entropy forward also with label_smoothing=0.1, next to
      the plain line, so the cost of smoothing shows;
  (c) measures copy bandwidth: a torch device-to-device copy of 1 GiB (bytes
      read + written);
  (d) runs the CUDA reference bench (bench/cuda_reference_bench.cu) when
      given its binary (--cuda-bench PATH) or asked to build it
      (--build-cuda, nvcc -arch=native) and merges its JSON lines;
  (e) prints a Markdown table per op (size, impl, ms, GB/s, % of copy
      bandwidth, speed-up over PyTorch, max error, ok), the machine (GPU,
      driver, torch/triton/CUDA versions) and the performance targets, and
      writes everything as JSON to --out.

--quick runs only the correctness checks at small sizes (no timing, no
timing-size checks) and passes --quick to the CUDA bench.  Each op and each
size runs in its own try/except: a failure is printed and recorded, and the
rest still runs.  Exit status 1 when any check failed or errored.
"""
import argparse
import ast
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF_DIR = os.path.join(ROOT, "kernels", "reference")
OPS_DIR = os.path.join(REF_DIR, "ops")

torch = None
triton = None
F = None


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ specs

def size_value(expr, sizes):
    """Evaluates a spec size expression (numbers, size names, + - * / // ( ))."""
    if isinstance(expr, (int, float)):
        return expr
    tree = ast.parse(str(expr), mode="eval")

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return n.value
        if isinstance(n, ast.Name):
            return sizes[n.id]
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.Div: lambda: a / b, ast.FloorDiv: lambda: a // b}
            if type(n.op) in ops:
                return ops[type(n.op)]()
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        raise ValueError("unsupported size expression: %s" % expr)

    v = ev(tree)
    return int(v) if isinstance(v, float) and v.is_integer() else v


def load_specs():
    specs = {}
    for name in sorted(os.listdir(OPS_DIR)):
        if name.endswith(".json"):
            with open(os.path.join(OPS_DIR, name)) as f:
                spec = json.load(f)
            specs[spec["op"]] = spec
    return specs


def dtype_of(name):
    return {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
            "int32": torch.int32, "int64": torch.int64}[name]


def make_inputs(spec, sizes, seed):
    """Inputs and scalars as kcheck verify's driver makes them (same distributions)."""
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    env = {}
    for sc in spec.get("scalars", []):
        if sc["name"] in sizes:
            env[sc["name"]] = sizes[sc["name"]]
        elif "value" in sc:
            env[sc["name"]] = sc["value"]
    for inp in spec["inputs"]:
        shape = [size_value(d, sizes) for d in inp["shape"]]
        dt = dtype_of(inp["dtype"])
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


def load_reference(spec):
    fname, func = spec["reference"]["triton"].split(":")
    path = os.path.join(REF_DIR, "triton", fname)
    modname = "kcref_" + os.path.splitext(fname)[0]
    if modname not in sys.modules:
        ms = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(ms)
        sys.modules[modname] = mod
        ms.loader.exec_module(mod)
    return getattr(sys.modules[modname], func)


def as_list(result):
    if isinstance(result, (tuple, list)):
        return list(result)
    return [result]


# ------------------------------------------------------------------ oracles (float64) and PyTorch equivalents

def _ce_oracle_torch(env, with_grad):
    """F.cross_entropy in float64 with the options in env (label_smoothing,
    reduction, ignore_index); the gradient by autograd, times grad_scale."""
    x, t = env["logits"], env["target"]
    eps = float(env.get("label_smoothing", 0.0))
    red = env.get("reduction", "none")
    ignore = int(env.get("ignore_index", -100))
    gs = float(env.get("grad_scale", 1.0))
    if red != "none":
        if with_grad:
            raise ValueError("the fused op has no reduction")
        with torch.no_grad():
            return [F.cross_entropy(x.double(), t, reduction=red, label_smoothing=eps, ignore_index=ignore)]
    losses, grads = [], []
    for r0 in range(0, x.shape[0], 512):   # row chunks bound the float64 memory
        xd = x[r0:r0 + 512].double().requires_grad_(with_grad)
        with torch.set_grad_enabled(with_grad):
            loss = F.cross_entropy(xd, t[r0:r0 + 512], reduction="none", label_smoothing=eps, ignore_index=ignore)
        if with_grad:
            loss.backward(torch.full_like(loss, gs))
            grads.append(xd.grad)
        losses.append(loss.detach())
        del xd, loss
    out = [torch.cat(losses)]
    if with_grad:
        out.append(torch.cat(grads))
    return out


def _ce_oracle(env, with_grad):
    if any(k in env for k in ("label_smoothing", "reduction", "ignore_index")):
        return _ce_oracle_torch(env, with_grad)
    x, t = env["logits"], env["target"]
    ignore = -100
    gs = float(env.get("grad_scale", 1.0))
    losses, grads = [], []
    with torch.no_grad():
        for r0 in range(0, x.shape[0], 512):   # row chunks bound the float64 memory
            xd = x[r0:r0 + 512].double()
            tt = t[r0:r0 + 512]
            ign = tt == ignore
            ts = torch.where(ign, torch.zeros_like(tt), tt)
            lse = torch.logsumexp(xd, dim=1)
            loss = lse - xd.gather(1, ts[:, None])[:, 0]
            losses.append(torch.where(ign, torch.zeros_like(loss), loss))
            if with_grad:
                p = torch.exp(xd - lse[:, None])
                p.scatter_add_(1, ts[:, None], -torch.ones_like(p[:, :1]))
                p[ign] = 0.0
                grads.append(p * gs)
            del xd
    out = [torch.cat(losses)]
    if with_grad:
        out.append(torch.cat(grads))
    return out


def _softmax_oracle(env):
    with torch.no_grad():
        x = env["x"]
        return [torch.cat([torch.softmax(x[r:r + 1024].double(), dim=1) for r in range(0, x.shape[0], 1024)])]


ORACLES = {
    "cross_entropy_fwd": lambda e: _ce_oracle(e, False),
    "cross_entropy_fwd_bf16": lambda e: _ce_oracle(e, False),
    "cross_entropy_fwd_bwd": lambda e: _ce_oracle(e, True),
    "cross_entropy_fwd_bwd_bf16": lambda e: _ce_oracle(e, True),
    "decode_scores": lambda e: [torch.einsum("bhd,blhd->bhl", e["q"].double(), e["k"].double())],
    "decode_scores_fp32": lambda e: [torch.einsum("bhd,blhd->bhl", e["q"].double(), e["k"].double())],
    "softmax_rows": _softmax_oracle,
    "block_sum": lambda e: [e["x"].double().sum().reshape(1)],
    "transpose": lambda e: [e["x"].t().double()],
    "axpy": lambda e: [float(e["a"]) * e["x"].double() + e["y"].double()],
    "matvec": lambda e: [e["A"].double() @ e["x"].double()],
    "matmul": lambda e: [e["a"].double() @ e["b"].double()],
}


def _torch_ce_fwd_bwd(env):
    x = env["logits"].detach().clone().requires_grad_(True)
    t = env["target"]
    eps = float(env.get("label_smoothing", 0.0))
    gvec = torch.full((x.shape[0],), float(env.get("grad_scale", 1.0)), device=x.device, dtype=x.dtype)

    def fn():
        loss = F.cross_entropy(x, t, reduction="none", label_smoothing=eps)
        loss.backward(gvec)
        return loss

    return fn, [x]


def _torch_ce_fwd(env):
    x, t = env["logits"], env["target"]
    eps = float(env.get("label_smoothing", 0.0))
    return (lambda: F.cross_entropy(x, t, reduction="none", label_smoothing=eps)), None


# name -> (function of env returning (callable, grad_to_none list), description)
BASELINES = {
    "cross_entropy_fwd": (_torch_ce_fwd, "F.cross_entropy(reduction='none')"),
    "cross_entropy_fwd_bf16": (_torch_ce_fwd, "F.cross_entropy(reduction='none') on bf16"),
    "cross_entropy_fwd_bwd": (_torch_ce_fwd_bwd, "F.cross_entropy(reduction='none') + backward"),
    "cross_entropy_fwd_bwd_bf16": (_torch_ce_fwd_bwd, "F.cross_entropy(reduction='none') + backward on bf16"),
    "decode_scores": (lambda e: (lambda: torch.einsum("bhd,blhd->bhl", e["q"], e["k"]), None),
                      "torch.einsum('bhd,blhd->bhl') (fp16 output)"),
    "decode_scores_fp32": (lambda e: (lambda: torch.einsum("bhd,blhd->bhl", e["q"], e["k"]), None),
                           "torch.einsum('bhd,blhd->bhl')"),
    "softmax_rows": (lambda e: (lambda: torch.softmax(e["x"], dim=1), None), "torch.softmax(dim=1)"),
    "block_sum": (lambda e: (lambda: torch.sum(e["x"]), None), "torch.sum"),
    "transpose": (lambda e: (lambda: e["x"].t().contiguous(), None), "x.t().contiguous()"),
    "axpy": (lambda e: (lambda: e["y"].add_(e["x"], alpha=float(e["a"])), None), "y.add_(x, alpha=a)"),
    "matvec": (lambda e: (lambda: torch.mv(e["A"], e["x"]), None), "torch.mv (cuBLAS gemv)"),
    "matmul": (lambda e: (lambda: torch.matmul(e["a"], e["b"]), None), "torch.matmul (fp16 output)"),
}


def _ignore_some(env):
    t = env["target"]
    t[::5] = -100


def _ce_opts(eps, reduction=None, ignore=True, ignore_index=None):
    """A hook that sets cross-entropy keyword options in env (the reference
    receives them as keywords, the oracle reads them), and by default marks
    every fifth row ignored (target = ignore_index, -100 unless given)."""
    def hook(env):
        if ignore:
            env["target"][::5] = -100 if ignore_index is None else ignore_index
        env["label_smoothing"] = eps
        if reduction is not None:
            env["reduction"] = reduction
        if ignore_index is not None:
            env["ignore_index"] = ignore_index
    return hook


def _ce_label(eps, reduction=None, ignore=True, ignore_index=None):
    parts = ["ignore_index" + ("=%d" % ignore_index if ignore_index is not None else "")] if ignore else []
    parts.append("label_smoothing=%g" % eps)
    if reduction is not None:
        parts.append("reduction=%s" % reduction)
    return ", ".join(parts)


def _ce_smoothing_cases(fused):
    """label_smoothing 0.1 and 0.5 (x every reduction for the forward) at odd
    sizes with ignored rows, and one non-default ignore_index."""
    out = []
    for eps in (0.1, 0.5):
        for red in ((None,) if fused else ("none", "mean", "sum")):
            out.append(({"M": 67, "N": 1003}, _ce_opts(eps, red), _ce_label(eps, red)))
    out.append(({"M": 5, "N": 100003}, _ce_opts(0.1), _ce_label(0.1)))
    out.append(({"M": 3, "N": 7}, _ce_opts(0.5, None if fused else "mean"), _ce_label(0.5, None if fused else "mean")))
    out.append(({"M": 33, "N": 999}, _ce_opts(0.1, ignore_index=3), _ce_label(0.1, ignore_index=3)))
    return out


# Extra correctness sizes: non-multiples of the block sizes, long and
# unaligned rows, fallback paths.  (sizes, mutate-hook or None, label)
EXTRA = {
    "cross_entropy_fwd": [({"M": 67, "N": 1003}, _ignore_some, "ignore_index"), ({"M": 5, "N": 100003}, None, ""),
                          ({"M": 3, "N": 7}, None, ""), ({"M": 33, "N": 4096}, None, "")]
    + _ce_smoothing_cases(False),
    "cross_entropy_fwd_bf16": [({"M": 67, "N": 1003}, _ignore_some, "ignore_index"),
                               ({"M": 5, "N": 100003}, None, ""), ({"M": 3, "N": 7}, None, "")]
    + _ce_smoothing_cases(False),
    "cross_entropy_fwd_bwd": [({"M": 67, "N": 1003}, _ignore_some, "ignore_index"),
                              ({"M": 5, "N": 100003}, None, ""), ({"M": 3, "N": 7}, None, "")]
    + _ce_smoothing_cases(True),
    "cross_entropy_fwd_bwd_bf16": [({"M": 67, "N": 1003}, _ignore_some, "ignore_index"),
                                   ({"M": 5, "N": 100003}, None, "")]
    + [({"M": 67, "N": 1003}, _ce_opts(0.1), _ce_label(0.1))],
    "decode_scores": [({"B": 2, "H": 5, "L": 77, "D": 64}, None, ""), ({"B": 1, "H": 3, "L": 33, "D": 100}, None, ""),
                      ({"B": 2, "H": 48, "L": 40, "D": 128}, None, "")],
    "decode_scores_fp32": [({"B": 2, "H": 40, "L": 77, "D": 32}, None, ""),
                           ({"B": 2, "H": 3, "L": 50, "D": 15}, None, ""), ({"B": 1, "H": 1, "L": 5, "D": 4}, None, "")],
    "softmax_rows": [({"M": 9, "N": 3001}, None, ""), ({"M": 5, "N": 8190}, None, ""), ({"M": 3, "N": 12001}, None, ""),
                     ({"M": 3, "N": 20001}, None, "two-pass"), ({"M": 2, "N": 65536}, None, "two-pass"),
                     ({"M": 4, "N": 1}, None, "")],
    "block_sum": [({"n": 3}, None, ""), ({"n": (1 << 20) + 7}, None, "")],
    "transpose": [({"M": 1000, "N": 67}, None, ""), ({"M": 130, "N": 129}, None, ""), ({"M": 1, "N": 1}, None, "")],
    "axpy": [({"n": 3}, None, ""), ({"n": 2049}, None, "")],
    "matvec": [({"M": 33, "K": 4096}, None, ""), ({"M": 5, "K": 100003}, None, ""), ({"M": 3, "K": 2}, None, "")],
}

# Extra timing lines at the spec's timing sizes, after the plain one: (hook, label).
# label_smoothing=0.1 shows what the row sum costs (the eps=0 path has none).
TIMING_EXTRA = {
    "cross_entropy_fwd": [(_ce_opts(0.1, ignore=False), "label_smoothing=0.1")],
    "cross_entropy_fwd_bf16": [(_ce_opts(0.1, ignore=False), "label_smoothing=0.1")],
}

# Performance targets (issue 5): op -> (min speed-up over PyTorch, min % of copy bandwidth)
TARGETS = {
    "cross_entropy_fwd": (3.0, 85.0),
    "cross_entropy_fwd_bf16": (3.0, 85.0),
    "cross_entropy_fwd_bwd": (2.0, None),
    "cross_entropy_fwd_bwd_bf16": (2.0, None),
    "decode_scores": (1.0, 80.0),
    "decode_scores_fp32": (1.0, 80.0),
}


# ------------------------------------------------------------------ comparison and timing

def compare(spec, got, want):
    out = {"ok": True, "outputs": []}
    for o, g, w in zip(spec["outputs"], got, want):
        e = {"name": o["name"]}
        if not isinstance(g, torch.Tensor):
            e.update(ok=False, error="returned %s, not a tensor" % type(g).__name__)
            out["ok"] = False
            out["outputs"].append(e)
            continue
        gf = g.detach().reshape(-1)
        wf = w.detach().reshape(-1)
        if gf.numel() != wf.numel():
            e.update(ok=False, error="shape %s, expected %s" % (list(g.shape), list(w.shape)))
            out["ok"] = False
            out["outputs"].append(e)
            continue
        atol, rtol = o.get("atol", 1e-5), o.get("rtol", 1e-5)
        nbad, max_abs, ref_max, worst = 0, 0.0, 0.0, None
        step = 1 << 26   # chunks bound the float64 temporaries
        for c0 in range(0, gf.numel(), step):
            g64 = gf[c0:c0 + step].double()
            w64 = wf[c0:c0 + step].double()
            diff = (g64 - w64).abs()
            gn, wn = torch.isnan(g64), torch.isnan(w64)
            diff = torch.where(gn & wn, torch.zeros_like(diff), diff)
            diff = torch.where((gn != wn) | torch.isnan(diff), torch.full_like(diff, math.inf), diff)
            wa = torch.nan_to_num(w64.abs(), nan=0.0, posinf=0.0)
            nb = int((diff > atol + rtol * wa).sum().item())
            i = int(torch.argmax(diff).item())
            if float(diff[i].item()) > max_abs or worst is None:
                max_abs = max(max_abs, float(diff[i].item()))
                if nb or worst is None:
                    worst = (c0 + i, float(g64[i].item()), float(w64[i].item()))
            ref_max = max(ref_max, float(wa.max().item()))
            nbad += nb
            del g64, w64, diff, gn, wn, wa
        e.update(ok=nbad == 0, mismatches=nbad, total=int(gf.numel()), max_abs_err=max_abs,
                 max_rel_err=max_abs / ref_max if ref_max > 0 else max_abs)
        if nbad and worst:
            e.update(worst_index=worst[0], got=worst[1], expected=worst[2])
        out["ok"] = out["ok"] and nbad == 0
        out["outputs"].append(e)
    finite = [x for x in out["outputs"] if "max_abs_err" in x]
    out["max_abs_err"] = max((x["max_abs_err"] for x in finite), default=None)
    out["max_rel_err"] = max((x["max_rel_err"] for x in finite), default=None)
    return out


def bench_ms(fn, grad_to_none=None, rep=100):
    from triton.testing import do_bench
    fn()
    torch.cuda.synchronize()
    return float(do_bench(fn, warmup=25, rep=rep, grad_to_none=grad_to_none, return_mode="median"))


def copy_bandwidth():
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)
    ms = bench_ms(lambda: dst.copy_(src))
    del src, dst
    torch.cuda.empty_cache()
    return {"bytes": 2 * n, "ms": ms, "gbps": 2 * n / (ms * 1e-3) / 1e9,
            "note": "torch device-to-device copy of 1 GiB, bytes read + written"}


def free():
    import gc
    gc.collect()
    torch.cuda.empty_cache()


# ------------------------------------------------------------------ one op

def fmt_size(sizes):
    return ",".join("%s=%s" % kv for kv in sizes.items())


def run_op(spec, args, copy_gbps):
    op = spec["op"]
    rows = []
    ref = load_reference(spec)
    cases = [("correctness", dict(spec["sizes"]["correctness"]), None, "")]
    for sizes, hook, label in EXTRA.get(op, []):
        sizes = {k: v for k, v in sizes.items() if any(k == s["name"] for s in spec.get("scalars", []))}
        cases.append(("extra", sizes, hook, label))
    if not args.quick:
        cases.append(("timing", dict(spec["sizes"]["timing"]), None, ""))
        for hook, label in TIMING_EXTRA.get(op, []):
            cases.append(("timing", dict(spec["sizes"]["timing"]), hook, label))
    for kind, sizes, hook, label in cases:
        row = {"op": op, "impl": "triton", "size": sizes, "check": kind if not label else "%s (%s)" % (kind, label),
               "label": label}
        t0 = time.perf_counter()
        env = None
        torch_rows = []
        try:
            env = make_inputs(spec, sizes, args.seed)
            if hook:
                hook(env)
            orig = {k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in env.items()}
            got = as_list(ref(**env))
            torch.cuda.synchronize()
            want = ORACLES[op](orig)
            cmp = compare(spec, got, want)
            del got, want, orig
            row.update(ok=cmp["ok"], max_abs_err=cmp["max_abs_err"], max_rel_err=cmp["max_rel_err"],
                       outputs=cmp["outputs"])
            if kind == "timing":
                nbytes = size_value(spec.get("bytes", "0"), sizes)
                row["bytes"] = nbytes
                row["ms"] = bench_ms(lambda: ref(**env), rep=args.rep)
                row["gbps"] = nbytes / (row["ms"] * 1e-3) / 1e9
                if copy_gbps:
                    row["pct_copy"] = 100.0 * row["gbps"] / copy_gbps
                base = BASELINES.get(op)
                if base:
                    tenv = make_inputs(spec, sizes, args.seed)
                    if hook:
                        hook(tenv)
                    fn, g2n = base[0](tenv)
                    trow = {"op": op, "impl": "torch", "size": sizes, "check": "-" if not label else "(%s)" % label,
                            "what": base[1] + (" with %s" % label if label else ""), "bytes": nbytes,
                            "label": label}
                    try:
                        trow["ms"] = bench_ms(fn, grad_to_none=g2n, rep=args.rep)
                        trow["gbps"] = nbytes / (trow["ms"] * 1e-3) / 1e9
                        if copy_gbps:
                            trow["pct_copy"] = 100.0 * trow["gbps"] / copy_gbps
                        row["speedup_vs_torch"] = trow["ms"] / row["ms"]
                        trow["speedup_vs_torch"] = 1.0
                    except Exception as e:  # noqa: BLE001
                        trow["error"] = short_error(e)
                        log("  torch baseline failed: %s" % trow["error"])
                    del tenv, fn, g2n
                    torch_rows.append(trow)
        except Exception as e:  # noqa: BLE001
            row.update(ok=False, error=short_error(e))
            log("  %s %s %s: ERROR %s" % (op, kind, fmt_size(sizes), row["error"]))
            if args.verbose:
                traceback.print_exc()
        row["wall_s"] = time.perf_counter() - t0
        rows.append(row)
        rows.extend(torch_rows)
        status = "ok" if row.get("ok") else ("ERROR" if "error" in row else "MISMATCH")
        log("  %-28s %-8s %-34s %-8s rel_err=%s%s" % (
            op, row["check"][:8], fmt_size(sizes)[:34], status, _g(row.get("max_rel_err")),
            "  %.4f ms" % row["ms"] if "ms" in row else ""))
        del env
        free()
    return rows


def short_error(e):
    text = "".join(traceback.format_exception_only(type(e), e)).strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return " | ".join(lines[-6:])[:1500]


def _g(v, fmt="%.3g"):
    return "-" if v is None else fmt % v


# ------------------------------------------------------------------ CUDA bench

def build_cuda_bench():
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    out = os.path.join(tempfile.mkdtemp(prefix="kcref-bench-"), "cuda_reference_bench")
    cmd = [nvcc, "-std=c++17", "-O3", "-arch=native", "-o", out,
           os.path.join(ROOT, "bench", "cuda_reference_bench.cu")]
    log("building the CUDA bench: %s" % " ".join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError("nvcc failed (%d): %s" % (r.returncode, r.stderr[-3000:]))
    return out


def run_cuda_bench(path, quick, reps):
    cmd = [path] + (["--quick"] if quick else []) + ["--reps", str(reps)]
    log("running the CUDA bench: %s" % " ".join(cmd))
    info = {"cmd": cmd}
    rows = []
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        info["rc"] = r.returncode
        info["stderr_tail"] = r.stderr[-3000:]
        out = r.stdout
    except subprocess.TimeoutExpired as e:
        info["rc"] = None
        info["error"] = "timed out after %ss" % e.timeout
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            rows.append(json.loads(line))
        except ValueError:
            info.setdefault("unparsed", []).append(line[:300])
    return rows, info


# ------------------------------------------------------------------ machine and report

def machine_info():
    info = {"python": sys.version.split()[0], "torch": torch.__version__, "triton": triton.__version__,
            "torch_cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0)}
    p = torch.cuda.get_device_properties(0)
    info["compute_capability"] = "%d.%d" % (p.major, p.minor)
    info["sms"] = p.multi_processor_count
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        info["nvidia_smi"] = r.stdout.strip()
    except Exception as e:  # noqa: BLE001
        info["nvidia_smi"] = "unavailable: %s" % e
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if nvcc:
        try:
            r = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=30)
            info["nvcc"] = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "?"
        except Exception as e:  # noqa: BLE001
            info["nvcc"] = "unavailable: %s" % e
    return info


def markdown(results):
    m = results["machine"]
    out = ["# Reference kernels: checks and timings", ""]
    out.append("GPU: %s (cc %s, %s SMs); nvidia-smi: %s" % (m.get("gpu"), m.get("compute_capability"), m.get("sms"),
                                                           m.get("nvidia_smi")))
    out.append("torch %s (CUDA %s), triton %s, Python %s, nvcc: %s" % (
        m.get("torch"), m.get("torch_cuda"), m.get("triton"), m.get("python"), m.get("nvcc", "-")))
    cp = results.get("copy") or {}
    ccp = results.get("cuda_copy") or {}
    out.append("Copy bandwidth (read + write): torch %s GB/s; cudaMemcpy %s GB/s.  %% copy below is relative to "
               "the torch figure." % (_g(cp.get("gbps"), "%.0f"), _g(ccp.get("gbps"), "%.0f")))
    out.append("Command: `%s`" % results["command"])
    out.append("")
    for op, rows in results["ops"].items():
        out.append("## %s" % op)
        out.append("")
        out.append("| size | impl | check | ms | GB/s | % copy | vs PyTorch | max rel err | ok |")
        out.append("|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            ok = r.get("ok")
            cell = "-" if ok is None else ("yes" if ok else "**NO**")
            if "error" in r:
                cell = "**ERROR**: %s" % r["error"][:160].replace("|", "/")
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                fmt_size(r.get("size", {})), r.get("impl"), r.get("check", "-"), _g(r.get("ms"), "%.4f"),
                _g(r.get("gbps"), "%.0f"), _g(r.get("pct_copy"), "%.0f%%"),
                _g(r.get("speedup_vs_torch"), "%.2fx"), _g(r.get("max_rel_err"), "%.2e"), cell))
        what = [r.get("what") for r in rows if r.get("impl") == "torch" and r.get("what")]
        if what:
            out.append("")
            out.append("PyTorch equivalent: %s." % "; ".join(what))
        out.append("")
    if results.get("targets"):
        out.append("## Targets")
        out.append("")
        for t in results["targets"]:
            out.append("- %s" % t)
        out.append("")
    if results.get("variant_costs"):
        out.append("## Cost of the options")
        out.append("")
        for t in results["variant_costs"]:
            out.append("- %s" % t)
        out.append("")
    if results.get("errors"):
        out.append("## Errors")
        out.append("")
        for e in results["errors"]:
            out.append("- %s" % e.replace("\n", " ")[:400])
        out.append("")
    return "\n".join(out)


def evaluate_targets(results):
    lines = []
    for op, (min_speedup, min_pct) in TARGETS.items():
        for r in results["ops"].get(op, []):
            if r.get("impl") not in ("triton", "cuda") or "ms" not in r or r.get("check") not in ("timing", "sampled"):
                continue
            if r.get("label"):   # option variants (label_smoothing): reported by variant_costs
                continue
            parts, good = [], True
            if min_speedup is not None:
                s = r.get("speedup_vs_torch")
                parts.append("%s vs PyTorch (target >= %.1fx)" % (_g(s, "%.2fx"), min_speedup))
                good = good and s is not None and s >= min_speedup
            if min_pct is not None:
                p = r.get("pct_copy")
                parts.append("%s of copy bandwidth (target >= %.0f%%)" % (_g(p, "%.0f%%"), min_pct))
                good = good and p is not None and p >= min_pct
            lines.append("%s %s %s: %s -> %s" % (op, r["impl"], fmt_size(r["size"]), "; ".join(parts),
                                                 "met" if good else "NOT met"))
    return lines


def variant_costs(results):
    """Time of each labelled timing variant (e.g. label_smoothing=0.1) against
    the plain line of the same op, impl and size."""
    lines = []
    for op, rows in results["ops"].items():
        for r in rows:
            if not r.get("label") or not r.get("ms"):
                continue
            base = [b for b in rows if b.get("impl") == r.get("impl") and b.get("size") == r.get("size")
                    and not b.get("label") and b.get("ms")]
            if base:
                lines.append("%s %s %s %s: %.4f ms vs %.4f ms without (%+.1f%%)" % (
                    op, r["impl"], fmt_size(r["size"]), r["label"], r["ms"], base[0]["ms"],
                    100.0 * (r["ms"] / base[0]["ms"] - 1.0)))
    return lines


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="correctness at small sizes only")
    ap.add_argument("--cuda-bench", metavar="PATH", help="run this cuda_reference_bench binary and merge its results")
    ap.add_argument("--build-cuda", action="store_true", help="build bench/cuda_reference_bench.cu with nvcc and run it")
    ap.add_argument("--ops", help="comma-separated op names (default: all known)")
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--md", help="write the Markdown report here too")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--rep", type=int, default=100, help="do_bench rep (ms)")
    ap.add_argument("--cuda-reps", type=int, default=30, help="timed runs per op in the CUDA bench")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    global torch, triton, F
    import torch as _torch
    import torch.nn.functional as _F
    import triton as _triton
    torch, triton, F = _torch, _triton, _F

    t_start = time.perf_counter()
    results = {"command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]), "ops": {}, "errors": []}
    results["machine"] = machine_info()
    log("GPU: %s | %s | torch %s | triton %s | CUDA %s" % (
        results["machine"]["gpu"], results["machine"].get("nvidia_smi"), torch.__version__, triton.__version__,
        torch.version.cuda))

    copy_gbps = None
    if not args.quick:
        try:
            results["copy"] = copy_bandwidth()
            copy_gbps = results["copy"]["gbps"]
            log("copy bandwidth (torch, 1 GiB, read + write): %.0f GB/s" % copy_gbps)
        except Exception as e:  # noqa: BLE001
            results["errors"].append("copy bandwidth: %s" % short_error(e))

    specs = load_specs()
    wanted = [o.strip() for o in args.ops.split(",")] if args.ops else None
    for op, spec in specs.items():
        if wanted and op not in wanted:
            continue
        if op not in ORACLES:
            results["errors"].append("%s: no oracle in this bench; skipped" % op)
            continue
        log("== %s" % op)
        try:
            results["ops"][op] = run_op(spec, args, copy_gbps)
        except Exception as e:  # noqa: BLE001
            results["errors"].append("%s: %s" % (op, short_error(e)))
            results["ops"].setdefault(op, []).append({"op": op, "impl": "triton", "size": {}, "ok": False,
                                                      "error": short_error(e)})
            log("  %s: ERROR %s" % (op, short_error(e)))
        free()

    # (d) the CUDA bench
    path = args.cuda_bench
    if args.build_cuda and not path:
        try:
            path = build_cuda_bench()
        except Exception as e:  # noqa: BLE001
            results["errors"].append("building the CUDA bench: %s" % short_error(e))
    if path:
        crow, info = run_cuda_bench(path, args.quick, args.cuda_reps)
        results["cuda_bench"] = info
        if info.get("rc") not in (0, 1):
            results["errors"].append("CUDA bench exited with %s: %s" % (info.get("rc"), info.get("error", "")))
        for r in crow:
            if r.get("op") == "copy":
                results["cuda_copy"] = r
                continue
            if r.get("op") == "device":
                results["cuda_device"] = r
                continue
            op = r.get("op")
            if wanted and op not in wanted:
                continue
            if copy_gbps and r.get("gbps"):
                r["pct_copy"] = 100.0 * r["gbps"] / copy_gbps
            torch_ms = [t.get("ms") for t in results["ops"].get(op, [])
                        if t.get("impl") == "torch" and t.get("size") == r.get("size") and t.get("ms")
                        and t.get("label", "") == r.get("label", "")]
            if torch_ms and r.get("ms"):
                r["speedup_vs_torch"] = torch_ms[0] / r["ms"]
            results["ops"].setdefault(op, []).append(r)

    for op, rows in results["ops"].items():
        for r in rows:
            if r.get("ok") is False:
                results["errors"].append("%s %s %s %s: %s" % (op, r.get("impl"), fmt_size(r.get("size", {})),
                                                              r.get("check", ""), r.get("error", "mismatch")))
    results["targets"] = evaluate_targets(results) if not args.quick else []
    results["variant_costs"] = variant_costs(results) if not args.quick else []
    results["elapsed_s"] = time.perf_counter() - t_start
    md = markdown(results)
    print(md)
    print("\n(elapsed %.1f s)" % results["elapsed_s"])
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1, default=str)
    if args.md:
        with open(args.md, "w") as f:
            f.write(md + "\n")
    failed = [e for e in results["errors"] if "no oracle" not in e]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
