"""GPU premise checks for KC501 on Triton (fp64 in fp32 kernels), run on a
GPU machine:

  python3 bench/premise/fp64_scalar_premises.py

What type does a Python-float kernel argument get, and what does it do to
the arithmetic it meets?
  - eager: `rms[grid](..., eps)` with eps a Python float: the signature the
    compiled kernel got (fp32 or fp64) and how many f64 operations its TTIR
    has;
  - torch.compile: the same launch inside a compiled function (fullgraph):
    the signature of the kernel Inductor compiled (read from the Triton
    cache the run writes) and its f64 operations;
  - the fixes under torch.compile: `eps = eps.to(tl.float32)` in the kernel,
    an `eps: tl.float32` annotation, and eps as a tl.constexpr;
  - Python literals in the kernel body: `x * 1e-40` (outside the fp32
    range) and `sm_scale * 1.44269504` (a runtime scalar times a literal);
  - time: eager, compiled as written, compiled with the cast, at 8192 x 3072
    bf16 (median of triton.testing.do_bench), and the outputs against each
    other.
"""
import glob
import os
import re
import sys
import tempfile

CACHE = tempfile.mkdtemp(prefix="kc501-triton-cache-")
os.environ["TRITON_CACHE_DIR"] = CACHE

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def rms_plain(X, Y, W, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.rsqrt(ms + eps)
    tl.store(Y + row * stride + offs, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def rms_cast(X, Y, W, stride, n_cols, eps, BLOCK: tl.constexpr):
    eps = eps.to(tl.float32)
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.rsqrt(ms + eps)
    tl.store(Y + row * stride + offs, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def rms_annot(X, Y, W, stride, n_cols, eps: tl.float32, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.rsqrt(ms + eps)
    tl.store(Y + row * stride + offs, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def rms_constexpr(X, Y, W, stride, n_cols, eps: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + offs, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.rsqrt(ms + eps)
    tl.store(Y + row * stride + offs, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def tiny_literal(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n).to(tl.float32)
    tl.store(Y + offs, x * 1e-40 + x, mask=offs < n)


@triton.jit
def scaled_literal(X, Y, n, sm_scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n).to(tl.float32)
    qk_scale = sm_scale * 1.44269504
    tl.store(Y + offs, tl.exp2(x * qk_scale), mask=offs < n)


@triton.jit
def swiglu_plain(A, B, C, stride, gate, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(A + row * stride + offs, mask=mask, other=0).to(tl.float32) * gate
    b = tl.load(B + row * stride + offs, mask=mask, other=0)
    tl.store(C + row * stride + offs, (a * tl.sigmoid(a) * b).to(C.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_cast(A, B, C, stride, gate, n_cols, BLOCK: tl.constexpr):
    gate = gate.to(tl.float32)
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(A + row * stride + offs, mask=mask, other=0).to(tl.float32) * gate
    b = tl.load(B + row * stride + offs, mask=mask, other=0)
    tl.store(C + row * stride + offs, (a * tl.sigmoid(a) * b).to(C.dtype.element_ty), mask=mask)


def swiglu_launch(kernel, a, b, gate):
    c = torch.empty_like(a)
    M, N = a.shape
    kernel[(M,)](a, b, c, a.stride(0), gate, N, BLOCK=triton.next_power_of_2(N))
    return c


def swiglu_times():
    """SwiGLU at Liger's shape (8192 x 3072 bf16) and a larger one: eager,
    compiled as written, compiled with the cast."""
    for M, N in ((8192, 3072), (65536, 4096)):
        a = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
        out = []
        for name, kern in (("swiglu_plain", swiglu_plain), ("swiglu_cast", swiglu_cast)):
            before = set(cache_ttirs(name))
            fn = torch.compile(lambda x, y, g, k=kern: swiglu_launch(k, x, y, g), fullgraph=True)
            yc = fn(a, b, 1.0)
            new = [p for p in cache_ttirs(name) if p not in before]
            f64 = f64_ops(open(new[-1]).read()) if new else -1
            ye = swiglu_launch(kern, a, b, 1.0)
            t_e = triton.testing.do_bench(lambda: swiglu_launch(kern, a, b, 1.0), return_mode="median")
            t_c = triton.testing.do_bench(lambda: fn(a, b, 1.0), return_mode="median")
            t_c2 = triton.testing.do_bench(lambda: fn(a, b, 1.0), return_mode="median")
            out.append(f"{name} {M}x{N}: compiled TTIR f64 lines {f64}; eager {t_e * 1e3:.1f} us, compiled "
                       f"{t_c * 1e3:.1f} us (again {t_c2 * 1e3:.1f}); max|compiled-eager| "
                       f"{(yc.float() - ye.float()).abs().max().item():.3g}")
        for line in out:
            print("KC501 " + line)


def f64_ops(ttir):
    body = ttir.split("{", 1)[1] if "{" in ttir else ttir
    return len([ln for ln in body.splitlines() if "f64" in ln])


def signature(ttir, name):
    """The line of the kernel's tt.func (its arguments and their types)."""
    for line in ttir.splitlines():
        if line.strip().startswith("tt.func public @%s(" % name):
            return line.strip()
    return "?"


def eps_type(ttir, name):
    """The type of the one float scalar argument in the signature."""
    sig = signature(ttir, name)
    if sig == "?":
        return "? (no signature found)"
    if re.search(r":\s*f64", sig):
        return "f64"
    if re.search(r":\s*f32\b", sig):
        return "f32"
    return "not an argument (constexpr)"


def cache_ttirs(name):
    return sorted(glob.glob(os.path.join(CACHE, "**", name + ".ttir"), recursive=True), key=os.path.getmtime)


def launch(kernel, x, w, eps):
    y = torch.empty_like(x)
    M, N = x.shape
    kernel[(M,)](x, y, w, x.stride(0), N, eps, BLOCK=triton.next_power_of_2(N))
    return y


def main():
    print(f"torch {torch.__version__} triton {triton.__version__} device {torch.cuda.get_device_name()}")
    M, N = 65536, 4096  # 512 MiB each way: the launch overhead stays out of the times
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    eps = 1e-6
    rows = []
    for name, kern in (("rms_plain", rms_plain), ("rms_cast", rms_cast), ("rms_annot", rms_annot),
                       ("rms_constexpr", rms_constexpr)):
        try:
            h = kern[(M,)](x, torch.empty_like(x), w, x.stride(0), N, eps, BLOCK=triton.next_power_of_2(N))
            ttir = h.asm["ttir"]
            print(f"KC501 eager {name}: eps is {eps_type(ttir, name)}; f64 lines in TTIR: {f64_ops(ttir)}")
        except Exception as e:  # an annotation this Triton does not take
            print(f"KC501 eager {name}: failed: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
            continue
        fns = {}
        for how in ("constant", "argument"):
            before = set(cache_ttirs(name))
            try:
                if how == "constant":
                    fn = torch.compile(lambda a, b, k=kern: launch(k, a, b, 1e-6), fullgraph=True)
                    yc = fn(x, w)
                else:
                    fn = torch.compile(lambda a, b, e, k=kern: launch(k, a, b, e), fullgraph=True)
                    yc = fn(x, w, eps)
                torch.cuda.synchronize()
            except Exception as e:
                print(f"KC501 compiled {name} (eps a {how}): failed: {type(e).__name__}: "
                      f"{str(e).splitlines()[0][:160]}")
                continue
            new = [p for p in cache_ttirs(name) if p not in before]
            if new:
                ttir = open(new[-1]).read()
                print(f"KC501 compiled {name} (eps a {how}): Inductor compiled it with eps "
                      f"{eps_type(ttir, name)}; f64 lines in TTIR: {f64_ops(ttir)}")
            else:
                print(f"KC501 compiled {name} (eps a {how}): no new compilation in the Triton cache")
            fns[how] = (fn, yc)
        ye = launch(kern, x, w, eps)
        t_e = triton.testing.do_bench(lambda: launch(kern, x, w, eps), return_mode="median")
        for how, (fn, yc) in fns.items():
            call = (lambda: fn(x, w)) if how == "constant" else (lambda: fn(x, w, eps))
            t_c = triton.testing.do_bench(call, return_mode="median")
            t_c2 = triton.testing.do_bench(call, return_mode="median")
            rows.append((f"{name}/{how}", t_e, t_c, t_c2, (yc.float() - ye.float()).abs().max().item()))
    for name, kern in (("tiny_literal", tiny_literal),):
        xs = torch.randn(1000, device="cuda")
        h = kern[(1,)](xs, torch.empty_like(xs), 1000, BLOCK=1024)
        print(f"KC501 literal 1e-40 (below the fp32 normal range) times an fp32 block: f64 lines in TTIR: "
              f"{f64_ops(h.asm['ttir'])}")
    xs = torch.randn(1000, device="cuda")
    h = scaled_literal[(1,)](xs, torch.empty_like(xs), 1000, 0.125, BLOCK=1024)
    print(f"KC501 eager scaled_literal (sm_scale * 1.44269504): sm_scale is "
          f"{eps_type(h.asm['ttir'], 'scaled_literal')}; f64 lines in TTIR: {f64_ops(h.asm['ttir'])}")
    before = set(cache_ttirs("scaled_literal"))

    def sl(a, s):
        y = torch.empty_like(a)
        scaled_literal[(1,)](a, y, 1000, s, BLOCK=1024)
        return y

    try:
        torch.compile(sl, fullgraph=True)(xs, 0.125)
        new = [p for p in cache_ttirs("scaled_literal") if p not in before]
        if new:
            ttir = open(new[-1]).read()
            print(f"KC501 compiled scaled_literal: sm_scale is {eps_type(ttir, 'scaled_literal')}; "
                  f"f64 lines in TTIR: {f64_ops(ttir)}")
    except Exception as e:
        print(f"KC501 compiled scaled_literal: failed: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
    swiglu_times()
    print("KC501 timing at 65536 x 4096 bf16 (ms, median of do_bench; compiled twice to show the spread):")
    print(f"{'kernel/eps':24} {'eager':>8} {'compiled':>9} {'again':>8} {'max|compiled-eager|':>20}")
    for name, t_e, t_c, t_c2, d in rows:
        print(f"{name:24} {t_e:8.4f} {t_c:9.4f} {t_c2:8.4f} {d:20.3g}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
