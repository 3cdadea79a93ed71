"""kcheck verify --run: confirms Triton findings on the user's own launches.

Loaded by the sitecustomize that `kcheck verify --run CMD` puts first on
PYTHONPATH, in every Python process of the user's command, when
KCHECK_RECORD_PLAN names a plan:

    {"findings": [{"diag": 3, "file": "/abs/ops.py", "kernel": "rms_kernel",
                   "rule": "KC304", "kind": "overflow", "line": 40,
                   "fixed": "ops_fixed_1.py" (beside the plan) or null,
                   "kinds": ["overflow", ...] (of the findings judged with it)}, ...],
     "max_launches": 2, "max_bytes": 8589934592, "max_saved_bytes": 1073741824}

It patches triton.runtime.jit.JITFunction.run once that module is
imported. For a launch of a kernel that has findings (same function name,
and the same file: the path the plan names or a file with the same bytes),
up to max_launches times per finding:

  1. the tensors of the launch are copied (each storage once, so arguments
     that share memory still do; strides and offsets kept);
  2. the kernel with the finding's fix-it applied (the fixed copy's
     function compiled in a copy of the module's globals) runs on one copy;
  3. the user's own launch runs as it would have, on the user's tensors;
  4. the outputs are compared tensor by tensor; where they differ the
     original runs once more on a fresh copy, to tell a nondeterministic
     kernel from a real difference;
  5. for performance findings both are timed (triton.testing.do_bench).

An int32 offset finding cannot show below 2^31 elements: when the launch
stays below and nothing differed, it is saved (replay-<pid>-<diag>.json, its
input tensors in a .pt beside it up to max_saved_bytes) for
kcheck_replay.py, which runs it again at a size past 2^31 in a process of
its own, after the command.

The user's program goes on with the results of its own, unchanged launch.
The results document (KCHECK_RECORD_OUT/record-<pid>.json) is rewritten
before and after every step, so a launch that kills the process (an
illegal memory access) leaves the step it died in. Nothing here raises
into the user's program: a failure of the recorder is written down and the
launch goes on as written. Standard library, torch and triton only.
"""
import ast
import importlib.abc
import inspect
import json
import os
import sys
import textwrap
import threading
import time
import traceback

_STATE = threading.local()
_LOCK = threading.RLock()


def write_json(path, doc):
    """Writes `doc` to `path` whole or not at all (a reader, or a process
    killed mid-write, never sees half a document); OSError on failure."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, default=str)
    os.replace(tmp, path)


class _Recorder:
    def __init__(self, plan, out_dir):
        self.plan = plan
        self.out = os.path.join(out_dir, "record-%d.json" % os.getpid())
        self.max_launches = int(plan.get("max_launches", 2))
        self.max_bytes = int(plan.get("max_bytes", 8 << 30))
        self.by_kernel = {}
        for f in plan.get("findings", []):
            self.by_kernel.setdefault(f["kernel"], []).append(f)
        self.same_file = {}  # (co_filename, plan file) -> bool
        self.seen = {}       # diag -> launches seen
        self.replays = set()  # diags whose launch was saved for kcheck_replay.py
        self.max_saved_bytes = int(plan.get("max_saved_bytes", 1 << 30))
        self.doc = {"pid": os.getpid(), "argv": sys.argv[:8], "env": {}, "launches": {}, "experiments": [],
                    "errors": []}
        self.flush()

    # ---- the results document ----
    def flush(self):
        with _LOCK:
            try:
                write_json(self.out, self.doc)
            except OSError:
                pass

    def error(self, what):
        self.doc["errors"].append(what)
        self.flush()

    # ---- which findings a launch is for ----
    def _is_same_file(self, co_file, plan_file):
        key = (co_file, plan_file)
        if key not in self.same_file:
            same = False
            try:
                same = os.path.realpath(co_file) == os.path.realpath(plan_file)
                if not same:
                    with open(co_file, "rb") as a, open(plan_file, "rb") as b:
                        same = a.read() == b.read()
            except OSError:
                same = False
            self.same_file[key] = same
        return self.same_file[key]

    def findings_for(self, jit):
        fn = getattr(jit, "fn", None)
        name = getattr(fn, "__name__", None)
        if name not in self.by_kernel:
            return []
        co_file = getattr(getattr(fn, "__code__", None), "co_filename", "")
        return [f for f in self.by_kernel[name] if self._is_same_file(co_file, f["file"])]


# ---- tensors ----
def _is_tensor(x):
    import torch
    return isinstance(x, torch.Tensor)


def _tensor_desc(name, t):
    return {"name": name, "shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype).replace("torch.", ""),
            "numel": t.numel(), "storage_bytes": t.untyped_storage().nbytes(), "device": str(t.device)}


def _describe_args(jit, args, kwargs):
    names = list(getattr(jit, "arg_names", []) or [])
    out = []
    for i, a in enumerate(args):
        name = names[i] if i < len(names) else "arg%d" % i
        if _is_tensor(a):
            out.append(_tensor_desc(name, a))
        elif isinstance(a, (int, float, bool)) or a is None:
            out.append({"name": name, "value": a})
        else:
            out.append({"name": name, "type": type(a).__name__})
    for k, v in kwargs.items():
        if _is_tensor(v):
            out.append(_tensor_desc(k, v))
        elif isinstance(v, (int, float, bool, str)) or v is None:
            out.append({"name": k, "value": v})
    return out


def _storages(args, kwargs):
    """The distinct storages of the launch's tensors: {data_ptr: storage}."""
    st = {}
    for a in list(args) + list(kwargs.values()):
        if _is_tensor(a):
            s = a.untyped_storage()
            st.setdefault(s.data_ptr(), s)
    return st


