"""kcheck verify --run: replays a recorded launch at a size that can show an
int32 offset overflow.

A KC304 finding (`row * stride` in int32) cannot show on a launch whose
tensors stay below 2^31 elements, and a test suite's launches always do.
When the launch recorder (kcheck_recorder.py) ran such a kernel and saw no
difference, it saved the launch: `replay-<pid>-<diag>.json` (the recipe:
the kernel's module and name, the evaluated grid, each argument's shape,
strides and dtype, the tensors the fixed kernel wrote) and, when they are
small enough, `replay-<pid>-<diag>.pt` (the launch's own input tensors).
run-command.sh then runs, in a process of its own (the launch as written
may kill it):

    python3 kcheck_replay.py replay-<pid>-<diag>.json

It scales the launch along the axis its grid runs over, until the largest
offset passes 2^31 elements, without changing what each program computes:

  * the rows: an integer argument M with grid[0] == M or grid[0] ==
    cdiv(M, B) for another integer argument B (a block of rows), or M =
    grid[0] itself; a tensor follows the rows when its outermost dimensions
    multiply to M, are laid out outermost, and each M index spans a fixed
    number of elements (its row);
  * the launch gets F times as many rows (F copies of each recorded row,
    tiled along the outermost dimension), every integer argument equal to M
    becomes F * M, the grid's first axis F times as long (a tensor with one
    row per program, when B divides M, grows with it); row strides, block
    sizes and the other tensors stay as recorded.

Then, on two fresh sets of those inputs:

  1. the kernel with the finding's fix-it (the fixed copy) runs; because
     every copy of a row holds the same values, every copy of each output
     row must come out bit for bit the same as the first: a fixed kernel
     that does not is not row-independent, and nothing is concluded;
  2. the kernel as written runs; its outputs are compared bit for bit with
     the fixed kernel's, and a checksum of the first set tells whether it
     wrote outside its own arguments.

The results document `replayed-<pid>-<diag>.json` is rewritten before each
step, so a launch that kills the process leaves the step it died in.
Standard library, torch and triton only; the planning (plan_scale) is pure
Python and is tested without either.
"""
import base64
import importlib
import importlib.util
import json
import os
import pickle
import sys
import time
import traceback

import kcheck_recorder  # beside this file: the fixed kernel, the checksums, the documents

