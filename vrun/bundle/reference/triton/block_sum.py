"""Sum of a 1-D fp32 array (Triton).  Op: block_sum -> out [1] fp32.

Deterministic two-stage reduction: stage 1 launches P = cdiv(n, CHUNK)
programs, each summing one contiguous CHUNK (a multiple of BLOCK) with
per-lane fp32 accumulators and a runtime loop, then a tree sum; stage 2 is
one program that sums the P partials in a fixed order.  CHUNK depends on n
only, so the result is bitwise reproducible on any GPU.  16-byte loads,
evict-first (x is read once).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _sum_partials_kernel(x_ptr, part_ptr, n, CHUNK, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    start = pid * CHUNK
    end = tl.minimum(start + CHUNK, n)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    # CHUNK is a multiple of BLOCK, so a step never crosses into the next
    # chunk; only the end of the array needs the mask.
    for i in tl.range(start, end, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0, eviction_policy="evict_first")
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _sum_final_kernel(part_ptr, out_ptr, P, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.range(0, P, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < P, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


_BLOCK = 4096


def block_sum(x, n=None, **_):
    """out[0] = sum(x) for fp32 x [n]; returns a new fp32 tensor of shape [1]."""
    if x.dim() != 1:
        raise ValueError("x must be 1-D, got shape %s" % (tuple(x.shape),))
    n_ = x.shape[0]
    if n is not None and int(n) != n_:
        raise ValueError("n=%d does not match x.shape[0]=%d" % (n, n_))
    if x.dtype != torch.float32:
        raise TypeError("block_sum takes float32, got %s" % x.dtype)
    x = x.contiguous()
    out = torch.empty(1, device=x.device, dtype=torch.float32)
    if n_ == 0:
        return out.zero_()
    blocks = triton.cdiv(n_, _BLOCK)
    iters = min(64, max(1, triton.cdiv(blocks, 2048)))
    chunk = _BLOCK * iters
    p = triton.cdiv(n_, chunk)
    partials = torch.empty(p, device=x.device, dtype=torch.float32)
    _sum_partials_kernel[(p,)](x, partials, n_, chunk, BLOCK=_BLOCK, num_warps=8)
    _sum_final_kernel[(1,)](partials, out, p, BLOCK=1024, num_warps=4)
    return out
