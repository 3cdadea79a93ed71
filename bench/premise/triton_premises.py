"""GPU premise checks for two Triton rules, run on a GPU machine:

  python3 bench/premise/triton_premises.py            # both checks, one line of results each
  python3 bench/premise/triton_premises.py ln int32   # one variant (a child process)

KC304 (flattened rows): the Triton layer-norm tutorial's forward kernel with
`row * stride` in int32, over x.reshape(-1, N) of more than 2^31 elements
(65600 x 32768 bf16, 4.3 GB), against the same kernel with the row id cast to
int64: does the int32 one fault or compute wrong rows, and is the fixed one right?
Each variant runs in its own process (an illegal address ends the CUDA context).

KC305 (Python `and` on blocks): does Triton compile `(a < n) and (b > 0)` on
blocks, what does it compute against `&`, and what does it print?
"""
import os
import subprocess
import sys
import warnings

import torch
import triton
import triton.language as tl


@triton.jit
def ln_fwd_i32(X, Y, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        tl.store(Y + cols, x - mean, mask=cols < N)


@triton.jit
def ln_fwd_i64(X, Y, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    Y += row * stride
    X += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        tl.store(Y + cols, x - mean, mask=cols < N)


def layer_norm_child(variant):
    M, N = 65600, 32768  # 2,149,580,800 elements > 2^31
    x = torch.empty((4, M // 4, N), dtype=torch.bfloat16, device="cuda")
    # row r holds r % 64 (exact in bf16), +1 on even columns; a row the kernel
    # never writes keeps -7, a row written from a wrapped offset faults or is wrong
    rows = (torch.arange(M, device="cuda", dtype=torch.float32) % 64).view(4, M // 4, 1)
    x.copy_(rows.expand(4, M // 4, N))
    x[..., ::2] += 1.0
    x_arg = x.reshape(-1, x.shape[-1])
    y = torch.full_like(x_arg, -7.0)
    k = ln_fwd_i32 if variant == "int32" else ln_fwd_i64
    k[(x_arg.shape[0],)](x_arg, y, x_arg.stride(0), N, 1e-5, BLOCK=1024)
    torch.cuda.synchronize()
    # expected: x - mean(row) = +0.5 on even columns, -0.5 on odd ones
    want = torch.tensor([0.5, -0.5], device="cuda", dtype=torch.bfloat16).repeat(N // 2)
    bad = 0
    first_bad = -1
    for r0 in range(0, M, 4096):
        blk = y[r0:r0 + 4096]
        ok = (blk == want).all(dim=1)
        nb = int((~ok).sum())
        if nb and first_bad < 0:
            first_bad = r0 + int((~ok).nonzero()[0])
        bad += nb
    print(f"RESULT ln {variant}: rows {M} x {N} = {M * N} elements; wrong rows {bad}; first wrong row {first_bad}")


@triton.jit
def and_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n, other=0)
    b = tl.load(b_ptr + offs, mask=offs < n, other=0)
    both = (a < n) and (b > 0)
    tl.store(out_ptr + offs, both.to(tl.int32), mask=offs < n)


@triton.jit
def amp_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n, other=0)
    b = tl.load(b_ptr + offs, mask=offs < n, other=0)
    both = (a < n) & (b > 0)
    tl.store(out_ptr + offs, both.to(tl.int32), mask=offs < n)


def bool_op():
    n = 1000
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randint(0, 2 * n, (n,), device="cuda", dtype=torch.int32, generator=g)
    b = torch.randint(-5, 5, (n,), device="cuda", dtype=torch.int32, generator=g)
    o1 = torch.zeros(n, device="cuda", dtype=torch.int32)
    o2 = torch.zeros_like(o1)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            and_kernel[(1,)](a, b, o1, n, BLOCK=1024)
            compiled = "compiled"
        except Exception as e:  # a compile error is the other possible answer
            compiled = f"did not compile: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
    amp_kernel[(1,)](a, b, o2, n, BLOCK=1024)
    torch.cuda.synchronize()
    msgs = "; ".join(sorted({str(x.message).splitlines()[0][:160] for x in w})) or "none"
    same = bool((o1 == o2).all()) if compiled == "compiled" else None
    print(f"RESULT and: {compiled}; same result as &: {same}; {int(o2.sum())} of {n} lanes true; warnings: {msgs}")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "ln":
        layer_norm_child(sys.argv[2])
        return
    print(f"torch {torch.__version__}, triton {triton.__version__}, {torch.cuda.get_device_name()}, "
          f"{torch.cuda.get_device_properties(0).total_memory / 2**30:.0f} GiB")
    bool_op()
    for v in ("int32", "int64"):
        p = subprocess.run([sys.executable, __file__, "ln", v], capture_output=True, text=True, timeout=400)
        lines = [l for l in (p.stdout + p.stderr).splitlines() if l.startswith("RESULT") or "Error" in l]
        tail = lines[-1] if lines else (p.stdout + p.stderr).strip().splitlines()[-1:]
        print(f"ln {v}: exit {p.returncode}: {tail}")


if __name__ == "__main__":
    main()