LIMIT = 1 << 31
# past 2^31 by a sixteenth: a few rows past the wrap, whatever the row
TARGET = LIMIT + (LIMIT >> 4)


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _cdiv(a, b):
    return -(-a // b)


def _rows_prefix(shape, stride, m):
    """The number k of outermost dimensions of a tensor that multiply to m
    and are laid out as rows (each dimension of the prefix outside the
    next, and the whole prefix outside the rest), or 0."""
    if m <= 1:
        return 0
    n = 1
    for k in range(1, len(shape) + 1):
        n *= shape[k - 1]
        if n == m:
            break
        if n > m:
            return 0
    else:
        return 0
    for j in range(k - 1):
        if stride[j] != stride[j + 1] * shape[j + 1]:
            return 0
    inner = 1 + sum((shape[j] - 1) * abs(stride[j]) for j in range(k, len(shape)))
    if stride[k - 1] < inner or stride[k - 1] <= 0:
        return 0
    return k


def plan_scale(grid, entries, limit_elems=TARGET):
    """How to scale a launch: entries are the launch's arguments in order,
    each {"name", "value"} or {"name", "tensor": {"shape", "stride",
    "itemsize"}}. Returns (plan, None) or (None, why). The plan: rows M and
    block B, factor F, new grid, per tensor its new shape and largest
    element offset, and the integer arguments that change."""
    grid = [int(g) for g in grid]
    if not grid or grid[0] < 1:
        return None, "the launch's grid has no first axis"
    g0 = grid[0]
    ints = [(e["name"], e["value"]) for e in entries
            if "value" in e and isinstance(e["value"], int) and not isinstance(e["value"], bool)]
    cands = []
    for name, n in ints:
        if n < 1:
            continue
        if n == g0:
            cands.append((n, 1))
        for _, b in ints:
            if b > 1 and n != g0 and _cdiv(n, b) == g0:
                cands.append((n, b))
    cands.append((g0, 1))
    # Several block sizes may give the same grid (cdiv(100, 64) == cdiv(100,
    # 96)): a constexpr argument first, then a power of two, then the
    # smaller (the larger grid: rows it does not have are masked, rows it
    # misses would be left unwritten).
    const = {e["name"] for e in entries if e.get("constexpr")}

    def rank(c):
        m, b = c
        names = [n for n, v in ints if v == b]
        return (0 if b == 1 or any(n in const for n in names) else 1, 0 if b & (b - 1) == 0 else 1, b)
    cands.sort(key=rank)
    best = None
    for m, b in cands:
        rows = []
        for i, e in enumerate(entries):
            t = e.get("tensor")
            if not t:
                continue
            k = _rows_prefix(t["shape"], t["stride"], m)
            if k:
                rows.append((i, k))
        if rows and (best is None or len(rows) > len(best[2])):
            best = (m, b, rows)
    if best is None:
        return None, ("no tensor of the launch has one row per program of its grid's first axis (%d): kcheck "
                      "cannot tell how to make it larger" % g0)
    m, b, rows = best
    if b > 1 and m % b == 0:
        # a tensor with one row per program (a scale per block of rows)
        # follows the grid, which grows by the same factor
        have = {i for i, _ in rows}
        for i, e in enumerate(entries):
            t = e.get("tensor")
            k = _rows_prefix(t["shape"], t["stride"], g0) if t and i not in have else 0
            if k:
                rows.append((i, k))
    span = {}
    for i, k in rows:
        t = entries[i]["tensor"]
        span[i] = t["stride"][k - 1]  # elements from one row to the next
    widest = max(span.values())
    f = max(2, _cdiv(limit_elems, m * widest))
    new_m = m * f
    if _cdiv(new_m, b) > (1 << 31) - 1:
        return None, "the scaled grid would pass 2^31-1 programs on its first axis"
    tensors = []
    need = 0
    for i, e in enumerate(entries):
        t = e.get("tensor")
        if not t:
            continue
        shape, stride = list(t["shape"]), list(t["stride"])
        k = dict(rows).get(i, 0)
        if k:
            shape[0] *= f
        extent = 1 + sum((s - 1) * abs(st) for s, st in zip(shape, stride)) if all(shape) else 0
        nbytes = extent * t["itemsize"]
        need += nbytes
        tensors.append({"index": i, "name": e["name"], "scaled": bool(k), "shape": shape, "stride": stride,
                        "copy_dims": t["shape"][0] if k else None, "max_offset": extent - 1 if extent else 0,
                        "bytes": nbytes})
    changed = {name: new_m for name, n in ints if n == m}
    new_grid = [_cdiv(new_m, b)] + grid[1:]
    return {"rows": m, "block": b, "factor": f, "new_rows": new_m, "grid": new_grid, "tensors": tensors,
            "ints": changed, "bytes_per_copy": need,
            "past_2_31": [t["name"] for t in tensors if t["max_offset"] >= LIMIT]}, None


# ---- the GPU part ----
class Doc:
    def __init__(self, path, base):
        self.path = path
        self.d = dict(base)
        self.flush()

    def step(self, s):
        self.d["step"] = s
        self.flush()

    def flush(self):
        try:
            kcheck_recorder.write_json(self.path, self.d)
        except OSError:
            pass


def _kernel(recipe):
    """The user's JITFunction, from its module (imported as the command
    imported it) or, for a script, from its file."""
    from triton.runtime.jit import JITFunction
    for p in reversed(recipe.get("sys_path", [])):
        if p not in sys.path:
            sys.path.insert(0, p)
    if recipe.get("cwd"):
        os.chdir(recipe["cwd"])
    mod_name = recipe.get("module") or "__main__"
    mod = None
    if mod_name != "__main__":
        try:
            mod = importlib.import_module(mod_name)
        except Exception:  # noqa: BLE001 - try the file next
            mod = None
    if mod is None:
        spec = importlib.util.spec_from_file_location("kcheck_replayed_module", recipe["file"])
        mod = importlib.util.module_from_spec(spec)
        sys.modules["kcheck_replayed_module"] = mod
        spec.loader.exec_module(mod)
    obj = getattr(mod, recipe["kernel"], None)
    for _ in range(8):
        if obj is None or isinstance(obj, JITFunction):
            break
        obj = getattr(obj, "fn", None)
    if not isinstance(obj, JITFunction):
        raise LookupError("`%s` is not a module-level Triton kernel of %s" % (recipe["kernel"], mod_name))
    return obj


_INT_OF_SIZE = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


def _bits(t):
    import torch
    if t.dtype == torch.bool:
        return t.view(torch.uint8)
    return t.view(getattr(torch, _INT_OF_SIZE[t.element_size()]))


def _scaled_inputs(recipe, plan, saved):
    """A fresh set of the scaled launch's arguments on the GPU: each scaled
    tensor holds F copies of the recorded tensor along its outermost
    dimension (recorded values where they were saved, else synthesized)."""
    import torch
    entries = recipe["args"]
    by_index = {t["index"]: t for t in plan["tensors"]}
    made = {}
    args = []
    for i, e in enumerate(entries):
        if "tensor" not in e:
            v = e.get("value")
            if "pickle" in e:
                v = pickle.loads(base64.b64decode(e["pickle"]))  # noqa: S301 - written by kcheck's recorder
            elif e["name"] in plan["ints"]:
                v = plan["ints"][e["name"]]
            args.append(v)
            continue
        t = e["tensor"]
        key = (t.get("ptr"), tuple(t["shape"]), tuple(t["stride"]), t["dtype"])
        if key in made:  # the same view twice (an in-place kernel): one tensor
            args.append(made[key])
            continue
        p = by_index[i]
        dtype = getattr(torch, t["dtype"])
        src = saved[i] if saved is not None else None
        if src is None:
            src = torch.empty_strided(t["shape"], t["stride"], dtype=dtype, device="cuda")
            if src.is_floating_point():
                src.normal_()
            else:
                src.zero_()
        src = src.cuda()
        extent = p["max_offset"] + 1
        store = torch.empty(extent, dtype=dtype, device="cuda")
        out = store.as_strided(p["shape"], p["stride"])
        if p["scaled"]:
            n0 = t["shape"][0]
            out[:n0].copy_(src)
            have = n0
            while have < p["shape"][0]:  # doubling: log2(F) copies
                k = min(have, p["shape"][0] - have)
                out[have:have + k].copy_(out[:k])
                have += k
        else:
            out.copy_(src)
        made[key] = out
        args.append(out)
    return args


def _call(entries, values):
    """The positional and keyword arguments of a launch."""
    pos = [v for e, v in zip(entries, values) if not e.get("kw")]
    kw = {e["name"]: v for e, v in zip(entries, values) if e.get("kw")}
    return pos, kw


def _consistent(t, copy_dims, copies):
    """The first copy (along the outermost dimension) that differs bit for
    bit from copy 0, or None."""
    import torch
    ref = _bits(t[:copy_dims]).unsqueeze(0)
    per = max(1, (1 << 28) // max(1, ref.numel()))
    for j in range(1, copies, per):
        k = min(per, copies - j)
        chunk = _bits(t[copy_dims * j:copy_dims * (j + k)]).unflatten(0, (k, copy_dims))
        bad = (chunk != ref).reshape(k, -1).any(dim=1)
        if bool(bad.any()):
            return j + int(torch.nonzero(bad)[0].item())
    return None


def _differ(a, b):
    """(elements that differ bit for bit, first outermost index that
    differs) between two outputs."""
    import torch
    n = a.shape[0]
    step = max(1, (1 << 28) // max(1, a[:1].numel()))
    count, first = 0, None
    for i in range(0, n, step):
        d = _bits(a[i:i + step]) != _bits(b[i:i + step])
        c = int(d.sum().item())
        if c:
            count += c
            if first is None:
                first = i + int(torch.nonzero(d.reshape(d.shape[0], -1).any(dim=1))[0].item())
    return count, first


def replay(recipe_path):
    with open(recipe_path, encoding="utf-8") as f:
        recipe = json.load(f)
    base = os.path.basename(recipe_path)
    out = os.path.join(os.path.dirname(recipe_path), base.replace("replay-", "replayed-", 1))
    doc = Doc(out, {"diag": recipe["diag"], "kernel": recipe["kernel"], "rule": recipe.get("rule"),
                    "step": "planning", "recorded_grid": recipe["grid"]})
    d = doc.d
    plan, why = plan_scale(recipe["grid"], recipe["args"])
    if plan is None:
        d["skipped"] = why
        doc.step("skipped")
        return 0
    d["plan"] = plan
    try:
        import torch
        free, total = torch.cuda.mem_get_info()
        d["gpu"] = torch.cuda.get_device_name(0)
        d["gpu_free_bytes"], d["gpu_total_bytes"] = free, total
        need = 2 * plan["bytes_per_copy"]
        d["bytes_needed"] = need
        if need > 0.9 * free:
            d["skipped"] = ("the scaled launch needs %.1f GiB of GPU memory (two sets of its tensors), the GPU has "
                            "%.1f GiB free" % (need / 2**30, free / 2**30))
            doc.step("skipped")
            return 0
        doc.step("importing the kernel")
        jit = _kernel(recipe)
        doc.step("compiling the fixed kernel")
        fx = kcheck_recorder._variant(jit, recipe["fixed"])
        saved = None
        pt = recipe_path[:-len(".json")] + ".pt"
        if recipe.get("saved") and os.path.exists(pt):
            saved = torch.load(pt, map_location="cuda", weights_only=False)
        d["inputs"] = ("the recorded launch's own values, %d copies of each row" % plan["factor"] if saved is not None
                       else "synthesized (the launch's tensors were too large to save): random floats, zero integers")
        grid = tuple(plan["grid"])
        doc.step("building the scaled inputs")
        a = _scaled_inputs(recipe, plan, saved)
        doc.step("running the fixed kernel")
        t0 = time.perf_counter()
        pos, kw = _call(recipe["args"], a)
        fx.run(*pos, grid=grid, warmup=False, **kw)
        torch.cuda.synchronize()
        d["fixed_s"] = time.perf_counter() - t0
        d["fixed_ok"] = True
        written = recipe.get("written", [])
        by_name = {t["name"]: t for t in plan["tensors"]}
        d["checked_copies"] = []
        for name in written:
            t = by_name.get(name)
            if not t or not t["scaled"]:
                continue
            bad = _consistent(a[t["index"]], t["copy_dims"], plan["factor"])
            d["checked_copies"].append(name)
            if bad is not None:
                d["fixed_inconsistent"] = {"tensor": name, "copy": bad}
                break
        d["fixed_consistent"] = "fixed_inconsistent" not in d and bool(d["checked_copies"])
        if not d["fixed_consistent"]:
            doc.step("done")
            return 0
        sums = kcheck_recorder._checksum(kcheck_recorder._storages(a, {}))
        doc.step("building the second set of inputs")
        b = _scaled_inputs(recipe, plan, saved)
        del saved
        doc.step("running the kernel as written")
        t0 = time.perf_counter()
        try:
            pos, kw = _call(recipe["args"], b)
            jit.run(*pos, grid=grid, warmup=False, **kw)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - an illegal address is the finding
            d["original_s"] = time.perf_counter() - t0
            d["original_ok"] = False
            d["original_error"] = "%s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:500])
            doc.step("done")
            return 0
        d["original_s"] = time.perf_counter() - t0
        d["original_ok"] = True
        doc.step("comparing")
        d["wrote_outside"] = kcheck_recorder._checksum(kcheck_recorder._storages(a, {})) != sums
        diffs = []
        for name in written:
            t = by_name.get(name)
            if not t:
                continue
            n, first = _differ(b[t["index"]], a[t["index"]])
            if n:
                row_elems = t["stride"][0]
                diffs.append({"tensor": name, "elements_differ": n, "first_index": first,
                              "first_offset": first * row_elems, "numel": b[t["index"]].numel()})
        d["differences"] = diffs
        d["outputs_equal"] = not diffs
        doc.step("done")
    except Exception as e:  # noqa: BLE001 - written down, judged by kcheck
        d["replay_error"] = "%s: %s" % (type(e).__name__, str(e)[:1000])
        d["traceback"] = traceback.format_exc(limit=4)[-2000:]
        doc.step("failed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: kcheck_replay.py replay-PID-DIAG.json\n")
        sys.exit(2)
    sys.exit(replay(sys.argv[1]))
