"""GPU premise check for KC404's spin-wait exemption, run on a GPU machine:

  python3 bench/premise/kc404_spin_wait.py

KC404 does not report a store that comes after a spin wait on an atomic
(`while tl.atomic_add(lock, 0, sem="acquire") < pid_n: pass`): the kernel's
own lock orders the programs that store to the same addresses. It does
report the same store made before the wait. The premise, measured on the
two fixtures' own kernels (imported from tests/fixtures, not copied):

1. ok_spin_lock_orders_programs.py: every run's output equals
   torch.cumsum along the row (the running totals handed on through the
   stores after the wait arrive in order), over RUNS runs and two shapes.
2. bad_store_before_spin_wait.py: the store before the wait leaves in
   `carry` the total of whichever program stored last; how many runs end
   with a value other than the last program's, and how many distinct
   results the runs give.
"""
import importlib.util
import os
import sys

import torch
import triton

RUNS = 50
HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "..", "tests", "fixtures", "KC404_global-memory-race")


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(FIX, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ordered(mod):
    for m, n in ((4096, 4096), (1000, 3000)):
        torch.manual_seed(0)
        x = torch.randn(m, n, device="cuda")
        ref = torch.cumsum(x.double(), dim=1).float()
        worst, bad = 0.0, 0
        for _ in range(RUNS):
            out = mod.cumsum(x)
            torch.cuda.synchronize()
            err = (out - ref).abs().max().item()
            worst = max(worst, err)
            bad += err > 1e-2 * max(1.0, ref.abs().max().item() * 1e-3)
        print(f"ok (store after the wait), {m}x{n}: {RUNS} runs, max |out - torch.cumsum| = {worst:.3g}, "
              f"runs off by more than rounding: {bad}")


def racing(mod):
    m, n, bm, bn = 4096, 4096, 64, 64
    torch.manual_seed(0)
    x = torch.randn(m, n, device="cuda")
    # the total of the last program of each row block (pid_n = n/bn - 1)
    last = x[:, n - bn:].sum(dim=1)
    results, not_last = set(), 0
    for _ in range(RUNS):
        out = torch.empty_like(x)
        carry = torch.empty(m, device="cuda", dtype=torch.float32)
        lock = torch.zeros(triton.cdiv(m, bm), device="cuda", dtype=torch.int32)
        grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
        mod.chunked_cumsum[grid](x, out, carry, lock, m, n, x.stride(0), BLOCK_M=bm, BLOCK_N=bn)
        torch.cuda.synchronize()
        not_last += not torch.allclose(carry, last, atol=1e-3)
        results.add(hash(carry.cpu().numpy().tobytes()))
    print(f"bad (store before the wait), {m}x{n}: {RUNS} runs, runs whose `carry` is not the last program's "
          f"total: {not_last}, distinct results: {len(results)}")


def main():
    if not torch.cuda.is_available():
        print("no GPU: nothing measured")
        return 0
    print(f"torch {torch.__version__}, triton {triton.__version__}, {torch.cuda.get_device_name()}")
    ordered(load("ok_spin_lock_orders_programs"))
    racing(load("bad_store_before_spin_wait"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
