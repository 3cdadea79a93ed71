"""Matrix-vector product reference kernel (Triton).  Op: matvec: y[M] = A[M, K] . x[K] (fp32).

Each program owns BLOCK_M = 8 rows and walks K in steps of BLOCK_K = 512
with a runtime loop: the [8, 512] tile of A is loaded along K (coalesced,
16-byte vectors: the fix for KC101's row-per-thread pattern), multiplied by
the x chunk (L2-resident, shared by all programs) into an fp32 [8, 512]
accumulator, which is reduced over K once at the end.  A is read once
(evict-first); row offsets are int64.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _matvec_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am,
                   BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rmask = rows < M
    a_rows = a_ptr + rows.to(tl.int64)[:, None] * stride_am
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k0 in tl.range(0, K, BLOCK_K):
        kk = k0 + ks
        kmask = kk < K
        a = tl.load(a_rows + kk[None, :], mask=rmask[:, None] & kmask[None, :], other=0.0,
                    eviction_policy="evict_first")
        xv = tl.load(x_ptr + kk, mask=kmask, other=0.0)
        acc += a * xv[None, :]
    tl.store(y_ptr + rows, tl.sum(acc, axis=1), mask=rmask)


def matvec(A, x, M=None, K=None, **_):
    """y = A @ x for fp32 A [M, K] and x [K]; returns a new fp32 [M] tensor."""
    if A.dim() != 2 or x.dim() != 1 or x.shape[0] != A.shape[1]:
        raise ValueError("A must be [M, K] and x [K]; got %s and %s"
                         % (tuple(A.shape), tuple(x.shape)))
    m_, k_ = A.shape
    if (M is not None and int(M) != m_) or (K is not None and int(K) != k_):
        raise ValueError("M, K = %s, %s do not match A.shape %s" % (M, K, tuple(A.shape)))
    if A.stride(1) != 1:
        A = A.contiguous()
    x = x.contiguous()
    y = torch.empty(m_, device=A.device, dtype=torch.float32)
    if m_ == 0:
        return y
    if k_ == 0:
        return y.zero_()
    bm, bk = 8, 512
    _matvec_kernel[(triton.cdiv(m_, bm),)](A, x, y, m_, k_, A.stride(0),
                                          BLOCK_M=bm, BLOCK_K=bk, num_warps=4)
    return y
