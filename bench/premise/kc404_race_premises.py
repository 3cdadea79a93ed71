"""GPU premise checks for KC404's new shapes, run on a GPU machine:

  python3 bench/premise/kc404_race_premises.py

1. A split grid axis (`pid_m = pid // num_pid_n`, `pid_n = pid % num_pid_n`,
   the shape of mamba 620cd981): every N tile stores its partial sum at an
   address made of `pid_m` alone. Measured: the stored value against the
   sum of all N tiles (the atomic fix), and how many distinct results 20
   runs give, with one N tile (no race) and with 16.
2. One block initialises what the others update (TransformerEngine
   98c2ea2a): kernel_init_race.cu, built with nvcc and run as a program;
   it prints how many of its launches lost updates.
"""
import os
import subprocess
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def dd_store(x, dout, dd, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = tl.program_id(0) // num_pid_n
    pid_n = tl.program_id(0) % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    g = tl.load(dout + offs_m[:, None] * N + offs_n[None, :], mask=mask, other=0.0)
    v = tl.load(x + offs_m[:, None] * N + offs_n[None, :], mask=mask, other=0.0)
    tl.store(dd + pid_m, tl.sum(g * v))


@triton.jit
def dd_atomic(x, dout, dd, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = tl.program_id(0) // num_pid_n
    pid_n = tl.program_id(0) % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    g = tl.load(dout + offs_m[:, None] * N + offs_n[None, :], mask=mask, other=0.0)
    v = tl.load(x + offs_m[:, None] * N + offs_n[None, :], mask=mask, other=0.0)
    tl.atomic_add(dd + pid_m, tl.sum(g * v))


def split_axis():
    torch.manual_seed(0)
    M, BM, BN = 4096, 64, 64
    for N in (64, 1024):
        x = torch.randn(M, N, device="cuda")
        dout = torch.randn(M, N, device="cuda")
        tiles_m, tiles_n = triton.cdiv(M, BM), triton.cdiv(N, BN)
        ref = (x * dout).reshape(tiles_m, BM, N).sum(dim=(1, 2))
        fixed = torch.zeros(tiles_m, device="cuda")
        dd_atomic[(tiles_m * tiles_n,)](x, dout, fixed, M, N, BLOCK_M=BM, BLOCK_N=BN)
        outs = set()
        worst = 0.0
        for _ in range(20):
            dd = torch.zeros(tiles_m, device="cuda")
            dd_store[(tiles_m * tiles_n,)](x, dout, dd, M, N, BLOCK_M=BM, BLOCK_N=BN)
            torch.cuda.synchronize()
            outs.add(tuple(dd.cpu().tolist()))
            worst = max(worst, (dd - ref).abs().max().item())
        print(f"split axis: N={N} ({tiles_n} N tile(s)): plain store max |err| vs sum of all tiles = {worst:.4g}, "
              f"distinct results over 20 runs = {len(outs)}; atomic fix max |err| = "
              f"{(fixed - ref).abs().max().item():.4g} (|ref| max {ref.abs().max().item():.4g})")


def init_race():
    here = os.path.dirname(os.path.abspath(__file__))
    exe = "/tmp/kc404_init_race"
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-o", exe, os.path.join(here, "kernel_init_race.cu")], check=True)
    print(subprocess.run([exe], check=True, capture_output=True, text=True).stdout, end="")


if __name__ == "__main__":
    print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name())
    split_axis()
    init_race()
    sys.stdout.flush()