def _copy_args(args, kwargs, storages):
    """args and kwargs with every tensor on a copy of its storage (each
    storage copied once, so aliasing arguments still alias)."""
    import torch
    copies = {p: s.clone() for p, s in storages.items()}

    def rebuild(t):
        s = copies[t.untyped_storage().data_ptr()]
        return torch.empty((0,), dtype=t.dtype, device=t.device).set_(s, t.storage_offset(), t.size(), t.stride())

    new_args = [rebuild(a) if _is_tensor(a) else a for a in args]
    new_kwargs = {k: (rebuild(v) if _is_tensor(v) else v) for k, v in kwargs.items()}
    return new_args, new_kwargs


def _compare(names, got, want, only=None):
    """The largest difference between the tensors of two launches (those
    named in `only`, when given), or None."""
    import torch
    worst = None
    for name, a, b in zip(names, got, want):
        if not (_is_tensor(a) and _is_tensor(b)) or (only is not None and name not in only):
            continue
        if a.is_floating_point():
            x, y = a.float(), b.float()
            both_nan = torch.isnan(x) & torch.isnan(y)
            d = torch.where(both_nan, torch.zeros_like(x), (x - y).abs())
            d = torch.nan_to_num(d, nan=float("inf"))
        else:
            d = (a != b).to(torch.float32)
        n_diff = int((d != 0).sum().item())
        if not n_diff:
            continue
        flat = int(torch.argmax(d.reshape(-1)).item())
        idx = []
        for dim in reversed(list(a.shape)):
            idx.append(flat % dim if dim else 0)
            flat //= dim if dim else 1
        idx.reverse()
        ii = tuple(idx)
        rec = {"tensor": name, "elements_differ": n_diff, "numel": a.numel(), "max_abs_diff": float(d.max().item()),
               "at": idx, "original": float(a[ii].float().item()) if a.numel() else None,
               "fixed": float(b[ii].float().item()) if b.numel() else None}
        if worst is None or rec["elements_differ"] > worst["elements_differ"]:
            worst = rec
    return worst


def _checksum(storages):
    """A sum of the bytes of each storage, by 32-bit words: whether
    anything wrote into them since."""
    import torch
    sums = []
    for s in storages.values():
        t = torch.empty((0,), dtype=torch.uint8, device=s.device).set_(s, 0, (s.nbytes(),), (1,))
        n4 = t.numel() // 4 * 4
        w = t[:n4].view(torch.int32)
        total = int(t[n4:].to(torch.int64).sum().item())
        step = 1 << 27
        for i in range(0, w.numel(), step):
            total += int(w[i:i + step].to(torch.int64).sum().item())
        sums.append(total)
    return sums


