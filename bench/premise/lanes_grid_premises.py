"""GPU premise checks for KC306 (masked-lane-garbage) and KC602
(launch-grid-limit), run on a GPU machine:

  python3 bench/premise/lanes_grid_premises.py           # every check, one line of results each
  python3 bench/premise/lanes_grid_premises.py grid Y    # one grid launch (a child process)

KC306: what does a masked-out lane of `tl.load` without `other=` hold on
this GPU and Triton, and does it reach a result?
  - raw: a load masked to the first 100 of 128 lanes, stored unmasked: the
    values of lanes 100..127, after the buffer behind them was filled with
    NaN (memory the mask keeps the load from reading), for num_warps 1/4;
  - sum: tl.sum of that load against torch's sum of the first 100;
  - dot: FlagGems#969's mm shape (K tiles loaded without other=) at K=100,
    BLOCK_K=32, num_stages 1 and 3, against torch.matmul, with A and B
    padded by NaN beyond K;
  - softmax with other=0.0 (exp(0 - max) counted in the sum) against torch.
KC602: does a Triton launch with grid (1, 65536) fail, and (1, 65535) run?
Each grid size runs in its own process (a failed launch may end the context).
"""
import math
import subprocess
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def raw_lanes(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x)


@triton.jit
def masked_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr, tl.sum(x, axis=0))


@triton.jit
def mm_no_other(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        rk = k * BLOCK_K + tl.arange(0, BLOCK_K)
        a = tl.load(A + rm[:, None] * sam + rk[None, :] * sak, mask=rk[None, :] < K)
        b = tl.load(B + rk[:, None] * sbk + rn[None, :] * sbn, mask=rk[:, None] < K)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def softmax_zero_pad(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + offs, e / tl.sum(e, axis=0), mask=offs < n)


@triton.jit
def raw_tile(x_ptr, out_ptr, n_cols, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, PASSES: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for p in tl.range(0, PASSES, num_stages=3):
        x = tl.load(x_ptr + p * BLOCK_M * stride + rows[:, None] * stride + cols[None, :], mask=cols[None, :] < n_cols)
        acc += x.to(tl.float32)
    tl.store(out_ptr + rows[:, None] * BLOCK_N + cols[None, :], acc)


@triton.jit
def touch(out_ptr):
    tl.store(out_ptr + tl.program_id(1) * 0, 1)


def kc306():
    dev = "cuda"
    for warps in (1, 4):
        x = torch.full((128,), float("nan"), device=dev)
        x[:100] = torch.arange(100, device=dev, dtype=torch.float32)
        out = torch.full((128,), -7.0, device=dev)
        raw_lanes[(1,)](x, out, 100, BLOCK=128, num_warps=warps)
        tail = out[100:].cpu()
        s = torch.empty(1, device=dev)
        masked_sum[(1,)](x, s, 100, BLOCK=128, num_warps=warps)
        print(f"KC306 raw num_warps={warps}: masked lanes hold {sorted(set(tail.tolist()))[:4]} "
              f"(nan={int(torch.isnan(tail).sum())}, zero={int((tail == 0).sum())} of 28); "
              f"tl.sum={s.item()} expected={float(x[:100].sum())}")
    # 2-D tiles of each dtype, loaded in a pipelined loop (cp.async), masked
    # along the columns at 100 of 128, the memory behind filled with NaN
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        for warps in (4, 8):
            x = torch.full((4 * 64, 128), float("nan"), device=dev, dtype=dt)
            x[:, :100] = 1
            out = torch.empty(64, 128, device=dev)
            raw_tile[(1,)](x, out, 100, x.stride(0), BLOCK_M=64, BLOCK_N=128, PASSES=4, num_warps=warps)
            tail = out[:, 100:]
            print(f"KC306 tile {str(dt)[6:]} num_warps={warps}: sum of 4 masked-out lanes per position: "
                  f"nonzero={int((tail != 0).sum())} nan={int(torch.isnan(tail).sum())} of {tail.numel()}")
    ptx = raw_lanes.warmup(torch.empty(128, device=dev), torch.empty(128, device=dev), 100, BLOCK=128,
                           grid=(1,)).asm["ptx"]
    lds = [l.strip() for l in ptx.splitlines() if "ld.global" in l]
    movs = [l.strip() for l in ptx.splitlines() if l.strip().startswith("mov.") and ("0x0" in l or ", 0;" in l)]
    print(f"KC306 ptx of raw_lanes: loads {lds[:2]}; zero moves {movs[:3]}")
    M, N, K = 64, 64, 100
    a = torch.full((M, 128), float("nan"), device=dev, dtype=torch.float16)
    b = torch.full((128, N), float("nan"), device=dev, dtype=torch.float16)
    a[:, :K] = torch.randn(M, K, device=dev, dtype=torch.float16)
    b[:K, :] = torch.randn(K, N, device=dev, dtype=torch.float16)
    ref = a[:, :K].float() @ b[:K, :].float()
    for stages in (1, 3):
        c = torch.empty(M, N, device=dev, dtype=torch.float32)
        mm_no_other[(1, 1)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, num_stages=stages)
        err = (c - ref).abs().max().item()
        print(f"KC306 dot num_stages={stages}: K=100 BLOCK_K=32 loads without other=, NaN beyond K: "
              f"max |c - ref| = {err} nan={int(torch.isnan(c).sum())} of {M * N}")
    x = torch.randn(100, device=dev)
    y = torch.empty(100, device=dev)
    softmax_zero_pad[(1,)](x, y, 100, BLOCK=128)
    ref = torch.softmax(x, 0)
    print(f"KC306 softmax other=0.0: max |y - ref| = {(y - ref).abs().max().item():.4g}, "
          f"sum(y) = {y.sum().item():.4f} (the 28 padded lanes add exp(0 - max) to the sum)")


def grid_child(y):
    out = torch.zeros(1, device="cuda", dtype=torch.int32)
    try:
        touch[(1, y)](out)
        torch.cuda.synchronize()
        print(f"KC602 grid (1, {y}): ran, out={out.item()}")
    except Exception as e:  # the launch error, as Triton raises it
        print(f"KC602 grid (1, {y}): {type(e).__name__}: {str(e).splitlines()[0][:160]}")


def kc602():
    for y in (65535, 65536):
        r = subprocess.run([sys.executable, __file__, "grid", str(y)], capture_output=True, text=True, timeout=300)
        lines = [l for l in (r.stdout + r.stderr).splitlines() if l.strip()]
        print(lines[-1] if lines else f"KC602 grid (1, {y}): exit {r.returncode}, no output")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "grid":
        grid_child(int(sys.argv[2]))
        sys.exit(0)
    print(f"torch {torch.__version__} triton {triton.__version__} {torch.cuda.get_device_name()}")
    kc306()
    kc602()
