"""KC307 premise: what do the masked-off lanes of a Triton load without
`other=` hold, and what does an unmasked gather through them touch?

Prints the PTX of the index load (is the destination register set before the
predicated ld.global, as it is with other=0?), then runs the kernel and
prints what the masked-off lanes held. An index loaded under a mask with no
`other=` and used unmasked in an address is only safe if the compiler zero-
fills those lanes; Triton's documentation gives no value for them.

    python3 bench/premise/kc307_masked_index_no_other.py
"""
import re

import torch
import triton
import triton.language as tl


@triton.jit
def idx_no_other(idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, idx)


@triton.jit
def idx_other0(idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + offs, idx)


@triton.jit
def idx_gather(idx_ptr, x_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n)
    v = tl.load(x_ptr + idx * stride)
    tl.store(out_ptr + offs, v, mask=offs < n)


def ptx_lines(kernel, *args, **kw):
    c = kernel.warmup(*args, grid=(1,), **kw)
    ptx = c.asm["ptx"]
    keep = [l.strip() for l in ptx.splitlines() if re.search(r"ld\.global|mov\.(b|u)32 +%r\d+, 0(x0)?;|^\s*@", l)]
    return keep[:16]


def main():
    print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name())
    BLOCK, n = 128, 40
    idx = torch.arange(BLOCK, device="cuda", dtype=torch.int32) + 1000
    out = torch.full((BLOCK,), -7, device="cuda", dtype=torch.int32)
    for name, k in (("no other", idx_no_other), ("other=0", idx_other0)):
        print(f"--- PTX of the index load, {name}:")
        for l in ptx_lines(k, idx, out, n, BLOCK=BLOCK):
            print("   ", l)
    # poison: run a kernel that leaves large values in registers first, then
    # the masked load; report the masked-off lanes' values over several runs
    for trial in range(3):
        junk = torch.randint(1 << 20, 1 << 30, (1 << 20,), device="cuda", dtype=torch.int32)
        junk.add_(1)
        out.fill_(-7)
        idx_no_other[(1,)](idx, out, n, BLOCK=BLOCK)
        torch.cuda.synchronize()
        tail = out[n:].tolist()
        print(f"run {trial}: masked-off lanes (no other): distinct values {sorted(set(tail))[:8]}")
    out.fill_(-7)
    idx_other0[(1,)](idx, out, n, BLOCK=BLOCK)
    print("masked-off lanes (other=0): distinct values", sorted(set(out[n:].tolist()))[:8])
    x = torch.randn(2048, device="cuda")
    g = torch.zeros(BLOCK, device="cuda")
    print("--- PTX of the gather kernel:")
    for l in ptx_lines(idx_gather, torch.arange(BLOCK, device="cuda", dtype=torch.int32), x, g, n, 1, BLOCK=BLOCK):
        print("   ", l)


if __name__ == "__main__":
    main()