def _flat(args, kwargs):
    return list(args) + list(kwargs.values())


# ---- the fixed variant ----
def _variant(jit, fixed_path):
    """The kernel as the fixed copy defines it, compiled in a copy of the
    user's module globals (the module itself is not touched), with the
    original's JIT options."""
    name = jit.fn.__name__
    with open(fixed_path, encoding="utf-8") as f:
        src = f.read()
    node = None
    for n in ast.walk(ast.parse(src, fixed_path)):
        if isinstance(n, ast.FunctionDef) and n.name == name:
            node = n
            break
    if node is None:
        raise LookupError("the fixed copy defines no function `%s`" % name)
    lines = src.splitlines(keepends=True)
    body = textwrap.dedent("".join(lines[node.lineno - 1:node.end_lineno]))
    code = compile("\n" * (node.lineno - 1) + body, fixed_path, "exec")
    g = dict(jit.fn.__globals__)
    exec(code, g)  # noqa: S102 - the user's own kernel with kcheck's fix-it
    fn = g[name]
    cls = type(jit)
    opts = {}
    for p in inspect.signature(cls.__init__).parameters:
        if p in ("self", "fn") or not hasattr(jit, p):
            continue
        opts[p] = getattr(jit, p)
    try:
        return cls(fn, **opts)
    except Exception:  # noqa: BLE001 - an option this Triton spells otherwise
        return cls(fn)


