"""Row softmax reference kernels (Triton).  Op: softmax_rows (fp32 [M, N]).

One program per row.  Rows of up to 16384 fp32 (64 KiB) are loaded whole
into registers, so the row is read once and written once (the minimum:
2 * M * N * 4 bytes): max, exp2((x - max) * log2(e)), sum, scale by 1/sum.
Longer rows use two passes: an online max/sum pass (running max, per-lane
sums rescaled when the max grows; one exp2 per element) and a pass that
re-reads the row (mostly from L2) and writes the result.
"""
import torch
import triton
import triton.language as tl

LOG2E: tl.constexpr = tl.constexpr(1.4426950408889634)

_MAX_SINGLE_TILE = 16384


@triton.jit
def _softmax_tile_kernel(in_ptr, out_ptr, N, stride_in, stride_out, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(in_ptr + row * stride_in + cols, mask=mask, other=float("-inf"),
                eviction_policy="evict_first")
    m = tl.max(x, axis=0)
    e = tl.exp2(x * LOG2E - m * LOG2E)
    inv = 1.0 / tl.sum(e, axis=0)
    tl.store(out_ptr + row * stride_out + cols, e * inv, mask=mask)


@triton.jit
def _softmax_online_kernel(in_ptr, out_ptr, N, stride_in, stride_out, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = in_ptr + row * stride_in
    y_row = out_ptr + row * stride_out
    cols = tl.arange(0, BLOCK_N)
    # A finite floor, not -inf: a chunk of -inf logits (a masked vocabulary
    # range) then gives 2^(-inf) = 0 instead of NaN from (-inf) - (-inf).
    m = -1.0e30
    s = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in tl.range(0, N, BLOCK_N):
        offs = start + cols
        x = tl.load(x_row + offs, mask=offs < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp2((m - m_new) * LOG2E) + tl.exp2(x * LOG2E - m_new * LOG2E)
        m = m_new
    m2 = m * LOG2E
    inv = 1.0 / tl.sum(s, axis=0)
    for start in tl.range(0, N, BLOCK_N):
        offs = start + cols
        mask = offs < N
        x = tl.load(x_row + offs, mask=mask, other=0.0, eviction_policy="evict_first")
        tl.store(y_row + offs, tl.exp2(x * LOG2E - m2) * inv, mask=mask)


def softmax_rows(x, M=None, N=None, **_):
    """out[i, :] = softmax(x[i, :]) for fp32 x [M, N]; returns a new [M, N] tensor."""
    if x.dim() != 2:
        raise ValueError("x must be 2-D [M, N], got shape %s" % (tuple(x.shape),))
    m_, n_ = x.shape
    if (M is not None and int(M) != m_) or (N is not None and int(N) != n_):
        raise ValueError("M, N = %s, %s do not match x.shape %s" % (M, N, tuple(x.shape)))
    if x.dtype != torch.float32:
        raise TypeError("softmax_rows takes float32, got %s" % x.dtype)
    if x.stride(1) != 1:
        x = x.contiguous()
    out = torch.empty((m_, n_), device=x.device, dtype=torch.float32)
    if m_ == 0 or n_ == 0:
        return out
    block = max(triton.next_power_of_2(n_), 128)
    if block <= _MAX_SINGLE_TILE:
        num_warps = min(16, max(4, block // 512))
        _softmax_tile_kernel[(m_,)](x, out, n_, x.stride(0), out.stride(0),
                                    BLOCK_N=block, num_warps=num_warps)
    else:
        _softmax_online_kernel[(m_,)](x, out, n_, x.stride(0), out.stride(0),
                                      BLOCK_N=4096, num_warps=8)
    return out
