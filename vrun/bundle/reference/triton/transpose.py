"""Matrix transpose reference kernel (Triton).  Op: transpose (fp32 [M, N] -> [N, M]).

Each program moves one 64x64 tile: a coalesced load along N, tl.trans (the
compiler routes the tile through shared memory, swizzled, so there are no
bank conflicts), and a coalesced store along M.  Offsets are int64.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _transpose_kernel(in_ptr, out_ptr, M, N, stride_in, stride_out,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(in_ptr + rm.to(tl.int64)[:, None] * stride_in + rn[None, :],
                mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.0,
                eviction_policy="evict_first")
    xt = tl.trans(x)
    tl.store(out_ptr + rn.to(tl.int64)[:, None] * stride_out + rm[None, :], xt,
             mask=(rn[:, None] < N) & (rm[None, :] < M))


def transpose(x, M=None, N=None, **_):
    """out[j, i] = x[i, j]; x fp32 [M, N]; returns a new contiguous [N, M] tensor."""
    if x.dim() != 2:
        raise ValueError("x must be 2-D [M, N], got shape %s" % (tuple(x.shape),))
    m_, n_ = x.shape
    if (M is not None and int(M) != m_) or (N is not None and int(N) != n_):
        raise ValueError("M, N = %s, %s do not match x.shape %s" % (M, N, tuple(x.shape)))
    if x.stride(1) != 1:
        x = x.contiguous()
    out = torch.empty((n_, m_), device=x.device, dtype=x.dtype)
    if m_ == 0 or n_ == 0:
        return out
    bm, bn = 64, 64
    grid = (triton.cdiv(m_, bm) * triton.cdiv(n_, bn),)
    _transpose_kernel[grid](x, out, m_, n_, x.stride(0), out.stride(0),
                            BLOCK_M=bm, BLOCK_N=bn, num_warps=4)
    return out