def _bench(fn):
    import triton.testing
    try:
        return float(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
    except TypeError:
        return float(triton.testing.do_bench(fn, warmup=25, rep=100))


# ---- one recorded launch ----
def _sync():
    import torch
    torch.cuda.synchronize()


def _prepare(rec, jit, finding, args, kwargs, grid, exp):
    """Everything before the user's launch: the copies of the inputs and
    the fixed kernel's run on one of them, written down in `exp`.
    Returns (pristine copy or None, fixed copy, fixed kernel)."""
    import torch
    exp["args"] = _describe_args(jit, args, kwargs)
    storages = _storages(args, kwargs)
    nbytes = sum(s.nbytes() for s in storages.values())
    exp["input_bytes"] = nbytes
    free = None
    try:
        free = torch.cuda.mem_get_info()[0]
    except Exception:  # noqa: BLE001
        pass
    fixed_path = finding.get("fixed")
    if not fixed_path:
        exp["step"] = "skipped"
        exp["skipped"] = "the finding has no fix-it: nothing to compare the launch with"
    elif nbytes * 3 > rec.max_bytes or (free is not None and nbytes * 3 > free):
        exp["step"] = "skipped"
        exp["skipped"] = "three copies of the launch's %d bytes of tensors do not fit in %s" % (
            nbytes, "the limit of %d bytes" % rec.max_bytes if nbytes * 3 > rec.max_bytes else
            "the GPU's %d free bytes" % free)
    if exp["step"] == "skipped":
        rec.flush()
        return None, None, None
    _sync()
    pristine = _copy_args(args, kwargs, storages)
    fixed = _copy_args(pristine[0], pristine[1], _storages(*pristine))
    exp["step"] = "compiling the fixed kernel"
    rec.flush()
    fx = _variant(jit, fixed_path)
    exp["step"] = "running the fixed kernel"
    rec.flush()
    t0 = time.perf_counter()
    try:
        fx.run(*fixed[0], grid=grid, warmup=False, **fixed[1])
        _sync()
        exp["fixed_first_s"] = time.perf_counter() - t0
        exp["fixed_ok"] = True
        # before the launch as written runs: a wild write of it may land
        # in these copies
        names = [d["name"] for d in exp["args"]]
        fixd, before = _flat(*fixed), _flat(*pristine)
        exp["written_fixed"] = [n for n, a, b in zip(names, fixd, before)
                                if _is_tensor(a) and _compare([n], [a], [b])]
        exp["_sums"] = _checksum(_storages(*pristine)) + _checksum(_storages(*fixed))
    except Exception as e:  # noqa: BLE001
        exp["fixed_ok"] = False
        exp["fixed_error"] = "%s: %s" % (type(e).__name__, str(e)[:2000])
    exp["step"] = "running the user's launch"
    rec.flush()
    return pristine, fixed, fx


def _experiment(rec, jit, orig_run, finding, args, kwargs, grid):
    """Runs the launch with the finding's fix-it on copies, then the user's
    own launch; returns the user's launch's result."""
    exp = {"diag": finding["diag"], "rule": finding["rule"], "kind": finding["kind"],
           "launch": rec.seen[finding["diag"]], "grid": "callable" if callable(grid) else repr(grid),
           "step": "copying inputs"}
    with _LOCK:
        rec.doc["experiments"].append(exp)
    try:
        pristine, fixed, fx = _prepare(rec, jit, finding, args, kwargs, grid, exp)
    except Exception as e:  # noqa: BLE001 - the recorder's failure is never the user's
        exp["step"] = "recorder failed"
        exp["recorder_error"] = "%s: %s" % (type(e).__name__, str(e)[:2000])
        rec.flush()
        pristine = None
    if pristine is None:
        return orig_run(jit, *args, grid=grid, warmup=False, **kwargs)
    import torch
    names = [d["name"] for d in exp["args"]]
    fargs, fkwargs = fixed
    # The user's launch, as written; an exception is the user's own.
    t0 = time.perf_counter()
    try:
        result = orig_run(jit, *args, grid=grid, warmup=False, **kwargs)
        _sync()
    except Exception as e:
        exp["step"] = "done"
        exp["original_ok"] = False
        exp["original_error"] = "%s: %s" % (type(e).__name__, str(e)[:2000])
        rec.flush()
        raise
    exp["original_first_s"] = time.perf_counter() - t0
    exp["original_ok"] = True
    try:
        exp["step"] = "comparing"
        rec.flush()
        if exp.get("fixed_ok"):
            user, fixd, before = _flat(args, kwargs), _flat(fargs, fkwargs), _flat(*pristine)
            sums = exp.pop("_sums")
            if _checksum(_storages(*pristine)) + _checksum(_storages(*fixed)) != sums:
                # the launch as written changed memory that is not its
                # own: kcheck's copies of its arguments
                exp["wrote_outside"] = True
            # which tensors each launch wrote
            wrote_fixed = exp["written_fixed"]
            wrote_orig = [n for n, a, b in zip(names, user, before) if _is_tensor(a) and _compare([n], [a], [b])]
            exp["written_as_written"] = wrote_orig
            stray = [n for n in wrote_orig if n not in wrote_fixed]
            if exp.get("wrote_outside"):
                stray = stray or ["(kcheck's copies)"]
            elif stray:
                # the launch as written changed a tensor the fixed kernel
                # leaves alone: a write out of bounds (an int32 offset that
                # wrapped lands in a neighbouring allocation)
                exp["stray_write"] = _compare(names, user, before, only=stray)
            diff = None if exp.get("wrote_outside") else _compare(names, user, fixd, only=wrote_fixed or None)
            exp["outputs_equal"] = diff is None and not stray
            if diff is not None:
                exp["difference"] = diff
            if diff is not None and not stray:
                # Once more on a fresh copy: does the original agree with
                # itself on what the fixed kernel writes?
                aargs, akwargs = _copy_args(pristine[0], pristine[1], _storages(*pristine))
                orig_run(jit, *aargs, grid=grid, warmup=False, **akwargs)
                _sync()
                noise = _compare(names, user, _flat(aargs, akwargs), only=wrote_fixed or None)
                exp["original_repeatable"] = noise is None
                if noise is not None:
                    exp["noise"] = noise
                del aargs, akwargs
            del user, fixd, before
            if finding["kind"] in ("timing", "compile_time"):
                exp["step"] = "timing"
                rec.flush()
                # on copies: a kernel that updates its inputs in place must
                # not run again on the user's tensors
                targs, tkwargs = _copy_args(pristine[0], pristine[1], _storages(*pristine))
                exp["original_ms"] = _bench(lambda: orig_run(jit, *targs, grid=grid, warmup=False, **tkwargs))
                exp["fixed_ms"] = _bench(lambda: fx.run(*fargs, grid=grid, warmup=False, **fkwargs))
                del targs, tkwargs
        exp["step"] = "done"
    except Exception as e:  # noqa: BLE001
        exp["step"] = "recorder failed"
        exp["recorder_error"] = "%s: %s" % (type(e).__name__, str(e)[:2000])
    try:
        if _wants_replay(rec, finding, exp):
            _save_replay(rec, jit, finding, pristine, grid, exp)
    except Exception as e:  # noqa: BLE001
        exp["replay_error"] = "%s: %s" % (type(e).__name__, str(e)[:2000])
    del pristine, fargs, fkwargs
    try:
        torch.cuda.empty_cache()
    except Exception:  # noqa: BLE001
        pass
    rec.flush()
    return result


# ---- a launch saved to be replayed at a larger size ----
def _wants_replay(rec, finding, exp):
    """Whether the launch should be replayed past 2^31 elements: its
    experiment has an int32 offset finding, the fixed kernel ran, and
    nothing differed at the command's own size, which stays below 2^31."""
    if "overflow" not in finding.get("kinds", [finding["kind"]]) or finding["diag"] in rec.replays:
        return False
    if exp.get("step") != "done" or not exp.get("fixed_ok") or not exp.get("outputs_equal"):
        return False
    return all(a.get("storage_bytes", 0) // max(1, _itemsize(a.get("dtype"))) < (1 << 31)
               for a in exp["args"] if "numel" in a)


def _itemsize(dtype):
    import torch
    try:
        return torch.empty((), dtype=getattr(torch, dtype)).element_size()
    except Exception:  # noqa: BLE001
        return 1


def _grid_tuple(jit, grid, args, kwargs):
    """The launch's grid as numbers (a callable grid gets the launch's
    arguments by name, as Triton passes them)."""
    if callable(grid):
        meta = {}
        try:
            sig = inspect.signature(jit.fn)
            b = sig.bind_partial(*args, **{k: v for k, v in kwargs.items() if k in sig.parameters})
            b.apply_defaults()
            meta = dict(b.arguments)
        except (TypeError, ValueError):
            pass
        meta.update(kwargs)
        grid = grid(meta)
    g = tuple(int(x) for x in grid)
    return g + (1,) * (3 - len(g))


def _save_replay(rec, jit, finding, pristine, grid, exp):
    """Writes replay-<pid>-<diag>.json (and .pt with the input tensors
    when they fit the limit) for kcheck_replay.py."""
    import pickle
    import base64
    import torch
    args, kwargs = pristine
    names = list(getattr(jit, "arg_names", []) or [])
    const = {p.name for p in getattr(jit, "params", []) if getattr(p, "is_constexpr", False)}
    const |= {names[i] for i in getattr(jit, "constexprs", []) or [] if isinstance(i, int) and i < len(names)}
    entries, tensors, saved_bytes = [], {}, 0
    seen_storage = set()
    for i, (kw, name, v) in enumerate([(False, names[i] if i < len(names) else "arg%d" % i, a)
                                       for i, a in enumerate(args)] + [(True, k, v) for k, v in kwargs.items()]):
        e = {"name": name, "kw": kw, "constexpr": name in const}
        if _is_tensor(v):
            e["tensor"] = {"shape": list(v.shape), "stride": list(v.stride()), "itemsize": v.element_size(),
                           "dtype": str(v.dtype).replace("torch.", ""),
                           "ptr": v.data_ptr()}
            tensors[i] = v
            s = v.untyped_storage()
            if s.data_ptr() not in seen_storage:
                seen_storage.add(s.data_ptr())
                saved_bytes += s.nbytes()
        elif v is None or isinstance(v, (bool, int, float, str)):
            e["value"] = v
        else:
            e["pickle"] = base64.b64encode(pickle.dumps(v)).decode("ascii")
        entries.append(e)
    base = os.path.join(os.path.dirname(rec.out), "replay-%d-%d" % (os.getpid(), finding["diag"]))
    fn = jit.fn
    recipe = {"diag": finding["diag"], "rule": finding["rule"], "kernel": fn.__name__,
              "module": getattr(fn, "__module__", None), "file": fn.__code__.co_filename,
              "fixed": finding.get("fixed"), "sys_path": [p for p in sys.path if isinstance(p, str)],
              "cwd": os.getcwd(), "grid": list(_grid_tuple(jit, grid, args, kwargs)), "args": entries,
              "written": exp.get("written_fixed", []), "saved": saved_bytes <= rec.max_saved_bytes,
              "saved_bytes": saved_bytes}
    if recipe["saved"]:
        torch.save(tensors, base + ".pt")
    write_json(base + ".json", recipe)
    rec.replays.add(finding["diag"])
    exp["replay_saved"] = os.path.basename(base + ".json")


def _make_run(rec, orig_run):
    def run(self, *args, **kwargs):
        if getattr(_STATE, "busy", False) or kwargs.get("warmup"):
            return orig_run(self, *args, **kwargs)
        try:
            found = rec.findings_for(self)
        except Exception:  # noqa: BLE001
            found = []
        if not found:
            return orig_run(self, *args, **kwargs)
        key = "%s::%s" % (found[0]["file"], self.fn.__name__)
        with _LOCK:
            rec.doc["launches"][key] = rec.doc["launches"].get(key, 0) + 1
            # the experiment with the fewest launches so far: one launch
            # serves one experiment, so a kernel launched once with a
            # correctness and a performance experiment serves the first
            todo = None
            for f in found:
                n = rec.seen.get(f["diag"], 0)
                if n < rec.max_launches and (todo is None or n < rec.seen.get(todo["diag"], 0)):
                    todo = f
            if todo is not None:
                rec.seen[todo["diag"]] = rec.seen.get(todo["diag"], 0) + 1
        if todo is None:
            rec.flush()
            return orig_run(self, *args, **kwargs)
        grid = kwargs.pop("grid", None)
        kwargs.pop("warmup", None)
        _STATE.busy = True
        try:
            return _experiment(rec, self, orig_run, todo, args, kwargs, grid)
        finally:
            _STATE.busy = False
    return run


def _patch(module, rec):
    cls = getattr(module, "JITFunction", None)
    if cls is None or getattr(cls, "_kcheck_recorded", False):
        return
    cls.run = _make_run(rec, cls.run)
    cls._kcheck_recorded = True
    try:
        import torch
        rec.doc["env"] = {"python": sys.version.split()[0], "torch": torch.__version__,
                          "cuda": torch.version.cuda,
                          "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None}
        import triton
        rec.doc["env"]["triton"] = triton.__version__
    except Exception as e:  # noqa: BLE001
        rec.doc["env"]["error"] = str(e)
    rec.flush()


class _Finder(importlib.abc.MetaPathFinder):
    """Patches triton.runtime.jit right after it is first imported."""

    def __init__(self, rec):
        self.rec = rec

    def find_spec(self, name, path, target=None):
        if name != "triton.runtime.jit":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        orig_exec = loader.exec_module
        rec = self.rec

        def exec_module(module):
            orig_exec(module)
            try:
                _patch(module, rec)
            except Exception:  # noqa: BLE001
                rec.error("patching triton.runtime.jit: " + traceback.format_exc(limit=3))

        loader.exec_module = exec_module
        return spec


def install():
    plan_path = os.environ.get("KCHECK_RECORD_PLAN")
    out_dir = os.environ.get("KCHECK_RECORD_OUT")
    if not plan_path or not out_dir:
        return None
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    # paths of fixed copies are relative to the plan (a bundle moves)
    base = os.path.dirname(os.path.abspath(plan_path))
    for f in plan.get("findings", []):
        if f.get("fixed") and not os.path.isabs(f["fixed"]):
            f["fixed"] = os.path.join(base, f["fixed"])
    rec = _Recorder(plan, out_dir)
    mod = sys.modules.get("triton.runtime.jit")
    if mod is not None:
        _patch(mod, rec)
    else:
        sys.meta_path.insert(0, _Finder(rec))
    return rec
